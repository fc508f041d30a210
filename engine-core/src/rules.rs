//! The compiled variant as a runtime [`Rules`] back end: the game driver,
//! search, evaluation and protocols run on the compiled [`Pos`] and [`Mv`]
//! directly; runtime positions and moves appear only at the edges (FEN,
//! notation, protocols).

use crate::bitboard::{Bitboard, Squares};
use crate::board::runtime_set;
use crate::exchange::exchange_victims;
use crate::generate::{
    any_legal, any_legal_and_check, generate, is_capture, legal_moves, pseudo_legal_onto,
    tactical_moves,
};
use crate::moves::{MoveKind as CompiledKind, Mv, NO_KIND};
use crate::position::{
    color_of, dense_square, has_kind, kind_of, runtime_color, runtime_square, Pos, NO_SQUARE,
};
use crate::variant::{CompiledVariant, ReachSink, SquareStore};
use std::marker::PhantomData;
use varc_runtime::board::Board;
use varc_runtime::eval::{neighbours_of, ring_of};
use varc_runtime::model::{Color, PieceId, PromotionTiming, Square, SquareSet, Variant};
use varc_runtime::moves::{canonical_key, resets_halfmove_clock, Gate, Move, MoveKind, ResetMasks};
use varc_runtime::position::Position;
use varc_runtime::rules::{
    CheckKinds, ExchangeValues, PieceReach, ReachVisitor, RoyalSurroundings, Rules,
};
use varc_runtime::search::tt::{piece_key, turn_key};

/// A compiled variant's rules: its model (built from Rust values, so it
/// cannot fail to load).
#[derive(Clone, Debug)]
pub struct Compiled<V: CompiledVariant> {
    variant: Variant,
    /// The reset events as kind masks, when they can be ([`ResetMasks::of`]).
    reset_masks: Option<ResetMasks>,
    /// Per dense square, the squares one king step away on the board
    /// (the evaluation's [`RoyalSurroundings`]).
    neighbours: Vec<V::Bb>,
    /// Per dense square: a royal piece's ring there ([`ring_of`]).
    rings: Vec<V::Bb>,
    /// No delayed promotion and no succession: a capture changes a
    /// piece's kind only by promoting on a promotion square, so exchanges
    /// elsewhere are played out on square sets ([`exchange_victims`]).
    plain_exchanges: bool,
    compiled: PhantomData<V>,
}

impl<V: CompiledVariant> Default for Compiled<V> {
    fn default() -> Self {
        Compiled::new()
    }
}

impl<V: CompiledVariant> Compiled<V> {
    /// The rules of `V`.
    pub fn new() -> Compiled<V> {
        let variant = V::model();
        let dense = |squares: fn(&Variant, Square) -> SquareSet| -> Vec<V::Bb> {
            (0..V::FILES * V::RANKS)
                .map(|square| {
                    let set = squares(&variant, runtime_square::<V>(square));
                    Squares(V::BOARD)
                        .filter(|&near| set.contains(runtime_square::<V>(near)))
                        .fold(V::Bb::EMPTY, |dense, near| dense | V::Bb::bit(near))
                })
                .collect()
        };
        let neighbours = dense(neighbours_of);
        let rings = dense(ring_of);
        let plain_exchanges = V::SUCCESSION.is_none()
            && variant
                .promotions
                .iter()
                .all(|rule| rule.timing == PromotionTiming::Immediate);
        Compiled {
            reset_masks: ResetMasks::of(&variant.ply_reset_events),
            neighbours,
            rings,
            plain_exchanges,
            variant,
            compiled: PhantomData,
        }
    }

    /// Whether `mv` resets the halfmove clock (the variant's reset events).
    fn resets_clock(&self, pos: &Pos<V>, mv: &Mv) -> bool {
        let events = &self.variant.ply_reset_events;
        if events.is_empty() {
            return false;
        }
        let kind = |code: u8| (code != 0).then(|| kind_of(code));
        match self.reset_masks {
            Some(masks) if !mv.crowns() => {
                // A drop is a move of the dropped kind.
                let moving = match mv.kind {
                    CompiledKind::Drop => Some(mv.aux as usize),
                    _ => kind(pos.code_at(mv.from as usize)),
                };
                let captured = match mv.kind {
                    CompiledKind::EnPassant => kind(pos.code_at(mv.aux as usize)),
                    CompiledKind::Castle | CompiledKind::Drop => None,
                    _ if mv.to == mv.from => None,
                    _ => kind(pos.code_at(mv.to as usize)),
                };
                let promotion = (mv.promotion != NO_KIND)
                    .then(|| moving.map(|from| (from, mv.promotion as usize)))
                    .flatten();
                let en_passant = mv.kind == CompiledKind::EnPassant;
                return masks.matches(moving, captured, en_passant, promotion);
            }
            _ => {}
        }
        // As the runtime sees it: after the turn's crowning, if any.
        let moving = match V::SUCCESSION {
            Some(succession) if mv.crown() == Some(mv.from as usize) => {
                let mut crowned = *pos;
                crowned.change_kind(mv.from as usize, succession.becomes as usize);
                crowned.piece_on(mv.from as usize)
            }
            _ if mv.kind == CompiledKind::Drop => pos.make(*mv).piece_on(mv.to as usize),
            _ => pos.piece_on(mv.from as usize),
        };
        let victim = match mv.kind {
            CompiledKind::EnPassant => Some(mv.aux as usize),
            CompiledKind::Castle | CompiledKind::Drop => None,
            _ => (mv.to != mv.from).then_some(mv.to as usize),
        };
        let captured = victim.and_then(|square| pos.piece_on(square));
        let promoted_from = (mv.promotion != NO_KIND)
            .then(|| moving.map(|piece| piece.kind()))
            .flatten();
        let crowned = mv.crowns() && V::SUCCESSION.is_some();
        resets_halfmove_clock(
            events,
            &self.describe(mv),
            moving,
            captured,
            promoted_from,
            crowned,
        )
    }
}

/// The runtime kind of a compiled move (with its runtime squares).
fn runtime_kind<V: CompiledVariant>(mv: &Mv) -> MoveKind {
    let square = runtime_square::<V>;
    match mv.kind {
        CompiledKind::EnPassant => MoveKind::EnPassant {
            victim: square(mv.aux as usize),
        },
        CompiledKind::Castle => MoveKind::Castle {
            rook_from: square(mv.aux as usize),
            rook_to: square(mv.aux2 as usize),
        },
        CompiledKind::DelayedPromotion => MoveKind::DelayedPromotion,
        CompiledKind::Drop => MoveKind::Drop { piece: mv.aux },
        CompiledKind::Normal => MoveKind::Normal,
    }
}

/// The runtime move of a compiled move.
pub fn to_runtime<V: CompiledVariant>(mv: Mv) -> Move {
    let square = runtime_square::<V>;
    Move {
        from: square(mv.from as usize),
        to: square(mv.to as usize),
        kind: runtime_kind::<V>(&mv),
        promotion: (mv.promotion != NO_KIND).then_some(mv.promotion as usize),
        crown: mv.crown().map(square),
        gate: mv.gate().map(|(kind, at)| Gate {
            kind: kind as u8,
            square: square(at),
        }),
    }
}

impl<V: CompiledVariant> Rules for Compiled<V> {
    type Position = Pos<V>;
    type Move = Mv;
    type Undo = Pos<V>;

    fn variant(&self) -> &Variant {
        &self.variant
    }

    fn import(&self, position: &Position) -> Pos<V> {
        let mut pos: Pos<V> = Pos::from_runtime(position);
        pos.halfmove_clock = position.halfmove_clock();
        pos.fullmove_number = position.fullmove_number();
        for color in Color::ALL {
            let counters: &mut [u32] = pos.counters[color.index()].as_mut();
            for (slot, value) in counters.iter_mut().zip(position.counters(color)) {
                *slot = *value;
            }
        }
        pos
    }

    fn export(&self, pos: &Pos<V>) -> Position {
        let counters = pos.counters[0].as_ref().len();
        let mut position = Position::empty(V::FILES as u8, V::RANKS as u8, counters);
        for (square, piece) in pos.pieces() {
            position.set_piece(square, Some(piece));
        }
        position.set_side_to_move(pos.side_to_move());
        for color in Color::ALL {
            position.set_castling_rights(color, pos.castling[color.index()]);
            position
                .counters_mut(color)
                .copy_from_slice(pos.counters[color.index()].as_ref());
        }
        for color in Color::ALL {
            for kind in 0..V::KINDS {
                position.set_in_hand(color, kind, pos.in_hand(color.index(), kind));
            }
        }
        position.set_en_passant(pos.en_passant());
        position.set_halfmove_clock(pos.halfmove_clock);
        position.set_fullmove_number(pos.fullmove_number);
        position
    }

    fn describe(&self, mv: &Mv) -> Move {
        to_runtime::<V>(*mv)
    }

    fn without_promotion(&self, mv: &Mv) -> Mv {
        Mv {
            promotion: NO_KIND,
            ..*mv
        }
    }

    fn generate_legal(&self, pos: &mut Pos<V>, out: &mut Vec<Mv>) {
        legal_moves(pos, out);
    }

    fn has_legal_move(&self, pos: &Pos<V>) -> Option<bool> {
        any_legal(pos)
    }

    fn check_and_legal_move(&self, pos: &Pos<V>) -> (bool, Option<bool>) {
        match any_legal_and_check(pos) {
            Some((any, in_check)) => (in_check, Some(any)),
            None => (pos.royal_attacked(pos.side()), None),
        }
    }

    fn generate_tactical(&self, pos: &Pos<V>, out: &mut Vec<Mv>) -> bool {
        tactical_moves(pos, out)
    }

    fn generate_pseudo_legal_onto(&self, pos: &Pos<V>, square: Square, out: &mut Vec<Mv>) -> bool {
        dense_square::<V>(square).is_some_and(|square| pseudo_legal_onto(pos, square, out))
    }

    fn exchange_victims(
        &self,
        pos: &Pos<V>,
        mv: &Mv,
        values: &ExchangeValues,
        victims: &mut [i32],
    ) -> Option<usize> {
        exchange_victims(pos, mv, values, victims, self.plain_exchanges)
    }

    fn generate_pseudo_legal(&self, pos: &Pos<V>, out: &mut Vec<Mv>) {
        generate(pos, out, false);
    }

    fn make_move(&self, pos: &mut Pos<V>, mv: &Mv) -> Pos<V> {
        let before = *pos;
        *pos = self.play(&before, mv);
        before
    }

    fn unmake_move(&self, pos: &mut Pos<V>, _mv: &Mv, undo: &Pos<V>) {
        *pos = *undo;
    }

    fn pass_turn(&self, pos: &mut Pos<V>) {
        // In place: the runtime's default goes through a runtime position.
        pos.turn = 1 - pos.turn;
        pos.en_passant_targets = V::Bb::EMPTY;
        pos.en_passant_victim = NO_SQUARE;
    }

    fn is_attacked(&self, pos: &Pos<V>, square: Square, by: Color) -> bool {
        dense_square::<V>(square)
            .is_some_and(|square| V::is_attacked(pos, square, pos.occupied(), by.index()))
    }

    fn move_squares(&self, mv: &Mv) -> (Square, Square) {
        (
            runtime_square::<V>(mv.from as usize),
            runtime_square::<V>(mv.to as usize),
        )
    }

    fn promotion(&self, mv: &Mv) -> Option<PieceId> {
        (mv.promotion != NO_KIND).then_some(mv.promotion as usize)
    }

    fn canonical_key(&self, mv: &Mv) -> u64 {
        // Called for every move of every searched node: the common move
        // (plain, no crowning, no gating) skips building the optional parts.
        let runtime = |square: u8| runtime_square::<V>(square as usize).index();
        let promotion = (mv.promotion != NO_KIND).then_some(mv.promotion as usize);
        if mv.kind == CompiledKind::Normal && !mv.crowns() && mv.extra == 0 {
            let (from, to) = (runtime(mv.from), runtime(mv.to));
            return canonical_key(from, to, promotion, None, None, 0, 0);
        }
        let (kind, detail) = match mv.kind {
            CompiledKind::Normal => (0, 0),
            CompiledKind::EnPassant => (1, runtime(mv.aux)),
            CompiledKind::Castle => (2, runtime(mv.aux)),
            CompiledKind::DelayedPromotion => (3, 0),
            CompiledKind::Drop => (4, mv.aux as usize),
        };
        canonical_key(
            runtime(mv.from),
            runtime(mv.to),
            promotion,
            mv.crown().map(|square| runtime(square as u8)),
            mv.gate()
                .map(|(kind, square)| (kind, square != mv.from as usize)),
            kind,
            detail,
        )
    }

    fn move_kind(&self, mv: &Mv) -> MoveKind {
        runtime_kind::<V>(mv)
    }

    fn moving_kind(&self, pos: &Pos<V>, mv: &Mv) -> Option<PieceId> {
        if mv.kind == CompiledKind::Drop {
            return Some(mv.aux as usize);
        }
        let code = pos.code_at(mv.from as usize);
        (code != 0).then(|| kind_of(code))
    }

    fn captured_kind(&self, pos: &Pos<V>, mv: &Mv) -> Option<PieceId> {
        let square = match mv.kind {
            CompiledKind::EnPassant => mv.aux as usize,
            CompiledKind::Castle | CompiledKind::Drop => return None,
            CompiledKind::Normal | CompiledKind::DelayedPromotion if mv.to != mv.from => {
                mv.to as usize
            }
            CompiledKind::Normal | CompiledKind::DelayedPromotion => return None,
        };
        // Most moves asked about go to an empty square: one test, no
        // search of the kinds.
        if (pos.colors[1 - pos.side()] & V::Bb::bit(square)).is_empty() {
            return None;
        }
        Some(pos.kind_on_occupied(square))
    }

    fn is_capture(&self, pos: &Pos<V>, mv: &Mv) -> bool {
        is_capture(pos, mv)
    }

    fn play(&self, pos: &Pos<V>, mv: &Mv) -> Pos<V> {
        let mut next = pos.make(*mv);
        next.halfmove_clock = if self.resets_clock(pos, mv) {
            0
        } else {
            pos.halfmove_clock.saturating_add(1)
        };
        next.fullmove_number = pos.fullmove_number.saturating_add(pos.side() as u32);
        next
    }

    fn royal_attacked(&self, pos: &Pos<V>, color: Color) -> bool {
        pos.royal_attacked(color.index())
    }

    fn placement_hash(&self, pos: &Pos<V>) -> u64 {
        pos.placement_hash
    }

    fn state_hash(&self, pos: &Pos<V>) -> u64 {
        // The runtime's key, from the incremental placement hash (whose
        // tables are the runtime's piece keys of moved pieces).
        debug_assert_eq!(pos.unmoved_hash, pos.computed_unmoved_hash());
        let mut hash = pos.placement_hash ^ pos.unmoved_hash;
        if <V::Lineages as SquareStore<[u8; 4]>>::KEPT {
            for square in Squares(pos.occupied()) {
                let history = pos.lineage(square);
                if history.clone().next().is_none() {
                    continue;
                }
                let (code, runtime) = (pos.code_at(square), runtime_square::<V>(square).index());
                let color = runtime_color(color_of(code));
                let unmoved = !(pos.unmoved & V::Bb::bit(square)).is_empty();
                hash ^= piece_key(kind_of(code), color, unmoved, std::iter::empty(), runtime)
                    ^ piece_key(kind_of(code), color, unmoved, history, runtime);
            }
        }
        if V::HANDS {
            hash ^= varc_runtime::search::tt::hands_key(pos);
        }
        let en_passant =
            Squares(pos.en_passant_targets).map(|square| runtime_square::<V>(square).index());
        hash ^ turn_key(pos.side_to_move(), pos.castling, en_passant)
    }

    fn visit_reaches<R: ReachVisitor>(&self, pos: &Pos<V>, visit: &mut R) -> bool {
        let occupied = pos.occupied();
        let mut royal_zones = [V::Bb::EMPTY; 2];
        let mut royal_rings = [V::Bb::EMPTY; 2];
        for color in 0..2 {
            for square in Squares(pos.royals(color)) {
                royal_zones[color] |= self.neighbours.get(square).copied().unwrap_or(V::Bb::EMPTY);
                royal_rings[color] |= self.rings.get(square).copied().unwrap_or(V::Bb::EMPTY);
            }
        }
        let guards = visit.guards();
        let mut guarded = [V::Bb::EMPTY; 2];
        // Guards that `V::visit_reaches` visits first gather their
        // captures as they come; other guards are walked here first.
        let walked_first = if guards == V::KINDS_FIRST { 0 } else { guards };
        for kind in (0..V::KINDS.min(64)).filter(|&kind| walked_first >> kind & 1 == 1) {
            for (color, guarded) in guarded.iter_mut().enumerate() {
                for from in Squares(pos.pieces[kind] & pos.colors[color]) {
                    let [move_or_capture, _, capture_only] =
                        V::reach(kind, color, pos, from, occupied);
                    *guarded |= move_or_capture | capture_only;
                }
            }
        }
        // Per side, per kind of the enemy: the squares from which such a
        // piece would attack one of the side's royal pieces.
        let checkers = !(V::ROYAL_KINDS | u128::from(guards));
        let mut check_squares = [V::NO_KIND_SETS; 2];
        for (side, squares) in check_squares.iter_mut().enumerate() {
            for royal in Squares(pos.royals(side)) {
                for kind in (0..V::KINDS).filter(|&kind| has_kind(checkers, kind)) {
                    if !(pos.pieces[kind] & pos.colors[1 - side]).is_empty() {
                        let [move_or_capture, _, capture_only] =
                            V::reach(kind, side, pos, royal, occupied);
                        squares[kind] |= move_or_capture | capture_only;
                    }
                }
            }
        }
        let mut pieces = PieceReaches {
            pos,
            empty: V::BOARD & !occupied,
            attacked: [V::Bb::EMPTY; 2],
            twice: [V::Bb::EMPTY; 2],
            defended: [V::Bb::EMPTY; 2],
            royal_zones,
            royal_rings,
            guards,
            guarded,
            check_squares,
            checks: [V::NO_KIND_SETS; 2],
            visit,
        };
        V::visit_reaches(pos, occupied, &mut pieces);
        let (attacked, twice) = (pieces.attacked, pieces.twice);
        let (defended, checks) = (pieces.defended, pieces.checks);
        for color in 0..2 {
            let exposed = pos.colors[color] & attacked[1 - color] & !attacked[color];
            for square in Squares(exposed & !pos.royals(color)) {
                visit.exposed(kind_of(pos.code_at(square)), runtime_color(color));
            }
        }
        for color in 0..2 {
            for square in Squares(pos.royals(color)) {
                let around = self.neighbours.get(square).copied().unwrap_or(V::Bb::EMPTY);
                visit.royal(RoyalSurroundings {
                    square: runtime_square::<V>(square),
                    kind: kind_of(pos.code_at(square)),
                    color: runtime_color(color),
                    attacked: (around & attacked[1 - color]).popcnt(),
                    sheltered: (around & pos.colors[color]).popcnt(),
                    weak: (around & attacked[1 - color] & !defended[color]).popcnt(),
                });
            }
        }
        for color in 0..2 {
            let mut kinds = CheckKinds::default();
            for squares in (0..V::KINDS).map(|kind| checks[color][kind]) {
                if (squares & !attacked[1 - color]).is_empty() {
                    kinds.guarded += u32::from(!squares.is_empty());
                } else {
                    kinds.safe += 1;
                }
            }
            visit.checks(runtime_color(color), kinds);
        }
        visit.attacks(attacked.map(runtime_set::<V>), twice.map(runtime_set::<V>));
        true
    }
}

/// Hands each piece's reach to a [`ReachVisitor`] as a count of squares
/// and the kinds it could capture, and gathers each side's attacks for the
/// exposed pieces and the royal pieces' surroundings.
struct PieceReaches<'a, V: CompiledVariant, R> {
    pos: &'a Pos<V>,
    empty: V::Bb,
    attacked: [V::Bb; 2],
    /// Per side, the squares two or more of its pieces attack.
    twice: [V::Bb; 2],
    /// Per side, the squares its pieces other than royal ones attack.
    defended: [V::Bb; 2],
    /// Per side, the squares beside its royal pieces, and their rings.
    royal_zones: [V::Bb; 2],
    royal_rings: [V::Bb; 2],
    /// The guard kinds ([`ReachVisitor::guards`]) and, per side, the
    /// squares its guards could capture on.
    guards: u64,
    guarded: [V::Bb; 2],
    /// Per side, per enemy kind: the squares from which it would attack
    /// one of the side's royal pieces; and per side, per kind, the
    /// squares its pieces could check from.
    check_squares: [V::KindSets; 2],
    checks: [V::KindSets; 2],
    visit: &'a mut R,
}

impl<V: CompiledVariant, R: ReachVisitor> ReachSink<V::Bb> for PieceReaches<'_, V, R> {
    #[inline(always)]
    fn reach(&mut self, kind: usize, color: usize, from: usize, reach: [V::Bb; 3]) {
        let [move_or_capture, move_only, capture_only] = reach;
        let attacks = move_or_capture | capture_only;
        self.twice[color] |= self.attacked[color] & attacks;
        self.attacked[color] |= attacks;
        if !has_kind(V::ROYAL_KINDS, kind) {
            self.defended[color] |= attacks;
        }
        let enemy = self.pos.colors[1 - color];
        // Empty and enemy squares are apart: one count.
        let captures = attacks & enemy;
        let reached = ((move_or_capture | move_only) & self.empty) | captures;
        let mut victims = 0u64;
        for square in Squares(captures) {
            victims |= 1u64
                .checked_shl(kind_of(self.pos.code_at(square)) as u32)
                .unwrap_or(0);
        }
        self.checks[color][kind] |= reached & self.check_squares[1 - color][kind];
        let guard = kind < 64 && self.guards >> kind & 1 == 1;
        let safe = if guard {
            self.guarded[color] |= attacks;
            reached
        } else {
            reached & !self.guarded[1 - color]
        };
        self.visit.piece(PieceReach {
            square: runtime_square::<V>(from),
            kind,
            color: runtime_color(color),
            reach: reached.popcnt(),
            safe_reach: safe.popcnt(),
            victims,
            royal_hits: (attacks & self.royal_zones[1 - color]).popcnt(),
            ring_attacker: !(attacks & self.royal_rings[1 - color]).is_empty(),
        });
    }
}
