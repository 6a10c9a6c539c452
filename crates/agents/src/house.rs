//! The project's own simple gomoku bot: it wins when it can, blocks a
//! four, and otherwise plays next to the stones, all from its seed; under
//! renju, never on a point forbidden to it as black. A Swap2
//! player like any other: `inarow bot --house` runs it as a process, and
//! `inarow judge -d` plays it in-process as the opponent.

use std::convert::Infallible;

use inarow_core::swap2::{Strategy, Swap};
use inarow_core::{Game, Mnk, Player, Point};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The house bot.
#[derive(Clone, Debug)]
pub struct HouseBot {
    rng: ChaCha8Rng,
}

impl HouseBot {
    /// A house bot whose choices follow from `seed`.
    pub fn new(seed: u64) -> HouseBot {
        HouseBot {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    /// `N` distinct points within two of the centre of the 15 x 15 board
    /// `cols` wide.
    fn distinct_near_centre<const N: usize>(&mut self, cols: usize) -> [Point; N] {
        let mut out: Vec<Point> = Vec::with_capacity(N);
        while out.len() < N {
            let x = self.rng.random_range(5..10);
            let y = self.rng.random_range(5..10);
            let p = Point::at(x, y, cols);
            if !out.contains(&p) {
                out.push(p);
            }
        }
        out.try_into().expect("N points")
    }

    /// The move for the side to move: win, else block, else next to the stones.
    pub fn choose(&mut self, game: &Mnk) -> Point {
        let me = game.to_move();
        for player in [me, me.opponent()] {
            if let Some(p) = playable(game).find(|&p| game.wins_at(p, player)) {
                return p;
            }
        }
        self.near_stones(game)
    }

    /// A random empty point next to a stone (the centre on an empty board).
    fn near_stones(&mut self, game: &Mnk) -> Point {
        let (rows, cols) = (game.rows(), game.cols());
        let touching: Vec<Point> = playable(game)
            .filter(|&p| {
                let (r, c) = (p.row(cols) as isize, p.col(cols) as isize);
                (-1..=1).any(|dr| {
                    (-1..=1).any(|dc| {
                        let (r, c) = (r + dr, c + dc);
                        (0..rows as isize).contains(&r)
                            && (0..cols as isize).contains(&c)
                            && game
                                .stone(Point::at(c as usize, r as usize, cols))
                                .is_some()
                    })
                })
            })
            .collect();
        let pool: Vec<Point> = if touching.is_empty() {
            playable(game).collect()
        } else {
            touching
        };
        if pool.is_empty() {
            return Point::at(7, 7, cols);
        }
        pool[self.rng.random_range(0..pool.len())]
    }
}

/// The legal moves the side to move may make without losing by the rule:
/// renju's black leaves its forbidden points alone.
fn playable(game: &Mnk) -> impl Iterator<Item = Point> + '_ {
    let black = game.to_move() == Player::X;
    game.moves()
        .filter(move |&p| !black || game.forbidden(p).is_none())
}

impl Strategy for HouseBot {
    type Error = Infallible;

    fn open(&mut self, game: &Mnk) -> Result<[Point; 3], Infallible> {
        Ok(self.distinct_near_centre::<3>(game.cols()))
    }

    fn swap(&mut self, game: &Mnk) -> Result<Swap, Infallible> {
        Ok(match self.rng.random_range(0..3) {
            0 => Swap::Black,
            1 => Swap::White(self.near_stones(game)),
            _ => {
                let black = self.near_stones(game);
                let mut after = game.clone();
                after.place(black, Player::X).expect("an empty point");
                let white = self.near_stones(&after);
                Swap::Place { black, white }
            }
        })
    }

    fn colour(&mut self, _game: &Mnk) -> Result<Player, Infallible> {
        Ok(if self.rng.random::<bool>() {
            Player::X
        } else {
            Player::O
        })
    }

    fn play(&mut self, game: &Mnk) -> Result<Point, Infallible> {
        Ok(self.choose(game))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn xy(x: usize, y: usize) -> Point {
        Point::at(x, y, 15)
    }

    fn board(black: &[(usize, usize)], white: &[(usize, usize)]) -> Mnk {
        let mut game = Mnk::gomoku();
        for &(x, y) in black {
            game.place(xy(x, y), Player::X).unwrap();
        }
        for &(x, y) in white {
            game.place(xy(x, y), Player::O).unwrap();
        }
        game
    }

    #[test]
    fn under_renju_black_never_plays_a_forbidden_point() {
        // Black's double three at (7,7), touching black's stones; white's
        // four on row 0 completes at (4,0), far from it.
        let black = [(7, 5), (7, 6), (5, 7), (6, 7)];
        let white = [(0, 0), (1, 0), (2, 0), (3, 0)];
        let mut renju = Mnk::renju();
        for (&b, &w) in black.iter().zip(&white) {
            renju.place(xy(b.0, b.1), Player::X).unwrap();
            renju.place(xy(w.0, w.1), Player::O).unwrap();
        }
        assert!(renju.forbidden(xy(7, 7)).is_some());
        // Black must block at (4,0), and does.
        assert_eq!(HouseBot::new(3).choose(&renju), xy(4, 0));
        // With the four blocked, no seed picks the forbidden point.
        renju.place(xy(4, 0), Player::X).unwrap();
        renju.place(xy(14, 14), Player::O).unwrap();
        let mut picked = std::collections::HashSet::new();
        for seed in 0..300 {
            let p = HouseBot::new(seed).choose(&renju);
            assert_ne!(p, xy(7, 7), "seed {seed}");
            picked.insert(p);
        }
        // The same stones in freestyle: the point is a move like others.
        let cells: Vec<_> = (0..225).map(|i| renju.stone(Point(i))).collect();
        let free = Mnk::gomoku().setup(&cells, Player::X).unwrap();
        assert!((0..300).any(|seed| HouseBot::new(seed).choose(&free) == xy(7, 7)));
        assert!(picked.len() > 10);
    }

    #[test]
    fn it_wins_when_it_can_and_blocks_a_four() {
        let mut bot = HouseBot::new(1);
        let four = [(0, 0), (0, 1), (0, 2), (0, 3)];
        // Black to move (4 v 4): black has four in column 0.
        let game = board(&four, &[(5, 5), (6, 6), (7, 7), (9, 9)]);
        assert_eq!(bot.play(&game).unwrap(), xy(0, 4));
        // White to move facing black's open four must block it.
        let game = board(&four, &[(5, 5), (6, 6), (12, 12)]);
        assert_eq!(bot.play(&game).unwrap(), xy(0, 4));
    }

    #[test]
    fn every_opening_answer_is_legal() {
        let mut bot = HouseBot::new(9);
        for _ in 0..20 {
            let [b1, b2, w] = bot.open(&Mnk::gomoku()).unwrap();
            assert!(b1 != b2 && b1 != w && b2 != w);
            let mut game = Mnk::gomoku();
            for (p, colour) in [(b1, Player::X), (b2, Player::X), (w, Player::O)] {
                game.place(p, colour).unwrap();
            }
            match bot.swap(&game).unwrap() {
                Swap::Black => {}
                Swap::White(w) => assert!(game.stone(w).is_none()),
                Swap::Place { black, white } => {
                    assert!(black != white);
                    assert!(game.stone(black).is_none() && game.stone(white).is_none());
                }
            }
        }
    }
}
