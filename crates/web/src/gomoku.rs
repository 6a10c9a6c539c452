//! Gomoku (15x15 by default, 5x5 to 20x20; freestyle or exact five) against
//! the engine, through the Swap2 opening
//! of the king-of-the-hill spec (`inarow_core::swap2`): the opener places
//! two black stones and one white; the answerer takes black, places a white
//! stone and takes white, or places one more stone of each colour and lets
//! the opener choose. Then the colour with fewer stones moves.
//!
//! - [`game`]: the shared game the page shows and the person plays.
//! - [`jobs`]: the engine's part, thought off the request threads; its
//!   answer is applied only if the game it was asked about is still the
//!   one on the board.

use inarow_engine::score::{WIN, is_decided};
use serde::Serialize;

pub mod game;
pub mod jobs;

pub use game::{Answer, Game, Refused};
pub use jobs::{Done, Job, Thought, engine, work};

/// Board side when the page names none.
pub const SIZE: usize = 15;
/// The board sides the page may ask for: the engine's (its board holds 5 to
/// 20 points a side, and the game core up to 400 points).
pub const SIZES: std::ops::RangeInclusive<usize> =
    inarow_engine::board::MIN_SIZE..=inarow_engine::board::MAX_SIZE;
/// Shortest and longest thinking time per move the page may ask for.
pub const TIME_MS: std::ops::RangeInclusive<u64> = 50..=10_000;

/// A score the engine has proven, for the side it scores: won or lost in
/// so many plies. The page reads it as `{"win": plies}` or `{"loss": plies}`
/// (null when undecided), so that it never needs the engine's scale.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Decided {
    /// Won in this many plies.
    Win(i32),
    /// Lost in this many plies.
    Loss(i32),
}

impl Decided {
    /// What `score` decides, if anything.
    pub fn of(score: i32) -> Option<Decided> {
        if !is_decided(score) {
            None
        } else if score > 0 {
            Some(Decided::Win(WIN - score))
        } else {
            Some(Decided::Loss(WIN + score))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_decided_score_reads_as_plies_to_the_end() {
        let read = |score| serde_json::to_value(Decided::of(score)).unwrap();
        assert_eq!(read(WIN - 3), serde_json::json!({ "win": 3 }));
        assert_eq!(read(-(WIN - 2)), serde_json::json!({ "loss": 2 }));
        assert_eq!(read(120), serde_json::Value::Null);
        assert_eq!(read(-120), serde_json::Value::Null);
    }
}
