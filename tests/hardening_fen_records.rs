//! FENs and records that no game can produce are refused with a reason
//! (issue 12, item 10), and what standard tools write is read.

mod common;

use varc_runtime::fen::{parse_fen, write_fen, FenError};
use varc_runtime::game::record;

fn fen_error(variant: &str, fen: &str) -> FenError {
    parse_fen(&common::variant(variant), fen).expect_err(fen)
}

fn fen_round_trip(variant: &str, fen: &str) {
    let variant = common::variant(variant);
    let position = parse_fen(&variant, fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    assert_eq!(write_fen(&variant, &position), fen);
}

#[test]
fn castling_letters_must_name_castling_rooks() {
    // Shredder-FEN letters on files with no rook were accepted and written
    // back as `KGFEDCBQ`.
    let error = fen_error("chess", "4k3/8/8/8/8/8/8/R3K2R w ABCDEFGH - 0 1");
    assert!(matches!(error, FenError::Castling { .. }), "{error}");
    // `HAha` without black rooks, like `KQkq` without them.
    let error = fen_error("chess", "4k3/8/8/8/8/8/8/R3K2R w HAha - 0 1");
    assert!(matches!(error, FenError::Castling { .. }), "{error}");
    fen_round_trip("chess", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    // Shredder-FEN letters of real rooks are read (and written as X-FEN).
    let variant = common::variant("chess");
    let position =
        parse_fen(&variant, "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1").expect("rooks on b and g");
    assert_eq!(
        write_fen(&variant, &position),
        "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w KQkq - 0 1"
    );
}

#[test]
fn position_without_a_royal_is_refused_under_the_check_rule() {
    // It was accepted and called stalemate.
    let error = fen_error("chess", "8/8/8/8/8/8/8/8 w - - 0 1");
    assert!(matches!(error, FenError::NoRoyal { .. }), "{error}");
    let error = fen_error("ppc", "4k3/8/8/8/8/8/8/8 w - - 0 1");
    assert!(matches!(error, FenError::NoRoyal { .. }), "{error}");
    // Where kings can be captured, a side may have lost its king.
    fen_round_trip("kingcapture", "4k3/8/8/8/8/8/8/R7 w - - 0 1");
}

#[test]
fn piece_where_promotion_is_mandatory_is_refused() {
    let error = fen_error("chess", "P3k3/8/8/8/8/8/8/4K3 w - - 0 1");
    assert!(
        matches!(error, FenError::MustHavePromoted { .. }),
        "{error}"
    );
    // PPC P1: a rook in enemy territory has promoted on arriving there.
    let error = fen_error("ppc", "4k3/R7/8/8/8/8/8/4K3 w - - 0 1");
    assert!(
        matches!(error, FenError::MustHavePromoted { .. }),
        "{error}"
    );
    fen_round_trip("ppc", "4k3/R'7/8/8/8/8/8/4K3 w - - 0 1");
    // Chess 99 D1: a pawn on the last rank waits to promote.
    fen_round_trip("chess99", "P3k3/8/8/8/8/8/8/4K3 w - - 0 1");
}

#[test]
fn lineage_longer_than_a_piece_remembers_is_refused() {
    // `K(PBNR)` was read as `K(BNR)`: no round trip.
    let error = fen_error("alternate-scoring", "4k3/8/8/8/8/8/8/4K(PBNR)3 w - - 0 1");
    assert!(matches!(error, FenError::LineageTooLong { .. }), "{error}");
    fen_round_trip("alternate-scoring", "4k3/8/8/8/8/8/8/4K(PB)3 w - - 0 1");
}

const GAME: &str = "[Event \"Casual\"]\n[Site \"?\"]\n[Date \"2026.11.30\"]\n[Round \"1\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n\n1. e4 e5 *\n";

#[test]
fn record_with_a_byte_order_mark_loads() {
    let text = format!("\u{feff}{GAME}");
    let game = record::load(common::rules("chess"), &text).expect("a BOM is skipped");
    assert_eq!(game.steps().len(), 2);
}

#[test]
fn conflicting_result_tags_are_refused() {
    let text = GAME.replace("[Result \"*\"]", "[Result \"*\"]\n[Result \"1-0\"]");
    let error = record::load(common::rules("chess"), &text).expect_err("two results");
    assert!(error.to_string().contains("second [Result]"), "{error}");
    // The same tag twice with one value is harmless.
    let text = GAME.replace("[Result \"*\"]", "[Result \"*\"]\n[Result \"*\"]");
    assert!(record::load(common::rules("chess"), &text).is_ok());
}

#[test]
fn result_token_contradicting_the_result_tag_is_refused() {
    let text = GAME.replace("1. e4 e5 *", "1. e4 e5 1-0");
    let error = record::load(common::rules("chess"), &text).expect_err("1-0 against *");
    assert!(error.to_string().contains("contradicts"), "{error}");
}

#[test]
fn a_result_decided_off_the_board_loads_and_writes_back() {
    // Standard PGN ends a resigned or adjudicated game with its result and
    // no step: the game loads going on, with the recorded result.
    let text = "[Variant \"chess\"]\n[Result \"0-1\"]\n\n1. e4 e5 2. Nf3 Nc6 0-1\n";
    let loaded = record::load_record(common::rules("chess"), text).expect("loads");
    assert!(loaded.game.result().is_none());
    assert_eq!(loaded.off_board.as_deref(), Some("0-1"));
    // Written back with the result given as a tag, and read again.
    let written = loaded
        .game
        .to_record(&[("Result", "0-1"), ("Termination", "adjudication")]);
    assert!(written.contains("[Result \"0-1\"]"), "{written}");
    assert!(written.trim_end().ends_with("0-1"), "{written}");
    let again = record::load_record(common::rules("chess"), &written).expect("reads back");
    assert_eq!(again.off_board.as_deref(), Some("0-1"));
    // A game that ended on the board keeps its own result and reason.
    let mated = "[Variant \"chess\"]\n\n1. f3 e5 2. g4 Qh4#\n";
    let game = record::load(common::rules("chess"), mated).expect("loads");
    let written = game.to_record(&[("Result", "1-0"), ("Termination", "adjudication")]);
    assert!(written.contains("[Result \"0-1\"]"), "{written}");
    assert_eq!(written.matches("[Termination").count(), 1, "{written}");
    assert!(!written.contains("adjudication"), "{written}");
    assert_eq!(record::parse_score_text("1/2-1/2"), Some([0.5, 0.5]));
    assert_eq!(record::parse_score_text("2+1/2-1"), Some([2.5, 1.0]));
    assert_eq!(record::parse_score_text("*"), None);
}
