//! Renju in the engine: the board's forbidden points are the core's, black
//! never plays one (in refereed games and where one would win under exact
//! five), white need not defend a threat that only a forbidden point makes
//! real, and white wins by forcing black onto one.

use inarow_core::{Game, Mnk, Player, Point, Rule};
use inarow_engine::movepick::{Answer, answer};
use inarow_engine::pos::Pos;
use inarow_engine::score::DECIDED;
use inarow_engine::search::{Limits, Request};
use inarow_engine::vcf_solver::Vcf;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::suite;
use suite::{Side, board, board_under, game, play_refereed, searcher, three_near_the_centre};

/// Seeded positions with black crowded near the centre, no five on them.
fn random_positions(seed: u64, count: usize) -> Vec<Mnk> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let mut cells: Vec<Option<Player>> = vec![None; 225];
        let pairs = rng.random_range(4..24);
        let spread = rng.random_range(2..6);
        for k in 0..2 * pairs {
            let (r, c) = if k % 2 == 0 {
                (
                    7 + rng.random_range(0..=2 * spread) - spread,
                    7 + rng.random_range(0..=2 * spread) - spread,
                )
            } else {
                (rng.random_range(0..15), rng.random_range(0..15))
            };
            if cells[r * 15 + c].is_none() {
                cells[r * 15 + c] = Some([Player::X, Player::O][k % 2]);
            }
        }
        if let Ok(game) = Mnk::renju().setup(&cells, Player::X)
            && game.outcome().is_none()
        {
            out.push(game);
        }
    }
    out
}

/// The board's quick bound before the full check leaves out no forbidden
/// point: its answers are the core's on every empty point.
#[test]
fn the_boards_forbidden_points_are_the_cores() {
    let mut forbidden = 0;
    for game in random_positions(37, 600) {
        let b = board_under(&game, Rule::Renju);
        for p in game.empty_points() {
            let i = b.pos_of(p).unwrap();
            assert_eq!(b.forbidden(i), game.forbidden(p), "{game:?} at {p:?}");
            forbidden += usize::from(game.forbidden(p).is_some());
        }
        // White has none, and the other rules none.
        let exact = board_under(&game, Rule::Exact);
        for p in game.empty_points() {
            let i = b.pos_of(p).unwrap();
            assert!(!b.is_forbidden_to(i, Player::O));
            assert_eq!(exact.forbidden(i), None);
        }
    }
    assert!(forbidden > 500, "{forbidden}");
}

// Black's double four at (7,7): fours down column 7 and along row 7, the
// ends closed by white so that each line is a four, not a straight one.
const DOUBLE_FOUR_BLACK: [(usize, usize); 6] = [(7, 4), (7, 5), (7, 6), (4, 7), (5, 7), (6, 7)];
const DOUBLE_FOUR_WHITE: [(usize, usize); 6] = [(7, 3), (3, 7), (7, 9), (9, 7), (0, 14), (14, 14)];

#[test]
fn black_never_plays_a_double_four_that_would_win_under_exact_five() {
    let mut exact = board(
        Rule::Exact,
        &DOUBLE_FOUR_BLACK,
        &DOUBLE_FOUR_WHITE,
        Player::X,
    );
    let found = searcher().search(&mut exact, &mut Request::new(Limits::nodes(20_000)));
    assert_eq!(found.best.xy(), (7, 7));
    assert!(found.score > DECIDED);

    let mut renju = board(
        Rule::Renju,
        &DOUBLE_FOUR_BLACK,
        &DOUBLE_FOUR_WHITE,
        Player::X,
    );
    let i = Pos::at(7, 7);
    assert!(renju.is_forbidden_to(i, Player::X));
    let found = searcher().search(&mut renju, &mut Request::new(Limits::nodes(20_000)));
    assert_ne!(found.best.xy(), (7, 7), "{found:?}");
    assert_ne!(
        Vcf::new(100_000).solve(&mut renju).map(|l| l[0].xy()),
        Some((7, 7))
    );
    // It finds another way to win (a three on the anti-diagonal with its
    // fours): played out against the engine and refereed by the core, the
    // win is real.
    assert!(found.score > DECIDED, "{found:?}");
    let start = game(
        Rule::Renju,
        &DOUBLE_FOUR_BLACK,
        &DOUBLE_FOUR_WHITE,
        Player::X,
    );
    let mut sides = [Side::new(Rule::Renju), Side::new(Rule::Renju)];
    let end = play_refereed(
        start,
        &mut sides,
        Limits::nodes(20_000),
        |game, b, found| {
            assert_eq!(game.forbidden(b.point(found.best)), None, "{game}");
        },
    );
    assert_eq!(
        end.outcome(),
        Some(inarow_core::Outcome::Win(Player::X)),
        "{end}"
    );
}

#[test]
fn white_need_not_stop_a_flex_four_only_a_forbidden_point_makes() {
    let exact = board(
        Rule::Exact,
        &DOUBLE_FOUR_BLACK,
        &DOUBLE_FOUR_WHITE,
        Player::O,
    );
    assert_eq!(answer(&exact, true), Answer::Three);
    let renju = board(
        Rule::Renju,
        &DOUBLE_FOUR_BLACK,
        &DOUBLE_FOUR_WHITE,
        Player::O,
    );
    assert_eq!(answer(&renju, true), Answer::Free);
}

/// Black's double three at (7,7) (down column 7 and along row 7); white's
/// three on the diagonal through it, closed on both sides by black at
/// (6,6) and (12,12): white's four at (11,11) leaves black one block, on
/// the forbidden point.
const TRAP_BLACK: [(usize, usize); 6] = [(7, 5), (7, 6), (5, 7), (6, 7), (6, 6), (12, 12)];
const TRAP_WHITE: [(usize, usize); 4] = [(8, 8), (9, 9), (10, 10), (0, 14)];

#[test]
fn white_wins_by_forcing_black_onto_a_forbidden_point() {
    let mut renju = board(Rule::Renju, &TRAP_BLACK, &TRAP_WHITE, Player::O);
    assert!(renju.is_forbidden_to(Pos::at(7, 7), Player::X));
    let line = Vcf::new(100_000)
        .solve(&mut renju)
        .expect("a win by the trap");
    assert_eq!(line[0].xy(), (11, 11));
    let found = searcher().search(&mut renju, &mut Request::new(Limits::nodes(20_000)));
    assert_eq!(found.best.xy(), (11, 11));
    assert!(found.score > DECIDED, "{found:?}");
    // Black to move after the four: no move saves it.
    renju.play(Pos::at(11, 11)).unwrap();
    let found = searcher().search(&mut renju, &mut Request::new(Limits::nodes(20_000)));
    assert!(found.score < -DECIDED, "{found:?}");
    assert_ne!(found.best.xy(), (7, 7));

    // Under freestyle the same four is simply blocked.
    let mut free = board(Rule::Freestyle, &TRAP_BLACK, &TRAP_WHITE, Player::O);
    assert_eq!(Vcf::new(100_000).solve(&mut free), None);
}

/// Whole refereed renju games, both sides the engine: black never plays a
/// forbidden point, though it often has some.
#[test]
fn black_never_plays_a_forbidden_point_in_refereed_games() {
    let limits = Limits::nodes(1_500);
    let (mut chances, mut black_moves) = (0, 0);
    for k in 0..24u64 {
        let mut sides = [Side::new(Rule::Renju), Side::new(Rule::Renju)];
        let mut start = Mnk::renju();
        for p in three_near_the_centre(70 + k) {
            start.play_unchecked(p);
        }
        let end = play_refereed(start, &mut sides, limits, |game, b, found| {
            if game.to_move() != Player::X {
                return;
            }
            black_moves += 1;
            chances += usize::from(!game.forbidden_points().is_empty());
            let p: Point = b.point(found.best);
            assert_eq!(
                game.forbidden(p),
                None,
                "black chose a forbidden point\n{game}"
            );
        });
        assert!(end.outcome().is_some());
    }
    assert!(
        chances >= 20,
        "{chances} of {black_moves} black moves had a forbidden point"
    );
}

/// Black to move with one empty point left, forbidden to it: the search
/// still answers with that point (it loses) rather than with none.
#[test]
fn black_left_only_a_forbidden_point_plays_it() {
    // Pairs of each colour, shifted every row: nobody has more than two in
    // a row. Row 0 starts `XXX.XXO`: the gap makes six, an overline.
    let mut cells: Vec<Option<Player>> = (0..225)
        .map(|i| {
            let (x, y) = (i % 15, i / 15);
            Some(if (x / 2 + y) % 2 == 0 {
                Player::X
            } else {
                Player::O
            })
        })
        .collect();
    for (x, stone) in [
        Some(Player::X),
        Some(Player::X),
        Some(Player::X),
        None,
        Some(Player::X),
        Some(Player::X),
        Some(Player::O),
    ]
    .into_iter()
    .enumerate()
    {
        cells[x] = stone;
    }
    let game = Mnk::renju().setup(&cells, Player::X).unwrap();
    assert!(game.outcome().is_none(), "{game}");
    let gap = Point::at(3, 0, 15);
    assert_eq!(game.empty_points().collect::<Vec<_>>(), [gap]);
    assert_eq!(
        game.forbidden(gap),
        Some(inarow_core::renju::Forbidden::Overline)
    );
    let mut b = board_under(&game, Rule::Renju);
    let found = searcher().search(&mut b, &mut Request::new(Limits::nodes(2_000)));
    assert_eq!(b.point(found.best), gap, "{found:?}");
}
