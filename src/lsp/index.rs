//! The symbol index: the names each rules file defines (pieces, regions,
//! counters, labels, the variant) and the names it uses, with their spans,
//! for the file and the files it `extends`.
//!
//! Names are resolved by name: the rules language has one scope per
//! variant (its own definitions and those it inherits), and a name used in
//! a child (`replace rook-promotion: ...`, `drop insufficient-material`,
//! `promote rook to ...`) means the definition of that name in the chain.

use crate::ast;
use crate::error::Span;
use crate::syntax;
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// What a definition defines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DefinitionKind {
    /// `variant NAME` (the file itself; `extends NAME` points to it).
    Variant,
    /// `piece NAME ...`
    Piece,
    /// `region NAME = ...`
    Region,
    /// `counter NAME counts ...`
    Counter,
    /// `NAME: statement` (a labelled rule that a child may drop or replace).
    Label,
}

impl DefinitionKind {
    /// The word for it in hovers and completions.
    pub fn describe(self) -> &'static str {
        match self {
            DefinitionKind::Variant => "variant",
            DefinitionKind::Piece => "piece",
            DefinitionKind::Region => "region",
            DefinitionKind::Counter => "counter",
            DefinitionKind::Label => "rule label",
        }
    }
}

/// A defined name.
#[derive(Clone, Debug)]
pub struct Definition {
    /// The name.
    pub name: String,
    /// What it names.
    pub kind: DefinitionKind,
    /// The name's span.
    pub span: Span,
    /// The whole statement's span (the header for a variant).
    pub statement: Span,
}

/// A use of a name.
#[derive(Clone, Debug)]
pub struct Reference {
    /// The name.
    pub name: String,
    /// Its span.
    pub span: Span,
}

/// The names of one file.
#[derive(Clone, Debug, Default)]
pub struct FileIndex {
    /// The file.
    pub path: PathBuf,
    /// Its text.
    pub text: String,
    /// Whether the text parsed (if not, the index is empty).
    pub parsed: bool,
    /// Its definitions, in file order.
    pub definitions: Vec<Definition>,
    /// Its uses of names, in file order.
    pub references: Vec<Reference>,
    /// The variant it extends.
    pub extends: Option<String>,
}

impl FileIndex {
    /// Indexes `text`, the contents of `path`.
    pub fn new(path: PathBuf, text: String) -> FileIndex {
        let mut index = FileIndex {
            path,
            text: String::new(),
            ..FileIndex::default()
        };
        if let Ok(tree) = syntax::parse_file(0, &text) {
            index.parsed = true;
            index.collect(&tree);
        }
        index.text = text;
        index
    }

    fn collect(&mut self, tree: &ast::File) {
        let header = &tree.header;
        let mut defining = HashSet::from([header.id.span.start]);
        self.define(&header.id, DefinitionKind::Variant, header.span);
        self.extends = header.extends.as_ref().map(|name| name.name.clone());
        for statement in &tree.statements {
            let ast::Statement::Item(item) = statement else {
                continue;
            };
            if let Some(label) = &item.label {
                self.define(label, DefinitionKind::Label, item.span);
            }
            let (name, kind) = match &item.body.kind {
                ast::BodyKind::Piece(piece) => (&piece.name, DefinitionKind::Piece),
                ast::BodyKind::Region(region) => (&region.name, DefinitionKind::Region),
                ast::BodyKind::Counter(counter) => (&counter.name, DefinitionKind::Counter),
                ast::BodyKind::Board(_)
                | ast::BodyKind::Setup(_)
                | ast::BodyKind::Promote(_)
                | ast::BodyKind::Castling(_)
                | ast::BodyKind::EnPassant(_)
                | ast::BodyKind::Hand(_)
                | ast::BodyKind::Drops(_)
                | ast::BodyKind::CheckRule(_)
                | ast::BodyKind::CaptureRule(_)
                | ast::BodyKind::DropRule(_)
                | ast::BodyKind::Immobility
                | ast::BodyKind::UnmovedInFen
                | ast::BodyKind::FirstMoveLoss(..)
                | ast::BodyKind::Explosion(_)
                | ast::BodyKind::Points(_)
                | ast::BodyKind::History(_)
                | ast::BodyKind::Succession(_)
                | ast::BodyKind::Reset(_)
                | ast::BodyKind::Termination(_)
                | ast::BodyKind::Counting(_)
                | ast::BodyKind::Award(_)
                | ast::BodyKind::Agreement(_)
                | ast::BodyKind::Resign(_)
                | ast::BodyKind::Tiebreak(_)
                | ast::BodyKind::Score(_)
                | ast::BodyKind::Match(_) => continue,
            };
            defining.insert(name.span.start);
            self.define(name, kind, item.span);
        }
        for name in tree.identifiers() {
            if !defining.contains(&name.span.start) {
                self.references.push(Reference {
                    name: name.name.clone(),
                    span: name.span,
                });
            }
        }
    }

    fn define(&mut self, name: &ast::Ident, kind: DefinitionKind, statement: Span) {
        self.definitions.push(Definition {
            name: name.name.clone(),
            kind,
            span: name.span,
            statement,
        });
    }

    /// The name (defined or used) whose span holds byte `offset`, if any.
    pub fn name_at(&self, offset: usize) -> Option<(&str, Span)> {
        let definitions = self.definitions.iter().map(|d| (d.name.as_str(), d.span));
        let references = self.references.iter().map(|r| (r.name.as_str(), r.span));
        definitions
            .chain(references)
            .find(|(_, span)| span.start <= offset && offset <= span.end)
    }
}

/// A file and the files it extends, nearest first: `files[0]` is the file
/// itself.
pub struct ChainIndex {
    /// The indexes, child first.
    pub files: Vec<FileIndex>,
}

/// The most files followed up an `extends` chain (as the loader).
const MAX_CHAIN: usize = crate::load::MAX_EXTENDS_CHAIN;

impl ChainIndex {
    /// Indexes `text` (the file at `path`) and its `extends` chain; a
    /// parent's text comes from `open_text` (an editor's unsaved buffer)
    /// or else from disk.
    pub fn new(
        path: &Path,
        text: String,
        open_text: &dyn Fn(&Path) -> Option<String>,
    ) -> ChainIndex {
        let mut files = vec![FileIndex::new(path.to_path_buf(), text)];
        while files.len() < MAX_CHAIN {
            let Some(last) = files.last() else { break };
            let Some(parent) = &last.extends else { break };
            let dir = last.path.parent().unwrap_or(Path::new(""));
            let parent_path = dir.join(format!("{parent}.rules"));
            if files.iter().any(|f| f.path == parent_path) {
                break;
            }
            let Some(parent_text) = open_text(&parent_path).or_else(|| read_rules(&parent_path))
            else {
                break;
            };
            files.push(FileIndex::new(parent_path, parent_text));
        }
        ChainIndex { files }
    }

    /// Every definition of `name` in the chain, nearest file first.
    pub fn definitions_of<'a>(
        &'a self,
        name: &'a str,
    ) -> impl Iterator<Item = (&'a FileIndex, &'a Definition)> + 'a {
        self.files.iter().flat_map(move |file| {
            file.definitions
                .iter()
                .filter(move |d| d.name == name)
                .map(move |d| (file, d))
        })
    }

    /// Every definition in scope, the nearest of each name only.
    pub fn names_in_scope(&self) -> Vec<&Definition> {
        let mut seen = HashSet::new();
        self.files
            .iter()
            .flat_map(|file| file.definitions.iter())
            .filter(|d| seen.insert((d.name.as_str(), d.kind as u8)))
            .collect()
    }
}

/// A rules file's text from disk, within the loader's size limit.
pub fn read_rules(path: &Path) -> Option<String> {
    let bytes = crate::bounded::read_bytes(path, crate::load::MAX_FILE_BYTES as u64).ok()?;
    let text = String::from_utf8(bytes).ok()?;
    Some(match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_string(),
        None => text,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn definitions_and_references_are_found() {
        let text = "variant v \"V\" extends chess\nregion zone = rank 8\npiece k2 \"Q\" moves king\nlabelled: promote pawn to k2 in zone, mandatory\n";
        let index = FileIndex::new(PathBuf::from("v.rules"), text.to_string());
        let names: Vec<(&str, DefinitionKind)> = index
            .definitions
            .iter()
            .map(|d| (d.name.as_str(), d.kind))
            .collect();
        assert_eq!(
            names,
            [
                ("v", DefinitionKind::Variant),
                ("zone", DefinitionKind::Region),
                ("k2", DefinitionKind::Piece),
                ("labelled", DefinitionKind::Label),
            ]
        );
        let used: Vec<&str> = index.references.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(used, ["chess", "king", "pawn", "k2", "zone"]);
        assert_eq!(index.extends.as_deref(), Some("chess"));
    }
}
