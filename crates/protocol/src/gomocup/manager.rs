//! The manager's side of the Gomocup protocol: the commands it writes to a
//! brain and the replies it reads back. Boards are `size` wide; points are
//! written `x,y`, column then row.

use std::fmt;

use inarow_core::{Game, Mnk, Point, Rule};

use super::{RuleBits, format_xy};

/// `BEGIN`: the brain makes the first move on an empty board.
pub const BEGIN: &str = "BEGIN";
/// `RESTART`: a new game on the same board; the brain answers `OK`.
pub const RESTART: &str = "RESTART";
/// `END`: the brain should exit.
pub const END: &str = "END";

/// `START size`: a new board; the brain answers `OK`.
pub fn start(size: usize) -> String {
    format!("START {size}")
}

/// `INFO key value`.
pub fn info(key: &str, value: impl fmt::Display) -> String {
    format!("INFO {key} {value}")
}

/// `INFO rule N`: the rule's bits (0 freestyle, 1 exactly five, 4 renju).
pub fn info_rule(rule: Rule) -> String {
    info("rule", RuleBits::from(rule))
}

/// `TURN x,y`: the opponent played `point`; the brain answers its move.
pub fn turn(point: Point, size: usize) -> String {
    format!("TURN {}", format_xy(point, size))
}

/// `BOARD`, one `x,y,field` line per stone of `history` (in the order
/// played; `1` for the side to move in `game`, `2` for the other), `DONE`.
pub fn board(game: &Mnk, history: &[Point]) -> Vec<String> {
    let size = game.cols();
    let me = game.to_move();
    let mut lines = Vec::with_capacity(history.len() + 2);
    lines.push("BOARD".to_string());
    for &p in history {
        let field = if game.stone(p) == Some(me) { 1 } else { 2 };
        lines.push(format!("{},{field}", format_xy(p, size)));
    }
    lines.push("DONE".to_string());
    lines
}

/// `SWAP2BOARD`, the opening stones in move order, `DONE`.
pub fn swap2board(stones: &[Point], size: usize) -> Vec<String> {
    let mut lines = Vec::with_capacity(stones.len() + 2);
    lines.push("SWAP2BOARD".to_string());
    lines.extend(stones.iter().map(|&p| format_xy(p, size)));
    lines.push("DONE".to_string());
    lines
}

/// Whether a brain's line is chatter (`MESSAGE`, `DEBUG` or empty) rather
/// than an answer.
pub fn is_chatter(line: &str) -> bool {
    let line = line.trim();
    line.is_empty() || line.starts_with("MESSAGE") || line.starts_with("DEBUG")
}

/// Why a brain's move could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The move is off the board.
    OffBoard {
        /// The column.
        x: usize,
        /// The row.
        y: usize,
        /// The board side.
        size: usize,
    },
    /// The line is not `x,y`.
    Syntax(String),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::OffBoard { x, y, size } => {
                write!(f, "move {x},{y} is off the {size}x{size} board")
            }
            MoveError::Syntax(line) => write!(f, "expected a move x,y, got {line:?}"),
        }
    }
}

impl std::error::Error for MoveError {}

/// Reads a brain's move `x,y` (x the column, y the row).
pub fn parse_move(line: &str, size: usize) -> Result<Point, MoveError> {
    let parsed = line.split_once(',').and_then(|(x, y)| {
        Some((
            x.trim().parse::<usize>().ok()?,
            y.trim().parse::<usize>().ok()?,
        ))
    });
    match parsed {
        Some((x, y)) => Point::from_xy(x, y, size).ok_or(MoveError::OffBoard { x, y, size }),
        None => Err(MoveError::Syntax(line.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use inarow_core::Player;

    use super::*;

    #[test]
    fn moves_are_column_then_row() {
        assert_eq!(parse_move("3,4", 15).unwrap(), Point::at(3, 4, 15));
        assert_eq!(parse_move(" 14 , 0 ", 15).unwrap(), Point::at(14, 0, 15));
        assert!(
            parse_move("15,0", 15)
                .unwrap_err()
                .to_string()
                .contains("off the")
        );
        assert!(
            parse_move("OK", 15)
                .unwrap_err()
                .to_string()
                .contains("expected a move")
        );
    }

    #[test]
    fn commands_are_written_column_then_row() {
        let mut game = Mnk::gomoku();
        let (a, b) = (Point::at(3, 7, 15), Point::at(4, 8, 15));
        game.place(a, Player::X).unwrap();
        game.place(b, Player::O).unwrap();
        assert_eq!(start(15), "START 15");
        assert_eq!(info("timeout_turn", 500), "INFO timeout_turn 500");
        assert_eq!(turn(a, 15), "TURN 3,7");
        // Black to move: its own stone is 1.
        assert_eq!(board(&game, &[a, b]), ["BOARD", "3,7,1", "4,8,2", "DONE"]);
        assert_eq!(swap2board(&[b], 15), ["SWAP2BOARD", "4,8", "DONE"]);
        assert!(is_chatter("MESSAGE depth 3") && is_chatter(" ") && !is_chatter("7,7"));
    }
}
