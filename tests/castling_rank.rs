//! Castling on the king's rank (issue 10): a side castles on the rank its
//! castling king starts on, not only on its first rank (Shako castles on
//! its second rank). Checked in the interpreter and the compiled engine.

mod common;

use std::process::Command;
use varc::interp::Interpreter;
use varc_runtime::fen::{parse_fen, write_fen};
use varc_runtime::model::Variant;
use varc_runtime::notation::{long_algebraic, parse_move};
use varc_runtime::perft::perft;
use varc_runtime::rules::Rules;

/// Chess on 8 x 10 with kings and rooks on each side's second rank.
const SECOND_RANK: &str = "variant second-rank \"Castling on the second rank\" extends chess\n\
     replace board 8 x 10\n\
     replace setup \"8/r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R/8 w KQkq - 0 1\"\n";

fn second_rank() -> Variant {
    varc::load_variant_from_str("second-rank.rules", SECOND_RANK, &common::variants_dir())
        .unwrap_or_else(|e| panic!("{}", e.render()))
}

fn legal(rules: &Interpreter, fen: &str) -> Vec<String> {
    let position = parse_fen(rules.variant(), fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let moves = rules.legal_moves(&position);
    moves
        .iter()
        .map(|m| long_algebraic(rules.variant(), m, &moves))
        .collect()
}

#[test]
fn castling_ranks_come_from_the_kings_start_squares() {
    let variant = second_rank();
    assert_eq!(variant.castling[0].ranks, [1, 8]);
    // Chess keeps its first ranks.
    assert_eq!(common::variant("chess").castling[0].ranks, [0, 7]);
}

#[test]
fn interpreter_castles_on_the_kings_rank() {
    let variant = second_rank();
    let start = variant.start_fen.clone();
    let rules = Interpreter::new(variant).expect("interpreter");
    let moves = legal(&rules, &start);
    assert!(moves.contains(&"e2g2".to_string()), "{moves:?}");
    assert!(moves.contains(&"e2c2".to_string()), "{moves:?}");
    // The rook lands beside the king, on the same rank.
    let mut position = parse_fen(rules.variant(), &start).expect("start");
    let mv = parse_move(&rules, &position, "e2g2").expect("short castling");
    position = rules.play(&position, &mv);
    assert_eq!(
        write_fen(rules.variant(), &position),
        "8/r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R4RK1/8 b kq - 1 1"
    );
    // Black castles on its own second rank (rank 9).
    let black = legal(
        &rules,
        "8/r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R/8 b KQkq - 0 1",
    );
    assert!(black.contains(&"e9c9".to_string()), "{black:?}");
    // A rook that leaves its square takes its right, as on the first rank.
    let mut position = parse_fen(rules.variant(), &start).expect("start");
    for text in ["h2h1", "a9a10"] {
        let mv = parse_move(&rules, &position, text).expect(text);
        position = rules.play(&position, &mv);
    }
    assert_eq!(
        write_fen(rules.variant(), &position),
        "r7/4k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K3/7R w Qk - 2 2"
    );
    // Letters naming no rook on the castling rank are refused.
    assert!(parse_fen(
        rules.variant(),
        "8/r3k2r/pppppppp/8/8/8/8/PPPPPPPP/4K2R/R7 w Q - 0 1"
    )
    .is_err());
    // Depth 1: the two castlings are the only difference the rights make.
    let with = perft(
        &rules,
        &parse_fen(rules.variant(), &start).expect("start"),
        1,
    );
    let without = perft(
        &rules,
        &parse_fen(rules.variant(), &start.replace("KQkq", "-")).expect("no rights"),
        1,
    );
    assert_eq!(with, without + 2);
}

#[test]
fn compiled_engine_castles_on_the_kings_rank_like_the_interpreter() {
    let variant = second_rank();
    let rules = Interpreter::new(variant.clone()).expect("interpreter");
    let binary = common::engine(&variant);
    let fens = [
        variant.start_fen.clone(),
        "8/r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R/8 b KQkq - 0 1".to_string(),
        "8/r3k2r/p1pppppp/8/1p6/8/8/PPPPPP1P/R3K2R/8 w Kq - 0 1".to_string(),
        "r7/4k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K3/7R w Qk - 2 2".to_string(),
    ];
    for fen in &fens {
        let position = parse_fen(rules.variant(), fen).expect("fen");
        let expected = perft(&rules, &position, 3);
        let output = Command::new(&binary)
            .args(["perft", "3", "--fen", fen, "--json"])
            .output()
            .expect("the engine runs");
        assert!(output.status.success(), "{output:?}");
        let value: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
        assert_eq!(value["nodes"].as_u64(), Some(expected), "{fen}");
    }
}

/// Shako (the gallery's file) castles on its second rank, king to h or d:
/// perft from a position with every right, in both back ends with the
/// ending rules, as Fairy-Stockfish's Python binding counts it.
#[test]
fn shako_castles_on_the_second_rank_as_fairy_stockfish_counts() {
    let path = common::variants_dir().join("gallery/shako.rules");
    let variant = varc::load_variant(&path).unwrap_or_else(|e| panic!("{}", e.render()));
    common::assert_end_rules_perft_in_both_back_ends(
        &variant,
        &[(
            "2c6c/er1bqkb1re/np1pppp1pp/2p4p2/p3n5/1E8/3P2PE2/PPP1PP1PPP/1R1B1K1NR1/N2Q1C1B1C w KQkq - 0 10",
            [52, 3156, 165882],
        )],
    );
}
