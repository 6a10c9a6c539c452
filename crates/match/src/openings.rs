//! The openings a match is played from: read from a file, or generated from
//! a seed (random shapes near the centre, or the most balanced of a few by
//! a short search).

use inarow_core::{Game, Mnk, Outcome, Player, Point, Rule};
use inarow_engine::player::board_of;
use inarow_engine::search::{Limits, Options, Request, Searcher};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// An opening: stones in move order (black first).
pub type Opening = Vec<Point>;

/// How an openings file writes its stones.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OpeningsFormat {
    /// `x,y` points from 0,0 at the top left, separated by spaces
    /// (`7,7 8,6 6,8`): the files `inarow selfplay openings` writes.
    #[default]
    Points,
    /// c-gomoku-cli's `type=offset`, Gomocup's openings: `x,y` offsets
    /// from the centre (`size / 2` on each axis, rounded down: 7,7 on
    /// 15x15, 10,10 on 20x20), the stones separated by a comma and a space
    /// (`0,0, 1,-1, -1,1`).
    Offset,
}

/// The lines of a text file that say something, numbered from 0: each
/// without its `#` comment and surrounding blanks, empty ones left out
/// (openings and positions files alike).
pub(crate) fn content_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines().enumerate().filter_map(|(n, line)| {
        let line = line.split('#').next().unwrap_or("").trim();
        (!line.is_empty()).then_some((n, line))
    })
}

/// Reads openings, one a line, in `format`; `#` starts a comment; blank
/// lines are skipped. Every opening must be playable on a `size` board
/// under `rule` and leave a game to play: its points on the board, none
/// twice, and no five (nor a full board) before its end. The error is one
/// line naming the line and what was wrong.
pub fn parse_openings(
    text: &str,
    size: usize,
    rule: Rule,
    format: OpeningsFormat,
) -> Result<Vec<Opening>, OpeningsError> {
    let empty = Mnk::new(size, size, 5, rule)?;
    let mut out = Vec::new();
    for (n, line) in content_lines(text) {
        let stones = match format {
            OpeningsFormat::Points => points_of(line, size),
            OpeningsFormat::Offset => offsets_of(line, size),
        }
        .map_err(LineError::Unread);
        let at = |why| OpeningsError::Line { line: n, why };
        let stones = stones.map_err(at)?;
        let mut game = empty.clone();
        let mut opening = Opening::with_capacity(stones.len());
        for (k, (point, named)) in stones.iter().enumerate() {
            let named = || named.clone();
            if opening.contains(point) {
                return Err(at(LineError::Twice { named: named() }));
            }
            if let Some(over) = game.outcome() {
                return Err(at(LineError::TooMany {
                    after: k,
                    of: stones.len(),
                    over,
                    named: named(),
                }));
            }
            game.play(*point).map_err(|error| {
                at(LineError::Refused {
                    named: named(),
                    error,
                })
            })?;
            opening.push(*point);
        }
        if let Some(over) = game.outcome() {
            return Err(at(LineError::Ends { over }));
        }
        out.push(opening);
    }
    if out.is_empty() {
        return Err(OpeningsError::Empty);
    }
    Ok(out)
}

/// Why an openings file cannot be read: one line naming the line and what
/// was wrong.
#[derive(Debug, thiserror::Error)]
pub enum OpeningsError {
    /// The board cannot be had.
    #[error(transparent)]
    Board(#[from] inarow_core::ParseError),
    /// A line (from 0) is no opening to play.
    #[error("line {}: {why}", .line + 1)]
    Line {
        /// The line, from 0.
        line: usize,
        /// What is wrong with it.
        why: LineError,
    },
    /// The file holds no opening.
    #[error("no openings in it")]
    Empty,
}

/// What is wrong with a line of an openings file.
#[derive(Debug, thiserror::Error)]
pub enum LineError {
    /// Its stones cannot be read in the file's format.
    #[error("{0}")]
    Unread(String),
    /// A stone named twice.
    #[error("{named} appears twice")]
    Twice {
        /// The stone as the line names it.
        named: String,
    },
    /// A stone after the game is over.
    #[error(
        "too many stones: the game is over after stone {after} of {of} ({}), so {named} cannot be played",
        why_over(*.over)
    )]
    TooMany {
        /// The stones played.
        after: usize,
        /// The stones of the line.
        of: usize,
        /// How the game ended.
        over: Outcome,
        /// The stone as the line names it.
        named: String,
    },
    /// A stone the board refuses.
    #[error("{named}: {error}")]
    Refused {
        /// The stone as the line names it.
        named: String,
        /// Why.
        error: inarow_core::PlayError,
    },
    /// The opening leaves no move to play.
    #[error("the opening ends the game ({}): it must leave a move to play", why_over(*.over))]
    Ends {
        /// How the game ended.
        over: Outcome,
    },
}

/// Why a game is over, in words.
fn why_over(over: Outcome) -> &'static str {
    match over {
        Outcome::Win(Player::X) => "black has won",
        Outcome::Win(Player::O) => "white has won",
        Outcome::Draw => "the board is full",
    }
}

/// The stones of a line of `x,y` points, each with its name for errors.
fn points_of(line: &str, size: usize) -> Result<Vec<(Point, String)>, String> {
    line.split_whitespace()
        .map(|field| {
            let (x, y) = field
                .split_once(',')
                .and_then(|(x, y)| Some((x.parse::<usize>().ok()?, y.parse::<usize>().ok()?)))
                .ok_or_else(|| {
                    // A Gomocup file read as points fails here: say so.
                    let hint = if field.ends_with(',') || field.contains('-') {
                        " (offsets from the centre? give --openings-format offset)"
                    } else {
                        ""
                    };
                    format!("expected x,y points, got {field:?}{hint}")
                })?;
            let point = Point::from_xy(x, y, size)
                .ok_or_else(|| format!("point {x},{y} is off the {size}x{size} board"))?;
            Ok((point, format!("point {x},{y}")))
        })
        .collect()
}

/// The stones of a line of `x,y` offsets from the centre, each with its
/// name for errors. As c-gomoku-cli reads them, commas and spaces both
/// separate the numbers, which pair up in order; unlike it, a number that
/// is not whole, one left without its pair, or a stone off the board is
/// an error rather than skipped.
fn offsets_of(line: &str, size: usize) -> Result<Vec<(Point, String)>, String> {
    let numbers = line
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|t| !t.is_empty())
        .map(|t| {
            t.parse::<i64>().map_err(|_| {
                format!("expected x,y offsets from the centre separated by \", \", got {t:?}")
            })
        })
        .collect::<Result<Vec<i64>, String>>()?;
    if numbers.len() % 2 == 1 {
        return Err(format!(
            "{} numbers, an odd count: the last, {}, is an x without its y",
            numbers.len(),
            numbers[numbers.len() - 1]
        ));
    }
    let centre = (size / 2) as i64;
    numbers
        .chunks(2)
        .map(|dxy| {
            let (dx, dy) = (dxy[0], dxy[1]);
            let point = usize::try_from(centre + dx)
                .ok()
                .zip(usize::try_from(centre + dy).ok())
                .and_then(|(x, y)| Some((x, y, Point::from_xy(x, y, size)?)));
            match point {
                Some((x, y, point)) => Ok((point, format!("offset {dx},{dy} (point {x},{y})"))),
                None => Err(format!(
                    "offset {dx},{dy} is off the {size}x{size} board (its centre is {centre},{centre})"
                )),
            }
        })
        .collect()
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
        let p = Point::at(x, y, size);
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
                    let score = searcher
                        .search(&mut b, &mut Request::new(limits))
                        .score
                        .abs();
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

    /// Openings as `(x, y)` points on a `size` board.
    fn xys(openings: &[Opening], size: usize) -> Vec<Vec<(usize, usize)>> {
        openings
            .iter()
            .map(|o| o.iter().map(|p| (p.col(size), p.row(size))).collect())
            .collect()
    }

    fn points(text: &str) -> Result<Vec<Opening>, String> {
        parse_openings(text, 15, Rule::Freestyle, OpeningsFormat::Points).map_err(|e| e.to_string())
    }

    fn offsets(text: &str, size: usize) -> Result<Vec<Opening>, String> {
        parse_openings(text, size, Rule::Freestyle, OpeningsFormat::Offset)
            .map_err(|e| e.to_string())
    }

    #[test]
    fn a_bad_line_is_named_by_its_variant() {
        let read = |text| parse_openings(text, 15, Rule::Freestyle, OpeningsFormat::Points);
        assert!(matches!(read(""), Err(OpeningsError::Empty)));
        assert!(matches!(
            read("7,7\n7,7 8,8 7,7"),
            Err(OpeningsError::Line {
                line: 1,
                why: LineError::Twice { .. }
            })
        ));
        assert!(matches!(
            read("7,7 15,0"),
            Err(OpeningsError::Line {
                line: 0,
                why: LineError::Unread(_)
            })
        ));
    }

    #[test]
    fn openings_parse_or_explain() {
        let ops = points("# comment\n7,7 8,8 6,8\n\n7,7 7,8\n").unwrap();
        assert_eq!(
            xys(&ops, 15),
            vec![vec![(7, 7), (8, 8), (6, 8)], vec![(7, 7), (7, 8)]]
        );
        let off = points("7,7 15,0").unwrap_err();
        assert_eq!(off, "line 1: point 15,0 is off the 15x15 board");
        let twice = points("7,7\n7,7 8,8 7,7").unwrap_err();
        assert_eq!(twice, "line 2: point 7,7 appears twice");
        let garbage = points("7;7").unwrap_err();
        assert_eq!(garbage, "line 1: expected x,y points, got \"7;7\"");
        assert!(points("7,7 8,x").unwrap_err().contains("got \"8,x\""));
        // A Gomocup file read as points is told where to look.
        let gomocup = points("0,0, 1,-1").unwrap_err();
        assert!(gomocup.contains("--openings-format offset"), "{gomocup}");
        assert_eq!(points("").unwrap_err(), "no openings in it");
        assert_eq!(
            points("# only a comment\n\n").unwrap_err(),
            "no openings in it"
        );
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

    #[test]
    fn offsets_are_from_the_centre_as_c_gomoku_cli_reads_them() {
        // c-gomoku-cli's examples, a comment, and a layout of spaces alone
        // (it takes commas and spaces alike).
        let text = "0,0, 1,-1, -1,1\n-1,0, 0,0, 1,1 # a comment\n\n-1,0 0,0  1,1\n";
        let ops = offsets(text, 15).unwrap();
        assert_eq!(
            xys(&ops, 15),
            vec![
                vec![(7, 7), (8, 6), (6, 8)],
                vec![(6, 7), (7, 7), (8, 8)],
                vec![(6, 7), (7, 7), (8, 8)],
            ]
        );
        // The same openings as points.
        assert_eq!(
            ops,
            points("7,7 8,6 6,8\n6,7 7,7 8,8\n6,7 7,7 8,8").unwrap()
        );
        // The centre is half the side rounded down: 10,10 on Gomocup's
        // 20x20, 8,8 on 16x16.
        let corner = |text, size| xys(&offsets(text, size).unwrap(), size);
        assert_eq!(corner("0,0, -10,9", 20), vec![vec![(10, 10), (0, 19)]]);
        assert_eq!(corner("0,0, 7,-8", 16), vec![vec![(8, 8), (15, 0)]]);
        assert_eq!(corner("0,0, -7,7", 15), vec![vec![(7, 7), (0, 14)]]);
    }

    /// A black five down the first column from the top left (points), its
    /// ninth stone the fifth black one, then one more stone.
    const FIVE_AND_ONE: &str = "0,0 1,0 0,1 1,1 0,2 1,2 0,3 1,3 0,4 5,5";

    #[test]
    fn hostile_lines_are_one_line_errors_in_either_format() {
        let error = |text, size| offsets(text, size).unwrap_err();
        assert_eq!(
            error("0,0, 8,-3", 15),
            "line 1: offset 8,-3 is off the 15x15 board (its centre is 7,7)"
        );
        assert_eq!(
            error("# c\n0,0, -8,0", 15),
            "line 2: offset -8,0 is off the 15x15 board (its centre is 7,7)"
        );
        assert!(
            error("0,0, 8,0", 16).contains("offset 8,0 is off the 16x16 board (its centre is 8,8)")
        );
        assert_eq!(
            error("0,0, 1,1, 0,0", 15),
            "line 1: offset 0,0 (point 7,7) appears twice"
        );
        for (text, got) in [
            ("0,0, 1,x", "x"),
            ("0,0; 1,1", "0;"),
            ("0.5,0", "0.5"),
            ("0,0, 99999999999999999999,0", "99999999999999999999"),
            ("(0,0)", "(0"),
        ] {
            assert_eq!(
                error(text, 15),
                format!(
                    "line 1: expected x,y offsets from the centre separated by \", \", got {got:?}"
                ),
                "{text}"
            );
        }
        assert_eq!(
            error("0,0, 1", 15),
            "line 1: 3 numbers, an odd count: the last, 1, is an x without its y"
        );
        assert_eq!(error("", 15), "no openings in it");
        // Too many stones: a five before the opening's end, or at it.
        let offset_five: String = FIVE_AND_ONE
            .split(' ')
            .map(|xy| {
                let (x, y) = xy.split_once(',').unwrap();
                let (x, y): (i64, i64) = (x.parse().unwrap(), y.parse().unwrap());
                format!("{},{}", x - 7, y - 7)
            })
            .collect::<Vec<_>>()
            .join(", ");
        assert_eq!(
            error(&offset_five, 15),
            "line 1: too many stones: the game is over after stone 9 of 10 (black has won), so offset -2,-2 (point 5,5) cannot be played"
        );
        assert_eq!(
            points(FIVE_AND_ONE).unwrap_err(),
            "line 1: too many stones: the game is over after stone 9 of 10 (black has won), so point 5,5 cannot be played"
        );
        let five = FIVE_AND_ONE.rsplit_once(' ').unwrap().0;
        assert_eq!(
            points(&format!("7,7\n{five}")).unwrap_err(),
            "line 2: the opening ends the game (black has won): it must leave a move to play"
        );
        // Four of them are an opening.
        assert_eq!(
            points(FIVE_AND_ONE.rsplitn(3, ' ').nth(2).unwrap()).unwrap()[0].len(),
            8
        );
    }
}
