//! The structure terms that the pawn-shaped pieces' squares alone decide,
//! kept per placement of them (Stockfish's pawn hash table): a search
//! meets few pawn placements and evaluates each many times.
//!
//! An entry keeps the placement itself, not a digest of it, so a lookup
//! never returns another placement's terms: with or without the cache the
//! evaluation is the same number. The terms depend on the evaluation's
//! weights, so a cache belongs to one evaluator and is cleared when its
//! weights change.

use super::structure::{Placement, FILES};
use crate::model::PieceId;

/// Entries of a cache (a power of two).
const ENTRIES: usize = 1 << 12;

/// What one placement of the pawn-shaped pieces earns, whatever else
/// stands on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PawnTerms {
    /// The placement: `[colour][file]`, the ranks its pieces stand on.
    pub(super) placement: Placement,
    /// Per colour index: the doubled and isolated terms.
    pub(super) base: [i32; 2],
    /// Per colour index: the connected term.
    pub(super) connected: [i32; 2],
    /// `[colour][file]`: the ranks of the passed pieces, those that can
    /// move now or not.
    pub(super) passed: Placement,
    /// Per colour index: the royal cover's sum of a royal piece of a kind
    /// on a square index, once one was asked for.
    pub(super) cover: [Option<(PieceId, usize, i32)>; 2],
}

impl PawnTerms {
    /// The terms of no pawn-shaped piece at all.
    pub(super) const EMPTY: PawnTerms = PawnTerms {
        placement: [[0; FILES]; 2],
        base: [0; 2],
        connected: [0; 2],
        passed: [[0; FILES]; 2],
        cover: [None; 2],
    };

    /// The cover sum kept for a royal piece of `kind` on the square index
    /// `square` of colour index `c`.
    pub(super) fn cover(&self, c: usize, kind: PieceId, square: usize) -> Option<i32> {
        match self.cover[c] {
            Some((k, s, sum)) if k == kind && s == square => Some(sum),
            _ => None,
        }
    }
}

/// The terms of the placements a search met, one entry per digest of a
/// placement (a newer placement replaces an older one).
#[derive(Clone, Debug)]
pub struct PawnCache {
    entries: Vec<PawnTerms>,
}

impl Default for PawnCache {
    fn default() -> Self {
        PawnCache::new()
    }
}

impl PawnCache {
    /// An empty cache. Every entry holds the terms of no pawn-shaped piece,
    /// which are right for the empty placement whatever the weights.
    pub fn new() -> PawnCache {
        PawnCache {
            entries: vec![PawnTerms::EMPTY; ENTRIES],
        }
    }

    /// Forgets every placement (the weights changed).
    pub fn clear(&mut self) {
        self.entries.fill(PawnTerms::EMPTY);
    }

    /// The terms kept for `placement`, if they are.
    pub(super) fn get(&self, placement: &Placement) -> Option<&PawnTerms> {
        let entry = &self.entries[slot(placement)];
        (entry.placement == *placement).then_some(entry)
    }

    /// Keeps `terms` for their placement.
    pub(super) fn put(&mut self, terms: &PawnTerms) {
        let index = slot(&terms.placement);
        self.entries[index] = *terms;
    }
}

/// The entry of `placement`: a multiplicative digest of its ranks.
fn slot(placement: &Placement) -> usize {
    let mut digest = 0u64;
    for (c, files) in placement.iter().enumerate() {
        for (chunk, ranks) in files.chunks_exact(4).enumerate() {
            let word = ranks
                .iter()
                .fold(0u64, |word, &rank| word << 16 | u64::from(rank));
            let salt = (c * FILES / 4 + chunk) as u64 + 1;
            digest = (digest ^ word.wrapping_mul(salt)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }
    (digest >> 52) as usize & (ENTRIES - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_placement_reads_back_only_its_own_terms() {
        let mut cache = PawnCache::new();
        let mut placement = [[0u16; FILES]; 2];
        placement[0][4] = 1 << 1;
        placement[1][3] = 1 << 6;
        assert_eq!(cache.get(&placement), None);
        let terms = PawnTerms {
            placement,
            base: [3, -4],
            ..PawnTerms::EMPTY
        };
        cache.put(&terms);
        assert_eq!(cache.get(&placement), Some(&terms));
        let mut other = placement;
        other[1][3] = 1 << 5;
        assert_eq!(cache.get(&other), None);
        cache.clear();
        assert_eq!(cache.get(&placement), None);
        assert_eq!(cache.get(&[[0; FILES]; 2]), Some(&PawnTerms::EMPTY));
    }
}
