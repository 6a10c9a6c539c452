//! The openings a match is played from: read from a file, or generated from
//! a seed (random shapes near the centre, or the most balanced of a few by
//! a short search).

use inarow_core::{Game, Mnk, Point, Rule};
use inarow_engine::player::board_of;
use inarow_engine::search::{Limits, Options, Searcher};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// An opening: stones in move order (black first).
pub type Opening = Vec<Point>;

/// Reads openings, one a line: `x,y` points separated by spaces; `#`
/// starts a comment; blank lines are skipped.
pub fn parse_openings(text: &str, size: usize) -> Result<Vec<Opening>, String> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let mut opening = Opening::new();
        for field in line.split_whitespace() {
            let (x, y) = field
                .split_once(',')
                .and_then(|(x, y)| Some((x.trim().parse().ok()?, y.trim().parse().ok()?)))
                .ok_or_else(|| format!("line {}: expected x,y points, got {field:?}", n + 1))?;
            let point = Point::from_xy(x, y, size).ok_or_else(|| {
                format!(
                    "line {}: point {x},{y} is off the {size}x{size} board",
                    n + 1
                )
            })?;
            if opening.contains(&point) {
                return Err(format!("line {}: point {x},{y} appears twice", n + 1));
            }
            opening.push(point);
        }
        out.push(opening);
    }
    if out.is_empty() {
        return Err("no openings in the file".into());
    }
    Ok(out)
}

/// `count` seeded openings of three stones within two points of the centre.
pub fn random_openings(seed: u64, count: usize, size: usize) -> Vec<Opening> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..count)
        .map(|_| random_shape(&mut rng, size, 3))
        .collect()
}

fn random_shape(rng: &mut ChaCha8Rng, size: usize, stones: usize) -> Opening {
    let c = size / 2;
    let mut o: Opening = vec![Point::at(c, c, size)];
    while o.len() < stones {
        let x = c + rng.random_range(0..7) - 3;
        let y = c + rng.random_range(0..7) - 3;
        let p = Point::at(y, x, size);
        if !o.contains(&p) {
            o.push(p);
        }
    }
    o
}

/// `count` seeded openings of `stones` stones (alternating from black, near
/// the centre), each the most balanced of a few candidates by a node-limited
/// search under `rule`, so that the colours alone do not decide the games.
pub fn balanced_openings(
    seed: u64,
    count: usize,
    size: usize,
    rule: Rule,
    stones: usize,
) -> Vec<Opening> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut searcher = Searcher::new(Options {
        tt_bytes: 1 << 20,
        ..Options::default()
    });
    let limits = Limits {
        time: None,
        depth: 40,
        nodes: 20_000,
    };
    (0..count)
        .map(|_| {
            (0..6)
                .map(|_| {
                    let o = random_shape(&mut rng, size, stones);
                    let mut game = Mnk::new(size, size, 5, rule).expect("size");
                    for &p in &o {
                        game.play(p).expect("distinct points");
                    }
                    let mut b = board_of(&game, None).expect("live board");
                    searcher.clear();
                    let score = searcher.search(&mut b, limits).score.abs();
                    (score, o)
                })
                .min_by_key(|(score, _)| *score)
                .expect("candidates")
                .1
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openings_parse_or_explain() {
        let ops = parse_openings("# comment\n7,7 8,8 6,8\n\n7,7 7,8\n", 15).unwrap();
        let xy = |o: &Opening| -> Vec<(usize, usize)> {
            o.iter().map(|p| (p.col(15), p.row(15))).collect()
        };
        assert_eq!(
            ops.iter().map(xy).collect::<Vec<_>>(),
            vec![vec![(7, 7), (8, 8), (6, 8)], vec![(7, 7), (7, 8)]]
        );
        assert!(
            parse_openings("7,7 15,0", 15)
                .unwrap_err()
                .contains("off the")
        );
        assert!(parse_openings("7,7 7,7", 15).unwrap_err().contains("twice"));
        assert!(
            parse_openings("7;7", 15)
                .unwrap_err()
                .contains("expected x,y")
        );
        assert!(parse_openings("", 15).is_err());
        let r = random_openings(3, 5, 15);
        assert_eq!(r.len(), 5);
        assert!(r.iter().all(|o| {
            o.len() == 3
                && o.iter()
                    .all(|p| (4..=10).contains(&p.col(15)) && (4..=10).contains(&p.row(15)))
        }));
        let balanced = balanced_openings(4, 2, 15, Rule::Freestyle, 4);
        assert_eq!(
            balanced,
            balanced_openings(4, 2, 15, Rule::Freestyle, 4),
            "seeded"
        );
        for o in &balanced {
            assert_eq!(o.len(), 4);
            assert!(o.iter().enumerate().all(|(k, p)| !o[k + 1..].contains(p)));
        }
    }
}
