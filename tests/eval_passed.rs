//! Passed tables (`passed-table` and `endgame-passed-table` in a weights
//! file, [`PassedTables`]): a passed pawn-shaped piece that can move earns
//! its tables' entries for its moves to the zone, tapered by the officers
//! on the board, in place of the passed formula; the lines read, apply and
//! write back, and bad ones change nothing.

mod common;

use varc_runtime::eval::Evaluator;
use varc_runtime::model::{PassedTables, Variant};
use varc_runtime::weights::WeightsFile;

/// Chess with passed tables: `middlegame[d] = 10 d`, `endgame[d] = 100 d`.
fn tabled(chess: &Variant) -> Variant {
    let mut variant = chess.clone();
    variant.passed_tables = Some(PassedTables {
        middlegame: (0..8).map(|d| 10 * d).collect(),
        endgame: (0..8).map(|d| 100 * d).collect(),
    });
    variant
}

fn zeros(chess: &Variant) -> Variant {
    let mut variant = chess.clone();
    variant.passed_tables = Some(PassedTables {
        middlegame: vec![0],
        endgame: vec![0],
    });
    variant
}

#[test]
fn a_passed_piece_reads_its_moves_to_the_zone() {
    let chess = common::variant("chess");
    let (tabled, zeros) = (tabled(&chess), zeros(&chess));
    let gain =
        |fen: &str| common::white_evaluation(&tabled, fen) - common::white_evaluation(&zeros, fen);
    // No officers: the endgame table. d5 is 3 moves from d8, d2 is 6 (the
    // distance counts the steps a pawn always has, not its first move's).
    // Blocked pawns on the a, b and h files (none passed) give the side
    // ahead four pawn-shaped pieces, so that endgame scaling keeps the
    // whole value.
    assert_eq!(gain("4k3/8/8/pp1P3p/PP5P/8/8/4K3 w - - 0 1"), 300);
    assert_eq!(gain("4k3/8/8/pp5p/PP5P/8/3P4/4K3 w - - 0 1"), 600);
    // Black's passed pawn on d4 counts for Black.
    assert_eq!(gain("4k3/8/8/pp5p/PP1p3P/8/8/4K3 w - - 0 1"), -300);
    // Not passed: an enemy pawn ahead beside it; or blocked, unable to move.
    assert_eq!(gain("4k3/4p3/8/pp1P3p/PP5P/8/8/4K3 w - - 0 1"), 0);
    assert_eq!(gain("8/8/3k4/pp1P3p/PP5P/8/8/4K3 w - - 0 1"), 0);
    // Every officer on: the middlegame table.
    let full = "rnbqkbnr/8/8/3P4/8/8/8/RNBQKBNR w KQkq - 0 1";
    assert_eq!(gain(full), 30);
}

#[test]
fn without_tables_the_formula_counts() {
    let chess = common::variant("chess");
    let fen = "4k3/8/8/3P4/8/8/8/4K3 w - - 0 1";
    let formula = Evaluator::new(&chess)
        .passed_formula(&chess)
        .expect("chess has pawns");
    let mut from_formula = chess.clone();
    from_formula.passed_tables = Some(formula.clone());
    // With no enemy material the formula doubles its bonus, as the endgame
    // entries do.
    assert_eq!(
        common::white_evaluation(&from_formula, fen),
        common::white_evaluation(&chess, fen)
    );
    assert_eq!(formula.endgame[3], 2 * formula.middlegame[3]);
    assert!(formula.middlegame[1] > formula.middlegame[2] && formula.middlegame[0] == 0);
}

#[test]
fn passed_lines_read_apply_and_write_back() {
    let chess = common::variant("chess");
    let text = "passed-table = 0 70 34 15 1\nendgame-passed-table = 0 133 80 54 33 8\n";
    let mut variant = chess.clone();
    WeightsFile::parse(text)
        .expect("good lines")
        .apply(&mut variant)
        .expect("they apply");
    let tables = variant.passed_tables.clone().expect("set");
    assert_eq!(tables.middlegame, vec![0, 70, 34, 15, 1]);
    assert_eq!(PassedTables::at(&tables.endgame, 12), 8);
    let written = WeightsFile::write(&variant, "passed");
    let mut again = chess.clone();
    WeightsFile::parse(&written)
        .expect("written lines read")
        .apply(&mut again)
        .expect("and apply");
    assert_eq!(again.passed_tables, Some(tables));
    // The endgame table left out is the middlegame one.
    let mut variant = chess.clone();
    WeightsFile::parse("passed-table = 0 50 20")
        .expect("reads")
        .apply(&mut variant)
        .expect("applies");
    let tables = variant.passed_tables.expect("set");
    assert_eq!(tables.endgame, tables.middlegame);
}

#[test]
fn bad_passed_lines_are_refused_and_change_nothing() {
    let chess = common::variant("chess");
    let error = WeightsFile::parse("tempo = 3\npassed-table = 0 x").expect_err("x");
    assert_eq!(error.line, 2);
    assert!(error.message.contains("`x`"), "{}", error.message);
    let alone = WeightsFile::parse("tempo = 3\nendgame-passed-table = 0 9").expect("reads");
    let mut variant = chess.clone();
    let error = alone.apply(&mut variant).expect_err("no middlegame table");
    assert_eq!(error.line, 2);
    assert!(
        error.message.contains("needs a `passed-table`"),
        "{}",
        error.message
    );
    assert_eq!(variant, chess, "a refused file changes nothing");
}
