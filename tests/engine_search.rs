//! The search finds what the rules of each variant make best: mates in N,
//! PPC's stalemate win and a mate by a promoted piece's king step, king
//! captures under capture-the-king and Alternate Scoring, and it beats a
//! random mover.

mod common;

use std::sync::atomic::AtomicBool;
use varc::interp::Interpreter;
use varc_runtime::game::{Game, ResultKind};
use varc_runtime::model::Color;
use varc_runtime::notation::long_algebraic;
use varc_runtime::rules::Rules;
use varc_runtime::search::{Engine, Limits, Score, SearchResult};

fn search(game: &Game<Interpreter>, depth: u32) -> SearchResult {
    let mut engine = Engine::new(game.rules().variant());
    engine.search(
        game,
        &Limits::depth(depth),
        &AtomicBool::new(false),
        &mut |_| {},
    )
}

/// Searches `fen` of `variant` to `depth`; returns the best move in long
/// algebraic, its score, and the game after it.
fn best(variant: &str, fen: &str, depth: u32) -> (String, Score, Game<Interpreter>) {
    let mut game = Game::from_fen(common::rules(variant), fen).expect("puzzle FEN");
    let result = search(&game, depth);
    let mv = result.best.expect("a move");
    let text = long_algebraic(game.rules().variant(), &mv, game.legal_moves());
    game.play(&mv).expect("the engine's move is legal");
    (text, Score::of(result.value), game)
}

/// Plays the engine against itself from `fen` until the game ends (at most
/// `plies`); returns the game.
fn play_out(variant: &str, fen: &str, depth: u32, plies: usize) -> Game<Interpreter> {
    let mut game = Game::from_fen(common::rules(variant), fen).expect("puzzle FEN");
    let mut engine = Engine::new(game.rules().variant());
    for _ in 0..plies {
        if game.result().is_some() {
            break;
        }
        let result = engine.search(
            &game,
            &Limits::depth(depth),
            &AtomicBool::new(false),
            &mut |_| {},
        );
        let Some(mv) = result.best else { break };
        game.play(&mv).expect("legal");
    }
    game
}

#[test]
fn chess_c5_mate_in_one() {
    let (mv, score, game) = best("chess", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 3);
    assert_eq!(mv, "a1a8");
    assert_eq!(score, Score::Mate(1));
    assert_eq!(
        game.result().map(|r| r.kind),
        Some(ResultKind::Win(Color::White))
    );
}

#[test]
fn chess_c5_mate_in_two() {
    let (_, score, _) = best("chess", "k7/8/2K5/8/8/8/8/7R w - - 0 1", 5);
    assert_eq!(score, Score::Mate(2));
    let game = play_out("chess", "k7/8/2K5/8/8/8/8/7R w - - 0 1", 5, 4);
    assert_eq!(
        game.result().map(|r| r.kind),
        Some(ResultKind::Win(Color::White))
    );
}

#[test]
fn ppc_p5_stalemate_win_in_one() {
    // The same position in PPC: stalemating wins (P5).
    let (mv, score, game) = best("ppc", "k7/2K5/8/8/3N4/8/8/8 w - - 0 1", 3);
    assert_eq!(score, Score::Mate(1), "{mv}");
    let result = game.result().expect("the game ends");
    assert_eq!(result.kind, ResultKind::Win(Color::White));
    assert_eq!(result.reason, "stalemate wins");
    assert_eq!(result.scores, [2.0, 0.0]);
}

#[test]
fn ppc_p3_mate_by_rooking_king_step() {
    // R'h6-g7 is a diagonal step: only the promoted rook's king step mates
    // (Black's a-pawn keeps f6-f7 from stalemating, which would win too).
    let (mv, score, game) = best("ppc", "7k/p6p/5P1R'/8/8/8/8/5K2 w - - 0 1", 3);
    assert_eq!(mv, "h6g7");
    assert_eq!(score, Score::Mate(1));
    let result = game.result().expect("mate");
    assert_eq!(result.kind, ResultKind::Win(Color::White));
    assert_eq!(result.reason, "checkmate");
}

#[test]
fn kingcapture_a1_captures_the_king() {
    let (mv, _, game) = best("kingcapture", "3k4/8/8/8/8/8/8/3QK3 w - - 0 1", 2);
    assert_eq!(mv, "d1d8");
    assert_eq!(
        game.result().map(|r| r.kind),
        Some(ResultKind::Win(Color::White))
    );
}

#[test]
fn alternate_scoring_a1_king_capture_scores_a_win() {
    // Black's king is en prise and Black has no bishop to crown (A2): the
    // capture wins a game (A1), and with nothing else left a Full Wipe (A11).
    let (mv, _, game) = best("alternate-scoring", "3k4/8/8/8/8/8/8/3QK3 w - - 0 1", 2);
    assert_eq!(mv, "d1d8");
    let result = game.result().expect("the game ends");
    assert!(result.wins[0] >= 1, "{result:?}");
    assert_eq!(result.wins[1], 0);
}

#[test]
fn alternate_scoring_a2_capture_with_succession_pending() {
    // Black has a bishop: the capture earns a win and Black crowns it.
    // (With White's king on e1 the crowned f2 bishop would take it back.)
    let (mv, _, game) = best("alternate-scoring", "3k4/8/8/8/8/8/5b2/K2Q4 w - - 0 1", 3);
    assert_eq!(mv, "d1d8");
    assert!(game.result().is_none());
    assert_eq!(game.awards().iter().map(|a| a.wins).sum::<u32>(), 1);
}

#[test]
fn chess99_mate_in_one() {
    let (mv, score, _) = best("chess99", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 3);
    assert_eq!(mv, "a1a8");
    assert_eq!(score, Score::Mate(1));
}

#[test]
fn capablanca_back_rank_mate_in_one() {
    let (mv, score, game) = best("capablanca", "6k3/5ppp2/10/10/10/10/10/R5K3 w - - 0 1", 3);
    assert_eq!(mv, "a1a8");
    assert_eq!(score, Score::Mate(1));
    assert_eq!(
        game.result().map(|r| r.kind),
        Some(ResultKind::Win(Color::White))
    );
}

#[test]
fn losalamos_mate_in_one() {
    let (mv, score, _) = best("losalamos", "k5/6/1K4/6/6/5R w - - 0 1", 3);
    assert_eq!(mv, "f1f6");
    assert_eq!(score, Score::Mate(1));
}

#[test]
fn ppc_p2_mate_in_two_by_a_promoted_rook() {
    // 1. Kb6 Kb8 2. Rh8#: the rook enters Black's territory and promotes
    // (P2); the rooking mates along the rank.
    let fen = "k7/8/2K5/8/8/8/8/7R w - - 0 1";
    let (_, score, _) = best("ppc", fen, 5);
    assert_eq!(score, Score::Mate(2));
    let game = play_out("ppc", fen, 5, 4);
    let result = game.result().expect("the game ends");
    assert_eq!(
        result.kind,
        ResultKind::Win(Color::White),
        "{}",
        result.reason
    );
    assert!(game
        .steps()
        .iter()
        .any(|s| s.text.contains("R'") || s.text.contains("=R'")));
}
