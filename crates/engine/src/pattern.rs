//! Line patterns: what one more stone on an empty point makes along one line.
//!
//! A point's neighbourhood along a direction is the four points on each side
//! (the *key*, two bits a point: empty, black, white, off the board). The
//! pattern of a colour at that point is what a stone of that colour placed
//! there would make in that line, by the usual recursive definition: a five;
//! a four with two (flex) or one (block) points that complete a five; a
//! three that one more stone turns into a flex or block four; a two that one
//! more stone turns into a flex or block three. Every table here is computed
//! at first use from that definition, never typed in.

use std::sync::LazyLock;

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
    /// A five (or longer) line.
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

/// Cell states in a key: two bits per neighbour.
pub const EMPTY: u8 = 0;
/// A black stone.
pub const BLACK: u8 = 1;
/// A white stone.
pub const WHITE: u8 = 2;
/// Off the board (or a point no one may use).
pub const WALL: u8 = 3;

/// Half the window: neighbours considered on each side of a point.
pub const HALF: usize = 4;

/// Key slot of the neighbour at `offset` (-4..=4, not 0) from the point.
#[inline]
pub const fn slot(offset: isize) -> u32 {
    if offset < 0 {
        (offset + 4) as u32
    } else {
        (offset + 3) as u32
    }
}

// Line cells for the definition: 0 empty, 1 own, 2 blocked (opponent or wall).
type Line = [u8; 2 * HALF + 1];
const CENTRE: usize = HALF;

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
fn five_points(line: &Line) -> usize {
    (0..line.len())
        .filter(|&j| line[j] == 0 && run_through(line, j) >= 5)
        .count()
}

/// The three level of a line whose centre is own: Flex3, Block3 or Open.
fn three_level(line: &Line) -> Pattern {
    let mut best = Pattern::Open;
    for j in 0..line.len() {
        if line[j] != 0 {
            continue;
        }
        let mut next = *line;
        next[j] = 1;
        match five_points(&next) {
            0 => {}
            1 => best = best.max(Pattern::Block3),
            _ => return Pattern::Flex3,
        }
    }
    best
}

/// The pattern of `line` (centre treated as an own stone), by definition.
pub fn classify(mut line: Line) -> Pattern {
    line[CENTRE] = 1;
    if run_through(&line, CENTRE) >= 5 {
        return Pattern::Five;
    }
    if !(0..=line.len() - 5).any(|s| line[s..s + 5].iter().all(|&v| v != 2)) {
        return Pattern::Dead;
    }
    match five_points(&line) {
        0 => {}
        1 => return Pattern::Block4,
        _ => return Pattern::Flex4,
    }
    let three = three_level(&line);
    if three != Pattern::Open {
        return three;
    }
    let mut best = Pattern::Open;
    for j in 0..line.len() {
        if line[j] != 0 {
            continue;
        }
        let mut next = line;
        next[j] = 1;
        match three_level(&next) {
            Pattern::Flex3 => return Pattern::Flex2,
            Pattern::Block3 => best = Pattern::Block2,
            _ => {}
        }
    }
    best
}

/// The line a key shows to `colour` (1 black, 2 white): own, empty or blocked.
fn line_of(key: u16, colour: u8) -> Line {
    let mut line = [0u8; 2 * HALF + 1];
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

/// Pattern of each colour for every key: `PATTERN_OF[key][colour]`.
static PATTERN_OF: LazyLock<Vec<[Pattern; 2]>> = LazyLock::new(|| {
    // Many keys show the same line to a colour, so classify each line once.
    let mut by_line = vec![None; 3usize.pow(2 * HALF as u32 + 1)];
    let mut out = Vec::with_capacity(1 << 16);
    for key in 0..=u16::MAX {
        let mut pair = [Pattern::Dead; 2];
        for (c, p) in pair.iter_mut().enumerate() {
            let line = line_of(key, c as u8 + 1);
            let code = line.iter().fold(0usize, |acc, &v| acc * 3 + v as usize);
            *p = *by_line[code].get_or_insert_with(|| classify(line));
        }
        out.push(pair);
    }
    out
});

/// The pattern `colour` (0 black, 1 white) would make at a point with `key`.
#[inline]
pub fn pattern(key: u16, colour: usize) -> Pattern {
    PATTERN_OF[key as usize][colour]
}

/// The whole pattern table, `[key][colour]`, for holders that look up
/// often and want to skip the lazy initialisation check.
pub fn pattern_table() -> &'static [[Pattern; 2]] {
    &PATTERN_OF
}

/// The whole combination table, indexed by [`combo_index`].
pub fn info_table() -> &'static [PointInfo] {
    &COMBO
}

/// Forces the tables to be built now (e.g. before a timed search).
pub fn warm_up() {
    LazyLock::force(&PATTERN_OF);
    LazyLock::force(&COMBO);
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

#[cfg(test)]
mod tests {
    use super::*;

    fn line(s: &str) -> Line {
        let mut l = [0u8; 9];
        for (i, ch) in s.chars().enumerate() {
            l[i] = match ch {
                'x' | '*' => 1,
                'o' => 2,
                _ => 0,
            };
        }
        l
    }

    #[test]
    fn textbook_patterns() {
        // The centre (index 4) is where the stone goes, written `*`.
        assert_eq!(classify(line("xx.x*x...")), Pattern::Block4);
        assert_eq!(classify(line("..xx*xx..")), Pattern::Five);
        assert_eq!(classify(line("...x*xx..")), Pattern::Flex4);
        assert_eq!(classify(line("..ox*xx..")), Pattern::Block4);
        assert_eq!(classify(line("x.xx*.x..")), Pattern::Flex4);
        assert_eq!(classify(line("....*xx..")), Pattern::Flex3);
        assert_eq!(classify(line("...o*xx..")), Pattern::Block3);
        assert_eq!(classify(line("....*x...")), Pattern::Flex2);
        assert_eq!(classify(line("...o*x...")), Pattern::Block2);
        assert_eq!(classify(line("....*....")), Pattern::Open);
        assert_eq!(classify(line("oooo*o...")), Pattern::Dead);
        assert_eq!(classify(line("o...*o...")), Pattern::Dead);
    }

    #[test]
    fn slots_are_a_bijection() {
        let mut seen = [false; 8];
        for off in [-4, -3, -2, -1, 1, 2, 3, 4] {
            seen[slot(off) as usize] = true;
        }
        assert!(seen.iter().all(|&s| s));
    }
}
