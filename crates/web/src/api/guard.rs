//! The checks every request passes before a route sees it: the `Host` is
//! this server's, the token (when serving beyond this machine) is carried,
//! and a request that changes state comes from the page itself, with a JSON
//! body of reasonable size.
//!
//! In order, each refusal a one-line JSON error:
//! 0. `Host`, `Origin`, `Sec-Fetch-Site` or `Content-Type` given twice: 400.
//! 1. `Host` not this server's address nor an `--allow-host` name: 421;
//!    the same for a target in absolute form (`GET http://NAME/...`), which
//!    must also name the `Host` (else 400).
//! 2. A token is set and the request carries neither the cookie nor an
//!    `Authorization: Bearer` header with it: 401. `GET /?token=TOKEN` with
//!    the right token sets the cookie and redirects to `/`.
//! 3. Any method but `GET` and `HEAD` (state-changing):
//!    - an `Origin` other than `http://` + the `Host`, or `Sec-Fetch-Site`
//!      other than `same-origin` or `none`: 403;
//!    - a `Content-Type` other than `application/json` (forms, multipart,
//!      `text/plain`), or none with a non-empty body: 415;
//!    - a body over [`MAX_BODY`] bytes: 413;
//!    - a body that does not arrive within the body deadline of the
//!      connection loop (`Options::body_timeout`): 408, connection closed.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, Method, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};

use super::ApiError;

/// Largest request body accepted, in bytes; every body is a small JSON object.
pub const MAX_BODY: usize = 64 * 1024;

/// Who may use the server besides its own address.
#[derive(Clone, Debug, Default)]
pub struct Access {
    /// Extra names accepted in `Host` (`--allow-host`): `NAME` or `NAME:PORT`.
    pub allow_hosts: Vec<String>,
    /// The token every request must carry; required beyond loopback.
    pub token: Option<String>,
}

/// The checks of one server: the `Host` values it answers to and its token.
#[derive(Debug)]
pub struct Guard {
    hosts: Vec<String>,
    /// Bound to every address: any IP literal on this port is accepted (an
    /// address cannot be rebound by DNS; names must be listed).
    any_ip: Option<(u16, bool)>,
    token: Option<String>,
    cookie: String,
}

impl Guard {
    /// The checks for a server bound to `bound` with `access`; refuses a
    /// non-loopback address without a token, and bad tokens or names.
    pub fn new(access: &Access, bound: SocketAddr) -> anyhow::Result<Guard> {
        let port = bound.port();
        let ip = bound.ip();
        if let Some(token) = &access.token {
            check_token(token)?;
        } else if !ip.is_loopback() {
            anyhow::bail!(
                "serving on {ip} reaches beyond this machine: give a token (--token TOKEN)"
            );
        }
        let mut names: Vec<String> = Vec::new();
        let mut any_ip = None;
        if ip.is_unspecified() {
            any_ip = Some((port, ip.is_ipv6()));
            names.push("localhost".into());
        } else {
            names.push(match ip {
                IpAddr::V4(v4) => v4.to_string(),
                IpAddr::V6(v6) => format!("[{v6}]"),
            });
            if ip.is_loopback() {
                names.push("localhost".into());
            }
        }
        let mut hosts = Vec::new();
        for name in &names {
            hosts.push(format!("{name}:{port}"));
            // Browsers leave out the default port.
            if port == 80 {
                hosts.push(name.clone());
            }
        }
        for name in &access.allow_hosts {
            check_host_name(name)?;
            let name = name.to_ascii_lowercase();
            hosts.push(format!("{name}:{port}"));
            hosts.push(name);
        }
        Ok(Guard {
            hosts,
            any_ip,
            token: access.token.clone(),
            cookie: format!("inarow_token_{port}"),
        })
    }

    fn host_allowed(&self, host: &str) -> bool {
        let host = host.to_ascii_lowercase();
        if self.hosts.contains(&host) {
            return true;
        }
        let Some((port, v6)) = self.any_ip else {
            return false;
        };
        let Some((address, given)) = host.rsplit_once(':') else {
            return false;
        };
        if given != port.to_string() {
            return false;
        }
        match address.strip_prefix('[').and_then(|a| a.strip_suffix(']')) {
            Some(inner) => v6 && inner.parse::<std::net::Ipv6Addr>().is_ok(),
            None => address.parse::<std::net::Ipv4Addr>().is_ok(),
        }
    }

    /// Whether the request carries the token (or none is needed).
    fn carries_token(&self, headers: &HeaderMap) -> bool {
        let Some(token) = &self.token else {
            return true;
        };
        let bearer = headers
            .get_all(header::AUTHORIZATION)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .filter_map(|v| v.strip_prefix("Bearer "));
        let cookies = headers
            .get_all(header::COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(';'))
            .filter_map(|c| c.trim().split_once('='))
            .filter(|(name, _)| *name == self.cookie)
            .map(|(_, value)| value);
        // Every candidate is compared, so timing does not tell which matched.
        bearer
            .map(str::trim)
            .chain(cookies)
            .fold(false, |found, given| same(given, token) | found)
    }
}

/// A token: 16 to 256 characters that need no escaping in a URL or cookie.
fn check_token(token: &str) -> anyhow::Result<()> {
    let fine = |c: char| c.is_ascii_alphanumeric() || "-_.~".contains(c);
    if !(16..=256).contains(&token.len()) || !token.chars().all(fine) {
        anyhow::bail!(
            "bad token: use 16 to 256 letters, digits, '-', '_', '.' or '~' \
             (for example from `openssl rand -hex 16`)"
        );
    }
    Ok(())
}

/// An `--allow-host` name: a host name or address, optionally with `:PORT`.
fn check_host_name(name: &str) -> anyhow::Result<()> {
    let fine = |c: char| c.is_ascii_alphanumeric() || "-.:[]_".contains(c);
    if name.is_empty() || name.len() > 255 || !name.chars().all(fine) {
        anyhow::bail!(
            "bad --allow-host {name:?}: give a host name such as pi.local or pi.local:8080"
        );
    }
    Ok(())
}

/// Equal strings, compared in time that depends only on their lengths.
fn same(given: &str, token: &str) -> bool {
    let (a, b) = (given.as_bytes(), token.as_bytes());
    let diff = a
        .iter()
        .zip(b)
        .fold(0u8, |acc, (x, y)| acc | std::hint::black_box(x ^ y));
    a.len() == b.len() && diff == 0
}

/// `router` with every request passing `guard`'s checks first.
pub fn guarded(router: Router, guard: Guard) -> Router {
    router.layer(middleware::from_fn_with_state(Arc::new(guard), check))
}

fn refuse(status: StatusCode, message: impl Into<String>) -> Response {
    ApiError(status, message.into()).into_response()
}

/// Headers that say one thing: given twice, which one counts would be a
/// guess (and a proxy or browser may guess otherwise).
const SINGLE: [(&str, header::HeaderName); 4] = [
    ("Host", header::HOST),
    ("Origin", header::ORIGIN),
    (
        "Sec-Fetch-Site",
        header::HeaderName::from_static("sec-fetch-site"),
    ),
    ("Content-Type", header::CONTENT_TYPE),
];

async fn check(State(guard): State<Arc<Guard>>, req: Request, next: Next) -> Response {
    let headers = req.headers();
    for (name, key) in &SINGLE {
        if headers.get_all(key).iter().nth(1).is_some() {
            return refuse(
                StatusCode::BAD_REQUEST,
                format!("more than one {name} header"),
            );
        }
    }
    let Some(host) = headers.get(header::HOST).and_then(|h| h.to_str().ok()) else {
        return refuse(StatusCode::MISDIRECTED_REQUEST, "no Host header");
    };
    if !guard.host_allowed(host) {
        return refuse(
            StatusCode::MISDIRECTED_REQUEST,
            format!("Host {host:?} is not this server's (add it with --allow-host)"),
        );
    }
    if let Err((status, why)) = absolute_target(&guard, req.uri(), host) {
        return refuse(status, why);
    }
    let host = host.to_ascii_lowercase();
    if let Some(response) = token_link(&guard, &req) {
        return response;
    }
    if !guard.carries_token(headers) {
        return refuse(
            StatusCode::UNAUTHORIZED,
            "this server needs its token: open the address `inarow serve` printed (…/?token=…)",
        );
    }
    if req.method() == Method::GET || req.method() == Method::HEAD {
        return next.run(req).await;
    }
    if let Err(why) = same_origin(headers, &host) {
        return refuse(StatusCode::FORBIDDEN, why);
    }
    let content_type = match headers.get(header::CONTENT_TYPE) {
        None => None,
        Some(value) => match value.to_str().ok().filter(|v| is_json(v)) {
            Some(v) => Some(v.to_string()),
            None => {
                return refuse(
                    StatusCode::UNSUPPORTED_MEDIA_TYPE,
                    format!(
                        "requests that change state take JSON only (Content-Type: application/json), not {:?}",
                        String::from_utf8_lossy(value.as_bytes())
                    ),
                );
            }
        },
    };
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > MAX_BODY as u64) {
        return too_large();
    }
    let (parts, body) = req.into_parts();
    let bytes = match http_body_util::BodyExt::collect(http_body_util::Limited::new(body, MAX_BODY))
        .await
    {
        Ok(collected) => collected.to_bytes(),
        Err(e) if e.is::<http_body_util::LengthLimitError>() => return too_large(),
        Err(e) if too_slow(&*e) => {
            let mut response = refuse(StatusCode::REQUEST_TIMEOUT, e.to_string());
            response.headers_mut().insert(
                header::CONNECTION,
                header::HeaderValue::from_static("close"),
            );
            return response;
        }
        Err(e) => {
            return refuse(
                StatusCode::BAD_REQUEST,
                format!("cannot read the request body: {e}"),
            );
        }
    };
    if content_type.is_none() && !bytes.is_empty() {
        return refuse(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "a request body must be JSON (Content-Type: application/json)",
        );
    }
    next.run(Request::from_parts(parts, Body::from(bytes)))
        .await
}

/// A request target in absolute form (`GET http://NAME/path`) names the
/// server that is meant, before `Host` (RFC 9112, 3.2.2): it must be this
/// one, the one `Host` names, over plain HTTP.
fn absolute_target(
    guard: &Guard,
    uri: &axum::http::Uri,
    host: &str,
) -> Result<(), (StatusCode, String)> {
    let Some(authority) = uri.authority() else {
        return Ok(());
    };
    let target = authority.as_str();
    if !guard.host_allowed(target) {
        return Err((
            StatusCode::MISDIRECTED_REQUEST,
            format!("the request target names {target:?}, not this server"),
        ));
    }
    if !target.eq_ignore_ascii_case(host) {
        return Err((
            StatusCode::BAD_REQUEST,
            format!("the request target names {target:?} but Host says {host:?}"),
        ));
    }
    match uri.scheme_str() {
        None | Some("http") => Ok(()),
        Some(scheme) => Err((
            StatusCode::BAD_REQUEST,
            format!("this server speaks plain http, not {scheme:?}"),
        )),
    }
}

/// Whether reading the body failed for want of time (the connection
/// loop's body deadline), however deep the error is wrapped.
fn too_slow(error: &(dyn std::error::Error + 'static)) -> bool {
    let mut next = Some(error);
    while let Some(e) = next {
        if e.is::<crate::server::BodyTimeout>() {
            return true;
        }
        next = e.source();
    }
    false
}

fn too_large() -> Response {
    refuse(
        StatusCode::PAYLOAD_TOO_LARGE,
        format!("request body too large: at most {MAX_BODY} bytes"),
    )
}

/// `application/json`, with or without parameters such as a charset.
fn is_json(content_type: &str) -> bool {
    let essence = content_type.split(';').next().unwrap_or("").trim();
    essence.eq_ignore_ascii_case("application/json")
}

/// A state-changing request from the page itself (or from no page at all,
/// as a command-line client): its `Origin`, when given, is this server and
/// the browser does not call it cross-site. Otherwise, why not.
fn same_origin(headers: &HeaderMap, host: &str) -> Result<(), String> {
    if let Some(origin) = headers.get(header::ORIGIN) {
        let origin = String::from_utf8_lossy(origin.as_bytes());
        if !origin.eq_ignore_ascii_case(&format!("http://{host}")) {
            return Err(format!(
                "cross-origin request refused: Origin {origin:?} is not this page"
            ));
        }
    }
    if let Some(site) = headers.get("sec-fetch-site") {
        let site = String::from_utf8_lossy(site.as_bytes());
        if site != "same-origin" && site != "none" {
            return Err(format!(
                "cross-origin request refused: Sec-Fetch-Site is {site:?}"
            ));
        }
    }
    Ok(())
}

/// `GET /?token=TOKEN`: the right token sets the cookie and redirects to
/// the page without it in the address; a wrong one is refused.
fn token_link(guard: &Guard, req: &Request) -> Option<Response> {
    let token = guard.token.as_ref()?;
    if req.method() != Method::GET || req.uri().path() != "/" {
        return None;
    }
    let given = req
        .uri()
        .query()?
        .split('&')
        .find_map(|pair| pair.strip_prefix("token="))?;
    if !same(given, token) {
        return Some(refuse(StatusCode::UNAUTHORIZED, "wrong token"));
    }
    let cookie = format!(
        "{}={token}; Path=/; HttpOnly; SameSite=Strict",
        guard.cookie
    );
    Some(
        (
            StatusCode::SEE_OTHER,
            [
                (header::LOCATION, "/".to_string()),
                (header::SET_COOKIE, cookie),
                (header::CACHE_CONTROL, "no-store".to_string()),
            ],
        )
            .into_response(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn guard(bound: &str, allow: &[&str], token: Option<&str>) -> Guard {
        let access = Access {
            allow_hosts: allow.iter().map(|s| s.to_string()).collect(),
            token: token.map(str::to_string),
        };
        Guard::new(&access, bound.parse().unwrap()).unwrap()
    }

    #[test]
    fn hosts_are_the_bound_address_localhost_and_allowed_names() {
        let g = guard("127.0.0.1:8080", &["pi.local"], None);
        for host in [
            "127.0.0.1:8080",
            "localhost:8080",
            "LOCALHOST:8080",
            "pi.local",
            "pi.local:8080",
        ] {
            assert!(g.host_allowed(host), "{host}");
        }
        for host in [
            "127.0.0.1:8081",
            "evil.example:8080",
            "127.0.0.1",
            "192.168.1.2:8080",
            "[::1]:8080",
        ] {
            assert!(!g.host_allowed(host), "{host}");
        }
        let g = guard("[::1]:9000", &[], None);
        assert!(g.host_allowed("[::1]:9000"));
        assert!(g.host_allowed("localhost:9000"));
        assert!(!g.host_allowed("127.0.0.1:9000"));
        let g = guard("0.0.0.0:9000", &[], Some("0123456789abcdef"));
        assert!(g.host_allowed("192.168.1.2:9000"));
        assert!(g.host_allowed("localhost:9000"));
        assert!(!g.host_allowed("192.168.1.2:9001"));
        assert!(!g.host_allowed("[::1]:9000"));
        assert!(!g.host_allowed("rebound.example:9000"));
    }

    #[test]
    fn beyond_loopback_needs_a_good_token() {
        let access = Access::default();
        let e = Guard::new(&access, "0.0.0.0:80".parse().unwrap()).unwrap_err();
        assert!(e.to_string().contains("--token"), "{e}");
        let access = Access {
            token: Some("short".into()),
            ..Access::default()
        };
        assert!(Guard::new(&access, "127.0.0.1:80".parse().unwrap()).is_err());
        let access = Access {
            allow_hosts: vec!["a b".into()],
            ..Access::default()
        };
        assert!(Guard::new(&access, "127.0.0.1:80".parse().unwrap()).is_err());
    }

    #[test]
    fn tokens_compare_whole() {
        assert!(same("0123456789abcdef", "0123456789abcdef"));
        assert!(!same("0123456789abcdeg", "0123456789abcdef"));
        assert!(!same("0123456789abcde", "0123456789abcdef"));
        assert!(!same("", "0123456789abcdef"));
    }
}
