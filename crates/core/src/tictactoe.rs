//! Tic-tac-toe on two 9-bit boards: the (3,3,3) game, tuned for full-tree search.

use std::fmt;
use std::str::FromStr;

use crate::bits::Ones16;
use crate::notation::{self, ParseError};
use crate::{Game, Outcome, Player, Point, Symmetry};

const SIZE: usize = 3;
const FULL: u16 = (1 << 9) - 1;

/// The 8 lines of three, found by walking the board rather than typed in.
const fn lines() -> [u16; 8] {
    let mut lines = [0u16; 8];
    let mut n = 0;
    let dirs: [(isize, isize); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];
    let mut start = 0;
    while start < 9 {
        let (r0, c0) = ((start / 3) as isize, (start % 3) as isize);
        let mut d = 0;
        while d < 4 {
            let (dr, dc) = dirs[d];
            let (r2, c2) = (r0 + 2 * dr, c0 + 2 * dc);
            if r2 >= 0 && r2 < 3 && c2 >= 0 && c2 < 3 {
                let mut mask = 0u16;
                let mut i = 0;
                while i < 3 {
                    mask |= 1 << ((r0 + i * dr) * 3 + c0 + i * dc);
                    i += 1;
                }
                lines[n] = mask;
                n += 1;
            }
            d += 1;
        }
        start += 1;
    }
    assert!(n == 8);
    lines
}

/// The 8 winning lines as bitmasks.
pub const LINES: [u16; 8] = lines();

/// `HAS_LINE[stones]`: whether a set of one player's stones holds a line.
static HAS_LINE: [bool; 512] = {
    let mut table = [false; 512];
    let mut stones = 0;
    while stones < 512 {
        let mut l = 0;
        while l < 8 {
            if stones as u16 & LINES[l] == LINES[l] {
                table[stones] = true;
            }
            l += 1;
        }
        stones += 1;
    }
    table
};

/// `SYMMETRIC[s][stones]`: a set of stones moved by `Symmetry::ALL[s]`.
static SYMMETRIC: [[u16; 512]; 8] = {
    let mut table = [[0u16; 512]; 8];
    let mut s = 0;
    while s < 8 {
        let mut stones = 0;
        while stones < 512 {
            let mut image = 0u16;
            let mut i = 0;
            while i < 9 {
                if stones >> i & 1 != 0 {
                    let (r, c) = Symmetry::ALL[s].apply(i / 3, i % 3, 3);
                    image |= 1 << (r * 3 + c);
                }
                i += 1;
            }
            table[s][stones] = image;
            stones += 1;
        }
        s += 1;
    }
    table
};

/// Spreads a position code over 64 bits, so that table indices taken from
/// the low bits use all of it.
#[inline]
fn mix(code: u32) -> u64 {
    let z = (code as u64 ^ 0x9E37_79B9_7F4A_7C15).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z ^ z >> 31
}

/// Whether `stones` (one player's, as a 9-bit mask) hold a line of three.
#[inline]
pub fn has_line(stones: u16) -> bool {
    HAS_LINE[(stones & FULL) as usize]
}

/// A tic-tac-toe position: the stones and the side to move.
///
/// Full-tree search spends most of its time in [`Game::play_unchecked`] and
/// [`Game::undo`], so they only flip one bit and the side to move; the result
/// comes from two table lookups when asked. The whole position fits in 19
/// bits, so its hash is that code, mixed, rather than a sum of Zobrist keys.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct TicTacToe {
    stones: [u16; 2],
    to_move: Player,
}

impl Default for TicTacToe {
    fn default() -> Self {
        TicTacToe::new()
    }
}

impl TicTacToe {
    /// The empty board, `X` to move.
    pub const fn new() -> TicTacToe {
        TicTacToe {
            stones: [0, 0],
            to_move: Player::X,
        }
    }

    /// A position from each player's stones as 9-bit row-major masks.
    ///
    /// Fails if the masks overlap or both players have a line.
    pub fn from_stones(x: u16, o: u16, to_move: Player) -> Result<TicTacToe, ParseError> {
        if x & !FULL != 0 || o & !FULL != 0 {
            return Err(ParseError::new("a stone lies outside the 3x3 board"));
        }
        if x & o != 0 {
            return Err(ParseError::new("X and O share a square"));
        }
        if has_line(x) && has_line(o) {
            return Err(ParseError::new("both X and O have three in a row"));
        }
        Ok(TicTacToe {
            stones: [x, o],
            to_move,
        })
    }

    /// Reads a board (9 cells of `X`, `O`, `.`; see [`notation`]) with the
    /// given side to move.
    pub fn parse_with_turn(text: &str, to_move: Player) -> Result<TicTacToe, ParseError> {
        let cells = notation::parse_cells(text, SIZE, SIZE)?;
        TicTacToe::new().setup(&cells, to_move)
    }

    fn parse_masks(text: &str) -> Result<(u16, u16), ParseError> {
        let cells = notation::parse_cells(text, SIZE, SIZE)?;
        let mut masks = [0u16; 2];
        for (i, cell) in cells.iter().enumerate() {
            if let Some(p) = cell {
                masks[p.index()] |= 1 << i;
            }
        }
        Ok((masks[0], masks[1]))
    }

    /// The stones of `player` as a 9-bit row-major mask.
    #[inline]
    pub fn stones_of(&self, player: Player) -> u16 {
        self.stones[player.index()]
    }

    /// The empty squares as a 9-bit mask.
    #[inline]
    pub fn empty(&self) -> u16 {
        !(self.stones[0] | self.stones[1]) & FULL
    }

    /// The nine cells in row-major order, `X`, `O` or `.`.
    pub fn compact(&self) -> String {
        notation::compact(self)
    }

    /// The position as a 19-bit number: X's stones, O's, the side to move.
    #[inline]
    pub fn code(&self) -> u32 {
        self.stones[0] as u32 | (self.stones[1] as u32) << 9 | (self.to_move as u32) << 18
    }

    /// The key that orders symmetric images: the smallest is canonical.
    #[inline]
    fn image_key(&self, s: usize) -> u32 {
        (SYMMETRIC[s][self.stones[0] as usize] as u32) << 9
            | SYMMETRIC[s][self.stones[1] as usize] as u32
    }
}

impl Game for TicTacToe {
    type Moves = Ones16;

    #[inline]
    fn rows(&self) -> usize {
        SIZE
    }

    #[inline]
    fn cols(&self) -> usize {
        SIZE
    }

    #[inline]
    fn k(&self) -> usize {
        SIZE
    }

    fn setup(&self, cells: &[Option<Player>], to_move: Player) -> Result<TicTacToe, ParseError> {
        if cells.len() != 9 {
            return Err(ParseError::new(format!(
                "tic-tac-toe has 9 squares, but {} were given",
                cells.len()
            )));
        }
        let mut masks = [0u16; 2];
        for (i, cell) in cells.iter().enumerate() {
            if let Some(p) = cell {
                masks[p.index()] |= 1 << i;
            }
        }
        TicTacToe::from_stones(masks[0], masks[1], to_move)
    }

    #[inline]
    fn to_move(&self) -> Player {
        self.to_move
    }

    #[inline]
    fn stone(&self, point: Point) -> Option<Player> {
        let bit = 1u16 << point.0;
        if self.stones[0] & bit != 0 {
            Some(Player::X)
        } else if self.stones[1] & bit != 0 {
            Some(Player::O)
        } else {
            None
        }
    }

    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        let [x, o] = self.stones;
        if HAS_LINE[(x & FULL) as usize] {
            Some(Outcome::Win(Player::X))
        } else if HAS_LINE[(o & FULL) as usize] {
            Some(Outcome::Win(Player::O))
        } else if x | o == FULL {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    #[inline]
    fn moves(&self) -> Ones16 {
        let [x, o] = self.stones;
        if HAS_LINE[(x & FULL) as usize] || HAS_LINE[(o & FULL) as usize] {
            Ones16(0)
        } else {
            Ones16(!(x | o) & FULL)
        }
    }

    #[inline]
    fn stones(&self) -> usize {
        (self.stones[0] | self.stones[1]).count_ones() as usize
    }

    #[inline]
    fn empty_points(&self) -> Ones16 {
        Ones16(self.empty())
    }

    #[inline]
    fn wins_with(&self, player: Player, point: Point) -> bool {
        HAS_LINE[((self.stones[player.index()] | 1 << point.0) & FULL) as usize]
    }

    #[inline]
    fn play_unchecked(&mut self, point: Point) {
        self.stones[self.to_move.index()] |= 1 << point.0;
        self.to_move = self.to_move.opponent();
    }

    #[inline]
    fn undo(&mut self, point: Point) {
        self.to_move = self.to_move.opponent();
        self.stones[self.to_move.index()] &= !(1 << point.0);
    }

    #[inline]
    fn hash(&self) -> u64 {
        mix(self.code())
    }

    fn transformed(&self, symmetry: Symmetry) -> TicTacToe {
        let s = symmetry as usize;
        TicTacToe {
            stones: [
                SYMMETRIC[s][self.stones[0] as usize],
                SYMMETRIC[s][self.stones[1] as usize],
            ],
            to_move: self.to_move,
        }
    }

    fn canonical(&self) -> (TicTacToe, Symmetry) {
        let best = (0..8).min_by_key(|&s| (self.image_key(s), s)).unwrap_or(0);
        let symmetry = Symmetry::ALL[best];
        (self.transformed(symmetry), symmetry)
    }

    #[inline]
    fn canonical_hash(&self) -> u64 {
        let key = (0..8).map(|s| self.image_key(s)).min().unwrap_or(0);
        mix(key | (self.to_move as u32) << 18)
    }
}

impl FromStr for TicTacToe {
    type Err = ParseError;

    /// Reads a board and infers the side to move from the stone counts:
    /// `X` when the counts are equal, `O` when `X` has one more.
    fn from_str(text: &str) -> Result<TicTacToe, ParseError> {
        let (x, o) = Self::parse_masks(text)?;
        let (nx, no) = (x.count_ones(), o.count_ones());
        let to_move = if nx == no {
            Player::X
        } else if nx == no + 1 {
            Player::O
        } else {
            return Err(ParseError::new(format!(
                "X has {nx} stones and O has {no}: X moves first, so X has as many as O or one more"
            )));
        };
        Self::from_stones(x, o, to_move)
    }
}

impl fmt::Display for TicTacToe {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        notation::write_rows(self, f)
    }
}

impl fmt::Debug for TicTacToe {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TicTacToe({}, {} to move)", self.compact(), self.to_move)
    }
}
