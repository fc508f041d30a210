//! Move ordering: the hash move, then captures and promotions by MVV-LVA
//! (most valuable victim, least valuable attacker) and promotion gain plus
//! their capture history (how a capture by this kind on this square of
//! this victim fared: up when it cut a node off, down when it was tried
//! and another move did), then the killer moves of the ply, then the
//! countermove (the quiet move that last refuted the opponent's previous
//! move), then quiet moves by their history score (from-to history: how a
//! quiet move fared wherever it was tried, plus continuation history: how
//! it fared after the previous move and after the side's own move before
//! it, each named by side, kind and destination, see [`PieceTo`]; both
//! rise when the move cuts a node off and fall when another quiet move
//! does after it was tried), then the captures and promotions that lose
//! material by the exchange on their square ([`super::see`]; the search
//! demotes them as they come up).

use crate::board::Board;
use crate::eval::Evaluator;
use crate::model::{Color, PieceId, Variant};
use crate::rules::Rules;

pub(crate) const HASH_MOVE: i32 = 1 << 30;
const TACTICAL: i32 = 1 << 28;
const KILLER: i32 = 1 << 27;
/// Just after the killers, before every quiet move's history.
const COUNTERMOVE: i32 = KILLER - 1;
/// Continuation history entries stay within this many points either way:
/// each update moves an entry part of the way toward it (the "gravity" of
/// other engines), so that an entry follows recent cut-offs and no sum of
/// the two plies' entries can reach the countermove's score.
const CONTINUATION_LIMIT: i32 = 16_384;
/// History entries stay within this many points either way.
const HISTORY_LIMIT: i32 = 16_384;
/// The most entries the continuation history keeps: 8 MB. Chess needs
/// under a million; a variant with many kinds on a big board (16x16) would
/// need far more, and shares entries instead (the index wraps around).
const CONTINUATION_CAPACITY: usize = 1 << 22;
/// Capture history entries stay within this many points either way.
const CAPTURE_HISTORY_LIMIT: i32 = 16_384;
/// A capture's ordering score gets its capture history divided by this:
/// at most 4,096 points, about two and a half pawns' worth of MVV-LVA (a
/// pawn of value 1 is 1,600 points), enough to rank a capture that kept
/// failing after a lesser one that kept working, not enough to put a
/// pawn capture ahead of a free rook's. Twice the weight (a divisor of
/// 2) and half of it (8), both in the quiescence's order too, measured
/// worse in self-play.
const CAPTURE_HISTORY_DIVISOR: i32 = 4;
/// Below every quiet move: a capture or promotion that loses material by
/// the exchange on its square ([`super::see`]).
const LOSING_TACTICAL: i32 = -(1 << 26);
/// Value of a royal piece as a victim or an attacker, for ordering only.
const ROYAL_VALUE: i32 = 10_000;

/// A move as the continuation history and the countermoves name it: its
/// side, the kind that moved (or none: a drop) and its destination, as one
/// index below [`OrderingTables`]' count of sides x kinds x squares.
/// Computed the same way from [`Rules`] in every back end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PieceTo(usize);

/// What the ordering of a node knows of its place in the line: its ply and
/// the moves one and two plies before it (none at the root, after a null
/// move, or before the root).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlyContext {
    /// Plies from the root.
    pub ply: usize,
    /// The opponent's move that led here, then the side's own move before.
    pub previous: [Option<PieceTo>; 2],
}

/// The quiet moves a node tries before the rest of its quiet moves: the
/// ply's killers and the countermove of the previous move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Refutations<M> {
    /// The ply's killer moves, the most recent first.
    pub killers: [Option<M>; 2],
    /// The quiet move that last refuted the opponent's previous move.
    pub countermove: Option<M>,
}

/// Killer moves, countermoves, history and continuation history, kept
/// across the iterations of a search; `M` is the back end's move
/// ([`Rules::Move`]).
#[derive(Clone, Debug)]
pub struct OrderingTables<M> {
    killers: Vec<[Option<M>; 2]>,
    history: Vec<i32>,
    /// Per [`PieceTo`] of the previous move: the quiet move that last
    /// refuted it.
    countermoves: Vec<Option<M>>,
    /// `[PieceTo before][PieceTo]`, wrapped at [`CONTINUATION_CAPACITY`]:
    /// how a quiet move fared one ply after a move, or two. One table for
    /// both distances: the sides tell them apart (one ply back is the
    /// opponent's move, two plies back the side's own).
    continuation: Vec<i16>,
    /// `[PieceTo][captured kind, or the kinds' count for none]`: how a
    /// capture or promotion fared.
    capture_history: Vec<i16>,
    files: usize,
    squares: usize,
    /// The variant's kinds and one more: a move whose mover is not on the
    /// board (a drop).
    kinds: usize,
}

impl<M: Copy> OrderingTables<M> {
    /// Empty tables sized for `variant`'s kinds and board.
    pub fn new(variant: &Variant) -> OrderingTables<M> {
        let files = usize::from(variant.board.files.max(1));
        let squares = files * usize::from(variant.board.ranks.max(1));
        let kinds = variant.pieces.len() + 1;
        let piece_tos = 2 * kinds * squares;
        OrderingTables {
            killers: vec![[None; 2]; super::MAX_PLY + 1],
            history: vec![0; 2 * 256 * 256],
            countermoves: vec![None; piece_tos],
            continuation: vec![
                0;
                piece_tos
                    .saturating_mul(piece_tos)
                    .min(CONTINUATION_CAPACITY)
            ],
            capture_history: vec![0; piece_tos * kinds],
            files,
            squares,
            kinds,
        }
    }

    /// The [`PieceTo`] of `mv`, played by the side to move of `position`.
    pub fn piece_to<R: Rules<Move = M> + ?Sized>(
        &self,
        rules: &R,
        position: &R::Position,
        mv: &M,
    ) -> PieceTo {
        let color = position.side_to_move().index();
        let drop_kind = self.kinds - 1;
        let kind = rules
            .moving_kind(position, mv)
            .map_or(drop_kind, |kind| kind.min(drop_kind));
        let (_, to) = rules.move_squares(mv);
        let square = (usize::from(to.rank) * self.files + usize::from(to.file)) % self.squares;
        PieceTo((color * self.kinds + kind) * self.squares + square)
    }

    fn continuation_index(&self, before: PieceTo, current: PieceTo) -> usize {
        (before.0 * 2 * self.kinds * self.squares + current.0) % self.continuation.len()
    }

    /// The sum of `current`'s continuation history after each move of
    /// `previous`.
    pub fn continuation_score(&self, previous: &[Option<PieceTo>; 2], current: PieceTo) -> i32 {
        previous
            .iter()
            .flatten()
            .map(|&before| i32::from(self.continuation[self.continuation_index(before, current)]))
            .sum()
    }

    fn capture_index<R: Rules<Move = M> + ?Sized>(
        &self,
        rules: &R,
        position: &R::Position,
        mv: &M,
    ) -> usize {
        let victim = rules
            .captured_kind(position, mv)
            .map_or(self.kinds - 1, |kind| kind.min(self.kinds - 1));
        self.piece_to(rules, position, mv).0 * self.kinds + victim
    }

    /// The capture history of the capture or promotion `mv` in `position`.
    pub fn capture_score<R: Rules<Move = M> + ?Sized>(
        &self,
        rules: &R,
        position: &R::Position,
        mv: &M,
    ) -> i32 {
        i32::from(self.capture_history[self.capture_index(rules, position, mv)])
    }

    fn update_capture_history(&mut self, index: usize, bonus: i32) {
        let entry = i32::from(self.capture_history[index]);
        // Within ±16,384, so within an i16.
        self.capture_history[index] = gravity(entry, bonus, CAPTURE_HISTORY_LIMIT) as i16;
    }

    /// Moves a history entry by `bonus`, less the part of the entry that
    /// `bonus` is of the limit (so it never leaves ±[`HISTORY_LIMIT`]).
    fn update_history(&mut self, index: usize, bonus: i32) {
        self.history[index] = gravity(self.history[index], bonus, HISTORY_LIMIT);
    }

    /// The history score of the quiet move `mv` of `side`: how often it
    /// cut off nodes, less how often it failed where another did.
    pub fn history_score<R: Rules<Move = M> + ?Sized>(
        &self,
        rules: &R,
        side: Color,
        mv: &M,
    ) -> i32 {
        self.history[history_index(rules, side, mv)]
    }

    /// Moves the entry of `current` after `before` by `bonus`, less the
    /// part of the entry that `bonus` is of the limit (so it never leaves
    /// ±[`CONTINUATION_LIMIT`]).
    fn update_continuation(&mut self, before: PieceTo, current: PieceTo, bonus: i32) {
        let index = self.continuation_index(before, current);
        let entry = i32::from(self.continuation[index]);
        // Within ±16,384, so within an i16.
        self.continuation[index] = gravity(entry, bonus, CONTINUATION_LIMIT) as i16;
    }
}

/// `entry` moved by `bonus`, less the part of the entry that `bonus` is of
/// `limit`: it follows recent results and never leaves ±`limit`.
fn gravity(entry: i32, bonus: i32, limit: i32) -> i32 {
    (entry + bonus - entry * bonus.abs() / limit).clamp(-limit, limit)
}

/// What a cut-off `depth` plies deep adds to the histories of the move
/// that made it (and takes from those tried before it).
fn history_bonus(depth: i32) -> i32 {
    (depth * depth).min(400) * 16
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
    // A capture's history may take it below `TACTICAL`, never to the
    // killers.
    (TACTICAL - CAPTURE_HISTORY_LIMIT..HASH_MOVE).contains(&score)
}

/// The score of a tactical move of score `score` that loses material by
/// the exchange on its square: after the quiet moves, still in MVV-LVA
/// order among themselves.
pub fn losing_tactical_score(score: i32) -> i32 {
    LOSING_TACTICAL + (score - TACTICAL)
}

/// Whether `score` is a losing capture's or promotion's (from
/// [`losing_tactical_score`]). Quiet moves' scores may be negative too
/// (continuation history), but never this low.
pub fn is_losing_tactical_score(score: i32) -> bool {
    score < LOSING_TACTICAL / 2
}

impl<M: Copy + Eq> OrderingTables<M> {
    /// Forgets killers, countermoves and histories.
    pub fn clear(&mut self) {
        self.killers.iter_mut().for_each(|k| *k = [None; 2]);
        self.history.iter_mut().for_each(|h| *h = 0);
        self.countermoves.iter_mut().for_each(|c| *c = None);
        self.continuation.iter_mut().for_each(|c| *c = 0);
        self.capture_history.iter_mut().for_each(|c| *c = 0);
    }

    /// Halves the history scores (between searches).
    pub fn age(&mut self) {
        self.history.iter_mut().for_each(|h| *h /= 2);
        self.capture_history.iter_mut().for_each(|h| *h /= 2);
        self.killers.iter_mut().for_each(|k| *k = [None; 2]);
    }

    /// The killer moves of the node at `context`'s ply and the countermove
    /// of the move before it.
    pub fn refutations(&self, context: &PlyContext) -> Refutations<M> {
        Refutations {
            killers: self.killers.get(context.ply).copied().unwrap_or([None; 2]),
            countermove: context.previous[0].and_then(|before| self.countermoves[before.0]),
        }
    }

    /// The ordering score of `mv` if it ranks before the quiet moves: a
    /// capture or promotion (by [`tactical_score`]), one of the killers or
    /// the countermove ([`OrderingTables::refutations`]); `None` for a
    /// quiet move, ranked later by [`OrderingTables::quiet_score`]. Higher
    /// first.
    pub fn early_score<R: Rules<Move = M> + ?Sized>(
        &self,
        rules: &R,
        evaluator: &Evaluator,
        position: &R::Position,
        mv: &M,
        refutations: &Refutations<M>,
    ) -> Option<i32> {
        let tactical = tactical_score(rules, evaluator, position, mv);
        if tactical > 0 {
            return Some(self.capture_rank(rules, position, mv, tactical));
        }
        if refutations.killers[0] == Some(*mv) {
            return Some(KILLER + 1);
        }
        if refutations.killers[1] == Some(*mv) {
            return Some(KILLER);
        }
        if refutations.countermove == Some(*mv) {
            return Some(COUNTERMOVE);
        }
        None
    }

    /// The ordering score of the capture or promotion `mv` of tactical
    /// score `tactical` ([`tactical_score`], positive): above every quiet
    /// move, by MVV-LVA and its capture history.
    pub fn capture_rank<R: Rules<Move = M> + ?Sized>(
        &self,
        rules: &R,
        position: &R::Position,
        mv: &M,
        tactical: i32,
    ) -> i32 {
        TACTICAL + tactical + self.capture_score(rules, position, mv) / CAPTURE_HISTORY_DIVISOR
    }

    /// Records the node of `position`, `depth` plies deep, cut off by
    /// `best` if it is a capture or promotion (its capture history goes
    /// up), after the captures and promotions `failed` were searched there
    /// (theirs goes down), by the bonus of [`OrderingTables::reward_quiet`].
    pub fn reward_captures<R: Rules<Move = M> + ?Sized>(
        &mut self,
        rules: &R,
        position: &R::Position,
        best: Option<&M>,
        failed: &[M],
        depth: i32,
    ) {
        let bonus = history_bonus(depth);
        if let Some(best) = best {
            let index = self.capture_index(rules, position, best);
            self.update_capture_history(index, bonus);
        }
        for mv in failed {
            let index = self.capture_index(rules, position, mv);
            self.update_capture_history(index, -bonus);
        }
    }

    /// The ordering score of the quiet move `mv` of `side` (to move in
    /// `position`): its from-to history plus its continuation history
    /// after `previous` ([`PlyContext::previous`]), below every score of
    /// [`OrderingTables::early_score`] and above every losing capture's
    /// ([`losing_tactical_score`]). May be negative.
    pub fn quiet_score<R: Rules<Move = M> + ?Sized>(
        &self,
        rules: &R,
        position: &R::Position,
        side: Color,
        mv: &M,
        previous: &[Option<PieceTo>; 2],
    ) -> i32 {
        let history = self.history[history_index(rules, side, mv)];
        let continuation = if previous.iter().any(Option::is_some) {
            self.continuation_score(previous, self.piece_to(rules, position, mv))
        } else {
            0
        };
        (history + continuation).min(COUNTERMOVE - 1)
    }

    /// Records the quiet move `best` that cut off the node of `position` at
    /// `context`, `depth` plies deep, after the quiet moves `failed` were
    /// searched there: a killer of the ply, the countermove of the move
    /// before; from-to and continuation history up for `best` and down for
    /// each of `failed`, by `(depth²).min(400) * 16`.
    pub fn reward_quiet<R: Rules<Move = M> + ?Sized>(
        &mut self,
        rules: &R,
        position: &R::Position,
        best: &M,
        failed: &[M],
        depth: i32,
        context: &PlyContext,
    ) {
        if let Some(slot) = self.killers.get_mut(context.ply) {
            if slot[0] != Some(*best) {
                slot[1] = slot[0];
                slot[0] = Some(*best);
            }
        }
        let side = position.side_to_move();
        if let Some(before) = context.previous[0] {
            self.countermoves[before.0] = Some(*best);
        }
        let bonus = history_bonus(depth);
        self.update_history(history_index(rules, side, best), bonus);
        for mv in failed {
            self.update_history(history_index(rules, side, mv), -bonus);
        }
        let best = self.piece_to(rules, position, best);
        for before in context.previous.into_iter().flatten() {
            self.update_continuation(before, best, bonus);
        }
        for mv in failed {
            let failed = self.piece_to(rules, position, mv);
            for before in context.previous.into_iter().flatten() {
                self.update_continuation(before, failed, -bonus);
            }
        }
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
