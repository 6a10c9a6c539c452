//! The classic search, kept beside the selective one until that one wins
//! everywhere (`search=classic` picks it), so that every figure is a
//! side-by-side run: principal-variation alpha-beta with iterative
//! deepening, a one-slot transposition table, killer and history move
//! ordering, late move reductions at a fixed width, a VCF probe first at
//! the root, and threat rules: an open three to answer extends the line,
//! fours are played on past the horizon, and a four-three against no four
//! is a win.

mod table;

use std::time::{Duration, Instant};

use inarow_core::Player;

use crate::board::{Board, CELLS};
use crate::eval::{Weights, decided, evaluate, four_three_wins, no_four_to_come, three_three_wins};
use crate::movegen::{Mode, MoveList, generate};
use crate::pattern::Threat;
use crate::score::{WIN, is_decided, loss_in, win_in};
use crate::search::{Found, Limits, Options, PV_LIMIT, VCT_WIN};
use crate::vcf::{Vcf, gather_fours};
use crate::vct::Vct;
use table::{Bound, Table};

use crate::search::MAX_PLY;

/// How far below alpha a horizon node's static score must be for its
/// quiet moves to be skipped.
const FUTILITY_MARGIN: i32 = 150;

/// The classic searcher: its tables live across moves of one game.
pub struct Classic {
    options: Options,
    tt: Table,
    vcf: Vcf,
    killers: [[u16; 2]; MAX_PLY],
    history: [Vec<i32>; 2],
    lists: Vec<MoveList>,
    nodes: u64,
    start: Instant,
    deadline: Option<Instant>,
    node_limit: u64,
    next_check: u64,
    stopped: bool,
    /// Depth of the iteration under way.
    iteration: i32,
    /// Root moves left out (for analysis of several lines).
    excluded: Vec<usize>,
}

impl Classic {
    /// A searcher with these options.
    pub fn new(options: Options) -> Classic {
        Classic {
            options,
            tt: Table::with_bytes(options.tt_bytes),
            vcf: Vcf::new(options.leaf_vcf_nodes, 20),
            killers: [[u16::MAX; 2]; MAX_PLY],
            history: [vec![0; CELLS], vec![0; CELLS]],
            lists: (0..MAX_PLY + 1).map(|_| MoveList::default()).collect(),
            nodes: 0,
            start: Instant::now(),
            deadline: None,
            node_limit: u64::MAX,
            next_check: 0,
            stopped: false,
            iteration: 0,
            excluded: Vec::new(),
        }
    }

    /// Leaves these root moves out of the following searches (grid
    /// indices), so that analysis can ask for the best move after the ones
    /// it already has; a search with every candidate left out plays the
    /// first candidate anyway.
    pub fn set_excluded(&mut self, moves: &[usize]) {
        self.excluded = moves.to_vec();
    }

    /// The options in use.
    pub fn options(&self) -> Options {
        self.options
    }

    /// Forgets everything learnt (new game).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.killers = [[u16::MAX; 2]; MAX_PLY];
        for h in &mut self.history {
            h.fill(0);
        }
    }

    /// Finds a move for the side to move. The board must have an empty
    /// point and no five on it. The board is unchanged afterwards.
    pub fn search(&mut self, b: &mut Board, limits: Limits) -> Found {
        self.start = Instant::now();
        self.deadline = limits.time.map(|t| self.start + t);
        self.node_limit = limits.nodes;
        self.nodes = 0;
        self.next_check = 0;
        self.stopped = false;
        for h in &mut self.history {
            for v in h.iter_mut() {
                *v /= 8;
            }
        }
        let mut root = MoveList::default();
        let mode = generate(b, &mut root);
        root.leave_out(&self.excluded);
        let mut found = Found {
            best: root.get(0),
            score: 0,
            depth: 0,
            nodes: 0,
            vcf: false,
            elapsed: Duration::ZERO,
            pv: Vec::new(),
        };
        if mode == Mode::Win {
            found.score = win_in(1);
            found.vcf = true;
            return self.finish(b, found);
        }
        if root.len() == 1 {
            return self.finish(b, found);
        }
        if self.options.root_vcf && mode != Mode::Block {
            let mut solver = Vcf::new(200_000, 40);
            // At most a quarter of the move's time goes to the threat search.
            solver.set_deadline(limits.time.map(|t| self.start + t / 4));
            let line = solver.solve(b);
            self.nodes += solver.nodes();
            if let Some(line) = line.filter(|l| !self.excluded.contains(&l[0])) {
                found.best = line[0];
                found.score = win_in(line.len());
                found.vcf = true;
                found.pv = line.iter().copied().take(PV_LIMIT).collect();
                return self.finish(b, found);
            }
            if self.options.vcf_defence {
                solver.set_deadline(limits.time.map(|t| self.start + t * 2 / 5));
                self.defend_vcf(b, &mut root, &mut solver);
            }
            if self.options.vct_defence && mode == Mode::Free && root.len() > 1 {
                let deadline = limits.time.map(|t| self.start + t / 2);
                self.defend_vct(b, &mut root, deadline);
            }
            if self.options.root_vct && mode == Mode::Free {
                let mut vct = Vct::new(3_000, 1_000);
                vct.set_deadline(limits.time.map(|t| self.start + t / 2));
                let win = vct.solve(b, 3);
                self.nodes += vct.nodes();
                if let Some(m) = win {
                    found.best = m;
                    found.score = VCT_WIN;
                    found.vcf = true;
                    return self.finish(b, found);
                }
            }
        }
        let soft = limits
            .time
            .map(|t| t * self.options.soft_percent.min(100) / 100);
        for depth in 1..=limits.depth {
            let (score, best) = self.root(b, &mut root, depth as i32);
            if self.stopped {
                // A partial iteration's move is kept only if it was searched
                // in full and beat the previous best.
                if let Some(best) = best {
                    found.best = best;
                }
                break;
            }
            found.best = best.unwrap_or(found.best);
            found.score = score;
            found.depth = depth;
            if is_decided(score) && (WIN - score.abs()) as u32 <= depth {
                break;
            }
            if soft.is_some_and(|s| self.start.elapsed() >= s) || self.nodes >= self.node_limit {
                break;
            }
        }
        self.finish(b, found)
    }

    /// If the opponent would win by VCF were it to move now, keeps only the
    /// root moves after which it no longer does (all of them if none do).
    fn defend_vcf(&mut self, b: &mut Board, root: &mut MoveList, solver: &mut Vcf) {
        let nodes = &mut self.nodes;
        keep_defences(b, root, None, |b| {
            solver.set_limit(20_000);
            let wins = solver.wins(b);
            *nodes += solver.nodes();
            wins
        });
    }

    /// The same against a VCT of up to two threes. If time runs out before
    /// every move is checked, all are kept.
    fn defend_vct(&mut self, b: &mut Board, root: &mut MoveList, deadline: Option<Instant>) {
        let mut vct = Vct::new(2_000, 300);
        vct.set_deadline(deadline);
        let nodes = &mut self.nodes;
        keep_defences(b, root, deadline, |b| {
            let wins = vct.solve(b, 2).is_some();
            *nodes += vct.nodes();
            wins
        });
    }

    fn finish(&mut self, b: &mut Board, mut found: Found) -> Found {
        found.nodes = self.nodes;
        found.elapsed = self.start.elapsed();
        if found.pv.is_empty() {
            found.pv = self.principal_variation(b, found.best);
        }
        found
    }

    /// The line from `best` on, following the table's best moves while they
    /// are legal and the game goes on.
    fn principal_variation(&self, b: &mut Board, best: usize) -> Vec<usize> {
        let mut pv = Vec::with_capacity(PV_LIMIT);
        let mut next = Some(best);
        while let Some(m) = next {
            if pv.len() >= PV_LIMIT || !b.is_empty(m) {
                break;
            }
            b.play_unchecked(m);
            pv.push(m);
            if b.last_move_won() || b.empty_count() == 0 {
                break;
            }
            next = self
                .tt
                .probe(b.hash(), 0)
                .and_then(|e| e.best)
                .map(usize::from)
                .filter(|&m| m < CELLS);
        }
        for _ in 0..pv.len() {
            b.undo();
        }
        pv
    }

    /// One root iteration; moves are reordered by their scores for the next.
    fn root(&mut self, b: &mut Board, root: &mut MoveList, depth: i32) -> (i32, Option<usize>) {
        let mut alpha = -WIN - 1;
        let beta = WIN + 1;
        let mut best = None;
        self.iteration = depth;
        for k in 0..root.len() {
            let m = root.get(k);
            b.play_unchecked(m);
            let score = if k == 0 {
                -self.pvs(b, depth - 1, 1, -beta, -alpha)
            } else {
                let s = -self.pvs(b, depth - 1, 1, -alpha - 1, -alpha);
                if s > alpha && !self.stopped {
                    -self.pvs(b, depth - 1, 1, -beta, -alpha)
                } else {
                    s
                }
            };
            b.undo();
            if self.stopped {
                break;
            }
            // Reorder: the best so far first, the rest by score.
            root.set_score(k, score);
            if score > alpha {
                alpha = score;
                best = Some(m);
            }
        }
        if !self.stopped {
            root.sort();
        } else if let Some(bm) = best {
            // Partial: put the new best first, keep the rest.
            let pos = (0..root.len()).find(|&k| root.get(k) == bm).unwrap_or(0);
            root.set_score(pos, i32::MAX);
            root.sort();
        }
        (alpha, best)
    }

    fn check_time(&mut self) {
        // Threat searches add many nodes at once, so test a threshold rather
        // than a multiple.
        if self.nodes >= self.next_check {
            self.next_check = self.nodes + 1024;
            if self.deadline.is_some_and(|d| Instant::now() >= d) || self.nodes >= self.node_limit {
                self.stopped = true;
            }
        }
    }

    /// What every node of the main search and of the horizon's search
    /// does first: count itself, watch the clock, and settle the positions
    /// that need no search (stopped, decided by threats, a full board, the
    /// deepest ply). `None`: search on.
    #[inline]
    fn enter(&mut self, b: &Board, ply: usize) -> Option<i32> {
        self.nodes += 1;
        self.check_time();
        if self.stopped {
            return Some(0);
        }
        if let Some(s) = self.decided(b, ply) {
            return Some(s);
        }
        if b.empty_count() == 0 {
            return Some(0);
        }
        if ply >= MAX_PLY - 1 {
            return Some(evaluate(b, &self.options.weights));
        }
        None
    }

    fn pvs(&mut self, b: &mut Board, depth: i32, ply: usize, mut alpha: i32, beta: i32) -> i32 {
        if let Some(s) = self.enter(b, ply) {
            return s;
        }
        let key = b.hash();
        let mut tt_move = None;
        if let Some(e) = self.tt.probe(key, ply) {
            tt_move = e.best.map(usize::from);
            if let Some(s) = e.settles(depth, alpha, beta) {
                return s;
            }
        }
        let me = b.to_move();
        let opp_five = b.threat_count(me.opponent(), Threat::Five) > 0;
        if depth <= 0 && !opp_five {
            if self.options.leaf_vcf_nodes > 0
                && b.threat_count(me, Threat::Block4) + b.threat_count(me, Threat::Four3) > 0
            {
                self.vcf.set_limit(self.options.leaf_vcf_nodes);
                let won = self.vcf.wins(b);
                self.nodes += self.vcf.nodes();
                if won {
                    return win_in(ply + 3);
                }
            }
            if self.options.quiet_fours > 0 {
                return self.quiesce(b, ply, alpha, beta, self.options.quiet_fours);
            }
            return evaluate(b, &self.options.weights);
        }
        let opp = me.opponent();
        // Lazily: only the pruning rules below, both off by default, need
        // the static score and the opponent's threats.
        let mut stand = None;
        if self.options.null_move
            && depth >= 3
            && beta.abs() < WIN / 2
            && no_four_to_come(b, opp)
            && b.threat_count(opp, Threat::Three3) == 0
            && *stand.get_or_insert_with(|| evaluate(b, &self.options.weights)) >= beta
        {
            let reduction = 2 + depth / 4;
            b.set_to_move(opp);
            let score = -self.pvs(b, depth - 1 - reduction, ply + 1, -beta, -beta + 1);
            b.set_to_move(me);
            if self.stopped {
                return 0;
            }
            if score >= beta {
                return beta;
            }
        }
        let futile = self.options.futility
            && depth == 1
            && alpha.abs() < WIN / 2
            && no_four_to_come(b, opp)
            && *stand.get_or_insert_with(|| evaluate(b, &self.options.weights)) + FUTILITY_MARGIN
                <= alpha;
        let mut list = std::mem::take(&mut self.lists[ply]);
        let mode = generate(b, &mut list);
        self.order(b, &mut list, me, ply, tt_move);
        if mode == Mode::Free {
            list.truncate(self.options.width);
        }
        // A forced block costs nothing: search it one ply deeper.
        let extend = i32::from(
            list.len() == 1
                || (self.options.three_ext
                    && mode == Mode::Defend
                    && (ply as i32) < 2 * self.iteration),
        );
        let original_alpha = alpha;
        let mut best_score = -WIN - 1;
        let mut best_move = None;
        for k in 0..list.len() {
            let m = list.get(k);
            let quiet =
                b.threat(m, me) < Threat::Flex3 && b.threat(m, me.opponent()) < Threat::Flex3;
            if futile && quiet && k > 0 {
                continue;
            }
            b.play_unchecked(m);
            let new_depth = depth - 1 + extend;
            let score = if k == 0 {
                -self.pvs(b, new_depth, ply + 1, -beta, -alpha)
            } else {
                let reduce = if self.options.lmr && quiet && k >= 3 && depth >= 3 {
                    1 + i32::from(k >= 8)
                } else {
                    0
                };
                let mut s = -self.pvs(b, new_depth - reduce, ply + 1, -alpha - 1, -alpha);
                if s > alpha && reduce > 0 && !self.stopped {
                    s = -self.pvs(b, new_depth, ply + 1, -alpha - 1, -alpha);
                }
                if s > alpha && s < beta && !self.stopped {
                    s = -self.pvs(b, new_depth, ply + 1, -beta, -alpha);
                }
                s
            };
            b.undo();
            if self.stopped {
                self.lists[ply] = list;
                return 0;
            }
            if score > best_score {
                best_score = score;
                best_move = Some(m);
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        if quiet {
                            let kill = &mut self.killers[ply];
                            if kill[0] != m as u16 {
                                kill[1] = kill[0];
                                kill[0] = m as u16;
                            }
                        }
                        self.history[me.index()][m] += depth * depth;
                        break;
                    }
                }
            }
        }
        self.lists[ply] = list;
        if best_move.is_none() {
            return loss_in(ply);
        }
        let bound = Bound::of(best_score, original_alpha, beta);
        self.tt.store(key, ply, depth, best_score, bound, best_move);
        best_score
    }

    /// What the threats on the board already decide ([`decided`], and
    /// four-threes and three-threes if those options are on).
    #[inline]
    fn decided(&self, b: &Board, ply: usize) -> Option<i32> {
        decided(b, ply)
            .or_else(|| self.options.four_three.then(|| four_three_wins(b, ply))?)
            .or_else(|| self.options.three_three.then(|| three_three_wins(b, ply))?)
    }

    /// The horizon's search: a five to block is blocked; otherwise the side
    /// to move takes the static score or, if it can do better, plays on
    /// with one of its fours (each forces the reply), at most `fours` of
    /// them. Only fours near the side's last stone are tried, and as the
    /// second four only four-threes (a lone four there is most often a
    /// wasted threat), so the threat lines the full-width search cuts off
    /// are followed without the tree growing with every four on the board.
    fn quiesce(&mut self, b: &mut Board, ply: usize, mut alpha: i32, beta: i32, fours: u32) -> i32 {
        if let Some(s) = self.enter(b, ply) {
            return s;
        }
        let me = b.to_move();
        if b.threat_count(me.opponent(), Threat::Five) > 0 {
            // One five point: two would have been decided above.
            let block = b
                .find_threat(me.opponent(), Threat::Five)
                .expect("five point");
            b.play_unchecked(block);
            let score = -self.quiesce(b, ply + 1, -beta, -alpha, fours);
            b.undo();
            return score;
        }
        let stand = evaluate(b, &self.options.weights);
        let played = self.options.quiet_fours - fours;
        if stand >= beta
            || fours == 0
            || b.threat_count(me, Threat::Four3)
                + if played == 1 {
                    0
                } else {
                    b.threat_count(me, Threat::Block4)
                }
                == 0
        {
            return stand;
        }
        // The side's last stone: the second last in the game.
        let Some(&last) = b.history().iter().rev().nth(1) else {
            return stand;
        };
        alpha = alpha.max(stand);
        let mut best = stand;
        let mut moves = [0u16; 64];
        let n = gather_fours(b, me, &mut moves, |i, t| {
            (t == Threat::Four3 || played != 1) && near(b, i, last as usize)
        });
        for &m in &moves[..n] {
            b.play_unchecked(m as usize);
            let score = -self.quiesce(b, ply + 1, -beta, -alpha, fours - 1);
            b.undo();
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    fn order(
        &self,
        b: &Board,
        list: &mut MoveList,
        me: Player,
        ply: usize,
        tt_move: Option<usize>,
    ) {
        let kill = self.killers[ply];
        for k in 0..list.len() {
            let m = list.get(k);
            let base = if self.options.tuned_order {
                tuned_point_score(b, m, me, &self.options.weights)
            } else {
                list.score(k)
            };
            let mut s = base + self.history[me.index()][m].min(10_000) / 16;
            if Some(m) == tt_move {
                s += 1 << 24;
            } else if kill[0] as usize == m {
                s += 1 << 20;
            } else if kill[1] as usize == m {
                s += 1 << 19;
            }
            list.set_score(k, s);
        }
        list.sort();
    }
}

/// True if grid points `a` and `b` are within two king steps, or on one
/// line within four: where a stone can join a threat the other is part of.
fn near(b: &Board, a: usize, c: usize) -> bool {
    let ((ax, ay), (cx, cy)) = (b.xy(a), b.xy(c));
    let (dx, dy) = (ax.abs_diff(cx), ay.abs_diff(cy));
    let far = dx.max(dy);
    far <= 2 || (far <= 4 && (dx == 0 || dy == 0 || dx == dy))
}

/// The ordering score of point `i` by the evaluation's weights: what a
/// stone there makes for us (counted twice) and what it takes from the
/// opponent, in the scale of the hand-set point values.
fn tuned_point_score(b: &Board, i: usize, me: Player, w: &Weights) -> i32 {
    let opp = me.opponent();
    let mut s =
        2 * w.mine_threat[b.threat(i, me) as usize] + w.theirs_threat[b.threat(i, opp) as usize];
    for d in 0..4 {
        s += 2 * w.mine[b.pattern(i, me, d) as usize] + w.theirs[b.pattern(i, opp, d) as usize];
    }
    s / w.scale.max(1)
}

/// If `wins` says the opponent of the side to move would win were it to
/// move now, keeps only the root moves after which `wins` no longer holds
/// for it (all of them if none pass, or if `deadline` passes first).
fn keep_defences(
    b: &mut Board,
    root: &mut MoveList,
    deadline: Option<Instant>,
    mut wins: impl FnMut(&mut Board) -> bool,
) {
    let me = b.to_move();
    b.set_to_move(me.opponent());
    let threatened = wins(b);
    b.set_to_move(me);
    if !threatened {
        return;
    }
    let mut kept = MoveList::default();
    for k in 0..root.len() {
        if deadline.is_some_and(|d| Instant::now() >= d) {
            return;
        }
        let m = root.get(k);
        b.play_unchecked(m);
        let refuted = wins(b);
        b.undo();
        if !refuted {
            kept.push(m, root.score(k));
        }
    }
    if !kept.is_empty() {
        *root = kept;
    }
}
