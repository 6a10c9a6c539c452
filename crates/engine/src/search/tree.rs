//! The selective search: principal-variation alpha-beta with iterative
//! deepening and aspiration windows, built so that its pruning is safe.
//!
//! The safety comes from three parts that only pay together: a check at
//! every node for outcomes the threats already decide (a five, a flex four
//! against no five, a four-three or three-three against no four);
//! exactly the defences when the opponent threatens ([`crate::movepick`]:
//! every move left out loses by force); and a VCF search at the leaves
//! that shares the transposition table (`search/leaf.rs`), so that what
//! pruning cuts at the horizon is caught there. With those in place every
//! late move is reduced (ln depth · ln move number, less for set-ups, PV
//! nodes, improving positions and good history, more at cut nodes, more or
//! less by how far its static ordering score stands below the best), quiet
//! moves are pruned past a move count that grows with depth, shallow nodes
//! far above beta return at once (reverse futility), far below alpha drop
//! into the leaf VCF (razoring), and a position that stays above beta after
//! a pass is cut (null move). Depth is counted in hundredths of a ply, so a
//! four's forced block can cost nothing and a four or a defence a tunable
//! part of a ply. Every number is in [`Params`].
//!
//! A node of [`Tree::pvs`] goes through these steps, numbered in the code
//! as Stockfish and Rapfi number theirs:
//!
//! 1. past the horizon, the leaf search (`search/leaf.rs`);
//! 2. count the node, watch the clock, settle what threats decide;
//! 3. mate distance pruning;
//! 4. the transposition table;
//! 5. what the node must answer, the static evaluation, improving;
//! 6. pruning before any move: reverse futility (on the static score or
//!    the table's refined estimate), razoring, null move; (b) fail-high
//!    reduction of a cut node that stands well above beta;
//! 7. internal iterative reduction, without a table move or with a stale
//!    one; (b) singular extension of the table move, with a threshold of
//!    its own at nodes under threat, a double extension and a multi-cut;
//! 8. the moves, exactly the answers when the node must answer, ordered;
//! 9. the loop: (a) late move pruning, (b) the move's depth cost and its
//!    reduction, (c) the searches of PVS, (d) a new best, a cut's reward,
//!    the later moves shallower once alpha is raised;
//! 10. the result, stored with its bound.
//!
//! Rapfi's rules beyond these are settings (issues 46 and 55): killers
//! spared the cut nodes' extra reduction, less at nodes the table
//! remembers on a principal variation, more for a far counter-four, less
//! for an attack that goes on; every move, our own threats and the
//! defences too, pruned by the move count (`lmp_forcing`, `lmp_defence`);
//! plain fours only early in a leaf line (`vcf_plain`); step 6 at nodes
//! under a threat (`threat_prune`); trivial moves and distractions pruned
//! at shallow depth (`trivial_depth`); a deeper re-search of a reduced
//! move that beat alpha well (`lmr_deeper`); the table move's extension
//! without a singular search (`tt_extension`); more reduction where the
//! root cannot gain (`lmr_no_alpha`) and for far defences
//! (`lmr_useless_defence`). Since issue 55 the defaults are Rapfi's values
//! of them all together (all but `threat_prune`, `lmr_far_four` and
//! `iir_stale`), the first set of them that the gate against Rapfi saw;
//! and Rapfi's move count and reductions read exactly: the count at
//! principal-variation nodes too (`lmp_pv`), moves numbered from one in
//! the reduction (`lmr_counted`), defences reduced by the node's kind
//! (`lmr_defence_all`), history worth about a ply (`lmr_history`).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

use inarow_core::Player;

use crate::board::Board;
use crate::eval::{Evaluator, decided, four_three_wins, no_four_to_come, three_three_wins};
use crate::history::History;
use crate::movepick::{
    self, Answer, Move, MoveList, class_bonus, generate, is_forcing, is_quiet, point_score,
};
use crate::pattern::Threat;
use crate::pos::Pos;
use crate::score::{DECIDED, WIN, is_decided, loss_in, win_in};
use crate::search::params::CLOCK_NODES;
use crate::search::{MAX_PLY, ONE_PLY, Options, Params, Watcher};
use crate::tt::{Bound, Table};
use crate::vct::Vct;

mod root;

const ONE: i32 = ONE_PLY;
const INFINITE: i32 = WIN + 1;
/// Node budget of the threat search that confirms a win found by the tree.
const CONFIRM_NODES: u64 = 20_000;
/// Quiet moves a node remembers having tried, to lower their history when
/// a later move cuts.
const TRIED_QUIETS: usize = 32;
/// How late a node that must answer a three loses when every answer loses
/// by force: the four, the block and the five (a fork takes two plies more).
const THREAT_LOSS_PLIES: usize = 4;
/// How late a node that must answer a fork loses (see [`THREAT_LOSS_PLIES`]).
const FORK_LOSS_PLIES: usize = 6;
/// Extra depth of a line past which `lmr_deeper` deepens by a ply at most
/// (Rapfi's five plies), so that its re-searches cannot run away.
const EXTRA_MAX: i32 = 5 * ONE;
/// Most that `iir_pv_stale` takes off a node, hundredths (Rapfi's
/// `IIR_REDUCTION_TT_MAX`).
const IIR_PV_STALE_MAX: i32 = 360;

/// What the search keeps about each ply of the line under way.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Frame {
    /// The static evaluation at this ply (for "improving").
    pub eval: i32,
    /// The move played from this ply (`None` for a pass).
    pub played: Option<Move>,
    /// Quiet moves that caused cuts at this ply.
    pub killers: [Option<Move>; 2],
    /// The move a singular search leaves out at this ply (step 7b).
    pub excluded: Option<Move>,
    /// Whether the node at this ply had to answer a threat (for the
    /// attack that continues, `lmr_attack`).
    pub answered: bool,
    /// Depth the line has been extended beyond a ply a move, up to and
    /// including the move played from this ply (hundredths): a double
    /// singular extension's second ply, `lmr_deeper`'s second. Past
    /// [`EXTRA_MAX`] `lmr_deeper` adds a ply at most.
    pub extra: i32,
}

/// What the singular search (step 7b) says of the table move.
enum Singular {
    /// Search it this much deeper.
    Extend(i32),
    /// Another move reaches beta too: the node is cut with this bound.
    Cut(i32),
}

/// The selective searcher over an evaluation `E`; its tables live across
/// the moves of one game.
pub struct Tree<E: Evaluator> {
    pub(crate) params: Params,
    soft_percent: u32,
    pub(crate) eval: E,
    pub(crate) tt: Arc<Table>,
    /// 0 for the main search; k > 0 for the k-th helper of a parallel
    /// search, which skips some depths ([`skips`]) so that the threads
    /// spread over depths, and leaves the table's generation alone.
    helper: usize,
    /// The helpers' nodes so far in this search, shared by the threads of
    /// a searcher: each helper adds its nodes as it watches the clock, so
    /// that the main search's reports count every thread's.
    pub(crate) helper_nodes: Arc<AtomicU64>,
    /// A helper's nodes already added to `helper_nodes` in this search.
    told: u64,
    history: History,
    pub(crate) stack: [Frame; MAX_PLY + 2],
    /// Each ply's move list, boxed so that a node takes its list and
    /// gives it back by a pointer, not by copying 2,400 bytes each way
    /// (issue 55).
    lists: Vec<Option<Box<MoveList>>>,
    pub(crate) pv: Vec<[Option<Move>; MAX_PLY + 1]>,
    pub(crate) pv_len: [usize; MAX_PLY + 1],
    /// Late-move reductions by depth (plies) and move number, hundredths.
    reductions: Vec<[i32; 64]>,
    /// Moves before quiet ones are pruned, by improving and depth (plies).
    move_counts: [[usize; 64]; 2],
    root: MoveList,
    /// The root's alpha in the iteration under way (for `lmr_no_alpha`).
    root_alpha: i32,
    excluded: Vec<Pos>,
    pub(crate) nodes: u64,
    start: Instant,
    deadline: Option<Instant>,
    node_limit: u64,
    next_check: u64,
    pub(crate) stopped: bool,
    stop: Option<Arc<AtomicBool>>,
    watcher: Option<Watcher>,
    report_every: Duration,
    next_report: Option<Instant>,
    /// The last completed iteration, as the watcher is told it.
    shown: Shown,
    /// The threat search by fours and threes, where `vct` asks for it
    /// (none otherwise: the default search makes no room for it).
    pub(crate) vct: Option<Box<Vct>>,
}

/// What the watcher was last told of the search's result.
#[derive(Clone, Debug)]
struct Shown {
    depth: u32,
    best: Pos,
    score: i32,
    pv: Vec<Pos>,
}

impl Default for Shown {
    /// Nothing completed yet: no line, and a move that no report names
    /// before an iteration sets it.
    fn default() -> Shown {
        Shown {
            depth: 0,
            best: Pos::from_index(0),
            score: 0,
            pv: Vec::new(),
        }
    }
}

impl<E: Evaluator> Tree<E> {
    /// A searcher with these options and evaluation.
    pub fn new(options: Options, eval: E) -> Tree<E> {
        Tree::sharing(
            options,
            eval,
            Arc::new(Table::with_bytes(options.tt_bytes)),
            0,
        )
    }

    /// A searcher with these options and evaluation over the table `tt`,
    /// shared with other searchers: the main search (`helper` 0) or the
    /// `helper`-th helper of a parallel search.
    pub fn sharing(options: Options, eval: E, tt: Arc<Table>, helper: usize) -> Tree<E> {
        let p = options.params;
        let reductions = (0..64)
            .map(|d| {
                let mut row = [0; 64];
                for (m, r) in row.iter_mut().enumerate() {
                    if d > 0 && m > 0 {
                        let l = (d as f64).ln() * (m as f64).ln();
                        *r = p.lmr_base + (f64::from(p.lmr_scale) * l) as i32;
                    }
                }
                row
            })
            .collect();
        let mut move_counts = [[0; 64]; 2];
        for (improving, row) in move_counts.iter_mut().enumerate() {
            for (d, n) in row.iter_mut().enumerate() {
                let grow = f64::from(p.lmp_scale) * (d as f64).powf(f64::from(p.lmp_power) / 100.0);
                *n = if p.lmp_counted > 0 {
                    // Rapfi's: whole moves, a move's number from one.
                    let whole = (p.lmp_base / 100) as usize + (grow / 100.0) as usize;
                    (whole / (2 - improving)).saturating_sub(1)
                } else {
                    ((f64::from(p.lmp_base) + grow) / 100.0 / (2 - improving) as f64) as usize
                };
            }
        }
        Tree {
            params: p,
            soft_percent: options.soft_percent,
            eval,
            tt,
            helper,
            helper_nodes: Arc::new(AtomicU64::new(0)),
            told: 0,
            history: History::default(),
            stack: [Frame::default(); MAX_PLY + 2],
            lists: (0..=MAX_PLY).map(|_| Some(Box::default())).collect(),
            pv: vec![[None; MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            reductions,
            move_counts,
            root: MoveList::default(),
            root_alpha: -INFINITE,
            excluded: Vec::new(),
            nodes: 0,
            start: Instant::now(),
            deadline: None,
            node_limit: u64::MAX,
            next_check: 0,
            stopped: false,
            stop: None,
            watcher: None,
            report_every: Duration::MAX,
            next_report: None,
            shown: Shown::default(),
            vct: (p.vct > 0).then(|| Box::new(Vct::new())),
        }
    }

    #[inline]
    fn check_time(&mut self) {
        if self.nodes >= self.next_check {
            if self.helper > 0 {
                let told = self.told.max(self.nodes);
                self.helper_nodes.fetch_add(told - self.told, Relaxed);
                self.told = told;
            }
            self.next_check = self.nodes + CLOCK_NODES;
            if self.deadline.is_some_and(|d| Instant::now() >= d)
                || self.nodes >= self.node_limit
                || self.stop_asked()
            {
                self.stopped = true;
            }
            if self.next_report.is_some_and(|t| Instant::now() >= t) {
                self.report(false);
            }
        }
    }

    /// What every node of the tree and of the leaf search does first:
    /// count itself, watch the clock, and settle the positions that need
    /// no search (stopped, decided by threats, a full board, the deepest
    /// ply). `None`: search on.
    #[inline]
    pub(crate) fn enter(&mut self, b: &Board, ply: usize) -> Option<i32> {
        self.nodes += 1;
        self.check_time();
        if self.stopped {
            return Some(0);
        }
        if let Some(s) = self.outcome(b, ply) {
            return Some(s);
        }
        if b.empty_count() == 0 {
            return Some(0);
        }
        if ply >= MAX_PLY - 1 {
            return Some(self.eval.evaluate(b));
        }
        None
    }

    /// What the threats on the board already decide for the side to move.
    #[inline]
    pub(crate) fn outcome(&self, b: &Board, ply: usize) -> Option<i32> {
        decided(b, ply)
            .or_else(|| four_three_wins(b, ply))
            .or_else(|| {
                self.params
                    .defends_three_three()
                    .then(|| three_three_wins(b, ply))?
            })
    }

    #[inline]
    pub(crate) fn play(&mut self, b: &mut Board, m: Pos, ply: usize) {
        self.stack[ply].played = Some(Move::at(m));
        // The child's table bucket is fetched while the move is made.
        let child = b.hash_after(m);
        self.tt.prefetch(child);
        self.eval.play(b, m);
        debug_assert_eq!(b.hash(), child);
    }

    #[inline]
    pub(crate) fn take_back(&mut self, b: &mut Board, _m: Pos) {
        self.eval.undo(b);
    }

    #[inline]
    pub(crate) fn update_pv(&mut self, ply: usize, m: Pos) {
        self.pv[ply][ply] = Some(Move::at(m));
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        head[ply][ply + 1..child_len].copy_from_slice(&tail[0][ply + 1..child_len]);
        self.pv_len[ply] = child_len;
    }

    /// The depth a move costs: a forced block nothing (by default), a four
    /// or a defence their settings, anything else one ply.
    #[inline]
    fn cost(&self, b: &Board, m: Pos, answer: Answer) -> i32 {
        match answer {
            Answer::Five(_) => self.params.block_cost,
            Answer::Three | Answer::Fork => self.params.defence_cost,
            Answer::Free => match b.threat(m, b.to_move()) {
                t if t >= Threat::Block4 => self.params.four_cost,
                Threat::Flex3 | Threat::Three3 => self.params.three_cost,
                _ => ONE,
            },
        }
    }

    #[inline]
    fn reduction(&self, depth: i32, k: usize) -> i32 {
        self.reductions[(depth / ONE).clamp(0, 63) as usize][k.min(63)]
    }

    #[inline]
    fn bonus(&self, depth: i32) -> i32 {
        let d = depth / ONE;
        (self.params.history_scale * d * d).min(self.params.history_max)
    }

    /// The main search of a node `ply` plies from the root with `depth`
    /// left (hundredths of a ply); `cut` marks an expected cut node. Its
    /// steps are numbered as in the module's documentation.
    pub(crate) fn pvs<const PV: bool>(
        &mut self,
        b: &mut Board,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
        depth: i32,
        cut: bool,
    ) -> i32 {
        if PV {
            self.pv_len[ply] = ply;
        }
        // Step 1. Past the horizon: the leaf search.
        if depth < self.params.horizon {
            return self.vcf::<PV>(b, ply, alpha, beta, 0);
        }
        // Step 2. Count the node, watch the clock, settle what the threats
        // on the board already decide.
        if let Some(s) = self.enter(b, ply) {
            return s;
        }
        // Step 3. Mate distance: no line from here can beat a quicker win
        // or lose slower than now.
        alpha = alpha.max(loss_in(ply));
        beta = beta.min(win_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }
        // Step 4. The transposition table: a deep enough bound settles a
        // node off the principal variation.
        let key = b.hash();
        let hit = self.tt.probe(key, ply);
        let tt_move = hit.and_then(|h| h.best).filter(|&m| b.is_empty(m));
        // A singular search of this node (step 7b) asks about the other
        // moves: the table's word on the node is not its answer.
        let excluded = self.stack[ply].excluded;
        if !PV
            && excluded.is_none()
            && let Some(s) = hit.and_then(|h| h.settles(depth, alpha, beta))
        {
            return s;
        }
        // Step 5. What the node must answer; the static evaluation, and
        // whether it improves on two plies ago.
        let p = self.params;
        let answer = movepick::answer(b, p.defends_three_three());
        let threatened = matches!(answer, Answer::Three | Answer::Fork);
        // With `threat_prune` a node under a three stands on its parent's
        // static score, negated, as Rapfi's does: a pending threat makes
        // its own evaluation unsure. (The root keeps no static score.)
        let inherits = p.threat_prune > 0 && answer == Answer::Three && ply >= 2;
        let eval = if inherits {
            -self.stack[ply - 1].eval
        } else {
            hit.map_or_else(|| self.eval.evaluate(b), |h| h.eval)
        };
        self.stack[ply].eval = eval;
        self.stack[ply].answered = answer != Answer::Free;
        let improving = ply >= 2 && eval > self.stack[ply - 2].eval;
        // Step 5b. Near the root (`vct`) with depth enough left
        // (`vct_depth`), a free node asks the threat search by fours and
        // threes for a win, once a game, within its own small budget,
        // counted with the tree's; a win goes to the table.
        if answer == Answer::Free
            && excluded.is_none()
            && ply < p.vct as usize
            && depth >= p.vct_depth * ONE
            && let Some(s) = self.vct_node(b, ply, eval, PV)
        {
            return s;
        }
        // Step 6. Pruning before any move: reverse futility, razoring,
        // null move; and a shallow node that must answer a three drops
        // into the leaf search (`three_leaf_depth`).
        if !PV && answer == Answer::Three && excluded.is_none() && depth < p.three_leaf_depth {
            return self.vcf::<false>(b, ply, alpha, beta, 0);
        }
        if !PV
            && (answer == Answer::Free || (threatened && p.threat_prune > 0))
            && excluded.is_none()
            && let Some(s) = self.prune_node(b, ply, alpha, beta, depth, cut, eval, hit, answer)
        {
            return s;
        }
        // Step 6b. Fail-high reduction: an expected cut node that stands
        // well above beta, which step 6 left standing (too deep for reverse
        // futility, or the null move refuted), will most likely still cut:
        // rather than pruned, its moves but fours are searched shallower.
        // Fours are spared because a four's line is where a cut node's
        // standing is overturned.
        let fail_high = p.fhr_reduction > 0
            && !PV
            && cut
            && answer == Answer::Free
            && excluded.is_none()
            && depth >= p.fhr_depth * ONE
            && !is_decided(beta)
            && estimate(hit, eval) >= beta + p.fhr_margin * depth / ONE;
        // Step 7. Internal iterative reduction: without a table move a
        // deep node is searched a ply shallower.
        let mut depth = depth;
        if tt_move.is_none() && excluded.is_none() && p.iir_depth > 0 && depth >= p.iir_depth * ONE
        {
            depth -= ONE;
        }
        // A table move from a search much shallower than this one is
        // little better than none (`iir_stale`).
        if p.iir_stale > 0
            && excluded.is_none()
            && tt_move.is_some()
            && depth >= 2 * ONE
            && hit.is_some_and(|h| h.depth + p.iir_stale * ONE <= depth)
        {
            depth -= ONE;
        }
        // Rapfi's reductions of a principal-variation node: a little
        // without a table move (`iir_pv`), and by how much shallower the
        // table's search was than this one (`iir_pv_stale` a ply, at most
        // 3.6 plies): a move the last iterations did not choose again is
        // no guide for a deeper search.
        if PV && ply > 0 && excluded.is_none() {
            match (tt_move, hit) {
                (None, _) => depth -= p.iir_pv,
                (Some(_), Some(h)) if depth > ONE => {
                    depth -= ((depth - h.depth) * p.iir_pv_stale / 100).clamp(0, IIR_PV_STALE_MAX);
                }
                _ => {}
            }
        }
        // Step 7b. Singular extension: a table move that stands above
        // every other move by a margin, in a shallower search without it,
        // is searched a ply deeper. Under threat (an open three or a fork
        // to answer, a four the opponent can make) a single good answer is
        // the rule rather than the exception and a mistake there loses by
        // force, so those nodes may have a threshold of their own.
        let se_depth = if p.se_four_depth > 0
            && (matches!(answer, Answer::Three | Answer::Fork)
                || !no_four_to_come(b, b.to_move().opponent()))
        {
            p.se_four_depth
        } else {
            p.se_depth
        };
        let mut singular_ran = false;
        let extension = match (hit, tt_move) {
            (Some(h), Some(m))
                if se_depth > 0
                    && ply > 0
                    && excluded.is_none()
                    && !matches!(answer, Answer::Five(_))
                    && depth >= (se_depth * ONE).max(3 * ONE)
                    && h.depth >= depth - 3 * ONE
                    && h.bound != Bound::Upper
                    && !is_decided(h.score) =>
            {
                singular_ran = true;
                match self.singular::<PV>(b, ply, m, h.score, depth, beta, cut) {
                    Singular::Extend(e) => e,
                    Singular::Cut(s) => return s,
                }
            }
            _ => 0,
        };
        if self.stopped {
            return 0;
        }

        // Step 8. The moves: exactly the answers when the node must
        // answer, ordered; none means every move loses by force.
        // No node of this ply holds it now (the children are a ply deeper).
        let mut list = self.lists[ply].take().unwrap_or_default();
        generate(b, answer, &mut list);
        if list.is_empty() {
            self.lists[ply] = Some(list);
            // As late as the threat allows.
            return match answer {
                Answer::Fork => loss_in(ply + FORK_LOSS_PLIES),
                _ => loss_in(ply + THREAT_LOSS_PLIES),
            };
        }
        let top = self.order(b, &mut list, ply, tt_move);

        // Step 9. The loop over the moves.
        let original_alpha = alpha;
        let tt_pv = hit.is_some_and(|h| h.pv);
        // Depth the later moves lose once alpha is raised (`raised_reduction`).
        let mut lowered = 0;
        let mut best_score = -INFINITE;
        let mut best_move = None;
        let mut tried_quiet = [None; TRIED_QUIETS];
        let mut quiets = 0;
        let move_count =
            self.move_counts[usize::from(improving)][(depth / ONE).clamp(0, 63) as usize];
        let futile = !PV
            && answer == Answer::Free
            && depth < p.futility_depth * ONE
            && !is_decided(alpha)
            && eval + p.futility_margin * depth / ONE <= alpha;
        // Set-ups are pruned past `lmp_setup` percent of the move count
        // (never with 0), compared as `k * 100` against this.
        let setup_count = (p.lmp_setup > 0).then(|| move_count * p.lmp_setup as usize);
        // Defences are pruned past `lmp_defence` percent of the move count
        // (never with 0), compared as `k * 100` against this.
        let defence_count = (p.lmp_defence > 0 && matches!(answer, Answer::Three | Answer::Fork))
            .then(|| move_count * p.lmp_defence as usize);
        // Forcing moves are pruned past `lmp_forcing` percent of the move
        // count (never with 0), compared as `k * 100` against this.
        let forcing_count = (p.lmp_forcing > 0).then(|| move_count * p.lmp_forcing as usize);
        // Below `trivial_depth` moves that make nothing for either side,
        // and distractions from a three or a fork, are pruned (never with 0).
        let trivial = depth < p.trivial_depth;
        // The table move's extension where no singular search weighed it.
        let tt_extended =
            if p.tt_extension > 0 && !singular_ran && !matches!(answer, Answer::Five(_)) {
                tt_move.map_or(0, |m| self.tt_extension::<PV>(b, m, ply))
            } else {
                0
            };
        let parent_extra = ply.checked_sub(1).map_or(0, |q| self.stack[q].extra);
        // Moves left out so far: a singular search skips the table move,
        // and the move after it is then its first, searched as a first move
        // is (with no reduction and never pruned), not as a late one.
        let mut skipped = 0;
        // The move count prunes off the principal variation, or at every
        // node but the root as Rapfi's does (`lmp_pv`); on the principal
        // variation our own fours stay: a win by fours there is the line's
        // own, which the leaf would find.
        let counted_here = !PV || p.lmp_pv > 0;
        let four_kept = |b: &Board, m: Pos| PV && b.threat(m, b.to_move()) >= Threat::Block4;
        for i in 0..list.len() {
            let m = list.get(i);
            if excluded == Some(Move::at(m)) {
                skipped += 1;
                continue;
            }
            let k = i - skipped;
            let quiet = is_quiet(b, m);
            // Step 9a. Late move pruning: a late move of a free node, once
            // a move has not lost by force, may be skipped: a quiet one
            // past the move count or when futile, a set-up past its share
            // of the count, a forcing move past its own share
            // (`lmp_forcing`, by default never).
            if counted_here
                && k > 0
                && best_score > -DECIDED
                && defence_count.is_some_and(|n| k * 100 >= n)
                && !four_kept(b, m)
            {
                continue;
            }
            // Rapfi's trivial moves and distractions, at any node.
            if trivial
                && k > 0
                && best_score > -DECIDED
                && (is_trivial(b, m) || (answer == Answer::Three && self.distracts(b, m, ply)))
            {
                continue;
            }
            let late = counted_here && answer == Answer::Free && k > 0 && best_score > -DECIDED;
            let past = |count: Option<usize>| count.is_some_and(|n| k * 100 >= n);
            if late
                && if quiet {
                    k >= move_count || futile
                } else {
                    // Whether the move is forcing is asked only past a
                    // count, as most late moves are not.
                    (past(setup_count) || past(forcing_count))
                        && if is_forcing(b, m) {
                            // Only our own threats: a stop of the
                            // opponent's fork point is never pruned.
                            past(forcing_count)
                                && movepick::class(b, m, b.to_move().opponent())
                                    < movepick::class::THREE3
                                && !four_kept(b, m)
                        } else {
                            past(setup_count)
                        }
                }
            {
                continue;
            }
            // Step 9b. The depth the move costs, and how much a late one
            // is reduced.
            let extended = match tt_move {
                Some(t) if t == m && singular_ran => extension,
                Some(t) if t == m => tt_extended,
                _ => 0,
            };
            self.stack[ply].extra = parent_extra + (extended - ONE).max(0);
            let mut new_depth = depth - self.cost(b, m, answer) + extended - lowered;
            if fail_high && b.threat(m, b.to_move()) < Threat::Block4 {
                new_depth -= p.fhr_reduction;
            }
            let r = if k == 0 {
                0
            } else {
                let facts = Late {
                    k,
                    ply,
                    depth,
                    answer,
                    cut,
                    improving,
                    quiet,
                    top,
                    tt_pv,
                    best: best_score,
                };
                self.late_reduction::<PV>(b, m, facts)
            };
            // Step 9c. Search it: the first move with the full window, the
            // rest with a null window, reduced, then again unreduced and
            // with the full window while they beat alpha.
            self.play(b, m, ply);
            let score = if k == 0 {
                -self.pvs::<PV>(b, ply + 1, -beta, -alpha, new_depth, !PV && !cut)
            } else {
                let reduced = (new_depth - r).max(new_depth.min(ONE));
                let mut s = -self.pvs::<false>(b, ply + 1, -alpha - 1, -alpha, reduced, true);
                if s > alpha && reduced < new_depth && !self.stopped {
                    if p.lmr_deeper > 0 {
                        new_depth += self.deeper(ply, s, alpha, best_score, new_depth, reduced);
                    }
                    if reduced < new_depth {
                        s = -self.pvs::<false>(b, ply + 1, -alpha - 1, -alpha, new_depth, !cut);
                    }
                }
                if PV && s > alpha && s < beta && !self.stopped {
                    s = -self.pvs::<true>(b, ply + 1, -beta, -alpha, new_depth, false);
                }
                s
            };
            self.take_back(b, m);
            if self.stopped {
                self.lists[ply] = Some(list);
                return 0;
            }
            // Step 9d. A new best move; a cut rewards it.
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = Some(m);
                    if PV {
                        self.update_pv(ply, m);
                    }
                    alpha = score;
                    if alpha >= beta {
                        self.reward(b, ply, m, depth, quiet, &tried_quiet[..quiets]);
                        break;
                    }
                    if depth >= 2 * ONE && !is_decided(score) {
                        lowered = p.raised_reduction;
                    }
                }
            }
            if quiet && quiets < TRIED_QUIETS {
                tried_quiet[quiets] = Some(Move::at(m));
                quiets += 1;
            }
        }
        self.lists[ply] = Some(list);
        // Step 10. The result: the static score when every move was
        // pruned, else the best score, stored with its bound.
        if best_score == -INFINITE {
            // Left out of a singular search, nothing else stands: the
            // table move is singular.
            return if excluded.is_some() {
                alpha
            } else {
                eval.min(beta)
            };
        }
        if excluded.is_some() {
            // Not the node's value: the table keeps the node's own.
            return best_score;
        }
        let bound = Bound::of(best_score, original_alpha, beta);
        self.tt
            .store(key, ply, depth, best_score, eval, bound, PV, best_move);
        best_score
    }

    /// Step 5b of [`Tree::pvs`]: the score of a win by threats the VCT
    /// finds for the side to move at the node `ply` plies from the root,
    /// stored in the table as a bound no deeper search overturns.
    #[cold]
    fn vct_node(&mut self, b: &mut Board, ply: usize, eval: i32, pv: bool) -> Option<i32> {
        let p = self.params;
        if !crate::vct::threats_enough(b, p.vct_min_threats) {
            return None;
        }
        let budget = (p.vct_nodes as u64).min(self.node_limit.saturating_sub(self.nodes));
        let vct = self.vct.as_mut()?;
        vct.set_deadline(self.deadline);
        let win = vct.probe(b, p.vct_threes as usize, budget);
        self.nodes += vct.nodes();
        let win = win?;
        let score = win_in(ply + win.plies);
        self.tt.store(
            b.hash(),
            ply,
            MAX_PLY as i32 * ONE,
            score,
            eval,
            Bound::Lower,
            pv,
            Some(win.first),
        );
        if pv {
            self.pv[ply][ply] = Some(Move::at(win.first));
            self.pv_len[ply] = ply + 1;
        }
        Some(score)
    }

    /// Step 7b of [`Tree::pvs`]: the extension of the table move `m`, whose
    /// stored score is `tt_score`: a ply when a search of the node without
    /// it, half as deep, stays below `tt_score` less the margin, two off the
    /// principal variation when it stays `se_double` below that
    /// (`Singular::Extend`); off the principal variation, a cut when even
    /// without it the node reaches beta (`se_multicut`, `Singular::Cut`).
    #[allow(clippy::too_many_arguments)]
    fn singular<const PV: bool>(
        &mut self,
        b: &mut Board,
        ply: usize,
        m: Pos,
        tt_score: i32,
        depth: i32,
        beta: i32,
        cut: bool,
    ) -> Singular {
        let p = self.params;
        let singular_beta = tt_score - p.se_margin * depth / ONE;
        self.stack[ply].excluded = Some(Move::at(m));
        let v = self.pvs::<false>(
            b,
            ply,
            singular_beta - 1,
            singular_beta,
            (depth - ONE) / 2,
            cut,
        );
        self.stack[ply].excluded = None;
        if v < singular_beta {
            let double = !PV && p.se_double > 0 && v < singular_beta - p.se_double;
            Singular::Extend(if double { 2 * ONE } else { ONE })
        } else if !PV && p.se_multicut > 0 && singular_beta >= beta && !self.stopped {
            Singular::Cut(singular_beta)
        } else {
            Singular::Extend(0)
        }
    }

    /// Step 6 of [`Tree::pvs`] at a node off the principal variation that
    /// need answer nothing (or, with `threat_prune`, must answer a three or
    /// a fork): the score that settles it before any move is tried, if
    /// any. Far above beta at shallow depth it stands (reverse futility, on
    /// the static score or with `rfp_estimate` on the table's `hit` where
    /// it says more); far below alpha it is what the leaf search finds
    /// (razoring); at a free node, above beta even after a pass it is cut
    /// (null move).
    #[allow(clippy::too_many_arguments)]
    fn prune_node(
        &mut self,
        b: &mut Board,
        ply: usize,
        alpha: i32,
        beta: i32,
        depth: i32,
        cut: bool,
        eval: i32,
        hit: Option<crate::tt::Hit>,
        answer: Answer,
    ) -> Option<i32> {
        let p = self.params;
        if is_decided(alpha) || is_decided(beta) {
            return None;
        }
        let standing = if p.rfp_estimate > 0 {
            estimate(hit, eval)
        } else {
            eval
        };
        if depth < p.rfp_depth * ONE && standing - p.rfp_margin * depth / ONE >= beta {
            return Some(standing);
        }
        if depth < p.razor_depth * ONE && eval + p.razor_base + p.razor_margin * depth / ONE < alpha
        {
            let v = self.vcf::<false>(b, ply, alpha - 1, alpha, 0);
            if self.stopped {
                return Some(0);
            }
            if v < alpha {
                return Some(v);
            }
        }
        let me = b.to_move();
        let opp = me.opponent();
        if p.nmp_depth > 0
            && answer == Answer::Free
            && depth >= p.nmp_depth * ONE
            && eval >= beta
            && self.previous(ply).is_some()
            && no_four_to_come(b, opp)
            && b.threat_count(opp, Threat::Three3) == 0
        {
            let r = p.nmp_base + p.nmp_scale * depth / ONE;
            self.stack[ply].played = None;
            self.stack[ply].extra = ply.checked_sub(1).map_or(0, |q| self.stack[q].extra);
            self.eval.pass(b);
            let v = -self.pvs::<false>(b, ply + 1, -beta, -beta + 1, depth - r, !cut);
            self.eval.unpass(b);
            if self.stopped {
                return Some(0);
            }
            if v >= beta {
                return Some(if is_decided(v) { beta } else { v });
            }
        }
        None
    }

    /// Step 9b of [`Tree::pvs`]: how much the `k`th move `m` (not the
    /// first) is reduced. At a free node by ln depth · ln move number, less
    /// on the principal variation, for improving positions, set-ups and
    /// threats, more at expected cut nodes, more or less by how far the
    /// move's static ordering score stands below the node's best (the
    /// policy, `lmr_policy`); at a node answering a three or a fork by a
    /// share of that; by good history less everywhere.
    #[inline]
    fn late_reduction<const PV: bool>(&self, b: &Board, m: Pos, facts: Late) -> i32 {
        let Late {
            k,
            ply,
            depth,
            answer,
            cut,
            improving,
            quiet,
            top,
            tt_pv,
            best,
        } = facts;
        let p = self.params;
        if depth < 2 * ONE {
            return 0;
        }
        // Rapfi numbers the moves from one (`lmr_counted`).
        let k = k + p.lmr_counted as usize;
        let me = b.to_move();
        let history = self.history.score(me, m);
        let defending = matches!(answer, Answer::Three | Answer::Fork);
        // `lmr_no_alpha`: at the root's opponent's nodes whose best already
        // holds the root below its alpha.
        let no_alpha = if p.lmr_no_alpha > 0 && ply % 2 == 1 && best >= -self.root_alpha {
            p.lmr_no_alpha
        } else {
            0
        };
        if defending && p.lmr_defence > 0 {
            let mut r = self.reduction(depth, k) * p.lmr_defence / 100 + no_alpha;
            if p.lmr_defence_all > 0 {
                // Rapfi's: a defence is reduced as any move is, by the
                // node's kind too (killers are no defence).
                if PV {
                    r -= p.lmr_pv;
                }
                if cut {
                    r += p.lmr_cut;
                }
                if tt_pv {
                    r -= p.lmr_tt_pv;
                }
            }
            if p.lmr_useless_defence > 0
                && answer == Answer::Three
                && b.threat(m, me.opponent()) < Threat::Block4
            {
                // A move that blocks no four point is a counter-attack or
                // a side defence: far from both last moves it rarely holds.
                if self.previous(ply).is_some_and(|o| lines_apart(m, o) > 4) {
                    r += p.lmr_useless_defence;
                }
                if self.ours_before(ply).is_some_and(|o| lines_apart(m, o) > 4) {
                    r += p.lmr_useless_defence / 2;
                }
            }
            if p.lmr_far_four > 0
                && b.threat(m, me) >= Threat::Block4
                && self
                    .previous(ply)
                    .is_some_and(|threat| lines_apart(m, threat) > 4)
            {
                r += p.lmr_far_four;
            }
            return (r - history * ONE / p.lmr_history).max(0);
        }
        if answer != Answer::Free {
            return 0;
        }
        let mut r = self.reduction(depth, k) + no_alpha;
        if PV {
            r -= p.lmr_pv;
        }
        if cut && (p.lmr_cut_killer == 0 || !self.stack[ply].killers.contains(&Some(Move::at(m)))) {
            r += p.lmr_cut;
        }
        if tt_pv {
            r -= p.lmr_tt_pv;
        }
        if p.lmr_attack > 0
            && ply >= 2
            && self.stack[ply - 1].answered
            && is_forcing(b, m)
            && self.stack[ply - 2]
                .played
                .is_some_and(|ours| lines_apart(m, ours.pos()) <= 4)
        {
            r -= p.lmr_attack;
        }
        if improving {
            r -= p.lmr_improving;
        }
        if !quiet {
            r -= p.lmr_setup;
        }
        if b.threat(m, me) >= Threat::Flex3 {
            r -= p.lmr_threat;
        }
        if p.lmr_policy > 0 {
            // Policy: how far below the node's best static ordering score
            // the move stands says how likely it is to matter, apart from
            // the history that the line below weighs.
            let gap = top - self.static_score(b, m, me);
            r += ((gap - p.lmr_policy_mid) * ONE / p.lmr_policy)
                .clamp(-p.lmr_policy_max, p.lmr_policy_max);
        }
        (r - history * ONE / p.lmr_history).max(0)
    }

    /// After `m` caused a cut: history bonus for it (penalties for the
    /// quiet moves tried before it), killer and counter move.
    fn reward(
        &mut self,
        b: &Board,
        ply: usize,
        m: Pos,
        depth: i32,
        quiet: bool,
        tried: &[Option<Move>],
    ) {
        let me = b.to_move();
        let bonus = self.bonus(depth);
        self.history.update(me, m, bonus);
        for q in tried.iter().flatten() {
            self.history.update(me, q.pos(), -bonus);
        }
        if quiet {
            let k = &mut self.stack[ply].killers;
            if k[0] != Some(Move::at(m)) {
                k[1] = k[0];
                k[0] = Some(Move::at(m));
            }
        }
        if let Some(previous) = self.previous(ply) {
            self.history.set_counter(me, previous, m);
        }
    }

    /// Step 9a of [`Tree::pvs`] (`trivial_depth`): whether `m`, at a node
    /// `ply` plies from the root answering a three, blocks no
    /// four point and lies more than four lines from both sides' last
    /// moves: a distraction that most likely only delays the loss.
    #[inline]
    fn distracts(&self, b: &Board, m: Pos, ply: usize) -> bool {
        b.threat(m, b.to_move().opponent()) < Threat::Block4
            && self.previous(ply).is_some_and(|o| lines_apart(m, o) > 4)
            && self.ours_before(ply).is_some_and(|o| lines_apart(m, o) > 4)
    }

    /// Step 9b of [`Tree::pvs`] (`tt_extension`): the table move `m`'s
    /// extension at the node `ply` plies from the root where no singular
    /// search ran: the setting on the principal variation, a third of it
    /// elsewhere, and for a four near our last move as much again (within
    /// four lines) or a fifth (within six).
    #[inline]
    fn tt_extension<const PV: bool>(&self, b: &Board, m: Pos, ply: usize) -> i32 {
        let t = self.params.tt_extension;
        let mut e = if PV { t } else { t / 3 };
        if b.threat(m, b.to_move()) >= Threat::Block4
            && let Some(d) = self.ours_before(ply).map(|o| lines_apart(m, o))
        {
            e += match d {
                0..=4 => t,
                5..=6 => t / 5,
                _ => 0,
            };
        }
        e
    }

    /// Step 9c of [`Tree::pvs`] (`lmr_deeper`): the depth to add to the
    /// full search of the move from `ply` whose reduced search (`reduced`
    /// deep of `new_depth`) scored `s` above `alpha`, the node's best so
    /// far being `best`: a ply for a clear margin, two for a wide one, a
    /// ply less for a score barely above the best, as Rapfi's
    /// `lmrExtension`; past [`EXTRA_MAX`] of extra depth in the line, a ply
    /// at most.
    fn deeper(
        &mut self,
        ply: usize,
        s: i32,
        alpha: i32,
        best: i32,
        new_depth: i32,
        reduced: i32,
    ) -> i32 {
        let margin = self.params.lmr_deeper;
        let cut = new_depth - reduced;
        let mut ext = 0;
        if s > alpha + margin + 11 * cut / ONE {
            ext += ONE;
        }
        if s > alpha + 10 * margin + 26 * cut / ONE {
            ext += ONE;
        }
        if s < best + new_depth / ONE {
            ext -= ONE;
        }
        let extra = &mut self.stack[ply].extra;
        if *extra >= EXTRA_MAX {
            ext.min(ONE)
        } else {
            *extra += (ext - ONE).max(0);
            ext
        }
    }

    /// Our own last move before the node `ply` plies from the root (none
    /// near the root, or after a pass).
    #[inline]
    fn ours_before(&self, ply: usize) -> Option<Pos> {
        ply.checked_sub(2)
            .and_then(|p| self.stack[p].played)
            .map(Move::pos)
    }

    /// The opponent's move that led to the node `ply` plies from the root
    /// (none at the root, or after a pass).
    #[inline]
    fn previous(&self, ply: usize) -> Option<Pos> {
        ply.checked_sub(1)
            .and_then(|p| self.stack[p].played)
            .map(Move::pos)
    }

    /// The static part of a move's ordering score: what the point is worth
    /// to either side and what its class makes or takes (the "policy" that
    /// [`Tree::late_reduction`] weighs), without history or killers.
    /// Always inline: out of line, its calls from [`Tree::order`] cost
    /// as much as its look-ups (issue 55).
    #[inline(always)]
    fn static_score(&self, b: &Board, m: Pos, me: Player) -> i32 {
        let point = if self.params.order_fine > 0
            && let Some(fine) = self.eval.move_score(b, m, me)
        {
            fine * self.params.order_fine / 100
        } else {
            match self.params.order_learned {
                0 => point_score(b, m, me),
                weight => {
                    let [mine, _] = self.eval.point_values(b, m, me);
                    let [_, theirs] = self.eval.point_values(b, m, me.opponent());
                    (2 * mine + theirs) * weight / 100
                }
            }
        };
        point + class_bonus(b, m, me, self.params.order_setup, self.params.order_block)
    }

    /// Orders `list` for the side to move at `ply`: the table move first,
    /// then by static score, history, killers and counter move. Returns the
    /// best static score in the list (see [`Tree::static_score`]).
    fn order(&self, b: &Board, list: &mut MoveList, ply: usize, tt_move: Option<Pos>) -> i32 {
        let me: Player = b.to_move();
        let killers = self.stack[ply].killers;
        let counter = self
            .previous(ply)
            .and_then(|previous| self.history.counter(me, previous));
        let weight = self.params.history_weight;
        let (killer, second) = (killers[0].map(Move::pos), killers[1].map(Move::pos));
        let mut top = i32::MIN;
        for k in 0..list.len() {
            let m = list.get(k);
            let own = self.static_score(b, m, me);
            top = top.max(own);
            let mut s = own + self.history.score(me, m) * weight / 256;
            if Some(m) == tt_move {
                s += 1 << 28;
            } else if killer == Some(m) {
                s += self.params.order_killer;
            } else if second == Some(m) || counter == Some(m) {
                s += self.params.order_counter;
            }
            list.set_score(k, s);
        }
        list.sort();
        top
    }
}

/// What [`Tree::late_reduction`] needs to know of a late move and its node.
#[derive(Clone, Copy)]
struct Late {
    /// The move's number among those searched at the node (0: the first).
    k: usize,
    /// The node's distance from the root.
    ply: usize,
    /// The node's remaining depth.
    depth: i32,
    /// What the node must answer.
    answer: Answer,
    /// Whether the node is an expected cut node.
    cut: bool,
    /// Whether the static score improves on two plies ago.
    improving: bool,
    /// Whether the move is quiet ([`is_quiet`]).
    quiet: bool,
    /// The best static ordering score of the node's moves.
    top: i32,
    /// Whether the table remembers the node on a principal variation.
    tt_pv: bool,
    /// The node's best score before this move.
    best: i32,
}

/// Whether the `helper`-th helper of a parallel search (0: the main
/// search, which skips nothing) skips iteration `depth`: Stockfish's
/// lazy SMP pattern of 20, so that the helpers spread over the depths
/// (the first helper searches the even depths, a ply ahead of the main
/// search half the time) and fill the shared table with what the main
/// search will ask for next.
pub(crate) fn skips(helper: usize, depth: u32) -> bool {
    const SIZE: [u32; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
    const PHASE: [u32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];
    if helper == 0 {
        return false;
    }
    let k = (helper - 1) % 20;
    ((depth + PHASE[k]) / SIZE[k]) % 2 != 0
}

/// Whether `m` makes nothing for either side, not even a flex two or a
/// block three (Rapfi's trivial move, `trivial_depth`).
#[inline]
fn is_trivial(b: &Board, m: Pos) -> bool {
    let me = b.to_move();
    movepick::class(b, m, me) <= movepick::class::BLOCK2
        && movepick::class(b, m, me.opponent()) <= movepick::class::BLOCK2
}

/// How many lines (rows or columns, whichever more) apart two points are.
#[inline]
fn lines_apart(i: Pos, j: Pos) -> usize {
    let ((x, y), (u, v)) = (i.xy(), j.xy());
    x.abs_diff(u).max(y.abs_diff(v))
}

/// The best estimate of a node's value before its moves are searched: the
/// static evaluation, or the table's score where its bound says the value
/// lies beyond the evaluation on that side (a decided score is no
/// estimate).
#[inline]
fn estimate(hit: Option<crate::tt::Hit>, eval: i32) -> i32 {
    match hit {
        Some(h) if !is_decided(h.score) => match h.bound {
            Bound::Lower if h.score > eval => h.score,
            Bound::Upper if h.score < eval => h.score,
            Bound::Exact => h.score,
            _ => eval,
        },
        _ => eval,
    }
}
