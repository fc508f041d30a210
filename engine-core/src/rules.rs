//! The compiled variant as a runtime [`Rules`] back end, for the layers
//! above move generation (game driver, search, protocols).

use crate::bitboard::Bitboard;
use crate::moves::{MoveKind as CompiledKind, Mv, NO_KIND};
use crate::position::{dense_square, runtime_square, Pos};
use crate::variant::CompiledVariant;
use std::marker::PhantomData;
use varc_runtime::model::{Color, Square, Variant};
use varc_runtime::moves::{Move, MoveEffects, MoveKind, Undo};
use varc_runtime::position::Position;
use varc_runtime::rules::Rules;

/// A compiled variant's rules: its model (built from Rust values, so it
/// cannot fail to load) and the facts making moves needs.
#[derive(Clone, Debug)]
pub struct Compiled<V: CompiledVariant> {
    variant: Variant,
    effects: MoveEffects,
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
        Compiled {
            effects: MoveEffects::new(&variant),
            variant,
            compiled: PhantomData,
        }
    }
}

/// The runtime move of a compiled move.
pub fn to_runtime<V: CompiledVariant>(mv: Mv) -> Move {
    let square = runtime_square::<V>;
    let kind = match mv.kind {
        CompiledKind::EnPassant => MoveKind::EnPassant {
            victim: square(mv.aux as usize),
        },
        CompiledKind::Castle => MoveKind::Castle {
            rook_from: square(mv.aux as usize),
            rook_to: square(mv.aux2 as usize),
        },
        CompiledKind::DelayedPromotion => MoveKind::DelayedPromotion,
        CompiledKind::Normal => MoveKind::Normal,
    };
    Move {
        from: square(mv.from as usize),
        to: square(mv.to as usize),
        kind,
        promotion: (mv.promotion != NO_KIND).then_some(mv.promotion as usize),
        crown: mv.crowns.then(|| square(mv.crown as usize)),
    }
}

impl<V: CompiledVariant> Rules for Compiled<V> {
    fn variant(&self) -> &Variant {
        &self.variant
    }

    fn generate_legal(&self, position: &mut Position, out: &mut Vec<Move>) {
        let mut list = Vec::new();
        crate::generate::generate(&Pos::<V>::from_runtime(position), &mut list, true);
        out.extend(list.into_iter().map(to_runtime::<V>));
    }

    fn generate_pseudo_legal(&self, position: &Position, out: &mut Vec<Move>) {
        let mut list = Vec::new();
        crate::generate::generate(&Pos::<V>::from_runtime(position), &mut list, false);
        out.extend(list.into_iter().map(to_runtime::<V>));
    }

    fn make_move(&self, position: &mut Position, mv: &Move) -> Undo {
        position.make_move(mv, &self.effects)
    }

    fn unmake_move(&self, position: &mut Position, mv: &Move, undo: &Undo) {
        position.unmake_move(mv, undo)
    }

    fn is_attacked(&self, position: &Position, square: Square, by: Color) -> bool {
        let Some(square) = dense_square::<V>(square) else {
            return false;
        };
        let pos = Pos::<V>::from_runtime(position);
        !V::attackers(&pos, square, pos.occupied(), by.index()).is_empty()
    }
}
