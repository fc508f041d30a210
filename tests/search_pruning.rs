//! The search's pruning rules stay where the variant's rules make them
//! safe: the null move is decided from the model (off without a check rule,
//! where having no move decides the game, with awards or history rules),
//! and where it is on, a zugzwang position is still solved (the per-node
//! guard and the verification search). Static exchange evaluation plays the
//! exchange out with the variant's own moves (leapers, riders, x-rays,
//! hoppers), and quiescence skips losing captures only where the model
//! allows it.

mod common;

use std::sync::atomic::AtomicBool;
use varc::interp::Interpreter;
use varc_runtime::game::Game;
use varc_runtime::model::Color;
use varc_runtime::moves::Move;
use varc_runtime::notation::long_algebraic;
use varc_runtime::rules::Rules;
use varc_runtime::search::pruning::{has_null_move_material, null_move_kinds, NullMovePolicy};
use varc_runtime::search::see::{exchange_value, exchange_values, loses_material, ExchangePolicy};
use varc_runtime::search::{Engine, Limits};
use varc_runtime::weights::WeightsFile;

fn policy(variant: &str) -> NullMovePolicy {
    NullMovePolicy::of(&common::variant(variant))
}

#[test]
fn null_move_is_on_where_stalemate_draws_and_a_check_rule_exists() {
    assert_eq!(policy("chess"), NullMovePolicy::Verified);
    assert_eq!(policy("capablanca"), NullMovePolicy::Verified);
    assert_eq!(policy("losalamos"), NullMovePolicy::Verified);
}

#[test]
fn null_move_is_off_without_a_check_rule() {
    assert_eq!(policy("kingcapture"), NullMovePolicy::Off("no check rule"));
    assert!(!policy("alternate-scoring").allowed());
}

#[test]
fn null_move_is_off_where_having_no_move_decides_the_game() {
    // PPC (P5): stalemate wins; and PPC's IRC is a history rule besides.
    assert!(!policy("ppc").allowed());
    // Without IRC, the stalemate rule alone turns the null move off.
    assert_eq!(
        policy("ppc-perft"),
        NullMovePolicy::Off("having no move decides the game")
    );
}

/// The game from `fen` and the move a search of `depth` plays there.
fn searched(variant: &str, fen: &str, depth: u32) -> (Game<Interpreter>, Move) {
    let game = Game::from_fen(common::rules(variant), fen).expect("FEN");
    let mut engine: Engine<_> = Engine::new(game.rules().variant());
    let mv = search_best(&mut engine, &game, depth);
    (game, mv)
}

/// The move `engine`'s search of `depth` plays in `game`.
fn search_best(engine: &mut Engine, game: &Game<Interpreter>, depth: u32) -> Move {
    let result = engine.search(
        game,
        &Limits::depth(depth),
        &AtomicBool::new(false),
        &mut |_| {},
    );
    result.best.expect("a move")
}

/// `mv` of `game`'s position in long algebraic notation.
fn text(game: &Game<Interpreter>, mv: &Move) -> String {
    long_algebraic(game.rules().variant(), mv, game.legal_moves())
}

fn best_move(variant: &str, fen: &str, depth: u32) -> String {
    let (game, mv) = searched(variant, fen, depth);
    text(&game, &mv)
}

fn game_after(variant: &str, fen: &str, depth: u32) -> Game<Interpreter> {
    let (mut game, mv) = searched(variant, fen, depth);
    game.play(&mv).expect("legal");
    game
}

#[test]
fn chess_zugzwang_is_found_with_the_null_move_on() {
    // The classic null-move test: 1.Rf1! leaves Black in zugzwang (the
    // rook must leave g1 or the king walks into ...Kxh2 lines that lose);
    // a null move at Black's nodes would claim Black is fine.
    let fen = "8/8/p1p5/1p5p/1P5p/8/PPP2K1p/4R1rk w - - 0 1";
    assert_eq!(best_move("chess", fen, 6), "e1f1");
}

/// Chess's weights file verifies a null move's cut only from depth 16
/// (`search null_verify_depth`) and reduces the null move more the
/// further the static value is above beta (`search null_reduction_eval`):
/// the zugzwang above is still solved by a search deep enough to verify
/// at the default depth, 7, and not at 16.
#[test]
fn chess_zugzwang_is_found_with_the_bundled_search_numbers() {
    let fen = "8/8/p1p5/1p5p/1P5p/8/PPP2K1p/4R1rk w - - 0 1";
    let mut variant = common::variant("chess");
    let bundled = std::fs::read_to_string(common::variants_dir().join("chess.weights"))
        .expect("the bundled chess weights");
    WeightsFile::parse(&bundled)
        .expect("a valid file")
        .apply(&mut variant)
        .expect("applies");
    let rules = Interpreter::new(variant).expect("the interpreter accepts chess");
    let game = Game::from_fen(rules, fen).expect("FEN");
    let mut engine: Engine = Engine::new(game.rules().variant());
    let params = engine.search_params();
    assert_eq!(
        (params.null_verify_depth, params.null_reduction_eval),
        (16, 200)
    );
    let mv = search_best(&mut engine, &game, 10);
    assert_eq!(text(&game, &mv), "e1f1");
}

#[test]
fn null_move_guard_needs_a_piece_other_than_royals_and_promoting_ones() {
    // Kings and pawns (where zugzwang lives): no null move for either side;
    // a knight lets its side try one.
    let variant = common::variant("chess");
    let kinds = null_move_kinds(&variant);
    let rules = common::rules("chess");
    let pawns = Game::from_fen(rules.clone(), "4k3/4p3/8/8/8/8/4P3/4K3 w - - 0 1").expect("FEN");
    assert!(!has_null_move_material(
        pawns.position(),
        Color::White,
        &kinds
    ));
    assert!(!has_null_move_material(
        pawns.position(),
        Color::Black,
        &kinds
    ));
    let knight = Game::from_fen(rules, "4k3/4p3/8/8/8/8/4P3/4K1N1 w - - 0 1").expect("FEN");
    assert!(has_null_move_material(
        knight.position(),
        Color::White,
        &kinds
    ));
    assert!(!has_null_move_material(
        knight.position(),
        Color::Black,
        &kinds
    ));
}

#[test]
fn kingcapture_a_king_under_attack_is_saved_whatever_the_material() {
    // No check rule: White's king is attacked by the rook and White is a
    // queen and a rook ahead. Pruning by the static value (far above beta)
    // must not hide that the king is lost unless it is saved now.
    assert_white_king_saved("4k3/8/8/8/4r3/8/8/Q3K2R w - - 0 1", 5);
}

/// A search of `depth` from `fen` in capture-the-king leaves White's king
/// unattacked.
fn assert_white_king_saved(fen: &str, depth: u32) {
    let game = game_after("kingcapture", fen, depth);
    assert!(
        !game.rules().royal_attacked(game.position(), Color::White),
        "the engine left its king to be captured"
    );
}

#[test]
fn exchange_pruning_is_on_where_a_check_rule_exists_and_no_win_is_awarded() {
    for name in ["chess", "capablanca", "losalamos", "ppc", "chess99"] {
        assert_eq!(
            ExchangePolicy::of(&common::variant(name)),
            ExchangePolicy::Prune,
            "{name}"
        );
    }
}

/// The exchange policy gates every use of the exchange to prune: losing
/// captures skipped in quiescence, moves that lose material beyond a
/// margin skipped at the last plies of the main search, and checks that
/// lose material left out of the check extension.
#[test]
fn exchange_pruning_is_off_without_a_check_rule_or_with_awards() {
    assert_eq!(
        ExchangePolicy::of(&common::variant("kingcapture")),
        ExchangePolicy::Off("no check rule")
    );
    assert!(!ExchangePolicy::of(&common::variant("alternate-scoring")).allowed());
    let engine: Engine = Engine::new(&common::variant("kingcapture"));
    assert!(!engine.exchange_policy().allowed());
}

/// The exchange value of the move `text` (long algebraic) from `fen`.
fn exchange(rules: Interpreter, fen: &str, text: &str) -> i32 {
    let game = Game::from_fen(rules, fen).expect("FEN");
    let variant = game.rules().variant().clone();
    let mv = game
        .legal_moves()
        .iter()
        .copied()
        .find(|mv| long_algebraic(&variant, mv, game.legal_moves()) == text)
        .unwrap_or_else(|| panic!("{text} is not legal in {fen}"));
    let evaluator = varc_runtime::eval::Evaluator::new(&variant);
    let values = exchange_values(&variant, &evaluator);
    let mut scratch = Vec::new();
    let value = exchange_value(game.rules(), &values, game.position(), &mv, &mut scratch);
    let losing = loses_material(game.rules(), &values, game.position(), &mv, &mut scratch);
    assert_eq!(
        losing,
        value < 0,
        "{text}: loses_material agrees with the value"
    );
    value
}

#[test]
fn exchange_values_of_chess_leapers_and_riders() {
    let chess = || common::rules("chess");
    // A queen takes a pawn a pawn defends: loses the queen for a pawn.
    assert_eq!(
        exchange(chess(), "4k3/8/3p4/4p3/8/8/8/4QK2 w - - 0 1", "e1e5"),
        100 - 900
    );
    // A knight takes an undefended pawn.
    assert_eq!(
        exchange(chess(), "4k3/8/8/4p3/8/5N2/8/4K3 w - - 0 1", "f3e5"),
        100
    );
    // A pawn takes a knight a pawn defends: a knight for a pawn.
    assert_eq!(
        exchange(chess(), "4k3/8/3p4/4n3/3P4/8/8/4K3 w - - 0 1", "d4e5"),
        300 - 100
    );
    // A rook takes a pawn defended by a rook, backed by a second rook
    // behind it (x-ray): the defender stops, the pawn is won.
    assert_eq!(
        exchange(chess(), "3rk3/8/8/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5"),
        100
    );
    // Without the second rook the same capture loses the exchange.
    assert_eq!(
        exchange(chess(), "3rk3/8/8/3p4/8/8/3R4/4K3 w - - 0 1", "d2d5"),
        100 - 500
    );
    // The king recaptures only where it would not be captured.
    assert_eq!(
        exchange(chess(), "8/8/8/3pk3/8/8/3R4/3RK3 w - - 0 1", "d2d5"),
        100
    );
    // A promotion onto a square the enemy guards: a pawn for nothing.
    assert_eq!(
        exchange(chess(), "3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8q").signum(),
        -1
    );
}

#[test]
fn exchange_values_see_hoppers() {
    // A cannon (rides to move, jumps one screen to capture) defends through
    // a screen, and is uncovered as a screen disappears.
    let dir = std::env::temp_dir().join(format!("varc-see-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::copy(
        common::variants_dir().join("chess.rules"),
        dir.join("chess.rules"),
    )
    .expect("chess.rules");
    let path = dir.join("cannons.rules");
    std::fs::write(
        &path,
        "variant cannons extends chess\n\
         piece cannon \"C\" value 4.5 moves move-only rook-ride + capture-only hop (0,1)\n",
    )
    .expect("rules file");
    let variant = varc::load_variant(&path).unwrap_or_else(|e| panic!("{}", e.render()));
    let rules = || Interpreter::new(variant.clone()).expect("interpreter");
    // The black cannon on d8 defends d5 over the screen on d7: a knight
    // takes the pawn and is lost.
    assert_eq!(
        exchange(rules(), "3ck3/3p4/8/3p4/8/4N3/8/4K3 w - - 0 1", "e3d5"),
        100 - 300
    );
    // No screen, no defence.
    assert_eq!(
        exchange(rules(), "3ck3/8/8/3p4/8/4N3/8/4K3 w - - 0 1", "e3d5"),
        100
    );
    // A white cannon on d1 backs the knight over its own pawn on d3: after
    // the pawn's recapture it takes back (a knight for two pawns, where
    // without it the knight goes for one).
    assert_eq!(
        exchange(rules(), "4k3/8/4p3/3p4/8/3PN3/8/3CK3 w - - 0 1", "e3d5"),
        -100
    );
    assert_eq!(
        exchange(rules(), "4k3/8/4p3/3p4/8/3PN3/8/4K3 w - - 0 1", "e3d5"),
        -200
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Late move pruning reaches depth 7 and futility reads the depth left
/// after a move's reduction: neither applies to a side whose king is
/// attacked, which matters most where there is no check rule (a move that
/// leaves the king attacked is legal and loses it). At depth 8 every node
/// of the line can prune, and the king is still saved.
#[test]
fn kingcapture_late_move_pruning_does_not_leave_the_king_to_be_taken() {
    // White is far ahead (a queen and a rook); Black's rook on e4 attacks
    // the king, and White's replies to every later attack on it are the
    // king's quiet moves, ordered after the captures.
    assert_white_king_saved("4k3/8/8/8/4r3/8/8/Q3K2R w - - 0 1", 8);
}

/// Singular extensions search at depth 6 and beyond: the other moves of a
/// node without its hash move, at the same ply, and may cut the node when
/// they reach beta too. They search real moves only, so the rules'
/// answers stand in the variants where pruning by a pass is off: the
/// capture-the-king position above at depth 9, and Piece Promotion Chess's
/// stalemate that wins (P5); in chess, the zugzwang above is searched at
/// depth 9 with them on.
#[test]
fn singular_extensions_keep_the_rules_answers_deep() {
    assert_white_king_saved("4k3/8/8/8/4r3/8/8/Q3K2R w - - 0 1", 9);
    let (game, mv) = searched("ppc", "k7/2K5/8/8/3N4/8/8/8 w - - 0 1", 8);
    let mut game = game;
    game.play(&mv).expect("legal");
    let result = game.result().expect("the stalemate ends the game");
    assert_eq!(result.reason, "stalemate wins");
}

/// The check extension is for checks that do not lose material by the
/// exchange, where the exchange policy allows it (Stockfish extends only
/// those). A sacrifice that mates is still found, a ply later: the queen's
/// check on g8 loses the queen, and the knight mates after the rook takes
/// it. The search finds it at depth 6 (at depth 5 it sees the longer mate
/// of the knight's checks); extending every check, at depth 5.
#[test]
fn a_mate_behind_a_check_that_loses_material_is_still_found() {
    let fen = "3r3k/6pp/7N/8/2Q5/8/8/6K1 w - - 0 1";
    assert_eq!(best_move("chess", fen, 6), "c4g8");
    let game = Game::from_fen(common::rules("chess"), fen).expect("FEN");
    let mut engine: Engine = Engine::new(game.rules().variant());
    engine
        .set_search_param("check_extension_safe", 0)
        .expect("a search parameter");
    let mv = search_best(&mut engine, &game, 5);
    assert_eq!(text(&game, &mv), "c4g8");
}
