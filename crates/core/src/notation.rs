//! Reading and writing boards and moves as text.
//!
//! A board is written row by row with `X`, `O` and `.` (also `-` or `_` for an
//! empty point, and lower case). Whitespace, `/` and `|` between cells are
//! ignored, so `XOX.O.X..`, `XOX/.O./X..` and three lines of three all read
//! as the same tic-tac-toe board.
//!
//! A move is written `ROW COL` or `ROW,COL`, counting from 0 at the top left.

use std::fmt;

use crate::{Game, Player, Point};

/// What was wrong with a board or move read from text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    message: String,
}

impl ParseError {
    /// An error with this message.
    pub fn new(message: impl Into<String>) -> ParseError {
        ParseError {
            message: message.into(),
        }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ParseError {}

/// Reads `rows * cols` cells in row-major order.
pub fn parse_cells(
    text: &str,
    rows: usize,
    cols: usize,
) -> Result<Vec<Option<Player>>, ParseError> {
    let want = rows * cols;
    let mut cells = Vec::with_capacity(want);
    for c in text.chars() {
        match c {
            '.' | '-' | '_' => cells.push(None),
            c if c.is_whitespace() || c == '/' || c == '|' => {}
            'X' | 'x' => cells.push(Some(Player::X)),
            'O' | 'o' => cells.push(Some(Player::O)),
            other => {
                return Err(ParseError::new(format!(
                    "unexpected character {other:?} in board: use X, O and . for an empty point"
                )));
            }
        }
    }
    if cells.len() != want {
        return Err(ParseError::new(format!(
            "a {rows}x{cols} board has {want} points, but {} were given",
            cells.len()
        )));
    }
    Ok(cells)
}

/// The board as one line of `X`, `O` and `.`, row-major.
pub fn compact<G: Game>(game: &G) -> String {
    (0..game.points())
        .map(|i| cell_char(game.stone(Point(i as u16))))
        .collect()
}

/// Writes the board as rows of `X`, `O` and `.`, one line each.
pub fn write_rows<G: Game>(game: &G, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    for r in 0..game.rows() {
        if r > 0 {
            f.write_str("\n")?;
        }
        for c in 0..game.cols() {
            let p = Point::at(r, c, game.cols());
            write!(f, "{}", cell_char(game.stone(p)))?;
        }
    }
    Ok(())
}

fn cell_char(stone: Option<Player>) -> char {
    stone.map_or('.', Player::symbol)
}

/// Reads a move `ROW COL` or `ROW,COL` (0-based) on a board of this size.
pub fn parse_point(text: &str, rows: usize, cols: usize) -> Result<Point, ParseError> {
    let cleaned: String = text
        .trim()
        .trim_start_matches('(')
        .trim_end_matches(')')
        .replace(',', " ");
    let mut parts = cleaned.split_whitespace();
    let usage = || {
        ParseError::new(format!(
            "expected a move as ROW COL (numbers from 0), got {:?}",
            text.trim()
        ))
    };
    let (Some(r), Some(c), None) = (parts.next(), parts.next(), parts.next()) else {
        return Err(usage());
    };
    let (Ok(row), Ok(col)) = (r.parse::<usize>(), c.parse::<usize>()) else {
        return Err(usage());
    };
    if row >= rows || col >= cols {
        return Err(ParseError::new(format!(
            "{row},{col} is off the board: rows are 0 to {} and columns 0 to {}",
            rows - 1,
            cols - 1
        )));
    }
    Ok(Point::at(row, col, cols))
}

/// Writes a move as `ROW,COL`.
pub fn format_point(point: Point, cols: usize) -> String {
    format!("{},{}", point.row(cols), point.col(cols))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_round_trip() {
        for text in ["1 2", "1,2", " (1, 2) "] {
            assert_eq!(parse_point(text, 3, 3).unwrap(), Point(5));
        }
        assert_eq!(format_point(Point(5), 3), "1,2");
        assert!(
            parse_point("3 0", 3, 3)
                .unwrap_err()
                .to_string()
                .contains("off the board")
        );
        assert!(
            parse_point("a b", 3, 3)
                .unwrap_err()
                .to_string()
                .contains("ROW COL")
        );
        assert!(parse_point("1", 3, 3).is_err());
        assert!(parse_point("1 2 3", 3, 3).is_err());
    }

    #[test]
    fn cells_errors_name_the_problem() {
        let e = parse_cells("XOX.Z.X..", 3, 3).unwrap_err();
        assert!(e.to_string().contains("'Z'"), "{e}");
        let e = parse_cells("XOX", 3, 3).unwrap_err();
        assert!(e.to_string().contains("9 points, but 3"), "{e}");
        assert_eq!(parse_cells("XO./.../...", 3, 3).unwrap().len(), 9);
    }
}
