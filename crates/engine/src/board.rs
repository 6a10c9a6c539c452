//! The position: stones on a padded grid, with every empty point's line
//! patterns kept up to date as stones come and go.
//!
//! Placing or removing a stone touches only the 32 points within four steps
//! along its four lines (40 within five under exact five); for each the key
//! changes by one two-bit field and the pattern tables give the new
//! patterns. The running sums (evaluation values, pattern counts, threat
//! counts) change by the difference, so the search never recounts the
//! board.

use inarow_core::renju::{Forbidden, Grid, Stone};
use inarow_core::stones::StoneError;
use inarow_core::{Player, Point, Rule, zobrist};

use crate::fine::{self, CLASSES, FINE_STEP, PointClass};
use crate::fine_tables::FineTables;
use crate::learned::{Learned, PointEntry};
use crate::pattern::{
    self, BLACK, EMPTY, HALF, PATTERNS, Pattern, REACH, THREATS, Threat, WALL, WHITE, combo_index,
};
pub use crate::pos::{CELLS, MAX_SIZE, PAD, Pos, STRIDE};

/// Smallest supported board side.
pub const MIN_SIZE: usize = 5;
/// Index steps of the four line directions: across, down, and both diagonals.
pub const DIRS: [isize; 4] = [1, STRIDE as isize, STRIDE as isize + 1, STRIDE as isize - 1];
/// Weight of each direction's pattern in a combination index.
const COMBO_STEP: [i32; 4] = [
    1,
    PATTERNS as i32,
    (PATTERNS * PATTERNS) as i32,
    (PATTERNS * PATTERNS * PATTERNS) as i32,
];
/// Radius (in king steps) of the neighbourhood that makes a point a candidate.
const NEAR: isize = 2;

/// Zobrist keys by grid index and point state (none for an empty point).
static ZOBRIST: [[u64; 4]; CELLS] = {
    let mut table = [[0; 4]; CELLS];
    let mut keys = zobrist::Keys::new(0x9E37_79B9_7F4A_7C15);
    let mut i = 0;
    while i < CELLS {
        table[i] = [0, keys.next_key(), keys.next_key(), keys.next_key()];
        i += 1;
    }
    table
};

/// Zobrist key of the side to move being white.
const WHITE_TO_MOVE: u64 = 0x5851_F42D_4C95_7F2D;

/// Zobrist key of the game being exact five: the same stones are a
/// different position under another rule (tables and caches keyed by the
/// hash never mix the two).
const EXACT_FIVE: u64 = 0xD1B5_4A32_D192_ED03;

/// Zobrist key of the game being renju.
const RENJU: u64 = 0x9E37_79B9_7F4A_7C15;

/// The state code of a colour's stones.
#[inline]
pub(crate) fn stone_of(p: Player) -> u8 {
    match p {
        Player::X => BLACK,
        Player::O => WHITE,
    }
}

/// How the running sums of values move while one stone's neighbours are
/// looked up again, per colour.
#[derive(Default)]
struct Moved {
    value: [i32; 2],
    shape: [[i32; 2]; 2],
    fine: [i32; 2],
}

/// The fine patterns ([`crate::fine`]) of every empty point and the sums
/// over them of a set of fine tables, kept only while an evaluation reads
/// them.
#[derive(Clone)]
struct FineKept {
    tables: &'static FineTables,
    of_key: &'static [u8],
    code_of: &'static [u16],
    class_of: [&'static [PointClass]; 2],
    /// Per colour, the point values of its table slot, by code.
    value: [&'static [i16]; 2],
    /// Per point and direction, both colours' fine patterns (black's in
    /// the low four bits).
    pats: Vec<[u8; 4]>,
    combo: [Vec<u16>; 2],
    /// Per colour, the sum of its point values over the empty points.
    sum: [i32; 2],
    /// Per colour, how many empty points are of each class.
    classes: [[i32; CLASSES]; 2],
    /// Black's sum less white's before each stone placed or pass made,
    /// newest last.
    before: Vec<i32>,
}

impl FineKept {
    fn new(tables: &'static FineTables, rule: Rule) -> FineKept {
        fine::warm_up(rule);
        let slot = |c| fine::table_slot(rule, c);
        FineKept {
            tables,
            of_key: fine::fine_table(rule),
            code_of: fine::code_table(),
            class_of: [fine::class_table(0, rule), fine::class_table(1, rule)],
            value: [&tables.value[slot(0)][..], &tables.value[slot(1)][..]],
            pats: vec![[0; 4]; CELLS],
            combo: [vec![0; CELLS], vec![0; CELLS]],
            sum: [0; 2],
            classes: [[0; CLASSES]; 2],
            before: Vec::with_capacity(MAX_SIZE * MAX_SIZE),
        }
    }

    /// Empty point `i`'s code for colour `c`.
    #[inline]
    fn code(&self, c: usize, i: usize) -> usize {
        usize::from(self.code_of[usize::from(self.combo[c][i])])
    }

    /// Black's sum less white's.
    #[inline]
    fn black_sum(&self) -> i32 {
        self.sum[0] - self.sum[1]
    }

    fn refresh_dir(&mut self, i: usize, d: usize, key: u32) {
        self.pats[i][d] = self.of_key[key as usize];
        for c in 0..2 {
            let p = self.pats[i].map(|pair| i32::from(pair >> (4 * c) & 15));
            self.combo[c][i] = (0..4).map(|d| p[d] * FINE_STEP[d]).sum::<i32>() as u16;
        }
    }

    /// Adds (`sign` 1) or removes (-1) empty point `i`'s contributions.
    #[inline]
    fn add(&mut self, i: usize, sign: i32) {
        for c in 0..2 {
            let code = self.code(c, i);
            self.sum[c] += sign * i32::from(self.value[c][code]);
            self.classes[c][self.class_of[c][code] as usize] += sign;
        }
    }

    /// Looks up empty point `q`'s fine patterns along `d` again (its key
    /// `key` changed) and moves the sums by the difference.
    #[inline]
    fn repattern(&mut self, q: usize, d: usize, key: u32, moved: &mut [i32; 2]) {
        let fresh = self.of_key[key as usize];
        let old = self.pats[q][d];
        if fresh == old {
            return;
        }
        self.pats[q][d] = fresh;
        for (c, moved) in moved.iter_mut().enumerate() {
            let (was, is) = (
                i32::from(old >> (4 * c) & 15),
                i32::from(fresh >> (4 * c) & 15),
            );
            if was == is {
                continue;
            }
            let before = self.combo[c][q];
            let after = (i32::from(before) + (is - was) * FINE_STEP[d]) as u16;
            self.combo[c][q] = after;
            let (cb, ca) = (
                usize::from(self.code_of[usize::from(before)]),
                usize::from(self.code_of[usize::from(after)]),
            );
            *moved += i32::from(self.value[c][ca]) - i32::from(self.value[c][cb]);
            let (kb, ka) = (self.class_of[c][cb], self.class_of[c][ca]);
            if kb != ka {
                self.classes[c][kb as usize] -= 1;
                self.classes[c][ka as usize] += 1;
            }
        }
    }
}

/// What a point of the grid holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cell {
    /// Nothing yet: a point to play.
    Empty,
    /// A stone of this colour (`Player::X` is black).
    Stone(Player),
    /// Off the board, or a point taken out of play.
    Wall,
}

/// Errors when setting up or changing a board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardError {
    /// The board side is not supported.
    Size(usize),
    /// A stone cannot go there: off the board or taken (core's one
    /// check and wording).
    Stone(StoneError),
}

impl std::fmt::Display for BoardError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BoardError::Size(n) => write!(
                f,
                "unsupported board size {n} (supported: {MIN_SIZE} to {MAX_SIZE})"
            ),
            BoardError::Stone(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for BoardError {}

/// A gomoku position under its rule: freestyle (five or more in a row
/// wins) or exact five (exactly five wins, for either colour).
#[derive(Clone)]
pub struct Board {
    size: usize,
    rule: Rule,
    cells: Vec<u8>,
    /// Each point's key per direction: the four neighbours on each side.
    keys: Vec<[u16; 4]>,
    /// The top four bits of an exact-five key (the neighbours at distance
    /// five), apart so that freestyle's keys stay as small as they were;
    /// always zero in freestyle.
    outer: Vec<[u8; 4]>,
    pats: [Vec<[u8; 4]>; 2],
    combo: [Vec<u16>; 2],
    value: [i32; 2],
    counts: [[i32; PATTERNS]; 2],
    threats: [[i32; THREATS]; 2],
    near: Vec<u8>,
    hash: u64,
    history: Vec<Pos>,
    to_move: Player,
    on_board: Vec<Pos>,
    pattern_of: &'static [[Pattern; 2]],
    /// What each combination of line patterns is worth, hand-set and
    /// learned, and its threat.
    info_of: &'static [PointEntry],
    /// The learned evaluation's tables the shape sums are kept for.
    learned: &'static Learned,
    /// Per colour, the sums of those values over its empty points.
    shape_sums: [[i32; 2]; 2],
    /// Under renju, the stones as the core's forbidden-point check reads
    /// them (walls as white), kept as they change so a check need not
    /// build it.
    grid: Grid,
    /// The fine patterns and their tables' sums, while an evaluation
    /// reads them.
    fine: Option<Box<FineKept>>,
}

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for y in 0..self.size {
            for x in 0..self.size {
                let c = match self.cells[Pos::at(x, y).index()] {
                    BLACK => 'x',
                    WHITE => 'o',
                    WALL => '#',
                    _ => '.',
                };
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

impl Board {
    /// An empty freestyle board `size` points wide, black to move.
    pub fn new(size: usize) -> Result<Board, BoardError> {
        Board::with_rule(size, Rule::Freestyle)
    }

    /// An empty board `size` points wide under `rule`, black to move.
    pub fn with_rule(size: usize, rule: Rule) -> Result<Board, BoardError> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(BoardError::Size(size));
        }
        pattern::warm_up(rule);
        let learned = Learned::embedded();
        let mut cells = vec![WALL; CELLS];
        let mut on_board = Vec::with_capacity(size * size);
        for y in 0..size {
            for x in 0..size {
                let p = Pos::at(x, y);
                cells[p.index()] = EMPTY;
                on_board.push(p);
            }
        }
        let mut b = Board {
            size,
            rule,
            cells,
            keys: vec![[0; 4]; CELLS],
            outer: vec![[0; 4]; CELLS],
            pats: [vec![[0; 4]; CELLS], vec![[0; 4]; CELLS]],
            combo: [vec![0; CELLS], vec![0; CELLS]],
            value: [0; 2],
            counts: [[0; PATTERNS]; 2],
            threats: [[0; THREATS]; 2],
            near: vec![0; CELLS],
            hash: match rule {
                Rule::Freestyle => 0,
                Rule::Exact => EXACT_FIVE,
                Rule::Renju => RENJU,
            },
            history: Vec::with_capacity(MAX_SIZE * MAX_SIZE),
            to_move: Player::X,
            on_board,
            pattern_of: pattern::pattern_table(rule),
            info_of: learned.by_combo(rule),
            learned,
            shape_sums: [[0; 2]; 2],
            grid: Grid::new(size),
            fine: None,
        };
        for k in 0..b.on_board.len() {
            let i = b.on_board[k].index();
            for d in 0..4 {
                let key = b.key_of(i, d);
                b.keys[i][d] = key as u16;
                b.outer[i][d] = (key >> 16) as u8;
            }
            b.refresh(i);
            b.add(i, 1);
        }
        Ok(b)
    }

    /// The rule the board is played under.
    #[inline]
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// The same position under `rule`: the stones placed again in the
    /// order they came, the side to move kept (a manager may change the
    /// rule in mid-game).
    pub fn set_rule(&mut self, rule: Rule) {
        if rule == self.rule {
            return;
        }
        self.rebuild(rule, self.fine_tables());
    }

    /// The same position under `rule`, keeping fine patterns for `fine`:
    /// the stones placed again in the order they came.
    fn rebuild(&mut self, rule: Rule, fine: Option<&'static FineTables>) {
        let mut b = Board::with_rule(self.size, rule).expect("the size was accepted");
        b.set_learned(self.learned);
        if let Some(tables) = fine {
            let mut kept = Box::new(FineKept::new(tables, rule));
            for k in 0..b.on_board.len() {
                let i = b.on_board[k].index();
                for d in 0..4 {
                    kept.refresh_dir(i, d, b.key(i, d));
                }
                kept.add(i, 1);
            }
            b.fine = Some(kept);
        }
        for &p in &self.history {
            b.put(p.index(), self.cells[p.index()]);
        }
        b.set_to_move(self.to_move);
        *self = b;
    }

    /// Keeps fine patterns and the sums of `tables` from now on (`None`:
    /// no longer); the position is played again to count them.
    pub fn set_fine(&mut self, tables: Option<&'static FineTables>) {
        let same = match (self.fine_tables(), tables) {
            (Some(a), Some(b)) => std::ptr::eq(a, b),
            (a, b) => a.is_none() && b.is_none(),
        };
        if !same {
            self.rebuild(self.rule, tables);
        }
    }

    /// The fine tables whose sums the board keeps, if any.
    #[inline]
    pub fn fine_tables(&self) -> Option<&'static FineTables> {
        self.fine.as_ref().map(|f| f.tables)
    }

    /// While fine tables are kept: black's point sum less white's now, and
    /// before the last stone or pass (now, on an empty board).
    #[inline]
    pub fn fine_sums(&self) -> Option<[i32; 2]> {
        self.fine.as_ref().map(|f| {
            let now = f.black_sum();
            [now, f.before.last().copied().unwrap_or(now)]
        })
    }

    /// While fine tables are kept, how many empty points are of each point
    /// class for `colour`.
    #[inline]
    pub fn point_classes(&self, colour: Player) -> Option<&[i32; CLASSES]> {
        self.fine.as_ref().map(|f| &f.classes[colour.index()])
    }

    /// While fine tables are kept, empty point `p`'s fine code for `colour`.
    #[inline]
    pub fn fine_code(&self, p: Pos, colour: Player) -> Option<u16> {
        self.fine
            .as_ref()
            .map(|f| f.code(colour.index(), p.index()) as u16)
    }

    /// While fine tables are kept, the move-ordering score of empty point
    /// `p` for `colour` to play: what its code makes for `colour` plus what
    /// the opponent's code there is worth to block.
    #[inline]
    pub fn fine_order(&self, p: Pos, colour: Player) -> Option<i32> {
        let f = self.fine.as_ref()?;
        let i = p.index();
        let (me, them) = (colour.index(), colour.opponent().index());
        let slot = |c: usize| fine::table_slot(self.rule, c);
        Some(
            i32::from(f.tables.order[slot(me)][f.code(me, i)][0])
                + i32::from(f.tables.order[slot(them)][f.code(them, i)][1]),
        )
    }

    /// Passes the turn without a stone (a null move): the side to move
    /// changes, and the fine sums' last ply is this one.
    #[inline]
    pub fn pass(&mut self) {
        if let Some(f) = self.fine.as_deref_mut() {
            f.before.push(f.black_sum());
        }
        self.set_to_move(self.to_move.opponent());
    }

    /// Takes back a [`Board::pass`].
    #[inline]
    pub fn unpass(&mut self) {
        if let Some(f) = self.fine.as_deref_mut() {
            f.before.pop();
        }
        self.set_to_move(self.to_move.opponent());
    }

    /// The key of point `i` along direction `d`, read from the cells: the
    /// neighbours within the rule's reach, off the grid read as off the
    /// board (the padding is four points wide; exact five looks at five).
    fn key_of(&self, i: usize, d: usize) -> u32 {
        let reach = pattern::reach(self.rule) as isize;
        let mut key = 0u32;
        for off in (-reach..=reach).filter(|&o| o != 0) {
            let q = i as isize + off * DIRS[d];
            let v = if (0..CELLS as isize).contains(&q) {
                self.cells[q as usize]
            } else {
                WALL
            };
            key |= u32::from(v) << (2 * pattern::slot(off));
        }
        key
    }

    /// The board side.
    #[inline]
    pub fn size(&self) -> usize {
        self.size
    }

    /// The point at column `x`, row `y`, or an error if it is off the board.
    pub fn checked_pos(&self, x: usize, y: usize) -> Result<Pos, BoardError> {
        Pos::from_xy(x, y, self.size).ok_or(BoardError::Stone(StoneError::OffBoard { x, y }))
    }

    /// The game core's point of `p`.
    #[inline]
    pub fn point(&self, p: Pos) -> Point {
        p.point(self.size)
    }

    /// The point of the game core's `point`, or an error if it is off the board.
    pub fn pos_of(&self, point: Point) -> Result<Pos, BoardError> {
        self.checked_pos(point.col(self.size), point.row(self.size))
    }

    /// The board's points, row by row.
    #[inline]
    pub fn points(&self) -> &[Pos] {
        &self.on_board
    }

    /// The empty points, row by row.
    #[inline]
    pub fn empty_points(&self) -> impl Iterator<Item = Pos> + '_ {
        self.on_board.iter().copied().filter(|&p| self.is_empty(p))
    }

    /// What grid point `p` holds (a wall for the padding).
    #[inline]
    pub fn cell(&self, p: Pos) -> Cell {
        match self.cells[p.index()] {
            EMPTY => Cell::Empty,
            BLACK => Cell::Stone(Player::X),
            WHITE => Cell::Stone(Player::O),
            _ => Cell::Wall,
        }
    }

    /// True if the grid point is on the board and empty.
    #[inline]
    pub fn is_empty(&self, p: Pos) -> bool {
        self.cells[p.index()] == EMPTY
    }

    /// The side to move.
    #[inline]
    pub fn to_move(&self) -> Player {
        self.to_move
    }

    /// Sets the side to move (after placing opening stones).
    pub fn set_to_move(&mut self, p: Player) {
        if p != self.to_move {
            self.hash ^= WHITE_TO_MOVE;
            self.to_move = p;
        }
    }

    /// Zobrist hash of stones and side to move.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Stones (and blocked points) placed so far.
    #[inline]
    pub fn stones(&self) -> usize {
        self.history.len()
    }

    /// The moves and placements so far, oldest first.
    pub fn history(&self) -> &[Pos] {
        &self.history
    }

    /// Empty points left on the board.
    pub fn empty_count(&self) -> usize {
        self.size * self.size - self.history.len()
    }

    /// True if some stone is within two king steps of the empty point `p`.
    #[inline]
    pub fn is_near(&self, p: Pos) -> bool {
        self.near[p.index()] > 0
    }

    /// The pattern `colour` would make at empty point `p` along direction `d`.
    #[inline]
    pub fn pattern(&self, p: Pos, colour: Player, d: usize) -> Pattern {
        Pattern::from_index(self.pats[colour.index()][p.index()][d] as usize)
    }

    /// The threat `colour` would make with a stone on empty point `p`.
    #[inline]
    pub fn threat(&self, p: Pos, colour: Player) -> Threat {
        self.info_of[self.combo[colour.index()][p.index()] as usize].threat
    }

    /// The index of empty point `p`'s four patterns for `colour` in the
    /// combination tables ([`pattern::combo_index`]).
    #[inline]
    pub fn combo(&self, p: Pos, colour: Player) -> u16 {
        self.combo[colour.index()][p.index()]
    }

    /// The evaluation value of empty point `p` for `colour`.
    #[inline]
    pub fn point_value(&self, p: Pos, colour: Player) -> i32 {
        i32::from(self.info_of[self.combo[colour.index()][p.index()] as usize].value)
    }

    /// The learned tables' values of empty point `p` for `colour`: `[as
    /// the side to move, as the opponent]`.
    #[inline]
    pub fn learned_point(&self, p: Pos, colour: Player) -> [i32; 2] {
        let entry = self.info_of[self.combo[colour.index()][p.index()] as usize];
        [i32::from(entry.mine), i32::from(entry.theirs)]
    }

    /// Under renju, why a black stone on `p` would be forbidden (RIF,
    /// decided by the core's check); `None` under the other rules, on a
    /// stone, or where black makes five. Only points whose own lines could
    /// make two threes, two fours or six are checked in full.
    pub fn forbidden(&self, p: Pos) -> Option<Forbidden> {
        let i = p.index();
        if self.rule != Rule::Renju || self.cells[i] != EMPTY {
            return None;
        }
        // Two fours (a flex four may be two in one line) or two threes,
        // as black's own lines show them, or six in a row.
        let (mut fours, mut threes) = (0, 0);
        for &p in &self.pats[0][i] {
            match Pattern::from_index(usize::from(p)) {
                Pattern::Five => return None,
                Pattern::Flex4 => fours += 2,
                Pattern::Block4 => fours += 1,
                Pattern::Flex3 => threes += 1,
                _ => {}
            }
        }
        let suspect = fours >= 2 || threes >= 2 || self.makes_overline(i);
        if !suspect {
            return None;
        }
        let (x, y) = p.xy();
        let mut grid = self.grid;
        grid.forbidden(x, y)
    }

    /// Whether `colour` may not play `p`: black on a forbidden point under
    /// renju.
    #[inline]
    pub fn is_forbidden_to(&self, p: Pos, colour: Player) -> bool {
        colour == Player::X && self.rule == Rule::Renju && self.forbidden(p).is_some()
    }

    /// Whether `colour` has an empty point of exactly threat `t` that it
    /// may play: under renju black's forbidden points make no threat.
    #[inline]
    pub fn has_threat(&self, colour: Player, t: Threat) -> bool {
        self.threat_count(colour, t) > 0
            && (colour == Player::O
                || self.rule != Rule::Renju
                || self.find_playable(colour, t).is_some())
    }

    /// The first empty point (in board order) of exactly threat `t` that
    /// `colour` may play.
    pub fn find_playable(&self, colour: Player, t: Threat) -> Option<Pos> {
        if self.threat_count(colour, t) == 0 {
            return None;
        }
        self.on_board.iter().copied().find(|&p| {
            self.is_empty(p) && self.threat(p, colour) == t && !self.is_forbidden_to(p, colour)
        })
    }

    /// Whether a black stone on `i` would make six or more in a row. A
    /// line is walked only where its key shows four black stones among
    /// the eight neighbours, as any six through the point has.
    #[inline]
    fn makes_overline(&self, i: usize) -> bool {
        DIRS.iter().enumerate().any(|(d, &step)| {
            let key = self.keys[i][d];
            // Black's code (01) at each two-bit slot.
            let black = key & !(key >> 1) & 0x5555;
            black.count_ones() >= 4 && self.run(i, step, BLACK) >= 6
        })
    }

    /// Stones of state `v` in a row through grid point `i` along `step`,
    /// `i` counted as one of them.
    #[inline]
    fn run(&self, i: usize, step: isize, v: u8) -> usize {
        let mut n = 1;
        for sign in [-1isize, 1] {
            let mut j = i as isize + sign * step;
            while self.cells[j as usize] == v {
                n += 1;
                j += sign * step;
            }
        }
        n
    }

    /// Under renju, keeps the forbidden-point grid's point `i`.
    #[inline]
    fn mirror(&mut self, i: usize, stone: Stone) {
        if self.rule == Rule::Renju {
            let (x, y) = Pos::from_index(i).xy();
            self.grid.set(x, y, stone);
        }
    }

    /// Number of (empty point, direction) pairs where `colour` has pattern `p`.
    pub fn pattern_count(&self, colour: Player, p: Pattern) -> i32 {
        self.counts[colour.index()][p as usize]
    }

    /// Number of empty points where `colour` would make threat `t`.
    #[inline]
    pub fn threat_count(&self, colour: Player, t: Threat) -> i32 {
        self.threats[colour.index()][t as usize]
    }

    /// Sum of `colour`'s point values over the empty points.
    #[inline]
    pub fn value(&self, colour: Player) -> i32 {
        self.value[colour.index()]
    }

    /// The learned evaluation's tables the board keeps its shape sums for.
    #[inline]
    pub fn learned(&self) -> &'static Learned {
        self.learned
    }

    /// Keeps the shape sums for these tables from now on (the sums are
    /// counted again when they differ from the ones in use).
    pub fn set_learned(&mut self, learned: &'static Learned) {
        if std::ptr::eq(learned, self.learned) {
            return;
        }
        self.learned = learned;
        self.info_of = learned.by_combo(self.rule);
        self.shape_sums = [[0; 2]; 2];
        for k in 0..self.on_board.len() {
            let i = self.on_board[k].index();
            if self.cells[i] == EMPTY {
                for c in 0..2 {
                    let entry = self.info_of[self.combo[c][i] as usize];
                    self.shape_sums[c][0] += i32::from(entry.mine);
                    self.shape_sums[c][1] += i32::from(entry.theirs);
                }
            }
        }
    }

    /// `colour`'s sums over its empty points of the learned tables' point
    /// values: `[as the side to move, as the opponent]`.
    #[inline]
    pub fn shape_sums(&self, colour: Player) -> [i32; 2] {
        self.shape_sums[colour.index()]
    }

    /// The first empty point (in board order) where `colour` makes at least `t`.
    pub fn find_threat(&self, colour: Player, t: Threat) -> Option<Pos> {
        self.on_board
            .iter()
            .copied()
            .find(|&p| self.is_empty(p) && self.threat(p, colour) >= t)
    }

    /// True if a stone of the side to move on `p` makes five.
    #[inline]
    pub fn wins_now(&self, p: Pos) -> bool {
        self.threat(p, self.to_move) == Threat::Five
    }

    /// True if the last stone placed made a five (under exact five, a line
    /// of exactly five).
    pub fn last_move_won(&self) -> bool {
        self.history
            .last()
            .is_some_and(|&last| self.wins_through(last))
    }

    /// True if the stone on `p` is in a winning line now (under exact
    /// five, a line of exactly five: a five that later grew to six no
    /// longer counts).
    pub fn wins_through(&self, p: Pos) -> bool {
        let i = p.index();
        let v = self.cells[i];
        if v != BLACK && v != WHITE {
            return false;
        }
        let rule = pattern::colour_rule(self.rule, usize::from(v - BLACK));
        DIRS.iter()
            .any(|&step| pattern::is_five(self.run(i, step, v), rule))
    }

    /// Places a stone of the side to move on `(x, y)` and passes the turn,
    /// or says why the point cannot be played.
    pub fn play(&mut self, x: usize, y: usize) -> Result<(), BoardError> {
        let p = self.empty_pos(x, y)?;
        self.play_unchecked(p);
        Ok(())
    }

    /// Places a stone of the side to move on empty point `p` and passes the
    /// turn, without checking: the fast path for search.
    #[inline]
    pub fn play_unchecked(&mut self, p: Pos) {
        debug_assert!(self.is_empty(p));
        let v = stone_of(self.to_move);
        self.put(p.index(), v);
        self.set_to_move(self.to_move.opponent());
    }

    /// Takes back the last stone played with [`Board::play_unchecked`] or [`Board::play`].
    #[inline]
    pub fn undo(&mut self) {
        self.set_to_move(self.to_move.opponent());
        self.take_back();
    }

    /// Places a stone of `colour` on `(x, y)` without changing the side to
    /// move, or says why the point cannot take it.
    pub fn place(&mut self, x: usize, y: usize, colour: Player) -> Result<(), BoardError> {
        let p = self.empty_pos(x, y)?;
        self.put(p.index(), stone_of(colour));
        Ok(())
    }

    /// Takes `(x, y)` out of play (a Gomocup `BOARD` field 3): no stone may
    /// go there and no line runs through it.
    pub fn wall(&mut self, x: usize, y: usize) -> Result<(), BoardError> {
        let p = self.empty_pos(x, y)?;
        self.put(p.index(), WALL);
        Ok(())
    }

    /// The point `(x, y)`, or an error if it is off the board or taken.
    fn empty_pos(&self, x: usize, y: usize) -> Result<Pos, BoardError> {
        let p = self.checked_pos(x, y)?;
        if !self.is_empty(p) {
            return Err(BoardError::Stone(StoneError::Taken { x, y }));
        }
        Ok(p)
    }

    /// Removes the most recently placed stone without changing the side to move.
    pub fn take_back(&mut self) -> Option<Pos> {
        let p = self.history.pop()?;
        let i = p.index();
        let v = self.cells[i];
        self.update(i, v);
        self.cells[i] = EMPTY;
        self.mirror(i, Stone::Empty);
        self.hash ^= ZOBRIST[i][v as usize];
        self.touch_near(i, -1);
        self.refresh(i);
        self.add(i, 1);
        if let Some(f) = self.fine.as_deref_mut() {
            f.before.pop();
        }
        Some(p)
    }

    /// Removes the stone on `p`, wherever it is in the history (for TAKEBACK).
    pub fn remove(&mut self, p: Pos) -> bool {
        let Some(at) = self.history.iter().rposition(|&h| h == p) else {
            return false;
        };
        let later: Vec<(usize, u8)> = self.history[at + 1..]
            .iter()
            .map(|&h| (h.index(), self.cells[h.index()]))
            .collect();
        for _ in 0..later.len() + 1 {
            self.take_back();
        }
        for (j, v) in later {
            self.put(j, v);
        }
        true
    }

    fn put(&mut self, i: usize, v: u8) {
        if let Some(f) = self.fine.as_deref_mut() {
            f.before.push(f.black_sum());
        }
        self.add(i, -1);
        self.cells[i] = v;
        self.mirror(
            i,
            if v == BLACK {
                Stone::Black
            } else {
                Stone::White
            },
        );
        self.hash ^= ZOBRIST[i][v as usize];
        self.history.push(Pos::from_index(i));
        self.touch_near(i, 1);
        self.update(i, v);
    }

    /// Flips neighbour keys for state `v` at `i` (xor: the same call undoes
    /// it), as far as the rule looks.
    #[inline]
    fn update(&mut self, i: usize, v: u8) {
        match self.rule {
            Rule::Freestyle => self.update_within::<{ HALF as isize }>(i, v),
            Rule::Exact | Rule::Renju => self.update_within::<{ REACH as isize }>(i, v),
        }
    }

    /// [`Board::update`] for the points up to `R` steps away along each line
    /// (a constant, so that freestyle's loop is exactly what it was).
    #[inline]
    fn update_within<const R: isize>(&mut self, i: usize, v: u8) {
        // The sums move in locals and land once: kept in the board, each
        // change was a store the next one waited on (a fifth slower).
        let mut moved = Moved::default();
        for (d, &step) in DIRS.iter().enumerate() {
            for k in 1..=R {
                for sign in [-1isize, 1] {
                    let q = (i as isize + sign * k * step) as usize;
                    // Five steps can leave the four-point padding: nothing
                    // there to update (a negative index wraps to a huge one).
                    if R > HALF as isize && q >= CELLS {
                        continue;
                    }
                    // `q` sees `i` at offset -sign*k.
                    let bits = u32::from(v) << (2 * pattern::slot(-sign * k));
                    if k <= HALF as isize {
                        self.keys[q][d] ^= bits as u16;
                    } else {
                        self.outer[q][d] ^= (bits >> 16) as u8;
                    }
                    if self.cells[q] == EMPTY {
                        self.repattern::<R>(q, d, &mut moved);
                    }
                }
            }
        }
        for c in 0..2 {
            self.value[c] += moved.value[c];
            self.shape_sums[c][0] += moved.shape[c][0];
            self.shape_sums[c][1] += moved.shape[c][1];
        }
        if let Some(f) = self.fine.as_deref_mut() {
            f.sum[0] += moved.fine[0];
            f.sum[1] += moved.fine[1];
        }
    }

    /// Looks up empty point `q`'s patterns along `d` again and moves the
    /// running sums by the difference. Most key changes leave the pattern
    /// as it was, so this is the hot path of making a move.
    #[inline]
    fn repattern<const R: isize>(&mut self, q: usize, d: usize, moved: &mut Moved) {
        let key = if R > HALF as isize {
            self.key(q, d)
        } else {
            u32::from(self.keys[q][d])
        };
        if let Some(f) = self.fine.as_deref_mut() {
            f.repattern(q, d, key, &mut moved.fine);
        }
        let fresh = self.pattern_of[key as usize];
        for (c, &p) in fresh.iter().enumerate() {
            let old = self.pats[c][q][d];
            let new = p as u8;
            if old == new {
                continue;
            }
            self.pats[c][q][d] = new;
            self.counts[c][old as usize] -= 1;
            self.counts[c][new as usize] += 1;
            let before = self.combo[c][q];
            let after =
                (i32::from(before) + (i32::from(new) - i32::from(old)) * COMBO_STEP[d]) as u16;
            self.combo[c][q] = after;
            let (was, is) = (self.info_of[before as usize], self.info_of[after as usize]);
            moved.value[c] += i32::from(is.value - was.value);
            moved.shape[c][0] += i32::from(is.mine) - i32::from(was.mine);
            moved.shape[c][1] += i32::from(is.theirs) - i32::from(was.theirs);
            if was.threat != is.threat {
                self.threats[c][was.threat as usize] -= 1;
                self.threats[c][is.threat as usize] += 1;
            }
        }
    }

    fn touch_near(&mut self, i: usize, delta: i8) {
        for dy in -NEAR..=NEAR {
            for dx in -NEAR..=NEAR {
                let q = i as isize + dy * STRIDE as isize + dx;
                if (0..CELLS as isize).contains(&q) {
                    let q = q as usize;
                    self.near[q] = self.near[q].wrapping_add_signed(delta);
                }
            }
        }
    }

    /// The whole key of point `i` along `d` (20 bits under exact five).
    #[inline]
    fn key(&self, i: usize, d: usize) -> u32 {
        u32::from(self.keys[i][d]) | u32::from(self.outer[i][d]) << 16
    }

    fn refresh_dir(&mut self, i: usize, d: usize) {
        let key = self.key(i, d);
        if let Some(f) = self.fine.as_deref_mut() {
            f.refresh_dir(i, d, key);
        }
        for c in 0..2 {
            self.pats[c][i][d] = self.pattern_of[key as usize][c] as u8;
            self.combo[c][i] = combo_index(self.pats[c][i]);
        }
    }

    fn refresh(&mut self, i: usize) {
        for d in 0..4 {
            self.refresh_dir(i, d);
        }
    }

    /// Adds (`sign` 1) or removes (-1) the contributions of empty point `i`.
    #[inline]
    fn add(&mut self, i: usize, sign: i32) {
        if let Some(f) = self.fine.as_deref_mut() {
            f.add(i, sign);
        }
        for c in 0..2 {
            let combo = self.combo[c][i] as usize;
            let info = self.info_of[combo];
            self.value[c] += sign * i32::from(info.value);
            self.shape_sums[c][0] += sign * i32::from(info.mine);
            self.shape_sums[c][1] += sign * i32::from(info.theirs);
            self.threats[c][info.threat as usize] += sign;
            for d in 0..4 {
                self.counts[c][self.pats[c][i][d] as usize] += sign;
            }
        }
    }

    /// Pattern counts, threat counts and values recomputed from scratch.
    pub fn recount(&self) -> ([[i32; PATTERNS]; 2], [[i32; THREATS]; 2], [i32; 2]) {
        let mut counts = [[0; PATTERNS]; 2];
        let mut threats = [[0; THREATS]; 2];
        let mut value = [0; 2];
        for &p in &self.on_board {
            let i = p.index();
            if self.cells[i] != EMPTY {
                continue;
            }
            for (c, colour) in [Player::X, Player::O].into_iter().enumerate() {
                let mut pats = [0u8; 4];
                for d in 0..4 {
                    let key = self.key_of(i, d);
                    pats[d] = pattern::pattern(key, colour.index(), self.rule) as u8;
                    counts[c][pats[d] as usize] += 1;
                }
                let info = pattern::info(combo_index(pats));
                threats[c][info.threat as usize] += 1;
                value[c] += info.value;
            }
        }
        (counts, threats, value)
    }

    /// While fine tables are kept: black's point sum less white's and each
    /// colour's point-class counts, recomputed from the stones alone.
    pub fn recount_fine(&self) -> Option<(i32, [[i32; CLASSES]; 2])> {
        let f = self.fine.as_ref()?;
        let mut sum = [0; 2];
        let mut classes = [[0; CLASSES]; 2];
        for &p in &self.on_board {
            let i = p.index();
            if self.cells[i] != EMPTY {
                continue;
            }
            for c in 0..2 {
                let pats = [0, 1, 2, 3].map(|d| fine::fine(self.key_of(i, d), c, self.rule));
                let code = fine::code(fine::fine_combo(pats));
                let slot = fine::table_slot(self.rule, c);
                sum[c] += i32::from(f.tables.value[slot][usize::from(code)]);
                classes[c][fine::class(code, c, self.rule) as usize] += 1;
            }
        }
        Some((sum[0] - sum[1], classes))
    }

    /// The incrementally kept counts, in the same shape as [`Board::recount`].
    pub fn kept_counts(&self) -> ([[i32; PATTERNS]; 2], [[i32; THREATS]; 2], [i32; 2]) {
        (self.counts, self.threats, self.value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zobrist_keys_never_change() {
        // Self-play and saved games replay the same only with these exact keys.
        assert_eq!(ZOBRIST[0][usize::from(BLACK)], 0x6e78_9e6a_a1b9_65f4);
        assert_eq!(ZOBRIST[CELLS - 1][3], 0x675e_2a14_2797_5ddb);
        assert_eq!(ZOBRIST[CELLS - 1][usize::from(EMPTY)], 0);
    }

    #[test]
    fn the_board_holds_the_points_that_name_themselves() {
        for size in MIN_SIZE..=MAX_SIZE {
            let b = Board::new(size).unwrap();
            for i in 0..CELLS {
                let p = Pos::from_index(i);
                let on = b.points().contains(&p);
                assert_eq!(p.xy_on(size).is_some(), on, "size {size}, index {i}");
                assert_eq!(b.cell(p) == Cell::Empty, on, "size {size}, index {i}");
            }
        }
    }

    #[test]
    fn play_checks_the_point_and_passes_the_turn() {
        let mut b = Board::new(15).unwrap();
        let off = |x, y| Err(BoardError::Stone(StoneError::OffBoard { x, y }));
        let taken = |x, y| Err(BoardError::Stone(StoneError::Taken { x, y }));
        assert_eq!(b.play(15, 0), off(15, 0));
        b.play(7, 7).unwrap();
        assert_eq!(b.cell(Pos::at(7, 7)), Cell::Stone(Player::X));
        assert_eq!(b.cell(Pos::at(7, 8)), Cell::Empty);
        assert_eq!(b.to_move(), Player::O);
        assert_eq!(b.play(7, 7), taken(7, 7));
        assert_eq!(b.stones(), 1);
        b.wall(8, 8).unwrap();
        assert_eq!(b.cell(Pos::at(8, 8)), Cell::Wall);
        assert_eq!(b.wall(8, 8), taken(8, 8));
        assert_eq!(b.place(8, 8, Player::O), taken(8, 8));
        assert_eq!(b.wall(15, 8), off(15, 8));
    }
}
