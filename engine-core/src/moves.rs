//! Moves of a generated engine and the sinks generation writes them to.

use crate::bitboard::{Bitboard, Squares};

/// "No kind" in a move's promotion field.
pub const NO_KIND: u8 = u8::MAX;

/// In a move's [`Mv::extra`] gate: the kind enters the castling rook's
/// square (kinds are below 64, so the bit is free).
pub const GATE_ON_ROOK: u8 = 0x80;

/// The `piece` of a move that starts with a crowning (A2): the piece that
/// then moves is known only once the crowned one has changed kind.
pub const CROWNING: u8 = 0;

/// What a move does beyond moving one piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum MoveKind {
    /// A plain move or capture.
    Normal,
    /// En passant: `aux` is the captured piece's square.
    EnPassant,
    /// Castling: `aux` is the rook's square, `aux2` its destination.
    Castle,
    /// Delayed promotion in place, then `to` (`to == from`: it stays).
    DelayedPromotion,
    /// A drop from the hand onto the empty square `to` (`from == to`):
    /// `aux` is the kind dropped.
    Drop,
}

/// A move of a generated engine: dense squares, complete enough to be
/// made without generating again. Its eight bytes in field order
/// (`repr(C)`), so that comparing two moves is comparing one word (see
/// [`Mv::identity`]): the search compares every move of a node with its
/// hash move and killers.
#[derive(Clone, Copy, Debug)]
#[repr(C)]
pub struct Mv {
    /// Origin square.
    pub from: u8,
    /// Destination square.
    pub to: u8,
    /// What else the move does.
    pub kind: MoveKind,
    /// Promotion kind or [`NO_KIND`].
    pub promotion: u8,
    /// En passant victim or castling rook square.
    pub aux: u8,
    /// Castling rook destination.
    pub aux2: u8,
    /// If [`Mv::crowns`], the square of the piece crowned first (A2);
    /// else the gate ([`Mv::gate`]): 0 for none, else the kind entering
    /// plus one, `+ GATE_ON_ROOK` when it enters the castling rook's square.
    pub extra: u8,
    /// The square code of the moving (or dropped) piece, as generation
    /// found it, so that making the move need not look it up; [`CROWNING`]
    /// for a move that starts with a crowning.
    pub piece: u8,
}

impl PartialEq for Mv {
    #[inline(always)]
    fn eq(&self, other: &Mv) -> bool {
        self.identity() == other.identity()
    }
}

impl Eq for Mv {}

impl std::hash::Hash for Mv {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.identity().hash(state);
    }
}

impl Mv {
    /// The move's fields as one word: equal words, equal moves.
    #[inline(always)]
    pub fn packed(&self) -> u64 {
        u64::from_le_bytes([
            self.from,
            self.to,
            self.kind as u8,
            self.promotion,
            self.aux,
            self.aux2,
            self.extra,
            self.piece,
        ])
    }

    /// The move as moves are told apart: [`Mv::packed`] without the moving
    /// piece's code, keeping only whether the move crowns. A killer or
    /// countermove found at another node names a move by its squares, as
    /// the interpreter's moves do, whatever piece made it there (with the
    /// code, the two back ends ordered the same node differently).
    #[inline(always)]
    pub fn identity(&self) -> u64 {
        const PIECE_BYTE: u64 = 0xFF << 56;
        self.packed() & !PIECE_BYTE | u64::from(self.crowns()) << 56
    }

    /// Whether the move starts with a crowning (A2).
    #[inline(always)]
    pub fn crowns(&self) -> bool {
        self.piece == CROWNING
    }

    /// The square of the piece crowned first, if the move crowns (A2).
    #[inline(always)]
    pub fn crown(&self) -> Option<usize> {
        self.crowns().then_some(self.extra as usize)
    }

    /// The kind entering from the hand by gating, and its square: the
    /// square the move leaves, or the castling rook's.
    #[inline(always)]
    pub fn gate(&self) -> Option<(usize, usize)> {
        if self.crowns() || self.extra == 0 {
            return None;
        }
        let kind = (self.extra & !GATE_ON_ROOK) as usize - 1;
        let square = if self.extra & GATE_ON_ROOK != 0 {
            self.aux
        } else {
            self.from
        };
        Some((kind, square as usize))
    }

    /// The same move with `kind` entering by gating, on the castling
    /// rook's square if `on_rook`, else on the square the move leaves.
    #[inline]
    pub fn with_gate(self, kind: usize, on_rook: bool) -> Mv {
        Mv {
            extra: (kind as u8 + 1) | if on_rook { GATE_ON_ROOK } else { 0 },
            ..self
        }
    }

    /// A normal move of the piece `piece` (its square code), promoting
    /// into `promotion` unless it is [`NO_KIND`].
    #[inline(always)]
    pub fn normal(piece: u8, from: usize, to: usize, promotion: u8) -> Mv {
        Mv {
            from: from as u8,
            to: to as u8,
            kind: MoveKind::Normal,
            promotion,
            aux: 0,
            aux2: 0,
            extra: 0,
            piece,
        }
    }
}

impl Mv {
    /// The drop of `piece` (a square code) onto `to`.
    #[inline(always)]
    pub fn drop(piece: u8, to: usize) -> Mv {
        Mv {
            from: to as u8,
            to: to as u8,
            kind: MoveKind::Drop,
            promotion: NO_KIND,
            aux: crate::position::kind_of(piece) as u8,
            aux2: 0,
            extra: 0,
            piece,
        }
    }
}

/// Where generated moves go: a list, or a counter (bulk counting).
pub trait Sink<B: Bitboard> {
    /// Drops of `piece` (a square code) onto every square of `targets`.
    /// A counter adds them at once.
    #[inline(always)]
    fn drops(&mut self, piece: u8, targets: B) {
        for to in Squares(targets) {
            self.push(Mv::drop(piece, to));
        }
    }

    /// Normal moves of `piece` (the square code of the piece that moves,
    /// in this and the methods below) from `from` to every square of
    /// `targets`.
    fn moves(&mut self, piece: u8, from: usize, targets: B);
    /// Promotions into each of `choices` (and the plain move if `optional`).
    fn promotions(&mut self, piece: u8, from: usize, targets: B, choices: &[u8], optional: bool);
    /// One move.
    fn push(&mut self, mv: Mv);
    /// Normal moves onto every square of `targets`, each from the square
    /// `offset` before it (set-wise generation).
    fn shifted(&mut self, piece: u8, targets: B, offset: isize);
    /// Promotions onto `targets`, each from `offset` before it.
    fn shifted_promotions(
        &mut self,
        piece: u8,
        targets: B,
        offset: isize,
        choices: &[u8],
        optional: bool,
    );

    /// Whether the sink needs no more moves: the generator may stop
    /// between kinds. Only [`AnyMove`] ever says so.
    #[inline(always)]
    fn done(&self) -> bool {
        false
    }

    /// Whether one move is all the sink wants ([`AnyMove`]): a generator
    /// that tests targets one by one (the royal piece's, for attacks) may
    /// stop at the first that passes.
    const FIRST_ONLY: bool = false;

    /// Moves from `from` to every square of `targets`, those in `zone`
    /// promoting into `choice`, their one and mandatory choice (Piece
    /// Promotion Chess's rooks, bishops and knights): one move per target
    /// square either way, which a counter adds at once.
    #[inline(always)]
    fn moves_promoting(&mut self, piece: u8, from: usize, targets: B, zone: B, choice: u8) {
        self.moves(piece, from, targets & !zone);
        let promoting = targets & zone;
        if promoting != B::EMPTY {
            self.promotions(piece, from, promoting, &[choice], false);
        }
    }

    /// [`Sink::moves_promoting`] for moves onto `targets`, each from the
    /// square `offset` before it.
    #[inline(always)]
    fn shifted_promoting(&mut self, piece: u8, targets: B, offset: isize, zone: B, choice: u8) {
        self.shifted(piece, targets & !zone, offset);
        let promoting = targets & zone;
        if promoting != B::EMPTY {
            self.shifted_promotions(piece, promoting, offset, &[choice], false);
        }
    }
}

/// The promotion moves of one piece to one square.
#[inline(always)]
fn push_promotions(
    list: &mut Vec<Mv>,
    piece: u8,
    (from, to): (usize, usize),
    choices: &[u8],
    optional: bool,
) {
    if optional {
        list.push(Mv::normal(piece, from, to, NO_KIND));
    }
    list.extend(
        choices
            .iter()
            .map(|choice| Mv::normal(piece, from, to, *choice)),
    );
}

impl<B: Bitboard> Sink<B> for Vec<Mv> {
    #[inline(always)]
    fn moves(&mut self, piece: u8, from: usize, targets: B) {
        self.extend(Squares(targets).map(|to| Mv::normal(piece, from, to, NO_KIND)));
    }
    #[inline]
    fn promotions(&mut self, piece: u8, from: usize, targets: B, choices: &[u8], optional: bool) {
        for to in Squares(targets) {
            push_promotions(self, piece, (from, to), choices, optional);
        }
    }
    #[inline(always)]
    fn push(&mut self, mv: Mv) {
        Vec::push(self, mv);
    }
    #[inline(always)]
    fn shifted(&mut self, piece: u8, targets: B, offset: isize) {
        self.extend(
            Squares(targets)
                .map(|to| Mv::normal(piece, (to as isize - offset) as usize, to, NO_KIND)),
        );
    }
    #[inline]
    fn shifted_promotions(
        &mut self,
        piece: u8,
        targets: B,
        offset: isize,
        choices: &[u8],
        optional: bool,
    ) {
        for to in Squares(targets) {
            let from = (to as isize - offset) as usize;
            push_promotions(self, piece, (from, to), choices, optional);
        }
    }
}

/// Counts moves without listing them. Target sets are added with
/// carry-save adders (bit-sliced counters per square) and counted once at
/// the end: a leaper generated set-wise sends one set per direction, and
/// one population count per set was the main cost of bulk counting on
/// machines without a `popcnt` instruction (with one, `add` counts each set).
#[derive(Clone, Copy, Debug, Default)]
pub struct Counter<B: Bitboard> {
    /// Squares reached an odd number of times.
    ones: B,
    /// Bit 1 of each square's count.
    twos: B,
    /// Bit 2 of each square's count.
    fours: B,
    /// Moves counted outright (and carries beyond `fours`, as eights).
    counted: u64,
}

impl<B: Bitboard> Counter<B> {
    /// No move counted.
    pub fn new() -> Counter<B> {
        Counter {
            ones: B::EMPTY,
            twos: B::EMPTY,
            fours: B::EMPTY,
            counted: 0,
        }
    }

    /// Adds one move per square of `targets`. With a `popcnt` instruction
    /// (native builds, `varc build`'s default) one count per set is
    /// cheaper than the adders.
    #[inline(always)]
    fn add(&mut self, targets: B) {
        if cfg!(target_feature = "popcnt") {
            self.counted += u64::from(targets.popcnt());
            return;
        }
        let into_twos = self.ones & targets;
        self.ones ^= targets;
        let into_fours = self.twos & into_twos;
        self.twos ^= into_twos;
        let into_eights = self.fours & into_fours;
        self.fours ^= into_fours;
        if !into_eights.is_empty() {
            self.counted += 8 * u64::from(into_eights.popcnt());
        }
    }

    /// Adds `per_square` moves per square of `targets` (the promotion
    /// choices); a mandatory promotion with one choice is one move.
    #[inline(always)]
    fn add_promotions(&mut self, targets: B, per_square: u64) {
        if per_square == 1 {
            self.add(targets);
        } else {
            self.counted += u64::from(targets.popcnt()) * per_square;
        }
    }

    /// The number of moves counted.
    #[inline(always)]
    pub fn total(&self) -> u64 {
        let count = |set: B| {
            if set.is_empty() {
                0
            } else {
                u64::from(set.popcnt())
            }
        };
        self.counted + count(self.ones) + 2 * count(self.twos) + 4 * count(self.fours)
    }
}

/// A sink that only notes whether a move arrived, and asks the generator
/// to stop once one has: "has the side to move a legal move?" without
/// listing them.
#[derive(Clone, Copy, Debug, Default)]
pub struct AnyMove {
    /// Whether a move arrived.
    pub found: bool,
}

impl<B: Bitboard> Sink<B> for AnyMove {
    const FIRST_ONLY: bool = true;

    #[inline(always)]
    fn moves(&mut self, _piece: u8, _from: usize, targets: B) {
        self.found |= !targets.is_empty();
    }
    #[inline(always)]
    fn drops(&mut self, _piece: u8, targets: B) {
        self.found |= !targets.is_empty();
    }
    #[inline(always)]
    fn promotions(&mut self, _piece: u8, _from: usize, targets: B, choices: &[u8], optional: bool) {
        self.found |= !targets.is_empty() && (optional || !choices.is_empty());
    }
    #[inline(always)]
    fn push(&mut self, _mv: Mv) {
        self.found = true;
    }
    #[inline(always)]
    fn shifted(&mut self, _piece: u8, targets: B, _offset: isize) {
        self.found |= !targets.is_empty();
    }
    #[inline(always)]
    fn shifted_promotions(
        &mut self,
        _piece: u8,
        targets: B,
        _offset: isize,
        choices: &[u8],
        optional: bool,
    ) {
        self.found |= !targets.is_empty() && (optional || !choices.is_empty());
    }
    #[inline(always)]
    fn done(&self) -> bool {
        self.found
    }
}

impl<B: Bitboard> Sink<B> for Counter<B> {
    #[inline(always)]
    fn moves(&mut self, _piece: u8, _from: usize, targets: B) {
        self.add(targets);
    }
    #[inline(always)]
    fn drops(&mut self, _piece: u8, targets: B) {
        self.add(targets);
    }
    #[inline(always)]
    fn promotions(&mut self, _piece: u8, _from: usize, targets: B, choices: &[u8], optional: bool) {
        self.add_promotions(targets, choices.len() as u64 + u64::from(optional));
    }
    #[inline(always)]
    fn push(&mut self, _mv: Mv) {
        self.counted += 1;
    }
    #[inline(always)]
    fn shifted(&mut self, _piece: u8, targets: B, _offset: isize) {
        self.add(targets);
    }
    #[inline(always)]
    fn shifted_promotions(
        &mut self,
        _piece: u8,
        targets: B,
        _offset: isize,
        choices: &[u8],
        optional: bool,
    ) {
        self.add_promotions(targets, choices.len() as u64 + u64::from(optional));
    }
    #[inline(always)]
    fn moves_promoting(&mut self, _piece: u8, _from: usize, targets: B, _zone: B, _choice: u8) {
        self.add(targets);
    }
    #[inline(always)]
    fn shifted_promoting(&mut self, _piece: u8, targets: B, _offset: isize, _zone: B, _choice: u8) {
        self.add(targets);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_are_told_apart_by_squares_and_what_they_do_not_by_the_piece() {
        let rook = Mv {
            from: 34,
            to: 26,
            kind: MoveKind::Normal,
            promotion: NO_KIND,
            aux: 0,
            aux2: 0,
            extra: 0,
            piece: 6,
        };
        // A killer found where another piece made the same move names it.
        assert_eq!(rook, Mv { piece: 12, ..rook });
        assert_ne!(rook, Mv { to: 27, ..rook });
        assert_ne!(
            rook,
            Mv {
                promotion: 4,
                ..rook
            }
        );
        // A move that crowns first is another move.
        assert_ne!(
            Mv {
                piece: CROWNING,
                ..rook
            },
            rook
        );
    }

    #[test]
    fn a_list_and_a_counter_agree() {
        let targets: u64 = 0b1011_0000 << 16;
        fn feed<S: Sink<u64>>(sink: &mut S, targets: u64) {
            sink.moves(1, 1, targets);
            sink.promotions(1, 2, targets, &[4, 5], true);
            sink.shifted(1, targets, 8);
            sink.shifted_promotions(1, targets, -8, &[4], false);
            sink.moves_promoting(1, 3, targets, 1 << 20, 6);
            sink.shifted_promoting(1, targets, 1, 1 << 21, 6);
            sink.push(Mv::normal(1, 0, 9, NO_KIND));
        }
        let mut list = Vec::new();
        let mut counter = Counter::new();
        feed(&mut list, targets);
        feed(&mut counter, targets);
        assert_eq!(list.len() as u64, counter.total());
        assert_eq!(counter.total(), 3 + 9 + 3 + 3 + 3 + 3 + 1);
        assert!(list.contains(&Mv::normal(1, 3, 20, 6)));
        assert!(list.contains(&Mv::normal(1, 3, 21, NO_KIND)));
        assert!(list.contains(&Mv::normal(1, 20, 21, 6)));
        assert!(list.contains(&Mv::normal(1, 12, 20, NO_KIND)));
        assert!(list.contains(&Mv::normal(1, 28, 20, 4)));
    }

    #[test]
    fn a_gate_reads_back_its_kind_and_square() {
        let plain = Mv::normal(3, 1, 18, NO_KIND);
        assert_eq!(plain.gate(), None);
        assert_eq!(plain.with_gate(5, false).gate(), Some((5, 1)));
        let castle = Mv {
            kind: MoveKind::Castle,
            aux: 7,
            aux2: 5,
            ..Mv::normal(9, 4, 6, NO_KIND)
        };
        assert_eq!(castle.with_gate(0, true).gate(), Some((0, 7)));
        assert_eq!(castle.with_gate(63, false).gate(), Some((63, 4)));
        assert_ne!(castle.with_gate(0, true), castle.with_gate(0, false));
        // A crowning move's extra byte is its crowned square, not a gate.
        let crowning = Mv {
            extra: 12,
            piece: CROWNING,
            ..plain
        };
        assert_eq!((crowning.crown(), crowning.gate()), (Some(12), None));
    }

    #[test]
    fn moves_differing_in_any_field_differ() {
        let base = Mv::normal(3, 1, 2, NO_KIND);
        let variants = [
            Mv { from: 3, ..base },
            Mv { to: 3, ..base },
            Mv {
                kind: MoveKind::EnPassant,
                ..base
            },
            Mv {
                promotion: 4,
                ..base
            },
            Mv { aux: 5, ..base },
            Mv { aux2: 6, ..base },
            Mv { extra: 7, ..base },
            Mv {
                piece: CROWNING,
                ..base
            },
        ];
        for other in variants {
            assert_ne!(base, other, "{other:?}");
            assert_eq!(other, other);
        }
        assert_eq!(base, Mv::normal(3, 1, 2, NO_KIND));
    }

    #[test]
    fn any_move_notes_the_first_move_and_only_a_move() {
        let mut any = AnyMove::default();
        Sink::<u64>::moves(&mut any, 1, 1, 0);
        Sink::<u64>::promotions(&mut any, 1, 1, 1 << 9, &[], false);
        Sink::<u64>::shifted(&mut any, 1, 0, 8);
        assert!(!Sink::<u64>::done(&any), "no target, no choice: no move");
        Sink::<u64>::shifted_promotions(&mut any, 1, 1 << 20, 8, &[4], false);
        assert!(Sink::<u64>::done(&any));
        let mut any = AnyMove::default();
        Sink::<u64>::push(&mut any, Mv::normal(1, 0, 9, NO_KIND));
        assert!(any.found);
    }

    #[test]
    fn the_carry_save_counter_counts_a_square_reached_many_times() {
        let mut counter = Counter::<u64>::new();
        for round in 0..21u64 {
            counter.moves(1, 0, 0b11 | round << 8);
        }
        let expected: u64 = 21 * 2
            + (0..21u64)
                .map(|r| u64::from((r << 8).count_ones()))
                .sum::<u64>();
        assert_eq!(counter.total(), expected);
    }
}
