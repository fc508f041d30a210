//! Errors as plain data: every phase produces [`Error`]s carrying spans into
//! source files and a stable [`Code`]; [`crate::diagnostic`] renders them
//! at the edge. Warnings are [`Error`]s whose code is a warning code.

mod code;

pub use code::{Code, Severity};

/// A byte range in one source file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Span {
    /// First byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
}

impl Span {
    /// The bytes `start..end`.
    pub fn new(start: usize, end: usize) -> Span {
        Span {
            start,
            end: end.max(start),
        }
    }

    /// A single position.
    pub fn at(position: usize) -> Span {
        Span {
            start: position,
            end: position,
        }
    }
}

impl From<pest::Span<'_>> for Span {
    /// A syntax node's span without the whitespace and comments that the
    /// grammar skips after its last token (a node ending in an optional part
    /// would otherwise underline the blank lines that follow it).
    fn from(span: pest::Span<'_>) -> Span {
        Span::new(span.start(), span.start() + trimmed_len(span.as_str()))
    }
}

/// The length of `text` without trailing whitespace and `#` comments.
/// Strings never span lines, so a `#` outside quotes on the last line starts
/// a comment.
pub(crate) fn trimmed_len(text: &str) -> usize {
    let mut len = text.trim_end().len();
    loop {
        let line_start = text[..len].rfind('\n').map_or(0, |i| i + 1);
        match comment_start(&text[line_start..len]) {
            Some(i) => len = text[..line_start + i].trim_end().len(),
            None => return len,
        }
    }
}

/// Where the `#` comment of one line starts, if it has one: a `#` outside
/// quotes (strings never span lines).
pub(crate) fn comment_start(line: &str) -> Option<usize> {
    let mut in_string = false;
    line.char_indices().find_map(|(i, c)| match c {
        '"' => {
            in_string = !in_string;
            None
        }
        '#' if !in_string => Some(i),
        _ => None,
    })
}

/// A problem found in a rules file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// What kind of problem it is (and so whether an error or a warning).
    pub code: Code,
    /// The file (an id of [`crate::load::Sources`]).
    pub file: usize,
    /// Where the problem is.
    pub span: Span,
    /// What is wrong, in one line.
    pub message: String,
    /// Text under the primary span.
    pub label: String,
    /// Other places that explain the problem (a first definition, say).
    pub secondary: Vec<(usize, Span, String)>,
    /// A likely fix.
    pub help: Option<String>,
    /// Further explanation.
    pub notes: Vec<String>,
}

impl Error {
    /// A diagnostic of kind `code` at `span` of `file` saying `message`.
    pub fn new(code: Code, file: usize, span: Span, message: impl Into<String>) -> Error {
        Error {
            code,
            file,
            span,
            message: message.into(),
            label: String::new(),
            secondary: Vec::new(),
            help: None,
            notes: Vec::new(),
        }
    }

    /// Whether this is an error or a warning.
    pub fn severity(&self) -> Severity {
        self.code.severity()
    }

    /// Sets the text under the primary span.
    pub fn with_label(mut self, label: impl Into<String>) -> Error {
        self.label = label.into();
        self
    }

    /// Adds a secondary span with its text.
    pub fn with_secondary(mut self, file: usize, span: Span, label: impl Into<String>) -> Error {
        self.secondary.push((file, span, label.into()));
        self
    }

    /// Sets the help line.
    pub fn with_help(mut self, help: impl Into<String>) -> Error {
        self.help = Some(help.into());
        self
    }

    /// Adds a note.
    pub fn with_note(mut self, note: impl Into<String>) -> Error {
        self.notes.push(note.into());
        self
    }
}

/// The known name closest to `name`, if it is close enough to be a likely typo.
pub fn nearest<'a>(name: &str, known: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    known
        .into_iter()
        .map(|candidate| (edit_distance(name, candidate), candidate))
        .filter(|(distance, candidate)| *distance <= (name.len().max(candidate.len()) / 3).max(1))
        // Ties go to the first name in order, whatever order `known` is in.
        .min_by_key(|(distance, candidate)| (*distance, *candidate))
        .map(|(_, candidate)| candidate)
}

/// Levenshtein distance between two strings, by characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut previous = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substitution = previous + usize::from(ca != *cb);
            previous = row[j + 1];
            row[j + 1] = substitution.min(row[j] + 1).min(row[j + 1] + 1);
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_spans_leave_out_trailing_comments() {
        assert_eq!(trimmed_len("leap (1,2)  # a knight\n  # more\n"), 10);
        assert_eq!(trimmed_len("say \"#1\" \n"), 8);
        assert_eq!(trimmed_len("  \n"), 0);
    }

    #[test]
    fn nearest_finds_a_typo() {
        assert_eq!(nearest("rookng", ["rooking", "knight"]), Some("rooking"));
        assert_eq!(nearest("zebra", ["rooking", "knight"]), None);
    }
}
