//! Racing Kings' sentences, from the rule text (README, "Special moves and
//! legality" and "Termination"): `check-rule royal, no checks` makes every
//! move that attacks the opponent's king illegal; `white to move` and
//! `can move PIECES into REGION` state Fairy-Stockfish's extra move after
//! White's king reaches rank 8. Each case runs in the interpreter and in
//! the compiled engine, which must agree.

mod common;

use std::path::PathBuf;
use varc::model::{GivingCheck, Variant};

fn racing_kings_file() -> PathBuf {
    common::variants_dir().join("gallery/racingkings.rules")
}

fn racing_kings() -> Variant {
    varc::load_variant(&racing_kings_file()).unwrap_or_else(|e| panic!("{}", e.render()))
}

#[test]
fn no_checks_is_lowered_from_the_check_rule() {
    assert_eq!(racing_kings().legality.giving_check, GivingCheck::Forbidden);
    let chess = common::variant("chess");
    assert_eq!(chess.legality.giving_check, GivingCheck::Allowed);
}

/// White's rook on c1 may not go to b1 (the file of Black's king on b7)
/// nor to c7 (its rank): those moves would give check. Every other move
/// stays legal.
#[test]
fn no_checks_refuses_every_move_that_attacks_the_opponents_king() {
    let fen = "8/1k4K1/8/8/8/8/8/2R5 w - - 0 1";
    for value in common::replay_both(&racing_kings_file(), &racing_kings(), &["--fen", fen]) {
        let moves = common::sorted_legal_moves(&value);
        assert!(!moves.contains(&"c1b1".to_string()), "{value}");
        assert!(!moves.contains(&"c1c7".to_string()), "{value}");
        assert!(moves.contains(&"c1c6".to_string()), "{value}");
        assert_eq!(moves.len(), 20, "{value}");
    }
    for value in common::replay_both(
        &racing_kings_file(),
        &racing_kings(),
        &["--fen", fen, "--moves", "c1b1"],
    ) {
        assert_eq!(value["error"], "illegal move c1b1", "{value}");
        let reason = value["reason"].as_str().unwrap_or_default();
        assert!(reason.contains("no move may give check"), "{value}");
    }
}

/// White's king reaches rank 8 while Black's king cannot follow: White
/// wins at once.
#[test]
fn a_king_on_the_goal_wins_when_the_other_cannot_answer() {
    let fen = "8/6K1/1k6/8/8/8/8/8 w - - 0 1";
    for value in common::replay_both(
        &racing_kings_file(),
        &racing_kings(),
        &["--fen", fen, "--moves", "g7g8"],
    ) {
        assert_eq!(value["status"], "ended", "{value}");
        assert_eq!(value["reason"], "king reached rank 8", "{value}");
        assert_eq!(value["score_text"], "1-0", "{value}");
    }
}

/// White's king reaches rank 8 and Black's king can too: Black gets his
/// move, and reaching the goal with it draws; any other move loses.
#[test]
fn black_answers_a_king_on_the_goal_and_draws_by_reaching_it() {
    let fen = "8/k5K1/8/8/8/8/8/8 w - - 0 1";
    for value in common::replay_both(
        &racing_kings_file(),
        &racing_kings(),
        &["--fen", fen, "--moves", "g7g8"],
    ) {
        assert_eq!(value["status"], "ongoing", "{value}");
    }
    for value in common::replay_both(
        &racing_kings_file(),
        &racing_kings(),
        &["--fen", fen, "--moves", "g7g8 a7a8"],
    ) {
        assert_eq!(value["status"], "ended", "{value}");
        assert_eq!(value["reason"], "both kings reached rank 8", "{value}");
    }
    for value in common::replay_both(
        &racing_kings_file(),
        &racing_kings(),
        &["--fen", fen, "--moves", "g7g8 a7a6"],
    ) {
        assert_eq!(value["status"], "ended", "{value}");
        assert_eq!(value["reason"], "king reached rank 8", "{value}");
    }
}

/// Black's king reaching rank 8 first wins at once: White gets no answer.
#[test]
fn black_reaching_the_goal_first_wins_at_once() {
    let fen = "8/k7/8/8/8/8/6K1/8 b - - 0 1";
    for value in common::replay_both(
        &racing_kings_file(),
        &racing_kings(),
        &["--fen", fen, "--moves", "a7a8"],
    ) {
        assert_eq!(value["status"], "ended", "{value}");
        assert_eq!(value["score_text"], "0-1", "{value}");
    }
}

/// Perft with the ending rules around the goal, both back ends, against
/// counts from Fairy-Stockfish's Python binding (pyffish 0.0.90): White's
/// king about to arrive with Black's able to follow or not, White's king
/// arrived with Black to answer (only moves into the goal keep the game
/// going a ply), and a rook that may not give check.
#[test]
fn goal_rules_perft_agrees_with_fairy_stockfish_in_both_back_ends() {
    const CASES: [(&str, [u64; 3]); 5] = [
        ("8/6K1/k7/8/8/8/8/8 w - - 0 1", [8, 25, 170]),
        ("8/6K1/1k6/8/8/8/8/8 w - - 0 1", [8, 40, 272]),
        ("6K1/k7/8/8/8/8/8/r7 b - - 0 1", [16, 0, 0]),
        ("6K1/8/1k6/8/8/8/8/8 b - - 0 1", [0, 0, 0]),
        ("8/1k4K1/8/8/8/8/8/2R5 w - - 0 1", [20, 113, 1164]),
    ];
    common::assert_end_rules_perft_in_both_back_ends(&racing_kings(), &CASES);
}
