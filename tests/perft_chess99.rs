//! Chess 99 delayed promotion (RULES.md D1-D5): divide tables derived by hand
//! from the rules, with the reasoning beside each count. No outside engine
//! states these rules, so the counts come from the rule text alone.

mod common;

use varc::interp::Interpreter;
use varc_runtime::fen::parse_fen;
use varc_runtime::notation::long_algebraic;
use varc_runtime::perft::perft;
use varc_runtime::rules::Rules;

/// The divide at depth `depth` as sorted `move: count` lines.
fn divide(rules: &Interpreter, fen: &str, depth: u32) -> Vec<String> {
    let position = parse_fen(rules.variant(), fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let moves = rules.legal_moves(&position);
    let mut lines: Vec<String> = moves
        .iter()
        .map(|mv| {
            let next = rules.play(&position, mv);
            let count = if depth <= 1 {
                1
            } else {
                perft(rules, &next, depth - 1)
            };
            format!("{}: {count}", long_algebraic(rules.variant(), mv, &moves))
        })
        .collect();
    lines.sort();
    lines
}

fn expected(lines: &[&str]) -> Vec<String> {
    let mut lines: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    lines.sort();
    lines
}

/// D1: White pawn e7, kings a8 and e1. The king has 5 steps (d1 d2 e2 f2
/// f1); the pawn's step to e8 is one move, not four promotions. Each reply of
/// the lone black king is a7, b7 or b8 (a pawn on e8 attacks nothing).
#[test]
fn d1_reaching_the_last_rank_does_not_promote() {
    let chess99 = common::rules("chess99");
    let fen = "k7/4P3/8/8/8/8/8/4K3 w - - 0 1";
    assert_eq!(
        divide(&chess99, fen, 2),
        expected(&["e1d1: 3", "e1d2: 3", "e1e2: 3", "e1f2: 3", "e1f1: 3", "e7e8: 3"])
    );
}

/// D2-D4: the pawn stands on e8. Promoting is the whole move: to a bishop
/// (stay, or one non-capturing move: d7 c6 b5 a4 and f7 g6 h5 = 8 moves) or a
/// knight (stay, or d6 f6 c7 g7 = 5 moves); never a queen or rook. With the
/// king's 5 steps: 18.
#[test]
fn d2_d4_promotion_on_a_later_turn_to_bishop_or_knight_then_one_move() {
    let chess99 = common::rules("chess99");
    let fen = "k3P3/8/8/8/8/8/8/4K3 w - - 0 1";
    let position = parse_fen(chess99.variant(), fen).expect("fen");
    assert_eq!(perft(&chess99, &position, 1), 18);
}

/// D3: the follow-up move may not capture. A black rook on c6 stops the
/// bishop's d7-c6-b5-a4 diagonal after d7 and cannot be taken: the bishop has
/// stay, d7, f7, g6, h5 (5); the knight stay, d6, f6, c7, g7 (5); the king 5.
#[test]
fn d3_the_follow_up_move_never_captures() {
    let chess99 = common::rules("chess99");
    let fen = "k3P3/8/2r5/8/8/8/8/4K3 w - - 0 1";
    assert_eq!(
        divide(&chess99, fen, 1),
        expected(&[
            "e1d1: 1",
            "e1d2: 1",
            "e1e2: 1",
            "e1f1: 1",
            "e1f2: 1",
            "e8=b: 1",
            "e8=b>d7: 1",
            "e8=b>f7: 1",
            "e8=b>g6: 1",
            "e8=b>h5: 1",
            "e8=n: 1",
            "e8=n>c7: 1",
            "e8=n>d6: 1",
            "e8=n>f6: 1",
            "e8=n>g7: 1",
        ])
    );
}

/// D5 on the 5x4 test board (`1p1pk/5/P1P1P/K4 w`): White king a1 steps to
/// b1 or b2 (a2 is his pawn); pawns a2 and c2 step once or twice (the double
/// step lands on the last rank, rank 4, without promoting); e2 steps to e3
/// only (the black king on e4 blocks). 7 moves. After c2c4 Black has: b4-b3,
/// b4-b2 (his pawns on their setup squares have their double step), b4xc3 en
/// passant; the same three for d4; and Ke3 (d3 is attacked by the e2 pawn): 7.
#[test]
fn d5_a_double_step_onto_the_last_rank_can_be_taken_en_passant() {
    let mini = common::rules("chess99-mini");
    let start = mini.variant().start_fen.clone();
    assert_eq!(
        divide(&mini, &start, 1),
        expected(&["a1b1: 1", "a1b2: 1", "a2a3: 1", "a2a4: 1", "c2c3: 1", "c2c4: 1", "e2e3: 1"])
    );
    let after = divide(&mini, "1pPpk/5/P3P/K4 b - c3 0 1", 1);
    assert_eq!(
        after,
        expected(&["b4b3: 1", "b4b2: 1", "b4c3: 1", "d4d3: 1", "d4d2: 1", "d4c3: 1", "e4e3: 1"])
    );
}
