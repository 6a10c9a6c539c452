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

/// A point as records, part files and pages write it: column `x`, then
/// row `y`, from the top left. It is written as the array `[x, y]` (as the
/// `[usize; 2]` and `[u8; 2]` it replaces were), so files and JSON keep
/// their bytes; unlike [`Point`] it means the same on every board size,
/// and may name a point off the board (a record or a page may).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Xy {
    /// The column (0 is the left).
    pub x: usize,
    /// The row (0 is the top).
    pub y: usize,
}

impl Xy {
    /// The point at column `x`, row `y`.
    #[inline]
    pub const fn new(x: usize, y: usize) -> Xy {
        Xy { x, y }
    }

    /// The point of a square board `size` wide, or `None` when it is off
    /// that board.
    #[inline]
    pub const fn point(self, size: usize) -> Option<Point> {
        Point::from_xy(self.x, self.y, size)
    }
}

impl Point {
    /// The point as records and pages write it, on a board `cols` wide.
    #[inline]
    pub const fn to_xy(self, cols: usize) -> Xy {
        Xy::new(self.col(cols), self.row(cols))
    }
}

impl From<(usize, usize)> for Xy {
    fn from((x, y): (usize, usize)) -> Xy {
        Xy { x, y }
    }
}

impl From<Xy> for (usize, usize) {
    fn from(p: Xy) -> (usize, usize) {
        (p.x, p.y)
    }
}

impl fmt::Display for Xy {
    /// `x,y`, as protocols and messages write a point.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.x, self.y)
    }
}

impl serde::Serialize for Xy {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        // A tuple of two, as serde writes `[usize; 2]`.
        use serde::ser::SerializeTuple;
        let mut t = serializer.serialize_tuple(2)?;
        t.serialize_element(&self.x)?;
        t.serialize_element(&self.y)?;
        t.end()
    }
}

impl<'de> serde::Deserialize<'de> for Xy {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Xy, D::Error> {
        /// Reads `[x, y]` as serde reads `[usize; 2]`, with its words on
        /// a short array, so a refused file is refused as before.
        struct Pair;
        impl<'de> serde::de::Visitor<'de> for Pair {
            type Value = Xy;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an array of length 2")
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Xy, A::Error> {
                let x = seq
                    .next_element()?
                    .ok_or_else(|| serde::de::Error::invalid_length(0, &self))?;
                let y = seq
                    .next_element()?
                    .ok_or_else(|| serde::de::Error::invalid_length(1, &self))?;
                Ok(Xy { x, y })
            }
        }
        deserializer.deserialize_tuple(2, Pair)
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
            assert_eq!(Point(i).to_xy(15).point(15), Some(Point(i)));
        }
        assert_eq!(Xy::new(15, 0).point(15), None);
    }

    #[test]
    fn xy_is_written_and_read_as_the_array_it_replaces() {
        let p = Xy::new(3, 11);
        let text = serde_json::to_string(&p).unwrap();
        assert_eq!(text, serde_json::to_string(&[3usize, 11]).unwrap());
        assert_eq!(text, "[3,11]");
        assert_eq!(serde_json::from_str::<Xy>(&text).unwrap(), p);
        // Refusals word as `[usize; 2]`'s did.
        for bad in ["[3]", "[3,11,2]", "[-1,2]", "{\"x\":1}", "[]"] {
            let mine = serde_json::from_str::<Xy>(bad).unwrap_err().to_string();
            let was = serde_json::from_str::<[usize; 2]>(bad)
                .unwrap_err()
                .to_string();
            assert_eq!(mine, was, "{bad}");
        }
    }
}
