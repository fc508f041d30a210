//! The long explanation of every diagnostic code, printed by
//! `varc explain CODE`. The match is exhaustive: a new code does not
//! compile until it is explained here. Each explanation says what the
//! problem is, shows a file that has it, and how to fix it.

use crate::error::Code;

/// The explanation of `code`: a title line, then paragraphs and an example.
pub fn explanation(code: Code) -> &'static str {
    match code {
        Code::UnreadableFile => {
            "\
A rules file could not be read.

The file named on the command line, or the file an `extends NAME` points
at, does not exist, is a directory, or cannot be opened. `extends NAME`
reads `NAME.rules` from the directory of the file that says it.

Example:

    variant my-chess \"My chess\" extends chesss   # no chesss.rules here

Fix the name, or put the extended file next to this one."
        }
        Code::FileTooLarge => {
            "\
A file is larger than a rules file may be (1 MiB).

Variants are a few kilobytes of text; the limit bounds the time and memory
spent on a file that is not a rules file at all (a log, an image, /dev/zero).

Example:

    varc check game.pgn     # a 40 MB game database, not rules

Check that the right file is named."
        }
        Code::NotUtf8 => {
            "\
A rules file must be UTF-8 text.

The diagnostic points at the first byte that is not UTF-8.

Example: a file saved as Latin-1 whose display name holds `é`:

    variant fr \"Échecs\"

Save the file as UTF-8 (every modern editor can)."
        }
        Code::NoRules => {
            "\
The file is empty or holds only comments.

A rules file starts with a header, then its statements.

Example of the smallest useful start:

    variant my-chess \"My chess\" extends chess

Write at least the `variant` header."
        }
        Code::Syntax => {
            "\
The text does not follow the grammar of the rules language.

The diagnostic points where reading stopped and lists what could come
there. Keywords are lower case and hyphenated (`en-passant`,
`check-rule`), names are identifiers, and `#` starts a comment.

Example:

    board 8 by 8        # expected `x`

Fix:

    board 8 x 8"
        }
        Code::IncompleteStatement => {
            "\
A statement stops before it is complete.

The statement's keyword was read, but the text ends (or the next statement
starts) before its required parts. The diagnostic says which part is
missing and shows the statement's shape.

Example:

    rook-promotion: promote ro

Fix: give the pieces, what they become and where:

    rook-promotion: promote rook to rooking in enemy-territory, mandatory"
        }
        Code::UnterminatedString => {
            "\
A string has no closing quote on its line.

Strings cannot run over several lines.

Example:

    piece rook \"Rook moves ride (0,1)

Fix:

    piece rook \"Rook\" moves ride (0,1)"
        }
        Code::UnsafeCharacter => {
            "\
A string holds a control or bidirectional character.

Names, reasons and messages are printed on terminals and sent over engine
protocols, where an escape sequence rewrites the screen, a carriage return
forges a protocol line and a bidirectional override reorders what is shown.

Example (an invisible U+202E in the name):

    variant trick \"Chess<U+202E>\"

Remove the character."
        }
        Code::NestedTooDeeply => {
            "\
Expressions are nested deeper than the compiler accepts (128 levels).

Real variants stay below 30 levels; the limit keeps the compiler's stack
small on crafted files.

Example:

    end when not not not not ... in check => draw

Name the parts of a deep expression as regions, pieces or labelled rules."
        }
        Code::ExtendsCycle => {
            "\
`extends` chains loop back to a file already in the chain.

Example:

    # a.rules
    variant a extends b
    # b.rules
    variant b extends a

A variant can only extend one that does not depend on it."
        }
        Code::ExtendsChainTooLong => {
            "\
An `extends` chain has more than 64 files.

Each file of the chain is held in memory at once; real chains have two or
three files.

Example:

    # v1.rules
    variant v1 extends v0
    # v2.rules
    variant v2 extends v1
    # ... up to v65.rules

Shorten the chain: merge some of the intermediate variants."
        }
        Code::UnknownPiece => {
            "\
A name is used as a piece, but no piece of that name is defined in this
file or the files it extends.

Example:

    piece rooking \"Rook'\" moves rook
    promote rook to rookng in enemy-territory, mandatory
                    ^^^^^^ unknown piece

Fix the spelling (the diagnostic suggests the nearest name) or define the
piece with `piece NAME \"LETTER\" moves ...`."
        }
        Code::UnknownRegion => {
            "\
A name is used as a region, but no region of that name is defined.

Example:

    promote pawn to queen in last-rank, mandatory   # no region last-rank

Fix:

    region last-rank = rank 8 relative
    promote pawn to queen in last-rank, mandatory"
        }
        Code::UnknownCounter => {
            "\
A name is used as a counter, but no counter of that name is defined.

Example:

    end when max count captures >= 3 => win for mover

Fix:

    counter captures counts capture
    end when max count captures >= 3 => win for mover"
        }
        Code::UnknownMovement => {
            "\
A name inside a movement is not a piece. A movement may name another
piece to reuse its moves (`moves rook + bishop`).

Example:

    piece queen \"Q\" moves rook + bishp

Fix the name, or write the movement with atoms (`ride (1,1)`)."
        }
        Code::DefinedTwice => {
            "\
A piece, region, counter or label is defined twice, or a statement a
variant has at most one of (`board`, `setup`, `score`, ...) is given twice.

Example:

    region zone = rank 8 relative
    region zone = ranks 6..8 relative

Remove one, or rename it. To change a definition inherited through
`extends`, write `replace` before the new one:

    replace region zone = ranks 6..8 relative"
        }
        Code::NothingToDrop => {
            "\
`drop NAME` names nothing defined by this variant or its ancestors.

Example:

    variant no-castling extends chess
    drop castlng

Fix the name (the diagnostic suggests the nearest one). Pieces, regions,
counters and labelled rules can be dropped; `drop piece NAME` says which
kind is meant."
        }
        Code::NothingToReplace => {
            "\
`replace` changes an inherited definition, but nothing of this name is
inherited.

Example:

    variant v extends chess
    replace piece amazon \"A\" moves queen + knight   # chess has no amazon

Remove `replace` to add a new definition."
        }
        Code::ReplaceWithoutName => {
            "\
`replace` needs a statement with a name or a label, to know which
inherited statement it replaces.

Example:

    replace end when in check => draw

Fix: label the rule in the parent and replace the label:

    # parent
    checkmate: end when no legal moves and in check => win for opponent
    # child
    replace checkmate: end when no legal moves and in check => draw"
        }
        Code::MissingBoard => {
            "\
The variant has no `board` statement, in this file or its ancestors.

Example of a board of 8 files and 8 ranks:

    board 8 x 8

Boards have 1 to 16 files and ranks; `holes` leaves squares out."
        }
        Code::BoardSize => {
            "\
A board side is out of range: a board has 1 to 16 files and 1 to 16 ranks.

Example:

    board 17 x 8

Fix:

    board 16 x 8"
        }
        Code::OffBoard => {
            "\
A square, file or rank lies outside the board.

Example on an 8 x 8 board:

    region far = squares i9

Use squares of the board (`a1` to `h8` here). `last` names the last rank
whatever the board's size (`rank last`, `ranks last-1..last`)."
        }
        Code::BackwardsRange => {
            "\
A range of files or ranks runs from high to low.

Example:

    region camp = ranks 3..1

Fix:

    region camp = ranks 1..3"
        }
        Code::EmptyRegion => {
            "\
A region has no square (for example a region minus itself, or squares that
are all holes).

Example:

    region nothing = rank 1 - rank 1

A region with no square can never hold a piece; define the squares meant."
        }
        Code::MissingSetup => {
            "\
The variant has no start position: no `setup` statement in this file or
its ancestors.

Example:

    setup \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"

The FEN's letters are the pieces' letters (upper case white)."
        }
        Code::BadStartPosition => {
            "\
The start position does not fit the variant: the wrong number of ranks or
files, a letter no piece has, or fields of the FEN that do not read.

Example on an 8 x 8 board:

    setup \"rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"   # 7 ranks

A FEN has the placement (rank 8 first), the side to move (w or b),
castling, en passant, and two counters."
        }
        Code::NumberOutOfRange => {
            "\
A number is outside what its use allows (the diagnostic gives the range).

Example:

    illegal check repeating placement from 0 plies ago

Fix:

    illegal check repeating placement from 4 plies ago"
        }
        Code::TooManyPieceKinds => {
            "\
The variant defines more piece kinds than a variant may have.

Generated engines keep a piece kind in a few bits; real variants have well
under the limit (64).

Example:

    piece p1 \"A\" moves king-step
    piece p2 \"B\" moves king-step
    # ... 65 pieces

Drop inherited kinds the variant does not use (`drop piece NAME`)."
        }
        Code::BadPieceLetter => {
            "\
A piece's letter is not one ASCII letter followed by optional marks (`'`).

Example:

    piece rooking \"R1\" moves rook

Fix:

    piece rooking \"R'\" moves rook"
        }
        Code::DuplicateLetter => {
            "\
Two pieces have the same letter (case does not matter: the FEN writes
white in upper case, black in lower case).

Example:

    piece knight \"N\" moves leap (1,2)
    piece nightrider \"n\" moves ride (1,2)

Give one another letter, or marks (`N'`)."
        }
        Code::NoMove => {
            "\
A piece's movement leaves no move at all: its modifiers and atoms exclude
every direction.

Example:

    piece oddity \"O\" moves sideways leap (1,2)

No knight jump stays on its rank, so nothing is left. Check the direction
words (`forward`, `backward`, `sideways`, `vertical`, `left`, `right`)."
        }
        Code::ConflictingModifiers => {
            "\
Movement modifiers exclude each other: `move-only` with `capture-only`
leaves nothing, and a movement is `first-move` or `in REGION`, not both.

Example:

    piece pawn \"P\" moves move-only capture-only forward leap (0,1)

Keep one of them, or write two movements joined by `+`."
        }
        Code::BadBetza => {
            "\
A Betza string does not parse.

Betza atoms: W F D N A H C Z G, compounds K R B Q, doubled letters ride;
modifiers f b l r v s m c i n p g.

Example:

    piece knight \"N\" moves betza \"X\"

Fix:

    piece knight \"N\" moves betza \"N\""
        }
        Code::SelfReferentialMovement => {
            "\
A piece's movement refers to the piece being defined (directly or through
other pieces), so it has no meaning.

Example:

    piece queen \"Q\" moves queen + knight

Describe the movement with atoms (`ride (0,1)`) or other pieces."
        }
        Code::BadOffset => {
            "\
An offset does not move (`(0,0)`) or is longer than any board.

An offset is (files, ranks): `(0,1)` is one step forward, `(1,2)` the
knight's jump.

Example:

    piece nothing \"Z\" moves leap (0,0)"
        }
        Code::ModifierNotForMotion => {
            "\
A modifier does not apply to the motion it is on: `up to N` limits a
ride, `adjacent` is for hops.

Example:

    piece king \"K\" moves leap (0,1) up to 2

Fix:

    piece king \"K\" moves ride (0,1) up to 2"
        }
        Code::CastlingSameSquare => {
            "\
A castling side puts the king and the rook on the same file.

Example:

    castling king with rook short king to g rook to g long king to c rook to d

Give the rook the square beside the king's: `short king to g rook to f`."
        }
        Code::CastlingSideTwice => {
            "\
Castling gives the same side twice; it needs one `short` and one `long`.

Example:

    castling king with rook short king to g rook to f short king to c rook to d

Make one side `long`."
        }
        Code::CastlingSideMissing => {
            "\
Castling needs a `short` and a `long` side.

Example:

    castling king with rook short king to g rook to f

Add the long side: `long king to c rook to d`."
        }
        Code::CrownNotRoyal => {
            "\
`on royal-capture crown ... as PIECE` must crown a royal piece: the
crowned piece replaces the royal piece that was lost.

Example:

    on royal-capture crown bishop as queen

Fix:

    on royal-capture crown bishop as king"
        }
        Code::CheckRuleWithoutRoyal => {
            "\
The check rule forbids leaving a royal piece attacked, but no piece is
royal.

Example:

    piece king \"K\" moves leap (0,1) + leap (1,1)   # not royal
    check-rule royal

Mark the king `royal` (`piece king \"K\" royal moves ...`), or write
`check-rule none` for a game without check."
        }
        Code::RepetitionAlwaysTrue => {
            "\
A repetition condition with a count of 0 or 1 always holds: the position
occurs at least once.

Example:

    claim when repetition 1 => draw

Fix:

    claim when repetition 3 => draw"
        }
        Code::MissingReason => {
            "\
A game-ending rule needs a reason to tell the players: its label (dashes
read as spaces) or a `reason \"...\"` option.

Example:

    end when max count captures >= 3 => win for mover

Fix (either):

    three-captures: end when max count captures >= 3 => win for mover
    end when max count captures >= 3 => win for mover, reason \"three captures\""
        }
        Code::ScoreTwice => {
            "\
`score` gives the points of one result twice.

Example:

    score win 1, draw 0.5, win 2

Give each of win, draw, loss and null once."
        }
        Code::PromotionOfRoyal => {
            "\
A royal piece may not promote into a kind that is not royal: it would
stop being royal, so its side would lose a royal piece by its own move,
and with its last one the check rule would no longer hold for it.
Promotion into royal kinds is allowed (Fairy-Stockfish's coregal, whose
pawns promote into the royal queen), and a royal piece may promote when
every choice is royal.

Example:

    piece king \"K\" royal moves king-step
    promote pawn | king to queen in last-rank

Fix: leave the royal piece out of the promotion:

    promote pawn to queen in last-rank"
        }
        Code::OverlappingPromotions => {
            "\
Two promotion rules apply to the same piece in zones that share squares
(for either side). Only one rule can say what a move into such a square
does, and which one is not something a reader can see, so the file is
refused. The rules may be in different files of an `extends` chain: the
error is on the later rule, the earlier one is shown with it.

Example:

    promote pawn to queen in last-rank, mandatory
    promote pawn to knight in last-rank, mandatory

Fix: merge the choices into one rule (`promote pawn to queen | knight in
last-rank`), make the zones disjoint, or `replace` / `drop` the inherited
rule (label it first: `pawn-promotion: promote ...`)."
        }
        Code::FacingWithoutCheckRule => {
            "\
`royals may not face each other` makes a royal piece that sees an
opponent's royal piece along an open file or rank attacked by it. Only the
royal check rule forbids leaving a royal piece attacked; under `check-rule
none` the sentence would forbid nothing, so the file is refused.

Example:

    check-rule none, royals may not face each other

Fix: use the royal check rule (xiangqi's flying general):

    check-rule royal, royals may not face each other"
        }
        Code::DropOfRoyal => {
            "\
A royal piece is named in `drops of`, and the start position holds none
in a hand. Royal pieces are never captured into a hand (the check rule
protects them, or their capture ends the game), so such a drop could never
happen, and the file is refused. A royal piece that starts in hand (the
kings of sittuyin's setup phase, `[KFRRSSNNkfrrssnn]`) may be dropped.

Example:

    drops of king | queen | pawn

Fix: leave the royal piece out:

    drops of queen | pawn"
        }
        Code::DropRuleTwice => {
            "\
Two `drops of` rules name the same piece. Each rule says where its pieces
may be dropped, and which of the two regions would apply is not something
a reader can see, so the file is refused. The rules may be in different
files of an `extends` chain.

Example:

    drops of pawn onto pawn-drops
    drops of pawn | knight

Fix: name each piece in one rule (`drops of knight` in the second), or
`replace` / `drop` the inherited rule (label it first: `pawn-drops: drops
of pawn onto pawn-drops`)."
        }
        Code::FacingRulesContradict => {
            "\
`royals may not face each other` (xiangqi) makes a royal piece that sees
the other along an open line attacked, so the royals never face each
other; `royals facing each other must part` (janggi's bikjang) lets them
face, and then makes the side to move part them or pass. One check rule
cannot say both.

Example:

    check-rule royal, royals may not face each other, royals facing each other must part

Fix: keep the one the variant means:

    check-rule royal, royals facing each other must part"
        }
        Code::PassWithModifiers => {
            "\
`pass` lets a piece stay on its square as its side's whole move (janggi's
king passes). Nothing moves, so there is no direction, mode, limit or
region to give it: modifiers, `along`, `not over`, `not capturing` and
`in REGION` are refused on it.

Example:

    piece king \"K\" royal moves leap (0,1) + forward pass

Fix: write `pass` as a term of its own:

    piece king \"K\" royal moves leap (0,1) + pass"
        }
        Code::AtomLimitTwice => {
            "\
The limits after a movement atom (`along REGION`, `not over PIECES`, `not
capturing PIECES`) are each written once, and their lists of kinds are
sets: a limit written twice, or a kind named twice, is most often a
mistyped name. A movement may also lie `along` one region only: a group
`(...) along R` whose parts are already `along` another region is refused.

Example:

    piece cannon \"C\" moves hop (0,1) not over cannon not over cannon

Fix: write each limit once, joining kinds with `|`:

    piece cannon \"C\" moves hop (0,1) not over cannon | rook not capturing cannon"
        }
        Code::FirstMoveLossTwice => {
            "\
The lists of a `first-move of PIECES lost when opponent PIECES moves onto
its rank or file` rule are sets: a kind named twice in one of them is most
often a mistyped name.

Example:

    first-move of king lost when opponent rook | rook moves onto its rank or file

Fix: name each kind once:

    first-move of king lost when opponent rook moves onto its rank or file"
        }
        Code::FirstMoveLossWithoutFirstMove => {
            "\
`first-move of PIECES lost when ...` ends the first move of the pieces it
names: each of them must have a `first-move` part in its movement, or the
rule would take nothing from it.

Example:

    piece king \"K\" royal moves king-step
    first-move of king lost when opponent rook moves onto its rank or file

Fix: give the piece its first-move movement (cambodian's king leap):

    piece king \"K\" royal moves king-step + first-move move-only betza \"fsN\" not from check"
        }
        Code::NotFromCheckCaptures => {
            "\
`not from check` after a movement bars it while the mover's side is in
check (cambodian's king leap). Such a movement must be `move-only`: one
that captured would attack a square only while its side is not in check,
and the check rule reads attacks whatever the side to move.

Example:

    piece king \"K\" royal moves king-step + first-move betza \"fsN\" not from check

Fix: make it move only:

    piece king \"K\" royal moves king-step + first-move move-only betza \"fsN\" not from check"
        }
        Code::DropsWithoutHand => {
            "\
The variant has `drops of` rules, but nothing ever puts a piece in a hand:
captured pieces leave the game (no `captures go to hand`) and the start
position holds no pieces in hand. No drop could ever be made.

Example:

    drops of pawn | knight

Fix: send captured pieces to the capturer's hand (crazyhouse):

    captures go to hand, demoted
    drops of pawn | knight

or give pieces in hand in the start position: `setup \"8/8/8/8/8/8/8/8[PPpp] w - - 0 1\"`."
        }
        Code::CountingReadsTooMuch => {
            "\
A counting rule's condition is read after every move, while the count is
brought up to date, before the new position's legal moves, checks and
repetitions are known. It may read the material, the side to move, the
last move, the counters and the count itself; a condition that reads legal
moves, check, repetitions, move counts or clocks is refused.

Example:

    counting starts for side-to-move when in check

Fix: state the start by the material and the last move (makruk):

    counting starts for side-to-move when not counting"
        }
        Code::CountingIncomplete => {
            "\
Counting rules come in two halves: `counting limit` clauses say who may
count and how far (the first that holds for a side, read with that side to
move), and `counting starts for PLAYER when CONDITION` says when a count
starts. With only one half no count could ever run, and `counting` or
`counting over limit` in a condition needs the rules, so the file is
refused.

Example:

    counting limit 64 moves
    end when counting over limit => draw, reason \"counting rule\"

Fix: say when a count starts:

    counting limit 64 moves
    counting starts for side-to-move when not counting
    end when counting over limit => draw, reason \"counting rule\""
        }
        Code::ExplosionExceptTwice => {
            "\
`capture explodes radius N, except PIECES` names the kinds a blast leaves
standing. The list is a set: a kind named twice adds nothing, and the
repeated name is most often another kind mistyped as one already listed,
so the file is refused.

Example:

    capture explodes radius 1, except pawn, pawn

Fix: name each spared kind once (atomic chess spares pawns):

    capture explodes radius 1, except pawn"
        }
        Code::LimitedDelayedPromotion => {
            "\
`only into captured kinds` offers a choice only while the mover has fewer
pieces of its kind on the board than the start position gives it, counted
when the piece arrives in the zone. A delayed promotion happens on a later
turn, when the count may have changed, and its choices are not limited,
so the combination is refused rather than ignored.

Example:

    promote pawn to queen | rook in last-rank, delayed, only into captured kinds

Fix: drop one of the two options (grand chess promotes at once):

    promote pawn to queen | rook in last-rank, optional, only into captured kinds"
        }
        Code::PromotionLimitConflict => {
            "\
`at most N on the board` offers a choice only while the mover has fewer
than N pieces of its kind on the board (Fairy-Stockfish's
`promotionLimit`). With N = 0 no choice is ever offered, and with `only
into captured kinds` the rule would have two limits for each kind: the
file is refused rather than one of them ignored.

Example:

    promote pawn to met in promotion-squares, delayed, at most 0 on the board

Fix: give a limit of 1 or more (sittuyin's one met), or keep one of the
two limits:

    promote pawn to met in promotion-squares, delayed, at most 1 on the board"
        }
        Code::PromotionMoveOptionWithoutDelayed => {
            "\
`anywhere for the last one` and `attacking nothing` say where and how a
promotion made as a move of its own may happen (sittuyin's pawn, which
promotes in place or one step away on a later turn). A promotion on the
move that reaches the zone is not such a move: the options need `delayed`
and are refused rather than ignored.

Example:

    promote pawn to met in promotion-squares, optional, attacking nothing

Fix: make the promotion a move of its own:

    promote pawn to met in promotion-squares, delayed then move-only move, attacking nothing"
        }
        Code::CompulsoryDropsWithoutDrops => {
            "\
`drop-rule compulsory` makes a side that can drop drop (Fairy-Stockfish's
`mustDrop`, sittuyin's setup phase), but the variant has no `drops of`
rule, so no drop is ever possible: the sentence would say nothing, and
the file is refused rather than the sentence ignored.

Example:

    drop-rule compulsory

Fix: say which pieces are dropped, and where:

    drops of rook onto first-rank
    drop-rule compulsory"
        }
        Code::GatingWithSuccession => {
            "\
`by gating` lets a piece from the hand enter the square an unmoved piece
leaves, as part of its move; a succession rule (`on royal-capture crown
...`) makes a side that lost its royal pieces crown one at the start of
each move. A move could then do both, and the two are not combined (a
move keeps room for one of them), so the file is refused rather than one
rule silently ignored.

Example:

    on royal-capture crown bishop as king
    gating: drops of hawk onto first-rank, by gating

Fix: keep one of the two rules."
        }
        Code::LeavingDelayedPromotion => {
            "\
`starting or ending there` lets a move that starts in the zone promote,
wherever it ends (shogi). A delayed promotion promotes a piece standing in
the zone, on a later turn, whatever move brought it there: the option has
nothing to add to it, so the combination is refused rather than ignored.

Example:

    promote silver to gold in camp, delayed, starting or ending there

Fix: drop one of the two options (shogi promotes on the move):

    promote silver to gold in camp, optional, starting or ending there"
        }
        Code::PromotedLetterWithoutSource => {
            "\
A piece letter that begins with `+` (`+P`) marks a promoted kind, as
Fairy-Stockfish writes shogi's promoted pieces. Read from a FEN, such a
piece is taken to have been the one kind that promotes into its kind, and
a capture sends it to the hand as that kind when captures go to hand
demoted. With no rule promoting into the kind, or rules promoting several
kinds into it, the mark would not say what the piece was.

Example:

    piece tokin \"+P\" moves gold

Fix: promote exactly one kind into it, or write its letter without `+`:

    piece tokin \"+P\" moves gold
    promote pawn to tokin in camp, optional, starting or ending there"
        }
        Code::SyntaxTreeMismatch => {
            "\
The file parsed, but the parse had a shape the syntax tree builder does not
know: the grammar (`grammar/rules.pest`) and the builder (`src/ast/build.rs`)
disagree. This is a bug of varc, not of the file.

Example: a file for which

    varc check variants/mine.rules

reports this code instead of checking it.

Please report the file to the varc maintainers."
        }
        Code::FormatterChangedMeaning => {
            "\
`varc fmt` formatted the file, parsed the result again and found a different
syntax tree: formatting would have changed what the file says. This is a bug
of the formatter, not of the file; the file is left as it was.

Example: a file for which

    varc fmt --check variants/mine.rules

reports this code instead of formatting it.

Please report the file to the varc maintainers. Until it is fixed, keep the
file as it is: it is still a valid rules file."
        }
        Code::TooManyProblems => {
            "\
Checking stopped after 100 problems; the rest are not shown.

A file with this many problems is usually not a rules file, or one early
mistake causes the rest.

Example: a file of another format checked as rules:

    varc check notes.txt

Fix the first problems and check again."
        }
        Code::UnusedPiece => {
            "\
A piece defined in this file can never be on the board: it is not in the
start position, no promotion or crowning makes it, and no other piece's
movement uses it.

Example:

    piece amazon \"A\" moves queen + knight
    # ... but no `A` in setup and no `promote ... to amazon`

Place it in `setup`, make it by promotion, or remove it."
        }
        Code::UnusedCounter => {
            "\
A counter defined in this file is never read: no condition (`count NAME`)
and no resignation rule (`per NAME`) uses its value.

Example:

    counter captures counts capture
    # no `count captures` anywhere

Read it in a condition, or remove it."
        }
        Code::RuleNeverFires => {
            "\
A game-ending rule can never fire: an earlier `end when` rule has the same
condition and is checked first (rules are checked in file order, and the
first that holds ends the game). A `claim when` rule with the condition of
an `end when` rule is never available either, since the game already
ended.

Example:

    end when no legal moves and not in check => draw
    end when no legal moves and not in check => win for opponent

Remove the later rule, or change its condition."
        }
        Code::ShadowedLabel => {
            "\
A label is also the name of a piece, region or counter. `drop NAME`
without a kind removes every statement of that name, so a variant
extending this one cannot drop the one without the other, and readers
mistake one for the other.

Example:

    piece castling \"C\" moves ride (1,1)
    castling: castling king with rook ...

Give the label another name (`castling-rule: ...`)."
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_has_an_explanation_with_an_example() {
        for code in Code::ALL {
            let text = explanation(*code);
            assert!(text.lines().count() >= 3, "{code} is explained too briefly");
            assert!(text.contains("    "), "{code} has no indented example");
        }
    }
}
