//! The pattern evaluation: a weighted sum of the counts the board keeps.
//!
//! The board keeps, for each colour, how many (empty point, direction)
//! pairs show each line pattern and how many empty points make each threat
//! (see [`crate::pattern`]). The evaluation is a weighted sum of those
//! counts, with separate weights for the side to move (who gets to use a
//! threat first) and for the opponent. The hand-set weights are the
//! pattern values of [`crate::pattern::line_value`] and the fork bonuses,
//! the mover's counted 1.2 times; the tuned weights were fitted to the
//! results of self-play games (`examples/tune.rs`, docs/engine.md).

use inarow_core::Player;

use crate::board::Board;
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

/// The features the weights apply to, for `colour`: its pattern counts,
/// then its threat counts.
#[inline]
fn dot(b: &Board, colour: Player, pats: &[i32; PATTERNS], threats: &[i32; THREATS]) -> i64 {
    let mut s = 0i64;
    for (k, &w) in pats.iter().enumerate() {
        s += i64::from(w) * i64::from(b.pattern_count(colour, Pattern::from_index(k)));
    }
    for (k, &w) in threats.iter().enumerate() {
        s += i64::from(w) * i64::from(b.threat_count(colour, Threat::ALL[k]));
    }
    s
}

/// The static score of the position for the side to move.
#[inline]
pub fn evaluate(b: &Board, w: &Weights) -> i32 {
    let me = b.to_move();
    let sum =
        dot(b, me, &w.mine, &w.mine_threat) - dot(b, me.opponent(), &w.theirs, &w.theirs_threat);
    // Floor division keeps the hand-set weights exactly the old
    // `mine * 1.2 (rounded down) - theirs`.
    let score = sum.div_euclid(i64::from(w.scale.max(1)));
    score.clamp(i64::from(-WIN / 2), i64::from(WIN / 2)) as i32
}

/// The pattern evaluation keeps nothing of its own: the board's counts are
/// all it reads.
impl Evaluator for Weights {
    #[inline]
    fn start(&mut self, _b: &mut Board) {}

    #[inline]
    fn evaluate(&self, b: &Board) -> i32 {
        evaluate(b, self)
    }

    #[inline]
    fn play(&mut self, b: &mut Board, p: Pos) {
        b.play_unchecked(p);
    }

    #[inline]
    fn undo(&mut self, b: &mut Board) {
        b.undo();
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
