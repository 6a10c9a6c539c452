//! `POST /api/moves`: moves written as text read as points, and one-line
//! refusals naming the bad move; under renju, black's forbidden moves
//! refused until the game ends.

use crate::common;

use axum::http::StatusCode;
use common::{app, error_of};
use inarow_menace::Preset;
use serde_json::json;

#[tokio::test]
async fn names_pairs_and_move_numbers_read_as_points_from_the_top_left() {
    let t = app(Preset::Challenge);
    for text in [
        "h8 i9 j10",
        "1. H8 2. I9 3. J10",
        "7,7 8,6 9,5",
        "h8, i9; j10",
        // The page's link writes names run together.
        "h8i9j10",
        "H8I9 j10",
    ] {
        let body = json!({ "size": 15, "text": text });
        let (status, v) = t.post("/api/moves", &body.to_string()).await;
        assert_eq!(status, StatusCode::OK, "{text}: {v}");
        assert_eq!(v["moves"], json!([[7, 7], [8, 6], [9, 5]]), "{text}");
        assert_eq!(v["text"], "h8 i9 j10", "{text}");
        assert_eq!(v["size"], 15);
    }
    // Row 1 is the bottom, whatever the size; t is the last column of 20x20.
    let (status, v) = t
        .post(
            "/api/moves",
            &json!({ "size": 20, "text": "a1 t20" }).to_string(),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["moves"], json!([[0, 19], [19, 0]]));
    let (status, v) = t
        .post("/api/moves", &json!({ "text": "" }).to_string())
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["moves"], json!([]));
    assert_eq!(v["size"], 15, "15 when no size is given");
}

#[tokio::test]
async fn a_bad_move_is_one_line_naming_it() {
    let t = app(Preset::Challenge);
    for (size, text, want) in [
        (
            15,
            "h8 p8",
            "move 2: p8 is off the 15x15 board: columns are a to o and rows 1 to 15",
        ),
        (9, "e5 e10", "move 2: e10 is off the 9x9 board"),
        (15, "h8 i9 8h", "move 3: expected a move such as h8"),
        (15, "7,7 15,0", "move 2: 15,0 is off the 15x15 board"),
        (15, "h8 i9 h8", "move 3: h8 is already taken by move 1"),
        (15, "7,7 h8", "move 2: h8 is already taken by move 1"),
        (15, "h8\ni9\nzz", "move 3: expected a move such as h8"),
        (4, "a1", "size must be 5 to 20, not 4"),
        (21, "a1", "size must be 5 to 20, not 21"),
    ] {
        let body = json!({ "size": size, "text": text });
        let (status, v) = t.post("/api/moves", &body.to_string()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{text}: {v}");
        let e = error_of(&v);
        assert!(e.starts_with(want), "{text}: {e}");
    }
}

#[tokio::test]
async fn a_text_too_long_or_a_body_of_another_shape_is_refused() {
    let t = app(Preset::Challenge);
    let long = "h8 ".repeat(3000);
    let (status, v) = t
        .post("/api/moves", &json!({ "text": long }).to_string())
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        error_of(&v),
        "the moves are 9000 characters long; at most 8192 are read"
    );
    for body in [
        r#"{"size": 15}"#,
        r#"{"text": 7}"#,
        r#"{"text": "h8", "rule": "caro"}"#,
        r#"{"text": "h8", "colour": "black"}"#,
    ] {
        let (status, v) = t.post("/api/moves", body).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
        assert!(error_of(&v).starts_with("bad request body"), "{body}: {v}");
    }
}

/// Black f8, g8, h10, h9 with white far away, then black h8: a double
/// three, forbidden to black under renju.
const DOUBLE_THREE: &str = "f8 o1 g8 o3 h10 o5 h9 a15 h8";

#[tokio::test]
async fn under_renju_a_forbidden_move_is_refused_naming_it() {
    let t = app(Preset::Challenge);
    // Spaced, or run together as the page's link writes them.
    for text in [DOUBLE_THREE.to_string(), DOUBLE_THREE.replace(' ', "")] {
        let body = json!({ "text": text, "rule": "renju" });
        let (status, v) = t.post("/api/moves", &body.to_string()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
        assert_eq!(
            error_of(&v),
            "move 9: h8 is forbidden to black under renju: double three"
        );
    }
    // The other rules forbid nothing; no rule is freestyle.
    for body in [
        json!({ "text": DOUBLE_THREE, "rule": "freestyle" }),
        json!({ "text": DOUBLE_THREE, "rule": "exact" }),
        json!({ "text": DOUBLE_THREE }),
    ] {
        let (status, v) = t.post("/api/moves", &body.to_string()).await;
        assert_eq!(status, StatusCode::OK, "{body}: {v}");
        assert_eq!(v["moves"].as_array().map(Vec::len), Some(9), "{body}");
        let rule = body
            .get("rule")
            .and_then(|r| r.as_str())
            .unwrap_or("freestyle");
        assert_eq!(v["rule"], rule);
    }
    // Without its last move the game is legal under renju.
    let legal = DOUBLE_THREE.trim_end_matches(" h8");
    let body = json!({ "text": legal, "rule": "renju" });
    let (status, v) = t.post("/api/moves", &body.to_string()).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["rule"], "renju");
}

#[tokio::test]
async fn under_renju_the_moves_after_a_five_are_taken_as_they_are() {
    let t = app(Preset::Challenge);
    // Black's five on row 1 ends the game at move 9; black's double three
    // at h8 comes after it.
    let text = "a1 o15 b1 o14 c1 o13 d1 o12 e1 n15 f8 n14 g8 n13 h10 n12 h9 n11 h8";
    let body = json!({ "text": text, "rule": "renju" });
    let (status, v) = t.post("/api/moves", &body.to_string()).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["moves"].as_array().map(Vec::len), Some(19));
    // Before the five, the same point is refused.
    let early = "f8 o15 g8 o14 h10 o13 h9 o12 h8";
    let body = json!({ "text": early, "rule": "renju" });
    let (status, v) = t.post("/api/moves", &body.to_string()).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
    assert_eq!(
        error_of(&v),
        "move 9: h8 is forbidden to black under renju: double three"
    );
}
