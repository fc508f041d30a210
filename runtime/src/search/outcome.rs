//! Game endings as search values.
//!
//! An [`Ending`] is what a rule makes of a node: a result kind and each
//! player's wins. [`Valuation`] turns it into a score for the side to move
//! from the variant's scoring: under points scoring, the difference of the
//! two players' points as a share of (win - loss) (a win is a mate score,
//! nearer mates better); under `score by wins`, [`WIN_UNIT`] per win of
//! difference. A null game is valued from the match state ([`MatchState`]).
//!
//! Resolving an outcome, the tiebreak and granting awards are the game
//! layer's own code (`game::termination`, `game::awards`);
//! `tests/engine_rules.rs` plays random games through both and compares.

use crate::board::Board;
use crate::game::condition::Context;
use crate::game::termination;
use crate::game::{GameResult, ResultKind};
use crate::model::{Color, MatchRule, PlayerRef, Scoring, Termination, Variant};

/// Score of a mate on the move (a won game at ply 0).
pub const MATE: i32 = 32_000;
/// Scores at or beyond this are wins or losses at a known distance.
pub const MATE_BOUND: i32 = 31_000;
/// Centipawns per win of difference under `score by wins`.
pub const WIN_UNIT: i32 = 3_000;

/// How a game ends at a node: the result kind and each player's wins
/// (awarded ones included), White first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ending {
    /// The outcome.
    pub kind: ResultKind,
    /// Wins of each player, White first.
    pub wins: [u32; 2],
}

impl Ending {
    /// The game ends with no result beyond the awarded `wins`.
    pub fn game_over(wins: [u32; 2]) -> Ending {
        Ending {
            kind: ResultKind::GameOver,
            wins,
        }
    }
}

/// Where the game stands in its match: what a null game means now (P9).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MatchState {
    /// Null games in a row just before this game.
    pub nulls_in_a_row: u32,
    /// A casual game (a null game counts as a draw where the rules say so).
    pub casual: bool,
}

/// Turns endings into scores for the side to move.
#[derive(Clone, Debug)]
pub struct Valuation {
    scoring: Scoring,
    null_becomes: Option<NullValue>,
}

#[derive(Clone, Copy, Debug)]
enum NullValue {
    Draw,
    Win(Color),
}

impl Valuation {
    /// The valuation of `variant`'s endings in `state`.
    pub fn new(variant: &Variant, state: MatchState) -> Valuation {
        let mut null_becomes = None;
        for rule in &variant.match_rules {
            match rule {
                MatchRule::ForfeitAfterNulls { count, winner }
                    if state.nulls_in_a_row + 1 >= *count =>
                {
                    let winner = match winner {
                        PlayerRef::Black => Color::Black,
                        _ => Color::White,
                    };
                    null_becomes = Some(NullValue::Win(winner));
                }
                MatchRule::CasualNullIsDraw if state.casual && null_becomes.is_none() => {
                    null_becomes = Some(NullValue::Draw);
                }
                _ => {}
            }
        }
        Valuation {
            scoring: variant.scoring.clone(),
            null_becomes,
        }
    }

    /// The score of `ending` for `side`, `ply` plies from the root.
    pub fn value(&self, variant: &Variant, ending: &Ending, side: Color, ply: i32) -> i32 {
        let mut kind = ending.kind;
        let mut wins = ending.wins;
        if kind == ResultKind::NullGame {
            match self.null_becomes {
                Some(NullValue::Draw) => kind = ResultKind::Draw,
                Some(NullValue::Win(color)) => {
                    kind = ResultKind::Win(color);
                    wins[color.index()] += 1;
                }
                None => {}
            }
        }
        let scores = GameResult::new(variant, kind, String::new(), wins, [0; 2]).scores;
        let (me, them) = (side.index(), side.opponent().index());
        match self.scoring {
            Scoring::Points { win, loss, .. } => {
                let span = (win - loss).abs().max(1e-9);
                let share = (scores[me] - scores[them]) / span;
                if share >= 0.999 {
                    MATE - ply
                } else if share <= -0.999 {
                    -(MATE - ply)
                } else {
                    (share * WIN_UNIT as f64).round() as i32
                }
            }
            Scoring::Wins => {
                let difference = wins[me] as i32 - wins[them] as i32;
                let value = difference.saturating_mul(WIN_UNIT) - difference.signum() * ply;
                value.clamp(-(MATE_BOUND - 1), MATE_BOUND - 1)
            }
        }
    }

    /// The value of awarded wins in a game that goes on, for `side`: under
    /// `score by wins` they are kept whatever happens later.
    pub fn awarded_value(&self, wins: [u32; 2], side: Color) -> i32 {
        match self.scoring {
            Scoring::Wins => {
                (wins[side.index()] as i32 - wins[side.opponent().index()] as i32) * WIN_UNIT
            }
            Scoring::Points { .. } => 0,
        }
    }
}

/// The ending `rule` gives (it holds in `context`); `awarded` is the wins
/// awarded so far. The game layer decides it (`termination::decide`): a
/// win earns one win; a draw under a tiebreak goes to the higher count (A3).
pub fn resolve_ending(
    context: &Context<'_, impl Board>,
    rule: &Termination,
    awarded: [u32; 2],
) -> Ending {
    let kind = termination::resolve(context, &rule.outcome);
    let decision = termination::decide(
        context.variant,
        context.position,
        kind,
        rule.tiebreak_applies,
    );
    Ending {
        kind: decision.kind,
        wins: [
            awarded[0].saturating_add(decision.end_wins[0]),
            awarded[1].saturating_add(decision.end_wins[1]),
        ],
    }
}
