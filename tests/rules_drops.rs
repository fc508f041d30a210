//! Hands and drops, from the rule text (README, "Hands and drops"):
//! `captures go to hand, demoted` sends a captured piece to the
//! capturer's hand (a promoted one as the kind it was first), and `drops
//! of PIECES [onto REGION]` lets the side to move put one from its hand on
//! an empty square of the region as its whole move. Crazyhouse
//! (`variants/gallery/crazyhouse.rules`) states them; each case that plays
//! moves runs in the interpreter and in the compiled engine, which must
//! agree.

mod common;

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use varc::interp::Interpreter;
use varc::model::Variant;
use varc_runtime::fen::{parse_fen, write_fen};
use varc_runtime::notation::{long_algebraic_of, parse_move, san};
use varc_runtime::rules::Rules;

fn crazyhouse_file() -> PathBuf {
    common::variants_dir().join("gallery/crazyhouse.rules")
}

fn crazyhouse() -> Variant {
    varc::load_variant(&crazyhouse_file()).unwrap_or_else(|e| panic!("{}", e.render()))
}

/// `replay --json` of `args` in both back ends.
fn replay_both(args: &[&str]) -> [serde_json::Value; 2] {
    common::replay_both(&crazyhouse_file(), &crazyhouse(), args)
}

/// The FEN's holdings: the text between the brackets.
fn holdings(value: &serde_json::Value) -> String {
    let fen = value["fen"].as_str().expect("fen");
    let open = fen.find('[').expect("holdings");
    let close = fen.find(']').expect("holdings closed");
    fen[open + 1..close].to_string()
}

fn drops(value: &serde_json::Value) -> Vec<String> {
    common::sorted_legal_moves(value)
        .into_iter()
        .filter(|mv| mv.contains('@'))
        .collect()
}

#[test]
fn crazyhouse_sentences_lower_to_hands_and_drop_rules() {
    let variant = crazyhouse();
    let to_hand = variant.hands.captures_to_hand.as_ref().expect("to hand");
    assert!(to_hand.demoted);
    assert_eq!(variant.hands.drops.len(), 2);
    let pawn = variant.piece_by_name("pawn").expect("pawn");
    let rule = &variant.hands.drops[0];
    assert_eq!(rule.pieces, [pawn]);
    assert_eq!(rule.onto, variant.region_by_name("drop-ranks"));
    assert!(!common::variant("chess").hands.in_use());
}

#[test]
fn a_captured_piece_goes_to_the_capturers_hand() {
    for value in replay_both(&["--moves", "e2e4 d7d5 e4d5"]) {
        assert_eq!(holdings(&value), "P", "{value}");
    }
    for value in replay_both(&["--moves", "e2e4 d7d5 e4d5 d8d5"]) {
        assert_eq!(holdings(&value), "Pp", "{value}");
    }
}

#[test]
fn a_promoted_piece_returns_to_the_hand_as_a_pawn() {
    // The `~` queen, taken by the rook, is a pawn in Black's hand.
    for value in replay_both(&[
        "--fen",
        "r3k3/8/8/8/8/8/8/Q~3K3[] b - - 0 1",
        "--moves",
        "a8a1",
    ]) {
        assert_eq!(holdings(&value), "p", "{value}");
    }
    // A queen promoted in the game is written `Q~` and goes back as a pawn.
    for value in replay_both(&[
        "--fen",
        "r3k3/1P6/8/8/8/8/8/4K3[] w - - 0 1",
        "--moves",
        "b7b8q a8b8",
    ]) {
        assert_eq!(holdings(&value), "p", "{value}");
    }
    for value in replay_both(&[
        "--fen",
        "r3k3/1P6/8/8/8/8/8/4K3[] w - - 0 1",
        "--moves",
        "b7b8q",
    ]) {
        let fen = value["fen"].as_str().expect("fen");
        assert!(fen.starts_with("rQ~2k3/"), "{fen}");
    }
}

#[test]
fn pawns_are_dropped_only_on_ranks_two_to_seven() {
    for value in replay_both(&["--fen", "4k3/8/8/8/8/8/8/4K3[P] w - - 0 1"]) {
        let drops = drops(&value);
        assert_eq!(drops.len(), 48, "{drops:?}");
        assert!(drops
            .iter()
            .all(|mv| !mv.ends_with('1') && !mv.ends_with('8')));
    }
    // A knight may go on the last rank.
    for value in replay_both(&["--fen", "4k3/8/8/8/8/8/8/4K3[N] w - - 0 1"]) {
        assert_eq!(drops(&value).len(), 62);
    }
}

#[test]
fn a_pawn_dropped_on_its_second_rank_may_double_step() {
    for value in replay_both(&[
        "--fen",
        "4k3/8/8/8/8/8/8/4K3[P] w - - 0 1",
        "--moves",
        "P@e2 e8d8",
    ]) {
        assert!(common::sorted_legal_moves(&value).contains(&"e2e4".to_string()));
    }
    for value in replay_both(&[
        "--fen",
        "4k3/8/8/8/8/8/8/4K3[P] w - - 0 1",
        "--moves",
        "P@e3 e8d8",
    ]) {
        assert!(!common::sorted_legal_moves(&value).contains(&"e3e5".to_string()));
    }
}

#[test]
fn drops_interpose_against_a_check_and_nothing_else_is_dropped() {
    // The rook checks along the first rank: knights interpose, pawns may
    // not go there, and no drop elsewhere answers the check.
    for value in replay_both(&["--fen", "4k3/8/8/8/8/8/8/r3K3[NPn] w - - 0 1"]) {
        assert_eq!(
            common::sorted_legal_moves(&value),
            ["N@b1", "N@c1", "N@d1", "e1d2", "e1e2", "e1f2"]
        );
    }
    // A knight's check cannot be blocked: no drop at all.
    for value in replay_both(&["--fen", "4k3/8/8/8/8/3n4/8/4K3[QP] w - - 0 1"]) {
        assert_eq!(drops(&value), Vec::<String>::new());
    }
}

#[test]
fn no_drop_with_an_empty_hand() {
    for value in replay_both(&[]) {
        assert_eq!(holdings(&value), "");
        assert!(drops(&value).is_empty());
    }
    // White holds a pawn, Black nothing: Black to move has no drop.
    for value in replay_both(&["--moves", "e2e4 d7d5 e4d5"]) {
        assert!(drops(&value).is_empty(), "{value}");
    }
}

#[test]
fn a_drop_is_refused_without_the_piece_in_hand() {
    for value in replay_both(&["--moves", "e2e4 d7d5 e4d5 N@f6"]) {
        assert_eq!(value["error"], "illegal move N@f6", "{value}");
    }
}

#[test]
fn fens_with_holdings_and_promoted_marks_read_and_write_back() {
    let variant = crazyhouse();
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1",
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[QRBNPqrbnp] w KQkq - 2 3",
        "rQ~2k3/8/8/8/8/8/8/4K3[PPn] b - - 0 1",
        "r3k3/8/8/8/8/8/8/Q~3K3[] b - - 0 1",
    ] {
        let position = parse_fen(&variant, fen).expect(fen);
        assert_eq!(write_fen(&variant, &position), fen);
        for value in replay_both(&["--fen", fen]) {
            assert_eq!(value["fen"], fen);
        }
    }
    // Without brackets the hands are empty; the FEN is written with them.
    let position = parse_fen(&variant, "4k3/8/8/8/8/8/8/4K3 w - - 0 1").expect("fen");
    assert_eq!(
        write_fen(&variant, &position),
        "4k3/8/8/8/8/8/8/4K3[] w - - 0 1"
    );
}

#[test]
fn bad_holdings_are_refused_and_change_nothing() {
    let variant = crazyhouse();
    let chess = common::variant("chess");
    for (variant, fen, reason) in [
        (
            &variant,
            "4k3/8/8/8/8/8/8/4K3[X] w - - 0 1",
            "not a piece letter",
        ),
        (&variant, "4k3/8/8/8/8/8/8/4K3[K] w - - 0 1", "royal"),
        (&variant, "4k3/8/8/8/8/8/8/4K3[P w - - 0 1", "brackets"),
        (&variant, "4k3/8/8/8/8/8/8/4K3[P]] w - - 0 1", "brackets"),
        (
            &variant,
            "4k3/8/8/8/8/8/8/4K~3[] w - - 0 1",
            "no such piece",
        ),
        // Chess does not demote: `~` would not be written back.
        (&chess, "4k3/8/8/8/8/8/8/Q~3K3 w - - 0 1", "no such piece"),
        (
            &chess,
            "4k3/8/8/8/8/8/8/4K3[P] w - - 0 1",
            "no pieces in hand",
        ),
    ] {
        let error = parse_fen(variant, fen).expect_err(fen).to_string();
        assert!(error.contains(reason), "{fen}: {error}");
    }
    let (value, code) = common::replay_json(&[
        crazyhouse_file().to_str().expect("path"),
        "--fen",
        "4k3/8/8/8/8/8/8/4K3[X] w - - 0 1",
    ]);
    assert_eq!(code, 2);
    assert!(value["reason"]
        .as_str()
        .expect("reason")
        .contains("holdings"));
}

#[test]
fn drops_print_and_parse_in_long_algebraic_and_san() {
    let variant = crazyhouse();
    let rules = Interpreter::new(variant.clone()).expect("interpreter");
    let position = parse_fen(
        &variant,
        "rnbqkbnr/ppppp1pp/8/8/8/8/PPPPPPPP/RNBQKBNR[QP] w KQkq - 0 1",
    )
    .expect("fen");
    let legal = rules.legal_moves(&position);
    for (text, long, written) in [
        ("P@g6", "P@g6", "P@g6"),
        ("p@g6", "P@g6", "P@g6"),
        ("Q@h5", "Q@h5", "Q@h5+"),
        ("Q@h5+", "Q@h5", "Q@h5+"),
    ] {
        let mv = parse_move(&rules, &position, text).expect(text);
        assert_eq!(long_algebraic_of(&rules, &mv, &legal), long);
        assert_eq!(san(&rules, &position, &mv), written);
    }
    // A drop's text names only the drop, and a plain move's only that move.
    assert!(parse_move(&rules, &position, "P@e2").is_err());
    assert!(parse_move(&rules, &position, "K@e4").is_err());
    assert!(parse_move(&rules, &position, "@e4").is_err());
    let pawn_push = parse_move(&rules, &position, "e4").expect("e4");
    assert_eq!(long_algebraic_of(&rules, &pawn_push, &legal), "e2e4");
}

/// Both protocols take drops in their move lists: UCI's `position ...
/// moves` and XBoard's `usermove` (both write `P@e4`).
#[test]
fn uci_and_xboard_take_drops() {
    let run = |protocol: &str, script: &str| -> String {
        let args = [std::ffi::OsString::from(protocol), crazyhouse_file().into()];
        let output = common::run_with_input(env!("CARGO_BIN_EXE_varc"), &args, script);
        String::from_utf8_lossy(&output.stdout).into_owned()
    };
    // After 1. e4 d5 2. exd5 Qxd5 3. P@e4 the queen is attacked; the only
    // legal replies keep it, and `go` answers with one.
    let uci = run(
        "uci",
        "uci\nposition startpos moves e2e4 d7d5 e4d5 d8d5 P@e4\ngo depth 1\nquit\n",
    );
    assert!(uci.contains("bestmove "), "{uci}");
    assert!(!uci.contains("info string illegal"), "{uci}");
    let xboard = run(
        "xboard",
        "xboard\nprotover 2\nforce\nusermove e2e4\nusermove d7d5\nusermove e4d5\nusermove d8d5\nusermove P@e4\nusermove P@e5\nping 1\nquit\n",
    );
    assert!(xboard.contains("pong 1"), "{xboard}");
    assert!(!xboard.contains("Illegal move"), "{xboard}");
}

/// Perft with the ending rules from positions with pieces in hand, in both
/// back ends, against counts Fairy-Stockfish's Python binding gave
/// (`pyffish.legal_moves("crazyhouse", fen, [])`, depths 1 to 3).
#[test]
fn perft_with_hands_agrees_in_both_back_ends() {
    common::assert_end_rules_perft_in_both_back_ends(
        &crazyhouse(),
        &[
            ("4k3/8/8/8/8/8/8/r3K3[Nn] w - - 0 1", [6, 462, 15235]),
            ("r3k3/8/8/8/8/8/8/Q~3K3[] b - - 0 1", [15, 285, 4073]),
            ("4k3/8/8/8/8/8/8/4K3[P] w - - 0 1", [53, 255, 2830]),
            ("k7/8/8/8/8/8/8/R3K3[Pp] b - - 0 1", [8, 476, 7269]),
        ],
    );
}

/// A piece in hand is material: the evaluation counts its value for its
/// owner (it can come back anywhere its drop rule allows), in both back
/// ends alike since both read the hands through the board view.
#[test]
fn a_piece_in_hand_counts_its_value_in_the_evaluation() {
    let variant = crazyhouse();
    let rules = Interpreter::new(variant.clone()).expect("interpreter");
    let evaluator = varc_runtime::eval::Evaluator::new(&variant);
    let score = |fen: &str| {
        let position = parse_fen(&variant, fen).expect(fen);
        evaluator.evaluate_white(&rules, &position)
    };
    let bare = score("4k3/8/8/8/8/8/8/4K3[] w - - 0 1");
    let queen = evaluator.value(variant.piece_by_name("queen").expect("queen"));
    assert_eq!(score("4k3/8/8/8/8/8/8/4K3[Q] w - - 0 1") - bare, queen);
    assert_eq!(
        score("4k3/8/8/8/8/8/8/4K3[qq] w - - 0 1") - bare,
        -2 * queen
    );
}

#[test]
fn varc_play_shows_each_hand_beside_the_board() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_varc"))
        .args(["play", "--engine", "none"])
        .arg(crazyhouse_file())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("varc play starts");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin
        .write_all(b"e4\nd5\nexd5\nQxd5\nP@e6\nquit\n")
        .expect("moves written");
    drop(stdin);
    let output = child.wait_with_output().expect("varc play ends");
    let text = String::from_utf8_lossy(&output.stdout);
    // Black's hand above the board, White's below; empty at the start.
    let first_board = text.split("to move").next().unwrap_or_default();
    assert!(first_board.contains("black's hand: empty"), "{text}");
    assert!(first_board.contains("white's hand: empty"), "{text}");
    let after_capture = text
        .split("last move: black Qxd5")
        .next()
        .and_then(|before| before.rsplit("black> ").next())
        .unwrap_or_default();
    let black = after_capture.find("black's hand: p 1");
    let rank_8 = after_capture.find(" 8 ");
    let white = after_capture.find("white's hand: P 1");
    assert!(
        black < rank_8 && rank_8 < white && black.is_some(),
        "{text}"
    );
    assert!(text.contains("last move: white P@e6"), "{text}");
}
