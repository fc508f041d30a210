//! Coregal's sentences, from the rule text (README, "Pieces and
//! movement", "Promotion" and "Special moves and legality"): a `royal`
//! queen beside the royal king is protected by `check-rule royal` like the
//! king (no move may leave it attacked, a side whose queen is attacked is
//! in check, and a check on the queen that no move escapes is checkmate),
//! and a pawn may promote into the royal queen, which is then royal too.
//! Each case runs in the interpreter and in the compiled engine, which
//! must agree.

mod common;

use std::path::PathBuf;
use varc::model::Variant;

fn coregal_file() -> PathBuf {
    common::variants_dir().join("gallery/coregal.rules")
}

fn coregal() -> Variant {
    varc::load_variant(&coregal_file()).unwrap_or_else(|e| panic!("{}", e.render()))
}

fn replay_in_both(args: &[&str]) -> [serde_json::Value; 2] {
    common::replay_both(&coregal_file(), &coregal(), args)
}

#[test]
fn the_queen_is_royal_and_pawns_promote_into_it() {
    let variant = coregal();
    let royal: Vec<&str> = variant
        .pieces
        .iter()
        .filter(|p| p.royal)
        .map(|p| p.name.as_str())
        .collect();
    assert_eq!(royal, ["king", "queen"]);
    let queen = variant.pieces.iter().position(|p| p.name == "queen");
    assert!(variant
        .promotions
        .iter()
        .any(|rule| rule.choices.iter().any(|c| Some(*c) == queen)));
}

/// The rook on d8 attacks White's queen: White is in check, and only the
/// queen's moves off the d-file answer it (taking the rook lands next to
/// Black's king; the king's moves leave the queen attacked).
#[test]
fn a_royal_queen_attacked_is_check_and_must_be_saved() {
    for value in replay_in_both(&["--fen", "3rk3/8/8/8/8/8/8/3QK3 w - - 0 1"]) {
        assert_eq!(value["in_check"], true, "{value}");
        assert_eq!(
            common::sorted_legal_moves(&value),
            ["d1a1", "d1a4", "d1b1", "d1b3", "d1c1", "d1c2", "d1e2", "d1f3", "d1g4", "d1h5"]
        );
    }
}

/// A pawn may promote into the queen, and the new queen is royal: on a8
/// it would stand attacked by the rook on b8, so that promotion is
/// illegal, while a rook there and a queen taking on b8 are legal.
#[test]
fn a_pawn_promotes_into_the_royal_queen_which_may_not_be_left_attacked() {
    for value in replay_in_both(&["--fen", "1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1"]) {
        let moves = common::sorted_legal_moves(&value);
        assert!(!moves.contains(&"a7a8q".to_string()), "{moves:?}");
        assert!(moves.contains(&"a7a8r".to_string()), "{moves:?}");
        assert!(moves.contains(&"a7b8q".to_string()), "{moves:?}");
    }
}

/// White's queen is attacked along the a-file, every flight square is
/// attacked or blocked and nothing can interpose: checkmate, with White's
/// king untouched.
#[test]
fn a_queen_that_cannot_escape_check_is_checkmated() {
    for value in replay_in_both(&["--fen", "rk6/8/8/8/8/8/1P6/QR2K3 w - - 0 1"]) {
        assert_eq!(value["status"], "ended", "{value}");
        assert_eq!(value["reason"], "checkmate", "{value}");
    }
}

/// Perft with the ending rules, both back ends, against counts from
/// Fairy-Stockfish's Python binding (pyffish 0.0.90) for the positions
/// above.
#[test]
fn royal_queen_perft_agrees_with_fairy_stockfish_in_both_back_ends() {
    const CASES: [(&str, [u64; 3]); 3] = [
        ("3rk3/8/8/8/8/8/8/3QK3 w - - 0 1", [10, 104, 1854]),
        ("1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1", [12, 128, 1343]),
        ("rk6/8/8/8/8/8/1P6/QR2K3 w - - 0 1", [0, 0, 0]),
    ];
    common::assert_end_rules_perft_in_both_back_ends(&coregal(), &CASES);
}

/// A royal piece may promote only into royal kinds (E0410 otherwise): it
/// would stop being royal, and with the last one the check rule would no
/// longer hold for its side. Promotion into royal kinds is allowed.
#[test]
fn a_royal_piece_may_promote_only_into_royal_kinds() {
    let file = |choices: &str| {
        format!(
            "variant v \"V\"\nboard 4 x 4\nsetup \"k3/4/4/3K w - - 0 1\"\n\
             region last-rank = rank last relative\n\
             piece king \"K\" royal moves king-step\n\
             piece queen \"Q\" royal moves ride (0,1) + ride (1,1)\n\
             piece rook \"R\" moves ride (0,1)\n\
             promote king to {choices} in last-rank, mandatory\n"
        )
    };
    let dir = common::variants_dir();
    let into_royal = varc::load::load_variant_from_str("v.rules", &file("queen"), &dir);
    assert!(
        into_royal.is_ok(),
        "a royal piece promoting into a royal kind"
    );
    let error = varc::load::load_variant_from_str("v.rules", &file("queen | rook"), &dir)
        .expect_err("a royal piece promoting into a rook");
    let text = error.render();
    assert!(text.contains("E0410") && text.contains("`rook`"), "{text}");
}
