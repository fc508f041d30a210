//! The [`Board`] view: what the layers above move generation (the game
//! driver, search, evaluation, notation, protocols) read of a position, and
//! the little they write (the per-player counters).
//!
//! Each back end keeps its own position type (the interpreter the runtime's
//! table-driven [`Position`], a generated engine its bitboards) and
//! implements this view on it, so that those layers run on the back end's
//! position with no conversion per call. Pieces and square sets are the
//! runtime's own types ([`Piece`], [`SquareSet`]), built on demand by a back
//! end that stores them otherwise.

use crate::model::{Color, PieceId, Square, SquareSet};
use crate::position::{EnPassant, Piece, Position};

/// A read view of a position, plus write access to its counters.
///
/// ```
/// use varc_runtime::board::Board;
/// use varc_runtime::model::{Color, Square};
/// use varc_runtime::position::{Piece, Position};
///
/// fn royal_count(board: &impl Board, color: Color) -> usize {
///     board.royals(color).len()
/// }
///
/// let mut position = Position::empty(8, 8, 1);
/// position.set_piece(Square::new(4, 0), Some(Piece::new(5, Color::White, true)));
/// position.set_piece(Square::new(4, 7), Some(Piece::new(5, Color::Black, true)));
/// position.set_piece(Square::new(0, 1), Some(Piece::new(0, Color::White, false)));
/// assert_eq!(royal_count(&position, Color::White), 1);
/// assert_eq!(Board::occupied(&position, Color::White).len(), 2);
/// assert_eq!(Board::pieces(&position).count(), 3);
/// assert_eq!(Board::back_rank(&position, Color::Black), 7);
/// ```
pub trait Board {
    /// Number of files of the board.
    fn files(&self) -> u8;

    /// Number of ranks of the board.
    fn ranks(&self) -> u8;

    /// The piece on `square`, if any.
    fn piece_at(&self, square: Square) -> Option<Piece>;

    /// The kind and colour of the piece on `square`, if any: what
    /// [`Board::piece_at`] says without the piece's state (a back end can
    /// answer this without building a [`Piece`]).
    fn occupant(&self, square: Square) -> Option<(PieceId, Color)> {
        self.piece_at(square)
            .map(|piece| (piece.kind(), piece.color()))
    }

    /// Every piece with its square, in square-index order
    /// ([`Square::index`]).
    fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_;

    /// The squares holding `color`'s pieces.
    fn occupied(&self, color: Color) -> SquareSet;

    /// The squares holding `color`'s royal pieces.
    fn royals(&self, color: Color) -> SquareSet;

    /// Whether `color` has a piece that is not royal.
    fn has_non_royal(&self, color: Color) -> bool {
        self.occupied(color) != self.royals(color)
    }

    /// Whether `color` has a piece of a kind marked in `kinds` (indexed by
    /// kind; kinds past its end are not marked).
    fn has_piece_of(&self, color: Color, kinds: &[bool]) -> bool {
        self.pieces().any(|(_, piece)| {
            piece.color() == color && kinds.get(piece.kind()).copied().unwrap_or(false)
        })
    }

    /// The squares holding `color`'s pieces of the kinds whose bits are
    /// set in `kinds` (bit `k` for kind `k`; kinds from 64 on are left
    /// out).
    fn squares_of_kinds(&self, color: Color, kinds: u64) -> SquareSet {
        let mut squares = SquareSet::EMPTY;
        for (square, piece) in self.pieces() {
            if piece.color() == color && piece.kind() < 64 && kinds >> piece.kind() & 1 == 1 {
                squares.insert(square);
            }
        }
        squares
    }

    /// The side to move.
    fn side_to_move(&self) -> Color;

    /// Castling rights of `color`: bit `f` set if the rook on file `f` of
    /// `color`'s back rank may still castle.
    fn castling_rights(&self, color: Color) -> u16;

    /// The en passant state, if the last move passed squares.
    fn en_passant(&self) -> Option<EnPassant>;

    /// Plies since the last capture or pawn move (the FEN halfmove clock).
    fn halfmove_clock(&self) -> u32;

    /// The move number, starting at 1 and incremented after Black's move.
    fn fullmove_number(&self) -> u32;

    /// `color`'s per-player counters, by
    /// [`CounterId`](crate::model::CounterId).
    fn counters(&self, color: Color) -> &[u32];

    /// Mutable access to `color`'s counters (the game and the search count
    /// a move's events into them after the move).
    fn counters_mut(&mut self, color: Color) -> &mut [u32];

    /// How many pieces of `kind` `color` holds in hand (0 in variants
    /// without hands).
    fn in_hand(&self, color: Color, kind: PieceId) -> u32;

    /// Whether either side holds a piece in hand (a back end answers at
    /// once where the variant has no hands).
    fn any_in_hand(&self) -> bool {
        Color::ALL.iter().any(|&color| {
            (0..crate::model::MAX_PIECE_KINDS).any(|kind| self.in_hand(color, kind) > 0)
        })
    }

    /// The back rank of `color`: 0 for White, the last rank for Black.
    fn back_rank(&self, color: Color) -> u8 {
        match color {
            Color::White => 0,
            Color::Black => self.ranks() - 1,
        }
    }

    /// Whether the placements (kinds, colours, squares) are equal; side to
    /// move, rights and per-piece state are ignored.
    ///
    /// ```
    /// use varc_runtime::board::Board;
    /// use varc_runtime::model::{Color, Square};
    /// use varc_runtime::position::{Piece, Position};
    ///
    /// let mut a = Position::empty(8, 8, 0);
    /// a.set_piece(Square::new(4, 0), Some(Piece::new(5, Color::White, true)));
    /// let mut b = a.clone();
    /// b.set_side_to_move(Color::Black);
    /// assert!(Board::same_placement(&a, &b));
    /// b.set_piece(Square::new(4, 1), Some(Piece::new(0, Color::White, false)));
    /// assert!(!Board::same_placement(&a, &b));
    /// ```
    fn same_placement(&self, other: &Self) -> bool
    where
        Self: Sized,
    {
        Color::ALL
            .iter()
            .all(|color| self.occupied(*color) == other.occupied(*color))
            && self
                .pieces()
                .zip(other.pieces())
                .all(|((s1, p1), (s2, p2))| {
                    s1 == s2 && p1.kind() == p2.kind() && p1.color() == p2.color()
                })
    }
}

impl Board for Position {
    #[inline]
    fn files(&self) -> u8 {
        Position::files(self)
    }

    #[inline]
    fn ranks(&self) -> u8 {
        Position::ranks(self)
    }

    #[inline]
    fn piece_at(&self, square: Square) -> Option<Piece> {
        Position::piece_at(self, square)
    }

    #[inline]
    fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        Position::pieces(self)
    }

    #[inline]
    fn occupied(&self, color: Color) -> SquareSet {
        *Position::occupied(self, color)
    }

    #[inline]
    fn royals(&self, color: Color) -> SquareSet {
        *Position::royals(self, color)
    }

    #[inline]
    fn side_to_move(&self) -> Color {
        Position::side_to_move(self)
    }

    #[inline]
    fn castling_rights(&self, color: Color) -> u16 {
        Position::castling_rights(self, color)
    }

    #[inline]
    fn en_passant(&self) -> Option<EnPassant> {
        Position::en_passant(self).copied()
    }

    #[inline]
    fn halfmove_clock(&self) -> u32 {
        Position::halfmove_clock(self)
    }

    #[inline]
    fn fullmove_number(&self) -> u32 {
        Position::fullmove_number(self)
    }

    #[inline]
    fn counters(&self, color: Color) -> &[u32] {
        Position::counters(self, color)
    }

    #[inline]
    fn counters_mut(&mut self, color: Color) -> &mut [u32] {
        Position::counters_mut(self, color)
    }

    #[inline]
    fn in_hand(&self, color: Color, kind: PieceId) -> u32 {
        u32::from(Position::in_hand(self, color, kind))
    }

    #[inline]
    fn any_in_hand(&self) -> bool {
        Position::any_in_hand(self)
    }
}

#[cfg(test)]
mod tests {
    use super::Board;
    use crate::model::{Color, Square, SquareSet};
    use crate::position::{EnPassant, Piece, Position};

    fn sample() -> Position {
        let mut position = Position::empty(10, 8, 2);
        position.set_piece(Square::new(4, 0), Some(Piece::new(5, Color::White, true)));
        position.set_piece(Square::new(4, 7), Some(Piece::new(5, Color::Black, true)));
        position.set_piece(Square::new(3, 3), Some(Piece::new(0, Color::Black, false)));
        position.set_side_to_move(Color::Black);
        position.set_castling_rights(Color::White, 0b1000_0001);
        position.set_halfmove_clock(7);
        position.set_fullmove_number(12);
        position.set_en_passant(Some(EnPassant {
            targets: SquareSet::EMPTY,
            victim: Some(Square::new(3, 3)),
        }));
        position
    }

    /// The view reads a generic position exactly as the inherent methods do.
    fn read<B: Board>(board: &B) -> (u8, u8, Color, u16, u32, u32, usize, Option<Piece>) {
        (
            board.files(),
            board.ranks(),
            board.side_to_move(),
            board.castling_rights(Color::White),
            board.halfmove_clock(),
            board.fullmove_number(),
            board.pieces().count(),
            board.piece_at(Square::new(3, 3)),
        )
    }

    #[test]
    fn board_view_of_runtime_position_matches_its_fields() {
        let position = sample();
        let (files, ranks, side, rights, halfmove, fullmove, pieces, piece) = read(&position);
        assert_eq!((files, ranks), (10, 8));
        assert_eq!(side, Color::Black);
        assert_eq!(rights, 0b1000_0001);
        assert_eq!((halfmove, fullmove), (7, 12));
        assert_eq!(pieces, 3);
        assert_eq!(piece.map(|p| p.color()), Some(Color::Black));
        assert_eq!(Board::royals(&position, Color::Black).len(), 1);
        assert_eq!(Board::occupied(&position, Color::Black).len(), 2);
        assert_eq!(
            Board::en_passant(&position).and_then(|ep| ep.victim),
            Some(Square::new(3, 3))
        );
    }

    #[test]
    fn board_view_writes_counters_of_runtime_position() {
        let mut position = sample();
        Board::counters_mut(&mut position, Color::White)[1] += 3;
        assert_eq!(Board::counters(&position, Color::White), &[0, 3]);
        assert_eq!(position.counters(Color::Black), &[0, 0]);
    }
}
