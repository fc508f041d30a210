//! The structure terms that the pawn-shaped pieces' squares alone decide,
//! kept per placement of them (Stockfish's pawn hash table): a search
//! meets few pawn placements and evaluates each many times.
//!
//! An entry is found by a 64-bit digest of the placement, as a
//! transposition table finds a position: two placements met in one search
//! share a digest about once in 2^64 lookups. The terms depend on the
//! evaluation's weights, so a cache belongs to one evaluator and is cleared
//! when its weights change.

use super::structure::{Placement, FILES};
use crate::model::PieceId;

/// Entries of a cache (a power of two): few, so that the cache stays in
/// the processor's nearer caches (1,024 entries ran faster than 4,096 in
/// chess).
const ENTRIES: usize = 1 << 10;

/// What one placement of the pawn-shaped pieces earns, whatever else
/// stands on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PawnTerms {
    /// The placement's digest ([`digest`]).
    pub(super) key: u64,
    /// Per colour index: the doubled and isolated terms.
    pub(super) base: [i32; 2],
    /// Per colour index: the connected term.
    pub(super) connected: [i32; 2],
    /// Per colour index: the royal cover's sum of a royal piece of one
    /// kind on one square, once one was asked for.
    pub(super) cover: [Cover; 2],
}

/// A royal piece's cover sum, kept with its kind and square index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Cover {
    kind: u16,
    square: u16,
    sum: i32,
}

impl Cover {
    const NONE: Cover = Cover {
        kind: u16::MAX,
        square: u16::MAX,
        sum: 0,
    };
}

impl PawnTerms {
    /// The terms of no pawn-shaped piece at all.
    pub(super) fn empty() -> PawnTerms {
        PawnTerms::of(digest(&[[0; FILES]; 2]))
    }

    /// Terms of the placement of digest `key` still to be worked out (all
    /// 0).
    pub(super) fn of(key: u64) -> PawnTerms {
        PawnTerms {
            key,
            base: [0; 2],
            connected: [0; 2],
            cover: [Cover::NONE; 2],
        }
    }

    /// The cover sum kept for a royal piece of `kind` on the square index
    /// `square` of colour index `c`.
    pub(super) fn cover(&self, c: usize, kind: PieceId, square: usize) -> Option<i32> {
        let cover = self.cover[c];
        (usize::from(cover.kind) == kind && usize::from(cover.square) == square)
            .then_some(cover.sum)
    }

    /// Keeps the cover sum of a royal piece of `kind` on the square index
    /// `square` of colour index `c` (a kind or square too large to keep is
    /// not kept).
    pub(super) fn keep_cover(&mut self, c: usize, kind: PieceId, square: usize, sum: i32) {
        if let (Ok(kind), Ok(square)) = (u16::try_from(kind), u16::try_from(square)) {
            if kind != u16::MAX {
                self.cover[c] = Cover { kind, square, sum };
            }
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
            entries: vec![PawnTerms::empty(); ENTRIES],
        }
    }

    /// Forgets every placement (the weights changed).
    pub fn clear(&mut self) {
        self.entries.fill(PawnTerms::empty());
    }

    /// The terms kept for the placement of digest `key`, if they are.
    pub(super) fn get(&self, key: u64) -> Option<&PawnTerms> {
        let entry = &self.entries[slot(key)];
        (entry.key == key).then_some(entry)
    }

    /// Keeps `terms` for their placement.
    pub(super) fn put(&mut self, terms: &PawnTerms) {
        self.entries[slot(terms.key)] = *terms;
    }
}

/// The entry of a placement of digest `key`.
fn slot(key: u64) -> usize {
    (key >> 54) as usize % ENTRIES
}

/// A 64-bit digest of `placement`.
pub(super) fn digest(placement: &Placement) -> u64 {
    let mut digest = 0x2545_F491_4F6C_DD1D_u64;
    for files in placement {
        for ranks in files.chunks_exact(4) {
            let word = ranks
                .iter()
                .fold(0u64, |word, &rank| word << 16 | u64::from(rank));
            digest = (digest ^ word).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            digest ^= digest >> 29;
        }
    }
    digest
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
        let key = digest(&placement);
        assert_eq!(cache.get(key), None);
        let mut terms = PawnTerms::of(key);
        terms.base = [3, -4];
        terms.keep_cover(1, 5, 100, -7);
        cache.put(&terms);
        assert_eq!(cache.get(key), Some(&terms));
        assert_eq!(terms.cover(1, 5, 100), Some(-7));
        assert_eq!(terms.cover(1, 5, 101), None);
        assert_eq!(terms.cover(0, 5, 100), None);
        let mut other = placement;
        other[1][3] = 1 << 5;
        assert_ne!(digest(&other), key);
        assert_eq!(cache.get(digest(&other)), None);
        cache.clear();
        assert_eq!(cache.get(key), None);
        let empty = digest(&[[0; FILES]; 2]);
        assert_eq!(cache.get(empty), Some(&PawnTerms::empty()));
    }
}
