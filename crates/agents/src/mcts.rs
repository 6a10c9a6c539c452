//! Monte Carlo tree search with the UCT rule and random playouts.

use inarow_core::{Game, Outcome, Player, Point};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::Agent;
use crate::random::random_move;

/// One node of the tree: the position after `mv`.
#[derive(Clone, Debug)]
struct Node {
    mv: Option<Point>,
    /// The player who made `mv`: results are counted for them.
    mover: Player,
    parent: usize,
    first_child: usize,
    children: u16,
    expanded: bool,
    visits: u32,
    /// Wins count 1, draws 1/2, for `mover`.
    reward: f64,
}

/// A UCT player: grows a search tree by random playouts, reproducibly from its seed.
#[derive(Clone, Debug)]
pub struct Mcts {
    iterations: u32,
    exploration: f64,
    rng: ChaCha8Rng,
    nodes: Vec<Node>,
}

impl Mcts {
    /// A player that runs `iterations` playouts per move.
    pub fn new(iterations: u32, seed: u64) -> Mcts {
        Mcts {
            iterations: iterations.max(1),
            exploration: std::f64::consts::SQRT_2,
            rng: ChaCha8Rng::seed_from_u64(seed),
            nodes: Vec::new(),
        }
    }

    /// Sets the UCT exploration constant (default sqrt 2).
    pub fn with_exploration(mut self, c: f64) -> Mcts {
        self.exploration = c;
        self
    }

    /// Runs the playouts from `game` and returns each root move with its
    /// visit count.
    pub fn search<G: Game>(&mut self, game: &G) -> Vec<(Point, u32)> {
        self.nodes.clear();
        self.nodes.push(Node {
            mv: None,
            mover: game.to_move().opponent(),
            parent: usize::MAX,
            first_child: 0,
            children: 0,
            expanded: false,
            visits: 0,
            reward: 0.0,
        });
        let mut scratch = game.clone();
        for _ in 0..self.iterations {
            self.iterate(game, &mut scratch);
        }
        let root = &self.nodes[0];
        (root.first_child..root.first_child + root.children as usize)
            .map(|i| {
                (
                    self.nodes[i].mv.expect("child has a move"),
                    self.nodes[i].visits,
                )
            })
            .collect()
    }

    fn iterate<G: Game>(&mut self, root: &G, game: &mut G) {
        game.clone_from(root);
        // Selection: walk down by UCT through expanded nodes.
        let mut node = 0;
        while self.nodes[node].expanded && self.nodes[node].children > 0 {
            node = self.select(node);
            let mv = self.nodes[node].mv.expect("child has a move");
            game.play_unchecked(mv);
        }
        // Expansion: add every child of a new node, then step into one.
        if !game.is_over() && !self.nodes[node].expanded {
            self.expand(node, game);
            if self.nodes[node].children > 0 {
                let pick = self.rng.random_range(0..self.nodes[node].children as usize);
                node = self.nodes[node].first_child + pick;
                game.play_unchecked(self.nodes[node].mv.expect("child has a move"));
            }
        }
        // Playout: random moves to the end.
        while let Some(m) = random_move(game, &mut self.rng) {
            game.play_unchecked(m);
        }
        let outcome = game.outcome().unwrap_or(Outcome::Draw);
        // Backpropagation.
        while node != usize::MAX {
            let n = &mut self.nodes[node];
            n.visits += 1;
            n.reward += match outcome {
                Outcome::Win(w) if w == n.mover => 1.0,
                Outcome::Win(_) => 0.0,
                Outcome::Draw => 0.5,
            };
            node = n.parent;
        }
    }

    fn expand<G: Game>(&mut self, node: usize, game: &G) {
        let first = self.nodes.len();
        let mover = game.to_move();
        for m in game.moves() {
            self.nodes.push(Node {
                mv: Some(m),
                mover,
                parent: node,
                first_child: 0,
                children: 0,
                expanded: false,
                visits: 0,
                reward: 0.0,
            });
        }
        let children = (self.nodes.len() - first) as u16;
        let n = &mut self.nodes[node];
        n.first_child = first;
        n.children = children;
        n.expanded = true;
    }

    fn select(&self, node: usize) -> usize {
        let parent = &self.nodes[node];
        let log_n = (parent.visits.max(1) as f64).ln();
        let children = parent.first_child..parent.first_child + parent.children as usize;
        let mut best = (children.start, f64::NEG_INFINITY);
        for i in children {
            let c = &self.nodes[i];
            let value = if c.visits == 0 {
                f64::INFINITY
            } else {
                c.reward / c.visits as f64 + self.exploration * (log_n / c.visits as f64).sqrt()
            };
            if value > best.1 {
                best = (i, value);
            }
        }
        best.0
    }
}

impl<G: Game> Agent<G> for Mcts {
    fn name(&self) -> String {
        format!("mcts({})", self.iterations)
    }

    fn choose(&mut self, game: &G) -> Option<Point> {
        // The most visited move is the most robust choice.
        self.search(game)
            .into_iter()
            .max_by_key(|&(m, visits)| (visits, std::cmp::Reverse(m)))
            .map(|(m, _)| m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use inarow_core::TicTacToe;

    #[test]
    fn finds_the_winning_move_and_the_block() {
        let win = TicTacToe::parse_with_turn("XX.OO....", Player::X).unwrap();
        assert_eq!(Mcts::new(2000, 1).choose(&win), Some(Point(2)));
        let block: TicTacToe = "XX.O.....".parse().unwrap();
        assert_eq!(Mcts::new(2000, 1).choose(&block), Some(Point(2)));
    }

    #[test]
    fn same_seed_same_choice() {
        let game = TicTacToe::new();
        let a: Vec<_> = Mcts::new(500, 9).search(&game);
        let b: Vec<_> = Mcts::new(500, 9).search(&game);
        assert_eq!(a, b);
        assert_eq!(a.iter().map(|&(_, v)| v).sum::<u32>(), 500);
    }
}
