//! The MENACE routes: a game against MENACE, training and its stop.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::Json;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::IntoResponse;
use serde::Deserialize;

use super::{ApiError, Body, Part, Reply};
use crate::menace::{MoveError, Opponent, Room};
use crate::{Shared, Topic};
use inarow_menace::{Preset, Rules};

/// Fastest training speed accepted, in games per second.
pub const MAX_SPEED: u32 = 100_000;

/// The MENACE room of the page.
const MENACE: Part<Room> = Part {
    topic: Topic::Menace,
    room: |shared| &shared.menace,
    view: Room::view,
};

impl From<MoveError> for ApiError {
    fn from(e: MoveError) -> ApiError {
        match e {
            MoveError::OffBoard(_) | MoveError::Taken(_) => ApiError::bad(e.to_string()),
            MoveError::NoGame | MoveError::Training => ApiError::conflict(e.to_string()),
        }
    }
}

pub(super) async fn view(State(shared): State<Arc<Shared>>) -> Json<serde_json::Value> {
    MENACE.json(&shared)
}

pub(super) async fn new_game(State(shared): State<Arc<Shared>>) -> Reply {
    MENACE.act(
        &shared,
        |room| {
            room.new_game()?;
            // MENACE may resign at once (an emptied first box).
            Ok(!room.in_game())
        },
        save_if_ended,
    )
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct MoveBody {
    square: u64,
}

pub(super) async fn play(State(shared): State<Arc<Shared>>, Body(body): Body<MoveBody>) -> Reply {
    MENACE.act(&shared, |room| Ok(room.play(body.square)?), save_if_ended)
}

/// A game that ended was learned: it is saved at once.
fn save_if_ended(shared: &Arc<Shared>, ended: bool) -> Result<(), ApiError> {
    if ended { save(shared) } else { Ok(()) }
}

fn save(shared: &Shared) -> Result<(), ApiError> {
    shared.save().map_err(|e| {
        ApiError(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("the game was learned but not saved: {e:#}"),
        )
    })
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct TrainBody {
    opponent: Opponent,
    speed: u32,
}

fn check_speed(speed: u32) -> Result<(), ApiError> {
    if (1..=MAX_SPEED).contains(&speed) {
        Ok(())
    } else {
        Err(ApiError::bad(format!(
            "speed {speed} is out of range: use 1 to {MAX_SPEED} games per second"
        )))
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct TrainerBody {
    opponent: Option<Opponent>,
    speed: Option<u32>,
}

/// Sets the trainer's opponent, speed or both without starting it (a
/// running trainer takes them at once), so every viewer sees the same
/// settings. A setting left out keeps the server's: two viewers changing
/// different settings at once, or a page that has not yet drawn the other
/// viewer's change, cannot undo each other's.
pub(super) async fn trainer_settings(
    State(shared): State<Arc<Shared>>,
    Body(body): Body<TrainerBody>,
) -> Reply {
    if let Some(speed) = body.speed {
        check_speed(speed)?;
    }
    MENACE.act(
        &shared,
        |room| {
            room.set_trainer(
                body.opponent.unwrap_or(room.opponent()),
                body.speed.unwrap_or(room.speed()),
            );
            Ok(())
        },
        |_, ()| Ok(()),
    )
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RewardsBody {
    win: i32,
    draw: i32,
    loss: i32,
}

/// Changes the rewards from the next game learned on; saved at once.
pub(super) async fn rewards(
    State(shared): State<Arc<Shared>>,
    Body(body): Body<RewardsBody>,
) -> Reply {
    MENACE.act(
        &shared,
        |room| {
            room.set_rewards(body.win, body.draw, body.loss)
                .map_err(|e| ApiError::bad(e.to_string()))
        },
        |shared, ()| save(shared),
    )
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ResetBody {
    preset: Preset,
    /// Each number left out is the preset's.
    start: Option<[u32; 4]>,
    win: Option<i32>,
    draw: Option<i32>,
    loss: Option<i32>,
}

/// Throws the boxes away for fresh ones of a preset, with its numbers or
/// the ones given; saved at once.
pub(super) async fn reset(State(shared): State<Arc<Shared>>, Body(body): Body<ResetBody>) -> Reply {
    let own = Rules::of(body.preset);
    let rules = Rules {
        start: body.start.unwrap_or(own.start),
        win: body.win.unwrap_or(own.win),
        draw: body.draw.unwrap_or(own.draw),
        loss: body.loss.unwrap_or(own.loss),
    };
    rules.check().map_err(|e| ApiError::bad(e.to_string()))?;
    MENACE.act(
        &shared,
        |room| {
            room.reset(body.preset, rules).map_err(|_| {
                ApiError::conflict("MENACE is training: stop training to reset the boxes")
            })
        },
        |shared, ()| save(shared),
    )
}

/// The state file as it would be saved now, as a download.
pub(super) async fn state_file(State(shared): State<Arc<Shared>>) -> impl IntoResponse {
    let text = shared
        .menace
        .lock()
        .expect("menace lock")
        .memory()
        .to_json();
    (
        [
            (header::CONTENT_TYPE, "application/json"),
            (
                header::CONTENT_DISPOSITION,
                "attachment; filename=\"menace.json\"",
            ),
        ],
        text,
    )
}

pub(super) async fn train(State(shared): State<Arc<Shared>>, Body(body): Body<TrainBody>) -> Reply {
    check_speed(body.speed)?;
    MENACE.act(
        &shared,
        |room| {
            room.set_trainer(body.opponent, body.speed);
            let start = !room.training();
            room.set_training(true);
            Ok(start)
        },
        |shared, start| {
            if start {
                let shared = shared.clone();
                std::thread::spawn(move || trainer(&shared));
            }
            Ok(())
        },
    )
}

pub(super) async fn stop(State(shared): State<Arc<Shared>>) -> Reply {
    MENACE.act(
        &shared,
        |room| {
            room.set_training(false);
            Ok(())
        },
        |shared, ()| save(shared),
    )
}

/// Trains in ticks of 0.1 s until stopped: each tick plays the games the
/// speed asks for (at most 50 ms of them, so requests are not starved) and
/// saves at most once a second, since an fsync per game would cap training
/// at a few hundred games a second.
fn trainer(shared: &Shared) {
    const TICK: Duration = Duration::from_millis(100);
    let mut credit = 0.0f64;
    let mut saved = Instant::now();
    loop {
        std::thread::sleep(TICK);
        let mut room = shared.menace.lock().expect("menace lock");
        if !room.training() {
            return;
        }
        // Capped at one second's games, so a slow opponent does not build a backlog.
        let speed = room.speed() as f64;
        credit = (credit + speed * TICK.as_secs_f64()).min(speed.max(1.0));
        let started = Instant::now();
        let mut played = 0;
        while credit >= 1.0 && started.elapsed() < TICK / 2 {
            room.train_one();
            credit -= 1.0;
            played += 1;
        }
        if played > 0 && saved.elapsed() >= Duration::from_secs(1) {
            if let Err(e) = (shared.saver)(room.memory()) {
                eprintln!("inarow serve: {e:#}");
            }
            saved = Instant::now();
        }
        drop(room);
        if played > 0 {
            shared.notify(MENACE.topic);
        }
    }
}
