//! Renju's forbidden points for black (RIF): a double four, a double three
//! (two *real* threes) or an overline, unless the same stone makes a five.
//! A three is real only if a stone that is itself not forbidden turns it
//! into a straight four, so the check is recursive. This is the rule
//! written as directly as it reads, on a plain grid: the reference that
//! faster versions are checked against. Pure: no I/O, no tables.

/// Why a point is forbidden to black.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Forbidden {
    /// Two threes made by one stone, each able to become a straight four.
    DoubleThree,
    /// Two fours made by one stone (two in one line included).
    DoubleFour,
    /// Six or more in a row.
    Overline,
}

impl Forbidden {
    /// Every reason, in the order the rules list them.
    pub const ALL: [Forbidden; 3] = [
        Forbidden::DoubleThree,
        Forbidden::DoubleFour,
        Forbidden::Overline,
    ];

    /// The reason as records and messages write it.
    pub fn name(self) -> &'static str {
        match self {
            Forbidden::DoubleThree => "double three",
            Forbidden::DoubleFour => "double four",
            Forbidden::Overline => "overline",
        }
    }
}

impl std::fmt::Display for Forbidden {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A text that names no reason a point is forbidden for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownForbidden(pub String);

impl std::fmt::Display for UnknownForbidden {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{:?} is none of double three, double four and overline",
            self.0
        )
    }
}

impl std::error::Error for UnknownForbidden {}

impl std::str::FromStr for Forbidden {
    type Err = UnknownForbidden;

    /// A reason by its name ([`Forbidden::name`]), as records write it.
    fn from_str(text: &str) -> Result<Forbidden, UnknownForbidden> {
        Forbidden::ALL
            .into_iter()
            .find(|f| f.name() == text)
            .ok_or_else(|| UnknownForbidden(text.to_string()))
    }
}

/// What a point holds, for the check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stone {
    /// No stone.
    Empty,
    /// A black stone.
    Black,
    /// A white stone.
    White,
}

/// The four line directions: across, down, and both diagonals.
const DIRECTIONS: [(isize, isize); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// The most points a grid holds (20 x 20, as the core's boards).
pub const MAX_POINTS: usize = 400;

/// A board's stones for the forbidden-point check: a plain array, copied
/// cheaply, so that the check allocates nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grid {
    width: usize,
    height: usize,
    cells: [Stone; MAX_POINTS],
}

/// A point of the grid as signed coordinates, so that steps along a line
/// may leave the board.
type At = (isize, isize);

/// Points of one line where a stone makes a five: at most a handful.
#[derive(Clone, Copy)]
struct Fives {
    len: usize,
    at: [At; 8],
}

impl Fives {
    fn points(&self) -> &[At] {
        &self.at[..self.len]
    }
}

impl Grid {
    /// An empty board `size` points wide and high.
    pub fn new(size: usize) -> Grid {
        Grid::with_size(size, size)
    }

    /// An empty board `width` points across and `height` down.
    ///
    /// # Panics
    /// If it holds more than [`MAX_POINTS`] points.
    pub fn with_size(width: usize, height: usize) -> Grid {
        assert!(
            width * height <= MAX_POINTS,
            "a grid holds {MAX_POINTS} points at most"
        );
        Grid {
            width,
            height,
            cells: [Stone::Empty; MAX_POINTS],
        }
    }

    /// The board's width (its side when square).
    pub fn size(&self) -> usize {
        self.width
    }

    /// The board's height.
    pub fn height(&self) -> usize {
        self.height
    }

    /// What `(x, y)` holds; `None` off the board.
    pub fn get(&self, (x, y): At) -> Option<Stone> {
        ((0..self.width as isize).contains(&x) && (0..self.height as isize).contains(&y))
            .then(|| self.cells[y as usize * self.width + x as usize])
    }

    /// Puts `stone` on `(x, y)`, which must be on the board.
    pub fn set(&mut self, x: usize, y: usize, stone: Stone) {
        assert!(
            x < self.width && y < self.height,
            "({x}, {y}) is off the grid"
        );
        self.cells[y * self.width + x] = stone;
    }

    fn put(&mut self, (x, y): At, stone: Stone) {
        self.set(x as usize, y as usize, stone);
    }

    /// Black stones in a row through `p` along `d` (`p` counted black).
    fn run(&self, p: At, d: At) -> usize {
        let mut n = 1;
        for sign in [-1, 1] {
            let mut q = (p.0 + sign * d.0, p.1 + sign * d.1);
            while self.get(q) == Some(Stone::Black) {
                n += 1;
                q = (q.0 + sign * d.0, q.1 + sign * d.1);
            }
        }
        n
    }

    /// Whether a black stone on empty `(x, y)` makes exactly five in a line.
    pub fn makes_five(&self, x: usize, y: usize) -> bool {
        let p = (x as isize, y as isize);
        DIRECTIONS.iter().any(|&d| self.run(p, d) == 5)
    }

    /// With `p` black: the empty points along `d` where a black stone makes
    /// exactly five with `p` in it.
    fn five_points(&mut self, p: At, d: At) -> Fives {
        let mut out = Fives {
            len: 0,
            at: [(0, 0); 8],
        };
        for k in -4isize..=4 {
            let w = (p.0 + k * d.0, p.1 + k * d.1);
            if k == 0 || self.get(w) != Some(Stone::Empty) {
                continue;
            }
            self.put(w, Stone::Black);
            // Every point from p to w black and p's run five: one run of
            // exactly five holds both.
            let between = (1..k.abs()).all(|s| {
                let q = (p.0 + s * k.signum() * d.0, p.1 + s * k.signum() * d.1);
                self.get(q) == Some(Stone::Black)
            });
            if between && self.run(p, d) == 5 {
                out.at[out.len] = w;
                out.len += 1;
            }
            self.put(w, Stone::Empty);
        }
        out
    }

    /// With `p` black: how many fours along `d` hold `p`. One five point
    /// is a four; two are a straight four (five steps apart, the four
    /// stones between) or two fours in one line.
    fn fours(&mut self, p: At, d: At) -> usize {
        match self.five_points(p, d).points() {
            [] => 0,
            [a, b] if apart(*a, *b) == 5 => 1,
            points => points.len().min(2),
        }
    }

    /// With `p` black: whether it is in a real three along `d`: a stone on
    /// some empty point of the line, itself not forbidden, makes a straight
    /// four that holds `p`.
    fn real_three(&mut self, p: At, d: At, depth: usize) -> bool {
        for k in -4isize..=4 {
            let q = (p.0 + k * d.0, p.1 + k * d.1);
            // A point where black makes a five wins there: it makes no
            // three real (RIF 9.3, as Rapfi reads it).
            if k == 0
                || self.get(q) != Some(Stone::Empty)
                || self.makes_five(q.0 as usize, q.1 as usize)
            {
                continue;
            }
            self.put(q, Stone::Black);
            let straight = matches!(self.five_points(p, d).points(), [a, b] if apart(*a, *b) == 5);
            self.put(q, Stone::Empty);
            if straight
                && (depth == 0
                    || self
                        .forbidden_within(q.0 as usize, q.1 as usize, depth - 1)
                        .is_none())
            {
                return true;
            }
        }
        false
    }

    /// Whether empty `(x, y)` is forbidden to black, and why: a five there
    /// is never forbidden; otherwise an overline, two fours, or two real
    /// threes (in lines without a four).
    pub fn forbidden(&mut self, x: usize, y: usize) -> Option<Forbidden> {
        // Each level of the recursion puts a stone: it ends by itself.
        self.forbidden_within(x, y, usize::MAX)
    }

    /// [`Grid::forbidden`] looking at most `depth` levels down for the
    /// four points of threes (0: every straight-four point counts), so
    /// that tests can show where the recursion decides.
    fn forbidden_within(&mut self, x: usize, y: usize, depth: usize) -> Option<Forbidden> {
        let p = (x as isize, y as isize);
        if self.get(p) != Some(Stone::Empty) || self.makes_five(x, y) {
            return None;
        }
        if DIRECTIONS.iter().any(|&d| self.run(p, d) >= 6) {
            return Some(Forbidden::Overline);
        }
        self.put(p, Stone::Black);
        let fours = DIRECTIONS.map(|d| self.fours(p, d));
        let why = if fours.iter().sum::<usize>() >= 2 {
            Some(Forbidden::DoubleFour)
        } else {
            let mut threes = 0;
            for (k, &d) in DIRECTIONS.iter().enumerate() {
                if fours[k] == 0 && self.real_three(p, d, depth) {
                    threes += 1;
                }
            }
            (threes >= 2).then_some(Forbidden::DoubleThree)
        };
        self.put(p, Stone::Empty);
        why
    }

    /// Every point forbidden to black, row by row.
    pub fn forbidden_points(&mut self) -> Vec<(usize, usize, Forbidden)> {
        let mut out = Vec::new();
        for y in 0..self.height {
            for x in 0..self.width {
                if let Some(why) = self.forbidden(x, y) {
                    out.push((x, y, why));
                }
            }
        }
        out
    }
}

/// Steps between two points of one line.
fn apart(a: At, b: At) -> isize {
    (a.0 - b.0).abs().max((a.1 - b.1).abs())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reason_reads_back_from_its_name_and_a_wrong_name_is_refused() {
        for why in Forbidden::ALL {
            assert_eq!(why.to_string().parse::<Forbidden>(), Ok(why));
        }
        assert_eq!(
            "double five".parse::<Forbidden>().unwrap_err().to_string(),
            "\"double five\" is none of double three, double four and overline"
        );
    }

    /// A 15x15 grid from rows of `x` (black), `o` (white) and `.`, from the
    /// top; shorter rows and missing rows are empty.
    pub(super) fn grid(rows: &[&str]) -> Grid {
        let mut g = Grid::new(15);
        for (y, row) in rows.iter().enumerate() {
            for (x, c) in row.chars().enumerate() {
                match c {
                    'x' => g.set(x, y, Stone::Black),
                    'o' => g.set(x, y, Stone::White),
                    _ => {}
                }
            }
        }
        g
    }

    /// The grid as rows, for finding and printing cases.
    fn rows(g: &Grid) -> String {
        let mut out = String::new();
        for y in 0..g.height as isize {
            out.push_str("            \"");
            for x in 0..g.width as isize {
                out.push(match g.get((x, y)) {
                    Some(Stone::Black) => 'x',
                    Some(Stone::White) => 'o',
                    _ => '.',
                });
            }
            out.push_str("\",\n");
        }
        out
    }

    /// White stones along the top and bottom edges, away from every case,
    /// so that the stones are even and black is to move when the same
    /// board is given to another engine (`YXBOARD`, `YXSHOWFORBID`).
    fn with_white_edges(mut g: Grid, count: usize) -> Grid {
        let edge = [0, 3, 6, 9, 12].iter().flat_map(|&x| [(x, 0), (x, 14)]);
        let mut edge: Vec<(usize, usize)> = edge.collect();
        edge.sort_by_key(|&(x, y)| (y, x));
        for &(x, y) in edge.iter().take(count) {
            g.set(x, y, Stone::White);
        }
        g
    }

    fn points(g: &mut Grid) -> Vec<(usize, usize)> {
        g.forbidden_points()
            .iter()
            .map(|&(x, y, _)| (x, y))
            .collect()
    }

    #[test]
    fn a_plain_double_three_and_a_single_three() {
        let mut g = grid(&["", "", "", "", "", ".......x", ".......x", ".....xx"]);
        assert_eq!(g.forbidden(7, 7), Some(Forbidden::DoubleThree));
        let mut one = grid(&["", "", "", "", "", "", "", ".....xx"]);
        assert_eq!(one.forbidden(7, 7), None);
        // A split three counts as a three.
        let mut split = grid(&["", "", "", "", ".......x", "", ".......x", ".....xx"]);
        assert_eq!(split.forbidden(7, 7), Some(Forbidden::DoubleThree));
    }

    #[test]
    fn threes_closed_by_white_or_by_the_edge_are_no_threes() {
        let mut white = grid(&["", "", "", "", "", ".......x", ".......x", "....oxx"]);
        assert_eq!(white.forbidden(7, 7), None);
        // x x * at the left edge: no room for a straight four.
        let mut edge = grid(&["", "", "", "", "", "..x", "..x", "xx"]);
        assert_eq!(edge.forbidden(2, 7), None);
        // One point more of room makes it a three again.
        let mut room = grid(&["", "", "", "", "", "...x", "...x", ".xx"]);
        assert_eq!(room.forbidden(3, 7), Some(Forbidden::DoubleThree));
    }

    #[test]
    fn double_fours_in_two_lines_and_in_one() {
        let mut two = grid(&[
            "", "", "", "", ".......x", ".......x", ".......x", "....xxx",
        ]);
        assert_eq!(two.forbidden(7, 7), Some(Forbidden::DoubleFour));
        // x . x x * . x: the stone makes a four to each side.
        let mut one = grid(&["", "", "", "", "", "", "", "...x.xx..x"]);
        assert_eq!(one.forbidden(7, 7), Some(Forbidden::DoubleFour));
        // x x . * x . x x, the same in one line.
        let mut pair = grid(&["", "", "", "", "", "", "", "..xx..x.xx"]);
        assert_eq!(pair.forbidden(5, 7), Some(Forbidden::DoubleFour));
        // A straight four is one four.
        let mut straight = grid(&["", "", "", "", "", "", "", "....xxx"]);
        assert_eq!(straight.forbidden(7, 7), None);
    }

    #[test]
    fn an_overline_and_a_five_that_is_also_a_double_four() {
        let mut six = grid(&["", "", "", "", "", "", "", "...xxx.xx"]);
        assert_eq!(six.forbidden(6, 7), Some(Forbidden::Overline));
        // Exactly five wins, whatever else the stone makes.
        let mut five = grid(&[
            "",
            "",
            "",
            "",
            "........x",
            "........x",
            "........x",
            "....xxxx",
        ]);
        assert!(five.makes_five(8, 7));
        assert_eq!(five.forbidden(8, 7), None);
    }

    #[test]
    fn a_three_whose_four_point_makes_a_five_is_no_three() {
        // Down from (8,3): * . x x; its four point (8,4) makes a five on
        // the diagonal, so only the diagonal three is real (RIF 9.3; Rapfi
        // agrees).
        let mut g = grid(&[
            "",
            "",
            "",
            "",
            "......x",
            "......xxx",
            ".....xx.x",
            ".....xx",
            "....x",
        ]);
        assert!(g.makes_five(8, 4));
        assert_eq!(g.forbidden(8, 3), None);
    }

    /// Cases found by `find_nested_cases` and checked against Rapfi: the
    /// answer changes with each level the recursion looks down, and the
    /// whole board's forbidden points are Rapfi's.
    #[test]
    fn nested_false_threes_one_two_and_three_levels_down() {
        let one = grid(&[
            "",
            "",
            "",
            "",
            ".......x",
            "",
            "..........x",
            ".....x",
            ".......xxx",
            "",
            "........x",
        ]);
        let mut g = with_white_edges(one, 7);
        assert_eq!(g.forbidden_within(7, 9, 0), Some(Forbidden::DoubleThree));
        assert_eq!(g.forbidden(7, 9), None);
        assert_eq!(points(&mut g), []);

        let two = grid(&[
            "",
            "",
            "",
            "",
            "",
            "........x",
            "",
            ".......x",
            ".........xx",
            "........xx",
            ".......x.xx",
        ]);
        let mut g = with_white_edges(two, 9);
        assert_eq!(g.forbidden_within(7, 9, 1), None);
        assert_eq!(g.forbidden(7, 9), Some(Forbidden::DoubleThree));
        assert_eq!(points(&mut g), [(7, 8), (7, 9), (10, 9), (10, 11)]);

        let three = grid(&[
            "",
            "",
            "",
            "",
            "........xx",
            "......xx",
            "....xo.xx",
            "......xx",
            "",
            ".........x",
        ]);
        let mut g = with_white_edges(three, 9);
        assert_eq!(g.forbidden_within(5, 7, 2), Some(Forbidden::DoubleThree));
        assert_eq!(g.forbidden(5, 7), None);
        assert_eq!(points(&mut g), [(10, 4), (8, 5), (6, 6), (8, 7), (9, 7)]);
    }

    /// Prints seeded positions (pruned to the stones that matter) where
    /// looking `level` levels down decides differently from `level - 1`:
    /// `cargo test -p inarow-core renju::tests::find -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn find_nested_cases() {
        use rand::{Rng, SeedableRng};
        use rand_chacha::ChaCha8Rng;
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        let mut found = std::collections::BTreeSet::new();
        for _ in 0..200_000 {
            let mut g = Grid::new(15);
            for k in 0..rng.random_range(10..40) {
                let (x, y) = if k % 3 != 2 {
                    (rng.random_range(4..11), rng.random_range(4..11))
                } else {
                    (rng.random_range(0..15), rng.random_range(0..15))
                };
                let s = if k % 3 != 2 {
                    Stone::Black
                } else {
                    Stone::White
                };
                g.set(x, y, s);
            }
            for y in 4..11 {
                for x in 4..11 {
                    for level in 1..4 {
                        if found.contains(&level)
                            || g.get((x as isize, y as isize)) != Some(Stone::Empty)
                        {
                            continue;
                        }
                        let differs = |g: &mut Grid| {
                            g.forbidden_within(x, y, level) != g.forbidden_within(x, y, level - 1)
                                && g.forbidden_within(x, y, level) == g.forbidden(x, y)
                        };
                        if differs(&mut g) {
                            // Prune: drop each stone that the difference does not need.
                            let mut p = g;
                            for i in 0..p.cells.len() {
                                let was = p.cells[i];
                                if was == Stone::Empty {
                                    continue;
                                }
                                p.cells[i] = Stone::Empty;
                                if !differs(&mut p) {
                                    p.cells[i] = was;
                                }
                            }
                            found.insert(level);
                            println!(
                                "level {level} at ({x}, {y}): {:?} (one level less: {:?})\n{}",
                                p.forbidden(x, y),
                                p.forbidden_within(x, y, level - 1),
                                rows(&p)
                            );
                        }
                    }
                }
            }
            if (1..4).all(|level| found.contains(&level)) {
                break;
            }
        }
    }
}
