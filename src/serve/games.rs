//! Games kept on the server, keyed by a random id: creating one (start
//! position, FEN, record or an edited rules text), moves, actions (claim,
//! offer, accept, resign, takeback, flag fall), the engine's move, the
//! record; and the game's state as the page shows it.

use super::limits::{self, limited, JsonBody};
use super::variants::describe;
use super::{ApiError, App};
use crate::interp::Interpreter;
use crate::refusal::why_refused;
use axum::extract::{Path as UrlPath, State};
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};
use varc_runtime::game::record::load;
use varc_runtime::game::replay::state_json;
use varc_runtime::game::{Action, Game, TimeControl};
use varc_runtime::model::{Color, Square, Variant};
use varc_runtime::moves::MoveKind;
use varc_runtime::notation::{long_algebraic, san};
use varc_runtime::position::Position;
use varc_runtime::rules::Rules;
use varc_runtime::search::{Engine, Limits};

/// One game and what plays it.
pub struct Entry {
    variant_id: String,
    game: Game<Interpreter>,
    engine: Engine,
    /// When the side to move started thinking (for its clock).
    turn_started: Instant,
    last_used: Instant,
}

type Shared = Arc<Mutex<Entry>>;

/// The games, at most [`limits::MAX_GAMES`].
#[derive(Default)]
pub struct GameStore {
    games: Mutex<HashMap<String, Shared>>,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic while holding the lock leaves the data as it was between
    // requests: go on with it.
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl GameStore {
    fn insert(&self, entry: Entry) -> String {
        let mut games = lock(&self.games);
        while games.len() >= limits::MAX_GAMES {
            // A game busy with a request (the engine thinking) counts as
            // just used, and is not waited for.
            let oldest = games
                .iter()
                .min_by_key(|(_, e)| {
                    e.try_lock()
                        .map_or_else(|_| Instant::now(), |e| e.last_used)
                })
                .map(|(id, _)| id.clone());
            match oldest {
                Some(id) => games.remove(&id),
                None => break,
            };
        }
        let id = loop {
            let id = random_id();
            if !games.contains_key(&id) {
                break id;
            }
        };
        games.insert(id.clone(), Arc::new(Mutex::new(entry)));
        id
    }

    fn get(&self, id: &str) -> Result<Shared, ApiError> {
        lock(&self.games).get(id).cloned().ok_or_else(|| {
            ApiError::not_found(format!(
                "unknown game {id:?} (games are kept while the server runs, {} at most)",
                limits::MAX_GAMES
            ))
        })
    }

    /// How many games are kept.
    pub fn len(&self) -> usize {
        lock(&self.games).len()
    }

    /// Whether no game is kept.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// 16 hex digits from the standard library's randomly keyed hasher.
fn random_id() -> String {
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    format!("{:016x}", hasher.finish())
}

/// `POST /api/games`: a new game of `variant`, from its start position,
/// a `fen` or a `record`; `source` plays an edited rules text instead of
/// the file; `clock` is `BASE+INCREMENT` in seconds.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    variant: String,
    #[serde(default)]
    source: Option<String>,
    #[serde(default)]
    fen: Option<String>,
    #[serde(default)]
    record: Option<String>,
    #[serde(default)]
    clock: Option<String>,
}

/// Creates a game; its state with `game_id`.
pub async fn create(
    State(app): State<Arc<App>>,
    JsonBody(request): JsonBody<NewGame>,
) -> Result<Json<Value>, ApiError> {
    if let Some(source) = &request.source {
        limits::check_rules_size(source)?;
    }
    let folder = app.folder.clone();
    let id = request.variant.clone();
    let compiled = limited(limits::COMPILE_SECONDS, move || {
        let source = match request.source {
            Some(source) => source,
            None => folder.source(&id)?,
        };
        let variant = folder.compile(&id, &source).map_err(|error| {
            ApiError::refused("the rules have errors; fix them to play").with(
                "diagnostics",
                crate::diagnostic::to_json(&error.sources, &error.errors),
            )
        })?;
        let rules = Interpreter::new(variant)
            .map_err(|e| ApiError::refused(format!("cannot play these rules: {e}")))?;
        let mut game = if let Some(record) = &request.record {
            load(rules.clone(), record)
                .map_err(|e| ApiError::refused(format!("cannot load the record: {e}")))?
        } else if let Some(fen) = &request.fen {
            Game::from_fen(rules.clone(), fen.trim())
                .map_err(|e| ApiError::refused(e.to_string()))?
        } else {
            Game::new(rules.clone()).map_err(|e| ApiError::refused(e.to_string()))?
        };
        if let Some(clock) = &request.clock {
            let control: TimeControl = clock
                .parse()
                .map_err(|e| ApiError::bad_request(format!("bad clock {clock:?}: {e}")))?;
            if game.clock().is_none() {
                game = game.with_time_control(control);
            }
        }
        let engine = Engine::new(rules.variant());
        Ok(Entry {
            variant_id: id,
            game,
            engine,
            turn_started: Instant::now(),
            last_used: Instant::now(),
        })
    })
    .await?;
    let mut state = state_of(&compiled);
    state["variant_info"] = describe(compiled.game.rules().variant());
    let game_id = app.games.insert(compiled);
    state["game_id"] = Value::from(game_id);
    Ok(Json(state))
}

/// Runs `work` on game `id` under the work time limit; the answer is the
/// game's state after it.
async fn with_game(
    app: &App,
    id: String,
    work: impl FnOnce(&mut Entry) -> Result<(), ApiError> + Send + 'static,
) -> Result<Json<Value>, ApiError> {
    let shared = app.games.get(&id)?;
    limited(limits::WORK_SECONDS, move || {
        let mut entry = lock(&shared);
        entry.last_used = Instant::now();
        work(&mut entry)?;
        let mut state = state_of(&entry);
        state["game_id"] = Value::from(id);
        Ok(Json(state))
    })
    .await
}

/// `GET /api/games/:id`: the game's state.
pub async fn show(
    State(app): State<Arc<App>>,
    UrlPath(id): UrlPath<String>,
) -> Result<Json<Value>, ApiError> {
    with_game(&app, id, |_| Ok(())).await
}

/// `POST /api/games/:id/move`: `{ "move": "e2e4" }` (long algebraic or SAN).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    #[serde(rename = "move")]
    text: String,
}

/// Plays a move; 422 with `error` and `reason` when the rules refuse it.
pub async fn play_move(
    State(app): State<Arc<App>>,
    UrlPath(id): UrlPath<String>,
    JsonBody(request): JsonBody<MoveRequest>,
) -> Result<Json<Value>, ApiError> {
    with_game(&app, id, move |entry| {
        let text = request.text.trim();
        if text.is_empty() || text.len() > 64 {
            return Err(ApiError::bad_request("a move is 1 to 64 characters"));
        }
        if let Some(result) = entry.game.result() {
            return Err(refusal(
                text,
                format!("the game is over: {}", result.reason),
            ));
        }
        let mv = entry
            .game
            .parse_move(text)
            .map_err(|e| refusal(text, why_refused(&entry.game, text, e)))?;
        let elapsed = entry.elapsed();
        entry
            .game
            .play_timed(&mv, elapsed)
            .map_err(|e| refusal(text, why_refused(&entry.game, text, e)))?;
        entry.turn_started = Instant::now();
        Ok(())
    })
    .await
}

fn refusal(text: &str, reason: String) -> ApiError {
    ApiError::refused(format!("{text}: move refused")).with("reason", reason)
}

impl Entry {
    /// The time the side to move has spent, when the game has clocks.
    fn elapsed(&self) -> Option<u64> {
        self.game
            .clock()
            .map(|_| self.turn_started.elapsed().as_millis() as u64)
    }
}

/// `POST /api/games/:id/action`: `{ "action": "claim" | "offer" |
/// "accept" | "resign" | "takeback" | "time" }`; `plies` for a takeback
/// (1 or 2: a move, or a move and the engine's reply).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ActionRequest {
    action: String,
    #[serde(default)]
    plies: Option<u32>,
}

/// Performs an action; 422 with the game layer's reason when refused.
pub async fn action(
    State(app): State<Arc<App>>,
    UrlPath(id): UrlPath<String>,
    JsonBody(request): JsonBody<ActionRequest>,
) -> Result<Json<Value>, ApiError> {
    with_game(&app, id, move |entry| {
        let refused = |e: varc_runtime::game::GameError| {
            ApiError::refused(format!("{} refused", request.action)).with("reason", e.to_string())
        };
        match request.action.as_str() {
            "claim" => entry.game.claim().map_err(refused)?,
            "offer" => entry.game.offer().map_err(refused)?,
            "accept" => entry.game.accept().map_err(refused)?,
            "resign" => entry.game.resign().map_err(refused)?,
            // The clock of the side to move is checked: a flag that fell ends the game.
            "time" => {
                if let Some(elapsed) = entry.elapsed() {
                    entry.game.wait(elapsed).map_err(refused)?;
                    entry.turn_started = Instant::now();
                }
            }
            "takeback" => {
                let plies = request.plies.unwrap_or(1).clamp(1, 2);
                takeback(&mut entry.game, plies)?;
                entry.engine.clear();
                entry.turn_started = Instant::now();
            }
            other => {
                return Err(ApiError::bad_request(format!(
                    "unknown action {other:?}: claim, offer, accept, resign, takeback or time"
                )))
            }
        }
        Ok(())
    })
    .await
}

/// Takes back `plies` moves (and the actions after them); nothing changes
/// when there is no move to take back.
fn takeback(game: &mut Game<Interpreter>, plies: u32) -> Result<(), ApiError> {
    let moves = game
        .steps()
        .iter()
        .filter(|s| matches!(s.action, Action::Move(_)))
        .count() as u32;
    if moves == 0 {
        return Err(ApiError::refused("takeback refused").with("reason", "nothing to take back"));
    }
    let mut taken = 0;
    while taken < plies.min(moves) {
        match game.undo() {
            Some(Action::Move(_)) => taken += 1,
            Some(_) => {}
            None => break,
        }
    }
    Ok(())
}

/// `POST /api/games/:id/engine`: `{ "depth": N }` or `{ "movetime_ms": N }`
/// (clamped to the server's limits); the engine moves for the side to move.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct EngineRequest {
    #[serde(default)]
    depth: Option<u32>,
    #[serde(default)]
    movetime_ms: Option<u64>,
}

/// The engine acts for the side to move: accepts a draw offer when it is
/// not better, claims when claiming is at least as good, or moves.
pub async fn engine_move(
    State(app): State<Arc<App>>,
    UrlPath(id): UrlPath<String>,
    JsonBody(request): JsonBody<EngineRequest>,
) -> Result<Json<Value>, ApiError> {
    let stop = Arc::new(AtomicBool::new(false));
    let stopper = stop.clone();
    // The search stops itself at its time limit; the flag is a second guard.
    let guard = tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(limits::MAX_ENGINE_MS + 1000)).await;
        stopper.store(true, Ordering::Relaxed);
    });
    let answer = with_game(&app, id, move |entry| {
        if entry.game.result().is_some() {
            return Err(
                ApiError::refused("the engine cannot move").with("reason", "the game is over")
            );
        }
        let mut search_limits = match (request.depth, request.movetime_ms) {
            (Some(depth), _) => {
                let mut l = Limits::depth(depth.clamp(1, limits::MAX_ENGINE_DEPTH));
                l.movetime_ms = Some(limits::MAX_ENGINE_MS);
                l
            }
            (None, Some(ms)) => Limits::movetime(ms.clamp(10, limits::MAX_ENGINE_MS)),
            (None, None) => Limits::movetime(limits::DEFAULT_ENGINE_MS),
        };
        if let Some(clock) = entry.game.clock() {
            let side = entry.game.position().side_to_move();
            let left = clock.remaining_ms(side) / 20 + clock.control().increment_ms / 2;
            let cap = search_limits.movetime_ms.unwrap_or(limits::MAX_ENGINE_MS);
            search_limits.movetime_ms = Some(cap.min(left.max(10)));
        }
        let started = Instant::now();
        let game = entry.game.clone();
        let result = entry
            .engine
            .search(&game, &search_limits, &stop, &mut |_| {});
        let side = entry.game.position().side_to_move();
        if entry.game.pending_offer() == Some(side.opponent())
            && result.value <= 0
            && entry.game.accept().is_ok()
        {
            return Ok(());
        }
        if result.claim.is_some_and(|c| c >= result.value) && entry.game.claim().is_ok() {
            return Ok(());
        }
        let Some(mv) = result.best else {
            return Err(ApiError::refused("the engine has no move"));
        };
        let elapsed = entry
            .game
            .clock()
            .map(|_| started.elapsed().as_millis() as u64);
        entry.game.play_timed(&mv, elapsed).map_err(|e| {
            ApiError::refused("the engine's move was refused").with("reason", e.to_string())
        })?;
        entry.turn_started = Instant::now();
        Ok(())
    })
    .await;
    guard.abort();
    answer
}

/// `GET /api/games/:id/record`: `{ "record": "[Variant ...] 1. e4 ..." }`.
pub async fn record(
    State(app): State<Arc<App>>,
    UrlPath(id): UrlPath<String>,
) -> Result<Json<Value>, ApiError> {
    let shared = app.games.get(&id)?;
    limited(limits::WORK_SECONDS, move || {
        let entry = lock(&shared);
        Ok(Json(json!({
            "record": entry.game.to_record(&[("Event", "varc serve")]),
            "variant": entry.variant_id,
        })))
    })
    .await
}

/// The game's state: the runtime's state object (side to move, FEN,
/// status, result, scores, reason, claims, offer, clocks) with the board,
/// the legal moves in detail, each piece's reach, the steps and the last move.
fn state_of(entry: &Entry) -> Value {
    let game = &entry.game;
    let rules = game.rules();
    let variant = rules.variant();
    let position = game.position();
    let mut state = state_json(game, None);
    let board: Vec<Value> = position
        .pieces()
        .map(|(square, piece)| {
            json!({
                "square": square.to_string(),
                "letter": varc_runtime::fen::piece_text(variant, piece),
                "kind": piece.kind(),
                "color": piece.color().to_string(),
                "promoted": piece.is_promoted(),
            })
        })
        .collect();
    let legal = game.legal_moves();
    let moves: Vec<Value> = legal
        .iter()
        .map(|mv| {
            let promotion = mv
                .promotion
                .and_then(|kind| variant.pieces.get(kind))
                .map(|kind| kind.letter.clone());
            json!({
                "from": mv.from.to_string(),
                "to": mv.to.to_string(),
                "uci": long_algebraic(variant, mv, legal),
                "san": san(rules, position, mv),
                "promotion": promotion,
                "crown": mv.crown.map(|s| s.to_string()),
                "delayed": matches!(mv.kind, MoveKind::DelayedPromotion),
                "castle": mv.is_castle(),
                "drop": mv
                    .dropped()
                    .and_then(|kind| variant.pieces.get(kind))
                    .map(|kind| kind.letter.clone()),
            })
        })
        .collect();
    let steps: Vec<Value> = game
        .steps()
        .iter()
        .map(|s| json!({"by": s.by.to_string(), "text": s.text}))
        .collect();
    let last = game.steps().iter().rev().find_map(|s| match s.action {
        Action::Move(mv) => Some(json!([mv.from.to_string(), mv.to.to_string()])),
        _ => None,
    });
    state["board"] = Value::from(board);
    state["hands"] = hands(variant, position);
    state["legal"] = Value::from(moves);
    state["reach"] = reach(entry);
    state["steps"] = Value::from(steps);
    state["last_move"] = last.unwrap_or(Value::Null);
    state["variant"] = Value::from(entry.variant_id.clone());
    state["checked_royal"] = if rules.in_check(position) {
        let side = position.side_to_move();
        Value::from(
            position
                .pieces()
                .filter(|(_, p)| p.is_royal() && p.color() == side)
                .map(|(s, _)| s.to_string())
                .collect::<Vec<_>>(),
        )
    } else {
        Value::Array(Vec::new())
    };
    state
}

/// The pieces in each side's hand, `{ "white": [{ "letter", "kind",
/// "count" }], "black": [...] }`, in the order of the variant's kinds
/// (empty lists in a variant without hands).
fn hands(variant: &Variant, position: &Position) -> Value {
    let side = |color: Color| -> Vec<Value> {
        if !variant.hands.in_use() {
            return Vec::new();
        }
        variant
            .pieces
            .iter()
            .enumerate()
            .filter_map(|(kind, piece)| {
                let count = position.in_hand(color, kind);
                (count > 0).then(|| {
                    let letter = match color {
                        Color::White => piece.letter.clone(),
                        Color::Black => piece.letter.to_lowercase(),
                    };
                    json!({"letter": letter, "kind": kind, "count": count})
                })
            })
            .collect()
    };
    json!({"white": side(Color::White), "black": side(Color::Black)})
}

/// Where each piece could go: the legal moves for the side to move, the
/// pseudo-legal ones (as if it were to move) for the other side. Drops
/// start from no piece on the board and are left out.
fn reach(entry: &Entry) -> Value {
    let rules = entry.game.rules();
    let position = entry.game.position();
    let mut map: HashMap<String, Vec<String>> = HashMap::new();
    let mut add = |from: Square, to: Square| {
        let targets = map.entry(from.to_string()).or_default();
        let name = to.to_string();
        if !targets.contains(&name) {
            targets.push(name);
        }
    };
    if entry.game.result().is_none() {
        for mv in entry
            .game
            .legal_moves()
            .iter()
            .filter(|mv| mv.dropped().is_none())
        {
            add(mv.from, mv.to);
        }
    }
    let mut other = position.clone();
    let side: Color = position.side_to_move();
    other.set_side_to_move(side.opponent());
    other.set_en_passant(None);
    let mut pseudo = Vec::new();
    rules.generate_pseudo_legal(&other, &mut pseudo);
    for mv in pseudo.iter().filter(|mv| mv.dropped().is_none()) {
        add(mv.from, mv.to);
    }
    serde_json::to_value(map).unwrap_or(Value::Null)
}
