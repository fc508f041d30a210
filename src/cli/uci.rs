//! `varc uci FILE`: the variant's engine over the reference interpreter,
//! speaking the Universal Chess Interface on standard input and output
//! (see [`varc_runtime::uci`]).

use std::path::PathBuf;
use std::process::ExitCode;
use varc::interp::Interpreter;

/// Arguments of `varc uci`.
#[derive(clap::Args)]
pub struct UciArgs {
    /// The rules file.
    pub file: PathBuf,
}

/// Runs the UCI loop until `quit` or the end of input.
pub fn run(args: UciArgs) -> ExitCode {
    let Some(rules) = super::load_interpreter(&args.file) else {
        return ExitCode::FAILURE;
    };
    match varc_runtime::uci::run_stdio(rules) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: reading commands: {error}");
            ExitCode::FAILURE
        }
    }
}

/// Loads `path` and builds its interpreter, reporting errors on stderr.
pub fn interpreter(path: &std::path::Path) -> Option<Interpreter> {
    let variant = super::load_or_report(path)?;
    match Interpreter::new(variant) {
        Ok(rules) => Some(rules),
        Err(error) => {
            eprintln!("error: {error}");
            None
        }
    }
}
