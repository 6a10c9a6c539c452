//! Helpers shared by the API tests: an app over fresh machines, requests
//! through `tower::ServiceExt::oneshot`, saves counted.
#![allow(dead_code)]

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use inarow_core::Player;
use inarow_menace::{Memory, Menace, Preset};
use inarow_web::{Config, Shared};
use serde_json::Value;
use tower::ServiceExt;

/// What the test saver saw.
#[derive(Default)]
pub struct Saves {
    pub count: AtomicUsize,
    pub last: Mutex<Option<String>>,
    pub fail: std::sync::atomic::AtomicBool,
}

pub struct TestApp {
    pub router: Router,
    pub shared: Arc<Shared>,
    pub saves: Arc<Saves>,
}

pub fn app(preset: Preset) -> TestApp {
    app_with_bots(preset, PathBuf::from("/nonexistent"))
}

pub fn app_with_bots(preset: Preset, bots: PathBuf) -> TestApp {
    app_with(fresh(preset), bots)
}

/// A new MENACE playing X under `preset`, as `inarow serve` starts without a state file.
fn fresh(preset: Preset) -> Memory {
    Memory {
        x: Menace::new(preset, Player::X, 7),
        o: None,
    }
}

/// An app over `memory`, as `inarow serve` over a loaded state file.
pub fn app_with(memory: Memory, bots: PathBuf) -> TestApp {
    app_over(memory, bots, None)
}

/// An app whose tournaments write their files where `records` says.
pub fn app_with_records(
    preset: Preset,
    bots: PathBuf,
    records: Option<inarow_web::tournament::Records>,
) -> TestApp {
    app_over(fresh(preset), bots, records)
}

/// An app whose analyses run and wait within `caps`.
pub fn app_with_caps(caps: inarow_web::analyses::Caps) -> TestApp {
    app_over_with(
        fresh(Preset::Challenge),
        PathBuf::from("/nonexistent"),
        None,
        caps,
    )
}

fn app_over(
    memory: Memory,
    bots: PathBuf,
    records: Option<inarow_web::tournament::Records>,
) -> TestApp {
    app_over_with(memory, bots, records, Default::default())
}

fn app_over_with(
    memory: Memory,
    bots: PathBuf,
    records: Option<inarow_web::tournament::Records>,
    caps: inarow_web::analyses::Caps,
) -> TestApp {
    let saves = Arc::new(Saves::default());
    let seen = saves.clone();
    let shared = inarow_web::shared(Config {
        memory,
        seed: 7,
        saver: Arc::new(move |memory: &Memory| {
            if seen.fail.load(Ordering::SeqCst) {
                anyhow::bail!("cannot write /full/disk/state.json: No space left on device");
            }
            seen.count.fetch_add(1, Ordering::SeqCst);
            *seen.last.lock().unwrap() = Some(memory.to_json());
            Ok(())
        }),
        bots,
        // This crate's tests have no launcher to contain bots with; `inarow
        // serve` runs tournaments contained, and its own tests check that.
        sandbox: inarow_sandbox::Sandbox::off(),
        records,
        analyses: caps,
    });
    TestApp {
        router: inarow_web::api::router(shared.clone()),
        shared,
        saves,
    }
}

impl TestApp {
    pub async fn call(&self, method: &str, path: &str, body: Option<&str>) -> (StatusCode, Value) {
        let mut req = Request::builder().method(method).uri(path);
        if body.is_some() {
            req = req.header("content-type", "application/json");
        }
        let req = req
            .body(Body::from(body.unwrap_or("").to_string()))
            .unwrap();
        self.send(req).await
    }

    /// A POST of the JSON `body` to `path`.
    pub async fn post(&self, path: &str, body: &str) -> (StatusCode, Value) {
        self.call("POST", path, Some(body)).await
    }

    /// A POST of `body` to `path` on a task of its own, answered later.
    pub fn post_later(
        &self,
        path: &str,
        body: &str,
    ) -> tokio::task::JoinHandle<(StatusCode, Value)> {
        let req = Request::builder()
            .method("POST")
            .uri(path)
            .header("content-type", "application/json")
            .body(Body::from(body.to_string()))
            .unwrap();
        tokio::spawn(send(self.router.clone(), req))
    }

    pub async fn send(&self, req: Request<Body>) -> (StatusCode, Value) {
        send(self.router.clone(), req).await
    }

    pub fn saves(&self) -> usize {
        self.saves.count.load(Ordering::SeqCst)
    }
}

async fn send(router: Router, req: Request<Body>) -> (StatusCode, Value) {
    let res = router.oneshot(req).await.unwrap();
    let status = res.status();
    let bytes = res.into_body().collect().await.unwrap().to_bytes();
    let value = serde_json::from_slice(&bytes)
        .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into_owned()));
    (status, value)
}

/// The error line of a refused request, checking it is one line.
pub fn error_of(value: &Value) -> String {
    let e = value["error"]
        .as_str()
        .unwrap_or_else(|| panic!("no error in {value}"));
    assert!(!e.contains('\n'), "{e}");
    e.to_string()
}

/// An event stream of the app (`GET /api/events`), read event by event.
pub struct Events {
    body: Body,
    buf: String,
}

impl TestApp {
    /// Opens an event stream, as the page does.
    pub async fn events(&self) -> Events {
        let req = Request::builder()
            .uri("/api/events")
            .body(Body::empty())
            .unwrap();
        let res = self.router.clone().oneshot(req).await.unwrap();
        assert_eq!(res.status(), StatusCode::OK);
        Events {
            body: res.into_body(),
            buf: String::new(),
        }
    }
}

impl Events {
    /// The next event, as its name and data; within 60 s (a stream that
    /// stays silent that long has failed the test).
    pub async fn next(&mut self) -> (String, String) {
        loop {
            if let Some(end) = self.buf.find("\n\n") {
                let text: String = self.buf.drain(..end + 2).collect();
                let (mut name, mut data) = (String::new(), String::new());
                for line in text.lines() {
                    if let Some(n) = line.strip_prefix("event: ") {
                        name = n.to_string();
                    } else if let Some(d) = line.strip_prefix("data: ") {
                        data = d.to_string();
                    }
                }
                // A keep-alive comment has neither.
                if !name.is_empty() {
                    return (name, data);
                }
                continue;
            }
            let frame = tokio::time::timeout(std::time::Duration::from_secs(60), self.body.frame())
                .await
                .expect("an event within 60 s")
                .expect("the stream goes on")
                .unwrap();
            if let Ok(bytes) = frame.into_data() {
                self.buf.push_str(&String::from_utf8_lossy(&bytes));
            }
        }
    }

    /// The client id of the stream's first event, `hello`.
    pub async fn hello(&mut self) -> String {
        let (name, data) = self.next().await;
        assert_eq!(name, "hello", "{data}");
        let v: Value = serde_json::from_str(&data).unwrap();
        v["client"].as_str().unwrap().to_string()
    }

    /// The next `thinking` report, other events passed over.
    pub async fn thinking(&mut self) -> Value {
        loop {
            let (name, data) = self.next().await;
            if name == "thinking" {
                return serde_json::from_str(&data).unwrap();
            }
        }
    }
}
