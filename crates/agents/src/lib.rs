#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

use inarow_core::{Game, Point};

pub mod classic;
pub mod house;
pub mod mcts;
pub mod minimax;
pub mod order;
pub mod perfect;
pub mod random;
pub mod score;
pub mod search;
pub mod tt;

pub use mcts::Mcts;
pub use perfect::Perfect;
pub use random::RandomAgent;
pub use score::Score;
pub use search::{Budget, Search, SearchResult};

/// Something that picks moves: a person at a keyboard, a search, a matchbox machine.
pub trait Agent<G: Game> {
    /// A short name for tables and logs.
    fn name(&self) -> String;

    /// Picks a move for the side to move, or `None` when there is no legal move.
    fn choose(&mut self, game: &G) -> Option<Point>;
}

impl<G: Game, A: Agent<G> + ?Sized> Agent<G> for Box<A> {
    fn name(&self) -> String {
        (**self).name()
    }

    fn choose(&mut self, game: &G) -> Option<Point> {
        (**self).choose(game)
    }
}
