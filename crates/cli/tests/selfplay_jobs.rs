//! `inarow selfplay -j N` with brains: each game played at once has its
//! own brain process and folder, each brain contained and kept out of the
//! others' folders, and brains whose games repeat (this build's engine on
//! a node budget) play the same games with any N. And openings in
//! c-gomoku-cli's offset format, which play as the same points do.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use crate::common;

use common::{inarow, stderr, stdout};

/// A brain whose games repeat: a copy of this build's `pbrain-inarow` in
/// its installation, told `INFO max_node @NODES@` before anything else, so
/// that its node budget ends each search long before its time does. It
/// writes what it is told to `told.txt` in its folder (`HOME`). First it
/// tries to write into every folder beside its own (the other brains'
/// among them, which the sandbox hides): if it can, it says so and ends,
/// and the match fails to start.
const NODE_BRAIN: &str = r#"#!/bin/sh
mine=$(cd "$HOME" && pwd -P)
for other in "$HOME"/../*/; do
    [ "$(cd "$other" 2>/dev/null && pwd -P)" = "$mine" ] && continue
    if echo intruder 2>/dev/null > "$other/intruder.txt"; then
        echo "brain: wrote into $other" >&2
        exit 4
    fi
done
{ echo "INFO max_node @NODES@"; cat; } | tee "$HOME/told.txt" | ./pbrain-inarow --quiet --settings tt_mb=4
"#;

/// An installation in `dir` holding a copy of this build's brain and the
/// two sides' scripts: A's (400 nodes a move) and B's (250).
fn install(dir: &Path) -> (PathBuf, PathBuf) {
    let folder = dir.join("installed");
    fs::create_dir(&folder).unwrap();
    fs::copy(
        env!("CARGO_BIN_EXE_pbrain-inarow"),
        folder.join("pbrain-inarow"),
    )
    .unwrap();
    let script = |name: &str, nodes: &str| {
        let path = folder.join(name);
        fs::write(&path, NODE_BRAIN.replace("@NODES@", nodes)).unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).unwrap();
        path
    };
    (script("a.sh", "400"), script("b.sh", "250"))
}

/// Runs `inarow selfplay ARGS` with its new folders made in `tmp`.
fn selfplay_in(tmp: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_inarow"))
        .arg("selfplay")
        .args(args)
        .env("TMPDIR", tmp)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

/// The output's lines but the one with the wall clock's longest think and
/// the one that names where the openings came from (the file's name).
fn figures(out: &str) -> Vec<String> {
    out.lines()
        .filter(|l| !l.starts_with("illegal moves") && !l.contains(" pairs of openings from "))
        .map(String::from)
        .collect()
}

/// Three openings as points, and the same as offsets from the centre
/// (7,7), in c-gomoku-cli's layout.
const POINTS: &str = "7,7 8,8 7,9 9,7 6,6\n7,7 6,8 8,6\n# a comment\n5,7 7,7 9,7 7,5\n";
const OFFSETS: &str =
    "0,0, 1,1, 0,2, 2,0, -1,-1\n0,0, -1,1, 1,-1\n# a comment\n-2,0, 0,0, 2,0, 0,-2\n";

/// The games each brain in `folder` was told: its `BOARD`s, one a game.
fn boards_told(folder: &Path) -> usize {
    let told = fs::read_to_string(folder.join("told.txt")).unwrap();
    // One brain, started once, there.
    assert_eq!(
        told.lines().filter(|l| l.starts_with("START ")).count(),
        1,
        "{told}"
    );
    told.lines().filter(|l| *l == "BOARD").count()
}

#[test]
fn brains_played_at_once_each_have_a_process_and_a_folder_of_their_own() {
    let dir = common::workspace();
    let (a, b) = install(dir.path());
    let openings = dir.path().join("openings.txt");
    fs::write(&openings, POINTS).unwrap();
    let (a_folder, b_folder) = (dir.path().join("a"), dir.path().join("b"));
    fs::create_dir(&a_folder).unwrap();
    // A slot's folder there already is used as it is.
    fs::create_dir_all(b_folder.join("2")).unwrap();
    fs::write(b_folder.join("2/kept.txt"), "kept").unwrap();
    let out = selfplay_in(
        dir.path(),
        &[
            "-j",
            "2",
            "--pairs",
            "4",
            "--ms",
            "600000",
            "--openings",
            openings.to_str().unwrap(),
            "--a-brain",
            a.to_str().unwrap(),
            "--b-brain",
            b.to_str().unwrap(),
            "--a-folder",
            a_folder.to_str().unwrap(),
            "--b-folder",
            b_folder.to_str().unwrap(),
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let shown = stdout(&out);
    assert_eq!(
        shown.lines().filter(|l| l.starts_with("pair ")).count(),
        4,
        "{shown}"
    );
    assert!(shown.contains("illegal moves: 0"), "{shown}");
    // Two brains a side, each started once in a folder of its own, and
    // both playing: every game told once to one A and one B, the same
    // slot's; none wrote outside its folder.
    let mut games = 0;
    for slot in ["1", "2"] {
        let told_a = boards_told(&a_folder.join(slot));
        let told_b = boards_told(&b_folder.join(slot));
        assert_eq!(told_a, told_b, "slot {slot}: A and B play the same games");
        assert!(told_a >= 2 && told_a % 2 == 0, "slot {slot}: whole pairs");
        games += told_a;
    }
    assert_eq!(games, 8, "four pairs, each game played once");
    for (folder, files) in [
        (a_folder.join("1"), &["told.txt"][..]),
        (a_folder.join("2"), &["told.txt"]),
        (b_folder.join("1"), &["told.txt"]),
        (b_folder.join("2"), &["kept.txt", "told.txt"]),
    ] {
        let mut found: Vec<String> = fs::read_dir(&folder)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        found.sort();
        assert_eq!(found, files, "{}", folder.display());
    }
    for folder in [&a_folder, &b_folder] {
        assert_eq!(fs::read_dir(folder).unwrap().count(), 2);
    }
    // Nothing left in the new folders' place: the brains had theirs given.
    assert_eq!(leftovers(dir.path()), Vec::<String>::new());
}

/// The brains' new folders left in `tmp`.
fn leftovers(tmp: &Path) -> Vec<String> {
    fs::read_dir(tmp)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.starts_with("inarow-brain-"))
        .collect()
}

/// Brains whose games repeat play the same games, reported the same way,
/// with `-j 2` as with `-j 1`; each in a new folder of its own, removed
/// after the match.
#[test]
fn brains_at_once_play_the_games_one_at_a_time_would() {
    let dir = common::workspace();
    let (a, b) = install(dir.path());
    let tmp = dir.path().join("tmp");
    fs::create_dir(&tmp).unwrap();
    let run = |jobs: &str| {
        let file = dir.path().join(format!("games-{jobs}.txt"));
        let out = selfplay_in(
            &tmp,
            &[
                "-j",
                jobs,
                "--pairs",
                "3",
                "--seed",
                "5",
                "--stones",
                "4",
                "--ms",
                "600000",
                "--a-brain",
                a.to_str().unwrap(),
                "--b-brain",
                b.to_str().unwrap(),
                "--games-file",
                file.to_str().unwrap(),
            ],
        );
        assert!(out.status.success(), "-j {jobs}: {}", stderr(&out));
        assert!(
            stdout(&out).contains("illegal moves: 0"),
            "{}",
            stdout(&out)
        );
        assert_eq!(leftovers(&tmp), Vec::<String>::new(), "-j {jobs}");
        (figures(&stdout(&out)), fs::read_to_string(&file).unwrap())
    };
    let (one, one_games) = run("1");
    assert_eq!(one.iter().filter(|l| l.starts_with("pair ")).count(), 3);
    assert_eq!(one_games.lines().count(), 6);
    // A and B differ: the games of an opening differ with the colours.
    let moves: Vec<&str> = one_games
        .lines()
        .map(|l| l.split_once(" | ").unwrap().1)
        .collect();
    assert!(
        moves.chunks(2).any(|pair| pair[0] != pair[1]),
        "{one_games}"
    );
    let (two, two_games) = run("2");
    assert_eq!(one, two);
    assert_eq!(one_games, two_games);
}

#[test]
fn a_given_folder_holds_one_for_each_brain_or_says_why() {
    let dir = common::workspace();
    let brain = env!("CARGO_BIN_EXE_pbrain-inarow");
    let refused = |folder: &Path, jobs: &str| {
        let out = inarow(
            &[
                "selfplay",
                "-j",
                jobs,
                "--b-brain",
                brain,
                "--b-folder",
                folder.to_str().unwrap(),
            ],
            "",
        );
        assert!(!out.status.success());
        let err = stderr(&out);
        assert_eq!(err.lines().count(), 1, "{err}");
        err
    };
    let given = dir.path().join("given");
    let err = refused(&given, "2");
    assert!(
        err.contains(&format!("its folder {}: ", given.display())),
        "{err}"
    );
    fs::create_dir(&given).unwrap();
    // Slot 2's folder is a file.
    fs::write(given.join("2"), "").unwrap();
    let err = refused(&given, "3");
    assert!(
        err.ends_with(&format!("{} is not a folder\n", given.join("2").display())),
        "{err}"
    );
    // Slot 2's folder is slot 1's, through a link.
    fs::remove_file(given.join("2")).unwrap();
    std::os::unix::fs::symlink(given.join("1"), given.join("2")).unwrap();
    let err = refused(&given, "2");
    assert!(
        err.contains(&format!(
            "its folders {} and {} are one folder",
            given.join("1").display(),
            given.join("2").display()
        )),
        "{err}"
    );
}

/// The same openings as points and as offsets play the same games.
#[test]
fn offset_openings_play_as_the_same_points() {
    let dir = tempfile::tempdir().unwrap();
    let run = |name: &str, text: &str, format: &[&str]| {
        let openings = dir.path().join(format!("{name}.txt"));
        fs::write(&openings, text).unwrap();
        let games = dir.path().join(format!("{name}-games.txt"));
        let mut args = vec![
            "selfplay",
            "--pairs",
            "3",
            "--nodes",
            "200",
            "--openings",
            openings.to_str().unwrap(),
            "--games-file",
            games.to_str().unwrap(),
        ];
        args.extend(format);
        let out = inarow(&args, "");
        assert!(out.status.success(), "{}", stderr(&out));
        (figures(&stdout(&out)), fs::read_to_string(&games).unwrap())
    };
    let (points, points_games) = run("points", POINTS, &[]);
    let (xy, xy_games) = run("xy", POINTS, &["--openings-format", "xy"]);
    let (offsets, offsets_games) = run("offsets", OFFSETS, &["--openings-format", "offset"]);
    assert_eq!(points, offsets);
    assert_eq!(points_games, offsets_games);
    assert_eq!((&points, &points_games), (&xy, &xy_games));
    // The games file has each opening as points, the third's too.
    let third: Vec<&str> = points_games
        .lines()
        .filter(|l| l.starts_with("3 "))
        .collect();
    assert_eq!(third.len(), 2);
    assert!(
        third.iter().all(|l| l.contains(" 5,7 7,7 9,7 7,5 | ")),
        "{points_games}"
    );
}

#[test]
fn a_bad_openings_line_is_one_line_naming_the_file_and_the_line() {
    let dir = tempfile::tempdir().unwrap();
    let refused = |text: &str, format: &[&str]| {
        let openings = dir.path().join("openings.txt");
        fs::write(&openings, text).unwrap();
        let mut args = vec!["selfplay", "--openings", openings.to_str().unwrap()];
        args.extend(format);
        let out = inarow(&args, "");
        assert!(!out.status.success());
        let err = stderr(&out);
        assert_eq!(err.lines().count(), 1, "{err}");
        let head = format!("inarow: openings file {}: ", openings.display());
        err.strip_prefix(&head)
            .unwrap_or_else(|| panic!("{err}"))
            .trim_end()
            .to_string()
    };
    let offset = ["--openings-format", "offset"];
    assert_eq!(
        refused("0,0, 1,1\n0,0, 8,0\n", &offset),
        "line 2: offset 8,0 is off the 15x15 board (its centre is 7,7)"
    );
    assert_eq!(
        refused("0,0, 1,1, 0,0\n", &offset),
        "line 1: offset 0,0 (point 7,7) appears twice"
    );
    assert_eq!(
        refused("0,0, 1,1, \x1b[31m\n", &offset),
        "line 1: expected x,y offsets from the centre separated by \", \", got \"\\u{1b}[31m\""
    );
    assert_eq!(
        refused(
            "0,0 1,0 0,1 1,1 0,2 1,2 0,3 1,3 0,4 5,5 6,6\n",
            &["--openings-format", "xy"]
        ),
        "line 1: too many stones: the game is over after stone 9 of 11 (black has won), so point 5,5 cannot be played"
    );
    // A Gomocup file read as points says where to look.
    assert_eq!(
        refused(OFFSETS, &[]),
        "line 1: expected x,y points, got \"0,0,\" (offsets from the centre? give --openings-format offset)"
    );
    // The format needs a file.
    let out = inarow(&["selfplay", "--openings-format", "offset"], "");
    assert!(!out.status.success());
    assert!(stderr(&out).contains("--openings"), "{}", stderr(&out));
}
