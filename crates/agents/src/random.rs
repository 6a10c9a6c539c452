//! The seeded random player.

use inarow_core::{Game, Point};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::Agent;

/// Plays a uniformly random legal move, reproducibly from its seed.
#[derive(Clone, Debug)]
pub struct RandomAgent {
    rng: ChaCha8Rng,
}

impl RandomAgent {
    /// A random player whose choices follow from `seed`.
    pub fn new(seed: u64) -> RandomAgent {
        RandomAgent {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

/// A uniformly random legal move, drawn without allocating.
pub fn random_move<G: Game, R: Rng + ?Sized>(game: &G, rng: &mut R) -> Option<Point> {
    let n = game.moves().count();
    if n == 0 {
        return None;
    }
    game.moves().nth(rng.random_range(0..n))
}

impl<G: Game> Agent<G> for RandomAgent {
    fn name(&self) -> String {
        "random".into()
    }

    fn choose(&mut self, game: &G) -> Option<Point> {
        random_move(game, &mut self.rng)
    }
}
