//! Inheritance: the statements of a variant and its ancestors merged into one
//! list, oldest ancestor first, with `drop` and `replace` applied.

use crate::error::{nearest, Error, Span};
use crate::syntax::{Node, Rule};

/// A statement that survives the merge.
#[derive(Clone)]
pub struct Item<'a> {
    /// The file it comes from.
    pub file: usize,
    /// The statement's body node (e.g. a `piece_stmt`).
    pub body: Node<'a>,
    /// What identifies it for `drop`/`replace`/duplicate checks.
    pub key: Option<Key>,
    /// Where that identity is written (the name or label).
    pub key_span: Span,
}

/// The identity of a statement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Key {
    /// A named definition: `piece`, `region` or `counter`, and its name.
    Named(&'static str, String),
    /// A labelled statement (`irc: ...`).
    Label(String),
    /// A statement a variant has at most one of (`board`, `score`, ...).
    Singleton(&'static str),
}

impl Key {
    fn describe(&self) -> String {
        match self {
            Key::Named(kind, name) => format!("{kind} `{name}`"),
            Key::Label(label) => format!("the rule labelled `{label}`"),
            Key::Singleton(kind) => format!("the `{kind}` statement"),
        }
    }
}

/// The variant's header: its id and display name.
pub struct Header {
    /// The identifier after `variant`.
    pub id: String,
    /// The quoted display name, or the id.
    pub name: String,
}

/// Merges the files of an `extends` chain (oldest ancestor first).
pub fn merge<'a>(files: &[(usize, Node<'a>)], errors: &mut Vec<Error>) -> (Header, Vec<Item<'a>>) {
    let mut items: Vec<Item<'a>> = Vec::new();
    let mut header = Header {
        id: String::new(),
        name: String::new(),
    };
    for (file, root) in files {
        let file = *file;
        let first_of_file = items.len();
        for node in root.clone().into_inner() {
            match node.as_rule() {
                Rule::header => header = read_header(node),
                Rule::statement => merge_statement(file, node, first_of_file, &mut items, errors),
                _ => {}
            }
        }
    }
    (header, items)
}

fn read_header(node: Node<'_>) -> Header {
    let mut parts = node.into_inner();
    let id = parts
        .next()
        .map(|n| n.as_str().to_string())
        .unwrap_or_default();
    let name = parts
        .find(|n| n.as_rule() == Rule::string)
        .map(|n| string_value(&n))
        .unwrap_or_else(|| id.clone());
    Header { id, name }
}

/// The text inside a `string` node's quotes.
pub fn string_value(node: &Node<'_>) -> String {
    node.clone()
        .into_inner()
        .next()
        .map(|n| n.as_str().to_string())
        .unwrap_or_default()
}

fn merge_statement<'a>(
    file: usize,
    statement: Node<'a>,
    first_of_file: usize,
    items: &mut Vec<Item<'a>>,
    errors: &mut Vec<Error>,
) {
    let mut replace = None;
    let mut label = None;
    for part in statement.into_inner() {
        match part.as_rule() {
            Rule::drop_statement => return drop_item(file, part, items, errors),
            Rule::replace_marker => replace = Some(Span::from(part.as_span())),
            Rule::label => label = Some(part),
            Rule::body => {
                let Some(body) = part.into_inner().next() else {
                    return;
                };
                let (key, key_span) = match &label {
                    Some(l) => (
                        Some(Key::Label(l.as_str().to_string())),
                        Span::from(l.as_span()),
                    ),
                    None => key_of(&body),
                };
                let item = Item {
                    file,
                    body,
                    key,
                    key_span,
                };
                place(item, replace, first_of_file, items, errors);
                return;
            }
            _ => {}
        }
    }
}

/// Adds `item`, replacing an inherited one if asked, reporting duplicates.
fn place<'a>(
    item: Item<'a>,
    replace: Option<Span>,
    first_of_file: usize,
    items: &mut Vec<Item<'a>>,
    errors: &mut Vec<Error>,
) {
    let Some(key) = item.key.clone() else {
        if let Some(span) = replace {
            errors.push(
                Error::new(
                    item.file,
                    span,
                    "`replace` needs a statement with a name or a label",
                )
                .with_label("nothing identifies what to replace")
                .with_help("label the inherited rule (`name: ...`) and write `replace name: ...`"),
            );
        }
        items.push(item);
        return;
    };
    let existing = items.iter().position(|i| i.key.as_ref() == Some(&key));
    match (existing, replace) {
        (Some(index), Some(_)) if index < first_of_file => items[index] = item,
        (Some(index), _) => {
            let first = &items[index];
            let mut error = Error::new(
                item.file,
                item.key_span,
                format!("{} is defined twice", key.describe()),
            )
            .with_label("defined again here")
            .with_secondary(first.file, first.key_span, "first defined here");
            error = if index < first_of_file {
                error.with_help("to change an inherited definition, write `replace` before it")
            } else {
                error.with_help("remove one of the two, or give one another name")
            };
            errors.push(error);
        }
        (None, Some(span)) => {
            errors.push(
                Error::new(
                    item.file,
                    span,
                    format!("nothing to replace: {} is not inherited", key.describe()),
                )
                .with_label("`replace` changes an inherited definition")
                .with_help("remove `replace` to add a new definition"),
            );
            items.push(item);
        }
        (None, None) => items.push(item),
    }
}

fn drop_item(file: usize, node: Node<'_>, items: &mut Vec<Item<'_>>, errors: &mut Vec<Error>) {
    let Some(target) = node.into_inner().next() else {
        return;
    };
    let mut kind = None;
    let mut name = None;
    for part in target.into_inner() {
        match part.as_rule() {
            Rule::kw_piece => kind = Some("piece"),
            Rule::kw_region => kind = Some("region"),
            Rule::kw_counter => kind = Some("counter"),
            Rule::ident => name = Some(part),
            _ => {}
        }
    }
    let Some(name) = name else { return };
    let wanted = name.as_str();
    let matches = |key: &Option<Key>| match (key, kind) {
        (Some(Key::Label(l)), None) => l == wanted,
        (Some(Key::Named(k, n)), Some(kind)) => *k == kind && n == wanted,
        (Some(Key::Named(_, n)), None) => n == wanted,
        (Some(Key::Singleton(s)), None) => *s == wanted,
        _ => false,
    };
    let before = items.len();
    items.retain(|i| !matches(&i.key));
    if items.len() == before {
        let known: Vec<String> = items
            .iter()
            .filter_map(|i| match &i.key {
                Some(Key::Label(l)) | Some(Key::Named(_, l)) => Some(l.clone()),
                _ => None,
            })
            .collect();
        let mut error = Error::new(
            file,
            Span::from(name.as_span()),
            format!("nothing named `{wanted}` to drop"),
        )
        .with_label("not defined by this variant or its ancestors");
        if let Some(close) = nearest(wanted, known.iter().map(String::as_str)) {
            error = error.with_help(format!("did you mean `{close}`?"));
        }
        errors.push(error);
    }
}

fn key_of(body: &Node<'_>) -> (Option<Key>, Span) {
    let span = Span::from(body.as_span());
    let named = |kind: &'static str| {
        let name = body
            .clone()
            .into_inner()
            .find(|n| n.as_rule() == Rule::ident);
        match name {
            Some(n) => (
                Some(Key::Named(kind, n.as_str().to_string())),
                Span::from(n.as_span()),
            ),
            None => (None, span),
        }
    };
    match body.as_rule() {
        Rule::piece_stmt => named("piece"),
        Rule::region_stmt => named("region"),
        Rule::counter_stmt => named("counter"),
        Rule::board_stmt => (Some(Key::Singleton("board")), span),
        Rule::setup_stmt => (Some(Key::Singleton("setup")), span),
        Rule::check_rule_stmt => (Some(Key::Singleton("check-rule")), span),
        Rule::succession_stmt => (Some(Key::Singleton("on royal-capture")), span),
        Rule::en_passant_stmt => (Some(Key::Singleton("en-passant")), span),
        Rule::agreement_stmt => (Some(Key::Singleton("agreement")), span),
        Rule::resign_stmt => (Some(Key::Singleton("resign")), span),
        Rule::tiebreak_stmt => (Some(Key::Singleton("tiebreak")), span),
        Rule::score_stmt => (Some(Key::Singleton("score")), span),
        Rule::reset_stmt => (Some(Key::Singleton("reset plies")), span),
        _ => (None, span),
    }
}
