//! Property tests of the front end on hostile input: random bytes, soups of
//! the language's own tokens, and mutations (deletions, insertions,
//! duplications, swaps) of every bundled variant. Whatever the input, the
//! loader answers with a variant or with diagnostics that render: it never
//! panics, and it answers quickly.
//!
//! `PROPTEST_CASES=N` runs more cases than the default 256 per property.

mod common;

use proptest::prelude::*;
use proptest::test_runner::Config;
use std::time::{Duration, Instant};

/// Time allowed for one case (the test profile is optimised).
const CASE_LIMIT: Duration = Duration::from_secs(2);

/// Time allowed for a file of the largest size allowed: about 1.4 s on an
/// idle machine for its slowest case (17,000 statements that each fail),
/// so a loaded one stays within it; a cost quadratic in the statements
/// would take minutes.
const LARGE_FILE_LIMIT: Duration = Duration::from_secs(6);

/// The bundled variants' texts, read once.
fn bundled() -> &'static [(String, String)] {
    static TEXTS: std::sync::OnceLock<Vec<(String, String)>> = std::sync::OnceLock::new();
    TEXTS.get_or_init(|| {
        let mut texts: Vec<(String, String)> = std::fs::read_dir(common::variants_dir())
            .expect("variants/ exists")
            .map(|entry| entry.expect("entry").path())
            .filter(|path| path.extension().is_some_and(|e| e == "rules"))
            .map(|path| {
                let name = path
                    .file_name()
                    .expect("name")
                    .to_string_lossy()
                    .into_owned();
                (
                    name,
                    std::fs::read_to_string(&path).expect("readable variant"),
                )
            })
            .collect();
        texts.sort();
        texts
    })
}

/// Loads `text` as if it were a file in `variants/` (so `extends chess`
/// resolves) and renders any diagnostics; panics only if that is slow.
fn load_within_limit(text: &str, limit: Duration) -> Result<(), String> {
    let start = Instant::now();
    let rendered = match varc::load_variant_from_str("fuzz.rules", text, &common::variants_dir()) {
        Ok(_) => None,
        Err(error) => {
            assert!(!error.errors.is_empty(), "rejected without an error");
            Some(varc::diagnostic::render(
                &error.sources,
                &error.errors,
                false,
            ))
        }
    };
    let elapsed = start.elapsed();
    assert!(elapsed < limit, "took {elapsed:?} on {} bytes", text.len());
    match rendered {
        Some(text) if !text.starts_with("error") => {
            Err(format!("diagnostics do not start with `error`:\n{text}"))
        }
        _ => Ok(()),
    }
}

/// Words and symbols of `grammar/rules.pest`, and a few names and numbers.
const TOKENS: &[&str] = &[
    "variant",
    "extends",
    "chess",
    "drop",
    "replace",
    "piece",
    "region",
    "counter",
    "board",
    "x",
    "holes",
    "setup",
    "relative",
    "ranks",
    "rank",
    "files",
    "file",
    "squares",
    "square",
    "last",
    "last-1",
    "royal",
    "value",
    "moves",
    "move-only",
    "capture-only",
    "first-move",
    "forward",
    "backward",
    "sideways",
    "vertical",
    "left",
    "right",
    "in",
    "betza",
    "leap",
    "lame-leap",
    "ride",
    "hop",
    "up",
    "to",
    "adjacent",
    "along",
    "over",
    "capturing",
    "pass",
    "points",
    "lead",
    "face",
    "facing",
    "must",
    "part",
    "promote",
    "mandatory",
    "optional",
    "unless",
    "delayed",
    "then",
    "move",
    "any",
    "castling",
    "with",
    "short",
    "long",
    "king",
    "rook",
    "not",
    "from",
    "through",
    "into",
    "check",
    "moved",
    "on",
    "lineage",
    "en-passant",
    "check-rule",
    "none",
    "illegal",
    "repeating",
    "placement",
    "plies",
    "ago",
    "only",
    "such",
    "say",
    "royal-capture",
    "game",
    "ends",
    "crown",
    "as",
    "counts",
    "reset",
    "and",
    "capture",
    "of",
    "promotion",
    "castle",
    "crowning",
    "laws-checkmate",
    "was",
    "end",
    "claim",
    "when",
    "reason",
    "tiebreak",
    "if",
    "else",
    "win",
    "loss",
    "for",
    "draw",
    "null-game",
    "game-over",
    "side-to-move",
    "opponent",
    "mover",
    "white",
    "black",
    "or",
    "no",
    "legal",
    "captured",
    "repetition",
    "a",
    "row",
    "royals",
    "left",
    "insufficient",
    "material",
    "pieces",
    "except",
    "count",
    "clock",
    "below",
    "seconds",
    "max",
    "min",
    "award",
    "wins",
    "once",
    "agreement",
    "allowed",
    "never",
    "resign",
    "plus",
    "per",
    "score",
    "by",
    "null",
    "match",
    "same",
    "colours",
    "after",
    "null-games",
    "casual",
    "queen",
    "pawn",
    "knight",
    "last-rank",
    "irc",
    "0",
    "1",
    "2",
    "3",
    "8",
    "16",
    "17",
    "99999999999999999999",
    "-1",
    "0.5",
    "a1",
    "e4",
    "z9",
    "(",
    ")",
    "(1,2)",
    "(0,0)",
    "(0,1)",
    ",",
    ":",
    "=",
    "+",
    "-",
    "..",
    "|",
    ">",
    "<",
    "<=",
    ">=",
    "==",
    "=>",
    "\"",
    "\"K\"",
    "\"R'\"",
    "\"fmWfcF\"",
    "\"k3/4/4/3K w - - 0 1\"",
    "#",
    "\n",
    "\t",
    "é",
    "\u{feff}",
];

fn token_soup() -> impl Strategy<Value = String> {
    let header = prop_oneof![
        Just(String::new()),
        Just("variant fuzz \"Fuzz\"\n".to_string()),
        Just("variant fuzz \"Fuzz\" extends chess\n".to_string()),
    ];
    let words = proptest::collection::vec(proptest::sample::select(TOKENS), 0..120);
    (header, words).prop_map(|(header, words)| header + &words.join(" "))
}

/// One edit of a text, as byte positions taken modulo its length.
#[derive(Clone, Debug)]
enum Mutation {
    Delete(usize, usize),
    Insert(usize, &'static str),
    InsertBytes(usize, Vec<u8>),
    Duplicate(usize, usize),
    Swap(usize, usize, usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let position = any::<usize>();
    let length = 0usize..64;
    prop_oneof![
        (position, length.clone()).prop_map(|(at, len)| Mutation::Delete(at, len)),
        (position, proptest::sample::select(TOKENS)).prop_map(|(at, t)| Mutation::Insert(at, t)),
        (position, proptest::collection::vec(any::<u8>(), 1..8))
            .prop_map(|(at, bytes)| Mutation::InsertBytes(at, bytes)),
        (position, length.clone()).prop_map(|(at, len)| Mutation::Duplicate(at, len)),
        (position, position, length).prop_map(|(a, b, len)| Mutation::Swap(a, b, len)),
    ]
}

fn apply(bytes: &mut Vec<u8>, mutation: &Mutation) {
    let n = bytes.len();
    let at = |p: usize| if n == 0 { 0 } else { p % (n + 1) };
    match mutation {
        Mutation::Delete(p, len) => {
            let start = at(*p);
            let end = (start + len).min(n);
            bytes.drain(start..end);
        }
        Mutation::Insert(p, token) => {
            let start = at(*p);
            bytes.splice(start..start, format!(" {token} ").into_bytes());
        }
        Mutation::InsertBytes(p, inserted) => {
            let start = at(*p);
            bytes.splice(start..start, inserted.iter().copied());
        }
        Mutation::Duplicate(p, len) => {
            let start = at(*p);
            let end = (start + len).min(n);
            let copy: Vec<u8> = bytes[start..end].to_vec();
            bytes.splice(end..end, copy);
        }
        Mutation::Swap(a, b, len) => {
            let (mut first, mut second) = (at(*a), at(*b));
            if first > second {
                std::mem::swap(&mut first, &mut second);
            }
            let len = (*len).min(second - first).min(n - second);
            if len > 0 {
                let a_part: Vec<u8> = bytes[first..first + len].to_vec();
                let b_part: Vec<u8> = bytes[second..second + len].to_vec();
                bytes.splice(second..second + len, a_part);
                bytes.splice(first..first + len, b_part);
            }
        }
    }
}

proptest! {
    #![proptest_config(Config { cases: 256, ..Config::default() })]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..4096)) {
        let text = String::from_utf8_lossy(&bytes);
        load_within_limit(&text, CASE_LIMIT).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn random_text_never_panics(text in "\\PC{0,2000}") {
        load_within_limit(&text, CASE_LIMIT).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn token_soups_never_panic(text in token_soup()) {
        load_within_limit(&text, CASE_LIMIT).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn mutated_variants_never_panic(
        which in any::<proptest::sample::Index>(),
        mutations in proptest::collection::vec(mutation(), 1..6),
    ) {
        let (_, original) = which.get(bundled());
        let mut bytes = original.clone().into_bytes();
        for m in &mutations {
            apply(&mut bytes, m);
        }
        let text = String::from_utf8_lossy(&bytes);
        load_within_limit(&text, CASE_LIMIT).map_err(TestCaseError::fail)?;
    }
}

#[test]
fn every_bundled_variant_loads_from_a_string() {
    for (name, text) in bundled() {
        if let Err(error) = varc::load_variant_from_str(name, text, &common::variants_dir()) {
            panic!("{name}:\n{error}");
        }
    }
}

#[test]
fn garbage_of_5mb_is_rejected_within_a_second() {
    let text = String::from_utf8_lossy(&common::garbage(5 << 20, 7)).into_owned();
    load_within_limit(&text, Duration::from_secs(1)).expect("clear error");
    assert!(varc::load_variant_from_str("garbage.rules", &text, &common::variants_dir()).is_err());
}

#[test]
fn a_file_just_under_the_size_limit_is_checked_quickly() {
    let limit = varc::load::MAX_FILE_BYTES;
    // Garbage after a valid header, so the parser reads into it.
    let mut text = String::from("variant garbage \"Garbage\"\n");
    text.push_str(&String::from_utf8_lossy(&common::garbage(limit / 2, 11)));
    text.truncate(limit - 8);
    load_within_limit(&text, LARGE_FILE_LIMIT).expect("clear error");

    // Thousands of statements that each fail to resolve: errors are capped.
    let mut text = String::from("variant many \"Many\"\nboard 8 x 8\n");
    let mut i = 0;
    while text.len() < limit - 200 {
        text.push_str(&format!(
            "piece p{i} \"A\" moves leap (1,2) + q{i}\nregion r{i} = rank 1 + s{i}\ndrop t{i}\n"
        ));
        i += 1;
    }
    load_within_limit(&text, LARGE_FILE_LIMIT).expect("clear error");

    // Thousands of valid statements.
    let mut text = String::from(
        "variant many \"Many\"\nboard 8 x 8\nsetup \"k7/8/8/8/8/8/8/7K w - - 0 1\"\npiece king \"K\" royal moves king-step\n",
    );
    let mut i = 0;
    while text.len() < limit - 200 {
        text.push_str(&format!(
            "region r{i} = rank 1 + squares a1\nrule{i}: end when repetition 3 => draw\n"
        ));
        i += 1;
    }
    load_within_limit(&text, LARGE_FILE_LIMIT).expect("valid");
    assert!(varc::load_variant_from_str("many.rules", &text, &common::variants_dir()).is_ok());
}

#[test]
fn deep_nesting_is_rejected_without_overflowing_the_stack() {
    let deep = 100_000;
    let header = "variant deep \"Deep\"\nboard 4 x 4\nsetup \"k3/4/4/3K w - - 0 1\"\npiece king \"K\" royal moves king-step\n";
    let cases = [
        format!(
            "{header}piece q \"Q\" moves {}ride (0,1){}",
            "(".repeat(deep),
            ")".repeat(deep)
        ),
        format!(
            "{header}region r = {}rank 1{}",
            "(".repeat(deep),
            ")".repeat(deep)
        ),
        format!(
            "{header}x: end when {}in check => draw",
            "not ".repeat(deep)
        ),
        format!(
            "{header}x: end when in check => {}draw{}",
            "if in check then ".repeat(deep),
            " else draw".repeat(deep)
        ),
        format!(
            "{header}x: end when {}in check{} => draw",
            "(".repeat(deep),
            ")".repeat(deep)
        ),
    ];
    for text in &cases {
        load_within_limit(text, CASE_LIMIT).expect("clear error");
        assert!(varc::load_variant_from_str("deep.rules", text, &common::variants_dir()).is_err());
    }
}
