//! VCF: victory by continuous fours.
//!
//! The attacker plays only moves that make a four, so the defender's reply
//! is forced (block the five point); the attacker wins when it makes a flex
//! four, two fours, or a five. A defender's block that makes a four of its
//! own must be answered by the attacker's block, which must itself be a four.
//! Failed positions are remembered in a small hash table.

use std::time::Instant;

use inarow_core::Player;

use crate::board::{Board, DIRS};
use crate::pattern::{HALF, Threat};
use crate::pos::Pos;

const FAIL_SLOTS: usize = 1 << 16;

/// The most attacking moves a line may have: deeper than any VCF met in play.
pub const MAX_ATTACKS: usize = 40;

/// A VCF solver with its own node budget and failure cache.
pub struct Vcf {
    failed: Vec<(u64, usize)>,
    nodes: u64,
    /// The node budget of each search.
    budget: u64,
    /// The budget of the search under way (cut short at the deadline).
    limit: u64,
    line: Vec<Pos>,
    /// Whether the line found ends with the five itself (else with a move
    /// that wins two plies later: a flex four, a double four, a four
    /// renju's black cannot block).
    five: bool,
    deadline: Option<Instant>,
}

impl Vcf {
    /// A solver that searches at most `limit` nodes and [`MAX_ATTACKS`]
    /// attacking moves.
    pub fn new(limit: u64) -> Vcf {
        Vcf {
            failed: vec![(0, 0); FAIL_SLOTS],
            nodes: 0,
            budget: limit,
            limit,
            line: Vec::with_capacity(2 * MAX_ATTACKS + 2),
            five: false,
            deadline: None,
        }
    }

    /// Stops searching at `deadline` (a failure, as if the budget ran out).
    pub fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
    }

    /// Nodes searched by the last call.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Searches for a VCF of the side to move. On success returns the winning
    /// line (attacker and defender moves alternating, ending with the move
    /// that makes a five, flex four or double four).
    pub fn solve(&mut self, b: &mut Board) -> Option<Vec<Pos>> {
        self.wins(b).then(|| self.line.clone())
    }

    /// How many plies the last line found ([`Vcf::solve`]) takes to the
    /// five, counting the five: its length when it ends with the five,
    /// two more when it ends with a move that wins two plies later (a flex
    /// four or a double four: the defence, then the five). A made flex
    /// four is 3, a four-three 5, as Rapfi counts them (`+M3`, `+M5`).
    pub fn plies(&self) -> usize {
        self.line.len() + if self.five { 0 } else { 2 }
    }

    /// Like [`Vcf::solve`] but only says whether a win was found, without
    /// allocating (for use inside the main search).
    pub fn wins(&mut self, b: &mut Board) -> bool {
        self.nodes = 0;
        self.limit = self.budget;
        self.line.clear();
        self.five = false;
        let me = b.to_move();
        self.attack(b, me, MAX_ATTACKS)
    }

    fn attack(&mut self, b: &mut Board, me: Player, depth: usize) -> bool {
        let opp = me.opponent();
        if b.threat_count(me, Threat::Five) > 0 {
            self.line
                .push(b.find_threat(me, Threat::Five).expect("five point"));
            self.five = true;
            return true;
        }
        let forced = if b.threat_count(opp, Threat::Five) > 0 {
            if b.threat_count(opp, Threat::Five) > 1 {
                return false;
            }
            let f = b.find_threat(opp, Threat::Five).expect("five point");
            if b.is_forbidden_to(f, me) {
                // Renju's black cannot block there.
                return false;
            }
            match b.threat(f, me) {
                // The block is a flex four or double four: won at once.
                Threat::Flex4 => {
                    self.line.push(f);
                    return true;
                }
                t if t < Threat::Block4 => return false,
                _ => Some(f),
            }
        } else {
            if let Some(i) = b.find_playable(me, Threat::Flex4) {
                self.line.push(i);
                return true;
            }
            None
        };
        if depth == 0 || self.nodes >= self.limit {
            return false;
        }
        let slot = (b.hash() as usize) & (FAIL_SLOTS - 1);
        let (key, searched) = self.failed[slot];
        if key == b.hash() && searched >= depth {
            return false;
        }
        self.nodes += 1;
        if self.nodes % 256 == 0 && self.deadline.is_some_and(|d| Instant::now() >= d) {
            // Out of time: treat like an exhausted node budget.
            self.limit = self.nodes;
            return false;
        }
        // The fours, four-threes first (they win unless the block defends).
        let mut fours = [Pos::from_index(0); 64];
        let n = match forced {
            Some(f) => {
                fours[0] = f;
                1
            }
            None => gather_fours(b, me, &mut fours, |_, _| true),
        };
        for &i in &fours[..n] {
            b.play_unchecked(i);
            let Some(block) = five_point(b, i, me) else {
                b.undo();
                continue;
            };
            if b.is_forbidden_to(block, opp) {
                // Renju's black must block on a forbidden point: it loses.
                b.undo();
                self.line.push(i);
                return true;
            }
            b.play_unchecked(block);
            self.line.push(i);
            self.line.push(block);
            let won = self.attack(b, me, depth - 1);
            b.undo();
            b.undo();
            if won {
                // The recursive call appended the rest of the line.
                return true;
            }
            self.line.truncate(self.line.len() - 2);
        }
        // A failure cut short by the node budget proves nothing.
        if self.nodes < self.limit {
            self.failed[slot] = (b.hash(), depth);
        }
        false
    }
}

/// Fills `out` with the empty points where `me` makes a four (a block four
/// or a four-three) and `keep` agrees, four-threes first, and returns how
/// many (never renju's black forbidden points); points beyond the array's
/// length are left out. The caller's array
/// keeps threat searches free of allocation.
#[inline]
pub(crate) fn gather_fours(
    b: &Board,
    me: Player,
    out: &mut [Pos; 64],
    keep: impl Fn(Pos, Threat) -> bool,
) -> usize {
    let mut n = 0;
    for i in b.four_points(me) {
        let t = b.threat(i, me);
        if (t == Threat::Block4 || t == Threat::Four3)
            && keep(i, t)
            && n < out.len()
            && !b.is_forbidden_to(i, me)
        {
            out[n] = i;
            if t == Threat::Four3 {
                out.swap(0, n);
            }
            n += 1;
        }
    }
    n
}

/// The point where `me` completes a five in a line through `i`.
fn five_point(b: &Board, i: Pos, me: Player) -> Option<Pos> {
    for &step in &DIRS {
        for k in 1..=HALF as isize {
            for sign in [-1isize, 1] {
                let q = i.step(sign * k * step);
                if b.is_empty(q) && b.threat(q, me) == Threat::Five {
                    return Some(q);
                }
            }
        }
    }
    None
}
