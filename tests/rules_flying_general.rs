//! Xiangqi's sentences, from the rule text (README, "Pieces and movement"
//! and "Special moves and legality"): `check-rule royal, royals may not
//! face each other` makes a royal piece that sees an opponent's royal
//! piece along an open file or rank attacked by it, so no move may leave
//! the mover's general facing the other, nor step onto such a line, and a
//! general that faces the other is in check; `confined to REGION` keeps a
//! piece's moves on the region's squares. Each case runs in the
//! interpreter and in the compiled engine, which must agree.

mod common;

use std::path::PathBuf;
use varc::model::{RoyalFacing, Variant};

fn xiangqi_file() -> PathBuf {
    common::variants_dir().join("gallery/xiangqi.rules")
}

fn xiangqi() -> Variant {
    varc::load_variant(&xiangqi_file()).unwrap_or_else(|e| panic!("{}", e.render()))
}

/// The sorted legal moves of `fen` in both back ends.
fn legal_moves_in_both(fen: &str) -> [Vec<String>; 2] {
    common::replay_both(&xiangqi_file(), &xiangqi(), &["--fen", fen])
        .map(|value| common::sorted_legal_moves(&value))
}

#[test]
fn facing_and_confinement_are_lowered_from_the_sentences() {
    let variant = xiangqi();
    assert_eq!(variant.legality.royal_facing, RoyalFacing::Forbidden);
    assert_eq!(
        common::variant("chess").legality.royal_facing,
        RoyalFacing::Allowed
    );
    let palace = variant.region_by_name("palace");
    let advisor = variant.pieces.iter().find(|p| p.name == "advisor");
    assert_eq!(advisor.and_then(|p| p.confined), palace);
    let horse = variant.pieces.iter().find(|p| p.name == "horse");
    assert_eq!(horse.map(|p| p.confined), Some(None));
}

/// A horse alone between the generals may not leave their file (each of
/// its moves changes file); the general's own moves stay legal, off the
/// file or along it behind the horse.
#[test]
fn the_only_piece_between_the_generals_may_not_leave_the_file() {
    for moves in legal_moves_in_both("4k4/9/9/9/9/4N4/9/9/9/4K4 w - - 0 1") {
        assert_eq!(moves, ["e1d1", "e1e2", "e1f1"]);
    }
}

/// A general may not step onto the other's open file: from d1, e1 faces
/// Black's general on e10; c1 is outside the palace.
#[test]
fn a_general_may_not_step_onto_an_open_line_with_the_other() {
    for moves in legal_moves_in_both("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1") {
        assert_eq!(moves, ["d1d2"]);
    }
    for value in common::replay_both(
        &xiangqi_file(),
        &xiangqi(),
        &[
            "--fen",
            "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1",
            "--moves",
            "d1e1",
        ],
    ) {
        assert_eq!(value["error"], "illegal move d1e1", "{value}");
    }
}

/// With the advisor between them, the generals may share the file, and
/// the advisor, confined to the palace, still may not leave it (d1 and
/// f1 are its squares, d3 and f3 too; nothing beyond).
#[test]
fn a_blocked_file_is_no_facing_and_the_advisor_keeps_to_the_palace() {
    for moves in legal_moves_in_both("4k4/4a4/9/9/9/9/9/9/4A4/3K5 w - - 0 1") {
        assert_eq!(moves, ["d1d2", "d1e1", "e2d3", "e2f1", "e2f3"]);
    }
}

/// Generals that face each other with White to move: White is in check
/// (facing is an attack) and must leave the file; stepping forward along
/// it does not help.
#[test]
fn a_general_facing_the_other_is_in_check() {
    for value in common::replay_both(
        &xiangqi_file(),
        &xiangqi(),
        &["--fen", "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1"],
    ) {
        assert_eq!(value["in_check"], true, "{value}");
        assert_eq!(common::sorted_legal_moves(&value), ["e1d1", "e1f1"]);
    }
}

/// Perft with the ending rules, both back ends, against counts from
/// Fairy-Stockfish's Python binding (pyffish 0.0.90) for the positions
/// above and for two pieces between the generals (Black's cannon may not
/// leave the file: White's rook would check along it).
#[test]
fn flying_general_perft_agrees_with_fairy_stockfish_in_both_back_ends() {
    const CASES: [(&str, [u64; 3]); 6] = [
        ("4k4/9/9/9/9/4N4/9/9/9/4K4 w - - 0 1", [3, 7, 66]),
        ("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1", [1, 2, 5]),
        ("4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1", [2, 4, 6]),
        ("4k4/4a4/9/9/9/9/9/9/4A4/3K5 w - - 0 1", [5, 27, 83]),
        ("4k4/9/4c4/9/9/9/4R4/4P4/9/4K4 b - - 0 1", [7, 42, 294]),
        ("3k5/9/9/9/9/9/9/9/9/5K3 w - - 0 1", [2, 3, 7]),
    ];
    common::assert_end_rules_perft_in_both_back_ends(&xiangqi(), &CASES);
}

/// Fairy-Stockfish's start position reads and writes back unchanged.
#[test]
fn the_start_fen_round_trips() {
    let variant = xiangqi();
    let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    assert_eq!(variant.start_fen, fen);
    let position = varc_runtime::fen::parse_fen(&variant, fen).expect("fen");
    assert_eq!(varc_runtime::fen::write_fen(&variant, &position), fen);
}
