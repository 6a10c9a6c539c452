//! Gomoku (15x15 by default, 5x5 to 20x20; freestyle, exact five or renju) against
//! the engine, through the Swap2 opening
//! of the king-of-the-hill spec (`inarow_core::swap2`): the opener places
//! two black stones and one white; the answerer takes black, places a white
//! stone and takes white, or places one more stone of each colour and lets
//! the opener choose. Then the colour with fewer stones moves.
//!
//! - [`game`]: the shared game the page shows and the person plays.
//! - [`jobs`]: the engine's part, thought off the request threads; its
//!   answer is applied only if the game it was asked about is still the
//!   one on the board.

use inarow_core::notation::xy_name;
use inarow_core::renju::Forbidden;
use inarow_core::stones::StoneError;
use inarow_core::{Game as _, Mnk, Player, Point, Xy};
use inarow_engine::pos::Pos;
use inarow_engine::score::{WIN, is_decided};
use serde::Serialize;

pub mod game;
pub mod jobs;
pub mod position;

pub use game::{Answer, Game, Refused};
pub use jobs::{Done, Job, Thought, engine, win_scale, work};
pub use position::{position_line, stone_line};

/// Board side when the page names none.
pub const SIZE: usize = 15;
/// The board sides the page may ask for: the engine's (its board holds 5 to
/// 20 points a side, and the game core up to 400 points).
pub const SIZES: std::ops::RangeInclusive<usize> =
    inarow_engine::board::MIN_SIZE..=inarow_engine::board::MAX_SIZE;
/// Shortest and longest thinking time per move the page may ask for.
pub const TIME_MS: std::ops::RangeInclusive<u64> = 50..=10_000;

/// A score the engine has proven, for the side it scores: won or lost in
/// so many plies. The page reads it as `{"win": plies}` or `{"loss": plies}`
/// (null when undecided), so that it never needs the engine's scale.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Decided {
    /// Won in this many plies.
    Win(i32),
    /// Lost in this many plies.
    Loss(i32),
}

impl Decided {
    /// What `score` decides, if anything.
    pub fn of(score: i32) -> Option<Decided> {
        if !is_decided(score) {
            None
        } else if score > 0 {
            Some(Decided::Win(WIN - score))
        } else {
            Some(Decided::Loss(WIN + score))
        }
    }
}

/// A point's name as gomoku players write it and the page shows it
/// (board.js's `pointName`, core's [`xy_name`]): its column letter from
/// `a`, `i` included, then its row counted from 1 at the bottom, `h8` the
/// centre of 15x15; so that a refusal names the point the person sees.
pub fn point_name(x: usize, y: usize, size: usize) -> String {
    xy_name(x, y, size)
}

/// The engine's point as the page reads points, `[x, y]` on a board
/// `size` wide; `None` for a point off it. The one crossing from the
/// engine's [`Pos`] to `(x, y)` on the page's side: its analyses and its
/// live thinking.
pub fn page_xy(p: Pos, size: usize) -> Option<Xy> {
    p.xy_on(size).map(Xy::from)
}

/// Black's forbidden points on `board` when black is to move under renju,
/// as [`Xy`] and why; empty otherwise (white plays anywhere, and the page
/// marks the points only for the side they bind).
pub fn forbidden_to_move(board: &Mnk) -> Vec<(Xy, Forbidden)> {
    if board.turn_by_count() != Player::X {
        return Vec::new();
    }
    let size = board.cols();
    board
        .forbidden_points()
        .into_iter()
        .map(|(p, why)| (p.to_xy(size), why))
        .collect()
}

/// The one line that refuses black's stone on a forbidden point (core's
/// [`StoneError`] in the page's words, [`stone_line`]).
pub fn forbidden_line(why: Forbidden, p: Point, size: usize) -> String {
    let (x, y) = p.xy(size);
    stone_line(StoneError::Forbidden { x, y, why }, size)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_are_named_as_the_page_names_them() {
        assert_eq!(point_name(7, 7, 15), "h8");
        assert_eq!(point_name(8, 0, 15), "i15");
        assert_eq!(point_name(0, 19, 20), "a1");
        assert_eq!(point_name(19, 0, 20), "t20");
        assert_eq!(point_name(4, 4, 5), "e1");
    }

    #[test]
    fn a_decided_score_reads_as_plies_to_the_end() {
        let read = |score| serde_json::to_value(Decided::of(score)).unwrap();
        assert_eq!(read(WIN - 3), serde_json::json!({ "win": 3 }));
        assert_eq!(read(-(WIN - 2)), serde_json::json!({ "loss": 2 }));
        assert_eq!(read(120), serde_json::Value::Null);
        assert_eq!(read(-120), serde_json::Value::Null);
    }
}
