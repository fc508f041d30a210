//! Reading rules files: the `extends` chain, size and encoding checks, then
//! parsing and lowering. The entry points of the compiler front end.

use crate::ast;
use crate::error::{Code, Error, Span};
use crate::lower::Lowered;
use crate::model::Variant;
use crate::syntax;
use codespan_reporting::files::SimpleFiles;
use std::path::{Path, PathBuf};

/// Largest rules file accepted. Real variants are a few kilobytes; the limit
/// bounds the time and memory spent on garbage.
pub const MAX_FILE_BYTES: usize = 1 << 20;

/// The source files read for one compilation, for diagnostics.
pub struct Sources {
    files: SimpleFiles<String, String>,
    paths: Vec<PathBuf>,
}

impl Default for Sources {
    fn default() -> Self {
        Sources {
            files: SimpleFiles::new(),
            paths: Vec::new(),
        }
    }
}

impl Sources {
    /// Adds a file's text under a display name.
    pub fn add(&mut self, name: String, path: PathBuf, source: String) -> usize {
        self.paths.push(path);
        self.files.add(name, source)
    }

    /// The text of file `id`.
    pub fn source(&self, id: usize) -> &str {
        self.files
            .get(id)
            .map(|f| f.source().as_str())
            .unwrap_or("")
    }

    /// The codespan-reporting file database.
    pub fn files(&self) -> &SimpleFiles<String, String> {
        &self.files
    }
}

/// A failed compilation: its errors and the sources they point into.
pub struct LoadError {
    /// The files read.
    pub sources: Sources,
    /// What is wrong (at least one).
    pub errors: Vec<Error>,
}

impl LoadError {
    /// The rendered diagnostics, without colours.
    pub fn render(&self) -> String {
        crate::diagnostic::render(&self.sources, &self.errors, false)
    }
}

impl std::fmt::Debug for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.render())
    }
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.render())
    }
}

impl std::error::Error for LoadError {}

/// A variant that compiled, with its warnings and the sources they point into.
pub struct Checked {
    /// The files read.
    pub sources: Sources,
    /// The lowered model.
    pub variant: Variant,
    /// Warnings about the file compiled (not its ancestors), in file order.
    pub warnings: Vec<Error>,
}

/// Reads, checks and lowers the rules file at `path` (and the files it
/// extends). Warnings are dropped: `varc check` shows them through
/// [`check_variant`]; commands that run a variant do not repeat them.
pub fn load_variant(path: &Path) -> Result<Variant, LoadError> {
    check_variant(path).map(|checked| checked.variant)
}

/// Compiles rules text given directly (tests, tools); `extends` looks for
/// files in `dir`. Warnings are dropped, as by [`load_variant`].
pub fn load_variant_from_str(name: &str, text: &str, dir: &Path) -> Result<Variant, LoadError> {
    check_variant_from_str(name, text, dir).map(|checked| checked.variant)
}

/// [`load_variant`] with the warnings.
pub fn check_variant(path: &Path) -> Result<Checked, LoadError> {
    let mut sources = Sources::default();
    let result = compile(path, &mut sources);
    finish(result, sources)
}

/// [`load_variant_from_str`] with the warnings.
pub fn check_variant_from_str(name: &str, text: &str, dir: &Path) -> Result<Checked, LoadError> {
    let mut sources = Sources::default();
    if text.len() > MAX_FILE_BYTES {
        let id = sources.add(name.to_string(), dir.join(name), String::new());
        let errors = vec![too_large(id, name, text.len() as u64)];
        return Err(LoadError { sources, errors });
    }
    let id = sources.add(name.to_string(), dir.join(name), text.to_string());
    let result = compile_chain(id, &mut sources);
    finish(result, sources)
}

fn finish(result: Result<Lowered, Vec<Error>>, sources: Sources) -> Result<Checked, LoadError> {
    match result {
        Ok(Lowered { variant, warnings }) => Ok(Checked {
            sources,
            variant,
            warnings,
        }),
        Err(errors) => Err(LoadError { sources, errors }),
    }
}

fn compile(path: &Path, sources: &mut Sources) -> Result<Lowered, Vec<Error>> {
    let id = read_file(path, sources, None)?;
    compile_chain(id, sources)
}

/// The most files an `extends` chain may have (each up to
/// [`MAX_FILE_BYTES`] of text, held at once).
pub const MAX_EXTENDS_CHAIN: usize = 64;

/// Reads the `extends` chain from file `first`, parsing each file once,
/// then lowers it.
fn compile_chain(first: usize, sources: &mut Sources) -> Result<Lowered, Vec<Error>> {
    let mut chain = vec![(first, parse(first, sources)?)];
    while let Some((current, tree)) = chain.last() {
        let current = *current;
        let Some(parent) = &tree.header.extends else {
            break;
        };
        let (parent, span) = (parent.name.clone(), parent.span);
        let dir = sources.paths[current]
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default();
        let parent_path = dir.join(format!("{parent}.rules"));
        let looped = chain
            .iter()
            .position(|(id, _)| same_file(&sources.paths[*id], &parent_path));
        if let Some(start) = looped {
            let names: Vec<String> = chain[start..]
                .iter()
                .map(|(_, tree)| tree.header.id.name.clone())
                .collect();
            return Err(vec![Error::new(
                Code::ExtendsCycle,
                current,
                span,
                format!(
                    "`extends` makes a cycle: {} -> {parent}",
                    names.join(" -> ")
                ),
            )
            .with_label("extends a variant that extends this one")
            .with_help("a variant can only extend one that does not depend on it")]);
        }
        if chain.len() >= MAX_EXTENDS_CHAIN {
            return Err(vec![Error::new(
                Code::ExtendsChainTooLong,
                current,
                span,
                format!("`extends` chain is longer than {MAX_EXTENDS_CHAIN} variants"),
            )
            .with_label("one variant too many")
            .with_help("a variant can extend a chain of at most this many files")]);
        }
        let parent_id = read_file(&parent_path, sources, Some((current, span)))?;
        chain.push((parent_id, parse(parent_id, sources)?));
    }
    chain.reverse();
    crate::lower::lower(&chain)
}

/// The syntax tree of file `id`.
fn parse(id: usize, sources: &Sources) -> Result<ast::File, Vec<Error>> {
    syntax::parse_file(id, sources.source(id)).map_err(|e| vec![e])
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        // A path that cannot be resolved is compared as written.
        (Err(_), _) | (_, Err(_)) => a == b,
    }
}

/// Reads one file, checking size and encoding; `from` is the `extends` that asked for it.
fn read_file(
    path: &Path,
    sources: &mut Sources,
    from: Option<(usize, Span)>,
) -> Result<usize, Vec<Error>> {
    let name = path.display().to_string();
    let failure = |sources: &mut Sources, code: Code, message: String, label: &str| -> Vec<Error> {
        match from {
            Some((file, span)) => {
                vec![Error::new(code, file, span, message).with_label(label.to_string())]
            }
            None => {
                let id = sources.add(name.clone(), path.to_path_buf(), String::new());
                vec![Error::new(code, id, Span::at(0), message)]
            }
        }
    };
    let size = match std::fs::metadata(path) {
        Ok(meta) => meta.len(),
        Err(e) => {
            // The OS's wording varies; a missing file is the common case.
            let reason = if e.kind() == std::io::ErrorKind::NotFound {
                "no such file".to_string()
            } else {
                e.to_string()
            };
            let mut errors = match from {
                Some(_) => failure(
                    sources,
                    Code::UnreadableFile,
                    format!("cannot read `{name}`, the variant this one extends: {reason}"),
                    "no such variant file",
                ),
                None => failure(
                    sources,
                    Code::UnreadableFile,
                    format!("cannot read `{name}`: {reason}"),
                    "",
                ),
            };
            if from.is_some() {
                for error in &mut errors {
                    error.help = Some(
                        "`extends NAME` reads `NAME.rules` from the directory of the file that says it"
                            .to_string(),
                    );
                }
            }
            return Err(errors);
        }
    };
    if size > MAX_FILE_BYTES as u64 {
        return Err(match from {
            Some(_) => failure(
                sources,
                Code::FileTooLarge,
                format!(
                    "`{name}` is {size} bytes; a rules file may be at most {MAX_FILE_BYTES} bytes"
                ),
                "file too large",
            ),
            None => {
                let id = sources.add(name.clone(), path.to_path_buf(), String::new());
                vec![too_large(id, &name, size)]
            }
        });
    }
    // The size above is a regular file's; a pipe or a device (`/dev/zero`)
    // stops one byte past the limit.
    let bytes = match crate::bounded::read_bytes(path, MAX_FILE_BYTES as u64) {
        Ok(bytes) => bytes,
        Err(crate::bounded::ReadError::TooLarge { .. }) => {
            let id = sources.add(name.clone(), path.to_path_buf(), String::new());
            return Err(vec![Error::new(
                Code::FileTooLarge,
                id,
                Span::at(0),
                format!(
                    "`{name}` has more than {MAX_FILE_BYTES} bytes, the most a rules file may have"
                ),
            )
            .with_label("input too large")
            .with_help(
                "is this a rules file? Variants are a few kilobytes of text",
            )]);
        }
        Err(e) => {
            return Err(failure(
                sources,
                Code::UnreadableFile,
                e.to_string(),
                "unreadable",
            ))
        }
    };
    match String::from_utf8(bytes) {
        Ok(text) => {
            // Editors on some systems start UTF-8 files with a byte-order mark.
            let text = match text.strip_prefix('\u{feff}') {
                Some(rest) => rest.to_string(),
                None => text,
            };
            let id = sources.add(name, path.to_path_buf(), text);
            let text = sources.source(id);
            let message = if text.trim().is_empty() {
                "the file is empty"
            } else if text
                .lines()
                .all(|l| l.trim().is_empty() || l.trim_start().starts_with('#'))
            {
                "the file has only comments, no rules"
            } else {
                return Ok(id);
            };
            Err(vec![Error::new(Code::NoRules, id, Span::at(0), message)
                .with_label("no `variant` header")
                .with_help("a rules file starts with `variant NAME \"Display name\"`, then `board`, `setup`, pieces and rules")])
        }
        Err(e) => {
            let valid = e.utf8_error().valid_up_to();
            let text = String::from_utf8_lossy(e.as_bytes()).into_owned();
            let id = sources.add(name, path.to_path_buf(), text);
            let end = valid + '\u{FFFD}'.len_utf8();
            Err(vec![Error::new(
                Code::NotUtf8,
                id,
                Span::new(valid, end),
                "the file is not valid UTF-8 text",
            )
            .with_label(match e.as_bytes().get(valid) {
                Some(byte) => format!("byte 0x{byte:02X} at offset {valid} is not UTF-8"),
                None => format!("incomplete character at offset {valid}"),
            })
            .with_help("save the rules file as UTF-8")])
        }
    }
}

/// A file over [`MAX_FILE_BYTES`], reported without keeping its text.
fn too_large(id: usize, name: &str, size: u64) -> Error {
    Error::new(
        Code::FileTooLarge,
        id,
        Span::at(0),
        format!("`{name}` is {size} bytes; a rules file may be at most {MAX_FILE_BYTES} bytes"),
    )
    .with_label("file too large")
    .with_help("is this a rules file? Variants are a few kilobytes of text")
}
