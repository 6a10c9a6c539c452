//! The learned evaluation: a value for every empty point from its *shape*
//! (the combination of its four line patterns, directions forgotten), one
//! table for the side to move's points and one for the opponent's, per
//! rule, plus a table over which threats each side has (the threat mask).
//! The values are fitted to game results by logistic regression
//! ([`crate::learn::shapes`], `inarow eval fit`); the evaluator
//! ([`LearnedEval`]) keeps the two sums up to date as stones come and go,
//! in the board's own pass over the points a stone changes, so an
//! evaluation is a few additions.
//!
//! The tables travel as a small versioned file with a checksum: the one the
//! engine embeds (`data/eval.bin`) and any other given at run time
//! (`eval=FILE` in the search's settings, `--eval FILE`).

use std::sync::LazyLock;

use inarow_core::{Player, Rule};
use sha2::{Digest, Sha256};

use crate::board::{Board, Watch};
use crate::eval::Evaluator;
use crate::pattern::{self, PATTERNS, SHAPES, Threat};
use crate::pos::Pos;
use crate::score::WIN;

/// Threats a side's mask tells apart: block three up to flex four (a five
/// to make is decided before any evaluation).
pub const MASK_THREATS: [Threat; 6] = [
    Threat::Block3,
    Threat::Flex3,
    Threat::Three3,
    Threat::Block4,
    Threat::Four3,
    Threat::Flex4,
];

/// Entries of the threat-mask table: a bit for each of [`MASK_THREATS`]
/// the side to move has, then the same for the opponent.
pub const MASKS: usize = 1 << (2 * MASK_THREATS.len());

/// The file's first bytes.
const MAGIC: &[u8; 8] = b"INAROWEV";
/// The layout of the file this build writes: three rules (freestyle,
/// exact five, renju). Version 1, two rules, is still read: renju takes
/// exact five's tables there.
pub const VERSION: u16 = 2;

/// The rules a file of `version` holds.
const fn rules_of(version: u16) -> usize {
    if version == 1 { 2 } else { 3 }
}
/// Bytes of the checksum that ends the file (SHA-256 of what comes before).
const CHECKSUM: usize = 32;

/// One rule's tables, in evaluation units.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tables {
    /// Per shape, the value of a point of the side to move.
    pub mine: Vec<i16>,
    /// Per shape, the value of a point of the opponent (subtracted).
    pub theirs: Vec<i16>,
    /// Per threat mask ([`threat_mask`]), added.
    pub threat: Vec<i16>,
}

impl Tables {
    /// All zero.
    pub fn zero() -> Tables {
        Tables {
            mine: vec![0; SHAPES],
            theirs: vec![0; SHAPES],
            threat: vec![0; MASKS],
        }
    }
}

/// A learned evaluation: tables for freestyle, exact five and renju, with
/// the per-point tables also laid out by combination index for the
/// evaluator.
#[derive(Clone, PartialEq, Eq)]
pub struct Learned {
    /// The tables by rule: freestyle, exact five, renju.
    tables: [Tables; 3],
    /// Per rule, the logistic scale of the fit in millionths: a score `s`
    /// predicts the side to move scores `1 / (1 + e^(-scale * s))`.
    scales: [u32; 3],
    /// Per rule, `[mine, theirs]` point values by combination index: one
    /// look-up for a changed point.
    by_combo: [Vec<[i16; 2]>; 3],
}

impl std::fmt::Debug for Learned {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Ten thousand numbers say nothing in a message; the scale and a
        // checksum tell tables apart.
        let sum = Sha256::digest(self.to_bytes());
        write!(
            f,
            "Learned {{ scales: {} {} {}, sha256: {:02x}{:02x}{:02x}{:02x}.. }}",
            self.scale(Rule::Freestyle),
            self.scale(Rule::Exact),
            self.scale(Rule::Renju),
            sum[0],
            sum[1],
            sum[2],
            sum[3]
        )
    }
}

/// Why a tables file cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TablesError {
    /// Not a tables file (its first bytes are not the file's mark).
    NotTables,
    /// A layout this build does not read.
    Version(u16),
    /// Shorter or longer than its header says.
    Length {
        /// Bytes the header asks for.
        expected: usize,
        /// Bytes there are.
        found: usize,
    },
    /// Tables of other sizes than this build's.
    Shape(&'static str, usize, usize),
    /// The checksum does not match: the file was changed or cut.
    Checksum,
}

impl std::fmt::Display for TablesError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TablesError::NotTables => write!(f, "not an evaluation tables file"),
            TablesError::Version(v) => write!(
                f,
                "evaluation tables of version {v}, this build reads version {VERSION}"
            ),
            TablesError::Length { expected, found } => write!(
                f,
                "evaluation tables file is {found} bytes, its header says {expected}"
            ),
            TablesError::Shape(what, found, expected) => write!(
                f,
                "evaluation tables with {found} {what}, this build has {expected}"
            ),
            TablesError::Checksum => write!(
                f,
                "evaluation tables file is corrupt (its checksum does not match)"
            ),
        }
    }
}

impl std::error::Error for TablesError {}

impl Learned {
    /// Tables for freestyle, exact five and renju (in [`Rule::ALL`]'s
    /// order), and the logistic scale each was fitted with.
    pub fn new(tables: [Tables; 3], scales: [f64; 3]) -> Learned {
        let lay_out = |t: &Tables| {
            (0..PATTERNS.pow(4) as u16)
                .map(|c| {
                    let s = pattern::shape(c) as usize;
                    [t.mine[s], t.theirs[s]]
                })
                .collect()
        };
        let by_combo = [
            lay_out(&tables[0]),
            lay_out(&tables[1]),
            lay_out(&tables[2]),
        ];
        Learned {
            tables,
            scales: scales.map(|s| (s * 1e6).round().clamp(0.0, u32::MAX as f64) as u32),
            by_combo,
        }
    }

    /// The tables of `rule`.
    pub fn tables(&self, rule: Rule) -> &Tables {
        &self.tables[rule_slot(rule)]
    }

    /// The logistic scale `rule`'s tables were fitted with (per
    /// evaluation unit).
    pub fn scale(&self, rule: Rule) -> f64 {
        f64::from(self.scales[rule_slot(rule)]) / 1e6
    }

    /// Per combination index, `[mine, theirs]` point values under `rule`.
    #[inline]
    fn by_combo(&self, rule: Rule) -> &[[i16; 2]] {
        &self.by_combo[rule_slot(rule)]
    }

    /// The values of empty point `p` on `b` for `colour`: `[as the side to
    /// move, as the opponent]`.
    #[inline]
    pub fn point_values(&self, b: &Board, p: Pos, colour: Player) -> [i32; 2] {
        self.by_combo(b.rule())[usize::from(b.combo(p, colour))].map(i32::from)
    }

    /// The file: mark, version, sizes, the scales, the tables (freestyle,
    /// exact five, renju; each mine, theirs, threat, as little-endian
    /// `i16`), and the SHA-256 of all that.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(file_len(3));
        out.extend_from_slice(MAGIC);
        for n in [VERSION, PATTERNS as u16, SHAPES as u16, MASKS as u16] {
            out.extend_from_slice(&n.to_le_bytes());
        }
        for scale in self.scales {
            out.extend_from_slice(&scale.to_le_bytes());
        }
        for t in &self.tables {
            for v in [&t.mine, &t.theirs, &t.threat] {
                for x in v.iter() {
                    out.extend_from_slice(&x.to_le_bytes());
                }
            }
        }
        let sum = Sha256::digest(&out);
        out.extend_from_slice(&sum);
        out
    }

    /// Reads a file written by [`Learned::to_bytes`], or says in one line
    /// what is wrong with it.
    pub fn from_bytes(bytes: &[u8]) -> Result<Learned, TablesError> {
        if bytes.len() < header(2) || &bytes[..8] != MAGIC {
            return Err(TablesError::NotTables);
        }
        let u16_at = |at: usize| u16::from_le_bytes([bytes[at], bytes[at + 1]]);
        let version = u16_at(8);
        if version != 1 && version != VERSION {
            return Err(TablesError::Version(version));
        }
        let rules = rules_of(version);
        for (at, what, expected) in [
            (10, "line patterns", PATTERNS),
            (12, "shapes", SHAPES),
            (14, "threat masks", MASKS),
        ] {
            let found = usize::from(u16_at(at));
            if found != expected {
                return Err(TablesError::Shape(what, found, expected));
            }
        }
        if bytes.len() != file_len(rules) {
            return Err(TablesError::Length {
                expected: file_len(rules),
                found: bytes.len(),
            });
        }
        let (body, sum) = bytes.split_at(bytes.len() - CHECKSUM);
        if Sha256::digest(body).as_slice() != sum {
            return Err(TablesError::Checksum);
        }
        let scale = |at: usize| {
            let b = &bytes[at..at + 4];
            f64::from(u32::from_le_bytes([b[0], b[1], b[2], b[3]])) / 1e6
        };
        let scales: Vec<f64> = (0..rules).map(|k| scale(16 + 4 * k)).collect();
        let mut at = header(rules);
        let mut take = |n: usize| {
            let v: Vec<i16> = body[at..at + 2 * n]
                .chunks_exact(2)
                .map(|c| i16::from_le_bytes([c[0], c[1]]))
                .collect();
            at += 2 * n;
            v
        };
        let mut rule = || Tables {
            mine: take(SHAPES),
            theirs: take(SHAPES),
            threat: take(MASKS),
        };
        let (freestyle, exact) = (rule(), rule());
        let renju = if rules == 3 { rule() } else { exact.clone() };
        let renju_scale = scales.get(2).copied().unwrap_or(scales[1]);
        Ok(Learned::new(
            [freestyle, exact, renju],
            [scales[0], scales[1], renju_scale],
        ))
    }

    /// The tables the engine embeds (`data/eval.bin`).
    pub fn embedded() -> &'static Learned {
        &EMBEDDED
    }
}

/// Bytes before the tables of a file of `rules` rules: mark, four sizes,
/// a scale per rule.
const fn header(rules: usize) -> usize {
    8 + 4 * 2 + rules * 4
}

/// Bytes of a whole file of `rules` rules.
const fn file_len(rules: usize) -> usize {
    header(rules) + rules * 2 * (2 * SHAPES + MASKS) + CHECKSUM
}

/// Where `rule`'s tables are.
#[inline]
fn rule_slot(rule: Rule) -> usize {
    match rule {
        Rule::Freestyle => 0,
        Rule::Exact => 1,
        Rule::Renju => 2,
    }
}

static EMBEDDED: LazyLock<Learned> = LazyLock::new(|| {
    Learned::from_bytes(include_bytes!("../../data/eval.bin"))
        .expect("the embedded evaluation tables are checked by the tests")
});

/// The threat mask of the position for `me` to move: a bit for each of
/// [`MASK_THREATS`] that `me` has a point for, then the opponent's.
#[inline]
pub fn threat_mask(b: &Board, me: Player) -> usize {
    let bits = |c: Player| {
        MASK_THREATS.iter().enumerate().fold(0, |m, (k, &t)| {
            m | usize::from(b.threat_count(c, t) > 0) << k
        })
    };
    bits(me) | bits(me.opponent()) << MASK_THREATS.len()
}

/// The learned evaluation at work on one board: its tables and, per
/// colour, the sums of their point values over that colour's empty points
/// (`[as the side to move, as the opponent]`), kept as stones come and go.
#[derive(Clone)]
pub struct LearnedEval {
    tables: &'static Learned,
    /// The rule of the board followed, and its tables laid out.
    rule: Rule,
    by_combo: &'static [[i16; 2]],
    threat: &'static [i16],
    sums: [[i32; 2]; 2],
    /// The sums before each stone it followed in, newest last: a take-back
    /// of such a stone puts them back, where it was told every combination
    /// restored (issue 55).
    before: Vec<[[i32; 2]; 2]>,
}

impl std::fmt::Debug for LearnedEval {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LearnedEval")
            .field("tables", &self.tables)
            .field("rule", &self.rule)
            .field("sums", &self.sums)
            .finish()
    }
}

impl LearnedEval {
    /// The evaluation by `tables`, to be started on a board.
    pub fn new(tables: &'static Learned) -> LearnedEval {
        let rule = Rule::Freestyle;
        LearnedEval {
            tables,
            rule,
            by_combo: tables.by_combo(rule),
            threat: &tables.tables(rule).threat,
            sums: [[0; 2]; 2],
            before: Vec::with_capacity(crate::pos::MAX_SIZE * crate::pos::MAX_SIZE),
        }
    }

    /// The tables it evaluates by.
    pub fn tables(&self) -> &'static Learned {
        self.tables
    }

    /// `colour`'s sums over its empty points of the point values: `[as the
    /// side to move, as the opponent]`.
    #[inline]
    pub fn sums(&self, colour: Player) -> [i32; 2] {
        self.sums[colour.index()]
    }

    /// The sums of the position on `b`, counted from the stones.
    fn count(&mut self, b: &Board) {
        let tables = self.tables;
        self.rule = b.rule();
        self.by_combo = tables.by_combo(self.rule);
        self.threat = &tables.tables(self.rule).threat;
        self.sums = [[0; 2]; 2];
        self.before.clear();
        for p in b.empty_points() {
            for (c, colour) in [Player::X, Player::O].into_iter().enumerate() {
                let [mine, theirs] = self.by_combo[usize::from(b.combo(p, colour))];
                self.sums[c][0] += i32::from(mine);
                self.sums[c][1] += i32::from(theirs);
            }
        }
    }

    /// Adds (`sign` 1) or removes (-1) a point of these combinations.
    #[inline]
    fn add(&mut self, combos: [u16; 2], sign: i32) {
        for (c, combo) in combos.into_iter().enumerate() {
            let [mine, theirs] = self.by_combo[usize::from(combo)];
            self.sums[c][0] += sign * i32::from(mine);
            self.sums[c][1] += sign * i32::from(theirs);
        }
    }
}

impl Watch for LearnedEval {
    type Moved = [[i32; 2]; 2];

    #[inline]
    fn filled(&mut self, _: usize, combos: [u16; 2]) {
        self.before.push(self.sums);
        self.add(combos, -1);
    }

    #[inline]
    fn emptied(&mut self, _: usize, _: [u32; 4], combos: [u16; 2]) {
        match self.before.pop() {
            Some(sums) => self.sums = sums,
            None => self.add(combos, 1),
        }
    }

    /// Only for a stone counted at the start (the stones followed since
    /// came off first, last in first out): one it followed in has its
    /// sums from before it kept.
    #[inline]
    fn shapes_back(&mut self, _: usize) -> bool {
        self.before.is_empty()
    }

    #[inline]
    fn line(&mut self, _: usize, _: usize, _: u32, _: &mut Self::Moved) {}

    #[inline]
    fn shape(&self, c: usize, before: u16, after: u16, moved: &mut Self::Moved) {
        let (was, is) = (
            self.by_combo[usize::from(before)],
            self.by_combo[usize::from(after)],
        );
        moved[c][0] += i32::from(is[0]) - i32::from(was[0]);
        moved[c][1] += i32::from(is[1]) - i32::from(was[1]);
    }

    #[inline]
    fn land(&mut self, moved: Self::Moved) {
        for (sum, moved) in self.sums.iter_mut().zip(moved) {
            sum[0] += moved[0];
            sum[1] += moved[1];
        }
    }
}

impl Evaluator for LearnedEval {
    fn start(&mut self, b: &mut Board) {
        self.count(b);
    }

    /// The mover's points, less the opponent's, plus the threat mask's
    /// value.
    #[inline]
    fn evaluate(&self, b: &Board) -> i32 {
        debug_assert_eq!(b.rule(), self.rule, "started on another board");
        let me = b.to_move();
        let [mine, _] = self.sums(me);
        let [_, theirs] = self.sums(me.opponent());
        let threat = self.threat[threat_mask(b, me)];
        (mine - theirs + i32::from(threat)).clamp(-WIN / 2, WIN / 2)
    }

    #[inline]
    fn play(&mut self, b: &mut Board, p: Pos) {
        b.play_watched(p, self);
    }

    #[inline]
    fn undo(&mut self, b: &mut Board) {
        b.undo_watched(self);
    }

    #[inline]
    fn point_values(&self, b: &Board, p: Pos, colour: Player) -> [i32; 2] {
        self.by_combo[usize::from(b.combo(p, colour))].map(i32::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Eval;
    use crate::eval::tests::random_boards;

    #[test]
    fn files_round_trip_and_refuse_damage() {
        let mut t = Tables::zero();
        t.mine[3] = 120;
        t.theirs[400] = -9;
        t.threat[5] = -77;
        let mut r = Tables::zero();
        r.mine[7] = 31;
        let learned = Learned::new([t, Tables::zero(), r], [0.0123, 0.004, 0.009]);
        let bytes = learned.to_bytes();
        assert_eq!(bytes.len(), file_len(3));
        assert_eq!(Learned::from_bytes(&bytes).unwrap(), learned);
        let mut flipped = bytes.clone();
        flipped[header(3) + 100] ^= 1;
        assert_eq!(Learned::from_bytes(&flipped), Err(TablesError::Checksum));
        assert_eq!(
            Learned::from_bytes(&bytes[..bytes.len() - 1]),
            Err(TablesError::Length {
                expected: bytes.len(),
                found: bytes.len() - 1
            })
        );
        assert_eq!(Learned::from_bytes(b"hello"), Err(TablesError::NotTables));
        let mut later = bytes.clone();
        later[8] = 9;
        assert_eq!(Learned::from_bytes(&later), Err(TablesError::Version(9)));
        let mut other = bytes;
        other[12] = 7;
        let e = Learned::from_bytes(&other).unwrap_err();
        assert!(e.to_string().contains("shapes"), "{e}");
    }

    /// A file of version 1 (freestyle and exact five) still reads; renju
    /// takes exact five's tables and scale.
    #[test]
    fn version_one_files_give_renju_exact_fives_tables() {
        let mut t = Tables::zero();
        t.mine[3] = 120;
        let mut e = Tables::zero();
        e.threat[9] = -5;
        let three = Learned::new([t.clone(), e.clone(), Tables::zero()], [0.01, 0.02, 0.03]);
        // The same file as version 1 wrote it: two scales, two rules.
        let mut v1 = three.to_bytes();
        v1.truncate(v1.len() - CHECKSUM);
        v1.drain(header(3) + 2 * (2 * (2 * SHAPES + MASKS))..);
        v1.drain(24..28);
        v1[8] = 1;
        let sum = Sha256::digest(&v1);
        v1.extend_from_slice(&sum);
        assert_eq!(v1.len(), file_len(2));
        let read = Learned::from_bytes(&v1).unwrap();
        assert_eq!(read, Learned::new([t, e.clone(), e], [0.01, 0.02, 0.02]));
    }

    /// Both colours' sums.
    fn sums(e: &LearnedEval) -> [[i32; 2]; 2] {
        [Player::X, Player::O].map(|c| e.sums(c))
    }

    #[test]
    fn the_evaluator_keeps_the_sums_move_by_move() {
        let learned = Learned::embedded();
        let mut e = LearnedEval::new(learned);
        for mut b in random_boards(&[Rule::Freestyle, Rule::Exact, Rule::Renju], 9, 80, 50) {
            e.start(&mut b);
            // Play on and take back through the evaluator: each step's sums
            // are those counted afresh.
            let mut fresh = LearnedEval::new(learned);
            let moves: Vec<Pos> = b.empty_points().step_by(7).take(12).collect();
            for &p in &moves {
                e.play(&mut b, p);
                fresh.start(&mut b);
                assert_eq!(sums(&e), sums(&fresh), "{b:?}");
                assert_eq!(e.evaluate(&b), fresh.evaluate(&b));
            }
            for _ in &moves {
                e.undo(&mut b);
                fresh.start(&mut b);
                assert_eq!(sums(&e), sums(&fresh), "{b:?}");
            }
            // Take every stone back: the sums follow to the empty board's
            // (the stones counted at the start are told back by their
            // shapes, the followed ones by the sums kept from before them).
            while !b.history().is_empty() {
                e.undo(&mut b);
            }
            let mut empty = Board::with_rule(15, b.rule()).unwrap();
            fresh.start(&mut empty);
            assert_eq!(sums(&e), sums(&fresh));
        }
    }

    #[test]
    fn the_embedded_tables_read() {
        let e = Learned::embedded();
        assert!(e.scale(Rule::Freestyle) > 0.0 && e.scale(Rule::Exact) > 0.0);
        let predicted = |b: &Board| {
            let mut b = b.clone();
            let score = Eval::Learned(e).score(&mut b);
            1.0 / (1.0 + (-e.scale(b.rule()) * score as f64).exp())
        };
        // The first player is favoured on the empty board, but nothing is
        // decided.
        let empty = Board::new(15).unwrap();
        let first = predicted(&empty);
        assert!((0.5..0.95).contains(&first), "{first}");
        // Three in a row open at both ends: good for its owner to move,
        // and worse for the side that must answer it.
        let mut b = Board::new(15).unwrap();
        for (x, y) in [(6, 7), (2, 12), (7, 7), (12, 2), (8, 7), (2, 2)] {
            b.play(Pos::at(x, y)).unwrap();
        }
        let owner = predicted(&b);
        b.set_to_move(Player::O);
        let answers = predicted(&b);
        assert!(owner > 0.8 && answers < 0.5, "{owner} {answers}");
    }
}
