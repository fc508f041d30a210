//! `varc serve`: the web playground. One page (assets built into the
//! binary, [`assets`]) over a small JSON API: the variants of one folder
//! ([`variants`]), games kept on the server ([`games`]), and the author's
//! tools — check, dump, perft, save ([`author`]).
//!
//! The server computes everything a page shows (legal moves, SAN, results,
//! refusal reasons, diagnostics); the page only draws and sends moves.
//! Safety ([`limits`]): request bodies and rules texts are bounded, work
//! that may take long (compiling, the engine, perft) runs on blocking
//! threads under a time limit, the only files read or written are the
//! `*.rules` files of the folder given, and the server listens on
//! 127.0.0.1 unless told otherwise; requests from other sites are refused
//! ([`guard`]).

pub mod assets;
pub mod author;
pub mod error;
pub mod games;
pub mod guard;
pub mod limits;
pub mod variants;

use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
use axum::Router;
use std::path::PathBuf;
use std::sync::Arc;

pub use error::ApiError;

/// What the server serves.
#[derive(Clone, Debug)]
pub struct Config {
    /// The folder whose `*.rules` files are listed, played and saved.
    pub folder: PathBuf,
    /// The variant shown first (a file's stem in `folder`).
    pub initial: Option<String>,
    /// Answer only requests whose `Host` is a loopback name (set when
    /// listening on a loopback address).
    pub loopback_only: bool,
}

/// The server's state, shared by every request.
pub struct App {
    folder: variants::Folder,
    initial: Option<String>,
    loopback_only: bool,
    games: games::GameStore,
}

impl App {
    /// The state for `config`; fails if the folder cannot be read.
    pub fn new(config: Config) -> std::io::Result<App> {
        Ok(App {
            folder: variants::Folder::open(&config.folder)?,
            initial: config.initial,
            loopback_only: config.loopback_only,
            games: games::GameStore::default(),
        })
    }
}

/// The routes of the page and the API.
pub fn router(app: App) -> Router {
    let app = Arc::new(app);
    Router::new()
        .route("/", get(assets::index))
        .route("/app.js", get(assets::app_js))
        .route("/board.js", get(assets::board_js))
        .route("/pieces.js", get(assets::pieces_js))
        .route("/style.css", get(assets::style_css))
        .route("/api/variants", get(variants::list))
        .route("/api/variants/:id", get(variants::show))
        .route("/api/variants/:id/save", post(author::save))
        .route("/api/check", post(author::check))
        .route("/api/perft", post(author::perft))
        .route("/api/games", post(games::create))
        .route("/api/games/:id", get(games::show))
        .route("/api/games/:id/move", post(games::play_move))
        .route("/api/games/:id/action", post(games::action))
        .route("/api/games/:id/engine", post(games::engine_move))
        .route("/api/games/:id/record", get(games::record))
        .fallback(error::not_found)
        .layer(DefaultBodyLimit::max(limits::MAX_BODY_READ_BYTES))
        .layer(axum::middleware::from_fn_with_state(
            app.clone(),
            guard::same_origin,
        ))
        .with_state(app)
}

/// Serves `config` on `listener` until the process ends.
pub async fn serve(listener: tokio::net::TcpListener, config: Config) -> std::io::Result<()> {
    let app = App::new(config)?;
    axum::serve(listener, router(app)).await
}
