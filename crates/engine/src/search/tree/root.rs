//! The root of the selective search and its deepening loop, apart from
//! the node search ([`Tree::pvs`], in `tree.rs`): a search lent its
//! request, the moves and wins decided before any tree (a five, the root
//! VCF, one move), the root's moves generated, left out and ordered, the
//! iterations within aspiration windows, the threat search's line
//! confirmed for a won position, and what the watcher is told.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use super::{CONFIRM_NODES, Frame, INFINITE, ONE, Shown, Tree};
use crate::board::Board;
use crate::eval::Evaluator;
use crate::movepick::{self, Answer, MoveList, generate, is_quiet};
use crate::pattern::Threat;
use crate::pos::Pos;
use crate::score::{DECIDED, WIN, is_decided, win_in};
use crate::search::{Found, Limits, MAX_PLY, PV_LIMIT, Progress, Request};
use crate::vcf_solver::Vcf;

impl<E: Evaluator> Tree<E> {
    /// Tells the watcher, if any, how the search stands.
    pub(super) fn report(&mut self, iteration: bool) {
        let Some(watcher) = self.watcher.as_mut() else {
            return;
        };
        let now = Instant::now();
        self.next_report = now.checked_add(self.report_every);
        watcher(&Progress {
            depth: self.shown.depth,
            best: self.shown.best,
            score: self.shown.score,
            pv: &self.shown.pv,
            nodes: self.nodes + self.helper_nodes.load(Ordering::Relaxed),
            elapsed: now.duration_since(self.start),
            iteration,
        });
    }

    /// Remembers `found` as what the watcher is told, and tells it.
    fn show(&mut self, found: &Found) {
        if self.watcher.is_none() {
            return;
        }
        self.shown.depth = found.depth;
        self.shown.best = found.best;
        self.shown.score = found.score;
        self.shown.pv.clear();
        self.shown.pv.extend_from_slice(&found.pv);
        if found.pv.first() != Some(&found.best) {
            self.shown.pv.clear();
            self.shown.pv.push(found.best);
        }
        self.report(true);
    }

    /// Forgets everything learnt (new game).
    pub fn clear(&mut self) {
        if self.helper == 0 {
            // The main search's table, the helpers' too.
            match Arc::get_mut(&mut self.tt) {
                Some(table) => table.clear_owned(),
                None => self.tt.clear(),
            }
        }
        self.history.clear();
        self.stack = [Frame::default(); MAX_PLY + 2];
        if let Some(vct) = self.vct.as_mut() {
            vct.clear();
        }
    }

    /// Finds a move for the side to move as `request` asks (see
    /// [`crate::search::Searcher::search`]). The request's excluded moves,
    /// stop flag and watcher are the tree's for this search only: lent
    /// for it (swapped, so nothing is copied or allocated) and given back.
    pub fn search(&mut self, b: &mut Board, request: &mut Request) -> Found {
        // The evaluation takes up this position: the board may have
        // changed in any way since the last search.
        self.eval.start(b);
        std::mem::swap(&mut self.excluded, &mut request.excluded);
        std::mem::swap(&mut self.watcher, &mut request.watcher);
        self.stop.clone_from(&request.stop);
        self.report_every = request.every;
        let found = self.run(b, request.limits);
        std::mem::swap(&mut self.excluded, &mut request.excluded);
        std::mem::swap(&mut self.watcher, &mut request.watcher);
        self.stop = None;
        found
    }

    /// The search itself, once the request is the tree's.
    fn run(&mut self, b: &mut Board, limits: Limits) -> Found {
        self.start = Instant::now();
        self.deadline = limits.time.map(|t| self.start + t);
        self.node_limit = limits.nodes;
        self.nodes = 0;
        self.told = 0;
        self.next_check = 0;
        self.stopped = self.stop_asked();
        self.next_report = self.start.checked_add(self.report_every);
        self.shown = Shown::default();
        if self.helper == 0 {
            // The main search ages the shared table, once a search.
            self.tt.new_search();
        }
        self.history.age();
        for f in self.stack.iter_mut() {
            f.killers = [None; 2];
        }
        let mut found = Found {
            // Every way out below names a move.
            best: Pos::from_index(0),
            score: 0,
            depth: 0,
            nodes: 0,
            vcf: false,
            elapsed: Duration::ZERO,
            pv: Vec::new(),
        };
        let me = b.to_move();
        if b.threat_count(me, Threat::Five) > 0 {
            // Analysis asks for the other fives too, one by one.
            let five = b
                .empty_points()
                .find(|&i| b.threat(i, me) >= Threat::Five && !self.excluded.contains(&i));
            if let Some(i) = five {
                found.best = i;
                found.score = win_in(1);
                found.vcf = true;
                return self.finish(found);
            }
        }
        if self.params.root_vcf_nodes > 0
            && b.threat_count(me, Threat::Block4) + b.threat_count(me, Threat::Four3) > 0
        {
            let mut solver = Vcf::new(self.params.root_vcf_nodes as u64);
            solver.set_deadline(self.deadline);
            let line = solver.solve(b);
            self.nodes += solver.nodes();
            if let Some(line) = line.filter(|l| !self.excluded.contains(&l[0])) {
                found.best = line[0];
                found.score = win_in(solver.plies());
                found.vcf = true;
                found.pv = line.into_iter().take(PV_LIMIT).collect();
                return self.finish(found);
            }
        }
        if self.params.vct > 0
            && let Some(win) = self.root_vct(b)
        {
            found.best = win.first;
            found.score = win_in(win.plies);
            found.vcf = true;
            found.pv = vec![win.first];
            return self.finish(found);
        }
        // What the threats already decide (an open four against us, a
        // four-three) is the score of any answer that needs no tree: one
        // forced block says "lost", not 0.
        if let Some(settled) = self.outcome(b, 0) {
            found.score = settled;
        }
        let answer = movepick::answer(b, self.params.defends_three_three());
        self.stack[0].answered = answer != Answer::Free;
        let mut root = std::mem::take(&mut self.root);
        generate(b, answer, &mut root);
        if root.is_empty() {
            // Lost whatever we do: block where the opponent wins soonest.
            generate(b, Answer::Free, &mut root);
        }
        if root.is_empty() {
            // Renju's black with only forbidden points left must still
            // play: one of them, which loses.
            if let Some(i) = b.empty_points().next() {
                root.push(i, 0);
            }
        }
        if !self.excluded.is_empty() && root.iter().all(|m| self.excluded.contains(&m)) {
            // Analysis wants more lines than there are sensible moves (a
            // four to block, an empty board's centre): the others, worse
            // as they are, ranked by the search like any move.
            generate(b, Answer::Free, &mut root);
            if root.iter().all(|m| self.excluded.contains(&m)) {
                root.clear();
                let (n, c) = (b.size(), b.size() / 2);
                for i in b.empty_points() {
                    let (x, y) = i.xy();
                    // On an empty board, the points around the centre.
                    let central = x.abs_diff(c).max(y.abs_diff(c)) <= 2 || n <= 5;
                    if (b.stones() > 0 || central) && !b.is_forbidden_to(i, me) {
                        root.push(i, 0);
                    }
                }
            }
        }
        root.leave_out(&self.excluded);
        let tt_move = self.tt.probe(b.hash(), 0).and_then(|h| h.best);
        self.order(b, &mut root, 0, tt_move);
        found.best = root.get(0);
        if root.len() == 1 {
            self.root = root;
            found.pv = vec![found.best];
            return self.finish(found);
        }
        let soft = limits.time.map(|t| t * self.soft_percent.min(100) / 100);
        let mut score = 0;
        for depth in 1..=limits.depth {
            if super::skips(self.helper, depth) && depth < limits.depth {
                continue;
            }
            let (s, best, complete) = self.aspirate(b, &mut root, depth as i32, score);
            if let Some(m) = best {
                found.best = m;
            }
            if !complete {
                break;
            }
            score = s;
            found.score = s;
            found.depth = depth;
            found.pv = self.pv[0][..self.pv_len[0]]
                .iter()
                .flatten()
                .take(PV_LIMIT)
                .map(|m| m.pos())
                .collect();
            self.show(&found);
            if is_decided(s) && (WIN - s.abs()) as u32 <= depth {
                break;
            }
            // A stop asked while an iteration ran ends the search at its
            // end, though the node count has not reached the next check.
            if soft.is_some_and(|s| self.start.elapsed() >= s)
                || self.nodes >= self.node_limit
                || self.stop_asked()
            {
                break;
            }
        }
        if found.pv.first() != Some(&found.best) {
            found.pv = vec![found.best];
        }
        if found.score >= DECIDED && !self.stopped {
            // A won position: where the win is by fours, report the
            // threat search's line, which every defence can be checked
            // against, rather than the table's.
            let mut solver = Vcf::new(CONFIRM_NODES);
            solver.set_deadline(self.deadline);
            if let Some(line) = solver.solve(b).filter(|l| !self.excluded.contains(&l[0])) {
                found.best = line[0];
                found.score = found.score.max(win_in(solver.plies()));
                found.vcf = true;
                found.pv = line.into_iter().take(PV_LIMIT).collect();
            }
            self.nodes += solver.nodes();
        }
        self.root = root;
        self.finish(found)
    }

    /// The root's win by fours and threes (`vct`), within its budget and
    /// a tenth of what is left of the search's, its nodes counted with the tree's;
    /// none when its first move is one the request leaves out.
    fn root_vct(&mut self, b: &mut Board) -> Option<crate::vct::Win> {
        let p = self.params;
        if !crate::vct::threats_enough(b, p.vct_min_threats) {
            return None;
        }
        // A tenth of a node budget at most: a probe that fails must leave
        // the tree its search.
        let left = self.node_limit.saturating_sub(self.nodes);
        let budget = (p.vct_root_nodes as u64).min(left / 10);
        let vct = self.vct.as_mut()?;
        vct.set_deadline(self.deadline);
        let win = vct.probe_root(b, p.vct_threes as usize, budget, p.vct_remember > 0);
        self.nodes += vct.nodes();
        win.filter(|w| !self.excluded.contains(&w.first))
    }

    fn finish(&mut self, mut found: Found) -> Found {
        found.nodes = self.nodes;
        found.elapsed = self.start.elapsed();
        if found.pv.is_empty() {
            found.pv = vec![found.best];
        }
        self.show(&found);
        found
    }

    /// True while the stop flag is set.
    pub(crate) fn stop_asked(&self) -> bool {
        self.stop
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
    }

    /// One iteration within aspiration windows around the last score,
    /// widened on each failure. Returns the score, the best move (kept
    /// from a partial iteration only if it was searched in full and beat
    /// the rest) and whether the iteration completed.
    fn aspirate(
        &mut self,
        b: &mut Board,
        root: &mut MoveList,
        depth: i32,
        last: i32,
    ) -> (i32, Option<Pos>, bool) {
        let mut window = self.params.aspiration;
        let (mut alpha, mut beta) = if depth >= 4 && window > 0 && !is_decided(last) {
            (
                (last - window).max(-INFINITE),
                (last + window).min(INFINITE),
            )
        } else {
            (-INFINITE, INFINITE)
        };
        loop {
            let (score, best) = self.root(b, root, depth * ONE, alpha, beta);
            if self.stopped {
                return (score, best, false);
            }
            if score <= alpha && alpha > -INFINITE {
                beta = (alpha + beta) / 2;
                alpha = (score - window).max(-INFINITE);
            } else if score >= beta && beta < INFINITE {
                beta = (score + window).min(INFINITE);
            } else {
                return (score, best, true);
            }
            window = window.saturating_mul(2);
            if window > self.params.aspiration_max {
                (alpha, beta) = (-INFINITE, INFINITE);
            }
        }
    }

    /// One root iteration; moves are reordered by their scores for the next.
    fn root(
        &mut self,
        b: &mut Board,
        root: &mut MoveList,
        depth: i32,
        mut alpha: i32,
        beta: i32,
    ) -> (i32, Option<Pos>) {
        let mut best_score = -INFINITE;
        let mut best = None;
        self.pv_len[0] = 0;
        self.root_alpha = alpha;
        let me = b.to_move();
        for k in 0..root.len() {
            let m = root.get(k);
            let new_depth = depth - self.cost(b, m, Answer::Free);
            let quiet = is_quiet(b, m);
            self.play(b, m, 0);
            let score = if k == 0 {
                -self.pvs::<true>(b, 1, -beta, -alpha, new_depth, false)
            } else {
                let r = if quiet && k >= 3 && depth >= 3 * ONE {
                    (self.reduction(depth, k) - self.params.lmr_pv).max(0)
                } else {
                    0
                };
                let reduced = (new_depth - r).max(new_depth.min(ONE));
                let mut s = -self.pvs::<false>(b, 1, -alpha - 1, -alpha, reduced, true);
                if s > alpha && reduced < new_depth && !self.stopped {
                    s = -self.pvs::<false>(b, 1, -alpha - 1, -alpha, new_depth, false);
                }
                if s > alpha && s < beta && !self.stopped {
                    s = -self.pvs::<true>(b, 1, -beta, -alpha, new_depth, false);
                }
                s
            };
            self.take_back(b, m);
            if self.stopped {
                break;
            }
            if score > best_score {
                best_score = score;
            }
            if score > alpha {
                alpha = score;
                self.root_alpha = alpha;
                best = Some(m);
                root.set_score(k, INFINITE);
                self.update_pv(0, m);
                if alpha >= beta {
                    self.history.update(me, m, self.bonus(depth));
                    break;
                }
            } else {
                // Keep the order of the moves that fell short.
                root.set_score(k, -INFINITE - k as i32);
            }
        }
        if let Some(m) = best {
            // The best first, the rest as they were.
            for k in 0..root.len() {
                let s = if root.get(k) == m {
                    INFINITE
                } else {
                    -INFINITE - k as i32
                };
                root.set_score(k, s);
            }
            root.sort();
        }
        (best_score, best)
    }
}

#[cfg(test)]
mod tests {
    use inarow_core::Rule;

    use super::*;
    use crate::analysis::position;
    use crate::eval::Evaluation;
    use crate::search::Options;

    fn tree() -> Tree<Evaluation> {
        let options = Options::default();
        Tree::new(options, options.eval.evaluation())
    }

    #[test]
    fn a_five_is_played_before_any_tree_and_a_left_out_one_gives_way() {
        // Black 4..7 on row 7, both ends empty; black to move.
        let stones = crate::analysis::OPEN_FOUR;
        let mut b = position(15, Rule::Freestyle, &stones).unwrap();
        let mut t = tree();
        let mut request = Request::new(Limits::depth(8));
        let five = t.search(&mut b, &mut request);
        assert!(five.vcf && five.depth == 0, "{five:?}");
        assert_eq!(five.score, win_in(1));
        assert!([(3, 7), (8, 7)].contains(&five.best.xy()), "{five:?}");
        // Left out, the other five is the answer, as the analysis asks.
        request.excluded.push(five.best);
        let other = t.search(&mut b, &mut request);
        assert_eq!(other.score, win_in(1));
        assert_ne!(other.best, five.best);
        assert!([(3, 7), (8, 7)].contains(&other.best.xy()), "{other:?}");
        assert_eq!(request.excluded, vec![five.best], "the request comes back");
    }

    #[test]
    fn with_vct_a_win_by_threes_is_proven_before_any_tree() {
        // Black (to move): open twos on row 7 and column 9 that cross at
        // (9,7), white far away: a three-three wins, by no four.
        let stones = [
            (7, 7),
            (0, 0),
            (8, 7),
            (14, 14),
            (9, 5),
            (0, 14),
            (9, 6),
            (14, 0),
        ];
        let mut b = position(15, Rule::Freestyle, &stones).unwrap();
        let with = |vct| {
            let options = Options {
                params: crate::search::Params {
                    vct,
                    ..Default::default()
                },
                ..Options::default()
            };
            Tree::new(options, options.eval.evaluation())
        };
        let mut request = Request::new(Limits::depth(8));
        let off = with(0).search(&mut b, &mut request);
        assert!(off.depth > 0, "the tree finds it: {off:?}");
        let mut t = with(1);
        let on = t.search(&mut b, &mut request);
        assert!(on.vcf && on.depth == 0, "{on:?}");
        assert!(on.score >= win_in(15), "{on:?}");
        // Its first move left out, the VCT's claim gives way to the tree.
        request.excluded.push(on.best);
        let other = t.search(&mut b, &mut request);
        assert_ne!(other.best, on.best);
        assert!(other.depth > 0 || !other.vcf, "{other:?}");
    }

    #[test]
    fn the_one_defence_is_played_without_a_tree() {
        // Black's four (7..10, 7) is closed on the left: white must take (11, 7).
        let stones = [(7, 7), (6, 7), (8, 7), (8, 8), (9, 7), (10, 10), (10, 7)];
        let mut b = position(15, Rule::Freestyle, &stones).unwrap();
        let found = tree().search(&mut b, &mut Request::new(Limits::depth(8)));
        assert_eq!(found.best.xy(), (11, 7), "{found:?}");
        assert_eq!((found.depth, found.vcf), (0, false), "{found:?}");
        assert_eq!(found.pv, vec![found.best]);
    }

    #[test]
    fn each_depth_completes_with_its_best_move_first_at_the_root() {
        // A recorded opening, white to move, nothing forced.
        let stones = [(7, 7), (8, 8), (8, 6), (6, 8), (9, 7)];
        let mut b = position(15, Rule::Freestyle, &stones).unwrap();
        let before = b.hash();
        for depth in 1..=5 {
            let mut t = tree();
            let found = t.search(&mut b, &mut Request::new(Limits::depth(depth)));
            assert_eq!(found.depth, depth, "{found:?}");
            assert_eq!(t.root.get(0), found.best, "depth {depth}");
            assert_eq!(found.pv.first(), Some(&found.best));
            assert!(found.pv.len() <= PV_LIMIT);
            assert!(!is_decided(found.score), "{found:?}");
            assert_eq!(b.hash(), before, "the board is unchanged");
        }
    }
}
