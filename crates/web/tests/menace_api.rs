//! The MENACE endpoints, the page, errors and live updates.

mod common;

use std::sync::atomic::Ordering;
use std::time::Duration;

use axum::http::StatusCode;
use common::{app, error_of};
use inarow_menace::{Memory, Preset};
use serde_json::Value;

fn beads(view: &Value, index: usize) -> Vec<u64> {
    view["boxes"][index]["beads"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b.as_u64().unwrap())
        .collect()
}

fn first_empty(view: &Value) -> usize {
    view["game"]["board"].as_str().unwrap().find('.').unwrap()
}

#[tokio::test]
async fn the_page_is_served_and_unknown_paths_are_json_errors() {
    let t = app(Preset::Challenge);
    let (status, body) = t.call("GET", "/", None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(body.as_str().unwrap().contains("The 304 matchboxes"));
    let (status, body) = t.call("GET", "/api/nothing", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(error_of(&body), "no such endpoint: GET /api/nothing");
    let (status, body) = t.call("GET", "/api/menace/move", None).await;
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(error_of(&body), "GET is not allowed on /api/menace/move");
}

#[tokio::test]
async fn the_view_lists_all_304_boxes_by_move() {
    let t = app(Preset::Challenge);
    let (status, v) = t.call("GET", "/api/menace", None).await;
    assert_eq!(status, StatusCode::OK);
    let boxes = v["boxes"].as_array().unwrap();
    assert_eq!(boxes.len(), 304);
    assert_eq!(v["beads"], 1917);
    assert_eq!(v["preset"], "challenge");
    assert_eq!(boxes[0]["image"], ".........");
    assert_eq!(beads(&v, 0), vec![4; 9]);
    let per_move: Vec<usize> = (1..=4)
        .map(|m| boxes.iter().filter(|b| b["move"] == m).count())
        .collect();
    assert_eq!(per_move, vec![1, 12, 108, 183]);
    assert!(v["game"].is_null());
}

#[tokio::test]
async fn a_whole_game_by_moves_learns_and_saves_once() {
    let t = app(Preset::Michie);
    let (_, before) = t.call("GET", "/api/menace", None).await;
    let (status, mut v) = t.call("POST", "/api/menace/new", None).await;
    assert_eq!(status, StatusCode::OK);
    let first = &v["game"]["steps"][0];
    assert_eq!(first["player"], "X");
    assert_eq!(first["matchbox"], 0);
    let bead = first["bead"].as_u64().unwrap() as usize;
    // The bead is out of its box while the game goes on.
    assert_eq!(beads(&v, 0)[bead], beads(&before, 0)[bead] - 1);
    while !v["game"]["over"].as_bool().unwrap() {
        assert_eq!(t.saves(), 0, "saved before the game ended");
        let square = first_empty(&v);
        let (status, next) = t
            .call(
                "POST",
                "/api/menace/move",
                Some(&format!("{{\"square\":{square}}}")),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{next}");
        v = next;
    }
    assert_eq!(t.saves(), 1);
    assert_eq!(v["games"], 1);
    let net: i64 = match v["game"]["outcome"].as_str().unwrap() {
        "win" => 3,
        "draw" => 1,
        "loss" => -1,
        other => panic!("{other}"),
    };
    // Every box MENACE drew from changed by the preset's reward; no other did.
    let used: Vec<(usize, usize)> = v["game"]["steps"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| !s["matchbox"].is_null())
        .map(|s| {
            (
                s["matchbox"].as_u64().unwrap() as usize,
                s["bead"].as_u64().unwrap() as usize,
            )
        })
        .collect();
    for i in 0..304 {
        let mut expected = beads(&before, i);
        if let Some(&(_, b)) = used.iter().find(|(m, _)| *m == i) {
            expected[b] = (expected[b] as i64 + net) as u64;
        }
        assert_eq!(beads(&v, i), expected, "box {}", i + 1);
    }
    let saved = t.saves.last.lock().unwrap().clone().unwrap();
    let memory = Memory::from_json(&saved, 0).unwrap();
    assert_eq!(memory.x.games(), 1);
    assert_eq!(memory.x.total_beads(), v["beads"].as_u64().unwrap());
    // A finished game takes no more moves.
    let (status, body) = t
        .call("POST", "/api/menace/move", Some(r#"{"square":0}"#))
        .await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(
        error_of(&body),
        "no game in progress: start a new game first"
    );
}

#[tokio::test]
async fn bad_moves_are_refused_with_one_line() {
    let t = app(Preset::Challenge);
    let (status, body) = t
        .call("POST", "/api/menace/move", Some(r#"{"square":4}"#))
        .await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert!(error_of(&body).contains("no game in progress"));
    let (_, v) = t.call("POST", "/api/menace/new", None).await;
    let taken = v["game"]["steps"][0]["square"].as_u64().unwrap();
    let cases = [
        (
            Some(format!("{{\"square\":{taken}}}")),
            StatusCode::BAD_REQUEST,
            "is already taken",
        ),
        (
            Some(r#"{"square":9}"#.into()),
            StatusCode::BAD_REQUEST,
            "square 9 is off the board: use 0 to 8",
        ),
        (
            Some(r#"{"square":-1}"#.into()),
            StatusCode::BAD_REQUEST,
            "bad request body",
        ),
        (
            Some(r#"{"square":"MM"}"#.into()),
            StatusCode::BAD_REQUEST,
            "bad request body",
        ),
        (
            Some(r#"{"square":4,"x":1}"#.into()),
            StatusCode::BAD_REQUEST,
            "unknown field",
        ),
        (
            Some(r#"{"square":"#.into()),
            StatusCode::BAD_REQUEST,
            "bad request body",
        ),
        (
            Some("{}".into()),
            StatusCode::BAD_REQUEST,
            "missing field `square`",
        ),
    ];
    for (body, status, message) in cases {
        let (got, reply) = t.call("POST", "/api/menace/move", body.as_deref()).await;
        assert_eq!(got, status, "{body:?}: {reply}");
        assert!(error_of(&reply).contains(message), "{body:?}: {reply}");
    }
    // No content type at all.
    let (status, reply) = t.call("POST", "/api/menace/move", None).await;
    assert_eq!(status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    assert!(error_of(&reply).contains("Content-Type"), "{reply}");
    // None of that changed the game.
    let (_, after) = t.call("GET", "/api/menace", None).await;
    assert_eq!(after["game"], v["game"]);
    assert_eq!(t.saves(), 0);
}

#[tokio::test]
async fn a_failed_save_is_reported_and_the_learning_kept() {
    let t = app(Preset::Challenge);
    t.saves.fail.store(true, Ordering::SeqCst);
    let (_, mut v) = t.call("POST", "/api/menace/new", None).await;
    let mut last = (StatusCode::OK, Value::Null);
    while !v["game"]["over"].as_bool().unwrap_or(true) {
        let square = first_empty(&v);
        last = t
            .call(
                "POST",
                "/api/menace/move",
                Some(&format!("{{\"square\":{square}}}")),
            )
            .await;
        if last.0 != StatusCode::OK {
            break;
        }
        v = last.1.clone();
    }
    assert_eq!(last.0, StatusCode::INTERNAL_SERVER_ERROR);
    assert!(error_of(&last.1).starts_with("the game was learned but not saved: cannot write"));
    let (_, v) = t.call("GET", "/api/menace", None).await;
    assert_eq!(v["games"], 1);
}

#[tokio::test]
async fn training_plays_on_its_own_and_blocks_moves_until_stopped() {
    let t = app(Preset::Challenge);
    for (body, message) in [
        (
            r#"{"opponent":"random","speed":0}"#,
            "speed 0 is out of range: use 1 to 100000 games per second",
        ),
        (r#"{"opponent":"random","speed":100001}"#, "out of range"),
        (r#"{"opponent":"god","speed":10}"#, "unknown variant `god`"),
        (r#"{"opponent":"random"}"#, "missing field `speed`"),
    ] {
        let (status, reply) = t.call("POST", "/api/menace/train", Some(body)).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
        assert!(error_of(&reply).contains(message), "{body}: {reply}");
    }
    let (status, v) = t
        .call(
            "POST",
            "/api/menace/train",
            Some(r#"{"opponent":"menace","speed":100000}"#),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["training"], true);
    assert_eq!(v["opponent"], "menace");
    let (status, body) = t.call("POST", "/api/menace/new", None).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(error_of(&body), "MENACE is training: stop training to play");
    let (status, _) = t
        .call("POST", "/api/menace/move", Some(r#"{"square":1}"#))
        .await;
    assert_eq!(status, StatusCode::CONFLICT);
    tokio::time::sleep(Duration::from_millis(1300)).await;
    let (status, v) = t.call("POST", "/api/menace/stop", None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(v["training"], false);
    let games = v["games"].as_u64().unwrap();
    assert!(games > 100, "{games} games");
    let tally = &v["tally"];
    let counted = tally["wins"].as_u64().unwrap()
        + tally["draws"].as_u64().unwrap()
        + tally["losses"].as_u64().unwrap();
    assert_eq!(counted, games);
    let blocks = v["chart"]["blocks"].as_array().unwrap();
    assert!(!blocks.is_empty() && blocks.len() <= 100);
    // The last training game is on show with its boxes.
    assert_eq!(v["game"]["person"], false);
    assert_eq!(v["game"]["over"], true);
    // Stopping saved both machines (the second learner too).
    let saved = Memory::from_json(&t.saves.last.lock().unwrap().clone().unwrap(), 0).unwrap();
    assert_eq!(saved.x.games(), games);
    assert_eq!(saved.o.unwrap().games(), games);
    // Play is allowed again.
    let (status, _) = t.call("POST", "/api/menace/new", None).await;
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test]
async fn events_reach_every_viewer_and_shutdown_saves() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let t = app(Preset::Challenge);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(inarow_web::serve(
        listener,
        t.shared.clone(),
        inarow_web::Options::default(),
        async {
            let _ = stop_rx.await;
        },
    ));
    let mut viewers = Vec::new();
    for _ in 0..3 {
        let mut s = tokio::net::TcpStream::connect(address).await.unwrap();
        let request = format!("GET /api/events HTTP/1.1\r\nHost: {address}\r\n\r\n");
        s.write_all(request.as_bytes()).await.unwrap();
        viewers.push(s);
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    let (status, _) = t.call("POST", "/api/menace/new", None).await;
    assert_eq!(status, StatusCode::OK);
    for s in &mut viewers {
        let mut seen = String::new();
        let mut buf = [0u8; 1024];
        while !seen.contains("data: menace") {
            let n = tokio::time::timeout(Duration::from_secs(5), s.read(&mut buf))
                .await
                .expect("an event within 5 s")
                .unwrap();
            assert!(n > 0, "stream closed: {seen}");
            seen.push_str(&String::from_utf8_lossy(&buf[..n]));
        }
        assert!(seen.contains("text/event-stream"), "{seen}");
        assert!(seen.contains("event: update"), "{seen}");
    }
    stop_tx.send(()).unwrap();
    tokio::time::timeout(Duration::from_secs(5), server)
        .await
        .expect("shut down despite open event streams")
        .unwrap()
        .unwrap();
    assert_eq!(t.saves(), 1, "shutdown saves");
}
