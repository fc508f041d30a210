//! The diagnostics of bad rules files: every `tests/bad/*.rules` case is
//! rejected, and its rendered diagnostic is the snapshot of the same name in
//! `golden/diagnostics/`. The source text is the test; the snapshot is what a
//! variant author sees.
//!
//! Files named `support-*.rules` are not cases: they are the variants that
//! cases extend (`extends NAME` reads `NAME.rules` from the same directory).

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const BAD_DIR: &str = "tests/bad";
const SUPPORT_PREFIX: &str = "support-";

/// The case files, as paths relative to the package root (which is where
/// `cargo test` runs, so rendered paths read `tests/bad/NAME.rules`).
fn bad_cases() -> Vec<PathBuf> {
    let mut cases: Vec<PathBuf> = std::fs::read_dir(BAD_DIR)
        .expect("tests/bad exists")
        .map(|entry| entry.expect("readable directory entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "rules"))
        .filter(|path| !stem(path).starts_with(SUPPORT_PREFIX))
        .map(|path| Path::new(BAD_DIR).join(path.file_name().expect("a file name")))
        .collect();
    cases.sort();
    cases
}

fn stem(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Loads a file that must be rejected; returns its rendered diagnostics.
fn rejection(path: &Path) -> String {
    match varc::load_variant(path) {
        Ok(variant) => panic!("{} was accepted as `{}`", path.display(), variant.id),
        Err(error) => {
            assert!(
                !error.errors.is_empty(),
                "{}: rejected without an error",
                path.display()
            );
            varc::diagnostic::render(&error.sources, &error.errors, false)
        }
    }
}

fn assert_golden(name: &str, text: &str) {
    insta::with_settings!({snapshot_path => "../golden/diagnostics", prepend_module_to_snapshot => false}, {
        insta::assert_snapshot!(name, text);
    });
}

#[test]
fn every_bad_file_is_rejected_with_its_snapshot() {
    let cases = bad_cases();
    assert!(
        cases.len() >= 30,
        "only {} bad cases in {BAD_DIR}",
        cases.len()
    );
    // Check every case before failing, so that one run lists all changes.
    let mut failed = Vec::new();
    for path in &cases {
        let outcome = std::panic::catch_unwind(|| {
            let text = rejection(path);
            // Every diagnostic points into a file of the case (the entry or
            // a support file it extends), with line and column.
            assert!(
                text.contains(&format!("┌─ {BAD_DIR}/")),
                "{}: the diagnostic names no file:\n{text}",
                path.display()
            );
            assert_golden(&stem(path), &text);
        });
        if outcome.is_err() {
            failed.push(path.display().to_string());
        }
    }
    assert!(failed.is_empty(), "cases that failed: {failed:?}");
}

#[test]
fn support_variants_are_valid_so_cases_fail_for_their_own_reason() {
    let base = Path::new(BAD_DIR).join("support-base.rules");
    if let Err(error) = varc::load_variant(&base) {
        panic!("{}", error.render());
    }
}

#[test]
fn garbage_5mb_is_rejected_quickly_with_a_clear_error() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("diagnostics");
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("garbage-5mb.rules");
    std::fs::write(&path, common::garbage(5 << 20, 0x5eed)).expect("write garbage");
    let start = Instant::now();
    let text = rejection(&path);
    assert!(
        start.elapsed() < Duration::from_secs(1),
        "took {:?}",
        start.elapsed()
    );
    let text = text.replace(&dir.display().to_string(), "$TMP");
    assert_golden("garbage-5mb", &text);
}

fn varc_check(path: &Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_varc"))
        .arg("check")
        .arg(path)
        .output()
        .expect("run varc")
}

#[test]
fn varc_check_exits_1_with_the_diagnostics_on_stderr() {
    for path in bad_cases() {
        let output = varc_check(&path);
        assert_eq!(output.status.code(), Some(1), "{}", path.display());
        assert!(
            output.stdout.is_empty(),
            "{}: output on stdout",
            path.display()
        );
        // Not a terminal, so no colours: the same text as the library renders.
        assert_eq!(
            String::from_utf8_lossy(&output.stderr),
            rejection(&path),
            "{}",
            path.display()
        );
    }
}

#[test]
fn varc_check_exits_0_for_every_bundled_variant() {
    let mut checked = 0;
    for entry in std::fs::read_dir("variants").expect("variants/ exists") {
        let path = Path::new("variants").join(entry.expect("entry").file_name());
        if path.extension().is_none_or(|e| e != "rules") {
            continue;
        }
        let output = varc_check(&path);
        assert_eq!(
            output.status.code(),
            Some(0),
            "{}:\n{}",
            path.display(),
            String::from_utf8_lossy(&output.stderr)
        );
        assert!(
            output.stderr.is_empty(),
            "{}: warnings on stderr",
            path.display()
        );
        checked += 1;
    }
    assert!(checked >= 5, "only {checked} bundled variants");
}
