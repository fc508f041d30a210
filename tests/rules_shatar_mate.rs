//! Shatar's mate rules, from the rule text (README, "Events and counters"
//! and "Termination"; `variants/gallery/shatar.rules`): the event
//! `check by PIECES` counts the checks given with one of those pieces among
//! the checkers (a shak); a counter's `reset on not check` ends the series
//! at a move that gives no check; the condition `in check by only PIECES`
//! holds when every checker is of those kinds. A mate by knights alone
//! loses for the side that gives it, a mate after a shak in the series
//! wins, any other mate is a draw (niol). Each game case runs in the
//! interpreter and in the compiled engine, which must agree.

mod common;

use std::path::PathBuf;
use varc::model::Variant;

fn shatar_file() -> PathBuf {
    common::variants_dir().join("gallery/shatar.rules")
}

fn shatar() -> Variant {
    varc::load_variant(&shatar_file()).unwrap_or_else(|e| panic!("{}", e.render()))
}

fn replay(fen: &str, moves: &str) -> [serde_json::Value; 2] {
    common::replay_both(&shatar_file(), &shatar(), &["--fen", fen, "--moves", moves])
}

/// A smothered mate by a knight: the knight's check is a shak, but a mate
/// by knights alone is not allowed, so the mated side wins.
#[test]
fn shatar_mate_by_knights_alone_loses_for_the_mating_side() {
    for value in replay("6rk/6pp/8/4N3/8/8/8/K7 w - - 0 1", "e5f7") {
        assert_eq!(value["status"], "ended", "{value}");
        assert_eq!(value["reason"], "mate by knights alone", "{value}");
        assert_eq!(value["score_text"], "0-1", "{value}");
    }
}

/// A back-rank mate by a rook: the mating check is itself a shak.
#[test]
fn shatar_mate_with_a_shak_wins() {
    for value in replay("7k/6pp/8/8/8/8/8/R5K1 w - - 0 1", "a1a8") {
        assert_eq!(value["status"], "ended", "{value}");
        assert_eq!(value["reason"], "checkmate", "{value}");
        assert_eq!(value["score_text"], "1-0", "{value}");
        assert_eq!(
            value["counters"]["shak"],
            serde_json::json!({"white": 1, "black": 0})
        );
    }
}

/// A mate by a bishop whose series of checks holds no shak is a draw.
#[test]
fn shatar_mate_without_a_shak_is_a_draw() {
    for value in replay("6bk/7p/2K5/8/8/4B3/8/8 w - - 0 1", "e3d4") {
        assert_eq!(value["status"], "ended", "{value}");
        assert_eq!(value["reason"], "mate without a shak (niol)", "{value}");
        assert_eq!(value["score_text"], "1/2-1/2", "{value}");
        assert_eq!(
            value["counters"]["shak"],
            serde_json::json!({"white": 0, "black": 0})
        );
    }
}

/// A rook check starts the series (1), a bishop check continues it
/// without counting, a quiet move ends it (0).
#[test]
fn shatar_series_of_checks_counts_shaks_and_ends_at_a_quiet_move() {
    let fen = "4k3/7p/8/8/8/8/8/R3B1K1 w - - 0 1";
    for (moves, white) in [
        ("a1a8", 1),
        ("a1a8 e8e7 e1h4", 1),
        ("a1a8 e8e7 e1h4 e7d7 g1g2", 0),
    ] {
        for value in replay(fen, moves) {
            assert_eq!(value["status"], "ongoing", "{moves}: {value}");
            assert_eq!(
                value["counters"]["shak"],
                serde_json::json!({"white": white, "black": 0}),
                "{moves}"
            );
        }
    }
}

/// A king left alone draws at once (robado), before any mate rule.
#[test]
fn shatar_bare_king_draws() {
    for value in replay("4k3/8/8/8/8/8/p7/R3B1K1 w - - 0 1", "a1a2") {
        assert_eq!(value["status"], "ended", "{value}");
        assert_eq!(value["reason"], "bare king (robado)", "{value}");
        assert_eq!(value["score_text"], "1/2-1/2", "{value}");
    }
}

/// The new words name pieces: an unknown one is the usual error.
#[test]
fn check_by_an_unknown_piece_is_refused() {
    let dir = std::env::temp_dir().join(format!("varc-check-by-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    for (line, unknown) in [
        ("counter other counts check by dragon", "dragon"),
        (
            "counter other counts check, reset on not check by wyvern",
            "wyvern",
        ),
        (
            "mate: end when no legal moves and in check by only griffin => draw",
            "griffin",
        ),
    ] {
        let file = dir.join("bad.rules");
        let text = std::fs::read_to_string(shatar_file())
            .expect("shatar")
            .replace("variant shatar \"Shatar\"", "variant bad \"Bad\"")
            + line
            + "\n";
        std::fs::write(&file, text).expect("write");
        let error = match varc::load_variant(&file) {
            Ok(_) => panic!("{line}: accepted"),
            Err(e) => e.render(),
        };
        assert!(error.contains(unknown), "{line}: {error}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
