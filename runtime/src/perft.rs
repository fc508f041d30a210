//! Perft: counting the leaves of the legal-move tree, the standard check of
//! a move generator.
//!
//! Perft counts pure move generation. Game-ending rules other than "no legal
//! move" are not applied: repetitions, move-count rules, special wins and
//! history rules that need the game's record (IRC) play no part. A position
//! with no legal moves (checkmate, stalemate, or under capture-the-king rules
//! a side whose royal piece was captured) is a leaf: it adds nothing at the
//! depths below it.
//!
//! [`perft_with_end_rules`] applies the variant's ending rules as well: a
//! position where the game has ended has no moves (`varc perft
//! --end-rules`, Fairy-Stockfish's convention).

use crate::rules::Rules;
use std::io::IsTerminal;

mod end_rules;
pub use end_rules::{divide_with_end_rules, perft_counts_with_end_rules, perft_with_end_rules};

/// The number of leaf positions `depth` plies below `position`.
///
/// The last ply is counted without being played (bulk counting).
pub fn perft<R: Rules + ?Sized>(rules: &R, position: &R::Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut scratch = position.clone();
    let mut buffers = vec![Vec::with_capacity(64); depth as usize];
    perft_inner(rules, &mut scratch, &mut buffers)
}

fn perft_inner<R: Rules + ?Sized>(
    rules: &R,
    position: &mut R::Position,
    buffers: &mut [Vec<R::Move>],
) -> u64 {
    let Some((moves, rest)) = buffers.split_first_mut() else {
        return 1;
    };
    moves.clear();
    rules.generate_legal(position, moves);
    if rest.is_empty() {
        return moves.len() as u64;
    }
    let mut nodes = 0;
    for mv in moves.iter() {
        let undo = rules.make_move(position, mv);
        nodes += perft_inner(rules, position, rest);
        rules.unmake_move(position, mv, &undo);
    }
    nodes
}

/// The perft counts of every depth from 1 to `depth` in one walk of the tree:
/// `result[d - 1]` is perft(d).
pub fn perft_counts<R: Rules + ?Sized>(rules: &R, position: &R::Position, depth: u32) -> Vec<u64> {
    let mut counts = vec![0u64; depth as usize];
    if depth == 0 {
        return counts;
    }
    let mut scratch = position.clone();
    let mut buffers = vec![Vec::with_capacity(64); depth as usize];
    counts_inner(rules, &mut scratch, &mut buffers, &mut counts);
    counts
}

fn counts_inner<R: Rules + ?Sized>(
    rules: &R,
    position: &mut R::Position,
    buffers: &mut [Vec<R::Move>],
    counts: &mut [u64],
) {
    let (Some((moves, rest)), Some((count, deeper))) =
        (buffers.split_first_mut(), counts.split_first_mut())
    else {
        return;
    };
    moves.clear();
    rules.generate_legal(position, moves);
    *count += moves.len() as u64;
    if rest.is_empty() {
        return;
    }
    for mv in moves.iter() {
        let undo = rules.make_move(position, mv);
        counts_inner(rules, position, rest, deeper);
        rules.unmake_move(position, mv, &undo);
    }
}

/// Perft split by root move: each legal move with the leaf count `depth - 1`
/// plies below it. With `depth == 0` the list is empty.
pub fn divide<R: Rules + ?Sized>(
    rules: &R,
    position: &R::Position,
    depth: u32,
) -> Vec<(R::Move, u64)> {
    divide_with_progress(rules, position, depth, |_, _| {})
}

/// [`divide`], calling `progress(done, total)` after each root move.
pub fn divide_with_progress<R: Rules + ?Sized>(
    rules: &R,
    position: &R::Position,
    depth: u32,
    mut progress: impl FnMut(usize, usize),
) -> Vec<(R::Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let moves = rules.legal_moves(position);
    let mut scratch = position.clone();
    let mut out = Vec::with_capacity(moves.len());
    for (i, mv) in moves.iter().enumerate() {
        let undo = rules.make_move(&mut scratch, mv);
        let nodes = perft(rules, &scratch, depth - 1);
        rules.unmake_move(&mut scratch, mv, &undo);
        out.push((*mv, nodes));
        progress(i + 1, moves.len());
    }
    out
}

/// What a perft run reports, printed alike by `varc perft` and generated
/// engines: the count (or one JSON object with `nodes`, `nps`, `depth`,
/// `seconds`, `fen`, the back end when given, and `divide` when asked).
#[derive(Clone, Debug, PartialEq)]
pub struct PerftReport {
    /// Leaves counted.
    pub nodes: u64,
    /// Plies searched.
    pub depth: u32,
    /// Seconds taken.
    pub seconds: f64,
    /// The root position.
    pub fen: String,
    /// The back end's name, for the JSON object (`"compiled"`).
    pub backend: Option<&'static str>,
    /// The count below each root move, as move text, when asked for.
    pub divide: Option<Vec<(String, u64)>>,
}

impl PerftReport {
    /// Nodes per second (0 when no time was measured).
    pub fn nps(&self) -> u64 {
        if self.seconds > 0.0 {
            (self.nodes as f64 / self.seconds) as u64
        } else {
            0
        }
    }

    /// The report as one JSON object.
    ///
    /// ```
    /// use varc_runtime::perft::PerftReport;
    /// let report = PerftReport { nodes: 20, depth: 1, seconds: 0.5, fen: "f".into(), backend: None, divide: None };
    /// assert_eq!(report.json()["nps"], 40);
    /// ```
    pub fn json(&self) -> serde_json::Value {
        let mut object = serde_json::json!({
            "nodes": self.nodes,
            "nps": self.nps(),
            "depth": self.depth,
            "seconds": self.seconds,
            "fen": self.fen,
        });
        if let Some(backend) = self.backend {
            object["backend"] = serde_json::Value::from(backend);
        }
        if let Some(divide) = &self.divide {
            let map: serde_json::Map<String, serde_json::Value> = divide
                .iter()
                .map(|(m, n)| (m.clone(), serde_json::Value::from(*n)))
                .collect();
            object["divide"] = serde_json::Value::Object(map);
        }
        object
    }

    /// Prints the report: the JSON object, or the divide lines then the
    /// count (and the speed on a terminal's standard error).
    pub fn print(&self, json: bool) {
        if json {
            println!("{}", self.json());
            return;
        }
        if let Some(divide) = &self.divide {
            for (mv, n) in divide {
                println!("{mv}: {n}");
            }
            println!();
        }
        println!("{}", self.nodes);
        if std::io::stderr().is_terminal() {
            eprintln!(
                "{} nodes in {:.3} s ({} nodes/s)",
                self.nodes,
                self.seconds,
                self.nps()
            );
        }
    }
}
