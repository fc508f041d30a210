//! Terms of the evaluation, each measured as the evaluation with its weight
//! against the evaluation without it: pawn structure (which kinds move like
//! pawns, read from the model; passed, doubled and isolated pieces), threats,
//! hanging pieces, weak pieces, outposts, connected pawns, pairs of colour-bound pieces, open files,
//! attacks on a royal piece's flank, its ring's attackers, pawn attackers and
//! weak squares, pinned officers, restricted squares and the royal terms'
//! weighing by the enemy's material.

mod common;

use varc::interp::Interpreter;
use varc_runtime::eval::{ring_of, Evaluator};
use varc_runtime::fen::parse_fen;
use varc_runtime::model::{Color, Square, Variant};
use varc_runtime::rules::{CheckKinds, PieceReach, ReachVisitor, RoyalSurroundings, Rules};

/// White's evaluation of `fen` in `variant` with the weight `name` at
/// `value`.
fn evaluation(variant: &Variant, fen: &str, name: &str, value: i32) -> i32 {
    let mut variant = variant.clone();
    assert!(variant.evaluation.set(name, value), "no weight {name}");
    let position = parse_fen(&variant, fen).expect("a valid position");
    let rules = Interpreter::new(variant.clone()).expect("rules");
    let imported = rules.import(&position);
    Evaluator::new(&variant).evaluate_white(&rules, &imported)
}

/// What the weight `name` at its default adds to White's evaluation.
fn term(variant: &Variant, fen: &str, name: &str) -> i32 {
    let default = variant.evaluation.get(name).expect("a weight");
    term_at(variant, fen, name, default)
}

/// What the weight `name` at `value` adds to White's evaluation.
fn term_at(variant: &Variant, fen: &str, name: &str, value: i32) -> i32 {
    evaluation(variant, fen, name, value) - evaluation(variant, fen, name, 0)
}

fn kind(variant: &Variant, name: &str) -> usize {
    variant
        .pieces
        .iter()
        .position(|p| p.name == name)
        .unwrap_or_else(|| panic!("no piece {name}"))
}

#[test]
fn pawn_shaped_kinds_are_read_from_their_moves() {
    for (name, shaped, not_shaped) in [
        (
            "chess",
            &["pawn"][..],
            &["knight", "bishop", "rook", "queen", "king"][..],
        ),
        (
            "capablanca",
            &["pawn"],
            &["archbishop", "chancellor", "king"],
        ),
    ] {
        let variant = common::variant(name);
        let evaluator = Evaluator::new(&variant);
        for piece in shaped {
            assert!(
                evaluator.is_pawn_shaped(kind(&variant, piece)),
                "{name}: {piece}"
            );
        }
        for piece in not_shaped {
            assert!(
                !evaluator.is_pawn_shaped(kind(&variant, piece)),
                "{name}: {piece}"
            );
        }
    }
    // Shogi: the pawn steps ahead; the lance rides, the knight leaps two
    // ranks, the silver steps back, the king is royal.
    let shogi = varc::load_variant(&common::variants_dir().join("gallery/shogi.rules"))
        .unwrap_or_else(|e| panic!("shogi does not compile:\n{}", e.render()));
    let evaluator = Evaluator::new(&shogi);
    assert!(evaluator.is_pawn_shaped(kind(&shogi, "pawn")));
    for piece in ["lance", "knight", "silver", "gold", "king", "tokin"] {
        assert!(
            !evaluator.is_pawn_shaped(kind(&shogi, piece)),
            "shogi: {piece}"
        );
    }
}

#[test]
fn a_passed_pawn_earns_more_as_it_nears_promotion() {
    let chess = common::variant("chess");
    let fens = [
        "4k3/8/8/8/8/3P4/8/4K3 w - - 0 1",
        "4k3/8/8/8/3P4/8/8/4K3 w - - 0 1",
        "4k3/8/8/3P4/8/8/8/4K3 w - - 0 1",
        "4k3/8/3P4/8/8/8/8/4K3 w - - 0 1",
        "4k3/3P4/8/8/8/8/8/4K3 w - - 0 1",
    ];
    let bonuses: Vec<i32> = fens.iter().map(|fen| term(&chess, fen, "passed")).collect();
    assert!(bonuses[0] > 0, "{bonuses:?}");
    assert!(bonuses.windows(2).all(|w| w[0] < w[1]), "{bonuses:?}");
    // Black's pawns go down the board.
    let black = term(&chess, "4k3/8/8/8/8/3p4/8/4K3 w - - 0 1", "passed");
    assert_eq!(black, -bonuses[3]);
}

#[test]
fn an_enemy_pawn_ahead_on_its_file_or_beside_it_stops_a_passed_pawn() {
    let chess = common::variant("chess");
    // White d5; Black's pawn ahead on d7 or e6 blocks it (and is itself
    // blocked); on f6, or behind on e4, it does not.
    assert_eq!(
        term(&chess, "4k3/3p4/8/3P4/8/8/8/4K3 w - - 0 1", "passed"),
        0
    );
    assert_eq!(
        term(&chess, "4k3/8/4p3/3P4/8/8/8/4K3 w - - 0 1", "passed"),
        0
    );
    let alone = term(&chess, "4k3/8/8/3P4/8/8/8/4K3 w - - 0 1", "passed");
    // Black's f6 pawn is passed too: White's d5 is two files away.
    let far = term(&chess, "4k3/8/5p2/3P4/8/8/8/4K3 w - - 0 1", "passed");
    let black_f6 = -term(&chess, "4k3/8/5p2/8/8/8/8/4K3 w - - 0 1", "passed");
    assert!(alone > 0);
    assert_eq!(far, alone - black_f6);
    // Behind it, Black's e4 pawn leaves d5 passed; d5 is beside e4 but
    // behind it as Black sees the board, so e4 is passed as well.
    let behind = term(&chess, "4k3/8/8/3P4/4p3/8/8/4K3 w - - 0 1", "passed");
    let black_e4 = -term(&chess, "4k3/8/8/8/4p3/8/8/4K3 w - - 0 1", "passed");
    assert_eq!(behind, alone - black_e4);
}

#[test]
fn a_passed_pawn_that_cannot_move_earns_nothing_for_it() {
    let chess = common::variant("chess");
    // d6 blocked by Black's king on d7; on d5, d6 is free.
    assert_eq!(term(&chess, "8/3k4/3P4/8/8/8/8/4K3 w - - 0 1", "passed"), 0);
    assert!(term(&chess, "8/3k4/8/3P4/8/8/8/4K3 w - - 0 1", "passed") > 0);
    // Blocked, but with a capture to make: it can move.
    assert!(term(&chess, "8/2nk4/3P4/8/8/8/8/4K3 w - - 0 1", "passed") > 0);
}

#[test]
fn royal_terms_weigh_fully_while_the_enemy_has_all_its_material() {
    let chess = common::variant("chess");
    let shelter = chess.evaluation.royal_shelter;
    // White's king has its five neighbours, Black's none: at the start's
    // material, each neighbour counts its full weight.
    let fen = "rnbq1bnr/pppppppp/8/4k3/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1";
    assert_eq!(term(&chess, fen, "royal-shelter"), 5 * shelter);
}

#[test]
fn a_passed_pawn_counts_more_as_the_enemy_material_leaves() {
    let chess = common::variant("chess");
    let bare = term(&chess, "4k3/8/8/3P4/8/8/8/4K3 w - - 0 1", "passed");
    let against_a_queen = term(&chess, "3qk3/8/8/3P4/8/8/8/4K3 w - - 0 1", "passed");
    assert!(
        against_a_queen > 0 && against_a_queen < bare,
        "{against_a_queen} {bare}"
    );
}

#[test]
fn a_passed_pawn_earns_its_free_way() {
    let chess = common::variant("chess");
    // The pawn on e7 is a move from promoting (5 - 1 = 4 times): nothing
    // stands on e8 and Black attacks it not: 20 x 4 = 80 units, at 10
    // centipawns per 20 units 40.
    assert_eq!(
        term(&chess, "k7/4P3/8/8/8/8/8/K7 w - - 0 1", "passed-free"),
        40
    );
    // Black's rook on h8 attacks e8; White's knight on c7 defends it:
    // 5 x 4 = 20 units, 10 centipawns.
    assert_eq!(
        term(&chess, "7r/2N1P3/8/k7/8/8/8/K7 w - - 0 1", "passed-free"),
        10
    );
    // On e5 (three moves, twice): Black's rook attacks e7, not e6: 9 x 2
    // = 18 units, 9 centipawns.
    assert_eq!(
        term(&chess, "k7/7r/8/4P3/8/8/8/K7 w - - 0 1", "passed-free"),
        9
    );
    // Black's passed pawn counts for Black the same way.
    assert_eq!(
        term(&chess, "k7/8/8/8/8/8/4p3/K7 b - - 0 1", "passed-free"),
        -40
    );
}

#[test]
fn a_passed_pawn_earns_its_royal_race_in_the_endgame() {
    let chess = common::variant("chess");
    // The pawn on e6 is 2 moves from promoting (5 - 2 = 3) and the square
    // in front of it is e7. Black's king on a2 is 5 king steps from e7
    // (at most 5), White's on e1 is 6, counted 5: (2 x 5 - 5) x 3 = 15
    // units, at 10 centipawns per 4 units 37 with no officer left.
    assert_eq!(
        term(&chess, "8/8/4P3/8/8/8/k7/4K3 w - - 0 1", "passed-royal"),
        37
    );
    // Black's king on e8 stands 1 step from e7: (2 - 5) x 3 = -9 units.
    assert_eq!(
        term(&chess, "4k3/8/4P3/8/8/8/8/4K3 w - - 0 1", "passed-royal"),
        -22
    );
    // Black's passed pawn counts for Black the same way.
    assert_eq!(
        term(&chess, "4k3/K7/8/8/8/4p3/8/8 b - - 0 1", "passed-royal"),
        -37
    );
    // Five moves from the zone, a pawn has no race (e3: e4 to e8).
    assert_eq!(
        term(&chess, "8/8/8/8/8/4P3/k7/4K3 w - - 0 1", "passed-royal"),
        0
    );
    // With every officer on the board the race does not count yet.
    assert_eq!(
        term(
            &chess,
            "rnbqkbnr/8/4P3/8/8/8/8/RNBQKBNR w - - 0 1",
            "passed-royal"
        ),
        0
    );
}

#[test]
fn doubled_and_isolated_pawns_cost() {
    let chess = common::variant("chess");
    let doubled = chess.evaluation.doubled;
    let isolated = chess.evaluation.isolated;
    assert!(doubled > 0 && isolated > 0);
    // d2 and d3: one doubled, both isolated.
    let fen = "4k3/8/8/8/8/3P4/3P4/4K3 w - - 0 1";
    assert_eq!(term(&chess, fen, "doubled"), -doubled);
    assert_eq!(term(&chess, fen, "isolated"), -2 * isolated);
    // c2 and d2 stand by each other; c2 and e2 do not.
    assert_eq!(
        term(&chess, "4k3/8/8/8/8/8/2PP4/4K3 w - - 0 1", "isolated"),
        0
    );
    assert_eq!(
        term(&chess, "4k3/8/8/8/8/8/2P1P3/4K3 w - - 0 1", "isolated"),
        -2 * isolated
    );
    // Black's count against White.
    assert_eq!(
        term(&chess, "4k3/2p1p3/8/8/8/8/8/4K3 w - - 0 1", "isolated"),
        2 * isolated
    );
    // The start position: neither.
    let start = &chess.start_fen;
    assert_eq!(term(&chess, start, "doubled"), 0);
    assert_eq!(term(&chess, start, "isolated"), 0);
}

#[test]
fn pawn_threats_count_attacked_pieces_but_not_royal_ones_or_pawns() {
    let chess = common::variant("chess");
    let threat = chess.evaluation.pawn_threat;
    assert!(threat > 0);
    // d4 attacks the knight on c5.
    assert_eq!(
        term(&chess, "4k3/8/8/2n5/3P4/8/8/4K3 w - - 0 1", "pawn-threat"),
        threat
    );
    // Black's pawn on c4 attacks the bishop on d3 (Black's pawns capture
    // downward) and not the one on d5.
    assert_eq!(
        term(&chess, "4k3/8/8/3B4/2p5/3B4/8/4K3 w - - 0 1", "pawn-threat"),
        -threat
    );
    // Both sides at once: e5 takes on d6 and f6, d6 and f6 on e5.
    assert_eq!(
        term(&chess, "4k3/8/3n1r2/4P3/8/8/8/4K3 w - - 0 1", "pawn-threat"),
        2 * threat
    );
    // A royal piece in a pawn's way is check, not a threat; pawns are not
    // targets.
    assert_eq!(
        term(&chess, "8/8/8/3k4/4P3/8/8/4K3 b - - 0 1", "pawn-threat"),
        0
    );
    assert_eq!(
        term(&chess, "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "pawn-threat"),
        0
    );
}

#[test]
fn file_riders_earn_the_open_file_read_from_their_moves() {
    let chess = common::variant("chess");
    let open = chess.evaluation.open_file;
    assert!(open > 0);
    // The a-file: open, half open (an enemy pawn on it), closed (an own one).
    assert_eq!(
        term(&chess, "4k3/7p/8/8/8/8/7P/R3K3 w - - 0 1", "open-file"),
        open
    );
    assert_eq!(
        term(&chess, "4k3/p7/8/8/8/8/7P/R3K3 w - - 0 1", "open-file"),
        open / 2
    );
    assert_eq!(
        term(&chess, "4k3/p7/8/8/8/8/P7/R3K3 w - - 0 1", "open-file"),
        0
    );
    // A queen rides files too; a bishop and a knight do not.
    assert_eq!(
        term(&chess, "4k3/7p/8/8/8/8/7P/QBN1K3 w - - 0 1", "open-file"),
        open
    );
    // Black's rook on an open file counts against White.
    assert_eq!(
        term(&chess, "r3k3/7p/8/8/8/8/7P/4K3 w - - 0 1", "open-file"),
        -open
    );
    // Capablanca: the chancellor (rook and knight) rides files, the
    // archbishop (bishop and knight) does not.
    let capablanca = common::variant("capablanca");
    let open = capablanca.evaluation.open_file;
    assert_eq!(
        term(
            &capablanca,
            "5k4/9p/10/10/10/10/9P/C3K5 w - - 0 1",
            "open-file"
        ),
        open
    );
    assert_eq!(
        term(
            &capablanca,
            "5k4/9p/10/10/10/10/9P/A3K5 w - - 0 1",
            "open-file"
        ),
        0
    );
}

#[test]
fn threats_count_more_valuable_enemy_kinds_a_lesser_piece_attacks() {
    let chess = common::variant("chess");
    let threat = chess.evaluation.threat;
    assert!(threat > 0);
    // The knight on e2 attacks the queen on d4; the queen attacks nothing
    // of more value.
    assert_eq!(
        term(&chess, "4k3/8/8/8/3q4/8/4N3/4K3 w - - 0 1", "threat"),
        threat
    );
    // Black's bishop on g4 attacks the rook on d1 and the queen on h3:
    // two kinds.
    assert_eq!(
        term(&chess, "4k3/8/8/8/6b1/7Q/8/3RK3 w - - 0 1", "threat"),
        -2 * threat
    );
    // Pieces of equal value: the knight on e3 and the bishop on d5.
    assert_eq!(
        term(&chess, "4k3/8/8/3b4/8/4N3/8/4K3 w - - 0 1", "threat"),
        0
    );
    // Not counted: a royal victim (check), a royal attacker, a
    // pawn-shaped attacker (the pawn threat term) or victim.
    for fen in [
        "8/8/8/8/8/2n5/8/3K2k1 w - - 0 1",
        "4k3/8/8/8/8/8/3q4/4K3 w - - 0 1",
        "4k3/8/8/2r5/3P4/8/8/4K3 w - - 0 1",
        "4k3/8/8/3p4/8/4N3/8/4K3 w - - 0 1",
    ] {
        assert_eq!(term(&chess, fen, "threat"), 0, "{fen}");
    }
}

#[test]
fn hanging_pieces_are_attacked_and_undefended_neither_royal_nor_pawns() {
    let chess = common::variant("chess");
    let hanging = chess.evaluation.hanging;
    assert!(hanging > 0);
    // Black's queen on d4 is attacked by the knight and undefended; the
    // knight is defended by its king.
    assert_eq!(
        term(&chess, "4k3/8/8/8/3q4/8/4N3/4K3 w - - 0 1", "hanging"),
        hanging
    );
    // Defended by the pawn on e5: not hanging.
    assert_eq!(
        term(&chess, "4k3/8/8/4p3/3q4/8/4N3/4K3 w - - 0 1", "hanging"),
        0
    );
    // White's rook on a1 and bishop on h4 both lie open to the queen on
    // d4 (the king on e1 reaches neither).
    assert_eq!(
        term(&chess, "4k3/8/8/8/3q3B/8/8/R3K3 w - - 0 1", "hanging"),
        -2 * hanging
    );
    // Kings and pawns do not hang.
    assert_eq!(
        term(&chess, "4k3/8/8/3p4/4K3/8/8/8 w - - 0 1", "hanging"),
        0
    );
}

#[test]
fn outposts_are_minor_pieces_pawns_defend_and_no_enemy_pawn_can_attack() {
    let chess = common::variant("chess");
    let outpost = chess.evaluation.outpost;
    assert!(outpost > 0);
    // A knight on e5, defended by the d4 pawn; Black has no pawn on the d
    // or f file that could come to attack it.
    assert_eq!(
        term(
            &chess,
            "4k3/pp4pp/8/4N3/3P4/8/PP4PP/4K3 w - - 0 1",
            "outpost"
        ),
        outpost
    );
    // A bishop counts as a minor piece too; a rook does not.
    assert_eq!(
        term(
            &chess,
            "4k3/pp4pp/8/4B3/3P4/8/PP4PP/4K3 w - - 0 1",
            "outpost"
        ),
        outpost
    );
    assert_eq!(
        term(
            &chess,
            "4k3/pp4pp/8/4R3/3P4/8/PP4PP/4K3 w - - 0 1",
            "outpost"
        ),
        0
    );
    // The f7 pawn can still attack e6 after f6: no outpost. A pawn on f4,
    // past the square, cannot.
    assert_eq!(
        term(
            &chess,
            "4k3/pp3ppp/8/4N3/3P4/8/PP4PP/4K3 w - - 0 1",
            "outpost"
        ),
        0
    );
    assert_eq!(
        term(
            &chess,
            "4k3/pp4pp/8/4N3/3P1p2/8/PP4PP/4K3 w - - 0 1",
            "outpost"
        ),
        outpost
    );
    // Undefended, or in its own half: no outpost.
    assert_eq!(
        term(
            &chess,
            "4k3/pp4pp/8/4N3/8/3P4/PP4PP/4K3 w - - 0 1",
            "outpost"
        ),
        0
    );
    assert_eq!(
        term(
            &chess,
            "4k3/pp4pp/8/8/8/4N3/PP1P2PP/4K3 w - - 0 1",
            "outpost"
        ),
        0
    );
    // Black's, read the way Black's pawns go, counts against White.
    assert_eq!(
        term(&chess, "4k3/pp4pp/8/8/8/3p4/4n3/K7 b - - 0 1", "outpost"),
        -outpost
    );
}

#[test]
fn connected_pawns_are_defended_or_level_and_earn_more_as_they_near_the_zone() {
    let chess = common::variant("chess");
    let connected = chess.evaluation.connected;
    assert!(connected > 0);
    // `16 / (d + 1)^2` of the weight at `d` moves from the zone.
    let share = |d: i32| connected * 16 * 256 / ((d + 1) * (d + 1)) / 256;
    // e5 defended by d4: e5 is three moves from promoting; d4 is not
    // defended (a pawn on c3 or e3 would).
    assert_eq!(
        term(&chess, "4k3/8/8/4P3/3P4/8/8/4K3 w - - 0 1", "connected"),
        share(3)
    );
    // A phalanx: d5 and e5, both level, both earn.
    assert_eq!(
        term(&chess, "4k3/8/8/3PP3/8/8/8/4K3 w - - 0 1", "connected"),
        (connected * 16 * 256 / 16 * 2) / 256
    );
    // Apart: nothing.
    assert_eq!(
        term(&chess, "4k3/8/8/3P4/8/5P2/8/4K3 w - - 0 1", "connected"),
        0
    );
    // Black's, nearer the zone the way Black goes, count against White.
    assert_eq!(
        term(&chess, "4k3/8/8/8/8/3p4/4p3/K7 w - - 0 1", "connected"),
        -share(1)
    );
}

#[test]
fn pairs_of_colour_bound_pieces_on_both_colours_are_read_from_their_moves() {
    let chess = common::variant("chess");
    let pair = chess.evaluation.pair;
    assert!(pair > 0);
    // Bishops on c1 and f1 (both colours), on b2 and c1 (one colour).
    assert_eq!(
        term(&chess, "4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1", "pair"),
        pair
    );
    assert_eq!(term(&chess, "4k3/8/8/8/8/8/1B6/2B1K3 w - - 0 1", "pair"), 0);
    // Knights and rooks change colour: no pair.
    assert_eq!(
        term(&chess, "2n1kn2/8/8/8/8/8/8/R3K2R w - - 0 1", "pair"),
        0
    );
    // Black's pair counts against White.
    assert_eq!(
        term(&chess, "2b1kb2/8/8/8/8/8/8/4K3 w - - 0 1", "pair"),
        -pair
    );
    // Shatranj's alfil (two squares diagonally) is colour-bound too.
    let path = common::variants_dir().join("gallery/shatranj.rules");
    let shatranj = varc::load_variant(&path).expect("shatranj compiles");
    assert_eq!(
        term(&shatranj, "4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1", "pair"),
        shatranj.evaluation.pair
    );
}

#[test]
fn royal_danger_grows_with_the_square_of_the_attackers() {
    // The attack's other inputs (weak squares, checks on guarded squares,
    // the missing strongest kind) off: each has its own test.
    let mut chess = common::variant("chess");
    for input in ["royal-weak", "royal-unsafe-check", "royal-strongest"] {
        assert!(chess.evaluation.set(input, 0));
    }
    // Black's queen on d5 (g2) and knight on g4 (f2, h2) attack three
    // squares beside White's king: 2 x 2 x 50 + 3 x 70 = 410 units, 41 cp
    // at full material; White's bishop on d3 one beside Black's (h7): 120
    // units, 3 cp.
    let both = term(
        &chess,
        "r4rk1/ppp2ppp/8/3q4/6n1/3B4/PPP2PPP/R2Q1RK1 b - - 0 1",
        "royal-danger",
    );
    assert!((-41..=-20).contains(&both), "{both}");
    // The queen alone: 120 units against 120, next to nothing.
    let alone = term(
        &chess,
        "r4rk1/ppp2ppp/8/3q4/8/3B4/PPP2PPP/R2Q1RK1 b - - 0 1",
        "royal-danger",
    );
    assert!(alone.abs() <= 2, "{alone}");
    // Pawns and royal pieces do not count as attackers.
    assert_eq!(
        term(&chess, "8/8/8/8/8/5k2/6pp/6K1 w - - 0 1", "royal-danger"),
        0
    );
}

/// What the evaluation's walk reports of `fen` (chess) per colour: the
/// kinds that could give check (safely or only on guarded squares) and the
/// weak squares beside its royal pieces.
fn royal_reports(fen: &str) -> ([CheckKinds; 2], [u32; 2]) {
    struct Reports<'a> {
        evaluator: &'a Evaluator,
        checks: [CheckKinds; 2],
        weak: [u32; 2],
    }
    impl ReachVisitor for Reports<'_> {
        fn guards(&self) -> u64 {
            self.evaluator.guards()
        }
        fn piece(&mut self, _: PieceReach) {}
        fn exposed(&mut self, _: usize, _: Color) {}
        fn royal(&mut self, royal: RoyalSurroundings) {
            self.weak[royal.color.index()] += royal.weak;
        }
        fn checks(&mut self, color: Color, kinds: CheckKinds) {
            self.checks[color.index()] = kinds;
        }
    }
    let chess = common::variant("chess");
    let evaluator = Evaluator::new(&chess);
    let rules = Interpreter::new(chess.clone()).expect("rules");
    let position = rules.import(&parse_fen(&chess, fen).expect("a valid position"));
    let mut reports = Reports {
        evaluator: &evaluator,
        checks: [CheckKinds::default(); 2],
        weak: [0; 2],
    };
    evaluator.visit_reaches(&rules, &position, &mut reports);
    (reports.checks, reports.weak)
}

/// Per colour, the kinds that could give check in `fen` (chess).
fn checks(fen: &str) -> [CheckKinds; 2] {
    royal_reports(fen).0
}

/// Per colour, the kinds that could give a safe check in `fen` (chess).
fn safe_checks(fen: &str) -> [u32; 2] {
    checks(fen).map(|kinds| kinds.safe)
}

#[test]
fn royal_danger_counts_the_kinds_that_could_give_a_safe_check() {
    // The rook on a1 could check from a8 or e1, squares Black does not
    // guard.
    assert_eq!(safe_checks("4k3/8/8/8/8/8/8/R5K1 w - - 0 1"), [1, 0]);
    // Bishops on b7 and c3 guard a8 and e1; the one on c3 could check
    // from d4, which White does not guard.
    assert_eq!(safe_checks("4k3/1b6/8/8/8/2b5/8/R5K1 w - - 0 1"), [0, 1]);
    // Two rooks are one kind (h2 could check from h8); the queen on d1
    // another (from e2). Squares beside the king are guarded by it.
    assert_eq!(safe_checks("4k3/8/8/8/8/8/7R/R2Q2K1 w - - 0 1"), [2, 0]);
    // A pawn guards too: on f2, e1's check is gone, a8's stays.
    assert_eq!(safe_checks("4k3/1b6/8/8/8/8/5p2/R5K1 w - - 0 1"), [0, 0]);
    assert_eq!(safe_checks("4k3/8/8/8/8/8/5p2/R5K1 w - - 0 1"), [1, 0]);
    // Pawns and kings give no check of this kind: the black pawn on h2
    // beside the white king, the kings beside each other's squares.
    assert_eq!(safe_checks("8/8/8/8/8/6k1/7p/6K1 w - - 0 1"), [0, 0]);
    // With every officer on the board the weight adds to royal danger:
    // White's queen could check from g4 on the open g-file (150 units,
    // 5 centipawns), Black has no check.
    let chess = common::variant("chess");
    let open_g = term(
        &chess,
        "rn1q1rk1/ppp2p1p/8/8/8/8/PPP2PPP/RN1Q1RK1 w - - 0 1",
        "royal-check",
    );
    assert!((1..=10).contains(&open_g), "{open_g}");
}

/// Per colour, the weak squares beside its royal pieces in `fen` (chess):
/// attacked by the enemy, defended by no piece of its own but a royal one.
fn weak_squares(fen: &str) -> [u32; 2] {
    royal_reports(fen).1
}

#[test]
fn royal_danger_counts_the_weak_squares_beside_a_royal_piece() {
    // The rook on h1 attacks f1, which only White's king defends.
    assert_eq!(weak_squares("4k3/8/8/8/8/8/8/4K2r w - - 0 1"), [1, 0]);
    // A bishop on g2 defends f1; a square nobody attacks is not weak.
    assert_eq!(weak_squares("4k3/8/8/8/8/8/6B1/4K2r w - - 0 1"), [0, 0]);
    // Black's queen on h4 attacks f2 and h2: the rook on f1 defends f2,
    // only the king h2. The weight costs White.
    let fen = "r1b2rk1/ppp2ppp/2n5/8/7q/8/PPP2PPP/R1B2RK1 w - - 0 1";
    assert_eq!(weak_squares(fen), [1, 0]);
    let chess = common::variant("chess");
    let weak = term(&chess, fen, "royal-weak");
    assert!(weak < 0, "{weak}");
}

#[test]
fn royal_danger_counts_the_checks_on_guarded_squares() {
    // White's rook could check from a8 and e1; Black's bishops guard
    // both. Black's bishop on c3 checks safely from d4.
    let [white, black] = checks("4k3/1b6/8/8/8/2b5/8/R5K1 w - - 0 1");
    assert_eq!((white.safe, white.guarded), (0, 1));
    assert_eq!((black.safe, black.guarded), (1, 0));
    // A kind counts once, as safe where one of its squares is.
    let [white, _] = checks("4k3/8/8/8/8/2b5/8/R5K1 w - - 0 1");
    assert_eq!((white.safe, white.guarded), (1, 0));
}

#[test]
fn a_royal_ring_is_the_block_around_moved_inward_off_the_edge() {
    let chess = common::variant("chess");
    let ring = |file: u8, rank: u8| {
        let mut squares: Vec<(u8, u8)> = ring_of(&chess, Square::new(file, rank))
            .iter()
            .map(|square| (square.file, square.rank))
            .collect();
        squares.sort_unstable();
        squares
    };
    let block = |files: std::ops::RangeInclusive<u8>, ranks: std::ops::RangeInclusive<u8>| {
        let mut squares = Vec::new();
        for file in files {
            for rank in ranks.clone() {
                squares.push((file, rank));
            }
        }
        squares
    };
    // e4: the nine squares around it; g1: f1 to h3; a8: a6 to c8.
    assert_eq!(ring(4, 3), block(3..=5, 2..=4));
    assert_eq!(ring(6, 0), block(5..=7, 0..=2));
    assert_eq!(ring(0, 7), block(0..=2, 5..=7));
}

#[test]
fn royal_danger_counts_the_officers_attacking_the_ring() {
    // White's king on g1 has the ring f1-h3 (Stockfish's king ring, the
    // 3x3 block moved up off the edge). Black's knight on e5 attacks f3
    // and g4: on the ring, not beside the king. With the queen on d5
    // (g2) it makes two attackers, so it adds to the danger.
    let chess = common::variant("chess");
    let queen = "r4rk1/ppp2ppp/8/3q4/8/8/PPP2PPP/R2Q1RK1 w - - 0 1";
    let with_knight = "r4rk1/ppp2ppp/8/3qn3/8/8/PPP2PPP/R2Q1RK1 w - - 0 1";
    let alone = term(&chess, queen, "royal-danger");
    let both = term(&chess, with_knight, "royal-danger");
    assert!(both < alone, "{both} against {alone}");
}

#[test]
fn royal_danger_counts_pawns_attacking_the_ring() {
    // Black's pawn on h3 attacks g2, on the ring of White's king; with
    // Black's queen on d5 attacking the ring it weighs.
    let chess = common::variant("chess");
    let fen = "r4rk1/ppp2pp1/8/3q4/8/7p/PPP2PP1/R2Q1RK1 w - - 0 1";
    let pawn_attack = term(&chess, fen, "royal-pawn-attack");
    assert!(pawn_attack < 0, "{pawn_attack}");
    // Without an officer attacking the ring, pawns alone are no attack.
    let no_officer = "r4rk1/ppp2pp1/8/8/8/7p/PPP2PP1/R2Q1RK1 w - - 0 1";
    assert_eq!(term(&chess, no_officer, "royal-pawn-attack"), 0);
}

#[test]
fn royal_danger_counts_the_weak_squares_of_the_ring() {
    // Black's rook on h8 attacks h3, on the ring of White's king on g1
    // but not beside it, and nothing of White's defends h3: weak. The
    // queen on d5 makes the attack. A white knight on g1's side (f4)
    // defending h3 takes it away.
    let chess = common::variant("chess");
    let weak = "r5kr/ppp2p2/8/3q4/8/8/PPP2P2/R2Q1RK1 w - - 0 1";
    let defended = "r5kr/ppp2p2/8/3q4/5N2/8/PPP2P2/R2Q1RK1 w - - 0 1";
    assert!(
        term(&chess, weak, "royal-weak") < term(&chess, defended, "royal-weak"),
        "{} against {}",
        term(&chess, weak, "royal-weak"),
        term(&chess, defended, "royal-weak")
    );
}

#[test]
fn royal_danger_counts_the_officers_pinned_to_the_royal_piece() {
    // Black's bishop on c5 pins White's bishop on f2 to the king on g1.
    let chess = common::variant("chess");
    let pinned = "r2q1rk1/ppp2ppp/8/2b5/8/8/PPP2BPP/R2Q1RK1 w - - 0 1";
    let term_pinned = term(&chess, pinned, "royal-pinned");
    assert!(term_pinned < 0, "{term_pinned}");
    // A pawn on f2 instead, the bishop on e2: a pawn is no pinned officer.
    let free = "r2q1rk1/ppp2ppp/8/2b5/8/8/PPP1BPPP/R2Q1RK1 w - - 0 1";
    assert_eq!(term(&chess, free, "royal-pinned"), 0);
}

#[test]
fn royal_danger_drops_without_the_most_valuable_officer_kind() {
    let chess = common::variant("chess");
    // Black's rooks attack White's king, Black has no queen: the weight
    // takes their danger off (White gains).
    let queenless = "6k1/5ppp/8/8/8/6rr/5PPP/2B1QRK1 w - - 0 1";
    let without = term(&chess, queenless, "royal-strongest");
    assert!(without > 0, "{without}");
    // With a black queen on the board it does not apply.
    let with_queen = "3q2k1/5ppp/8/8/8/6rr/5PPP/2B1QRK1 w - - 0 1";
    assert_eq!(term(&chess, with_queen, "royal-strongest"), 0);
}

/// White's evaluation of `fen` in chess with the endgame values `endgame`
/// (piece, pawns).
fn with_endgame_values(fen: &str, endgame: &[(&str, f64)]) -> i32 {
    let mut variant = common::variant("chess");
    for (piece, pawns) in endgame {
        let kind = kind(&variant, piece);
        variant.pieces[kind].endgame_value = Some(*pawns);
    }
    let position = parse_fen(&variant, fen).expect("a valid position");
    let rules = Interpreter::new(variant.clone()).expect("rules");
    Evaluator::new(&variant).evaluate_white(&rules, &rules.import(&position))
}

#[test]
fn values_move_to_the_endgame_values_as_the_officers_leave() {
    let raised = [("pawn", 1.5), ("rook", 6.0)];
    // Every officer on the board: the values are the values.
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    assert_eq!(
        with_endgame_values(start, &raised),
        with_endgame_values(start, &[])
    );
    // No officer left: a pawn is worth its endgame value (1.5 pawns, 50
    // more; Black's pawns are worth as much more).
    let pawns = "4k3/pp6/8/8/8/8/PPP5/4K3 w - - 0 1";
    assert_eq!(
        with_endgame_values(pawns, &raised) - with_endgame_values(pawns, &[]),
        50
    );
    // Two rooks of the 62 pawns of officers at the start (31 a side): the
    // phase is 10/62 of the way, the rest goes to the endgame values, per
    // side (White's rooks and pawns 350 more, Black's pawns 100).
    let rooks = "4k3/pp6/8/8/8/8/PPP5/R3K2R w - - 0 1";
    let endgame = 256 - 10 * 256 / 62;
    let expected = 350 * endgame / 256 - 100 * endgame / 256;
    assert_eq!(
        with_endgame_values(rooks, &raised) - with_endgame_values(rooks, &[]),
        expected
    );
    // Without endgame values nothing moves: the values stand alone.
    let evaluator = Evaluator::new(&common::variant("chess"));
    let rook = kind(&common::variant("chess"), "rook");
    assert_eq!(evaluator.endgame_value(rook), evaluator.value(rook));
}

/// White's evaluation of `fen` in chess with the square tables `tables`
/// (piece, middlegame, endgame: one bonus on one cell each).
fn with_square_bonus(fen: &str, tables: &[(&str, usize, i32, i32)]) -> i32 {
    let mut variant = common::variant("chess");
    for &(piece, cell, middlegame, endgame) in tables {
        let kind = kind(&variant, piece);
        let mut bonuses = varc_runtime::model::SquareBonuses {
            middlegame: vec![0; 64],
            endgame: vec![0; 64],
        };
        bonuses.middlegame[cell] = middlegame;
        bonuses.endgame[cell] = endgame;
        variant.pieces[kind].square_bonuses = Some(bonuses);
    }
    let position = parse_fen(&variant, fen).expect("a valid position");
    let rules = Interpreter::new(variant.clone()).expect("rules");
    Evaluator::new(&variant).evaluate_white(&rules, &rules.import(&position))
}

#[test]
fn square_bonuses_count_for_each_side_from_its_own_side_and_taper_with_the_officers() {
    // Cell 1 is b1 for White and b8 for Black: at the start both knights
    // stand there, and the bonuses cancel.
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let knight_b1 = [("knight", 1, 40, -60)];
    assert_eq!(
        with_square_bonus(start, &knight_b1),
        with_square_bonus(start, &[])
    );
    // Without Black's b8 knight, White's has its middlegame bonus (one
    // knight of 62 pawns of officers gone: 3/62 of the way to the endgame).
    let no_b8 = "r1bqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let endgame = 256 - 59 * 256 / 62;
    let tapered = 40 + (-60 - 40) * endgame / 256;
    assert_eq!(
        with_square_bonus(no_b8, &knight_b1) - with_square_bonus(no_b8, &[]),
        tapered
    );
    // A king's table counts too (royal kinds have one), at its endgame
    // value with no officer left; Black's king on e8 reads cell 4 as
    // White's on e1 does.
    let kings = "4k3/8/8/8/8/8/8/4K3 w - - 0 1";
    let white_only = "4k3/8/8/8/8/8/8/3K4 w - - 0 1";
    let king_e1 = [("king", 4, 15, 25)];
    assert_eq!(
        with_square_bonus(kings, &king_e1),
        with_square_bonus(kings, &[])
    );
    assert_eq!(
        with_square_bonus(white_only, &king_e1) - with_square_bonus(white_only, &[]),
        -25
    );
}

/// Chess with mobility tables `tables` (piece, middlegame, endgame).
fn with_mobility_tables(tables: &[(&str, &[i32], &[i32])]) -> Variant {
    let mut variant = common::variant("chess");
    for &(piece, middlegame, endgame) in tables {
        let kind = kind(&variant, piece);
        variant.pieces[kind].mobility_tables = Some(varc_runtime::model::MobilityTables {
            middlegame: middlegame.to_vec(),
            endgame: endgame.to_vec(),
        });
    }
    variant
}

#[test]
fn without_mobility_tables_the_term_is_linear_in_the_squares_reached() {
    let chess = common::variant("chess");
    let evaluator = Evaluator::new(&chess);
    let weight = chess.evaluation.mobility;
    for piece in ["knight", "bishop", "rook", "queen", "pawn"] {
        let kind = kind(&chess, piece);
        for count in [0, 1, 5, 13, 27, 255, 1000] {
            let linear = count.min(255) as i32 * 24 * weight / (evaluator.value(kind) + 200);
            assert_eq!(
                evaluator.mobility(kind, count),
                [linear, linear],
                "{piece}, {count} squares"
            );
        }
    }
    assert_eq!(evaluator.mobility(kind(&chess, "king"), 3), [0, 0]);
    // Tables that say what the linear term says change no evaluation.
    let linear: Vec<(&str, Vec<i32>)> = ["knight", "bishop", "rook", "queen", "pawn"]
        .into_iter()
        .map(|piece| {
            let kind = kind(&chess, piece);
            let table = (0..28).map(|n| evaluator.mobility(kind, n)[0]).collect();
            (piece, table)
        })
        .collect();
    let tables: Vec<(&str, &[i32], &[i32])> = linear
        .iter()
        .map(|(piece, table)| (*piece, &table[..], &table[..]))
        .collect();
    let same = with_mobility_tables(&tables);
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R b KQ - 0 8",
        "8/5k2/3r4/8/2N5/1B6/5PK1/8 w - - 0 50",
    ] {
        assert_eq!(
            common::white_evaluation(&same, fen),
            common::white_evaluation(&chess, fen),
            "{fen}"
        );
    }
}

#[test]
fn mobility_counts_no_square_an_enemy_pawn_could_capture_on() {
    // A knight table of 10 centipawns a square, the same in the endgame,
    // against a table of zeros: the difference is the knight's mobility.
    let tens: Vec<i32> = (0..9).map(|n| 10 * n).collect();
    let zeros = [0; 9];
    let counted = with_mobility_tables(&[("knight", &tens, &tens)]);
    let none = with_mobility_tables(&[("knight", &zeros, &zeros)]);
    let mobility =
        |fen: &str| common::white_evaluation(&counted, fen) - common::white_evaluation(&none, fen);
    // From d4 the knight reaches b3 b5 c2 c6 e2 e6 f3 f5, the pawns on c6
    // and e6 as captures. Pawns on c6 and e6 could capture on b5, d5 and
    // f5: b5 and f5 leave the count. On c7 and e7 they guard none of the
    // knight's squares, and on b6 and g6 they guard c5 and a5, h5 and f5.
    for (fen, count) in [
        ("4k3/8/2p1p3/8/3N4/8/8/4K3 w - - 0 1", 6),
        ("4k3/2p1p3/8/8/3N4/8/8/4K3 w - - 0 1", 8),
        ("4k3/8/1p4p1/8/3N4/8/8/4K3 w - - 0 1", 7),
    ] {
        assert_eq!(mobility(fen), 10 * count, "{fen}");
    }
    // An own pawn guards nothing against its own side: a white pawn on
    // c4 leaves the knight's squares as they were.
    assert_eq!(mobility("4k3/8/8/8/2PN4/8/8/4K3 w - - 0 1"), 80);
    // A pawn's own count is every square it reaches, guarded or not: the
    // pawn on d4 may push to d5, which the pawn on e6 could capture on
    // (the white king blocks the e6 pawn, which reaches nothing).
    let hundreds: Vec<i32> = (0..4).map(|n| 100 * n).collect();
    let pawn_counted = with_mobility_tables(&[("pawn", &hundreds, &hundreds)]);
    let pawn_none = with_mobility_tables(&[("pawn", &[0; 4], &[0; 4])]);
    let fen = "4k3/8/4p3/4K3/3P4/8/8/8 w - - 0 1";
    let pawn_mobility =
        common::white_evaluation(&pawn_counted, fen) - common::white_evaluation(&pawn_none, fen);
    assert_eq!(pawn_mobility, 100);
}

#[test]
fn mobility_tables_replace_the_linear_term_and_taper_with_the_officers() {
    let chess = common::variant("chess");
    let evaluator = Evaluator::new(&chess);
    let knight = kind(&chess, "knight");
    // The knight reaches 2 squares from a1 (b3, c2) and 8 from d4, which
    // reads the table's last entry.
    let table = with_mobility_tables(&[("knight", &[-50, -30, -10, 0, 10], &[-90, -60, -30])]);
    assert_eq!(Evaluator::new(&table).mobility(knight, 2), [-10, -30]);
    assert_eq!(Evaluator::new(&table).mobility(knight, 8), [10, -30]);
    let rules = Interpreter::new(chess.clone()).expect("rules");
    for (fen, count) in [
        ("4k3/8/8/8/8/8/8/N3K3 w - - 0 1", 2),
        ("4k3/8/8/8/3N4/8/8/4K3 w - - 0 1", 8),
    ] {
        let position = rules.import(&parse_fen(&chess, fen).expect("a valid position"));
        // One knight of 62 pawns of officers: nearly all endgame.
        let endgame = evaluator.endgame_weight(&position);
        let [middlegame, end] = Evaluator::new(&table).mobility(knight, count);
        let expected = middlegame + (end - middlegame) * endgame / 256;
        let linear = evaluator.mobility(knight, count)[0];
        assert_eq!(
            common::white_evaluation(&table, fen) - common::white_evaluation(&chess, fen),
            expected - linear,
            "{fen}"
        );
        // Black's knight reads the same table, for Black.
        let black = fen.replace('N', "n");
        assert_eq!(
            common::white_evaluation(&table, &black) - common::white_evaluation(&chess, &black),
            linear - expected,
            "{black}"
        );
    }
    // Every officer on the board: the middlegame table alone. Both sides'
    // knights on b1/b8 and g1/g8 reach 2 squares each, and cancel; without
    // Black's b8 knight (3 of 62 pawns gone) White's b1 knight counts the
    // middlegame entry, tapered by 3/62 toward the endgame one.
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    assert_eq!(
        common::white_evaluation(&table, start) - common::white_evaluation(&chess, start),
        0
    );
    let no_b8 = "r1bqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let endgame = 256 - 59 * 256 / 62;
    let expected = -10 + (-30 - -10) * endgame / 256;
    let linear = evaluator.mobility(knight, 2)[0];
    assert_eq!(
        common::white_evaluation(&table, no_b8) - common::white_evaluation(&chess, no_b8),
        expected - linear
    );
}

#[test]
fn a_safe_pawn_step_that_would_attack_pieces_counts_them() {
    let chess = common::variant("chess");
    let pushes = |fen: &str| term_at(&chess, fen, "pawn-push", 10);
    // d3-d4 would attack the knight on c5 and the rook on e5.
    assert_eq!(pushes("7k/8/8/2n1r3/8/3P4/8/4K3 w - - 0 1"), 20);
    // Not with the queen on d8 attacking d4 and nothing defending it...
    assert_eq!(pushes("3q3k/8/8/2n1r3/8/3P4/8/4K3 w - - 0 1"), 0);
    // ...but again once the queen on a4 defends it.
    assert_eq!(pushes("3q3k/8/8/2n1r3/Q7/3P4/8/4K3 w - - 0 1"), 20);
    // A pawn on d4 would be attacked by the pawn on c5: no safe step.
    assert_eq!(pushes("7k/8/8/2p1r3/8/3P4/8/4K3 w - - 0 1"), 0);
    // Black's pawns step down the board.
    assert_eq!(pushes("7k/8/3p4/8/2N1R3/8/8/4K3 b - - 0 1"), -20);
}

#[test]
fn hanging_pawns_are_attacked_and_undefended() {
    let chess = common::variant("chess");
    let hanging = chess.evaluation.hanging_pawn;
    assert!(hanging > 0);
    // Black's pawn on d5 is attacked by the king on e4 and undefended.
    assert_eq!(
        term(&chess, "4k3/8/8/3p4/4K3/8/8/8 w - - 0 1", "hanging-pawn"),
        hanging
    );
    // Once the pawn on e6 defends it, it does not hang.
    assert_eq!(
        term(&chess, "4k3/8/4p3/3p4/4K3/8/8/8 w - - 0 1", "hanging-pawn"),
        0
    );
    // White's pawns on a2 and h4 lie open to the rook on a8 and the
    // bishop on e7; Black's pawn on d5 to the king.
    assert_eq!(
        term(
            &chess,
            "r3k3/4b3/8/3p4/4K2P/8/P7/8 w - - 0 1",
            "hanging-pawn"
        ),
        -hanging
    );
}

#[test]
fn a_royal_piece_far_from_every_pawn_loses_in_the_endgame() {
    let chess = common::variant("chess");
    let pawnless = chess.evaluation.royal_pawnless;
    assert!(pawnless > 0);
    // No officer: the endgame's full share. White's king on a1 has no
    // pawn on the a or b file; Black's king on g8 has the pawn on h7.
    assert_eq!(
        term(&chess, "6k1/7p/8/8/8/8/8/K7 w - - 0 1", "royal-pawnless"),
        -pawnless
    );
    // A pawn of either side on the file beside the king is near enough.
    assert_eq!(
        term(&chess, "6k1/7p/8/8/8/8/1p6/K7 w - - 0 1", "royal-pawnless"),
        0
    );
    // With every officer on the board the term is gone: Black's king
    // has no pawn near it, but nothing is counted.
    assert_eq!(
        term(
            &chess,
            "rnbqkbnr/p7/8/8/8/8/4P3/RNBQKBNR w KQkq - 0 1",
            "royal-pawnless"
        ),
        0
    );
}

#[test]
fn weak_pieces_are_attacked_and_not_held_strongly() {
    let chess = common::variant("chess");
    let weak = chess.evaluation.weak_piece;
    assert!(weak > 0);
    // No officer: the endgame's full share. The king on e4 attacks
    // Black's pawn on d5, which only Black's king defends.
    assert_eq!(
        term(&chess, "8/8/4k3/3p4/4K3/8/8/8 w - - 0 1", "weak-piece"),
        weak
    );
    // A pawn-shaped defender holds it strongly.
    assert_eq!(
        term(&chess, "8/8/2pk4/3p4/4K3/8/8/8 w - - 0 1", "weak-piece"),
        0
    );
    // So do two defenders (the king and the rook on d8) against one
    // attacker...
    assert_eq!(
        term(&chess, "3r4/8/4k3/3p4/4K3/8/8/8 w - - 0 1", "weak-piece"),
        0
    );
    // ...but not against two (the rook on d1 joins the king).
    assert!(term(&chess, "3r4/8/4k3/3p4/4K3/8/8/3R4 w - - 0 1", "weak-piece") > 0);
}

#[test]
fn attacks_on_a_royal_flank_add_to_its_danger() {
    let chess = common::variant("chess");
    assert!(chess.evaluation.royal_flank > 0);
    // The queen on f3 attacks White's king's flank (files e to h, ranks 1
    // to 5) from inside it.
    assert!(
        term(
            &chess,
            "r5k1/5ppp/8/8/8/5q2/5PPP/R5K1 w - - 0 1",
            "royal-flank"
        ) < 0
    );
    // On a5 it attacks the a to d files and the fifth rank's e to h
    // squares: fewer of them.
    let far = term(
        &chess,
        "r5k1/5ppp/8/q7/8/8/5PPP/R5K1 w - - 0 1",
        "royal-flank",
    );
    let near = term(
        &chess,
        "r5k1/5ppp/8/8/8/5q2/5PPP/R5K1 w - - 0 1",
        "royal-flank",
    );
    assert!(near < far, "{near} < {far}");
    // Black's flank lies on ranks 8 to 4: the same attack mirrored costs
    // Black as much.
    assert_eq!(
        term(
            &chess,
            "r5k1/5ppp/5Q2/8/8/8/5PPP/R5K1 b - - 0 1",
            "royal-flank"
        ),
        -near
    );
}

/// What `pinned` at 50 centipawns adds to White's evaluation.
fn pin_term(variant: &Variant, fen: &str) -> i32 {
    term_at(variant, fen, "pinned", 50)
}

#[test]
fn an_officer_alone_between_its_royal_piece_and_a_rider_is_pinned() {
    let chess = common::variant("chess");
    // The knight on e2 stands alone between White's king and the rook on
    // e8, which rides the file.
    assert_eq!(pin_term(&chess, "k3r3/8/8/8/8/8/4N3/4K3 w - - 0 1"), -50);
    // On the diagonal, the bishop on a5 pins the knight on d2.
    assert_eq!(pin_term(&chess, "k7/8/8/b7/8/8/3N4/4K3 w - - 0 1"), -50);
    // Black's pinned knight counts for White.
    assert_eq!(pin_term(&chess, "4k3/4n3/8/8/8/8/8/K3R3 b - - 0 1"), 50);
    // Two pieces between: neither is pinned.
    assert_eq!(pin_term(&chess, "k3r3/8/8/8/8/4P3/4N3/4K3 w - - 0 1"), 0);
    // A pawn-shaped piece is not an officer: its pin is the structure's
    // business, not this term's.
    assert_eq!(pin_term(&chess, "k3r3/8/8/8/8/8/4P3/4K3 w - - 0 1"), 0);
    // A bishop does not ride the file, and a knight rides nothing.
    assert_eq!(pin_term(&chess, "k3b3/8/8/8/8/8/4N3/4K3 w - - 0 1"), 0);
    assert_eq!(pin_term(&chess, "k7/8/8/8/8/3n4/4N3/4K3 w - - 0 1"), 0);
    // An own piece behind the officer is no pinner.
    assert_eq!(pin_term(&chess, "k3R3/8/8/8/8/8/4N3/4K3 w - - 0 1"), 0);
}

#[test]
fn riders_of_other_variants_pin_along_their_own_lines() {
    // Capablanca's chancellor rides the rook's lines: it pins the
    // archbishop on f2 to the king on f1.
    let capablanca = common::variant("capablanca");
    assert_eq!(
        pin_term(&capablanca, "k4c4/10/10/10/10/10/5A4/5K4 w - - 0 1"),
        -50
    );
}

#[test]
fn squares_both_sides_attack_restrict_the_side_that_does_not_hold_them() {
    let chess = common::variant("chess");
    let restricted = |fen: &str| term_at(&chess, fen, "restricted", 4);
    // The rook on h1 and Black's king both attack h7 and h8, which neither
    // side holds strongly: two squares each, nothing on balance.
    assert_eq!(restricted("6k1/8/8/8/8/8/8/K6R w - - 0 1"), 0);
    // The pawn on g6 holds h5 strongly for Black: h5 counts for Black, not
    // for White, on top of h7 and h8 for both.
    assert_eq!(restricted("6k1/8/6p1/8/8/8/8/K6R w - - 0 1"), -4);
}
