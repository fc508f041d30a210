//! Results: the outcome of a game, its reason in words, and each player's
//! score as the variant's [`Scoring`] says (C5-C8, P13, A13).

use crate::model::{Color, Scoring, Variant};
use std::fmt;

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResultKind {
    /// This player won.
    Win(Color),
    /// A draw.
    Draw,
    /// A null game: no result (P9).
    NullGame,
    /// The game ended with no result beyond the wins awarded (A8, A11).
    GameOver,
}

impl fmt::Display for ResultKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResultKind::Win(color) => write!(f, "{color} wins"),
            ResultKind::Draw => f.write_str("draw"),
            ResultKind::NullGame => f.write_str("null game"),
            ResultKind::GameOver => f.write_str("game over"),
        }
    }
}

/// A finished game's result.
#[derive(Clone, Debug, PartialEq)]
pub struct GameResult {
    /// The outcome.
    pub kind: ResultKind,
    /// Why, in words ("checkmate", "stalemate wins",
    /// "null game: threefold repetition with 3 pieces").
    pub reason: String,
    /// Wins each player earned in the game (awards, the tiebreak, a won
    /// game), White first: the score under [`Scoring::Wins`].
    pub wins: [u32; 2],
    /// Each player's score, White first.
    pub scores: [f64; 2],
}

impl GameResult {
    /// A result, scored under `variant`'s scoring. `awarded` is the wins
    /// awarded during the game; `end_wins` those the end itself gives.
    pub fn new(
        variant: &Variant,
        kind: ResultKind,
        reason: String,
        awarded: [u32; 2],
        end_wins: [u32; 2],
    ) -> GameResult {
        let wins = [
            awarded[0].saturating_add(end_wins[0]),
            awarded[1].saturating_add(end_wins[1]),
        ];
        let scores = score(&variant.scoring, kind, wins);
        GameResult {
            kind,
            reason,
            wins,
            scores,
        }
    }

    /// The same result, scored again as a draw (P9: a null game in casual play).
    pub fn rescored_as_draw(&self, variant: &Variant, reason: String) -> GameResult {
        GameResult {
            kind: ResultKind::Draw,
            reason,
            wins: self.wins,
            scores: score(&variant.scoring, ResultKind::Draw, self.wins),
        }
    }

    /// The scores as a PGN-like result text: `1-0`, `1/2-1/2`, `2-0`,
    /// `0-0` (a PPC null game), `3-1` (wins).
    pub fn score_text(&self) -> String {
        format!(
            "{}-{}",
            format_score(self.scores[0]),
            format_score(self.scores[1])
        )
    }
}

/// The scores of an outcome.
pub fn score(scoring: &Scoring, kind: ResultKind, wins: [u32; 2]) -> [f64; 2] {
    match scoring {
        Scoring::Wins => [wins[0] as f64, wins[1] as f64],
        Scoring::Points {
            win,
            draw,
            loss,
            null,
        } => match kind {
            ResultKind::Win(Color::White) => [*win, *loss],
            ResultKind::Win(Color::Black) => [*loss, *win],
            // Under points scoring a game over scores as a draw (model doc).
            ResultKind::Draw | ResultKind::GameOver => [*draw, *draw],
            ResultKind::NullGame => [*null, *null],
        },
    }
}

/// A score as result text: whole numbers plainly, halves as `1/2`.
pub fn format_score(score: f64) -> String {
    let whole = score.trunc();
    let fraction = score - whole;
    if fraction.abs() < 1e-9 {
        format!("{}", whole as i64)
    } else if (fraction - 0.5).abs() < 1e-9 {
        if whole == 0.0 {
            "1/2".to_string()
        } else {
            format!("{}+1/2", whole as i64)
        }
    } else {
        format!("{score}")
    }
}
