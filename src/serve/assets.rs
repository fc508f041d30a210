//! The page and its assets, built into the binary.

use axum::http::header;
use axum::response::IntoResponse;

const INDEX_HTML: &str = include_str!("../../web/index.html");
const APP_JS: &str = include_str!("../../web/app.js");
const BOARD_JS: &str = include_str!("../../web/board.js");
const PIECES_JS: &str = include_str!("../../web/pieces.js");
const STYLE_CSS: &str = include_str!("../../web/style.css");

fn asset(content_type: &'static str, body: &'static str) -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, content_type),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
}

/// `GET /`: the page.
pub async fn index() -> impl IntoResponse {
    asset("text/html; charset=utf-8", INDEX_HTML)
}

/// `GET /app.js`: the page's logic (API calls, play, editor).
pub async fn app_js() -> impl IntoResponse {
    asset("text/javascript; charset=utf-8", APP_JS)
}

/// `GET /board.js`: the board drawn as SVG.
pub async fn board_js() -> impl IntoResponse {
    asset("text/javascript; charset=utf-8", BOARD_JS)
}

/// `GET /pieces.js`: the built-in piece glyphs.
pub async fn pieces_js() -> impl IntoResponse {
    asset("text/javascript; charset=utf-8", PIECES_JS)
}

/// `GET /style.css`: the page's style.
pub async fn style_css() -> impl IntoResponse {
    asset("text/css; charset=utf-8", STYLE_CSS)
}
