//! Fitting the learned evaluation ([`crate::learned`]) to games: the games
//! file that self-play writes (every position of a game is its moves so
//! far, so a game of sixty moves is sixty positions in 130 bytes), the
//! positions' features, and logistic regression of the game results on
//! them (binary cross-entropy, a held-out set, the scale fitted too).
//! Pure: the fronts read and write the files.

use inarow_core::{GameResult, Player, Rule};

use crate::board::Board;
use crate::eval::{self, Eval, Evaluator, Weights, decided};
use crate::learned::{MASKS, Tables};
use crate::pattern::{self, SHAPES, Threat};

/// The games file's first bytes.
const GAMES_MAGIC: &[u8; 8] = b"INAROWGM";
/// The layout of the games file this build reads and writes.
const GAMES_VERSION: u16 = 1;

/// One game of the games file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The rule it was played under.
    pub rule: Rule,
    /// The board's side.
    pub size: u8,
    /// How many of the moves were the opening's (not chosen by a player).
    pub opening: u8,
    /// The result for black.
    pub black: GameResult,
    /// Every stone in the order played, as `(x, y)`, black first.
    pub moves: Vec<(u8, u8)>,
}

/// The games file's header, for a new file.
pub fn games_header() -> Vec<u8> {
    let mut out = GAMES_MAGIC.to_vec();
    out.extend_from_slice(&GAMES_VERSION.to_le_bytes());
    out
}

/// Appends `game` to a games file's bytes: rule, size, opening, result
/// for black, the number of moves (two bytes), and the moves (two bytes
/// each).
pub fn write_game(out: &mut Vec<u8>, game: &GameRecord) {
    out.push(match game.rule {
        Rule::Freestyle => 0,
        Rule::Exact => 1,
        Rule::Renju => 2,
    });
    out.push(game.size);
    out.push(game.opening);
    out.push(match game.black {
        GameResult::Loss => 0,
        GameResult::Draw => 1,
        GameResult::Win => 2,
    });
    out.extend_from_slice(&(game.moves.len() as u16).to_le_bytes());
    for &(x, y) in &game.moves {
        out.extend_from_slice(&[x, y]);
    }
}

/// Why a games file cannot be read, in one line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GamesError {
    /// The file does not start as a games file does.
    #[error("not a games file (written by `inarow eval games`)")]
    NotGames,
    /// A games file of another version.
    #[error("games file of version {0}, this build reads version {GAMES_VERSION}")]
    Version(u16),
    /// The file ends inside the header of game `n` (from 1).
    #[error("game {0}: the file ends inside its header")]
    Header(usize),
    /// Game `n` names a rule by a number that is none.
    #[error("game {0}: unknown rule {1}")]
    Rule(usize, u8),
    /// Game `n` names a result by a number that is none.
    #[error("game {0}: unknown result {1}")]
    Result(usize, u8),
    /// The file ends inside the moves of game `n`.
    #[error("game {0}: the file ends inside its moves")]
    Moves(usize),
    /// Game `n` cannot be replayed (a move off the board, on a stone,
    /// after a five; an opening longer than the game), as the board says.
    #[error("game {0}: {1}")]
    Replay(usize, String),
}

/// Reads a games file, or says in one line where and what is wrong. Every
/// game is replayed: a move off the board or on a stone, or a game that
/// goes on after a five, is refused.
pub fn read_games(bytes: &[u8]) -> Result<Vec<GameRecord>, GamesError> {
    if bytes.len() < 10 || &bytes[..8] != GAMES_MAGIC {
        return Err(GamesError::NotGames);
    }
    let version = u16::from_le_bytes([bytes[8], bytes[9]]);
    if version != GAMES_VERSION {
        return Err(GamesError::Version(version));
    }
    let mut games = Vec::new();
    let mut at = 10;
    while at < bytes.len() {
        let n = games.len() + 1;
        let head = bytes.get(at..at + 6).ok_or(GamesError::Header(n))?;
        let rule = match head[0] {
            0 => Rule::Freestyle,
            1 => Rule::Exact,
            2 => Rule::Renju,
            r => return Err(GamesError::Rule(n, r)),
        };
        let size = head[1];
        let black = match head[3] {
            0 => GameResult::Loss,
            1 => GameResult::Draw,
            2 => GameResult::Win,
            r => return Err(GamesError::Result(n, r)),
        };
        let count = usize::from(u16::from_le_bytes([head[4], head[5]]));
        at += 6;
        let moves: Vec<(u8, u8)> = bytes
            .get(at..at + 2 * count)
            .ok_or(GamesError::Moves(n))?
            .chunks_exact(2)
            .map(|c| (c[0], c[1]))
            .collect();
        at += 2 * count;
        let game = GameRecord {
            rule,
            size,
            opening: head[2],
            black,
            moves,
        };
        replay(&game, |_, _| {}).map_err(|e| GamesError::Replay(n, e))?;
        games.push(game);
    }
    Ok(games)
}

/// Replays `game`, calling `each` with every position before a move and
/// the number of moves played so far.
fn replay(game: &GameRecord, each: impl FnMut(&Board, usize)) -> Result<(), String> {
    let b = Board::with_rule(usize::from(game.size), game.rule).map_err(|e| e.to_string())?;
    replay_on(b, game, each)
}

/// [`replay`] on `b`, an empty board of the game's size and rule.
fn replay_on(
    mut b: Board,
    game: &GameRecord,
    mut each: impl FnMut(&Board, usize),
) -> Result<(), String> {
    if usize::from(game.opening) > game.moves.len() {
        return Err("an opening longer than the game".into());
    }
    for (k, &(x, y)) in game.moves.iter().enumerate() {
        if k > 0 && b.last_move_won() {
            return Err(format!("move {} comes after a five", k + 1));
        }
        each(&b, k);
        b.play(usize::from(x), usize::from(y))
            .map_err(|e| format!("move {}: {e}", k + 1))?;
    }
    Ok(())
}

/// Positions of the games as the fit sees them, for one rule.
#[derive(Clone, Debug, Default)]
pub struct Samples {
    /// `(feature, count)` of every position, one after another: features
    /// below [`SHAPES`] are the side to move's point shapes, the next
    /// [`SHAPES`] the opponent's (counted negative, as they are subtracted).
    features: Vec<(u16, i16)>,
    /// Per position: where its features end, its threat mask, the result
    /// for the side to move (1, ½, 0), and the pattern evaluation's score of it.
    positions: Vec<Position>,
}

#[derive(Clone, Copy, Debug)]
struct Position {
    end: u32,
    mask: u16,
    result: f32,
    base: f32,
}

/// Weights of the fit: the two shape tables, then the threat masks.
const WEIGHTS: usize = 2 * SHAPES + MASKS;

impl Samples {
    /// How many positions.
    pub fn len(&self) -> usize {
        self.positions.len()
    }

    /// True if there are none.
    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
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
    }

    /// Adds the positions of `game` that the evaluation is asked about:
    /// from the end of the opening on, those the threats do not decide and
    /// where the side to move need not block a five. `base` is the pattern
    /// evaluation, to compare with.
    pub fn add_game(&mut self, game: &GameRecord, base: &Weights) {
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
                        self.features.push(((side * SHAPES + s) as u16, sign * n));
                    }
                }
            }
            let result = result_for(game, me);
            self.positions.push(Position {
                end: self.features.len() as u32,
                mask: eval::threat_mask(b, me) as u16,
                result,
                base: eval::evaluate(b, base) as f32,
            });
        });
    }

    /// Each position's features, mask, result and base score.
    fn each(&self) -> impl Iterator<Item = (&[(u16, i16)], usize, f64, f64)> + '_ {
        let mut start = 0;
        self.positions.iter().map(move |p| {
            let f = &self.features[start..p.end as usize];
            start = p.end as usize;
            (
                f,
                usize::from(p.mask),
                f64::from(p.result),
                f64::from(p.base),
            )
        })
    }

    /// Mean cross-entropy of `sigmoid(scale * base score)`.
    fn base_loss(&self, scale: f64) -> f64 {
        mean(
            self.each().map(|(_, _, y, base)| entropy(y, scale * base)),
            self.len(),
        )
    }

    /// Mean cross-entropy of the model `w` (in logits).
    fn loss(&self, w: &[f64]) -> f64 {
        mean(
            self.each().map(|(f, m, y, _)| entropy(y, logit(f, m, w))),
            self.len(),
        )
    }
}

/// Whether the position before move `k` of `game` is one the evaluation
/// is asked about: past the opening, not decided by the threats, and no
/// five of the opponent's to block.
pub(crate) fn sampled(game: &GameRecord, b: &Board, k: usize) -> bool {
    k >= usize::from(game.opening)
        && decided(b, 0).is_none()
        && b.threat_count(b.to_move().opponent(), Threat::Five) == 0
}

/// The game's result for `me`: 1, ½ or 0.
pub(crate) fn result_for(game: &GameRecord, me: Player) -> f32 {
    match (game.black, me) {
        (GameResult::Draw, _) => 0.5,
        (GameResult::Win, Player::X) | (GameResult::Loss, Player::O) => 1.0,
        _ => 0.0,
    }
}

/// Every position of `games` a fit samples, scored by `eval` for the side
/// to move (in the engine's units), with the game's result for it: how any
/// evaluation does on games, fitted here or not.
pub fn scored(games: &[GameRecord], eval: &Eval) -> Vec<(f32, f32)> {
    let mut out = Vec::new();
    for game in games {
        let Ok(mut b) = Board::with_rule(usize::from(game.size), game.rule) else {
            continue;
        };
        match eval {
            Eval::Learned(tables) => b.set_learned(tables),
            Eval::Fine(tables, _) => b.set_fine(Some(tables)),
            Eval::Pattern(_) => {}
        }
        let _ = replay_on(b, game, |b, k| {
            if sampled(game, b, k) {
                out.push((eval.evaluate(b) as f32, result_for(game, b.to_move())));
            }
        });
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

#[inline]
fn logit(features: &[(u16, i16)], mask: usize, w: &[f64]) -> f64 {
    features
        .iter()
        .map(|&(f, n)| w[usize::from(f)] * f64::from(n))
        .sum::<f64>()
        + w[2 * SHAPES + mask]
}

pub(crate) fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// Cross-entropy of result `y` under logit `z`.
pub(crate) fn entropy(y: f64, z: f64) -> f64 {
    let p = sigmoid(z).clamp(1e-9, 1.0 - 1e-9);
    -(y * p.ln() + (1.0 - y) * (1.0 - p).ln())
}

/// How a fit is run.
#[derive(Clone, Copy, Debug)]
pub struct FitOptions {
    /// Passes over the training positions at most.
    pub epochs: usize,
    /// Adam's step size, in logits.
    pub rate: f64,
    /// Pull of each weight towards where it started (L2), per position.
    pub pull: f64,
}

impl Default for FitOptions {
    fn default() -> Self {
        FitOptions {
            epochs: 400,
            rate: 0.02,
            pull: 1e-4,
        }
    }
}

/// What a fit found: the losses before and after, on the training and the
/// held-out positions.
#[derive(Clone, Copy, Debug)]
pub struct FitReport {
    /// The logistic scale that best fits the pattern evaluation to the
    /// training positions: the fitted tables are in its units.
    pub scale: f64,
    /// Today's evaluation's loss, training and held out.
    pub base: (f64, f64),
    /// The starting tables' loss, training and held out.
    pub start: (f64, f64),
    /// The fitted tables' loss, training and held out.
    pub fitted: (f64, f64),
    /// The epoch whose held-out loss was lowest (its tables are returned).
    pub best_epoch: usize,
}

/// Fits tables to `train`, starting from `start` and keeping the epoch
/// whose loss on `held` is lowest. `base` is the pattern evaluation (the tuned weights): its best
/// logistic scale is found first, and the tables come out in the units it
/// scores in, so the search's margins keep their meaning.
pub fn fit(
    train: &Samples,
    held: &Samples,
    start: &Tables,
    options: FitOptions,
    mut progress: impl FnMut(usize, f64, f64),
) -> (Tables, FitReport) {
    let scale = best_scale(train);
    let mut w = logits(start, scale);
    let origin = w.clone();
    let start_loss = (train.loss(&w), held.loss(&w));
    let (mut best, mut best_loss, mut best_epoch) = (w.clone(), start_loss.1, 0);
    let (mut m, mut v) = (vec![0.0f64; WEIGHTS], vec![0.0f64; WEIGHTS]);
    let (b1, b2) = (0.9f64, 0.999f64);
    let n = train.len().max(1) as f64;
    let mut g = vec![0.0f64; WEIGHTS];
    for epoch in 1..=options.epochs {
        g.fill(0.0);
        for (f, mask, y, _) in train.each() {
            let d = sigmoid(logit(f, mask, &w)) - y;
            for &(k, c) in f {
                g[usize::from(k)] += d * f64::from(c);
            }
            g[2 * SHAPES + mask] += d;
        }
        let t = epoch as i32;
        for i in 0..WEIGHTS {
            let gi = g[i] / n + options.pull * (w[i] - origin[i]);
            m[i] = b1 * m[i] + (1.0 - b1) * gi;
            v[i] = b2 * v[i] + (1.0 - b2) * gi * gi;
            let step = m[i] / (1.0 - b1.powi(t)) / ((v[i] / (1.0 - b2.powi(t))).sqrt() + 1e-9);
            w[i] -= options.rate * step;
        }
        let held_loss = held.loss(&w);
        if held_loss < best_loss {
            (best, best_loss, best_epoch) = (w.clone(), held_loss, epoch);
        }
        if epoch % 50 == 0 {
            progress(epoch, train.loss(&w), held_loss);
        }
    }
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
    let report = FitReport {
        scale,
        base: (train.base_loss(scale), held.base_loss(scale)),
        start: start_loss,
        fitted: (train.loss(&best), best_loss),
        best_epoch,
    };
    (tables, report)
}

/// The scale `k` that best fits `sigmoid(k * base score)` to the results,
/// by golden-section search on `ln k`.
fn best_scale(train: &Samples) -> f64 {
    least(|scale| train.base_loss(scale))
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

/// The loss of `tables` (at their own scale) and of the pattern evaluation
/// (at its best scale on these positions) on `samples`: how a tables
/// file does on games it was not fitted to.
pub fn losses(samples: &Samples, tables: &Tables, scale: f64) -> (f64, f64) {
    (
        samples.loss(&logits(tables, scale)),
        samples.base_loss(best_scale(samples)),
    )
}

/// The fit's weights (in logits) of `tables` whose units are `scale`
/// logits: the two shape tables, then the threat masks.
fn logits(tables: &Tables, scale: f64) -> Vec<f64> {
    [&tables.mine, &tables.theirs, &tables.threat]
        .into_iter()
        .flat_map(|t| t.iter().map(move |&v| f64::from(v) * scale))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(moves: &[(u8, u8)], black: GameResult) -> GameRecord {
        GameRecord {
            rule: Rule::Freestyle,
            size: 15,
            opening: 1,
            black,
            moves: moves.to_vec(),
        }
    }

    #[test]
    fn games_files_round_trip_and_refuse_bad_games() {
        let a = game(&[(7, 7), (8, 8), (7, 8)], GameResult::Win);
        let b = GameRecord {
            rule: Rule::Exact,
            ..game(&[(1, 1)], GameResult::Draw)
        };
        let mut bytes = games_header();
        write_game(&mut bytes, &a);
        write_game(&mut bytes, &b);
        assert_eq!(read_games(&bytes).unwrap(), vec![a.clone(), b]);
        let cut = read_games(&bytes[..bytes.len() - 1]).unwrap_err();
        assert_eq!(cut, GamesError::Moves(2));
        assert_eq!(cut.to_string(), "game 2: the file ends inside its moves");
        let mut twice = games_header();
        write_game(&mut twice, &game(&[(7, 7), (7, 7)], GameResult::Win));
        let e = read_games(&twice).unwrap_err().to_string();
        assert!(e.contains("game 1: move 2") && e.contains("taken"), "{e}");
        let mut off = games_header();
        write_game(&mut off, &game(&[(15, 0)], GameResult::Win));
        assert!(
            read_games(&off)
                .unwrap_err()
                .to_string()
                .contains("off the board")
        );
        assert_eq!(
            read_games(b"INAROWEV\x01\x00").unwrap_err(),
            GamesError::NotGames
        );
    }

    /// Games where black wins by making a long line and white plays far
    /// away: the fit must learn that black's shapes matter.
    #[test]
    fn the_fit_learns_from_results_and_beats_its_start() {
        let mut train = Samples::default();
        let mut held = Samples::default();
        for g in 0..40u8 {
            let (row, far) = (2 + g % 10, (2 + g % 10 + 7) % 15);
            let mut moves = Vec::new();
            for k in 0..5u8 {
                moves.push((5 + k, row));
                if k < 4 {
                    // White's stones two apart on another row: no threats.
                    moves.push((g / 10 + 3 * k, far));
                }
            }
            let rec = game(&moves, GameResult::Win);
            let into = if g % 5 == 0 { &mut held } else { &mut train };
            into.add_game(&rec, &Weights::TUNED);
        }
        assert!(train.len() > 80 && !held.is_empty(), "{}", train.len());
        let start = Tables::zero();
        let (tables, report) = fit(&train, &held, &start, FitOptions::default(), |_, _, _| {});
        assert!(report.fitted.0 < report.start.0, "{report:?}");
        assert!(report.fitted.1 <= report.start.1, "{report:?}");
        // Black is the side to move every other position and always wins:
        // the mover's shapes and the opponent's pull opposite ways.
        assert_ne!(tables.mine, tables.theirs);
    }
}
