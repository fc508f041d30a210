//! Awarded wins (A1, A11): checked after every move, in file order; `once`
//! awards are given at most once per player; of two awards that do not
//! stack the player keeps the better one; an award may end the game.

use super::condition::Context;
use crate::board::Board;
use crate::model::{Award, Color, Variant};

/// A win awarded during the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AwardedWin {
    /// The award's name ("True 5 Queens").
    pub name: String,
    /// Who earned it.
    pub player: Color,
    /// How many wins.
    pub wins: u32,
    /// The ply (1-based: the move that earned it).
    pub ply: u32,
}

/// Wins awarded so far, White first.
pub fn total_wins(awarded: &[AwardedWin]) -> [u32; 2] {
    let mut wins = [0; 2];
    for award in awarded {
        let total = &mut wins[award.player.index()];
        *total = award.wins.saturating_add(*total);
    }
    wins
}

fn stacks(variant: &Variant, a: &str, b: &str) -> bool {
    let forbids = |x: &str, y: &str| {
        variant
            .awards
            .iter()
            .any(|award| award.name == x && award.not_stackable_with.iter().any(|n| n == y))
    };
    !(forbids(a, b) || forbids(b, a))
}

/// Gives the awards whose condition holds after the move of ply `ply`,
/// updating `awarded`. Returns the awards given on this move and the name of
/// the first one that ends the game, if any.
pub fn grant(
    context: &Context<'_, impl Board>,
    awarded: &mut Vec<AwardedWin>,
    ply: u32,
) -> (Vec<AwardedWin>, Option<String>) {
    let variant = context.variant;
    let mut given = Vec::new();
    let mut ends = None;
    for award in &variant.awards {
        if !context.holds(&award.when) {
            continue;
        }
        let player = context.player(award.to);
        if award.once
            && awarded
                .iter()
                .any(|a| a.name == award.name && a.player == player)
        {
            continue;
        }
        if !better_than_rivals(variant, award, player, awarded) {
            continue;
        }
        awarded.retain(|a| a.player != player || stacks(variant, &a.name, &award.name));
        given.retain(|a: &AwardedWin| a.player != player || stacks(variant, &a.name, &award.name));
        let win = AwardedWin {
            name: award.name.clone(),
            player,
            wins: award.wins,
            ply,
        };
        awarded.push(win.clone());
        given.push(win);
        if award.ends_game && ends.is_none() {
            ends = Some(award.name.clone());
        }
    }
    (given, ends)
}

/// Whether `award` beats every award of `player` it does not stack with.
fn better_than_rivals(
    variant: &Variant,
    award: &Award,
    player: Color,
    awarded: &[AwardedWin],
) -> bool {
    awarded
        .iter()
        .filter(|a| a.player == player && !stacks(variant, &a.name, &award.name))
        .all(|rival| award.wins > rival.wins)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn award_totals_saturate_instead_of_wrapping() {
        let award = |wins| AwardedWin {
            name: "jackpot".to_string(),
            player: Color::White,
            wins,
            ply: 1,
        };
        assert_eq!(total_wins(&[award(u32::MAX), award(1)]), [u32::MAX, 0]);
    }
}
