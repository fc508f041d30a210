//! Static exchange evaluation: what a capture wins or loses on its square
//! when both sides go on capturing there, least valuable piece first, each
//! free to stop when going on would lose.
//!
//! It is generic over the variant: the exchange is played out with the back
//! end's own moves ([`Rules::generate_pseudo_legal`] and
//! [`Rules::make_move`] on a scratch position), so riders, leapers, hoppers
//! and whatever else the rules define capture as they do in the game, and a
//! piece uncovered by a capture (a rook behind a rook, a cannon's new
//! screen) joins the exchange by itself. Each step takes the capture onto
//! the square by the least valuable piece (a royal piece last), preferring
//! the most valuable promotion, then the lowest canonical key
//! ([`Rules::canonical_key`]): the same choice on every back end, so that
//! the interpreter and compiled engines search the same tree. The value of
//! the piece standing on the square after a step is read from the position
//! (a promotion, Chess 99's delayed promotion, a promotion into territory
//! all count). Moves are pseudo-legal (a pinned piece still recaptures, as
//! in other engines); a step that captures a royal piece ends the exchange.
//! En passant and castling never join an exchange after its first move.
//! Before it looks for captures, each step asks whether the side to move
//! attacks the square at all ([`Rules::is_attacked`]), which ends most
//! exchanges without generating a move. A back end may play the steps out
//! on its own, without making moves, where it gives the same captures
//! ([`Rules::exchange_victims`]: the compiled one does, on square sets,
//! wherever no piece can change kind on the way).
//!
//! The search orders captures that lose material ([`loses_material`])
//! after the quiet moves everywhere, and skips them in quiescence only
//! where the model allows it ([`ExchangePolicy`]).

use super::order::ordering_value;
use crate::board::Board;
use crate::eval::Evaluator;
use crate::model::{CheckRule, PieceId, Square, Variant};
use crate::moves::MoveKind;
use crate::rules::{ExchangeValues, Rules};

/// The most captures an exchange plays out.
const MAX_EXCHANGE: usize = 32;

/// Whether quiescence may skip the captures that lose material by the
/// exchange ([`loses_material`]), decided from the model.
///
/// That reads a capture as its material, which fails where a capture can
/// be worth more than its material:
/// - where there is no check rule, a capture (or the piece it moves) can
///   open the way to a king capture, which decides the game;
/// - where wins are awarded during the game, a capture may earn one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExchangePolicy {
    /// Losing captures may be skipped in quiescence (not in check).
    Prune,
    /// Not allowed, for this reason.
    Off(&'static str),
}

impl ExchangePolicy {
    /// The policy `variant`'s rules call for.
    pub fn of(variant: &Variant) -> ExchangePolicy {
        if variant.legality.check_rule == CheckRule::None {
            return ExchangePolicy::Off("no check rule");
        }
        if !variant.awards.is_empty() {
            return ExchangePolicy::Off("wins are awarded during the game");
        }
        ExchangePolicy::Prune
    }

    /// Whether captures may be pruned by their exchange value.
    pub fn allowed(&self) -> bool {
        matches!(self, ExchangePolicy::Prune)
    }
}

/// The values an exchange plays with: the evaluator's, royal kinds above
/// every other for ordering.
pub fn exchange_values(variant: &Variant, evaluator: &Evaluator) -> ExchangeValues {
    let kinds = 0..variant.pieces.len();
    ExchangeValues {
        ordering: kinds
            .clone()
            .map(|kind| ordering_value(evaluator, kind))
            .collect(),
        material: kinds.clone().map(|kind| evaluator.value(kind)).collect(),
        royal: kinds.map(|kind| evaluator.is_royal(kind)).collect(),
    }
}

/// The value of the kind standing on `square`, for the exchange.
fn occupant_value(values: &ExchangeValues, position: &impl Board, square: Square) -> i32 {
    position
        .occupant(square)
        .map_or(0, |(kind, _)| values.ordering(kind))
}

/// What `mv` gains on top of its victim: the promoted kind's value over
/// the moving kind's (never below 0).
fn promotion_gain(
    values: &ExchangeValues,
    mover: Option<PieceId>,
    promotion: Option<PieceId>,
) -> i32 {
    promotion.map_or(0, |kind| {
        (values.material(kind) - mover.map_or(0, |kind| values.material(kind))).max(0)
    })
}

/// Whether `mv` loses material by the exchange on its square (its
/// [`exchange_value`] below 0). A capture of a piece worth at least the
/// capturing one never does, and is answered without playing the exchange
/// out; so is a capture onto a square the opponent does not attack.
/// `scratch` is a move list the function may use.
pub fn loses_material<R: Rules + ?Sized>(
    rules: &R,
    values: &ExchangeValues,
    position: &R::Position,
    mv: &R::Move,
    scratch: &mut Vec<R::Move>,
) -> bool {
    may_lose_material(rules, values, position, mv)
        && exchange_value(rules, values, position, mv, scratch) < 0
}

/// Whether `mv` may lose material by the exchange on its square: not when
/// its victim is worth at least the moving piece (then the exchange need
/// not be played out).
pub fn may_lose_material<R: Rules + ?Sized>(
    rules: &R,
    values: &ExchangeValues,
    position: &R::Position,
    mv: &R::Move,
) -> bool {
    let victim = rules
        .captured_kind(position, mv)
        .map_or(0, |kind| values.ordering(kind));
    let mover = rules
        .moving_kind(position, mv)
        .map_or(0, |kind| values.ordering(kind));
    victim < mover
}

/// The material `mv` wins (negative: loses) for the side to move when the
/// exchange on its square is played out (see the module's documentation).
/// `scratch` is a move list the function may use.
pub fn exchange_value<R: Rules + ?Sized>(
    rules: &R,
    values: &ExchangeValues,
    position: &R::Position,
    mv: &R::Move,
    scratch: &mut Vec<R::Move>,
) -> i32 {
    let victim = rules.captured_kind(position, mv);
    let mover = rules.moving_kind(position, mv);
    let first_gain = victim.map_or(0, |kind| values.ordering(kind))
        + promotion_gain(values, mover, rules.promotion(mv));
    let (from, square) = rules.move_squares(mv);
    if square == from || matches!(rules.move_kind(mv), MoveKind::Castle { .. }) {
        return first_gain;
    }
    if victim.is_some_and(|kind| values.is_royal(kind)) {
        return first_gain;
    }
    // gains[d]: what the side making the d-th capture has won if the
    // exchange stops right after it.
    let mut gains = [0i32; MAX_EXCHANGE];
    gains[0] = first_gain;
    let mut victims = [0i32; MAX_EXCHANGE - 1];
    let steps = match rules.exchange_victims(position, mv, values, &mut victims) {
        // The back end played the exchange out on its own (no promotion
        // on the way, so a capture wins exactly its victim).
        Some(count) => {
            for (d, victim) in victims.iter().take(count).enumerate() {
                gains[d + 1] = victim - gains[d];
            }
            count + 1
        }
        None => play_out(rules, values, position, mv, square, &mut gains, scratch),
    };
    // Each side takes the better of stopping and going on, from the last
    // capture back to the first (which is played: it is the move).
    for d in (1..steps).rev() {
        gains[d - 1] = -(-gains[d - 1]).max(gains[d]);
    }
    gains[0]
}

/// Plays the exchange out after `mv` with the back end's moves, filling
/// `gains` from its second entry, and returns how many entries hold
/// captures (the first, `mv`'s, included).
fn play_out<R: Rules + ?Sized>(
    rules: &R,
    values: &ExchangeValues,
    position: &R::Position,
    mv: &R::Move,
    square: Square,
    gains: &mut [i32; MAX_EXCHANGE],
    scratch: &mut Vec<R::Move>,
) -> usize {
    let mut steps = 1;
    let mut board = position.clone();
    rules.make_move(&mut board, mv);
    let mut on_square = occupant_value(values, &board, square);
    while steps < MAX_EXCHANGE {
        // Most exchanges end here: the side to move does not attack the
        // square (one attack test, before any move is generated).
        if !rules.is_attacked(&board, square, board.side_to_move()) {
            break;
        }
        let Some(capture) = least_valuable_capture(rules, values, &board, square, scratch) else {
            break;
        };
        let mover = rules.moving_kind(&board, &capture);
        gains[steps] =
            on_square + promotion_gain(values, mover, rules.promotion(&capture)) - gains[steps - 1];
        steps += 1;
        let royal_taken = board
            .occupant(square)
            .is_some_and(|(kind, _)| values.is_royal(kind));
        if royal_taken {
            break;
        }
        rules.make_move(&mut board, &capture);
        on_square = occupant_value(values, &board, square);
    }
    steps
}

/// The capture onto `square` that the side to move of `board` makes next
/// in an exchange: least valuable mover, then most valuable promotion, then
/// lowest canonical key.
fn least_valuable_capture<R: Rules + ?Sized>(
    rules: &R,
    values: &ExchangeValues,
    board: &R::Position,
    square: Square,
    scratch: &mut Vec<R::Move>,
) -> Option<R::Move> {
    scratch.clear();
    if !rules.generate_pseudo_legal_onto(board, square, scratch) {
        rules.generate_pseudo_legal(board, scratch);
    }
    let mut best: Option<((i32, i32, u64), R::Move)> = None;
    for capture in scratch.iter() {
        let (from, to) = rules.move_squares(capture);
        if to != square
            || from == to
            || !matches!(
                rules.move_kind(capture),
                MoveKind::Normal | MoveKind::DelayedPromotion
            )
        {
            continue;
        }
        if rules.captured_kind(board, capture).is_none() {
            continue;
        }
        let mover = rules
            .moving_kind(board, capture)
            .map_or(0, |kind| values.ordering(kind));
        let promotion = rules
            .promotion(capture)
            .map_or(0, |kind| values.material(kind));
        let key = (mover, -promotion, rules.canonical_key(capture));
        let better = match &best {
            Some((best_key, _)) => key < *best_key,
            None => true,
        };
        if better {
            best = Some((key, *capture));
        }
    }
    best.map(|(_, capture)| capture)
}
