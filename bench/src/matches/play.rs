//! Playing one game between two UCI engines: the game is kept by varc's
//! own rules (the interpreter of the variant's rules file), so the runner
//! works for every variant; the engines only propose moves.
//!
//! A game ends when the rules end it, when the side to move may claim (a
//! threefold repetition or fifty moves in chess: adjudicated as the claim's
//! result, as cutechess-cli adjudicates draws), by resignation adjudication
//! (both engines agree on a decisive score for several moves), at the ply
//! cap (a draw), or by forfeit (an engine crashed, hung or sent a move the
//! rules refuse).

use super::uci_engine::UciEngine;
use std::time::Duration;
use varc::interp::Interpreter;
use varc_runtime::game::{Game, ResultKind, Status};
use varc_runtime::model::Color;
use varc_runtime::uci::line_text;

/// How the engines search each move.
#[derive(Clone, Debug)]
pub struct Control {
    /// The `go` arguments: `movetime 100`, `nodes 20000`, `depth 6` (an
    /// engine with a `go` of its own, [`UciEngine::go`], is told that).
    pub go: String,
    /// How long to wait for a `bestmove` before the engine forfeits.
    pub timeout: Duration,
    /// Plies after which the game is a draw.
    pub max_plies: usize,
    /// Centipawns both engines must agree on for a resignation.
    pub resign_cp: i32,
    /// Consecutive moves of each engine with that agreement.
    pub resign_moves: usize,
}

/// Depths counted one by one for the median; a deeper one counts as the
/// last (a mate or a won ending, where an engine runs on to its deepest).
pub const DEPTH_BUCKETS: usize = 32;

/// Per-engine search figures over a game.
#[derive(Clone, Copy, Debug, Default)]
pub struct SearchTotals {
    /// Moves searched.
    pub moves: u64,
    /// Sum of the depths reported.
    pub depth_sum: u64,
    /// Moves per depth reported (see [`DEPTH_BUCKETS`]).
    pub depth_counts: [u64; DEPTH_BUCKETS],
    /// Nodes and milliseconds summed over the moves that reported both.
    pub nodes: u64,
    /// Milliseconds.
    pub time_ms: u64,
}

impl SearchTotals {
    /// Adds `other`'s figures.
    pub fn add(&mut self, other: &SearchTotals) {
        self.moves += other.moves;
        self.depth_sum += other.depth_sum;
        for (count, other) in self.depth_counts.iter_mut().zip(other.depth_counts) {
            *count += other;
        }
        self.nodes += other.nodes;
        self.time_ms += other.time_ms;
    }

    /// Average depth per move.
    pub fn average_depth(&self) -> f64 {
        self.depth_sum as f64 / self.moves.max(1) as f64
    }

    /// Records one move's depth.
    pub fn add_depth(&mut self, depth: u32) {
        self.moves += 1;
        self.depth_sum += u64::from(depth);
        self.depth_counts[(depth as usize).min(DEPTH_BUCKETS - 1)] += 1;
    }

    /// The median depth per move (the lower middle of an even count): the
    /// typical search, where the average runs high on the moves of a won
    /// or lost ending, which an engine searches to its deepest.
    pub fn median_depth(&self) -> u32 {
        let middle = self.moves.div_ceil(2);
        let mut seen = 0;
        for (depth, count) in self.depth_counts.iter().enumerate() {
            seen += count;
            if seen >= middle && seen > 0 {
                return depth as u32;
            }
        }
        0
    }

    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        self.nodes * 1000 / self.time_ms.max(1)
    }
}

/// How one game went.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// The score of White (1, 1/2 or 0).
    pub white_score: f64,
    /// Why it ended.
    pub reason: String,
    /// The moves, in varc's long algebraic.
    pub moves: Vec<String>,
    /// Search figures of White's engine, then Black's.
    pub totals: [SearchTotals; 2],
    /// The game as a record (PGN-like, see `varc_runtime::game::record`),
    /// with the engines' names and the result, adjudicated ones included.
    pub record: String,
}

/// Plays `opening` (moves in the variant's long algebraic), then lets
/// `engines` (White first) play on.
pub fn play_game(
    rules: &Interpreter,
    opening: &[String],
    engines: [&mut UciEngine; 2],
    control: &Control,
) -> Result<GameRecord, String> {
    let mut game = Game::new(rules.clone()).map_err(|e| e.to_string())?;
    let mut moves = Vec::new();
    for text in opening {
        let mv = game
            .parse_move(text)
            .map_err(|e| format!("opening move {text}: {e}"))?;
        moves.extend(line_text(&game, &[mv]));
        game.play(&mv).map_err(|e| e.to_string())?;
    }
    let [white, black] = engines;
    let mut engines = [white, black];
    for engine in engines.iter_mut() {
        engine.new_game()?;
    }
    let mut totals = [SearchTotals::default(); 2];
    // Each side's recent scores, from White's point of view.
    let mut recent_scores: [Vec<i32>; 2] = [Vec::new(), Vec::new()];
    let names = [engines[0].name.clone(), engines[1].name.clone()];
    let finish = |game: &Game<Interpreter>, score: f64, reason: String, moves, totals| {
        let result = score_text(score);
        let tags = [
            ("Event", "varc match"),
            ("White", names[0].as_str()),
            ("Black", names[1].as_str()),
            ("Result", result),
            ("Termination", reason.as_str()),
        ];
        Ok(GameRecord {
            white_score: score,
            record: game.to_record(&tags),
            reason,
            moves,
            totals,
        })
    };
    loop {
        if let Status::Ended(result) = game.status() {
            let score = match result.kind {
                ResultKind::Win(Color::White) => 1.0,
                ResultKind::Win(Color::Black) => 0.0,
                _ => 0.5,
            };
            return finish(&game, score, result.reason.clone(), moves, totals);
        }
        if !game.claimable().is_empty() && game.claim().is_ok() {
            if let Some(result) = game.result() {
                let score = match result.kind {
                    ResultKind::Win(Color::White) => 1.0,
                    ResultKind::Win(Color::Black) => 0.0,
                    _ => 0.5,
                };
                return finish(
                    &game,
                    score,
                    format!("claim: {}", result.reason),
                    moves,
                    totals,
                );
            }
        }
        if moves.len() >= control.max_plies {
            return finish(&game, 0.5, "ply cap".to_string(), moves, totals);
        }
        let side = varc_runtime::board::Board::side_to_move(game.position());
        let index = side.index();
        let forfeit = if side == Color::White { 0.0 } else { 1.0 };
        let go = engines[index]
            .go
            .clone()
            .unwrap_or_else(|| control.go.clone());
        let report = match engines[index].search(&moves, &go, control.timeout) {
            Ok(report) => report,
            Err(error) => {
                let reason = format!("forfeit: {error}");
                return finish(&game, forfeit, reason, moves, totals);
            }
        };
        let mv = match game.parse_move(&report.best) {
            Ok(mv) => mv,
            Err(error) => {
                let reason = format!(
                    "forfeit: {} played {}: {error}",
                    engines[index].name, report.best
                );
                return finish(&game, forfeit, reason, moves, totals);
            }
        };
        totals[index].add_depth(report.depth.unwrap_or(0));
        if let Some((nodes, time)) = report.nodes_and_time {
            totals[index].nodes += nodes;
            totals[index].time_ms += time;
        }
        moves.extend(line_text(&game, &[mv]));
        if let Err(error) = game.play(&mv) {
            return finish(&game, forfeit, format!("forfeit: {error}"), moves, totals);
        }
        if let Some(cp) = report.score_cp {
            let white_view = if side == Color::White { cp } else { -cp };
            recent_scores[index].push(white_view);
        } else {
            recent_scores[index].clear();
        }
        // A game the move ended is scored by the rules (next round).
        if game.result().is_some() {
            continue;
        }
        if let Some(score) = resignation(&recent_scores, control) {
            return finish(
                &game,
                score,
                "adjudicated: both engines agree".to_string(),
                moves,
                totals,
            );
        }
    }
}

/// White's score when both engines' last `resign_moves` scores agree that
/// one side is winning by at least `resign_cp`.
fn resignation(recent: &[Vec<i32>; 2], control: &Control) -> Option<f64> {
    let n = control.resign_moves;
    if n == 0 || recent.iter().any(|scores| scores.len() < n) {
        return None;
    }
    let last = |scores: &Vec<i32>| scores[scores.len() - n..].to_vec();
    let all: Vec<i32> = recent.iter().flat_map(last).collect();
    if all.iter().all(|&s| s >= control.resign_cp) {
        Some(1.0)
    } else if all.iter().all(|&s| s <= -control.resign_cp) {
        Some(0.0)
    } else {
        None
    }
}

/// A score of White as a record's result.
pub fn score_text(white_score: f64) -> &'static str {
    match white_score {
        s if s > 0.75 => "1-0",
        s if s < 0.25 => "0-1",
        _ => "1/2-1/2",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_median_depth_is_the_typical_move_and_the_average_runs_high() {
        let mut totals = SearchTotals::default();
        assert_eq!(totals.median_depth(), 0);
        for depth in [12, 11, 13, 12, 60] {
            totals.add_depth(depth);
        }
        assert_eq!(totals.median_depth(), 12);
        assert!((totals.average_depth() - 21.6).abs() < 1e-9);
        // Summed over games, and the lower middle of an even count.
        let mut other = SearchTotals::default();
        other.add_depth(9);
        totals.add(&other);
        assert_eq!((totals.moves, totals.median_depth()), (6, 12));
        other.add_depth(9);
        totals.add(&other);
        assert_eq!((totals.moves, totals.median_depth()), (8, 11));
    }
}
