//! Janggi's movement sentences, from the rule text (README, "Pieces and
//! movement"): `along REGION` keeps every square of a move in the region
//! (the palace's diagonal lines), `not over PIECES` bars a hop's screen,
//! `not capturing PIECES` a capture, and `lame-leap (2,3)` is blocked at
//! `(0,1)` and `(1,2)` (the elephant). Janggi's passing, bikjang and
//! material counting are not stated yet, so these tests use janggi's
//! pieces under the plain check rule. Every case runs in the interpreter
//! and in the compiled engine, which must agree; the perft counts are
//! Fairy-Stockfish's (pyffish 0.0.90, `janggi`) with its pass moves left
//! out, on positions where the kings cannot come to face each other
//! within three plies (so bikjang plays no part).

mod common;

use std::path::PathBuf;
use varc::model::{Motion, Variant};

const JANGGI_MOVEMENT: &str = r#"variant janggi-movement "Janggi's pieces"

board 9 x 10
setup "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1"

region palace = ranks 1..3 - files a..c - files g..i relative
region palace-lines = squares d1 f1 e2 d3 f3 d8 f8 e9 d10 f10

piece king "K" royal confined to palace moves leap (0,1) + leap (1,1) along palace-lines
piece advisor "A" confined to palace moves leap (0,1) + leap (1,1) along palace-lines
piece elephant "B" moves lame-leap (2,3)
piece horse "N" moves lame-leap (1,2)
piece rook "R" moves ride (0,1) + ride (1,1) along palace-lines
piece cannon "C" moves (hop (0,1) + hop (1,1) along palace-lines) not over cannon not capturing cannon
piece soldier "P" moves forward leap (0,1) + sideways leap (1,0) + forward leap (1,1) along palace-lines

check-rule royal

checkmate: end when no legal moves and in check => win for opponent
stalemate: end when no legal moves and not in check => win for opponent
"#;

/// The rules above, written to a file (the interpreter's `replay` reads one).
fn rules_file() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("varc-rules-janggi-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("janggi-movement.rules");
    std::fs::write(&path, JANGGI_MOVEMENT).expect("write rules");
    path
}

fn variant() -> Variant {
    varc::load_variant_from_str(
        "janggi-movement.rules",
        JANGGI_MOVEMENT,
        &std::env::temp_dir(),
    )
    .unwrap_or_else(|e| panic!("{}", e.render()))
}

fn legal_moves_in_both(fen: &str) -> [Vec<String>; 2] {
    common::replay_both(&rules_file(), &variant(), &["--fen", fen])
        .map(|value| common::sorted_legal_moves(&value))
}

#[test]
fn the_limits_are_lowered_onto_the_atoms() {
    let variant = variant();
    let lines = variant.region_by_name("palace-lines");
    let kind = |name: &str| variant.pieces.iter().position(|p| p.name == name);
    let rook = &variant.pieces[kind("rook").expect("rook")];
    assert_eq!(rook.moves[0].limits.along, None);
    assert_eq!(rook.moves[1].limits.along, lines);
    let cannon = &variant.pieces[kind("cannon").expect("cannon")];
    for atom in &cannon.moves {
        assert!(matches!(atom.motion, Motion::Hop { .. }));
        assert_eq!(atom.limits.not_over, vec![kind("cannon").expect("id")]);
        assert_eq!(atom.limits.not_capturing, vec![kind("cannon").expect("id")]);
    }
    assert_eq!(cannon.moves[1].limits.along, lines);
}

/// The rook rides the palace's diagonals from d1 through e2 to f3, and no
/// further (g4 is off the lines); from d2, off the lines, it has no
/// diagonal move at all.
#[test]
fn a_rook_rides_the_palace_diagonals_only() {
    for moves in legal_moves_in_both("3k5/9/9/9/9/9/9/9/9/R2R1K3 w - - 0 1") {
        for diagonal in ["d1e2", "d1f3"] {
            assert!(moves.iter().any(|m| m == diagonal), "{moves:?}");
        }
        assert!(!moves.iter().any(|m| m == "d1g4"), "{moves:?}");
    }
    for moves in legal_moves_in_both("3k5/9/9/9/9/9/9/9/3R5/5K3 w - - 0 1") {
        assert!(
            !moves.iter().any(|m| m == "d2e3" || m == "d2e1"),
            "{moves:?}"
        );
    }
}

/// A cannon does not jump a cannon: e5's cannon, under Black's on e8,
/// has no move up the file (only down, over the soldier on e4), and e1's,
/// behind the soldier and its own cannon, none. Nor does it take one:
/// over the soldier, e1's cannon lands on e5, e6 or e7, not on e8.
#[test]
fn a_cannon_neither_jumps_nor_takes_a_cannon() {
    for moves in legal_moves_in_both("3k5/9/4c4/9/9/4C4/4P4/9/9/4C3K w - - 0 1") {
        let cannons: Vec<&String> = moves
            .iter()
            .filter(|m| m.starts_with('e') && !m.starts_with("e4"))
            .collect();
        assert_eq!(cannons, ["e5e2", "e5e3"], "{moves:?}");
    }
    for moves in legal_moves_in_both("3k5/9/4c4/9/9/9/4P4/9/9/4C3K w - - 0 1") {
        let cannon: Vec<&String> = moves.iter().filter(|m| m.starts_with("e1")).collect();
        assert_eq!(cannon, ["e1e5", "e1e6", "e1e7"], "{moves:?}");
    }
}

/// The elephant's (2,3) leap is blocked at its orthogonal first step and
/// at its diagonal second: from e1, e2 blocks the four leaps up the board,
/// and with e2 empty a piece on d3 blocks only the leap to c4.
#[test]
fn the_elephant_is_blocked_at_both_steps() {
    for moves in legal_moves_in_both("3k5/9/9/9/9/9/9/9/4P4/4B3K w - - 0 1") {
        let leaps: Vec<&String> = moves.iter().filter(|m| m.starts_with("e1")).collect();
        assert_eq!(leaps, ["e1b3", "e1h3"], "{moves:?}");
    }
    for moves in legal_moves_in_both("3k5/9/9/9/9/9/9/3P5/9/4B3K w - - 0 1") {
        let leaps: Vec<&String> = moves.iter().filter(|m| m.starts_with("e1")).collect();
        assert_eq!(leaps, ["e1b3", "e1g4", "e1h3"], "{moves:?}");
    }
}

/// Perft against Fairy-Stockfish's counts (its passes left out), in both
/// back ends: cannons in and near the palaces, a soldier in the enemy
/// palace (d8), pieces on the palace diagonals.
#[test]
fn perft_agrees_with_fairy_stockfish_without_its_passes() {
    common::assert_end_rules_perft_in_both_back_ends(
        &variant(),
        &[
            (
                "2bka4/4a1nb1/r1n4cC/p6pR/p8/3P2N2/P2P2PPN/R3CA3/1c7/2BA1KB2 b - - 6 35",
                [30, 1180, 37914],
            ),
            (
                "4akbn1/3B5/3a1c1r1/4p4/pp2p3p/P4CPR1/NP4N1P/c5C2/1R1AK4/5AB2 b - - 16 41",
                [30, 1048, 32175],
            ),
            (
                "9/1n3a1br/1c1a1k3/6n1b/4BCPR1/p6c1/6pP1/1C2AA3/1N7/RNB1K4 w - - 1 42",
                [34, 785, 27242],
            ),
            (
                "1n2aab2/1b7/3P1k3/1p2rp3/5B1nP/7c1/2PP5/4A2C1/N2KC4/3A2c2 w - - 20 48",
                [30, 895, 27144],
            ),
            (
                "2ba1nb2/3k5/1cn2C1c1/4p4/1pN5p/P4PPp1/RP7/1r3A1R1/5K3/2B2ABC1 w - - 2 44",
                [30, 951, 29232],
            ),
            (
                "1nba5/3a5/2c2k2n/9/3b3pp/3C2pP1/1P2P4/C3A3N/R8/1NBK1ABR1 b - - 1 42",
                [26, 1122, 29044],
            ),
        ],
    );
}

// ------------------------------------------------------------------
// The rest of janggi, as `variants/gallery/janggi.rules` states it:
// `pass`, `royals facing each other must part`, the `pass` event,
// `royals face each other` and `PLAYER points lead`.

fn janggi_file() -> PathBuf {
    common::variants_dir().join("gallery/janggi.rules")
}

fn janggi() -> Variant {
    varc::load_variant(&janggi_file()).unwrap_or_else(|e| panic!("{}", e.render()))
}

fn janggi_in_both(args: &[&str]) -> [serde_json::Value; 2] {
    common::replay_both(&janggi_file(), &janggi(), args)
}

#[test]
fn the_janggi_sentences_are_lowered() {
    let variant = janggi();
    let king = variant.pieces.iter().find(|p| p.name == "king");
    assert_eq!(king.map(|p| p.passes), Some(true));
    assert_eq!(variant.pieces.iter().filter(|p| p.passes).count(), 1);
    assert_eq!(
        variant.legality.royal_facing,
        varc::model::RoyalFacing::MustPart
    );
}

/// A pass is the king's move to its own square, legal when not in check:
/// from the start White has it (`e2e2`); in check by the cannon on f3
/// over e2 (the palace's diagonal), White's king may not pass.
#[test]
fn the_king_passes_unless_in_check() {
    for value in janggi_in_both(&[]) {
        let moves = common::sorted_legal_moves(&value);
        assert!(moves.iter().any(|m| m == "e2e2"), "{moves:?}");
        assert_eq!(moves.len(), 32);
    }
    for value in janggi_in_both(&["--fen", "4k4/9/9/9/9/9/9/5c3/4A4/3K5 w - - 0 1"]) {
        assert_eq!(value["in_check"], true, "{value}");
        let moves = common::sorted_legal_moves(&value);
        assert!(!moves.iter().any(|m| m == "d1d1"), "{moves:?}");
    }
}

/// Bikjang: with the kings facing on the open e-file, White must part
/// them (e1d1, e1f1) or pass; e1e2 keeps them facing. A pass then ends
/// the game by points: 0 against 0, so Black wins.
#[test]
fn facing_kings_must_part_or_pass_and_a_pass_ends_the_game() {
    let fen = "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1";
    for value in janggi_in_both(&["--fen", fen]) {
        assert_eq!(common::sorted_legal_moves(&value), ["e1d1", "e1e1", "e1f1"]);
    }
    for value in janggi_in_both(&["--fen", fen, "--moves", "e1e1"]) {
        assert_eq!(value["status"], "ended", "{value}");
        assert_eq!(value["reason"], "bikjang", "{value}");
        assert_eq!(value["result"], "black wins", "{value}");
    }
}

/// Under bikjang a pass is legal even in check: White's rook on d10
/// checks Black's king along the tenth rank while the kings face each
/// other on the f-file. e10 and e9 (the palace's diagonal from d10) are
/// attacked and f9 keeps the kings facing, so Black's one legal move is
/// the pass (as in Fairy-Stockfish).
#[test]
fn under_bikjang_a_pass_is_legal_in_check() {
    let fen = "3R1k3/9/9/9/9/9/9/9/9/5K3 b - - 0 1";
    for value in janggi_in_both(&["--fen", fen]) {
        assert_eq!(value["in_check"], true, "{value}");
        assert_eq!(common::sorted_legal_moves(&value), ["f10f10"]);
    }
}

/// Two passes in a row end the game by points: White, a rook up (13
/// points, a lead of 2 or more), wins; from the start (a lead of 0),
/// Black wins. The `pass` event's counter resets on any other move.
#[test]
fn two_passes_in_a_row_end_the_game_by_points() {
    for value in janggi_in_both(&[
        "--fen",
        "4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1",
        "--moves",
        "d1d1 e10e10",
    ]) {
        assert_eq!(value["status"], "ended", "{value}");
        assert_eq!(value["reason"], "two passes in a row", "{value}");
        assert_eq!(value["result"], "white wins", "{value}");
    }
    for value in janggi_in_both(&["--moves", "e2e2 b10c8 b1c3 e9e9"]) {
        assert_eq!(value["status"], "ongoing", "{value}");
        assert_eq!(value["counters"]["passes"]["white"], 0, "{value}");
        assert_eq!(value["counters"]["passes"]["black"], 1, "{value}");
    }
    for value in janggi_in_both(&["--moves", "e2e2 e9e9"]) {
        assert_eq!(value["result"], "black wins", "{value}");
    }
}
