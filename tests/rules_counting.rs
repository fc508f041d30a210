//! Counting rules, from the rule text (README, "Counting"): `counting
//! limit N moves [from pieces] [when CONDITION]` and `counting limit none
//! when CONDITION` say who may count and how far (the first clause that
//! holds, read with the counting side to move); `counting starts for
//! PLAYER when CONDITION` starts a count; each move adds a ply; the FEN
//! writes a running count's limit in place of the en passant field and its
//! plies in place of the halfmove clock; `counting over limit` ends
//! makruk's game in a draw. Every expected FEN is the one Fairy-Stockfish's
//! Python binding (pyffish 0.0.90, `get_fen`) gives for the same moves,
//! and each game case runs in the interpreter and the compiled engine.

mod common;

use std::path::PathBuf;
use varc::model::Variant;
use varc_runtime::fen::{parse_fen, write_fen, FenError};

fn makruk_file() -> PathBuf {
    common::variants_dir().join("gallery/makruk.rules")
}

fn makruk() -> Variant {
    varc::load_variant(&makruk_file()).unwrap_or_else(|e| panic!("{}", e.render()))
}

/// The FEN (and status) after `moves` from `fen`, in both back ends.
fn after(fen: &str, moves: &str) -> [serde_json::Value; 2] {
    common::replay_both(&makruk_file(), &makruk(), &["--fen", fen, "--moves", moves])
}

fn assert_fen_after(fen: &str, moves: &str, expected: &str) {
    for value in after(fen, moves) {
        assert_eq!(value["fen"], expected, "{fen} {moves}: {value}");
        assert_eq!(value["status"], "ongoing", "{value}");
    }
}

/// `counting limit 64 moves when side-to-move pieces > 1` and `counting
/// starts for side-to-move when not counting`: once no pawn is left, the
/// side to move with more than its king counts board's honour from 0.
#[test]
fn board_honour_count_starts_from_zero_when_no_pawn_is_left() {
    assert_fen_after(
        "r3k3/8/8/8/8/8/8/R2NK3 w - - 0 1",
        "d1c3",
        "r3k3/8/8/8/8/2N5/8/R3K3 b - 128 0 1",
    );
    // Each move adds a ply; a capture that leaves the side to move more
    // than its king does not start the count anew.
    assert_fen_after(
        "r3k3/8/8/8/8/8/8/R2NK3 w - - 0 1",
        "d1c3 a8a1 e1d2",
        "4k3/8/8/8/8/2N5/3K4/r7 b - 128 2 2",
    );
}

/// `counting limit none when max pieces of pawn >= 1 ...`: with a pawn on
/// the board nobody counts, and the FEN keeps its en passant field and
/// halfmove clock.
#[test]
fn no_count_while_a_pawn_is_on_the_board() {
    assert_fen_after(
        "4k3/8/8/8/8/2P5/8/R3K3 w - - 0 1",
        "a1a2",
        "4k3/8/8/8/8/2P5/R7/4K3 b - - 1 1",
    );
}

/// `from pieces` and the limit read from the stronger side's material:
/// the promotion of the last pawn leaves Black's king alone against a
/// rook, 16 moves (32 plies), counted from the 4 pieces on the board.
#[test]
fn pieces_honour_count_starts_at_the_number_of_pieces() {
    assert_fen_after(
        "4k3/8/8/2P5/8/8/8/4K2R w - - 0 1",
        "c5c6m",
        "4k3/8/2M5/8/8/8/8/4K2R b - 32 8 1",
    );
    assert_fen_after(
        "4k3/8/8/2P5/8/8/8/4K2R w - - 0 1",
        "c5c6m e8d8",
        "3k4/8/2M5/8/8/8/8/4K2R w - 32 9 2",
    );
}

/// `... or (last move capture or last move promotion) and side-to-move
/// pieces == 1`: a capture that bares the king starts the count anew,
/// here from board's honour to two rooks' 8 moves.
#[test]
fn a_capture_that_bares_the_king_starts_the_count_anew() {
    assert_fen_after(
        "1r2k3/8/8/8/8/8/8/RRS1K3 w - 128 20 40",
        "b1b8",
        "1R2k3/8/8/8/8/8/8/R1S1K3 b - 16 10 40",
    );
    // A quiet move keeps the running count.
    assert_fen_after(
        "4k3/8/8/8/8/8/8/RRS1K3 w - 128 20 40",
        "a1a2",
        "4k3/8/8/8/8/8/R7/1RS1K3 b - 128 21 40",
    );
}

/// `counting starts for mover when last move capture of pawn and mover
/// pieces == 1`: a bare king that takes the last pawn counts at once, one
/// ply less than from its own turn (2 x 3 pieces - 1).
#[test]
fn a_bare_king_taking_the_last_pawn_counts_at_once() {
    assert_fen_after(
        "8/8/8/8/8/2k5/3P4/R6K b - - 0 1",
        "c3d2",
        "8/8/8/8/8/8/3k4/R6K w - 32 5 2",
    );
}

/// `counting: end when counting over limit => draw`: the count passes its
/// limit, the game is drawn; a mate on that move stands (checkmate comes
/// first in the file).
#[test]
fn passing_the_limit_draws_unless_the_move_mates() {
    for value in after("4k3/8/8/8/8/8/8/R3K3 b - 16 16 30", "e8d8") {
        assert_eq!(value["status"], "ended", "{value}");
        assert_eq!(value["reason"], "counting rule", "{value}");
        assert_eq!(value["fen"], "3k4/8/8/8/8/8/8/R3K3 w - 16 17 31", "{value}");
    }
    for value in after("k7/8/1K6/8/8/8/8/7R w - 16 16 30", "h1h8") {
        assert_eq!(value["status"], "ended", "{value}");
        assert_eq!(value["reason"], "checkmate", "{value}");
        assert_eq!(value["fen"], "k6R/8/1K6/8/8/8/8/8 b - 16 17 30", "{value}");
    }
    // One ply before the limit the game goes on.
    assert_fen_after(
        "4k3/8/8/8/8/8/8/R3K3 b - 16 15 30",
        "e8d8",
        "3k4/8/8/8/8/8/8/R3K3 w - 16 16 31",
    );
}

/// With `--end-rules` a position whose count has passed its limit has no
/// moves, in both back ends (Fairy-Stockfish's `legal_moves` leaves the
/// counting draw to `is_optional_game_end`, so the gallery's vectors stay
/// below the limit).
#[test]
fn end_rules_perft_stops_at_the_counting_draw() {
    common::assert_end_rules_perft_in_both_back_ends(
        &makruk(),
        &[
            // Over the limit already: no move.
            ("4k3/8/8/8/8/8/8/R3K3 b - 16 17 30", [0, 0, 0]),
            // The limit passes after one ply: the leaves at depth 2 end.
            ("4k3/8/8/8/8/8/8/R3K3 b - 16 16 30", [5, 0, 0]),
        ],
    );
}

#[test]
fn counting_fen_fields_read_and_write_back() {
    let variant = makruk();
    for fen in [
        "4k3/8/8/8/8/8/8/R3K3 b - 16 10 30",
        "r3k3/8/8/8/8/8/8/R2NK3 w - 128 20 40",
        "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1",
    ] {
        let position = parse_fen(&variant, fen).expect("reads");
        assert_eq!(write_fen(&variant, &position), fen);
    }
    // A limit of 0 is no count: the halfmove clock stays what it is.
    let position = parse_fen(&variant, "4k3/8/8/8/8/8/8/R3K3 b - 0 7 30").expect("reads");
    assert_eq!(
        write_fen(&variant, &position),
        "4k3/8/8/8/8/8/8/R3K3 b - - 7 30"
    );
}

#[test]
fn counting_fen_field_malformed_is_a_clear_error() {
    let variant = makruk();
    for field in ["16x", "99999999999", "1-6"] {
        let fen = format!("4k3/8/8/8/8/8/8/R3K3 b - {field} 10 30");
        match parse_fen(&variant, &fen) {
            Err(FenError::CountingLimit { found }) => assert_eq!(found, field),
            other => panic!("{field}: {other:?}"),
        }
    }
    // A variant without counting reads no limit there.
    let chess = common::variant("chess");
    let error = parse_fen(&chess, "4k3/8/8/8/8/8/8/R3K3 b - 16 10 30").unwrap_err();
    assert!(matches!(error, FenError::EnPassant { .. }), "{error}");
}

/// Cambodian's counting (Fairy-Stockfish's `CAMBODIAN_COUNTING`) in the
/// same sentences: board's honour, 63 moves, for a side with at most three
/// pieces (pawns too), pieces' honour one move shorter than makruk's. The
/// pieces are makruk's; the first-move leaps of cambodian are left out,
/// and so are the FENs' first-move letters (`-` in Fairy-Stockfish's FENs).
const CAMBODIAN_COUNTING: &str = r#"
variant cambodian-counting "Makruk with cambodian counting"

board 8 x 8
setup "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1"

region promotion-zone = ranks 6..8 relative

piece king "K" royal moves king-step
piece met "M" value 1.5 moves leap (1,1)
piece khon "S" value 2.5 moves leap (1,1) + forward leap (0,1)
piece rook "R" value 5 moves ride (0,1)
piece knight "N" value 3 moves leap (1,2)
piece pawn "P" value 1 moves
    move-only forward leap (0,1)
    + capture-only forward leap (1,1)

promote pawn to met in promotion-zone, mandatory
reset plies on capture, move of pawn
check-rule royal

counting limit none when side-to-move pieces > 3 or opponent pieces == 1
counting limit 63 moves when side-to-move pieces > 1
counting limit none when max pieces of pawn >= 1
counting limit 7 moves from pieces when opponent pieces of rook >= 2
counting limit 15 moves from pieces when opponent pieces of rook == 1
counting limit 21 moves from pieces when opponent pieces of khon >= 2
counting limit 31 moves from pieces when opponent pieces of knight >= 2
counting limit 43 moves from pieces when opponent pieces of khon == 1
counting limit 63 moves from pieces
counting starts for mover when last move capture of pawn and mover pieces == 1
counting starts for side-to-move when not counting
    or (last move capture or last move promotion) and side-to-move pieces == 1

checkmate: end when no legal moves and in check => win for opponent
stalemate: end when no legal moves and not in check => draw
counting: end when counting over limit => draw, reason "counting rule"
"#;

#[test]
fn cambodian_counting_agrees_with_fairy_stockfish() {
    let dir = std::env::temp_dir().join(format!("varc-cambodian-counting-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("cambodian-counting.rules");
    std::fs::write(&file, CAMBODIAN_COUNTING).expect("write");
    let variant = varc::load_variant(&file).unwrap_or_else(|e| panic!("{}", e.render()));
    // pyffish 0.0.90, variant "cambodian", get_fen.
    for (fen, moves, expected) in [
        // Board's honour with a pawn on the board: Black has two pieces.
        (
            "4k3/3p4/8/8/8/8/8/RR2K3 w - - 0 1",
            "a1a2",
            "4k3/3p4/8/8/8/8/R7/1R2K3 b - 126 0 1",
        ),
        (
            "4k3/3p4/8/8/8/8/8/RR2K3 w - - 0 1",
            "a1a2 d7d6",
            "4k3/8/3p4/8/8/8/R7/1R2K3 w - 126 1 2",
        ),
        // Three pieces may count, four may not.
        (
            "rs2k3/8/8/8/8/8/8/RRS1K3 w - - 0 1",
            "a1a2",
            "rs2k3/8/8/8/8/8/R7/1RS1K3 b - 126 0 1",
        ),
        // Pieces' honour: 15 moves against a rook, 7 against two.
        (
            "4k3/8/8/2P5/8/8/8/4K2R w - - 0 1",
            "c5c6m",
            "4k3/8/2M5/8/8/8/8/4K2R b - 30 8 1",
        ),
        (
            "1r2k3/8/8/8/8/8/8/RRS1K3 w - - 0 1",
            "b1b8",
            "1R2k3/8/8/8/8/8/8/R1S1K3 b - 14 10 1",
        ),
        (
            "8/8/8/8/8/2k5/3P4/RR5K b - - 0 1",
            "c3d2",
            "8/8/8/8/8/8/3k4/RR5K w - 14 7 2",
        ),
    ] {
        for value in common::replay_both(&file, &variant, &["--fen", fen, "--moves", moves]) {
            assert_eq!(value["fen"], expected, "{fen} {moves}: {value}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
