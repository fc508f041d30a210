//! Positions: piece placement on a board up to 16x16 and the state that the
//! movement rules read (side to move, castling rights, en passant, counters).
//!
//! A position knows nothing of a variant's movement; it is plain data that
//! both the reference interpreter and generated engines read and update.
//! Squares are indexed like [`Square::index`]: `rank * 16 + file`, whatever
//! the board size, so one array of 256 entries serves every board.

use crate::board::Board;
use crate::model::{Color, Lineage, PieceId, Square, SquareSet, MAX_PIECE_KINDS};

/// Number of entries of the square array (16 x 16).
pub const SQUARE_COUNT: usize = 256;

/// How many earlier kinds a piece remembers (see [`Piece::history`]). A piece
/// that changes kind more often forgets the oldest ones.
pub const HISTORY_LENGTH: usize = 3;

const UNMOVED: u8 = 1;
const ROYAL: u8 = 2;

/// A piece on the board: its kind and colour, and the per-piece state the
/// rules read (unmoved, royal, the kinds it has been).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    kind: u8,
    color: Color,
    flags: u8,
    history_len: u8,
    history: [u8; HISTORY_LENGTH],
}

impl Piece {
    /// A piece of `kind` and `color` that has not moved, with no history.
    /// `royal` is the kind's [`PieceKind::royal`](crate::model::PieceKind::royal)
    /// flag; it is kept on the piece so that a position can track its royal
    /// pieces without the variant.
    ///
    /// ```
    /// use varc_runtime::{model::Color, position::Piece};
    /// let king = Piece::new(5, Color::White, true);
    /// assert!(king.is_royal() && king.is_unmoved() && !king.is_promoted());
    /// ```
    pub fn new(kind: PieceId, color: Color, royal: bool) -> Piece {
        Piece {
            kind: kind as u8,
            color,
            flags: UNMOVED | if royal { ROYAL } else { 0 },
            history_len: 0,
            history: [0; HISTORY_LENGTH],
        }
    }

    /// The kind, an index into [`Variant::pieces`](crate::model::Variant::pieces).
    #[inline]
    pub fn kind(&self) -> PieceId {
        self.kind as PieceId
    }

    /// The kind as stored (kinds are below 256).
    #[inline]
    pub fn kind_index(&self) -> u8 {
        self.kind
    }

    /// The owner.
    #[inline]
    pub fn color(&self) -> Color {
        self.color
    }

    /// Whether the piece is royal.
    #[inline]
    pub fn is_royal(&self) -> bool {
        self.flags & ROYAL != 0
    }

    /// Whether the piece has not moved yet (first-move atoms, castling).
    #[inline]
    pub fn is_unmoved(&self) -> bool {
        self.flags & UNMOVED != 0
    }

    /// The same piece with the unmoved flag set or cleared.
    #[inline]
    pub fn with_unmoved(mut self, unmoved: bool) -> Piece {
        if unmoved {
            self.flags |= UNMOVED;
        } else {
            self.flags &= !UNMOVED;
        }
        self
    }

    /// Whether the piece has been something else before (promoted or crowned).
    #[inline]
    pub fn is_promoted(&self) -> bool {
        self.history_len > 0
    }

    /// The kinds this piece has been, oldest first (at most [`HISTORY_LENGTH`]).
    pub fn history(&self) -> impl Iterator<Item = PieceId> + '_ {
        self.history[..self.history_len as usize]
            .iter()
            .map(|k| *k as PieceId)
    }

    /// The history as a model [`Lineage`].
    pub fn lineage(&self) -> Lineage {
        Lineage {
            was: self.history().collect(),
        }
    }

    /// The same piece with this history (oldest first; only the last
    /// [`HISTORY_LENGTH`] kinds are kept).
    pub fn with_history(mut self, kinds: &[PieceId]) -> Piece {
        let skip = kinds.len().saturating_sub(HISTORY_LENGTH);
        self.history_len = 0;
        for kind in &kinds[skip..] {
            self.history[self.history_len as usize] = *kind as u8;
            self.history_len += 1;
        }
        self
    }

    /// The piece turned into `kind` (by promotion or crowning). When
    /// `remember` is true the old kind is added to its history; the unmoved
    /// flag is kept.
    pub fn changed_into(mut self, kind: PieceId, royal: bool, remember: bool) -> Piece {
        if remember {
            if self.history_len as usize == HISTORY_LENGTH {
                self.history.rotate_left(1);
                self.history_len -= 1;
            }
            self.history[self.history_len as usize] = self.kind;
            self.history_len += 1;
        }
        self.kind = kind as u8;
        if royal {
            self.flags |= ROYAL;
        } else {
            self.flags &= !ROYAL;
        }
        self
    }
}

/// The en passant state left by a move that passed squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EnPassant {
    /// The squares passed: an en passant capture may land on any of them.
    pub targets: SquareSet,
    /// The square of the piece that passed them (removed by the capture).
    /// `None` when a FEN names a square but no piece could have passed it.
    pub victim: Option<Square>,
}

/// A position: placement, side to move and the state movement rules read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    files: u8,
    ranks: u8,
    squares: [Option<Piece>; SQUARE_COUNT],
    occupied: [SquareSet; 2],
    royals: [SquareSet; 2],
    side_to_move: Color,
    castling: [u16; 2],
    en_passant: Option<EnPassant>,
    halfmove_clock: u32,
    fullmove_number: u32,
    counters: [Vec<u32>; 2],
    /// Pieces in hand per side, counted by kind (all 0 in variants without
    /// hands).
    hands: [[u8; MAX_PIECE_KINDS]; 2],
}

impl Position {
    /// An empty board of `files` x `ranks`, White to move, no castling
    /// rights, counters at zero, move number 1. `counters` is the number of
    /// per-player counters the variant declares.
    pub fn empty(files: u8, ranks: u8, counters: usize) -> Position {
        Position {
            files,
            ranks,
            squares: [None; SQUARE_COUNT],
            occupied: [SquareSet::EMPTY; 2],
            royals: [SquareSet::EMPTY; 2],
            side_to_move: Color::White,
            castling: [0; 2],
            en_passant: None,
            halfmove_clock: 0,
            fullmove_number: 1,
            counters: [vec![0; counters], vec![0; counters]],
            hands: [[0; MAX_PIECE_KINDS]; 2],
        }
    }

    /// Number of files of the board.
    pub fn files(&self) -> u8 {
        self.files
    }

    /// Number of ranks of the board.
    pub fn ranks(&self) -> u8 {
        self.ranks
    }

    /// The piece on `square`, if any.
    #[inline]
    pub fn piece_at(&self, square: Square) -> Option<Piece> {
        self.squares[square.index()]
    }

    /// The piece on the square of index `index` ([`Square::index`]).
    #[inline]
    pub fn piece_at_index(&self, index: usize) -> Option<Piece> {
        self.squares[index]
    }

    /// Puts `piece` on `square` (or empties it), keeping the occupancy and
    /// royal sets up to date.
    #[inline]
    pub fn set_piece(&mut self, square: Square, piece: Option<Piece>) {
        self.set_piece_at_index(square.index(), piece);
    }

    /// [`Position::set_piece`] by square index.
    #[inline]
    pub fn set_piece_at_index(&mut self, index: usize, piece: Option<Piece>) {
        let word = index / 64;
        let bit = 1u64 << (index % 64);
        if let Some(old) = self.squares[index] {
            let c = old.color.index();
            self.occupied[c].0[word] &= !bit;
            self.royals[c].0[word] &= !bit;
        }
        if let Some(new) = piece {
            let c = new.color.index();
            self.occupied[c].0[word] |= bit;
            if new.is_royal() {
                self.royals[c].0[word] |= bit;
            }
        }
        self.squares[index] = piece;
    }

    /// The squares holding `color`'s pieces.
    #[inline]
    pub fn occupied(&self, color: Color) -> &SquareSet {
        &self.occupied[color.index()]
    }

    /// The squares holding `color`'s royal pieces.
    #[inline]
    pub fn royals(&self, color: Color) -> &SquareSet {
        &self.royals[color.index()]
    }

    /// Every piece with its square, in square-index order.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        let all = self.occupied[0].union(&self.occupied[1]);
        SquareIter::new(all)
            .filter_map(|index| self.squares[index].map(|p| (Square::from_index(index), p)))
    }

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side_to_move
    }

    /// Sets the side to move.
    pub fn set_side_to_move(&mut self, color: Color) {
        self.side_to_move = color;
    }

    /// Castling rights of `color`: bit `f` set if the rook on file `f` of
    /// `color`'s back rank (rank 1 for White, the last rank for Black) may
    /// still castle.
    #[inline]
    pub fn castling_rights(&self, color: Color) -> u16 {
        self.castling[color.index()]
    }

    /// Sets the castling rights of `color` (see [`Position::castling_rights`]).
    pub fn set_castling_rights(&mut self, color: Color, files: u16) {
        self.castling[color.index()] = files;
    }

    /// The back rank of `color`: 0 for White, the last rank for Black.
    #[inline]
    pub fn back_rank(&self, color: Color) -> u8 {
        Board::back_rank(self, color)
    }

    /// The en passant state, if the last move passed squares.
    #[inline]
    pub fn en_passant(&self) -> Option<&EnPassant> {
        self.en_passant.as_ref()
    }

    /// Sets the en passant state.
    pub fn set_en_passant(&mut self, en_passant: Option<EnPassant>) {
        self.en_passant = en_passant;
    }

    /// Plies since the last capture or pawn move (the FEN halfmove clock).
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove_clock
    }

    /// Sets the halfmove clock.
    pub fn set_halfmove_clock(&mut self, plies: u32) {
        self.halfmove_clock = plies;
    }

    /// The move number, starting at 1 and incremented after Black's move.
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove_number
    }

    /// Sets the move number.
    pub fn set_fullmove_number(&mut self, number: u32) {
        self.fullmove_number = number;
    }

    /// The per-player counters the variant declares (by
    /// [`CounterId`](crate::model::CounterId)).
    pub fn counters(&self, color: Color) -> &[u32] {
        &self.counters[color.index()]
    }

    /// Mutable access to `color`'s counters.
    pub fn counters_mut(&mut self, color: Color) -> &mut Vec<u32> {
        &mut self.counters[color.index()]
    }

    /// How many pieces of `kind` `color` holds in hand.
    #[inline]
    pub fn in_hand(&self, color: Color, kind: PieceId) -> u8 {
        self.hands[color.index()].get(kind).copied().unwrap_or(0)
    }

    /// Whether either side holds a piece in hand.
    #[inline]
    pub fn any_in_hand(&self) -> bool {
        self.hands.iter().flatten().any(|&count| count > 0)
    }

    /// Sets how many pieces of `kind` `color` holds in hand (kinds past
    /// [`MAX_PIECE_KINDS`] are ignored).
    #[inline]
    pub fn set_in_hand(&mut self, color: Color, kind: PieceId, count: u8) {
        if let Some(slot) = self.hands[color.index()].get_mut(kind) {
            *slot = count;
        }
    }

    /// Whether `(file, rank)` is inside the board rectangle (holes are the
    /// variant's business).
    pub fn is_inside(&self, file: i32, rank: i32) -> bool {
        file >= 0 && rank >= 0 && file < self.files as i32 && rank < self.ranks as i32
    }

    /// Whether the placements (kinds, colours, squares) are equal; side to
    /// move, rights and per-piece state are ignored.
    pub fn same_placement(&self, other: &Position) -> bool {
        Board::same_placement(self, other)
    }
}

/// Iterator over the square indices of a [`SquareSet`], lowest first. Faster
/// than [`SquareSet::iter`]: it skips empty words and uses bit scans.
#[derive(Clone, Debug)]
pub struct SquareIter {
    words: [u64; 4],
    word: usize,
}

impl SquareIter {
    /// Iterates the squares of `set`.
    #[inline]
    pub fn new(set: SquareSet) -> SquareIter {
        SquareIter {
            words: set.0,
            word: 0,
        }
    }
}

impl Iterator for SquareIter {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        while self.word < 4 {
            let w = self.words[self.word];
            if w != 0 {
                self.words[self.word] = w & (w - 1);
                return Some(self.word * 64 + w.trailing_zeros() as usize);
            }
            self.word += 1;
        }
        None
    }
}
