//! The tournament endpoints over two copies of the random Python example bot.

mod common;

use std::fs;
use std::path::Path;
use std::time::{Duration, Instant};

use axum::http::StatusCode;
use common::{app, app_with_bots, error_of};
use inarow_menace::Preset;

fn bots(dir: &Path) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../bots/random-python/bot.py");
    for name in ["alice", "bob"] {
        let folder = dir.join(name);
        fs::create_dir_all(&folder).unwrap();
        fs::write(
            folder.join("meta"),
            format!("{name}\npython3\n{}\n0\n", script.display()),
        )
        .unwrap();
    }
}

#[tokio::test]
async fn a_tournament_runs_to_standings_and_its_games_replay() {
    let dir = tempfile::tempdir().unwrap();
    bots(dir.path());
    let t = app_with_bots(Preset::Challenge, dir.path().to_path_buf());
    let (status, v) = t.call("GET", "/api/tournament", None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(v["running"], false);
    assert!(v["run"].is_null());
    for (body, message) in [
        (r#"{"jobs":0}"#, "jobs 0 is out of range: use 1 to 8"),
        (
            r#"{"timeout_ms":5}"#,
            "timeout 5 ms is out of range: use 100 to 60000 ms per answer",
        ),
        (r#"{"seed":-3}"#, "bad request body"),
        (r#"{"rounds":2}"#, "unknown field `rounds`"),
    ] {
        let (status, reply) = t.call("POST", "/api/tournament/start", Some(body)).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
        assert!(error_of(&reply).contains(message), "{body}: {reply}");
    }
    let (status, v) = t
        .call(
            "POST",
            "/api/tournament/start",
            Some(r#"{"seed":5,"jobs":2,"timeout_ms":5000}"#),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["running"], true);
    assert_eq!(v["run"]["bots"], serde_json::json!(["alice", "bob"]));
    assert_eq!(v["run"]["total"], 2);
    let (status, reply) = t.call("POST", "/api/tournament/start", Some("{}")).await;
    if status != StatusCode::OK {
        assert_eq!(status, StatusCode::CONFLICT);
        assert_eq!(
            error_of(&reply),
            "a tournament is already running: wait for it to end"
        );
    }
    let start = Instant::now();
    let v = loop {
        let (_, v) = t.call("GET", "/api/tournament", None).await;
        if v["running"] == false {
            break v;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "still running: {v}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let run = &v["run"];
    assert_eq!(run["played"], 2);
    assert!(run["live"].as_array().unwrap().is_empty());
    let standings = run["standings"].as_array().unwrap();
    assert_eq!(standings.len(), 2);
    let points: u64 = standings
        .iter()
        .map(|s| s["points"].as_u64().unwrap())
        .sum();
    assert_eq!(points, 4, "2 points per game: {standings:?}");
    for game in run["games"].as_array().unwrap() {
        let index = game["index"].as_u64().unwrap();
        let (status, record) = t
            .call("GET", &format!("/api/tournament/games/{index}"), None)
            .await;
        assert_eq!(status, StatusCode::OK);
        let stones = record["stones"].as_array().unwrap();
        assert_eq!(stones.len() as u64, game["stones"].as_u64().unwrap());
        assert!(stones.len() >= 3, "{record}");
        assert_eq!(record["winner"], game["winner"]);
    }
    let (status, body) = t.call("GET", "/api/tournament/games/99", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(
        error_of(&body),
        "no finished game 99 in the current tournament"
    );
    let (status, body) = t.call("GET", "/api/tournament/games/x1", None).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        error_of(&body),
        "\"x1\" is not a game number: use 0, 1, 2, ..."
    );
}

#[tokio::test]
async fn a_folder_without_two_bots_is_refused() {
    let t = app(Preset::Challenge);
    let (status, body) = t.call("POST", "/api/tournament/start", Some("{}")).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert!(
        error_of(&body).starts_with("cannot start a tournament: "),
        "{body}"
    );
    let dir = tempfile::tempdir().unwrap();
    let t = app_with_bots(Preset::Challenge, dir.path().to_path_buf());
    let (status, body) = t.call("POST", "/api/tournament/start", Some("{}")).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert!(error_of(&body).contains("holds 0 bot(s)"), "{body}");
}
