//! Gating, from the rule text (README, "Hands and drops"): `drops of
//! PIECES onto REGION, by gating` lets a piece from the hand enter the
//! square of the region that an unmoved piece of its side leaves, as part
//! of that piece's move; castling may gate on the king's square or the
//! rook's. A gating move is legal when the move without it is. The FEN
//! names the unmoved pieces of the first rank while the hand holds pieces.
//! Seirawan (S-Chess) from the gallery; each case runs in the interpreter
//! and in the compiled engine, and the expected moves, FENs and SAN are
//! Fairy-Stockfish's (pyffish 0.0.90).

mod common;

use std::path::PathBuf;
use varc::model::Variant;

fn seirawan_file() -> PathBuf {
    common::variants_dir().join("gallery/seirawan.rules")
}

fn seirawan() -> Variant {
    varc::load_variant(&seirawan_file()).unwrap_or_else(|e| panic!("{}", e.render()))
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[HEhe] w KQBCDFGkqbcdfg - 0 1";

/// `replay --json` from `fen` after `moves`, in both back ends, each
/// checked to have played every move.
fn replay_in_both(fen: &str, moves: &str) -> [serde_json::Value; 2] {
    let mut args = vec!["--fen", fen];
    if !moves.is_empty() {
        args.extend(["--moves", moves]);
    }
    common::replay_both(&seirawan_file(), &seirawan(), &args).map(|value| {
        assert!(value["error"].is_null(), "{value}");
        value
    })
}

fn texts(value: &serde_json::Value, key: &str) -> Vec<String> {
    value[key]
        .as_array()
        .unwrap_or_else(|| panic!("{key} in {value}"))
        .iter()
        .map(|m| m.as_str().unwrap_or_default().to_string())
        .collect()
}

/// From the start, each knight's move may bring in the hawk or the
/// elephant behind it; no other piece of the first rank can move.
#[test]
fn a_first_move_from_the_first_rank_may_gate_either_piece_in_hand() {
    let expected = [
        "a2a3", "a2a4", "b1a3", "b1a3e", "b1a3h", "b1c3", "b1c3e", "b1c3h", "b2b3", "b2b4", "c2c3",
        "c2c4", "d2d3", "d2d4", "e2e3", "e2e4", "f2f3", "f2f4", "g1f3", "g1f3e", "g1f3h", "g1h3",
        "g1h3e", "g1h3h", "g2g3", "g2g4", "h2h3", "h2h4",
    ];
    for value in replay_in_both(START, "") {
        assert_eq!(common::sorted_legal_moves(&value), expected);
    }
}

/// The gated piece has moved (it is no gate), the piece in hand that was
/// not used may still enter behind another piece, and a piece that left
/// its square without gating leaves no gate behind.
#[test]
fn a_gated_piece_and_a_moved_piece_leave_no_gate() {
    for value in replay_in_both(START, "b1c3h e7e5") {
        assert_eq!(
            value["fen"],
            "rnbqkbnr/pppp1ppp/8/4p3/8/2N5/PPPPPPPP/RHBQKBNR[Eeh] w KQCDFGkqbcdfg - 0 2"
        );
        let moves = common::sorted_legal_moves(&value);
        assert!(moves.contains(&"g1f3e".to_string()), "{moves:?}");
        assert!(
            !moves.iter().any(|m| m.starts_with("b1") && m.len() == 5),
            "{moves:?}"
        );
        assert!(!moves.iter().any(|m| m.ends_with('h')), "{moves:?}");
    }
}

/// Castling gates on the king's square (`e1g1e`, `O-O/Ee1`) or on the
/// rook's (`h1e1e`, `O-O/Eh1`); the FEN then names the rook that has not
/// moved by its file (`A`), as Fairy-Stockfish writes it.
#[test]
fn castling_gates_on_the_kings_square_or_the_rooks() {
    let before = "e2e4 e7e5 g1f3 b8c6h f1c4 f8c5";
    let cases = [
        (
            "e1g1e",
            "O-O/Ee1",
            "rhbqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQERK1[He] b ABCDkqcdg - 5 4",
        ),
        (
            "h1e1e",
            "O-O/Eh1",
            "rhbqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQ1RKE[He] b ABCDkqcdg - 5 4",
        ),
        (
            "e1g1",
            "O-O",
            "rhbqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1[EHe] b ABCDkqcdg - 5 4",
        ),
    ];
    for (text, san, fen) in cases {
        for value in replay_in_both(START, &format!("{before} {text}")) {
            assert_eq!(value["fen"], fen, "{text}");
            assert_eq!(texts(&value, "moves").last().map(String::as_str), Some(san));
        }
        // The SAN is read back as the same move.
        for value in replay_in_both(START, &format!("e4 e5 Nf3 Nc6/H Bc4 Bc5 {san}")) {
            assert_eq!(value["fen"], fen, "{san}");
        }
    }
}

/// Once a side's hand is empty, its gate letters are no longer written
/// (its castling letters are).
#[test]
fn gate_letters_go_when_the_hand_is_empty() {
    let moves = "e2e4 e7e5 g1f3 b8c6h f1c4 f8c5 h1e1e g8f6e d1e2h";
    for value in replay_in_both(START, moves) {
        assert_eq!(
            value["fen"],
            "rhbqk1er/pppp1ppp/2n2n2/2b1p3/2B1P3/5N2/PPPPQPPP/RNBH1RKE[] b kq - 7 5"
        );
        assert_eq!(texts(&value, "moves")[6..], ["O-O/Eh1", "Nf6/E", "Qe2/H"]);
    }
}

/// The bishop on d1 is pinned along the first rank: a hawk entering d1
/// would block the pin, but a gating move is legal only when the move
/// without it is, so only the king moves.
#[test]
fn a_gating_move_is_legal_only_when_the_move_without_it_is() {
    for value in replay_in_both("4k3/8/8/8/8/8/8/r2BK3[H] w D - 0 1", "") {
        assert_eq!(
            common::sorted_legal_moves(&value),
            ["e1d2", "e1e2", "e1f1", "e1f2"]
        );
    }
}

/// Move text that names no gating move is refused with a reason, and
/// changes nothing.
#[test]
fn bad_gating_text_is_refused() {
    for (text, reason) in [
        ("b1c3q", "b1c3q"),
        ("Nc3/", "gating suffix"),
        ("Nc3/X", "X"),
        ("h1e1", "h1e1"),
    ] {
        let (value, code) =
            common::replay_json(&[seirawan_file().to_str().expect("path"), "--moves", text]);
        assert_ne!(code, 0, "{text}");
        assert!(
            value["reason"]
                .as_str()
                .unwrap_or_default()
                .contains(reason)
                || value["error"].as_str().unwrap_or_default().contains(reason),
            "{text}: {value}"
        );
        assert_eq!(value["fen"], START.replace("[HEhe]", "[EHeh]"), "{text}");
    }
}

/// A game record writes gating moves in SAN (`Nc6/H`, `O-O/Eh1`) and
/// reads them back to the same position and history; so does a
/// crazyhouse record with drops (`N@f3`).
#[test]
fn records_with_gating_and_drops_load_back() {
    let cases = [
        (
            seirawan(),
            "e2e4 e7e5 g1f3 b8c6h f1c4 f8c5 h1e1e g8f6e d1e2h",
        ),
        (
            common::variant("gallery/crazyhouse"),
            "e2e4 d7d5 e4d5 d8d5 b1c3 d5a5 d2d4 a5c3 b2c3 N@f6",
        ),
    ];
    for (variant, moves) in cases {
        let rules = varc::interp::Interpreter::new(variant).expect("interpreter");
        let mut game = varc_runtime::game::Game::new(rules).expect("game");
        for text in moves.split_whitespace() {
            game.play_text(text)
                .unwrap_or_else(|e| panic!("{text}: {e}"));
        }
        common::check_record_round_trip(&game);
    }
}
