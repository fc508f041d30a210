//! Scenarios of Piece Promotion Chess (RULES.md P1-P14), written from the
//! rule texts (seeds 000 and 001), played through the game driver, saved as
//! records and loaded again, with golden transcripts; and the IRC perft.

mod common;

use common::{play, rules};
use varc_runtime::fen::{parse_fen, write_fen};
use varc_runtime::game::matches::{Match, MatchOptions, MatchProgress};
use varc_runtime::game::{perft_with_history, ResultKind, TimeControl};
use varc_runtime::model::Color;
use varc_runtime::perft::perft;
use varc_runtime::position::Position;
use varc_runtime::rules::Rules;

fn fen_of(outcome: &common::Outcome) -> String {
    write_fen(outcome.game.rules().variant(), outcome.game.position())
}

#[test]
fn ppc_p1_territories_ranks_1_3_white_6_8_black() {
    // A rook entering rank 5 (neutral) stays a rook; entering rank 6 (Black's
    // territory) it promotes. For Black, rank 3 is the enemy's.
    let outcome = play(
        "ppc",
        Some("4k2r/8/8/8/8/8/8/R3K3 w - - 0 1"),
        None,
        &["Ra5", "Rh4", "Ra6=R'", "Rh3=R'"],
    );
    assert!(outcome.refused.is_empty(), "{}", outcome.transcript);
    assert_eq!(fen_of(&outcome), "4k3/8/R'7/8/8/7r'/8/4K3 w - - 0 3");
    common::snapshot("ppc_p1_territories", &outcome);
}

#[test]
fn ppc_p2_rook_knight_bishop_must_promote_in_enemy_territory_even_capturing() {
    // No unpromoted move exists: written without the suffix, the capture
    // and the knight's move are read as their only completions (issue 13)
    // and promote.
    let outcome = play(
        "ppc",
        Some("4k3/8/p7/8/8/8/8/R3K1N1 w - - 0 1"),
        None,
        &["Rxa6", "Kd7", "Nf3", "Kc7", "Ng5", "Kc8", "Nh7"],
    );
    for step in 0..7 {
        assert!(outcome.refusal(step).is_none(), "{}", outcome.transcript);
    }
    let texts: Vec<String> = outcome
        .game
        .steps()
        .iter()
        .map(|s| s.text.clone())
        .collect();
    assert_eq!(texts[0], "Rxa6=R'", "the capture must promote too");
    assert_eq!(texts[6], "Nh7=N'", "the knight must promote on h7");
    assert!(fen_of(&outcome).contains("N'"));
    common::snapshot("ppc_p2_must_promote", &outcome);
}

#[test]
fn ppc_p3_promoted_pieces_step_like_a_king_and_are_not_royal() {
    // R' steps diagonally, B' orthogonally, N' one square; a promoted piece
    // may move into attack and be captured.
    let outcome = play(
        "ppc",
        Some("4k3/8/1p6/8/3R'4/8/B'7/4K1N'1 w - - 0 1"),
        None,
        &["R'e5", "Kf8", "B'a3", "Kg8", "N'f2", "Kh8", "R'c5", "bxc5"],
    );
    assert!(outcome.refused.is_empty(), "{}", outcome.transcript);
    common::snapshot("ppc_p3_promoted_pieces", &outcome);
}

#[test]
fn ppc_p4_pawn_promotes_only_to_queen_or_kniking() {
    let outcome = play(
        "ppc",
        Some("8/4P3/8/8/8/8/k7/4K3 w - - 0 1"),
        None,
        &["e8", "e8=R", "e8=B", "e8=N", "e8=N'"],
    );
    for step in 0..4 {
        assert!(outcome.refusal(step).is_some(), "step {step}");
    }
    assert!(outcome.refusal(4).is_none());
    common::snapshot("ppc_p4_pawn_promotion", &outcome);
}

#[test]
fn ppc_p5_checkmate_and_stalemate_both_win() {
    let mate = play("ppc", None, None, &["f3", "e5", "g4", "Qh4"]);
    assert_eq!(mate.kind(), Some(ResultKind::Win(Color::Black)));
    assert_eq!(mate.scores(), [0.0, 2.0]);
    let stalemate = play("ppc", Some("7k/8/5QK1/8/8/8/8/8 w - - 0 1"), None, &["Qf7"]);
    assert_eq!(stalemate.kind(), Some(ResultKind::Win(Color::White)));
    assert_eq!(stalemate.reason(), "stalemate wins");
    assert_eq!(stalemate.scores(), [2.0, 0.0]);
    common::snapshot("ppc_p5_checkmate", &mate);
    common::snapshot("ppc_p5_stalemate_wins", &stalemate);
}

#[test]
fn ppc_p6_king_may_never_be_put_or_left_in_check() {
    let outcome = play(
        "ppc",
        Some("4k3/4r3/8/8/8/8/8/3K4 w - - 0 1"),
        None,
        &["Ke1", "Kc2"],
    );
    assert!(outcome.refusal(0).is_some(), "into check");
    assert!(outcome.refusal(1).is_none());
    common::snapshot("ppc_p6_king_never_in_check", &outcome);
}

/// The queen checks from a8, the king steps aside, both go back: checking
/// from a8 again makes the placement of four plies before with check.
const IRC_FEN: &str = "7k/8/8/8/8/8/Q7/2K5 w - - 0 1";

#[test]
fn ppc_p7_irc_rejected_when_alternative_exists() {
    let outcome = play(
        "ppc",
        Some(IRC_FEN),
        None,
        &["Qa8", "Kh7", "Qa2", "Kh8", "Qa8", "Qb2"],
    );
    assert_eq!(outcome.refusal(4), Some("a2a8: illegal repeated check"));
    assert!(outcome.refusal(5).is_none(), "another move is fine");
    common::snapshot("ppc_p7_irc_rejected_when_alternative_exists", &outcome);
}

#[test]
fn ppc_p7_irc_allowed_when_every_legal_move_is_such_a_move() {
    // White's only legal move here is Na1-b3, which checks the king on c5.
    // After Kd5 Na1 Kc5 it repeats the placement of four plies before with
    // check, but it is still White's only move: it stays legal.
    let fen = "6r1/8/8/2k5/8/p1p4p/P1P4P/N6K w - - 0 1";
    let outcome = play("ppc", Some(fen), None, &["Nb3", "Kd5", "Na1", "Kc5", "Nb3"]);
    assert!(outcome.refused.is_empty(), "{}", outcome.transcript);
    assert_eq!(outcome.game.steps()[4].text, "Nb3+");
    common::snapshot("ppc_p7_irc_allowed_when_only_such_moves", &outcome);
}

#[test]
fn ppc_p7_irc_ignores_a_repetition_without_check() {
    let outcome = play("ppc", None, None, &["Nf3", "Nf6", "Ng1", "Ng8", "Nf3"]);
    assert!(outcome.refused.is_empty());
}

/// A perft that counts independently the leaves IRC removes: 5-ply paths
/// whose last move checks and repeats the placement after the first move.
fn repeated_checks_at_ply_5<R: Rules<Position = Position>>(rules: &R, position: &Position) -> u64 {
    fn walk<R: Rules<Position = Position>>(rules: &R, path: &mut Vec<Position>, depth: u32) -> u64 {
        let position = path.last().cloned().expect("path");
        let moves = rules.legal_moves(&position);
        if depth == 1 {
            let earlier = &path[path.len() - 4];
            let mover = position.side_to_move();
            return moves
                .iter()
                .filter(|mv| {
                    let after = rules.play(&position, mv);
                    after.same_placement(earlier) && rules.royal_attacked(&after, mover.opponent())
                })
                .count() as u64;
        }
        let mut count = 0;
        for mv in &moves {
            path.push(rules.play(&position, mv));
            count += walk(rules, path, depth - 1);
            path.pop();
        }
        count
    }
    walk(rules, &mut vec![position.clone()], 5)
}

#[test]
fn ppc_p7_perft_with_irc_equals_plain_perft_where_no_repetition_is_reachable() {
    // From the start position no move of the first ply gives check, so no
    // check can repeat the placement of four plies before within 4 plies.
    let rules = rules("ppc");
    let start = parse_fen(rules.variant(), &rules.variant().start_fen).expect("start");
    let none: [Position; 0] = [];
    for depth in 1..=4 {
        assert_eq!(
            perft_with_history(&rules, &none, &start, depth),
            perft(&rules, &start, depth)
        );
    }
    let position = parse_fen(rules.variant(), IRC_FEN).expect("fen");
    for depth in 1..=4 {
        assert_eq!(
            perft_with_history(&rules, &none, &position, depth),
            perft(&rules, &position, depth)
        );
    }
}

#[test]
fn ppc_p7_perft_depth_5_differs_by_the_repeated_checks() {
    // In IRC_FEN, White checks on ply 1 (Qa8+, Qh2+, ...), Black's king
    // steps, White's queen returns, the king returns, and on ply 5 the same
    // check would make the placement of ply 1 again: IRC removes exactly
    // those leaves (White always has other moves, so the "unless only such
    // moves" clause never applies here).
    let rules = rules("ppc");
    let position = parse_fen(rules.variant(), IRC_FEN).expect("fen");
    let none: [Position; 0] = [];
    let plain = perft(&rules, &position, 5);
    let with_irc = perft_with_history(&rules, &none, &position, 5);
    let removed = repeated_checks_at_ply_5(&rules, &position);
    assert!(removed > 0);
    assert_eq!(plain - with_irc, removed);
    insta::with_settings!({snapshot_path => "../golden/scenarios", prepend_module_to_snapshot => false}, {
        insta::assert_snapshot!(
            "ppc_p7_irc_perft_depth_5",
            format!("{IRC_FEN}\nperft 5 without IRC: {plain}\nperft 5 with IRC:    {with_irc}\nrepeated checks removed: {removed}\n")
        );
    });
}

#[test]
fn ppc_p7_perft_with_history_sees_the_game_before_the_root() {
    // Root after Qa8+ Kh7 Qa2 Kh8: at depth 1, Qa8 is already illegal.
    let rules = rules("ppc");
    let mut game = varc_runtime::game::Game::from_fen(rules.clone(), IRC_FEN).expect("game");
    for text in ["Qa8", "Kh7", "Qa2", "Kh8"] {
        game.act(text).expect("move");
    }
    let history: Vec<Position> = {
        let mut replay = varc_runtime::game::Game::from_fen(rules.clone(), IRC_FEN).expect("game");
        let mut positions = Vec::new();
        for text in ["Qa8", "Kh7", "Qa2", "Kh8"] {
            positions.push(replay.position().clone());
            replay.act(text).expect("move");
        }
        positions
    };
    let with = perft_with_history(&rules, &history, game.position(), 1);
    assert_eq!(with, perft(&rules, game.position(), 1) - 1);
    assert_eq!(with, game.legal_moves().len() as u64);
}

const SHUFFLE: [&str; 9] = [
    "Kf1", "Kf8", "Kg1", "Kg8", "Kf1", "Kf8", "Kg1", "Kg8", "claim",
];

#[test]
fn ppc_p8_threefold_claim_with_two_pieces_each_is_a_draw() {
    let outcome = play(
        "ppc",
        Some("1n4kr/8/8/8/8/8/8/QR4K1 w - - 0 1"),
        None,
        &SHUFFLE,
    );
    assert_eq!(outcome.kind(), Some(ResultKind::Draw));
    assert_eq!(outcome.reason(), "threefold repetition with 2 pieces");
    assert_eq!(outcome.scores(), [1.0, 1.0]);
    common::snapshot("ppc_p8_threefold_two_pieces_draw", &outcome);
}

#[test]
fn ppc_p8_threefold_claim_with_three_pieces_is_a_null_game() {
    let outcome = play(
        "ppc",
        Some("1n4kr/8/8/8/8/8/8/QRB3K1 w - - 0 1"),
        None,
        &SHUFFLE,
    );
    assert_eq!(outcome.kind(), Some(ResultKind::NullGame));
    assert_eq!(
        outcome.reason(),
        "null game: threefold repetition with 3 pieces"
    );
    assert_eq!(outcome.scores(), [0.0, 0.0]);
    common::snapshot("ppc_p8_threefold_three_pieces_null", &outcome);
}

#[test]
fn ppc_p8_threefold_is_a_claim_not_automatic_and_refused_too_early() {
    let outcome = play(
        "ppc",
        Some("1n4kr/8/8/8/8/8/8/QR4K1 w - - 0 1"),
        None,
        &[
            "Kf1", "Kf8", "Kg1", "Kg8", "claim", "Kf1", "Kf8", "Kg1", "Kg8", "Kf1",
        ],
    );
    let refusal = outcome.refusal(4).expect("only two occurrences");
    assert!(refusal.contains("occurred 2 times (3 needed)"), "{refusal}");
    assert_eq!(outcome.kind(), None, "nobody claimed: the game goes on");
    common::snapshot("ppc_p8_threefold_claim_only", &outcome);
}

#[test]
fn ppc_p9_null_game_replayed_same_colours_then_black_wins_by_forfeit() {
    // The match plays from the start position; a null game needs three
    // pieces: the start position has them. Time added: 60 s.
    let options = MatchOptions {
        casual: false,
        added_time_ms: 60_000,
        time_control: Some(TimeControl {
            base_ms: 300_000,
            increment_ms: 0,
        }),
    };
    let mut m = Match::new(rules("ppc"), options).expect("match");
    let shuffle = [
        "Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8", "claim",
    ];
    for text in shuffle {
        m.game_mut().act(text).expect("step");
    }
    let first = m.game().result().expect("ended").clone();
    assert_eq!(first.kind, ResultKind::NullGame);
    assert_eq!(m.advance().expect("advance"), MatchProgress::Replay);
    assert!(m.first_player_white(), "same colours");
    let clock = m.game().clock().expect("clock");
    assert_eq!(
        clock.remaining_ms(Color::White),
        360_000,
        "clocks kept, 60 s added"
    );
    assert_eq!(clock.remaining_ms(Color::Black), 360_000);
    for text in shuffle {
        m.game_mut().act(text).expect("step");
    }
    match m.advance().expect("advance") {
        MatchProgress::Over(result) => {
            assert_eq!(result.kind, ResultKind::Win(Color::Black));
            assert_eq!(
                result.reason,
                "2 null games in a row: black wins by forfeit"
            );
            assert_eq!(result.scores, [0.0, 2.0]);
        }
        other => panic!("expected the forfeit, got {other:?}"),
    }
}

#[test]
fn ppc_p9_casual_null_game_is_a_draw() {
    let options = MatchOptions {
        casual: true,
        ..MatchOptions::default()
    };
    let mut m = Match::new(rules("ppc"), options).expect("match");
    for text in [
        "Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8", "claim",
    ] {
        m.game_mut().act(text).expect("step");
    }
    match m.advance().expect("advance") {
        MatchProgress::Over(result) => {
            assert_eq!(result.kind, ResultKind::Draw);
            assert_eq!(result.scores, [1.0, 1.0]);
        }
        other => panic!("expected a draw, got {other:?}"),
    }
}

#[test]
fn ppc_p10_agreement_only_with_at_most_one_piece_each() {
    let one = play(
        "ppc",
        Some("r3k3/pp6/8/8/8/8/PP6/R3K3 w - - 0 1"),
        None,
        &["offer", "Kd1", "accept"],
    );
    assert_eq!(one.kind(), Some(ResultKind::Draw));
    assert_eq!(one.scores(), [1.0, 1.0]);
    let two = play(
        "ppc",
        Some("r3k3/8/8/8/8/8/8/R3K1N1 w - - 0 1"),
        None,
        &["offer"],
    );
    let refusal = two.refusal(0).expect("two pieces: no agreement");
    assert!(refusal.contains("is 2 (the rule needs <= 1)"), "{refusal}");
    let start = play("ppc", None, None, &["offer"]);
    assert!(start.refusal(0).is_some());
    common::snapshot("ppc_p10_agreement_one_piece", &one);
    common::snapshot("ppc_p10_agreement_refused_two_pieces", &two);
}

#[test]
fn ppc_p11_twenty_five_move_rule_by_claim_reset_by_promotion() {
    let claim = play(
        "ppc",
        Some("4k3/8/8/8/8/8/8/R3K3 w - - 49 60"),
        None,
        &["claim", "Ra2", "claim"],
    );
    assert!(claim.refusal(0).is_some(), "49 plies");
    assert_eq!(claim.kind(), Some(ResultKind::Draw));
    assert_eq!(claim.reason(), "twenty-five move rule");
    let promoted = play(
        "ppc",
        Some("4k3/8/8/8/8/8/8/R3K3 w - - 49 60"),
        None,
        &["Ra6=R'", "claim"],
    );
    assert!(
        promoted.refusal(1).is_some(),
        "a piece promotion resets the count"
    );
    let automatic = play(
        "ppc",
        Some("4k3/8/8/8/8/8/8/R3K3 w - - 49 60"),
        None,
        &["Ra2", "Kd7"],
    );
    assert_eq!(automatic.kind(), None, "a claim, not automatic");
    common::snapshot("ppc_p11_twenty_five_move_rule", &claim);
    common::snapshot("ppc_p11_reset_by_promotion", &promoted);
}

#[test]
fn ppc_p12_only_two_kings_immediate_draw() {
    // Black's piece on d1 is a rooking: a rook there would have promoted
    // on arriving (P1).
    let kings = play(
        "ppc",
        Some("4k3/8/8/8/8/8/8/3r'K3 w - - 0 1"),
        None,
        &["Kxd1"],
    );
    assert_eq!(kings.kind(), Some(ResultKind::Draw));
    assert_eq!(kings.reason(), "only the two kings left");
    let pawn = play(
        "ppc",
        Some("4k3/8/8/8/8/8/4P3/3r'K3 w - - 0 1"),
        None,
        &["Kxd1"],
    );
    assert_eq!(pawn.kind(), None, "a pawn is left");
    common::snapshot("ppc_p12_only_two_kings", &kings);
}

#[test]
fn ppc_p13_scoring_2_1_0_and_no_insufficient_material_draw() {
    // K+B v K is a draw in chess (C7) but not in PPC (P13: the only draws
    // are P8, P10, P11 and P12).
    let bishop = play(
        "ppc",
        Some("4k3/8/8/8/8/8/8/3r'K1B1 w - - 0 1"),
        None,
        &["Kxd1"],
    );
    assert_eq!(bishop.kind(), None);
    let resign = play("ppc", None, None, &["resign"]);
    assert_eq!(resign.scores(), [0.0, 2.0]);
    common::snapshot("ppc_p13_no_insufficient_material", &bishop);
}

#[test]
fn ppc_p14_promoted_marks_in_moves_fen_and_records() {
    let outcome = play(
        "ppc",
        Some("4k3/8/8/8/8/8/8/R3K3 w - - 0 1"),
        None,
        &["Ra6=R'", "Kd7", "R'b7+", "Kd6", "R'c6+"],
    );
    assert!(outcome.refused.is_empty(), "{}", outcome.transcript);
    let record = outcome.game.to_record(&[]);
    assert!(
        record.contains("Ra6=R'") && record.contains("R'b7+"),
        "{record}"
    );
    assert!(fen_of(&outcome).contains("R'"));
    common::snapshot("ppc_p14_promoted_marks", &outcome);
}
