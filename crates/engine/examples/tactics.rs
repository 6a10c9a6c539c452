//! Tactics by nodes (issue: the search rebuilt for selectivity, "How it is
//! verified", item 2): on positions where Rapfi announced a forced win for
//! the side to move in each of three runs (`tests/data/tactics.txt`, built
//! by `scripts/tactics-rapfi.sh`), the nodes the search needs before it
//! announces the win, beside the nodes Rapfi needed.
//!
//! For each position the search runs to depth 1, 2, ... from an empty table
//! each time (`Searcher::clear`) until its score is a decided win, or until
//! one depth's search passes the node cap (default 1,000,000). The nodes of
//! a position are those of the first search that announced the win. Every
//! winning line that is a VCF (each attack a four, ending in a five or a
//! double four) is replayed against every defence by the brute-force
//! checker of `tests/support/suite.rs`.
//!
//! `cargo run --release -p inarow-engine --example tactics [-- CAP [FILE]]`
//! (`OPTIONS=...` measures other settings, as `inarow selfplay --a` takes
//! them; FILE defaults to the freestyle suite, `tests/data/tactics-exact.txt`
//! is the exact-five one). `-- --candidates SEED PER_SIZE` prints the
//! candidate positions the script asks Rapfi about instead; `-- --vct
//! [THREES [BUDGET [FILE]]]` runs the VCT solver alone on each position
//! (issue 55), its nodes and distances beside Rapfi's.

use inarow_core::{Game, Mnk, Point};
use inarow_engine::board::Board;
use inarow_engine::pattern::Threat;
use inarow_engine::player::board_of;
use inarow_engine::score::is_decided;
use inarow_engine::search::{Found, Limits, Options, Request, Searcher};

#[path = "../tests/support/suite.rs"]
mod suite;
#[path = "../tests/support/tactics.rs"]
mod tactics;
use suite::{five_points, gomocup_board, median, middlegames, verify_win};

/// Rapfi's nodes from which a position counts as hard (its win is not
/// seen within the first few depths).
const HARD: u64 = 1_000;
/// The deepest iteration tried.
const DEEPEST: u32 = 64;
/// Stone counts of the candidate positions.
const SIZES: std::ops::RangeInclusive<usize> = 15..=30;

/// What the search said about one position.
#[derive(Clone, Debug)]
struct Verdict {
    /// Nodes of the first search that announced the win (`None`: not within the cap).
    nodes: Option<u64>,
    /// The depth of that search (or the last one tried).
    depth: u32,
    /// Its result.
    found: Found,
}

/// Searches depth 1, 2, ... from an empty table until a decided win or a
/// search of more than `cap` nodes.
fn announce(searcher: &mut Searcher, game: &Mnk, cap: u64) -> (Verdict, Board) {
    let mut d = 1;
    loop {
        let mut b = board_of(game, None).expect("a live board");
        searcher.clear();
        let found = searcher.search(&mut b, &mut Request::new(Limits::depth(d)));
        let won = is_decided(found.score) && found.score > 0;
        // A search that stops short of its depth without a win (a forced
        // reply, a proven loss) says the same at every greater depth.
        if won || found.nodes > cap || found.depth < d || d >= DEEPEST {
            let nodes = (won && found.nodes <= cap).then_some(found.nodes);
            return (
                Verdict {
                    nodes,
                    depth: d,
                    found,
                },
                b,
            );
        }
        d += 1;
    }
}

/// How a claimed winning line was checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Line {
    /// A VCF, sound against every defence.
    Sound,
    /// A VCF the checker refutes.
    Unsound,
    /// Not a complete VCF (threes in it, or cut short): not replayed.
    Other,
}

/// True when `line` (attacker first, alternating) is a complete VCF: every
/// attack a five or a four the next move blocks, the last a five or a
/// double four.
fn is_vcf(game: &Mnk, line: &[Point]) -> bool {
    let mut g = game.clone();
    let me = g.to_move();
    for (k, &p) in line.iter().enumerate() {
        if g.stone(p).is_some() {
            return false;
        }
        if k % 2 == 1 {
            g.play_unchecked(p);
            continue;
        }
        if g.wins_at(p, me) {
            return true;
        }
        g.play_unchecked(p);
        let fours = five_points(&g, me).len();
        match (fours, line.get(k + 1)) {
            (0, _) => return false,
            (n, None) => return n >= 2,
            (_, Some(_)) => {}
        }
    }
    false
}

fn check_line(game: &Mnk, line: &[Point]) -> Line {
    if !is_vcf(game, line) {
        Line::Other
    } else if verify_win(game, line).is_ok() {
        Line::Sound
    } else {
        Line::Unsound
    }
}

/// inarow's nodes over Rapfi's; an unsolved position counts as the cap
/// over Rapfi's (a lower bound of its ratio).
fn ratio(nodes: Option<u64>, rapfi: u64, cap: u64) -> f64 {
    nodes.unwrap_or(cap) as f64 / rapfi.max(1) as f64
}

/// Candidate positions for the script: seeded middlegames of each stone
/// count in [`SIZES`], without a five or open four to play for the side
/// to move or a five point for the other side.
fn candidates(seed: u64, per_size: usize) -> Vec<Mnk> {
    let mut out = Vec::new();
    for stones in SIZES {
        for game in middlegames(seed * 1000 + stones as u64, per_size, stones) {
            let me = game.to_move();
            let b = board_of(&game, None).expect("a live board");
            let trivial = !five_points(&game, me).is_empty()
                || !five_points(&game, me.opponent()).is_empty()
                || b.threat_count(me, Threat::Flex4) > 0;
            if !trivial {
                out.push(game);
            }
        }
    }
    out
}

/// The VCT solver alone on every position of the suite at `path`, with
/// `threes` threes and `budget` nodes: the wins it proves, their nodes
/// beside Rapfi's and their distances beside Rapfi's announced ones.
fn vct_alone(path: &str, threes: usize, budget: u64) {
    use inarow_engine::vct::Vct;
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let rule = tactics::rule_of(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    let entries = tactics::parse_file(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    println!(
        "position: VCT nodes | Rapfi nodes | ratio | plies | Rapfi's (the VCT alone, {threes} threes, {budget} nodes)"
    );
    let (mut found, mut hard_found, mut hard, mut shorter, mut longer) = (0, 0, 0, 0, 0);
    let (mut hard_ratios, mut plies, mut rapfi_plies) = (Vec::new(), Vec::new(), Vec::new());
    for (k, (_, e)) in entries.iter().enumerate() {
        let game = tactics::game_of(e, rule).expect("a position");
        let mut b = board_of(&game, None).expect("a live board");
        let mut vct = Vct::new();
        let win = vct.solve(&mut b, threes, budget);
        let is_hard = e.rapfi_nodes >= HARD;
        hard += is_hard as usize;
        let rapfi: usize = e.mate[1..].parse().expect("M<plies>");
        let Some(w) = win else {
            println!(
                "{k:3}: none ({} nodes) | {} | | | {rapfi}",
                vct.nodes(),
                e.rapfi_nodes
            );
            if is_hard {
                hard_ratios.push(ratio(None, e.rapfi_nodes, budget));
            }
            continue;
        };
        found += 1;
        let r = ratio(Some(vct.nodes()), e.rapfi_nodes, budget);
        if is_hard {
            hard_found += 1;
            hard_ratios.push(r);
        }
        plies.push(w.plies as f64);
        rapfi_plies.push(rapfi as f64);
        shorter += usize::from(w.plies <= rapfi);
        longer += usize::from(w.plies > rapfi);
        println!(
            "{k:3}: {} | {} | {r:.2} | {} | {rapfi}",
            vct.nodes(),
            e.rapfi_nodes,
            w.plies
        );
    }
    println!(
        "proved {found} of {}; of the {hard} hard ones {hard_found}, median ratio to Rapfi's nodes {:.2} (unproved as {budget}/Rapfi's)",
        entries.len(),
        median(hard_ratios)
    );
    println!(
        "distances: median {:.1} plies where Rapfi's is {:.1} on the same; as short as Rapfi's or shorter {shorter}, longer {longer}",
        median(plies),
        median(rapfi_plies)
    );
}

fn xy(p: Point) -> String {
    format!("{},{}", p.col(15), p.row(15))
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().is_some_and(|a| a == "--candidates") {
        let seed = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(26);
        let per = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(16);
        for g in candidates(seed, per) {
            println!("{}", gomocup_board(&g));
        }
        return;
    }
    if args.first().is_some_and(|a| a == "--vct") {
        let threes = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(4);
        let budget = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(100_000);
        let path = args
            .get(3)
            .cloned()
            .unwrap_or_else(|| tactics::FREESTYLE.into());
        vct_alone(&path, threes, budget);
        return;
    }
    let cap: u64 = args
        .first()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1_000_000);
    let path = args
        .get(1)
        .cloned()
        .unwrap_or_else(|| tactics::FREESTYLE.into());
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let rule = tactics::rule_of(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    let entries = tactics::parse_file(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    let options: Options = std::env::var("OPTIONS")
        .unwrap_or_default()
        .parse()
        .expect("OPTIONS: settings as `inarow selfplay --a` takes them");
    let mut searcher = Searcher::new(options);

    println!(
        "{path}: {} positions, {rule:?}, node cap {cap}",
        entries.len()
    );
    println!("position: inarow nodes (depth) | Rapfi nodes | ratio | first move | line");
    let (mut ratios, mut solved_ratios, mut unsolved) = (Vec::new(), Vec::new(), Vec::new());
    let (mut hard_ratios, mut hard_solved) = (Vec::new(), 0);
    let (mut agree, mut lost_claims) = (0, 0);
    let mut lines = [0usize; 3];
    let started = std::time::Instant::now();
    for (k, (line_no, entry)) in entries.iter().enumerate() {
        let game = tactics::game_of(entry, rule).unwrap_or_else(|e| panic!("line {line_no}: {e}"));
        let (v, b) = announce(&mut searcher, &game, cap);
        let r = ratio(v.nodes, entry.rapfi_nodes, cap);
        ratios.push(r);
        let hard = entry.rapfi_nodes >= HARD;
        if hard {
            hard_ratios.push(r);
            hard_solved += v.nodes.is_some() as usize;
        }
        let rapfi_move = Point::at(entry.rapfi_move.0, entry.rapfi_move.1, 15);
        let ours = b.point(v.found.best);
        let Some(nodes) = v.nodes else {
            let said = if is_decided(v.found.score) && v.found.score < 0 {
                lost_claims += 1;
                "claims a LOSS"
            } else if is_decided(v.found.score) {
                "a win only past the cap"
            } else {
                "no win"
            };
            println!(
                "{k:3}: unsolved, {said} (depth {}, {} nodes, score {}) | {} | >{r:.1}",
                v.depth, v.found.nodes, v.found.score, entry.rapfi_nodes
            );
            unsolved.push(k);
            continue;
        };
        solved_ratios.push(r);
        let same = ours == rapfi_move;
        agree += same as usize;
        let pv: Vec<Point> = v.found.pv.iter().map(|&i| b.point(i)).collect();
        let checked = check_line(&game, &pv);
        lines[checked as usize] += 1;
        println!(
            "{k:3}: {nodes} ({}{}) | {} | {r:.2} | {} | {}",
            v.depth,
            if v.found.vcf { ", threat search" } else { "" },
            entry.rapfi_nodes,
            if same {
                format!("{} as Rapfi", xy(ours))
            } else {
                format!("{} (Rapfi {})", xy(ours), xy(rapfi_move))
            },
            match checked {
                Line::Sound => "VCF, sound",
                Line::Unsound => "VCF, REFUTED by the checker",
                Line::Other => "not a VCF, not replayed",
            }
        );
    }
    let solved = solved_ratios.len();
    println!(
        "solved {solved} of {} within {cap} nodes ({:.0} s); the first move agrees with Rapfi's in {agree} of {solved}",
        entries.len(),
        started.elapsed().as_secs_f64()
    );
    println!(
        "median ratio inarow/Rapfi nodes: {:.2} over all (an unsolved position counted as {cap}/Rapfi's nodes), {:.2} over the solved",
        median(ratios),
        median(solved_ratios)
    );
    println!(
        "the {} positions where Rapfi needed at least {HARD} nodes: {hard_solved} solved, median ratio {:.2} (unsolved as above)",
        hard_ratios.len(),
        median(hard_ratios)
    );
    println!(
        "winning lines: {} VCFs sound, {} VCFs refuted, {} not VCFs (not replayed); {lost_claims} positions scored as lost",
        lines[Line::Sound as usize],
        lines[Line::Unsound as usize],
        lines[Line::Other as usize]
    );
    if !unsolved.is_empty() {
        println!("unsolved: {unsolved:?}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use inarow_core::Player;

    #[test]
    fn the_median_of_an_even_count_is_the_mean_of_the_middle_two() {
        assert_eq!(median(vec![5.0, 1.0, 3.0]), 3.0);
        assert_eq!(median(vec![4.0, 1.0, 3.0, 2.0]), 2.5);
        assert!(median(Vec::new()).is_nan());
    }

    #[test]
    fn an_unsolved_position_counts_as_the_cap_over_rapfis_nodes() {
        assert_eq!(ratio(Some(3_000), 1_000, 1_000_000), 3.0);
        assert_eq!(ratio(None, 1_000, 1_000_000), 1_000.0);
        assert_eq!(ratio(Some(10), 0, 100), 10.0, "no division by zero");
    }

    fn at(x: usize, y: usize) -> Point {
        Point::at(x, y, 15)
    }

    #[test]
    fn a_line_of_fours_ending_in_five_is_a_vcf_and_sound() {
        // Black to move with 3,7 4,7 5,7 and nothing of white's near:
        // 6,7 is an open four, so 6,7 then (say) 2,7 then 7,7 wins.
        let mut g = Mnk::gomoku();
        for (x, y, p) in [(3, 7, Player::X), (4, 7, Player::X), (5, 7, Player::X)] {
            g.place(at(x, y), p).unwrap();
        }
        for (x, y) in [(0, 0), (14, 14), (0, 14)] {
            g.place(at(x, y), Player::O).unwrap();
        }
        assert_eq!(g.to_move(), Player::X);
        let line = [at(6, 7), at(2, 7), at(7, 7)];
        assert!(is_vcf(&g, &line));
        assert_eq!(check_line(&g, &line), Line::Sound);
        // Cut short after a single four: not complete, not replayed.
        assert_eq!(check_line(&g, &[at(6, 7), at(2, 7)]), Line::Other);
        // The open four alone ends the line: a double five point.
        assert_eq!(check_line(&g, &[at(6, 7)]), Line::Sound);
        // A quiet first move is no VCF.
        assert!(!is_vcf(&g, &[at(9, 9), at(2, 7), at(6, 7)]));
    }
}
