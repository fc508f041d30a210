//! XBoard's names for a variant's pieces ([`LetterMap`]).
//!
//! XBoard names a piece with one letter, or, for the promoted form of
//! another piece as in Shogi, with `+` and that piece's letter (`+R`).
//!
//! - A kind whose letter is one letter keeps it; a kind written with marks
//!   (PPC's `R'`) gets its own first letter when free, else the first letter
//!   of XBoard's piece order that no kind uses.
//! - A kind that is the only promotion of exactly one kind other than the
//!   pawn (PPC's rooking, the rook's only promotion) is that kind's promoted
//!   form `+R`. With legality testing on, XBoard accepts a promotion of a
//!   piece other than a pawn only in this Shogi style (the move's suffix is
//!   `+`), and then shows the piece as promoted. XBoard pairs the piece in
//!   each of the first eleven slots of its piece-to-char table with the
//!   piece eleven slots later, so the partner takes that slot and the base
//!   must have one of XBoard's first eleven letters.
//! - Such a kind that a pawn may also promote to (PPC's kniking) keeps a
//!   letter as well, for the pawn's promotion suffix: XBoard then has two
//!   pieces that move alike, and the engine reads both as the one kind.
//!
//! The engine translates FENs, moves and promotion suffixes both ways.

use crate::board::Board;
use crate::erased::ErasedGame;
use crate::fen::write_fen_for_clients;
use crate::model::{Color, PieceId, PromotionTiming, Square, Variant};
use crate::moves::Move;
use crate::notation::long_algebraic;
use crate::rules::Rules;

/// XBoard's order of piece letters (the slots of its piece-to-char table),
/// used to pick letters for kinds whose own letter has marks.
const XBOARD_ORDER: &str = "PNBRQFEACWMOHIJGDVLSUYZTXK";

/// How many slots after its base XBoard keeps a promoted piece; only the
/// first this many slots have promoted partners.
const PARTNER_OFFSET: usize = 11;

/// The mapping between the variant's pieces and XBoard's names for them.
#[derive(Clone, Debug)]
pub struct LetterMap {
    /// XBoard's letter for each kind (upper case); `None` for a kind XBoard
    /// knows only as a promoted piece.
    letters: Vec<Option<char>>,
    /// For a kind XBoard knows as the promoted form `+X` of another kind:
    /// that kind and its slot in XBoard's order.
    promoted_from: Vec<Option<(PieceId, usize)>>,
}

impl LetterMap {
    /// XBoard's names for `variant`'s kinds.
    pub fn new(variant: &Variant) -> LetterMap {
        let count = variant.pieces.len();
        let own: Vec<Option<char>> = variant
            .pieces
            .iter()
            .map(|p| {
                let mut chars = p.letter.chars();
                match (chars.next(), chars.next()) {
                    (Some(c), None) if c.is_ascii_alphabetic() => Some(c.to_ascii_uppercase()),
                    _ => None,
                }
            })
            .collect();
        let pawn = own.iter().position(|l| *l == Some('P'));
        let promotions = promotion_pairs(variant);
        let promoted_from = promoted_partners(&own, pawn, &promotions);

        // A kind needs a letter unless XBoard knows it as a promoted piece
        // and nothing but its base becomes it.
        let needs_letter = |kind: PieceId| match promoted_from[kind] {
            None => true,
            Some((base, _)) => promotions.iter().any(|&(m, c)| c == kind && m != base),
        };
        let mut letters: Vec<Option<char>> = (0..count)
            .map(|kind| own[kind].filter(|_| needs_letter(kind)))
            .collect();
        let order: Vec<char> = XBOARD_ORDER.chars().collect();
        let mut used: Vec<char> = letters.iter().flatten().copied().collect();
        // The partners' slots are taken.
        used.extend(
            promoted_from
                .iter()
                .flatten()
                .filter_map(|&(_, slot)| order.get(slot + PARTNER_OFFSET)),
        );
        for (kind, letter) in letters.iter_mut().enumerate() {
            if letter.is_some() || !needs_letter(kind) {
                continue;
            }
            let own_first = variant.pieces[kind]
                .letter
                .chars()
                .next()
                .map(|c| c.to_ascii_uppercase())
                .filter(|c| c.is_ascii_alphabetic() && !used.contains(c));
            let pick = own_first.or_else(|| {
                order
                    .iter()
                    .copied()
                    .chain('A'..='Z')
                    .find(|c| !used.contains(c))
            });
            if let Some(pick) = pick {
                used.push(pick);
            }
            *letter = pick;
        }
        LetterMap {
            letters,
            promoted_from,
        }
    }

    /// XBoard's letter for `kind` (upper case), if XBoard knows it by a
    /// letter.
    pub fn letter(&self, kind: PieceId) -> Option<char> {
        self.letters.get(kind).copied().flatten()
    }

    /// The kind XBoard calls `letter` (either case).
    pub fn kind(&self, letter: char) -> Option<PieceId> {
        let upper = letter.to_ascii_uppercase();
        self.letters.iter().position(|l| *l == Some(upper))
    }

    /// The kind XBoard calls `+letter`: the promoted form of the kind it
    /// calls `letter`.
    fn promoted_kind(&self, base: PieceId) -> Option<PieceId> {
        self.promoted_from
            .iter()
            .position(|p| p.is_some_and(|(b, _)| b == base))
    }

    /// XBoard's names for `kind`, as the `piece` command writes them (`R`,
    /// `+B`): the promoted form first, then the letter.
    pub fn names(&self, kind: PieceId) -> Vec<String> {
        let mut names = Vec::new();
        if let Some((base, _)) = self.promoted_from.get(kind).copied().flatten() {
            if let Some(letter) = self.letter(base) {
                names.push(format!("+{letter}"));
            }
        }
        if let Some(letter) = self.letter(kind) {
            names.push(letter.to_string());
        }
        names
    }

    /// The piece-to-char string of XBoard's `setup` command: XBoard's piece
    /// order with the letters in use, `+` in the slots of promoted forms,
    /// `.` for the others, White then Black.
    pub fn piece_to_char(&self) -> String {
        let mut order: Vec<char> = XBOARD_ORDER.chars().collect();
        for letter in self.letters.iter().flatten() {
            if !order.contains(letter) {
                order.insert(order.len() - 1, *letter);
            }
        }
        let partner_slots: Vec<usize> = self
            .promoted_from
            .iter()
            .flatten()
            .map(|&(_, slot)| slot + PARTNER_OFFSET)
            .collect();
        let white: String = order
            .iter()
            .enumerate()
            .map(|(slot, c)| {
                if partner_slots.contains(&slot) {
                    '+'
                } else if self.letters.contains(&Some(*c)) {
                    *c
                } else {
                    '.'
                }
            })
            .collect();
        format!("{white}{}", white.to_ascii_lowercase())
    }

    /// `position` as an XBoard FEN (a promoted form as `+X`; the en passant
    /// field only when a capture there is legal, as XBoard writes it).
    pub fn to_xboard_fen<R: Rules + ?Sized>(&self, rules: &R, position: &R::Position) -> String {
        self.xboard_fen(position, &write_fen_for_clients(rules, position))
    }

    /// `position` as an XBoard FEN, `fen` its FEN as written for clients
    /// (whose fields after the board are kept).
    pub fn xboard_fen(&self, position: &impl Board, fen: &str) -> String {
        let rest = fen.split_once(' ').map_or("", |(_, rest)| rest);
        let mut board = String::new();
        for rank in (0..position.ranks()).rev() {
            let mut empty = 0;
            for file in 0..position.files() {
                let Some(piece) = position.piece_at(Square::new(file, rank)) else {
                    empty += 1;
                    continue;
                };
                if empty > 0 {
                    board.push_str(&empty.to_string());
                    empty = 0;
                }
                let name = self
                    .names(piece.kind())
                    .into_iter()
                    .next()
                    .unwrap_or_else(|| "?".to_string());
                board.push_str(&match piece.color() {
                    Color::White => name,
                    Color::Black => name.to_ascii_lowercase(),
                });
            }
            if empty > 0 {
                board.push_str(&empty.to_string());
            }
            if rank > 0 {
                board.push('/');
            }
        }
        format!("{board} {rest}")
    }

    /// An XBoard FEN in the variant's letters.
    pub fn from_xboard_fen(&self, variant: &Variant, fen: &str) -> String {
        let (board, rest) = fen.trim().split_once(' ').unwrap_or((fen.trim(), ""));
        let mut out = String::new();
        let mut chars = board.chars().peekable();
        while let Some(c) = chars.next() {
            let promoted = c == '+';
            let letter = if promoted {
                match chars.peek() {
                    Some(next) if next.is_ascii_alphabetic() => chars.next().unwrap_or(c),
                    _ => c,
                }
            } else {
                c
            };
            let kind = self
                .kind(letter)
                .filter(|_| letter.is_ascii_alphabetic())
                .and_then(|kind| {
                    if promoted {
                        self.promoted_kind(kind)
                    } else {
                        Some(kind)
                    }
                });
            match kind {
                Some(kind) => {
                    let ours = &variant.pieces[kind].letter;
                    if letter.is_ascii_uppercase() {
                        out.push_str(ours);
                    } else {
                        out.push_str(&ours.to_lowercase());
                    }
                }
                None if promoted && letter != c => {
                    out.push(c);
                    out.push(letter);
                }
                None => out.push(c),
            }
        }
        if rest.is_empty() {
            out
        } else {
            format!("{out} {rest}")
        }
    }

    /// A long algebraic move of the variant in XBoard's letters, played on
    /// `board` (whose mover decides between a letter and `+`).
    pub fn to_xboard_move<B: Board + ?Sized>(
        &self,
        variant: &Variant,
        board: &B,
        mv: &Move,
        legal: &[Move],
    ) -> String {
        let mover = board.piece_at(mv.from).map(|p| p.kind());
        self.to_xboard_text(variant, &long_algebraic(variant, mv, legal), mover)
    }

    /// The texts of `line` played from `game`'s position, in XBoard's
    /// letters (thinking output); stops at the first move not legal there.
    pub fn line_text(&self, game: &dyn ErasedGame, line: &[Move]) -> Vec<String> {
        let variant = game.variant().clone();
        game.line_texts(line, &mut |position, mv, legal| {
            self.to_xboard_move(&variant, position, mv, legal)
        })
    }

    /// A long algebraic move text of the variant (`e7e8n'`) in XBoard's
    /// letters (`e7e8e`, or `g6g7+` when `mover` is the kind the promoted
    /// piece is XBoard's promoted form of): the promotion suffix after the
    /// last square is translated; other text is kept.
    pub fn to_xboard_text(&self, variant: &Variant, text: &str, mover: Option<PieceId>) -> String {
        let Some(last_digit) = text.rfind(|c: char| c.is_ascii_digit()) else {
            return text.to_string();
        };
        let (stem, suffix) = text.split_at(last_digit + 1);
        let kind = variant
            .pieces
            .iter()
            .position(|p| !suffix.is_empty() && p.letter.to_lowercase() == suffix);
        let Some(kind) = kind else {
            return text.to_string();
        };
        let base = self.promoted_from[kind].map(|(base, _)| base);
        match self.letter(kind) {
            Some(letter) if base.is_none() || base != mover => {
                format!("{stem}{}", letter.to_ascii_lowercase())
            }
            _ if base.is_some() => format!("{stem}+"),
            _ => text.to_string(),
        }
    }

    /// An XBoard move text in the variant's letters, played on `board`
    /// (whose mover says what a `+` suffix promotes to).
    pub fn from_xboard_move<B: Board + ?Sized>(
        &self,
        variant: &Variant,
        board: &B,
        text: &str,
    ) -> String {
        let text = text.trim();
        let mut chars: Vec<char> = text.chars().collect();
        let Some(&last) = chars.last() else {
            return text.to_string();
        };
        let before = chars.len().checked_sub(2).map(|i| chars[i]);
        // Coordinate moves end in a digit; a trailing letter or `+` is a
        // promotion.
        if chars.len() < 5 || !before.is_some_and(|c| c.is_ascii_digit() || c == '=') {
            return text.to_string();
        }
        let kind = if last == '+' {
            mover_of(board, text).and_then(|mover| self.promoted_kind(mover))
        } else if last.is_ascii_alphabetic() {
            self.kind(last)
        } else {
            None
        };
        match kind {
            Some(kind) => {
                chars.pop();
                let stem: String = chars.into_iter().collect();
                format!("{stem}{}", variant.pieces[kind].letter.to_lowercase())
            }
            None => text.to_string(),
        }
    }
}

/// The pairs (mover, result) of the variant's promotions made on the move
/// that reaches the zone, without repeats.
fn promotion_pairs(variant: &Variant) -> Vec<(PieceId, PieceId)> {
    let mut pairs: Vec<(PieceId, PieceId)> = variant
        .promotions
        .iter()
        .filter(|p| p.timing == PromotionTiming::Immediate)
        .flat_map(|p| {
            p.pieces
                .iter()
                .flat_map(|&mover| p.choices.iter().map(move |&choice| (mover, choice)))
        })
        .filter(|(mover, choice)| mover != choice)
        .collect();
    pairs.sort_unstable();
    pairs.dedup();
    pairs
}

/// For each kind XBoard can know as a promoted piece `+X`: its base and the
/// base's slot. A kind qualifies when exactly one kind other than the pawn
/// promotes to it, that is the base's only promotion, the base has one of
/// XBoard's first eleven letters and no kind uses the letter of the slot
/// the promoted piece takes.
fn promoted_partners(
    own: &[Option<char>],
    pawn: Option<PieceId>,
    promotions: &[(PieceId, PieceId)],
) -> Vec<Option<(PieceId, usize)>> {
    let order: Vec<char> = XBOARD_ORDER.chars().collect();
    let mut partners: Vec<Option<(PieceId, usize)>> = (0..own.len())
        .map(|kind| {
            let bases: Vec<PieceId> = promotions
                .iter()
                .filter(|&&(mover, result)| result == kind && Some(mover) != pawn)
                .map(|&(mover, _)| mover)
                .collect();
            let &[base] = bases.as_slice() else {
                return None;
            };
            let only_result = promotions.iter().all(|&(m, r)| m != base || r == kind);
            let slot = own[base].and_then(|letter| order.iter().position(|c| *c == letter))?;
            let partner_letter = order.get(slot + PARTNER_OFFSET)?;
            let free = !own.contains(&Some(*partner_letter));
            (only_result && slot < PARTNER_OFFSET && free).then_some((base, slot))
        })
        .collect();
    // A base must itself be known by its letter.
    for kind in 0..partners.len() {
        if let Some((base, _)) = partners[kind] {
            if partners[base].is_some() {
                partners[kind] = None;
            }
        }
    }
    partners
}

/// The kind of the piece standing on the first square of a move `text`
/// (after a crowning prefix `sq^`), on `board`.
pub fn mover_of<B: Board + ?Sized>(board: &B, text: &str) -> Option<PieceId> {
    let text = text.rsplit('^').next().unwrap_or(text);
    let mut chars = text.chars();
    let file = chars.next().filter(|c| c.is_ascii_lowercase())?;
    let digits: String = chars.take_while(|c| c.is_ascii_digit()).collect();
    let rank: u8 = digits.parse().ok()?;
    let square = Square::new(file as u8 - b'a', rank.checked_sub(1)?);
    if square.file >= board.files() || square.rank >= board.ranks() {
        return None;
    }
    board.piece_at(square).map(|p| p.kind())
}
