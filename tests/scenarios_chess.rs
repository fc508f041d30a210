//! Scenarios of the Laws of Chess (RULES.md C1-C9, G1-G3), written from the
//! rule texts, played through the game driver; each is also saved as a
//! record, loaded and checked again (see `common`), and its transcript is a
//! snapshot under `golden/scenarios/`.

mod common;

use common::{play, rules};
use varc_runtime::fen::write_fen;
use varc_runtime::game::record::{load, RecordError};
use varc_runtime::game::{Game, GameError, ResultKind};
use varc_runtime::model::Color;
use varc_runtime::rules::Rules;

#[test]
fn chess_c1_pieces_move_and_never_land_on_their_own_colour() {
    // The knight may not land on its own pawn; a pawn steps two squares only
    // from its start rank; the king steps one square.
    let outcome = play(
        "chess",
        None,
        None,
        &[
            "Nd2", "e4", "e5", "e6", "Ke2", "Nc6", "a3", "a5", "a5", "a4",
        ],
    );
    assert!(outcome.refusal(0).is_some(), "Nb1-d2 lands on its own pawn");
    assert!(outcome.refusal(3).is_some(), "e4-e6 is no pawn move");
    assert!(
        outcome.refusal(8).is_some(),
        "a3-a5 double step off the start rank"
    );
    assert!(outcome.refusal(9).is_none());
    common::snapshot(
        "chess_c1_pieces_move_and_never_land_on_their_own_colour",
        &outcome,
    );
}

#[test]
fn chess_c2_castling_both_sides_when_allowed() {
    let outcome = play(
        "chess",
        Some("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"),
        None,
        &["O-O", "O-O-O"],
    );
    assert!(outcome.refused.is_empty());
    assert!(
        write_fen(outcome.game.rules().variant(), outcome.game.position())
            .starts_with("2kr3r/8/8/8/8/8/8/R4RK1")
    );
    common::snapshot("chess_c2_castling_both_sides_when_allowed", &outcome);
}

#[test]
fn chess_c2_castling_refused_through_attack_out_of_check_and_after_king_moved() {
    // A black rook on f2 attacks f1: the king may not pass it. Long castling
    // is fine. Then: the black king, once moved, may not castle.
    let outcome = play(
        "chess",
        Some("r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1"),
        None,
        &["O-O", "O-O-O", "Kf7", "Kb1", "Ke8", "Kc1", "O-O"],
    );
    assert!(outcome.refusal(0).is_some(), "passing the attacked f1");
    assert!(outcome.refusal(1).is_none());
    assert!(outcome.refusal(6).is_some(), "the king has moved");
    let check = play(
        "chess",
        Some("4k3/8/8/8/8/8/8/R3K2r w Q - 0 1"),
        None,
        &["O-O-O"],
    );
    assert!(check.refusal(0).is_some(), "out of check");
    common::snapshot(
        "chess_c2_castling_refused_through_attack_out_of_check_and_after_king_moved",
        &outcome,
    );
}

#[test]
fn chess_c3_en_passant_only_right_after_the_double_step() {
    let now = play(
        "chess",
        Some("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1"),
        None,
        &["d5", "exd6"],
    );
    assert!(now.refused.is_empty());
    let later = play(
        "chess",
        Some("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1"),
        None,
        &["d5", "Ke2", "Ke7", "exd6"],
    );
    assert!(later.refusal(3).is_some(), "too late for en passant");
    common::snapshot("chess_c3_en_passant_right_after_the_double_step", &now);
    common::snapshot("chess_c3_en_passant_too_late", &later);
}

#[test]
fn chess_c4_promotion_on_the_last_rank_to_q_r_b_or_n() {
    let outcome = play(
        "chess",
        Some("8/4P3/8/8/8/8/k7/4K3 w - - 0 1"),
        None,
        &["e8", "e8=K", "e8=N"],
    );
    assert!(outcome.refusal(0).is_some(), "a pawn must promote");
    assert!(outcome.refusal(1).is_some(), "never to a king");
    assert!(outcome.refusal(2).is_none());
    common::snapshot("chess_c4_promotion_on_the_last_rank", &outcome);
}

#[test]
fn chess_c5_king_may_not_be_left_in_check() {
    let outcome = play(
        "chess",
        Some("4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1"),
        None,
        &["Bd3", "Kd1"],
    );
    let refusal = outcome.refusal(0).expect("the pinned bishop may not move");
    assert!(refusal.contains("check"), "{refusal}");
    common::snapshot("chess_c5_king_may_not_be_left_in_check", &outcome);
}

#[test]
fn chess_c5_checkmate_wins() {
    let outcome = play("chess", None, None, &["f3", "e5", "g4", "Qh4"]);
    assert_eq!(outcome.kind(), Some(ResultKind::Win(Color::Black)));
    assert_eq!(outcome.reason(), "checkmate");
    assert_eq!(outcome.scores(), [0.0, 1.0]);
    common::snapshot("chess_c5_checkmate_wins", &outcome);
}

#[test]
fn chess_c6_stalemate_is_a_draw() {
    let outcome = play(
        "chess",
        Some("7k/8/5QK1/8/8/8/8/8 w - - 0 1"),
        None,
        &["Qf7"],
    );
    assert_eq!(outcome.kind(), Some(ResultKind::Draw));
    assert_eq!(outcome.scores(), [0.5, 0.5]);
    common::snapshot("chess_c6_stalemate_is_a_draw", &outcome);
}

#[test]
fn chess_c7_insufficient_material_draws_but_a_rook_does_not() {
    let bishop = play(
        "chess",
        Some("4k3/8/8/8/8/8/8/3rK1B1 w - - 0 1"),
        None,
        &["Kxd1"],
    );
    assert_eq!(bishop.kind(), Some(ResultKind::Draw), "K+B v K");
    let knights = play(
        "chess",
        Some("4k3/8/8/8/8/8/8/3rKNN1 w - - 0 1"),
        None,
        &["Kxd1"],
    );
    assert_eq!(knights.kind(), Some(ResultKind::Draw), "K+N+N v K");
    let bare = play(
        "chess",
        Some("4k3/8/8/8/8/8/8/3rK3 w - - 0 1"),
        None,
        &["Kxd1"],
    );
    assert_eq!(bare.kind(), Some(ResultKind::Draw), "K v K");
    assert_eq!(bare.reason(), "insufficient material");
    let rook = play(
        "chess",
        Some("4k3/8/8/8/8/8/8/3rK2R w - - 0 1"),
        None,
        &["Kxd1"],
    );
    assert_eq!(rook.kind(), None, "K+R v K goes on");
    common::snapshot("chess_c7_insufficient_material_bishop", &bishop);
    common::snapshot("chess_c7_insufficient_material_rook_goes_on", &rook);
}

#[test]
fn chess_c7_fifty_moves_without_capture_or_pawn_move_draw() {
    let draw = play(
        "chess",
        Some("4k3/8/8/8/8/8/P7/R3K3 w - - 99 60"),
        None,
        &["Rb1"],
    );
    assert_eq!(draw.kind(), Some(ResultKind::Draw));
    assert_eq!(draw.reason(), "fifty-move rule");
    let pawn = play(
        "chess",
        Some("4k3/8/8/8/8/8/P7/R3K3 w - - 99 60"),
        None,
        &["a3"],
    );
    assert_eq!(pawn.kind(), None, "a pawn move resets the count");
    assert_eq!(pawn.game.plies_since_reset(), 0);
    common::snapshot("chess_c7_fifty_moves", &draw);
}

#[test]
fn chess_c7_threefold_repetition_draws_automatically() {
    let shuffle = ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"];
    let outcome = play("chess", None, None, &shuffle);
    assert_eq!(outcome.kind(), Some(ResultKind::Draw));
    assert_eq!(outcome.reason(), "threefold repetition");
    let twice = play("chess", None, None, &shuffle[..4]);
    assert_eq!(twice.kind(), None);
    assert_eq!(twice.game.repetitions().total, 2);
    common::snapshot("chess_c7_threefold_repetition", &outcome);
}

#[test]
fn chess_c7_threefold_counts_en_passant_possibility() {
    // After ...d5 an en passant capture is legal: that position differs
    // from the later ones with the same placement, so the third occurrence
    // of the placement is only the second of the position.
    let knights = ["Nf3", "Nc6", "Ng1", "Nb8"];
    let mut steps = vec!["d5"];
    for _ in 0..2 {
        steps.extend_from_slice(&knights);
    }
    let fen = "rnbqkbnr/ppppppp1/8/4P3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    let two = play("chess", Some(fen), None, &steps);
    assert_eq!(two.kind(), None, "the first occurrence had en passant");
    assert_eq!(two.game.repetitions().total, 2);
    steps.extend_from_slice(&knights);
    let three = play("chess", Some(fen), None, &steps);
    assert_eq!(three.kind(), Some(ResultKind::Draw));
    common::snapshot("chess_c7_threefold_counts_en_passant_possibility", &three);
}

#[test]
fn chess_c7_draw_by_agreement_offer_stands_until_the_opponent_moves() {
    let agreed = play("chess", None, None, &["offer", "e4", "accept"]);
    assert_eq!(agreed.kind(), Some(ResultKind::Draw));
    assert_eq!(agreed.reason(), "draw by agreement");
    let declined = play(
        "chess",
        None,
        None,
        &["accept", "offer", "e4", "e5", "accept"],
    );
    assert!(declined.refusal(0).is_some(), "no offer to accept");
    assert!(
        declined.refusal(4).is_some(),
        "black moved on: the offer lapsed"
    );
    common::snapshot("chess_c7_draw_by_agreement", &agreed);
    common::snapshot("chess_c7_draw_offer_lapses", &declined);
}

#[test]
fn chess_c8_resignation_loses() {
    let outcome = play("chess", None, None, &["e4", "resign"]);
    assert_eq!(outcome.kind(), Some(ResultKind::Win(Color::White)));
    assert_eq!(outcome.reason(), "black resigns");
    common::snapshot("chess_c8_resignation_loses", &outcome);
}

#[test]
fn chess_c8_loss_on_time_and_increment() {
    // 60 s + 5 s: White spends 30 s (30 + 5 left), then 36 s: flag.
    let outcome = play("chess", None, Some("60+5"), &["e4@30", "e5@10", "Nf3@36"]);
    assert_eq!(outcome.kind(), Some(ResultKind::Win(Color::Black)));
    assert_eq!(outcome.reason(), "white lost on time");
    let in_time = play("chess", None, Some("60+5"), &["e4@30", "e5@10", "Nf3@34"]);
    assert_eq!(in_time.kind(), None, "the increment saved White");
    common::snapshot("chess_c8_loss_on_time", &outcome);
}

#[test]
fn chess_c9_history_save_load_and_go_on() {
    let outcome = play(
        "chess",
        None,
        Some("300+2"),
        &["e4@3", "e5@2.5", "Nf3", "offer", "Nc6", "Bb5"],
    );
    let text = outcome
        .game
        .to_record(&[("White", "Ann"), ("Black", "Bob")]);
    let mut loaded = load(rules("chess"), &text).expect("record loads");
    assert_eq!(loaded.steps().len(), outcome.game.steps().len());
    loaded.act("a6").expect("the loaded game goes on");
    loaded.undo();
    assert_eq!(loaded.position(), outcome.game.position());
    insta::with_settings!({snapshot_path => "../golden/scenarios", prepend_module_to_snapshot => false}, {
        insta::assert_snapshot!("chess_c9_record", text);
    });
}

#[test]
fn chess_c9_malformed_record_says_line_and_column() {
    let bad_move = "[Variant \"chess\"]\n\n1. e4 e5\n2. Ke3 Nc6\n";
    match load(rules("chess"), bad_move) {
        Err(RecordError::Replay { line, column, .. }) => assert_eq!((line, column), (4, 4)),
        other => panic!("expected a replay error, got {other:?}"),
    }
    let bad_text = "[Variant \"chess\"]\n1. e4 @@ e5\n";
    match load(rules("chess"), bad_text) {
        Err(RecordError::Syntax { line, column, .. }) => assert_eq!((line, column), (2, 7)),
        other => panic!("expected a syntax error, got {other:?}"),
    }
    // Standard PGN without a Variant tag is chess (issue 13); other
    // variants need the tag.
    assert!(load(rules("chess"), "1. e4 e5").is_ok());
    assert_eq!(
        load(rules("ppc"), "1. e4 e5").err(),
        Some(RecordError::MissingVariant)
    );
    assert!(
        load(rules("chess"), "[Variant \"ppc\"]\n1. e4").is_err(),
        "another variant"
    );
    let wrong_result = "[Variant \"chess\"]\n[Result \"1-0\"]\n1. f3 e5 2. g4 Qh4#\n";
    assert!(matches!(
        load(rules("chess"), wrong_result),
        Err(RecordError::ResultMismatch { .. })
    ));
}

#[test]
fn game_g1_fen_round_trips_through_the_game() {
    for (variant, fen) in [
        ("chess", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"),
        ("ppc", "4k3/8/2r'5/8/8/5N'2/8/4K3 b - - 3 40"),
        ("alternate-scoring", "4k3/8/8/8/8/8/8/R3K(PB)2R w K - 0 1"),
    ] {
        let game = Game::from_fen(rules(variant), fen).expect("FEN reads");
        assert_eq!(write_fen(game.rules().variant(), game.position()), fen);
    }
}

#[test]
fn game_g2_refusals_say_why_and_leave_the_game_unchanged() {
    let mut game = Game::new(rules("chess")).expect("game");
    game.act("e4").expect("e4");
    let before = game.position().clone();
    for text in ["e4", "Zz9", "Ke3", "Nf9", "exd5"] {
        let error = game.act(text).expect_err("refused");
        assert!(!error.to_string().is_empty());
        assert_eq!(game.position(), &before, "{text} left the game unchanged");
        assert_eq!(game.steps().len(), 1);
    }
    assert!(matches!(
        Game::from_fen(rules("chess"), "rnbqkbnr/pppppppp/8/8/8 w"),
        Err(GameError::Fen(_))
    ));
}

#[test]
fn game_g3_saved_and_loaded_game_replays_to_the_same_result() {
    let outcome = play("chess", None, None, &["f3", "e5", "g4", "Qh4"]);
    let text = outcome.game.to_record(&[]);
    let loaded = load(rules("chess"), &text).expect("loads");
    assert_eq!(loaded.result(), outcome.game.result());
    assert!(text.contains("Qh4#") && text.contains("0-1"), "{text}");
}
