//! What a generated engine provides: the [`CompiledVariant`] trait. The
//! code generator implements it once per variant with the variant's tables
//! and its per-kind movement, attack and safety functions; everything else
//! in this crate is generic over it and monomorphised per variant.

use crate::bitboard::Bitboard;
use crate::moves::Sink;
use crate::position::{Masks, Pos};
use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{Index, IndexMut};
use varc_runtime::model::Variant;

/// A castling rule as data (one per castling king and rook kind).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CastlingRule {
    /// The king's kind.
    pub king: u8,
    /// The rook's kind.
    pub rook: u8,
    /// King and rook destination files of the short castling.
    pub short: (usize, usize),
    /// King and rook destination files of the long castling.
    pub long: (usize, usize),
    /// The king may not castle out of check.
    pub not_from_check: bool,
    /// The king may not pass an attacked square.
    pub not_through_check: bool,
    /// The king may not land on an attacked square.
    pub not_into_check: bool,
    /// Bit `f`: a rook on file `f` may castle even if it moved.
    pub loose_rook_files: u16,
    /// The king must have been these kinds (most recent last).
    pub king_lineage: Option<&'static [u8]>,
    /// The rank each side castles on, White's then Black's (the model's
    /// `Castling::ranks`).
    pub ranks: [usize; 2],
}

/// What a delayed promotion lets the promoted piece do next (Chess 99, D3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FollowUp {
    /// The promotion is the whole move.
    None,
    /// One move or capture of the promoted piece.
    MoveOrCapture,
    /// One non-capturing move.
    MoveOnly,
    /// One capture.
    CaptureOnly,
}

/// A promotion rule as data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PromotionRule {
    /// Kinds it may become.
    pub choices: &'static [u8],
    /// Whether the player may keep the piece.
    pub optional: bool,
    /// Whether it happens on a later turn, and then what may follow it.
    pub delayed: Option<FollowUp>,
    /// Per choice, White's and Black's limit (`only into captured kinds`:
    /// a choice is offered only while the mover has fewer of its kind);
    /// empty: no limit.
    pub limits: &'static [[u32; 2]],
    /// `attacking nothing`: a promotion that gives check, or leaves the
    /// promoted piece attacking a piece of the opponent, is not a move.
    pub attacking_nothing: bool,
}

/// A history rule (P7's Illegal Repeated Check): a move that gives check
/// and makes the placement of exactly `plies_ago` plies before is illegal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HistoryRule {
    /// How many plies back the repeated placement lies.
    pub plies_ago: u32,
    /// The rule is lifted when every legal move is such a move.
    pub unless_only_such_moves: bool,
}

/// `first-move of PIECES lost when opponent PIECES moves onto its rank or
/// file`, as kind sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FirstMoveLossRule {
    /// Bit `k` set: unmoved pieces of kind `k` lose their first move.
    pub pieces: u128,
    /// Bit `k` set: a move of a piece of kind `k` takes it.
    pub by: u128,
}

/// A side's loss of all its royal pieces (A2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Succession {
    /// The kind a candidate is crowned into.
    pub becomes: u8,
    /// Bit `k` set: kind `k` may be crowned.
    pub candidates: u128,
}

/// Something kept per square, or nothing: the lineages (the kinds each
/// piece has been), kept only where the variant's rules read them, and the
/// mailbox of square codes, kept only where the position is large anyway
/// (a position of at most 128 bytes is copied without a call to `memcpy`,
/// copy-make's main cost; its codes are read from the square sets).
/// `[T; N]` keeps; [`NotKept`] keeps nothing and reads as `T::default()`.
pub trait SquareStore<T>: Copy + Debug + Eq + Hash + Send + Sync + 'static {
    /// Every square at `T::default()`.
    const EMPTY: Self;
    /// Whether anything is kept.
    const KEPT: bool;
    /// The value on `square`.
    fn get(&self, square: usize) -> T;
    /// Sets the value on `square`.
    fn set(&mut self, square: usize, value: T);
}

/// The store of what a variant does not keep.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct NotKept;

impl<T: Default> SquareStore<T> for NotKept {
    const EMPTY: Self = NotKept;
    const KEPT: bool = false;
    #[inline(always)]
    fn get(&self, _square: usize) -> T {
        T::default()
    }
    #[inline(always)]
    fn set(&mut self, _square: usize, _value: T) {}
}

macro_rules! kept_per_square {
    ($value:ty, $zero:expr) => {
        impl<const N: usize> SquareStore<$value> for [$value; N] {
            const EMPTY: Self = [$zero; N];
            const KEPT: bool = true;
            #[inline(always)]
            fn get(&self, square: usize) -> $value {
                self[square]
            }
            #[inline(always)]
            fn set(&mut self, square: usize, value: $value) {
                self[square] = value;
            }
        }
    };
}

kept_per_square!(u8, 0);
kept_per_square!([u8; 4], [0; 4]);

/// A fixed-size array the generated code sizes (per kind, per square, per
/// pin line), indexed by `usize`.
pub trait Table<T>:
    Copy + Debug + Eq + Hash + Send + Sync + 'static + Index<usize, Output = T> + IndexMut<usize>
{
}

impl<T: Copy + Debug + Eq + Hash + Send + Sync + 'static, const N: usize> Table<T> for [T; N] {}

/// One variant, as the code generator compiles it. Squares are dense
/// indices (`rank * FILES + file`); colours are 0 (White) and 1 (Black);
/// a square's code is 0 (empty) or `1 + kind * 2 + colour`.
pub trait CompiledVariant: Copy + Debug + Default + Eq + Hash + Send + Sync + 'static {
    /// The square-set type sized to the board.
    type Bb: Bitboard;
    /// One square set per kind: `[Bb; KINDS]`.
    type KindSets: Table<Self::Bb>;
    /// One square code per square (`[u8; SQUARES]`), or [`NotKept`].
    type Codes: SquareStore<u8>;
    /// One line per possible pin: `[Bb; MAX_PINS]`.
    type PinLines: Table<Self::Bb>;
    /// The pinned piece of each pin line: `[u8; MAX_PINS]`.
    type PinSquares: Table<u8>;
    /// The lineage on each square (count, then up to three kinds, oldest
    /// first), or [`NotKept`] when no rule reads lineages.
    type Lineages: SquareStore<[u8; 4]>;
    /// The per-player counters: `[u32; COUNTERS]`.
    type Counters: Table<u32> + AsRef<[u32]> + AsMut<[u32]>;
    /// A side's pieces in hand, counted by kind: `[u8; KINDS]` in a
    /// variant with hands, else `[u8; 0]` (nothing kept, nothing copied).
    type Hand: Table<u8> + AsRef<[u8]> + AsMut<[u8]>;

    /// Files of the board.
    const FILES: usize;
    /// Ranks of the board.
    const RANKS: usize;
    /// Squares of the board rectangle.
    const SQUARES: usize;
    /// Number of piece kinds.
    const KINDS: usize;
    /// The squares of the board (holes excluded).
    const BOARD: Self::Bb;
    /// Every kind's empty set.
    const NO_KIND_SETS: Self::KindSets;
    /// No pin line.
    const NO_PIN_LINES: Self::PinLines;
    /// No pinned square.
    const NO_PIN_SQUARES: Self::PinSquares;
    /// Every counter at zero.
    const NO_COUNTERS: Self::Counters;
    /// An empty hand.
    const NO_HAND: Self::Hand;
    /// Bit `k` set: kind `k` is royal.
    const ROYAL_KINDS: u128;
    /// Whether royal pieces may not be left attacked.
    const CHECK_RULE: bool;
    /// Whether captures are compulsory: a side that has a legal capture
    /// may make only captures.
    const COMPULSORY_CAPTURE: bool;
    /// Whether drops are compulsory: a side that has a legal drop may
    /// make only drops (Fairy-Stockfish's `mustDrop`).
    const COMPULSORY_DROPS: bool;
    /// Whether no move may give check (attack a royal piece of the
    /// opponent).
    const NO_CHECKS: bool;
    /// Whether royal pieces of the two sides may not face each other on an
    /// open file or rank (such a royal piece counts as attacked).
    const ROYALS_FACE: bool;
    /// Explosions on capture: the blast's radius in king steps (the
    /// capturer and every piece within it of a kind not in
    /// [`CompiledVariant::BLAST_IMMUNE_KINDS`] go), or `None`.
    const EXPLOSION_RADIUS: Option<u8> = None;
    /// Bit `k` set: a blast leaves pieces of kind `k` standing.
    const BLAST_IMMUNE_KINDS: u128 = 0;
    /// Bit `k` set: kind `k` creates and captures en passant.
    const EN_PASSANT_KINDS: u128;
    /// Bit `k` set: kind `k` castles as the king (moving it loses the rights).
    const CASTLING_KINGS: u128;
    /// What a side that lost its royal pieces does, if it goes on.
    const SUCCESSION: Option<Succession>;
    /// Per colour, the squares where a move may promote at once: every
    /// immediate promotion zone of every kind.
    const PROMOTION_SQUARES: [Self::Bb; 2];
    /// Per capturing colour, the squares en passant may capture onto (the
    /// board unless the variant limits it: `en-passant PIECES onto REGION`).
    const EN_PASSANT_ZONE: [Self::Bb; 2];
    /// The castling rules.
    const CASTLING_RULES: &'static [CastlingRule];
    /// The promotion rules, in the model's order.
    const PROMOTION_RULES: &'static [PromotionRule];
    /// The history rules, in the model's order.
    const HISTORY_RULES: &'static [HistoryRule];

    /// The variant's model (for the rules above move generation).
    fn model() -> Variant;
    /// Zobrist key of the piece `code` on `square`.
    fn zobrist_piece(code: u8, square: usize) -> u64;
    /// What an unmoved piece `code` on `square` adds to its Zobrist key
    /// (for the transposition key, [`varc_runtime::search::tt::piece_key`]).
    fn zobrist_unmoved(code: u8, square: usize) -> u64;
    /// The first promotion rule that applies to a piece of `kind` and
    /// `color` arriving on `square`, or 255.
    fn first_promotion(kind: usize, color: usize, square: usize) -> u8;

    /// Where a piece of `kind` and `color` on `from` can go, with
    /// `occupied` as the occupancy: `[move or capture, move only, capture only]`.
    fn reach(
        kind: usize,
        color: usize,
        pos: &Pos<Self>,
        from: usize,
        occupied: Self::Bb,
    ) -> [Self::Bb; 3];
    /// Bit `k` set: `visit_reaches` visits every piece of kind `k`, both
    /// sides', before the pieces of the kinds not set (the evaluation's
    /// guards, so that their captures are known before the pieces they
    /// bound: [`ReachVisitor::guards`](varc_runtime::rules::ReachVisitor::guards)).
    const KINDS_FIRST: u64 = 0;
    /// Calls `visit.reach(kind, color, from, reach)` for every piece,
    /// `reach` as [`CompiledVariant::reach`] gives it (with a direct call
    /// per kind), the kinds of [`CompiledVariant::KINDS_FIRST`] first.
    fn visit_reaches<F: ReachSink<Self::Bb>>(pos: &Pos<Self>, occupied: Self::Bb, visit: &mut F);
    /// Whether a piece of `color` attacks `square` (stops at the first attacker found).
    fn is_attacked(pos: &Pos<Self>, square: usize, occupied: Self::Bb, color: usize) -> bool;
    /// The pieces of `color` that attack `square` with `occupied` as the
    /// occupancy (read from `pos`: pieces off `occupied` are not taken
    /// out, the caller masks them).
    fn attackers(pos: &Pos<Self>, square: usize, occupied: Self::Bb, color: usize) -> Self::Bb;
    /// Check and pin masks when they decide legality (the check rule holds,
    /// every attack is a leap or a ride, the side to move has exactly one
    /// royal piece), written into `masks`; `false` (and `masks` unchanged)
    /// when moves must be tried.
    fn fast_masks(pos: &Pos<Self>, masks: &mut Masks<Self>) -> bool;
    /// The ordinary moves of the side to move's pieces under `masks`.
    fn piece_moves<S: Sink<Self::Bb>>(pos: &Pos<Self>, sink: &mut S, masks: &Masks<Self>);
    /// The delayed promotions of the side to move (Chess 99): each piece in
    /// its rule's zone, through [`crate::special::delayed_promotion_moves`].
    fn delayed_promotions<S: Sink<Self::Bb>>(pos: &Pos<Self>, sink: &mut S, verify: bool);

    /// Whether any kind is royal.
    const HAS_ROYAL_KINDS: bool = Self::ROYAL_KINDS != 0;

    /// Bit `k` set: pieces of kind `k` may pass (`pass` in their movement:
    /// stay on their square as the whole move, a normal move with `from ==
    /// to`).
    const PASSING_KINDS: u128 = 0;
    /// Whether royals facing each other must part (janggi's bikjang): while
    /// the side to move's royal piece faces an opponent's along an open
    /// line, only a pass or a move that parts them is legal, and a pass is
    /// legal even in check.
    const ROYALS_MUST_PART: bool = false;

    /// Whether the position has hands (`captures go to hand` or drops).
    const HANDS: bool = false;
    /// Whether captured pieces go to the capturer's hand.
    const CAPTURES_TO_HAND: bool = false;
    /// Whether they go there demoted: a promoted piece as the first kind of
    /// its lineage (which the variant then keeps).
    const DEMOTES: bool = false;
    /// Per kind, per side: the squares it may be dropped on (none for a
    /// kind no drop rule names; empty slice without drops).
    const DROP_SQUARES: &'static [[Self::Bb; 2]] = &[];
    /// Per kind, per side: the squares where a dropped piece starts
    /// unmoved ([`varc_runtime::hands::dropped_unmoved`]).
    const UNMOVED_DROPS: &'static [[Self::Bb; 2]] = &[];
    /// Per kind, per side: the squares it may enter `by gating` (none for
    /// a kind no gating rule names; empty slice without gating).
    const GATE_SQUARES: &'static [[Self::Bb; 2]] = &[];
    /// Per kind: whether its drop rule says `no two on a file` (empty
    /// slice without such a rule).
    const DROP_NO_TWO_ON_A_FILE: &'static [bool] = &[];
    /// Per file, its squares (read by `no two on a file`; empty slice
    /// without such a rule).
    const FILE_SQUARES: &'static [Self::Bb] = &[];
    /// The `first-move of ... lost when ...` rules (none by default).
    const FIRST_MOVE_LOSSES: &'static [FirstMoveLossRule] = &[];
}

/// What [`CompiledVariant::visit_reaches`] hands each piece to. A trait,
/// not a closure, so that its method can be `#[inline(always)]`: the
/// evaluation's per-piece step then sits in the generated per-kind loops
/// however large it grows (a closure is inlined only while it is small).
pub trait ReachSink<Bb> {
    /// One piece of `kind` and `color` on `from`, reaching `reach`
    /// (`[move or capture, move only, capture only]`).
    fn reach(&mut self, kind: usize, color: usize, from: usize, reach: [Bb; 3]);
}
