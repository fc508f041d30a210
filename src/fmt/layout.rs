//! Printing tokens in the canonical layout.
//!
//! The layout, decided once:
//! - every statement (and the header) starts a line at column 0;
//! - the author's line breaks inside a statement are kept, and each
//!   continuation line is indented by [`INDENT`] (a long `piece` or
//!   `castling` statement reads best broken where its author broke it, so
//!   the formatter does not re-flow lines);
//! - one space between tokens, none inside parentheses, before `,` and `:`,
//!   around `..`, or after the comma of an offset (`(1,2)`);
//! - a comment on its own line is indented like the code it precedes; a
//!   comment after code on a line is kept there, two spaces after it;
//! - runs of blank lines become one blank line; none at the start, and the
//!   file ends with exactly one line break.
//!
//! Tokens are never changed, so the same tokens in the same statements give
//! the same output whatever the spacing: the layout is idempotent.

use super::lexer::{Token, TokenKind};
use std::collections::BTreeSet;

/// The indentation of a statement's continuation lines.
pub const INDENT: &str = "    ";

/// Prints `tokens`; `statement_starts` holds the first byte of the header
/// and of every statement.
pub fn print(tokens: &[Token<'_>], statement_starts: &BTreeSet<usize>) -> String {
    let mut out = String::new();
    for (index, token) in tokens.iter().enumerate() {
        let starts_statement = statement_starts.contains(&token.start);
        let previous = index.checked_sub(1).map(|i| &tokens[i]);
        match previous {
            None => out.push_str(&indentation(tokens, index, statement_starts)),
            Some(previous) => {
                let trailing_comment = token.kind == TokenKind::Comment
                    && token.newlines_before == 0
                    && previous.kind != TokenKind::Comment;
                let same_line = !starts_statement
                    && token.newlines_before == 0
                    && previous.kind != TokenKind::Comment;
                if trailing_comment {
                    out.push_str("  ");
                } else if same_line {
                    if wants_space(tokens, index) {
                        out.push(' ');
                    }
                } else {
                    out.push('\n');
                    if token.newlines_before >= 2 {
                        out.push('\n');
                    }
                    out.push_str(&indentation(tokens, index, statement_starts));
                }
            }
        }
        out.push_str(token.text);
    }
    if !out.is_empty() {
        out.push('\n');
    }
    out
}

/// The indentation of a line starting with `tokens[index]`: none before a
/// statement (or the end of the file), [`INDENT`] inside one. A comment
/// line belongs with the code after it.
fn indentation(tokens: &[Token<'_>], index: usize, statement_starts: &BTreeSet<usize>) -> String {
    let next_code = tokens[index..]
        .iter()
        .find(|token| token.kind != TokenKind::Comment);
    match next_code {
        Some(code) if !statement_starts.contains(&code.start) => INDENT.to_string(),
        _ => String::new(),
    }
}

/// Whether a space separates `tokens[index]` from the token before it on
/// the same line.
fn wants_space(tokens: &[Token<'_>], index: usize) -> bool {
    let token = &tokens[index];
    let previous = &tokens[index - 1];
    if previous.text == "(" || previous.text == ".." || token.text == ".." {
        return false;
    }
    if matches!(token.text, ")" | "," | ":") {
        return false;
    }
    !is_offset_comma(tokens, index - 1)
}

/// Whether `tokens[comma]` is the comma of an offset `(dx,dy)`, which the
/// bundled variants write without a space.
fn is_offset_comma(tokens: &[Token<'_>], comma: usize) -> bool {
    let text = |i: Option<usize>| i.and_then(|i| tokens.get(i)).map(|t| (t.kind, t.text));
    text(Some(comma)) == Some((TokenKind::Punct, ","))
        && matches!(text(comma.checked_sub(1)), Some((TokenKind::Number, _)))
        && text(comma.checked_sub(2)) == Some((TokenKind::Punct, "("))
        && matches!(text(Some(comma + 1)), Some((TokenKind::Number, _)))
        && text(Some(comma + 2)) == Some((TokenKind::Punct, ")"))
}
