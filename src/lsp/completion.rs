//! Completion: the language's keywords and the names in scope (the file's
//! definitions and those it inherits through `extends`).

use super::index::{ChainIndex, DefinitionKind};
use lsp_types::{CompletionItem, CompletionItemKind};
use std::collections::BTreeSet;

/// The grammar, read for its keywords so that completion follows it.
const GRAMMAR: &str = include_str!("../../grammar/rules.pest");

/// Every keyword of the language: the quoted words of the grammar (single
/// letters such as `x` in `board 8 x 8` left out).
pub fn keywords() -> BTreeSet<&'static str> {
    GRAMMAR
        .lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .flat_map(|line| line.split('"').skip(1).step_by(2))
        .filter(|word| word.len() > 1 && word.bytes().all(|b| b.is_ascii_lowercase() || b == b'-'))
        .collect()
}

/// The completion items at any point of a file indexed by `chain`.
pub fn items(chain: &ChainIndex) -> Vec<CompletionItem> {
    let mut items: Vec<CompletionItem> = chain
        .names_in_scope()
        .into_iter()
        .filter(|d| d.kind != DefinitionKind::Variant)
        .map(|definition| CompletionItem {
            label: definition.name.clone(),
            kind: Some(match definition.kind {
                DefinitionKind::Piece => CompletionItemKind::CLASS,
                DefinitionKind::Region => CompletionItemKind::ENUM_MEMBER,
                DefinitionKind::Counter => CompletionItemKind::VARIABLE,
                DefinitionKind::Label | DefinitionKind::Variant => CompletionItemKind::REFERENCE,
            }),
            detail: Some(definition.kind.describe().to_string()),
            ..CompletionItem::default()
        })
        .collect();
    items.extend(keywords().into_iter().map(|keyword| CompletionItem {
        label: keyword.to_string(),
        kind: Some(CompletionItemKind::KEYWORD),
        ..CompletionItem::default()
    }));
    items
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keywords_come_from_the_grammar() {
        let all = keywords();
        for keyword in ["piece", "promote", "en-passant", "moves", "castling"] {
            assert!(all.contains(keyword), "{keyword}");
        }
        assert!(!all.contains("x"));
    }
}
