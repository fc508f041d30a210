//! The diagnostics of bad rules files: every `tests/bad/*.rules` case is
//! rejected, and its rendered diagnostic is the snapshot of the same name in
//! `golden/diagnostics/`. The source text is the test; the snapshot is what a
//! variant author sees.
//!
//! Files named `support-*.rules` are not cases: they are the variants that
//! cases extend (`extends NAME` reads `NAME.rules` from the same directory).
//!
//! Each snapshot ends with the diagnostics as data: code, severity and
//! span (file, line and column of both ends), so that a change of what is
//! reported shows apart from a change of wording. `tests/warn/CODE-*.rules`
//! are valid files, each with the warning its name starts with.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const BAD_DIR: &str = "tests/bad";
const WARN_DIR: &str = "tests/warn";
const SUPPORT_PREFIX: &str = "support-";

/// The case files, as paths relative to the package root (which is where
/// `cargo test` runs, so rendered paths read `tests/bad/NAME.rules`).
fn bad_cases() -> Vec<PathBuf> {
    cases_in(BAD_DIR)
}

fn cases_in(dir: &str) -> Vec<PathBuf> {
    let mut cases: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .map(|entry| entry.expect("readable directory entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "rules"))
        .filter(|path| !stem(path).starts_with(SUPPORT_PREFIX))
        .map(|path| Path::new(dir).join(path.file_name().expect("a file name")))
        .collect();
    cases.sort();
    cases
}

/// The diagnostics as data, one line each: `E0101 error
/// tests/bad/x.rules:12:20-12:26`.
fn as_data(sources: &varc::load::Sources, errors: &[varc::error::Error]) -> String {
    let json = varc::diagnostic::to_json(sources, errors);
    let mut text = String::from("--- data ---\n");
    for item in json.as_array().expect("a list") {
        text.push_str(&format!(
            "{} {} {}:{}:{}-{}:{}\n",
            item["code"].as_str().expect("a code"),
            item["severity"].as_str().expect("a severity"),
            item["file"].as_str().expect("a file"),
            item["line"],
            item["column"],
            item["end_line"],
            item["end_column"],
        ));
    }
    text
}

/// A rejected file's rendered diagnostics followed by their data.
fn rejection_with_data(path: &Path) -> String {
    match varc::load_variant(path) {
        Ok(variant) => panic!("{} was accepted as `{}`", path.display(), variant.id),
        Err(error) => {
            let data = as_data(&error.sources, &error.errors);
            format!("{}{data}", rejection(path))
        }
    }
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
            assert_golden(&stem(path), &rejection_with_data(path));
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

#[test]
fn every_bad_file_has_only_errors_with_codes() {
    for path in bad_cases() {
        let Err(error) = varc::load_variant(&path) else {
            panic!("{} accepted", path.display());
        };
        for diagnostic in &error.errors {
            assert_eq!(
                diagnostic.severity(),
                varc::error::Severity::Error,
                "{}: {diagnostic:?}",
                path.display()
            );
            assert!(diagnostic.code.as_str().starts_with('E'));
        }
    }
}

#[test]
fn an_incomplete_promotion_names_what_is_missing() {
    let path = Path::new(BAD_DIR).join("incomplete-promote.rules");
    let Err(error) = varc::load_variant(&path) else {
        panic!("accepted");
    };
    let first = &error.errors[0];
    assert_eq!(first.code, varc::error::Code::IncompleteStatement);
    let source = std::fs::read_to_string(&path).expect("readable");
    // Right after `promote ro`, not at `promote`.
    let after_ro = source.find("promote ro").expect("the statement") + "promote ro".len();
    assert_eq!((first.span.start, first.span.end), (after_ro, after_ro));
    assert!(first.message.contains("`to`"), "{}", first.message);
}

/// The warning code a `tests/warn` case is named after (`W0001-...`).
fn code_of_case(path: &Path) -> varc::error::Code {
    let name = stem(path);
    let code = name.split('-').next().unwrap_or_default();
    varc::error::Code::parse(code).unwrap_or_else(|| panic!("{name}: not named after a code"))
}

#[test]
fn every_warning_case_is_accepted_with_its_warning_and_snapshot() {
    let cases = cases_in(WARN_DIR);
    let warning_codes: Vec<varc::error::Code> = varc::error::Code::ALL
        .iter()
        .copied()
        .filter(|code| code.severity() == varc::error::Severity::Warning)
        .collect();
    // One case per warning code, at least.
    for code in &warning_codes {
        assert!(
            cases.iter().any(|path| code_of_case(path) == *code),
            "no case in {WARN_DIR} for {code}"
        );
    }
    for path in &cases {
        let checked = varc::load::check_variant(path)
            .unwrap_or_else(|e| panic!("{} rejected:\n{e}", path.display()));
        let codes: Vec<_> = checked.warnings.iter().map(|w| w.code).collect();
        assert_eq!(codes, vec![code_of_case(path)], "{}", path.display());
        let text = varc::diagnostic::render(&checked.sources, &checked.warnings, false);
        let data = as_data(&checked.sources, &checked.warnings);
        assert_golden(&format!("warn-{}", stem(path)), &format!("{text}{data}"));
    }
}

#[test]
fn warnings_are_only_about_the_file_checked() {
    // The base has no warning of its own; the cases' warnings are theirs.
    let base = Path::new(WARN_DIR).join("support-base.rules");
    let checked = varc::load::check_variant(&base).expect("valid");
    assert!(checked.warnings.is_empty(), "{:?}", checked.warnings);
}

fn varc(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_varc"))
        .args(args)
        .output()
        .expect("run varc")
}

#[test]
fn varc_check_shows_warnings_and_fails_on_them_only_when_denied() {
    let path = Path::new(WARN_DIR).join("W0001-unused-piece.rules");
    let path = path.to_str().expect("a UTF-8 path");
    let output = varc(&["check", path]);
    assert_eq!(output.status.code(), Some(0));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("warning[W0001]"), "{stderr}");
    let denied = varc(&["check", "--deny-warnings", path]);
    assert_eq!(denied.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&denied.stderr).contains("warnings are denied"));
    // Commands that run a variant do not repeat its warnings.
    let dumped = varc(&["dump", path]);
    assert_eq!(dumped.status.code(), Some(0));
    assert!(
        dumped.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&dumped.stderr)
    );
}

#[test]
fn every_code_is_explained_by_varc_explain() {
    for code in varc::error::Code::ALL {
        let output = varc(&["explain", code.as_str()]);
        assert_eq!(output.status.code(), Some(0), "{code}");
        let text = String::from_utf8_lossy(&output.stdout);
        assert!(text.starts_with(code.as_str()), "{code}: {text}");
        assert!(text.contains("Example"), "{code} has no example: {text}");
        // Codes read back from their text, case-insensitively.
        assert_eq!(
            varc::error::Code::parse(&code.as_str().to_lowercase()),
            Some(*code)
        );
    }
}

#[test]
fn varc_explain_refuses_an_unknown_code() {
    let output = varc(&["explain", "E9999"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(output.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("`E9999` is not a diagnostic code"),
        "{stderr}"
    );
}

#[test]
fn codes_are_unique_and_well_formed() {
    let mut seen = std::collections::HashSet::new();
    for code in varc::error::Code::ALL {
        let text = code.as_str();
        assert!(seen.insert(text), "{text} twice");
        assert_eq!(text.len(), 5);
        assert!(text[1..].chars().all(|c| c.is_ascii_digit()), "{text}");
    }
}
