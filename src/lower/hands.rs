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

    /// A drop rule; a royal kind is refused (E0420): a royal piece in hand
    /// is not on the board for the check rule to protect.
    pub(super) fn lower_drops(
        &mut self,
        file: usize,
        drops: &ast::Drops,
        label: Option<String>,
    ) -> DropRule {
        for name in &drops.pieces {
            let royal = self
                .piece_ids
                .get(&name.name)
                .is_some_and(|id| self.pieces[*id].royal);
            if royal {
                self.error(
                    Error::new(
                        Code::DropOfRoyal,
                        file,
                        name.span,
                        format!("`{}` is royal and cannot be dropped", name.name),
                    )
                    .with_label("a royal piece never goes to a hand")
                    .with_help("leave the royal piece out of `drops of ...`"),
                );
            }
        }
        DropRule {
            label,
            pieces: self.piece_list(file, &drops.pieces),
            onto: drops
                .onto
                .as_ref()
                .and_then(|region| self.region(file, region)),
            no_two_on_a_file: drops.no_two_on_a_file,
        }
    }

    /// Checks of the drop rules against each other and the rest of the
    /// variant: a kind named by two rules (E0421: which region applies
    /// would be a matter of file order), and drops in a variant whose
    /// hands nothing fills (E0422).
    pub(super) fn check_drops(&mut self, variant: &Variant, sites: &[(usize, Span)]) {
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
