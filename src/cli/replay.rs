//! `varc replay FILE --moves "e2e4 e7e5 ..." [--fen FEN] [--json]`.
//!
//! Plays the moves with full legality from the start position (or `--fen`)
//! and prints the state reached: side to move, FEN, status and the legal
//! moves. Moves may be long algebraic or SAN; move numbers (`1.`, `12...`)
//! are skipped. The first refused move stops the replay: the state before it
//! is printed with the error and its reason, and the exit code is 2.
//!
//! Game-ending rules other than "no legal move" (repetition, move counts,
//! special wins) and claims belong to the game layer; here the status is
//! `ended` only when the side to move has no legal move.

use std::path::PathBuf;
use std::process::ExitCode;
use varc::interp::Interpreter;
use varc_runtime::fen::{parse_fen, write_fen};
use varc_runtime::notation::{long_algebraic, parse_move, san};
use varc_runtime::position::Position;
use varc_runtime::rules::Rules;

/// Arguments of `varc replay`.
#[derive(clap::Args)]
pub struct ReplayArgs {
    /// The rules file.
    pub file: PathBuf,
    /// The moves, separated by spaces.
    #[arg(long, default_value = "")]
    pub moves: String,
    /// Start from this position instead of the variant's start position.
    #[arg(long)]
    pub fen: Option<String>,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// A refused move or FEN.
struct Refusal {
    error: String,
    reason: String,
}

/// Replays the moves; exit 0, or 2 for a refused move or FEN, 1 for a bad file.
pub fn run(args: ReplayArgs) -> ExitCode {
    let Some(variant) = super::load_or_report(&args.file) else {
        return ExitCode::FAILURE;
    };
    let rules = match Interpreter::new(variant) {
        Ok(rules) => rules,
        Err(error) => {
            eprintln!("error: {error}");
            return ExitCode::FAILURE;
        }
    };
    let variant = rules.variant();
    let fen = args
        .fen
        .clone()
        .unwrap_or_else(|| variant.start_fen.clone());
    let mut position = match parse_fen(variant, &fen) {
        Ok(position) => position,
        Err(error) => {
            let refusal = Refusal {
                error: format!("invalid FEN {fen:?}"),
                reason: error.to_string(),
            };
            return report_refusal(&args, None, &[], &refusal);
        }
    };
    let mut played = Vec::new();
    for text in args.moves.split_whitespace() {
        if is_move_number(text) {
            continue;
        }
        match parse_move(&rules, &position, text) {
            Ok(mv) => {
                played.push(san(&rules, &position, &mv));
                position = rules.play(&position, &mv);
            }
            Err(error) => {
                let refusal = Refusal {
                    error: format!("illegal move {text}"),
                    reason: error.to_string(),
                };
                return report_refusal(&args, Some((&rules, &position)), &played, &refusal);
            }
        }
    }
    print_state(&args, &rules, &position, &played, None);
    ExitCode::SUCCESS
}

fn is_move_number(text: &str) -> bool {
    let digits = text.trim_end_matches('.');
    digits.len() < text.len() && !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

fn report_refusal(
    args: &ReplayArgs,
    state: Option<(&Interpreter, &Position)>,
    played: &[String],
    refusal: &Refusal,
) -> ExitCode {
    match state {
        Some((rules, position)) => print_state(args, rules, position, played, Some(refusal)),
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

fn print_state(
    args: &ReplayArgs,
    rules: &Interpreter,
    position: &Position,
    played: &[String],
    refusal: Option<&Refusal>,
) {
    let variant = rules.variant();
    let legal = rules.legal_moves(position);
    let legal_text: Vec<String> = legal
        .iter()
        .map(|mv| long_algebraic(variant, mv, &legal))
        .collect();
    let fen = write_fen(variant, position);
    let (status, reason) = if legal.is_empty() {
        ("ended", Some("no legal moves"))
    } else {
        ("ongoing", None)
    };
    if args.json {
        let mut object = serde_json::json!({
            "variant": variant.id,
            "side_to_move": position.side_to_move().to_string(),
            "fen": fen,
            "status": status,
            "in_check": rules.in_check(position),
            "moves": played,
            "legal_moves": legal_text,
        });
        if let Some(reason) = reason {
            object["reason"] = serde_json::Value::from(reason);
        }
        if let Some(refusal) = refusal {
            object["error"] = serde_json::Value::from(refusal.error.clone());
            object["reason"] = serde_json::Value::from(refusal.reason.clone());
        }
        println!("{object}");
    } else {
        println!("side to move: {}", position.side_to_move());
        println!("fen: {fen}");
        match reason {
            Some(reason) => println!("status: {status} ({reason})"),
            None => println!("status: {status}"),
        }
        if !played.is_empty() {
            println!("moves: {}", played.join(" "));
        }
        println!(
            "legal moves ({}): {}",
            legal_text.len(),
            legal_text.join(" ")
        );
    }
}
