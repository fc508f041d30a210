//! Shogi's sentences, from the rule text (README, "Promotion" and "Hands
//! and drops"): `starting or ending there` (a move that starts in the zone
//! promotes too), `no piece may stand where it could not move` (plain
//! moves and drops), `drops of PIECES, no two on a file`, the `drop of
//! PIECES` event (a mate by a pawn drop loses for the side that gives it),
//! letters marked `+` for promoted kinds and the FEN's `[-]`.
//! `variants/gallery/shogi.rules` and `minishogi.rules` state them; each
//! case that plays moves runs in the interpreter and in the compiled
//! engine, which must agree.

mod common;

use std::path::PathBuf;
use varc::interp::Interpreter;
use varc::model::{EventPattern, Variant};
use varc_runtime::fen::{parse_fen, write_fen};
use varc_runtime::notation::{long_algebraic_of, parse_move};
use varc_runtime::rules::Rules;

fn gallery_file(name: &str) -> PathBuf {
    common::variants_dir().join(format!("gallery/{name}.rules"))
}

fn gallery(name: &str) -> Variant {
    varc::load_variant(&gallery_file(name)).unwrap_or_else(|e| panic!("{}", e.render()))
}

/// `replay --json` of `args` in both back ends.
fn replay_both(name: &str, args: &[&str]) -> [serde_json::Value; 2] {
    common::replay_both(&gallery_file(name), &gallery(name), args)
}

fn shogi_moves(fen: &str) -> [Vec<String>; 2] {
    replay_both("shogi", &["--fen", fen]).map(|value| common::sorted_legal_moves(&value))
}

fn holdings(value: &serde_json::Value) -> String {
    let fen = value["fen"].as_str().expect("fen");
    let open = fen.find('[').expect("holdings");
    let close = fen.find(']').expect("holdings closed");
    fen[open + 1..close].to_string()
}

#[test]
fn shogi_sentences_lower_to_promotions_drops_and_legality() {
    let variant = gallery("shogi");
    assert_eq!(variant.promotions.len(), 6);
    assert!(variant.promotions.iter().all(|rule| rule.leaving_too));
    assert!(variant.legality.immobility_illegal);
    let pawn = variant.piece_by_name("pawn").expect("pawn");
    let pawn_drops = &variant.hands.drops[0];
    assert_eq!(pawn_drops.pieces, [pawn]);
    assert!(pawn_drops.no_two_on_a_file);
    assert!(!variant.hands.drops[1].no_two_on_a_file);
    let tokin = variant.piece_by_name("tokin").expect("tokin");
    assert_eq!(variant.pieces[tokin].letter, "+P");
    assert_eq!(
        varc_runtime::hands::promoted_from(&variant, tokin),
        Some(pawn)
    );
    // The pawn-drop mate rule reads the drop of a pawn.
    let drop_of_pawn = format!("{:?}", EventPattern::DropOf(vec![pawn]));
    let rule = variant
        .terminations
        .iter()
        .find(|rule| rule.label.as_deref() == Some("pawn-drop-mate"))
        .expect("pawn-drop-mate");
    assert!(format!("{:?}", rule.condition).contains(&drop_of_pawn));
    // Chess says none of it.
    let chess = common::variant("chess");
    assert!(!chess.legality.immobility_illegal);
    assert!(chess.promotions.iter().all(|rule| !rule.leaving_too));
}

#[test]
fn a_move_into_the_zone_may_promote_and_one_outside_it_may_not() {
    // The silver on c6: c7, b7 and d7 are in the zone, b5 and d5 are not.
    for moves in shogi_moves("4k4/9/9/2S6/9/9/9/9/4K4[-] w 0 1") {
        for entering in ["c6b7", "c6c7", "c6d7"] {
            assert!(moves.contains(&entering.to_string()), "{moves:?}");
            assert!(moves.contains(&format!("{entering}+")), "{moves:?}");
        }
        assert!(moves.contains(&"c6b5".to_string()));
        assert!(!moves.contains(&"c6b5+".to_string()), "{moves:?}");
    }
}

#[test]
fn a_move_that_starts_in_the_zone_may_promote_wherever_it_ends() {
    // The silver on c7 steps back out of the zone to b6 and d6: it may
    // promote, or not.
    for moves in shogi_moves("4k4/9/2S6/9/9/9/9/9/4K4[-] w 0 1") {
        for leaving in ["c7b6", "c7d6"] {
            assert!(moves.contains(&leaving.to_string()), "{moves:?}");
            assert!(moves.contains(&format!("{leaving}+")), "{moves:?}");
        }
    }
    // Without the option only the arrival square counts (a crazyhouse pawn
    // promotes on the last rank, never on a move away from it).
    let crazyhouse = gallery("crazyhouse");
    assert!(crazyhouse.promotions.iter().all(|rule| !rule.leaving_too));
}

#[test]
fn a_piece_that_could_never_move_again_must_promote() {
    // The pawn on a8 and the lance on e8 reach the last rank, the knight on
    // c7 the last rank and the knight on b6 the next to last: each only
    // promoted. The lance may stop on e8 unpromoted (it moves on from there).
    for moves in shogi_moves("8k/P3L4/2N6/1N7/9/9/9/9/4K4[-] w 0 1") {
        for forced in ["a8a9", "e8e9", "c7b9", "c7d9", "b6c8"] {
            assert!(!moves.contains(&forced.to_string()), "{forced}: {moves:?}");
            assert!(moves.contains(&format!("{forced}+")), "{forced}: {moves:?}");
        }
    }
    for moves in shogi_moves("8k/9/4L4/9/9/9/9/9/4K4[-] w 0 1") {
        assert!(moves.contains(&"e7e8".to_string()), "{moves:?}");
        assert!(moves.contains(&"e7e8+".to_string()), "{moves:?}");
        assert!(!moves.contains(&"e7e9".to_string()), "{moves:?}");
    }
}

#[test]
fn no_drop_leaves_a_piece_where_it_could_never_move() {
    for moves in shogi_moves("4k4/9/9/9/9/9/9/9/4K4[LNP] w 0 1") {
        let drops = |letter: &str| -> Vec<String> {
            moves
                .iter()
                .filter(|mv| mv.starts_with(&format!("{letter}@")))
                .cloned()
                .collect()
        };
        // Lances and pawns: ranks 1 to 8 (less the king's square); knights
        // ranks 1 to 7.
        assert_eq!(drops("L").len(), 9 * 8 - 1);
        assert_eq!(drops("P").len(), 9 * 8 - 1);
        assert_eq!(drops("N").len(), 9 * 7 - 1);
        assert!(drops("L").iter().all(|mv| !mv.ends_with('9')));
        assert!(drops("N")
            .iter()
            .all(|mv| !mv.ends_with('9') && !mv.ends_with('8')));
    }
}

#[test]
fn no_pawn_is_dropped_on_a_file_with_an_unpromoted_pawn_of_its_side() {
    // White's pawn on c3 bars the c-file; the tokin on e7 bars nothing,
    // nor does Black's pawn on g5.
    for moves in shogi_moves("4k4/9/4+P4/9/6p2/9/2P6/9/4K4[P] w 0 1") {
        let pawn_drops: Vec<&String> = moves.iter().filter(|mv| mv.starts_with("P@")).collect();
        assert!(
            pawn_drops.iter().all(|mv| !mv.starts_with("P@c")),
            "{pawn_drops:?}"
        );
        assert!(pawn_drops.iter().any(|mv| mv.starts_with("P@e")));
        assert!(pawn_drops.iter().any(|mv| mv.starts_with("P@g")));
        // Eight files, ranks 1 to 8, less the occupied squares off the c-file.
        assert_eq!(pawn_drops.len(), 8 * 8 - 3, "{pawn_drops:?}");
    }
    // Other kinds are dropped on any file.
    for moves in shogi_moves("4k4/9/9/9/9/9/2G6/9/4K4[G] w 0 1") {
        assert!(moves.iter().any(|mv| mv.starts_with("G@c")));
    }
}

#[test]
fn a_mate_by_a_pawn_drop_loses_for_the_side_that_gives_it() {
    for value in replay_both(
        "shogi",
        &[
            "--fen",
            "3lkl3/9/4G4/9/9/9/9/9/4K4[P] w 0 1",
            "--moves",
            "P@e8",
        ],
    ) {
        assert_eq!(value["status"], "ended", "{value}");
        assert_eq!(value["reason"], "mate by a pawn drop", "{value}");
        assert_eq!(
            value["scores"],
            serde_json::json!({"white": 0.0, "black": 1.0}),
            "{value}"
        );
    }
    // A mate by a pawn's move wins, as any other.
    for value in replay_both(
        "shogi",
        &[
            "--fen",
            "3lkl3/9/3GPG3/9/9/9/9/9/4K4[-] w 0 1",
            "--moves",
            "e7e8",
        ],
    ) {
        assert_eq!(value["status"], "ended", "{value}");
        assert_eq!(value["reason"], "no legal move", "{value}");
        assert_eq!(
            value["scores"],
            serde_json::json!({"white": 1.0, "black": 0.0}),
            "{value}"
        );
    }
    // A pawn drop that checks without mating is an ordinary move.
    for value in replay_both(
        "shogi",
        &["--fen", "4k4/9/9/9/9/9/9/9/4K4[P] w 0 1", "--moves", "P@e8"],
    ) {
        assert_eq!(value["status"], "ongoing", "{value}");
    }
}

#[test]
fn a_promoted_piece_returns_to_the_hand_as_what_it_was() {
    for value in replay_both(
        "shogi",
        &[
            "--fen",
            "4k4/4+P4/9/9/9/9/9/9/4K4[-] b 0 1",
            "--moves",
            "e9e8",
        ],
    ) {
        assert_eq!(holdings(&value), "p", "{value}");
    }
    for value in replay_both(
        "minishogi",
        &["--fen", "2k2/2+R2/5/5/2K2[-] b 0 1", "--moves", "c5c4"],
    ) {
        assert_eq!(holdings(&value), "r", "{value}");
    }
    // Promoted in play, then taken: a pawn again.
    for value in replay_both(
        "shogi",
        &[
            "--fen",
            "4k4/9/4P4/9/9/9/9/9/4K4[-] w 0 1",
            "--moves",
            "e7e8+ e9e8",
        ],
    ) {
        assert_eq!(holdings(&value), "p", "{value}");
    }
}

#[test]
fn fens_with_plus_letters_and_empty_hands_read_and_write_back() {
    let variant = gallery("shogi");
    let start = parse_fen(&variant, &variant.start_fen).expect("start");
    assert_eq!(
        write_fen(&variant, &start),
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[] w - - 0 1"
    );
    for fen in [
        "4k4/9/4+P4/9/2+B6/9/2P6/9/4K4[P] w - - 0 1",
        "lnsgkg1nl/1r5s1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL[Bb] w - - 0 3",
        "4k4/4+p4/9/9/+r8/9/9/9/4K4[PLNSGplnsg] b - - 0 1",
    ] {
        let position = parse_fen(&variant, fen).expect(fen);
        assert_eq!(write_fen(&variant, &position), fen);
    }
    // A `+P` read from a FEN has been a pawn: taken, it is a pawn in hand.
    let tokin = variant.piece_by_name("tokin").expect("tokin");
    let pawn = variant.piece_by_name("pawn").expect("pawn");
    let position = parse_fen(&variant, "4k4/4+P4/9/9/9/9/9/9/4K4[-] b 0 1").expect("fen");
    let piece = varc_runtime::board::Board::piece_at(&position, varc::model::Square::new(4, 7))
        .expect("the tokin");
    assert_eq!(piece.kind(), tokin);
    assert_eq!(piece.history().collect::<Vec<_>>(), [pawn]);
    // A `+` that is no piece's letter, and `~` (crazyhouse's mark), are refused.
    assert!(parse_fen(&variant, "4k4/4+G4/9/9/9/9/9/9/4K4[-] b 0 1").is_err());
    assert!(parse_fen(&variant, "4k4/4P~4/9/9/9/9/9/9/4K4[-] b 0 1").is_err());
}

#[test]
fn promotions_print_and_parse_as_fairy_stockfish_writes_them() {
    let variant = gallery("shogi");
    let rules = Interpreter::new(variant.clone()).expect("interpreter");
    let position = parse_fen(&variant, "4k4/9/9/2S6/9/9/9/9/4K4[-] w 0 1").expect("fen");
    let legal = rules.legal_moves(&position);
    let promoting = parse_move(&rules, &position, "c6c7+").expect("c6c7+");
    assert_eq!(long_algebraic_of(&rules, &promoting, &legal), "c6c7+");
    let plain = parse_move(&rules, &position, "c6c7").expect("c6c7");
    assert_eq!(long_algebraic_of(&rules, &plain, &legal), "c6c7");
    assert_ne!(promoting, plain);
    // The letter with its mark is read too.
    assert_eq!(
        parse_move(&rules, &position, "c6c7+s").expect("c6c7+s"),
        promoting
    );
    // A `+` where no promotion is legal is a check mark (or nothing).
    let quiet = parse_move(&rules, &position, "c6b5+").expect("c6b5+");
    assert_eq!(long_algebraic_of(&rules, &quiet, &legal), "c6b5");
}

#[test]
fn repetitions_end_shogi_in_a_draw_and_minishogi_in_a_win_for_black() {
    let cycle = "a1b2 e5d4 b2a1 d4e5 ";
    let moves = cycle.repeat(3);
    for value in replay_both("minishogi", &["--moves", moves.trim()]) {
        assert_eq!(value["status"], "ended", "{value}");
        assert_eq!(value["reason"], "fourfold repetition", "{value}");
        assert_eq!(
            value["scores"],
            serde_json::json!({"white": 0.0, "black": 1.0}),
            "{value}"
        );
    }
    // Three times is not yet the end.
    let moves = cycle.repeat(2);
    for value in replay_both("minishogi", &["--moves", moves.trim()]) {
        assert_eq!(value["status"], "ongoing", "{value}");
    }
    let cycle = "e1e2 e9e8 e2e1 e8e9 ";
    let moves = cycle.repeat(3);
    for value in replay_both("shogi", &["--moves", moves.trim()]) {
        assert_eq!(value["status"], "ended", "{value}");
        assert_eq!(value["reason"], "fourfold repetition", "{value}");
        assert_eq!(
            value["scores"],
            serde_json::json!({"white": 0.5, "black": 0.5}),
            "{value}"
        );
    }
}

/// Perft with the ending rules, in both back ends, against counts
/// Fairy-Stockfish's Python binding gave (`pyffish.legal_moves`, depths 1
/// to 3): pieces in hand after the bishops are traded, a mate by a pawn
/// drop (a legal move after which the game is over), forced promotions.
#[test]
fn perft_agrees_with_fairy_stockfish_in_both_back_ends() {
    common::assert_end_rules_perft_in_both_back_ends(
        &gallery("shogi"),
        &[
            (
                "lnsgkg1nl/1r5s1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL[Bb] w - - 0 3",
                [77, 5390, 280687],
            ),
            ("3lkl3/9/4G4/9/9/9/9/9/4K4[P] w 0 1", [77, 1378, 14327]),
            ("8k/P3L4/2N6/1N7/9/9/9/9/4K4[-] w 0 1", [10, 30, 357]),
        ],
    );
    common::assert_end_rules_perft_in_both_back_ends(
        &gallery("minishogi"),
        &[
            ("1rkr1/5/2G2/5/2K2[P] w 0 1", [25, 240, 2223]),
            ("k4/5/+P1P2/5/4K[Pp] w 0 1", [22, 334, 4166]),
        ],
    );
}

/// Shogi plays in UCI under its Fairy-Stockfish name, with drops and `+`
/// promotions in the move list.
#[test]
fn uci_plays_shogi_under_its_name() {
    let args = ["uci".into(), gallery_file("shogi").into_os_string()];
    let script = "uci\nsetoption name UCI_Variant value shogi\nposition startpos moves c3c4 g7g6 b2h8+ g9h8 B@e5\ngo depth 2\nquit\n";
    let output = common::run_with_input(env!("CARGO_BIN_EXE_varc"), &args, script);
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        text.lines()
            .any(|l| l == "option name UCI_Variant type combo default shogi var shogi"),
        "{text}"
    );
    assert!(text.contains("bestmove "), "{text}");
    assert!(!text.contains("illegal"), "{text}");
}
