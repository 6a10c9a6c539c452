//! `inarow selfplay` end to end: settings against settings, against another
//! build through the Gomocup protocol, and against a broken brain.

use std::os::unix::fs::PermissionsExt;

mod common;

use common::{inarow, stderr, stdout};

/// Runs `inarow selfplay` with `args`, which must succeed; its output.
fn selfplay(args: &[&str]) -> String {
    let args: Vec<&str> = std::iter::once("selfplay")
        .chain(args.iter().copied())
        .collect();
    let out = inarow(&args, "");
    assert!(out.status.success(), "{}", stderr(&out));
    stdout(&out)
}

/// The `+W =D -L` counts of the summary line.
fn summary(out: &str) -> (u32, u32, u32) {
    let line = out
        .lines()
        .find(|l| l.starts_with("A vs B:"))
        .unwrap_or_else(|| panic!("no summary in {out}"));
    let mut counts = line
        .split_whitespace()
        .skip(3)
        .take(3)
        .map(|t| t[1..].parse::<u32>().unwrap());
    (
        counts.next().unwrap(),
        counts.next().unwrap(),
        counts.next().unwrap(),
    )
}

#[test]
fn settings_against_settings_reproduce_on_a_node_budget() {
    let args = [
        "selfplay", "--pairs", "2", "--nodes", "400", "--a", "width=8",
    ];
    let first = inarow(&args, "");
    assert!(first.status.success(), "{}", stderr(&first));
    let (w, d, l) = summary(&stdout(&first));
    assert_eq!(w + d + l, 4, "two pairs, colours swapped");
    assert!(stdout(&first).contains("illegal moves: 0"));
    // Every game and figure repeats; only the wall-clock longest think may not.
    let games = |out: &str| -> Vec<String> {
        out.lines()
            .filter(|l| !l.contains("longest think"))
            .map(String::from)
            .collect()
    };
    assert_eq!(games(&stdout(&first)), games(&stdout(&inarow(&args, ""))));
}

#[test]
fn the_games_file_replays_to_the_reported_results() {
    use inarow_core::{Game, Mnk, Outcome, Player, Point};
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("games.txt");
    let out = selfplay(&[
        "--pairs",
        "2",
        "--nodes",
        "300",
        "--games",
        file.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&file).unwrap();
    let mut results = String::new();
    for line in text.lines() {
        let (head, moves) = line.split_once(" | ").expect("opening | moves");
        let mut fields = head.split(' ');
        let (_pair, colour, result) = (
            fields.next(),
            fields.next().unwrap(),
            fields.next().unwrap(),
        );
        let mut game = Mnk::gomoku();
        for xy in fields.chain(moves.split(' ')) {
            let (x, y) = xy.split_once(',').unwrap();
            let p = Point::at(y.parse().unwrap(), x.parse().unwrap(), 15);
            game.play(p).expect("every stone legal");
        }
        let a = if colour == "black" {
            Player::X
        } else {
            Player::O
        };
        let replayed = match game.outcome() {
            Some(Outcome::Win(w)) if w == a => "1",
            Some(Outcome::Win(_)) => "0",
            _ => "=",
        };
        assert_eq!(replayed, result, "{line}");
        results.push_str(result);
    }
    assert_eq!(text.lines().count(), 4);
    // The same results as the pair lines on the screen.
    let shown: String = out
        .lines()
        .filter(|l| l.starts_with("pair"))
        .map(|l| l.split_whitespace().nth(2).unwrap().to_string())
        .collect();
    assert_eq!(shown, results);
}

#[test]
fn another_build_plays_through_the_brain_protocol() {
    let brain = env!("CARGO_BIN_EXE_pbrain-inarow");
    let out = selfplay(&["--pairs", "1", "--ms", "40", "--b-brain", brain]);
    let (w, d, l) = summary(&out);
    assert_eq!(w + d + l, 2);
    assert!(out.contains("illegal moves: 0"), "{}", out);
}

#[test]
fn a_brain_that_answers_nonsense_loses_every_game() {
    let dir = tempfile::tempdir().unwrap();
    let brain = dir.path().join("nonsense");
    std::fs::write(
        &brain,
        "#!/bin/sh\nwhile read line; do case \"$line\" in START*|RESTART*) echo OK;; DONE*) echo nonsense;; END*) exit 0;; esac; done\n",
    )
    .unwrap();
    std::fs::set_permissions(&brain, std::fs::Permissions::from_mode(0o755)).unwrap();
    let out = selfplay(&[
        "--pairs",
        "1",
        "--ms",
        "40",
        "--b-brain",
        brain.to_str().unwrap(),
    ]);
    assert_eq!(summary(&out), (2, 0, 0));
    assert!(out.contains("illegal moves: 2"));
}

/// A brain that keeps its own board as Gomocup brains do (`BOARD` adds to
/// it, `TURN` adds the opponent's stone, its own answer is kept), answers
/// `ERROR` for a stone on a taken point, plays the first empty point, and
/// logs every command.
const KEEPING_BRAIN: &str = r#"#!/usr/bin/env python3
import sys
log = open(sys.argv[1], "a")
size, taken, in_board = 15, set(), False
def say(text):
    print(text, flush=True)
def put(x, y):
    if (x, y) in taken:
        return False
    taken.add((x, y))
    return True
def move():
    for y in range(size):
        for x in range(size):
            if (x, y) not in taken:
                taken.add((x, y))
                return say(f"{x},{y}")
bad = False
for line in sys.stdin:
    line = line.strip()
    log.write(line + "\n")
    log.flush()
    word = line.split(" ")[0]
    if in_board:
        if line == "DONE":
            in_board = False
            say("ERROR a stone on a taken point") if bad else move()
        else:
            x, y, _ = map(int, line.split(","))
            bad = bad or not put(x, y)
    elif word in ("START", "RESTART"):
        taken.clear()
        say("OK")
    elif word == "BOARD":
        in_board, bad = True, False
    elif word == "TURN":
        x, y = map(int, line.split(" ")[1].split(","))
        say("ERROR a stone on a taken point") if not put(x, y) else move()
    elif word == "BEGIN":
        move()
    elif word == "END":
        break
"#;

#[test]
fn brains_are_told_the_game_as_managers_do() {
    let dir = tempfile::tempdir().unwrap();
    let brain = dir.path().join("keeper.py");
    let log = dir.path().join("log.txt");
    std::fs::write(
        &brain,
        KEEPING_BRAIN.replace("sys.argv[1]", &format!("{:?}", log.to_str().unwrap())),
    )
    .unwrap();
    std::fs::set_permissions(&brain, std::fs::Permissions::from_mode(0o755)).unwrap();
    let openings = dir.path().join("openings.txt");
    std::fs::write(&openings, "7,7 8,8 7,9 9,7 6,6\n").unwrap();
    let out = selfplay(&[
        "--pairs",
        "1",
        "--ms",
        "40",
        "--openings",
        openings.to_str().unwrap(),
        "--b-brain",
        brain.to_str().unwrap(),
    ]);
    // Legal throughout: the brain never saw a stone twice.
    assert!(out.contains("illegal moves: 0"), "{}", out);
    assert_eq!(
        summary(&out),
        (2, 0, 0),
        "the engine beats first-empty-point play"
    );
    let log = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = log.lines().collect();
    // One BOARD a game, right after the restart, with the opening in the
    // order played and the brain's colour marked; TURN after that.
    let boards: Vec<usize> = (0..lines.len()).filter(|&k| lines[k] == "BOARD").collect();
    assert_eq!(boards.len(), 2, "{log}");
    for &k in &boards {
        assert!(
            lines[k - 1] == "RESTART" || lines[k - 1].starts_with("INFO"),
            "{log}"
        );
        let stones: Vec<&str> = lines[k + 1..]
            .iter()
            .take_while(|l| **l != "DONE")
            .copied()
            .collect();
        let points: Vec<&str> = stones
            .iter()
            .map(|s| s.rsplit_once(',').unwrap().0)
            .collect();
        assert_eq!(&points[..5], ["7,7", "8,8", "7,9", "9,7", "6,6"], "{log}");
    }
    assert!(
        lines.iter().filter(|l| l.starts_with("TURN ")).count() >= 2,
        "{log}"
    );
}

#[test]
fn bad_brains_and_flags_are_one_line_errors() {
    for (args, want) in [
        (
            &["selfplay", "--b-brain", "/no/such/brain"][..],
            "cannot find brain /no/such/brain",
        ),
        (
            &["selfplay", "--nodes", "100", "--a-brain", "/bin/true"][..],
            "--nodes needs two engines",
        ),
        (
            &["selfplay", "--pairs", "0"][..],
            "--pairs must be at least 1",
        ),
    ] {
        let out = inarow(args, "");
        assert!(!out.status.success(), "{args:?}");
        let err = stderr(&out);
        assert!(err.contains(want), "{args:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{err}");
    }
    // A program that is no brain at all fails its handshake.
    let out = inarow(&["selfplay", "--pairs", "1", "--b-brain", "/bin/true"], "");
    assert!(!out.status.success());
    assert!(stderr(&out).contains("brain /bin/true"), "{}", stderr(&out));
}
