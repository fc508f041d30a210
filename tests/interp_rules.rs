//! Movement rules of RULES.md, checked through the reference interpreter on
//! the bundled rules files. Each test names the rule it checks.

mod common;

use varc::interp::Interpreter;
use varc_runtime::fen::{parse_fen, write_fen};
use varc_runtime::notation::{long_algebraic, parse_move};
use varc_runtime::perft::perft;
use varc_runtime::position::Position;
use varc_runtime::rules::Rules;

/// The position after playing `moves` (long algebraic or SAN) from `fen`.
fn after(rules: &Interpreter, fen: &str, moves: &str) -> Position {
    let mut position = parse_fen(rules.variant(), fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    for text in moves.split_whitespace() {
        let mv = parse_move(rules, &position, text).unwrap_or_else(|e| panic!("{text}: {e}"));
        position = rules.play(&position, &mv);
    }
    position
}

/// The legal moves in long algebraic.
fn legal(rules: &Interpreter, position: &Position) -> Vec<String> {
    let moves = rules.legal_moves(position);
    moves
        .iter()
        .map(|m| long_algebraic(rules.variant(), m, &moves))
        .collect()
}

fn has(list: &[String], text: &str) -> bool {
    list.iter().any(|m| m == text)
}

#[test]
fn c2_castling_not_through_an_attacked_square() {
    let chess = common::rules("chess");
    let position = after(&chess, "4k3/8/8/8/8/8/5r2/R3K2R w KQ - 0 1", "");
    let moves = legal(&chess, &position);
    assert!(!has(&moves, "e1g1"), "f1 is attacked: no short castling");
    assert!(has(&moves, "e1c1"), "the long side is free");
    // Under capture-the-king rules castling needs only rights and empty squares.
    let kingcapture = common::rules("kingcapture");
    let moves = legal(
        &kingcapture,
        &after(&kingcapture, "4k3/8/8/8/8/8/5r2/R3K2R w KQ - 0 1", ""),
    );
    assert!(has(&moves, "e1g1"));
}

#[test]
fn c2_castling_rights_lost_when_the_rook_moves() {
    let chess = common::rules("chess");
    let position = after(
        &chess,
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
        "h1h2 a8a7 h2h1 a7a8",
    );
    assert_eq!(
        write_fen(chess.variant(), &position),
        "r3k2r/8/8/8/8/8/8/R3K2R w Qk - 4 3"
    );
    assert!(!has(&legal(&chess, &position), "e1g1"));
}

#[test]
fn c3_en_passant_only_right_after_the_double_step() {
    let chess = common::rules("chess");
    let start = chess.variant().start_fen.clone();
    let position = after(&chess, &start, "e2e4 a7a6 e4e5 d7d5");
    assert!(has(&legal(&chess, &position), "e5d6"));
    let later = after(&chess, &start, "e2e4 a7a6 e4e5 d7d5 a2a3 a6a5");
    assert!(!has(&legal(&chess, &later), "e5d6"));
    let taken = after(&chess, &start, "e2e4 a7a6 e4e5 d7d5 exd6");
    assert_eq!(
        taken.piece_at(varc::model::Square::new(3, 4)),
        None,
        "the d5 pawn is removed"
    );
}

#[test]
fn c4_promotion_to_queen_rook_bishop_or_knight() {
    let chess = common::rules("chess");
    let moves = legal(&chess, &after(&chess, "4k3/P7/8/8/8/8/8/4K3 w - - 0 1", ""));
    for text in ["a7a8q", "a7a8r", "a7a8b", "a7a8n"] {
        assert!(has(&moves, text), "{text}");
    }
    assert!(!has(&moves, "a7a8"), "promotion is mandatory");
}

#[test]
fn c5_no_move_leaves_the_king_in_check() {
    let chess = common::rules("chess");
    let position = after(&chess, "4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1", "");
    let moves = legal(&chess, &position);
    assert!(
        moves.iter().all(|m| !m.starts_with("e2")),
        "the bishop is pinned on the file: {moves:?}"
    );
}

#[test]
fn p2_pieces_promote_on_entering_enemy_territory() {
    let ppc = common::rules("ppc");
    let moves = legal(&ppc, &after(&ppc, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", ""));
    assert!(has(&moves, "a1a6r'") && has(&moves, "a1a8r'"));
    assert!(!has(&moves, "a1a6") && has(&moves, "a1a5"));
    // Castling never promotes (Decision P2) and pawns follow P4 only.
    let moves = legal(&ppc, &after(&ppc, "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", ""));
    assert!(has(&moves, "e1g1") && has(&moves, "e1c1"));
}

#[test]
fn p3_promoted_pieces_are_not_royal() {
    let ppc = common::rules("ppc");
    // The Rooking may move into attack and be captured.
    let position = after(&ppc, "4k3/8/8/3r4/8/8/R'7/4K3 w - - 0 1", "");
    assert!(has(&legal(&ppc, &position), "a2d2"));
    let position = after(&ppc, "4k3/8/8/3r4/8/8/R'7/4K3 w - - 0 1", "a2d2");
    assert!(
        has(&legal(&ppc, &position), "d5d2r'"),
        "captured, by a rook that promotes there"
    );
    // Its king step: Rooking on a2 reaches b3 and b1.
    assert!(has(
        &legal(&ppc, &after(&ppc, "4k3/8/8/8/8/8/R'7/4K3 w - - 0 1", "")),
        "a2b3"
    ));
}

#[test]
fn p4_pawn_promotes_to_queen_or_kniking_only() {
    let ppc = common::rules("ppc");
    let moves = legal(&ppc, &after(&ppc, "4k3/P7/8/8/8/8/8/4K3 w - - 0 1", ""));
    let promotions: Vec<&String> = moves.iter().filter(|m| m.starts_with("a7a8")).collect();
    assert_eq!(promotions, ["a7a8q", "a7a8n'"]);
}

#[test]
fn a1_king_may_move_into_attack_and_be_captured() {
    let kingcapture = common::rules("kingcapture");
    let position = after(&kingcapture, "4k3/8/8/8/8/8/4r3/4K3 w - - 0 1", "");
    assert!(has(&legal(&kingcapture, &position), "e1f2"));
    let captured = after(&kingcapture, "4k3/8/8/8/8/8/4r3/4K3 w - - 0 1", "e1f2 e2f2");
    assert!(
        rules_has_no_moves(&kingcapture, &captured),
        "the side without king has no moves"
    );
}

fn rules_has_no_moves(rules: &Interpreter, position: &Position) -> bool {
    rules.legal_moves(position).is_empty() && perft(rules, position, 2) == 0
}

#[test]
fn a2_king_captured_crowns_a_bishop_then_moves() {
    let alternate = common::rules("alternate-scoring");
    let position = after(&alternate, "4k3/8/8/8/8/8/4r3/2B1K1N1 b - - 0 1", "e2e1");
    let moves = legal(&alternate, &position);
    assert!(!moves.is_empty());
    assert!(
        moves.iter().all(|m| m.starts_with("c1^")),
        "every move crowns c1 first: {moves:?}"
    );
    assert!(has(&moves, "c1^g1f3"), "then any ordinary move");
    assert!(has(&moves, "c1^c1d1"), "the new king moves as a king");
    let crowned = after(
        &alternate,
        "4k3/8/8/8/8/8/4r3/2B1K1N1 b - - 0 1",
        "e2e1 c1^g1f3",
    );
    assert_eq!(
        write_fen(alternate.variant(), &crowned),
        "4k3/8/8/8/8/5N2/8/2K(B)1r3 b - - 1 2"
    );
    // Without a bishop there is nothing to crown: no moves.
    let position = after(&alternate, "4k3/8/8/8/8/8/4r3/4K1N1 b - - 0 1", "e2e1");
    assert!(rules_has_no_moves(&alternate, &position));
}

#[test]
fn d1_d3_delayed_promotion_then_one_non_capturing_move() {
    let chess99 = common::rules("chess99");
    let position = after(&chess99, "1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8");
    assert!(
        has(&legal(&chess99, &position), "e8d8"),
        "D1: the move to the last rank does not promote"
    );
    let position = after(&chess99, "1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8 e8e7");
    let moves = legal(&chess99, &position);
    assert!(
        has(&moves, "a8=b") && has(&moves, "a8=n"),
        "D2: bishop or knight"
    );
    assert!(!moves
        .iter()
        .any(|m| m.starts_with("a8=q") || m.starts_with("a8=r")));
    assert!(
        has(&moves, "a8=n>c7") && has(&moves, "a8=n>b6"),
        "D3: one non-capturing move"
    );
    assert!(
        !moves.iter().any(|m| m.ends_with(">b8")),
        "no capture as follow-up"
    );
    let promoted = after(
        &chess99,
        "1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1",
        "a7a8 e8e7 a8=n>c7",
    );
    assert_eq!(
        write_fen(chess99.variant(), &promoted),
        "1r6/2N1k3/8/8/8/8/8/4K3 b - - 0 2"
    );
}

#[test]
fn d5_double_step_onto_the_last_rank_can_be_taken_en_passant() {
    let mini = common::rules("chess99-mini");
    let start = mini.variant().start_fen.clone();
    let position = after(&mini, &start, "c2c4");
    let moves = legal(&mini, &position);
    assert!(has(&moves, "b4c3") && has(&moves, "d4c3"), "{moves:?}");
}
