//! Inheritance: the statements of a variant and its ancestors merged into one
//! list, oldest ancestor first, with `drop` and `replace` applied.

use super::NameKind;
use crate::ast;
use crate::error::{nearest, Code, Error, Span};
use std::collections::HashMap;

/// A statement that survives the merge.
#[derive(Clone)]
pub struct Item<'a> {
    /// The file it comes from.
    pub file: usize,
    /// The statement's body.
    pub body: &'a ast::Body,
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

    /// Removes every statement whose key satisfies `matches`, and returns them.
    fn remove(&mut self, matches: impl Fn(&Option<Key>) -> bool) -> Vec<Item<'a>> {
        let mut removed = Vec::new();
        for slot in &mut self.slots {
            if slot.as_ref().is_some_and(|item| matches(&item.key)) {
                if let Some(item) = slot.take() {
                    if let Some(key) = &item.key {
                        self.by_key.remove(key);
                    }
                    removed.push(item);
                }
            }
        }
        removed
    }

    fn iter(&self) -> impl Iterator<Item = &Item<'a>> {
        self.slots.iter().flatten()
    }
}

/// A definition that a `drop` removed: errors about the statements that
/// still name it point at the `drop` too (they are often in an ancestor,
/// and would otherwise not say which statement of the child caused them).
#[derive(Clone, Debug)]
pub struct Dropped {
    /// What kind of definition it was.
    pub kind: NameKind,
    /// Its name.
    pub name: String,
    /// The piece's letter, for a piece.
    pub letter: Option<String>,
    /// The file of the `drop` statement.
    pub file: usize,
    /// Where the `drop` names it.
    pub span: Span,
}

/// The merged statements of a variant and the definitions dropped on the way.
pub struct Merged<'a> {
    /// The variant's header (the last file's).
    pub header: Header,
    /// The statements that survive, in order.
    pub items: Vec<Item<'a>>,
    /// The definitions removed by `drop`, in file order.
    pub dropped: Vec<Dropped>,
}

/// Merges the files of an `extends` chain (oldest ancestor first).
pub fn merge<'a>(files: &'a [(usize, ast::File)], errors: &mut Vec<Error>) -> Merged<'a> {
    let mut items = Statements::default();
    let mut dropped = Vec::new();
    let mut header = Header {
        id: String::new(),
        name: String::new(),
    };
    for (file, tree) in files {
        let file = *file;
        let first_of_file = items.len();
        header = read_header(&tree.header);
        for statement in &tree.statements {
            match statement {
                ast::Statement::Drop(drop) => {
                    drop_item(file, drop, &mut items, &mut dropped, errors)
                }
                ast::Statement::Item(item) => {
                    merge_statement(file, item, first_of_file, &mut items, errors)
                }
            }
        }
    }
    Merged {
        header,
        items: items.slots.into_iter().flatten().collect(),
        dropped,
    }
}

fn read_header(header: &ast::Header) -> Header {
    let id = header.id.name.clone();
    let name = header
        .name
        .as_ref()
        .map_or_else(|| id.clone(), |name| name.value.clone());
    Header { id, name }
}

fn merge_statement<'a>(
    file: usize,
    statement: &'a ast::Item,
    first_of_file: usize,
    items: &mut Statements<'a>,
    errors: &mut Vec<Error>,
) {
    let (key, key_span) = match &statement.label {
        Some(label) => (Some(Key::Label(label.name.clone())), label.span),
        None => key_of(&statement.body),
    };
    let item = Item {
        file,
        body: &statement.body,
        key,
        key_span,
    };
    place(item, statement.replace, first_of_file, items, errors);
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

fn drop_item(
    file: usize,
    drop: &ast::DropStatement,
    items: &mut Statements<'_>,
    dropped: &mut Vec<Dropped>,
    errors: &mut Vec<Error>,
) {
    let kind = drop.kind.map(NameKind::from);
    let wanted = drop.name.name.as_str();
    let matches = |key: &Option<Key>| match (key, kind) {
        (Some(Key::Label(l)), None) => l == wanted,
        (Some(Key::Named(k, n)), Some(kind)) => *k == kind && n == wanted,
        (Some(Key::Named(_, n)), None) => n == wanted,
        (Some(Key::Singleton(s)), None) => *s == wanted,
        (Some(Key::Label(_) | Key::Singleton(_)), Some(_)) | (None, None | Some(_)) => false,
    };
    let removed = items.remove(matches);
    for item in &removed {
        if let Some(Key::Named(kind, name)) = &item.key {
            let letter = if let ast::BodyKind::Piece(piece) = &item.body.kind {
                Some(piece.letter.value.clone())
            } else {
                None
            };
            dropped.push(Dropped {
                kind: *kind,
                name: name.clone(),
                letter,
                file,
                span: drop.name.span,
            });
        }
    }
    if removed.is_empty() {
        let mut error = Error::new(
            Code::NothingToDrop,
            file,
            drop.name.span,
            format!("nothing named `{wanted}` to drop"),
        )
        .with_label("not defined by this variant or its ancestors");
        // Suggestions cost a pass over every name: only while errors are few.
        if errors.len() < super::MAX_ERRORS {
            let known = items.iter().filter_map(|i| match &i.key {
                Some(Key::Label(l)) | Some(Key::Named(_, l)) => Some(l.as_str()),
                Some(Key::Singleton(_)) | None => None,
            });
            if let Some(close) = nearest(wanted, known) {
                error = error.with_help(format!("did you mean `{close}`?"));
            }
        }
        errors.push(error);
    }
}

/// What identifies an unlabelled statement, and where that is written.
fn key_of(body: &ast::Body) -> (Option<Key>, Span) {
    let named =
        |kind: NameKind, name: &ast::Ident| (Some(Key::Named(kind, name.name.clone())), name.span);
    let singleton = |word: &'static str| (Some(Key::Singleton(word)), body.span);
    match &body.kind {
        ast::BodyKind::Piece(piece) => named(NameKind::Piece, &piece.name),
        ast::BodyKind::Region(region) => named(NameKind::Region, &region.name),
        ast::BodyKind::Counter(counter) => named(NameKind::Counter, &counter.name),
        ast::BodyKind::Board(_) => singleton("board"),
        ast::BodyKind::Setup(_) => singleton("setup"),
        ast::BodyKind::CheckRule(_) => singleton("check-rule"),
        ast::BodyKind::CaptureRule(_) => singleton("capture-rule"),
        ast::BodyKind::DropRule(_) => singleton("drop-rule"),
        ast::BodyKind::Immobility => singleton("immobility"),
        ast::BodyKind::UnmovedInFen => singleton("unmoved pieces in fen"),
        ast::BodyKind::Explosion(_) => singleton("capture explodes"),
        ast::BodyKind::Points(_) => singleton("points"),
        ast::BodyKind::Succession(_) => singleton("on royal-capture"),
        ast::BodyKind::EnPassant(_) => singleton("en-passant"),
        ast::BodyKind::Hand(_) => singleton("captures go to hand"),
        ast::BodyKind::Agreement(_) => singleton("agreement"),
        ast::BodyKind::Resign(_) => singleton("resign"),
        ast::BodyKind::Tiebreak(_) => singleton("tiebreak"),
        ast::BodyKind::Score(_) => singleton("score"),
        ast::BodyKind::Reset(_) => singleton("reset plies"),
        ast::BodyKind::Promote(_)
        | ast::BodyKind::Drops(_)
        | ast::BodyKind::Castling(_)
        | ast::BodyKind::History(_)
        | ast::BodyKind::Termination(_)
        | ast::BodyKind::Counting(_)
        | ast::BodyKind::FirstMoveLoss(..)
        | ast::BodyKind::Award(_)
        | ast::BodyKind::Match(_) => (None, body.span),
    }
}

impl From<ast::DefinitionKind> for NameKind {
    fn from(kind: ast::DefinitionKind) -> NameKind {
        match kind {
            ast::DefinitionKind::Piece => NameKind::Piece,
            ast::DefinitionKind::Region => NameKind::Region,
            ast::DefinitionKind::Counter => NameKind::Counter,
        }
    }
}
