//! The MENACE endpoints, the page, errors and live updates.

use crate::common;

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

/// Every file of `crates/web/page/` is a module the page reaches from
/// `main.js`, served as JavaScript; no other name is served.
#[tokio::test]
async fn the_page_loads_its_modules_and_each_one_they_import() {
    use axum::body::Body;
    use axum::http::{Request, header};
    use http_body_util::BodyExt;
    use tower::ServiceExt;

    let t = app(Preset::Challenge);
    let (_, page) = t.call("GET", "/", None).await;
    assert!(
        page.as_str()
            .unwrap()
            .contains(r#"<script type="module" src="/page/main.js"></script>"#)
    );
    let mut reached = std::collections::BTreeSet::new();
    let mut next = vec!["main.js".to_string()];
    while let Some(file) = next.pop() {
        if !reached.insert(file.clone()) {
            continue;
        }
        let req = Request::get(format!("/page/{file}"))
            .body(Body::empty())
            .unwrap();
        let res = t.router.clone().oneshot(req).await.unwrap();
        assert_eq!(res.status(), StatusCode::OK, "{file}");
        assert_eq!(
            res.headers()[header::CONTENT_TYPE],
            "text/javascript; charset=utf-8",
            "{file}"
        );
        let text = res.into_body().collect().await.unwrap().to_bytes();
        for line in String::from_utf8(text.to_vec()).unwrap().lines() {
            if let Some(rest) = line.strip_prefix("import ") {
                let (_, name) = rest
                    .split_once("\"./")
                    .unwrap_or_else(|| panic!("{file}: an import not of a page file: {line}"));
                next.push(name.trim_end_matches("\";").to_string());
            }
        }
    }
    let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("page");
    let files: std::collections::BTreeSet<String> = std::fs::read_dir(folder)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|name| name.ends_with(".js"))
        .collect();
    assert_eq!(reached, files);
    for path in ["/page/nothing.js", "/page/%2e%2e%2fCargo.toml", "/page/"] {
        let (status, body) = t.call("GET", path, None).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}");
        assert!(error_of(&body).starts_with("no such "), "{path}: {body}");
    }
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
    // The seed as a string, digit for digit (the test app is seeded 7).
    assert_eq!(v["seed"], "7");
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
    let (status, body) = t.post("/api/menace/move", r#"{"square":0}"#).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(
        error_of(&body),
        "no game in progress: start a new game first"
    );
}

#[tokio::test]
async fn bad_moves_are_refused_with_one_line() {
    let t = app(Preset::Challenge);
    let (status, body) = t.post("/api/menace/move", r#"{"square":4}"#).await;
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
        let (status, reply) = t.post("/api/menace/train", body).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
        assert!(error_of(&reply).contains(message), "{body}: {reply}");
    }
    // No second MENACE until one is trained against.
    let (_, v) = t.call("GET", "/api/menace", None).await;
    assert!(v["second"].is_null(), "{}", v["second"]);
    let (status, v) = t
        .post(
            "/api/menace/train",
            r#"{"opponent":"menace","speed":100000}"#,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["training"], true);
    assert_eq!(v["opponent"], "menace");
    let (status, body) = t.call("POST", "/api/menace/new", None).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(error_of(&body), "MENACE is training: stop training to play");
    let (status, _) = t.post("/api/menace/move", r#"{"square":1}"#).await;
    assert_eq!(status, StatusCode::CONFLICT);
    wait_for_games(&t, 101).await;
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
    let second = saved.o.unwrap();
    assert_eq!(second.games(), games);
    // The page sees the second MENACE's boxes (it plays O), grouped by its
    // move, with the beads it was saved with.
    let shown = v["second"].as_array().unwrap();
    assert_eq!(shown.len(), second.boxes().len());
    for (box_view, stored) in shown.iter().zip(second.boxes()) {
        assert_eq!(box_view["beads"], serde_json::json!(stored.beads()));
        let image = box_view["image"].as_str().unwrap();
        assert_eq!(image.len(), 9);
        assert!(image.matches('X').count() > image.matches('O').count());
    }
    assert_eq!(shown[0]["move"], 1);
    // Play is allowed again.
    let (status, _) = t.call("POST", "/api/menace/new", None).await;
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test]
async fn events_reach_every_viewer_and_shutdown_saves() {
    use tokio::io::AsyncWriteExt;
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
        viewers.push((s, String::new()));
    }
    // A stream says hello once it listens: every change after is heard.
    for (s, seen) in &mut viewers {
        read_until(s, seen, |seen| seen.contains("event: hello")).await;
    }
    // Each part's change is named as the page's live updates know it.
    let (status, _) = t.call("POST", "/api/menace/new", None).await;
    assert_eq!(status, StatusCode::OK);
    let (status, _) = t
        .post("/api/gomoku/new", r#"{"opener":"you","time_ms":50}"#)
        .await;
    assert_eq!(status, StatusCode::OK);
    for (s, seen) in &mut viewers {
        read_until(s, seen, |seen| {
            seen.contains("data: menace") && seen.contains("data: gomoku")
        })
        .await;
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

/// Reads `s` onto `seen` until `enough` holds (an event within 5 s each,
/// else the server has failed the test).
async fn read_until(
    s: &mut tokio::net::TcpStream,
    seen: &mut String,
    enough: impl Fn(&str) -> bool,
) {
    use tokio::io::AsyncReadExt;
    let mut buf = [0u8; 1024];
    while !enough(seen) {
        let n = tokio::time::timeout(Duration::from_secs(5), s.read(&mut buf))
            .await
            .expect("an event within 5 s")
            .unwrap();
        assert!(n > 0, "stream closed: {seen}");
        seen.push_str(&String::from_utf8_lossy(&buf[..n]));
    }
}

/// Waits until the training under way has played at least `games` games,
/// as the view tells it: the test counts games, not milliseconds (the
/// deadline only keeps a broken server from hanging the test).
async fn wait_for_games(t: &common::TestApp, games: u64) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(300);
    loop {
        let (status, v) = t.call("GET", "/api/menace", None).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        if v["games"].as_u64().is_some_and(|n| n >= games) {
            return;
        }
        assert!(v["training"] == true, "training stopped early: {v}");
        assert!(
            tokio::time::Instant::now() < deadline,
            "fewer than {games} games: {v}"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// Trains against a random player until it has played at least `games`
/// games and stops; the view after stopping.
async fn train_for(t: &common::TestApp, games: u64) -> Value {
    let (status, v) = t
        .post(
            "/api/menace/train",
            r#"{"opponent":"random","speed":100000}"#,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    wait_for_games(t, games).await;
    let (status, v) = t.call("POST", "/api/menace/stop", None).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    v
}

#[tokio::test]
async fn the_view_carries_the_real_settings() {
    let t = app(Preset::Michie);
    let (_, v) = t.call("GET", "/api/menace", None).await;
    let s = &v["settings"];
    assert_eq!(s["preset"], "michie");
    assert_eq!(s["rules"]["start"], serde_json::json!([4, 3, 2, 1]));
    assert_eq!(
        (s["rules"]["win"].as_i64(), s["rules"]["loss"].as_i64()),
        (Some(3), Some(-1))
    );
    assert_eq!(
        (s["opponent"].as_str(), s["speed"].as_u64()),
        (Some("random"), Some(10))
    );
    assert_eq!(s["training"], false);
    let names: Vec<_> = s["presets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].clone())
        .collect();
    assert_eq!(names, ["challenge", "michie", "scroggs"]);
    assert_eq!(
        s["presets"][2]["rules"]["start"],
        serde_json::json!([8, 4, 2, 1])
    );
}

#[tokio::test]
async fn the_speed_and_opponent_are_shared_without_training() {
    let t = app(Preset::Challenge);
    let (status, v) = t
        .post(
            "/api/menace/trainer",
            r#"{"opponent":"perfect","speed":100000}"#,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    // Another viewer loading the page sees what was set, and nothing runs.
    let (_, v) = t.call("GET", "/api/menace", None).await;
    assert_eq!(v["settings"]["speed"], 100000);
    assert_eq!(v["settings"]["opponent"], "perfect");
    assert_eq!(v["speed"], 100000);
    assert_eq!(v["training"], false);
    // Blocks of the recent chart follow the speed.
    assert_eq!(v["chart"]["recent"]["block"], 65536);
    let (status, body) = t
        .post("/api/menace/trainer", r#"{"opponent":"perfect","speed":0}"#)
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        error_of(&body),
        "speed 0 is out of range: use 1 to 100000 games per second"
    );
    // One setting alone keeps the other: a viewer changing the speed cannot
    // undo another's change of opponent.
    let (status, v) = t.post("/api/menace/trainer", r#"{"speed":1000}"#).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["settings"]["opponent"], "perfect");
    assert_eq!(v["settings"]["speed"], 1000);
    let (status, v) = t
        .post("/api/menace/trainer", r#"{"opponent":"random"}"#)
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["settings"]["opponent"], "random");
    assert_eq!(v["settings"]["speed"], 1000);
    let (status, body) = t
        .post("/api/menace/trainer", r#"{"speed":1000,"colour":"red"}"#)
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(error_of(&body).contains("colour"), "{body}");
    assert_eq!(t.saves(), 0);
}

#[tokio::test]
async fn rewards_change_what_a_game_pays_back_and_are_saved() {
    let t = app(Preset::Michie);
    let (status, v) = t
        .post("/api/menace/rewards", r#"{"win":7,"draw":2,"loss":0}"#)
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["settings"]["rules"]["win"], 7);
    assert_eq!(
        v["settings"]["rules"]["start"],
        serde_json::json!([4, 3, 2, 1])
    );
    assert_eq!(t.saves(), 1);
    let saved = Memory::from_json(&t.saves.last.lock().unwrap().clone().unwrap(), 0).unwrap();
    assert_eq!(
        (
            saved.x.rules().win,
            saved.x.rules().draw,
            saved.x.rules().loss
        ),
        (7, 2, 0)
    );
    // A whole game pays the new rewards: a loss now puts the bead back.
    let (_, before) = t.call("GET", "/api/menace", None).await;
    let (_, mut v) = t.call("POST", "/api/menace/new", None).await;
    v = play_out(&t, v).await;
    let back = match v["game"]["outcome"].as_str().unwrap() {
        "win" => 7,
        "draw" => 2,
        _ => 0,
    };
    let first = v["game"]["steps"][0]["bead"].as_u64().unwrap() as usize;
    assert_eq!(beads(&v, 0)[first], beads(&before, 0)[first] + back);
    for (body, error) in [
        (
            r#"{"win":7,"draw":2,"loss":-2}"#,
            "loss reward -2 is out of range: use -1 to 1000 beads per drawn bead",
        ),
        (r#"{"win":7,"draw":2}"#, "missing field `loss`"),
        (
            r#"{"win":7,"draw":2,"loss":0,"bonus":1}"#,
            "unknown field `bonus`",
        ),
    ] {
        let (status, e) = t.post("/api/menace/rewards", body).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert!(error_of(&e).contains(error), "{e}");
    }
}

#[tokio::test]
async fn reset_gives_fresh_boxes_of_the_chosen_preset() {
    let t = app(Preset::Challenge);
    let v = train_for(&t, 20).await;
    assert!(v["games"].as_u64().unwrap() > 0);
    let saves = t.saves();
    let (status, v) = t
        .post(
            "/api/menace/reset",
            r#"{"preset":"scroggs","start":[9,5,3,2],"win":4}"#,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(t.saves(), saves + 1);
    assert_eq!(
        (v["games"].as_u64(), v["preset"].as_str()),
        (Some(0), Some("scroggs"))
    );
    assert_eq!(
        v["settings"]["rules"],
        serde_json::json!({"start": [9, 5, 3, 2], "win": 4, "draw": 1, "loss": -1})
    );
    // Scroggs merges the symmetric moves of the empty board: 3 colours of 9 beads.
    assert_eq!(beads(&v, 0).iter().sum::<u64>(), 27);
    assert!(v["chart"]["blocks"].as_array().unwrap().is_empty());
    assert_eq!(v["tally"]["wins"], 0);
    let saved = Memory::from_json(&t.saves.last.lock().unwrap().clone().unwrap(), 0).unwrap();
    assert_eq!((saved.preset(), saved.x.games()), (Preset::Scroggs, 0));
    // Refused while training, and for numbers that cannot be played.
    t.post("/api/menace/train", r#"{"opponent":"random","speed":10}"#)
        .await;
    let (status, e) = t.post("/api/menace/reset", r#"{"preset":"michie"}"#).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(
        error_of(&e),
        "MENACE is training: stop training to reset the boxes"
    );
    t.call("POST", "/api/menace/stop", None).await;
    for (body, error) in [
        (
            r#"{"preset":"michie","start":[0,1,1,1]}"#,
            "start beads 0 is out of range: use 1 to 1000 per colour",
        ),
        (r#"{"preset":"fast"}"#, "unknown variant `fast`"),
        (r#"{}"#, "missing field `preset`"),
    ] {
        let (status, e) = t.post("/api/menace/reset", body).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
        assert!(error_of(&e).contains(error), "{e}");
    }
}

#[tokio::test]
async fn the_state_downloads_as_the_saved_file() {
    let t = app(Preset::Michie);
    train_for(&t, 10).await;
    let res = tower::ServiceExt::oneshot(
        t.router.clone(),
        axum::http::Request::get("/api/menace/state")
            .body(axum::body::Body::empty())
            .unwrap(),
    )
    .await
    .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(res.headers()["content-type"], "application/json");
    assert!(
        res.headers()["content-disposition"]
            .to_str()
            .unwrap()
            .contains("menace.json")
    );
    let (_, v) = t.call("GET", "/api/menace/state", None).await;
    assert_eq!(v["format"], "inarow-menace");
    let text = serde_json::to_string(&v).unwrap();
    let memory = Memory::from_json(&text, 0).unwrap();
    assert_eq!(
        memory.x.games(),
        t.shared.menace.lock().unwrap().memory().x.games()
    );
}

#[tokio::test]
async fn the_curve_survives_a_restart_and_marks_opponent_changes() {
    let t = app(Preset::Challenge);
    let (_, v) = t.call("POST", "/api/menace/new", None).await;
    assert_eq!(
        v["chart"]["marks"][0],
        serde_json::json!({"game": 1, "opponent": "you"})
    );
    let v = train_for(&t, 20).await;
    let marks = v["chart"]["marks"].as_array().unwrap();
    assert_eq!(marks.len(), 2, "{marks:?}");
    assert_eq!(marks[1]["opponent"], "random");
    let games = v["games"].as_u64().unwrap();
    let blocks = v["chart"]["blocks"].clone();
    assert!(!blocks.as_array().unwrap().is_empty());
    // The server stops; a new one loads the saved file.
    let saved = t.saves.last.lock().unwrap().clone().unwrap();
    let again = common::app_with(Memory::from_json(&saved, 7).unwrap(), "/nonexistent".into());
    let (_, w) = again.call("GET", "/api/menace", None).await;
    assert_eq!(w["games"].as_u64(), Some(games));
    assert_eq!(w["chart"]["blocks"], blocks);
    assert_eq!(w["chart"]["block"], v["chart"]["block"]);
    assert_eq!(w["chart"]["before"], 0);
    assert_eq!(w["tally"], v["tally"]);
    let counted: u64 = ["wins", "draws", "losses"]
        .iter()
        .map(|k| w["tally"][k].as_u64().unwrap())
        .sum();
    assert_eq!(counted, games);
}

#[tokio::test]
async fn results_read_the_same_for_people_and_training() {
    let t = app(Preset::Challenge);
    let (_, mut v) = t.call("POST", "/api/menace/new", None).await;
    v = play_out(&t, v).await;
    let expect = |outcome: &str, other: &str| match outcome {
        "win" => "MENACE wins".to_string(),
        "draw" => "draw".to_string(),
        _ => other.to_string(),
    };
    let line = v["game"]["result"].as_str().unwrap();
    assert!(
        line.ends_with(&expect(v["game"]["outcome"].as_str().unwrap(), "you win")),
        "{line}"
    );
    let v = train_for(&t, 10).await;
    let line = v["game"]["result"].as_str().unwrap();
    assert!(
        line.ends_with(&expect(
            v["game"]["outcome"].as_str().unwrap(),
            "opponent wins"
        )),
        "{line}"
    );
}

/// Plays the first empty square until the game `v` is over; the last view.
async fn play_out(t: &common::TestApp, mut v: Value) -> Value {
    while !v["game"]["over"].as_bool().unwrap() {
        let square = first_empty(&v);
        v = t
            .post("/api/menace/move", &format!("{{\"square\":{square}}}"))
            .await
            .1;
    }
    v
}
