//! Endgame scaling (`runtime/src/eval/scale.rs`): how much of its lead the
//! side ahead keeps, by its material and the variant's draw rules. Each
//! rule's factor is checked exactly through [`Evaluator::scale`] (the share
//! kept, with the position's endgame weight), and the evaluation itself
//! through what a player would see: a lead that cannot win reads as
//! nearly level, one that can does not.

mod common;

use varc::interp::Interpreter;
use varc_runtime::eval::Evaluator;
use varc_runtime::fen::parse_fen;
use varc_runtime::model::Variant;
use varc_runtime::rules::Rules;

/// A bundled variant with endgame scaling on (`endgame-scaling = on`, as
/// its weights file says), under an id of its own so that its compiled
/// engine does not replace the plain variant's.
fn scaled(name: &str) -> Variant {
    with_scaling(common::variant(name))
}

fn with_scaling(mut variant: Variant) -> Variant {
    variant.endgame_scaling = true;
    variant.id = format!("{}-scaled", variant.id);
    variant
}

fn gallery_variant(name: &str) -> Variant {
    let path = common::variants_dir().join(format!("gallery/{name}.rules"));
    with_scaling(varc::load_variant(&path).unwrap_or_else(|e| panic!("{name}: {}", e.render())))
}

#[test]
fn scaling_is_off_unless_the_weights_turn_it_on() {
    // A rook against a bishop, pawnless: a lead chess seldom wins.
    let fen = "8/8/8/4k3/8/8/3K4/R6b w - - 0 1";
    assert_eq!(share(&common::variant("chess"), fen).0, 1.0);
    assert!(share(&scaled("chess"), fen).0 < 1.0);
    let bundled = std::fs::read_to_string(common::variants_dir().join("chess.weights"))
        .expect("the bundled chess weights");
    let file = varc_runtime::weights::WeightsFile::parse(&bundled).expect("valid weights");
    let mut weighted = common::variant("chess");
    file.apply(&mut weighted).expect("they fit chess");
    assert!(
        weighted.endgame_scaling,
        "the bundled weights were fitted with it"
    );
    assert!(share(&weighted, fen).0 < 1.0);
    // What `varc tune` writes keeps the setting.
    let written = varc_runtime::weights::WeightsFile::write(&weighted, "refitted");
    assert!(written.contains("\nendgame-scaling = on\n"), "{written}");
}

/// The share of its evaluation that scaling keeps in `fen`, and the
/// position's endgame weight (256ths).
fn share(variant: &Variant, fen: &str) -> (f64, i32) {
    let rules = Interpreter::new(variant.clone()).expect("rules");
    let position = rules.import(&parse_fen(variant, fen).expect("a valid position"));
    let evaluator = Evaluator::new(variant);
    (
        evaluator.scale(&rules, &position),
        evaluator.endgame_weight(&position),
    )
}

/// The share a factor (64ths) keeps at endgame weight `endgame` (which
/// counts half as much again, up to all of it).
fn expected(factor: i32, endgame: i32) -> f64 {
    let endgame = (endgame * 3 / 2).min(256);
    f64::from(64 * 256 - (64 - factor) * endgame) / f64::from(64 * 256)
}

fn assert_factor(variant: &Variant, fen: &str, factor: i32) {
    let (kept, endgame) = share(variant, fen);
    assert!(endgame > 0, "{fen}: an endgame");
    let want = expected(factor, endgame);
    assert!(
        (kept - want).abs() < 1e-9,
        "{fen}: kept {kept}, want factor {factor} ({want})"
    );
}

#[test]
fn a_lone_minor_piece_cannot_win_by_the_draw_rules_sets() {
    let chess = scaled("chess");
    // White's bishop against a pawn: the side ahead holds one of the
    // insufficient sets (`insufficient material bishop | knight | knight
    // knight`), so its lead is scaled to nothing at the endgame's share.
    assert_factor(&chess, "8/8/8/4k3/8/2p5/3K4/6B1 w - - 0 1", 0);
    assert_factor(&chess, "8/8/8/4k3/8/2p5/3K4/5NN1 w - - 0 1", 0);
    // What a player sees: a few centipawns, where a bishop and a pawn
    // against a pawn is a clear lead.
    let lone = common::white_evaluation(&chess, "8/8/8/4k3/8/2p5/3K4/6B1 w - - 0 1");
    let with_pawn = common::white_evaluation(&chess, "8/8/8/4k3/8/2p5/3KP3/6B1 w - - 0 1");
    assert!(lone.abs() < 30, "a lone bishop reads {lone}");
    assert!(with_pawn > 100, "a bishop and a pawn read {with_pawn}");
}

#[test]
fn a_pawnless_lead_of_a_minor_piece_is_seldom_won() {
    let chess = scaled("chess");
    // Rook against bishop or knight: the weak side has a minor piece.
    assert_factor(&chess, "8/8/8/4k3/8/8/3K4/R6b w - - 0 1", 4);
    assert_factor(&chess, "8/8/8/4k3/8/8/3K4/R6n w - - 0 1", 4);
    // Rook and bishop against rook: more than a minor piece on the weak
    // side.
    assert_factor(&chess, "8/8/8/4k3/8/8/3K4/RB5r w - - 0 1", 14);
    // Queen against rook: a lead beyond a minor piece, so only the
    // pawn-count rule (no pawns: 36).
    assert_factor(&chess, "8/8/8/4k3/8/8/3K4/Q6r w - - 0 1", 36);
    // The same holds for Black ahead.
    assert_factor(&chess, "r6B/8/8/4k3/8/8/3K4/8 w - - 0 1", 4);
}

#[test]
fn the_royal_piece_in_the_corner_holds_the_rook_file_pawn() {
    let chess = scaled("chess");
    // The bishop on f5 (light) never reaches h8 (dark), Black's king is on
    // it: a draw whatever the material says.
    assert_factor(&chess, "7k/7P/3K4/5B2/8/8/8/8 w - - 0 1", 0);
    // The right bishop (e5, dark) wins: only the pawn-count rule.
    assert_factor(&chess, "7k/7P/3K4/4B3/8/8/8/8 w - - 0 1", 43);
    // Black ahead, promoting on h1, White's king beside it.
    assert_factor(&chess, "8/8/8/5k2/8/6b1/6Kp/8 w - - 0 1", 0);
    // A rook's pawn alone, the king in front of it; away from the
    // corner, the pawn-count rule.
    assert_factor(&chess, "k7/8/P7/8/8/8/8/4K3 w - - 0 1", 0);
    assert_factor(&chess, "8/8/P7/8/8/8/8/k3K3 w - - 0 1", 43);
    // Pawns on two files are not held so.
    assert_factor(&chess, "7k/6PP/3K4/5B2/8/8/8/8 w - - 0 1", 50);
}

#[test]
fn fewer_pawn_shaped_pieces_convert_less() {
    let chess = scaled("chess");
    // Rook and one pawn against rook: 36 + 7.
    assert_factor(&chess, "8/8/8/4k3/8/8/3KP3/R6r w - - 0 1", 43);
    // Four pawns or more: unscaled.
    assert_factor(&chess, "8/p7/8/4k3/8/8/PPPPK3/R6r w - - 0 1", 64);
}

#[test]
fn bishops_on_opposite_colours_hold() {
    let chess = scaled("chess");
    // Bishops alone (g1 dark, e8 light... opposite colours), White two
    // pawns up, both passed: 16 + 4 * 2.
    let alone = "4b3/8/8/4k3/8/8/P2K3P/6B1 w - - 0 1";
    assert_factor(&chess, alone, 24);
    // On the same colour they do not hold: the pawn-count rule.
    assert_factor(&chess, "3b4/8/8/4k3/8/8/P2K3P/6B1 w - - 0 1", 50);
    // With rooks as well: 22 + 3 * (2 pawns + 2 officers).
    assert_factor(&chess, "r3b3/8/8/4k3/8/8/P2K3P/R5B1 w - - 0 1", 34);
}

#[test]
fn the_minor_piece_is_read_from_the_values_in_capablanca() {
    // No insufficient sets in Capablanca's rules: a lone bishop against a
    // pawn is scaled by the values (less than 5/4 of a minor left), a rook
    // against a knight as in chess.
    let capablanca = scaled("capablanca");
    assert_factor(&capablanca, "10/10/10/4k5/10/2p7/3K6/6B3 w - - 0 1", 0);
    assert_factor(&capablanca, "10/10/10/4k5/10/10/3K6/R8n w - - 0 1", 4);
    // An archbishop against a knight is a lead beyond a minor piece.
    assert_factor(&capablanca, "10/10/10/4k5/10/10/3K6/A8n w - - 0 1", 36);
}

#[test]
fn variants_not_won_by_mating_are_not_scaled() {
    // A rook against a bishop, pawnless: scaled in chess, not where a
    // region or checks decide, nor with hands.
    let fen = "8/8/8/4k3/8/8/3K4/R6b w - - 0 1";
    for name in [
        "racingkings",
        "kingofthehill",
        "3check",
        "crazyhouse",
        "antichess",
    ] {
        let variant = gallery_variant(name);
        assert_eq!(share(&variant, fen).0, 1.0, "{name} is scaled");
    }
}

#[test]
fn the_compiled_engine_scales_as_the_interpreter_does() {
    let chess = scaled("chess");
    let fens = [
        "8/8/8/4k3/8/2p5/3K4/6B1 w - - 0 1",
        "8/8/8/4k3/8/8/3K4/R6b b - - 0 1",
        "4b3/8/8/4k3/8/8/P2K3P/6B1 w - - 0 1",
        "8/p7/8/4k3/8/8/PPPPK3/R6r w - - 0 1",
        "7k/7P/3K4/5B2/8/8/8/8 b - - 0 1",
    ];
    let mut input = String::from("uci\n");
    for fen in fens {
        input.push_str(&format!("position fen {fen}\neval\n"));
    }
    input.push_str("quit\n");
    let output = common::run_with_input(common::engine(&chess), &["uci"], &input);
    let compiled: Vec<i32> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|line| line.strip_prefix("info string static evaluation "))
        .map(|rest| {
            rest.split(' ')
                .next()
                .and_then(|v| v.parse().ok())
                .expect("a value")
        })
        .collect();
    let rules = Interpreter::new(chess.clone()).expect("rules");
    let evaluator = Evaluator::new(&chess);
    let interpreted: Vec<i32> = fens
        .iter()
        .map(|fen| {
            evaluator.evaluate(
                &rules,
                &rules.import(&parse_fen(&chess, fen).expect("a FEN")),
            )
        })
        .collect();
    assert_eq!(compiled, interpreted);
}
