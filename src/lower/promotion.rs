//! Promotion, castling, history rules and royal succession.

use super::Lowerer;
use crate::ast;
use crate::error::{Code, Error, Span};
use crate::model::*;
use std::collections::HashMap;

impl Lowerer<'_> {
    /// Whether `name` names a royal piece defined so far.
    fn names_royal_piece(&self, name: &str) -> bool {
        self.piece_ids
            .get(name)
            .is_some_and(|id| self.pieces[*id].royal)
    }

    pub(super) fn lower_promotion(
        &mut self,
        file: usize,
        promote: &ast::Promote,
        label: Option<String>,
    ) -> Option<Promotion> {
        let pieces = self.piece_list(file, &promote.pieces);
        let choices = self.piece_list(file, &promote.choices);
        let zone = self.region(file, &promote.zone);
        let mut obligation = Obligation::Mandatory;
        let mut timing = PromotionTiming::Immediate;
        for option in &promote.options {
            match option {
                ast::PromoteOption::Mandatory => obligation = Obligation::Mandatory,
                ast::PromoteOption::Optional => obligation = Obligation::Optional,
                ast::PromoteOption::MandatoryUnless(condition) => {
                    obligation = Obligation::MandatoryUnless(self.condition(file, condition));
                }
                ast::PromoteOption::Delayed(follow_up) => {
                    let follow_up = follow_up.map(|mode| match mode {
                        ast::FollowMode::MoveOnly => MoveMode::MoveOnly,
                        ast::FollowMode::CaptureOnly => MoveMode::CaptureOnly,
                        ast::FollowMode::Any => MoveMode::MoveOrCapture,
                    });
                    timing = PromotionTiming::Delayed { follow_up };
                }
                ast::PromoteOption::CapturedKindsOnly(_)
                | ast::PromoteOption::LeavingToo(_)
                | ast::PromoteOption::AtMost(_)
                | ast::PromoteOption::LastAnywhere(_)
                | ast::PromoteOption::AttackingNothing(_) => {}
            }
        }
        let at_most = self.promotion_at_most(file, promote);
        // Where and how a promotion made as a move of its own may happen:
        // a promotion on the move that reaches the zone is no such move.
        let mut last_anywhere = false;
        let mut attacking_nothing = false;
        for option in &promote.options {
            let (span, word) = match option {
                ast::PromoteOption::LastAnywhere(span) => {
                    last_anywhere = true;
                    (*span, "anywhere for the last one")
                }
                ast::PromoteOption::AttackingNothing(span) => {
                    attacking_nothing = true;
                    (*span, "attacking nothing")
                }
                _ => continue,
            };
            if timing == PromotionTiming::Immediate {
                self.error(
                    Error::new(
                        Code::PromotionMoveOptionWithoutDelayed,
                        file,
                        span,
                        format!("`{word}` on a promotion that is not delayed"),
                    )
                    .with_label("says how a promotion made as a move of its own happens")
                    .with_help("add `delayed` (sittuyin: `delayed then move-only move`), or remove the option"),
                );
            }
        }
        // A delayed promotion promotes a piece standing in the zone: a
        // move that starts there has nothing to add to it.
        let leaving_too = promote.options.iter().find_map(|option| match option {
            ast::PromoteOption::LeavingToo(span) => Some(*span),
            _ => None,
        });
        if let (Some(span), PromotionTiming::Delayed { .. }) = (leaving_too, &timing) {
            self.error(
                Error::new(
                    Code::LeavingDelayedPromotion,
                    file,
                    span,
                    "`starting or ending there` on a delayed promotion",
                )
                .with_label("a delayed promotion promotes a piece standing in the zone, whatever move brought it there")
                .with_help("remove `delayed`, or `starting or ending there`"),
            );
        }
        // Limits are read when the piece arrives in the zone; a delayed
        // promotion happens turns later, when the count may have changed,
        // and its choices are not limited: refused rather than ignored.
        let captured_kinds = promote.options.iter().find_map(|option| match option {
            ast::PromoteOption::CapturedKindsOnly(span) => Some(*span),
            _ => None,
        });
        if let (Some(span), PromotionTiming::Delayed { .. }) = (captured_kinds, &timing) {
            self.error(
                Error::new(
                    Code::LimitedDelayedPromotion,
                    file,
                    span,
                    "`only into captured kinds` on a delayed promotion",
                )
                .with_label("limits apply to promotions on the move that reaches the zone")
                .with_help("remove `delayed`, or `only into captured kinds`"),
            );
        }
        // A delayed promotion is the owner's choice on a later turn (D2).
        if matches!(timing, PromotionTiming::Delayed { .. }) {
            obligation = Obligation::Optional;
        }
        // A royal piece that promotes into a kind that is not royal stops
        // being royal, and the check rule would no longer hold for its
        // side: refused rather than given a meaning. Promotion into royal
        // kinds is allowed (coregal's queen): the promoted piece is royal,
        // and the check rule protects it with the others.
        let non_royal_choice = promote
            .choices
            .iter()
            .find(|ident| !self.names_royal_piece(&ident.name));
        if let Some(choice) = non_royal_choice {
            for ident in &promote.pieces {
                if self.names_royal_piece(&ident.name) {
                    self.error(
                        Error::new(
                            Code::PromotionOfRoyal,
                            file,
                            ident.span,
                            format!("the royal piece `{}` may not promote into `{}`, which is not royal", ident.name, choice.name),
                        )
                        .with_label("would become a piece that is not royal")
                        .with_secondary(file, choice.span, "not royal")
                        .with_note("a promoted piece takes its new kind's royalty: the side would lose a royal piece by its own move, and with its last one the check rule")
                        .with_help("remove the royal piece from the promotion, or promote it only into royal kinds"),
                    );
                }
            }
        }
        let limits = match at_most {
            Some(limit) => choices
                .iter()
                .map(|&kind| PromotionLimit {
                    kind,
                    counts: [limit, limit],
                })
                .collect(),
            // Filled in once the start position is known (`set_promotion_limits`).
            None => Vec::new(),
        };
        Some(Promotion {
            label,
            pieces,
            zone: zone?,
            choices,
            obligation,
            timing,
            limits,
            leaving_too: leaving_too.is_some(),
            last_anywhere,
            attacking_nothing,
        })
    }

    /// `at most N on the board`: N, unless it is 0 or the rule also says
    /// `only into captured kinds` (E0450: no choice would ever be offered,
    /// or two limits would apply to each kind).
    fn promotion_at_most(&mut self, file: usize, promote: &ast::Promote) -> Option<u32> {
        let token = promote.options.iter().find_map(|option| match option {
            ast::PromoteOption::AtMost(token) => Some(token),
            _ => None,
        })?;
        let captured = promote
            .options
            .iter()
            .any(|option| matches!(option, ast::PromoteOption::CapturedKindsOnly(_)));
        let limit = token.text.parse::<u32>().ok().filter(|&n| n > 0);
        match limit {
            Some(limit) if !captured => Some(limit),
            _ => {
                let (message, label) = if captured {
                    (
                        "`at most N on the board` with `only into captured kinds`".to_string(),
                        "a second limit for each kind",
                    )
                } else {
                    (
                        format!("`at most {} on the board` offers no choice", token.text),
                        "a limit of 1 or more",
                    )
                };
                self.error(
                    Error::new(Code::PromotionLimitConflict, file, token.span, message)
                        .with_label(label)
                        .with_help("give a limit of 1 or more, and one limit per rule"),
                );
                None
            }
        }
    }

    /// `only into captured kinds`: each choice of the rules at
    /// `promotions` is limited to the number of its kind each side has in
    /// the start position (a bad start position is reported elsewhere).
    pub(super) fn set_promotion_limits(&mut self, variant: &mut Variant, promotions: &[usize]) {
        if promotions.is_empty() {
            return;
        }
        let Ok(start) = varc_runtime::fen::parse_fen(variant, &variant.start_fen) else {
            return;
        };
        let mut counts = vec![[0u32; 2]; variant.pieces.len()];
        for square in variant.board.squares().iter() {
            if let Some(piece) = start.piece_at(square) {
                if let Some(count) = counts.get_mut(piece.kind()) {
                    count[piece.color().index()] += 1;
                }
            }
        }
        for &index in promotions {
            let Some(rule) = variant.promotions.get_mut(index) else {
                continue;
            };
            rule.limits = rule
                .choices
                .iter()
                .map(|&kind| PromotionLimit {
                    kind,
                    counts: counts.get(kind).copied().unwrap_or_default(),
                })
                .collect();
        }
    }

    /// Two promotions of one piece whose zones share a square (for either
    /// side): refused, since only one could apply there (E0411). Each
    /// promotion is compared with the union of the earlier zones of its
    /// pieces, so a crafted file of thousands of rules costs linear time.
    pub(super) fn check_overlapping_promotions(&mut self, variant: &Variant) {
        // Per piece: the squares (per side) of the zones of its earlier rules.
        let mut covered: HashMap<PieceId, [SquareSet; 2]> = HashMap::new();
        let sites = self.promotion_sites.clone();
        for (index, (later, &(file, span))) in variant.promotions.iter().zip(&sites).enumerate() {
            let Some(zone) = variant.regions.get(later.zone) else {
                continue;
            };
            let overlapped = later.pieces.iter().find(|piece| {
                covered.get(piece).is_some_and(|squares| {
                    (0..2).any(|side| {
                        zone.squares[side]
                            .iter()
                            .any(|sq| squares[side].contains(sq))
                    })
                })
            });
            if let Some(&piece) = overlapped {
                if self.error_limit_reached() {
                    return;
                }
                // The earlier rule is looked for only for an error that is
                // kept, so a long file stays linear.
                let earlier =
                    variant.promotions[..index]
                        .iter()
                        .zip(&sites)
                        .find(|(earlier, _)| {
                            earlier.pieces.contains(&piece)
                                && zones_overlap(variant, earlier.zone, later.zone)
                        });
                let name = variant.pieces.get(piece).map_or("?", |p| p.name.as_str());
                let mut error = Error::new(
                    Code::OverlappingPromotions,
                    file,
                    span,
                    format!("a second promotion rule for `{name}` in an overlapping zone"),
                )
                .with_label(format!("`{name}` already promotes on some of these squares"))
                .with_help("merge the choices into one rule, make the zones disjoint, or `replace` the earlier rule");
                if let Some((_, &(earlier_file, earlier_span))) = earlier {
                    error = error.with_secondary(
                        earlier_file,
                        earlier_span,
                        "the earlier rule for the same squares",
                    );
                }
                self.error(error);
            }
            for piece in &later.pieces {
                let squares = covered.entry(*piece).or_insert([SquareSet::EMPTY; 2]);
                for (side, set) in squares.iter_mut().enumerate() {
                    for square in zone.squares[side].iter() {
                        set.insert(square);
                    }
                }
            }
        }
    }

    pub(super) fn lower_castling(
        &mut self,
        file: usize,
        castling: &ast::Castling,
        span: Span,
        label: Option<String>,
    ) -> Option<Castling> {
        let king = self.piece(file, &castling.king);
        let rook = self.piece(file, &castling.rook);
        let mut sides = [None, None];
        let mut repeated = false;
        for side in &castling.sides {
            let king_file = self.file_letter(file, &side.king_file);
            let rook_file = self.file_letter(file, &side.rook_file);
            if let (Some(king_file), Some(rook_file)) = (king_file, rook_file) {
                if king_file == rook_file {
                    let letter = char::from(b'a' + king_file);
                    self.error(
                        Error::new(Code::CastlingSameSquare,
                            file,
                            side.span,
                            "the king and the rook would land on the same square",
                        )
                        .with_label(format!("both to the {letter} file"))
                        .with_help("give the rook the square beside the king's, e.g. `short king to g rook to f`"),
                    );
                }
                let (slot, other) = match side.side {
                    ast::CastlingSide::Short => (0, ast::CastlingSide::Long),
                    ast::CastlingSide::Long => (1, ast::CastlingSide::Short),
                };
                if sides[slot].is_some() {
                    repeated = true;
                    self.error(
                        Error::new(
                            Code::CastlingSideTwice,
                            file,
                            side.span,
                            format!("castling gives `{}` twice", side.side.keyword()),
                        )
                        .with_label("one `short` and one `long` are needed")
                        .with_help(format!("make this side `{}`", other.keyword())),
                    );
                }
                sides[slot] = Some(CastlingSide {
                    king_file,
                    rook_file,
                });
            }
        }
        let mut lowered = Castling {
            label,
            king: king?,
            rook: rook?,
            short: sides[0]?,
            long: sides[1].or_else(|| {
                if repeated {
                    // Already reported as a side given twice.
                    return None;
                }
                self.error(
                    Error::new(
                        Code::CastlingSideMissing,
                        file,
                        span,
                        "castling needs a `short` and a `long` side",
                    )
                    .with_label("only one side given"),
                );
                None
            })?,
            not_from_check: false,
            not_through_check: false,
            not_into_check: false,
            requirements: Vec::new(),
            // Set from the start position once it is known (`run`).
            ranks: [0, self.board.ranks.saturating_sub(1)],
        };
        for option in &castling.options {
            match option {
                ast::CastlingOption::NotFromCheck => lowered.not_from_check = true,
                ast::CastlingOption::NotThroughCheck => lowered.not_through_check = true,
                ast::CastlingOption::NotIntoCheck => lowered.not_into_check = true,
                ast::CastlingOption::RookMovedOnFiles(letters) => {
                    let files: Vec<u8> = letters
                        .iter()
                        .filter_map(|f| self.file_letter(file, f))
                        .collect();
                    lowered
                        .requirements
                        .push(CastlingRequirement::RookMayHaveMovedOnFiles(files));
                }
                ast::CastlingOption::KingLineage(names) => {
                    let was: Vec<PieceId> =
                        names.iter().filter_map(|i| self.piece(file, i)).collect();
                    lowered
                        .requirements
                        .push(CastlingRequirement::KingLineage(Lineage { was }));
                }
            }
        }
        Some(lowered)
    }

    pub(super) fn lower_history(
        &mut self,
        file: usize,
        history: &ast::History,
        label: Option<String>,
    ) -> HistoryRule {
        let plies_ago = self
            .number_in(
                file,
                &history.plies_ago,
                1..=MAX_HISTORY_PLIES,
                "the plies a repetition rule looks back",
            )
            .unwrap_or(4);
        let message = history
            .message
            .as_ref()
            .map_or_else(|| "illegal repeated check".to_string(), |s| s.value.clone());
        HistoryRule {
            label,
            kind: HistoryRuleKind::RepeatedCheck { plies_ago },
            unless_only_such_moves: history.unless_only_such_moves,
            message,
        }
    }

    pub(super) fn lower_succession(
        &mut self,
        file: usize,
        action: &ast::SuccessionAction,
    ) -> RoyalLoss {
        let (candidates, becomes_name) = match action {
            ast::SuccessionAction::GameEnds => return RoyalLoss::EndsGame,
            ast::SuccessionAction::Crown {
                candidates,
                becomes,
            } => (candidates, becomes),
        };
        let candidates = self.piece_list(file, candidates);
        let Some(becomes) = self.piece(file, becomes_name) else {
            return RoyalLoss::EndsGame;
        };
        if !self.pieces[becomes].royal {
            self.error(
                Error::new(
                    Code::CrownNotRoyal,
                    file,
                    becomes_name.span,
                    format!(
                        "succession crowns `{}`, which is not royal",
                        becomes_name.name
                    ),
                )
                .with_label("should be a royal piece")
                .with_help(
                    "crown into the royal piece the player lost, e.g. `crown bishop as king`",
                ),
            );
        }
        RoyalLoss::Succession {
            candidates,
            becomes,
        }
    }
}

/// Whether regions `a` and `b` share a square for either side.
fn zones_overlap(variant: &Variant, a: RegionId, b: RegionId) -> bool {
    let (Some(a), Some(b)) = (variant.regions.get(a), variant.regions.get(b)) else {
        return false;
    };
    (0..2).any(|side| {
        a.squares[side]
            .iter()
            .any(|square| b.squares[side].contains(square))
    })
}
