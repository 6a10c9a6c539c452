//! The tournament routes: start a judge tournament over the bots folder,
//! follow it, replay its finished games.

use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use inarow_judge::field::{self, Field, Orders};
use inarow_judge::{Results, output, tournament};
use serde::Deserialize;

use super::{ApiError, Body, Part, Reply};
use crate::tournament::Runs;
use crate::{Shared, Topic};

/// The tournament runs of the page.
const TOURNAMENT: Part<Runs> = Part {
    topic: Topic::Tournament,
    room: |shared| &shared.tournament,
    view: Runs::view,
};

pub(super) async fn view(State(shared): State<Arc<Shared>>) -> Json<serde_json::Value> {
    TOURNAMENT.json(&shared)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct StartBody {
    /// A string of digits (any u64, which a browser's numbers cannot hold
    /// above 2^53), a number, or "" for a fresh seed; left out, the
    /// server's `--seed`.
    seed: Option<serde_json::Value>,
    jobs: Option<usize>,
    timeout_ms: Option<u64>,
}

pub(super) async fn start(State(shared): State<Arc<Shared>>, Body(body): Body<StartBody>) -> Reply {
    use crate::tournament::{MAX_JOBS, Request, TIMEOUT_MS, config};
    let jobs = body.jobs.unwrap_or(2);
    if !(1..=MAX_JOBS).contains(&jobs) {
        return Err(ApiError::bad(format!(
            "jobs {jobs} is out of range: use 1 to {MAX_JOBS}"
        )));
    }
    let timeout_ms = body.timeout_ms.unwrap_or(2000);
    if !TIMEOUT_MS.contains(&timeout_ms) {
        return Err(ApiError::bad(format!(
            "timeout {timeout_ms} ms is out of range: use {} to {} ms per answer",
            TIMEOUT_MS.start(),
            TIMEOUT_MS.end()
        )));
    }
    // Bot seeds must stay below 2^53 (docs/judge.md); the tournament seed may be any u64.
    let seed = match &body.seed {
        None => shared.seed,
        Some(given) => seed_of(given)?,
    };
    let request = Request {
        seed,
        jobs,
        timeout_ms,
    };
    // A run never writes over an earlier run's files, nor another's started
    // at once (`inarow judge` in the same folder): it claims the next free
    // name (results-2.json, sgf-2, ...), and the page says which. A run
    // refused below drops its claim, leaving the folder as it was.
    let refused =
        |e: output::Unwritable| ApiError::conflict(format!("cannot start a tournament: {e}"));
    let claim = match shared.records() {
        Some(given) => {
            let claim = given.claim().map_err(refused)?;
            claim.records().check().map_err(refused)?;
            Some(claim)
        }
        None => None,
    };
    let writes = claim.as_ref().zip(shared.records()).map(|(claim, given)| {
        let chosen = claim.records().clone();
        let numbered = chosen != *given;
        (chosen, numbered)
    });
    // Who plays is the judge's to decide, as for `inarow judge`: a bad bot
    // (a meta file refused, a name taken twice, a bot its sandbox cannot
    // contain) is left out and the others play; a sandbox that contains
    // none refuses the run.
    let field = {
        let (sandbox, orders) = (
            shared.sandbox().clone(),
            Orders {
                bots: shared.bots.clone(),
                ..Orders::default()
            },
        );
        tokio::task::spawn_blocking(move || field::field(&orders, &sandbox))
            .await
            .map_err(|e| ApiError::conflict(format!("cannot check the bots: {e}")))?
    };
    let Field { bots, left_out, .. } =
        field.map_err(|e| ApiError::conflict(format!("cannot start a tournament: {e}")))?;
    let (players, left, chosen) = (bots.clone(), left_out.clone(), writes);
    TOURNAMENT.act(
        &shared,
        |runs| {
            if runs.running() {
                return Err(ApiError::conflict(
                    "a tournament is already running: wait for it to end",
                ));
            }
            runs.start(request, &players, &left, chosen);
            Ok(())
        },
        move |shared, ()| {
            let shared = shared.clone();
            std::thread::spawn(move || {
                let config = config(&request, shared.sandbox(), left_out);
                let games = tournament::play_all_watched(&bots, &config, &|event| {
                    if TOURNAMENT.lock(&shared).heard(event) {
                        shared.notify(TOURNAMENT.topic);
                    }
                });
                // The files first, as `inarow judge` does, then the end;
                // where the run claimed them, no other run writes.
                let saved = claim.map(|claim| {
                    let results = Results::new(&bots, &config, games);
                    let text = output::results_json(&results);
                    let records = claim.write(&text, &results.games, results.rule)?;
                    Ok(records.kept())
                });
                let mut runs = TOURNAMENT.lock(&shared);
                if let Some(saved) = saved {
                    runs.saved(saved);
                }
                runs.ended();
                drop(runs);
                shared.notify(TOURNAMENT.topic);
            });
            Ok(())
        },
    )
}

/// The tournament seed asked for: digits (as a string or a number) read
/// exactly, or an empty string for a fresh seed, picked here and shown with
/// the run so that it can be played again.
fn seed_of(given: &serde_json::Value) -> Result<u64, ApiError> {
    let refuse = || {
        ApiError::bad(format!(
            "seed {given} is not a whole number from 0 to {}: give digits, or \"\" for a fresh seed",
            u64::MAX
        ))
    };
    match given {
        serde_json::Value::Number(n) => n.as_u64().ok_or_else(refuse),
        serde_json::Value::String(text) if text.trim().is_empty() => Ok(rand::random()),
        serde_json::Value::String(text) => {
            let text = text.trim();
            if !text.bytes().all(|b| b.is_ascii_digit()) {
                return Err(refuse());
            }
            text.parse().map_err(|_| refuse())
        }
        _ => Err(refuse()),
    }
}

pub(super) async fn game(State(shared): State<Arc<Shared>>, Path(index): Path<String>) -> Reply {
    let number: usize = index
        .parse()
        .map_err(|_| ApiError::bad(format!("{index:?} is not a game number: use 0, 1, 2, ...")))?;
    let runs = TOURNAMENT.lock(&shared);
    let game = runs.game(number).ok_or_else(|| {
        ApiError(
            StatusCode::NOT_FOUND,
            format!("no finished game {number} in the current tournament"),
        )
    })?;
    Ok(Json(serde_json::to_value(game).expect("records serialize")))
}
