//! Correction history: what the search found the static value to miss,
//! learnt per placement of some of the pieces and per side to move, and
//! added to the static value the next time a node with that placement is
//! evaluated.
//!
//! The evaluation misjudges some placements the same way wherever they
//! stand (a weak pawn its terms do not see, a blockade they overrate, a
//! piece shut out of play); the searches of nodes that share them agree
//! on it. After a node's search (not in check, its best move neither a
//! capture nor a promotion, its value no mate, no claim open to the side
//! to move), where its result says more than a bound on the wrong side of
//! the static value, the entries of its placements move toward the
//! difference between the result and the evaluation, by a share that
//! grows with the depth searched (up to a sixteenth of the way).
//!
//! Three tables, each with one entry per side to move and digest of a
//! placement:
//! - the pawn-shaped pieces of both sides (the kinds that move like pawns,
//!   [`crate::eval::Evaluator::guards`]; not used in a variant without
//!   them);
//! - White's other pieces;
//! - Black's other pieces.
//!
//! The correction is `correction` percent of the first table's entry plus
//! `correction_pieces` percent of the mean of the other two (search
//! parameters, 50 each by default), at most 128 centipawns either way.
//!
//! Measured at 20,000 nodes a move over 120 games each (seventeenth
//! session): the pawn table alone, against none, +29 Elo in chess and -6
//! in Capablanca; half the pawn table and half the others, against the
//! pawn table alone, +20 in chess and 0 in Capablanca.

use crate::board::Board;
use crate::model::{Color, SquareSet};

/// Entries per table and side to move.
const SLOTS: usize = 1 << 14;

/// The tables: the pawn-shaped pieces of both sides, White's other pieces,
/// Black's other pieces.
const TABLES: usize = 3;

/// An entry's fixed point: 1/`GRAIN` centipawn.
const GRAIN: i32 = 256;

/// The largest correction, in centipawns.
const LIMIT: i32 = 128;

/// The share of the latest difference in an entry grows with the depth
/// searched, up to `MAX_WEIGHT / WEIGHT_SCALE`.
const WEIGHT_SCALE: i32 = 256;
const MAX_WEIGHT: i32 = 16;

/// The entries of one position, one per table ([`CorrectionHistory::slots`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slots([Option<usize>; TABLES]);

/// The learnt corrections of one engine, kept from move to move.
#[derive(Clone, Debug)]
pub struct CorrectionHistory {
    /// The pawn-shaped kinds, bit per kind (0: the pawn table is not used).
    kinds: u64,
    /// `[table][side][slot]`, in 1/[`GRAIN`] centipawns.
    entries: Vec<i32>,
}

impl CorrectionHistory {
    /// An empty history over the structure of the kinds in `kinds`.
    pub fn new(kinds: u64) -> CorrectionHistory {
        CorrectionHistory {
            kinds,
            entries: vec![0; TABLES * 2 * SLOTS],
        }
    }

    /// Forgets everything learnt.
    pub fn clear(&mut self) {
        self.entries.fill(0);
    }

    /// The entries of `position` with its side to move.
    pub fn slots<B: Board + ?Sized>(&self, position: &B) -> Slots {
        let side = position.side_to_move().index();
        let slot = |table: usize, key: u64| (table * 2 + side) * SLOTS + (key >> 50) as usize;
        let pawns = (self.kinds != 0).then(|| {
            let key = mix(position.squares_of_kinds(Color::White, self.kinds), 0)
                ^ mix(position.squares_of_kinds(Color::Black, self.kinds), 1);
            slot(0, key)
        });
        let others = Color::ALL.map(|color| {
            let squares = position.squares_of_kinds(color, !self.kinds);
            slot(1 + color.index(), mix(squares, 2 + color.index() as u64))
        });
        Slots([pawns, Some(others[0]), Some(others[1])])
    }

    /// The correction of `slots`, in centipawns: `pawns` percent of the
    /// pawn table's entry and `pieces` percent of the mean of the other
    /// two.
    #[inline]
    pub fn correction(&self, slots: Slots, pawns: i32, pieces: i32) -> i32 {
        let read = |slot: Option<usize>| slot.map_or(0, |slot| self.entries[slot]);
        let [pawn_slot, white, black] = slots.0;
        let sum = read(pawn_slot) * pawns + (read(white) + read(black)) / 2 * pieces;
        sum / (100 * GRAIN)
    }

    /// Moves the entries of `slots` toward `difference` (the search's
    /// result less the static value, centipawns) by a share that grows
    /// with `depth`.
    pub fn update(&mut self, slots: Slots, difference: i32, depth: i32) {
        let weight = (depth + 1).clamp(1, MAX_WEIGHT);
        let target = difference.clamp(-LIMIT, LIMIT) * GRAIN;
        for slot in slots.0.into_iter().flatten() {
            let entry = &mut self.entries[slot];
            *entry = (*entry * (WEIGHT_SCALE - weight) + target * weight) / WEIGHT_SCALE;
        }
    }
}

/// A 64-bit digest of `squares`, different per `salt`.
fn mix(squares: SquareSet, salt: u64) -> u64 {
    let mut hash = 0x9E37_79B9_7F4A_7C15_u64.wrapping_mul(salt + 1);
    for word in squares.0 {
        hash = (hash ^ word).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        hash ^= hash >> 31;
    }
    hash
}

#[cfg(test)]
mod tests {
    use super::*;

    const SLOTS_OF_ONE: Slots = Slots([Some(3), Some(2 * SLOTS + 3), Some(4 * SLOTS + 3)]);

    #[test]
    fn an_entry_moves_toward_the_difference_and_stays_within_the_limit() {
        let mut history = CorrectionHistory::new(1);
        for _ in 0..200 {
            history.update(SLOTS_OF_ONE, 40, 20);
        }
        assert!((38..=40).contains(&history.correction(SLOTS_OF_ONE, 100, 0)));
        assert!((38..=40).contains(&history.correction(SLOTS_OF_ONE, 0, 100)));
        let half = history.correction(SLOTS_OF_ONE, 50, 0);
        assert!((half - history.correction(SLOTS_OF_ONE, 100, 0) / 2).abs() <= 1);
        for _ in 0..400 {
            history.update(SLOTS_OF_ONE, -10_000, 20);
        }
        assert!((-LIMIT..=-LIMIT + 2).contains(&history.correction(SLOTS_OF_ONE, 100, 0)));
        let other = Slots([Some(4), None, None]);
        assert_eq!(history.correction(other, 100, 100), 0);
        history.clear();
        assert_eq!(history.correction(SLOTS_OF_ONE, 100, 100), 0);
    }

    #[test]
    fn a_shallow_search_moves_the_entry_less_than_a_deep_one() {
        let mut shallow = CorrectionHistory::new(1);
        let mut deep = CorrectionHistory::new(1);
        shallow.update(SLOTS_OF_ONE, 100, 1);
        deep.update(SLOTS_OF_ONE, 100, 12);
        assert!(shallow.correction(SLOTS_OF_ONE, 100, 0) < deep.correction(SLOTS_OF_ONE, 100, 0));
    }
}
