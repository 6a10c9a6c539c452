//! Seeded random renju positions with black to move and their forbidden
//! points by `inarow_core::renju`, for the agreement check against another
//! engine (`scripts/renju-rapfi.sh`): one line a position, the stones as
//! `x,y,colour` (1 black, 2 white) separated by spaces, `|`, then the
//! forbidden points as `x,y` in row order.
//!
//! `cargo run --release -p inarow-core --example renju_positions -- SEED COUNT`

use inarow_core::renju::{Grid, Stone};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("SEED COUNT as whole numbers"))
        .collect();
    let (seed, count) = (
        args.first().copied().unwrap_or(1),
        args.get(1).copied().unwrap_or(100),
    );
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut made = 0;
    while made < count {
        let mut g = Grid::new(15);
        let mut stones = Vec::new();
        let pairs = rng.random_range(6..22);
        // Black crowded in the middle, white anywhere: black shapes live.
        let spread = rng.random_range(3..6);
        while stones.len() < 2 * pairs {
            let black = stones.len() % 2 == 0;
            let (x, y) = if black {
                (
                    7 + rng.random_range(0..2 * spread + 1) - spread,
                    7 + rng.random_range(0..2 * spread + 1) - spread,
                )
            } else {
                (rng.random_range(0..15), rng.random_range(0..15))
            };
            if g.get((x as isize, y as isize)) != Some(Stone::Empty) {
                continue;
            }
            let stone = if black { Stone::Black } else { Stone::White };
            g.set(x, y, stone);
            stones.push((x, y, if black { 1 } else { 2 }));
        }
        if has_five(&g) {
            continue;
        }
        let forbidden = g.forbidden_points();
        let board: Vec<String> = stones
            .iter()
            .map(|(x, y, c)| format!("{x},{y},{c}"))
            .collect();
        let points: Vec<String> = forbidden
            .iter()
            .map(|(x, y, _)| format!("{x},{y}"))
            .collect();
        println!("{}|{}", board.join(" "), points.join(" "));
        made += 1;
    }
}

/// Whether five or more of one colour already stand in a row.
fn has_five(g: &Grid) -> bool {
    let n = g.size() as isize;
    for y in 0..n {
        for x in 0..n {
            let Some(s @ (Stone::Black | Stone::White)) = g.get((x, y)) else {
                continue;
            };
            for (dx, dy) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
                if (0..5).all(|k| g.get((x + k * dx, y + k * dy)) == Some(s)) {
                    return true;
                }
            }
        }
    }
    false
}
