//! Phase 2: lowering. The merged statements of a variant (see
//! `merge`) become a [`Variant`]: names resolved, regions turned into
//! square sets per side, movement expanded into atoms, every inconsistency
//! reported as an [`Error`]. Errors are collected, not stopped at.

mod board;
mod merge;
mod piece;
mod promotion;
mod rules;
mod warnings;

pub mod betza;

use crate::error::{nearest, Code, Error, Span};
use crate::model::*;
use crate::syntax::{Node, Rule};
use merge::{Item, Key};
use std::collections::{HashMap, HashSet};
use std::ops::RangeInclusive;

pub use merge::string_value;

/// Errors reported per compilation; past this many a file is not worth
/// reading further (and garbage would spend its time on suggestions).
pub const MAX_ERRORS: usize = 100;

/// A variant lowered without errors, and the warnings found on the way.
pub struct Lowered {
    /// The model.
    pub variant: Variant,
    /// Warnings about the last file of the chain (the one compiled), in
    /// file order.
    pub warnings: Vec<Error>,
}

/// Lowers the parsed files of an `extends` chain (oldest ancestor first).
pub fn lower(files: &[(usize, Node<'_>)]) -> Result<Lowered, Vec<Error>> {
    let mut errors = Vec::new();
    let (header, items) = merge::merge(files, &mut errors);
    let child = files.last().map(|(id, _)| *id).unwrap_or(0);
    let header_span = files
        .last()
        .and_then(|(_, root)| first_child(root, Rule::header))
        .map_or(Span::at(0), |h| Span::from(h.as_span()));
    let mut lowerer = Lowerer::new(child, items, errors);
    lowerer.header_span = header_span;
    let variant = lowerer.run(header);
    if lowerer.errors.len() > MAX_ERRORS || lowerer.dropped_errors > 0 {
        lowerer.errors.truncate(MAX_ERRORS);
        lowerer.errors.push(
            Error::new(
                Code::TooManyProblems,
                child,
                header_span,
                "further problems are not shown",
            )
            .with_label(format!("checking stopped after {MAX_ERRORS} problems"))
            .with_help("fix these first, then check again"),
        );
    }
    if lowerer.errors.is_empty() {
        let warnings = lowerer.warnings(&variant);
        Ok(Lowered { variant, warnings })
    } else {
        Err(lowerer.errors)
    }
}

/// The state of one lowering.
pub(crate) struct Lowerer<'a> {
    /// The file being compiled (the last of the chain).
    child: usize,
    /// Its `variant ...` header: where to report what the variant lacks.
    header_span: Span,
    /// Errors not collected because [`MAX_ERRORS`] were already reported.
    dropped_errors: usize,
    /// Whether `board` gave a usable size (else the start position is not
    /// checked against the 8 x 8 stand-in).
    board_valid: bool,
    items: Vec<Item<'a>>,
    errors: Vec<Error>,
    board: Board,
    regions: Vec<Region>,
    region_ids: HashMap<String, RegionId>,
    pieces: Vec<PieceKind>,
    piece_ids: HashMap<String, PieceId>,
    counters: Vec<Counter>,
    counter_ids: HashMap<String, CounterId>,
    /// Counters some condition or rule reads.
    used_counters: HashSet<CounterId>,
    /// Pieces whose movement another piece's movement reuses.
    movement_pieces: HashSet<PieceId>,
    /// Where each of the variant's promotions is written, in model order.
    promotion_sites: Vec<(usize, Span)>,
    /// Where each of the variant's terminations is written, in model order.
    termination_sites: Vec<(usize, Span)>,
}

impl<'a> Lowerer<'a> {
    fn new(child: usize, items: Vec<Item<'a>>, errors: Vec<Error>) -> Self {
        Lowerer {
            child,
            header_span: Span::at(0),
            board_valid: true,
            dropped_errors: 0,
            items,
            errors,
            board: Board {
                files: 8,
                ranks: 8,
                holes: SquareSet::EMPTY,
            },
            regions: Vec::new(),
            region_ids: HashMap::new(),
            pieces: Vec::new(),
            piece_ids: HashMap::new(),
            counters: Vec::new(),
            counter_ids: HashMap::new(),
            used_counters: HashSet::new(),
            movement_pieces: HashSet::new(),
            promotion_sites: Vec::new(),
            termination_sites: Vec::new(),
        }
    }

    fn run(&mut self, header: merge::Header) -> Variant {
        self.lower_board();
        self.lower_regions();
        self.lower_pieces();
        self.register_counters();
        let mut variant = Variant {
            id: header.id,
            name: header.name,
            board: self.board.clone(),
            regions: Vec::new(),
            pieces: Vec::new(),
            start_fen: String::new(),
            promotions: Vec::new(),
            castling: Vec::new(),
            en_passant: Vec::new(),
            legality: Legality {
                check_rule: CheckRule::RoyalMayNotBeAttacked,
                history_rules: Vec::new(),
            },
            royal_loss: RoyalLoss::EndsGame,
            counters: Vec::new(),
            ply_reset_events: Vec::new(),
            terminations: Vec::new(),
            awards: Vec::new(),
            agreement: Agreement::Always,
            resignation: Resignation::OpponentWins,
            tiebreak: None,
            scoring: Scoring::Points {
                win: 1.0,
                draw: 0.5,
                loss: 0.0,
                null: 0.0,
            },
            match_rules: Vec::new(),
        };
        self.lower_statements(&mut variant);
        variant.regions = std::mem::take(&mut self.regions);
        variant.pieces = std::mem::take(&mut self.pieces);
        variant.counters = std::mem::take(&mut self.counters);
        self.check_whole(&variant);
        variant
    }

    /// Statements that need pieces, regions and counters already known.
    fn lower_statements(&mut self, variant: &mut Variant) {
        let items = self.items.clone();
        let mut saw_setup = false;
        for item in &items {
            let file = item.file;
            let body = item.body.clone();
            let label = match &item.key {
                Some(Key::Label(l)) => Some(l.clone()),
                _ => None,
            };
            match body.as_rule() {
                Rule::setup_stmt => {
                    saw_setup = true;
                    variant.start_fen = self.lower_setup(file, body);
                }
                Rule::promote_stmt => {
                    let site = (file, Span::from(body.as_span()));
                    if let Some(p) = self.lower_promotion(file, body, label) {
                        variant.promotions.push(p);
                        self.promotion_sites.push(site);
                    }
                }
                Rule::castling_stmt => {
                    if let Some(c) = self.lower_castling(file, body, label) {
                        variant.castling.push(c);
                    }
                }
                Rule::en_passant_stmt => {
                    variant.en_passant =
                        self.piece_list(file, first_child(&body, Rule::ident_list));
                }
                Rule::check_rule_stmt => {
                    variant.legality.check_rule = if body.as_str().contains("none") {
                        CheckRule::None
                    } else {
                        CheckRule::RoyalMayNotBeAttacked
                    };
                }
                Rule::history_stmt => variant
                    .legality
                    .history_rules
                    .push(self.lower_history(file, body, label)),
                Rule::succession_stmt => variant.royal_loss = self.lower_succession(file, body),
                Rule::counter_stmt => self.lower_counter(file, body),
                Rule::reset_stmt => {
                    variant.ply_reset_events =
                        self.lower_event_list(file, first_child(&body, Rule::event_list));
                }
                Rule::termination_stmt => {
                    let site = (file, Span::from(body.as_span()));
                    if let Some(t) = self.lower_termination(file, body, label) {
                        variant.terminations.push(t);
                        self.termination_sites.push(site);
                    }
                }
                Rule::award_stmt => {
                    if let Some(a) = self.lower_award(file, body) {
                        variant.awards.push(a);
                    }
                }
                Rule::agreement_stmt => variant.agreement = self.lower_agreement(file, body),
                Rule::resign_stmt => variant.resignation = self.lower_resignation(file, body),
                Rule::tiebreak_stmt => variant.tiebreak = self.lower_tiebreak(file, body),
                Rule::score_stmt => variant.scoring = self.lower_score(file, body),
                Rule::match_stmt => {
                    if let Some(m) = self.lower_match(file, body) {
                        variant.match_rules.push(m);
                    }
                }
                _ => {}
            }
        }
        if !saw_setup {
            self.error(
                Error::new(Code::MissingSetup, self.child, self.header_span, "the variant has no start position")
                    .with_label("no `setup` statement in this variant or its ancestors")
                    .with_help("add `setup \"<FEN>\"`, e.g. `setup \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"`"),
            );
        }
    }

    /// Checks that need the whole variant.
    fn check_whole(&mut self, variant: &Variant) {
        self.check_start_position(variant);
        let royal_exists = variant.pieces.iter().any(|p| p.royal);
        if variant.legality.check_rule == CheckRule::RoyalMayNotBeAttacked && !royal_exists {
            let span = self
                .items
                .iter()
                .find(|i| i.body.as_rule() == Rule::check_rule_stmt);
            let (file, span) = span
                .map(|i| (i.file, Span::from(i.body.as_span())))
                .unwrap_or((self.child, self.header_span));
            self.error(
                Error::new(
                    Code::CheckRuleWithoutRoyal,
                    file,
                    span,
                    "the check rule needs a royal piece, and no piece is royal",
                )
                .with_label("royal pieces may not be left attacked")
                .with_help("mark the king `royal`, or write `check-rule none`"),
            );
        }
    }

    /// The start position must read as a position of this variant (side to
    /// move, castling, en passant and counters too, not just the placement).
    fn check_start_position(&mut self, variant: &Variant) {
        if !self.errors.is_empty() || variant.start_fen.is_empty() {
            return;
        }
        let Err(problem) = varc_runtime::fen::parse_fen(variant, &variant.start_fen) else {
            return;
        };
        let setup = self
            .items
            .iter()
            .find(|i| i.body.as_rule() == Rule::setup_stmt);
        let (file, span) = setup
            .and_then(|i| {
                first_child(&i.body, Rule::string).map(|s| (i.file, Span::from(s.as_span())))
            })
            .unwrap_or((self.child, Span::at(0)));
        self.errors.push(
            Error::new(Code::BadStartPosition, file, span, format!("bad start position: {problem}"))
                .with_label("this FEN")
                .with_help("a FEN has the placement, the side to move (w or b), castling, en passant, and two counters"),
        );
    }

    // ------------------------------------------------------------ names

    /// Resolves a piece name, reporting an unknown one with the nearest known name.
    fn piece(&mut self, file: usize, ident: &Node<'_>) -> Option<PieceId> {
        let id = self.piece_ids.get(ident.as_str()).copied();
        id.or_else(|| self.unknown(file, ident, NameKind::Piece))
    }

    /// Resolves a list of piece names (`queen | rook`).
    fn piece_list(&mut self, file: usize, list: Option<Node<'_>>) -> Vec<PieceId> {
        let Some(list) = list else { return Vec::new() };
        list.into_inner()
            .filter(|n| n.as_rule() == Rule::ident)
            .filter_map(|n| self.piece(file, &n))
            .collect()
    }

    /// Resolves a region name.
    fn region(&mut self, file: usize, ident: &Node<'_>) -> Option<RegionId> {
        let id = self.region_ids.get(ident.as_str()).copied();
        id.or_else(|| self.unknown(file, ident, NameKind::Region))
    }

    /// Resolves a counter name.
    fn counter(&mut self, file: usize, ident: &Node<'_>) -> Option<CounterId> {
        let id = self.counter_ids.get(ident.as_str()).copied();
        self.used_counters.extend(id);
        id.or_else(|| self.unknown(file, ident, NameKind::Counter))
    }

    /// Reports a name that is not defined, with the nearest known name of
    /// its kind as a likely fix.
    fn unknown(&mut self, file: usize, ident: &Node<'_>, kind: NameKind) -> Option<usize> {
        if self.error_limit_reached() {
            return None;
        }
        let name = ident.as_str();
        let ids = match kind {
            NameKind::Piece => &self.piece_ids,
            NameKind::Region => &self.region_ids,
            NameKind::Counter => &self.counter_ids,
        };
        let mut known: Vec<&str> = ids.keys().map(String::as_str).collect();
        known.sort();
        let word = kind.word();
        let mut error = Error::new(
            kind.code(),
            file,
            ident.as_span().into(),
            format!("unknown {word} `{name}`"),
        )
        .with_label(format!("no {word} of this name"));
        error = match (nearest(name, known.iter().copied()), kind) {
            (Some(close), _) => error.with_help(format!("did you mean `{close}`?")),
            (None, NameKind::Piece) => {
                error.with_note(format!("the pieces are: {}", known.join(", ")))
            }
            (None, NameKind::Region) => {
                error.with_help(format!("define it: `region {name} = ranks 1..3 relative`"))
            }
            (None, NameKind::Counter) => {
                error.with_help(format!("define it: `counter {name} counts capture`"))
            }
        };
        self.error(error);
        None
    }

    /// The value of the number `node`, which must lie in `range` (what its
    /// use holds); outside it, a located error and `None`. No number is
    /// clamped silently.
    fn number_in<T>(
        &mut self,
        file: usize,
        node: &Node<'_>,
        range: RangeInclusive<T>,
        what: &str,
    ) -> Option<T>
    where
        T: std::str::FromStr + PartialOrd + std::fmt::Display,
    {
        let text = node.as_str();
        match text.parse::<T>() {
            Ok(value) if range.contains(&value) => Some(value),
            _ => {
                self.error(
                    Error::new(
                        Code::NumberOutOfRange,
                        file,
                        node.as_span().into(),
                        format!(
                            "{what} must be from {} to {}, not {text}",
                            range.start(),
                            range.end()
                        ),
                    )
                    .with_label("out of range"),
                );
                None
            }
        }
    }

    fn error(&mut self, error: Error) {
        if !self.error_limit_reached() {
            self.errors.push(error);
        }
    }

    /// Whether [`MAX_ERRORS`] are reported; if so, counts one more dropped.
    fn error_limit_reached(&mut self) -> bool {
        let reached = self.errors.len() >= MAX_ERRORS;
        if reached {
            self.dropped_errors += 1;
        }
        reached
    }
}

/// The kinds of name a rules file defines and refers to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum NameKind {
    Piece,
    Region,
    Counter,
}

impl NameKind {
    fn code(self) -> Code {
        match self {
            NameKind::Piece => Code::UnknownPiece,
            NameKind::Region => Code::UnknownRegion,
            NameKind::Counter => Code::UnknownCounter,
        }
    }

    fn word(self) -> &'static str {
        match self {
            NameKind::Piece => "piece",
            NameKind::Region => "region",
            NameKind::Counter => "counter",
        }
    }
}

/// The first child of `node` with this rule.
pub(crate) fn first_child<'a>(node: &Node<'a>, rule: Rule) -> Option<Node<'a>> {
    node.clone().into_inner().find(|n| n.as_rule() == rule)
}

/// The children of `node` with this rule.
pub(crate) fn children<'a>(node: &Node<'a>, rule: Rule) -> Vec<Node<'a>> {
    node.clone()
        .into_inner()
        .filter(|n| n.as_rule() == rule)
        .collect()
}

/// A number node's value, saturating (the grammar guarantees digits).
pub(crate) fn int_value(node: &Node<'_>) -> u32 {
    node.as_str().parse::<u32>().unwrap_or(u32::MAX)
}
