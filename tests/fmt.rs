//! `varc fmt`: the bundled variants are formatted (CI fails otherwise), and
//! on valid files laid out at random the formatter is idempotent, keeps
//! every comment and never changes the lowered model.
//!
//! `PROPTEST_CASES=N` runs more cases than the default 256 per property.

mod common;

use proptest::prelude::*;
use std::path::PathBuf;
use std::process::Command;

fn bundled() -> Vec<(String, String)> {
    common::bundled_names()
        .into_iter()
        .map(|name| {
            let path = common::variants_dir().join(format!("{name}.rules"));
            let text = std::fs::read_to_string(&path).expect("readable variant");
            (name, text)
        })
        .collect()
}

fn varc(args: &[&str]) -> (i32, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_varc"))
        .args(args)
        .output()
        .expect("varc runs");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("varc-fmt-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir
}

/// The lowered model of `text`, read as a file of `variants/` (so that
/// `extends` resolves).
fn model(text: &str) -> varc::model::Variant {
    varc::load_variant_from_str("fuzz.rules", text, &common::variants_dir())
        .unwrap_or_else(|e| panic!("{e}\n{text}"))
}

#[test]
fn every_bundled_variant_is_formatted() {
    let mut paths: Vec<String> = common::bundled_names()
        .into_iter()
        .map(|name| format!("variants/{name}.rules"))
        .collect();
    paths.splice(0..0, ["fmt".to_string(), "--check".to_string()]);
    let args: Vec<&str> = paths.iter().map(String::as_str).collect();
    let (code, stdout, stderr) = varc(&args);
    assert_eq!(
        code, 0,
        "run `varc fmt variants/*.rules`; not formatted:\n{stdout}{stderr}"
    );
}

#[test]
fn formatting_keeps_the_model_of_every_bundled_variant() {
    for (name, text) in bundled() {
        // Undo the layout: one space between tokens, as far as possible on one line.
        let squashed = squash(&text);
        let formatted = varc::fmt::format(0, &squashed).expect("formats");
        assert_eq!(model(&formatted), model(&text), "{name}");
        assert_eq!(
            varc::fmt::format(0, &formatted).as_deref(),
            Ok(formatted.as_str()),
            "{name}"
        );
    }
}

/// `text` with the spaces of each line collapsed to one and the indentation removed.
fn squash(text: &str) -> String {
    text.lines()
        .map(|line| line.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn a_promotion_event_lowers_the_same_whatever_the_layout() {
    // Found by the layout property: lowering read `promotion of X to Y` by
    // looking for " to " in its text, so `to` + tab + `queen` counted
    // promotions to anything.
    let base = "variant v\nboard 8 x 8\nsetup \"k7/8/8/8/8/8/8/K7 w - - 0 1\"\n\
                piece king \"K\" royal moves leap (1,1) + leap (0,1)\n\
                piece queen \"Q\" moves ride (1,1) + ride (0,1)\n";
    let spaced = format!("{base}counter c counts promotion of king to queen\n");
    let tabbed = format!("{base}counter c counts promotion of\tking to\n  # the queen\n\tqueen\n");
    let load = |text: &str| {
        varc::load_variant_from_str("v.rules", text, &common::variants_dir())
            .unwrap_or_else(|e| panic!("{e}"))
            .counters
    };
    assert_eq!(load(&tabbed), load(&spaced));
}

#[test]
fn check_lists_unformatted_files_and_changes_nothing() {
    let dir = scratch("check");
    let path = dir.join("messy.rules");
    let messy = "variant v   \"V\"\n\n\n\nboard 8 x 8 # eight\n";
    std::fs::write(&path, messy).expect("written");
    let file = path.to_string_lossy().into_owned();
    let (code, stdout, _) = varc(&["fmt", "--check", &file]);
    assert_eq!(code, 1);
    assert!(stdout.contains("messy.rules"), "{stdout}");
    assert_eq!(std::fs::read_to_string(&path).expect("read"), messy);

    let (code, _, stderr) = varc(&["fmt", &file]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        std::fs::read_to_string(&path).expect("read"),
        "variant v \"V\"\n\nboard 8 x 8  # eight\n"
    );
    let (code, stdout, _) = varc(&["fmt", "--check", &file]);
    assert_eq!((code, stdout.as_str()), (0, ""));
}

#[test]
fn a_file_that_does_not_parse_gets_its_diagnostic_and_is_left_alone() {
    let dir = scratch("bad");
    let path = dir.join("bad.rules");
    let bad = "variant v\nboard  8 x 8\nrook-promotion: promote ro\n";
    std::fs::write(&path, bad).expect("written");
    let (code, _, stderr) = varc(&["fmt", &path.to_string_lossy()]);
    assert_eq!(code, 1);
    assert!(stderr.contains("error"), "{stderr}");
    assert!(stderr.contains("bad.rules:3:"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&path).expect("read"), bad);
}

// ------------------------------------------------------------ fuzzed layouts

/// The words of `text` outside strings and comments, and its comments: the
/// pieces a random layout is built from.
fn words(text: &str) -> Vec<String> {
    let mut pieces = Vec::new();
    for line in text.lines() {
        let mut current = String::new();
        let mut in_string = false;
        let mut chars = line.chars();
        while let Some(c) = chars.next() {
            match c {
                '"' => {
                    in_string = !in_string;
                    current.push(c);
                }
                '#' if !in_string => {
                    pieces.extend((!current.is_empty()).then(|| std::mem::take(&mut current)));
                    pieces.push(format!("#{}", chars.by_ref().collect::<String>()));
                }
                c if c.is_whitespace() && !in_string => {
                    pieces.extend((!current.is_empty()).then(|| std::mem::take(&mut current)));
                }
                c => current.push(c),
            }
        }
        pieces.extend((!current.is_empty()).then_some(current));
    }
    pieces
}

/// Whitespace (and comments) a layout may put between two words.
const SEPARATORS: &[&str] = &[
    " ",
    "  ",
    "\t",
    "\n",
    "\n\n",
    "\n\n\n   ",
    " # noise\n",
    "\n# noise\n\n",
];

/// A bundled variant and a random layout of its words: random separators,
/// and spaces inside punctuation (`( 0 , 1 )`, `1 .. 3`).
fn relaid_variant() -> impl Strategy<Value = (String, String)> {
    let count = common::bundled_names().len();
    (0..count)
        .prop_flat_map(|index| {
            let (name, text) = bundled().swap_remove(index);
            let pieces = words(&text);
            let layout =
                proptest::collection::vec((0..SEPARATORS.len(), any::<bool>()), pieces.len());
            (Just(name), Just(pieces), layout)
        })
        .prop_map(|(name, pieces, layout)| {
            let mut out = String::new();
            for (piece, (separator, spread)) in pieces.iter().zip(layout) {
                let piece = if spread && !piece.starts_with('"') && !piece.starts_with('#') {
                    spread_punctuation(piece)
                } else {
                    piece.clone()
                };
                out.push_str(&piece);
                // A comment runs to the end of its line.
                out.push_str(if piece.starts_with('#') {
                    "\n"
                } else {
                    SEPARATORS[separator]
                });
            }
            (name, out)
        })
}

fn spread_punctuation(word: &str) -> String {
    word.replace('(', "( ")
        .replace(')', " )")
        .replace(',', " , ")
        .replace("..", " .. ")
        .replace(':', " :")
}

fn original_text(name: &str) -> String {
    std::fs::read_to_string(common::variants_dir().join(format!("{name}.rules"))).expect("variant")
}

fn comments(text: &str) -> Vec<String> {
    words(text)
        .into_iter()
        .filter(|w| w.starts_with('#'))
        .map(|w| w.trim_end().to_string())
        .collect()
}

proptest! {
    #[test]
    fn formatting_random_layouts_is_idempotent_and_keeps_the_model(
        (name, text) in relaid_variant()
    ) {
        let formatted = varc::fmt::format(0, &text)
            .map_err(|e| TestCaseError::fail(format!("{name}: {}\n{text}", e.message)))?;
        let again = varc::fmt::format(0, &formatted).expect("formatted text formats");
        prop_assert_eq!(&again, &formatted);
        prop_assert_eq!(comments(&formatted), comments(&text));
        prop_assert_eq!(model(&formatted), model(&text));
        prop_assert_eq!(model(&formatted), model(&original_text(&name)));
    }

    #[test]
    fn formatting_any_text_never_panics(text in "\\PC{0,400}") {
        if let Ok(formatted) = varc::fmt::format(0, &text) {
            prop_assert_eq!(varc::fmt::format(0, &formatted).ok(), Some(formatted));
        }
    }
}

#[test]
fn relaid_files_really_move_things_around() {
    // The generator's own check: a spread, re-separated chess still loads.
    let text = bundled()
        .into_iter()
        .find(|(name, _)| name == "chess")
        .map(|(_, text)| text)
        .expect("chess");
    let spread: Vec<String> = words(&text)
        .iter()
        .map(|w| match w.chars().next() {
            Some('"') => w.clone(),
            Some('#') => format!("{w}\n"),
            _ => spread_punctuation(w),
        })
        .collect();
    let relaid = spread.join("\n\n");
    assert!(relaid.contains("( 0 , 1 )"));
    assert_eq!(model(&relaid), model(&text));
}
