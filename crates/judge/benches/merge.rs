//! The merge of a tournament's parts: 101 bots (10,100 games, about 40
//! stones each) cut into 16 parts, read, checked and written back as the
//! results file a one-machine run writes.
#![allow(missing_docs)]

use criterion::{Criterion, Throughput};
use inarow_judge::merge::{self, Bot, Part, Tournament};
use inarow_judge::referee::{GameRecord, Seat, Stone};
use inarow_judge::sandbox::Limits;
use inarow_judge::shard::Shard;
use inarow_judge::{output, tournament};

const BOTS: usize = 101;
const SHARDS: usize = 16;

fn parts() -> Vec<(String, String)> {
    let t = Tournament {
        seed: 1,
        rule: "freestyle".into(),
        timeout_seconds: 10.0,
        limits: Some(Limits::default()),
        bots: (0..BOTS)
            .map(|i| Bot {
                name: format!("bot{i:03}"),
                command: "./run".into(),
                args: vec![],
                folder_sha256: format!("{i:064}"),
            })
            .collect(),
        left_out: Vec::new(),
    };
    let names: Vec<String> = t.bots.iter().map(|b| b.name.clone()).collect();
    (0..SHARDS)
        .map(|index| {
            let shard = Shard::new(index, SHARDS).unwrap();
            let games = tournament::share(BOTS, t.seed, shard)
                .iter()
                .map(|f| GameRecord {
                    index: f.index,
                    a: names[f.a].clone(),
                    b: names[f.b].clone(),
                    a_seed: f.a_seed,
                    b_seed: f.b_seed,
                    swap: Some("black".into()),
                    black: Some(names[f.b].clone()),
                    white: Some(names[f.a].clone()),
                    stones: (0..40u8)
                        .map(|i| Stone {
                            by: if i % 2 == 0 { Seat::A } else { Seat::B },
                            colour: if i % 2 == 0 { 'B' } else { 'W' },
                            x: i % 15,
                            y: i / 15,
                        })
                        .collect(),
                    winner: Some(names[f.a].clone()),
                    reason: "five".into(),
                    forfeit: None,
                })
                .collect();
            (
                format!("part-{index}"),
                Part::new(shard, t.clone(), games).to_json(),
            )
        })
        .collect()
}

fn main() {
    let parts = parts();
    let refs: Vec<(&str, &str)> = parts.iter().map(|(n, t)| (&n[..], &t[..])).collect();
    let games = tournament::schedule(BOTS, 1).len();
    let bytes: usize = parts.iter().map(|(_, t)| t.len()).sum();
    eprintln!(
        "{games} games in {SHARDS} parts, {} MiB of JSON",
        bytes >> 20
    );
    let mut c = Criterion::default().configure_from_args().sample_size(10);
    let mut group = c.benchmark_group("merge");
    group.throughput(Throughput::Elements(games as u64));
    group.bench_function("10100 games from 16 parts to the results file", |b| {
        b.iter(|| output::results_json(&merge::merge(&refs).unwrap()).len())
    });
    group.finish();
    c.final_summary();
}
