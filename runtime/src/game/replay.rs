//! Replaying a list of moves and actions through the game driver, and the
//! state it reaches in words or as one JSON object: what `varc replay` and
//! a generated engine's `replay` print, for any [`Rules`] back end.
//!
//! The list holds moves (long algebraic or SAN; move numbers such as `1.`
//! or `12...` are skipped) and actions of the side to move: `claim`,
//! `offer`, `accept`, `resign`. With a time control (`300+5`), `MOVE@S` is
//! a move that took S seconds and `wait@S` lets S seconds pass.
//!
//! The first refused step stops the replay: the state before it is printed
//! with `error` and `reason`.

use super::state::GameState;
pub use super::state::Refusal;
use super::{clock, Game, GameError, TimeControl};
use crate::rules::Rules;

/// Where a replay stopped.
pub struct Replay<R: Rules> {
    /// The game, unless the FEN or the time control was refused.
    pub game: Option<Game<R>>,
    /// The refused step, if one was.
    pub refusal: Option<Refusal>,
}

/// Replays `moves` from `fen` (the start position if `None`), with clocks
/// if `time_control` is given.
pub fn replay<R: Rules>(
    rules: R,
    fen: Option<&str>,
    time_control: Option<&str>,
    moves: &str,
) -> Replay<R> {
    let refused = |game, refusal| Replay {
        game,
        refusal: Some(refusal),
    };
    let fen = fen.map_or_else(|| rules.variant().start_fen.clone(), str::to_string);
    let mut game = match Game::from_fen(rules, &fen) {
        Ok(game) => game,
        Err(error) => {
            let refusal = Refusal {
                error: format!("invalid FEN {fen:?}"),
                reason: match error {
                    GameError::Fen(error) => error.to_string(),
                    other => other.to_string(),
                },
            };
            return refused(None, refusal);
        }
    };
    if let Some(text) = time_control {
        match text.parse::<TimeControl>() {
            Ok(control) => game = game.with_time_control(control),
            Err(error) => {
                let refusal = Refusal {
                    error: format!("invalid time control {text:?}"),
                    reason: error.to_string(),
                };
                return refused(None, refusal);
            }
        }
    }
    for text in moves.split_whitespace() {
        if is_move_number(text) {
            continue;
        }
        if let Err(error) = step(&mut game, text) {
            let what = match text {
                "claim" | "offer" | "accept" | "resign" => format!("refused {text}"),
                _ => format!("illegal move {text}"),
            };
            let refusal = Refusal {
                error: what,
                reason: error.to_string(),
            };
            return refused(Some(game), refusal);
        }
    }
    Replay {
        game: Some(game),
        refusal: None,
    }
}

impl<R: Rules> Replay<R> {
    /// Prints the state reached on standard output (one JSON object with
    /// `json`), and a refusal on standard error unless `json`. Returns the
    /// exit code: 0, or 2 for a refusal.
    pub fn print(&self, json: bool) -> u8 {
        let state = self.game.as_ref().map(GameState::of);
        GameState::print(state.as_ref(), self.refusal.as_ref(), json)
    }
}

/// Plays one step of the list: a move, `MOVE@S`, `wait@S` or an action.
fn step<R: Rules>(game: &mut Game<R>, text: &str) -> Result<(), GameError> {
    // The time follows the last `@`; a drop's own `@` (`P@e4`, `P@e4@2.5`)
    // is followed by a square, never a number.
    let (word, seconds) = match text.rsplit_once('@') {
        Some((word, seconds)) if !word.is_empty() && !is_drop_square(seconds) => {
            (word, Some(seconds))
        }
        _ => (text, None),
    };
    let elapsed_ms = match seconds {
        Some(seconds) => {
            Some(
                clock::parse_seconds(seconds).ok_or_else(|| GameError::UnknownAction {
                    text: text.to_string(),
                })?,
            )
        }
        None => None,
    };
    match (word, elapsed_ms) {
        ("wait", Some(ms)) => game.wait(ms),
        (_, Some(ms)) => {
            let mv = game.parse_move(word)?;
            game.play_timed(&mv, Some(ms))
        }
        (_, None) => game.act(word),
    }
}

/// Whether `text` after an `@` is a drop's square (a file letter first),
/// not a time.
fn is_drop_square(text: &str) -> bool {
    text.starts_with(|c: char| c.is_ascii_lowercase())
}

fn is_move_number(text: &str) -> bool {
    let digits = text.trim_end_matches('.');
    digits.len() < text.len() && !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// The state as one JSON object, with the refusal that stopped the replay.
pub fn state_json<R: Rules>(game: &Game<R>, refusal: Option<&Refusal>) -> serde_json::Value {
    GameState::of(game).json(refusal)
}

/// The state in words, a line each: side to move, FEN, status, moves,
/// claims, offer, awards, legal moves.
pub fn state_text<R: Rules>(game: &Game<R>) -> String {
    GameState::of(game).text()
}
