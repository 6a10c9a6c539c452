//! A session driven by random moves: every game ends with a result, and
//! the beads MENACE drew come back as its preset pays them.

use inarow_core::{Game, GameResult, PlayError, Player, Point, TicTacToe};
use inarow_menace::{EmptyBox, Ending, Menace, Preset, Refused, Session};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn preset() -> impl Strategy<Value = Preset> {
    prop_oneof![
        Just(Preset::Challenge),
        Just(Preset::Michie),
        Just(Preset::Scroggs)
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_games_end_with_a_result_and_pay_back_every_bead(
        seed in any::<u64>(),
        preset in preset(),
        games in 1u64..60,
    ) {
        let mut menace = Menace::new(preset, Player::X, seed);
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 7);
        for played in 0..games {
            let before = menace.total_beads();
            let mut session = Session::new(&menace);
            let mut refills = 0;
            while !session.is_over() {
                if session.menace_to_move() {
                    let board = *session.board();
                    // An empty box is refilled first under the challenge's rules.
                    let slot = menace.layout().slot(&board);
                    if let (Some(slot), EmptyBox::Refill(n)) = (slot, preset.empty_box())
                        && menace.boxes()[slot.matchbox as usize].total() == 0
                    {
                        refills += n as u64;
                    }
                    match session.menace_move(&mut menace) {
                        Some(m) => {
                            prop_assert!(board.stone(m.square).is_none());
                            if m.bead.is_none() {
                                let empty = board.empty().count_ones();
                                prop_assert_eq!(empty, 1, "only a forced move has no box");
                            }
                        }
                        None => {
                            prop_assert_eq!(session.ending(), Some(Ending::Resigned(Player::X)));
                        }
                    }
                } else {
                    // Now and then a taken square first: refused, nothing changes.
                    let taken: Vec<Point> = (0..9)
                        .map(Point)
                        .filter(|&p| session.board().stone(p).is_some())
                        .collect();
                    if !taken.is_empty() && rng.random_range(0..4) == 0 {
                        let p = taken[rng.random_range(0..taken.len())];
                        let moves = session.moves().len();
                        let refused = Err(Refused::Illegal(PlayError::Occupied(p)));
                        prop_assert_eq!(session.play(&mut menace, p), refused);
                        prop_assert_eq!(session.moves().len(), moves);
                    }
                    let empty: Vec<Point> = session.board().moves().collect();
                    let p = empty[rng.random_range(0..empty.len())];
                    let m = session.play(&mut menace, p).unwrap();
                    prop_assert_eq!((m.player, m.square, m.bead), (Player::O, p, None));
                }
            }
            // The game is learned from at once, and only once.
            prop_assert_eq!(menace.games(), played + 1);
            prop_assert_eq!(menace.drawn().count(), 0);
            let result = session.result().unwrap();
            let drawn = session.moves().iter().filter(|m| m.bead.is_some()).count() as i64;
            let change = drawn * preset.net_change(result) as i64 + refills as i64;
            prop_assert_eq!(menace.total_beads() as i64 - before as i64, change);
            // The moves replay to the board, sides alternating, X first.
            let mut board = TicTacToe::new();
            for m in session.moves() {
                prop_assert_eq!(m.player, board.to_move());
                board.play(m.square).unwrap();
            }
            prop_assert_eq!(&board, session.board());
            match session.ending().unwrap() {
                Ending::Board(outcome) => {
                    prop_assert_eq!(board.outcome(), Some(outcome));
                    prop_assert_eq!(GameResult::for_side(outcome, Player::X), result);
                }
                Ending::Resigned(p) => {
                    prop_assert_eq!(p, Player::X);
                    prop_assert_eq!(result, GameResult::Loss);
                    prop_assert!(board.outcome().is_none());
                }
            }
            let over = Err(Refused::Illegal(PlayError::GameOver));
            prop_assert_eq!(session.play(&mut menace, Point(0)), over);
        }
    }
}
