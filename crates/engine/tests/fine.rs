//! The fine patterns' sums kept move by move against a board that counts
//! them afresh, through long random play with take-backs, removals from
//! the middle of the history and passes, under every rule; and a search
//! on a published model's shape of tables.
//!
//! Whether the tables mean what their makers meant is checked against
//! Rapfi itself, outside the tests: `scripts/rapfi-eval-check.sh`.

use inarow_core::{Player, Rule};
use inarow_engine::board::Board;
use inarow_engine::eval::{Eval, Evaluator};
use inarow_engine::fine::{CODES, MASKS, PointClass};
use inarow_engine::fine_tables::{FineTables, SLOTS};
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

/// What a board kept, and the same position counted afresh.
fn figures(b: &Board) -> ([i32; 2], Vec<i32>) {
    let classes = [Player::X, Player::O]
        .iter()
        .flat_map(|&c| b.point_classes(c).expect("kept").to_vec())
        .collect();
    (b.fine_sums().expect("kept"), classes)
}

/// What the board kept against a count from the stones alone.
fn check_recount(b: &Board, what: &str) {
    let (sum, classes) = b.recount_fine().expect("kept");
    let kept = figures(b);
    assert_eq!(kept.0[0], sum, "{what}: the point sum");
    assert_eq!(kept.1, classes.concat(), "{what}: the classes");
}

/// The same position on a board given the tables afresh (its stones
/// played again), for the last ply's sum.
fn fresh(b: &Board, t: &'static FineTables) -> ([i32; 2], Vec<i32>) {
    let mut again = b.clone();
    again.set_fine(None);
    again.set_fine(Some(t));
    figures(&again)
}

#[test]
fn kept_sums_match_a_recount_through_play_take_backs_and_passes() {
    let t = tables();
    for (n, rule) in Rule::ALL.into_iter().enumerate() {
        let mut rng = ChaCha8Rng::seed_from_u64(n as u64);
        let mut b = Board::with_rule(15, rule).unwrap();
        b.set_fine(Some(t));
        for step in 0..600 {
            let empty: Vec<_> = b.empty_points().collect();
            match rng.random_range(0..10) {
                0..=5 if !empty.is_empty() && b.stones() < 120 => {
                    b.play_unchecked(empty[rng.random_range(0..empty.len())]);
                }
                0..=7 if b.stones() > 0 => b.undo(),
                8 => {
                    // A null move, stones searched after it, and back.
                    b.pass();
                    let k = rng.random_range(0..3).min(empty.len());
                    for _ in 0..k {
                        let empty: Vec<_> = b.empty_points().collect();
                        b.play_unchecked(empty[rng.random_range(0..empty.len())]);
                    }
                    check_recount(&b, &format!("{rule:?}, step {step}, after a pass"));
                    let (kept, again) = (figures(&b), fresh(&b, t));
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
                        b.undo();
                    }
                    b.unpass();
                }
                _ if b.stones() > 3 => {
                    // A stone from the middle of the history (TAKEBACK).
                    let h = b.history().to_vec();
                    let i = h[rng.random_range(0..h.len())];
                    assert!(b.remove(i));
                }
                _ => {}
            }
            check_recount(&b, &format!("{rule:?}, step {step}"));
            assert_eq!(figures(&b), fresh(&b, t), "{rule:?}, step {step}");
        }
    }
}

#[test]
fn the_last_plys_sum_is_the_one_before_the_last_stone_or_pass() {
    let t = tables();
    let mut b = Board::new(15).unwrap();
    b.set_fine(Some(t));
    let [empty, same] = b.fine_sums().unwrap();
    assert_eq!(empty, same, "an empty board's last ply is itself");
    b.play(7, 7).unwrap();
    let [now, before] = b.fine_sums().unwrap();
    assert_eq!(before, empty);
    b.pass();
    assert_eq!(b.fine_sums().unwrap(), [now, now]);
    b.unpass();
    assert_eq!(b.fine_sums().unwrap(), [now, empty]);
    // Changing the rule keeps the tables and plays the stones again.
    b.set_rule(Rule::Renju);
    assert!(b.fine_tables().is_some_and(|k| std::ptr::eq(k, t)));
    assert_eq!(b.fine_sums().unwrap()[1], {
        let mut e = Board::with_rule(15, Rule::Renju).unwrap();
        e.set_fine(Some(t));
        e.fine_sums().unwrap()[0]
    });
}

#[test]
fn classes_see_fours_and_threes() {
    let t = tables();
    let mut b = Board::new(15).unwrap();
    b.set_fine(Some(t));
    // Black: three in a row with both ends open; white far away.
    for (x, y) in [(5, 7), (0, 0), (6, 7), (0, 2), (7, 7), (0, 4)] {
        b.play(x, y).unwrap();
    }
    let black = b.point_classes(Player::X).unwrap();
    // The two ends make open fours.
    assert_eq!(black[PointClass::Flex4 as usize], 2);
    let white = b.point_classes(Player::O).unwrap();
    assert_eq!(white[PointClass::Flex4 as usize], 0);
    let code = b.fine_code(Pos::at(4, 7), Player::X).unwrap();
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
        b.play(x, y).unwrap();
    }
    // Black to move has four in a row: it wins at (2,7) or (7,7).
    let mut s = Searcher::new(options);
    let found = s.search(&mut b, &mut Request::new(Limits::nodes(20_000)));
    let won = [Pos::at(2, 7), Pos::at(7, 7)];
    assert!(won.contains(&found.best), "{:?}", found.best.xy());
    assert!(
        b.fine_tables().is_some(),
        "the searcher gave the board its tables"
    );
    let score = Eval::fine(t).evaluate(&b);
    assert!(score.abs() < inarow_engine::score::WIN, "{score}");
}
