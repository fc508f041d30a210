//! The tokens of a game record, read with `logos`.

use logos::Logos;

/// A token of a record.
#[derive(Logos, Clone, Debug, PartialEq, Eq)]
#[logos(skip r"[ \t\r\n]+")]
#[logos(skip r";[^\n]*")]
pub enum Token {
    /// `[Name "value"]`.
    #[regex(r#"\[[A-Za-z0-9_]+[ \t]+"([^"\\\n]|\\.)*"\]"#)]
    Tag,
    /// `12.` or `12...`.
    #[regex(r"[0-9]+\.(\.\.)?")]
    MoveNumber,
    /// A numeric annotation glyph (`$1`), read and skipped.
    #[regex(r"\$[0-9]+")]
    Nag,
    /// `(`: the start of a variation (a line not played), skipped.
    #[token("(")]
    VariationStart,
    /// `)`: the end of a variation.
    #[token(")")]
    VariationEnd,
    /// `{...}`: a comment, or `{emt SECONDS}`, the time a move took. A
    /// backslash escapes the next character (`\}` does not end it).
    #[regex(r"\{([^}\\]|\\(.|\n))*\}")]
    Comment,
    /// The result: scores such as `1-0`, `1/2-1/2`, `2-0`, `3-1`, or `*`.
    #[regex(r"([0-9]+(\+1/2)?|1/2)-([0-9]+(\+1/2)?|1/2)")]
    #[token("*")]
    Result,
    /// An action of the side to move.
    #[token("claim")]
    #[token("offer")]
    #[token("accept")]
    #[token("resign")]
    #[token("wait")]
    Action,
    /// A Roman number after an en passant capture (A12: `exf6 II`).
    #[regex(r"[IVXLC]+", priority = 20)]
    Roman,
    /// A move in SAN or long algebraic, marks included (`R'xe5+`, `Qxe8*`,
    /// `O-O-O#`, `c1^e4`, `e8=N>d6`), drops (`P@e4`) and gating (`Nc3/H`,
    /// `O-O/Eh1`).
    #[regex(r"[A-Za-z][A-Za-z0-9'=>^x+#*!?@/-]*")]
    Move,
}

/// A 1-based line and column of a byte offset of `text`.
pub fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before
        .rsplit('\n')
        .next()
        .map_or(0, |last| last.chars().count())
        + 1;
    (line, column)
}

/// The tokens of `text` with their byte spans, or the offset of the first
/// text no token matches.
pub fn tokens(text: &str) -> Result<Vec<(Token, std::ops::Range<usize>)>, usize> {
    let mut lexer = Token::lexer(text);
    let mut out = Vec::new();
    while let Some(token) = lexer.next() {
        match token {
            Ok(token) => out.push((token, lexer.span())),
            Err(()) => return Err(lexer.span().start),
        }
    }
    Ok(out)
}

/// The Roman numeral of `n` (`II`, `XIV`); empty for 0.
pub fn roman(mut n: u32) -> String {
    const NUMERALS: [(u32, &str); 13] = [
        (1000, "M"),
        (900, "CM"),
        (500, "D"),
        (400, "CD"),
        (100, "C"),
        (90, "XC"),
        (50, "L"),
        (40, "XL"),
        (10, "X"),
        (9, "IX"),
        (5, "V"),
        (4, "IV"),
        (1, "I"),
    ];
    let mut out = String::new();
    for (value, text) in NUMERALS {
        while n >= value {
            out.push_str(text);
            n -= value;
        }
    }
    out
}
