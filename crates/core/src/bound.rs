//! What a stored search score says about the true value: one [`Bound`]
//! for every alpha-beta search of the workspace (the generic searches of
//! `inarow-agents` and the gomoku engine's), each with a table of its own.

/// What a stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The exact value.
    Exact,
    /// The value is at least this (the search failed high).
    Lower,
    /// The value is at most this (the search failed low).
    Upper,
}

impl Bound {
    /// What `score` says about the true value, when the search that found it
    /// started with the window `alpha..beta`.
    #[inline]
    pub fn of(score: i32, alpha: i32, beta: i32) -> Bound {
        if score >= beta {
            Bound::Lower
        } else if score > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }

    /// `score` itself, when a result of this bound settles the window
    /// `alpha..beta` without searching again (its depth being enough).
    #[inline]
    pub fn settles(self, score: i32, alpha: i32, beta: i32) -> Option<i32> {
        match self {
            Bound::Exact => Some(score),
            Bound::Lower if score >= beta => Some(score),
            Bound::Upper if score <= alpha => Some(score),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bound_settles_only_the_windows_it_decides() {
        // Exact always; a lower bound at or above beta; an upper bound at
        // or below alpha; nothing else.
        assert_eq!(Bound::Exact.settles(5, 10, 20), Some(5));
        assert_eq!(Bound::Lower.settles(20, 10, 20), Some(20));
        assert_eq!(Bound::Lower.settles(19, 10, 20), None);
        assert_eq!(Bound::Upper.settles(10, 10, 20), Some(10));
        assert_eq!(Bound::Upper.settles(11, 10, 20), None);
        for (score, alpha, beta) in [(3, 0, 9), (-4, -4, 8), (12, 1, 12)] {
            let bound = Bound::of(score, alpha, beta);
            assert_eq!(bound.settles(score, alpha, beta), Some(score));
        }
    }
}
