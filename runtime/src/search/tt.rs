//! The transposition table and the full position hash it is keyed by.
//!
//! The hash covers everything a search value may depend on beyond the
//! line's history: the placement (kind, colour, square), per-piece state
//! (unmoved, the kinds a piece has been), side to move, castling rights,
//! en passant squares, the per-player counters and the wins awarded so far.
//! Keys are SplitMix64 mixes of each feature, so no table is stored.

use super::outcome::MATE_BOUND;
use crate::board::Board;
use crate::game::AwardedWin;
use crate::model::Color;
use crate::rules::Rules;

/// SplitMix64: a fixed, well-mixed 64-bit value for each input.
pub fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

const PIECE: u64 = 1 << 56;
const SIDE: u64 = 2 << 56;
const CASTLING: u64 = 3 << 56;
const EN_PASSANT: u64 = 4 << 56;
const COUNTER: u64 = 5 << 56;
const AWARD: u64 = 6 << 56;

/// The size the table's slot count is computed with.
const NOMINAL_ENTRY_BYTES: usize = 32;

/// The key of one piece in [`state_hash`]: its kind, colour, unmoved flag
/// and the kinds it has been, on the square of runtime index `square`. A
/// compiled engine builds its Zobrist tables from it, so that both back
/// ends key the transposition table alike (and search alike).
pub fn piece_key(
    kind: usize,
    color: Color,
    unmoved: bool,
    history: impl Iterator<Item = usize>,
    square: usize,
) -> u64 {
    let mut state = kind as u64;
    state = state << 1 | color.index() as u64;
    state = state << 1 | unmoved as u64;
    for was in history {
        state = state.wrapping_mul(257).wrapping_add(was as u64 + 1);
    }
    mix(PIECE | (state << 8) | square as u64)
}

/// The key of the side to move, the castling rights and the en passant
/// squares (runtime indices) in [`state_hash`].
pub fn turn_key(side: Color, castling: [u16; 2], en_passant: impl Iterator<Item = usize>) -> u64 {
    let mut hash = 0;
    if side == Color::Black {
        hash ^= mix(SIDE);
    }
    let rights = (castling[0] as u64) << 16 | castling[1] as u64;
    if rights != 0 {
        hash ^= mix(CASTLING | rights);
    }
    for square in en_passant {
        hash ^= mix(EN_PASSANT | square as u64);
    }
    hash
}

/// The hash of the position itself: placement with per-piece state, side
/// to move, castling rights and en passant squares (the default of
/// [`Rules::state_hash`]).
pub fn state_hash(position: &impl Board) -> u64 {
    let mut hash = 0u64;
    for (square, piece) in position.pieces() {
        hash ^= piece_key(
            piece.kind(),
            piece.color(),
            piece.is_unmoved(),
            piece.history(),
            square.index(),
        );
    }
    let castling = [
        position.castling_rights(Color::White),
        position.castling_rights(Color::Black),
    ];
    let en_passant = position
        .en_passant()
        .map(|ep| ep.targets)
        .unwrap_or_default();
    hash ^= hands_key(position);
    hash ^ turn_key(
        position.side_to_move(),
        castling,
        en_passant.iter().map(|square| square.index()),
    )
}

/// What the pieces in hand add to [`state_hash`]: one
/// [`crate::hands::hand_key`] per side and kind held (0 without hands).
pub fn hands_key(position: &impl Board) -> u64 {
    let mut hash = 0;
    if !position.any_in_hand() {
        return hash;
    }
    for color in Color::ALL {
        for kind in 0..crate::model::MAX_PIECE_KINDS {
            let count = position.in_hand(color, kind);
            hash ^= crate::hands::hand_key(color, kind, count);
        }
    }
    hash
}

/// The full hash of `position` with the wins `awarded` so far, the
/// position's own part from `rules`.
pub fn position_hash<R: Rules + ?Sized>(
    rules: &R,
    position: &R::Position,
    awarded: &[AwardedWin],
) -> u64 {
    let mut hash = rules.state_hash(position);
    for color in Color::ALL {
        for (id, value) in position.counters(color).iter().enumerate() {
            if *value != 0 {
                hash ^=
                    mix(COUNTER | (color.index() as u64) << 40 | (id as u64) << 24 | *value as u64);
            }
        }
    }
    let mut wins = [0u64; 2];
    for award in awarded {
        wins[award.player.index()] += award.wins as u64;
    }
    if wins != [0, 0] {
        hash ^= mix(AWARD | wins[0] << 20 | wins[1]);
    }
    hash
}

/// What a stored value says about the node's true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The value is exact.
    Exact,
    /// The true value is at least this (a beta cut-off).
    Lower,
    /// The true value is at most this (no move reached alpha).
    Upper,
    /// No value: the entry keeps the node's static value only.
    None,
}

impl Bound {
    /// What a search's `value` in the window from `alpha` to `beta` says.
    pub fn of(value: i32, alpha: i32, beta: i32) -> Bound {
        if value >= beta {
            Bound::Lower
        } else if value > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }
}

/// One stored search result; `M` is the back end's move
/// ([`Rules::Move`]).
#[derive(Clone, Copy, Debug)]
pub struct Entry<M> {
    /// The node's hash.
    pub key: u64,
    /// The best move found, if any.
    pub best: Option<M>,
    /// The value, mate scores relative to the node.
    pub value: i32,
    /// The depth searched.
    pub depth: i16,
    /// What the value bounds.
    pub bound: Bound,
    /// The node is or was on the principal variation: stored by a search
    /// of it with an open window, or by a search (not a quiescence) of it
    /// that found its entry marked so.
    pub pv: bool,
    /// The node's static value, where it was evaluated (not in check).
    static_value: Option<i32>,
}

/// What a slot holds: an [`Entry`] packed into 16-bit values (a search
/// value lies within the mate values, ±32,001; a static value beyond
/// ±32,767 is not kept), so that an entry of the interpreter's move still
/// takes 48 bytes.
#[derive(Clone, Copy, Debug)]
struct Slot<M> {
    key: u64,
    best: Option<M>,
    value: i16,
    /// [`NO_STATIC_VALUE`] where none is kept.
    static_value: i16,
    depth: i16,
    bound: Bound,
    /// The search that stored it (counted modulo [`GENERATIONS`]) times
    /// two, plus one where the node is or was on the principal variation
    /// ([`Entry::pv`]): one byte,
    /// so that a slot of the interpreter's move still takes 48 bytes.
    generation_pv: u8,
}

/// Searches are counted modulo this.
const GENERATIONS: u8 = 128;

/// The packed static value of a slot that keeps none.
const NO_STATIC_VALUE: i16 = i16::MIN;

impl<M: Copy> Slot<M> {
    /// The search that stored it.
    fn generation(&self) -> u8 {
        self.generation_pv >> 1
    }

    fn entry(&self, ply: i32) -> Entry<M> {
        Entry {
            key: self.key,
            best: self.best,
            value: from_table(i32::from(self.value), ply),
            depth: self.depth,
            bound: self.bound,
            pv: self.generation_pv & 1 != 0,
            static_value: (self.static_value != NO_STATIC_VALUE)
                .then_some(i32::from(self.static_value)),
        }
    }
}

/// `value` packed into a slot's 16 bits, saturating.
fn packed(value: i32) -> i16 {
    value.clamp(-i32::from(i16::MAX), i32::from(i16::MAX)) as i16
}

impl<M> Entry<M> {
    /// Whether the stored value settles a search of the window from
    /// `alpha` to `beta` (its depth aside).
    pub fn cuts(&self, alpha: i32, beta: i32) -> bool {
        match self.bound {
            Bound::Exact => true,
            Bound::Lower => self.value >= beta,
            Bound::Upper => self.value <= alpha,
            Bound::None => false,
        }
    }

    /// The node's static value, where the entry keeps it.
    pub fn static_value(&self) -> Option<i32> {
        self.static_value
    }
}

/// The depth of an entry that keeps a static value only: below any
/// search's and quiescence's, so that it gives way to them.
const STATIC_ONLY_DEPTH: i32 = -1;

/// Slots per bucket: a key may sit in any slot of its bucket, and a new
/// entry pushes out the bucket's least worth keeping (see
/// [`TranspositionTable::store`]).
const BUCKET: usize = 4;

/// Plies of depth an entry is worth less per search it is old.
const AGE_PLIES: i32 = 8;

/// A fixed-size transposition table of buckets of four entries,
/// replaced by depth and age.
#[derive(Clone, Debug)]
pub struct TranspositionTable<M> {
    slots: Vec<Option<Slot<M>>>,
    generation: u8,
}

impl<M: Copy> TranspositionTable<M> {
    /// A table of about `megabytes` MB (at least 1024 entries).
    pub fn new(megabytes: usize) -> TranspositionTable<M> {
        // A nominal entry size, not the back end's: every back end then
        // has as many slots and, keyed alike, searches alike.
        let count = (megabytes.saturating_mul(1 << 20) / NOMINAL_ENTRY_BYTES).max(1024);
        TranspositionTable {
            slots: vec![None; count / BUCKET * BUCKET],
            generation: 0,
        }
    }

    /// Forgets every entry and takes `megabytes`: the old table is freed
    /// before the new one is made, so memory never holds both.
    pub fn resize(&mut self, megabytes: usize) {
        self.slots = Vec::new();
        *self = TranspositionTable::new(megabytes);
    }

    /// Forgets every entry.
    pub fn clear(&mut self) {
        self.slots.iter_mut().for_each(|s| *s = None);
        self.generation = 0;
    }

    /// Starts a new search: older entries become easier to replace.
    pub fn new_search(&mut self) {
        self.generation = (self.generation + 1) % GENERATIONS;
    }

    /// The first slot of the bucket of `key`.
    fn bucket(&self, key: u64) -> usize {
        let buckets = (self.slots.len() / BUCKET) as u128;
        ((key as u128 * buckets) >> 64) as usize * BUCKET
    }

    /// The slots of the bucket of `key`.
    fn slots_of(&self, key: u64) -> std::ops::Range<usize> {
        let first = self.bucket(key);
        first..first + BUCKET
    }

    /// Asks the processor to bring the bucket of `key` into its cache, so
    /// that the probe of a node about to be searched does not wait on
    /// memory (the table is much larger than the caches).
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            const LINE: usize = 64;
            let first: *const Option<Slot<M>> = &self.slots[self.bucket(key)];
            let start = first.cast::<i8>();
            // A bucket spans two or three cache lines: each is asked for.
            let bytes = BUCKET * std::mem::size_of::<Option<Slot<M>>>();
            let lines = (0..bytes).step_by(LINE).chain(std::iter::once(bytes - 1));
            for offset in lines {
                // SAFETY: a prefetch is a hint that reads nothing and
                // cannot fault; the address is within a live bucket.
                unsafe { _mm_prefetch::<_MM_HINT_T0>(start.wrapping_add(offset)) };
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The index of the slot holding `key`, if any.
    fn find(&self, key: u64) -> Option<usize> {
        self.slots_of(key)
            .find(|&index| self.slots[index].is_some_and(|slot| slot.key == key))
    }

    /// The entry stored for `key`, its value made relative to the root at `ply`.
    pub fn probe(&self, key: u64, ply: i32) -> Option<Entry<M>> {
        let index = self.find(key)?;
        self.slots[index].map(|slot| slot.entry(ply))
    }

    /// The slot of the bucket of `key` least worth keeping: an empty one,
    /// else the one whose depth, less [`AGE_PLIES`] per search it is
    /// old, is least (the first of equals).
    fn victim(&self, key: u64) -> usize {
        self.slots_of(key)
            .min_by_key(|&index| self.worth(index))
            .unwrap_or_else(|| self.bucket(key))
    }

    /// What keeping the entry of slot `index` is worth: its depth, less
    /// [`AGE_PLIES`] per search it is old; an empty slot nothing.
    fn worth(&self, index: usize) -> i32 {
        self.slots[index].map_or(i32::MIN, |old| {
            let age = (self.generation + GENERATIONS - old.generation()) % GENERATIONS;
            let age = i32::from(age);
            i32::from(old.depth) - AGE_PLIES * age
        })
    }

    /// Keeps the static value of the node `key`, which has no entry, so
    /// that the node is not evaluated again when the search comes back to
    /// it (Stockfish stores its evaluation alike). It pushes out only an
    /// entry worth less than itself (no search result of the current
    /// search).
    pub fn store_static(&mut self, key: u64, static_value: i32) {
        if self.find(key).is_some() || self.worth(self.victim(key)) > STATIC_ONLY_DEPTH {
            return;
        }
        self.store(
            key,
            0,
            None,
            0,
            STATIC_ONLY_DEPTH,
            Bound::None,
            false,
            Some(static_value),
        );
    }

    /// Stores a result for `key` found `ply` plies from the root, with
    /// the node's static value where it was evaluated, and whether the
    /// node is or was on the principal variation: over the node's
    /// own entry unless that one is much deeper (a quiescence result
    /// does not wipe out a search's), else over the bucket's entry least
    /// worth keeping.
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &mut self,
        key: u64,
        ply: i32,
        best: Option<M>,
        value: i32,
        depth: i32,
        bound: Bound,
        pv: bool,
        static_value: Option<i32>,
    ) {
        let (index, same) = match self.find(key) {
            Some(index) => (index, self.slots[index]),
            None => (self.victim(key), None),
        };
        if let Some(old) = same {
            if bound != Bound::Exact && depth + 2 < i32::from(old.depth) {
                return;
            }
        }
        let best = best.or_else(|| same.and_then(|old| old.best));
        let static_value = match static_value {
            Some(value) if i32::from(packed(value)) == value => value as i16,
            Some(_) => NO_STATIC_VALUE,
            None => same.map_or(NO_STATIC_VALUE, |old| old.static_value),
        };
        self.slots[index] = Some(Slot {
            key,
            best,
            value: packed(to_table(value, ply)),
            static_value,
            depth: depth.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            bound,
            generation_pv: self.generation << 1 | u8::from(pv),
        });
    }

    /// Permille of slots used by the current search (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let sample = self.slots.len().min(1000);
        let used = self.slots[..sample]
            .iter()
            .filter(|s| s.is_some_and(|e| e.generation() == self.generation))
            .count();
        (used * 1000 / sample.max(1)) as u32
    }
}

/// Mate scores are stored relative to the node, not the root.
fn to_table(value: i32, ply: i32) -> i32 {
    if value >= MATE_BOUND {
        value + ply
    } else if value <= -MATE_BOUND {
        value - ply
    } else {
        value
    }
}

fn from_table(value: i32, ply: i32) -> i32 {
    if value >= MATE_BOUND {
        value - ply
    } else if value <= -MATE_BOUND {
        value + ply
    } else {
        value
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_static_value_is_kept_without_a_search_value_and_gives_way_to_one() {
        let mut table: TranspositionTable<u32> = TranspositionTable::new(1);
        table.store_static(7, 35);
        let entry = table.probe(7, 0).expect("kept");
        assert_eq!(entry.static_value(), Some(35));
        assert_eq!(entry.best, None);
        assert!(!entry.cuts(-30_000, 30_000), "no value bounds the search");
        // A search result replaces it and keeps the static value.
        table.store(7, 0, Some(3), 120, 4, Bound::Lower, false, None);
        let entry = table.probe(7, 0).expect("stored");
        assert_eq!(
            (entry.best, entry.value, entry.bound),
            (Some(3), 120, Bound::Lower)
        );
        assert_eq!(entry.static_value(), Some(35));
        // The static value never replaces the node's own entry.
        table.store_static(7, -10);
        let entry = table.probe(7, 0).expect("stored");
        assert_eq!((entry.depth, entry.static_value()), (4, Some(35)));
    }

    #[test]
    fn a_slot_of_the_interpreters_move_takes_48_bytes() {
        // The Hash option's megabytes count 32 bytes a slot; the
        // interpreter's slots are half as large again, no more.
        assert_eq!(std::mem::size_of::<Option<Slot<crate::moves::Move>>>(), 48);
    }

    #[test]
    fn a_static_value_beyond_16_bits_is_not_kept() {
        let mut table: TranspositionTable<u32> = TranspositionTable::new(1);
        table.store(9, 0, None, 50, 2, Bound::Exact, false, Some(40_000));
        assert_eq!(
            table.probe(9, 0).and_then(|entry| entry.static_value()),
            None
        );
        table.store(9, 0, None, 50, 2, Bound::Exact, false, Some(-32_767));
        assert_eq!(
            table.probe(9, 0).and_then(|entry| entry.static_value()),
            Some(-32_767)
        );
    }

    #[test]
    fn a_static_value_does_not_push_out_another_node_of_the_same_search() {
        let mut table: TranspositionTable<u32> = TranspositionTable::new(1);
        let buckets = (table.slots.len() / BUCKET) as u128;
        // Keys of the same bucket: the bucket is the key's high bits.
        let first = 5u64 << 40;
        let keys: Vec<u64> = (0..=BUCKET as u64).map(|k| first + k).collect();
        assert!(keys
            .iter()
            .all(|&key| (key as u128 * buckets) >> 64 == (first as u128 * buckets) >> 64));
        for (i, &key) in keys[..BUCKET].iter().enumerate() {
            table.store(key, 0, Some(1), i as i32, 0, Bound::Exact, false, Some(10));
        }
        table.store_static(keys[BUCKET], 20);
        assert!(table.probe(keys[BUCKET], 0).is_none());
        for (i, &key) in keys[..BUCKET].iter().enumerate() {
            assert_eq!(table.probe(key, 0).map(|entry| entry.value), Some(i as i32));
        }
    }

    #[test]
    fn an_entry_keeps_whether_its_node_is_on_the_principal_variation() {
        let mut table: TranspositionTable<u32> = TranspositionTable::new(1);
        table.store(3, 0, None, 0, 5, Bound::Exact, true, None);
        table.store(4, 0, None, 0, 5, Bound::Exact, false, None);
        for _ in 0..300 {
            table.new_search();
        }
        table.store(3, 0, None, 0, 6, Bound::Lower, true, None);
        let pv = |key| table.probe(key, 0).map(|entry| entry.pv);
        assert_eq!((pv(3), pv(4)), (Some(true), Some(false)));
    }

    #[test]
    fn a_new_entry_pushes_out_the_shallowest_or_oldest_of_its_bucket() {
        let mut table: TranspositionTable<u32> = TranspositionTable::new(1);
        let first = 9u64 << 40;
        let keys: Vec<u64> = (0..=BUCKET as u64 + 1).map(|k| first + k).collect();
        for (i, &key) in keys[..BUCKET].iter().enumerate() {
            table.store(key, 0, None, 0, 10 - i as i32, Bound::Lower, false, None);
        }
        // The shallowest (the last stored) goes.
        table.store(keys[BUCKET], 0, None, 0, 1, Bound::Lower, false, None);
        assert!(table.probe(keys[BUCKET - 1], 0).is_none());
        assert!(keys[..BUCKET - 1]
            .iter()
            .chain(&keys[BUCKET..=BUCKET])
            .all(|&key| table.probe(key, 0).is_some()));
        // An entry two searches old is worth 16 plies less: at depth 12
        // it gives way to a new one of depth 0.
        let mut table: TranspositionTable<u32> = TranspositionTable::new(1);
        table.store(keys[0], 0, None, 0, 12, Bound::Lower, false, None);
        table.new_search();
        table.new_search();
        for &key in &keys[1..=BUCKET] {
            table.store(key, 0, None, 0, 0, Bound::Lower, false, None);
        }
        assert!(table.probe(keys[0], 0).is_none());
        assert!(keys[1..=BUCKET]
            .iter()
            .all(|&key| table.probe(key, 0).is_some()));
    }
}
