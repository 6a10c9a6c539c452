//! Move generation: the points worth trying, with threats first.
//!
//! Far from the stones nothing happens, so only empty points within two king
//! steps of a stone are candidates. Threats narrow the list further: with a
//! five on offer only the five is played; against the opponent's five only
//! the block; against the opponent's flex-four point (an open three) only
//! our own fours and the points where the opponent makes a four (which
//! include every defence of the three).

use inarow_core::Player;

use crate::board::{Board, MAX_SIZE};
use crate::pattern::Threat;

/// A fixed-capacity list of moves with ordering scores: no allocation.
#[derive(Clone)]
pub struct MoveList {
    moves: [u16; MAX_SIZE * MAX_SIZE],
    scores: [i32; MAX_SIZE * MAX_SIZE],
    len: usize,
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList {
            moves: [0; MAX_SIZE * MAX_SIZE],
            scores: [0; MAX_SIZE * MAX_SIZE],
            len: 0,
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

    /// The grid index of move `k`.
    #[inline]
    pub fn get(&self, k: usize) -> usize {
        self.moves[k] as usize
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
    pub fn push(&mut self, m: usize, s: i32) {
        self.moves[self.len] = m as u16;
        self.scores[self.len] = s;
        self.len += 1;
    }

    /// Empties the list.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Drops the moves in `left_out`, unless none would be left.
    pub fn leave_out(&mut self, left_out: &[usize]) {
        if left_out.is_empty() || self.iter().all(|m| left_out.contains(&m)) {
            return;
        }
        let mut kept = 0;
        for k in 0..self.len {
            if !left_out.contains(&(self.moves[k] as usize)) {
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

    /// Sorts by score, highest first (insertion sort: lists are short and
    /// mostly ordered).
    pub fn sort(&mut self) {
        for i in 1..self.len {
            let (m, s) = (self.moves[i], self.scores[i]);
            let mut j = i;
            while j > 0 && self.scores[j - 1] < s {
                self.moves[j] = self.moves[j - 1];
                self.scores[j] = self.scores[j - 1];
                j -= 1;
            }
            self.moves[j] = m;
            self.scores[j] = s;
        }
    }

    /// The moves as grid indices.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.moves[..self.len].iter().map(|&m| m as usize)
    }
}

/// What the position forces on the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Free choice among the candidates.
    Free,
    /// The opponent threatens a flex four: fours and defences only.
    Defend,
    /// The opponent threatens a five: the block (or our own five) only.
    Block,
    /// We can make a five.
    Win,
}

/// The static ordering score of a point for the side to move: its value to
/// us plus most of its value to the opponent (taking their point).
#[inline]
pub fn point_score(b: &Board, i: usize, me: Player) -> i32 {
    b.point_value(i, me) * 2 + b.point_value(i, me.opponent())
}

/// Fills `out` with the moves worth trying for the side to move, each with
/// its static ordering score, and says what forced the choice.
pub fn generate(b: &Board, out: &mut MoveList) -> Mode {
    out.len = 0;
    let me = b.to_move();
    let opp = me.opponent();
    if b.stones() == 0 {
        let c = b.size() / 2;
        out.push(b.index(c, c), 0);
        return Mode::Free;
    }
    if b.threat_count(me, Threat::Five) > 0 {
        out.push(b.find_threat(me, Threat::Five).expect("a five point"), 0);
        return Mode::Win;
    }
    let mode = if b.threat_count(opp, Threat::Five) > 0 {
        Mode::Block
    } else if b.threat_count(opp, Threat::Flex4) > 0 {
        Mode::Defend
    } else {
        Mode::Free
    };
    for i in b.empty_points() {
        if !b.is_near(i) {
            continue;
        }
        let keep = match mode {
            Mode::Block => b.threat(i, opp) == Threat::Five,
            Mode::Defend => b.threat(i, me) >= Threat::Block4 || b.threat(i, opp) >= Threat::Block4,
            _ => true,
        };
        if keep {
            out.push(i, point_score(b, i, me));
        }
    }
    if out.is_empty() {
        // No stone near any empty point (e.g. only walls): any empty point.
        if let Some(i) = b.empty_points().next() {
            out.push(i, 0);
        }
    }
    mode
}
