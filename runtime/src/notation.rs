//! Move text: long algebraic for protocols, SAN-like text for records, and
//! a parser that reads both.
//!
//! **Long algebraic** ([`long_algebraic`]): from-square, to-square, then the
//! promoted kind's letter in lower case, marks included: `e2e4`, `e7e8q`,
//! `e7e8n'`, `a9j10` on big boards.
//! - Castling is written king-from -> king-to (`e1g1`) when the king moves
//!   two files or more, does not land on the rook's square and no other
//!   legal move has the same text; otherwise as king-takes-own-rook (`e1h1`,
//!   the Chess960 form). Both forms, and `O-O` / `O-O-O`, are read.
//! - A delayed promotion (Chess 99) is the square, `=` and the letter:
//!   `e8=b`; with its follow-up move, `>` and the destination: `e8=n>d6`.
//!   Fairy-Stockfish's form (sittuyin's `e4e4f`, `e4d3f`: from, to and
//!   the letter) is read too, where no other move has that text.
//! - A succession (A2) is the crowned piece's square and `^` before the
//!   ordinary move: `c1^e2e4`.
//! - A drop from the hand is the kind's letter in upper case, `@` and the
//!   square, for either side: `P@e4`, `N@f7` (Fairy-Stockfish's and
//!   python-chess's crazyhouse form; SAN writes it the same way, with `+`
//!   or `#`). The letter is read in either case.
//! - A gating move (`drops of ... by gating`) is the move and the entering
//!   kind's letter in lower case, as Fairy-Stockfish writes it: `b1c3h`;
//!   castling with the piece entering the king's square `e1g1h`, the
//!   rook's square `h1e1h` (rook-from, king-from, letter).
//!
//! **SAN** ([`san`]): `Nf3`, `exd6`, `e8=Q`, `R'xe5`, `O-O`, `O-O-O`, with
//! `+` for a move that attacks a royal piece and `#` when the side then has
//! no legal move. Pawn-like kinds (those that capture en passant, or whose
//! letter is `P`) are written without letter. Delayed promotions and
//! successions as in long algebraic, with upper-case letters and the SAN
//! of the ordinary move: `e8=N>d6`, `c1^e4`. A gating move adds `/` and
//! the entering kind's letter, castling also its square: `Nc3/H`,
//! `O-O/Eh1` (Fairy-Stockfish's SAN).
//!
//! [`parse_move`] reads either form (and `e2-e4`, `e2xe4`), and resolves it
//! against the legal moves; a text that names no legal move gets a typed
//! error that says why. A promotion without its letter is accepted when
//! its completion is unique (a forced promotion with one choice: PPC's
//! `a1a7` for `a1a7r'`), as clients such as XBoard send it.

use crate::board::Board;
use crate::model::{
    CaptureRule, CastleSide, CheckRule, Color, GivingCheck, PieceId, Square, Variant,
};
use crate::moves::{Move, MoveKind};
use crate::rules::Rules;
use logos::Logos;
use thiserror::Error;

/// A move text that names no legal move, and why.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum MoveTextError {
    /// Empty text.
    #[error("empty move text")]
    Empty,
    /// A character no move text uses.
    #[error("unexpected {text:?} at column {column} of {input:?}")]
    Unexpected {
        /// The whole text.
        input: String,
        /// The unexpected part.
        text: String,
        /// 1-based column.
        column: usize,
    },
    /// Tokens that do not form a move.
    #[error("cannot read {input:?} as a move: {expected}")]
    Syntax {
        /// The whole text.
        input: String,
        /// What was expected.
        expected: String,
    },
    /// A square outside the board.
    #[error("{square} is not a square of this board")]
    OffBoard {
        /// The square.
        square: String,
    },
    /// A letter that is no piece of the variant.
    #[error("{letter:?} is not a piece letter of this variant")]
    UnknownPiece {
        /// The letter.
        letter: String,
    },
    /// The from-square is empty.
    #[error("no piece on {square}")]
    NoPieceOn {
        /// The square.
        square: String,
    },
    /// The from-square holds an opponent's piece.
    #[error("the piece on {square} is not yours ({side} is to move)")]
    NotYourPiece {
        /// The square.
        square: String,
        /// The side to move.
        side: Color,
    },
    /// The move would be possible but for the check rule.
    #[error("leaves your {royal} in check")]
    LeavesRoyalAttacked {
        /// The move text.
        text: String,
        /// The name of the royal kind (`king`).
        royal: String,
    },
    /// The move would be possible, but no move may give check and it
    /// would.
    #[error("no move may give check: {text} would attack the opponent's {royal}")]
    GivesCheck {
        /// The move text.
        text: String,
        /// The name of the royal kind (`king`).
        royal: String,
    },
    /// The move would be possible, but captures are compulsory and it
    /// captures nothing while a capture is legal.
    #[error("captures are compulsory: {text} captures nothing, and a capture is possible (e.g. {example})")]
    CaptureCompulsory {
        /// The move text.
        text: String,
        /// A legal capture, in long algebraic.
        example: String,
    },
    /// The move would be possible, but drops are compulsory and it is
    /// not a drop while a drop is legal.
    #[error("drops are compulsory: {text} is not a drop, and a drop is possible (e.g. {example})")]
    DropCompulsory {
        /// The move text.
        text: String,
        /// A legal drop.
        example: String,
    },
    /// A promotion must name the piece.
    #[error("the move promotes: add the piece letter, e.g. {example}")]
    MissingPromotion {
        /// The move text.
        text: String,
        /// A complete text.
        example: String,
    },
    /// Nothing legal matches.
    #[error("no such move{detail}")]
    NoSuchMove {
        /// The move text.
        text: String,
        /// More detail (starts with ": " when present).
        detail: String,
    },
    /// More than one legal move matches.
    #[error("{text} is ambiguous: it may be {candidates}")]
    Ambiguous {
        /// The move text.
        text: String,
        /// The candidates in long algebraic.
        candidates: String,
    },
}

#[derive(Logos, Clone, Debug, PartialEq, Eq)]
#[logos(skip r"[ \t]+")]
enum Token {
    #[regex("[a-p](1[0-6]|[1-9])", |lex| parse_square(lex.slice()))]
    Square(Square),
    #[regex("1[0-6]|[1-9]", |lex| lex.slice().parse::<u8>().ok())]
    Rank(u8),
    #[regex("\\+?[A-Za-z]'*", |lex| lex.slice().to_string())]
    Letter(String),
    #[regex("O-O-O|0-0-0")]
    CastleLong,
    #[regex("O-O|0-0")]
    CastleShort,
    #[token("=")]
    Equals,
    #[token(">")]
    Then,
    #[token("^")]
    Crown,
    #[token("@")]
    At,
    #[token("/")]
    Slash,
    #[token("-")]
    Dash,
    #[regex("[+#!?]")]
    Annotation,
    /// A `+` after a long algebraic move (`e4e5+`): Fairy-Stockfish's
    /// promotion into a kind whose letter is marked `+` (shogi's), or else
    /// a check mark. Never produced by the lexer: [`tokenize`] makes it.
    PlusPromotion,
}

fn parse_square(text: &str) -> Option<Square> {
    let mut chars = text.chars();
    let file = chars.next()? as u8 - b'a';
    let rank: u8 = text[1..].parse().ok()?;
    Some(Square::new(file, rank.checked_sub(1)?))
}

fn tokenize(input: &str) -> Result<Vec<Token>, MoveTextError> {
    let mut lexer = Token::lexer(input);
    let mut out = Vec::new();
    while let Some(token) = lexer.next() {
        match token {
            Ok(Token::Annotation) => {
                // Kept only at the end of `e4e5+` / `e4-e5+`.
                let long_algebraic = matches!(
                    out.as_slice(),
                    [Token::Square(_), Token::Square(_)]
                        | [Token::Square(_), Token::Dash, Token::Square(_)]
                );
                if lexer.slice() == "+" && long_algebraic && lexer.remainder().trim().is_empty() {
                    out.push(Token::PlusPromotion);
                }
            }
            Ok(token) => out.push(token),
            Err(()) => {
                return Err(MoveTextError::Unexpected {
                    input: input.to_string(),
                    text: lexer.slice().to_string(),
                    column: lexer.span().start + 1,
                })
            }
        }
    }
    Ok(out)
}

/// The letter of `kind` (upper case, marks included), `?` if unknown.
fn letter(variant: &Variant, kind: PieceId) -> &str {
    variant.pieces.get(kind).map_or("?", |p| p.letter.as_str())
}

/// Whether SAN writes `kind` without its letter (pawn-like kinds).
pub fn is_pawn_like(variant: &Variant, kind: PieceId) -> bool {
    variant.en_passant.contains(&kind) || letter(variant, kind) == "P"
}

/// The kind of the piece that makes `mv` on `position`: after crowning when
/// the crowned piece is the one that moves.
fn mover_kind(variant: &Variant, position: &impl Board, mv: &Move) -> Option<PieceId> {
    if let Some(kind) = mv.dropped() {
        return Some(kind);
    }
    if mv.crown == Some(mv.from) {
        if let crate::model::RoyalLoss::Succession { becomes, .. } = &variant.royal_loss {
            return Some(*becomes);
        }
    }
    position.piece_at(mv.from).map(|p| p.kind())
}

/// The runtime moves of a back end's `moves` ([`Rules::describe`]), in order.
pub fn describe_all<R: Rules + ?Sized>(rules: &R, moves: &[R::Move]) -> Vec<Move> {
    moves.iter().map(|mv| rules.describe(mv)).collect()
}

/// [`long_algebraic`] of a back end's move `mv`, `legal` the back end's
/// legal moves of the position.
pub fn long_algebraic_of<R: Rules + ?Sized>(rules: &R, mv: &R::Move, legal: &[R::Move]) -> String {
    long_algebraic(
        rules.variant(),
        &rules.describe(mv),
        &describe_all(rules, legal),
    )
}

/// The move in long algebraic (see the module documentation), read from the
/// runtime move ([`Rules::describe`]). `legal` is the list of legal moves of
/// the position, used to keep castling unambiguous.
pub fn long_algebraic(variant: &Variant, mv: &Move, legal: &[Move]) -> String {
    let mut out = String::new();
    if let Some(crown) = mv.crown {
        out.push_str(&format!("{crown}^"));
    }
    match mv.kind {
        MoveKind::Castle { rook_from, .. } if mv.gate.is_some_and(|g| g.square == rook_from) => {
            out.push_str(&format!("{rook_from}{}", mv.from));
        }
        MoveKind::Castle { rook_from, .. } => {
            let king_text = mv.to != rook_from
                && mv.from.file.abs_diff(mv.to.file) >= 2
                && !legal.iter().any(|other| {
                    !other.is_castle()
                        && other.from == mv.from
                        && other.to == mv.to
                        && other.crown == mv.crown
                });
            let target = if king_text { mv.to } else { rook_from };
            out.push_str(&format!("{}{}", mv.from, target));
        }
        MoveKind::DelayedPromotion => {
            out.push_str(&format!("{}=", mv.from));
            if let Some(kind) = mv.promotion {
                out.push_str(&letter(variant, kind).to_lowercase());
            }
            if mv.to != mv.from {
                out.push_str(&format!(">{}", mv.to));
            }
        }
        MoveKind::Drop { piece } => out.push_str(&format!(
            "{}@{}",
            letter(variant, PieceId::from(piece)),
            mv.to
        )),
        MoveKind::Normal | MoveKind::EnPassant { .. } => {
            out.push_str(&format!("{}{}", mv.from, mv.to));
            if let Some(kind) = mv.promotion {
                let letter = letter(variant, kind);
                if letter.starts_with('+') {
                    // Fairy-Stockfish's shogi promotion: `e4e5+`.
                    out.push('+');
                } else {
                    out.push_str(&letter.to_lowercase());
                }
            }
        }
    }
    if let Some(gate) = mv.gate {
        out.push_str(&letter(variant, PieceId::from(gate.kind)).to_lowercase());
    }
    out
}

/// The move in SAN-like text (see the module documentation).
pub fn san<R: Rules + ?Sized>(rules: &R, position: &R::Position, played: &R::Move) -> String {
    let variant = rules.variant();
    let legal = describe_all(rules, &rules.legal_moves(position));
    let mv = &rules.describe(played);
    let mut out = String::new();
    if let Some(crown) = mv.crown {
        out.push_str(&format!("{crown}^"));
    }
    match mv.kind {
        MoveKind::Castle { .. } => out.push_str(match mv.castle_side() {
            Some(CastleSide::Long) => "O-O-O",
            _ => "O-O",
        }),
        MoveKind::DelayedPromotion => {
            out.push_str(&format!("{}=", mv.from));
            if let Some(kind) = mv.promotion {
                out.push_str(letter(variant, kind));
            }
            if mv.to != mv.from {
                out.push_str(&format!(">{}", mv.to));
            }
        }
        MoveKind::Drop { piece } => out.push_str(&format!(
            "{}@{}",
            letter(variant, PieceId::from(piece)),
            mv.to
        )),
        MoveKind::Normal | MoveKind::EnPassant { .. } => {
            let kind = mover_kind(variant, position, mv).unwrap_or(usize::MAX);
            let capture = mv.is_capture(position);
            if is_pawn_like(variant, kind) {
                if capture {
                    out.push(mv.from.file_char());
                }
            } else {
                out.push_str(letter(variant, kind));
                let rivals: Vec<&Move> = legal
                    .iter()
                    .filter(|o| {
                        matches!(o.kind, MoveKind::Normal | MoveKind::EnPassant { .. })
                            && o.to == mv.to
                            && o.from != mv.from
                            && o.crown == mv.crown
                            && mover_kind(variant, position, o) == Some(kind)
                    })
                    .collect();
                if !rivals.is_empty() {
                    if rivals.iter().all(|o| o.from.file != mv.from.file) {
                        out.push(mv.from.file_char());
                    } else if rivals.iter().all(|o| o.from.rank != mv.from.rank) {
                        out.push_str(&(mv.from.rank + 1).to_string());
                    } else {
                        out.push_str(&mv.from.to_string());
                    }
                }
            }
            if capture {
                out.push('x');
            }
            out.push_str(&mv.to.to_string());
            if let Some(kind) = mv.promotion {
                out.push('=');
                out.push_str(letter(variant, kind));
            }
        }
    }
    if let Some(gate) = mv.gate {
        out.push('/');
        out.push_str(letter(variant, PieceId::from(gate.kind)));
        if mv.is_castle() {
            out.push_str(&gate.square.to_string());
        }
    }
    let after = rules.play(position, played);
    if rules.in_check(&after) {
        let mates = rules.legal_moves(&after).is_empty();
        out.push(if mates { '#' } else { '+' });
    }
    out
}

/// What a move text says, before it is matched with the legal moves.
#[derive(Debug, Default)]
struct Spec {
    crown: Option<Square>,
    castle: Option<CastleSide>,
    delayed: bool,
    piece: Option<String>,
    from_file: Option<u8>,
    from_rank: Option<u8>,
    from: Option<Square>,
    to: Option<Square>,
    promotion: Option<String>,
    /// The letter of a drop (`P@e4`).
    drop: Option<String>,
    /// SAN's gating suffix: the entering kind's letter (`Nc3/H`) and, for
    /// castling, its square (`O-O/He1`).
    gate: Option<String>,
    gate_square: Option<Square>,
}

fn syntax(input: &str, expected: &str) -> MoveTextError {
    MoveTextError::Syntax {
        input: input.to_string(),
        expected: expected.to_string(),
    }
}

fn read_spec(input: &str, tokens: &[Token]) -> Result<Spec, MoveTextError> {
    let mut spec = Spec::default();
    let mut rest = tokens;
    match rest {
        [head @ .., Token::Slash, Token::Letter(letter)] => {
            spec.gate = Some(letter.to_uppercase());
            rest = head;
        }
        [head @ .., Token::Slash, Token::Letter(letter), Token::Square(square)] => {
            spec.gate = Some(letter.to_uppercase());
            spec.gate_square = Some(*square);
            rest = head;
        }
        _ if rest.contains(&Token::Slash) => {
            return Err(syntax(
                input,
                "a gating suffix is '/' and the entering piece's letter, such as Nc3/H or O-O/He1",
            ))
        }
        _ => {}
    }
    if let [Token::Square(square), Token::Crown, tail @ ..] = rest {
        spec.crown = Some(*square);
        rest = tail;
    }
    match rest {
        [] => return Err(syntax(input, "a move after the crowned square")),
        [Token::CastleShort] => spec.castle = Some(CastleSide::Short),
        [Token::CastleLong] => spec.castle = Some(CastleSide::Long),
        [Token::Letter(piece), Token::At, Token::Square(square)] => {
            spec.drop = Some(piece.to_uppercase());
            spec.to = Some(*square);
        }
        [Token::Letter(_), Token::At, ..] | [Token::At, ..] => {
            return Err(syntax(
                input,
                "a drop is a piece letter, '@' and a square, such as P@e4",
            ))
        }
        [Token::Square(square), Token::Equals, Token::Letter(piece), tail @ ..] => {
            spec.delayed = true;
            spec.from = Some(*square);
            spec.promotion = Some(piece.clone());
            match tail {
                [] => spec.to = Some(*square),
                [Token::Then, Token::Square(to)] => spec.to = Some(*to),
                _ => {
                    return Err(syntax(
                        input,
                        "'>' and a square after a delayed promotion, or nothing",
                    ))
                }
            }
        }
        _ => read_ordinary(input, rest, &mut spec)?,
    }
    Ok(spec)
}

fn is_file_letter(letter: &str) -> bool {
    letter.len() == 1 && letter.bytes().all(|b| (b'a'..=b'p').contains(&b))
}

/// Long algebraic (`e2e4`, `e2-e4`, `e7e8q`) or SAN (`Nbd7`, `exd5`, `e8=Q`).
fn read_ordinary(input: &str, tokens: &[Token], spec: &mut Spec) -> Result<(), MoveTextError> {
    let mut rest = tokens;
    // A leading upper-case letter is a piece (SAN); a lower-case one a file.
    if let [Token::Letter(l), tail @ ..] = rest {
        if l.starts_with(|c: char| c.is_ascii_uppercase()) {
            spec.piece = Some(l.clone());
            rest = tail;
        }
    }
    let mut squares = Vec::new();
    loop {
        match rest {
            [Token::Square(square), tail @ ..] => {
                squares.push(*square);
                rest = tail;
            }
            // The capture mark of SAN and of `e2xe4`.
            [Token::Letter(l), tail @ ..] if l == "x" => rest = tail,
            [Token::Dash, tail @ ..] if squares.len() == 1 => rest = tail,
            // SAN disambiguation by file (`Nbd7`, `exd5`) or by rank (`N1f3`).
            [Token::Letter(l), tail @ ..]
                if squares.is_empty() && spec.from_file.is_none() && is_file_letter(l) =>
            {
                spec.from_file = l.bytes().next().map(|b| b - b'a');
                rest = tail;
            }
            [Token::Rank(rank), tail @ ..] if squares.is_empty() && spec.from_rank.is_none() => {
                spec.from_rank = Some(rank - 1);
                rest = tail;
            }
            _ => break,
        }
    }
    match squares.as_slice() {
        [to] => spec.to = Some(*to),
        [from, to] => {
            spec.from = Some(*from);
            spec.to = Some(*to);
        }
        [] => return Err(syntax(input, "a destination square such as e4")),
        _ => return Err(syntax(input, "at most two squares")),
    }
    match rest {
        [] => {}
        [Token::Equals, Token::Letter(p)] | [Token::Letter(p)] => spec.promotion = Some(p.clone()),
        [Token::PlusPromotion] => spec.promotion = Some("+".to_string()),
        _ => return Err(syntax(input, "a promotion letter or the end of the move")),
    }
    Ok(())
}

/// Under compulsory capture, when a move the pieces could make (one of
/// `pseudo` that `named` accepts) is refused only because it captures
/// nothing while a capture is legal: a legal capture (long algebraic), to
/// say so. `None` when the rule does not apply or the move is refused for
/// another reason (it would leave a royal piece attacked).
pub fn refused_for_capture<R: Rules + ?Sized>(
    rules: &R,
    position: &R::Position,
    legal: &[Move],
    pseudo: &[R::Move],
    named: impl Fn(&Move) -> bool,
) -> Option<String> {
    if rules.variant().legality.capture_rule != CaptureRule::Compulsory {
        return None;
    }
    refused_for_want_of(rules, position, legal, pseudo, named, |mv| {
        mv.is_capture(position)
    })
}

/// Under compulsory drops, when a move the pieces could make (one of
/// `pseudo` that `named` accepts, safe for the mover's royal pieces) is
/// refused because a drop is legal: that drop, in long algebraic.
fn refused_for_drop<R: Rules + ?Sized>(
    rules: &R,
    position: &R::Position,
    legal: &[Move],
    pseudo: &[R::Move],
    named: impl Fn(&Move) -> bool,
) -> Option<String> {
    if !rules.variant().legality.drops_compulsory {
        return None;
    }
    refused_for_want_of(rules, position, legal, pseudo, named, |mv| {
        mv.dropped().is_some()
    })
}

/// Where a rule keeps only the legal moves of a kind (`compulsory`):
/// when a move the pieces could make (one of `pseudo` that `named`
/// accepts, not of that kind, safe for the mover's royal pieces) is
/// refused because a legal move of that kind exists, that move in long
/// algebraic.
fn refused_for_want_of<R: Rules + ?Sized>(
    rules: &R,
    position: &R::Position,
    legal: &[Move],
    pseudo: &[R::Move],
    named: impl Fn(&Move) -> bool,
    of_the_kind: impl Fn(&Move) -> bool,
) -> Option<String> {
    let variant = rules.variant();
    let example = legal.iter().find(|mv| of_the_kind(mv))?;
    let side = position.side_to_move();
    let refused = pseudo.iter().any(|mv| {
        let described = rules.describe(mv);
        named(&described)
            && !of_the_kind(&described)
            && (variant.legality.check_rule == CheckRule::None
                || !rules.royal_attacked(&rules.play(position, mv), side))
    });
    refused.then(|| long_algebraic(variant, example, legal))
}

/// Reads `text` as a move of the side to move in `position` (long algebraic
/// or SAN) and returns the legal move it names.
pub fn parse_move<R: Rules + ?Sized>(
    rules: &R,
    position: &R::Position,
    text: &str,
) -> Result<R::Move, MoveTextError> {
    let variant = rules.variant();
    let input = text.trim();
    if input.is_empty() {
        return Err(MoveTextError::Empty);
    }
    let tokens = tokenize(input)?;
    let spec = read_spec(input, &tokens)?;
    for square in [spec.crown, spec.from, spec.to].into_iter().flatten() {
        if !variant
            .board
            .contains(square.file as i32, square.rank as i32)
        {
            return Err(MoveTextError::OffBoard {
                square: square.to_string(),
            });
        }
    }
    let kind_of = |l: &String| {
        variant
            .piece_by_letter(l)
            .ok_or_else(|| MoveTextError::UnknownPiece { letter: l.clone() })
    };
    let generated = rules.legal_moves(position);
    let legal = describe_all(rules, &generated);
    let mut spec = spec;
    if spec.promotion.as_deref() == Some("+") {
        // `e4e5+`: the promotion into a kind marked `+` when the move has
        // one (Fairy-Stockfish's shogi), else a check mark.
        let mut kinds: Vec<PieceId> = legal
            .iter()
            .filter(|mv| Some(mv.from) == spec.from && Some(mv.to) == spec.to)
            .filter_map(|mv| mv.promotion)
            .filter(|kind| letter(variant, *kind).starts_with('+'))
            .collect();
        kinds.dedup();
        spec.promotion = match kinds.as_slice() {
            [kind] => Some(letter(variant, *kind).to_string()),
            _ => None,
        };
    }
    let piece = spec.piece.as_ref().map(kind_of).transpose()?;
    let promotion = spec.promotion.as_ref().map(kind_of).transpose()?;
    let dropped = spec.drop.as_ref().map(kind_of).transpose()?;
    let gate_kind = spec.gate.as_ref().map(kind_of).transpose()?;
    // A gating move names its entering kind: SAN after `/`, long
    // algebraic by the letter in the promotion's place (`b1c3h`); a move
    // without gating is named by no gating suffix.
    let gate_ok = |mv: &Move, check_letter: bool| -> bool {
        match mv.gate {
            Some(gate) => {
                let named = match gate_kind {
                    Some(kind) => kind == PieceId::from(gate.kind),
                    None => mv.promotion.is_none() && promotion == Some(PieceId::from(gate.kind)),
                };
                (!check_letter || named) && spec.gate_square.is_none_or(|s| s == gate.square)
            }
            None => spec.gate.is_none(),
        }
    };
    let mut pseudo_moves = Vec::new();
    rules.generate_pseudo_legal(position, &mut pseudo_moves);
    let pseudo = describe_all(rules, &pseudo_moves);
    let matches = |mv: &Move, check_promotion: bool| -> bool {
        if mv.crown != spec.crown || !gate_ok(mv, check_promotion) {
            return false;
        }
        // A drop is named only by its own form, and that form by nothing else.
        if spec.drop.is_some() || mv.dropped().is_some() {
            return mv.dropped().is_some() && mv.dropped() == dropped && Some(mv.to) == spec.to;
        }
        if let Some(side) = spec.castle {
            return mv.castle_side() == Some(side);
        }
        if spec.delayed {
            if mv.kind == MoveKind::DelayedPromotion {
                return Some(mv.from) == spec.from
                    && Some(mv.to) == spec.to
                    && mv.promotion == promotion;
            }
            // `e8=Q` is also SAN for a pawn reaching e8 and promoting.
            let pawn = position
                .piece_at(mv.from)
                .is_some_and(|p| is_pawn_like(variant, p.kind()));
            return spec.from == spec.to
                && Some(mv.to) == spec.to
                && pawn
                && !mv.is_castle()
                && (!check_promotion || mv.promotion == promotion);
        }
        if mv.kind == MoveKind::DelayedPromotion {
            return false;
        }
        let (from_ok, to_ok) = match mv.kind {
            // Rook-from, king-from where the gate is the rook's square.
            MoveKind::Castle { rook_from, .. }
                if mv.gate.is_some_and(|g| g.square == rook_from) =>
            {
                (spec.from == Some(rook_from), spec.to == Some(mv.from))
            }
            MoveKind::Castle { rook_from, .. } => (
                spec.from == Some(mv.from),
                Some(mv.to) == spec.to || Some(rook_from) == spec.to,
            ),
            _ => (
                spec.from.is_none_or(|f| f == mv.from)
                    && spec.from_file.is_none_or(|f| f == mv.from.file)
                    && spec.from_rank.is_none_or(|r| r == mv.from.rank),
                Some(mv.to) == spec.to,
            ),
        };
        let piece_ok = match (piece, mover_kind(variant, position, mv)) {
            (Some(kind), Some(mover)) => mover == kind,
            (Some(_), None) => false,
            (None, Some(mover)) => spec.from.is_some() || is_pawn_like(variant, mover),
            (None, None) => spec.from.is_some(),
        };
        // The letter after a gating move names what enters, not a promotion.
        let promotion_ok = !check_promotion
            || mv.promotion == promotion
            || (mv.is_castle() && mv.gate.is_none() && promotion.is_none())
            || (mv.gate.is_some() && spec.gate.is_none() && mv.promotion.is_none());
        to_ok && from_ok && piece_ok && promotion_ok
    };
    let found: Vec<usize> = (0..legal.len())
        .filter(|i| matches(&legal[*i], true))
        .collect();
    // A castling written king-from -> king-to also matches a normal king
    // move with the same squares; the normal move wins.
    let found: Vec<usize> = if found.len() > 1 && found.iter().any(|i| !legal[*i].is_castle()) {
        found
            .into_iter()
            .filter(|i| !legal[*i].is_castle() || spec.to != Some(legal[*i].to))
            .collect()
    } else {
        found
    };
    match found.as_slice() {
        [index] => return Ok(generated[*index]),
        [] => {
            // Fairy-Stockfish's form of a delayed promotion (sittuyin's
            // `e4e4f`, `e4d3f`): from, to and the letter, where no other
            // move has that text.
            if !spec.delayed && spec.from.is_some() && promotion.is_some() {
                let delayed: Vec<usize> = (0..legal.len())
                    .filter(|i| {
                        let mv = &legal[*i];
                        mv.kind == MoveKind::DelayedPromotion
                            && Some(mv.from) == spec.from
                            && Some(mv.to) == spec.to
                            && mv.promotion == promotion
                            && mv.crown == spec.crown
                    })
                    .collect();
                if let [index] = delayed.as_slice() {
                    return Ok(generated[*index]);
                }
            }
        }
        many => {
            return Err(MoveTextError::Ambiguous {
                text: input.to_string(),
                candidates: many
                    .iter()
                    .map(|i| long_algebraic(variant, &legal[*i], &legal))
                    .collect::<Vec<_>>()
                    .join(", "),
            })
        }
    }
    // Nothing legal: say why.
    if let Some(from) = spec.from {
        match position.piece_at(from) {
            None if spec.crown.is_none() => {
                return Err(MoveTextError::NoPieceOn {
                    square: from.to_string(),
                })
            }
            Some(p) if p.color() != position.side_to_move() => {
                return Err(MoveTextError::NotYourPiece {
                    square: from.to_string(),
                    side: position.side_to_move(),
                })
            }
            _ => {}
        }
    }
    if promotion.is_none() {
        // A text without the promotion letter names the move when its
        // completion is unique: a forced promotion with one choice (PPC's
        // rook entering enemy territory, `a1a7`), as XBoard sends it.
        let completions: Vec<usize> = (0..legal.len())
            .filter(|i| matches(&legal[*i], false) && legal[*i].promotion.is_some())
            .collect();
        if let [index] = completions.as_slice() {
            return Ok(generated[*index]);
        }
        if let Some(example) = completions.first().map(|i| &legal[*i]) {
            return Err(MoveTextError::MissingPromotion {
                text: input.to_string(),
                example: long_algebraic(variant, example, &legal),
            });
        }
    }
    if let Some(example) = refused_for_capture(rules, position, &legal, &pseudo_moves, |mv| {
        matches(mv, true)
    }) {
        return Err(MoveTextError::CaptureCompulsory {
            text: input.to_string(),
            example,
        });
    }
    if let Some(example) = refused_for_drop(rules, position, &legal, &pseudo_moves, |mv| {
        matches(mv, true)
    }) {
        return Err(MoveTextError::DropCompulsory {
            text: input.to_string(),
            example,
        });
    }
    let royal = variant
        .pieces
        .iter()
        .find(|p| p.royal)
        .map_or("royal piece", |p| p.name.as_str());
    if variant.legality.giving_check == GivingCheck::Forbidden {
        let side = position.side_to_move();
        let gives_check = pseudo_moves.iter().any(|mv| {
            if !matches(&rules.describe(mv), true) {
                return false;
            }
            let after = rules.play(position, mv);
            !(variant.legality.check_rule == CheckRule::RoyalMayNotBeAttacked
                && rules.royal_attacked(&after, side))
                && rules.royal_attacked(&after, side.opponent())
        });
        if gives_check {
            return Err(MoveTextError::GivesCheck {
                text: input.to_string(),
                royal: royal.to_string(),
            });
        }
    }
    if variant.legality.check_rule == CheckRule::RoyalMayNotBeAttacked
        && pseudo.iter().any(|mv| matches(mv, true))
    {
        return Err(MoveTextError::LeavesRoyalAttacked {
            text: input.to_string(),
            royal: royal.to_string(),
        });
    }
    let letter = spec.gate.as_ref().or(spec.promotion.as_ref());
    let detail = match (spec.from, spec.to, letter) {
        (Some(from), Some(to), Some(letter)) if legal.iter().any(|mv| matches(mv, false)) => {
            format!(": {from}{to} is legal, but not with {letter:?} (no promotion or piece entering by that letter)")
        }
        (Some(from), Some(to), _) if position.piece_at(from).is_some() => {
            format!(": the piece on {from} cannot go to {to}")
        }
        _ => String::new(),
    };
    Err(MoveTextError::NoSuchMove {
        text: input.to_string(),
        detail,
    })
}
