//! Renju through the HTTP API: the rule taken wherever one is chosen, a bad
//! rule refused in one line, black's forbidden points in `POST /api/position`
//! and in the game's view only while black is to move, and a forbidden
//! click refused with the game unchanged.

use crate::common;

use axum::http::StatusCode;
use common::{TestApp, app, error_of};
use inarow_core::{Point, Rule};
use inarow_engine::pos::Pos;
use inarow_engine::search::Found;
use inarow_menace::Preset;
use inarow_web::gomoku::{Answer, Done, Game, SIZE};
use serde_json::json;

/// Black (5,7), (6,7), (7,5), (7,6) and white far away: black to move has
/// a double three at h8 (7,7).
const DOUBLE_THREE: &str = "[[5,7],[14,14],[6,7],[14,12],[7,5],[14,10],[7,6],[0,0]]";

fn position(rule: &str, stones: &str) -> String {
    format!(r#"{{"size": 15, "rule": "{rule}", "stones": {stones}}}"#)
}

#[tokio::test]
async fn renju_is_a_rule_everywhere_and_a_bad_rule_names_the_rules() {
    let t = app(Preset::Challenge);
    let (status, v) = t
        .post(
            "/api/analyse",
            r#"{"rule": "renju", "stones": [[7,7],[8,8]], "ms": 20}"#,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["rule"], "renju");
    let (status, v) = t
        .post(
            "/api/gomoku/new",
            r#"{"opener": "you", "time_ms": 100, "rule": "renju"}"#,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["rule"], "renju");
    assert_eq!(v["forbidden"], json!([]));
    for (path, body) in [
        ("/api/analyse", r#"{"rule": "caro", "stones": []}"#),
        ("/api/position", r#"{"rule": "caro", "stones": []}"#),
        (
            "/api/gomoku/new",
            r#"{"opener": "you", "time_ms": 100, "rule": "caro"}"#,
        ),
    ] {
        let (status, v) = t.post(path, body).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{path}: {v}");
        let error = error_of(&v);
        assert!(!error.contains('\n'), "{error}");
        for name in ["caro", "freestyle", "exact", "renju"] {
            assert!(error.contains(name), "{path}: {error}");
        }
    }
}

#[tokio::test]
async fn a_position_takes_each_stone_s_colour_and_asks_for_the_next_stone_s() {
    let t = app(Preset::Challenge);
    // Black's four stones set up first, then white's four: h8 (7,7) is
    // black's double three whoever is to move by the count.
    let stones = "[[5,7],[6,7],[7,5],[7,6],[14,14],[14,12],[14,10],[0,0]]";
    let colours = r#"["black","black","black","black","white","white","white","white"]"#;
    let body = |next: &str| {
        format!(r#"{{"rule": "renju", "stones": {stones}, "colours": {colours}{next}}}"#)
    };
    let (status, v) = t.post("/api/position", &body("")).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["to_move"], "black");
    assert_eq!(
        v["forbidden"],
        json!([{"point": [7, 7], "why": "double three"}])
    );
    // White to put the next stone: nothing is forbidden to it.
    let (status, v) = t.post("/api/position", &body(r#", "next": "white""#)).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["forbidden"], json!([]));
    // Three black stones and one white, black next: asked for all the same.
    let (status, v) = t
        .post(
            "/api/position",
            r#"{"rule": "renju", "stones": [[5,7],[6,7],[7,5],[0,0]], "colours": ["black","black","black","white"], "next": "black"}"#,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["to_move"], "white");
    // A black stone put on the point is refused in the page's words, as
    // the ninth stone; a white one stands.
    let more = stones.replace("]]", "],[7,7]]");
    for (colour, refused) in [("black", true), ("white", false)] {
        let colours = colours.replace(r#""]"#, &format!(r#"","{colour}"]"#));
        let (status, v) = t
            .post(
                "/api/position",
                &format!(r#"{{"rule": "renju", "stones": {more}, "colours": {colours}}}"#),
            )
            .await;
        if refused {
            assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
            assert_eq!(
                error_of(&v),
                "stone 9: h8 is forbidden to black under renju: double three"
            );
        } else {
            assert_eq!(status, StatusCode::OK, "{v}");
        }
    }
    // Colours that do not match the stones, or are not colours.
    for (body, message) in [
        (
            r#"{"stones": [[7,7],[8,8]], "colours": ["black"]}"#,
            "colours: 1 given for 2 stones: give one a stone, or none",
        ),
        (
            r#"{"stones": [[7,7],[7,7]], "colours": ["black","white"]}"#,
            "stone 2: h8 is already taken",
        ),
    ] {
        let (status, v) = t.post("/api/position", body).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
        assert_eq!(error_of(&v), message);
    }
    let (status, v) = t
        .post(
            "/api/position",
            r#"{"stones": [[7,7]], "colours": ["red"]}"#,
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
    assert!(error_of(&v).contains("red"), "{v}");
}

#[tokio::test]
async fn a_position_lists_blacks_forbidden_points_only_for_black_under_renju() {
    let t = app(Preset::Challenge);
    let (status, v) = t
        .post("/api/position", &position("renju", DOUBLE_THREE))
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["to_move"], "black");
    assert_eq!(
        v["forbidden"],
        json!([{"point": [7, 7], "why": "double three"}])
    );
    // White to move, or another rule: nothing forbidden.
    let white = DOUBLE_THREE.replace(",[0,0]]", "]");
    let (status, v) = t.post("/api/position", &position("renju", &white)).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(
        (&v["to_move"], &v["forbidden"]),
        (&json!("white"), &json!([]))
    );
    for rule in ["freestyle", "exact"] {
        let (status, v) = t.post("/api/position", &position(rule, DOUBLE_THREE)).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert_eq!(v["forbidden"], json!([]), "{rule}");
    }
    // Black's stone on the point is refused, in the page's words: no
    // position to analyse.
    let lost = DOUBLE_THREE.replace("]]", "],[7,7]]");
    for path in ["/api/position", "/api/analyse"] {
        let (status, v) = t.post(path, &position("renju", &lost)).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
        assert_eq!(
            error_of(&v),
            "stone 9: h8 is forbidden to black under renju: double three"
        );
    }
    // The same stones are a position under freestyle.
    let (status, v) = t.post("/api/position", &position("freestyle", &lost)).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    // Bad positions are refused as the analysis refuses them.
    let (status, v) = t
        .post("/api/position", &position("renju", "[[15,0]]"))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
    let (status, v) = t.post("/api/position", r#"{"stones": [], "ms": 10}"#).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
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

/// The shared game set to black's (the person's) move with a double three
/// at h8, the engine's moves given (so nothing thinks).
fn person_black_at_double_three(t: &TestApp) {
    let mut game = Game::default();
    game.new_game(false, 100, Rule::Renju, SIZE).unwrap();
    let id = game.game_id();
    game.done(
        id,
        Done::Opened([
            Point::at(5, 7, SIZE),
            Point::at(6, 7, SIZE),
            Point::at(0, 0, SIZE),
        ]),
    );
    game.answer(Answer::Black).unwrap();
    for (white, black) in [((14, 14), (7, 5)), ((14, 12), (7, 6))] {
        game.done(id, moved(white.0, white.1));
        game.click(black.0, black.1).unwrap();
    }
    game.done(id, moved(14, 10));
    *t.shared.gomoku.lock().unwrap() = game;
}

#[tokio::test]
async fn a_forbidden_click_is_refused_and_changes_nothing() {
    let t = app(Preset::Challenge);
    person_black_at_double_three(&t);
    let (_, before) = t.call("GET", "/api/gomoku", None).await;
    assert_eq!(before["to_move"], "black", "{before}");
    assert_eq!(before["person"], "black");
    assert_eq!(
        before["forbidden"],
        json!([{"x": 7, "y": 7, "why": "double three"}])
    );
    let (status, v) = t.post("/api/gomoku/move", r#"{"x": 7, "y": 7}"#).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
    assert_eq!(
        error_of(&v),
        "h8 is forbidden to black under renju: double three"
    );
    let (_, after) = t.call("GET", "/api/gomoku", None).await;
    assert_eq!(after, before);
    let sgf = t.shared.gomoku.lock().unwrap().sgf().unwrap();
    assert!(sgf.contains("RU[Renju]"), "{sgf}");
}
