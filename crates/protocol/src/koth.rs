//! The king-of-the-hill judge's line protocol, both sides: the prompts
//! the judge writes and the answers it reads ([`bot`] is the bot's loop).
//!
//! Coordinates: the spec's `(X,Y)` is `X` = column, `Y` = row, both from 0
//! at the top-left corner. A [`Point`] of the game core is row-major, so
//! `(X,Y)` is `Point::at(X, Y, 15)`. SGF records use the same mapping
//! (first letter = column = X).

use std::fmt;

use inarow_core::swap2::{Phase, Step, Swap, Swap2};
use inarow_core::{Game, Mnk, Player, Point};

pub mod bot;

/// Side length of the gomoku board.
pub const SIZE: usize = 15;

/// A point as the protocol writes it: `(X,Y)`, column then row.
pub fn format_point(point: Point) -> String {
    let (x, y) = point.xy(SIZE);
    format!("({x},{y})")
}

/// The protocol's letter for a colour: `B` for black (`Player::X`), `W` for white.
pub fn colour_letter(colour: Player) -> char {
    match colour {
        Player::X => 'B',
        Player::O => 'W',
    }
}

/// `BOARD`: every stone as `((X,Y),"B")`, sorted by X then Y, no spaces.
pub fn format_board(game: &Mnk) -> String {
    let mut out = String::with_capacity(2 + game.stones() * 16);
    out.push('[');
    let mut first = true;
    for x in 0..SIZE {
        for y in 0..SIZE {
            let point = Point::at(x, y, SIZE);
            if let Some(colour) = game.stone(point) {
                if !first {
                    out.push(',');
                }
                first = false;
                use fmt::Write;
                let _ = write!(out, "(({x},{y}),\"{}\")", colour_letter(colour));
            }
        }
    }
    out.push(']');
    out
}

/// The opening prompt to bot A.
pub const PROMPT_OPEN: &str = "A []";

/// The prompt asking bot B to answer the opening.
pub fn prompt_swap(game: &Mnk) -> String {
    format!("B {}", format_board(game))
}

/// The prompt asking bot A to choose its colour.
pub fn prompt_colour(game: &Mnk) -> String {
    format!("C {}", format_board(game))
}

/// The prompt for move `number` of the game phase (the first is 1).
pub fn prompt_move(number: usize, game: &Mnk) -> String {
    format!("{number} {}", format_board(game))
}

/// The closing line: `EXIT NAME` for a win, `EXIT TIE` otherwise.
pub fn exit_line(winner: Option<&str>) -> String {
    format!("EXIT {}", winner.unwrap_or("TIE"))
}

/// Why an answer could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnswerError {
    /// The text does not have the expected shape.
    Syntax {
        /// What the prompt asked for.
        expected: &'static str,
        /// The answer, shortened.
        answer: String,
    },
    /// A coordinate outside 0..=14.
    OffBoard {
        /// The column as written (saturated).
        x: i64,
        /// The row as written (saturated).
        y: i64,
    },
    /// A board that reads but cannot stand, such as one point given twice:
    /// the whole message.
    Board(String),
}

impl fmt::Display for AnswerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnswerError::Syntax { expected, answer } => {
                write!(f, "cannot read {expected} from {answer:?}")
            }
            AnswerError::OffBoard { x, y } => write!(f, "({x},{y}) is off the board"),
            AnswerError::Board(message) => write!(f, "{message}"),
        }
    }
}

impl std::error::Error for AnswerError {}

/// Longest answer quoted back in an error.
const QUOTE: usize = 60;

fn syntax(expected: &'static str, answer: &str) -> AnswerError {
    let mut quoted: String = answer.chars().take(QUOTE).collect();
    if answer.chars().nth(QUOTE).is_some() {
        quoted.push_str("...");
    }
    AnswerError::Syntax {
        expected,
        answer: quoted,
    }
}

/// The answer with all whitespace removed, as the spec requires.
fn squeeze(answer: &str) -> String {
    answer.chars().filter(|c| !c.is_whitespace()).collect()
}

/// Reads `(X,Y)` points back to back. Signs and any number of digits are
/// read so that `(-1,3)` or `(15,0)` count as off the board, not as garbage.
fn points(text: &str, expected: &'static str, original: &str) -> Result<Vec<Point>, AnswerError> {
    let bytes = text.as_bytes();
    let mut i = 0;
    let mut out = Vec::new();
    let number = |i: &mut usize| -> Option<i64> {
        let negative = bytes.get(*i) == Some(&b'-');
        if negative {
            *i += 1;
        }
        let start = *i;
        let mut value: i64 = 0;
        while let Some(d) = bytes.get(*i).filter(|b| b.is_ascii_digit()) {
            value = value.saturating_mul(10).saturating_add((d - b'0') as i64);
            *i += 1;
        }
        (*i > start).then_some(if negative { -value } else { value })
    };
    while i < bytes.len() {
        let expect = |i: &mut usize, b: u8| {
            if bytes.get(*i) == Some(&b) {
                *i += 1;
                Ok(())
            } else {
                Err(syntax(expected, original))
            }
        };
        expect(&mut i, b'(')?;
        let x = number(&mut i).ok_or_else(|| syntax(expected, original))?;
        expect(&mut i, b',')?;
        let y = number(&mut i).ok_or_else(|| syntax(expected, original))?;
        expect(&mut i, b')')?;
        out.push((x, y));
    }
    out.into_iter()
        .map(|(x, y)| {
            if (0..SIZE as i64).contains(&x) && (0..SIZE as i64).contains(&y) {
                Ok(Point::at(x as usize, y as usize, SIZE))
            } else {
                Err(AnswerError::OffBoard { x, y })
            }
        })
        .collect()
}

fn exactly<const N: usize>(
    answer: &str,
    expected: &'static str,
) -> Result<[Point; N], AnswerError> {
    let text = squeeze(answer);
    let count = count_points(&text);
    if count != Some(N) {
        return Err(syntax(expected, answer));
    }
    let found = points(&text, expected, answer)?;
    found.try_into().map_err(|_| syntax(expected, answer))
}

/// How many well-formed `(a,b)` groups the text holds, `None` if it is not such a list.
fn count_points(text: &str) -> Option<usize> {
    let mut count = 0;
    let mut rest = text;
    while !rest.is_empty() {
        let inner = rest.strip_prefix('(')?;
        let close = inner.find(')')?;
        let (a, b) = inner[..close].split_once(',')?;
        let numeric = |s: &str| {
            let digits = s.strip_prefix('-').unwrap_or(s);
            !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
        };
        if !numeric(a) || !numeric(b) {
            return None;
        }
        count += 1;
        rest = &inner[close + 1..];
    }
    Some(count)
}

/// Reads A's opening: two black stones, then one white.
pub fn parse_opening(answer: &str) -> Result<[Point; 3], AnswerError> {
    exactly::<3>(answer, "three points (X,Y)(X,Y)(X,Y)")
}

/// Reads B's answer to the opening: `B`, `W XY` or `XY XY`. Letters may be
/// lower case.
pub fn parse_swap(answer: &str) -> Result<Swap, AnswerError> {
    const EXPECTED: &str = "B, W (X,Y) or (X,Y)(X,Y)";
    let text = squeeze(answer);
    match text.as_bytes().first() {
        Some(b'B' | b'b') if text.len() == 1 => Ok(Swap::Black),
        Some(b'W' | b'w') => {
            let [p] = exactly::<1>(&text[1..], EXPECTED).map_err(|e| match e {
                AnswerError::Syntax { .. } => syntax(EXPECTED, answer),
                other => other,
            })?;
            Ok(Swap::White(p))
        }
        _ => {
            let [black, white] = exactly::<2>(answer, EXPECTED)?;
            Ok(Swap::Place { black, white })
        }
    }
}

/// Reads A's colour choice: `B` or `W` (either case).
pub fn parse_colour(answer: &str) -> Result<Player, AnswerError> {
    match squeeze(answer).as_str() {
        "B" | "b" => Ok(Player::X),
        "W" | "w" => Ok(Player::O),
        _ => Err(syntax("a colour B or W", answer)),
    }
}

/// Reads a move of the game phase: one point.
pub fn parse_move(answer: &str) -> Result<Point, AnswerError> {
    exactly::<1>(answer, "one point (X,Y)").map(|[p]| p)
}

/// Reads a `BOARD` as the judge writes it, stones in the order written.
pub fn parse_board(text: &str) -> Result<Vec<(Point, Player)>, AnswerError> {
    const EXPECTED: &str = "a board [((X,Y),\"B\"),...]";
    let text = squeeze(text);
    let inner = text
        .strip_prefix('[')
        .and_then(|t| t.strip_suffix(']'))
        .ok_or_else(|| syntax(EXPECTED, &text))?;
    let mut stones = Vec::new();
    let mut rest = inner;
    while !rest.is_empty() {
        rest = rest.strip_prefix(',').unwrap_or(rest);
        let body = rest
            .strip_prefix('(')
            .ok_or_else(|| syntax(EXPECTED, &text))?;
        let close = body.find(')').ok_or_else(|| syntax(EXPECTED, &text))?;
        let [xy] = exactly::<1>(&body[..=close], EXPECTED)?;
        let tail = &body[close + 1..];
        let colour = match tail.get(..5) {
            Some(",\"B\")") => Player::X,
            Some(",\"W\")") => Player::O,
            _ => return Err(syntax(EXPECTED, &text)),
        };
        stones.push((xy, colour));
        rest = &tail[5..];
    }
    Ok(stones)
}

/// The prompt for whoever acts next in `game`; `None` once it is over.
pub fn prompt(game: &Swap2) -> Option<String> {
    let board = game.game();
    Some(match game.phase() {
        Phase::Open => PROMPT_OPEN.to_string(),
        Phase::Answer => prompt_swap(board),
        Phase::Colour => prompt_colour(board),
        Phase::Play => prompt_move(game.moves() + 1, board),
        Phase::Over => return None,
    })
}

/// Reads the answer to the prompt of `phase` as the step it names.
pub fn parse_step(phase: Phase, answer: &str) -> Result<Step, AnswerError> {
    match phase {
        Phase::Open => parse_opening(answer).map(Step::Open),
        Phase::Answer => parse_swap(answer).map(Step::Answer),
        Phase::Colour => parse_colour(answer).map(Step::Colour),
        Phase::Play | Phase::Over => parse_move(answer).map(Step::Play),
    }
}

/// The answer to `A []`: two black stones, then one white.
pub fn format_opening(stones: [Point; 3]) -> String {
    let [b1, b2, w] = stones.map(format_point);
    format!("{b1} {b2} {w}")
}

/// The answer to `B BOARD`: `B`, `W (X,Y)` or `(X,Y) (X,Y)`.
pub fn format_swap(swap: Swap) -> String {
    match swap {
        Swap::Black => "B".to_string(),
        Swap::White(w) => format!("W {}", format_point(w)),
        Swap::Place { black, white } => {
            format!("{} {}", format_point(black), format_point(white))
        }
    }
}

/// The answer to `C BOARD`: the opener's colour letter.
pub fn format_colour(colour: Player) -> String {
    colour_letter(colour).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn xy(x: usize, y: usize) -> Point {
        Point::at(x, y, SIZE)
    }

    #[test]
    fn board_is_sorted_by_x_then_y_without_spaces() {
        let mut game = Mnk::gomoku();
        game.place(xy(14, 14), Player::X).unwrap();
        game.place(xy(0, 1), Player::O).unwrap();
        game.place(xy(0, 0), Player::X).unwrap();
        game.place(xy(1, 0), Player::O).unwrap();
        assert_eq!(
            format_board(&game),
            r#"[((0,0),"B"),((0,1),"W"),((1,0),"W"),((14,14),"B")]"#
        );
        assert_eq!(format_board(&Mnk::gomoku()), "[]");
        assert_eq!(prompt_move(1, &Mnk::gomoku()), "1 []");
    }

    #[test]
    fn x_is_the_column_and_y_the_row() {
        let p = xy(3, 5);
        assert_eq!((p.row(SIZE), p.col(SIZE)), (5, 3));
        assert_eq!(format_point(p), "(3,5)");
    }

    #[test]
    fn whitespace_anywhere_is_ignored() {
        assert_eq!(parse_move("(0 , 0)\r").unwrap(), xy(0, 0));
        assert_eq!(
            parse_opening(" (1,2) (3,4)\t(5, 6) ").unwrap(),
            [xy(1, 2), xy(3, 4), xy(5, 6)]
        );
        assert_eq!(parse_swap("W (7, 8)").unwrap(), Swap::White(xy(7, 8)));
        assert_eq!(parse_swap(" b ").unwrap(), Swap::Black);
        assert_eq!(
            parse_swap("(0,0) (0,12)").unwrap(),
            Swap::Place {
                black: xy(0, 0),
                white: xy(0, 12)
            }
        );
        assert_eq!(parse_colour(" W\n").unwrap(), Player::O);
    }

    #[test]
    fn garbage_is_a_syntax_error_and_far_points_are_off_the_board() {
        for bad in [
            "",
            "(1,2",
            "1,2",
            "(a,b)",
            "(1,2)(3,4)",
            "((1,2))",
            "(1,2,3)",
            "(,)",
        ] {
            assert!(
                matches!(parse_move(bad), Err(AnswerError::Syntax { .. })),
                "{bad:?}"
            );
        }
        assert_eq!(
            parse_move("(15,0)"),
            Err(AnswerError::OffBoard { x: 15, y: 0 })
        );
        assert_eq!(
            parse_move("(-1,3)"),
            Err(AnswerError::OffBoard { x: -1, y: 3 })
        );
        assert!(matches!(
            parse_move("(99999999999999999999999,1)"),
            Err(AnswerError::OffBoard { .. })
        ));
        for bad in ["BW", "W", "W(1,1)(2,2)", "(1,1)", "X", "B(1,1)"] {
            assert!(
                matches!(parse_swap(bad), Err(AnswerError::Syntax { .. })),
                "{bad:?}"
            );
        }
        assert!(parse_colour("black").is_err());
        assert!(parse_opening("(1,1)(2,2)").is_err());
    }

    #[test]
    fn boards_read_back() {
        let mut game = Mnk::gomoku();
        game.place(xy(2, 9), Player::X).unwrap();
        game.place(xy(10, 1), Player::O).unwrap();
        let text = format_board(&game);
        assert_eq!(
            parse_board(&text).unwrap(),
            vec![(xy(2, 9), Player::X), (xy(10, 1), Player::O)]
        );
        assert_eq!(parse_board("[]").unwrap(), vec![]);
        assert!(parse_board("[((1,1),\"X\")]").is_err());
        assert!(parse_board("[((1,1),\"B\")").is_err());
    }

    proptest::proptest! {
        #[test]
        fn parsers_never_panic(s in "\\PC{0,40}") {
            let _ = parse_opening(&s);
            let _ = parse_swap(&s);
            let _ = parse_colour(&s);
            let _ = parse_move(&s);
            let _ = parse_board(&s);
        }

        #[test]
        fn written_points_read_back(x in 0usize..15, y in 0usize..15, pad in " {0,3}") {
            let text = format!("{pad}({x}{pad},{pad}{y}){pad}");
            proptest::prop_assert_eq!(parse_move(&text).unwrap(), xy(x, y));
        }
    }
}
