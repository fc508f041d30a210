//! Conditions, events, players and the other parts that rules share.

use super::{Ident, Token};
use crate::error::Span;
/// `<`, `<=`, `==`, `>=`, `>`: the model's own enum, as written and as lowered.
pub use crate::model::Comparison;

/// A condition: `or` binds loosest, then `and`, then `not`; parentheses
/// leave no node of their own.
#[derive(Clone, Debug, PartialEq)]
pub enum Condition {
    /// `A or B or ...` (two or more parts, left to right).
    Or(Vec<Condition>),
    /// `A and B and ...` (two or more parts, left to right).
    And(Vec<Condition>),
    /// `not A`.
    Not(Box<Condition>),
    /// `no legal moves`.
    NoLegalMoves,
    /// `white to move`, `black to move`.
    ToMove(Colour),
    /// `can move PIECES into REGION`: the side to move has a legal move of
    /// one of these pieces that ends in the region.
    CanMoveInto {
        /// The pieces.
        pieces: Vec<Ident>,
        /// The region.
        region: Ident,
    },
    /// `in check`.
    InCheck,
    /// `in check by only PIECES`: every piece giving check is of these.
    InCheckByOnly(Vec<Ident>),
    /// `royal captured`.
    RoyalCaptured,
    /// `counting`: a count of the counting rules runs.
    Counting,
    /// `counting over limit`: the running count has passed its limit.
    CountingOverLimit,
    /// `repetition N [in a row]`.
    Repetition {
        /// How many times.
        count: Token,
        /// `in a row`.
        in_a_row: bool,
        /// The whole condition.
        span: Span,
    },
    /// `plies N`.
    Plies(Token),
    /// `only royals left`.
    OnlyRoyalsLeft,
    /// `insufficient material A B | C ...`: the sets of pieces.
    InsufficientMaterial(Vec<Vec<Ident>>),
    /// `AGGREGATE pieces [except|of PIECES] [in REGION] COMPARISON N`.
    Material {
        /// Whose pieces.
        of: Aggregate,
        /// Which pieces, if not all.
        filter: Option<PieceFilter>,
        /// Only the pieces standing in this region (for their own side).
        region: Option<Ident>,
        /// The comparison.
        comparison: Comparison,
        /// The number compared with.
        value: Token,
    },
    /// `AGGREGATE count COUNTER COMPARISON N`.
    Counter {
        /// Whose count.
        of: Aggregate,
        /// The counter.
        counter: Ident,
        /// The comparison.
        comparison: Comparison,
        /// The number compared with.
        value: Token,
    },
    /// `PLAYER clock below N seconds`.
    ClockBelow {
        /// Whose clock.
        of: Player,
        /// The seconds.
        seconds: Token,
    },
    /// `last move EVENT`.
    LastMove(Event),
    /// `royals face each other`.
    RoyalsFace,
    /// `PLAYER points lead COMPARISON N`.
    PointsLead {
        /// Whose lead.
        of: Player,
        /// The comparison.
        comparison: Comparison,
        /// The number compared with.
        value: Token,
    },
}

/// Whose value a condition reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Aggregate {
    /// `max`: the larger of the two players'.
    Max,
    /// `min`: the smaller.
    Min,
    /// One player's.
    Player(Player),
}

/// `except PIECES` or `of PIECES`.
#[derive(Clone, Debug, PartialEq)]
pub struct PieceFilter {
    /// `except` or `of`.
    pub kind: FilterKind,
    /// The pieces.
    pub pieces: Vec<Ident>,
}

/// How a piece filter selects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FilterKind {
    /// `except`: all but these.
    Except,
    /// `of`: only these.
    Of,
}

/// The player words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    /// `side-to-move`.
    SideToMove,
    /// `opponent`.
    Opponent,
    /// `mover`: the player who just moved.
    Mover,
    /// `white`.
    White,
    /// `black`.
    Black,
}

/// A colour named in a condition (`white to move`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Colour {
    /// `white`.
    White,
    /// `black`.
    Black,
}

/// Event atoms joined by `and`: all of them in one move.
#[derive(Clone, Debug, PartialEq)]
pub struct Event {
    /// The atoms, in order.
    pub atoms: Vec<EventAtom>,
}

/// What a move may do.
#[derive(Clone, Debug, PartialEq)]
pub enum EventAtom {
    /// `capture [of PIECES]` (no pieces: any).
    Capture(Vec<Ident>),
    /// `en-passant`.
    EnPassant,
    /// `pass`: a piece stayed on its square as the whole move.
    Pass,
    /// `move of PIECES`.
    MoveOf(Vec<Ident>),
    /// `drop of PIECES`: the move drops one of these kinds from the hand.
    DropOf(Vec<Ident>),
    /// `promotion [of PIECES] [to PIECES]`.
    Promotion {
        /// `of PIECES`, if written.
        of: Option<Vec<Ident>>,
        /// `to PIECES`, if written.
        to: Option<Vec<Ident>>,
    },
    /// `castle [short|long]`.
    Castle(Option<super::CastlingSide>),
    /// `royal-capture`.
    RoyalCapture,
    /// `crowning [of PIECES]` (no pieces: any).
    Crowning(Vec<Ident>),
    /// `laws-checkmate`.
    LawsCheckmate,
    /// `check`: the move gives check.
    Check,
    /// `check by PIECES`: the move gives check with one of these pieces.
    CheckBy(Vec<Ident>),
    /// `not EVENT`: the move does not produce the event.
    Not(Box<EventAtom>),
    /// `moved piece was A > B ...`.
    MovedPieceWas(Vec<Ident>),
}
