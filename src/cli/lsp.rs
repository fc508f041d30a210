//! `varc lsp`.

use std::process::ExitCode;

/// Arguments of `varc lsp` (none: the client talks over stdin and stdout).
#[derive(clap::Args)]
pub struct LspArgs {
    /// Accepted for clients that pass it (VS Code's language client does); stdio is the only transport.
    #[arg(long, hide = true)]
    pub stdio: bool,
}

/// Serves one client over stdin and stdout until it says `exit`.
pub fn run(_args: LspArgs) -> ExitCode {
    match varc::lsp::serve_stdio() {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: language server: {error}");
            ExitCode::FAILURE
        }
    }
}
