//! Three-check's sentences, from the rule text (README, "Events and
//! counters"): the event `check` counts the checks a player gives;
//! `in fen counting down from N` makes the counter a FEN field written as
//! Fairy-Stockfish writes 3check's checks remaining (`3+3`); the game ends
//! on the third check. Each game case runs in the interpreter and in the
//! compiled engine, which must agree; a malformed field is a clear error.

mod common;

use std::path::PathBuf;
use varc::model::Variant;
use varc_runtime::fen::{parse_fen, write_fen, FenError};

fn three_check_file() -> PathBuf {
    common::variants_dir().join("gallery/3check.rules")
}

fn three_check() -> Variant {
    varc::load_variant(&three_check_file()).unwrap_or_else(|e| panic!("{}", e.render()))
}

#[test]
fn check_counter_fen_field_reads_and_writes_checks_left() {
    let variant = three_check();
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+3 0 1",
        "rnbqkbnr/ppppp1pp/5p2/7Q/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 2+3 1 2",
        "4k3/8/8/8/8/8/8/4K3 w - - 1+0 10 40",
    ] {
        let position = parse_fen(&variant, fen).expect("reads");
        assert_eq!(write_fen(&variant, &position), fen);
    }
    let position = parse_fen(&variant, "4k3/8/8/8/8/8/8/4K3 w - - 1+0 10 40").expect("reads");
    assert_eq!(position.counters(varc::model::Color::White), [2]);
    assert_eq!(position.counters(varc::model::Color::Black), [3]);
}

/// Without the field, no check has been given yet.
#[test]
fn check_counter_fen_field_may_be_left_out() {
    let variant = three_check();
    let position = parse_fen(
        &variant,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    )
    .expect("reads");
    assert_eq!(write_fen(&variant, &position), variant.start_fen);
}

#[test]
fn check_counter_fen_field_malformed_is_a_clear_error() {
    let variant = three_check();
    for field in ["4+3", "3+", "+3", "a+b", "3+3+3", "-1+3"] {
        let fen = format!("4k3/8/8/8/8/8/8/4K3 w - - {field} 0 1");
        match parse_fen(&variant, &fen) {
            Err(FenError::Counter { name, from, found }) => {
                assert_eq!((name.as_str(), from, found.as_str()), ("checks", 3, field));
            }
            other => panic!("{field}: {other:?}"),
        }
    }
    let error = parse_fen(&variant, "4k3/8/8/8/8/8/8/4K3 w - - 4+3 0 1").unwrap_err();
    assert!(error.to_string().contains("counter checks"), "{error}");
}

/// 1. e4 f6 2. Qh5+: White has given one check, the FEN says 2+3.
#[test]
fn check_event_counts_a_check_given() {
    for value in common::replay_both(
        &three_check_file(),
        &three_check(),
        &["--moves", "e2e4 f7f6 d1h5"],
    ) {
        assert_eq!(
            value["fen"], "rnbqkbnr/ppppp1pp/5p2/7Q/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 2+3 1 2",
            "{value}"
        );
        assert_eq!(
            value["counters"]["checks"],
            serde_json::json!({"white": 1, "black": 0}),
            "{value}"
        );
        assert_eq!(value["status"], "ongoing", "{value}");
    }
}

/// White has given two checks (1+3); a third check wins at once, though
/// it is no checkmate.
#[test]
fn third_check_wins() {
    let fen = "4k3/8/8/8/8/8/8/R3K3 w - - 1+3 0 1";
    for value in common::replay_both(
        &three_check_file(),
        &three_check(),
        &["--fen", fen, "--moves", "a1a8"],
    ) {
        assert_eq!(value["status"], "ended", "{value}");
        assert_eq!(value["reason"], "three checks", "{value}");
        assert_eq!(value["score_text"], "1-0", "{value}");
    }
}
