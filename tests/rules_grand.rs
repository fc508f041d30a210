//! Grand chess's promotion sentences, from the rule text (README,
//! "Promotion"): `only into captured kinds` offers a choice only while
//! the mover has fewer pieces of its kind on the board than the start
//! position gives it; with `optional` on ranks 8 and 9 a pawn may stay a
//! pawn, and with `mandatory` on rank 10 a pawn that has no kind left to
//! become may not move there. Each case runs in the interpreter and in
//! the compiled engine, which must agree.

mod common;

use std::path::PathBuf;
use varc::model::{PromotionLimit, Variant};

fn grand_file() -> PathBuf {
    common::variants_dir().join("gallery/grand.rules")
}

fn grand() -> Variant {
    varc::load_variant(&grand_file()).unwrap_or_else(|e| panic!("{}", e.render()))
}

/// The sorted legal moves of the pawn on `from` in `fen`, in both back ends.
fn pawn_moves_in_both(fen: &str, from: &str) -> [Vec<String>; 2] {
    common::replay_both(&grand_file(), &grand(), &["--fen", fen]).map(|value| {
        common::sorted_legal_moves(&value)
            .into_iter()
            .filter(|m| m.starts_with(from))
            .collect()
    })
}

#[test]
fn the_limits_are_the_start_positions_counts() {
    let variant = grand();
    let kind = |name: &str| variant.pieces.iter().position(|p| p.name == name);
    for rule in &variant.promotions {
        assert_eq!(rule.limits.len(), rule.choices.len());
        for (limit, name, count) in [(&rule.limits[0], "queen", 1), (&rule.limits[3], "rook", 2)] {
            assert_eq!(
                Some(limit),
                kind(name)
                    .map(|kind| PromotionLimit {
                        kind,
                        counts: [count, count],
                    })
                    .as_ref()
            );
        }
    }
    assert!(common::variant("chess").promotions[0].limits.is_empty());
}

/// White has lost everything but its king: every kind is on offer, and
/// on the tenth rank promoting is forced.
#[test]
fn a_side_that_lost_every_kind_may_promote_into_any() {
    for moves in pawn_moves_in_both("4k5/P9/10/10/10/10/10/10/10/4K5 w - - 0 1", "a9") {
        assert_eq!(
            moves,
            ["a9a10a", "a9a10b", "a9a10c", "a9a10n", "a9a10q", "a9a10r"]
        );
    }
}

/// White has lost one rook: a pawn promotes only into a rook, at once on
/// the tenth rank, or stays a pawn on the ninth.
#[test]
fn a_pawn_promotes_only_into_a_kind_its_side_lost() {
    let fen = "4k5/P9/10/10/10/10/10/10/10/QCA1KRBBNN w - - 0 1";
    for moves in pawn_moves_in_both(fen, "a9") {
        assert_eq!(moves, ["a9a10r"]);
    }
    let fen = "4k5/10/P9/10/10/10/10/10/10/QCA1KRBBNN w - - 0 1";
    for moves in pawn_moves_in_both(fen, "a8") {
        assert_eq!(moves, ["a8a9", "a8a9r"]);
    }
}

/// With every piece of the start position on the board, a pawn may not
/// step onto the tenth rank (it must promote there and has nothing to
/// become), and steps onto the ninth without promoting.
#[test]
fn a_pawn_with_no_kind_to_become_may_not_reach_the_last_rank() {
    let full = "QCARKRBBNN w - - 0 1";
    for moves in pawn_moves_in_both(&format!("4k5/P9/10/10/10/10/10/10/10/{full}"), "a9") {
        assert!(moves.is_empty(), "{moves:?}");
    }
    for moves in pawn_moves_in_both(&format!("4k5/10/P9/10/10/10/10/10/10/{full}"), "a8") {
        assert_eq!(moves, ["a8a9"]);
    }
}

/// Perft with the ending rules, both back ends, against counts from
/// Fairy-Stockfish's Python binding (pyffish 0.0.90) for the positions
/// above and Black's pawn on its eighth rank.
#[test]
fn promotion_limit_perft_agrees_with_fairy_stockfish_in_both_back_ends() {
    const CASES: [(&str, [u64; 3]); 4] = [
        ("4k5/P9/10/10/10/10/10/10/10/4K5 w - - 0 1", [11, 49, 745]),
        (
            "4k5/P9/10/10/P9/10/10/10/10/QCARKRBBNN w - - 0 1",
            [83, 95, 8004],
        ),
        (
            "4k5/P9/P9/10/10/10/10/10/10/QCA1KRBBNN w - - 0 1",
            [76, 207, 16495],
        ),
        ("4k5/10/10/10/10/10/10/p9/10/4K5 b - - 0 1", [12, 51, 757]),
    ];
    common::assert_end_rules_perft_in_both_back_ends(&grand(), &CASES);
}
