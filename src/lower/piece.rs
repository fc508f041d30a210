//! Pieces and their movement: words (`leap (1,2)`, `ride (0,1) up to 2`),
//! references to other pieces' movement, and Betza strings, with modifiers.

use super::betza;
use super::{Lowerer, NameKind};
use crate::ast;
use crate::error::{nearest, Code, Error, Span};
use crate::model::*;

/// Movement names that are not pieces: a convenience for common atoms.
const BUILTIN_MOVES: [(&str, &str); 6] = [
    ("king-step", "K"),
    ("wazir-step", "W"),
    ("ferz-step", "F"),
    ("knight-jump", "N"),
    ("rook-ride", "R"),
    ("bishop-ride", "B"),
];

/// A piece statement and the file it is written in.
type PieceSite<'a> = (usize, &'a ast::Piece);

impl<'a> Lowerer<'a> {
    /// Registers every piece's name and letter, then lowers movement (a
    /// piece may use the movement of a piece defined after it).
    pub(super) fn lower_pieces(&mut self) {
        let items: Vec<PieceSite<'a>> = self
            .items
            .iter()
            .filter_map(|i| {
                let body: &'a ast::Body = i.body;
                let ast::BodyKind::Piece(piece) = &body.kind else {
                    return None;
                };
                Some((i.file, piece))
            })
            .collect();
        if let Some((file, extra)) = items.get(MAX_PIECE_KINDS) {
            self.error(
                Error::new(
                    Code::TooManyPieceKinds,
                    *file,
                    extra.name.span,
                    format!("a variant has at most {MAX_PIECE_KINDS} piece kinds"),
                )
                .with_label(format!("kind number {}", MAX_PIECE_KINDS + 1))
                .with_note(format!("the variant defines {} kinds", items.len())),
            );
        }
        let mut letters: Vec<(String, usize, Span)> = Vec::new();
        for &(file, piece) in &items {
            let letter = piece.letter.value.clone();
            let letter_span = piece.letter.span;
            // `+` before the letter marks a promoted kind, as
            // Fairy-Stockfish writes shogi's (`+P`, the tokin).
            let base = letter.strip_prefix('+').unwrap_or(&letter);
            let valid = base.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
                && base.chars().skip(1).all(|c| c == '\'');
            if !valid {
                self.error(
                    Error::new(
                        Code::BadPieceLetter,
                        file,
                        letter_span,
                        format!("piece letter `{letter}` is not a letter with optional marks"),
                    )
                    .with_label("used in FEN and move text")
                    .with_help(
                        "write one ASCII letter, optionally followed by `'` marks, after a `+` for a promoted kind: \"R\", \"R'\", \"+P\"",
                    ),
                );
            }
            let upper = letter.to_ascii_uppercase();
            if let Some((_, first_file, first_span)) = letters.iter().find(|(l, _, _)| *l == upper)
            {
                self.error(
                    Error::new(
                        Code::DuplicateLetter,
                        file,
                        letter_span,
                        format!("two pieces are written `{upper}`"),
                    )
                    .with_label("used again here")
                    .with_secondary(*first_file, *first_span, "first used here")
                    .with_help("each piece needs its own letter so that FEN can tell them apart"),
                );
            }
            letters.push((upper.clone(), file, letter_span));
            let mut royal = false;
            let mut value = None;
            let mut confined = None;
            for option in &piece.options {
                match option {
                    ast::PieceOption::Royal => royal = true,
                    // A later `confined to` replaces an earlier one, as a
                    // later `value` would not: the last region written is
                    // the one a reader sees next to `moves`.
                    ast::PieceOption::Confined(region) => {
                        confined = self.region(file, region).or(confined);
                    }
                    // The first valid value counts; each invalid one is reported.
                    ast::PieceOption::Value(number) => {
                        if value.is_none() {
                            value = self.number_in(
                                file,
                                number,
                                0.0..=MAX_PIECE_VALUE,
                                "a piece's value in pawns",
                            );
                        }
                    }
                }
            }
            self.piece_ids
                .insert(piece.name.name.clone(), self.pieces.len());
            self.pieces.push(PieceKind {
                name: piece.name.name.clone(),
                letter: upper,
                value,
                endgame_value: None,
                square_bonuses: None,
                mobility_tables: None,
                royal_cover: None,
                royal,
                confined,
                moves: Vec::new(),
                passes: false,
                betza: String::new(),
            });
        }
        let mut state = vec![Resolution::Pending; self.pieces.len()];
        for id in 0..items.len() {
            self.resolve_piece(id, &items, &mut state);
        }
    }

    /// Lowers piece `id`'s movement, first lowering pieces it refers to.
    fn resolve_piece(&mut self, id: PieceId, items: &[PieceSite<'a>], state: &mut [Resolution]) {
        if state[id] != Resolution::Pending {
            return;
        }
        state[id] = Resolution::InProgress;
        let (file, piece) = items[id];
        let expr = &piece.moves;
        let atoms = self.move_expr(file, expr, items, state);
        let passes = expr_passes(expr);
        self.pieces[id].passes = passes;
        if atoms.is_empty()
            && !passes
            && !self
                .errors
                .iter()
                .any(|e| e.file == file && contains(e.span, expr.span))
        {
            let name = &self.pieces[id].name;
            self.error(
                Error::new(Code::NoMove, file, expr.span, format!("piece `{name}` has no move"))
                    .with_label("these modifiers and atoms leave no direction")
                    .with_help("check the direction words: `sideways leap (1,2)` keeps nothing, since no knight jump stays on its rank"),
            );
        }
        self.pieces[id].betza = betza::write(&atoms);
        self.pieces[id].moves = atoms;
        state[id] = Resolution::Done;
    }

    fn move_expr(
        &mut self,
        file: usize,
        expr: &ast::MoveExpr,
        items: &[PieceSite<'a>],
        state: &mut [Resolution],
    ) -> Vec<MoveAtom> {
        let mut atoms: Vec<MoveAtom> = Vec::new();
        for term in &expr.terms {
            for atom in self.move_term(file, term, items, state) {
                if !atoms.contains(&atom) {
                    atoms.push(atom);
                }
            }
        }
        atoms
    }

    fn move_term(
        &mut self,
        file: usize,
        term: &ast::MoveTerm,
        items: &[PieceSite<'a>],
        state: &mut [Resolution],
    ) -> Vec<MoveAtom> {
        let mut mode = MoveMode::MoveOrCapture;
        let mut first_move = false;
        let mut words: Vec<ast::Direction> = Vec::new();
        for modifier in &term.modifiers {
            let new = match modifier.kind {
                ast::ModifierKind::MoveOnly => MoveMode::MoveOnly,
                ast::ModifierKind::CaptureOnly => MoveMode::CaptureOnly,
                ast::ModifierKind::FirstMove => {
                    first_move = true;
                    continue;
                }
                ast::ModifierKind::Direction(word) => {
                    words.push(word);
                    continue;
                }
            };
            if mode != MoveMode::MoveOrCapture && mode != new {
                self.error(
                    Error::new(
                        Code::ConflictingModifiers,
                        file,
                        modifier.span,
                        "`move-only` and `capture-only` together leave nothing",
                    )
                    .with_label("contradicts the other mode")
                    .with_help(
                        "keep one of them; without either, a movement both moves and captures",
                    ),
                );
            }
            mode = new;
        }
        if let ast::MoveAtom::Pass(_) = &term.atom {
            if !term.modifiers.is_empty() || !term.limits.is_empty() || term.region.is_some() {
                self.error(
                    Error::new(
                        Code::PassWithModifiers,
                        file,
                        term.span,
                        "`pass` takes no modifiers, limits or `in REGION`",
                    )
                    .with_label("the piece stays on its square: there is nothing to direct")
                    .with_help("write `pass` as a term of its own: `moves leap (0,1) + pass`"),
                );
            }
            return Vec::new();
        }
        let atoms = self.move_atom(file, &term.atom, items, state);
        let region = term
            .region
            .as_ref()
            .and_then(|name| self.region(file, name));
        let condition = match (first_move, region) {
            (true, Some(_)) => {
                self.error(
                    Error::new(
                        Code::ConflictingModifiers,
                        file,
                        term.span,
                        "a movement can be `first-move` or `in REGION`, not both",
                    )
                    .with_label("two conditions")
                    .with_help("keep one condition, or write two movements joined by `+`"),
                );
                AtomCondition::FirstMove
            }
            (true, None) => AtomCondition::FirstMove,
            (false, Some(r)) => AtomCondition::InRegion(r),
            (false, None) => AtomCondition::Always,
        };
        let atoms = self.apply_limits(file, term, atoms);
        let atoms: Vec<MoveAtom> = atoms
            .into_iter()
            .filter_map(|mut atom| {
                atom.mode = combined_mode(atom.mode, mode)?;
                atom.directions.retain(|d| keeps(&words, *d));
                if condition != AtomCondition::Always {
                    atom.condition = condition;
                }
                (!atom.directions.is_empty()).then_some(atom)
            })
            .collect();
        // A movement barred in check that captured would attack only
        // when its side is not in check: it may only move.
        let capturing = atoms
            .iter()
            .any(|atom| atom.limits.not_from_check && atom.mode != MoveMode::MoveOnly);
        if capturing {
            self.error(
                Error::new(
                    Code::NotFromCheckCaptures,
                    file,
                    term.span,
                    "a `not from check` movement must be `move-only`",
                )
                .with_label("this movement may capture")
                .with_help(
                    "write `move-only` before it: `first-move move-only betza \"fsN\" not from check`",
                ),
            );
        }
        atoms
    }

    /// Applies the limits written after a term's atom (`along REGION`,
    /// `not over PIECES`, `not capturing PIECES`) to the atoms it stands
    /// for. `not over` needs a hop among them; a limit may not be written
    /// twice, nor name a kind twice, nor give an atom a second `along`
    /// region (E0433).
    fn apply_limits(
        &mut self,
        file: usize,
        term: &ast::MoveTerm,
        mut atoms: Vec<MoveAtom>,
    ) -> Vec<MoveAtom> {
        let mut along: Option<RegionId> = None;
        let mut not_over: Vec<PieceId> = Vec::new();
        let mut not_capturing: Vec<PieceId> = Vec::new();
        let mut not_from_check = false;
        let mut seen: Vec<&'static str> = Vec::new();
        for limit in &term.limits {
            let (word, span) = match limit {
                ast::AtomLimit::Along(region) => ("along", region.span),
                ast::AtomLimit::NotOver(_, span) => ("not over", *span),
                ast::AtomLimit::NotCapturing(_, span) => ("not capturing", *span),
                ast::AtomLimit::NotFromCheck(span) => ("not from check", *span),
            };
            if seen.contains(&word) {
                self.error(
                    Error::new(
                        Code::AtomLimitTwice,
                        file,
                        span,
                        format!("`{word}` is written twice on one movement"),
                    )
                    .with_label("the second one")
                    .with_help(format!("write `{word}` once; join several kinds with `|`")),
                );
                continue;
            }
            seen.push(word);
            match limit {
                ast::AtomLimit::Along(region) => along = self.region(file, region),
                ast::AtomLimit::NotFromCheck(_) => not_from_check = true,
                ast::AtomLimit::NotOver(pieces, span)
                | ast::AtomLimit::NotCapturing(pieces, span) => {
                    let mut ids = Vec::new();
                    for name in pieces {
                        let Some(id) = self.piece(file, name) else {
                            continue;
                        };
                        if ids.contains(&id) {
                            self.error(
                                Error::new(
                                    Code::AtomLimitTwice,
                                    file,
                                    name.span,
                                    format!("`{}` is named twice after `{word}`", name.name),
                                )
                                .with_label("named again")
                                .with_help("name each kind once: the list is a set"),
                            );
                            continue;
                        }
                        ids.push(id);
                    }
                    if let ast::AtomLimit::NotOver(..) = limit {
                        let hops = atoms
                            .iter()
                            .any(|atom| matches!(atom.motion, Motion::Hop { .. }));
                        if !hops && !atoms.is_empty() {
                            self.error(
                                Error::new(
                                    Code::ModifierNotForMotion,
                                    file,
                                    *span,
                                    "`not over` limits what a hop jumps, and this movement has no hop",
                                )
                                .with_label("no hop to limit")
                                .with_help("`hop (0,1) not over cannon`: the cannon may not jump a cannon"),
                            );
                        }
                        not_over = ids;
                    } else {
                        not_capturing = ids;
                    }
                }
            }
        }
        for atom in &mut atoms {
            if let Some(region) = along {
                match atom.limits.along {
                    Some(inner) if inner != region => {
                        self.error(
                            Error::new(
                                Code::AtomLimitTwice,
                                file,
                                term.span,
                                "a movement inside this one is already `along` another region",
                            )
                            .with_label("two `along` regions")
                            .with_help(
                                "give each part its own `along`, or one region for the whole group",
                            ),
                        );
                    }
                    _ => atom.limits.along = Some(region),
                }
            }
            if matches!(atom.motion, Motion::Hop { .. }) {
                for id in &not_over {
                    if !atom.limits.not_over.contains(id) {
                        atom.limits.not_over.push(*id);
                    }
                }
            }
            for id in &not_capturing {
                if !atom.limits.not_capturing.contains(id) {
                    atom.limits.not_capturing.push(*id);
                }
            }
            atom.limits.not_from_check |= not_from_check;
        }
        atoms
    }

    fn move_atom(
        &mut self,
        file: usize,
        atom: &ast::MoveAtom,
        items: &[PieceSite<'a>],
        state: &mut [Resolution],
    ) -> Vec<MoveAtom> {
        match atom {
            ast::MoveAtom::Betza(string) => match betza::parse(&string.value) {
                Ok(atoms) => atoms,
                Err(e) => {
                    let start = string.span.start + 1 + e.offset;
                    let end = (start + 1).min(string.span.end - 1).max(start);
                    self.error(
                        Error::new(Code::BadBetza, file, Span::new(start, end), format!("bad Betza notation: {}", e.message))
                            .with_label("here")
                            .with_help("Betza atoms: W F D N A H C Z G, compounds K R B Q, doubled letters ride; modifiers f b l r v s m c i n p g"),
                    );
                    Vec::new()
                }
            },
            ast::MoveAtom::Geometric(geometric) => self.geometric_atom(file, geometric),
            ast::MoveAtom::Group(expr) => self.move_expr(file, expr, items, state),
            ast::MoveAtom::Reference(name) => self.movement_reference(file, name, items, state),
            ast::MoveAtom::Pass(_) => Vec::new(),
        }
    }

    /// A piece name (its movement) or a built-in movement name.
    fn movement_reference(
        &mut self,
        file: usize,
        ident: &ast::Ident,
        items: &[PieceSite<'a>],
        state: &mut [Resolution],
    ) -> Vec<MoveAtom> {
        let name = ident.name.as_str();
        if let Some(&id) = self.piece_ids.get(name) {
            self.movement_pieces.insert(id);
            match state[id] {
                Resolution::InProgress => {
                    self.error(
                        Error::new(Code::SelfReferentialMovement, file, ident.span, format!("the movement of `{name}` refers to itself"))
                            .with_label("used while it is being defined")
                            .with_help("describe the movement with atoms (`ride (0,1)`) instead of piece names that refer back"),
                    );
                    return Vec::new();
                }
                Resolution::Pending => self.resolve_piece(id, items, state),
                Resolution::Done => {}
            }
            return self.pieces[id].moves.clone();
        }
        if let Some((_, betza_text)) = BUILTIN_MOVES.iter().find(|(n, _)| *n == name) {
            return betza::parse(betza_text).unwrap_or_default();
        }
        if self.error_limit_reached() {
            return Vec::new();
        }
        let known: Vec<&str> = self
            .piece_ids
            .keys()
            .map(String::as_str)
            .chain(BUILTIN_MOVES.iter().map(|(n, _)| *n))
            .collect();
        let mut error = Error::new(
            Code::UnknownMovement,
            file,
            ident.span,
            format!("unknown movement `{name}`"),
        )
        .with_label("not a piece or a built-in movement");
        error = match nearest(name, known) {
            Some(close) => error.with_help(format!("did you mean `{close}`?")),
            None => error.with_note("built-in movements: king-step, wazir-step, ferz-step, knight-jump, rook-ride, bishop-ride; or use a piece's name"),
        };
        error = self.point_at_drop(error, NameKind::Piece, name);
        self.error(error);
        Vec::new()
    }

    fn geometric_atom(&mut self, file: usize, atom: &ast::GeometricAtom) -> Vec<MoveAtom> {
        let kind = atom.motion.keyword();
        let offset = &atom.offset;
        // The grammar gives digits; too many of them saturate (and are
        // then longer than any board).
        let number = |token: &ast::Token| token.text.parse::<i32>().unwrap_or(i32::MAX);
        let (df, dr) = (number(&offset.files), number(&offset.ranks));
        let span = offset.span;
        let limit = MAX_BOARD_SIDE as i32 - 1;
        if df == 0 && dr == 0 {
            self.error(
                Error::new(
                    Code::BadOffset,
                    file,
                    span,
                    "the offset (0,0) does not move",
                )
                .with_label("null offset")
                .with_help(
                    "an offset is (files, ranks): (0,1) is one step, (1,2) the knight's jump",
                ),
            );
            return Vec::new();
        }
        if df.unsigned_abs() > limit as u32 || dr.unsigned_abs() > limit as u32 {
            self.error(
                Error::new(
                    Code::BadOffset,
                    file,
                    span,
                    format!("offset {} is longer than any board", offset.text),
                )
                .with_label(format!("at most {limit} squares either way")),
            );
            return Vec::new();
        }
        let is_ride = match atom.motion {
            ast::MotionKind::Ride => true,
            ast::MotionKind::Leap | ast::MotionKind::LameLeap | ast::MotionKind::Hop => false,
        };
        let is_hop = match atom.motion {
            ast::MotionKind::Hop => true,
            ast::MotionKind::Leap | ast::MotionKind::LameLeap | ast::MotionKind::Ride => false,
        };
        if let (Some(range), false) = (&atom.range, is_ride) {
            self.error(
                Error::new(
                    Code::ModifierNotForMotion,
                    file,
                    range.span,
                    format!("`up to` limits a ride, not a {kind}"),
                )
                .with_label("only `ride` has a range")
                .with_help(format!(
                    "remove `{}`, or make the movement a `ride`",
                    range.text.trim()
                )),
            );
        }
        if let (Some(adjacent), false) = (atom.adjacent, is_hop) {
            self.error(
                Error::new(
                    Code::ModifierNotForMotion,
                    file,
                    adjacent,
                    format!("`adjacent` is for hops, not a {kind}"),
                )
                .with_label("only `hop` lands adjacent")
                .with_help("`hop (0,1) adjacent` lands just beyond the piece it jumps over"),
            );
        }
        let max = match &atom.range {
            Some(range) => {
                match self.number_in(file, &range.limit, 0..=u32::MAX, "a ride's range") {
                    Some(0) => {
                        self.error(
                            Error::new(
                                Code::BadOffset,
                                file,
                                range.span,
                                "a ride of `up to 0` steps does not move",
                            )
                            .with_label("range 0")
                            .with_help("a ride goes at least one step: `up to 1` or more"),
                        );
                        return Vec::new();
                    }
                    Some(n) => Some(n.min(MAX_BOARD_SIDE as u32) as u8),
                    None => return Vec::new(),
                }
            }
            None => None,
        };
        let motion = match atom.motion {
            ast::MotionKind::Leap => Motion::Leap,
            ast::MotionKind::LameLeap => Motion::LameLeap,
            ast::MotionKind::Ride => Motion::Ride { max },
            ast::MotionKind::Hop => Motion::Hop {
                landing: match atom.adjacent {
                    Some(_) => HopLanding::Adjacent,
                    None => HopLanding::Any,
                },
            },
        };
        vec![MoveAtom {
            motion,
            directions: betza::symmetric((df as i8, dr as i8)),
            mode: MoveMode::MoveOrCapture,
            condition: AtomCondition::Always,
            limits: AtomLimits::default(),
        }]
    }
}

/// The mode of an atom under a term's modifier: `None` if they contradict.
fn combined_mode(atom: MoveMode, modifier: MoveMode) -> Option<MoveMode> {
    match (atom, modifier) {
        (mode, MoveMode::MoveOrCapture) | (MoveMode::MoveOrCapture, mode) => Some(mode),
        (MoveMode::MoveOnly, MoveMode::MoveOnly) => Some(MoveMode::MoveOnly),
        (MoveMode::CaptureOnly, MoveMode::CaptureOnly) => Some(MoveMode::CaptureOnly),
        (MoveMode::MoveOnly, MoveMode::CaptureOnly)
        | (MoveMode::CaptureOnly, MoveMode::MoveOnly) => None,
    }
}

/// Whether direction words keep `(df, dr)`: words about ranks (forward,
/// backward, sideways) are a union, words about files (left, right,
/// vertical) are a union, and the two groups intersect.
fn keeps(words: &[ast::Direction], (df, dr): (i8, i8)) -> bool {
    let mut rank_words = false;
    let mut rank_ok = false;
    let mut file_words = false;
    let mut file_ok = false;
    for word in words {
        match word {
            ast::Direction::Forward => (rank_words, rank_ok) = (true, rank_ok || dr > 0),
            ast::Direction::Backward => (rank_words, rank_ok) = (true, rank_ok || dr < 0),
            ast::Direction::Sideways => (rank_words, rank_ok) = (true, rank_ok || dr == 0),
            ast::Direction::Left => (file_words, file_ok) = (true, file_ok || df < 0),
            ast::Direction::Right => (file_words, file_ok) = (true, file_ok || df > 0),
            ast::Direction::Vertical => (file_words, file_ok) = (true, file_ok || df == 0),
        }
    }
    (!rank_words || rank_ok) && (!file_words || file_ok)
}

/// Whether a movement holds `pass` (in a group too).
fn expr_passes(expr: &ast::MoveExpr) -> bool {
    expr.terms.iter().any(|term| match &term.atom {
        ast::MoveAtom::Pass(_) => true,
        ast::MoveAtom::Group(inner) => expr_passes(inner),
        ast::MoveAtom::Betza(_) | ast::MoveAtom::Geometric(_) | ast::MoveAtom::Reference(_) => {
            false
        }
    })
}

fn contains(outer: Span, inner: Span) -> bool {
    outer.start <= inner.end && inner.start <= outer.end
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Resolution {
    Pending,
    InProgress,
    Done,
}
