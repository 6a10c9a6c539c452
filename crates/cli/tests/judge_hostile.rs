//! Hostile bots against the judge's sandbox. Each plays a tournament with an
//! honest bot and the engine; afterwards the honest bot's files are as they
//! were, nothing outside the bot folders was read or written, no process of
//! the tournament is alive, the judge stayed small, each offender forfeited
//! for the limit it went over, the honest bot and the engine forfeited
//! nothing, and the same seed gives the same standings.

mod common;

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use serde_json::Value;

const SECRET: &str = "the secret outside every bot folder";

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/hostile_bot.py")
}

/// A folder `name` playing `hostile_bot.py MODE MARKER`.
fn hostile(bots: &Path, name: &str, mode: &str, marker: &str, show_stderr: bool) -> PathBuf {
    let folder = bots.join(name);
    fs::create_dir_all(&folder).unwrap();
    fs::copy(fixture(), folder.join("bot.py")).unwrap();
    let meta = format!(
        "{name}\npython3\nbot.py {mode} {marker}\n{}\n",
        u8::from(show_stderr)
    );
    fs::write(folder.join("meta"), meta).unwrap();
    common::give_to_bot(&folder);
    folder
}

/// The test's world: bots (honest, the engine, and `mode`), a secret and an
/// empty folder outside them.
struct World {
    dir: tempfile::TempDir,
    marker: String,
}

impl World {
    fn new(mode: &str, show_stderr: bool) -> World {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let dir = common::workspace();
        let marker = format!(
            "inarow-hostile-{mode}-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        );
        let bots = dir.path().join("bots");
        hostile(&bots, "honest", "honest", &marker, false);
        hostile(&bots, mode, mode, &marker, show_stderr);
        let engine = bots.join("engine");
        fs::create_dir_all(&engine).unwrap();
        // `inarow` by name: the judge's own program.
        let meta = "engine\ninarow\nbot --move-nodes 300\n0\n";
        fs::write(engine.join("meta"), meta).unwrap();
        common::give_to_bot(&engine);
        fs::write(dir.path().join("secret.txt"), SECRET).unwrap();
        fs::create_dir_all(dir.path().join("outside")).unwrap();
        World { dir, marker }
    }

    fn bots(&self) -> PathBuf {
        self.dir.path().join("bots")
    }

    fn attack_log(&self, bot: &str) -> String {
        fs::read_to_string(self.bots().join(bot).join("attack.log")).unwrap_or_default()
    }
}

/// Every file of a folder and its bytes.
fn snapshot(folder: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    fs::read_dir(folder)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .map(|p| (p.clone(), fs::read(&p).unwrap()))
        .collect()
}

/// Live processes whose command line holds `marker`.
fn marked(marker: &str) -> Vec<i32> {
    fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let pid: i32 = e.file_name().to_str()?.parse().ok()?;
            let cmdline = fs::read(e.path().join("cmdline")).ok()?;
            String::from_utf8_lossy(&cmdline)
                .contains(marker)
                .then_some(pid)
        })
        .filter(|&pid| {
            let stat = fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
            let state = stat.rsplit(')').next().unwrap_or("").trim_start();
            !(state.is_empty() || state.starts_with('Z'))
        })
        .collect()
}

/// What one run of the judge left.
struct Run {
    results: Value,
    stderr: String,
    /// The judge's peak resident memory in KiB, as it was last seen.
    peak_kib: u64,
    /// Whether a marked process was seen while the judge ran.
    saw_marked: bool,
}

/// Runs `inarow judge ARGS` over the world's bots with small limits.
fn judge(world: &World, tag: &str, extra: &[&str]) -> Run {
    let out = world.dir.path().join(format!("out-{tag}"));
    fs::create_dir_all(&out).unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_inarow"))
        .args(["judge", "--seed", "7", "-j", "1", "--timeout", "20"])
        .args(["--memory", "256M", "--processes", "48"])
        .arg("--bots")
        .arg(world.bots())
        .arg("--results")
        .arg(out.join("results.json"))
        .arg("--sgf")
        .arg(out.join("sgf"))
        .args(extra)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    let done = Arc::new(AtomicBool::new(false));
    let watcher = {
        let done = done.clone();
        let marker = world.marker.clone();
        std::thread::spawn(move || {
            let (mut peak, mut saw) = (0u64, false);
            while !done.load(Ordering::Relaxed) {
                let status = fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
                if let Some(kib) = status
                    .lines()
                    .find_map(|l| l.strip_prefix("VmHWM:"))
                    .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
                {
                    peak = peak.max(kib);
                }
                saw |= !marked(&marker).is_empty();
                std::thread::sleep(Duration::from_millis(20));
            }
            (peak, saw)
        })
    };
    let output = child.wait_with_output().unwrap();
    done.store(true, Ordering::Relaxed);
    let (peak_kib, saw_marked) = watcher.join().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(output.status.success(), "the judge failed: {stderr}");
    let results =
        serde_json::from_str(&fs::read_to_string(out.join("results.json")).unwrap()).unwrap();
    Run {
        results,
        stderr,
        peak_kib,
        saw_marked,
    }
}

/// The forfeits of a run as (bot, fault kind).
fn forfeits(results: &Value) -> Vec<(String, String)> {
    results["games"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| !g["forfeit"].is_null())
        .map(|g| {
            (
                g["forfeit"]["by"].as_str().unwrap().to_string(),
                g["forfeit"]["fault"]["kind"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// The fault kinds of `bot`'s forfeits.
fn forfeits_by(results: &Value, bot: &str) -> Vec<String> {
    forfeits(results)
        .into_iter()
        .filter(|(by, _)| by == bot)
        .map(|(_, kind)| kind)
        .collect()
}

/// Plays the world's tournament twice and checks what every hostile bot
/// must leave untouched; returns the first run.
fn contained(world: &World, mode: &str) -> Run {
    let honest = world.bots().join("honest");
    let before = snapshot(&honest);
    let first = judge(world, "first", &[]);
    let second = judge(world, "second", &[]);
    assert_eq!(
        snapshot(&honest),
        before,
        "{mode}: the honest bot's files changed"
    );
    assert_eq!(
        fs::read_to_string(world.dir.path().join("secret.txt")).unwrap(),
        SECRET
    );
    let outside: Vec<_> = fs::read_dir(world.dir.path().join("outside"))
        .unwrap()
        .collect();
    assert!(outside.is_empty(), "{mode}: something was written outside");
    let mut left = Vec::new();
    let start = Instant::now();
    // The kernel finishes killing a namespace a moment after its game ends.
    while start.elapsed() < Duration::from_secs(3) {
        left = common::processes_in(&world.bots());
        left.extend(marked(&world.marker));
        if left.is_empty() {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(
        left.is_empty(),
        "{mode}: processes {left:?} outlived the tournament"
    );
    for run in [&first, &second] {
        assert!(
            run.peak_kib < 200 * 1024,
            "{mode}: the judge grew to {} KiB",
            run.peak_kib
        );
        let innocent: Vec<_> = forfeits(&run.results)
            .into_iter()
            .filter(|(by, _)| by == "honest" || by == "engine")
            .collect();
        assert!(innocent.is_empty(), "{mode}: {innocent:?}");
    }
    assert_eq!(
        first.results["standings"], second.results["standings"],
        "{mode}: the same seed, the same standings"
    );
    first
}

#[test]
fn a_bot_cannot_rewrite_its_opponents_program() {
    let world = World::new("rewrite", false);
    let run = contained(&world, "rewrite");
    let log = world.attack_log("rewrite");
    // Three attempts in each of its four games, in each of the two runs.
    assert_eq!(log.matches(": denied").count(), 3 * 4 * 2, "{log}");
    assert!(!log.contains("done"), "{log}");
    // A judge started as root does not run bots as root.
    assert!(log.contains("uid ") && !log.contains("uid 0\n"), "{log}");
    assert!(
        forfeits(&run.results).is_empty(),
        "{:?}",
        forfeits(&run.results)
    );
}

#[test]
fn a_bot_reads_nothing_outside_its_folder() {
    let world = World::new("read", false);
    contained(&world, "read");
    let log = world.attack_log("read");
    for attempt in [
        "read ../../secret.txt",
        "read /etc/shadow",
        "list /",
        "plant",
    ] {
        assert!(
            log.lines()
                .filter(|l| l.starts_with(attempt))
                .all(|l| l.contains("denied")),
            "{attempt}: {log}"
        );
        assert!(log.contains(attempt), "{attempt} was tried: {log}");
    }
    let loot = world.bots().join("read/loot.txt");
    assert!(!loot.exists(), "{:?}", fs::read_to_string(loot));
}

#[test]
fn a_grandchild_in_its_own_session_dies_with_the_game() {
    let world = World::new("escape", false);
    let run = contained(&world, "escape");
    assert!(world.attack_log("escape").contains("started a grandchild"));
    assert!(run.saw_marked, "the grandchild ran while the judge did");
    assert!(
        forfeits(&run.results).is_empty(),
        "{:?}",
        forfeits(&run.results)
    );
}

#[test]
fn a_bot_over_its_memory_forfeits_for_memory() {
    let world = World::new("hog", false);
    let run = contained(&world, "hog");
    assert_eq!(
        forfeits_by(&run.results, "hog"),
        ["memory"; 4],
        "every game of the hog"
    );
    let log = world.attack_log("hog");
    assert!(log.contains("holding 64 MiB"), "{log}");
    assert!(!log.contains("holding 512 MiB"), "{log}");
    let sgf_dir = world.dir.path().join("out-first/sgf");
    let sgf: String = fs::read_dir(sgf_dir)
        .unwrap()
        .map(|e| fs::read_to_string(e.unwrap().path()).unwrap())
        .collect();
    assert!(
        sgf.contains("hog forfeits: memory: over its 256 MiB of memory"),
        "{sgf}"
    );
}

#[test]
fn a_bot_that_forks_without_end_forfeits_for_processes() {
    let world = World::new("fork", false);
    let run = contained(&world, "fork");
    assert_eq!(
        forfeits_by(&run.results, "fork"),
        ["processes"; 4],
        "every game of the forker"
    );
    let log = world.attack_log("fork");
    assert!(log.contains("refused after"), "{log}");
    assert!(run.saw_marked);
}

#[test]
fn a_bot_flooding_its_stderr_costs_the_judge_nothing() {
    let world = World::new("flood", true);
    let run = contained(&world, "flood");
    assert!(
        forfeits(&run.results).is_empty(),
        "{:?}",
        forfeits(&run.results)
    );
    assert!(
        run.stderr.contains("more bytes cut]"),
        "{}",
        &run.stderr[..run.stderr.len().min(500)]
    );
    assert!(
        run.stderr.len() < 64 * 1024,
        "{} bytes of stderr",
        run.stderr.len()
    );
    // The same in -d mode, where every line is echoed.
    let out = Command::new(env!("CARGO_BIN_EXE_inarow"))
        .args(["judge", "--seed", "3", "--timeout", "20", "--bots"])
        .arg(world.bots())
        .args(["-d", "flood"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("flood ! xxxx"),
        "{}",
        &stdout[..stdout.len().min(500)]
    );
    assert!(stdout.contains("more bytes cut]"));
    assert!(stdout.len() < 256 * 1024, "{} bytes echoed", stdout.len());
}

/// Plays the world's tournament once with `extra` limits; the forfeits of `bot`.
fn forfeits_of(world: &World, bot: &str, extra: &[&str]) -> Vec<String> {
    let run = judge(world, "limits", extra);
    let innocent: Vec<_> = forfeits(&run.results)
        .into_iter()
        .filter(|(by, _)| by != bot)
        .collect();
    assert!(innocent.is_empty(), "{innocent:?}");
    forfeits_by(&run.results, bot)
}

#[test]
fn a_bot_over_its_cpu_time_forfeits_for_cpu() {
    let world = World::new("spin", false);
    let kinds = forfeits_of(&world, "spin", &["--cpu", "1"]);
    assert_eq!(kinds, ["cpu"; 4], "every game of the spinner");
    assert!(world.attack_log("spin").contains("computing"));
}

#[test]
fn a_bot_writing_past_the_file_size_limit_forfeits_for_file_size() {
    let world = World::new("bigfile", false);
    let kinds = forfeits_of(&world, "bigfile", &["--file-size", "1M"]);
    assert_eq!(kinds, ["file-size"; 4], "every game of the writer");
    let big = world.bots().join("bigfile/big.bin");
    assert_eq!(
        fs::metadata(big).unwrap().len(),
        1 << 20,
        "cut at the limit"
    );
    assert!(!world.attack_log("bigfile").contains("wrote 4 MiB"));
}
