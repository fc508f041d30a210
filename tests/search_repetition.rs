//! The search values a line that returns to a position of its own (the
//! root or a later one, with no irreversible move between) as the
//! repetition rule's ending at its first return, since the side that
//! repeated can repeat again (`repetition_in_line`). Positions of the game
//! before the root count only as often as they occurred.

mod common;

use std::sync::atomic::AtomicBool;
use varc::interp::Interpreter;
use varc_runtime::game::Game;
use varc_runtime::notation::long_algebraic;
use varc_runtime::rules::Rules;
use varc_runtime::search::{Engine, Limits, SearchResult};

/// White has a queen against two rooks and a knight, and Black threatens
/// ...Rb1 mate: White's best is the perpetual check Qe8+ Kh7 Qh5+ Kg8.
const PERPETUAL: &str = "6k1/6p1/8/8/Q7/n7/rr3PPP/6K1 w - - 0 1";

fn search(game: &Game<Interpreter>, depth: u32, in_line: i32) -> SearchResult {
    let mut engine: Engine = Engine::new(game.rules().variant());
    engine
        .set_search_param("repetition_in_line", in_line)
        .expect("a search parameter");
    engine.search(
        game,
        &Limits::depth(depth),
        &AtomicBool::new(false),
        &mut |_| {},
    )
}

#[test]
fn a_perpetual_check_is_a_draw_at_its_first_return() {
    let game = Game::from_fen(common::rules("chess"), PERPETUAL).expect("FEN");
    let result = search(&game, 3, 1);
    assert_eq!(result.value, 0, "the perpetual is a draw");
    let best = result.best.expect("a move");
    assert_eq!(
        long_algebraic(game.rules().variant(), &best, game.legal_moves()),
        "a4e8"
    );
}

#[test]
fn counting_occurrences_alone_needs_the_third_to_see_the_perpetual() {
    // The same search counting only the occurrences: the line must come
    // back twice, beyond a third ply's horizon.
    let game = Game::from_fen(common::rules("chess"), PERPETUAL).expect("FEN");
    let result = search(&game, 3, 0);
    assert!(result.value < -50, "no draw seen: {}", result.value);
}

#[test]
fn a_position_of_the_game_before_the_root_counts_as_often_as_it_occurred() {
    // Black, a queen down, has one move, Kh7, into a position the game
    // had once before the root: its second occurrence, no threefold, and
    // not the search's own repetition.
    let mut game =
        Game::from_fen(common::rules("chess"), "7k/8/8/8/8/8/8/K5Q1 b - - 0 1").expect("FEN");
    for text in ["h8h7", "g1g2", "h7h8", "g2g1"] {
        game.play_text(text).expect("legal");
    }
    let result = search(&game, 2, 1);
    assert!(result.value < -500, "not a draw: {}", result.value);
}
