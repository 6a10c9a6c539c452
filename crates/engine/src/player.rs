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

use crate::board::{Board, BoardError};
use crate::opening;
use crate::search::{Found, Limits, Options, Searcher};

/// Why a position cannot be answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
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

impl std::fmt::Display for PositionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PositionError::Board(e) => write!(f, "{e}"),
            PositionError::Finished => write!(f, "the game is over: no move to make"),
            PositionError::Stones { expected, found } => {
                write!(f, "expected {expected} stones on the board, found {found}")
            }
        }
    }
}

impl std::error::Error for PositionError {}

/// What the search thought of the move it chose.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Thought {
    /// The move chosen.
    pub best: Point,
    /// Its score for the side to move (positive is good for it).
    pub score: i32,
    /// Deepest completed iteration.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// The expected line from the move chosen on.
    pub pv: Vec<Point>,
}

/// The engine as a Swap2 player: one per game.
pub struct Engine {
    searcher: Searcher,
    rng: ChaCha8Rng,
    limits: Limits,
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
            limits,
        }
    }

    /// Searches within `limits` from now on.
    pub fn set_limits(&mut self, limits: Limits) {
        self.limits = limits;
    }

    /// The searcher, to watch or stop its searches
    /// ([`Searcher::set_watcher`], [`Searcher::set_stop`]).
    pub fn searcher_mut(&mut self) -> &mut Searcher {
        &mut self.searcher
    }

    /// The next stone for the side to move, with the search's view of it.
    pub fn think(&mut self, game: &Mnk) -> Result<Thought, PositionError> {
        let mut b = board_of(game, None)?;
        let found: Found = self.searcher.search(&mut b, self.limits);
        Ok(Thought {
            best: b.point(found.best),
            score: found.score,
            depth: found.depth,
            nodes: found.nodes,
            pv: found.pv.iter().map(|&m| b.point(m)).collect(),
        })
    }
}

impl Strategy for Engine {
    type Error = PositionError;

    fn open(&mut self, game: &Mnk) -> Result<[Point; 3], PositionError> {
        let (rows, size) = (game.rows(), game.cols());
        if rows != size {
            return Err(PositionError::Board(BoardError::Size(rows.max(size))));
        }
        Board::with_rule(size, game.rule()).map_err(PositionError::Board)?;
        Ok(opening::open(
            size,
            game.rule(),
            &mut self.searcher,
            &mut self.rng,
            self.limits,
        ))
    }

    fn swap(&mut self, game: &Mnk) -> Result<Swap, PositionError> {
        let mut b = board_of(game, Some(3))?;
        Ok(opening::answer(&mut b, &mut self.searcher, self.limits))
    }

    fn colour(&mut self, game: &Mnk) -> Result<Player, PositionError> {
        let mut b = board_of(game, Some(5))?;
        Ok(opening::choose(&mut b, &mut self.searcher, self.limits).0)
    }

    fn play(&mut self, game: &Mnk) -> Result<Point, PositionError> {
        self.think(game).map(|t| t.best)
    }
}

/// The engine's board for a core position, under the game's rule; side to
/// move by stone counts.
pub fn board_of(game: &Mnk, stones: Option<usize>) -> Result<Board, PositionError> {
    let (rows, cols) = (game.rows(), game.cols());
    if rows != cols {
        return Err(PositionError::Board(BoardError::Size(rows.max(cols))));
    }
    let mut b = Board::with_rule(cols, game.rule()).map_err(PositionError::Board)?;
    let mut count = [0usize; 2];
    for y in 0..rows {
        for x in 0..cols {
            if let Some(p) = game.stone(Point::at(y, x, cols)) {
                b.place(x, y, p).map_err(PositionError::Board)?;
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
        return Err(PositionError::Finished);
    }
    Ok(b)
}
