//! Requests from elsewhere are refused before any handler runs: a page of
//! another site must not play, or save rules files, through the browser of
//! the person running `varc serve`.
//!
//! - `Host` must name a loopback address when the server listens on one
//!   (a DNS name rebound to 127.0.0.1 is refused);
//! - an `Origin`, when the browser sends one, must be the server itself;
//! - a `POST` must say `Content-Type: application/json`, which a plain
//!   HTML form cannot send and a script of another origin cannot send
//!   without a CORS preflight that this server never grants.

use super::{ApiError, App};
use axum::extract::{Request, State};
use axum::http::{header, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::sync::Arc;

/// Whether `host` (a `Host` header: name or address, maybe a port) is a
/// loopback name.
pub fn is_loopback_host(host: &str) -> bool {
    let name = if let Some(rest) = host.strip_prefix('[') {
        rest.split(']').next().unwrap_or("")
    } else {
        host.rsplit_once(':').map_or(host, |(name, _)| name)
    };
    name.eq_ignore_ascii_case("localhost")
        || name
            .parse::<std::net::IpAddr>()
            .is_ok_and(|address| address.is_loopback())
}

/// The middleware.
pub async fn same_origin(State(app): State<Arc<App>>, request: Request, next: Next) -> Response {
    let headers = request.headers();
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    if app.loopback_only && !is_loopback_host(host) {
        return ApiError::new(
            StatusCode::FORBIDDEN,
            format!("this server answers only to localhost, not to host {host:?}"),
        )
        .into_response();
    }
    if let Some(origin) = headers.get(header::ORIGIN) {
        let origin = origin.to_str().unwrap_or("");
        let from = origin
            .strip_prefix("http://")
            .or_else(|| origin.strip_prefix("https://"))
            .unwrap_or(origin);
        if !from.eq_ignore_ascii_case(host) {
            return ApiError::new(
                StatusCode::FORBIDDEN,
                format!(
                    "requests from {origin:?} are refused: only this server's own page may call it"
                ),
            )
            .into_response();
        }
    }
    if request.method() == Method::POST {
        let json = headers
            .get(header::CONTENT_TYPE)
            .and_then(|h| h.to_str().ok())
            .is_some_and(|t| {
                t.trim_start()
                    .to_ascii_lowercase()
                    .starts_with("application/json")
            });
        if !json {
            return ApiError::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "a request body must be sent as Content-Type: application/json",
            )
            .into_response();
        }
    }
    next.run(request).await
}

#[cfg(test)]
mod tests {
    use super::is_loopback_host;

    #[test]
    fn loopback_hosts_are_recognised() {
        for host in [
            "localhost:8080",
            "127.0.0.1:80",
            "[::1]:8080",
            "LOCALHOST",
            "127.0.0.1",
        ] {
            assert!(is_loopback_host(host), "{host}");
        }
        for host in [
            "example.com",
            "evil.localhost.example:8080",
            "10.0.0.1:8080",
            "",
        ] {
            assert!(!is_loopback_host(host), "{host}");
        }
    }
}
