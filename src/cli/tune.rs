//! `varc tune FILE [--games N] [--depth D] [--seed S] [--opening-plies P]
//! [--max-plies M] [--threads T] [--weights W] [--records FILE... | --positions FILE...]
//! [--mobility] [--squares] [--network UNITS [--network-only]] [--out FILE]
//! [--json]`: plays the engine against itself (or reads recorded games, or
//! labelled positions), fits the evaluation's weights and piece values (and
//! on request mobility and square tables and a learned correction) to the
//! results (see
//! [`varc::tune`]) and writes them as a weights file, which
//! `varc build --weights`, `varc uci --weights` and `varc xboard --weights`
//! read.

use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use varc::interp::Interpreter;
use varc::selfplay::Settings;
use varc::tune::{
    collect_samples, fit, fit_mobility, fit_network, fit_squares, labelled_fens, record_samples,
    unfitted, NetworkSettings, Samples,
};
use varc_runtime::model::Variant;
use varc_runtime::position::Position;
use varc_runtime::rules::Rules;
use varc_runtime::weights::{WeightsFile, WEIGHT_NAMES};

/// The first line of every weights file `varc tune` writes: a file that
/// does not start with it is not overwritten.
const HEADER: &str = "# varc tune";

/// Arguments of `varc tune`.
#[derive(clap::Args)]
pub struct TuneArgs {
    /// The rules file.
    pub file: PathBuf,
    /// Self-play games to learn from (every tenth is kept for validation).
    #[arg(long, default_value_t = 200)]
    pub games: u32,
    /// Search depth per move in the games.
    #[arg(long, default_value_t = 2)]
    pub depth: u32,
    /// Seed of the random openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Random plies at the start of each game (their positions are not
    /// used).
    #[arg(long, default_value_t = 8)]
    pub opening_plies: u32,
    /// Plies after which a game is stopped (and not used).
    #[arg(long, default_value_t = 300)]
    pub max_plies: u32,
    /// Threads playing games (default: one per processor).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Start from this weights file instead of the defaults.
    #[arg(long)]
    pub weights: Option<PathBuf>,
    /// Where to write the weights (default: VARIANT.weights here).
    #[arg(short, long)]
    pub out: Option<PathBuf>,
    /// Learn from these recorded games instead of playing (files of one
    /// or more records, such as `match --pgn` or `varc selfplay --out`
    /// write, or standard PGN for chess); `--opening-plies` plies of each
    /// are left out.
    #[arg(long, num_args = 1.., value_name = "FILE")]
    pub records: Vec<PathBuf>,
    /// Learn from these labelled positions instead of games: one a line,
    /// `FEN [LABEL]` or `FEN c9 "LABEL";`, the label White's expected
    /// score (1-0, 0-1, 1/2-1/2 or a number from 0 to 1), such as
    /// `bench/label_positions.py` writes from another engine's scores.
    #[arg(long, num_args = 1.., value_name = "FILE", conflicts_with = "records")]
    pub positions: Vec<PathBuf>,
    /// Fit a bonus per kind, square and phase too (square tables), and,
    /// where the variant has pawn-shaped kinds, the royal kinds' cover
    /// tables (`cover` and `storm`) and the passed tables, after the scalar
    /// weights. They need sharp labels: tens of thousands of
    /// positions labelled by a strong engine (`--positions`); fitted to game
    /// results, a lower validation loss need not mean stronger play (see
    /// the README's tuning section).
    #[arg(long)]
    pub squares: bool,
    /// Scalar weights to keep as they are (not fitted), by name: `tempo`,
    /// say, when the labels are search scores, which credit the side to
    /// move with what it can win at once, so that a fitted tempo counts
    /// twice what the search finds (see the README's tuning section).
    #[arg(long, num_args = 1.., value_name = "WEIGHT")]
    pub fixed: Vec<String>,
    /// Fit mobility tables too: for every non-royal kind, a middlegame and
    /// an endgame value per count of squares reached, in place of the
    /// linear mobility term, after the scalar weights (and before the
    /// square tables with `--squares`). Like square tables, they want
    /// sharp labels (`--positions`).
    #[arg(long)]
    pub mobility: bool,
    /// Fit a learned correction too, last: a network of this many hidden
    /// units (1 to 128) over the pieces on the board, added to the
    /// evaluation and fitted to what it misses. It wants many sharp
    /// labels (`--positions`: a hundred thousand or more).
    #[arg(long, value_name = "UNITS", value_parser = clap::value_parser!(u16).range(1..=128))]
    pub network: Option<u16>,
    /// Passes over the positions the network's fit makes at most (it stops
    /// earlier when three in a row do not lower the validation loss).
    #[arg(long, default_value_t = 30, requires = "network")]
    pub epochs: usize,
    /// Keep the weights, values and tables as they are: fit the network
    /// only.
    #[arg(long, requires = "network", conflicts_with_all = ["mobility", "squares"])]
    pub network_only: bool,
    /// The logistic scale `k` (win chances per centipawn) to fit at,
    /// instead of the one that fits the starting weights best: the `k`
    /// of an earlier fit (its file's header) keeps the new weights'
    /// centipawns worth what they were, where the search's margins expect
    /// them, when an evaluation change shrinks or stretches the
    /// evaluations.
    #[arg(long, value_name = "K", value_parser = parse_scale)]
    pub scale: Option<f64>,
    /// Print the figures as JSON.
    #[arg(long)]
    pub json: bool,
}

/// A `--scale`: a number above 0 and at most 0.05.
fn parse_scale(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(k) if k > 0.0 && k <= 0.05 => Ok(k),
        _ => Err(format!(
            "`{text}` is not a scale: a number above 0 and at most 0.05 (a pawn of 100 centipawns at k = 0.006 is a 64% chance)"
        )),
    }
}

/// Runs `varc tune`.
pub fn run(args: TuneArgs) -> ExitCode {
    let Some(rules) = super::load_weighted_interpreter(&args.file, args.weights.as_deref()) else {
        return ExitCode::FAILURE;
    };
    let variant = rules.variant().clone();
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("{}.weights", variant.id)));
    // Refused before any game is played.
    let fixed = match fixed_weights(&args.fixed) {
        Ok(fixed) => fixed,
        Err(error) => {
            eprintln!("error: {error}");
            return ExitCode::FAILURE;
        }
    };
    if let Err(error) = check_writable(&out) {
        eprintln!("error: {error}");
        return ExitCode::FAILURE;
    }
    let settings = Settings {
        variant: variant.id.clone(),
        games: args.games,
        depth: Some(args.depth.max(1)),
        movetime_ms: None,
        seed: args.seed,
        opening_plies: args.opening_plies,
        max_plies: args.max_plies.max(1),
    };
    let (samples, source) = if !args.positions.is_empty() {
        let Some((samples, count)) = read_positions(&variant, &args.positions) else {
            return ExitCode::FAILURE;
        };
        (samples, format!("{count} labelled positions"))
    } else if args.records.is_empty() {
        let Some(samples) = play_for_samples(&rules, &settings, args.threads) else {
            return ExitCode::FAILURE;
        };
        let source = format!(
            "{} self-play games at depth {}, seed {}",
            settings.games, args.depth, args.seed
        );
        (samples, source)
    } else {
        let Some((samples, games)) = read_records(&rules, &args.records, args.opening_plies) else {
            return ExitCode::FAILURE;
        };
        (samples, format!("{games} recorded games"))
    };
    let (fitting, validation) = (samples.fitting, samples.validation);
    let spinner = ProgressBar::new_spinner();
    let mut tick = |message: &str| {
        spinner.set_message(message.to_string());
        spinner.tick();
    };
    let fitted = if args.network_only {
        unfitted(&rules, &variant, &fitting, &validation, args.scale)
    } else {
        fit(
            &rules,
            &variant,
            &fitting,
            &validation,
            &fixed,
            args.scale,
            &mut tick,
        )
    };
    let mobility = args.mobility.then(|| {
        fit_mobility(
            &rules,
            &fitted.variant,
            &fitting,
            &validation,
            fitted.scale,
            &mut tick,
        )
    });
    let squares = args.squares.then(|| {
        let variant = mobility.as_ref().map_or(&fitted.variant, |m| &m.variant);
        fit_squares(
            &rules,
            variant,
            &fitting,
            &validation,
            fitted.scale,
            &mut tick,
        )
    });
    let network = args.network.map(|units| {
        let variant = match (&squares, &mobility) {
            (Some(squares), _) => &squares.variant,
            (None, Some(mobility)) => &mobility.variant,
            (None, None) => &fitted.variant,
        };
        let settings = NetworkSettings {
            hidden: usize::from(units),
            max_epochs: args.epochs,
            scale: fitted.scale,
        };
        fit_network(&rules, variant, &fitting, &validation, settings, &mut tick)
    });
    spinner.finish_and_clear();
    let mut header = format!(
        "{}: {} ({}), {} positions from {source}\n\
         loss {:.6} -> {:.6} (k = {:.5} per centipawn)",
        &HEADER[2..],
        variant.name,
        variant.id,
        fitting.len(),
        fitted.loss_before,
        fitted.loss_after,
        fitted.scale
    );
    if let Some((before, after)) = fitted.validation {
        header.push_str(&format!(
            "\nvalidation ({} positions): loss {before:.6} -> {after:.6}",
            validation.len()
        ));
    }
    if let Some(mobility) = &mobility {
        header.push_str(&format!(
            "\nmobility tables ({} passes): loss {:.6} -> {:.6}",
            mobility.passes, mobility.loss.0, mobility.loss.1
        ));
        if let Some((before, after)) = mobility.validation {
            header.push_str(&format!(", validation {before:.6} -> {after:.6}"));
        }
    }
    if let Some(squares) = &squares {
        header.push_str(&format!(
            "\nsquare tables ({} steps): loss {:.6} -> {:.6}",
            squares.steps, squares.loss.0, squares.loss.1
        ));
        if let Some((before, after)) = squares.validation {
            header.push_str(&format!(", validation {before:.6} -> {after:.6}"));
        }
    }
    if let (Some(network), Some(units)) = (&network, args.network) {
        header.push_str(&format!(
            "\nnetwork of {units} units ({} epochs{}): loss {:.6} -> {:.6}",
            network.epochs,
            if network.kept { "" } else { ", not kept" },
            network.loss.0,
            network.loss.1
        ));
        if let Some((before, after)) = network.validation {
            header.push_str(&format!(", validation {before:.6} -> {after:.6}"));
        }
        let epochs: Vec<String> = network
            .history
            .iter()
            .map(|(fitting, checked)| format!("{fitting:.5}/{checked:.5}"))
            .collect();
        header.push_str(&format!(
            "\nnetwork epochs (loss/validation): {}",
            epochs.join(" ")
        ));
    }
    let variant_out = match (&network, &squares, &mobility) {
        (Some(network), _, _) => &network.variant,
        (None, Some(squares), _) => &squares.variant,
        (None, None, Some(mobility)) => &mobility.variant,
        (None, None, None) => &fitted.variant,
    };
    let text = WeightsFile::write(variant_out, &header);
    if let Err(error) = std::fs::write(&out, &text) {
        eprintln!("error: writing {}: {error}", out.display());
        return ExitCode::FAILURE;
    }
    if args.json {
        let weights: serde_json::Map<String, serde_json::Value> = WEIGHT_NAMES
            .iter()
            .zip(fitted.variant.evaluation.as_array())
            .map(|(name, value)| (name.to_string(), json!(value)))
            .collect();
        let figures = json!({
            "variant": variant.id,
            "out": out.display().to_string(),
            "positions": fitting.len(),
            "validation_positions": validation.len(),
            "scale": fitted.scale,
            "loss_before": fitted.loss_before,
            "loss_after": fitted.loss_after,
            "validation_loss": fitted.validation.map(|(b, a)| json!({"before": b, "after": a})),
            "mobility": mobility.as_ref().map(|m| json!({
                "passes": m.passes,
                "loss": {"before": m.loss.0, "after": m.loss.1},
                "validation_loss": m.validation.map(|(b, a)| json!({"before": b, "after": a})),
            })),
            "network": network.as_ref().map(|n| json!({
                "epochs": n.epochs,
                "kept": n.kept,
                "history": n.history.iter().map(|(f, v)| json!({"loss": f, "validation": v})).collect::<Vec<_>>(),
                "loss": {"before": n.loss.0, "after": n.loss.1},
                "validation_loss": n.validation.map(|(b, a)| json!({"before": b, "after": a})),
            })),
            "squares": squares.as_ref().map(|s| json!({
                "steps": s.steps,
                "loss": {"before": s.loss.0, "after": s.loss.1},
                "validation_loss": s.validation.map(|(b, a)| json!({"before": b, "after": a})),
            })),
            "weights": weights,
        });
        println!("{figures}");
    } else {
        print!("{text}");
        eprintln!("varc: wrote {}", out.display());
    }
    ExitCode::SUCCESS
}

/// Plays the self-play games of `settings` with a progress bar, for their
/// samples (`None`, reported, when none has any).
fn play_for_samples(
    rules: &Interpreter,
    settings: &Settings,
    threads: Option<usize>,
) -> Option<Samples<Position>> {
    let bar = ProgressBar::new(u64::from(settings.games));
    bar.set_style(
        ProgressStyle::with_template("tune {pos}/{len} games {wide_bar} {elapsed}<{eta} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let threads = threads.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    });
    let samples = collect_samples(rules, settings, threads, &|| bar.inc(1));
    bar.finish_and_clear();
    if samples.fitting.is_empty() {
        eprintln!(
            "error: no game of {} ended within {} plies with a position to learn from; \
             play more or longer games (--games, --max-plies)",
            settings.games, settings.max_plies
        );
        return None;
    }
    Some(samples)
}

/// The samples of the recorded games in `paths`, and how many games gave
/// them (`None`, reported, when a file cannot be read or no game has a
/// position to learn from). Records that do not load are reported, the
/// first few in full, and left out.
fn read_records(
    rules: &Interpreter,
    paths: &[PathBuf],
    skip_plies: u32,
) -> Option<(Samples<Position>, usize)> {
    let texts = read_texts(paths)?;
    let (samples, tally) = record_samples(rules, &texts, skip_plies);
    warn_left_out(&tally.refused, "records that do not load");
    if tally.unfinished > 0 {
        eprintln!("note: {} games without a result left out", tally.unfinished);
    }
    if samples.fitting.is_empty() {
        eprintln!(
            "error: no recorded game with a result has a quiet position after its first {skip_plies} plies"
        );
        return None;
    }
    Some((samples, tally.games))
}

/// The labelled positions in `paths` and how many there are (`None`,
/// reported, when a file cannot be read or has no position). Lines that
/// do not read are reported, the first few in full, and left out.
fn read_positions(variant: &Variant, paths: &[PathBuf]) -> Option<(Samples<Position>, usize)> {
    let texts = read_texts(paths)?;
    let (samples, tally) = labelled_fens(variant, &texts);
    warn_left_out(&tally.refused, "lines that do not read");
    if tally.positions == 0 {
        eprintln!("error: no labelled position read");
        return None;
    }
    Some((samples, tally.positions))
}

/// Each of `paths` with its text (`None`, reported, when one cannot be
/// read). Bounded like every file varc reads: a larger collection is given
/// as several files.
fn read_texts(paths: &[PathBuf]) -> Option<Vec<(String, String)>> {
    let mut texts = Vec::new();
    for path in paths {
        match varc::bounded::read_text(path) {
            Ok(text) => texts.push((path.display().to_string(), text)),
            Err(error) => {
                eprintln!("error: {error}");
                return None;
            }
        }
    }
    Some(texts)
}

/// Reports what was left out, the first few in full.
fn warn_left_out(refused: &[String], what: &str) {
    const SHOWN: usize = 5;
    for refusal in refused.iter().take(SHOWN) {
        eprintln!("warning: left out {refusal}");
    }
    if refused.len() > SHOWN {
        eprintln!("warning: left out {} more {what}", refused.len() - SHOWN);
    }
}

/// Whether `path` may be written: absent, or a weights file varc wrote.
fn check_writable(path: &Path) -> Result<(), String> {
    match std::fs::read_to_string(path) {
        Ok(text) if text.starts_with(HEADER) => Ok(()),
        Ok(_) => Err(format!(
            "{} exists and is not a weights file varc tune wrote; choose another --out",
            path.display()
        )),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(error) => Err(format!("{}: {error}", path.display())),
    }
}

/// The indices of the scalar weights named by `--fixed`, or which name is
/// not one.
fn fixed_weights(names: &[String]) -> Result<Vec<usize>, String> {
    names
        .iter()
        .map(|name| {
            WEIGHT_NAMES
                .iter()
                .position(|known| known == name)
                .ok_or_else(|| {
                    format!(
                        "--fixed: `{name}` is not a weight; the weights are {}",
                        WEIGHT_NAMES.join(", ")
                    )
                })
        })
        .collect()
}
