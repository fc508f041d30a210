//! Scenarios of Chess 99's delayed promotion (RULES.md D1-D5, seed 004),
//! written from the rule texts, through the game driver and a saved-and-
//! loaded record, with golden transcripts.

mod common;

use common::play;
use varc_runtime::fen::write_fen;
use varc_runtime::rules::Rules;

fn fen_of(outcome: &common::Outcome) -> String {
    write_fen(outcome.game.rules().variant(), outcome.game.position())
}

#[test]
fn chess99_d1_reaching_the_last_rank_does_not_promote() {
    let outcome = play(
        "chess99",
        Some("k7/4P3/8/8/8/8/8/4K3 w - - 0 1"),
        None,
        &["e8=Q", "e8"],
    );
    assert!(outcome.refusal(0).is_some(), "no promotion on arrival");
    assert!(
        fen_of(&outcome).starts_with("k3P3/"),
        "{}",
        outcome.transcript
    );
    common::snapshot("chess99_d1_no_promotion_on_arrival", &outcome);
}

#[test]
fn chess99_d2_later_turn_promotes_to_bishop_or_knight_only() {
    let fen = "k3P3/8/8/8/8/8/8/4K3 w - - 0 1";
    let outcome = play("chess99", Some(fen), None, &["e8=Q", "e8=R", "e8=B"]);
    assert!(outcome.refusal(0).is_some() && outcome.refusal(1).is_some());
    assert!(outcome.refusal(2).is_none());
    assert!(fen_of(&outcome).starts_with("k3B3/"));
    common::snapshot("chess99_d2_bishop_or_knight_only", &outcome);
}

#[test]
fn chess99_d3_one_non_capturing_follow_up_move_or_stay() {
    let fen = "k3P3/8/3r4/8/8/8/8/4K3 w - - 0 1";
    let capture = play("chess99", Some(fen), None, &["e8=N>d6", "e8=N>c7"]);
    assert!(capture.refusal(0).is_some(), "the follow-up never captures");
    assert!(capture.refusal(1).is_none());
    assert_eq!(
        capture.game.position().side_to_move(),
        varc_runtime::model::Color::Black
    );
    common::snapshot("chess99_d3_follow_up_move", &capture);
}

#[test]
fn chess99_d4_full_powers_from_the_next_turn() {
    let fen = "k3P3/8/3r4/8/8/8/8/4K3 w - - 0 1";
    let outcome = play("chess99", Some(fen), None, &["e8=N", "Kb7", "Nxd6+"]);
    assert!(outcome.refused.is_empty(), "{}", outcome.transcript);
    common::snapshot("chess99_d4_full_powers_next_turn", &outcome);
}

#[test]
fn chess99_d5_double_step_onto_the_last_rank_taken_en_passant() {
    let outcome = play("chess99-mini", None, None, &["c4", "bxc3"]);
    assert!(outcome.refused.is_empty(), "{}", outcome.transcript);
    let late = play("chess99-mini", None, None, &["c4", "Ke3", "Kb1", "bxc3"]);
    assert!(
        late.refusal(3).is_some(),
        "only right after the double step"
    );
    common::snapshot("chess99_d5_en_passant_on_the_last_rank", &outcome);
}
