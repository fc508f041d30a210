//! `varc fmt FILE... [--check]`.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use varc::load::{Sources, MAX_FILE_BYTES};

/// Arguments of `varc fmt`.
#[derive(clap::Args)]
pub struct FmtArgs {
    /// The rules files to format in place.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Change nothing: list the files that are not formatted and exit 1 if any.
    #[arg(long)]
    pub check: bool,
}

/// What became of one file.
enum Outcome {
    /// Already formatted.
    Unchanged,
    /// Rewritten (or, with `--check`, would be).
    Changed,
    /// Unreadable or not valid rules syntax; reported on stderr.
    Failed,
}

/// Formats each file; exit 1 if any failed, or with `--check` if any would change.
pub fn run(args: FmtArgs) -> ExitCode {
    let mut success = true;
    for path in &args.files {
        match format_one(path, args.check) {
            Outcome::Unchanged => {}
            Outcome::Changed if args.check => {
                println!("{}: not formatted", path.display());
                success = false;
            }
            Outcome::Changed => {}
            Outcome::Failed => success = false,
        }
    }
    if success {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

fn format_one(path: &Path, check: bool) -> Outcome {
    let name = path.display().to_string();
    let source = match read_source(path) {
        Ok(source) => source,
        Err(message) => {
            eprintln!("error: {message}");
            return Outcome::Failed;
        }
    };
    // Editors on some systems start UTF-8 files with a byte-order mark; the
    // loader skips it, and the formatter drops it.
    let text = source
        .strip_prefix('\u{feff}')
        .unwrap_or(&source)
        .to_string();
    let mut sources = Sources::default();
    let id = sources.add(name.clone(), path.to_path_buf(), text);
    match varc::fmt::format(id, sources.source(id)) {
        Ok(formatted) if formatted == source => Outcome::Unchanged,
        Ok(_) if check => Outcome::Changed,
        Ok(formatted) => match std::fs::write(path, formatted) {
            Ok(()) => Outcome::Changed,
            Err(error) => {
                eprintln!("error: cannot write {name}: {error}");
                Outcome::Failed
            }
        },
        Err(error) => {
            let color = std::io::stderr().is_terminal();
            eprint!("{}", varc::diagnostic::render(&sources, &[error], color));
            Outcome::Failed
        }
    }
}

/// The file's text, within the rules-file size limit.
fn read_source(path: &Path) -> Result<String, String> {
    let bytes =
        varc::bounded::read_bytes(path, MAX_FILE_BYTES as u64).map_err(|e| e.to_string())?;
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "{} is not valid UTF-8 text (offset {})",
            path.display(),
            e.utf8_error().valid_up_to()
        )
    })
}
