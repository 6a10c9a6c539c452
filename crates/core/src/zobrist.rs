//! Zobrist keys, computed at compile time.
//!
//! A position's hash is the XOR of one key per stone and one for the side to
//! move, so playing or undoing a move updates it with a single XOR.

use crate::{Player, Point};

/// The largest number of points any board of this crate has.
pub const MAX_POINTS: usize = 256;

const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

const fn keys() -> [[u64; MAX_POINTS]; 2] {
    let mut table = [[0u64; MAX_POINTS]; 2];
    let mut state = 0x1A2B_3C4D_5E6F_7081;
    let mut player = 0;
    while player < 2 {
        let mut i = 0;
        while i < MAX_POINTS {
            let (next, key) = splitmix64(state);
            state = next;
            table[player][i] = key;
            i += 1;
        }
        player += 1;
    }
    table
}

static KEYS: [[u64; MAX_POINTS]; 2] = keys();

/// The key XORed in while `O` is to move.
pub const O_TO_MOVE: u64 = splitmix64(0x0BAD_5EED).1;

/// The key of `player`'s stone on `point`.
#[inline]
pub fn stone_key(player: Player, point: Point) -> u64 {
    KEYS[player.index()][point.index()]
}

#[cfg(test)]
mod tests {
    use super::*;

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
