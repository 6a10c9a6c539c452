//! Which matchboxes exist: every position the machine can face, up to the 8
//! symmetries of the square, found by walking the game tree.
//!
//! A [`Layout`] numbers the canonical images and keeps a table from every
//! board (by its base-3 position code) to its box and to the symmetry that
//! turns the board into the box's image, so finding a box during play is one
//! array lookup.

use std::collections::HashMap;
use std::sync::OnceLock;

use inarow_core::{Game, Player, Point, Symmetry, TicTacToe};

/// Number of tic-tac-toe boards as base-3 codes: each square empty, X or O.
pub const POSITION_CODES: usize = 19683;

/// `TERNARY[mask]`: the base-3 number with digit 1 on every square of `mask`.
static TERNARY: [u16; 512] = {
    let mut table = [0u16; 512];
    let mut mask = 0;
    while mask < 512 {
        let mut code = 0u16;
        let mut power = 1u16;
        let mut i = 0;
        while i < 9 {
            if mask >> i & 1 != 0 {
                code += power;
            }
            power *= 3;
            i += 1;
        }
        table[mask] = code;
        mask += 1;
    }
    table
};

/// `BACK[s][square]`: the real square that `Symmetry::ALL[s]` sends to
/// `square` of the image, i.e. the inverse symmetry applied to `square`.
static BACK: [[u8; 9]; 8] = {
    let mut table = [[0u8; 9]; 8];
    let mut s = 0;
    while s < 8 {
        let mut real = 0;
        while real < 9 {
            let (r, c) = Symmetry::ALL[s].apply(real / 3, real % 3, 3);
            table[s][r * 3 + c] = real as u8;
            real += 1;
        }
        s += 1;
    }
    table
};

/// The base-3 code of a board: square `i` contributes `3^i` for X, `2 * 3^i` for O.
#[inline]
pub fn position_code(game: &TicTacToe) -> usize {
    TERNARY[game.stones_of(Player::X) as usize] as usize
        + 2 * TERNARY[game.stones_of(Player::O) as usize] as usize
}

/// The real square of `square` of a box's image, when `symmetry` took the
/// real board to the image.
#[inline]
pub fn square_on_board(square: u8, symmetry: Symmetry) -> Point {
    Point(BACK[symmetry as usize][square as usize] as u16)
}

/// Where a board's box is: its number and the symmetry from board to image.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    /// Index of the box in [`Layout::images`].
    pub matchbox: u16,
    /// The symmetry that turns the real board into the box's image.
    pub symmetry: Symmetry,
}

/// The numbered boxes of a machine that plays one side.
#[derive(Debug)]
pub struct Layout {
    player: Player,
    images: Vec<TicTacToe>,
    lookup: Vec<Option<Slot>>,
}

impl Layout {
    /// Walks every reachable game and collects the positions where `player`
    /// must choose: its turn, the game not over, at least two empty squares.
    ///
    /// Boxes are numbered by the machine's move, then by the image's
    /// position code, so the numbering is the same on every run.
    pub fn enumerate(player: Player) -> Layout {
        let mut seen = vec![false; POSITION_CODES];
        let mut faced = Vec::new();
        walk(&mut TicTacToe::new(), player, &mut seen, &mut faced);

        let mut images: Vec<TicTacToe> = faced.iter().map(|g| g.canonical().0).collect();
        images.sort_by_key(|g| (g.stones(), position_code(g)));
        images.dedup_by_key(|g| position_code(g));
        let number: HashMap<usize, u16> = images
            .iter()
            .enumerate()
            .map(|(i, g)| (position_code(g), i as u16))
            .collect();

        let mut lookup = vec![None; POSITION_CODES];
        for game in &faced {
            let (image, symmetry) = game.canonical();
            lookup[position_code(game)] = Some(Slot {
                matchbox: number[&position_code(&image)],
                symmetry,
            });
        }
        Layout {
            player,
            images,
            lookup,
        }
    }

    /// The layout for a machine playing `player`, enumerated once per process.
    pub fn of(player: Player) -> &'static Layout {
        static X: OnceLock<Layout> = OnceLock::new();
        static O: OnceLock<Layout> = OnceLock::new();
        match player {
            Player::X => X.get_or_init(|| Layout::enumerate(Player::X)),
            Player::O => O.get_or_init(|| Layout::enumerate(Player::O)),
        }
    }

    /// The side whose moves these boxes choose.
    pub fn player(&self) -> Player {
        self.player
    }

    /// The canonical image of every box, in box order.
    pub fn images(&self) -> &[TicTacToe] {
        &self.images
    }

    /// Number of boxes.
    pub fn len(&self) -> usize {
        self.images.len()
    }

    /// Whether there are no boxes (never, for tic-tac-toe).
    pub fn is_empty(&self) -> bool {
        self.images.is_empty()
    }

    /// The box for a board and the symmetry into its image, or `None` when
    /// the machine has no box for it (other side to move, game over, one
    /// empty square, unreachable).
    #[inline]
    pub fn slot(&self, game: &TicTacToe) -> Option<Slot> {
        self.lookup[position_code(game)]
    }

    /// The machine's move number (0 for its first move) at which box `index` is used.
    pub fn move_number(&self, index: usize) -> usize {
        self.images[index].stones() / 2
    }
}

fn walk(game: &mut TicTacToe, player: Player, seen: &mut [bool], faced: &mut Vec<TicTacToe>) {
    let code = position_code(game);
    if seen[code] {
        return;
    }
    seen[code] = true;
    if game.is_over() {
        return;
    }
    if game.to_move() == player && game.empty().count_ones() >= 2 {
        faced.push(*game);
    }
    for point in game.moves() {
        game.play_unchecked(point);
        walk(game, player, seen, faced);
        game.undo(point);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn per_move(layout: &Layout) -> Vec<usize> {
        let mut counts = vec![0; 4];
        for i in 0..layout.len() {
            counts[layout.move_number(i)] += 1;
        }
        counts
    }

    #[test]
    fn menace_has_304_boxes() {
        let layout = Layout::enumerate(Player::X);
        assert_eq!(layout.len(), 304);
        assert_eq!(per_move(&layout), [1, 12, 108, 183]);
    }

    #[test]
    fn the_second_player_has_289_boxes() {
        let layout = Layout::enumerate(Player::O);
        assert_eq!(layout.len(), 289);
        assert_eq!(per_move(&layout), [3, 38, 153, 95]);
    }

    #[test]
    fn images_are_distinct_up_to_symmetry() {
        for player in Player::BOTH {
            let layout = Layout::of(player);
            let mut classes: Vec<usize> = Vec::new();
            for (i, image) in layout.images().iter().enumerate() {
                assert_eq!(image.to_move(), player);
                // No two images are symmetric to each other: each image's
                // whole class is a set of codes no other image reaches.
                let mut class: Vec<usize> = Symmetry::ALL
                    .iter()
                    .map(|&s| position_code(&image.transformed(s)))
                    .collect();
                class.sort_unstable();
                class.dedup();
                for j in 0..i {
                    let other = position_code(&layout.images()[j]);
                    assert!(!class.contains(&other), "boxes {j} and {i} are symmetric");
                }
                classes.extend(class);
            }
            let total = classes.len();
            classes.sort_unstable();
            classes.dedup();
            assert_eq!(classes.len(), total);
        }
    }

    #[test]
    fn every_faced_board_finds_its_image() {
        let layout = Layout::of(Player::X);
        let mut found = 0;
        for code in 0..POSITION_CODES {
            let Some(slot) = layout.lookup[code] else {
                continue;
            };
            found += 1;
            // Rebuild the board from its code and check the slot's symmetry.
            let (mut x, mut o, mut c) = (0u16, 0u16, code);
            for i in 0..9 {
                match c % 3 {
                    1 => x |= 1 << i,
                    2 => o |= 1 << i,
                    _ => {}
                }
                c /= 3;
            }
            let board = TicTacToe::from_stones(x, o, Player::X).unwrap();
            let image = layout.images()[slot.matchbox as usize];
            assert_eq!(board.transformed(slot.symmetry).compact(), image.compact());
        }
        assert!(found >= 304);
    }

    #[test]
    fn squares_map_back_through_the_inverse() {
        for s in Symmetry::ALL {
            let probe = TicTacToe::new();
            for sq in 0..9u8 {
                let real = square_on_board(sq, s);
                assert_eq!(probe.transform_point(real, s), Point(sq as u16));
                assert_eq!(real, probe.transform_point(Point(sq as u16), s.inverse()));
            }
        }
    }
}
