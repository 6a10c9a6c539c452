//! Zobrist keys, computed at compile time.
//!
//! A position's hash is the XOR of one key per stone and one for the side to
//! move, so playing or undoing a move updates it with a single XOR.

use crate::{Player, Point};

/// The largest number of points any board of this crate has.
pub const MAX_POINTS: usize = 256;

/// A reproducible stream of well-mixed 64-bit keys (SplitMix64): the same
/// seed gives the same keys on every machine and in every build, so hashes,
/// and the games searches play with them, replay exactly.
///
/// Every key table of the workspace is drawn from one of these.
///
/// ```
/// use inarow_core::zobrist::Keys;
///
/// const FIRST: u64 = Keys::new(7).next_key();
/// let mut keys = Keys::new(7);
/// assert_eq!(keys.next_key(), FIRST);
/// assert_ne!(keys.next_key(), FIRST);
/// ```
#[derive(Clone, Debug)]
pub struct Keys {
    state: u64,
}

impl Keys {
    /// The stream that starts from `seed`.
    pub const fn new(seed: u64) -> Keys {
        Keys { state: seed }
    }

    /// The next key.
    pub const fn next_key(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

const fn keys() -> [[u64; MAX_POINTS]; 2] {
    let mut table = [[0u64; MAX_POINTS]; 2];
    let mut keys = Keys::new(0x1A2B_3C4D_5E6F_7081);
    let mut player = 0;
    while player < 2 {
        let mut i = 0;
        while i < MAX_POINTS {
            table[player][i] = keys.next_key();
            i += 1;
        }
        player += 1;
    }
    table
}

static KEYS: [[u64; MAX_POINTS]; 2] = keys();

/// The key XORed in while `O` is to move.
pub const O_TO_MOVE: u64 = Keys::new(0x0BAD_5EED).next_key();

/// The key of `player`'s stone on `point`.
#[inline]
pub fn stone_key(player: Player, point: Point) -> u64 {
    KEYS[player.index()][point.index()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_never_change() {
        // Saved hashes and replayed searches depend on these exact values.
        assert_eq!(KEYS[0][0], 0xeaec_7a65_f958_9bb4);
        assert_eq!(KEYS[1][MAX_POINTS - 1], 0xbc91_5950_d927_9275);
        assert_eq!(O_TO_MOVE, 0x51df_08fb_072f_38e2);
    }

    #[test]
    fn keys_are_distinct() {
        let mut all: Vec<u64> = KEYS.iter().flatten().copied().collect();
        all.push(O_TO_MOVE);
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n);
    }
}
