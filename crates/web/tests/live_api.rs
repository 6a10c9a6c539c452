//! Live thinking over the event stream (the game's engine for every
//! viewer, an analysis for its client only) and the engine shared fairly
//! between clients asking for analyses: side by side, one at a time per
//! client, a bounded queue. Events are counted, never timed.

use crate::common;

use axum::http::StatusCode;
use common::{Events, app, app_with_caps, error_of};
use inarow_menace::Preset;
use inarow_web::analyses::Caps;
use serde_json::{Value, json};

/// `n` thinking reports of a stream, checked as one job's: nodes and time
/// never go back, and depth never goes back within one search.
async fn reports(events: &mut Events, n: usize, about: impl Fn(&Value) -> bool) -> Vec<Value> {
    let mut seen: Vec<Value> = Vec::new();
    while seen.len() < n {
        let r = events.thinking().await;
        assert!(about(&r), "a report for something else: {r}");
        if let Some(last) = seen.last() {
            for field in ["nodes", "ms", "search"] {
                assert!(
                    r[field].as_u64() >= last[field].as_u64(),
                    "{field}: {last} then {r}"
                );
            }
            if r["search"] == last["search"] {
                assert!(
                    r["depth"].as_u64() >= last["depth"].as_u64(),
                    "{last} then {r}"
                );
            }
        }
        seen.push(r);
    }
    seen
}

/// Starts a game whose opening the person places, with the engine's time
/// `time_ms`: the third opening stone sets the engine thinking over its
/// answer. The game's id.
async fn engine_answering(t: &common::TestApp, time_ms: u64) -> Value {
    let (status, v) = t
        .post(
            "/api/gomoku/new",
            &json!({"opener": "you", "time_ms": time_ms}).to_string(),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    for (x, y) in [(7, 7), (8, 8), (8, 6)] {
        let (status, v) = t
            .post("/api/gomoku/move", &json!({"x": x, "y": y}).to_string())
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
    }
    v["game_id"].clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_engines_thinking_in_a_game_reaches_every_viewer_as_it_grows() {
    let t = app(Preset::Challenge);
    let mut viewers = [t.events().await, t.events().await];
    let ids = [viewers[0].hello().await, viewers[1].hello().await];
    assert_ne!(ids[0], ids[1], "each stream is a client of its own");
    let game_id = engine_answering(&t, 2000).await;
    for viewer in &mut viewers {
        // The engine searches its answer to the opening: the stage says so.
        let seen = reports(viewer, 4, |r| {
            r["for"] == "game" && r["game_id"] == game_id && r["stage"] == "answer"
        })
        .await;
        let (first, last) = (&seen[0], &seen[seen.len() - 1]);
        assert!(last["nodes"].as_u64() > first["nodes"].as_u64(), "{seen:?}");
        assert!(
            seen.iter().any(|r| r["depth"].as_u64() >= Some(1)),
            "{seen:?}"
        );
        for r in &seen {
            assert!(r["nps"].is_u64() && r["score"].is_i64(), "{r}");
            for p in r["pv"].as_array().unwrap() {
                assert!(p[0].as_u64() < Some(15) && p[1].as_u64() < Some(15), "{r}");
            }
            if r["depth"].as_u64() >= Some(1) {
                assert_eq!(r["best"], r["pv"][0], "{r}");
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_analysis_is_watched_by_its_client_alone() {
    let t = app(Preset::Challenge);
    let (mut mine, mut theirs) = (t.events().await, t.events().await);
    let (me, them) = (mine.hello().await, theirs.hello().await);
    let ask = |client: &str, tag: u64, ms: u64| {
        json!({"stones": [[7, 7], [8, 8]], "lines": 2, "ms": ms, "client": client, "tag": tag})
            .to_string()
    };
    let answer = t.post_later("/api/analyse", &ask(&me, 7, 1500));
    let seen = reports(&mut mine, 3, |r| r["for"] == "analysis" && r["tag"] == 7).await;
    assert!(
        seen[2]["nodes"].as_u64() > seen[0]["nodes"].as_u64(),
        "{seen:?}"
    );
    let (status, v) = answer.await.unwrap();
    assert_eq!(status, StatusCode::OK, "{v}");
    assert!(v["nodes"].as_u64() >= seen[2]["nodes"].as_u64(), "{v}");
    // The other stream heard none of it: its first report is its own
    // analysis's, and reports go out in order.
    let (status, v) = t.post("/api/analyse", &ask(&them, 8, 300)).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let first = theirs.thinking().await;
    assert_eq!(
        (&first["for"], &first["tag"]),
        (&json!("analysis"), &json!(8)),
        "{first}"
    );
    // A request naming no client is answered with no thinking sent.
    let (status, v) = t.post("/api/analyse", r#"{"stones": [], "ms": 50}"#).await;
    assert_eq!(status, StatusCode::OK, "{v}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_long_analysis_holds_no_one_up_and_a_clients_next_replaces_it() {
    let t = app(Preset::Challenge);
    let mut stream = t.events().await;
    let me = stream.hello().await;
    let long = json!({"stones": [[7, 7]], "ms": 10_000, "client": me, "tag": 1}).to_string();
    let long = t.post_later("/api/analyse", &long);
    // Running: its thinking comes.
    stream.thinking().await;
    // Three other clients are answered beside it, at once.
    let mut streams = Vec::new();
    for _ in 0..3 {
        let mut other = t.events().await;
        let id = other.hello().await;
        streams.push((other, id));
    }
    let others: Vec<_> = (0..3)
        .map(|k| {
            let body = json!({"stones": [[7, 7], [k, 0]], "ms": 200, "client": streams[k].1});
            t.post_later("/api/analyse", &body.to_string())
        })
        .collect();
    for other in others {
        let (status, v) = other.await.unwrap();
        assert_eq!(status, StatusCode::OK, "{v}");
    }
    // The client's next question replaces its long one, which is stopped
    // and answered so.
    let next = json!({"stones": [[7, 7], [8, 8]], "ms": 50, "client": me, "tag": 2}).to_string();
    let (status, v) = t.post("/api/analyse", &next).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let (status, v) = long.await.unwrap();
    assert_eq!(status, StatusCode::CONFLICT, "{v}");
    assert_eq!(
        error_of(&v),
        "replaced by a newer analysis from the same client"
    );
    assert_eq!(t.shared.analyses.load(), (0, 0));
}

/// Waits (looking again now and then, never timing) until `t`'s analyses stand at `load`.
async fn until_load(t: &common::TestApp, load: (usize, usize)) {
    while t.shared.analyses.load() != load {
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_queue_is_bounded_and_requests_gone_leave_it() {
    let t = app_with_caps(Caps {
        running: 1,
        waiting: 1,
        // No turn ends while the queue is looked at.
        turn: std::time::Duration::from_secs(3600),
    });
    let slow = r#"{"stones": [[7, 7]], "ms": 10000}"#;
    let running = t.post_later("/api/analyse", slow);
    until_load(&t, (1, 0)).await;
    let waiting = t.post_later("/api/analyse", slow);
    until_load(&t, (1, 1)).await;
    let (status, v) = t.post("/api/analyse", slow).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{v}");
    assert_eq!(
        error_of(&v),
        "the engine's analysis queue is full (1 running, 1 waiting): try again shortly"
    );
    // Both clients go away: the waiting one leaves, the running one stops.
    waiting.abort();
    until_load(&t, (1, 0)).await;
    running.abort();
    until_load(&t, (0, 0)).await;
    let (status, v) = t.post("/api/analyse", r#"{"stones": [], "ms": 20}"#).await;
    assert_eq!(status, StatusCode::OK, "{v}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_clients_holds_no_honest_page_up() {
    let t = app_with_caps(Caps {
        turn: std::time::Duration::from_millis(100),
        ..Caps::default()
    });
    // 60 pages (streams: their ids are the server's) ask for 10 s
    // analyses with the heat map: every place taken, the rest waiting.
    let mut flooders = Vec::new();
    for _ in 0..60 {
        let mut stream = t.events().await;
        let id = stream.hello().await;
        flooders.push((stream, id));
    }
    let flood: Vec<_> = flooders
        .iter()
        .map(|(_, id)| {
            let body = json!({"stones": [[7, 7]], "ms": 10_000, "heat": true, "client": id});
            t.post_later("/api/analyse", &body.to_string())
        })
        .collect();
    // Every one admitted (running or waiting its turn: none refused).
    while t.shared.analyses.admitted() < 60 {
        tokio::task::yield_now().await;
    }
    // An honest page waits its turn, behind all of them, and is answered.
    let mut page = t.events().await;
    let me = page.hello().await;
    let mine = json!({"stones": [[7, 7], [8, 8]], "ms": 50, "client": me}).to_string();
    let (status, v) = t.post("/api/analyse", &mine).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert!(!v["lines"].as_array().unwrap().is_empty(), "{v}");
    // Those ahead of it had their places first (at most 3 still hold
    // one); each answered was cut at its turn's end and answered with what
    // it found, not refused. The rest are dropped (stopped).
    let mut cut = 0;
    for asked in flood {
        if asked.is_finished() {
            let (status, v) = asked.await.unwrap();
            assert_eq!(status, StatusCode::OK, "{v}");
            assert_eq!(v["cut"], true, "{v}");
            cut += 1;
        } else {
            asked.abort();
        }
    }
    assert!(cut >= 50, "{cut} of 60 answered");
    until_load(&t, (0, 0)).await;
}

#[tokio::test]
async fn a_client_no_open_stream_holds_is_refused_in_one_line() {
    let t = app(Preset::Challenge);
    let mut stream = t.events().await;
    let id = stream.hello().await;
    let ask = |client: &str| json!({"stones": [], "ms": 20, "client": client}).to_string();
    let (status, v) = t.post("/api/analyse", &ask(&id)).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    // An id of the client's own choosing, and one whose stream closed.
    drop(stream);
    for client in ["0123456789abcdef0123456789abcdef", &id] {
        let (status, v) = t.post("/api/analyse", &ask(client)).await;
        assert_eq!(status, StatusCode::CONFLICT, "{v}");
        assert_eq!(
            error_of(&v),
            "client names no open event stream: use the id of the page's stream (its hello event)"
        );
    }
}

#[tokio::test]
async fn a_bad_client_or_tag_is_one_line() {
    let t = app(Preset::Challenge);
    let (status, v) = t
        .post("/api/analyse", r#"{"stones": [], "client": "a b"}"#)
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
    assert!(error_of(&v).starts_with("client must be 1 to 64 letters"));
    let long = json!({"stones": [], "client": "x".repeat(65)}).to_string();
    let (status, _) = t.post("/api/analyse", &long).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    for body in [
        r#"{"stones": [], "tag": -1}"#,
        r#"{"stones": [], "tag": "x"}"#,
        r#"{"stones": [], "client": 5}"#,
    ] {
        let (status, v) = t.post("/api/analyse", body).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {v}");
        error_of(&v);
    }
}

/// A game that ends while the engine thinks over it (a new game, a
/// resignation) stops the engine there: the viewers hear that its think
/// stopped, and the next game's engine does not wait for the old time to
/// run out.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_that_ends_stops_the_engines_think_over_it() {
    let t = app(Preset::Challenge);
    let mut viewer = t.events().await;
    viewer.hello().await;
    for end in ["new game", "resign"] {
        // The engine thinks over its answer, for up to 10 s.
        let game_id = engine_answering(&t, 10_000).await;
        let first = viewer.thinking().await;
        assert_eq!(first["game_id"], game_id, "{first}");
        let (status, v) = if end == "new game" {
            t.post(
                "/api/gomoku/new",
                r#"{"start":"free","colour":"white","time_ms":100}"#,
            )
            .await
        } else {
            t.post("/api/gomoku/resign", "{}").await
        };
        assert_eq!(status, StatusCode::OK, "{end}: {v}");
        // Reports of the old think may still be on their way; then its end.
        loop {
            let r = viewer.thinking().await;
            if r["stopped"] == json!(true) {
                assert_eq!(r["game_id"], game_id, "{end}: {r}");
                break;
            }
            assert_eq!(r["game_id"], game_id, "{end}: nothing else thinks yet: {r}");
        }
    }
    // The resigned game stays as it was: the stopped think's answer is
    // for no game.
    let (status, v) = t.call("GET", "/api/gomoku", None).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["resigned"], json!(true), "{v}");
    assert_eq!(v["stones"].as_array().map(Vec::len), Some(3), "{v}");
}
