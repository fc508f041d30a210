//! A game and a searching engine behind object-safe traits, with the
//! runtime's positions and moves at the edges: what the protocols (UCI,
//! XBoard) run on.
//!
//! Everything generic over a [`Rules`] back end is compiled once per back
//! end; for a generated engine that means inside the engine's own crate,
//! where LLVM optimises it again for every variant. The protocols are not
//! hot (a few commands a second), so they are written against these
//! traits and compiled once, in this crate. Only the implementations here
//! are generic, and they are thin: each method calls the [`Game`] driver
//! or the search [`Worker`] of the back end, which keep running on its own
//! position and moves, so the search is as fast as before and the game's
//! rules are applied exactly as before. Moves cross the boundary as
//! [`Rules::describe`] gives them and are matched back among the legal
//! moves of the back end.

use crate::board::Board;
use crate::eval::Evaluator;
use crate::fen::write_fen_for_clients;
use crate::game::{Action, Claimable, Game, GameError, GameResult, Status};
use crate::model::{Color, Variant};
use crate::moves::Move;
use crate::notation::{describe_all, long_algebraic};
use crate::position::Position;
use crate::rules::Rules;
use crate::search::worker::Worker;
use crate::search::{Engine, Limits, SearchInfo, SearchResult};
use std::any::Any;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// A variant's rules, as a maker of games and engines.
pub trait ErasedRules: Send {
    /// The variant.
    fn variant(&self) -> &Variant;

    /// A game from the variant's start position.
    fn new_game(&self) -> Result<Box<dyn ErasedGame>, GameError>;

    /// A game from a FEN of the variant.
    fn game_from_fen(&self, fen: &str) -> Result<Box<dyn ErasedGame>, GameError>;

    /// A game from `position`, untimed.
    fn game_from_position(&self, position: &Position) -> Box<dyn ErasedGame>;

    /// A searching engine with default options, its search on a background
    /// thread.
    fn new_engine(&self) -> Box<dyn ErasedEngine>;
}

/// A game in progress ([`Game`]), read and played with runtime moves.
pub trait ErasedGame: Send {
    /// The variant.
    fn variant(&self) -> &Variant;

    /// A copy of the game.
    fn boxed_clone(&self) -> Box<dyn ErasedGame>;

    /// The game itself, for an [`ErasedEngine`] of the same back end.
    fn as_any(&self) -> &dyn Any;

    /// The current position.
    fn position(&self) -> Position;

    /// The side to move.
    fn side_to_move(&self) -> Color;

    /// The legal moves.
    fn legal_moves(&self) -> Vec<Move>;

    /// Whether the game goes on.
    fn status(&self) -> Status;

    /// The result, once the game has ended.
    fn result(&self) -> Option<GameResult>;

    /// Moves made so far.
    fn moves_made(&self) -> u32;

    /// The legal move `text` names (long algebraic or SAN).
    fn parse_move(&self, text: &str) -> Result<Move, GameError>;

    /// Plays the legal move `mv`.
    fn play(&mut self, mv: &Move) -> Result<(), GameError>;

    /// Plays the move `text` names.
    fn play_text(&mut self, text: &str) -> Result<(), GameError>;

    /// Takes back the last step.
    fn undo(&mut self) -> Option<Action<Move>>;

    /// The claims open to the side to move.
    fn claimable(&self) -> Vec<Claimable>;

    /// Claims what the rules allow now.
    fn claim(&mut self) -> Result<(), GameError>;

    /// Why a draw by agreement is not possible now, if it is not.
    fn agreement_refusal(&self) -> Option<String>;

    /// The position's FEN as written for clients.
    fn fen_for_clients(&self) -> String;

    /// The texts of `line` played from the current position, each written
    /// by `text` from the position before the move, the move and the legal
    /// moves there; stops at the first move not legal there.
    fn line_texts(
        &self,
        line: &[Move],
        text: &mut dyn FnMut(&Position, &Move, &[Move]) -> String,
    ) -> Vec<String>;

    /// The static evaluation of the current position for the side to move.
    fn evaluate(&self, evaluator: &Evaluator) -> i32;

    /// The current position's transposition key, as the search computes
    /// it ([`Rules::state_hash`]).
    fn search_key(&self) -> u64;
}

/// What an [`ErasedEngine`] reports after each iteration.
pub type InfoCallback = Box<dyn FnMut(&SearchInfo<Move>) + Send>;

/// What an [`ErasedEngine`] reports when its search ends.
pub type DoneCallback = Box<dyn FnOnce(SearchResult<Move>) + Send>;

/// A searching engine with its search on a background thread ([`Worker`]).
pub trait ErasedEngine: Send {
    /// Starts searching `game` (a game of the same rules) within `limits`;
    /// `on_info` after each iteration, `on_done` with the result, both on
    /// the search thread. A running search is stopped first.
    fn start(
        &mut self,
        game: &dyn ErasedGame,
        limits: Limits,
        on_info: InfoCallback,
        on_done: DoneCallback,
    );

    /// Searches `game` on this thread within `limits` (a short search).
    fn search(&mut self, game: &dyn ErasedGame, limits: &Limits) -> Option<SearchResult<Move>>;

    /// Stops a running search and waits for it (it reports).
    fn stop(&mut self);

    /// Lets a running search end by itself for at most `grace`, then
    /// stops it.
    fn finish_within(&mut self, grace: Duration);

    /// Whether a search is running.
    fn is_running(&self) -> bool;

    /// Forgets everything learnt (a new game).
    fn clear(&mut self);

    /// Resizes the transposition table (clears it).
    fn set_hash_mb(&mut self, megabytes: usize);

    /// Sets how many best lines each iteration reports.
    fn set_multipv(&mut self, lines: usize);

    /// Sets one of the search's tunable numbers
    /// ([`crate::search::params`]); refused unchanged when unknown or
    /// out of range.
    fn set_search_param(&mut self, name: &str, value: i32) -> Result<(), String>;

    /// The evaluator.
    fn evaluator(&mut self) -> &Evaluator;
}

/// The type-erased form of the rules `R`.
#[derive(Clone, Debug)]
pub struct Erased<R>(pub R);

impl<R: Rules + Clone + Send + 'static> ErasedRules for Erased<R> {
    fn variant(&self) -> &Variant {
        self.0.variant()
    }

    fn new_game(&self) -> Result<Box<dyn ErasedGame>, GameError> {
        Ok(Box::new(Game::new(self.0.clone())?))
    }

    fn game_from_fen(&self, fen: &str) -> Result<Box<dyn ErasedGame>, GameError> {
        Ok(Box::new(Game::from_fen(self.0.clone(), fen)?))
    }

    fn game_from_position(&self, position: &Position) -> Box<dyn ErasedGame> {
        let position = self.0.import(position);
        Box::new(Game::from_position(self.0.clone(), position, None))
    }

    fn new_engine(&self) -> Box<dyn ErasedEngine> {
        Box::new(EngineHost::<R> {
            worker: Worker::new(Engine::new(self.0.variant())),
            rules: self.0.clone(),
        })
    }
}

/// The back end's move that `mv` describes, among `legal`.
fn find<R: Rules>(rules: &R, legal: &[R::Move], mv: &Move) -> Option<R::Move> {
    legal.iter().find(|m| rules.describe(m) == *mv).copied()
}

impl<R: Rules + Clone + Send + 'static> ErasedGame for Game<R> {
    fn variant(&self) -> &Variant {
        self.rules().variant()
    }

    fn boxed_clone(&self) -> Box<dyn ErasedGame> {
        Box::new(self.clone())
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn position(&self) -> Position {
        self.rules().export(Game::position(self))
    }

    fn side_to_move(&self) -> Color {
        Game::position(self).side_to_move()
    }

    fn legal_moves(&self) -> Vec<Move> {
        describe_all(self.rules(), Game::legal_moves(self))
    }

    fn status(&self) -> Status {
        Game::status(self)
    }

    fn result(&self) -> Option<GameResult> {
        Game::result(self).cloned()
    }

    fn moves_made(&self) -> u32 {
        Game::moves_made(self)
    }

    fn parse_move(&self, text: &str) -> Result<Move, GameError> {
        Game::parse_move(self, text).map(|mv| self.rules().describe(&mv))
    }

    fn play(&mut self, mv: &Move) -> Result<(), GameError> {
        match find(self.rules(), Game::legal_moves(self), mv) {
            Some(mv) => Game::play(self, &mv),
            None => {
                let legal = ErasedGame::legal_moves(self);
                Err(GameError::IllegalMove {
                    text: long_algebraic(self.rules().variant(), mv, &legal),
                })
            }
        }
    }

    fn play_text(&mut self, text: &str) -> Result<(), GameError> {
        Game::play_text(self, text)
    }

    fn undo(&mut self) -> Option<Action<Move>> {
        let action = Game::undo(self)?;
        Some(match action {
            Action::Move(mv) => Action::Move(self.rules().describe(&mv)),
            Action::Claim => Action::Claim,
            Action::Offer => Action::Offer,
            Action::Accept => Action::Accept,
            Action::Resign => Action::Resign,
            Action::Wait => Action::Wait,
        })
    }

    fn claimable(&self) -> Vec<Claimable> {
        Game::claimable(self)
    }

    fn claim(&mut self) -> Result<(), GameError> {
        Game::claim(self)
    }

    fn agreement_refusal(&self) -> Option<String> {
        Game::agreement_refusal(self)
    }

    fn fen_for_clients(&self) -> String {
        write_fen_for_clients(self.rules(), Game::position(self))
    }

    fn line_texts(
        &self,
        line: &[Move],
        text: &mut dyn FnMut(&Position, &Move, &[Move]) -> String,
    ) -> Vec<String> {
        let rules = self.rules();
        let mut position = Game::position(self).clone();
        let mut legal = Game::legal_moves(self).to_vec();
        let mut out = Vec::new();
        for described in line {
            let Some(mv) = find(rules, &legal, described) else {
                break;
            };
            out.push(text(
                &rules.export(&position),
                described,
                &describe_all(rules, &legal),
            ));
            position = rules.play(&position, &mv);
            legal = rules.legal_moves(&position);
        }
        out
    }

    fn evaluate(&self, evaluator: &Evaluator) -> i32 {
        evaluator.evaluate(self.rules(), Game::position(self))
    }

    fn search_key(&self) -> u64 {
        self.rules().state_hash(Game::position(self))
    }
}

/// The engine of the rules `R`: its worker, and the rules to describe
/// the moves it finds.
struct EngineHost<R: Rules> {
    worker: Worker<R::Move>,
    rules: R,
}

/// `info` with the back end's moves described.
fn describe_info<R: Rules>(rules: &R, info: &SearchInfo<R::Move>) -> SearchInfo<Move> {
    SearchInfo {
        depth: info.depth,
        seldepth: info.seldepth,
        value: info.value,
        score: info.score,
        nodes: info.nodes,
        time_ms: info.time_ms,
        pv: describe_all(rules, &info.pv),
        hashfull: info.hashfull,
        multipv: info.multipv,
    }
}

/// `result` with the back end's moves described.
fn describe_result<R: Rules>(rules: &R, result: SearchResult<R::Move>) -> SearchResult<Move> {
    SearchResult {
        best: result.best.map(|mv| rules.describe(&mv)),
        ponder: result.ponder.map(|mv| rules.describe(&mv)),
        value: result.value,
        claim: result.claim,
        depth: result.depth,
        nodes: result.nodes,
        time_ms: result.time_ms,
        pv: describe_all(rules, &result.pv),
    }
}

impl<R: Rules + Clone + Send + 'static> EngineHost<R> {
    /// The back end's game behind `game`. Games and engines are made by
    /// the same [`Erased`] rules, so this holds unless a caller mixes two
    /// variants' objects.
    fn game_of(game: &dyn ErasedGame) -> Option<&Game<R>> {
        game.as_any().downcast_ref::<Game<R>>()
    }
}

impl<R: Rules + Clone + Send + 'static> ErasedEngine for EngineHost<R> {
    fn start(
        &mut self,
        game: &dyn ErasedGame,
        limits: Limits,
        mut on_info: InfoCallback,
        on_done: DoneCallback,
    ) {
        let Some(game) = Self::game_of(game) else {
            on_done(SearchResult {
                best: None,
                ponder: None,
                value: 0,
                claim: None,
                depth: 0,
                nodes: 0,
                time_ms: 0,
                pv: Vec::new(),
            });
            return;
        };
        let info_rules = self.rules.clone();
        let done_rules = self.rules.clone();
        self.worker.start(
            game.clone(),
            limits,
            move |info| on_info(&describe_info(&info_rules, info)),
            move |result| on_done(describe_result(&done_rules, result)),
        );
    }

    fn search(&mut self, game: &dyn ErasedGame, limits: &Limits) -> Option<SearchResult<Move>> {
        let game = Self::game_of(game)?;
        let stop = AtomicBool::new(false);
        let result = self
            .worker
            .engine_mut()
            .search(game, limits, &stop, &mut |_| {});
        Some(describe_result(&self.rules, result))
    }

    fn stop(&mut self) {
        self.worker.stop();
    }

    fn finish_within(&mut self, grace: Duration) {
        self.worker.finish_within(grace);
    }

    fn is_running(&self) -> bool {
        self.worker.is_running()
    }

    fn clear(&mut self) {
        self.worker.engine_mut().clear();
    }

    fn set_hash_mb(&mut self, megabytes: usize) {
        self.worker.engine_mut().set_hash_mb(megabytes);
    }

    fn set_multipv(&mut self, lines: usize) {
        self.worker.engine_mut().set_multipv(lines);
    }

    fn set_search_param(&mut self, name: &str, value: i32) -> Result<(), String> {
        self.worker.engine_mut().set_search_param(name, value)
    }

    fn evaluator(&mut self) -> &Evaluator {
        self.worker.engine_mut().evaluator()
    }
}
