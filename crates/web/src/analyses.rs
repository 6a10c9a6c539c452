//! The engine shared fairly between the clients that ask for analyses
//! (`POST /api/analyse`).
//!
//! - **One at a time per client.** A client is an event stream: its id is
//!   the server's, given in the stream's first event ([`crate::live`]), and
//!   a request naming an id no open stream holds is refused ([`Open`]); a
//!   request naming none is a client of its own. A client's new request
//!   replaces its last: one still waiting is answered at once as replaced,
//!   one running is stopped (the engine's stop flag) and answered so.
//! - **Side by side.** Up to [`Caps::running`] analyses run at once, each
//!   on a thread and a searcher of its own, so the machine's time is split
//!   between them. Analyses are limited by time, not nodes, so each still
//!   answers within the time it asked for.
//! - **Turns.** While a request waits, a running analysis is cut at its
//!   turn's end ([`Caps::turn`] after it started) and answered with what
//!   it found (`cut`): a client asking for 10 s analyses back to back slows
//!   the others' but does not hold them up.
//! - **A queue.** A request of an open stream's client that finds every
//!   place taken waits its turn, in the order they came: one a client, so
//!   at most one a stream, each started within a few turns. Requests naming
//!   no client wait up to [`Caps::waiting`] of them; past that they are
//!   refused (503, one line). A request waiting longer than [`WAIT_MOST`]
//!   is refused too (503), which the turns make a bound never reached.
//! - **Gone is stopped.** A request whose client went away (its connection
//!   closed, the handler dropped) leaves the queue, or is stopped.
//!
//! Searchers are kept from one analysis to the next, up to one for each
//! place, and a client gets the one it used last when it is free: a page
//! that asks again with more time goes on from what was found.

use std::collections::{HashSet, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use inarow_core::Rule;
use inarow_engine::search::{Options, Searcher};
use tokio::sync::oneshot;

/// How many analyses run at once, how many of no client may wait, and
/// how long a run keeps its place while others wait.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Caps {
    /// Analyses running at once (at least 1).
    pub running: usize,
    /// Analyses naming no client waiting for a place (0: none waits; full
    /// means 503). A stream's client always waits: one request a stream.
    pub waiting: usize,
    /// A running analysis's turn: while a request waits, it is cut when it
    /// has run this long.
    pub turn: Duration,
}

impl Default for Caps {
    fn default() -> Caps {
        Caps {
            running: 4,
            waiting: 16,
            // 64 streams (the server's cap) waiting for 4 places are all
            // started within 16 turns: 4 s.
            turn: Duration::from_millis(250),
        }
    }
}

/// The longest a request waits for a place before it is refused (503):
/// turns start every waiting request well before.
pub const WAIT_MOST: Duration = Duration::from_secs(10);

/// Who asks.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Client {
    /// A client naming itself (the page's event stream id).
    Named(Arc<str>),
    /// A request naming no client: its number.
    Alone(u64),
}

/// A searcher kept between analyses, with what it last searched.
pub struct Kept {
    searcher: Box<Searcher>,
    last: Option<(usize, Rule)>,
    client: Option<Client>,
}

impl Kept {
    /// The searcher, its tables cleared if it last searched another size
    /// or rule (they would only mislead it).
    pub fn searcher_for(&mut self, size: usize, rule: Rule) -> &mut Searcher {
        if self.last != Some((size, rule)) {
            self.searcher.clear();
            self.last = Some((size, rule));
        }
        &mut self.searcher
    }
}

/// Why an analysis did not run to its end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Every place and every waiting place is taken.
    Full {
        /// Analyses running.
        running: usize,
        /// Analyses waiting.
        waiting: usize,
    },
    /// The same client asked for another analysis.
    Replaced,
    /// The client id names no open event stream.
    Unknown,
    /// No place came within [`WAIT_MOST`].
    Waited,
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::Full { running, waiting } => write!(
                f,
                "the engine's analysis queue is full ({running} running, {waiting} waiting): try again shortly"
            ),
            Refusal::Replaced => {
                write!(f, "replaced by a newer analysis from the same client")
            }
            Refusal::Unknown => write!(
                f,
                "client names no open event stream: use the id of the page's stream (its hello event)"
            ),
            Refusal::Waited => write!(
                f,
                "no analysis place came free within {} s: try again shortly",
                WAIT_MOST.as_secs()
            ),
        }
    }
}

struct Running {
    number: u64,
    client: Client,
    stop: Arc<AtomicBool>,
    replaced: Arc<AtomicBool>,
    cut: Arc<AtomicBool>,
    /// When its turn ends: cut then if a request waits.
    turn_ends: Instant,
}

struct Waiting {
    number: u64,
    client: Client,
    go: oneshot::Sender<Result<Place, Refusal>>,
}

/// A place to run: the searcher, and the flags that stop the run. Dropped,
/// wherever that happens (the run over, or its request gone before it
/// began: a place handed to a request that left with it still on its
/// way), it frees the place for the next request.
pub struct Place {
    number: u64,
    kept: Option<Kept>,
    analyses: Arc<Analyses>,
    /// Set to stop the run (its client replaced or left it, or its turn
    /// ended while others waited).
    pub stop: Arc<AtomicBool>,
    replaced: Arc<AtomicBool>,
    cut: Arc<AtomicBool>,
}

impl Place {
    /// The searcher to run on.
    pub fn kept(&mut self) -> &mut Kept {
        self.kept
            .as_mut()
            .expect("a place holds its searcher until dropped")
    }

    /// Whether the run was stopped because its client asked for another.
    pub fn replaced(&self) -> bool {
        self.replaced.load(Ordering::SeqCst)
    }

    /// Whether the run was cut at its turn's end, others waiting: its
    /// answer is what it found by then.
    pub fn cut(&self) -> bool {
        self.cut.load(Ordering::SeqCst) && !self.replaced()
    }
}

impl Drop for Place {
    fn drop(&mut self) {
        let Some(kept) = self.kept.take() else {
            return;
        };
        let mut state = self.analyses.lock();
        state.running.retain(|r| r.number != self.number);
        // A search that panicked may have left its searcher half way: the
        // next request gets a new one.
        let kept = if std::thread::panicking() {
            state.made -= 1;
            None
        } else {
            Some(kept)
        };
        self.analyses.hand_on(&mut state, kept);
    }
}

#[derive(Default)]
struct State {
    next: u64,
    running: Vec<Running>,
    waiting: VecDeque<Waiting>,
    idle: Vec<Kept>,
    made: usize,
    /// The client ids of the open event streams.
    open: HashSet<Arc<str>>,
    /// Whether the thread that cuts turns runs.
    keeper: bool,
}

/// An open event stream's hold on its client id: while it lives, requests
/// may name the id; dropped (the stream closed), the id names nothing.
pub struct Open {
    analyses: Arc<Analyses>,
    id: Arc<str>,
}

impl Drop for Open {
    fn drop(&mut self) {
        self.analyses.lock().open.remove(&self.id);
    }
}

/// The analyses of the server: those running, those waiting, and the
/// searchers they run on.
pub struct Analyses {
    caps: Caps,
    options: Options,
    state: Mutex<State>,
}

/// A request's hold on its analysis: dropped (the request answered or
/// abandoned), it leaves the queue or stops its run.
pub struct Ticket {
    analyses: Arc<Analyses>,
    number: u64,
}

/// Where an admitted request stands.
pub enum Admitted {
    /// It runs now.
    Run(Place),
    /// It waits: the place comes (or its replacement is told) here.
    Wait(oneshot::Receiver<Result<Place, Refusal>>),
}

impl Analyses {
    /// No analysis yet, within `caps`; searchers made with `options`.
    pub fn new(caps: Caps, options: Options) -> Analyses {
        Analyses {
            caps: Caps {
                running: caps.running.max(1),
                ..caps
            },
            options,
            state: Mutex::new(State::default()),
        }
    }

    /// The caps in force.
    pub fn caps(&self) -> Caps {
        self.caps
    }

    /// How many requests came in so far: admitted, or refused for a full
    /// queue.
    pub fn admitted(&self) -> u64 {
        self.lock().next
    }

    /// How many analyses run and wait now.
    pub fn load(&self) -> (usize, usize) {
        let state = self.lock();
        (state.running.len(), state.waiting.len())
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // The state stays consistent whatever panicked while it was held.
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Opens the client `id` (an event stream's, fresh from
    /// [`crate::live::client_id`]) for as long as the hold lives.
    pub fn open(self: &Arc<Self>, id: Arc<str>) -> Open {
        self.lock().open.insert(id.clone());
        Open {
            analyses: self.clone(),
            id,
        }
    }

    /// Admits a request from `client` (none: a client of its own): refused
    /// if no open stream holds the id; its client's earlier request is
    /// replaced, then it runs if a place is free, else waits (a stream's
    /// client always, one naming none if [`Caps::waiting`] has room), else
    /// is refused.
    pub fn enter(
        self: &Arc<Self>,
        client: Option<Arc<str>>,
    ) -> Result<(Ticket, Admitted), Refusal> {
        let mut state = self.lock();
        if client.as_ref().is_some_and(|id| !state.open.contains(id)) {
            return Err(Refusal::Unknown);
        }
        let number = state.next;
        state.next += 1;
        let client = match client {
            Some(name) => Client::Named(name),
            None => Client::Alone(number),
        };
        for run in state.running.iter().filter(|r| r.client == client) {
            run.replaced.store(true, Ordering::SeqCst);
            run.stop.store(true, Ordering::SeqCst);
        }
        while let Some(i) = state.waiting.iter().position(|w| w.client == client) {
            let earlier = state.waiting.remove(i).expect("found above");
            // Its request may be gone already: nobody to tell.
            let _ = earlier.go.send(Err(Refusal::Replaced));
        }
        let ticket = || Ticket {
            analyses: self.clone(),
            number,
        };
        if state.running.len() < self.caps.running {
            let place = self.start(&mut state, number, client);
            return Ok((ticket(), Admitted::Run(place)));
        }
        let alone = |w: &Waiting| matches!(w.client, Client::Alone(_));
        let room = match client {
            Client::Named(_) => true,
            Client::Alone(_) => {
                state.waiting.iter().filter(|w| alone(w)).count() < self.caps.waiting
            }
        };
        if room {
            let (go, wait) = oneshot::channel();
            state.waiting.push_back(Waiting { number, client, go });
            self.keep_turns(&mut state);
            return Ok((ticket(), Admitted::Wait(wait)));
        }
        Err(Refusal::Full {
            running: state.running.len(),
            waiting: state.waiting.len(),
        })
    }

    /// Makes request `number` a running one, on the searcher `client` used
    /// last if it is free, else any free one, else a new one.
    fn start(self: &Arc<Self>, state: &mut State, number: u64, client: Client) -> Place {
        let own = state
            .idle
            .iter()
            .position(|k| k.client.as_ref() == Some(&client));
        let kept = match own.or_else(|| state.idle.len().checked_sub(1)) {
            Some(i) => state.idle.swap_remove(i),
            None => self.fresh(state),
        };
        self.running(state, number, client, kept)
    }

    fn running(
        self: &Arc<Self>,
        state: &mut State,
        number: u64,
        client: Client,
        mut kept: Kept,
    ) -> Place {
        let stop = Arc::new(AtomicBool::new(false));
        let replaced = Arc::new(AtomicBool::new(false));
        let cut = Arc::new(AtomicBool::new(false));
        kept.client = Some(client.clone());
        state.running.push(Running {
            number,
            client,
            stop: stop.clone(),
            replaced: replaced.clone(),
            cut: cut.clone(),
            turn_ends: Instant::now() + self.caps.turn,
        });
        Place {
            number,
            kept: Some(kept),
            analyses: self.clone(),
            stop,
            replaced,
            cut,
        }
    }

    /// Starts the thread that cuts running analyses at their turn's end,
    /// unless it runs: it ends when no request waits.
    fn keep_turns(self: &Arc<Self>, state: &mut State) {
        if state.keeper {
            return;
        }
        state.keeper = true;
        let analyses = self.clone();
        std::thread::spawn(move || {
            loop {
                let mut state = analyses.lock();
                if state.waiting.is_empty() {
                    state.keeper = false;
                    return;
                }
                let now = Instant::now();
                let mut next = now + analyses.caps.turn;
                for run in &state.running {
                    if run.turn_ends <= now {
                        run.cut.store(true, Ordering::SeqCst);
                        run.stop.store(true, Ordering::SeqCst);
                    } else {
                        next = next.min(run.turn_ends);
                    }
                }
                drop(state);
                // Not a test's wait: the clock is what a turn is.
                std::thread::sleep(next.saturating_duration_since(now));
            }
        });
    }

    /// A place came free with `kept` (none: its searcher is to be made):
    /// the first request waiting that is still there takes it.
    fn hand_on(self: &Arc<Self>, state: &mut State, mut kept: Option<Kept>) {
        while let Some(next) = state.waiting.pop_front() {
            let searcher = kept.take().unwrap_or_else(|| self.fresh(state));
            let place = self.running(state, next.number, next.client, searcher);
            match next.go.send(Ok(place)) {
                Ok(()) => return,
                // Its request went away meanwhile: the next one, then.
                Err(back) => {
                    let mut place = back.expect("sent a place");
                    state.running.retain(|r| r.number != next.number);
                    // Taken out, the place's drop does nothing (the lock is held).
                    kept = place.kept.take();
                }
            }
        }
        if let Some(kept) = kept {
            state.idle.push(kept);
        }
    }

    fn fresh(&self, state: &mut State) -> Kept {
        state.made += 1;
        Kept {
            searcher: Box::new(Searcher::new(self.options)),
            last: None,
            client: None,
        }
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        let mut state = self.analyses.lock();
        state.waiting.retain(|w| w.number != self.number);
        for run in state.running.iter().filter(|r| r.number == self.number) {
            run.stop.store(true, Ordering::SeqCst);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn analyses(running: usize, waiting: usize) -> Arc<Analyses> {
        let options = Options {
            tt_bytes: 1 << 16,
            ..Options::default()
        };
        // Turns are the flood test's (tests/live_api.rs): none cut here.
        let turn = Duration::from_secs(3600);
        Arc::new(Analyses::new(
            Caps {
                running,
                waiting,
                turn,
            },
            options,
        ))
    }

    fn run(admitted: Admitted) -> Place {
        match admitted {
            Admitted::Run(place) => place,
            Admitted::Wait(_) => panic!("waits"),
        }
    }

    #[test]
    fn places_then_the_queue_then_refusal() {
        let a = analyses(2, 1);
        let (_t1, first) = a.enter(None).unwrap();
        let (_t2, _second) = a.enter(None).unwrap();
        let (_t3, third) = a.enter(None).unwrap();
        let Admitted::Wait(mut third) = third else {
            panic!("the third runs");
        };
        let refused = a.enter(None).err().unwrap();
        assert_eq!(
            refused,
            Refusal::Full {
                running: 2,
                waiting: 1
            }
        );
        assert!(!refused.to_string().contains('\n'));
        assert_eq!(a.load(), (2, 1));
        // The first ends: the third gets its searcher.
        drop(run(first));
        let place = third.try_recv().unwrap().unwrap();
        assert_eq!(a.load(), (2, 0));
        drop(place);
        assert_eq!(a.load(), (1, 0));
        assert_eq!(a.lock().made, 2);
    }

    #[test]
    fn a_clients_new_request_replaces_its_last() {
        let a = analyses(1, 2);
        let me: Arc<str> = "page".into();
        let (_mine, _theirs) = (a.open(me.clone()), a.open("other".into()));
        let (_t1, first) = a.enter(Some(me.clone())).unwrap();
        let first = run(first);
        // Running: stopped, and told it was replaced.
        let (t2, second) = a.enter(Some(me.clone())).unwrap();
        assert!(first.stop.load(Ordering::SeqCst) && first.replaced());
        let Admitted::Wait(mut second) = second else {
            panic!("runs beside its own stopping run");
        };
        // Waiting: answered at once.
        let (_t3, third) = a.enter(Some(me.clone())).unwrap();
        assert_eq!(second.try_recv().unwrap().err(), Some(Refusal::Replaced));
        // Another client is not touched.
        let (_t4, _other) = a.enter(Some("other".into())).unwrap();
        assert_eq!(a.load(), (1, 2));
        drop(t2);
        drop(first);
        let Admitted::Wait(mut third) = third else {
            panic!("the third runs");
        };
        let place = third.try_recv().unwrap().unwrap();
        assert!(!place.replaced());
        drop(place);
    }

    #[test]
    fn a_client_is_an_open_stream_and_always_waits_its_turn() {
        let a = analyses(1, 1);
        let page: Arc<str> = "0123abcd".into();
        // An id no stream holds: refused in one line.
        let refused = a.enter(Some(page.clone())).err().unwrap();
        assert_eq!(refused, Refusal::Unknown);
        assert!(!refused.to_string().contains('\n'));
        let open = a.open(page.clone());
        let (_t1, _first) = a.enter(None).unwrap();
        let (_t2, _second) = a.enter(None).unwrap();
        assert!(matches!(a.enter(None), Err(Refusal::Full { .. })));
        // The queue of clients naming none is full; a stream's waits.
        let (_t3, third) = a.enter(Some(page.clone())).unwrap();
        assert!(matches!(third, Admitted::Wait(_)));
        assert_eq!(a.load(), (1, 2));
        // Its stream closed, the id names nothing.
        drop(open);
        assert_eq!(a.enter(Some(page)).err(), Some(Refusal::Unknown));
    }

    #[test]
    fn a_request_gone_leaves_the_queue_or_stops() {
        let a = analyses(1, 3);
        let (t1, first) = a.enter(None).unwrap();
        let first = run(first);
        let (t2, _second) = a.enter(None).unwrap();
        let (_t3, third) = a.enter(None).unwrap();
        let (_t4, fourth) = a.enter(None).unwrap();
        // The second's request goes away while it waits.
        drop(t2);
        assert_eq!(a.load(), (1, 2));
        // The first's goes away while it runs: stopped, not replaced.
        drop(t1);
        assert!(first.stop.load(Ordering::SeqCst) && !first.replaced());
        // The third is going (its answer dropped, its ticket not yet): the
        // place goes on to the fourth.
        drop(third);
        drop(first);
        let Admitted::Wait(mut fourth) = fourth else {
            panic!("the fourth runs");
        };
        let place = fourth.try_recv().unwrap().unwrap();
        assert_eq!(a.load(), (1, 0));
        drop(place);
        assert_eq!(a.load(), (0, 0));
        // A place handed to a request that leaves before taking it (the
        // place still on its way) is freed with the request's answer.
        let (_t5, fifth) = a.enter(None).unwrap();
        let (_t6, sixth) = a.enter(None).unwrap();
        drop(run(fifth));
        assert_eq!(a.load(), (1, 0));
        drop(sixth);
        assert_eq!(a.load(), (0, 0));
        // A run lost to a panic frees its place for the next, on a new searcher.
        let (_t7, seventh) = a.enter(None).unwrap();
        let (_t8, eighth) = a.enter(None).unwrap();
        let seventh = run(seventh);
        let panicked = std::thread::spawn(move || {
            let _place = seventh;
            panic!("a search panics (on purpose: the test's)");
        })
        .join();
        assert!(panicked.is_err());
        let Admitted::Wait(mut eighth) = eighth else {
            panic!("the eighth runs");
        };
        assert!(eighth.try_recv().unwrap().is_ok());
        assert_eq!(a.lock().made, 1);
    }
}
