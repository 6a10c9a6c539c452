//! Engine benchmarks: make/unmake with pattern updates, one static
//! evaluation (pattern and learned), node rate of the
//! main search from middlegames, and the time to solve the tactical suite.

// criterion_group! defines a public function that cannot carry a doc comment.
#![allow(missing_docs)]

use criterion::{Criterion, criterion_group, criterion_main};
use inarow_engine::eval::{Eval, Evaluator, Weights};
use inarow_engine::learned::Learned;
use inarow_engine::player::board_of;
use inarow_engine::search::{Limits, Options, Searcher};
use inarow_engine::vcf::Vcf;

#[path = "../tests/support/suite.rs"]
mod suite;
use suite::{generate_suite, recorded_middlegames};

fn make_unmake(c: &mut Criterion) {
    let games = recorded_middlegames(1, 1, 24);
    let mut b = board_of(&games[0], None).unwrap();
    let empties: Vec<usize> = b.empty_points().filter(|&i| b.is_near(i)).collect();
    c.bench_function("play+undo each candidate (middlegame)", |bench| {
        bench.iter(|| {
            for &i in &empties {
                b.play_unchecked(i);
                b.undo();
            }
        })
    });
}

fn evaluations(c: &mut Criterion) {
    let boards: Vec<_> = recorded_middlegames(3, 8, 20)
        .iter()
        .map(|g| board_of(g, None).unwrap())
        .collect();
    let mut group = c.benchmark_group("evaluate 8 middlegames");
    let evals = [
        ("pattern (tuned weights)", Eval::Pattern(Weights::TUNED)),
        ("learned tables", Eval::Learned(Learned::embedded())),
    ];
    for (name, eval) in evals {
        group.bench_function(name, |bench| {
            bench.iter(|| {
                boards
                    .iter()
                    .map(|b| std::hint::black_box(eval.evaluate(b)))
                    .sum::<i32>()
            })
        });
    }
    group.finish();
}

fn search_nodes(c: &mut Criterion) {
    let games = recorded_middlegames(2, 4, 20);
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    group.bench_function("20k nodes x 4 middlegames", |bench| {
        let mut s = Searcher::new(Options::default());
        bench.iter(|| {
            for g in &games {
                let mut b = board_of(g, None).unwrap();
                s.clear();
                s.search(
                    &mut b,
                    Limits {
                        time: None,
                        depth: 60,
                        nodes: 20_000,
                    },
                );
            }
        })
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

criterion_group!(
    benches,
    make_unmake,
    evaluations,
    search_nodes,
    tactical_suite
);
criterion_main!(benches);
