//! The connection loop: hyper's HTTP/1 server on each accepted connection,
//! with the limits that keep one client from holding the server.
//!
//! - **Connections.** At most `max_connections` are open at once (event
//!   streams aside). When all are taken, the one that has waited longest on
//!   its client (idle between requests, still sending headers or a body, or
//!   not reading its answer) is closed to make room; only when the server
//!   is at work on every one is the newcomer refused: 503 with `Retry-After`.
//! - **Event streams.** An accepted `GET /api/events` leaves the connection
//!   count for a count of its own, `max_streams`; when that is full the
//!   newest get 503 with `Retry-After` ([`Connection::become_stream`]).
//! - **Deadlines**, on the client's part of each exchange; the server's own
//!   work on an answer has none. Headers within `header_timeout` (hyper's
//!   header read timeout, also the idle time between requests); the body
//!   within `body_timeout` after the headers ([`Watched`]: the reader gets
//!   [`BodyTimeout`], the guard answers 408); the answer taken by the client
//!   within `body_timeout`. A watchdog beside hyper closes a connection
//!   [`GRACE`] after any of these passes, whoever reads or does not read
//!   the body. Event streams have no deadline.

use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::{Bytes, HttpBody};
use axum::http::{Request, Response};
use http_body::{Frame, SizeHint};
use hyper::body::Incoming;
use tokio::sync::{Notify, OwnedSemaphorePermit, Semaphore};
use tokio::time::{Instant, Sleep};

use crate::Options;

/// What the watchdog adds to a deadline, so that the 408 of a body too slow
/// (or hyper's own end of a request whose headers are too slow) is written
/// before the connection is closed.
pub(crate) const GRACE: Duration = Duration::from_secs(1);

/// Refused connections being answered at once (503); more are closed unanswered.
const MAX_REFUSING: usize = 64;

/// How long a refused connection has to send its headers before its 503.
const REFUSAL_TIME: Duration = Duration::from_secs(1);

/// A request body that did not arrive within the body deadline.
#[derive(Debug)]
pub(crate) struct BodyTimeout(pub Duration);

impl std::fmt::Display for BodyTimeout {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "request body not received within {} ms",
            self.0.as_millis()
        )
    }
}

impl std::error::Error for BodyTimeout {}

/// The open connections and event streams, and their caps.
pub(crate) struct Pool {
    max: usize,
    open: Mutex<Vec<Arc<Slot>>>,
    max_streams: usize,
    streams: Arc<Semaphore>,
    header_timeout: Duration,
}

/// One connection as the pool sees it.
pub(crate) struct Slot {
    state: Mutex<SlotState>,
    /// Told when the pool closes the connection to make room.
    evicted: Notify,
    /// Told when the deadline moved.
    moved: Notify,
    /// Held while the connection is an event stream.
    stream: Mutex<Option<OwnedSemaphorePermit>>,
}

#[derive(Debug)]
struct SlotState {
    /// Since when the connection waits on its client (none: being answered).
    waiting_since: Option<Instant>,
    /// When the watchdog closes it (none: an event stream, never).
    deadline: Option<Instant>,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // The state stays consistent whatever panicked while it was held.
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Pool {
    pub(crate) fn new(options: &Options) -> Pool {
        let max_streams = options.max_streams.clamp(1, 1 << 16);
        Pool {
            max: options.max_connections.clamp(1, 1 << 16),
            open: Mutex::new(Vec::new()),
            max_streams,
            streams: Arc::new(Semaphore::new(max_streams)),
            header_timeout: options.header_timeout,
        }
    }

    /// A slot for a connection accepted now: a free one, or the one of the
    /// connection that has waited longest on its client (which is told to
    /// close); none when every connection is being answered.
    pub(crate) fn admit(&self) -> Option<Arc<Slot>> {
        let now = Instant::now();
        let mut open = lock(&self.open);
        if open.len() >= self.max {
            let oldest = open
                .iter()
                .enumerate()
                .filter_map(|(i, slot)| lock(&slot.state).waiting_since.map(|since| (since, i)))
                .min()?;
            let evicted = open.swap_remove(oldest.1);
            evicted.evicted.notify_one();
        }
        let slot = Arc::new(Slot {
            state: Mutex::new(SlotState {
                waiting_since: Some(now),
                deadline: Some(now + self.header_timeout + GRACE),
            }),
            evicted: Notify::new(),
            moved: Notify::new(),
            stream: Mutex::new(None),
        });
        open.push(slot.clone());
        Some(slot)
    }

    /// `slot` no longer counts (its connection closed or became a stream).
    fn release(&self, slot: &Arc<Slot>) {
        lock(&self.open).retain(|s| !Arc::ptr_eq(s, slot));
    }

    /// How many connections count against the cap now.
    #[cfg(test)]
    fn open(&self) -> usize {
        lock(&self.open).len()
    }
}

impl Slot {
    /// Sets what the connection waits for and its deadline, and wakes its
    /// watchdog to sleep till the new one.
    fn set(&self, waiting_since: Option<Instant>, deadline: Option<Instant>) {
        let mut state = lock(&self.state);
        state.waiting_since = waiting_since;
        state.deadline = deadline;
        drop(state);
        self.moved.notify_one();
    }

    /// A request's headers are in: its body (if any) is awaited, within the
    /// body deadline and the grace.
    fn request(&self, body_timeout: Duration, no_body: bool) {
        if no_body {
            return self.answering();
        }
        let now = Instant::now();
        self.set(Some(now), Some(now + body_timeout + GRACE));
    }

    /// The request's body is in (or given up on): the server is at work on
    /// its answer, which takes the time it takes.
    fn answering(&self) {
        self.set(None, None);
    }

    /// The answer is ready: the client must take it within the body
    /// deadline and the grace (event streams excepted), and meanwhile
    /// counts as waiting on its client.
    fn answered(&self, body_timeout: Duration) {
        if lock(&self.stream).is_some() {
            return;
        }
        let now = Instant::now();
        self.set(Some(now), Some(now + body_timeout + GRACE));
    }

    /// The answer is written: the connection waits for the next request.
    fn idle(&self, header_timeout: Duration) {
        if lock(&self.stream).is_some() {
            // An event stream ended: the connection closes with it.
            return;
        }
        let now = Instant::now();
        self.set(Some(now), Some(now + header_timeout + GRACE));
    }

    fn deadline(&self) -> Option<Instant> {
        lock(&self.state).deadline
    }
}

/// The connection a request came on, in its extensions (absent when the
/// router is called without the connection loop, as in tests).
#[derive(Clone)]
pub(crate) struct Connection {
    slot: Arc<Slot>,
    pool: Arc<Pool>,
}

impl Connection {
    /// Makes the connection an event stream: it takes a stream's place,
    /// leaves the connection count and has no deadline. `Err(cap)` when all
    /// `cap` stream places are taken.
    pub(crate) fn become_stream(&self) -> Result<(), usize> {
        let mut held = lock(&self.slot.stream);
        if held.is_none() {
            let permit = self
                .pool
                .streams
                .clone()
                .try_acquire_owned()
                .map_err(|_| self.pool.max_streams)?;
            *held = Some(permit);
        }
        drop(held);
        self.pool.release(&self.slot);
        self.slot.set(None, None);
        Ok(())
    }
}

/// A request body read against its deadline; the connection counts as
/// answered once it has ended (or is dropped unread).
pub(crate) struct Watched {
    inner: Incoming,
    timeout: Duration,
    deadline: Pin<Box<Sleep>>,
    slot: Arc<Slot>,
    done: bool,
}

impl Watched {
    fn finish(&mut self) {
        if !self.done {
            self.done = true;
            self.slot.answering();
        }
    }
}

impl HttpBody for Watched {
    type Data = Bytes;
    type Error = Box<dyn std::error::Error + Send + Sync>;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
        let this = &mut *self;
        match Pin::new(&mut this.inner).poll_frame(cx) {
            Poll::Ready(None) => {
                this.finish();
                Poll::Ready(None)
            }
            Poll::Ready(Some(Err(e))) => {
                this.finish();
                Poll::Ready(Some(Err(Box::new(e))))
            }
            Poll::Ready(Some(Ok(frame))) => Poll::Ready(Some(Ok(frame))),
            Poll::Pending => match this.deadline.as_mut().poll(cx) {
                Poll::Ready(()) => {
                    this.finish();
                    Poll::Ready(Some(Err(Box::new(BodyTimeout(this.timeout)))))
                }
                Poll::Pending => Poll::Pending,
            },
        }
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

impl Drop for Watched {
    fn drop(&mut self) {
        self.finish();
    }
}

/// An answer's body; once written (dropped by hyper) the connection waits
/// for its next request.
pub(crate) struct Tracked {
    inner: axum::body::Body,
    slot: Arc<Slot>,
    header_timeout: Duration,
}

impl HttpBody for Tracked {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
        Pin::new(&mut self.inner).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

impl Drop for Tracked {
    fn drop(&mut self) {
        self.slot.idle(self.header_timeout);
    }
}

/// Accepts connections and serves `app` on each within the limits of
/// `options` (see the module documentation) until `ending`; then lets open
/// connections finish their request, for at most 10 s.
pub(crate) async fn connections(
    listener: tokio::net::TcpListener,
    app: axum::Router,
    options: &Options,
    ending: impl Future<Output = ()>,
) {
    let pool = Arc::new(Pool::new(options));
    let refusing = Arc::new(Semaphore::new(MAX_REFUSING));
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(hyper_util::rt::TokioTimer::new())
        .header_read_timeout(options.header_timeout);
    let mut refusal = hyper::server::conn::http1::Builder::new();
    refusal
        .timer(hyper_util::rt::TokioTimer::new())
        .header_read_timeout(REFUSAL_TIME)
        .keep_alive(false);
    let app = hyper_util::service::TowerToHyperService::new(app);
    let (closing, closed) = tokio::sync::watch::channel(false);
    // Every connection task holds a sender; all gone, all connections are.
    let (running, mut all_done) = tokio::sync::mpsc::channel::<()>(1);
    tokio::pin!(ending);
    loop {
        let stream = tokio::select! {
            _ = &mut ending => break,
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                // Out of file descriptors and the like: wait, then go on.
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
        };
        let io = hyper_util::rt::TokioIo::new(stream);
        let Some(slot) = pool.admit() else {
            // Every connection is being answered: the newest is refused.
            if let Ok(permit) = refusing.clone().try_acquire_owned() {
                let connection = refusal.serve_connection(io, hyper::service::service_fn(refuse));
                let running = running.clone();
                tokio::spawn(async move {
                    let _permit = permit;
                    let _running = running;
                    let _ = tokio::time::timeout(REFUSAL_TIME + GRACE, connection).await;
                });
            }
            continue;
        };
        let connection = Connection {
            slot: slot.clone(),
            pool: pool.clone(),
        };
        let (app, header_timeout, body_timeout) =
            (app.clone(), options.header_timeout, options.body_timeout);
        let service = hyper::service::service_fn(move |req: Request<Incoming>| {
            let no_body = req.body().is_end_stream();
            connection.slot.request(body_timeout, no_body);
            let (mut parts, inner) = req.into_parts();
            parts.extensions.insert(connection.clone());
            let body = Watched {
                inner,
                timeout: body_timeout,
                deadline: Box::pin(tokio::time::sleep(body_timeout)),
                slot: connection.slot.clone(),
                done: no_body,
            };
            let answer = hyper::service::Service::call(&app, Request::from_parts(parts, body));
            let slot = connection.slot.clone();
            async move {
                let response = answer.await?;
                slot.answered(body_timeout);
                Ok::<_, Infallible>(response.map(|inner| Tracked {
                    inner,
                    slot,
                    header_timeout,
                }))
            }
        });
        let connection = http.serve_connection(io, service);
        let mut closed = closed.clone();
        let pool = pool.clone();
        let running = running.clone();
        tokio::spawn(async move {
            let _running = running;
            tokio::pin!(connection);
            let mut shutting = false;
            loop {
                let deadline = slot.deadline();
                tokio::select! {
                    // A client gone or too slow is no error of the server's.
                    _ = connection.as_mut() => break,
                    _ = slot.evicted.notified() => break,
                    _ = slot.moved.notified() => {}
                    _ = sleep_until(deadline) => {
                        // Unless it moved at that very moment.
                        if slot.deadline().is_some_and(|d| d <= Instant::now()) {
                            break;
                        }
                    }
                    _ = closed.changed(), if !shutting => {
                        shutting = true;
                        connection.as_mut().graceful_shutdown();
                    }
                }
            }
            pool.release(&slot);
        });
    }
    let _ = closing.send(true);
    drop(running);
    let _ = tokio::time::timeout(Duration::from_secs(10), all_done.recv()).await;
}

/// Sleeps until `deadline`, or for ever without one.
async fn sleep_until(deadline: Option<Instant>) {
    match deadline {
        Some(deadline) => tokio::time::sleep_until(deadline).await,
        None => std::future::pending().await,
    }
}

/// The answer to every request of a connection refused at the cap.
async fn refuse(_: Request<Incoming>) -> Result<Response<axum::body::Body>, Infallible> {
    Ok(crate::error::busy(
        "the server has all the connections it takes open; try again in a moment",
        1,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pool(max: usize) -> Pool {
        Pool::new(&Options {
            max_connections: max,
            ..Options::default()
        })
    }

    #[test]
    fn full_the_longest_waiting_makes_room_and_else_the_newest_is_refused() {
        let pool = pool(3);
        let a = pool.admit().unwrap();
        let b = pool.admit().unwrap();
        let c = pool.admit().unwrap();
        assert_eq!(pool.open(), 3);
        // All three being answered: no room.
        for slot in [&a, &b, &c] {
            slot.request(Duration::from_secs(1), true);
        }
        assert!(pool.admit().is_none());
        // b waits (idle after its answer), then c: b goes first.
        b.idle(Duration::from_secs(1));
        // c starts waiting once the clock has moved past b's start: the
        // event looked for, not a length of time.
        let since = lock(&b.state).waiting_since.unwrap();
        while Instant::now() <= since {
            std::hint::spin_loop();
        }
        c.request(Duration::from_secs(1), false);
        let d = pool.admit().unwrap();
        assert_eq!(pool.open(), 3);
        let open = lock(&pool.open);
        assert!(!open.iter().any(|s| Arc::ptr_eq(s, &b)), "b stayed");
        assert!(open.iter().any(|s| Arc::ptr_eq(s, &c)));
        assert!(open.iter().any(|s| Arc::ptr_eq(s, &d)));
        drop(open);
        // Released slots free room.
        pool.release(&a);
        assert_eq!(pool.open(), 2);
    }

    #[tokio::test]
    async fn streams_leave_the_connection_count_and_have_their_own_cap() {
        let pool = Arc::new(Pool::new(&Options {
            max_connections: 4,
            max_streams: 2,
            ..Options::default()
        }));
        let connections: Vec<Connection> = (0..3)
            .map(|_| Connection {
                slot: pool.admit().unwrap(),
                pool: pool.clone(),
            })
            .collect();
        assert_eq!(connections[0].become_stream(), Ok(()));
        assert_eq!(connections[1].become_stream(), Ok(()));
        assert_eq!(connections[2].become_stream(), Err(2));
        assert_eq!(pool.open(), 1);
        assert_eq!(connections[0].slot.deadline(), None);
        // A stream's place comes back when its connection ends.
        drop(lock(&connections[0].slot.stream).take());
        assert_eq!(connections[2].become_stream(), Ok(()));
    }
}
