//! Fits the evaluation's weights to game results (Texel's method): every
//! quiet position of the games gets the features the evaluation weighs
//! (each side's pattern and threat counts) and the game's result for the
//! side to move; a logistic model `P(win) = 1 / (1 + e^(-k * eval))` is fitted by
//! gradient descent from the hand-set weights, and the fitted weights are
//! printed as Rust. Games come from `inarow selfplay --games-file FILE`.
//!
//! `cargo run --release -p inarow-engine --example tune -- GAMES...`

use inarow_core::Player;
use inarow_engine::board::Board;
use inarow_engine::eval::{MOVER_WEIGHT, Weights, decided};
use inarow_engine::pattern::{PATTERNS, Pattern, THREATS, Threat};

/// Features of one position: the mover's pattern and threat counts, then
/// the opponent's.
const FEATURES: usize = 2 * (PATTERNS + THREATS);

/// Descent steps: the held-out loss stops improving at about 300.
const STEPS: i32 = 300;

struct Sample {
    x: [f64; FEATURES],
    /// The game's result for the side to move: 1, 0.5 or 0.
    y: f64,
}

fn features(b: &Board) -> [f64; FEATURES] {
    let mut x = [0.0; FEATURES];
    let me = b.to_move();
    let counts = b.pattern_counts();
    for (side, colour) in [me, me.opponent()].into_iter().enumerate() {
        let base = side * (PATTERNS + THREATS);
        for k in 0..PATTERNS {
            x[base + k] = counts[colour.index()][k] as f64;
        }
        for (k, t) in Threat::ALL.iter().enumerate() {
            x[base + PATTERNS + k] = b.threat_count(colour, *t) as f64;
        }
    }
    x
}

fn point(field: &str) -> Result<(usize, usize), String> {
    let (x, y) = field
        .split_once(',')
        .ok_or_else(|| format!("expected x,y, got {field:?}"))?;
    let n = |s: &str| {
        s.parse::<usize>()
            .map_err(|_| format!("bad coordinate {s:?}"))
    };
    Ok((n(x)?, n(y)?))
}

/// The quiet positions of one game line, with the result for the mover.
fn samples_of(line: &str, out: &mut Vec<Sample>) -> Result<(), String> {
    let (head, moves) = line.split_once('|').ok_or("no `|` in the line")?;
    let mut fields = head.split_whitespace();
    let _pair = fields.next().ok_or("no pair number")?;
    let colour = fields.next().ok_or("no colour")?;
    let result = match fields.next().ok_or("no result")? {
        "1" => 1.0,
        "=" => 0.5,
        "0" => 0.0,
        r => return Err(format!("bad result {r:?}")),
    };
    let black_result = if colour == "black" {
        result
    } else {
        1.0 - result
    };
    let mut b = Board::new(15).map_err(|e| e.to_string())?;
    for f in fields {
        let (x, y) = point(f)?;
        b.pos_at(x, y)
            .and_then(|p| b.play(p))
            .map_err(|e| e.to_string())?;
    }
    for f in moves.split_whitespace() {
        let me = b.to_move();
        if decided(&b, 0).is_none() && b.threat_count(me.opponent(), Threat::Five) == 0 {
            let y = if me == Player::X {
                black_result
            } else {
                1.0 - black_result
            };
            out.push(Sample { x: features(&b), y });
        }
        let (x, y) = point(f)?;
        b.pos_at(x, y)
            .and_then(|p| b.play(p))
            .map_err(|e| e.to_string())?;
    }
    Ok(())
}

fn to_vec(w: &Weights) -> [f64; FEATURES] {
    let mut v = [0.0; FEATURES];
    let s = w.scale as f64;
    for k in 0..PATTERNS {
        v[k] = w.mine[k] as f64 / s;
        v[PATTERNS + THREATS + k] = -(w.theirs[k] as f64) / s;
    }
    for k in 0..THREATS {
        v[PATTERNS + k] = w.mine_threat[k] as f64 / s;
        v[2 * PATTERNS + THREATS + k] = -(w.theirs_threat[k] as f64) / s;
    }
    v
}

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// Mean cross-entropy of the model `sigmoid(k * w.x)` on `data`.
fn loss(data: &[Sample], w: &[f64; FEATURES], k: f64) -> f64 {
    let eps = 1e-9;
    data.iter()
        .map(|s| {
            let e: f64 = s.x.iter().zip(w).map(|(a, b)| a * b).sum();
            let p = sigmoid(k * e).clamp(eps, 1.0 - eps);
            -(s.y * p.ln() + (1.0 - s.y) * (1.0 - p).ln())
        })
        .sum::<f64>()
        / data.len() as f64
}

fn main() -> Result<(), String> {
    let files: Vec<String> = std::env::args().skip(1).collect();
    if files.is_empty() {
        return Err("usage: tune GAMES... (files written by inarow selfplay --games-file)".into());
    }
    let (mut train, mut test) = (Vec::new(), Vec::new());
    let mut games = 0usize;
    for f in &files {
        let text = std::fs::read_to_string(f).map_err(|e| format!("{f}: {e}"))?;
        for (n, line) in text.lines().enumerate() {
            // Every tenth pair of games is held out to check the fit: the
            // two games of a pair start from one opening (colours swapped)
            // and are often the same game, so they stay together.
            let into = if games / 2 % 10 == 9 {
                &mut test
            } else {
                &mut train
            };
            samples_of(line, into).map_err(|e| format!("{f} line {}: {e}", n + 1))?;
            games += 1;
        }
    }
    println!(
        "{games} games: {} training positions, {} held out",
        train.len(),
        test.len()
    );
    let start = to_vec(&Weights::hand_set(MOVER_WEIGHT));
    // The scale k that best fits the hand-set weights, by golden search on log k.
    let (mut lo, mut hi) = ((1e-5f64).ln(), (1.0f64).ln());
    for _ in 0..60 {
        let m1 = lo + (hi - lo) * 0.382;
        let m2 = lo + (hi - lo) * 0.618;
        if loss(&train, &start, m1.exp()) < loss(&train, &start, m2.exp()) {
            hi = m2;
        } else {
            lo = m1;
        }
    }
    let k = ((lo + hi) / 2.0).exp();
    println!(
        "k = {k:.6}; hand-set loss: train {:.5}, held out {:.5}",
        loss(&train, &start, k),
        loss(&test, &start, k)
    );
    // Adam on the weights, with a light pull towards the hand-set values so
    // that rare features keep sensible weights.
    let mut w = start;
    let (mut m, mut v) = ([0.0f64; FEATURES], [0.0f64; FEATURES]);
    let (lr, b1, b2, l2) = (0.5, 0.9, 0.999, 1e-7);
    for step in 1..=STEPS {
        let mut g = [0.0f64; FEATURES];
        for s in &train {
            let e: f64 = s.x.iter().zip(&w).map(|(a, b)| a * b).sum();
            let d = sigmoid(k * e) - s.y;
            for (gi, xi) in g.iter_mut().zip(&s.x) {
                *gi += d * k * xi;
            }
        }
        for i in 0..FEATURES {
            let gi = g[i] / train.len() as f64 + l2 * (w[i] - start[i]);
            m[i] = b1 * m[i] + (1.0 - b1) * gi;
            v[i] = b2 * v[i] + (1.0 - b2) * gi * gi;
            let mh = m[i] / (1.0 - b1.powi(step));
            let vh = v[i] / (1.0 - b2.powi(step));
            w[i] -= lr * mh / (vh.sqrt() + 1e-12);
        }
        if step % 100 == 0 {
            println!(
                "step {step}: train {:.5}, held out {:.5}",
                loss(&train, &w, k),
                loss(&test, &w, k)
            );
        }
    }
    let int = |x: f64| (x * 10.0).round() as i32;
    let names = Pattern::ALL.map(|p| format!("{p:?}"));
    println!("// pattern order: {}", names.join(", "));
    println!("pub const TUNED: Weights = Weights {{");
    println!(
        "    mine: {:?},",
        (0..PATTERNS).map(|i| int(w[i])).collect::<Vec<_>>()
    );
    println!(
        "    mine_threat: {:?},",
        (0..THREATS)
            .map(|i| int(w[PATTERNS + i]))
            .collect::<Vec<_>>()
    );
    println!(
        "    theirs: {:?},",
        (0..PATTERNS)
            .map(|i| int(-w[PATTERNS + THREATS + i]))
            .collect::<Vec<_>>()
    );
    println!(
        "    theirs_threat: {:?},",
        (0..THREATS)
            .map(|i| int(-w[2 * PATTERNS + THREATS + i]))
            .collect::<Vec<_>>()
    );
    println!("    scale: 10,\n}};");
    Ok(())
}
