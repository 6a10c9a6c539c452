//! The one check of a stone put on a square gomoku board, in one wording
//! for every front: off the board, on a taken point, or (under renju, where
//! the caller asks) on a point forbidden to black. The engine's board, the
//! Gomocup front, the page's game, analyses and move lists all refuse with
//! a [`StoneError`]; each front adds only its prefix (`stone 3: `,
//! `move 3: `, `TURN: `).

use std::fmt;

use crate::renju::Forbidden;
use crate::{Game, Mnk, Player, Point, Rule, Xy};

/// Why a stone cannot go on the point `(x, y)` (column, row from the top
/// left).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StoneError {
    /// The point is off the board.
    OffBoard {
        /// The column.
        x: usize,
        /// The row.
        y: usize,
    },
    /// A stone (or a wall) already stands on the point.
    Taken {
        /// The column.
        x: usize,
        /// The row.
        y: usize,
    },
    /// Under renju, black may not play the point.
    Forbidden {
        /// The column.
        x: usize,
        /// The row.
        y: usize,
        /// Why.
        why: Forbidden,
    },
}

impl fmt::Display for StoneError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoneError::OffBoard { x, y } => write!(f, "point {x},{y} is off the board"),
            StoneError::Taken { x, y } => write!(f, "point {x},{y} is already taken"),
            StoneError::Forbidden { x, y, why } => {
                write!(f, "point {x},{y} is forbidden to black under renju: {why}")
            }
        }
    }
}

impl std::error::Error for StoneError {}

/// The point `(x, y)` of a square board `size` points a side, or why not.
pub fn on_board(x: usize, y: usize, size: usize) -> Result<Point, StoneError> {
    Point::from_xy(x, y, size).ok_or(StoneError::OffBoard { x, y })
}

/// The point `xy` of `board` if a stone of `colour` may go there: on the
/// board, empty, and, where `forbid` asks and the rule is renju, not
/// forbidden to black.
pub fn check(
    board: &Mnk,
    Xy { x, y }: Xy,
    colour: Player,
    forbid: bool,
) -> Result<Point, StoneError> {
    let p = on_board(x, y, board.cols())?;
    if board.stone(p).is_some() {
        return Err(StoneError::Taken { x, y });
    }
    if forbid
        && colour == Player::X
        && board.rule() == Rule::Renju
        && let Some(why) = board.forbidden(p)
    {
        return Err(StoneError::Forbidden { x, y, why });
    }
    Ok(p)
}

/// Puts `stones` on `board` in order, each for the side with fewer stones
/// (black on equal counts: black first, then in turn), each checked by
/// [`check`]; stops after the stone that ends the game. Returns how many
/// stones were put down, or the first refused (counted from 1) and why.
pub fn replay(
    board: &mut Mnk,
    stones: impl IntoIterator<Item = Xy>,
    forbid: bool,
) -> Result<usize, (usize, StoneError)> {
    let mut put = 0;
    for xy in stones {
        if board.is_over() {
            break;
        }
        let colour = board.turn_by_count();
        let p = check(board, xy, colour, forbid).map_err(|e| (put + 1, e))?;
        board
            .place(p, colour)
            .expect("a checked point of a game going on");
        put += 1;
    }
    Ok(put)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn xys(stones: &[(usize, usize)]) -> Vec<Xy> {
        stones.iter().map(|&p| Xy::from(p)).collect()
    }

    #[test]
    fn each_refusal_names_its_point_in_one_wording() {
        let mut board = Mnk::new(15, 15, 5, Rule::Freestyle).unwrap();
        assert_eq!(replay(&mut board, xys(&[(7, 7), (8, 8)]), true), Ok(2));
        assert_eq!(board.stone(Point::at(7, 7, 15)), Some(Player::X));
        assert_eq!(board.stone(Point::at(8, 8, 15)), Some(Player::O));
        let again = replay(&mut board, xys(&[(1, 1), (7, 7)]), true);
        assert_eq!(again, Err((2, StoneError::Taken { x: 7, y: 7 })));
        assert_eq!(
            again.unwrap_err().1.to_string(),
            "point 7,7 is already taken"
        );
        let off = check(&board, Xy::new(15, 0), Player::X, false).unwrap_err();
        assert_eq!(off.to_string(), "point 15,0 is off the board");
    }

    #[test]
    fn renju_forbids_only_where_asked_and_only_black() {
        // Black's three-three at 7,7: threes through it on row 7 and column 7.
        let stones = [
            (5, 7),
            (0, 0),
            (6, 7),
            (0, 2),
            (7, 5),
            (0, 4),
            (7, 6),
            (0, 6),
        ];
        let mut board = Mnk::new(15, 15, 5, Rule::Renju).unwrap();
        assert_eq!(replay(&mut board, xys(&stones), true), Ok(8));
        let refused = check(&board, Xy::new(7, 7), Player::X, true).unwrap_err();
        assert!(matches!(refused, StoneError::Forbidden { x: 7, y: 7, .. }));
        assert!(
            refused
                .to_string()
                .starts_with("point 7,7 is forbidden to black under renju: "),
            "{refused}"
        );
        assert!(check(&board, Xy::new(7, 7), Player::X, false).is_ok());
        assert!(check(&board, Xy::new(7, 7), Player::O, true).is_ok());
    }

    #[test]
    fn a_replay_stops_after_the_stone_that_ends_the_game() {
        let mut board = Mnk::new(15, 15, 5, Rule::Freestyle).unwrap();
        let mut stones = Vec::new();
        for x in 0..5 {
            stones.extend([(x, 0), (x, 2)]);
        }
        // Black's fifth stone makes five: white's last is never put down.
        assert_eq!(replay(&mut board, xys(&stones), false), Ok(9));
        assert!(board.is_over());
    }
}
