//! End-to-end: `inarow menace` driven through pipes, as a script would.

use std::fs;
use std::path::Path;

mod common;

use common::inarow;

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("utf-8 output")
}

/// A line of the box listing: number, nine-cell image, beads in ascending order.
fn is_box_line(line: &str) -> bool {
    let parts: Vec<&str> = line.split_whitespace().collect();
    let [number, image, beads] = parts.as_slice() else {
        return false;
    };
    let digits_ascending = beads.chars().all(|c| c.is_ascii_digit() && c != '9')
        && beads.as_bytes().windows(2).all(|w| w[0] <= w[1]);
    number
        .parse::<usize>()
        .is_ok_and(|n| (1..=304).contains(&n))
        && image.len() == 9
        && image.chars().all(|c| matches!(c, 'X' | 'O' | '.'))
        && (digits_ascending || *beads == "-")
}

/// Moves for one game: one malformed, then every square in order with the
/// corner twice, so the second `LL` always finds the square taken.
fn moves_of_a_game() -> String {
    let squares = ["LL", "LL", "lm", "LR", "ML", "mm", "MR", "RL", "RM", "rr"];
    format!("zz\n{}\n", squares.join("\n"))
}

#[test]
fn scripted_session_through_a_pipe() {
    let input = format!(
        "2\n{}{}{}",
        moves_of_a_game(),
        moves_of_a_game(),
        moves_of_a_game()
    );
    let out = inarow(&["menace", "--seed", "5"], &input);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert_eq!(stdout.matches("new game").count(), 2, "{stdout}");
    assert!(stdout.contains("error: \"zz\" is not a move"), "{stdout}");
    assert!(stdout.contains("error: LL is already taken"), "{stdout}");
    // Every error is one whole line; the prompts are on standard error, and
    // one is shown for every line read (so the same prompt after an error).
    assert!(
        stdout
            .lines()
            .filter(|l| l.contains("error:"))
            .all(|l| l.starts_with("error: ")),
        "{stdout}"
    );
    let stderr = text(&out.stderr);
    assert!(!stdout.contains("your move") && !stdout.contains("How many games?"));
    assert!(
        stderr.starts_with("How many games? your move (row then column, L/M/R): "),
        "{stderr}"
    );
    let errors = stdout.matches("error:").count();
    let moves = stdout.matches("you play").count();
    assert_eq!(
        stderr.matches("your move").count(),
        errors + moves,
        "{stderr}"
    );
    let results = stdout
        .lines()
        .filter(|l| {
            ["MENACE wins", "you win", "draw", "MENACE resigns: you win"].contains(&l.trim())
        })
        .count();
    assert_eq!(results, 2, "{stdout}");
    let boxes: Vec<&str> = stdout.lines().filter(|l| is_box_line(l)).collect();
    assert_eq!(boxes.len(), 2 * 304);
    assert_eq!(boxes[0].split_whitespace().nth(1), Some("........."));
    // Boards: three-cell rows of X, O and . after every move.
    assert!(stdout.lines().any(|l| l.len() == 3 && l.contains('X')));
    assert!(stdout.contains("MENACE plays "));
    assert!(stdout.contains("you play LL") || stdout.contains("MENACE plays LL"));
    // The same seed plays the same games.
    let again = inarow(&["menace", "--seed", "5"], &input);
    assert_eq!(text(&again.stdout), stdout);
}

#[test]
fn bad_game_count_is_asked_again() {
    let input = format!("many\n1\n{}{}", moves_of_a_game(), moves_of_a_game());
    let out = inarow(&["menace"], &input);
    assert!(out.status.success());
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("error: \"many\" is not a number of games"),
        "{stdout}"
    );
    assert_eq!(stdout.matches("new game").count(), 1);
}

fn games_in(path: &Path) -> u64 {
    let json: serde_json::Value = serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap();
    assert_eq!(json["format"], "inarow-menace");
    assert_eq!(json["version"], 1);
    json["machines"][0]["games"].as_u64().unwrap()
}

#[test]
fn input_ending_mid_game_keeps_the_finished_games() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("menace.json");
    let state_arg = state.to_str().unwrap();
    let input = format!("9\n{}", moves_of_a_game());
    let out = inarow(&["menace", "--seed", "2", "--state", state_arg], &input);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let started = stdout.matches("new game").count() as u64;
    assert!(started < 9);
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains(&format!("input ended during game {started}")),
        "{stderr}"
    );
    assert_eq!(games_in(&state), started - 1);
    // The next session carries on from the saved boxes.
    let input = format!("1\n{}{}", moves_of_a_game(), moves_of_a_game());
    let out = inarow(&["menace", "--seed", "3", "--state", state_arg], &input);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(games_in(&state), started);
}

#[test]
fn train_save_load_and_show() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("s.json");
    let csv = dir.path().join("curve.csv");
    let chart = dir.path().join("curve.svg");
    let s = state.to_str().unwrap();
    let out = inarow(
        &[
            "menace",
            "train",
            "--opponent",
            "random",
            "--games",
            "1000",
            "--block",
            "250",
            "--seed",
            "4",
            "--state",
            s,
            "--csv",
            csv.to_str().unwrap(),
            "--chart",
            chart.to_str().unwrap(),
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let table = text(&out.stdout);
    assert!(table.contains("751-1000"), "{table}");
    assert_eq!(games_in(&state), 1000);
    let rows: Vec<String> = fs::read_to_string(&csv)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    assert_eq!(rows.len(), 5);
    assert_eq!(
        rows[0],
        "first_game,last_game,wins,draws,losses,win_rate,draw_rate,loss_rate"
    );
    assert!(rows[4].starts_with("751,1000,"));
    let svg = fs::read_to_string(&chart).unwrap();
    assert!(
        svg.contains("<svg") && svg.contains("<polyline"),
        "{}",
        &svg[..svg.len().min(300)]
    );

    // Training again goes on from the saved boxes.
    let out = inarow(
        &[
            "menace",
            "train",
            "--opponent",
            "menace",
            "--games",
            "200",
            "--state",
            s,
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(games_in(&state), 1200);
    let json: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&state).unwrap()).unwrap();
    assert_eq!(json["machines"][1]["player"], "O");
    assert_eq!(json["machines"][1]["boxes"].as_array().unwrap().len(), 289);

    let out = inarow(&["menace", "show", "--state", s], "");
    assert!(out.status.success());
    let lines: Vec<String> = text(&out.stdout).lines().map(String::from).collect();
    assert_eq!(lines.len(), 304);
    assert!(lines.iter().all(|l| is_box_line(l)));
    // A rotated board finds the same box as its image.
    let out = inarow(&["menace", "show", "--state", s, "..X/.O./..."], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let one = text(&out.stdout);
    assert!(lines.contains(&one.trim_end().to_string()), "{one}");
    let corner = inarow(&["menace", "show", "--state", s, "X.O/.../..."], "");
    let mirrored = inarow(&["menace", "show", "--state", s, "..O/.../..X"], "");
    assert_eq!(text(&corner.stdout), text(&mirrored.stdout));
    let out = inarow(&["menace", "show", "XXX/OO./..."], "");
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("the game is over"));
}

#[test]
fn corrupt_state_is_rejected_and_left_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("bad.json");
    for content in [
        "{ this is not json",
        "{\"format\": \"inarow-menace\", \"version\": 9}",
    ] {
        fs::write(&state, content).unwrap();
        let out = inarow(&["menace", "--state", state.to_str().unwrap()], "1\nmm\n");
        assert!(!out.status.success());
        let stderr = text(&out.stderr);
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains("bad.json"), "{stderr}");
        assert!(
            stderr.contains("state file") && stderr.contains("not"),
            "{stderr}"
        );
        assert_eq!(fs::read_to_string(&state).unwrap(), content);
        assert!(!text(&out.stdout).contains("new game"));
    }
}

#[test]
fn unwritable_path_and_preset_mismatch_are_reported() {
    let out = inarow(&["menace", "--state", "/no/such/dir/menace.json"], "1\n");
    assert!(!out.status.success());
    let stderr = text(&out.stderr);
    assert!(
        stderr.starts_with("inarow: cannot write state file /no/such/dir/menace.json"),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");

    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("m.json");
    let s = state.to_str().unwrap();
    let out = inarow(
        &[
            "menace",
            "train",
            "--opponent",
            "perfect",
            "--games",
            "20",
            "--preset",
            "michie",
            "--state",
            s,
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = inarow(&["menace", "--preset", "scroggs", "--state", s], "1\n");
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("holds boxes of preset michie, but --preset scroggs was given")
    );
    let out = inarow(&["menace", "--preset", "fast"], "");
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("unknown preset"));
}
