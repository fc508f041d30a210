//! The search's pruning rules stay where the variant's rules make them
//! safe: the null move is decided from the model (off without a check rule,
//! where having no move decides the game, with awards or history rules),
//! and where it is on, a zugzwang position is still solved (the per-node
//! guard and the verification search).

mod common;

use std::sync::atomic::AtomicBool;
use varc::interp::Interpreter;
use varc_runtime::game::Game;
use varc_runtime::model::Color;
use varc_runtime::moves::Move;
use varc_runtime::notation::long_algebraic;
use varc_runtime::rules::Rules;
use varc_runtime::search::pruning::{has_null_move_material, null_move_kinds, NullMovePolicy};
use varc_runtime::search::{Engine, Limits};

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
    let result = engine.search(
        &game,
        &Limits::depth(depth),
        &AtomicBool::new(false),
        &mut |_| {},
    );
    let mv = result.best.expect("a move");
    (game, mv)
}

fn best_move(variant: &str, fen: &str, depth: u32) -> String {
    let (game, mv) = searched(variant, fen, depth);
    long_algebraic(game.rules().variant(), &mv, game.legal_moves())
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
    assert_eq!(best_move("chess", fen, 9), "e1f1");
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
    let fen = "4k3/8/8/8/4r3/8/8/Q3K2R w - - 0 1";
    let game = game_after("kingcapture", fen, 5);
    assert!(
        !game.rules().royal_attacked(game.position(), Color::White),
        "the engine left its king to be captured"
    );
}
