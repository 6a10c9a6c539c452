//! Who sits at the board: MENACE itself, or any agent that does not learn.
//! A [`Session`](crate::Session) and [`train`](crate::train) play against a
//! [`Seat`].

use inarow_agents::Agent;
use inarow_core::{GameResult, TicTacToe};

use crate::machine::{Choice, Menace};

/// Someone who sits at the board: a learning machine or any agent.
pub trait Seat {
    /// The move for `game`, or `None` to resign.
    fn pick(&mut self, game: &TicTacToe) -> Option<inarow_core::Point>;

    /// Told how the game ended for this seat, once it has ended.
    fn finish(&mut self, result: GameResult);
}

impl Seat for Menace {
    #[inline]
    fn pick(&mut self, game: &TicTacToe) -> Option<inarow_core::Point> {
        match self.choose(game)? {
            Choice::Play(p) => Some(p),
            Choice::Resign => None,
        }
    }

    #[inline]
    fn finish(&mut self, result: GameResult) {
        self.learn(result);
    }
}

/// An agent that does not learn, seated at the board.
#[derive(Clone, Debug)]
pub struct AgentSeat<A>(pub A);

impl<A: Agent<TicTacToe>> Seat for AgentSeat<A> {
    #[inline]
    fn pick(&mut self, game: &TicTacToe) -> Option<inarow_core::Point> {
        self.0.choose(game)
    }

    #[inline]
    fn finish(&mut self, _result: GameResult) {}
}
