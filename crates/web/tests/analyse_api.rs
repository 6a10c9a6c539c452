//! `POST /api/analyse`: the best lines of any position, and one-line
//! refusals of bad ones.

use crate::common;

use axum::http::StatusCode;
use common::{app, error_of};
use inarow_menace::Preset;
use serde_json::{Value, json};

const DECIDED: i64 = 1_000_000 - 1000;

#[tokio::test]
async fn a_winning_four_puts_the_five_first_with_a_winning_score() {
    let t = app(Preset::Challenge);
    // Black has four in a row from (3,7) to (6,7), open at both ends.
    let body = json!({
        "size": 15, "rule": "freestyle", "lines": 3, "ms": 200,
        "stones": [[3, 7], [3, 3], [4, 7], [4, 3], [5, 7], [10, 10], [6, 7], [12, 1], [9, 2], [11, 12]],
    });
    // Black and white each played five: black to move.
    let (status, v) = t.post("/api/analyse", &body.to_string()).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["to_move"], "black");
    let first = &v["lines"][0];
    let mv = (
        first["move"][0].as_u64().unwrap(),
        first["move"][1].as_u64().unwrap(),
    );
    assert!(mv == (2, 7) || mv == (7, 7), "{v}");
    assert!(first["score"].as_i64().unwrap() >= DECIDED, "{v}");
    assert_eq!(first["decided"], json!({"win": 1}), "{v}");
    assert_eq!(first["pv"][0], first["move"], "{v}");
    assert!(v["lines"].as_array().unwrap().len() <= 3);
}

#[tokio::test]
async fn the_side_facing_a_four_must_block_it() {
    let t = app(Preset::Challenge);
    // Black's four (3..6, 7) has one end closed by white at (2,7): white
    // to move must take (7,7).
    let body = json!({
        "size": 15, "lines": 2, "ms": 100,
        "stones": [[3, 7], [2, 7], [4, 7], [4, 3], [5, 7], [10, 10], [6, 7]],
    });
    let (status, v) = t.post("/api/analyse", &body.to_string()).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["to_move"], "white");
    assert_eq!(v["lines"][0]["move"], json!([7, 7]), "{v}");
}

#[tokio::test]
async fn several_lines_best_first_on_every_size_and_rule() {
    let t = app(Preset::Challenge);
    for (size, rule) in [
        (15, "freestyle"),
        (19, "exact"),
        (9, "freestyle"),
        (20, "exact"),
    ] {
        let c = size / 2;
        let body = json!({
            "size": size, "rule": rule, "lines": 5, "ms": 100,
            "stones": [[c, c], [c + 1, c]],
        });
        let (status, v) = t.post("/api/analyse", &body.to_string()).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert_eq!(v["size"], size);
        assert_eq!(v["rule"], rule);
        let lines = v["lines"].as_array().unwrap();
        assert_eq!(lines.len(), 5, "{v}");
        let mut moves: Vec<&Value> = lines.iter().map(|l| &l["move"]).collect();
        for m in &moves {
            let (x, y) = (m[0].as_u64().unwrap(), m[1].as_u64().unwrap());
            assert!(x < size && y < size, "{v}");
            assert!((x, y) != (c, c) && (x, y) != (c + 1, c), "{v}");
        }
        moves.dedup();
        assert_eq!(moves.len(), 5, "{v}");
        let nodes: u64 = lines.iter().map(|l| l["nodes"].as_u64().unwrap()).sum();
        assert!(v["nodes"].as_u64().unwrap() >= nodes);
        assert!(v["depth"].as_u64().unwrap() >= 1, "{v}");
    }
}

#[tokio::test]
async fn the_empty_board_and_defaults() {
    let t = app(Preset::Challenge);
    let (status, v) = t.post("/api/analyse", r#"{"stones": []}"#).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["size"], 15);
    assert_eq!(v["rule"], "freestyle");
    assert_eq!(v["lines"].as_array().unwrap().len(), 1);
    assert_eq!(v["to_move"], "black");
}

#[tokio::test]
async fn bad_positions_get_400_with_one_line() {
    let t = app(Preset::Challenge);
    let cases = [
        (
            r#"{"stones": [[7, 7], [7, 7]]}"#,
            "stone 2: h8 is already taken",
        ),
        (
            r#"{"stones": [[15, 0]]}"#,
            "stone 1: point 15,0 is off the 15x15 board: columns are a to o and rows 1 to 15",
        ),
        (
            r#"{"size": 9, "stones": [[4, 9]]}"#,
            "stone 1: point 4,9 is off the 9x9 board: columns are a to i and rows 1 to 9",
        ),
        (
            r#"{"size": 21, "stones": []}"#,
            "unsupported board size 21 (supported: 5 to 20)",
        ),
        (
            r#"{"size": 4, "stones": []}"#,
            "unsupported board size 4 (supported: 5 to 20)",
        ),
        (
            r#"{"stones": [[0,0],[0,1],[1,0],[1,1],[2,0],[2,1],[3,0],[3,1],[4,0]]}"#,
            "the game is over: stone 9 made five for black",
        ),
        (
            r#"{"stones": [], "lines": 0}"#,
            "lines must be 1 to 5, not 0",
        ),
        (
            r#"{"stones": [], "lines": 6}"#,
            "lines must be 1 to 5, not 6",
        ),
        (
            r#"{"stones": [], "ms": 9}"#,
            "ms must be 10 to 10000, not 9",
        ),
        (
            r#"{"stones": [], "ms": 10001}"#,
            "ms must be 10 to 10000, not 10001",
        ),
    ];
    for (body, want) in cases {
        let (status, v) = t.post("/api/analyse", body).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {v}");
        assert_eq!(error_of(&v), want, "{body}");
    }
    // Malformed bodies: an unknown rule, a negative point, an unknown field.
    for body in [
        r#"{"stones": [], "rule": "caro"}"#,
        r#"{"stones": [[-1, 0]]}"#,
        r#"{"stones": [[1, 0, 2]]}"#,
        r#"{"stones": [], "depth": 3}"#,
        r#"{"lines": 1}"#,
    ] {
        let (status, v) = t.post("/api/analyse", body).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {v}");
        error_of(&v);
    }
    // Exact five: a six is no five, so the position stands.
    let six = r#"{"rule": "exact", "stones": [[0,0],[0,1],[1,0],[1,1],[2,0],[2,1],[4,0],[4,1],[5,0],[5,1],[3,0]], "ms": 20}"#;
    let (status, v) = t.post("/api/analyse", six).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let (status, v) = t
        .post("/api/analyse", &six.replace("exact", "freestyle"))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
    assert_eq!(
        error_of(&v),
        "the game is over: stone 11 made five for black"
    );
}

#[tokio::test]
async fn every_line_asked_for_comes_best_first() {
    let t = app(Preset::Challenge);
    let scores = |v: &Value| -> Vec<i64> {
        v["lines"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l["score"].as_i64().unwrap())
            .collect()
    };
    // An open four (black 4..7 on row 7): both fives are wins in one,
    // listed first, then a third line.
    let four = json!({
        "lines": 3, "ms": 300,
        "stones": [[4, 7], [4, 3], [5, 7], [5, 3], [6, 7], [12, 12], [7, 7], [12, 1]],
    });
    let (status, v) = t.post("/api/analyse", &four.to_string()).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let lines = v["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 3, "{v}");
    let mut wins: Vec<&Value> = lines[..2].iter().map(|l| &l["move"]).collect();
    wins.sort_by_key(|m| m[0].as_u64());
    assert_eq!(wins, [&json!([3, 7]), &json!([8, 7])], "{v}");
    assert!(
        lines[..2].iter().all(|l| l["decided"] == json!({"win": 1})),
        "{v}"
    );
    assert!(lines[2]["decided"] != json!({"win": 1}), "{v}");
    let s = scores(&v);
    assert!(s.windows(2).all(|w| w[0] >= w[1]), "{v}");
    // The empty board: three lines, best first.
    let (status, v) = t
        .post("/api/analyse", r#"{"stones": [], "lines": 3, "ms": 300}"#)
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["lines"].as_array().unwrap().len(), 3, "{v}");
    let s = scores(&v);
    assert!(s.windows(2).all(|w| w[0] >= w[1]), "{v}");
}

#[tokio::test]
async fn every_line_has_its_win_rate_and_the_heat_map_comes_when_asked() {
    let t = app(Preset::Challenge);
    // An open four for black (4..7, 7), black to move.
    let stones = json!([
        [4, 7],
        [4, 3],
        [5, 7],
        [5, 3],
        [6, 7],
        [12, 12],
        [7, 7],
        [12, 1]
    ]);
    let body = json!({"lines": 3, "ms": 200, "stones": stones, "heat": true});
    let (status, v) = t.post("/api/analyse", &body.to_string()).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let scale = v["scale"].as_f64().unwrap();
    assert!(scale > 0.001 && scale < 0.01, "{v}");
    for l in v["lines"].as_array().unwrap() {
        let rate = l["win_rate"].as_f64().unwrap();
        let score = l["score"].as_i64().unwrap();
        let expected = if score >= DECIDED {
            1.0
        } else if score <= -DECIDED {
            0.0
        } else {
            1.0 / (1.0 + (-scale * score as f64).exp())
        };
        assert!((rate - expected).abs() < 1e-9, "{l}");
    }
    assert_eq!(v["lines"][0]["win_rate"], 1.0, "{v}");
    let heat = &v["heat"];
    let points = heat["points"].as_array().unwrap();
    // Beside its open four only black's moves that matter are valued: the
    // two fives and the lines' moves, not a board of certain wins.
    assert!(points.len() >= 2 && points.len() <= 4, "{heat}");
    assert!(heat["nodes"].as_u64().is_some(), "{heat}");
    // The two fives are the hottest: certain, and the quickest wins.
    let best = points
        .iter()
        .map(|p| p["score"].as_i64().unwrap())
        .max()
        .unwrap();
    let mut hottest: Vec<&Value> = points
        .iter()
        .filter(|p| p["score"].as_i64() == Some(best))
        .map(|p| &p["point"])
        .collect();
    hottest.sort_by_key(|p| p[0].as_u64());
    assert_eq!(hottest, vec![&json!([3, 7]), &json!([8, 7])], "{heat}");
    for p in points {
        let rate = p["win_rate"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&rate), "{p}");
        let (x, y) = (
            p["point"][0].as_u64().unwrap(),
            p["point"][1].as_u64().unwrap(),
        );
        assert!(x < 15 && y < 15, "{p}");
    }
    // Not asked, no heat map.
    let body = json!({"lines": 1, "ms": 50, "stones": stones});
    let (status, v) = t.post("/api/analyse", &body.to_string()).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert!(v.get("heat").is_none(), "{v}");
    // A quiet position: searched, and nothing certain.
    let body = json!({"lines": 1, "ms": 50, "stones": [[7, 7], [8, 8], [8, 6]], "heat": true});
    let (status, v) = t.post("/api/analyse", &body.to_string()).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let heat = &v["heat"];
    assert!(heat["nodes"].as_u64().unwrap() > 0, "{heat}");
    let points = heat["points"].as_array().unwrap();
    assert_eq!(points.len(), 37, "{heat}");
    assert!(
        points.iter().all(|p| {
            let r = p["win_rate"].as_f64().unwrap();
            r > 0.0 && r < 1.0
        }),
        "{heat}"
    );
    // A heat map that is not a yes or no is refused in one line.
    let body = json!({"stones": [], "heat": "yes"});
    let (status, v) = t.post("/api/analyse", &body.to_string()).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
}

/// The point of the hottest heat-map entries (the highest win rate, then
/// the highest score), all of them where they tie.
fn hottest(heat: &Value) -> Vec<Value> {
    let points = heat["points"].as_array().unwrap();
    let key = |p: &Value| {
        (
            p["win_rate"].as_f64().unwrap(),
            p["score"].as_i64().unwrap(),
        )
    };
    let top = points
        .iter()
        .map(key)
        .fold((f64::MIN, i64::MIN), |a, b| if b > a { b } else { a });
    points
        .iter()
        .filter(|p| key(p) == top)
        .map(|p| p["point"].clone())
        .collect()
}

#[tokio::test]
async fn the_heat_map_agrees_with_the_lines_on_recorded_positions() {
    let t = app(Preset::Challenge);
    let positions = [
        // A quiet opening, white to move.
        ("freestyle", json!([[7, 7], [8, 6], [8, 8]])),
        // Black's open four (4..7, 7), black to move; then white to move facing it.
        (
            "freestyle",
            json!([
                [4, 7],
                [4, 3],
                [5, 7],
                [4, 11],
                [6, 7],
                [11, 4],
                [7, 7],
                [12, 12]
            ]),
        ),
        (
            "freestyle",
            json!([[4, 7], [4, 3], [5, 7], [4, 11], [6, 7], [11, 4], [7, 7]]),
        ),
        // Renju: black to move with a double three at j8 (9,7), left out.
        (
            "renju",
            json!([
                [7, 7],
                [0, 14],
                [8, 7],
                [0, 12],
                [9, 6],
                [0, 10],
                [9, 5],
                [0, 8]
            ]),
        ),
    ];
    for (rule, stones) in positions {
        // Deeper each time, as the page asks while an analysis goes on.
        for ms in [100, 300] {
            let body = json!({"rule": rule, "stones": stones, "lines": 3, "ms": ms, "heat": true});
            let (status, v) = t.post("/api/analyse", &body.to_string()).await;
            assert_eq!(status, StatusCode::OK, "{v}");
            let heat = &v["heat"];
            let best = &v["lines"][0];
            assert!(
                hottest(heat).contains(&best["move"]),
                "{rule} {stones}: the best line's move {} is not the hottest: {heat}",
                best["move"]
            );
            // Each line's move is valued at its line's score (none above the best's).
            let best_score = best["score"].as_i64().unwrap();
            for l in v["lines"].as_array().unwrap() {
                let p = heat["points"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|p| p["point"] == l["move"])
                    .unwrap_or_else(|| panic!("{rule}: line {l} not in the map {heat}"));
                assert_eq!(
                    p["score"].as_i64().unwrap(),
                    l["score"].as_i64().unwrap().min(best_score),
                    "{p} {l}"
                );
                assert_eq!(p["decided"], l["decided"], "{p} {l}");
            }
            // Renju's forbidden point is no point of the map.
            if rule == "renju" {
                assert!(
                    heat["points"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .all(|p| p["point"] != json!([9, 7])),
                    "{heat}"
                );
            }
        }
    }
}

#[tokio::test]
async fn the_table_size_is_asked_for_in_mib_within_its_range() {
    let t = app(Preset::Challenge);
    for mb in [1, 64] {
        let body = json!({"stones": [[7, 7]], "ms": 20, "hash": mb});
        let (status, v) = t.post("/api/analyse", &body.to_string()).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert!(!v["lines"].as_array().unwrap().is_empty(), "{v}");
    }
    for (mb, message) in [
        (json!(0), "hash must be 1 to 1024 MiB, not 0"),
        (json!(4096), "hash must be 1 to 1024 MiB, not 4096"),
    ] {
        let body = json!({"stones": [], "hash": mb});
        let (status, v) = t.post("/api/analyse", &body.to_string()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
        assert_eq!(error_of(&v), message);
    }
    let body = json!({"stones": [], "hash": "big"});
    let (status, v) = t.post("/api/analyse", &body.to_string()).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
}

#[tokio::test]
async fn the_threads_are_asked_for_within_their_range() {
    // Issue 55: the page's Threads setting.
    let t = app(Preset::Challenge);
    for threads in [1, 2] {
        let body = json!({"stones": [[7, 7], [8, 8]], "ms": 50, "threads": threads});
        let (status, v) = t.post("/api/analyse", &body.to_string()).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert!(!v["lines"].as_array().unwrap().is_empty(), "{v}");
    }
    for (threads, message) in [
        (json!(0), "threads must be 1 to 64, not 0"),
        (json!(65), "threads must be 1 to 64, not 65"),
    ] {
        let body = json!({"stones": [], "threads": threads});
        let (status, v) = t.post("/api/analyse", &body.to_string()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
        assert_eq!(error_of(&v), message);
    }
}

#[tokio::test]
async fn a_proven_win_is_plies_to_the_five() {
    // Issue 56: black to move makes an open four (win in 3: the four, any
    // block, the five) or a four-three (win in 5).
    let t = app(Preset::Challenge);
    for (stones, plies) in [
        (json!([[5, 7], [1, 2], [6, 7], [0, 0], [7, 7], [0, 14]]), 3),
        (
            json!([
                [4, 7],
                [3, 7],
                [5, 7],
                [0, 0],
                [6, 7],
                [0, 14],
                [7, 8],
                [14, 0],
                [7, 9],
                [14, 14]
            ]),
            5,
        ),
    ] {
        let body = json!({"stones": stones, "ms": 200});
        let (status, v) = t.post("/api/analyse", &body.to_string()).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert_eq!(v["lines"][0]["decided"], json!({"win": plies}), "{v}");
    }
}
