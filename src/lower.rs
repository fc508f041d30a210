//! Phase 2: lowering. The merged statements of a variant (see
//! `merge`) become a [`Variant`]: names resolved, regions turned into
//! square sets per side, movement expanded into atoms, every inconsistency
//! reported as an [`Error`]. Errors are collected, not stopped at.

mod board;
mod counting;
mod hands;
mod merge;
mod piece;
mod promotion;
mod rules;
mod warnings;

pub mod betza;

use crate::ast;
use crate::error::{nearest, Code, Error, Span};
use crate::model::*;
use merge::{Item, Key};
use std::collections::{HashMap, HashSet};
use std::ops::RangeInclusive;

/// Errors reported per compilation; past this many a file is not worth
/// reading further (and garbage would spend its time on suggestions).
pub const MAX_ERRORS: usize = 100;
/// The most points a kind may be worth (`points`).
pub const MAX_POINTS: u32 = 1_000_000;

/// A variant lowered without errors, and the warnings found on the way.
pub struct Lowered {
    /// The model.
    pub variant: Variant,
    /// Warnings about the last file of the chain (the one compiled), in
    /// file order.
    pub warnings: Vec<Error>,
}

/// Lowers the parsed files of an `extends` chain (oldest ancestor first).
pub fn lower(files: &[(usize, ast::File)]) -> Result<Lowered, Vec<Error>> {
    let mut errors = Vec::new();
    let merge::Merged {
        header,
        items,
        dropped,
    } = merge::merge(files, &mut errors);
    let child = files.last().map(|(id, _)| *id).unwrap_or(0);
    let header_span = files
        .last()
        .map_or(Span::at(0), |(_, tree)| tree.header.span);
    let mut lowerer = Lowerer::new(child, items, errors);
    lowerer.header_span = header_span;
    lowerer.dropped = dropped;
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
    /// Where each drop rule of the model is written.
    drop_sites: Vec<(usize, Span)>,
    /// The promotion rules (indices) written `only into captured kinds`.
    limited_promotions: Vec<usize>,
    /// Where `drop-rule` is written, if it is.
    drop_rule_site: Option<(usize, Span)>,
    /// Where each of the variant's terminations is written, in model order.
    termination_sites: Vec<(usize, Span)>,
    /// Where each counting statement is written, in file order.
    counting_sites: Vec<(usize, Span)>,
    /// Definitions removed by `drop` (see [`merge::Dropped`]).
    dropped: Vec<merge::Dropped>,
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
            drop_sites: Vec::new(),
            limited_promotions: Vec::new(),
            drop_rule_site: None,
            termination_sites: Vec::new(),
            counting_sites: Vec::new(),
            dropped: Vec::new(),
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
            en_passant_zone: None,
            explosion: None,
            counting: Counting::default(),
            legality: Legality {
                check_rule: CheckRule::RoyalMayNotBeAttacked,
                capture_rule: CaptureRule::Free,
                giving_check: GivingCheck::Allowed,
                royal_facing: RoyalFacing::Allowed,
                history_rules: Vec::new(),
                immobility_illegal: false,
                drops_compulsory: false,
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
            evaluation: Default::default(),
            hands: Default::default(),
            first_moves: Default::default(),
            network: None,
            passed_tables: None,
            endgame_scaling: false,
            search: Vec::new(),
        };
        self.lower_statements(&mut variant);
        variant.regions = std::mem::take(&mut self.regions);
        variant.pieces = std::mem::take(&mut self.pieces);
        variant.counters = std::mem::take(&mut self.counters);
        // Castling happens on the rank each side's castling king starts on.
        let ranks: Vec<[u8; 2]> = variant
            .castling
            .iter()
            .map(|rule| varc_runtime::fen::castling_ranks(&variant, rule.king))
            .collect();
        for (rule, ranks) in variant.castling.iter_mut().zip(ranks) {
            rule.ranks = ranks;
        }
        let limited = std::mem::take(&mut self.limited_promotions);
        self.set_promotion_limits(&mut variant, &limited);
        self.check_whole(&variant);
        variant
    }

    /// Statements that need pieces, regions and counters already known.
    fn lower_statements(&mut self, variant: &mut Variant) {
        let items = self.items.clone();
        let mut saw_setup = false;
        for item in &items {
            let file = item.file;
            let site = (file, item.body.span);
            let label = match &item.key {
                Some(Key::Label(l)) => Some(l.clone()),
                Some(Key::Named(..) | Key::Singleton(_)) | None => None,
            };
            match &item.body.kind {
                // Lowered before the statements that refer to them.
                ast::BodyKind::Board(_) | ast::BodyKind::Region(_) | ast::BodyKind::Piece(_) => {}
                ast::BodyKind::Setup(fen) => {
                    saw_setup = true;
                    variant.start_fen = self.lower_setup(file, fen);
                }
                ast::BodyKind::Promote(promote) => {
                    if let Some(p) = self.lower_promotion(file, promote, label) {
                        let limited = promote
                            .options
                            .iter()
                            .any(|o| matches!(o, ast::PromoteOption::CapturedKindsOnly(_)));
                        if limited {
                            self.limited_promotions.push(variant.promotions.len());
                        }
                        variant.promotions.push(p);
                        self.promotion_sites.push(site);
                    }
                }
                ast::BodyKind::Castling(castling) => {
                    if let Some(c) = self.lower_castling(file, castling, site.1, label) {
                        variant.castling.push(c);
                    }
                }
                ast::BodyKind::EnPassant(en_passant) => {
                    variant.en_passant = self.piece_list(file, &en_passant.pieces);
                    variant.en_passant_zone = en_passant
                        .onto
                        .as_ref()
                        .and_then(|region| self.region(file, region));
                }
                ast::BodyKind::Hand(hand) => {
                    variant.hands.captures_to_hand = Some(self.lower_hand(hand, label));
                }
                ast::BodyKind::Drops(drops) => {
                    let rule = self.lower_drops(file, drops, label);
                    variant.hands.drops.push(rule);
                    self.drop_sites.push(site);
                }
                ast::BodyKind::CheckRule(rule) => {
                    variant.legality.giving_check = if rule.no_checks {
                        GivingCheck::Forbidden
                    } else {
                        GivingCheck::Allowed
                    };
                    variant.legality.royal_facing = match (
                        rule.no_facing_royals,
                        rule.facing_royals_must_part,
                    ) {
                        (Some(_), Some(span)) => {
                            self.error(
                                    Error::new(
                                        Code::FacingRulesContradict,
                                        item.file,
                                        span,
                                        "royals may not face each other, so they never have to part",
                                    )
                                    .with_label("contradicts `royals may not face each other`")
                                    .with_help("keep one: xiangqi forbids facing, janggi lets it happen and makes the side to move part them or pass"),
                                );
                            RoyalFacing::Forbidden
                        }
                        (Some(_), None) => RoyalFacing::Forbidden,
                        (None, Some(_)) => RoyalFacing::MustPart,
                        (None, None) => RoyalFacing::Allowed,
                    };
                    variant.legality.check_rule = match rule.kind {
                        ast::CheckRuleKind::Royal => CheckRule::RoyalMayNotBeAttacked,
                        ast::CheckRuleKind::None => CheckRule::None,
                    };
                }
                ast::BodyKind::CaptureRule(kind) => {
                    variant.legality.capture_rule = match kind {
                        ast::CaptureRuleKind::Compulsory => CaptureRule::Compulsory,
                        ast::CaptureRuleKind::Free => CaptureRule::Free,
                    };
                }
                ast::BodyKind::DropRule(kind) => {
                    variant.legality.drops_compulsory = match kind {
                        ast::DropRuleKind::Compulsory => true,
                        ast::DropRuleKind::Free => false,
                    };
                    self.drop_rule_site = Some(site);
                }
                ast::BodyKind::Immobility => variant.legality.immobility_illegal = true,
                ast::BodyKind::Explosion(explosion) => {
                    variant.explosion = self.lower_explosion(file, explosion);
                }
                // Read by the `points lead` conditions (see `lower_points`).
                ast::BodyKind::Points(entries) => {
                    for (name, value) in entries {
                        self.piece(file, name);
                        self.number_in(file, value, 0..=MAX_POINTS, "a kind's points");
                    }
                }
                ast::BodyKind::History(history) => variant
                    .legality
                    .history_rules
                    .push(self.lower_history(file, history, label)),
                ast::BodyKind::Succession(action) => {
                    variant.royal_loss = self.lower_succession(file, action)
                }
                ast::BodyKind::Counter(counter) => self.lower_counter(file, counter),
                ast::BodyKind::Counting(counting) => {
                    self.lower_counting(file, site.1, counting, &mut variant.counting)
                }
                ast::BodyKind::UnmovedInFen => variant.first_moves.in_fen = true,
                ast::BodyKind::FirstMoveLoss(pieces, by) => {
                    if let Some(loss) = self.lower_first_move_loss(file, pieces, by) {
                        variant.first_moves.losses.push(loss);
                    }
                }
                ast::BodyKind::Reset(events) => {
                    variant.ply_reset_events = self.lower_event_list(file, events);
                }
                ast::BodyKind::Termination(termination) => {
                    let lowered = self.lower_termination(file, termination, site.1, label);
                    variant.terminations.push(lowered);
                    self.termination_sites.push(site);
                }
                ast::BodyKind::Award(award) => {
                    if let Some(a) = self.lower_award(file, award) {
                        variant.awards.push(a);
                    }
                }
                ast::BodyKind::Agreement(agreement) => {
                    variant.agreement = self.lower_agreement(file, agreement)
                }
                ast::BodyKind::Resign(resign) => {
                    variant.resignation = self.lower_resignation(file, resign)
                }
                ast::BodyKind::Tiebreak(tiebreak) => {
                    variant.tiebreak = self.lower_tiebreak(file, tiebreak)
                }
                ast::BodyKind::Score(score) => variant.scoring = self.lower_score(file, score),
                ast::BodyKind::Match(rule) => {
                    variant.match_rules.push(self.lower_match(file, rule))
                }
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

    /// The points of each kind from the last `points` statement (0 for
    /// kinds it leaves out, or without one); its names and numbers are
    /// checked where the statement is lowered.
    fn lower_points(&self) -> Vec<u32> {
        let mut points = vec![0; self.pieces.len()];
        let entries = self
            .items
            .iter()
            .rev()
            .find_map(|item| match &item.body.kind {
                ast::BodyKind::Points(entries) => Some(entries),
                _ => None,
            });
        for (name, value) in entries.into_iter().flatten() {
            if let (Some(&kind), Ok(value)) =
                (self.piece_ids.get(&name.name), value.text.parse::<u32>())
            {
                if let Some(slot) = points.get_mut(kind) {
                    *slot = value.min(MAX_POINTS);
                }
            }
        }
        points
    }

    /// `capture explodes radius N [, except PIECES]`. A kind named twice in
    /// `except` is refused (E0413).
    fn lower_explosion(&mut self, file: usize, explosion: &ast::Explosion) -> Option<Explosion> {
        let radius = self.number_in(
            file,
            &explosion.radius,
            0..=MAX_BOARD_SIDE - 1,
            "an explosion's radius",
        );
        let (immune, _) = self.distinct_kinds(
            file,
            &explosion.except,
            Code::ExplosionExceptTwice,
            "in `except`",
            "name each kind the blast spares once",
        );
        Some(Explosion {
            radius: radius?,
            immune: immune.into_iter().map(|(_, kind)| kind).collect(),
        })
    }

    /// The kinds `idents` name, each with its name, each kind once: a kind
    /// named again is refused with `code` (the list is a set, and a
    /// repeated name is most likely another kind mistyped as one already
    /// listed). The flag is false when a name is no piece (reported).
    fn distinct_kinds<'i>(
        &mut self,
        file: usize,
        idents: &'i [ast::Ident],
        code: Code,
        place: &str,
        help: &str,
    ) -> (Vec<(&'i ast::Ident, PieceId)>, bool) {
        let mut kinds = Vec::new();
        let mut complete = true;
        let mut seen: HashMap<PieceId, Span> = HashMap::new();
        for ident in idents {
            let Some(kind) = self.piece(file, ident) else {
                complete = false;
                continue;
            };
            if let Some(&first) = seen.get(&kind) {
                self.error(
                    Error::new(
                        code,
                        file,
                        ident.span,
                        format!("`{}` is named twice {place}", ident.name),
                    )
                    .with_label("named again here")
                    .with_secondary(file, first, "first named here")
                    .with_help(help),
                );
                continue;
            }
            seen.insert(kind, ident.span);
            kinds.push((ident, kind));
        }
        (kinds, complete)
    }

    /// `first-move of PIECES lost when opponent PIECES moves onto its rank
    /// or file`: each list a set of kinds, the first list's kinds with a
    /// `first-move` movement.
    fn lower_first_move_loss(
        &mut self,
        file: usize,
        pieces: &[ast::Ident],
        by: &[ast::Ident],
    ) -> Option<FirstMoveLoss> {
        let mut lists = [pieces, by].map(|names| {
            self.distinct_kinds(
                file,
                names,
                Code::FirstMoveLossTwice,
                "in one list",
                "name each kind once",
            )
        });
        let mut complete = lists.iter().all(|(_, complete)| *complete);
        for &(ident, kind) in &lists[0].0 {
            let has_first_move = self.pieces.get(kind).is_some_and(|piece| {
                piece
                    .moves
                    .iter()
                    .any(|atom| atom.condition == AtomCondition::FirstMove)
            });
            if !has_first_move {
                self.error(
                    Error::new(
                        Code::FirstMoveLossWithoutFirstMove,
                        file,
                        ident.span,
                        format!("`{}` has no `first-move` movement to lose", ident.name),
                    )
                    .with_label("no first move here")
                    .with_help(
                        "give the piece a `first-move` part (`+ first-move move-only leap (0,2)`), or leave it out",
                    ),
                );
                complete = false;
            }
        }
        let [pieces, by] = std::mem::take(&mut lists)
            .map(|(kinds, _)| kinds.into_iter().map(|(_, kind)| kind).collect());
        complete.then_some(FirstMoveLoss { pieces, by })
    }

    /// Checks that need the whole variant.
    fn check_whole(&mut self, variant: &Variant) {
        self.check_start_position(variant);
        self.check_overlapping_promotions(variant);
        let royal_exists = variant.pieces.iter().any(|p| p.royal);
        if variant.legality.check_rule == CheckRule::RoyalMayNotBeAttacked && !royal_exists {
            let span = self
                .items
                .iter()
                .find(|i| matches!(i.body.kind, ast::BodyKind::CheckRule(_)));
            let (file, span) = span
                .map(|i| (i.file, i.body.span))
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
        self.check_facing_without_check_rule(variant);
        let drop_sites = std::mem::take(&mut self.drop_sites);
        self.check_drops(variant, &drop_sites);
        self.check_promoted_letters(variant);
        self.check_counting(variant);
    }

    /// `royals may not face each other` makes facing an attack on the royal
    /// piece, which only the royal check rule forbids: with `check-rule
    /// none` it would say nothing, so it is refused rather than ignored.
    fn check_facing_without_check_rule(&mut self, variant: &Variant) {
        if variant.legality.check_rule != CheckRule::None {
            return;
        }
        let written = self
            .items
            .iter()
            .rev()
            .find_map(|item| match &item.body.kind {
                ast::BodyKind::CheckRule(rule) => rule
                    .no_facing_royals
                    .map(|span| (item.file, span, "royals may not face each other"))
                    .or(rule
                        .facing_royals_must_part
                        .map(|span| (item.file, span, "royals facing each other must part"))),
                _ => None,
            });
        if let Some((file, span, words)) = written {
            self.error(
                Error::new(
                    Code::FacingWithoutCheckRule,
                    file,
                    span,
                    format!("`{words}` needs `check-rule royal`"),
                )
                .with_label("facing counts as an attack on the royal piece")
                .with_help(
                    format!("write `check-rule royal, {words}`: with `check-rule none` royal pieces may be left attacked, so facing would forbid nothing"),
                ),
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
        let setup = self.items.iter().find_map(|i| {
            let ast::BodyKind::Setup(fen) = &i.body.kind else {
                return None;
            };
            Some((i.file, fen.span))
        });
        let (file, span) = setup.unwrap_or((self.child, Span::at(0)));
        self.errors.push(
            Error::new(Code::BadStartPosition, file, span, format!("bad start position: {problem}"))
                .with_label("this FEN")
                .with_help("a FEN has the placement, the side to move (w or b), castling, en passant, and two counters"),
        );
    }

    // ------------------------------------------------------------ names

    /// Resolves a piece name, reporting an unknown one with the nearest known name.
    fn piece(&mut self, file: usize, ident: &ast::Ident) -> Option<PieceId> {
        let id = self.piece_ids.get(&ident.name).copied();
        id.or_else(|| self.unknown(file, ident, NameKind::Piece))
    }

    /// Resolves a list of piece names (`queen | rook`).
    fn piece_list(&mut self, file: usize, list: &[ast::Ident]) -> Vec<PieceId> {
        list.iter().filter_map(|n| self.piece(file, n)).collect()
    }

    /// Resolves a region name.
    fn region(&mut self, file: usize, ident: &ast::Ident) -> Option<RegionId> {
        let id = self.region_ids.get(&ident.name).copied();
        id.or_else(|| self.unknown(file, ident, NameKind::Region))
    }

    /// Resolves a counter name.
    fn counter(&mut self, file: usize, ident: &ast::Ident) -> Option<CounterId> {
        let id = self.counter_ids.get(&ident.name).copied();
        self.used_counters.extend(id);
        id.or_else(|| self.unknown(file, ident, NameKind::Counter))
    }

    /// Reports a name that is not defined, with the nearest known name of
    /// its kind as a likely fix.
    fn unknown(&mut self, file: usize, ident: &ast::Ident, kind: NameKind) -> Option<usize> {
        if self.error_limit_reached() {
            return None;
        }
        let name = ident.name.as_str();
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
            ident.span,
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
        error = self.point_at_drop(error, kind, name);
        self.error(error);
        None
    }

    /// Adds to `error`, about a name of `kind` that is not defined, where a
    /// `drop` removed it: the statement that names it is often inherited,
    /// and the `drop` in the variant built on it is what to look at.
    fn point_at_drop(&self, error: Error, kind: NameKind, name: &str) -> Error {
        match self
            .dropped
            .iter()
            .rev()
            .find(|d| d.kind == kind && d.name == name)
        {
            Some(dropped) => error
                .with_secondary(
                    dropped.file,
                    dropped.span,
                    format!("`{name}` is dropped here"),
                )
                .with_note(format!(
                    "this statement still names the {} `{name}`, which a `drop` removed; drop or replace the statements that use it too",
                    kind.word()
                )),
            None => error,
        }
    }

    /// The value of the number `node`, which must lie in `range` (what its
    /// use holds); outside it, a located error and `None`. No number is
    /// clamped silently.
    fn number_in<T>(
        &mut self,
        file: usize,
        number: &ast::Token,
        range: RangeInclusive<T>,
        what: &str,
    ) -> Option<T>
    where
        T: std::str::FromStr + PartialOrd + std::fmt::Display,
    {
        let text = number.text.as_str();
        match text.parse::<T>() {
            Ok(value) if range.contains(&value) => Some(value),
            Ok(_) | Err(_) => {
                self.error(
                    Error::new(
                        Code::NumberOutOfRange,
                        file,
                        number.span,
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
