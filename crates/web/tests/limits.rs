//! The server's limits over real sockets on 127.0.0.1, tried as an
//! attacker would: more connections than the cap sending headers and no
//! body, more event streams than their cap, doubled `Host` and `Origin`
//! headers and a request target naming another host. Throughout each
//! flood a normal client is served (within 10 s: a margin for a busy
//! machine, not a measure). Every flood is bounded in size and ends by
//! itself (the body deadline is 1 s here).

use crate::common;

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use common::{TestApp, app};
use inarow_menace::Preset;
use inarow_web::Options;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// The body deadline of these tests.
const BODY_TIMEOUT: Duration = Duration::from_secs(1);
/// How long a normal client waits before the test calls it starved: only
/// a guard against a hang, far past any busy machine's delay. The tests
/// count events (each normal request answered 200 while the flood holds
/// its connections), never milliseconds.
const SERVED_WITHIN: Duration = Duration::from_secs(60);

struct Server {
    address: SocketAddr,
    app: TestApp,
    stop: tokio::sync::oneshot::Sender<()>,
    running: tokio::task::JoinHandle<anyhow::Result<()>>,
}

async fn start() -> Server {
    start_with(Duration::from_secs(10)).await
}

/// A server whose clients have `header_timeout` for their headers (and to
/// take an answer once handed over).
async fn start_with(header_timeout: Duration) -> Server {
    let app = app(Preset::Challenge);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let options = Options {
        header_timeout,
        body_timeout: BODY_TIMEOUT,
        ..Options::default()
    };
    let running = tokio::spawn(inarow_web::serve(
        listener,
        app.shared.clone(),
        options,
        async {
            let _ = stopped.await;
        },
    ));
    Server {
        address,
        app,
        stop,
        running,
    }
}

impl Server {
    async fn stop(self) {
        self.stop.send(()).unwrap();
        tokio::time::timeout(Duration::from_secs(30), self.running)
            .await
            .expect("shut down within 30 s")
            .unwrap()
            .unwrap();
    }
}

/// Sends `request` on a new connection and reads until the server closes
/// it (or `limit` passes: `None`).
async fn exchange(address: SocketAddr, request: &str, limit: Duration) -> Option<String> {
    tokio::time::timeout(limit, async {
        let mut s = TcpStream::connect(address).await.unwrap();
        s.write_all(request.as_bytes()).await.unwrap();
        let mut reply = Vec::new();
        // A reset after the answer still leaves the answer read.
        let _ = s.read_to_end(&mut reply).await;
        String::from_utf8_lossy(&reply).into_owned()
    })
    .await
    .ok()
}

/// A normal client's requests, as the page makes them: a read, and a change
/// from the page itself. Each must be answered 200 within [`SERVED_WITHIN`]; returns the
/// longest wait.
async fn normal_client(address: SocketAddr) -> Duration {
    let read = format!("GET /api/menace HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n");
    let change = format!(
        "POST /api/menace/new HTTP/1.1\r\nHost: {address}\r\nOrigin: http://{address}\r\n\
         Sec-Fetch-Site: same-origin\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\
         Connection: close\r\n\r\n{{}}"
    );
    let mut longest = Duration::ZERO;
    for request in [read, change] {
        let asked = Instant::now();
        let reply = exchange(address, &request, SERVED_WITHIN)
            .await
            .unwrap_or_else(|| panic!("not served within {SERVED_WITHIN:?}"));
        assert!(reply.starts_with("HTTP/1.1 200"), "{reply}");
        longest = longest.max(asked.elapsed());
    }
    longest
}

/// Runs the normal client every 100 ms while `flood` runs, and once after;
/// the longest wait and how many times it ran.
async fn served_throughout<T>(
    address: SocketAddr,
    flood: impl Future<Output = T>,
) -> (T, (Duration, usize)) {
    let (done_tx, mut done) = tokio::sync::watch::channel(false);
    let probing = tokio::spawn(async move {
        let mut longest = Duration::ZERO;
        let mut probes = 0;
        loop {
            longest = longest.max(normal_client(address).await);
            probes += 1;
            if *done.borrow() {
                break;
            }
            tokio::select! {
                _ = tokio::time::sleep(Duration::from_millis(100)) => {}
                _ = done.changed() => {}
            }
        }
        (longest, probes)
    });
    let result = flood.await;
    done_tx.send(true).unwrap();
    let longest = probing.await.unwrap();
    (result, longest)
}

/// The status of `reply`, its headers and its one-line JSON error.
fn parse(reply: &str) -> (u16, String, String) {
    let status = reply
        .get(9..12)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("not an HTTP answer: {reply:?}"));
    let (head, body) = reply.split_once("\r\n\r\n").unwrap_or((reply, ""));
    let value: serde_json::Value = serde_json::from_str(body.trim()).unwrap_or_default();
    let error = value["error"].as_str().unwrap_or("").to_string();
    assert!(!error.contains('\n'), "{error}");
    (status, head.to_ascii_lowercase(), error)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bodies_that_never_come_are_cut_at_the_deadline_and_others_are_served() {
    // More than the 256 connections the server keeps open.
    const SLOW: usize = 300;
    let server = start().await;
    let address = server.address;
    let flood = async {
        let begun = Instant::now();
        let mut slow = Vec::new();
        for i in 0..SLOW {
            // One after the other: hundreds of connects at once overflow
            // the loopback queue, and the kernel's retry comes 1 s later.
            let mut s = TcpStream::connect(address).await.unwrap();
            // A few GETs with a body announced too: answered, then closed.
            let method = if i % 50 == 0 { "GET" } else { "POST" };
            let path = if i % 50 == 0 {
                "/api/menace"
            } else {
                "/api/menace/move"
            };
            slow.push(tokio::spawn(async move {
                let head = format!(
                    "{method} {path} HTTP/1.1\r\nHost: {address}\r\n\
                     Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n"
                );
                s.write_all(head.as_bytes()).await.unwrap();
                let sent = Instant::now();
                let mut reply = Vec::new();
                let read = tokio::time::timeout(Duration::from_secs(20), s.read_to_end(&mut reply));
                let ended = read.await.is_ok();
                (
                    method,
                    ended,
                    sent.elapsed(),
                    String::from_utf8_lossy(&reply).into_owned(),
                )
            }));
        }
        // On a busy machine the connects can outlast the deadline: then the
        // first bodies are cut before the last connect, and fewer places
        // need to be freed.
        let connecting = begun.elapsed();
        let mut outcomes = Vec::new();
        for task in slow {
            outcomes.push(task.await.unwrap());
        }
        (outcomes, connecting)
    };
    let started = Instant::now();
    let ((outcomes, connecting), (longest, probes)) = served_throughout(address, flood).await;
    let took = started.elapsed();
    let mut timed_out = 0;
    let mut closed = 0;
    for (method, ended, after, reply) in &outcomes {
        assert!(
            ended,
            "a slow {method} still open after {after:?}: {reply:?}"
        );
        if reply.is_empty() {
            // Closed to make room for newer connections.
            closed += 1;
            continue;
        }
        let (status, head, error) = parse(reply);
        if *method == "GET" {
            assert_eq!(status, 200, "{reply}");
            continue;
        }
        assert_eq!(status, 408, "{reply}");
        assert!(head.contains("connection: close"), "{head}");
        assert_eq!(error, "request body not received within 1000 ms");
        timed_out += 1;
    }
    // Most hold their place until the deadline; those waiting longest gave
    // theirs to newcomers.
    assert!(
        timed_out > SLOW / 2,
        "{timed_out} answered 408, {closed} closed"
    );
    // A place is freed only for a connection past the 256th.
    assert!(
        closed <= SLOW - 256,
        "{timed_out} answered 408, {closed} closed"
    );
    if connecting < BODY_TIMEOUT {
        // All were open at once: the oldest made room for the newest.
        assert!(
            closed >= SLOW - 256 - 6,
            "{timed_out} answered 408, {closed} closed after {connecting:?} of connects"
        );
    }
    eprintln!(
        "{SLOW} slow bodies: {timed_out} answered 408, {closed} closed early, all within \
         {took:?}; the normal client ({probes} times) waited at most {longest:?}"
    );
    assert!(server.app.shared.menace.lock().unwrap().in_game());
    server.stop().await;
}

/// Opens an event stream: its answer's head, and the connection if it stays open.
async fn open_stream(address: SocketAddr) -> (String, Option<TcpStream>) {
    let mut s = TcpStream::connect(address).await.unwrap();
    let request = format!("GET /api/events HTTP/1.1\r\nHost: {address}\r\n\r\n");
    s.write_all(request.as_bytes()).await.unwrap();
    let mut reply = Vec::new();
    let mut buf = [0u8; 1024];
    while !reply.windows(4).any(|w| w == b"\r\n\r\n") {
        let n = tokio::time::timeout(SERVED_WITHIN, s.read(&mut buf))
            .await
            .expect("an answer in time")
            .unwrap();
        assert!(n > 0, "closed unanswered: {reply:?}");
        reply.extend_from_slice(&buf[..n]);
    }
    let head = String::from_utf8_lossy(&reply).into_owned();
    if head.starts_with("HTTP/1.1 200") {
        return (head, Some(s));
    }
    let _ = tokio::time::timeout(SERVED_WITHIN, s.read_to_end(&mut reply)).await;
    (String::from_utf8_lossy(&reply).into_owned(), None)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn event_streams_have_a_cap_of_their_own() {
    const STREAMS: usize = 300;
    const CAP: usize = 64;
    let server = start().await;
    let address = server.address;
    let flood = async {
        let mut held = Vec::new();
        let mut refused = 0;
        // In waves of 50 at once.
        for _ in 0..STREAMS / 50 {
            let wave: Vec<_> = (0..50)
                .map(|_| tokio::spawn(open_stream(address)))
                .collect();
            for task in wave {
                let (reply, stream) = task.await.unwrap();
                match stream {
                    Some(stream) => {
                        assert!(reply.contains("text/event-stream"), "{reply}");
                        held.push(stream);
                    }
                    None => {
                        let (status, head, error) = parse(&reply);
                        assert_eq!(status, 503, "{reply}");
                        assert!(head.contains("retry-after: 10"), "{head}");
                        assert!(head.contains("connection: close"), "{head}");
                        assert_eq!(
                            error,
                            "too many live-update streams open (at most 64); try again later"
                        );
                        refused += 1;
                    }
                }
            }
        }
        (held, refused)
    };
    let ((mut held, refused), (longest, probes)) = served_throughout(address, flood).await;
    assert_eq!(held.len(), CAP);
    assert_eq!(refused, STREAMS - CAP);
    // Held, the streams are not cut by any deadline and still hear changes.
    tokio::time::sleep(BODY_TIMEOUT * 2).await;
    normal_client(address).await;
    for s in held.iter_mut().take(3) {
        let mut seen = String::new();
        let mut buf = [0u8; 1024];
        while !seen.contains("data: menace") {
            let n = tokio::time::timeout(SERVED_WITHIN, s.read(&mut buf))
                .await
                .expect("an event in time")
                .unwrap();
            assert!(n > 0, "stream closed: {seen}");
            seen.push_str(&String::from_utf8_lossy(&buf[..n]));
        }
    }
    // A stream closed gives its place back.
    held.truncate(CAP - 2);
    let freed = Instant::now();
    loop {
        let (reply, stream) = open_stream(address).await;
        if let Some(stream) = stream {
            held.push(stream);
            break;
        }
        assert!(reply.starts_with("HTTP/1.1 503"), "{reply}");
        assert!(freed.elapsed() < SERVED_WITHIN, "no place freed");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    eprintln!(
        "{STREAMS} streams: {CAP} held, {refused} refused; the normal client ({probes} times) waited at most {longest:?}"
    );
    // Shutdown ends the open streams.
    server.stop().await;
}

#[tokio::test]
async fn doubled_hosts_and_origins_and_other_targets_are_refused() {
    let server = start().await;
    let a = server.address;
    let ask = |request: String| async move {
        let request = if request.contains("Connection: close") {
            request
        } else {
            request.replacen("\r\n", "\r\nConnection: close\r\n", 1)
        };
        let reply = exchange(a, &request, SERVED_WITHIN)
            .await
            .expect("answered in time");
        parse(&reply)
    };
    let post_new = |lines: &str| {
        format!(
            "POST /api/menace/new HTTP/1.1\r\n{lines}Content-Type: application/json\r\n\
             Content-Length: 2\r\nConnection: close\r\n\r\n{{}}"
        )
    };
    for (request, status, error) in [
        (
            format!("GET /api/menace HTTP/1.1\r\nHost: {a}\r\nHost: evil.example\r\n\r\n"),
            400,
            "more than one Host header".to_string(),
        ),
        (
            format!("GET /api/menace HTTP/1.1\r\nHost: evil.example\r\nHost: {a}\r\n\r\n"),
            400,
            "more than one Host header".to_string(),
        ),
        (
            post_new(&format!(
                "Host: {a}\r\nOrigin: http://{a}\r\nOrigin: http://evil.example\r\n"
            )),
            400,
            "more than one Origin header".to_string(),
        ),
        (
            post_new(&format!(
                "Host: {a}\r\nOrigin: http://evil.example\r\nOrigin: http://{a}\r\n"
            )),
            400,
            "more than one Origin header".to_string(),
        ),
        (
            post_new(&format!(
                "Host: {a}\r\nSec-Fetch-Site: same-origin\r\nSec-Fetch-Site: cross-site\r\n"
            )),
            400,
            "more than one Sec-Fetch-Site header".to_string(),
        ),
        (
            format!("GET http://evil.example/api/menace HTTP/1.1\r\nHost: {a}\r\n\r\n"),
            421,
            "the request target names \"evil.example\", not this server".to_string(),
        ),
        (
            format!(
                "POST http://evil.example:{}/api/menace/new HTTP/1.1\r\nHost: {a}\r\n\
                 Origin: http://{a}\r\nContent-Length: 0\r\n\r\n",
                a.port()
            ),
            421,
            format!(
                "the request target names \"evil.example:{}\", not this server",
                a.port()
            ),
        ),
        (
            format!(
                "GET http://localhost:{}/api/menace HTTP/1.1\r\nHost: {a}\r\n\r\n",
                a.port()
            ),
            400,
            format!(
                "the request target names \"localhost:{}\" but Host says \"{a}\"",
                a.port()
            ),
        ),
        (
            format!("GET https://{a}/api/menace HTTP/1.1\r\nHost: {a}\r\n\r\n"),
            400,
            "this server speaks plain http, not \"https\"".to_string(),
        ),
    ] {
        let (got, _, why) = ask(request.clone()).await;
        assert_eq!((got, why.as_str()), (status, error.as_str()), "{request}");
    }
    assert!(!server.app.shared.menace.lock().unwrap().in_game());
    // The same requests with one of each are served; a target naming this
    // server too.
    let (got, _, why) = ask(post_new(&format!("Host: {a}\r\nOrigin: http://{a}\r\n"))).await;
    assert_eq!(got, 200, "{why}");
    let (got, _, why) = ask(format!(
        "GET http://{a}/api/menace HTTP/1.1\r\nHost: {a}\r\nConnection: close\r\n\r\n"
    ))
    .await;
    assert_eq!(got, 200, "{why}");
    server.stop().await;
}

#[tokio::test]
async fn a_client_that_does_not_read_its_answers_is_cut_off() {
    const ASKED: usize = 500;
    let server = start_with(BODY_TIMEOUT).await;
    let address = server.address;
    let mut s = TcpStream::connect(address).await.unwrap();
    // Far more pages than the socket buffers hold, asked all at once.
    let request = format!("GET / HTTP/1.1\r\nHost: {address}\r\n\r\n").repeat(ASKED);
    s.write_all(request.as_bytes()).await.unwrap();
    // Longer than the deadlines (1 s here) and their grace.
    tokio::time::sleep(BODY_TIMEOUT * 3).await;
    normal_client(address).await;
    let mut reply = Vec::new();
    let read = tokio::time::timeout(SERVED_WITHIN, s.read_to_end(&mut reply)).await;
    let pages = String::from_utf8_lossy(&reply)
        .matches("HTTP/1.1 200")
        .count();
    assert!(read.is_ok(), "still open after {pages} pages");
    assert!(pages < ASKED, "all {pages} pages written");
    eprintln!("a client not reading: cut off after {pages} of {ASKED} pages");
    server.stop().await;
}
