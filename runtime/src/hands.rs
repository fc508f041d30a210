//! Pieces in hand and drops (crazyhouse; shogi's hand is the same data):
//! the model's rules and the facts both back ends read from them, written
//! once here.
//!
//! A side's hand is a count per kind. `captures go to hand` sends every
//! captured piece to the capturer's hand, as a piece of the capturer's
//! colour; with `demoted`, a piece that has been promoted goes there as
//! the kind it was before its first promotion (crazyhouse's `Q~` returns as
//! a pawn). `drops of PIECES [onto REGION]` lets the side to move put one
//! of those kinds from its hand on an empty square (of the region, read for
//! that side) as its whole move. Restrictions a later rule may add to a
//! drop (shogi's pawn not on a file with one of yours, no pawn-drop mate)
//! are [`DropRule`] options: the rule is a list, so adding one changes no
//! existing variant.

use crate::model::{
    AtomCondition, Color, Motion, MoveMode, PieceId, RegionId, Square, SquareSet, Variant,
};
use serde::{Deserialize, Serialize};

/// The hand rules of a variant; the default is none (no hands, no drops).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Hands {
    /// What happens to captured pieces: `None`, they leave the game.
    pub captures_to_hand: Option<CapturesToHand>,
    /// The drop rules, in file order; a kind is named by one rule at most.
    pub drops: Vec<DropRule>,
}

/// `captures go to hand [, demoted]`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CapturesToHand {
    /// Label given in the rules file, used by `drop`/`replace`.
    pub label: Option<String>,
    /// A promoted piece goes to the hand as the kind it was first.
    pub demoted: bool,
}

/// `drops of PIECES [onto REGION]`: these kinds may be dropped from the
/// hand onto an empty square (of the region, for the dropping side).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DropRule {
    /// Label given in the rules file, used by `drop`/`replace`.
    pub label: Option<String>,
    /// The kinds this rule lets be dropped.
    pub pieces: Vec<PieceId>,
    /// Where they may be dropped; every square of the board without it.
    pub onto: Option<RegionId>,
    /// `no two on a file`: not onto a file where the dropping side has a
    /// piece of the dropped kind (Fairy-Stockfish's `dropNoDoubled`).
    #[serde(default)]
    pub no_two_on_a_file: bool,
    /// `by gating`: not a move of its own. When an unmoved piece of the
    /// side leaves a square of the region, the side may put one of these
    /// kinds from its hand there as part of that move (castling: on the
    /// king's square or the rook's); Fairy-Stockfish's seirawan gating.
    /// The move must be legal without the entering piece: it blocks no
    /// check and unpins nothing, as in Fairy-Stockfish.
    #[serde(default)]
    pub by_gating: bool,
}

impl Hands {
    /// Per kind (of `kinds`), whether its drop rule says `no two on a file`.
    pub fn no_two_on_a_file(&self, kinds: usize) -> Vec<bool> {
        (0..kinds)
            .map(|kind| {
                self.drops
                    .iter()
                    .any(|rule| rule.no_two_on_a_file && rule.pieces.contains(&kind))
            })
            .collect()
    }

    /// Whether the variant has hands at all: a rule fills them or empties
    /// them. Without, a FEN has no holdings and positions carry none.
    pub fn in_use(&self) -> bool {
        self.captures_to_hand.is_some() || !self.drops.is_empty()
    }

    /// Whether captured pieces go to the capturer's hand demoted.
    pub fn demotes(&self) -> bool {
        self.captures_to_hand.as_ref().is_some_and(|c| c.demoted)
    }

    /// Whether a rule enters pieces `by gating`.
    pub fn gating(&self) -> bool {
        self.drops.iter().any(|rule| rule.by_gating)
    }
}

/// The squares each kind may be dropped on as a move of its own, per side:
/// `[kind][color]`, empty for a kind no rule drops. Holes are never drop
/// squares, nor, under `no piece may stand where it could not move`, the
/// squares from which the kind could never move ([`immobile_squares`]).
pub fn drop_squares(variant: &Variant) -> Vec<[SquareSet; 2]> {
    rule_squares(variant, false)
}

/// The squares each kind may enter `by gating`, per side: `[kind][color]`,
/// empty for a kind no gating rule names (holes and immobile squares left
/// out as for drops).
pub fn gate_squares(variant: &Variant) -> Vec<[SquareSet; 2]> {
    rule_squares(variant, true)
}

/// The squares of the drop rules that gate (`gating`) or not.
fn rule_squares(variant: &Variant, gating: bool) -> Vec<[SquareSet; 2]> {
    let board = variant.board.squares();
    let immobile = immobile_squares(variant);
    let mut squares = vec![[SquareSet::EMPTY; 2]; variant.pieces.len()];
    for rule in variant
        .hands
        .drops
        .iter()
        .filter(|rule| rule.by_gating == gating)
    {
        for color in Color::ALL {
            let onto = match rule.onto.and_then(|id| variant.regions.get(id)) {
                Some(region) => region.for_side(color).intersection(&board),
                None => board,
            };
            for kind in &rule.pieces {
                if let Some(slot) = squares.get_mut(*kind) {
                    slot[color.index()] = match immobile.get(*kind) {
                        Some(dead) => onto.difference(&dead[color.index()]),
                        None => onto,
                    };
                }
            }
        }
    }
    squares
}

/// The kind a captured piece of `kind`, which has been `history` (oldest
/// first), enters the hand as: the oldest kind it remembers when the
/// variant demotes, else its own kind.
pub fn kind_in_hand(
    hands: &Hands,
    kind: PieceId,
    mut history: impl Iterator<Item = PieceId>,
) -> PieceId {
    if hands.demotes() {
        history.next().unwrap_or(kind)
    } else {
        kind
    }
}

/// The kind that promotes into `kind` when exactly one kind does: what a
/// FEN's `~` mark (Fairy-Stockfish's promoted piece, `Q~`) says the piece
/// was. `None` when no kind or several kinds promote into it.
pub fn promoted_from(variant: &Variant, kind: PieceId) -> Option<PieceId> {
    let mut sources = variant
        .promotions
        .iter()
        .filter(|rule| rule.choices.contains(&kind))
        .flat_map(|rule| rule.pieces.iter().copied());
    let first = sources.next()?;
    sources.all(|other| other == first).then_some(first)
}

/// Whether a piece of `kind` and `color` dropped on `square` starts
/// unmoved: exactly when a FEN of the position would read it so (the
/// start position has a piece of that kind and colour there, and the kind
/// does not castle, since castling pieces are unmoved only by the rights,
/// which a drop never gives). `start` is the start position's placement.
pub fn dropped_unmoved(
    variant: &Variant,
    start: &[(Square, PieceId, Color)],
    kind: PieceId,
    color: Color,
    square: Square,
) -> bool {
    let castles = variant
        .castling
        .iter()
        .any(|rule| rule.king == kind || rule.rook == kind);
    !castles
        && start
            .iter()
            .any(|&(s, k, c)| s == square && k == kind && c == color)
}

/// Per kind and side (`[kind][color]`), the squares where a dropped piece
/// starts unmoved ([`dropped_unmoved`]).
pub fn unmoved_drop_squares(variant: &Variant) -> Vec<[SquareSet; 2]> {
    let start = crate::fen::start_pieces(variant);
    let mut squares = vec![[SquareSet::EMPTY; 2]; variant.pieces.len()];
    for &(square, kind, color) in &start {
        if dropped_unmoved(variant, &start, kind, color, square) {
            if let Some(slot) = squares.get_mut(kind) {
                slot[color.index()].insert(square);
            }
        }
    }
    squares
}

/// The transposition key of `count` pieces of `kind` in `color`'s hand
/// (0 for none), XORed into [`crate::search::tt::state_hash`] by both back
/// ends.
pub fn hand_key(color: Color, kind: PieceId, count: u32) -> u64 {
    if count == 0 {
        return 0;
    }
    crate::search::tt::mix(
        7 << 56 | (color.index() as u64) << 40 | (kind as u64) << 16 | u64::from(count),
    )
}

/// Per kind and side (`[kind][color]`), the squares from which a piece of
/// that kind could never move: on an otherwise empty board it has no move
/// there (Fairy-Stockfish's `immobilityIllegal`: a shogi pawn or lance on
/// its last rank, a knight on its last two). Parts that need a capture or
/// a screen to hop, and first-move parts, do not count; a part limited to
/// a region counts where the square is in it. Empty for every kind when
/// the variant has no `no piece may stand where it could not move`.
pub fn immobile_squares(variant: &Variant) -> Vec<[SquareSet; 2]> {
    let mut squares = vec![[SquareSet::EMPTY; 2]; variant.pieces.len()];
    if !variant.legality.immobility_illegal {
        return squares;
    }
    let board = variant.board.squares();
    for (kind, piece) in variant.pieces.iter().enumerate() {
        for color in Color::ALL {
            let sign: i32 = if color == Color::White { 1 } else { -1 };
            let confined = piece
                .confined
                .and_then(|id| variant.regions.get(id))
                .map(|region| region.for_side(color));
            for square in board.iter() {
                let mobile = piece.moves.iter().any(|atom| {
                    let usable = match atom.condition {
                        AtomCondition::Always => true,
                        AtomCondition::FirstMove => false,
                        AtomCondition::InRegion(id) => variant
                            .regions
                            .get(id)
                            .is_some_and(|region| region.for_side(color).contains(square)),
                    };
                    let steps = match atom.motion {
                        Motion::Leap | Motion::LameLeap => 1,
                        Motion::Ride { max } => max.map_or(u32::MAX, u32::from),
                        Motion::Hop { .. } => 0,
                    };
                    usable
                        && atom.mode != MoveMode::CaptureOnly
                        && atom.directions.iter().any(|&(dx, dy)| {
                            let (dx, dy) = (i32::from(dx), i32::from(dy) * sign);
                            let (mut file, mut rank) =
                                (i32::from(square.file), i32::from(square.rank));
                            for _ in 0..steps.min(16) {
                                file += dx;
                                rank += dy;
                                if (dx, dy) == (0, 0) || !variant.board.contains(file, rank) {
                                    return false;
                                }
                                let to = Square::new(file as u8, rank as u8);
                                if confined.is_none_or(|region| region.contains(to)) {
                                    return true;
                                }
                            }
                            false
                        })
                });
                if !mobile {
                    if let Some(slot) = squares.get_mut(kind) {
                        slot[color.index()].insert(square);
                    }
                }
            }
        }
    }
    squares
}
