//! Reading and writing boards and moves as text.
//!
//! A board is written row by row with `X`, `O` and `.` (also `-` or `_` for an
//! empty point, and lower case). Whitespace, `/` and `|` between cells are
//! ignored, so `XOX.O.X..`, `XOX/.O./X..` and three lines of three all read
//! as the same tic-tac-toe board.
//!
//! A point is named as gomoku players write it, `h8` (column letter from
//! `a`, `i` included, row from 1 at the bottom), on every board: a
//! tic-tac-toe square is `a1` to `c3` (`b2` the centre). A gomoku move is
//! also read as the brain protocol's `x,y` from the top left; a tic-tac-toe
//! square as the MENACE challenge's two letters, row then column (`MM`).

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
            let p = Point::at(c, r, game.cols());
            write!(f, "{}", cell_char(game.stone(p)))?;
        }
    }
    Ok(())
}

fn cell_char(stone: Option<Player>) -> char {
    stone.map_or('.', Player::symbol)
}

/// The side of a tic-tac-toe board.
const TTT_SIDE: usize = 3;

/// A tic-tac-toe square's name, as a gomoku point's on a 3x3 board: `a1`
/// the bottom left, `b2` the centre, `c3` the top right.
pub fn square_name(point: Point) -> String {
    point_name(point, TTT_SIDE)
}

/// A tic-tac-toe square in the MENACE challenge's letters: row then
/// column, each `L`, `M` or `R` (`LL` the top left, `MM` the centre).
pub fn challenge_name(point: Point) -> String {
    const LETTERS: [char; 3] = ['L', 'M', 'R'];
    let (row, col) = (point.row(TTT_SIDE), point.col(TTT_SIDE));
    format!("{}{}", LETTERS[row], LETTERS[col])
}

/// Reads a tic-tac-toe square: `a1` to `c3` (either case, spaces
/// ignored), or the MENACE challenge's two letters, row then column
/// (`LL`, `mm`, `r l`). Counted coordinates (`1,1`) are refused: a square
/// is named, never counted, so no reader can take it for row and column.
pub fn parse_square(text: &str) -> Result<Point, ParseError> {
    let shown = text.trim();
    let chars: Vec<char> = shown
        .chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| c.to_ascii_lowercase())
        .collect();
    let challenge = |c: char| ['l', 'm', 'r'].iter().position(|&l| l == c);
    match chars.as_slice() {
        [] => Err(ParseError::new(
            "no square given: name one a1 to c3 (b2 is the centre)",
        )),
        &[col @ 'a'..='z', row @ '0'..='9'] => {
            let (x, row) = (usize::from(col as u8 - b'a'), usize::from(row as u8 - b'0'));
            if x >= TTT_SIDE || row == 0 || row > TTT_SIDE {
                return Err(ParseError::new(format!(
                    "{col}{row} is off the board: columns are a to c and rows 1 to 3"
                )));
            }
            Ok(Point::at(x, TTT_SIDE - row, TTT_SIDE))
        }
        &[r, c] if challenge(r).is_some() && challenge(c).is_some() => Ok(Point::at(
            challenge(c).unwrap_or_default(),
            challenge(r).unwrap_or_default(),
            TTT_SIDE,
        )),
        _ => Err(ParseError::new(format!(
            "{shown:?} is not a square: name it a1 to c3, the column's letter then the row \
             counted from 1 at the bottom (b2 is the centre), or row then column in L/M/R (MM)"
        ))),
    }
}

/// Most columns a gomoku point name can write (`a` to `z`).
pub const MAX_NAMED_COLS: usize = 26;

/// A gomoku point's name as players write it: the column's letter, `a`
/// from the left and `i` included, then the row counted from 1 at the
/// bottom, so `h8` is the centre of 15x15 (renju literature, Piskvork and
/// Gomocalc records); on a board `size` wide and high.
pub fn point_name(point: Point, size: usize) -> String {
    let (x, y) = point.xy(size);
    xy_name(x, y, size)
}

/// The name of the point at column `x`, row `y` from the top left (the
/// brain protocol's coordinates), as [`point_name`] writes it.
pub fn xy_name(x: usize, y: usize, size: usize) -> String {
    let letter = char::from(b'a' + (x.min(MAX_NAMED_COLS - 1)) as u8);
    format!("{letter}{}", size - y.min(size - 1))
}

/// Reads one gomoku move on a `size` board: a name such as `h8` (either
/// case), or the brain protocol's `x,y` from the top left such as `7,7`.
pub fn parse_move(text: &str, size: usize) -> Result<Point, ParseError> {
    let t = text.trim();
    let off = |what: String| {
        ParseError::new(format!(
            "{what} is off the {size}x{size} board: columns are a to {} and rows 1 to {size}",
            char::from(b'a' + (size.min(MAX_NAMED_COLS) - 1) as u8)
        ))
    };
    if let Some((x, y)) = t.split_once(',') {
        let (Ok(x), Ok(y)) = (x.trim().parse::<usize>(), y.trim().parse::<usize>()) else {
            return Err(ParseError::new(format!(
                "expected a move such as h8, or x,y from the top left such as 7,7; got {t:?}"
            )));
        };
        return Point::from_xy(x, y, size).ok_or_else(|| {
            ParseError::new(format!(
                "{x},{y} is off the {size}x{size} board: x and y are 0 to {}",
                size - 1
            ))
        });
    }
    let mut chars = t.chars();
    let (Some(letter), digits) = (chars.next(), chars.as_str()) else {
        return Err(ParseError::new("expected a move such as h8, got nothing"));
    };
    let row = digits
        .parse::<usize>()
        .ok()
        .filter(|_| !digits.starts_with('+'));
    let (true, Some(row)) = (letter.is_ascii_alphabetic(), row) else {
        return Err(ParseError::new(format!(
            "expected a move such as h8 (a column letter, then a row number), got {t:?}"
        )));
    };
    let x = (letter.to_ascii_lowercase() as u8 - b'a') as usize;
    if x >= size || row == 0 || row > size {
        return Err(off(t.to_ascii_lowercase()));
    }
    Ok(Point::at(x, size - row, size))
}

/// Reads moves written one after another, such as `h8 i9 j10` (commas,
/// semicolons and move numbers like `1.` between them are allowed; `x,y`
/// pairs are read as one move each); the error names the move that is
/// wrong and its place.
pub fn parse_moves(text: &str, size: usize) -> Result<Vec<Point>, ParseError> {
    let mut moves = Vec::new();
    for (n, word) in move_words(text).into_iter().enumerate() {
        let p =
            parse_move(&word, size).map_err(|e| ParseError::new(format!("move {}: {e}", n + 1)))?;
        moves.push(p);
    }
    Ok(moves)
}

/// The words of a move list: names, and `x,y` pairs kept whole.
fn move_words(text: &str) -> Vec<String> {
    let spaced = text.replace(';', " ");
    let mut words: Vec<String> = Vec::new();
    let mut tokens = spaced.split_whitespace().peekable();
    while let Some(tok) = tokens.next() {
        // A move number ("1." or "12.") only counts the moves.
        if tok.ends_with('.') && tok[..tok.len() - 1].chars().all(|c| c.is_ascii_digit()) {
            continue;
        }
        let starts_digit = tok.starts_with(|c: char| c.is_ascii_digit());
        if starts_digit {
            // x,y with optional spaces around the comma: "7,7", "7, 7", "7 ,7".
            let mut word = tok.to_string();
            while (word.ends_with(',') || tokens.peek().is_some_and(|t| t.starts_with(',')))
                && tokens.peek().is_some()
            {
                word.push_str(tokens.next().unwrap_or_default());
            }
            words.push(word.trim_end_matches(',').to_string());
            // "7,7,8,8" is not a list of pairs: leave it whole so the error names it.
        } else {
            words.extend(tok.split(',').filter(|w| !w.is_empty()).map(str::to_string));
        }
    }
    words
}

/// Moves written as [`parse_moves`] reads them, space-separated names.
pub fn format_moves(moves: &[Point], size: usize) -> String {
    moves
        .iter()
        .map(|&p| point_name(p, size))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gomoku_names_count_columns_from_a_with_i_and_rows_from_the_bottom() {
        assert_eq!(point_name(Point::from_xy(7, 7, 15).unwrap(), 15), "h8");
        assert_eq!(xy_name(8, 0, 15), "i15");
        assert_eq!(xy_name(0, 14, 15), "a1");
        assert_eq!(xy_name(19, 0, 20), "t20");
        assert_eq!(xy_name(4, 4, 5), "e1");
        for size in [5, 9, 15, 19, 20] {
            for i in 0..size * size {
                let p = Point(i as u16);
                assert_eq!(parse_move(&point_name(p, size), size), Ok(p));
                let (x, y) = p.xy(size);
                assert_eq!(parse_move(&format!("{x},{y}"), size), Ok(p));
            }
        }
        assert_eq!(parse_move(" H8 ", 15), parse_move("h8", 15));
    }

    #[test]
    fn gomoku_moves_are_refused_in_one_line_naming_the_move() {
        let err = |t: &str, size| parse_move(t, size).unwrap_err().to_string();
        assert!(err("p8", 15).contains("p8 is off the 15x15 board: columns are a to o"));
        assert!(err("h16", 15).contains("rows 1 to 15"));
        assert!(err("h0", 15).contains("off the"));
        assert!(err("15,0", 15).contains("x and y are 0 to 14"));
        assert!(err("8h", 15).contains("such as h8"));
        assert!(err("h+8", 15).contains("such as h8"));
        assert!(err("", 15).contains("got nothing"));
        assert!(err("h8x", 15).contains("such as h8"));
        assert!(err("a,b", 15).contains("x,y"));
        for e in ["p8", "h16", "8h", "a,b", ""] {
            assert!(!err(e, 15).contains('\n'));
        }
    }

    #[test]
    fn move_lists_read_names_pairs_and_numbers() {
        let at = |x, y| Point::from_xy(x, y, 15).unwrap();
        let want = vec![at(7, 7), at(8, 6), at(9, 5)];
        for text in [
            "h8 i9 j10",
            "H8, I9, J10",
            "1. h8 2. i9 3. j10",
            "7,7 8, 6 9 ,5",
            "h8;i9;j10",
        ] {
            assert_eq!(parse_moves(text, 15), Ok(want.clone()), "{text}");
        }
        assert_eq!(format_moves(&want, 15), "h8 i9 j10");
        assert_eq!(parse_moves("", 15), Ok(vec![]));
        let e = parse_moves("h8 z9", 15).unwrap_err().to_string();
        assert!(e.starts_with("move 2: z9 is off"), "{e}");
    }

    #[test]
    fn tic_tac_toe_squares_are_named_as_gomoku_points() {
        // Row 0 is the top: a3 c3 / a2 b2 c2 / a1 b1 c1.
        let names = ["a3", "b3", "c3", "a2", "b2", "c2", "a1", "b1", "c1"];
        let challenge = ["LL", "LM", "LR", "ML", "MM", "MR", "RL", "RM", "RR"];
        for i in 0..9 {
            let p = Point(i as u16);
            assert_eq!(square_name(p), names[i]);
            assert_eq!(challenge_name(p), challenge[i]);
            assert_eq!(parse_square(names[i]), Ok(p));
            assert_eq!(parse_square(&names[i].to_uppercase()), Ok(p));
            assert_eq!(parse_square(challenge[i]), Ok(p));
            assert_eq!(parse_square(&challenge[i].to_lowercase()), Ok(p));
            assert_eq!(parse_move(names[i], 3), Ok(p), "the gomoku name");
        }
        assert_eq!(parse_square(" b 2\n"), Ok(Point(4)));
        assert_eq!(parse_square("r l"), Ok(Point(6)));
        let err = |t: &str| parse_square(t).unwrap_err().to_string();
        assert_eq!(
            err("d1"),
            "d1 is off the board: columns are a to c and rows 1 to 3"
        );
        assert_eq!(
            err("a4"),
            "a4 is off the board: columns are a to c and rows 1 to 3"
        );
        assert!(err("a0").contains("off the board"));
        assert!(err("").starts_with("no square given"));
        for bad in ["1,1", "1 1", "LX", "LLL", "a10", "h8", "2b"] {
            let e = err(bad);
            assert!(
                e.contains("is not a square") || e.contains("off the board"),
                "{bad}: {e}"
            );
            assert!(!e.contains('\n'), "{e}");
        }
        assert!(err("1 1").starts_with("\"1 1\" is not a square: name it a1 to c3"));
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
