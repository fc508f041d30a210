//! Move ordering: the hash move, then captures and promotions by MVV-LVA
//! (most valuable victim, least valuable attacker) and promotion gain, then
//! the killer moves of the ply, then quiet moves by their history score.

use crate::eval::Evaluator;
use crate::model::Color;
use crate::moves::{Move, MoveKind};
use crate::position::Position;

const HASH_MOVE: i32 = 1 << 30;
const TACTICAL: i32 = 1 << 28;
const KILLER: i32 = 1 << 27;
/// Value of a royal piece as a victim or an attacker, for ordering only.
const ROYAL_VALUE: i32 = 10_000;

/// Killer moves and history scores, kept across the iterations of a search.
#[derive(Clone, Debug)]
pub struct OrderingTables {
    killers: Vec<[Option<Move>; 2]>,
    history: Vec<i32>,
}

impl Default for OrderingTables {
    fn default() -> Self {
        OrderingTables {
            killers: vec![[None; 2]; super::MAX_PLY + 1],
            history: vec![0; 2 * 256 * 256],
        }
    }
}

fn history_index(color: Color, mv: &Move) -> usize {
    (color.index() * 256 + mv.from.index()) * 256 + mv.to.index()
}

/// Whether `mv` is tactical: a capture, a promotion (delayed ones too).
pub fn is_tactical(position: &Position, mv: &Move) -> bool {
    mv.promotion.is_some() || mv.is_capture(position)
}

fn piece_value(evaluator: &Evaluator, position: &Position, square: crate::model::Square) -> i32 {
    position.piece_at(square).map_or(0, |p| {
        if p.is_royal() {
            ROYAL_VALUE
        } else {
            evaluator.value(p.kind())
        }
    })
}

/// The MVV-LVA and promotion score of a tactical move (0 for a quiet one).
pub fn tactical_score(evaluator: &Evaluator, position: &Position, mv: &Move) -> i32 {
    let victim_square = match mv.kind {
        MoveKind::EnPassant { victim } => Some(victim),
        MoveKind::Castle { .. } => None,
        _ if mv.to != mv.from => Some(mv.to),
        _ => None,
    };
    let victim = victim_square
        .filter(|s| {
            position
                .piece_at(*s)
                .is_some_and(|p| p.color() != position.side_to_move())
        })
        .map_or(0, |s| piece_value(evaluator, position, s));
    let attacker = piece_value(evaluator, position, mv.from);
    let gain = mv.promotion.map_or(0, |kind| {
        (evaluator.value(kind)
            - position
                .piece_at(mv.from)
                .map_or(0, |p| evaluator.value(p.kind())))
        .max(0)
    });
    if victim == 0 && gain == 0 {
        return 0;
    }
    (victim + gain) * 16 - attacker / 16
}

impl OrderingTables {
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

    /// Ordering scores of `moves` at `ply`, higher first.
    pub fn scores(
        &self,
        evaluator: &Evaluator,
        position: &Position,
        moves: &[Move],
        hash_move: Option<Move>,
        ply: usize,
    ) -> Vec<i32> {
        let side = position.side_to_move();
        let killers = self.killers.get(ply).copied().unwrap_or([None; 2]);
        moves
            .iter()
            .map(|mv| {
                if Some(*mv) == hash_move {
                    return HASH_MOVE;
                }
                let tactical = tactical_score(evaluator, position, mv);
                if tactical > 0 {
                    return TACTICAL + tactical;
                }
                if killers[0] == Some(*mv) {
                    return KILLER + 1;
                }
                if killers[1] == Some(*mv) {
                    return KILLER;
                }
                self.history[history_index(side, mv)].min(KILLER - 1)
            })
            .collect()
    }

    /// Records a quiet move that caused a cut-off at `ply`, `depth` plies deep.
    pub fn reward(&mut self, side: Color, mv: &Move, ply: usize, depth: i32) {
        if let Some(slot) = self.killers.get_mut(ply) {
            if slot[0] != Some(*mv) {
                slot[1] = slot[0];
                slot[0] = Some(*mv);
            }
        }
        let entry = &mut self.history[history_index(side, mv)];
        *entry = entry.saturating_add(depth * depth).min(KILLER / 2);
    }
}

/// Moves `moves[i..]`'s best-scored entry to `i` (selection sort, one step).
pub fn pick_next(moves: &mut [Move], scores: &mut [i32], i: usize) {
    let mut best = i;
    for j in i + 1..moves.len() {
        if scores[j] > scores[best] {
            best = j;
        }
    }
    moves.swap(i, best);
    scores.swap(i, best);
}
