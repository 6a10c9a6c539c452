//! The tournament: every pair of bots twice, in rounds where each bot plays
//! at most once, games of disjoint bots in parallel, standings.
//!
//! Everything random comes from the tournament seed through the index of the
//! pair, never through the order games happen to finish; and a bot plays its
//! games one at a time, in schedule order, each starting from the folder its
//! previous game left. So `-j N` gives the same results as `-j 1`, even for
//! bots that learn in their folders between games.
//!
//! One file an idea: the schedule (`schedule.rs`), playing it (`play.rs`),
//! the threaded runner (`turns.rs`), the standings (`standings.rs`) and the
//! results file (`results.rs`).

use std::time::Duration;

use inarow_core::Rule;
use inarow_sandbox::Sandbox;

use crate::field::LeftOut;
use crate::process::Listener;

mod play;
mod results;
mod schedule;
mod standings;
mod turns;

pub use play::{
    Event, OnEvent, board, folders, play_all, play_all_watched, play_fixture, play_fixture_watched,
    play_fixtures_watched, play_share,
};
pub use results::{Results, timeout_seconds};
pub use schedule::{Fixture, schedule, share};
pub use standings::{Standing, format_standings, standings};
pub use turns::at_once;

/// How a tournament is run.
#[derive(Clone, Debug)]
pub struct Config {
    /// The tournament seed.
    pub seed: u64,
    /// Games played at once (at least 1).
    pub jobs: usize,
    /// Time limit per answer; `None` for none.
    pub timeout: Option<Duration>,
    /// Freestyle (five or more wins), exact five or renju.
    pub rule: Rule,
    /// How bots are started: contained (and within which limits) or not.
    pub sandbox: Sandbox,
    /// Hears the standard error of bots whose meta file asks to show it;
    /// `None` drops it.
    pub stderr: Option<Listener>,
    /// The bots of the bots folder left out of this tournament: named in
    /// its results, and their folders stay closed to the bots that play.
    pub left_out: Vec<LeftOut>,
}
