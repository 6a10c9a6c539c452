//! Static evaluation: what every empty point offers each side, weighed from
//! the side to move. Two kinds ([`Eval`]): the pattern evaluation below,
//! and the learned one ([`learned_score`], tables in [`crate::learned`]),
//! the default.
//!
//! The board keeps, for each colour, how many (empty point, direction)
//! pairs show each line pattern and how many empty points make each threat
//! (see [`crate::pattern`]). The evaluation is a weighted sum of those
//! counts, with separate weights for the side to move (who gets to use a
//! threat first) and for the opponent. The hand-set weights are the
//! pattern values of [`crate::pattern::line_value`] and the fork bonuses,
//! the mover's counted 1.2 times; the tuned weights were fitted to the
//! results of self-play games (`examples/tune.rs`, docs/engine.md).

use inarow_core::{Player, Rule};

use crate::board::Board;
use crate::fine;
use crate::fine_tables::{FineTables, MODEL_CLAMP};
use crate::learned::{Learned, MASK_THREATS, MASKS, Tables};
use crate::pattern::{self, PATTERNS, Pattern, SHAPES, THREATS, Threat};
use crate::pos::Pos;
use crate::score::{WIN, loss_in, win_in};

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

/// The threat mask of the position for `me` to move: a bit for each of
/// [`MASK_THREATS`] that `me` has a point for, then the opponent's.
#[inline]
pub fn threat_mask(b: &Board, me: Player) -> usize {
    let bits = |c: Player| {
        MASK_THREATS.iter().enumerate().fold(0, |m, (k, &t)| {
            m | usize::from(b.threat_count(c, t) > 0) << k
        })
    };
    bits(me) | bits(me.opponent()) << MASK_THREATS.len()
}

/// The learned evaluation: the static score of the position for the side
/// to move under the board's tables (the mover's points, less the
/// opponent's, plus the threat mask's value).
#[inline]
pub fn learned_score(b: &Board) -> i32 {
    let me = b.to_move();
    let [mine, _] = b.shape_sums(me);
    let [_, theirs] = b.shape_sums(me.opponent());
    let threat = b.learned().tables(b.rule()).threat[threat_mask(b, me)];
    (mine - theirs + i32::from(threat)).clamp(-WIN / 2, WIN / 2)
}

/// The evaluation by fine tables ([`crate::fine_tables`]) for the side to
/// move, in the engine's units: the mean of this ply's and the last ply's
/// point sums, plus the value of the side to move's threat mask, clamped as
/// the tables' makers clamp it. The board must keep these tables' sums.
#[inline]
pub fn fine_score(b: &Board, tables: &FineTables, to_engine: i32) -> i32 {
    let me = b.to_move();
    let [now, before] = b.fine_sums().expect("the board keeps fine sums");
    let mine = b.point_classes(me).expect("the board keeps fine sums");
    let theirs = b
        .point_classes(me.opponent())
        .expect("the board keeps fine sums");
    let sign = if me == Player::X { 1 } else { -1 };
    let basic = sign * (now + before) / 2;
    let slot = fine::table_slot(b.rule(), me.index());
    let threat = i32::from(tables.threat[slot][fine::threat_mask(mine, theirs)]);
    let score = (basic + threat).clamp(-MODEL_CLAMP, MODEL_CLAMP);
    (score * to_engine) >> 16
}

/// A static evaluation the searches can use: a score for the side to move,
/// with hooks called after each stone is put on the board and before it is
/// taken back, so that an evaluation kept up to date move by move (a learned
/// one, say) can be one new implementation.
pub trait Evaluator {
    /// The static score of the position for the side to move.
    fn evaluate(&self, b: &Board) -> i32;
    /// Called after a stone was put on `i`.
    #[inline]
    fn put(&mut self, _b: &Board, _i: Pos) {}
    /// Called before the stone on `i` is taken back.
    #[inline]
    fn take_back(&mut self, _b: &Board, _i: Pos) {}
}

/// The evaluation a search uses: the pattern evaluation with its weights,
/// or the learned one with its tables ([`crate::learned`]).
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
}

impl Evaluator for Eval {
    #[inline]
    fn evaluate(&self, b: &Board) -> i32 {
        match self {
            Eval::Pattern(w) => evaluate(b, w),
            Eval::Learned(tables) => {
                // The board keeps the sums for one set of tables; the
                // searcher gives it these before it searches.
                debug_assert!(std::ptr::eq(*tables, b.learned()));
                learned_score(b)
            }
            Eval::Fine(tables, units) => {
                debug_assert!(b.fine_tables().is_some_and(|t| std::ptr::eq(t, *tables)));
                let rule = match b.rule() {
                    Rule::Freestyle => 0,
                    Rule::Exact => 1,
                    Rule::Renju => 2,
                };
                fine_score(b, tables, units[rule])
            }
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
    [Threat::Five, Threat::Flex4, Threat::Four3, Threat::Block4]
        .iter()
        .all(|&t| b.threat_count(colour, t) == 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use inarow_core::Rule;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Random freestyle positions of up to 40 stones, none of them won.
    fn positions() -> Vec<Board> {
        random_boards(&[Rule::Freestyle], 17, 60, 40)
    }

    /// `count` seeded random positions under `rules` in turn, each of
    /// fewer than `most` stones, none of them won.
    fn random_boards(rules: &[Rule], seed: u64, count: usize, most: usize) -> Vec<Board> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut out = Vec::new();
        for k in 0..count {
            let mut b = Board::with_rule(15, rules[k % rules.len()]).unwrap();
            for _ in 0..rng.random_range(1..most) {
                let (x, y) = (rng.random_range(0..15), rng.random_range(0..15));
                if b.play(x, y).is_ok() && b.last_move_won() {
                    b.undo();
                }
            }
            out.push(b);
        }
        out
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
                if b.play(x, y).is_ok() && b.last_move_won() {
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
        for mut b in random_boards(&[Rule::Freestyle, Rule::Exact], 5, 80, 50) {
            b.set_learned(learned);
            assert_eq!(learned_score(&b), evaluate(&b, &w), "{b:?}");
        }
    }

    #[test]
    fn the_board_keeps_the_sums_move_by_move() {
        let learned = Learned::embedded();
        for mut b in random_boards(&[Rule::Freestyle, Rule::Exact], 9, 80, 50) {
            let kept = [Player::X, Player::O].map(|c| b.shape_sums(c));
            b.set_learned(learned);
            b.set_learned(Box::leak(Box::new(learned.clone())));
            assert_eq!([Player::X, Player::O].map(|c| b.shape_sums(c)), kept);
            // Take every stone back: the sums follow to the empty board's.
            while b.take_back().is_some() {}
            let empty = Board::with_rule(15, b.rule()).unwrap();
            assert_eq!(
                [Player::X, Player::O].map(|c| b.shape_sums(c)),
                [Player::X, Player::O].map(|c| empty.shape_sums(c))
            );
        }
    }

    #[test]
    fn the_embedded_tables_read() {
        let e = Learned::embedded();
        assert!(e.scale(Rule::Freestyle) > 0.0 && e.scale(Rule::Exact) > 0.0);
        let predicted =
            |b: &Board| 1.0 / (1.0 + (-e.scale(b.rule()) * learned_score(b) as f64).exp());
        // The first player is favoured on the empty board, but nothing is
        // decided.
        let empty = Board::new(15).unwrap();
        let first = predicted(&empty);
        assert!((0.5..0.95).contains(&first), "{first}");
        // Three in a row open at both ends: good for its owner to move,
        // and worse for the side that must answer it.
        let mut b = Board::new(15).unwrap();
        for (x, y) in [(6, 7), (2, 12), (7, 7), (12, 2), (8, 7), (2, 2)] {
            b.play(x, y).unwrap();
        }
        let owner = predicted(&b);
        b.set_to_move(Player::O);
        let answers = predicted(&b);
        assert!(owner > 0.8 && answers < 0.5, "{owner} {answers}");
    }
}
