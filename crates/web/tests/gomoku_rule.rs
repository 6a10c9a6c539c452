//! The page's gomoku game under either rule, driven through `gomoku::Game`
//! with the engine's moves given (so the stones are known): a six ends a
//! freestyle game and does not end an exact-five game.

use inarow_core::{Point, Rule};
use inarow_engine::player::Thought;
use inarow_web::gomoku::{Answer, Done, Game, SIZE};

fn at(x: usize, y: usize) -> Point {
    Point::at(y, x, SIZE)
}

fn moved(x: usize, y: usize) -> Done {
    Done::Moved(Thought {
        best: at(x, y),
        score: 0,
        depth: 1,
        nodes: 1,
        pv: vec![at(x, y)],
    })
}

/// The engine opens (black (0,7) and (1,7), white (14,14)), the person
/// takes black; black then fills (2,7), (4,7), (5,7) and last (3,7), a
/// row of six, while white plays down the right edge.
fn six_in_a_row(rule: Rule) -> Game {
    let mut game = Game::default();
    let job = game
        .new_game(false, 100, rule, SIZE)
        .unwrap()
        .expect("the engine opens");
    let id = game.view()["game_id"].as_u64().unwrap();
    assert_eq!(game.view()["rule"], rule.name());
    assert!(
        job.board.rule() == rule,
        "the engine is asked about another rule"
    );
    game.done(id, Done::Opened([at(0, 7), at(1, 7), at(14, 14)]));
    let job = game.answer(Answer::Black).unwrap().expect("white to move");
    assert!(job.board.rule() == rule);
    for (black, white) in [((2, 7), (14, 0)), ((4, 7), (14, 2)), ((5, 7), (14, 4))] {
        game.done(id, moved(white.0, white.1));
        assert_eq!(game.view()["phase"], "play", "{}", game.view());
        game.click(black.0, black.1).unwrap();
    }
    game.done(id, moved(14, 6));
    game.click(3, 7).unwrap();
    game
}

#[test]
fn a_six_wins_in_freestyle_only() {
    let free = six_in_a_row(Rule::Freestyle);
    assert_eq!(free.view()["phase"], "over", "{}", free.view());
    let exact = six_in_a_row(Rule::Exact);
    // No five: the engine (white) is to move.
    assert_eq!(exact.view()["phase"], "thinking", "{}", exact.view());
    assert_eq!(exact.view()["rule"], "exact");
}
