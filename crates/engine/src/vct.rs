//! VCT: victory by continuous threats, fours and open threes.
//!
//! The attacker plays a four or a move that makes an open three (or a
//! three-three, or a four-three). After a four the defender must block
//! the five point; after a three (or with a fork point of the attacker's
//! to stop) the defender may play exactly the moves the main search gives
//! a node that must answer ([`crate::movepick::generate`]): its own fours
//! and the moves after which the threat is gone; every other move loses
//! by force, so a win against these is a win against every defence. A
//! defender's four is blocked by the attacker, after which the defender
//! must still answer the attacker's threats: a counter-four gains the
//! defender a stone, not the initiative. The win's distance is the
//! longest line of the proof found (plies to the five, the five counted),
//! an upper bound on the quickest win.
//!
//! The solver keeps a table of the positions where it failed, with the
//! threes it was allowed, for as long as it lives (a failure does not
//! change from one search to the next), and remembers the positions the
//! main search probed without success on a small budget, so that the tree
//! asks each of them once. Renju is left alone (black's forbidden points
//! make forks that the answers above do not describe).

use std::time::Instant;

use inarow_core::{Player, Rule};

use crate::board::{Board, Cell, PointSet, mark};
use crate::eval::no_four_to_come;
use crate::movepick::{self, Answer, MoveList, class, point_score};
use crate::pattern::Threat;
use crate::pos::{CELLS, Pos};

/// Slots of the failure table (a power of two).
const FAIL_SLOTS: usize = 1 << 16;
/// Slots of the table of positions the tree probed in vain.
const PROBED_SLOTS: usize = 1 << 14;
/// Deepest line (attacker and defender moves) the solver follows.
const MAX_LEVEL: usize = 60;
/// Plies to the five when the defender has no answer to a three: its move,
/// the flex four, its move, the five.
const THREE_PLIES: usize = 4;
/// Plies to the five when the defender has no answer to a fork point: its
/// move, then the four-three's five plies.
const FORK_PLIES: usize = 6;

/// Slots of the table of root positions probed in vain, with their budget.
const ROOT_SLOTS: usize = 1 << 10;

/// A win the solver proved: the first move and the plies to the five
/// (the five counted) along the longest line of its proof.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Win {
    /// The attacker's first move.
    pub first: Pos,
    /// Plies to the five at most, the five counted (a five on the spot is 1).
    pub plies: usize,
}

/// A VCT solver: a node budget for each search, a failure table that
/// lives as long as the solver, and no allocation once made.
pub struct Vct {
    /// Positions where the attacker had no win: (hash, threes + 1, plies
    /// allowed, `u16::MAX` for no bound); threes 0 is an empty slot.
    failed: Vec<(u64, u8, u16)>,
    /// Hashes of positions the tree probed without a win.
    probed: Vec<u64>,
    /// Root positions probed without a win: (hash, threes + 1, budget).
    roots: Vec<(u64, u8, u64)>,
    /// For each side, its last root probe that failed in this game.
    last: [Failure; 2],
    lists: Vec<MoveList>,
    nodes: u64,
    limit: u64,
    deadline: Option<Instant>,
}

impl Default for Vct {
    fn default() -> Vct {
        Vct::new()
    }
}

impl Vct {
    /// A solver with empty tables.
    pub fn new() -> Vct {
        Vct {
            failed: vec![(0, 0, 0); FAIL_SLOTS],
            probed: vec![0; PROBED_SLOTS],
            roots: vec![(0, 0, 0); ROOT_SLOTS],
            last: [Failure::new(), Failure::new()],
            lists: (0..=MAX_LEVEL).map(|_| MoveList::default()).collect(),
            nodes: 0,
            limit: 0,
            deadline: None,
        }
    }

    /// Forgets every failure (a new game: nothing is wrong in keeping
    /// them, but a cleared searcher repeats its counts).
    pub fn clear(&mut self) {
        self.failed.fill((0, 0, 0));
        self.probed.fill(0);
        self.roots.fill((0, 0, 0));
        self.last.iter_mut().for_each(Failure::forget);
    }

    /// Gives up (finding nothing) at `deadline`.
    pub fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
    }

    /// Nodes searched by the last call (attacker and defender moves).
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// A win of the side to move by fours and at most `threes` threes
    /// (open threes and three-threes; fours do not count), found within
    /// `budget` nodes, with as few threes as it takes; `None` under renju.
    pub fn solve(&mut self, b: &mut Board, threes: usize, budget: u64) -> Option<Win> {
        self.solve_within(b, threes, budget, usize::MAX)
    }

    /// [`Vct::solve`] for a win within `plies` plies, the five counted:
    /// every line of the proof that long at most (a checker's attacker
    /// keeps to the distance announced). Failures are kept with their
    /// bound, and serve every search as bounded or less.
    pub fn solve_within(
        &mut self,
        b: &mut Board,
        threes: usize,
        budget: u64,
        plies: usize,
    ) -> Option<Win> {
        self.nodes = 0;
        self.limit = budget;
        if b.rule() == Rule::Renju {
            return None;
        }
        let me = b.to_move();
        // Deepening on the threes: the wins with fewer threes first (the
        // shorter, most often the cheaper), each round's failures kept for
        // the next.
        for allowed in 0..=threes.min(250) {
            let win = self.attack(b, me, allowed, 0, plies);
            if win.is_some() || self.nodes >= self.limit {
                return win;
            }
        }
        None
    }

    /// [`Vct::solve`] for the tree: a position it probed before in vain is
    /// not searched again (the same budget would fail the same way).
    pub fn probe(&mut self, b: &mut Board, threes: usize, budget: u64) -> Option<Win> {
        let slot = (b.hash() as usize) & (PROBED_SLOTS - 1);
        if self.probed[slot] == b.hash() {
            self.nodes = 0;
            return None;
        }
        let win = self.solve(b, threes, budget);
        if win.is_none() {
            self.probed[slot] = b.hash();
        }
        win
    }

    /// [`Vct::solve`] for the root of a game's searches, which remembers
    /// its failures across the moves of a game: a position probed in vain
    /// with as many threes and as large a budget is not searched again;
    /// and with `remember`, a position grown from the side's last failure
    /// (every stone of that position where it was, the side's own and the
    /// opponent's) is searched again only once the side to move's threat
    /// points (the moves making a three or a four, where a VCT starts)
    /// have changed: a point gained, or one lost (a stone there or a line
    /// blocked, which narrows the search so that the same budget may now
    /// reach a win). A position that is not grown from the failure
    /// (another game, a stone taken back) is probed afresh; a win found
    /// forgets the failure. The rule is a bet, not a proof: the new
    /// stones might serve a win later in its line; the tree still
    /// searches every position the probe skips.
    pub fn probe_root(
        &mut self,
        b: &mut Board,
        threes: usize,
        budget: u64,
        remember: bool,
    ) -> Option<Win> {
        self.nodes = 0;
        let key = b.hash();
        let slot = (key as usize) & (ROOT_SLOTS - 1);
        let (k, searched, spent) = self.roots[slot];
        if k == key && usize::from(searched) > threes && spent >= budget {
            return None;
        }
        let me = b.to_move().index();
        if remember && self.last[me].holds(b, threes, budget) {
            return None;
        }
        let win = self.solve(b, threes, budget);
        match win {
            Some(_) => self.last[me].forget(),
            None => {
                // A search that ended within its budget failed for any
                // budget; one cut short by the clock, for what it spent.
                let spent = if self.nodes < self.limit {
                    u64::MAX
                } else {
                    self.nodes
                };
                self.roots[slot] = (key, threes.min(250) as u8 + 1, spent);
                self.last[me].record(b, threes, spent);
            }
        }
        win
    }

    /// Counts a node; false once the budget or the time is spent.
    #[inline]
    fn spend(&mut self) -> bool {
        if self.nodes >= self.limit {
            return false;
        }
        self.nodes += 1;
        if self.nodes % 256 == 0 && self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.limit = self.nodes;
            return false;
        }
        true
    }

    /// The attacker `me` to move: a winning move and its plies to the
    /// five, `within` at most.
    fn attack(
        &mut self,
        b: &mut Board,
        me: Player,
        threes: usize,
        level: usize,
        within: usize,
    ) -> Option<Win> {
        let opp = me.opponent();
        if b.threat_count(me, Threat::Five) > 0 {
            let five = b.find_threat(me, Threat::Five).expect("a counted five");
            return (within >= 1).then_some(Win {
                first: five,
                plies: 1,
            });
        }
        let their_fives = b.threat_count(opp, Threat::Five);
        if their_fives >= 2 || within < 3 || level >= MAX_LEVEL || !self.spend() {
            return None;
        }
        if their_fives == 1 {
            // The defender's counter-four: block it; the defender must
            // still answer our threats.
            let block = b.find_threat(opp, Threat::Five).expect("a counted five");
            if b.threat(block, me) == Threat::Flex4 {
                return Some(Win {
                    first: block,
                    plies: 3,
                });
            }
            b.play_unchecked(block);
            let plies = self.defend(b, me, threes, level + 1, within - 1);
            b.undo();
            return plies.map(|p| Win {
                first: block,
                plies: p + 1,
            });
        }
        if let Some(i) = b.find_playable(me, Threat::Flex4) {
            return Some(Win { first: i, plies: 3 });
        }
        if within >= 5 && no_four_to_come(b, opp) {
            // A fork against no four: the four-three's block makes no four
            // and cannot break the three (a win by fours); one stone stops
            // one of two threes (a three spent).
            let forks: &[Threat] = if threes > 0 {
                &[Threat::Four3, Threat::Three3]
            } else {
                &[Threat::Four3]
            };
            for &fork in forks {
                if let Some(i) = b.find_playable(me, fork) {
                    return Some(Win { first: i, plies: 5 });
                }
            }
        }
        let key = b.hash();
        let slot = (key as usize) & (FAIL_SLOTS - 1);
        // A failure with as many threes and as many plies, or more, is
        // this one's too.
        let bound = within.min(usize::from(u16::MAX)) as u16;
        let (k, searched, plies) = self.failed[slot];
        if k == key && usize::from(searched) > threes && plies >= bound {
            return None;
        }
        let mut list = std::mem::take(&mut self.lists[level]);
        attacks(b, me, threes > 0, &mut list);
        let mut found = None;
        for n in 0..list.len() {
            let m = list.get(n);
            let t = b.threat(m, me);
            let spent = usize::from(t < Threat::Block4);
            b.play_unchecked(m);
            let plies = self.defend(b, me, threes - spent, level + 1, within - 1);
            b.undo();
            if let Some(p) = plies {
                found = Some(Win {
                    first: m,
                    plies: p + 1,
                });
                break;
            }
            if self.nodes >= self.limit {
                break;
            }
        }
        self.lists[level] = list;
        if found.is_none() && self.nodes < self.limit {
            self.failed[slot] = (key, threes as u8 + 1, bound);
        }
        found
    }

    /// The defender to move after the attacker `me`'s threat: the plies to
    /// the five if every defence loses within `within`, `None` if one holds.
    fn defend(
        &mut self,
        b: &mut Board,
        me: Player,
        threes: usize,
        level: usize,
        within: usize,
    ) -> Option<usize> {
        let opp = me.opponent();
        if b.threat_count(opp, Threat::Five) > 0 || level >= MAX_LEVEL || !self.spend() {
            return None;
        }
        let fives = b.threat_count(me, Threat::Five);
        if fives >= 2 {
            return (within >= 2).then_some(2);
        }
        let answer = if fives == 1 {
            let f = b.find_threat(me, Threat::Five).expect("a counted five");
            Answer::Five(f)
        } else if b.has_threat(me, Threat::Flex4) {
            Answer::Three
        } else if no_four_to_come(b, opp)
            && (b.has_threat(me, Threat::Four3) || b.has_threat(me, Threat::Three3))
        {
            Answer::Fork
        } else {
            // The move threatened nothing that forces an answer.
            return None;
        };
        let mut list = std::mem::take(&mut self.lists[level]);
        movepick::generate(b, answer, &mut list);
        let mut worst = match answer {
            _ if !list.is_empty() => Some(0),
            Answer::Fork => Some(FORK_PLIES),
            _ => Some(THREE_PLIES),
        }
        .filter(|&p| p <= within);
        for n in 0..list.len() {
            let r = list.get(n);
            b.play_unchecked(r);
            let win = self.attack(b, me, threes, level + 1, within.saturating_sub(1));
            b.undo();
            match (win, worst) {
                (Some(w), Some(p)) => worst = Some(p.max(w.plies + 1)),
                _ => {
                    worst = None;
                    break;
                }
            }
        }
        self.lists[level] = list;
        worst
    }
}

/// A root position where a side's probe failed: its stones, the side's
/// threat points, and the threes and budget it was given.
struct Failure {
    /// The stones of the position, none when nothing is remembered.
    stones: Vec<(Pos, Cell)>,
    /// The side to move's threat points.
    threats: PointSet,
    threes: usize,
    budget: u64,
}

impl Failure {
    fn new() -> Failure {
        Failure {
            stones: Vec::with_capacity(CELLS),
            threats: PointSet::default(),
            threes: 0,
            budget: 0,
        }
    }

    fn forget(&mut self) {
        self.stones.clear();
    }

    /// Remembers `b`, where the side to move's probe with `threes` and
    /// `budget` failed.
    fn record(&mut self, b: &Board, threes: usize, budget: u64) {
        self.stones.clear();
        for &i in b.history() {
            self.stones.push((i, b.cell(i)));
        }
        self.threats = threat_points(b);
        self.threes = threes;
        self.budget = budget;
    }

    /// True if `b` grew from the failure, asked with no more threes or
    /// budget, and the side to move's threat points are those it had then
    /// (a subset hid wins in a test's games: the opponent's block can
    /// narrow the search enough for the same budget to find one).
    fn holds(&self, b: &Board, threes: usize, budget: u64) -> bool {
        if self.stones.is_empty() || threes > self.threes || budget > self.budget {
            return false;
        }
        if b.stones() <= self.stones.len() || self.stones.iter().any(|&(i, c)| b.cell(i) != c) {
            return false;
        }
        threat_points(b) == self.threats
    }
}

/// The side to move's threat points: the empty points near a stone where
/// it makes a three or a four (a move the solver may open with).
fn threat_points(b: &Board) -> PointSet {
    let me = b.to_move();
    let mut set = PointSet::default();
    for &i in b.points() {
        if b.is_empty(i) && b.is_near(i) && Threat::OPENERS.contains(&b.threat(i, me)) {
            mark(&mut set, i.index(), true);
        }
    }
    set
}

/// True if the side to move has `least` threat points or more, as the
/// board counts them: the VCT's cheap test before a probe, as a win by
/// threats needs threats to start from.
pub(crate) fn threats_enough(b: &Board, least: i32) -> bool {
    let me = b.to_move();
    Threat::OPENERS
        .iter()
        .map(|&t| b.threat_count(me, t))
        .sum::<i32>()
        >= least
}

/// Fills `out` with `me`'s threat moves, strongest first: fours always,
/// and with `threes` the moves that make an open three or a three-three.
fn attacks(b: &Board, me: Player, threes: bool, out: &mut MoveList) {
    out.clear();
    let opp = me.opponent();
    for k in 0..b.points().len() {
        let i = b.points()[k];
        if !b.is_empty(i) || !b.is_near(i) {
            continue;
        }
        let t = b.threat(i, me);
        let wanted = match t {
            Threat::Block4 | Threat::Four3 => true,
            Threat::Flex3 | Threat::Three3 => threes,
            _ => false,
        };
        if wanted {
            let own = i32::from(class(b, i, me));
            let theirs = i32::from(class(b, i, opp));
            out.push(i, (own * 4 + theirs) * 10_000 + point_score(b, i, me));
        }
    }
    out.sort();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(black: &[(usize, usize)], white: &[(usize, usize)], to_move: Player) -> Board {
        let mut b = Board::new(15).unwrap();
        for &(x, y) in black {
            b.place(Pos::at(x, y), Player::X).unwrap();
        }
        for &(x, y) in white {
            b.place(Pos::at(x, y), Player::O).unwrap();
        }
        b.set_to_move(to_move);
        b
    }

    #[test]
    fn two_open_twos_crossing_win_by_threes_and_not_by_fours() {
        // Black: an open two on row 7 and one on column 9, far from white:
        // (9,7) makes a three-three, a win in five plies against no four.
        let mut b = board(
            &[(7, 7), (8, 7), (9, 5), (9, 6)],
            &[(0, 0), (14, 14), (0, 14), (14, 0)],
            Player::X,
        );
        let before = b.hash();
        let mut vct = Vct::new();
        let win = vct.solve(&mut b, 0, 10_000);
        assert_eq!(win, None, "no win by fours alone");
        let win = vct.solve(&mut b, 2, 10_000).expect("a win by threes");
        assert_eq!(b.hash(), before, "the board is as it was");
        assert!(win.plies >= 5 && win.plies % 2 == 1, "{win:?}");
        // Under renju the solver stays out.
        b.set_rule(Rule::Renju);
        assert_eq!(Vct::new().solve(&mut b, 2, 10_000), None);
    }

    #[test]
    fn a_root_failure_is_remembered_across_moves_until_the_position_changes() {
        // Black (to move) has an open two on row 7 and nothing else: no win.
        let mut b = board(&[(7, 7), (8, 7)], &[(0, 0), (14, 14)], Player::X);
        let mut vct = Vct::new();
        assert_eq!(vct.probe_root(&mut b, 2, 10_000, true), None);
        assert!(vct.nodes() > 0);
        // The same position: not searched again.
        assert_eq!(vct.probe_root(&mut b, 2, 10_000, true), None);
        assert_eq!(vct.nodes(), 0);
        // Grown by two moves each, black's far from anything: no threat
        // point it did not have, not searched.
        for (x, y) in [(2, 2), (0, 14), (12, 2), (14, 0)] {
            b.play(Pos::at(x, y)).unwrap();
        }
        assert_eq!(vct.probe_root(&mut b, 2, 10_000, true), None);
        assert_eq!(vct.nodes(), 0, "nothing new for black");
        // A position not grown from the failure (white's first stone
        // elsewhere) is probed afresh.
        let mut other = board(&[(7, 7), (8, 7), (2, 2)], &[(1, 0), (14, 14)], Player::X);
        assert_eq!(vct.probe_root(&mut other, 2, 10_000, true), None);
        assert!(vct.nodes() > 0, "another position");
        // Without `remember`, a new position is new.
        assert_eq!(vct.probe_root(&mut b, 2, 10_000, false), None);
        assert!(vct.nodes() > 0);
        // Grown from that failure by black's open two on column 9, which
        // crosses row 7's at (9,7): new threat points, probed, and the
        // three-three's win found.
        for (x, y) in [(9, 5), (0, 7), (9, 6), (14, 7)] {
            b.play(Pos::at(x, y)).unwrap();
        }
        let win = vct
            .probe_root(&mut b, 2, 10_000, true)
            .expect("a win by threes");
        assert!(vct.nodes() > 0 && win.plies >= 5, "{win:?}");
        // Cleared (a new game), the first position is searched again.
        let mut first = board(&[(7, 7), (8, 7)], &[(0, 0), (14, 14)], Player::X);
        vct.clear();
        assert_eq!(vct.probe_root(&mut first, 2, 10_000, true), None);
        assert!(vct.nodes() > 0);
    }

    #[test]
    fn a_probe_that_failed_is_not_searched_again() {
        let mut b = board(&[(7, 7)], &[(8, 8)], Player::X);
        let mut vct = Vct::new();
        assert_eq!(vct.probe(&mut b, 3, 1_000), None);
        assert!(vct.nodes() > 0);
        assert_eq!(vct.probe(&mut b, 3, 1_000), None);
        assert_eq!(vct.nodes(), 0, "asked once");
        vct.clear();
        assert_eq!(vct.probe(&mut b, 3, 1_000), None);
        assert!(vct.nodes() > 0);
    }
}
