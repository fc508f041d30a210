//! Ending a game: resolving a rule's outcome, the tiebreak that decides a
//! draw (A3), and the results of resignation (C8, A4), agreement (P10) and
//! flag fall (C8).

use super::condition::Context;
use super::result::{GameResult, ResultKind};
use crate::board::Board;
use crate::model::{Color, Outcome, Resignation, Termination, Variant};

/// An outcome resolved at one moment.
pub fn resolve(context: &Context<'_, impl Board>, outcome: &Outcome) -> ResultKind {
    match outcome {
        Outcome::Win(player) => ResultKind::Win(context.player(*player)),
        Outcome::Draw => ResultKind::Draw,
        Outcome::NullGame => ResultKind::NullGame,
        Outcome::GameOver => ResultKind::GameOver,
        Outcome::If(condition, then, otherwise) => resolve(
            context,
            if context.holds(condition) {
                then
            } else {
                otherwise
            },
        ),
    }
}

/// For a single `if` between two plain outcomes, the figure that decided
/// it (`with 3 pieces`, P8). Nested `if`s (A8) say nothing more than the
/// rule's reason.
fn deciding_detail(context: &Context<'_, impl Board>, outcome: &Outcome) -> Option<String> {
    match outcome {
        Outcome::If(condition, then, otherwise)
            if !matches!(**then, Outcome::If(..)) && !matches!(**otherwise, Outcome::If(..)) =>
        {
            context.detail(condition)
        }
        _ => None,
    }
}

/// The result of `rule`, which holds in `context`. `awarded` is the wins
/// awarded so far, White first.
pub fn rule_result(
    context: &Context<'_, impl Board>,
    rule: &Termination,
    awarded: [u32; 2],
) -> GameResult {
    let kind = resolve(context, &rule.outcome);
    let mut reason = rule.reason.clone();
    if let Some(detail) = deciding_detail(context, &rule.outcome) {
        reason = format!("{reason} {detail}");
    }
    ended(
        context.variant,
        context.position,
        kind,
        reason,
        rule.tiebreak_applies,
        awarded,
    )
}

/// A result of `kind`: a null game's reason says so; a draw goes to the
/// tiebreak when `tiebreak` and the variant has one; a win earns one win.
pub fn ended(
    variant: &Variant,
    position: &impl Board,
    kind: ResultKind,
    reason: String,
    tiebreak: bool,
    awarded: [u32; 2],
) -> GameResult {
    let decision = decide(variant, position, kind, tiebreak);
    let reason = match (decision.kind, decision.tiebreak_counts) {
        (ResultKind::NullGame, _) => format!("null game: {reason}"),
        (ResultKind::Draw, Some([white, black])) => {
            format!("{reason}, equal material count {white} to {black}")
        }
        (_, Some([white, black])) => {
            format!("{reason}, decided by material count {white} to {black}")
        }
        (_, None) => reason,
    };
    GameResult::new(variant, decision.kind, reason, awarded, decision.end_wins)
}

/// How an outcome ends the game, before it is put in words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decision {
    /// The result: a draw the tiebreak decided is a win.
    pub kind: ResultKind,
    /// The wins the end itself gives, White first (awarded ones apart).
    pub end_wins: [u32; 2],
    /// Each player's tiebreak count, where a draw went to the tiebreak.
    pub tiebreak_counts: Option<[u32; 2]>,
}

/// What an outcome of `kind` gives: a win earns one win; a draw goes to
/// the tiebreak when `tiebreak` and the variant has one (A3): the higher
/// count earns the tiebreak's wins and the game, equal counts stay a draw.
pub fn decide(
    variant: &Variant,
    position: &impl Board,
    kind: ResultKind,
    tiebreak: bool,
) -> Decision {
    let mut decision = Decision {
        kind,
        end_wins: [0; 2],
        tiebreak_counts: None,
    };
    match kind {
        ResultKind::Win(color) => decision.end_wins[color.index()] = 1,
        ResultKind::Draw if tiebreak => {
            if let Some(rule) = &variant.tiebreak {
                let counts = tiebreak_counts(variant, position);
                decision.tiebreak_counts = Some(counts);
                let winner = match counts[0].cmp(&counts[1]) {
                    std::cmp::Ordering::Greater => Some(Color::White),
                    std::cmp::Ordering::Less => Some(Color::Black),
                    std::cmp::Ordering::Equal => None,
                };
                if let Some(winner) = winner {
                    decision.kind = ResultKind::Win(winner);
                    decision.end_wins[winner.index()] = rule.wins;
                }
            }
        }
        ResultKind::Draw | ResultKind::NullGame | ResultKind::GameOver => {}
    }
    decision
}

/// Each player's tiebreak count (A3), White first: points per piece (a
/// region value replaces the plain value where the piece stands in the
/// region) plus points per unit of counters.
pub fn tiebreak_counts(variant: &Variant, position: &impl Board) -> [u32; 2] {
    let Some(tiebreak) = &variant.tiebreak else {
        return [0; 2];
    };
    let mut counts = [0u32; 2];
    for (square, piece) in position.pieces() {
        let color = piece.color();
        let in_region = tiebreak.region_values.iter().find(|(kind, region, _)| {
            *kind == piece.kind()
                && variant
                    .regions
                    .get(*region)
                    .is_some_and(|r| r.for_side(color).contains(square))
        });
        let points = match in_region {
            Some((_, _, points)) => *points,
            None => tiebreak
                .values
                .iter()
                .find(|(kind, _)| *kind == piece.kind())
                .map_or(0, |(_, points)| *points),
        };
        counts[color.index()] += points;
    }
    for color in Color::ALL {
        for (counter, points) in &tiebreak.counter_values {
            let units = position.counters(color).get(*counter).copied().unwrap_or(0);
            counts[color.index()] += units * points;
        }
    }
    counts
}

/// The result of `resigner`'s resignation (C8, A4).
pub fn resignation(
    variant: &Variant,
    position: &impl Board,
    resigner: Color,
    awarded: [u32; 2],
) -> GameResult {
    let winner = resigner.opponent();
    let reason = format!("{resigner} resigns");
    let mut end_wins = [0; 2];
    end_wins[winner.index()] = match &variant.resignation {
        Resignation::OpponentWins => 1,
        Resignation::AwardWins {
            base,
            per_count,
            counter,
        } => {
            let units = position
                .counters(winner)
                .get(*counter)
                .copied()
                .unwrap_or(0);
            per_count.saturating_mul(units).saturating_add(*base)
        }
    };
    GameResult::new(variant, ResultKind::Win(winner), reason, awarded, end_wins)
}

/// The result of a draw by agreement (P10); the tiebreak decides it when
/// the variant has one (A3).
pub fn agreement(variant: &Variant, position: &impl Board, awarded: [u32; 2]) -> GameResult {
    ended(
        variant,
        position,
        ResultKind::Draw,
        "draw by agreement".to_string(),
        variant.tiebreak.is_some(),
        awarded,
    )
}

/// The result of `flagged`'s flag fall: a loss on time (C8).
pub fn flag_fall(
    variant: &Variant,
    position: &impl Board,
    flagged: Color,
    awarded: [u32; 2],
) -> GameResult {
    ended(
        variant,
        position,
        ResultKind::Win(flagged.opponent()),
        format!("{flagged} lost on time"),
        false,
        awarded,
    )
}
