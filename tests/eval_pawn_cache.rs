//! The pawn-shaped pieces' terms kept per placement
//! ([`varc_runtime::eval::PawnCache`]): the evaluation with the cache is the
//! evaluation without it, whether a placement is met for the first time or
//! read back, in random games of variants with pawn structure and royal
//! cover (chess with its bundled weights, Capablanca, Chess 99, Piece
//! Promotion Chess) and after the cache is cleared.

mod common;

use varc::interp::Interpreter;
use varc_runtime::eval::{Evaluator, PawnCache};
use varc_runtime::game::{Game, Status};
use varc_runtime::model::Variant;
use varc_runtime::weights::WeightsFile;

fn with_bundled_weights(name: &str) -> Variant {
    let mut variant = common::variant(name);
    let path = common::variants_dir().join(format!("{name}.weights"));
    if let Ok(text) = std::fs::read_to_string(&path) {
        let file = WeightsFile::parse(&text).expect("the bundled weights read");
        file.apply(&mut variant).expect("the bundled weights apply");
    }
    variant
}

/// Plays `games` random games of `name` and compares both evaluations at
/// every ply; returns how many positions were compared.
fn cached_evaluation_agrees(name: &str, games: u64, plies: usize) -> usize {
    let variant = with_bundled_weights(name);
    let rules = Interpreter::new(variant.clone()).expect("rules");
    let evaluator = Evaluator::new(&variant);
    let mut cache = PawnCache::new();
    let mut compared = 0;
    for seed in 0..games {
        let mut random = common::Random(seed * 104_729 + 3);
        let mut game = Game::new(rules.clone()).expect("start position");
        for ply in 0..plies {
            if !matches!(game.status(), Status::Ongoing) {
                break;
            }
            let position = game.position();
            let plain = evaluator.evaluate(&rules, position);
            // Twice: the first may fill the entry, the second reads it.
            for _ in 0..2 {
                let cached = evaluator.evaluate_cached(&rules, position, &mut cache);
                assert_eq!(cached, plain, "{name} game {seed} ply {ply}");
            }
            compared += 1;
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves[(random.next() % moves.len() as u64) as usize];
            game.play(&mv).expect("a legal move plays");
        }
        if seed % 3 == 2 {
            cache.clear();
        }
    }
    compared
}

#[test]
fn the_cache_changes_no_evaluation_in_chess() {
    assert!(cached_evaluation_agrees("chess", 12, 160) > 1000);
}

#[test]
fn the_cache_changes_no_evaluation_in_capablanca_chess99_and_ppc() {
    assert!(cached_evaluation_agrees("capablanca", 6, 120) > 400);
    assert!(cached_evaluation_agrees("chess99", 4, 120) > 200);
    assert!(cached_evaluation_agrees("ppc", 4, 120) > 200);
}
