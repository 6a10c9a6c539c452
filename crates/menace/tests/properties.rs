//! Properties that hold over many seeded games.

use inarow_agents::RandomAgent;
use inarow_core::{Game, Player, Point, Symmetry, TicTacToe};
use inarow_menace::{AgentSeat, Choice, Layout, Menace, Preset, colours_of, play_game};
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

/// Every bead in every box lies on one of the box's colours, and every
/// colour is an empty square of the box's image.
fn assert_beads_legal(menace: &Menace) {
    let merge = menace.preset().merges_symmetric_moves();
    for (i, (image, b)) in menace
        .layout()
        .images()
        .iter()
        .zip(menace.boxes())
        .enumerate()
    {
        let colours = colours_of(image, merge);
        assert_eq!(b.colours(), colours, "box {}", i + 1);
        assert_eq!(
            colours & !image.empty(),
            0,
            "box {} has a colour on a taken square",
            i + 1
        );
        for (sq, &n) in b.beads().iter().enumerate() {
            assert!(
                n == 0 || colours >> sq & 1 != 0,
                "box {} holds a bead on square {sq}",
                i + 1
            );
        }
        assert_eq!(b.total(), b.beads().iter().sum::<u32>());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn beads_stay_legal_over_many_games(seed in any::<u64>(), preset in preset(), games in 1usize..400) {
        let mut x = Menace::new(preset, Player::X, seed);
        let mut o = Menace::new(preset, Player::O, seed ^ 1);
        let mut random = AgentSeat(RandomAgent::new(seed ^ 2));
        for g in 0..games {
            if g % 3 == 0 {
                play_game(&mut x, &mut o);
            } else {
                play_game(&mut x, &mut random);
            }
            if g % 50 == 0 {
                assert_beads_legal(&x);
                assert_beads_legal(&o);
            }
        }
        assert_beads_legal(&x);
        assert_beads_legal(&o);
    }

    #[test]
    fn every_move_is_legal_on_the_real_board(seed in any::<u64>(), preset in preset()) {
        let mut menace = Menace::new(preset, Player::X, seed);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for _ in 0..50 {
            let mut game = TicTacToe::new();
            while !game.is_over() {
                if game.to_move() == Player::X {
                    match menace.choose(&game) {
                        Some(Choice::Play(p)) => prop_assert!(game.play(p).is_ok(), "{game:?} {p}"),
                        Some(Choice::Resign) => break,
                        None => prop_assert!(false, "no move for {game:?}"),
                    }
                } else {
                    let moves: Vec<Point> = game.moves().collect();
                    game.play(moves[rng.random_range(0..moves.len())]).unwrap();
                }
            }
            menace.abandon();
        }
    }
}

/// For each symmetry, a board whose image is reached through it: a bead of
/// the image's square lands on the matching real square.
#[test]
fn beads_land_on_the_matching_square_for_each_symmetry() {
    let layout = Layout::of(Player::X);
    // An asymmetric position, so each of its 8 images has a different
    // symmetry into the one canonical image.
    let base: TicTacToe = "XO......./".trim_end_matches('/').parse().unwrap();
    let base = {
        let mut g = base;
        g.play(Point(5)).unwrap();
        g.play(Point(6)).unwrap();
        g
    };
    let mut seen = Vec::new();
    for s in Symmetry::ALL {
        let board = base.transformed(s);
        let slot = layout.slot(&board).expect("a box for every image");
        seen.push(slot.symmetry);
        let image = layout.images()[slot.matchbox as usize];
        assert_eq!(board.transformed(slot.symmetry).compact(), image.compact());
        // Force the machine to hold a single bead, on one empty square of the image.
        for sq in 0..9u8 {
            if image.empty() >> sq & 1 == 0 {
                continue;
            }
            let mut menace = Menace::new(Preset::Challenge, Player::X, 0);
            let mut beads = [0; 9];
            beads[sq as usize] = 1;
            menace_set(&mut menace, slot.matchbox as usize, beads);
            let Some(Choice::Play(real)) = menace.choose(&board) else {
                panic!("no move")
            };
            assert!(board.stone(real).is_none());
            // The real square moves onto the image's square.
            assert_eq!(board.transform_point(real, slot.symmetry), Point(sq as u16));
            let mut after_real = board;
            after_real.play(real).unwrap();
            let mut after_image = image;
            after_image.play(Point(sq as u16)).unwrap();
            assert_eq!(
                after_real.transformed(slot.symmetry).compact(),
                after_image.compact()
            );
        }
    }
    seen.sort();
    seen.dedup();
    assert_eq!(seen.len(), 8, "every symmetry exercised");
}

fn menace_set(menace: &mut Menace, index: usize, beads: [u32; 9]) {
    // Round-trip through the saved form: the public way to set bead counts.
    let mut record = inarow_menace::Memory {
        x: menace.clone(),
        o: None,
    }
    .to_record();
    record.machines[0].boxes[index].beads = beads;
    *menace = inarow_menace::Memory::from_record(&record, 0).unwrap().x;
}
