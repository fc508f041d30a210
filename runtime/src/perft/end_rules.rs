//! Perft with the variant's ending rules (`varc perft ... --end-rules`): a
//! position where the game has ended has no moves.
//!
//! The tree is walked with the search's [`Tree`], which settles every node
//! as the game driver settles a move (history rules, counters and events,
//! plies since the last reset, repetitions along the line, awards, then the
//! automatic termination rules in file order). Where the game has ended,
//! the node is a leaf with no children, whatever moves the position has:
//! the convention of Fairy-Stockfish's Python binding, whose `legal_moves`
//! is empty once the variant's rules have ended the game (an extinction, a
//! bare king, a flag reached). The root has no history before it; clocks
//! play no part. Only the leaves' parents are settled: the last ply is
//! counted, not played.

use crate::rules::Rules;
use crate::search::tree::Tree;

/// The leaves `depth` plies below `position`, ended games having no moves.
pub fn perft_with_end_rules<R: Rules + Clone>(
    rules: &R,
    position: &R::Position,
    depth: u32,
) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut tree = Tree::new(rules.clone(), position.clone());
    walk(&mut tree, depth)
}

/// [`perft_with_end_rules`] of every depth from 1 to `depth` in one walk of
/// the tree: `result[d - 1]` is the count at depth `d`.
pub fn perft_counts_with_end_rules<R: Rules + Clone>(
    rules: &R,
    position: &R::Position,
    depth: u32,
) -> Vec<u64> {
    let mut counts = vec![0u64; depth as usize];
    let mut tree = Tree::new(rules.clone(), position.clone());
    count_walk(&mut tree, &mut counts);
    counts
}

/// [`perft_with_end_rules`] split by root move (empty when the game has
/// ended at the root or `depth` is 0), calling `progress(done, total)`
/// after each root move.
pub fn divide_with_end_rules<R: Rules + Clone>(
    rules: &R,
    position: &R::Position,
    depth: u32,
    mut progress: impl FnMut(usize, usize),
) -> Vec<(R::Move, u64)> {
    let mut tree = Tree::new(rules.clone(), position.clone());
    let moves = live_moves(&mut tree);
    if depth == 0 {
        return Vec::new();
    }
    let mut out = Vec::with_capacity(moves.len());
    for (i, mv) in moves.iter().enumerate() {
        tree.make(mv);
        let nodes = if depth == 1 {
            1
        } else {
            walk(&mut tree, depth - 1)
        };
        tree.unmake();
        out.push((*mv, nodes));
        progress(i + 1, moves.len());
    }
    out
}

/// The moves of the tree's current node: none once the game has ended.
fn live_moves<R: Rules + Clone>(tree: &mut Tree<R>) -> Vec<R::Move> {
    if tree.node().ending.is_some() {
        Vec::new()
    } else {
        tree.legal_moves().to_vec()
    }
}

fn walk<R: Rules + Clone>(tree: &mut Tree<R>, depth: u32) -> u64 {
    let moves = live_moves(tree);
    if depth <= 1 {
        return moves.len() as u64;
    }
    let mut nodes = 0;
    for mv in &moves {
        tree.make(mv);
        nodes += walk(tree, depth - 1);
        tree.unmake();
    }
    nodes
}

fn count_walk<R: Rules + Clone>(tree: &mut Tree<R>, counts: &mut [u64]) {
    let Some((count, deeper)) = counts.split_first_mut() else {
        return;
    };
    let moves = live_moves(tree);
    *count += moves.len() as u64;
    if deeper.is_empty() {
        return;
    }
    for mv in &moves {
        tree.make(mv);
        count_walk(tree, deeper);
        tree.unmake();
    }
}
