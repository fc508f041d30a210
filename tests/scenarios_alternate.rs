//! Scenarios of Alternate Scoring (RULES.md A1-A13, seed 003): capture-the-
//! king chess with bishop succession, decisive draws and special wins.
//! Written from the rule texts; each also goes through a saved-and-loaded
//! record; transcripts are golden files under `golden/scenarios/`.

mod common;

use common::{play, play_with_counters};
use varc_runtime::game::ResultKind;
use varc_runtime::model::Color;

const AS: &str = "alternate-scoring";

#[test]
fn alternate_a1_no_check_rule_king_capture_scores_one_win() {
    // Black walks into the rook's file; White captures the king (`*`) and
    // earns 1 win; Black has a bishop, so the game goes on (A2).
    let outcome = play(
        AS,
        Some("2b1k3/8/8/8/8/8/8/3RK3 b - - 0 1"),
        None,
        &["Kd7", "Rxd7"],
    );
    assert!(outcome.refused.is_empty(), "{}", outcome.transcript);
    assert_eq!(outcome.game.steps()[1].text, "Rxd7*");
    assert_eq!(outcome.game.awards()[0].name, "King capture");
    assert_eq!(outcome.game.awards()[0].player, Color::White);
    assert_eq!(outcome.kind(), None);
    common::snapshot("alternate_a1_king_capture", &outcome);
}

#[test]
fn alternate_a1_laws_checkmate_is_still_marked() {
    let outcome = play(
        AS,
        Some("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"),
        None,
        &["Ra8"],
    );
    assert_eq!(outcome.game.steps()[0].text, "Ra8#");
    assert_eq!(outcome.kind(), None, "no check rule: the game goes on");
    common::snapshot("alternate_a1_laws_checkmate_marked", &outcome);
}

#[test]
fn alternate_a2_succession_crowns_a_bishop_then_moves_in_the_same_turn() {
    let outcome = play(
        AS,
        Some("2b1k3/8/8/8/8/8/8/3RK3 b - - 0 1"),
        None,
        &["Kd7", "Rxd7", "c8^Kxd7"],
    );
    assert!(outcome.refused.is_empty(), "{}", outcome.transcript);
    assert_eq!(
        outcome.game.steps().len(),
        3,
        "crowning and move are one step"
    );
    common::snapshot("alternate_a2_succession", &outcome);
}

#[test]
fn alternate_a2_without_a_bishop_the_game_ends() {
    let outcome = play(
        AS,
        Some("4k3/8/8/8/8/8/8/3RK3 b - - 0 1"),
        None,
        &["Kd7", "Rxd7"],
    );
    assert_eq!(outcome.kind(), Some(ResultKind::GameOver));
    assert_eq!(outcome.reason(), "no bishop left to crown");
    // King capture (1) and Full Wipe (2: Black has nothing left).
    assert_eq!(outcome.scores(), [3.0, 0.0]);
    common::snapshot("alternate_a2_no_bishop_game_over", &outcome);
}

#[test]
fn alternate_a3_decisive_draw_by_material_count() {
    // Insufficient material (K+B v K): White counts 4, Black 0: 1 win.
    let bishop = play(
        AS,
        Some("4k3/8/8/8/8/8/8/3rK1B1 w - - 0 1"),
        None,
        &["Kxd1"],
    );
    assert_eq!(bishop.kind(), Some(ResultKind::Win(Color::White)));
    assert_eq!(
        bishop.reason(),
        "insufficient material, decided by material count 4 to 0"
    );
    assert_eq!(bishop.scores(), [1.0, 0.0]);
    // Agreement: a pawn on the d file counts 2, one on the a file 1.
    let agreed = play(
        AS,
        Some("4k3/p7/8/8/8/8/3P4/4K3 w - - 0 1"),
        None,
        &["offer", "Kd1", "accept"],
    );
    assert_eq!(agreed.kind(), Some(ResultKind::Win(Color::White)));
    assert_eq!(
        agreed.reason(),
        "draw by agreement, decided by material count 2 to 1"
    );
    // Equal counts: a draw with no win (Decision).
    let equal = play(AS, None, None, &["offer", "e4", "accept"]);
    assert_eq!(equal.kind(), Some(ResultKind::Draw));
    assert_eq!(equal.scores(), [0.0, 0.0]);
    common::snapshot("alternate_a3_insufficient_material_decided", &bishop);
    common::snapshot("alternate_a3_agreement_decided", &agreed);
    common::snapshot("alternate_a3_equal_counts_draw", &equal);
}

#[test]
fn alternate_a3_captured_kings_count_three_each() {
    // Black has captured one king: 3 points; White's rook is 5.
    let outcome = play_with_counters(
        AS,
        Some("4k3/8/8/8/8/8/8/R3K3 w - - 0 1"),
        None,
        &[("kings-captured", 0, 1)],
        &["offer", "Kd1", "accept"],
    );
    assert_eq!(
        outcome.reason(),
        "draw by agreement, decided by material count 5 to 3"
    );
    common::snapshot("alternate_a3_captured_kings_count", &outcome);
}

#[test]
fn alternate_a4_resigning_gives_one_win_plus_two_per_captured_king() {
    let plain = play(AS, None, None, &["resign"]);
    assert_eq!(plain.scores(), [0.0, 1.0]);
    let punished = play_with_counters(AS, None, None, &[("kings-captured", 0, 2)], &["resign"]);
    assert_eq!(punished.kind(), Some(ResultKind::Win(Color::Black)));
    assert_eq!(punished.scores(), [0.0, 5.0]);
    common::snapshot("alternate_a4_resignation", &punished);
}

#[test]
fn alternate_a5_pawn_may_stay_on_the_last_rank_under_one_minute() {
    let fen = "k7/4P3/8/8/8/8/8/4K3 w - - 0 1";
    let no_clock = play(AS, Some(fen), None, &["e8"]);
    assert!(
        no_clock.refusal(0).is_some(),
        "without clocks the rule is off"
    );
    let plenty = play(AS, Some(fen), Some("300+0"), &["e8"]);
    assert!(plenty.refusal(0).is_some(), "five minutes left");
    // Under a minute: it stays a pawn, moves as a queen there, and is a
    // pawn again once it leaves the last rank.
    let short = play(
        AS,
        Some(fen),
        Some("50+0"),
        &["e8", "Kb7", "e8e5", "Kc6", "e6"],
    );
    assert!(short.refused.is_empty(), "{}", short.transcript);
    let waited = play(AS, Some(fen), Some("300+0"), &["wait 241", "e8"]);
    assert!(
        waited.refused.is_empty(),
        "59 s left: {}",
        waited.transcript
    );
    common::snapshot("alternate_a5_pawn_stays_under_one_minute", &short);
}

#[test]
fn alternate_a6_crowned_bishop_castles_only_if_it_never_moved() {
    // A king crowned from the f1 bishop, castling rights kept: O-O.
    let unmoved = play(
        AS,
        Some("4k3/8/8/8/8/8/8/R4K(B)1R w K - 0 1"),
        None,
        &["O-O"],
    );
    assert!(unmoved.refused.is_empty(), "{}", unmoved.transcript);
    // Castling is normal: not through an attacked square.
    let attacked = play(
        AS,
        Some("4k1r1/8/8/8/8/8/8/R3K2R w K - 0 1"),
        None,
        &["O-O"],
    );
    assert!(attacked.refusal(0).is_some(), "g1 is attacked");
    common::snapshot("alternate_a6_crowned_bishop_castles", &unmoved);
}

const SHUFFLE: [&str; 8] = ["Kd1", "Kd8", "Ke1", "Ke8", "Kd1", "Kd8", "Ke1", "Ke8"];

#[test]
fn alternate_a7_threefold_claim_not_when_both_have_a_queen() {
    let mut steps = SHUFFLE.to_vec();
    steps.push("claim");
    let queens = play(AS, Some("q3k3/8/8/8/8/8/8/Q3K3 w - - 0 1"), None, &steps);
    assert!(queens.refusal(8).is_some(), "both have a queen");
    let one = play(AS, Some("r3k3/8/8/8/8/8/8/Q3K3 w - - 0 1"), None, &steps);
    assert_eq!(
        one.kind(),
        Some(ResultKind::Win(Color::White)),
        "decided: 9 to 5"
    );
    common::snapshot("alternate_a7_threefold_both_queens_refused", &queens);
    common::snapshot("alternate_a7_threefold_one_queen", &one);
}

fn fivefold() -> Vec<&'static str> {
    let mut steps = SHUFFLE.to_vec();
    steps.extend_from_slice(&SHUFFLE);
    steps
}

#[test]
fn alternate_a8_fivefold_in_a_row_ends_the_game() {
    let both = play(
        AS,
        Some("q3k3/8/8/8/8/8/8/Q3K3 w - - 0 1"),
        None,
        &fivefold(),
    );
    assert_eq!(
        both.kind(),
        Some(ResultKind::GameOver),
        "both with a queen: no win"
    );
    assert_eq!(both.scores(), [0.0, 0.0]);
    let one = play(
        AS,
        Some("r3k3/8/8/8/8/8/8/Q3K3 w - - 0 1"),
        None,
        &fivefold(),
    );
    assert_eq!(
        one.kind(),
        Some(ResultKind::Win(Color::White)),
        "only White has a queen"
    );
    assert_eq!(one.reason(), "fivefold repetition");
    let neither = play(
        AS,
        Some("r3k3/8/8/8/8/8/8/R3K3 w - - 0 1"),
        None,
        &fivefold(),
    );
    assert_eq!(neither.kind(), Some(ResultKind::Draw), "equal counts");
    let four = play(
        AS,
        Some("q3k3/8/8/8/8/8/8/Q3K3 w - - 0 1"),
        None,
        &fivefold()[..12],
    );
    assert_eq!(four.kind(), None, "four times is not enough");
    common::snapshot("alternate_a8_fivefold_both_queens", &both);
    common::snapshot("alternate_a8_fivefold_one_queen", &one);
}

#[test]
fn alternate_a9_no_fifty_move_draw_against_a_bare_king() {
    let bare = play(AS, Some("4k3/8/8/8/8/8/8/R3K3 w - - 99 80"), None, &["Ra2"]);
    assert_eq!(bare.kind(), None, "Black has only his king");
    let knight = play(
        AS,
        Some("4k1n1/8/8/8/8/8/8/R3K3 w - - 99 80"),
        None,
        &["Ra2"],
    );
    assert_eq!(
        knight.kind(),
        Some(ResultKind::Win(Color::White)),
        "50 moves, decided 5 to 3"
    );
    common::snapshot("alternate_a9_bare_king_no_fifty_moves", &bare);
    common::snapshot("alternate_a9_fifty_moves_decided", &knight);
}

#[test]
fn alternate_a10_new_heirs_castle_with_a_moved_rook() {
    // A king of New Heir origin (pawn > bishop) castles with a moved rook on
    // the h file: New Heir's Castle (1 win).
    let heir = play(
        AS,
        Some("4k3/8/8/8/8/8/8/R3K(PB)2R w Q - 0 1"),
        None,
        &["O-O"],
    );
    assert!(heir.refused.is_empty(), "{}", heir.transcript);
    assert!(heir
        .game
        .awards()
        .iter()
        .any(|a| a.name == "New Heir's Castle"));
    let plain = play(AS, Some("4k3/8/8/8/8/8/8/R3K2R w Q - 0 1"), None, &["O-O"]);
    assert!(
        plain.refusal(0).is_some(),
        "a plain king needs the castling right"
    );
    common::snapshot("alternate_a10_new_heirs_castle", &heir);
}

#[test]
fn alternate_a11_triple_en_passant_and_roman_numerals() {
    let outcome = play(
        AS,
        Some("4k3/1p1p1p2/8/P1P1P3/8/8/8/4K3 b - - 0 1"),
        None,
        &["b5", "axb6", "d5", "cxd6", "f5", "exf6"],
    );
    assert!(outcome.refused.is_empty(), "{}", outcome.transcript);
    let texts: Vec<&str> = outcome
        .game
        .steps()
        .iter()
        .map(|s| s.text.as_str())
        .collect();
    assert_eq!(texts, ["b5", "axb6 I", "d5", "cxd6 II", "f5", "exf6 III"]);
    assert!(outcome
        .game
        .awards()
        .iter()
        .any(|a| a.name == "Triple En Passant" && a.wins == 1));
    common::snapshot("alternate_a11_triple_en_passant", &outcome);
}

#[test]
fn alternate_a11_new_heir_crowning_a_promoted_bishop() {
    let outcome = play(
        AS,
        Some("4k3/8/8/8/8/8/3q4/B(P)3K3 b - - 0 1"),
        None,
        &["Qxe1", "a1^Kb2"],
    );
    assert!(outcome.refused.is_empty(), "{}", outcome.transcript);
    let names: Vec<&str> = outcome
        .game
        .awards()
        .iter()
        .map(|a| a.name.as_str())
        .collect();
    assert_eq!(names, ["King capture", "New Heir"]);
    common::snapshot("alternate_a11_new_heir", &outcome);
}

#[test]
fn alternate_a11_fourth_heir_after_three_kings_captured() {
    let outcome = play_with_counters(
        AS,
        Some("4k3/8/8/8/8/8/3q4/B(P)3K3 b - - 0 1"),
        None,
        &[("kings-captured", 0, 2)],
        &["Qxe1", "a1^Kb2"],
    );
    let names: Vec<&str> = outcome
        .game
        .awards()
        .iter()
        .map(|a| a.name.as_str())
        .collect();
    assert_eq!(names, ["King capture", "3 Kings", "New Heir", "4th Heir"]);
    common::snapshot("alternate_a11_fourth_heir", &outcome);
}

#[test]
fn alternate_a11_full_wipe_and_three_kings() {
    let outcome = play_with_counters(
        AS,
        Some("4k3/8/8/8/8/8/8/4RK2 w - - 0 1"),
        None,
        &[("kings-captured", 2, 0)],
        &["Rxe8"],
    );
    assert_eq!(outcome.kind(), Some(ResultKind::GameOver));
    // King capture 1 + Full Wipe 2 + 3 Kings 2.
    assert_eq!(outcome.scores(), [5.0, 0.0]);
    common::snapshot("alternate_a11_full_wipe_three_kings", &outcome);
}

#[test]
fn alternate_a11_five_queens_and_true_five_queens_do_not_stack() {
    // The fifth promotion to a queen with only two queens on the board.
    let five = play_with_counters(
        AS,
        Some("k7/4P3/8/8/8/8/8/QQ2K3 w - - 0 1"),
        None,
        &[("queen-promotions", 4, 0)],
        &["e8=Q"],
    );
    let names: Vec<&str> = five.game.awards().iter().map(|a| a.name.as_str()).collect();
    assert_eq!(names, ["5 Queens"]);
    // Five queens on the board at once: True 5 Queens (4 wins, the game
    // ends), and not 5 Queens as well.
    let true_five = play_with_counters(
        AS,
        Some("k7/4P3/8/8/8/8/8/QQQQK3 w - - 0 1"),
        None,
        &[("queen-promotions", 4, 0)],
        &["e8=Q"],
    );
    let names: Vec<&str> = true_five
        .game
        .awards()
        .iter()
        .map(|a| a.name.as_str())
        .collect();
    assert_eq!(names, ["True 5 Queens"]);
    assert_eq!(true_five.kind(), Some(ResultKind::GameOver));
    assert_eq!(true_five.reason(), "Game ended by True 5 Queens");
    assert_eq!(true_five.scores(), [4.0, 0.0]);
    common::snapshot("alternate_a11_five_queens", &five);
    common::snapshot("alternate_a11_true_five_queens", &true_five);
}

#[test]
fn alternate_a11_castle_checkmate_short_and_long() {
    let short = play(
        AS,
        Some("4rkr1/4p1p1/8/8/8/8/8/4K2R w K - 0 1"),
        None,
        &["O-O"],
    );
    assert_eq!(short.game.steps()[0].text, "O-O#");
    assert_eq!(short.game.awards()[0].name, "Castle Checkmate");
    assert_eq!(short.kind(), None, "2 wins, the game goes on");
    let long = play(
        AS,
        Some("2rkr3/2p1p3/8/8/8/8/8/R3K3 w Q - 0 1"),
        None,
        &["O-O-O"],
    );
    assert_eq!(long.kind(), Some(ResultKind::GameOver));
    assert_eq!(long.reason(), "Game ended by Long Castle Checkmate");
    assert_eq!(long.scores(), [4.0, 0.0]);
    common::snapshot("alternate_a11_castle_checkmate", &short);
    common::snapshot("alternate_a11_long_castle_checkmate", &long);
}

#[test]
fn alternate_a11_en_passant_checkmate_ends_the_game() {
    let outcome = play(
        AS,
        Some("N1B5/3p4/8/k3P2R/pp6/8/8/4K3 b - - 0 1"),
        None,
        &["d5", "exd6"],
    );
    assert_eq!(outcome.game.steps()[1].text, "exd6# I");
    assert_eq!(outcome.reason(), "Game ended by En Passant Checkmate");
    assert_eq!(outcome.scores(), [4.0, 0.0]);
    common::snapshot("alternate_a11_en_passant_checkmate", &outcome);
}

#[test]
fn alternate_a12_record_marks_and_game_ended_by() {
    let outcome = play(
        AS,
        Some("N1B5/3p4/8/k3P2R/pp6/8/8/4K3 b - - 0 1"),
        None,
        &["d5", "exd6"],
    );
    let record = outcome.game.to_record(&[]);
    assert!(record.contains("exd6# I"), "{record}");
    assert!(
        record.contains("{Game ended by En Passant Checkmate}"),
        "{record}"
    );
    let capture = play(
        AS,
        Some("4k3/8/8/8/8/8/8/3RK3 b - - 0 1"),
        None,
        &["Kd7", "Rxd7"],
    );
    assert!(capture.game.to_record(&[]).contains("Rxd7*"));
    insta::with_settings!({snapshot_path => "../golden/scenarios", prepend_module_to_snapshot => false}, {
        insta::assert_snapshot!("alternate_a12_record", record);
    });
}

#[test]
fn alternate_a13_result_is_each_players_number_of_wins() {
    // Black captures White's king (1 win); White crowns his bishop and
    // later resigns: 1 win plus 2 for the king Black had captured. The
    // result is Black's 4 wins to White's none, not a win/draw/loss.
    let outcome = play(
        AS,
        Some("4k3/8/8/8/8/8/3q4/2B1K3 b - - 0 1"),
        None,
        &["Qxe1", "c1^Kd2", "Ke7", "resign"],
    );
    assert_eq!(outcome.kind(), Some(ResultKind::Win(Color::Black)));
    assert_eq!(outcome.scores(), [0.0, 4.0]);
    assert_eq!(
        outcome.game.result().map(|r| r.score_text()),
        Some("0-4".to_string())
    );
    common::snapshot("alternate_a13_wins_are_the_score", &outcome);
}
