//! Errors of the API: a status and `{ "error": "...", ... }`.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;

/// A refused request. Nothing was changed.
#[derive(Debug)]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// What went wrong, in one line.
    pub error: String,
    /// Further fields of the JSON object (`reason`, `diagnostics`).
    pub extra: serde_json::Map<String, serde_json::Value>,
}

impl ApiError {
    /// An error with `status` saying `error`.
    pub fn new(status: StatusCode, error: impl Into<String>) -> ApiError {
        ApiError {
            status,
            error: error.into(),
            extra: serde_json::Map::new(),
        }
    }

    /// 400: a malformed request.
    pub fn bad_request(error: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, error)
    }

    /// 404: no such variant or game.
    pub fn not_found(error: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, error)
    }

    /// 422: a well-formed request the rules refuse (an illegal move).
    pub fn refused(error: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, error)
    }

    /// Adds a field to the JSON object.
    pub fn with(mut self, key: &str, value: impl Into<serde_json::Value>) -> ApiError {
        self.extra.insert(key.to_string(), value.into());
        self
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut object = self.extra;
        object.insert("error".into(), self.error.into());
        (self.status, Json(serde_json::Value::Object(object))).into_response()
    }
}

/// Any other path: 404 with a JSON error.
pub async fn not_found(uri: axum::http::Uri) -> ApiError {
    ApiError::not_found(format!("no such page or endpoint: {}", uri.path()))
}
