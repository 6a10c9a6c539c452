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

/// `count` seeded openings of `stones` stones within three points of the
/// centre (the first on it), black and white alternating: varied starts
/// for self-play data.
pub fn seeded_openings(seed: u64, count: usize, size: usize, stones: usize) -> Vec<Opening> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..count)
        .map(|_| random_shape(&mut rng, size, stones.min(49)))
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

/// An opening found open, with how its games went.
#[derive(Clone, Debug, PartialEq)]
pub struct OpenOpening {
    /// The opening, black first.
    pub opening: Opening,
    /// Black's score over the engine's games against itself from it, 0 to 1.
    pub black: f64,
}

/// How [`open_openings`] looks for openings whose outcome is open.
#[derive(Clone, Debug, PartialEq)]
pub struct OpenSearch {
    /// Seed of the candidates.
    pub seed: u64,
    /// Openings wanted.
    pub count: usize,
    /// Candidates tried at most.
    pub tries: usize,
    /// Stones of an opening, least and most (each candidate draws its own).
    pub stones: (usize, usize),
    /// The board's side.
    pub size: usize,
    /// The rule the games are played under.
    pub rule: Rule,
    /// One game of the engine against itself per node budget, from each
    /// candidate: budgets that differ make games that differ.
    pub budgets: Vec<u64>,
    /// How far from even black's score may be: an opening is kept when
    /// black scores within `0.5 ± within` (0.125 with four budgets: two
    /// games each, or a draw's worth from it).
    pub within: f64,
    /// Games played at once.
    pub jobs: usize,
}

/// What [`open_openings`] found.
#[derive(Clone, Debug, PartialEq)]
pub struct OpenFound {
    /// The open openings, in the order they were found.
    pub openings: Vec<OpenOpening>,
    /// Candidates played to find them.
    pub tried: usize,
}

/// Openings whose outcome is open, by self-play: seeded candidates (the
/// centre first, the other stones within three points of it, alternating
/// from black), from each of which the engine plays itself once at every
/// node budget; a candidate is kept when black's score is within
/// [`OpenSearch::within`] of even. The same search finds the same openings
/// with any number of jobs: every game is on nodes, from empty tables.
pub fn open_openings(search: &OpenSearch) -> OpenFound {
    let mut rng = ChaCha8Rng::seed_from_u64(search.seed);
    let (least, most) = (search.stones.0.max(1), search.stones.1.max(search.stones.0));
    let candidates: Vec<Opening> = (0..search.tries)
        .map(|_| {
            let stones = rng.random_range(least..=most);
            random_shape(&mut rng, search.size, stones)
        })
        .collect();
    let mut kept = Vec::new();
    let mut tried = 0;
    let even = (0.5 - search.within)..=(0.5 + search.within);
    // A batch at a time, so that the search stops soon after enough are kept.
    for batch in candidates.chunks(search.jobs.max(1) * 4) {
        let scores = black_scores(search, batch);
        for (opening, black) in batch.iter().zip(scores) {
            if kept.len() == search.count {
                break;
            }
            tried += 1;
            if even.contains(&black) {
                kept.push(OpenOpening {
                    opening: opening.clone(),
                    black,
                });
            }
        }
        if kept.len() >= search.count {
            break;
        }
    }
    OpenFound {
        openings: kept,
        tried,
    }
}

/// Black's score from each opening of `batch` over one game per budget,
/// the games spread over `search.jobs` threads.
fn black_scores(search: &OpenSearch, batch: &[Opening]) -> Vec<f64> {
    let games: Vec<(usize, u64)> = (0..batch.len())
        .flat_map(|k| search.budgets.iter().map(move |&n| (k, n)))
        .collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let tallies = std::sync::Mutex::new(vec![inarow_core::Tally::default(); batch.len()]);
    std::thread::scope(|scope| {
        for _ in 0..search.jobs.max(1) {
            scope.spawn(|| {
                loop {
                    let g = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(&(k, nodes)) = games.get(g) else {
                        break;
                    };
                    let fresh = || {
                        Searcher::new(Options {
                            tt_bytes: 1 << 20,
                            ..Options::default()
                        })
                    };
                    let (mut black, mut white) = (fresh(), fresh());
                    let game = crate::game::play_match_game(
                        &mut black,
                        &mut white,
                        true,
                        &batch[k],
                        search.size,
                        search.rule,
                        Limits::nodes(nodes),
                    );
                    tallies.lock().expect("no thread panicked holding it")[k].add(game.result);
                }
            });
        }
    });
    tallies
        .into_inner()
        .expect("no thread panicked holding it")
        .iter()
        .map(inarow_core::Tally::score)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn open_openings_split_the_points_and_do_not_depend_on_the_jobs() {
        let search = OpenSearch {
            seed: 7,
            count: 2,
            tries: 40,
            stones: (4, 6),
            size: 15,
            rule: Rule::Freestyle,
            budgets: vec![150, 250, 400, 600],
            within: 0.125,
            jobs: 1,
        };
        let one = open_openings(&search);
        assert_eq!(one.openings.len(), 2, "two open openings in 40 candidates");
        assert!(one.tried >= 2 && one.tried <= 40);
        for o in &one.openings {
            assert!((0.375..=0.625).contains(&o.black), "{o:?}");
            assert!((4..=6).contains(&o.opening.len()), "{o:?}");
            assert_eq!(o.opening[0], Point::at(7, 7, 15), "the centre first");
        }
        let two = open_openings(&OpenSearch { jobs: 2, ..search });
        assert_eq!(one, two);
    }

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
