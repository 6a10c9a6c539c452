//! The VCF search against the exhaustive core prover: it solves every
//! suite position, its claimed wins survive every defence, and it misses
//! no short win the prover finds. The prover and the checker judge wins by
//! the core's rule, so each check runs for freestyle and for exact five.

use crate::suite;
use inarow_core::{Game, Mnk};
use inarow_engine::movepick::MoveList;
use inarow_engine::player::board_of;
use inarow_engine::vcf_solver::Vcf;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use suite::{candidates, generate_suite_on, plies_of, proves_vcf, verify_win};

/// A game of `plies` plausible moves on `empty` (each among the six best
/// candidates the engine generates), or `None` if it ended on the way.
fn random_middlegame(
    empty: &Mnk,
    rng: &mut ChaCha8Rng,
    list: &mut MoveList,
    plies: std::ops::Range<usize>,
) -> Option<Mnk> {
    let mut game = empty.clone();
    for _ in 0..rng.random_range(plies) {
        if game.outcome().is_some() {
            return None;
        }
        let mut b = board_of(&game, None).unwrap();
        candidates(&mut b, list);
        if list.is_empty() {
            // Every move loses by force: no middlegame.
            return None;
        }
        let pick = list.get(rng.random_range(0..list.len().min(6)));
        game.play_unchecked(b.point(pick));
    }
    game.outcome().is_none().then_some(game)
}

fn engine_line(game: &Mnk) -> Option<Vec<inarow_core::Point>> {
    let mut b = board_of(game, None).unwrap();
    let before = b.hash();
    let line = Vcf::new(1_000_000).solve(&mut b);
    assert_eq!(
        b.hash(),
        before,
        "the solver leaves the board as it found it"
    );
    line.map(|l| l.into_iter().map(|i| b.point(i)).collect())
}

fn solves_every_suite_position_with_a_sound_line(empty: &Mnk, seed: u64) {
    let suite = generate_suite_on(empty, seed, 24, 4);
    assert_eq!(suite.len(), 24);
    for (k, puzzle) in suite.iter().enumerate() {
        let line = engine_line(&puzzle.game)
            .unwrap_or_else(|| panic!("puzzle {k} unsolved:\n{}", puzzle.game));
        verify_win(&puzzle.game, &line)
            .unwrap_or_else(|e| panic!("puzzle {k}: {e}\n{}", puzzle.game));
    }
}

#[test]
fn freestyle_solves_every_suite_position_with_a_sound_line() {
    solves_every_suite_position_with_a_sound_line(&Mnk::gomoku(), 11);
}

#[test]
fn exact_five_solves_every_suite_position_with_a_sound_line() {
    solves_every_suite_position_with_a_sound_line(&Mnk::gomoku_exact(), 11);
}

fn claims_only_real_wins_and_misses_no_short_one(empty: &Mnk, seed: u64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut list = MoveList::default();
    let (mut claims, mut proofs) = (0, 0);
    for _ in 0..300 {
        let Some(mut game) = random_middlegame(empty, &mut rng, &mut list, 6..50) else {
            continue;
        };
        let claim = engine_line(&game);
        if let Some(line) = &claim {
            claims += 1;
            verify_win(&game, line).unwrap_or_else(|e| panic!("false claim: {e}\n{game}"));
        }
        if proves_vcf(&mut game, 3) {
            proofs += 1;
            assert!(claim.is_some(), "missed a VCF of at most 3 fours:\n{game}");
        }
    }
    // The sample must contain both kinds of position to mean anything.
    assert!(
        claims >= 10 && proofs >= 5,
        "claims {claims}, proofs {proofs}"
    );
}

#[test]
fn freestyle_claims_only_real_wins_and_misses_no_short_one() {
    claims_only_real_wins_and_misses_no_short_one(&Mnk::gomoku(), 12);
}

#[test]
fn exact_five_claims_only_real_wins_and_misses_no_short_one() {
    claims_only_real_wins_and_misses_no_short_one(&Mnk::gomoku_exact(), 12);
}

#[test]
fn the_checker_rejects_a_wrong_line() {
    // Black has an open three on row 7 (x 5..7); a lone stone is no win.
    let mut game = Mnk::gomoku();
    for (x, y) in [(5, 7), (0, 0), (6, 7), (0, 14), (7, 7), (14, 0)] {
        game.play_unchecked(inarow_core::Point::at(x, y, 15));
    }
    let wrong = [inarow_core::Point::at(3, 3, 15)];
    assert!(verify_win(&game, &wrong).is_err());
    let right = engine_line(&game).expect("an open three to move is a VCF");
    verify_win(&game, &right).unwrap();
}

fn the_search_defends_against_a_vcf(empty: &Mnk) {
    use inarow_engine::search::{Limits, Options, Request, Searcher};
    let mut searcher = Searcher::new(Options {
        tt_bytes: 1 << 20,
        ..Options::default()
    });
    let mut defended = 0;
    for puzzle in generate_suite_on(empty, 31, 12, 3) {
        // Give the move to the defender of the puzzle.
        let mut game = puzzle.game.clone();
        let defender = game.to_move().opponent();
        game.set_to_move(defender);
        if proves_vcf(&mut game, 3) {
            continue; // the defender wins first
        }
        let defences: Vec<_> = game
            .empty_points()
            .filter(|&p| {
                game.play_unchecked(p);
                let still = proves_vcf(&mut game, 3);
                game.undo(p);
                !still
            })
            .collect();
        if defences.is_empty() {
            continue;
        }
        let mut b = board_of(&game, None).unwrap();
        b.set_to_move(defender);
        let found = searcher.search(&mut b, &mut Request::new(Limits::depth(2)));
        let m = b.point(found.best);
        assert!(
            defences.contains(&m),
            "{m:?} leaves the VCF; defences {defences:?}\n{game}"
        );
        defended += 1;
    }
    assert!(defended >= 3, "only {defended} defendable positions");
}

#[test]
fn freestyle_search_defends_against_a_vcf() {
    the_search_defends_against_a_vcf(&Mnk::gomoku());
}

#[test]
fn exact_five_search_defends_against_a_vcf() {
    the_search_defends_against_a_vcf(&Mnk::gomoku_exact());
}

/// The leaf search's fours ([`Params::vcf_fours`]) let a one-ply search
/// see wins it could not see without them; each such claim must be a real
/// win: the VCF solver finds one and the core's checker accepts its line.
///
/// [`Params::vcf_fours`]: inarow_engine::search::Params::vcf_fours
fn horizon_wins_are_real(empty: &Mnk, seed: u64) {
    use inarow_engine::score::WIN;
    use inarow_engine::search::{Limits, Options, Params, Request, Searcher};
    // No quick VCF at the root: the tree's leaves must find the wins; and
    // three-threes not counted as won, so that every win is one by fours.
    let one_ply = |vcf_fours| {
        Searcher::new(Options {
            params: Params {
                vcf_fours,
                root_vcf_nodes: 0,
                defend_three_three: 0,
                ..Params::default()
            },
            tt_bytes: 1 << 20,
            ..Options::default()
        })
    };
    let (mut threats, mut plain) = (one_ply(Params::default().vcf_fours), one_ply(0));
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut list = MoveList::default();
    let (mut claims, mut new_sight) = (0, 0);
    for _ in 0..400 {
        let Some(game) = random_middlegame(empty, &mut rng, &mut list, 8..40) else {
            continue;
        };
        let mut b = board_of(&game, None).unwrap();
        threats.clear();
        plain.clear();
        let found = threats.search(&mut b, &mut Request::new(Limits::depth(1)));
        if found.score < WIN / 2 {
            continue;
        }
        claims += 1;
        let line = engine_line(&game)
            .unwrap_or_else(|| panic!("a claimed win the VCF solver cannot find:\n{game}"));
        verify_win(&game, &line).unwrap_or_else(|e| panic!("{e}\n{game}"));
        if plain
            .search(&mut b, &mut Request::new(Limits::depth(1)))
            .score
            < WIN / 2
        {
            new_sight += 1;
        }
    }
    assert!(
        claims >= 10 && new_sight >= 3,
        "claims {claims}, of them unseen without: {new_sight}"
    );
}

#[test]
fn freestyle_horizon_wins_are_real() {
    horizon_wins_are_real(&Mnk::gomoku(), 19);
}

#[test]
fn exact_five_horizon_wins_are_real() {
    horizon_wins_are_real(&Mnk::gomoku_exact(), 19);
}

/// Mate distances are plies to the five (issue 56), as Rapfi announces
/// them: a made open four `+M3`, a double four `+M3`, a four-three `+M5`;
/// from the threat solver's line, from the search's score at the root, and
/// from the tree when the root's proof by fours is off.
#[test]
fn mate_distances_are_plies_to_the_five_as_rapfi_counts_them() {
    use inarow_engine::score::win_in;
    use inarow_engine::search::{Limits, Options, Params, Request, Searcher};
    // Black to move in each (as many stones each side; white's far apart).
    let far = [(0, 0), (0, 14), (14, 0), (14, 14)];
    type Stones = Vec<(usize, usize)>;
    let cases: [(&str, Stones, Stones, usize); 3] = [
        // An open three on row 7: (4,7) or (8,7) makes an open four.
        (
            "a made open four",
            vec![(5, 7), (6, 7), (7, 7)],
            vec![(1, 2)],
            3,
        ),
        // Row 7 closed at (3,7) and column 7 closed at (7,3): (7,7) makes
        // two fours.
        (
            "a double four",
            vec![(4, 7), (5, 7), (6, 7), (7, 4), (7, 5), (7, 6)],
            vec![(3, 7), (7, 3), (1, 2)],
            3,
        ),
        // Row 7 closed at (3,7), column 7 open above: (7,7) makes a four
        // and an open three; the block, the open four, a block, the five.
        (
            "a four-three",
            vec![(4, 7), (5, 7), (6, 7), (7, 8), (7, 9)],
            vec![(3, 7)],
            5,
        ),
    ];
    let tree_only = Params {
        root_vcf_nodes: 0,
        ..Params::default()
    };
    for (what, black, white, plies) in cases {
        let mut game = Mnk::gomoku();
        let mut white = white;
        white.extend_from_slice(&far[..black.len() - white.len()]);
        for (&(bx, by), &(wx, wy)) in black.iter().zip(&white) {
            game.play_unchecked(inarow_core::Point::at(bx, by, 15));
            game.play_unchecked(inarow_core::Point::at(wx, wy, 15));
        }
        let mut b = board_of(&game, None).unwrap();
        let mut solver = Vcf::new(100_000);
        let line = solver
            .solve(&mut b)
            .unwrap_or_else(|| panic!("{what}: no VCF"));
        let line: Vec<_> = line.into_iter().map(|i| b.point(i)).collect();
        assert_eq!(plies_of(&game, &line), plies, "{what}: the line {line:?}");
        assert_eq!(solver.plies(), plies, "{what}: the solver's count");
        for params in [Params::default(), tree_only] {
            let mut searcher = Searcher::new(Options {
                params,
                tt_bytes: 1 << 20,
                ..Options::default()
            });
            let found = searcher.search(&mut b, &mut Request::new(Limits::nodes(20_000)));
            assert_eq!(found.score, win_in(plies), "{what}: {found:?}");
        }
    }
}

/// A VCT solver as the checker's attacker: its first move and distance.
fn vct_attacker(
    threes: usize,
    budget: u64,
) -> impl FnMut(&mut inarow_engine::board::Board, usize) -> Option<(inarow_engine::pos::Pos, usize)>
{
    let mut vct = inarow_engine::vct::Vct::new();
    move |b, plies| {
        vct.solve_within(b, threes, budget, plies)
            .map(|w| (w.first, w.plies))
    }
}

/// The VCT (issue 55) on seeded middlegames: every win it claims holds
/// against every defence within the plies it claims, by the core's
/// brute-force check, and some of them are wins no VCF has (threes in
/// them).
fn vct_claims_only_real_wins(empty: &Mnk, seed: u64) {
    use inarow_engine::vct::Vct;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut list = MoveList::default();
    let mut vct = Vct::new();
    let mut attacker = vct_attacker(3, 20_000);
    let (mut claims, mut by_threes) = (0, 0);
    for _ in 0..300 {
        let Some(mut game) = random_middlegame(empty, &mut rng, &mut list, 8..40) else {
            continue;
        };
        let mut b = board_of(&game, None).unwrap();
        let before = b.hash();
        let Some(win) = vct.solve(&mut b, 3, 20_000) else {
            continue;
        };
        assert_eq!(b.hash(), before, "the solver leaves the board as it was");
        claims += 1;
        if Vcf::new(100_000).solve(&mut b).is_none() {
            by_threes += 1;
        }
        suite::verify_threat_win(&mut game, &mut b, win.plies, &mut attacker)
            .unwrap_or_else(|e| panic!("a false claim {win:?}: {e}"));
    }
    assert!(
        claims >= 20 && by_threes >= 5,
        "claims {claims}, by threes {by_threes}"
    );
}

#[test]
fn freestyle_vct_claims_only_real_wins() {
    vct_claims_only_real_wins(&Mnk::gomoku(), 55);
}

#[test]
fn exact_five_vct_claims_only_real_wins() {
    vct_claims_only_real_wins(&Mnk::gomoku_exact(), 55);
}

/// The root's VCT with its failures remembered across the moves of a game
/// (issue 55, `Vct::probe_root`) on seeded games played move by move:
/// every win it claims holds against every defence, by the core's
/// brute-force check; it skips positions grown from a failure; and on
/// these games no position it skipped has a win that a fresh solver with
/// the same threes and budget finds (skipping where the threat points
/// only shrank hid 8 of 238 here: the rule asks for the same points).
#[test]
fn the_remembered_root_vct_claims_only_real_wins_and_hides_none_here() {
    use inarow_engine::vct::Vct;
    let mut rng = ChaCha8Rng::seed_from_u64(56);
    let mut list = MoveList::default();
    let mut attacker = vct_attacker(3, 20_000);
    let mut vct = Vct::new();
    let (mut claims, mut skipped, mut hidden) = (0, 0, 0);
    for _ in 0..30 {
        let mut game = Mnk::gomoku();
        vct.clear();
        for ply in 0..50 {
            if game.outcome().is_some() {
                break;
            }
            let mut b = board_of(&game, None).unwrap();
            if ply >= 6 {
                let threats = b.four_points(b.to_move()).count() > 0
                    || b.empty_points().any(|i| {
                        b.is_near(i)
                            && b.threat(i, b.to_move()) >= inarow_engine::pattern::Threat::Flex3
                    });
                match vct.probe_root(&mut b, 3, 2_000, true) {
                    Some(win) => {
                        claims += 1;
                        suite::verify_threat_win(&mut game, &mut b, win.plies, &mut attacker)
                            .unwrap_or_else(|e| panic!("a false claim {win:?}: {e}"));
                    }
                    None if vct.nodes() == 0 && threats => {
                        skipped += 1;
                        if Vct::new().solve(&mut b, 3, 2_000).is_some() {
                            hidden += 1;
                        }
                    }
                    None => {}
                }
            }
            candidates(&mut b, &mut list);
            if list.is_empty() {
                break;
            }
            let pick = list.get(rng.random_range(0..list.len().min(4)));
            game.play_unchecked(b.point(pick));
        }
    }
    println!("claims {claims}, skipped {skipped}, hidden {hidden}");
    assert!(
        claims >= 10 && skipped >= 10 && hidden == 0,
        "claims {claims}, skipped {skipped}, hidden {hidden}"
    );
}

#[test]
fn the_threat_checker_refutes_a_slow_or_a_wrong_claim() {
    use inarow_core::Point;
    // Black (to move) has an open three on row 7 (x 5..7): a flex four
    // wins in 3 plies.
    let mut game = Mnk::gomoku();
    for (x, y) in [(5, 7), (0, 0), (6, 7), (0, 14), (7, 7), (14, 0)] {
        game.play_unchecked(Point::at(x, y, 15));
    }
    let mut b = board_of(&game, None).unwrap();
    let mut real = vct_attacker(0, 1_000);
    suite::verify_threat_win(&mut game, &mut b, 3, &mut real).unwrap();
    assert!(suite::verify_threat_win(&mut game, &mut b, 2, &mut real).is_err());
    // A quiet move far away, claimed as a win: refuted.
    let far = b.pos_of(Point::at(12, 12, 15)).unwrap();
    let mut wrong = |_: &mut inarow_engine::board::Board, _| Some((far, 3));
    assert!(suite::verify_threat_win(&mut game, &mut b, 9, &mut wrong).is_err());
}
