//! `POST /api/position`: what the rule says about a position, without the
//! engine: the side to move and black's forbidden points under renju,
//! asked by the analysis board on every change and before a stone is put,
//! and for each line of a record loaded under renju. The stones come black
//! first and in turn, or each with its colour (a position set up, a record's
//! set-up stones); every stone is checked as it is put, with core's one
//! check, and a refusal names the point as the page does (`j8`).

use axum::Json;
use inarow_core::{Player, Rule, Xy};
use inarow_engine::analysis;
use serde::Deserialize;
use serde_json::json;

use super::{ApiError, Body};
use crate::gomoku::SIZE;
use crate::gomoku::position::{forbidden_to_black, rule_position};
use crate::gomoku::position_line;

/// A stone's colour as the page names it.
#[derive(Clone, Copy, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Colour {
    Black,
    White,
}

impl Colour {
    fn player(self) -> Player {
        match self {
            Colour::Black => Player::X,
            Colour::White => Player::O,
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Request {
    #[serde(default = "fifteen")]
    size: usize,
    /// `freestyle` (the default), `exact` or `renju`.
    #[serde(default)]
    rule: Rule,
    /// `[x, y]` from the top left, in the order put.
    stones: Vec<Xy>,
    /// Each stone's colour, in order; none: black first, then in turn.
    #[serde(default)]
    colours: Option<Vec<Colour>>,
    /// The colour to put the next stone: black's forbidden points are
    /// listed when it is black (none: the side to move by the count).
    #[serde(default)]
    next: Option<Colour>,
}

fn fifteen() -> usize {
    SIZE
}

/// The side to move (by the count: fewer stones moves, black on equal
/// counts) and, when the next stone is black's under renju, black's
/// forbidden points with why; refused in one line for a stone that cannot
/// stand where it was put, a five on the board or a full board.
pub(super) async fn position(
    Body(body): Body<Request>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let colours: Option<Vec<Player>> = match &body.colours {
        Some(c) if c.len() != body.stones.len() => {
            return Err(ApiError::bad(format!(
                "colours: {} given for {} stones: give one a stone, or none",
                c.len(),
                body.stones.len()
            )));
        }
        Some(c) => Some(c.iter().map(|c| c.player()).collect()),
        None => None,
    };
    let board = rule_position(body.size, body.rule, &body.stones, colours.as_deref())
        .map_err(|e| ApiError::bad(position_line(&e, body.size)))?;
    let to_move = board.turn_by_count();
    let next = body.next.map_or(to_move, Colour::player);
    let forbidden: Vec<_> = if next == Player::X {
        forbidden_to_black(&board)
            .into_iter()
            .map(|(point, why)| json!({"point": point, "why": why.to_string()}))
            .collect()
    } else {
        Vec::new()
    };
    Ok(Json(json!({
        "size": body.size,
        "rule": body.rule.name(),
        "to_move": analysis::colour_name(to_move),
        "forbidden": forbidden,
    })))
}
