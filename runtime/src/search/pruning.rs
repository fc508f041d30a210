//! Which pruning rules a variant allows, decided once from its model, and
//! the per-node facts they read.
//!
//! **Null move.** The search lets the side to move pass: if the opponent,
//! moving twice, still cannot bring the value below beta, the node is cut.
//! That is only sound where having the move is never a disadvantage, which
//! fails in zugzwang. So the null move is off, from the model:
//! - where there is no check rule (a king may be left attacked and
//!   captured: a pass can walk into a capture of the king, and "no move"
//!   is a position the rules value, not a draw);
//! - where having no legal move when not in check is not a draw (a
//!   stalemate that wins or loses, as in Piece Promotion Chess): there,
//!   running out of moves is the game, and zugzwang is its core;
//! - where wins are awarded during the game or history rules restrict the
//!   moves (a pass would change what the rules grant or forbid);
//!
//! and, where it is on, at each node only when the side to move has a
//! piece other than royal pieces and pieces that promote (pawn-shaped
//! movers: endgames of kings and pawns are where zugzwang lives), and,
//! from a depth on (`null_verify_depth` of
//! [`SearchParams`](super::params::SearchParams)), a cut is verified by a
//! reduced search without the null move.

use crate::board::Board;
use crate::model::{CheckRule, Color, Condition, Outcome, PieceId, Trigger, Variant};

/// Whether, and why not, the null move is allowed in a variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NullMovePolicy {
    /// Allowed (with the per-node guard and verification).
    Verified,
    /// Not allowed, for this reason.
    Off(&'static str),
}

/// A value of a condition when some of its parts are unknown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Truth {
    True,
    False,
    Unknown,
}

impl Truth {
    fn and(self, other: Truth) -> Truth {
        match (self, other) {
            (Truth::False, _) | (_, Truth::False) => Truth::False,
            (Truth::True, Truth::True) => Truth::True,
            _ => Truth::Unknown,
        }
    }

    fn not(self) -> Truth {
        match self {
            Truth::True => Truth::False,
            Truth::False => Truth::True,
            Truth::Unknown => Truth::Unknown,
        }
    }
}

/// `condition` in a position where the side to move is not in check and
/// has legal moves or not (`no_legal_moves`); other facts are unknown.
fn truth(condition: &Condition, no_legal_moves: bool) -> Truth {
    let fact = |value: bool| if value { Truth::True } else { Truth::False };
    match condition {
        Condition::NoLegalMoves => fact(no_legal_moves),
        Condition::InCheck | Condition::InCheckByOnly(_) => Truth::False,
        Condition::And(a, b) => truth(a, no_legal_moves).and(truth(b, no_legal_moves)),
        Condition::Or(a, b) => truth(a, no_legal_moves)
            .not()
            .and(truth(b, no_legal_moves).not())
            .not(),
        Condition::Not(a) => truth(a, no_legal_moves).not(),
        _ => Truth::Unknown,
    }
}

/// Whether `outcome` is a draw whatever its conditions say.
fn always_draw(outcome: &Outcome) -> bool {
    match outcome {
        Outcome::Draw => true,
        Outcome::If(_, a, b) => always_draw(a) && always_draw(b),
        Outcome::Win(_) | Outcome::NullGame | Outcome::GameOver => false,
    }
}

impl NullMovePolicy {
    /// The policy `variant`'s rules call for.
    pub fn of(variant: &Variant) -> NullMovePolicy {
        if variant.legality.check_rule == CheckRule::None {
            return NullMovePolicy::Off("no check rule");
        }
        if !variant.awards.is_empty() {
            return NullMovePolicy::Off("wins are awarded during the game");
        }
        if !variant.legality.history_rules.is_empty() {
            return NullMovePolicy::Off("history rules restrict the moves");
        }
        // A rule that ends the game because the side to move, not in
        // check, has no move (it holds then and not otherwise), with any
        // outcome other than a draw.
        let stalemate_decides = variant.terminations.iter().any(|rule| {
            rule.trigger == Trigger::Automatic
                && truth(&rule.condition, true) != Truth::False
                && truth(&rule.condition, false) == Truth::False
                && !always_draw(&rule.outcome)
        });
        if stalemate_decides {
            return NullMovePolicy::Off("having no move decides the game");
        }
        NullMovePolicy::Verified
    }

    /// Whether the null move may be tried at all.
    pub fn allowed(&self) -> bool {
        matches!(self, NullMovePolicy::Verified)
    }
}

/// The kinds that count for the null move's per-node guard: neither royal
/// nor subject to a promotion rule.
pub fn null_move_kinds(variant: &Variant) -> Vec<bool> {
    (0..variant.pieces.len())
        .map(|kind: PieceId| {
            let royal = variant.pieces.get(kind).is_some_and(|piece| piece.royal);
            let promotes = variant.promotions.iter().any(|p| p.pieces.contains(&kind));
            !royal && !promotes
        })
        .collect()
}

/// Whether `color` has a piece of a kind marked in `kinds`.
pub fn has_null_move_material(position: &impl Board, color: Color, kinds: &[bool]) -> bool {
    position.has_piece_of(color, kinds)
}
