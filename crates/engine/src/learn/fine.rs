//! Fitting fine tables ([`crate::eval::fine_tables`], evaluation v3) to
//! games: the point values and threat masks by logistic regression of the
//! games' results on the positions' fine point codes (the two-ply mean, as
//! the evaluation reads them), and the move-ordering scores by a softmax
//! over the points of each position, whose target is the move played.

use std::sync::LazyLock;

use inarow_core::Player;

use crate::board::Board;
use crate::eval::fine::{self, CODES, MASKS};
use crate::eval::fine_eval::FineEval;
use crate::eval::fine_tables::{FineTables, SLOTS};
use crate::eval::{self, Evaluator, Weights};
use crate::learn::games::{GameRecord, result_for, sampled};
use crate::learn::{Options, OrderReport, Report, Samples, adam, dot, sigmoid};
use crate::pos::Pos;

/// Weights of the value fit: every slot's point values, then every slot's
/// threat masks.
const VALUE_WEIGHTS: usize = SLOTS * (CODES + MASKS);
/// Weights of the ordering fit: every slot's two scores for every code.
const ORDER_WEIGHTS: usize = SLOTS * CODES * 2;

/// Tables of zeros: an evaluator keeps codes and classes by them, whose
/// values play no part in the samples.
static ZERO: LazyLock<FineTables> = LazyLock::new(FineTables::zero);

impl Samples {
    /// Adds the positions of `game` as the fine fit sees them: every one a
    /// fit samples ([`sampled`]) to the value fit, and every move after the
    /// opening that was not forced by a five to the ordering fit. `base` is
    /// the pattern evaluation, to compare with.
    pub fn add_fine(&mut self, game: &GameRecord, base: &Weights) {
        let Ok(mut b) = Board::with_rule(usize::from(game.size), game.rule) else {
            return;
        };
        let mut e = FineEval::new(&ZERO, [0; 3]);
        e.start(&mut b);
        let mut previous: Option<[Vec<u16>; 2]> = None;
        let mut scratch = vec![0f32; SLOTS * CODES];
        for (k, &m) in game.moves.iter().enumerate() {
            let codes = [Player::X, Player::O]
                .map(|c| b.empty_points().map(|i| e.code(i, c)).collect::<Vec<u16>>());
            let me = b.to_move();
            let played = Pos::at(m.x, m.y);
            if sampled(game, &b, k) {
                self.add_value(&b, &e, &codes, previous.as_ref(), &mut scratch);
                self.close(result_for(game, me), eval::evaluate(&b, base) as f32);
                self.add_choice(&b, &e, played);
            }
            previous = Some(codes);
            match b.pos_at(m.x, m.y) {
                Ok(p) if b.is_empty(p) => e.play(&mut b, p),
                _ => break,
            }
            if b.last_move_won() {
                break;
            }
        }
    }

    /// The value features of the position on `b`: each colour's codes now
    /// and a ply before, averaged, signed from the side to move, and the
    /// side to move's threat mask.
    fn add_value(
        &mut self,
        b: &Board,
        e: &FineEval,
        codes: &[Vec<u16>; 2],
        previous: Option<&[Vec<u16>; 2]>,
        scratch: &mut [f32],
    ) {
        let me = b.to_move();
        let rule = b.rule();
        let sign = if me == Player::X { 1.0 } else { -1.0 };
        for (c, colour_sign) in [(0usize, 1.0f32), (1, -1.0)] {
            let base = fine::table_slot(rule, c) * CODES;
            let plies = [Some(&codes[c]), previous.map(|p| &p[c])];
            for ply in plies {
                // Without a ply before, this one counts for both.
                let (list, share) = match (ply, previous) {
                    (Some(list), Some(_)) => (list, 0.5),
                    (Some(list), None) => (list, 1.0),
                    (None, _) => continue,
                };
                for &code in list {
                    scratch[base + usize::from(code)] += sign * colour_sign * share;
                }
            }
        }
        for (k, v) in scratch.iter_mut().enumerate() {
            if *v != 0.0 {
                self.feature(k as u32, *v);
                *v = 0.0;
            }
        }
        let mask = fine::threat_mask(e.point_classes(me), e.point_classes(me.opponent()));
        let slot = fine::table_slot(rule, me.index());
        self.feature((SLOTS * CODES + slot * MASKS + mask) as u32, 1.0);
    }

    /// The ordering sample of the position on `b`, whose move was `played`:
    /// the candidate points (near a stone), each by its two ordering
    /// weights, the played one first.
    fn add_choice(&mut self, b: &Board, e: &FineEval, played: Pos) {
        let me = b.to_move();
        let rule = b.rule();
        let weights = |i: Pos| {
            let at = |c: Player, k: usize| {
                let code = e.code(i, c);
                ((fine::table_slot(rule, c.index()) * CODES + usize::from(code)) * 2 + k) as u32
            };
            [at(me, 0), at(me.opponent(), 1)]
        };
        if !b.is_near(played) {
            return;
        }
        let others = b
            .empty_points()
            .filter(|&i| i != played && b.is_near(i))
            .map(weights);
        self.choice(weights(played), others);
    }
}

/// Fits fine tables to `train` (filled by [`Samples::add_fine`]), from
/// `start`'s values and threat masks (the move scores start from zero)
/// with a pull towards them, keeping for the values and for the ordering
/// the epoch whose loss on `held` is lowest. The tables come out in
/// `start`'s units; slots without positions keep `start`'s values.
pub fn fit_fine(
    train: &Samples,
    held: &Samples,
    start: &FineTables,
    options: Options,
) -> (FineTables, Report) {
    let n = train.len().max(1) as f64;
    let logits = |v: i16| f64::from(v) / start.scale;
    let origin: Vec<f64> = start
        .value
        .iter()
        .flatten()
        .chain(start.threat.iter().flatten())
        .map(|&v| logits(v))
        .collect();
    debug_assert_eq!(origin.len(), VALUE_WEIGHTS);
    let start_loss = (train.loss(&origin), held.loss(&origin));
    let (values, epoch) = adam(
        origin,
        options,
        |w, g| {
            for (f, y, _) in train.each() {
                let d = (sigmoid(dot(f, w)) - y) / n;
                for &(k, v) in f {
                    g[k as usize] += d * f64::from(v);
                }
            }
        },
        |w| held.loss(w),
        |_, _, _| {},
    );
    let choices = train.choices().max(1) as f64;
    // The move scores start from nothing: a light pull only.
    let ordering = Options {
        pull: options.pull.min(1e-4),
        rate: 0.02,
        ..options
    };
    let (order, order_epoch) = adam(
        vec![0.0; ORDER_WEIGHTS],
        ordering,
        |w, g| {
            let mut p = Vec::new();
            for c in train.each_choice() {
                p.clear();
                p.extend(c.iter().map(|&[a, b]| w[a as usize] + w[b as usize]));
                let max = p.iter().copied().fold(f64::MIN, f64::max);
                let sum: f64 = p.iter().map(|s| (s - max).exp()).sum();
                for (k, &[a, b]) in c.iter().enumerate() {
                    let d = ((p[k] - max).exp() / sum - f64::from(u8::from(k == 0))) / choices;
                    g[a as usize] += d;
                    g[b as usize] += d;
                }
            }
        },
        |w| held.order_loss(w).0,
        |_, _, _| {},
    );
    let units = |x: f64| (x * start.scale).round().clamp(-8000.0, 8000.0) as i16;
    // Ordering scores in hundredths of a logit: the scale the move picker's
    // point values have.
    let hundredths = |x: f64| (x * 100.0).round().clamp(-8000.0, 8000.0) as i16;
    let tables = FineTables {
        scale: start.scale,
        value: std::array::from_fn(|s| {
            values[s * CODES..(s + 1) * CODES]
                .iter()
                .map(|&x| units(x))
                .collect()
        }),
        threat: std::array::from_fn(|s| {
            let at = SLOTS * CODES + s * MASKS;
            values[at..at + MASKS].iter().map(|&x| units(x)).collect()
        }),
        order: std::array::from_fn(|s| {
            (0..CODES)
                .map(|c| {
                    let at = (s * CODES + c) * 2;
                    [hundredths(order[at]), hundredths(order[at + 1])]
                })
                .collect()
        }),
    };
    let base_scale = train.best_base_scale();
    let held_order = held.order_loss(&order);
    let report = Report {
        scale: 1.0 / start.scale,
        base: (train.base_loss(base_scale), held.base_loss(base_scale)),
        start: start_loss,
        fitted: (train.loss(&values), held.loss(&values)),
        epoch,
        order: Some(OrderReport {
            loss: (train.order_loss(&order).0, held_order.0),
            top: held_order.1,
            epoch: order_epoch,
        }),
    };
    (tables, report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Eval;
    use crate::learn::scored;
    use inarow_core::{GameResult, Rule};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Random games near the centre, each to a five or forty moves.
    fn games(rule: Rule, n: usize, seed: u64) -> Vec<GameRecord> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        (0..n)
            .map(|_| {
                let mut b = Board::with_rule(15, rule).unwrap();
                let mut moves = Vec::new();
                while moves.len() < 80 && (moves.is_empty() || !b.last_move_won()) {
                    let (x, y) = (rng.random_range(3..12), rng.random_range(3..12));
                    let i = Pos::at(x, y);
                    if b.is_empty(i) && !(b.to_move() == Player::X && b.forbidden(i).is_some()) {
                        b.play(i).unwrap();
                        moves.push(inarow_core::Xy::new(x, y));
                    }
                }
                // The side that made five won; otherwise a draw.
                let black = match (b.last_move_won(), moves.len() % 2) {
                    (false, _) => GameResult::Draw,
                    (true, 1) => GameResult::Win,
                    (true, _) => GameResult::Loss,
                };
                GameRecord {
                    rule,
                    size: 15,
                    opening: 2,
                    black,
                    moves,
                }
            })
            .collect()
    }

    #[test]
    fn fitted_tables_evaluate_as_the_fit_scored() {
        for rule in Rule::ALL {
            let all = games(rule, 60, 7);
            let mut train = Samples::default();
            for g in &all {
                train.add_fine(g, &Weights::TUNED);
            }
            let options = Options {
                epochs: 30,
                ..Options::FINE
            };
            // Held out on itself: random games say little about others.
            let (tables, report) = fit_fine(&train, &train, &FineTables::zero(), options);
            assert!(
                report.fitted.0 < std::f64::consts::LN_2 - 1e-3,
                "{rule:?}: the fit learnt nothing"
            );
            assert!(report.fitted.0 < report.start.0, "{rule:?}: {report:?}");
            let tables: &'static FineTables = Box::leak(Box::new(tables));
            // The search's score of each held-out position, in the tables'
            // units, is the fit's logit times the scale (up to rounding).
            let mut again = Samples::default();
            let scored = scored(&all[9..10], &Eval::fine(tables));
            again.add_fine(&all[9], &Weights::TUNED);
            assert_eq!(scored.len(), again.len(), "{rule:?}");
            let w: Vec<f64> = (0..VALUE_WEIGHTS)
                .map(|k| {
                    if k < SLOTS * CODES {
                        f64::from(tables.value[k / CODES][k % CODES])
                    } else {
                        let m = k - SLOTS * CODES;
                        f64::from(tables.threat[m / MASKS][m % MASKS])
                    }
                })
                .collect();
            let mut b = Board::with_rule(15, rule).unwrap();
            // In the tables' own units.
            let mut e = FineEval::new(tables, [1 << 16; 3]);
            e.start(&mut b);
            let mut k = 0;
            for (n, &m) in all[9].moves.iter().enumerate() {
                if sampled(&all[9], &b, n) {
                    let (f, _, _) = again.each().nth(k).unwrap();
                    let expected = dot(f, &w);
                    let found = f64::from(e.evaluate(&b));
                    assert!(
                        (expected - found).abs() <= 1.0,
                        "{rule:?} move {n}: {expected} {found}"
                    );
                    k += 1;
                }
                e.play(&mut b, Pos::at(m.x, m.y));
                if b.last_move_won() {
                    break;
                }
            }
            assert_eq!(k, again.len());
        }
    }
}
