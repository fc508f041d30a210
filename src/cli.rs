//! One module per subcommand of the `varc` binary.

pub mod build;
pub mod check;
pub mod dump;
pub mod explain;
pub mod fmt;
pub mod lsp;
pub mod perft;
pub mod play;
pub mod replay;
pub mod selfplay;
pub mod serve;
pub mod tune;
pub mod uci;
pub mod xboard;

use std::io::IsTerminal;
use std::path::Path;
use varc::model::Variant;

/// Loads a rules file and builds its interpreter, printing errors on stderr.
pub fn load_interpreter(path: &Path) -> Option<varc::interp::Interpreter> {
    load_weighted_interpreter(path, None)
}

/// [`load_interpreter`] with a weights file's evaluation weights, if any
/// (see [`load_weighted`]).
pub fn load_weighted_interpreter(
    path: &Path,
    weights: Option<&Path>,
) -> Option<varc::interp::Interpreter> {
    let variant = load_weighted(path, weights)?;
    match varc::interp::Interpreter::new(variant) {
        Ok(rules) => Some(rules),
        Err(error) => {
            eprintln!("error: {error}");
            None
        }
    }
}

/// The exit of a protocol loop (`varc uci`, `varc xboard`): success, or a
/// failure to read the commands, reported on stderr.
pub fn protocol_exit(outcome: std::io::Result<()>) -> std::process::ExitCode {
    match outcome {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: reading commands: {error}");
            std::process::ExitCode::FAILURE
        }
    }
}

/// Loads a rules file and, if given, a weights file on top of it (see
/// [`varc_runtime::weights`]); prints what is wrong with either on stderr.
pub fn load_weighted(path: &Path, weights: Option<&Path>) -> Option<Variant> {
    let mut variant = load_or_report(path)?;
    if let Some(weights) = weights {
        let applied = std::fs::read_to_string(weights)
            .map_err(|error| error.to_string())
            .and_then(|text| {
                varc_runtime::weights::WeightsFile::parse(&text).map_err(|e| e.to_string())
            })
            .and_then(|file| file.apply(&mut variant).map_err(|e| e.to_string()));
        if let Err(error) = applied {
            eprintln!("error: {}: {error}", weights.display());
            return None;
        }
    }
    Some(variant)
}

/// Loads a rules file, printing its diagnostics on stderr on failure.
pub fn load_or_report(path: &Path) -> Option<Variant> {
    match varc::load_variant(path) {
        Ok(variant) => Some(variant),
        Err(error) => {
            let color = std::io::stderr().is_terminal();
            eprint!(
                "{}",
                varc::diagnostic::render(&error.sources, &error.errors, color)
            );
            None
        }
    }
}
