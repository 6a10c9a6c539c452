//! The tactical suite judged by Rapfi (`tests/data/tactics.txt`, written by
//! `scripts/tactics-rapfi.sh`): reading its lines into positions. Shared by
//! the `tactics` example (which measures the search on them) and the test
//! that checks the file (`#[path = ".../tests/support/tactics.rs"] mod ...;`).
#![allow(dead_code)]

use inarow_core::{Game, Mnk, Player, Point, Rule};

/// The freestyle suite, beside this crate's manifest.
pub const FREESTYLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/tactics.txt");
/// The exact-five suite.
pub const EXACT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/tactics-exact.txt");

/// One position of the suite, as the file holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The side to move's stones, `(x, y)`.
    pub own: Vec<(usize, usize)>,
    /// The other side's stones.
    pub other: Vec<(usize, usize)>,
    /// The move Rapfi played.
    pub rapfi_move: (usize, usize),
    /// Rapfi's nodes before it first announced the win (median of its runs).
    pub rapfi_nodes: u64,
    /// Those nodes for each run.
    pub runs: Vec<u64>,
    /// Rapfi's first announced win, as it printed it (`M<plies>`).
    pub mate: String,
}

fn xy(s: &str) -> Result<(usize, usize), String> {
    let (x, y) = s
        .split_once(',')
        .ok_or_else(|| format!("`{s}` is not x,y"))?;
    let x = x.trim().parse().map_err(|_| format!("bad x in `{s}`"))?;
    let y = y.trim().parse().map_err(|_| format!("bad y in `{s}`"))?;
    Ok((x, y))
}

/// Reads one data line: `board | move | nodes | runs | mate`.
pub fn parse_line(line: &str) -> Result<Entry, String> {
    let fields: Vec<&str> = line.split(" | ").map(str::trim).collect();
    let [board, mv, nodes, runs, mate] = fields[..] else {
        return Err(format!("{} fields, not 5", fields.len()));
    };
    let (mut own, mut other) = (Vec::new(), Vec::new());
    for stone in board.split_whitespace() {
        let (at, code) = stone
            .rsplit_once(',')
            .ok_or_else(|| format!("`{stone}` is not x,y,c"))?;
        let p = xy(at)?;
        match code {
            "1" => own.push(p),
            "2" => other.push(p),
            _ => return Err(format!("`{stone}`: the stone code is 1 or 2")),
        }
    }
    let runs = runs
        .split_whitespace()
        .map(|n| n.parse().map_err(|_| format!("bad run count `{n}`")))
        .collect::<Result<Vec<u64>, String>>()?;
    Ok(Entry {
        own,
        other,
        rapfi_move: xy(mv)?,
        rapfi_nodes: nodes.parse().map_err(|_| format!("bad nodes `{nodes}`"))?,
        runs,
        mate: mate.to_string(),
    })
}

/// The rule a data file names in its `# rule:` header line.
pub fn rule_of(text: &str) -> Result<Rule, String> {
    let named = text
        .lines()
        .find_map(|l| l.strip_prefix("# rule:"))
        .ok_or("no `# rule:` line")?;
    match named.trim() {
        "freestyle" => Ok(Rule::Freestyle),
        "exact" => Ok(Rule::Exact),
        other => Err(format!("unknown rule `{other}`")),
    }
}

/// Every position of a data file (comment lines start with `#`), with
/// its line number.
pub fn parse_file(text: &str) -> Result<Vec<(usize, Entry)>, String> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(k, l)| {
            parse_line(l)
                .map(|e| (k + 1, e))
                .map_err(|e| format!("line {}: {e}", k + 1))
        })
        .collect()
}

/// True when some line of `game` holds five or more stones of one colour.
pub fn has_five(game: &Mnk) -> bool {
    let n = game.cols() as isize;
    let at = |x: isize, y: isize| {
        ((0..n).contains(&x) && (0..n).contains(&y))
            .then(|| game.stone(Point::at(x as usize, y as usize, n as usize)))
            .flatten()
    };
    for y in 0..n {
        for x in 0..n {
            let Some(c) = at(x, y) else { continue };
            for (dx, dy) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
                if (1..5).all(|k| at(x + k * dx, y + k * dy) == Some(c)) {
                    return true;
                }
            }
        }
    }
    false
}

/// The position of `entry` under `rule` with its side to move: black when
/// both sides have as many stones, white when the other side has one more.
/// Refused: a stone off the board or on a taken point, other counts, a
/// five on the board, a full board.
pub fn game_of(entry: &Entry, rule: Rule) -> Result<Mnk, String> {
    let mut game = match rule {
        Rule::Exact => Mnk::gomoku_exact(),
        _ => Mnk::gomoku(),
    };
    let (own, other) = (entry.own.len(), entry.other.len());
    let me = if own == other {
        Player::X
    } else if own + 1 == other {
        Player::O
    } else {
        return Err(format!(
            "{own} stones to move against {other}: no side can be to move"
        ));
    };
    let n = game.cols();
    for (stones, player) in [(&entry.own, me), (&entry.other, me.opponent())] {
        for &(x, y) in stones {
            if x >= n || y >= n {
                return Err(format!("{x},{y} is off the board"));
            }
            game.place(Point::at(x, y, n), player)
                .map_err(|e| format!("{x},{y}: {e:?}"))?;
        }
    }
    if game.to_move() != me {
        return Err("the side to move is not the one the counts say".into());
    }
    if has_five(&game) {
        return Err("a five on the board".into());
    }
    if game.empty_points().next().is_none() {
        return Err("the board is full".into());
    }
    Ok(game)
}
