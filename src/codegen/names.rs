//! The one sanitizer of names that come from a rules file.
//!
//! Every identifier the generator derives from user text goes through
//! [`Names`]: it is rebuilt from ASCII letters and digits only, checked by
//! `syn` to be an identifier, escaped when it is a keyword, and made unique.
//! Strings from a rules file are never identifiers: they become string
//! literals through `proc_macro2::Literal::string`, which escapes them.

use proc_macro2::{Ident, Span};
use std::collections::HashSet;

/// Allocates identifiers for user names, keeping them unique.
#[derive(Debug, Default)]
pub struct Names {
    used: HashSet<String>,
}

impl Names {
    /// A set of names that already reserves `reserved` (identifiers the
    /// generated code defines itself).
    pub fn with_reserved(reserved: &[&str]) -> Names {
        Names {
            used: reserved.iter().map(|s| s.to_string()).collect(),
        }
    }

    /// A CamelCase identifier for `name` (`rooking` -> `Rooking`,
    /// `enemy-territory` -> `EnemyTerritory`), unique among those given out.
    pub fn camel(&mut self, name: &str) -> Ident {
        let mut text = String::new();
        let mut upper = true;
        for c in name.chars() {
            if c.is_ascii_alphanumeric() {
                if upper {
                    text.push(c.to_ascii_uppercase());
                } else {
                    text.push(c);
                }
                upper = false;
            } else {
                upper = true;
            }
        }
        self.unique(text, "Piece")
    }

    /// A SCREAMING_SNAKE_CASE identifier for `name`, unique among those given out.
    pub fn screaming(&mut self, prefix: &str, name: &str) -> Ident {
        let mut text = String::from(prefix);
        for c in name.chars() {
            if c.is_ascii_alphanumeric() {
                text.push(c.to_ascii_uppercase());
            } else if !text.ends_with('_') {
                text.push('_');
            }
        }
        let text = text.trim_end_matches('_').to_string();
        self.unique(text, "NAME")
    }

    fn unique(&mut self, mut text: String, fallback: &str) -> Ident {
        if text.is_empty() || text.starts_with(|c: char| c.is_ascii_digit()) {
            text = format!("{fallback}{text}");
        }
        let mut candidate = text.clone();
        let mut n = 2;
        while self.used.contains(&candidate) {
            candidate = format!("{text}{n}");
            n += 1;
        }
        self.used.insert(candidate.clone());
        ident(&candidate)
    }
}

/// An identifier for `text`, which holds only ASCII letters, digits and `_`
/// and does not start with a digit: itself if `syn` accepts it, a raw
/// identifier for a keyword, or `text_` for the keywords that cannot be raw
/// (`Self`, `self`, `super`, `crate`).
pub fn ident(text: &str) -> Ident {
    if syn::parse_str::<syn::Ident>(text).is_ok() {
        return Ident::new(text, Span::call_site());
    }
    let raw = format!("r#{text}");
    if syn::parse_str::<syn::Ident>(&raw).is_ok() {
        return Ident::new_raw(text, Span::call_site());
    }
    Ident::new(&format!("{text}_"), Span::call_site())
}

/// A string literal holding `text`, escaped.
pub fn string_literal(text: &str) -> proc_macro2::Literal {
    proc_macro2::Literal::string(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keywords_are_escaped() {
        let mut names = Names::default();
        assert_eq!(names.camel("self").to_string(), "Self_");
        assert_eq!(names.camel("type").to_string(), "Type");
        assert_eq!(ident("match").to_string(), "r#match");
    }

    #[test]
    fn hostile_text_becomes_plain_identifiers() {
        let mut names = Names::default();
        let id = names.camel("\"); std::process::exit(1); (\"");
        assert_eq!(id.to_string(), "StdProcessExit1");
        assert_eq!(names.camel("").to_string(), "Piece");
        assert_eq!(names.camel("9lives").to_string(), "Piece9lives");
    }

    #[test]
    fn names_are_unique() {
        let mut names = Names::with_reserved(&["Kind"]);
        assert_eq!(names.camel("kind").to_string(), "Kind2");
        assert_eq!(names.camel("a-b").to_string(), "AB");
        assert_eq!(names.camel("a_b").to_string(), "AB2");
    }
}
