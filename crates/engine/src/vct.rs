//! VCT: victory by continuous threats (fours and open threes).
//!
//! The attacker plays a four or a move making an open three (a flex-four
//! point); after a four the defender must block, after a three the defender
//! may play any of the moves the main search would consider against it:
//! the points where the attacker makes a four (every block of the three)
//! and the defender's own fours. The attacker must win against every one of
//! them, by a VCF or by further threats. A defender with a five point of
//! its own, or threats the attacker cannot answer with fours, ends the
//! line as a failure.

use std::time::Instant;

use inarow_core::Player;

use crate::board::Board;
use crate::movegen::{Mode, MoveList, generate};
use crate::pattern::Threat;
use crate::vcf::Vcf;

/// A VCT solver with a node budget; VCF probes have their own budget.
pub struct Vct {
    vcf: Vcf,
    nodes: u64,
    limit: u64,
    lists: Vec<MoveList>,
    deadline: Option<Instant>,
}

impl Vct {
    /// A solver searching at most `limit` threat nodes, `vcf_limit` nodes per VCF probe.
    pub fn new(limit: u64, vcf_limit: u64) -> Vct {
        Vct {
            vcf: Vcf::new(vcf_limit, 20),
            nodes: 0,
            limit,
            lists: Vec::new(),
            deadline: None,
        }
    }

    /// Gives up (finding nothing) at `deadline`.
    pub fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
        self.vcf.set_deadline(deadline);
    }

    /// Nodes searched by the last call.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The first move of a VCT of the side to move with at most `threes`
    /// three-moves, if one is found within the budget.
    pub fn solve(&mut self, b: &mut Board, threes: usize) -> Option<usize> {
        self.nodes = 0;
        let me = b.to_move();
        if self.lists.len() < 2 * threes + 2 {
            self.lists = (0..2 * threes + 2).map(|_| MoveList::default()).collect();
        }
        if self.vcf.wins(b) {
            return None; // a VCF is the VCF solver's business
        }
        self.attack(b, me, threes, 0, true)
    }

    /// Attacker to move: a winning first move, if any.
    fn attack(
        &mut self,
        b: &mut Board,
        me: Player,
        threes: usize,
        level: usize,
        root: bool,
    ) -> Option<usize> {
        if !root && self.vcf.wins(b) {
            return Some(usize::MAX);
        }
        let opp = me.opponent();
        if threes == 0 || self.nodes >= self.limit || b.threat_count(opp, Threat::Five) > 0 {
            return None;
        }
        self.nodes += 1;
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.limit = self.nodes;
            return None;
        }
        // Three-making moves, strongest first (fours are the VCF's).
        let mut list = std::mem::take(&mut self.lists[2 * level]);
        list_threes(b, me, &mut list);
        let mut result = None;
        for k in 0..list.len() {
            let m = list.get(k);
            b.play_unchecked(m);
            let holds = self.defend(b, me, threes - 1, level);
            b.undo();
            if holds {
                result = Some(m);
                break;
            }
            if self.nodes >= self.limit {
                break;
            }
        }
        self.lists[2 * level] = list;
        result
    }

    /// Defender to move after a three: true if every defence loses.
    fn defend(&mut self, b: &mut Board, me: Player, threes: usize, level: usize) -> bool {
        let mut list = std::mem::take(&mut self.lists[2 * level + 1]);
        let mode = generate(b, &mut list);
        // Only a real open three forces the defender into this short list.
        let won = mode == Mode::Defend
            && (0..list.len()).all(|k| {
                let r = list.get(k);
                b.play_unchecked(r);
                let w = self.attack(b, me, threes, level + 1, false).is_some();
                b.undo();
                w
            });
        self.lists[2 * level + 1] = list;
        won
    }
}

fn list_threes(b: &Board, me: Player, out: &mut MoveList) {
    out.truncate(0);
    for i in b.empty_points() {
        if !b.is_near(i) {
            continue;
        }
        let t = b.threat(i, me);
        if t == Threat::Flex3 || t == Threat::Three3 {
            out.push(i, b.point_value(i, me));
        }
    }
    out.sort();
}
