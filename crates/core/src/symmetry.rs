//! The 8 symmetries of the square (the dihedral group D4).
//!
//! A symmetry moves every point of a square board to another point. Boards
//! that are images of each other under a symmetry are the same position for
//! play, which lets MENACE share one matchbox and search share one table entry.

use std::fmt;

/// One of the 8 symmetries of a square board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Symmetry {
    /// Leaves every point where it is.
    Identity,
    /// A quarter turn clockwise.
    Rotate90,
    /// A half turn.
    Rotate180,
    /// A quarter turn anticlockwise.
    Rotate270,
    /// Mirror left and right (columns reversed).
    FlipHorizontal,
    /// Mirror top and bottom (rows reversed).
    FlipVertical,
    /// Mirror in the main diagonal (top-left to bottom-right).
    Transpose,
    /// Mirror in the other diagonal (top-right to bottom-left).
    AntiTranspose,
}

impl Symmetry {
    /// All 8 symmetries, the identity first.
    pub const ALL: [Symmetry; 8] = [
        Symmetry::Identity,
        Symmetry::Rotate90,
        Symmetry::Rotate180,
        Symmetry::Rotate270,
        Symmetry::FlipHorizontal,
        Symmetry::FlipVertical,
        Symmetry::Transpose,
        Symmetry::AntiTranspose,
    ];

    /// Where `(row, col)` goes on an `n` x `n` board.
    #[inline]
    pub const fn apply(self, row: usize, col: usize, n: usize) -> (usize, usize) {
        let last = n - 1;
        match self {
            Symmetry::Identity => (row, col),
            Symmetry::Rotate90 => (col, last - row),
            Symmetry::Rotate180 => (last - row, last - col),
            Symmetry::Rotate270 => (last - col, row),
            Symmetry::FlipHorizontal => (row, last - col),
            Symmetry::FlipVertical => (last - row, col),
            Symmetry::Transpose => (col, row),
            Symmetry::AntiTranspose => (last - col, last - row),
        }
    }

    /// The symmetry that applies `self` first and then `next`.
    pub fn then(self, next: Symmetry) -> Symmetry {
        // A symmetry of the square is fixed by where it sends two
        // neighbouring corner points, so compare those on a 3 x 3 board.
        let probe = |s: Symmetry| [s.apply(0, 0, 3), s.apply(0, 1, 3)];
        let want = [
            {
                let (r, c) = self.apply(0, 0, 3);
                next.apply(r, c, 3)
            },
            {
                let (r, c) = self.apply(0, 1, 3);
                next.apply(r, c, 3)
            },
        ];
        Symmetry::ALL
            .into_iter()
            .find(|&s| probe(s) == want)
            .expect("D4 is closed under composition")
    }

    /// The symmetry that undoes `self`.
    pub fn inverse(self) -> Symmetry {
        Symmetry::ALL
            .into_iter()
            .find(|&s| self.then(s) == Symmetry::Identity)
            .expect("every symmetry has an inverse")
    }
}

impl fmt::Display for Symmetry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = match self {
            Symmetry::Identity => "identity",
            Symmetry::Rotate90 => "rotate 90",
            Symmetry::Rotate180 => "rotate 180",
            Symmetry::Rotate270 => "rotate 270",
            Symmetry::FlipHorizontal => "flip horizontal",
            Symmetry::FlipVertical => "flip vertical",
            Symmetry::Transpose => "transpose",
            Symmetry::AntiTranspose => "anti-transpose",
        };
        f.write_str(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn group_laws() {
        for a in Symmetry::ALL {
            assert_eq!(a.then(Symmetry::Identity), a);
            assert_eq!(Symmetry::Identity.then(a), a);
            assert_eq!(a.then(a.inverse()), Symmetry::Identity);
            for b in Symmetry::ALL {
                for c in Symmetry::ALL {
                    assert_eq!(a.then(b).then(c), a.then(b.then(c)));
                }
                // Composition agrees with applying one after the other.
                for n in [3usize, 4, 15] {
                    for r in 0..n {
                        for col in 0..n {
                            let (r1, c1) = a.apply(r, col, n);
                            assert_eq!(b.apply(r1, c1, n), a.then(b).apply(r, col, n));
                        }
                    }
                }
            }
        }
        assert_eq!(
            Symmetry::Rotate90.then(Symmetry::Rotate90),
            Symmetry::Rotate180
        );
        assert_eq!(Symmetry::Rotate90.inverse(), Symmetry::Rotate270);
    }

    #[test]
    fn all_eight_are_distinct_permutations() {
        let images: Vec<Vec<(usize, usize)>> = Symmetry::ALL
            .iter()
            .map(|s| (0..9).map(|i| s.apply(i / 3, i % 3, 3)).collect())
            .collect();
        for i in 0..8 {
            let mut sorted = images[i].clone();
            sorted.sort();
            sorted.dedup();
            assert_eq!(sorted.len(), 9, "{} is a permutation", Symmetry::ALL[i]);
            for j in 0..i {
                assert_ne!(images[i], images[j]);
            }
        }
    }
}
