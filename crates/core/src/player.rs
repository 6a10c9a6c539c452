//! The two players and how a game ends.

use std::fmt;

/// One of the two players. `X` moves first; in gomoku `X` plays black.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Player {
    /// The first player (black in gomoku).
    X = 0,
    /// The second player (white in gomoku).
    O = 1,
}

impl Player {
    /// Both players, `X` first.
    pub const BOTH: [Player; 2] = [Player::X, Player::O];

    /// The other player.
    #[inline]
    pub const fn opponent(self) -> Player {
        match self {
            Player::X => Player::O,
            Player::O => Player::X,
        }
    }

    /// 0 for `X`, 1 for `O`: an index into per-player arrays.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The letter printed on boards: `X` or `O`.
    pub const fn symbol(self) -> char {
        match self {
            Player::X => 'X',
            Player::O => 'O',
        }
    }

    /// Reads a stone letter: `X`/`x`/`B`/`b` or `O`/`o`/`W`/`w`.
    pub fn from_symbol(c: char) -> Option<Player> {
        match c {
            'X' | 'x' | 'B' | 'b' => Some(Player::X),
            'O' | 'o' | 'W' | 'w' => Some(Player::O),
            _ => None,
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.symbol())
    }
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// This player made a line.
    Win(Player),
    /// The board filled up with no line.
    Draw,
}

impl Outcome {
    /// The winner, if any.
    pub fn winner(self) -> Option<Player> {
        match self {
            Outcome::Win(p) => Some(p),
            Outcome::Draw => None,
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Win(p) => write!(f, "{p} wins"),
            Outcome::Draw => write!(f, "draw"),
        }
    }
}
