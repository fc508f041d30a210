//! Atomic chess's sentence, from the rule text (README, "Special moves
//! and legality"): `capture explodes radius 1, except pawn` removes the
//! capturing piece and every piece but a pawn within one king step of the
//! capture square; under the check rule a move may not blow up the
//! mover's royal piece (so a king never captures), a move that blows up
//! the opponent's is legal whatever it leaves attacked, and a royal piece
//! next to the opponent's is not attacked. Each case runs in the
//! interpreter and in the compiled engine, which must agree.

mod common;

use std::path::PathBuf;
use varc::model::Variant;

fn atomic_file() -> PathBuf {
    common::variants_dir().join("gallery/atomic.rules")
}

fn atomic() -> Variant {
    varc::load_variant(&atomic_file()).unwrap_or_else(|e| panic!("{}", e.render()))
}

fn replay_in_both(args: &[&str]) -> [serde_json::Value; 2] {
    common::replay_both(&atomic_file(), &atomic(), args)
}

#[test]
fn the_explosion_is_lowered_from_the_sentence() {
    let variant = atomic();
    let explosion = variant.explosion.as_ref().expect("atomic explodes");
    assert_eq!(explosion.radius, 1);
    let pawn = variant.pieces.iter().position(|p| p.name == "pawn");
    assert_eq!(explosion.immune, pawn.into_iter().collect::<Vec<_>>());
    assert_eq!(common::variant("chess").explosion, None);
}

/// Qe2xe4 blows up the capturer, the captured queen and the knight, rook
/// and bishop around e4; the pawn on d4 stays.
#[test]
fn a_capture_removes_the_capturer_and_every_piece_but_pawns_around_it() {
    for value in replay_in_both(&[
        "--fen",
        "4k3/8/8/3nrb2/3pq3/8/4Q3/4K3 w - - 0 1",
        "--moves",
        "e2e4",
    ]) {
        assert_eq!(value["fen"], "4k3/8/8/8/3p4/8/8/4K3 b - - 0 1", "{value}");
    }
}

/// The king next to a pawn may not take it: the blast would take the king.
#[test]
fn a_king_never_captures() {
    for value in replay_in_both(&["--fen", "4k3/8/8/8/8/8/4p3/4K3 w - - 0 1"]) {
        assert_eq!(common::sorted_legal_moves(&value), ["e1d2", "e1f2"]);
    }
}

/// Qe2xd2 would blow up White's own king on e1: refused.
#[test]
fn a_move_that_blows_up_the_own_king_is_illegal() {
    for value in replay_in_both(&[
        "--fen",
        "4k3/8/8/8/8/8/3rQ3/4K3 w - - 0 1",
        "--moves",
        "e2d2",
    ]) {
        assert_eq!(value["error"], "illegal move e2d2", "{value}");
    }
}

/// White is in check from the rook on a8, yet Qd1xd8 is legal: it blows
/// up Black's king on e8, which wins.
#[test]
fn blowing_up_the_opponents_king_is_legal_in_check_and_wins() {
    for value in replay_in_both(&["--fen", "r2bk3/8/8/8/8/8/8/K2Q4 w - - 0 1"]) {
        assert_eq!(value["in_check"], true, "{value}");
        assert_eq!(
            common::sorted_legal_moves(&value),
            ["a1b1", "a1b2", "d1a4", "d1d8"]
        );
    }
    for value in replay_in_both(&[
        "--fen",
        "r2bk3/8/8/8/8/8/8/K2Q4 w - - 0 1",
        "--moves",
        "d1d8",
    ]) {
        assert_eq!(value["status"], "ended", "{value}");
        assert_eq!(value["reason"], "king exploded", "{value}");
    }
}

/// Kings side by side: the rook on a4 does not check White's king on e4
/// (taking it would blow up Black's own king), and White's king may step
/// along the rook's rank as long as it stays next to Black's.
#[test]
fn a_king_next_to_the_enemy_king_is_not_in_check() {
    for value in replay_in_both(&["--fen", "8/8/8/4k3/r3K3/8/8/8 w - - 0 1"]) {
        assert_eq!(value["in_check"], false, "{value}");
        assert_eq!(
            common::sorted_legal_moves(&value),
            ["e4d3", "e4d4", "e4d5", "e4e3", "e4f3", "e4f4", "e4f5"]
        );
    }
}

/// White's king on e1 is next to Black's, so not in check from the rook
/// on h1; but the king, lifted from e1, would pass d1 under the rook's
/// fire: no long castling.
#[test]
fn castling_may_not_pass_a_square_attacked_through_the_kings_own() {
    for value in replay_in_both(&["--fen", "8/8/8/8/8/8/5k2/R3K2r w Q - 0 1"]) {
        assert_eq!(value["in_check"], false, "{value}");
        let moves = common::sorted_legal_moves(&value);
        assert!(!moves.contains(&"e1c1".to_string()), "{moves:?}");
        assert_eq!(moves.len(), 13, "{moves:?}");
    }
}

/// Perft with the ending rules, both back ends, against counts from
/// Fairy-Stockfish's Python binding (pyffish 0.0.90) for the positions
/// above.
#[test]
fn explosion_perft_agrees_with_fairy_stockfish_in_both_back_ends() {
    const CASES: [(&str, [u64; 3]); 6] = [
        ("4k3/8/8/3nrb2/3pq3/8/4Q3/4K3 w - - 0 1", [6, 176, 2378]),
        ("4k3/8/8/8/8/8/4p3/4K3 w - - 0 1", [2, 18, 92]),
        ("4k3/8/8/8/8/8/3rQ3/4K3 w - - 0 1", [20, 205, 4027]),
        ("r2bk3/8/8/8/8/8/8/K2Q4 w - - 0 1", [4, 42, 841]),
        ("8/8/8/4k3/r3K3/8/8/8 w - - 0 1", [7, 142, 898]),
        ("8/8/8/8/8/8/5k2/R3K2r w Q - 0 1", [13, 211, 2966]),
    ];
    common::assert_end_rules_perft_in_both_back_ends(&atomic(), &CASES);
}
