//! Move picking for the selective search: which moves a node tries and in
//! what order.
//!
//! What the opponent threatens decides the moves first. Against a five to
//! come only the block is played; against an open three (a point where the
//! opponent makes a flex four or two fours) only our own fours and exactly
//! the moves after which that point is gone; against a four-three or
//! three-three when we have no four to make, only the moves that stop every
//! such fork or give us a four to make. Every other move loses by force
//! ([`crate::eval::four_three_wins`], [`crate::eval::three_three_wins`]),
//! which is what lets the search prune hard elsewhere.
//!
//! Otherwise every empty point near the stones is a candidate, ordered by
//! the table move, then the point's class (what a stone there makes for us
//! and what it takes from the opponent: a four with a two is not a plain
//! four, a three with a two or two twos set up the next threat), killers,
//! the counter move and the history of cuts.

use std::num::NonZeroU16;

use inarow_core::Player;

use crate::board::{Board, MAX_SIZE};
use crate::eval::no_four_to_come;
use crate::pattern::Threat;
use crate::pos::Pos;

/// A move the search remembers (a killer, the move of a ply, a line, a
/// counter move): its [`Pos`] in two bytes, none of them set aside to mean
/// "no move", so that an absent move is `None` (`Option<Move>` is two
/// bytes too, where `Option<Pos>` is four).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move(NonZeroU16);

impl Move {
    /// The move onto `p`.
    #[inline]
    pub fn at(p: Pos) -> Move {
        debug_assert!(p.index() < usize::from(u16::MAX));
        Move(NonZeroU16::MIN.saturating_add(p.index() as u16))
    }

    /// The move's point.
    #[inline]
    pub fn pos(self) -> Pos {
        Pos::from_index(usize::from(self.0.get() - 1))
    }

    /// The move's two bytes, never 0 (the table packs them in a word).
    #[inline]
    pub(crate) fn raw(self) -> u16 {
        self.0.get()
    }

    /// The move of [`Move::raw`]'s two bytes; 0 is no move.
    #[inline]
    pub(crate) fn from_raw(raw: u16) -> Option<Move> {
        NonZeroU16::new(raw).map(Move)
    }
}

/// A fixed-capacity list of moves with ordering scores: no allocation.
#[derive(Clone)]
pub struct MoveList {
    moves: [Pos; MAX_SIZE * MAX_SIZE],
    scores: [i32; MAX_SIZE * MAX_SIZE],
    len: usize,
    /// Room for [`MoveList::sort`]'s keys, so that sorting allocates
    /// nothing and clears no array of its own.
    keys: [u64; MAX_SIZE * MAX_SIZE],
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList {
            moves: [Pos::from_index(0); MAX_SIZE * MAX_SIZE],
            scores: [0; MAX_SIZE * MAX_SIZE],
            len: 0,
            keys: [0; MAX_SIZE * MAX_SIZE],
        }
    }
}

impl MoveList {
    /// Number of moves.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True if there are no moves.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Move `k`.
    #[inline]
    pub fn get(&self, k: usize) -> Pos {
        self.moves[k]
    }

    /// The ordering score of move `k`.
    #[inline]
    pub fn score(&self, k: usize) -> i32 {
        self.scores[k]
    }

    /// Sets the ordering score of move `k`.
    #[inline]
    pub fn set_score(&mut self, k: usize, s: i32) {
        self.scores[k] = s;
    }

    /// Appends a move with its ordering score.
    #[inline]
    pub fn push(&mut self, m: Pos, s: i32) {
        self.moves[self.len] = m;
        self.scores[self.len] = s;
        self.len += 1;
    }

    /// Empties the list.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Drops the moves in `left_out`, unless none would be left.
    pub fn leave_out(&mut self, left_out: &[Pos]) {
        if left_out.is_empty() || self.iter().all(|m| left_out.contains(&m)) {
            return;
        }
        let mut kept = 0;
        for k in 0..self.len {
            if !left_out.contains(&self.moves[k]) {
                self.moves[kept] = self.moves[k];
                self.scores[kept] = self.scores[k];
                kept += 1;
            }
        }
        self.len = kept;
    }

    /// Keeps only the first `n` moves.
    pub fn truncate(&mut self, n: usize) {
        self.len = self.len.min(n);
    }

    /// Sorts by score, highest first, moves of equal score in the order
    /// they were in (a stable sort). Each move becomes one key, its score
    /// (made unsigned, order kept) above its place in the list (reversed,
    /// so that the earlier comes first among equals) above the move: the
    /// keys differ, so an unstable sort of them (no allocation) orders as
    /// a stable sort of the moves, and in `n log n` where the insertion
    /// sort that came before took `n²` moves on a list of sixty (issue 55).
    pub fn sort(&mut self) {
        let n = self.len;
        for k in 0..n {
            let score = (self.scores[k] as u32 ^ 1 << 31) as u64;
            let place = (MAX_SIZE * MAX_SIZE - 1 - k) as u64;
            self.keys[k] = score << 32 | place << 16 | self.moves[k].index() as u64;
        }
        self.keys[..n].sort_unstable_by(|a, b| b.cmp(a));
        for k in 0..n {
            let key = self.keys[k];
            self.moves[k] = Pos::from_index(key as u16 as usize);
            self.scores[k] = ((key >> 32) as u32 ^ 1 << 31) as i32;
        }
    }

    /// The moves, in list order.
    pub fn iter(&self) -> impl Iterator<Item = Pos> + '_ {
        self.moves[..self.len].iter().copied()
    }
}

/// What a node must answer before it may choose freely.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Nothing forcing: any candidate.
    Free,
    /// The opponent makes five on this point next unless it is taken.
    Five(Pos),
    /// The opponent has a flex-four point (an open three or a double four).
    Three,
    /// The opponent has a four-three (or three-three) point and we have no
    /// four to make.
    Fork,
}

/// What `b`'s side to move must answer; `three_three` counts the
/// opponent's three-three points as forks. Call it where no outcome is
/// decided yet (no five for the mover, no two fives against it).
#[inline]
pub fn answer(b: &Board, three_three: bool) -> Answer {
    let me = b.to_move();
    let opp = me.opponent();
    if b.threat_count(opp, Threat::Five) > 0 {
        let f = b
            .find_threat(opp, Threat::Five)
            .expect("a counted five point");
        return Answer::Five(f);
    }
    // Under renju black's forbidden points threaten nothing.
    if b.has_threat(opp, Threat::Flex4) {
        return Answer::Three;
    }
    if (b.has_threat(opp, Threat::Four3) || (three_three && b.has_threat(opp, Threat::Three3)))
        && no_four_to_come(b, me)
    {
        return Answer::Fork;
    }
    Answer::Free
}

pub use crate::pattern::class;

/// The class of empty point `i` for `colour` (see [`mod@class`]).
#[inline]
pub fn class(b: &Board, i: Pos, colour: Player) -> u8 {
    b.class(i, colour)
}

/// True if a stone on `i` neither sets up a threat of the side to move nor
/// stops a three of the opponent's: the moves that pruning may skip.
#[inline]
pub fn is_quiet(b: &Board, i: Pos) -> bool {
    let me = b.to_move();
    class(b, i, me) < class::SETUP && class(b, i, me.opponent()) < class::FLEX3
}

/// True if a stone on `i` makes an open three or more for the side to
/// move, or stops a fork point of the opponent's: the moves that no move
/// count prunes, since what they force is decided within a few plies.
#[inline]
pub fn is_forcing(b: &Board, i: Pos) -> bool {
    let me = b.to_move();
    class(b, i, me) >= class::FLEX3 || class(b, i, me.opponent()) >= class::THREE3
}

/// Fills `out` with the moves of a node that must give `answer` (every
/// candidate when it is [`Answer::Free`]), unordered: the search orders
/// them by its own numbers. Under renju black's forbidden points are left
/// out (a five to block on one leaves no move: the node is lost). A
/// defence is tested on the threat counts a stone would leave
/// ([`Board::threat_after`]), without playing it.
pub fn generate(b: &Board, answer: Answer, out: &mut MoveList) {
    out.clear();
    let me = b.to_move();
    let opp = me.opponent();
    if b.stones() == 0 {
        let c = b.size() / 2;
        out.push(Pos::at(c, c), 0);
        return;
    }
    match answer {
        Answer::Five(f) => {
            if !b.is_forbidden_to(f, me) {
                out.push(f, 0);
            }
        }
        Answer::Free => {
            for k in 0..b.points().len() {
                let i = b.points()[k];
                if b.is_empty(i) && b.is_near(i) && !b.is_forbidden_to(i, me) {
                    out.push(i, 0);
                }
            }
            if out.is_empty() {
                // Stones nowhere near (only walls): any empty point.
                if let Some(i) = b.empty_points().find(|&i| !b.is_forbidden_to(i, me)) {
                    out.push(i, 0);
                }
            }
        }
        Answer::Three => {
            // Only our fours and the opponent's four points can answer:
            // read from the board's sets, in board order (issue 55).
            for i in b.any_four_points() {
                if !b.is_near(i) || b.is_forbidden_to(i, me) {
                    continue;
                }
                let own_four = b.threat(i, me) >= Threat::Block4;
                if own_four || !b.threat_after(i, opp, &[Threat::Flex4]) {
                    out.push(i, 0);
                }
            }
        }
        Answer::Fork => {
            for k in 0..b.points().len() {
                let i = b.points()[k];
                // Not only near points: a three of ours (a four to come)
                // can reach three points from the nearest stone.
                if !b.is_empty(i)
                    || (b.threat(i, me) < Threat::Block3 && b.threat(i, opp) < Threat::Block3)
                    || b.is_forbidden_to(i, me)
                {
                    continue;
                }
                // Read off what the stone would leave, without playing it.
                let defends = b.threat_after(i, me, &Threat::FOURS)
                    || !b.threat_after(i, opp, &[Threat::Flex4, Threat::Four3, Threat::Three3]);
                if defends {
                    out.push(i, 0);
                }
            }
        }
    }
}

/// The static ordering score of a point for the side to move: its value to
/// us plus most of its value to the opponent (taking their point).
#[inline]
pub fn point_score(b: &Board, i: Pos, me: Player) -> i32 {
    b.point_value(i, me) * 2 + b.point_value(i, me.opponent())
}

/// The ordering bonus of point `i` for `me` by class: `setup` three
/// hundredths of the class's step bonus for what it makes for us, `block`
/// for what it takes from the opponent.
#[inline]
pub fn class_bonus(b: &Board, i: Pos, me: Player, setup: i32, block: i32) -> i32 {
    let own = CLASS_BONUS[class(b, i, me) as usize];
    let theirs = CLASS_BONUS[class(b, i, me.opponent()) as usize];
    (own * setup + theirs * block) / 300
}

/// Ordering bonus by class, on top of the point values.
const CLASS_BONUS: [i32; 16] = {
    let mut t = [0; 16];
    let mut c = class::TWO_TWO as usize;
    while c < 16 {
        // Set-ups and threats climb in steps of a hundred.
        t[c] = 100 * (c as i32 - class::TWO_TWO as i32 + 1);
        c += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sort_orders_as_a_stable_sort_by_score_highest_first() {
        use rand::{Rng, SeedableRng};
        use rand_chacha::ChaCha8Rng;
        let mut rng = ChaCha8Rng::seed_from_u64(55);
        for _ in 0..500 {
            let n = rng.random_range(0..=MAX_SIZE * MAX_SIZE);
            // Few distinct scores, so that ties are many; extremes too.
            let spread = [3, 50, i32::MAX][rng.random_range(0..3)];
            let mut list = MoveList::default();
            let mut want = Vec::new();
            for _ in 0..n {
                let m = Pos::from_index(rng.random_range(0..crate::pos::CELLS));
                let s = if spread == i32::MAX {
                    rng.random()
                } else {
                    rng.random_range(-spread..=spread)
                };
                list.push(m, s);
                want.push((m, s));
            }
            want.sort_by_key(|&(_, s)| std::cmp::Reverse(s));
            list.sort();
            let got: Vec<_> = (0..list.len())
                .map(|k| (list.get(k), list.score(k)))
                .collect();
            assert_eq!(got, want);
        }
    }

    #[test]
    fn a_move_keeps_its_point_and_none_costs_nothing() {
        use crate::board::CELLS;
        for i in [0, 1, 33, CELLS - 1] {
            let p = Pos::from_index(i);
            assert_eq!(Move::at(p).pos(), p);
        }
        assert_eq!(std::mem::size_of::<Option<Move>>(), 2);
    }

    #[test]
    fn set_ups_are_prunable_and_threats_are_not() {
        use Player::{O as WHITE, X as BLACK};
        // Black (to move): a two each way through (7,7), an open two
        // along row 10; white: three in a row on row 3.
        let mut b = Board::new(15).unwrap();
        for (x, y, s) in [
            (6, 7, BLACK),
            (7, 6, BLACK),
            (6, 10, BLACK),
            (7, 10, BLACK),
            (3, 3, WHITE),
            (4, 3, WHITE),
            (5, 3, WHITE),
        ] {
            b.place(Pos::at(x, y), s).unwrap();
        }
        b.set_to_move(Player::X);
        let at = Pos::at;
        // Two twos: a set-up, neither quiet nor forcing.
        assert_eq!(class(&b, at(7, 7), Player::X), class::TWO_TWO);
        assert!(!is_quiet(&b, at(7, 7)) && !is_forcing(&b, at(7, 7)));
        // An open three of ours, and the point of white's four: forcing.
        assert!(is_forcing(&b, at(8, 10)));
        assert!(is_forcing(&b, at(6, 3)));
        // Far from everything: quiet.
        assert!(is_quiet(&b, at(12, 12)) && !is_forcing(&b, at(12, 12)));
    }
}
