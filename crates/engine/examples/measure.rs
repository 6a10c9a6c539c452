//! Measures the figures the engine's documentation reports: nodes per
//! second and depth reached in one second from middlegame positions, and
//! the time to solve the tactical suite. Run with
//! `cargo run --release -p inarow-engine --example measure [-- SECONDS]`
//! (with `OPTIONS=...`, settings as `inarow selfplay --a` takes them);
//! `-- --boards` prints twelve 14-stone middlegames instead, one a line as the stones of
//! a Gomocup `BOARD` command (`x,y,1` for the side to move's, `x,y,2` for
//! the other's), so other engines can be timed on the same positions
//! (`scripts/brain-speed.sh`).

use std::time::{Duration, Instant};

use inarow_engine::player::board_of;
use inarow_engine::search::{Limits, Options, Request, Searcher};
use inarow_engine::vcf_solver::Vcf;

#[path = "../tests/support/suite.rs"]
mod suite;
use suite::{generate_suite, gomocup_board, recorded_middlegames};

fn main() {
    if std::env::args().any(|a| a == "--boards") {
        for g in recorded_middlegames(3, 12, 14) {
            println!("{}", gomocup_board(&g));
        }
        return;
    }
    let secs: f64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1.0);
    let games = recorded_middlegames(2, 8, 20);
    // `OPTIONS=quiet_fours=4,...` measures other settings.
    let options: Options = std::env::var("OPTIONS")
        .unwrap_or_default()
        .parse()
        .expect("OPTIONS: settings as `inarow selfplay --a` takes them");
    let mut searcher = Searcher::new(options);
    let (mut nodes, mut time, mut depths) = (0u64, Duration::ZERO, Vec::new());
    for g in &games {
        let mut b = board_of(g, None).expect("live board");
        searcher.clear();
        let f = searcher.search(
            &mut b,
            &mut Request::new(Limits::time(Duration::from_secs_f64(secs))),
        );
        nodes += f.nodes;
        time += f.elapsed;
        depths.push(if f.vcf {
            "VCF".to_string()
        } else if f.depth == 0 {
            "forced".to_string()
        } else {
            f.depth.to_string()
        });
    }
    println!(
        "middlegames: {} positions of 20 stones, {secs} s each",
        games.len()
    );
    println!(
        "  nodes/s: {:.0}",
        nodes as f64 / time.as_secs_f64().max(1e-9)
    );
    println!(
        "  depth reached (VCF: won by the threat search; forced: one legal defence): {}",
        depths.join(" ")
    );
    let suite = generate_suite(11, 24, 4);
    let longest = suite.iter().map(|p| p.attacks).max().unwrap_or(0);
    let start = Instant::now();
    let mut vcf = Vcf::new(1_000_000);
    let mut solved = 0;
    for p in &suite {
        let mut b = board_of(&p.game, None).expect("live board");
        solved += usize::from(vcf.solve(&mut b).is_some());
    }
    println!(
        "tactical suite: {solved}/{} solved (up to {longest} fours) in {:.1} ms",
        suite.len(),
        start.elapsed().as_secs_f64() * 1e3
    );
}
