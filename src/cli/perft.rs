//! `varc perft FILE DEPTH [--fen FEN] [--divide] [--json] [--end-rules]`.
//!
//! Counts the leaves of the legal-move tree with the reference interpreter.
//! Perft counts pure move generation: a position with no legal move
//! (checkmate, stalemate, a side whose royal piece was captured under
//! capture-the-king rules) is a leaf; repetition, move-count rules and
//! special wins are not applied. History rules (IRC) are, as the game sees
//! them from a root with no moves before it (the game driver's
//! `divide_with_history`); without history rules it is plain perft.
//! With `--end-rules`, a position where the game has ended by the
//! variant's rules has no moves (`perft::divide_with_end_rules`).

use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;
use varc_runtime::fen::parse_fen;
use varc_runtime::game::divide_with_history;
use varc_runtime::notation::long_algebraic;
use varc_runtime::perft::divide_with_end_rules;
use varc_runtime::position::Position;
use varc_runtime::rules::Rules;

/// Arguments of `varc perft`.
#[derive(clap::Args)]
pub struct PerftArgs {
    /// The rules file.
    pub file: PathBuf,
    /// Plies to search.
    pub depth: u32,
    /// Start from this position instead of the variant's start position.
    #[arg(long)]
    pub fen: Option<String>,
    /// Also print the count below each legal move of the root.
    #[arg(long)]
    pub divide: bool,
    /// Print one JSON object: nodes, nps, depth, seconds, fen (and divide).
    #[arg(long)]
    pub json: bool,
    /// The move generator: `interp` (the reference interpreter) or
    /// `compiled` (the variant's generated engine, built when needed).
    #[arg(long, default_value = "interp")]
    pub backend: String,
    /// A position where the game has ended by the variant's rules (its
    /// automatic `end` rules and awards, as the game driver applies them
    /// after a move) has no moves, as in Fairy-Stockfish's Python binding.
    #[arg(long)]
    pub end_rules: bool,
}

/// Runs perft and prints the node count (exit 1 on a bad file, FEN or backend).
pub fn run(args: PerftArgs) -> ExitCode {
    if args.backend == "compiled" {
        return super::build::run_compiled_perft(&args);
    }
    if args.backend != "interp" {
        eprintln!(
            "error: backend {:?} is not available; use --backend interp or compiled",
            args.backend
        );
        return ExitCode::FAILURE;
    }
    let Some(rules) = super::load_interpreter(&args.file) else {
        return ExitCode::FAILURE;
    };
    let variant = rules.variant();
    let fen = args
        .fen
        .clone()
        .unwrap_or_else(|| variant.start_fen.clone());
    let position = match parse_fen(variant, &fen) {
        Ok(position) => position,
        Err(error) => {
            eprintln!("error: invalid FEN: {error}");
            return ExitCode::FAILURE;
        }
    };
    let legal = rules.legal_moves(&position);
    let bar = (std::io::stderr().is_terminal() && args.depth >= 5).then(|| {
        let bar = ProgressBar::new(legal.len() as u64);
        if let Ok(style) =
            ProgressStyle::with_template("perft {pos}/{len} root moves {wide_bar} {elapsed}")
        {
            bar.set_style(style);
        }
        bar
    });
    let started = Instant::now();
    let (nodes, divide) = if args.depth == 0 {
        (1, Vec::new())
    } else {
        let progress = |done: usize, _| {
            if let Some(bar) = &bar {
                bar.set_position(done as u64);
            }
        };
        // History rules (IRC) apply from a root with no history before it.
        let no_history: [Position; 0] = [];
        let divide = if args.end_rules {
            divide_with_end_rules(&rules, &position, args.depth, progress)
        } else {
            divide_with_history(&rules, &no_history, &position, args.depth, progress)
        };
        (divide.iter().map(|(_, n)| n).sum(), divide)
    };
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let seconds = started.elapsed().as_secs_f64();
    let nps = if seconds > 0.0 {
        (nodes as f64 / seconds) as u64
    } else {
        0
    };
    let divide: Vec<(String, u64)> = divide
        .iter()
        .map(|(mv, n)| (long_algebraic(variant, mv, &legal), *n))
        .collect();
    if args.json {
        let mut object = serde_json::json!({
            "nodes": nodes,
            "nps": nps,
            "depth": args.depth,
            "seconds": seconds,
            "fen": fen,
        });
        if args.divide {
            let map: serde_json::Map<String, serde_json::Value> = divide
                .iter()
                .map(|(m, n)| (m.clone(), serde_json::Value::from(*n)))
                .collect();
            object["divide"] = serde_json::Value::Object(map);
        }
        println!("{object}");
    } else {
        if args.divide {
            for (mv, n) in &divide {
                println!("{mv}: {n}");
            }
            println!();
        }
        println!("{nodes}");
        if std::io::stderr().is_terminal() {
            eprintln!("{nodes} nodes in {seconds:.3} s ({nps} nodes/s)");
        }
    }
    ExitCode::SUCCESS
}
