//! The machine itself: boxes of beads, drawing a move, paying back the result.

use std::fmt;

use inarow_core::{Game, GameResult, Player, Point, Symmetry, TicTacToe};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::curve::Curve;
use crate::layout::{Layout, square_on_board};
use crate::preset::{BadRules, EmptyBox, Preset, Rules};

/// Blocks a machine's learning curve keeps (see [`Menace::curve`]).
pub const CURVE_BLOCKS: usize = 100;

/// One matchbox: how many beads of each colour it holds.
///
/// A colour names a square of the box's image. Counts per square rather
/// than a list of beads keep a box a fixed size however much it learns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Matchbox {
    beads: [u32; 9],
    total: u32,
    colours: u16,
}

impl Matchbox {
    /// A box whose colours are the squares in `colours`, `each` beads of each.
    pub fn new(colours: u16, each: u32) -> Matchbox {
        let mut beads = [0; 9];
        for (sq, count) in beads.iter_mut().enumerate() {
            if colours >> sq & 1 != 0 {
                *count = each;
            }
        }
        Matchbox {
            beads,
            total: each * colours.count_ones(),
            colours,
        }
    }

    /// Beads of each colour, by square of the image.
    pub fn beads(&self) -> [u32; 9] {
        self.beads
    }

    /// All beads in the box.
    pub fn total(&self) -> u32 {
        self.total
    }

    /// The squares of the image that may hold beads, as a 9-bit mask.
    pub fn colours(&self) -> u16 {
        self.colours
    }

    /// Replaces the bead counts; `None` if a count sits on a square that is
    /// not one of the box's colours.
    pub fn with_beads(self, beads: [u32; 9]) -> Option<Matchbox> {
        let stray = (0..9).any(|sq| beads[sq] > 0 && self.colours >> sq & 1 == 0);
        if stray {
            return None;
        }
        let total = beads.iter().try_fold(0u32, |sum, &b| sum.checked_add(b))?;
        Some(Matchbox {
            beads,
            total,
            ..self
        })
    }

    #[inline]
    fn add(&mut self, square: u8, beads: u32) {
        let room = u32::MAX - self.total;
        let beads = beads.min(room);
        self.beads[square as usize] += beads;
        self.total += beads;
    }

    #[inline]
    fn take<R: Rng>(&mut self, rng: &mut R) -> u8 {
        let mut pick = rng.random_range(0..self.total);
        let mut square = 0;
        while pick >= self.beads[square] {
            pick -= self.beads[square];
            square += 1;
        }
        self.beads[square] -= 1;
        self.total -= 1;
        square as u8
    }

    #[inline]
    fn random_colour<R: Rng>(&self, rng: &mut R) -> u8 {
        let mut rest = self.colours;
        for _ in 0..rng.random_range(0..self.colours.count_ones()) {
            rest &= rest - 1;
        }
        rest.trailing_zeros() as u8
    }
}

/// The colours of a box: the empty squares of its image, or with symmetric
/// moves merged, the lowest square of each set of empty squares that one of
/// the image's own symmetries maps onto each other.
pub fn colours_of(image: &TicTacToe, merge_symmetric: bool) -> u16 {
    let empty = image.empty();
    if !merge_symmetric {
        return empty;
    }
    let own: Vec<Symmetry> = Symmetry::ALL
        .into_iter()
        .filter(|&s| image.transformed(s).compact() == image.compact())
        .collect();
    let mut colours = 0;
    for sq in 0..9u16 {
        if empty >> sq & 1 == 0 {
            continue;
        }
        let lowest = own
            .iter()
            .map(|&s| image.transform_point(Point(sq), s).0)
            .min()
            .unwrap_or(sq);
        colours |= 1 << lowest;
    }
    colours
}

/// What the machine does on its turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    /// Place a stone here (a square of the real board).
    Play(Point),
    /// Give up: the box was empty and the preset says resign.
    Resign,
}

/// A bead taken out during the current game: which box, which colour.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Drawn {
    matchbox: u16,
    square: u8,
}

/// MENACE: a set of matchboxes for one side, its preset and rules, its
/// dice, the beads it has drawn in the game being played and its learning
/// curve.
#[derive(Clone, Debug)]
pub struct Menace {
    preset: Preset,
    rules: Rules,
    curve: Curve,
    layout: &'static Layout,
    boxes: Vec<Matchbox>,
    rng: ChaCha8Rng,
    drawn: [Drawn; 4],
    drawn_len: usize,
    games: u64,
}

impl Menace {
    /// Fresh boxes for a machine playing `player` under `preset`; its draws
    /// follow from `seed`.
    pub fn new(preset: Preset, player: Player, seed: u64) -> Menace {
        Menace::with_rules(preset, Rules::of(preset), player, seed)
    }

    /// Fresh boxes as [`Menace::new`], with `rules` instead of the preset's
    /// numbers (the preset still says which colours a box has and what an
    /// empty box does). `rules` should pass [`Rules::check`].
    pub fn with_rules(preset: Preset, rules: Rules, player: Player, seed: u64) -> Menace {
        let layout = Layout::of(player);
        let start = rules.start;
        let boxes = layout
            .images()
            .iter()
            .enumerate()
            .map(|(i, image)| {
                let colours = colours_of(image, preset.merges_symmetric_moves());
                Matchbox::new(colours, start[layout.move_number(i)])
            })
            .collect();
        Menace {
            preset,
            rules,
            curve: Curve::bounded(CURVE_BLOCKS),
            layout,
            boxes,
            rng: ChaCha8Rng::seed_from_u64(seed),
            drawn: [Drawn::default(); 4],
            drawn_len: 0,
            games: 0,
        }
    }

    /// The preset the machine was built with.
    pub fn preset(&self) -> Preset {
        self.preset
    }

    /// The numbers it was built with and learns by.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Changes what each result pays back from the next game learned on;
    /// the boxes and start beads stay as they are.
    pub fn set_rewards(&mut self, win: i32, draw: i32, loss: i32) -> Result<(), BadRules> {
        let rules = Rules {
            win,
            draw,
            loss,
            ..self.rules
        };
        rules.check()?;
        self.rules = rules;
        Ok(())
    }

    /// The results of the games it learned from, in at most
    /// [`CURVE_BLOCKS`] blocks (saved with the boxes). A machine loaded
    /// from a state file without a curve starts one at that point:
    /// `games() - curve().games()` games came before it.
    pub fn curve(&self) -> &Curve {
        &self.curve
    }

    pub(crate) fn set_curve(&mut self, curve: Curve) {
        self.curve = curve;
    }

    /// The side it plays.
    pub fn player(&self) -> Player {
        self.layout.player()
    }

    /// Which boxes exist and how boards find them.
    pub fn layout(&self) -> &'static Layout {
        self.layout
    }

    /// The boxes, in box order.
    pub fn boxes(&self) -> &[Matchbox] {
        &self.boxes
    }

    /// Replaces box `index`; used when loading a saved machine.
    pub(crate) fn boxes_mut(&mut self) -> &mut [Matchbox] {
        &mut self.boxes
    }

    /// Games finished and learned from.
    pub fn games(&self) -> u64 {
        self.games
    }

    pub(crate) fn set_games(&mut self, games: u64) {
        self.games = games;
    }

    /// All beads in all boxes, not counting those drawn in the current game.
    pub fn total_beads(&self) -> u64 {
        self.boxes.iter().map(|b| b.total as u64).sum()
    }

    /// Picks a move for `game`, taking the bead out of its box until the
    /// game is learned from or abandoned.
    ///
    /// Returns `None` when the machine has no move to make here: not its
    /// side's turn, or the game is over. With one empty square left the
    /// move is forced and no bead is drawn.
    #[inline]
    pub fn choose(&mut self, game: &TicTacToe) -> Option<Choice> {
        if game.is_over() || game.to_move() != self.layout.player() {
            return None;
        }
        let Some(slot) = self.layout.slot(game) else {
            let empty = game.empty();
            return (empty.count_ones() == 1)
                .then(|| Choice::Play(Point(empty.trailing_zeros() as u16)));
        };
        let matchbox = &mut self.boxes[slot.matchbox as usize];
        if matchbox.total == 0 {
            match self.preset.empty_box() {
                EmptyBox::Resign => return Some(Choice::Resign),
                EmptyBox::Refill(n) => {
                    for _ in 0..n {
                        let colour = matchbox.random_colour(&mut self.rng);
                        matchbox.add(colour, 1);
                    }
                }
            }
        }
        let square = matchbox.take(&mut self.rng);
        // A machine draws at most four beads a game; a fifth means the caller
        // never finished the previous game, so that game's beads go back.
        if self.drawn_len == self.drawn.len() {
            self.abandon();
        }
        self.drawn[self.drawn_len] = Drawn {
            matchbox: slot.matchbox,
            square,
        };
        self.drawn_len += 1;
        Some(Choice::Play(square_on_board(square, slot.symmetry)))
    }

    /// Pays back every bead drawn this game according to its rules, and
    /// counts the game on its curve.
    #[inline]
    pub fn learn(&mut self, result: GameResult) {
        let back = self.rules.beads_returned(result);
        self.curve.add(result);
        for d in &self.drawn[..self.drawn_len] {
            self.boxes[d.matchbox as usize].add(d.square, back);
        }
        self.drawn_len = 0;
        self.games += 1;
    }

    /// Puts the beads of an unfinished game back as they were.
    pub fn abandon(&mut self) {
        for d in &self.drawn[..self.drawn_len] {
            self.boxes[d.matchbox as usize].add(d.square, 1);
        }
        self.drawn_len = 0;
    }

    /// Beads drawn in the current game, as (box, square of its image).
    pub fn drawn(&self) -> impl Iterator<Item = (usize, u8)> + '_ {
        self.drawn[..self.drawn_len]
            .iter()
            .map(|d| (d.matchbox as usize, d.square))
    }

    /// Box `index` as one line: number (from 1), image, beads in ascending order.
    pub fn box_line(&self, index: usize) -> BoxLine<'_> {
        BoxLine {
            menace: self,
            index,
        }
    }
}

/// One box printed as `NUMBER IMAGE BEADS`: the number counts from 1, the
/// image is nine cells of `X`, `O`, `.` and each bead is the digit of its
/// square, in ascending order (`-` for an empty box).
pub struct BoxLine<'a> {
    menace: &'a Menace,
    index: usize,
}

impl fmt::Display for BoxLine<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let image = self.menace.layout.images()[self.index];
        let matchbox = &self.menace.boxes[self.index];
        write!(f, "{:3} {} ", self.index + 1, image.compact())?;
        if matchbox.total == 0 {
            return f.write_str("-");
        }
        for (sq, &count) in matchbox.beads.iter().enumerate() {
            let digit = char::from(b'0' + sq as u8);
            for _ in 0..count {
                write!(f, "{digit}")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(text: &str) -> TicTacToe {
        text.parse().unwrap()
    }

    #[test]
    fn fresh_bead_totals() {
        let challenge = Menace::new(Preset::Challenge, Player::X, 0);
        assert_eq!(challenge.total_beads(), 1917);
        assert_eq!(9 * 4 + 84 * 3 + 540 * 2 + 549, 1917);
        assert_eq!(
            Menace::new(Preset::Michie, Player::X, 0).total_beads(),
            1917
        );
        // Scroggs: the empty board has three colours (corner, edge, centre).
        let scroggs = Menace::new(Preset::Scroggs, Player::X, 0);
        assert_eq!(scroggs.boxes()[0].beads(), [8, 8, 0, 0, 8, 0, 0, 0, 0]);
        let per_move: Vec<u64> = (0..4)
            .map(|m| {
                (0..304)
                    .filter(|&i| scroggs.layout().move_number(i) == m)
                    .map(|i| scroggs.boxes()[i].colours().count_ones() as u64)
                    .sum()
            })
            .collect();
        let start = Preset::Scroggs.start_beads();
        let expected: u64 = per_move.iter().zip(start).map(|(c, s)| c * s as u64).sum();
        assert_eq!(scroggs.total_beads(), expected);
        assert!(scroggs.total_beads() < 1917 + 9 * 4);
    }

    #[test]
    fn merged_colours_follow_the_image_symmetries() {
        // Centre taken, corner by O: only the main diagonal mirrors it.
        let image = board("O...X....");
        let colours = colours_of(&image, true);
        // Squares 1 and 3 merge, 2 and 6 merge, 5 and 7 merge; 8 stays.
        assert_eq!(colours, 1 << 1 | 1 << 2 | 1 << 5 | 1 << 8);
        assert_eq!(colours_of(&image, false), image.empty());
    }

    #[test]
    fn win_draw_loss_reinforcement_bead_by_bead() {
        for (result, after) in [
            (GameResult::Win, 5),
            (GameResult::Draw, 4),
            (GameResult::Loss, 3),
        ] {
            let mut m = Menace::new(Preset::Challenge, Player::X, 7);
            let game = TicTacToe::new();
            let Some(Choice::Play(p)) = m.choose(&game) else {
                panic!("no move")
            };
            let (matchbox, square) = m.drawn().next().unwrap();
            assert_eq!(matchbox, 0);
            assert_eq!(m.boxes()[0].total(), 35);
            assert_eq!(m.boxes()[0].beads()[square as usize], 3);
            m.learn(result);
            assert_eq!(m.boxes()[0].beads()[square as usize], after, "{result:?}");
            assert_eq!(m.total_beads(), 1917 + after as u64 - 4);
            // Every other colour of the first box is untouched.
            for sq in 0..9 {
                if sq != square as usize {
                    assert_eq!(m.boxes()[0].beads()[sq], 4);
                }
            }
            assert!(p.index() < 9);
            assert_eq!(m.games(), 1);
        }
    }

    #[test]
    fn michie_pays_three_for_a_win_and_one_for_a_draw() {
        for (result, after) in [
            (GameResult::Win, 7),
            (GameResult::Draw, 5),
            (GameResult::Loss, 3),
        ] {
            let mut m = Menace::new(Preset::Michie, Player::X, 1);
            m.choose(&TicTacToe::new());
            let (_, square) = m.drawn().next().unwrap();
            m.learn(result);
            assert_eq!(m.boxes()[0].beads()[square as usize], after);
        }
    }

    #[test]
    fn empty_box_is_refilled_with_three_legal_beads() {
        let mut m = Menace::new(Preset::Challenge, Player::X, 3);
        let game = board("XO.......");
        let slot = m.layout().slot(&game).unwrap();
        let i = slot.matchbox as usize;
        m.boxes_mut()[i] = m.boxes()[i].with_beads([0; 9]).unwrap();
        assert_eq!(m.boxes()[i].total(), 0);
        let Some(Choice::Play(p)) = m.choose(&game) else {
            panic!("no move")
        };
        assert!(game.stone(p).is_none());
        // Three went in, one came out.
        assert_eq!(m.boxes()[i].total(), 2);
        let colours = m.boxes()[i].colours();
        for (sq, &n) in m.boxes()[i].beads().iter().enumerate() {
            assert!(n == 0 || colours >> sq & 1 != 0);
        }
        // A loss keeps the drawn bead out.
        m.learn(GameResult::Loss);
        assert_eq!(m.boxes()[i].total(), 2);
    }

    #[test]
    fn empty_box_resigns_under_michie() {
        let mut m = Menace::new(Preset::Michie, Player::X, 3);
        m.boxes_mut()[0] = m.boxes()[0].with_beads([0; 9]).unwrap();
        assert_eq!(m.choose(&TicTacToe::new()), Some(Choice::Resign));
        assert_eq!(m.drawn().count(), 0);
    }

    #[test]
    fn forced_last_move_and_wrong_turn() {
        let mut m = Menace::new(Preset::Challenge, Player::X, 0);
        let game = board("XOXXOOOX.");
        assert_eq!(m.choose(&game), Some(Choice::Play(Point(8))));
        assert_eq!(m.drawn().count(), 0);
        assert_eq!(m.choose(&board("X........")), None);
        assert_eq!(m.choose(&board("XXXOO....")), None);
    }

    #[test]
    fn abandon_puts_beads_back() {
        let mut m = Menace::new(Preset::Challenge, Player::X, 5);
        let mut game = TicTacToe::new();
        let Some(Choice::Play(p)) = m.choose(&game) else {
            panic!()
        };
        game.play(p).unwrap();
        assert_eq!(m.total_beads(), 1916);
        m.abandon();
        assert_eq!(m.total_beads(), 1917);
        assert_eq!(m.games(), 0);
    }

    #[test]
    fn box_lines() {
        let m = Menace::new(Preset::Challenge, Player::X, 0);
        assert_eq!(
            m.box_line(0).to_string(),
            "  1 ......... 000011112222333344445555666677778888"
        );
        let last = m.box_line(303).to_string();
        assert!(last.starts_with("304 "), "{last}");
        let mut empty = m.clone();
        empty.boxes_mut()[1] = m.boxes()[1].with_beads([0; 9]).unwrap();
        assert!(empty.box_line(1).to_string().ends_with(" -"));
    }

    #[test]
    fn with_beads_rejects_taken_squares() {
        let m = Menace::new(Preset::Challenge, Player::X, 0);
        let i = m.layout().slot(&board("X...O....")).unwrap().matchbox as usize;
        let image = m.layout().images()[i];
        let taken = (!image.empty() & 0x1ff).trailing_zeros() as usize;
        let mut beads = [0; 9];
        beads[taken] = 1;
        assert_eq!(m.boxes()[i].with_beads(beads), None);
    }
}
