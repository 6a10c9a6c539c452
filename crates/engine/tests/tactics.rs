//! The tactical suite judged by Rapfi (`tests/data/tactics*.txt`, written by
//! `scripts/tactics-rapfi.sh`, measured by `examples/tactics.rs`): every
//! line parses, and every position is a legal live board of 15x15 with the
//! side to move consistent with the stone counts, Rapfi's move on an empty
//! point and its node counts in order. Cheap: no search.

use inarow_core::{Game, Point, Rule};
use inarow_engine::player::board_of;
use inarow_engine::pos::Pos;
use inarow_engine::search::Params;

use crate::suite;
#[path = "support/tactics.rs"]
mod recorded;
use recorded::{Entry, game_of, parse_file, parse_line, rule_of};

fn check_file(path: &str, rule: Rule, at_least: usize) {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    assert_eq!(rule_of(&text), Ok(rule), "{path}: the `# rule:` header");
    let entries = parse_file(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    assert!(
        entries.len() >= at_least,
        "{path}: {} positions",
        entries.len()
    );
    let mut seen = std::collections::HashSet::new();
    for (line, e) in &entries {
        let game = game_of(e, rule).unwrap_or_else(|err| panic!("{path}:{line}: {err}"));
        assert!(game.outcome().is_none(), "{path}:{line}: the game is over");
        let b = board_of(&game, None).unwrap_or_else(|err| panic!("{path}:{line}: {err:?}"));
        assert_eq!(
            b.to_move(),
            game.to_move(),
            "{path}:{line}: the engine's side to move"
        );
        let (x, y) = e.rapfi_move;
        assert!(
            x < 15 && y < 15,
            "{path}:{line}: Rapfi's move {x},{y} is off the board"
        );
        assert!(
            game.stone(Point::at(x, y, 15)).is_none(),
            "{path}:{line}: Rapfi's move {x},{y} is on a stone"
        );
        assert!(!e.runs.is_empty(), "{path}:{line}: no runs");
        let mut runs = e.runs.clone();
        runs.sort_unstable();
        assert_eq!(
            runs[(runs.len() - 1) / 2],
            e.rapfi_nodes,
            "{path}:{line}: the nodes are the median of the runs"
        );
        assert!(e.mate.starts_with('M'), "{path}:{line}: mate `{}`", e.mate);
        assert!(
            seen.insert(game.hash()),
            "{path}:{line}: a position seen before"
        );
    }
}

#[test]
fn the_freestyle_suite_holds_legal_live_positions() {
    check_file(recorded::FREESTYLE, Rule::Freestyle, 40);
}

#[test]
fn the_exact_five_suite_holds_legal_live_positions() {
    if std::path::Path::new(recorded::EXACT).exists() {
        check_file(recorded::EXACT, Rule::Exact, 20);
    }
}

#[test]
fn a_line_reads_into_its_fields_and_bad_ones_are_refused() {
    let e = parse_line("7,7,1 8,8,2 8,6,1 6,8,2 | 7,5 | 31455 | 31455 30000 32000 | M19").unwrap();
    assert_eq!(
        e,
        Entry {
            own: vec![(7, 7), (8, 6)],
            other: vec![(8, 8), (6, 8)],
            rapfi_move: (7, 5),
            rapfi_nodes: 31455,
            runs: vec![31455, 30000, 32000],
            mate: "M19".into(),
        }
    );
    assert_eq!(
        game_of(&e, Rule::Freestyle).unwrap().to_move(),
        inarow_core::Player::X
    );
    assert!(parse_line("7,7,1 | 7,5 | 1 | 1").is_err(), "four fields");
    assert!(
        parse_line("7,7,3 | 7,5 | 1 | 1 | M3").is_err(),
        "a stone code 3"
    );
    // White to move: the other side has one stone more.
    let white = parse_line("7,7,1 8,8,2 9,9,2 | 7,5 | 1 | 1 | M3").unwrap();
    assert_eq!(
        game_of(&white, Rule::Freestyle).unwrap().to_move(),
        inarow_core::Player::O
    );
    let counts = parse_line("7,7,1 8,8,1 | 7,5 | 1 | 1 | M3").unwrap();
    assert!(
        game_of(&counts, Rule::Freestyle).is_err(),
        "two stones to move against none"
    );
    let taken = parse_line("7,7,1 7,7,2 | 7,5 | 1 | 1 | M3").unwrap();
    assert!(
        game_of(&taken, Rule::Freestyle).is_err(),
        "two stones on one point"
    );
    let five = parse_line(
        "0,0,1 1,0,1 2,0,1 3,0,1 4,0,1 0,5,2 1,5,2 2,5,2 3,5,2 5,5,2 | 7,5 | 1 | 1 | M3",
    )
    .unwrap();
    assert!(
        game_of(&five, Rule::Freestyle).is_err(),
        "a five on the board"
    );
}

/// The search announces the win on every position of the suite that Rapfi
/// settles within `quick` nodes, each within `ratio` times Rapfi's nodes
/// (and at least a floor): the cheap guard of the tactics measure, which
/// `examples/tactics.rs` takes in full.
fn quick_wins_are_announced(path: &str, rule: Rule, quick: u64, params: Params) -> usize {
    quick_wins_are_announced_by(path, rule, quick, params, 1)
}

/// [`quick_wins_are_announced`] by a search of `threads` threads, whose
/// node cap counts every thread's nodes.
fn quick_wins_are_announced_by(
    path: &str,
    rule: Rule,
    quick: u64,
    params: Params,
    threads: usize,
) -> usize {
    use inarow_engine::score::is_decided;
    use inarow_engine::search::{Limits, Options, Request, Searcher};
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut s = Searcher::new(Options {
        params,
        tt_bytes: 1 << 20,
        threads,
        ..Options::default()
    });
    let mut checked = 0;
    for (line, e) in parse_file(&text).unwrap() {
        if e.rapfi_nodes > quick {
            continue;
        }
        let game = game_of(&e, rule).unwrap();
        let cap = (20 * e.rapfi_nodes).max(5_000) * threads as u64;
        let mut announced = false;
        for depth in 1..=30 {
            let mut b = board_of(&game, None).unwrap();
            s.clear();
            let f = s.search(&mut b, &mut Request::new(Limits::depth(depth)));
            if is_decided(f.score) && f.score > 0 {
                announced = true;
                break;
            }
            if f.nodes > cap {
                break;
            }
        }
        assert!(announced, "{path}:{line}: no win within {cap} nodes");
        checked += 1;
    }
    checked
}

#[test]
fn the_search_announces_the_quick_wins_of_the_freestyle_suite() {
    let defaults = Params::default();
    assert!(quick_wins_are_announced(recorded::FREESTYLE, Rule::Freestyle, 1_000, defaults) >= 30);
}

#[test]
fn a_search_on_two_threads_announces_the_same_quick_wins() {
    // Lazy SMP (issue 55): the helpers share the table; the main search's
    // answer must still be the win on every position the one thread wins.
    let defaults = Params::default();
    let one = quick_wins_are_announced(recorded::FREESTYLE, Rule::Freestyle, 1_000, defaults);
    let two = quick_wins_are_announced_by(recorded::FREESTYLE, Rule::Freestyle, 1_000, defaults, 2);
    assert_eq!(one, two);
}

#[test]
fn the_search_with_singular_extensions_announces_the_quick_wins() {
    // From three plies up: the singular searches run at nearly every node.
    let singular = Params {
        se_depth: 3,
        ..Params::default()
    };
    assert!(quick_wins_are_announced(recorded::FREESTYLE, Rule::Freestyle, 1_000, singular) >= 30);
}

#[test]
fn the_search_announces_the_quick_wins_of_the_exact_five_suite() {
    if std::path::Path::new(recorded::EXACT).exists() {
        assert!(
            quick_wins_are_announced(recorded::EXACT, Rule::Exact, 1_000, Params::default()) >= 30
        );
    }
}

#[test]
fn the_search_with_rapfis_shallow_node_rules_announces_the_quick_wins() {
    // Shallow defences left to the leaf search, defences pruned by count,
    // and a four's block a net extension: the wins still come.
    let shallow = Params {
        three_leaf_depth: 260,
        lmp_defence: 100,
        block_cost: -50,
        ..Params::default()
    };
    assert!(quick_wins_are_announced(recorded::FREESTYLE, Rule::Freestyle, 1_000, shallow) >= 30);
}

#[test]
fn the_shallow_node_rules_change_the_tree_where_threes_are_answered() {
    use inarow_engine::board::Board;
    use inarow_engine::search::{Limits, Options, Request, Searcher};
    // A middlegame where both sides make open threes at will.
    let mut b = Board::new(15).unwrap();
    for (x, y) in [
        (7, 7),
        (8, 8),
        (7, 8),
        (8, 7),
        (6, 6),
        (9, 9),
        (6, 8),
        (9, 6),
    ] {
        b.play(Pos::at(x, y)).unwrap();
    }
    let nodes = |params: Params| {
        let options = Options {
            params,
            ..Options::default()
        };
        let limits = Limits {
            time: None,
            depth: 7,
            nodes: u64::MAX,
        };
        Searcher::new(options)
            .search(&mut b.clone(), &mut Request::new(limits))
            .nodes
    };
    for changes in [
        &[("three_leaf_depth", 260)][..],
        &[("lmp_defence", 100)],
        &[("block_cost", -50)],
    ] {
        let (on, off) = on_and_off(changes);
        assert_ne!(nodes(on), nodes(off), "{changes:?}");
    }
}

/// The default with `changes` made, and the default with the same
/// settings doing something else: their default values, or 0 where the
/// default already has the value (a rule that became a default is still
/// seen to act).
fn on_and_off(changes: &[(&str, i32)]) -> (Params, Params) {
    let (mut on, mut off) = (Params::default(), Params::default());
    for &(name, value) in changes {
        on.set(name, value).unwrap();
        if off.get(name) == Some(value) {
            off.set(name, 0).unwrap();
        }
    }
    (on, off)
}

/// Rapfi's reductions and pruning rules (issue 46, item 3), each alone
/// changed from the default (reverse futility, on by default at every depth
/// on the refined estimate, back to shallow nodes on the static score).
fn rapfis_reductions() -> Vec<Vec<(&'static str, i32)>> {
    vec![
        vec![("rfp_estimate", 0), ("rfp_depth", 5)],
        vec![("lmr_cut_killer", 1)],
        vec![("lmr_tt_pv", 100)],
        vec![("lmr_far_four", 100)],
        vec![("lmr_attack", 100)],
        vec![("raised_reduction", 100)],
        vec![("iir_stale", 2)],
    ]
}

#[test]
fn the_search_with_rapfis_reductions_announces_the_quick_wins() {
    for changes in rapfis_reductions() {
        let params = on_and_off(&changes).0;
        assert!(
            quick_wins_are_announced(recorded::FREESTYLE, Rule::Freestyle, 1_000, params) >= 30,
            "{params:?}"
        );
    }
    // The singular extension with its double extension and multi-cut.
    let singular = Params {
        se_depth: 3,
        se_double: 60,
        se_multicut: 1,
        ..Params::default()
    };
    assert!(quick_wins_are_announced(recorded::FREESTYLE, Rule::Freestyle, 1_000, singular) >= 30);
}

/// The nodes of depth-9 searches of the first `count` recorded
/// middlegames under `params`, each from an empty table.
fn middlegame_nodes(params: Params, count: usize) -> u64 {
    use inarow_engine::search::{Limits, Options, Request, Searcher};
    let games = suite::recorded_middlegames(5, count, 14);
    let options = Options {
        params,
        ..Options::default()
    };
    let mut searcher = Searcher::new(options);
    games
        .iter()
        .map(|game| {
            let mut b = inarow_engine::player::board_of(game, None).expect("a live board");
            searcher.clear();
            searcher
                .search(&mut b, &mut Request::new(Limits::depth(9)))
                .nodes
        })
        .sum()
}

#[test]
fn each_of_rapfis_reductions_changes_the_tree() {
    let nodes = |params: Params| middlegame_nodes(params, 12);
    for changes in rapfis_reductions() {
        let (on, off) = on_and_off(&changes);
        assert_ne!(nodes(on), nodes(off), "{changes:?}");
    }
    let singular = Params {
        se_depth: 3,
        se_double: 0,
        se_multicut: 0,
        ..Params::default()
    };
    let alone = nodes(singular);
    for changed in [
        Params {
            se_double: 60,
            ..singular
        },
        Params {
            se_multicut: 1,
            ..singular
        },
    ] {
        assert_ne!(nodes(changed), alone, "{changed:?}");
    }
}

/// The rules of issue 55 toward Rapfi's growth per ply, each alone: our
/// own threats pruned by the move count at free nodes, and plain fours
/// played only in the leaf line's first two.
fn depth_rules() -> Vec<Vec<(&'static str, i32)>> {
    vec![vec![("lmp_forcing", 100)], vec![("vcf_plain", 2)]]
}

#[test]
fn the_search_with_the_depth_rules_announces_the_quick_wins() {
    // Each alone, and threats and defences both pruned by the move count.
    let both = Params {
        lmp_forcing: 100,
        lmp_defence: 100,
        ..Params::default()
    };
    let each = depth_rules().into_iter().map(|c| on_and_off(&c).0);
    for params in each.chain([both]) {
        assert!(
            quick_wins_are_announced(recorded::FREESTYLE, Rule::Freestyle, 1_000, params) >= 30,
            "{params:?}"
        );
    }
}

#[test]
fn each_depth_rule_changes_the_tree() {
    for changes in depth_rules() {
        let (on, off) = on_and_off(&changes);
        assert_ne!(
            middlegame_nodes(on, 6),
            middlegame_nodes(off, 6),
            "{changes:?}"
        );
    }
}

/// Rapfi's last search rules (issue 55), each alone at Rapfi's value:
/// pruning at nodes that answer a threat, trivial moves and distractions
/// pruned, a deeper re-search after a reduced one, the table move's
/// extension, and more reduction where the root cannot gain and for far
/// defences; and Rapfi's move count and reductions read exactly (moves
/// numbered from one, pruned at principal-variation nodes too, a node
/// with any depth left, a defence reduced by the node's kind).
fn rapfis_last_rules() -> Vec<Vec<(&'static str, i32)>> {
    vec![
        vec![("threat_prune", 1)],
        vec![("trivial_depth", 430)],
        vec![("lmr_deeper", 34)],
        vec![("tt_extension", 25)],
        vec![("lmr_no_alpha", 98)],
        vec![("lmr_useless_defence", 193)],
        vec![("lmp_pv", 1)],
        vec![("lmp_counted", 1)],
        vec![("horizon", 1)],
        vec![("lmr_defence_all", 1)],
        vec![("lmr_counted", 1)],
        vec![("iir_pv", 32)],
        vec![("iir_pv_stale", 28)],
    ]
}

#[test]
fn the_search_with_rapfis_last_rules_announces_the_quick_wins() {
    for changes in rapfis_last_rules() {
        let params = on_and_off(&changes).0;
        assert!(
            quick_wins_are_announced(recorded::FREESTYLE, Rule::Freestyle, 1_000, params) >= 30,
            "{params:?}"
        );
    }
}

#[test]
fn each_of_rapfis_last_rules_changes_the_tree() {
    for changes in rapfis_last_rules() {
        let (mut on, mut off) = on_and_off(&changes);
        if changes[0].0 == "lmr_no_alpha" {
            // On these middlegames the default's reductions already reach
            // their floor where the rule applies (the tree measure still
            // sees it: 14,956,273 nodes with it, 14,477,904 without); with
            // SPSA's history divisor they do not.
            on.lmr_history = 736;
            off.lmr_history = 736;
        }
        assert_ne!(
            middlegame_nodes(on, 6),
            middlegame_nodes(off, 6),
            "{changes:?}"
        );
    }
}

/// Mate distances on the recorded suite (issue 56): every win the search
/// announces before any tree (the root's proof by fours) is its line's
/// plies to the five, counted by the rules on the core's board, and on
/// Rapfi's `+M5` positions (a four-three to make, or a four and then one)
/// it is Rapfi's 5 wherever the solver's first line is the shortest. The
/// solver stops at its first line, not the shortest: on the rest it
/// announces a longer win than Rapfi's, rightly counted (the count below).
#[test]
fn the_root_proofs_distances_are_their_lines_plies_to_the_five() {
    use inarow_engine::score::WIN;
    use inarow_engine::search::{Limits, Options, PV_LIMIT, Request, Searcher};
    let text = std::fs::read_to_string(recorded::FREESTYLE).unwrap();
    let mut s = Searcher::new(Options {
        tt_bytes: 1 << 20,
        ..Options::default()
    });
    let (mut proofs, mut fives, mut longer) = (0, 0, 0);
    for (line, e) in parse_file(&text).unwrap() {
        let game = game_of(&e, Rule::Freestyle).unwrap();
        let mut b = board_of(&game, None).unwrap();
        s.clear();
        // The root's proof comes before any tree: one ply of tree is enough.
        let f = s.search(&mut b, &mut Request::new(Limits::depth(1)));
        if !(f.vcf && f.depth == 0) || f.pv.len() >= PV_LIMIT {
            continue;
        }
        proofs += 1;
        let pv: Vec<Point> = f.pv.iter().map(|&i| b.point(i)).collect();
        let plies = (WIN - f.score) as usize;
        assert_eq!(suite::plies_of(&game, &pv), plies, "line {line}: {pv:?}");
        if e.mate == "M5" {
            if plies == 5 {
                fives += 1;
            } else {
                longer += 1;
            }
        }
    }
    assert!(proofs >= 30, "{proofs} proofs at the root");
    assert_eq!((fives, longer), (16, 3), "Rapfi's +M5 positions");
}

/// The VCT (issue 55) on the recorded suite: the wins it finds, each
/// checked by brute force on the core against every defence within the
/// plies it claims (`suite::verify_threat_win`), and its distances beside
/// Rapfi's announced ones; the root's probe that remembers its failures
/// finds each of them too. The counts are this build's: a change of the
/// solver that finds fewer, or a longer win where it was as short as
/// Rapfi's, shows here.
#[test]
fn the_vct_finds_the_recorded_wins_and_every_one_holds() {
    use inarow_engine::vct::Vct;
    let text = std::fs::read_to_string(recorded::FREESTYLE).unwrap();
    let (threes, budget) = (4, 50_000);
    let mut vct = Vct::new();
    let mut remembering = Vct::new();
    let mut checker = Vct::new();
    let mut attacker = |b: &mut inarow_engine::board::Board, plies| {
        checker
            .solve_within(b, threes, budget, plies)
            .map(|w| (w.first, w.plies))
    };
    let (mut found, mut as_short) = (0, 0);
    let entries = parse_file(&text).unwrap();
    for (line, e) in &entries {
        let mut game = game_of(e, Rule::Freestyle).unwrap();
        let mut b = board_of(&game, None).unwrap();
        vct.clear();
        let solved = vct.solve(&mut b, threes, budget);
        // The root's probe, its failures remembered from every position
        // before (never cleared): none of them is this one or grown from
        // it, so it is probed afresh and finds the same.
        let probed = remembering.probe_root(&mut b, threes, budget, true);
        assert_eq!(
            probed, solved,
            "line {line}: a failure elsewhere hid nothing"
        );
        let Some(win) = solved else {
            continue;
        };
        found += 1;
        let rapfi: usize = e.mate[1..].parse().unwrap();
        as_short += usize::from(win.plies <= rapfi);
        suite::verify_threat_win(&mut game, &mut b, win.plies, &mut attacker)
            .unwrap_or_else(|err| panic!("line {line}: {win:?}: {err}"));
    }
    assert_eq!((found, as_short), (72, 35), "of {}", entries.len());
}

#[test]
fn the_search_with_the_vct_announces_the_quick_wins() {
    // At the root alone, and at the nodes of the first three plies too.
    for vct in [1, 3] {
        let params = Params {
            vct,
            vct_root_nodes: 2_000,
            ..Params::default()
        };
        assert!(
            quick_wins_are_announced(recorded::FREESTYLE, Rule::Freestyle, 1_000, params) >= 30,
            "vct={vct}"
        );
    }
}
