//! Why a move from the page was refused.

use std::fmt;

use inarow_core::PlayError;
use inarow_menace::Refused;

/// Why a move from the page was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// No game is being played (finished, or never started).
    NoGame,
    /// MENACE is training: the board belongs to the trainer.
    Training,
    /// The square is not 0 to 8.
    OffBoard(u64),
    /// The square already holds a stone.
    Taken(u8),
}

impl From<Refused> for MoveError {
    fn from(refused: Refused) -> MoveError {
        match refused {
            Refused::Illegal(PlayError::Occupied(p)) => MoveError::Taken(p.0 as u8),
            Refused::Illegal(PlayError::OffBoard(p)) => MoveError::OffBoard(p.0.into()),
            // MENACE answers every move at once, so a game waiting for the
            // page is never MENACE's turn.
            Refused::Illegal(PlayError::GameOver) | Refused::NotYourTurn => MoveError::NoGame,
        }
    }
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::NoGame => write!(f, "no game in progress: start a new game first"),
            MoveError::Training => write!(f, "MENACE is training: stop training to play"),
            MoveError::OffBoard(s) => write!(f, "square {s} is off the board: use 0 to 8"),
            MoveError::Taken(s) => write!(f, "square {s} is already taken: choose an empty square"),
        }
    }
}
