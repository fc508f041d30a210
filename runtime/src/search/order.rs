//! Move ordering: the hash move, then captures and promotions by MVV-LVA
//! (most valuable victim, least valuable attacker) and promotion gain, then
//! the killer moves of the ply, then quiet moves by their history score,
//! then the captures and promotions that lose material by the exchange on
//! their square ([`super::see`]; the search demotes them as they come up).

use crate::eval::Evaluator;
use crate::model::{Color, PieceId};
use crate::rules::Rules;

pub(crate) const HASH_MOVE: i32 = 1 << 30;
const TACTICAL: i32 = 1 << 28;
const KILLER: i32 = 1 << 27;
/// Below every quiet move: a capture or promotion that loses material by
/// the exchange on its square ([`super::see`]).
const LOSING_TACTICAL: i32 = -(1 << 26);
/// Value of a royal piece as a victim or an attacker, for ordering only.
const ROYAL_VALUE: i32 = 10_000;

/// Killer moves and history scores, kept across the iterations of a search;
/// `M` is the back end's move ([`Rules::Move`]).
#[derive(Clone, Debug)]
pub struct OrderingTables<M> {
    killers: Vec<[Option<M>; 2]>,
    history: Vec<i32>,
}

impl<M: Copy> Default for OrderingTables<M> {
    fn default() -> Self {
        OrderingTables {
            killers: vec![[None; 2]; super::MAX_PLY + 1],
            history: vec![0; 2 * 256 * 256],
        }
    }
}

fn history_index<R: Rules + ?Sized>(rules: &R, color: Color, mv: &R::Move) -> usize {
    let (from, to) = rules.move_squares(mv);
    (color.index() * 256 + from.index()) * 256 + to.index()
}

/// Whether `mv` is tactical: a capture, a promotion (delayed ones too).
pub fn is_tactical<R: Rules + ?Sized>(rules: &R, position: &R::Position, mv: &R::Move) -> bool {
    rules.promotion(mv).is_some() || rules.is_capture(position, mv)
}

pub(crate) fn ordering_value(evaluator: &Evaluator, kind: PieceId) -> i32 {
    if evaluator.is_royal(kind) {
        ROYAL_VALUE
    } else {
        evaluator.value(kind)
    }
}

/// The MVV-LVA and promotion score of a tactical move (0 for a quiet one).
pub fn tactical_score<R: Rules + ?Sized>(
    rules: &R,
    evaluator: &Evaluator,
    position: &R::Position,
    mv: &R::Move,
) -> i32 {
    let victim = rules.captured_kind(position, mv);
    let promotion = rules.promotion(mv);
    if victim.is_none() && promotion.is_none() {
        return 0;
    }
    let victim = victim.map_or(0, |kind| ordering_value(evaluator, kind));
    let mover = rules.moving_kind(position, mv);
    let attacker = mover.map_or(0, |kind| ordering_value(evaluator, kind));
    let gain = promotion.map_or(0, |kind| {
        (evaluator.value(kind) - mover.map_or(0, |kind| evaluator.value(kind))).max(0)
    });
    if victim == 0 && gain == 0 {
        return 0;
    }
    (victim + gain) * 16 - attacker / 16
}

/// Whether `score` (from [`OrderingTables::early_score`]) is a capture's or a
/// promotion's, other than the hash move's.
pub fn is_tactical_score(score: i32) -> bool {
    (TACTICAL..HASH_MOVE).contains(&score)
}

/// The score of a tactical move of score `score` that loses material by
/// the exchange on its square: after the quiet moves, still in MVV-LVA
/// order among themselves.
pub fn losing_tactical_score(score: i32) -> i32 {
    LOSING_TACTICAL + (score - TACTICAL)
}

impl<M: Copy + Eq> OrderingTables<M> {
    /// Forgets killers and history.
    pub fn clear(&mut self) {
        self.killers.iter_mut().for_each(|k| *k = [None; 2]);
        self.history.iter_mut().for_each(|h| *h = 0);
    }

    /// Halves the history scores (between searches).
    pub fn age(&mut self) {
        self.history.iter_mut().for_each(|h| *h /= 2);
        self.killers.iter_mut().for_each(|k| *k = [None; 2]);
    }

    /// The killer moves of `ply`.
    pub fn killers(&self, ply: usize) -> [Option<M>; 2] {
        self.killers.get(ply).copied().unwrap_or([None; 2])
    }

    /// The ordering score of `mv` if it ranks before the quiet moves: a
    /// capture or promotion (by [`tactical_score`]) or one of `killers`
    /// (the ply's, [`OrderingTables::killers`]); `None` for a quiet move,
    /// ranked later by [`OrderingTables::quiet_score`]. Higher first.
    pub fn early_score<R: Rules<Move = M> + ?Sized>(
        &self,
        rules: &R,
        evaluator: &Evaluator,
        position: &R::Position,
        mv: &M,
        killers: [Option<M>; 2],
    ) -> Option<i32> {
        let tactical = tactical_score(rules, evaluator, position, mv);
        if tactical > 0 {
            return Some(TACTICAL + tactical);
        }
        if killers[0] == Some(*mv) {
            return Some(KILLER + 1);
        }
        if killers[1] == Some(*mv) {
            return Some(KILLER);
        }
        None
    }

    /// The ordering score of the quiet move `mv` of `side`: its history,
    /// below every score of [`OrderingTables::early_score`] and above every
    /// losing capture's ([`losing_tactical_score`]).
    pub fn quiet_score<R: Rules<Move = M> + ?Sized>(&self, rules: &R, side: Color, mv: &M) -> i32 {
        self.history[history_index(rules, side, mv)].min(KILLER - 1)
    }

    /// Records a quiet move that caused a cut-off at `ply`, `depth` plies deep.
    pub fn reward<R: Rules<Move = M> + ?Sized>(
        &mut self,
        rules: &R,
        side: Color,
        mv: &M,
        ply: usize,
        depth: i32,
    ) {
        if let Some(slot) = self.killers.get_mut(ply) {
            if slot[0] != Some(*mv) {
                slot[1] = slot[0];
                slot[0] = Some(*mv);
            }
        }
        let entry = &mut self.history[history_index(rules, side, mv)];
        *entry = entry.saturating_add(depth * depth).min(KILLER / 2);
    }
}

/// A move's place in the order: its `score` first, then, among equal
/// scores, its canonical key ([`Rules::canonical_key`]), lower first, so
/// that ties go by the moves themselves, not by the order a back end
/// generated them in, and every back end searches the same tree. One
/// number, so that picking the next move is one comparison per move.
pub fn rank<R: Rules + ?Sized>(rules: &R, mv: &R::Move, score: i32) -> i128 {
    (i128::from(score) << 64) | i128::from(u64::MAX - rules.canonical_key(mv))
}

/// Picks one at a time before the rest of a list is sorted at once: a node
/// whose first moves did not cut it off usually searches them all, and
/// picking costs n²/2 comparisons where a sort costs n log n.
const PICKS_BEFORE_SORT: usize = 3;

/// Moves `moves[i..]`'s best-ranked entry (see [`rank`]) to `i`; called
/// for `i` = 0, 1, 2, ... in turn. The first picks are selection sort
/// steps; after the first three the rest is sorted (through `scratch`),
/// and later calls find it in place. Ranks are distinct, so the order is
/// the same either way.
pub fn pick_next<M: Copy>(
    moves: &mut [M],
    ranks: &mut [i128],
    i: usize,
    scratch: &mut Vec<(i128, M)>,
) {
    let sorts = ranks.len() > PICKS_BEFORE_SORT + 2;
    if sorts && i > PICKS_BEFORE_SORT {
        return;
    }
    if sorts && i == PICKS_BEFORE_SORT {
        scratch.clear();
        scratch.extend(ranks[i..].iter().copied().zip(moves[i..].iter().copied()));
        scratch.sort_unstable_by_key(|&(rank, _)| std::cmp::Reverse(rank));
        for (k, &(rank, mv)) in scratch.iter().enumerate() {
            ranks[i + k] = rank;
            moves[i + k] = mv;
        }
        return;
    }
    let mut best = i;
    for j in i + 1..ranks.len() {
        if ranks[j] > ranks[best] {
            best = j;
        }
    }
    moves.swap(i, best);
    ranks.swap(i, best);
}

/// Gives `moves[i]` the lower rank `lower` and moves it down past the
/// moves ranked above it, so that a list sorted from `i` on (see
/// [`pick_next`]) stays sorted; the next `pick_next(.., i, ..)` then
/// finds the best of the rest either way.
pub fn demote<M>(moves: &mut [M], ranks: &mut [i128], i: usize, lower: i128) {
    ranks[i] = lower;
    let mut j = i;
    while j + 1 < ranks.len() && ranks[j + 1] > ranks[j] {
        moves.swap(j, j + 1);
        ranks.swap(j, j + 1);
        j += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Picking then sorting gives the order of picking alone (descending
    /// ranks), for every list length around the switch.
    #[test]
    fn picking_orders_by_rank_at_every_length() {
        let mut scratch = Vec::new();
        for len in 0..12usize {
            let mut ranks: Vec<i128> = (0..len as i128)
                .map(|r| (r * 7919) % 23 - 11 + (r << 70))
                .collect();
            ranks.reverse();
            ranks.rotate_left(len / 3);
            let mut moves: Vec<usize> = (0..len).collect();
            let original = ranks.clone();
            for i in 0..len {
                pick_next(&mut moves, &mut ranks, i, &mut scratch);
            }
            let mut expected = original.clone();
            expected.sort_unstable_by(|a, b| b.cmp(a));
            assert_eq!(ranks, expected, "length {len}");
            for (mv, rank) in moves.iter().zip(&ranks) {
                assert_eq!(original[*mv], *rank, "each move keeps its rank");
            }
        }
    }

    /// A move demoted while the list is being picked (a losing capture put
    /// after the quiet moves) comes up where its new rank puts it, before
    /// and after the switch to sorting.
    #[test]
    fn a_demoted_move_comes_up_in_its_new_place() {
        let mut scratch = Vec::new();
        for demote_at in 0..8usize {
            let mut ranks: Vec<i128> = (0..10).rev().map(|r| r * 10).collect();
            let mut moves: Vec<usize> = (0..10).collect();
            let mut order = Vec::new();
            let mut i = 0;
            let mut demoted = false;
            while i < moves.len() {
                pick_next(&mut moves, &mut ranks, i, &mut scratch);
                if i == demote_at && !demoted {
                    demoted = true;
                    demote(&mut moves, &mut ranks, i, 5);
                    continue;
                }
                order.push(moves[i]);
                i += 1;
            }
            let mut expected: Vec<usize> = (0..10).filter(|&m| m != demote_at).collect();
            expected.insert(8, demote_at);
            assert_eq!(order, expected, "demoted at {demote_at}");
        }
    }
}
