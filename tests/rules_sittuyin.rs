//! Sittuyin's sentences, from the rule text (README, "Hands and drops",
//! "Promotion"): `drop-rule compulsory` (while the side to move has a
//! legal drop, only its drops are legal), a royal piece dropped from a
//! start position that holds it in hand, `drops of` regions per kind
//! (rooks on the first rank), and a delayed promotion with `at most N on
//! the board`, `anywhere for the last one` and `attacking nothing`. Each
//! case runs in the interpreter and in the compiled engine, which must
//! agree; the counts are Fairy-Stockfish's (pyffish 0.0.90).

mod common;

use std::path::PathBuf;
use varc::model::Variant;

fn sittuyin_file() -> PathBuf {
    common::variants_dir().join("gallery/sittuyin.rules")
}

fn sittuyin() -> Variant {
    varc::load_variant(&sittuyin_file()).unwrap_or_else(|e| panic!("{}", e.render()))
}

/// The sorted legal moves in `fen` after `moves`, in both back ends.
fn legal_in_both(fen: &str, moves: &str) -> [Vec<String>; 2] {
    let mut args = vec!["--fen", fen];
    if !moves.is_empty() {
        args.extend(["--moves", moves]);
    }
    common::replay_both(&sittuyin_file(), &sittuyin(), &args).map(|value| {
        assert!(value["error"].is_null(), "{value}");
        common::sorted_legal_moves(&value)
    })
}

/// The FEN after `moves` from `fen`, in both back ends.
fn fen_in_both(fen: &str, moves: &str) -> [String; 2] {
    common::replay_both(
        &sittuyin_file(),
        &sittuyin(),
        &["--fen", fen, "--moves", moves],
    )
    .map(|value| value["fen"].as_str().unwrap_or_default().to_string())
}

const START: &str = "8/8/4pppp/pppp4/4PPPP/PPPP4/8/8[KFRRSSNNkfrrssnn] w - - 0 1";

/// The setup phase: every legal move is a drop onto the mover's first
/// three ranks, rooks only onto the first; the king is dropped too.
#[test]
fn the_setup_phase_is_drops_onto_the_home_ranks_rooks_on_the_first() {
    for moves in legal_in_both(START, "") {
        assert_eq!(moves.len(), 88);
        assert!(moves.iter().all(|m| m.as_bytes()[1] == b'@'), "{moves:?}");
        let rooks: Vec<&String> = moves.iter().filter(|m| m.starts_with("R@")).collect();
        assert_eq!(rooks.len(), 8);
        assert!(rooks.iter().all(|m| m.ends_with('1')));
        assert!(moves.contains(&"K@e3".to_string()));
        assert!(!moves.contains(&"K@a3".to_string()), "a3 holds a pawn");
    }
}

/// A side that can drop must, even with a capture at hand (e4xd5); once
/// its hand is empty it moves, while the other side still drops.
#[test]
fn drops_are_compulsory_while_the_hand_holds_pieces() {
    for moves in legal_in_both(START, "K@e2 k@e7") {
        assert!(moves.iter().all(|m| m.contains('@')), "{moves:?}");
        assert!(!moves.contains(&"e4d5".to_string()));
    }
    let white_done = "8/8/4pppp/pppp4/4PPPP/PPPP4/8/RNSKFSNR[krrssnnf] w - - 0 5";
    for moves in legal_in_both(white_done, "") {
        assert!(moves.contains(&"e4d5".to_string()), "{moves:?}");
        assert!(!moves.iter().any(|m| m.contains('@')));
    }
}

/// The last pawn promotes anywhere, in place or one diagonal step, but
/// not onto d5 or f5, where the met would attack the king.
#[test]
fn the_last_pawn_promotes_anywhere_attacking_nothing() {
    for moves in legal_in_both("8/8/4k3/8/4P3/8/8/R3K3[] w - - 0 1", "") {
        let promotions: Vec<&String> = moves.iter().filter(|m| m.contains('=')).collect();
        assert_eq!(promotions, ["e4=f", "e4=f>d3", "e4=f>f3"]);
    }
}

/// With two pawns, only one on a promotion square promotes; with a met
/// on the board, none does.
#[test]
fn two_pawns_promote_only_on_the_promotion_squares_and_never_beside_a_met() {
    for moves in legal_in_both("8/8/4k3/8/2P1P3/8/8/R3K3[] w - - 0 1", "") {
        assert!(!moves.iter().any(|m| m.contains('=')), "{moves:?}");
    }
    for moves in legal_in_both("8/8/1k6/8/4P3/7P/8/R3K3[] w - - 0 1", "e4e5 b6b7") {
        let promotions: Vec<&String> = moves.iter().filter(|m| m.contains('=')).collect();
        assert_eq!(
            promotions,
            ["e5=f", "e5=f>d4", "e5=f>d6", "e5=f>f4", "e5=f>f6"]
        );
    }
    let with_met = "8/8/4k3/8/4P3/8/8/R2FK3[] w - - 0 1";
    for moves in legal_in_both(with_met, "") {
        assert!(!moves.iter().any(|m| m.contains('=')), "{moves:?}");
    }
}

/// A promotion may not give check by discovery either: the pawn that
/// shields the king from the rook may only promote in place.
#[test]
fn a_promotion_gives_no_discovered_check() {
    for moves in legal_in_both("4k3/8/8/8/4P3/8/8/4R1K1[] w - - 0 1", "") {
        let promotions: Vec<&String> = moves.iter().filter(|m| m.contains('=')).collect();
        assert_eq!(promotions, ["e4=f"]);
    }
}

/// Fairy-Stockfish's text of a promotion (`e4d3f`) is read; the met
/// stands on d3, and Black's lone king counts 16 moves against the rook
/// (the FEN as pyffish writes it, hands aside).
#[test]
fn fairy_stockfish_promotion_text_and_asean_counting() {
    for fen in fen_in_both("8/8/4k3/8/4P3/8/8/R3K3[] w - - 0 1", "e4d3f") {
        assert_eq!(fen, "8/8/4k3/8/8/3F4/8/R3K3[] b - 32 0 1");
    }
    for fen in fen_in_both("k7/8/8/8/8/8/4p3/R3K3[] w - - 0 1", "e1e2 a8b8 a1a2") {
        assert_eq!(fen, "1k6/8/8/8/8/8/R3K3/8[] b - 32 2 2");
    }
}

/// Perft with the ending rules against Fairy-Stockfish's counts: the
/// setup phase, and promotions with a rook watching.
#[test]
fn perft_agrees_with_fairy_stockfish() {
    common::assert_end_rules_perft_in_both_back_ends(
        &sittuyin(),
        &[
            (
                "8/8/4pppp/pppp4/4PPPP/PPPP4/8/RNSKFSNR[krrssnnf] b - - 0 5",
                [88, 2376, 177736],
            ),
            ("r2k4/8/2P5/3P4/8/8/8/R3K3[] w - - 0 1", [24, 268, 5532]),
            ("4k3/6r1/5P2/4P3/8/8/8/4K3[] w - - 0 1", [14, 216, 2484]),
        ],
    );
}

/// A move refused because a drop is possible says so.
#[test]
fn a_move_refused_for_a_possible_drop_says_why() {
    let file = sittuyin_file();
    let (value, _) =
        common::replay_json(&[file.to_str().expect("path"), "--moves", "K@e2 k@e7 e4d5"]);
    assert_eq!(value["error"], "illegal move e4d5");
    let reason = value["reason"].as_str().unwrap_or_default();
    assert!(
        reason.starts_with("drops are compulsory: e4d5 is not a drop"),
        "{value}"
    );
}
