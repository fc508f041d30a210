//! The tokens of a rules file as the formatter sees them: words, numbers,
//! strings, punctuation and comments, each with the line breaks before it.
//!
//! The grammar hides whitespace and comments (`WHITESPACE` and `COMMENT` are
//! silent), so the pest tree cannot give them back; this lexer reads them
//! from the text. It only has to split *valid* text (the formatter runs on
//! files that parse) and it is conservative: a word is everything an
//! identifier may hold (letters, digits, `_`, inner hyphens), so a token the
//! grammar reads as several (`8x8`, `board-squares`) stays one word and is
//! printed unchanged. The formatter only ever changes the whitespace between
//! tokens, and checks afterwards that the parse is the same.

/// What a token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenKind {
    /// A name or keyword (`piece`, `move-only`, `last-1`, `e4`).
    Word,
    /// A number, maybe signed or with a fraction (`8`, `-1`, `5.5`).
    Number,
    /// A quoted string, quotes included.
    String,
    /// Punctuation (`(`, `,`, `..`, `=>`, `+`, ...).
    Punct,
    /// A `#` comment, without the line break that ends it.
    Comment,
}

/// One token of the source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token<'a> {
    /// What it is.
    pub kind: TokenKind,
    /// Its text (a comment's without trailing whitespace).
    pub text: &'a str,
    /// Its first byte in the source.
    pub start: usize,
    /// How many line breaks the whitespace before it holds.
    pub newlines_before: usize,
}

/// Two-character punctuation, tried before single characters.
const DOUBLE_PUNCT: [&str; 5] = ["=>", "<=", ">=", "==", ".."];

/// Splits `source` into tokens.
pub fn tokens(source: &str) -> Vec<Token<'_>> {
    let bytes = source.as_bytes();
    let mut tokens = Vec::new();
    let mut position = 0;
    let mut newlines = 0;
    while position < bytes.len() {
        let byte = bytes[position];
        if byte == b'\n' {
            newlines += 1;
            position += 1;
            continue;
        }
        if byte.is_ascii_whitespace() {
            position += 1;
            continue;
        }
        let start = position;
        let (kind, end) = match byte {
            b'#' => (TokenKind::Comment, line_end(bytes, start)),
            b'"' => (TokenKind::String, string_end(bytes, start)),
            b if b.is_ascii_alphabetic() || b == b'_' => (TokenKind::Word, word_end(bytes, start)),
            // Digits followed by a letter make a name (the variant id `3check`).
            b if b.is_ascii_digit() => {
                let end = number_end(bytes, start);
                if bytes
                    .get(end)
                    .is_some_and(|b| b.is_ascii_alphabetic() || *b == b'_')
                {
                    (TokenKind::Word, word_end(bytes, start))
                } else {
                    (TokenKind::Number, end)
                }
            }
            b'-' if bytes.get(start + 1).is_some_and(u8::is_ascii_digit) => {
                (TokenKind::Number, number_end(bytes, start + 1))
            }
            _ => (TokenKind::Punct, punct_end(source, start)),
        };
        let mut text = &source[start..end];
        if kind == TokenKind::Comment {
            text = text.trim_end();
        }
        tokens.push(Token {
            kind,
            text,
            start,
            newlines_before: newlines,
        });
        newlines = 0;
        position = end;
    }
    tokens
}

fn line_end(bytes: &[u8], start: usize) -> usize {
    bytes[start..]
        .iter()
        .position(|b| *b == b'\n')
        .map_or(bytes.len(), |offset| start + offset)
}

/// The end of a string starting at `start` (strings never span lines).
fn string_end(bytes: &[u8], start: usize) -> usize {
    let mut position = start + 1;
    while position < bytes.len() && bytes[position] != b'"' && bytes[position] != b'\n' {
        position += 1;
    }
    if bytes.get(position) == Some(&b'"') {
        position + 1
    } else {
        position
    }
}

/// Letters, digits, `_`, and hyphens followed by a letter or digit: the
/// characters of an identifier (`ident_raw` in the grammar).
fn word_end(bytes: &[u8], start: usize) -> usize {
    let mut position = start + 1;
    loop {
        match bytes.get(position) {
            Some(b) if b.is_ascii_alphanumeric() || *b == b'_' => position += 1,
            Some(b'-')
                if bytes
                    .get(position + 1)
                    .is_some_and(u8::is_ascii_alphanumeric) =>
            {
                position += 1
            }
            _ => return position,
        }
    }
}

/// Digits, then a fraction if a `.` is followed by a digit (`1..3` is a
/// range, not a fraction).
fn number_end(bytes: &[u8], start: usize) -> usize {
    let digits_end = |from: usize| {
        from + bytes[from..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count()
    };
    let end = digits_end(start);
    if bytes.get(end) == Some(&b'.') && bytes.get(end + 1).is_some_and(u8::is_ascii_digit) {
        digits_end(end + 1)
    } else {
        end
    }
}

fn punct_end(source: &str, start: usize) -> usize {
    let rest = &source[start..];
    if DOUBLE_PUNCT.iter().any(|p| rest.starts_with(p)) {
        return start + 2;
    }
    start + rest.chars().next().map_or(1, char::len_utf8)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(source: &str) -> Vec<&str> {
        tokens(source).into_iter().map(|t| t.text).collect()
    }

    #[test]
    fn ranges_offsets_and_fractions_split_where_the_grammar_does() {
        assert_eq!(texts("ranks 1..3"), ["ranks", "1", "..", "3"]);
        assert_eq!(texts("leap (-1,2)"), ["leap", "(", "-1", ",", "2", ")"]);
        assert_eq!(texts("value 5.5 moves"), ["value", "5.5", "moves"]);
        assert_eq!(texts("rank last-1"), ["rank", "last-1"]);
        assert_eq!(texts("a - b"), ["a", "-", "b"]);
        assert_eq!(texts("=> win"), ["=>", "win"]);
    }

    #[test]
    fn comments_and_strings_are_single_tokens() {
        let all = tokens("piece k \"K #\" # a comment  \n  moves x");
        assert_eq!(all[2].text, "\"K #\"");
        assert_eq!(all[3].kind, TokenKind::Comment);
        assert_eq!(all[3].text, "# a comment");
        assert_eq!(all[4].newlines_before, 1);
    }
}
