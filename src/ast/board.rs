//! The board and regions.

use super::{Ident, Token};
use crate::error::Span;

/// `board FILES x RANKS holes SQUARES`.
#[derive(Clone, Debug, PartialEq)]
pub struct Board {
    /// The number of files.
    pub files: Token,
    /// The number of ranks.
    pub ranks: Token,
    /// Squares that are not part of the board.
    pub holes: Vec<Token>,
}

/// `region NAME = EXPR [relative]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Region {
    /// The region's name.
    pub name: Ident,
    /// Its squares.
    pub expr: RegionExpr,
    /// Whether it mirrors for Black.
    pub relative: bool,
}

/// Terms added and taken away, left to right.
#[derive(Clone, Debug, PartialEq)]
pub struct RegionExpr {
    /// The terms; the first is always added.
    pub terms: Vec<(RegionOp, RegionTerm)>,
    /// The whole expression.
    pub span: Span,
}

/// `+` or `-` in a region expression.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RegionOp {
    /// `+`: the union.
    Add,
    /// `-`: the difference.
    Remove,
}

/// One term of a region expression.
#[derive(Clone, Debug, PartialEq)]
pub enum RegionTerm {
    /// `ranks LOW..HIGH` or `rank N`.
    Ranks {
        /// The first rank.
        low: RankNumber,
        /// The last rank, if a range.
        high: Option<RankNumber>,
    },
    /// `files LOW..HIGH` or `file F`.
    Files {
        /// The first file.
        low: Token,
        /// The last file, if a range.
        high: Option<Token>,
        /// The whole term.
        span: Span,
    },
    /// `squares ...`.
    Squares(Vec<Token>),
    /// `board`.
    WholeBoard,
    /// `( EXPR )`.
    Group(RegionExpr),
    /// A region defined before.
    Name(Ident),
}

/// A rank in a region: a number, or counted back from the last rank.
#[derive(Clone, Debug, PartialEq)]
pub struct RankNumber {
    /// Which rank.
    pub rank: RankFrom,
    /// The text as written (`3`, `last-1`).
    pub text: String,
    /// Where it is written.
    pub span: Span,
}

/// How a rank number counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RankFrom {
    /// `N`: the N-th rank from the first (saturated if too large).
    First(i64),
    /// `last` (0) or `last-N`: N ranks before the last.
    Last(i64),
}
