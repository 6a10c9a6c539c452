//! Line patterns: what one more stone on an empty point makes along one line.
//!
//! A point's neighbourhood along a direction is the points on each side (the
//! *key*, two bits a point: empty, black, white, off the board): four in
//! freestyle, five under exact five, where a sixth stone beyond a five
//! turns it into an overline that does not win. The pattern of a colour at
//! that point is what a stone of that colour placed there would make in
//! that line, by the usual recursive definition: a five; a four with two
//! (flex) or one (block) points that complete a five; a three that one more
//! stone turns into a flex or block four; a two that one more stone turns
//! into a flex or block three. Every table here is computed at first use
//! from that definition, never typed in.

use std::sync::LazyLock;

use inarow_core::Rule;

/// What a stone on a point would make along one line, weakest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Pattern {
    /// No five can ever pass through the point along this line.
    Dead = 0,
    /// Room for a five, but less than a two.
    Open = 1,
    /// A two that can become a block three.
    Block2 = 2,
    /// A two that can become a flex three.
    Flex2 = 3,
    /// A three that can become a block four.
    Block3 = 4,
    /// A three that can become a flex four.
    Flex3 = 5,
    /// A four with one point completing a five.
    Block4 = 6,
    /// A four with two or more points completing a five.
    Flex4 = 7,
    /// A five (freestyle: or longer; exact five: exactly five).
    Five = 8,
}

/// Number of distinct patterns.
pub const PATTERNS: usize = 9;

impl Pattern {
    /// All patterns, weakest first.
    pub const ALL: [Pattern; PATTERNS] = [
        Pattern::Dead,
        Pattern::Open,
        Pattern::Block2,
        Pattern::Flex2,
        Pattern::Block3,
        Pattern::Flex3,
        Pattern::Block4,
        Pattern::Flex4,
        Pattern::Five,
    ];

    /// The pattern with this number (`Pattern::ALL[n]`).
    #[inline]
    pub fn from_index(n: usize) -> Pattern {
        Pattern::ALL[n]
    }
}

/// What a stone on a point makes over its four lines together, weakest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Threat {
    /// Nothing forcing.
    None = 0,
    /// A block three.
    Block3 = 1,
    /// A flex three (an open three).
    Flex3 = 2,
    /// Two flex threes (a three-three fork).
    Three3 = 3,
    /// A block four.
    Block4 = 4,
    /// A block four and a flex three (a four-three fork).
    Four3 = 5,
    /// A flex four, or two fours: a win unless the opponent has a five first.
    Flex4 = 6,
    /// A five: the game is won.
    Five = 7,
}

/// Number of distinct threats.
pub const THREATS: usize = 8;

impl Threat {
    /// All threats, weakest first.
    pub const ALL: [Threat; THREATS] = [
        Threat::None,
        Threat::Block3,
        Threat::Flex3,
        Threat::Three3,
        Threat::Block4,
        Threat::Four3,
        Threat::Flex4,
        Threat::Five,
    ];

    /// The threats that make a four (a five, a flex four, a four-three, a
    /// block four): a side with none of them has no four to come.
    pub const FOURS: [Threat; 4] = [Threat::Five, Threat::Flex4, Threat::Four3, Threat::Block4];

    /// The threats a threat search by fours and threes opens with (a
    /// three or a four, short of a five): a point where the side to move
    /// makes one is a threat point ([`crate::vct`]).
    pub const OPENERS: [Threat; 5] = [
        Threat::Flex3,
        Threat::Three3,
        Threat::Block4,
        Threat::Four3,
        Threat::Flex4,
    ];
}

/// Cell states in a key: two bits per neighbour ([`crate::board::Cell`]'s
/// codes).
pub(crate) const EMPTY: u8 = 0;
/// A black stone.
pub(crate) const BLACK: u8 = 1;
/// A white stone.
pub(crate) const WHITE: u8 = 2;
/// Off the board (or a point no one may use).
pub(crate) const WALL: u8 = 3;

/// Half the window of a five: a five through a point lies within this many
/// points on each side of it, so stones are only ever added there.
pub const HALF: usize = 4;

/// The widest reach of a key: exact five also looks one point further, where
/// an own stone would turn a five into an overline.
pub const REACH: usize = HALF + 1;

/// Neighbours on each side of a point that its patterns depend on under
/// `rule`: the key holds exactly these (the rest of its bits stay zero).
#[inline]
pub const fn reach(rule: Rule) -> usize {
    match rule {
        Rule::Freestyle => HALF,
        Rule::Exact | Rule::Renju => REACH,
    }
}

/// The rule by which `colour` (0 black, 1 white) makes fives under `rule`:
/// renju's black wins by exactly five like exact five, its white by five or
/// more like freestyle.
#[inline]
pub const fn colour_rule(rule: Rule, colour: usize) -> Rule {
    match rule {
        Rule::Renju if colour == 0 => Rule::Exact,
        Rule::Renju => Rule::Freestyle,
        rule => rule,
    }
}

/// Whether a run of `run` own stones in a line wins under `rule` (a
/// colour's rule: see [`colour_rule`]).
#[inline]
pub const fn is_five(run: usize, rule: Rule) -> bool {
    match rule {
        Rule::Exact => run == 5,
        _ => run >= 5,
    }
}

/// Key slot of the neighbour at `offset` (-5..=5, not 0) from the point.
/// The four nearest on each side take the low 16 bits, as the freestyle
/// table wants; the two at distance five take the top four.
#[inline]
pub const fn slot(offset: isize) -> u32 {
    match offset {
        -5 => 8,
        5 => 9,
        _ if offset < 0 => (offset + 4) as u32,
        _ => (offset + 3) as u32,
    }
}

// Line cells for the definition: 0 empty, 1 own, 2 blocked (opponent or wall).
type Line = [u8; 2 * REACH + 1];
const CENTRE: usize = REACH;
/// Where a stone may go in the definition: a five through the centre lies
/// within `HALF` of it, so a stone further away never helps one.
const INNER: std::ops::RangeInclusive<usize> = CENTRE - HALF..=CENTRE + HALF;

fn run_through(line: &Line, i: usize) -> usize {
    let mut n = 1;
    let mut j = i;
    while j > 0 && line[j - 1] == 1 {
        n += 1;
        j -= 1;
    }
    let mut j = i;
    while j + 1 < line.len() && line[j + 1] == 1 {
        n += 1;
        j += 1;
    }
    n
}

/// Points that would complete a five with the stones already on the line.
/// With the centre own, a five through a point within `HALF` of it always
/// holds the centre, and the run is counted whole: one reaching the end of
/// the line is six or longer.
fn five_points(line: &Line, rule: Rule) -> usize {
    INNER
        .filter(|&j| line[j] == 0 && is_five(run_through(line, j), rule))
        .count()
}

/// Whether a five could still be made through the centre: five points free
/// of the opponent (and, under exact five, not next to an own stone, which
/// would make the line six).
fn five_fits(line: &Line, rule: Rule) -> bool {
    (CENTRE - HALF..=CENTRE).any(|s| {
        line[s..s + 5].iter().all(|&v| v != 2)
            && (rule == Rule::Freestyle || (line[s - 1] != 1 && line[s + 5] != 1))
    })
}

/// The three level of a line whose centre is own: Flex3, Block3 or Open.
fn three_level(line: &Line, rule: Rule) -> Pattern {
    let mut best = Pattern::Open;
    for j in INNER {
        if line[j] != 0 {
            continue;
        }
        let mut next = *line;
        next[j] = 1;
        match five_points(&next, rule) {
            0 => {}
            1 => best = best.max(Pattern::Block3),
            _ => return Pattern::Flex3,
        }
    }
    best
}

/// The pattern of `line` (centre treated as an own stone) under `rule`, by
/// definition. The line is the centre and five points on each side: 0
/// empty, 1 own, 2 opponent or off the board. Freestyle never looks at the
/// outermost two.
pub fn classify(mut line: Line, rule: Rule) -> Pattern {
    line[CENTRE] = 1;
    if is_five(run_through(&line, CENTRE), rule) {
        return Pattern::Five;
    }
    if !five_fits(&line, rule) {
        return Pattern::Dead;
    }
    match five_points(&line, rule) {
        0 => {}
        1 => return Pattern::Block4,
        _ => return Pattern::Flex4,
    }
    let three = three_level(&line, rule);
    if three != Pattern::Open {
        return three;
    }
    let mut best = Pattern::Open;
    for j in INNER {
        if line[j] != 0 {
            continue;
        }
        let mut next = line;
        next[j] = 1;
        match three_level(&next, rule) {
            Pattern::Flex3 => return Pattern::Flex2,
            Pattern::Block3 => best = Pattern::Block2,
            _ => {}
        }
    }
    best
}

/// The line a key shows to `colour` (1 black, 2 white): own, empty or blocked.
fn line_of(key: u32, colour: u8) -> Line {
    let mut line = [0u8; 2 * REACH + 1];
    for (pos, cell) in line.iter_mut().enumerate() {
        if pos == CENTRE {
            continue;
        }
        let s = slot(pos as isize - CENTRE as isize);
        let v = ((key >> (2 * s)) & 3) as u8;
        *cell = match v {
            EMPTY => 0,
            v if v == colour => 1,
            _ => 2,
        };
    }
    line
}

/// Pattern of each colour for every key under `rule`, in one byte (black's
/// in the low four bits, white's in the high four, as Rapfi packs them:
/// half the table a two-byte pair makes, so more of it stays in the
/// cache), 2^16 keys in freestyle, 2^20 under exact five and renju.
fn build(rule: Rule) -> Vec<u8> {
    // Many keys show the same line to a colour, so classify each line once
    // (per colour: under renju the colours' fives differ).
    let lines = 3usize.pow(2 * REACH as u32 + 1);
    let mut by_line = vec![None; 2 * lines];
    let keys = 1u32 << (4 * reach(rule));
    let mut out = Vec::with_capacity(keys as usize);
    for key in 0..keys {
        let mut pair = [Pattern::Dead; 2];
        for (c, p) in pair.iter_mut().enumerate() {
            let line = line_of(key, c as u8 + 1);
            let code = line.iter().fold(0usize, |acc, &v| acc * 3 + v as usize);
            let own = colour_rule(rule, c);
            let memo = if own == colour_rule(rule, 0) {
                0
            } else {
                lines
            };
            *p = *by_line[memo + code].get_or_insert_with(|| classify(line, own));
        }
        out.push(pair[0] as u8 | (pair[1] as u8) << 4);
    }
    out
}

static FREESTYLE: LazyLock<Vec<u8>> = LazyLock::new(|| build(Rule::Freestyle));
// Built only when an exact-five board is first made (1 MB).
static EXACT: LazyLock<Vec<u8>> = LazyLock::new(|| build(Rule::Exact));
// Built only when a renju board is first made (1 MB).
static RENJU: LazyLock<Vec<u8>> = LazyLock::new(|| build(Rule::Renju));

/// The pattern `colour` (0 black, 1 white) would make under `rule` at a
/// point with `key` (its bits beyond [`reach`] zero).
#[inline]
pub fn pattern(key: u32, colour: usize, rule: Rule) -> Pattern {
    pair_pattern(pattern_table(rule)[key as usize], colour)
}

/// Colour `colour`'s half (0 black, the low four bits; 1 white, the high
/// four) of a byte that packs both colours' patterns ([`pattern_table`],
/// and the fine tables the same way): the one reading of that packing.
#[inline]
pub const fn half(pair: u8, colour: usize) -> u8 {
    pair >> (4 * colour) & 15
}

/// Colour `colour`'s pattern (0 black, 1 white) in a byte of both colours'
/// ([`pattern_table`]).
#[inline]
pub fn pair_pattern(pair: u8, colour: usize) -> Pattern {
    Pattern::from_index(usize::from(half(pair, colour)))
}

/// The whole pattern table of `rule`, both colours' patterns of a key in
/// one byte (black's in the low four bits), for holders that look up
/// often and want to skip the lazy initialisation check.
pub fn pattern_table(rule: Rule) -> &'static [u8] {
    match rule {
        Rule::Freestyle => &FREESTYLE,
        Rule::Exact => &EXACT,
        Rule::Renju => &RENJU,
    }
}

/// The whole combination table, indexed by [`combo_index`].
pub fn info_table() -> &'static [PointInfo] {
    &COMBO
}

/// Forces the tables of `rule` to be built now (e.g. before a timed search).
pub fn warm_up(rule: Rule) {
    pattern_table(rule);
    LazyLock::force(&COMBO);
    LazyLock::force(&SHAPE_OF);
}

/// Value of a single line pattern in the evaluation.
pub const fn line_value(p: Pattern) -> i32 {
    match p {
        Pattern::Dead => 0,
        Pattern::Open => 1,
        Pattern::Block2 => 4,
        Pattern::Flex2 => 12,
        Pattern::Block3 => 14,
        Pattern::Flex3 => 40,
        Pattern::Block4 => 45,
        Pattern::Flex4 => 120,
        Pattern::Five => 400,
    }
}

/// The threat four line patterns make together.
pub fn threat_of(pats: [Pattern; 4]) -> Threat {
    let count = |p: Pattern| pats.iter().filter(|&&q| q == p).count();
    let fours = count(Pattern::Block4) + count(Pattern::Flex4);
    let threes = count(Pattern::Flex3);
    if count(Pattern::Five) > 0 {
        Threat::Five
    } else if count(Pattern::Flex4) > 0 || fours >= 2 {
        Threat::Flex4
    } else if fours == 1 && threes > 0 {
        Threat::Four3
    } else if fours == 1 {
        Threat::Block4
    } else if threes >= 2 {
        Threat::Three3
    } else if threes == 1 {
        Threat::Flex3
    } else if count(Pattern::Block3) > 0 {
        Threat::Block3
    } else {
        Threat::None
    }
}

/// Bonus for a point that makes a fork, on top of its line values.
pub const fn fork_bonus(t: Threat) -> i32 {
    match t {
        Threat::Flex4 => 300,
        Threat::Four3 => 200,
        Threat::Three3 => 120,
        _ => 0,
    }
}

/// Index of a point's four patterns in the combination table.
#[inline]
pub fn combo_index(pats: [u8; 4]) -> u16 {
    pats[0] as u16
        + PATTERNS as u16
            * (pats[1] as u16
                + PATTERNS as u16 * (pats[2] as u16 + PATTERNS as u16 * pats[3] as u16))
}

/// Number of point shapes: the combinations of four line patterns with the
/// directions forgotten (multisets of four of the nine patterns), the
/// index of a learned evaluation's per-point tables.
pub const SHAPES: usize = 495;

/// Each combination index's shape: its four patterns sorted, numbered in
/// the order of the sorted tuples.
static SHAPE_OF: LazyLock<Vec<u16>> = LazyLock::new(|| {
    let mut number = std::collections::HashMap::new();
    for a in 0..PATTERNS {
        for b in a..PATTERNS {
            for c in b..PATTERNS {
                for d in c..PATTERNS {
                    let next = number.len() as u16;
                    number.insert([a, b, c, d], next);
                }
            }
        }
    }
    debug_assert_eq!(number.len(), SHAPES);
    (0..PATTERNS.pow(4))
        .map(|i| {
            let mut pats = [i % 9, i / 9 % 9, i / 81 % 9, i / 729];
            pats.sort_unstable();
            number[&pats]
        })
        .collect()
});

/// The shape (below [`SHAPES`]) of the point whose combination index is
/// `combo`: the same for any order of its directions.
#[inline]
pub fn shape(combo: u16) -> u16 {
    SHAPE_OF[combo as usize]
}

/// The four patterns of `shape`, weakest first.
pub fn shape_patterns(shape: u16) -> [Pattern; 4] {
    let combo = SHAPE_OF
        .iter()
        .position(|&s| s == shape)
        .expect("a shape below SHAPES");
    let mut pats = [combo % 9, combo / 9 % 9, combo / 81 % 9, combo / 729].map(Pattern::from_index);
    pats.sort_unstable();
    pats
}

/// A point's value and threat, from its four patterns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PointInfo {
    /// Sum of the line values plus the fork bonus.
    pub value: i32,
    /// The threat a stone there makes.
    pub threat: Threat,
}

static COMBO: LazyLock<Vec<PointInfo>> = LazyLock::new(|| {
    let n = PATTERNS.pow(4);
    (0..n)
        .map(|i| {
            let pats = [i % 9, i / 9 % 9, i / 81 % 9, i / 729].map(Pattern::from_index);
            let threat = threat_of(pats);
            let value = pats.iter().map(|&p| line_value(p)).sum::<i32>() + fork_bonus(threat);
            PointInfo { value, threat }
        })
        .collect()
});

/// The value and threat of a point whose combination index is `combo`.
#[inline]
pub fn info(combo: u16) -> PointInfo {
    COMBO[combo as usize]
}

/// A point's class for one colour: what a stone there makes over its four
/// lines, finer than [`Threat`], weakest first.
pub mod class {
    /// No line worth a two.
    pub const NOTHING: u8 = 1;
    /// A block two.
    pub const BLOCK2: u8 = 2;
    /// A flex two.
    pub const FLEX2: u8 = 3;
    /// A flex two with a block two.
    pub const TWO_BLOCK2: u8 = 4;
    /// A block three.
    pub const BLOCK3: u8 = 5;
    /// Two block threes, or a block three with a block two.
    pub const BLOCK3_PLUS: u8 = 6;
    /// Two flex twos, or a block three with a flex two: the set-ups of a
    /// three-three or four-three.
    pub const TWO_TWO: u8 = 7;
    /// A flex (open) three.
    pub const FLEX3: u8 = 8;
    /// A block four.
    pub const BLOCK4: u8 = 9;
    /// A flex three with a two.
    pub const THREE_TWO: u8 = 10;
    /// A block four with a two.
    pub const FOUR_TWO: u8 = 11;
    /// Two flex threes.
    pub const THREE3: u8 = 12;
    /// A block four and a flex three.
    pub const FOUR3: u8 = 13;
    /// A flex four or two fours.
    pub const FLEX4: u8 = 14;
    /// A five.
    pub const FIVE: u8 = 15;
    /// The least class that sets up a threat: moves of this class or more
    /// are never pruned as quiet.
    pub const SETUP: u8 = TWO_TWO;
}

fn class_of(pats: [Pattern; 4]) -> u8 {
    use class::*;
    let count = |p: Pattern| pats.iter().filter(|&&q| q == p).count();
    let twos = count(Pattern::Flex2);
    let block2 = count(Pattern::Block2);
    let block3 = count(Pattern::Block3);
    match threat_of(pats) {
        Threat::Five => FIVE,
        Threat::Flex4 => FLEX4,
        Threat::Four3 => FOUR3,
        Threat::Three3 => THREE3,
        Threat::Block4 if twos + block3 > 0 => FOUR_TWO,
        Threat::Block4 => BLOCK4,
        Threat::Flex3 if twos + block3 > 0 => THREE_TWO,
        Threat::Flex3 => FLEX3,
        Threat::Block3 if twos > 0 => TWO_TWO,
        Threat::Block3 if block3 + block2 >= 2 => BLOCK3_PLUS,
        Threat::Block3 => BLOCK3,
        _ if twos >= 2 => TWO_TWO,
        _ if twos == 1 && block2 > 0 => TWO_BLOCK2,
        _ if twos == 1 => FLEX2,
        _ if block2 > 0 => BLOCK2,
        _ => NOTHING,
    }
}

/// The class of the point of combination index `combo`
/// ([`combo_index`]): the board keeps it beside the
/// point's threat, one look-up for both.
pub(crate) fn class_of_combo(combo: u16) -> u8 {
    let i = usize::from(combo);
    class_of([i % 9, i / 9 % 9, i / 81 % 9, i / 729].map(Pattern::from_index))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A line written with the stone's point as `*`: nine characters (the
    /// freestyle window) or eleven (exact five's).
    fn line(s: &str) -> Line {
        let pad = (11 - s.len()) / 2;
        let mut l = [0u8; 11];
        for (i, ch) in s.chars().enumerate() {
            l[pad + i] = match ch {
                'x' | '*' => 1,
                'o' => 2,
                _ => 0,
            };
        }
        l
    }

    #[test]
    fn classes_are_ordered_like_the_threats_they_refine() {
        use Pattern::*;
        let c = |p: [Pattern; 4]| class_of(p);
        assert_eq!(c([Five, Dead, Dead, Dead]), class::FIVE);
        assert_eq!(c([Block4, Flex3, Open, Open]), class::FOUR3);
        assert_eq!(c([Block4, Flex2, Open, Open]), class::FOUR_TWO);
        assert_eq!(c([Block4, Open, Open, Open]), class::BLOCK4);
        assert_eq!(c([Flex3, Flex2, Open, Open]), class::THREE_TWO);
        assert_eq!(c([Flex2, Flex2, Open, Open]), class::TWO_TWO);
        assert_eq!(c([Block3, Flex2, Open, Open]), class::TWO_TWO);
        assert_eq!(c([Flex2, Open, Open, Open]), class::FLEX2);
        assert_eq!(c([Open, Open, Open, Open]), class::NOTHING);
        const { assert!(class::FOUR_TWO > class::BLOCK4 && class::THREE_TWO > class::FLEX3) };
    }

    #[test]
    fn textbook_patterns() {
        let free = |s| classify(line(s), Rule::Freestyle);
        assert_eq!(free("xx.x*x..."), Pattern::Block4);
        assert_eq!(free("..xx*xx.."), Pattern::Five);
        assert_eq!(free("...x*xx.."), Pattern::Flex4);
        assert_eq!(free("..ox*xx.."), Pattern::Block4);
        assert_eq!(free("x.xx*.x.."), Pattern::Flex4);
        assert_eq!(free("....*xx.."), Pattern::Flex3);
        assert_eq!(free("...o*xx.."), Pattern::Block3);
        assert_eq!(free("....*x..."), Pattern::Flex2);
        assert_eq!(free("...o*x..."), Pattern::Block2);
        assert_eq!(free("....*...."), Pattern::Open);
        assert_eq!(free("oooo*o..."), Pattern::Dead);
        assert_eq!(free("o...*o..."), Pattern::Dead);
        assert_eq!(free(".xxx*xx.."), Pattern::Five);
    }

    #[test]
    fn exact_five_patterns() {
        let exact = |s| classify(line(s), Rule::Exact);
        assert_eq!(exact("...xx*xx..."), Pattern::Five);
        // Six in a row: no five, now or ever, through this point.
        assert_eq!(exact("..xxx*xx..."), Pattern::Dead);
        // The right completion would make six: one way to five, not two.
        assert_eq!(exact("..xxx*.x..."), Pattern::Block4);
        assert_eq!(exact("x.xxx*....."), Pattern::Block4);
        assert_eq!(exact("....x*xx..."), Pattern::Flex4);
        // Both completions make six: not a four, and no five can fit.
        assert_eq!(exact("x.xxx*.x..."), Pattern::Dead);
        assert_eq!(exact("....x*xx.x."), Pattern::Block4);
        // A stone five points away is what turns this four into nothing.
        assert_eq!(exact("xxxx.*o...."), Pattern::Dead);
        assert_eq!(exact(".xxx.*o...."), Pattern::Block4);
        // The same lines in freestyle, where longer lines win.
        let free = |s| classify(line(s), Rule::Freestyle);
        assert_eq!(free(".xxx*.x.."), Pattern::Flex4);
        assert_eq!(free("xxx.*o..."), Pattern::Block4);
    }

    #[test]
    fn shapes_forget_the_directions() {
        let mut seen = vec![false; SHAPES];
        for combo in 0..PATTERNS.pow(4) as u16 {
            let s = shape(combo);
            seen[s as usize] = true;
            let pats = [combo % 9, combo / 9 % 9, combo / 81 % 9, combo / 729];
            // Every order of the directions is the same shape.
            let turned = combo_index([pats[3], pats[0], pats[1], pats[2]].map(|p| p as u8));
            assert_eq!(shape(turned), s);
            let mut sorted = pats.map(|p| Pattern::from_index(p as usize));
            sorted.sort_unstable();
            assert_eq!(shape_patterns(s), sorted);
        }
        assert!(seen.iter().all(|&s| s), "every shape is some combination");
    }

    #[test]
    fn slots_are_a_bijection() {
        let mut seen = [false; 10];
        for off in (-5..=5).filter(|&o| o != 0) {
            seen[slot(off) as usize] = true;
        }
        assert!(seen.iter().all(|&s| s));
        // The freestyle key is the low 16 bits.
        assert!((-4..=4).all(|o| o == 0 || slot(o) < 8));
    }
}
