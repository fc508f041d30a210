//! `varc explain CODE`.

use std::process::ExitCode;
use varc::error::Code;

/// Arguments of `varc explain`.
#[derive(clap::Args)]
pub struct ExplainArgs {
    /// A diagnostic code, such as E0101 or W0004.
    pub code: String,
}

/// Prints the long explanation of a code; an unknown code is an error.
pub fn run(args: ExplainArgs) -> ExitCode {
    let Some(code) = Code::parse(&args.code) else {
        let shown: String = args
            .code
            .chars()
            .filter(|c| !c.is_control())
            .take(40)
            .collect();
        eprintln!(
            "error: `{shown}` is not a diagnostic code of varc\n  = note: codes look like E0101 (errors) or W0001 (warnings); `varc check` prints them"
        );
        return ExitCode::FAILURE;
    };
    println!(
        "{code} ({}): {}",
        code.severity().as_str(),
        varc::diagnostic::explain::explanation(code)
    );
    ExitCode::SUCCESS
}
