//! Inheritance: the statements of a variant and its ancestors merged into one
//! list, oldest ancestor first, with `drop` and `replace` applied.

use super::NameKind;
use crate::error::{nearest, Code, Error, Span};
use crate::syntax::{Node, Rule};
use std::collections::HashMap;

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
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Key {
    /// A named definition: `piece`, `region` or `counter`, and its name.
    Named(NameKind, String),
    /// A labelled statement (`irc: ...`).
    Label(String),
    /// A statement a variant has at most one of (`board`, `score`, ...).
    Singleton(&'static str),
}

impl Key {
    fn describe(&self) -> String {
        match self {
            Key::Named(kind, name) => format!("{} `{name}`", kind.word()),
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

/// The statements merged so far, indexed by key so that a long file merges
/// in linear time. A dropped statement leaves a hole, so positions (and
/// where each file's statements start) stay valid.
#[derive(Default)]
struct Statements<'a> {
    slots: Vec<Option<Item<'a>>>,
    by_key: HashMap<Key, usize>,
}

impl<'a> Statements<'a> {
    fn len(&self) -> usize {
        self.slots.len()
    }

    fn find(&self, key: &Key) -> Option<usize> {
        self.by_key.get(key).copied()
    }

    fn get(&self, index: usize) -> Option<&Item<'a>> {
        self.slots.get(index).and_then(Option::as_ref)
    }

    fn push(&mut self, item: Item<'a>) {
        if let Some(key) = &item.key {
            self.by_key.insert(key.clone(), self.slots.len());
        }
        self.slots.push(Some(item));
    }

    /// Puts `item` in the place of the statement at `index` (same key).
    fn replace(&mut self, index: usize, item: Item<'a>) {
        self.slots[index] = Some(item);
    }

    /// Removes every statement whose key satisfies `matches`; whether any was.
    fn remove(&mut self, matches: impl Fn(&Option<Key>) -> bool) -> bool {
        let mut removed = false;
        for slot in &mut self.slots {
            if slot.as_ref().is_some_and(|item| matches(&item.key)) {
                if let Some(key) = slot.take().and_then(|item| item.key) {
                    self.by_key.remove(&key);
                }
                removed = true;
            }
        }
        removed
    }

    fn iter(&self) -> impl Iterator<Item = &Item<'a>> {
        self.slots.iter().flatten()
    }
}

/// Merges the files of an `extends` chain (oldest ancestor first).
pub fn merge<'a>(files: &[(usize, Node<'a>)], errors: &mut Vec<Error>) -> (Header, Vec<Item<'a>>) {
    let mut items = Statements::default();
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
    (header, items.slots.into_iter().flatten().collect())
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
    items: &mut Statements<'a>,
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
    items: &mut Statements<'a>,
    errors: &mut Vec<Error>,
) {
    let Some(key) = item.key.clone() else {
        if let Some(span) = replace {
            errors.push(
                Error::new(
                    Code::ReplaceWithoutName,
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
    let existing = items.find(&key);
    match (existing, replace) {
        (Some(index), Some(_)) if index < first_of_file => items.replace(index, item),
        (Some(index), _) => {
            let Some(first) = items.get(index) else {
                return;
            };
            let mut error = Error::new(
                Code::DefinedTwice,
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
                    Code::NothingToReplace,
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

fn drop_item(file: usize, node: Node<'_>, items: &mut Statements<'_>, errors: &mut Vec<Error>) {
    let Some(target) = node.into_inner().next() else {
        return;
    };
    let mut kind = None;
    let mut name = None;
    for part in target.into_inner() {
        match part.as_rule() {
            Rule::kw_piece => kind = Some(NameKind::Piece),
            Rule::kw_region => kind = Some(NameKind::Region),
            Rule::kw_counter => kind = Some(NameKind::Counter),
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
    if !items.remove(matches) {
        let mut error = Error::new(
            Code::NothingToDrop,
            file,
            Span::from(name.as_span()),
            format!("nothing named `{wanted}` to drop"),
        )
        .with_label("not defined by this variant or its ancestors");
        // Suggestions cost a pass over every name: only while errors are few.
        if errors.len() < super::MAX_ERRORS {
            let known = items.iter().filter_map(|i| match &i.key {
                Some(Key::Label(l)) | Some(Key::Named(_, l)) => Some(l.as_str()),
                _ => None,
            });
            if let Some(close) = nearest(wanted, known) {
                error = error.with_help(format!("did you mean `{close}`?"));
            }
        }
        errors.push(error);
    }
}

fn key_of(body: &Node<'_>) -> (Option<Key>, Span) {
    let span = Span::from(body.as_span());
    let named = |kind: NameKind| {
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
        Rule::piece_stmt => named(NameKind::Piece),
        Rule::region_stmt => named(NameKind::Region),
        Rule::counter_stmt => named(NameKind::Counter),
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
