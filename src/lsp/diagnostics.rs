//! Diagnostics of an open document: the loader's errors (parse, lowering,
//! the `extends` chain) as protocol diagnostics.

use super::text::{path_to_uri, LineIndex};
use crate::error::Error;
use crate::error::Severity;
use crate::load::{Checked, LoadError, Sources};
use crate::model::Variant;
use codespan_reporting::files::Files;
use lsp_types::{
    Diagnostic, DiagnosticRelatedInformation, DiagnosticSeverity, Location, NumberOrString,
    Position, Range, Uri,
};
use std::path::Path;

/// Compiles the document `text` (the file at `path`; `extends` reads its
/// parents from the same folder) into its model or its errors.
pub fn compile(path: &Path, text: &str) -> Result<Variant, LoadError> {
    check(path, text).map(|checked| checked.variant)
}

/// Compiles the document `text` into its model and warnings, or its errors.
pub fn check(path: &Path, text: &str) -> Result<Checked, LoadError> {
    let name = path.file_name().map_or_else(
        || "untitled.rules".to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let dir = path.parent().unwrap_or(Path::new("."));
    crate::load::check_variant_from_str(&name, text, dir)
}

/// The warnings of a file that compiled, for the document.
pub fn warnings_to_protocol(checked: &Checked, document_uri: &Uri) -> Vec<Diagnostic> {
    diagnostics_of(&checked.sources, &checked.warnings, document_uri)
}

/// The diagnostics of a failed compilation, for the document (source 0 of
/// `error.sources`). Errors in a parent file are shown at the document's
/// start, naming the file, with the place in the parent as related
/// information.
pub fn to_protocol(error: &LoadError, document_uri: &Uri) -> Vec<Diagnostic> {
    diagnostics_of(&error.sources, &error.errors, document_uri)
}

/// `errors` (of any severity) as protocol diagnostics of the document,
/// source 0 of `sources`.
fn diagnostics_of(sources: &Sources, errors: &[Error], document_uri: &Uri) -> Vec<Diagnostic> {
    let document = LineIndex::new(sources.source(0));
    let place = Place {
        sources,
        document_uri,
    };
    errors
        .iter()
        .map(|e| to_diagnostic(&place, &document, e))
        .collect()
}

/// What is needed to turn a span of any source into a location.
struct Place<'a> {
    sources: &'a Sources,
    document_uri: &'a Uri,
}

fn to_diagnostic(place: &Place<'_>, document: &LineIndex<'_>, error: &Error) -> Diagnostic {
    let sources = place.sources;
    let mut message = error.message.clone();
    let range = if error.file == 0 {
        document.range(error.span.start, error.span.end)
    } else {
        message = format!("in {}: {message}", file_name(sources, error.file));
        Range::new(Position::new(0, 0), Position::new(0, 0))
    };
    if !error.label.is_empty() && error.label != error.message {
        message.push_str(&format!("\n{}", error.label));
    }
    for note in &error.notes {
        message.push_str(&format!("\nnote: {note}"));
    }
    if let Some(help) = &error.help {
        message.push_str(&format!("\nhelp: {help}"));
    }
    let mut related = Vec::new();
    if error.file != 0 {
        related.extend(
            place
                .location(error.file, error.span.start, error.span.end)
                .map(|location| DiagnosticRelatedInformation {
                    location,
                    message: error.label.clone(),
                }),
        );
    }
    for (file, span, label) in &error.secondary {
        related.extend(place.location(*file, span.start, span.end).map(|location| {
            DiagnosticRelatedInformation {
                location,
                message: label.clone(),
            }
        }));
    }
    Diagnostic {
        range,
        severity: Some(match error.severity() {
            Severity::Error => DiagnosticSeverity::ERROR,
            Severity::Warning => DiagnosticSeverity::WARNING,
        }),
        code: code_of(error),
        source: Some("varc".to_string()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        ..Diagnostic::default()
    }
}

/// The diagnostic's stable code (`E0101`); `varc explain CODE` tells more.
fn code_of(error: &Error) -> Option<NumberOrString> {
    Some(NumberOrString::String(error.code.as_str().to_string()))
}

fn file_name(sources: &Sources, file: usize) -> String {
    sources
        .files()
        .name(file)
        .unwrap_or_else(|_| "another file".to_string())
}

impl Place<'_> {
    /// Where bytes `start..end` of source `file` are. The document is
    /// source 0 (its name is not a path); the files it extends are named by
    /// their paths.
    fn location(&self, file: usize, start: usize, end: usize) -> Option<Location> {
        let uri = if file == 0 {
            self.document_uri.clone()
        } else {
            path_to_uri(Path::new(&self.sources.files().name(file).ok()?))?
        };
        let text = self.sources.source(file);
        Some(Location::new(uri, LineIndex::new(text).range(start, end)))
    }
}
