//! `varc uci FILE`: the variant's engine over the reference interpreter,
//! speaking the Universal Chess Interface on standard input and output
//! (see [`varc_runtime::uci`]).

use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `varc uci`.
#[derive(clap::Args)]
pub struct UciArgs {
    /// The rules file.
    pub file: PathBuf,
    /// A weights file for the evaluation (`varc tune` writes one).
    #[arg(long)]
    pub weights: Option<PathBuf>,
}

/// Runs the UCI loop until `quit` or the end of input.
pub fn run(args: UciArgs) -> ExitCode {
    let Some(rules) = super::load_weighted_interpreter(&args.file, args.weights.as_deref()) else {
        return ExitCode::FAILURE;
    };
    super::protocol_exit(varc_runtime::uci::run_stdio(rules))
}
