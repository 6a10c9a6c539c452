//! Perfect tic-tac-toe: it never loses, and two perfect players always draw.

use inarow_agents::{Agent, Mcts, Perfect, RandomAgent, minimax};
use inarow_core::{Game, Mnk, Outcome, Player, TicTacToe};

/// Plays one game; `first` plays X.
fn play<G: Game>(start: &G, first: &mut dyn Agent<G>, second: &mut dyn Agent<G>) -> Outcome {
    let mut game = start.clone();
    while !game.is_over() {
        let agent: &mut dyn Agent<G> = if game.to_move() == Player::X {
            first
        } else {
            second
        };
        let m = agent.choose(&game).expect("a move while the game goes on");
        game.play(m).expect("agents play legal moves");
    }
    game.outcome().expect("over")
}

#[test]
fn perfect_against_perfect_always_draws() {
    let mut a = Perfect::new(1);
    let mut b = Perfect::new(2);
    for _ in 0..200 {
        assert_eq!(play(&TicTacToe::new(), &mut a, &mut b), Outcome::Draw);
    }
}

#[test]
fn perfect_never_loses_to_random_from_either_side() {
    let mut perfect = Perfect::new(3);
    let (mut wins, mut draws) = (0, 0);
    for seed in 0..3000 {
        let mut random = RandomAgent::new(seed);
        let (outcome, me) = if seed % 2 == 0 {
            (
                play(&TicTacToe::new(), &mut perfect, &mut random),
                Player::X,
            )
        } else {
            (
                play(&TicTacToe::new(), &mut random, &mut perfect),
                Player::O,
            )
        };
        match outcome {
            Outcome::Win(w) => {
                assert_eq!(w, me, "perfect lost game {seed}");
                wins += 1;
            }
            Outcome::Draw => draws += 1,
        }
    }
    // A random player blunders often: perfect play must punish it.
    assert!(wins > 2000, "{wins} wins, {draws} draws");
}

#[test]
fn perfect_never_loses_to_mcts() {
    let mut perfect = Perfect::new(4);
    for seed in 0..20 {
        let mut mcts = Mcts::new(300, seed);
        let x = play(&TicTacToe::new(), &mut perfect, &mut mcts);
        let o = play(&TicTacToe::new(), &mut mcts, &mut perfect);
        assert_ne!(x, Outcome::Win(Player::O));
        assert_ne!(o, Outcome::Win(Player::X));
    }
}

#[test]
fn perfect_moves_keep_the_minimax_value() {
    // From every position on a perfect game's path, the move chosen keeps
    // the exact value that full minimax gives the position.
    let mut perfect = Perfect::new(5);
    let mut random = RandomAgent::new(6);
    for _ in 0..100 {
        let mut game = TicTacToe::new();
        while !game.is_over() {
            let want = minimax::minimax(&game).score;
            let m = perfect.choose(&game).unwrap();
            let mut after = game;
            after.play(m).unwrap();
            let got = -minimax::minimax(&after).score;
            let got = inarow_agents::score::plies_to_end(got).map_or(got, |p| {
                got.signum() * (inarow_agents::score::WIN - p as i32 - 1)
            });
            assert_eq!(got, want, "{game:?} -> {m:?}");
            let r = random.choose(&game).unwrap();
            game.play(r).unwrap();
        }
    }
}

#[test]
fn mcts_plays_a_fair_game_on_a_larger_board() {
    // 4x4, 3 in a row: the first player wins with correct play; MCTS as X
    // should beat a random O nearly always.
    let start = Mnk::new(4, 4, 3, inarow_core::Rule::Freestyle).unwrap();
    let mut x_wins = 0;
    for seed in 0..20 {
        let mut mcts = Mcts::new(400, seed);
        let mut random = RandomAgent::new(seed + 100);
        if play(&start, &mut mcts, &mut random) == Outcome::Win(Player::X) {
            x_wins += 1;
        }
    }
    assert!(x_wins >= 17, "{x_wins}/20");
}
