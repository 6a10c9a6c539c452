//! Scripted end-to-end runs of `inarow solve` and `inarow play`.

mod common;

use common::{inarow, stderr, stdout};

#[test]
fn solve_the_documents_example() {
    let o = inarow(&["solve", "XOX.O.X.."], "");
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("X to move"), "{out}");
    assert!(out.contains("best move: row 1, column 0"), "{out}");
    assert!(out.contains("value: +10 (a win for X in 1 move)"), "{out}");
}

#[test]
fn solve_reports_the_documents_node_counts() {
    let o = inarow(
        &["solve", "XOX/.O./X..", "--algo", "document-alphabeta"],
        "",
    );
    assert!(
        stdout(&o).contains("positions searched: 16"),
        "{}",
        stdout(&o)
    );
    let o = inarow(&["solve", ".........", "--algo", "minimax"], "");
    let out = stdout(&o);
    assert!(out.contains("positions searched: 549946"), "{out}");
    assert!(out.contains("value: 0 (a draw with best play)"), "{out}");
    let o = inarow(&["solve", ".........", "--algo", "document-alphabeta"], "");
    assert!(stdout(&o).contains("positions searched: 18297"));
}

#[test]
fn solve_with_o_to_move_and_three_rows() {
    let o = inarow(&["solve", "XOX\n.O.\nX..", "--to-move", "O"], "");
    let out = stdout(&o);
    assert!(out.contains("O to move"), "{out}");
    assert!(out.contains("best move: row 2, column 1"), "{out}");
    assert!(out.contains("value: -10 (a win for O in 1 move)"), "{out}");
}

#[test]
fn solve_rejects_bad_boards_in_one_line() {
    for (board, want) in [
        ("XOZ......", "unexpected character 'Z'"),
        ("XO", "9 points, but 2"),
        ("XXXOOO...", "both X and O have three in a row"),
        (
            "OOO......",
            "impossible board OOO......: O has 3 stones and X 0",
        ),
        (
            "XXXX.OO..",
            "impossible board XXXX.OO..: X has 4 stones and O 2",
        ),
        ("XXXOO.O..", "X has three in a row, and O played on"),
    ] {
        let o = inarow(&["solve", board], "");
        assert!(!o.status.success());
        let err = stderr(&o);
        assert!(err.contains(want), "{board}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{err}");
    }
    // Who moves is whoever is told, even against the stone counts.
    let o = inarow(&["solve", "XO.......", "--to-move", "O"], "");
    assert!(o.status.success(), "{}", stderr(&o));
    let o = inarow(&["solve", "XXXOO...."], "");
    assert!(o.status.success());
    assert!(stdout(&o).contains("game over: X wins"));
}

#[test]
fn play_against_perfect_recovers_from_bad_moves() {
    // The machine opens in the centre; we answer with a corner, then try
    // garbage, an occupied square and a point off the board.
    let script = "0 0\nhello\n1 1\n7 7\n0 2\n2 0\n2 2\n1 0\n0 1\n2 1\n1 2\n";
    let o = inarow(
        &[
            "play",
            "tictactoe",
            "--opponent",
            "perfect",
            "--first",
            "machine",
        ],
        script,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("perfect plays 1,1"), "{out}");
    assert!(out.contains("error: expected a move as ROW COL"), "{out}");
    assert!(out.contains("error: 1,1 is already taken"), "{out}");
    assert!(out.contains("error: 7,7 is off the board"), "{out}");
    assert!(!out.contains("You win"), "perfect never loses: {out}");
    assert!(
        out.contains("perfect wins.") || out.contains("A draw."),
        "{out}"
    );
}

#[test]
fn play_against_random_to_the_end_and_quit_early() {
    // Moves in row-major order; occupied squares just get an error.
    let script: String = (0..9)
        .map(|i| format!("{} {}\n", i / 3, i % 3))
        .collect::<String>()
        .repeat(2);
    let o = inarow(
        &["play", "tictactoe", "--opponent", "random", "--seed", "3"],
        &script,
    );
    assert!(o.status.success());
    let out = stdout(&o);
    assert!(
        out.contains("You win!") || out.contains("random wins.") || out.contains("A draw."),
        "{out}"
    );
    let o = inarow(
        &[
            "play",
            "tictactoe",
            "--opponent",
            "mcts",
            "--iterations",
            "200",
        ],
        "q\n",
    );
    assert!(o.status.success());
    assert!(stdout(&o).contains("bye"));
    let o = inarow(&["play", "gomoku", "--opponent", "perfect"], "");
    assert!(!o.status.success());
    assert!(stderr(&o).contains("no perfect gomoku player"));
}

#[test]
fn play_gomoku_against_the_engine_by_default() {
    // Row-major moves: the engine (a small node budget, so the test is
    // quick and the game the same on any machine) wins long before the
    // script runs out; taken points just get an error.
    let script: String = (0..225)
        .map(|i| format!("{} {}\n", i / 15, i % 15))
        .collect();
    let o = inarow(&["play", "gomoku", "--move-nodes", "300"], &script);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("You play X against engine."), "{out}");
    assert!(out.contains("engine plays "), "{out}");
    assert!(out.contains("engine wins."), "{out}");
    let o = inarow(
        &[
            "play",
            "gomoku",
            "--opponent",
            "engine",
            "--move-time",
            "0.05",
        ],
        "q\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("bye"));
    let o = inarow(&["play", "tictactoe", "--opponent", "engine"], "");
    assert!(!o.status.success());
    assert!(stderr(&o).contains("the engine plays gomoku only"));
    // No think is no game, and neither is one that never ends: refused
    // in one line before the board is drawn.
    for bad in ["0", "1e12", "NaN"] {
        let o = inarow(&["play", "gomoku", "--move-time", bad], "");
        assert!(!o.status.success(), "{bad}");
        assert_eq!(stderr(&o).lines().count(), 1, "{bad}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("--move-time must be a number of seconds above 0 and at most 3600"),
            "{bad}: {}",
            stderr(&o)
        );
        assert!(stdout(&o).is_empty(), "{bad}");
    }
    let o = inarow(&["play", "gomoku", "--move-nodes", "0"], "");
    assert!(stderr(&o).contains("--move-nodes must be at least 1"));
}
