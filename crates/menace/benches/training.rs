//! Training games per second: MENACE (challenge preset) against a random player.

// criterion_group! defines an undocumented function.
#![allow(missing_docs)]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use inarow_agents::RandomAgent;
use inarow_core::Player;
use inarow_menace::{AgentSeat, Menace, Preset, play_game, train};

const GAMES: u64 = 10_000;

fn training(c: &mut Criterion) {
    let mut group = c.benchmark_group("menace");
    group.throughput(Throughput::Elements(GAMES));
    for preset in [Preset::Challenge, Preset::Michie] {
        group.bench_function(format!("train_vs_random_{preset}_10k_games"), |b| {
            let mut menace = Menace::new(preset, Player::X, 1);
            let mut random = AgentSeat(RandomAgent::new(2));
            b.iter(|| train(&mut menace, &mut random, GAMES));
        });
    }
    group.bench_function("self_play_10k_games", |b| {
        let mut x = Menace::new(Preset::Challenge, Player::X, 1);
        let mut o = Menace::new(Preset::Challenge, Player::O, 2);
        b.iter(|| {
            for _ in 0..GAMES {
                play_game(&mut x, &mut o);
            }
        });
    });
    group.finish();
}

criterion_group!(benches, training);
criterion_main!(benches);
