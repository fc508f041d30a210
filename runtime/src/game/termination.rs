//! Ending a game: resolving a rule's outcome, the tiebreak that decides a
//! draw (A3), and the results of resignation (C8, A4), agreement (P10) and
//! flag fall (C8).

use super::condition::Context;
use super::result::{GameResult, ResultKind};
use crate::model::{Color, Outcome, Resignation, Termination, Variant};
use crate::position::Position;

/// An outcome resolved at one moment: its kind, and for a single `if`
/// between two plain outcomes, the figure that decided it (`with 3
/// pieces`, P8). Nested `if`s (A8) say nothing more than the rule's reason.
fn resolve(context: &Context<'_>, outcome: &Outcome) -> (ResultKind, Option<String>) {
    match outcome {
        Outcome::Win(player) => (ResultKind::Win(context.player(*player)), None),
        Outcome::Draw => (ResultKind::Draw, None),
        Outcome::NullGame => (ResultKind::NullGame, None),
        Outcome::GameOver => (ResultKind::GameOver, None),
        Outcome::If(condition, then, otherwise) => {
            let branch = if context.holds(condition) {
                then
            } else {
                otherwise
            };
            let (kind, _) = resolve(context, branch);
            let single =
                !matches!(**then, Outcome::If(..)) && !matches!(**otherwise, Outcome::If(..));
            (
                kind,
                if single {
                    context.detail(condition)
                } else {
                    None
                },
            )
        }
    }
}

/// The result of `rule`, which holds in `context`. `awarded` is the wins
/// awarded so far, White first.
pub fn rule_result(context: &Context<'_>, rule: &Termination, awarded: [u32; 2]) -> GameResult {
    let (kind, detail) = resolve(context, &rule.outcome);
    let mut reason = rule.reason.clone();
    if let Some(detail) = detail {
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
    position: &Position,
    kind: ResultKind,
    reason: String,
    tiebreak: bool,
    awarded: [u32; 2],
) -> GameResult {
    match kind {
        ResultKind::Win(color) => {
            let mut end_wins = [0; 2];
            end_wins[color.index()] = 1;
            GameResult::new(variant, kind, reason, awarded, end_wins)
        }
        ResultKind::NullGame => GameResult::new(
            variant,
            kind,
            format!("null game: {reason}"),
            awarded,
            [0; 2],
        ),
        ResultKind::Draw if tiebreak => decide_draw(variant, position, reason, awarded),
        ResultKind::Draw | ResultKind::GameOver => {
            GameResult::new(variant, kind, reason, awarded, [0; 2])
        }
    }
}

/// Each player's tiebreak count (A3), White first: points per piece (a
/// region value replaces the plain value where the piece stands in the
/// region) plus points per unit of counters.
pub fn tiebreak_counts(variant: &Variant, position: &Position) -> [u32; 2] {
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

/// A3: a draw decided by the tiebreak: the higher count earns the
/// tiebreak's wins and the game; equal counts stay a draw.
fn decide_draw(
    variant: &Variant,
    position: &Position,
    reason: String,
    awarded: [u32; 2],
) -> GameResult {
    let Some(tiebreak) = &variant.tiebreak else {
        return GameResult::new(variant, ResultKind::Draw, reason, awarded, [0; 2]);
    };
    let [white, black] = tiebreak_counts(variant, position);
    let winner = match white.cmp(&black) {
        std::cmp::Ordering::Greater => Color::White,
        std::cmp::Ordering::Less => Color::Black,
        std::cmp::Ordering::Equal => {
            let reason = format!("{reason}, equal material count {white} to {black}");
            return GameResult::new(variant, ResultKind::Draw, reason, awarded, [0; 2]);
        }
    };
    let mut end_wins = [0; 2];
    end_wins[winner.index()] = tiebreak.wins;
    let reason = format!("{reason}, decided by material count {white} to {black}");
    GameResult::new(variant, ResultKind::Win(winner), reason, awarded, end_wins)
}

/// The result of `resigner`'s resignation (C8, A4).
pub fn resignation(
    variant: &Variant,
    position: &Position,
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
            base + per_count * units
        }
    };
    GameResult::new(variant, ResultKind::Win(winner), reason, awarded, end_wins)
}

/// The result of a draw by agreement (P10); the tiebreak decides it when
/// the variant has one (A3).
pub fn agreement(variant: &Variant, position: &Position, awarded: [u32; 2]) -> GameResult {
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
    position: &Position,
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
