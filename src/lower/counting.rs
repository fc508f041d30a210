//! Counting rules: `counting limit ...` and `counting starts for ...`
//! (Fairy-Stockfish's makruk and cambodian counting; see
//! [`Counting`](crate::model::Counting)).

use super::Lowerer;
use crate::ast;
use crate::error::{Code, Error, Span};
use crate::model::*;
use varc_runtime::game::counting::readable_when_counting;

impl Lowerer<'_> {
    /// One counting statement, added to `counting` in file order. A
    /// condition that reads what a count's update cannot know (legal
    /// moves, check, repetitions, clocks) is refused (`E0430`).
    pub(super) fn lower_counting(
        &mut self,
        file: usize,
        span: Span,
        statement: &ast::Counting,
        counting: &mut Counting,
    ) {
        match statement {
            ast::Counting::Limit {
                moves,
                from_pieces,
                when,
            } => {
                let moves = moves.as_ref().map(|moves| {
                    self.number_in(file, moves, 1..=u32::MAX / 2, "a counting limit in moves")
                        .unwrap_or(1)
                });
                let when = when.as_ref().map(|when| self.condition(file, when));
                if let Some(when) = &when {
                    self.check_counting_condition(file, span, when);
                }
                counting.limits.push(CountingLimit {
                    moves,
                    from_pieces: *from_pieces,
                    when,
                });
            }
            ast::Counting::Start { player, when } => {
                let when = self.condition(file, when);
                self.check_counting_condition(file, span, &when);
                counting.starts.push(CountingStart {
                    player: super::rules::player(*player),
                    when,
                });
            }
        }
        self.counting_sites.push((file, span));
    }

    fn check_counting_condition(&mut self, file: usize, span: Span, condition: &Condition) {
        if readable_when_counting(condition) {
            return;
        }
        self.error(
            Error::new(
                Code::CountingReadsTooMuch,
                file,
                span,
                "a counting rule's condition reads what a count cannot know",
            )
            .with_label("legal moves, check, repetitions, move counts and clocks are not read here")
            .with_help("counting conditions read the material, the side to move, the last move, the counters and the count (`counting`)"),
        );
    }

    /// A count needs both halves: a rule that starts it and limits that
    /// say who may count; and `counting` in a condition needs counting
    /// rules (`E0431`).
    pub(super) fn check_counting(&mut self, variant: &Variant) {
        let counting = &variant.counting;
        let sites = std::mem::take(&mut self.counting_sites);
        if let Some(&(file, span)) = sites.first() {
            let missing = if counting.limits.is_empty() {
                Some((
                    "no `counting limit` says who may count and how far",
                    "add `counting limit N moves [when CONDITION]`",
                ))
            } else if counting.starts.is_empty() {
                Some((
                    "no `counting starts` rule ever starts a count",
                    "add `counting starts for side-to-move when CONDITION`",
                ))
            } else {
                None
            };
            if let Some((label, help)) = missing {
                self.error(
                    Error::new(
                        Code::CountingIncomplete,
                        file,
                        span,
                        "the counting rules are incomplete",
                    )
                    .with_label(label)
                    .with_help(help),
                );
            }
            return;
        }
        let sites = std::mem::take(&mut self.termination_sites);
        for (rule, &(file, span)) in variant.terminations.iter().zip(&sites) {
            if reads_count(&rule.condition) {
                self.error(
                    Error::new(
                        Code::CountingIncomplete,
                        file,
                        span,
                        "`counting` is read, but the variant has no counting rules",
                    )
                    .with_label("no count ever runs here")
                    .with_help("add `counting limit ...` and `counting starts for ...` rules"),
                );
            }
        }
        self.termination_sites = sites;
    }
}

fn reads_count(condition: &Condition) -> bool {
    match condition {
        Condition::Counting | Condition::CountingOverLimit => true,
        Condition::And(a, b) | Condition::Or(a, b) => reads_count(a) || reads_count(b),
        Condition::Not(a) => reads_count(a),
        Condition::NoLegalMoves
        | Condition::ToMove(_)
        | Condition::CanMoveInto { .. }
        | Condition::InCheck
        | Condition::InCheckByOnly(_)
        | Condition::RoyalCaptured
        | Condition::Repetition { .. }
        | Condition::PliesSinceReset(_)
        | Condition::Material { .. }
        | Condition::OnlyRoyalsLeft
        | Condition::InsufficientMaterial(_)
        | Condition::Counter { .. }
        | Condition::ClockBelow { .. }
        | Condition::LastMove(_)
        | Condition::RoyalsFace
        | Condition::PointsLead { .. } => false,
    }
}
