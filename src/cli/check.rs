//! `varc check FILE`.

use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `varc check`.
#[derive(clap::Args)]
pub struct CheckArgs {
    /// The rules file.
    pub file: PathBuf,
}

/// Exit 0 if the file is valid, else print diagnostics and exit 1.
pub fn run(args: CheckArgs) -> ExitCode {
    match super::load_or_report(&args.file) {
        Some(variant) => {
            println!(
                "{}: ok ({}, {} pieces)",
                args.file.display(),
                variant.name,
                variant.pieces.len()
            );
            ExitCode::SUCCESS
        }
        None => ExitCode::FAILURE,
    }
}
