//! `varc dump FILE`.

use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `varc dump`.
#[derive(clap::Args)]
pub struct DumpArgs {
    /// The rules file.
    pub file: PathBuf,
    /// Print the model as JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Prints the lowered model.
pub fn run(args: DumpArgs) -> ExitCode {
    let Some(variant) = super::load_or_report(&args.file) else {
        return ExitCode::FAILURE;
    };
    if args.json {
        match serde_json::to_string_pretty(&variant) {
            Ok(text) => println!("{text}"),
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::FAILURE;
            }
        }
    } else {
        print!("{}", varc::dump::dump(&variant));
    }
    ExitCode::SUCCESS
}
