//! History rules (P7's Illegal Repeated Check) on the compiled position,
//! with the placement hashes of the positions before it.

use crate::moves::{MoveKind, Mv, NO_KIND};
use crate::position::{code_of, Pos};
use crate::variant::CompiledVariant;

/// The placement hash after `mv`, without making it when it is a plain
/// move (history rules compare placements).
#[inline]
pub fn placement_after<V: CompiledVariant>(pos: &Pos<V>, mv: Mv) -> u64 {
    if mv.kind != MoveKind::Normal || mv.crowns() {
        return pos.make(mv).placement_hash;
    }
    let (from, to) = (mv.from as usize, mv.to as usize);
    let code = pos.code_at(from);
    let new_code = if mv.promotion != NO_KIND {
        code_of(mv.promotion as usize, pos.side())
    } else {
        code
    };
    let mut hash =
        pos.placement_hash ^ V::zobrist_piece(code, from) ^ V::zobrist_piece(new_code, to);
    let captured = pos.code_at(to);
    if captured != 0 && to != from {
        hash ^= V::zobrist_piece(captured, to);
    }
    hash
}

/// Removes from `moves` (the legal moves of `pos`) those the variant's
/// history rules forbid: a move that gives check and makes the placement
/// of exactly N plies before, given `past`, the placement hashes of the
/// positions before `pos` (oldest first). A rule "unless only such moves"
/// forbids nothing when it would forbid every move.
pub fn apply_history_rules<V: CompiledVariant>(pos: &Pos<V>, moves: &mut Vec<Mv>, past: &[u64]) {
    for rule in V::HISTORY_RULES {
        let earlier = match rule.plies_ago as usize {
            0 => continue,
            1 => pos.placement_hash,
            n => match past.len().checked_sub(n - 1).and_then(|i| past.get(i)) {
                Some(hash) => *hash,
                None => continue,
            },
        };
        let forbids = |mv: Mv| {
            placement_after(pos, mv) == earlier && pos.make(mv).royal_attacked(1 - pos.side())
        };
        let forbidden: Vec<bool> = moves.iter().map(|mv| forbids(*mv)).collect();
        if !forbidden.contains(&true)
            || (rule.unless_only_such_moves && !forbidden.contains(&false))
        {
            continue;
        }
        let mut index = 0;
        moves.retain(|_| {
            index += 1;
            !forbidden[index - 1]
        });
    }
}

/// The moves of `pos` as a game sees them: legal moves with the history
/// rules applied, `past` the placement hashes before `pos`.
pub fn game_moves<V: CompiledVariant>(pos: &Pos<V>, out: &mut Vec<Mv>, past: &[u64]) {
    crate::generate::legal_moves(pos, out);
    if !V::HISTORY_RULES.is_empty() {
        apply_history_rules(pos, out, past);
    }
}
