//! The exchange evaluation's captures on one square, played out on square
//! sets (the classic swap): each step takes the least valuable attacker of
//! the side to move off the occupancy, and the attack functions, given the
//! smaller occupancy, find the riders and hoppers it uncovered. No move is
//! made. It gives what the runtime's played-out exchange gives
//! ([`varc_runtime::search::see`]), which the differential search tests
//! hold it to, wherever no piece changes kind on the way; elsewhere it
//! declines and the runtime plays the steps out with moves.

use crate::bitboard::Bitboard;
use crate::moves::{MoveKind, Mv, NO_KIND};
use crate::position::{kind_of, Pos};
use crate::variant::CompiledVariant;
use varc_runtime::rules::ExchangeValues;

/// The ordering values of the pieces taken by the captures on `mv`'s
/// square after `mv`, written into `victims` (see
/// [`varc_runtime::rules::Rules::exchange_victims`]); `None` where a
/// capture could change a piece's kind: a promotion square of either side,
/// a move that is not a plain capture or en passant, or a side without its
/// royal pieces. `plain` says the variant has neither delayed promotions
/// nor successions.
pub fn exchange_victims<V: CompiledVariant>(
    pos: &Pos<V>,
    mv: &Mv,
    values: &ExchangeValues,
    victims: &mut [i32],
    plain: bool,
) -> Option<usize> {
    let square = mv.to as usize;
    let target = V::Bb::bit(square);
    let promotes_there = !((V::PROMOTION_SQUARES[0] | V::PROMOTION_SQUARES[1]) & target).is_empty();
    if !plain || promotes_there || mv.promotion != NO_KIND || mv.crowns {
        return None;
    }
    let mut occupied = pos.occupied() & !V::Bb::bit(mv.from as usize);
    match mv.kind {
        MoveKind::Normal => {}
        MoveKind::EnPassant => occupied &= !V::Bb::bit(mv.aux as usize),
        MoveKind::Castle | MoveKind::DelayedPromotion => return None,
    }
    occupied |= target;
    if V::HAS_ROYAL_KINDS && (pos.royals(0).is_empty() || pos.royals(1).is_empty()) {
        return None;
    }
    let mover = kind_of(pos.code_at(mv.from as usize));
    let mut on_square = mover;
    let mut side = 1 - pos.side();
    let mut count = 0;
    while count < victims.len() {
        let attackers = V::attackers(pos, square, occupied, side) & occupied & pos.colors[side];
        let Some((kind, from)) = least_valuable(pos, attackers, values) else {
            break;
        };
        victims[count] = values.ordering(on_square);
        count += 1;
        if values.is_royal(on_square) {
            break;
        }
        occupied &= !V::Bb::bit(from);
        on_square = kind;
        side = 1 - side;
    }
    Some(count)
}

/// The least valuable of `attackers` by ordering value, ties to the lowest
/// square (the lowest canonical key: dense and runtime square numbers both
/// run rank by rank), with its kind.
#[inline]
fn least_valuable<V: CompiledVariant>(
    pos: &Pos<V>,
    attackers: V::Bb,
    values: &ExchangeValues,
) -> Option<(usize, usize)> {
    if attackers.is_empty() {
        return None;
    }
    let mut best: Option<(i32, usize, usize)> = None;
    for kind in 0..V::KINDS {
        let of_kind = attackers & pos.pieces[kind];
        if of_kind.is_empty() {
            continue;
        }
        let candidate = (values.ordering(kind), of_kind.lsb(), kind);
        if best.is_none_or(|best| (candidate.0, candidate.1) < (best.0, best.1)) {
            best = Some(candidate);
        }
    }
    best.map(|(_, from, kind)| (kind, from))
}
