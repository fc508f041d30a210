//! Fancy magic bitboards for rider components on boards of up to 64
//! squares, found by the generator and emitted as static tables.
//!
//! For each square the *mask* is the union of the component's rays without
//! their last square (a piece there blocks nothing further). Every subset of
//! the mask, multiplied by the square's magic and shifted, indexes the
//! square's slice of one attack table without harmful collisions. The search
//! is seeded, so a variant always gets the same tables.

use super::geometry::{Geometry, SplitMix};

/// One square's lookup parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MagicEntry {
    /// Relevant blockers.
    pub mask: u64,
    /// The multiplier.
    pub magic: u64,
    /// Right shift of the product (64 minus the index bits).
    pub shift: u32,
    /// Start of the square's slice of the attack table.
    pub offset: u32,
}

/// The magic lookup of one rider component.
#[derive(Clone, Debug)]
pub struct MagicTable {
    /// Per dense square (holes included, with an empty mask).
    pub entries: Vec<MagicEntry>,
    /// Attack sets, indexed by `offset + ((occupied & mask) * magic >> shift)`.
    pub attacks: Vec<u64>,
}

/// Longest search per square and index width before widening the index.
const TRIES: usize = 200_000;

/// The squares a ride by `directions` (at most `max` steps) reaches from
/// `square` when `occupied` holds the blockers (a blocker is reached).
fn ride_attacks(
    g: &Geometry,
    square: usize,
    directions: &[(i32, i32)],
    max: Option<u8>,
    occupied: u64,
) -> u64 {
    let mut out = 0u64;
    for &d in directions {
        for s in g.ray(square, d, max) {
            out |= 1 << s;
            if occupied >> s & 1 == 1 {
                break;
            }
        }
    }
    out
}

/// Finds magic lookups for a ride by `directions` (at most `max` steps) on
/// `g`, which must have at most 64 squares. `None` if some square resists
/// the search (the caller then keeps ray scans).
pub fn find(
    g: &Geometry,
    directions: &[(i32, i32)],
    max: Option<u8>,
    seed: u64,
) -> Option<MagicTable> {
    if g.squares > 64 {
        return None;
    }
    let mut rng = SplitMix(seed);
    let mut entries = Vec::with_capacity(g.squares);
    let mut attacks: Vec<u64> = Vec::new();
    let mut stamp: Vec<u32> = Vec::new();
    let mut used: Vec<u64> = Vec::new();
    let mut epoch = 0u32;
    for square in 0..g.squares {
        let mut mask = 0u64;
        if g.board.contains(square) {
            for &d in directions {
                let ray = g.ray(square, d, max);
                for s in ray.iter().take(ray.len().saturating_sub(1)) {
                    mask |= 1 << s;
                }
            }
        }
        // Every subset of the mask (carry-rippler) and its attacks.
        let mut occupancies = Vec::new();
        let mut subset = 0u64;
        loop {
            occupancies.push(subset);
            subset = subset.wrapping_sub(mask) & mask;
            if subset == 0 {
                break;
            }
        }
        let reach: Vec<u64> = occupancies
            .iter()
            .map(|o| {
                if g.board.contains(square) {
                    ride_attacks(g, square, directions, max, *o)
                } else {
                    0
                }
            })
            .collect();
        let offset = u32::try_from(attacks.len()).ok()?;
        if mask == 0 {
            entries.push(MagicEntry {
                mask: 0,
                magic: 0,
                shift: 63,
                offset,
            });
            attacks.push(reach[0]);
            continue;
        }
        let mut bits = mask.count_ones();
        let found = 'search: loop {
            if bits > mask.count_ones() + 3 || bits > 24 {
                return None;
            }
            let size = 1usize << bits;
            if stamp.len() < size {
                stamp.resize(size, 0);
                used.resize(size, 0);
            }
            let shift = 64 - bits;
            for _ in 0..TRIES {
                let magic = rng.next_u64() & rng.next_u64() & rng.next_u64();
                if bits >= 8 && (mask.wrapping_mul(magic) >> 56).count_ones() < 6 {
                    continue;
                }
                epoch = epoch.wrapping_add(1);
                if epoch == 0 {
                    stamp.iter_mut().for_each(|s| *s = 0);
                    epoch = 1;
                }
                let mut ok = true;
                for (o, a) in occupancies.iter().zip(&reach) {
                    let index = (o.wrapping_mul(magic) >> shift) as usize;
                    if stamp[index] != epoch {
                        stamp[index] = epoch;
                        used[index] = *a;
                    } else if used[index] != *a {
                        ok = false;
                        break;
                    }
                }
                if ok {
                    break 'search (magic, shift, size);
                }
            }
            bits += 1;
        };
        let (magic, shift, size) = found;
        let mut slice = vec![0u64; size];
        for (o, a) in occupancies.iter().zip(&reach) {
            slice[(o.wrapping_mul(magic) >> shift) as usize] = *a;
        }
        attacks.extend(slice);
        entries.push(MagicEntry {
            mask,
            magic,
            shift,
            offset,
        });
    }
    Some(MagicTable { entries, attacks })
}

#[cfg(test)]
mod tests {
    use super::*;
    use varc_runtime::model::Variant;

    fn chess_geometry() -> Geometry {
        let variant: Variant = crate::load_variant(std::path::Path::new(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/variants/chess.rules"
        )))
        .unwrap_or_else(|e| panic!("{}", e.render()));
        Geometry::new(&variant)
    }

    #[test]
    fn rook_magics_agree_with_ray_scans() {
        let g = chess_geometry();
        let dirs = [(-1, 0), (0, -1), (0, 1), (1, 0)];
        let table = find(&g, &dirs, None, 1).expect("magics");
        let mut rng = SplitMix(7);
        for square in 0..64 {
            let e = table.entries[square];
            for _ in 0..200 {
                let occupied = rng.next_u64() & rng.next_u64();
                let index = e.offset as usize
                    + ((occupied & e.mask).wrapping_mul(e.magic) >> e.shift) as usize;
                assert_eq!(
                    table.attacks[index],
                    ride_attacks(&g, square, &dirs, None, occupied)
                );
            }
        }
    }
}
