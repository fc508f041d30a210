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

use super::{clock, Game, GameError, Status, TimeControl};
use crate::board::Board;
use crate::fen::write_fen_for_clients;
use crate::model::Color;
use crate::notation::{describe_all, long_algebraic};
use crate::rules::Rules;
use std::fmt::Write as _;

/// A refused step, FEN or time control.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// What was refused (`illegal move e2e5`, `invalid FEN "..."`).
    pub error: String,
    /// Why.
    pub reason: String,
}

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
        match (&self.game, &self.refusal) {
            (Some(game), refusal) if json => println!("{}", state_json(game, refusal.as_ref())),
            (Some(game), _) => print!("{}", state_text(game)),
            (None, Some(refusal)) if json => println!(
                "{}",
                serde_json::json!({"error": refusal.error, "reason": refusal.reason})
            ),
            (None, _) => {}
        }
        match &self.refusal {
            Some(refusal) => {
                if !json {
                    eprintln!("error: {}: {}", refusal.error, refusal.reason);
                }
                2
            }
            None => 0,
        }
    }
}

/// Plays one step of the list: a move, `MOVE@S`, `wait@S` or an action.
fn step<R: Rules>(game: &mut Game<R>, text: &str) -> Result<(), GameError> {
    let (word, seconds) = match text.split_once('@') {
        Some((word, seconds)) => (word, Some(seconds)),
        None => (text, None),
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

fn is_move_number(text: &str) -> bool {
    let digits = text.trim_end_matches('.');
    digits.len() < text.len() && !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// The legal moves in long algebraic notation.
fn legal_text<R: Rules>(game: &Game<R>) -> Vec<String> {
    let legal = describe_all(game.rules(), game.legal_moves());
    legal
        .iter()
        .map(|mv| long_algebraic(game.rules().variant(), mv, &legal))
        .collect()
}

/// The moves and actions played, as written.
fn played<R: Rules>(game: &Game<R>) -> Vec<String> {
    game.steps().iter().map(|s| s.text.clone()).collect()
}

/// The state as one JSON object, with the refusal that stopped the replay.
pub fn state_json<R: Rules>(game: &Game<R>, refusal: Option<&Refusal>) -> serde_json::Value {
    let rules = game.rules();
    let variant = rules.variant();
    let position = game.position();
    let result = match game.status() {
        Status::Ongoing => None,
        Status::Ended(result) => Some(result),
    };
    let claims: Vec<serde_json::Value> = game
        .claimable()
        .into_iter()
        .map(|c| serde_json::json!({"reason": c.reason, "result": c.result.kind.to_string()}))
        .collect();
    let counters: serde_json::Map<String, serde_json::Value> = variant
        .counters
        .iter()
        .enumerate()
        .map(|(id, counter)| {
            let of = |color: Color| game.counters(color).get(id).copied().unwrap_or(0);
            (
                counter.name.clone(),
                serde_json::json!({"white": of(Color::White), "black": of(Color::Black)}),
            )
        })
        .collect();
    let awards: Vec<serde_json::Value> = game
        .awards()
        .iter()
        .map(|a| serde_json::json!({"name": a.name, "player": a.player.to_string(), "wins": a.wins, "ply": a.ply}))
        .collect();
    let mut object = serde_json::json!({
        "variant": variant.id,
        "side_to_move": position.side_to_move().to_string(),
        "fen": write_fen_for_clients(rules, position),
        "status": if result.is_some() { "ended" } else { "ongoing" },
        "in_check": rules.in_check(position),
        "moves": played(game),
        "legal_moves": legal_text(game),
        "claims": claims,
        "pending_offer": game.pending_offer().map(|c| c.to_string()),
        "counters": counters,
        "awards": awards,
        "plies_since_reset": game.plies_since_reset(),
        "repetitions": game.repetitions().total,
    });
    if let Some(result) = &result {
        object["result"] = serde_json::Value::from(result.kind.to_string());
        object["reason"] = serde_json::Value::from(result.reason.clone());
        object["scores"] =
            serde_json::json!({"white": result.scores[0], "black": result.scores[1]});
        object["score_text"] = serde_json::Value::from(result.score_text());
    }
    if let Some(clock) = game.clock() {
        object["clock_ms"] = serde_json::json!({
            "white": clock.remaining_ms(Color::White),
            "black": clock.remaining_ms(Color::Black),
        });
    }
    if let Some(refusal) = refusal {
        object["error"] = serde_json::Value::from(refusal.error.clone());
        object["reason"] = serde_json::Value::from(refusal.reason.clone());
    }
    object
}

/// The state in words, a line each: side to move, FEN, status, moves,
/// claims, offer, awards, legal moves.
pub fn state_text<R: Rules>(game: &Game<R>) -> String {
    let position = game.position();
    let mut text = String::new();
    // Writing to a String cannot fail.
    let mut line = |args: std::fmt::Arguments<'_>| {
        let _ = writeln!(text, "{args}");
    };
    line(format_args!("side to move: {}", position.side_to_move()));
    line(format_args!(
        "fen: {}",
        write_fen_for_clients(game.rules(), position)
    ));
    match game.status() {
        Status::Ended(result) => line(format_args!(
            "status: ended: {} ({}), scores {}",
            result.kind,
            result.reason,
            result.score_text()
        )),
        Status::Ongoing => line(format_args!("status: ongoing")),
    }
    let played = played(game);
    if !played.is_empty() {
        line(format_args!("moves: {}", played.join(" ")));
    }
    for claim in game.claimable() {
        line(format_args!(
            "may claim: {} ({})",
            claim.reason, claim.result.kind
        ));
    }
    if let Some(color) = game.pending_offer() {
        line(format_args!("draw offered by {color}"));
    }
    for award in game.awards() {
        line(format_args!(
            "award: {} to {} ({} win(s))",
            award.name, award.player, award.wins
        ));
    }
    let legal = legal_text(game);
    line(format_args!(
        "legal moves ({}): {}",
        legal.len(),
        legal.join(" ")
    ));
    text
}
