//! One module per subcommand of the `varc` binary.

pub mod build;
pub mod check;
pub mod dump;
pub mod perft;
pub mod play;
pub mod replay;
pub mod selfplay;
pub mod uci;
pub mod xboard;

use std::io::IsTerminal;
use std::path::Path;
use varc::model::Variant;

/// Loads a rules file and builds its interpreter, printing errors on stderr.
pub fn load_interpreter(path: &Path) -> Option<varc::interp::Interpreter> {
    uci::interpreter(path)
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
