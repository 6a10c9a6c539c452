//! The general m,n,k game on a bitboard of up to 400 points (20 x 20),
//! gomoku among them.

use std::fmt;

use crate::bits::{Bits400, Ones400};
use crate::notation::{self, ParseError};
use crate::renju::{Forbidden, Grid, Stone};
use crate::{Game, Outcome, PlayError, Player, Point, Symmetry, zobrist};

/// How long a line must be to win, and who may play where. Written
/// `freestyle`, `exact` or `renju` everywhere (flags, files, pages): [`Rule::name`] and its `FromStr` are
/// the one place a rule is printed and parsed.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Rule {
    /// `k` or more in a row wins (freestyle gomoku: overlines win).
    #[default]
    Freestyle,
    /// Exactly `k` in a row wins; a longer line does not.
    Exact,
    /// Renju (RIF): black wins by exactly five and loses by playing a
    /// forbidden point (a double three, a double four or an overline; see
    /// [`crate::renju`]); white wins by five or more. Played five in a row.
    Renju,
}

impl Rule {
    /// Every rule, freestyle first.
    pub const ALL: [Rule; 3] = [Rule::Freestyle, Rule::Exact, Rule::Renju];

    /// The rule's name: `freestyle`, `exact` or `renju`.
    pub const fn name(self) -> &'static str {
        match self {
            Rule::Freestyle => "freestyle",
            Rule::Exact => "exact",
            Rule::Renju => "renju",
        }
    }

    /// Whether a run of `run` stones of `player` wins: exactly `k` for
    /// exact five and for renju's black, `k` or more otherwise.
    #[inline]
    pub const fn wins(self, player: Player, run: usize, k: usize) -> bool {
        match (self, player) {
            (Rule::Exact, _) | (Rule::Renju, Player::X) => run == k,
            _ => run >= k,
        }
    }
}

impl std::fmt::Display for Rule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A text that names no rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownRule(pub String);

impl std::fmt::Display for UnknownRule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the rule {:?} is not freestyle, exact or renju", self.0)
    }
}

impl std::error::Error for UnknownRule {}

impl std::str::FromStr for Rule {
    type Err = UnknownRule;

    /// `freestyle`, `exact` or `renju`.
    fn from_str(s: &str) -> Result<Rule, UnknownRule> {
        Rule::ALL
            .into_iter()
            .find(|rule| rule.name() == s)
            .ok_or_else(|| UnknownRule(s.to_string()))
    }
}

/// The four line directions as (row step, column step).
const DIRECTIONS: [(isize, isize); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];

/// An m x n board where `k` in a row wins: tic-tac-toe is (3,3,3), gomoku (15,15,5).
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Mnk {
    rows: u8,
    cols: u8,
    k: u8,
    rule: Rule,
    full: Bits400,
    stones: [Bits400; 2],
    to_move: Player,
    outcome: Option<Outcome>,
    hash: u64,
}

impl Mnk {
    /// The empty `rows` x `cols` board where `k` in a row wins.
    ///
    /// Boards hold at most [`zobrist::MAX_POINTS`] (400) points: 20 x 20,
    /// or longer sides (up to 255) as long as the product fits.
    pub fn new(rows: usize, cols: usize, k: usize, rule: Rule) -> Result<Mnk, ParseError> {
        if rows == 0 || cols == 0 || rows * cols > zobrist::MAX_POINTS || rows > 255 || cols > 255 {
            return Err(ParseError::new(format!(
                "a {rows}x{cols} board is not supported: it needs 1 to {} points",
                zobrist::MAX_POINTS
            )));
        }
        if k == 0 || k > rows.max(cols) {
            return Err(ParseError::new(format!(
                "{k} in a row cannot fit on a {rows}x{cols} board"
            )));
        }
        if rule == Rule::Renju && k != 5 {
            return Err(ParseError::new(format!(
                "renju is played five in a row, not {k}"
            )));
        }
        Ok(Mnk {
            rows: rows as u8,
            cols: cols as u8,
            k: k as u8,
            rule,
            full: Bits400::first(rows * cols),
            stones: [Bits400::EMPTY; 2],
            to_move: Player::X,
            outcome: None,
            hash: 0,
        })
    }

    /// Freestyle gomoku: 15 x 15, five or more in a row wins.
    pub fn gomoku() -> Mnk {
        Mnk::new(15, 15, 5, Rule::Freestyle).expect("15x15 fits")
    }

    /// Gomoku where exactly five wins and an overline does not.
    pub fn gomoku_exact() -> Mnk {
        Mnk::new(15, 15, 5, Rule::Exact).expect("15x15 fits")
    }

    /// Renju on its 15 x 15 board (see [`Rule::Renju`]).
    pub fn renju() -> Mnk {
        Mnk::new(15, 15, 5, Rule::Renju).expect("15x15 fits")
    }

    /// Tic-tac-toe as a general m,n,k game (see also [`crate::TicTacToe`]).
    pub fn tictactoe() -> Mnk {
        Mnk::new(3, 3, 3, Rule::Freestyle).expect("3x3 fits")
    }

    /// The winning rule.
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// The stones of `player`.
    pub fn stones_of(&self, player: Player) -> Bits400 {
        self.stones[player.index()]
    }

    /// The empty points.
    pub fn empty(&self) -> Bits400 {
        self.full.and_not(self.stones[0].or(self.stones[1]))
    }

    /// Puts a stone of `player` on `point`, whoever's turn it is, as in a
    /// gomoku opening. Afterwards the player with fewer stones moves, `X`
    /// when the counts are equal.
    pub fn place(&mut self, point: Point, player: Player) -> Result<(), PlayError> {
        if self.outcome.is_some() {
            return Err(PlayError::GameOver);
        }
        if point.index() >= self.points() {
            return Err(PlayError::OffBoard(point));
        }
        if self.stone(point).is_some() {
            return Err(PlayError::Occupied(point));
        }
        self.put(point, player);
        let turn = self.turn_by_count();
        self.set_to_move(turn);
        Ok(())
    }

    /// The side to move by the opening rule: fewer stones moves, `X` on a tie.
    pub fn turn_by_count(&self) -> Player {
        if self.stones[0].count() <= self.stones[1].count() {
            Player::X
        } else {
            Player::O
        }
    }

    /// Sets the side to move.
    pub fn set_to_move(&mut self, player: Player) {
        if self.to_move != player {
            self.hash ^= zobrist::O_TO_MOVE;
            self.to_move = player;
        }
    }

    /// Reads a board of this size (see [`notation`]) with the side to move
    /// given, or decided by the opening rule when `None`.
    pub fn parse(&self, text: &str, to_move: Option<Player>) -> Result<Mnk, ParseError> {
        let cells = notation::parse_cells(text, self.rows(), self.cols())?;
        let game = self.setup(&cells, Player::X)?;
        let turn = to_move.unwrap_or_else(|| game.turn_by_count());
        self.setup(&cells, turn)
    }

    /// The board as rows separated by `/`.
    pub fn compact(&self) -> String {
        let cells = notation::compact(self);
        let cols = self.cols();
        cells
            .as_bytes()
            .chunks(cols)
            .map(|row| std::str::from_utf8(row).expect("ASCII"))
            .collect::<Vec<_>>()
            .join("/")
    }

    #[inline]
    fn put(&mut self, point: Point, player: Player) {
        let forbidden = player == Player::X && self.forbidden(point).is_some();
        self.stones[player.index()].set(point.index());
        self.hash ^= zobrist::stone_key(player, point);
        if self.wins_at(point, player) {
            self.outcome = Some(Outcome::Win(player));
        } else if forbidden {
            // Black on a forbidden point loses at once.
            self.outcome = Some(Outcome::Win(Player::O));
        } else if self.empty().is_empty() {
            self.outcome = Some(Outcome::Draw);
        }
    }

    /// Length of `player`'s unbroken run through `point` along one direction,
    /// counting `point` itself as that player's stone.
    #[inline]
    pub fn run_through(&self, point: Point, player: Player, direction: (isize, isize)) -> usize {
        let cols = self.cols as usize;
        self.run_from(
            point.index() / cols,
            point.index() % cols,
            player,
            direction,
        )
    }

    #[inline]
    fn run_from(&self, row: usize, col: usize, player: Player, (dr, dc): (isize, isize)) -> usize {
        let stones = &self.stones[player.index()];
        let (rows, cols) = (self.rows as isize, self.cols as isize);
        let mut run = 1;
        for sign in [1, -1] {
            let (mut r, mut c) = (row as isize + sign * dr, col as isize + sign * dc);
            while r >= 0 && r < rows && c >= 0 && c < cols && stones.get((r * cols + c) as usize) {
                run += 1;
                r += sign * dr;
                c += sign * dc;
            }
        }
        run
    }

    /// Whether a stone of `player` on `point` makes a winning line.
    #[inline]
    pub fn wins_at(&self, point: Point, player: Player) -> bool {
        let k = self.k as usize;
        let cols = self.cols as usize;
        let (row, col) = (point.index() / cols, point.index() % cols);
        DIRECTIONS.iter().any(|&d| {
            self.rule
                .wins(player, self.run_from(row, col, player, d), k)
        })
    }

    /// Under renju, whether a black stone on the empty `point` would be
    /// forbidden, and why; `None` under the other rules, on a stone, or
    /// where black makes a five.
    pub fn forbidden(&self, point: Point) -> Option<Forbidden> {
        if self.rule != Rule::Renju
            || point.index() >= self.points()
            || self.stone(point).is_some()
            || !self.may_be_forbidden(point)
        {
            return None;
        }
        let cols = self.cols as usize;
        self.grid()
            .forbidden(point.index() % cols, point.index() / cols)
    }

    /// Every point forbidden to black under renju, in row order (none under
    /// the other rules), whoever is to move.
    pub fn forbidden_points(&self) -> Vec<(Point, Forbidden)> {
        if self.rule != Rule::Renju {
            return Vec::new();
        }
        let mut grid = self.grid();
        let cols = self.cols as usize;
        self.empty()
            .ones()
            .filter(|&p| self.may_be_forbidden(p))
            .filter_map(|p| {
                grid.forbidden(p.index() % cols, p.index() / cols)
                    .map(|why| (p, why))
            })
            .collect()
    }

    /// A quick bound: a forbidden point has at least four black stones
    /// within five points along its lines (two threes need four, an
    /// overline five, two fours six).
    fn may_be_forbidden(&self, point: Point) -> bool {
        let cols = self.cols as isize;
        let (rows, row, col) = (
            self.rows as isize,
            (point.index() / cols as usize) as isize,
            (point.index() % cols as usize) as isize,
        );
        let black = &self.stones[Player::X.index()];
        let mut near = 0;
        for (dr, dc) in DIRECTIONS {
            for step in (-5..=5).filter(|&s| s != 0) {
                let (r, c) = (row + step * dr, col + step * dc);
                if (0..rows).contains(&r)
                    && (0..cols).contains(&c)
                    && black.get((r * cols + c) as usize)
                {
                    near += 1;
                }
            }
        }
        near >= 4
    }

    /// The stones as the forbidden-point check's grid (x the column, y the
    /// row).
    fn grid(&self) -> Grid {
        let cols = self.cols as usize;
        let mut grid = Grid::with_size(cols, self.rows as usize);
        for (player, stone) in [(Player::X, Stone::Black), (Player::O, Stone::White)] {
            for p in self.stones[player.index()].ones() {
                grid.set(p.index() % cols, p.index() / cols, stone);
            }
        }
        grid
    }
}

impl Game for Mnk {
    type Moves = Ones400;

    #[inline]
    fn rows(&self) -> usize {
        self.rows as usize
    }

    #[inline]
    fn cols(&self) -> usize {
        self.cols as usize
    }

    #[inline]
    fn k(&self) -> usize {
        self.k as usize
    }

    fn setup(&self, cells: &[Option<Player>], to_move: Player) -> Result<Mnk, ParseError> {
        if cells.len() != self.points() {
            return Err(ParseError::new(format!(
                "a {}x{} board has {} points, but {} were given",
                self.rows,
                self.cols,
                self.points(),
                cells.len()
            )));
        }
        let mut game = Mnk::new(self.rows(), self.cols(), self.k(), self.rule)?;
        for (i, cell) in cells.iter().enumerate() {
            if let Some(player) = *cell {
                game.stones[player.index()].set(i);
                game.hash ^= zobrist::stone_key(player, Point(i as u16));
            }
        }
        let winners: Vec<Player> = Player::BOTH
            .into_iter()
            .filter(|&pl| game.stones[pl.index()].ones().any(|p| game.wins_at(p, pl)))
            .collect();
        game.outcome = match winners[..] {
            [] if game.empty().is_empty() => Some(Outcome::Draw),
            [] => None,
            [w] => Some(Outcome::Win(w)),
            _ => return Err(ParseError::new("both players have a winning line")),
        };
        game.set_to_move(to_move);
        Ok(game)
    }

    #[inline]
    fn to_move(&self) -> Player {
        self.to_move
    }

    #[inline]
    fn stone(&self, point: Point) -> Option<Player> {
        let i = point.index();
        if self.stones[0].get(i) {
            Some(Player::X)
        } else if self.stones[1].get(i) {
            Some(Player::O)
        } else {
            None
        }
    }

    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    #[inline]
    fn moves(&self) -> Ones400 {
        if self.outcome.is_some() {
            Bits400::EMPTY.ones()
        } else {
            self.empty().ones()
        }
    }

    #[inline]
    fn stones(&self) -> usize {
        self.stones[0].count() + self.stones[1].count()
    }

    #[inline]
    fn empty_points(&self) -> Ones400 {
        self.empty().ones()
    }

    #[inline]
    fn wins_with(&self, player: Player, point: Point) -> bool {
        self.wins_at(point, player)
    }

    #[inline]
    fn play_unchecked(&mut self, point: Point) {
        let me = self.to_move;
        self.put(point, me);
        self.hash ^= zobrist::O_TO_MOVE;
        self.to_move = me.opponent();
    }

    #[inline]
    fn undo(&mut self, point: Point) {
        let me = self.to_move.opponent();
        self.stones[me.index()].clear(point.index());
        self.outcome = None;
        self.hash ^= zobrist::stone_key(me, point) ^ zobrist::O_TO_MOVE;
        self.to_move = me;
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.hash
    }

    fn transformed(&self, symmetry: Symmetry) -> Mnk {
        assert_eq!(
            self.rows, self.cols,
            "symmetries of the square need a square board"
        );
        let mut game = self.clone();
        game.stones = [Bits400::EMPTY; 2];
        game.hash = if self.to_move == Player::O {
            zobrist::O_TO_MOVE
        } else {
            0
        };
        for player in Player::BOTH {
            for p in self.stones[player.index()].ones() {
                let q = self.transform_point(p, symmetry);
                game.stones[player.index()].set(q.index());
                game.hash ^= zobrist::stone_key(player, q);
            }
        }
        game
    }

    fn canonical(&self) -> (Mnk, Symmetry) {
        Symmetry::ALL
            .into_iter()
            .map(|s| (self.transformed(s), s))
            .min_by(|(a, sa), (b, sb)| (a.stones, sa).cmp(&(b.stones, sb)))
            .expect("eight images")
    }
}

impl fmt::Display for Mnk {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        notation::write_rows(self, f)
    }
}

impl fmt::Debug for Mnk {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Mnk({},{},{} {:?}; {}; {} to move)",
            self.rows,
            self.cols,
            self.k,
            self.rule,
            self.compact(),
            self.to_move
        )
    }
}
