//! Pieces and their movement.

use super::{Ident, Text, Token};
use crate::error::Span;

/// `piece NAME "LETTER" options moves MOVEMENT`.
#[derive(Clone, Debug, PartialEq)]
pub struct Piece {
    /// The piece's name.
    pub name: Ident,
    /// Its letter in FEN and move text.
    pub letter: Text,
    /// `royal`, `value N`, `confined to REGION`, in order.
    pub options: Vec<PieceOption>,
    /// How it moves.
    pub moves: MoveExpr,
}

/// An option of a piece.
#[derive(Clone, Debug, PartialEq)]
pub enum PieceOption {
    /// `royal`.
    Royal,
    /// `value N`.
    Value(Token),
    /// `confined to REGION`: its moves and attacks end only in the region.
    Confined(Ident),
}

/// Movements joined by `+`.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveExpr {
    /// The movements.
    pub terms: Vec<MoveTerm>,
    /// The whole expression.
    pub span: Span,
}

/// A movement with its modifiers and condition.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveTerm {
    /// Modifiers before the atom, in order.
    pub modifiers: Vec<MoveModifier>,
    /// The movement.
    pub atom: MoveAtom,
    /// Limits written after the atom, in order.
    pub limits: Vec<AtomLimit>,
    /// `in REGION`, if written.
    pub region: Option<Ident>,
    /// The whole term.
    pub span: Span,
}

/// A limit written after a movement atom.
#[derive(Clone, Debug, PartialEq)]
pub enum AtomLimit {
    /// `along REGION`: every square of the move lies in the region.
    Along(Ident),
    /// `not over PIECES`: a hop's screen is not one of these kinds.
    NotOver(Vec<Ident>, Span),
    /// `not capturing PIECES`: the movement does not capture these kinds.
    NotCapturing(Vec<Ident>, Span),
    /// `not from check`: not while the mover's side is in check.
    NotFromCheck(Span),
}

/// A modifier and where it is written.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveModifier {
    /// Which modifier.
    pub kind: ModifierKind,
    /// Where.
    pub span: Span,
}

/// The modifiers of a movement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModifierKind {
    /// `move-only`.
    MoveOnly,
    /// `capture-only`.
    CaptureOnly,
    /// `first-move`.
    FirstMove,
    /// A direction word.
    Direction(Direction),
}

/// The direction words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// `forward`.
    Forward,
    /// `backward`.
    Backward,
    /// `sideways`.
    Sideways,
    /// `vertical`.
    Vertical,
    /// `left`.
    Left,
    /// `right`.
    Right,
}

/// The movement a term modifies.
#[derive(Clone, Debug, PartialEq)]
pub enum MoveAtom {
    /// `betza "..."`.
    Betza(Text),
    /// `leap (1,2)`, `ride (0,1) up to 2`, `hop (0,1) adjacent`, ...
    Geometric(GeometricAtom),
    /// A piece's movement or a built-in movement, by name.
    Reference(Ident),
    /// `( MOVEMENT )`.
    Group(MoveExpr),
    /// `pass`: the piece stays on its square as its whole move.
    Pass(Span),
}

/// A movement by motion and offset.
#[derive(Clone, Debug, PartialEq)]
pub struct GeometricAtom {
    /// How it moves.
    pub motion: MotionKind,
    /// The offset.
    pub offset: Offset,
    /// `up to N`, if written.
    pub range: Option<RideRange>,
    /// Where `adjacent` is written, if it is.
    pub adjacent: Option<Span>,
}

/// The motion of a geometric atom.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MotionKind {
    /// `leap`.
    Leap,
    /// `lame-leap`.
    LameLeap,
    /// `ride`.
    Ride,
    /// `hop`.
    Hop,
}

impl MotionKind {
    /// The keyword, as diagnostics quote it.
    pub fn keyword(self) -> &'static str {
        match self {
            MotionKind::Leap => "leap",
            MotionKind::LameLeap => "lame-leap",
            MotionKind::Ride => "ride",
            MotionKind::Hop => "hop",
        }
    }
}

/// `(FILES, RANKS)`.
#[derive(Clone, Debug, PartialEq)]
pub struct Offset {
    /// Files to move (signed).
    pub files: Token,
    /// Ranks to move (signed).
    pub ranks: Token,
    /// The offset as written.
    pub text: String,
    /// Where.
    pub span: Span,
}

/// `up to N`.
#[derive(Clone, Debug, PartialEq)]
pub struct RideRange {
    /// The most steps.
    pub limit: Token,
    /// The words as written.
    pub text: String,
    /// Where.
    pub span: Span,
}
