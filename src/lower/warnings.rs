//! Warnings: what a valid variant probably did not mean. They are checked
//! after lowering succeeded, on the model and on what lowering recorded
//! (names used, where each rule is written), and reported only for the
//! file being compiled: checking `ppc.rules` does not warn about
//! `chess.rules`, which is checked on its own.

use super::merge::{Item, Key};
use super::{Lowerer, NameKind};
use crate::error::{Code, Error, Span};
use crate::model::*;
use std::collections::{HashMap, HashSet};

/// Warnings reported per compilation at most, as errors are (a crafted
/// file could otherwise have one per statement).
const MAX_WARNINGS: usize = super::MAX_ERRORS;

impl Lowerer<'_> {
    /// The warnings about `variant`, in file order.
    pub(super) fn warnings(&self, variant: &Variant) -> Vec<Error> {
        let mut warnings = Vec::new();
        self.unused_definitions(variant, &mut warnings);
        self.terminations_that_never_fire(variant, &mut warnings);
        self.shadowed_labels(&mut warnings);
        warnings.sort_by_key(|warning| (warning.span.start, warning.span.end));
        warnings
    }

    /// Keeps `warning` if it is about the file compiled, up to [`MAX_WARNINGS`].
    fn report(&self, warnings: &mut Vec<Error>, warning: Error) {
        if warning.file == self.child && warnings.len() < MAX_WARNINGS {
            warnings.push(warning);
        }
    }

    /// Pieces that can never be on the board, counters nothing reads.
    fn unused_definitions(&self, variant: &Variant, warnings: &mut Vec<Error>) {
        let on_board = self.pieces_that_can_appear(variant);
        for item in &self.items {
            let Some(Key::Named(kind, name)) = &item.key else {
                continue;
            };
            let (code, unused, label, help) = match kind {
                NameKind::Piece => (
                    Code::UnusedPiece,
                    self.piece_ids
                        .get(name)
                        .is_some_and(|id| !on_board.contains(id)),
                    "not in the start position, and no promotion, crowning or movement uses it",
                    "place it in `setup`, make it by promotion, or remove it",
                ),
                // A region no rule uses is still shown: the playground
                // overlays every region (PPC's `territory` is there for
                // the players), and a base variant defines regions for the
                // variants built on it (chess's `center-files`).
                NameKind::Region => continue,
                NameKind::Counter => (
                    Code::UnusedCounter,
                    self.counter_ids
                        .get(name)
                        .is_some_and(|id| !self.used_counters.contains(id)),
                    "no condition (`count NAME`) or rule reads it",
                    "read it in a condition, or remove it",
                ),
            };
            if unused {
                let message = match kind {
                    NameKind::Piece => format!("piece `{name}` can never be on the board"),
                    NameKind::Region | NameKind::Counter => {
                        format!("{} `{name}` is never read", kind.word())
                    }
                };
                self.report(
                    warnings,
                    Error::new(code, item.file, item.key_span, message)
                        .with_label(label)
                        .with_help(help),
                );
            }
        }
    }

    /// The kinds that can be on the board: in the start position (or its
    /// hands, for a kind dropped), made by a promotion or a crowning, or reused by another piece's movement (a
    /// helper piece such as a queen defined as `rook + bishop`).
    fn pieces_that_can_appear(&self, variant: &Variant) -> HashSet<PieceId> {
        let mut kinds: HashSet<PieceId> = self.movement_pieces.clone();
        if let Ok(position) = varc_runtime::fen::parse_fen(variant, &variant.start_fen) {
            kinds.extend(position.pieces().map(|(_, piece)| piece.kind()));
            // A kind held in a hand at the start comes onto the board by a
            // drop (sittuyin's setup phase).
            for rule in &variant.hands.drops {
                kinds.extend(rule.pieces.iter().copied().filter(|&kind| {
                    [Color::White, Color::Black]
                        .into_iter()
                        .any(|color| position.in_hand(color, kind) > 0)
                }));
            }
        }
        for promotion in &variant.promotions {
            kinds.extend(promotion.choices.iter().copied());
        }
        match &variant.royal_loss {
            RoyalLoss::EndsGame => {}
            RoyalLoss::Succession { becomes, .. } => {
                kinds.insert(*becomes);
            }
        }
        kinds
    }

    /// A termination whose condition an earlier automatic one already has:
    /// the earlier ends the game first, so the later never fires.
    /// Conditions are compared by their printed form, in a hash map.
    fn terminations_that_never_fire(&self, variant: &Variant, warnings: &mut Vec<Error>) {
        let mut first_automatic: HashMap<String, (usize, Span)> = HashMap::new();
        for (termination, &(file, span)) in variant.terminations.iter().zip(&self.termination_sites)
        {
            let condition = format!("{:?}", termination.condition);
            if let Some(&(earlier_file, earlier_span)) = first_automatic.get(&condition) {
                if warnings.len() < MAX_WARNINGS {
                    self.report(
                        warnings,
                        Error::new(Code::RuleNeverFires, file, span, "this rule can never fire")
                            .with_label("an earlier `end when` rule has the same condition")
                            .with_secondary(
                                earlier_file,
                                earlier_span,
                                "this rule ends the game first",
                            )
                            .with_help("remove one of the two, or change the condition"),
                    );
                }
            } else if termination.trigger == Trigger::Automatic {
                first_automatic.insert(condition, (file, span));
            }
        }
    }

    /// A label that is also a piece, region or counter name.
    fn shadowed_labels(&self, warnings: &mut Vec<Error>) {
        let definitions: HashMap<&str, &Item<'_>> = self
            .items
            .iter()
            .filter_map(|item| match &item.key {
                Some(Key::Named(_, name)) => Some((name.as_str(), item)),
                Some(Key::Label(_)) | Some(Key::Singleton(_)) | None => None,
            })
            .collect();
        for item in &self.items {
            let Some(Key::Label(label)) = &item.key else {
                continue;
            };
            let Some(definition) = definitions.get(label.as_str()) else {
                continue;
            };
            if warnings.len() >= MAX_WARNINGS {
                return;
            }
            self.report(
                warnings,
                Error::new(
                    Code::ShadowedLabel,
                    item.file,
                    item.key_span,
                    format!("the label `{label}` is also the name of a definition"),
                )
                .with_label("this label")
                .with_secondary(definition.file, definition.key_span, "defined here")
                .with_help("`drop NAME` would remove both; give the label another name"),
            );
        }
    }
}
