//! The page's gomoku game under each rule, driven through `gomoku::Game`
//! with the engine's moves given (so the stones are known): a six ends a
//! freestyle game and does not end an exact-five game; under renju black's
//! forbidden points are listed while black is to move, the person's click
//! on one is refused, and the engine's move there loses.

use inarow_core::{Point, Rule};
use inarow_engine::pos::Pos;
use inarow_engine::search::Found;
use inarow_web::gomoku::{Answer, Done, Game, SIZE};

fn at(x: usize, y: usize) -> Point {
    Point::at(x, y, SIZE)
}

fn moved(x: usize, y: usize) -> Done {
    Done::Moved(Found {
        best: Pos::at(x, y),
        score: 0,
        depth: 1,
        nodes: 1,
        vcf: false,
        elapsed: std::time::Duration::ZERO,
        pv: vec![Pos::at(x, y)],
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

/// A renju game where black has (5,7), (6,7), (7,5) and (7,6): h8, (7,7),
/// is a double three. The engine opens (5,7), (6,7) and white (0,0); the
/// person takes black (`person_black`) or places white (0,2) and takes
/// white. Returns the game with white to move when the person is black (the engine's
/// move not yet given) and black (the engine) to move otherwise.
fn double_three(person_black: bool) -> (Game, u64) {
    let mut game = Game::default();
    game.new_game(false, 100, Rule::Renju, SIZE).unwrap();
    let id = game.view()["game_id"].as_u64().unwrap();
    game.done(id, Done::Opened([at(5, 7), at(6, 7), at(0, 0)]));
    if person_black {
        game.answer(Answer::Black).unwrap();
        for (white, black) in [((14, 14), (7, 5)), ((14, 12), (7, 6))] {
            game.done(id, moved(white.0, white.1));
            game.click(black.0, black.1).unwrap();
        }
    } else {
        game.answer(Answer::White { x: 0, y: 2 }).unwrap();
        for (black, white) in [((7, 5), (14, 14)), ((7, 6), (14, 12))] {
            game.done(id, moved(black.0, black.1));
            game.click(white.0, white.1).unwrap();
        }
    }
    (game, id)
}

fn forbidden(game: &Game) -> Vec<serde_json::Value> {
    game.view()["forbidden"].as_array().unwrap().clone()
}

#[test]
fn renju_refuses_the_persons_forbidden_point_and_lists_them_for_black_only() {
    let (mut game, id) = double_three(true);
    // White (the engine) to move: nothing is marked.
    assert_eq!(game.view()["to_move"], "white", "{}", game.view());
    assert_eq!(forbidden(&game), Vec::<serde_json::Value>::new());
    game.done(id, moved(14, 10));
    let view = game.view();
    assert_eq!(view["to_move"], "black", "{view}");
    assert_eq!(view["rule"], "renju");
    assert_eq!(
        forbidden(&game),
        vec![serde_json::json!({"x": 7, "y": 7, "why": "double three"})]
    );
    let refused = game.click(7, 7).unwrap_err();
    assert!(refused.bad_input);
    assert_eq!(
        refused.message,
        "h8 is forbidden to black under renju: double three"
    );
    assert_eq!(game.view(), view, "a refused click changed the game");
    // Any other point is black's to play.
    game.click(7, 8).unwrap();
    assert_eq!(game.view()["phase"], "thinking");
    assert_eq!(forbidden(&game), Vec::<serde_json::Value>::new());
}

#[test]
fn renju_lets_white_take_blacks_forbidden_point_and_the_engine_lose_on_one() {
    // The person is white: black's h8 is no bar to white.
    let (game, id) = double_three(false);
    assert_eq!(game.view()["person"], "white");
    let mut white = game.clone();
    white.done(id, moved(14, 8));
    assert_eq!(white.view()["to_move"], "white", "{}", white.view());
    assert_eq!(forbidden(&white), Vec::<serde_json::Value>::new());
    white.click(7, 7).unwrap();
    assert_eq!(white.view()["phase"], "thinking", "{}", white.view());
    // Black (the engine) to move sees its point marked; playing it loses.
    let mut black = game;
    assert_eq!(black.view()["to_move"], "black");
    assert_eq!(forbidden(&black).len(), 1, "{}", black.view());
    black.done(id, moved(7, 7));
    let view = black.view();
    assert_eq!(view["phase"], "over", "{view}");
    assert_eq!(
        view["note"],
        "The engine (black) played h8, forbidden under renju (double three): you win."
    );
    let sgf = black.sgf().unwrap();
    assert!(sgf.contains("RU[Renju]") && sgf.contains("RE[W+]"), "{sgf}");
}

#[test]
fn the_sgf_names_every_rule() {
    for (rule, name) in [
        (Rule::Freestyle, "RU[Freestyle]"),
        (Rule::Exact, "RU[Exact]"),
        (Rule::Renju, "RU[Renju]"),
    ] {
        let mut game = Game::default();
        game.new_game(true, 100, rule, SIZE).unwrap();
        let sgf = game.sgf().unwrap();
        assert!(sgf.contains(&format!("SZ[15]{name}AP[")), "{sgf}");
    }
}
