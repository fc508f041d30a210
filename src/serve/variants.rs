//! The folder of rules files: listing, reading (only `*.rules` files
//! directly inside it, named by their stem) and a variant's description
//! for the page (board, squares, pieces, regions).

use super::limits::{self, limited};
use super::{ApiError, App};
use crate::load::{check_variant_from_str, load_variant_from_str, Checked, LoadError};
use crate::model::{Color, Square, Variant};
use axum::extract::{Path as UrlPath, State};
use axum::Json;
use serde_json::{json, Value};
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The folder given to `varc serve`, canonical.
#[derive(Clone, Debug)]
pub struct Folder {
    path: PathBuf,
}

/// Whether `id` can name a rules file: letters, digits, `-` and `_`.
pub fn is_variant_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 64
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

impl Folder {
    /// The folder at `path`; it must exist.
    pub fn open(path: &Path) -> std::io::Result<Folder> {
        let path = path.canonicalize()?;
        if !path.is_dir() {
            return Err(std::io::Error::other(format!(
                "{} is not a folder",
                path.display()
            )));
        }
        Ok(Folder { path })
    }

    /// The folder's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The ids (file stems) of the rules files, sorted.
    pub fn ids(&self) -> Vec<String> {
        let Ok(entries) = std::fs::read_dir(&self.path) else {
            return Vec::new();
        };
        let mut ids: Vec<String> = entries
            .filter_map(Result::ok)
            .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
            .filter_map(|e| {
                let name = e.file_name().into_string().ok()?;
                let id = name.strip_suffix(".rules")?;
                is_variant_id(id).then(|| id.to_string())
            })
            .collect();
        ids.sort();
        ids
    }

    /// The path of variant `id`: a regular file (not a link) directly in
    /// the folder, or 404.
    pub fn file(&self, id: &str) -> Result<PathBuf, ApiError> {
        if !is_variant_id(id) {
            return Err(ApiError::not_found(format!("unknown variant {id:?}")));
        }
        let path = self.path.join(format!("{id}.rules"));
        match std::fs::symlink_metadata(&path) {
            Ok(meta) if meta.file_type().is_file() => Ok(path),
            _ => Err(ApiError::not_found(format!(
                "unknown variant {id:?}: no file {id}.rules in the folder"
            ))),
        }
    }

    /// The text of variant `id`.
    pub fn source(&self, id: &str) -> Result<String, ApiError> {
        let path = self.file(id)?;
        crate::bounded::read_text(&path)
            .map_err(|e| ApiError::bad_request(format!("cannot read {id}.rules: {e}")))
    }

    /// Compiles `source` as variant `id` (its `extends` read from the folder).
    pub fn compile(&self, id: &str, source: &str) -> Result<Variant, LoadError> {
        load_variant_from_str(&format!("{id}.rules"), source, &self.path)
    }

    /// [`Folder::compile`] with the warnings, for the rules editor.
    pub fn check(&self, id: &str, source: &str) -> Result<Checked, LoadError> {
        check_variant_from_str(&format!("{id}.rules"), source, &self.path)
    }
}

/// A token for a text's version: saving refuses when the file's token is
/// no longer the one the page read.
pub fn version_token(text: &str) -> String {
    // SipHash with fixed keys: the same text gives the same token.
    #[allow(deprecated)]
    let mut hasher = std::hash::SipHasher::new();
    text.hash(&mut hasher);
    format!("{:016x}-{}", hasher.finish(), text.len())
}

/// `GET /api/variants`: `{ folder, initial, variants: [{id, name}] }`.
pub async fn list(State(app): State<Arc<App>>) -> Result<Json<Value>, ApiError> {
    let folder = app.folder.clone();
    let initial = app.initial.clone();
    limited(limits::WORK_SECONDS, move || {
        let variants: Vec<Value> = folder
            .ids()
            .into_iter()
            .map(|id| {
                let name = folder
                    .source(&id)
                    .ok()
                    .and_then(|text| folder.compile(&id, &text).ok())
                    .map(|v| v.name);
                json!({"id": id, "name": name.clone().unwrap_or_else(|| id.clone()), "valid": name.is_some()})
            })
            .collect();
        Ok(Json(json!({
            "folder": folder.path().display().to_string(),
            "initial": initial,
            "variants": variants,
        })))
    })
    .await
}

/// `GET /api/variants/:id`: the text, its version token, and either the
/// variant's description or the diagnostics.
pub async fn show(
    State(app): State<Arc<App>>,
    UrlPath(id): UrlPath<String>,
) -> Result<Json<Value>, ApiError> {
    let folder = app.folder.clone();
    limited(limits::COMPILE_SECONDS, move || {
        let source = folder.source(&id)?;
        let mut object = json!({
            "id": id,
            "source": source,
            "version": version_token(&source),
        });
        match folder.compile(&id, &source) {
            Ok(variant) => object["variant"] = describe(&variant),
            Err(error) => {
                object["diagnostics"] = crate::diagnostic::to_json(&error.sources, &error.errors)
            }
        }
        Ok(Json(object))
    })
    .await
}

/// Whether a kind is drawn with the built-in glyph of a standard piece.
fn standard_glyph(name: &str) -> Option<&'static str> {
    Some(match name {
        "king" => "k",
        "queen" => "q",
        "rook" => "r",
        "bishop" => "b",
        "knight" => "n",
        "pawn" => "p",
        _ => return None,
    })
}

fn square_names(set: &crate::model::SquareSet) -> Vec<String> {
    set.iter().map(|s| s.to_string()).collect()
}

/// The variant as the page draws it.
pub fn describe(variant: &Variant) -> Value {
    let board = &variant.board;
    let squares: Vec<Value> = (0..board.ranks)
        .flat_map(|rank| (0..board.files).map(move |file| Square::new(file, rank)))
        .map(|square| {
            json!({
                "name": square.to_string(),
                "file": square.file,
                "rank": square.rank,
                "hole": board.holes.contains(square),
            })
        })
        .collect();
    let promotion_targets: Vec<usize> = variant
        .promotions
        .iter()
        .flat_map(|p| p.choices.iter().copied())
        .collect();
    // A kind that only promotion makes (not in the start position) is
    // marked as promoted wherever it stands.
    let start_placement = variant.start_fen.split(' ').next().unwrap_or("");
    let in_start = |letter: &str| {
        start_placement.contains(letter) || start_placement.contains(&letter.to_lowercase())
    };
    let pieces: Vec<Value> = variant
        .pieces
        .iter()
        .enumerate()
        .map(|(id, kind)| {
            json!({
                "id": id,
                "name": kind.name,
                "letter": kind.letter,
                "royal": kind.royal,
                "value": kind.value,
                "betza": kind.betza,
                "glyph": standard_glyph(&kind.name),
                "promotion_target": promotion_targets.contains(&id),
                "promoted_kind": promotion_targets.contains(&id) && !in_start(&kind.letter),
            })
        })
        .collect();
    let regions: Vec<Value> = variant
        .regions
        .iter()
        .map(|region| {
            json!({
                "name": region.name,
                "white": square_names(region.for_side(Color::White)),
                "black": square_names(region.for_side(Color::Black)),
            })
        })
        .collect();
    let promotion_zones: Vec<Value> = variant
        .promotions
        .iter()
        .filter_map(|p| {
            let region = variant.regions.get(p.zone)?;
            Some(json!({
                "pieces": p.pieces.iter().filter_map(|k| variant.pieces.get(*k)).map(|k| k.name.clone()).collect::<Vec<_>>(),
                "region": region.name,
            }))
        })
        .collect();
    json!({
        "id": variant.id,
        "name": variant.name,
        "files": board.files,
        "ranks": board.ranks,
        "squares": squares,
        "pieces": pieces,
        "regions": regions,
        "promotions": promotion_zones,
        "hands": variant.hands.in_use(),
        "start_fen": variant.start_fen,
    })
}
