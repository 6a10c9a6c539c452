//! The selective search's transposition table: buckets of four 16-byte
//! entries (one cache line each), each entry with the search's score, the
//! static evaluation, the best move, the depth, the bound, whether it was a
//! principal-variation node, and the generation (the search that stored
//! it), so that old entries give way first. Decided scores are stored
//! relative to the node and read back relative to the root.
//!
//! The table is shared by the threads of a parallel search (lazy SMP):
//! every method takes `&self`. An entry is two atomic words, written and
//! read with relaxed ordering (plain moves on x86): the data word, and the
//! key word XORed with the data word, so that an entry torn by two threads
//! writing at once fails its key check and reads as absent, never as
//! another position's result.

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering::Relaxed};

use crate::movepick::Move;
use crate::pos::Pos;
use crate::score::{from_tt, to_tt};

pub use inarow_core::Bound;

/// What a probe finds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hit {
    /// The stored score, decided scores relative to the root.
    pub score: i32,
    /// The static evaluation of the position.
    pub eval: i32,
    /// The best move found, if any.
    pub best: Option<Pos>,
    /// The depth searched, in the search's units (0: a leaf search).
    pub depth: i32,
    /// How the score bounds the true value.
    pub bound: Bound,
    /// Whether the node was on a principal variation.
    pub pv: bool,
}

impl Hit {
    /// The score if it settles a search of `depth` within `(alpha, beta)`.
    #[inline]
    pub fn settles(&self, depth: i32, alpha: i32, beta: i32) -> Option<i32> {
        let settled = match self.bound {
            _ if self.depth < depth => false,
            Bound::Exact => true,
            Bound::Lower => self.score >= beta,
            Bound::Upper => self.score <= alpha,
        };
        settled.then_some(self.score)
    }
}

/// One entry as its fields, unpacked from the table's two words.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Entry {
    /// The low half of the position's key (the high half chose the bucket).
    key: u32,
    score: i32,
    eval: i16,
    /// Best move, if any (two bytes, as a move is remembered).
    best: Option<Move>,
    depth: i16,
    /// Bound (2 bits), principal variation (1 bit), generation (5 bits).
    flags: u8,
    /// Set once the entry holds anything.
    used: u8,
}

impl Entry {
    /// The data word: evaluation, move, depth, flags, used.
    #[inline]
    fn data(&self) -> u64 {
        let best = self.best.map_or(0, |m| u64::from(m.raw()));
        u64::from(self.eval as u16)
            | best << 16
            | u64::from(self.depth as u16) << 32
            | u64::from(self.flags) << 48
            | u64::from(self.used) << 56
    }

    /// The key word: key and score.
    #[inline]
    fn head(&self) -> u64 {
        u64::from(self.key) | u64::from(self.score as u32) << 32
    }

    /// The entry of these two words.
    #[inline]
    fn of(head: u64, data: u64) -> Entry {
        Entry {
            key: head as u32,
            score: (head >> 32) as u32 as i32,
            eval: data as u16 as i16,
            best: Move::from_raw((data >> 16) as u16),
            depth: (data >> 32) as u16 as i16,
            flags: (data >> 48) as u8,
            used: (data >> 56) as u8,
        }
    }
}

/// An entry as it lies in the table: the key word XORed with the data
/// word, and the data word.
#[derive(Debug, Default)]
#[repr(C)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

impl Slot {
    /// The entry, or what a torn write left of it (which fails any key
    /// check but by chance).
    #[inline]
    fn read(&self) -> Entry {
        let data = self.data.load(Relaxed);
        Entry::of(self.check.load(Relaxed) ^ data, data)
    }

    #[inline]
    fn write(&self, e: &Entry) {
        let data = e.data();
        self.check.store(e.head() ^ data, Relaxed);
        self.data.store(data, Relaxed);
    }

    #[inline]
    fn clear(&self) {
        self.check.store(0, Relaxed);
        self.data.store(0, Relaxed);
    }
}

const WAYS: usize = 4;

#[derive(Debug, Default)]
#[repr(C, align(64))]
struct Bucket([Slot; WAYS]);

const GENERATIONS: u8 = 32;

/// A table of buckets indexed by the key's high bits, shared by `&`
/// between the threads of one search.
pub struct Table {
    buckets: Vec<Bucket>,
    generation: AtomicU8,
}

fn bound_bits(b: Bound) -> u8 {
    match b {
        Bound::Exact => 0,
        Bound::Lower => 1,
        Bound::Upper => 2,
    }
}

fn bound_of(bits: u8) -> Bound {
    match bits & 3 {
        0 => Bound::Exact,
        1 => Bound::Lower,
        _ => Bound::Upper,
    }
}

impl Table {
    /// A table of at most `bytes` bytes (at least 1024 buckets).
    pub fn with_bytes(bytes: usize) -> Table {
        let n = (bytes / std::mem::size_of::<Bucket>()).max(1024);
        Table {
            buckets: (0..n).map(|_| Bucket::default()).collect(),
            generation: AtomicU8::new(0),
        }
    }

    /// The table's size in bytes.
    pub fn bytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>()
    }

    /// Forgets everything (no search may be using the table).
    pub fn clear(&self) {
        for bucket in &self.buckets {
            bucket.0.iter().for_each(Slot::clear);
        }
        self.generation.store(0, Relaxed);
    }

    /// [`Table::clear`] where nothing else holds the table: plain stores,
    /// which the compiler makes one fill (issue 55: clearing word by
    /// atomic word took a twentieth of the tree measure).
    pub fn clear_owned(&mut self) {
        for bucket in &mut self.buckets {
            for slot in &mut bucket.0 {
                *slot.check.get_mut() = 0;
                *slot.data.get_mut() = 0;
            }
        }
        *self.generation.get_mut() = 0;
    }

    /// Starts a new search: what earlier searches stored ages.
    pub fn new_search(&self) {
        let g = self.generation.load(Relaxed);
        self.generation.store((g + 1) % GENERATIONS, Relaxed);
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        ((u128::from(key >> 32) * self.buckets.len() as u128) >> 32) as usize
    }

    /// Asks the processor to bring `key`'s bucket into the cache while other
    /// work runs (the probe of a child node about to be entered), where a
    /// probe would wait for it: the table is far larger than the caches
    /// (issue 55). Only a hint; reads nothing.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        prefetch_index::prefetch_index(&self.buckets, self.bucket(key));
    }

    /// The entry for `key`, if stored; `ply` is the node's distance from the root.
    #[inline]
    pub fn probe(&self, key: u64, ply: usize) -> Option<Hit> {
        let bucket = &self.buckets[self.bucket(key)];
        let e = bucket
            .0
            .iter()
            .map(Slot::read)
            .find(|e| e.used != 0 && e.key == key as u32)?;
        Some(Hit {
            score: from_tt(e.score, ply),
            eval: i32::from(e.eval),
            best: e.best.map(Move::pos),
            depth: i32::from(e.depth),
            bound: bound_of(e.flags),
            pv: e.flags & 4 != 0,
        })
    }

    /// Stores a result found `ply` plies from the root. Within the bucket
    /// the same position is replaced unless the stored result is deeper
    /// and not exact; otherwise the entry with the least depth, counting
    /// age against it, gives way.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub fn store(
        &self,
        key: u64,
        ply: usize,
        depth: i32,
        score: i32,
        eval: i32,
        bound: Bound,
        pv: bool,
        best: Option<Pos>,
    ) {
        let generation = self.generation.load(Relaxed);
        let i = self.bucket(key);
        let slots = &self.buckets[i].0;
        let bucket: [Entry; WAYS] = std::array::from_fn(|k| slots[k].read());
        let age = |e: &Entry| (GENERATIONS + generation - (e.flags >> 3)) % GENERATIONS;
        let slot = match bucket
            .iter()
            .position(|e| e.used != 0 && e.key == key as u32)
        {
            Some(k) => {
                let e = &bucket[k];
                if bound != Bound::Exact && i32::from(e.depth) > depth + 200 && age(e) == 0 {
                    // Keep the deeper result's move if the new one has none.
                    return;
                }
                k
            }
            None => (0..WAYS)
                .min_by_key(|&k| {
                    let e = &bucket[k];
                    if e.used == 0 {
                        i32::MIN
                    } else {
                        i32::from(e.depth) - 800 * i32::from(age(e))
                    }
                })
                .expect("a bucket has entries"),
        };
        let old_best = bucket[slot].best;
        let same = bucket[slot].used != 0 && bucket[slot].key == key as u32;
        slots[slot].write(&Entry {
            key: key as u32,
            score: to_tt(score, ply),
            eval: eval.clamp(i16::MIN.into(), i16::MAX.into()) as i16,
            best: match best {
                Some(m) => Some(Move::at(m)),
                None if same => old_best,
                None => None,
            },
            depth: depth.clamp(-1, i16::MAX.into()) as i16,
            flags: bound_bits(bound) | if pv { 4 } else { 0 } | generation << 3,
            used: 1,
        });
    }

    /// Entries used by the current search per thousand, from the first
    /// thousand buckets (as engines report "hashfull").
    pub fn permille(&self) -> usize {
        let sample = self.buckets.len().min(1000);
        let generation = self.generation.load(Relaxed);
        let used = self.buckets[..sample]
            .iter()
            .flat_map(|b| b.0.iter().map(Slot::read))
            .filter(|e| e.used != 0 && e.flags >> 3 == generation)
            .count();
        used * 1000 / (sample * WAYS)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::win_in;

    #[test]
    fn a_bucket_is_one_cache_line() {
        assert_eq!(std::mem::size_of::<Slot>(), 16);
        assert_eq!(std::mem::size_of::<Bucket>(), 64);
    }

    #[test]
    fn an_entry_comes_back_from_its_two_words_and_a_torn_one_is_absent() {
        let e = Entry {
            key: 0xdead_beef,
            score: -999_990,
            eval: -1234,
            best: Some(Move::at(Pos::from_index(224))),
            depth: -1,
            flags: 0xff,
            used: 1,
        };
        assert_eq!(Entry::of(e.head(), e.data()), e);
        // Another position's data word under this key word: the check fails.
        let t = Table::with_bytes(0);
        let key = u64::from(e.key);
        t.store(key, 0, 300, 5, 7, Bound::Exact, false, None);
        let slot = &t.buckets[t.bucket(key)].0[0];
        assert!(t.probe(key, 0).is_some());
        slot.data.store(e.data(), Relaxed);
        assert!(t.probe(key, 0).is_none(), "a torn entry reads as absent");
    }

    #[test]
    fn a_hit_settles_only_the_windows_its_bound_and_depth_decide() {
        let hit = |score, bound| Hit {
            score,
            eval: 0,
            best: None,
            depth: 300,
            bound,
            pv: false,
        };
        assert_eq!(hit(5, Bound::Exact).settles(300, 10, 20), Some(5));
        assert_eq!(
            hit(5, Bound::Exact).settles(301, 10, 20),
            None,
            "too shallow"
        );
        assert_eq!(hit(20, Bound::Lower).settles(0, 10, 20), Some(20));
        assert_eq!(hit(19, Bound::Lower).settles(0, 10, 20), None);
        assert_eq!(hit(10, Bound::Upper).settles(0, 10, 20), Some(10));
        assert_eq!(hit(11, Bound::Upper).settles(0, 10, 20), None);
        // A result always settles the window it was found with.
        for score in [5, 10, 15, 20, 25] {
            let bound = Bound::of(score, 10, 20);
            assert_eq!(
                hit(score, bound).settles(0, 10, 20),
                Some(score),
                "{bound:?}"
            );
        }
    }

    #[test]
    fn stored_results_come_back_with_decided_scores_moved_to_the_root() {
        let t = Table::with_bytes(1 << 16);
        let key = 0x1234_5678_9abc_def0;
        // A win one ply after a node three plies deep: four from the root.
        t.store(
            key,
            3,
            500,
            win_in(4),
            17,
            Bound::Exact,
            true,
            Some(Pos::from_index(42)),
        );
        let hit = t.probe(key, 3).unwrap();
        assert_eq!(
            (hit.score, hit.eval, hit.best, hit.depth, hit.pv),
            (win_in(4), 17, Some(Pos::from_index(42)), 500, true)
        );
        // The same position met five plies from the root wins at ply six.
        assert_eq!(t.probe(key, 5).unwrap().score, win_in(6));
        assert!(t.probe(key ^ 1, 3).is_none());
        // A shallower bound without a move keeps the stored move.
        t.store(key, 3, 500, 3, 17, Bound::Upper, false, None);
        assert_eq!(t.probe(key, 3).unwrap().best, Some(Pos::from_index(42)));
    }

    #[test]
    fn a_full_bucket_gives_way_to_the_shallowest_oldest_entry() {
        let t = Table::with_bytes(0);
        // Keys with the same high half share a bucket.
        let key = |k: u64| (7u64 << 32) | k;
        for k in 1..=4 {
            t.store(key(k), 0, 100 * k as i32, 0, 0, Bound::Exact, false, None);
        }
        t.store(key(5), 0, 300, 0, 0, Bound::Exact, false, None);
        assert!(t.probe(key(1), 0).is_none(), "the shallowest went");
        assert!(t.probe(key(5), 0).is_some());
        t.new_search();
        t.new_search();
        t.store(key(6), 0, 100, 0, 0, Bound::Exact, false, None);
        assert!(t.probe(key(6), 0).is_some());
        assert!(t.permille() <= 1000);
    }
}
