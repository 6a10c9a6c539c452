//! One property suite, written once against the `Game` trait and run for
//! every game: tic-tac-toe (both implementations), gomoku (freestyle,
//! exact five and renju) and a few other m,n,k boards.

use crate::support;

use inarow_core::{Game, Mnk, Outcome, Player, Point, Rule, Symmetry, TicTacToe, count_stones};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use support::renju_brute::Cells;

/// Plays random moves from the start, up to `max` of them or the end.
fn random_game<G: Game>(start: &G, rng: &mut ChaCha8Rng, max: usize) -> (G, Vec<Point>) {
    let mut game = start.clone();
    let mut moves = Vec::new();
    while moves.len() < max {
        let legal: Vec<Point> = game.moves().collect();
        if legal.is_empty() {
            break;
        }
        let m = legal[rng.random_range(0..legal.len())];
        game.play(m).expect("a legal move plays");
        moves.push(m);
    }
    (game, moves)
}

fn cells<G: Game>(game: &G) -> Vec<Option<Player>> {
    (0..game.points())
        .map(|i| game.stone(Point(i as u16)))
        .collect()
}

/// The brute-force judge: scans every line of the board for a run that wins.
fn brute_force_winners(
    cells: &[Option<Player>],
    rows: usize,
    cols: usize,
    k: usize,
    rule: Rule,
) -> Vec<Player> {
    let mut winners = Vec::new();
    let at = |r: isize, c: isize| {
        (r >= 0 && c >= 0 && r < rows as isize && c < cols as isize)
            .then(|| cells[r as usize * cols + c as usize])?
    };
    for r in 0..rows as isize {
        for c in 0..cols as isize {
            let Some(p) = at(r, c) else { continue };
            for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
                // Only measure runs from their first stone.
                if at(r - dr, c - dc) == Some(p) {
                    continue;
                }
                let mut len = 0;
                while at(r + len * dr, c + len * dc) == Some(p) {
                    len += 1;
                }
                if rule.wins(p, len as usize, k) && !winners.contains(&p) {
                    winners.push(p);
                }
            }
        }
    }
    winners
}

/// Under renju, whether black's stone on `point` of `cells` is forbidden
/// by the brute-force definition (never under the other rules).
fn brute_forbidden(
    cells: &[Option<Player>],
    rows: usize,
    cols: usize,
    rule: Rule,
    point: usize,
) -> bool {
    let mut board = Cells {
        cells: cells.to_vec(),
        rows,
        cols,
    };
    rule == Rule::Renju
        && board
            .forbidden((point / cols) as isize, (point % cols) as isize)
            .is_some()
}

/// The property suite for one game.
fn check_game<G: Game>(start: &G, rule: Rule, seed: u64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let max = rng.random_range(0..=start.points());
    let (game, moves) = random_game(start, &mut rng, max);

    // Legal moves are exactly the empty points while the game goes on.
    let empty: Vec<Point> = (0..game.points() as u16)
        .map(Point)
        .filter(|&p| game.stone(p).is_none())
        .collect();
    let legal: Vec<Point> = game.moves().collect();
    assert_eq!(game.empty_points().collect::<Vec<_>>(), empty);
    if game.is_over() {
        assert!(legal.is_empty());
    } else {
        assert_eq!(legal, empty);
    }
    // A move wins now exactly when playing it wins.
    for &m in &legal {
        let mut child = game.clone();
        child.play_unchecked(m);
        assert_eq!(
            game.wins_now(m),
            child.outcome() == Some(Outcome::Win(game.to_move()))
        );
    }
    let counts = count_stones(&game);
    assert_eq!(counts[0] + counts[1], game.stones());
    assert_eq!(
        counts[0],
        counts[1] + (game.to_move() == Player::O) as usize
    );

    // The outcome agrees with the brute-force checker.
    let winners = brute_force_winners(&cells(&game), game.rows(), game.cols(), game.k(), rule);
    // Black's last stone on a forbidden point lost the game.
    let mut before = start.clone();
    for &m in moves.iter().rev().skip(1).rev() {
        before.play_unchecked(m);
    }
    let lost_by_forbidden = moves.last().is_some_and(|&m| {
        before.to_move() == Player::X
            && brute_forbidden(&cells(&before), game.rows(), game.cols(), rule, m.index())
    });
    let expected = match winners[..] {
        [] if lost_by_forbidden => Some(Outcome::Win(Player::O)),
        [] if empty.is_empty() => Some(Outcome::Draw),
        [] => None,
        [w] => Some(Outcome::Win(w)),
        _ => panic!("both players won in play"),
    };
    assert_eq!(game.outcome(), expected, "{game:?}");

    // Undoing every move in turn restores every earlier board and hash.
    let mut replay = start.clone();
    let mut history = vec![(cells(&replay), replay.hash(), replay.to_move())];
    for &m in &moves {
        replay.play_unchecked(m);
        history.push((cells(&replay), replay.hash(), replay.to_move()));
    }
    assert_eq!(replay.hash(), game.hash());
    for &m in moves.iter().rev() {
        history.pop();
        replay.undo(m);
        let (c, h, t) = history.last().expect("history");
        assert_eq!(
            (&cells(&replay), replay.hash(), replay.to_move()),
            (c, *h, *t)
        );
        assert!(!replay.is_over());
    }

    // The hash is a function of stones and side to move.
    let rebuilt = start
        .setup(&cells(&game), game.to_move())
        .expect("a played position sets up");
    assert_eq!(rebuilt.hash(), game.hash());
    // A position does not remember how its last stone was played.
    if !lost_by_forbidden {
        assert_eq!(rebuilt.outcome(), game.outcome());
    }

    if game.rows() == game.cols() {
        check_symmetries(&game);
    }
}

fn check_symmetries<G: Game>(game: &G) {
    let (canonical, to_canonical) = game.canonical();
    assert_eq!(cells(&game.transformed(to_canonical)), cells(&canonical));
    for a in Symmetry::ALL {
        let image = game.transformed(a);
        // A stone moves exactly where `transform_point` says.
        for i in 0..game.points() {
            let p = Point(i as u16);
            assert_eq!(image.stone(game.transform_point(p, a)), game.stone(p));
        }
        assert_eq!(image.outcome(), game.outcome());
        assert_eq!(image.to_move(), game.to_move());
        // Every image has the same canonical form and canonical hash.
        assert_eq!(cells(&image.canonical().0), cells(&canonical));
        assert_eq!(image.canonical_hash(), game.canonical_hash());
        // Symmetries compose like the group of the square.
        for b in Symmetry::ALL {
            assert_eq!(
                cells(&image.transformed(b)),
                cells(&game.transformed(a.then(b)))
            );
        }
        assert_eq!(cells(&image.transformed(a.inverse())), cells(game));
    }
}

/// Wins on dense random boards, where long runs and overlines are common:
/// clear lines until nobody has one, then play one more stone.
fn check_dense_win<G: Game>(start: &G, rule: Rule, seed: u64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (rows, cols, k) = (start.rows(), start.cols(), start.k());
    let density = rng.random_range(0.2..0.9);
    let mut board: Vec<Option<Player>> = (0..start.points())
        .map(|_| {
            rng.random_bool(density).then(|| {
                if rng.random_bool(0.5) {
                    Player::X
                } else {
                    Player::O
                }
            })
        })
        .collect();
    // Remove random stones until the brute-force judge sees no winner.
    while !brute_force_winners(&board, rows, cols, k, rule).is_empty() {
        let taken: Vec<usize> = (0..board.len()).filter(|&i| board[i].is_some()).collect();
        board[taken[rng.random_range(0..taken.len())]] = None;
    }
    let empties: Vec<usize> = (0..board.len()).filter(|&i| board[i].is_none()).collect();
    if empties.is_empty() {
        return;
    }
    let mover = if rng.random_bool(0.5) {
        Player::X
    } else {
        Player::O
    };
    let mut game = start.setup(&board, mover).expect("no winner yet");
    let p = empties[rng.random_range(0..empties.len())];
    let forbidden = mover == Player::X && brute_forbidden(&board, rows, cols, rule, p);
    game.play(Point(p as u16)).expect("empty point");
    board[p] = Some(mover);
    let winners = brute_force_winners(&board, rows, cols, k, rule);
    let expected = if winners.contains(&mover) {
        Some(Outcome::Win(mover))
    } else if forbidden {
        Some(Outcome::Win(Player::O))
    } else if empties.len() == 1 {
        Some(Outcome::Draw)
    } else {
        None
    };
    assert_eq!(game.outcome(), expected, "{game:?} after {p}");
}

macro_rules! game_suite {
    ($name:ident, $game:expr, $rule:expr) => {
        mod $name {
            use super::*;

            proptest! {
                #![proptest_config(ProptestConfig::with_cases(96))]

                #[test]
                fn random_games_keep_the_invariants(seed in any::<u64>()) {
                    check_game(&$game, $rule, seed);
                }

                #[test]
                fn wins_agree_with_brute_force(seed in any::<u64>()) {
                    check_dense_win(&$game, $rule, seed);
                }
            }
        }
    };
}

game_suite!(tictactoe, TicTacToe::new(), Rule::Freestyle);
game_suite!(mnk_tictactoe, Mnk::tictactoe(), Rule::Freestyle);
game_suite!(gomoku, Mnk::gomoku(), Rule::Freestyle);
game_suite!(gomoku_exact, Mnk::gomoku_exact(), Rule::Exact);
game_suite!(renju, Mnk::renju(), Rule::Renju);
game_suite!(
    renju_small,
    Mnk::new(9, 9, 5, Rule::Renju).unwrap(),
    Rule::Renju
);
game_suite!(
    mnk_4_4_3,
    Mnk::new(4, 4, 3, Rule::Freestyle).unwrap(),
    Rule::Freestyle
);
game_suite!(
    mnk_6_7_4,
    Mnk::new(6, 7, 4, Rule::Freestyle).unwrap(),
    Rule::Freestyle
);
game_suite!(
    mnk_16_16_5,
    Mnk::new(16, 16, 5, Rule::Exact).unwrap(),
    Rule::Exact
);
game_suite!(
    mnk_20_20_5,
    Mnk::new(20, 20, 5, Rule::Freestyle).unwrap(),
    Rule::Freestyle
);
game_suite!(
    mnk_19_17_5,
    Mnk::new(19, 17, 5, Rule::Exact).unwrap(),
    Rule::Exact
);

/// Boards grow to 400 points (20 x 20) and no further; a five in the
/// corner past the 256th point wins.
#[test]
fn boards_hold_up_to_400_points() {
    assert!(Mnk::new(20, 20, 5, Rule::Freestyle).is_ok());
    assert!(Mnk::new(16, 25, 5, Rule::Freestyle).is_ok());
    assert_eq!(
        Mnk::new(21, 20, 5, Rule::Freestyle)
            .unwrap_err()
            .to_string(),
        "a 21x20 board is not supported: it needs 1 to 400 points"
    );
    let mut game = Mnk::new(20, 20, 5, Rule::Freestyle).unwrap();
    for x in 15..20 {
        game.place(Point::at(x, 19, 20), Player::X).unwrap();
    }
    assert_eq!(game.outcome(), Some(Outcome::Win(Player::X)));
    assert_eq!(game.moves().count(), 0);
    assert_eq!(
        Mnk::new(20, 20, 5, Rule::Freestyle)
            .unwrap()
            .empty_points()
            .last(),
        Some(Point(399))
    );
}

/// The two tic-tac-toe implementations are two views of the same rules.
#[test]
fn tictactoe_implementations_agree() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for _ in 0..2000 {
        let (a, moves) = random_game(&TicTacToe::new(), &mut rng, 9);
        let mut b = Mnk::tictactoe();
        for &m in &moves {
            b.play(m).unwrap();
        }
        assert_eq!(cells(&a), cells(&b));
        assert_eq!(a.outcome(), b.outcome());
        assert_eq!(a.is_over(), b.is_over());
        assert_eq!(a.moves().collect::<Vec<_>>(), b.moves().collect::<Vec<_>>());
    }
}

#[test]
fn overlines_win_in_freestyle_and_not_in_exact() {
    let row = "XXX.XX........./".to_string() + &"...............".repeat(14);
    let mut free = Mnk::gomoku().parse(&row, Some(Player::X)).unwrap();
    let mut exact = Mnk::gomoku_exact().parse(&row, Some(Player::X)).unwrap();
    free.play(Point(3)).unwrap();
    exact.play(Point(3)).unwrap();
    assert_eq!(free.outcome(), Some(Outcome::Win(Player::X)));
    assert_eq!(
        exact.outcome(),
        None,
        "six in a row is no win with exact five"
    );
}

#[test]
fn play_errors_name_the_problem() {
    let mut game: TicTacToe = "X........".parse().unwrap();
    assert_eq!(
        game.play(Point(0)).unwrap_err().to_string(),
        "point 0 is already taken"
    );
    assert_eq!(
        game.play(Point(9)).unwrap_err().to_string(),
        "point 9 is off the board"
    );
    let mut won: TicTacToe = "XXXOO....".parse().unwrap();
    assert_eq!(
        won.play(Point(8)).unwrap_err().to_string(),
        "the game is already over"
    );
}

#[test]
fn boards_parse_and_print() {
    let game: TicTacToe = "XOX/.O./X..".parse().unwrap();
    assert_eq!(game.compact(), "XOX.O.X..");
    assert_eq!(game.to_string(), "XOX\n.O.\nX..");
    assert_eq!(game.to_move(), Player::O);
    assert_eq!("XOX\n.o.\nx--".parse::<TicTacToe>().unwrap(), game);
    let err = "XXX......".parse::<TicTacToe>().unwrap_err();
    assert!(
        err.to_string().contains("X has 3 stones and O has 0"),
        "{err}"
    );
    let err = "XXXOOO...".parse::<TicTacToe>().unwrap_err();
    assert!(err.to_string().contains("both"), "{err}");
    let g = Mnk::gomoku();
    assert_eq!(g.parse(&g.compact(), None).unwrap(), g);
}
