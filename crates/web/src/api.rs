//! The HTTP routes. Every body is JSON with no unknown fields; every refusal
//! is a 4xx whose body is `{"error": "one line"}`.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::rejection::JsonRejection;
use axum::extract::{FromRequest, Path, Request, State};
use axum::http::{Method, StatusCode, Uri, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use futures_util::stream::{self, Stream};
use serde::Deserialize;
use serde::de::DeserializeOwned;

use crate::Shared;
use crate::gomoku::{self, Answer, Job, Refused};
use crate::menace::{MoveError, Opponent};
use inarow_judge::tournament;

/// The page, embedded so the program is all there is to install.
const PAGE: &str = include_str!("../page/index.html");

/// Fastest training speed accepted, in games per second.
pub const MAX_SPEED: u32 = 100_000;

/// A refused request: its status and one line saying why.
#[derive(Debug)]
pub struct ApiError(pub StatusCode, pub String);

impl ApiError {
    fn bad(message: impl Into<String>) -> ApiError {
        ApiError(StatusCode::BAD_REQUEST, message.into())
    }

    fn conflict(message: impl Into<String>) -> ApiError {
        ApiError(StatusCode::CONFLICT, message.into())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.0, Json(serde_json::json!({ "error": self.1 }))).into_response()
    }
}

impl From<MoveError> for ApiError {
    fn from(e: MoveError) -> ApiError {
        match e {
            MoveError::OffBoard(_) | MoveError::Taken(_) => ApiError::bad(e.to_string()),
            MoveError::NoGame | MoveError::Training => ApiError::conflict(e.to_string()),
        }
    }
}

/// A JSON body whose rejections read as one-line API errors.
pub struct Body<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for Body<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        match Json::<T>::from_request(req, state).await {
            Ok(Json(value)) => Ok(Body(value)),
            Err(rejection) => Err(json_error(rejection)),
        }
    }
}

fn json_error(rejection: JsonRejection) -> ApiError {
    let status = match rejection {
        JsonRejection::MissingJsonContentType(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
        _ => StatusCode::BAD_REQUEST,
    };
    let text = rejection.body_text().replace('\n', " ");
    ApiError(status, format!("bad request body: {text}"))
}

type Reply = Result<Json<serde_json::Value>, ApiError>;

/// Every route of the server over `shared`.
pub fn router(shared: Arc<Shared>) -> Router {
    let api = Router::new()
        .route("/", get(page))
        .route("/api/events", get(events))
        .route("/api/menace", get(menace_view))
        .route("/api/menace/new", post(menace_new))
        .route("/api/menace/move", post(menace_move))
        .route("/api/menace/train", post(menace_train))
        .route("/api/menace/stop", post(menace_stop))
        .route("/api/gomoku", get(gomoku_view))
        .route("/api/gomoku/new", post(gomoku_new))
        .route("/api/gomoku/move", post(gomoku_move))
        .route("/api/gomoku/answer", post(gomoku_answer))
        .route("/api/gomoku/colour", post(gomoku_colour))
        .route("/api/tournament", get(tournament_view))
        .route("/api/tournament/start", post(tournament_start))
        .route("/api/tournament/games/{index}", get(tournament_game));
    api.fallback(not_found)
        .method_not_allowed_fallback(wrong_method)
        .with_state(shared)
}

async fn page() -> impl IntoResponse {
    ([(header::CACHE_CONTROL, "no-store")], Html(PAGE))
}

async fn not_found(method: Method, uri: Uri) -> ApiError {
    ApiError(
        StatusCode::NOT_FOUND,
        format!("no such endpoint: {method} {}", uri.path()),
    )
}

async fn wrong_method(method: Method, uri: Uri) -> ApiError {
    ApiError(
        StatusCode::METHOD_NOT_ALLOWED,
        format!("{method} is not allowed on {}", uri.path()),
    )
}

/// Server-sent events: one `update` event naming the part that changed.
async fn events(
    State(shared): State<Arc<Shared>>,
) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
    let updates = shared.events.subscribe();
    let stop = shared.stop.subscribe();
    let stream = stream::unfold((updates, stop), |(mut updates, mut stop)| async move {
        tokio::select! {
            _ = stop.recv() => None,
            received = updates.recv() => {
                let topic = match received {
                    Ok(topic) => topic,
                    // A slow viewer missed some: have it fetch everything.
                    Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => "all",
                    Err(tokio::sync::broadcast::error::RecvError::Closed) => return None,
                };
                Some((Ok(Event::default().event("update").data(topic)), (updates, stop)))
            }
        }
    });
    Sse::new(stream).keep_alive(KeepAlive::default())
}

fn menace_json(shared: &Shared) -> Json<serde_json::Value> {
    Json(shared.menace.lock().expect("menace lock").view())
}

async fn menace_view(State(shared): State<Arc<Shared>>) -> Json<serde_json::Value> {
    menace_json(&shared)
}

async fn menace_new(State(shared): State<Arc<Shared>>) -> Reply {
    let ended = {
        let mut room = shared.menace.lock().expect("menace lock");
        room.new_game()?;
        // MENACE may resign at once (an emptied first box).
        !room.in_game()
    };
    if ended {
        save(&shared)?;
    }
    shared.notify("menace");
    Ok(menace_json(&shared))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveBody {
    square: u64,
}

async fn menace_move(State(shared): State<Arc<Shared>>, Body(body): Body<MoveBody>) -> Reply {
    let ended = shared
        .menace
        .lock()
        .expect("menace lock")
        .play(body.square)?;
    if ended {
        save(&shared)?;
    }
    shared.notify("menace");
    Ok(menace_json(&shared))
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
struct TrainBody {
    opponent: Opponent,
    speed: u32,
}

async fn menace_train(State(shared): State<Arc<Shared>>, Body(body): Body<TrainBody>) -> Reply {
    if !(1..=MAX_SPEED).contains(&body.speed) {
        return Err(ApiError::bad(format!(
            "speed {} is out of range: use 1 to {MAX_SPEED} games per second",
            body.speed
        )));
    }
    let start = {
        let mut room = shared.menace.lock().expect("menace lock");
        room.set_trainer(body.opponent, body.speed);
        let start = !room.training();
        room.set_training(true);
        start
    };
    if start {
        let shared = shared.clone();
        std::thread::spawn(move || trainer(&shared));
    }
    shared.notify("menace");
    Ok(menace_json(&shared))
}

async fn menace_stop(State(shared): State<Arc<Shared>>) -> Reply {
    shared
        .menace
        .lock()
        .expect("menace lock")
        .set_training(false);
    save(&shared)?;
    shared.notify("menace");
    Ok(menace_json(&shared))
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

impl From<Refused> for ApiError {
    fn from(r: Refused) -> ApiError {
        if r.bad_input {
            ApiError::bad(r.message)
        } else {
            ApiError::conflict(r.message)
        }
    }
}

fn gomoku_json(shared: &Shared) -> Json<serde_json::Value> {
    Json(shared.gomoku.lock().expect("gomoku lock").view())
}

/// Runs the engine's jobs on a thread of their own, one after another,
/// applying each to the table if its game is still on.
fn think(shared: &Arc<Shared>, job: Option<Job>) {
    let Some(job) = job else {
        return;
    };
    let shared = shared.clone();
    std::thread::spawn(move || {
        let mut next = Some(job);
        while let Some(job) = next {
            let done = gomoku::work(&mut shared.engine.lock().expect("engine lock"), &job);
            next = shared
                .gomoku
                .lock()
                .expect("gomoku lock")
                .done(job.game_id, done);
            shared.notify("gomoku");
        }
    });
}

async fn gomoku_view(State(shared): State<Arc<Shared>>) -> Json<serde_json::Value> {
    gomoku_json(&shared)
}

#[derive(Deserialize)]
#[serde(rename_all = "lowercase")]
enum Opener {
    You,
    Engine,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewGomoku {
    opener: Opener,
    time_ms: u64,
}

async fn gomoku_new(State(shared): State<Arc<Shared>>, Body(body): Body<NewGomoku>) -> Reply {
    let job = shared
        .gomoku
        .lock()
        .expect("gomoku lock")
        .new_game(matches!(body.opener, Opener::You), body.time_ms)?;
    think(&shared, job);
    shared.notify("gomoku");
    Ok(gomoku_json(&shared))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Stone {
    x: usize,
    y: usize,
}

async fn gomoku_move(State(shared): State<Arc<Shared>>, Body(body): Body<Stone>) -> Reply {
    let job = shared
        .gomoku
        .lock()
        .expect("gomoku lock")
        .click(body.x, body.y)?;
    think(&shared, job);
    shared.notify("gomoku");
    Ok(gomoku_json(&shared))
}

async fn gomoku_answer(State(shared): State<Arc<Shared>>, Body(body): Body<Answer>) -> Reply {
    let job = shared.gomoku.lock().expect("gomoku lock").answer(body)?;
    think(&shared, job);
    shared.notify("gomoku");
    Ok(gomoku_json(&shared))
}

#[derive(Deserialize)]
#[serde(rename_all = "lowercase")]
enum Colour {
    Black,
    White,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ColourBody {
    colour: Colour,
}

async fn gomoku_colour(State(shared): State<Arc<Shared>>, Body(body): Body<ColourBody>) -> Reply {
    let colour = match body.colour {
        Colour::Black => inarow_core::Player::X,
        Colour::White => inarow_core::Player::O,
    };
    let job = shared.gomoku.lock().expect("gomoku lock").choose(colour)?;
    think(&shared, job);
    shared.notify("gomoku");
    Ok(gomoku_json(&shared))
}

fn tournament_json(shared: &Shared) -> Json<serde_json::Value> {
    Json(shared.tournament.lock().expect("tournament lock").view())
}

async fn tournament_view(State(shared): State<Arc<Shared>>) -> Json<serde_json::Value> {
    tournament_json(&shared)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StartBody {
    seed: Option<u64>,
    jobs: Option<usize>,
    timeout_ms: Option<u64>,
}

async fn tournament_start(State(shared): State<Arc<Shared>>, Body(body): Body<StartBody>) -> Reply {
    use crate::tournament::{MAX_JOBS, Request, TIMEOUT_MS, bots_of, config};
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
    let request = Request {
        seed: body.seed.unwrap_or(shared.seed),
        jobs,
        timeout_ms,
    };
    let bots = bots_of(&shared.bots).map_err(ApiError::conflict)?;
    // Each bot's sandbox is tried first: a bot that cannot be contained never runs.
    let checked = {
        let (sandbox, bots) = (shared.sandbox().clone(), bots.clone());
        tokio::task::spawn_blocking(move || inarow_judge::tournament::check_bots(&sandbox, &bots))
            .await
            .map_err(|e| ApiError::conflict(format!("cannot check the bots: {e}")))?
    };
    checked.map_err(ApiError::conflict)?;
    {
        let mut runs = shared.tournament.lock().expect("tournament lock");
        if runs.running() {
            return Err(ApiError::conflict(
                "a tournament is already running: wait for it to end",
            ));
        }
        runs.start(request, &bots);
    }
    let runner = shared.clone();
    std::thread::spawn(move || {
        let shared = runner;
        tournament::play_all_watched(
            &bots,
            &config(&request, shared.sandbox()),
            &|record| {
                shared
                    .tournament
                    .lock()
                    .expect("tournament lock")
                    .finished(record);
                shared.notify("tournament");
            },
            &|index, name, prompt| {
                let due = shared
                    .tournament
                    .lock()
                    .expect("tournament lock")
                    .prompt(index, name, prompt);
                if due {
                    shared.notify("tournament");
                }
            },
        );
        shared.tournament.lock().expect("tournament lock").ended();
        shared.notify("tournament");
    });
    shared.notify("tournament");
    Ok(tournament_json(&shared))
}

async fn tournament_game(State(shared): State<Arc<Shared>>, Path(index): Path<String>) -> Reply {
    let number: usize = index
        .parse()
        .map_err(|_| ApiError::bad(format!("{index:?} is not a game number: use 0, 1, 2, ...")))?;
    let runs = shared.tournament.lock().expect("tournament lock");
    let game = runs.game(number).ok_or_else(|| {
        ApiError(
            StatusCode::NOT_FOUND,
            format!("no finished game {number} in the current tournament"),
        )
    })?;
    Ok(Json(serde_json::to_value(game).expect("records serialize")))
}
