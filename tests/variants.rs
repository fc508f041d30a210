//! Every bundled variant compiles, and its lowered model is a golden snapshot
//! (`golden/dumps/`). The PPC model is also checked against the rule text.

mod common;

use std::path::Path;
use varc::model::*;

#[test]
fn every_bundled_variant_compiles_and_dumps_as_its_snapshot() {
    let names = common::bundled_names();
    assert!(names.len() >= 8, "bundled variants: {names:?}");
    for name in names {
        let text = varc::dump::dump(&common::variant(&name));
        insta::with_settings!({snapshot_path => "../golden/dumps", prepend_module_to_snapshot => false}, {
            insta::assert_snapshot!(name, text);
        });
    }
}

fn squares(names: &str) -> SquareSet {
    names
        .split_whitespace()
        .map(|n| {
            let b = n.as_bytes();
            Square::new(b[0] - b'a', n[1..].parse::<u8>().expect("rank") - 1)
        })
        .collect()
}

fn ranks(from: u8, to: u8) -> SquareSet {
    (from..=to)
        .flat_map(|r| (0..8).map(move |f| Square::new(f, r - 1)))
        .collect()
}

/// A piece's movement as comparable data: motion, mode and sorted directions per atom.
type Movement = Vec<(Motion, MoveMode, Vec<(i8, i8)>)>;

fn directions(variant: &Variant, piece: &str) -> Movement {
    let id = variant.piece_by_name(piece).expect("piece exists");
    let mut out: Movement = variant.pieces[id]
        .moves
        .iter()
        .map(|a| {
            let mut d = a.directions.clone();
            d.sort();
            (a.motion, a.mode, d)
        })
        .collect();
    out.sort_by_key(|x| format!("{x:?}"));
    out
}

#[test]
fn ppc_p1_territories_are_the_right_squares_per_side() {
    let ppc = common::variant("ppc");
    let territory = &ppc.regions[ppc.region_by_name("territory").expect("territory")];
    assert_eq!(territory.squares[0], ranks(1, 3));
    assert_eq!(territory.squares[1], ranks(6, 8));
    let enemy = &ppc.regions[ppc
        .region_by_name("enemy-territory")
        .expect("enemy territory")];
    assert_eq!(enemy.squares[0], ranks(6, 8));
    assert_eq!(enemy.squares[1], ranks(1, 3));
    assert!(enemy.squares[0].contains(squares("e6").iter().next().expect("e6")));
}

#[test]
fn ppc_p3_promoted_pieces_move_as_before_plus_a_king_step() {
    let ppc = common::variant("ppc");
    for (promoted, base, letter) in [
        ("rooking", "rook", "R'"),
        ("kniking", "knight", "N'"),
        ("bicking", "bishop", "B'"),
    ] {
        let mut expected = directions(&ppc, base);
        expected.extend(directions(&ppc, "king"));
        expected.sort_by_key(|x| format!("{x:?}"));
        assert_eq!(directions(&ppc, promoted), expected, "{promoted}");
        let id = ppc.piece_by_name(promoted).expect("promoted piece");
        assert!(!ppc.pieces[id].royal, "P3: promoted pieces are not royal");
        assert_eq!(ppc.pieces[id].letter, letter, "P14");
    }
}

#[test]
fn ppc_p2_p4_promotions() {
    let ppc = common::variant("ppc");
    let id = |n: &str| ppc.piece_by_name(n).expect("piece");
    let rule_for = |piece: &str| {
        ppc.promotions
            .iter()
            .find(|p| p.pieces == vec![id(piece)])
            .expect("promotion rule")
    };
    for (piece, into) in [
        ("rook", "rooking"),
        ("knight", "kniking"),
        ("bishop", "bicking"),
    ] {
        let rule = rule_for(piece);
        assert_eq!(rule.choices, vec![id(into)]);
        assert_eq!(rule.obligation, Obligation::Mandatory);
        assert_eq!(rule.timing, PromotionTiming::Immediate);
        assert_eq!(ppc.regions[rule.zone].squares, [ranks(6, 8), ranks(1, 3)]);
    }
    let pawn = rule_for("pawn");
    assert_eq!(pawn.choices, vec![id("queen"), id("kniking")]);
    assert_eq!(pawn.obligation, Obligation::Mandatory);
    assert_eq!(ppc.regions[pawn.zone].squares, [ranks(8, 8), ranks(1, 1)]);
}

#[test]
fn ppc_game_rules_are_data_from_the_file() {
    let ppc = common::variant("ppc");
    // P7
    let irc = &ppc.legality.history_rules;
    assert_eq!(irc.len(), 1);
    assert_eq!(irc[0].kind, HistoryRuleKind::RepeatedCheck { plies_ago: 4 });
    assert!(irc[0].unless_only_such_moves);
    assert_eq!(irc[0].message, "illegal repeated check");
    let by_label = |l: &str| {
        ppc.terminations
            .iter()
            .find(|t| t.label.as_deref() == Some(l))
            .expect("rule")
    };
    // P8
    let threefold = by_label("threefold");
    assert_eq!(threefold.trigger, Trigger::Claim);
    assert_eq!(
        threefold.condition,
        Condition::Repetition {
            count: 3,
            in_a_row: false
        }
    );
    let king_pawn = PieceFilter::Except(vec![
        ppc.piece_by_name("king").unwrap(),
        ppc.piece_by_name("pawn").unwrap(),
    ]);
    assert_eq!(
        threefold.outcome,
        Outcome::If(
            Condition::Material {
                of: Aggregate::Max,
                filter: king_pawn.clone(),
                region: None,
                comparison: Comparison::LessEqual,
                value: 2
            },
            Box::new(Outcome::Draw),
            Box::new(Outcome::NullGame)
        )
    );
    // P5
    assert_eq!(
        by_label("stalemate").outcome,
        Outcome::Win(PlayerRef::Opponent)
    );
    assert_eq!(
        by_label("checkmate").outcome,
        Outcome::Win(PlayerRef::Opponent)
    );
    // P11
    let fifty = by_label("fifty-moves");
    assert_eq!(
        (fifty.trigger, &fifty.condition),
        (Trigger::Claim, &Condition::PliesSinceReset(50))
    );
    assert!(ppc.ply_reset_events.contains(&EventPattern::Promotion {
        from: vec![],
        to: vec![]
    }));
    assert!(ppc
        .ply_reset_events
        .contains(&EventPattern::Capture(vec![])));
    // P12
    assert_eq!(by_label("only-kings").condition, Condition::OnlyRoyalsLeft);
    assert_eq!(by_label("only-kings").trigger, Trigger::Automatic);
    // P13: no other draws
    assert!(ppc
        .terminations
        .iter()
        .all(|t| t.label.as_deref() != Some("insufficient-material")));
    assert_eq!(
        ppc.scoring,
        Scoring::Points {
            win: 2.0,
            draw: 1.0,
            loss: 0.0,
            null: 0.0
        }
    );
    // P10
    assert_eq!(
        ppc.agreement,
        Agreement::When(Condition::Material {
            of: Aggregate::Max,
            filter: king_pawn,
            region: None,
            comparison: Comparison::LessEqual,
            value: 1
        })
    );
    // P9
    assert!(ppc
        .match_rules
        .contains(&MatchRule::ReplayNullGame { same_colours: true }));
    assert!(ppc.match_rules.contains(&MatchRule::ForfeitAfterNulls {
        count: 2,
        winner: PlayerRef::Black
    }));
    assert!(ppc.match_rules.contains(&MatchRule::CasualNullIsDraw));
}

#[test]
fn ppc_perft_variant_is_ppc_without_irc() {
    let mut ppc = common::variant("ppc");
    let perft = common::variant("ppc-perft");
    assert!(perft.legality.history_rules.is_empty());
    ppc.legality.history_rules.clear();
    ppc.id = perft.id.clone();
    ppc.name = perft.name.clone();
    assert_eq!(ppc, perft);
}

#[test]
fn the_readme_tour_variant_compiles() {
    let readme = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md"))
        .expect("README");
    let start = readme
        .find("variant minichess")
        .expect("the tour's example");
    let end = start + readme[start..].find("```").expect("end of the example");
    let variant = varc::load_variant_from_str(
        "minichess.rules",
        &readme[start..end],
        &common::variants_dir(),
    );
    let variant = variant.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((variant.board.files, variant.board.ranks), (5, 6));
    assert!(variant.castling.is_empty());
    assert!(variant.piece_by_name("wildebeest").is_some());
}
