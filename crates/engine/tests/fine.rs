//! The fine patterns' sums an evaluator keeps move by move against a count
//! from the stones alone, through long random play with take-backs,
//! removals from the middle of the history (the evaluator started again)
//! and passes, under every rule; and a search on a published model's
//! shape of tables.
//!
//! Whether the tables mean what their makers meant is checked against
//! Rapfi itself, outside the tests: `scripts/rapfi-eval-check.sh`.

use inarow_core::{Player, Rule};
use inarow_engine::board::Board;
use inarow_engine::eval::fine::{CODES, MASKS, PointClass};
use inarow_engine::eval::fine_eval::FineEval;
use inarow_engine::eval::fine_tables::{FineTables, SLOTS};
use inarow_engine::eval::{Eval, Evaluator};
use inarow_engine::pos::Pos;
use inarow_engine::search::{Limits, Options, Request, Searcher};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Tables whose every entry differs, so that any code or mask mixed up
/// changes a sum.
fn tables() -> &'static FineTables {
    let mut rng = ChaCha8Rng::seed_from_u64(46);
    let mut table =
        |n: usize| -> Vec<i16> { (0..n).map(|_| rng.random_range(-900..900)).collect() };
    let value: [Vec<i16>; SLOTS] = std::array::from_fn(|_| table(CODES));
    let threat: [Vec<i16>; SLOTS] = std::array::from_fn(|_| table(MASKS));
    let order = std::array::from_fn(|_| (0..CODES).map(|_| [0, 0]).collect());
    Box::leak(Box::new(FineTables {
        scale: 250.0,
        value,
        threat,
        order,
    }))
}

/// An evaluator by `t` in the tables' own units.
fn evaluator(t: &'static FineTables) -> FineEval {
    FineEval::new(t, [1 << 16; 3])
}

/// What an evaluator kept: the sums now and a ply before, and the classes.
fn figures(e: &FineEval) -> ([i32; 2], Vec<i32>) {
    let classes = [Player::X, Player::O]
        .iter()
        .flat_map(|&c| e.point_classes(c).to_vec())
        .collect();
    (e.sums(), classes)
}

/// What the evaluator kept against a count from the stones alone.
fn check_recount(e: &FineEval, b: &Board, what: &str) {
    let (sum, classes) = e.recount(b);
    let kept = figures(e);
    assert_eq!(kept.0[0], sum, "{what}: the point sum");
    assert_eq!(kept.1, classes.concat(), "{what}: the classes");
}

/// The same position taken up by a new evaluator (the last stone
/// followed), for the last ply's sum.
fn fresh(b: &Board, t: &'static FineTables) -> ([i32; 2], Vec<i32>) {
    let mut again = b.clone();
    let mut e = evaluator(t);
    e.start(&mut again);
    figures(&e)
}

#[test]
fn kept_sums_match_a_recount_through_play_take_backs_and_passes() {
    let t = tables();
    for (n, rule) in Rule::ALL.into_iter().enumerate() {
        let mut rng = ChaCha8Rng::seed_from_u64(n as u64);
        let mut b = Board::with_rule(15, rule).unwrap();
        let mut e = evaluator(t);
        e.start(&mut b);
        // Stones the evaluator has followed since it was started: it knows
        // the ply before the position it was started on, no earlier, so a
        // take-back past that starts it again (as a search never goes
        // above its root).
        let mut followed = 0;
        for step in 0..600 {
            let empty: Vec<_> = b.empty_points().collect();
            match rng.random_range(0..10) {
                0..=5 if !empty.is_empty() && b.stones() < 120 => {
                    e.play(&mut b, empty[rng.random_range(0..empty.len())]);
                    followed += 1;
                }
                0..=7 if b.stones() > 0 => {
                    e.undo(&mut b);
                    if followed == 0 {
                        e.start(&mut b);
                    } else {
                        followed -= 1;
                    }
                }
                8 => {
                    // A null move, stones searched after it, and back.
                    e.pass(&mut b);
                    let k = rng.random_range(0..3).min(empty.len());
                    for _ in 0..k {
                        let empty: Vec<_> = b.empty_points().collect();
                        e.play(&mut b, empty[rng.random_range(0..empty.len())]);
                    }
                    check_recount(&e, &b, &format!("{rule:?}, step {step}, after a pass"));
                    let (kept, again) = (figures(&e), fresh(&b, t));
                    assert_eq!(
                        (kept.0[0], kept.1),
                        (again.0[0], again.1),
                        "{rule:?}, step {step}"
                    );
                    if k == 0 {
                        assert_eq!(
                            kept.0[1], kept.0[0],
                            "after a pass, the last ply is this one"
                        );
                    }
                    for _ in 0..k {
                        e.undo(&mut b);
                    }
                    e.unpass(&mut b);
                }
                _ if b.stones() > 3 => {
                    // A stone from the middle of the history (TAKEBACK):
                    // the evaluator takes the position up again.
                    let h = b.history().to_vec();
                    let i = h[rng.random_range(0..h.len())];
                    assert!(b.remove(i));
                    e.start(&mut b);
                    followed = 0;
                }
                _ => {}
            }
            check_recount(&e, &b, &format!("{rule:?}, step {step}"));
            assert_eq!(figures(&e), fresh(&b, t), "{rule:?}, step {step}");
        }
    }
}

#[test]
fn the_last_plys_sum_is_the_one_before_the_last_stone_or_pass() {
    let t = tables();
    let mut b = Board::new(15).unwrap();
    let mut e = evaluator(t);
    e.start(&mut b);
    let [empty, same] = e.sums();
    assert_eq!(empty, same, "an empty board's last ply is itself");
    e.play(&mut b, Pos::at(7, 7));
    let [now, before] = e.sums();
    assert_eq!(before, empty);
    e.pass(&mut b);
    assert_eq!(e.sums(), [now, now]);
    e.unpass(&mut b);
    assert_eq!(e.sums(), [now, empty]);
    // Started on a position, the evaluator knows the ply before its last
    // stone too.
    e.start(&mut b);
    assert_eq!(e.sums(), [now, empty]);
    // Under another rule: the stones played again, the last ply the one
    // before the last stone under that rule.
    b.set_rule(Rule::Renju);
    e.start(&mut b);
    assert_eq!(e.sums()[1], {
        let mut r = Board::with_rule(15, Rule::Renju).unwrap();
        let mut e = evaluator(t);
        e.start(&mut r);
        e.sums()[0]
    });
}

#[test]
fn classes_see_fours_and_threes() {
    let t = tables();
    let mut b = Board::new(15).unwrap();
    // Black: three in a row with both ends open; white far away.
    for (x, y) in [(5, 7), (0, 0), (6, 7), (0, 2), (7, 7), (0, 4)] {
        b.play(Pos::at(x, y)).unwrap();
    }
    let mut e = evaluator(t);
    e.start(&mut b);
    let black = e.point_classes(Player::X);
    // The two ends make open fours.
    assert_eq!(black[PointClass::Flex4 as usize], 2);
    let white = e.point_classes(Player::O);
    assert_eq!(white[PointClass::Flex4 as usize], 0);
    let code = e.code(Pos::at(4, 7), Player::X);
    assert!(usize::from(code) < CODES);
}

#[test]
fn a_search_on_fine_tables_takes_a_five() {
    let t = tables();
    let options = Options {
        eval: Eval::fine(t),
        ..Options::default()
    };
    let mut b = Board::new(15).unwrap();
    for (x, y) in [
        (3, 7),
        (3, 9),
        (4, 7),
        (4, 9),
        (5, 7),
        (5, 9),
        (6, 7),
        (14, 14),
    ] {
        b.play(Pos::at(x, y)).unwrap();
    }
    let before = b.hash();
    // Black to move has four in a row: it wins at (2,7) or (7,7).
    let mut s = Searcher::new(options);
    let found = s.search(&mut b, &mut Request::new(Limits::nodes(20_000)));
    let won = [Pos::at(2, 7), Pos::at(7, 7)];
    assert!(won.contains(&found.best), "{:?}", found.best.xy());
    assert_eq!(b.hash(), before, "the board is as it was");
    let score = Eval::fine(t).score(&mut b);
    assert!(score.abs() < inarow_engine::score::WIN, "{score}");
}
