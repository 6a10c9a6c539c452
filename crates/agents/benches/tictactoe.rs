//! Solving tic-tac-toe from the empty board: full minimax, alpha-beta (the
//! document's and the project's) and the project's best solver.
//!
//! Baselines (the source document's Java on this machine, see
//! shared/specs/minimax.md): minimax about 9 ms per full solve (549,946
//! positions), alpha-beta about 1.8 ms.

// criterion_group! defines a public function that cannot carry a doc comment.
#![allow(missing_docs)]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use inarow_agents::order::LinesThrough;
use inarow_agents::search::{DrawEval, Options};
use inarow_agents::{Search, classic, minimax};
use inarow_core::TicTacToe;
use std::hint::black_box;

fn solvers(c: &mut Criterion) {
    let empty = TicTacToe::new();
    let mut group = c.benchmark_group("tictactoe_empty_board");

    group.throughput(Throughput::Elements(549_946));
    group.bench_function("minimax", |b| {
        b.iter(|| minimax::minimax(black_box(&empty)))
    });
    group.bench_function("minimax_2_threads", |b| {
        b.iter(|| minimax::minimax_parallel(black_box(&empty), 2))
    });
    group.bench_function("document_minimax", |b| {
        b.iter(|| {
            let mut nodes = 0;
            classic::minimax(&mut black_box(empty), &mut nodes);
            nodes
        })
    });

    group.throughput(Throughput::Elements(18_297));
    group.bench_function("document_alphabeta", |b| {
        b.iter(|| {
            let mut nodes = 0;
            classic::alphabeta(&mut black_box(empty), -1000, 1000, &mut nodes);
            nodes
        })
    });

    let alphabeta_nodes = minimax::alphabeta(&empty).nodes;
    group.throughput(Throughput::Elements(alphabeta_nodes));
    group.bench_function("alphabeta", |b| {
        b.iter(|| minimax::alphabeta(black_box(&empty)))
    });

    // Each solve starts a new search: the table's generation is bumped, so
    // nothing learned in one iteration helps the next.
    let options = Options {
        table_bits: 10,
        symmetric: true,
        ..Options::default()
    };
    let mut best = Search::new(options, LinesThrough::default(), DrawEval);
    group.throughput(Throughput::Elements(best.solve(&empty).nodes));
    group.bench_function("best", |b| b.iter(|| best.solve(black_box(&empty))));
    group.finish();
}

criterion_group!(benches, solvers);
criterion_main!(benches);
