//! `varc replay FILE --moves "e2e4 e7e5 ..." [--fen FEN] [--time-control T] [--json]`.
//!
//! Plays the moves with every rule on, through the runtime's game driver
//! (history rules, repetitions, move counts, awards, claims, offers, clocks),
//! from the start position (or `--fen`), and prints the state reached: side
//! to move, FEN, status (`ongoing` / `ended`), result, scores and reason,
//! the claims the side to move could make, counters, awards and the legal
//! moves (the runtime's [`varc_runtime::game::replay`]).
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

/// Replays the moves; exit 0, or 2 for a refused step or FEN, 1 for a bad file.
pub fn run(args: ReplayArgs) -> ExitCode {
    let Some(rules) = super::load_interpreter(&args.file) else {
        return ExitCode::FAILURE;
    };
    let replay = varc_runtime::game::replay::replay(
        rules,
        args.fen.as_deref(),
        args.time_control.as_deref(),
        &args.moves,
    );
    ExitCode::from(replay.print(args.json))
}
