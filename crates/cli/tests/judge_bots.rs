//! The example bots of `bots/` in a real tournament, and `inarow bot` itself.

use crate::common;

use std::fs;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

fn inarow() -> Command {
    Command::new(env!("CARGO_BIN_EXE_inarow"))
}

fn copy_bot(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap();
        if name != "memory.json" {
            fs::copy(&path, to.join(name)).unwrap();
        }
    }
}

/// A bots folder holding the example `bots/random-python` and an `inarow`
/// bot that runs this test build with `args`.
fn bots_folder(dir: &Path, inarow_args: &str) -> std::path::PathBuf {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let bots = dir.join("bots");
    copy_bot(
        &repo.join("bots/random-python"),
        &bots.join("random-python"),
    );
    let engine = bots.join("inarow");
    fs::create_dir_all(&engine).unwrap();
    // `inarow` by name: the judge's own program.
    let meta = format!("inarow\ninarow\n{inarow_args}\n0\n");
    fs::write(engine.join("meta"), meta).unwrap();
    bots
}

fn tournament(dir: &Path, tag: &str) -> (String, String) {
    let results = dir.join(format!("{tag}.json"));
    let out = inarow()
        .args([
            "judge",
            "--seed",
            "5",
            "-j",
            "1",
            "--timeout",
            "30",
            "--bots",
        ])
        .arg(dir.join("bots"))
        .arg("--results")
        .arg(&results)
        .arg("--sgf")
        .arg(dir.join(format!("sgf-{tag}")))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (stdout, fs::read_to_string(results).unwrap())
}

#[test]
fn the_example_bots_play_legally_reproducibly_and_one_remembers() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dir = common::workspace();
    // The example meta runs the release build's engine on the clock, which
    // is not deterministic; replaying needs deterministic bots, so here the
    // engine searches a fixed number of positions per answer.
    let bots = bots_folder(dir.path(), "bot --move-nodes 3000");
    copy_bot(&repo.join("bots/random-js"), &bots.join("random-js"));

    let (stdout, first) = tournament(dir.path(), "first");
    assert!(!stdout.contains("forfeits:"), "{stdout}");
    assert_eq!(
        first.matches("\"reason\": \"five\"").count()
            + first.matches("\"reason\": \"full board\"").count(),
        6
    );
    let (_, second) = tournament(dir.path(), "second");
    assert_eq!(first, second, "memory must not change the moves");

    let memory = fs::read_to_string(bots.join("random-js/memory.json")).unwrap();
    let squeezed: String = memory.split_whitespace().collect();
    // Two games against each opponent per tournament, two tournaments.
    assert!(squeezed.contains("\"inarow\":{\"played\":4"), "{memory}");
    assert!(
        squeezed.contains("\"random-python\":{\"played\":4"),
        "{memory}"
    );
}

/// Runs `inarow bot ARGS` on these prompts and returns its answers.
fn answers(args: &[&str], prompts: &str) -> (Vec<String>, String) {
    let mut bot = inarow()
        .args(["bot"])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    bot.stdin
        .take()
        .unwrap()
        .write_all(prompts.as_bytes())
        .unwrap();
    let out = bot.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let answers = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    (answers, String::from_utf8_lossy(&out.stderr).into_owned())
}

/// One prompt of each kind (`A`, `B`, `C`, a move with black's open four
/// to block), then `EXIT`.
fn every_prompt() -> String {
    let three = r#"[((7,7),"B"),((7,8),"W"),((8,8),"B")]"#;
    let five = r#"[((6,6),"W"),((7,7),"B"),((7,8),"W"),((8,8),"B"),((9,9),"B")]"#;
    let four = r#"[((0,0),"B"),((0,1),"B"),((0,2),"B"),((0,3),"B"),((5,5),"W"),((6,6),"W"),((12,12),"W")]"#;
    format!("A []\nB {three}\nC {five}\n6 {four}\nEXIT someone\n")
}

#[test]
fn inarow_bot_answers_every_prompt() {
    let prompts = every_prompt();
    for args in [
        &["--move-time", "0.1", "someone", "12"][..],
        &["--house", "someone", "12"][..],
    ] {
        let (answers, stderr) = answers(args, &prompts);
        assert_eq!(answers.len(), 4, "{args:?}: {answers:?}");
        assert_eq!(answers[0].matches('(').count(), 3);
        assert!(
            answers[1] == "B"
                || answers[1].starts_with("W (")
                || answers[1].matches('(').count() == 2
        );
        assert!(answers[2] == "B" || answers[2] == "W");
        assert_eq!(answers[3], "(0,4)", "{args:?}: white blocks black's four");
        assert!(stderr.is_empty(), "{args:?}: {stderr}");
    }
}

/// Names the judge could append (meta names: letters, digits, `-`, `_`,
/// `.`, never `-` first) that look like numbers, protocol words or
/// `inarow bot`'s options.
const HOSTILE_NAMES: [&str; 8] = [
    "500",
    "0",
    "EXIT",
    "A",
    "house",
    "move-nodes",
    "x--help",
    "1e3",
];

/// A judge's `BOARD` of these black and white stones, as `(X,Y)`.
fn board_of(black: &[(usize, usize)], white: &[(usize, usize)]) -> String {
    let mut stones: Vec<(usize, usize, char)> = black
        .iter()
        .map(|&(x, y)| (x, y, 'B'))
        .chain(white.iter().map(|&(x, y)| (x, y, 'W')))
        .collect();
    stones.sort();
    let listed: Vec<String> = stones
        .iter()
        .map(|(x, y, c)| format!("(({x},{y}),\"{c}\")"))
        .collect();
    format!("[{}]", listed.join(","))
}

#[test]
fn inarow_bot_plays_exact_five_when_told() {
    // Black to move has XXX.XX on row 7: filling the gap is five or more
    // (a freestyle win) but six (nothing under exact five). White's four
    // on row 9 completes at (7,9) under both rules.
    let black = [(3, 7), (4, 7), (5, 7), (7, 7), (8, 7), (2, 9)];
    let white = [(3, 9), (4, 9), (5, 9), (6, 9), (0, 14), (14, 0)];
    let prompt = |board: String| format!("13 {board}\nEXIT someone\n");
    let position = prompt(board_of(&black, &white));
    for (args, want) in [
        (&["--move-nodes", "2000", "someone", "3"][..], "(6,7)"),
        (
            &["--exact", "--move-nodes", "2000", "someone", "3"],
            "(7,9)",
        ),
        (&["--move-time", "0.1", "--exact", "someone", "3"], "(7,9)"),
    ] {
        let (got, stderr) = answers(args, &position);
        assert_eq!(got, [want], "{args:?}");
        assert!(stderr.is_empty(), "{args:?}: {stderr}");
    }
    // Under exact five a board with six in a row is a game going on; the
    // freestyle bot refuses it as over.
    let mut black = black.to_vec();
    black.extend([(0, 0), (0, 2), (0, 4), (0, 12), (2, 12), (4, 12)]);
    let mut white = white.to_vec();
    white.extend((9..15).map(|x| (x, 13)));
    let six = prompt(board_of(&black, &white));
    let (got, stderr) = answers(&["--exact", "--move-nodes", "2000", "someone", "3"], &six);
    assert_eq!(got, ["(7,9)"], "{stderr}");
    let out = inarow()
        .args(["bot", "--move-nodes", "2000", "someone", "3"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .and_then(|mut bot| {
            bot.stdin.take().unwrap().write_all(six.as_bytes())?;
            bot.wait_with_output()
        })
        .unwrap();
    assert!(!out.status.success());
    assert!(out.stdout.is_empty());
}

#[test]
fn inarow_bot_reads_any_opponent_name_as_a_name() {
    let prompts = every_prompt();
    // On a node budget the engine's answers depend on the seed only: a
    // name read as an option (the house bot, another budget, help, the
    // seed taken for the name) shows as other answers or a failure.
    let engine = answers(&["--move-nodes", "500", "someone", "12"], &prompts).0;
    assert_eq!(engine.len(), 4, "{engine:?}");
    for (misread, args) in [
        ("the house bot", &["--house", "someone", "12"][..]),
        ("seed 0", &["--move-nodes", "500", "someone", "0"][..]),
        ("the house bot, seed 0", &["--house", "someone", "0"][..]),
    ] {
        let other = answers(args, &prompts).0;
        assert_ne!(other, engine, "{misread} must answer otherwise");
    }
    for name in HOSTILE_NAMES {
        let (got, stderr) = answers(&["--move-nodes", "500", name, "12"], &prompts);
        assert_eq!(got, engine, "opponent {name:?}");
        assert!(stderr.is_empty(), "opponent {name:?}: {stderr}");

        // On the clock the answers vary, but the engine answers them all.
        let (timed, stderr) = answers(&["--move-time", "0.05", name, "12"], &prompts);
        assert_eq!(timed.len(), 4, "opponent {name:?}: {timed:?}");
        assert_eq!(timed[0].matches('(').count(), 3, "opponent {name:?}");
        assert!(timed[2] == "B" || timed[2] == "W", "opponent {name:?}");
        assert_eq!(timed[3], "(0,4)", "opponent {name:?}");
        assert!(stderr.is_empty(), "opponent {name:?}: {stderr}");
    }

    // Help and the options before the name still work, and the seed stays
    // a number.
    let out = inarow().args(["bot", "--help"]).output().unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("--move-nodes"));
    let out = inarow()
        .args(["bot", "--move-time", "0.05", "someone", "twelve"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        stderr,
        format!(
            "inarow: SEED must be a whole number from 0 to {}, got twelve\n",
            u64::MAX
        )
    );
    assert!(out.stdout.is_empty());

    // A person's `inarow bot --move-nodes 500` searches 500 positions
    // (seed 0): its number is never taken for a seed with the option for
    // the opponent's name.
    let (person, _) = answers(&["--move-nodes", "500"], &prompts);
    assert_eq!(
        person,
        answers(&["--move-nodes", "500", "someone", "0"], &prompts).0
    );
    assert_ne!(
        person,
        answers(&["--move-nodes", "500", "someone", "500"], &prompts).0,
        "500 taken for the seed would answer otherwise"
    );
}

/// A meta line whose option lacks its value (`bot --move-nodes`): the
/// judge's opponent name and seed are never taken for it; the bot says
/// in one line what is missing and how it read the last two arguments,
/// and forfeits.
#[test]
fn a_meta_option_without_its_value_is_refused_in_one_line() {
    for option in ["--move-nodes", "--move-time", "--rule"] {
        let dir = common::workspace();
        let bots = bots_folder(dir.path(), &format!("bot {option}"));
        let out = inarow()
            .args([
                "judge",
                "--seed",
                "3",
                "--timeout",
                "30",
                "-d",
                "inarow",
                "--bots",
            ])
            .arg(&bots)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        let said: Vec<&str> = stdout
            .lines()
            .filter(|l| l.starts_with("inarow ! "))
            .collect();
        // Once a game, as it starts: one line each.
        assert_eq!(said.len(), 2, "{option}: {stdout}");
        for line in said {
            assert!(
                line.starts_with(&format!(
                    "inarow ! inarow: a value is required for '{option} <"
                )),
                "{line}"
            );
            assert!(
                line.ends_with("(the last two arguments, \"house\" and 3, are read as the opponent's name and the seed, as the judge appends them: options and their values go before them)"),
                "{line}"
            );
        }
        assert_eq!(stdout.matches("inarow forfeits").count(), 2, "{stdout}");
    }
}

#[test]
fn the_judge_refuses_a_bot_named_like_an_option() {
    let dir = common::workspace();
    let bots = bots_folder(dir.path(), "bot --move-nodes 500");
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let evil = bots.join("evil");
    copy_bot(&repo.join("bots/random-python"), &evil);
    fs::write(evil.join("meta"), "--help\npython3\nbot.py\n1\n").unwrap();

    // With --strict the judge refuses it before any game (without, it
    // leaves it out and the others play: judge_cli.rs).
    let out = inarow()
        .args(["judge", "--strict", "--timeout", "30", "--bots"])
        .arg(&bots)
        .arg("--results")
        .arg(dir.path().join("results.json"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    let named = format!("{}: meta: line 1", evil.display());
    assert!(stderr.contains(&named), "{stderr}");
    assert!(stderr.contains("\"--help\""), "{stderr}");
    assert!(!dir.path().join("results.json").exists());
}

#[test]
fn the_engine_bot_wins_a_tournament_against_random_bots() {
    let dir = common::workspace();
    bots_folder(dir.path(), "bot --move-time 0.05");
    let (stdout, results) = tournament(dir.path(), "engine");
    assert!(!stdout.contains("forfeits:"), "{stdout}");
    let squeezed: String = results.split_whitespace().collect();
    assert!(
        squeezed.contains("\"rank\":1,\"name\":\"inarow\",\"points\":4,\"wins\":2"),
        "{stdout}"
    );
}

/// The shortest time per answer the page offers for its tournaments, in
/// seconds: the first choice of its `tour-timeout` list.
fn pages_shortest_time() -> f64 {
    let page = Path::new(env!("CARGO_MANIFEST_DIR")).join("../web/page/body.html");
    let page = fs::read_to_string(page).unwrap();
    let list = &page[page.find("id=\"tour-timeout\"").unwrap()..];
    let list = &list[..list.find("</select>").unwrap()];
    list.match_indices("value=\"")
        .map(|(at, found)| {
            let ms = &list[at + found.len()..];
            ms[..ms.find('"').unwrap()].parse::<f64>().unwrap() / 1000.0
        })
        .fold(f64::INFINITY, f64::min)
}

/// The example engine bot, its meta as `bots/inarow` has it, never
/// forfeits at the shortest time per answer the page offers, two games at
/// once as the page plays them by default.
#[test]
fn the_example_engine_bot_answers_within_the_pages_shortest_time() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let shortest = pages_shortest_time();
    assert!(shortest.is_finite() && shortest > 0.0, "{shortest}");
    let dir = common::workspace();
    let bots = bots_folder(dir.path(), "");
    fs::copy(repo.join("bots/inarow/meta"), bots.join("inarow/meta")).unwrap();
    copy_bot(&repo.join("bots/random-js"), &bots.join("random-js"));
    let out = inarow()
        .args(["judge", "--seed", "8", "-j", "2", "--timeout"])
        .arg(shortest.to_string())
        .arg("--bots")
        .arg(&bots)
        .arg("--results")
        .arg(dir.path().join("results.json"))
        .arg("--sgf")
        .arg(dir.path().join("sgf"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!stdout.contains("inarow forfeits"), "{stdout}");
    // It plays each of the others twice and wins by play, not by a forfeit.
    let results = fs::read_to_string(dir.path().join("results.json")).unwrap();
    let squeezed: String = results.split_whitespace().collect();
    assert!(
        squeezed.contains("\"name\":\"inarow\",\"points\":8,\"wins\":4"),
        "{stdout}"
    );
}

#[test]
fn inarow_bot_is_reproducible_and_rejects_bad_limits() {
    let three = r#"[((7,7),"B"),((7,8),"W"),((8,8),"B")]"#;
    let five = r#"[((6,6),"W"),((7,7),"B"),((7,8),"W"),((8,8),"B"),((9,9),"B")]"#;
    let prompts = format!("A []\nB {three}\nC {five}\n1 {three}\nEXIT TIE\n");
    // With a node budget every answer repeats exactly, and the seed matters.
    let args = ["--move-nodes", "2000", "someone", "3"];
    let (first, _) = answers(&args, &prompts);
    let (second, _) = answers(&args, &prompts);
    assert_eq!(first.len(), 4);
    assert_eq!(first, second);
    assert!(!["(7,7)", "(7,8)", "(8,8)"].contains(&first[3].as_str()));
    let openings: std::collections::HashSet<String> = (0..6)
        .map(|seed| {
            answers(&["--move-nodes", "200", "x", &seed.to_string()], "A []\n").0[0].clone()
        })
        .collect();
    assert!(
        openings.len() > 1,
        "the seed picks the opening: {openings:?}"
    );
    // On the clock only the opening, chosen from the seed, must repeat.
    let args = ["--move-time", "0.05", "someone", "3"];
    let (timed, _) = answers(&args, &prompts);
    assert_eq!(timed.len(), 4);
    assert!(!["(7,7)", "(7,8)", "(8,8)"].contains(&timed[3].as_str()));

    for (bad, want) in [
        (
            &["bot", "--move-nodes", "0", "x", "1"][..],
            "--move-nodes must be a whole number of at least 1, got 0",
        ),
        (
            &["bot", "--move-time", "0.5", "--move-nodes", "9", "x", "1"][..],
            "cannot be used with",
        ),
    ] {
        let out = inarow().args(bad).output().unwrap();
        assert!(!out.status.success());
        assert!(
            String::from_utf8_lossy(&out.stderr).contains(want),
            "{bad:?}"
        );
    }

    for bad in ["0", "1e12"] {
        let out = inarow()
            .args(["bot", "--move-time", bad, "x", "1"])
            .output()
            .unwrap();
        assert!(!out.status.success(), "{bad}");
        assert!(
            String::from_utf8_lossy(&out.stderr)
                .contains("--move-time must be a number of seconds above 0 and at most 3600"),
            "{bad}"
        );
    }
}

#[test]
fn inarow_bot_names_a_doubled_point_in_one_line() {
    let out = common::run(
        env!("CARGO_BIN_EXE_inarow"),
        &["bot", "--move-nodes", "10", "x", "1"],
        "5 [((7,7),\"B\"),((3,4),\"W\"),((7,7),\"W\")]\n",
    );
    assert!(!out.status.success());
    let err = common::stderr(&out);
    assert!(err.contains("the board holds point (7,7) twice"), "{err}");
    assert!(!err.contains("cannot read"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
}
