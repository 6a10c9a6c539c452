#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

pub mod bits;
mod bound;
mod game;
pub mod mnk;
pub mod notation;
mod player;
mod point;
pub mod renju;
pub mod stones;
pub mod swap2;
mod symmetry;
pub mod tally;
pub mod tictactoe;
pub mod zobrist;

pub use bound::Bound;
pub use game::{Game, PlayError, count_stones};
pub use mnk::{Mnk, Rule, UnknownRule};
pub use notation::ParseError;
pub use player::{Outcome, Player};
pub use point::{Point, Xy};
pub use symmetry::Symmetry;
pub use tally::{GameResult, Tally};
pub use tictactoe::TicTacToe;
