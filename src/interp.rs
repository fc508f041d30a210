//! The reference interpreter: legal move generation read from a
//! [`model::Variant`](crate::model::Variant) at run time, for any variant
//! the rules language can state, on any board up to 16x16.
//!
//! It is written to be obviously correct: pseudo-legal moves come from
//! per-square tables of each piece's movement atoms (`tables`); a move is
//! legal under the check rule when, once made, no royal piece of the mover
//! is attacked. The compiled back end must agree with it move for move.
//!
//! Special rules, all read from the model:
//! - promotion by region: the first rule whose pieces hold the mover and
//!   whose zone (for the mover) holds the destination, else the rule of
//!   the departure square if it says `starting or ending there`; mandatory rules give
//!   only promoted moves, optional ones both; a condition that makes a
//!   mandatory promotion optional is false without clocks; delayed rules
//!   leave the arriving move unpromoted and add, for each piece standing in
//!   the zone, "promote in place" moves, each optionally followed by one move
//!   of the promoted piece in the rule's follow-up mode (with `at most N on
//!   the board`, a choice only while the side has fewer of its kind; with
//!   `anywhere for the last one`, the side's last piece of the rule's kinds
//!   on any square; with `attacking nothing`, none that gives check or
//!   leaves the promoted piece attacking a piece of the opponent);
//! - castling with Chess960 destinations (see the runtime's `Castling`);
//! - en passant for the variant's en passant kinds;
//! - confinement: a piece `confined to` a region moves and attacks only
//!   onto its squares (rides pass outside it);
//! - royals that may not face each other: a royal piece that sees an
//!   opponent's royal piece along an open file or rank counts as attacked
//!   (checked with the royal pieces' safety, not by the attack tables);
//! - no checks: a move that attacks a royal piece of the opponent is
//!   illegal (pseudo-legal generation ignores the rule);
//! - compulsory capture: when the side to move has a legal capture, its
//!   legal moves are its captures (pseudo-legal generation ignores the rule);
//! - compulsory drops: when the side to move has a legal drop, its legal
//!   moves are its drops (likewise);
//! - drops: each kind held in hand onto each empty square of its drop
//!   rule's region (a capture sends the piece to the capturer's hand in
//!   the runtime's make-move), with `no two on a file` not on a file where
//!   the side has one of the kind;
//! - immobility (`no piece may stand where it could not move`): no
//!   unpromoted move or drop ends where the piece could never move again
//!   (the runtime's `hands::immobile_squares`, left out of the drop squares);
//! - royal loss: under no check rule, a side whose royal pieces are all gone
//!   has no move ([`RoyalLoss::EndsGame`]) or crowns a candidate and then
//!   moves ([`RoyalLoss::Succession`]).

mod generate;
mod tables;

use tables::Tables;
use thiserror::Error;
use varc_runtime::model::{
    CaptureRule, CheckRule, Color, GivingCheck, PromotionTiming, RoyalFacing, RoyalLoss, Square,
    SquareSet, Variant, MAX_BOARD_SIDE, MAX_PIECE_KINDS,
};
use varc_runtime::moves::{Move, MoveEffects, Undo};
use varc_runtime::position::{Position, SquareIter};
use varc_runtime::rules::Rules;

/// Why a variant cannot be interpreted.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum InterpError {
    /// The interpreter keeps kinds in 64-bit masks.
    #[error("the variant has {count} piece kinds; at most {MAX_PIECE_KINDS} are supported")]
    TooManyKinds {
        /// Kinds declared.
        count: usize,
    },
    /// The board is larger than 16x16 or empty.
    #[error(
        "the board is {files}x{ranks}; boards must be 1x1 to {MAX_BOARD_SIDE}x{MAX_BOARD_SIDE}"
    )]
    BoardSize {
        /// Files.
        files: u8,
        /// Ranks.
        ranks: u8,
    },
}

/// The reference interpreter of one variant.
#[derive(Clone, Debug)]
pub struct Interpreter {
    variant: Variant,
    effects: MoveEffects,
    tables: Tables,
    /// `piece_key(kind, color, square)` -> index of the promotion rule that
    /// applies to that piece arriving there, or `u16::MAX`.
    promotion_lookup: Vec<u16>,
    delayed_rules: Vec<usize>,
    has_royal_kinds: bool,
    /// Per kind and side, the squares it may be dropped on (empty for
    /// kinds no drop rule names).
    drop_squares: Vec<[SquareSet; 2]>,
    /// Per kind: whether its drop rule says `no two on a file`.
    drop_no_two_on_a_file: Vec<bool>,
    /// Per kind and side, the squares it may enter `by gating` (empty for
    /// kinds no gating rule names; all empty without gating).
    gate_squares: Vec<[SquareSet; 2]>,
    /// Per kind and side, the squares from which it could never move,
    /// where `no piece may stand where it could not move` holds (else
    /// empty): no plain move ends there (nor a drop: the drop squares
    /// leave them out).
    immobile_squares: Vec<[SquareSet; 2]>,
}

impl Interpreter {
    /// Builds the interpreter's tables for `variant`.
    pub fn new(variant: Variant) -> Result<Interpreter, InterpError> {
        let (files, ranks) = (variant.board.files, variant.board.ranks);
        if files == 0 || ranks == 0 || files > MAX_BOARD_SIDE || ranks > MAX_BOARD_SIDE {
            return Err(InterpError::BoardSize { files, ranks });
        }
        if variant.pieces.len() > MAX_PIECE_KINDS {
            return Err(InterpError::TooManyKinds {
                count: variant.pieces.len(),
            });
        }
        let tables = Tables::new(&variant);
        let mut promotion_lookup = vec![u16::MAX; variant.pieces.len() * 2 * 256];
        for kind in 0..variant.pieces.len() {
            for color in Color::ALL {
                for square in variant.board.squares().iter() {
                    let rule = variant.promotion_rule_at(kind, color, square);
                    if let Some(rule) = rule {
                        promotion_lookup[tables::piece_key(kind, color, square.index())] =
                            rule as u16;
                    }
                }
            }
        }
        let delayed_rules = variant
            .promotions
            .iter()
            .enumerate()
            .filter(|(_, rule)| matches!(rule.timing, PromotionTiming::Delayed { .. }))
            .map(|(i, _)| i)
            .collect();
        Ok(Interpreter {
            effects: MoveEffects::new(&variant),
            has_royal_kinds: variant.pieces.iter().any(|p| p.royal),
            tables,
            promotion_lookup,
            delayed_rules,
            drop_squares: varc_runtime::hands::drop_squares(&variant),
            drop_no_two_on_a_file: variant.hands.no_two_on_a_file(variant.pieces.len()),
            gate_squares: varc_runtime::hands::gate_squares(&variant),
            immobile_squares: varc_runtime::hands::immobile_squares(&variant),
            variant,
        })
    }

    /// The facts of the variant that making moves needs.
    pub fn effects(&self) -> &MoveEffects {
        &self.effects
    }

    /// Appends the pseudo-legal moves of the side to move, the check rule
    /// aside but succession included, then keeps the legal ones if `legal`.
    fn generate(&self, position: &mut Position, out: &mut Vec<Move>, legal: bool) {
        let side = position.side_to_move();
        if self.has_royal_kinds && position.royals(side).is_empty() {
            match &self.variant.royal_loss {
                RoyalLoss::Succession {
                    candidates,
                    becomes,
                } => {
                    self.succession_moves(position, candidates, *becomes, out, legal);
                    return;
                }
                RoyalLoss::EndsGame => {
                    if self.variant.legality.check_rule == CheckRule::None {
                        return;
                    }
                }
            }
        }
        let first = out.len();
        self.pseudo_legal(position, out);
        if legal && self.variant.legality.check_rule == CheckRule::RoyalMayNotBeAttacked {
            self.retain_legal(position, out, first);
        }
        // A gating move is legal when the move without it is.
        self.gating_moves(position, out, first);
    }

    /// Removes from `out[first..]` the moves that leave a royal piece of the
    /// side to move attacked.
    /// Where royals facing each other must part and they face each other
    /// now, a move that leaves them facing is illegal unless it is a
    /// pass, which is legal even in check.
    fn retain_legal(&self, position: &mut Position, out: &mut Vec<Move>, first: usize) {
        let side = position.side_to_move();
        let royals_before = [side, side.opponent()].map(|c| position.royals(c).len());
        let parting = self.variant.legality.royal_facing == RoyalFacing::MustPart
            && self.royals_face(position, side);
        let mut kept = first;
        for i in first..out.len() {
            let mv = out[i];
            if parting && mv.is_pass() {
                out[kept] = mv;
                kept += 1;
                continue;
            }
            let undo = position.make_move(&mv, &self.effects);
            let safe = self.royals_safe_after(position, side, royals_before)
                && !(parting && self.royals_face(position, side));
            position.unmake_move(&mv, &undo);
            if safe {
                out[kept] = mv;
                kept += 1;
            }
        }
        out.truncate(kept);
    }

    /// A2: the side has lost its royal pieces; each move crowns one of its
    /// candidates and then makes an ordinary move.
    fn succession_moves(
        &self,
        position: &mut Position,
        candidates: &[usize],
        becomes: usize,
        out: &mut Vec<Move>,
        legal: bool,
    ) {
        let side = position.side_to_move();
        let royal = self.effects.is_royal(becomes);
        if !royal {
            return;
        }
        let mut ordinary = Vec::new();
        for index in SquareIter::new(*position.occupied(side)) {
            let Some(piece) = position.piece_at_index(index) else {
                continue;
            };
            if !candidates.contains(&piece.kind()) {
                continue;
            }
            let crowned = piece.changed_into(becomes, royal, self.effects.tracks_history());
            position.set_piece_at_index(index, Some(crowned));
            ordinary.clear();
            self.generate(position, &mut ordinary, legal);
            position.set_piece_at_index(index, Some(piece));
            let square = Square::from_index(index);
            out.extend(ordinary.iter().map(|mv| Move {
                crown: Some(square),
                ..*mv
            }));
        }
    }
}

impl Interpreter {
    /// Whether a royal piece of `side` is attacked, or faces an opponent's
    /// royal piece where royals may not face each other. Under explosions
    /// a royal piece that a blast on its square would share with an
    /// opponent's royal piece is safe: capturing it would blow up the
    /// capturer's own.
    fn royal_in_danger(&self, position: &Position, side: Color) -> bool {
        let facing = self.variant.legality.royal_facing == RoyalFacing::Forbidden;
        SquareIter::new(*position.royals(side)).any(|s| {
            (self.attacked(position, s, side.opponent())
                || (facing && self.faces_opponent_royal(position, s, side)))
                && !self.shielded_by_blast(position, s, side.opponent())
        })
    }

    /// Whether a royal piece of `side` sees a royal piece of the opponent
    /// along an open file or rank.
    pub(crate) fn royals_face(&self, position: &Position, side: Color) -> bool {
        SquareIter::new(*position.royals(side))
            .any(|s| self.faces_opponent_royal(position, s, side))
    }

    /// Under explosions: whether a blast on the square of index `square`
    /// would destroy a royal piece of `attacker` (so `attacker` may not
    /// capture there).
    pub(crate) fn shielded_by_blast(
        &self,
        position: &Position,
        square: usize,
        attacker: Color,
    ) -> bool {
        let Some(explosion) = &self.variant.explosion else {
            return false;
        };
        let center = Square::from_index(square);
        SquareIter::new(*position.royals(attacker)).any(|royal| {
            explosion.reaches(center, Square::from_index(royal))
                && position
                    .piece_at_index(royal)
                    .is_some_and(|piece| explosion.destroys(piece.kind()))
        })
    }

    /// Whether the move just made (by `side`, which had `royals_before`
    /// royal pieces, then the opponent's) is legal under the check rule:
    /// none of its royal pieces attacked. Under explosions, a move that
    /// blows up one of the mover's royal pieces is illegal, and one that
    /// blows up one of the opponent's is legal whatever it leaves attacked.
    fn royals_safe_after(
        &self,
        position: &Position,
        side: Color,
        royals_before: [usize; 2],
    ) -> bool {
        if self.variant.explosion.is_some() {
            if position.royals(side).len() < royals_before[0] {
                return false;
            }
            if position.royals(side.opponent()).len() < royals_before[1] {
                return true;
            }
        }
        !self.royal_in_danger(position, side)
    }

    /// No checks: removes the moves of `out[first..]` that attack a royal
    /// piece of the opponent.
    fn retain_non_checking(&self, position: &mut Position, out: &mut Vec<Move>, first: usize) {
        let opponent = position.side_to_move().opponent();
        let mut kept = first;
        for i in first..out.len() {
            let mv = out[i];
            let undo = self.make_move(position, &mv);
            let checks = self.royal_attacked(position, opponent);
            self.unmake_move(position, &mv, &undo);
            if !checks {
                out.swap(kept, i);
                kept += 1;
            }
        }
        out.truncate(kept);
    }
}

/// Compulsory capture: when one of `out[first..]` (the legal moves) is a
/// capture, removes those that are not.
fn retain_captures_if_any(position: &Position, out: &mut Vec<Move>, first: usize) {
    if out[first..].iter().any(|mv| mv.is_capture(position)) {
        let mut kept = first;
        for i in first..out.len() {
            if out[i].is_capture(position) {
                out.swap(kept, i);
                kept += 1;
            }
        }
        out.truncate(kept);
    }
}

/// Compulsory drops: when one of `out[first..]` (the legal moves) is a
/// drop, removes those that are not (Fairy-Stockfish's `mustDrop`).
fn retain_drops_if_any(out: &mut Vec<Move>, first: usize) {
    if out[first..].iter().any(|mv| mv.dropped().is_some()) {
        let mut kept = first;
        for i in first..out.len() {
            if out[i].dropped().is_some() {
                out.swap(kept, i);
                kept += 1;
            }
        }
        out.truncate(kept);
    }
}

/// The interpreter works on the runtime's own position and move, so the
/// conversions at the edges are copies.
impl Rules for Interpreter {
    type Position = Position;
    type Move = Move;
    type Undo = Undo;

    fn variant(&self) -> &Variant {
        &self.variant
    }

    fn import(&self, position: &Position) -> Position {
        position.clone()
    }

    fn export(&self, position: &Position) -> Position {
        position.clone()
    }

    fn describe(&self, mv: &Move) -> Move {
        *mv
    }

    fn without_promotion(&self, mv: &Move) -> Move {
        mv.without_promotion()
    }

    fn generate_legal(&self, position: &mut Position, out: &mut Vec<Move>) {
        let first = out.len();
        self.generate(position, out, true);
        if self.variant.legality.giving_check == GivingCheck::Forbidden {
            self.retain_non_checking(position, out, first);
        }
        if self.variant.legality.capture_rule == CaptureRule::Compulsory {
            retain_captures_if_any(position, out, first);
        }
        if self.variant.legality.drops_compulsory {
            retain_drops_if_any(out, first);
        }
    }

    fn generate_pseudo_legal(&self, position: &Position, out: &mut Vec<Move>) {
        let mut scratch = position.clone();
        self.generate(&mut scratch, out, false);
    }

    fn make_move(&self, position: &mut Position, mv: &Move) -> Undo {
        position.make_move(mv, &self.effects)
    }

    fn unmake_move(&self, position: &mut Position, mv: &Move, undo: &Undo) {
        position.unmake_move(mv, undo);
    }

    fn is_attacked(&self, position: &Position, square: Square, by: Color) -> bool {
        self.attacked(position, square.index(), by)
    }

    fn royal_attacked(&self, position: &Position, color: Color) -> bool {
        self.royal_in_danger(position, color)
    }
}
