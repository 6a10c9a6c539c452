//! Fine line patterns and point classes: the fourteen line patterns and
//! fourteen point classes that strong engines (Rapfi among them) evaluate
//! by, where [`crate::pattern`] has nine of each kind.
//!
//! The finer classes tell apart what the coarse ones merge: a two with
//! two, three or four points that make an open three (`Flex2`, `Flex2A`,
//! `Flex2B`), an open three with one or two points that make an open four
//! (`Flex3`, `Flex3S`), ones that may become twos (`Flex1`, `Block1`), and
//! a line one stone short of an overline (`Overline`, where six do not
//! win). Four of them at a point make one of 2,380 *codes* (the multiset
//! of its four patterns) and a *point class* (a four and a three, two
//! threes, ...). The definition is the published one such tables are
//! fitted against, so that a table fitted elsewhere means the same here:
//!
//! * a line is the point and `h` points on each side (`h` = 4 in
//!   freestyle, 5 where an overline does not win), each own, empty or
//!   blocked (the opponent's, or off the board);
//! * with the point own, a run of six or more is `Overline` where
//!   overlines are checked, five or more `Five`; a line with fewer than
//!   five points free of the opponent around it is `Dead`;
//! * otherwise each empty point of that free stretch gets a stone in
//!   turn, and the line *seen from that point* (the window moved to centre
//!   it, what falls outside reading as blocked) is classified again; the
//!   counts of what they make decide: two fives a `Flex4` (for renju's
//!   black, two fives closer than five points are two fours in one line,
//!   an `Overline`), one a `Block4`, two open fours `Flex3S`, one `Flex3`,
//!   a block four `Block3`, four open threes `Flex2B`, three `Flex2A`, one
//!   or two `Flex2`, a block three `Block2`, an open two `Flex1`, a block
//!   two `Block1`, and nothing `Dead`.
//!
//! Every table is computed at first use from that definition.

use std::sync::LazyLock;

use inarow_core::Rule;

use crate::pattern::{BLACK, EMPTY, WHITE, slot};

/// A fine line pattern: what a stone on a point would make along one line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Fine {
    /// No five can ever pass through the point along this line.
    Dead = 0,
    /// Six or more in a row where an overline does not win (and, for
    /// renju's black, two fours in one line).
    Overline = 1,
    /// One stone that may become a block two.
    Block1 = 2,
    /// One stone that may become an open two.
    Flex1 = 3,
    /// A two that may become a block three.
    Block2 = 4,
    /// A two with one or two points that make an open three.
    Flex2 = 5,
    /// A two with three points that make an open three.
    Flex2A = 6,
    /// A two with four points that make an open three.
    Flex2B = 7,
    /// A three that may become a block four.
    Block3 = 8,
    /// An open three with one point that makes an open four.
    Flex3 = 9,
    /// An open three with two points that make an open four.
    Flex3S = 10,
    /// A four with one point that makes a five.
    Block4 = 11,
    /// A four with two points that make a five.
    Flex4 = 12,
    /// A five.
    Five = 13,
}

/// Number of fine line patterns.
pub const FINES: usize = 14;

impl Fine {
    /// All fine patterns, in their numbers' order.
    pub const ALL: [Fine; FINES] = [
        Fine::Dead,
        Fine::Overline,
        Fine::Block1,
        Fine::Flex1,
        Fine::Block2,
        Fine::Flex2,
        Fine::Flex2A,
        Fine::Flex2B,
        Fine::Block3,
        Fine::Flex3,
        Fine::Flex3S,
        Fine::Block4,
        Fine::Flex4,
        Fine::Five,
    ];
}

/// What a stone on a point makes over its four lines together, by fine
/// patterns, weakest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum PointClass {
    /// Nothing of note.
    None = 0,
    /// Forbidden to renju's black by its patterns (an overline, two fours
    /// or two open threes).
    Forbid = 1,
    /// An open two.
    Flex2 = 2,
    /// A block three.
    Block3 = 3,
    /// Two open twos.
    Flex2x2 = 4,
    /// Two block threes, or a block three and an open two.
    Block3Plus = 5,
    /// An open three.
    Flex3 = 6,
    /// An open three with a block three or an open two.
    Flex3Plus = 7,
    /// Two open threes.
    Flex3x2 = 8,
    /// A block four.
    Block4 = 9,
    /// A block four with a block three or an open two.
    Block4Plus = 10,
    /// A block four and an open three.
    Block4Flex3 = 11,
    /// An open four, or two fours.
    Flex4 = 12,
    /// A five.
    Five = 13,
}

/// Number of point classes.
pub const CLASSES: usize = 14;

impl PointClass {
    /// All point classes, weakest first.
    pub const ALL: [PointClass; CLASSES] = [
        PointClass::None,
        PointClass::Forbid,
        PointClass::Flex2,
        PointClass::Block3,
        PointClass::Flex2x2,
        PointClass::Block3Plus,
        PointClass::Flex3,
        PointClass::Flex3Plus,
        PointClass::Flex3x2,
        PointClass::Block4,
        PointClass::Block4Plus,
        PointClass::Block4Flex3,
        PointClass::Flex4,
        PointClass::Five,
    ];
}

/// Number of point codes: multisets of four fine patterns.
pub const CODES: usize = 2380;

/// Number of fine combination indices (`FINES^4`): the four patterns in
/// direction order, as the board keeps them.
pub const FINE_COMBOS: usize = FINES * FINES * FINES * FINES;

/// Step of the combination index for direction `d`'s pattern.
pub const FINE_STEP: [i32; 4] = [1, 14, 196, 2744];

/// Number of threat masks: 11 bits.
pub const MASKS: usize = 1 << 11;

// The definition's line: 0 empty, 1 own, 2 blocked; `len` points used.
const WIDEST: usize = 11;
type Line = [u8; WIDEST];

/// Classifies lines of one width and one colour's rule, remembering every
/// line seen (by its base-3 number).
struct Classifier {
    len: usize,
    /// Whether six or more are an overline rather than a five.
    overline: bool,
    /// Whether two fives closer than five points are two fours in one line
    /// (renju's black).
    split_fours: bool,
    memo: Vec<u8>,
}

const UNKNOWN: u8 = u8::MAX;

impl Classifier {
    fn new(half: usize, overline: bool, split_fours: bool) -> Classifier {
        let len = 2 * half + 1;
        Classifier {
            len,
            overline,
            split_fours,
            memo: vec![UNKNOWN; 3usize.pow(len as u32)],
        }
    }

    /// The fine pattern of `line` (its centre own).
    fn classify(&mut self, line: &Line) -> Fine {
        let len = self.len;
        let code = line[..len]
            .iter()
            .fold(0usize, |acc, &v| acc * 3 + usize::from(v));
        if self.memo[code] != UNKNOWN {
            return Fine::ALL[usize::from(self.memo[code])];
        }
        let mid = len / 2;
        // The run of own stones through the centre, and the stretch free
        // of the opponent around it.
        let (mut run, mut start, mut end) = (1, mid, mid);
        let mut counting = true;
        for i in (0..mid).rev() {
            match line[i] {
                2 => break,
                1 if counting => run += 1,
                1 => {}
                _ => counting = false,
            }
            start = i;
        }
        counting = true;
        for (i, &v) in line.iter().enumerate().take(len).skip(mid + 1) {
            match v {
                2 => break,
                1 if counting => run += 1,
                1 => {}
                _ => counting = false,
            }
            end = i;
        }
        let fine = if self.overline && run >= 6 {
            Fine::Overline
        } else if run >= 5 {
            Fine::Five
        } else if end - start + 1 < 5 {
            Fine::Dead
        } else {
            let mut made = [0usize; FINES];
            let mut five_at = [0usize; 2];
            for i in start..=end {
                if line[i] != 0 {
                    continue;
                }
                let mut seen: Line = [2; WIDEST];
                for (j, cell) in seen.iter_mut().enumerate().take(len) {
                    if let Some(k) = (j + i).checked_sub(mid).filter(|&k| k < len) {
                        *cell = line[k];
                    }
                }
                seen[mid] = 1;
                let next = self.classify(&seen);
                if next == Fine::Five && made[Fine::Five as usize] < 2 {
                    five_at[made[Fine::Five as usize]] = i;
                }
                made[next as usize] += 1;
            }
            let n = |f: Fine| made[f as usize];
            if n(Fine::Five) >= 2 {
                if self.split_fours && five_at[1] - five_at[0] < 5 {
                    Fine::Overline
                } else {
                    Fine::Flex4
                }
            } else if n(Fine::Five) == 1 {
                Fine::Block4
            } else if n(Fine::Flex4) >= 2 {
                Fine::Flex3S
            } else if n(Fine::Flex4) == 1 {
                Fine::Flex3
            } else if n(Fine::Block4) > 0 {
                Fine::Block3
            } else if n(Fine::Flex3) + n(Fine::Flex3S) >= 4 {
                Fine::Flex2B
            } else if n(Fine::Flex3) + n(Fine::Flex3S) == 3 {
                Fine::Flex2A
            } else if n(Fine::Flex3) + n(Fine::Flex3S) > 0 {
                Fine::Flex2
            } else if n(Fine::Block3) > 0 {
                Fine::Block2
            } else if n(Fine::Flex2) + n(Fine::Flex2A) + n(Fine::Flex2B) > 0 {
                Fine::Flex1
            } else if n(Fine::Block2) > 0 {
                Fine::Block1
            } else {
                Fine::Dead
            }
        };
        self.memo[code] = fine as u8;
        fine
    }
}

/// Points on each side that fine patterns read under `rule`: four in
/// freestyle, five where an overline matters (exact five, renju).
pub const fn half(rule: Rule) -> usize {
    match rule {
        Rule::Freestyle => 4,
        Rule::Exact | Rule::Renju => 5,
    }
}

/// The classifier of `colour` (0 black, 1 white) under `rule`.
fn classifier(rule: Rule, colour: usize) -> Classifier {
    match rule {
        Rule::Freestyle => Classifier::new(4, false, false),
        Rule::Exact => Classifier::new(5, true, false),
        Rule::Renju if colour == 0 => Classifier::new(5, true, true),
        Rule::Renju => Classifier::new(5, false, false),
    }
}

/// Both colours' fine patterns for every key under `rule`: black's in the
/// low four bits, white's in the high four.
fn build(rule: Rule) -> Vec<u8> {
    let h = half(rule);
    let mut by_colour = [classifier(rule, 0), classifier(rule, 1)];
    let keys = 1u32 << (4 * h);
    (0..keys)
        .map(|key| {
            let mut pair = 0u8;
            for (c, classifier) in by_colour.iter_mut().enumerate() {
                let own = if c == 0 { BLACK } else { WHITE };
                let mut line: Line = [2; WIDEST];
                for (j, cell) in line.iter_mut().enumerate().take(2 * h + 1) {
                    if j == h {
                        *cell = 1;
                        continue;
                    }
                    let s = slot(j as isize - h as isize);
                    let v = ((key >> (2 * s)) & 3) as u8;
                    *cell = match v {
                        EMPTY => 0,
                        v if v == own => 1,
                        _ => 2,
                    };
                }
                pair |= (classifier.classify(&line) as u8) << (4 * c);
            }
            pair
        })
        .collect()
}

static FREESTYLE: LazyLock<Vec<u8>> = LazyLock::new(|| build(Rule::Freestyle));
static EXACT: LazyLock<Vec<u8>> = LazyLock::new(|| build(Rule::Exact));
static RENJU: LazyLock<Vec<u8>> = LazyLock::new(|| build(Rule::Renju));

/// The fine pattern table of `rule`, by key (the board's keys: the four
/// nearest neighbours on each side in the low 16 bits, those at distance
/// five in the next four): black's pattern in the low four bits, white's
/// in the high four.
pub fn fine_table(rule: Rule) -> &'static [u8] {
    match rule {
        Rule::Freestyle => &FREESTYLE,
        Rule::Exact => &EXACT,
        Rule::Renju => &RENJU,
    }
}

/// The fine pattern `colour` (0 black, 1 white) would make under `rule`
/// at a point with `key`.
pub fn fine(key: u32, colour: usize, rule: Rule) -> Fine {
    Fine::ALL[usize::from(crate::pattern::half(fine_table(rule)[key as usize], colour))]
}

/// The code of each fine combination index, and each code's four
/// patterns, weakest first.
struct Codes {
    of_combo: Vec<u16>,
    patterns: Vec<[Fine; 4]>,
}

static CODES_TABLE: LazyLock<Codes> = LazyLock::new(|| {
    // Codes number the sorted quadruples in lexicographic order: the order
    // published tables are laid out in.
    let mut number = vec![u16::MAX; FINE_COMBOS];
    let mut patterns = Vec::with_capacity(CODES);
    for a in 0..FINES {
        for b in a..FINES {
            for c in b..FINES {
                for d in c..FINES {
                    number[combo_of([a, b, c, d])] = patterns.len() as u16;
                    patterns.push([a, b, c, d].map(|p| Fine::ALL[p]));
                }
            }
        }
    }
    debug_assert_eq!(patterns.len(), CODES);
    let of_combo = (0..FINE_COMBOS)
        .map(|i| {
            let mut p = [i % 14, i / 14 % 14, i / 196 % 14, i / 2744];
            p.sort_unstable();
            number[combo_of(p)]
        })
        .collect();
    Codes { of_combo, patterns }
});

fn combo_of(p: [usize; 4]) -> usize {
    p[0] + 14 * p[1] + 196 * p[2] + 2744 * p[3]
}

/// The fine combination index of four patterns in direction order.
pub fn fine_combo(pats: [Fine; 4]) -> u16 {
    combo_of(pats.map(|p| p as usize)) as u16
}

/// The code (below [`CODES`]) of a fine combination index: the same for
/// any order of the directions.
#[inline]
pub fn code(combo: u16) -> u16 {
    CODES_TABLE.of_combo[combo as usize]
}

/// The whole code table by fine combination index, for holders that look
/// up often.
pub fn code_table() -> &'static [u16] {
    &CODES_TABLE.of_combo
}

/// The four fine patterns of `code`, weakest first.
pub fn code_patterns(code: u16) -> [Fine; 4] {
    CODES_TABLE.patterns[code as usize]
}

/// The point class of four fine patterns; `forbid` marks renju black's
/// pattern-forbidden points.
pub fn class_of(pats: [Fine; 4], forbid: bool) -> PointClass {
    let n = |f: Fine| pats.iter().filter(|&&p| p == f).count();
    let fours = n(Fine::Block4) + n(Fine::Flex4);
    let threes = n(Fine::Flex3) + n(Fine::Flex3S);
    let twos = n(Fine::Flex2) + n(Fine::Flex2A) + n(Fine::Flex2B);
    let block3 = n(Fine::Block3);
    if n(Fine::Five) > 0 {
        return PointClass::Five;
    }
    if forbid && (n(Fine::Overline) > 0 || fours >= 2 || threes >= 2) {
        return PointClass::Forbid;
    }
    if n(Fine::Flex4) > 0 || n(Fine::Block4) >= 2 {
        PointClass::Flex4
    } else if fours == 1 {
        if threes > 0 {
            PointClass::Block4Flex3
        } else if block3 + twos > 0 {
            PointClass::Block4Plus
        } else {
            PointClass::Block4
        }
    } else if threes > 0 {
        if threes >= 2 {
            PointClass::Flex3x2
        } else if block3 + twos > 0 {
            PointClass::Flex3Plus
        } else {
            PointClass::Flex3
        }
    } else if block3 >= 2 || (block3 == 1 && twos > 0) {
        PointClass::Block3Plus
    } else if twos >= 2 {
        PointClass::Flex2x2
    } else if block3 > 0 {
        PointClass::Block3
    } else if twos > 0 {
        PointClass::Flex2
    } else {
        PointClass::None
    }
}

/// Point classes by code: `[plain, renju black's]`.
static CLASS_TABLE: LazyLock<[Vec<PointClass>; 2]> = LazyLock::new(|| {
    [false, true].map(|forbid| {
        (0..CODES as u16)
            .map(|c| class_of(code_patterns(c), forbid))
            .collect()
    })
});

/// The point class of `code` for `colour` (0 black, 1 white) under `rule`.
#[inline]
pub fn class(code: u16, colour: usize, rule: Rule) -> PointClass {
    CLASS_TABLE[usize::from(rule == Rule::Renju && colour == 0)][code as usize]
}

/// The point class table by code for `colour` under `rule`.
pub fn class_table(colour: usize, rule: Rule) -> &'static [PointClass] {
    &CLASS_TABLE[usize::from(rule == Rule::Renju && colour == 0)]
}

/// The table slot of `colour` under `rule` in published classical models:
/// freestyle, exact five, then renju's black and white.
#[inline]
pub const fn table_slot(rule: Rule, colour: usize) -> usize {
    match rule {
        Rule::Freestyle => 0,
        Rule::Exact => 1,
        Rule::Renju => 2 + colour,
    }
}

/// The eleven-bit threat mask of the side to move from both colours'
/// point-class counts (`mine`, `theirs`): the opponent's five, each side's
/// open four, then each side's four with more, plain four, three with
/// more and plain open three.
pub fn threat_mask(mine: &[i32; CLASSES], theirs: &[i32; CLASSES]) -> usize {
    let has = |counts: &[i32; CLASSES], cs: &[PointClass]| {
        usize::from(cs.iter().any(|&c| counts[c as usize] > 0))
    };
    use PointClass as P;
    has(theirs, &[P::Five])
        | has(mine, &[P::Flex4]) << 1
        | has(theirs, &[P::Flex4]) << 2
        | has(mine, &[P::Block4Plus, P::Block4Flex3]) << 3
        | has(mine, &[P::Block4]) << 4
        | has(mine, &[P::Flex3Plus, P::Flex3x2]) << 5
        | has(mine, &[P::Flex3]) << 6
        | has(theirs, &[P::Block4Plus, P::Block4Flex3]) << 7
        | has(theirs, &[P::Block4]) << 8
        | has(theirs, &[P::Flex3Plus, P::Flex3x2]) << 9
        | has(theirs, &[P::Flex3]) << 10
}

/// Forces `rule`'s tables to be built now.
pub fn warm_up(rule: Rule) {
    fine_table(rule);
    LazyLock::force(&CODES_TABLE);
    LazyLock::force(&CLASS_TABLE);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fine pattern of a written line under a colour's rule: `*` the
    /// point, `x` own, `o` the opponent's, `.` empty; padded to the
    /// classifier's width with empty points.
    fn fine_of(s: &str, half: usize, overline: bool, split: bool) -> Fine {
        let mut c = Classifier::new(half, overline, split);
        let len = 2 * half + 1;
        let star = s.find('*').expect("a centre");
        let mut line: Line = [2; WIDEST];
        for (j, cell) in line.iter_mut().enumerate().take(len) {
            let k = (j + star).checked_sub(half);
            *cell = match k.and_then(|k| s.as_bytes().get(k)) {
                Some(b'x' | b'*') => 1,
                Some(b'o') => 2,
                _ => 0,
            };
        }
        c.classify(&line)
    }

    #[test]
    fn textbook_fine_patterns() {
        let free = |s| fine_of(s, 4, false, false);
        assert_eq!(free("....*xxxx"), Fine::Five);
        assert_eq!(free("...x*xx.."), Fine::Flex4);
        assert_eq!(free("..ox*xx.."), Fine::Block4);
        assert_eq!(free("....*xx.."), Fine::Flex3S);
        assert_eq!(free("...x*.x.."), Fine::Flex3);
        assert_eq!(free("...o*xx.."), Fine::Block3);
        assert_eq!(free("....*x..."), Fine::Flex2B);
        assert_eq!(free("...o*...."), Fine::Block1);
        assert_eq!(free("oooo*o..."), Fine::Dead);
        // Two points apart: fewer points make an open three.
        assert!(free("....*.x..") < Fine::Flex2B);
        assert!(free("....*.x..") >= Fine::Flex2);
        let exact = |s| fine_of(s, 5, true, false);
        assert_eq!(exact("..xxx*xx..."), Fine::Overline);
        assert_eq!(exact("...xx*xx..."), Fine::Five);
        assert_eq!(free(".xxx*xx.."), Fine::Five);
        // Renju's black: two fours in one line are an overline pattern.
        let black = |s| fine_of(s, 5, true, true);
        assert_eq!(black("..xx.*x.xx."), Fine::Overline);
        assert_eq!(exact("..xx.*x.xx."), Fine::Flex4);
        // A six made either way is no four at all.
        assert_eq!(black("xxx.*x.xxx."), Fine::Dead);
    }

    #[test]
    fn codes_forget_the_directions_and_number_every_multiset() {
        let mut seen = vec![false; CODES];
        for combo in 0..FINE_COMBOS as u16 {
            let c = code(combo);
            seen[c as usize] = true;
            let p = [combo % 14, combo / 14 % 14, combo / 196 % 14, combo / 2744];
            let turned = combo_of([p[3], p[0], p[1], p[2]].map(usize::from)) as u16;
            assert_eq!(code(turned), c);
        }
        assert!(seen.iter().all(|&s| s));
        // The first codes are the weakest quadruples in order.
        assert_eq!(code_patterns(0), [Fine::Dead; 4]);
        assert_eq!(
            code_patterns(1),
            [Fine::Dead, Fine::Dead, Fine::Dead, Fine::Overline]
        );
        assert_eq!(code_patterns(CODES as u16 - 1), [Fine::Five; 4]);
    }

    #[test]
    fn point_classes() {
        use Fine as F;
        let c = |p, forbid| class_of(p, forbid);
        assert_eq!(
            c([F::Flex3, F::Flex3S, F::Dead, F::Dead], false),
            PointClass::Flex3x2
        );
        assert_eq!(
            c([F::Flex3, F::Flex3S, F::Dead, F::Dead], true),
            PointClass::Forbid
        );
        assert_eq!(
            c([F::Block4, F::Flex3, F::Dead, F::Dead], false),
            PointClass::Block4Flex3
        );
        assert_eq!(
            c([F::Block4, F::Block4, F::Dead, F::Dead], false),
            PointClass::Flex4
        );
        assert_eq!(
            c([F::Block4, F::Flex2A, F::Dead, F::Dead], false),
            PointClass::Block4Plus
        );
        assert_eq!(
            c([F::Block3, F::Flex2, F::Dead, F::Dead], false),
            PointClass::Block3Plus
        );
        assert_eq!(
            c([F::Flex2, F::Flex2B, F::Dead, F::Dead], false),
            PointClass::Flex2x2
        );
        assert_eq!(
            c([F::Overline, F::Five, F::Dead, F::Dead], true),
            PointClass::Five
        );
        assert_eq!(
            c([F::Overline, F::Dead, F::Dead, F::Dead], true),
            PointClass::Forbid
        );
        assert_eq!(
            c([F::Overline, F::Dead, F::Dead, F::Dead], false),
            PointClass::None
        );
    }

    #[test]
    fn the_key_tables_read_the_board_keys() {
        // Black stones at offsets +1 and +2 along a freestyle key.
        let key = u32::from(BLACK) << (2 * slot(1)) | u32::from(BLACK) << (2 * slot(2));
        assert_eq!(fine(key, 0, Rule::Freestyle), Fine::Flex3S);
        // White sees black's stones as blocking its line on one side.
        assert!(fine(key, 1, Rule::Freestyle) < Fine::Flex2);
        // Exact five reads five points: a black stone at +5 beside four.
        let four = (1..=4).fold(0u32, |k, o| k | u32::from(BLACK) << (2 * slot(o)));
        assert_eq!(fine(four, 0, Rule::Freestyle), Fine::Five);
        let six = four | u32::from(BLACK) << (2 * slot(5));
        assert_eq!(fine(six, 0, Rule::Exact), Fine::Overline);
        assert_eq!(fine(six, 0, Rule::Renju), Fine::Overline);
        assert_eq!(fine(six, 1, Rule::Renju), Fine::Block1);
        let white_six = (1..=5).fold(0u32, |k, o| k | u32::from(WHITE) << (2 * slot(o)));
        assert_eq!(fine(white_six, 1, Rule::Renju), Fine::Five);
    }
}
