//! Generated code holds itself to the project's standards: the crate of a
//! small variant, generated without any blanket lint allow, passes
//! `cargo clippy -- -D warnings`. Los Alamos is small (6x6) and still has
//! every part a crate can have: rides by magic, leaps, set-wise pawns,
//! promotion zones, check and pin masks. Chess adds what only a board of a
//! power-of-two size emits (tables indexed `square % SQUARES`). Crazyhouse
//! adds the hands (drop squares, lineages for demotion).

mod common;

use std::process::Command;

#[test]
fn generated_losalamos_crate_passes_clippy_with_warnings_denied() {
    assert_clippy_clean("losalamos");
}

#[test]
fn generated_chess_crate_passes_clippy_with_warnings_denied() {
    assert_clippy_clean("chess");
}

#[test]
fn generated_crazyhouse_crate_passes_clippy_with_warnings_denied() {
    let path = common::variants_dir().join("gallery/crazyhouse.rules");
    let variant = varc::load_variant(&path).unwrap_or_else(|e| panic!("{}", e.render()));
    assert_variant_clippy_clean(&variant);
}

fn assert_clippy_clean(name: &str) {
    assert_variant_clippy_clean(&common::variant(name));
}

fn assert_variant_clippy_clean(variant: &varc::model::Variant) {
    let name = &variant.id;
    let variant = variant.clone();
    let dir = varc::codegen::default_crate_dir(&variant);
    // Builds it first (shared target directory), so clippy checks only the crate itself.
    common::engine(&variant);
    let source = std::fs::read_to_string(dir.join("src/lib.rs")).expect("the crate's lib.rs");
    assert!(
        !source.contains("allow("),
        "no lint is allowed in the generated code"
    );
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = Command::new(cargo)
        .args(["clippy", "--release", "--quiet", "--manifest-path"])
        .arg(dir.join("Cargo.toml"))
        .args(["--", "-D", "warnings"])
        .env("CARGO_TARGET_DIR", varc::codegen::shared_target_dir())
        .env_remove("RUSTFLAGS")
        .output()
        .expect("cargo clippy runs");
    assert!(
        output.status.success(),
        "clippy on the generated {name} crate:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
}
