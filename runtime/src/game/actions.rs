//! The actions of the side to move other than moves: claims (C7, P8,
//! P11), draw offers and acceptance (C7, P10, A3) and resignation (C8, A4).

use super::{awards, termination, Action, Claimable, Game, GameError};
use crate::board::Board;
use crate::model::{Agreement, Trigger};
use crate::rules::Rules;

impl<R: Rules> Game<R> {
    /// The claims the side to move could make now, in file order.
    pub fn claimable(&self) -> Vec<Claimable> {
        if self.state.result.is_some() {
            return Vec::new();
        }
        let context = self.context();
        let wins = awards::total_wins(&self.state.awarded);
        self.rules
            .variant()
            .terminations
            .iter()
            .filter(|rule| rule.trigger == Trigger::Claim && context.holds(&rule.condition))
            .map(|rule| Claimable {
                reason: rule.reason.clone(),
                result: termination::rule_result(&context, rule, wins),
            })
            .collect()
    }

    /// The side to move claims the first claim rule that holds now (file
    /// order). Refused with the reason each claim rule does not hold.
    pub fn claim(&mut self) -> Result<(), GameError> {
        self.ensure_ongoing()?;
        let Some(claim) = self.claimable().into_iter().next() else {
            let context = self.context();
            let reasons: Vec<String> = self
                .rules
                .variant()
                .terminations
                .iter()
                .filter(|rule| rule.trigger == Trigger::Claim)
                .map(|rule| format!("{}: {}", rule.reason, context.why_not(&rule.condition)))
                .collect();
            let why = if reasons.is_empty() {
                "the rules of this variant allow no claim".to_string()
            } else {
                reasons.join("; ")
            };
            return Err(GameError::NothingToClaim { why });
        };
        self.push_step(Action::Claim, "claim".to_string(), None);
        self.state.result = Some(claim.result);
        Ok(())
    }

    /// Why a draw by agreement is not allowed now, if it is not (P10).
    pub fn agreement_refusal(&self) -> Option<String> {
        match &self.rules.variant().agreement {
            Agreement::Always => None,
            Agreement::Never => Some("this variant has no draw by agreement".to_string()),
            Agreement::When(condition) => {
                let context = self.context();
                (!context.holds(condition)).then(|| context.why_not(condition))
            }
        }
    }

    /// The side to move offers a draw; the offer stands until the opponent
    /// moves. Refused when the rules do not allow an agreed draw now.
    pub fn offer(&mut self) -> Result<(), GameError> {
        self.ensure_ongoing()?;
        if let Some(why) = self.agreement_refusal() {
            return Err(GameError::AgreementNotAllowed { why });
        }
        self.push_step(Action::Offer, "offer".to_string(), None);
        self.state.offer = Some(self.state.position.side_to_move());
        Ok(())
    }

    /// The side to move accepts the opponent's standing draw offer.
    pub fn accept(&mut self) -> Result<(), GameError> {
        self.ensure_ongoing()?;
        let side = self.state.position.side_to_move();
        if self.state.offer != Some(side.opponent()) {
            return Err(GameError::NoOfferToAccept);
        }
        if let Some(why) = self.agreement_refusal() {
            return Err(GameError::AgreementNotAllowed { why });
        }
        self.push_step(Action::Accept, "accept".to_string(), None);
        let wins = awards::total_wins(&self.state.awarded);
        self.state.offer = None;
        self.state.result = Some(termination::agreement(
            self.rules.variant(),
            &self.state.position,
            wins,
        ));
        Ok(())
    }

    /// The side to move resigns (C8, A4).
    pub fn resign(&mut self) -> Result<(), GameError> {
        self.ensure_ongoing()?;
        let side = self.state.position.side_to_move();
        self.push_step(Action::Resign, "resign".to_string(), None);
        let wins = awards::total_wins(&self.state.awarded);
        self.state.result = Some(termination::resignation(
            self.rules.variant(),
            &self.state.position,
            side,
            wins,
        ));
        Ok(())
    }
}
