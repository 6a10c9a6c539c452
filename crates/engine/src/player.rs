//! The engine as a Swap2 gomoku player ([`Strategy`]): it opens with three
//! stones, answers them, chooses a colour and plays moves, each within a
//! per-move budget and driven by one seed. Boards come and go as the
//! core's [`Mnk`], whose rule (freestyle, exact five or renju) the engine plays;
//! the side to move is the colour with fewer stones, black on equal counts.

use std::time::Duration;

use inarow_core::swap2::{Strategy, Swap};
use inarow_core::{Game, Mnk, Player, Point};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

pub use crate::analysis::PositionError;
use crate::board::{Board, BoardError};
use crate::opening;
use crate::pos::Pos;
use crate::search::{Found, Limits, Options, Request, Searcher};

/// The engine as a Swap2 player: one per game.
pub struct Engine {
    searcher: Searcher,
    rng: ChaCha8Rng,
    /// What each search is asked: the limits a decision gets, and the
    /// stop flag and watcher its owner lends.
    request: Request,
}

impl Engine {
    /// A player thinking at most `per_move` per decision, with all randomness from `seed`.
    pub fn new(seed: u64, per_move: Duration) -> Engine {
        Engine::with_options(seed, per_move, Options::default())
    }

    /// Like [`Engine::new`] with explicit search options.
    pub fn with_options(seed: u64, per_move: Duration, options: Options) -> Engine {
        Engine::with_limits(seed, Limits::time(per_move), options)
    }

    /// A player searching within `limits` per decision: with a node limit
    /// and no time limit it answers the same positions the same way on any
    /// machine.
    pub fn with_limits(seed: u64, limits: Limits, options: Options) -> Engine {
        Engine {
            searcher: Searcher::new(options),
            rng: ChaCha8Rng::seed_from_u64(seed),
            request: Request::new(limits),
        }
    }

    /// Searches within `limits` from now on.
    pub fn set_limits(&mut self, limits: Limits) {
        self.request.limits = limits;
    }

    /// The request each search is made with, to stop or watch the
    /// searches ([`Request::stop`], [`Request::watcher`]).
    pub fn request_mut(&mut self) -> &mut Request {
        &mut self.request
    }

    /// The next stone for the side to move: the search's answer (its
    /// move as core's point is `best.point(game.cols())`).
    pub fn think(&mut self, game: &Mnk) -> Result<Found, PositionError> {
        let mut b = board_of(game, None)?;
        Ok(self.searcher.search(&mut b, &mut self.request))
    }
}

impl Strategy for Engine {
    type Error = PositionError;

    fn open(&mut self, game: &Mnk) -> Result<[Point; 3], PositionError> {
        let (rows, size) = (game.rows(), game.cols());
        if rows != size {
            return Err(PositionError::Board(None, BoardError::Size(rows.max(size))));
        }
        Board::with_rule(size, game.rule()).map_err(|e| PositionError::Board(None, e))?;
        Ok(opening::open(
            size,
            game.rule(),
            &mut self.searcher,
            &mut self.rng,
            &mut self.request,
        ))
    }

    fn swap(&mut self, game: &Mnk) -> Result<Swap, PositionError> {
        let mut b = board_of(game, Some(3))?;
        Ok(opening::answer(
            &mut b,
            &mut self.searcher,
            &mut self.request,
        ))
    }

    fn colour(&mut self, game: &Mnk) -> Result<Player, PositionError> {
        let mut b = board_of(game, Some(5))?;
        Ok(opening::choose(&mut b, &mut self.searcher, &mut self.request).0)
    }

    fn play(&mut self, game: &Mnk) -> Result<Point, PositionError> {
        self.think(game).map(|t| t.best.point(game.cols()))
    }
}

/// The engine's board for a core position, under the game's rule; side to
/// move by stone counts.
pub fn board_of(game: &Mnk, stones: Option<usize>) -> Result<Board, PositionError> {
    let (rows, cols) = (game.rows(), game.cols());
    if rows != cols {
        return Err(PositionError::Board(None, BoardError::Size(rows.max(cols))));
    }
    let mut b = Board::with_rule(cols, game.rule()).map_err(|e| PositionError::Board(None, e))?;
    let mut count = [0usize; 2];
    for y in 0..rows {
        for x in 0..cols {
            if let Some(p) = game.stone(Point::at(x, y, cols)) {
                b.place(Pos::at(x, y), p)
                    .map_err(|e| PositionError::Board(None, e))?;
                count[p.index()] += 1;
            }
        }
    }
    if let Some(expected) = stones {
        let found = count[0] + count[1];
        if found != expected {
            return Err(PositionError::Stones { expected, found });
        }
    }
    b.set_to_move(if count[1] < count[0] {
        Player::O
    } else {
        Player::X
    });
    if b.empty_count() == 0 || game.outcome().is_some() {
        return Err(PositionError::Over);
    }
    Ok(b)
}
