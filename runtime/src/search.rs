//! The search: iterative deepening alpha-beta with principal variation
//! search, generic over the [`Rules`] back end, so interpreted and compiled
//! engines play the same way.
//!
//! - Every node is settled by the rules of the variant ([`tree`]): legal
//!   moves with history rules (IRC), automatic terminations and awarded
//!   wins end the line with the value the variant's scoring gives
//!   ([`outcome`]; PPC's stalemate is a win, a king capture ends or awards,
//!   repetition gives the draw or null value), and a claim open to the side
//!   to move is a value it can take instead of moving.
//! - A transposition table keyed by the full position hash ([`tt`]),
//!   read and written by the quiescence search too; its bound sharpens the
//!   static value the pruning rules read.
//! - Quiescence on captures and promotions; all moves while in check (a
//!   couple of plies deep, so that capture-the-king threats are seen);
//!   captures that lose material by the exchange on their square are
//!   skipped where the model allows it ([`see`]).
//! - Move ordering: hash move, MVV-LVA with capture history, killers,
//!   countermove, history and continuation history, then losing captures
//!   ([`order`]). The quiescence orders its captures by MVV-LVA alone
//!   (cheaper, and capture history there measured no better).
//! - Singular extensions: where the hash move cut off before, the other
//!   moves are searched to half the depth against its value less a margin;
//!   when none reaches it, the hash move is searched a ply deeper, and when
//!   they reach beta too, the node is cut (several moves refute it). Only
//!   real moves are searched (no pass), so no rule of a variant is in the
//!   way; the search without the hash move neither reads nor writes the
//!   table.
//! - Late move reductions for quiet moves (logarithmic in depth and move
//!   number; a ply more at expected cut nodes, where a move is expected
//!   to refute the line, and after a capture or promotion as the hash
//!   move; less or more by the moves' history; at nodes in check too,
//!   and for checking moves where the variant's weights file says so:
//!   [`params`]), check extension, mate
//!   distance pruning, aspiration windows, internal iterative reduction (a
//!   node without a hash move is searched a ply shallower).
//! - At nodes off the principal variation and not in check: reverse
//!   futility pruning, the null move where the variant's rules make it
//!   safe ([`pruning`]: off where there is no check rule or where having
//!   no move decides the game; verified at depth), futility (on the depth
//!   left after the move's reduction) and late move pruning of quiet moves
//!   at the last plies (after half as many moves, and reverse futility on
//!   a wider margin, where the side to move is not improving on its
//!   static value of two plies before), and exchange pruning
//!   there: a move that loses material by the exchange on its square
//!   beyond a margin growing with the depth is skipped, where the model
//!   lets material stand for a move's worth ([`see::ExchangePolicy`]).
//! - Correction history ([`correction`]): the static value every node
//!   reads has added what searches of nodes with the same pawn-shaped
//!   pieces, and with the same other pieces of each side, found it to
//!   miss.
//! - Several best lines on request ([`EngineOptions::multipv`]); the line
//!   played is always the last best line reported.
//! - Time management for fixed depth, nodes, move time or clocks with
//!   increment ([`Limits`]).
//!
//! ```
//! # fn demo<R: varc_runtime::rules::Rules + Clone>(rules: R) -> Result<(), varc_runtime::game::GameError> {
//! use varc_runtime::game::Game;
//! use varc_runtime::search::{Engine, Limits};
//! use std::sync::atomic::AtomicBool;
//! let game = Game::new(rules)?;
//! let mut engine = Engine::new(game.rules().variant());
//! let result = engine.search(&game, &Limits::depth(3), &AtomicBool::new(false), &mut |_| {});
//! assert!(result.best.is_some());
//! # Ok(()) }
//! ```

pub mod correction;
pub mod order;
pub mod outcome;
pub mod params;
pub mod pruning;
pub mod see;
pub mod time;
pub mod tree;
pub mod tt;
pub mod worker;

pub use outcome::{Ending, MatchState, Valuation, MATE, MATE_BOUND, WIN_UNIT};
pub use time::Limits;

use crate::board::Board;
use crate::eval::{Evaluator, PawnCache};
use crate::game::Game;
use crate::model::Variant;
use crate::moves::Move;
use crate::notation::long_algebraic_of;
use crate::rules::{ExchangeValues, Rules};
use correction::{CorrectionHistory, Slots};
use order::{
    demote, is_losing_tactical_score, is_tactical, is_tactical_score, losing_tactical_score,
    pick_next, rank, tactical_score, OrderingTables, PieceTo, PlyContext,
};
use params::{Reductions, SearchParams};
use pruning::{has_null_move_material, null_move_kinds, NullMovePolicy};
use see::{loses_material, ExchangePolicy};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;
use time::Budget;
use tree::Tree;
use tt::{Bound, TranspositionTable};

/// Deepest line the search follows.
pub const MAX_PLY: usize = 96;
const INFINITY: i32 = MATE + 1;
/// Plies of quiescence in which a side in check tries every move (the
/// first only: more explodes where a king capture does not end the game,
/// and eight plies measured -58 Elo in chess).
const QUIESCENCE_EVASION_PLIES: i32 = 1;

/// A score as protocols print it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns for the side to move.
    Centipawns(i32),
    /// The side to move wins in this many moves (negative: loses).
    Mate(i32),
}

impl Score {
    /// The score of a search value.
    pub fn of(value: i32) -> Score {
        if value >= MATE_BOUND {
            Score::Mate((MATE - value + 1) / 2)
        } else if value <= -MATE_BOUND {
            Score::Mate(-((MATE + value) / 2))
        } else {
            Score::Centipawns(value)
        }
    }
}

/// Progress of a search, reported after each completed iteration; `M` is
/// the back end's move ([`Rules::Move`]; the runtime's [`Move`] by default).
#[derive(Clone, Debug)]
pub struct SearchInfo<M = Move> {
    /// Depth completed.
    pub depth: u32,
    /// Deepest ply reached (quiescence included).
    pub seldepth: u32,
    /// The value of the best move, for the side to move.
    pub value: i32,
    /// The value as a score.
    pub score: Score,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time spent so far.
    pub time_ms: u64,
    /// The principal variation.
    pub pv: Vec<M>,
    /// Permille of the transposition table in use.
    pub hashfull: u32,
    /// Which line this is, from 1 (the best) to [`EngineOptions::multipv`].
    pub multipv: u32,
}

impl<M> SearchInfo<M> {
    /// Nodes per second so far.
    pub fn nps(&self) -> u64 {
        self.nodes * 1000 / self.time_ms.max(1)
    }
}

/// What a search found; `M` is the back end's move ([`Rules::Move`]; the
/// runtime's [`Move`] by default).
#[derive(Clone, Debug)]
pub struct SearchResult<M = Move> {
    /// The move to play (`None` when the game is over or there is no move).
    pub best: Option<M>,
    /// The expected reply.
    pub ponder: Option<M>,
    /// The best move's value for the side to move.
    pub value: i32,
    /// The best claim open to the side to move now and its value, if any
    /// (the caller may claim instead of moving when it is worth as much).
    pub claim: Option<i32>,
    /// Depth completed.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Time spent.
    pub time_ms: u64,
    /// The principal variation.
    pub pv: Vec<M>,
}

impl<M> SearchResult<M> {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        self.nodes * 1000 / self.time_ms.max(1)
    }
}

/// Engine settings.
#[derive(Clone, Copy, Debug)]
pub struct EngineOptions {
    /// Transposition table size in MB.
    pub hash_mb: usize,
    /// The match state a null game is valued from.
    pub match_state: MatchState,
    /// How many best lines each iteration reports (UCI's `MultiPV`); the
    /// move played is always the first line's.
    pub multipv: usize,
}

/// The most lines [`EngineOptions::multipv`] takes.
pub const MAX_MULTIPV: usize = 256;

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            hash_mb: 16,
            match_state: MatchState::default(),
            multipv: 1,
        }
    }
}

/// A searching engine for one variant: evaluation tables, transposition
/// table and ordering tables, kept from move to move. `M` is the move of
/// the back end it searches with ([`Rules::Move`]; the runtime's [`Move`]
/// by default).
#[derive(Clone, Debug)]
pub struct Engine<M = Move> {
    evaluator: Evaluator,
    /// The evaluator's pawn-shaped pieces' terms per placement.
    pawn_cache: PawnCache,
    valuation: Valuation,
    tt: TranspositionTable<M>,
    ordering: OrderingTables<M>,
    options: EngineOptions,
    variant: Variant,
    null_move: NullMovePolicy,
    /// Per kind: whether it lets its side try the null move (see
    /// [`pruning::null_move_kinds`]).
    null_move_kinds: Vec<bool>,
    exchange: ExchangePolicy,
    /// The piece values of the exchange evaluation.
    exchange_values: ExchangeValues,
    params: SearchParams,
    reductions: Reductions,
    correction: CorrectionHistory,
}

impl<M: Copy + Eq> Engine<M> {
    /// An engine for `variant` with default options.
    pub fn new(variant: &Variant) -> Engine<M> {
        Engine::with_options(variant, EngineOptions::default())
    }

    /// An engine for `variant` with `options`.
    pub fn with_options(variant: &Variant, options: EngineOptions) -> Engine<M> {
        let evaluator = Evaluator::new(variant);
        let params = SearchParams::of(variant);
        Engine {
            correction: CorrectionHistory::new(evaluator.guards()),
            exchange_values: see::exchange_values(variant, &evaluator),
            evaluator,
            pawn_cache: PawnCache::new(),
            valuation: Valuation::new(variant, options.match_state),
            tt: TranspositionTable::new(options.hash_mb),
            ordering: OrderingTables::new(variant),
            options,
            variant: variant.clone(),
            null_move: NullMovePolicy::of(variant),
            null_move_kinds: null_move_kinds(variant),
            exchange: ExchangePolicy::of(variant),
            reductions: Reductions::new(&params),
            params,
        }
    }

    /// The search's tunable numbers.
    pub fn search_params(&self) -> &SearchParams {
        &self.params
    }

    /// Sets the tunable number named `name`: a search parameter
    /// ([`params::PARAMS`]) or a scalar weight of the evaluation
    /// ([`crate::weights::WEIGHT_NAMES`], which clears the table: it keeps
    /// static values). An unknown name or a value out of range is refused
    /// and changes nothing.
    pub fn set_search_param(&mut self, name: &str, value: i32) -> Result<(), String> {
        if params::find(name).is_none() && self.variant.evaluation.get(name).is_some() {
            let (low, high) = crate::weights::WEIGHT_RANGE;
            if !(low..=high).contains(&value) {
                return Err(format!("{name} must be {low} to {high}, not {value}"));
            }
            self.variant.evaluation.set(name, value);
            self.evaluator = Evaluator::new(&self.variant);
            self.pawn_cache.clear();
            self.tt.clear();
            return Ok(());
        }
        self.params.set(name, value)?;
        self.reductions = Reductions::new(&self.params);
        Ok(())
    }

    /// Whether, and why not, the search tries null moves in this variant.
    pub fn null_move_policy(&self) -> &NullMovePolicy {
        &self.null_move
    }

    /// Whether, and why not, quiescence skips captures that lose material
    /// by the exchange on their square.
    pub fn exchange_policy(&self) -> &ExchangePolicy {
        &self.exchange
    }

    /// The evaluator.
    pub fn evaluator(&self) -> &Evaluator {
        &self.evaluator
    }

    /// The options.
    pub fn options(&self) -> EngineOptions {
        self.options
    }

    /// Resizes the transposition table (clears it).
    pub fn set_hash_mb(&mut self, megabytes: usize) {
        self.options.hash_mb = megabytes.max(1);
        self.tt.resize(self.options.hash_mb);
    }

    /// Sets how many best lines each iteration reports (clamped to 1 to
    /// [`MAX_MULTIPV`]).
    pub fn set_multipv(&mut self, lines: usize) {
        self.options.multipv = lines.clamp(1, MAX_MULTIPV);
    }

    /// Sets the match state null games are valued from.
    pub fn set_match_state(&mut self, state: MatchState) {
        self.options.match_state = state;
        self.valuation = Valuation::new(&self.variant, state);
    }

    /// Forgets everything learnt (a new game).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.ordering.clear();
        self.correction.clear();
        self.pawn_cache.clear();
    }

    /// The value of `ending` for the side `side`, `ply` plies from the root.
    pub fn ending_value(&self, ending: &Ending, side: crate::model::Color, ply: i32) -> i32 {
        self.valuation.value(&self.variant, ending, side, ply)
    }

    /// Searches the current position of `game` within `limits`, until
    /// `stop` is set; `report` is called after each completed iteration.
    pub fn search<R: Rules<Move = M> + Clone>(
        &mut self,
        game: &Game<R>,
        limits: &Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&SearchInfo<M>),
    ) -> SearchResult<M> {
        let mut tree = Tree::from_game(game);
        if self.params.repetition_in_line != 0 {
            tree.project_repetitions();
        }
        let side = game.position().side_to_move();
        let budget = Budget::new(limits, side);
        self.tt.new_search();
        self.ordering.age();
        let mut searcher = Searcher {
            engine: self,
            tree,
            budget,
            stop,
            nodes: 0,
            seldepth: 0,
            stopped: false,
            pv: vec![Vec::new(); MAX_PLY + 2],
            lists: (0..MAX_PLY + 2).map(|_| PlyMoves::default()).collect(),
            iteration_best: None,
            root_depth: 1,
            excluded_root_moves: Vec::new(),
            null_banned: vec![false; MAX_PLY + 2],
            unsafe_check: vec![false; MAX_PLY + 2],
            played: vec![None; MAX_PLY + 2],
            exchange_moves: Vec::new(),
            excluded: vec![None; MAX_PLY + 2],
            static_values: vec![None; MAX_PLY + 2],
        };
        searcher.root(limits, report)
    }
}

struct Searcher<'a, R: Rules + Clone> {
    engine: &'a mut Engine<R::Move>,
    tree: Tree<R>,
    budget: Budget,
    stop: &'a AtomicBool,
    nodes: u64,
    seldepth: usize,
    stopped: bool,
    pv: Vec<Vec<R::Move>>,
    /// One move list per ply, reused from node to node.
    lists: Vec<PlyMoves<R::Move>>,
    iteration_best: Option<(R::Move, i32, Vec<R::Move>)>,
    root_depth: usize,
    /// Root moves left out of this search: the lines already found in this
    /// iteration when several are asked for ([`EngineOptions::multipv`]).
    excluded_root_moves: Vec<R::Move>,
    /// Per ply: no null move here (just after one, or while verifying one).
    null_banned: Vec<bool>,
    /// Per ply: the node was entered by a check that loses material by the
    /// exchange (not extended where `check_extension_safe` is set).
    unsafe_check: Vec<bool>,
    /// Per ply: the move being searched there, as the continuation history
    /// names it (none for a null move).
    played: Vec<Option<PieceTo>>,
    /// Scratch move list of the static exchange evaluation ([`see`]).
    exchange_moves: Vec<R::Move>,
    /// Per ply: the move a singular extension's search leaves out there.
    excluded: Vec<Option<R::Move>>,
    /// Per ply: the static value of the node there (none in check), to
    /// tell whether the side to move is improving on its last turn.
    static_values: Vec<Option<i32>>,
}

/// The moves of a node being searched, with their ranks (see
/// [`order::rank`]); kept per ply so that a node allocates nothing.
struct PlyMoves<M> {
    moves: Vec<M>,
    ranks: Vec<i128>,
    /// Scratch space of [`pick_next`].
    sorted: Vec<(i128, M)>,
    /// The quiet moves searched so far (their continuation history goes
    /// down when another quiet move cuts the node off).
    quiets: Vec<M>,
    /// The captures and promotions searched so far (their capture history
    /// goes down when another move cuts the node off).
    captures: Vec<M>,
}

// By hand: a derive would ask `M: Default`.
impl<M> Default for PlyMoves<M> {
    fn default() -> Self {
        PlyMoves {
            moves: Vec::new(),
            ranks: Vec::new(),
            sorted: Vec::new(),
            quiets: Vec::new(),
            captures: Vec::new(),
        }
    }
}

impl<R: Rules + Clone> Searcher<'_, R> {
    fn root(
        &mut self,
        limits: &Limits,
        report: &mut dyn FnMut(&SearchInfo<R::Move>),
    ) -> SearchResult<R::Move> {
        let start = Instant::now();
        let side = self.tree.side_to_move();
        let claim = self
            .tree
            .node()
            .claims
            .iter()
            .map(|ending| {
                self.engine
                    .valuation
                    .value(&self.engine.variant, ending, side, 0)
            })
            .max();
        let legal = self.root_moves(&limits.search_moves);
        let mut result = SearchResult {
            best: legal.first().copied(),
            ponder: None,
            value: 0,
            claim,
            depth: 0,
            nodes: 0,
            time_ms: 0,
            pv: legal.first().copied().into_iter().collect(),
        };
        if legal.is_empty() {
            return result;
        }
        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 4)
            .clamp(1, MAX_PLY as u32 - 4);
        let lines_wanted = self.engine.options.multipv.clamp(1, legal.len());
        // The legal moves `searchmoves` leaves out: never searched at the root.
        let outside: Vec<R::Move> = self
            .tree
            .legal_moves()
            .iter()
            .filter(|mv| !legal.contains(mv))
            .copied()
            .collect();
        let mut previous: i32 = 0;
        // The line the protocols last reported as the best: the move played
        // must start it, so a search that ends otherwise reports once more.
        let mut reported_best: Option<Vec<R::Move>> = None;
        let mut depth_started = 0;
        for depth in 1..=max_depth {
            let depth = depth as i32;
            depth_started = depth as u32;
            self.root_depth = depth as usize;
            self.iteration_best = None;
            let mut lines: Vec<(i32, Vec<R::Move>)> = Vec::with_capacity(lines_wanted);
            for line in 0..lines_wanted {
                self.excluded_root_moves.clear();
                self.excluded_root_moves.extend_from_slice(&outside);
                self.excluded_root_moves
                    .extend(lines.iter().filter_map(|(_, pv)| pv.first().copied()));
                // Only the best line has a previous value worth a window.
                let guess =
                    (line == 0 && depth >= 4 && previous.abs() < MATE_BOUND).then_some(previous);
                let value = self.aspiration(depth, guess);
                if self.stopped {
                    break;
                }
                lines.push((value, self.pv[0].clone()));
            }
            self.excluded_root_moves.clear();
            // Best first; the best line is the one played. (Pruning makes a
            // later line's value exceed an earlier's now and then.)
            lines.sort_by_key(|(value, _)| std::cmp::Reverse(*value));
            let Some((value, pv)) = lines.first().cloned() else {
                // Stopped within the best line: a partial iteration searched
                // the previous best move first (the hash move), so a root
                // move that raised alpha since is at least as good.
                if let Some((mv, value, line)) = self.iteration_best.take() {
                    result.best = Some(mv);
                    result.ponder = line.get(1).copied();
                    result.pv = line;
                    result.value = value;
                }
                break;
            };
            previous = value;
            if let Some(first) = pv.first() {
                result.best = Some(*first);
                result.ponder = pv.get(1).copied();
                result.pv = pv.clone();
            }
            result.value = value;
            result.depth = depth as u32;
            let elapsed = start.elapsed().as_millis() as u64;
            for (index, (value, line)) in lines.iter().enumerate() {
                report(&self.info(depth as u32, *value, line.clone(), index, start));
            }
            reported_best = Some(pv);
            if self.stopped || self.budget.stop_after_iteration(elapsed, legal.len()) {
                break;
            }
            if limits.nodes.is_some_and(|n| self.nodes >= n) {
                break;
            }
            if value.abs() >= MATE_BOUND && !limits.infinite && (MATE - value.abs()) < depth {
                break;
            }
        }
        if reported_best.as_ref() != Some(&result.pv) {
            // The line played was never reported (a search stopped before
            // its first iteration ended, or a partial iteration found a
            // better move): report it, at the depth it was searched to.
            let info = self.info(
                depth_started.max(1),
                result.value,
                result.pv.clone(),
                0,
                start,
            );
            report(&info);
        }
        result.nodes = self.nodes;
        result.time_ms = start.elapsed().as_millis() as u64;
        result
    }

    /// The legal moves of the root that `search_moves` names (by their long
    /// algebraic), or all of them when it names none.
    fn root_moves(&mut self, search_moves: &[String]) -> Vec<R::Move> {
        let legal = self.tree.legal_moves().to_vec();
        if search_moves.is_empty() {
            return legal;
        }
        let rules = self.tree.rules();
        let named: Vec<R::Move> = legal
            .iter()
            .filter(|mv| search_moves.contains(&long_algebraic_of(rules, mv, &legal)))
            .copied()
            .collect();
        if named.is_empty() {
            legal
        } else {
            named
        }
    }

    /// The null move (see [`pruning`]): `Some(value)` when passing still
    /// leaves the side to move at or above `beta` (verified from
    /// [`SearchParams::null_verify_depth`] on).
    fn null_move(
        &mut self,
        depth: i32,
        beta: i32,
        ply: usize,
        static_value: i32,
        cut_node: bool,
    ) -> Option<i32> {
        if !self.engine.null_move.allowed()
            || depth < 2
            || ply == 0
            || self.null_banned[ply]
            || static_value < beta
            || beta.abs() >= MATE_BOUND
        {
            return None;
        }
        let side = self.tree.side_to_move();
        if !has_null_move_material(self.tree.position(), side, &self.engine.null_move_kinds) {
            return None;
        }
        let params = &self.engine.params;
        let above = match params.null_reduction_eval {
            0 => 0,
            divisor => ((static_value - beta) / divisor).min(3),
        };
        let reduction = params.null_reduction_base + depth / params.null_reduction_divisor + above;
        let child_depth = (depth - 1 - reduction).max(0);
        self.played[ply] = None;
        self.unsafe_check[ply + 1] = false;
        self.tree.make_null();
        self.nodes += 1;
        self.check_limits();
        self.null_banned[ply + 1] = true;
        let value = -self.search(child_depth, -beta, -beta + 1, ply + 1, false, !cut_node);
        self.null_banned[ply + 1] = false;
        self.tree.unmake();
        if self.stopped || value < beta {
            return None;
        }
        // A mate found after a pass is not a mate the side can force.
        let value = if value >= MATE_BOUND { beta } else { value };
        if depth < self.engine.params.null_verify_depth {
            return Some(value);
        }
        self.null_banned[ply] = true;
        let verified = self.search(child_depth, beta - 1, beta, ply, false, true);
        self.null_banned[ply] = false;
        (!self.stopped && verified >= beta).then_some(value)
    }

    /// One iteration's search of the root, with an aspiration window
    /// around `guess` when there is one, widened until the value is inside.
    fn aspiration(&mut self, depth: i32, guess: Option<i32>) -> i32 {
        let mut window = self.engine.params.aspiration_window;
        let (mut alpha, mut beta) = match guess {
            Some(guess) => (guess - window, guess + window),
            None => (-INFINITY, INFINITY),
        };
        let stockfish = self.engine.params.aspiration_stockfish != 0;
        let mut failed_high = 0;
        loop {
            let value = self.search((depth - failed_high).max(1), alpha, beta, 0, true, false);
            if self.stopped {
                return value;
            }
            if stockfish {
                // Stockfish's: the window moves to the value found, the
                // bound on the other side half way in; after a fail high
                // the search is a ply shallower, to confirm it sooner.
                if value <= alpha {
                    beta = (alpha + beta) / 2;
                    alpha = (value - window).max(-INFINITY);
                    failed_high = 0;
                } else if value >= beta {
                    beta = (value + window).min(INFINITY);
                    failed_high += 1;
                } else {
                    return value;
                }
                window += window / 4 + 5;
            } else {
                if value <= alpha {
                    alpha = (alpha - window).max(-INFINITY);
                } else if value >= beta {
                    beta = (beta + window).min(INFINITY);
                } else {
                    return value;
                }
                window *= 3;
            }
            if window > 1000 {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
    }

    /// The node at `ply`'s place in the line, for move ordering: the moves
    /// one and two plies before it in this search.
    fn ply_context(&self, ply: usize) -> PlyContext {
        let before = |back: usize| ply.checked_sub(back).and_then(|p| self.played[p]);
        PlyContext {
            ply,
            previous: [before(1), before(2)],
        }
    }

    /// The report of one line of the root.
    fn info(
        &self,
        depth: u32,
        value: i32,
        pv: Vec<R::Move>,
        line: usize,
        start: Instant,
    ) -> SearchInfo<R::Move> {
        SearchInfo {
            depth,
            seldepth: self.seldepth as u32,
            value,
            score: Score::of(value),
            nodes: self.nodes,
            time_ms: start.elapsed().as_millis() as u64,
            pv,
            hashfull: self.engine.tt.hashfull(),
            multipv: line as u32 + 1,
        }
    }

    fn check_limits(&mut self) {
        if self.stopped {
            return;
        }
        if self.stop.load(Ordering::Relaxed) || self.budget.out_of_nodes(self.nodes) {
            self.stopped = true;
            return;
        }
        if self.nodes.is_multiple_of(256) && self.budget.out_of_time() {
            self.stopped = true;
        }
    }

    fn evaluate(&mut self) -> i32 {
        let side = self.tree.side_to_move();
        let engine = &mut *self.engine;
        engine.evaluator.evaluate_cached(
            self.tree.rules(),
            self.tree.position(),
            &mut engine.pawn_cache,
        ) + self
            .engine
            .valuation
            .awarded_value(self.tree.awarded_wins(), side)
    }

    /// The value of the node's ending, or the best of its claims, if any.
    fn rules_values(&self, ply: usize) -> (Option<i32>, Option<i32>) {
        let node = self.tree.node();
        let side = self.tree.side_to_move();
        let value = |ending: &Ending| {
            self.engine
                .valuation
                .value(&self.engine.variant, ending, side, ply as i32)
        };
        let ending = node.ending.as_ref().map(value);
        let claim = node.claims.iter().map(value).max();
        (ending, claim)
    }

    /// The value of the current node within `alpha` and `beta`, searched
    /// to `depth`. `pv_node`: on the principal variation (an open
    /// window); `cut_node`: off it, where a move is expected to reach beta
    /// (a null-window child of a move searched after the first, and every
    /// other ply below: the node's first move is expected to refute it).
    fn search(
        &mut self,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        pv_node: bool,
        cut_node: bool,
    ) -> i32 {
        self.pv[ply].clear();
        let (ending, claim) = self.rules_values(ply);
        if let Some(value) = ending {
            return value;
        }
        if ply >= MAX_PLY {
            return self.evaluate();
        }
        let mut best_value = -INFINITY;
        if ply > 0 {
            if let Some(claim) = claim {
                if claim >= beta {
                    return claim;
                }
                best_value = claim;
                alpha = alpha.max(claim);
            }
            // Mate distance pruning.
            alpha = alpha.max(-(MATE - ply as i32));
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }
        let in_check = self.tree.node().in_check;
        // Check extension, bounded: a line of checks may not run on beyond
        // twice the iteration's depth (where a check need not be answered,
        // checks can follow each other without end). A check that loses
        // material by the exchange is not extended where the exchange
        // policy allows reading it (`check_extension_safe`): most such
        // checks are spite checks, and extending them buys nothing (+36
        // Elo in chess over 240 games, +12 in Capablanca over 200).
        if in_check && ply < 2 * self.root_depth && !self.unsafe_check[ply] {
            depth += 1;
        }
        if depth <= 0 {
            return self.quiescence(alpha, beta, ply, 0);
        }
        let key = self.tree.hash();
        let mut hash_move = None;
        // A search without one move is not the node's: the table is
        // neither read nor written.
        let excluded = self.excluded[ply];
        let entry = match excluded {
            Some(_) => None,
            None => self.engine.tt.probe(key, ply as i32),
        };
        // On the principal variation now or in an earlier search: late
        // moves here are reduced less (`reduction_tt_pv`).
        let tt_pv = pv_node || entry.is_some_and(|entry| entry.pv);
        if let Some(entry) = entry {
            hash_move = entry.best;
            if !pv_node && ply > 0 && entry.depth as i32 >= depth && entry.cuts(alpha, beta) {
                return entry.value;
            }
        }
        if !self.tree.node().has_legal_move {
            // No move and no rule that ends the game: nothing can happen.
            return best_value.max(0);
        }
        // Internal iterative reduction: a node without a hash move was
        // not searched before, or not found worth keeping; it is searched a
        // ply shallower, and its result orders the moves next time.
        if hash_move.is_none()
            && excluded.is_none()
            && ply > 0
            && depth >= self.engine.params.iir_depth
        {
            depth -= 1;
        }
        // The static value (a side in check must answer it, whatever it
        // stands): whether the side improves on its last turn, and, off
        // the principal variation, the value the pruning rules read,
        // sharpened by the table's bound where it has one.
        let raw_evaluation = (!in_check).then(|| self.static_value(key, entry.as_ref()));
        let slots = raw_evaluation.map(|_| self.engine.correction.slots(self.tree.position()));
        let evaluation = raw_evaluation.map(|value| self.corrected(value, slots));
        self.static_values[ply] = evaluation;
        let improving = match (
            evaluation,
            ply.checked_sub(2).map(|p| self.static_values[p]),
        ) {
            (Some(now), Some(Some(before))) => now > before,
            (Some(_), _) => true,
            (None, _) => false,
        };
        let static_value = evaluation
            .filter(|_| !pv_node && excluded.is_none())
            .map(|value| match entry {
                Some(entry) if entry.value.abs() < MATE_BOUND => match entry.bound {
                    Bound::Exact => entry.value,
                    Bound::Lower => value.max(entry.value),
                    Bound::Upper => value.min(entry.value),
                    Bound::None => value,
                },
                _ => value,
            });
        if let Some(value) = static_value {
            let beta_is_mate = beta.abs() >= MATE_BOUND;
            // Reverse futility: so far above beta that a few plies of quiet
            // play will not bring it back.
            let params = &self.engine.params;
            if depth <= params.reverse_futility_depth
                && !beta_is_mate
                && value - params.reverse_futility_margin * (depth - i32::from(improving)) >= beta
            {
                return value;
            }
            if let Some(value) = self.null_move(depth, beta, ply, value, cut_node) {
                return value;
            }
        }
        let mut list = std::mem::take(&mut self.lists[ply]);
        list.moves.clear();
        list.quiets.clear();
        list.captures.clear();
        list.moves.extend_from_slice(self.tree.legal_moves());
        list.ranks.clear();
        // Moves are ranked in stages, each when the search comes to it, so
        // that a cut-off spares the later ones: the hash move; captures,
        // promotions and killers; then the quiet moves by their history,
        // with the captures that lose material after them. The order is
        // that of ranking every move at once, save that the quiet moves
        // are ranked on the history left by the moves searched before.
        // `list.ranks` holds the ranks of `list.moves[..list.ranks.len()]`;
        // moves are picked from `list.moves[segment..list.ranks.len()]`.
        let hash_first = hash_move.and_then(|hash| list.moves.iter().position(|mv| *mv == hash));
        // A capture or promotion as the hash move: the quiet moves after it
        // are less likely to matter, and are reduced a ply more.
        let hash_tactical = hash_first.is_some_and(|index| {
            is_tactical(self.tree.rules(), self.tree.position(), &list.moves[index])
        });
        if let Some(index) = hash_first {
            list.moves.swap(0, index);
            let hash_rank = rank(self.tree.rules(), &list.moves[0], order::HASH_MOVE);
            list.ranks.push(hash_rank);
        }
        let context = self.ply_context(ply);
        let refutations = self.engine.ordering.refutations(&context);
        let mut early_ranked = false;
        let mut quiets_ranked = false;
        let mut segment = 0;
        let original_alpha = alpha;
        let mut best_move = None;
        let side = self.tree.side_to_move();
        let mut moves_searched = 0;
        let mut i = 0;
        while i < list.moves.len() {
            if !early_ranked && i == list.ranks.len() {
                // Captures, promotions, killers and the countermove first,
                // ranked.
                let (rules, position) = (self.tree.rules(), self.tree.position());
                let ordering = &self.engine.ordering;
                let mut end = i;
                for j in i..list.moves.len() {
                    let mv = list.moves[j];
                    if let Some(score) = ordering.early_score(
                        rules,
                        &self.engine.evaluator,
                        position,
                        &mv,
                        &refutations,
                    ) {
                        list.moves.swap(end, j);
                        list.ranks.push(rank(rules, &mv, score));
                        end += 1;
                    }
                }
                early_ranked = true;
                segment = i;
            }
            let ranked = list.ranks.len();
            if i < ranked && (i > 0 || hash_first.is_none()) {
                pick_next(
                    &mut list.moves[segment..ranked],
                    &mut list.ranks[segment..ranked],
                    i - segment,
                    &mut list.sorted,
                );
            }
            // The quiet moves, once the early ones are searched or only
            // losing captures are left of them.
            if !quiets_ranked
                && early_ranked
                && (i == ranked || is_losing_tactical_score((list.ranks[i] >> 64) as i32))
            {
                let (rules, position) = (self.tree.rules(), self.tree.position());
                let ordering = &self.engine.ordering;
                for mv in &list.moves[ranked..] {
                    let score = ordering.quiet_score(rules, position, side, mv, &context.previous);
                    list.ranks.push(rank(rules, mv, score));
                }
                quiets_ranked = true;
                segment = i;
                pick_next(
                    &mut list.moves[segment..],
                    &mut list.ranks[segment..],
                    0,
                    &mut list.sorted,
                );
            }
            let mv = list.moves[i];
            // A capture or promotion that loses material by the exchange
            // goes after the quiet moves: its exchange is evaluated when it
            // comes up (most nodes are cut before), and it is put back.
            let score = (list.ranks[i] >> 64) as i32;
            if is_tactical_score(score)
                && loses_material(
                    self.tree.rules(),
                    &self.engine.exchange_values,
                    self.tree.position(),
                    &mv,
                    &mut self.exchange_moves,
                )
            {
                let demoted = rank(self.tree.rules(), &mv, losing_tactical_score(score));
                demote(&mut list.moves, &mut list.ranks, i, demoted);
                continue;
            }
            i += 1;
            if (ply == 0 && self.excluded_root_moves.contains(&mv)) || Some(mv) == excluded {
                continue;
            }
            let tactical = is_tactical(self.tree.rules(), self.tree.position(), &mv);
            let (rules, position) = (self.tree.rules(), self.tree.position());
            let piece_to = self.engine.ordering.piece_to(rules, position, &mv);
            // Futility and late move pruning of quiet moves at the last
            // plies, once a move has been searched (a node always searches
            // one, so a side never runs out of moves by pruning). Moves are
            // pruned before they are made: a quiet move that gives check
            // may go too, as in other engines; the check extension and the
            // quiescence's evasions see checks against the side to move.
            if let Some(value) = static_value {
                let quiet = !tactical && Some(mv) != hash_move;
                if quiet && moves_searched > 0 && best_value > -MATE_BOUND {
                    // Futility reads the depth the move would be searched
                    // to after its reduction.
                    let params = &self.engine.params;
                    let reduced = depth - self.engine.reductions.quiet(depth, moves_searched);
                    if reduced <= params.futility_depth
                        && value + params.futility_margin * reduced <= alpha
                    {
                        continue;
                    }
                    if depth <= params.late_move_pruning_depth
                        && moves_searched >= params.late_move_count(depth, improving)
                    {
                        continue;
                    }
                }
                if moves_searched > 0
                    && best_value > -MATE_BOUND
                    && Some(mv) != hash_move
                    && self.loses_too_much(&mv, tactical, depth, moves_searched)
                {
                    continue;
                }
            }
            // Singular extension: a hash move that cut off before, when
            // every other move searched to half the depth stays below its
            // value by a margin, is searched a ply deeper; when they too
            // reach beta by that margin, the node is cut (several moves
            // refute it).
            let mut extension = 0;
            if let (Some(entry), true) = (entry, Some(mv) == hash_move) {
                let singular = ply > 0
                    && excluded.is_none()
                    && depth >= self.engine.params.singular_depth
                    && ply < 2 * self.root_depth
                    && entry.depth as i32 >= depth - 3
                    && matches!(entry.bound, Bound::Lower | Bound::Exact)
                    && entry.value.abs() < MATE_BOUND;
                if singular {
                    let singular_beta = entry.value - self.engine.params.singular_margin * depth;
                    self.excluded[ply] = Some(mv);
                    let value = self.search(
                        (depth - 1) / 2,
                        singular_beta - 1,
                        singular_beta,
                        ply,
                        false,
                        cut_node,
                    );
                    self.excluded[ply] = None;
                    if self.stopped {
                        return 0;
                    }
                    if value < singular_beta {
                        extension = 1;
                    } else if singular_beta >= beta {
                        self.lists[ply] = list;
                        return singular_beta;
                    }
                }
            }
            let searched = moves_searched;
            moves_searched += 1;
            self.played[ply] = Some(piece_to);
            let table = &self.engine.tt;
            self.tree.make_with(&mv, |key| table.prefetch(key));
            self.nodes += 1;
            self.check_limits();
            let gives_check = self.tree.node().in_check;
            self.unsafe_check[ply + 1] = gives_check
                && self.engine.params.check_extension_safe != 0
                && self.engine.exchange.allowed()
                && self.tree.previous_position().is_some_and(|before| {
                    loses_material(
                        self.tree.rules(),
                        &self.engine.exchange_values,
                        before,
                        &mv,
                        &mut self.exchange_moves,
                    )
                });
            let value = if searched == 0 {
                -self.search(
                    depth - 1 + extension,
                    -beta,
                    -alpha,
                    ply + 1,
                    pv_node,
                    !pv_node && !cut_node,
                )
            } else {
                let mut reduction = 0;
                if self.engine.reductions.reduces(depth, searched)
                    && !tactical
                    && (!in_check || self.engine.params.reduction_in_check != 0)
                    && (!gives_check || self.engine.params.reduction_checks != 0)
                {
                    let not_improving = self.engine.params.reduction_not_improving;
                    reduction = self.engine.reductions.late_move(depth, searched, pv_node)
                        - self.engine.params.reduction_tt_pv * i32::from(tt_pv && !pv_node)
                        + self.engine.params.reduction_cut_node * i32::from(cut_node)
                        + i32::from(hash_tactical)
                        + not_improving * i32::from(!improving);
                    // Quiet moves that cut nodes off before (anywhere, and
                    // after these moves) are reduced less, those that
                    // failed more.
                    let ordering = &self.engine.ordering;
                    let history = ordering.continuation_score(&context.previous, piece_to)
                        + ordering.history_score(self.tree.rules(), side, &mv);
                    reduction = (reduction
                        - history / self.engine.params.history_reduction_divisor)
                        .clamp(0, (depth - 2).max(0));
                }
                let mut value = -self.search(
                    depth - 1 - reduction,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    false,
                    true,
                );
                if value > alpha && reduction > 0 {
                    value = -self.search(depth - 1, -alpha - 1, -alpha, ply + 1, false, !cut_node);
                }
                if value > alpha && value < beta && pv_node {
                    value = -self.search(depth - 1, -beta, -alpha, ply + 1, true, false);
                }
                value
            };
            self.tree.unmake();
            if self.stopped {
                return 0;
            }
            if value > best_value {
                best_value = value;
                best_move = Some(mv);
                if value > alpha {
                    alpha = value;
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    head[ply].clear();
                    head[ply].push(mv);
                    head[ply].extend_from_slice(&tail[0]);
                    if ply == 0 {
                        self.iteration_best = Some((mv, value, head[0].clone()));
                    }
                    if alpha >= beta {
                        let (rules, position) = (self.tree.rules(), self.tree.position());
                        let ordering = &mut self.engine.ordering;
                        if !tactical {
                            ordering.reward_quiet(
                                rules,
                                position,
                                &mv,
                                &list.quiets,
                                depth,
                                &context,
                            );
                        }
                        let best = tactical.then_some(&mv);
                        ordering.reward_captures(rules, position, best, &list.captures, depth);
                        break;
                    }
                }
            }
            if tactical {
                list.captures.push(mv);
            } else {
                list.quiets.push(mv);
            }
        }
        self.lists[ply] = list;
        if excluded.is_some() {
            return best_value;
        }
        if ply == 0 && !self.excluded_root_moves.is_empty() {
            // A search of some root moves only: its value is not the
            // position's, and its best move must not become the hash move.
            return best_value;
        }
        let bound = Bound::of(best_value, original_alpha, beta);
        self.engine.tt.store(
            key,
            ply as i32,
            best_move,
            best_value,
            depth,
            bound,
            tt_pv,
            raw_evaluation,
        );
        if let (Some(raw), Some(corrected), Some(slots)) = (raw_evaluation, evaluation, slots) {
            // A bound on the far side of the static value says nothing
            // of its error, nor does a capture's gain, a mate or a claim
            // taken instead of moving.
            let informative = match bound {
                Bound::Lower => best_value > corrected,
                Bound::Upper => best_value < corrected,
                Bound::Exact | Bound::None => true,
            };
            let (rules, position) = (self.tree.rules(), self.tree.position());
            if informative
                && claim.is_none()
                && best_value.abs() < MATE_BOUND
                && !best_move.is_some_and(|mv| is_tactical(rules, position, &mv))
            {
                self.engine
                    .correction
                    .update(slots, best_value - raw, depth);
            }
        }
        best_value
    }

    /// The static value `raw` with the correction history's entries of
    /// `slots` added ([`correction`]); a won or lost value as it is.
    fn corrected(&self, raw: i32, slots: Option<Slots>) -> i32 {
        match slots {
            Some(slots) if raw.abs() < MATE_BOUND => {
                let params = &self.engine.params;
                let correction = self.engine.correction.correction(
                    slots,
                    params.correction,
                    params.correction_pieces,
                );
                (raw + correction).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
            }
            _ => raw,
        }
    }

    /// The static value of the node `key` ([`Searcher::evaluate`]), read
    /// from its table entry where it keeps one; a node without an entry
    /// gets one that keeps the value.
    fn static_value(&mut self, key: u64, entry: Option<&tt::Entry<R::Move>>) -> i32 {
        if let Some(value) = entry.and_then(|entry| entry.static_value()) {
            return value;
        }
        let value = self.evaluate();
        if entry.is_none() {
            self.engine.tt.store_static(key, value);
        }
        value
    }

    /// Exchange pruning at the last plies: a quiet move whose exchange on
    /// its square loses more than a margin that grows with the depth left
    /// after its reduction, or a capture that loses more than
    /// the capture margin per ply ([`SearchParams`]), is not searched. Only
    /// where the model lets material stand for a capture's worth
    /// ([`ExchangePolicy`](see::ExchangePolicy)).
    fn loses_too_much(
        &mut self,
        mv: &R::Move,
        tactical: bool,
        depth: i32,
        searched: usize,
    ) -> bool {
        let params = &self.engine.params;
        if !self.engine.exchange.allowed() || depth > params.exchange_pruning_depth {
            return false;
        }
        let threshold = if tactical {
            -params.exchange_capture_margin * depth
        } else {
            let left = (depth - 1 - self.engine.reductions.quiet(depth, searched)).max(0);
            -params.exchange_quiet_margin * left * left
        };
        let (rules, position) = (self.tree.rules(), self.tree.position());
        let values = &self.engine.exchange_values;
        // A capture of a piece worth at least the capturer is kept without
        // playing the exchange out.
        if tactical && !see::may_lose_material(rules, values, position, mv) {
            return false;
        }
        see::exchange_value(rules, values, position, mv, &mut self.exchange_moves) < threshold
    }

    fn quiescence(&mut self, mut alpha: i32, beta: i32, ply: usize, qply: i32) -> i32 {
        self.pv[ply].clear();
        self.seldepth = self.seldepth.max(ply);
        let (ending, claim) = self.rules_values(ply);
        if let Some(value) = ending {
            return value;
        }
        if ply >= MAX_PLY {
            return self.evaluate();
        }
        let mut best_value = -INFINITY;
        if let Some(claim) = claim {
            if claim >= beta {
                return claim;
            }
            best_value = claim;
            alpha = alpha.max(claim);
        }
        // The table: any entry bounds the value of a quiescence search.
        let key = self.tree.hash();
        let entry = self.engine.tt.probe(key, ply as i32);
        let hash_move = match entry {
            Some(entry) if entry.cuts(alpha, beta) => return entry.value,
            Some(entry) => entry.best,
            None => None,
        };
        let original_alpha = alpha;
        let in_check = self.tree.node().in_check;
        let evasions = in_check && qply < QUIESCENCE_EVASION_PLIES;
        // Captures that lose material by the exchange are skipped where the
        // model allows it ([`see::ExchangePolicy`]) and the side to move is
        // not in check.
        let skip_losing = !in_check && self.engine.exchange.allowed();
        let raw_stand = (!evasions).then(|| self.static_value(key, entry.as_ref()));
        let stand_value = raw_stand.map(|value| {
            let slots = self.engine.correction.slots(self.tree.position());
            let value = self.corrected(value, Some(slots));
            // A searched bound on the side's side of the static value says
            // more than it (Stockfish's reading of the table here).
            match entry {
                Some(entry)
                    if self.engine.params.quiescence_tt_stand != 0
                        && entry.value.abs() < MATE_BOUND =>
                {
                    match entry.bound {
                        Bound::Lower => value.max(entry.value),
                        Bound::Upper => value.min(entry.value),
                        Bound::Exact => entry.value,
                        Bound::None => value,
                    }
                }
                _ => value,
            }
        });
        if let Some(stand) = stand_value {
            if stand >= beta {
                return stand;
            }
            best_value = best_value.max(stand);
            alpha = alpha.max(stand);
        }
        let mut list = std::mem::take(&mut self.lists[ply]);
        list.moves.clear();
        if evasions {
            list.moves.extend_from_slice(self.tree.legal_moves());
        } else {
            self.tree.tactical_moves(&mut list.moves);
        }
        let (rules, position) = (self.tree.rules(), self.tree.position());
        if list.moves.is_empty() {
            self.lists[ply] = list;
            return if best_value == -INFINITY {
                self.evaluate()
            } else {
                best_value
            };
        }
        list.ranks.clear();
        list.ranks.extend(list.moves.iter().map(|mv| {
            let score = if Some(*mv) == hash_move {
                order::HASH_MOVE
            } else {
                tactical_score(rules, &self.engine.evaluator, position, mv)
            };
            rank(rules, mv, score)
        }));
        let mut best_move = None;
        for i in 0..list.moves.len() {
            pick_next(&mut list.moves, &mut list.ranks, i, &mut list.sorted);
            let mv = list.moves[i];
            if skip_losing {
                let (rules, position) = (self.tree.rules(), self.tree.position());
                let values = &self.engine.exchange_values;
                if loses_material(rules, values, position, &mv, &mut self.exchange_moves) {
                    continue;
                }
            }
            let table = &self.engine.tt;
            self.tree.make_with(&mv, |key| table.prefetch(key));
            self.nodes += 1;
            self.check_limits();
            let value = -self.quiescence(-beta, -alpha, ply + 1, qply + 1);
            self.tree.unmake();
            if self.stopped {
                return 0;
            }
            if value > best_value {
                best_value = value;
                best_move = Some(mv);
                if value > alpha {
                    alpha = value;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        self.lists[ply] = list;
        let bound = Bound::of(best_value, original_alpha, beta);
        self.engine.tt.store(
            key, ply as i32, best_move, best_value, 0, bound, false, raw_stand,
        );
        best_value
    }
}
