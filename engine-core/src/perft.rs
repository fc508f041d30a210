//! Perft of a compiled variant: bulk counting at the last ply, history
//! rules with a stack of placement hashes along the path.

use crate::generate::{count_legal, legal_moves};
use crate::history::game_moves;
use crate::moves::Mv;
use crate::position::Pos;
use crate::variant::CompiledVariant;

/// The number of leaves `depth` plies below `pos`; `bulk`: count the last
/// ply's moves without making them. History rules apply as in a game that
/// starts at `pos`.
pub fn perft<V: CompiledVariant>(pos: &Pos<V>, depth: u32, bulk: bool) -> u64 {
    perft_with_history(pos, depth, bulk, &[])
}

/// [`perft`] with `past`, the placement hashes of the positions before
/// `pos` (oldest first), for the history rules.
pub fn perft_with_history<V: CompiledVariant>(
    pos: &Pos<V>,
    depth: u32,
    bulk: bool,
    past: &[u64],
) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut buffers: Vec<Vec<Mv>> = (0..depth).map(|_| Vec::with_capacity(256)).collect();
    if V::HISTORY_RULES.is_empty() {
        return perft_inner(pos, depth, bulk, &mut buffers);
    }
    let mut stack = past.to_vec();
    perft_history_inner(pos, depth, bulk, &mut buffers, &mut stack)
}

fn perft_inner<V: CompiledVariant>(
    pos: &Pos<V>,
    depth: u32,
    bulk: bool,
    buffers: &mut [Vec<Mv>],
) -> u64 {
    if depth == 1 && bulk {
        return count_legal(pos);
    }
    let Some((moves, rest)) = buffers.split_first_mut() else {
        return 1;
    };
    moves.clear();
    legal_moves(pos, moves);
    if depth == 1 {
        for mv in moves.iter() {
            let mut next = *pos;
            next.play(*mv);
            std::hint::black_box(&next);
        }
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|mv| {
            let mut next = *pos;
            next.play(*mv);
            perft_inner(&next, depth - 1, bulk, rest)
        })
        .sum()
}

/// Perft with a stack of placement hashes along the path.
fn perft_history_inner<V: CompiledVariant>(
    pos: &Pos<V>,
    depth: u32,
    bulk: bool,
    buffers: &mut [Vec<Mv>],
    stack: &mut Vec<u64>,
) -> u64 {
    let Some((moves, rest)) = buffers.split_first_mut() else {
        return 1;
    };
    moves.clear();
    game_moves(pos, moves, stack);
    if depth == 1 {
        if !bulk {
            for mv in moves.iter() {
                std::hint::black_box(pos.make(*mv));
            }
        }
        return moves.len() as u64;
    }
    stack.push(pos.placement_hash);
    let nodes = moves
        .iter()
        .map(|mv| perft_history_inner(&pos.make(*mv), depth - 1, bulk, rest, stack))
        .sum();
    stack.pop();
    nodes
}
