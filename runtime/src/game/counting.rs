//! Counting rules (`counting limit ...`, `counting starts for ...`;
//! Fairy-Stockfish's makruk and cambodian counting): one count of plies for
//! the game, with a limit, kept in the position's counter slots after the
//! declared counters (White's two last slots: the limit, then the plies;
//! see [`Variant::counter_slots`]). Both back ends keep them with the
//! rest of the counters, and the game and the search advance them after
//! every move with [`advance`].

use super::condition::Context;
use super::events::MoveEvents;
use crate::board::Board;
use crate::model::{Color, Condition, Variant};

/// The running count of `position`: its limit and its plies, both in
/// plies; `None` where no count runs (or the variant has no counting).
pub fn running(variant: &Variant, position: &impl Board) -> Option<(u32, u32)> {
    if !variant.counting.in_use() {
        return None;
    }
    let slots = position.counters(Color::White);
    let at = variant.counters.len();
    match (slots.get(at), slots.get(at + 1)) {
        (Some(&limit), Some(&plies)) if limit > 0 => Some((limit, plies)),
        _ => None,
    }
}

/// Sets the running count of `position` (a limit of 0: none runs). Does
/// nothing in a variant without counting.
pub fn set_running(variant: &Variant, position: &mut impl Board, limit: u32, plies: u32) {
    if !variant.counting.in_use() {
        return;
    }
    let at = variant.counters.len();
    let slots = position.counters_mut(Color::White);
    if let Some(slot) = slots.get_mut(at) {
        *slot = limit;
    }
    if let Some(slot) = slots.get_mut(at + 1) {
        *slot = if limit > 0 { plies } else { 0 };
    }
}

/// The count after a move with these `events` led to `position`: a
/// running count gains a ply, then each `counting starts` rule whose
/// condition holds (in file order, each reading what the ones before it
/// did) starts a count anew for the side it names, if that side may
/// count. The conditions read the position, the last move and the
/// count; the lowering refuses those that read more (`E0423`).
pub fn advance(variant: &Variant, position: &mut impl Board, events: &MoveEvents) {
    if !variant.counting.in_use() {
        return;
    }
    if let Some((limit, plies)) = running(variant, position) {
        set_running(variant, position, limit, plies.saturating_add(1));
    }
    for start in &variant.counting.starts {
        let (holds, counter) = {
            let context = context(variant, &*position, events);
            let holds = context.holds(&start.when);
            (holds, context.player(start.player))
        };
        if !holds {
            continue;
        }
        if let Some((limit, plies)) = limit_for(variant, &*position, events, counter) {
            set_running(variant, position, limit, plies);
        }
    }
}

/// The count that `side` would start now, as (limit, plies), both in
/// plies: the first limit clause that holds with `side` to move; `None`
/// where none does, or the one that does says `limit none`.
pub fn limit_for(
    variant: &Variant,
    position: &impl Board,
    events: &MoveEvents,
    side: Color,
) -> Option<(u32, u32)> {
    let context = context(variant, position, events);
    let other_side_counts = side != position.side_to_move();
    let clause = variant.counting.limits.iter().find(|clause| {
        clause.when.as_ref().is_none_or(|when| {
            if other_side_counts {
                context.holds(&when.with_sides_swapped())
            } else {
                context.holds(when)
            }
        })
    })?;
    let moves = clause.moves?;
    let plies = if clause.from_pieces {
        // The number of pieces on the board, in moves, as the counting
        // side's turn sees it: one ply less where it has just moved.
        let pieces = position.pieces().count() as u32;
        (2 * pieces).saturating_sub(u32::from(other_side_counts))
    } else {
        0
    };
    Some((moves.saturating_mul(2), plies))
}

fn context<'a, P: Board>(
    variant: &'a Variant,
    position: &'a P,
    events: &'a MoveEvents,
) -> Context<'a, P> {
    Context {
        variant,
        position,
        in_check: false,
        has_legal_move: true,
        repetitions: Default::default(),
        plies_since_reset: 0,
        last_move: Some(events),
        move_targets: &[],
        checking_kinds: &[],
        clock: None,
    }
}

/// Whether a condition reads only what a counting rule may read: the
/// material, the side to move, the last move, the counters, the count
/// and the placement (`E0430` refuses the others there).
pub fn readable_when_counting(condition: &Condition) -> bool {
    match condition {
        Condition::ToMove(_)
        | Condition::Material { .. }
        | Condition::OnlyRoyalsLeft
        | Condition::InsufficientMaterial(_)
        | Condition::Counter { .. }
        | Condition::LastMove(_)
        | Condition::Counting
        | Condition::CountingOverLimit
        | Condition::RoyalsFace
        | Condition::PointsLead { .. } => true,
        Condition::And(a, b) | Condition::Or(a, b) => {
            readable_when_counting(a) && readable_when_counting(b)
        }
        Condition::Not(a) => readable_when_counting(a),
        Condition::NoLegalMoves
        | Condition::CanMoveInto { .. }
        | Condition::InCheck
        | Condition::InCheckByOnly(_)
        | Condition::RoyalCaptured
        | Condition::Repetition { .. }
        | Condition::PliesSinceReset(_)
        | Condition::ClockBelow { .. } => false,
    }
}
