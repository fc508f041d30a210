//! Promotion, castling and the rules of play and results.

use super::{Condition, Event, Ident, Player, Text, Token};
use crate::error::Span;

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
    /// `only into captured kinds`, where it is written.
    CapturedKindsOnly(Span),
    /// `starting or ending there`: a move that starts in the zone
    /// promotes too.
    LeavingToo(Span),
    /// `at most N on the board`: a choice only while the mover has fewer
    /// than N of its kind on the board.
    AtMost(Token),
    /// `anywhere for the last one`: the side's last piece of the rule's
    /// kinds promotes on any square.
    LastAnywhere(Span),
    /// `attacking nothing`: the promotion gives no check and the promoted
    /// piece attacks no piece of the opponent.
    AttackingNothing(Span),
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

/// `check-rule royal|none [, no checks] [, royals may not face each other]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CheckRule {
    /// `royal` or `none`.
    pub kind: CheckRuleKind,
    /// `no checks`: no move may give check.
    pub no_checks: bool,
    /// `royals may not face each other`: where it was written, if it was
    /// (a royal piece may not stand on an open line with an opponent's).
    pub no_facing_royals: Option<Span>,
    /// `royals facing each other must part`: where it was written, if it
    /// was (janggi's bikjang).
    pub facing_royals_must_part: Option<Span>,
}

/// `capture explodes radius N [, except PIECES]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Explosion {
    /// How far (in king steps) from the capture square the blast reaches.
    pub radius: Token,
    /// The kinds a blast leaves standing (not the capturing piece).
    pub except: Vec<Ident>,
}

/// `capture-rule compulsory|free`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CaptureRuleKind {
    /// `compulsory`: a side that can capture must.
    Compulsory,
    /// `free`: captures are moves like any other (the default).
    Free,
}

/// `drop-rule compulsory|free`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DropRuleKind {
    /// `compulsory`: while the side to move has a legal drop, it must drop.
    Compulsory,
    /// `free`: drops are moves like any other (the default).
    Free,
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

/// A counting rule.
#[derive(Clone, Debug, PartialEq)]
pub enum Counting {
    /// `counting limit N moves [from pieces] [when CONDITION]`, or
    /// `counting limit none when CONDITION` (`moves` is `None`).
    Limit {
        /// The limit in moves; `None` for `none`.
        moves: Option<Token>,
        /// `from pieces`: the count starts at the number of pieces.
        from_pieces: bool,
        /// The condition, read with the counting side to move.
        when: Option<Condition>,
    },
    /// `counting starts for PLAYER when CONDITION`.
    Start {
        /// The side that counts.
        player: Player,
        /// When.
        when: Condition,
    },
}

/// `counter NAME counts EVENTS [, reset on EVENTS] [, in fen counting down from N]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Counter {
    /// The counter's name.
    pub name: Ident,
    /// What it counts.
    pub events: Vec<Event>,
    /// `reset on EVENTS`: what sets the mover's count back to 0.
    pub resets: Vec<Event>,
    /// `in fen counting down from N`: the counter is a FEN field holding
    /// each player's N minus his count.
    pub fen_countdown: Option<Token>,
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
