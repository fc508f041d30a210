//! Phase 1: the pest grammar (`grammar/rules.pest`) turns source text into a
//! concrete syntax tree whose nodes carry byte spans.

use crate::error::{Code, Error, Span};
use pest::Parser;

mod incomplete;

/// The generated parser of `grammar/rules.pest`.
#[derive(pest_derive::Parser)]
#[grammar = "../grammar/rules.pest"]
pub struct RulesParser;

/// A node of the syntax tree.
pub type Node<'a> = pest::iterators::Pair<'a, Rule>;

/// Parses one rules file into its `file` node.
// Errors are the cold path and are collected by value everywhere else.
#[allow(clippy::result_large_err)]
pub fn parse(file: usize, source: &str) -> Result<Node<'_>, Error> {
    let mut pairs = match RulesParser::parse(Rule::file, source) {
        Ok(pairs) => pairs,
        Err(_) => return Err(syntax_error(file, source, parse_with_detail(source))),
    };
    let root = pairs
        .next()
        .ok_or_else(|| Error::new(Code::NoRules, file, Span::at(0), "the file is empty"))?;
    check_nesting(file, &root)?;
    check_strings(file, &root)?;
    Ok(root)
}

/// Parses one rules file into its typed syntax tree.
#[allow(clippy::result_large_err)]
pub fn parse_file(file: usize, source: &str) -> Result<crate::ast::File, Error> {
    crate::ast::build(file, parse(file, source)?)
}

/// Parses `source`, known not to parse, again with pest's parse attempts
/// recorded (the literal tokens expected where parsing stopped, which name
/// what an incomplete statement lacks). Recording costs several times the
/// parse, so it is for the error path only. pest's switch is global: the
/// lock keeps it on for the whole of one such parse; a parse on another
/// thread meanwhile records too, which only makes it slower.
fn parse_with_detail(source: &str) -> pest::error::Error<Rule> {
    static DETAIL: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let guard = DETAIL
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    pest::set_error_detail(true);
    let result = RulesParser::parse(Rule::file, source);
    pest::set_error_detail(false);
    drop(guard);
    match result {
        Err(error) => error,
        // Cannot happen (the same text failed a moment ago); still an error.
        Ok(_) => pest::error::Error::new_from_pos(
            pest::error::ErrorVariant::CustomError {
                message: "the file could not be read".to_string(),
            },
            pest::Position::from_start(source),
        ),
    }
}

/// Whether `c` may not appear in a string of a rules file: control
/// characters (ESC, CR, BEL, NUL, tab, ...), bidirectional embeddings,
/// overrides and isolates (U+202A-U+202E, U+2066-U+2069) and the Unicode
/// line and paragraph separators. Strings become display names, reasons
/// and award names, which `check`, `replay` and `play` print on terminals
/// (`ESC[2J` clears the screen, an override reorders what is shown), engines
/// send over UCI and XBoard (a CR starts a forged protocol line) and
/// records write on one line.
pub fn is_unsafe_in_text(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{2028}' | '\u{2029}')
}

/// A name for an unsafe character in a diagnostic (`U+001B (escape)`).
fn describe_char(c: char) -> String {
    let name = match c {
        '\0' => "null",
        '\u{7}' => "bell",
        '\u{8}' => "backspace",
        '\t' => "tab",
        '\r' => "carriage return",
        '\u{1b}' => "escape",
        '\u{7f}' => "delete",
        '\u{202A}'..='\u{202E}' => "bidirectional embedding or override",
        '\u{2066}'..='\u{2069}' => "bidirectional isolate",
        '\u{2028}' => "line separator",
        '\u{2029}' => "paragraph separator",
        _ => "control character",
    };
    format!("U+{:04X} ({name})", c as u32)
}

/// Rejects the first string that holds a character [`is_unsafe_in_text`],
/// pointing at the character. Checked once here, on the syntax tree, so
/// that every string (names, reasons, award names, messages) is covered,
/// whatever statement it belongs to.
#[allow(clippy::result_large_err)]
fn check_strings(file: usize, root: &Node<'_>) -> Result<(), Error> {
    for node in root.clone().into_inner().flatten() {
        if node.as_rule() != Rule::string {
            continue;
        }
        let start = node.as_span().start();
        if let Some((offset, c)) = node
            .as_str()
            .char_indices()
            .find(|(_, c)| is_unsafe_in_text(*c))
        {
            let at = start + offset;
            return Err(Error::new(
                Code::UnsafeCharacter,
                file,
                Span::new(at, at + c.len_utf8()),
                format!("control character {} in a string", describe_char(c)),
            )
            .with_label("not allowed in text")
            .with_help(
                "remove it: names, reasons and messages are printed on terminals and sent \
                 to engine protocols, where such characters rewrite the screen or forge lines",
            ));
        }
    }
    Ok(())
}

/// The deepest nesting of syntax nodes accepted. Real variants stay below
/// 30; the limit keeps the recursive lowering of a crafted file (thousands
/// of nested parentheses, `not`s or `if`s) within a small thread stack.
pub const MAX_NESTING: usize = 128;

/// Rejects a tree nested deeper than [`MAX_NESTING`] (an iterative walk).
#[allow(clippy::result_large_err)]
fn check_nesting(file: usize, root: &Node<'_>) -> Result<(), Error> {
    let mut depth = 0usize;
    for token in root.clone().tokens() {
        match token {
            pest::Token::Start { pos, .. } => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Err(too_deep(file, pos.pos()));
                }
            }
            pest::Token::End { .. } => depth = depth.saturating_sub(1),
        }
    }
    Ok(())
}

fn too_deep(file: usize, position: usize) -> Error {
    Error::new(
        Code::NestedTooDeeply,
        file,
        Span::at(position),
        "the rules are nested too deeply",
    )
    .with_label("too many levels of parentheses, `not` or `if` here")
    .with_help("split the expression: name its parts as regions, pieces or labelled rules")
}

fn syntax_error(file: usize, source: &str, error: pest::error::Error<Rule>) -> Error {
    let span = match error.location {
        pest::error::InputLocation::Pos(p) => Span::at(p),
        pest::error::InputLocation::Span((a, b)) => Span::new(a, b),
    };
    if let Some(error) = unterminated_string(file, source, span.start) {
        return error;
    }
    if let Some(error) = incomplete::statement_error(file, source, &error) {
        return error;
    }
    let (message, label) = match &error.variant {
        pest::error::ErrorVariant::ParsingError { positives, .. } => {
            let mut expected: Vec<String> = positives.iter().filter_map(|r| describe(*r)).collect();
            expected.sort();
            expected.dedup();
            match expected.len() {
                0 => (
                    "unexpected text".to_string(),
                    "not understood here".to_string(),
                ),
                1 => (
                    format!("expected {}", expected[0]),
                    format!("expected {} here", expected[0]),
                ),
                _ => {
                    let last = expected.pop().unwrap_or_default();
                    let list = format!("{} or {}", expected.join(", "), last);
                    (
                        format!("expected {list}"),
                        "not understood here".to_string(),
                    )
                }
            }
        }
        pest::error::ErrorVariant::CustomError { message } if message.contains("limit reached") => {
            return too_deep(file, span.start);
        }
        pest::error::ErrorVariant::CustomError { message } => (message.clone(), String::new()),
    };
    Error::new(Code::Syntax, file, span, message).with_label(label)
}

/// A parse that fails at a `"` with no closing quote on its line: the string
/// is unterminated (strings cannot span lines).
fn unterminated_string(file: usize, source: &str, position: usize) -> Option<Error> {
    let rest = source.get(position..)?.strip_prefix('"')?;
    let line = rest.split('\n').next().unwrap_or(rest);
    if line.contains('"') {
        return None;
    }
    let end = position + 1 + line.trim_end().len();
    Some(
        Error::new(
            Code::UnterminatedString,
            file,
            Span::new(position, end),
            "unterminated string",
        )
        .with_label("this string is not closed on its line")
        .with_help("add the closing `\"`; a string cannot run over several lines"),
    )
}

/// What a grammar rule is called in an error message; `None` hides it.
pub(crate) fn describe(rule: Rule) -> Option<String> {
    let text = match rule {
        Rule::EOI => "the end of the file",
        Rule::header => "`variant NAME` at the start of the file",
        Rule::statement | Rule::body => "a statement (board, region, piece, promote, ...)",
        Rule::ident | Rule::label => "a name",
        Rule::int => "a number",
        Rule::signed_int => "a whole number",
        Rule::number => "a number",
        Rule::string => "a quoted string",
        Rule::square => "a square such as `e4`",
        Rule::file_letter => "a file letter",
        Rule::move_expr | Rule::move_term | Rule::move_atom => "a movement (a piece name, `leap (1,2)`, `ride (0,1)`, `betza \"...\"`)",
        Rule::move_modifier => "a movement modifier",
        Rule::offset => "an offset such as `(1,2)`",
        Rule::region_expr | Rule::region_term => "a region (`rank 8`, `ranks 1..3`, `files a..c`, `squares d4 e5`, a region name)",
        Rule::condition | Rule::cond_atom | Rule::cond_unary | Rule::cond_and => "a condition",
        Rule::outcome => "an outcome (`win for PLAYER`, `loss for PLAYER`, `draw`, `null-game`, `if ... then ... else ...`)",
        Rule::player => "a player (`side-to-move`, `opponent`, `mover`, `white`, `black`)",
        Rule::comparison => "a comparison (`<`, `<=`, `==`, `>=`, `>`)",
        Rule::event | Rule::event_atom | Rule::event_list => "an event (capture, en-passant, promotion, castle, ...)",
        Rule::castling_side => "`short king to FILE rook to FILE` or `long ...`",
        Rule::promote_option => "a promotion option (mandatory, optional, delayed)",
        Rule::castling_option => "a castling condition",
        Rule::termination_option => "`reason \"...\"` or `tiebreak`",
        Rule::piece_option => "`royal`, `value N` or `moves`",
        Rule::aggregate => "`max`, `min` or a player",
        Rule::direction_word => "a direction",
        Rule::motion_kind => "`leap`, `ride`, `lame-leap` or `hop`",
        Rule::check_rule_kind => "`royal` or `none`",
        Rule::capture_rule_kind => "`compulsory` or `free`",
        Rule::drop_rule_kind => "`compulsory` or `free`",
        Rule::score_pair | Rule::score_kind => "`win`, `draw`, `loss` or `null` with its points",
        Rule::ident_list | Rule::ident_alt => "a list of names",
        _ => return None,
    };
    Some(text.to_string())
}
