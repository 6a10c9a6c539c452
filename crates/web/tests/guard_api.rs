//! The guard in front of every route: other sites cannot change anything
//! (cross-site `Origin` or `Sec-Fetch-Site`, form content types), a `Host`
//! that is not the server's is refused, big bodies get 413, and a token,
//! when set, must come with every request.

use crate::common;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use common::{TestApp, app, error_of};
use inarow_menace::Preset;
use inarow_web::api::{Access, Guard, guarded};
use serde_json::Value;
use tower::ServiceExt;

const HOST: &str = "127.0.0.1:8080";
const TOKEN: &str = "0123456789abcdef0123";

/// The app behind the guard of a server bound to `bound`.
fn guarded_app(bound: &str, access: Access) -> (TestApp, Router) {
    let t = app(Preset::Challenge);
    let guard = Guard::new(&access, bound.parse().unwrap()).unwrap();
    let router = guarded(t.router.clone(), guard);
    (t, router)
}

async fn send(router: &Router, req: Request<Body>) -> (StatusCode, Value, axum::http::HeaderMap) {
    let res = router.clone().oneshot(req).await.unwrap();
    let status = res.status();
    let headers = res.headers().clone();
    let bytes = http_body_util::BodyExt::collect(res.into_body())
        .await
        .unwrap()
        .to_bytes();
    let value = serde_json::from_slice(&bytes)
        .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into_owned()));
    (status, value, headers)
}

/// A request to `HOST` with `headers`.
fn request(method: &str, path: &str, headers: &[(&str, &str)], body: &str) -> Request<Body> {
    let mut req = Request::builder()
        .method(method)
        .uri(path)
        .header(header::HOST, HOST);
    for (name, value) in headers {
        req = req.header(*name, *value);
    }
    req.body(Body::from(body.to_string())).unwrap()
}

const JSON: (&str, &str) = ("content-type", "application/json");

#[tokio::test]
async fn the_page_itself_and_command_line_clients_are_served() {
    let (t, router) = guarded_app(HOST, Access::default());
    let (status, body, _) = send(&router, request("GET", "/", &[], "")).await;
    assert_eq!(status, StatusCode::OK);
    assert!(body.as_str().unwrap().contains("The 304 matchboxes"));
    // The page's own fetch: same origin.
    let page = [
        ("origin", "http://127.0.0.1:8080"),
        ("sec-fetch-site", "same-origin"),
    ];
    let (status, _, _) = send(&router, request("POST", "/api/menace/new", &page, "")).await;
    assert_eq!(status, StatusCode::OK);
    let headers = [page[0], page[1], JSON];
    let (status, view, _) = send(
        &router,
        request("POST", "/api/menace/move", &headers, r#"{"square": 8}"#),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{view}");
    // curl: no Origin, no Sec-Fetch-Site; typed in the address bar: `none`.
    let (status, _, _) = send(&router, request("POST", "/api/menace/new", &[], "")).await;
    assert_eq!(status, StatusCode::OK);
    let none = [("sec-fetch-site", "none"), JSON];
    let (status, _, _) = send(&router, request("POST", "/api/menace/new", &none, "{}")).await;
    assert_eq!(status, StatusCode::OK);
    // localhost is the same server.
    let req = Request::builder()
        .method("POST")
        .uri("/api/menace/new")
        .header(header::HOST, "localhost:8080")
        .header("origin", "http://localhost:8080")
        .body(Body::empty())
        .unwrap();
    assert_eq!(send(&router, req).await.0, StatusCode::OK);
    assert!(t.shared.menace.lock().unwrap().in_game());
}

#[tokio::test]
async fn other_sites_change_nothing() {
    let (t, router) = guarded_app(HOST, Access::default());
    let cross = |path: &'static str| {
        let router = router.clone();
        async move {
            for headers in [
                vec![("origin", "http://evil.example")],
                vec![("origin", "http://evil.example"), JSON],
                vec![("origin", "http://127.0.0.1:9999"), JSON],
                vec![("origin", "null")],
                vec![("sec-fetch-site", "cross-site"), JSON],
                vec![("sec-fetch-site", "same-site"), JSON],
            ] {
                let (status, body, _) = send(&router, request("POST", path, &headers, "{}")).await;
                assert_eq!(status, StatusCode::FORBIDDEN, "{path} {headers:?}: {body}");
                assert!(
                    error_of(&body).starts_with("cross-origin request refused"),
                    "{body}"
                );
            }
        }
    };
    for path in [
        "/api/menace/new",
        "/api/menace/stop",
        "/api/gomoku/new",
        "/api/tournament/start",
    ] {
        cross(path).await;
    }
    assert!(!t.shared.menace.lock().unwrap().in_game(), "a game started");
    assert_eq!(t.saves(), 0, "saved");
    let (_, gomoku) = t.call("GET", "/api/gomoku", None).await;
    assert_eq!(gomoku["phase"], "idle");
    let (_, tournament) = t.call("GET", "/api/tournament", None).await;
    assert_eq!(tournament["running"], false);
    // Training on: a stop from elsewhere does not stop it.
    let (status, _) = t
        .post("/api/menace/train", r#"{"opponent": "random", "speed": 1}"#)
        .await;
    assert_eq!(status, StatusCode::OK);
    cross("/api/menace/stop").await;
    assert!(
        t.shared.menace.lock().unwrap().training(),
        "training stopped"
    );
    t.shared.menace.lock().unwrap().set_training(false);
    // Reading stays open (a cross-origin page cannot read the answer anyway).
    let evil = [
        ("origin", "http://evil.example"),
        ("sec-fetch-site", "cross-site"),
    ];
    assert_eq!(
        send(&router, request("GET", "/api/menace", &evil, ""))
            .await
            .0,
        StatusCode::OK
    );
}

#[tokio::test]
async fn form_content_types_are_refused_before_anything_happens() {
    let (t, router) = guarded_app(HOST, Access::default());
    for content_type in [
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        "text/plain",
        "text/plain;charset=UTF-8",
    ] {
        for (path, body) in [
            ("/api/menace/new", ""),
            ("/api/menace/stop", ""),
            ("/api/menace/move", r#"{"square": 0}"#),
            ("/api/gomoku/new", r#"{"opener": "you", "time_ms": 100}"#),
        ] {
            let headers = [("content-type", content_type)];
            let (status, reply, _) = send(&router, request("POST", path, &headers, body)).await;
            assert_eq!(
                status,
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "{path} {content_type}"
            );
            assert!(error_of(&reply).contains("JSON only"), "{reply}");
        }
    }
    // A body without any content type is refused too.
    let (status, reply, _) =
        send(&router, request("POST", "/api/menace/new", &[], "square=1")).await;
    assert_eq!(status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    error_of(&reply);
    assert!(!t.shared.menace.lock().unwrap().in_game());
    let (_, gomoku) = t.call("GET", "/api/gomoku", None).await;
    assert_eq!(gomoku["phase"], "idle");
    // JSON with a charset is JSON.
    let headers = [("content-type", "application/json; charset=utf-8")];
    let (status, _, _) = send(&router, request("POST", "/api/menace/new", &headers, "")).await;
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test]
async fn a_host_that_is_not_the_servers_is_refused() {
    let (t, router) = guarded_app(HOST, Access::default());
    for host in [
        "evil.example:8080",
        "evil.example",
        "127.0.0.1:8081",
        "192.168.1.9:8080",
    ] {
        for method in ["GET", "POST"] {
            let req = Request::builder()
                .method(method)
                .uri("/api/menace/new")
                .header(header::HOST, host)
                .body(Body::empty())
                .unwrap();
            let (status, body, _) = send(&router, req).await;
            assert_eq!(status, StatusCode::MISDIRECTED_REQUEST, "{method} {host}");
            assert!(error_of(&body).contains("--allow-host"), "{body}");
        }
    }
    let req = Request::builder().uri("/").body(Body::empty()).unwrap();
    assert_eq!(send(&router, req).await.0, StatusCode::MISDIRECTED_REQUEST);
    assert!(!t.shared.menace.lock().unwrap().in_game());

    let access = Access {
        allow_hosts: vec!["inarow.lan".into()],
        token: None,
    };
    let (_, router) = guarded_app(HOST, access);
    for host in ["inarow.lan", "inarow.lan:8080", "INAROW.LAN:8080"] {
        let req = Request::builder()
            .method("POST")
            .uri("/api/menace/new")
            .header(header::HOST, host)
            .header("origin", format!("http://{host}"))
            .body(Body::empty())
            .unwrap();
        assert_eq!(send(&router, req).await.0, StatusCode::OK, "{host}");
    }
}

#[tokio::test]
async fn big_bodies_get_413() {
    let (t, router) = guarded_app(HOST, Access::default());
    let big = format!(r#"{{"square": 0, "pad": "{}"}}"#, "x".repeat(10 << 20));
    for path in ["/api/menace/move", "/api/menace/new"] {
        let (status, body, _) = send(&router, request("POST", path, &[JSON], &big)).await;
        assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{path}");
        assert!(
            error_of(&body).starts_with("request body too large"),
            "{body}"
        );
        // Without a length given ahead (chunked): read up to the limit only.
        let chunks = (0..160).map(|_| Ok::<_, std::io::Error>(vec![b' '; 64 << 10]));
        let req = Request::builder()
            .method("POST")
            .uri(path)
            .header(header::HOST, HOST)
            .header("content-type", "application/json")
            .body(Body::from_stream(futures_util::stream::iter(chunks)))
            .unwrap();
        let (status, body, _) = send(&router, req).await;
        assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{path}: {body}");
    }
    assert!(!t.shared.menace.lock().unwrap().in_game());
    // Without the guard, axum's own limit reads 413 as well.
    let (status, body) = t.post("/api/menace/move", &big).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{body}");
    error_of(&body);
}

#[tokio::test]
async fn with_a_token_every_request_carries_it() {
    let access = Access {
        allow_hosts: vec![],
        token: Some(TOKEN.into()),
    };
    let (t, router) = guarded_app("0.0.0.0:8080", access);
    let lan = |method: &str, path: &str, extra: &[(&str, String)]| {
        let mut req = Request::builder()
            .method(method)
            .uri(path)
            .header(header::HOST, "192.168.1.9:8080");
        for (name, value) in extra {
            req = req.header(*name, value);
        }
        req.body(Body::empty()).unwrap()
    };
    for (method, path) in [
        ("GET", "/"),
        ("GET", "/api/menace"),
        ("GET", "/api/events"),
        ("POST", "/api/menace/new"),
    ] {
        let (status, body, _) = send(&router, lan(method, path, &[])).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{method} {path}");
        assert!(error_of(&body).contains("token"), "{body}");
        let wrong = [(
            header::AUTHORIZATION.as_str(),
            "Bearer 0123456789abcdef0124".to_string(),
        )];
        assert_eq!(
            send(&router, lan(method, path, &wrong)).await.0,
            StatusCode::UNAUTHORIZED
        );
        let cookie = [("cookie", "inarow_token_8080=nope".to_string())];
        assert_eq!(
            send(&router, lan(method, path, &cookie)).await.0,
            StatusCode::UNAUTHORIZED
        );
    }
    assert!(!t.shared.menace.lock().unwrap().in_game());
    // The printed address sets the cookie and leaves it out of the address bar.
    let (status, _, headers) = send(&router, lan("GET", &format!("/?token={TOKEN}"), &[])).await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    assert_eq!(headers[header::LOCATION], "/");
    let cookie = headers[header::SET_COOKIE].to_str().unwrap();
    assert_eq!(
        cookie,
        format!("inarow_token_8080={TOKEN}; Path=/; HttpOnly; SameSite=Strict")
    );
    let (status, _, _) = send(&router, lan("GET", "/?token=0123456789abcdef0124", &[])).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    // With the cookie (among others) or the header, it is served.
    let with_cookie = [("cookie", format!("theme=dark; inarow_token_8080={TOKEN}"))];
    let (status, page, _) = send(&router, lan("GET", "/", &with_cookie)).await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.as_str().unwrap().contains("The 304 matchboxes"));
    let origin = ("origin", "http://192.168.1.9:8080".to_string());
    let (status, _, _) = send(
        &router,
        lan(
            "POST",
            "/api/menace/new",
            &[with_cookie[0].clone(), origin.clone()],
        ),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let bearer = (header::AUTHORIZATION.as_str(), format!("Bearer {TOKEN}"));
    let (status, view, _) = send(
        &router,
        lan("GET", "/api/menace", std::slice::from_ref(&bearer)),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert!(!view["game"].is_null());
    // The token does not make another site's request acceptable.
    let evil = ("origin", "http://evil.example".to_string());
    let (status, _, _) = send(&router, lan("POST", "/api/menace/stop", &[bearer, evil])).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn doubled_headers_and_targets_naming_another_host_are_refused() {
    let (t, router) = guarded_app(HOST, Access::default());
    let page = format!("http://{HOST}");
    for (name, first, second) in [
        ("Host", HOST, "evil.example"),
        ("Host", "evil.example", HOST),
        ("Origin", page.as_str(), "http://evil.example"),
        ("Origin", "http://evil.example", page.as_str()),
        ("Sec-Fetch-Site", "same-origin", "cross-site"),
        ("Content-Type", "application/json", "text/plain"),
    ] {
        let mut req = Request::builder().method("POST").uri("/api/menace/new");
        if name != "Host" {
            req = req.header(header::HOST, HOST);
        }
        let req = req
            .header(name, first)
            .header(name, second)
            .body(Body::empty())
            .unwrap();
        let (status, body, _) = send(&router, req).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{name}: {body}");
        assert_eq!(error_of(&body), format!("more than one {name} header"));
    }
    let target = |uri: &str| {
        Request::builder()
            .method("POST")
            .uri(uri)
            .header(header::HOST, HOST)
            .header("origin", format!("http://{HOST}"))
            .body(Body::empty())
            .unwrap()
    };
    for (uri, want) in [
        (
            "http://evil.example/api/menace/new",
            StatusCode::MISDIRECTED_REQUEST,
        ),
        (
            "http://evil.example:8080/api/menace/new",
            StatusCode::MISDIRECTED_REQUEST,
        ),
        (
            "http://localhost:8080/api/menace/new",
            StatusCode::BAD_REQUEST,
        ),
        (
            "https://127.0.0.1:8080/api/menace/new",
            StatusCode::BAD_REQUEST,
        ),
    ] {
        let (status, body, _) = send(&router, target(uri)).await;
        assert_eq!(status, want, "{uri}: {body}");
        error_of(&body);
    }
    assert!(!t.shared.menace.lock().unwrap().in_game());
    // Naming this server, as `Host` does, is fine.
    let (status, body, _) = send(&router, target("http://127.0.0.1:8080/api/menace/new")).await;
    assert_eq!(status, StatusCode::OK, "{body}");
}
