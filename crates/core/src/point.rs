//! Points of the board: where a stone goes.

use std::fmt;

/// A point of the board, stored as its row-major index (`row * cols + col`).
///
/// A point means nothing without the board's width; games convert with
/// [`Point::at`], [`Point::row`] and [`Point::col`]. Gomoku's protocols,
/// files and pages speak of `(x, y)` (column, then row, from the top left):
/// [`Point::xy`] and [`Point::from_xy`] are the one conversion between the two.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point(pub u16);

impl Point {
    /// The point at column `x`, row `y` on a board `cols` wide: the order
    /// of the engine's `Pos::at(x, y)` and of every protocol's `(x, y)`,
    /// so no caller swaps a pair by hand.
    #[inline]
    pub const fn at(x: usize, y: usize, cols: usize) -> Point {
        Point((y * cols + x) as u16)
    }

    /// The row-major index.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The row on a board `cols` wide (0 is the top).
    #[inline]
    pub const fn row(self, cols: usize) -> usize {
        self.0 as usize / cols
    }

    /// The column on a board `cols` wide (0 is the left).
    #[inline]
    pub const fn col(self, cols: usize) -> usize {
        self.0 as usize % cols
    }

    /// `(x, y)`, the column and the row, on a board `cols` wide.
    #[inline]
    pub const fn xy(self, cols: usize) -> (usize, usize) {
        (self.col(cols), self.row(cols))
    }

    /// The point at column `x`, row `y` of a square board `size` wide, or
    /// `None` when that is off the board.
    #[inline]
    pub const fn from_xy(x: usize, y: usize, size: usize) -> Option<Point> {
        if x < size && y < size {
            Some(Point::at(x, y, size))
        } else {
            None
        }
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn x_is_the_column_and_y_the_row() {
        let p = Point::from_xy(3, 1, 15).unwrap();
        assert_eq!(p, Point::at(3, 1, 15));
        assert_eq!(p.xy(15), (3, 1));
        assert_eq!(Point::from_xy(15, 0, 15), None);
        assert_eq!(Point::from_xy(0, 15, 15), None);
        for i in 0..225 {
            let (x, y) = Point(i).xy(15);
            assert_eq!(Point::from_xy(x, y, 15), Some(Point(i)));
        }
    }
}
