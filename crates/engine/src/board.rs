//! The position: stones on a padded grid, with every empty point's line
//! patterns kept up to date as stones come and go.
//!
//! Placing or removing a stone touches only the 32 points within four steps
//! along its four lines (40 within five under exact five); for each the key
//! changes by one two-bit field and the pattern tables give the new
//! patterns. The running threat counts change by the difference, so the
//! search never recounts the board. The pattern counts are the pattern
//! evaluation's to keep ([`crate::eval::PatternEval`]), and the sums of
//! the hand-set point values are counted when asked: kept here, they cost
//! every search a twentieth of its time and read by none (issue 55). An evaluation that keeps sums of its own follows the same
//! pass ([`Watch`], [`Board::play_watched`]): the board holds the position
//! and its line patterns, never an evaluation's state.

use std::sync::LazyLock;

use inarow_core::renju::{Forbidden, Grid, Stone};
use inarow_core::stones::StoneError;
use inarow_core::{Player, Point, Rule, zobrist};

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

/// Words of a [`PointSet`].
const WORDS: usize = CELLS.div_ceil(64);

/// A set of grid points, a bit each: read in grid order, which is the
/// board's order ([`Board::points`]).
pub(crate) type PointSet = [u64; WORDS];

/// Puts point `i` in `set` or takes it out.
#[inline(always)]
pub(crate) fn mark(set: &mut PointSet, i: usize, on: bool) {
    let (w, b) = (i / 64, i % 64);
    set[w] = set[w] & !(1 << b) | u64::from(on) << b;
}

/// One pattern change a stone made at an empty point, as it was before:
/// what a take-back puts back without looking anything up.
#[derive(Clone, Copy, Debug)]
struct Change {
    q: u16,
    d: u8,
    pats: u8,
    combo: [u16; 2],
}

/// The pattern changes of the stones placed, oldest first, each stone's
/// with the sums `S` kept before them: a take-back restores these where it
/// looked every changed point up again (issue 55). The board and the fine
/// evaluation each keep one for their own patterns.
#[derive(Clone, Debug)]
pub(crate) struct Changes<S> {
    log: Vec<Change>,
    stones: Vec<(usize, S)>,
}

impl<S> Changes<S> {
    /// An empty record, room made for a full board of stones.
    pub(crate) fn new() -> Self {
        Changes {
            log: Vec::with_capacity(MAX_SIZE * MAX_SIZE * 16),
            stones: Vec::with_capacity(MAX_SIZE * MAX_SIZE),
        }
    }

    /// Forgets every stone.
    pub(crate) fn clear(&mut self) {
        self.log.clear();
        self.stones.clear();
    }

    /// A stone is placed: its changes follow, `before` the sums before them.
    #[inline]
    pub(crate) fn place(&mut self, before: S) {
        self.stones.push((self.log.len(), before));
    }

    /// Point `q`'s patterns along `d` were `pats` and its combinations
    /// `combo` before the change.
    #[inline]
    pub(crate) fn record(&mut self, q: usize, d: usize, pats: u8, combo: [u16; 2]) {
        self.log.push(Change {
            q: q as u16,
            d: d as u8,
            pats,
            combo,
        });
    }

    /// Changes recorded so far: what [`Changes::drop_since`] takes.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.log.len()
    }

    /// Drops the changes recorded since [`Changes::len`] said `n`: those
    /// of no placed stone.
    #[inline]
    pub(crate) fn drop_since(&mut self, n: usize) {
        self.log.truncate(n);
    }

    /// Takes the last stone back: puts its changes back into `pats` and
    /// `combo` in reverse, telling `each` a point's combinations now and
    /// as they were before each, and answers the sums before the stone.
    #[inline]
    pub(crate) fn take_back(
        &mut self,
        pats: &mut [[u8; 4]; CELLS],
        combo: &mut [[u16; 2]; CELLS],
        mut each: impl FnMut([u16; 2], [u16; 2]),
    ) -> S {
        let (start, before) = self.stones.pop().expect("a record for every stone");
        for ch in self.log[start..].iter().rev() {
            let q = usize::from(ch.q);
            each(combo[q], ch.combo);
            pats[q][usize::from(ch.d)] = ch.pats;
            combo[q] = ch.combo;
        }
        self.log.truncate(start);
        before
    }
}

/// The board's running sums before a stone's changes, which its take-back
/// puts back.
#[derive(Clone, Debug)]
struct Sums {
    threats: [[i32; THREATS]; 2],
    fours: [PointSet; 2],
}

/// The points of a [`PointSet`], in grid order.
pub struct SetPoints<'a> {
    set: SetRef<'a>,
    w: usize,
    word: u64,
}

/// The set a [`SetPoints`] reads: the board's own, or one made for the
/// reading (a union).
enum SetRef<'a> {
    Borrowed(&'a PointSet),
    Owned(PointSet),
}

impl SetPoints<'_> {
    /// The points of `set`, held by the iterator.
    #[inline]
    fn owned(set: PointSet) -> SetPoints<'static> {
        SetPoints {
            word: set[0],
            set: SetRef::Owned(set),
            w: 0,
        }
    }
}

/// Whether `q` is on one of the four lines through `p` within `reach`
/// steps (or is `p`): the points whose keys a stone on `p` changes.
#[inline]
fn within_lines(p: Pos, q: Pos, reach: usize) -> bool {
    let ((px, py), (qx, qy)) = (p.xy(), q.xy());
    let (dx, dy) = (px.abs_diff(qx), py.abs_diff(qy));
    dx.max(dy) <= reach && (dx == 0 || dy == 0 || dx == dy)
}

impl Iterator for SetPoints<'_> {
    type Item = Pos;

    #[inline]
    fn next(&mut self) -> Option<Pos> {
        while self.word == 0 {
            self.w += 1;
            if self.w >= WORDS {
                return None;
            }
            self.word = match &self.set {
                SetRef::Borrowed(set) => set[self.w],
                SetRef::Owned(set) => set[self.w],
            };
        }
        let b = self.word.trailing_zeros() as usize;
        self.word &= self.word - 1;
        Some(Pos::from_index(self.w * 64 + b))
    }
}

/// A combination index after its pattern along direction `d` went from
/// `was` to `is`: the one step both a move and a read-ahead of one take.
#[inline(always)]
fn combo_moved(before: u16, d: usize, was: u8, is: u8) -> u16 {
    (i32::from(before) + (i32::from(is) - i32::from(was)) * COMBO_STEP[d]) as u16
}

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

/// What the board knows of a point with one combination of line
/// patterns: its hand-set value and its threat ([`pattern::info`]), and
/// its class for the move picker ([`crate::movepick::class`]), in four
/// bytes, so that one look-up serves a changed point or a move to order.
#[derive(Clone, Copy, Debug)]
struct PointEntry {
    value: i16,
    threat: Threat,
    class: u8,
}

/// [`PointEntry`] by combination index.
static POINTS: LazyLock<Vec<PointEntry>> = LazyLock::new(|| {
    (0..PATTERNS.pow(4) as u16)
        .map(|c| {
            let info = pattern::info(c);
            PointEntry {
                value: info.value as i16,
                threat: info.threat,
                class: crate::pattern::class_of_combo(c),
            }
        })
        .collect()
});

/// What follows the board's line patterns as stones come and go, inside
/// the board's own pass over the points a stone changes: an evaluation
/// that keeps sums of its own ([`crate::eval`]). `()` follows nothing.
///
/// Points are grid indices ([`Pos::index`]), colours `0` (black) and `1`.
pub trait Watch {
    /// What one stone's changes add up to: kept in locals while the board
    /// updates, then landed once ([`Watch::land`]); a sum kept in memory
    /// would make each change wait on the one before.
    type Moved: Default;
    /// Empty point `i` is about to take a stone; `combos` are its
    /// combination indices ([`combo_index`]), black's and white's.
    fn filled(&mut self, i: usize, combos: [u16; 2]);
    /// Point `i` is empty again: its keys along the four lines and its
    /// combination indices.
    fn emptied(&mut self, i: usize, keys: [u32; 4], combos: [u16; 2]);
    /// Empty point `q`'s key along line `d` is now `key`.
    fn line(&mut self, q: usize, d: usize, key: u32, moved: &mut Self::Moved);
    /// Empty point `q`'s combination index for colour `c` went from
    /// `before` to `after`.
    fn shape(&self, c: usize, before: u16, after: u16, moved: &mut Self::Moved);
    /// One stone's update is over.
    fn land(&mut self, moved: Self::Moved);
    /// Whether taking back the stone on point `i` must tell it of every
    /// key that changes ([`Watch::line`]): an evaluation that reads the
    /// lines themselves and kept no record of that stone's changes.
    /// Otherwise the board, which restores its patterns from its own
    /// record (issue 55), tells it only the combinations it restores, in
    /// reverse ([`Watch::shape`] from the later to the earlier).
    #[inline]
    fn reads_lines(&mut self, _i: usize) -> bool {
        false
    }
    /// Whether taking back the stone on point `i` must tell it of the
    /// combinations the board restores ([`Watch::shape`]): not for a
    /// watcher whose shapes move nothing, nor for one that kept its own
    /// sums from before that stone (issue 55).
    #[inline]
    fn shapes_back(&mut self, _i: usize) -> bool {
        true
    }
}

impl Watch for () {
    type Moved = ();
    #[inline]
    fn filled(&mut self, _: usize, _: [u16; 2]) {}
    #[inline]
    fn emptied(&mut self, _: usize, _: [u32; 4], _: [u16; 2]) {}
    #[inline]
    fn line(&mut self, _: usize, _: usize, _: u32, _: &mut ()) {}
    #[inline]
    fn shape(&self, _: usize, _: u16, _: u16, _: &mut ()) {}
    #[inline]
    fn land(&mut self, _: ()) {}
    #[inline]
    fn shapes_back(&mut self, _: usize) -> bool {
        false
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
    // The grid's arrays are of fixed length, so that an index is checked
    // against a constant rather than a length kept in memory (issue 55).
    cells: Box<[u8; CELLS]>,
    /// Each point's key per direction: the four neighbours on each side.
    keys: Box<[[u16; 4]; CELLS]>,
    /// The top four bits of an exact-five key (the neighbours at distance
    /// five), apart so that freestyle's keys stay as small as they were;
    /// always zero in freestyle.
    outer: Box<[[u8; 4]; CELLS]>,
    /// Each point's patterns per direction, black's in the low four bits
    /// and white's in the high four ([`pattern::pattern_table`]): a key
    /// change that moves neither (the most common case) is one comparison.
    pats: Box<[[u8; 4]; CELLS]>,
    /// Each point's combination index ([`combo_index`]), black's and white's.
    combo: Box<[[u16; 2]; CELLS]>,
    threats: [[i32; THREATS]; 2],
    /// Per colour, the empty points where a stone makes a four or more
    /// (a threat of at least [`Threat::Block4`]): the threat searches look
    /// for these at every node, and read a few words where they read
    /// every point (issue 55).
    fours: [PointSet; 2],
    near: Box<[u8; CELLS]>,
    hash: u64,
    history: Vec<Pos>,
    to_move: Player,
    on_board: Vec<Pos>,
    pattern_of: &'static [u8],
    /// What each combination of line patterns is worth (hand-set) and its
    /// threat.
    info_of: &'static [PointEntry],
    /// Under renju, the stones as the core's forbidden-point check reads
    /// them (walls as white), kept as they change so a check need not
    /// build it.
    grid: Grid,
    /// The pattern changes the stones on the board made, which their
    /// take-backs restore.
    changes: Changes<Sums>,
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
        let mut cells = Box::new([WALL; CELLS]);
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
            keys: Box::new([[0; 4]; CELLS]),
            outer: Box::new([[0; 4]; CELLS]),
            pats: Box::new([[0; 4]; CELLS]),
            combo: Box::new([[0; 2]; CELLS]),
            threats: [[0; THREATS]; 2],
            fours: [[0; WORDS]; 2],
            near: Box::new([0; CELLS]),
            hash: match rule {
                Rule::Freestyle => 0,
                Rule::Exact => EXACT_FIVE,
                Rule::Renju => RENJU,
            },
            history: Vec::with_capacity(MAX_SIZE * MAX_SIZE),
            to_move: Player::X,
            on_board,
            pattern_of: pattern::pattern_table(rule),
            info_of: &POINTS,
            grid: Grid::new(size),
            changes: Changes::new(),
        };
        for k in 0..b.on_board.len() {
            let i = b.on_board[k].index();
            for d in 0..4 {
                let key = b.key_of(i, d);
                b.keys[i][d] = key as u16;
                b.outer[i][d] = (key >> 16) as u8;
            }
            b.refresh(i);
            b.add(i, 1, &mut ());
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
        let mut b = Board::with_rule(self.size, rule).expect("the size was accepted");
        for &p in &self.history {
            b.put(p.index(), self.cells[p.index()], &mut ());
        }
        b.set_to_move(self.to_move);
        *self = b;
    }

    /// Passes the turn without a stone (a null move).
    #[inline]
    pub fn pass(&mut self) {
        self.set_to_move(self.to_move.opponent());
    }

    /// Takes back a [`Board::pass`].
    #[inline]
    pub fn unpass(&mut self) {
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

    /// The point at column `x`, row `y` as read from text (a protocol, a
    /// page, a file), or an error if it is off the board: the one reading
    /// of `(x, y)` into the board's points.
    pub fn pos_at(&self, x: usize, y: usize) -> Result<Pos, BoardError> {
        Pos::from_xy(x, y, self.size).ok_or(BoardError::Stone(StoneError::OffBoard { x, y }))
    }

    /// `p` if it is a point of this board, or an error if it is off it
    /// (past the side of a smaller board than the grid's).
    pub fn checked_pos(&self, p: Pos) -> Result<Pos, BoardError> {
        match p.xy_on(self.size) {
            Some(_) => Ok(p),
            None => {
                let (x, y) = p.xy();
                Err(BoardError::Stone(StoneError::OffBoard { x, y }))
            }
        }
    }

    /// The game core's point of `p`.
    #[inline]
    pub fn point(&self, p: Pos) -> Point {
        p.point(self.size)
    }

    /// The point of the game core's `point`, or an error if it is off the board.
    pub fn pos_of(&self, point: Point) -> Result<Pos, BoardError> {
        let (x, y) = point.xy(self.size);
        self.pos_at(x, y)
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

    /// The [`Board::hash`] after the side to move plays on empty point
    /// `p`, known before the move is made.
    #[inline]
    pub fn hash_after(&self, p: Pos) -> u64 {
        self.hash ^ ZOBRIST[p.index()][usize::from(stone_of(self.to_move))] ^ WHITE_TO_MOVE
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
        pattern::pair_pattern(self.pats[p.index()][d], colour.index())
    }

    /// The threat `colour` would make with a stone on empty point `p`.
    #[inline]
    pub fn threat(&self, p: Pos, colour: Player) -> Threat {
        self.info_of[self.combo[p.index()][colour.index()] as usize].threat
    }

    /// The index of empty point `p`'s four patterns for `colour` in the
    /// combination tables ([`pattern::combo_index`]).
    #[inline]
    pub fn combo(&self, p: Pos, colour: Player) -> u16 {
        self.combo[p.index()][colour.index()]
    }

    /// The class of empty point `p` for `colour` ([`crate::movepick::class`]).
    #[inline]
    pub fn class(&self, p: Pos, colour: Player) -> u8 {
        self.info_of[self.combo[p.index()][colour.index()] as usize].class
    }

    /// The evaluation value of empty point `p` for `colour`.
    #[inline]
    pub fn point_value(&self, p: Pos, colour: Player) -> i32 {
        i32::from(self.info_of[self.combo[p.index()][colour.index()] as usize].value)
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
        for &p in &self.pats[i] {
            match pattern::pair_pattern(p, 0) {
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
        if t >= Threat::Block4 {
            return self
                .four_points(colour)
                .find(|&p| self.threat(p, colour) == t && !self.is_forbidden_to(p, colour));
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

    /// Whether `colour` has an empty point of one of `threats` (as
    /// [`Board::threat_count`] counts them) after the side to move plays
    /// empty point `p`, read off without playing it: the points the stone
    /// changes looked at as [`Board::play_unchecked`] would change them,
    /// nothing written. A move generator's test of a defence (does the
    /// threat survive this stone?) costs a fraction of a play and its
    /// take-back: one colour, the four points read from the board's set,
    /// and a walk of the lines only where the stone may raise a threat,
    /// stopped at the first point it leaves of those threats (issue 55).
    #[inline]
    pub fn threat_after(&self, p: Pos, colour: Player, threats: &[Threat]) -> bool {
        let set = threats.iter().fold(0u8, |m, &t| m | 1 << t as u8);
        if set & ((1 << Threat::Block4 as u8) - 1) == 0 {
            let reach = if self.rule == Rule::Freestyle {
                HALF
            } else {
                REACH
            };
            if colour != self.to_move {
                // A stone raises no pattern of the other colour's, nor so
                // any threat (a test reads every rule's tables for it): the
                // four points are the only ones that can end with a four,
                // each as the stone leaves it.
                return self.four_points(colour).any(|q| {
                    q != p && set >> self.threat_left(p, q, colour, reach) as u8 & 1 != 0
                });
            }
            // A point off the stone's lines keeps its threat.
            let untouched = self.four_points(colour).any(|q| {
                set >> self.threat(q, colour) as u8 & 1 != 0 && !within_lines(p, q, reach)
            });
            if untouched {
                return true;
            }
        }
        match self.rule {
            Rule::Freestyle => {
                self.threat_after_within::<{ HALF as isize }>(p.index(), colour.index(), set)
            }
            Rule::Exact | Rule::Renju => {
                self.threat_after_within::<{ REACH as isize }>(p.index(), colour.index(), set)
            }
        }
    }

    /// The threat `colour` makes on empty point `q` once the side to move
    /// has played empty point `p` (another point), the rule reaching
    /// `reach` points along a line: its own where `p` is off its lines,
    /// else its key along that line read with the stone in it.
    #[inline]
    fn threat_left(&self, p: Pos, q: Pos, colour: Player, reach: usize) -> Threat {
        let ((px, py), (qx, qy)) = (p.xy(), q.xy());
        let (dx, dy) = (px.abs_diff(qx), py.abs_diff(qy));
        let d = if dy == 0 {
            0
        } else if dx == 0 {
            1
        } else if dx != dy {
            return self.threat(q, colour);
        } else if (px > qx) == (py > qy) {
            2
        } else {
            3
        };
        let k = dx.max(dy);
        if k > reach {
            return self.threat(q, colour);
        }
        // Where `p` lies from `q` along the line, in steps.
        let ahead = p.index() > q.index();
        let offset = if ahead { k as isize } else { -(k as isize) };
        let bits = u32::from(stone_of(self.to_move)) << (2 * pattern::slot(offset));
        let (i, c) = (q.index(), colour.index());
        let was = pattern::half(self.pats[i][d], c);
        let is = pattern::half(self.pattern_of[(self.key(i, d) ^ bits) as usize], c);
        let combo = combo_moved(self.combo[i][c], d, was, is);
        self.info_of[usize::from(combo)].threat
    }

    /// [`Board::threat_after`] for colour `c` and the threats in bit set
    /// `set`, the points up to `R` steps away along each line walked in
    /// the order and with the key slots of [`Board::update_within`]: the
    /// points of those threats now, less the stone's own and those whose
    /// threat the stone changes to another, unless it changes one to one
    /// of them.
    #[inline]
    fn threat_after_within<const R: isize>(&self, i: usize, c: usize, set: u8) -> bool {
        debug_assert_eq!(self.cells[i], EMPTY);
        let in_set = |combo: u16| set >> self.info_of[usize::from(combo)].threat as u8 & 1 != 0;
        let mut left: i32 = Threat::ALL
            .iter()
            .filter(|&&t| set >> t as u8 & 1 != 0)
            .map(|&t| self.threats[c][t as usize])
            .sum();
        left -= i32::from(in_set(self.combo[i][c]));
        let v = u32::from(stone_of(self.to_move));
        for (d, &step) in DIRS.iter().enumerate() {
            for k in 1..R + 1 {
                // Behind: slot `k + 3` (9 at five steps); ahead: `4 - k` (8).
                let (behind, ahead) = if k <= HALF as isize {
                    (v << (2 * (k + 3)), v << (2 * (4 - k)))
                } else {
                    (v << 18, v << 16)
                };
                for (q, bits) in [
                    ((i as isize - k * step) as usize, behind),
                    ((i as isize + k * step) as usize, ahead),
                ] {
                    if q >= CELLS || self.cells[q] != EMPTY {
                        continue;
                    }
                    let was = pattern::half(self.pats[q][d], c);
                    let is = pattern::half(self.pattern_of[(self.key(q, d) ^ bits) as usize], c);
                    if was == is {
                        continue;
                    }
                    let before = self.combo[q][c];
                    if in_set(combo_moved(before, d, was, is)) {
                        return true;
                    }
                    left -= i32::from(in_set(before));
                }
            }
        }
        left > 0
    }

    /// Under renju, keeps the forbidden-point grid's point `i`.
    #[inline]
    fn mirror(&mut self, i: usize, stone: Stone) {
        if self.rule == Rule::Renju {
            let (x, y) = Pos::from_index(i).xy();
            self.grid.set(x, y, stone);
        }
    }

    /// Number of (empty point, direction) pairs where `colour` has pattern
    /// `p`, counted over the kept patterns ([`Board::pattern_counts`]).
    pub fn pattern_count(&self, colour: Player, p: Pattern) -> i32 {
        self.pattern_counts()[colour.index()][p as usize]
    }

    /// Per colour, the number of (empty point, direction) pairs of each
    /// line pattern, counted over the empty points' kept patterns: the
    /// board keeps no running counts of them, which the search does not
    /// read (the pattern evaluation keeps its own).
    pub fn pattern_counts(&self) -> [[i32; PATTERNS]; 2] {
        let mut counts = [[0; PATTERNS]; 2];
        for &p in &self.on_board {
            let i = p.index();
            if self.cells[i] != EMPTY {
                continue;
            }
            for (c, counts) in counts.iter_mut().enumerate() {
                for pair in self.pats[i] {
                    counts[usize::from(pattern::half(pair, c))] += 1;
                }
            }
        }
        counts
    }

    /// Number of empty points where `colour` would make threat `t`.
    #[inline]
    pub fn threat_count(&self, colour: Player, t: Threat) -> i32 {
        self.threats[colour.index()][t as usize]
    }

    /// Sum of `colour`'s point values over the empty points, counted
    /// when asked (no search reads it).
    pub fn value(&self, colour: Player) -> i32 {
        self.values()[colour.index()]
    }

    /// Both colours' [`Board::value`]s, counted over the empty points.
    fn values(&self) -> [i32; 2] {
        let mut value = [0; 2];
        for p in self.empty_points() {
            for (c, v) in value.iter_mut().enumerate() {
                *v += i32::from(self.info_of[usize::from(self.combo[p.index()][c])].value);
            }
        }
        value
    }

    /// The empty points where `colour` makes a four or more (a threat of
    /// at least [`Threat::Block4`]), in board order.
    #[inline]
    pub fn four_points(&self, colour: Player) -> SetPoints<'_> {
        let set = &self.fours[colour.index()];
        SetPoints {
            set: SetRef::Borrowed(set),
            w: 0,
            word: set[0],
        }
    }

    /// The empty points where either colour makes a four or more, in board
    /// order: the only points that can answer an open three (our four, or
    /// a stone on a four point of the opponent's), read from the two sets
    /// where a move generator scanned every point (issue 55).
    #[inline]
    pub fn any_four_points(&self) -> SetPoints<'_> {
        let mut union = [0; WORDS];
        for (w, u) in union.iter_mut().enumerate() {
            *u = self.fours[0][w] | self.fours[1][w];
        }
        SetPoints::owned(union)
    }

    /// The first empty point (in board order) where `colour` makes at least `t`.
    pub fn find_threat(&self, colour: Player, t: Threat) -> Option<Pos> {
        if t >= Threat::Block4 {
            return self
                .four_points(colour)
                .find(|&p| self.threat(p, colour) >= t);
        }
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

    /// Places a stone of the side to move on `p` and passes the turn, or
    /// says why the point cannot be played.
    pub fn play(&mut self, p: Pos) -> Result<(), BoardError> {
        let p = self.empty_pos(p)?;
        self.play_unchecked(p);
        Ok(())
    }

    /// Places a stone of the side to move on empty point `p` and passes the
    /// turn, without checking: the fast path for search.
    #[inline]
    pub fn play_unchecked(&mut self, p: Pos) {
        self.play_watched(p, &mut ());
    }

    /// [`Board::play_unchecked`], with `watch` told of every pattern the
    /// stone changes.
    #[inline]
    pub fn play_watched<W: Watch>(&mut self, p: Pos, watch: &mut W) {
        debug_assert!(self.is_empty(p));
        let v = stone_of(self.to_move);
        self.put(p.index(), v, watch);
        self.set_to_move(self.to_move.opponent());
    }

    /// Takes back the last stone played with [`Board::play_unchecked`] or [`Board::play`].
    #[inline]
    pub fn undo(&mut self) {
        self.undo_watched(&mut ());
    }

    /// [`Board::undo`], with `watch` told of every pattern it changes.
    #[inline]
    pub fn undo_watched<W: Watch>(&mut self, watch: &mut W) {
        self.set_to_move(self.to_move.opponent());
        self.take_back_watched(watch);
    }

    /// Runs `count` on the position before the last stone (on the position
    /// itself when there is none), then places that stone again with
    /// `watch` told: how an evaluation that keeps sums takes up a position,
    /// counting everything from the stones and then following one stone,
    /// so that it knows the ply before too. The board is as it was.
    pub fn count_watched<W: Watch>(&mut self, watch: &mut W, count: impl FnOnce(&Board, &mut W)) {
        let Some(&last) = self.history.last() else {
            count(self, watch);
            return;
        };
        let v = self.cells[last.index()];
        self.take_back();
        count(self, watch);
        self.put(last.index(), v, watch);
    }

    /// Places a stone of `colour` on `p` without changing the side to
    /// move, or says why the point cannot take it.
    pub fn place(&mut self, p: Pos, colour: Player) -> Result<(), BoardError> {
        let p = self.empty_pos(p)?;
        self.put(p.index(), stone_of(colour), &mut ());
        Ok(())
    }

    /// Takes `p` out of play (a Gomocup `BOARD` field 3): no stone may go
    /// there and no line runs through it.
    pub fn wall(&mut self, p: Pos) -> Result<(), BoardError> {
        let p = self.empty_pos(p)?;
        self.put(p.index(), WALL, &mut ());
        Ok(())
    }

    /// `p`, or an error if it is off the board or taken.
    fn empty_pos(&self, p: Pos) -> Result<Pos, BoardError> {
        let p = self.checked_pos(p)?;
        if !self.is_empty(p) {
            let (x, y) = p.xy();
            return Err(BoardError::Stone(StoneError::Taken { x, y }));
        }
        Ok(p)
    }

    /// Removes the most recently placed stone without changing the side to move.
    pub fn take_back(&mut self) -> Option<Pos> {
        self.take_back_watched(&mut ())
    }

    /// [`Board::take_back`], with `watch` told of every pattern it changes.
    fn take_back_watched<W: Watch>(&mut self, watch: &mut W) -> Option<Pos> {
        let p = self.history.pop()?;
        let i = p.index();
        let v = self.cells[i];
        self.update::<true, W>(i, v, watch);
        self.cells[i] = EMPTY;
        self.mirror(i, Stone::Empty);
        self.hash ^= ZOBRIST[i][v as usize];
        self.touch_near(i, -1);
        // The point's patterns were left as they were when the stone came
        // (only empty points are looked up again), and its keys are again
        // what they were then (the stones since came off first): they need
        // no look-up (issue 55).
        debug_assert!({
            let kept = (self.pats[i], self.combo[i]);
            self.refresh(i);
            kept == (self.pats[i], self.combo[i])
        });
        self.add(i, 1, watch);
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
            self.put(j, v, &mut ());
        }
        true
    }

    fn put<W: Watch>(&mut self, i: usize, v: u8, watch: &mut W) {
        self.add(i, -1, watch);
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
        self.changes.place(Sums {
            threats: self.threats,
            fours: self.fours,
        });
        self.update::<false, W>(i, v, watch);
    }

    /// Flips neighbour keys for state `v` at `i` (xor: the same call undoes
    /// it), as far as the rule looks; placing (`UNDO` false) looks the
    /// changed points up again, taking back restores what the placing
    /// recorded.
    #[inline]
    fn update<const UNDO: bool, W: Watch>(&mut self, i: usize, v: u8, watch: &mut W) {
        match self.rule {
            Rule::Freestyle => self.update_within::<{ HALF as isize }, UNDO, W>(i, v, watch),
            Rule::Exact | Rule::Renju => {
                self.update_within::<{ REACH as isize }, UNDO, W>(i, v, watch)
            }
        }
    }

    /// Puts back the patterns and sums the last stone's placing changed,
    /// from its record, telling `watch` of each combination in reverse.
    #[inline]
    fn restore<W: Watch>(&mut self, watch: &mut W, watched: &mut W::Moved, shapes: bool) {
        let before = if shapes {
            self.changes
                .take_back(&mut self.pats, &mut self.combo, |now, was| {
                    for c in 0..2 {
                        if now[c] != was[c] {
                            watch.shape(c, now[c], was[c], watched);
                        }
                    }
                })
        } else {
            self.changes
                .take_back(&mut self.pats, &mut self.combo, |_, _| {})
        };
        self.threats = before.threats;
        self.fours = before.fours;
    }

    /// [`Board::update`] for the points up to `R` steps away along each line
    /// (a constant, so that freestyle's loop is exactly what it was).
    #[inline]
    fn update_within<const R: isize, const UNDO: bool, W: Watch>(
        &mut self,
        i: usize,
        v: u8,
        watch: &mut W,
    ) {
        // The watcher's sums move in locals and land once: kept in memory,
        // each change was a store the next one waited on (a fifth slower).
        let mut watched = W::Moved::default();
        let reads = UNDO && watch.reads_lines(i);
        let shapes = UNDO && watch.shapes_back(i);
        let v = u16::from(v);
        // The arrays borrowed apart, their addresses in registers: read
        // through the board, each was read again after every store, which
        // might have been to the board itself (issue 55).
        let mut at = Lines {
            cells: &self.cells,
            keys: &mut self.keys,
            outer: &mut self.outer,
            pats: &mut self.pats,
            combo: &mut self.combo,
            threats: &mut self.threats,
            fours: &mut self.fours,
            changes: &mut self.changes,
            pattern_of: self.pattern_of,
            info_of: self.info_of,
        };
        for (d, &step) in DIRS.iter().enumerate() {
            // The points up to four steps away, nearest first, the one
            // behind before the one ahead: the point `k` steps behind sees
            // the stone `k` ahead (key slot `k + 3`), the one `k` ahead sees
            // it `k` behind (slot `4 - k`). They stay within the padding.
            for k in 1..HALF as isize + 1 {
                let q = (i as isize - k * step) as usize;
                at.keys[q][d] ^= v << (2 * (k + 3));
                if at.cells[q] == EMPTY {
                    at.changed::<R, UNDO, W>(q, d, watch, &mut watched, reads);
                }
                let q = (i as isize + k * step) as usize;
                at.keys[q][d] ^= v << (2 * (4 - k));
                if at.cells[q] == EMPTY {
                    at.changed::<R, UNDO, W>(q, d, watch, &mut watched, reads);
                }
            }
            if R > HALF as isize {
                // Five steps away, in the key's top bits (slot 9 behind, 8
                // ahead), can leave the padding: nothing there to update (a
                // negative index wraps to a huge one).
                let behind = (i as isize - R * step) as usize;
                let ahead = (i as isize + R * step) as usize;
                for (q, bits) in [(behind, v << 2), (ahead, v)] {
                    if q >= CELLS {
                        continue;
                    }
                    at.outer[q][d] ^= bits as u8;
                    if at.cells[q] == EMPTY {
                        at.changed::<R, UNDO, W>(q, d, watch, &mut watched, reads);
                    }
                }
            }
        }
        if UNDO {
            self.restore(watch, &mut watched, shapes);
        }
        watch.land(watched);
    }
    /// Moves the near counts of the points within [`NEAR`] king steps of
    /// point `i` of the board (within the padding).
    fn touch_near(&mut self, i: usize, delta: i8) {
        const WIDE: usize = 2 * NEAR as usize + 1;
        for dy in -NEAR..NEAR + 1 {
            // A row of the square at once: one index check, not five.
            let start = (i as isize + dy * STRIDE as isize - NEAR) as usize;
            let row: &mut [u8; WIDE] = (&mut self.near[start..start + WIDE])
                .try_into()
                .expect("a row of five");
            for n in row {
                *n = n.wrapping_add_signed(delta);
            }
        }
    }

    /// The whole key of point `i` along `d` (20 bits under exact five).
    #[inline]
    fn key(&self, i: usize, d: usize) -> u32 {
        u32::from(self.keys[i][d]) | u32::from(self.outer[i][d]) << 16
    }

    /// Point `p`'s key along line `d`: the state of its neighbours within
    /// the rule's reach, two bits each ([`pattern::slot`]), for an
    /// evaluation that reads more of a line than its [`Pattern`].
    #[inline]
    pub fn line_key(&self, p: Pos, d: usize) -> u32 {
        self.key(p.index(), d)
    }

    /// Point `i`'s patterns and combination indices read again from its keys.
    fn refresh(&mut self, i: usize) {
        for d in 0..4 {
            self.pats[i][d] = self.pattern_of[self.key(i, d) as usize];
        }
        let pats = self.pats[i];
        self.combo[i] = [0, 1].map(|c| combo_index(pats.map(|p| pattern::half(p, c))));
    }

    /// Adds (`sign` 1) or removes (-1) the contributions of empty point `i`.
    #[inline]
    fn add<W: Watch>(&mut self, i: usize, sign: i32, watch: &mut W) {
        let combos = self.combo[i];
        if sign > 0 {
            let keys = [0, 1, 2, 3].map(|d| self.key(i, d));
            watch.emptied(i, keys, combos);
        } else {
            watch.filled(i, combos);
        }
        for (c, &combo) in combos.iter().enumerate() {
            let info = self.info_of[usize::from(combo)];
            self.threats[c][info.threat as usize] += sign;
            mark(
                &mut self.fours[c],
                i,
                sign > 0 && info.threat >= Threat::Block4,
            );
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

    /// The incrementally kept counts, in the same shape as
    /// [`Board::recount`]: the pattern counts over the kept patterns.
    pub fn kept_counts(&self) -> ([[i32; PATTERNS]; 2], [[i32; THREATS]; 2], [i32; 2]) {
        (self.pattern_counts(), self.threats, self.values())
    }
}

/// Point `q`'s key along `d` as far as the rule looks (`R` steps): past
/// the five points either side only where an overline matters.
#[inline(always)]
fn key_within<const R: isize>(
    keys: &[[u16; 4]; CELLS],
    outer: &[[u8; 4]; CELLS],
    q: usize,
    d: usize,
) -> u32 {
    let near = u32::from(keys[q][d]);
    if R > HALF as isize {
        near | u32::from(outer[q][d]) << 16
    } else {
        near
    }
}

/// What a stone's update reads and writes of the board, borrowed apart
/// ([`Board::update_within`]).
struct Lines<'a> {
    cells: &'a [u8; CELLS],
    keys: &'a mut [[u16; 4]; CELLS],
    outer: &'a mut [[u8; 4]; CELLS],
    pats: &'a mut [[u8; 4]; CELLS],
    combo: &'a mut [[u16; 2]; CELLS],
    threats: &'a mut [[i32; THREATS]; 2],
    fours: &'a mut [PointSet; 2],
    changes: &'a mut Changes<Sums>,
    pattern_of: &'static [u8],
    info_of: &'static [PointEntry],
}

impl Lines<'_> {
    /// Empty point `q`'s key along `d` changed: placing looks its patterns
    /// up again; taking back tells a watcher that reads lines, and leaves
    /// the patterns to [`Board::restore`].
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn changed<const R: isize, const UNDO: bool, W: Watch>(
        &mut self,
        q: usize,
        d: usize,
        watch: &mut W,
        watched: &mut W::Moved,
        reads: bool,
    ) {
        if !UNDO {
            self.repattern::<R, W>(q, d, watch, watched);
        } else if reads {
            watch.line(q, d, key_within::<R>(self.keys, self.outer, q, d), watched);
        }
    }

    /// Looks up empty point `q`'s patterns along `d` again and moves the
    /// running sums by the difference. Most key changes leave the pattern
    /// as it was, so this is the hot path of making a move. Always inline:
    /// called out of line, the sums in locals went through memory.
    #[inline(always)]
    fn repattern<const R: isize, W: Watch>(
        &mut self,
        q: usize,
        d: usize,
        watch: &mut W,
        watched: &mut W::Moved,
    ) {
        let key = key_within::<R>(self.keys, self.outer, q, d);
        watch.line(q, d, key, watched);
        let fresh = self.pattern_of[key as usize];
        let old = self.pats[q][d];
        if old == fresh {
            return;
        }
        self.changes.record(q, d, old, self.combo[q]);
        self.pats[q][d] = fresh;
        for c in 0..2 {
            let (old, new) = (pattern::half(old, c), pattern::half(fresh, c));
            if old == new {
                continue;
            }
            let before = self.combo[q][c];
            let after = combo_moved(before, d, old, new);
            self.combo[q][c] = after;
            let (was, is) = (self.info_of[before as usize], self.info_of[after as usize]);
            watch.shape(c, before, after, watched);
            if was.threat != is.threat {
                self.threats[c][was.threat as usize] -= 1;
                self.threats[c][is.threat as usize] += 1;
                mark(&mut self.fours[c], q, is.threat >= Threat::Block4);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threats_after_a_stone_are_those_the_stone_leaves() {
        use crate::eval::tests::random_boards;
        let rules = [Rule::Freestyle, Rule::Exact, Rule::Renju];
        // Each threat alone, and the sets the move generator asks: a four
        // to come, the fork threats, and one mixed across the four line.
        let mut sets: Vec<Vec<Threat>> = Threat::ALL.iter().map(|&t| vec![t]).collect();
        sets.push(Threat::FOURS.to_vec());
        sets.push(vec![Threat::Flex4, Threat::Four3, Threat::Three3]);
        sets.push(vec![Threat::Block3, Threat::Five]);
        let (mut checked, mut left) = (0, 0);
        for mut b in random_boards(&rules, 55, 60, 70) {
            let me = b.to_move();
            let empty: Vec<Pos> = b.empty_points().collect();
            for p in empty {
                let predicted: Vec<[bool; 2]> = sets
                    .iter()
                    .map(|set| [Player::X, Player::O].map(|c| b.threat_after(p, c, set)))
                    .collect();
                b.play_unchecked(p);
                for (set, predicted) in sets.iter().zip(&predicted) {
                    for colour in [Player::X, Player::O] {
                        let there = set.iter().any(|&t| b.threat_count(colour, t) > 0);
                        assert_eq!(
                            predicted[colour.index()],
                            there,
                            "{:?} {me:?} plays {p:?}: {colour:?} {set:?}\n{b:?}",
                            b.rule()
                        );
                        left += usize::from(there);
                    }
                }
                b.undo();
                checked += 1;
            }
        }
        assert!(checked > 5_000, "{checked}");
        assert!(left > 5_000 && left < checked * 20, "{left}");
    }

    #[test]
    fn a_stone_never_raises_the_other_colours_patterns_or_threats() {
        // Every key of every rule's table, a stone of the other colour on
        // each empty point of it: the pattern never rises.
        let mut lowered = 0;
        for rule in [Rule::Freestyle, Rule::Exact, Rule::Renju] {
            let table = pattern::pattern_table(rule);
            let slots = 2 * pattern::reach(rule) as u32;
            for key in 0..table.len() as u32 {
                for s in (0..slots).filter(|&s| key >> (2 * s) & 3 == u32::from(EMPTY)) {
                    for (c, other) in [(0, WHITE), (1, BLACK)] {
                        let after = table[(key | u32::from(other) << (2 * s)) as usize];
                        let (was, is) = (
                            pattern::half(table[key as usize], c),
                            pattern::half(after, c),
                        );
                        assert!(
                            is <= was,
                            "{rule:?} key {key:#x} slot {s} colour {c}: {was} to {is}"
                        );
                        lowered += usize::from(is < was);
                    }
                }
            }
        }
        assert!(lowered > 1_000, "{lowered}");
        // A lower pattern along one line never raises the point's threat.
        for combo in 0..PATTERNS.pow(4) as u16 {
            for (d, &step) in COMBO_STEP.iter().enumerate() {
                let p = (combo / step as u16 % PATTERNS as u16) as u8;
                for lower in 0..p {
                    let moved = combo_moved(combo, d, p, lower);
                    assert!(POINTS[usize::from(moved)].threat <= POINTS[usize::from(combo)].threat);
                }
            }
        }
    }

    #[test]
    fn the_four_points_are_those_a_scan_finds() {
        use crate::eval::tests::random_boards;
        let rules = [Rule::Freestyle, Rule::Exact, Rule::Renju];
        let scan = |b: &Board, c: Player| -> Vec<Pos> {
            b.empty_points()
                .filter(|&p| b.threat(p, c) >= Threat::Block4)
                .collect()
        };
        let mut seen = 0;
        for mut b in random_boards(&rules, 56, 60, 80) {
            let moves: Vec<Pos> = b.empty_points().step_by(5).collect();
            for &p in &moves {
                b.play_unchecked(p);
                for c in [Player::X, Player::O] {
                    let kept: Vec<Pos> = b.four_points(c).collect();
                    assert_eq!(kept, scan(&b, c), "{:?} {c:?}\n{b:?}", b.rule());
                    seen += kept.len();
                }
            }
            for _ in &moves {
                b.undo();
                for c in [Player::X, Player::O] {
                    assert_eq!(b.four_points(c).collect::<Vec<_>>(), scan(&b, c));
                }
            }
        }
        assert!(seen > 1_000, "{seen}");
    }

    #[test]
    fn the_hash_after_a_stone_is_the_hash_the_stone_leaves() {
        let mut b = Board::new(15).unwrap();
        for (k, p) in [(7, 7), (8, 8), (6, 9), (0, 0), (14, 14)]
            .into_iter()
            .enumerate()
        {
            let p = Pos::at(p.0, p.1);
            if k == 3 {
                b.pass();
            }
            let expected = b.hash_after(p);
            b.play(p).unwrap();
            assert_eq!(b.hash(), expected, "stone {k}");
        }
    }

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
        assert_eq!(b.play(Pos::at(15, 0)), off(15, 0));
        b.play(Pos::at(7, 7)).unwrap();
        assert_eq!(b.cell(Pos::at(7, 7)), Cell::Stone(Player::X));
        assert_eq!(b.cell(Pos::at(7, 8)), Cell::Empty);
        assert_eq!(b.to_move(), Player::O);
        assert_eq!(b.play(Pos::at(7, 7)), taken(7, 7));
        assert_eq!(b.stones(), 1);
        b.wall(Pos::at(8, 8)).unwrap();
        assert_eq!(b.cell(Pos::at(8, 8)), Cell::Wall);
        assert_eq!(b.wall(Pos::at(8, 8)), taken(8, 8));
        assert_eq!(b.place(Pos::at(8, 8), Player::O), taken(8, 8));
        assert_eq!(b.wall(Pos::at(15, 8)), off(15, 8));
    }
}
