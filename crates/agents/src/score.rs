//! Scores that prefer the fastest win and the slowest loss.
//!
//! A score is from the point of view of the side to move. A game won at
//! `ply` moves from the root scores `WIN - ply`, lost `-(WIN - ply)`, so a
//! search always takes the quickest win and puts off a loss as long as it can.

use inarow_core::{Game, Outcome};

/// A search score, from the side to move's point of view.
pub type Score = i32;

/// The score of a win on the spot; wins further off score less.
pub const WIN: Score = 1_000_000;

/// Above every score a search can return.
pub const INFINITY: Score = WIN + 1;

/// Scores beyond this are wins or losses; inside it, evaluations.
pub const DECISIVE: Score = WIN - 1000;

/// The score of a finished game, `ply` moves from the root, for the side to move.
#[inline]
pub fn terminal<G: Game>(game: &G, outcome: Outcome, ply: u32) -> Score {
    match outcome {
        Outcome::Draw => 0,
        Outcome::Win(w) if w == game.to_move() => WIN - ply as Score,
        Outcome::Win(_) => -(WIN - ply as Score),
    }
}

/// Whether a score is a proven win or loss.
#[inline]
pub fn is_decisive(score: Score) -> bool {
    score.abs() > DECISIVE
}

/// For a decisive score, how many moves from the root the game ends.
pub fn plies_to_end(score: Score) -> Option<u32> {
    is_decisive(score).then(|| (WIN - score.abs()) as u32)
}

/// A score in the scale of the minimax document: +10 for a win on the next
/// move, one less for every two plies later, 0 for a draw, from the point of
/// view of the side to move.
pub fn document_scale(score: Score) -> Score {
    match plies_to_end(score) {
        Some(plies) => score.signum() * (11 - plies as Score),
        None => 0,
    }
}
