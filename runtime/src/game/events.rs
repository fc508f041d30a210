//! The events of a move, which counters, awards, the plies-since-reset
//! count and `last move` conditions read, and the Laws-of-Chess checkmate
//! test (computed even in variants without a check rule, A1, A11, A12).

use crate::board::Board;
use crate::model::{CastleSide, Color, Condition, EventPattern, PieceId, Variant};
use crate::moves::MoveKind;
use crate::position::Piece;
use crate::rules::Rules;

/// What one move did, as far as the rules language can ask.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveEvents {
    /// The player who made the move.
    pub mover: Color,
    /// The kind that moved, as it was when it started moving (after a
    /// crowning at the start of the turn).
    pub moved_kind: Option<PieceId>,
    /// The kinds the moved piece has been, after the move (a promotion made
    /// on this move included).
    pub moved_lineage: Vec<PieceId>,
    /// The kind dropped from the hand, for a drop.
    pub dropped_kind: Option<PieceId>,
    /// The piece captured, if any.
    pub captured: Option<Piece>,
    /// Whether the capture was en passant.
    pub en_passant: bool,
    /// Whether the move was a pass.
    pub pass: bool,
    /// A promotion: the kind before and the kind after.
    pub promotion: Option<(PieceId, PieceId)>,
    /// A castling, by side.
    pub castle: Option<CastleSide>,
    /// A2: the crowned piece's kind and the kinds it had been before.
    pub crowning: Option<(PieceId, Vec<PieceId>)>,
    /// Whether the move attacks a royal piece of the opponent.
    pub gives_check: bool,
    /// The kinds of the pieces that attack the opponent's royal pieces
    /// after the move, where a rule reads them ([`reads_checkers`]; empty
    /// otherwise, and without a check).
    pub checking_kinds: Vec<PieceId>,
    /// Whether the move would be checkmate under the Laws of Chess.
    pub laws_checkmate: bool,
}

impl MoveEvents {
    /// The events of `played`, played from `before` to `after`.
    pub fn of<R: Rules + ?Sized>(
        rules: &R,
        before: &R::Position,
        played: &R::Move,
        after: &R::Position,
    ) -> MoveEvents {
        let variant = rules.variant();
        let mv = rules.describe(played);
        let mover = before.side_to_move();
        let crowning = mv
            .crown
            .and_then(|square| before.piece_at(square))
            .map(|p| {
                let mut was: Vec<PieceId> = p.history().collect();
                was.push(p.kind());
                (p.kind(), was)
            });
        // A drop is a move of the dropped kind (a pawn drop resets the
        // plies count of `reset plies on move of pawn`, as in both back ends).
        let moved_kind = if let Some(kind) = mv.dropped() {
            Some(kind)
        } else if mv.crown.is_some() && mv.crown == Some(mv.from) {
            crowned_kind(variant).or_else(|| before.piece_at(mv.from).map(|p| p.kind()))
        } else {
            before.piece_at(mv.from).map(|p| p.kind())
        };
        let captured = match mv.kind {
            MoveKind::EnPassant { victim } => before.piece_at(victim),
            MoveKind::Castle { .. } | MoveKind::Drop { .. } => None,
            MoveKind::Normal | MoveKind::DelayedPromotion => {
                if mv.to == mv.from {
                    None
                } else {
                    before.piece_at(mv.to).filter(|p| p.color() != mover)
                }
            }
        };
        let promotion = mv
            .promotion
            .and_then(|to| moved_kind.map(|from| (from, to)));
        let moved_lineage = after
            .piece_at(mv.to)
            .filter(|p| p.color() == mover)
            .map(|p| p.history().collect())
            .unwrap_or_default();
        let gives_check = rules.royal_attacked(after, mover.opponent());
        let checking_kinds = if gives_check && reads_checkers(variant) {
            checking_kinds(rules, after, mover.opponent())
        } else {
            Vec::new()
        };
        MoveEvents {
            mover,
            moved_kind,
            moved_lineage,
            dropped_kind: mv.dropped(),
            captured,
            en_passant: matches!(mv.kind, MoveKind::EnPassant { .. }),
            pass: mv.is_pass(),
            promotion,
            castle: mv.castle_side(),
            crowning,
            gives_check,
            checking_kinds,
            laws_checkmate: gives_check && laws_checkmate(rules, after),
        }
    }

    /// Whether the move produced the event `pattern`.
    pub fn matches(&self, pattern: &EventPattern) -> bool {
        let any_or = |kinds: &[PieceId], kind: PieceId| kinds.is_empty() || kinds.contains(&kind);
        match pattern {
            EventPattern::Capture(kinds) => self.captured.is_some_and(|c| any_or(kinds, c.kind())),
            EventPattern::EnPassant => self.en_passant,
            EventPattern::Pass => self.pass,
            EventPattern::MoveOf(kinds) => self.moved_kind.is_some_and(|k| any_or(kinds, k)),
            EventPattern::DropOf(kinds) => self.dropped_kind.is_some_and(|k| any_or(kinds, k)),
            EventPattern::Promotion { from, to } => self
                .promotion
                .is_some_and(|(old, new)| any_or(from, old) && any_or(to, new)),
            EventPattern::Castle(side) => match self.castle {
                Some(done) => side.is_none() || *side == Some(done),
                None => false,
            },
            EventPattern::RoyalCapture => self.captured.is_some_and(|c| c.is_royal()),
            EventPattern::Crowning(kinds) => self
                .crowning
                .as_ref()
                .is_some_and(|(_, was)| kinds.iter().all(|k| was.contains(k))),
            EventPattern::LawsCheckmate => self.laws_checkmate,
            EventPattern::Check => self.gives_check,
            EventPattern::CheckBy(kinds) => {
                self.gives_check && self.checking_kinds.iter().any(|k| kinds.contains(k))
            }
            EventPattern::Not(pattern) => !self.matches(pattern),
            EventPattern::MovedPieceWas(kinds) => {
                kinds.iter().all(|k| self.moved_lineage.contains(k))
            }
            EventPattern::Both(a, b) => self.matches(a) && self.matches(b),
        }
    }

    /// Counts the move into `counters`, the mover's counts (indexed like
    /// [`Variant::counters`]): a counter's `reset on` events set it to 0,
    /// then each of its events that the move produced adds one.
    pub fn count_into(&self, variant: &Variant, counters: &mut [u32]) {
        for (counter, value) in variant.counters.iter().zip(counters.iter_mut()) {
            if counter.resets.iter().any(|p| self.matches(p)) {
                *value = 0;
            }
            *value += counter.events.iter().filter(|p| self.matches(p)).count() as u32;
        }
    }

    /// Whether the move captured a royal piece.
    pub fn captured_royal(&self) -> bool {
        self.captured.is_some_and(|c| c.is_royal())
    }
}

/// Whether a rule of `variant` asks which kinds give check (`check by`,
/// `in check by only`), so that the events of a check name them.
pub fn reads_checkers(variant: &Variant) -> bool {
    fn pattern_reads(pattern: &EventPattern) -> bool {
        match pattern {
            EventPattern::CheckBy(_) => true,
            EventPattern::Not(a) => pattern_reads(a),
            EventPattern::Both(a, b) => pattern_reads(a) || pattern_reads(b),
            _ => false,
        }
    }
    fn condition_reads(condition: &Condition) -> bool {
        match condition {
            Condition::LastMove(p) => pattern_reads(p),
            Condition::And(a, b) | Condition::Or(a, b) => condition_reads(a) || condition_reads(b),
            Condition::Not(a) => condition_reads(a),
            _ => false,
        }
    }
    variant
        .counters
        .iter()
        .flat_map(|c| c.events.iter().chain(&c.resets))
        .chain(&variant.ply_reset_events)
        .any(pattern_reads)
        || variant.awards.iter().any(|a| condition_reads(&a.when))
        || variant
            .terminations
            .iter()
            .any(|t| condition_reads(&t.condition))
}

/// The kinds of the pieces that attack a royal piece of `checked` on
/// `position`: the pieces of the other side that have a pseudo-legal
/// capture onto a royal square (with `checked`'s opponent to move).
pub fn checking_kinds<R: Rules + ?Sized>(
    rules: &R,
    position: &R::Position,
    checked: Color,
) -> Vec<PieceId> {
    let royals = position.royals(checked);
    if royals.is_empty() {
        return Vec::new();
    }
    let mut attacking = position.clone();
    if attacking.side_to_move() == checked {
        rules.pass_turn(&mut attacking);
    }
    let mut moves = Vec::new();
    rules.generate_pseudo_legal(&attacking, &mut moves);
    let mut kinds = Vec::new();
    for mv in &moves {
        if matches!(rules.move_kind(mv), MoveKind::Castle { .. }) {
            continue;
        }
        let (from, to) = rules.move_squares(mv);
        if !royals.contains(to) {
            continue;
        }
        if let Some((kind, _)) = attacking.occupant(from) {
            if !kinds.contains(&kind) {
                kinds.push(kind);
            }
        }
    }
    kinds.sort_unstable();
    kinds
}

/// The kind a succession crowns into, if the variant has succession.
fn crowned_kind(variant: &Variant) -> Option<PieceId> {
    match &variant.royal_loss {
        crate::model::RoyalLoss::Succession { becomes, .. } => Some(*becomes),
        crate::model::RoyalLoss::EndsGame => None,
    }
}

/// Whether the side to move of `position` is checkmated under the Laws of
/// Chess: a royal piece of his is attacked and none of his moves leaves all
/// his royal pieces unattacked. Castling out of or through an attacked
/// square is no escape (the Laws forbid it even where the variant allows it).
///
/// The moves tried are the pseudo-legal ones, so the answer is the same in a
/// variant without a check rule (A1: `#` is still written).
pub fn laws_checkmate<R: Rules + ?Sized>(rules: &R, position: &R::Position) -> bool {
    let side = position.side_to_move();
    if position.royals(side).is_empty() || !rules.royal_attacked(position, side) {
        return false;
    }
    let mut moves = Vec::new();
    rules.generate_pseudo_legal(position, &mut moves);
    let mut scratch = position.clone();
    !moves.iter().any(|mv| {
        if matches!(rules.move_kind(mv), MoveKind::Castle { .. }) {
            // In check already, so castling is no escape under the Laws.
            return false;
        }
        let undo = rules.make_move(&mut scratch, mv);
        let safe = !scratch.royals(side).is_empty() && !rules.royal_attacked(&scratch, side);
        rules.unmake_move(&mut scratch, mv, &undo);
        safe
    })
}
