//! The engine core of varc: the half of every generated engine that is the
//! same for every variant, as ordinary Rust compiled and tested here.
//!
//! The code generator emits, per variant, only what is specific to it: the
//! square-set type sized to the board, the kind enum, movement tables,
//! per-kind reach, attack and check/pin functions, the rules data and the
//! model as Rust values, gathered in one [`CompiledVariant`] impl. This
//! crate holds the rest, generic over that trait and monomorphised per
//! variant: the bitboard [`Pos`]ition with copy-make and an incremental
//! Zobrist hash of the placement, moves and sinks (lists or bulk counters), legal
//! generation with check and pin masks, castling, en passant, delayed
//! promotion and succession, the history rules' placement-hash stack,
//! perft, the bridge to the runtime's `Rules` trait and the engine binary's
//! command line ([`cli::main`]).

pub mod bitboard;
pub mod board;
pub mod cli;
pub mod exchange;
pub mod generate;
pub mod history;
pub mod magic;
pub mod moves;
pub mod perft;
pub mod position;
pub mod rules;
pub mod special;
pub mod variant;

pub use bitboard::Bitboard;
pub use moves::{Counter, MoveKind, Mv, Sink, NO_KIND};
pub use position::{Masks, Pos};
pub use rules::Compiled;
pub use variant::{
    CastlingRule, CompiledVariant, FirstMoveLossRule, FollowUp, HistoryRule, PromotionRule,
    ReachSink, Succession,
};

/// What generated code uses, in one glob import (`use varc_engine_core::prelude::*;`).
pub mod prelude {
    pub use crate::bitboard::{bit, clear_lsb, lsb, msb, popcnt, Bitboard};
    pub use crate::magic::Magic;
    pub use crate::moves::Sink;
    pub use crate::position::kind_of;
    pub use crate::special::{delayed_promotion_moves, en_passant_moves, limited_choices};
    pub use crate::variant::{
        CastlingRule, CompiledVariant, FirstMoveLossRule, FollowUp, HistoryRule, NotKept,
        PromotionRule, ReachSink, Succession,
    };
    pub use varc_runtime::model::{SquareSet, Variant};
}

/// The runtime crate, for generated code (the model's types, the `Rules` trait).
pub use varc_runtime as runtime;
