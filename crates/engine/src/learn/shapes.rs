//! Fitting the learned evaluation ([`crate::eval::learned`], evaluation v2)
//! to games: each position's features are the shapes of every empty point
//! for the side to move (counted) and for the opponent (counted negative,
//! as they are subtracted) and the threat mask, exactly the sums the
//! evaluation makes; its logistic scale is the one that best fits the
//! pattern evaluation, so that the tables come out in the units the
//! search's margins are set in.

use crate::eval::learned::{MASKS, Tables, threat_mask};
use crate::eval::{self, Weights};
use crate::learn::games::{GameRecord, replay, result_for, sampled};
use crate::learn::{Options, Report, Samples, adam, dot, sigmoid};
use crate::pattern::{self, SHAPES};

/// Weights of the fit: the two shape tables, then the threat masks.
const WEIGHTS: usize = 2 * SHAPES + MASKS;

impl Samples {
    /// Adds the positions of `game` that the evaluation is asked about
    /// ([`sampled`]) as the learned tables' fit sees them. `base` is the
    /// pattern evaluation, to compare with.
    pub fn add_shapes(&mut self, game: &GameRecord, base: &Weights) {
        let mut counts = [[0i16; SHAPES]; 2];
        // A game that does not replay (one not read by `read_games`) adds
        // its positions up to the bad move.
        let _ = replay(game, |b, k| {
            let me = b.to_move();
            if !sampled(game, b, k) {
                return;
            }
            for (side, colour) in [me, me.opponent()].into_iter().enumerate() {
                counts[side] = [0; SHAPES];
                for i in b.empty_points() {
                    counts[side][pattern::shape(b.combo(i, colour)) as usize] += 1;
                }
            }
            for (side, sign) in [(0, 1), (1, -1)] {
                for (s, &n) in counts[side].iter().enumerate() {
                    if n != 0 {
                        self.feature((side * SHAPES + s) as u32, f32::from(sign * n));
                    }
                }
            }
            self.feature((2 * SHAPES + threat_mask(b, me)) as u32, 1.0);
            let result = result_for(game, me);
            self.close(result, eval::evaluate(b, base) as f32);
        });
    }
}

/// Fits tables to `train` (filled by [`Samples::add_shapes`]), starting
/// from `start` and keeping the epoch whose loss on `held` is lowest.
/// The pattern evaluation's best logistic scale on `train` is found first,
/// and the tables come out in the units it scores in, so the search's
/// margins keep their meaning. `progress` hears every fiftieth epoch's
/// training and held-out loss.
pub fn fit(
    train: &Samples,
    held: &Samples,
    start: &Tables,
    options: Options,
    mut progress: impl FnMut(usize, f64, f64),
) -> (Tables, Report) {
    let scale = train.best_base_scale();
    let origin = logits(start, scale);
    let start_loss = (train.loss(&origin), held.loss(&origin));
    let n = train.len().max(1) as f64;
    let (best, epoch) = adam(
        origin,
        options,
        |w, g| {
            for (f, y, _) in train.each() {
                let d = sigmoid(dot(f, w)) - y;
                for &(k, c) in f {
                    g[k as usize] += d * f64::from(c);
                }
            }
            for x in g.iter_mut() {
                *x /= n;
            }
        },
        |w| held.loss(w),
        |epoch, w, held| {
            if epoch % 50 == 0 {
                progress(epoch, train.loss(w), held);
            }
        },
    );
    let units = |x: f64| {
        (x / scale)
            .round()
            .clamp(f64::from(i16::MIN), f64::from(i16::MAX)) as i16
    };
    let tables = Tables {
        mine: best[..SHAPES].iter().map(|&x| units(x)).collect(),
        theirs: best[SHAPES..2 * SHAPES].iter().map(|&x| units(x)).collect(),
        threat: best[2 * SHAPES..].iter().map(|&x| units(x)).collect(),
    };
    let report = Report {
        scale,
        base: (train.base_loss(scale), held.base_loss(scale)),
        start: start_loss,
        fitted: (train.loss(&best), held.loss(&best)),
        epoch,
        order: None,
    };
    (tables, report)
}

/// The loss of `tables` (at their own scale) and of the pattern evaluation
/// (at its best scale on these positions) on `samples` (filled by
/// [`Samples::add_shapes`]): how a tables file does on games it was not
/// fitted to.
pub fn losses(samples: &Samples, tables: &Tables, scale: f64) -> (f64, f64) {
    (
        samples.loss(&logits(tables, scale)),
        samples.base_loss(samples.best_base_scale()),
    )
}

/// The fit's weights (in logits) of `tables` whose units are `scale`
/// logits: the two shape tables, then the threat masks.
fn logits(tables: &Tables, scale: f64) -> Vec<f64> {
    let w: Vec<f64> = [&tables.mine, &tables.theirs, &tables.threat]
        .into_iter()
        .flat_map(|t| t.iter().map(move |&v| f64::from(v) * scale))
        .collect();
    debug_assert_eq!(w.len(), WEIGHTS);
    w
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::learn::games::tests::game;
    use inarow_core::GameResult;

    /// Games where black wins by making a long line and white plays far
    /// away: the fit must learn that black's shapes matter.
    #[test]
    fn the_fit_learns_from_results_and_beats_its_start() {
        let mut train = Samples::default();
        let mut held = Samples::default();
        for g in 0..40usize {
            let (row, far) = (2 + g % 10, (2 + g % 10 + 7) % 15);
            let mut moves = Vec::new();
            for k in 0..5usize {
                moves.push((5 + k, row));
                if k < 4 {
                    // White's stones two apart on another row: no threats.
                    moves.push((g / 10 + 3 * k, far));
                }
            }
            let rec = game(&moves, GameResult::Win);
            let into = if g % 5 == 0 { &mut held } else { &mut train };
            into.add_shapes(&rec, &Weights::TUNED);
        }
        assert!(train.len() > 80 && !held.is_empty(), "{}", train.len());
        let start = Tables::zero();
        let (tables, report) = fit(&train, &held, &start, Options::SHAPES, |_, _, _| {});
        assert!(report.fitted.0 < report.start.0, "{report:?}");
        assert!(report.fitted.1 <= report.start.1, "{report:?}");
        // Black is the side to move every other position and always wins:
        // the mover's shapes and the opponent's pull opposite ways.
        assert_ne!(tables.mine, tables.theirs);
    }
}
