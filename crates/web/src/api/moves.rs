//! `POST /api/moves`: gomoku moves written as text (`h8 i9 j10`, the brain
//! protocol's `7,7` pairs, move numbers like `1.`) read by core's
//! [`parse_moves`], so that the page's paste box and the rest of the
//! toolkit read them one way; a bad move is refused in one line naming it.
//! Given a rule, the moves are also a game under it: renju's forbidden
//! points are refused, so that a link to a position (the page's address)
//! holds only what its board would let be played.

use axum::Json;
use inarow_core::notation::{format_moves, parse_moves, point_name};
use inarow_core::{Point, Rule, Xy};
use serde::Deserialize;
use serde_json::json;

use super::{ApiError, Body};
use crate::gomoku::{SIZE, SIZES, position, stone_line};

/// The longest text read, in characters: a full 20x20 board with move
/// numbers (`400. t20 `) is under half of it.
pub const MAX_TEXT: usize = 8192;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Request {
    /// The board's side, 5 to 20 (15).
    #[serde(default = "fifteen")]
    size: usize,
    text: String,
    /// The rule the moves are played under, black first (`freestyle`, the
    /// default, `exact` or `renju`): only renju forbids a point.
    #[serde(default)]
    rule: Rule,
}

fn fifteen() -> usize {
    SIZE
}

/// The moves of `text` in order as `[x, y]` from the top left, and the
/// text as the page writes it; refused where a move is not a point of the
/// board or takes a point an earlier move took.
pub(super) async fn read(Body(body): Body<Request>) -> Result<Json<serde_json::Value>, ApiError> {
    let size = body.size;
    if !SIZES.contains(&size) {
        return Err(ApiError::bad(format!(
            "size must be {} to {}, not {size}",
            SIZES.start(),
            SIZES.end()
        )));
    }
    let chars = body.text.chars().count();
    if chars > MAX_TEXT {
        return Err(ApiError::bad(format!(
            "the moves are {chars} characters long; at most {MAX_TEXT} are read"
        )));
    }
    let moves =
        parse_moves(&unglued(&body.text), size).map_err(|e| ApiError::bad(e.to_string()))?;
    // A point taken twice is refused here, where the moves are numbered as
    // written, rather than as a position the board cannot hold.
    let mut taken = vec![None; size * size];
    for (n, p) in moves.iter().enumerate() {
        if let Some(first) = taken[p.index()].replace(n + 1) {
            return Err(ApiError::bad(format!(
                "move {}: {} is already taken by move {first}",
                n + 1,
                point_name(*p, size)
            )));
        }
    }
    forbidden_move(&moves, size, body.rule)?;
    let xy: Vec<Xy> = moves.iter().map(|p| p.to_xy(size)).collect();
    Ok(Json(json!({
        "size": size,
        "rule": body.rule.name(),
        "moves": xy,
        "text": format_moves(&moves, size),
    })))
}

/// `text` with the link's glued form of moves (`h8h9i9`: names run
/// together, as the page's address writes them) written apart (`h8 h9
/// i9`), so that core's reader takes it as it takes names; a word that is
/// not names run together is left as it is, for the reader to judge.
fn unglued(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 2);
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        match glued_names(word) {
            Some(names) if names.len() > 1 => out.push_str(&names.join(" ")),
            _ => out.push_str(word),
        }
        word.clear();
    };
    for c in text.chars() {
        if c.is_whitespace() || c == ',' || c == ';' {
            flush(&mut word, &mut out);
            out.push(c);
        } else {
            word.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}

/// The names run together in `word` (a letter, then one or two digits, and
/// again), or `None` where it is not only such names.
fn glued_names(word: &str) -> Option<Vec<&str>> {
    let bytes = word.as_bytes();
    let mut names = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let start = at;
        if !bytes[at].is_ascii_alphabetic() {
            return None;
        }
        at += 1;
        let digits = bytes[at..]
            .iter()
            .take(2)
            .take_while(|b| b.is_ascii_digit())
            .count();
        if digits == 0 {
            return None;
        }
        at += digits;
        names.push(&word[start..at]);
    }
    Some(names)
}

/// Refuses the first of black's moves (black plays first, then in turn)
/// that `rule` forbids when it is played, in the page's words. Once a line
/// ends the game, the moves after it are taken as they are, as the page's
/// board takes them (a record may go on past its end).
fn forbidden_move(moves: &[Point], size: usize, rule: Rule) -> Result<(), ApiError> {
    position::replay(size, rule, moves)
        .map_err(|(n, e)| ApiError::bad(format!("move {n}: {}", stone_line(e, size))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_run_together_are_written_apart() {
        assert_eq!(unglued("h8h9i9"), "h8 h9 i9");
        assert_eq!(unglued("H8I10j11, a1b2"), "H8 I10 j11, a1 b2");
        // Anything else is left for the reader to judge.
        for text in ["h8 i9", "7,7 8,6", "1. h8 2. i9", "h8x", "hh8", "h123", ""] {
            assert_eq!(unglued(text), text);
        }
    }
}
