//! Prints the evaluation of positions by a published classical model, in
//! the model's own units, as Rapfi's `TRACEBOARD` and `TRACESEARCH` print
//! theirs: black's point sum (`Eval[Black]`) and the static evaluation
//! from black (`Static Eval[Black]`). `scripts/rapfi-eval-check.sh`
//! compares the two engines on random positions.
//!
//!     cargo run --release -p inarow-engine --example fine_eval -- MODEL RULE < positions
//!     cargo run --release -p inarow-engine --example fine_eval -- MODEL RULE random N SEED
//!
//! RULE is freestyle, exact or renju; each input line is a position: its
//! moves as `x,y` from black's first, separated by spaces. With `random`,
//! N seeded random positions (1 to 80 stones near each other, no five,
//! none of renju black's forbidden points) are made instead, each printed
//! before its figures and a tab.

use inarow_engine::pos::Pos;
use std::io::BufRead;

use inarow_core::{Player, Rule};
use inarow_engine::board::Board;
use inarow_engine::eval::Evaluator;
use inarow_engine::eval::fine::{self, MASKS};
use inarow_engine::eval::fine_eval::FineEval;
use inarow_engine::eval::fine_tables::{FineTables, MODEL_CLAMP};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (model, rule, random) = match &args[..] {
        [model, rule] => (model, rule, None),
        [model, rule, r, n, seed] if r == "random" => (
            model,
            rule,
            Some((n.parse::<usize>()?, seed.parse::<u64>()?)),
        ),
        _ => return Err("usage: fine_eval MODEL RULE [random N SEED] < positions".into()),
    };
    let rule: Rule = rule.parse::<Rule>()?;
    let tables: &'static FineTables = Box::leak(Box::new(FineTables::from_classical_model(
        &std::fs::read(model)?,
    )?));
    let lines: Vec<String> = match random {
        None => std::io::stdin().lock().lines().collect::<Result<_, _>>()?,
        Some((n, seed)) => {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            (0..n).map(|_| random_position(&mut rng, rule)).collect()
        }
    };
    for line in lines {
        if random.is_some() {
            print!("{line}\t");
        }
        let mut b = Board::with_rule(15, rule)?;
        for mv in line.split_whitespace() {
            let (x, y) = mv.split_once(',').ok_or("a move is x,y")?;
            let p = b.pos_at(x.parse()?, y.parse()?)?;
            b.play(p)?;
        }
        // The evaluator takes the position up (it follows the last stone,
        // for the ply before).
        let mut e = FineEval::new(tables, [1 << 16; 3]);
        e.start(&mut b);
        let me = b.to_move();
        let [now, before] = e.sums();
        let sign = if me == Player::X { 1 } else { -1 };
        let basic = sign * (now + before) / 2;
        let (mine, theirs) = (e.point_classes(me), e.point_classes(me.opponent()));
        let mask = fine::threat_mask(mine, theirs);
        debug_assert!(mask < MASKS);
        let threat = i32::from(tables.threat[fine::table_slot(rule, me.index())][mask]);
        let eval = (basic + threat).clamp(-MODEL_CLAMP, MODEL_CLAMP);
        println!("{now} {}", sign * eval);
    }
    Ok(())
}

/// A random position: stones near the ones before, black first, stopping
/// short of a five and of renju black's forbidden points.
fn random_position(rng: &mut ChaCha8Rng, rule: Rule) -> String {
    let mut b = Board::with_rule(15, rule).expect("15 is a size");
    let stones = rng.random_range(1..=80);
    let mut moves = Vec::new();
    'stones: for _ in 0..stones {
        for _ in 0..50 {
            let (x, y) = match moves.last() {
                None => (rng.random_range(4..11), rng.random_range(4..11)),
                Some(_) => {
                    let &(px, py) = &moves[rng.random_range(0..moves.len())];
                    let near = |v: usize, rng: &mut ChaCha8Rng| {
                        (v as i32 + rng.random_range(-2..=2)).clamp(0, 14) as usize
                    };
                    (near(px, rng), near(py, rng))
                }
            };
            let i = Pos::at(x, y);
            if !b.is_empty(i) || b.wins_now(i) {
                continue;
            }
            if b.to_move() == Player::X && b.forbidden(i).is_some() {
                continue;
            }
            b.play(i).expect("an empty point");
            moves.push((x, y));
            continue 'stones;
        }
        break;
    }
    moves
        .iter()
        .map(|(x, y)| format!("{x},{y}"))
        .collect::<Vec<_>>()
        .join(" ")
}
