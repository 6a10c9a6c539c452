//! The board's pattern counts against a brute-force counter written straight
//! from the definitions, on random boards; and incremental updates against a
//! full recount through long random play with take-backs. One suite, run
//! under both rules: freestyle (five or more wins) and exact five.

use inarow_core::{Player, Rule};
use inarow_engine::board::{Board, DIRS};
use inarow_engine::pattern::{PATTERNS, Pattern, threat_of};
use inarow_engine::pos::Pos;

// The reference model's own codes for what a point holds.
const EMPTY: u8 = 0;
const BLACK: u8 = 1;
const WHITE: u8 = 2;
const WALL: u8 = 3;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A plain grid: `None` off the board.
struct Grid {
    n: isize,
    cells: Vec<u8>,
}

impl Grid {
    fn at(&self, x: isize, y: isize) -> Option<u8> {
        (0..self.n)
            .contains(&x)
            .then_some(())
            .filter(|_| (0..self.n).contains(&y))
            .map(|_| self.cells[(y * self.n + x) as usize])
    }
}

const STEPS: [(isize, isize); 4] = [(1, 0), (0, 1), (1, 1), (-1, 1)];

/// Whether a run of `n` stones wins under `rule` (a colour's rule).
fn wins(n: usize, rule: Rule) -> bool {
    match rule {
        Rule::Freestyle => n >= 5,
        Rule::Exact => n == 5,
        Rule::Renju => unreachable!("each colour has its own rule under renju"),
    }
}

/// How `colour` (0 black) makes fives under `rule`: renju's black as in
/// exact five, its white as in freestyle.
fn colour_rule(rule: Rule, colour: usize) -> Rule {
    match (rule, colour) {
        (Rule::Renju, 0) => Rule::Exact,
        (Rule::Renju, _) => Rule::Freestyle,
        (rule, _) => rule,
    }
}

/// Own-stone run through (x, y) along a direction, (x, y) counted as own.
fn run(g: &Grid, own: u8, x: isize, y: isize, (dx, dy): (isize, isize)) -> usize {
    let mut n = 1;
    for s in [-1, 1] {
        let mut k = 1;
        while g.at(x + s * k * dx, y + s * k * dy) == Some(own) {
            n += 1;
            k += 1;
        }
    }
    n
}

/// Empty points within 4 of p along the line where `own` completes a five
/// (under `rule`) containing p.
fn five_points(
    g: &mut Grid,
    rule: Rule,
    own: u8,
    px: isize,
    py: isize,
    d: (isize, isize),
) -> usize {
    let mut count = 0;
    for k in -4..=4isize {
        let (x, y) = (px + k * d.0, py + k * d.1);
        if k == 0 || g.at(x, y) != Some(EMPTY) {
            continue;
        }
        let i = (y * g.n + x) as usize;
        g.cells[i] = own;
        // The run through the new stone must reach p.
        let mut lo = 0;
        while g.at(x + (lo - 1) * d.0, y + (lo - 1) * d.1) == Some(own) {
            lo -= 1;
        }
        let mut hi = 0;
        while g.at(x + (hi + 1) * d.0, y + (hi + 1) * d.1) == Some(own) {
            hi += 1;
        }
        if wins((hi - lo + 1) as usize, rule) && (lo..=hi).contains(&-k) {
            count += 1;
        }
        g.cells[i] = EMPTY;
    }
    count
}

fn three(g: &mut Grid, rule: Rule, own: u8, px: isize, py: isize, d: (isize, isize)) -> Pattern {
    let mut best = Pattern::Open;
    for k in -4..=4isize {
        let (x, y) = (px + k * d.0, py + k * d.1);
        if k == 0 || g.at(x, y) != Some(EMPTY) {
            continue;
        }
        let i = (y * g.n + x) as usize;
        g.cells[i] = own;
        let f = five_points(g, rule, own, px, py, d);
        g.cells[i] = EMPTY;
        if f >= 2 {
            return Pattern::Flex3;
        }
        if f == 1 {
            best = Pattern::Block3;
        }
    }
    best
}

fn brute_pattern(
    g: &mut Grid,
    rule: Rule,
    own: u8,
    px: isize,
    py: isize,
    d: (isize, isize),
) -> Pattern {
    let i = (py * g.n + px) as usize;
    g.cells[i] = own;
    let result = (|| {
        if wins(run(g, own, px, py, d), rule) {
            return Pattern::Five;
        }
        let at = |k: isize| g.at(px + k * d.0, py + k * d.1);
        let free = |k: isize| matches!(at(k), Some(v) if v == EMPTY || v == own);
        // Under exact five an own stone just beyond the five makes it six.
        let bounded = |s: isize| {
            rule == Rule::Freestyle || (at(s - 1) != Some(own) && at(s + 5) != Some(own))
        };
        if !(-4..=0).any(|s| (s..s + 5).all(free) && bounded(s)) {
            return Pattern::Dead;
        }
        match five_points(g, rule, own, px, py, d) {
            0 => {}
            1 => return Pattern::Block4,
            _ => return Pattern::Flex4,
        }
        let t = three(g, rule, own, px, py, d);
        if t != Pattern::Open {
            return t;
        }
        let mut best = Pattern::Open;
        for k in -4..=4isize {
            let (x, y) = (px + k * d.0, py + k * d.1);
            if k == 0 || g.at(x, y) != Some(EMPTY) {
                continue;
            }
            let j = (y * g.n + x) as usize;
            g.cells[j] = own;
            let t = three(g, rule, own, px, py, d);
            g.cells[j] = EMPTY;
            match t {
                Pattern::Flex3 => return Pattern::Flex2,
                Pattern::Block3 => best = Pattern::Block2,
                _ => {}
            }
        }
        best
    })();
    g.cells[i] = EMPTY;
    result
}

fn random_board(rng: &mut ChaCha8Rng, n: usize, rule: Rule) -> (Board, Grid) {
    let mut b = Board::with_rule(n, rule).unwrap();
    let mut g = Grid {
        n: n as isize,
        cells: vec![EMPTY; n * n],
    };
    let stones = rng.random_range(0..n * n / 2);
    for _ in 0..stones {
        let (x, y) = (rng.random_range(0..n), rng.random_range(0..n));
        if g.cells[y * n + x] != EMPTY {
            continue;
        }
        let v = match rng.random_range(0..20) {
            0 => WALL,
            1..10 => BLACK,
            _ => WHITE,
        };
        match v {
            WALL => b.wall(Pos::at(x, y)),
            BLACK => b.place(Pos::at(x, y), Player::X),
            _ => b.place(Pos::at(x, y), Player::O),
        }
        .unwrap();
        g.cells[y * n + x] = v;
    }
    (b, g)
}

fn pattern_counts_agree_with_brute_force(rule: Rule, seed: u64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for round in 0..60 {
        let n = [15, 15, 20, 7][round % 4];
        let (b, mut g) = random_board(&mut rng, n, rule);
        let mut counts = [[0i32; PATTERNS]; 2];
        for y in 0..n {
            for x in 0..n {
                if g.cells[y * n + x] != EMPTY {
                    continue;
                }
                let i = Pos::at(x, y);
                for (c, colour) in [Player::X, Player::O].into_iter().enumerate() {
                    let own = [BLACK, WHITE][c];
                    let mut pats = [Pattern::Dead; 4];
                    for d in 0..4 {
                        let want = brute_pattern(
                            &mut g,
                            colour_rule(rule, c),
                            own,
                            x as isize,
                            y as isize,
                            STEPS[d],
                        );
                        let got = b.pattern(i, colour, d);
                        assert_eq!(
                            got, want,
                            "{rule:?} round {round}, {x},{y}, {colour:?}, dir {d}\n{b:?}"
                        );
                        pats[d] = want;
                        counts[c][want as usize] += 1;
                    }
                    assert_eq!(b.threat(i, colour), threat_of(pats));
                }
            }
        }
        assert_eq!(b.kept_counts().0, counts);
        for p in Pattern::ALL {
            assert_eq!(b.pattern_count(Player::X, p), counts[0][p as usize]);
        }
    }
}

#[test]
fn freestyle_pattern_counts_agree_with_brute_force() {
    pattern_counts_agree_with_brute_force(Rule::Freestyle, 5);
}

#[test]
fn exact_five_pattern_counts_agree_with_brute_force() {
    pattern_counts_agree_with_brute_force(Rule::Exact, 7);
}

#[test]
fn renju_pattern_counts_agree_with_brute_force() {
    pattern_counts_agree_with_brute_force(Rule::Renju, 9);
}

#[test]
fn the_board_directions_are_the_steps_used_here() {
    let (x, y) = (7, 7);
    for (d, &(dx, dy)) in STEPS.iter().enumerate() {
        let there = Pos::at((x + dx) as usize, (y + dy) as usize);
        assert_eq!(Pos::at(x as usize, y as usize).step(DIRS[d]), there);
    }
}

fn incremental_update_equals_full_recount(rule: Rule, seed: u64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for game in 0..12 {
        let n = if game % 3 == 0 { 20 } else { 15 };
        let mut b = Board::with_rule(n, rule).unwrap();
        let empty_hash = b.hash();
        let mut played = 0;
        for step in 0..260 {
            let empties: Vec<Pos> = b.empty_points().collect();
            if empties.is_empty() {
                break;
            }
            match rng.random_range(0..10) {
                0 if played > 0 => {
                    b.undo();
                    played -= 1;
                }
                1 if played > 2 => {
                    // TAKEBACK of an older stone, as the brain protocol allows.
                    let pick = b.history()[rng.random_range(0..b.history().len())];
                    assert!(b.remove(pick));
                    played -= 1;
                    b.set_to_move(if played % 2 == 0 {
                        Player::X
                    } else {
                        Player::O
                    });
                }
                _ => {
                    b.play_unchecked(empties[rng.random_range(0..empties.len())]);
                    played += 1;
                }
            }
            if step % 7 == 0 {
                assert_eq!(b.kept_counts(), b.recount(), "game {game} step {step}");
            }
        }
        assert_eq!(b.kept_counts(), b.recount());
        // The same stones under the other rule, and back: a manager may
        // change the rule in mid-game.
        let other = match rule {
            Rule::Freestyle => Rule::Exact,
            Rule::Exact => Rule::Renju,
            Rule::Renju => Rule::Freestyle,
        };
        let hash = b.hash();
        b.set_rule(other);
        assert_ne!(b.hash(), hash, "the rule is part of the position");
        assert_eq!(b.kept_counts(), b.recount());
        b.set_rule(rule);
        assert_eq!((b.hash(), b.kept_counts()), (hash, b.recount()));
        while b.take_back().is_some() {}
        b.set_to_move(Player::X);
        assert_eq!(b.hash(), empty_hash);
        assert_eq!(
            b.kept_counts(),
            Board::with_rule(n, rule).unwrap().kept_counts()
        );
    }
}

#[test]
fn freestyle_incremental_update_equals_full_recount() {
    incremental_update_equals_full_recount(Rule::Freestyle, 6);
}

#[test]
fn exact_five_incremental_update_equals_full_recount() {
    incremental_update_equals_full_recount(Rule::Exact, 8);
}

#[test]
fn renju_incremental_update_equals_full_recount() {
    incremental_update_equals_full_recount(Rule::Renju, 10);
}
