//! The engine's search: what a search is given ([`Options`], [`Limits`])
//! and what it finds ([`Found`]), and the [`Searcher`] that runs one of two
//! searches. The selective search ([`tree`]) is the engine's; the classic
//! one ([`crate::classic`]) stays beside it so that every figure can be a
//! side-by-side run (`search=classic`).

pub mod params;
pub mod tree;
mod vcf;

use std::time::Duration;

pub use params::{ONE_PLY, Params};

use crate::board::Board;
use crate::classic::Classic;
use crate::eval::{PatternEval, Weights};
use crate::score::WIN;
use tree::Tree;

/// Deepest ply any search reaches.
pub const MAX_PLY: usize = 64;

/// The score reported for a VCT win (its length is not tracked).
pub const VCT_WIN: i32 = WIN - 100;

/// Which search runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Algorithm {
    /// The selective search ([`tree`]), tuned as a whole by [`Params`].
    Selective,
    /// The classic search ([`crate::classic`]), kept for side-by-side runs.
    Classic,
}

/// Switches for the search's features (for measuring what each one gains).
/// The selective search reads `params`, `tt_bytes`, `weights` and
/// `soft_percent`; the rest are the classic search's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Which search runs.
    pub algorithm: Algorithm,
    /// The selective search's numbers.
    pub params: Params,
    /// Look for a VCF before the main search.
    pub root_vcf: bool,
    /// Node budget of the VCF probe at each leaf (0: no probe).
    pub leaf_vcf_nodes: u64,
    /// Moves kept at each inner node after ordering (the root keeps all).
    pub width: usize,
    /// Reduce late quiet moves.
    pub lmr: bool,
    /// At the root, drop the moves that leave the opponent a VCF.
    pub vcf_defence: bool,
    /// At the root, look for a VCT (threes and fours) after the VCF.
    pub root_vct: bool,
    /// At the root, drop the moves that leave the opponent a VCT of up to
    /// two threes (after the VCF defence).
    pub vct_defence: bool,
    /// Transposition table size in bytes.
    pub tt_bytes: usize,
    /// The evaluation's weights.
    pub weights: Weights,
    /// No new iteration once this share of the time budget (in percent)
    /// is gone; the budget itself still stops the search.
    pub soft_percent: u32,
    /// Null-move pruning: where the opponent has no four or open three to
    /// use, let it move twice with a shallower search; if we still stand
    /// above beta, cut. A stone never hurts its owner in gomoku, so a pass
    /// is a lower bound.
    pub null_move: bool,
    /// Futility pruning: one ply from the horizon, skip quiet moves of a
    /// position whose static score is far below alpha.
    pub futility: bool,
    /// Order moves by the evaluation's weights rather than the hand-set
    /// point values.
    pub tuned_order: bool,
    /// Quiescence at the horizon: how many fours in a row the side to move
    /// may play on past it instead of taking the static score (0: none).
    pub quiet_fours: u32,
    /// Extend by a ply the search of a position where the opponent has an
    /// open three to answer (while the line is shorter than twice the
    /// iteration's depth), so threat sequences are seen to their end.
    pub three_ext: bool,
    /// Score a four-three against an opponent with no four to make as the
    /// win it is ([`crate::eval::four_three_wins`]), at every node.
    pub four_three: bool,
    /// Score a three-three against an opponent with no four to make as the
    /// win it is ([`crate::eval::three_three_wins`]), at every node.
    pub three_three: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            algorithm: Algorithm::Selective,
            params: Params::default(),
            root_vcf: true,
            // Measured: the probe cost strength at short time controls.
            leaf_vcf_nodes: 0,
            // Measured: 12 beat 20 by +80 Elo [+26, +137] over 160 games.
            width: 12,
            lmr: true,
            vcf_defence: true,
            // Measured: -73 Elo at 40 ms a move (the time it takes costs
            // more than the wins it finds); see docs/engine.md.
            root_vct: false,
            vct_defence: false,
            tt_bytes: 32 << 20,
            // Measured: 75 against 50 scored +24 Elo [-24, +73] over 200 games.
            soft_percent: 70,
            // Measured: +158 Elo [+91, +239] against the hand-set weights
            // (SPRT accepted) over 108 games at 10k nodes a move.
            weights: Weights::TUNED,
            null_move: false,
            futility: false,
            tuned_order: false,
            // These three together, against Rapfi at 200 ms a move (c-gomoku-cli,
            // the same openings, void games left out): 49-0-100 (33%) against
            // 25-1-130 (16%) for the search without them; see docs/engine.md.
            quiet_fours: 4,
            four_three: true,
            three_ext: true,
            three_three: false,
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
    /// The move to play (grid index).
    pub best: usize,
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
    /// `best` (grid indices; the threat search's winning line when `vcf`).
    pub pv: Vec<usize>,
}

/// Longest principal variation reported.
pub const PV_LIMIT: usize = 16;

/// A searcher: its tables live across moves of one game.
pub struct Searcher {
    options: Options,
    inner: Inner,
}

enum Inner {
    Selective(Box<Tree<PatternEval>>),
    Classic(Box<Classic>),
}

impl Searcher {
    /// A searcher with these options.
    pub fn new(options: Options) -> Searcher {
        let inner = match options.algorithm {
            Algorithm::Selective => Inner::Selective(Box::new(Tree::new(
                options,
                PatternEval {
                    weights: options.weights,
                },
            ))),
            Algorithm::Classic => Inner::Classic(Box::new(Classic::new(options))),
        };
        Searcher { options, inner }
    }

    /// The options in use.
    pub fn options(&self) -> Options {
        self.options
    }

    /// Forgets everything learnt (new game).
    pub fn clear(&mut self) {
        match &mut self.inner {
            Inner::Selective(t) => t.clear(),
            Inner::Classic(c) => c.clear(),
        }
    }

    /// Leaves these root moves out of the following searches (grid
    /// indices), so that analysis can ask for the best move after the ones
    /// it already has; a search with every candidate left out plays the
    /// first candidate anyway.
    pub fn set_excluded(&mut self, moves: &[usize]) {
        match &mut self.inner {
            Inner::Selective(t) => t.set_excluded(moves),
            Inner::Classic(c) => c.set_excluded(moves),
        }
    }

    /// Finds a move for the side to move. The board must have an empty
    /// point and no five on it. The board is unchanged afterwards.
    pub fn search(&mut self, b: &mut Board, limits: Limits) -> Found {
        match &mut self.inner {
            Inner::Selective(t) => t.search(b, limits),
            Inner::Classic(c) => c.search(b, limits),
        }
    }
}
