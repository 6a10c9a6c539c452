//! The engine's point: where a stone goes, as the index of the engine's
//! padded grid (as Rapfi has `Pos`).
//!
//! Every board size lays its points out on the same grid, [`STRIDE`] wide
//! with a padding of [`PAD`] walls around the largest board, so a point's
//! grid index names the same column and row on every board and the lines
//! through it are fixed steps ([`crate::board::DIRS`]). The board, the move
//! list, the history, the table, the search's answers and the analysis
//! speak [`Pos`]; the rest of the workspace speaks core's [`Point`], and
//! [`Pos::point`] and [`Pos::of_point`] are the one crossing between the
//! two. `(x, y)` is for the edges (protocols, pages, the command line):
//! [`Pos::xy`] and [`Pos::from_xy`].

use inarow_core::Point;

use crate::pattern::HALF;

/// Largest supported board side.
pub const MAX_SIZE: usize = 20;

/// Walls around the largest board: a line read four (five) steps past any
/// point stays on the grid.
pub const PAD: usize = HALF;
/// Width of the padded grid.
pub const STRIDE: usize = MAX_SIZE + 2 * PAD;
/// Points of the padded grid.
pub const CELLS: usize = STRIDE * STRIDE;

/// A point of the engine's grid: its index in two bytes, the same for
/// every board size. It costs what the index costs (`repr(transparent)`
/// over `u16`); a move list, a history and a line hold it as they held
/// the index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(transparent)]
pub struct Pos(u16);

impl Pos {
    /// The point of grid index `i` (unchecked: any index of the grid,
    /// walls included, as lines walked through the padding reach them).
    #[inline]
    pub const fn from_index(i: usize) -> Pos {
        debug_assert!(i < CELLS);
        Pos(i as u16)
    }

    /// The grid index, for tables laid out over the grid.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The point `delta` grid steps on (a line step of
    /// [`crate::board::DIRS`] times a distance): within the padding for a
    /// point of the board and up to [`PAD`] steps.
    #[inline]
    pub const fn step(self, delta: isize) -> Pos {
        Pos::from_index((self.0 as isize + delta) as usize)
    }

    /// The point at column `x`, row `y` (unchecked: the caller knows it is
    /// on the board; see [`Pos::from_xy`]).
    #[inline]
    pub const fn at(x: usize, y: usize) -> Pos {
        Pos::from_index((y + PAD) * STRIDE + x + PAD)
    }

    /// The point at column `x`, row `y` of a board `size` wide, or `None`
    /// when that is off it: the one reading of `(x, y)` at an edge.
    #[inline]
    pub const fn from_xy(x: usize, y: usize, size: usize) -> Option<Pos> {
        if x < size && y < size {
            Some(Pos::at(x, y))
        } else {
            None
        }
    }

    /// Column and row of a point of the board (unchecked: for a wall of
    /// the padding the answer means nothing; see [`Pos::xy_on`]).
    #[inline]
    pub const fn xy(self) -> (usize, usize) {
        let i = self.0 as usize;
        (i % STRIDE - PAD, i / STRIDE - PAD)
    }

    /// Column and row on a board `size` points a side, or `None` for a
    /// point off it (the padding, or past its side): a watcher names a
    /// search's moves with it without the board, which the search holds.
    #[inline]
    pub const fn xy_on(self, size: usize) -> Option<(usize, usize)> {
        let i = self.0 as usize;
        let (col, row) = (i % STRIDE, i / STRIDE);
        if col < PAD || row < PAD {
            return None;
        }
        let (x, y) = (col - PAD, row - PAD);
        if x < size && y < size {
            Some((x, y))
        } else {
            None
        }
    }

    /// Core's point for this point of a board `size` wide: where the
    /// engine meets records and core's games.
    #[inline]
    pub const fn point(self, size: usize) -> Point {
        let (x, y) = self.xy();
        Point::at(x, y, size)
    }

    /// The point of core's `point` on a board `size` wide, or `None` when
    /// the point is off that board.
    #[inline]
    pub const fn of_point(point: Point, size: usize) -> Option<Pos> {
        Pos::from_xy(point.col(size), point.row(size), size)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_point_costs_what_its_index_costs() {
        assert_eq!(std::mem::size_of::<Pos>(), 2);
        assert_eq!(std::mem::size_of::<[Pos; 400]>(), 800);
    }

    #[test]
    fn xy_points_and_indices_go_round() {
        for size in [5, 15, 20] {
            let mut seen = 0;
            for i in 0..CELLS {
                let p = Pos::from_index(i);
                assert_eq!(p.index(), i);
                let Some((x, y)) = p.xy_on(size) else {
                    continue;
                };
                seen += 1;
                assert_eq!(p.xy(), (x, y));
                assert_eq!(Pos::from_xy(x, y, size), Some(p));
                let point = p.point(size);
                assert_eq!(point.xy(size), (x, y));
                assert_eq!(Pos::of_point(point, size), Some(p));
            }
            assert_eq!(seen, size * size);
            assert_eq!(Pos::from_xy(size, 0, size), None);
            assert_eq!(Pos::from_xy(0, size, size), None);
        }
        // A core point past a smaller board's last is off it.
        assert_eq!(Pos::of_point(Point(225), 15), None);
    }
}
