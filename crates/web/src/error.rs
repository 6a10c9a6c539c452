//! The one form every refusal takes, whoever refuses: the routes, the
//! guard before them and the connection loop below them. A status and
//! `{"error": "one line"}`.

use axum::Json;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

/// A refused request: its status and one line saying why.
#[derive(Debug)]
pub struct ApiError(pub StatusCode, pub String);

impl ApiError {
    pub(crate) fn bad(message: impl Into<String>) -> ApiError {
        ApiError(StatusCode::BAD_REQUEST, message.into())
    }

    pub(crate) fn conflict(message: impl Into<String>) -> ApiError {
        ApiError(StatusCode::CONFLICT, message.into())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.0, Json(serde_json::json!({ "error": self.1 }))).into_response()
    }
}

/// 503 at a cap: `message` as the one-line error, `Retry-After: seconds`,
/// and the connection closed after it.
pub(crate) fn busy(message: &str, seconds: u32) -> Response {
    let mut response =
        ApiError(StatusCode::SERVICE_UNAVAILABLE, message.to_string()).into_response();
    let headers = response.headers_mut();
    headers.insert(header::RETRY_AFTER, HeaderValue::from(seconds));
    headers.insert(header::CONNECTION, HeaderValue::from_static("close"));
    response
}
