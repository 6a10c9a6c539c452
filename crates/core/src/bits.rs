//! Bitboards: one bit per point, in row-major order.

/// Iterates the set bits of a `u16` bitboard, lowest first.
#[derive(Clone, Copy, Debug)]
pub struct Ones16(pub u16);

impl Iterator for Ones16 {
    type Item = crate::Point;

    #[inline]
    fn next(&mut self) -> Option<crate::Point> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as u16;
        self.0 &= self.0 - 1;
        Some(crate::Point(i))
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

/// How many 64-bit words a [`Bits400`] takes.
const WORDS: usize = crate::zobrist::MAX_POINTS.div_ceil(64);

/// A bitboard of up to 400 points (20 x 20).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Bits400(pub [u64; WORDS]);

impl Bits400 {
    /// No point set.
    pub const EMPTY: Bits400 = Bits400([0; WORDS]);

    /// The first `n` points set.
    pub const fn first(n: usize) -> Bits400 {
        let mut words = [0u64; WORDS];
        let mut i = 0;
        while i < WORDS {
            let lo = i * 64;
            words[i] = if n >= lo + 64 {
                u64::MAX
            } else if n > lo {
                (1u64 << (n - lo)) - 1
            } else {
                0
            };
            i += 1;
        }
        Bits400(words)
    }

    /// Whether point `i` is set.
    #[inline]
    pub const fn get(&self, i: usize) -> bool {
        self.0[i >> 6] >> (i & 63) & 1 != 0
    }

    /// Sets point `i`.
    #[inline]
    pub fn set(&mut self, i: usize) {
        self.0[i >> 6] |= 1 << (i & 63);
    }

    /// Clears point `i`.
    #[inline]
    pub fn clear(&mut self, i: usize) {
        self.0[i >> 6] &= !(1 << (i & 63));
    }

    /// Number of points set.
    #[inline]
    pub fn count(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Whether no point is set.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0 == [0; WORDS]
    }

    /// Points set in both.
    #[inline]
    pub fn and(self, other: Bits400) -> Bits400 {
        Bits400(std::array::from_fn(|i| self.0[i] & other.0[i]))
    }

    /// Points set in either.
    #[inline]
    pub fn or(self, other: Bits400) -> Bits400 {
        Bits400(std::array::from_fn(|i| self.0[i] | other.0[i]))
    }

    /// Points set in `self` but not in `other`.
    #[inline]
    pub fn and_not(self, other: Bits400) -> Bits400 {
        Bits400(std::array::from_fn(|i| self.0[i] & !other.0[i]))
    }

    /// The set points, lowest first.
    #[inline]
    pub fn ones(self) -> Ones400 {
        Ones400 {
            words: self.0,
            word: 0,
        }
    }
}

/// Iterates the set bits of a [`Bits400`], lowest first.
#[derive(Clone, Copy, Debug)]
pub struct Ones400 {
    words: [u64; WORDS],
    word: usize,
}

impl Iterator for Ones400 {
    type Item = crate::Point;

    #[inline]
    fn next(&mut self) -> Option<crate::Point> {
        while self.word < WORDS {
            let w = &mut self.words[self.word];
            if *w != 0 {
                let i = w.trailing_zeros() as usize + self.word * 64;
                *w &= *w - 1;
                return Some(crate::Point(i as u16));
            }
            self.word += 1;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_and_ones() {
        for n in [0, 1, 9, 63, 64, 65, 128, 225, 256, 257, 361, 400] {
            let b = Bits400::first(n);
            assert_eq!(b.count(), n);
            assert_eq!(
                b.ones().map(|p| p.index()).collect::<Vec<_>>(),
                (0..n).collect::<Vec<_>>()
            );
        }
    }

    #[test]
    fn set_get_clear() {
        let mut b = Bits400::EMPTY;
        for i in [0, 63, 64, 200, 255, 256, 399] {
            b.set(i);
            assert!(b.get(i));
        }
        assert_eq!(b.count(), 7);
        b.clear(64);
        assert!(!b.get(64));
        assert_eq!(b.count(), 6);
    }
}
