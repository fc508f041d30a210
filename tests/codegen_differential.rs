//! Differential tests of the compiled back end against the reference
//! interpreter, for every bundled variant: perft from the start position,
//! from 200 positions reached by seeded random playouts, and every vector
//! file of `../shared/vectors` at the depths the default suite uses (counts
//! below 5,000,000; `VARC_PERFT_LIMIT` changes the limit).
//!
//! Each variant's engine is generated and built once per run, into the
//! target directory every engine shares (`target/varc-engines`), so the
//! runtime is compiled once. A disagreement is reported with the divide of
//! both back ends, naming the moves whose counts differ.

mod common;

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use varc::interp::Interpreter;
use varc_runtime::fen::{parse_fen, write_fen};
use varc_runtime::game::{divide_with_history, perft_with_history};
use varc_runtime::notation::long_algebraic;
use varc_runtime::perft::{divide, perft};
use varc_runtime::position::Position;
use varc_runtime::rules::Rules;

const PLAYOUT_POSITIONS: usize = 200;
const DEFAULT_LIMIT: u64 = 5_000_000;

fn limit() -> u64 {
    std::env::var("VARC_PERFT_LIMIT")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(DEFAULT_LIMIT)
}

/// Perft counts of the compiled engine for `(depth, fen)` jobs, in one process.
fn compiled_counts(binary: &Path, jobs: &[(u32, String)]) -> Vec<String> {
    let mut child = Command::new(binary)
        .arg("batch")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", binary.display()));
    let mut input = String::new();
    for (depth, fen) in jobs {
        input.push_str(&format!("{depth} {fen}\n"));
    }
    let mut stdin = child.stdin.take().expect("piped stdin");
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child.wait_with_output().expect("engine output");
    writer
        .join()
        .expect("writer thread")
        .expect("write to the engine");
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

/// The compiled engine's divide, move text -> count.
fn compiled_divide(binary: &Path, fen: &str, depth: u32) -> BTreeMap<String, u64> {
    let output = Command::new(binary)
        .args([
            "perft",
            &depth.to_string(),
            "--fen",
            fen,
            "--divide",
            "--json",
        ])
        .output()
        .expect("engine divide");
    let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap_or_default();
    value["divide"]
        .as_object()
        .map(|m| {
            m.iter()
                .map(|(k, v)| (k.clone(), v.as_u64().unwrap_or(0)))
                .collect()
        })
        .unwrap_or_default()
}

/// Names the root moves on which the back ends disagree.
fn explain(rules: &Interpreter, binary: &Path, fen: &str, depth: u32) -> String {
    let Ok(position) = parse_fen(rules.variant(), fen) else {
        return "unparsable FEN".into();
    };
    let legal = rules.legal_moves(&position);
    let interpreted: BTreeMap<String, u64> = divide(rules, &position, depth)
        .into_iter()
        .map(|(mv, n)| (long_algebraic(rules.variant(), &mv, &legal), n))
        .collect();
    let compiled = compiled_divide(binary, fen, depth);
    let mut lines = Vec::new();
    for mv in interpreted.keys().chain(compiled.keys()) {
        let (a, b) = (interpreted.get(mv), compiled.get(mv));
        if a != b
            && !lines
                .iter()
                .any(|l: &String| l.starts_with(&format!("{mv}:")))
        {
            lines.push(format!("{mv}: interpreter {a:?}, compiled {b:?}"));
        }
    }
    lines.join("; ")
}

/// A small deterministic generator for the playouts.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, bound: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % bound as u64) as usize
    }
}

/// FENs of positions reached by seeded random playouts from the start.
fn playout_positions(rules: &Interpreter, seed: u64, count: usize) -> Vec<String> {
    let variant = rules.variant();
    let start = parse_fen(variant, &variant.start_fen).expect("start position");
    let mut rng = Lcg(seed);
    let mut out = Vec::new();
    let mut position = start.clone();
    let mut ply = 0;
    while out.len() < count {
        let moves = rules.legal_moves(&position);
        if moves.is_empty() || ply > 80 {
            position = start.clone();
            ply = 0;
            continue;
        }
        position = rules.play(&position, &moves[rng.next(moves.len())]);
        ply += 1;
        if rng.next(3) == 0 {
            out.push(write_fen(variant, &position));
        }
    }
    out
}

/// Start position and playouts: the compiled engine must agree with the interpreter.
fn check_against_interpreter(rules_file: &str, start_depth: u32, playout_depth: u32) {
    let variant = common::variant(rules_file.trim_end_matches(".rules"));
    let binary = common::engine(&variant);
    let rules = Interpreter::new(variant).expect("interpretable");
    let mut jobs = vec![(start_depth, rules.variant().start_fen.clone())];
    for fen in playout_positions(&rules, 0x5eed ^ rules_file.len() as u64, PLAYOUT_POSITIONS) {
        jobs.push((playout_depth, fen));
    }
    let compiled = compiled_counts(&binary, &jobs);
    assert_eq!(
        compiled.len(),
        jobs.len(),
        "the engine answered {} of {} jobs",
        compiled.len(),
        jobs.len()
    );
    let mut failures = Vec::new();
    for ((depth, fen), answer) in jobs.iter().zip(&compiled) {
        let position = parse_fen(rules.variant(), fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        // As `varc perft` counts: history rules (IRC) from a root with no past.
        let no_history: [Position; 0] = [];
        let expected = perft_with_history(&rules, &no_history, &position, *depth);
        if answer.trim() != expected.to_string() {
            failures.push(format!(
                "{fen} depth {depth}: interpreter {expected}, compiled {answer}: {}",
                explain(&rules, &binary, fen, *depth)
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} disagreements:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Every vector of `file` below the node limit, through the compiled engine.
fn check_vectors(rules_file: &str, file: &str) {
    let variant = common::variant(rules_file.trim_end_matches(".rules"));
    let binary = common::engine(&variant);
    let path = format!("{}/../shared/vectors/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
    let limit = limit();
    let mut jobs = Vec::new();
    let mut expected = Vec::new();
    for line in text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        let mut parts = line.split(';');
        let fen = parts.next().unwrap_or_default().trim().to_string();
        for part in parts {
            let mut words = part.split_whitespace();
            let depth = words
                .next()
                .and_then(|d| d.strip_prefix('D'))
                .and_then(|d| d.parse::<u32>().ok());
            let count = words.next().and_then(|c| c.parse::<u64>().ok());
            if let (Some(depth), Some(count)) = (depth, count) {
                if count < limit {
                    jobs.push((depth, fen.clone()));
                    expected.push(count);
                }
            }
        }
    }
    assert!(!jobs.is_empty(), "{file}: no vector below the limit");
    let compiled = compiled_counts(&binary, &jobs);
    let failures: Vec<String> = jobs
        .iter()
        .zip(&expected)
        .zip(compiled.iter().map(Some).chain(std::iter::repeat(None)))
        .filter(|((_, want), got)| got.map(|g| g.trim()) != Some(want.to_string().as_str()))
        .map(|(((depth, fen), want), got)| {
            format!("{file}: {fen} depth {depth}: expected {want}, compiled {got:?}")
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn chess_compiled_agrees_with_interpreter() {
    check_against_interpreter("chess.rules", 4, 3);
}

#[test]
fn chess_compiled_matches_vectors() {
    check_vectors("chess.rules", "chessprogramming.epd");
    check_vectors("chess.rules", "standard.epd");
    check_vectors("chess.rules", "chess960.epd");
}

#[test]
fn ppc_compiled_agrees_with_interpreter() {
    check_against_interpreter("ppc.rules", 4, 3);
}

#[test]
fn ppc_perft_compiled_agrees_with_interpreter_and_vectors() {
    check_against_interpreter("ppc-perft.rules", 3, 3);
    check_vectors("ppc-perft.rules", "ppc.epd");
}

#[test]
fn kingcapture_compiled_agrees_with_interpreter_and_vectors() {
    check_against_interpreter("kingcapture.rules", 4, 3);
    check_vectors("kingcapture.rules", "kingcapture.epd");
}

#[test]
fn alternate_scoring_compiled_agrees_with_interpreter() {
    check_against_interpreter("alternate-scoring.rules", 3, 3);
}

#[test]
fn chess99_compiled_agrees_with_interpreter() {
    check_against_interpreter("chess99.rules", 3, 3);
}

#[test]
fn chess99_mini_compiled_agrees_with_interpreter() {
    check_against_interpreter("chess99-mini.rules", 4, 3);
}

#[test]
fn capablanca_compiled_agrees_with_interpreter_and_vectors() {
    check_against_interpreter("capablanca.rules", 3, 2);
    check_vectors("capablanca.rules", "capablanca.epd");
}

#[test]
fn losalamos_compiled_agrees_with_interpreter_and_vectors() {
    check_against_interpreter("losalamos.rules", 4, 3);
    check_vectors("losalamos.rules", "losalamos.epd");
}

/// A PPC position where Illegal Repeated Check (P7) changes the count:
/// White checks on ply 1, the king and queen step away and back, and the
/// same check on ply 5 would repeat the placement of ply 1.
const IRC_FEN: &str = "7k/8/8/8/8/8/Q7/2K5 w - - 0 1";

#[test]
fn ppc_irc_compiled_perft_agrees_with_interpreter() {
    let variant = common::variant("ppc");
    let binary = common::engine(&variant);
    let rules = Interpreter::new(variant).expect("interpretable");
    let position = parse_fen(rules.variant(), IRC_FEN).expect("fen");
    let no_history: [Position; 0] = [];
    let legal = rules.legal_moves(&position);
    let expected: BTreeMap<String, u64> =
        divide_with_history(&rules, &no_history, &position, 5, |_, _| {})
            .into_iter()
            .map(|(mv, n)| (long_algebraic(rules.variant(), &mv, &legal), n))
            .collect();
    let total: u64 = expected.values().sum();
    assert_ne!(
        total,
        perft(&rules, &position, 5),
        "IRC must change this count"
    );
    assert_eq!(compiled_divide(&binary, IRC_FEN, 5), expected);
    // Without bulk counting, and through the batch command, too.
    let output = Command::new(&binary)
        .args(["perft", "5", "--fen", IRC_FEN, "--no-bulk"])
        .output()
        .expect("engine perft");
    assert_eq!(
        String::from_utf8_lossy(&output.stdout).trim(),
        total.to_string()
    );
    assert_eq!(
        compiled_counts(&binary, &[(5, IRC_FEN.to_string())]),
        vec![total.to_string()]
    );
    // `varc perft --backend compiled` and the interpreter print the same count.
    let varc = |backend: &str| {
        let output = Command::new(env!("CARGO_BIN_EXE_varc"))
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .args([
                "perft",
                "variants/ppc.rules",
                "5",
                "--fen",
                IRC_FEN,
                "--backend",
                backend,
            ])
            .output()
            .expect("varc perft");
        String::from_utf8_lossy(&output.stdout).trim().to_string()
    };
    assert_eq!(varc("compiled"), total.to_string());
    assert_eq!(varc("interp"), total.to_string());
}
