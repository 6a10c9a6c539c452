//! Solves the empty tic-tac-toe board with each algorithm and prints the
//! positions visited: a quick check, and a steady workload for profilers.
//!
//! `cargo run --release --example solve_empty -- minimax 100` solves 100 times.

use inarow_agents::{Search, minimax};
use inarow_core::TicTacToe;

fn main() {
    let algo = std::env::args().nth(1).unwrap_or_else(|| "minimax".into());
    let repeat: u32 = match std::env::args().nth(2).map(|s| s.parse()) {
        None => 1,
        Some(Ok(n)) if n > 0 => n,
        Some(_) => {
            eprintln!("the repeat count must be a positive whole number");
            std::process::exit(2);
        }
    };
    let empty = TicTacToe::new();
    let mut search = Search::<TicTacToe>::default();
    let mut nodes = 0;
    for _ in 0..repeat {
        nodes = match algo.as_str() {
            "minimax" => minimax::minimax(&empty).nodes,
            "alphabeta" => minimax::alphabeta(&empty).nodes,
            "best" => search.solve(&empty).nodes,
            other => {
                eprintln!("unknown algorithm {other:?}: use minimax, alphabeta or best");
                std::process::exit(2);
            }
        };
    }
    println!("{algo}: {nodes} positions, {repeat} solves");
}
