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

/// True if the score is a proven win or loss.
#[inline]
pub const fn is_decided(score: i32) -> bool {
    score >= DECIDED || score <= -DECIDED
}
