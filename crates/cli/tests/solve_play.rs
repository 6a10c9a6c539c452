//! Scripted end-to-end runs of `inarow solve` and `inarow play`.

use crate::common;

use common::{inarow, stderr, stdout};
use inarow_core::{Point, notation};

#[test]
fn solve_the_documents_example() {
    let o = inarow(&["solve", "XOX.O.X.."], "");
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("X to move"), "{out}");
    assert!(out.contains("best move: a2\n"), "{out}");
    // The board is drawn with the letters and numbers the move is named by.
    assert!(
        out.starts_with("   a b c\n 3 X O X  3\n 2 . O .  2\n 1 X . .  1\n   a b c\n"),
        "{out}"
    );
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
    assert!(out.contains("best move: b1\n"), "{out}");
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
    // garbage, counted coordinates, an occupied square and a point off the
    // board; the challenge's letters are read too (RL is a1).
    let script = "a3\nhello\n1 1\nb2\nd4\nc3\nRL\nc1\na2\nb3\nb1\nc2\n";
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
    assert!(
        out.starts_with(
            "You play O against perfect. Enter moves as b2 (the column's letter a to c"
        ),
        "{out}"
    );
    assert!(out.contains("perfect plays b2\n"), "{out}");
    assert!(
        out.contains("error: \"hello\" is not a square: name it a1 to c3"),
        "{out}"
    );
    assert!(out.contains("error: \"1 1\" is not a square"), "{out}");
    assert!(out.contains("error: b2 is already taken"), "{out}");
    assert!(
        out.contains("error: d4 is off the board: columns are a to c and rows 1 to 3"),
        "{out}"
    );
    assert!(out.contains("your move (O): "), "{out}");
    // Every move the machine names stands where the next board shows it.
    for name in machine_moves(&out, "perfect") {
        assert!(
            ["a1", "a2", "a3", "b1", "b2", "b3", "c1", "c2", "c3"].contains(&name.as_str()),
            "{name}: {out}"
        );
    }
    let drawn = boards(&out, 3);
    assert_eq!(drawn[0][1].as_bytes()[1], b'X', "b2 first: {:?}", drawn[0]);
    assert_eq!(drawn[1][0].as_bytes()[0], b'O', "then a3: {:?}", drawn[1]);
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
        .map(|i| format!("{}\n", notation::square_name(Point(i))))
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
    // Every point by its name, row by row from the top: the engine (a
    // small node budget, so the test is quick and the game the same on any
    // machine) wins long before the script runs out; taken points just get
    // an error.
    let script: String = (0..225)
        .map(|i| format!("{}\n", notation::point_name(Point(i), 15)))
        .collect();
    let o = inarow(&["play", "gomoku", "--move-nodes", "300"], &script);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.starts_with(
            "You play black (X on the board) against engine on 15x15, freestyle. Enter moves as h8"
        ),
        "{out}"
    );
    // The colour, never the board's letter, where it speaks of a side.
    assert!(out.contains("your move (black): "), "{out}");
    assert!(!out.contains("(X)"), "{out}");
    assert!(out.contains("engine wins."), "{out}");
    // The engine's moves are named as players write them, and each
    // lands where the next board shows it.
    let said = machine_moves(&out, "engine");
    assert!(!said.is_empty(), "{out}");
    for name in &said {
        let p = notation::parse_move(name, 15).unwrap_or_else(|e| panic!("{name}: {e}"));
        let (x, y) = p.xy(15);
        let last = boards(&out, 15).pop().unwrap();
        assert_eq!(last[y].as_bytes()[x], b'O', "{name} on {last:?}");
    }
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
}

/// The stones of every board drawn for gomoku on a `size` board, each as
/// its rows from the top, a character a point (`.`, `X` or `O`), read
/// under the column letters.
fn boards(out: &str, size: usize) -> Vec<Vec<String>> {
    let letters: String = (0..size)
        .map(|c| format!(" {}", char::from(b'a' + c as u8)))
        .collect();
    let lines: Vec<&str> = out.lines().collect();
    let mut found = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        // A board starts with the letters and ends with them.
        let header = line.ends_with(&letters) && line.trim() == letters.trim();
        if !header || i + size + 1 >= lines.len() || lines[i + size + 1].trim() != letters.trim() {
            continue;
        }
        let rows = (0..size)
            .map(|r| {
                let row = lines[i + 1 + r];
                let number = (size - r).to_string();
                assert!(
                    row.trim_start().starts_with(&number),
                    "row {number}: {row:?}"
                );
                assert!(row.trim_end().ends_with(&number), "row {number}: {row:?}");
                // The cells stand under the letters, at 3, 5, 7, ...
                (0..size)
                    .map(|c| char::from(row.as_bytes()[3 + 2 * c]))
                    .collect()
            })
            .collect();
        found.push(rows);
    }
    found
}

/// The points `machine` said it played, in order.
fn machine_moves(out: &str, machine: &str) -> Vec<String> {
    let says = format!("{machine} plays ");
    out.match_indices(&says)
        .map(|(at, _)| {
            out[at + says.len()..]
                .split(|c: char| c.is_whitespace() || c == ':')
                .next()
                .unwrap()
                .to_string()
        })
        .collect()
}

#[test]
fn play_gomoku_on_another_size_and_rule_in_players_notation() {
    // 9x9, exact five, against the seeded random player: h8 is column h
    // (the eighth), row 8 from the bottom; 0,0 is the top left (a9).
    let script = "h8\nz9\nh8\nh0\nhello\n0,0\nq\n";
    let o = inarow(
        &[
            "play",
            "gomoku",
            "--size",
            "9",
            "--rule",
            "exact",
            "--opponent",
            "random",
            "--seed",
            "3",
        ],
        script,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.starts_with("You play black (X on the board) against random on 9x9, exact."),
        "{out}"
    );
    assert!(
        out.contains("error: z9 is off the 9x9 board: columns are a to i and rows 1 to 9"),
        "{out}"
    );
    assert!(out.contains("error: h8 is already taken"), "{out}");
    assert!(out.contains("error: h0 is off the 9x9 board"), "{out}");
    assert!(out.contains("error: expected a move such as h8"), "{out}");
    assert!(out.ends_with("bye\n"), "{out}");
    let drawn = boards(&out, 9);
    assert_eq!(drawn.len(), 3, "{out}");
    // The first board is empty; then h8 (x 7, y 1) holds X; then a9 too.
    assert!(
        drawn[0].iter().all(|row| row == "........."),
        "{:?}",
        drawn[0]
    );
    assert_eq!(drawn[1][1].as_bytes()[7], b'X', "{:?}", drawn[1]);
    assert_eq!(drawn[2][0].as_bytes()[0], b'X', "{:?}", drawn[2]);
    // Each of random's moves is named and stands where it says.
    let said = machine_moves(&out, "random");
    assert_eq!(said.len(), 2, "{out}");
    for (k, name) in said.iter().enumerate() {
        let (x, y) = notation::parse_move(name, 9).unwrap().xy(9);
        assert_eq!(
            drawn[k + 1][y].as_bytes()[x],
            b'O',
            "{name}: {:?}",
            drawn[k + 1]
        );
    }
}

#[test]
fn play_gomoku_under_renju_refuses_black_a_forbidden_point_and_says_why() {
    // f8 g8 then h6 h7: h8 would make two open threes at once. The seeded
    // random player's stones fall far from them (checked below).
    let script = "f8\ng8\nh6\nh7\nh8\nq\n";
    let o = inarow(
        &[
            "play",
            "gomoku",
            "--rule",
            "renju",
            "--opponent",
            "random",
            "--seed",
            "1",
        ],
        script,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.starts_with("You play black (X on the board) against random on 15x15, renju."),
        "{out}"
    );
    let near = [
        "e8", "f8", "g8", "h8", "i8", "j8", "h5", "h6", "h7", "h9", "h10",
    ];
    for name in machine_moves(&out, "random") {
        assert!(
            !near.contains(&name.as_str()),
            "random took {name}: pick another seed"
        );
    }
    assert!(
        out.contains("error: h8 is forbidden to black under renju (double three)"),
        "{out}"
    );
    // Refused, not played: the last board has no stone on h8.
    let last = boards(&out, 15).pop().unwrap();
    assert_eq!(last[7].as_bytes()[7], b'.', "{last:?}");
    assert!(out.ends_with("bye\n"), "{out}");
    // Under freestyle the same point is black's to play.
    let o = inarow(
        &["play", "gomoku", "--opponent", "random", "--seed", "1"],
        script,
    );
    let out = stdout(&o);
    assert!(!out.contains("forbidden"), "{out}");
    assert_eq!(
        boards(&out, 15).pop().unwrap()[7].as_bytes()[7],
        b'X',
        "{out}"
    );
}

#[test]
fn play_refuses_bad_numbers_sizes_and_rules_in_one_line() {
    for (args, says) in [
        (
            &["gomoku", "--size", "4"][..],
            "--size must be a whole number from 5 to 20, got 4",
        ),
        (
            &["gomoku", "--size", "-3"],
            "--size must be a whole number from 5 to 20, got -3",
        ),
        (
            &["gomoku", "--size", "21"],
            "--size must be a whole number from 5 to 20, got 21",
        ),
        (
            &["gomoku", "--rule", "caro"],
            "invalid value 'caro' for '--rule <RULE>'",
        ),
        (&["tictactoe", "--size", "9"], "--size 9 is for gomoku"),
        (
            &["tictactoe", "--rule", "renju"],
            "--rule renju is for gomoku",
        ),
        (
            &["gomoku", "--move-nodes", "0"],
            "--move-nodes must be a whole number of at least 1, got 0",
        ),
        (
            &["gomoku", "--move-nodes", "-5"],
            "--move-nodes must be a whole number of at least 1, got -5",
        ),
        (
            &["gomoku", "--iterations", "0"],
            "--iterations must be a whole number from 1 to",
        ),
        (
            &["gomoku", "--seed", "-1"],
            "--seed must be a whole number from 0 to",
        ),
        // No think is no game, and neither is one that never ends.
        (
            &["gomoku", "--move-time", "0"],
            "--move-time must be a number of seconds above 0 and at most 3600, got 0",
        ),
        (
            &["gomoku", "--move-time", "1e12"],
            "--move-time must be a number of seconds above 0 and at most 3600, got 1e12",
        ),
        (
            &["gomoku", "--move-time", "NaN"],
            "--move-time must be a number of seconds above 0 and at most 3600, got NaN",
        ),
        (
            &["gomoku", "--move-time", "-1"],
            "--move-time must be a number of seconds above 0 and at most 3600, got -1",
        ),
    ] {
        let mut all = vec!["play"];
        all.extend_from_slice(args);
        let o = inarow(&all, "h8\n");
        assert!(!o.status.success(), "{args:?}");
        let err = stderr(&o);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(
            err.starts_with(&format!("inarow: {says}")),
            "{args:?}: {err}"
        );
        assert!(stdout(&o).is_empty(), "{args:?}");
    }
}

#[test]
fn play_gomoku_names_the_sides_by_colour() {
    let o = inarow(
        &[
            "play",
            "gomoku",
            "--first",
            "machine",
            "--opponent",
            "random",
            "--seed",
            "1",
        ],
        "q\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.starts_with("You play white (O on the board) against random on 15x15, freestyle."),
        "{out}"
    );
    assert!(out.contains("your move (white): "), "{out}");
    // Tic-tac-toe keeps its letters.
    let o = inarow(&["play", "tictactoe", "--opponent", "random"], "q\n");
    let out = stdout(&o);
    assert!(out.starts_with("You play X against random."), "{out}");
    assert!(out.contains("your move (X): "), "{out}");
}

/// The evaluations the engine said with its moves, in order (`win rate
/// 63%`, `win in 5`).
fn evaluations(out: &str) -> Vec<String> {
    let says = "(engine's evaluation: ";
    out.match_indices(says)
        .map(|(at, _)| {
            let rest = &out[at + says.len()..];
            rest[..rest.find(')').unwrap()].to_string()
        })
        .collect()
}

/// The `(x, y)` of the stone drawn between brackets on a board's rows as
/// `write_board` prints them, if one is.
fn marked(out: &str, board: usize, size: usize) -> Option<(usize, usize)> {
    let letters: String = (0..size)
        .map(|c| format!(" {}", char::from(b'a' + c as u8)))
        .collect();
    let lines: Vec<&str> = out.lines().collect();
    let starts: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].trim() == letters.trim())
        .step_by(2)
        .collect();
    let top = starts[board];
    let mut found = None;
    for y in 0..size {
        let row = lines[top + 1 + y].as_bytes();
        for x in 0..size {
            let (before, after) = (row[2 + 2 * x], row[4 + 2 * x]);
            if before == b'(' {
                assert_eq!(after, b')', "{:?}", lines[top + 1 + y]);
                assert!(found.is_none(), "one stone marked: {out}");
                found = Some((x, y));
            }
        }
    }
    found
}

#[test]
fn play_gomoku_marks_the_last_stone_and_says_the_engines_evaluation() {
    let o = inarow(&["play", "gomoku", "--move-nodes", "300"], "h8\nq\n");
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("; undo takes your last move back, help lists what you can type, q quits."),
        "{out}"
    );
    // The empty board marks nothing; the next marks the engine's stone.
    assert_eq!(marked(&out, 0, 15), None, "{out}");
    let said = machine_moves(&out, "engine");
    assert_eq!(said.len(), 1, "{out}");
    let xy = notation::parse_move(&said[0], 15).unwrap().xy(15);
    assert_eq!(marked(&out, 1, 15), Some(xy), "{out}");
    let last = boards(&out, 15).pop().unwrap();
    assert_eq!(last[xy.1].as_bytes()[xy.0], b'O', "{last:?}");
    assert_eq!(last[7].as_bytes()[7], b'X', "{last:?}");
    // A win rate after an opening move: not proven, so never 0% or 100%.
    let evaluation = &evaluations(&out)[0];
    let percent: u32 = evaluation
        .strip_prefix("win rate ")
        .and_then(|r| r.strip_suffix('%'))
        .unwrap_or_else(|| panic!("{evaluation}"))
        .parse()
        .unwrap();
    assert!((1..=99).contains(&percent), "{evaluation}");
}

#[test]
fn play_gomoku_the_engine_counts_its_proven_win_down_to_the_five() {
    // Every point row by row from the top: the engine proves its win,
    // then says it each move, never further away, down to the five.
    let script: String = (0..225)
        .map(|i| format!("{}\n", notation::point_name(Point(i), 15)))
        .collect();
    let o = inarow(&["play", "gomoku", "--move-nodes", "300"], &script);
    let out = stdout(&o);
    assert!(out.contains("engine wins."), "{out}");
    let wins: Vec<i32> = evaluations(&out)
        .iter()
        .skip_while(|e| !e.starts_with("win in "))
        .map(|e| {
            e.strip_prefix("win in ")
                .unwrap_or_else(|| panic!("a proof is kept: {e} in {out}"))
                .parse()
                .unwrap()
        })
        .collect();
    assert!(!wins.is_empty(), "{out}");
    // Never further: a proof is kept; the five is a win in 1.
    assert!(wins.windows(2).all(|w| w[1] <= w[0]), "{wins:?}");
    assert_eq!(wins.last(), Some(&1), "{wins:?}");
    // The five's stone is the one marked on the last board.
    let said = machine_moves(&out, "engine");
    let five = notation::parse_move(said.last().unwrap(), 15)
        .unwrap()
        .xy(15);
    let drawn = boards(&out, 15).len();
    assert_eq!(marked(&out, drawn - 1, 15), Some(five), "{out}");
}

#[test]
fn play_gomoku_undo_takes_back_your_move_and_the_answer() {
    // Nothing to take back at first; then h8 and the engine's answer go,
    // and h8 is free again.
    let o = inarow(
        &["play", "gomoku", "--move-nodes", "200"],
        "undo\nh8\nundo\nh8\nq\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("error: no move of yours to take back yet"),
        "{out}"
    );
    let said = machine_moves(&out, "engine");
    assert_eq!(said.len(), 2, "{out}");
    assert!(
        out.contains(&format!("took back your h8 and engine's {}\n", said[0])),
        "{out}"
    );
    assert!(!out.contains("already taken"), "{out}");
    let drawn = boards(&out, 15);
    // Empty, h8 with the answer, empty again after undo, then once more.
    assert_eq!(drawn.len(), 4, "{out}");
    assert_eq!(drawn[2], drawn[0], "{out}");
    assert_eq!(marked(&out, 2, 15), None, "{out}");
    assert!(drawn[0].iter().all(|row| !row.contains('X')), "{out}");
    assert_eq!(drawn[3][7].as_bytes()[7], b'X', "{out}");

    // The machine first: its opening stone is not yours to take back; after
    // your move and its answer, undo leaves its opening stone, marked.
    let o = inarow(
        &[
            "play",
            "tictactoe",
            "--opponent",
            "perfect",
            "--first",
            "machine",
        ],
        "undo\na1\nundo\nq\n",
    );
    let out = stdout(&o);
    assert!(
        out.contains("error: no move of yours to take back yet"),
        "{out}"
    );
    let said = machine_moves(&out, "perfect");
    assert_eq!(said.len(), 2, "{out}");
    assert_eq!(said[0], "b2", "{out}");
    assert!(
        out.contains(&format!("took back your a1 and perfect's {}\n", said[1])),
        "{out}"
    );
    let first = notation::parse_square(&said[0]).unwrap().xy(3);
    let last = boards(&out, 3).len() - 1;
    assert_eq!(marked(&out, last, 3), Some(first), "{out}");
    let stones: usize = boards(&out, 3)[last]
        .iter()
        .map(|row| row.chars().filter(|&c| c != '.').count())
        .sum();
    assert_eq!(stones, 1, "{out}");
}

#[test]
fn play_help_lists_what_can_be_typed_and_is_not_a_move() {
    let o = inarow(
        &["play", "gomoku", "--opponent", "random"],
        "help\nHELP\nq\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(!out.contains("error"), "{out}");
    assert_eq!(out.matches("Type a point: h8").count(), 2, "{out}");
    for word in ["undo ", "help ", "q "] {
        assert!(out.contains(&format!("\n  {word}")), "{word}: {out}");
    }
    assert!(out.contains("win in N"), "{out}");
    // Tic-tac-toe's help names its squares.
    let o = inarow(&["play", "tictactoe"], "help\nq\n");
    let out = stdout(&o);
    assert!(out.contains("Type a square: b2"), "{out}");
    assert!(!out.contains("error"), "{out}");
    // A word it does not know says where help is.
    let o = inarow(&["play", "tictactoe"], "hint\nq\n");
    assert!(
        stdout(&o).contains("(help lists what you can type)"),
        "{}",
        stdout(&o)
    );
}
