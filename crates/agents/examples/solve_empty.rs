//! Solves the empty tic-tac-toe board with each algorithm and prints the
//! positions visited: a quick check, and a steady workload for profilers.

use inarow_agents::{Search, minimax};
use inarow_core::TicTacToe;

fn main() {
    let algo = std::env::args().nth(1).unwrap_or_else(|| "minimax".into());
    let empty = TicTacToe::new();
    let nodes = match algo.as_str() {
        "minimax" => minimax::minimax(&empty).nodes,
        "alphabeta" => minimax::alphabeta(&empty).nodes,
        "best" => Search::<TicTacToe>::default().solve(&empty).nodes,
        other => {
            eprintln!("unknown algorithm {other:?}: use minimax, alphabeta or best");
            std::process::exit(2);
        }
    };
    println!("{algo}: {nodes} positions");
}
