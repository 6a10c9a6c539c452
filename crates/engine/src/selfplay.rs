//! The match runner: two engine settings play each opening twice with the
//! colours swapped; the result comes with an Elo estimate, its 95% error
//! bars, and a sequential probability ratio test (SPRT) so that a change to
//! search or evaluation shows it gains before it lands. The referee is the
//! game core: every move is checked there, and an illegal move loses.

use std::time::Duration;

use inarow_core::{Game, Mnk, Outcome, Player, Point, Rule};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::player::board_of;
use crate::search::{Limits, Options, Searcher};

/// An opening: stones in move order (black first), as `(x, y)`.
pub type Opening = Vec<(usize, usize)>;

/// Reads openings, one a line: `x,y` points separated by spaces; `#`
/// starts a comment; blank lines are skipped.
pub fn parse_openings(text: &str, size: usize) -> Result<Vec<Opening>, String> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let mut opening = Opening::new();
        for field in line.split_whitespace() {
            let (x, y) = field
                .split_once(',')
                .and_then(|(x, y)| Some((x.trim().parse().ok()?, y.trim().parse().ok()?)))
                .ok_or_else(|| format!("line {}: expected x,y points, got {field:?}", n + 1))?;
            if x >= size || y >= size {
                return Err(format!(
                    "line {}: point {x},{y} is off the {size}x{size} board",
                    n + 1
                ));
            }
            if opening.contains(&(x, y)) {
                return Err(format!("line {}: point {x},{y} appears twice", n + 1));
            }
            opening.push((x, y));
        }
        out.push(opening);
    }
    if out.is_empty() {
        return Err("no openings in the file".into());
    }
    Ok(out)
}

/// `count` seeded openings of three stones within two points of the centre.
pub fn random_openings(seed: u64, count: usize, size: usize) -> Vec<Opening> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..count)
        .map(|_| random_shape(&mut rng, size, 3))
        .collect()
}

fn random_shape(rng: &mut ChaCha8Rng, size: usize, stones: usize) -> Opening {
    let c = size / 2;
    let mut o: Opening = vec![(c, c)];
    while o.len() < stones {
        let p = (
            c + rng.random_range(0..7) - 3,
            c + rng.random_range(0..7) - 3,
        );
        if !o.contains(&p) {
            o.push(p);
        }
    }
    o
}

/// `count` seeded openings of `stones` stones (alternating from black, near
/// the centre), each the most balanced of a few candidates by a node-limited
/// search, so that the colours alone do not decide the games.
pub fn balanced_openings(seed: u64, count: usize, size: usize, stones: usize) -> Vec<Opening> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut searcher = Searcher::new(Options {
        tt_bytes: 1 << 20,
        ..Options::default()
    });
    let limits = Limits {
        time: None,
        depth: 40,
        nodes: 20_000,
    };
    (0..count)
        .map(|_| {
            (0..6)
                .map(|_| {
                    let o = random_shape(&mut rng, size, stones);
                    let mut game = Mnk::new(size, size, 5, Rule::Freestyle).expect("size");
                    for &(x, y) in &o {
                        game.play(Point::at(y, x, size)).expect("distinct points");
                    }
                    let mut b = board_of(&game, None).expect("live board");
                    searcher.clear();
                    let score = searcher.search(&mut b, limits).score.abs();
                    (score, o)
                })
                .min_by_key(|(score, _)| *score)
                .expect("candidates")
                .1
        })
        .collect()
}

/// How one game ended, from the first contender's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Result3 {
    /// The first contender won.
    Win,
    /// Full board.
    Draw,
    /// The second contender won.
    Loss,
}

/// One finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// The result for the first contender.
    pub result: Result3,
    /// Moves after the opening, as core points.
    pub moves: Vec<Point>,
    /// True if a move was refused by the referee (the mover lost).
    pub illegal: bool,
    /// Longest think of the game.
    pub longest: Duration,
}

/// One side of a match: the engine itself, or another engine driven over a
/// protocol by the caller (the runner does no I/O itself).
pub trait Contender {
    /// Forgets the last game before a new one.
    fn new_game(&mut self);

    /// The move for the side to move in `game`, within `limits`, and how long
    /// it took; an error if the contender cannot answer. `history` is every
    /// stone of the game in the order played (the opening's first), for
    /// contenders that are told moves one at a time.
    fn think(
        &mut self,
        game: &Mnk,
        history: &[Point],
        limits: Limits,
    ) -> Result<(Point, Duration), String>;
}

impl Contender for Searcher {
    fn new_game(&mut self) {
        self.clear();
    }

    fn think(
        &mut self,
        game: &Mnk,
        _history: &[Point],
        limits: Limits,
    ) -> Result<(Point, Duration), String> {
        let mut b = board_of(game, None).map_err(|e| e.to_string())?;
        b.set_to_move(game.to_move());
        let found = self.search(&mut b, limits);
        let (x, y) = b.xy(found.best);
        Ok((Point::at(y, x, game.cols()), found.elapsed))
    }
}

/// Plays one game from `opening` on a `size` board: `first` plays black
/// when `first_is_black`. Both think within `limits` per move. A contender
/// that fails to answer or plays an illegal move loses.
pub fn play_game(
    first: &mut dyn Contender,
    second: &mut dyn Contender,
    first_is_black: bool,
    opening: &[(usize, usize)],
    size: usize,
    limits: Limits,
) -> GameRecord {
    let mut game = Mnk::new(size, size, 5, Rule::Freestyle).expect("a supported size");
    let mut history = Vec::with_capacity(size * size);
    for &(x, y) in opening {
        let p = Point::at(y, x, size);
        game.play(p).expect("a legal opening");
        history.push(p);
    }
    first.new_game();
    second.new_game();
    let mut record = GameRecord {
        result: Result3::Draw,
        moves: Vec::new(),
        illegal: false,
        longest: Duration::ZERO,
    };
    let first_colour = if first_is_black { Player::X } else { Player::O };
    while game.outcome().is_none() {
        let mover = game.to_move();
        let answer = if mover == first_colour {
            first.think(&game, &history, limits)
        } else {
            second.think(&game, &history, limits)
        };
        let legal = match answer {
            Ok((p, took)) => {
                record.longest = record.longest.max(took);
                game.play(p).is_ok().then_some(p)
            }
            Err(_) => None,
        };
        let Some(p) = legal else {
            record.illegal = true;
            record.result = if mover == first_colour {
                Result3::Loss
            } else {
                Result3::Win
            };
            return record;
        };
        record.moves.push(p);
        history.push(p);
    }
    record.result = match game.outcome() {
        Some(Outcome::Win(w)) if w == first_colour => Result3::Win,
        Some(Outcome::Win(_)) => Result3::Loss,
        _ => Result3::Draw,
    };
    record
}

/// Wins, draws and losses of the first contender.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
}

/// Elo difference for an expected score in (0, 1).
pub fn elo_of(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// Expected score for an Elo difference.
pub fn score_of(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

impl Tally {
    /// Adds a result.
    pub fn add(&mut self, r: Result3) {
        match r {
            Result3::Win => self.wins += 1,
            Result3::Draw => self.draws += 1,
            Result3::Loss => self.losses += 1,
        }
    }

    /// Games played.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Mean score per game (win 1, draw 1/2).
    pub fn score(&self) -> f64 {
        (self.wins as f64 + self.draws as f64 / 2.0) / self.games().max(1) as f64
    }

    /// Variance of one game's score.
    fn variance(&self) -> f64 {
        self.variance_with(0.0)
    }

    /// Variance of one game's score with `prior` games of each result
    /// added: a run of identical results has no variance of its own, yet it
    /// is evidence, so the test statistic must not be cancelled by it.
    fn variance_with(&self, prior: f64) -> f64 {
        let (w, d, l) = (
            self.wins as f64 + prior,
            self.draws as f64 + prior,
            self.losses as f64 + prior,
        );
        let n = (w + d + l).max(1.0);
        let s = (w + d / 2.0) / n;
        (w * (1.0 - s).powi(2) + d * (0.5 - s).powi(2) + l * s.powi(2)) / n
    }

    /// Elo estimate with its 95% interval `(low, estimate, high)`; scores
    /// of 0 or 1 are clamped so that the numbers stay finite.
    pub fn elo(&self) -> (f64, f64, f64) {
        let n = self.games().max(1) as f64;
        let clamp = |s: f64| s.clamp(0.5 / n, 1.0 - 0.5 / n);
        let s = self.score();
        let half = 1.96 * (self.variance() / n).sqrt();
        (
            elo_of(clamp(s - half)),
            elo_of(clamp(s)),
            elo_of(clamp(s + half)),
        )
    }

    /// Log-likelihood ratio of "the first contender is `elo1` better"
    /// against "`elo0` better" (normal approximation, as in fishtest).
    pub fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        let var = self.variance_with(0.5);
        if self.games() == 0 {
            return 0.0;
        }
        let (s0, s1) = (score_of(elo0), score_of(elo1));
        let s = self.score();
        self.games() as f64 * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var)
    }
}

/// The SPRT verdict so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Evidence for `elo1`: accept the change.
    Accept,
    /// Evidence for `elo0`: reject the change.
    Reject,
    /// Not enough evidence yet.
    Continue,
}

/// SPRT with error rates `alpha` = `beta` = 0.05.
pub fn sprt(tally: &Tally, elo0: f64, elo1: f64) -> (f64, Verdict) {
    let llr = tally.llr(elo0, elo1);
    let (lower, upper) = ((0.05f64 / 0.95).ln(), (0.95f64 / 0.05).ln());
    let verdict = if llr >= upper {
        Verdict::Accept
    } else if llr <= lower {
        Verdict::Reject
    } else {
        Verdict::Continue
    };
    (llr, verdict)
}

/// Reads search options from `key=value` pairs separated by commas:
/// `root_vcf`, `vcf_defence`, `root_vct` and `lmr` (on/off), `leaf_vcf` (node budget), `width`,
/// `tt_mb`. An empty text gives the defaults.
pub fn parse_options(text: &str) -> Result<Options, String> {
    let mut o = Options::default();
    for pair in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (k, v) = pair
            .split_once('=')
            .ok_or_else(|| format!("expected key=value, got {pair:?}"))?;
        let flag = || match v {
            "on" | "1" | "true" => Ok(true),
            "off" | "0" | "false" => Ok(false),
            _ => Err(format!("{k} must be on or off, got {v:?}")),
        };
        let num = || {
            v.parse::<u64>()
                .map_err(|_| format!("{k} needs a whole number, got {v:?}"))
        };
        match k {
            "root_vcf" => o.root_vcf = flag()?,
            "lmr" => o.lmr = flag()?,
            "vcf_defence" => o.vcf_defence = flag()?,
            "root_vct" => o.root_vct = flag()?,
            "vct_defence" => o.vct_defence = flag()?,
            "leaf_vcf" => o.leaf_vcf_nodes = num()?,
            "width" => o.width = (num()? as usize).max(1),
            "tt_mb" => o.tt_bytes = (num()? as usize).max(1) << 20,
            "mover" => o.mover_weight = num()?.clamp(1, 100) as i32,
            "soft" => o.soft_percent = num()?.min(100) as u32,
            _ => {
                return Err(format!(
                    "unknown option {k:?} (root_vcf, vcf_defence, root_vct, vct_defence, lmr, leaf_vcf, width, tt_mb, soft, mover)"
                ));
            }
        }
    }
    Ok(o)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_and_sprt_figures() {
        let even = Tally {
            wins: 50,
            draws: 0,
            losses: 50,
        };
        let (lo, e, hi) = even.elo();
        assert!(e.abs() < 1e-9 && lo < -60.0 && hi > 60.0);
        let strong = Tally {
            wins: 150,
            draws: 0,
            losses: 50,
        };
        assert!((strong.elo().1 - 190.85).abs() < 0.1);
        assert_eq!(sprt(&strong, 0.0, 10.0).1, Verdict::Accept);
        let weak = Tally {
            wins: 50,
            draws: 0,
            losses: 150,
        };
        assert_eq!(sprt(&weak, 0.0, 10.0).1, Verdict::Reject);
        assert_eq!(
            sprt(
                &Tally {
                    wins: 3,
                    draws: 1,
                    losses: 2
                },
                0.0,
                10.0
            )
            .1,
            Verdict::Continue
        );
        assert!((score_of(elo_of(0.3)) - 0.3).abs() < 1e-12);
        let perfect = Tally {
            wins: 10,
            draws: 0,
            losses: 0,
        };
        assert!(perfect.elo().1.is_finite());
    }

    #[test]
    fn a_run_of_one_result_is_evidence() {
        let run = |wins, losses| Tally {
            wins,
            draws: 0,
            losses,
        };
        let (llr, verdict) = sprt(&run(10, 0), 0.0, 10.0);
        assert!(llr > 0.5 && verdict == Verdict::Continue, "{llr}");
        assert!(run(4, 0).llr(0.0, 10.0) > 0.0);
        assert_eq!(sprt(&run(40, 0), 0.0, 10.0).1, Verdict::Accept);
        assert_eq!(sprt(&run(0, 40), 0.0, 10.0).1, Verdict::Reject);
        assert_eq!(Tally::default().llr(0.0, 10.0), 0.0);
    }

    #[test]
    fn options_and_openings_parse_or_explain() {
        let o = parse_options("root_vcf=off, width=12,leaf_vcf=0,soft=80").unwrap();
        assert!(!o.root_vcf && o.width == 12 && o.leaf_vcf_nodes == 0 && o.soft_percent == 80);
        assert_eq!(parse_options("soft=250").unwrap().soft_percent, 100);
        assert_eq!(parse_options("").unwrap(), Options::default());
        assert!(
            parse_options("speed=9")
                .unwrap_err()
                .contains("unknown option")
        );
        assert!(
            parse_options("lmr=maybe")
                .unwrap_err()
                .contains("on or off")
        );
        let ops = parse_openings("# comment\n7,7 8,8 6,8\n\n7,7 7,8\n", 15).unwrap();
        assert_eq!(
            ops,
            vec![vec![(7, 7), (8, 8), (6, 8)], vec![(7, 7), (7, 8)]]
        );
        assert!(
            parse_openings("7,7 15,0", 15)
                .unwrap_err()
                .contains("off the")
        );
        assert!(parse_openings("7,7 7,7", 15).unwrap_err().contains("twice"));
        assert!(
            parse_openings("7;7", 15)
                .unwrap_err()
                .contains("expected x,y")
        );
        assert!(parse_openings("", 15).is_err());
        let r = random_openings(3, 5, 15);
        assert_eq!(r.len(), 5);
        assert!(r.iter().all(|o| {
            o.len() == 3
                && o.iter()
                    .all(|&(x, y)| (4..=10).contains(&x) && (4..=10).contains(&y))
        }));
        let balanced = balanced_openings(4, 2, 15, 4);
        assert_eq!(balanced, balanced_openings(4, 2, 15, 4), "seeded");
        for o in &balanced {
            assert_eq!(o.len(), 4);
            assert!(o.iter().enumerate().all(|(k, p)| !o[k + 1..].contains(p)));
        }
    }
}
