//! Engine benchmarks: make/unmake with pattern updates, one static
//! evaluation (pattern and learned), node rate of the
//! main search from middlegames, the time to solve the tactical suite, and
//! renju's forbidden-point checks beside freestyle's move generation.

// criterion_group! defines a public function that cannot carry a doc comment.
#![allow(missing_docs)]

use criterion::{Criterion, criterion_group, criterion_main};
use inarow_engine::eval::learned::Learned;
use inarow_engine::eval::{Eval, Evaluator, Weights};
use inarow_engine::player::board_of;
use inarow_engine::search::{Limits, Options, Request, Searcher};
use inarow_engine::vcf_solver::Vcf;

#[path = "../tests/support/suite.rs"]
mod suite;
use inarow_core::{Game, Mnk, Player, Rule};
use inarow_engine::board::Board;
use inarow_engine::movepick::{Answer, MoveList, generate};
use suite::{board_under, generate_suite, recorded_middlegames};

fn make_unmake(c: &mut Criterion) {
    let games = recorded_middlegames(1, 1, 24);
    let mut b = board_of(&games[0], None).unwrap();
    let empties: Vec<_> = b.empty_points().filter(|&i| b.is_near(i)).collect();
    c.bench_function("play+undo each candidate (middlegame)", |bench| {
        bench.iter(|| {
            for &i in &empties {
                b.play_unchecked(i);
                b.undo();
            }
        })
    });
    // What the search does: the default evaluation follows every stone.
    let mut e = Options::default().eval.evaluation();
    e.start(&mut b);
    c.bench_function(
        "play+undo each candidate, learned evaluation (middlegame)",
        |bench| {
            bench.iter(|| {
                for &i in &empties {
                    e.play(&mut b, i);
                    e.undo(&mut b);
                }
            })
        },
    );
}

fn evaluations(c: &mut Criterion) {
    let boards: Vec<_> = recorded_middlegames(2, 8, 20)
        .iter()
        .map(|g| board_of(g, None).unwrap())
        .collect();
    let mut group = c.benchmark_group("evaluate 8 middlegames");
    let evals = [
        ("pattern (tuned weights)", Eval::Pattern(Weights::TUNED)),
        ("learned tables", Eval::Learned(Learned::embedded())),
    ];
    for (name, eval) in evals {
        // Each board with its evaluator started on it, as a search has.
        let started: Vec<_> = boards
            .iter()
            .map(|b| {
                let mut b = b.clone();
                let mut e = eval.evaluation();
                e.start(&mut b);
                (b, e)
            })
            .collect();
        group.bench_function(name, |bench| {
            bench.iter(|| {
                started
                    .iter()
                    .map(|(b, e)| std::hint::black_box(e.evaluate(b)))
                    .sum::<i32>()
            })
        });
    }
    group.finish();
}

/// A fresh 20,000-node search of each board.
fn search_each(s: &mut Searcher, boards: impl Iterator<Item = Board>) {
    for mut b in boards {
        s.clear();
        s.search(
            &mut b,
            &mut Request::new(Limits {
                time: None,
                depth: 60,
                nodes: 20_000,
            }),
        );
    }
}

fn search_nodes(c: &mut Criterion) {
    let games = recorded_middlegames(2, 4, 20);
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    group.bench_function("20k nodes x 4 middlegames", |bench| {
        let mut s = Searcher::new(Options::default());
        bench.iter(|| search_each(&mut s, games.iter().map(|g| board_of(g, None).unwrap())))
    });
    group.finish();
}

fn tactical_suite(c: &mut Criterion) {
    let suite = generate_suite(11, 24, 4);
    let mut group = c.benchmark_group("vcf");
    group.sample_size(10);
    group.bench_function("solve the 24-position suite", |bench| {
        let mut vcf = Vcf::new(1_000_000);
        bench.iter(|| {
            for p in &suite {
                let mut b = board_of(&p.game, None).unwrap();
                assert!(vcf.solve(&mut b).is_some());
            }
        })
    });
    group.finish();
}

/// Recorded middlegames of 24 stones with black to move: 12 of them.
fn black_to_move() -> Vec<Mnk> {
    recorded_middlegames(5, 12, 24)
        .into_iter()
        .map(|mut g| {
            g.set_to_move(Player::X);
            g
        })
        .collect()
}

fn renju(c: &mut Criterion) {
    let games = black_to_move();
    let boards = |rule| -> Vec<Board> { games.iter().map(|g| board_under(g, rule)).collect() };
    let (mut free, mut renju) = (boards(Rule::Freestyle), boards(Rule::Renju));
    let points: usize = games.iter().map(|g| g.empty_points().count()).sum();
    let mut group = c.benchmark_group("renju");
    let mut list = MoveList::default();
    // The move generation of a free node, where renju checks each
    // candidate black may not play.
    for (name, boards) in [
        ("generate black's moves, freestyle", &mut free),
        ("generate black's moves, renju", &mut renju),
    ] {
        group.bench_function(name, |bench| {
            bench.iter(|| {
                let mut n = 0;
                for b in boards.iter_mut() {
                    generate(b, Answer::Free, &mut list);
                    n += list.len();
                }
                std::hint::black_box(n)
            })
        });
    }
    group.throughput(criterion::Throughput::Elements(points as u64));
    group.bench_function("board: forbidden check of every empty point", |bench| {
        bench.iter(|| {
            renju
                .iter()
                .map(|b| {
                    b.empty_points()
                        .filter(|&i| b.forbidden(i).is_some())
                        .count()
                })
                .sum::<usize>()
        })
    });
    let cores: Vec<Mnk> = games
        .iter()
        .map(|g| {
            let cells: Vec<_> = (0..225).map(|i| g.stone(inarow_core::Point(i))).collect();
            Mnk::renju().setup(&cells, Player::X).unwrap()
        })
        .collect();
    group.bench_function("core: forbidden_points", |bench| {
        bench.iter(|| {
            cores
                .iter()
                .map(|g| g.forbidden_points().len())
                .sum::<usize>()
        })
    });
    // Whole searches from the same positions: what the checks cost a
    // search, beside freestyle's.
    group.sample_size(10);
    for (name, rule) in [
        ("search 20k nodes x 4, freestyle", Rule::Freestyle),
        ("search 20k nodes x 4, exact five", Rule::Exact),
        ("search 20k nodes x 4, renju", Rule::Renju),
    ] {
        let mut s = Searcher::new(Options::default());
        group.bench_function(name, |bench| {
            bench.iter(|| search_each(&mut s, games[..4].iter().map(|g| board_under(g, rule))))
        });
    }
    group.finish();
}

criterion_group!(
    benches,
    make_unmake,
    evaluations,
    search_nodes,
    tactical_suite,
    renju
);
criterion_main!(benches);
