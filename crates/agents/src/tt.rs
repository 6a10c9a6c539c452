//! The transposition table: positions already searched, keyed by hash.
//!
//! [`Bound`] (the core's, which the engine's table speaks too) and
//! [`Entry`] are what this crate's searches store ([`Search`](crate::Search)
//! over any game); the gomoku engine keeps a table of its own, packed for
//! its search.

use inarow_core::Point;

use crate::score::{DECISIVE, Score};

pub use inarow_core::Bound;

/// One stored search result; `M` is how the search names a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry<M> {
    /// The full hash of the position: slots are shared by many positions.
    pub key: u64,
    /// The score, with wins and losses counted from this position.
    pub score: Score,
    /// The best move found, if any.
    pub best: Option<M>,
    /// How deep the search below this position went.
    pub depth: i16,
    /// What kind of bound the score is.
    pub bound: Bound,
    /// Which search stored it, for tables that forget by counting searches
    /// (0 in tables that clear their memory instead).
    pub generation: u8,
}

impl<M> Entry<M> {
    /// The score, when this result settles a search `depth` deep with the
    /// window `alpha..beta` without searching again.
    #[inline]
    pub fn settles(&self, depth: i32, alpha: Score, beta: Score) -> Option<Score> {
        if i32::from(self.depth) < depth {
            return None;
        }
        self.bound.settles(self.score, alpha, beta)
    }
}

/// A fixed-size, always-replace-when-deeper-or-older table.
///
/// A new search bumps the generation instead of clearing memory, so starting
/// a search costs nothing however large the table is.
#[derive(Clone, Debug)]
pub struct Table {
    entries: Vec<Option<Entry<Point>>>,
    mask: usize,
    generation: u8,
}

impl Table {
    /// A table of `2^bits` entries.
    pub fn new(bits: u32) -> Table {
        let len = 1usize << bits;
        Table {
            entries: vec![None; len],
            mask: len - 1,
            generation: 0,
        }
    }

    /// Forgets everything stored, in constant time.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            // After 256 searches the counter wraps: clear for real so no
            // stale entry passes for a fresh one.
            self.entries.iter_mut().for_each(|e| *e = None);
            self.generation = 1;
        }
    }

    /// The entry for `key` from this search, if any; scores of wins and
    /// losses are made relative to the root, `ply` moves up.
    #[inline]
    pub fn probe(&self, key: u64, ply: u32) -> Option<Entry<Point>> {
        let e = self.entries[key as usize & self.mask]?;
        if e.key != key || e.generation != self.generation {
            return None;
        }
        Some(Entry {
            score: from_table(e.score, ply),
            ..e
        })
    }

    /// Stores a result found `ply` moves below the root.
    #[inline]
    pub fn store(
        &mut self,
        key: u64,
        ply: u32,
        depth: i16,
        score: Score,
        bound: Bound,
        best: Option<Point>,
    ) {
        let slot = &mut self.entries[key as usize & self.mask];
        if let Some(old) = slot
            && old.generation == self.generation
            && old.key != key
            && old.depth > depth
        {
            return;
        }
        *slot = Some(Entry {
            key,
            score: to_table(score, ply),
            depth,
            bound,
            best,
            generation: self.generation,
        });
    }
}

// A win found `ply` moves below the root is `ply` moves nearer from the
// position itself: store distances from the position, not from the root.
fn to_table(score: Score, ply: u32) -> Score {
    if score > DECISIVE {
        score + ply as Score
    } else if score < -DECISIVE {
        score - ply as Score
    } else {
        score
    }
}

fn from_table(score: Score, ply: u32) -> Score {
    if score > DECISIVE {
        score - ply as Score
    } else if score < -DECISIVE {
        score + ply as Score
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::WIN;

    #[test]
    fn store_probe_and_forget() {
        let mut t = Table::new(4);
        t.new_search();
        t.store(42, 3, 5, WIN - 7, Bound::Exact, Some(Point(4)));
        let e = t.probe(42, 1).unwrap();
        assert_eq!(
            e.score,
            WIN - 5,
            "a win 4 moves from the position is 5 from a root one move up"
        );
        assert_eq!(e.best, Some(Point(4)));
        assert!(t.probe(43, 1).is_none());
        t.new_search();
        assert!(t.probe(42, 1).is_none());
    }
}
