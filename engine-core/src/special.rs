//! The special moves, read from the variant's rules data: en passant,
//! castling (Chess960 destinations) and delayed promotion (Chess 99).

use crate::bitboard::{Bitboard, Squares};
use crate::moves::{MoveKind, Mv, Sink, NO_KIND};
use crate::position::{has_kind, Masks, Pos};
use crate::variant::{CastlingRule, CompiledVariant, FollowUp, PromotionRule};

/// Pushes a special move, after trying it if `verify` (legal moves only).
#[inline]
pub fn push_special<V: CompiledVariant, S: Sink<V::Bb>>(
    pos: &Pos<V>,
    mv: Mv,
    sink: &mut S,
    verify: bool,
) {
    if verify && !pos.royals_safe_after(&pos.make(mv), pos.side()) {
        return;
    }
    sink.push(mv);
}

/// The promotion choices a rule offers `color` (at most one per kind).
#[derive(Clone, Copy, Debug)]
pub struct Choices {
    kinds: [u8; varc_runtime::model::MAX_PIECE_KINDS],
    len: usize,
}

impl Choices {
    /// The kinds, in the rule's order.
    #[inline]
    pub fn as_slice(&self) -> &[u8] {
        &self.kinds[..self.len]
    }
}

/// The kinds among `choices` that `color` may promote into under
/// `limits` (per choice, White's and Black's; `only into captured
/// kinds`): those of which it has fewer on the board than the limit.
#[inline]
pub fn limited_choices<V: CompiledVariant>(
    pos: &Pos<V>,
    color: usize,
    choices: &[u8],
    limits: &[[u32; 2]],
) -> Choices {
    let mut out = Choices {
        kinds: [0; varc_runtime::model::MAX_PIECE_KINDS],
        len: 0,
    };
    for (i, &kind) in choices.iter().enumerate() {
        let on_board = (pos.pieces[kind as usize] & pos.colors[color]).popcnt();
        let available = limits.get(i).is_none_or(|limit| on_board < limit[color]);
        if available && out.len < out.kinds.len() {
            out.kinds[out.len] = kind;
            out.len += 1;
        }
    }
    out
}

/// En passant captures by the piece on `from` onto `targets`, promoting
/// where an immediate promotion rule applies.
pub fn en_passant_moves<V: CompiledVariant, S: Sink<V::Bb>>(
    pos: &Pos<V>,
    from: usize,
    targets: V::Bb,
    sink: &mut S,
    verify: bool,
) {
    let victim = pos.en_passant_victim as usize;
    if victim >= V::SQUARES {
        return;
    }
    let code = pos.code_at(victim);
    if code == 0 || crate::position::color_of(code) == pos.side() {
        return;
    }
    let piece = pos.code_at(from);
    let kind = crate::position::kind_of(piece);
    for to in Squares(targets) {
        let base = Mv {
            kind: MoveKind::EnPassant,
            aux: victim as u8,
            ..Mv::normal(piece, from, to, NO_KIND)
        };
        let rule = V::first_promotion(kind, pos.side(), to);
        match V::PROMOTION_RULES.get(rule as usize) {
            Some(rule) if rule.delayed.is_none() => {
                if rule.optional {
                    push_special(pos, base, sink, verify);
                }
                let choices = limited_choices(pos, pos.side(), rule.choices, rule.limits);
                for choice in choices.as_slice() {
                    push_special(
                        pos,
                        Mv {
                            promotion: *choice,
                            ..base
                        },
                        sink,
                        verify,
                    );
                }
            }
            _ => push_special(pos, base, sink, verify),
        }
    }
}

/// The moves of a delayed promotion of the piece on `from`: promote in
/// place, then optionally one move of the rule's follow-up mode.
pub fn delayed_promotion_moves<V: CompiledVariant, S: Sink<V::Bb>>(
    pos: &Pos<V>,
    from: usize,
    rule: &PromotionRule,
    sink: &mut S,
    verify: bool,
) {
    let Some(follow_up) = rule.delayed else {
        return;
    };
    let own = pos.colors[pos.side()];
    let enemy = pos.colors[1 - pos.side()];
    let occupied = own | enemy;
    let empty = V::BOARD & !occupied;
    let piece = pos.code_at(from);
    let choices = limited_choices(pos, pos.side(), rule.choices, rule.limits);
    let push = |mv: Mv, sink: &mut S| {
        if !rule.attacking_nothing || attacks_nothing(pos, mv) {
            push_special(pos, mv, sink, verify);
        }
    };
    for &choice in choices.as_slice() {
        let stay = Mv {
            kind: MoveKind::DelayedPromotion,
            ..Mv::normal(piece, from, from, choice)
        };
        push(stay, sink);
        if follow_up == FollowUp::None {
            continue;
        }
        let [move_or_capture, move_only, capture_only] =
            V::reach(choice as usize, pos.side(), pos, from, occupied);
        let targets = match follow_up {
            FollowUp::None => continue,
            FollowUp::MoveOrCapture => {
                (move_or_capture & V::BOARD & !own) | (move_only & empty) | (capture_only & enemy)
            }
            FollowUp::MoveOnly => (move_or_capture | move_only) & empty,
            FollowUp::CaptureOnly => (move_or_capture | capture_only) & enemy,
        };
        for to in Squares(targets) {
            push(
                Mv {
                    to: to as u8,
                    ..stay
                },
                sink,
            );
        }
    }
}

/// `attacking nothing`: whether the promotion `mv` gives no check and
/// leaves the promoted piece attacking no piece of the opponent (none it
/// could capture, were it its turn).
fn attacks_nothing<V: CompiledVariant>(pos: &Pos<V>, mv: Mv) -> bool {
    let after = pos.make(mv);
    let opponent = 1 - pos.side();
    if after.royal_attacked(opponent) {
        return false;
    }
    let occupied = after.colors[0] | after.colors[1];
    let [move_or_capture, _, capture_only] = V::reach(
        mv.promotion as usize,
        pos.side(),
        &after,
        mv.to as usize,
        occupied,
    );
    (move_or_capture | capture_only) & after.colors[opponent] == V::Bb::EMPTY
}

/// The squares of `rank` between files `a` and `b`, both included.
#[inline(always)]
fn rank_span<V: CompiledVariant>(rank: usize, a: usize, b: usize) -> V::Bb {
    V::Bb::span(rank * V::FILES + a.min(b), rank * V::FILES + a.max(b))
}

/// Castling moves of the side to move (Chess960 destinations). With check
/// masks whose royal piece is the castling king, the king's safety is
/// tested on its destination without making the move.
pub fn castling_moves<V: CompiledVariant, S: Sink<V::Bb>>(
    pos: &Pos<V>,
    sink: &mut S,
    masks: &Masks<V>,
) {
    for rule in V::CASTLING_RULES {
        let rank = rule.ranks[pos.side()];
        let files =
            (pos.castling[pos.side()] | rule.loose_rook_files) as u32 & ((1u32 << V::FILES) - 1);
        if files == 0 {
            continue;
        }
        let kings = pos.pieces[rule.king as usize] & pos.colors[pos.side()] & pos.unmoved;
        for king_square in Squares(kings) {
            if king_square / V::FILES != rank {
                continue;
            }
            if let Some(lineage) = rule.king_lineage {
                if !pos.lineage_ends_with(king_square, lineage) {
                    continue;
                }
            }
            let mut rook_files = clear_paths(pos, rule, king_square, files);
            while rook_files != 0 {
                let rook_file = rook_files.trailing_zeros() as usize;
                rook_files &= rook_files - 1;
                castle_with(
                    pos,
                    sink,
                    masks,
                    rule,
                    king_square,
                    rank * V::FILES + rook_file,
                );
            }
        }
    }
}

/// The rook files among `files` whose castling with the king on
/// `king_square` has its rook in place and its path clear. Most castlings
/// stop here: the cheap tests come first, on every rook file, before any
/// attack test.
#[inline(always)]
fn clear_paths<V: CompiledVariant>(
    pos: &Pos<V>,
    rule: &CastlingRule,
    king_square: usize,
    files: u32,
) -> u32 {
    let rank = king_square / V::FILES;
    let king_file = king_square % V::FILES;
    let occupied = pos.occupied();
    let rooks = pos.pieces[rule.rook as usize] & pos.colors[pos.side()];
    let mut clear = 0;
    let mut rook_files = files & !(1 << king_file);
    while rook_files != 0 {
        let rook_file = rook_files.trailing_zeros() as usize;
        rook_files &= rook_files - 1;
        let rook = V::Bb::bit(rank * V::FILES + rook_file);
        if (rooks & rook).is_empty() {
            continue;
        }
        let (king_to_file, rook_to_file) = if rook_file > king_file {
            rule.short
        } else {
            rule.long
        };
        if king_to_file >= V::FILES || rook_to_file >= V::FILES {
            continue;
        }
        let others = occupied & !V::Bb::bit(king_square) & !rook;
        let path = rank_span::<V>(rank, king_file, king_to_file)
            | rank_span::<V>(rank, rook_file, rook_to_file);
        if (path & others).is_empty() {
            clear |= 1 << rook_file;
        }
    }
    clear
}

/// The castling of the king on `king_square` with the rook on `rook_square`
/// along a clear path ([`clear_paths`]), if the check rules allow it.
#[inline]
fn castle_with<V: CompiledVariant, S: Sink<V::Bb>>(
    pos: &Pos<V>,
    sink: &mut S,
    masks: &Masks<V>,
    rule: &CastlingRule,
    king_square: usize,
    rook_square: usize,
) {
    let enemy = 1 - pos.side();
    let rank = king_square / V::FILES;
    let (king_file, rook_file) = (king_square % V::FILES, rook_square % V::FILES);
    let (king_to_file, rook_to_file) = if rook_file > king_file {
        rule.short
    } else {
        rule.long
    };
    // The royal piece of the masks: its safety decides legality.
    let the_royal = masks.verify_specials
        && masks.skip == V::Bb::bit(king_square)
        && has_kind(V::ROYAL_KINDS, rule.king as usize);
    if rule.not_from_check && the_royal && masks.checkers != 0 {
        return;
    }
    let occupied = pos.occupied();
    let others = occupied & !V::Bb::bit(king_square) & !V::Bb::bit(rook_square);
    // Under explosions a square next to an enemy royal piece is not
    // attacked for the king (see `Pos::royal_attacked`).
    let attacked = |square: usize| {
        V::is_attacked(pos, square, occupied, enemy) && !pos.shielded_by_blast(square, enemy)
    };
    if rule.not_from_check && !the_royal && attacked(king_square) {
        return;
    }
    if rule.not_through_check {
        // Under explosions the passed squares are read with the king
        // lifted from its square (see the interpreter's castling).
        let lifted = if V::EXPLOSION_RADIUS.is_some() {
            occupied & !V::Bb::bit(king_square)
        } else {
            occupied
        };
        let (a, b) = (king_file.min(king_to_file), king_file.max(king_to_file));
        if (a + 1..b).any(|file| {
            let square = rank * V::FILES + file;
            V::is_attacked(pos, square, lifted, enemy) && !pos.shielded_by_blast(square, enemy)
        }) {
            return;
        }
    }
    let king_to = rank * V::FILES + king_to_file;
    let rook_to = rank * V::FILES + rook_to_file;
    let mv = Mv {
        kind: MoveKind::Castle,
        aux: rook_square as u8,
        aux2: rook_to as u8,
        ..Mv::normal(pos.code_at(king_square), king_square, king_to, NO_KIND)
    };
    if the_royal {
        // Nothing is captured: the enemy's pieces stay; only the occupancy changes.
        let after = others | V::Bb::bit(king_to) | V::Bb::bit(rook_to);
        if !V::is_attacked(pos, king_to, after, enemy) {
            sink.push(mv);
        }
        return;
    }
    // With `verify`, the move is tried anyway: the royal king may not land attacked.
    let tried = masks.verify_specials && has_kind(V::ROYAL_KINDS, rule.king as usize);
    if rule.not_into_check && !tried {
        let after = pos.make(mv);
        if V::is_attacked(&after, king_to, after.occupied(), enemy)
            && !after.shielded_by_blast(king_to, enemy)
        {
            return;
        }
    }
    push_special(pos, mv, sink, masks.verify_specials);
}
