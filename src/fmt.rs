//! The canonical formatter of rules files (`varc fmt`, and formatting in
//! `varc lsp`).
//!
//! The file is parsed first (a file that does not parse is not formatted:
//! its diagnostic is returned); the parse gives where statements start, the
//! `lexer` gives the tokens and comments, and `layout` prints them. The
//! formatter only changes whitespace; as a safeguard the output is parsed
//! again and must give the same syntax tree, token for token.
//!
//! Unlike lowering and the language server, the formatter reads the pest
//! parse, not the typed tree of [`crate::ast`]: it needs where every
//! statement starts and, for its safeguard, every grammar node with the
//! words of its leaves (keywords included), which the typed tree drops by
//! design; comments come from the lexer either way.

mod layout;
mod lexer;

use crate::error::{Code, Error, Span};
use crate::syntax::{self, Node, Rule};
use std::collections::BTreeSet;

pub use layout::INDENT;

/// Formats the rules text `source` of file `file` (an id for diagnostics).
/// A file that does not parse gives its syntax error.
// Errors are the cold path and are collected by value everywhere else.
#[allow(clippy::result_large_err)]
pub fn format(file: usize, source: &str) -> Result<String, Error> {
    let root = syntax::parse(file, source)?;
    let starts = statement_starts(&root);
    let tokens = lexer::tokens(source);
    let formatted = layout::print(&tokens, &starts);
    check_same_tree(file, &root, &formatted)?;
    Ok(formatted)
}

/// Whether `source` is already in canonical form (false if it does not parse).
pub fn is_formatted(source: &str) -> bool {
    format(0, source).is_ok_and(|formatted| formatted == source)
}

/// The first byte of the header and of every statement.
fn statement_starts(root: &Node<'_>) -> BTreeSet<usize> {
    root.clone()
        .into_inner()
        .filter(|node| matches!(node.as_rule(), Rule::header | Rule::statement))
        .map(|node| node.as_span().start())
        .collect()
}

/// Parses `formatted` and compares its tree with `original`'s: the same
/// rules in the same order, and the same text at every leaf. A difference
/// is a bug of the formatter, reported rather than written to disk.
#[allow(clippy::result_large_err)]
fn check_same_tree(file: usize, original: &Node<'_>, formatted: &str) -> Result<(), Error> {
    let internal = |what: &str| {
        Error::new(
            Code::FormatterChangedMeaning,
            file,
            Span::at(0),
            format!("internal error: formatting would {what}; the file is left unchanged"),
        )
        .with_help("please report this file to the varc maintainers")
    };
    let reparsed = syntax::parse(file, formatted).map_err(|_| internal("not parse"))?;
    if tree_shape(original) != tree_shape(&reparsed) {
        return Err(internal("change the meaning of the file"));
    }
    Ok(())
}

/// Every node in order, with the tokens of leaves (a leaf such as
/// `c_no_legal_moves` holds several words, and the whitespace and comments
/// between them).
fn tree_shape<'a>(root: &Node<'a>) -> Vec<(Rule, Option<Vec<&'a str>>)> {
    root.clone()
        .into_inner()
        .flatten()
        .map(|node| {
            let leaf = node.clone().into_inner().next().is_none();
            let words = leaf.then(|| {
                lexer::tokens(node.as_str())
                    .into_iter()
                    .filter(|token| token.kind != lexer::TokenKind::Comment)
                    .map(|token| token.text)
                    .collect()
            });
            (node.as_rule(), words)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spacing_is_normalised_and_comments_kept() {
        let source = "# top\n\n\n variant v   \"V\"\nboard 8 x 8 # size\npiece king \"K\" royal moves leap ( 0 , 1 )+leap (1,1)\n   # before the rank\nregion r = ranks 1 .. 2\n";
        let formatted = format(0, source).expect("formats");
        assert_eq!(
            formatted,
            "# top\n\nvariant v \"V\"\nboard 8 x 8  # size\npiece king \"K\" royal moves leap (0,1) + leap (1,1)\n# before the rank\nregion r = ranks 1..2\n"
        );
        assert_eq!(format(0, &formatted).as_deref(), Ok(formatted.as_str()));
    }

    #[test]
    fn continuation_lines_are_indented_and_statements_split() {
        let source =
            "variant v board 8 x 8\npiece p \"P\" moves\n  leap (0,1)\n        + leap (1,1)\n";
        let formatted = format(0, source).expect("formats");
        assert_eq!(
            formatted,
            "variant v\nboard 8 x 8\npiece p \"P\" moves\n    leap (0,1)\n    + leap (1,1)\n"
        );
    }

    #[test]
    fn a_file_that_does_not_parse_is_not_formatted() {
        assert!(format(0, "variant v\npromote ro").is_err());
    }
}
