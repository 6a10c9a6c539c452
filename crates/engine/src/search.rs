//! The engine's search: what a search is given ([`Options`], [`Limits`])
//! and what it finds ([`Found`]), and the [`Searcher`] that keeps the
//! selective search ([`tree`]) across the moves of a game. The classic
//! search that stood beside it is retired; side-by-side figures against it
//! come from its tagged build (`scripts/build-revision.sh classic-search`).

pub mod params;
pub mod tree;
mod vcf;

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

pub use params::{ONE_PLY, Params};

use crate::board::Board;
use crate::eval::Eval;
use crate::learned::Learned;
use crate::pos::Pos;
use tree::Tree;

/// Deepest ply any search reaches.
pub const MAX_PLY: usize = 64;

/// What a search is told besides its limits: the selective search's
/// numbers, its table's size, the evaluation and when to stop
/// starting iterations.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Options {
    /// The selective search's numbers.
    pub params: Params,
    /// Transposition table size in bytes.
    pub tt_bytes: usize,
    /// The static evaluation.
    pub eval: Eval,
    /// No new iteration once this share of the time budget (in percent)
    /// is gone; the budget itself still stops the search.
    pub soft_percent: u32,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            params: Params::default(),
            tt_bytes: 32 << 20,
            // Measured against the tuned pattern weights, 100 open
            // openings at 5,000 nodes a move: +40 Elo [-1, +83] by pairs
            // (round 2's tables), round 1's +53 [+7, +100].
            eval: Eval::Learned(Learned::embedded()),
            // Measured: 75 against 50 scored +24 Elo [-24, +73] over 200 games.
            soft_percent: 70,
        }
    }
}

/// Limits on one search; the first one reached stops it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Time budget (see [`crate::time::budget`]).
    pub time: Option<Duration>,
    /// Deepest iteration.
    pub depth: u32,
    /// Node budget (checked between iterations and every 1024 nodes).
    pub nodes: u64,
}

impl Limits {
    /// Limited by time only.
    pub fn time(t: Duration) -> Limits {
        Limits {
            time: Some(t),
            depth: MAX_PLY as u32 - 4,
            nodes: u64::MAX,
        }
    }

    /// Limited by nodes only: the same search on any machine, so games
    /// repeat exactly.
    pub fn nodes(n: u64) -> Limits {
        Limits {
            time: None,
            depth: MAX_PLY as u32 - 4,
            nodes: n.max(1),
        }
    }

    /// An equal share of these limits for one of `parts` searches.
    pub fn share(self, parts: u32) -> Limits {
        let parts = parts.max(1);
        Limits {
            time: self.time.map(|t| t / parts),
            depth: self.depth,
            nodes: if self.nodes == u64::MAX {
                u64::MAX
            } else {
                (self.nodes / parts as u64).max(1)
            },
        }
    }

    /// Limited by depth only.
    pub fn depth(d: u32) -> Limits {
        Limits {
            time: None,
            depth: d.min(MAX_PLY as u32 - 4),
            nodes: u64::MAX,
        }
    }
}

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// The move to play.
    pub best: Pos,
    /// Its score for the side to move.
    pub score: i32,
    /// Deepest completed iteration (0 if the move came from the VCF probe
    /// or was forced).
    pub depth: u32,
    /// Nodes searched (main search plus threat searches).
    pub nodes: u64,
    /// True if the move starts a win proven by the threat search (VCF or VCT).
    pub vcf: bool,
    /// Time spent.
    pub elapsed: Duration,
    /// The principal variation: the expected line of play, starting with
    /// `best` (the threat search's winning line when `vcf`).
    pub pv: Vec<Pos>,
}

/// Longest principal variation reported.
pub const PV_LIMIT: usize = 16;

/// How a search stands while it runs, as a watcher is told it (live
/// thinking on the page, the brain's realtime messages): the last
/// completed iteration's move, score and line, with the nodes and time so
/// far.
#[derive(Clone, Copy, Debug)]
pub struct Progress<'a> {
    /// Deepest completed iteration (0 before the first completes).
    pub depth: u32,
    /// The best move so far.
    pub best: Pos,
    /// Its score for the side to move.
    pub score: i32,
    /// The expected line, starting with `best`.
    pub pv: &'a [Pos],
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time since the search started.
    pub elapsed: Duration,
    /// True when this report ends an iteration (or the search); false for
    /// a report between iterations' ends, which only brings nodes and time
    /// up to date.
    pub iteration: bool,
}

impl Progress<'_> {
    /// Nodes a second so far (0 before any time has passed).
    pub fn nodes_per_second(&self) -> u64 {
        (u128::from(self.nodes) * 1_000_000)
            .checked_div(self.elapsed.as_micros())
            .map_or(0, |n| n as u64)
    }
}

/// What watches a search: called with each [`Progress`], from the thread
/// that searches, so it should return quickly.
pub type Watcher = Box<dyn FnMut(&Progress<'_>) + Send>;

/// A searcher: its tables live across moves of one game.
pub struct Searcher {
    options: Options,
    tree: Box<Tree<Eval>>,
}

impl Searcher {
    /// A searcher with these options.
    pub fn new(options: Options) -> Searcher {
        Searcher {
            options,
            tree: Box::new(Tree::new(options, options.eval)),
        }
    }

    /// The options in use.
    pub fn options(&self) -> Options {
        self.options
    }

    /// Forgets everything learnt (new game).
    pub fn clear(&mut self) {
        self.tree.clear();
    }

    /// Leaves these root moves out of the following searches, so that
    /// analysis can ask for the best move after the ones
    /// it already has; a search with every candidate left out plays the
    /// first candidate anyway.
    pub fn set_excluded(&mut self, moves: &[Pos]) {
        self.tree.set_excluded(moves);
    }

    /// Tells `watcher` how the following searches stand: at the end of
    /// every iteration, at the end of each search, and at least every
    /// `every` between (nodes and time brought up to date); `None` stops
    /// telling.
    pub fn set_watcher(&mut self, watcher: Option<Watcher>, every: Duration) {
        self.tree.set_watcher(watcher, every);
    }

    /// Stops the following searches as soon as `flag` is set (from another
    /// thread: the brain's `YXSTOP`, a page that no longer wants the
    /// answer); a stopped search still returns its best move so far. The
    /// searcher never clears the flag.
    pub fn set_stop(&mut self, flag: Option<Arc<AtomicBool>>) {
        self.tree.set_stop(flag);
    }

    /// True while the flag given to [`Searcher::set_stop`] is set.
    pub fn stop_asked(&self) -> bool {
        self.tree.stop_asked()
    }

    /// Finds a move for the side to move. The board must have an empty
    /// point and no five on it. The board is unchanged afterwards.
    pub fn search(&mut self, b: &mut Board, limits: Limits) -> Found {
        match self.options.eval {
            Eval::Learned(tables) => b.set_learned(tables),
            Eval::Fine(tables, _) => b.set_fine(Some(tables)),
            Eval::Pattern(_) => {}
        }
        self.tree.search(b, limits)
    }
}
