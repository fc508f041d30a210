//! The position of a generated engine: square sets per kind and colour, a
//! mailbox of square codes, the state the movement rules read, and the
//! Zobrist hash of the placement kept incrementally (history rules,
//! repetitions and, with the per-piece state, transposition keys). Moves
//! are made by copy-make.

use crate::bitboard::{Bitboard, Squares};
use crate::moves::{MoveKind, Mv, NO_KIND};
use crate::variant::{CastlingRule, CompiledVariant, SquareStore};
use varc_runtime::model::{Color, Square};
use varc_runtime::position::Position;

/// "No square".
pub const NO_SQUARE: u16 = u16::MAX;

/// The kind of a non-empty square code.
#[inline(always)]
pub fn kind_of(code: u8) -> usize {
    ((code - 1) >> 1) as usize
}

/// The colour (0 White, 1 Black) of a non-empty square code.
#[inline(always)]
pub fn color_of(code: u8) -> usize {
    ((code - 1) & 1) as usize
}

/// The square code of a piece.
#[inline(always)]
pub fn code_of(kind: usize, color: usize) -> u8 {
    (1 + kind * 2 + color) as u8
}

/// The runtime colour of colour index `color` (0 White, 1 Black).
#[inline(always)]
pub fn runtime_color(color: usize) -> Color {
    if color == 0 {
        Color::White
    } else {
        Color::Black
    }
}

/// Whether bit `kind` of a kind set is set.
#[inline(always)]
pub fn has_kind(kinds: u128, kind: usize) -> bool {
    kinds >> kind & 1 == 1
}

/// A position of a generated engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pos<V: CompiledVariant> {
    /// Squares of each kind (both colours).
    pub pieces: V::KindSets,
    /// Squares of each colour.
    pub colors: [V::Bb; 2],
    /// Per square: 0 or `1 + kind * 2 + color`, where the variant keeps a
    /// mailbox; read through [`Pos::code_at`].
    pub board: V::Codes,
    /// Pieces that have not moved.
    pub unmoved: V::Bb,
    /// Squares an en passant capture may land on.
    pub en_passant_targets: V::Bb,
    /// The piece an en passant capture removes, or [`NO_SQUARE`].
    pub en_passant_victim: u16,
    /// Castling rights per side: bit `f` for the rook on file `f`.
    pub castling: [u16; 2],
    /// Side to move: 0 White, 1 Black (read through [`Pos::side`]; a byte,
    /// so that a small variant's position stays within 128 bytes).
    pub turn: u8,
    /// Zobrist hash of the placement alone (kinds, colours, squares).
    pub placement_hash: u64,
    /// What the unmoved pieces add to the transposition key
    /// ([`CompiledVariant::zobrist_unmoved`]), kept with `unmoved` so that
    /// the key is not summed over the unmoved pieces at every node.
    pub unmoved_hash: u64,
    /// The kinds each piece has been, where the variant's rules read them.
    pub lineages: V::Lineages,
    /// Plies since the last reset event (the FEN halfmove clock).
    pub halfmove_clock: u32,
    /// The move number, incremented after Black's move.
    pub fullmove_number: u32,
    /// The per-player counters the variant declares, White's then Black's.
    pub counters: [V::Counters; 2],
    /// The pieces in hand by kind, White's then Black's (nothing kept in
    /// a variant without hands).
    pub hands: [V::Hand; 2],
}

/// Restrictions on the side to move's moves: check and pin masks.
#[derive(Clone, Copy, Debug)]
pub struct Masks<V: CompiledVariant> {
    /// The royal piece, generated apart (empty without masks).
    pub skip: V::Bb,
    /// Destinations that resolve the check (the board if none).
    pub check: V::Bb,
    /// Destinations the royal piece may be generated to (the board, or
    /// fewer when only some moves are wanted: [`crate::generate::tactical_moves`]).
    pub royal_targets: V::Bb,
    /// Pinned pieces.
    pub pinned: V::Bb,
    /// The line each pinned piece may move along (see `pin_squares`).
    pub pin_lines: V::PinLines,
    /// The pinned pieces' squares, in the order of `pin_lines`.
    pub pin_squares: V::PinSquares,
    /// Number of checking pieces, or 2 when there are more.
    pub checkers: u32,
    /// Number of entries of `pin_lines`.
    pub pin_count: u32,
    /// Whether special moves must be tried (made and tested).
    pub verify_specials: bool,
}

impl<V: CompiledVariant> Masks<V> {
    /// No restriction: pseudo-legal moves.
    pub const NONE: Masks<V> = Masks {
        skip: V::Bb::EMPTY,
        check: V::BOARD,
        royal_targets: V::BOARD,
        pinned: V::Bb::EMPTY,
        pin_lines: V::NO_PIN_LINES,
        pin_squares: V::NO_PIN_SQUARES,
        checkers: 0,
        pin_count: 0,
        verify_specials: false,
    };

    /// Resets the masks for a side whose one royal piece stands on `king`,
    /// before any attack is looked at. Pin lines past `pin_count` are
    /// never read, so they are left as they are.
    #[inline(always)]
    pub fn reset_for_royal(&mut self, king: usize) {
        self.skip = V::Bb::bit(king);
        self.check = V::BOARD;
        self.pinned = V::Bb::EMPTY;
        self.checkers = 0;
        self.pin_count = 0;
        self.verify_specials = true;
    }

    /// Records a pin of the piece on `pinned` to `line`.
    #[inline(always)]
    pub fn pin(&mut self, pinned: usize, line: V::Bb) {
        self.pinned |= V::Bb::bit(pinned);
        self.pin_lines[self.pin_count as usize] = line;
        self.pin_squares[self.pin_count as usize] = pinned as u8;
        self.pin_count += 1;
    }

    /// Where the piece on `from` may go.
    #[inline(always)]
    pub fn targets_from(&self, from: usize) -> V::Bb {
        if (self.pinned & V::Bb::bit(from)).is_empty() {
            return self.check;
        }
        let mut allowed = self.check;
        for i in 0..self.pin_count as usize {
            if self.pin_squares[i] as usize == from {
                allowed &= self.pin_lines[i];
            }
        }
        allowed
    }
}

impl<V: CompiledVariant> Default for Pos<V> {
    fn default() -> Self {
        Pos::empty()
    }
}

impl<V: CompiledVariant> Pos<V> {
    /// An empty board, White to move.
    pub fn empty() -> Pos<V> {
        Pos {
            pieces: V::NO_KIND_SETS,
            colors: [V::Bb::EMPTY; 2],
            board: <V::Codes as SquareStore<u8>>::EMPTY,
            unmoved: V::Bb::EMPTY,
            en_passant_targets: V::Bb::EMPTY,
            en_passant_victim: NO_SQUARE,
            castling: [0; 2],
            turn: 0,
            placement_hash: 0,
            unmoved_hash: 0,
            lineages: <V::Lineages as SquareStore<[u8; 4]>>::EMPTY,
            halfmove_clock: 0,
            fullmove_number: 1,
            counters: [V::NO_COUNTERS; 2],
            hands: [V::NO_HAND; 2],
        }
    }

    /// The side to move: 0 White, 1 Black.
    #[inline(always)]
    pub fn side(&self) -> usize {
        self.turn as usize
    }

    /// Every occupied square.
    #[inline(always)]
    pub fn occupied(&self) -> V::Bb {
        self.colors[0] | self.colors[1]
    }

    /// The code of the piece on `square`, 0 if it is empty.
    #[inline(always)]
    pub fn code_at(&self, square: usize) -> u8 {
        if <V::Codes as SquareStore<u8>>::KEPT {
            return self.board.get(square);
        }
        let b = V::Bb::bit(square);
        let color = if !(self.colors[0] & b).is_empty() {
            0
        } else if !(self.colors[1] & b).is_empty() {
            1
        } else {
            return 0;
        };
        (0..V::KINDS)
            .find(|&kind| !(self.pieces[kind] & b).is_empty())
            .map_or(0, |kind| code_of(kind, color))
    }

    /// The kind of the piece on `square`, which must hold one.
    #[inline(always)]
    pub fn kind_on_occupied(&self, square: usize) -> usize {
        if <V::Codes as SquareStore<u8>>::KEPT {
            return kind_of(self.board.get(square));
        }
        let b = V::Bb::bit(square);
        (0..V::KINDS)
            .find(|&kind| !(self.pieces[kind] & b).is_empty())
            .unwrap_or(0)
    }

    /// Whether `square` holds a piece.
    #[inline(always)]
    pub fn is_occupied(&self, square: usize) -> bool {
        !(self.occupied() & V::Bb::bit(square)).is_empty()
    }

    /// The royal pieces of `color`.
    #[inline(always)]
    pub fn royals(&self, color: usize) -> V::Bb {
        let mut royal = V::Bb::EMPTY;
        for kind in 0..V::KINDS {
            if has_kind(V::ROYAL_KINDS, kind) {
                royal |= self.pieces[kind];
            }
        }
        royal & self.colors[color]
    }

    /// Puts the piece `code` on the empty square `square`.
    #[inline(always)]
    pub fn put(&mut self, square: usize, code: u8) {
        let b = V::Bb::bit(square);
        self.pieces[kind_of(code)] |= b;
        self.colors[color_of(code)] |= b;
        self.board.set(square, code);
        self.placement_hash ^= V::zobrist_piece(code, square);
    }

    /// Empties `square` (which holds a piece) and returns its code.
    #[inline(always)]
    pub fn take(&mut self, square: usize) -> u8 {
        let code = self.code_at(square);
        self.remove(square, code);
        code
    }

    /// Empties `square`, which holds the piece `code`.
    #[inline(always)]
    fn remove(&mut self, square: usize, code: u8) {
        if !(self.unmoved & V::Bb::bit(square)).is_empty() {
            self.unmoved_hash ^= V::zobrist_unmoved(code, square);
        }
        let b = !V::Bb::bit(square);
        self.pieces[kind_of(code)] &= b;
        self.colors[color_of(code)] &= b;
        self.unmoved &= b;
        self.board.set(square, 0);
        self.placement_hash ^= V::zobrist_piece(code, square);
    }

    /// The kinds the piece on `square` has been, oldest first.
    #[inline]
    pub fn lineage(&self, square: usize) -> impl Iterator<Item = usize> + Clone {
        let stored = self.lineages.get(square);
        (1..1 + stored[0] as usize).map(move |i| stored[i] as usize)
    }

    /// Whether the lineage of the piece on `square` ends with `kinds`.
    #[inline]
    pub fn lineage_ends_with(&self, square: usize, kinds: &[u8]) -> bool {
        let stored = self.lineages.get(square);
        stored[1..1 + stored[0] as usize].ends_with(kinds)
    }

    /// Adds `kind` to the lineage of `square`, forgetting the oldest of three.
    #[inline]
    fn remember_kind(&mut self, square: usize, kind: u8) {
        let mut stored = self.lineages.get(square);
        if stored[0] == 3 {
            stored = [2, stored[2], stored[3], 0];
        }
        stored[0] += 1;
        stored[stored[0] as usize] = kind;
        self.lineages.set(square, stored);
    }

    /// Moves the lineage of `from` to `to`.
    #[inline(always)]
    fn move_lineage(&mut self, from: usize, to: usize) {
        let stored = self.lineages.get(from);
        self.lineages.set(from, [0; 4]);
        self.lineages.set(to, stored);
    }

    /// Turns the piece on `square` into `kind` (promotion in place, crowning).
    #[inline]
    pub fn change_kind(&mut self, square: usize, kind: usize) {
        let code = self.code_at(square);
        let unmoved = !(self.unmoved & V::Bb::bit(square)).is_empty();
        self.take(square);
        self.remember_kind(square, kind_of(code) as u8);
        self.put(square, code_of(kind, color_of(code)));
        if unmoved {
            self.mark_unmoved(square);
        }
    }

    /// Marks the piece on `square` as unmoved.
    #[inline]
    pub fn mark_unmoved(&mut self, square: usize) {
        let b = V::Bb::bit(square);
        if (self.unmoved & b).is_empty() {
            self.unmoved |= b;
            self.unmoved_hash ^= V::zobrist_unmoved(self.code_at(square), square);
        }
    }

    /// [`Pos::unmoved_hash`] computed from scratch (the incremental one
    /// must equal it).
    pub fn computed_unmoved_hash(&self) -> u64 {
        Squares(self.unmoved).fold(0, |hash, square| {
            hash ^ V::zobrist_unmoved(self.code_at(square), square)
        })
    }

    /// The placement hash computed from scratch (the incremental one must
    /// equal it).
    pub fn computed_placement_hash(&self) -> u64 {
        Squares(self.occupied()).fold(0, |hash, square| {
            hash ^ V::zobrist_piece(self.code_at(square), square)
        })
    }

    /// The position of a runtime [`Position`]; pieces off this board or of
    /// unknown kinds are left out.
    pub fn from_runtime(position: &Position) -> Pos<V> {
        let mut pos = Pos::empty();
        for (square, piece) in position.pieces() {
            let Some(index) = dense_square::<V>(square) else {
                continue;
            };
            if piece.kind() >= V::KINDS {
                continue;
            }
            pos.put(index, code_of(piece.kind(), piece.color().index()));
            if piece.is_unmoved() {
                pos.mark_unmoved(index);
            }
            let mut lineage = [0u8; 4];
            for kind in piece.history() {
                lineage[0] += 1;
                lineage[lineage[0] as usize] = kind as u8;
            }
            SquareStore::<[u8; 4]>::set(&mut pos.lineages, index, lineage);
        }
        if V::HANDS {
            for color in Color::ALL {
                let hand = AsMut::<[u8]>::as_mut(&mut pos.hands[color.index()]);
                for (kind, count) in hand.iter_mut().enumerate() {
                    *count = position.in_hand(color, kind);
                }
            }
        }
        pos.turn = position.side_to_move().index() as u8;
        pos.castling = [
            position.castling_rights(Color::White),
            position.castling_rights(Color::Black),
        ];
        if let Some(en_passant) = position.en_passant() {
            for index in en_passant.targets.iter().filter_map(dense_square::<V>) {
                pos.en_passant_targets |= V::Bb::bit(index);
            }
            if let Some(victim) = en_passant.victim.and_then(dense_square::<V>) {
                pos.en_passant_victim = victim as u16;
            }
        }
        pos
    }

    /// The position after `mv` (copy-make), hashes updated incrementally.
    #[inline(always)]
    pub fn make(&self, mv: Mv) -> Pos<V> {
        let mut next = *self;
        next.play(mv);
        next
    }

    /// Plays `mv` in place. Copy-make copies the position once, in the
    /// caller's frame ([`Pos::make`]), and this updates that copy.
    #[inline]
    pub fn play(&mut self, mv: Mv) {
        let p = self;
        let us = p.side();
        if let (Some(square), Some(succession)) = (mv.crown(), V::SUCCESSION) {
            p.change_kind(square, succession.becomes as usize);
        }
        let from = mv.from as usize;
        let to = mv.to as usize;
        // Generation wrote the moving piece into the move, except where a
        // crowning changes it first.
        let moving = if mv.crowns() {
            p.code_at(from)
        } else {
            mv.piece
        };
        let mut next_targets = V::Bb::EMPTY;
        let mut next_victim = NO_SQUARE;
        let mut touched = NO_SQUARE;
        if mv.kind == MoveKind::Drop {
            let kind = mv.aux as usize;
            let hand: &mut [u8] = p.hands[us].as_mut();
            if let Some(count) = hand.get_mut(kind) {
                *count = count.saturating_sub(1);
            }
            p.put(to, code_of(kind, us));
            let unmoved = V::UNMOVED_DROPS
                .get(kind)
                .is_some_and(|squares| !(squares[us] & V::Bb::bit(to)).is_empty());
            if unmoved {
                p.mark_unmoved(to);
            }
            // Nothing else changes: no en passant square, no castling right
            // (the square was empty, so no rook there had one).
            p.en_passant_targets = V::Bb::EMPTY;
            p.en_passant_victim = NO_SQUARE;
            p.turn = (1 - us) as u8;
            return;
        }
        let mut blasts = false;
        if mv.kind == MoveKind::Castle {
            let rook_from = mv.aux as usize;
            let rook_to = mv.aux2 as usize;
            touched = rook_from as u16;
            let king = p.take(from);
            let rook = p.take(rook_from);
            let (king_lineage, rook_lineage) = (p.lineages.get(from), p.lineages.get(rook_from));
            p.lineages.set(from, [0; 4]);
            p.lineages.set(rook_from, [0; 4]);
            p.lineages.set(to, king_lineage);
            p.lineages.set(rook_to, rook_lineage);
            if p.is_occupied(to) {
                p.take(to);
            }
            if p.is_occupied(rook_to) {
                p.take(rook_to);
            }
            p.put(to, king);
            p.put(rook_to, rook);
        } else {
            let victim = if mv.kind == MoveKind::EnPassant {
                touched = mv.aux as u16;
                mv.aux as usize
            } else {
                to
            };
            let mut captured = false;
            if victim != from && p.is_occupied(victim) {
                captured = true;
                let code = p.take(victim);
                if V::CAPTURES_TO_HAND {
                    p.add_to_hand(us, victim, kind_of(code));
                }
                blasts = true;
                p.lineages.set(victim, [0; 4]);
            }
            let was_unmoved = p.unmoved & V::Bb::bit(from);
            let mut code = moving;
            p.remove(from, moving);
            if mv.promotion != NO_KIND {
                p.remember_kind(from, kind_of(code) as u8);
                code = code_of(mv.promotion as usize, us);
            }
            if to != from {
                p.move_lineage(from, to);
            }
            p.put(to, code);
            if to == from && !was_unmoved.is_empty() {
                p.mark_unmoved(from);
            }
            if mv.kind == MoveKind::Normal
                && !captured
                && to != from
                && has_kind(V::EN_PASSANT_KINDS, kind_of(code))
            {
                (next_targets, next_victim) = passed_squares::<V>(from, to);
                // The opponent captures onto these squares: only its zone's.
                next_targets &= V::EN_PASSANT_ZONE[1 - us];
                if next_targets.is_empty() {
                    next_victim = NO_SQUARE;
                }
            }
        }
        if let Some((kind, square)) = mv.gate() {
            // The square the move left (or the castling rook's), empty now.
            let hand: &mut [u8] = p.hands[us].as_mut();
            if let Some(count) = hand.get_mut(kind) {
                *count = count.saturating_sub(1);
            }
            p.put(square, code_of(kind, us));
        }
        if let Some(radius) = V::EXPLOSION_RADIUS.filter(|_| blasts) {
            p.explode(to, radius);
        }
        if !V::FIRST_MOVE_LOSSES.is_empty() && mv.kind != MoveKind::Castle && to != from {
            p.lose_first_moves(kind_of(moving), us, to);
        }
        if p.castling != [0, 0] {
            if has_kind(V::CASTLING_KINGS, kind_of(moving)) && from != to {
                p.castling[color_of(moving)] = 0;
            }
            for square in [from, to, touched as usize] {
                if let Some(kept) = Self::CASTLING_KEPT.get(square) {
                    p.castling[0] &= kept[0];
                    p.castling[1] &= kept[1];
                }
            }
        }
        p.en_passant_targets = next_targets;
        p.en_passant_victim = next_victim;
        p.turn = (1 - us) as u8;
    }

    /// `first-move of PIECES lost when opponent PIECES moves onto its rank
    /// or file`: after a move of a piece of `kind` by `us` to `to`, the
    /// opponent's unmoved pieces of the rule's kinds on that rank or file
    /// are moved, whatever stands between.
    #[inline(never)]
    fn lose_first_moves(&mut self, kind: usize, us: usize, to: usize) {
        let target = runtime_square::<V>(to);
        for rule in V::FIRST_MOVE_LOSSES {
            if !has_kind(rule.by, kind) {
                continue;
            }
            for square in Squares(self.unmoved & self.colors[1 - us]) {
                let code = self.code_at(square);
                let at = runtime_square::<V>(square);
                if has_kind(rule.pieces, kind_of(code))
                    && (at.file == target.file || at.rank == target.rank)
                {
                    self.unmoved &= !V::Bb::bit(square);
                    self.unmoved_hash ^= V::zobrist_unmoved(code, square);
                }
            }
        }
    }

    /// Per dense square, the castling rights (White's, Black's) that a
    /// move from or to the square keeps (see [`castling_kept`]).
    const CASTLING_KEPT: [[u16; 2]; MAX_SQUARES] = castling_kept(V::CASTLING_RULES, V::FILES);

    /// A piece of `kind` captured on `square` goes to `color`'s hand: as
    /// the first kind of its lineage where the variant demotes.
    #[inline]
    fn add_to_hand(&mut self, color: usize, square: usize, kind: usize) {
        let mut in_hand = kind;
        if V::DEMOTES {
            if let Some(first) = self.lineage(square).next() {
                in_hand = first;
            }
        }
        let hand: &mut [u8] = self.hands[color].as_mut();
        if let Some(count) = hand.get_mut(in_hand) {
            *count = count.saturating_add(1);
        }
    }

    /// How many pieces of `kind` `color` holds in hand.
    #[inline(always)]
    pub fn in_hand(&self, color: usize, kind: usize) -> u8 {
        let hand: &[u8] = self.hands[color].as_ref();
        hand.get(kind).copied().unwrap_or(0)
    }

    /// Whether a royal piece of `color` is attacked.
    /// Whether a royal piece of `color` is attacked. Under explosions a
    /// royal piece that a blast on its square would share with an
    /// opponent's royal piece is not: capturing it would blow up the
    /// capturer's own.
    #[inline]
    pub fn royal_attacked(&self, color: usize) -> bool {
        let occupied = self.occupied();
        Squares(self.royals(color)).any(|royal| {
            (V::is_attacked(self, royal, occupied, 1 - color)
                || (V::ROYALS_FACE && self.faces_opponent_royal(royal, color)))
                && !self.shielded_by_blast(royal, 1 - color)
        })
    }

    /// The squares within `radius` king steps of `center` (itself included).
    fn blast_zone(center: usize, radius: u8) -> V::Bb {
        let radius = radius as usize;
        let (file, rank) = (center % V::FILES, center / V::FILES);
        let mut zone = V::Bb::EMPTY;
        for r in rank.saturating_sub(radius)..=(rank + radius).min(V::RANKS - 1) {
            for f in file.saturating_sub(radius)..=(file + radius).min(V::FILES - 1) {
                zone |= V::Bb::bit(r * V::FILES + f);
            }
        }
        zone & V::BOARD
    }

    /// Under explosions: whether a blast on `square` would destroy a royal
    /// piece of `attacker` (so `attacker` may not capture there).
    #[inline]
    pub fn shielded_by_blast(&self, square: usize, attacker: usize) -> bool {
        let Some(radius) = V::EXPLOSION_RADIUS else {
            return false;
        };
        let mut destroyable = V::Bb::EMPTY;
        for kind in 0..V::KINDS {
            if has_kind(V::ROYAL_KINDS, kind) && !has_kind(V::BLAST_IMMUNE_KINDS, kind) {
                destroyable |= self.pieces[kind];
            }
        }
        !(Self::blast_zone(square, radius) & destroyable & self.colors[attacker]).is_empty()
    }

    /// A capture on `center` explodes: the capturer and every piece of a
    /// kind the blast destroys within `radius` go (castling rights on
    /// their squares go with them, below).
    fn explode(&mut self, center: usize, radius: u8) {
        let mut immune = V::Bb::EMPTY;
        for kind in 0..V::KINDS {
            if has_kind(V::BLAST_IMMUNE_KINDS, kind) {
                immune |= self.pieces[kind];
            }
        }
        let blasted =
            (Self::blast_zone(center, radius) & self.occupied() & !immune) | V::Bb::bit(center);
        for square in Squares(blasted) {
            if self.is_occupied(square) {
                self.take(square);
                self.lineages.set(square, [0; 4]);
            }
            for rule in V::CASTLING_RULES {
                for color in 0..2 {
                    if square / V::FILES == rule.ranks[color] {
                        self.castling[color] &= !(1u16 << (square % V::FILES));
                    }
                }
            }
        }
    }

    /// Whether a royal piece of `color` sees a royal piece of the opponent
    /// along an open file or rank.
    pub fn royals_face(&self, color: usize) -> bool {
        Squares(self.royals(color)).any(|royal| self.faces_opponent_royal(royal, color))
    }

    /// Whether the position after a move of `side` from `self` is legal
    /// under the check rule: no royal piece of the mover attacked. Under
    /// explosions, a move that blows up one of the mover's royal pieces is
    /// illegal, one that blows up one of the opponent's legal whatever it
    /// leaves attacked.
    #[inline]
    pub fn royals_safe_after(&self, after: &Pos<V>, side: usize) -> bool {
        if V::EXPLOSION_RADIUS.is_some() {
            if after.royals(side).popcnt() < self.royals(side).popcnt() {
                return false;
            }
            if after.royals(1 - side).popcnt() < self.royals(1 - side).popcnt() {
                return true;
            }
        }
        !after.royal_attacked(side)
    }

    /// Whether the royal piece of `color` on `royal` sees a royal piece of
    /// the opponent along a file or rank with only empty squares between
    /// them (`royals may not face each other`, which makes that an
    /// attack). A hole of the board ends the line, as it ends a ride.
    pub(crate) fn faces_opponent_royal(&self, royal: usize, color: usize) -> bool {
        let theirs = self.royals(1 - color);
        if theirs.is_empty() {
            return false;
        }
        let occupied = self.occupied();
        let (file, rank) = ((royal % V::FILES) as i32, (royal / V::FILES) as i32);
        [(0, 1), (0, -1), (1, 0), (-1, 0)].iter().any(|&(dx, dy)| {
            let (mut f, mut r) = (file + dx, rank + dy);
            while f >= 0 && r >= 0 && (f as usize) < V::FILES && (r as usize) < V::RANKS {
                let square = V::Bb::bit(r as usize * V::FILES + f as usize);
                if (V::BOARD & square).is_empty() {
                    return false;
                }
                if !(occupied & square).is_empty() {
                    return !(theirs & square).is_empty();
                }
                f += dx;
                r += dy;
            }
            false
        })
    }
}

/// The most squares a board has (the widest square set's bits).
const MAX_SQUARES: usize = 256;

/// Per dense square, the castling rights each side keeps after a move from
/// or to it: a move from or to a square of a castling rank takes that
/// file's right (computed when the engine is compiled, so that a move
/// clears rights with two masks instead of a loop over the rules).
const fn castling_kept(rules: &[CastlingRule], files: usize) -> [[u16; 2]; MAX_SQUARES] {
    let mut kept = [[u16::MAX; 2]; MAX_SQUARES];
    let mut rule = 0;
    while rule < rules.len() {
        let mut color = 0;
        while color < 2 {
            let first = rules[rule].ranks[color] * files;
            let mut file = 0;
            while file < files && file < 16 && first + file < MAX_SQUARES {
                kept[first + file][color] &= !(1u16 << file);
                file += 1;
            }
            color += 1;
        }
        rule += 1;
    }
    kept
}

/// The squares a move from `from` to `to` passes (for en passant) and the
/// square of the piece that passed them; nothing unless it moves two or
/// more squares along a line.
fn passed_squares<V: CompiledVariant>(from: usize, to: usize) -> (V::Bb, u16) {
    // Most pawn moves are one step along the file: no geometry needed.
    if from.abs_diff(to) == V::FILES {
        return (V::Bb::EMPTY, NO_SQUARE);
    }
    let (from_file, from_rank) = ((from % V::FILES) as i32, (from / V::FILES) as i32);
    let (to_file, to_rank) = ((to % V::FILES) as i32, (to / V::FILES) as i32);
    let (df, dr) = (to_file - from_file, to_rank - from_rank);
    let steps = df.abs().max(dr.abs());
    if steps < 2 || !(df == 0 || dr == 0 || df.abs() == dr.abs()) {
        return (V::Bb::EMPTY, NO_SQUARE);
    }
    let mut passed = V::Bb::EMPTY;
    for i in 1..steps {
        let square = (from_rank + dr.signum() * i) * V::FILES as i32 + from_file + df.signum() * i;
        passed |= V::Bb::bit(square as usize);
    }
    (passed, to as u16)
}

/// The dense index of a runtime square, if it is on the board rectangle.
#[inline]
pub fn dense_square<V: CompiledVariant>(square: Square) -> Option<usize> {
    let (file, rank) = (square.file as usize, square.rank as usize);
    (file < V::FILES && rank < V::RANKS).then_some(rank * V::FILES + file)
}

/// The runtime square of a dense index.
#[inline]
pub fn runtime_square<V: CompiledVariant>(square: usize) -> Square {
    Square::new((square % V::FILES) as u8, (square / V::FILES) as u8)
}
