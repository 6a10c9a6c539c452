//! Evaluation by fine tables ([`super::fine_tables`]): what it keeps of the
//! position and its score.
//!
//! For every empty point it keeps the fine patterns ([`super::fine`]) of
//! both colours along the four lines and their code; for each colour, the
//! sum of its table's point values and how many points are of each class;
//! and black's sum less white's before every stone and null move, for the
//! two-ply mean. All of it moves by differences as stones come and go, in
//! the board's own pass over the points a stone changes
//! ([`crate::board::Watch`]): a fine pattern is looked up again only where
//! a line's key changed.

use inarow_core::{Player, Rule};

use crate::board::{Board, Changes, Watch};
use crate::eval::Evaluator;
use crate::eval::fine::{self, CLASSES, FINE_STEP, PointClass};
use crate::eval::fine_tables::{FineTables, MODEL_CLAMP};
use crate::pattern;
use crate::pos::{CELLS, MAX_SIZE, Pos};

/// The evaluation by fine tables at work on one board; see the module's
/// documentation.
#[derive(Clone)]
pub struct FineEval {
    tables: &'static FineTables,
    /// The multipliers from the tables' units to the engine's, by rule.
    units: [i32; 3],
    /// The rule of the board followed; the tables below are its.
    rule: Rule,
    of_key: &'static [u8],
    code_of: &'static [u16],
    class_of: [&'static [PointClass]; 2],
    /// Per colour, the point values of its table slot, by code.
    value: [&'static [i16]; 2],
    /// Per point and direction, both colours' fine patterns (black's in
    /// the low four bits). The grid's arrays are of fixed length, so that
    /// an index is checked against a constant (issue 55).
    pats: [[u8; 4]; CELLS],
    /// Per point, black's and white's fine combination index.
    combo: [[u16; 2]; CELLS],
    /// Per point, whether its stone came while this evaluator followed:
    /// its patterns are then still those of the moment it came (only empty
    /// points are looked up again) and need no look-up when it goes
    /// (issue 55); a stone counted at the start may have had others come
    /// after it.
    followed: [bool; CELLS],
    /// Per colour, the sum of its point values over the empty points.
    sum: [i32; 2],
    /// Per colour, how many empty points are of each class.
    classes: [[i32; CLASSES]; 2],
    /// Black's sum less white's before each stone placed or pass made,
    /// newest last.
    before: Vec<i32>,
    /// The fine pattern changes the followed stones made, each stone's
    /// with the sum and classes before them, which their take-backs
    /// restore (issue 55).
    changes: Changes<([i32; 2], [[i32; CLASSES]; 2])>,
    /// The record's length when a take-back of a stone not followed began.
    unrecorded: usize,
}

impl std::fmt::Debug for FineEval {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FineEval")
            .field("tables", &self.tables)
            .field("rule", &self.rule)
            .field("sum", &self.sum)
            .field("classes", &self.classes)
            .finish()
    }
}

impl FineEval {
    /// The evaluation by `tables`, with the multipliers from their units to
    /// the engine's by rule ([`FineTables::to_engine_units`]), to be started
    /// on a board.
    pub fn new(tables: &'static FineTables, units: [i32; 3]) -> FineEval {
        let mut e = FineEval {
            tables,
            units,
            rule: Rule::Freestyle,
            of_key: &[],
            code_of: fine::code_table(),
            class_of: [&[], &[]],
            value: [&[], &[]],
            pats: [[0; 4]; CELLS],
            combo: [[0; 2]; CELLS],
            followed: [false; CELLS],
            sum: [0; 2],
            classes: [[0; CLASSES]; 2],
            before: Vec::with_capacity(MAX_SIZE * MAX_SIZE),
            changes: Changes::new(),
            unrecorded: 0,
        };
        e.set_rule(Rule::Freestyle);
        e
    }

    /// The tables of `rule`.
    fn set_rule(&mut self, rule: Rule) {
        fine::warm_up(rule);
        let slot = |c| fine::table_slot(rule, c);
        self.rule = rule;
        self.of_key = fine::fine_table(rule);
        self.class_of = [fine::class_table(0, rule), fine::class_table(1, rule)];
        self.value = [
            &self.tables.value[slot(0)][..],
            &self.tables.value[slot(1)][..],
        ];
    }

    /// The tables it evaluates by.
    pub fn tables(&self) -> &'static FineTables {
        self.tables
    }

    /// Black's point sum less white's now, and before the last stone or
    /// pass. It knows the ply before the position it was started on and
    /// every ply it followed since, no earlier: above that (and on an
    /// empty board) the ply before reads as this one.
    #[inline]
    pub fn sums(&self) -> [i32; 2] {
        let now = self.black_sum();
        [now, self.before.last().copied().unwrap_or(now)]
    }

    /// How many empty points are of each point class for `colour`.
    #[inline]
    pub fn point_classes(&self, colour: Player) -> &[i32; CLASSES] {
        &self.classes[colour.index()]
    }

    /// Empty point `p`'s fine code for `colour`.
    #[inline]
    pub fn code(&self, p: Pos, colour: Player) -> u16 {
        self.code_at(colour.index(), p.index()) as u16
    }

    /// Black's point sum less white's and each colour's point-class counts
    /// of the position on `b`, counted from the stones alone (not from what
    /// this evaluator keeps): what it keeps must always equal this.
    pub fn recount(&self, b: &Board) -> (i32, [[i32; CLASSES]; 2]) {
        let rule = b.rule();
        let mut sum = [0; 2];
        let mut classes = [[0; CLASSES]; 2];
        for p in b.empty_points() {
            for c in 0..2 {
                let pats = [0, 1, 2, 3].map(|d| fine::fine(b.line_key(p, d), c, rule));
                let code = fine::code(fine::fine_combo(pats));
                let slot = fine::table_slot(rule, c);
                sum[c] += i32::from(self.tables.value[slot][usize::from(code)]);
                classes[c][fine::class(code, c, rule) as usize] += 1;
            }
        }
        (sum[0] - sum[1], classes)
    }

    /// Empty point `i`'s code for colour `c`.
    #[inline]
    fn code_at(&self, c: usize, i: usize) -> usize {
        usize::from(self.code_of[usize::from(self.combo[i][c])])
    }

    /// Black's sum less white's.
    #[inline]
    fn black_sum(&self) -> i32 {
        self.sum[0] - self.sum[1]
    }

    /// Everything kept, counted from the stones on `b`; no ply before.
    fn count(&mut self, b: &Board) {
        if b.rule() != self.rule {
            self.set_rule(b.rule());
        }
        self.sum = [0; 2];
        self.classes = [[0; CLASSES]; 2];
        self.before.clear();
        self.followed.fill(false);
        self.changes.clear();
        for &p in b.points() {
            let i = p.index();
            for d in 0..4 {
                self.refresh_dir(i, d, b.line_key(p, d));
            }
            if b.is_empty(p) {
                self.add(i, 1);
            }
        }
    }

    fn refresh_dir(&mut self, i: usize, d: usize, key: u32) {
        self.pats[i][d] = self.of_key[key as usize];
        for c in 0..2 {
            let p = self.pats[i].map(|pair| i32::from(pattern::half(pair, c)));
            self.combo[i][c] = (0..4).map(|d| p[d] * FINE_STEP[d]).sum::<i32>() as u16;
        }
    }

    /// Adds (`sign` 1) or removes (-1) empty point `i`'s contributions.
    #[inline]
    fn add(&mut self, i: usize, sign: i32) {
        for c in 0..2 {
            let code = self.code_at(c, i);
            self.sum[c] += sign * i32::from(self.value[c][code]);
            self.classes[c][self.class_of[c][code] as usize] += sign;
        }
    }
}

impl Watch for FineEval {
    type Moved = [i32; 2];

    #[inline]
    fn filled(&mut self, i: usize, _: [u16; 2]) {
        self.before.push(self.black_sum());
        self.add(i, -1);
        self.followed[i] = true;
        self.changes.place((self.sum, self.classes));
    }

    #[inline]
    fn emptied(&mut self, i: usize, keys: [u32; 4], _: [u16; 2]) {
        if self.followed[i] {
            self.followed[i] = false;
            // The board told nothing of the keys (`reads_lines`): put back
            // what the stone changed.
            (self.sum, self.classes) =
                self.changes
                    .take_back(&mut self.pats, &mut self.combo, |_, _| {});
            debug_assert!({
                let kept = (self.pats[i], self.combo[i]);
                for (d, key) in keys.into_iter().enumerate() {
                    self.refresh_dir(i, d, key);
                }
                kept == (self.pats[i], self.combo[i])
            });
        } else {
            self.changes.drop_since(self.unrecorded);
            for (d, key) in keys.into_iter().enumerate() {
                self.refresh_dir(i, d, key);
            }
        }
        self.add(i, 1);
        self.before.pop();
    }

    /// Looks up empty point `q`'s fine patterns along `d` again and moves
    /// the sums by the difference. Always inline: called out of line, the
    /// board's sums in locals went through memory.
    #[inline(always)]
    fn line(&mut self, q: usize, d: usize, key: u32, moved: &mut [i32; 2]) {
        let fresh = self.of_key[key as usize];
        let old = self.pats[q][d];
        if fresh == old {
            return;
        }
        self.changes.record(q, d, old, self.combo[q]);
        self.pats[q][d] = fresh;
        for (c, moved) in moved.iter_mut().enumerate() {
            let (was, is) = (
                i32::from(pattern::half(old, c)),
                i32::from(pattern::half(fresh, c)),
            );
            if was == is {
                continue;
            }
            let before = self.combo[q][c];
            let after = (i32::from(before) + (is - was) * FINE_STEP[d]) as u16;
            self.combo[q][c] = after;
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

    #[inline]
    fn shape(&self, _: usize, _: u16, _: u16, _: &mut [i32; 2]) {}

    /// It reads no shapes.
    #[inline]
    fn shapes_back(&mut self, _: usize) -> bool {
        false
    }

    #[inline]
    fn land(&mut self, moved: [i32; 2]) {
        self.sum[0] += moved[0];
        self.sum[1] += moved[1];
    }

    /// Its fine patterns change where the board's do not: told of every
    /// key, unless it recorded the stone's changes itself.
    #[inline]
    fn reads_lines(&mut self, i: usize) -> bool {
        // What `line` records while told of a take-back is dropped when
        // the point is emptied.
        self.unrecorded = self.changes.len();
        !self.followed[i]
    }
}

impl Evaluator for FineEval {
    /// Counts everything on the position before the last stone, then
    /// follows that stone: the two-ply mean needs the ply before.
    fn start(&mut self, b: &mut Board) {
        b.count_watched(self, |b, e| e.count(b));
    }

    /// In the engine's units: the mean of this ply's and the last ply's
    /// point sums, plus the value of the side to move's threat mask,
    /// clamped as the tables' makers clamp it.
    #[inline]
    fn evaluate(&self, b: &Board) -> i32 {
        debug_assert_eq!(b.rule(), self.rule, "started on another board");
        let me = b.to_move();
        let [now, before] = self.sums();
        let mine = self.point_classes(me);
        let theirs = self.point_classes(me.opponent());
        let sign = if me == Player::X { 1 } else { -1 };
        let basic = sign * (now + before) / 2;
        let slot = fine::table_slot(self.rule, me.index());
        let threat = i32::from(self.tables.threat[slot][fine::threat_mask(mine, theirs)]);
        let score = (basic + threat).clamp(-MODEL_CLAMP, MODEL_CLAMP);
        let to_engine = self.units[match self.rule {
            Rule::Freestyle => 0,
            Rule::Exact => 1,
            Rule::Renju => 2,
        }];
        (score * to_engine) >> 16
    }

    #[inline]
    fn play(&mut self, b: &mut Board, p: Pos) {
        b.play_watched(p, self);
    }

    #[inline]
    fn undo(&mut self, b: &mut Board) {
        b.undo_watched(self);
    }

    /// The null move is a ply of the two-ply mean.
    #[inline]
    fn pass(&mut self, b: &mut Board) {
        self.before.push(self.black_sum());
        b.pass();
    }

    #[inline]
    fn unpass(&mut self, b: &mut Board) {
        self.before.pop();
        b.unpass();
    }

    /// What the point's code makes for `colour` plus what the opponent's
    /// code there is worth to block, by the tables' fitted move scores.
    #[inline]
    fn move_score(&self, _b: &Board, p: Pos, colour: Player) -> Option<i32> {
        let i = p.index();
        let (me, them) = (colour.index(), colour.opponent().index());
        let slot = |c: usize| fine::table_slot(self.rule, c);
        Some(
            i32::from(self.tables.order[slot(me)][self.code_at(me, i)][0])
                + i32::from(self.tables.order[slot(them)][self.code_at(them, i)][1]),
        )
    }
}
