//! `varc replay FILE --moves "e2e4 e7e5 ..." [--fen FEN] [--time-control T] [--json]`.
//!
//! Plays the moves with every rule on, through the runtime's game driver
//! (history rules, repetitions, move counts, awards, claims, offers, clocks),
//! from the start position (or `--fen`), and prints the state reached: side
//! to move, FEN, status (`ongoing` / `ended`), result, scores and reason,
//! the claims the side to move could make, counters, awards and the legal
//! moves.
//!
//! The list holds moves (long algebraic or SAN; move numbers such as `1.`
//! or `12...` are skipped) and actions of the side to move: `claim`,
//! `offer`, `accept`, `resign`. With `--time-control` (`300+5`), `MOVE@S`
//! is a move that took S seconds and `wait@S` lets S seconds pass.
//!
//! The first refused step stops the replay: the state before it is printed
//! with `error` and `reason`, and the exit code is 2.

use std::path::PathBuf;
use std::process::ExitCode;
use varc::interp::Interpreter;
use varc_runtime::fen::write_fen;
use varc_runtime::game::{Game, GameError, Status, TimeControl};
use varc_runtime::model::Color;
use varc_runtime::notation::long_algebraic;
use varc_runtime::rules::Rules;

/// Arguments of `varc replay`.
#[derive(clap::Args)]
pub struct ReplayArgs {
    /// The rules file.
    pub file: PathBuf,
    /// The moves and actions (claim, offer, accept, resign), separated by spaces.
    #[arg(long, default_value = "")]
    pub moves: String,
    /// Start from this position instead of the variant's start position.
    #[arg(long)]
    pub fen: Option<String>,
    /// Play with clocks: BASE+INCREMENT in seconds (`300+5`).
    #[arg(long)]
    pub time_control: Option<String>,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// A refused step or FEN.
struct Refusal {
    error: String,
    reason: String,
}

/// Replays the moves; exit 0, or 2 for a refused step or FEN, 1 for a bad file.
pub fn run(args: ReplayArgs) -> ExitCode {
    let Some(rules) = super::load_interpreter(&args.file) else {
        return ExitCode::FAILURE;
    };
    let fen = args
        .fen
        .clone()
        .unwrap_or_else(|| rules.variant().start_fen.clone());
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
            return report_refusal(&args, None, &refusal);
        }
    };
    if let Some(text) = &args.time_control {
        match text.parse::<TimeControl>() {
            Ok(control) => game = game.with_time_control(control),
            Err(error) => {
                let refusal = Refusal {
                    error: format!("invalid time control {text:?}"),
                    reason: error.to_string(),
                };
                return report_refusal(&args, None, &refusal);
            }
        }
    }
    for text in args.moves.split_whitespace() {
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
            return report_refusal(&args, Some(&game), &refusal);
        }
    }
    print_state(&args, &game, None);
    ExitCode::SUCCESS
}

/// Plays one step of the list.
fn step(game: &mut Game<Interpreter>, text: &str) -> Result<(), GameError> {
    let (word, seconds) = match text.split_once('@') {
        Some((word, seconds)) => (word, Some(seconds)),
        None => (text, None),
    };
    let elapsed_ms = match seconds {
        Some(seconds) => Some(
            varc_runtime::game::clock::parse_seconds(seconds).ok_or_else(|| {
                GameError::UnknownAction {
                    text: text.to_string(),
                }
            })?,
        ),
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

fn report_refusal(
    args: &ReplayArgs,
    game: Option<&Game<Interpreter>>,
    refusal: &Refusal,
) -> ExitCode {
    match game {
        Some(game) => print_state(args, game, Some(refusal)),
        None if args.json => {
            println!(
                "{}",
                serde_json::json!({"error": refusal.error, "reason": refusal.reason})
            );
        }
        None => {}
    }
    if !args.json {
        eprintln!("error: {}: {}", refusal.error, refusal.reason);
    }
    ExitCode::from(2)
}

fn print_state(args: &ReplayArgs, game: &Game<Interpreter>, refusal: Option<&Refusal>) {
    let rules = game.rules();
    let variant = rules.variant();
    let position = game.position();
    let legal = game.legal_moves();
    let legal_text: Vec<String> = legal
        .iter()
        .map(|mv| long_algebraic(variant, mv, legal))
        .collect();
    let played: Vec<String> = game.steps().iter().map(|s| s.text.clone()).collect();
    let fen = write_fen(variant, position);
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
    if args.json {
        let mut object = serde_json::json!({
            "variant": variant.id,
            "side_to_move": position.side_to_move().to_string(),
            "fen": fen,
            "status": if result.is_some() { "ended" } else { "ongoing" },
            "in_check": rules.in_check(position),
            "moves": played,
            "legal_moves": legal_text,
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
        println!("{object}");
    } else {
        println!("side to move: {}", position.side_to_move());
        println!("fen: {fen}");
        match &result {
            Some(result) => println!(
                "status: ended: {} ({}), scores {}",
                result.kind,
                result.reason,
                result.score_text()
            ),
            None => println!("status: ongoing"),
        }
        if !played.is_empty() {
            println!("moves: {}", played.join(" "));
        }
        for claim in game.claimable() {
            println!("may claim: {} ({})", claim.reason, claim.result.kind);
        }
        if let Some(color) = game.pending_offer() {
            println!("draw offered by {color}");
        }
        for award in game.awards() {
            println!(
                "award: {} to {} ({} win(s))",
                award.name, award.player, award.wins
            );
        }
        println!(
            "legal moves ({}): {}",
            legal_text.len(),
            legal_text.join(" ")
        );
    }
}
