//! The exact-five engine against the freestyle engine in games refereed by
//! the core under exact five: a sanity check that knowing the rule pays
//! (the freestyle side plays overlines believing they win and blocks the
//! opponent's). Each seeded three-stone opening is played twice, colours
//! swapped, on a node budget, so a run repeats exactly. Run with
//! `cargo run --release -p inarow-engine --example exact_match [-- PAIRS [NODES]]`.

use inarow_core::{Game, Mnk, Outcome, Rule};
use inarow_engine::search::Limits;

#[path = "../tests/support/suite.rs"]
mod suite;
use suite::{Side, play_refereed, three_near_the_centre};

fn main() {
    let mut args = std::env::args().skip(1).map(|a| a.parse::<u64>());
    let pairs = args.next().and_then(Result::ok).unwrap_or(20);
    let nodes = args.next().and_then(Result::ok).unwrap_or(5_000);
    // Wins, draws and losses of the exact-five engine, by its colour.
    let mut score = [[0u32; 3]; 2];
    for pair in 0..pairs {
        for (exact_colour, tally) in score.iter_mut().enumerate() {
            let mut sides = [Side::new(Rule::Exact), Side::new(Rule::Freestyle)];
            if exact_colour == 1 {
                sides.swap(0, 1);
            }
            let mut start = Mnk::gomoku_exact();
            for p in three_near_the_centre(1000 + pair) {
                start.play_unchecked(p);
            }
            let end = play_refereed(start, &mut sides, Limits::nodes(nodes), |_, _, _| {});
            let k = match end.outcome() {
                Some(Outcome::Win(w)) if w.index() == exact_colour => 0,
                Some(Outcome::Win(_)) => 2,
                _ => 1,
            };
            tally[k] += 1;
        }
    }
    let total: Vec<u32> = (0..3).map(|k| score[0][k] + score[1][k]).collect();
    println!(
        "exact five engine against freestyle engine, refereed under exact five, {nodes} nodes a move:"
    );
    for (what, s) in [
        ("as black", &score[0][..]),
        ("as white", &score[1][..]),
        ("in all", &total[..]),
    ] {
        println!("  {what}: {}-{}-{} (W-D-L)", s[0], s[1], s[2]);
    }
}
