//! The typed syntax tree: what a rules file says, as owned enums and
//! structs with byte spans. [`build`] makes it from the pest parse and is
//! the only code that looks at grammar rules; lowering, the loader and the
//! language server read this tree and match it exhaustively. Keywords are
//! enum variants here, never strings; names and numbers keep the text and
//! span as written, because diagnostics quote them.

mod build;
mod condition;
mod names;
#[cfg(test)]
mod tests;

pub use build::build;
pub use condition::*;

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
    /// `en-passant PIECES`.
    EnPassant(Vec<Ident>),
    /// `check-rule royal|none`.
    CheckRule(CheckRuleKind),
    /// `illegal check repeating placement from N plies ago ...`.
    History(History),
    /// `on royal-capture ...`.
    Succession(SuccessionAction),
    /// `counter NAME counts EVENTS`.
    Counter(Counter),
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

/// `piece NAME "LETTER" options moves MOVEMENT`.
#[derive(Clone, Debug, PartialEq)]
pub struct Piece {
    /// The piece's name.
    pub name: Ident,
    /// Its letter in FEN and move text.
    pub letter: Text,
    /// `royal`, `value N`, in order.
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
    /// `in REGION`, if written.
    pub region: Option<Ident>,
    /// The whole term.
    pub span: Span,
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

/// `promote PIECES to CHOICES in ZONE, options`.
#[derive(Clone, Debug, PartialEq)]
pub struct Promote {
    /// The pieces that promote.
    pub pieces: Vec<Ident>,
    /// What they may become.
    pub choices: Vec<Ident>,
    /// The region where they promote.
    pub zone: Ident,
    /// The options, in order.
    pub options: Vec<PromoteOption>,
}

/// An option of a promotion.
#[derive(Clone, Debug, PartialEq)]
pub enum PromoteOption {
    /// `mandatory`.
    Mandatory,
    /// `optional`.
    Optional,
    /// `mandatory unless CONDITION`.
    MandatoryUnless(Condition),
    /// `delayed [then MODE move]`.
    Delayed(Option<FollowMode>),
}

/// What the move after a delayed promotion may be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FollowMode {
    /// `move-only`.
    MoveOnly,
    /// `capture-only`.
    CaptureOnly,
    /// `any`.
    Any,
}

/// `castling KING with ROOK SIDE SIDE, options`.
#[derive(Clone, Debug, PartialEq)]
pub struct Castling {
    /// The king.
    pub king: Ident,
    /// The rook.
    pub rook: Ident,
    /// The two sides, as written.
    pub sides: [CastlingSideClause; 2],
    /// The options, in order.
    pub options: Vec<CastlingOption>,
}

/// `short|long king to FILE rook to FILE`.
#[derive(Clone, Debug, PartialEq)]
pub struct CastlingSideClause {
    /// Which side.
    pub side: CastlingSide,
    /// The king's file after castling.
    pub king_file: Token,
    /// The rook's file after castling.
    pub rook_file: Token,
    /// Where.
    pub span: Span,
}

/// `short` or `long`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CastlingSide {
    /// `short`.
    Short,
    /// `long`.
    Long,
}

impl CastlingSide {
    /// The keyword, as diagnostics quote it.
    pub fn keyword(self) -> &'static str {
        match self {
            CastlingSide::Short => "short",
            CastlingSide::Long => "long",
        }
    }
}

/// A condition of castling.
#[derive(Clone, Debug, PartialEq)]
pub enum CastlingOption {
    /// `not from check`.
    NotFromCheck,
    /// `not through check`.
    NotThroughCheck,
    /// `not into check`.
    NotIntoCheck,
    /// `moved rook on files ...`.
    RookMovedOnFiles(Vec<Token>),
    /// `king lineage A > B ...`.
    KingLineage(Vec<Ident>),
}

/// `check-rule royal|none`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CheckRuleKind {
    /// `royal`.
    Royal,
    /// `none`.
    None,
}

/// `illegal check repeating placement from N plies ago ...`.
#[derive(Clone, Debug, PartialEq)]
pub struct History {
    /// How many plies back.
    pub plies_ago: Token,
    /// `unless only such moves`.
    pub unless_only_such_moves: bool,
    /// `say "..."`, if written.
    pub message: Option<Text>,
}

/// What happens when a royal piece is captured.
#[derive(Clone, Debug, PartialEq)]
pub enum SuccessionAction {
    /// `game ends`.
    GameEnds,
    /// `crown CANDIDATES as PIECE`.
    Crown {
        /// The pieces that may be crowned.
        candidates: Vec<Ident>,
        /// What they become.
        becomes: Ident,
    },
}

/// `counter NAME counts EVENTS`.
#[derive(Clone, Debug, PartialEq)]
pub struct Counter {
    /// The counter's name.
    pub name: Ident,
    /// What it counts.
    pub events: Vec<Event>,
}

/// `end|claim when CONDITION => OUTCOME, options`.
#[derive(Clone, Debug, PartialEq)]
pub struct Termination {
    /// `end` or `claim`.
    pub trigger: TriggerKind,
    /// When.
    pub condition: Condition,
    /// The result.
    pub outcome: Outcome,
    /// The options, in order.
    pub options: Vec<TerminationOption>,
}

/// `end` or `claim`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TriggerKind {
    /// `end`: the game ends by itself.
    End,
    /// `claim`: a player may claim.
    Claim,
}

/// An option of a game-ending rule.
#[derive(Clone, Debug, PartialEq)]
pub enum TerminationOption {
    /// `reason "..."`.
    Reason(Text),
    /// `tiebreak`.
    Tiebreak,
}

/// A game's result.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// `if CONDITION then OUTCOME else OUTCOME`.
    If(Box<Condition>, Box<Outcome>, Box<Outcome>),
    /// `win for PLAYER`.
    Win(Player),
    /// `loss for PLAYER`.
    Loss(Player),
    /// `draw`.
    Draw,
    /// `null-game`.
    NullGame,
    /// `game-over`.
    GameOver,
}

/// `award "NAME" N wins to PLAYER when CONDITION, options`.
#[derive(Clone, Debug, PartialEq)]
pub struct Award {
    /// The award's name.
    pub name: Text,
    /// How many wins.
    pub wins: Token,
    /// Who gets it.
    pub to: Player,
    /// When.
    pub when: Condition,
    /// The options, in order.
    pub options: Vec<AwardOption>,
}

/// An option of an award.
#[derive(Clone, Debug, PartialEq)]
pub enum AwardOption {
    /// `once`.
    Once,
    /// `ends game`.
    EndsGame,
    /// `not with "A", "B"`.
    NotWith(Vec<Text>),
}

/// `agreement ...`.
#[derive(Clone, Debug, PartialEq)]
pub enum Agreement {
    /// `allowed when CONDITION`.
    When(Condition),
    /// `allowed`.
    Always,
    /// `never`.
    Never,
}

/// `resign => ...`.
#[derive(Clone, Debug, PartialEq)]
pub enum Resign {
    /// `win for opponent`.
    OpponentWins,
    /// `award N wins plus M per COUNTER to opponent`.
    Award {
        /// The wins always given.
        base: Token,
        /// The wins per count.
        per_count: Token,
        /// The counter.
        counter: Ident,
    },
}

/// `tiebreak N wins: entries`.
#[derive(Clone, Debug, PartialEq)]
pub struct Tiebreak {
    /// The wins the tiebreak is worth.
    pub wins: Token,
    /// `NAME [in REGION] POINTS`, in order.
    pub entries: Vec<TiebreakEntry>,
}

/// `NAME [in REGION] POINTS`.
#[derive(Clone, Debug, PartialEq)]
pub struct TiebreakEntry {
    /// A piece or a counter.
    pub name: Ident,
    /// The region a piece counts in, if written.
    pub region: Option<Ident>,
    /// The points.
    pub points: Token,
}

/// `score ...`.
#[derive(Clone, Debug, PartialEq)]
pub enum Score {
    /// `by wins`.
    ByWins,
    /// `win 1, draw 0.5, ...`.
    Points(Vec<ScorePair>),
}

/// `RESULT POINTS`.
#[derive(Clone, Debug, PartialEq)]
pub struct ScorePair {
    /// Which result.
    pub kind: ScoreKind,
    /// Its points.
    pub points: Token,
    /// Where.
    pub span: Span,
}

/// The results a score gives points to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreKind {
    /// `win`.
    Win,
    /// `draw`.
    Draw,
    /// `loss`.
    Loss,
    /// `null`.
    Null,
}

impl ScoreKind {
    /// The keyword, as diagnostics quote it.
    pub fn keyword(self) -> &'static str {
        match self {
            ScoreKind::Win => "win",
            ScoreKind::Draw => "draw",
            ScoreKind::Loss => "loss",
            ScoreKind::Null => "null",
        }
    }
}

/// `match ...`.
#[derive(Clone, Debug, PartialEq)]
pub enum Match {
    /// `replay null-game [same colours]`.
    Replay {
        /// `same colours`.
        same_colours: bool,
    },
    /// `after N null-games => win for PLAYER`.
    Forfeit {
        /// The null games.
        count: Token,
        /// Who wins.
        winner: Player,
    },
    /// `casual null-game => draw`.
    Casual,
}
