//! The leaf search: past the main search's horizon the side to move takes
//! its static score or plays on with its fours, each forcing the block, as
//! far as [`Params::vcf_fours`](super::Params) fours in a row (after
//! [`Params::vcf_near`](super::Params) of them only fours near the last
//! one). A five to block is blocked first. So a victory by continuous fours
//! that the pruning above cut off is still found, and its result goes to
//! the transposition table the main search reads.

use crate::board::Board;
use crate::eval::Evaluator;
use crate::movepick;
use crate::pattern::Threat;
use crate::pos::Pos;
use crate::tt::Bound;
use crate::vcf_solver::gather_fours;

use super::tree::Tree;

impl<E: Evaluator> Tree<E> {
    /// The leaf search of a node `ply` plies from the root, after `fours`
    /// fours of the side to move's in this leaf line.
    pub(crate) fn vcf<const PV: bool>(
        &mut self,
        b: &mut Board,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        fours: i32,
    ) -> i32 {
        if PV {
            self.pv_len[ply] = ply;
        }
        if let Some(s) = self.enter(b, ply) {
            return s;
        }
        let me = b.to_move();
        let opp = me.opponent();
        if b.threat_count(opp, Threat::Five) > 0 {
            // One five point (two were decided above): the block is forced.
            let f = b.find_threat(opp, Threat::Five).expect("a counted five");
            if b.is_forbidden_to(f, me) {
                // Renju's black cannot block: the five comes next.
                return crate::score::loss_in(ply + 2);
            }
            self.play(b, f, ply);
            let s = -self.vcf::<PV>(b, ply + 1, -beta, -alpha, fours);
            self.take_back(b, f);
            if PV && !self.stopped {
                self.update_pv(ply, f);
            }
            return s;
        }
        let key = b.hash();
        let hit = self.tt.probe(key, ply);
        if !PV && let Some(s) = hit.and_then(|h| h.settles(0, alpha, beta)) {
            return s;
        }
        let stand = hit.map_or_else(|| self.eval.evaluate(b), |h| h.eval);
        let p = self.params;
        if stand >= beta
            || fours >= p.vcf_fours
            || b.threat_count(me, Threat::Block4) + b.threat_count(me, Threat::Four3) == 0
        {
            return stand;
        }
        let original_alpha = alpha;
        alpha = alpha.max(stand);
        let mut best = stand;
        let mut best_move = None;
        // The side's last stone: the second last in the game.
        let last = b.history().iter().rev().nth(1).copied();
        let mut moves = [Pos::from_index(0); 64];
        // Plain fours only in the line's first `vcf_plain` (0: always).
        let plain = p.vcf_plain == 0 || fours < p.vcf_plain;
        let n = gather_fours(b, me, &mut moves, |i, _| {
            (fours < p.vcf_near || last.is_none_or(|l| near(i, l)))
                && (plain || movepick::class(b, i, me) != movepick::class::BLOCK4)
        });
        for &m in &moves[..n] {
            self.play(b, m, ply);
            let s = -self.vcf::<PV>(b, ply + 1, -beta, -alpha, fours + 1);
            self.take_back(b, m);
            if self.stopped {
                return 0;
            }
            if s > best {
                best = s;
                if s > alpha {
                    alpha = s;
                    best_move = Some(m);
                    if PV {
                        self.update_pv(ply, m);
                    }
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        let bound = Bound::of(best, original_alpha, beta);
        self.tt
            .store(key, ply, 0, best, stand, bound, PV, best_move);
        best
    }
}

/// True if points `a` and `c` are within two king steps, or on one line
/// within four: where a stone can join a threat the other is part of.
fn near(a: Pos, c: Pos) -> bool {
    let ((ax, ay), (cx, cy)) = (a.xy(), c.xy());
    let (dx, dy) = (ax.abs_diff(cx), ay.abs_diff(cy));
    let far = dx.max(dy);
    far <= 2 || (far <= 4 && (dx == 0 || dy == 0 || dx == dy))
}
