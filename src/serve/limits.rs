//! The server's limits and the two helpers that apply them: request bodies
//! read as bounded JSON ([`JsonBody`]) and work run on a blocking thread
//! under a time limit ([`limited`]).

use super::ApiError;
use axum::async_trait;
use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use axum::http::StatusCode;
use serde::de::DeserializeOwned;
use std::time::Duration;

/// The largest request body accepted.
pub const MAX_BODY_BYTES: usize = 512 * 1024;
/// The most the server reads of a body: larger ones are cut off without an
/// answer a client can always read (the connection closes while it sends),
/// so a body between the two is read and refused with a clear error.
pub const MAX_BODY_READ_BYTES: usize = 4 * MAX_BODY_BYTES;
/// The largest rules text the editor may send.
pub const MAX_RULES_BYTES: usize = 256 * 1024;
/// The most games kept; the least recently used is dropped for a new one.
pub const MAX_GAMES: usize = 64;
/// Time allowed to compile a rules text.
pub const COMPILE_SECONDS: u64 = 5;
/// The engine's longest think per request, in milliseconds.
pub const MAX_ENGINE_MS: u64 = 10_000;
/// The engine's default think when a request names no limit.
pub const DEFAULT_ENGINE_MS: u64 = 500;
/// The engine's deepest search per request.
pub const MAX_ENGINE_DEPTH: u32 = 12;
/// The deepest perft a request may ask for.
pub const MAX_PERFT_DEPTH: u32 = 4;
/// Time allowed for a perft or any other game request.
pub const WORK_SECONDS: u64 = 20;

/// A JSON request body of type `T`; a body too large, not JSON or of the
/// wrong shape is refused with a JSON error.
pub struct JsonBody<T>(pub T);

#[async_trait]
impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for JsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, Self::Rejection> {
        let bytes = Bytes::from_request(request, state).await.map_err(|e| {
            if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
                ApiError::new(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    format!("the request body is larger than {MAX_BODY_READ_BYTES} bytes"),
                )
            } else {
                ApiError::bad_request(format!("cannot read the request body: {e}"))
            }
        })?;
        if bytes.len() > MAX_BODY_BYTES {
            return Err(ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                format!(
                    "the request body is {} bytes; at most {MAX_BODY_BYTES} are accepted",
                    bytes.len()
                ),
            ));
        }
        serde_json::from_slice(&bytes)
            .map(JsonBody)
            .map_err(|e| ApiError::bad_request(format!("malformed JSON request: {e}")))
    }
}

/// Runs `work` on a blocking thread; refuses with 503 when it takes more
/// than `seconds` (the work is left to finish on its own: every caller
/// bounds it, by depth or by the search's own clock).
pub async fn limited<T: Send + 'static>(
    seconds: u64,
    work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    let task = tokio::task::spawn_blocking(work);
    match tokio::time::timeout(Duration::from_secs(seconds), task).await {
        Ok(Ok(result)) => result,
        Ok(Err(_)) => Err(ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the request failed inside the server",
        )),
        Err(_) => Err(ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            format!("the request took longer than {seconds} s and was abandoned"),
        )),
    }
}

/// Refuses a rules text over [`MAX_RULES_BYTES`].
pub fn check_rules_size(source: &str) -> Result<(), ApiError> {
    if source.len() > MAX_RULES_BYTES {
        return Err(ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "the rules text is {} bytes; at most {MAX_RULES_BYTES} are accepted",
                source.len()
            ),
        ));
    }
    Ok(())
}
