//! `capture-rule compulsory`, from the rule text (README, "Special moves
//! and legality"): when the side to move has a legal capture (en passant
//! included, the check rule applied), only its captures are legal, and a
//! quiet move is refused with a reason that says so. Each case runs in the
//! interpreter and in the compiled engine, which must agree.

mod common;

use std::path::PathBuf;
use std::process::Command;
use varc::interp::Interpreter;
use varc::model::Variant;
use varc_runtime::fen::parse_fen;
use varc_runtime::notation::{long_algebraic_of, parse_move, MoveTextError};
use varc_runtime::rules::Rules;

fn gallery_dir() -> PathBuf {
    common::variants_dir().join("gallery")
}

fn gallery_file(name: &str) -> PathBuf {
    gallery_dir().join(format!("{name}.rules"))
}

fn gallery_variant(name: &str) -> Variant {
    varc::load_variant(&gallery_file(name)).unwrap_or_else(|e| panic!("{}", e.render()))
}

/// Chess with captures compulsory: the rule under the check rule.
const CHESS_MUST_CAPTURE: &str =
    "variant chessmustcapture extends chess\ncapture-rule compulsory\n";

fn chess_must_capture() -> Variant {
    varc::load_variant_from_str("chessmustcapture.rules", CHESS_MUST_CAPTURE, &gallery_dir())
        .unwrap_or_else(|e| panic!("{}", e.render()))
}

/// Antichess after 1. e4 d5: White's pawn can take on d5, so taking is
/// White's only move, and 2. e5 is refused because captures are compulsory.
#[test]
fn compulsory_capture_refuses_a_quiet_move_when_a_capture_exists() {
    let args = ["--moves", "e2e4 d7d5 e4e5"];
    for value in common::replay_both(
        &gallery_file("antichess"),
        &gallery_variant("antichess"),
        &args,
    ) {
        assert_eq!(common::sorted_legal_moves(&value), ["e4d5"], "{value}");
        assert_eq!(value["error"], "illegal move e4e5", "{value}");
        let reason = value["reason"].as_str().unwrap_or_default();
        assert!(
            reason.contains("captures are compulsory") && reason.contains("e4d5"),
            "{value}"
        );
    }
}

/// An en passant capture is a capture: White's pawn on e5 may take the pawn
/// that has just passed it, so the king may not move.
#[test]
fn compulsory_capture_counts_en_passant() {
    let fen = "8/8/8/3pP3/8/8/8/K6k w - d6 0 1";
    let args = ["--fen", fen, "--moves", "a1b1"];
    for value in common::replay_both(
        &gallery_file("antichess"),
        &gallery_variant("antichess"),
        &args,
    ) {
        assert_eq!(common::sorted_legal_moves(&value), ["e5d6"], "{value}");
        let reason = value["reason"].as_str().unwrap_or_default();
        assert!(reason.contains("captures are compulsory"), "{value}");
    }
    // The compiled engine's perft, with and without bulk counting at the
    // last ply, counts the one capture.
    let engine = common::engine(&gallery_variant("antichess"));
    for extra in [&[][..], &["--no-bulk"][..]] {
        let output = Command::new(&engine)
            .args(["perft", "1", "--fen", fen])
            .args(extra)
            .output()
            .expect("the engine counts");
        let text = String::from_utf8_lossy(&output.stdout);
        assert_eq!(text.trim(), "1", "perft 1 {extra:?}");
    }
}

/// Without a capture every move stays legal: the start position has
/// chess's twenty moves.
#[test]
fn compulsory_capture_leaves_every_move_when_nothing_can_be_taken() {
    for value in common::replay_both(
        &gallery_file("antichess"),
        &gallery_variant("antichess"),
        &[],
    ) {
        assert_eq!(common::sorted_legal_moves(&value).len(), 20, "{value}");
    }
}

/// Under the check rule, a capture the check rule forbids does not count:
/// White's rook on d2 is pinned by the bishop on b4, so taking the knight
/// on a2 is illegal, and the king's quiet moves are White's moves. Taking
/// is refused for leaving the king in check, not for the capture rule.
/// Once the bishop stands where the rook can take it, the capture is
/// compulsory.
/// The legal moves of `position` in long algebraic notation, sorted.
fn sorted_legal_texts(
    rules: &Interpreter,
    position: &<Interpreter as Rules>::Position,
) -> Vec<String> {
    let legal = rules.legal_moves(position);
    let mut texts: Vec<String> = legal
        .iter()
        .map(|mv| long_algebraic_of(rules, mv, &legal))
        .collect();
    texts.sort();
    texts
}

#[test]
fn compulsory_capture_under_the_check_rule_counts_legal_captures_only() {
    let variant = chess_must_capture();
    let pinned = "7k/8/8/8/1b6/8/n2R4/4K3 w - - 0 1";
    let rules = Interpreter::new(variant.clone()).expect("interpreter");
    let position = rules.import(&parse_fen(&variant, pinned).expect("FEN"));
    let texts = sorted_legal_texts(&rules, &position);
    assert_eq!(texts, ["e1d1", "e1e2", "e1f1", "e1f2"]);
    match parse_move(&rules, &position, "d2a2") {
        Err(MoveTextError::LeavesRoyalAttacked { .. }) => {}
        other => panic!("d2a2: {other:?}"),
    }

    let free_bishop = "7k/8/8/8/8/3b4/n2R4/4K3 w - - 0 1";
    let position = rules.import(&parse_fen(&variant, free_bishop).expect("FEN"));
    let texts = sorted_legal_texts(&rules, &position);
    assert_eq!(texts, ["d2a2", "d2d3"]);
    // e1f1 would leave the king attacked by the bishop: that is the reason.
    match parse_move(&rules, &position, "e1f1") {
        Err(MoveTextError::LeavesRoyalAttacked { .. }) => {}
        other => panic!("e1f1: {other:?}"),
    }
    match parse_move(&rules, &position, "e1d1") {
        Err(MoveTextError::CaptureCompulsory { example, .. }) => {
            assert!(texts.contains(&example), "{example}")
        }
        other => panic!("e1d1: {other:?}"),
    }

    // The compiled engine agrees on both positions.
    let engine = common::engine(&variant);
    for (fen, expected) in [(pinned, 4), (free_bishop, 2)] {
        let output = Command::new(&engine)
            .args(["perft", "1", "--fen", fen])
            .output()
            .expect("the engine counts");
        let text = String::from_utf8_lossy(&output.stdout);
        assert_eq!(text.trim(), expected.to_string(), "{fen}");
    }
}

/// `varc play` says why a quiet move is refused.
#[test]
fn compulsory_capture_refusal_is_explained_by_varc_play() {
    let output = common::play_script(&gallery_file("antichess"), "e4\nd5\ne5\nquit\n");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        text.contains("captures are compulsory: e5 captures nothing"),
        "{text}"
    );
}

/// `replace capture-rule free` lifts the rule in a variant built on one
/// that has it.
#[test]
fn compulsory_capture_is_lifted_by_replace_capture_rule_free() {
    let free = varc::load_variant_from_str(
        "free.rules",
        "variant free extends antichess\nreplace capture-rule free\n",
        &gallery_dir(),
    )
    .unwrap_or_else(|e| panic!("{}", e.render()));
    let rules = Interpreter::new(free.clone()).expect("interpreter");
    let after_e4_d5 = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w - - 0 2";
    let position = rules.import(&parse_fen(&free, after_e4_d5).expect("FEN"));
    assert!(rules.legal_moves(&position).len() > 1);
}
