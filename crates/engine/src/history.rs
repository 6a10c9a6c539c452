//! Move-ordering memory of one search: which moves caused cuts, by colour
//! and point, and which move refuted each of the opponent's.

use inarow_core::Player;

use crate::board::CELLS;
use crate::movepick::Move;
use crate::pos::Pos;

/// Move-ordering memory of one search: butterfly history by colour and
/// point, with gravity so scores stay within `[-HISTORY_MAX, HISTORY_MAX]`,
/// and the counter move to each move.
pub struct History {
    scores: [Vec<i32>; 2],
    counters: [Vec<Option<Move>>; 2],
}

/// The bound of history scores.
pub const HISTORY_MAX: i32 = 16_384;

impl Default for History {
    fn default() -> History {
        History {
            scores: [vec![0; CELLS], vec![0; CELLS]],
            counters: [vec![None; CELLS], vec![None; CELLS]],
        }
    }
}

impl History {
    /// The history score of `colour` playing `i`.
    #[inline]
    pub fn score(&self, colour: Player, i: Pos) -> i32 {
        self.scores[colour.index()][i.index()]
    }

    /// Moves the score of `colour` playing `i` by `bonus` (negative: a
    /// penalty), less as it nears the bound.
    #[inline]
    pub fn update(&mut self, colour: Player, i: Pos, bonus: i32) {
        let h = &mut self.scores[colour.index()][i.index()];
        let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        *h += bonus - *h * bonus.abs() / HISTORY_MAX;
    }

    /// The move that last refuted `colour`'s opponent playing `previous`.
    #[inline]
    pub fn counter(&self, colour: Player, previous: Pos) -> Option<Pos> {
        self.counters[colour.index()][previous.index()].map(Move::pos)
    }

    /// Remembers `reply` as `colour`'s refutation of `previous`.
    #[inline]
    pub fn set_counter(&mut self, colour: Player, previous: Pos, reply: Pos) {
        self.counters[colour.index()][previous.index()] = Some(Move::at(reply));
    }

    /// Shrinks every score (between moves of a game: old lessons count less).
    pub fn age(&mut self) {
        for s in &mut self.scores {
            for v in s.iter_mut() {
                *v /= 4;
            }
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        *self = History::default();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn history_stays_within_its_bound() {
        let mut h = History::default();
        let at = Pos::from_index;
        for _ in 0..1000 {
            h.update(Player::X, at(5), 4000);
        }
        assert!(h.score(Player::X, at(5)) <= HISTORY_MAX);
        for _ in 0..1000 {
            h.update(Player::X, at(5), -4000);
        }
        assert!(h.score(Player::X, at(5)) >= -HISTORY_MAX);
        h.set_counter(Player::O, at(7), at(9));
        assert_eq!(h.counter(Player::O, at(7)), Some(at(9)));
        assert_eq!(h.counter(Player::X, at(7)), None);
    }
}
