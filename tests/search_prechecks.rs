//! The search tries each termination rule on a cheap precheck first
//! (`Precheck`, runtime/src/game/condition.rs): a rule whose precheck fails
//! is not evaluated. These tests hold the prechecks to their promise: on
//! positions of every bundled variant, under every mix of the facts a
//! condition reads, no condition holds where its precheck fails.

mod common;

use varc_runtime::fen::parse_fen;
use varc_runtime::game::condition::{Context, Precheck, Repetitions};
use varc_runtime::rules::Rules;

/// Positions along a deterministic line of play: at each ply the move at
/// a pseudo-random index of the legal list.
fn line_of_play<R: Rules>(rules: &R, plies: usize) -> Vec<R::Position> {
    let variant = rules.variant();
    let start = parse_fen(variant, &variant.start_fen).expect("the start position reads");
    let mut positions = Vec::new();
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut current = rules.import(&start);
    for _ in 0..plies {
        positions.push(current.clone());
        let moves = rules.legal_moves(&current);
        if moves.is_empty() {
            break;
        }
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let mv = moves[(seed % moves.len() as u64) as usize];
        current = rules.play(&current, &mv);
    }
    positions
}

#[test]
fn no_condition_holds_where_its_precheck_fails() {
    let mut checked = 0;
    for name in common::bundled_names() {
        let rules = common::rules(&name);
        let variant = rules.variant().clone();
        for position in line_of_play(&rules, 120) {
            for has_legal_move in [false, true] {
                for in_check in [false, true] {
                    for plies_since_reset in [0, 49, 50, 99, 100, 150] {
                        for (total, in_a_row) in [(1, 1), (2, 1), (3, 2), (3, 3), (5, 4)] {
                            let context = Context {
                                variant: &variant,
                                position: &position,
                                in_check,
                                has_legal_move,
                                repetitions: Repetitions { total, in_a_row },
                                plies_since_reset,
                                last_move: None,
                                move_targets: &[],
                                checking_kinds: &[],
                                clock: None,
                            };
                            for rule in &variant.terminations {
                                if context.holds(&rule.condition) {
                                    assert!(
                                        context.may_hold(Precheck::of(&rule.condition)),
                                        "{name}: {:?} holds but its precheck fails",
                                        rule.condition
                                    );
                                    checked += 1;
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(
        checked > 1000,
        "only {checked} holding conditions were checked"
    );
}
