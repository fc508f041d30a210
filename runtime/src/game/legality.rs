//! Legality above move generation: history rules (P7's Illegal Repeated
//! Check), promotion options that depend on the game (A5's clock), and a
//! perft that sees the list the game sees.
//!
//! **How generation learns the clock (A5).** Back ends generate moves from
//! the position alone, so a promotion whose obligation is
//! `mandatory unless CONDITION` comes out mandatory (the condition reads
//! the clock, which a position does not have). The game adds the options:
//! for each generated promoting move whose rule's condition holds for the
//! mover now, the same move without promotion is added, if it is legal
//! under the check rule. A back end only spells that move
//! ([`Rules::without_promotion`]); the interpreter and compiled engines need
//! no clock.

use crate::board::Board;
use crate::model::{CheckRule, Condition, HistoryRule, HistoryRuleKind, Obligation, Variant};
use crate::moves::{Move, MoveKind};
use crate::rules::Rules;
use std::borrow::Borrow;

/// Where the position `plies_ago` plies before the position a move from
/// the current one leads to is: the current position itself, or one of
/// `past` (the positions before the current one, oldest first).
enum Earlier<'a, B> {
    Current,
    Past(&'a B),
}

fn earlier<B, P: Borrow<B>>(past: &[P], plies_ago: u32) -> Option<Earlier<'_, B>> {
    match plies_ago as usize {
        0 => None,
        1 => Some(Earlier::Current),
        n => past
            .len()
            .checked_sub(n - 1)
            .and_then(|i| past.get(i))
            .map(|p| Earlier::Past(p.borrow())),
    }
}

/// Whether `played` gives check and makes the placement of `earlier` (P7).
/// `position` is scratch space and is left as it was.
pub fn repeats_placement_with_check<R: Rules + ?Sized>(
    rules: &R,
    position: &mut R::Position,
    played: &R::Move,
    earlier: &R::Position,
) -> bool {
    let mv = rules.describe(played);
    // The moved piece must stand on its destination in the earlier placement.
    if mv.crown.is_none() {
        let Some((mover_kind, mover_color)) = position.occupant(mv.from) else {
            return false;
        };
        let kind = mv.promotion.unwrap_or(mover_kind);
        if earlier.occupant(mv.to) != Some((kind, mover_color)) {
            return false;
        }
    }
    let mover = position.side_to_move();
    let undo = rules.make_move(position, played);
    let repeats =
        position.same_placement(earlier) && rules.royal_attacked(position, mover.opponent());
    rules.unmake_move(position, played, &undo);
    repeats
}

/// Whether `rule` forbids `mv` (before its "unless only such moves" clause).
pub fn rule_forbids<R: Rules + ?Sized, P: Borrow<R::Position>>(
    rules: &R,
    rule: &HistoryRule,
    past: &[P],
    position: &mut R::Position,
    mv: &R::Move,
) -> bool {
    match rule.kind {
        HistoryRuleKind::RepeatedCheck { plies_ago } => match earlier(past, plies_ago) {
            None => false,
            Some(Earlier::Past(earlier)) => {
                repeats_placement_with_check(rules, position, mv, earlier)
            }
            Some(Earlier::Current) => {
                let current = position.clone();
                repeats_placement_with_check(rules, position, mv, &current)
            }
        },
    }
}

/// Removes from `moves` those the variant's history rules forbid, given the
/// positions before `position` (`past`, oldest first). A rule with "unless
/// only such moves" forbids nothing when it would forbid every move.
/// Returns, for each removed move, the rule that removed it.
pub fn apply_history_rules<'v, R: Rules + ?Sized, P: Borrow<R::Position>>(
    rules: &'v R,
    past: &[P],
    position: &mut R::Position,
    moves: &mut Vec<R::Move>,
) -> Vec<(R::Move, &'v HistoryRule)> {
    let mut removed = Vec::new();
    for rule in &rules.variant().legality.history_rules {
        let forbidden: Vec<bool> = moves
            .iter()
            .map(|mv| rule_forbids(rules, rule, past, position, mv))
            .collect();
        if !forbidden.iter().any(|f| *f) {
            continue;
        }
        if rule.unless_only_such_moves && forbidden.iter().all(|f| *f) {
            continue;
        }
        let mut kept = Vec::with_capacity(moves.len());
        for (mv, forbidden) in moves.iter().zip(forbidden) {
            if forbidden {
                removed.push((*mv, rule));
            } else {
                kept.push(*mv);
            }
        }
        *moves = kept;
    }
    removed
}

/// The promotion rule that applies to the piece on `mv.from` arriving on
/// `mv.to`: the first whose pieces hold it and whose zone holds the square.
fn promotion_rule<'v>(
    variant: &'v Variant,
    position: &impl Board,
    mv: &Move,
) -> Option<&'v crate::model::Promotion> {
    let (kind, color) = position.occupant(mv.from)?;
    let rule = variant.promotion_rule_for_move(kind, color, mv.from, mv.to)?;
    variant.promotions.get(rule)
}

/// Adds the unpromoted form of each promoting move whose rule is
/// `mandatory unless CONDITION` and whose condition holds now (see the
/// module documentation). `holds` evaluates a condition for the game.
pub fn add_promotion_options<R: Rules + ?Sized>(
    rules: &R,
    position: &R::Position,
    moves: &mut Vec<R::Move>,
    holds: &dyn Fn(&Condition) -> bool,
) {
    let variant = rules.variant();
    let mut extra = Vec::new();
    for promoting in moves.iter() {
        let mv = rules.describe(promoting);
        if mv.promotion.is_none()
            || !matches!(mv.kind, MoveKind::Normal | MoveKind::EnPassant { .. })
        {
            continue;
        }
        let plain = rules.without_promotion(promoting);
        if moves.contains(&plain) || extra.contains(&plain) {
            continue;
        }
        let Some(rule) = promotion_rule(variant, position, &mv) else {
            continue;
        };
        let Obligation::MandatoryUnless(condition) = &rule.obligation else {
            continue;
        };
        if !holds(condition) {
            continue;
        }
        if variant.legality.check_rule == CheckRule::RoyalMayNotBeAttacked {
            let after = rules.play(position, &plain);
            if rules.royal_attacked(&after, position.side_to_move()) {
                continue;
            }
        }
        extra.push(plain);
    }
    moves.extend(extra);
}

/// Perft over the move list the game sees: history rules applied, with
/// `past` the positions before the root (oldest first; empty for a game
/// that starts at the root). Without history rules it is
/// [`perft`](crate::perft::perft) itself.
pub fn perft_with_history<R: Rules + ?Sized, P: Borrow<R::Position>>(
    rules: &R,
    past: &[P],
    position: &R::Position,
    depth: u32,
) -> u64 {
    if rules.variant().legality.history_rules.is_empty() {
        return crate::perft::perft(rules, position, depth);
    }
    if depth == 0 {
        return 1;
    }
    let mut stack: Vec<R::Position> = past.iter().map(|p| p.borrow().clone()).collect();
    let mut scratch = position.clone();
    walk(rules, &mut stack, &mut scratch, depth)
}

fn walk<R: Rules + ?Sized>(
    rules: &R,
    stack: &mut Vec<R::Position>,
    position: &mut R::Position,
    depth: u32,
) -> u64 {
    let mut moves = Vec::new();
    rules.generate_legal(position, &mut moves);
    apply_history_rules(rules, stack, position, &mut moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut nodes = 0;
    for mv in &moves {
        stack.push(position.clone());
        let undo = rules.make_move(position, mv);
        nodes += walk(rules, stack, position, depth - 1);
        rules.unmake_move(position, mv, &undo);
        stack.pop();
    }
    nodes
}

/// [`perft_with_history`] split by root move, calling `progress(done,
/// total)` after each root move. Without history rules it is
/// [`divide_with_progress`](crate::perft::divide_with_progress) itself.
pub fn divide_with_history<R: Rules + ?Sized, P: Borrow<R::Position>>(
    rules: &R,
    past: &[P],
    position: &R::Position,
    depth: u32,
    mut progress: impl FnMut(usize, usize),
) -> Vec<(R::Move, u64)> {
    if rules.variant().legality.history_rules.is_empty() {
        return crate::perft::divide_with_progress(rules, position, depth, progress);
    }
    if depth == 0 {
        return Vec::new();
    }
    let mut stack: Vec<R::Position> = past.iter().map(|p| p.borrow().clone()).collect();
    let mut scratch = position.clone();
    let mut moves = Vec::new();
    rules.generate_legal(&mut scratch, &mut moves);
    apply_history_rules(rules, &stack, &mut scratch, &mut moves);
    let mut out = Vec::with_capacity(moves.len());
    for (i, mv) in moves.iter().enumerate() {
        stack.push(scratch.clone());
        let undo = rules.make_move(&mut scratch, mv);
        let nodes = if depth == 1 {
            1
        } else {
            walk(rules, &mut stack, &mut scratch, depth - 1)
        };
        rules.unmake_move(&mut scratch, mv, &undo);
        stack.pop();
        out.push((*mv, nodes));
        progress(i + 1, moves.len());
    }
    out
}
