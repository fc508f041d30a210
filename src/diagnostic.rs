//! Renders [`Error`]s rustc-style with codespan-reporting: the only place
//! that knows how errors look. `explain` holds the long explanation of each
//! code (`varc explain E0101`).

pub mod explain;

use crate::error::{Error, Severity};
use crate::load::Sources;
use crate::syntax::is_unsafe_in_text;
use codespan_reporting::diagnostic::{Diagnostic, Label};
use codespan_reporting::files::SimpleFiles;
use codespan_reporting::term::{self, termcolor};

/// Renders `errors` as text, with colours if `color` is set.
pub fn render(sources: &Sources, errors: &[Error], color: bool) -> String {
    let mut buffer = if color {
        termcolor::Buffer::ansi()
    } else {
        termcolor::Buffer::no_color()
    };
    let config = term::Config::default();
    let files = printable_files(sources);
    for error in errors {
        let diagnostic = to_diagnostic(error);
        if term::emit(&mut buffer, &config, &files, &diagnostic).is_err() {
            // A span outside its file would be a bug of ours; still say what is wrong.
            buffer_line(
                &mut buffer,
                &format!(
                    "{}[{}]: {}",
                    error.severity().as_str(),
                    error.code,
                    error.message
                ),
            );
        }
    }
    let count = |severity| errors.iter().filter(|e| e.severity() == severity).count();
    let (error_count, warning_count) = (count(Severity::Error), count(Severity::Warning));
    if error_count > 1 {
        buffer_line(&mut buffer, &format!("error: {error_count} problems found"));
    }
    if warning_count > 1 || (warning_count == 1 && error_count > 0) {
        let plural = if warning_count == 1 { "" } else { "s" };
        buffer_line(
            &mut buffer,
            &format!("warning: {warning_count} warning{plural}"),
        );
    }
    String::from_utf8_lossy(buffer.as_slice()).into_owned()
}

/// The sources as they are shown: every character a terminal would act on
/// (see [`is_unsafe_in_text`]; a diagnostic may quote the very string
/// that holds it) is replaced by `?`s of the same length in bytes, so
/// that spans and columns stay right. Line breaks and tabs are kept.
fn printable_files(sources: &Sources) -> SimpleFiles<String, String> {
    let mut files = SimpleFiles::new();
    let mut id = 0;
    while let Ok(file) = sources.files().get(id) {
        let source = file.source();
        let mut shown = String::with_capacity(source.len());
        let mut chars = source.chars().peekable();
        while let Some(c) = chars.next() {
            let kept = matches!(c, '\n' | '\t') || (c == '\r' && chars.peek() == Some(&'\n'));
            if is_unsafe_in_text(c) && !kept {
                shown.push_str(&"?".repeat(c.len_utf8()));
            } else {
                shown.push(c);
            }
        }
        files.add(file.name().clone(), shown);
        id += 1;
    }
    files
}

fn buffer_line(buffer: &mut termcolor::Buffer, line: &str) {
    use std::io::Write;
    let _ = writeln!(buffer, "{line}");
}

fn to_diagnostic(error: &Error) -> Diagnostic<usize> {
    let mut labels = vec![Label::primary(error.file, error.span.start..error.span.end)
        .with_message(error.label.clone())];
    for (file, span, text) in &error.secondary {
        labels.push(Label::secondary(*file, span.start..span.end).with_message(text.clone()));
    }
    let mut notes: Vec<String> = error.notes.clone();
    if let Some(help) = &error.help {
        notes.push(format!("help: {help}"));
    }
    let diagnostic = match error.severity() {
        Severity::Error => Diagnostic::error(),
        Severity::Warning => Diagnostic::warning(),
    };
    diagnostic
        .with_code(error.code.as_str())
        .with_message(error.message.clone())
        .with_labels(labels)
        .with_notes(notes)
}

/// `errors` as JSON for the web page: one object per error with its file
/// name, 1-based line and column of the span's start and end (columns count
/// characters), the byte span, the code (`E0101`), the severity (`error`
/// or `warning`), the message, the label, the help and notes.
pub fn to_json(sources: &Sources, errors: &[Error]) -> serde_json::Value {
    use codespan_reporting::files::Files;
    let files = sources.files();
    let place = |file: usize, byte: usize| {
        files
            .location(file, byte)
            .map(|l| (l.line_number, l.column_number))
            .unwrap_or((1, 1))
    };
    let list: Vec<serde_json::Value> = errors
        .iter()
        .map(|error| {
            let (line, column) = place(error.file, error.span.start);
            let (end_line, end_column) = place(error.file, error.span.end);
            let name = files
                .get(error.file)
                .map(|f| f.name().clone())
                .unwrap_or_default();
            serde_json::json!({
                "file": name,
                "file_index": error.file,
                "line": line,
                "column": column,
                "end_line": end_line,
                "end_column": end_column,
                "start": error.span.start,
                "end": error.span.end,
                "code": error.code.as_str(),
                "severity": error.severity().as_str(),
                "message": error.message,
                "label": error.label,
                "help": error.help,
                "notes": error.notes,
            })
        })
        .collect();
    serde_json::Value::Array(list)
}
