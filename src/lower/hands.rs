//! Hands and drops: `captures go to hand [, demoted]` and `drops of PIECES
//! [onto REGION]`, with the checks that need the whole variant.

use super::Lowerer;
use crate::ast;
use crate::error::{Code, Error, Span};
use crate::model::*;

impl Lowerer<'_> {
    pub(super) fn lower_hand(&mut self, hand: &ast::Hand, label: Option<String>) -> CapturesToHand {
        CapturesToHand {
            label,
            demoted: hand.demoted,
        }
    }

    /// A drop rule; a royal kind is refused (E0420) unless the start
    /// position holds it in a hand (sittuyin's setup phase): captures never
    /// send a royal piece to a hand, so one that is not there at the start
    /// could never be dropped. The start position is read in
    /// [`Self::check_drops`], once `setup` is known.
    pub(super) fn lower_drops(
        &mut self,
        file: usize,
        drops: &ast::Drops,
        label: Option<String>,
    ) -> DropRule {
        DropRule {
            label,
            pieces: self.piece_list(file, &drops.pieces),
            onto: drops
                .onto
                .as_ref()
                .and_then(|region| self.region(file, region)),
            no_two_on_a_file: drops.no_two_on_a_file,
            by_gating: drops.by_gating,
        }
    }

    /// E0420: the royal kinds of the drop rules that the start position
    /// holds in no hand.
    fn check_royal_drops(&mut self, variant: &Variant, sites: &[(usize, Span)]) {
        let start = varc_runtime::fen::parse_fen(variant, &variant.start_fen).ok();
        let in_start_hand = |kind: PieceId| {
            start.as_ref().is_some_and(|position| {
                [Color::White, Color::Black]
                    .into_iter()
                    .any(|color| position.in_hand(color, kind) > 0)
            })
        };
        for (rule, &(file, _)) in variant.hands.drops.iter().zip(sites) {
            for &kind in &rule.pieces {
                let Some(piece) = variant.pieces.get(kind) else {
                    continue;
                };
                if !piece.royal || in_start_hand(kind) {
                    continue;
                }
                let Some(name) = self.drop_name_span(file, &piece.name) else {
                    continue;
                };
                self.error(
                    Error::new(
                        Code::DropOfRoyal,
                        file,
                        name,
                        format!("`{}` is royal and cannot be dropped", piece.name),
                    )
                    .with_label("a royal piece never goes to a hand, and the start position holds none")
                    .with_help("leave the royal piece out of `drops of ...`, or give it in hand in `setup`"),
                );
            }
        }
    }

    /// E0453: gating where a side that lost its royal pieces crowns one
    /// (A2 succession). A move would both crown a piece and gate one; the
    /// two are not combined.
    fn check_gating(&mut self, variant: &Variant, sites: &[(usize, Span)]) {
        if !matches!(variant.royal_loss, RoyalLoss::Succession { .. }) {
            return;
        }
        let gating = variant
            .hands
            .drops
            .iter()
            .zip(sites)
            .find(|(rule, _)| rule.by_gating);
        if let Some((_, &(file, span))) = gating {
            self.error(
                Error::new(
                    Code::GatingWithSuccession,
                    file,
                    span,
                    "gating in a variant with a succession rule",
                )
                .with_label("a move could then both crown a piece and gate one")
                .with_help(
                    "remove `by gating`, or the succession rule (`on royal-capture crown ...`)",
                ),
            );
        }
    }

    /// Where `name` is written in a drop rule of `file`.
    fn drop_name_span(&self, file: usize, name: &str) -> Option<Span> {
        self.items
            .iter()
            .filter(|item| item.file == file)
            .find_map(|item| match &item.body.kind {
                ast::BodyKind::Drops(drops) => drops
                    .pieces
                    .iter()
                    .find(|ident| ident.name == name)
                    .map(|ident| ident.span),
                _ => None,
            })
    }

    /// Checks of the drop rules against each other and the rest of the
    /// variant: a kind named by two rules (E0421: which region applies
    /// would be a matter of file order), and drops in a variant whose
    /// hands nothing fills (E0422).
    pub(super) fn check_drops(&mut self, variant: &Variant, sites: &[(usize, Span)]) {
        self.check_royal_drops(variant, sites);
        self.check_gating(variant, sites);
        if let (true, true, Some((file, span))) = (
            variant.legality.drops_compulsory,
            variant.hands.drops.is_empty(),
            self.drop_rule_site,
        ) {
            self.error(
                Error::new(
                    Code::CompulsoryDropsWithoutDrops,
                    file,
                    span,
                    "compulsory drops, but no piece is ever dropped",
                )
                .with_label("no `drops of` rule")
                .with_help("add `drops of PIECES [onto REGION]`, or remove `drop-rule compulsory`"),
            );
        }
        let mut named: Vec<Option<usize>> = vec![None; variant.pieces.len()];
        for (index, (rule, &(file, span))) in variant.hands.drops.iter().zip(sites).enumerate() {
            for &piece in &rule.pieces {
                let Some(slot) = named.get_mut(piece) else {
                    continue;
                };
                if let Some(earlier) = *slot {
                    let name = &variant.pieces[piece].name;
                    let mut error = Error::new(
                        Code::DropRuleTwice,
                        file,
                        span,
                        format!("a second drop rule for `{name}`"),
                    )
                    .with_label(format!("`{name}` is already dropped by an earlier rule"))
                    .with_help("name each piece in one `drops of` rule, or `replace` / `drop` the earlier rule");
                    if let Some(&(earlier_file, earlier_span)) = sites.get(earlier) {
                        error =
                            error.with_secondary(earlier_file, earlier_span, "the earlier rule");
                    }
                    self.error(error);
                } else {
                    *slot = Some(index);
                }
            }
        }
        let start_holds_pieces = variant
            .start_fen
            .split_whitespace()
            .next()
            .is_some_and(|placement| placement.contains('[') && !placement.ends_with("[]"));
        if variant.hands.captures_to_hand.is_none() && !start_holds_pieces {
            if let Some(&(file, span)) = sites.first() {
                self.error(
                    Error::new(
                        Code::DropsWithoutHand,
                        file,
                        span,
                        "drops, but nothing ever goes to a hand",
                    )
                    .with_label("no piece could be dropped")
                    .with_help("add `captures go to hand`, or give pieces in hand in `setup` (`...[Pp] w ...`)"),
                );
            }
        }
    }

    /// A letter marked `+` (`+P`) says in a FEN that the piece was
    /// promoted, from the one kind that promotes into its kind, which a
    /// capture returns to the hand when captures go there demoted: a kind
    /// that no kind, or several, promote into is refused (E0423).
    pub(super) fn check_promoted_letters(&mut self, variant: &Variant) {
        for (kind, piece) in variant.pieces.iter().enumerate() {
            if !piece.letter.starts_with('+')
                || varc_runtime::hands::promoted_from(variant, kind).is_some()
            {
                continue;
            }
            let site = self.items.iter().find_map(|item| match &item.body.kind {
                ast::BodyKind::Piece(p) if p.name.name == piece.name => {
                    Some((item.file, p.letter.span))
                }
                _ => None,
            });
            let Some((file, span)) = site else {
                continue;
            };
            let sources = variant
                .promotions
                .iter()
                .filter(|rule| rule.choices.contains(&kind))
                .flat_map(|rule| rule.pieces.iter())
                .count();
            self.error(
                Error::new(
                    Code::PromotedLetterWithoutSource,
                    file,
                    span,
                    format!(
                        "`{}` is marked `+` as a promoted kind, but {} into `{}`",
                        piece.letter,
                        if sources == 0 {
                            "no kind promotes".to_string()
                        } else {
                            format!("{sources} kinds promote")
                        },
                        piece.name
                    ),
                )
                .with_label("`+` says in a FEN what the piece was before it promoted")
                .with_help(format!(
                    "promote exactly one kind into `{}` (`promote pawn to {} in camp`), or write its letter without `+`",
                    piece.name, piece.name
                )),
            );
        }
    }
}
