//! The bot's side of the protocol: read the judge's prompt, answer it.
//!
//! A bot supplies a [`Strategy`] (what to do at each kind of prompt) and
//! [`reply`] does the reading and writing, so every bot of the project, the
//! house bot and the engine alike, speaks the protocol the same way.

use inarow_core::{Mnk, Player};

use crate::protocol::{self, AnswerError, Swap, Xy, colour_letter};

/// What a bot decides at each kind of prompt.
pub trait Strategy {
    /// `A []`: two black stones, then one white.
    fn open(&mut self) -> [Xy; 3];
    /// `B BOARD`: play black, place a white stone and play white, or place
    /// one of each and let the opener choose.
    fn swap(&mut self, game: &Mnk) -> Swap;
    /// `C BOARD`: the colour the opener plays.
    fn colour(&mut self, game: &Mnk) -> Player;
    /// `N BOARD`: the next stone for the side to move.
    fn play(&mut self, game: &Mnk) -> Xy;
}

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
    for (xy, colour) in protocol::parse_board(board)? {
        game.place(xy.point(), colour)
            .map_err(|e| AnswerError::Syntax {
                expected: "a board with each point once",
                answer: e.to_string(),
            })?;
    }
    Ok(game)
}

/// Answers one judge line with `strategy`.
pub fn reply<S: Strategy + ?Sized>(strategy: &mut S, line: &str) -> Result<Reply, AnswerError> {
    let answer = match parse_prompt(line)? {
        Prompt::Exit => return Ok(Reply::Exit),
        Prompt::Open => {
            let [b1, b2, w] = strategy.open();
            format!("{b1} {b2} {w}")
        }
        Prompt::Swap(game) => match strategy.swap(&game) {
            Swap::Black => "B".to_string(),
            Swap::White(w) => format!("W {w}"),
            Swap::Choose(b, w) => format!("{b} {w}"),
        },
        Prompt::Colour(game) => colour_letter(strategy.colour(&game)).to_string(),
        Prompt::Move(_, game) => strategy.play(&game).to_string(),
    };
    Ok(Reply::Answer(answer))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A strategy with fixed answers, to check what `reply` writes.
    struct Fixed;

    impl Strategy for Fixed {
        fn open(&mut self) -> [Xy; 3] {
            [Xy { x: 7, y: 7 }, Xy { x: 8, y: 8 }, Xy { x: 7, y: 8 }]
        }
        fn swap(&mut self, _game: &Mnk) -> Swap {
            Swap::White(Xy { x: 1, y: 2 })
        }
        fn colour(&mut self, _game: &Mnk) -> Player {
            Player::O
        }
        fn play(&mut self, game: &Mnk) -> Xy {
            assert_eq!(game.turn_by_count(), Player::X);
            Xy { x: 0, y: 14 }
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
        assert!(protocol::parse_opening(&answer("A []")).is_ok());
        assert!(protocol::parse_swap(&answer(&format!("B {board}"))).is_ok());
    }

    #[test]
    fn bad_prompts_are_errors() {
        assert!(parse_prompt("Q []").is_err());
        assert!(parse_prompt("B [((7,7),\"B\"),((7,7),\"W\")]").is_err());
        assert!(parse_prompt("1 [((99,7),\"B\")]").is_err());
        assert_eq!(parse_prompt("EXIT somebody").unwrap(), Prompt::Exit);
    }
}
