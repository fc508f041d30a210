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
pub mod uci;
pub mod xboard;

use std::io::IsTerminal;
use std::path::Path;
use varc::model::Variant;

/// Loads a rules file and builds its interpreter, printing errors on stderr.
pub fn load_interpreter(path: &Path) -> Option<varc::interp::Interpreter> {
    let variant = load_or_report(path)?;
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
