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
