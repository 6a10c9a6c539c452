//! Static evaluation: the point values of both sides, from the side to move.
//!
//! Every empty point is worth what a stone there would make for each
//! colour (see [`crate::pattern`]); the board keeps the sums. The side to
//! move gets its sum weighted up because it gets to use a threat first.

use crate::board::Board;
use crate::pattern::Threat;
use crate::score::{WIN, loss_in, win_in};

/// Weight of the side to move's sum, in tenths (the default).
pub const MOVER_WEIGHT: i32 = 12;

/// The static score of the position for the side to move, its own sum
/// weighted by `mover_weight` tenths.
#[inline]
pub fn evaluate(b: &Board, mover_weight: i32) -> i32 {
    let me = b.to_move();
    let mine = b.value(me) * mover_weight / 10;
    let theirs = b.value(me.opponent());
    (mine - theirs).clamp(-WIN / 2, WIN / 2)
}

/// Outcomes decided by the threats already on the board, from the side to
/// move, at `ply` from the root: a five to complete, two fives to stop, or a
/// flex four against no five.
#[inline]
pub fn decided(b: &Board, ply: usize) -> Option<i32> {
    let me = b.to_move();
    let opp = me.opponent();
    if b.threat_count(me, Threat::Five) > 0 {
        return Some(win_in(ply + 1));
    }
    let their_fives = b.threat_count(opp, Threat::Five);
    if their_fives >= 2 {
        return Some(loss_in(ply + 2));
    }
    if their_fives == 0 && b.threat_count(me, Threat::Flex4) > 0 {
        return Some(win_in(ply + 3));
    }
    None
}
