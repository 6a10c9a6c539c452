//! Fixed-node self-play for the search: a match between two settings, and
//! SPSA tuning of the selective search's numbers ([`Params`]) the way chess
//! engines tune theirs in their test frameworks: each round plays the
//! settings nudged up against the same nudged down, every number at once,
//! and moves each towards the side that scored.
//!
//! ```text
//! cargo run --release -p inarow-engine --example spsa -- match A B [GAMES] [NODES|MSms]
//! cargo run --release -p inarow-engine --example spsa -- tune ROUNDS PAIRS NODES [NAMES] [FROM]
//! ```
//!
//! `A` and `B` are settings as `inarow selfplay --a` takes them
//! (`lmr_base=40,...`; `-` for the defaults). Games start
//! from seeded three-stone openings near the centre, each played twice with
//! the colours swapped, on two threads; a game not won when the board is
//! full is a draw. `tune` tunes the comma-separated NAMES (default: all but
//! the on/off ones) starting from FROM (a settings file, `name=value` lines;
//! default: the defaults), printing the settings after every round in the
//! form `--settings` and `FROM` read.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use inarow_core::{Game, Mnk};
use inarow_engine::player::board_of;
use inarow_engine::search::{Limits, Options, Params, Request, Searcher};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

#[path = "../tests/support/suite.rs"]
mod suite;

/// One game from opening `seed` between `first` and `second`, `first`
/// taking the side to move after the opening. Returns `first`'s score.
fn game(first: &mut Searcher, second: &mut Searcher, seed: u64, limits: Limits) -> f64 {
    let mut g = Mnk::gomoku();
    for p in suite::three_near_the_centre(seed) {
        g.play_unchecked(p);
    }
    let mut b = board_of(&g, None).expect("a live opening");
    let first_side = b.to_move();
    first.clear();
    second.clear();
    while b.empty_count() > 0 {
        let mover = b.to_move();
        let s = if mover == first_side {
            &mut *first
        } else {
            &mut *second
        };
        let found = s.search(&mut b, &mut Request::new(limits));
        b.play_unchecked(found.best);
        if b.last_move_won() {
            return if mover == first_side { 1.0 } else { 0.0 };
        }
    }
    0.5
}

/// Plays `pairs` openings twice each, colours swapped, on two threads;
/// returns A's score per game, in opening order (A first, then B first).
fn duel(a: Options, b: Options, pairs: usize, limits: Limits, seed: u64) -> Vec<f64> {
    let next = AtomicUsize::new(0);
    let results = Mutex::new(vec![0.0; 2 * pairs]);
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| {
                let (mut sa, mut sb) = (Searcher::new(a), Searcher::new(b));
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    if k >= 2 * pairs {
                        break;
                    }
                    let opening = seed.wrapping_add((k / 2) as u64);
                    let score = if k % 2 == 0 {
                        game(&mut sa, &mut sb, opening, limits)
                    } else {
                        1.0 - game(&mut sb, &mut sa, opening, limits)
                    };
                    results.lock().expect("no panics")[k] = score;
                }
            });
        }
    });
    results.into_inner().expect("no panics")
}

/// Elo difference of a score share and its 95% margin from the spread of
/// the pair results.
fn elo(scores: &[f64]) -> (f64, f64) {
    let n = scores.len() as f64;
    let mean = scores.iter().sum::<f64>() / n;
    let to_elo = |s: f64| -400.0 * (1.0 / s.clamp(1e-3, 1.0 - 1e-3) - 1.0).log10();
    let pairs: Vec<f64> = scores
        .chunks(2)
        .map(|c| c.iter().sum::<f64>() / 2.0)
        .collect();
    let var = pairs.iter().map(|p| (p - mean).powi(2)).sum::<f64>() / pairs.len().max(2) as f64;
    let margin = 1.96 * (var / pairs.len() as f64).sqrt();
    (
        to_elo(mean),
        (to_elo(mean + margin) - to_elo(mean - margin)) / 2.0,
    )
}

fn options(text: &str) -> Options {
    let text = if text == "-" { "" } else { text };
    text.parse()
        .unwrap_or_else(|e| panic!("settings {text:?}: {e}"))
}

fn tune(rounds: usize, pairs: usize, nodes: u64, names: Vec<String>, from: Params) {
    let rows: Vec<(String, f64, f64, f64)> = names
        .iter()
        .map(|n| {
            let row = Params::TABLE
                .iter()
                .find(|r| r.0 == n)
                .unwrap_or_else(|| panic!("unknown setting {n:?}"));
            let value = f64::from(from.get(n).expect("a row"));
            (n.clone(), value, f64::from(row.2), f64::from(row.3))
        })
        .collect();
    let mut theta: Vec<f64> = rows.iter().map(|r| r.1).collect();
    let steps: Vec<f64> = rows.iter().map(|r| ((r.3 - r.2) / 16.0).max(1.0)).collect();
    let mut rng = ChaCha8Rng::seed_from_u64(0x5e5a);
    let with = |theta: &[f64]| {
        let mut p = from;
        for (row, &v) in rows.iter().zip(theta) {
            p.set(&row.0, v.round().clamp(row.2, row.3) as i32)
                .expect("clamped to the row");
        }
        Options {
            params: p,
            ..Options::default()
        }
    };
    for round in 0..rounds {
        // The step shrinks slowly, the gain faster, as SPSA prescribes.
        let c = 1.0 / ((round + 1) as f64).powf(0.101);
        let gain = 1.5 / ((round + 1) as f64 / 10.0 + 1.0).powf(0.602);
        let delta: Vec<f64> = (0..theta.len())
            .map(|_| if rng.random::<bool>() { 1.0 } else { -1.0 })
            .collect();
        let plus: Vec<f64> = (0..theta.len())
            .map(|i| theta[i] + c * steps[i] * delta[i])
            .collect();
        let minus: Vec<f64> = (0..theta.len())
            .map(|i| theta[i] - c * steps[i] * delta[i])
            .collect();
        let scores = duel(
            with(&plus),
            with(&minus),
            pairs,
            Limits::nodes(nodes),
            1_000 * round as u64,
        );
        let r = scores.iter().map(|s| 2.0 * s - 1.0).sum::<f64>() / scores.len() as f64;
        for i in 0..theta.len() {
            theta[i] = (theta[i] + gain * c * steps[i] * r * delta[i]).clamp(rows[i].2, rows[i].3);
        }
        println!(
            "# round {} of {rounds}: plus scored {:.3}",
            round + 1,
            (r + 1.0) / 2.0
        );
        print!("{}", with(&theta).params.write());
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |k: usize, default: u64| -> u64 {
        args.get(k).and_then(|s| s.parse().ok()).unwrap_or(default)
    };
    match args.first().map(String::as_str) {
        Some("match") if args.len() >= 3 => {
            let (a, b) = (options(&args[1]), options(&args[2]));
            let games = arg(3, 100) as usize;
            // A budget ending in "ms" is time a move: for searches whose
            // nodes cost differently.
            let budget = args.get(4).map_or("10000", String::as_str);
            let limits = match budget.strip_suffix("ms") {
                Some(ms) => Limits::time(std::time::Duration::from_millis(
                    ms.parse().expect("milliseconds"),
                )),
                None => Limits::nodes(budget.parse().expect("nodes a move")),
            };
            let scores = duel(a, b, games.div_ceil(2), limits, 7_000);
            let won = scores.iter().filter(|&&s| s == 1.0).count();
            let drawn = scores.iter().filter(|&&s| s == 0.5).count();
            let (e, margin) = elo(&scores);
            println!(
                "A {} - B {}: {won} won, {drawn} drawn, {} lost of {} at {budget} a move: {:.1}%, {e:+.0} Elo ± {margin:.0}",
                args[1],
                args[2],
                scores.len() - won - drawn,
                scores.len(),
                100.0 * scores.iter().sum::<f64>() / scores.len() as f64
            );
        }
        Some("tune") if args.len() >= 4 => {
            let names: Vec<String> = match args.get(4).filter(|s| s.as_str() != "-") {
                Some(list) => list.split(',').map(str::to_string).collect(),
                None => Params::TABLE
                    .iter()
                    .filter(|r| r.3 - r.2 > 1)
                    .map(|r| r.0.to_string())
                    .collect(),
            };
            let from = match args.get(5) {
                Some(path) => Params::read(
                    &std::fs::read_to_string(path)
                        .unwrap_or_else(|e| panic!("cannot read {path}: {e}")),
                )
                .unwrap_or_else(|e| panic!("{path}: {e}")),
                None => Params::default(),
            };
            tune(
                arg(1, 10) as usize,
                arg(2, 8) as usize,
                arg(3, 5_000),
                names,
                from,
            );
        }
        _ => {
            eprintln!(
                "usage: spsa match A B [GAMES] [NODES] | spsa tune ROUNDS PAIRS NODES [NAMES] [FROM]"
            );
            std::process::exit(2);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_even_score_is_no_elo_and_a_sweep_is_many() {
        let (e, _) = elo(&[1.0, 0.0, 0.5, 0.5]);
        assert!(e.abs() < 1e-9);
        let (e, _) = elo(&[1.0, 1.0, 1.0, 0.5]);
        assert!(e > 300.0, "{e}");
    }

    #[test]
    fn a_game_ends_with_a_result_for_the_first_player() {
        let o = Options {
            tt_bytes: 1 << 20,
            ..Options::default()
        };
        let (mut a, mut b) = (Searcher::new(o), Searcher::new(o));
        let s = game(&mut a, &mut b, 3, Limits::nodes(200));
        assert!([0.0, 0.5, 1.0].contains(&s));
    }
}
