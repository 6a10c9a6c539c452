//! Bots in the usual languages still run in the judge's sandbox, whose
//! system calls are an allow list (docs/judge.md, The contract): the
//! example bots (Python, Node.js and the project's engine), and bots that
//! play the first free point written as a shell script, in Python, in
//! Node.js, in C and in Rust (compiled here), and in Java, Go and Haskell
//! where this machine has their compilers (each one missing is said on
//! standard error). They play a whole tournament, judged by root and by an
//! ordinary user, and none forfeits: a call a runtime needs refused by the
//! list would show as a crash, a silence or a timeout.

use crate::common;

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/languages")
        .join(name)
}

/// Whether `program` runs here (`program --version`).
fn present(program: &str, version: &str) -> bool {
    Command::new(program)
        .arg(version)
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Runs `program ARGS` in `dir`; panics with its output if it fails.
fn build(dir: &Path, program: &str, args: &[&str], env: &[(&str, &Path)]) {
    let out = Command::new(program)
        .args(args)
        .current_dir(dir)
        .envs(env.iter().map(|(k, v)| (*k, *v)))
        .output()
        .unwrap_or_else(|e| panic!("{program}: {e}"));
    assert!(
        out.status.success(),
        "{program} {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A bot folder `name` holding `files` (from the fixtures) and a meta file
/// running `command ARGS`.
fn bot(bots: &Path, name: &str, files: &[(&str, &str)], command: &str, args: &str) -> PathBuf {
    let folder = bots.join(name);
    fs::create_dir_all(&folder).unwrap();
    for (from, to) in files {
        fs::copy(fixture(from), folder.join(to)).unwrap();
    }
    fs::write(
        folder.join("meta"),
        format!("{name}\n{command}\n{args}\n1\n"),
    )
    .unwrap();
    folder
}

/// The bots folder: every language this machine can build, and the
/// example bots; returns the languages passed over.
fn bots(dir: &Path) -> (PathBuf, Vec<&'static str>) {
    let bots = dir.join("bots");
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../bots");
    for example in ["random-python", "random-js"] {
        let folder = bots.join(example);
        fs::create_dir_all(&folder).unwrap();
        for entry in fs::read_dir(repo.join(example)).unwrap() {
            let entry = entry.unwrap();
            if entry.file_type().unwrap().is_file() {
                fs::copy(entry.path(), folder.join(entry.file_name())).unwrap();
            }
        }
    }
    common::engine_bot(&bots, "inarow", 100);

    let sh = bot(&bots, "sh", &[("bot.sh", "bot.sh")], "./bot.sh", "");
    fs::set_permissions(sh.join("bot.sh"), fs::Permissions::from_mode(0o755)).unwrap();
    bot(
        &bots,
        "python",
        &[("first_free.py", "bot.py")],
        "python3",
        "bot.py",
    );
    bot(&bots, "node", &[("bot.js", "bot.js")], "node", "bot.js");
    let c = bot(&bots, "c", &[("bot.c", "bot.c")], "./bot", "");
    build(&c, "gcc", &["-O2", "-o", "bot", "bot.c"], &[]);
    let rust = bot(&bots, "rust", &[("bot.rs", "bot.rs")], "./bot", "");
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    build(&rust, &rustc, &["-O", "-o", "bot", "bot.rs"], &[]);

    let mut missing = Vec::new();
    if present("javac", "-version") {
        let java = bot(
            &bots,
            "java",
            &[("Bot.java", "Bot.java")],
            "java",
            "-XX:+UseSerialGC -cp . Bot",
        );
        build(&java, "javac", &["Bot.java"], &[]);
    } else {
        missing.push("Java");
    }
    if present("go", "version") {
        let go = bot(&bots, "go", &[("bot.go", "bot.go")], "./bot", "");
        let cache = dir.join("go-cache");
        build(
            &go,
            "go",
            &["build", "-o", "bot", "bot.go"],
            &[("GOCACHE", &cache), ("HOME", dir)],
        );
    } else {
        missing.push("Go");
    }
    if present("ghc", "--version") {
        let haskell = bot(&bots, "haskell", &[("bot.hs", "bot.hs")], "./bot", "");
        build(&haskell, "ghc", &["-O", "-o", "bot", "bot.hs"], &[]);
    } else {
        missing.push("Haskell");
    }
    (bots, missing)
}

/// The tournament of every language, judged by root or by an ordinary
/// user (nobody, in control groups given to it).
fn every_language_plays(ordinary: bool) {
    let dir = common::workspace();
    let (bots, missing) = bots(dir.path());
    for language in &missing {
        eprintln!("judge_languages: no {language} compiler on this machine: its bot is not tried");
    }
    let out = dir.path().join("out");
    fs::create_dir_all(&out).unwrap();
    let delegated = common::Delegated::new();
    let judge = Path::new(env!("CARGO_BIN_EXE_inarow"));
    let mut command = if ordinary {
        common::give_to_nobody(dir.path());
        delegated.command(judge)
    } else {
        Command::new(judge)
    };
    let results = out.join("results.json");
    let ran = command
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
        .arg("--results")
        .arg(&results)
        .arg("--sgf")
        .arg(out.join("sgf"))
        .current_dir(&out)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&ran.stderr);
    assert!(ran.status.success(), "the judge failed: {stderr}");
    let results: Value = serde_json::from_str(&fs::read_to_string(&results).unwrap()).unwrap();
    let names: Vec<&str> = results["bots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b.as_str().unwrap())
        .collect();
    let expected = 11 - missing.len();
    assert_eq!(
        names.len(),
        expected,
        "bots left out: {}",
        results["left_out"]
    );
    let forfeits: Vec<&Value> = results["games"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| !g["forfeit"].is_null())
        .collect();
    assert!(forfeits.is_empty(), "forfeits: {forfeits:#?}\n{stderr}");
    for standing in results["standings"].as_array().unwrap() {
        let played: u64 = ["wins", "ties", "losses"]
            .iter()
            .map(|k| standing[k].as_u64().unwrap())
            .sum();
        assert_eq!(played, 2 * (expected as u64 - 1), "{standing}");
    }
    assert!(
        !stderr.to_lowercase().contains("warning"),
        "the judge warned: {stderr}"
    );
}

#[test]
fn every_language_plays_under_a_root_judge() {
    every_language_plays(false);
}

/// (When the tests do not run as root, their own user is the ordinary one.)
#[test]
fn every_language_plays_under_an_ordinary_judge() {
    every_language_plays(true);
}
