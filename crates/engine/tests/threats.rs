//! The VCF search against the exhaustive core prover: it solves every
//! suite position, its claimed wins survive every defence, and it misses
//! no short win the prover finds. The prover and the checker judge wins by
//! the core's rule, so each check runs for freestyle and for exact five.

use inarow_core::{Game, Mnk, Point};
use inarow_engine::movegen::{MoveList, generate};
use inarow_engine::player::board_of;
#[path = "support/suite.rs"]
mod suite;
use inarow_engine::vcf::Vcf;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use suite::{five_points, generate_suite_on, proves_vcf, verify_win};

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
        let b = board_of(&game, None).unwrap();
        generate(&b, list);
        list.sort();
        let pick = list.get(rng.random_range(0..list.len().min(6)));
        game.play_unchecked(b.point(pick));
    }
    game.outcome().is_none().then_some(game)
}

fn engine_line(game: &Mnk) -> Option<Vec<inarow_core::Point>> {
    let mut b = board_of(game, None).unwrap();
    let before = b.hash();
    let line = Vcf::new(1_000_000, 40).solve(&mut b);
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
    for _ in 0..150 {
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
        game.play_unchecked(inarow_core::Point::at(y, x, 15));
    }
    let wrong = [inarow_core::Point::at(3, 3, 15)];
    assert!(verify_win(&game, &wrong).is_err());
    let right = engine_line(&game).expect("an open three to move is a VCF");
    verify_win(&game, &right).unwrap();
}

fn the_search_defends_against_a_vcf(empty: &Mnk) {
    use inarow_engine::search::{Limits, Options, Searcher};
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
        let found = searcher.search(&mut b, Limits::depth(2));
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

fn vct_claims_survive_every_defence(empty: &Mnk) {
    use inarow_engine::vct::Vct;
    let mut rng = ChaCha8Rng::seed_from_u64(13);
    let mut list = MoveList::default();
    let (mut claims, mut tried, mut countered) = (0, 0, 0);
    while claims < 6 && tried < 400 {
        tried += 1;
        let Some(mut game) = random_middlegame(empty, &mut rng, &mut list, 6..30) else {
            continue;
        };
        let mut b = board_of(&game, None).unwrap();
        let Some(m) = Vct::new(5_000, 2_000).solve(&mut b, 1) else {
            continue;
        };
        claims += 1;
        if claims == 1 {
            // The search plays a VCT it finds when asked to look for one.
            use inarow_engine::search::{Limits, Options, Searcher, VCT_WIN};
            let mut s = Searcher::new(Options {
                algorithm: inarow_engine::search::Algorithm::Classic,
                root_vct: true,
                tt_bytes: 1 << 20,
                ..Options::default()
            });
            let found = s.search(&mut b, Limits::depth(1));
            assert!(found.vcf && found.score == VCT_WIN, "{found:?}");
        }
        // One threat, then every reply (any empty point) must leave a VCF,
        // or be a counter-four that, once blocked, leaves the same again.
        let m = b.point(m);
        assert!(game.stone(m).is_none());
        game.play_unchecked(m);
        if let Err(line) = every_reply_loses(&mut game, 4, &mut countered) {
            panic!("after the threat {m:?} the replies {line:?} hold\n{game}");
        }
    }
    assert!(claims >= 3, "only {claims} VCT claims in {tried} positions");
    // Claims that a counter-four does not refute are the ones a solver
    // giving up at the defender's first four would miss.
    assert!(countered > 0, "no claim met a counter-four");
}

/// Checks by brute force that the defender, to move against the
/// attacker's threats, loses whatever it plays: after any reply the
/// attacker has a VCF, or the reply is a four which the attacker blocks
/// and the same holds again (at most `counters` such fours in a row;
/// `countered` counts them). On failure returns the defender's replies
/// that hold.
fn every_reply_loses(
    game: &mut Mnk,
    counters: usize,
    countered: &mut usize,
) -> Result<(), Vec<Point>> {
    let defender = game.to_move();
    let attacker = defender.opponent();
    for r in game.empty_points().collect::<Vec<_>>() {
        if game.wins_at(r, defender) {
            return Err(vec![r]);
        }
        game.play_unchecked(r);
        let blocks = five_points(game, defender);
        let result = if !five_points(game, attacker).is_empty() {
            Ok(())
        } else if blocks.len() == 1 && counters > 0 {
            game.play_unchecked(blocks[0]);
            if five_points(game, attacker).is_empty() {
                // No four of ours: a solver giving up at the counter-four
                // would miss what follows.
                *countered += 1;
            }
            let after = every_reply_loses(game, counters - 1, countered);
            game.undo(blocks[0]);
            after.map_err(|mut line| {
                line.insert(0, blocks[0]);
                line
            })
        } else if blocks.is_empty() && proves_vcf(game, 8) {
            Ok(())
        } else {
            Err(Vec::new())
        };
        game.undo(r);
        result.map_err(|mut line| {
            line.insert(0, r);
            line
        })?;
    }
    Ok(())
}

#[test]
fn freestyle_vct_claims_survive_every_defence() {
    vct_claims_survive_every_defence(&Mnk::gomoku());
}

#[test]
fn exact_five_vct_claims_survive_every_defence() {
    vct_claims_survive_every_defence(&Mnk::gomoku_exact());
}

#[test]
fn the_search_defends_against_a_vct_when_asked() {
    use inarow_engine::movegen::Mode;
    use inarow_engine::search::{Limits, Options, Searcher};
    use inarow_engine::vct::Vct;
    let mut rng = ChaCha8Rng::seed_from_u64(17);
    let mut list = MoveList::default();
    let searcher = |vct_defence| {
        Searcher::new(Options {
            algorithm: inarow_engine::search::Algorithm::Classic,
            vct_defence,
            tt_bytes: 1 << 20,
            ..Options::default()
        })
    };
    let (mut on, mut off) = (searcher(true), searcher(false));
    // The opponent's VCT after our move, by the solver the defence uses.
    let leaves_vct = |b: &mut inarow_engine::board::Board, m: usize| {
        b.play_unchecked(m);
        let wins = Vct::new(2_000, 300).solve(b, 2).is_some();
        b.undo();
        wins
    };
    let (mut defended, mut tried) = (0, 0);
    while defended < 3 && tried < 5000 {
        tried += 1;
        let Some(game) = random_middlegame(&Mnk::gomoku(), &mut rng, &mut list, 8..30) else {
            continue;
        };
        let mut b = board_of(&game, None).unwrap();
        let me = b.to_move();
        if generate(&b, &mut list) != Mode::Free || Vcf::new(20_000, 40).wins(&mut b) {
            continue;
        }
        b.set_to_move(me.opponent());
        let threatened =
            Vct::new(2_000, 300).solve(&mut b, 2).is_some() && !Vcf::new(20_000, 40).wins(&mut b);
        b.set_to_move(me);
        if !threatened {
            continue;
        }
        if list.iter().all(|m| leaves_vct(&mut b, m)) {
            continue; // no defence to find
        }
        // Only positions where the plain search walks into the VCT count.
        let plain = off.search(&mut b, Limits::depth(1));
        if !leaves_vct(&mut b, plain.best) {
            continue;
        }
        let found = on.search(&mut b, Limits::depth(1));
        assert!(
            !leaves_vct(&mut b, found.best),
            "move {:?} leaves the VCT\n{b:?}",
            b.xy(found.best)
        );
        defended += 1;
    }
    assert!(
        defended >= 2,
        "only {defended} positions in {tried} where the defence mattered"
    );
    println!("{tried} positions, {defended} defended only with the VCT defence");
}

/// The horizon's fours ([`Options::quiet_fours`]) and the four-three rule
/// ([`Options::four_three`]) let a one-ply search see wins it could not
/// see before; each such claim must be a real win: the VCF solver finds
/// one and the core's checker accepts its line.
///
/// [`Options::quiet_fours`]: inarow_engine::search::Options::quiet_fours
/// [`Options::four_three`]: inarow_engine::search::Options::four_three
fn horizon_wins_are_real(empty: &Mnk, seed: u64) {
    use inarow_engine::score::WIN;
    use inarow_engine::search::{Limits, Options, Searcher};
    let one_ply = |quiet_fours, four_three| {
        Searcher::new(Options {
            algorithm: inarow_engine::search::Algorithm::Classic,
            root_vcf: false,
            vcf_defence: false,
            quiet_fours,
            four_three,
            three_ext: false,
            tt_bytes: 1 << 20,
            ..Options::default()
        })
    };
    let (mut threats, mut plain) = (one_ply(8, true), one_ply(0, false));
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
        let found = threats.search(&mut b, Limits::depth(1));
        if found.score < WIN / 2 {
            continue;
        }
        claims += 1;
        let line = engine_line(&game)
            .unwrap_or_else(|| panic!("a claimed win the VCF solver cannot find:\n{game}"));
        verify_win(&game, &line).unwrap_or_else(|e| panic!("{e}\n{game}"));
        if plain.search(&mut b, Limits::depth(1)).score < WIN / 2 {
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
