//! Live thinking: how the engine's searches stand while they run (depth,
//! nodes, nodes a second, score, the best line so far), sent over the
//! page's event stream (`GET /api/events`) as `event: thinking`.
//!
//! The engine tells a [`Watcher`] at the end of every iteration and every
//! [`REPORT_EVERY`] between; [`watcher`] turns that into one JSON line a
//! report, for every viewer (the game's engine: everyone sees the game) or
//! for one client (its own analysis). Iterations that end within
//! [`MIN_GAP`] of the last report sent are left out: the first depths end
//! a few microseconds apart, and the next report brings their result.
//!
//! A client is named by an id the server gives each event stream in its
//! first event, `event: hello` with `{"client": ID}` ([`client_id`]); the
//! page sends it with its analyses, so that their thinking comes back on
//! its own stream and nowhere else, and so that its next analysis replaces
//! its last ([`crate::analyses`]).

use std::sync::Arc;
use std::time::Duration;

use inarow_core::Xy;
use inarow_engine::score::win_rate;
use inarow_engine::search::{Progress, Watcher};
use serde_json::{Value, json};
use tokio::sync::broadcast;

use crate::gomoku::{Decided, page_xy};

/// How often a search in progress is reported between its iterations' ends.
pub const REPORT_EVERY: Duration = Duration::from_millis(150);

/// Iterations that end sooner than this after the last report are not sent.
pub const MIN_GAP: Duration = Duration::from_millis(40);

/// Longest client id accepted from a request.
pub const MAX_CLIENT_ID: usize = 64;

/// One report of live thinking, for every viewer or for one client.
#[derive(Clone, Debug)]
pub struct Thinking {
    /// The client it is for (none: every viewer).
    pub to: Option<Arc<str>>,
    /// The JSON object the page reads.
    pub data: Arc<str>,
}

/// A fresh client id for an event stream: 32 hex digits. It comes from the
/// operating system's randomness rather than the server's seed because it
/// names a page to the server and nothing else: no game depends on it, and
/// another page must not be able to guess it (it could cancel the page's
/// analyses).
pub fn client_id() -> String {
    format!(
        "{:016x}{:016x}",
        rand::random::<u64>(),
        rand::random::<u64>()
    )
}

/// Checks a client id a request names: 1 to [`MAX_CLIENT_ID`] letters,
/// digits, `-` or `_`; the one line that refuses it otherwise.
pub fn check_client_id(id: &str) -> Result<(), BadClientId> {
    let fits = (1..=MAX_CLIENT_ID).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if fits { Ok(()) } else { Err(BadClientId) }
}

/// A client id that is none, in the one line that refuses it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "client must be 1 to {MAX_CLIENT_ID} letters, digits, - or _ (the id of the page's event stream)"
)]
pub struct BadClientId;

/// A watcher for searches on a board `size` points a side: each report
/// goes to `sender` as a [`Thinking`] for `to`, its JSON the fields of
/// `about` (what the search is for: the game or an analysis) and
///
/// - `depth`, `score`, `win_rate` (the score read at the evaluation's
///   logistic scale `scale`, [`win_rate`]), `decided` (see [`Decided`]),
///   `best` (`[x, y]`) and `pv` (`[[x, y], ...]`) of the last completed
///   iteration (`best` null and `pv` empty before the first);
/// - `nodes` and `ms` (searching time) since the job began, over all its
///   searches (an analysis of several lines, or the engine's opening,
///   searches more than once), and `nps`: nodes a second over that time;
/// - `search`: which search of the job this is, from 1.
///
/// A new search is told apart from the last by its nodes or time going
/// back, since the engine counts both from each search's start.
pub fn watcher(
    size: usize,
    scale: f64,
    about: Value,
    to: Option<Arc<str>>,
    sender: broadcast::Sender<Thinking>,
) -> Watcher {
    // Nodes and time of the job's searches before this one, and this
    // one's at its last report; the time of the last report sent.
    let mut before = (0u64, Duration::ZERO);
    let mut last = (0u64, Duration::ZERO);
    let mut search = 1u32;
    let mut sent: Option<Duration> = None;
    Box::new(move |p: &Progress<'_>| {
        if p.nodes < last.0 || p.elapsed < last.1 {
            before = (before.0 + last.0, before.1 + last.1);
            search += 1;
        }
        last = (p.nodes, p.elapsed);
        // Times are the engine's own, so that what is left out does not
        // hang on how busy the machine is.
        let now = before.1 + p.elapsed;
        if p.iteration && sent.is_some_and(|t| now.saturating_sub(t) < MIN_GAP) {
            return;
        }
        sent = Some(now);
        let nodes = before.0 + p.nodes;
        let ms = now.as_millis() as u64;
        let pv: Vec<Xy> = p.pv.iter().map_while(|&i| page_xy(i, size)).collect();
        let mut data = json!({
            "depth": p.depth,
            "score": p.score,
            "win_rate": win_rate(p.score, scale),
            "decided": Decided::of(p.score),
            "best": pv.first(),
            "pv": pv,
            "nodes": nodes,
            "ms": ms,
            "nps": (u128::from(nodes) * 1000).checked_div(u128::from(ms)).unwrap_or(0) as u64,
            "search": search,
        });
        if let (Value::Object(fields), Value::Object(about)) = (&mut data, &about) {
            fields.extend(about.clone());
        }
        // No viewer listening is no error.
        let _ = sender.send(Thinking {
            to: to.clone(),
            data: data.to_string().into(),
        });
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn client_ids_are_fresh_and_accepted_back() {
        let (a, b) = (client_id(), client_id());
        assert_ne!(a, b);
        assert_eq!(a.len(), 32);
        assert_eq!(check_client_id(&a), Ok(()));
        for bad in ["", "a b", "é", &"x".repeat(65), "a\nb"] {
            let e = check_client_id(bad).unwrap_err().to_string();
            assert!(!e.contains('\n'), "{e}");
        }
    }

    #[test]
    fn reports_add_up_the_searches_of_a_job_and_skip_close_iterations() {
        let (sender, mut heard) = broadcast::channel(16);
        let mut watch = watcher(15, 0.01, json!({"for": "game", "game_id": 4}), None, sender);
        use inarow_engine::pos::Pos;
        let pv = [Pos::at(7, 7), Pos::at(8, 8)];
        let report = |depth, nodes, ms, iteration| Progress {
            depth,
            best: pv[0],
            score: 30,
            pv: &pv,
            nodes,
            elapsed: Duration::from_millis(ms),
            iteration,
        };
        watch(&report(1, 100, 1, true));
        // Within the gap: left out.
        watch(&report(2, 200, 2, true));
        // Between iterations: always sent. Then a second search.
        watch(&report(2, 5_000, 150, false));
        watch(&report(1, 50, 1, false));
        let mut seen = Vec::new();
        while let Ok(t) = heard.try_recv() {
            assert!(t.to.is_none());
            seen.push(serde_json::from_str::<Value>(&t.data).unwrap());
        }
        assert_eq!(seen.len(), 3, "{seen:?}");
        assert_eq!(seen[0]["game_id"], 4);
        assert_eq!(seen[0]["best"], json!([7, 7]));
        assert_eq!(seen[0]["pv"], json!([[7, 7], [8, 8]]));
        // The score read as a win rate at the scale given: 1 / (1 + e^-0.3).
        let rate = seen[0]["win_rate"].as_f64().unwrap();
        assert!(
            (rate - 1.0 / (1.0 + (-0.3f64).exp())).abs() < 1e-12,
            "{rate}"
        );
        let nodes: Vec<_> = seen.iter().map(|s| s["nodes"].as_u64().unwrap()).collect();
        assert_eq!(nodes, [100, 5_000, 5_050]);
        assert_eq!(seen[2]["search"], 2);
        assert_eq!(seen[1]["depth"], 2);
        let ms: Vec<_> = seen.iter().map(|s| s["ms"].as_u64().unwrap()).collect();
        assert_eq!(ms, [1, 150, 151]);
        assert_eq!(seen[1]["nps"], 5_000 * 1000 / 150);
    }

    #[test]
    fn an_index_off_the_board_is_dropped() {
        let (sender, mut heard) = broadcast::channel(4);
        let mut watch = watcher(15, 0.01, json!({}), Some("c".into()), sender);
        let wall = inarow_engine::pos::Pos::from_index(0);
        watch(&Progress {
            depth: 0,
            best: wall,
            score: 0,
            pv: &[wall],
            nodes: 1,
            elapsed: Duration::ZERO,
            iteration: false,
        });
        let t = heard.try_recv().unwrap();
        assert_eq!(t.to.as_deref(), Some("c"));
        let v: Value = serde_json::from_str(&t.data).unwrap();
        assert_eq!((&v["best"], &v["pv"]), (&Value::Null, &json!([])));
        assert_eq!(v["nps"], 0);
    }
}
