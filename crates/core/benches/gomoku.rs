//! Gomoku board operations: play and undo with win detection, move listing.

// criterion_group! defines a public function that cannot carry a doc comment.
#![allow(missing_docs)]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use inarow_core::{Game, Mnk, Point};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::hint::black_box;

/// A middlegame: 40 random stones with no five yet.
fn middlegame() -> Mnk {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    loop {
        let mut game = Mnk::gomoku();
        for _ in 0..40 {
            let moves: Vec<Point> = game.moves().collect();
            game.play_unchecked(moves[rng.random_range(0..moves.len())]);
        }
        if !game.is_over() {
            return game;
        }
    }
}

fn board(c: &mut Criterion) {
    let game = middlegame();
    let moves: Vec<Point> = game.moves().collect();
    let mut group = c.benchmark_group("gomoku");
    group.throughput(Throughput::Elements(moves.len() as u64));
    group.bench_function("play_undo_every_move", |b| {
        let mut g = game.clone();
        b.iter(|| {
            let mut wins = 0;
            for &m in &moves {
                g.play_unchecked(m);
                wins += g.is_over() as u32;
                g.undo(m);
            }
            black_box(wins)
        })
    });
    group.bench_function("win_check_every_point", |b| {
        b.iter(|| {
            moves
                .iter()
                .filter(|&&m| black_box(&game).wins_at(m, inarow_core::Player::X))
                .count()
        })
    });
    group.throughput(Throughput::Elements(1));
    group.bench_function("list_moves", |b| {
        b.iter(|| black_box(&game).moves().count())
    });
    group.finish();
}

criterion_group!(benches, board);
criterion_main!(benches);
