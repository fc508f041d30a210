//! Renders [`Error`]s rustc-style with codespan-reporting: the only place
//! that knows how errors look.

use crate::error::Error;
use crate::load::Sources;
use codespan_reporting::diagnostic::{Diagnostic, Label};
use codespan_reporting::term::{self, termcolor};

/// Renders `errors` as text, with colours if `color` is set.
pub fn render(sources: &Sources, errors: &[Error], color: bool) -> String {
    let mut buffer = if color {
        termcolor::Buffer::ansi()
    } else {
        termcolor::Buffer::no_color()
    };
    let config = term::Config::default();
    for error in errors {
        let diagnostic = to_diagnostic(error);
        if term::emit(&mut buffer, &config, sources.files(), &diagnostic).is_err() {
            // A span outside its file would be a bug of ours; still say what is wrong.
            buffer_line(&mut buffer, &format!("error: {}", error.message));
        }
    }
    if errors.len() > 1 {
        buffer_line(
            &mut buffer,
            &format!("error: {} problems found", errors.len()),
        );
    }
    String::from_utf8_lossy(buffer.as_slice()).into_owned()
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
    Diagnostic::error()
        .with_message(error.message.clone())
        .with_labels(labels)
        .with_notes(notes)
}
