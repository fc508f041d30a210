//! The builder: one snippet per statement kind and its expected tree, and
//! a check that the snippets use every rule of the grammar (so a rule added
//! to the grammar fails here until the builder reads it and a snippet shows
//! it).

use super::*;
use crate::syntax::{Rule, RulesParser};
use pest::Parser;
use std::collections::BTreeSet;

/// Statements that together use every rule of the grammar.
const SNIPPETS: &[&str] = &[
    "board 8 x 8 holes a1 h8",
    "setup \"8/8/8/8/8/8/8/8 w - - 0 1\"",
    "region zone = ranks 1..last-1 + (file c - files a..b) - squares d4 e5 + board + rank last relative",
    "piece king \"K\" royal value 3.5 confined to zone moves move-only first-move forward left leap (1,2) in zone + capture-only betza \"W\" + (ride (0,1) up to 2 + hop (1,-1) adjacent + lame-leap (1,2)) + rook",
    "piece cannon \"C\" moves (hop (0,1) + hop (1,1) along lines) not over cannon | king not capturing cannon in zone + ride (1,1) along lines",
    "promote pawn | lance to queen, rook in zone, delayed then move-only move, mandatory unless in check, mandatory, optional, only into captured kinds, starting or ending there",
    "castling king with rook short king to g rook to f long king to c rook to d, not from check, not through check, not into check, moved rook on files a h, king lineage king > prince",
    "en-passant pawn",
    "captures go to hand, demoted",
    "drops of pawn | knight onto zone",
    "drops of pawn, no two on a file",
    "drops of hawk | elephant onto first-rank, by gating",
    "no piece may stand where it could not move",
    "check-rule none",
    "check-rule royal, no checks",
    "check-rule royal, royals may not face each other, no checks",
    "check-rule royal, royals facing each other must part",
    "piece king \"K\" royal moves leap (0,1) + pass",
    "piece king \"K\" royal moves king-step + first-move move-only betza \"fsN\" not from check",
    "first-move of king | met lost when opponent rook moves onto its rank or file",
    "unmoved pieces in fen",
    "points rook 13, cannon 7",
    "counter passes counts pass, reset on not pass",
    "end when royals face each other and last move pass and white points lead >= 2 => win for white",
    "capture-rule compulsory",
    "drop-rule compulsory",
    "drop-rule free",
    "promote pawn to met in zone, delayed then move-only move, at most 1 on the board, anywhere for the last one, attacking nothing",
    "capture explodes radius 1, except pawn | king",
    "illegal check repeating placement from 4 plies ago unless only such moves, say \"no\"",
    "on royal-capture crown bishop as king",
    "on royal-capture game ends",
    "counter caps counts capture of pawn | rook and en-passant, move of pawn, promotion of pawn to queen, castle short, royal-capture, crowning of bishop, laws-checkmate, moved piece was king > prince, check, drop of pawn | knight",
    "counter checks counts check, in fen counting down from 3",
    "counter shak counts check by knight | rook, reset on not check, in fen counting down from 9",
    "knight-mate: end when no legal moves and in check by only knight => win for side-to-move",
    "end when white to move and can move king | queen into zone or black to move => draw",
    "reset plies on capture, promotion to queen, crowning, castle",
    "counting limit none when max pieces of pawn >= 1",
    "counting limit 8 moves from pieces when opponent pieces of rook >= 2",
    "counting limit 64 moves",
    "counting starts for mover when not counting or last move capture",
    "end when counting over limit => draw, reason \"counting\"",
    "irc: claim when (no legal moves or royal captured) and not repetition 3 in a row or plies 50 or only royals left => if in check then loss for side-to-move else draw, reason \"why\", tiebreak",
    "end when insufficient material king | king bishop => null-game",
    "end when max pieces except pawn | king <= 3 and min count caps >= 1 and white pieces of queen == 0 => game-over",
    "end when black clock below 10 seconds and last move capture and mover count caps < 2 and opponent count caps > 1 => win for opponent",
    "award \"a\" 2 wins to white when no legal moves, once, ends game, not with \"b\", \"c\"",
    "agreement allowed when plies 10",
    "agreement allowed",
    "agreement never",
    "resign => award 1 win plus 2 per caps to opponent",
    "resign => win for opponent",
    "tiebreak 1 win: pawn in zone 2, caps 3",
    "score win 1, draw 0.5, loss 0, null 0",
    "score by wins",
    "match replay null-game same colours",
    "match after 2 null-games => win for black",
    "match casual null-game => draw",
    "drop piece pawn",
    "drop region zone",
    "drop counter caps",
    "drop irc",
    "replace label: en-passant pawn",
];

/// A file of `statements` under a header.
fn file_of(statements: &str) -> String {
    format!("variant v \"V\" extends base\n{statements}\n")
}

fn build_file(statements: &str) -> File {
    let source = file_of(statements);
    match crate::syntax::parse_file(0, &source) {
        Ok(tree) => tree,
        Err(error) => panic!("{statements}: {}", error.message),
    }
}

/// The body of the one statement `statement`.
fn body(statement: &str) -> BodyKind {
    let tree = build_file(statement);
    match tree.statements.into_iter().next() {
        Some(Statement::Item(item)) => item.body.kind,
        other => panic!("not one item: {other:?}"),
    }
}

fn names(idents: &[Ident]) -> Vec<&str> {
    idents.iter().map(|i| i.name.as_str()).collect()
}

#[test]
fn every_snippet_builds() {
    for snippet in SNIPPETS {
        build_file(snippet);
    }
}

#[test]
fn the_snippets_use_every_grammar_rule() {
    let grammar = include_str!("../../grammar/rules.pest");
    let silent: BTreeSet<String> = grammar
        .lines()
        .filter_map(|line| {
            let (name, definition) = line.split_once('=')?;
            definition
                .trim_start()
                .starts_with("_{")
                .then(|| name.trim().to_string())
        })
        .collect();
    let mut seen = BTreeSet::new();
    for snippet in SNIPPETS {
        let source = file_of(snippet);
        let parsed = RulesParser::parse(Rule::file, &source).expect("snippet parses");
        for node in parsed.flatten() {
            seen.insert(format!("{:?}", node.as_rule()));
        }
    }
    let missing: Vec<String> = Rule::all_rules()
        .iter()
        .map(|rule| format!("{rule:?}"))
        .filter(|rule| !silent.contains(rule) && !seen.contains(rule))
        .collect();
    assert!(
        missing.is_empty(),
        "grammar rules no snippet uses (add one, and read the rule in ast/build): {missing:?}"
    );
}

#[test]
fn header_keeps_id_name_and_extends_with_spans() {
    let tree = build_file("board 8 x 8");
    assert_eq!(tree.header.id.name, "v");
    assert_eq!(tree.header.id.span, Span::new(8, 9));
    assert_eq!(tree.header.name.map(|n| n.value).as_deref(), Some("V"));
    assert_eq!(tree.header.extends.map(|e| e.name).as_deref(), Some("base"));
    assert_eq!(
        tree.header.span,
        Span::new(0, "variant v \"V\" extends base".len())
    );
}

#[test]
fn board_has_sizes_and_holes() {
    let BodyKind::Board(board) = body("board 10 x 8 holes a1 h8") else {
        panic!("not a board");
    };
    assert_eq!(
        (board.files.text.as_str(), board.ranks.text.as_str()),
        ("10", "8")
    );
    let holes: Vec<&str> = board.holes.iter().map(|h| h.text.as_str()).collect();
    assert_eq!(holes, ["a1", "h8"]);
}

#[test]
fn setup_keeps_the_text_inside_the_quotes() {
    let BodyKind::Setup(fen) = body("setup \"8/8 w\"") else {
        panic!("not a setup");
    };
    assert_eq!(fen.value, "8/8 w");
    let start = file_of("").len() - 1 + "setup ".len();
    assert_eq!(fen.span, Span::new(start, start + "\"8/8 w\"".len()));
}

#[test]
fn region_terms_and_operators_in_order() {
    let BodyKind::Region(region) =
        body("region r = rank last-1 - (files a..c + squares d4) + board + other relative")
    else {
        panic!("not a region");
    };
    assert_eq!(region.name.name, "r");
    assert!(region.relative);
    let ops: Vec<RegionOp> = region.expr.terms.iter().map(|(op, _)| *op).collect();
    assert_eq!(
        ops,
        [
            RegionOp::Add,
            RegionOp::Remove,
            RegionOp::Add,
            RegionOp::Add
        ]
    );
    let RegionTerm::Ranks { low, high: None } = &region.expr.terms[0].1 else {
        panic!("not a rank");
    };
    assert_eq!((low.rank, low.text.as_str()), (RankFrom::Last(1), "last-1"));
    let RegionTerm::Group(group) = &region.expr.terms[1].1 else {
        panic!("not a group");
    };
    assert!(
        matches!(&group.terms[0].1, RegionTerm::Files { low, high: Some(high), .. } if low.text == "a" && high.text == "c")
    );
    assert!(matches!(&group.terms[1].1, RegionTerm::Squares(squares) if squares.len() == 1));
    assert_eq!(region.expr.terms[2].1, RegionTerm::WholeBoard);
    assert!(matches!(&region.expr.terms[3].1, RegionTerm::Name(name) if name.name == "other"));
}

#[test]
fn piece_movement_is_typed() {
    let BodyKind::Piece(piece) = body(
        "piece p \"P\" royal value 2 confined to palace moves move-only forward ride (0,1) up to 2 in zone + (king + hop (1,1) adjacent) + betza \"N\"",
    ) else {
        panic!("not a piece");
    };
    assert_eq!(piece.letter.value, "P");
    assert_eq!(piece.options[0], PieceOption::Royal);
    assert!(matches!(&piece.options[1], PieceOption::Value(v) if v.text == "2"));
    assert!(matches!(&piece.options[2], PieceOption::Confined(r) if r.name == "palace"));
    let first = &piece.moves.terms[0];
    let kinds: Vec<ModifierKind> = first.modifiers.iter().map(|m| m.kind).collect();
    assert_eq!(
        kinds,
        [
            ModifierKind::MoveOnly,
            ModifierKind::Direction(Direction::Forward)
        ]
    );
    let MoveAtom::Geometric(ride) = &first.atom else {
        panic!("not geometric");
    };
    assert_eq!(ride.motion, MotionKind::Ride);
    assert_eq!(
        (
            ride.offset.files.text.as_str(),
            ride.offset.ranks.text.as_str()
        ),
        ("0", "1")
    );
    assert_eq!(ride.offset.text, "(0,1)");
    assert_eq!(
        ride.range.as_ref().map(|r| r.limit.text.as_str()),
        Some("2")
    );
    assert_eq!(first.region.as_ref().map(|r| r.name.as_str()), Some("zone"));
    let MoveAtom::Group(group) = &piece.moves.terms[1].atom else {
        panic!("not a group");
    };
    assert!(matches!(&group.terms[0].atom, MoveAtom::Reference(name) if name.name == "king"));
    assert!(
        matches!(&group.terms[1].atom, MoveAtom::Geometric(hop) if hop.motion == MotionKind::Hop && hop.adjacent.is_some())
    );
    assert!(matches!(&piece.moves.terms[2].atom, MoveAtom::Betza(text) if text.value == "N"));
}

#[test]
fn promotion_options_are_typed() {
    let BodyKind::Promote(promote) = body(
        "promote pawn | lance to queen, rook in zone, mandatory unless in check, delayed then capture-only move, optional",
    ) else {
        panic!("not a promotion");
    };
    assert_eq!(names(&promote.pieces), ["pawn", "lance"]);
    assert_eq!(names(&promote.choices), ["queen", "rook"]);
    assert_eq!(promote.zone.name, "zone");
    assert_eq!(
        promote.options,
        [
            PromoteOption::MandatoryUnless(Condition::InCheck),
            PromoteOption::Delayed(Some(FollowMode::CaptureOnly)),
            PromoteOption::Optional,
        ]
    );
}

#[test]
fn castling_sides_and_options() {
    let BodyKind::Castling(castling) = body(
        "castling king with rook long king to c rook to d short king to g rook to f, not into check, king lineage king > heir",
    ) else {
        panic!("not castling");
    };
    assert_eq!(
        (castling.king.name.as_str(), castling.rook.name.as_str()),
        ("king", "rook")
    );
    assert_eq!(castling.sides[0].side, CastlingSide::Long);
    assert_eq!(castling.sides[1].side, CastlingSide::Short);
    assert_eq!(castling.sides[1].king_file.text, "g");
    assert_eq!(castling.options[0], CastlingOption::NotIntoCheck);
    assert!(
        matches!(&castling.options[1], CastlingOption::KingLineage(line) if names(line) == ["king", "heir"])
    );
}

#[test]
fn hand_and_drop_statements() {
    assert_eq!(
        body("captures go to hand"),
        BodyKind::Hand(Hand { demoted: false })
    );
    assert_eq!(
        body("captures go to hand, demoted"),
        BodyKind::Hand(Hand { demoted: true })
    );
    assert!(
        matches!(body("drops of pawn | knight onto zone"), BodyKind::Drops(d) if names(&d.pieces) == ["pawn", "knight"] && d.onto.as_ref().is_some_and(|r| r.name == "zone"))
    );
    assert!(
        matches!(body("drops of rook"), BodyKind::Drops(d) if d.onto.is_none() && !d.no_two_on_a_file)
    );
    // The list stops before the option: `no` is no piece's name here.
    assert!(
        matches!(body("drops of pawn, lance, no two on a file"), BodyKind::Drops(d) if names(&d.pieces) == ["pawn", "lance"] && d.no_two_on_a_file)
    );
    assert!(
        matches!(body("drops of hawk | elephant onto first-rank, by gating"), BodyKind::Drops(d) if names(&d.pieces) == ["hawk", "elephant"] && d.by_gating && !d.no_two_on_a_file)
    );
    assert!(matches!(body("drops of pawn"), BodyKind::Drops(d) if !d.by_gating));
    assert_eq!(
        body("no piece may stand where it could not move"),
        BodyKind::Immobility
    );
    // `drop NAME` stays the inheritance statement, `drops` the rule.
    assert!(matches!(
        build_file("drop pawn-drops").statements.first(),
        Some(Statement::Drop(_))
    ));
}

#[test]
fn small_statements() {
    assert!(
        matches!(body("en-passant pawn, lance"), BodyKind::EnPassant(p) if names(&p.pieces) == ["pawn", "lance"] && p.onto.is_none())
    );
    assert_eq!(
        body("check-rule royal"),
        BodyKind::CheckRule(CheckRule {
            kind: CheckRuleKind::Royal,
            no_checks: false,
            no_facing_royals: None,
            facing_royals_must_part: None
        })
    );
    assert_eq!(
        body("check-rule none"),
        BodyKind::CheckRule(CheckRule {
            kind: CheckRuleKind::None,
            no_checks: false,
            no_facing_royals: None,
            facing_royals_must_part: None
        })
    );
    assert_eq!(
        body("check-rule royal, no checks"),
        BodyKind::CheckRule(CheckRule {
            kind: CheckRuleKind::Royal,
            no_checks: true,
            no_facing_royals: None,
            facing_royals_must_part: None
        })
    );
    assert!(matches!(
        body("check-rule royal, royals may not face each other"),
        BodyKind::CheckRule(CheckRule {
            kind: CheckRuleKind::Royal,
            no_checks: false,
            no_facing_royals: Some(_),
            facing_royals_must_part: None
        })
    ));
    assert!(matches!(
        body("check-rule royal, royals facing each other must part"),
        BodyKind::CheckRule(CheckRule {
            kind: CheckRuleKind::Royal,
            no_checks: false,
            no_facing_royals: None,
            facing_royals_must_part: Some(_)
        })
    ));
    assert!(matches!(
        body("points rook 13, cannon 7"),
        BodyKind::Points(entries) if entries.len() == 2 && entries[1].0.name == "cannon" && entries[1].1.text == "7"
    ));
    assert_eq!(
        body("capture-rule compulsory"),
        BodyKind::CaptureRule(CaptureRuleKind::Compulsory)
    );
    assert_eq!(
        body("capture-rule free"),
        BodyKind::CaptureRule(CaptureRuleKind::Free)
    );
    assert_eq!(
        body("drop-rule compulsory"),
        BodyKind::DropRule(DropRuleKind::Compulsory)
    );
    assert_eq!(
        body("drop-rule free"),
        BodyKind::DropRule(DropRuleKind::Free)
    );
    let BodyKind::Promote(promote) = body(
        "promote pawn to met in zone, delayed then move-only move, at most 1 on the board, anywhere for the last one, attacking nothing",
    ) else {
        panic!("not a promotion");
    };
    assert!(matches!(
        promote.options.as_slice(),
        [
            PromoteOption::Delayed(Some(FollowMode::MoveOnly)),
            PromoteOption::AtMost(limit),
            PromoteOption::LastAnywhere(_),
            PromoteOption::AttackingNothing(_),
        ] if limit.text == "1"
    ));
    let BodyKind::Explosion(explosion) = body("capture explodes radius 1, except pawn | king")
    else {
        panic!("not an explosion");
    };
    assert_eq!(explosion.radius.text, "1");
    let spared: Vec<&str> = explosion.except.iter().map(|i| i.name.as_str()).collect();
    assert_eq!(spared, ["pawn", "king"]);
    let BodyKind::Explosion(explosion) = body("capture explodes radius 2") else {
        panic!("not an explosion");
    };
    assert!(explosion.except.is_empty());
    let BodyKind::History(history) = body(
        "illegal check repeating placement from 4 plies ago unless only such moves, say \"no\"",
    ) else {
        panic!("not history");
    };
    assert_eq!(history.plies_ago.text, "4");
    assert!(history.unless_only_such_moves);
    assert_eq!(history.message.map(|m| m.value).as_deref(), Some("no"));
    assert_eq!(
        body("on royal-capture game ends"),
        BodyKind::Succession(SuccessionAction::GameEnds)
    );
    assert!(
        matches!(body("on royal-capture crown bishop | knight as king"),
        BodyKind::Succession(SuccessionAction::Crown { candidates, becomes }) if names(&candidates) == ["bishop", "knight"] && becomes.name == "king")
    );
    assert_eq!(
        body("agreement never"),
        BodyKind::Agreement(Agreement::Never)
    );
    assert_eq!(
        body("agreement allowed"),
        BodyKind::Agreement(Agreement::Always)
    );
    assert_eq!(
        body("agreement allowed when in check"),
        BodyKind::Agreement(Agreement::When(Condition::InCheck))
    );
    assert_eq!(
        body("resign => win for opponent"),
        BodyKind::Resign(Resign::OpponentWins)
    );
    assert!(
        matches!(body("resign => award 1 win plus 2 per caps to opponent"),
        BodyKind::Resign(Resign::Award { base, per_count, counter }) if base.text == "1" && per_count.text == "2" && counter.name == "caps")
    );
    assert_eq!(body("score by wins"), BodyKind::Score(Score::ByWins));
    let BodyKind::Score(Score::Points(pairs)) = body("score draw 0.5, null 1") else {
        panic!("not points");
    };
    assert_eq!(
        (pairs[0].kind, pairs[0].points.text.as_str()),
        (ScoreKind::Draw, "0.5")
    );
    assert_eq!(pairs[1].kind, ScoreKind::Null);
    assert_eq!(
        body("match casual null-game => draw"),
        BodyKind::Match(Match::Casual)
    );
    assert_eq!(
        body("match replay null-game"),
        BodyKind::Match(Match::Replay {
            same_colours: false
        })
    );
    assert!(matches!(body("match after 3 null-games => win for white"),
        BodyKind::Match(Match::Forfeit { count, winner: Player::White }) if count.text == "3"));
    let BodyKind::Tiebreak(tiebreak) = body("tiebreak 2 wins: pawn in zone 1, caps 3") else {
        panic!("not a tiebreak");
    };
    assert_eq!(tiebreak.wins.text, "2");
    assert_eq!(
        tiebreak.entries[0].region.as_ref().map(|r| r.name.as_str()),
        Some("zone")
    );
    assert_eq!(tiebreak.entries[1].points.text, "3");
}

#[test]
fn events_are_typed_and_promotion_lists_know_of_from_to() {
    let BodyKind::Counter(counter) = body(
        "counter c counts capture and castle long, promotion to queen, promotion of pawn, promotion of pawn to rook, moved piece was king > heir",
    ) else {
        panic!("not a counter");
    };
    assert_eq!(counter.name.name, "c");
    assert_eq!(
        counter.events[0].atoms,
        [
            EventAtom::Capture(Vec::new()),
            EventAtom::Castle(Some(CastlingSide::Long))
        ]
    );
    let promotion = |event: &Event| match &event.atoms[0] {
        EventAtom::Promotion { of, to } => (
            of.as_ref().map(|l| names(l).join(",")),
            to.as_ref().map(|l| names(l).join(",")),
        ),
        other => panic!("not a promotion: {other:?}"),
    };
    assert_eq!(
        promotion(&counter.events[1]),
        (None, Some("queen".to_string()))
    );
    assert_eq!(
        promotion(&counter.events[2]),
        (Some("pawn".to_string()), None)
    );
    assert_eq!(
        promotion(&counter.events[3]),
        (Some("pawn".to_string()), Some("rook".to_string()))
    );
    assert!(
        matches!(&counter.events[4].atoms[0], EventAtom::MovedPieceWas(line) if names(line) == ["king", "heir"])
    );
    assert!(
        matches!(body("reset plies on en-passant, royal-capture"), BodyKind::Reset(events) if events.len() == 2)
    );
}

#[test]
fn conditions_bind_or_then_and_then_not() {
    let BodyKind::Termination(termination) = body(
        "claim when in check or not royal captured and plies 3 => if no legal moves then loss for mover else null-game, reason \"r\", tiebreak",
    ) else {
        panic!("not a termination");
    };
    assert_eq!(termination.trigger, TriggerKind::Claim);
    let Condition::Or(parts) = &termination.condition else {
        panic!("not an or");
    };
    assert_eq!(parts[0], Condition::InCheck);
    let Condition::And(conjuncts) = &parts[1] else {
        panic!("not an and");
    };
    assert_eq!(
        conjuncts[0],
        Condition::Not(Box::new(Condition::RoyalCaptured))
    );
    assert!(matches!(&conjuncts[1], Condition::Plies(n) if n.text == "3"));
    assert_eq!(
        termination.outcome,
        Outcome::If(
            Box::new(Condition::NoLegalMoves),
            Box::new(Outcome::Loss(Player::Mover)),
            Box::new(Outcome::NullGame)
        )
    );
    assert!(matches!(&termination.options[0], TerminationOption::Reason(r) if r.value == "r"));
    assert_eq!(termination.options[1], TerminationOption::Tiebreak);
}

#[test]
fn material_counter_and_clock_conditions() {
    let BodyKind::Award(award) = body(
        "award \"a\" 1 win to black when max pieces except pawn < 3 and side-to-move count caps >= 2 and white clock below 5 seconds and last move en-passant, once, not with \"b\"",
    ) else {
        panic!("not an award");
    };
    assert_eq!((award.name.value.as_str(), award.to), ("a", Player::Black));
    let Condition::And(parts) = &award.when else {
        panic!("not an and");
    };
    assert!(
        matches!(&parts[0], Condition::Material { of: Aggregate::Max, filter: Some(PieceFilter { kind: FilterKind::Except, .. }), region: None, comparison: Comparison::Less, value } if value.text == "3")
    );
    assert!(
        matches!(&parts[1], Condition::Counter { of: Aggregate::Player(Player::SideToMove), comparison: Comparison::GreaterEqual, counter, .. } if counter.name == "caps")
    );
    assert!(
        matches!(&parts[2], Condition::ClockBelow { of: Player::White, seconds } if seconds.text == "5")
    );
    assert!(
        matches!(&parts[3], Condition::LastMove(event) if event.atoms == [EventAtom::EnPassant])
    );
    assert_eq!(award.options[0], AwardOption::Once);
}

#[test]
fn drop_replace_and_labels() {
    let tree = build_file("drop region zone\ndrop irc\nreplace irc: check-rule none");
    let Statement::Drop(first) = &tree.statements[0] else {
        panic!("not a drop");
    };
    assert_eq!(
        (first.kind, first.name.name.as_str()),
        (Some(DefinitionKind::Region), "zone")
    );
    let Statement::Drop(second) = &tree.statements[1] else {
        panic!("not a drop");
    };
    assert_eq!(second.kind, None);
    let Statement::Item(item) = &tree.statements[2] else {
        panic!("not an item");
    };
    assert!(item.replace.is_some());
    assert_eq!(item.label.as_ref().map(|l| l.name.as_str()), Some("irc"));
    // The statement's span has the label; the body's does not.
    assert!(item.span.start < item.body.span.start);
}

#[test]
fn spans_leave_out_trailing_comments() {
    let tree = build_file("setup \"x\"   # the start\nboard 8 x 8");
    let Statement::Item(item) = &tree.statements[0] else {
        panic!("not an item");
    };
    let source = file_of("setup \"x\"   # the start\nboard 8 x 8");
    assert_eq!(&source[item.span.start..item.span.end], "setup \"x\"");
}

#[test]
fn identifiers_are_every_name_node_in_file_order() {
    for snippet in SNIPPETS {
        let source = file_of(snippet);
        let parsed = RulesParser::parse(Rule::file, &source).expect("snippet parses");
        let expected: Vec<(usize, &str)> = parsed
            .flatten()
            .filter(|node| matches!(node.as_rule(), Rule::ident | Rule::variant_id))
            .map(|node| (node.as_span().start(), node.as_str()))
            .collect();
        let tree = build_file(snippet);
        let found: Vec<(usize, &str)> = tree
            .identifiers()
            .into_iter()
            .map(|name| (name.span.start, name.name.as_str()))
            .collect();
        assert_eq!(found, expected, "{snippet}");
    }
}

/// The deepest nesting the parser accepts builds and lowers in a thread
/// with a small stack (the builder and lowering recurse once per level).
#[test]
fn the_deepest_accepted_nesting_builds_on_a_small_stack() {
    let header = "variant deep \"Deep\"\nboard 4 x 4\nsetup \"k3/4/4/3K w - - 0 1\"\npiece king \"K\" royal moves king-step\n";
    let nested = |depth: usize| {
        format!(
            "{header}x: end when {}in check{} => draw\npiece q \"Q\" moves {}ride (0,1){}\n",
            "(not ".repeat(depth),
            ")".repeat(depth),
            "(".repeat(depth),
            ")".repeat(depth),
        )
    };
    let deepest = (1..crate::syntax::MAX_NESTING)
        .rev()
        .find(|depth| crate::syntax::parse(0, &nested(*depth)).is_ok())
        .expect("some nesting is accepted");
    let text = nested(deepest);
    let thread = std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(move || {
            let dir = std::path::Path::new(".");
            crate::load::load_variant_from_str("deep.rules", &text, dir).map(|_| ())
        })
        .expect("thread starts");
    let result = thread.join().expect("no stack overflow");
    assert!(result.is_ok(), "{:?}", result.err());
}

/// A parse of a shape the builder does not expect (as after a grammar
/// change the builder missed) is an internal error with its code, not a
/// panic or a silent default.
#[test]
fn an_unexpected_parse_is_an_internal_error_with_a_code() {
    let mut parsed = RulesParser::parse(Rule::board_stmt, "board 8 x 8").expect("parses");
    let node = parsed.next().expect("one node");
    let error = build(0, node).expect_err("not a file");
    assert_eq!(error.code, crate::error::Code::SyntaxTreeMismatch);
    assert!(
        error.message.starts_with("internal error"),
        "{}",
        error.message
    );
}

#[test]
fn counting_statements_keep_their_parts() {
    let BodyKind::Counting(Counting::Limit {
        moves,
        from_pieces,
        when,
    }) = body("counting limit 8 moves from pieces when opponent pieces of rook >= 2")
    else {
        panic!("a counting limit");
    };
    assert_eq!(moves.map(|m| m.text).as_deref(), Some("8"));
    assert!(from_pieces);
    assert!(matches!(when, Some(Condition::Material { .. })));
    let BodyKind::Counting(Counting::Limit { moves, when, .. }) =
        body("counting limit none when max pieces of pawn >= 1")
    else {
        panic!("a counting limit");
    };
    assert!(moves.is_none() && when.is_some());
    let BodyKind::Counting(Counting::Start { player, when }) =
        body("counting starts for mover when not counting or counting over limit")
    else {
        panic!("a counting start");
    };
    assert_eq!(player, Player::Mover);
    assert_eq!(
        when,
        Condition::Or(vec![
            Condition::Not(Box::new(Condition::Counting)),
            Condition::CountingOverLimit
        ])
    );
}

#[test]
fn first_move_statements_keep_their_parts() {
    let BodyKind::FirstMoveLoss(pieces, by) =
        body("first-move of king | met lost when opponent rook moves onto its rank or file")
    else {
        panic!("a first-move loss");
    };
    assert_eq!(names(&pieces), ["king", "met"]);
    assert_eq!(names(&by), ["rook"]);
    assert_eq!(body("unmoved pieces in fen"), BodyKind::UnmovedInFen);
    let BodyKind::Piece(piece) =
        body("piece king \"K\" royal moves first-move move-only leap (2,1) not from check")
    else {
        panic!("a piece");
    };
    assert!(matches!(
        piece.moves.terms[0].limits[..],
        [AtomLimit::NotFromCheck(_)]
    ));
}
