//! The gomoku endpoints: every opening path, moves, the engine's thought,
//! and refusals. The real engine thinks 50 ms a move.

use crate::common;

use std::time::{Duration, Instant};

use axum::http::StatusCode;
use common::{TestApp, app, error_of};
use inarow_menace::Preset;
use serde_json::Value;

async fn settled(t: &TestApp) -> Value {
    let start = Instant::now();
    loop {
        let (_, v) = t.call("GET", "/api/gomoku", None).await;
        if v["phase"] != "thinking" {
            return v;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "engine still thinking: {v}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

fn stones(v: &Value) -> Vec<(u64, u64, String)> {
    v["stones"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["x"].as_u64().unwrap(),
                s["y"].as_u64().unwrap(),
                s["colour"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// An empty point near the centre of the game's board.
fn empty_point(v: &Value) -> (u64, u64) {
    let taken = stones(v);
    let size = v["size"].as_i64().unwrap();
    let c = size / 2;
    for r in 0..=c {
        for dy in -r..=r {
            for dx in -r..=r {
                let (x, y) = (c + dx, c + dy);
                if x < 0 || y < 0 || x >= size || y >= size {
                    continue;
                }
                let (x, y) = (x as u64, y as u64);
                if !taken.iter().any(|s| s.0 == x && s.1 == y) {
                    return (x, y);
                }
            }
        }
    }
    panic!("board full")
}

async fn post(t: &TestApp, path: &str, body: &str) -> (StatusCode, Value) {
    t.post(path, body).await
}

/// Plays `moves` of the person's moves, checking each engine reply.
async fn play_moves(t: &TestApp, mut v: Value, moves: usize) {
    for _ in 0..moves {
        if v["phase"] == "over" {
            return;
        }
        assert_eq!(v["phase"], "play", "{v}");
        assert_eq!(v["to_move"], v["person"], "{v}");
        let before = stones(&v).len();
        let (x, y) = empty_point(&v);
        let (status, reply) =
            post(t, "/api/gomoku/move", &format!("{{\"x\":{x},\"y\":{y}}}")).await;
        assert_eq!(status, StatusCode::OK, "{reply}");
        v = settled(t).await;
        if v["phase"] == "over" {
            return;
        }
        let s = stones(&v);
        assert_eq!(s.len(), before + 2, "{v}");
        let engine = s.last().unwrap();
        let thought = &v["thought"];
        assert_eq!(thought["best"], serde_json::json!([engine.0, engine.1]));
        let pv = thought["pv"].as_array().unwrap();
        assert!(!pv.is_empty() && pv[0] == thought["best"], "{thought}");
        assert!(thought["score"].is_i64());
        // The score as a win rate: above a half exactly when it is above 0.
        let rate = thought["win_rate"].as_f64().unwrap();
        let score = thought["score"].as_i64().unwrap();
        assert!((0.0..=1.0).contains(&rate), "{thought}");
        assert_eq!(rate > 0.5, score > 0, "{thought}");
        // Proven or not, as the analysis reads it: null, or plies to a win or loss.
        let decided = &thought["decided"];
        assert!(
            decided.is_null() || decided["win"].is_i64() || decided["loss"].is_i64(),
            "{thought}"
        );
    }
}

#[tokio::test]
async fn the_person_opens_and_plays_a_few_moves() {
    let t = app(Preset::Challenge);
    let (status, body) = post(&t, "/api/gomoku/new", r#"{"opener":"you","time_ms":10}"#).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        error_of(&body),
        "time 10 ms is out of range: use 50 to 10000 ms per move"
    );
    let (status, body) = post(
        &t,
        "/api/gomoku/new",
        r#"{"opener":"nobody","time_ms":100}"#,
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(error_of(&body).contains("unknown variant `nobody`"));
    let (status, body) = post(&t, "/api/gomoku/move", r#"{"x":7,"y":7}"#).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(error_of(&body), "no game in progress: start a new game");

    let (status, v) = post(&t, "/api/gomoku/new", r#"{"opener":"you","time_ms":50}"#).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(v["phase"], "opening");
    for (x, y) in [(7, 7), (8, 8)] {
        post(&t, "/api/gomoku/move", &format!("{{\"x\":{x},\"y\":{y}}}")).await;
    }
    for (body, status, message) in [
        (
            r#"{"x":15,"y":0}"#,
            StatusCode::BAD_REQUEST,
            "point 15,0 is off the 15x15 board: columns are a to o and rows 1 to 15",
        ),
        (
            r#"{"x":7,"y":7}"#,
            StatusCode::BAD_REQUEST,
            "h8 is already taken",
        ),
        (
            r#"{"x":-1,"y":0}"#,
            StatusCode::BAD_REQUEST,
            "bad request body",
        ),
        (r#"{"x":1}"#, StatusCode::BAD_REQUEST, "missing field `y`"),
    ] {
        let (got, reply) = post(&t, "/api/gomoku/move", body).await;
        assert_eq!(got, status, "{body}");
        assert!(error_of(&reply).contains(message), "{body}: {reply}");
    }
    let (status, body) = post(&t, "/api/gomoku/answer", r#"{"choice":"black"}"#).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(error_of(&body), "there is no opening to answer now");
    let (_, v) = post(&t, "/api/gomoku/move", r#"{"x":8,"y":6}"#).await;
    assert_eq!(
        stones(&v),
        vec![(7, 7, "B".into()), (8, 8, "B".into()), (8, 6, "W".into())]
    );
    assert_eq!(v["phase"], "thinking");
    let (status, body) = post(&t, "/api/gomoku/move", r#"{"x":0,"y":0}"#).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(error_of(&body), "the engine is thinking: wait for its move");
    // The SGF numbers the opening as the game goes, as the page's lists and
    // links do: black h8, white i9, black i7 (placed black, black, white).
    let (status, text) = t.call("GET", "/api/gomoku/sgf", None).await;
    assert_eq!(status, StatusCode::OK);
    let text = text.as_str().unwrap();
    assert!(text.ends_with(";B[hh];W[ig];B[ii])\n"), "{text}");

    let mut v = settled(&t).await;
    if v["phase"] == "colour" {
        assert_eq!(stones(&v).len(), 5);
        let (status, body) = post(&t, "/api/gomoku/colour", r#"{"colour":"red"}"#).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
        let (status, next) = post(&t, "/api/gomoku/colour", r#"{"colour":"white"}"#).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(next["person"], "white");
        v = settled(&t).await;
    } else {
        let (status, _) = post(&t, "/api/gomoku/colour", r#"{"colour":"black"}"#).await;
        assert_eq!(status, StatusCode::CONFLICT);
    }
    play_moves(&t, v, 3).await;
}

#[tokio::test]
async fn the_engine_opens_and_every_answer_is_taken() {
    let t = app(Preset::Challenge);
    // Take black: white (the engine) moves next.
    post(&t, "/api/gomoku/new", r#"{"opener":"engine","time_ms":50}"#).await;
    let v = settled(&t).await;
    assert_eq!(v["phase"], "answer", "{v}");
    let s = stones(&v);
    assert_eq!(s.iter().map(|s| s.2.as_str()).collect::<String>(), "BBW");
    let (status, body) = post(&t, "/api/gomoku/move", r#"{"x":0,"y":0}"#).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert!(error_of(&body).starts_with("answer the opening first"));
    let taken = format!(r#"{{"choice":"white","x":{},"y":{}}}"#, s[0].0, s[0].1);
    let (status, body) = post(&t, "/api/gomoku/answer", &taken).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(error_of(&body).contains("is already taken"));
    let (status, body) = post(
        &t,
        "/api/gomoku/answer",
        r#"{"choice":"place","black":[0,0],"white":[0,0]}"#,
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        error_of(&body),
        "the black and the white stone must be on different points"
    );
    let (status, body) = post(&t, "/api/gomoku/answer", r#"{"choice":"maybe"}"#).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    let (status, v) = post(&t, "/api/gomoku/answer", r#"{"choice":"black"}"#).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(v["person"], "black");
    let v = settled(&t).await;
    assert_eq!(stones(&v).len(), 4, "the engine (white) moved first: {v}");
    play_moves(&t, v, 2).await;

    // Place a white stone and take white: black (the engine) moves next.
    post(&t, "/api/gomoku/new", r#"{"opener":"engine","time_ms":50}"#).await;
    let v = settled(&t).await;
    let (x, y) = empty_point(&v);
    let (status, v) = post(
        &t,
        "/api/gomoku/answer",
        &format!(r#"{{"choice":"white","x":{x},"y":{y}}}"#),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["person"], "white");
    let v = settled(&t).await;
    assert_eq!(stones(&v).len(), 5);
    play_moves(&t, v, 1).await;

    // Place two stones: the engine chooses its colour.
    post(&t, "/api/gomoku/new", r#"{"opener":"engine","time_ms":50}"#).await;
    settled(&t).await;
    let (status, v) = post(
        &t,
        "/api/gomoku/answer",
        r#"{"choice":"place","black":[0,0],"white":[14,14]}"#,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let v = settled(&t).await;
    assert!(v["person"] == "black" || v["person"] == "white", "{v}");
    assert_eq!(v["phase"], "play");
    play_moves(&t, v, 1).await;
}

#[tokio::test]
async fn a_new_game_drops_the_engine_answer_for_the_old_one() {
    let t = app(Preset::Challenge);
    let mut viewer = t.events().await;
    viewer.hello().await;
    // The engine thinks over its answer to the opening, for up to 10 s.
    let (_, v) = post(&t, "/api/gomoku/new", r#"{"opener":"you","time_ms":10000}"#).await;
    let old = v["game_id"].clone();
    for (x, y) in [(7, 7), (8, 8), (8, 6)] {
        post(&t, "/api/gomoku/move", &format!(r#"{{"x":{x},"y":{y}}}"#)).await;
    }
    let first = viewer.thinking().await;
    assert_eq!(first["game_id"], old, "{first}");
    let (_, v) = post(&t, "/api/gomoku/new", r#"{"opener":"you","time_ms":50}"#).await;
    assert_eq!(v["phase"], "opening");
    // The old think's end, heard: its answer is dropped before it is said.
    loop {
        let r = viewer.thinking().await;
        assert_eq!(r["game_id"], old, "nothing else thinks: {r}");
        if r["stopped"] == true {
            break;
        }
    }
    let (_, v) = t.call("GET", "/api/gomoku", None).await;
    assert_eq!(v["phase"], "opening");
    assert!(stones(&v).is_empty(), "{v}");
}

#[tokio::test]
async fn take_back_resign_and_sgf_before_a_game_and_in_the_opening_are_refused() {
    let t = app(Preset::Challenge);
    for (path, message) in [
        (
            "/api/gomoku/takeback",
            "no game in progress: nothing to take back",
        ),
        (
            "/api/gomoku/resign",
            "no game in progress: nothing to resign",
        ),
    ] {
        let (status, body) = post(&t, path, "{}").await;
        assert_eq!(status, StatusCode::CONFLICT, "{path}");
        assert_eq!(error_of(&body), message);
    }
    let (status, body) = t.call("GET", "/api/gomoku/sgf", None).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(
        error_of(&body),
        "no game yet: start one to download its SGF"
    );
    post(&t, "/api/gomoku/new", r#"{"opener":"you","time_ms":50}"#).await;
    let (_, v) = post(&t, "/api/gomoku/move", r#"{"x":7,"y":7}"#).await;
    assert_eq!(v["can_take_back"], false);
    let (status, body) = post(&t, "/api/gomoku/takeback", "{}").await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(
        error_of(&body),
        "the opening cannot be taken back: start a new game"
    );
    // An unfinished game's SGF has its stones and no result.
    let (status, text) = t.call("GET", "/api/gomoku/sgf", None).await;
    assert_eq!(status, StatusCode::OK);
    let text = text.as_str().unwrap();
    assert!(
        text.starts_with("(;FF[4]GM[4]CA[UTF-8]SZ[15]RU[Freestyle]AP[inarow serve]"),
        "{text}"
    );
    assert!(!text.contains("RE["), "{text}");
    assert!(text.ends_with(";B[hh])\n"), "{text}");
    // Resigning in the opening ends the game.
    let (status, v) = post(&t, "/api/gomoku/resign", "{}").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(v["phase"], "over");
    assert_eq!(v["resigned"], true);
    assert_eq!(v["note"], "You resigned: the engine wins.");
}

#[tokio::test]
async fn take_back_removes_the_last_move_and_the_reply_then_resign_and_sgf() {
    let t = app(Preset::Challenge);
    post(&t, "/api/gomoku/new", r#"{"opener":"engine","time_ms":50}"#).await;
    let (_, v) = t.call("GET", "/api/gomoku", None).await;
    if v["phase"] == "thinking" {
        assert!(v["thinking_ms"].is_u64(), "{v}");
        let (status, body) = post(&t, "/api/gomoku/takeback", "{}").await;
        assert_eq!(status, StatusCode::CONFLICT);
        assert_eq!(
            error_of(&body),
            "the engine is thinking: take back after its move"
        );
    }
    settled(&t).await;
    post(&t, "/api/gomoku/answer", r#"{"choice":"black"}"#).await;
    let v = settled(&t).await;
    assert_eq!(v["thinking_ms"], Value::Null);
    let opening = stones(&v);
    assert_eq!(opening.len(), 4, "{v}");
    let by: Vec<_> = v["stones"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["by"].clone())
        .collect();
    assert_eq!(by, ["engine"; 4], "{v}");
    assert_eq!(v["can_take_back"], false);
    let (status, body) = post(&t, "/api/gomoku/takeback", "{}").await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(
        error_of(&body),
        "nothing to take back: you have not moved since the opening"
    );
    let (x, y) = empty_point(&v);
    post(&t, "/api/gomoku/move", &format!("{{\"x\":{x},\"y\":{y}}}")).await;
    let v = settled(&t).await;
    assert_eq!(stones(&v).len(), 6, "{v}");
    assert_eq!(v["stones"][4]["by"], "you");
    assert_eq!(v["can_take_back"], true);
    let (status, v) = post(&t, "/api/gomoku/takeback", "{}").await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(stones(&v), opening);
    assert_eq!(v["phase"], "play");
    assert_eq!(v["to_move"], "black");
    assert_eq!(v["note"], "Move taken back: your move (black).");
    assert_eq!(v["thought"], Value::Null);
    // Play on from there, then resign.
    let (x, y) = empty_point(&v);
    post(&t, "/api/gomoku/move", &format!("{{\"x\":{x},\"y\":{y}}}")).await;
    let v = settled(&t).await;
    let played = stones(&v);
    assert_eq!(played.len(), 6);
    let (status, v) = post(&t, "/api/gomoku/resign", "{}").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(v["phase"], "over");
    for (path, body, message) in [
        (
            "/api/gomoku/takeback",
            "{}",
            "you resigned: start a new game",
        ),
        (
            "/api/gomoku/resign",
            "{}",
            "no game in progress: nothing to resign",
        ),
        (
            "/api/gomoku/move",
            r#"{"x":0,"y":0}"#,
            "no game in progress: start a new game",
        ),
    ] {
        let (status, reply) = post(&t, path, body).await;
        assert_eq!(status, StatusCode::CONFLICT, "{path}");
        assert_eq!(error_of(&reply), message);
    }
    // The SGF lists every stone in the game's order (black's and white's
    // in turn, the opening's as played, not as placed) and the engine
    // (white) the winner.
    let (status, text) = t.call("GET", "/api/gomoku/sgf", None).await;
    assert_eq!(status, StatusCode::OK);
    let text = text.as_str().unwrap();
    assert!(
        text.contains("PB[you]PW[inarow engine]RE[W+]C[you resigned]"),
        "{text}"
    );
    let point = |s: &(u64, u64, String)| {
        format!(
            ";{}[{}{}]",
            s.2,
            (b'a' + s.0 as u8) as char,
            (b'a' + s.1 as u8) as char
        )
    };
    let (black, white): (Vec<_>, Vec<_>) = played.iter().partition(|s| s.2 == "B");
    let mut whites = white.into_iter();
    let moves: String = black
        .into_iter()
        .flat_map(|b| std::iter::once(b).chain(whites.next()))
        .map(point)
        .collect();
    assert!(text.ends_with(&format!("{moves})\n")), "{text}");
}

#[tokio::test]
async fn the_rule_is_chosen_with_a_new_game() {
    let t = app(Preset::Challenge);
    let (status, v) = post(&t, "/api/gomoku/new", r#"{"opener":"you","time_ms":50}"#).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["rule"], "freestyle");
    let (status, v) = post(
        &t,
        "/api/gomoku/new",
        r#"{"opener":"you","time_ms":50,"rule":"exact"}"#,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["rule"], "exact");
    let (status, body) = post(
        &t,
        "/api/gomoku/new",
        r#"{"opener":"you","time_ms":50,"rule":"caro"}"#,
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(
        error_of(&body)
            .contains("unknown variant `caro`, expected one of `freestyle`, `exact`, `renju`"),
        "{body}"
    );
    // The game refused left the exact game as it was.
    let (_, v) = t.call("GET", "/api/gomoku", None).await;
    assert_eq!(v["rule"], "exact");
}

/// Every stone of the game on show lies on its `size` x `size` board.
fn on_board(v: &Value, size: u64) {
    assert_eq!(v["size"], size, "{v}");
    for (x, y, _) in stones(v) {
        assert!(
            x < size && y < size,
            "({x},{y}) is off the {size}x{size} board: {v}"
        );
    }
}

#[tokio::test]
async fn the_board_size_is_chosen_with_a_new_game() {
    let t = app(Preset::Challenge);
    let (_, v) = t.call("GET", "/api/gomoku", None).await;
    assert_eq!(v["size"], 15, "{v}");
    // 9x9, the person opening: the points are the 9x9 board's.
    let (status, v) = post(
        &t,
        "/api/gomoku/new",
        r#"{"opener":"you","time_ms":50,"size":9}"#,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["size"], 9);
    let (status, body) = post(&t, "/api/gomoku/move", r#"{"x":9,"y":0}"#).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        error_of(&body),
        "point 9,0 is off the 9x9 board: columns are a to i and rows 1 to 9"
    );
    for (x, y) in [(4, 4), (5, 5), (5, 3)] {
        let (status, v) = post(&t, "/api/gomoku/move", &format!("{{\"x\":{x},\"y\":{y}}}")).await;
        assert_eq!(status, StatusCode::OK, "{v}");
    }
    let mut v = settled(&t).await;
    on_board(&v, 9);
    if v["phase"] == "colour" {
        post(&t, "/api/gomoku/colour", r#"{"colour":"black"}"#).await;
        v = settled(&t).await;
    }
    play_moves(&t, v, 3).await;
    let v = settled(&t).await;
    on_board(&v, 9);
    assert!(stones(&v).len() >= 6, "{v}");
    let (status, sgf) = t.call("GET", "/api/gomoku/sgf", None).await;
    assert_eq!(status, StatusCode::OK);
    let sgf = sgf.as_str().unwrap();
    assert!(
        sgf.starts_with("(;FF[4]GM[4]CA[UTF-8]SZ[9]RU[Freestyle]AP[inarow serve]"),
        "{sgf}"
    );

    // The smallest and the largest board, the engine opening.
    for size in [5u64, 20] {
        let (status, v) = post(
            &t,
            "/api/gomoku/new",
            &format!(r#"{{"opener":"engine","time_ms":50,"size":{size}}}"#),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let v = settled(&t).await;
        assert_eq!(v["phase"], "answer", "{v}");
        on_board(&v, size);
        post(&t, "/api/gomoku/answer", r#"{"choice":"black"}"#).await;
        let v = settled(&t).await;
        on_board(&v, size);
        play_moves(&t, v, 2).await;
        on_board(&settled(&t).await, size);
    }

    // Sizes out of range: one line, and the game on show stays.
    for (body, message) in [
        (
            r#"{"opener":"you","time_ms":50,"size":4}"#,
            "board size 4 is out of range: use 5 to 20",
        ),
        (
            r#"{"opener":"you","time_ms":50,"size":21}"#,
            "board size 21 is out of range: use 5 to 20",
        ),
    ] {
        let (status, reply) = post(&t, "/api/gomoku/new", body).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
        assert_eq!(error_of(&reply), message);
    }
    let (status, reply) = post(
        &t,
        "/api/gomoku/new",
        r#"{"opener":"you","time_ms":50,"size":"nine"}"#,
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{reply}");
    error_of(&reply);
    let (_, v) = t.call("GET", "/api/gomoku", None).await;
    assert_eq!(v["size"], 20, "{v}");
}
