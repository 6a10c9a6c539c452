//! The pattern evaluation: a weighted sum of pattern and threat counts.
//!
//! For each colour, how many (empty point, direction) pairs show each line
//! pattern (kept by the evaluator, [`PatternEval`], as stones come and go)
//! and how many empty points make each threat (the board's counts; see
//! [`crate::pattern`]). The evaluation is a weighted sum of those counts, with separate weights for the side to move (who gets to use a
//! threat first) and for the opponent. The hand-set weights are the
//! pattern values of [`crate::pattern::line_value`] and the fork bonuses,
//! the mover's counted 1.2 times; the tuned weights were fitted to the
//! results of self-play games (`examples/tune.rs`, docs/engine.md).

use inarow_core::Player;

use crate::board::{Board, Watch};
use crate::eval::Evaluator;
use crate::eval::learned::{MASKS, Tables};
use crate::pattern::{self, PATTERNS, Pattern, SHAPES, THREATS, Threat};
use crate::pos::Pos;
use crate::score::WIN;

/// Weight of the side to move's sum, in tenths (the hand-set default).
pub const MOVER_WEIGHT: i32 = 12;

/// The evaluation's weights: one per line pattern and one per threat, for
/// the side to move and for the opponent; the sum is divided by `scale`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Per line pattern (by [`Pattern`] number), the side to move's.
    pub mine: [i32; PATTERNS],
    /// Per threat (by [`Threat`] number), the side to move's.
    pub mine_threat: [i32; THREATS],
    /// Per line pattern, the opponent's.
    pub theirs: [i32; PATTERNS],
    /// Per threat, the opponent's.
    pub theirs_threat: [i32; THREATS],
    /// Divisor of the weighted sum.
    pub scale: i32,
}

impl Weights {
    /// The hand-set weights: line values and fork bonuses, the side to
    /// move's counted `mover_weight` tenths.
    pub fn hand_set(mover_weight: i32) -> Weights {
        let line = Pattern::ALL.map(pattern::line_value);
        let fork = Threat::ALL.map(pattern::fork_bonus);
        Weights {
            mine: line.map(|v| v * mover_weight),
            mine_threat: fork.map(|v| v * mover_weight),
            theirs: line.map(|v| v * 10),
            theirs_threat: fork.map(|v| v * 10),
            scale: 10,
        }
    }

    /// The weights fitted to self-play results (see `examples/tune.rs`).
    pub const TUNED: Weights = Weights {
        mine: [21, 8, 58, 90, 251, 554, 909, 1440, 4800],
        mine_threat: [-7, 44, 70, 1241, 322, 3204, 3600, 0],
        theirs: [21, 6, 60, 74, 198, 432, 742, 732, 4000],
        theirs_threat: [-7, 49, 58, 805, 293, 2469, 2502, 0],
        scale: 10,
    };

    /// The tables that evaluate exactly as the pattern evaluation with
    /// these weights do when its `scale` is 1 (otherwise each point's value is
    /// rounded): a point's value is its four patterns' weights plus its
    /// threat's, so the pattern evaluation is one case of this one. The
    /// first fit started from here.
    pub fn tables(&self) -> Tables {
        let w = self;
        // The sum's divisor, taken into every point's value.
        let scale = w.scale.max(1) as f64;
        let value = |pats: &[i32; PATTERNS], threats: &[i32], shape: u16| {
            let p = pattern::shape_patterns(shape);
            let sum: i32 = p.iter().map(|&q| pats[q as usize]).sum::<i32>()
                + threats[pattern::threat_of(p) as usize];
            (sum as f64 / scale)
                .round()
                .clamp(i16::MIN as f64, i16::MAX as f64) as i16
        };
        Tables {
            mine: (0..SHAPES as u16)
                .map(|s| value(&w.mine, &w.mine_threat, s))
                .collect(),
            theirs: (0..SHAPES as u16)
                .map(|s| value(&w.theirs, &w.theirs_threat, s))
                .collect(),
            threat: vec![0; MASKS],
        }
    }
}

/// The features the weights apply to, for `colour`: its pattern counts
/// (`pats`, the colour's), then its threat counts.
#[inline]
fn dot(
    b: &Board,
    colour: Player,
    pats: &[i32; PATTERNS],
    counts: &[i32; PATTERNS],
    threats: &[i32; THREATS],
) -> i64 {
    let mut s = 0i64;
    for (&w, &n) in pats.iter().zip(counts) {
        s += i64::from(w) * i64::from(n);
    }
    for (k, &w) in threats.iter().enumerate() {
        s += i64::from(w) * i64::from(b.threat_count(colour, Threat::ALL[k]));
    }
    s
}

/// The static score for the side to move, the pattern counts given.
#[inline]
fn score(b: &Board, w: &Weights, counts: &[[i32; PATTERNS]; 2]) -> i32 {
    let me = b.to_move();
    let opp = me.opponent();
    let sum = dot(b, me, &w.mine, &counts[me.index()], &w.mine_threat)
        - dot(b, opp, &w.theirs, &counts[opp.index()], &w.theirs_threat);
    // Floor division keeps the hand-set weights exactly the old
    // `mine * 1.2 (rounded down) - theirs`.
    let s = sum.div_euclid(i64::from(w.scale.max(1)));
    s.clamp(i64::from(-WIN / 2), i64::from(WIN / 2)) as i32
}

/// The static score of the position for the side to move, the pattern
/// counts counted over the board (for positions scored one by one; a
/// search keeps them in a [`PatternEval`]).
#[inline]
pub fn evaluate(b: &Board, w: &Weights) -> i32 {
    score(b, w, &b.pattern_counts())
}

/// Colour `c`'s pattern along each line in combination index `combo`
/// ([`pattern::combo_index`]).
#[inline]
fn patterns_of(combo: u16) -> [usize; 4] {
    let c = usize::from(combo);
    [
        c % PATTERNS,
        c / PATTERNS % PATTERNS,
        c / (PATTERNS * PATTERNS) % PATTERNS,
        c / (PATTERNS * PATTERNS * PATTERNS),
    ]
}

/// The pattern evaluation at work on one board: its weights and, per
/// colour, the pattern counts, kept as stones come and go in the board's
/// own pass ([`Watch`]), which keeps no pattern counts of its own (the
/// other evaluations read none: issue 55).
#[derive(Clone, Debug)]
pub struct PatternEval {
    weights: Weights,
    counts: [[i32; PATTERNS]; 2],
}

impl PatternEval {
    /// The evaluation by `weights`, to be started on a board.
    pub fn new(weights: Weights) -> PatternEval {
        PatternEval {
            weights,
            counts: [[0; PATTERNS]; 2],
        }
    }

    /// Its weights.
    pub fn weights(&self) -> Weights {
        self.weights
    }

    /// Adds (`sign` 1) or removes (-1) the patterns of a point of these
    /// combinations, both colours'.
    #[inline]
    fn add(&mut self, combos: [u16; 2], sign: i32) {
        for (counts, combo) in self.counts.iter_mut().zip(combos) {
            for p in patterns_of(combo) {
                counts[p] += sign;
            }
        }
    }
}

impl Watch for PatternEval {
    type Moved = [[i32; PATTERNS]; 2];

    #[inline]
    fn filled(&mut self, _: usize, combos: [u16; 2]) {
        self.add(combos, -1);
    }

    #[inline]
    fn emptied(&mut self, _: usize, _: [u32; 4], combos: [u16; 2]) {
        self.add(combos, 1);
    }

    #[inline]
    fn line(&mut self, _: usize, _: usize, _: u32, _: &mut Self::Moved) {}

    #[inline]
    fn shape(&self, c: usize, before: u16, after: u16, moved: &mut Self::Moved) {
        for (was, is) in patterns_of(before).into_iter().zip(patterns_of(after)) {
            if was != is {
                moved[c][was] -= 1;
                moved[c][is] += 1;
            }
        }
    }

    #[inline]
    fn land(&mut self, moved: Self::Moved) {
        for (counts, moved) in self.counts.iter_mut().zip(moved) {
            for (n, m) in counts.iter_mut().zip(moved) {
                *n += m;
            }
        }
    }
}

impl Evaluator for PatternEval {
    fn start(&mut self, b: &mut Board) {
        self.counts = b.pattern_counts();
    }

    #[inline]
    fn evaluate(&self, b: &Board) -> i32 {
        score(b, &self.weights, &self.counts)
    }

    #[inline]
    fn play(&mut self, b: &mut Board, p: Pos) {
        b.play_watched(p, self);
    }

    #[inline]
    fn undo(&mut self, b: &mut Board) {
        b.undo_watched(self);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::learned::{Learned, LearnedEval};
    use crate::eval::tests::random_boards;
    use inarow_core::Rule;

    /// Random freestyle positions of up to 40 stones, none of them won.
    fn positions() -> Vec<Board> {
        random_boards(&[Rule::Freestyle], 17, 60, 40)
    }

    #[test]
    fn hand_set_weights_are_the_weighted_point_values() {
        for b in positions() {
            let me = b.to_move();
            for mover in [10, 12, 15] {
                let by_values =
                    (b.value(me) * mover / 10 - b.value(me.opponent())).clamp(-WIN / 2, WIN / 2);
                assert_eq!(evaluate(&b, &Weights::hand_set(mover)), by_values, "{b:?}");
            }
        }
    }

    #[test]
    fn tuned_weights_value_threats_above_shapes() {
        let w = Weights::TUNED;
        for side in [w.mine, w.theirs] {
            let shapes = [Pattern::Flex2, Pattern::Flex3, Pattern::Block4];
            assert!(
                shapes
                    .windows(2)
                    .all(|p| side[p[0] as usize] < side[p[1] as usize])
            );
        }
        // An opponent's four-three point is worth more than any shape of ours.
        assert!(w.theirs_threat[Threat::Four3 as usize] > w.mine[Pattern::Flex3 as usize]);
        // The position only moves when stones do: the empty board is even
        // apart from the mover's edge.
        let b = Board::new(15).unwrap();
        assert!(evaluate(&b, &w).abs() < 200);
    }

    /// The tuned weights with their scale taken into the numbers, so that
    /// the pattern evaluation is exact in whole units.
    fn whole(w: Weights) -> Weights {
        Weights { scale: 1, ..w }
    }

    #[test]
    fn the_evaluator_keeps_the_pattern_counts_move_by_move() {
        let w = Weights::TUNED;
        let mut e = PatternEval::new(w);
        for mut b in random_boards(&[Rule::Freestyle, Rule::Exact, Rule::Renju], 11, 60, 50) {
            e.start(&mut b);
            // Play on and take back through the evaluator: each step's
            // counts are those counted over the board.
            let moves: Vec<Pos> = b.empty_points().step_by(7).take(12).collect();
            for &p in &moves {
                e.play(&mut b, p);
                assert_eq!(e.counts, b.pattern_counts(), "{b:?}");
                assert_eq!(e.evaluate(&b), evaluate(&b, &w));
            }
            for _ in &moves {
                e.undo(&mut b);
                assert_eq!(e.counts, b.pattern_counts(), "{b:?}");
            }
            // Every stone back, those it did not follow in too.
            while !b.history().is_empty() {
                e.undo(&mut b);
            }
            assert_eq!(e.counts, b.pattern_counts());
        }
    }

    #[test]
    fn the_pattern_evaluation_is_one_case() {
        let w = whole(Weights::TUNED);
        let t = w.tables();
        let learned: &'static Learned =
            Box::leak(Box::new(Learned::new([t.clone(), t.clone(), t], [0.01; 3])));
        let mut e = LearnedEval::new(learned);
        for mut b in random_boards(&[Rule::Freestyle, Rule::Exact], 5, 80, 50) {
            e.start(&mut b);
            assert_eq!(e.evaluate(&b), evaluate(&b, &w), "{b:?}");
        }
    }
}
