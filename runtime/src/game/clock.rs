//! Chess clocks: a base time and an increment per move (C8, A5, P9).
//!
//! Times are kept in milliseconds. The side to move's clock runs while he
//! thinks ([`Clock::spend`]); when it reaches zero his flag falls. After a
//! move the mover gets the increment.

use crate::model::Color;
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// A time control: base time per player and increment per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Time each player starts with, in milliseconds.
    pub base_ms: u64,
    /// Time added to the mover's clock after each of his moves, in milliseconds.
    pub increment_ms: u64,
}

/// A time control text that cannot be read.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[error(
    "cannot read time control {text:?}: expected seconds above 0, or seconds+increment (\"300+5\")"
)]
pub struct TimeControlError {
    /// The text.
    pub text: String,
}

impl FromStr for TimeControl {
    type Err = TimeControlError;

    /// Reads PGN's `BASE+INCREMENT` in seconds (`300+5`, `60`, `0.5+0`).
    fn from_str(text: &str) -> Result<TimeControl, TimeControlError> {
        let error = || TimeControlError {
            text: text.to_string(),
        };
        let (base, increment) = match text.trim().split_once('+') {
            Some((base, increment)) => (base, increment),
            None => (text.trim(), "0"),
        };
        let base_ms = parse_seconds(base).ok_or_else(error)?;
        // A flag that falls before the first move is no time control.
        if base_ms == 0 {
            return Err(error());
        }
        Ok(TimeControl {
            base_ms,
            increment_ms: parse_seconds(increment).ok_or_else(error)?,
        })
    }
}

impl fmt::Display for TimeControl {
    /// PGN's `BASE+INCREMENT` in seconds.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}+{}",
            format_seconds(self.base_ms),
            format_seconds(self.increment_ms)
        )
    }
}

/// Reads a non-negative number of seconds (`1.5`) as milliseconds.
pub fn parse_seconds(text: &str) -> Option<u64> {
    let seconds: f64 = text.trim().parse().ok()?;
    (0.0..1e12)
        .contains(&seconds)
        .then(|| (seconds * 1000.0).round() as u64)
}

/// Milliseconds as seconds, without trailing zeros (`1.5`, `300`).
pub fn format_seconds(ms: u64) -> String {
    if ms / 1000 * 1000 == ms {
        (ms / 1000).to_string()
    } else {
        let text = format!("{}.{:03}", ms / 1000, ms % 1000);
        text.trim_end_matches('0').to_string()
    }
}

/// Both players' clocks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clock {
    control: TimeControl,
    remaining_ms: [u64; 2],
}

impl Clock {
    /// Clocks set to the control's base time.
    pub fn new(control: TimeControl) -> Clock {
        Clock {
            control,
            remaining_ms: [control.base_ms; 2],
        }
    }

    /// The time control.
    pub fn control(&self) -> TimeControl {
        self.control
    }

    /// Milliseconds left on `color`'s clock.
    pub fn remaining_ms(&self, color: Color) -> u64 {
        self.remaining_ms[color.index()]
    }

    /// Runs `color`'s clock for `elapsed_ms`; returns whether his flag fell
    /// (no time left).
    pub fn spend(&mut self, color: Color, elapsed_ms: u64) -> bool {
        let left = &mut self.remaining_ms[color.index()];
        *left = left.saturating_sub(elapsed_ms);
        *left == 0
    }

    /// Adds the increment to `color`'s clock after his move.
    pub fn add_increment(&mut self, color: Color) {
        let left = &mut self.remaining_ms[color.index()];
        *left = left.saturating_add(self.control.increment_ms);
    }

    /// Adds `ms` to both clocks (P9: the time added before a replayed game).
    pub fn add_to_both(&mut self, ms: u64) {
        for left in &mut self.remaining_ms {
            *left = left.saturating_add(ms);
        }
    }
}
