//! A royal piece's cover by pawn-shaped pieces (`cover PIECE` and `storm
//! PIECE` in a weights file, [`RoyalCover`]): per file on and beside the
//! royal piece, the nearest own and enemy pawn-shaped piece not behind it
//! read their tables by distance, weighed by the enemy's material; the
//! entries the tuner reads are the ones the evaluation adds; the lines
//! read, apply and write back, and bad ones change nothing.

mod common;

use varc_runtime::eval::Evaluator;
use varc_runtime::fen::parse_fen;
use varc_runtime::model::{Color, RoyalCover, Variant};
use varc_runtime::rules::Rules;
use varc_runtime::weights::WeightsFile;

/// Tables whose entries all differ: own `i + 1`, enemy `20 (i + 1)`.
fn distinct_cover() -> RoyalCover {
    RoyalCover {
        own: (1..=RoyalCover::CELLS as i32).collect(),
        enemy: (1..=RoyalCover::CELLS as i32).map(|v| 20 * v).collect(),
    }
}

fn with_cover(variant: &Variant, cover: RoyalCover) -> Variant {
    let mut covered = variant.clone();
    let king = covered
        .pieces
        .iter()
        .position(|p| p.name == "king")
        .expect("a king");
    covered.pieces[king].royal_cover = Some(cover);
    covered
}

/// Both sides castled short with full material. White: pawns f2, g2,
/// h3; Black: f7, h7 and none on the g file (its eighth pawn on a6).
const CASTLED: &str = "rnbq1rk1/pppppp1p/p4nb1/8/8/5NBP/PPPPPPP1/RNBQ1RK1 w - - 0 1";

#[test]
fn cover_reads_the_nearest_pawn_shaped_piece_per_file() {
    let chess = common::variant("chess");
    let cover = distinct_cover();
    let covered = with_cover(&chess, cover.clone());
    let (own, enemy) = (|cell| cover.own[cell], |cell| cover.enemy[cell]);
    let cell = RoyalCover::cell;
    // White's king on g1: f2 and h3 beside it (1 and 2 ranks ahead), g2 on
    // its file; Black's f7 and h7 six ranks ahead beside it, none on g.
    let white = own(cell(true, Some(1)))
        + own(cell(false, Some(1)))
        + own(cell(true, Some(2)))
        + enemy(cell(true, Some(6)))
        + enemy(cell(false, None))
        + enemy(cell(true, Some(6)));
    // Black's king on g8: f7 and h7 a rank ahead, none on g; White's f2
    // and g2 six ranks ahead, h3 five.
    let black = own(cell(true, Some(1)))
        + own(cell(false, None))
        + own(cell(true, Some(1)))
        + enemy(cell(true, Some(6)))
        + enemy(cell(false, Some(6)))
        + enemy(cell(true, Some(5)));
    let added =
        common::white_evaluation(&covered, CASTLED) - common::white_evaluation(&chess, CASTLED);
    assert_eq!(added, white - black);
    assert_ne!(added, 0);
    // The start is symmetric: the tables add nothing for either side.
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    assert_eq!(
        common::white_evaluation(&covered, start),
        common::white_evaluation(&chess, start)
    );
}

#[test]
fn cover_fades_as_the_enemy_material_leaves() {
    let chess = common::variant("chess");
    // Only White's king has cover worth anything: a pawn a rank ahead.
    let mut cover = RoyalCover {
        own: vec![0; RoyalCover::CELLS],
        enemy: vec![0; RoyalCover::CELLS],
    };
    cover.own[RoyalCover::cell(false, Some(1))] = 64;
    let covered = with_cover(&chess, cover);
    let gain =
        |fen: &str| common::white_evaluation(&covered, fen) - common::white_evaluation(&chess, fen);
    // Black's e pawn is two ranks ahead of its king, worth nothing here.
    let full = gain("r2qk2r/pppp1ppp/4p3/8/8/8/PPPPPPPP/R2Q1RK1 w - - 0 1");
    let no_queen = gain("r3k2r/pppp1ppp/4p3/8/8/8/PPPPPPPP/R2Q1RK1 w - - 0 1");
    let bare = gain("4k3/8/8/8/8/8/6P1/6K1 w - - 0 1");
    assert!(
        full > no_queen && no_queen > bare,
        "{full} {no_queen} {bare}"
    );
    assert_eq!(bare, 0);
}

#[test]
fn the_tuner_reads_the_entries_the_evaluation_adds() {
    let chess = common::variant("chess");
    let cover = distinct_cover();
    let covered = with_cover(&chess, cover.clone());
    let evaluator = Evaluator::new(&chess);
    let rules = varc::interp::Interpreter::new(chess.clone()).expect("rules");
    for fen in [
        CASTLED,
        "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R2Q1RK1 w - - 0 1",
        "6k1/5p1p/6p1/8/3P4/8/1K3PPP/8 b - - 0 30",
    ] {
        let position = parse_fen(&chess, fen).expect("a valid position");
        let predicted: i32 = evaluator
            .royal_cover_cells(&rules, &rules.import(&position))
            .iter()
            .map(|c| {
                let sign = if c.color == Color::White { 1 } else { -1 };
                sign * (cover.own[c.own] + cover.enemy[c.enemy]) * c.share
            })
            .sum();
        let added = common::white_evaluation(&covered, fen) - common::white_evaluation(&chess, fen);
        // The evaluation rounds each royal piece's term to a centipawn.
        assert!(
            (added * 256 - predicted).abs() <= 2 * 256,
            "{fen}: {added} against {predicted}/256"
        );
    }
}

#[test]
fn cover_lines_read_apply_and_write_back() {
    let chess = common::variant("chess");
    let text = "cover king = 0 30 20 10 5 0 0 -25 / 0 25 15 5 0 0 0 -20\n\
                storm king = 0 0 -40 -20 -10 -5 0 0 / 0 0 -30 -15 -5 0 0 0\n";
    let file = WeightsFile::parse(text).expect("good lines");
    let mut variant = chess.clone();
    file.apply(&mut variant).expect("they apply");
    let king = variant
        .pieces
        .iter()
        .position(|p| p.name == "king")
        .expect("king");
    let cover = variant.pieces[king].royal_cover.clone().expect("set");
    assert_eq!(cover.own[1], 30);
    assert_eq!(cover.enemy[RoyalCover::DISTANCES + 2], -30);
    let written = WeightsFile::write(&variant, "cover");
    let mut again = chess.clone();
    WeightsFile::parse(&written)
        .expect("written lines read")
        .apply(&mut again)
        .expect("and apply");
    assert_eq!(again.pieces[king].royal_cover, Some(cover));
    // A storm line alone leaves the own table at zeros.
    let storm_only = WeightsFile::parse(text.lines().nth(1).expect("line 2")).expect("reads");
    let mut variant = chess.clone();
    storm_only.apply(&mut variant).expect("applies");
    let cover = variant.pieces[king].royal_cover.clone().expect("set");
    assert_eq!(cover.own, vec![0; RoyalCover::CELLS]);
}

#[test]
fn bad_cover_lines_are_refused_and_change_nothing() {
    let chess = common::variant("chess");
    let zeros = "0 0 0 0 0 0 0 0 / 0 0 0 0 0 0 0 0";
    for (text, line, message) in [
        (
            "mobility = 90\ncover king = 1 2 3",
            2,
            "two files of 8 numbers",
        ),
        ("cover king = 0 0 0 0 0 0 0 0", 1, "two files"),
        (
            "storm king = 0 0 0 0 0 0 0 y / 0 0 0 0 0 0 0 0",
            1,
            "`y` is not a whole number",
        ),
    ] {
        let error = WeightsFile::parse(text).expect_err(text);
        assert_eq!(error.line, line, "{text}");
        assert!(error.message.contains(message), "{text}: {}", error.message);
    }
    for (text, message) in [
        (format!("tempo = 5\ncover knight = {zeros}"), "not royal"),
        (
            format!("tempo = 5\nstorm dragon = {zeros}"),
            "no piece `dragon`",
        ),
    ] {
        let file = WeightsFile::parse(&text).expect("the lines read");
        let mut variant = chess.clone();
        let error = file.apply(&mut variant).expect_err(&text);
        assert_eq!(error.line, 2);
        assert!(error.message.contains(message), "{}", error.message);
        assert_eq!(variant, chess, "a refused file changes nothing");
    }
}
