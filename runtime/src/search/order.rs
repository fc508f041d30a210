//! Move ordering: the hash move, then captures and promotions by MVV-LVA
//! (most valuable victim, least valuable attacker) and promotion gain, then
//! the killer moves of the ply, then quiet moves by their history score.

use crate::board::Board;
use crate::eval::Evaluator;
use crate::model::{Color, Square};
use crate::moves::MoveKind;
use crate::rules::Rules;

const HASH_MOVE: i32 = 1 << 30;
const TACTICAL: i32 = 1 << 28;
const KILLER: i32 = 1 << 27;
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

fn piece_value(evaluator: &Evaluator, position: &impl Board, square: Square) -> i32 {
    position.occupant(square).map_or(0, |(kind, _)| {
        if evaluator.is_royal(kind) {
            ROYAL_VALUE
        } else {
            evaluator.value(kind)
        }
    })
}

/// The square whose piece `mv` would capture, before looking at the board:
/// the passed piece's en passant, none when castling or when the piece stays
/// put (a delayed promotion without follow-up), the destination otherwise.
fn victim_square<R: Rules + ?Sized>(rules: &R, mv: &R::Move) -> Option<Square> {
    let (from, to) = rules.move_squares(mv);
    match rules.move_kind(mv) {
        MoveKind::EnPassant { victim } => Some(victim),
        MoveKind::Castle { .. } => None,
        _ if to != from => Some(to),
        _ => None,
    }
}

/// The MVV-LVA and promotion score of a tactical move (0 for a quiet one).
pub fn tactical_score<R: Rules + ?Sized>(
    rules: &R,
    evaluator: &Evaluator,
    position: &R::Position,
    mv: &R::Move,
) -> i32 {
    let victim = victim_square(rules, mv)
        .filter(|s| {
            position
                .occupant(*s)
                .is_some_and(|(_, color)| color != position.side_to_move())
        })
        .map_or(0, |s| piece_value(evaluator, position, s));
    let (from, _) = rules.move_squares(mv);
    let attacker = piece_value(evaluator, position, from);
    let gain = rules.promotion(mv).map_or(0, |kind| {
        (evaluator.value(kind)
            - position
                .occupant(from)
                .map_or(0, |(kind, _)| evaluator.value(kind)))
        .max(0)
    });
    if victim == 0 && gain == 0 {
        return 0;
    }
    (victim + gain) * 16 - attacker / 16
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

    /// Ordering scores of `moves` at `ply`, higher first, in their order.
    pub fn scores<'a, R: Rules<Move = M> + ?Sized>(
        &'a self,
        rules: &'a R,
        evaluator: &'a Evaluator,
        position: &'a R::Position,
        moves: &'a [M],
        hash_move: Option<M>,
        ply: usize,
    ) -> impl Iterator<Item = i32> + 'a {
        let side = position.side_to_move();
        let killers = self.killers.get(ply).copied().unwrap_or([None; 2]);
        moves.iter().map(move |mv| {
            if Some(*mv) == hash_move {
                return HASH_MOVE;
            }
            let tactical = tactical_score(rules, evaluator, position, mv);
            if tactical > 0 {
                return TACTICAL + tactical;
            }
            if killers[0] == Some(*mv) {
                return KILLER + 1;
            }
            if killers[1] == Some(*mv) {
                return KILLER;
            }
            self.history[history_index(rules, side, mv)].min(KILLER - 1)
        })
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

/// Moves `moves[i..]`'s best-scored entry to `i` (selection sort, one
/// step); equal scores go by the moves' canonical `keys`
/// ([`Rules::canonical_key`]), not by the order a back end generated them
/// in, so that every back end searches the same tree.
pub fn pick_next<M>(moves: &mut [M], scores: &mut [i32], keys: &mut [u64], i: usize) {
    let mut best = i;
    for j in i + 1..moves.len() {
        if (scores[j], std::cmp::Reverse(keys[j])) > (scores[best], std::cmp::Reverse(keys[best])) {
            best = j;
        }
    }
    moves.swap(i, best);
    scores.swap(i, best);
    keys.swap(i, best);
}

/// The canonical keys of `moves` (see [`pick_next`]), into `keys`.
pub fn canonical_keys<R: Rules + ?Sized>(rules: &R, moves: &[R::Move], keys: &mut Vec<u64>) {
    keys.clear();
    keys.extend(moves.iter().map(|mv| rules.canonical_key(mv)));
}
