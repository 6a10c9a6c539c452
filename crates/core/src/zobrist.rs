//! Zobrist keys, computed at compile time.
//!
//! A position's hash is the XOR of one key per stone and one for the side to
//! move, so playing or undoing a move updates it with a single XOR.

use crate::{Player, Point};

/// The largest number of points any board of this crate has: 20 x 20.
pub const MAX_POINTS: usize = 400;

/// How many points the key table had first: their keys come first in the
/// stream, so the keys of these points never change when boards grow.
const FIRST_POINTS: usize = 256;

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

/// One stream fills the table: `X`'s keys of the first 256 points, then
/// `O`'s, then (since boards grew past 256 points) `X`'s keys of the points
/// after them, then `O`'s. So the first 256 points keep the keys they had
/// when boards held 256 points, and hashes saved since stay right.
const fn keys() -> [[u64; MAX_POINTS]; 2] {
    let mut table = [[0u64; MAX_POINTS]; 2];
    let mut keys = Keys::new(0x1A2B_3C4D_5E6F_7081);
    let bands = [(0, FIRST_POINTS), (FIRST_POINTS, MAX_POINTS)];
    let mut band = 0;
    while band < bands.len() {
        let (from, to) = bands[band];
        let mut player = 0;
        while player < 2 {
            let mut i = from;
            while i < to {
                table[player][i] = keys.next_key();
                i += 1;
            }
            player += 1;
        }
        band += 1;
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
        assert_eq!(KEYS[1][255], 0xbc91_5950_d927_9275);
        assert_eq!(O_TO_MOVE, 0x51df_08fb_072f_38e2);
    }

    #[test]
    fn the_first_256_points_keep_their_keys() {
        // The table as it was when boards held 256 points: one stream, X's
        // 256 keys then O's. Boards up to 20 x 20 must not change them.
        let mut keys = Keys::new(0x1A2B_3C4D_5E6F_7081);
        for (player, table) in KEYS.iter().enumerate() {
            for (i, &key) in table[..256].iter().enumerate() {
                assert_eq!(key, keys.next_key(), "player {player}, point {i}");
            }
        }
        // A few pinned by value: the centre of 15 x 15 and each half's ends.
        assert_eq!(KEYS[0][112], 0x51d4_c001_b4f0_fdb6);
        assert_eq!(KEYS[0][255], 0x54cc_55ea_7060_00aa);
        assert_eq!(KEYS[1][0], 0x078b_fef9_2065_ff7c);
        assert_eq!(KEYS[1][112], 0xf4d1_2cc3_9617_8e86);
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
