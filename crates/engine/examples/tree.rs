//! The shape of the search tree, the cheap deterministic measure that comes
//! before matches (issue: the search rebuilt for selectivity): on fifty
//! middlegame positions, the nodes the search needs to complete each depth
//! from an empty table, how fast that grows per ply, and the depth it
//! completes within a node budget. Run with
//! `cargo run --release -p inarow-engine --example tree [-- BUDGET [POSITIONS]]`
//! (budget 200000 nodes, 50 positions; `OPTIONS=...` measures other
//! settings, as `inarow selfplay --a` takes them). `-- --boards` prints the
//! positions as Gomocup `BOARD` lines instead, so another engine can be
//! measured on the same ones. `-- --nodes N [POSITIONS]` measures speed
//! instead (issue 55): each of the first 8 positions searched once to `N`
//! nodes from an empty table, its move, score, depth and nodes printed (a
//! change that keeps the search prints the same lines) and the nodes a
//! second over them all.

use inarow_engine::player::board_of;
use inarow_engine::search::{Limits, Options, Request, Searcher};

#[path = "../tests/support/suite.rs"]
mod suite;
use suite::{gomocup_board, median, recorded_middlegames};

/// Nodes below which a depth's count is too small to say how the tree grows.
const FEW: u64 = 1_000;
/// The deepest iteration tried.
const DEEPEST: u32 = 40;

/// Nodes to complete each depth from 1, from an empty table, until `cap`.
/// `None` when the position is decided before the tree has a shape (a
/// threat win, or one legal defence).
fn depths(
    searcher: &mut Searcher,
    game: &inarow_core::Mnk,
    cap: u64,
    work: &mut (u64, std::time::Duration),
) -> Option<Vec<u64>> {
    let mut counts = Vec::new();
    for d in 1..=DEEPEST {
        let mut b = board_of(game, None).expect("live board");
        searcher.clear();
        let f = searcher.search(&mut b, &mut Request::new(Limits::depth(d)));
        work.0 += f.nodes;
        work.1 += f.elapsed;
        if f.vcf || f.depth < d {
            return (counts.len() >= 2).then_some(counts);
        }
        counts.push(f.nodes);
        if f.nodes > cap {
            break;
        }
    }
    Some(counts)
}

/// The geometric mean of each depth's nodes over the last's, where the last
/// holds at least [`FEW`].
fn growth(counts: &[u64]) -> Option<f64> {
    let steps: Vec<f64> = counts
        .windows(2)
        .filter(|w| w[0] >= FEW)
        .map(|w| w[1] as f64 / w[0] as f64)
        .collect();
    (!steps.is_empty())
        .then(|| (steps.iter().map(|s| s.ln()).sum::<f64>() / steps.len() as f64).exp())
}

/// Each position searched once to `nodes` from an empty table: its
/// result, then the nodes a second over them all (the search's own clock,
/// set-up apart).
fn speed(games: &[inarow_core::Mnk], nodes: u64) {
    let options: Options = std::env::var("OPTIONS")
        .unwrap_or_default()
        .parse()
        .expect("OPTIONS: settings as `inarow selfplay --a` takes them");
    let mut searcher = Searcher::new(options);
    let mut work = (0u64, std::time::Duration::ZERO);
    for (i, g) in games.iter().enumerate() {
        let mut b = board_of(g, None).expect("live board");
        searcher.clear();
        let f = searcher.search(&mut b, &mut Request::new(Limits::nodes(nodes)));
        println!(
            "{i:3}: move {:?} score {} depth {} nodes {}",
            f.best, f.score, f.depth, f.nodes
        );
        work.0 += f.nodes;
        work.1 += f.elapsed;
    }
    println!(
        "{} nodes in {:.2} s: {:.0}k nodes a second",
        work.0,
        work.1.as_secs_f64(),
        work.0 as f64 / work.1.as_secs_f64().max(1e-9) / 1000.0
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().is_some_and(|a| a == "--nodes") {
        let nodes: u64 = args
            .get(1)
            .and_then(|s| s.parse().ok())
            .expect("--nodes N: a node budget");
        let count: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(8);
        speed(&recorded_middlegames(5, count, 14), nodes);
        return;
    }
    let budget: u64 = args.first().and_then(|s| s.parse().ok()).unwrap_or(200_000);
    let count: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(50);
    let games = recorded_middlegames(5, count, 14);
    if args.iter().any(|a| a == "--boards") {
        for g in &games {
            println!("{}", gomocup_board(g));
        }
        return;
    }
    let options: Options = std::env::var("OPTIONS")
        .unwrap_or_default()
        .parse()
        .expect("OPTIONS: settings as `inarow selfplay --a` takes them");
    let mut searcher = Searcher::new(options);
    let (mut growths, mut reached, mut decided) = (Vec::new(), Vec::new(), 0);
    // The same over the positions whose tree grew past the budget: a mate
    // found a few depths in ends a count early (as it ends Rapfi's in
    // `scripts/tree-brain.sh`, whose last line is this one).
    let (mut open_growths, mut open_reached) = (Vec::new(), Vec::new());
    let mut work = (0u64, std::time::Duration::ZERO);
    println!(
        "position: nodes to complete depth 1, 2, ... (growth per ply; depth within {budget} nodes)"
    );
    for (i, g) in games.iter().enumerate() {
        let Some(counts) = depths(&mut searcher, g, budget, &mut work) else {
            decided += 1;
            println!("{i:3}: decided by threats or a forced reply");
            continue;
        };
        let within = counts.iter().take_while(|&&n| n <= budget).count();
        let grows = growth(&counts);
        println!(
            "{i:3}: {} ({}; depth {within})",
            counts
                .iter()
                .map(u64::to_string)
                .collect::<Vec<_>>()
                .join(" "),
            grows.map_or("-".into(), |g| format!("{g:.2}x")),
        );
        growths.extend(grows);
        reached.push(within as f64);
        if counts.last().is_some_and(|&n| n > budget) {
            open_growths.extend(grows);
            open_reached.push(within as f64);
        }
    }
    println!(
        "{} positions of 14 stones, {decided} decided before the tree has a shape",
        games.len()
    );
    println!(
        "median growth per ply: {:.2}x; median depth within {budget} nodes: {}",
        median(growths),
        median(reached)
    );
    println!(
        "the {} positions whose tree grew past {budget} nodes (no mate first): growth {:.2}x, depth {}",
        open_reached.len(),
        median(open_growths),
        median(open_reached)
    );
    println!(
        "{} nodes in {:.1} s: {:.0}k nodes a second",
        work.0,
        work.1.as_secs_f64(),
        work.0 as f64 / work.1.as_secs_f64().max(1e-9) / 1000.0
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn growth_is_the_geometric_mean_of_the_steps_past_a_few_nodes() {
        // 100 -> 200 is too small to count; 1000 -> 4000 -> 16000 grows 4x.
        let g = growth(&[100, 1_000, 4_000, 16_000]).unwrap();
        assert!((g - 4.0).abs() < 1e-9, "{g}");
        // Steps of 2x and 4x: their geometric mean is the square root of 8.
        let g = growth(&[1_000, 2_000, 8_000]).unwrap();
        assert!((g - 8f64.sqrt()).abs() < 1e-9, "{g}");
        assert_eq!(growth(&[10, 20, 40]), None, "no step past a few nodes");
    }

    #[test]
    fn the_median_of_an_even_count_is_the_mean_of_the_middle_two() {
        assert_eq!(median(vec![5.0, 1.0, 3.0]), 3.0);
        assert_eq!(median(vec![4.0, 1.0, 3.0, 2.0]), 2.5);
        assert!(median(Vec::new()).is_nan());
    }

    #[test]
    fn a_middlegame_tree_completes_its_first_depths_and_grows() {
        let game = &recorded_middlegames(5, 1, 14)[0];
        let mut searcher = Searcher::new(Options::default());
        let mut work = Default::default();
        let counts = depths(&mut searcher, game, 20_000, &mut work).expect("a tree with a shape");
        assert!(counts.len() >= 3, "{counts:?}");
        assert!(counts.windows(2).all(|w| w[1] >= w[0]), "{counts:?}");
    }
}
