//! Judge overhead: the round trip of one move with an instant bot, starting
//! and ending one bot, and games per second in a tournament of instant bots;
//! each with the sandbox on (the default) and off (`--no-sandbox`). And the
//! commit after a game: what a bot wrote, 10,000 names with hard links
//! among them, written back to its folder on the organiser's disk.
//!
//! The bots are this very benchmark binary started with `--inarow-bot echo`
//! (answers `(0,0)` at once, without reading the board) or
//! `--inarow-bot house` (the house bot, microseconds per move), so no
//! interpreter start-up is measured: what is left is the judge's own cost.
#![allow(missing_docs)]

use std::io::{BufRead, Write};
use std::os::fd::AsFd;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use criterion::{BenchmarkId, Criterion, SamplingMode, Throughput};
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
    // A tournament of 16 bots takes seconds: ten of them make a sample.
    group.sample_size(10).sampling_mode(SamplingMode::Flat);
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

/// Folders of what a game wrote, for the commit's benchmark, and names
/// in each: 10,000 names in all.
const FOLDERS: usize = 100;
const NAMES: usize = 100;

/// What a game left in the overlay's upper folder: [`FOLDERS`] folders of
/// [`NAMES`] names, 1 KiB files. In each, `linked` files have a second
/// name, half of them beside the first and half in the next folder (so
/// the commit links across folders too); the other names are files of
/// their own.
fn written(linked: usize) -> tempfile::TempDir {
    let dir = workspace();
    let data = [b'x'; 1024];
    let folder = |i: usize| dir.path().join(format!("d{}", i % FOLDERS));
    for i in 0..FOLDERS {
        std::fs::create_dir(folder(i)).unwrap();
    }
    for i in 0..FOLDERS {
        for j in 0..NAMES - 2 * linked {
            std::fs::write(folder(i).join(format!("f{j}")), data).unwrap();
        }
        for j in 0..linked {
            let first = folder(i).join(format!("l{j}"));
            std::fs::write(&first, data).unwrap();
            let second = if j < linked / 2 {
                folder(i).join(format!("m{j}"))
            } else {
                folder(i + 1).join(format!("n{i}-{j}"))
            };
            std::fs::hard_link(&first, second).unwrap();
        }
    }
    dir
}

/// The commit of a bot's folder after its game: 10,000 names written to
/// an empty folder, with 2,000 files of two names (within the table of
/// 4,096 linked files the commit kept before issue 54) and with 5,000
/// (past it: before issue 54, the names past the table were copies).
/// Nothing is removed until every commit is measured: on an ext4 without
/// a journal, a new file's inode is sought past those removed in the last
/// seconds, at a cost that would swamp the commit's own.
fn folder_commit(c: &mut Criterion) {
    let mut group = c.benchmark_group("commit");
    group.sample_size(10).sampling_mode(SamplingMode::Flat);
    group.throughput(Throughput::Elements((FOLDERS * NAMES) as u64));
    let disk = workspace();
    let meta = std::fs::metadata(disk.path()).unwrap();
    let owner = Some((meta.uid(), meta.gid()));
    let uppers = [20, 50].map(|linked| (linked, written(linked)));
    let mut kept = Vec::new();
    for (linked, upper) in &uppers {
        let files = FOLDERS * (NAMES - linked);
        let name = format!(
            "10,000 names, {files} files, {} with two names",
            FOLDERS * linked
        );
        group.bench_function(name, |b| {
            b.iter_custom(|iters| {
                let mut time = Duration::ZERO;
                for _ in 0..iters {
                    let folder = tempfile::tempdir_in(disk.path()).unwrap();
                    let from = std::fs::File::open(upper.path()).unwrap();
                    let to = std::fs::File::open(folder.path()).unwrap();
                    let start = Instant::now();
                    inarow_sandbox::folder::commit(from.as_fd(), to.as_fd(), owner).unwrap();
                    time += start.elapsed();
                    kept.push(folder);
                }
                time
            })
        });
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
    folder_commit(&mut c);
    c.final_summary();
}
