//! Judge overhead: the round trip of one move with an instant bot, starting
//! and ending one bot, and games per second in a tournament of instant bots;
//! each with the sandbox on (the default) and off (`--no-sandbox`).
//!
//! The bots are this very benchmark binary started with `--inarow-bot echo`
//! (answers `(0,0)` at once, without reading the board) or
//! `--inarow-bot house` (the house bot, microseconds per move), so no
//! interpreter start-up is measured: what is left is the judge's own cost.
#![allow(missing_docs)]

use std::io::{BufRead, Write};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput};
use inarow_agents::house::HouseBot;
use inarow_core::{Mnk, Player, Point, Rule};
use inarow_judge::BotMeta;
use inarow_judge::process::{BotProcess, Start};
use inarow_judge::referee::Contestant;
use inarow_judge::tournament::{self, Config};
use inarow_protocol::koth::{self, bot::Reply};
use inarow_sandbox::{Launcher, Limits, Sandbox};

fn serve(kind: &str, seed: u64) {
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    let mut house = HouseBot::new(seed);
    for line in stdin.lock().lines() {
        let line = line.unwrap();
        let answer = match kind {
            "echo" => "(0,0)".to_string(),
            _ => match koth::bot::reply(&mut house, &line).unwrap() {
                Reply::Answer(a) => a,
                Reply::Exit => return,
            },
        };
        writeln!(out, "{answer}").unwrap();
        out.flush().unwrap();
    }
}

/// A bot folder `name` in `dir`, owned by the user a root judge runs it as.
fn bot(dir: &Path, name: &str, kind: &str) -> BotMeta {
    let folder = dir.join(name);
    std::fs::create_dir_all(&folder).unwrap();
    // The benchmark itself is the bot, found (as the judge's own program)
    // after PATH.
    let exe = std::env::current_exe().unwrap();
    let exe = exe.file_name().unwrap().to_str().unwrap();
    let text = format!("{name}\n{exe}\n--inarow-bot {kind}\n0\n");
    BotMeta::parse(&text, folder.canonicalize().unwrap()).unwrap()
}

fn sandboxes() -> [(&'static str, Sandbox); 2] {
    let launcher = Launcher {
        program: PathBuf::from(env!("CARGO_BIN_EXE_inarow-contain")),
        prefix: Vec::new(),
        share_user: false,
    };
    [
        (
            "sandbox on",
            Sandbox::contained(launcher, Limits::default(), Vec::new())
                .expect("the benchmark machine bounds memory and processors"),
        ),
        ("sandbox off", Sandbox::off()),
    ]
}

fn workspace() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    dir
}

/// A middle-game position with 40 stones, as prompts carry it.
fn middle_game() -> Mnk {
    let mut game = Mnk::gomoku();
    let mut house = HouseBot::new(7);
    for i in 0..40 {
        let point = house.choose(&game);
        let colour = if i % 2 == 0 { Player::X } else { Player::O };
        game.place(point, colour).unwrap();
    }
    game
}

fn round_trip(c: &mut Criterion) {
    let dir = workspace();
    let meta = bot(dir.path(), "echo", "echo");
    let folders = [meta.folder.clone()];
    let game = middle_game();
    let mut group = c.benchmark_group("judge");
    for (label, sandbox) in sandboxes() {
        let start = Start {
            sandbox: &sandbox,
            timeout: Some(Duration::from_secs(10)),
            echo: None,
            stderr: None,
            folders: &folders,
        };
        let mut process = BotProcess::start(&meta, "judge", 1, start).unwrap();
        group.bench_function(
            BenchmarkId::new("move round trip (prompt, answer, parse, check)", label),
            |b| {
                b.iter(|| {
                    let prompt = koth::prompt_move(41, &game);
                    let answer = process.ask(&prompt).unwrap();
                    let point: Point = koth::parse_move(&answer).unwrap();
                    std::hint::black_box(game.clone().place(point, Player::X).is_err())
                })
            },
        );
        group.bench_function(
            BenchmarkId::new("start, one answer, end a bot", label),
            |b| {
                b.iter(|| {
                    let mut process = BotProcess::start(&meta, "judge", 1, start).unwrap();
                    std::hint::black_box(process.ask("A []").unwrap());
                    process.exit("EXIT TIE");
                    process.finish();
                })
            },
        );
    }
    group.bench_function("format a 40-stone board", |b| {
        b.iter(|| koth::format_board(std::hint::black_box(&game)))
    });
    group.finish();
}

/// Games a second in tournaments of 4 and of 16 house bots, with `-j 1`
/// and `-j 2`: what playing a bot's games one at a time costs beside
/// games handed to any free thread.
fn games_per_second(c: &mut Criterion) {
    let dir = workspace();
    let mut group = c.benchmark_group("tournament");
    group.sample_size(10);
    for count in [4, 16] {
        let bots: Vec<BotMeta> = (1..=count)
            .map(|n| bot(dir.path(), &format!("h{n}"), "house"))
            .collect();
        let games = tournament::schedule(bots.len(), 0).len();
        group.throughput(Throughput::Elements(games as u64));
        for (label, sandbox) in sandboxes() {
            for jobs in [1, 2] {
                let config = Config {
                    seed: 5,
                    jobs,
                    timeout: Some(Duration::from_secs(10)),
                    rule: Rule::Freestyle,
                    sandbox: sandbox.clone(),
                    stderr: None,
                    left_out: Vec::new(),
                };
                group.bench_with_input(
                    BenchmarkId::new(format!("{count} house bots, games, {label}"), jobs),
                    &jobs,
                    |b, _| b.iter(|| tournament::play_all(&bots, &config, &|_| {})),
                );
            }
        }
    }
    group.finish();
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("--inarow-bot") {
        let seed = args.last().and_then(|s| s.parse().ok()).unwrap_or(0);
        serve(&args[2], seed);
        return;
    }
    let mut c = Criterion::default().configure_from_args();
    round_trip(&mut c);
    games_per_second(&mut c);
    c.final_summary();
}
