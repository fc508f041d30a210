//! The search's rules view ([`Tree`]) against the game layer ([`Game`]):
//! random games of every bundled variant played through both must agree on
//! the legal moves, the ending (kind and wins) and the claims at every ply.
//! This keeps the search's rule-awareness in step with the game driver.

mod common;

use varc_runtime::game::{Game, Status};
use varc_runtime::model::Color;
use varc_runtime::moves::Move;
use varc_runtime::search::tree::Tree;

fn sorted(moves: &[Move]) -> Vec<String> {
    let mut out: Vec<String> = moves.iter().map(|m| format!("{m:?}")).collect();
    out.sort();
    out
}

fn agree(name: &str, games: u64, max_plies: usize) {
    let rules = common::rules(name);
    let mut ended = 0;
    for seed in 0..games {
        let mut random = common::Random(seed * 7919 + 17);
        let mut game = Game::new(rules.clone()).expect("start position");
        let mut tree = Tree::from_game(&game);
        for ply in 0..max_plies {
            let tree_legal = tree.legal_moves().to_vec();
            let node = tree.node();
            match game.status() {
                Status::Ended(result) => {
                    let ending = node.ending.unwrap_or_else(|| {
                        panic!(
                            "{name} seed {seed} ply {ply}: game ended ({}) but the tree goes on",
                            result.reason
                        )
                    });
                    assert_eq!(
                        ending.kind, result.kind,
                        "{name} seed {seed} ply {ply}: {}",
                        result.reason
                    );
                    assert_eq!(
                        ending.wins, result.wins,
                        "{name} seed {seed} ply {ply}: {}",
                        result.reason
                    );
                    ended += 1;
                    break;
                }
                Status::Ongoing => {
                    assert!(
                        node.ending.is_none(),
                        "{name} seed {seed} ply {ply}: tree ended, game goes on"
                    );
                    assert_eq!(
                        node.has_legal_move,
                        !game.legal_moves().is_empty(),
                        "{name} seed {seed} ply {ply}: whether a legal move exists"
                    );
                    assert_eq!(
                        sorted(&tree_legal),
                        sorted(game.legal_moves()),
                        "{name} seed {seed} ply {ply}"
                    );
                    let claims: Vec<_> = game
                        .claimable()
                        .iter()
                        .map(|c| (c.result.kind, c.result.wins))
                        .collect();
                    let tree_claims: Vec<_> =
                        node.claims.iter().map(|e| (e.kind, e.wins)).collect();
                    assert_eq!(claims, tree_claims, "{name} seed {seed} ply {ply}: claims");
                }
            }
            let legal = game.legal_moves();
            // Prefer captures now and then, so that games reach endings.
            let captures: Vec<Move> = legal
                .iter()
                .filter(|m| m.is_capture(game.position()))
                .copied()
                .collect();
            let pool = if !captures.is_empty() && random.next().is_multiple_of(3) {
                captures
            } else {
                legal.to_vec()
            };
            let mv = pool[(random.next() % pool.len() as u64) as usize];
            game.play(&mv).expect("legal move");
            tree.make(&mv);
            assert_eq!(
                tree.position(),
                game.position(),
                "{name} seed {seed} ply {ply}: positions"
            );
        }
        // Taking every move back returns to the start.
        while tree.ply() > 0 {
            tree.unmake();
        }
        assert_eq!(tree.position().side_to_move(), Color::White);
    }
    // The random games must reach endings, or the test checks little.
    assert!(
        ended * 2 >= games,
        "{name}: only {ended} of {games} random games ended"
    );
}

#[test]
fn engine_tree_matches_game_chess() {
    agree("chess", 12, 600);
}

#[test]
fn engine_tree_matches_game_ppc() {
    agree("ppc", 12, 600);
}

#[test]
fn engine_tree_matches_game_kingcapture() {
    agree("kingcapture", 12, 600);
}

#[test]
fn engine_tree_matches_game_alternate_scoring() {
    agree("alternate-scoring", 12, 600);
}

#[test]
fn engine_tree_matches_game_chess99() {
    agree("chess99-mini", 12, 400);
    agree("chess99", 6, 600);
}

#[test]
fn engine_tree_matches_game_small_boards() {
    agree("losalamos", 10, 600);
    agree("capablanca", 4, 600);
}
