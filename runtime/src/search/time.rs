//! Search limits and time management.
//!
//! With a clock, the search aims at `remaining / moves_to_go + 3/4 of the
//! increment` (30 moves to go when unknown), never more than a third of the
//! remaining time, minus a safety margin; it starts no new iteration past
//! that aim and stops any iteration at three times it. A fixed move time
//! is used whole, less a fiftieth of it (at most 5 ms).

use crate::model::Color;
use std::time::Instant;

/// What bounds a search. Unset fields do not bound it; with nothing set,
/// the search runs to the deepest depth (or until stopped).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Depth in plies.
    pub depth: Option<u32>,
    /// Nodes.
    pub nodes: Option<u64>,
    /// Time for this move, in milliseconds.
    pub movetime_ms: Option<u64>,
    /// Each side's remaining clock time, White first, in milliseconds.
    pub time_left_ms: [Option<u64>; 2],
    /// Each side's increment per move, White first, in milliseconds.
    pub increment_ms: [u64; 2],
    /// Moves until the next time control, if the clock has one.
    pub moves_to_go: Option<u32>,
    /// Search until stopped.
    pub infinite: bool,
    /// The root moves to search, in long algebraic (UCI's `searchmoves`);
    /// empty, or naming no legal move, searches them all.
    pub search_moves: Vec<String>,
}

impl Limits {
    /// A fixed depth.
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// A fixed time per move.
    pub fn movetime(ms: u64) -> Limits {
        Limits {
            movetime_ms: Some(ms),
            ..Limits::default()
        }
    }

    /// A fixed number of nodes.
    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }
}

/// The longest clock time, increment or move time the protocols take, in
/// milliseconds (a week). UCI clamps larger values to it, XBoard refuses
/// them; either way the time arithmetic below stays far from overflow.
pub const MAX_TIME_MS: u64 = 7 * 24 * 60 * 60 * 1000;

/// Milliseconds kept back from a clock for the protocol and the
/// operating system.
const MARGIN_MS: u64 = 30;

/// Milliseconds kept back from a fixed move time, at most a fiftieth of
/// it: no clock runs out there, and the move is sent within a millisecond
/// of the search stopping (Stockfish uses the whole move time).
const MOVETIME_MARGIN_MS: u64 = 5;

/// The time and node budget of one search.
#[derive(Clone, Debug)]
pub struct Budget {
    start: Instant,
    soft_ms: Option<u64>,
    hard_ms: Option<u64>,
    nodes: Option<u64>,
}

impl Budget {
    /// The budget of `limits` for `side` to move, starting now.
    pub fn new(limits: &Limits, side: Color) -> Budget {
        let (mut soft_ms, mut hard_ms) = (None, None);
        if !limits.infinite {
            if let Some(ms) = limits.movetime_ms {
                let ms = ms.saturating_sub(MOVETIME_MARGIN_MS.min(ms / 50)).max(1);
                // Iterate until the hard limit: the aim is twice the time.
                soft_ms = Some(ms.saturating_mul(2));
                hard_ms = Some(ms);
            } else if let Some(left) = limits.time_left_ms[side.index()] {
                let increment = limits.increment_ms[side.index()];
                let to_go = limits.moves_to_go.unwrap_or(30).max(1) as u64;
                let usable = left.saturating_sub(MARGIN_MS.min(left / 10));
                let aim = (usable / to_go)
                    .saturating_add(increment.saturating_mul(3) / 4)
                    .min(usable / 3)
                    .max(1);
                soft_ms = Some(aim);
                hard_ms = Some(aim.saturating_mul(3).min(usable / 2).max(1));
            }
        }
        Budget {
            start: Instant::now(),
            soft_ms,
            hard_ms,
            nodes: limits.nodes,
        }
    }

    /// Whether the hard time limit has passed.
    pub fn out_of_time(&self) -> bool {
        self.hard_ms
            .is_some_and(|hard| self.start.elapsed().as_millis() as u64 >= hard)
    }

    /// Whether the node limit is reached.
    pub fn out_of_nodes(&self, nodes: u64) -> bool {
        self.nodes.is_some_and(|limit| nodes >= limit)
    }

    /// Whether to start no new iteration, `elapsed_ms` into the search with
    /// `root_moves` moves to choose from.
    pub fn stop_after_iteration(&self, elapsed_ms: u64, root_moves: usize) -> bool {
        match self.soft_ms {
            Some(_) if root_moves == 1 => true,
            // An iteration takes several times the last one: do not start
            // one that cannot finish.
            Some(soft) => elapsed_ms >= soft / 2,
            None => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fixed_move_time_is_used_nearly_whole() {
        let hard = |ms| Budget::new(&Limits::movetime(ms), Color::White).hard_ms;
        assert_eq!(hard(100), Some(98));
        assert_eq!(hard(1000), Some(995));
        assert_eq!(hard(20), Some(20));
        assert_eq!(hard(0), Some(1));
    }

    #[test]
    fn a_clock_keeps_its_margin_and_a_share_of_the_time() {
        let limits = Limits {
            time_left_ms: [Some(60_000), None],
            ..Limits::default()
        };
        let budget = Budget::new(&limits, Color::White);
        // (60,000 - 30) / 30 moves to go.
        assert_eq!(budget.soft_ms, Some(1_999));
        assert_eq!(budget.hard_ms, Some(5_997));
        assert_eq!(Budget::new(&limits, Color::Black).hard_ms, None);
    }
}
