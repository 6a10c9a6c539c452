//! The gomoku routes: a game against the engine through the Swap2 opening.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use axum::Json;
use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use inarow_core::swap2::Phase;
use inarow_core::{Game as _, Xy};
use serde::Deserialize;

use super::{ApiError, Body, Part, Reply};
use crate::gomoku::{self, Answer, Game, Job, Refused};
use crate::{Shared, Topic, live};

/// The gomoku table of the page.
const GOMOKU: Part<Game> = Part {
    topic: Topic::Gomoku,
    room: |shared| &shared.gomoku,
    view: Game::view,
};

impl From<Refused> for ApiError {
    fn from(r: Refused) -> ApiError {
        if r.bad_input {
            ApiError::bad(r.message)
        } else {
            ApiError::conflict(r.message)
        }
    }
}

/// A change of the table, after which the engine may have a job to think about.
fn act(
    shared: &Arc<Shared>,
    act: impl FnOnce(&mut Game) -> Result<Option<Job>, Refused>,
) -> super::Reply {
    GOMOKU.act(
        shared,
        |table| Ok(act(table)?),
        |shared, job| {
            think(shared, job);
            Ok(())
        },
    )
}

/// Runs the engine's jobs on a thread of their own, one after another,
/// applying each to the table if its game is still on; their thinking goes
/// live to every viewer.
fn think(shared: &Arc<Shared>, job: Option<Job>) {
    let Some(job) = job else {
        return;
    };
    let shared = shared.clone();
    std::thread::spawn(move || {
        let mut next = Some(job);
        while let Some(job) = next {
            let mut engine = shared.engine.lock().expect("engine lock");
            {
                // The stop asked for an earlier game; this job's game may
                // itself be gone already (then nothing is left to do).
                let table = GOMOKU.lock(&shared);
                if table.game_id() != job.game_id {
                    break;
                }
                shared.engine_stop.store(false, Ordering::SeqCst);
            }
            // Every viewer sees the game, and so its engine's thinking; the
            // stage says what for (only in play is the score the engine's
            // own, for the move it will make).
            let stage = match job.phase {
                Phase::Open => "open",
                Phase::Answer => "answer",
                Phase::Colour => "colour",
                Phase::Play | Phase::Over => "play",
            };
            let about = serde_json::json!({"for": "game", "game_id": job.game_id, "stage": stage});
            let scale = gomoku::win_scale(job.board.rule());
            let watcher = live::watcher(
                job.board.cols(),
                scale,
                about,
                None,
                shared.thinking().clone(),
            );
            let request = engine.request_mut();
            request.watcher = Some(watcher);
            request.every = live::REPORT_EVERY;
            let done = gomoku::work(&mut engine, &job);
            engine.request_mut().watcher = None;
            // Read while the engine is held: the next game's thread clears
            // the flag once it holds it.
            let ended = shared.engine_stop.load(Ordering::SeqCst);
            drop(engine);
            if ended {
                // Its game ended while it thought: the viewers' live line
                // for it ends here, and its answer is for no game.
                let data =
                    serde_json::json!({"for": "game", "game_id": job.game_id, "stopped": true});
                let _ = shared.thinking().send(live::Thinking {
                    to: None,
                    data: data.to_string().into(),
                });
                break;
            }
            next = GOMOKU.lock(&shared).done(job.game_id, done);
            shared.notify(GOMOKU.topic);
        }
    });
}

pub(super) async fn view(State(shared): State<Arc<Shared>>) -> Json<serde_json::Value> {
    GOMOKU.json(&shared)
}

#[derive(Deserialize)]
#[serde(rename_all = "lowercase")]
enum Opener {
    You,
    Engine,
}

/// How a game begins.
#[derive(Deserialize, Default, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
enum Start {
    /// The Swap2 opening (the default).
    #[default]
    Swap2,
    /// No opening: black first in the centre, or from stones set up.
    Free,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct NewGomoku {
    /// Swap2 only: who places the opening stones.
    opener: Option<Opener>,
    time_ms: u64,
    /// Freestyle (the default) or exact five.
    #[serde(default)]
    rule: inarow_core::Rule,
    /// The board's side, 5 to 20 (15).
    #[serde(default = "fifteen")]
    size: usize,
    /// `swap2` (the default) or `free`.
    #[serde(default)]
    start: Start,
    /// Free start only: the person's colour (black).
    colour: Option<Colour>,
    /// Free start only: the stones set up, as [x, y], black first and
    /// alternating (none: the empty board).
    stones: Option<Vec<Xy>>,
}

/// Most stones a free start may be set up with: every point of the
/// largest board.
const MAX_SETUP: usize = 400;

fn fifteen() -> usize {
    gomoku::SIZE
}

pub(super) async fn new_game(
    State(shared): State<Arc<Shared>>,
    Body(body): Body<NewGomoku>,
) -> Reply {
    let (rule, size, time_ms) = (body.rule, body.size, body.time_ms);
    match body.start {
        Start::Swap2 => {
            if body.colour.is_some() || body.stones.is_some() {
                return Err(ApiError::bad(
                    "colour and stones are for a free start (start: free); a Swap2 game settles colours in its opening",
                ));
            }
            let Some(opener) = body.opener else {
                return Err(ApiError::bad("a Swap2 game needs an opener: you or engine"));
            };
            let person_opens = matches!(opener, Opener::You);
            act(&shared, |table| {
                let job = table.new_game(person_opens, time_ms, rule, size)?;
                end_think(&shared);
                Ok(job)
            })
        }
        Start::Free => {
            if body.opener.is_some() {
                return Err(ApiError::bad(
                    "a free start has no opener: choose your colour (colour: black or white)",
                ));
            }
            let stones = body.stones.unwrap_or_default();
            if stones.len() > MAX_SETUP {
                return Err(ApiError::bad(format!(
                    "{} stones set up: at most {MAX_SETUP}",
                    stones.len()
                )));
            }
            let person = match body.colour.unwrap_or(Colour::Black) {
                Colour::Black => inarow_core::Player::X,
                Colour::White => inarow_core::Player::O,
            };
            act(&shared, |table| {
                let job = table.new_free(person, &stones, time_ms, rule, size)?;
                end_think(&shared);
                Ok(job)
            })
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Stone {
    x: usize,
    y: usize,
}

pub(super) async fn play(State(shared): State<Arc<Shared>>, Body(body): Body<Stone>) -> Reply {
    act(&shared, |table| table.click(body.x, body.y))
}

pub(super) async fn answer(State(shared): State<Arc<Shared>>, Body(body): Body<Answer>) -> Reply {
    act(&shared, |table| table.answer(body))
}

#[derive(Deserialize)]
#[serde(rename_all = "lowercase")]
enum Colour {
    Black,
    White,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ColourBody {
    colour: Colour,
}

pub(super) async fn colour(
    State(shared): State<Arc<Shared>>,
    Body(body): Body<ColourBody>,
) -> Reply {
    let colour = match body.colour {
        Colour::Black => inarow_core::Player::X,
        Colour::White => inarow_core::Player::O,
    };
    act(&shared, |table| table.choose(colour))
}

/// Takes back the person's last move and the engine's reply.
pub(super) async fn take_back(State(shared): State<Arc<Shared>>) -> Reply {
    act(&shared, |table| table.take_back().map(|()| None))
}

/// The person resigns.
pub(super) async fn resign(State(shared): State<Arc<Shared>>) -> Reply {
    act(&shared, |table| {
        table.resign()?;
        end_think(&shared);
        Ok(None)
    })
}

/// Stops the engine's think for the game that just ended. Called with the
/// table held and before the next game's job is handed out, so that the
/// flag never stops the next game's think: its thread clears the flag
/// only once the table says its game is the one on.
fn end_think(shared: &Shared) {
    shared.engine_stop.store(true, Ordering::SeqCst);
}

/// The game as an SGF file to download.
pub(super) async fn sgf(State(shared): State<Arc<Shared>>) -> Result<Response, ApiError> {
    let (id, text) = {
        let table = GOMOKU.lock(&shared);
        let text = table
            .sgf()
            .ok_or_else(|| ApiError::conflict("no game yet: start one to download its SGF"))?;
        (table.game_id(), text)
    };
    Ok((
        [
            (header::CONTENT_TYPE, "application/x-go-sgf".to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"inarow-gomoku-{id}.sgf\""),
            ),
            (header::CACHE_CONTROL, "no-store".to_string()),
        ],
        text,
    )
        .into_response())
}
