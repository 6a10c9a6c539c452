//! The bot's side of the judge's protocol: read a prompt, answer it with a
//! [`Strategy`], so that every bot of the project, the house bot and the
//! engine alike, speaks the protocol the same way.

use std::fmt;
use std::io::{self, BufRead, Write};

use inarow_core::swap2::Strategy;
use inarow_core::{Game, Mnk, PlayError, Player, Rule};

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

/// Reads one line from the judge, for a freestyle game.
pub fn parse_prompt(line: &str) -> Result<Prompt, AnswerError> {
    parse_prompt_under(line, Rule::Freestyle)
}

/// Reads one line from the judge, for a game under `rule`. The protocol
/// does not say the rule: the bot is told it some other way (`inarow bot
/// --rule exact`, `--rule renju`), and a board with black's overline is a
/// game still going on under exact five and renju (the judge never shows
/// a board after black's stone on a forbidden point: that stone ended the
/// game).
pub fn parse_prompt_under(line: &str, rule: Rule) -> Result<Prompt, AnswerError> {
    let line = line.trim();
    let (kind, board) = line.split_once(' ').unwrap_or((line, ""));
    if kind == "EXIT" {
        return Ok(Prompt::Exit);
    }
    let game = position(board, rule)?;
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

/// The position a prompt's `BOARD` describes under `rule`, side to move by
/// the opening rule.
pub fn position(board: &str, rule: Rule) -> Result<Mnk, AnswerError> {
    let refused = |e: PlayError| AnswerError::Syntax {
        expected: "a board with each point once",
        answer: e.to_string(),
    };
    let empty = empty(rule);
    let mut cells = vec![None; empty.points()];
    for (point, colour) in parse_board(board)? {
        let cell = cells
            .get_mut(point.index())
            .ok_or(refused(PlayError::OffBoard(point)))?;
        if cell.is_some() {
            return Err(AnswerError::Board(format!(
                "the board holds point {} twice",
                format_point(point)
            )));
        }
        *cell = Some(colour);
    }
    // Lines are judged once every stone stands: under exact five a five
    // met on the way may be part of a six.
    let mut game = empty
        .setup(&cells, Player::X)
        .map_err(|e| AnswerError::Syntax {
            expected: "a board with each point once",
            answer: e.to_string(),
        })?;
    if game.outcome().is_some() {
        return Err(refused(PlayError::GameOver));
    }
    let turn = game.turn_by_count();
    game.set_to_move(turn);
    Ok(game)
}

/// The empty board of the judge's game under `rule`.
fn empty(rule: Rule) -> Mnk {
    match rule {
        Rule::Freestyle => Mnk::gomoku(),
        Rule::Exact => Mnk::gomoku_exact(),
        Rule::Renju => Mnk::renju(),
    }
}

/// Answers one judge line of a freestyle game with `strategy`.
pub fn reply<S: Strategy + ?Sized>(
    strategy: &mut S,
    line: &str,
) -> Result<Reply, ReplyError<S::Error>> {
    reply_under(strategy, line, Rule::Freestyle)
}

/// Answers one judge line of a game under `rule` with `strategy`: the
/// boards it is shown carry the rule.
pub fn reply_under<S: Strategy + ?Sized>(
    strategy: &mut S,
    line: &str,
    rule: Rule,
) -> Result<Reply, ReplyError<S::Error>> {
    let answer = match parse_prompt_under(line, rule).map_err(ReplyError::Prompt)? {
        Prompt::Exit => return Ok(Reply::Exit),
        Prompt::Open => strategy.open(&empty(rule)).map(format_opening),
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

/// Answers the judge's lines of a game under `rule` from `input` on
/// `output` (flushed after each answer) with `strategy`, until `EXIT` or
/// the end of input.
pub fn run<S: Strategy + ?Sized, R: BufRead, W: Write>(
    strategy: &mut S,
    rule: Rule,
    input: R,
    mut output: W,
) -> Result<(), SessionError<S::Error>> {
    for line in input.lines() {
        let line = line.map_err(SessionError::Read)?;
        match reply_under(strategy, &line, rule) {
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

    use inarow_core::Point;
    use inarow_core::swap2::Swap;

    use super::*;
    use crate::koth::{self, SIZE};

    /// A strategy with fixed answers, to check what `reply` writes.
    struct Fixed;

    fn xy(x: usize, y: usize) -> Point {
        Point::at(x, y, SIZE)
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
        run(&mut Fixed, Rule::Freestyle, input.as_bytes(), &mut out).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "(7,7) (8,8) (7,8)\n(0,14)\n"
        );
        let err = run(&mut Fixed, Rule::Freestyle, "Q []\n".as_bytes(), Vec::new()).unwrap_err();
        assert!(err.to_string().starts_with("cannot answer \"Q []\""));
    }

    #[test]
    fn an_exact_five_board_with_an_overline_is_a_game_going_on() {
        // Black has six in a row: a win in freestyle, nothing under exact five.
        let six: Vec<String> = (2..8)
            .map(|x| format!("(({x},7),\"B\")"))
            .chain((2..6).map(|x| format!("(({x},9),\"W\")")))
            .chain(["((0,0),\"W\")".into(), "((14,14),\"W\")".into()])
            .collect();
        let board = format!("[{}]", six.join(","));
        assert!(parse_prompt(&format!("13 {board}")).is_err());
        match parse_prompt_under(&format!("13 {board}"), Rule::Exact).unwrap() {
            Prompt::Move(13, game) => {
                assert_eq!(game.rule(), Rule::Exact);
                assert_eq!(game.outcome(), None);
            }
            other => panic!("{other:?}"),
        }
        struct Rules(Vec<Rule>);
        impl Strategy for Rules {
            type Error = Infallible;
            fn open(&mut self, game: &Mnk) -> Result<[Point; 3], Infallible> {
                self.0.push(game.rule());
                Ok([xy(7, 7), xy(8, 8), xy(7, 8)])
            }
            fn swap(&mut self, game: &Mnk) -> Result<Swap, Infallible> {
                self.0.push(game.rule());
                Ok(Swap::Black)
            }
            fn colour(&mut self, game: &Mnk) -> Result<Player, Infallible> {
                self.0.push(game.rule());
                Ok(Player::X)
            }
            fn play(&mut self, game: &Mnk) -> Result<Point, Infallible> {
                self.0.push(game.rule());
                Ok(xy(0, 14))
            }
        }
        let mut seen = Rules(Vec::new());
        let input = format!("A []\nB [((7,7),\"B\")]\n13 {board}\nEXIT TIE\n");
        run(&mut seen, Rule::Exact, input.as_bytes(), Vec::new()).unwrap();
        assert_eq!(seen.0, [Rule::Exact; 3]);
        // Renju's boards go the same way: black's six is no five there either.
        let mut seen = Rules(Vec::new());
        run(&mut seen, Rule::Renju, input.as_bytes(), Vec::new()).unwrap();
        assert_eq!(seen.0, [Rule::Renju; 3]);
    }
}
