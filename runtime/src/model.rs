//! The variant model: the one representation of a variant's rules that every
//! back end reads (the interpreter, generated engines, the game driver).
//!
//! The compiler lowers a rules file into a [`Variant`]; nothing here knows a
//! particular variant. Names have been resolved into indices ([`PieceId`],
//! [`RegionId`], [`CounterId`]), regions into square sets per side, Betza
//! strings into [`MoveAtom`]s, and `extends` has been applied.

pub use crate::eval::network::Network;

use serde::{Deserialize, Serialize};
use std::fmt;

/// Largest number of files or ranks a board may have.
pub const MAX_BOARD_SIDE: u8 = 16;

/// The most piece kinds a variant may have: the interpreter keeps sets of
/// kinds in 64-bit masks.
pub const MAX_PIECE_KINDS: usize = 64;

/// The largest `value` a piece may declare, in pawns. The search's scores
/// are centipawns below the mate scores ([`crate::search::outcome::MATE_BOUND`]);
/// the evaluation is kept inside them, and values up to this one leave it
/// room to tell positions apart.
pub const MAX_PIECE_VALUE: f64 = 100.0;

pub use crate::hands::{CapturesToHand, DropRule, Hands};
pub use crate::weights::EvaluationWeights;

/// The furthest back, in plies, a rule on repeated placements may look.
pub const MAX_HISTORY_PLIES: u32 = 1_000;

/// The most wins one award, resignation or tiebreak may give. Totals are
/// summed saturating, so no number of awards wraps around.
pub const MAX_AWARD_WINS: u32 = 1_000_000;

/// A side of the game. White moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Color {
    /// The side that moves first; its pieces are written in upper case.
    White,
    /// The second side; its pieces are written in lower case.
    Black,
}

impl Color {
    /// Both colours, White first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// The other side.
    pub fn opponent(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// 0 for White, 1 for Black: the index of per-side arrays.
    pub fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::White => "white",
            Color::Black => "black",
        })
    }
}

/// A square, by file (0 = `a`) and rank (0 = rank 1). Boards are at most
/// 16x16, so a square also fits in one byte as `rank * 16 + file`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Square {
    /// File, 0-based from the `a` file.
    pub file: u8,
    /// Rank, 0-based from White's first rank.
    pub rank: u8,
}

impl Square {
    /// The square on `file` and `rank` (both 0-based).
    pub fn new(file: u8, rank: u8) -> Square {
        Square { file, rank }
    }

    /// Index into a [`SquareSet`]: `rank * 16 + file`, whatever the board size.
    pub fn index(self) -> usize {
        self.rank as usize * 16 + self.file as usize
    }

    /// The square of a [`SquareSet`] index.
    pub fn from_index(index: usize) -> Square {
        Square::new((index % 16) as u8, (index / 16) as u8)
    }

    /// The file letter (`a`..`p`).
    pub fn file_char(self) -> char {
        (b'a' + self.file) as char
    }
}

impl fmt::Display for Square {
    /// Algebraic name: file letter then 1-based rank (`e4`, `j10`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file_char(), self.rank as u32 + 1)
    }
}

/// A set of squares of a board up to 16x16, one bit per square.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SquareSet(pub [u64; 4]);

impl SquareSet {
    /// The empty set.
    pub const EMPTY: SquareSet = SquareSet([0; 4]);

    /// Whether `square` is in the set.
    #[inline]
    pub fn contains(&self, square: Square) -> bool {
        let i = square.index();
        self.0[i / 64] >> (i % 64) & 1 == 1
    }

    /// Whether the square of index `index` ([`Square::index`], below 256)
    /// is in the set.
    #[inline]
    pub fn contains_index(&self, index: usize) -> bool {
        self.0[(index / 64) % 4] >> (index % 64) & 1 == 1
    }

    /// Adds `square`.
    #[inline]
    pub fn insert(&mut self, square: Square) {
        let i = square.index();
        self.0[i / 64] |= 1 << (i % 64);
    }

    /// Removes `square`.
    #[inline]
    pub fn remove(&mut self, square: Square) {
        let i = square.index();
        self.0[i / 64] &= !(1 << (i % 64));
    }

    /// The union of two sets.
    #[inline]
    pub fn union(&self, other: &SquareSet) -> SquareSet {
        let mut out = *self;
        for (a, b) in out.0.iter_mut().zip(other.0.iter()) {
            *a |= b;
        }
        out
    }

    /// The squares of `self` that are not in `other`.
    #[inline]
    pub fn difference(&self, other: &SquareSet) -> SquareSet {
        let mut out = *self;
        for (a, b) in out.0.iter_mut().zip(other.0.iter()) {
            *a &= !b;
        }
        out
    }

    /// The squares in both sets.
    #[inline]
    pub fn intersection(&self, other: &SquareSet) -> SquareSet {
        let mut out = *self;
        for (a, b) in out.0.iter_mut().zip(other.0.iter()) {
            *a &= b;
        }
        out
    }

    /// Whether the set has no square.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|w| *w == 0)
    }

    /// Number of squares in the set.
    #[inline]
    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// The squares in index order (rank by rank from rank 1, `a` file first).
    pub fn iter(&self) -> impl Iterator<Item = Square> + '_ {
        self.0.iter().enumerate().flat_map(|(word_index, &word)| {
            let mut rest = word;
            std::iter::from_fn(move || {
                if rest == 0 {
                    return None;
                }
                let bit = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                Some(Square::from_index(word_index * 64 + bit))
            })
        })
    }
}

/// Word-wise operators, so that generated engines on boards beyond 128
/// squares use the set as their bitboard.
macro_rules! square_set_operator {
    ($trait:ident, $method:ident, $assign:ident, $assign_method:ident, $op:tt) => {
        impl std::ops::$trait for SquareSet {
            type Output = SquareSet;
            #[inline(always)]
            fn $method(self, other: SquareSet) -> SquareSet {
                SquareSet([
                    self.0[0] $op other.0[0],
                    self.0[1] $op other.0[1],
                    self.0[2] $op other.0[2],
                    self.0[3] $op other.0[3],
                ])
            }
        }
        impl std::ops::$assign for SquareSet {
            #[inline(always)]
            fn $assign_method(&mut self, other: SquareSet) {
                *self = std::ops::$trait::$method(*self, other);
            }
        }
    };
}

square_set_operator!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
square_set_operator!(BitOr, bitor, BitOrAssign, bitor_assign, |);
square_set_operator!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl std::ops::Not for SquareSet {
    type Output = SquareSet;
    #[inline(always)]
    fn not(self) -> SquareSet {
        SquareSet([!self.0[0], !self.0[1], !self.0[2], !self.0[3]])
    }
}

impl fmt::Debug for SquareSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list()
            .entries(self.iter().map(|s| s.to_string()))
            .finish()
    }
}

impl FromIterator<Square> for SquareSet {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Self {
        let mut set = SquareSet::EMPTY;
        for square in iter {
            set.insert(square);
        }
        set
    }
}

/// `U::from(value)`, as a plain generic function: generated engines build
/// their model with it (see the compiler's `codegen::model_literal`).
///
/// The compiler reads the model through serde, which does not tell a
/// `Box<T>` field from a `T` field, nor an array from a tuple. So the model
/// literal writes each struct, enum or tuple that fills a field as
/// `into_field(value)` and lets the field's type pick the conversion: the
/// identity, `Box::new`, or a tuple into an array. A generic function rather
/// than `.into()`, which clippy flags (`useless_conversion`) wherever the
/// conversion is the identity.
///
/// ```
/// use varc_runtime::model::{into_field, Condition};
/// let boxed: Box<Condition> = into_field(Condition::InCheck);
/// let words: [u64; 2] = into_field((1u64, 2u64));
/// let same: Condition = into_field(Condition::InCheck);
/// assert_eq!((*boxed, words, same), (Condition::InCheck, [1, 2], Condition::InCheck));
/// ```
pub fn into_field<T, U: From<T>>(value: T) -> U {
    U::from(value)
}

/// Index of a piece kind in [`Variant::pieces`].
pub type PieceId = usize;
/// Index of a region in [`Variant::regions`].
pub type RegionId = usize;
/// Index of a counter in [`Variant::counters`].
pub type CounterId = usize;

/// A fully resolved variant.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Variant {
    /// Identifier used by `extends` and protocols (`UCI_Variant`), e.g. `ppc`.
    pub id: String,
    /// Human-readable name, e.g. `Piece Promotion Chess`.
    pub name: String,
    /// The board: size and holes.
    pub board: Board,
    /// Named regions, each resolved to its squares for White and for Black.
    pub regions: Vec<Region>,
    /// Piece kinds. A position refers to them by index.
    pub pieces: Vec<PieceKind>,
    /// The start position in FEN, with this variant's letters.
    pub start_fen: String,
    /// Promotion rules, tried in order; the first that applies to a move is used.
    pub promotions: Vec<Promotion>,
    /// Castling rules (none if the variant has no castling).
    pub castling: Vec<Castling>,
    /// Piece kinds that create and capture en passant (chess: the pawn).
    pub en_passant: Vec<PieceId>,
    /// The region (read for the capturing side) onto which en passant
    /// captures may be made (`en-passant PIECES onto REGION`): a move passing
    /// squares outside it leaves no en passant square there. `None`: anywhere.
    pub en_passant_zone: Option<RegionId>,
    /// Explosions on capture (`capture explodes radius N`), if any.
    #[serde(default)]
    pub explosion: Option<Explosion>,
    /// Whether royal pieces may be left attacked, and history rules.
    pub legality: Legality,
    /// What happens when a side loses its last royal piece.
    pub royal_loss: RoyalLoss,
    /// Per-player counters, updated by game events.
    pub counters: Vec<Counter>,
    /// Events that reset the "plies since reset" count (50-move rules).
    pub ply_reset_events: Vec<EventPattern>,
    /// Conditions that end the game, automatically or by claim.
    pub terminations: Vec<Termination>,
    /// Wins awarded to a player during the game (special wins).
    pub awards: Vec<Award>,
    /// Draw offers: when an agreed draw is allowed.
    pub agreement: Agreement,
    /// What resigning does.
    pub resignation: Resignation,
    /// Material counts that turn a draw into a win (Alternate Scoring).
    pub tiebreak: Option<Tiebreak>,
    /// How outcomes score.
    pub scoring: Scoring,
    /// Rules above the single game (null-game replays, forfeits).
    pub match_rules: Vec<MatchRule>,
    /// The evaluation's weights: the defaults, or a weights file's (see
    /// [`crate::weights`]).
    #[serde(default)]
    pub evaluation: EvaluationWeights,
    /// The learned correction of the evaluation, if a weights file gives
    /// one (see [`crate::eval::network`]).
    #[serde(default)]
    pub network: Option<Network>,
    /// The passed bonus of pawn-shaped pieces by their moves to the zone,
    /// in place of the formula, if a weights file gives it
    /// ([`PassedTables`]).
    #[serde(default)]
    pub passed_tables: Option<PassedTables>,
    /// Whether the evaluation scales down leads the side ahead cannot
    /// convert ([`crate::eval::scale`]); off unless a weights file turns
    /// it on (`endgame-scaling = on`), since weights are fitted with it or
    /// without it.
    #[serde(default)]
    pub endgame_scaling: bool,
    /// Search parameters a weights file sets for this variant (`search
    /// NAME = VALUE`), over the search's defaults
    /// ([`crate::search::params`]).
    #[serde(default)]
    pub search: Vec<SearchSetting>,
    /// Pieces in hand and drops (see [`crate::hands`]); none by default.
    #[serde(default)]
    pub hands: Hands,
    /// Counting rules (`counting limit ...`, `counting starts ...`,
    /// Fairy-Stockfish's makruk and cambodian counting); none by default.
    #[serde(default)]
    pub counting: Counting,
    /// Rules about pieces' first moves: the FEN's first-move letters, and
    /// events that end a piece's first move (cambodian's king).
    #[serde(default)]
    pub first_moves: FirstMoves,
}

impl Variant {
    /// The promotion rule that applies to a piece of `kind` and `color`
    /// arriving on `square`: the first, in file order, whose pieces hold the
    /// kind and whose zone (for `color`) holds the square. The one meaning
    /// of "which rule applies", read by both back ends and the game layer.
    pub fn promotion_rule_at(&self, kind: PieceId, color: Color, square: Square) -> Option<usize> {
        self.promotions.iter().position(|rule| {
            rule.pieces.contains(&kind)
                && self
                    .regions
                    .get(rule.zone)
                    .is_some_and(|zone| zone.for_side(color).contains(square))
        })
    }

    /// The promotion rule that applies to a move of a piece of `kind` and
    /// `color` from `from` to `to`: the rule of the arrival square
    /// ([`Variant::promotion_rule_at`]), else the rule of the departure
    /// square if it says `starting or ending there`.
    pub fn promotion_rule_for_move(
        &self,
        kind: PieceId,
        color: Color,
        from: Square,
        to: Square,
    ) -> Option<usize> {
        self.promotion_rule_at(kind, color, to).or_else(|| {
            self.promotion_rule_at(kind, color, from)
                .filter(|&rule| self.promotions[rule].leaving_too)
        })
    }

    /// The per-player counter slots a position keeps: the declared
    /// counters, then the running count's two slots where the variant has
    /// counting rules (its limit and its plies, kept in White's slots;
    /// see [`Counting`]).
    pub fn counter_slots(&self) -> usize {
        self.counters.len() + if self.counting.in_use() { 2 } else { 0 }
    }

    /// The piece kind with this name.
    pub fn piece_by_name(&self, name: &str) -> Option<PieceId> {
        self.pieces.iter().position(|p| p.name == name)
    }

    /// The region with this name.
    pub fn region_by_name(&self, name: &str) -> Option<RegionId> {
        self.regions.iter().position(|r| r.name == name)
    }

    /// The longest piece letter, marks included (`R'` is 2): the column
    /// width of a drawn board.
    pub fn letter_width(&self) -> usize {
        self.pieces
            .iter()
            .map(|p| p.letter.chars().count())
            .max()
            .unwrap_or(1)
    }

    /// The piece kind written with this letter (without case: `R'` and `r'`
    /// are the same kind).
    pub fn piece_by_letter(&self, letter: &str) -> Option<PieceId> {
        let upper = letter.to_ascii_uppercase();
        self.pieces.iter().position(|p| p.letter == upper)
    }
}

/// Board geometry.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Board {
    /// Number of files (1..=16).
    pub files: u8,
    /// Number of ranks (1..=16).
    pub ranks: u8,
    /// Squares that are not part of the board.
    pub holes: SquareSet,
}

impl Board {
    /// Whether `(file, rank)` is a square of the board (inside and not a hole).
    pub fn contains(&self, file: i32, rank: i32) -> bool {
        file >= 0
            && rank >= 0
            && file < self.files as i32
            && rank < self.ranks as i32
            && !self.holes.contains(Square::new(file as u8, rank as u8))
    }

    /// Every square of the board.
    pub fn squares(&self) -> SquareSet {
        let mut set = SquareSet::EMPTY;
        for rank in 0..self.ranks {
            for file in 0..self.files {
                set.insert(Square::new(file, rank));
            }
        }
        set.difference(&self.holes)
    }

    /// The square seen from `color`: rank `r` for White is rank
    /// `ranks - 1 - r` for Black (files do not mirror).
    pub fn relative(&self, square: Square, color: Color) -> Square {
        match color {
            Color::White => square,
            Color::Black => Square::new(square.file, self.ranks - 1 - square.rank),
        }
    }
}

/// A named set of squares, resolved for each side.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Region {
    /// The name used in the rules file.
    pub name: String,
    /// The squares for White (`[0]`) and for Black (`[1]`). Equal for an
    /// absolute region; mirrored for a side-relative one.
    pub squares: [SquareSet; 2],
}

impl Region {
    /// The squares of this region for `color`.
    pub fn for_side(&self, color: Color) -> &SquareSet {
        &self.squares[color.index()]
    }
}

/// A kind's bonus per square, in centipawns, from White's side of the
/// board: entry `rank * files + file` (0-based from a1) of the variant's
/// board; Black reads the same table with the ranks reversed. The
/// middlegame table counts with every officer (piece neither royal nor
/// pawn-shaped) of the start on the board, the endgame table with none,
/// and the evaluation moves between them as the officers leave, as it
/// does between a kind's value and its endgame value.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SquareBonuses {
    /// With every officer on the board.
    pub middlegame: Vec<i32>,
    /// With none.
    pub endgame: Vec<i32>,
}

impl SquareBonuses {
    /// The table entry of `square` for `color` on a board of `files` by
    /// `ranks` (`None` off the board).
    pub fn cell(files: u8, ranks: u8, square: Square, color: Color) -> Option<usize> {
        if square.file >= files || square.rank >= ranks {
            return None;
        }
        let rank = match color {
            Color::White => square.rank,
            Color::Black => ranks - 1 - square.rank,
        };
        Some(usize::from(rank) * usize::from(files) + usize::from(square.file))
    }
}

/// One search parameter set for a variant: its name as
/// [`crate::search::params::PARAMS`] lists it, and its value.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SearchSetting {
    pub name: String,
    pub value: i32,
}

/// The bonus of a passed pawn-shaped piece (see the evaluation's structure
/// terms) by its moves to the promotion zone, in centipawns: entry `d` for
/// `d` moves, a count beyond the last entry reading the last. The
/// middlegame table counts with every officer of the start on the board,
/// the endgame table with none, as for [`SquareBonuses`] (a weights file's
/// `passed-table` and `endgame-passed-table`, fitted by `varc tune
/// --squares`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PassedTables {
    pub middlegame: Vec<i32>,
    pub endgame: Vec<i32>,
}

impl PassedTables {
    /// Entries a fit gives: 0 to 15 moves (and more).
    pub const MOVES: usize = 16;

    /// The entry of `table` for `moves` moves to the zone (0 for an empty
    /// table).
    pub fn at(table: &[i32], moves: u32) -> i32 {
        table
            .get(moves as usize)
            .or_else(|| table.last())
            .copied()
            .unwrap_or(0)
    }
}

/// How a royal kind's cover by pawn-shaped pieces counts, in centipawns
/// (a weights file's `cover PIECE` and `storm PIECE`, fitted by `varc tune
/// --squares`). On its file and on each file beside it, the nearest own
/// pawn-shaped piece not behind the royal piece reads `own`, the nearest
/// enemy one `enemy`, at [`RoyalCover::cell`]: its ranks ahead of the royal
/// piece, up to [`RoyalCover::FAR`], or [`RoyalCover::NONE`] where the file
/// has none. The sum counts in full while the enemy has all its material
/// and fades as it leaves, as the royal piece's other safety terms do.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoyalCover {
    /// `RoyalCover::CELLS` entries: the royal piece's own file's
    /// [`RoyalCover::DISTANCES`], then a file beside it.
    pub own: Vec<i32>,
    /// The same for enemy pawn-shaped pieces (a storm).
    pub enemy: Vec<i32>,
}

impl RoyalCover {
    /// Distances told apart per file: 0 to `FAR` ranks ahead, and none.
    pub const DISTANCES: usize = 8;
    /// The last distance counted apart: this many ranks ahead or more.
    pub const FAR: usize = 6;
    /// The entry of a file without such a piece ahead.
    pub const NONE: usize = 7;
    /// Entries per table: two kinds of file.
    pub const CELLS: usize = 2 * RoyalCover::DISTANCES;

    /// The entry for a piece `distance` ranks ahead (`None`: no piece) on
    /// the royal piece's file (`beside` false) or a file beside it.
    pub fn cell(beside: bool, distance: Option<u32>) -> usize {
        let bucket = distance.map_or(RoyalCover::NONE, |d| (d as usize).min(RoyalCover::FAR));
        usize::from(beside) * RoyalCover::DISTANCES + bucket
    }
}

/// A non-royal kind's mobility value per count of squares reached, in
/// centipawns (entry `n` for `n` squares; a count beyond the last entry
/// reads the last entry), in place of the evaluation's linear mobility
/// term. The middlegame table counts with every officer of the start on
/// the board, the endgame table with none, and the evaluation moves
/// between them as the officers leave, as it does for [`SquareBonuses`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MobilityTables {
    /// With every officer on the board.
    pub middlegame: Vec<i32>,
    /// With none.
    pub endgame: Vec<i32>,
}

impl MobilityTables {
    /// The value `table` gives `count` squares reached: its entry, or the
    /// last one for a count beyond it (0 for an empty table).
    pub fn at(table: &[i32], count: usize) -> i32 {
        table
            .get(count)
            .or_else(|| table.last())
            .copied()
            .unwrap_or(0)
    }
}

/// A kind of piece.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PieceKind {
    /// The name used in the rules file (`rooking`).
    pub name: String,
    /// The letter as White writes it in FEN, upper case, possibly with marks
    /// (`R'`). Black's is the lower-case form.
    pub letter: String,
    /// Declared value in pawns, if any.
    pub value: Option<f64>,
    /// Value in pawns once the pieces other than pawn-shaped and royal ones
    /// have left the board (a weights file's `endgame-value`); without
    /// one, the value. The evaluation moves from `value` to it as that
    /// material leaves.
    #[serde(default)]
    pub endgame_value: Option<f64>,
    /// Per-square bonuses a weights file sets (`squares PIECE`, fitted by
    /// `varc tune --squares`), added to the placement the evaluation
    /// derives from the kind's movement; royal kinds may have them too.
    #[serde(default)]
    pub square_bonuses: Option<SquareBonuses>,
    /// Mobility values per count of squares reached that a weights file
    /// sets (`mobility PIECE`, fitted by `varc tune --mobility`), in place
    /// of the linear mobility term; read for non-royal kinds only (royal
    /// pieces have no mobility term).
    #[serde(default)]
    pub mobility_tables: Option<MobilityTables>,
    /// A royal kind's cover by pawn-shaped pieces ([`RoyalCover`]) that a
    /// weights file sets; read for royal kinds only.
    #[serde(default)]
    pub royal_cover: Option<RoyalCover>,
    /// Whether the piece is royal (may not be left attacked under the check rule).
    pub royal: bool,
    /// `confined to REGION`: the piece's moves and attacks end only on the
    /// region's squares (read for its side); a ride may pass outside it
    /// (Fairy-Stockfish's `mobilityRegion`).
    pub confined: Option<RegionId>,
    /// Movement: the union of these atoms.
    pub moves: Vec<MoveAtom>,
    /// `pass` in its movement: the piece may stay on its square as its
    /// side's whole move (janggi's king; written `e2e2`). Legal where the
    /// check rule allows it: not in check, unless royals facing each
    /// other must part.
    #[serde(default)]
    pub passes: bool,
    /// The movement as a Betza string, for protocols that display pieces.
    pub betza: String,
}

/// One part of a piece's movement.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MoveAtom {
    /// How the piece travels along each direction.
    pub motion: Motion,
    /// Offsets `(files, ranks)` relative to the mover: positive ranks are
    /// forward for the side that moves (up for White, down for Black).
    pub directions: Vec<(i8, i8)>,
    /// Whether the atom moves, captures, or both.
    pub mode: MoveMode,
    /// When the atom may be used.
    pub condition: AtomCondition,
    /// What the atom may not pass, jump or capture (`along REGION`, `not
    /// over PIECES`, `not capturing PIECES`); none by default.
    #[serde(default)]
    pub limits: AtomLimits,
}

/// Limits on one movement atom, each written after it in the rules file.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct AtomLimits {
    /// `along REGION`: every square of the move (its start, the squares it
    /// passes or jumps and its destination) lies in the region, read for
    /// the mover's side; squares outside the region end the line as the
    /// board's edge does (janggi's palace diagonals).
    pub along: Option<RegionId>,
    /// `not over PIECES`: a hop's screen may not be a piece of these kinds
    /// (janggi's cannon does not jump a cannon).
    pub not_over: Vec<PieceId>,
    /// `not capturing PIECES`: the atom does not capture, nor attack,
    /// pieces of these kinds (janggi's cannon does not take a cannon).
    pub not_capturing: Vec<PieceId>,
    /// `not from check`: the atom is not used while the mover's side is in
    /// check (cambodian's king leap, Fairy-Stockfish's `cambodianMoves`).
    #[serde(default)]
    pub not_from_check: bool,
}

impl AtomLimits {
    /// Whether the atom has no limit.
    pub fn is_none(&self) -> bool {
        self.along.is_none()
            && self.not_over.is_empty()
            && self.not_capturing.is_empty()
            && !self.not_from_check
    }
}

/// The path of a lame leap by `(dx, dy)`: the offsets, from the start, of
/// the squares that must be empty, in travel order. The leap goes
/// orthogonally along its longer side while that side is the longer, then
/// diagonally: a straight line passes every square between (`(0,2)`
/// passes `(0,1)`, `(2,2)` passes `(1,1)`), the Xiangqi horse's `(1,2)`
/// passes `(0,1)`, the Janggi elephant's `(2,3)` passes `(0,1)` and
/// `(1,2)` (Fairy-Stockfish's lame leaper path).
pub fn lame_leap_path(dx: i32, dy: i32) -> Vec<(i32, i32)> {
    let mut path = Vec::new();
    let (mut file, mut rank) = (0, 0);
    while (file, rank) != (dx, dy) {
        let (left_files, left_ranks) = (dx - file, dy - rank);
        match left_files.abs().cmp(&left_ranks.abs()) {
            std::cmp::Ordering::Greater => file += left_files.signum(),
            std::cmp::Ordering::Less => rank += left_ranks.signum(),
            std::cmp::Ordering::Equal => {
                file += left_files.signum();
                rank += left_ranks.signum();
            }
        }
        if (file, rank) != (dx, dy) {
            path.push((file, rank));
        }
    }
    path
}

/// How a piece travels along a direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Motion {
    /// Jumps straight to the offset, over anything.
    Leap,
    /// Repeats the offset over empty squares, up to `max` steps (no limit if
    /// `None`); may stop on any empty square or capture on the first occupied one.
    Ride {
        /// Longest ride in steps.
        max: Option<u8>,
    },
    /// A leap whose path must be empty: see [`lame_leap_path`] (straight
    /// lines pass every square between; other leaps step orthogonally
    /// first, then diagonally: `(1,2)` passes `(0,1)`, as the Xiangqi
    /// horse, `(2,3)` passes `(0,1)` and `(1,2)`, as the Janggi elephant).
    LameLeap,
    /// Rides along the direction to the first occupied square (the screen),
    /// jumps over it and lands beyond.
    Hop {
        /// Where it may land beyond the screen.
        landing: HopLanding,
    },
}

/// Landing squares of a hopper.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum HopLanding {
    /// Only the square right after the screen (grasshopper).
    Adjacent,
    /// Any empty square beyond the screen, or the first occupied one by
    /// capture (cannon).
    Any,
}

/// Whether an atom moves to an empty square, captures, or both.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum MoveMode {
    /// Moves to empty squares and captures enemy pieces.
    MoveOrCapture,
    /// Only to empty squares.
    MoveOnly,
    /// Only captures.
    CaptureOnly,
}

/// When a movement atom may be used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum AtomCondition {
    /// Always.
    Always,
    /// Only if the piece has not moved yet (pawn double step). In a position
    /// read from FEN, a piece is taken as unmoved when it stands on a square
    /// where the variant's start position has a piece of its kind and colour.
    FirstMove,
    /// Only while the piece stands in the region (for its side).
    InRegion(RegionId),
}

/// Which squares a move has to reach for a promotion rule to apply.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Promotion {
    /// Label given in the rules file, used by `drop`/`replace`.
    pub label: Option<String>,
    /// Piece kinds the rule applies to.
    pub pieces: Vec<PieceId>,
    /// The zone: a move that ends there promotes.
    pub zone: RegionId,
    /// Piece kinds it may become.
    pub choices: Vec<PieceId>,
    /// Whether the player must promote.
    pub obligation: Obligation,
    /// On the same move, or on a later turn.
    pub timing: PromotionTiming,
    /// Choices limited by the number on the board (`only into captured
    /// kinds`): a choice is offered only while the mover has fewer pieces
    /// of its kind than its limit. Empty: no limit.
    #[serde(default)]
    pub limits: Vec<PromotionLimit>,
    /// `starting or ending there`: a move that starts in the zone promotes
    /// too, wherever it ends (Fairy-Stockfish's promotion on leaving the
    /// zone, shogi).
    #[serde(default)]
    pub leaving_too: bool,
    /// `anywhere for the last one`: a side's last piece of the rule's
    /// kinds on the board promotes on any square (sittuyin's last pawn).
    #[serde(default)]
    pub last_anywhere: bool,
    /// `attacking nothing`: a promotion that gives check, or leaves the
    /// promoted piece attacking a piece of the opponent, is not a move
    /// (sittuyin's promotion).
    #[serde(default)]
    pub attacking_nothing: bool,
}

/// How many pieces of a kind a side may have for promotion into it to be
/// offered (Fairy-Stockfish's `promotionLimit`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PromotionLimit {
    /// The kind.
    pub kind: PieceId,
    /// White's limit, then Black's: the number of the kind each side has
    /// in the start position (so a side promotes only into kinds it lost),
    /// or the number of `at most N on the board`.
    pub counts: [u32; 2],
}

impl Promotion {
    /// Whether `color`, with `on_board` pieces of `kind`, may promote into
    /// `kind` under this rule's limits.
    pub fn choice_available(&self, kind: PieceId, color: Color, on_board: u32) -> bool {
        self.limits
            .iter()
            .find(|limit| limit.kind == kind)
            .is_none_or(|limit| on_board < limit.counts[color.index()])
    }
}

/// Whether a promotion must happen.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Obligation {
    /// The piece must promote.
    Mandatory,
    /// The player may keep the piece as it is.
    Optional,
    /// Mandatory unless the condition holds for the mover, then optional (A5).
    MandatoryUnless(Condition),
}

/// When a promotion happens.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum PromotionTiming {
    /// As part of the move that reaches the zone.
    Immediate,
    /// Not on the move that reaches the zone: on a later turn the owner may
    /// promote a piece standing in the zone, as his whole move (Chess 99, D1-D3).
    Delayed {
        /// The promoted piece may then make one more move of this mode in
        /// the same turn (or stay); `None`: no follow-up move.
        follow_up: Option<MoveMode>,
    },
}

/// A castling rule: a king-like piece and a rook-like piece move together.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Castling {
    /// Label given in the rules file.
    pub label: Option<String>,
    /// The piece that moves like the king.
    pub king: PieceId,
    /// The piece that moves like the rook.
    pub rook: PieceId,
    /// Destinations of the castling towards the higher files (O-O).
    pub short: CastlingSide,
    /// Destinations of the castling towards the lower files (O-O-O).
    pub long: CastlingSide,
    /// The king may not castle out of check.
    pub not_from_check: bool,
    /// The king may not pass an attacked square.
    pub not_through_check: bool,
    /// The king may not land on an attacked square.
    pub not_into_check: bool,
    /// Extra requirements (beyond both pieces unmoved, squares between empty).
    pub requirements: Vec<CastlingRequirement>,
    /// The rank (0-based, absolute) on which each side castles, White's
    /// then Black's: the rank its castling king stands on in the start
    /// position (the king's rank; Shako's second rank), else its first rank.
    /// King and rook stand on it and stay on it.
    pub ranks: [u8; 2],
}

/// The files king and rook end on after castling to one side (Chess960 style:
/// always the same files, wherever they started).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CastlingSide {
    /// File the king ends on (0 = `a`).
    pub king_file: u8,
    /// File the rook ends on.
    pub rook_file: u8,
}

/// Extra requirements of a castling rule.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum CastlingRequirement {
    /// The rook may have moved, provided it stands on one of these files on the
    /// king's rank (A10); without this, the rook must be unmoved.
    RookMayHaveMovedOnFiles(Vec<u8>),
    /// The king must carry this lineage mark (A10: a New Heir king).
    KingLineage(Lineage),
}

/// How a piece came to be what it is, as far as rules care (A2, A11).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Lineage {
    /// The kinds this piece has been, oldest first (a king crowned from a
    /// bishop that was promoted from a pawn: `[pawn, bishop]`).
    pub was: Vec<PieceId>,
}

/// Explosions on capture (Fairy-Stockfish's `blastOnCapture`, atomic
/// chess): a capture removes the captured piece, the capturing piece, and
/// every piece within `radius` king steps of the destination whose kind is
/// not `immune`. Under the check rule this also says what is legal: a move
/// may not blow up a royal piece of the mover; a move that blows up a royal
/// piece of the opponent is legal whatever it leaves attacked; and a royal
/// piece within the radius of an opponent's royal piece is not attacked
/// (capturing it would blow up the capturer's own royal piece).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Explosion {
    /// How far the blast reaches, in king steps from the destination.
    pub radius: u8,
    /// Kinds the blast leaves standing (the capturing piece goes anyway).
    pub immune: Vec<PieceId>,
}

impl Explosion {
    /// Whether a blast on `center` reaches `square` (the center included).
    pub fn reaches(&self, center: Square, square: Square) -> bool {
        center.file.abs_diff(square.file) <= self.radius
            && center.rank.abs_diff(square.rank) <= self.radius
    }

    /// Whether the blast removes pieces of `kind` (other than the capturer).
    pub fn destroys(&self, kind: PieceId) -> bool {
        !self.immune.contains(&kind)
    }
}

/// Legality rules.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Legality {
    /// Whether a move may leave one's own royal piece attacked.
    pub check_rule: CheckRule,
    /// Whether a side that can capture must capture.
    pub capture_rule: CaptureRule,
    /// Whether a move may give check.
    pub giving_check: GivingCheck,
    /// Whether royal pieces of the two sides may face each other.
    pub royal_facing: RoyalFacing,
    /// Rules that read the game's history (IRC).
    pub history_rules: Vec<HistoryRule>,
    /// `no piece may stand where it could not move`: a move that does not
    /// promote, or a drop, may not leave the piece on a square from which
    /// it has no move on an otherwise empty board (Fairy-Stockfish's
    /// `immobilityIllegal`; see [`crate::hands::immobile_squares`]).
    #[serde(default)]
    pub immobility_illegal: bool,
    /// `drop-rule compulsory`: while the side to move has a legal drop,
    /// only its drops are legal (Fairy-Stockfish's `mustDrop`: sittuyin's
    /// setup phase, in which each side drops its hand before moving).
    #[serde(default)]
    pub drops_compulsory: bool,
}

/// The check rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CheckRule {
    /// A move may not leave any of the mover's royal pieces attacked.
    RoyalMayNotBeAttacked,
    /// No check rule: royal pieces are captured like any other (A1).
    None,
}

/// Whether royal pieces of the two sides may stand on one file or rank
/// with only empty squares between them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RoyalFacing {
    /// They may (the default).
    Allowed,
    /// They may, but then the side to move must part them or pass
    /// (`royals facing each other must part`: janggi's bikjang,
    /// Fairy-Stockfish's `bikjangRule`): while a royal piece of the side
    /// to move sees an opponent's royal piece along an open file or rank,
    /// a move that leaves them so is illegal unless it is a pass, and a
    /// pass is legal even in check. Facing is no attack.
    MustPart,
    /// They may not (`royals may not face each other`: xiangqi's flying
    /// general, Fairy-Stockfish's `flyingGeneral`): a royal piece that
    /// sees an opponent's royal piece along an open file or rank is
    /// attacked by it, so under the check rule no move may leave the
    /// mover's royal piece facing one, and a royal piece may not step onto
    /// such a line.
    Forbidden,
}

/// The capture rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CaptureRule {
    /// Captures are moves like any other.
    Free,
    /// Captures are compulsory: when the side to move has a legal capture
    /// (en passant included; the check rule applied, history rules not),
    /// only its captures are legal (Fairy-Stockfish's `mustCapture`).
    Compulsory,
}

/// Whether a move may give check.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum GivingCheck {
    /// Moves may give check (the default).
    Allowed,
    /// No move may attack a royal piece of the opponent (Fairy-Stockfish's
    /// `checking = false`, Racing Kings).
    Forbidden,
}

/// A rule that makes moves illegal by the game's history.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HistoryRule {
    /// Label given in the rules file (`irc`), used by `drop`/`replace`.
    pub label: Option<String>,
    /// Which moves the rule forbids.
    pub kind: HistoryRuleKind,
    /// Whether the rule is lifted when every legal move is forbidden by it.
    pub unless_only_such_moves: bool,
    /// Said when the rule refuses a move ("illegal repeated check").
    pub message: String,
}

/// The kinds of history rule.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum HistoryRuleKind {
    /// A move that gives check and makes a placement identical to the one
    /// exactly `plies_ago` plies before (P7: 4).
    RepeatedCheck {
        /// How many plies back the compared placement is.
        plies_ago: u32,
    },
}

/// What happens when a side has lost its last royal piece.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum RoyalLoss {
    /// Not applicable or the game is over: the side to move has no moves.
    EndsGame,
    /// The owner turns one of his `candidates` into `becomes` at the start of
    /// his next turn, then makes an ordinary move in the same turn (A2); the
    /// game ends by the termination rules if he has no candidate.
    Succession {
        /// Piece kinds that may be crowned.
        candidates: Vec<PieceId>,
        /// The royal kind they become.
        becomes: PieceId,
    },
}

/// A per-player counter.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Counter {
    /// The name used in the rules file.
    pub name: String,
    /// Each event that matches adds one to the counter of the player who
    /// made the move (or `credit` says otherwise).
    pub events: Vec<EventPattern>,
    /// `in fen counting down from N`: the counter is a field of the FEN
    /// (after the en passant field, counters in file order), `W+B` with
    /// each player's N minus his count (Fairy-Stockfish's checks remaining
    /// in 3check: `3+3`). `None`: not in the FEN.
    pub fen_countdown: Option<u32>,
    /// `reset on EVENTS`: a move that matches one of these sets the mover's
    /// count back to 0 before the move's own events are counted (shatar's
    /// series of checks, which a move that gives no check ends).
    #[serde(default)]
    pub resets: Vec<EventPattern>,
}

/// Rules about pieces' first moves.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct FirstMoves {
    /// `unmoved pieces in fen`: the FEN's castling field also names, by
    /// file letter, the unmoved pieces on each side's first rank (its
    /// castling rank) other than castling kings and rooks, as
    /// Fairy-Stockfish writes its gating letters (cambodian's `DEde`).
    pub in_fen: bool,
    /// `first-move of PIECES lost when opponent PIECES moves onto its rank
    /// or file`, in file order.
    pub losses: Vec<FirstMoveLoss>,
}

/// `first-move of PIECES lost when opponent PIECES moves onto its rank or
/// file`: after a move by a piece of `by`, every unmoved piece of `pieces`
/// of the opponent on the destination's rank or file (whatever stands
/// between) is moved (Fairy-Stockfish's cambodian king, whose leap is lost
/// once a rook aims at it).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FirstMoveLoss {
    /// The kinds that lose their first move.
    pub pieces: Vec<PieceId>,
    /// The kinds whose move takes it (the moving piece as it left its square).
    pub by: Vec<PieceId>,
}

impl FirstMoves {
    /// Whether any rule ends first moves by an event.
    pub fn has_losses(&self) -> bool {
        !self.losses.is_empty()
    }
}

/// Counting rules (Fairy-Stockfish's `countingRule`): a count of plies,
/// kept for the whole game once it starts, with a limit. A count starts
/// (or starts anew) after a move when a `starts` rule's condition holds
/// and the side it names may count: the first `limits` clause whose
/// condition holds for that side, read with that side to move, gives the
/// limit in moves (twice as many plies) and where the count starts. Each
/// later move adds a ply. `counting over limit` holds once the count has
/// passed its limit. Where a count runs, the FEN writes its limit in
/// plies in place of the en passant field and its plies in place of the
/// halfmove clock, as Fairy-Stockfish does.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Counting {
    /// The limit clauses, in file order; the first that holds decides.
    pub limits: Vec<CountingLimit>,
    /// The rules that start a count, in file order.
    pub starts: Vec<CountingStart>,
}

impl Counting {
    /// Whether the variant has counting rules.
    pub fn in_use(&self) -> bool {
        !self.limits.is_empty() || !self.starts.is_empty()
    }
}

/// `counting limit N moves [from pieces] [when CONDITION]` or `counting
/// limit none when CONDITION`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CountingLimit {
    /// The limit in moves; `None`: the side may not count.
    pub moves: Option<u32>,
    /// `from pieces`: the count starts at the number of pieces on the
    /// board (in moves, as the counting side's turn sees it) instead of 0
    /// (makruk's pieces' honour counting).
    pub from_pieces: bool,
    /// The condition, read with the counting side to move; `None`: always.
    pub when: Option<Condition>,
}

/// `counting starts for PLAYER when CONDITION`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CountingStart {
    /// The side that counts (read after the move: `mover` or `side-to-move`).
    pub player: PlayerRef,
    /// When, read after the move.
    pub when: Condition,
}

/// A kind of game event, with optional restrictions.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum EventPattern {
    /// A capture, of one of these kinds (any kind if empty).
    Capture(Vec<PieceId>),
    /// An en passant capture.
    EnPassant,
    /// A move of one of these kinds (any kind if empty).
    MoveOf(Vec<PieceId>),
    /// A drop from the hand of one of these kinds (any if empty).
    DropOf(Vec<PieceId>),
    /// A promotion from one of `from` (any if empty) into one of `to` (any
    /// if empty).
    Promotion {
        /// Kinds promoted.
        from: Vec<PieceId>,
        /// Kinds promoted into.
        to: Vec<PieceId>,
    },
    /// Castling to the given side (either side if `None`).
    Castle(Option<CastleSide>),
    /// A royal piece is captured.
    RoyalCapture,
    /// A succession: a piece with this lineage (any if empty) is crowned.
    Crowning(Vec<PieceId>),
    /// The move would be checkmate under the Laws of Chess.
    LawsCheckmate,
    /// The move gives check: it attacks a royal piece of the opponent.
    Check,
    /// The move gives check with a piece of one of these kinds among the
    /// pieces that attack the opponent's royal piece (shatar's "shak").
    CheckBy(Vec<PieceId>),
    /// A pass: a piece stayed on its square as the whole move.
    Pass,
    /// The move does not produce the event.
    Not(Box<EventPattern>),
    /// The piece that moved has been each of these kinds (its lineage holds
    /// them all): a New Heir king castling (A11).
    MovedPieceWas(Vec<PieceId>),
    /// Both events happen on the same move.
    Both(Box<EventPattern>, Box<EventPattern>),
}

/// Short (towards the higher files) or long castling.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CastleSide {
    /// O-O.
    Short,
    /// O-O-O.
    Long,
}

/// A player as rules name them, relative to the moment a rule is evaluated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum PlayerRef {
    /// The side to move now.
    SideToMove,
    /// The side that is not to move (the one that made the last move).
    Opponent,
    /// White.
    White,
    /// Black.
    Black,
}

/// How a material or counter quantity is taken over the players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Aggregate {
    /// One player's figure.
    Of(PlayerRef),
    /// The larger of the two players' figures.
    Max,
    /// The smaller of the two.
    Min,
}

/// A comparison operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Comparison {
    /// `<`
    Less,
    /// `<=`
    LessEqual,
    /// `==`
    Equal,
    /// `>=`
    GreaterEqual,
    /// `>`
    Greater,
}

/// Which pieces a material count counts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum PieceFilter {
    /// Every piece.
    All,
    /// Only these kinds.
    Only(Vec<PieceId>),
    /// All but these kinds.
    Except(Vec<PieceId>),
}

/// A condition over the position, its history and the clocks.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Condition {
    /// The side to move has no legal move.
    NoLegalMoves,
    /// The side to move is this colour.
    ToMove(Color),
    /// The side to move has a legal move of one of these kinds that ends
    /// in the region (read for the side to move).
    CanMoveInto {
        /// The kinds.
        pieces: Vec<PieceId>,
        /// The region.
        region: RegionId,
    },
    /// A royal piece of the side to move is attacked.
    InCheck,
    /// The side to move is in check and every piece that attacks its royal
    /// pieces is of one of these kinds (shatar: a mate given by knights
    /// alone is not a win).
    InCheckByOnly(Vec<PieceId>),
    /// The side to move has no royal piece left.
    RoyalCaptured,
    /// The position has occurred `count` times (Laws-of-Chess identity:
    /// placement, side to move, castling rights, en passant possibility).
    Repetition {
        /// Occurrences including the current one.
        count: u32,
        /// Only occurrences with no irreversible move between them (A8).
        in_a_row: bool,
    },
    /// At least `plies` plies since the last reset event.
    PliesSinceReset(u32),
    /// Number of pieces matching the filter, taken over the players.
    Material {
        /// Whose count.
        of: Aggregate,
        /// Which pieces count.
        filter: PieceFilter,
        /// Only the pieces standing in this region, read for their own
        /// side (`white pieces of king in hill >= 1`).
        region: Option<RegionId>,
        /// The comparison.
        comparison: Comparison,
        /// The number compared with.
        value: u32,
    },
    /// Only royal pieces are left on the board.
    OnlyRoyalsLeft,
    /// The pieces other than royal ones are one of these material sets (each
    /// set: for the stronger side, the list of kinds; the other has only royals).
    InsufficientMaterial(Vec<Vec<PieceId>>),
    /// A counter compared with a number.
    Counter {
        /// Which counter.
        counter: CounterId,
        /// Whose count.
        of: Aggregate,
        /// The comparison.
        comparison: Comparison,
        /// The number compared with.
        value: u32,
    },
    /// `royals face each other`: a royal piece of one side sees one of the
    /// other along a file or rank with only empty squares between them
    /// (janggi's bikjang).
    RoyalsFace,
    /// `PLAYER points lead CMP N`: the player's points minus the
    /// opponent's, each the sum over its pieces on the board of their
    /// kind's points (`points` statement), compared with N (janggi's
    /// material counting).
    PointsLead {
        /// Whose lead.
        of: PlayerRef,
        /// Points per kind (0 for kinds the statement leaves out).
        points: Vec<u32>,
        /// The comparison.
        comparison: Comparison,
        /// The number compared with.
        value: u32,
    },
    /// The player's clock shows less than this many seconds (false without clocks).
    ClockBelow {
        /// Whose clock.
        of: PlayerRef,
        /// Seconds.
        seconds: u32,
    },
    /// The last move produced this event.
    LastMove(EventPattern),
    /// A count of the counting rules runs ([`Counting`]).
    Counting,
    /// The running count has passed its limit.
    CountingOverLimit,
    /// Both conditions.
    And(Box<Condition>, Box<Condition>),
    /// Either condition.
    Or(Box<Condition>, Box<Condition>),
    /// The condition does not hold.
    Not(Box<Condition>),
}

impl PlayerRef {
    /// The same player seen from the other side's turn: the side to move
    /// and the opponent change places; colours stay.
    pub fn swapped(self) -> PlayerRef {
        match self {
            PlayerRef::SideToMove => PlayerRef::Opponent,
            PlayerRef::Opponent => PlayerRef::SideToMove,
            PlayerRef::White => PlayerRef::White,
            PlayerRef::Black => PlayerRef::Black,
        }
    }
}

impl Aggregate {
    /// [`PlayerRef::swapped`] for the player it names, if any.
    pub fn swapped(self) -> Aggregate {
        match self {
            Aggregate::Of(player) => Aggregate::Of(player.swapped()),
            Aggregate::Max => Aggregate::Max,
            Aggregate::Min => Aggregate::Min,
        }
    }
}

impl Condition {
    /// The condition as it reads with the other side to move: every
    /// `side-to-move` becomes `opponent` and the reverse (a counting
    /// rule's limit read for the side that has just moved).
    pub fn with_sides_swapped(&self) -> Condition {
        match self {
            Condition::Material {
                of,
                filter,
                region,
                comparison,
                value,
            } => Condition::Material {
                of: of.swapped(),
                filter: filter.clone(),
                region: *region,
                comparison: *comparison,
                value: *value,
            },
            Condition::Counter {
                counter,
                of,
                comparison,
                value,
            } => Condition::Counter {
                counter: *counter,
                of: of.swapped(),
                comparison: *comparison,
                value: *value,
            },
            Condition::ClockBelow { of, seconds } => Condition::ClockBelow {
                of: of.swapped(),
                seconds: *seconds,
            },
            Condition::PointsLead {
                of,
                points,
                comparison,
                value,
            } => Condition::PointsLead {
                of: of.swapped(),
                points: points.clone(),
                comparison: *comparison,
                value: *value,
            },
            Condition::And(a, b) => Condition::And(
                Box::new(a.with_sides_swapped()),
                Box::new(b.with_sides_swapped()),
            ),
            Condition::Or(a, b) => Condition::Or(
                Box::new(a.with_sides_swapped()),
                Box::new(b.with_sides_swapped()),
            ),
            Condition::Not(a) => Condition::Not(Box::new(a.with_sides_swapped())),
            Condition::NoLegalMoves
            | Condition::ToMove(_)
            | Condition::CanMoveInto { .. }
            | Condition::InCheck
            | Condition::InCheckByOnly(_)
            | Condition::RoyalCaptured
            | Condition::Repetition { .. }
            | Condition::PliesSinceReset(_)
            | Condition::OnlyRoyalsLeft
            | Condition::InsufficientMaterial(_)
            | Condition::LastMove(_)
            | Condition::Counting
            | Condition::CountingOverLimit
            | Condition::RoyalsFace => self.clone(),
        }
    }
}

/// The outcome of a game-ending rule.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Outcome {
    /// This player wins.
    Win(PlayerRef),
    /// A draw (turned into a decisive result by the tiebreak, if any).
    Draw,
    /// A null game: no result.
    NullGame,
    /// The game ends with no result beyond the wins awarded so far (for
    /// `score by wins`; under points scoring it scores as a draw).
    GameOver,
    /// The first outcome if the condition holds, else the second.
    If(Condition, Box<Outcome>, Box<Outcome>),
}

/// Whether a termination happens by itself or a player must claim it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Trigger {
    /// The game ends as soon as the condition holds.
    Automatic,
    /// The side to move may claim the outcome while the condition holds.
    Claim,
}

/// A rule that ends the game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Termination {
    /// Label given in the rules file, used by `drop`/`replace`.
    pub label: Option<String>,
    /// When it applies.
    pub condition: Condition,
    /// Automatic or by claim.
    pub trigger: Trigger,
    /// What it leads to.
    pub outcome: Outcome,
    /// The reason in words ("checkmate", "stalemate wins").
    pub reason: String,
    /// Whether the tiebreak may turn a draw of this rule into a win (A3).
    pub tiebreak_applies: bool,
}

/// A special win awarded during the game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Award {
    /// Label (also the name said in records: "True 5 Queens").
    pub name: String,
    /// Number of wins awarded.
    pub wins: u32,
    /// Who gets them (relative to the position after the move: `Opponent`
    /// is the player who just moved).
    pub to: PlayerRef,
    /// When it is awarded (checked after each move).
    pub when: Condition,
    /// Whether it can be awarded only once per player per game.
    pub once: bool,
    /// Whether it ends the game.
    pub ends_game: bool,
    /// Awards it does not stack with: the player gets the better one.
    pub not_stackable_with: Vec<String>,
}

/// When players may agree to a draw.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Agreement {
    /// Never.
    Never,
    /// Always.
    Always,
    /// Only while the condition holds (P10).
    When(Condition),
}

/// What a resignation gives the opponent.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Resignation {
    /// The opponent wins.
    OpponentWins,
    /// The opponent is awarded `base` wins plus `per_count` for each unit of
    /// his `counter` (A4: 1 + 2 per king he had captured), and the game ends.
    AwardWins {
        /// Wins awarded in any case.
        base: u32,
        /// Wins per unit of the counter.
        per_count: u32,
        /// The opponent's counter read.
        counter: CounterId,
    },
}

/// Material counts that decide a draw (A3).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Tiebreak {
    /// Points per piece kind.
    pub values: Vec<(PieceId, u32)>,
    /// Points for a kind that stands in a region, replacing its plain value.
    pub region_values: Vec<(PieceId, RegionId, u32)>,
    /// Points per unit of a counter of the player.
    pub counter_values: Vec<(CounterId, u32)>,
    /// Wins awarded to the higher count; equal counts stay a draw.
    pub wins: u32,
}

/// How a game's outcome scores.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Scoring {
    /// Points per outcome for each player.
    Points {
        /// For a win.
        win: f64,
        /// For a draw.
        draw: f64,
        /// For a loss.
        loss: f64,
        /// For a null game.
        null: f64,
    },
    /// Each player's score is his number of wins (A13).
    Wins,
}

/// A match-level rule.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum MatchRule {
    /// After a null game, a new game follows with the same colours; clocks
    /// are not reset and the match's added time goes to both (P9).
    ReplayNullGame {
        /// Colours stay the same.
        same_colours: bool,
    },
    /// After `count` null games in a row, this player wins by forfeit.
    ForfeitAfterNulls {
        /// Consecutive null games.
        count: u32,
        /// Who wins.
        winner: PlayerRef,
    },
    /// In casual play a null game counts as a draw.
    CasualNullIsDraw,
}
