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
/// capture after `mv` could change a piece's kind (a kind that promotes
/// there is among the least valuable capturers), `mv` is neither a plain
/// move nor en passant, or a side
/// has lost its royal pieces. `plain` says the variant has neither delayed
/// promotions nor successions.
pub fn exchange_victims<V: CompiledVariant>(
    pos: &Pos<V>,
    mv: &Mv,
    values: &ExchangeValues,
    victims: &mut [i32],
    plain: bool,
) -> Option<usize> {
    if !plain || mv.crowns() {
        return None;
    }
    let square = mv.to as usize;
    let mut occupied = pos.occupied() & !V::Bb::bit(mv.from as usize);
    match mv.kind {
        MoveKind::Normal => {}
        MoveKind::EnPassant => occupied &= !V::Bb::bit(mv.aux as usize),
        MoveKind::Castle | MoveKind::DelayedPromotion | MoveKind::Drop => return None,
    }
    occupied |= V::Bb::bit(square);
    if V::HAS_ROYAL_KINDS && (pos.royals(0).is_empty() || pos.royals(1).is_empty()) {
        return None;
    }
    let mut on_square = if mv.promotion == NO_KIND {
        kind_of(pos.code_at(mv.from as usize))
    } else {
        mv.promotion as usize
    };
    let mut side = 1 - pos.side();
    let mut count = 0;
    while count < victims.len() {
        let attackers = V::attackers(pos, square, occupied, side) & occupied & pos.colors[side];
        let Some(capturer) = least_valuable(pos, attackers, values, square, side) else {
            break;
        };
        if capturer.may_promote {
            return None;
        }
        victims[count] = values.ordering(on_square);
        count += 1;
        if values.is_royal(on_square) {
            break;
        }
        occupied &= !V::Bb::bit(capturer.from);
        on_square = capturer.kind;
        side = 1 - side;
    }
    Some(count)
}

/// The next capturer of an exchange.
struct Capturer {
    kind: usize,
    from: usize,
    /// A kind of the least value among the attackers promotes on the
    /// square: the runtime's choice (most valuable promotion first) and
    /// the value left on the square are not the swap's to make.
    may_promote: bool,
}

/// The least valuable of `attackers` (of `side`, onto `square`) by
/// ordering value, ties to the lowest square (the lowest canonical key:
/// dense and runtime square numbers both run rank by rank).
#[inline]
fn least_valuable<V: CompiledVariant>(
    pos: &Pos<V>,
    attackers: V::Bb,
    values: &ExchangeValues,
    square: usize,
    side: usize,
) -> Option<Capturer> {
    if attackers.is_empty() {
        return None;
    }
    let promotion_square = !(V::PROMOTION_SQUARES[side] & V::Bb::bit(square)).is_empty();
    let mut best: Option<(i32, Capturer)> = None;
    for kind in 0..V::KINDS {
        let of_kind = attackers & pos.pieces[kind];
        if of_kind.is_empty() {
            continue;
        }
        let value = values.ordering(kind);
        let promotes = promotion_square && V::first_promotion(kind, side, square) != u8::MAX;
        let from = of_kind.lsb();
        match &mut best {
            Some((best_value, best)) if value == *best_value => {
                best.may_promote |= promotes;
                if from < best.from {
                    (best.kind, best.from) = (kind, from);
                }
            }
            Some((best_value, _)) if value > *best_value => {}
            _ => {
                best = Some((
                    value,
                    Capturer {
                        kind,
                        from,
                        may_promote: promotes,
                    },
                ))
            }
        }
    }
    best.map(|(_, capturer)| capturer)
}
