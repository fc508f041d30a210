//! Errors inside a statement: where pest stops in the middle of a
//! statement, it reports the statement's start ("expected a statement"),
//! which is wrong. Its parse attempts say how far the statement was read
//! and which tokens could come next; with the statement's keyword this
//! names what is missing (`promote rook` lacks `to` and the pieces it
//! becomes) and shows the statement's shape.

use super::{describe, Rule};
use crate::error::{Code, Error, Span};

/// The diagnostic for a parse that stopped inside a statement, if it did.
pub(super) fn statement_error(
    file: usize,
    source: &str,
    error: &pest::error::Error<Rule>,
) -> Option<Error> {
    let attempts = error.parse_attempts()?;
    let stopped = attempts.max_position;
    let before = source.get(..stopped)?;
    let (keyword_span, keyword, shape) = enclosing_statement(source, stopped)?;
    // Where the last token before the stop ends (the stop itself is past
    // the blanks and comments that follow it).
    let last_token_end = crate::error::trimmed_len(before);
    let after_name = before.ends_with(|c: char| c.is_ascii_alphanumeric() || c == '\'');
    let deepest = attempts
        .call_stacks()
        .first()
        .and_then(|stack| stack.deepest.get_rule().copied());
    // pest does not export its token type; its display is the literal, or
    // `a..z` for a character class.
    // Reading stopped in the label of a next statement: the statement
    // before was complete, and what follows it is not understood.
    if deepest == Some(Rule::label) {
        return None;
    }
    let tokens: Vec<String> = attempts
        .expected_tokens()
        .iter()
        .map(ToString::to_string)
        .collect();
    // Only `:` expected: the word read last was taken for the label of a
    // next statement, so the statement before ended and what follows it
    // is not understood; the general message says so.
    let meaningful = |token: &&String| !token.trim().is_empty() && *token != "#";
    if tokens.iter().filter(meaningful).all(|token| token == ":") {
        return None;
    }
    let expected = expected_text(&tokens, deepest, after_name);
    let rest_of_line = source.get(stopped..)?.split('\n').next().unwrap_or("");
    let rest_of_line = rest_of_line.split('#').next().unwrap_or("").trim_end();
    let (code, message, span, label) = if rest_of_line.trim().is_empty() {
        (
            Code::IncompleteStatement,
            format!("incomplete `{keyword}` statement: expected {expected}"),
            Span::at(last_token_end),
            format!("{expected} missing here"),
        )
    } else {
        let offset = rest_of_line.len() - rest_of_line.trim_start().len();
        let word_start = stopped + offset;
        let word_len = rest_of_line
            .trim_start()
            .find(char::is_whitespace)
            .unwrap_or(rest_of_line.trim_start().len());
        (
            Code::Syntax,
            format!("in the `{keyword}` statement, expected {expected}"),
            Span::new(word_start, word_start + word_len),
            format!("expected {expected} here"),
        )
    };
    Some(
        Error::new(code, file, span, message)
            .with_label(label)
            .with_secondary(file, keyword_span, format!("this `{keyword}` statement"))
            .with_help(format!("the statement reads `{shape}`")),
    )
}

/// How many lines back the start of an unfinished statement is looked for.
const LINES_BACK: usize = 20;

/// The statement that holds byte `position`: the nearest line at or
/// before it that starts with a statement's keyword (after an optional
/// `replace` and label), with the keyword's span and the statement's shape.
fn enclosing_statement(source: &str, position: usize) -> Option<(Span, &str, &'static str)> {
    let mut line_end = position;
    for _ in 0..LINES_BACK {
        let line_start = source.get(..line_end)?.rfind('\n').map_or(0, |i| i + 1);
        let indent = source.get(line_start..)?.len()
            - source
                .get(line_start..)?
                .trim_start_matches([' ', '\t'])
                .len();
        if let Some((span, keyword)) = statement_keyword(source, line_start + indent) {
            if span.start < position {
                if let Some(shape) = shape(keyword) {
                    return Some((span, keyword, shape));
                }
            }
        }
        if line_start == 0 {
            return None;
        }
        line_end = line_start - 1;
    }
    None
}

/// The keyword of the statement starting at `start` (after an optional
/// `replace` and label) and its span.
fn statement_keyword(source: &str, start: usize) -> Option<(Span, &str)> {
    let mut position = start;
    for _ in 0..3 {
        let text = source.get(position..)?;
        let word_len = text
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
            .unwrap_or(text.len());
        let word = &text[..word_len];
        let after = text[word_len..].trim_start_matches([' ', '\t']);
        let skip = if word == "replace" {
            word_len
        } else if let Some(rest) = after.strip_prefix(':') {
            text.len() - rest.len()
        } else {
            return Some((Span::new(position, position + word_len), word));
        };
        let rest = &text[skip..];
        position += skip + (rest.len() - rest.trim_start().len());
    }
    None
}

/// What a statement looks like, by its first keyword.
fn shape(keyword: &str) -> Option<&'static str> {
    Some(match keyword {
        "variant" => "variant NAME \"Display name\" [extends NAME]",
        "board" => "board FILES x RANKS [holes SQUARES]",
        "setup" => "setup \"FEN\"",
        "region" => "region NAME = REGION [relative]",
        "piece" => "piece NAME \"LETTER\" [royal] [value N] [confined to REGION] moves MOVEMENT",
        "promote" => "promote PIECES to PIECES in REGION[, mandatory | optional | delayed][, starting or ending there]",
        "castling" => {
            "castling KING with ROOK short king to FILE rook to FILE long king to FILE rook to FILE[, CONDITIONS]"
        }
        "en-passant" => "en-passant PIECES",
        "captures" => "captures go to hand [, demoted]",
        "drops" => "drops of PIECES [onto REGION][, no two on a file]",
        "no" => "no piece may stand where it could not move",
        "check-rule" => "check-rule royal | none [, no checks] [, royals may not face each other]",
        "capture-rule" => "capture-rule compulsory | free",
        "drop-rule" => "drop-rule compulsory | free",
        "capture" => "capture explodes radius N[, except PIECES]",
        "illegal" => {
            "illegal check repeating placement from N plies ago [unless only such moves][, say \"MESSAGE\"]"
        }
        "on" => "on royal-capture game ends | on royal-capture crown PIECES as PIECE",
        "counter" => "counter NAME counts EVENTS",
        "reset" => "reset plies on EVENTS",
        "end" | "claim" => "end|claim when CONDITION => OUTCOME[, reason \"...\"][, tiebreak]",
        "award" => "award \"NAME\" N wins to PLAYER when CONDITION[, once | ends game | not with \"NAME\"]",
        "agreement" => "agreement allowed [when CONDITION] | agreement never",
        "resign" => "resign => win for opponent | resign => award N wins plus N per COUNTER to opponent",
        "tiebreak" => "tiebreak N wins: PIECE [in REGION] N, ...",
        "score" => "score by wins | score win N, draw N, loss N, null N",
        "match" => {
            "match replay null-game [same colours] | match after N null-games => win for PLAYER | match casual null-game => draw"
        }
        "drop" => "drop [piece | region | counter] NAME",
        _ => return None,
    })
}

/// "`to`, `,` or `|`", from the tokens that could come next. Tokens that
/// would only continue the name just written, whitespace and comments are
/// left out; character classes are named by the rule that wanted them.
fn expected_text(tokens: &[String], deepest: Option<Rule>, after_name: bool) -> String {
    let mut words: Vec<String> = Vec::new();
    let mut wants_class = false;
    for token in tokens {
        let is_class = token == "BUILTIN_RULE"
            || (token.chars().count() == 4 && token.chars().skip(1).take(2).eq("..".chars()));
        let blank = token.trim().is_empty() || token == "#";
        let continues_name = after_name && matches!(token.as_str(), "-" | "_" | "'");
        if is_class {
            wants_class = true;
        } else if !blank && !continues_name {
            words.push(format!("`{token}`"));
        }
    }
    // `:` after a keyword would make it a label, which is never meant.
    if words.len() > 1 {
        words.retain(|word| word != "`:`");
    }
    let rule_text = deepest.and_then(describe);
    // A long list of keywords (every movement modifier) reads worse than
    // what the rule is called.
    if words.len() > 4 {
        if let Some(text) = &rule_text {
            return text.clone();
        }
    }
    if wants_class && !after_name {
        words.push(
            rule_text
                .clone()
                .unwrap_or_else(|| "a name or a number".to_string()),
        );
    }
    match words.len() {
        0 => rule_text.unwrap_or_else(|| "more".to_string()),
        1 => words.remove(0),
        _ => {
            let last = words.pop().unwrap_or_default();
            format!("{} or {last}", words.join(", "))
        }
    }
}
