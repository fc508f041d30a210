//! A match runner for UCI engines (`cargo run --release -p varc-bench --bin
//! match`; `bench/strength.sh` runs the documented matches): games from a
//! file of openings, each opening played with both colours, the game kept
//! by varc's interpreter of the variant's rules ([`play`]), and the result
//! as a score, an Elo difference with its 95% interval and an optional
//! SPRT ([`stats`]).

pub mod play;
pub mod positions;
pub mod stats;
pub mod uci_engine;

use varc::interp::Interpreter;
use varc_runtime::game::Game;
use varc_runtime::search::tt::mix;
use varc_runtime::uci::line_text;

/// The openings of a file: one per line, moves in the variant's long
/// algebraic from its start position; `#` starts a comment, blank lines
/// are skipped.
pub fn read_openings(text: &str) -> Vec<Vec<String>> {
    text.lines()
        .map(|line| line.split('#').next().unwrap_or(""))
        .filter(|line| !line.trim().is_empty())
        .map(|line| line.split_whitespace().map(str::to_string).collect())
        .collect()
}

/// `count` openings of `plies` random legal moves each (fewer where the
/// game ends sooner: such an opening is drawn again), the same for the
/// same `seed`.
pub fn random_openings(
    rules: &Interpreter,
    count: usize,
    plies: usize,
    seed: u64,
) -> Result<Vec<Vec<String>>, String> {
    let mut random = mix(seed ^ 0x9e37_79b9_7f4a_7c15);
    let mut openings = Vec::with_capacity(count);
    // Each try may end early; a variant whose games always do gives up.
    for _ in 0..count.saturating_mul(20).max(20) {
        if openings.len() == count {
            break;
        }
        let mut game = Game::new(rules.clone()).map_err(|e| e.to_string())?;
        let mut moves = Vec::with_capacity(plies);
        while moves.len() < plies && game.result().is_none() {
            let legal = game.legal_moves();
            if legal.is_empty() {
                break;
            }
            random = mix(random);
            let mv = legal[(random % legal.len() as u64) as usize];
            moves.extend(line_text(&game, &[mv]));
            game.play(&mv).map_err(|e| e.to_string())?;
        }
        if moves.len() == plies && game.result().is_none() {
            openings.push(moves);
        }
    }
    Ok(openings)
}

#[cfg(test)]
mod tests {
    #[test]
    fn random_openings_are_legal_and_the_same_for_a_seed() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../variants/chess.rules");
        let variant = varc::load_variant(std::path::Path::new(path)).expect("chess loads");
        let rules = super::Interpreter::new(variant).expect("rules");
        let openings = super::random_openings(&rules, 6, 8, 3).expect("openings");
        assert_eq!(openings.len(), 6);
        for opening in &openings {
            assert_eq!(opening.len(), 8);
            let mut game = super::Game::new(rules.clone()).expect("game");
            for text in opening {
                game.play_text(text).expect("a legal move");
            }
        }
        assert_eq!(
            super::random_openings(&rules, 6, 8, 3),
            Ok(openings.clone())
        );
        assert_ne!(super::random_openings(&rules, 6, 8, 4), Ok(openings));
    }

    #[test]
    fn openings_skip_comments_and_blank_lines() {
        let openings = super::read_openings("# c\n\ne2e4 e7e5 # open\n d2d4\n");
        assert_eq!(openings, vec![vec!["e2e4", "e7e5"], vec!["d2d4"]]);
    }
}
