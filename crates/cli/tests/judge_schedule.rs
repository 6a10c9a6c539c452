//! `inarow judge` plays a bot's games one at a time, so that `-j` changes
//! nothing a bot sees.

mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../judge/tests/fixtures/fake_bot.py")
}

/// A bot folder running the fake bot (copied in: a contained bot reads
/// only its own folder) with `opts`.
fn bot(bots: &Path, name: &str, opts: &str) -> PathBuf {
    let folder = bots.join(name);
    fs::create_dir_all(&folder).unwrap();
    fs::copy(fixture(), folder.join("fake_bot.py")).unwrap();
    let meta = format!("{name}\npython3\nfake_bot.py {opts}\n0\n");
    fs::write(folder.join("meta"), meta).unwrap();
    folder
}

fn text(out: &[u8]) -> String {
    String::from_utf8_lossy(out).into_owned()
}

fn succeeded(out: &Output) -> String {
    assert!(
        out.status.success(),
        "{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    text(&out.stdout)
}

/// How many games the counting bot in `folder` counted.
fn counted(folder: &Path) -> String {
    fs::read_to_string(folder.join("count.txt")).unwrap_or_default()
}

/// Three bots that count their games in a file (read at start, written at
/// `EXIT`), in tournaments of one seed at `-j 1`, `-j 2` and `-j 3`, by a
/// root judge or by an ordinary user's (`nobody`, in control groups given
/// to it, when the tests run as root): each bot counts every game it played
/// (4), and the results files are byte for byte the same. A judge that let
/// two games of one bot overlap would lose counts (the judge crate's
/// `two_games_of_one_bot_at_once_lose_a_count` shows it).
fn each_game_counts(as_user: bool) {
    let mut results = Vec::new();
    for jobs in ["1", "2", "3"] {
        let dir = common::workspace();
        let bots = dir.path().join("bots");
        let folders: Vec<PathBuf> = ["ann", "ben", "cat"]
            .iter()
            .map(|name| bot(&bots, name, "play=random count=1"))
            .collect();
        let delegated = common::Delegated::new();
        let mut judge = if as_user {
            common::give_to_nobody(dir.path());
            delegated.command(env!("CARGO_BIN_EXE_inarow"))
        } else {
            Command::new(env!("CARGO_BIN_EXE_inarow"))
        };
        let out = judge
            .args(["judge", "--seed", "21", "-j", jobs, "--timeout", "30"])
            .arg("--bots")
            .arg(&bots)
            .arg("--results")
            .arg(dir.path().join("results.json"))
            .arg("--sgf")
            .arg(dir.path().join("sgf"))
            .output()
            .unwrap();
        let stdout = succeeded(&out);
        assert!(
            stdout.contains(&format!("6 games, {jobs} at once")),
            "{stdout}"
        );
        for folder in &folders {
            assert_eq!(counted(folder), "4\n", "-j {jobs}: {}", folder.display());
        }
        results.push(fs::read(dir.path().join("results.json")).unwrap());
    }
    assert!(results[0] == results[1] && results[1] == results[2]);
}

#[test]
fn each_game_of_a_bot_starts_from_the_folder_its_last_game_left_under_a_root_judge() {
    each_game_counts(false);
}

#[test]
fn each_game_of_a_bot_starts_from_the_folder_its_last_game_left_under_an_ordinary_judge() {
    each_game_counts(true);
}

/// The example bot random-js, with the engine and the Python example, in a
/// `-j 2` tournament: its memory counts every game it played.
#[test]
fn random_js_remembers_every_game_of_a_parallel_tournament() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dir = common::workspace();
    let bots = dir.path().join("bots");
    for name in ["random-js", "random-python"] {
        let folder = bots.join(name);
        fs::create_dir_all(&folder).unwrap();
        for file in fs::read_dir(repo.join("bots").join(name)).unwrap() {
            let path = file.unwrap().path();
            if path.file_name().unwrap() != "memory.json" {
                fs::copy(&path, folder.join(path.file_name().unwrap())).unwrap();
            }
        }
    }
    // A fourth bot, so that two games of disjoint bots can be played at once.
    bot(&bots, "ann", "play=random");
    let engine = bots.join("inarow");
    fs::create_dir_all(&engine).unwrap();
    fs::write(
        engine.join("meta"),
        "inarow\ninarow\nbot --move-nodes 300\n0\n",
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_inarow"))
        .args([
            "judge",
            "--seed",
            "3",
            "-j",
            "2",
            "--timeout",
            "30",
            "--bots",
        ])
        .arg(&bots)
        .current_dir(dir.path())
        .output()
        .unwrap();
    let stdout = succeeded(&out);
    assert!(!stdout.contains("forfeits:"), "{stdout}");
    let memory = fs::read_to_string(bots.join("random-js/memory.json")).unwrap();
    let memory: serde_json::Value = serde_json::from_str(&memory).unwrap();
    for opponent in ["random-python", "ann", "inarow"] {
        assert_eq!(memory[opponent]["played"], 2, "{opponent}: {memory}");
    }
}
