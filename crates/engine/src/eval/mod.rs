//! Static evaluation: what a position is worth to the side to move, and
//! the outcomes its threats already decide.
//!
//! Every evaluation is an [`Evaluator`]: it plays and takes back stones on
//! the board and keeps whatever sums it reads as they change, following
//! the board's own pass over the points a stone changes
//! ([`crate::board::Watch`]); the board keeps only the position and its
//! line patterns. Three kinds, chosen by [`Eval`]:
//!
//! * the pattern evaluation ([`Weights`], [`PatternEval`]): weights over
//!   the pattern counts it keeps and the threat counts the board keeps
//!   anyway, hand-set or fitted;
//! * the learned evaluation ([`learned`], the default): per-point values
//!   by shape for the side to move and the opponent, and a threat-mask
//!   table, fitted to games;
//! * evaluation by fine tables ([`fine_eval`], over the fine patterns and
//!   codes of [`fine`], tables in [`fine_tables`]): Rapfi's classical
//!   shape, a published model or tables fitted here (evaluation v3).
//!
//! Fitting them to games is [`crate::learn`]'s.

pub mod fine;
pub mod fine_eval;
pub mod fine_tables;
pub mod learned;
mod weights;

use inarow_core::{Player, Rule};

use crate::board::Board;
use crate::pattern::Threat;
use crate::pos::Pos;
use crate::score::{loss_in, win_in};
use fine_eval::FineEval;
use fine_tables::FineTables;
use learned::{Learned, LearnedEval};

pub use weights::{MOVER_WEIGHT, PatternEval, Weights, evaluate};

/// A static evaluation at work on one board: it plays and takes back the
/// stones, keeping what it reads up to date, and scores the position for
/// the side to move. The search owns one per line of play (a thread's),
/// and starts it on each root ([`Evaluator::start`]).
pub trait Evaluator {
    /// Takes up the position on `b`: everything it keeps counted from the
    /// stones (the board is as it was afterwards). Any stones played on
    /// the board without the evaluator since it last followed it (and not
    /// taken back) are seen only now.
    fn start(&mut self, b: &mut Board);
    /// The static score of the position for the side to move.
    fn evaluate(&self, b: &Board) -> i32;
    /// Places a stone of the side to move on empty point `p` and passes
    /// the turn ([`Board::play_unchecked`]), keeping its sums.
    fn play(&mut self, b: &mut Board, p: Pos);
    /// Takes back the last stone played ([`Board::undo`]). Taken back
    /// above the position it was started on, an evaluation that reads the
    /// ply before (fine tables) no longer knows it: start it again there.
    fn undo(&mut self, b: &mut Board);
    /// Passes the turn without a stone (a null move).
    #[inline]
    fn pass(&mut self, b: &mut Board) {
        b.pass();
    }
    /// Takes back a [`Evaluator::pass`].
    #[inline]
    fn unpass(&mut self, b: &mut Board) {
        b.unpass();
    }
    /// The evaluation's own move-ordering score for `colour` to play empty
    /// point `p`, where it has fitted ones (fine tables).
    #[inline]
    fn move_score(&self, _b: &Board, _p: Pos, _colour: Player) -> Option<i32> {
        None
    }
    /// The learned tables' values of empty point `p` for `colour`: `[as
    /// the side to move, as the opponent]` (the embedded tables', unless
    /// the evaluation is by other learned tables).
    #[inline]
    fn point_values(&self, b: &Board, p: Pos, colour: Player) -> [i32; 2] {
        Learned::embedded().point_values(b, p, colour)
    }
}

/// Which evaluation a search uses: the pattern evaluation with its
/// weights, learned tables, or fine tables. A choice, as the search's
/// options hold it; [`Eval::evaluation`] makes the evaluator that keeps
/// its sums.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Eval {
    /// Weighted pattern and threat counts.
    Pattern(Weights),
    /// Per-point shape values and the threat mask, fitted to games.
    Learned(&'static Learned),
    /// Fine point codes' values by colour, the two-ply mean and the
    /// eleven-bit threat mask (a published classical model, or tables of
    /// that shape), with the multipliers to the engine's units by rule.
    Fine(&'static FineTables, [i32; 3]),
}

impl Eval {
    /// The evaluation by fine tables, with their units' multipliers.
    pub fn fine(tables: &'static FineTables) -> Eval {
        Eval::Fine(tables, Rule::ALL.map(|r| tables.to_engine_units(r)))
    }

    /// The logistic scale, per score unit, of this evaluation under
    /// `rule`: a score `s` predicts the side to move scores `1 / (1 +
    /// e^(-k * s))` ([`crate::score::win_rate`]). The learned tables carry
    /// the scale they were fitted with (`inarow eval fit`); fine tables are
    /// converted to the embedded learned tables' units
    /// ([`FineTables::to_engine_units`]), and the pattern evaluation's units
    /// are those the learned tables were fitted in, so both take the
    /// embedded tables' scale.
    pub fn logistic_scale(&self, rule: Rule) -> f64 {
        match self {
            Eval::Learned(tables) => tables.scale(rule),
            Eval::Fine(..) | Eval::Pattern(_) => Learned::embedded().scale(rule),
        }
    }

    /// The evaluator of this choice, to be started on a board.
    pub fn evaluation(&self) -> Evaluation {
        match *self {
            Eval::Pattern(w) => Evaluation::Pattern(PatternEval::new(w)),
            Eval::Learned(tables) => Evaluation::Learned(LearnedEval::new(tables)),
            Eval::Fine(tables, units) => Evaluation::Fine(Box::new(FineEval::new(tables, units))),
        }
    }

    /// The static score of the position on `b` for the side to move, by
    /// an evaluator started there: for tools that score positions one by
    /// one (a search keeps one evaluator and follows its moves).
    pub fn score(&self, b: &mut Board) -> i32 {
        let mut e = self.evaluation();
        e.start(b);
        e.evaluate(b)
    }
}

/// The evaluator of an [`Eval`]: one of the three kinds, chosen once per
/// call (the board's pass over the changed points is each kind's own).
#[derive(Clone, Debug)]
pub enum Evaluation {
    /// The pattern evaluation and its pattern counts.
    Pattern(PatternEval),
    /// The learned evaluation and its shape sums.
    Learned(LearnedEval),
    /// Evaluation by fine tables and everything it keeps.
    Fine(Box<FineEval>),
}

impl Evaluator for Evaluation {
    #[inline]
    fn start(&mut self, b: &mut Board) {
        match self {
            Evaluation::Pattern(e) => e.start(b),
            Evaluation::Learned(e) => e.start(b),
            Evaluation::Fine(e) => e.start(b),
        }
    }

    #[inline]
    fn evaluate(&self, b: &Board) -> i32 {
        match self {
            Evaluation::Pattern(e) => e.evaluate(b),
            Evaluation::Learned(e) => e.evaluate(b),
            Evaluation::Fine(e) => e.evaluate(b),
        }
    }

    #[inline]
    fn play(&mut self, b: &mut Board, p: Pos) {
        match self {
            Evaluation::Pattern(e) => e.play(b, p),
            Evaluation::Learned(e) => e.play(b, p),
            Evaluation::Fine(e) => e.play(b, p),
        }
    }

    #[inline]
    fn undo(&mut self, b: &mut Board) {
        match self {
            Evaluation::Pattern(e) => e.undo(b),
            Evaluation::Learned(e) => e.undo(b),
            Evaluation::Fine(e) => e.undo(b),
        }
    }

    #[inline]
    fn pass(&mut self, b: &mut Board) {
        match self {
            Evaluation::Fine(e) => e.pass(b),
            _ => b.pass(),
        }
    }

    #[inline]
    fn unpass(&mut self, b: &mut Board) {
        match self {
            Evaluation::Fine(e) => e.unpass(b),
            _ => b.unpass(),
        }
    }

    #[inline]
    fn move_score(&self, b: &Board, p: Pos, colour: Player) -> Option<i32> {
        match self {
            Evaluation::Fine(e) => e.move_score(b, p, colour),
            _ => None,
        }
    }

    #[inline]
    fn point_values(&self, b: &Board, p: Pos, colour: Player) -> [i32; 2] {
        match self {
            Evaluation::Learned(e) => e.point_values(b, p, colour),
            _ => Learned::embedded().point_values(b, p, colour),
        }
    }
}

/// Outcomes decided by the threats already on the board, from the side to
/// move, at `ply` from the root: a five to complete, two fives to stop, or a
/// flex four against no five.
#[inline]
pub fn decided(b: &Board, ply: usize) -> Option<i32> {
    let me = b.to_move();
    let opp = me.opponent();
    if b.threat_count(me, Threat::Five) > 0 {
        return Some(win_in(ply + 1));
    }
    let their_fives = b.threat_count(opp, Threat::Five);
    if their_fives >= 2 {
        return Some(loss_in(ply + 2));
    }
    if their_fives == 0 && b.has_threat(me, Threat::Flex4) {
        return Some(win_in(ply + 3));
    }
    None
}

/// A four-three that wins whatever the opponent does, from the side to
/// move at `ply`: when the opponent has no four to make, the block of our
/// four makes none either, and it cannot break the three (the two lines
/// meet only at the new stone), so the three becomes a flex four. Call it
/// where [`decided`] found nothing.
#[inline]
pub fn four_three_wins(b: &Board, ply: usize) -> Option<i32> {
    unanswered_fork(b, ply, Threat::Four3)
}

/// A three-three that wins whatever the opponent does, from the side to
/// move at `ply`: when the opponent has no four to make, no reply makes
/// one, and one stone cannot stop both threes (their lines meet only at
/// the new stone), so the other three becomes a flex four. Call it where
/// [`decided`] found nothing.
#[inline]
pub fn three_three_wins(b: &Board, ply: usize) -> Option<i32> {
    unanswered_fork(b, ply, Threat::Three3)
}

/// A win in five plies if the side to move has a `fork` point and the
/// opponent has no four (or better) to make.
#[inline]
fn unanswered_fork(b: &Board, ply: usize, fork: Threat) -> Option<i32> {
    let me = b.to_move();
    // Renju's black may find the flex four's point forbidden later: its
    // forks are left to the search.
    if me == Player::X && b.rule() == Rule::Renju {
        return None;
    }
    let wins = b.threat_count(me, fork) > 0 && no_four_to_come(b, me.opponent());
    wins.then(|| win_in(ply + 5))
}

/// True if `colour` has no five, flex four, four-three or four to make:
/// no forcing reply of its own can answer a fork, or be missed by a
/// pruning rule.
#[inline]
pub fn no_four_to_come(b: &Board, colour: Player) -> bool {
    Threat::FOURS
        .iter()
        .all(|&t| b.threat_count(colour, t) == 0)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// `count` seeded random positions under `rules` in turn, each of
    /// fewer than `most` stones, none of them won.
    pub(crate) fn random_boards(
        rules: &[Rule],
        seed: u64,
        count: usize,
        most: usize,
    ) -> Vec<Board> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut out = Vec::new();
        for k in 0..count {
            let mut b = Board::with_rule(15, rules[k % rules.len()]).unwrap();
            for _ in 0..rng.random_range(1..most) {
                let (x, y) = (rng.random_range(0..15), rng.random_range(0..15));
                if b.play(Pos::at(x, y)).is_ok() && b.last_move_won() {
                    b.undo();
                }
            }
            out.push(b);
        }
        out
    }

    /// Plays random crowded games and, wherever `rule_says` calls the
    /// position won, plays every `fork` point and every reply to it and
    /// checks that the mover then has a five to make or a flex four
    /// against no five. Returns how many positions were checked.
    fn forks_win_against_every_reply(
        seed: u64,
        fork: Threat,
        rule_says: fn(&Board, usize) -> Option<i32>,
    ) -> usize {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut checked = 0;
        for game in 0..4000 {
            let rule = if game % 2 == 0 {
                Rule::Freestyle
            } else {
                Rule::Exact
            };
            let mut b = Board::with_rule(15, rule).unwrap();
            // Crowded play in the middle makes forks common.
            for _ in 0..rng.random_range(8..30) {
                let (x, y) = (rng.random_range(4..11), rng.random_range(4..11));
                if b.play(Pos::at(x, y)).is_ok() && b.last_move_won() {
                    b.undo();
                }
            }
            if decided(&b, 0).is_some() || rule_says(&b, 0).is_none() {
                continue;
            }
            checked += 1;
            let me = b.to_move();
            let forks: Vec<Pos> = b
                .empty_points()
                .filter(|&i| b.threat(i, me) == fork)
                .collect();
            assert!(!forks.is_empty());
            for p in forks {
                b.play_unchecked(p);
                let replies: Vec<Pos> = b.empty_points().collect();
                for q in replies {
                    b.play_unchecked(q);
                    // Our move again: a five to make, or a flex four against no five.
                    let won = decided(&b, 0).is_some_and(|s| s > 0);
                    assert!(
                        won && !b.last_move_won(),
                        "{rule:?} {fork:?} {p:?} reply {q:?}: {b:?}"
                    );
                    b.undo();
                }
                b.undo();
            }
        }
        checked
    }

    #[test]
    fn a_four_three_against_no_four_wins_against_every_reply() {
        let checked = forks_win_against_every_reply(43, Threat::Four3, four_three_wins);
        assert!(checked >= 20, "only {checked} positions had a four-three");
    }

    #[test]
    fn a_three_three_against_no_four_wins_against_every_reply() {
        let checked = forks_win_against_every_reply(47, Threat::Three3, three_three_wins);
        assert!(checked >= 20, "only {checked} positions had a three-three");
    }
}
