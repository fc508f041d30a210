//! Perft against counts computed outside this project (`../shared/vectors`).
//!
//! Every depth whose count is below 5,000,000 runs in the default
//! `cargo test`. Larger depths are opt-in:
//! - `VARC_DEEP=1 cargo test --release --test perft_vectors` runs every depth
//!   of every file (hours for the Chess960 suite);
//! - `VARC_PERFT_LIMIT=N` sets the node-count limit instead (for example
//!   `VARC_PERFT_LIMIT=50000000`).
//!
//! Positions of a file run in parallel threads.

mod common;

use common::Vector;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use varc_runtime::fen::parse_fen;
use varc_runtime::perft::perft_counts;
use varc_runtime::rules::Rules;

const DEFAULT_LIMIT: u64 = 5_000_000;

fn read_vectors(name: &str) -> Vec<Vector> {
    let path = format!("{}/../shared/vectors/{}", env!("CARGO_MANIFEST_DIR"), name);
    common::read_vector_file(Path::new(&path))
}

fn limit() -> u64 {
    if std::env::var("VARC_DEEP").is_ok_and(|v| v != "0") {
        return u64::MAX;
    }
    std::env::var("VARC_PERFT_LIMIT")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(DEFAULT_LIMIT)
}

/// Runs every vector of `file` against `variant` up to the node limit,
/// and fails with the list of every mismatch.
fn check_file(variant: &str, file: &str) {
    let rules = common::rules(variant);
    let vectors = read_vectors(file);
    assert!(!vectors.is_empty(), "{file} has no positions");
    let limit = limit();
    let next = AtomicUsize::new(0);
    let failures = Mutex::new(Vec::new());
    let checked = AtomicUsize::new(0);
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(vector) = vectors.get(i) else { break };
                let wanted: Vec<(u32, u64)> = vector
                    .counts
                    .iter()
                    .copied()
                    .filter(|(_, count)| *count < limit)
                    .collect();
                let Some(max_depth) = wanted.iter().map(|(d, _)| *d).max() else {
                    continue;
                };
                let position = match parse_fen(rules.variant(), &vector.fen) {
                    Ok(position) => position,
                    Err(error) => {
                        failures
                            .lock()
                            .unwrap()
                            .push(format!("{file}:{}: {}: {error}", vector.line, vector.fen));
                        continue;
                    }
                };
                let counts = perft_counts(&rules, &position, max_depth);
                for (depth, expected) in wanted {
                    let got = counts[depth as usize - 1];
                    checked.fetch_add(1, Ordering::Relaxed);
                    if got != expected {
                        failures.lock().unwrap().push(format!(
                            "{file}:{}: {} depth {depth}: expected {expected}, got {got}",
                            vector.line, vector.fen
                        ));
                    }
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(
        checked.load(Ordering::Relaxed) > 0,
        "no depth of {file} was checked"
    );
}

#[test]
fn chess_chessprogramming_positions() {
    check_file("chess", "chessprogramming.epd");
}

#[test]
fn chess_standard_suite() {
    check_file("chess", "standard.epd");
}

#[test]
fn chess960_suite() {
    check_file("chess", "chess960.epd");
}

#[test]
fn ppc_without_irc() {
    check_file("ppc-perft", "ppc.epd");
}

#[test]
fn kingcapture_suite() {
    check_file("kingcapture", "kingcapture.epd");
}

#[test]
fn capablanca_suite() {
    check_file("capablanca", "capablanca.epd");
}

#[test]
fn losalamos_suite() {
    check_file("losalamos", "losalamos.epd");
}
