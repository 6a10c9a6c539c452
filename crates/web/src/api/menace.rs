//! The MENACE routes: a game against MENACE, training and its stop.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde::Deserialize;

use super::{ApiError, Body, Part, Reply};
use crate::Shared;
use crate::menace::{MoveError, Opponent, Room};

/// Fastest training speed accepted, in games per second.
pub const MAX_SPEED: u32 = 100_000;

/// The MENACE room of the page.
const MENACE: Part<Room> = Part {
    topic: "menace",
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

pub(super) async fn train(State(shared): State<Arc<Shared>>, Body(body): Body<TrainBody>) -> Reply {
    if !(1..=MAX_SPEED).contains(&body.speed) {
        return Err(ApiError::bad(format!(
            "speed {} is out of range: use 1 to {MAX_SPEED} games per second",
            body.speed
        )));
    }
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
            shared.notify("menace");
        }
    }
}
