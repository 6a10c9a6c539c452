//! Points of the board: where a stone goes.

use std::fmt;

/// A point of the board, stored as its row-major index (`row * cols + col`).
///
/// A point means nothing without the board's width; games convert with
/// [`Point::at`], [`Point::row`] and [`Point::col`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point(pub u16);

impl Point {
    /// The point at `row`, `col` on a board `cols` wide.
    #[inline]
    pub const fn at(row: usize, col: usize, cols: usize) -> Point {
        Point((row * cols + col) as u16)
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
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}
