//! G2: malformed FENs and move texts get typed errors that say which field
//! and what was expected, and no input makes the readers panic.

mod common;

use proptest::prelude::*;
use std::sync::OnceLock;
use varc::interp::Interpreter;
use varc_runtime::fen::{parse_fen, FenError};
use varc_runtime::notation::{parse_move, MoveTextError};
use varc_runtime::rules::Rules;

fn chess() -> &'static Interpreter {
    static RULES: OnceLock<Interpreter> = OnceLock::new();
    RULES.get_or_init(|| common::rules("chess"))
}

fn ppc() -> &'static Interpreter {
    static RULES: OnceLock<Interpreter> = OnceLock::new();
    RULES.get_or_init(|| common::rules("ppc"))
}

fn chess_error(fen: &str) -> FenError {
    parse_fen(chess().variant(), fen).expect_err("the FEN is malformed")
}

#[test]
fn g2_fen_errors_name_the_field() {
    assert_eq!(chess_error(""), FenError::Empty);
    assert!(matches!(
        chess_error("8/8/8/8/8/8/8 w - - 0 1"),
        FenError::RankCount {
            expected: 8,
            found: 7
        }
    ));
    assert!(matches!(
        chess_error("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        FenError::RankLength {
            rank: 6,
            expected: 8,
            found: 9
        }
    ));
    assert!(matches!(
        chess_error("rnbqkbnr/ppppzppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"),
        FenError::UnknownPiece { rank: 7, .. }
    ));
    assert!(matches!(
        chess_error("8/8/8/8/8/8/8/8 x - - 0 1"),
        FenError::SideToMove { .. }
    ));
    assert!(matches!(
        chess_error("4k3/8/8/8/8/8/8/4K3 w K - 0 1"),
        FenError::Castling { .. }
    ));
    assert!(matches!(
        chess_error("4k3/8/8/8/8/8/8/4K3 w Z - 0 1"),
        FenError::Castling { .. }
    ));
    assert!(matches!(
        chess_error("4k3/8/8/8/8/8/8/4K3 w - e9 0 1"),
        FenError::EnPassant { .. }
    ));
    assert!(matches!(
        chess_error("4k3/8/8/8/8/8/8/4K3 w - - x 1"),
        FenError::HalfmoveClock { .. }
    ));
    assert!(matches!(
        chess_error("4k3/8/8/8/8/8/8/4K3 w - - 0 -1"),
        FenError::FullmoveNumber { .. }
    ));
    assert!(matches!(
        chess_error("4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra"),
        FenError::TooManyFields { found: 7, .. }
    ));
    let message = chess_error("4k3/8/8/8/8/8/8/4K3 q - - 0 1").to_string();
    assert!(
        message.contains("side to move") && message.contains("'w' or 'b'"),
        "{message}"
    );
}

#[test]
fn p14_promoted_letters_read_in_fen() {
    let variant = ppc().variant();
    let position =
        parse_fen(variant, "4k3/8/3N'4/8/8/2q5/8/4R'1K1 b - - 0 1").expect("PPC letters read");
    let kniking = variant.piece_by_name("kniking").expect("ppc has a kniking");
    let d6 = varc::model::Square::new(3, 5);
    assert_eq!(position.piece_at(d6).map(|p| p.kind()), Some(kniking));
    // Plain chess has no R': the same text is an unknown piece there.
    assert!(matches!(
        parse_fen(chess().variant(), "4k3/8/3N'4/8/8/2q5/8/4R'1K1 b - - 0 1"),
        Err(FenError::UnknownPiece { .. })
    ));
}

#[test]
fn g2_move_text_errors_say_why() {
    let rules = chess();
    let start = parse_fen(rules.variant(), &rules.variant().start_fen).expect("start");
    assert_eq!(parse_move(rules, &start, ""), Err(MoveTextError::Empty));
    assert!(matches!(
        parse_move(rules, &start, "e3e4"),
        Err(MoveTextError::NoPieceOn { .. })
    ));
    assert!(matches!(
        parse_move(rules, &start, "e7e5"),
        Err(MoveTextError::NotYourPiece { .. })
    ));
    assert!(matches!(
        parse_move(rules, &start, "e2e5"),
        Err(MoveTextError::NoSuchMove { .. })
    ));
    assert!(matches!(
        parse_move(rules, &start, "e2e4%"),
        Err(MoveTextError::Unexpected { .. })
    ));
    assert!(matches!(
        parse_move(rules, &start, "z9"),
        Err(MoveTextError::Unexpected { .. }) | Err(MoveTextError::Syntax { .. })
    ));
    let pinned = parse_fen(rules.variant(), "4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1").expect("fen");
    let error = parse_move(rules, &pinned, "e2d3").expect_err("pinned bishop");
    assert_eq!(error.to_string(), "leaves your king in check");
    let promote = parse_fen(rules.variant(), "4k3/P7/8/8/8/8/8/4K3 w - - 0 1").expect("fen");
    assert!(matches!(
        parse_move(rules, &promote, "a7a8"),
        Err(MoveTextError::MissingPromotion { .. })
    ));
    assert!(parse_move(rules, &promote, "a7a8q").is_ok());
    assert!(parse_move(rules, &promote, "a8=Q").is_ok());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn g2_arbitrary_fen_text_never_panics(text in "\\PC{0,80}") {
        let _ = parse_fen(chess().variant(), &text);
        let _ = parse_fen(ppc().variant(), &text);
    }

    #[test]
    fn g2_fen_like_text_never_panics(
        text in "[rnbqkpRNBQKP'1-9/*()]{0,70} [wbx-] [KQkqA-Ha-h-]{1,5} ([a-p][0-9]{1,2}|-) [0-9x]{0,3} [0-9-]{0,3}"
    ) {
        if let Ok(position) = parse_fen(ppc().variant(), &text) {
            // Whatever reads must also generate moves without panicking.
            let _ = ppc().legal_moves(&position);
        }
        let _ = parse_fen(chess().variant(), &text);
    }

    #[test]
    fn g2_arbitrary_move_text_never_panics(text in "\\PC{0,24}") {
        let rules = chess();
        let start = parse_fen(rules.variant(), &rules.variant().start_fen).expect("start");
        let _ = parse_move(rules, &start, &text);
    }

    #[test]
    fn g2_move_like_text_never_panics(text in "([a-p][0-9]{1,2}|[KQRBNPxO0=>^'+#-]|[a-p]){0,8}") {
        let rules = ppc();
        let start = parse_fen(rules.variant(), "r3k2r/Pppp1ppp/1b3nbN'/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1").expect("fen");
        let _ = parse_move(rules, &start, &text);
    }
}
