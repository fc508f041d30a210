//! The stable codes of diagnostics. A code names a kind of problem, not a
//! message: the wording may improve, the code stays, so that tests, editors
//! and `varc explain` can rely on it. Codes are never reused; a retired
//! problem keeps its number unused.

/// How serious a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Severity {
    /// The file is refused.
    Error,
    /// The file is accepted, but something in it is probably a mistake.
    Warning,
}

impl Severity {
    /// `error` or `warning`, as rendered and in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

/// Declares [`Code`] with each variant's stable text, so that the list of
/// codes, their texts and [`Code::ALL`] cannot drift apart.
macro_rules! codes {
    ($($(#[$doc:meta])* $name:ident = $text:literal,)*) => {
        /// The kind of a diagnostic, with a stable code (`E0101`): `E` codes
        /// are errors, `W` codes warnings.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Code {
            $($(#[$doc])* $name,)*
        }

        impl Code {
            /// Every code, in numeric order.
            pub const ALL: &'static [Code] = &[$(Code::$name,)*];

            /// The stable text of the code (`E0101`).
            pub fn as_str(self) -> &'static str {
                match self {
                    $(Code::$name => $text,)*
                }
            }
        }
    };
}

codes! {
    /// A file cannot be read (missing, a directory, no permission).
    UnreadableFile = "E0001",
    /// A file is larger than a rules file may be.
    FileTooLarge = "E0002",
    /// A file is not UTF-8 text.
    NotUtf8 = "E0003",
    /// A file is empty or holds only comments.
    NoRules = "E0004",
    /// Text the grammar does not accept.
    Syntax = "E0010",
    /// A statement that stops before it is complete.
    IncompleteStatement = "E0011",
    /// A string with no closing quote on its line.
    UnterminatedString = "E0012",
    /// A control or bidirectional character inside a string.
    UnsafeCharacter = "E0013",
    /// Expressions nested deeper than the compiler accepts.
    NestedTooDeeply = "E0014",
    /// `extends` chains that loop back.
    ExtendsCycle = "E0020",
    /// An `extends` chain longer than the limit.
    ExtendsChainTooLong = "E0021",
    /// A piece name that is not defined.
    UnknownPiece = "E0101",
    /// A region name that is not defined.
    UnknownRegion = "E0102",
    /// A counter name that is not defined.
    UnknownCounter = "E0103",
    /// A name in a movement that is no piece.
    UnknownMovement = "E0104",
    /// A name, label or one-per-variant statement given twice.
    DefinedTwice = "E0105",
    /// `drop` of a name that nothing defines.
    NothingToDrop = "E0106",
    /// `replace` of something not inherited.
    NothingToReplace = "E0107",
    /// `replace` before a statement that has no name or label.
    ReplaceWithoutName = "E0108",
    /// No `board` statement.
    MissingBoard = "E0201",
    /// A board side out of range.
    BoardSize = "E0202",
    /// A square, file or rank outside the board.
    OffBoard = "E0203",
    /// A range written high to low.
    BackwardsRange = "E0204",
    /// A region with no square.
    EmptyRegion = "E0205",
    /// No `setup` statement.
    MissingSetup = "E0206",
    /// A start position that does not fit the variant.
    BadStartPosition = "E0207",
    /// A number outside what its use allows.
    NumberOutOfRange = "E0208",
    /// More piece kinds than a variant may have.
    TooManyPieceKinds = "E0301",
    /// A piece letter that is not a letter with optional marks.
    BadPieceLetter = "E0302",
    /// Two pieces with the same letter.
    DuplicateLetter = "E0303",
    /// A piece whose movement leaves no move.
    NoMove = "E0304",
    /// Movement modifiers that exclude each other.
    ConflictingModifiers = "E0305",
    /// A Betza string that does not parse.
    BadBetza = "E0306",
    /// A movement that refers to the piece being defined.
    SelfReferentialMovement = "E0307",
    /// An offset that does not move or is longer than any board.
    BadOffset = "E0308",
    /// A modifier that does not apply to the motion (`up to` on a leap).
    ModifierNotForMotion = "E0309",
    // E0401 (a promotion into a royal piece) is retired: promotion into
    // royal kinds is allowed (coregal), so the code stays unused.
    /// Castling that puts king and rook on one square.
    CastlingSameSquare = "E0402",
    /// Castling that gives one side twice.
    CastlingSideTwice = "E0403",
    /// Castling without both sides.
    CastlingSideMissing = "E0404",
    /// Succession that crowns a piece that is not royal.
    CrownNotRoyal = "E0405",
    /// The check rule in a variant without a royal piece.
    CheckRuleWithoutRoyal = "E0406",
    /// A repetition condition that always holds.
    RepetitionAlwaysTrue = "E0407",
    /// A game-ending rule without a reason.
    MissingReason = "E0408",
    /// A score given twice.
    ScoreTwice = "E0409",
    /// A promotion of a royal piece into a kind that is not royal (it
    /// would stop being royal).
    PromotionOfRoyal = "E0410",
    /// Two promotion rules for the same piece in overlapping zones (W0003
    /// until it became an error; that code stays unused).
    OverlappingPromotions = "E0411",
    /// `royals may not face each other` without the royal check rule.
    FacingWithoutCheckRule = "E0412",
    /// A piece named twice in an explosion's `except` list.
    ExplosionExceptTwice = "E0413",
    /// `only into captured kinds` on a delayed promotion.
    LimitedDelayedPromotion = "E0414",
    /// `starting or ending there` on a delayed promotion.
    LeavingDelayedPromotion = "E0415",
    /// A royal piece in `drops of` (E042x: hands and drops).
    DropOfRoyal = "E0420",
    /// A piece named by two drop rules.
    DropRuleTwice = "E0421",
    /// Drop rules in a variant whose hands nothing fills.
    DropsWithoutHand = "E0422",
    /// A piece letter marked `+` (a promoted kind, as Fairy-Stockfish
    /// writes shogi's) for a kind that not exactly one kind promotes into.
    PromotedLetterWithoutSource = "E0423",
    /// A counting rule's condition that reads what a count's update cannot
    /// know (E043x: counting rules).
    CountingReadsTooMuch = "E0430",
    /// Counting rules without limits or without a start, or `counting` read
    /// in a variant without counting rules.
    CountingIncomplete = "E0431",
    /// A limit after a movement atom written twice, a kind named twice in
    /// it, or two `along` regions for one atom (E043x: movement limits).
    AtomLimitTwice = "E0433",
    /// `pass` with modifiers, limits or `in REGION`.
    PassWithModifiers = "E0434",
    /// `royals may not face each other` and `royals facing each other
    /// must part` in one check rule.
    FacingRulesContradict = "E0435",
    /// A kind named twice in a `first-move of PIECES lost when opponent
    /// PIECES moves onto its rank or file` rule (E044x: first moves).
    FirstMoveLossTwice = "E0440",
    /// A kind after `first-move of` that has no `first-move` movement: the
    /// rule could take nothing from it.
    FirstMoveLossWithoutFirstMove = "E0441",
    /// A `not from check` movement that may capture (it would attack only
    /// while its side is not in check).
    NotFromCheckCaptures = "E0442",
    /// `at most N on the board` with N = 0, or with `only into captured
    /// kinds` (E045x: sittuyin's promotion and setup phase).
    PromotionLimitConflict = "E0450",
    /// `anywhere for the last one` or `attacking nothing` on a promotion
    /// that is not delayed.
    PromotionMoveOptionWithoutDelayed = "E0451",
    /// `drop-rule compulsory` in a variant without drop rules.
    CompulsoryDropsWithoutDrops = "E0452",
    /// Gating in a variant whose side without royal pieces crowns one
    /// (both would start the turn with the move's one spare byte).
    GatingWithSuccession = "E0453",
    /// The grammar gave a parse the syntax tree builder does not know (a
    /// bug of varc: the grammar and the builder disagree).
    SyntaxTreeMismatch = "E0997",
    /// The formatter would have changed a file's meaning (a bug of varc).
    FormatterChangedMeaning = "E0998",
    /// The report stopped after too many problems.
    TooManyProblems = "E0999",
    /// A piece that can never be on the board.
    UnusedPiece = "W0001",
    /// A counter no condition reads.
    UnusedCounter = "W0002",
    /// A game-ending rule an earlier one always pre-empts.
    RuleNeverFires = "W0004",
    /// A label that is also the name of a piece, region or counter.
    ShadowedLabel = "W0005",
}

impl Code {
    /// Whether the code is an error or a warning (its letter).
    pub fn severity(self) -> Severity {
        if self.as_str().starts_with('W') {
            Severity::Warning
        } else {
            Severity::Error
        }
    }

    /// The code written `text` (`E0101`, case-insensitive), if there is one.
    pub fn parse(text: &str) -> Option<Code> {
        Code::ALL
            .iter()
            .copied()
            .find(|code| code.as_str().eq_ignore_ascii_case(text.trim()))
    }
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
