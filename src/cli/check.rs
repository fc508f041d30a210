//! `varc check FILE`.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `varc check`.
#[derive(clap::Args)]
pub struct CheckArgs {
    /// The rules file.
    pub file: PathBuf,
    /// Fail (exit 1) when there are warnings, as when there are errors.
    #[arg(long)]
    pub deny_warnings: bool,
}

/// Exit 0 if the file is valid, else print diagnostics and exit 1.
/// Warnings are printed on stderr; they fail the check only with
/// `--deny-warnings`.
pub fn run(args: CheckArgs) -> ExitCode {
    let color = std::io::stderr().is_terminal();
    match varc::load::check_variant(&args.file) {
        Ok(checked) => {
            if !checked.warnings.is_empty() {
                eprint!(
                    "{}",
                    varc::diagnostic::render(&checked.sources, &checked.warnings, color)
                );
            }
            if args.deny_warnings && !checked.warnings.is_empty() {
                eprintln!("error: warnings are denied (--deny-warnings)");
                return ExitCode::FAILURE;
            }
            println!(
                "{}: ok ({}, {} pieces)",
                args.file.display(),
                checked.variant.name,
                checked.variant.pieces.len()
            );
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprint!(
                "{}",
                varc::diagnostic::render(&error.sources, &error.errors, color)
            );
            ExitCode::FAILURE
        }
    }
}
