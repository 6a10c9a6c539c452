//! Renju in the core: the forbidden-point check against a brute-force
//! definition written from the rule alone, and the rule in play (black on a
//! forbidden point loses, white's overline wins, black's does not).

use crate::support;

use inarow_core::renju::Forbidden;
use inarow_core::{Game, Mnk, Outcome, Player, Point, Rule};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use support::renju_brute::Cells;

/// A seeded position: black crowded near the centre (where its shapes
/// live), white anywhere, no five on the board.
fn random_position(rng: &mut ChaCha8Rng) -> Mnk {
    loop {
        let mut game = Mnk::renju();
        let pairs = rng.random_range(4..24);
        let spread = rng.random_range(2..6);
        let mut placed = 0;
        while placed < 2 * pairs {
            let black = placed % 2 == 0;
            let (r, c) = if black {
                (
                    7 + rng.random_range(0..=2 * spread) - spread,
                    7 + rng.random_range(0..=2 * spread) - spread,
                )
            } else {
                (rng.random_range(0..15), rng.random_range(0..15))
            };
            let p = Point::at(c, r, 15);
            if game.stone(p).is_some() {
                continue;
            }
            let colour = if black { Player::X } else { Player::O };
            // `place` would end the game on a five or a forbidden stone:
            // set the stones up instead, as a position.
            let mut cells: Vec<Option<Player>> = (0..225).map(|i| game.stone(Point(i))).collect();
            cells[p.index()] = Some(colour);
            match game.setup(&cells, Player::X) {
                Ok(next) if next.outcome().is_none() => game = next,
                _ => break,
            }
            placed += 1;
        }
        if placed == 2 * pairs {
            return game;
        }
    }
}

fn cells(game: &Mnk) -> Cells {
    Cells {
        cells: (0..game.points())
            .map(|i| game.stone(Point(i as u16)))
            .collect(),
        rows: game.rows(),
        cols: game.cols(),
    }
}

fn name(why: Forbidden) -> &'static str {
    match why {
        Forbidden::DoubleThree => "double three",
        Forbidden::DoubleFour => "double four",
        Forbidden::Overline => "overline",
    }
}

/// Every empty point of 2,000 seeded positions: the core's check (with
/// its quick bound) says what the brute-force definition says, and the
/// list of forbidden points is the points it marks.
#[test]
fn forbidden_points_agree_with_the_brute_force_definition() {
    let mut rng = ChaCha8Rng::seed_from_u64(37);
    let (mut checked, mut forbidden) = (0, [0usize; 3]);
    for _ in 0..2_000 {
        let game = random_position(&mut rng);
        let mut brute = cells(&game);
        let mut listed = Vec::new();
        for p in game.empty_points() {
            let (r, c) = (p.index() / 15, p.index() % 15);
            let want = brute.forbidden(r as isize, c as isize);
            let got = game.forbidden(p);
            assert_eq!(got.map(name), want, "{game:?} at row {r} column {c}");
            if let Some(why) = got {
                listed.push((p, why));
                forbidden[why as usize] += 1;
            }
            checked += 1;
        }
        assert_eq!(game.forbidden_points(), listed, "{game:?}");
    }
    eprintln!("{checked} points, forbidden {forbidden:?}");
    // The positions reach every kind, often enough to mean something.
    assert!(checked > 300_000, "{checked}");
    assert!(forbidden.iter().all(|&n| n >= 50), "{forbidden:?}");
}

/// Under the other rules nothing is forbidden.
#[test]
fn only_renju_forbids() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    for _ in 0..50 {
        let renju = random_position(&mut rng);
        let cells: Vec<Option<Player>> = (0..225).map(|i| renju.stone(Point(i))).collect();
        for rule in [Rule::Freestyle, Rule::Exact] {
            let other = Mnk::new(15, 15, 5, rule).unwrap();
            if let Ok(game) = other.setup(&cells, Player::X) {
                assert!(game.forbidden_points().is_empty());
            }
        }
    }
}

fn board(rows: &[&str]) -> Mnk {
    let mut text = String::new();
    for r in 0..15 {
        let row = rows.get(r).copied().unwrap_or("");
        text.push_str(&format!("{row:.<15}\n"));
    }
    Mnk::renju().parse(&text, Some(Player::X)).unwrap()
}

#[test]
fn black_on_a_forbidden_point_loses_at_once() {
    // A double three at row 7 column 7.
    let mut game = board(&["", "", "", "", "", ".......X", ".......X", ".....XX"]);
    let p = Point::at(7, 7, 15);
    assert_eq!(game.forbidden(p), Some(Forbidden::DoubleThree));
    assert_eq!(game.forbidden_points(), [(p, Forbidden::DoubleThree)]);
    game.play(p).unwrap();
    assert_eq!(game.outcome(), Some(Outcome::Win(Player::O)));
    // Taken back, the game goes on.
    game.undo(p);
    assert_eq!(game.outcome(), None);
    // White may play there freely.
    game.set_to_move(Player::O);
    game.play(p).unwrap();
    assert_eq!(game.outcome(), None);
}

#[test]
fn overlines_win_for_white_and_lose_for_black() {
    let black = board(&["", "", "", "", "", "", "", "...XXX.XX"]);
    let mut b = black.clone();
    let gap = Point::at(6, 7, 15);
    assert_eq!(b.forbidden(gap), Some(Forbidden::Overline));
    b.play(gap).unwrap();
    assert_eq!(b.outcome(), Some(Outcome::Win(Player::O)));

    let mut w = board(&["", "", "", "", "", "", "", "...OOO.OO"]);
    w.set_to_move(Player::O);
    assert_eq!(w.forbidden(gap), None);
    w.play(gap).unwrap();
    assert_eq!(w.outcome(), Some(Outcome::Win(Player::O)));
}

#[test]
fn a_five_wins_even_where_it_is_also_a_double_four() {
    let mut game = board(&[
        "",
        "",
        "",
        "",
        "........X",
        "........X",
        "........X",
        "....XXXX",
    ]);
    let p = Point::at(8, 7, 15);
    assert_eq!(game.forbidden(p), None);
    game.play(p).unwrap();
    assert_eq!(game.outcome(), Some(Outcome::Win(Player::X)));
}

#[test]
fn renju_is_named_and_played_five_in_a_row() {
    assert_eq!("renju".parse::<Rule>(), Ok(Rule::Renju));
    assert_eq!(Rule::Renju.to_string(), "renju");
    assert_eq!(
        "caro".parse::<Rule>().unwrap_err().to_string(),
        "the rule \"caro\" is not freestyle, exact or renju"
    );
    let e = Mnk::new(15, 15, 4, Rule::Renju).unwrap_err();
    assert_eq!(e.to_string(), "renju is played five in a row, not 4");
    assert!(Mnk::new(20, 20, 5, Rule::Renju).is_ok());
}
