//! Promotion, castling, history rules and royal succession.

use super::{children, first_child, Lowerer};
use crate::error::{Code, Error, Span};
use crate::model::*;
use crate::syntax::{Node, Rule};

impl Lowerer<'_> {
    pub(super) fn lower_promotion(
        &mut self,
        file: usize,
        body: Node<'_>,
        label: Option<String>,
    ) -> Option<Promotion> {
        let lists = children(&body, Rule::ident_list);
        let pieces = self.piece_list(file, lists.first().cloned());
        let choices = self.piece_list(file, lists.get(1).cloned());
        let zone_node = first_child(&body, Rule::ident)?;
        let zone = self.region(file, &zone_node);
        let mut obligation = Obligation::Mandatory;
        let mut timing = PromotionTiming::Immediate;
        for option in children(&body, Rule::promote_option) {
            let Some(inner) = option.into_inner().next() else {
                continue;
            };
            match inner.as_rule() {
                Rule::mandatory => obligation = Obligation::Mandatory,
                Rule::optional => obligation = Obligation::Optional,
                Rule::mandatory_unless => {
                    if let Some(c) = first_child(&inner, Rule::condition) {
                        obligation = Obligation::MandatoryUnless(self.condition(file, &c));
                    }
                }
                Rule::delayed => {
                    let follow_up = first_child(&inner, Rule::follow_up)
                        .and_then(|f| first_child(&f, Rule::follow_mode))
                        .map(|m| match m.as_str() {
                            "move-only" => MoveMode::MoveOnly,
                            "capture-only" => MoveMode::CaptureOnly,
                            _ => MoveMode::MoveOrCapture,
                        });
                    timing = PromotionTiming::Delayed { follow_up };
                }
                _ => {}
            }
        }
        // A delayed promotion is the owner's choice on a later turn (D2).
        if matches!(timing, PromotionTiming::Delayed { .. }) {
            obligation = Obligation::Optional;
        }
        if let Some(list) = lists.get(1) {
            for ident in children(list, Rule::ident) {
                let royal = self
                    .piece_ids
                    .get(ident.as_str())
                    .is_some_and(|id| self.pieces[*id].royal);
                if royal {
                    self.error(
                        Error::new(Code::PromotionToRoyal, file, ident.as_span().into(), format!("promotion into the royal piece `{}`", ident.as_str()))
                            .with_label("a promoted piece would be a second royal piece")
                            .with_help("promote into non-royal pieces; a player keeps one royal piece (use `on royal-capture crown ...` for succession)"),
                    );
                }
            }
        }
        Some(Promotion {
            label,
            pieces,
            zone: zone?,
            choices,
            obligation,
            timing,
        })
    }

    pub(super) fn lower_castling(
        &mut self,
        file: usize,
        body: Node<'_>,
        label: Option<String>,
    ) -> Option<Castling> {
        let idents = children(&body, Rule::ident);
        let king = self.piece(file, idents.first()?);
        let rook = self.piece(file, idents.get(1)?);
        let mut sides = [None, None];
        let mut repeated = false;
        for side in children(&body, Rule::castling_side) {
            let is_short =
                first_child(&side, Rule::castle_side_kw).is_some_and(|k| k.as_str() == "short");
            let files = children(&side, Rule::file_letter);
            let king_file = files.first().and_then(|f| self.file_letter(file, f));
            let rook_file = files.get(1).and_then(|f| self.file_letter(file, f));
            if let (Some(king_file), Some(rook_file)) = (king_file, rook_file) {
                if king_file == rook_file {
                    let letter = char::from(b'a' + king_file);
                    self.error(
                        Error::new(Code::CastlingSameSquare,
                            file,
                            side.as_span().into(),
                            "the king and the rook would land on the same square",
                        )
                        .with_label(format!("both to the {letter} file"))
                        .with_help("give the rook the square beside the king's, e.g. `short king to g rook to f`"),
                    );
                }
                let slot = if is_short { 0 } else { 1 };
                if sides[slot].is_some() {
                    repeated = true;
                    self.error(
                        Error::new(
                            Code::CastlingSideTwice,
                            file,
                            side.as_span().into(),
                            format!(
                                "castling gives `{}` twice",
                                if is_short { "short" } else { "long" }
                            ),
                        )
                        .with_label("one `short` and one `long` are needed")
                        .with_help(format!(
                            "make this side `{}`",
                            if is_short { "long" } else { "short" }
                        )),
                    );
                }
                sides[slot] = Some(CastlingSide {
                    king_file,
                    rook_file,
                });
            }
        }
        let mut castling = Castling {
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
                        body.as_span().into(),
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
        };
        for option in children(&body, Rule::castling_option) {
            let Some(inner) = option.into_inner().next() else {
                continue;
            };
            match inner.as_rule() {
                Rule::not_from_check => castling.not_from_check = true,
                Rule::not_through_check => castling.not_through_check = true,
                Rule::not_into_check => castling.not_into_check = true,
                Rule::rook_moved_on_files => {
                    let files: Vec<u8> = children(&inner, Rule::file_letter)
                        .iter()
                        .filter_map(|f| self.file_letter(file, f))
                        .collect();
                    castling
                        .requirements
                        .push(CastlingRequirement::RookMayHaveMovedOnFiles(files));
                }
                Rule::king_lineage => {
                    let was: Vec<PieceId> = children(&inner, Rule::ident)
                        .iter()
                        .filter_map(|i| self.piece(file, i))
                        .collect();
                    castling
                        .requirements
                        .push(CastlingRequirement::KingLineage(Lineage { was }));
                }
                _ => {}
            }
        }
        Some(castling)
    }

    pub(super) fn lower_history(
        &mut self,
        file: usize,
        body: Node<'_>,
        label: Option<String>,
    ) -> HistoryRule {
        let plies_ago = first_child(&body, Rule::int)
            .and_then(|n| {
                self.number_in(
                    file,
                    &n,
                    1..=MAX_HISTORY_PLIES,
                    "the plies a repetition rule looks back",
                )
            })
            .unwrap_or(4);
        let message = first_child(&body, Rule::string)
            .map(|s| super::string_value(&s))
            .unwrap_or_else(|| "illegal repeated check".to_string());
        HistoryRule {
            label,
            kind: HistoryRuleKind::RepeatedCheck { plies_ago },
            unless_only_such_moves: first_child(&body, Rule::unless_only).is_some(),
            message,
        }
    }

    pub(super) fn lower_succession(&mut self, file: usize, body: Node<'_>) -> RoyalLoss {
        let Some(action) =
            first_child(&body, Rule::succession_action).and_then(|a| a.into_inner().next())
        else {
            return RoyalLoss::EndsGame;
        };
        if action.as_rule() != Rule::crown {
            return RoyalLoss::EndsGame;
        }
        let candidates = self.piece_list(file, first_child(&action, Rule::ident_list));
        let Some(becomes_node) = first_child(&action, Rule::ident) else {
            return RoyalLoss::EndsGame;
        };
        let Some(becomes) = self.piece(file, &becomes_node) else {
            return RoyalLoss::EndsGame;
        };
        if !self.pieces[becomes].royal {
            self.error(
                Error::new(
                    Code::CrownNotRoyal,
                    file,
                    Span::from(becomes_node.as_span()),
                    format!(
                        "succession crowns `{}`, which is not royal",
                        becomes_node.as_str()
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
