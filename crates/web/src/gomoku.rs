//! Gomoku (15x15, freestyle) against the engine, through the Swap2 opening
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

/// Board side.
pub const SIZE: usize = 15;
/// Shortest and longest thinking time per move the page may ask for.
pub const TIME_MS: std::ops::RangeInclusive<u64> = 50..=10_000;
