//! The engine's part of the page's gomoku game: a [`Job`] handed to a
//! thinking thread, and the [`Done`] work that comes back.

use std::time::Duration;

use inarow_core::Rule;
use inarow_core::swap2::{Phase, Strategy, Swap};
use inarow_core::{Mnk, Player, Point, Xy};
use inarow_engine::player::Engine;
use inarow_engine::score::win_rate;
use inarow_engine::search::{Found, Limits, Options};
use serde::Serialize;

/// What the engine thought about a move (the search's answer,
/// [`Found`]), as the page shows it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Thought {
    /// The move chosen.
    pub best: Xy,
    /// Its score for the engine (positive is good for it).
    pub score: i32,
    /// Whether that score is a proven win or loss for the engine.
    pub decided: Option<super::Decided>,
    /// The engine's win rate that score means ([`win_rate`] at the
    /// evaluation's fitted scale, [`win_scale`]).
    pub win_rate: f64,
    /// Deepest completed iteration.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// The expected line from the move chosen on.
    pub pv: Vec<Xy>,
}

impl Thought {
    /// The engine's answer on a board `size` points wide, in [`Xy`]
    /// ([`super::page_xy`], the page's one crossing), its score read at
    /// logistic scale `scale` ([`win_scale`]).
    pub fn on(t: &Found, size: usize, scale: f64) -> Thought {
        let xy = |p| super::page_xy(p, size);
        Thought {
            best: xy(t.best).expect("the search names points of the board"),
            score: t.score,
            decided: super::Decided::of(t.score),
            win_rate: win_rate(t.score, scale),
            depth: t.depth,
            nodes: t.nodes,
            pv: t.pv.iter().map_while(|&p| xy(p)).collect(),
        }
    }
}

/// Work the engine must do, handed to a thinking thread.
#[derive(Clone, Debug)]
pub struct Job {
    /// The game it belongs to.
    pub game_id: u64,
    /// The part of the game the engine acts in.
    pub phase: Phase,
    /// The board now.
    pub board: Mnk,
    /// Time allowed.
    pub budget: Duration,
}

/// The engine's finished work.
#[derive(Clone, Debug)]
pub enum Done {
    /// Opening stones.
    Opened([Point; 3]),
    /// The answer to the opening.
    Answered(Swap),
    /// The colour it takes.
    Chose(Player),
    /// A move.
    Moved(Found),
}

/// The engine the page plays against: its random choices (opening shapes)
/// follow `seed`.
pub fn engine(seed: u64) -> Engine {
    Engine::with_limits(seed, Limits::time(Duration::from_secs(1)), options())
}

/// The settings of the page's engine.
fn options() -> Options {
    Options {
        tt_bytes: 8 << 20,
        ..Options::default()
    }
}

/// The logistic scale of the page's engine's evaluation under `rule`: its
/// scores read as win rates ([`win_rate`]), in its answers and its live
/// thinking alike.
pub fn win_scale(rule: Rule) -> f64 {
    options().eval.logistic_scale(rule)
}

/// Runs `job` on `engine` (blocking: call it off the request threads).
pub fn work(engine: &mut Engine, job: &Job) -> Done {
    const ANSWERABLE: &str = "the page asks the engine about positions it can answer";
    engine.set_limits(Limits::time(job.budget));
    let board = &job.board;
    match job.phase {
        Phase::Open => Done::Opened(engine.open(board).expect(ANSWERABLE)),
        Phase::Answer => Done::Answered(engine.swap(board).expect(ANSWERABLE)),
        Phase::Colour => Done::Chose(engine.colour(board).expect(ANSWERABLE)),
        Phase::Play | Phase::Over => Done::Moved(engine.think(board).expect(ANSWERABLE)),
    }
}
