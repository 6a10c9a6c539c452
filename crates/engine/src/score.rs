//! Scores: centi-stones for the evaluation, and win/loss scores that say
//! how many plies away the end is (a quicker win scores higher).

/// The score of a win on the spot; wins `n` plies away score `WIN - n`.
pub const WIN: i32 = 1_000_000;
/// Scores at least this far from zero are proven wins or losses.
pub const DECIDED: i32 = WIN - 1000;

/// The score of winning `ply` plies from the root.
#[inline]
pub const fn win_in(ply: usize) -> i32 {
    WIN - ply as i32
}

/// The score of losing `ply` plies from the root.
#[inline]
pub const fn loss_in(ply: usize) -> i32 {
    -WIN + ply as i32
}

/// A score found `ply` plies from the root as a table stores it: a decided
/// score counted from the node, so the same position met at another ply
/// reads right.
#[inline]
pub const fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= DECIDED {
        score + ply as i32
    } else if score <= -DECIDED {
        score - ply as i32
    } else {
        score
    }
}

/// A stored score read back `ply` plies from the root ([`to_tt`]'s inverse).
#[inline]
pub const fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= DECIDED {
        score - ply as i32
    } else if score <= -DECIDED {
        score + ply as i32
    } else {
        score
    }
}

/// True if the score is a proven win or loss.
#[inline]
pub const fn is_decided(score: i32) -> bool {
    score >= DECIDED || score <= -DECIDED
}
