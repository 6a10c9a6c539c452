//! # inarow-core
//!
//! The games and rules of k-in-a-row: bitboards, win detection from the last
//! move, Zobrist hashing, the 8 symmetries of the square and text notation.
//!
//! Two games implement [`Game`]: [`TicTacToe`], on 9-bit boards for fast
//! full-tree search, and [`Mnk`], any m x n board with k in a row (gomoku is
//! [`Mnk::gomoku`]). [`swap2`] is the Swap2 opening of gomoku and the
//! [`swap2::Strategy`] of a player. This crate does no I/O.
//!
//! # Examples
//!
//! ```
//! use inarow_core::{Game, Outcome, Player, Point, TicTacToe};
//!
//! let mut game: TicTacToe = "XX.OO....".parse().unwrap();
//! assert_eq!(game.to_move(), Player::X);
//! game.play(Point(2)).unwrap();
//! assert_eq!(game.outcome(), Some(Outcome::Win(Player::X)));
//! ```
#![deny(missing_docs)]

pub mod bits;
mod game;
pub mod mnk;
pub mod notation;
mod player;
mod point;
pub mod swap2;
mod symmetry;
pub mod tally;
pub mod tictactoe;
pub mod zobrist;

pub use game::{Game, PlayError, count_stones};
pub use mnk::{Mnk, Rule};
pub use notation::ParseError;
pub use player::{Outcome, Player};
pub use point::Point;
pub use symmetry::Symmetry;
pub use tally::{GameResult, Tally};
pub use tictactoe::TicTacToe;
