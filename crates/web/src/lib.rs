//! # inarow-web
//!
//! The local web page of `inarow serve`: watch MENACE learn, play gomoku
//! against the engine, follow judge tournaments. The page is one HTML
//! document and its script modules, embedded in the binary; the server is
//! axum with a JSON API and live updates as server-sent events
//! (`GET /api/events`).
//!
//! - [`menace`]: the shared MENACE room (game on show, trainer, chart).
//! - [`gomoku`]: a gomoku game against the engine through the Swap2 opening.
//! - [`tournament`]: judge runs over a bots folder and their records.
//! - [`analyses`]: the engine shared fairly between the clients that ask
//!   for analyses.
//! - [`live`]: the engine's thinking as it searches, over the event stream.
//! - [`api`]: the HTTP routes, request checks and errors.
//! - [`serve`]: the connection loop, within the limits of [`Options`]
//!   (deadlines on headers, bodies and answers; caps on connections and on
//!   event streams).
//!
//! Game logic stays in the library crates; this crate keeps what viewers
//! see and turns requests into calls. Files are written only through the
//! [`Saver`] the caller hands in, so the command line decides how state
//! files are stored.
#![deny(missing_docs)]

pub mod analyses;
pub mod api;
mod error;
pub mod gomoku;
pub mod live;
pub mod menace;
mod server;
pub mod tournament;

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use inarow_menace::Memory;
use tokio::sync::broadcast;

/// Saves the MENACE machines (the CLI's atomic state-file writer).
pub type Saver = Arc<dyn Fn(&Memory) -> anyhow::Result<()> + Send + Sync>;

/// What the server starts from.
pub struct Config {
    /// The loaded (or fresh) machines.
    pub memory: Memory,
    /// Seed of MENACE's opponents and the engine.
    pub seed: u64,
    /// Where MENACE is saved after each game and on shutdown.
    pub saver: Saver,
    /// The bots folder tournaments run over.
    pub bots: PathBuf,
    /// How tournament bots are started: contained, and within which limits.
    pub sandbox: inarow_sandbox::Sandbox,
    /// Where tournaments leave their results and SGF records (none: kept
    /// in memory only); the results file there is read back at start.
    pub records: Option<tournament::Records>,
    /// How many analyses run at once and wait (`POST /api/analyse`).
    pub analyses: analyses::Caps,
}

/// A part of the page that changed, as its viewers are told
/// (`GET /api/events`: `event: update`, `data:` its name).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Topic {
    /// The MENACE room.
    Menace,
    /// The gomoku game.
    Gomoku,
    /// The tournament runs.
    Tournament,
    /// Every part: a viewer too slow missed some updates.
    All,
}

impl Topic {
    /// The name the page hears (`menace`, `gomoku`, `tournament`, `all`).
    pub fn name(self) -> &'static str {
        match self {
            Topic::Menace => "menace",
            Topic::Gomoku => "gomoku",
            Topic::Tournament => "tournament",
            Topic::All => "all",
        }
    }
}

/// The state every request shares.
pub struct Shared {
    /// The MENACE room.
    pub menace: Mutex<menace::Room>,
    /// The gomoku game.
    pub gomoku: Mutex<gomoku::Game>,
    /// The engine the gomoku game is played against.
    pub engine: Arc<Mutex<inarow_engine::player::Engine>>,
    /// Set when the game the engine thinks for ends (a new game, a
    /// resignation): its search stops at once rather than keep the next
    /// game's engine waiting for its time to run out.
    pub engine_stop: Arc<AtomicBool>,
    /// The tournament runs.
    pub tournament: Mutex<tournament::Runs>,
    /// The analyses of `POST /api/analyse`, shared fairly between clients.
    pub analyses: Arc<analyses::Analyses>,
    saver: Saver,
    bots: PathBuf,
    sandbox: inarow_sandbox::Sandbox,
    records: Option<tournament::Records>,
    seed: u64,
    events: broadcast::Sender<Topic>,
    thinking: broadcast::Sender<live::Thinking>,
    stop: broadcast::Sender<()>,
}

impl Shared {
    /// Tells every viewer that `topic` changed; they fetch it again.
    pub fn notify(&self, topic: Topic) {
        // No viewer connected is not an error.
        let _ = self.events.send(topic);
    }

    /// Where live thinking goes: to every event stream, each passing on
    /// what is for every viewer or for its own client.
    pub fn thinking(&self) -> &broadcast::Sender<live::Thinking> {
        &self.thinking
    }

    /// How tournament bots are started.
    pub fn sandbox(&self) -> &inarow_sandbox::Sandbox {
        &self.sandbox
    }

    /// Where tournaments leave their files, if anywhere.
    pub fn records(&self) -> Option<&tournament::Records> {
        self.records.as_ref()
    }

    /// Saves the MENACE machines now.
    pub fn save(&self) -> anyhow::Result<()> {
        let room = self.menace.lock().expect("menace lock");
        (self.saver)(room.memory())
    }

    /// Stops training and saves: what a clean shutdown does. Ending the
    /// tournaments' bots is the process's (`inarow serve` kills them all
    /// before the server stops), since one process may hold several servers.
    pub fn shut_down(&self) -> anyhow::Result<()> {
        let mut room = self.menace.lock().expect("menace lock");
        room.set_training(false);
        room.abandon();
        (self.saver)(room.memory())
    }
}

/// The shared state for `config`.
pub fn shared(config: Config) -> Arc<Shared> {
    let (events, _) = broadcast::channel(64);
    // Reports of several searches at once, each a few a second; one that
    // a slow viewer misses is stale by the next anyway.
    let (thinking, _) = broadcast::channel(256);
    let engine_stop = Arc::new(AtomicBool::new(false));
    let mut engine = gomoku::engine(config.seed);
    engine.request_mut().stop = Some(engine_stop.clone());
    let (stop, _) = broadcast::channel(1);
    Arc::new(Shared {
        menace: Mutex::new(menace::Room::new(config.memory, config.seed)),
        gomoku: Mutex::new(gomoku::Game::default()),
        engine: Arc::new(Mutex::new(engine)),
        engine_stop,
        tournament: Mutex::new(past_runs(config.records.as_ref())),
        analyses: Arc::new(analyses::Analyses::new(
            config.analyses,
            inarow_engine::search::Options::default(),
        )),
        saver: config.saver,
        bots: config.bots,
        sandbox: config.sandbox,
        records: config.records,
        seed: config.seed,
        events,
        thinking,
        stop,
    })
}

/// How the server treats connections and who it answers; the limits are
/// listed in `docs/web.md` ("Limits").
#[derive(Clone, Debug)]
pub struct Options {
    /// `Host` names besides its address, and the token (see [`api::guard`]).
    pub access: api::Access,
    /// How long a client may take to send a request's headers (also how
    /// long an idle kept-alive connection stays open).
    pub header_timeout: Duration,
    /// How long a request's body may take to arrive once its headers are
    /// in (408 after that), and a client to take in an answer once it is
    /// ready; a connection a second past either is closed.
    pub body_timeout: Duration,
    /// Most connections open at once, event streams aside. When all are
    /// taken, the one waiting longest on its client is closed to make room;
    /// if the server is at work on every one, newcomers get 503.
    pub max_connections: usize,
    /// Most event streams (`GET /api/events`) open at once; more get 503.
    pub max_streams: usize,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            access: api::Access::default(),
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(10),
            max_connections: 256,
            max_streams: 64,
        }
    }
}

/// The run of the newest results file of `records` (the highest numbered
/// one a run from the page wrote, else the given one), if there is one; a
/// file that cannot be read is a warning, not a reason to stop.
fn past_runs(records: Option<&tournament::Records>) -> tournament::Runs {
    let Some(records) = records else {
        return tournament::Runs::default();
    };
    match tournament::Runs::restore(&records.latest().results) {
        Ok(runs) => runs.unwrap_or_default(),
        Err(e) => {
            eprintln!(
                "inarow: warning: past tournament not shown: {}",
                inarow_judge::shown::escape(&e.to_string())
            );
            tournament::Runs::default()
        }
    }
}

/// Serves `shared` on `listener` until `shutdown` completes, then stops
/// training and saves MENACE. Refuses to start on a non-loopback address
/// without a token. Killing the process's bots is the caller's (the CLI's
/// `shutdown` does it first), since one process may hold several servers.
pub async fn serve(
    listener: tokio::net::TcpListener,
    shared: Arc<Shared>,
    options: Options,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    let guard = api::Guard::new(&options.access, listener.local_addr()?)?;
    let app = api::guarded(api::router(shared.clone()), guard);
    let stop = shared.stop.clone();
    let ending = async move {
        shutdown.await;
        // Open event streams would otherwise keep the server waiting.
        let _ = stop.send(());
    };
    server::connections(listener, app, &options, ending).await;
    shared.shut_down()
}
