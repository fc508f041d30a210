//! The runtime's [`Board`] view of a compiled position, so that the game
//! driver, search, evaluation and protocols read it directly.

use crate::bitboard::{Bitboard, Squares};
use crate::position::{
    color_of, dense_square, has_kind, kind_of, runtime_color, runtime_square, Pos,
};
use crate::variant::CompiledVariant;
use varc_runtime::board::Board;
use varc_runtime::model::{Color, PieceId, Square, SquareSet};
use varc_runtime::position::{EnPassant, Piece};

impl<V: CompiledVariant> Pos<V> {
    /// The runtime piece on the dense square `square`, if any.
    #[inline]
    pub fn piece_on(&self, square: usize) -> Option<Piece> {
        let code = self.code_at(square);
        if code == 0 {
            return None;
        }
        let kind = kind_of(code);
        let color = runtime_color(color_of(code));
        let piece = Piece::new(kind, color, has_kind(V::ROYAL_KINDS, kind))
            .with_unmoved(!(self.unmoved & V::Bb::bit(square)).is_empty());
        // At most three kinds: kept on the stack, not in a list per call.
        let mut kinds = [0usize; 3];
        let mut count = 0;
        for kind in self.lineage(square) {
            kinds[count] = kind;
            count += 1;
        }
        Some(piece.with_history(&kinds[..count]))
    }
}

/// The runtime square set of a set of dense squares.
#[inline]
pub fn runtime_set<V: CompiledVariant>(set: V::Bb) -> SquareSet {
    // Runtime squares are `rank * 16 + file`: each rank is a 16-bit lane.
    if V::FILES == 8 && V::RANKS == 8 {
        let bits = (0..4).fold(0, |bits, quarter| {
            bits | set.bits_at(16 * quarter, 16) << (16 * quarter)
        });
        return eight_by_eight(bits);
    }
    let mut out = SquareSet::EMPTY;
    for rank in 0..V::RANKS {
        let bits = set.bits_at(rank * V::FILES, V::FILES);
        out.0[rank / 4] |= bits << (rank % 4 * 16);
    }
    out
}

/// The runtime square set of an 8x8 board's 64 bits (rank by rank from
/// rank 1): each rank's byte to the low half of its 16-bit lane, four
/// ranks to a word.
#[inline]
fn eight_by_eight(bits: u64) -> SquareSet {
    let lanes = |ranks: u64| {
        let ranks = (ranks | ranks << 16) & 0x0000_FFFF_0000_FFFF;
        (ranks | ranks << 8) & 0x00FF_00FF_00FF_00FF
    };
    SquareSet([lanes(bits & 0xFFFF_FFFF), lanes(bits >> 32), 0, 0])
}

impl<V: CompiledVariant> Board for Pos<V> {
    #[inline]
    fn files(&self) -> u8 {
        V::FILES as u8
    }

    #[inline]
    fn ranks(&self) -> u8 {
        V::RANKS as u8
    }

    #[inline]
    fn piece_at(&self, square: Square) -> Option<Piece> {
        dense_square::<V>(square).and_then(|square| self.piece_on(square))
    }

    #[inline]
    fn occupant(&self, square: Square) -> Option<(PieceId, Color)> {
        let code = dense_square::<V>(square).map_or(0, |square| self.code_at(square));
        if code == 0 {
            return None;
        }
        let color = runtime_color(color_of(code));
        Some((kind_of(code), color))
    }

    fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        Squares(self.occupied()).filter_map(|square| {
            self.piece_on(square)
                .map(|piece| (runtime_square::<V>(square), piece))
        })
    }

    #[inline]
    fn occupied(&self, color: Color) -> SquareSet {
        runtime_set::<V>(self.colors[color.index()])
    }

    #[inline]
    fn squares_of_kinds(&self, color: Color, kinds: u64) -> SquareSet {
        let mut squares = V::Bb::default();
        for kind in (0..V::KINDS).filter(|&kind| kind < 64 && kinds >> kind & 1 == 1) {
            squares |= self.pieces[kind];
        }
        runtime_set::<V>(squares & self.colors[color.index()])
    }

    #[inline]
    fn royals(&self, color: Color) -> SquareSet {
        runtime_set::<V>(Pos::royals(self, color.index()))
    }

    #[inline]
    fn has_non_royal(&self, color: Color) -> bool {
        Pos::royals(self, color.index()) != self.colors[color.index()]
    }

    #[inline]
    fn has_piece_of(&self, color: Color, kinds: &[bool]) -> bool {
        let own = self.colors[color.index()];
        (0..V::KINDS).any(|kind| {
            kinds.get(kind).copied().unwrap_or(false) && !(self.pieces[kind] & own).is_empty()
        })
    }

    #[inline]
    fn side_to_move(&self) -> Color {
        runtime_color(self.side())
    }

    #[inline]
    fn castling_rights(&self, color: Color) -> u16 {
        self.castling[color.index()]
    }

    fn en_passant(&self) -> Option<EnPassant> {
        if self.en_passant_targets.is_empty() {
            return None;
        }
        Some(EnPassant {
            targets: runtime_set::<V>(self.en_passant_targets),
            victim: (self.en_passant_victim != crate::position::NO_SQUARE)
                .then(|| runtime_square::<V>(self.en_passant_victim as usize)),
        })
    }

    #[inline]
    fn halfmove_clock(&self) -> u32 {
        self.halfmove_clock
    }

    #[inline]
    fn fullmove_number(&self) -> u32 {
        self.fullmove_number
    }

    #[inline]
    fn counters(&self, color: Color) -> &[u32] {
        self.counters[color.index()].as_ref()
    }

    #[inline]
    fn in_hand(&self, color: Color, kind: PieceId) -> u32 {
        u32::from(Pos::in_hand(self, color.index(), kind))
    }

    #[inline]
    fn any_in_hand(&self) -> bool {
        V::HANDS
            && self
                .hands
                .iter()
                .any(|hand| AsRef::<[u8]>::as_ref(hand).iter().any(|&count| count > 0))
    }

    #[inline]
    fn counters_mut(&mut self, color: Color) -> &mut [u32] {
        self.counters[color.index()].as_mut()
    }

    /// The square sets of every kind and colour are the placement.
    #[inline]
    fn same_placement(&self, other: &Self) -> bool {
        self.pieces == other.pieces && self.colors == other.colors
    }
}

#[cfg(test)]
mod tests {
    use super::eight_by_eight;
    use varc_runtime::model::Square;

    #[test]
    fn an_eight_by_eight_board_reaches_its_runtime_squares() {
        for (file, rank) in [(0, 0), (7, 0), (3, 2), (0, 4), (7, 7), (5, 6)] {
            let bits = 1u64 << (rank * 8 + file);
            let set = eight_by_eight(bits);
            assert_eq!(set.len(), 1);
            assert!(set.contains(Square::new(file, rank)), "{file}, {rank}");
        }
        assert_eq!(eight_by_eight(u64::MAX).len(), 64);
    }
}
