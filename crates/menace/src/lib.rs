//! # inarow-menace
//!
//! MENACE, Donald Michie's Machine Educable Noughts And Crosses Engine
//! (1961): one matchbox for every tic-tac-toe position the machine can face,
//! up to the 8 symmetries of the square, each holding beads whose colours
//! name squares of the box's image.
//!
//! - [`Layout`] enumerates the boxes (304 for X, 289 for a second learner
//!   playing O) and finds a board's box with one table lookup.
//! - [`Menace`] holds the bead counts, draws moves and learns from results
//!   under a [`Preset`].
//! - [`Session`] is one game, a move at a time: the other side's move,
//!   MENACE's move with the box and bead drawn, the result. The terminal
//!   program, the web page and the trainer all play through it.
//! - [`play_game`] and [`train`] play whole sessions against any [`Seat`];
//!   a [`Curve`] counts their results block by block.
//! - [`Memory`] is the versioned saved form; [`opponent_seed`] and
//!   [`second_learner_seed`] derive the other players' seeds from a run's.
//!
//! This crate does no I/O: files, terminals and charts live in the CLI.
//!
//! # Examples
//!
//! ```
//! use inarow_agents::RandomAgent;
//! use inarow_core::Player;
//! use inarow_menace::{AgentSeat, GameResult, Menace, Preset, train};
//!
//! let mut menace = Menace::new(Preset::Challenge, Player::X, 1);
//! assert_eq!(menace.boxes().len(), 304);
//! assert_eq!(menace.total_beads(), 1917);
//! let tally = train(&mut menace, &mut AgentSeat(RandomAgent::new(2)), 500);
//! assert_eq!(tally.games(), 500);
//! assert!(tally.rate(GameResult::Win) > 0.5);
//! ```
#![deny(missing_docs)]

mod curve;
pub mod layout;
mod machine;
mod preset;
mod seat;
mod seeds;
pub mod session;
pub mod state;
mod training;

pub use curve::{Block, Curve};
// Every tally of the workspace is core's; re-exported so callers of
// `train` need not name two crates.
pub use inarow_core::{GameResult, Tally};
pub use layout::{Layout, Slot};
pub use machine::{BoxLine, CURVE_BLOCKS, Choice, Matchbox, Menace, colours_of};
pub use preset::{BadRules, EmptyBox, MAX_RULE_BEADS, Preset, Rules, UnknownPreset};
pub use seat::{AgentSeat, Seat};
pub use seeds::{opponent_seed, second_learner_seed};
pub use session::{Bead, Ending, Move, Refused, Session};
pub use state::{Memory, StateError};
pub use training::{play_game, results, train};
