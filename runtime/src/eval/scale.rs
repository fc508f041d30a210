//! Endgame scaling: how much of its lead the side ahead can hope to turn
//! into a win, as a factor on the evaluation (in 64ths), read from its
//! material and the variant's draw rules.
//!
//! An evaluation adds up what each side has; it does not know that a lone
//! bishop cannot mate, that a rook against a bishop is seldom won, or that bishops on squares of opposite colours hold many a pawn down. A
//! search finds these only at its horizon, so a position it cannot
//! resolve is played on as if a lead were a lead. Measured against
//! Fairy-Stockfish's static evaluation on positions it labelled, nearly
//! all of varc's extra loss was in positions with little material left.
//!
//! The rules (Stockfish's scale factors, stated with the model's words
//! instead of chess's pieces), for the side ahead, the *strong* side:
//! - Pawn-shaped pieces all on one edge file, whose promotion square none
//!   of the strong side's other pieces can ever reach (they are all of
//!   colour-bound kinds, on the other colour, or there are none), with a
//!   royal piece of the weak side on or beside that square: 0. The wrong
//!   bishop and the rook's pawn; the king in the corner holds.
//! - With no pawn-shaped piece (one that promotes), a strong side whose
//!   other pieces are one of the variant's insufficient sets (`end when
//!   insufficient material bishop | knight ...`) cannot win: 0. Else, a
//!   lead of at most a minor piece (the most valuable officer kind worth
//!   less than 5/4 of the least valuable one) wins seldom: 0 with less
//!   than 5/4 of a minor left, 4 where the weak side has at most a minor,
//!   14 otherwise.
//! - Bishops on squares of opposite colours (each side one piece of a
//!   colour-bound kind, on squares of different colours): with no other
//!   officers, `16 + 4 × passed pawn-shaped pieces`; with others,
//!   `22 + 3 × the strong side's pieces`.
//! - Otherwise fewer pawn-shaped pieces convert less: `36 + 7 × the strong
//!   side's` (64 from four on).
//!
//! The factor weighs on the endgame's share of the evaluation, as the
//! endgame values do, but sooner: it fades in as the officers leave and
//! weighs in full once two thirds of their material is gone (Stockfish's
//! phase, too, is all endgame well before the last officer leaves).
//!
//! Not done: shrinking the evaluation as the fifty-move count runs (as
//! Stockfish does). It lowered the loss against labelled positions a
//! little, but every quiet move then lowers the side ahead's value, so
//! the search's "improving" (the static value against two plies before)
//! fails along quiet lines and prunes more there: the interpreter with the
//! default weights no longer found the mate in two of
//! `tests/engine_search.rs` (king and rook) at depth 5.
//!
//! The scaling is on where the variant's weights file says
//! `endgame-scaling = on` ([`Variant::endgame_scaling`]): weights fitted
//! without it misjudge positions it shrinks, and a rules file alone
//! evaluates each term as [`crate::eval`] documents it. Even then, only
//! variants won by mating (or by taking a royal piece), with pawn-shaped
//! kinds and without hands, are scaled (`Scaling::new`): a lone bishop can
//! win where a region, checks or bare royal pieces decide, and what is in
//! hand may come back.

use crate::model::{Color, Condition, Outcome, PieceId, Square, SquareSet, Variant};

/// The factor that leaves the evaluation as it is.
pub(super) const FULL: i32 = 64;

/// What the scaling reads of the variant.
#[derive(Clone, Debug, Default)]
pub(super) struct Scaling {
    /// The insufficient sets of the variant's draw rules: the kinds a
    /// side has besides its royal pieces that cannot win.
    insufficient: Vec<Vec<PieceId>>,
    /// The longest of them.
    longest_set: usize,
    /// The value of a minor piece (see the module's text); 0 without
    /// officers.
    minor: i32,
    /// Whether the rules above hold in the variant at all (see
    /// [`Scaling::new`]).
    applies: bool,
    /// `[colour][0 first file, 1 last file]`: where that side's
    /// pawn-shaped pieces on the edge file promote.
    corners: [[Option<Square>; 2]; 2],
    /// The board's files.
    files: usize,
}

/// What one evaluation knows of each side, per colour index.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct SideCounts {
    /// Pawn-shaped pieces.
    pub pawns: [i32; 2],
    /// Officers (neither royal nor pawn-shaped), and their material (the
    /// game phase reads it too).
    pub officers: [i32; 2],
    pub officer_material: [i32; 2],
    /// Pieces of colour-bound kinds, and the colours of the squares they
    /// stand on (bit `c` for colour `c`, the parity of file plus rank).
    pub bound: [i32; 2],
    pub bound_shades: [u8; 2],
}

impl Scaling {
    /// The scaling of `variant`, whose minor piece is worth `minor` (the
    /// most valuable officer kind worth less than 5/4 of the least
    /// valuable one; 0 without officers); `pawn_shaped` whether it
    /// has pawn-shaped kinds, `corners` where they promote on the edge
    /// files (`[colour][first file, last file]`).
    ///
    /// Material converts into a win by promoting and mating; where a game
    /// is won otherwise (a region reached, checks counted, all pieces
    /// lost, a bare royal piece), a lone minor piece or a pawnless lead may
    /// well win, so the scaling applies only where every rule that wins is
    /// a mate (no legal move in check) or a royal piece's capture, the
    /// variant has pawn-shaped kinds, and no hands; and only where the
    /// weights turn it on.
    pub(super) fn new(
        variant: &Variant,
        minor: i32,
        pawn_shaped: bool,
        hands: bool,
        corners: [[Option<Square>; 2]; 2],
    ) -> Scaling {
        let wins_by_mate = variant
            .terminations
            .iter()
            .all(|rule| !may_win(&rule.outcome) || is_mate(&rule.condition));
        let mut insufficient = Vec::new();
        for rule in &variant.terminations {
            if !matches!(rule.outcome, Outcome::Draw) {
                continue;
            }
            if let Condition::InsufficientMaterial(sets) = &rule.condition {
                insufficient.extend(sets.iter().cloned());
            }
        }
        Scaling {
            longest_set: insufficient.iter().map(Vec::len).max().unwrap_or(0),
            insufficient,
            minor,
            applies: variant.endgame_scaling && wins_by_mate && pawn_shaped && !hands,
            corners,
            files: usize::from(variant.board.files),
        }
    }

    /// Whether the weak side holds the corner against `strong`, whose
    /// pawn-shaped pieces all stand on `file` and whose other pieces are
    /// all colour-bound, on squares of the colours `shades` (bit `c` for
    /// colour `c`): the file is an edge file, none of those pieces can
    /// reach its promotion square, and one of `weak_royals` stands on it or
    /// beside it.
    pub(super) fn holds_corner(
        &self,
        strong: Color,
        file: usize,
        shades: u8,
        weak_royals: SquareSet,
    ) -> bool {
        let edge = match file {
            0 => 0,
            f if f + 1 == self.files => 1,
            _ => return false,
        };
        let Some(corner) = self.corners[strong.index()][edge] else {
            return false;
        };
        let shade = (corner.file + corner.rank) & 1;
        shades & (1 << shade) == 0
            && weak_royals.iter().any(|royal| {
                royal.file.abs_diff(corner.file) <= 1 && royal.rank.abs_diff(corner.rank) <= 1
            })
    }

    /// Whether the variant's evaluations are scaled at all.
    pub(super) fn applies(&self) -> bool {
        self.applies
    }

    /// Whether a side with `officers` pieces besides its royal and
    /// pawn-shaped ones may be holding one of the insufficient sets (the
    /// caller then lists its kinds for [`Scaling::is_insufficient`]).
    pub(super) fn may_be_insufficient(&self, officers: i32) -> bool {
        officers > 0 && officers as usize <= self.longest_set
    }

    /// Whether `kinds` (a side's pieces besides its royal ones, in any
    /// order) are one of the insufficient sets.
    pub(super) fn is_insufficient(&self, kinds: &[PieceId]) -> bool {
        let times = |list: &[PieceId], kind: PieceId| list.iter().filter(|&&k| k == kind).count();
        self.insufficient.iter().any(|set| {
            set.len() == kinds.len()
                && set
                    .iter()
                    .all(|&kind| times(set, kind) == times(kinds, kind))
        })
    }

    /// The factor for the strong side `s` (a colour index) of `counts`, in
    /// 64ths; `insufficient` whether its pieces are an insufficient set,
    /// `corner` whether the weak side holds the corner
    /// ([`Scaling::holds_corner`]), `passed` how many passed pawn-shaped
    /// pieces both sides have (asked for only with opposite-coloured
    /// bishops alone).
    pub(super) fn factor(
        &self,
        counts: &SideCounts,
        s: usize,
        insufficient: bool,
        corner: bool,
        passed: impl FnOnce() -> i32,
    ) -> i32 {
        if corner {
            return 0;
        }
        let w = 1 - s;
        let material = counts.officer_material;
        if counts.pawns[s] == 0 {
            if insufficient {
                return 0;
            }
            if self.minor > 0 && material[s] - material[w] <= self.minor {
                return if 4 * material[s] < 5 * self.minor {
                    0
                } else if material[w] <= self.minor {
                    4
                } else {
                    14
                };
            }
        }
        let opposite_bishops =
            counts.bound == [1, 1] && counts.bound_shades[0] != counts.bound_shades[1];
        if opposite_bishops {
            if counts.officers == [1, 1] {
                return (16 + 4 * passed()).min(FULL);
            }
            return (22 + 3 * (counts.pawns[s] + counts.officers[s])).min(FULL);
        }
        (36 + 7 * counts.pawns[s]).min(FULL)
    }

    /// The share of an evaluation kept, as a fraction `(numerator,
    /// denominator)`: the factor applied to the endgame's share
    /// (`endgame` in 256ths, counted half as much again).
    pub(super) fn share(&self, factor: i32, endgame: i32) -> (i64, i64) {
        // In full once two thirds of the officers' material has left.
        let endgame = (endgame * 3 / 2).clamp(0, 256);
        let numerator = i64::from(FULL * 256 - (FULL - factor) * endgame);
        (numerator, i64::from(FULL * 256))
    }
}

/// Whether `outcome` may be a win.
fn may_win(outcome: &Outcome) -> bool {
    match outcome {
        Outcome::Win(_) => true,
        Outcome::If(_, then, otherwise) => may_win(then) || may_win(otherwise),
        Outcome::Draw | Outcome::NullGame | Outcome::GameOver => false,
    }
}

/// Whether `condition` holds only on a mate (no legal move while in
/// check, whatever else it asks) or a royal piece's capture.
fn is_mate(condition: &Condition) -> bool {
    fn parts<'c>(condition: &'c Condition, all: &mut Vec<&'c Condition>) {
        match condition {
            Condition::And(a, b) => {
                parts(a, all);
                parts(b, all);
            }
            other => all.push(other),
        }
    }
    let mut all = Vec::new();
    parts(condition, &mut all);
    let has = |test: fn(&Condition) -> bool| all.iter().any(|c| test(c));
    has(|c| matches!(c, Condition::RoyalCaptured))
        || (has(|c| matches!(c, Condition::NoLegalMoves))
            && has(|c| matches!(c, Condition::InCheck | Condition::InCheckByOnly(_))))
}
