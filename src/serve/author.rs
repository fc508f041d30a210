//! The author's tools: check a rules text (diagnostics with lines and
//! columns, and the model dump), perft, and saving to the folder — only
//! with the user's confirmation, and never over a file that changed on
//! disk since the page read it.

use super::limits::{self, limited, JsonBody};
use super::variants::{describe, version_token};
use super::{ApiError, App};
use crate::interp::Interpreter;
use axum::extract::{Path as UrlPath, State};
use axum::http::StatusCode;
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::Instant;
use varc_runtime::fen::parse_fen;
use varc_runtime::game::divide_with_history;
use varc_runtime::notation::long_algebraic;
use varc_runtime::position::Position;
use varc_runtime::rules::Rules;

/// `POST /api/check`: `{ "variant": id, "source": text, "dump": bool }`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CheckRequest {
    variant: String,
    source: String,
    #[serde(default)]
    dump: bool,
}

/// Checks a rules text: `{ ok, diagnostics, variant?, dump? }`.
pub async fn check(
    State(app): State<Arc<App>>,
    JsonBody(request): JsonBody<CheckRequest>,
) -> Result<Json<Value>, ApiError> {
    limits::check_rules_size(&request.source)?;
    let folder = app.folder.clone();
    limited(limits::COMPILE_SECONDS, move || {
        Ok(Json(
            match folder.check(&request.variant, &request.source) {
                Ok(checked) => {
                    let variant = checked.variant;
                    // Warnings do not stop the variant from being played.
                    let diagnostics = crate::diagnostic::to_json(&checked.sources, &checked.warnings);
                    let mut object = json!({"ok": true, "diagnostics": diagnostics, "variant": describe(&variant)});
                    if request.dump {
                        object["dump"] = Value::from(crate::dump::dump(&variant));
                    }
                    object
                }
                Err(error) => json!({
                    "ok": false,
                    "diagnostics": crate::diagnostic::to_json(&error.sources, &error.errors),
                    "rendered": error.render(),
                }),
            },
        ))
    })
    .await
}

/// `POST /api/perft`: `{ "variant": id, "source"?: text, "fen"?: FEN,
/// "depth": N }` (N at most [`limits::MAX_PERFT_DEPTH`]).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PerftRequest {
    variant: String,
    #[serde(default)]
    source: Option<String>,
    #[serde(default)]
    fen: Option<String>,
    depth: u32,
}

/// Counts the leaves of the legal-move tree: `{ nodes, depth, seconds, divide }`.
pub async fn perft(
    State(app): State<Arc<App>>,
    JsonBody(request): JsonBody<PerftRequest>,
) -> Result<Json<Value>, ApiError> {
    if let Some(source) = &request.source {
        limits::check_rules_size(source)?;
    }
    if request.depth > limits::MAX_PERFT_DEPTH {
        return Err(ApiError::bad_request(format!(
            "perft depth {} is deeper than the server allows ({}); use `varc perft` for deep counts",
            request.depth,
            limits::MAX_PERFT_DEPTH
        )));
    }
    let folder = app.folder.clone();
    limited(limits::WORK_SECONDS, move || {
        let source = match request.source {
            Some(source) => source,
            None => folder.source(&request.variant)?,
        };
        let variant = folder.compile(&request.variant, &source).map_err(|error| {
            ApiError::refused("the rules have errors").with(
                "diagnostics",
                crate::diagnostic::to_json(&error.sources, &error.errors),
            )
        })?;
        let rules = Interpreter::new(variant).map_err(|e| ApiError::refused(e.to_string()))?;
        let variant = rules.variant();
        let fen = request.fen.unwrap_or_else(|| variant.start_fen.clone());
        let position = parse_fen(variant, fen.trim())
            .map_err(|e| ApiError::refused(format!("invalid FEN: {e}")))?;
        let legal = rules.legal_moves(&position);
        let started = Instant::now();
        let no_history: [Position; 0] = [];
        let divide = if request.depth == 0 {
            Vec::new()
        } else {
            divide_with_history(&rules, &no_history, &position, request.depth, |_, _| {})
        };
        let nodes: u64 = if request.depth == 0 {
            1
        } else {
            divide.iter().map(|(_, n)| n).sum()
        };
        let divide: Vec<Value> = divide
            .iter()
            .map(|(mv, n)| json!({"move": long_algebraic(variant, mv, &legal), "nodes": n}))
            .collect();
        Ok(Json(json!({
            "nodes": nodes,
            "depth": request.depth,
            "seconds": started.elapsed().as_secs_f64(),
            "fen": fen,
            "divide": divide,
        })))
    })
    .await
}

/// `POST /api/variants/:id/save`: `{ "source": text, "version": token,
/// "confirm": true }`; `version` is the token the page read the file with.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SaveRequest {
    source: String,
    version: String,
    #[serde(default)]
    confirm: bool,
}

/// Writes the rules file: 400 without confirmation, 409 when the file
/// changed on disk since it was read; `{ saved, version }` otherwise.
pub async fn save(
    State(app): State<Arc<App>>,
    UrlPath(id): UrlPath<String>,
    JsonBody(request): JsonBody<SaveRequest>,
) -> Result<Json<Value>, ApiError> {
    limits::check_rules_size(&request.source)?;
    if !request.confirm {
        return Err(ApiError::bad_request(
            "saving needs the user's confirmation (\"confirm\": true)",
        ));
    }
    let folder = app.folder.clone();
    limited(limits::WORK_SECONDS, move || {
        let path = folder.file(&id)?;
        let on_disk = folder.source(&id)?;
        if version_token(&on_disk) != request.version {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                format!("{id}.rules changed on disk since it was opened; reload it before saving"),
            ));
        }
        crate::output::write_file(&path, request.source.as_bytes(), true).map_err(|e| {
            ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("cannot save: {e}"),
            )
        })?;
        Ok(Json(
            json!({"saved": true, "version": version_token(&request.source)}),
        ))
    })
    .await
}
