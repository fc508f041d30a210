//! Match statistics: score, Elo difference with a 95% interval, and the
//! sequential probability ratio test used for engine-against-engine runs.

/// Games won, drawn and lost by the first engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Won by the first engine.
    pub wins: u32,
    /// Drawn.
    pub draws: u32,
    /// Lost by the first engine.
    pub losses: u32,
}

/// The Elo difference of a score fraction (`-inf`/`inf` at 0 and 1).
pub fn elo_of_score(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// The score fraction expected at an Elo difference.
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

impl Tally {
    /// Games played.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The first engine's score fraction.
    pub fn score(&self) -> f64 {
        (self.wins as f64 + 0.5 * self.draws as f64) / self.games().max(1) as f64
    }

    /// The variance of one game's score (wins 1, draws 1/2, losses 0).
    fn game_variance(&self) -> f64 {
        let n = self.games().max(1) as f64;
        let mean = self.score();
        (self.wins as f64 * (1.0 - mean).powi(2)
            + self.draws as f64 * (0.5 - mean).powi(2)
            + self.losses as f64 * mean.powi(2))
            / n
    }

    /// The Elo difference and its 95% interval (low, high), from the
    /// normal approximation of the mean score (as cutechess-cli gives it).
    pub fn elo_interval(&self) -> (f64, f64, f64) {
        let n = self.games().max(1) as f64;
        let mean = self.score();
        let margin = 1.959964 * (self.game_variance() / n).sqrt();
        (
            elo_of_score(mean),
            elo_of_score((mean - margin).max(0.0)),
            elo_of_score((mean + margin).min(1.0)),
        )
    }

    /// The log-likelihood ratio of "Elo is `elo1`" against "Elo is `elo0`"
    /// (the normal approximation of the generalised SPRT that fishtest
    /// and cutechess-cli use); 0 while there is no spread to measure.
    pub fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        let variance = self.game_variance();
        if self.games() == 0 || variance <= 0.0 {
            return 0.0;
        }
        let (s0, s1) = (score_of_elo(elo0), score_of_elo(elo1));
        let n = self.games() as f64;
        n * (s1 - s0) * (2.0 * self.score() - s0 - s1) / (2.0 * variance)
    }
}

/// The bounds of the SPRT's log-likelihood ratio for error rates
/// `alpha` (accepting H1 wrongly) and `beta` (accepting H0 wrongly).
pub fn sprt_bounds(alpha: f64, beta: f64) -> (f64, f64) {
    ((beta / (1.0 - alpha)).ln(), ((1.0 - beta) / alpha).ln())
}

/// An Elo figure as text: `+35`, `-inf`.
pub fn elo_text(elo: f64) -> String {
    if elo.is_finite() {
        format!("{elo:+.0}")
    } else if elo > 0.0 {
        "+inf".to_string()
    } else {
        "-inf".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn even_score_is_zero_elo_with_a_symmetric_interval() {
        let tally = Tally {
            wins: 10,
            draws: 20,
            losses: 10,
        };
        let (elo, low, high) = tally.elo_interval();
        assert!(elo.abs() < 1e-9);
        assert!(
            (low + high).abs() < 1e-6 && high > 30.0 && high < 90.0,
            "{low} {high}"
        );
        assert!(tally.llr(0.0, 10.0) < 0.0);
    }

    #[test]
    fn seventy_five_percent_is_about_191_elo() {
        let tally = Tally {
            wins: 30,
            draws: 0,
            losses: 10,
        };
        assert!((tally.elo_interval().0 - 190.8).abs() < 0.5);
        assert!(tally.llr(0.0, 10.0) > 0.0);
        let (lower, upper) = sprt_bounds(0.05, 0.05);
        assert!((upper - 2.944).abs() < 0.01 && (lower + 2.944).abs() < 0.01);
    }
}
