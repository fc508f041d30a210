//! The generated code itself: a golden snapshot of one small variant's
//! engine (so that every codegen change shows in review), and proof that
//! names and strings of a hostile rules file cannot inject code.

mod common;

use proc_macro2::{TokenStream, TokenTree};
use std::path::Path;
use varc::codegen;

#[test]
fn losalamos_engine_source_snapshot() {
    let source = codegen::engine_source(&common::variant("losalamos")).expect("generates");
    insta::with_settings!({snapshot_path => "../golden/codegen", prepend_module_to_snapshot => false}, {
        insta::assert_snapshot!("losalamos_engine", source);
    });
}

#[test]
fn engine_main_snapshot() {
    let source = codegen::main_source(&common::variant("losalamos")).expect("generates");
    insta::with_settings!({snapshot_path => "../golden/codegen", prepend_module_to_snapshot => false}, {
        insta::assert_snapshot!("engine_main", source);
    });
}

fn identifiers(tokens: TokenStream, out: &mut Vec<String>) {
    for tree in tokens {
        match tree {
            TokenTree::Ident(ident) => out.push(ident.to_string()),
            TokenTree::Group(group) => identifiers(group.stream(), out),
            _ => {}
        }
    }
}

const HOSTILE: &str = "\"); std::process::exit(1); (\"";

/// Piece names, region names, the id, the name and the letters all try to
/// close a string and call `std::process::exit`; the generated files must
/// parse, and no identifier of the code may come from that text.
#[test]
fn hostile_names_cannot_inject_code() {
    let mut variant = common::variant("losalamos");
    variant.id = format!("x{HOSTILE}\n[dependencies]\nevil = \"1\"");
    variant.name = format!("*/ {HOSTILE} /* \n#![evil]");
    for (i, piece) in variant.pieces.iter_mut().enumerate() {
        piece.name = format!("{HOSTILE}{i} self type r#fn");
    }
    variant.pieces[0].name = "Self".into();
    variant.pieces[1].name = "match".into();
    for region in &mut variant.regions {
        region.name = format!("{HOSTILE} }} fn main() {{");
    }
    let generated =
        codegen::generate(&variant, Path::new("/nonexistent \" path")).expect("generates");
    for (path, contents) in &generated.files {
        let name = path.display().to_string();
        if name.ends_with(".rs") {
            syn::parse_file(contents).unwrap_or_else(|e| panic!("{name} does not parse: {e}"));
            let tokens: TokenStream = contents.parse().expect("tokens");
            let mut idents = Vec::new();
            identifiers(tokens, &mut idents);
            // `main.rs` uses `std::process::ExitCode` itself; the engine has no `process`.
            let forbidden: &[&str] = if name.ends_with("lib.rs") {
                &["exit", "evil", "process"]
            } else {
                &["exit", "evil"]
            };
            for forbidden in forbidden {
                assert!(
                    !idents.iter().any(|i| i == forbidden),
                    "{name} has the identifier {forbidden}"
                );
            }
        }
        if name == "Cargo.toml" {
            assert!(
                !contents.contains("\nevil"),
                "the manifest gained a line: {contents}"
            );
            assert!(generated
                .package
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-'));
        }
    }
    let engine = codegen::engine_source(&variant).expect("generates");
    assert!(engine.contains("Self_"), "`Self` is escaped");
}
