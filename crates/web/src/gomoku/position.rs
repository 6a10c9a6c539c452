//! The position a request of the page names, built once, on the engine's
//! board: each stone put with core's one check of a stone
//! ([`StoneError`]: off the board, on a taken point, or black's on a point
//! renju forbids when it is played), refused in the page's words (points
//! named `j8`, [`stone_line`]).

use inarow_core::renju::Forbidden;
use inarow_core::stones::{self, StoneError};
use inarow_core::{Game as _, Mnk, Player, Point, Rule, Xy};
use inarow_engine::analysis::PositionError;
use inarow_engine::board::{Board, BoardError};
use inarow_engine::pos::Pos;

use super::{SIZES, point_name};

/// A refused stone as the page says it: its point named as the page names
/// points (`j8`; a point off the board by its column and row from the top
/// left, which name none), then core's reason.
pub fn stone_line(e: StoneError, size: usize) -> String {
    match e {
        StoneError::OffBoard { x, y } => {
            let last = inarow_core::notation::xy_name(size - 1, 0, size);
            let last_column = last.chars().next().unwrap_or('a');
            format!(
                "point {x},{y} is off the {size}x{size} board: columns are a to {last_column} and rows 1 to {size}"
            )
        }
        StoneError::Taken { x, y } => format!("{} is already taken", point_name(x, y, size)),
        StoneError::Forbidden { x, y, why } => forbidden_words(why, point_name(x, y, size)),
    }
}

/// The line that refuses black's stone on the point named `name`.
pub fn forbidden_words(why: Forbidden, name: String) -> String {
    format!("{name} is forbidden to black under renju: {why}")
}

/// A refused position as the page says it: a stone's refusal in
/// [`stone_line`]'s words after its number, the rest as the engine says
/// it.
pub fn position_line(e: &PositionError, size: usize) -> String {
    match e {
        PositionError::Board(Some(n), BoardError::Stone(stone)) => {
            format!("stone {n}: {}", stone_line(*stone, size))
        }
        PositionError::Board(None, BoardError::Stone(stone)) => stone_line(*stone, size),
        other => other.to_string(),
    }
}

/// Puts a stone of the side to move on `p` if core's check lets it: an
/// empty point and, under renju, not one forbidden to black.
fn put(board: &mut Board, p: Pos) -> Result<(), StoneError> {
    let size = board.size();
    let (x, y) = p.xy_on(size).expect("a point of the board");
    if !board.is_empty(p) {
        return Err(StoneError::Taken { x, y });
    }
    if board.to_move() == Player::X
        && let Some(why) = board.forbidden(p)
    {
        return Err(StoneError::Forbidden { x, y, why });
    }
    board.play_unchecked(p);
    Ok(())
}

/// The engine's board of `stones` (`[x, y]` from the top left; black
/// first, then in turn) on a `size` board under `rule`, each stone checked
/// as it is put; refused at the first stone that cannot stand, where a five
/// stands on the board (the game is over) or where the board is full.
pub fn position(size: usize, rule: Rule, stones: &[Xy]) -> Result<Board, PositionError> {
    let mut board = Board::with_rule(size, rule).map_err(|e| PositionError::Board(None, e))?;
    for (n, &Xy { x, y }) in stones.iter().enumerate() {
        let refused = |e| PositionError::Board(Some(n + 1), BoardError::Stone(e));
        let p = Pos::from_xy(x, y, size).ok_or(refused(StoneError::OffBoard { x, y }))?;
        let mover = board.to_move();
        put(&mut board, p).map_err(refused)?;
        if board.last_move_won() {
            return Err(PositionError::Finished(n + 1, mover));
        }
    }
    if board.empty_count() == 0 {
        return Err(PositionError::Full);
    }
    Ok(board)
}

/// The game core's board of `stones` (`[x, y]` from the top left) on a
/// `size` board under `rule`: each of the colour `colours` gives it (one a
/// stone), or, given none, black first and then in turn; each checked as it
/// is put with core's one check ([`stones::check`], black's forbidden
/// points under renju included). Refused at the first stone that cannot
/// stand, where a five stands on the board (the game is over) or where the
/// board is full: what the rule says of a position, without the engine.
pub fn rule_position(
    size: usize,
    rule: Rule,
    stones: &[Xy],
    colours: Option<&[Player]>,
) -> Result<Mnk, PositionError> {
    if !SIZES.contains(&size) {
        return Err(PositionError::Board(None, BoardError::Size(size)));
    }
    let mut board = Mnk::new(size, size, 5, rule).expect("a supported size");
    for (n, &xy) in stones.iter().enumerate() {
        let colour = colours.map_or_else(|| board.turn_by_count(), |c| c[n]);
        let p = stones::check(&board, xy, colour, true)
            .map_err(|e| PositionError::Board(Some(n + 1), BoardError::Stone(e)))?;
        board
            .place(p, colour)
            .expect("a checked point of a game going on");
        if let Some(outcome) = board.outcome() {
            return Err(match outcome.winner() {
                Some(winner) => PositionError::Finished(n + 1, winner),
                None => PositionError::Full,
            });
        }
    }
    if board.empty().count() == 0 {
        return Err(PositionError::Full);
    }
    Ok(board)
}

/// Black's forbidden points on the core's `board` (renju; none under the
/// other rules), row by row, as `[x, y]` and why, whoever is to move.
pub fn forbidden_to_black(board: &Mnk) -> Vec<(Xy, Forbidden)> {
    let size = board.cols();
    board
        .forbidden_points()
        .into_iter()
        .map(|(p, why)| (p.to_xy(size), why))
        .collect()
}

/// Plays `moves` as a game from black on a `size` board under `rule`, each
/// checked as it is put, until a line ends the game (the moves after it are
/// taken as they are: a record may go on past its end); the first refused
/// (counted from 1) and why.
pub fn replay(size: usize, rule: Rule, moves: &[Point]) -> Result<(), (usize, StoneError)> {
    let Ok(mut board) = Board::with_rule(size, rule) else {
        return Ok(());
    };
    for (n, &point) in moves.iter().enumerate() {
        let p = Pos::of_point(point, size).ok_or_else(|| {
            let (x, y) = point.xy(size);
            (n + 1, StoneError::OffBoard { x, y })
        })?;
        put(&mut board, p).map_err(|e| (n + 1, e))?;
        if board.last_move_won() || board.empty_count() == 0 {
            break;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Black's double three at j8 on 15x15 (`h8 a1 i8 a3 j9 a5 j10 a7`, then
    /// j8): threes through it on row 8 and column j.
    const DOUBLE_THREE: [Xy; 8] = [
        Xy::new(7, 7),
        Xy::new(0, 14),
        Xy::new(8, 7),
        Xy::new(0, 12),
        Xy::new(9, 6),
        Xy::new(0, 10),
        Xy::new(9, 5),
        Xy::new(0, 8),
    ];

    #[test]
    fn each_refused_stone_is_named_as_the_page_names_points() {
        let mut stones = DOUBLE_THREE.to_vec();
        stones.push(Xy::new(9, 7));
        let e = position(15, Rule::Renju, &stones).unwrap_err();
        assert_eq!(
            position_line(&e, 15),
            "stone 9: j8 is forbidden to black under renju: double three"
        );
        // Freestyle forbids nothing; white may take j8 under renju.
        assert!(position(15, Rule::Freestyle, &stones).is_ok());
        let mut white = DOUBLE_THREE[..7].to_vec();
        white.extend([Xy::new(9, 7)]);
        assert!(position(15, Rule::Renju, &white).is_ok());
        let taken = position(15, Rule::Freestyle, &[Xy::new(7, 7), Xy::new(7, 7)]).unwrap_err();
        assert_eq!(position_line(&taken, 15), "stone 2: h8 is already taken");
        let off = position(15, Rule::Freestyle, &[Xy::new(15, 0)]).unwrap_err();
        assert_eq!(
            position_line(&off, 15),
            "stone 1: point 15,0 is off the 15x15 board: columns are a to o and rows 1 to 15"
        );
    }

    #[test]
    fn a_position_is_one_board_with_its_stones_in_order() {
        let board = position(15, Rule::Renju, &DOUBLE_THREE).unwrap();
        assert_eq!(board.stones(), 8);
        assert_eq!(board.to_move(), Player::X);
        assert_eq!(board.forbidden(Pos::at(9, 7)), Some(Forbidden::DoubleThree));
        let five: Vec<Xy> = (0..5)
            .flat_map(|x| [Xy::new(x, 0), Xy::new(x, 2)])
            .collect();
        let over = position(15, Rule::Freestyle, &five[..9]).unwrap_err();
        assert_eq!(over, PositionError::Finished(9, Player::X));
    }

    #[test]
    fn the_rule_s_position_takes_stones_of_any_colour_in_the_order_put() {
        use Player::{O, X};
        let mut stones = DOUBLE_THREE.to_vec();
        stones.push(Xy::new(9, 7));
        let e = rule_position(15, Rule::Renju, &stones, None).unwrap_err();
        assert_eq!(
            position_line(&e, 15),
            "stone 9: j8 is forbidden to black under renju: double three"
        );
        // Black's four stones set up first, then white's: j8 is forbidden
        // to black whoever is to move, and refused as black's ninth stone.
        let blacks = [Xy::new(7, 7), Xy::new(8, 7), Xy::new(9, 6), Xy::new(9, 5)];
        let whites = [
            Xy::new(0, 14),
            Xy::new(0, 12),
            Xy::new(0, 10),
            Xy::new(0, 8),
        ];
        let set_up: Vec<Xy> = blacks.iter().chain(&whites).copied().collect();
        let colours = [X, X, X, X, O, O, O, O];
        let board = rule_position(15, Rule::Renju, &set_up, Some(&colours)).unwrap();
        assert_eq!(
            forbidden_to_black(&board),
            vec![(Xy::new(9, 7), Forbidden::DoubleThree)]
        );
        let mut more = set_up.clone();
        more.push(Xy::new(9, 7));
        let e =
            rule_position(15, Rule::Renju, &more, Some(&[X, X, X, X, O, O, O, O, X])).unwrap_err();
        assert!(
            position_line(&e, 15).starts_with("stone 9: j8 is forbidden"),
            "{e}"
        );
        // White may take it; taken points and fives are refused as ever.
        assert!(rule_position(15, Rule::Renju, &more, Some(&[X, X, X, X, O, O, O, O, O])).is_ok());
        let e = rule_position(
            15,
            Rule::Renju,
            &[Xy::new(7, 7), Xy::new(7, 7)],
            Some(&[X, O]),
        )
        .unwrap_err();
        assert_eq!(position_line(&e, 15), "stone 2: h8 is already taken");
        let five: Vec<Xy> = (0..5).map(|x| Xy::new(x, 0)).collect();
        let e = rule_position(15, Rule::Freestyle, &five, Some(&[X; 5])).unwrap_err();
        assert_eq!(e, PositionError::Finished(5, X));
        let e = rule_position(21, Rule::Freestyle, &[], None).unwrap_err();
        assert!(matches!(
            e,
            PositionError::Board(None, BoardError::Size(21))
        ));
    }

    #[test]
    fn a_game_is_checked_until_it_ends() {
        let at = |p: Xy| p.point(15).unwrap();
        let mut moves: Vec<Point> = DOUBLE_THREE.iter().copied().map(at).collect();
        moves.push(at(Xy::new(9, 7)));
        assert_eq!(
            replay(15, Rule::Renju, &moves),
            Err((
                9,
                StoneError::Forbidden {
                    x: 9,
                    y: 7,
                    why: Forbidden::DoubleThree
                }
            ))
        );
        // After a five, the moves are taken as they are.
        let mut five: Vec<Point> = (0..5)
            .flat_map(|x| [at(Xy::new(x, 0)), at(Xy::new(x, 2))])
            .collect();
        five.truncate(9);
        five.push(at(Xy::new(0, 0)));
        assert_eq!(replay(15, Rule::Renju, &five), Ok(()));
    }
}
