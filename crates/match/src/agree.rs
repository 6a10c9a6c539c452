//! How often a search picks a reference brain's move, position by
//! position (`inarow selfplay oracle` and `agree`): a measure of a search's
//! choices that, unlike games, is deterministic at a fixed node budget and
//! pairs two runs position by position, so a small difference is judged
//! on a few hundred positions instead of thousands of games.
//!
//! The positions come from a match's games (a c-gomoku-cli SGF), from the
//! end of the opening to six plies before the end (the last plies are
//! usually forced), shuffled by a seed; the file keeps, a line each, the
//! moves from black's first as `x,y` points (as openings files write them)
//! and, after ` | `, the reference's move.

use inarow_core::{Game, Mnk, Point, Rule};
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use crate::openings::content_lines;
use crate::sgf::SgfMoves;

/// Plies before a game's end that no position is taken from: the end of a
/// game is usually forced, no choice to compare.
pub const END_PLIES: usize = 6;

/// A position and the reference's move in it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    /// The stones in the order played, black first.
    pub moves: Vec<Point>,
    /// The reference brain's move.
    pub best: Point,
}

/// Every position of `games` from after the opening to [`END_PLIES`]
/// before the end, as the moves reaching it, in an order shuffled by
/// `seed` (the same on every machine).
pub fn candidates(games: &[SgfMoves], seed: u64) -> Vec<Vec<Point>> {
    let mut out = Vec::new();
    for g in games {
        let end = g.moves.len().saturating_sub(END_PLIES).max(g.opening);
        for i in g.opening..end {
            out.push(g.moves[..i].to_vec());
        }
    }
    out.shuffle(&mut ChaCha8Rng::seed_from_u64(seed));
    out
}

/// `x,y x,y ...` of `moves` on a board `size` wide.
fn points(moves: &[Point], size: usize) -> String {
    let mut s = String::new();
    for (i, p) in moves.iter().enumerate() {
        if i > 0 {
            s.push(' ');
        }
        s.push_str(&p.to_xy(size).to_string());
    }
    s
}

/// A position's line of the positions file (without its newline).
pub fn line_of(position: &Position, size: usize) -> String {
    format!(
        "{} | {}",
        points(&position.moves, size),
        position.best.to_xy(size)
    )
}

/// Why a line of a positions file is refused.
#[derive(Debug, thiserror::Error)]
pub enum PositionsError {
    /// The board cannot be had.
    #[error(transparent)]
    Board(#[from] inarow_core::ParseError),
    /// A line (from 1) that is no position.
    #[error("line {line}: {why}")]
    Line {
        /// The line, from 1.
        line: usize,
        /// What is wrong with it.
        why: String,
    },
    /// The file holds no position.
    #[error("no positions in it")]
    Empty,
}

/// One `x,y` point of a `size` board.
fn point_of(field: &str, size: usize) -> Result<Point, String> {
    field
        .split_once(',')
        .and_then(|(x, y)| Some((x.parse::<usize>().ok()?, y.parse::<usize>().ok()?)))
        .and_then(|(x, y)| Point::from_xy(x, y, size))
        .ok_or_else(|| format!("expected an x,y point of a {size}x{size} board, got {field:?}"))
}

/// The game after `moves`, or why they are not a game still to play.
pub fn replay(empty: &Mnk, moves: &[Point]) -> Result<Mnk, String> {
    let mut game = empty.clone();
    let size = game.cols();
    for &p in moves {
        if game.outcome().is_some() {
            return Err(format!("the game is over before {}", p.to_xy(size)));
        }
        game.play(p)
            .map_err(|e| format!("{}: {e}", p.to_xy(size)))?;
    }
    if game.outcome().is_some() {
        return Err("the game is over: no move to choose".to_string());
    }
    Ok(game)
}

/// Reads a positions file as [`line_of`] writes it, for a `size` board
/// under `rule`; blank lines and `#` comments are skipped. Each position
/// must be a game still to play and its move an empty point; the error
/// names the line.
pub fn read_positions(
    text: &str,
    size: usize,
    rule: Rule,
) -> Result<Vec<Position>, PositionsError> {
    let empty = Mnk::new(size, size, 5, rule)?;
    let mut out = Vec::new();
    for (n, line) in content_lines(text) {
        let at = |why: String| PositionsError::Line { line: n + 1, why };
        let (moves, best) = line
            .split_once('|')
            .ok_or_else(|| at("expected the moves, ' | ' and the move chosen".to_string()))?;
        let moves = moves
            .split_whitespace()
            .map(|f| point_of(f, size))
            .collect::<Result<Vec<_>, _>>()
            .map_err(at)?;
        let best = match best.split_whitespace().collect::<Vec<_>>()[..] {
            [one] => point_of(one, size).map_err(at)?,
            _ => return Err(at("expected one move after ' | '".to_string())),
        };
        let game = replay(&empty, &moves).map_err(at)?;
        if game.stone(best).is_some() {
            return Err(at(format!("the move {} is on a stone", best.to_xy(size))));
        }
        out.push(Position { moves, best });
    }
    if out.is_empty() {
        return Err(PositionsError::Empty);
    }
    Ok(out)
}

/// A marks file: a line each position, `1` where the brain chose the
/// reference's move, `0` where it did not.
pub fn marks_text(marks: &[bool]) -> String {
    marks
        .iter()
        .map(|&m| if m { "1\n" } else { "0\n" })
        .collect()
}

/// Reads a marks file of `count` positions; the error is one line,
/// naming the line where it can.
pub fn read_marks(text: &str, count: usize) -> Result<Vec<bool>, String> {
    let mut marks = Vec::with_capacity(count);
    for (n, line) in text.lines().enumerate() {
        match line.trim() {
            "" => {}
            "0" => marks.push(false),
            "1" => marks.push(true),
            other => {
                return Err(format!(
                    "line {}: expected 0 or 1, got {:?}",
                    n + 1,
                    other.chars().take(40).collect::<String>()
                ));
            }
        }
    }
    if marks.len() != count {
        return Err(format!(
            "{} marks for {count} positions (the marks of another positions file?)",
            marks.len()
        ));
    }
    Ok(marks)
}

/// Two runs on the same positions, position by position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Paired {
    /// Both chose the reference's move.
    pub both: u64,
    /// Only this run did.
    pub only_this: u64,
    /// Only the other did.
    pub only_other: u64,
    /// Neither did.
    pub neither: u64,
}

impl Paired {
    /// The pairs of `this` and `other`, of one length.
    pub fn of(this: &[bool], other: &[bool]) -> Paired {
        let mut p = Paired::default();
        for (&a, &b) in this.iter().zip(other) {
            match (a, b) {
                (true, true) => p.both += 1,
                (true, false) => p.only_this += 1,
                (false, true) => p.only_other += 1,
                (false, false) => p.neither += 1,
            }
        }
        p
    }

    /// McNemar's exact two-sided p: how likely a split of the discordant
    /// positions at least this uneven is if both runs agree equally often
    /// (1 with none discordant).
    pub fn p_value(&self) -> f64 {
        let n = self.only_this + self.only_other;
        let low = self.only_this.min(self.only_other);
        // The binomial(n, 1/2) tail up to `low`, in logarithms so that a
        // few thousand positions do not underflow each term.
        let mut ln_term = -(n as f64) * std::f64::consts::LN_2;
        let mut tail = 0.0;
        for k in 0..=low {
            tail += ln_term.exp();
            ln_term += ((n - k) as f64).ln() - ((k + 1) as f64).ln();
        }
        (2.0 * tail).min(1.0)
    }

    /// The normal approximation's z, `(b - c) / sqrt(b + c)`: positive
    /// when this run agrees more often; 0 with none discordant.
    pub fn z(&self) -> f64 {
        let n = self.only_this + self.only_other;
        if n == 0 {
            return 0.0;
        }
        (self.only_this as f64 - self.only_other as f64) / (n as f64).sqrt()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pt(x: usize, y: usize) -> Point {
        Point::from_xy(x, y, 15).unwrap()
    }

    #[test]
    fn candidates_run_from_the_opening_to_six_plies_before_the_end_in_a_seeded_order() {
        let game = |len: usize| SgfMoves {
            size: 15,
            moves: (0..len).map(|i| pt(i % 15, i / 15)).collect(),
            opening: 3,
        };
        let games = [game(12), game(8)];
        let a = candidates(&games, 7);
        // Plies 3..6 of the first game, none of the second (8 - 6 < 3).
        let mut lens: Vec<usize> = a.iter().map(Vec::len).collect();
        lens.sort();
        assert_eq!(lens, [3, 4, 5]);
        assert_eq!(a, candidates(&games, 7));
    }

    #[test]
    fn a_positions_file_reads_back_what_was_written() {
        let p = Position {
            moves: vec![pt(7, 7), pt(8, 6), pt(6, 8)],
            best: pt(9, 5),
        };
        let line = line_of(&p, 15);
        assert_eq!(line, "7,7 8,6 6,8 | 9,5");
        let read =
            read_positions(&format!("# a comment\n{line}\n\n"), 15, Rule::Freestyle).unwrap();
        assert_eq!(read, [p]);
    }

    #[test]
    fn a_bad_line_is_refused_with_its_number() {
        let bad = |text: &str| {
            read_positions(text, 15, Rule::Freestyle)
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            bad("7,7 | 8,8\n7,7 8,8"),
            "line 2: expected the moves, ' | ' and the move chosen"
        );
        assert_eq!(bad("7,7 | 7,7"), "line 1: the move 7,7 is on a stone");
        assert_eq!(
            bad("7,7 | 8,8 9,9"),
            "line 1: expected one move after ' | '"
        );
        assert_eq!(
            bad("7,7 15,1 | 8,8"),
            "line 1: expected an x,y point of a 15x15 board, got \"15,1\""
        );
        assert!(bad("7,7 7,7 | 8,8").starts_with("line 1: 7,7: "));
        assert_eq!(bad("# nothing\n"), "no positions in it");
    }

    #[test]
    fn marks_are_read_back_and_counted() {
        let marks = [true, false, true];
        assert_eq!(read_marks(&marks_text(&marks), 3).unwrap(), marks);
        assert_eq!(
            read_marks("1\n2\n", 2).unwrap_err(),
            "line 2: expected 0 or 1, got \"2\""
        );
        assert_eq!(
            read_marks("1\n", 2).unwrap_err(),
            "1 marks for 2 positions (the marks of another positions file?)"
        );
    }

    #[test]
    fn mcnemar_judges_the_discordant_positions() {
        let p = Paired::of(&[true, true, false, false], &[true, false, true, false]);
        assert_eq!(
            p,
            Paired {
                both: 1,
                only_this: 1,
                only_other: 1,
                neither: 1
            }
        );
        assert_eq!(p.p_value(), 1.0);
        assert_eq!(Paired::default().p_value(), 1.0);
        // 10 to 0: 2 / 2^10.
        let lopsided = Paired {
            only_this: 10,
            ..Paired::default()
        };
        assert!((lopsided.p_value() - 2.0 / 1024.0).abs() < 1e-12);
        assert!((lopsided.z() - 10f64.sqrt()).abs() < 1e-12);
        // 60 to 40: about 0.057 (exact binomial).
        let close = Paired {
            only_this: 60,
            only_other: 40,
            ..Paired::default()
        };
        assert!(
            (close.p_value() - 0.0569).abs() < 0.001,
            "{}",
            close.p_value()
        );
        let many = Paired {
            only_this: 3000,
            only_other: 2900,
            ..Paired::default()
        };
        assert!(
            many.p_value() > 0.1 && many.p_value() < 0.4,
            "{}",
            many.p_value()
        );
    }
}
