//! Legal move generation: check and pin masks when they decide legality,
//! else pseudo-legal moves made and tested; royal loss (A2 succession);
//! no checks and compulsory capture, applied to the whole legal list (a succession's
//! crownings included), never to pseudo-legal moves.

use crate::bitboard::{Bitboard, Squares};
use crate::moves::{AnyMove, Counter, MoveKind, Mv, Sink, CROWNING, NO_KIND};
use crate::position::{code_of, has_kind, kind_of, Masks, Pos};
use crate::special::{castling_moves, push_special};
use crate::variant::CompiledVariant;

/// Every move of the side to move under `masks`, special moves included.
#[inline(always)]
pub fn generate_moves<V: CompiledVariant, S: Sink<V::Bb>>(
    pos: &Pos<V>,
    sink: &mut S,
    masks: &Masks<V>,
) {
    V::piece_moves(pos, sink, masks);
    special_moves(pos, sink, masks);
}

/// [`generate_moves`] into a move list, the pieces' moves out of line
/// (see [`list_piece_moves`]).
#[inline(always)]
fn list_moves<V: CompiledVariant>(pos: &Pos<V>, out: &mut Vec<Mv>, masks: &Masks<V>) {
    list_piece_moves(pos, out, masks);
    special_moves(pos, out, masks);
}

/// Castling and delayed promotions under `masks`, unless `sink` is done.
#[inline(always)]
fn special_moves<V: CompiledVariant, S: Sink<V::Bb>>(pos: &Pos<V>, sink: &mut S, masks: &Masks<V>) {
    if sink.done() {
        return;
    }
    if !V::CASTLING_RULES.is_empty() {
        castling_moves(pos, sink, masks);
        if sink.done() {
            return;
        }
    }
    V::delayed_promotions(pos, sink, masks.verify_specials);
    if V::HANDS {
        drop_moves(pos, sink, masks);
    }
    if V::PASSING_KINDS != 0 {
        pass_moves(pos, sink, masks);
    }
}

/// Passes: each piece of the side to move whose kind passes stays on its
/// square (a normal move with `from == to`).
#[inline]
fn pass_moves<V: CompiledVariant, S: Sink<V::Bb>>(pos: &Pos<V>, sink: &mut S, masks: &Masks<V>) {
    for square in Squares(pos.colors[pos.side()]) {
        let piece = pos.code_at(square);
        if has_kind(V::PASSING_KINDS, kind_of(piece)) {
            push_special(
                pos,
                Mv::normal(piece, square, square, NO_KIND),
                sink,
                masks.verify_specials,
            );
            if sink.done() {
                return;
            }
        }
    }
}

/// Whether `mv` is a pass.
#[inline(always)]
pub fn is_pass(mv: &Mv) -> bool {
    mv.kind == MoveKind::Normal && mv.from == mv.to && mv.promotion == NO_KIND
}

/// Drops: each kind in the side to move's hand onto the empty squares of
/// its drop squares that resolve a check (`masks.check`: the squares
/// between a checking rider and the royal piece, none for a leaper's
/// check or a double check). A drop only adds a blocker, so no pin
/// matters and no drop needs to be made to be tested.
#[inline]
fn drop_moves<V: CompiledVariant, S: Sink<V::Bb>>(pos: &Pos<V>, sink: &mut S, masks: &Masks<V>) {
    let us = pos.side();
    let empty = V::BOARD & !pos.occupied() & masks.check;
    if empty.is_empty() {
        return;
    }
    for (kind, squares) in V::DROP_SQUARES.iter().enumerate() {
        if pos.in_hand(us, kind) == 0 {
            continue;
        }
        let mut targets = squares[us] & empty;
        if V::DROP_NO_TWO_ON_A_FILE.get(kind).copied().unwrap_or(false) {
            // `no two on a file`: not on a file where the side has one.
            for square in Squares(pos.pieces[kind] & pos.colors[us]) {
                if let Some(file) = V::FILE_SQUARES.get(square % V::FILES) {
                    targets &= !*file;
                }
            }
        }
        if !targets.is_empty() {
            sink.drops(code_of(kind, us), targets);
        }
        if sink.done() {
            return;
        }
    }
}

/// [`CompiledVariant::piece_moves`] into a move list, out of line: one
/// copy of the variant's generator for every caller that lists moves
/// (legal and pseudo-legal lists, tactical moves, moves onto a square).
/// Inlined into each, the copies crowd the instruction cache of a search,
/// which runs them all at every node (perft runs one).
#[inline(never)]
fn list_piece_moves<V: CompiledVariant>(pos: &Pos<V>, out: &mut Vec<Mv>, masks: &Masks<V>) {
    V::piece_moves(pos, out, masks);
}

/// Whether the side to move has lost its royal pieces, in a variant that has some.
#[inline(always)]
fn lost_royals<V: CompiledVariant>(pos: &Pos<V>) -> bool {
    V::HAS_ROYAL_KINDS && pos.royals(pos.side()).is_empty()
}

/// The moves of a side that lost its royal pieces: with a succession rule
/// (A2), crown a candidate, then move; else none when nothing forbids
/// being attacked. `None` when the side still has a royal piece, or when
/// it moves as usual under the check rule.
fn royal_loss_moves<V: CompiledVariant>(
    pos: &Pos<V>,
    out: &mut Vec<Mv>,
    legal: bool,
) -> Option<()> {
    if !lost_royals(pos) {
        return None;
    }
    if let Some(succession) = V::SUCCESSION {
        let mut ordinary = Vec::new();
        for square in Squares(pos.colors[pos.side()]) {
            if !has_kind(succession.candidates, kind_of(pos.code_at(square))) {
                continue;
            }
            let mut crowned = *pos;
            crowned.change_kind(square, succession.becomes as usize);
            ordinary.clear();
            generate(&crowned, &mut ordinary, legal);
            out.extend(ordinary.iter().map(|mv| Mv {
                extra: square as u8,
                piece: CROWNING,
                ..*mv
            }));
        }
        return Some(());
    }
    if !V::CHECK_RULE {
        return Some(());
    }
    None
}

/// Appends the moves of the side to move: legal ones if `legal`, else
/// pseudo-legal ones (the check rule aside), gating moves included.
pub fn generate<V: CompiledVariant>(pos: &Pos<V>, out: &mut Vec<Mv>, legal: bool) {
    let first = out.len();
    generate_ungated(pos, out, legal);
    // A gating move is legal when the move without it is.
    if gating_possible(pos) {
        gating_moves(pos, out, first);
    }
}

/// Whether the side to move may gate: it holds a kind that may enter a
/// square where one of its pieces stands unmoved.
#[inline(always)]
fn gating_possible<V: CompiledVariant>(pos: &Pos<V>) -> bool {
    if V::GATE_SQUARES.is_empty() {
        return false;
    }
    let us = pos.side();
    let unmoved = pos.unmoved & pos.colors[us];
    !unmoved.is_empty()
        && V::GATE_SQUARES
            .iter()
            .enumerate()
            .any(|(kind, squares)| pos.in_hand(us, kind) > 0 && !(squares[us] & unmoved).is_empty())
}

/// Gating (`drops of ... by gating`): for each of `out[first..]` that an
/// unmoved piece makes from a square where a kind in the mover's hand may
/// enter, the same move with that kind entering the square it leaves
/// (castling: also the rook's). Passes, drops and delayed promotions
/// leave no square.
fn gating_moves<V: CompiledVariant>(pos: &Pos<V>, out: &mut Vec<Mv>, first: usize) {
    let us = pos.side();
    let unmoved = pos.unmoved & pos.colors[us];
    for i in first..out.len() {
        let mv = out[i];
        let left = match mv.kind {
            MoveKind::Normal | MoveKind::EnPassant if !is_pass(&mv) => {
                [Some((mv.from, false)), None]
            }
            MoveKind::Castle => [Some((mv.from, false)), Some((mv.aux, true))],
            _ => continue,
        };
        for (square, on_rook) in left.into_iter().flatten() {
            let bit = V::Bb::bit(square as usize);
            if (unmoved & bit).is_empty() {
                continue;
            }
            for (kind, squares) in V::GATE_SQUARES.iter().enumerate() {
                if pos.in_hand(us, kind) > 0 && !(squares[us] & bit).is_empty() {
                    out.push(mv.with_gate(kind, on_rook));
                }
            }
        }
    }
}

/// [`generate`] without gating moves.
fn generate_ungated<V: CompiledVariant>(pos: &Pos<V>, out: &mut Vec<Mv>, legal: bool) {
    if royal_loss_moves(pos, out, legal).is_some() {
        return;
    }
    if legal && V::CHECK_RULE {
        let mut masks = Masks::NONE;
        if V::fast_masks(pos, &mut masks) {
            list_moves(pos, out, &masks);
            return;
        }
        let first = out.len();
        list_moves(pos, out, &Masks::NONE);
        // Royals facing each other must part: while they face, a move
        // that leaves them facing is illegal, and a pass legal even in check.
        let parting = V::ROYALS_MUST_PART && pos.royals_face(pos.side());
        let mut kept = first;
        for i in first..out.len() {
            let mv = out[i];
            let legal = if parting {
                is_pass(&mv) || {
                    let after = pos.make(mv);
                    pos.royals_safe_after(&after, pos.side()) && !after.royals_face(pos.side())
                }
            } else {
                pos.royals_safe_after(&pos.make(mv), pos.side())
            };
            if legal {
                out[kept] = mv;
                kept += 1;
            }
        }
        out.truncate(kept);
        return;
    }
    list_moves(pos, out, &Masks::NONE);
}

/// The legal moves of the side to move.
#[inline]
pub fn legal_moves<V: CompiledVariant>(pos: &Pos<V>, out: &mut Vec<Mv>) {
    let first = out.len();
    generate(pos, out, true);
    if V::NO_CHECKS {
        retain_non_checking(pos, out, first);
    }
    if V::COMPULSORY_CAPTURE {
        retain_captures_if_any(pos, out, first);
    }
    if V::COMPULSORY_DROPS {
        retain_drops_if_any(out, first);
    }
}

/// Compulsory drops: when one of `out[first..]` (the legal moves) is a
/// drop, removes those that are not (Fairy-Stockfish's `mustDrop`).
fn retain_drops_if_any(out: &mut Vec<Mv>, first: usize) {
    retain_if_any(out, first, |mv| mv.kind == MoveKind::Drop);
}

/// When one of `out[first..]` is `wanted`, removes those that are not
/// (a compulsory kind of move).
fn retain_if_any(out: &mut Vec<Mv>, first: usize, wanted: impl Fn(&Mv) -> bool) {
    if out[first..].iter().any(&wanted) {
        let mut kept = first;
        for i in first..out.len() {
            if wanted(&out[i]) {
                out.swap(kept, i);
                kept += 1;
            }
        }
        out.truncate(kept);
    }
}

/// Whether compulsory drops may remove moves on `pos`: the side to move
/// holds a piece in hand (then the moves are listed to know).
#[inline(always)]
fn drops_may_be_compulsory<V: CompiledVariant>(pos: &Pos<V>) -> bool {
    V::COMPULSORY_DROPS
        && AsRef::<[u8]>::as_ref(&pos.hands[pos.side()])
            .iter()
            .any(|&n| n > 0)
}

/// No checks: removes the moves of `out[first..]` that attack a royal
/// piece of the opponent.
fn retain_non_checking<V: CompiledVariant>(pos: &Pos<V>, out: &mut Vec<Mv>, first: usize) {
    let opponent = pos.side() ^ 1;
    let mut kept = first;
    for i in first..out.len() {
        let mv = out[i];
        if !pos.make(mv).royal_attacked(opponent) {
            out[kept] = mv;
            kept += 1;
        }
    }
    out.truncate(kept);
}

/// Whether `mv` captures on `pos` (the position it was generated for): en
/// passant does, castling does not, nor a piece that stays put.
#[inline(always)]
pub fn is_capture<V: CompiledVariant>(pos: &Pos<V>, mv: &Mv) -> bool {
    match mv.kind {
        MoveKind::EnPassant => true,
        MoveKind::Castle | MoveKind::Drop => false,
        MoveKind::Normal | MoveKind::DelayedPromotion => {
            mv.to != mv.from && pos.is_occupied(mv.to as usize)
        }
    }
}

/// Compulsory capture: when one of `out[first..]` (the legal moves, or a
/// list that holds every legal capture) captures, removes those that do
/// not.
fn retain_captures_if_any<V: CompiledVariant>(pos: &Pos<V>, out: &mut Vec<Mv>, first: usize) {
    retain_if_any(out, first, |mv| is_capture(pos, mv));
}

/// Masks under which every generated move is legal: check and pin masks,
/// or none without a check rule. `None` where moves must be made to be
/// tested, the side lost its royal pieces (its moves are crownings), or
/// compulsory drops may remove moves (the side holds a piece in hand), or
/// the side may gate (gating moves are added to a list of moves).
#[inline(always)]
fn deciding_masks<V: CompiledVariant>(pos: &Pos<V>) -> Option<Masks<V>> {
    if lost_royals(pos) || drops_may_be_compulsory(pos) || gating_possible(pos) {
        return None;
    }
    let mut masks = Masks::NONE;
    if V::CHECK_RULE && !V::fast_masks(pos, &mut masks) {
        return None;
    }
    // A move that gives check is known only once made.
    if V::NO_CHECKS {
        return None;
    }
    Some(masks)
}

/// The number of legal moves (bulk counting: no list when masks apply and
/// captures are not compulsory; a compulsory capture is known only once
/// every capture is found, so the moves are listed).
#[inline]
pub fn count_legal<V: CompiledVariant>(pos: &Pos<V>) -> u64 {
    if V::COMPULSORY_CAPTURE {
        let mut list = Vec::new();
        legal_moves(pos, &mut list);
        return list.len() as u64;
    }
    if let Some(masks) = deciding_masks(pos) {
        let mut counter = Counter::new();
        generate_moves(pos, &mut counter, &masks);
        return counter.total();
    }
    let mut list = Vec::new();
    legal_moves(pos, &mut list);
    list.len() as u64
}

/// Whether the side to move has a legal move, where check and pin masks
/// decide legality (or there is no check rule): the generator stops at the
/// first move. Compulsory capture changes nothing here: it keeps the
/// captures when there are some, so a side with a legal move keeps one.
/// `None` where moves must be made to be tested, or a royal piece was
/// lost: list them to know.
#[inline]
pub fn any_legal<V: CompiledVariant>(pos: &Pos<V>) -> Option<bool> {
    deciding_masks(pos).map(|masks| any_move_under(pos, &masks))
}

/// Whether the side to move has a move under `masks` (which decide legality).
#[inline(always)]
fn any_move_under<V: CompiledVariant>(pos: &Pos<V>, masks: &Masks<V>) -> bool {
    let mut any = AnyMove::default();
    generate_moves(pos, &mut any, masks);
    any.found
}

/// [`any_legal`], and whether the side to move is in check: the check
/// and pin masks count the checking pieces on the way.
#[inline]
pub fn any_legal_and_check<V: CompiledVariant>(pos: &Pos<V>) -> Option<(bool, bool)> {
    let masks = deciding_masks(pos)?;
    let any = any_move_under(pos, &masks);
    // The masks count checks only where the check rule made them.
    let in_check = if V::CHECK_RULE {
        masks.checkers != 0
    } else {
        pos.royal_attacked(pos.side())
    };
    Some((any, in_check))
}

/// Appends the legal moves of the side to move that may be tactical: every
/// legal capture and promotion, and some other legal moves (onto promotion
/// squares without promoting), which the caller filters out;
/// `false` (and nothing appended) where check and pin masks do not decide
/// legality, or a royal piece was lost. Quiescence wants only captures and
/// promotions, and most moves are neither. Under compulsory capture, a
/// promotion that does not capture is left out when a capture exists (the
/// list holds every legal capture, so it knows).
#[inline]
pub fn tactical_moves<V: CompiledVariant>(pos: &Pos<V>, out: &mut Vec<Mv>) -> bool {
    let Some(mut masks) = deciding_masks(pos) else {
        return false;
    };
    let first = out.len();
    let wanted = pos.occupied() | V::PROMOTION_SQUARES[pos.side()] | pos.en_passant_targets;
    masks.check &= wanted;
    masks.royal_targets &= wanted;
    // No castling: it neither captures nor promotes.
    list_piece_moves(pos, out, &masks);
    V::delayed_promotions(pos, out, masks.verify_specials);
    if V::COMPULSORY_CAPTURE {
        retain_captures_if_any(pos, out, first);
    }
    true
}

/// Appends the pseudo-legal moves of the side to move onto `square` (and
/// some others, en passant captures, for the caller to filter out);
/// the moves onto an occupied square capture, so compulsory capture,
/// which removes only moves that do not, leaves them all;
/// `false` (and nothing appended) when a royal piece was lost, where the
/// moves are crownings first.
#[inline]
pub fn pseudo_legal_onto<V: CompiledVariant>(
    pos: &Pos<V>,
    square: usize,
    out: &mut Vec<Mv>,
) -> bool {
    if lost_royals(pos) {
        return false;
    }
    let target = V::Bb::bit(square);
    let masks = Masks {
        check: target,
        royal_targets: target,
        ..Masks::NONE
    };
    // No castling: it never lands on an occupied square.
    list_piece_moves(pos, out, &masks);
    V::delayed_promotions(pos, out, false);
    true
}
