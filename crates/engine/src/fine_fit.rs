//! Fitting fine tables ([`crate::fine_tables`], evaluation v3) to games:
//! the point values and threat masks by logistic regression of the games'
//! results on the positions' fine point codes (the two-ply mean, as the
//! evaluation reads them), and the move-ordering scores by a softmax over
//! the points of each position, whose target is the move played. Pure:
//! the fronts read and write the files.

use inarow_core::Player;

use crate::board::Board;
use crate::fine::{self, CODES, MASKS};
use crate::fine_tables::{FineTables, SLOTS};
use crate::fit::{self, GameRecord, entropy, sigmoid};
use crate::pos::Pos;

/// Weights of the value fit: every slot's point values, then every slot's
/// threat masks.
const VALUE_WEIGHTS: usize = SLOTS * (CODES + MASKS);
/// Weights of the ordering fit: every slot's two scores for every code.
const ORDER_WEIGHTS: usize = SLOTS * CODES * 2;

/// The positions of games as the fine fit sees them.
#[derive(Clone, Debug, Default)]
pub struct FineSamples {
    /// `(weight, coefficient)` of every position's value logit, one
    /// position after another.
    features: Vec<(u32, f32)>,
    /// Per position: where its features end, and the result for the side
    /// to move.
    positions: Vec<(u32, f32)>,
    /// The ordering samples: per position, the candidate points' two
    /// ordering weights, the played point's first.
    candidates: Vec<[u32; 2]>,
    /// Per ordering position, where its candidates end.
    choices: Vec<u32>,
}

impl FineSamples {
    /// Number of value positions.
    pub fn len(&self) -> usize {
        self.positions.len()
    }

    /// True when there are no positions.
    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }

    /// Number of ordering positions.
    pub fn choices(&self) -> usize {
        self.choices.len()
    }

    /// Adds the positions of `game`: every one a fit samples to the value
    /// fit, and every move after the opening that was not forced by a five
    /// to the ordering fit. `kept` are any fine tables, which the board
    /// needs to keep codes (their values play no part).
    pub fn add_game(&mut self, game: &GameRecord, kept: &'static FineTables) {
        let Ok(mut b) = Board::with_rule(usize::from(game.size), game.rule) else {
            return;
        };
        b.set_fine(Some(kept));
        let mut previous: Option<[Vec<u16>; 2]> = None;
        let mut scratch = vec![0f32; SLOTS * CODES];
        for (k, &(x, y)) in game.moves.iter().enumerate() {
            let codes = [Player::X, Player::O].map(|c| {
                b.empty_points()
                    .map(|i| b.fine_code(i, c).expect("kept"))
                    .collect::<Vec<u16>>()
            });
            let me = b.to_move();
            let played = Pos::at(usize::from(x), usize::from(y));
            if fit::sampled(game, &b, k) {
                self.add_value(&b, &codes, previous.as_ref(), &mut scratch);
                let result = fit::result_for(game, me);
                self.positions.push((self.features.len() as u32, result));
                self.add_choice(&b, played);
            }
            previous = Some(codes);
            if b.play(usize::from(x), usize::from(y)).is_err() || b.last_move_won() {
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
                self.features.push((k as u32, *v));
                *v = 0.0;
            }
        }
        let mask = fine::threat_mask(
            b.point_classes(me).expect("kept"),
            b.point_classes(me.opponent()).expect("kept"),
        );
        let slot = fine::table_slot(rule, me.index());
        self.features
            .push(((SLOTS * CODES + slot * MASKS + mask) as u32, 1.0));
    }

    /// The ordering sample of the position on `b`, whose move was `played`:
    /// the candidate points (near a stone), each by its two ordering
    /// weights, the played one first.
    fn add_choice(&mut self, b: &Board, played: Pos) {
        let me = b.to_move();
        let rule = b.rule();
        let weights = |i: Pos| {
            let mine = b.fine_code(i, me).expect("kept");
            let theirs = b.fine_code(i, me.opponent()).expect("kept");
            let at = |c: Player, code: u16, k: usize| {
                ((fine::table_slot(rule, c.index()) * CODES + usize::from(code)) * 2 + k) as u32
            };
            [at(me, mine, 0), at(me.opponent(), theirs, 1)]
        };
        if !b.is_near(played) {
            return;
        }
        self.candidates.push(weights(played));
        for i in b.empty_points() {
            if i != played && b.is_near(i) {
                self.candidates.push(weights(i));
            }
        }
        self.choices.push(self.candidates.len() as u32);
    }

    fn each_value(&self) -> impl Iterator<Item = (&[(u32, f32)], f64)> + '_ {
        let mut start = 0;
        self.positions.iter().map(move |&(end, y)| {
            let f = &self.features[start..end as usize];
            start = end as usize;
            (f, f64::from(y))
        })
    }

    fn each_choice(&self) -> impl Iterator<Item = &[[u32; 2]]> + '_ {
        let mut start = 0;
        self.choices.iter().map(move |&end| {
            let c = &self.candidates[start..end as usize];
            start = end as usize;
            c
        })
    }

    /// Mean cross-entropy of the values `w` (in logits).
    fn value_loss(&self, w: &[f64]) -> f64 {
        let n = self.len().max(1) as f64;
        self.each_value()
            .map(|(f, y)| entropy(y, dot(f, w)))
            .sum::<f64>()
            / n
    }

    /// Mean cross-entropy of the move played under the softmax of the
    /// ordering scores `w`, and how often the played move scored highest.
    fn order_loss(&self, w: &[f64]) -> (f64, f64) {
        let (mut loss, mut top) = (0.0, 0usize);
        for c in self.each_choice() {
            let scores: Vec<f64> = c
                .iter()
                .map(|&[a, b]| w[a as usize] + w[b as usize])
                .collect();
            let max = scores.iter().copied().fold(f64::MIN, f64::max);
            let sum: f64 = scores.iter().map(|s| (s - max).exp()).sum();
            loss += max + sum.ln() - scores[0];
            top += usize::from(scores[0] >= max);
        }
        let n = self.choices().max(1) as f64;
        (loss / n, top as f64 / n)
    }
}

#[inline]
fn dot(f: &[(u32, f32)], w: &[f64]) -> f64 {
    f.iter().map(|&(k, v)| w[k as usize] * f64::from(v)).sum()
}

/// How a fine fit is run.
#[derive(Clone, Copy, Debug)]
pub struct FineFitOptions {
    /// Passes over the training positions at most, for each fit.
    pub epochs: usize,
    /// Adam's step size for the values (the move scores, which start from
    /// nothing, take 0.02).
    pub rate: f64,
    /// Pull of each weight towards zero (L2), per position.
    pub pull: f64,
    /// The tables' logistic scale: `P(win) = 1 / (1 + e^(-score / scale))`.
    pub scale: f64,
}

impl Default for FineFitOptions {
    fn default() -> Self {
        FineFitOptions {
            epochs: 300,
            rate: 0.005,
            pull: 1e-4,
            scale: 250.0,
        }
    }
}

/// What a fine fit found, on the training and the held-out positions.
#[derive(Clone, Copy, Debug)]
pub struct FineFitReport {
    /// The values' cross-entropy, training and held out.
    pub value: (f64, f64),
    /// The epoch whose held-out value loss was lowest.
    pub value_epoch: usize,
    /// The ordering's softmax cross-entropy, training and held out.
    pub order: (f64, f64),
    /// How often the played move scored highest, held out.
    pub order_top: f64,
    /// The epoch whose held-out ordering loss was lowest.
    pub order_epoch: usize,
}

/// Adam over full batches from `origin`, pulled towards it, keeping the
/// epoch whose held-out loss is lowest; `gradient` adds the mean gradient
/// of the training loss at `w` to `g`.
fn adam(
    origin: Vec<f64>,
    options: FineFitOptions,
    mut gradient: impl FnMut(&[f64], &mut [f64]),
    held: impl Fn(&[f64]) -> f64,
) -> (Vec<f64>, usize) {
    let len = origin.len();
    let mut w = origin.clone();
    let (mut best, mut best_loss, mut best_epoch) = (w.clone(), held(&w), 0);
    let (mut m, mut v, mut g) = (vec![0.0; len], vec![0.0; len], vec![0.0; len]);
    let (b1, b2) = (0.9f64, 0.999f64);
    for epoch in 1..=options.epochs {
        g.fill(0.0);
        gradient(&w, &mut g);
        let t = epoch as i32;
        for i in 0..len {
            let gi = g[i] + options.pull * (w[i] - origin[i]);
            m[i] = b1 * m[i] + (1.0 - b1) * gi;
            v[i] = b2 * v[i] + (1.0 - b2) * gi * gi;
            let step = m[i] / (1.0 - b1.powi(t)) / ((v[i] / (1.0 - b2.powi(t))).sqrt() + 1e-9);
            w[i] -= options.rate * step;
        }
        let loss = held(&w);
        if loss < best_loss {
            (best, best_loss, best_epoch) = (w.clone(), loss, epoch);
        }
    }
    (best, best_epoch)
}

/// Fits fine tables to `train`, from `start`'s values and threat masks
/// (in its units; the move scores start from zero) with a pull towards
/// them, keeping for the values and for the ordering the epoch whose loss
/// on `held` is lowest. Slots without positions keep `start`'s values.
pub fn fit_fine(
    train: &FineSamples,
    held: &FineSamples,
    start: &FineTables,
    options: FineFitOptions,
) -> (FineTables, FineFitReport) {
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
    let (values, value_epoch) = adam(
        origin,
        options,
        |w, g| {
            for (f, y) in train.each_value() {
                let d = (sigmoid(dot(f, w)) - y) / n;
                for &(k, v) in f {
                    g[k as usize] += d * f64::from(v);
                }
            }
        },
        |w| held.value_loss(w),
    );
    let choices = train.choices().max(1) as f64;
    // The move scores start from nothing: a light pull only.
    let ordering = FineFitOptions {
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
    );
    let units = |x: f64| (x * options.scale).round().clamp(-8000.0, 8000.0) as i16;
    // Ordering scores in hundredths of a logit: the scale the move picker's
    // point values have.
    let hundredths = |x: f64| (x * 100.0).round().clamp(-8000.0, 8000.0) as i16;
    let tables = FineTables {
        scale: options.scale,
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
    let held_order = held.order_loss(&order);
    let report = FineFitReport {
        value: (train.value_loss(&values), held.value_loss(&values)),
        value_epoch,
        order: (train.order_loss(&order).0, held_order.0),
        order_top: held_order.1,
        order_epoch,
    };
    (tables, report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::fine_score;
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
                        b.play(x, y).unwrap();
                        moves.push((x as u8, y as u8));
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
            let kept: &'static FineTables = Box::leak(Box::new(FineTables::zero()));
            let mut train = FineSamples::default();
            for g in &all {
                train.add_game(g, kept);
            }
            let options = FineFitOptions {
                epochs: 30,
                ..FineFitOptions::default()
            };
            // Held out on itself: random games say little about others.
            let (tables, report) = fit_fine(&train, &train, &FineTables::zero(), options);
            assert!(
                report.value.0 < std::f64::consts::LN_2 - 1e-3,
                "{rule:?}: the fit learnt nothing"
            );
            let tables: &'static FineTables = Box::leak(Box::new(tables));
            // The search's score of each held-out position, in the tables'
            // units, is the fit's logit times the scale (up to rounding).
            let mut again = FineSamples::default();
            let scored = crate::fit::scored(&all[9..10], &crate::eval::Eval::fine(tables));
            again.add_game(&all[9], kept);
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
            b.set_fine(Some(tables));
            let mut k = 0;
            for (n, &(x, y)) in all[9].moves.iter().enumerate() {
                if crate::fit::sampled(&all[9], &b, n) {
                    let (f, _) = again.each_value().nth(k).unwrap();
                    let expected = dot(f, &w);
                    let found = f64::from(fine_score(&b, tables, 65536));
                    assert!(
                        (expected - found).abs() <= 1.0,
                        "{rule:?} move {n}: {expected} {found}"
                    );
                    k += 1;
                }
                b.play(usize::from(x), usize::from(y)).unwrap();
                if b.last_move_won() {
                    break;
                }
            }
            assert_eq!(k, again.len());
        }
    }
}
