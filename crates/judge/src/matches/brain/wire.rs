//! The manager's side of the Gomocup brain protocol: the lines a match
//! writes to a brain and the replies it reads. Moves are `x,y`, x the
//! column and y the row.

use inarow_core::Point;

/// Starts a brain on a `size` board; it answers `OK`.
pub fn start(size: usize) -> String {
    format!("START {size}")
}

/// Forgets the game for a new one; the brain answers `OK`.
pub const RESTART: &str = "RESTART";

/// Asks for the first move on an empty board.
pub const BEGIN: &str = "BEGIN";

/// Opens a whole board, one stone a line, closed by [`DONE`].
pub const BOARD: &str = "BOARD";

/// Closes a board; the brain answers with its move.
pub const DONE: &str = "DONE";

/// The match is over: the brain ends.
pub const END: &str = "END";

/// The settings of a match with `turn_ms` per move: the turn, the whole
/// match (a thousand turns) and the rule (freestyle).
pub fn info(turn_ms: u128) -> [String; 3] {
    [
        format!("INFO timeout_turn {turn_ms}"),
        format!("INFO timeout_match {}", turn_ms.saturating_mul(1000)),
        "INFO rule 0".to_string(),
    ]
}

/// The opponent's move `p`; the brain answers with its own.
pub fn turn(p: Point, size: usize) -> String {
    format!("TURN {},{}", p.col(size), p.row(size))
}

/// One stone of a board: `mine` for the brain's own (1), else the opponent's (2).
pub fn board_stone(p: Point, mine: bool, size: usize) -> String {
    let who = if mine { 1 } else { 2 };
    format!("{},{},{who}", p.col(size), p.row(size))
}

/// Lines a brain says besides its answers (`MESSAGE`, `DEBUG`, blank),
/// which a manager skips.
pub fn is_chatter(line: &str) -> bool {
    line.is_empty() || line.starts_with("MESSAGE") || line.starts_with("DEBUG")
}

/// Reads a brain's move `x,y` (x the column, y the row).
pub fn parse_move(line: &str, size: usize) -> Result<Point, String> {
    let parsed = line.split_once(',').and_then(|(x, y)| {
        Some((
            x.trim().parse::<usize>().ok()?,
            y.trim().parse::<usize>().ok()?,
        ))
    });
    match parsed {
        Some((x, y)) if x < size && y < size => Ok(Point::at(y, x, size)),
        Some((x, y)) => Err(format!("move {x},{y} is off the {size}x{size} board")),
        None => Err(format!("expected a move x,y, got {line:?}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_are_column_then_row() {
        assert_eq!(parse_move("3,4", 15).unwrap(), Point::at(4, 3, 15));
        assert_eq!(parse_move(" 14 , 0 ", 15).unwrap(), Point::at(0, 14, 15));
        assert!(parse_move("15,0", 15).unwrap_err().contains("off the"));
        assert!(
            parse_move("OK", 15)
                .unwrap_err()
                .contains("expected a move")
        );
    }
}
