//! The perfect player: searches every move to the end and plays one of the best.

use std::collections::HashMap;

use inarow_core::{Game, Point};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::score::Score;
use crate::search::{Options, Search};
use crate::{Agent, order::LinesThrough, search::DrawEval};

/// Plays perfectly by exhaustive search, choosing at random among the moves
/// of equal best value so that its games vary (reproducibly, from the seed).
///
/// Best means fastest win, then draw, then slowest loss. Only games small
/// enough to search to the end, such as tic-tac-toe, are practical.
#[derive(Debug)]
pub struct Perfect<G: Game> {
    search: Search<G>,
    rng: ChaCha8Rng,
    /// Move values already worked out, by position hash: a small game has
    /// few positions, and a player meets the same ones game after game.
    known: HashMap<u64, Vec<(Point, Score)>>,
}

/// Forget the known values past this many positions, to bound memory.
const KNOWN_LIMIT: usize = 1 << 16;

impl<G: Game> Perfect<G> {
    /// A perfect player whose choices among equals follow from `seed`.
    pub fn new(seed: u64) -> Perfect<G> {
        let options = Options {
            table_bits: 14,
            ..Options::default()
        };
        Perfect {
            search: Search::new(options, LinesThrough::default(), DrawEval),
            rng: ChaCha8Rng::seed_from_u64(seed),
            known: HashMap::new(),
        }
    }

    /// Every legal move with its exact value for the side to move.
    pub fn values(&mut self, game: &G) -> Vec<(Point, Score)> {
        if let Some(v) = self.known.get(&game.hash()) {
            return v.clone();
        }
        let key = game.hash();
        let mut game = game.clone();
        let mut values = Vec::new();
        for m in game.moves() {
            game.play_unchecked(m);
            // The child's value is one move further from the root.
            let v = -self.search.value(&game);
            let v = crate::score::plies_to_end(v)
                .map_or(v, |p| v.signum() * (crate::score::WIN - p as Score - 1));
            game.undo(m);
            values.push((m, v));
        }
        if self.known.len() >= KNOWN_LIMIT {
            self.known.clear();
        }
        self.known.insert(key, values.clone());
        values
    }

    /// The moves of best value, in row-major order.
    pub fn best_moves(&mut self, game: &G) -> Vec<Point> {
        let values = self.values(game);
        let best = values.iter().map(|&(_, v)| v).max();
        values
            .into_iter()
            .filter(|&(_, v)| Some(v) == best)
            .map(|(m, _)| m)
            .collect()
    }
}

impl<G: Game> Agent<G> for Perfect<G> {
    fn name(&self) -> String {
        "perfect".into()
    }

    fn choose(&mut self, game: &G) -> Option<Point> {
        let best = self.best_moves(game);
        (!best.is_empty()).then(|| best[self.rng.random_range(0..best.len())])
    }
}
