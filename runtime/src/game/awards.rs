//! Awarded wins (A1, A11): checked after every move, in file order; `once`
//! awards are given at most once per player; of two awards that do not
//! stack the player keeps the better one; an award may end the game.

use super::condition::Context;
use crate::board::Board;
use crate::model::{Color, Variant};
use std::collections::{HashMap, HashSet};

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

/// Which awards do not stack (`not with`), both ways, by name: built once
/// per call so that granting costs time linear in the awards, not cubic.
struct Rivals<'a> {
    of: HashMap<&'a str, HashSet<&'a str>>,
}

impl<'a> Rivals<'a> {
    fn new(variant: &'a Variant) -> Rivals<'a> {
        let mut of: HashMap<&str, HashSet<&str>> = HashMap::new();
        for award in &variant.awards {
            for other in &award.not_stackable_with {
                of.entry(award.name.as_str())
                    .or_default()
                    .insert(other.as_str());
                of.entry(other.as_str())
                    .or_default()
                    .insert(award.name.as_str());
            }
        }
        Rivals { of }
    }

    /// Whether awards `a` and `b` may both be held.
    fn stack(&self, a: &str, b: &str) -> bool {
        !self.of.get(a).is_some_and(|rivals| rivals.contains(b))
    }

    fn has_rivals(&self, a: &str) -> bool {
        self.of.contains_key(a)
    }
}

/// The most wins each player holds per award, by the award's index among
/// the variant's awards (the first of its name).
fn holdings(
    index_of: &HashMap<&str, usize>,
    awarded: &[AwardedWin],
) -> HashMap<(usize, Color), u32> {
    let mut held = HashMap::new();
    for win in awarded {
        if let Some(&index) = index_of.get(win.name.as_str()) {
            let entry = held.entry((index, win.player)).or_insert(0);
            *entry = win.wins.max(*entry);
        }
    }
    held
}

/// Gives the awards whose condition holds after the move of ply `ply`,
/// updating `awarded`. Returns the awards given on this move and the name of
/// the first one that ends the game, if any. Its time is linear in the
/// awards and their `not with` lists.
pub fn grant(
    context: &Context<'_, impl Board>,
    awarded: &mut Vec<AwardedWin>,
    ply: u32,
) -> (Vec<AwardedWin>, Option<String>) {
    let variant = context.variant;
    let rivals = Rivals::new(variant);
    let mut index_of: HashMap<&str, usize> = HashMap::new();
    for (index, award) in variant.awards.iter().enumerate() {
        index_of.entry(award.name.as_str()).or_insert(index);
    }
    let mut held = holdings(&index_of, awarded);
    let mut given = Vec::new();
    let mut ends = None;
    for (index, award) in variant.awards.iter().enumerate() {
        if !context.holds(&award.when) {
            continue;
        }
        let player = context.player(award.to);
        let name = award.name.as_str();
        let key = index_of.get(name).copied().unwrap_or(index);
        if award.once && held.contains_key(&(key, player)) {
            continue;
        }
        // It must beat every award of the player it does not stack with.
        let beaten = rivals.of.get(name).is_some_and(|names| {
            names.iter().any(|rival| {
                index_of
                    .get(rival)
                    .and_then(|r| held.get(&(*r, player)))
                    .is_some_and(|wins| *wins >= award.wins)
            })
        });
        if beaten {
            continue;
        }
        if rivals.has_rivals(name) {
            awarded.retain(|a| a.player != player || rivals.stack(&a.name, name));
            given.retain(|a: &AwardedWin| a.player != player || rivals.stack(&a.name, name));
            held = holdings(&index_of, awarded);
        }
        let win = AwardedWin {
            name: award.name.clone(),
            player,
            wins: award.wins,
            ply,
        };
        let entry = held.entry((key, player)).or_insert(0);
        *entry = award.wins.max(*entry);
        awarded.push(win.clone());
        given.push(win);
        if award.ends_game && ends.is_none() {
            ends = Some(award.name.clone());
        }
    }
    (given, ends)
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
