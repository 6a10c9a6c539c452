//! The HTTP routes. Every body is JSON with no unknown fields; every refusal
//! is a 4xx whose body is `{"error": "one line"}`. Before any route, the
//! [`guard`] checks the `Host`, the token, and that a request changing state
//! comes from the page with a small JSON body.
//!
//! The page's three parts each have their routes: `menace`, `gomoku`,
//! `tournament`; `analyse` answers any gomoku position and keeps no state
//! the viewers share, nor does `moves`, which reads moves written as text.
//! A request that changes a part goes the same way for all of them
//! (`Part::act`): lock it, act, tell the viewers, answer with the part as
//! they see it.

pub mod analyse;
mod gomoku;
pub mod guard;
mod menace;
mod moves;
mod position;
mod tournament;

use std::convert::Infallible;
use std::sync::{Arc, Mutex};

use axum::extract::rejection::JsonRejection;
use axum::extract::{FromRequest, Request, State};
use axum::http::{Method, StatusCode, Uri, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Extension, Json, Router};
use futures_util::{StreamExt, stream};
use serde::de::DeserializeOwned;
use tokio::sync::broadcast::{self, error::RecvError};

use crate::error::busy;
use crate::{Shared, Topic};

pub use crate::error::ApiError;
pub use guard::{Access, Guard, MAX_BODY, guarded};
pub use menace::MAX_SPEED;

/// The page, embedded so the program is all there is to install: one
/// document with its style inline; its script is the ES modules of
/// [`SCRIPTS`], `main.js` the one it loads.
const PAGE: &str = concat!(
    include_str!("../../page/head.html"),
    "<style>\n",
    include_str!("../../page/style.css"),
    "</style>\n",
    include_str!("../../page/body.html"),
    "<script type=\"module\" src=\"/page/main.js\"></script>\n</body>\n</html>\n",
);

/// A file of `crates/web/page/` by its name, embedded as it is.
macro_rules! script {
    ($name:literal) => {
        ($name, include_str!(concat!("../../page/", $name)))
    };
}

/// The page's script modules (`GET /page/NAME`), each a file of
/// `crates/web/page/` embedded as it is: browsers run them without a build
/// step.
const SCRIPTS: [(&str, &str); 25] = [
    script!("main.js"),
    script!("common.js"),
    script!("board.js"),
    script!("analyse.js"),
    script!("record.js"),
    script!("charts.js"),
    script!("menace.js"),
    script!("gomoku.js"),
    script!("analysis.js"),
    script!("analysis-state.js"),
    script!("analysis-settings.js"),
    script!("analysis-heat.js"),
    script!("analysis-draw.js"),
    script!("analysis-moves.js"),
    script!("analysis-engine.js"),
    script!("analysis-address.js"),
    script!("analysis-records.js"),
    script!("analysis-review.js"),
    script!("analysis-modes.js"),
    script!("text.js"),
    script!("tournament.js"),
    script!("live.js"),
    script!("thinking.js"),
    script!("link.js"),
    script!("tree.js"),
];

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
        // A body over the limit (the guard's, or axum's own 2 MB).
        _ if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE => StatusCode::PAYLOAD_TOO_LARGE,
        _ => StatusCode::BAD_REQUEST,
    };
    let text = rejection.body_text().replace('\n', " ");
    ApiError(status, format!("bad request body: {text}"))
}

type Reply = Result<Json<serde_json::Value>, ApiError>;

/// One part of the page: its state behind a lock, the topic its viewers
/// hear, and what they see of it.
struct Part<Room: 'static> {
    topic: Topic,
    room: fn(&Shared) -> &Mutex<Room>,
    view: fn(&Room) -> serde_json::Value,
}

impl<Room> Part<Room> {
    /// The part as its viewers see it.
    fn json(&self, shared: &Shared) -> Json<serde_json::Value> {
        Json((self.view)(&self.lock(shared)))
    }

    fn lock<'a>(&self, shared: &'a Shared) -> std::sync::MutexGuard<'a, Room> {
        (self.room)(shared)
            .lock()
            .unwrap_or_else(|_| panic!("{} lock", self.topic.name()))
    }

    /// Every change of the part: `act` on it under its lock, then (the lock
    /// released) `then` with what it returned; viewers are told, and the
    /// request is answered with the part as they now see it.
    fn act<T>(
        &self,
        shared: &Arc<Shared>,
        act: impl FnOnce(&mut Room) -> Result<T, ApiError>,
        then: impl FnOnce(&Arc<Shared>, T) -> Result<(), ApiError>,
    ) -> Reply {
        let done = act(&mut self.lock(shared))?;
        then(shared, done)?;
        shared.notify(self.topic);
        Ok(self.json(shared))
    }
}

/// Every route of the server over `shared`.
pub fn router(shared: Arc<Shared>) -> Router {
    let api = Router::new()
        .route("/", get(page))
        .route("/page/{file}", get(script))
        .route("/api/events", get(events))
        .route("/api/menace", get(menace::view))
        .route("/api/menace/new", post(menace::new_game))
        .route("/api/menace/move", post(menace::play))
        .route("/api/menace/train", post(menace::train))
        .route("/api/menace/stop", post(menace::stop))
        .route("/api/menace/trainer", post(menace::trainer_settings))
        .route("/api/menace/rewards", post(menace::rewards))
        .route("/api/menace/reset", post(menace::reset))
        .route("/api/menace/state", get(menace::state_file))
        .route("/api/gomoku", get(gomoku::view))
        .route("/api/gomoku/new", post(gomoku::new_game))
        .route("/api/gomoku/move", post(gomoku::play))
        .route("/api/gomoku/answer", post(gomoku::answer))
        .route("/api/gomoku/colour", post(gomoku::colour))
        .route("/api/gomoku/takeback", post(gomoku::take_back))
        .route("/api/gomoku/resign", post(gomoku::resign))
        .route("/api/gomoku/sgf", get(gomoku::sgf))
        .route("/api/analyse", post(analyse::analyse))
        .route("/api/position", post(position::position))
        .route("/api/moves", post(moves::read))
        .route("/api/tournament", get(tournament::view))
        .route("/api/tournament/start", post(tournament::start))
        .route("/api/tournament/games/{index}", get(tournament::game));
    api.fallback(not_found)
        .method_not_allowed_fallback(wrong_method)
        .with_state(shared)
}

async fn page() -> impl IntoResponse {
    ([(header::CACHE_CONTROL, "no-store")], Html(PAGE))
}

/// A module of [`SCRIPTS`]; any other name is 404. Never cached, so that
/// a page and its modules always come from the same server.
async fn script(uri: Uri) -> Result<Response, ApiError> {
    let name = uri.path().trim_start_matches("/page/");
    let Some((_, text)) = SCRIPTS.iter().find(|(file, _)| *file == name) else {
        return Err(ApiError(
            StatusCode::NOT_FOUND,
            format!("no such page file: {}", uri.path()),
        ));
    };
    let headers = [
        (header::CONTENT_TYPE, "text/javascript; charset=utf-8"),
        (header::CACHE_CONTROL, "no-store"),
    ];
    Ok((headers, *text).into_response())
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

/// Server-sent events: first `hello` with the client id of this stream
/// (`{"client": ID}`, see [`crate::live`]), which analyses may name while
/// the stream is open; then `update` naming the part
/// that changed, and `thinking` with the engine's progress (the game's for
/// every viewer, an analysis's for the client that asked for it only).
/// Streams have places of their own (`Options::max_streams`): when all are
/// taken the newest is refused with 503.
async fn events(
    State(shared): State<Arc<Shared>>,
    method: Method,
    connection: Option<Extension<crate::server::Connection>>,
) -> Response {
    // A HEAD has no stream to hold a place for.
    let streaming = connection.filter(|_| method == Method::GET);
    if let Some(Err(cap)) = streaming.map(|Extension(c)| c.become_stream()) {
        return busy(
            &format!("too many live-update streams open (at most {cap}); try again later"),
            STREAM_RETRY_S,
        );
    }
    let client: Arc<str> = crate::live::client_id().into();
    let hello = Event::default()
        .event("hello")
        .data(serde_json::json!({ "client": &*client }).to_string());
    let heard = Heard {
        updates: shared.events.subscribe(),
        thinking: shared.thinking().subscribe(),
        stop: shared.stop.subscribe(),
        _open: shared.analyses.open(client.clone()),
        client,
    };
    let rest = stream::unfold(heard, |mut heard| async move {
        let event = heard.next().await?;
        Some((Ok::<_, Infallible>(event), heard))
    });
    Sse::new(stream::once(async { Ok(hello) }).chain(rest))
        .keep_alive(KeepAlive::default())
        .into_response()
}

/// What one event stream listens to.
struct Heard {
    updates: broadcast::Receiver<Topic>,
    thinking: broadcast::Receiver<crate::live::Thinking>,
    stop: broadcast::Receiver<()>,
    client: Arc<str>,
    /// While the stream is open, analyses may name its client.
    _open: crate::analyses::Open,
}

impl Heard {
    /// The next event for this stream; none once the server stops.
    async fn next(&mut self) -> Option<Event> {
        loop {
            tokio::select! {
                _ = self.stop.recv() => return None,
                received = self.updates.recv() => {
                    let topic = match received {
                        Ok(topic) => topic,
                        // A slow viewer missed some: have it fetch everything.
                        Err(RecvError::Lagged(_)) => Topic::All,
                        Err(RecvError::Closed) => return None,
                    };
                    return Some(Event::default().event("update").data(topic.name()));
                }
                received = self.thinking.recv() => match received {
                    Ok(t) if t.to.as_deref().is_none_or(|to| to == &*self.client) => {
                        return Some(Event::default().event("thinking").data(&*t.data));
                    }
                    // Another client's, or missed by a slow viewer: the
                    // next report supersedes it anyway.
                    Ok(_) | Err(RecvError::Lagged(_)) => {}
                    Err(RecvError::Closed) => return None,
                },
            }
        }
    }
}

/// Seconds a client refused an event stream is asked to wait.
const STREAM_RETRY_S: u32 = 10;
