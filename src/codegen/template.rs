//! The half of the generated engine that is the same for every variant:
//! the position, moves, sinks, copy-make with incremental hashing, the
//! special moves read from the rules data (castling, en passant, delayed
//! promotion, succession), legal generation, perft and the bridge to the
//! runtime's `Rules` trait. It reads the constants and functions that
//! [`super::engine`] emits; the history field exists only for variants
//! whose rules read a piece's lineage.

use proc_macro2::TokenStream;
use quote::quote;

/// The fixed items. `track_history`: whether positions carry lineage.
pub fn emit(track_history: bool) -> TokenStream {
    let history_field = if track_history {
        quote! {
            /// Per square: number of earlier kinds, then up to three kinds, oldest first.
            pub history: [[u8; 4]; SQUARES],
        }
    } else {
        quote! {}
    };
    let history_init = if track_history {
        quote! { history: [[0; 4]; SQUARES], }
    } else {
        quote! {}
    };
    let history_ops = if track_history {
        quote! {
            #[inline]
            fn move_history(&mut self, from: usize, to: usize) {
                self.history[to] = self.history[from];
                self.history[from] = [0; 4];
            }
            #[inline]
            fn clear_history(&mut self, square: usize) { self.history[square] = [0; 4]; }
            #[inline]
            fn remember_kind(&mut self, square: usize, kind: u8) {
                let h = &mut self.history[square];
                if h[0] as usize == 3 { h[1] = h[2]; h[2] = h[3]; h[0] = 2; }
                h[0] += 1;
                h[h[0] as usize] = kind;
            }
            #[inline]
            fn history_at(&self, square: usize) -> [u8; 4] { self.history[square] }
            #[inline]
            fn set_history(&mut self, square: usize, history: [u8; 4]) { self.history[square] = history; }
            /// The kinds the piece on `square` has been, oldest first.
            pub fn lineage(&self, square: usize) -> &[u8] {
                let h = &self.history[square];
                &h[1..1 + h[0] as usize]
            }
            fn set_lineage(&mut self, square: usize, kinds: &[usize]) {
                let skip = kinds.len().saturating_sub(3);
                let mut h = [0u8; 4];
                for kind in &kinds[skip..] { h[0] += 1; h[h[0] as usize] = *kind as u8; }
                self.history[square] = h;
            }
        }
    } else {
        quote! {
            #[inline(always)]
            fn move_history(&mut self, _from: usize, _to: usize) {}
            #[inline(always)]
            fn clear_history(&mut self, _square: usize) {}
            #[inline(always)]
            fn remember_kind(&mut self, _square: usize, _kind: u8) {}
            #[inline(always)]
            fn history_at(&self, _square: usize) -> [u8; 4] { [0; 4] }
            #[inline(always)]
            fn set_history(&mut self, _square: usize, _history: [u8; 4]) {}
            /// The kinds the piece on `square` has been (not tracked in this variant).
            pub fn lineage(&self, _square: usize) -> &[u8] { &[] }
            fn set_lineage(&mut self, _square: usize, _kinds: &[usize]) {}
        }
    };
    quote! {
        /// "No square".
        pub const NO_SQUARE: u16 = u16::MAX;
        /// "No kind" in a move's promotion field.
        pub const NO_KIND: u8 = u8::MAX;

        /// The kind of a non-empty square code.
        #[inline(always)]
        pub fn kind_of(code: u8) -> usize { ((code - 1) >> 1) as usize }
        /// The colour (0 White, 1 Black) of a non-empty square code.
        #[inline(always)]
        pub fn color_of(code: u8) -> usize { ((code - 1) & 1) as usize }
        /// The square code of a piece.
        #[inline(always)]
        pub fn code_of(kind: usize, color: usize) -> u8 { (1 + kind * 2 + color) as u8 }

        /// What a move does beyond moving one piece.
        pub mod move_kind {
            /// A plain move or capture.
            pub const NORMAL: u8 = 0;
            /// En passant: `aux` is the captured piece's square.
            pub const EN_PASSANT: u8 = 1;
            /// Castling: `aux` is the rook's square, `aux2` its destination.
            pub const CASTLE: u8 = 2;
            /// Delayed promotion in place, then `to` (`to == from`: it stays).
            pub const DELAYED_PROMOTION: u8 = 3;
        }

        /// A move of the generated engine.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub struct Mv {
            /// Origin square.
            pub from: u8,
            /// Destination square.
            pub to: u8,
            /// One of [`move_kind`].
            pub kind: u8,
            /// Promotion kind or [`NO_KIND`].
            pub promotion: u8,
            /// En passant victim or castling rook square.
            pub aux: u8,
            /// Castling rook destination.
            pub aux2: u8,
            /// Square of the piece crowned first (A2), if `crowns`.
            pub crown: u8,
            /// Whether the move starts with a crowning.
            pub crowns: bool,
        }

        impl Mv {
            /// A normal move.
            #[inline(always)]
            pub fn normal(from: usize, to: usize, promotion: u8) -> Mv {
                Mv { from: from as u8, to: to as u8, kind: move_kind::NORMAL, promotion, aux: 0, aux2: 0, crown: 0, crowns: false }
            }
        }

        /// Where generated moves go: a list, or a counter (bulk counting).
        pub trait Sink {
            /// Normal moves from `from` to every square of `targets`.
            fn moves(&mut self, from: usize, targets: Bb);
            /// Promotions into each of `choices` (and the plain move if `optional`).
            fn promotions(&mut self, from: usize, targets: Bb, choices: &[u8], optional: bool);
            /// One move.
            fn push(&mut self, mv: Mv);
            /// Normal moves onto every square of `targets`, each from the
            /// square `offset` before it (set-wise generation).
            fn shifted(&mut self, targets: Bb, offset: isize);
            /// Promotions onto `targets`, each from `offset` before it.
            fn shifted_promotions(&mut self, targets: Bb, offset: isize, choices: &[u8], optional: bool);
        }

        impl Sink for Vec<Mv> {
            #[inline(always)]
            fn moves(&mut self, from: usize, targets: Bb) {
                let mut t = targets;
                while t != EMPTY { self.push(Mv::normal(from, lsb(t), NO_KIND)); t = clear_lsb(t); }
            }
            #[inline]
            fn promotions(&mut self, from: usize, targets: Bb, choices: &[u8], optional: bool) {
                let mut t = targets;
                while t != EMPTY {
                    let to = lsb(t);
                    t = clear_lsb(t);
                    if optional { self.push(Mv::normal(from, to, NO_KIND)); }
                    for choice in choices { self.push(Mv::normal(from, to, *choice)); }
                }
            }
            #[inline(always)]
            fn push(&mut self, mv: Mv) { Vec::push(self, mv); }
            #[inline(always)]
            fn shifted(&mut self, targets: Bb, offset: isize) {
                let mut t = targets;
                while t != EMPTY {
                    let to = lsb(t);
                    self.push(Mv::normal((to as isize - offset) as usize, to, NO_KIND));
                    t = clear_lsb(t);
                }
            }
            #[inline]
            fn shifted_promotions(&mut self, targets: Bb, offset: isize, choices: &[u8], optional: bool) {
                let mut t = targets;
                while t != EMPTY {
                    let to = lsb(t);
                    t = clear_lsb(t);
                    let from = (to as isize - offset) as usize;
                    if optional { self.push(Mv::normal(from, to, NO_KIND)); }
                    for choice in choices { self.push(Mv::normal(from, to, *choice)); }
                }
            }
        }

        /// Counts moves without listing them.
        #[derive(Default)]
        pub struct Counter(pub u64);

        impl Sink for Counter {
            #[inline(always)]
            fn moves(&mut self, _from: usize, targets: Bb) { self.0 += popcnt(targets) as u64; }
            #[inline(always)]
            fn promotions(&mut self, _from: usize, targets: Bb, choices: &[u8], optional: bool) {
                self.0 += popcnt(targets) as u64 * (choices.len() as u64 + optional as u64);
            }
            #[inline(always)]
            fn push(&mut self, _mv: Mv) { self.0 += 1; }
            #[inline(always)]
            fn shifted(&mut self, targets: Bb, _offset: isize) { self.0 += popcnt(targets) as u64; }
            #[inline(always)]
            fn shifted_promotions(&mut self, targets: Bb, _offset: isize, choices: &[u8], optional: bool) {
                self.0 += popcnt(targets) as u64 * (choices.len() as u64 + optional as u64);
            }
        }

        /// Restrictions on the side to move's moves: check and pin masks.
        #[derive(Clone, Copy, Debug)]
        pub struct Masks {
            /// The royal piece, generated apart (empty without masks).
            pub skip: Bb,
            /// Destinations that resolve the check (the board if none).
            pub check: Bb,
            /// Pinned pieces.
            pub pinned: Bb,
            /// The line each pinned piece may move along (see `pin_squares`).
            pub pin_lines: [Bb; MAX_PINS],
            /// The pinned pieces' squares, in the order of `pin_lines`.
            pub pin_squares: [u8; MAX_PINS],
            /// Number of checking pieces.
            pub checkers: u32,
            /// Number of entries of `pin_lines`.
            pub pin_count: u32,
            /// Whether special moves must be tried (made and tested).
            pub verify_specials: bool,
        }

        impl Masks {
            /// No restriction: pseudo-legal moves.
            pub const NONE: Masks = Masks { skip: EMPTY, check: BOARD, pinned: EMPTY, pin_lines: [EMPTY; MAX_PINS], pin_squares: [0; MAX_PINS], checkers: 0, pin_count: 0, verify_specials: false };

            /// Where the piece on `from` may go.
            #[inline(always)]
            pub fn targets_from(&self, from: usize) -> Bb {
                if self.pinned & bit(from) == EMPTY {
                    return self.check;
                }
                let mut allowed = self.check;
                for i in 0..self.pin_count as usize {
                    if self.pin_squares[i] as usize == from { allowed &= self.pin_lines[i]; }
                }
                allowed
            }
        }

        /// A castling rule as data.
        pub struct CastlingRule {
            /// The king's kind.
            pub king: u8,
            /// The rook's kind.
            pub rook: u8,
            /// King and rook destination files of the short castling.
            pub short: (usize, usize),
            /// King and rook destination files of the long castling.
            pub long: (usize, usize),
            /// The king may not castle out of check.
            pub not_from_check: bool,
            /// The king may not pass an attacked square.
            pub not_through_check: bool,
            /// The king may not land on an attacked square.
            pub not_into_check: bool,
            /// Bit `f`: a rook on file `f` may castle even if it moved.
            pub loose_rook_files: u16,
            /// The king must have been these kinds (most recent last).
            pub king_lineage: Option<&'static [u8]>,
        }

        /// A promotion rule as data.
        pub struct PromotionRule {
            /// Kinds it may become.
            pub choices: &'static [u8],
            /// Whether the player may keep the piece.
            pub optional: bool,
            /// Whether it happens on a later turn.
            pub delayed: bool,
            /// Delayed rules: 0 no follow-up, 1 any move, 2 move only, 3 capture only.
            pub follow_up: u8,
        }

        /// A position of the generated engine.
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub struct Pos {
            /// Squares of each kind (both colours).
            pub pieces: [Bb; KINDS],
            /// Squares of each colour.
            pub colors: [Bb; 2],
            /// Per square: 0 or `1 + kind * 2 + color`.
            pub board: [u8; SQUARES],
            /// Pieces that have not moved.
            pub unmoved: Bb,
            /// Squares an en passant capture may land on.
            pub en_passant_targets: Bb,
            /// The piece an en passant capture removes, or [`NO_SQUARE`].
            pub en_passant_victim: u16,
            /// Castling rights per side: bit `f` for the rook on file `f`.
            pub castling: [u16; 2],
            /// Side to move: 0 White, 1 Black.
            pub side: usize,
            /// Zobrist hash of the whole position.
            pub hash: u64,
            /// Zobrist hash of the placement alone (kinds, colours, squares).
            pub placement_hash: u64,
            #history_field
        }

        impl Pos {
            /// An empty board, White to move.
            pub fn empty() -> Pos {
                Pos {
                    pieces: [EMPTY; KINDS],
                    colors: [EMPTY; 2],
                    board: [0; SQUARES],
                    unmoved: EMPTY,
                    en_passant_targets: EMPTY,
                    en_passant_victim: NO_SQUARE,
                    castling: [0; 2],
                    side: 0,
                    hash: 0,
                    placement_hash: 0,
                    #history_init
                }
            }

            /// Puts the piece `code` on the empty square `square`.
            #[inline(always)]
            fn put(&mut self, square: usize, code: u8) {
                let b = bit(square);
                self.pieces[kind_of(code)] |= b;
                self.colors[color_of(code)] |= b;
                self.board[square] = code;
                self.placement_hash ^= ZOBRIST_PIECES[code as usize][square];
            }

            /// Empties `square` (which holds a piece) and returns its code.
            #[inline(always)]
            fn take(&mut self, square: usize) -> u8 {
                let code = self.board[square];
                let b = bit(square);
                self.pieces[kind_of(code)] &= !b;
                self.colors[color_of(code)] &= !b;
                self.unmoved &= !b;
                self.board[square] = 0;
                self.placement_hash ^= ZOBRIST_PIECES[code as usize][square];
                code
            }

            #history_ops

            /// The hash of the castling rights.
            #[inline]
            fn castling_hash(&self) -> u64 {
                let mut h = 0;
                for color in 0..2 {
                    let mut rights = self.castling[color];
                    while rights != 0 {
                        h ^= ZOBRIST_CASTLING[color][rights.trailing_zeros() as usize % 16];
                        rights &= rights - 1;
                    }
                }
                h
            }

            /// The hash of everything but the placement.
            #[inline(always)]
            fn state_hash(&self) -> u64 {
                let mut h = if self.side == 1 { ZOBRIST_BLACK_TO_MOVE } else { 0 };
                h ^= self.castling_hash();
                if self.en_passant_victim != NO_SQUARE {
                    h ^= ZOBRIST_EN_PASSANT[self.en_passant_victim as usize];
                }
                h
            }

            /// Both hashes computed from scratch (the incremental ones must equal them).
            pub fn computed_hashes(&self) -> (u64, u64) {
                let mut placement = 0;
                for square in 0..SQUARES {
                    let code = self.board[square];
                    if code != 0 { placement ^= ZOBRIST_PIECES[code as usize][square]; }
                }
                (placement ^ self.state_hash(), placement)
            }

            /// The position of a runtime [`Position`].
            pub fn from_runtime(position: &Position) -> Pos {
                let mut pos = Pos::empty();
                for (square, piece) in position.pieces() {
                    let (file, rank) = (square.file as usize, square.rank as usize);
                    if file >= FILES || rank >= RANKS || piece.kind() >= KINDS { continue; }
                    let index = rank * FILES + file;
                    pos.put(index, code_of(piece.kind(), piece.color().index()));
                    if piece.is_unmoved() { pos.unmoved |= bit(index); }
                    let lineage: Vec<usize> = piece.history().collect();
                    pos.set_lineage(index, &lineage);
                }
                pos.side = position.side_to_move().index();
                pos.castling = [position.castling_rights(Color::White), position.castling_rights(Color::Black)];
                if let Some(ep) = position.en_passant() {
                    for square in ep.targets.iter() {
                        if (square.file as usize) < FILES && (square.rank as usize) < RANKS {
                            pos.en_passant_targets |= bit(square.rank as usize * FILES + square.file as usize);
                        }
                    }
                    if let Some(victim) = ep.victim {
                        pos.en_passant_victim = (victim.rank as usize * FILES + victim.file as usize) as u16;
                    }
                }
                pos.hash = pos.placement_hash ^ pos.state_hash();
                pos
            }

            /// Turns the piece on `square` into `kind` (promotion in place, crowning).
            #[inline]
            fn change_kind(&mut self, square: usize, kind: usize) {
                let code = self.board[square];
                let unmoved = self.unmoved & bit(square);
                self.take(square);
                self.remember_kind(square, kind_of(code) as u8);
                self.put(square, code_of(kind, color_of(code)));
                self.unmoved |= unmoved;
            }
        }

        /// A runtime square of a dense index.
        #[inline]
        pub fn runtime_square(square: usize) -> Square {
            Square::new((square % FILES) as u8, (square / FILES) as u8)
        }

        /// The runtime move of a generated move.
        pub fn to_runtime(mv: Mv) -> Move {
            let kind = match mv.kind {
                move_kind::EN_PASSANT => MoveKind::EnPassant { victim: runtime_square(mv.aux as usize) },
                move_kind::CASTLE => MoveKind::Castle { rook_from: runtime_square(mv.aux as usize), rook_to: runtime_square(mv.aux2 as usize) },
                move_kind::DELAYED_PROMOTION => MoveKind::DelayedPromotion,
                _ => MoveKind::Normal,
            };
            Move {
                from: runtime_square(mv.from as usize),
                to: runtime_square(mv.to as usize),
                kind,
                promotion: (mv.promotion != NO_KIND).then_some(mv.promotion as usize),
                crown: mv.crowns.then(|| runtime_square(mv.crown as usize)),
            }
        }

        /// The position after `mv` (copy-make), hashes updated incrementally.
        pub fn make(pos: &Pos, mv: Mv) -> Pos {
            let mut p = pos.clone();
            let us = p.side;
            if mv.crowns {
                p.change_kind(mv.crown as usize, SUCCESSION_BECOMES as usize);
            }
            let from = mv.from as usize;
            let to = mv.to as usize;
            let moving = p.board[from];
            let mut next_targets = EMPTY;
            let mut next_victim = NO_SQUARE;
            let mut touched = NO_SQUARE;
            if mv.kind == move_kind::CASTLE {
                let rook_from = mv.aux as usize;
                let rook_to = mv.aux2 as usize;
                touched = rook_from as u16;
                let king = p.take(from);
                let rook = p.take(rook_from);
                let (king_history, rook_history) = (p.history_at(from), p.history_at(rook_from));
                p.set_history(from, [0; 4]);
                p.set_history(rook_from, [0; 4]);
                p.set_history(to, king_history);
                p.set_history(rook_to, rook_history);
                if p.board[to] != 0 { p.take(to); }
                if p.board[rook_to] != 0 { p.take(rook_to); }
                p.put(to, king);
                p.put(rook_to, rook);
            } else {
                let victim = if mv.kind == move_kind::EN_PASSANT { mv.aux as usize } else { to };
                if mv.kind == move_kind::EN_PASSANT { touched = victim as u16; }
                let mut captured = false;
                if victim != from && p.board[victim] != 0 {
                    captured = true;
                    p.take(victim);
                    p.clear_history(victim);
                }
                let was_unmoved = p.unmoved & bit(from);
                let mut code = p.take(from);
                if mv.promotion != NO_KIND {
                    p.remember_kind(from, kind_of(code) as u8);
                    code = code_of(mv.promotion as usize, us);
                }
                if to != from { p.move_history(from, to); }
                p.put(to, code);
                if to == from { p.unmoved |= was_unmoved; }
                let kind = kind_of(code);
                if mv.kind == move_kind::NORMAL && !captured && to != from && EN_PASSANT_KINDS >> kind & 1 == 1 {
                    let (ff, fr) = ((from % FILES) as i32, (from / FILES) as i32);
                    let (tf, tr) = ((to % FILES) as i32, (to / FILES) as i32);
                    let (df, dr) = (tf - ff, tr - fr);
                    let steps = df.abs().max(dr.abs());
                    if steps >= 2 && (df == 0 || dr == 0 || df.abs() == dr.abs()) {
                        for i in 1..steps {
                            let square = (fr + dr.signum() * i) as usize * FILES + (ff + df.signum() * i) as usize;
                            next_targets |= bit(square);
                        }
                        next_victim = to as u16;
                    }
                }
            }
            if p.castling[0] != 0 || p.castling[1] != 0 {
                if CASTLING_KINGS >> kind_of(moving) & 1 == 1 && from != to {
                    p.castling[color_of(moving)] = 0;
                }
                for square in [from as u16, to as u16, touched] {
                    if square == NO_SQUARE { continue; }
                    let (file, rank) = (square as usize % FILES, square as usize / FILES);
                    if rank == 0 { p.castling[0] &= !(1u16 << file); }
                    if rank == RANKS - 1 { p.castling[1] &= !(1u16 << file); }
                }
            }
            p.en_passant_targets = next_targets;
            p.en_passant_victim = next_victim;
            p.side = 1 - us;
            // Incremental: the side always changes; en passant and castling when they do.
            let mut hash = pos.hash ^ pos.placement_hash ^ p.placement_hash ^ ZOBRIST_BLACK_TO_MOVE;
            if pos.en_passant_victim != NO_SQUARE { hash ^= ZOBRIST_EN_PASSANT[pos.en_passant_victim as usize]; }
            if p.en_passant_victim != NO_SQUARE { hash ^= ZOBRIST_EN_PASSANT[p.en_passant_victim as usize]; }
            if p.castling != pos.castling { hash ^= pos.castling_hash() ^ p.castling_hash(); }
            p.hash = hash;
            p
        }

        /// Whether a royal piece of `color` is attacked.
        #[inline]
        pub fn royal_attacked(pos: &Pos, color: usize) -> bool {
            let occupied = pos.colors[0] | pos.colors[1];
            let mut royal = royals(pos, color);
            while royal != EMPTY {
                if attackers(pos, lsb(royal), occupied, 1 - color) != EMPTY { return true; }
                royal = clear_lsb(royal);
            }
            false
        }

        /// Pushes a special move, after trying it if `verify`.
        #[inline]
        fn push_special<S: Sink>(pos: &Pos, mv: Mv, sink: &mut S, verify: bool) {
            if verify && royal_attacked(&make(pos, mv), pos.side) { return; }
            sink.push(mv);
        }

        /// En passant captures by the piece on `from` onto `targets`.
        fn en_passant_moves<S: Sink>(pos: &Pos, from: usize, targets: Bb, sink: &mut S, verify: bool) {
            let victim = pos.en_passant_victim;
            if victim == NO_SQUARE { return; }
            let code = pos.board[victim as usize];
            if code == 0 || color_of(code) == pos.side { return; }
            let kind = kind_of(pos.board[from]);
            let mut t = targets;
            while t != EMPTY {
                let to = lsb(t);
                t = clear_lsb(t);
                let base = Mv { kind: move_kind::EN_PASSANT, aux: victim as u8, ..Mv::normal(from, to, NO_KIND) };
                let rule = FIRST_PROMOTION[kind][pos.side][to];
                match PROMOTION_RULES.get(rule as usize) {
                    Some(rule) if !rule.delayed => {
                        if rule.optional { push_special(pos, base, sink, verify); }
                        for choice in rule.choices { push_special(pos, Mv { promotion: *choice, ..base }, sink, verify); }
                    }
                    _ => push_special(pos, base, sink, verify),
                }
            }
        }

        /// The moves of a delayed promotion of the piece on `from`: promote in
        /// place, then optionally one move of the rule's follow-up mode.
        fn delayed_promotion_moves<S: Sink>(pos: &Pos, from: usize, rule: &PromotionRule, sink: &mut S, verify: bool) {
            let own = pos.colors[pos.side];
            let occupied = own | pos.colors[1 - pos.side];
            let empty = BOARD & !occupied;
            let enemy = pos.colors[1 - pos.side];
            for &choice in rule.choices {
                let stay = Mv { kind: move_kind::DELAYED_PROMOTION, ..Mv::normal(from, from, choice) };
                push_special(pos, stay, sink, verify);
                if rule.follow_up == 0 { continue; }
                let [move_or_capture, move_only, capture_only] = reach(choice as usize, pos.side, pos, from, occupied);
                let mut targets = match rule.follow_up {
                    1 => (move_or_capture & BOARD & !own) | (move_only & empty) | (capture_only & enemy),
                    2 => (move_or_capture | move_only) & empty,
                    _ => (move_or_capture | capture_only) & enemy,
                };
                while targets != EMPTY {
                    let to = lsb(targets);
                    targets = clear_lsb(targets);
                    push_special(pos, Mv { to: to as u8, ..stay }, sink, verify);
                }
            }
        }

        /// Castling moves of the side to move (Chess960 destinations). With
        /// check masks whose royal piece is the castling king, the king's
        /// safety is tested on its destination without making the move.
        fn castling_moves<S: Sink>(pos: &Pos, sink: &mut S, masks: &Masks) {
            let verify = masks.verify_specials;
            let side = pos.side;
            let rights = pos.castling[side];
            let rank = if side == 0 { 0 } else { RANKS - 1 };
            let occupied = pos.colors[0] | pos.colors[1];
            let enemy = 1 - side;
            for rule in CASTLING_RULES.iter() {
                let files_allowed = (rights | rule.loose_rook_files) as u32 & ((1u32 << FILES) - 1);
                if files_allowed == 0 { continue; }
                let mut kings = pos.pieces[rule.king as usize] & pos.colors[side] & pos.unmoved;
                while kings != EMPTY {
                    let king_square = lsb(kings);
                    kings = clear_lsb(kings);
                    if king_square / FILES != rank { continue; }
                    let king_file = king_square % FILES;
                    let lineage_ok = rule.king_lineage.map_or(true, |want| pos.lineage(king_square).ends_with(want));
                    if !lineage_ok { continue; }
                    // The royal piece of the masks: its safety decides legality.
                    let the_royal = verify && masks.skip == bit(king_square) && ROYAL_KINDS >> rule.king & 1 == 1;
                    let mut files = files_allowed;
                    while files != 0 {
                        let rook_file = files.trailing_zeros() as usize;
                        files &= files - 1;
                        if rook_file == king_file { continue; }
                        let rook_square = rank * FILES + rook_file;
                        if pos.board[rook_square] != code_of(rule.rook as usize, side) { continue; }
                        let (king_to_file, rook_to_file) = if rook_file > king_file { rule.short } else { rule.long };
                        if king_to_file >= FILES || rook_to_file >= FILES { continue; }
                        let span = |a: usize, b: usize| -> Bb {
                            let mut s = EMPTY;
                            for f in a.min(b)..=a.max(b) { s |= bit(rank * FILES + f); }
                            s
                        };
                        let others = occupied & !bit(king_square) & !bit(rook_square);
                        if (span(king_file, king_to_file) | span(rook_file, rook_to_file)) & others != EMPTY { continue; }
                        if rule.not_from_check {
                            let in_check = if the_royal { masks.checkers != 0 } else { attackers(pos, king_square, occupied, enemy) != EMPTY };
                            if in_check { continue; }
                        }
                        if rule.not_through_check {
                            let (a, b) = (king_file.min(king_to_file), king_file.max(king_to_file));
                            if (a + 1..b).any(|f| attackers(pos, rank * FILES + f, occupied, enemy) != EMPTY) { continue; }
                        }
                        let king_to = rank * FILES + king_to_file;
                        let rook_to = rank * FILES + rook_to_file;
                        let mv = Mv { kind: move_kind::CASTLE, aux: rook_square as u8, aux2: rook_to as u8, ..Mv::normal(king_square, king_to, NO_KIND) };
                        if the_royal {
                            // Nothing is captured: the enemy's pieces stay; only the occupancy changes.
                            let after = (occupied & !bit(king_square) & !bit(rook_square)) | bit(king_to) | bit(rook_to);
                            if attackers(pos, king_to, after, enemy) == EMPTY { sink.push(mv); }
                            continue;
                        }
                        // With `verify`, the move is tried anyway: the royal king may not land attacked.
                        let tried = verify && ROYAL_KINDS >> rule.king & 1 == 1;
                        if rule.not_into_check && !tried {
                            let after = make(pos, mv);
                            let after_occupied = after.colors[0] | after.colors[1];
                            if attackers(&after, king_to, after_occupied, enemy) != EMPTY { continue; }
                        }
                        push_special(pos, mv, sink, verify);
                    }
                }
            }
        }

        /// Every move of the side to move under `masks`, special moves included.
        #[inline(always)]
        fn generate_moves<S: Sink>(pos: &Pos, sink: &mut S, masks: &Masks) {
            if pos.side == 0 { generate_white(pos, sink, masks) } else { generate_black(pos, sink, masks) }
            if !CASTLING_RULES.is_empty() { castling_moves(pos, sink, masks); }
            delayed_promotions(pos, sink, masks.verify_specials);
        }

        /// The moves of a side that lost its royal pieces (A2 succession): crown
        /// a candidate, then move. `None` when the side still has a royal piece.
        fn royal_loss_moves(pos: &Pos, out: &mut Vec<Mv>, legal: bool) -> Option<()> {
            if !HAS_ROYAL_KINDS || royals(pos, pos.side) != EMPTY { return None; }
            if SUCCESSION {
                let mut candidates = pos.colors[pos.side];
                let mut ordinary = Vec::new();
                while candidates != EMPTY {
                    let square = lsb(candidates);
                    candidates = clear_lsb(candidates);
                    if SUCCESSION_CANDIDATES >> kind_of(pos.board[square]) & 1 == 0 { continue; }
                    let mut crowned = pos.clone();
                    crowned.change_kind(square, SUCCESSION_BECOMES as usize);
                    ordinary.clear();
                    generate(&crowned, &mut ordinary, legal);
                    out.extend(ordinary.iter().map(|mv| Mv { crown: square as u8, crowns: true, ..*mv }));
                }
                return Some(());
            }
            if !CHECK_RULE { return Some(()); }
            None
        }

        /// Appends the moves of the side to move: legal ones if `legal`,
        /// else pseudo-legal ones (the check rule aside).
        pub fn generate(pos: &Pos, out: &mut Vec<Mv>, legal: bool) {
            if royal_loss_moves(pos, out, legal).is_some() { return; }
            if legal && CHECK_RULE {
                if let Some(masks) = fast_masks(pos) {
                    generate_moves(pos, out, &masks);
                    return;
                }
                let first = out.len();
                generate_moves(pos, out, &Masks::NONE);
                let mut kept = first;
                for i in first..out.len() {
                    let mv = out[i];
                    if !royal_attacked(&make(pos, mv), pos.side) {
                        out[kept] = mv;
                        kept += 1;
                    }
                }
                out.truncate(kept);
                return;
            }
            generate_moves(pos, out, &Masks::NONE);
        }

        /// The legal moves of the side to move.
        #[inline]
        pub fn legal_moves(pos: &Pos, out: &mut Vec<Mv>) { generate(pos, out, true) }

        /// The number of legal moves (bulk counting: no list when masks apply).
        #[inline]
        pub fn count_legal(pos: &Pos) -> u64 {
            if !(HAS_ROYAL_KINDS && royals(pos, pos.side) == EMPTY) {
                if CHECK_RULE {
                    if let Some(masks) = fast_masks(pos) {
                        let mut counter = Counter(0);
                        generate_moves(pos, &mut counter, &masks);
                        return counter.0;
                    }
                } else {
                    let mut counter = Counter(0);
                    generate_moves(pos, &mut counter, &Masks::NONE);
                    return counter.0;
                }
            }
            let mut list = Vec::new();
            legal_moves(pos, &mut list);
            list.len() as u64
        }

        /// The placement hash after `mv`, without making it when it is a
        /// plain move (history rules compare placements).
        #[inline]
        pub fn placement_after(pos: &Pos, mv: Mv) -> u64 {
            if mv.kind != move_kind::NORMAL || mv.crowns { return make(pos, mv).placement_hash; }
            let (from, to) = (mv.from as usize, mv.to as usize);
            let code = pos.board[from];
            let new_code = if mv.promotion != NO_KIND { code_of(mv.promotion as usize, pos.side) } else { code };
            let mut hash = pos.placement_hash ^ ZOBRIST_PIECES[code as usize][from] ^ ZOBRIST_PIECES[new_code as usize][to];
            let captured = pos.board[to];
            if captured != 0 && to != from { hash ^= ZOBRIST_PIECES[captured as usize][to]; }
            hash
        }

        /// Removes from `moves` (the legal moves of `pos`) those the
        /// variant's history rules forbid (P7's Illegal Repeated Check: a
        /// move that gives check and makes the placement of exactly N plies
        /// before), given `past`, the placement hashes of the positions
        /// before `pos` (oldest first). A rule "unless only such moves"
        /// forbids nothing when it would forbid every move.
        pub fn apply_history_rules(pos: &Pos, moves: &mut Vec<Mv>, past: &[u64]) {
            for &(plies_ago, unless_only_such_moves) in HISTORY_RULES.iter() {
                let earlier = match plies_ago as usize {
                    0 => continue,
                    1 => pos.placement_hash,
                    n => match past.len().checked_sub(n - 1).and_then(|i| past.get(i)) {
                        Some(hash) => *hash,
                        None => continue,
                    },
                };
                let forbids = |mv: Mv| placement_after(pos, mv) == earlier && royal_attacked(&make(pos, mv), 1 - pos.side);
                let Some(first) = moves.iter().position(|mv| forbids(*mv)) else { continue };
                let mut forbidden = vec![false; moves.len()];
                forbidden[first] = true;
                for i in first + 1..moves.len() { forbidden[i] = forbids(moves[i]); }
                if unless_only_such_moves && forbidden.iter().all(|f| *f) { continue; }
                let mut i = 0;
                moves.retain(|_| { i += 1; !forbidden[i - 1] });
            }
        }

        /// The moves of `pos` as a game sees them: legal moves with the
        /// history rules applied, `past` the placement hashes before `pos`.
        pub fn game_moves(pos: &Pos, out: &mut Vec<Mv>, past: &[u64]) {
            legal_moves(pos, out);
            if !HISTORY_RULES.is_empty() { apply_history_rules(pos, out, past); }
        }

        /// The number of leaves `depth` plies below `pos`; `bulk`: count the
        /// last ply's moves without making them. History rules apply as in a
        /// game that starts at `pos`.
        pub fn perft(pos: &Pos, depth: u32, bulk: bool) -> u64 {
            perft_with_history(pos, depth, bulk, &[])
        }

        /// [`perft`] with `past`, the placement hashes of the positions
        /// before `pos` (oldest first), for the history rules.
        pub fn perft_with_history(pos: &Pos, depth: u32, bulk: bool, past: &[u64]) -> u64 {
            if depth == 0 { return 1; }
            let mut buffers: Vec<Vec<Mv>> = (0..depth).map(|_| Vec::with_capacity(256)).collect();
            if HISTORY_RULES.is_empty() { return perft_inner(pos, depth, bulk, &mut buffers); }
            let mut stack = past.to_vec();
            perft_history_inner(pos, depth, bulk, &mut buffers, &mut stack)
        }

        fn perft_inner(pos: &Pos, depth: u32, bulk: bool, buffers: &mut [Vec<Mv>]) -> u64 {
            if depth == 1 && bulk { return count_legal(pos); }
            let Some((moves, rest)) = buffers.split_first_mut() else { return 1; };
            moves.clear();
            legal_moves(pos, moves);
            if depth == 1 {
                let mut nodes = 0;
                for mv in moves.iter() {
                    std::hint::black_box(make(pos, *mv));
                    nodes += 1;
                }
                return nodes;
            }
            let mut nodes = 0;
            for mv in moves.iter() {
                let next = make(pos, *mv);
                nodes += perft_inner(&next, depth - 1, bulk, rest);
            }
            nodes
        }

        /// Perft with a stack of placement hashes along the path.
        fn perft_history_inner(pos: &Pos, depth: u32, bulk: bool, buffers: &mut [Vec<Mv>], stack: &mut Vec<u64>) -> u64 {
            let Some((moves, rest)) = buffers.split_first_mut() else { return 1; };
            moves.clear();
            game_moves(pos, moves, stack);
            if depth == 1 {
                if bulk { return moves.len() as u64; }
                for mv in moves.iter() { std::hint::black_box(make(pos, *mv)); }
                return moves.len() as u64;
            }
            let mut nodes = 0;
            stack.push(pos.placement_hash);
            for mv in moves.iter() {
                let next = make(pos, *mv);
                nodes += perft_history_inner(&next, depth - 1, bulk, rest, stack);
            }
            stack.pop();
            nodes
        }

        /// The compiled engine as a runtime [`Rules`] implementation.
        #[derive(Clone, Debug)]
        pub struct Engine {
            variant: Variant,
            effects: MoveEffects,
        }

        impl Engine {
            /// The engine, with the model embedded at build time.
            pub fn new() -> Result<Engine, serde_json::Error> {
                let variant: Variant = serde_json::from_str(MODEL_JSON)?;
                Ok(Engine { effects: MoveEffects::new(&variant), variant })
            }
        }

        impl Rules for Engine {
            type Position = Position;
            type Move = Move;
            type Undo = Undo;

            fn variant(&self) -> &Variant { &self.variant }

            fn import(&self, position: &Position) -> Position { position.clone() }

            fn export(&self, position: &Position) -> Position { position.clone() }

            fn describe(&self, mv: &Move) -> Move { *mv }

            fn without_promotion(&self, mv: &Move) -> Move { mv.without_promotion() }

            fn generate_legal(&self, position: &mut Position, out: &mut Vec<Move>) {
                let mut list = Vec::new();
                generate(&Pos::from_runtime(position), &mut list, true);
                out.extend(list.into_iter().map(to_runtime));
            }

            fn generate_pseudo_legal(&self, position: &Position, out: &mut Vec<Move>) {
                let mut list = Vec::new();
                generate(&Pos::from_runtime(position), &mut list, false);
                out.extend(list.into_iter().map(to_runtime));
            }

            fn make_move(&self, position: &mut Position, mv: &Move) -> Undo {
                position.make_move(mv, &self.effects)
            }

            fn unmake_move(&self, position: &mut Position, mv: &Move, undo: &Undo) {
                position.unmake_move(mv, undo)
            }

            fn is_attacked(&self, position: &Position, square: Square, by: Color) -> bool {
                let (file, rank) = (square.file as usize, square.rank as usize);
                if file >= FILES || rank >= RANKS { return false; }
                let pos = Pos::from_runtime(position);
                let occupied = pos.colors[0] | pos.colors[1];
                attackers(&pos, rank * FILES + file, occupied, by.index()) != EMPTY
            }
        }
    }
}
