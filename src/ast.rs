//! The typed syntax tree: what a rules file says, as owned enums and
//! structs with byte spans. [`build`] makes it from the pest parse and is
//! the only code that looks at grammar rules; lowering, the loader and the
//! language server read this tree and match it exhaustively. Keywords are
//! enum variants here, never strings; names and numbers keep the text and
//! span as written, because diagnostics quote them.

mod board;
mod build;
mod condition;
mod movement;
mod names;
mod rules;
#[cfg(test)]
mod tests;

pub use board::*;
pub use build::build;
pub use condition::*;
pub use movement::*;
pub use rules::*;

use crate::error::Span;

/// A name as written: a piece, region, counter, label or variant.
#[derive(Clone, Debug, PartialEq)]
pub struct Ident {
    /// The name.
    pub name: String,
    /// Where it is written.
    pub span: Span,
}

/// A word or number kept as written (`8`, `1.5`, `-2`, `e4`, `c`):
/// diagnostics quote the text, and each use parses it into what it needs.
#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    /// The text.
    pub text: String,
    /// Where it is written.
    pub span: Span,
}

/// A quoted string.
#[derive(Clone, Debug, PartialEq)]
pub struct Text {
    /// The text between the quotes.
    pub value: String,
    /// Where it is written, quotes included.
    pub span: Span,
}

/// A whole rules file.
#[derive(Clone, Debug, PartialEq)]
pub struct File {
    /// `variant ID "Name" extends ID`.
    pub header: Header,
    /// The statements, in file order.
    pub statements: Vec<Statement>,
}

/// The header of a file.
#[derive(Clone, Debug, PartialEq)]
pub struct Header {
    /// The variant's identifier.
    pub id: Ident,
    /// Its display name, if given.
    pub name: Option<Text>,
    /// The variant it extends, if any.
    pub extends: Option<Ident>,
    /// The whole header.
    pub span: Span,
}

/// One statement of a file.
#[derive(Clone, Debug, PartialEq)]
pub enum Statement {
    /// `drop [piece|region|counter] NAME`.
    Drop(DropStatement),
    /// A definition or rule, maybe labelled or replacing an inherited one.
    Item(Box<Item>),
}

/// `drop [piece|region|counter] NAME`.
#[derive(Clone, Debug, PartialEq)]
pub struct DropStatement {
    /// The kind written before the name, if any.
    pub kind: Option<DefinitionKind>,
    /// What is dropped.
    pub name: Ident,
}

/// The kinds of named definition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DefinitionKind {
    /// `piece`.
    Piece,
    /// `region`.
    Region,
    /// `counter`.
    Counter,
}

/// A statement other than `drop`.
#[derive(Clone, Debug, PartialEq)]
pub struct Item {
    /// Where `replace` is written, if it is.
    pub replace: Option<Span>,
    /// The label (`irc: ...`), if any.
    pub label: Option<Ident>,
    /// What the statement says.
    pub body: Body,
    /// The whole statement, label included.
    pub span: Span,
}

/// A statement's body and where it is written.
#[derive(Clone, Debug, PartialEq)]
pub struct Body {
    /// What it says.
    pub kind: BodyKind,
    /// Where (without the label).
    pub span: Span,
}

/// The statements of the language.
#[derive(Clone, Debug, PartialEq)]
pub enum BodyKind {
    /// `board 8 x 8 holes ...`.
    Board(Board),
    /// `setup "FEN"`.
    Setup(Text),
    /// `region NAME = EXPR [relative]`.
    Region(Region),
    /// `piece NAME "L" [royal] [value N] moves ...`.
    Piece(Piece),
    /// `promote PIECES to PIECES in REGION, options`.
    Promote(Promote),
    /// `castling KING with ROOK short ... long ..., options`.
    Castling(Castling),
    /// `en-passant PIECES [onto REGION]`.
    EnPassant(EnPassant),
    /// `captures go to hand [, demoted]`.
    Hand(Hand),
    /// `drops of PIECES [onto REGION]`.
    Drops(Drops),
    /// `check-rule royal|none`.
    CheckRule(CheckRule),
    /// `capture-rule compulsory|free`.
    CaptureRule(CaptureRuleKind),
    /// `drop-rule compulsory|free`.
    DropRule(DropRuleKind),
    /// `no piece may stand where it could not move`.
    Immobility,
    /// `capture explodes radius N [, except PIECES]`.
    Explosion(Explosion),
    /// `points PIECE N, ...`: each kind's points for `PLAYER points lead`.
    Points(Vec<(Ident, Token)>),
    /// `illegal check repeating placement from N plies ago ...`.
    History(History),
    /// `on royal-capture ...`.
    Succession(SuccessionAction),
    /// `counter NAME counts EVENTS`.
    Counter(Counter),
    /// `counting limit ...` / `counting starts for PLAYER when CONDITION`.
    Counting(Counting),
    /// `first-move of PIECES lost when opponent PIECES moves onto its rank
    /// or file`: the pieces that lose their first move, then the movers.
    FirstMoveLoss(Vec<Ident>, Vec<Ident>),
    /// `unmoved pieces in fen`.
    UnmovedInFen,
    /// `reset plies on EVENTS`.
    Reset(Vec<Event>),
    /// `end|claim when CONDITION => OUTCOME, options`.
    Termination(Termination),
    /// `award "NAME" N wins to PLAYER when CONDITION, options`.
    Award(Award),
    /// `agreement ...`.
    Agreement(Agreement),
    /// `resign => ...`.
    Resign(Resign),
    /// `tiebreak N wins: entries`.
    Tiebreak(Tiebreak),
    /// `score ...`.
    Score(Score),
    /// `match ...`.
    Match(Match),
}

/// `captures go to hand [, demoted]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Hand {
    /// `demoted`: a promoted piece goes to the hand as what it was first.
    pub demoted: bool,
}

/// `drops of PIECES [onto REGION]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Drops {
    /// The kinds that may be dropped.
    pub pieces: Vec<Ident>,
    /// Where (for the dropping side); every square without it.
    pub onto: Option<Ident>,
    /// `no two on a file`: not onto a file where the side has a piece of
    /// the kind.
    pub no_two_on_a_file: bool,
    /// `by gating`: entered onto the square an unmoved piece leaves, as
    /// part of its move, not dropped as a move of its own.
    pub by_gating: bool,
}

/// `en-passant PIECES [onto REGION]`.
#[derive(Clone, Debug, PartialEq)]
pub struct EnPassant {
    /// The pieces that create en passant squares and capture onto them.
    pub pieces: Vec<Ident>,
    /// The squares (for the capturing side) onto which an en passant
    /// capture may be made; every square without it.
    pub onto: Option<Ident>,
}
