//! The transposition table: one entry per slot, replaced when the new
//! result is at least as deep or comes from a different position.

use inarow_agents::tt;
pub use inarow_agents::tt::Bound;

use crate::score::{from_tt, to_tt};

/// One stored search result; the best move is a grid index.
pub type Entry = tt::Entry<u16>;

// Never found: no search stores a negative depth.
const EMPTY_ENTRY: Entry = Entry {
    key: 0,
    score: 0,
    best: None,
    depth: -1,
    bound: Bound::Upper,
    generation: 0,
};

/// A fixed-size table indexed by the low bits of the hash.
pub struct Table {
    entries: Vec<Entry>,
    mask: usize,
}

impl Table {
    /// A table of at most `bytes` bytes (at least 1024 entries).
    pub fn with_bytes(bytes: usize) -> Table {
        let want = (bytes / std::mem::size_of::<Entry>()).max(1024);
        let n = if want.is_power_of_two() {
            want
        } else {
            want.next_power_of_two() / 2
        };
        Table {
            entries: vec![EMPTY_ENTRY; n],
            mask: n - 1,
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.entries.fill(EMPTY_ENTRY);
    }

    /// The entry for `key`, if stored; decided scores made relative to the root.
    #[inline]
    pub fn probe(&self, key: u64, ply: usize) -> Option<Entry> {
        let e = self.entries[key as usize & self.mask];
        (e.key == key && e.depth >= 0).then(|| Entry {
            score: from_tt(e.score, ply),
            ..e
        })
    }

    /// Stores a result found `ply` plies from the root.
    #[inline]
    pub fn store(
        &mut self,
        key: u64,
        ply: usize,
        depth: i32,
        score: i32,
        bound: Bound,
        best: Option<usize>,
    ) {
        let slot = &mut self.entries[key as usize & self.mask];
        if slot.key == key && i32::from(slot.depth) > depth && bound != Bound::Exact {
            return;
        }
        *slot = Entry {
            key,
            score: to_tt(score, ply),
            best: best.map(|b| b as u16),
            depth: depth.clamp(0, i16::MAX as i32) as i16,
            bound,
            generation: 0,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_stays_24_bytes() {
        // The table's memory and the search's cache traffic depend on it.
        assert_eq!(std::mem::size_of::<Entry>(), 24);
    }
}
