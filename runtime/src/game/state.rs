//! The state a game has reached, with the back end's types gone: what
//! `replay` prints (in words or as one JSON object) and the web
//! playground sends.
//!
//! [`GameState::of`] is the only generic part: it reads a [`Game`] once.
//! The writing is compiled once, here, not once per generated engine (a
//! generated engine's binary monomorphises everything generic it reaches).

use super::{AwardedWin, Claimable, Game, GameResult, Status};
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

impl Refusal {
    /// The refusal alone as one JSON object (`error`, `reason`).
    pub fn json(&self) -> serde_json::Value {
        serde_json::json!({"error": self.error, "reason": self.reason})
    }
}

/// What a game has reached, as text and numbers.
#[derive(Clone, Debug, PartialEq)]
pub struct GameState {
    /// The variant's id.
    pub variant_id: String,
    /// The side to move.
    pub side_to_move: Color,
    /// The position's FEN (as written for clients).
    pub fen: String,
    /// The result, once the game has ended.
    pub result: Option<GameResult>,
    /// Whether a royal piece of the side to move is attacked.
    pub in_check: bool,
    /// The moves and actions played, as written.
    pub moves: Vec<String>,
    /// The legal moves in long algebraic notation.
    pub legal_moves: Vec<String>,
    /// The claims open to the side to move.
    pub claims: Vec<Claimable>,
    /// The side whose draw offer stands.
    pub pending_offer: Option<Color>,
    /// Each counter's name and its values, White first.
    pub counters: Vec<(String, [u32; 2])>,
    /// The wins awarded so far.
    pub awards: Vec<AwardedWin>,
    /// Plies since the last reset event.
    pub plies_since_reset: u32,
    /// Occurrences of the current position in the whole game.
    pub repetitions: u32,
    /// The clocks' remaining time, White first, when the game is timed.
    pub clock_ms: Option<[u64; 2]>,
}

impl GameState {
    /// The state `game` has reached.
    pub fn of<R: Rules>(game: &Game<R>) -> GameState {
        let rules = game.rules();
        let variant = rules.variant();
        let position = game.position();
        let legal = describe_all(rules, game.legal_moves());
        let counters = variant
            .counters
            .iter()
            .enumerate()
            .map(|(id, counter)| {
                let of = |color: Color| game.counters(color).get(id).copied().unwrap_or(0);
                (counter.name.clone(), [of(Color::White), of(Color::Black)])
            })
            .collect();
        GameState {
            variant_id: variant.id.clone(),
            side_to_move: crate::board::Board::side_to_move(position),
            fen: write_fen_for_clients(rules, position),
            result: match game.status() {
                Status::Ongoing => None,
                Status::Ended(result) => Some(result),
            },
            in_check: rules.in_check(position),
            moves: game.steps().iter().map(|s| s.text.clone()).collect(),
            legal_moves: legal
                .iter()
                .map(|mv| long_algebraic(variant, mv, &legal))
                .collect(),
            claims: game.claimable(),
            pending_offer: game.pending_offer(),
            counters,
            awards: game.awards().to_vec(),
            plies_since_reset: game.plies_since_reset(),
            repetitions: game.repetitions().total,
            clock_ms: game.clock().map(|clock| {
                [
                    clock.remaining_ms(Color::White),
                    clock.remaining_ms(Color::Black),
                ]
            }),
        }
    }

    /// The state as one JSON object, with the refusal that stopped a replay.
    pub fn json(&self, refusal: Option<&Refusal>) -> serde_json::Value {
        let claims: Vec<serde_json::Value> = self
            .claims
            .iter()
            .map(|c| serde_json::json!({"reason": c.reason, "result": c.result.kind.to_string()}))
            .collect();
        let counters: serde_json::Map<String, serde_json::Value> = self
            .counters
            .iter()
            .map(|(name, [white, black])| {
                (
                    name.clone(),
                    serde_json::json!({"white": white, "black": black}),
                )
            })
            .collect();
        let awards: Vec<serde_json::Value> = self
            .awards
            .iter()
            .map(|a| serde_json::json!({"name": a.name, "player": a.player.to_string(), "wins": a.wins, "ply": a.ply}))
            .collect();
        let mut object = serde_json::json!({
            "variant": self.variant_id,
            "side_to_move": self.side_to_move.to_string(),
            "fen": self.fen,
            "status": if self.result.is_some() { "ended" } else { "ongoing" },
            "in_check": self.in_check,
            "moves": self.moves,
            "legal_moves": self.legal_moves,
            "claims": claims,
            "pending_offer": self.pending_offer.map(|c| c.to_string()),
            "counters": counters,
            "awards": awards,
            "plies_since_reset": self.plies_since_reset,
            "repetitions": self.repetitions,
        });
        if let Some(result) = &self.result {
            object["result"] = serde_json::Value::from(result.kind.to_string());
            object["reason"] = serde_json::Value::from(result.reason.clone());
            object["scores"] =
                serde_json::json!({"white": result.scores[0], "black": result.scores[1]});
            object["score_text"] = serde_json::Value::from(result.score_text());
        }
        if let Some([white, black]) = self.clock_ms {
            object["clock_ms"] = serde_json::json!({"white": white, "black": black});
        }
        if let Some(refusal) = refusal {
            object["error"] = serde_json::Value::from(refusal.error.clone());
            object["reason"] = serde_json::Value::from(refusal.reason.clone());
        }
        object
    }

    /// The state in words, a line each: side to move, FEN, status, moves,
    /// claims, offer, awards, legal moves.
    pub fn text(&self) -> String {
        let mut text = String::new();
        // Writing to a String cannot fail.
        let mut line = |args: std::fmt::Arguments<'_>| {
            let _ = writeln!(text, "{args}");
        };
        line(format_args!("side to move: {}", self.side_to_move));
        line(format_args!("fen: {}", self.fen));
        match &self.result {
            Some(result) => line(format_args!(
                "status: ended: {} ({}), scores {}",
                result.kind,
                result.reason,
                result.score_text()
            )),
            None => line(format_args!("status: ongoing")),
        }
        if !self.moves.is_empty() {
            line(format_args!("moves: {}", self.moves.join(" ")));
        }
        for claim in &self.claims {
            line(format_args!(
                "may claim: {} ({})",
                claim.reason, claim.result.kind
            ));
        }
        if let Some(color) = self.pending_offer {
            line(format_args!("draw offered by {color}"));
        }
        for award in &self.awards {
            line(format_args!(
                "award: {} to {} ({} win(s))",
                award.name, award.player, award.wins
            ));
        }
        line(format_args!(
            "legal moves ({}): {}",
            self.legal_moves.len(),
            self.legal_moves.join(" ")
        ));
        text
    }

    /// Prints the state reached on standard output (one JSON object with
    /// `json`), and `refusal` on standard error unless `json`. Returns the
    /// exit code: 0, or 2 for a refusal. `None` for the state: the FEN or
    /// the time control was refused, so there is no game.
    pub fn print(state: Option<&GameState>, refusal: Option<&Refusal>, json: bool) -> u8 {
        match (state, refusal) {
            (Some(state), refusal) if json => println!("{}", state.json(refusal)),
            (Some(state), _) => print!("{}", state.text()),
            (None, Some(refusal)) if json => println!("{}", refusal.json()),
            (None, _) => {}
        }
        match refusal {
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
