//! Fitting the evaluations to games, apart from what the engine plays
//! with: the games file ([`games`]), the positions as a fit sees them
//! ([`Samples`]: each position's features and result, and for fits of
//! move scores the points it could have played), one fit's [`Options`]
//! and what it found ([`Report`]), and the two fits: the learned tables
//! by shape ([`shapes`], evaluation v2) and fine tables ([`fine`],
//! evaluation v3). Both are logistic regressions of the games' results
//! (binary cross-entropy, by Adam over full batches, every tenth game held
//! out by the front, the epoch least lost on it kept). Pure: the fronts
//! (`inarow eval`) read and write the files.

pub mod fine;
pub mod games;
pub mod shapes;

use crate::board::Board;
use crate::eval::{Eval, Evaluator};
use games::{GameRecord, result_for, sampled};

/// The positions of games as a fit sees them: each position's features
/// (the weights of the fit's model it adds to its logit, with their
/// coefficients), its game's result for the side to move and the pattern
/// evaluation's score of it; and, for a fit of move scores, the points
/// each position could have played. One fit's own: the fits number their
/// weights differently ([`shapes`], [`fine`] fill it).
#[derive(Clone, Debug, Default)]
pub struct Samples {
    /// `(weight, coefficient)` of every position's logit, one position
    /// after another.
    features: Vec<(u32, f32)>,
    /// Per position: where its features end, its result, its base score.
    positions: Vec<Position>,
    /// The ordering samples: per position, the candidate points' two
    /// ordering weights, the played point's first.
    candidates: Vec<[u32; 2]>,
    /// Per ordering position, where its candidates end.
    choices: Vec<u32>,
}

/// One position of [`Samples`].
#[derive(Clone, Copy, Debug)]
struct Position {
    /// Where its features end.
    end: u32,
    /// The result for the side to move: 1, ½ or 0.
    result: f32,
    /// The pattern evaluation's score of it.
    base: f32,
}

impl Samples {
    /// How many positions.
    pub fn len(&self) -> usize {
        self.positions.len()
    }

    /// True if there are none.
    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }

    /// How many positions to order moves in.
    pub fn choices(&self) -> usize {
        self.choices.len()
    }

    /// Adds `other`'s positions after these.
    pub fn extend(&mut self, other: &Samples) {
        let base = self.features.len() as u32;
        self.features.extend_from_slice(&other.features);
        self.positions
            .extend(other.positions.iter().map(|p| Position {
                end: p.end + base,
                ..*p
            }));
        let base = self.candidates.len() as u32;
        self.candidates.extend_from_slice(&other.candidates);
        self.choices
            .extend(other.choices.iter().map(|&end| end + base));
    }

    /// Adds weight `k` with coefficient `v` to the position being added.
    #[inline]
    fn feature(&mut self, k: u32, v: f32) {
        self.features.push((k, v));
    }

    /// Ends the position being added: its features are those added since
    /// the last.
    fn close(&mut self, result: f32, base: f32) {
        self.positions.push(Position {
            end: self.features.len() as u32,
            result,
            base,
        });
    }

    /// Adds an ordering position: the played point's two weights, then
    /// every other candidate's.
    fn choice(&mut self, played: [u32; 2], others: impl Iterator<Item = [u32; 2]>) {
        self.candidates.push(played);
        self.candidates.extend(others);
        self.choices.push(self.candidates.len() as u32);
    }

    /// Each position's features, result and base score.
    fn each(&self) -> impl Iterator<Item = (&[(u32, f32)], f64, f64)> + '_ {
        let mut start = 0;
        self.positions.iter().map(move |p| {
            let f = &self.features[start..p.end as usize];
            start = p.end as usize;
            (f, f64::from(p.result), f64::from(p.base))
        })
    }

    /// Each ordering position's candidates, the played one first.
    fn each_choice(&self) -> impl Iterator<Item = &[[u32; 2]]> + '_ {
        let mut start = 0;
        self.choices.iter().map(move |&end| {
            let c = &self.candidates[start..end as usize];
            start = end as usize;
            c
        })
    }

    /// Mean cross-entropy of the model `w` (in logits).
    fn loss(&self, w: &[f64]) -> f64 {
        mean(
            self.each().map(|(f, y, _)| entropy(y, dot(f, w))),
            self.len(),
        )
    }

    /// Mean cross-entropy of `sigmoid(scale * base score)`.
    fn base_loss(&self, scale: f64) -> f64 {
        mean(
            self.each().map(|(_, y, base)| entropy(y, scale * base)),
            self.len(),
        )
    }

    /// The scale `k` that best fits `sigmoid(k * base score)` to the
    /// results.
    fn best_base_scale(&self) -> f64 {
        least(|scale| self.base_loss(scale))
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

/// How a fit is run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Options {
    /// Passes over the training positions at most.
    pub epochs: usize,
    /// Adam's step size, in logits (the move scores, which start from
    /// nothing, take 0.02 whatever this says).
    pub rate: f64,
    /// Pull of each value towards where it started (L2), per position.
    pub pull: f64,
}

impl Options {
    /// The learned tables' fit's: 400 epochs, a step of 0.02, a pull of
    /// 1e-4.
    pub const SHAPES: Options = Options {
        epochs: 400,
        rate: 0.02,
        pull: 1e-4,
    };

    /// The fine tables' fit's: 300 epochs, a step of 0.005, a pull of
    /// 1e-4 (`inarow eval fit --fine` pulls with 1e-3).
    pub const FINE: Options = Options {
        epochs: 300,
        rate: 0.005,
        pull: 1e-4,
    };
}

/// What a fit found: the losses (mean cross-entropy) on the training and
/// the held-out positions.
#[derive(Clone, Copy, Debug)]
pub struct Report {
    /// The logistic scale of the fitted tables, per unit of their values.
    pub scale: f64,
    /// The pattern evaluation's loss at its best scale on the training
    /// positions, training and held out.
    pub base: (f64, f64),
    /// The starting values' loss, training and held out.
    pub start: (f64, f64),
    /// The fitted values' loss, training and held out.
    pub fitted: (f64, f64),
    /// The epoch whose held-out loss was lowest (its values are returned).
    pub epoch: usize,
    /// The move scores' fit, where there is one (fine tables).
    pub order: Option<OrderReport>,
}

/// What the fit of move scores found.
#[derive(Clone, Copy, Debug)]
pub struct OrderReport {
    /// The softmax cross-entropy of the move played, training and held
    /// out.
    pub loss: (f64, f64),
    /// How often the played move scored highest, held out.
    pub top: f64,
    /// The epoch whose held-out loss was lowest.
    pub epoch: usize,
}

/// Adam over full batches from `origin`, pulled towards it, keeping the
/// epoch whose held-out loss is lowest; `gradient` puts the mean gradient
/// of the training loss at `w` into `g` (zeroed before each call), and
/// `progress` hears each epoch's weights and held-out loss.
fn adam(
    origin: Vec<f64>,
    options: Options,
    mut gradient: impl FnMut(&[f64], &mut [f64]),
    held: impl Fn(&[f64]) -> f64,
    mut progress: impl FnMut(usize, &[f64], f64),
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
        progress(epoch, &w, loss);
    }
    (best, best_epoch)
}

/// Every position of `games` a fit samples, scored by `eval` for the side
/// to move (in the engine's units), with the game's result for it: how any
/// evaluation does on games, fitted here or not. The evaluator follows
/// each game move by move, as a search follows its lines.
pub fn scored(games: &[GameRecord], eval: &Eval) -> Vec<(f32, f32)> {
    let mut out = Vec::new();
    let mut e = eval.evaluation();
    for game in games {
        let Ok(mut b) = Board::with_rule(usize::from(game.size), game.rule) else {
            continue;
        };
        if usize::from(game.opening) > game.moves.len() {
            continue;
        }
        e.start(&mut b);
        for (k, &m) in game.moves.iter().enumerate() {
            if k > 0 && b.last_move_won() {
                break;
            }
            if sampled(game, &b, k) {
                out.push((e.evaluate(&b) as f32, result_for(game, b.to_move())));
            }
            match b.pos_at(m.x, m.y) {
                Ok(p) if b.is_empty(p) => e.play(&mut b, p),
                _ => break,
            }
        }
    }
    out
}

/// The mean cross-entropy of scored positions under `P(win) =
/// sigmoid(scale * score)`.
pub fn scored_loss(scored: &[(f32, f32)], scale: f64) -> f64 {
    mean(
        scored
            .iter()
            .map(|&(score, y)| entropy(f64::from(y), scale * f64::from(score))),
        scored.len(),
    )
}

/// The scale at which scored positions' loss is least.
pub fn best_scored_scale(scored: &[(f32, f32)]) -> f64 {
    least(|scale| scored_loss(scored, scale))
}

fn mean(xs: impl Iterator<Item = f64>, n: usize) -> f64 {
    xs.sum::<f64>() / n.max(1) as f64
}

/// A position's logit under weights `w`.
#[inline]
fn dot(f: &[(u32, f32)], w: &[f64]) -> f64 {
    f.iter().map(|&(k, v)| w[k as usize] * f64::from(v)).sum()
}

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// Cross-entropy of result `y` under logit `z`.
fn entropy(y: f64, z: f64) -> f64 {
    let p = sigmoid(z).clamp(1e-9, 1.0 - 1e-9);
    -(y * p.ln() + (1.0 - y) * (1.0 - p).ln())
}

/// The scale between 1e-6 and 1 where `loss` is least (a golden-section
/// search on its logarithm).
fn least(loss: impl Fn(f64) -> f64) -> f64 {
    let (mut lo, mut hi) = ((1e-6f64).ln(), (1.0f64).ln());
    for _ in 0..60 {
        let m1 = lo + (hi - lo) * 0.382;
        let m2 = lo + (hi - lo) * 0.618;
        if loss(m1.exp()) < loss(m2.exp()) {
            hi = m2;
        } else {
            lo = m1;
        }
    }
    ((lo + hi) / 2.0).exp()
}
