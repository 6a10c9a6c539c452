//! The game trait that every agent and search is generic over.

use std::fmt;

use crate::{Outcome, ParseError, Player, Point, Symmetry};

/// Why a move could not be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayError {
    /// The game is already over.
    GameOver,
    /// The point is not on the board.
    OffBoard(Point),
    /// A stone already stands on the point.
    Occupied(Point),
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::GameOver => write!(f, "the game is already over"),
            PlayError::OffBoard(p) => write!(f, "point {} is off the board", p.index()),
            PlayError::Occupied(p) => write!(f, "point {} is already taken", p.index()),
        }
    }
}

impl std::error::Error for PlayError {}

/// A k-in-a-row game: two players place stones on an empty point in turn
/// until one of them has a line or the board is full.
///
/// Searches call [`Game::play_unchecked`] and [`Game::undo`] in pairs; the
/// checked [`Game::play`] is for moves that come from outside.
pub trait Game: Clone + fmt::Debug + Send + Sync + 'static {
    /// The legal moves, in row-major order.
    type Moves: Iterator<Item = Point>;

    /// Number of rows.
    fn rows(&self) -> usize;
    /// Number of columns.
    fn cols(&self) -> usize;
    /// Stones in a row needed to win.
    fn k(&self) -> usize;

    /// Number of points on the board.
    fn points(&self) -> usize {
        self.rows() * self.cols()
    }

    /// The point at `row`, `col`, if it is on the board.
    fn point(&self, row: usize, col: usize) -> Option<Point> {
        (row < self.rows() && col < self.cols()).then(|| Point::at(col, row, self.cols()))
    }

    /// A position of this game's kind (same size and rule) holding `cells`
    /// (row-major, one per point) with `to_move` to play. Fails if the cells
    /// do not fit the board or both players already have a line.
    fn setup(&self, cells: &[Option<Player>], to_move: Player) -> Result<Self, ParseError>;

    /// The player whose turn it is.
    fn to_move(&self) -> Player;

    /// The stone on `point`, if any.
    fn stone(&self, point: Point) -> Option<Player>;

    /// How the game ended, or `None` while it goes on.
    fn outcome(&self) -> Option<Outcome>;

    /// Whether the game has ended.
    #[inline]
    fn is_over(&self) -> bool {
        self.outcome().is_some()
    }

    /// The legal moves: every empty point while the game goes on, none after.
    fn moves(&self) -> Self::Moves;

    /// Every empty point, whether or not the game is over: for searches that
    /// already know the game goes on.
    fn empty_points(&self) -> Self::Moves;

    /// Number of stones on the board.
    fn stones(&self) -> usize;

    /// Plays `point` for the side to move, or says why it cannot be played.
    fn play(&mut self, point: Point) -> Result<(), PlayError> {
        if self.is_over() {
            return Err(PlayError::GameOver);
        }
        if point.index() >= self.points() {
            return Err(PlayError::OffBoard(point));
        }
        if self.stone(point).is_some() {
            return Err(PlayError::Occupied(point));
        }
        self.play_unchecked(point);
        Ok(())
    }

    /// Whether a stone of `player` on the empty `point` would make a winning
    /// line, whoever is to move: lets a search see a won child without
    /// playing it.
    fn wins_with(&self, player: Player, point: Point) -> bool {
        let mut child = self.clone();
        if child.to_move() != player {
            // Pass the turn by setting up the same stones with `player` to move.
            let cells: Vec<Option<Player>> = (0..self.points())
                .map(|i| self.stone(Point(i as u16)))
                .collect();
            child = self.setup(&cells, player).expect("the position is valid");
        }
        child.play_unchecked(point);
        child.outcome() == Some(Outcome::Win(player))
    }

    /// Whether playing the legal move `point` now makes a winning line for
    /// the side to move.
    #[inline]
    fn wins_now(&self, point: Point) -> bool {
        self.wins_with(self.to_move(), point)
    }

    /// Plays a legal move without checking it: the fast path for search.
    fn play_unchecked(&mut self, point: Point);

    /// Takes back `point`, which must be the last move played.
    fn undo(&mut self, point: Point);

    /// The Zobrist hash of stones and side to move.
    fn hash(&self) -> u64;

    /// The board moved by `symmetry`. Square boards only.
    fn transformed(&self, symmetry: Symmetry) -> Self;

    /// Where `point` goes under `symmetry`. Square boards only.
    fn transform_point(&self, point: Point, symmetry: Symmetry) -> Point {
        let cols = self.cols();
        let (r, c) = symmetry.apply(point.row(cols), point.col(cols), cols);
        Point::at(c, r, cols)
    }

    /// The canonical image of this board among its 8 symmetric images, and
    /// the symmetry that takes this board to it. Square boards only.
    fn canonical(&self) -> (Self, Symmetry);

    /// A hash that is the same for all 8 symmetric images of the board.
    fn canonical_hash(&self) -> u64 {
        self.canonical().0.hash()
    }
}

/// Counts the players' stones on any game's board.
pub fn count_stones<G: Game>(game: &G) -> [usize; 2] {
    let mut counts = [0; 2];
    for i in 0..game.points() {
        if let Some(p) = game.stone(Point(i as u16)) {
            counts[p.index()] += 1;
        }
    }
    counts
}
