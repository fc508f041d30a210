//! `varc xboard FILE`: the variant's engine over the reference interpreter,
//! speaking the XBoard / WinBoard protocol on standard input and output
//! (see [`varc_runtime::xboard`]).

use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `varc xboard`.
#[derive(clap::Args)]
pub struct XboardArgs {
    /// The rules file.
    pub file: PathBuf,
    /// A weights file for the evaluation (`varc tune` writes one).
    #[arg(long)]
    pub weights: Option<PathBuf>,
}

/// Runs the XBoard loop until `quit` or the end of input.
pub fn run(args: XboardArgs) -> ExitCode {
    let Some(rules) = super::load_weighted_interpreter(&args.file, args.weights.as_deref()) else {
        return ExitCode::FAILURE;
    };
    super::protocol_exit(varc_runtime::xboard::run_stdio(rules))
}
