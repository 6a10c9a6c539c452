//! Move ordering hooks: which moves a search tries first.
//!
//! Alpha-beta prunes most when the best move comes first. A [`MoveOrder`]
//! gives each candidate a score; the search adds its own knowledge (the
//! table's best move, killer moves, history) on top.

use inarow_core::{Game, Point};

/// Chooses and ranks the moves a search tries at a position.
pub trait MoveOrder<G: Game> {
    /// Called once before a search, to size tables for this board.
    fn prepare(&mut self, _game: &G) {}

    /// Pushes the moves worth searching (by default every legal move).
    /// Games with large boards narrow this down, e.g. to points near stones.
    fn candidates(&mut self, game: &G, out: &mut Vec<(Point, i32)>) {
        out.extend(game.moves().map(|m| (m, 0)));
    }

    /// A static score for `mv` in `game`: higher is tried first.
    fn score(&mut self, game: &G, mv: Point) -> i32;
}

/// Tries moves in row-major order: no knowledge at all.
#[derive(Clone, Copy, Debug, Default)]
pub struct RowMajor;

impl<G: Game> MoveOrder<G> for RowMajor {
    fn score(&mut self, _game: &G, mv: Point) -> i32 {
        -(mv.index() as i32)
    }
}

/// Tries first the points that lie on the most possible winning lines: in
/// tic-tac-toe the centre (4 lines), then the corners (3), then the edges (2).
#[derive(Clone, Debug, Default)]
pub struct LinesThrough {
    lines: Vec<i32>,
}

impl LinesThrough {
    /// Number of k-long windows of the board that contain `(row, col)`.
    pub fn count(rows: usize, cols: usize, k: usize, row: usize, col: usize) -> i32 {
        let mut n = 0;
        for (dr, dc) in [(0isize, 1isize), (1, 0), (1, 1), (1, -1)] {
            // Windows start at offsets 0..k back along the direction.
            for back in 0..k as isize {
                let (r0, c0) = (row as isize - back * dr, col as isize - back * dc);
                let (r1, c1) = (r0 + (k as isize - 1) * dr, c0 + (k as isize - 1) * dc);
                let inside =
                    |r: isize, c: isize| r >= 0 && c >= 0 && r < rows as isize && c < cols as isize;
                if inside(r0, c0) && inside(r1, c1) {
                    n += 1;
                }
            }
        }
        n
    }
}

impl<G: Game> MoveOrder<G> for LinesThrough {
    fn prepare(&mut self, game: &G) {
        if self.lines.len() != game.points() {
            let (rows, cols, k) = (game.rows(), game.cols(), game.k());
            self.lines = (0..game.points())
                .map(|i| Self::count(rows, cols, k, i / cols, i % cols))
                .collect();
        }
    }

    #[inline]
    fn score(&mut self, _game: &G, mv: Point) -> i32 {
        self.lines.get(mv.index()).copied().unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tictactoe_lines() {
        let counts: Vec<i32> = (0..9)
            .map(|i| LinesThrough::count(3, 3, 3, i / 3, i % 3))
            .collect();
        assert_eq!(counts, vec![3, 2, 3, 2, 4, 2, 3, 2, 3]);
        // Every one of gomoku's 15x15 five-windows is counted 5 times.
        let total: i32 = (0..225)
            .map(|i| LinesThrough::count(15, 15, 5, i / 15, i % 15))
            .sum();
        let windows = 2 * 15 * 11 + 2 * 11 * 11;
        assert_eq!(total, 5 * windows);
    }
}
