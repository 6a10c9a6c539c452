//! Answers to the king-of-the-hill judge's prompts (see the gomoku spec):
//! `A` (open with three stones), `B` (answer them), `C` (choose a colour)
//! and `N` (play a move), each within a per-move time budget and driven by
//! one seed. Boards come and go as the core's [`Mnk`]; the side to move is
//! the colour with fewer stones, black on equal counts.

use std::time::Duration;

use inarow_core::{Game, Mnk, Player, Point};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::board::{Board, BoardError, stone_of};
use crate::opening::{self, Answer};
use crate::search::{Limits, Options, Searcher};

/// The answer to a `B` prompt, in core points.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Swap {
    /// `B`: play black.
    Black,
    /// `W XY`: place this white stone and play white.
    White(Point),
    /// `XY XY`: place a black then a white stone; the opener chooses.
    Place(Point, Point),
}

/// Why a prompt's board cannot be answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KothError {
    /// The board shape is not supported.
    Board(BoardError),
    /// The game is already over or the board is full.
    Finished,
    /// The prompt needs a different number of stones.
    Stones {
        /// Stones the prompt needs.
        expected: usize,
        /// Stones on the board.
        found: usize,
    },
}

impl std::fmt::Display for KothError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            KothError::Board(e) => write!(f, "{e}"),
            KothError::Finished => write!(f, "the game is over: no move to make"),
            KothError::Stones { expected, found } => {
                write!(f, "expected {expected} stones on the board, found {found}")
            }
        }
    }
}

impl std::error::Error for KothError {}

/// The engine as a king-of-the-hill bot: one per game.
pub struct Koth {
    searcher: Searcher,
    rng: ChaCha8Rng,
    limits: Limits,
}

impl Koth {
    /// A bot thinking at most `per_move` per prompt, with all randomness from `seed`.
    pub fn new(seed: u64, per_move: Duration) -> Koth {
        Koth::with_options(seed, per_move, Options::default())
    }

    /// Like [`Koth::new`] with explicit search options.
    pub fn with_options(seed: u64, per_move: Duration, options: Options) -> Koth {
        Koth::with_limits(seed, Limits::time(per_move), options)
    }

    /// A bot searching within `limits` per prompt: with a node limit and no
    /// time limit it answers the same prompts the same way on any machine.
    pub fn with_limits(seed: u64, limits: Limits, options: Options) -> Koth {
        Koth {
            searcher: Searcher::new(options),
            rng: ChaCha8Rng::seed_from_u64(seed),
            limits,
        }
    }

    /// `A []`: two black stones and one white stone, in that order.
    pub fn open(&mut self, size: usize) -> Result<[Point; 3], KothError> {
        Board::new(size).map_err(KothError::Board)?;
        let stones = opening::open(size, &mut self.searcher, &mut self.rng, self.limits);
        Ok(stones.map(|(x, y)| Point::at(y, x, size)))
    }

    /// `B BOARD`: the answer to the three opening stones.
    pub fn swap(&mut self, game: &Mnk) -> Result<Swap, KothError> {
        let mut b = board_of(game, Some(3))?;
        Ok(
            match opening::answer(&mut b, &mut self.searcher, self.limits) {
                Answer::Black => Swap::Black,
                Answer::White(w) => Swap::White(point(&b, w)),
                Answer::Place { black, white } => Swap::Place(point(&b, black), point(&b, white)),
            },
        )
    }

    /// `C BOARD`: the colour the opener plays after the answerer's two stones.
    pub fn colour(&mut self, game: &Mnk) -> Result<Player, KothError> {
        let mut b = board_of(game, Some(5))?;
        Ok(opening::choose(&mut b, &mut self.searcher, self.limits).0)
    }

    /// `N BOARD`: the next stone for the side to move.
    pub fn play(&mut self, game: &Mnk) -> Result<Point, KothError> {
        let mut b = board_of(game, None)?;
        let found = self.searcher.search(&mut b, self.limits);
        Ok(point(&b, found.best))
    }
}

fn point(b: &Board, i: usize) -> Point {
    let (x, y) = b.xy(i);
    Point::at(y, x, b.size())
}

/// The engine's board for a core position; side to move by stone counts.
pub fn board_of(game: &Mnk, stones: Option<usize>) -> Result<Board, KothError> {
    let (rows, cols) = (game.rows(), game.cols());
    if rows != cols {
        return Err(KothError::Board(BoardError::Size(rows.max(cols))));
    }
    let mut b = Board::new(cols).map_err(KothError::Board)?;
    let mut count = [0usize; 2];
    for y in 0..rows {
        for x in 0..cols {
            if let Some(p) = game.stone(Point::at(y, x, cols)) {
                b.place(x, y, stone_of(p)).map_err(KothError::Board)?;
                count[p.index()] += 1;
            }
        }
    }
    if let Some(expected) = stones {
        let found = count[0] + count[1];
        if found != expected {
            return Err(KothError::Stones { expected, found });
        }
    }
    b.set_to_move(if count[1] < count[0] {
        Player::O
    } else {
        Player::X
    });
    if b.empty_count() == 0 || game.outcome().is_some() {
        return Err(KothError::Finished);
    }
    Ok(b)
}
