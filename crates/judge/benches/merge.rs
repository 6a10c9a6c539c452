//! The merge of a tournament's parts: 101 bots (10,100 games, 40 stones
//! each) cut into 16 parts, read, checked (every game replayed on the
//! rules) and written back as the results file a one-machine run writes;
//! and the replay of those games alone.
#![allow(missing_docs)]

use criterion::{Criterion, Throughput};
use inarow_contest::{Ending, Shard};
use inarow_core::swap2::{Role, Step, Swap, Swap2};
use inarow_core::{Game, Mnk, Outcome, Player, Point};
use inarow_judge::part::{self, Bot, Part, Tournament};
use inarow_judge::record::{Answer, GameRecord, Seat, Stone};
use inarow_judge::{output, replay, tournament};
use inarow_sandbox::Limits;

const BOTS: usize = 101;
const SHARDS: usize = 16;
const STONES: usize = 40;

/// The stones and result of a legal 40-stone game, varied by `shift`: A
/// opens, B takes black, both fill rows 0 to 8 with a pattern that holds
/// no five ((x + 2y) mod 4 below 2 is black), and white's last five stones
/// make a five on row 12: white (A) wins with the 40th stone.
fn legal_game(shift: usize) -> Vec<Stone> {
    let at = |x: usize, y: usize| Point::at(x, y, 15);
    let cells = |black: bool| {
        let mut cells: Vec<Point> = (0..9)
            .flat_map(|y| (0..15).map(move |x| (x, y)))
            .filter(|&(x, y)| ((x + 2 * y) % 4 < 2) == black)
            .map(|(x, y)| at(x, y))
            .collect();
        let turn = shift % cells.len();
        cells.rotate_left(turn);
        cells.into_iter()
    };
    let (mut black, mut white) = (cells(true), cells(false));
    let mut line = (0..5).map(|i| at(shift % 11 + i, 12));
    let mut g = Swap2::new(&Mnk::gomoku());
    let open = [black.next(), black.next(), white.next()].map(Option::unwrap);
    g.apply(Role::Opener, Step::Open(open)).unwrap();
    g.apply(Role::Answerer, Step::Answer(Swap::Black)).unwrap();
    while g.stones().len() < STONES {
        let role = g.to_act().unwrap();
        let p = match g.game().to_move() {
            Player::X => black.next(),
            Player::O if g.stones().len() + 10 >= STONES => line.next(),
            Player::O => white.next(),
        };
        g.apply(role, Step::Play(p.unwrap())).unwrap();
    }
    assert_eq!(g.outcome(), Some(Outcome::Win(Player::O)));
    g.stones()
        .iter()
        .enumerate()
        .map(|(i, &(p, colour))| Stone {
            by: if i < 3 || colour == Player::O {
                Seat::A
            } else {
                Seat::B
            },
            colour: colour.into(),
            at: p.to_xy(15),
        })
        .collect()
}

fn parts() -> Vec<(String, String)> {
    let t = Tournament {
        seed: 1,
        rule: inarow_core::Rule::Freestyle,
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
                    swap: Some(Answer::Black),
                    black: Some(Seat::B),
                    stones: legal_game(f.index),
                    winner: Some(Seat::A),
                    reason: Some(Ending::Five),
                    forbidden: None,
                    forfeit: None,
                    size: 15,
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
        b.iter(|| output::results_json(&part::merge(&refs).unwrap()).len())
    });
    // The replay of every game alone: what the rules' check adds to a merge.
    let records: Vec<GameRecord> = parts
        .iter()
        .flat_map(|(_, text)| serde_json::from_str::<Part>(text).unwrap().games)
        .collect();
    let limits = Limits::default();
    let terms = replay::Terms {
        rule: inarow_core::Rule::Freestyle,
        timeout_seconds: 10.0,
        limits: Some(&limits),
    };
    group.bench_function("replay of the 10100 games on the rules", |b| {
        b.iter(|| {
            records
                .iter()
                .map(|r| replay::replay(r, &terms).is_ok() as usize)
                .sum::<usize>()
        })
    });
    group.finish();
    c.final_summary();
}
