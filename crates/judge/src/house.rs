//! The project's own simple bot: it speaks the protocol, wins when it can,
//! blocks a four, and otherwise plays next to the stones, all from its seed.
//! `inarow bot` runs it as a process; `inarow judge -d` uses it in-process as
//! the opponent.

use inarow_core::{Game, Mnk, Player, Point};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

pub use crate::answer::Reply;
use crate::answer::{self, Strategy};
use crate::protocol::{AnswerError, SIZE, Swap, Xy};
use crate::referee::{Contestant, Fault};

/// The house bot.
#[derive(Clone, Debug)]
pub struct HouseBot {
    name: String,
    rng: ChaCha8Rng,
}

impl HouseBot {
    /// A house bot named `name` whose choices follow from `seed`.
    pub fn new(name: &str, seed: u64) -> HouseBot {
        HouseBot {
            name: name.to_string(),
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    /// Answers one prompt of the judge.
    pub fn reply(&mut self, prompt: &str) -> Result<Reply, AnswerError> {
        answer::reply(self, prompt)
    }

    fn distinct_near_centre<const N: usize>(&mut self) -> [Xy; N] {
        let mut out: Vec<Xy> = Vec::with_capacity(N);
        while out.len() < N {
            let xy = Xy {
                x: self.rng.random_range(5..10),
                y: self.rng.random_range(5..10),
            };
            if !out.contains(&xy) {
                out.push(xy);
            }
        }
        out.try_into().expect("N points")
    }

    /// The move for the side to move: win, else block, else next to the stones.
    pub fn choose(&mut self, game: &Mnk) -> Xy {
        let me = game.to_move();
        for player in [me, me.opponent()] {
            if let Some(p) = game.moves().find(|&p| game.wins_at(p, player)) {
                return Xy::of(p);
            }
        }
        self.near_stones(game)
    }

    /// A random empty point next to a stone (the centre on an empty board).
    fn near_stones(&mut self, game: &Mnk) -> Xy {
        let touching: Vec<Point> = game
            .moves()
            .filter(|&p| {
                let (r, c) = (p.row(SIZE) as isize, p.col(SIZE) as isize);
                (-1..=1).any(|dr| {
                    (-1..=1).any(|dc| {
                        let (r, c) = (r + dr, c + dc);
                        (0..SIZE as isize).contains(&r)
                            && (0..SIZE as isize).contains(&c)
                            && game
                                .stone(Point::at(r as usize, c as usize, SIZE))
                                .is_some()
                    })
                })
            })
            .collect();
        let pool: Vec<Point> = if touching.is_empty() {
            game.moves().collect()
        } else {
            touching
        };
        if pool.is_empty() {
            return Xy { x: 7, y: 7 };
        }
        Xy::of(pool[self.rng.random_range(0..pool.len())])
    }
}

impl Strategy for HouseBot {
    fn open(&mut self) -> [Xy; 3] {
        self.distinct_near_centre::<3>()
    }

    fn swap(&mut self, game: &Mnk) -> Swap {
        match self.rng.random_range(0..3) {
            0 => Swap::Black,
            1 => Swap::White(self.near_stones(game)),
            _ => {
                let black = self.near_stones(game);
                let mut after = game.clone();
                after
                    .place(black.point(), Player::X)
                    .expect("an empty point");
                Swap::Choose(black, self.near_stones(&after))
            }
        }
    }

    fn colour(&mut self, _game: &Mnk) -> Player {
        if self.rng.random::<bool>() {
            Player::X
        } else {
            Player::O
        }
    }

    fn play(&mut self, game: &Mnk) -> Xy {
        self.choose(game)
    }
}

/// The house bot as an in-process opponent, for `-d` and tests.
impl Contestant for HouseBot {
    fn name(&self) -> &str {
        &self.name
    }

    fn ask(&mut self, prompt: &str) -> Result<String, Fault> {
        match self.reply(prompt) {
            Ok(Reply::Answer(answer)) => Ok(answer),
            Ok(Reply::Exit) => Err(Fault::Eof),
            Err(e) => Err(e.into()),
        }
    }

    fn exit(&mut self, _line: &str) {}

    fn finish(&mut self) {}
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol;

    #[test]
    fn it_wins_when_it_can_and_blocks_a_four() {
        let mut bot = HouseBot::new("h", 1);
        // Black to move (3 v 3... counts equal): black has four in column 0.
        let board = r#"[((0,0),"B"),((0,1),"B"),((0,2),"B"),((0,3),"B"),((5,5),"W"),((6,6),"W"),((7,7),"W"),((9,9),"W")]"#;
        assert_eq!(
            bot.reply(&format!("7 {board}")).unwrap(),
            Reply::Answer("(0,4)".into())
        );
        // White to move facing black's open four must block it.
        let board = r#"[((0,0),"B"),((0,1),"B"),((0,2),"B"),((0,3),"B"),((5,5),"W"),((6,6),"W"),((12,12),"W")]"#;
        assert_eq!(
            bot.reply(&format!("6 {board}")).unwrap(),
            Reply::Answer("(0,4)".into())
        );
        assert_eq!(bot.reply("EXIT h").unwrap(), Reply::Exit);
        assert!(bot.reply("Q []").is_err());
    }

    #[test]
    fn every_opening_answer_is_legal() {
        let mut bot = HouseBot::new("h", 9);
        for _ in 0..20 {
            let Reply::Answer(opening) = bot.reply("A []").unwrap() else {
                panic!("no answer")
            };
            let [b1, b2, w] = protocol::parse_opening(&opening).unwrap();
            assert!(b1 != b2 && b1 != w && b2 != w);
            let board = format!(r#"[({b1},"B"),({b2},"B"),({w},"W")]"#);
            let mut sorted = protocol::parse_board(&board).unwrap();
            sorted.sort();
            let Reply::Answer(swap) = bot.reply(&format!("B {board}")).unwrap() else {
                panic!("no answer")
            };
            protocol::parse_swap(&swap).unwrap();
        }
    }
}
