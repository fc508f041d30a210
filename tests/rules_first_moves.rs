//! First moves (cambodian): the FEN's first-move letters, the king's leap
//! barred in check and lost to a rook's line, in both back ends, against
//! Fairy-Stockfish's FENs (pyffish 0.0.90, variant "cambodian").

mod common;

use std::path::PathBuf;
use varc_runtime::fen::{parse_fen, write_fen};

fn cambodian() -> PathBuf {
    common::variants_dir().join("gallery/cambodian.rules")
}

#[test]
fn first_move_letters_read_and_write_back_exactly() {
    let variant = varc::load_variant(&cambodian()).unwrap_or_else(|e| panic!("{}", e.render()));
    for fen in [
        "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w DEde - 0 1",
        "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/1K6/RNS1MSNR b Ede - 1 1",
        "rn4nr/2s3sk/3mRp1p/1pPp1Pp1/3p2P1/4PS1P/1KS5/4MNNR w E - 0 24",
        "4k3/7p/8/8/8/2n5/8/3K4 w D - 0 1",
    ] {
        let position = parse_fen(&variant, fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(write_fen(&variant, &position), fen);
    }
    // A letter must name a piece of that side on its first rank.
    let error = parse_fen(&variant, "4k3/8/8/8/8/8/8/3K4 w A - 0 1").expect_err("no piece on a1");
    assert!(error.to_string().contains("first rank"), "{error}");
}

#[test]
fn leaps_and_their_loss_agree_with_fairy_stockfish_in_both_back_ends() {
    let file = cambodian();
    let variant = varc::load_variant(&file).unwrap_or_else(|e| panic!("{}", e.render()));
    for (fen, moves, expected) in [
        // The king leaps: its letter goes, the met's stays.
        (
            "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w DEde - 0 1",
            "d1b2",
            "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/1K6/RNS1MSNR b Ede - 1 1",
        ),
        // A rook moves onto the king's file behind a pawn: the leap is lost.
        (
            "r3k3/8/8/8/8/3P4/8/3K4 b D - 0 1",
            "a8d8",
            "3rk3/8/8/8/8/3P4/8/3K4 w - 126 0 2",
        ),
        // The met leaps over its own pawn.
        (
            "3mk3/3p4/8/8/8/4P3/4P3/3KM3 w DEde - 0 1",
            "e3e4 d8d6",
            "4k3/3p4/3m4/8/4P3/8/4P3/3KM3 w DEe 126 1 2",
        ),
    ] {
        for value in common::replay_both(&file, &variant, &["--fen", fen, "--moves", moves]) {
            assert_eq!(value["fen"], expected, "{fen} {moves}: {value}");
        }
    }
}
