//! Reading the parameters of UCI's `go` into [`Limits`].
//!
//! A `go` is never refused as a whole: the GUI waits for its `bestmove`.
//! So each parameter is read on its own. Numbers are whole numbers;
//! a negative one reads as 0 (GUIs send a negative clock once it has run
//! out), and each parameter is clamped to its range below, with an `info
//! string` saying so. A parameter whose value is not a whole number
//! (`inf`, `nan`, `1e30`, `x`) is ignored, with an `info string`.

use crate::search::time::MAX_TIME_MS;
use crate::search::Limits;

/// The deepest search, in plies (the search's own limit).
pub const MAX_DEPTH: u64 = 90;

/// The longest mate searched for, in moves.
const MAX_MATE_MOVES: u64 = MAX_DEPTH / 2;

/// The most moves to the next time control.
const MAX_MOVES_TO_GO: u64 = 1000;

/// A numeric parameter of `go`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Parameter {
    Depth,
    Mate,
    Nodes,
    MoveTime,
    /// `wtime` (0) or `btime` (1).
    Time(usize),
    /// `winc` (0) or `binc` (1).
    Increment(usize),
    MovesToGo,
}

impl Parameter {
    fn of(keyword: &str) -> Option<Parameter> {
        Some(match keyword {
            "depth" => Parameter::Depth,
            "mate" => Parameter::Mate,
            "nodes" => Parameter::Nodes,
            "movetime" => Parameter::MoveTime,
            "wtime" => Parameter::Time(0),
            "btime" => Parameter::Time(1),
            "winc" => Parameter::Increment(0),
            "binc" => Parameter::Increment(1),
            "movestogo" => Parameter::MovesToGo,
            _ => return None,
        })
    }

    /// The values taken; others are clamped into this range.
    fn range(self) -> (u64, u64) {
        match self {
            Parameter::Depth => (1, MAX_DEPTH),
            Parameter::Mate => (1, MAX_MATE_MOVES),
            Parameter::Nodes => (1, u64::MAX),
            Parameter::MoveTime => (1, MAX_TIME_MS),
            Parameter::Time(_) | Parameter::Increment(_) => (0, MAX_TIME_MS),
            Parameter::MovesToGo => (1, MAX_MOVES_TO_GO),
        }
    }

    /// Stores `value`, already within [`Parameter::range`].
    fn set(self, limits: &mut Limits, value: u64) {
        // The ranges keep the narrowing lossless.
        let small = u32::try_from(value).unwrap_or(u32::MAX);
        match self {
            Parameter::Depth => limits.depth = Some(small),
            Parameter::Mate => limits.depth = Some(small.saturating_mul(2)),
            Parameter::Nodes => limits.nodes = Some(value),
            Parameter::MoveTime => limits.movetime_ms = Some(value),
            Parameter::Time(side) => limits.time_left_ms[side] = Some(value),
            Parameter::Increment(side) => limits.increment_ms[side] = value,
            Parameter::MovesToGo => limits.moves_to_go = Some(small),
        }
    }
}

/// The limits of `go ARGS`, and the `info string` texts (without the
/// prefix) for the parameters that were clamped or ignored.
pub(super) fn read_go(args: &[&str]) -> (Limits, Vec<String>) {
    let mut limits = Limits::default();
    let mut notes = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let keyword = args[i];
        i += 1;
        let parameter = match (keyword, Parameter::of(keyword)) {
            (_, Some(parameter)) => parameter,
            ("infinite" | "ponder", None) => {
                limits.infinite = true;
                continue;
            }
            ("searchmoves", None) => {
                while i < args.len() && !is_go_keyword(args[i]) {
                    limits.search_moves.push(args[i].to_string());
                    i += 1;
                }
                continue;
            }
            (other, None) => {
                notes.push(format!("go: cannot read {}", super::clip(other)));
                continue;
            }
        };
        let word = args.get(i).copied().filter(|w| !is_go_keyword(w));
        let Some((word, value)) = word.and_then(|w| Some((w, whole_number(w)?))) else {
            let shown = word.map_or("nothing".to_string(), |w| format!("{:?}", super::clip(w)));
            notes.push(format!(
                "go: {keyword} needs a whole number, not {shown}: ignored"
            ));
            i += usize::from(word.is_some());
            continue;
        };
        i += 1;
        let (min, max) = parameter.range();
        let clamped = value.clamp(min, max);
        if clamped != value || word.starts_with('-') {
            notes.push(format!(
                "go: {keyword} {} is out of range {min} to {max}: using {clamped}",
                super::clip(word)
            ));
        }
        parameter.set(&mut limits, clamped);
    }
    (limits, notes)
}

/// A whole number: optional sign, then digits. Negative numbers read as 0,
/// numbers beyond 64 bits as `u64::MAX` (the caller clamps both).
fn whole_number(word: &str) -> Option<u64> {
    let (negative, digits) = match word.strip_prefix('-') {
        Some(digits) => (true, digits),
        None => (false, word.strip_prefix('+').unwrap_or(word)),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if negative {
        return Some(0);
    }
    Some(digits.parse::<u64>().unwrap_or(u64::MAX))
}

fn is_go_keyword(word: &str) -> bool {
    Parameter::of(word).is_some() || matches!(word, "infinite" | "ponder" | "searchmoves")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn absurd_clock_values_are_clamped_not_wrapped() {
        let (limits, notes) = read_go(&["wtime", "18446744073709551615", "winc", "-5"]);
        assert_eq!(limits.time_left_ms[0], Some(MAX_TIME_MS));
        assert_eq!(limits.increment_ms[0], 0);
        assert_eq!(notes.len(), 2, "{notes:?}");
        let (limits, notes) = read_go(&["depth", "99999999999999999999999"]);
        assert_eq!(limits.depth, Some(MAX_DEPTH as u32));
        assert_eq!(notes.len(), 1);
    }

    #[test]
    fn searchmoves_are_read_up_to_the_next_keyword() {
        let (limits, notes) = read_go(&["searchmoves", "e2e4", "d2d4", "depth", "5"]);
        assert_eq!(limits.search_moves, ["e2e4", "d2d4"]);
        assert_eq!(limits.depth, Some(5));
        assert!(notes.is_empty(), "{notes:?}");
    }

    #[test]
    fn non_numbers_are_ignored_with_a_note() {
        let (limits, notes) = read_go(&["movetime", "inf", "depth", "nan", "nodes"]);
        assert_eq!(limits, Limits::default());
        assert_eq!(notes.len(), 3, "{notes:?}");
    }
}
