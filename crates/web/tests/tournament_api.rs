//! The tournament endpoints over two copies of the random Python example bot.

use crate::common;

use std::fs;
use std::path::Path;
use std::time::{Duration, Instant};

use axum::http::StatusCode;
use common::{app, app_with_bots, app_with_records, error_of};
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
        (
            r#"{"seed":-3}"#,
            "seed -3 is not a whole number from 0 to 18446744073709551615",
        ),
        (
            r#"{"seed":"18446744073709551616"}"#,
            "seed \"18446744073709551616\" is not a whole number",
        ),
        (r#"{"seed":"12a"}"#, "seed \"12a\" is not a whole number"),
        (r#"{"seed":"+5"}"#, "seed \"+5\" is not a whole number"),
        (r#"{"seed":1.5}"#, "seed 1.5 is not a whole number"),
        (r#"{"seed":true}"#, "seed true is not a whole number"),
        (r#"{"rounds":2}"#, "unknown field `rounds`"),
    ] {
        let (status, reply) = t.post("/api/tournament/start", body).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
        assert!(error_of(&reply).contains(message), "{body}: {reply}");
    }
    let (status, v) = t
        .post(
            "/api/tournament/start",
            r#"{"seed":5,"jobs":2,"timeout_ms":5000}"#,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["running"], true);
    assert_eq!(v["run"]["bots"], serde_json::json!(["alice", "bob"]));
    assert_eq!(v["run"]["total"], 2);
    let (status, reply) = t.post("/api/tournament/start", "{}").await;
    if status != StatusCode::OK {
        assert_eq!(status, StatusCode::CONFLICT);
        assert_eq!(
            error_of(&reply),
            "a tournament is already running: wait for it to end"
        );
    }
    let v = finished(&t).await;
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
    // Seeds past 2^53 come and go as strings, exactly; "" picks a fresh one.
    let big = "8059172584571767658";
    let (status, v) = t
        .post(
            "/api/tournament/start",
            &format!(r#"{{"seed":"{big}","timeout_ms":5000}}"#),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["run"]["seed"], big);
    assert_eq!(finished(&t).await["run"]["seed"], big);
    let (status, v) = t
        .post("/api/tournament/start", r#"{"seed":" ","timeout_ms":5000}"#)
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let fresh = v["run"]["seed"].as_str().unwrap().to_string();
    assert!(fresh.parse::<u64>().is_ok(), "{fresh}");
    assert_eq!(finished(&t).await["run"]["seed"], fresh.as_str());
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
    let (status, body) = t.post("/api/tournament/start", "{}").await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert!(
        error_of(&body).starts_with("cannot start a tournament: "),
        "{body}"
    );
    let dir = tempfile::tempdir().unwrap();
    let t = app_with_bots(Preset::Challenge, dir.path().to_path_buf());
    let (status, body) = t.post("/api/tournament/start", "{}").await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert!(error_of(&body).contains("holds 0 bot(s)"), "{body}");
}

#[tokio::test]
async fn a_run_writes_results_and_sgf_like_the_judge_and_replays_after_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let bots_dir = dir.path().join("bots");
    bots(&bots_dir);
    let records = inarow_web::tournament::Records {
        results: dir.path().join("out/results.json"),
        sgf: dir.path().join("out/sgf"),
    };
    // No folder to write the results in: refused before any game.
    let t = app_with_records(Preset::Challenge, bots_dir.clone(), Some(records.clone()));
    let (status, body) = t.post("/api/tournament/start", "{}").await;
    assert_eq!(status, StatusCode::CONFLICT);
    let message = error_of(&body);
    assert!(
        message.starts_with("cannot start a tournament: cannot write the results to "),
        "{message}"
    );
    fs::create_dir_all(dir.path().join("out")).unwrap();
    let (status, v) = t
        .post("/api/tournament/start", r#"{"seed":9,"timeout_ms":5000}"#)
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let v = finished(&t).await;
    let saved = v["run"]["saved"].as_str().unwrap();
    assert!(saved.starts_with("results in "), "{v}");
    let results: inarow_judge::Results =
        serde_json::from_str(&fs::read_to_string(&records.results).unwrap()).unwrap();
    assert_eq!(results.seed, 9);
    assert_eq!(results.bots, ["alice", "bob"]);
    assert_eq!(results.games.len(), 2);
    let mut sgf: Vec<_> = fs::read_dir(&records.sgf)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    sgf.sort();
    assert_eq!(
        sgf,
        ["game-0000-alice-vs-bob.sgf", "game-0001-bob-vs-alice.sgf"]
    );
    let text = fs::read_to_string(records.sgf.join(&sgf[0])).unwrap();
    assert_eq!(text, inarow_judge::sgf::sgf(&results.games[0]));

    // A restarted server shows the run and replays its games.
    let t = app_with_records(Preset::Challenge, bots_dir, Some(records.clone()));
    let (_, again) = t.call("GET", "/api/tournament", None).await;
    assert_eq!(again["running"], false);
    let run = &again["run"];
    assert_eq!(run["restored"], records.results.display().to_string());
    assert_eq!(run["seed"], "9");
    assert_eq!(run["played"], 2);
    assert_eq!(run["total"], 2);
    assert_eq!(run["standings"], v["run"]["standings"]);
    assert_eq!(run["games"], v["run"]["games"]);
    let (status, record) = t.call("GET", "/api/tournament/games/1", None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(record, serde_json::to_value(&results.games[1]).unwrap());
}

/// The names of the entries of `folder`, sorted.
fn names_in(folder: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(folder)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}

#[tokio::test]
async fn a_run_never_writes_over_earlier_results_and_says_where_it_writes() {
    let dir = tempfile::tempdir().unwrap();
    let bots_dir = dir.path().join("bots");
    bots(&bots_dir);
    let out = dir.path().join("out");
    fs::create_dir_all(&out).unwrap();
    let records = inarow_web::tournament::Records {
        results: out.join("results.json"),
        sgf: out.join("sgf"),
    };
    // An earlier tournament's files (here `inarow judge`'s, by hand).
    fs::write(&records.results, "an earlier tournament").unwrap();
    fs::create_dir_all(&records.sgf).unwrap();
    fs::write(records.sgf.join("game-0000-x-vs-y.sgf"), "(;)").unwrap();
    let t = app_with_records(Preset::Challenge, bots_dir.clone(), Some(records.clone()));
    let mut seen = Vec::new();
    for (seed, n) in [(4, 2), (5, 3)] {
        let (status, v) = t
            .post(
                "/api/tournament/start",
                &format!(r#"{{"seed":{seed},"timeout_ms":5000}}"#),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let results = out.join(format!("results-{n}.json"));
        let sgf = out.join(format!("sgf-{n}"));
        // Said from the start, before any file is written.
        assert_eq!(
            v["run"]["writes"],
            serde_json::json!({
                "results": results.display().to_string(),
                "sgf": sgf.display().to_string(),
                "numbered": true,
            })
        );
        let v = finished(&t).await;
        assert_eq!(
            v["run"]["saved"],
            format!(
                "results in {}, SGF records in {}",
                results.display(),
                sgf.display()
            )
        );
        let written: inarow_judge::Results =
            serde_json::from_str(&fs::read_to_string(&results).unwrap()).unwrap();
        assert_eq!(written.seed, seed);
        assert_eq!(names_in(&sgf).len(), 2);
        seen.push(v);
    }
    // The earlier files are as they were.
    assert_eq!(
        fs::read_to_string(&records.results).unwrap(),
        "an earlier tournament"
    );
    assert_eq!(names_in(&records.sgf), ["game-0000-x-vs-y.sgf"]);
    assert_eq!(
        names_in(&out),
        [
            "results-2.json",
            "results-3.json",
            "results.json",
            "sgf",
            "sgf-2",
            "sgf-3"
        ]
    );
    // A restarted server reads back the newest.
    let t = app_with_records(Preset::Challenge, bots_dir.clone(), Some(records.clone()));
    let (_, again) = t.call("GET", "/api/tournament", None).await;
    let newest = out.join("results-3.json");
    assert_eq!(again["run"]["restored"], newest.display().to_string());
    assert_eq!(again["run"]["seed"], "5");
    assert_eq!(again["run"]["games"], seen[1]["run"]["games"]);

    // With no earlier files, the given names, not numbered.
    let fresh = inarow_web::tournament::Records {
        results: dir.path().join("fresh.json"),
        sgf: dir.path().join("fresh-sgf"),
    };
    let t = app_with_records(Preset::Challenge, bots_dir, Some(fresh.clone()));
    let (status, v) = t
        .post("/api/tournament/start", r#"{"seed":6,"timeout_ms":5000}"#)
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["run"]["writes"]["numbered"], false);
    assert_eq!(
        v["run"]["writes"]["results"],
        fresh.results.display().to_string()
    );
    finished(&t).await;
    assert!(fresh.results.exists());
}

/// A game lost before its first stone names who forfeited and why: it has
/// no colours for the page to show and no stone to replay.
#[tokio::test]
async fn a_game_forfeited_before_any_stone_names_who_and_why() {
    let dir = tempfile::tempdir().unwrap();
    bots(dir.path());
    // A bot that leaves at once, before its first answer.
    fs::remove_dir_all(dir.path().join("bob")).unwrap();
    let mute = dir.path().join("mute");
    fs::create_dir_all(&mute).unwrap();
    fs::write(mute.join("bot.py"), "import sys\nsys.exit(0)\n").unwrap();
    fs::write(mute.join("meta"), "mute\npython3\nbot.py\n0\n").unwrap();
    let t = app_with_bots(Preset::Challenge, dir.path().to_path_buf());
    let (status, v) = t
        .post("/api/tournament/start", r#"{"seed":2,"timeout_ms":5000}"#)
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let v = finished(&t).await;
    let games = v["run"]["games"].as_array().unwrap();
    assert_eq!(games.len(), 2, "{v}");
    for game in games {
        assert_eq!(game["forfeit_by"], "mute", "{game}");
        assert_eq!(game["winner"], "alice", "{game}");
        assert!(
            game["forfeit"]
                .as_str()
                .unwrap()
                .starts_with("EOF: closed its output"),
            "{game}"
        );
        if game["stones"] == 0 {
            // Forfeited in the opening: no colours yet.
            assert!(game["black"].is_null() && game["white"].is_null(), "{game}");
        }
    }
    // mute opens one game itself: it leaves before its first stone.
    assert!(games.iter().any(|g| g["stones"] == 0), "{v}");
}

#[tokio::test]
async fn a_bad_bot_is_left_out_and_the_others_play() {
    let dir = tempfile::tempdir().unwrap();
    let bots_dir = dir.path().join("bots");
    bots(&bots_dir);
    // A command out of its folder, and a name two folders give.
    for (folder, meta) in [
        ("evil", "evil\n../alice/bot.py\n\n0\n"),
        ("twin", "same\npython3\nbot.py\n0\n"),
        ("twin2", "same\npython3\nbot.py\n0\n"),
    ] {
        fs::create_dir_all(bots_dir.join(folder)).unwrap();
        fs::write(bots_dir.join(folder).join("meta"), meta).unwrap();
    }
    let records = inarow_web::tournament::Records {
        results: dir.path().join("results.json"),
        sgf: dir.path().join("sgf"),
    };
    let t = app_with_records(Preset::Challenge, bots_dir.clone(), Some(records.clone()));
    let (status, v) = t
        .post("/api/tournament/start", r#"{"seed":3,"timeout_ms":5000}"#)
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["run"]["bots"], serde_json::json!(["alice", "bob"]));
    let left = v["run"]["left_out"].as_array().unwrap();
    assert_eq!(left.len(), 3, "{v}");
    assert_eq!(left[0]["folder"], "evil");
    assert!(
        left[0]["reason"]
            .as_str()
            .unwrap()
            .contains("\"../alice/bot.py\""),
        "{v}"
    );
    assert_eq!(left[1]["folder"], "twin");
    assert_eq!(left[2]["folder"], "twin2");
    assert!(
        left[2]["reason"]
            .as_str()
            .unwrap()
            .contains("also given by the bot in folder twin: both are left out"),
        "{v}"
    );
    let v = finished(&t).await;
    assert_eq!(v["run"]["played"], 2);
    let results: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&records.results).unwrap()).unwrap();
    assert_eq!(results["left_out"], v["run"]["left_out"]);
    assert_eq!(results["bots"], serde_json::json!(["alice", "bob"]));

    // With one good bot left, no run: one line naming the rest.
    fs::remove_dir_all(bots_dir.join("bob")).unwrap();
    let (status, body) = t.post("/api/tournament/start", "{}").await;
    assert_eq!(status, StatusCode::CONFLICT);
    let message = error_of(&body);
    assert!(
        message.contains("holds 1 bot(s) that can play") && message.contains("evil: meta: line 2"),
        "{message}"
    );
}

#[tokio::test]
async fn an_unreadable_results_file_is_no_past_run() {
    let dir = tempfile::tempdir().unwrap();
    let records = inarow_web::tournament::Records {
        results: dir.path().join("results.json"),
        sgf: dir.path().join("sgf"),
    };
    fs::write(&records.results, "not json").unwrap();
    let t = app_with_records(Preset::Challenge, dir.path().to_path_buf(), Some(records));
    let (status, v) = t.call("GET", "/api/tournament", None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(v["run"].is_null(), "{v}");
}

/// The tournament's view once its run has ended (within a minute).
async fn finished(t: &common::TestApp) -> serde_json::Value {
    let start = Instant::now();
    loop {
        let (_, v) = t.call("GET", "/api/tournament", None).await;
        if v["running"] == false {
            return v;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "still running: {v}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
