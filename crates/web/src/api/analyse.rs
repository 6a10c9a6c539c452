//! `POST /api/analyse`: the engine's best lines for any position, for the
//! page's analysis board, its hints and reviews, and for scripts, shared
//! fairly between clients ([`crate::analyses`]) and watched live by the
//! client that asks ([`crate::live`]),
//! with each line's win rate and, asked for, a heat map of the position
//! ([`inarow_engine::heat`]).

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::Json;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use inarow_core::{Rule, Xy};
use inarow_engine::analysis::{self, MAX_LINES};
use inarow_engine::heat;
use inarow_engine::score::win_rate;
use inarow_engine::search::{self, Limits, Options, Searcher};
use serde::Deserialize;
use serde_json::json;

use super::{ApiError, Body};
use crate::analyses::{Admitted, Refusal, WAIT_MOST};
use crate::error::busy;
use crate::gomoku::position::position as position_of;
use crate::gomoku::{self, Decided, position_line};
use crate::{Shared, live};

/// Least and most time one analysis may take, in milliseconds.
pub const MS_RANGE: (u64, u64) = (10, 10_000);

/// Nodes a heat map may take, beside the analysis's time: a few short
/// searches for each point near the stones, a fraction of a second.
pub const HEAT_NODES: u64 = 24_000;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Request {
    #[serde(default = "fifteen")]
    size: usize,
    /// `freestyle` (the default), `exact` or `renju`.
    #[serde(default)]
    rule: Rule,
    stones: Vec<Xy>,
    #[serde(default = "one")]
    lines: usize,
    #[serde(default = "half_second")]
    ms: u64,
    /// Who asks: the client id of the page's event stream (its `hello`),
    /// so that the analysis's thinking comes back on it, its next request
    /// replaces this one, and it waits its turn when every place is taken
    /// (none: a client of its own, and no thinking sent). An id no open
    /// stream holds is refused.
    #[serde(default)]
    client: Option<String>,
    /// Carried in every thinking report of this analysis, so that the page
    /// tells its questions apart.
    #[serde(default)]
    tag: u64,
    /// Whether to add the heat map ([`heat::heat`], [`HEAT_NODES`]).
    #[serde(default)]
    heat: bool,
    /// The size of the searcher's table in MiB ([`HASH_MB`]); none: the
    /// one the searcher has (32 MiB when new).
    #[serde(default)]
    hash: Option<usize>,
    /// Search threads (lazy SMP, [`THREADS`]); none: the ones the
    /// searcher has (1 when new).
    #[serde(default)]
    threads: Option<usize>,
}

/// The search threads an analysis may ask for: 1 to the engine's most
/// (more than the machine's cores is allowed, and only slower).
pub const THREADS: (usize, usize) = (1, search::MAX_THREADS);

/// The table sizes an analysis may ask for, in MiB: a searcher is kept
/// for each analysis that may run at once, so the largest is kept small
/// enough for four of them.
pub const HASH_MB: (usize, usize) = (1, 1024);

fn fifteen() -> usize {
    15
}
fn one() -> usize {
    1
}
fn half_second() -> u64 {
    500
}

pub(super) async fn analyse(
    State(shared): State<Arc<Shared>>,
    Body(body): Body<Request>,
) -> Result<Response, ApiError> {
    if !(1..=MAX_LINES).contains(&body.lines) {
        return Err(ApiError::bad(format!(
            "lines must be 1 to {MAX_LINES}, not {}",
            body.lines
        )));
    }
    let (least, most) = MS_RANGE;
    if !(least..=most).contains(&body.ms) {
        return Err(ApiError::bad(format!(
            "ms must be {least} to {most}, not {}",
            body.ms
        )));
    }
    let (least, most) = HASH_MB;
    if let Some(mb) = body.hash
        && !(least..=most).contains(&mb)
    {
        return Err(ApiError::bad(format!(
            "hash must be {least} to {most} MiB, not {mb}"
        )));
    }
    let (least, most) = THREADS;
    if let Some(n) = body.threads
        && !(least..=most).contains(&n)
    {
        return Err(ApiError::bad(format!(
            "threads must be {least} to {most}, not {n}"
        )));
    }
    let client: Option<Arc<str>> = match body.client {
        Some(id) => {
            live::check_client_id(&id).map_err(|e| ApiError::bad(e.to_string()))?;
            Some(id.into())
        }
        None => None,
    };
    let rule = body.rule;
    let mut board = position_of(body.size, rule, &body.stones)
        .map_err(|e| ApiError::bad(position_line(&e, body.size)))?;
    let (ticket, admitted) = match shared.analyses.enter(client.clone()) {
        Ok(admitted) => admitted,
        Err(Refusal::Unknown) => return Err(ApiError::conflict(Refusal::Unknown.to_string())),
        Err(full) => return Ok(busy(&full.to_string(), 1)),
    };
    let place = match admitted {
        Admitted::Run(place) => place,
        Admitted::Wait(turn) => match tokio::time::timeout(WAIT_MOST, turn).await {
            Ok(Ok(Ok(place))) => place,
            Ok(Ok(Err(refusal))) => return Err(ApiError::conflict(refusal.to_string())),
            // Never dropped unanswered while this request holds its ticket.
            Ok(Err(_)) => return Err(ApiError::conflict("the analysis queue was dropped")),
            // The ticket, dropped on return, takes the request off the queue.
            Err(_) => return Ok(busy(&Refusal::Waited.to_string(), 1)),
        },
    };
    let (lines, ms, size, tag, want_heat, hash, threads) = (
        body.lines,
        body.ms,
        body.size,
        body.tag,
        body.heat,
        body.hash,
        body.threads,
    );
    let thinking = shared.thinking().clone();
    // The place goes with the search: dropped when it ends (or panics), it
    // frees itself for the next request.
    let done = tokio::task::spawn_blocking(move || {
        let mut place = place;
        let stop = place.stop.clone();
        let searcher = place.kept().searcher_for(size, rule);
        // Another table size or thread count is a new searcher.
        let now = searcher.options();
        let options = Options {
            tt_bytes: hash.map_or(now.tt_bytes, |mb| mb << 20),
            threads: threads.unwrap_or(now.threads),
            ..now
        };
        if options != now {
            *searcher = Searcher::new(options);
        }
        let scale = searcher.options().eval.logistic_scale(rule);
        let watcher = client.map(|to| {
            let about = json!({"for": "analysis", "tag": tag});
            live::watcher(size, scale, about, Some(to), thinking)
        });
        let mut request = search::Request::new(Limits::time(Duration::from_millis(ms)))
            .stopped_by(Some(stop))
            .watched(watcher, live::REPORT_EVERY);
        let start = Instant::now();
        let found = analysis::analyse(searcher, &mut board, lines, &mut request);
        let elapsed = start.elapsed();
        // The heat map's searches are no thinking of the position's: the
        // same stop, no watcher; the map agrees with the lines, whose moves
        // take their scores.
        let heat = want_heat.then(|| {
            let lines: Vec<_> = found.lines.iter().map(|l| (l.best, l.score)).collect();
            heat::heat(searcher, &board, HEAT_NODES, request.stop.take(), &lines)
        });
        (found, elapsed, heat, scale, place.replaced(), place.cut())
    })
    .await
    .map_err(|e| ApiError::conflict(format!("the analysis failed: {e}")))?;
    drop(ticket);
    let (found, elapsed, heat, scale, replaced, cut) = done;
    if replaced {
        return Err(ApiError::conflict(Refusal::Replaced.to_string()));
    }
    let lines: Vec<serde_json::Value> = found
        .lines
        .iter()
        .map(|l| {
            json!({
                "move": gomoku::page_xy(l.best, size),
                "score": l.score,
                "win_rate": win_rate(l.score, scale),
                "decided": Decided::of(l.score),
                "pv": l.pv.iter().map_while(|&p| gomoku::page_xy(p, size)).collect::<Vec<_>>(),
                "depth": l.depth,
                "nodes": l.nodes,
            })
        })
        .collect();
    let mut answer = json!({
        "size": size,
        "rule": rule.name(),
        "to_move": analysis::colour_name(found.to_move),
        "scale": scale,
        "lines": lines,
        "depth": found.depth,
        "nodes": found.nodes,
        "ms": elapsed.as_millis() as u64,
    });
    // Cut at its turn's end while others waited: what it found by then.
    if cut {
        answer["cut"] = json!(true);
    }
    if let Some(h) = heat {
        let points: Vec<serde_json::Value> = h
            .points
            .iter()
            .map(|p| {
                json!({
                    "point": gomoku::page_xy(p.point, size),
                    "score": p.score,
                    "win_rate": p.win_rate,
                    "decided": Decided::of(p.score),
                })
            })
            .collect();
        answer["heat"] = json!({"points": points, "nodes": h.nodes});
    }
    Ok(Json(answer).into_response())
}
