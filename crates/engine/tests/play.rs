//! Playing: tactics the search must get right, reproducible and timely
//! searches, and the king-of-the-hill answers. (The long seeded self-play
//! run refereed by the game core is the match runner's, in `inarow-match`.)

use std::time::Duration;

use inarow_core::swap2::{Strategy, Swap};
use inarow_core::{Game, Mnk, Player, Point};
use inarow_engine::board::Board;
use inarow_engine::player::{Engine, PositionError, board_of};
use inarow_engine::pos::Pos;
use inarow_engine::search::{Limits, Options, Request, Searcher};

use crate::suite;

fn board(black: &[(usize, usize)], white: &[(usize, usize)], to_move: Player) -> Board {
    let mut b = Board::new(15).unwrap();
    for &(x, y) in black {
        b.place(Pos::at(x, y), Player::X).unwrap();
    }
    for &(x, y) in white {
        b.place(Pos::at(x, y), Player::O).unwrap();
    }
    b.set_to_move(to_move);
    b
}

fn best(b: &mut Board, depth: u32) -> (usize, usize) {
    let mut s = Searcher::new(Options {
        tt_bytes: 1 << 20,
        ..Options::default()
    });
    let found = s.search(b, &mut Request::new(Limits::depth(depth)));
    found.best.xy()
}

#[test]
fn completes_five_and_blocks_four() {
    // Black to move completes the row; with the row blocked, white's four must be stopped.
    let mut b = board(
        &[(3, 7), (4, 7), (5, 7), (6, 7)],
        &[(3, 3), (4, 4), (5, 5)],
        Player::X,
    );
    let win = best(&mut b, 4);
    assert!(win == (2, 7) || win == (7, 7), "{win:?}");
    let mut b = board(
        &[(3, 7), (9, 9), (0, 14)],
        &[(3, 3), (4, 4), (5, 5), (6, 6)],
        Player::X,
    );
    let block = best(&mut b, 4);
    assert!(block == (2, 2) || block == (7, 7), "{block:?}");
}

#[test]
fn stops_an_open_three_and_finds_a_four_three() {
    // White has an open three on column 7 (rows 6..8); black has nothing.
    let mut b = board(&[(3, 3), (11, 11)], &[(7, 6), (7, 7), (7, 8)], Player::X);
    let answer = best(&mut b, 4);
    assert!(
        [(7, 5), (7, 9), (7, 4), (7, 10)].contains(&answer),
        "{answer:?}"
    );
    // Black makes a four-three: four on row 7 and an open three on column 4.
    let mut b = board(
        &[(1, 7), (2, 7), (3, 7), (4, 5), (4, 6)],
        &[(0, 7), (10, 10), (11, 11), (12, 0), (13, 13)],
        Player::X,
    );
    let mut s = Searcher::new(Options::default());
    let found = s.search(&mut b, &mut Request::new(Limits::depth(4)));
    assert_eq!(found.best.xy(), (4, 7));
    assert!(found.score > 900_000);
}

#[test]
fn node_limited_search_is_reproducible() {
    let run = || {
        let mut b = board(&[(7, 7), (8, 7)], &[(7, 8), (6, 6)], Player::X);
        let mut s = Searcher::new(Options {
            tt_bytes: 1 << 20,
            ..Options::default()
        });
        let found = s.search(
            &mut b,
            &mut Request::new(Limits {
                time: None,
                depth: 40,
                nodes: 5_000,
            }),
        );
        (found.best, found.score, found.depth)
    };
    assert_eq!(run(), run());
}

/// A node-budget search on one thread (the default) repeats byte for
/// byte: move, score, depth, nodes and line, from a fresh searcher or a
/// cleared one, on recorded middlegames (issue 55: threads never make
/// node-count runs unrepeatable unless asked for).
#[test]
fn a_node_budget_search_on_one_thread_repeats_byte_for_byte() {
    let games = suite::recorded_middlegames(5, 6, 14);
    assert_eq!(Options::default().threads, 1);
    let options = Options {
        tt_bytes: 1 << 20,
        ..Options::default()
    };
    let run = |reused: &mut Option<Searcher>| -> Vec<String> {
        games
            .iter()
            .map(|game| {
                let mut b = board_of(game, None).unwrap();
                let mut fresh = Searcher::new(options);
                let s = match reused.as_mut() {
                    Some(s) => {
                        s.clear();
                        s
                    }
                    None => &mut fresh,
                };
                let f = s.search(&mut b, &mut Request::new(Limits::nodes(15_000)));
                format!(
                    "{:?} {} {} {} {} {:?}",
                    f.best, f.score, f.depth, f.nodes, f.vcf, f.pv
                )
            })
            .collect()
    };
    let first = run(&mut None);
    assert_eq!(first, run(&mut None));
    assert_eq!(first, run(&mut Some(Searcher::new(options))));
}

/// With the VCT on and its root failures remembered across the moves of
/// a game (issue 55), a game played by node budget repeats byte for byte:
/// every move, score, depth and node count, from a fresh searcher or from
/// one that played another game and was cleared (a new game forgets the
/// remembered failures).
#[test]
fn a_node_budget_game_with_the_remembered_vct_repeats_byte_for_byte() {
    let games = suite::recorded_middlegames(5, 3, 14);
    let mut params = inarow_engine::search::Params {
        vct: 2,
        ..Default::default()
    };
    params.vct_root_nodes = 1_000;
    assert_eq!(params.vct_remember, 1);
    let options = Options {
        tt_bytes: 1 << 20,
        params,
        ..Options::default()
    };
    let play = |s: &mut Searcher, game: &inarow_core::Mnk| -> Vec<String> {
        s.clear();
        let mut b = board_of(game, None).unwrap();
        let mut record = Vec::new();
        for _ in 0..14 {
            if b.last_move_won() || b.empty_count() == 0 {
                break;
            }
            let f = s.search(&mut b, &mut Request::new(Limits::nodes(6_000)));
            record.push(format!(
                "{:?} {} {} {} {}",
                f.best, f.score, f.depth, f.nodes, f.vcf
            ));
            b.play(f.best).unwrap();
        }
        record
    };
    let first: Vec<_> = games
        .iter()
        .map(|g| play(&mut Searcher::new(options), g))
        .collect();
    let again: Vec<_> = games
        .iter()
        .map(|g| play(&mut Searcher::new(options), g))
        .collect();
    assert_eq!(first, again);
    // One searcher for both games, the second after the first's memory.
    let mut reused = Searcher::new(options);
    let _ = play(&mut reused, &games[1]);
    let reused: Vec<_> = games.iter().map(|g| play(&mut reused, g)).collect();
    assert_eq!(first, reused);
}

/// Two threads: the main search's iterations complete as asked with a
/// legal move and line, and a stop flag already set stops them all at
/// once.
#[test]
fn a_search_on_two_threads_answers_legally_and_stops_on_the_flag() {
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;
    let two = Options {
        threads: 2,
        tt_bytes: 1 << 20,
        ..Options::default()
    };
    let mut s = Searcher::new(two);
    for game in suite::recorded_middlegames(5, 6, 14) {
        let mut b = board_of(&game, None).unwrap();
        let before = b.hash();
        let found = s.search(&mut b, &mut Request::new(Limits::depth(6)));
        assert_eq!(b.hash(), before, "the board is unchanged");
        assert!(b.is_empty(found.best));
        if !found.vcf && found.depth > 0 {
            assert_eq!(found.depth, 6, "{found:?}");
        }
        let mut line = b.clone();
        for &m in &found.pv {
            assert!(line.is_empty(m), "{found:?}");
            line.play_unchecked(m);
        }
        let stop = Arc::new(AtomicBool::new(true));
        let stopped = s.search(
            &mut b,
            &mut Request::new(Limits::depth(30)).stopped_by(Some(stop)),
        );
        assert!(stopped.nodes <= 2 * 4096, "{stopped:?}");
        assert!(b.is_empty(stopped.best));
    }
}

fn mnk(black: &[(usize, usize)], white: &[(usize, usize)]) -> Mnk {
    let mut g = Mnk::gomoku();
    for &(x, y) in black {
        g.place(Point::at(x, y, 15), Player::X).unwrap();
    }
    for &(x, y) in white {
        g.place(Point::at(x, y, 15), Player::O).unwrap();
    }
    g
}

#[test]
fn the_engine_answers_every_swap2_decision() {
    let mut bot = Engine::new(7, Duration::from_millis(60));
    let [b1, b2, w] = bot.open(&Mnk::gomoku()).unwrap();
    assert!(b1 != b2 && b1 != w && b2 != w);
    for p in [b1, b2, w] {
        assert!((5..=9).contains(&p.row(15)) && (5..=9).contains(&p.col(15)));
    }
    let three = mnk(&[(7, 7), (8, 8)], &[(7, 8)]);
    match bot.swap(&three).unwrap() {
        Swap::Black => {}
        Swap::White(p) => assert!(three.stone(p).is_none()),
        Swap::Place { black, white } => {
            assert!(black != white && three.stone(black).is_none() && three.stone(white).is_none())
        }
    }
    let five = mnk(&[(7, 7), (8, 8), (6, 6)], &[(7, 8), (8, 7)]);
    // Black has three on the diagonal, open: white to move must defend.
    let colour = bot.colour(&five).unwrap();
    assert!(colour == Player::X || colour == Player::O);
    let p = bot.play(&five).unwrap();
    assert!(five.stone(p).is_none());
    // White cannot let the open three become an open four.
    assert!(
        [(5, 5), (9, 9), (4, 4), (10, 10)].contains(&(p.col(15), p.row(15))),
        "{p:?}"
    );
}

#[test]
fn the_engine_refuses_boards_it_cannot_answer() {
    let mut bot = Engine::new(1, Duration::from_millis(20));
    // A board the engine does not play (the core's boards stop at 16 x 16).
    let small = Mnk::new(4, 4, 4, inarow_core::Rule::Freestyle).unwrap();
    assert!(matches!(
        bot.open(&small),
        Err(PositionError::Board(None, _))
    ));
    let two = mnk(&[(7, 7)], &[(7, 8)]);
    assert_eq!(
        bot.swap(&two).unwrap_err(),
        PositionError::Stones {
            expected: 3,
            found: 2
        }
    );
    assert!(
        bot.colour(&two)
            .unwrap_err()
            .to_string()
            .contains("expected 5 stones")
    );
    let mut won = mnk(
        &[(0, 0), (1, 0), (2, 0), (3, 0)],
        &[(0, 5), (1, 5), (2, 5), (3, 5)],
    );
    won.place(Point::at(4, 0, 15), Player::X).unwrap();
    assert_eq!(bot.play(&won).unwrap_err(), PositionError::Over);
    assert_eq!(board_of(&two, None).unwrap().to_move(), Player::X);
}

#[test]
fn the_principal_variation_is_a_legal_line_from_the_best_move() {
    let middlegames = [
        board(&[(7, 7), (8, 8), (6, 8)], &[(7, 8), (9, 9)], Player::O),
        board(
            &[(3, 7), (4, 7), (5, 7)],
            &[(3, 3), (4, 4), (9, 9)],
            Player::O,
        ),
        // A forced win by fours: the line comes from the threat search.
        board(
            &[(1, 7), (2, 7), (3, 7), (4, 5), (4, 6)],
            &[(0, 7), (10, 10), (11, 11), (12, 0), (13, 13)],
            Player::X,
        ),
    ];
    for mut b in middlegames {
        let mut s = Searcher::new(Options::default());
        let found = s.search(&mut b, &mut Request::new(Limits::depth(5)));
        assert_eq!(found.pv.first(), Some(&found.best));
        assert!(found.pv.len() >= 2, "{:?}", found.pv);
        let mut played = 0;
        for &m in &found.pv {
            assert!(b.is_empty(m), "{:?} is not a legal line", found.pv);
            assert!(!b.last_move_won(), "the line goes on after a five");
            b.play_unchecked(m);
            played += 1;
        }
        for _ in 0..played {
            b.undo();
        }
    }
}

/// The time budget is kept by checking the clock often enough in every phase
/// (root VCF, main search, confirmation). Wall time cannot be asserted on a
/// shared machine, but work can: once the deadline has passed, each search
/// must stop within a few thousand positions (a few milliseconds) and still
/// answer with a legal move.
#[test]
fn an_expired_deadline_stops_every_phase_within_a_few_thousand_nodes() {
    for (k, game) in suite::recorded_middlegames(5, 12, 24).iter().enumerate() {
        let mut b = board_of(game, None).unwrap();
        let mut s = Searcher::new(Options {
            tt_bytes: 1 << 20,
            ..Options::default()
        });
        let found = s.search(&mut b, &mut Request::new(Limits::time(Duration::ZERO)));
        assert!(
            found.nodes <= 4096,
            "middlegame {k}: {} positions after the deadline",
            found.nodes
        );
        assert_eq!(
            found.depth, 0,
            "middlegame {k}: no iteration fits in no time"
        );
        assert!(b.is_empty(found.best), "middlegame {k}: an illegal move");
    }
}

/// Singular extensions (step 7b of the tree) search a node again without
/// its table move: the moves and lines they give are still the board's.
#[test]
fn singular_extensions_keep_moves_and_lines_legal() {
    use inarow_engine::search::Params;
    let mut s = Searcher::new(Options {
        params: Params {
            se_depth: 3,
            ..Params::default()
        },
        tt_bytes: 1 << 20,
        ..Options::default()
    });
    for (k, game) in suite::recorded_middlegames(5, 12, 24).iter().enumerate() {
        let mut b = board_of(game, None).unwrap();
        let before = b.hash();
        let found = s.search(&mut b, &mut Request::new(Limits::depth(7)));
        assert_eq!(b.hash(), before, "middlegame {k}: the board is as it was");
        assert_eq!(found.pv.first(), Some(&found.best), "middlegame {k}");
        let mut played = 0;
        for &m in &found.pv {
            assert!(b.is_empty(m), "middlegame {k}: the line plays on a stone");
            b.play_unchecked(m);
            played += 1;
            if b.last_move_won() {
                break;
            }
        }
        for _ in 0..played {
            b.undo();
        }
    }
}

#[test]
fn an_open_four_against_the_side_to_move_is_a_proven_loss_however_little_is_searched() {
    use inarow_engine::score::is_decided;
    // Black's open four e8..h8 (x 4 to 7, row 7), white to move: whatever
    // white blocks, black makes five. The answer says so (a loss in two
    // plies), not 0, even when the search stops before any iteration.
    let mut b = board(
        &[(4, 7), (5, 7), (6, 7), (7, 7)],
        &[(0, 0), (0, 2), (0, 4)],
        Player::O,
    );
    for limits in [Limits::depth(1), Limits::depth(8), Limits::nodes(1)] {
        let mut s = Searcher::new(Options {
            tt_bytes: 1 << 20,
            ..Options::default()
        });
        let found = s.search(&mut b, &mut Request::new(limits));
        assert!(
            is_decided(found.score) && found.score < 0,
            "{limits:?}: score {} depth {}",
            found.score,
            found.depth
        );
        assert!([3, 8].contains(&found.best.xy().0), "blocks an end");
    }
}
