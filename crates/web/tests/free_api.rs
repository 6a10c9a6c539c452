//! A free start against the engine (`POST /api/gomoku/new` with
//! `"start": "free"`): no Swap2, black's first stone in the centre, or any
//! position set up; either colour for the person; the rule still applies.
//! The engine's moves are waited for by the updates the page hears.

use crate::common;

use axum::http::StatusCode;
use common::{Events, TestApp, app, error_of};
use inarow_menace::Preset;
use serde_json::{Value, json};

/// The game once the engine is not thinking, looked at again on each of
/// its updates (`events` opened before the change that set it thinking).
async fn settled(t: &TestApp, events: &mut Events) -> Value {
    loop {
        let (_, v) = t.call("GET", "/api/gomoku", None).await;
        if v["phase"] != "thinking" {
            return v;
        }
        while events.next().await != ("update".into(), "gomoku".into()) {}
    }
}

fn free(colour: &str, stones: Value, rule: &str) -> String {
    json!({"start": "free", "colour": colour, "stones": stones, "rule": rule, "time_ms": 100})
        .to_string()
}

fn stones_of(v: &Value) -> Vec<(u64, u64, String, String)> {
    v["stones"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let text = |k: &str| s[k].as_str().unwrap().to_string();
            (
                s["x"].as_u64().unwrap(),
                s["y"].as_u64().unwrap(),
                text("colour"),
                text("by"),
            )
        })
        .collect()
}

#[tokio::test]
async fn black_opens_in_the_centre_whoever_plays_it() {
    let t = app(Preset::Challenge);
    let mut events = t.events().await;
    events.hello().await;
    // The person plays black: the first stone must go in the centre.
    let (status, v) = t
        .post("/api/gomoku/new", &free("black", json!([]), "freestyle"))
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(
        (&v["start"], &v["phase"], &v["person"]),
        (&json!("free"), &json!("play"), &json!("black"))
    );
    assert_eq!(v["to_move"], "black");
    assert!(v["note"].as_str().unwrap().contains("centre"), "{v}");
    let (status, v) = t.post("/api/gomoku/move", r#"{"x": 3, "y": 3}"#).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
    let e = error_of(&v);
    assert!(
        e.starts_with("black's first stone goes in the centre, "),
        "{e}"
    );
    assert!(e.contains('8'), "{e}");
    let (status, v) = t.post("/api/gomoku/move", r#"{"x": 7, "y": 7}"#).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["phase"], "thinking", "{v}");
    let v = settled(&t, &mut events).await;
    let stones = stones_of(&v);
    assert_eq!(stones.len(), 2, "{v}");
    assert_eq!(stones[0], (7, 7, "B".into(), "you".into()));
    assert_eq!(
        (stones[1].2.as_str(), stones[1].3.as_str()),
        ("W", "engine")
    );
    assert_eq!(v["to_move"], "black");
    // The person plays white: the engine's black stone stands in the
    // centre at once, with nothing to think over.
    let (status, v) = t
        .post("/api/gomoku/new", &free("white", json!([]), "freestyle"))
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(
        (&v["phase"], &v["person"], &v["to_move"]),
        (&json!("play"), &json!("white"), &json!("white"))
    );
    assert_eq!(stones_of(&v), [(7, 7, "B".into(), "engine".into())]);
    assert!(
        v["note"]
            .as_str()
            .unwrap()
            .starts_with("The engine (black) opened in the centre"),
        "{v}"
    );
    // On an even board the centre is the point right and below of the middle.
    let body = json!({"start": "free", "colour": "white", "size": 10, "time_ms": 100});
    let (_, v) = t.post("/api/gomoku/new", &body.to_string()).await;
    assert_eq!(stones_of(&v), [(5, 5, "B".into(), "engine".into())]);
}

#[tokio::test]
async fn a_position_set_up_is_played_on_and_taken_back_to() {
    let t = app(Preset::Challenge);
    let mut events = t.events().await;
    events.hello().await;
    let setup = json!([[7, 7], [8, 8], [9, 9]]);
    // White to move; the person is white.
    let (status, v) = t
        .post("/api/gomoku/new", &free("white", setup.clone(), "exact"))
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(
        (&v["phase"], &v["to_move"], &v["setup"]),
        (&json!("play"), &json!("white"), &json!(3))
    );
    assert_eq!(v["rule"], "exact");
    let colours: Vec<(String, String)> = stones_of(&v).into_iter().map(|s| (s.2, s.3)).collect();
    assert_eq!(
        colours,
        [("B", "setup"), ("W", "setup"), ("B", "setup")]
            .map(|(c, b)| (c.to_string(), b.to_string()))
    );
    assert_eq!(v["can_take_back"], false);
    let (status, v) = t.post("/api/gomoku/takeback", "{}").await;
    assert_eq!(status, StatusCode::CONFLICT, "{v}");
    assert_eq!(
        error_of(&v),
        "nothing to take back: you have not moved since the start"
    );
    // A move, the engine's reply, then both taken back to the set-up position.
    let (status, v) = t.post("/api/gomoku/move", r#"{"x": 6, "y": 6}"#).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let v = settled(&t, &mut events).await;
    assert_eq!(stones_of(&v).len(), 5, "{v}");
    let (status, v) = t.post("/api/gomoku/takeback", "{}").await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(stones_of(&v).len(), 3, "{v}");
    assert_eq!(v["to_move"], "white");
    let (status, sgf) = t.call("GET", "/api/gomoku/sgf", None).await;
    assert_eq!(status, StatusCode::OK);
    let sgf = sgf.as_str().unwrap();
    assert!(
        sgf.contains("B[hh]") && sgf.contains("W[ii]") && sgf.contains("RU[Exact]"),
        "{sgf}"
    );
    // The same position with the person black: the engine moves first.
    let (status, v) = t
        .post("/api/gomoku/new", &free("black", setup, "freestyle"))
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["phase"], "thinking", "{v}");
    let v = settled(&t, &mut events).await;
    assert_eq!(
        (&v["phase"], &v["to_move"]),
        (&json!("play"), &json!("black")),
        "{v}"
    );
    assert_eq!(stones_of(&v)[3].3, "engine");
}

/// Black's stones down (7,5) and (7,6), across (5,7) and (6,7), white's far
/// away: black to move, and (7,7) would make two open threes.
fn double_three() -> Value {
    json!([
        [7, 5],
        [0, 0],
        [7, 6],
        [0, 2],
        [5, 7],
        [0, 4],
        [6, 7],
        [0, 6]
    ])
}

#[tokio::test]
async fn renju_still_forbids_blacks_points() {
    let t = app(Preset::Challenge);
    let (status, v) = t
        .post("/api/gomoku/new", &free("black", double_three(), "renju"))
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(
        v["forbidden"],
        json!([{"x": 7, "y": 7, "why": "double three"}]),
        "{v}"
    );
    let (status, v) = t.post("/api/gomoku/move", r#"{"x": 7, "y": 7}"#).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
    assert!(
        error_of(&v) == "h8 is forbidden to black under renju: double three",
        "{v}"
    );
    // Set up on that point, black's stone is refused.
    let mut stones = double_three();
    stones.as_array_mut().unwrap().push(json!([7, 7]));
    let (status, v) = t
        .post("/api/gomoku/new", &free("white", stones.clone(), "renju"))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
    assert!(
        error_of(&v) == "stone 9: h8 is forbidden to black under renju: double three",
        "{v}"
    );
    // Under freestyle it is just a stone.
    let (status, v) = t
        .post("/api/gomoku/new", &free("white", stones, "freestyle"))
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
}

#[tokio::test]
async fn bad_free_starts_are_one_line() {
    let t = app(Preset::Challenge);
    let five = json!([
        [0, 0],
        [0, 1],
        [1, 0],
        [1, 1],
        [2, 0],
        [2, 1],
        [3, 0],
        [3, 1],
        [4, 0]
    ]);
    let cases = [
        (
            free("black", json!([[15, 0]]), "freestyle"),
            "stone 1: point 15,0 is off the 15x15 board: columns are a to o and rows 1 to 15",
        ),
        (
            free("black", json!([[1, 1], [1, 1]]), "freestyle"),
            "stone 2: b14 is already taken",
        ),
        (
            free("black", five, "freestyle"),
            "stone 9 makes five: the game would be over before it starts",
        ),
        (
            json!({"start": "free", "opener": "you", "time_ms": 100}).to_string(),
            "a free start has no opener: choose your colour (colour: black or white)",
        ),
        (
            json!({"opener": "you", "colour": "black", "time_ms": 100}).to_string(),
            "colour and stones are for a free start (start: free); a Swap2 game settles colours in its opening",
        ),
        (
            json!({"time_ms": 100}).to_string(),
            "a Swap2 game needs an opener: you or engine",
        ),
        (
            json!({"start": "free", "time_ms": 100, "stones": vec![[0, 0]; 401]}).to_string(),
            "401 stones set up: at most 400",
        ),
        (
            json!({"start": "free", "time_ms": 1, "stones": []}).to_string(),
            "time 1 ms is out of range: use 50 to 10000 ms per move",
        ),
    ];
    for (body, want) in cases {
        let (status, v) = t.post("/api/gomoku/new", &body).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {v}");
        assert_eq!(error_of(&v), want, "{body}");
    }
    for body in [
        r#"{"start": "open", "time_ms": 100}"#,
        r#"{"start": "free", "colour": "green", "time_ms": 100}"#,
        r#"{"start": "free", "stones": [[1, 2, 3]], "time_ms": 100}"#,
        r#"{"start": "free", "stones": [[-1, 2]], "time_ms": 100}"#,
    ] {
        let (status, v) = t.post("/api/gomoku/new", body).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {v}");
        error_of(&v);
    }
    // Nothing refused changed the table.
    let (_, v) = t.call("GET", "/api/gomoku", None).await;
    assert_eq!(v["phase"], "idle");
}

#[tokio::test]
async fn an_engine_facing_an_open_four_says_it_is_lost() {
    // The person's (black's) open four e8..h8 is set up, white (the engine)
    // to move: whatever it blocks, black makes five. Its thought is a
    // proven loss, as the analysis gives it, never an evaluation of 0.
    let t = app(Preset::Challenge);
    let mut events = t.events().await;
    events.hello().await;
    let stones = json!([[4, 7], [0, 0], [5, 7], [0, 2], [6, 7], [0, 4], [7, 7]]);
    let (status, v) = t
        .post("/api/gomoku/new", &free("black", stones, "freestyle"))
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let v = settled(&t, &mut events).await;
    let thought = &v["thought"];
    assert!(thought["decided"]["loss"].is_i64(), "{thought}");
    assert!(thought["score"].as_i64().unwrap() < 0, "{thought}");
    // A proven loss is no chance at all.
    assert_eq!(thought["win_rate"], 0.0, "{thought}");
    let blocked = v["stones"][7].clone();
    assert!(
        [3, 8].contains(&blocked["x"].as_u64().unwrap()) && blocked["y"] == 7,
        "blocks an end: {v}"
    );
}
