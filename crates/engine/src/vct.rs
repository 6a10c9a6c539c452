//! VCT: victory by continuous threats (fours and open threes).
//!
//! The attacker plays a four or a move making an open three (a flex-four
//! point). After a four the defender must block; after a three the
//! defender may play any of the moves the main search would consider
//! against it: the points where the attacker makes a four (every block of
//! the three) and the defender's own fours. A defender's four is blocked
//! by the attacker, after which the defender must still answer the
//! attacker's threats: a counter-four gains the defender a stone, not the
//! initiative. The attacker must win against every defence, by a VCF or by
//! further threats. Positions that failed are remembered with the budget
//! they had, so the same failure is not searched twice.

use std::time::Instant;

use inarow_core::Player;

use crate::board::Board;
use crate::movegen::{Mode, MoveList, generate};
use crate::pattern::Threat;
use crate::vcf::Vcf;

const FAIL_SLOTS: usize = 1 << 16;

/// Deepest line (attacker and defender moves) the solver follows.
const MAX_LEVEL: usize = 48;

/// A VCT solver with a node budget; VCF probes have their own budget.
pub struct Vct {
    vcf: Vcf,
    nodes: u64,
    /// The node budget of each search.
    budget: u64,
    /// The budget of the search under way (cut short at the deadline).
    limit: u64,
    lists: Vec<MoveList>,
    failed: Vec<(u64, usize)>,
    deadline: Option<Instant>,
}

impl Vct {
    /// A solver searching at most `limit` threat nodes, `vcf_limit` nodes per VCF probe.
    pub fn new(limit: u64, vcf_limit: u64) -> Vct {
        Vct {
            vcf: Vcf::new(vcf_limit, 20),
            nodes: 0,
            budget: limit,
            limit,
            lists: (0..MAX_LEVEL).map(|_| MoveList::default()).collect(),
            failed: vec![(0, 0); FAIL_SLOTS],
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

    /// The first move of a VCT of the side to move with at most `threats`
    /// threat moves (threes, and fours that are not part of a VCF), if one
    /// is found within the budget. A VCF is not reported: that is the VCF
    /// solver's business; nor is a line starting with a forced block.
    pub fn solve(&mut self, b: &mut Board, threats: usize) -> Option<usize> {
        self.nodes = 0;
        self.limit = self.budget;
        if b.threat_count(b.to_move().opponent(), Threat::Five) > 0 || self.vcf.wins(b) {
            return None;
        }
        let me = b.to_move();
        self.attack(b, me, threats, 0, true)
    }

    /// Attacker to move: a winning first move, if any (`usize::MAX` when
    /// the win needs no threat move of its own: a VCF or a forced line).
    fn attack(
        &mut self,
        b: &mut Board,
        me: Player,
        threats: usize,
        level: usize,
        root: bool,
    ) -> Option<usize> {
        let opp = me.opponent();
        if b.threat_count(me, Threat::Five) > 0 {
            return Some(usize::MAX);
        }
        let opp_fives = b.threat_count(opp, Threat::Five);
        if opp_fives > 1 || level >= MAX_LEVEL || self.nodes >= self.limit {
            return None;
        }
        self.nodes += 1;
        if self.nodes % 64 == 0 && self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.limit = self.nodes;
            return None;
        }
        if opp_fives == 1 {
            // The defender's counter-four: block it, and the defender
            // must still answer our threats.
            let block = b.find_threat(opp, Threat::Five).expect("five point");
            b.play_unchecked(block);
            let won = self.defend(b, me, threats, level + 1);
            b.undo();
            return won.then_some(block);
        }
        if b.threat_count(me, Threat::Flex4) > 0 {
            return Some(usize::MAX);
        }
        if !root && self.vcf.wins(b) {
            return Some(usize::MAX);
        }
        if threats == 0 {
            return None;
        }
        let key = b.hash();
        let slot = (key as usize) & (FAIL_SLOTS - 1);
        let (k, searched) = self.failed[slot];
        if k == key && searched >= threats {
            return None;
        }
        let mut list = std::mem::take(&mut self.lists[level]);
        list_threats(b, me, &mut list);
        let mut result = None;
        for n in 0..list.len() {
            let m = list.get(n);
            b.play_unchecked(m);
            let holds = self.defend(b, me, threats - 1, level + 1);
            b.undo();
            if holds {
                result = Some(m);
                break;
            }
            if self.nodes >= self.limit {
                break;
            }
        }
        self.lists[level] = list;
        if result.is_none() && self.nodes < self.limit {
            self.failed[slot] = (key, threats);
        }
        result
    }

    /// Defender to move after a threat: true if every defence loses.
    fn defend(&mut self, b: &mut Board, me: Player, threats: usize, level: usize) -> bool {
        if level >= MAX_LEVEL {
            return false;
        }
        let mut list = std::mem::take(&mut self.lists[level]);
        let mode = generate(b, &mut list);
        let won = match mode {
            // The defender makes a five: the attack failed.
            Mode::Win => false,
            // A four to block (two would have been seen by the VCF).
            Mode::Block | Mode::Defend => (0..list.len()).all(|n| {
                let r = list.get(n);
                b.play_unchecked(r);
                let w = self.attack(b, me, threats, level + 1, false).is_some();
                b.undo();
                w
            }),
            // The move made no threat.
            Mode::Free => false,
        };
        self.lists[level] = list;
        won
    }
}

/// The attacker's threat moves near the stones: points making an open
/// three, a three-three or a four, strongest first.
fn list_threats(b: &Board, me: Player, out: &mut MoveList) {
    out.truncate(0);
    for i in b.empty_points() {
        if !b.is_near(i) {
            continue;
        }
        let t = b.threat(i, me);
        if matches!(
            t,
            Threat::Flex3 | Threat::Three3 | Threat::Block4 | Threat::Four3
        ) {
            out.push(i, b.point_value(i, me));
        }
    }
    out.sort();
}
