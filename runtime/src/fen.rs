//! FEN for every variant: the variant's own piece letters, any board size up
//! to 16x16, X-FEN and Shredder-FEN castling fields.
//!
//! The six fields are the usual ones: placement, side to move (`w`/`b`),
//! castling, en passant, halfmove clock, fullmove number. Only the placement
//! and the side to move are required; missing fields read as `- - 0 1`.
//!
//! - **Placement**: ranks from the last to the first, separated by `/`;
//!   pieces by their variant letters ([`PieceKind::letter`](crate::model::PieceKind::letter): upper case for
//!   White, lower case for Black, marks included: `R'`, `r'`); runs of empty
//!   squares as numbers up to 16 (`10` in Capablanca chess); a hole of the
//!   board as `*` (a number may also cover holes).
//! - **Lineage extension**: in variants whose rules read what a piece has
//!   been (succession, crowning events, lineage castling requirements), a
//!   piece that has been other kinds is followed by their letters in
//!   parentheses, oldest first: `K(PB)` is a king crowned from a bishop that
//!   was a pawn. Standard FENs never contain parentheses, and other variants
//!   never write them.
//! - **Holdings** (variants with hands): the pieces in hand in brackets
//!   right after the placement, White's (upper case) then Black's (lower
//!   case), each side's kinds in the variant's order, as Fairy-Stockfish
//!   writes them: `RNBQKBNR[Pnb] w`, `[]` for empty hands. A FEN without
//!   the brackets has empty hands; other variants refuse them.
//! - **Promoted mark** `~` (Fairy-Stockfish's crazyhouse): `Q~` is a queen
//!   that was promoted from the one kind that promotes into it, and returns
//!   to the hand as that kind. Written in variants that demote captured
//!   pieces, for a piece whose lineage is exactly that kind; read in those
//!   variants only.
//! - **Castling**: `-`, or for each side `K`/`Q` (`k`/`q`) for the outermost
//!   rook of the castling rook kind on the short (higher files) or long side
//!   of the king on the back rank, or a file letter (`A`..`P`, `a`..`p`,
//!   Shredder-FEN/X-FEN) naming the rook's file. Written as X-FEN: `K`/`Q`
//!   for outermost rooks, file letters for inner ones. On boards of 11 files
//!   or more `K`/`k` always mean "outermost short rook", never the k file.
//! - **First-move letters** (variants with `unmoved pieces in fen`): after
//!   each side's castling letters, the file letters of its unmoved pieces
//!   on its first rank (its castling rank) whose state the castling rights
//!   do not give, as Fairy-Stockfish writes its gating letters: cambodian's
//!   `DEde` (White's king and met on d1 and e1, Black's on e8 and d8, may
//!   still make their first-move leaps). A file letter that names no
//!   castling rook names such a piece.
//! - **En passant**: `-`, or the square(s) the last move passed (`e3`;
//!   several squares are written one after the other, `c3c4`). Both
//!   conventions are read: the square after every double step, and the
//!   square only when an en passant capture is legal. Every FEN shown to a
//!   user or another program is written with the second, as python-chess
//!   and Fairy-Stockfish write it ([`write_fen_for_clients`]);
//!   [`write_fen`] keeps the exact state.
//! - **Counters**: a counter declared `in fen counting down from N` is a
//!   field after the en passant field (several in file order): `W+B`, each
//!   player's N minus his count, as Fairy-Stockfish writes 3check's checks
//!   remaining (`3+3` at the start). Without the fields, the counters are 0.
//! - **Counting**: in a variant with counting rules, a running count
//!   writes its limit in plies in place of the en passant field and its
//!   plies in place of the halfmove clock, as Fairy-Stockfish does
//!   (makruk's `... b - 32 10 30`); a number there reads as a count (0: none).
//!
//! Per-piece state that FEN does not write is derived: a piece stands
//! unmoved when the variant's start position has a piece of the same kind
//! and colour on its square, except castling kings and rooks, which are
//! unmoved exactly when the castling rights say so, and, in variants with
//! `unmoved pieces in fen`, the pieces of each side's first rank, unmoved
//! exactly when the first-move letters (or castling rights) say so.

use crate::board::Board;
use crate::model::{
    CheckRule, Color, Counter, Obligation, PieceId, PromotionTiming, Square, SquareSet, Variant,
    MAX_BOARD_SIDE,
};
use crate::moves::{tracks_history, MoveKind};
use crate::position::{EnPassant, Piece, Position, HISTORY_LENGTH};
use crate::rules::Rules;
use thiserror::Error;

/// A malformed FEN: which field, and what was expected.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum FenError {
    /// Nothing to read.
    #[error("empty FEN: expected the piece placement field")]
    Empty,
    /// More fields than the variant's FEN has.
    #[error("too many fields: expected at most {expected}, found {found}")]
    TooManyFields {
        /// Fields the variant's FEN has at most.
        expected: usize,
        /// Fields found.
        found: usize,
    },
    /// The placement has the wrong number of ranks.
    #[error("piece placement: expected {expected} ranks separated by '/', found {found}")]
    RankCount {
        /// The board's ranks.
        expected: usize,
        /// Ranks in the FEN.
        found: usize,
    },
    /// A rank describes the wrong number of squares.
    #[error("piece placement, rank {rank}: expected {expected} squares, found {found}")]
    RankLength {
        /// The rank, 1-based.
        rank: u32,
        /// The board's files.
        expected: u32,
        /// Squares described.
        found: u32,
    },
    /// Text that is no piece letter of the variant, number or `*`.
    #[error("piece placement, rank {rank}: {text:?} is not a piece letter of this variant, a number or '*'")]
    UnknownPiece {
        /// The rank, 1-based.
        rank: u32,
        /// The text from there on.
        text: String,
    },
    /// A piece placed on a hole of the board.
    #[error("piece placement: {square} is a hole of this board, not a square")]
    PieceOnHole {
        /// The hole.
        square: String,
    },
    /// `*` where the board has a square.
    #[error("piece placement: '*' on {square}, which is not a hole of this board")]
    NotAHole {
        /// The square.
        square: String,
    },
    /// A lineage mark `(...)` that cannot be read.
    #[error("piece placement, rank {rank}: bad lineage mark {text:?}: expected piece letters in parentheses such as (PB)")]
    Lineage {
        /// The rank, 1-based.
        rank: u32,
        /// The mark.
        text: String,
    },
    /// A lineage longer than a piece remembers: it would not round-trip.
    #[error("piece placement, rank {rank}: lineage mark {text:?} has more than {HISTORY_LENGTH} kinds, the most a piece remembers")]
    LineageTooLong {
        /// The rank, 1-based.
        rank: u32,
        /// The mark.
        text: String,
    },
    /// A side without a royal piece where the check rule protects one.
    #[error(
        "piece placement: {color} has no royal piece, and the rules forbid leaving one in check"
    )]
    NoRoyal {
        /// The side.
        color: Color,
    },
    /// A piece standing where its promotion is mandatory: it would have
    /// promoted on arriving there.
    #[error("piece placement: {piece} on {square} must promote there (rule {rule}); it cannot stand there unpromoted")]
    MustHavePromoted {
        /// The piece's name.
        piece: String,
        /// Its square.
        square: String,
        /// The promotion rule's label, or its number.
        rule: String,
    },
    /// The holdings in brackets after the placement.
    #[error("holdings {text:?}: {reason}")]
    Holdings {
        /// The bracketed text.
        text: String,
        /// What is wrong.
        reason: String,
    },
    /// A `~` mark where it means nothing: a variant whose captured pieces
    /// do not go to hand demoted, or a piece no single kind promotes into.
    #[error("piece placement, rank {rank}: {text:?}: '~' marks a promoted piece that returns to the hand demoted, and this variant has no such piece of that kind")]
    PromotedMark {
        /// The rank, 1-based.
        rank: u32,
        /// The piece and its mark.
        text: String,
    },
    /// The side-to-move field.
    #[error("side to move: expected 'w' or 'b', found {found:?}")]
    SideToMove {
        /// The field.
        found: String,
    },
    /// The castling field.
    #[error("castling: {reason} (field {found:?})")]
    Castling {
        /// The field.
        found: String,
        /// What is wrong.
        reason: String,
    },
    /// The en passant field.
    #[error("en passant: expected '-' or squares of the board such as e3, found {found:?}")]
    EnPassant {
        /// The field.
        found: String,
    },
    /// A counter's field (`in fen counting down from N`).
    #[error("counter {name}: expected what is left of {from} for White and Black, as in {from}+{from}, found {found:?}")]
    Counter {
        /// The counter's name.
        name: String,
        /// The number it counts down from.
        from: u32,
        /// The field.
        found: String,
    },
    /// A counting limit in the en passant field that is no number of plies.
    #[error(
        "counting limit (in place of en passant): expected a number of plies, found {found:?}"
    )]
    CountingLimit {
        /// The field.
        found: String,
    },
    /// The halfmove clock.
    #[error("halfmove clock: expected a number, found {found:?}")]
    HalfmoveClock {
        /// The field.
        found: String,
    },
    /// The fullmove number.
    #[error("fullmove number: expected a number, found {found:?}")]
    FullmoveNumber {
        /// The field.
        found: String,
    },
}

/// Reads a FEN of `variant`.
///
/// ```
/// # fn demo(variant: &varc_runtime::model::Variant) -> Result<(), varc_runtime::fen::FenError> {
/// let position = varc_runtime::fen::parse_fen(variant, &variant.start_fen)?;
/// assert_eq!(varc_runtime::fen::write_fen(variant, &position), variant.start_fen);
/// # Ok(()) }
/// ```
pub fn parse_fen(variant: &Variant, fen: &str) -> Result<Position, FenError> {
    let mut fields: Vec<&str> = fen.split_whitespace().collect();
    if fields.is_empty() {
        return Err(FenError::Empty);
    }
    // Fairy-Stockfish's short form `BOARD w 0 1`: the clocks straight after
    // the side to move (a castling or en passant field is never a number).
    if (3..=4).contains(&fields.len())
        && fields[2..]
            .iter()
            .all(|field| field.bytes().all(|b| b.is_ascii_digit()))
    {
        fields.splice(2..2, ["-", "-"]);
    }
    let fen_counters: Vec<(usize, &Counter, u32)> = fen_counters(variant).collect();
    // The counter fields are there when the field after en passant holds a `+`.
    let with_counters = fields.get(4).is_some_and(|field| field.contains('+'));
    let counter_fields = if with_counters { fen_counters.len() } else { 0 };
    if fields.len() > 6 + counter_fields {
        return Err(FenError::TooManyFields {
            expected: 6 + counter_fields,
            found: fields.len(),
        });
    }
    let (board_field, holdings) = split_holdings(variant, fields[0])?;
    let placement = parse_placement(variant, board_field)?;
    let start = start_placement(variant);
    let mut position = Position::empty(
        variant.board.files,
        variant.board.ranks,
        variant.counter_slots(),
    );
    for (square, piece) in &placement {
        let unmoved = start
            .iter()
            .any(|(s, p)| s == square && p.kind() == piece.kind() && p.color() == piece.color());
        position.set_piece(*square, Some(piece.with_unmoved(unmoved)));
    }
    for (color, kind, count) in holdings {
        position.set_in_hand(color, kind, count);
    }
    let side = match fields.get(1).copied().unwrap_or("w") {
        "w" | "W" => Color::White,
        "b" | "B" => Color::Black,
        other => {
            return Err(FenError::SideToMove {
                found: other.to_string(),
            })
        }
    };
    position.set_side_to_move(side);
    parse_castling(
        variant,
        &mut position,
        fields.get(2).copied().unwrap_or("-"),
    )?;
    let en_passant = fields.get(3).copied().unwrap_or("-");
    // A running count writes its limit in place of the en passant field
    // (Fairy-Stockfish's counting rules); a square never starts with a digit.
    let counting_limit =
        if variant.counting.in_use() && en_passant.starts_with(|c: char| c.is_ascii_digit()) {
            Some(
                en_passant
                    .parse::<u32>()
                    .map_err(|_| FenError::CountingLimit {
                        found: en_passant.to_string(),
                    })?,
            )
        } else {
            parse_en_passant(variant, &mut position, en_passant)?;
            None
        };
    for (index, (id, counter, from)) in fen_counters.iter().enumerate() {
        let Some(field) = fields.get(4 + index).filter(|_| with_counters) else {
            break;
        };
        let error = || FenError::Counter {
            name: counter.name.clone(),
            from: *from,
            found: field.to_string(),
        };
        let (white, black) = field.split_once('+').ok_or_else(error)?;
        for (color, text) in [(Color::White, white), (Color::Black, black)] {
            let left: u32 = text.parse().map_err(|_| error())?;
            let count = from.checked_sub(left).ok_or_else(error)?;
            if let Some(slot) = position.counters_mut(color).get_mut(*id) {
                *slot = count;
            }
        }
    }
    let clocks = &fields[(4 + counter_fields).min(fields.len())..];
    let halfmove = clocks.first().copied().unwrap_or("0");
    let halfmove_clock = halfmove.parse().map_err(|_| FenError::HalfmoveClock {
        found: halfmove.to_string(),
    })?;
    match counting_limit {
        // The count's plies stand in place of the halfmove clock.
        Some(limit) if limit > 0 => {
            crate::game::counting::set_running(variant, &mut position, limit, halfmove_clock);
            position.set_halfmove_clock(0);
        }
        _ => position.set_halfmove_clock(halfmove_clock),
    }
    let fullmove = clocks.get(1).copied().unwrap_or("1");
    position.set_fullmove_number(fullmove.parse().map_err(|_| FenError::FullmoveNumber {
        found: fullmove.to_string(),
    })?);
    // Fields that read are checked together last, so an error names the
    // first field that cannot be read at all.
    check_placement(variant, &placement)?;
    Ok(position)
}

/// The counters of `variant` that FEN writes, in file order: id, counter,
/// the number it counts down from.
fn fen_counters(variant: &Variant) -> impl Iterator<Item = (usize, &Counter, u32)> {
    variant
        .counters
        .iter()
        .enumerate()
        .filter_map(|(id, counter)| counter.fen_countdown.map(|from| (id, counter, from)))
}

/// What no game of `variant` can reach: a side without a royal piece under
/// the check rule (where the start position gives it one: Horde's White
/// has none), a piece standing where it must promote on arrival.
fn check_placement(variant: &Variant, placement: &[(Square, Piece)]) -> Result<(), FenError> {
    let has_royal_kinds = variant.pieces.iter().any(|p| p.royal);
    if variant.legality.check_rule == CheckRule::RoyalMayNotBeAttacked && has_royal_kinds {
        let start = start_placement(variant);
        for color in Color::ALL {
            let starts_with_royal = start.is_empty()
                || start
                    .iter()
                    .any(|(_, p)| p.color() == color && p.is_royal());
            if starts_with_royal
                && !placement
                    .iter()
                    .any(|(_, p)| p.color() == color && p.is_royal())
            {
                return Err(FenError::NoRoyal { color });
            }
        }
    }
    for (number, rule) in variant.promotions.iter().enumerate() {
        if rule.obligation != Obligation::Mandatory || rule.timing != PromotionTiming::Immediate {
            continue;
        }
        let Some(zone) = variant.regions.get(rule.zone) else {
            continue;
        };
        let stuck = placement.iter().find(|(square, piece)| {
            rule.pieces.contains(&piece.kind()) && zone.for_side(piece.color()).contains(*square)
        });
        if let Some((square, piece)) = stuck {
            return Err(FenError::MustHavePromoted {
                piece: variant.pieces[piece.kind()].name.clone(),
                square: square.to_string(),
                rule: rule
                    .label
                    .clone()
                    .unwrap_or_else(|| format!("{}", number + 1)),
            });
        }
    }
    Ok(())
}

/// Writes `position` as FEN of `variant` (see the module documentation),
/// with the en passant field as the position holds it: every square the
/// last move passed, whether or not a capture there is possible. This is
/// the exact state, for round trips; [`write_fen_for_clients`] writes what
/// other programs expect.
pub fn write_fen(variant: &Variant, position: &impl Board) -> String {
    write_fen_fields(variant, position, true)
}

/// Writes `position` as FEN the way python-chess and Fairy-Stockfish do:
/// the en passant field names the passed squares only when the side to
/// move has a legal en passant capture, `-` otherwise. Every FEN a user or
/// another program sees (records, `varc replay`, UCI, XBoard) is written
/// this way; both forms are read. The game's repetition identity uses the
/// same rule, so the two FENs of one position never disagree about
/// repetitions.
pub fn write_fen_for_clients<R: Rules + ?Sized>(rules: &R, position: &R::Position) -> String {
    let capture_possible = position.en_passant().is_some()
        && rules
            .legal_moves(position)
            .iter()
            .any(|mv| matches!(rules.move_kind(mv), MoveKind::EnPassant { .. }));
    write_fen_fields(rules.variant(), position, capture_possible)
}

fn write_fen_fields(variant: &Variant, position: &impl Board, en_passant: bool) -> String {
    let mut out = String::new();
    let history = tracks_history(variant);
    let demotes = variant.hands.demotes();
    for rank in (0..variant.board.ranks).rev() {
        let mut empty = 0;
        for file in 0..variant.board.files {
            let square = Square::new(file, rank);
            let piece = position.piece_at(square);
            let hole = variant.board.holes.contains(square);
            if piece.is_none() && !hole {
                empty += 1;
                continue;
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
                empty = 0;
            }
            match piece {
                Some(piece) => {
                    out.push_str(&piece_text(variant, piece));
                    if demotes && is_tilde_promoted(variant, piece) {
                        out.push('~');
                    } else if history
                        && piece.is_promoted()
                        && !is_plus_promoted_once(variant, piece)
                    {
                        out.push('(');
                        for kind in piece.history() {
                            out.push_str(
                                variant.pieces.get(kind).map_or("?", |k| k.letter.as_str()),
                            );
                        }
                        out.push(')');
                    }
                }
                None => out.push('*'),
            }
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
        }
        if rank > 0 {
            out.push('/');
        }
    }
    if variant.hands.in_use() {
        out.push('[');
        for color in Color::ALL {
            for (kind, piece_kind) in variant.pieces.iter().enumerate() {
                let letter = match color {
                    Color::White => piece_kind.letter.clone(),
                    Color::Black => piece_kind.letter.to_lowercase(),
                };
                for _ in 0..position.in_hand(color, kind) {
                    out.push_str(&letter);
                }
            }
        }
        out.push(']');
    }
    out.push(' ');
    out.push(match position.side_to_move() {
        Color::White => 'w',
        Color::Black => 'b',
    });
    out.push(' ');
    out.push_str(&castling_text(variant, position));
    out.push(' ');
    let count = crate::game::counting::running(variant, position);
    match position.en_passant().filter(|_| en_passant) {
        _ if count.is_some() => {
            out.push_str(&count.map_or(0, |(limit, _)| limit).to_string());
        }
        Some(ep) if !ep.targets.is_empty() => {
            for square in ep.targets.iter() {
                out.push_str(&square.to_string());
            }
        }
        _ => out.push('-'),
    }
    for (id, _, from) in fen_counters(variant) {
        let left = |color: Color| {
            let count = position.counters(color).get(id).copied().unwrap_or(0);
            from.saturating_sub(count)
        };
        out.push_str(&format!(" {}+{}", left(Color::White), left(Color::Black)));
    }
    out.push_str(&format!(
        " {} {}",
        count.map_or(position.halfmove_clock(), |(_, plies)| plies),
        position.fullmove_number()
    ));
    out
}

/// The letter of `piece` as FEN writes it: the kind's letter, upper case for
/// White and lower case for Black.
pub fn piece_text(variant: &Variant, piece: Piece) -> String {
    let letter = variant
        .pieces
        .get(piece.kind())
        .map_or("?", |k| k.letter.as_str());
    match piece.color() {
        Color::White => letter.to_string(),
        Color::Black => letter.to_lowercase(),
    }
}

/// The pieces of the variant's start position (empty if it cannot be read).
/// The ranks on which White and Black castle with the king kind `king`
/// (see [`Castling::ranks`](crate::model::Castling::ranks)): the rank of
/// each side's king of that kind in the start position nearest its own
/// first rank, else its first rank.
pub fn castling_ranks(variant: &Variant, king: PieceId) -> [u8; 2] {
    let last = variant.board.ranks.saturating_sub(1);
    let mut ranks = [0, last];
    let placement = start_placement(variant);
    for color in Color::ALL {
        let from_own_side = |rank: u8| match color {
            Color::White => rank,
            Color::Black => last - rank,
        };
        if let Some(rank) = placement
            .iter()
            .filter(|(_, piece)| piece.kind() == king && piece.color() == color)
            .map(|(square, _)| square.rank)
            .min_by_key(|rank| from_own_side(*rank))
        {
            ranks[color.index()] = rank;
        }
    }
    ranks
}

/// Whether `piece` is what a FEN's `~` mark says: promoted once, from the
/// one kind that promotes into its kind.
fn is_tilde_promoted(variant: &Variant, piece: Piece) -> bool {
    if is_plus_promoted(variant, piece.kind()) {
        // Its letter says it (`+P`).
        return false;
    }
    let mut history = piece.history();
    let first = history.next();
    first.is_some()
        && history.next().is_none()
        && first == crate::hands::promoted_from(variant, piece.kind())
}

/// Whether `kind`'s letter carries Fairy-Stockfish's `+` mark of a
/// promoted kind (`+P`, shogi's tokin): read from a FEN, such a piece has
/// been the one kind that promotes into it.
fn is_plus_promoted(variant: &Variant, kind: PieceId) -> bool {
    variant
        .pieces
        .get(kind)
        .is_some_and(|piece| piece.letter.starts_with('+'))
}

/// Whether `piece` is what its `+` letter says when read: promoted once,
/// from the one kind that promotes into its kind (so `+P` writes back as
/// `+P`, without a lineage).
fn is_plus_promoted_once(variant: &Variant, piece: Piece) -> bool {
    let mut history = piece.history();
    let first = history.next();
    is_plus_promoted(variant, piece.kind())
        && history.next().is_none()
        && first == crate::hands::promoted_from(variant, piece.kind())
}

/// The placement field without its holdings, and the holdings read: side,
/// kind, count. Holdings are `[...]` at the end of the field, in variants
/// with hands only.
#[allow(clippy::type_complexity)]
fn split_holdings<'a>(
    variant: &Variant,
    field: &'a str,
) -> Result<(&'a str, Vec<(Color, PieceId, u8)>), FenError> {
    let Some(open) = field.find('[') else {
        return Ok((field, Vec::new()));
    };
    let text = &field[open..];
    let error = |reason: &str| FenError::Holdings {
        text: text.to_string(),
        reason: reason.to_string(),
    };
    if !variant.hands.in_use() {
        return Err(error("this variant has no pieces in hand"));
    }
    let inner = text
        .strip_prefix('[')
        .and_then(|rest| rest.strip_suffix(']'))
        .filter(|inner| !inner.contains(['[', ']']))
        .ok_or_else(|| {
            error("expected piece letters in brackets at the end of the placement, such as [Pnb]")
        })?;
    let mut counts: Vec<(Color, PieceId, u8)> = Vec::new();
    // `[-]`: empty hands, as Fairy-Stockfish's shogi start positions write them.
    let mut rest = if inner == "-" { "" } else { inner };
    while !rest.is_empty() {
        let (kind, color, len) = match_letter(variant, rest)
            .ok_or_else(|| error(&format!("{rest:?} is not a piece letter of this variant")))?;
        // A royal piece is held only where a drop rule names it (the setup
        // phase of sittuyin, whose kings start in hand).
        let dropped = variant
            .hands
            .drops
            .iter()
            .any(|rule| rule.pieces.contains(&kind));
        if variant.pieces[kind].royal && !dropped {
            return Err(error(&format!(
                "{} is royal and cannot be held in hand (no drop rule names it)",
                variant.pieces[kind].name
            )));
        }
        match counts
            .iter_mut()
            .find(|(c, k, _)| *c == color && *k == kind)
        {
            Some((_, _, count)) => {
                // A count is a byte: 255 is the most a hand holds.
                *count = count
                    .checked_add(1)
                    .ok_or_else(|| error("more pieces of one kind than a hand holds (255)"))?;
            }
            None => counts.push((color, kind, 1)),
        }
        rest = &rest[len..];
    }
    Ok((&field[..open], counts))
}

/// The pieces of the variant's start position: square, kind, colour
/// (empty if it cannot be read).
pub fn start_pieces(variant: &Variant) -> Vec<(Square, PieceId, Color)> {
    start_placement(variant)
        .into_iter()
        .map(|(square, piece)| (square, piece.kind(), piece.color()))
        .collect()
}

fn start_placement(variant: &Variant) -> Vec<(Square, Piece)> {
    variant
        .start_fen
        .split_whitespace()
        .next()
        .and_then(|field| {
            let board = split_holdings(variant, field).map_or(field, |(board, _)| board);
            parse_placement(variant, board).ok()
        })
        .unwrap_or_default()
}

/// The longest piece letter of `variant` at the start of `text`: its kind,
/// colour and length in bytes.
fn match_letter(variant: &Variant, text: &str) -> Option<(PieceId, Color, usize)> {
    let mut best: Option<(PieceId, Color, usize)> = None;
    for (kind, piece) in variant.pieces.iter().enumerate() {
        let upper = &piece.letter;
        let lower = piece.letter.to_lowercase();
        for (letter, color) in [
            (upper.as_str(), Color::White),
            (lower.as_str(), Color::Black),
        ] {
            if !letter.is_empty()
                && text.starts_with(letter)
                && best.is_none_or_shorter(letter.len())
            {
                best = Some((kind, color, letter.len()));
            }
        }
    }
    best
}

trait ShorterThan {
    fn is_none_or_shorter(&self, len: usize) -> bool;
}

impl ShorterThan for Option<(PieceId, Color, usize)> {
    fn is_none_or_shorter(&self, len: usize) -> bool {
        self.is_none_or(|(_, _, best)| best < len)
    }
}

fn parse_placement(variant: &Variant, field: &str) -> Result<Vec<(Square, Piece)>, FenError> {
    let ranks: Vec<&str> = field.split('/').collect();
    let board = &variant.board;
    if ranks.len() != board.ranks as usize {
        return Err(FenError::RankCount {
            expected: board.ranks as usize,
            found: ranks.len(),
        });
    }
    let mut pieces = Vec::new();
    for (row, text) in ranks.iter().enumerate() {
        let rank = board.ranks - 1 - row as u8;
        let rank_number = rank as u32 + 1;
        let mut file: u32 = 0;
        let mut rest = *text;
        while let Some(c) = rest.chars().next() {
            if c.is_ascii_digit() {
                let digits = rest.chars().take_while(|c| c.is_ascii_digit()).count();
                let count: u32 = rest[..digits].parse().unwrap_or(u32::MAX);
                if count == 0 || count > u32::from(MAX_BOARD_SIDE) {
                    return Err(FenError::UnknownPiece {
                        rank: rank_number,
                        text: rest.to_string(),
                    });
                }
                file = file.saturating_add(count);
                rest = &rest[digits..];
            } else if c == '*' {
                if file < board.files as u32 && !board.holes.contains(Square::new(file as u8, rank))
                {
                    return Err(FenError::NotAHole {
                        square: Square::new(file as u8, rank).to_string(),
                    });
                }
                file += 1;
                rest = &rest[1..];
            } else if let Some((kind, color, len)) = match_letter(variant, rest) {
                let letter_text = &rest[..len];
                rest = &rest[len..];
                let mut history = Vec::new();
                if is_plus_promoted(variant, kind) {
                    // `+P`: promoted from the one kind that promotes into
                    // it (the lowering makes sure there is one).
                    history.extend(crate::hands::promoted_from(variant, kind));
                } else if let Some(after) = rest.strip_prefix('~') {
                    // Read where it is written (captures go to hand demoted),
                    // so that what is read writes back the same.
                    let was = Some(kind)
                        .filter(|_| variant.hands.demotes())
                        .and_then(|kind| crate::hands::promoted_from(variant, kind))
                        .ok_or_else(|| FenError::PromotedMark {
                            rank: rank_number,
                            text: format!("{letter_text}~"),
                        })?;
                    history.push(was);
                    rest = after;
                } else if rest.starts_with('(') {
                    let close = rest.find(')').ok_or_else(|| FenError::Lineage {
                        rank: rank_number,
                        text: rest.to_string(),
                    })?;
                    let mut inner = &rest[1..close];
                    while !inner.is_empty() {
                        let upper = inner.to_uppercase();
                        let (was, _, len) =
                            match_letter(variant, &upper).ok_or_else(|| FenError::Lineage {
                                rank: rank_number,
                                text: rest[..=close].to_string(),
                            })?;
                        history.push(was);
                        inner = &inner[len.min(inner.len())..];
                    }
                    if history.len() > HISTORY_LENGTH {
                        return Err(FenError::LineageTooLong {
                            rank: rank_number,
                            text: rest[..=close].to_string(),
                        });
                    }
                    rest = &rest[close + 1..];
                }
                if file >= board.files as u32 {
                    return Err(FenError::RankLength {
                        rank: rank_number,
                        expected: board.files as u32,
                        found: file + 1,
                    });
                }
                let square = Square::new(file as u8, rank);
                if board.holes.contains(square) {
                    return Err(FenError::PieceOnHole {
                        square: square.to_string(),
                    });
                }
                let royal = variant.pieces[kind].royal;
                pieces.push((
                    square,
                    Piece::new(kind, color, royal).with_history(&history),
                ));
                file += 1;
            } else {
                return Err(FenError::UnknownPiece {
                    rank: rank_number,
                    text: rest.to_string(),
                });
            }
        }
        if file != board.files as u32 {
            return Err(FenError::RankLength {
                rank: rank_number,
                expected: board.files as u32,
                found: file,
            });
        }
    }
    Ok(pieces)
}

/// The castling king of `color` on its castling rank: its file, the rook
/// kind and the rank of the first castling rule whose king stands there.
fn castling_king(
    variant: &Variant,
    position: &impl Board,
    color: Color,
) -> Option<(u8, PieceId, u8)> {
    for rule in &variant.castling {
        let rank = rule.ranks[color.index()];
        for file in 0..variant.board.files {
            if let Some(piece) = position.piece_at(Square::new(file, rank)) {
                if piece.color() == color && piece.kind() == rule.king {
                    return Some((file, rule.rook, rank));
                }
            }
        }
    }
    None
}

/// Files of `color`'s pieces of `kind` on `rank`.
fn rook_files(position: &impl Board, color: Color, kind: PieceId, rank: u8) -> Vec<u8> {
    (0..position.files())
        .filter(|file| {
            position
                .piece_at(Square::new(*file, rank))
                .is_some_and(|p| p.color() == color && p.kind() == kind)
        })
        .collect()
}

fn parse_castling(variant: &Variant, position: &mut Position, field: &str) -> Result<(), FenError> {
    let error = |reason: String| FenError::Castling {
        found: field.to_string(),
        reason,
    };
    let mut rights = [0u16; 2];
    // `unmoved pieces in fen`: files of the unmoved pieces of each side's
    // first rank that the letters name besides castling rights.
    let mut unmoved_files = [0u16; 2];
    if field != "-" {
        for c in field.chars() {
            let color = if c.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            let lower = c.to_ascii_lowercase();
            let file = match lower {
                'k' | 'q' => {
                    let Some((king_file, rook, rank)) = castling_king(variant, position, color)
                    else {
                        return Err(error(format!(
                            "'{c}' but {color} has no castling king on its castling rank"
                        )));
                    };
                    let files = rook_files(position, color, rook, rank);
                    let found = if lower == 'k' {
                        files.iter().copied().filter(|f| *f > king_file).max()
                    } else {
                        files.iter().copied().filter(|f| *f < king_file).min()
                    };
                    found.ok_or_else(|| {
                        error(format!(
                            "'{c}' but {color} has no rook on that side of its king"
                        ))
                    })?
                }
                'a'..='p' => {
                    let file = lower as u8 - b'a';
                    if file >= variant.board.files {
                        return Err(error(format!("'{c}' names a file outside the board")));
                    }
                    // A right stays with its rook when the king is gone
                    // (captured, where the rules allow it).
                    let is_rook = variant.castling.iter().any(|rule| {
                        rook_files(position, color, rule.rook, rule.ranks[color.index()])
                            .contains(&file)
                    });
                    let king_file = castling_king(variant, position, color).map(|(f, _, _)| f);
                    // Where pieces enter by gating and the side holds some,
                    // a file letter names an unmoved piece, never a
                    // castling right, as in Fairy-Stockfish.
                    let gates = gating_letters(variant, position, color);
                    if variant.first_moves.in_fen && (gates || !is_rook || king_file == Some(file))
                    {
                        let square = Square::new(file, first_rank(variant, color));
                        if position.piece_at(square).is_none_or(|p| p.color() != color) {
                            return Err(error(format!(
                                "'{c}' but {color} has no piece on the {lower} file of its first rank"
                            )));
                        }
                        unmoved_files[color.index()] |= 1 << file;
                        continue;
                    }
                    if !is_rook || king_file == Some(file) {
                        return Err(error(format!(
                            "'{c}' but {color} has no castling rook on the {lower} file of its castling rank"
                        )));
                    }
                    file
                }
                _ => {
                    return Err(error(format!(
                        "expected '-' or letters K, Q, k, q or files A-P / a-p, found '{c}'"
                    )))
                }
            };
            rights[color.index()] |= 1 << file;
        }
    }
    for color in Color::ALL {
        position.set_castling_rights(color, rights[color.index()]);
    }
    // Castling kings and rooks are unmoved exactly when the rights say so.
    for rule in &variant.castling {
        for color in Color::ALL {
            let rank = rule.ranks[color.index()];
            let has_rights = rights[color.index()] != 0;
            for (square, piece) in position.pieces().collect::<Vec<_>>() {
                if piece.color() != color {
                    continue;
                }
                if piece.kind() == rule.king {
                    let unmoved = has_rights && square.rank == rank;
                    position.set_piece(square, Some(piece.with_unmoved(unmoved)));
                } else if piece.kind() == rule.rook {
                    let unmoved =
                        square.rank == rank && rights[color.index()] >> square.file & 1 == 1;
                    position.set_piece(square, Some(piece.with_unmoved(unmoved)));
                }
            }
        }
    }
    // The other pieces of the first rank are unmoved exactly when a letter
    // names them (castling kings and rooks also when their rights say so).
    if variant.first_moves.in_fen {
        for color in Color::ALL {
            let rank = first_rank(variant, color);
            for file in 0..variant.board.files {
                let square = Square::new(file, rank);
                let Some(piece) = position.piece_at(square) else {
                    continue;
                };
                if piece.color() != color {
                    continue;
                }
                let named = unmoved_files[color.index()] >> file & 1 == 1;
                let unmoved = named || (castles(variant, piece.kind()) && piece.is_unmoved());
                position.set_piece(square, Some(piece.with_unmoved(unmoved)));
            }
        }
    }
    Ok(())
}

/// The rank whose files the FEN's first-move letters name for `color`
/// (`unmoved pieces in fen`): its castling rank, or its first rank.
fn first_rank(variant: &Variant, color: Color) -> u8 {
    match variant.castling.first() {
        Some(rule) => rule.ranks[color.index()],
        None => match color {
            Color::White => 0,
            Color::Black => variant.board.ranks.saturating_sub(1),
        },
    }
}

/// Whether `color`'s file letters name its unmoved pieces because pieces
/// enter by gating and its hand holds some (Fairy-Stockfish's gates). Once
/// the hand is empty no piece can enter, and the letters are not written.
fn gating_letters(variant: &Variant, position: &impl Board, color: Color) -> bool {
    variant.hands.gating()
        && (0..variant.pieces.len()).any(|kind| position.in_hand(color, kind) > 0)
}

/// Whether pieces of `kind` castle, as king or rook.
fn castles(variant: &Variant, kind: PieceId) -> bool {
    variant
        .castling
        .iter()
        .any(|rule| rule.king == kind || rule.rook == kind)
}

/// The first-move letters of `color` (`unmoved pieces in fen`): the files
/// of its unmoved pieces on its first rank whose state the castling
/// letters do not give (a castling king without rights, a castling rook
/// without its right), in file order, as Fairy-Stockfish writes gates.
fn first_move_letters(variant: &Variant, position: &impl Board, color: Color) -> String {
    let mut out = String::new();
    if !variant.first_moves.in_fen
        || (variant.hands.gating() && !gating_letters(variant, position, color))
    {
        return out;
    }
    let rights = position.castling_rights(color);
    let rank = first_rank(variant, color);
    for file in 0..variant.board.files {
        let Some(piece) = position.piece_at(Square::new(file, rank)) else {
            continue;
        };
        if piece.color() != color || !piece.is_unmoved() {
            continue;
        }
        let given_by_rights = variant.castling.iter().any(|rule| {
            (rule.king == piece.kind() && rights != 0)
                || (rule.rook == piece.kind() && rights >> file & 1 == 1)
        });
        if !given_by_rights {
            let letter = (b'a' + file) as char;
            out.push(match color {
                Color::White => letter.to_ascii_uppercase(),
                Color::Black => letter,
            });
        }
    }
    out
}

fn castling_text(variant: &Variant, position: &impl Board) -> String {
    let mut out = String::new();
    for color in Color::ALL {
        let rights = position.castling_rights(color);
        if rights == 0 {
            out.push_str(&first_move_letters(variant, position, color));
            continue;
        }
        let king = castling_king(variant, position, color);
        let rooks = king
            .map(|(_, rook, rank)| rook_files(position, color, rook, rank))
            .unwrap_or_default();
        let mut short = Vec::new();
        let mut long = Vec::new();
        for file in (0..16u8).rev() {
            if rights >> file & 1 == 0 {
                continue;
            }
            let letter = (b'a' + file) as char;
            let text = match king {
                Some((king_file, _, _)) if file > king_file => {
                    let outermost =
                        rooks.iter().copied().filter(|f| *f > king_file).max() == Some(file);
                    short.push(if outermost { 'k' } else { letter });
                    continue;
                }
                Some((king_file, _, _)) if file < king_file => {
                    let outermost =
                        rooks.iter().copied().filter(|f| *f < king_file).min() == Some(file);
                    if outermost {
                        'q'
                    } else {
                        letter
                    }
                }
                _ => letter,
            };
            long.push(text);
        }
        for c in short.into_iter().chain(long) {
            out.push(match color {
                Color::White => c.to_ascii_uppercase(),
                Color::Black => c,
            });
        }
        out.push_str(&first_move_letters(variant, position, color));
    }
    if out.is_empty() {
        out.push('-');
    }
    out
}

fn parse_en_passant(
    variant: &Variant,
    position: &mut Position,
    field: &str,
) -> Result<(), FenError> {
    if field == "-" {
        position.set_en_passant(None);
        return Ok(());
    }
    let error = || FenError::EnPassant {
        found: field.to_string(),
    };
    let mut targets = SquareSet::EMPTY;
    let mut rest = field;
    while !rest.is_empty() {
        let mut chars = rest.chars();
        let file = chars
            .next()
            .filter(|c| ('a'..='p').contains(c))
            .ok_or_else(error)?;
        let digits = rest[1..].chars().take_while(|c| c.is_ascii_digit()).count();
        let rank: u32 = rest[1..1 + digits].parse().map_err(|_| error())?;
        let file = file as u8 - b'a';
        if rank == 0 || rank > variant.board.ranks as u32 || file >= variant.board.files {
            return Err(error());
        }
        targets.insert(Square::new(file, (rank - 1) as u8));
        rest = &rest[1 + digits..];
    }
    // The piece that passed the squares: the first piece beyond them in its
    // direction of travel (forward for the side that just moved).
    let passer = position.side_to_move().opponent();
    let step: i32 = match passer {
        Color::White => 1,
        Color::Black => -1,
    };
    let mut victim = None;
    if let Some(first) = targets.iter().next() {
        let mut rank = first.rank as i32 + step;
        while rank >= 0 && rank < variant.board.ranks as i32 {
            let square = Square::new(first.file, rank as u8);
            if !targets.contains(square) {
                if let Some(piece) = position.piece_at(square) {
                    if piece.color() == passer && variant.en_passant.contains(&piece.kind()) {
                        victim = Some(square);
                    }
                    break;
                }
            }
            rank += step;
        }
    }
    position.set_en_passant(Some(EnPassant { targets, victim }));
    Ok(())
}
