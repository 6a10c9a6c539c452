//! The engine's search: what a searcher is given ([`Options`]), what one
//! search is asked ([`Request`]: its [`Limits`], the moves it leaves out,
//! the flag that stops it, the watcher told how it stands) and what it
//! finds ([`Found`]), and the [`Searcher`] that keeps the
//! selective search ([`tree`]) across the moves of a game. The classic
//! search that stood beside it is retired; side-by-side figures against it
//! come from its tagged build (`scripts/build-revision.sh classic-search`).

mod leaf;
pub mod params;
pub mod tree;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

pub use params::{ONE_PLY, Params};

use crate::board::Board;
use crate::eval::learned::Learned;
use crate::eval::{Eval, Evaluation};
use crate::pos::Pos;
use crate::tt::Table;
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
    /// Search threads (lazy SMP, see [`Searcher`]): 1, the default, is
    /// the one search whose node-budget runs repeat byte for byte; more
    /// search faster on the clock but never twice the same.
    pub threads: usize,
}

/// Most search threads a searcher runs (`threads=`, the brain's
/// `INFO thread_num`, `inarow bot --threads`).
pub const MAX_THREADS: usize = 64;

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
            threads: 1,
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

/// One request for a search, in one value in place of setters on the
/// searcher: its limits, the root moves it leaves out, the flag that
/// stops it and the watcher told how it stands. The searcher borrows it
/// for the search ([`Searcher::search`]) and gives it back unchanged, so
/// one request serves every search of a job (an analysis's lines, the
/// opening's searches) and its watcher counts them all.
pub struct Request {
    /// Limits on the search; the first one reached stops it.
    pub limits: Limits,
    /// Root moves left out, so that analysis can ask for the best move
    /// after the ones it already has; a search with every candidate left
    /// out plays the first candidate anyway.
    pub excluded: Vec<Pos>,
    /// Stops the search as soon as it is set (from another thread: the
    /// brain's `YXSTOP`, a page that no longer wants the answer); a
    /// stopped search still returns its best move so far. The search
    /// never clears it.
    pub stop: Option<Arc<AtomicBool>>,
    /// Told how the search stands: at the end of every iteration, at the
    /// end of the search, and at least every [`Request::every`] between.
    pub watcher: Option<Watcher>,
    /// How often the watcher hears between iterations' ends.
    pub every: Duration,
}

impl Request {
    /// A request with these limits and nothing else: nothing left out, no
    /// stop flag, no watcher.
    pub fn new(limits: Limits) -> Request {
        Request {
            limits,
            excluded: Vec::new(),
            stop: None,
            watcher: None,
            every: Duration::MAX,
        }
    }

    /// The same request, stopped by `flag`.
    pub fn stopped_by(mut self, flag: Option<Arc<AtomicBool>>) -> Request {
        self.stop = flag;
        self
    }

    /// The same request, watched by `watcher` at least every `every`.
    pub fn watched(mut self, watcher: Option<Watcher>, every: Duration) -> Request {
        self.watcher = watcher;
        self.every = every;
        self
    }

    /// Runs `f` with this request's limits shared `parts` ways (see
    /// [`Limits::share`]), and puts them back.
    pub fn shared<T>(&mut self, parts: u32, f: impl FnOnce(&mut Request) -> T) -> T {
        let limits = self.limits;
        self.limits = limits.share(parts);
        let out = f(self);
        self.limits = limits;
        out
    }

    /// True while the request's stop flag is set.
    pub fn stop_asked(&self) -> bool {
        self.stop
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
    }
}

impl From<Limits> for Request {
    fn from(limits: Limits) -> Request {
        Request::new(limits)
    }
}

impl std::fmt::Debug for Request {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Request")
            .field("limits", &self.limits)
            .field("excluded", &self.excluded)
            .field("stop", &self.stop_asked())
            .field("watched", &self.watcher.is_some())
            .finish()
    }
}

/// A searcher: its tables live across moves of one game. With
/// `threads` above 1 it searches in parallel, lazy SMP as Stockfish and
/// Rapfi do: helper threads search the same root with the same table
/// (lock-free, [`crate::tt`]), each with its own history, killers and
/// evaluation state, skipping some depths so that they run ahead of the
/// main search; the main search's answer is the answer, and the helpers
/// stop when it does (on its limits or the request's stop flag).
pub struct Searcher {
    options: Options,
    tree: Box<Tree<Evaluation>>,
    /// The other threads' searchers (none with one thread).
    helpers: Vec<Box<Tree<Evaluation>>>,
}

impl Searcher {
    /// A searcher with these options (`threads` between 1 and
    /// [`MAX_THREADS`]).
    pub fn new(options: Options) -> Searcher {
        let mut options = options;
        options.threads = options.threads.clamp(1, MAX_THREADS);
        let table = Arc::new(Table::with_bytes(options.tt_bytes));
        let helper_nodes = Arc::new(AtomicU64::new(0));
        let tree = |k| {
            let mut tree = Tree::sharing(options, options.eval.evaluation(), table.clone(), k);
            tree.helper_nodes = helper_nodes.clone();
            Box::new(tree)
        };
        Searcher {
            options,
            tree: tree(0),
            helpers: (1..options.threads).map(tree).collect(),
        }
    }

    /// The options in use.
    pub fn options(&self) -> Options {
        self.options
    }

    /// Forgets everything learnt (new game).
    pub fn clear(&mut self) {
        self.tree.clear();
        self.helpers.iter_mut().for_each(|h| h.clear());
    }

    /// Finds a move for the side to move as `request` asks. The board must
    /// have an empty point and no five on it. The board and the request
    /// are unchanged afterwards. With helpers, `nodes` counts every
    /// thread's, and a node limit is the main search's own.
    pub fn search(&mut self, b: &mut Board, request: &mut Request) -> Found {
        if self.helpers.is_empty() {
            return self.tree.search(b, request);
        }
        // The helpers stop when the main search is over, however it ends.
        let halt = Arc::new(AtomicBool::new(false));
        let limits = Limits {
            nodes: u64::MAX,
            ..request.limits
        };
        let main = &mut self.tree;
        // The helpers' nodes that the main search's reports add to its own.
        main.helper_nodes.store(0, Ordering::Relaxed);
        std::thread::scope(|scope| {
            let helpers: Vec<_> = self
                .helpers
                .iter_mut()
                .map(|helper| {
                    let mut board = b.clone();
                    let mut asked = Request::new(limits).stopped_by(Some(halt.clone()));
                    asked.excluded.clone_from(&request.excluded);
                    scope.spawn(move || helper.search(&mut board, &mut asked).nodes)
                })
                .collect();
            let mut found = main.search(b, request);
            halt.store(true, Ordering::Relaxed);
            for helper in helpers {
                found.nodes += helper.join().expect("a helper search does not panic");
            }
            found
        })
    }
}
