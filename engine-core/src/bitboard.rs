//! Square sets of a generated engine: `u64` for boards up to 64 squares,
//! `u128` up to 128, the runtime's 256-bit [`SquareSet`] beyond. Squares
//! are numbered densely, `rank * FILES + file`, so a 8x8 board fills a
//! `u64` exactly.

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};
use varc_runtime::model::SquareSet;

/// A set of squares, one bit per dense square index.
pub trait Bitboard:
    Copy
    + Debug
    + Default
    + Eq
    + Hash
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
{
    /// The empty set.
    const EMPTY: Self;
    /// The set of one square.
    fn bit(square: usize) -> Self;
    /// The lowest square of a non-empty set.
    fn lsb(self) -> usize;
    /// The highest square of a non-empty set.
    fn msb(self) -> usize;
    /// The set without its lowest square.
    fn clear_lsb(self) -> Self;
    /// Number of squares.
    fn popcnt(self) -> u32;
    /// The `width` (at most 16) squares from `first` on, as the low bits.
    fn bits_at(self, first: usize, width: usize) -> u64;
    /// The set folded into 64 bits (for hashing: equal sets fold equal).
    fn fold(self) -> u64;
    /// The squares `first..=last` (dense indices, `first <= last`).
    #[inline(always)]
    fn span(first: usize, last: usize) -> Self {
        (first..=last).fold(Self::EMPTY, |set, square| set | Self::bit(square))
    }
    /// Whether the set has no square.
    #[inline(always)]
    fn is_empty(self) -> bool {
        self == Self::EMPTY
    }
}

macro_rules! integer_bitboard {
    ($ty:ty) => {
        impl Bitboard for $ty {
            const EMPTY: Self = 0;
            #[inline(always)]
            fn bit(square: usize) -> Self {
                1 << square
            }
            #[inline(always)]
            fn lsb(self) -> usize {
                self.trailing_zeros() as usize
            }
            #[inline(always)]
            fn msb(self) -> usize {
                (<$ty>::BITS - 1 - self.leading_zeros()) as usize
            }
            #[inline(always)]
            fn clear_lsb(self) -> Self {
                self & self.wrapping_sub(1)
            }
            #[inline(always)]
            fn popcnt(self) -> u32 {
                self.count_ones()
            }
            #[inline(always)]
            fn bits_at(self, first: usize, width: usize) -> u64 {
                (self >> first) as u64 & ((1u64 << width) - 1)
            }
            #[inline(always)]
            fn span(first: usize, last: usize) -> Self {
                (<$ty>::MAX >> (<$ty>::BITS as usize - 1 - (last - first))) << first
            }
            #[inline(always)]
            fn fold(self) -> u64 {
                let wide = self as u128;
                wide as u64 ^ ((wide >> 64) as u64).rotate_left(32)
            }
        }
    };
}

integer_bitboard!(u64);
integer_bitboard!(u128);

impl Bitboard for SquareSet {
    const EMPTY: Self = SquareSet::EMPTY;
    #[inline(always)]
    fn bit(square: usize) -> Self {
        let mut words = [0u64; 4];
        words[square / 64] = 1 << (square % 64);
        SquareSet(words)
    }
    #[inline(always)]
    fn lsb(self) -> usize {
        let word = self.0.iter().position(|w| *w != 0).unwrap_or(3);
        word * 64 + self.0[word].trailing_zeros() as usize
    }
    #[inline(always)]
    fn msb(self) -> usize {
        let word = self.0.iter().rposition(|w| *w != 0).unwrap_or(0);
        word * 64 + 63 - self.0[word].leading_zeros() as usize
    }
    #[inline(always)]
    fn clear_lsb(self) -> Self {
        let mut out = self;
        if let Some(word) = out.0.iter_mut().find(|w| **w != 0) {
            *word &= word.wrapping_sub(1);
        }
        out
    }
    #[inline(always)]
    fn popcnt(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    #[inline(always)]
    fn bits_at(self, first: usize, width: usize) -> u64 {
        let (word, shift) = (first / 64, first % 64);
        let mut bits = self.0[word] >> shift;
        if shift + width > 64 && word < 3 {
            bits |= self.0[word + 1] << (64 - shift);
        }
        bits & ((1u64 << width) - 1)
    }
    #[inline(always)]
    fn fold(self) -> u64 {
        self.0.iter().enumerate().fold(0, |folded, (i, word)| {
            folded ^ word.rotate_left(16 * i as u32)
        })
    }
}

/// The set of one square.
///
/// ```
/// use varc_engine_core::bitboard::{bit, lsb, popcnt};
/// let set: u64 = bit::<u64>(3) | bit::<u64>(9);
/// assert_eq!((lsb(set), popcnt(set)), (3, 2));
/// ```
#[inline(always)]
pub fn bit<B: Bitboard>(square: usize) -> B {
    B::bit(square)
}

/// The lowest square of a non-empty set.
#[inline(always)]
pub fn lsb<B: Bitboard>(set: B) -> usize {
    set.lsb()
}

/// The highest square of a non-empty set.
#[inline(always)]
pub fn msb<B: Bitboard>(set: B) -> usize {
    set.msb()
}

/// The set without its lowest square.
#[inline(always)]
pub fn clear_lsb<B: Bitboard>(set: B) -> B {
    set.clear_lsb()
}

/// Number of squares of the set.
#[inline(always)]
pub fn popcnt<B: Bitboard>(set: B) -> u32 {
    set.popcnt()
}

/// The squares of a set, lowest first.
#[derive(Clone, Copy, Debug)]
pub struct Squares<B: Bitboard>(pub B);

impl<B: Bitboard> Iterator for Squares<B> {
    type Item = usize;

    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        if self.0.is_empty() {
            return None;
        }
        let square = self.0.lsb();
        self.0 = self.0.clear_lsb();
        Some(square)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_width<B: Bitboard>(top: usize) {
        let set = B::bit(0) | B::bit(top) | B::bit(top / 2);
        assert_eq!(set.popcnt(), 3);
        assert_eq!(Squares(set).collect::<Vec<_>>(), vec![0, top / 2, top]);
        assert_eq!(set.clear_lsb().lsb(), top / 2);
        assert_eq!(set.msb(), top);
        assert_eq!(set.bits_at(top - 3, 4), 0b1000);
        assert_eq!(set.bits_at(0, 3), 1);
        assert_ne!(set.fold(), set.clear_lsb().fold());
        assert!((set & !set).is_empty());
        assert_eq!(set ^ B::bit(0), B::bit(top / 2) | B::bit(top));
        assert_eq!(B::span(0, top).popcnt() as usize, top + 1);
        assert_eq!(B::span(top / 2, top / 2), B::bit(top / 2));
        assert_eq!(B::span(2, 4), B::bit(2) | B::bit(3) | B::bit(4));
    }

    #[test]
    fn every_width_counts_iterates_and_clears() {
        check_width::<u64>(63);
        check_width::<u128>(127);
        check_width::<SquareSet>(255);
    }
}
