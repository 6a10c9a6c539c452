//! The bot's side of the judge's protocol: read a prompt, answer it with a
//! [`Strategy`], so that every bot of the project, the house bot and the
//! engine alike, speaks the protocol the same way.

use std::fmt;
use std::io::{self, BufRead, Write};

use inarow_core::Mnk;
use inarow_core::swap2::Strategy;

use super::{AnswerError, format_colour, format_opening, format_point, format_swap, parse_board};

/// A judge prompt as a bot reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Prompt {
    /// `A []`.
    Open,
    /// `B BOARD`.
    Swap(Mnk),
    /// `C BOARD`.
    Colour(Mnk),
    /// `N BOARD`, with the move number.
    Move(u32, Mnk),
    /// `EXIT NAME` or `EXIT TIE`: the game is over.
    Exit,
}

/// What a bot makes of one judge line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// The answer line to send.
    Answer(String),
    /// The game is over (`EXIT ...`): stop.
    Exit,
}

/// Why a bot could not answer a line.
#[derive(Debug)]
pub enum ReplyError<E> {
    /// The line is not a prompt of the protocol.
    Prompt(AnswerError),
    /// The strategy could not answer the position.
    Strategy(E),
}

impl<E: fmt::Display> fmt::Display for ReplyError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplyError::Prompt(e) => write!(f, "{e}"),
            ReplyError::Strategy(e) => write!(f, "{e}"),
        }
    }
}

impl<E: fmt::Debug + fmt::Display> std::error::Error for ReplyError<E> {}

/// Reads one line from the judge.
pub fn parse_prompt(line: &str) -> Result<Prompt, AnswerError> {
    let line = line.trim();
    let (kind, board) = line.split_once(' ').unwrap_or((line, ""));
    if kind == "EXIT" {
        return Ok(Prompt::Exit);
    }
    let game = position(board)?;
    match kind {
        "A" => Ok(Prompt::Open),
        "B" => Ok(Prompt::Swap(game)),
        "C" => Ok(Prompt::Colour(game)),
        _ => match kind.parse::<u32>() {
            Ok(n) => Ok(Prompt::Move(n, game)),
            Err(_) => Err(AnswerError::Syntax {
                expected: "a prompt A, B, C, a move number or EXIT",
                answer: line.chars().take(60).collect(),
            }),
        },
    }
}

/// The position a prompt's `BOARD` describes, side to move by the opening rule.
pub fn position(board: &str) -> Result<Mnk, AnswerError> {
    let mut game = Mnk::gomoku();
    for (point, colour) in parse_board(board)? {
        game.place(point, colour).map_err(|e| AnswerError::Syntax {
            expected: "a board with each point once",
            answer: e.to_string(),
        })?;
    }
    Ok(game)
}

/// Answers one judge line with `strategy`.
pub fn reply<S: Strategy + ?Sized>(
    strategy: &mut S,
    line: &str,
) -> Result<Reply, ReplyError<S::Error>> {
    let answer = match parse_prompt(line).map_err(ReplyError::Prompt)? {
        Prompt::Exit => return Ok(Reply::Exit),
        Prompt::Open => strategy.open(&Mnk::gomoku()).map(format_opening),
        Prompt::Swap(game) => strategy.swap(&game).map(format_swap),
        Prompt::Colour(game) => strategy.colour(&game).map(format_colour),
        Prompt::Move(_, game) => strategy.play(&game).map(format_point),
    };
    answer.map(Reply::Answer).map_err(ReplyError::Strategy)
}

/// Why a bot's session with the judge ended early.
#[derive(Debug)]
pub enum SessionError<E> {
    /// The judge's line could not be read.
    Read(io::Error),
    /// A line could not be answered.
    Answer {
        /// The line.
        line: String,
        /// Why.
        error: ReplyError<E>,
    },
    /// The answer could not be written.
    Write(io::Error),
}

impl<E: fmt::Display> fmt::Display for SessionError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SessionError::Read(e) => write!(f, "cannot read the judge's line: {e}"),
            SessionError::Answer { line, error } => write!(f, "cannot answer {line:?}: {error}"),
            SessionError::Write(e) => write!(f, "{e}"),
        }
    }
}

impl<E: fmt::Debug + fmt::Display> std::error::Error for SessionError<E> {}

/// Answers the judge's lines from `input` on `output` (flushed after each
/// answer) with `strategy`, until `EXIT` or the end of input.
pub fn run<S: Strategy + ?Sized, R: BufRead, W: Write>(
    strategy: &mut S,
    input: R,
    mut output: W,
) -> Result<(), SessionError<S::Error>> {
    for line in input.lines() {
        let line = line.map_err(SessionError::Read)?;
        match reply(strategy, &line) {
            Ok(Reply::Answer(answer)) => writeln!(output, "{answer}")
                .and_then(|()| output.flush())
                .map_err(SessionError::Write)?,
            Ok(Reply::Exit) => break,
            Err(error) => return Err(SessionError::Answer { line, error }),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::convert::Infallible;

    use inarow_core::swap2::Swap;
    use inarow_core::{Player, Point};

    use super::*;
    use crate::koth::{self, SIZE};

    /// A strategy with fixed answers, to check what `reply` writes.
    struct Fixed;

    fn xy(x: usize, y: usize) -> Point {
        Point::at(y, x, SIZE)
    }

    impl Strategy for Fixed {
        type Error = Infallible;
        fn open(&mut self, _game: &Mnk) -> Result<[Point; 3], Infallible> {
            Ok([xy(7, 7), xy(8, 8), xy(7, 8)])
        }
        fn swap(&mut self, _game: &Mnk) -> Result<Swap, Infallible> {
            Ok(Swap::White(xy(1, 2)))
        }
        fn colour(&mut self, _game: &Mnk) -> Result<Player, Infallible> {
            Ok(Player::O)
        }
        fn play(&mut self, game: &Mnk) -> Result<Point, Infallible> {
            assert_eq!(game.turn_by_count(), Player::X);
            Ok(xy(0, 14))
        }
    }

    #[test]
    fn every_prompt_gets_its_answer() {
        let board = r#"[((7,7),"B"),((7,8),"W"),((8,8),"B")]"#;
        let answer = |line: &str| match reply(&mut Fixed, line).unwrap() {
            Reply::Answer(a) => a,
            Reply::Exit => "exit".into(),
        };
        assert_eq!(answer("A []"), "(7,7) (8,8) (7,8)");
        assert_eq!(answer(&format!("B {board}")), "W (1,2)");
        assert_eq!(answer(&format!("C {board}")), "W");
        let four = r#"[((7,7),"B"),((7,8),"W")]"#;
        assert_eq!(answer(&format!("3 {four}")), "(0,14)");
        assert_eq!(answer("EXIT TIE"), "exit");
        // What reply writes, the judge reads back.
        assert!(koth::parse_opening(&answer("A []")).is_ok());
        assert!(koth::parse_swap(&answer(&format!("B {board}"))).is_ok());
    }

    #[test]
    fn bad_prompts_are_errors() {
        assert!(parse_prompt("Q []").is_err());
        assert!(parse_prompt("B [((7,7),\"B\"),((7,7),\"W\")]").is_err());
        assert!(parse_prompt("1 [((99,7),\"B\")]").is_err());
        assert_eq!(parse_prompt("EXIT somebody").unwrap(), Prompt::Exit);
    }

    #[test]
    fn a_session_answers_until_exit() {
        let input = "A []\n1 []\nEXIT TIE\nA []\n";
        let mut out = Vec::new();
        run(&mut Fixed, input.as_bytes(), &mut out).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "(7,7) (8,8) (7,8)\n(0,14)\n"
        );
        let err = run(&mut Fixed, "Q []\n".as_bytes(), Vec::new()).unwrap_err();
        assert!(err.to_string().starts_with("cannot answer \"Q []\""));
    }
}
