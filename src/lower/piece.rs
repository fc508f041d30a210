//! Pieces and their movement: words (`leap (1,2)`, `ride (0,1) up to 2`),
//! references to other pieces' movement, and Betza strings, with modifiers.

use super::betza;
use super::{children, first_child, Lowerer};
use crate::error::{nearest, Code, Error, Span};
use crate::model::*;
use crate::syntax::{Node, Rule};

/// Movement names that are not pieces: a convenience for common atoms.
const BUILTIN_MOVES: [(&str, &str); 6] = [
    ("king-step", "K"),
    ("wazir-step", "W"),
    ("ferz-step", "F"),
    ("knight-jump", "N"),
    ("rook-ride", "R"),
    ("bishop-ride", "B"),
];

impl Lowerer<'_> {
    /// Registers every piece's name and letter, then lowers movement (a
    /// piece may use the movement of a piece defined after it).
    pub(super) fn lower_pieces(&mut self) {
        let items: Vec<_> = self
            .items
            .iter()
            .filter(|i| i.body.as_rule() == Rule::piece_stmt)
            .cloned()
            .collect();
        if let Some(extra) = items.get(MAX_PIECE_KINDS) {
            let span =
                first_child(&extra.body, Rule::ident).map_or(extra.body.as_span(), |n| n.as_span());
            self.error(
                Error::new(
                    Code::TooManyPieceKinds,
                    extra.file,
                    span.into(),
                    format!("a variant has at most {MAX_PIECE_KINDS} piece kinds"),
                )
                .with_label(format!("kind number {}", MAX_PIECE_KINDS + 1))
                .with_note(format!("the variant defines {} kinds", items.len())),
            );
        }
        let mut letters: Vec<(String, usize, Span)> = Vec::new();
        for item in &items {
            let Some(name) = first_child(&item.body, Rule::ident) else {
                continue;
            };
            let letter_node = first_child(&item.body, Rule::string);
            let letter = letter_node
                .as_ref()
                .map(super::string_value)
                .unwrap_or_default();
            let letter_span: Span = letter_node
                .as_ref()
                .map(|n| n.as_span().into())
                .unwrap_or(Span::from(name.as_span()));
            let valid = letter
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic())
                && letter.chars().skip(1).all(|c| c == '\'');
            if !valid {
                self.error(
                    Error::new(
                        Code::BadPieceLetter,
                        item.file,
                        letter_span,
                        format!("piece letter `{letter}` is not a letter with optional marks"),
                    )
                    .with_label("used in FEN and move text")
                    .with_help(
                        "write one ASCII letter, optionally followed by `'` marks: \"R\", \"R'\"",
                    ),
                );
            }
            let upper = letter.to_ascii_uppercase();
            if let Some((_, first_file, first_span)) = letters.iter().find(|(l, _, _)| *l == upper)
            {
                self.error(
                    Error::new(
                        Code::DuplicateLetter,
                        item.file,
                        letter_span,
                        format!("two pieces are written `{upper}`"),
                    )
                    .with_label("used again here")
                    .with_secondary(*first_file, *first_span, "first used here")
                    .with_help("each piece needs its own letter so that FEN can tell them apart"),
                );
            }
            letters.push((upper.clone(), item.file, letter_span));
            let value = children(&item.body, Rule::piece_option)
                .into_iter()
                .filter_map(|o| first_child(&o, Rule::value_option))
                .filter_map(|v| first_child(&v, Rule::number))
                .find_map(|n| {
                    self.number_in(
                        item.file,
                        &n,
                        0.0..=MAX_PIECE_VALUE,
                        "a piece's value in pawns",
                    )
                });
            let royal = children(&item.body, Rule::piece_option)
                .iter()
                .any(|o| first_child(o, Rule::royal).is_some());
            self.piece_ids
                .insert(name.as_str().to_string(), self.pieces.len());
            self.pieces.push(PieceKind {
                name: name.as_str().to_string(),
                letter: upper,
                value,
                royal,
                moves: Vec::new(),
                betza: String::new(),
            });
        }
        let mut state = vec![Resolution::Pending; self.pieces.len()];
        for (id, item) in items.iter().enumerate() {
            self.resolve_piece(
                id,
                &items,
                &mut state,
                item.file,
                Span::from(item.body.as_span()),
            );
        }
    }

    /// Lowers piece `id`'s movement, first lowering pieces it refers to.
    fn resolve_piece(
        &mut self,
        id: PieceId,
        items: &[super::Item<'_>],
        state: &mut Vec<Resolution>,
        _file: usize,
        _span: Span,
    ) {
        if state[id] != Resolution::Pending {
            return;
        }
        state[id] = Resolution::InProgress;
        let item = items[id].clone();
        let Some(expr) = first_child(&item.body, Rule::move_expr) else {
            return;
        };
        let atoms = self.move_expr(item.file, &expr, items, state);
        if atoms.is_empty()
            && !self
                .errors
                .iter()
                .any(|e| e.file == item.file && contains(e.span, expr.as_span().into()))
        {
            let name = &self.pieces[id].name;
            self.error(
                Error::new(Code::NoMove, item.file, expr.as_span().into(), format!("piece `{name}` has no move"))
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
        expr: &Node<'_>,
        items: &[super::Item<'_>],
        state: &mut Vec<Resolution>,
    ) -> Vec<MoveAtom> {
        let mut atoms: Vec<MoveAtom> = Vec::new();
        for term in children(expr, Rule::move_term) {
            for atom in self.move_term(file, &term, items, state) {
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
        term: &Node<'_>,
        items: &[super::Item<'_>],
        state: &mut Vec<Resolution>,
    ) -> Vec<MoveAtom> {
        let mut mode = MoveMode::MoveOrCapture;
        let mut first_move = false;
        let mut words: Vec<String> = Vec::new();
        let mut atoms = Vec::new();
        let mut region = None;
        for part in term.clone().into_inner() {
            match part.as_rule() {
                Rule::move_modifier => {
                    let Some(modifier) = part.clone().into_inner().next() else {
                        continue;
                    };
                    match modifier.as_rule() {
                        Rule::move_only | Rule::capture_only => {
                            let new = if modifier.as_rule() == Rule::move_only {
                                MoveMode::MoveOnly
                            } else {
                                MoveMode::CaptureOnly
                            };
                            if mode != MoveMode::MoveOrCapture && mode != new {
                                self.error(
                                    Error::new(Code::ConflictingModifiers,
                                        file,
                                        part.as_span().into(),
                                        "`move-only` and `capture-only` together leave nothing",
                                    )
                                    .with_label("contradicts the other mode")
                                    .with_help("keep one of them; without either, a movement both moves and captures"),
                                );
                            }
                            mode = new;
                        }
                        Rule::first_move => first_move = true,
                        Rule::direction_word => words.push(modifier.as_str().to_string()),
                        _ => {}
                    }
                }
                Rule::move_atom => atoms = self.move_atom(file, &part, items, state),
                Rule::in_region => {
                    if let Some(ident) = first_child(&part, Rule::ident) {
                        region = self.region(file, &ident);
                    }
                }
                _ => {}
            }
        }
        let condition = match (first_move, region) {
            (true, Some(_)) => {
                self.error(
                    Error::new(
                        Code::ConflictingModifiers,
                        file,
                        term.as_span().into(),
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
        atoms
            .into_iter()
            .filter_map(|mut atom| {
                atom.mode = match (atom.mode, mode) {
                    (m, MoveMode::MoveOrCapture) => m,
                    (MoveMode::MoveOrCapture, m) => m,
                    (a, b) if a == b => a,
                    _ => return None,
                };
                atom.directions.retain(|d| keeps(&words, *d));
                if condition != AtomCondition::Always {
                    atom.condition = condition;
                }
                (!atom.directions.is_empty()).then_some(atom)
            })
            .collect()
    }

    fn move_atom(
        &mut self,
        file: usize,
        node: &Node<'_>,
        items: &[super::Item<'_>],
        state: &mut Vec<Resolution>,
    ) -> Vec<MoveAtom> {
        let Some(inner) = node.clone().into_inner().next() else {
            return Vec::new();
        };
        match inner.as_rule() {
            Rule::betza_atom => {
                let Some(string) = first_child(&inner, Rule::string) else {
                    return Vec::new();
                };
                let text = super::string_value(&string);
                match betza::parse(&text) {
                    Ok(atoms) => atoms,
                    Err(e) => {
                        let start = string.as_span().start() + 1 + e.offset;
                        let end = (start + 1).min(string.as_span().end() - 1).max(start);
                        self.error(
                            Error::new(Code::BadBetza, file, Span::new(start, end), format!("bad Betza notation: {}", e.message))
                                .with_label("here")
                                .with_help("Betza atoms: W F D N A H C Z G, compounds K R B Q, doubled letters ride; modifiers f b l r v s m c i n p g"),
                        );
                        Vec::new()
                    }
                }
            }
            Rule::geometric_atom => self.geometric_atom(file, &inner),
            Rule::move_expr => self.move_expr(file, &inner, items, state),
            Rule::ident => self.movement_reference(file, &inner, items, state),
            _ => Vec::new(),
        }
    }

    /// A piece name (its movement) or a built-in movement name.
    fn movement_reference(
        &mut self,
        file: usize,
        ident: &Node<'_>,
        items: &[super::Item<'_>],
        state: &mut Vec<Resolution>,
    ) -> Vec<MoveAtom> {
        let name = ident.as_str();
        if let Some(&id) = self.piece_ids.get(name) {
            self.movement_pieces.insert(id);
            match state[id] {
                Resolution::InProgress => {
                    self.error(
                        Error::new(Code::SelfReferentialMovement, file, ident.as_span().into(), format!("the movement of `{name}` refers to itself"))
                            .with_label("used while it is being defined")
                            .with_help("describe the movement with atoms (`ride (0,1)`) instead of piece names that refer back"),
                    );
                    return Vec::new();
                }
                Resolution::Pending => {
                    self.resolve_piece(id, items, state, file, ident.as_span().into())
                }
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
            ident.as_span().into(),
            format!("unknown movement `{name}`"),
        )
        .with_label("not a piece or a built-in movement");
        error = match nearest(name, known) {
            Some(close) => error.with_help(format!("did you mean `{close}`?")),
            None => error.with_note("built-in movements: king-step, wazir-step, ferz-step, knight-jump, rook-ride, bishop-ride; or use a piece's name"),
        };
        self.error(error);
        Vec::new()
    }

    fn geometric_atom(&mut self, file: usize, node: &Node<'_>) -> Vec<MoveAtom> {
        let kind = first_child(node, Rule::motion_kind)
            .map(|n| n.as_str().to_string())
            .unwrap_or_default();
        let offset = first_child(node, Rule::offset);
        let numbers: Vec<i32> = offset
            .as_ref()
            .map(|o| {
                children(o, Rule::signed_int)
                    .iter()
                    .map(|n| n.as_str().parse::<i32>().unwrap_or(i32::MAX))
                    .collect()
            })
            .unwrap_or_default();
        let span: Span = offset
            .as_ref()
            .map(|o| o.as_span().into())
            .unwrap_or(node.as_span().into());
        let (df, dr) = (
            numbers.first().copied().unwrap_or(0),
            numbers.get(1).copied().unwrap_or(0),
        );
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
                    format!(
                        "offset {} is longer than any board",
                        offset.as_ref().map_or("", |o| o.as_str())
                    ),
                )
                .with_label(format!("at most {limit} squares either way")),
            );
            return Vec::new();
        }
        let range_node = first_child(node, Rule::range);
        let range = range_node.as_ref().and_then(|r| first_child(r, Rule::int));
        let landing = first_child(node, Rule::landing);
        let adjacent = landing.is_some();
        if let (Some(range_node), false) = (&range_node, kind == "ride") {
            self.error(
                Error::new(
                    Code::ModifierNotForMotion,
                    file,
                    range_node.as_span().into(),
                    format!("`up to` limits a ride, not a {kind}"),
                )
                .with_label("only `ride` has a range")
                .with_help(format!(
                    "remove `{}`, or make the movement a `ride`",
                    range_node.as_str().trim()
                )),
            );
        }
        if let (Some(landing), false) = (&landing, kind == "hop") {
            self.error(
                Error::new(
                    Code::ModifierNotForMotion,
                    file,
                    landing.as_span().into(),
                    format!("`adjacent` is for hops, not a {kind}"),
                )
                .with_label("only `hop` lands adjacent")
                .with_help("`hop (0,1) adjacent` lands just beyond the piece it jumps over"),
            );
        }
        let range = match range {
            Some(range) => match self.number_in(file, &range, 0..=u32::MAX, "a ride's range") {
                Some(value) => Some(value),
                None => return Vec::new(),
            },
            None => None,
        };
        let max = match range {
            Some(0) => {
                self.error(
                    Error::new(
                        Code::BadOffset,
                        file,
                        range_node
                            .as_ref()
                            .map_or(node.as_span(), |r| r.as_span())
                            .into(),
                        "a ride of `up to 0` steps does not move",
                    )
                    .with_label("range 0")
                    .with_help("a ride goes at least one step: `up to 1` or more"),
                );
                return Vec::new();
            }
            Some(n) => Some(n.min(MAX_BOARD_SIDE as u32) as u8),
            None => None,
        };
        let motion = match kind.as_str() {
            "leap" => Motion::Leap,
            "lame-leap" => Motion::LameLeap,
            "ride" => Motion::Ride { max },
            _ => Motion::Hop {
                landing: if adjacent {
                    HopLanding::Adjacent
                } else {
                    HopLanding::Any
                },
            },
        };
        vec![MoveAtom {
            motion,
            directions: betza::symmetric((df as i8, dr as i8)),
            mode: MoveMode::MoveOrCapture,
            condition: AtomCondition::Always,
        }]
    }
}

/// Whether direction words keep `(df, dr)`: words about ranks (forward,
/// backward, sideways) are a union, words about files (left, right,
/// vertical) are a union, and the two groups intersect.
fn keeps(words: &[String], (df, dr): (i8, i8)) -> bool {
    let rank_words: Vec<&String> = words
        .iter()
        .filter(|w| matches!(w.as_str(), "forward" | "backward" | "sideways"))
        .collect();
    let file_words: Vec<&String> = words
        .iter()
        .filter(|w| matches!(w.as_str(), "left" | "right" | "vertical"))
        .collect();
    let rank_ok = rank_words.is_empty()
        || rank_words.iter().any(|w| match w.as_str() {
            "forward" => dr > 0,
            "backward" => dr < 0,
            _ => dr == 0,
        });
    let file_ok = file_words.is_empty()
        || file_words.iter().any(|w| match w.as_str() {
            "left" => df < 0,
            "right" => df > 0,
            _ => df == 0,
        });
    rank_ok && file_ok
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
