//! The game driver: everything above move generation, read from the
//! variant's model and shared by every [`Rules`] back end.
//!
//! A [`Game`] keeps the history of a game (with undo) and applies the
//! rules a position alone cannot: history rules in legality (IRC, P7),
//! repetition and move-count rules, counters and events, awarded wins,
//! automatic terminations and claims, draw offers, resignation, clocks,
//! results and scores. Nothing here knows a particular variant: every rule
//! is data of [`Variant`](crate::model::Variant).
//!
//! After each move, in this order: the move's [events](MoveEvents) update
//! the counters and the plies since the last reset event; the awards are
//! checked (one that ends the game ends it: "Game ended by ..."); then the
//! automatic terminations, in file order: the first that holds ends the
//! game. Claims are the termination rules marked `claim` whose condition
//! holds when the side to move claims.
//!
//! ```
//! # fn demo<R: varc_runtime::rules::Rules>(rules: R) -> Result<(), varc_runtime::game::GameError> {
//! use varc_runtime::game::Game;
//! let mut game = Game::new(rules)?;
//! game.act("e4")?;
//! game.act("e5")?;
//! assert!(game.result().is_none());
//! game.undo();
//! # Ok(()) }
//! ```

mod actions;
pub(crate) mod awards;
pub mod clock;
pub mod condition;
pub mod counting;
mod error;
pub mod events;
pub mod hash;
pub mod legality;
pub mod matches;
pub mod record;
pub mod replay;
mod result;
pub mod state;
pub(crate) mod termination;

pub use awards::AwardedWin;
pub use clock::{Clock, TimeControl};
pub use condition::Repetitions;
pub use error::GameError;
pub use events::MoveEvents;
pub use hash::{placement_hash, Identity};
pub use legality::{divide_with_history, perft_with_history};
pub use result::{GameResult, ResultKind};

use crate::board::Board;
use crate::fen::parse_fen;
use crate::model::{Color, HistoryRuleKind, Trigger};
use crate::notation::{long_algebraic_of, parse_move, san};
use crate::rules::Rules;
use condition::Context;
use std::collections::HashMap;

/// An action of the side to move; `M` is the back end's move
/// ([`Rules::Move`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action<M> {
    /// A move.
    Move(M),
    /// A claim of whatever draw or null game the rules allow now.
    Claim,
    /// A draw offer (it stands until the opponent moves).
    Offer,
    /// Acceptance of the opponent's draw offer.
    Accept,
    /// Resignation.
    Resign,
    /// Time passing on the clock of the side to move without a move (a
    /// move whose time ran out the clock is recorded as this).
    Wait,
}

/// One entry of the game's history.
pub struct Step<R: Rules> {
    /// What was done.
    pub action: Action<R::Move>,
    /// Who did it.
    pub by: Color,
    /// As the record writes it: SAN with the record's marks (`exf6 II`,
    /// `Qxe8*`, `Bb5#`) or the action word.
    pub text: String,
    /// Time spent on the clock, when the game is timed.
    pub elapsed_ms: Option<u64>,
    /// Wins awarded by this step.
    pub awards: Vec<AwardedWin>,
    before: Box<State<R::Position, R::Move>>,
}

impl<R: Rules> Step<R> {
    /// The position the step was taken from.
    pub fn position_before(&self) -> &R::Position {
        &self.before.position
    }
}

// By hand: a derive would ask `R: Clone + Debug` of the rules themselves.
impl<R: Rules> Clone for Step<R> {
    fn clone(&self) -> Self {
        Step {
            action: self.action,
            by: self.by,
            text: self.text.clone(),
            elapsed_ms: self.elapsed_ms,
            awards: self.awards.clone(),
            before: self.before.clone(),
        }
    }
}

impl<R: Rules> std::fmt::Debug for Step<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Step")
            .field("action", &self.action)
            .field("by", &self.by)
            .field("text", &self.text)
            .field("elapsed_ms", &self.elapsed_ms)
            .field("awards", &self.awards)
            .field("before", &self.before)
            .finish()
    }
}

/// Whether the game goes on.
#[derive(Clone, Debug, PartialEq)]
pub enum Status {
    /// The game goes on.
    Ongoing,
    /// The game has ended with this result.
    Ended(GameResult),
}

/// A claim the side to move could make now.
#[derive(Clone, Debug, PartialEq)]
pub struct Claimable {
    /// The rule's reason ("threefold repetition").
    pub reason: String,
    /// The result the claim would give.
    pub result: GameResult,
}

/// The state after each step: what undo restores (`P` and `M` the back
/// end's position and move).
#[derive(Clone, Debug)]
struct State<P, M> {
    position: P,
    identity: Identity,
    legal: Vec<M>,
    /// The legal moves' kinds and destinations, where a rule reads them
    /// ([`condition::reads_move_targets`]).
    move_targets: Vec<(crate::model::PieceId, crate::model::Square)>,
    /// The kinds giving the side to move check, where a rule reads them
    /// ([`condition::reads_checking_kinds`]).
    checking_kinds: Vec<crate::model::PieceId>,
    moves_made: u32,
    plies_since_reset: u32,
    repetitions: Repetitions,
    last_move: Option<MoveEvents>,
    awarded: Vec<AwardedWin>,
    offer: Option<Color>,
    clock: Option<Clock>,
    result: Option<GameResult>,
}

/// A game of one variant over a [`Rules`] back end.
#[derive(Clone, Debug)]
pub struct Game<R: Rules> {
    rules: R,
    state: State<R::Position, R::Move>,
    steps: Vec<Step<R>>,
    /// The positions moves were made from, grouped by identity, under their
    /// identity hash: repetitions are counted in time independent of the
    /// game's length.
    moves_from: HashMap<u64, Vec<Occurrences>>,
}

/// The moves made from one identity (one position as the repetition rules
/// see it).
#[derive(Clone, Debug)]
struct Occurrences {
    /// The first step made from it (its `before` holds the identity).
    first: usize,
    /// `moves_made` before each move made from it, in order.
    at: Vec<u32>,
}

impl<R: Rules> Game<R> {
    /// A game from the variant's start position.
    pub fn new(rules: R) -> Result<Game<R>, GameError> {
        let fen = rules.variant().start_fen.clone();
        Game::from_fen(rules, &fen)
    }

    /// A game from a FEN of the variant.
    pub fn from_fen(rules: R, fen: &str) -> Result<Game<R>, GameError> {
        let position = rules.import(&parse_fen(rules.variant(), fen)?);
        Ok(Game::from_position(rules, position, None))
    }

    /// A game from `position`, timed if `clock` is given.
    pub fn from_position(rules: R, position: R::Position, clock: Option<Clock>) -> Game<R> {
        let plies_since_reset = position.halfmove_clock();
        let state = State {
            identity: Identity::of(&rules, &position, &[]),
            position,
            legal: Vec::new(),
            move_targets: Vec::new(),
            checking_kinds: Vec::new(),
            moves_made: 0,
            plies_since_reset,
            repetitions: Repetitions::default(),
            last_move: None,
            awarded: Vec::new(),
            offer: None,
            clock,
            result: None,
        };
        let mut game = Game {
            rules,
            state,
            steps: Vec::new(),
            moves_from: HashMap::new(),
        };
        game.settle(false);
        game
    }

    /// Starts the clocks with `control` (before the first move), or with
    /// the clock state `clock` as [`Game::set_clock`].
    pub fn with_time_control(mut self, control: TimeControl) -> Game<R> {
        self.set_clock(Some(Clock::new(control)));
        self
    }

    /// Replaces the clocks (a match carries them from game to game).
    pub fn set_clock(&mut self, clock: Option<Clock>) {
        self.state.clock = clock;
        self.settle(false);
    }

    /// The move generator.
    pub fn rules(&self) -> &R {
        &self.rules
    }

    /// The current position.
    pub fn position(&self) -> &R::Position {
        &self.state.position
    }

    /// The position the game started from.
    pub fn start_position(&self) -> &R::Position {
        self.steps
            .first()
            .map_or(&self.state.position, |step| &step.before.position)
    }

    /// The history, oldest first.
    pub fn steps(&self) -> &[Step<R>] {
        &self.steps
    }

    /// The legal moves of the side to move, history rules and promotion
    /// options applied (empty once the game has ended).
    pub fn legal_moves(&self) -> &[R::Move] {
        if self.state.result.is_some() {
            &[]
        } else {
            &self.state.legal
        }
    }

    /// Whether the game goes on.
    pub fn status(&self) -> Status {
        match &self.state.result {
            Some(result) => Status::Ended(result.clone()),
            None => Status::Ongoing,
        }
    }

    /// The result, once the game has ended.
    pub fn result(&self) -> Option<&GameResult> {
        self.state.result.as_ref()
    }

    /// Plies since the last reset event of the variant.
    pub fn plies_since_reset(&self) -> u32 {
        self.state.plies_since_reset
    }

    /// How often the current position has occurred.
    pub fn repetitions(&self) -> Repetitions {
        self.state.repetitions
    }

    /// `color`'s counters, by [`CounterId`](crate::model::CounterId).
    pub fn counters(&self, color: Color) -> &[u32] {
        self.state.position.counters(color)
    }

    /// The wins awarded so far.
    pub fn awards(&self) -> &[AwardedWin] {
        &self.state.awarded
    }

    /// The player whose draw offer stands, if any.
    pub fn pending_offer(&self) -> Option<Color> {
        self.state.offer
    }

    /// The clocks, if the game is timed.
    pub fn clock(&self) -> Option<&Clock> {
        self.state.clock.as_ref()
    }

    /// The events of the last move.
    pub fn last_move_events(&self) -> Option<&MoveEvents> {
        self.state.last_move.as_ref()
    }

    /// Moves made so far.
    pub fn moves_made(&self) -> u32 {
        self.state.moves_made
    }

    fn context(&self) -> Context<'_, R::Position> {
        let state = &self.state;
        Context {
            variant: self.rules.variant(),
            position: &state.position,
            in_check: self.rules.in_check(&state.position),
            has_legal_move: !state.legal.is_empty(),
            repetitions: state.repetitions,
            plies_since_reset: state.plies_since_reset,
            last_move: state.last_move.as_ref(),
            move_targets: &state.move_targets,
            checking_kinds: &state.checking_kinds,
            clock: state.clock.as_ref(),
        }
    }

    /// The positions before the current one that history rules can read
    /// (as far back as the furthest rule looks), oldest first.
    fn past_positions(&self) -> Vec<&R::Position> {
        let reach = self
            .rules
            .variant()
            .legality
            .history_rules
            .iter()
            .map(|rule| match rule.kind {
                HistoryRuleKind::RepeatedCheck { plies_ago } => plies_ago as usize,
            })
            .max()
            .unwrap_or(0);
        let mut past: Vec<&R::Position> = self
            .steps
            .iter()
            .rev()
            .filter(|s| matches!(s.action, Action::Move(_)))
            .take(reach)
            .map(|s| &s.before.position)
            .collect();
        past.reverse();
        past
    }

    /// Recomputes what the state derives from the position and history:
    /// legal moves, identity, repetitions; then, unless the game has ended,
    /// the awards (after a move) and the automatic terminations.
    fn settle(&mut self, after_move: bool) {
        let legal = self.compute_legal(self.state.clock.as_ref());
        self.state.identity = Identity::of(&self.rules, &self.state.position, &legal);
        self.state.checking_kinds =
            condition::checking_kinds_for_rules(&self.rules, &self.state.position);
        self.state.move_targets = if condition::reads_move_targets(self.rules.variant()) {
            condition::move_targets(&self.rules, &self.state.position, &legal)
        } else {
            Vec::new()
        };
        self.state.legal = legal;
        self.state.repetitions = self.count_repetitions();
        if self.state.result.is_some() {
            return;
        }
        if after_move {
            let ply = self.state.moves_made;
            let mut awarded = self.state.awarded.clone();
            let (given, ends) = awards::grant(&self.context(), &mut awarded, ply);
            self.state.awarded = awarded;
            if let Some(step) = self.steps.last_mut() {
                step.awards = given;
            }
            if let Some(name) = ends {
                let variant = self.rules.variant();
                self.state.result = Some(GameResult::new(
                    variant,
                    ResultKind::GameOver,
                    format!("Game ended by {name}"),
                    awards::total_wins(&self.state.awarded),
                    [0; 2],
                ));
                return;
            }
        }
        let context = self.context();
        let wins = awards::total_wins(&self.state.awarded);
        let result = self
            .rules
            .variant()
            .terminations
            .iter()
            .filter(|rule| rule.trigger == Trigger::Automatic)
            .find(|rule| context.holds(&rule.condition))
            .map(|rule| termination::rule_result(&context, rule, wins));
        self.state.result = result;
    }

    /// The legal moves of the current position with `clock` as the
    /// clocks: generated moves, promotion options, history rules.
    fn compute_legal(&self, clock: Option<&Clock>) -> Vec<R::Move> {
        let position = &self.state.position;
        let mut legal = self.rules.legal_moves(position);
        {
            let context = Context {
                has_legal_move: !legal.is_empty(),
                clock,
                ..self.context()
            };
            legality::add_promotion_options(&self.rules, position, &mut legal, &|c| {
                context.holds(c)
            });
        }
        let past = self.past_positions();
        let mut scratch = position.clone();
        legality::apply_history_rules(&self.rules, &past, &mut scratch, &mut legal);
        legal
    }

    fn count_repetitions(&self) -> Repetitions {
        let current = &self.state;
        let first_in_row = current.moves_made.saturating_sub(current.plies_since_reset);
        let mut repetitions = Repetitions {
            total: 1,
            in_a_row: 1,
        };
        if let Some(occurrences) = self.occurrences(&current.identity, &current.position) {
            let since_reset =
                occurrences.at.len() - occurrences.at.partition_point(|m| *m < first_in_row);
            repetitions.total += occurrences.at.len() as u32;
            repetitions.in_a_row += since_reset as u32;
        }
        repetitions
    }

    /// The moves made so far from the position of `identity`.
    fn occurrences(&self, identity: &Identity, position: &R::Position) -> Option<&Occurrences> {
        let index = self.occurrences_index(identity, position)?;
        self.moves_from.get(&identity.hash)?.get(index)
    }

    /// Where the moves made from the position of `identity` are in its
    /// hash's bucket of [`Game::moves_from`].
    fn occurrences_index(&self, identity: &Identity, position: &R::Position) -> Option<usize> {
        self.moves_from.get(&identity.hash)?.iter().position(|o| {
            self.steps.get(o.first).is_some_and(|step| {
                step.before
                    .identity
                    .same_as(&step.before.position, identity, position)
            })
        })
    }

    fn ensure_ongoing(&self) -> Result<(), GameError> {
        match &self.state.result {
            Some(result) => Err(GameError::GameOver {
                reason: result.reason.clone(),
            }),
            None => Ok(()),
        }
    }

    fn push_step(&mut self, action: Action<R::Move>, text: String, elapsed_ms: Option<u64>) {
        if matches!(action, Action::Move(_)) {
            let group = self.occurrences_index(&self.state.identity, &self.state.position);
            let moves_made = self.state.moves_made;
            let groups = self.moves_from.entry(self.state.identity.hash).or_default();
            match group {
                Some(index) => groups[index].at.push(moves_made),
                None => groups.push(Occurrences {
                    first: self.steps.len(),
                    at: vec![moves_made],
                }),
            }
        }
        let before = Box::new(self.state.clone());
        self.steps.push(Step {
            action,
            by: self.state.position.side_to_move(),
            text,
            elapsed_ms,
            awards: Vec::new(),
            before,
        });
    }

    /// Why `mv` is not legal now.
    fn refusal(&self, mv: &R::Move) -> GameError {
        let text = long_algebraic_of(&self.rules, mv, &self.state.legal);
        let past = self.past_positions();
        let mut scratch = self.state.position.clone();
        let generated = self.rules.legal_moves(&self.state.position);
        if generated.contains(mv) {
            for rule in &self.rules.variant().legality.history_rules {
                if legality::rule_forbids(&self.rules, rule, &past, &mut scratch, mv) {
                    return GameError::HistoryRule {
                        text,
                        message: rule.message.clone(),
                    };
                }
            }
        }
        GameError::IllegalMove { text }
    }

    /// Plays `mv` with no time spent.
    pub fn play(&mut self, mv: &R::Move) -> Result<(), GameError> {
        self.play_timed(mv, None)
    }

    /// Plays `mv`, `elapsed_ms` having passed on the mover's clock (ignored
    /// without clocks). Legality is judged with the clock as it reads when
    /// the move is made (A5). If the time runs out the clock, the flag falls
    /// and the move is not made: the game ends by loss on time.
    pub fn play_timed(&mut self, mv: &R::Move, elapsed_ms: Option<u64>) -> Result<(), GameError> {
        self.ensure_ongoing()?;
        let side = self.state.position.side_to_move();
        let elapsed_ms = elapsed_ms.filter(|_| self.state.clock.is_some());
        let mut clock = self.state.clock.clone();
        if let (Some(clock), Some(elapsed)) = (clock.as_mut(), elapsed_ms) {
            if clock.spend(side, elapsed) {
                self.wait(elapsed)?;
                return Ok(());
            }
        }
        let legal = if clock == self.state.clock {
            self.state.legal.clone()
        } else {
            self.compute_legal(clock.as_ref())
        };
        if !legal.contains(mv) {
            return Err(self.refusal(mv));
        }
        let before = self.state.position.clone();
        let after = self.rules.play(&before, mv);
        let events = MoveEvents::of(&self.rules, &before, mv, &after);
        let text = record::move_text(&self.rules, &before, mv, &events, &after);
        self.push_step(Action::Move(*mv), text, elapsed_ms);
        self.state.clock = clock;
        self.apply_move(after, events);
        Ok(())
    }

    /// The state after a move: counters, plies since reset, offers, clocks,
    /// then awards and terminations.
    fn apply_move(&mut self, mut after: R::Position, events: MoveEvents) {
        let variant = self.rules.variant();
        let mover = events.mover;
        events.count_into(variant, after.counters_mut(mover));
        counting::advance(variant, &mut after, &events);
        let resets = variant.ply_reset_events.iter().any(|p| events.matches(p));
        let state = &mut self.state;
        state.plies_since_reset = if resets {
            0
        } else {
            state.plies_since_reset.saturating_add(1)
        };
        if state.offer == Some(mover.opponent()) {
            state.offer = None;
        }
        if let Some(clock) = state.clock.as_mut() {
            clock.add_increment(mover);
        }
        state.position = after;
        state.moves_made += 1;
        state.last_move = Some(events);
        self.settle(true);
    }

    /// Lets `elapsed_ms` pass on the clock of the side to move without a
    /// move (nothing without clocks). His flag may fall: loss on time.
    pub fn wait(&mut self, elapsed_ms: u64) -> Result<(), GameError> {
        self.ensure_ongoing()?;
        if self.state.clock.is_none() {
            return Ok(());
        }
        let side = self.state.position.side_to_move();
        self.push_step(Action::Wait, "wait".to_string(), Some(elapsed_ms));
        let fell = self
            .state
            .clock
            .as_mut()
            .is_some_and(|clock| clock.spend(side, elapsed_ms));
        if fell {
            let wins = awards::total_wins(&self.state.awarded);
            self.state.result = Some(termination::flag_fall(
                self.rules.variant(),
                &self.state.position,
                side,
                wins,
            ));
        } else {
            self.settle(false);
        }
        Ok(())
    }

    /// Takes back the last step (a move, claim, offer, ...) and returns it.
    pub fn undo(&mut self) -> Option<Action<R::Move>> {
        let last = self.steps.last()?;
        if matches!(last.action, Action::Move(_)) {
            // The step undone is the last made from its identity (found
            // while it is still in `steps`: it may be its group's first).
            let hash = last.before.identity.hash;
            let own = self.occurrences_index(&last.before.identity, &last.before.position);
            if let (Some(groups), Some(index)) = (self.moves_from.get_mut(&hash), own) {
                groups[index].at.pop();
                if groups[index].at.is_empty() {
                    groups.remove(index);
                }
                if groups.is_empty() {
                    self.moves_from.remove(&hash);
                }
            }
        }
        let step = self.steps.pop()?;
        self.state = *step.before;
        Some(step.action)
    }

    /// Reads a move text (long algebraic or SAN, see
    /// [`notation`](crate::notation)) as a legal move of the game.
    pub fn parse_move(&self, text: &str) -> Result<R::Move, GameError> {
        let position = &self.state.position;
        let error = match parse_move(&self.rules, position, text) {
            Ok(mv) => return Ok(mv),
            Err(error) => error,
        };
        // Moves the game adds to the generated ones (A5's promotion options).
        let bare = text.trim().trim_end_matches(['+', '#', '*', '!', '?']);
        let generated = self.rules.legal_moves(position);
        self.state
            .legal
            .iter()
            .filter(|mv| !generated.contains(mv))
            .find(|mv| {
                let san_text = san(&self.rules, position, mv);
                san_text.trim_end_matches(['+', '#']) == bare
                    || long_algebraic_of(&self.rules, mv, &self.state.legal) == bare
            })
            .copied()
            .ok_or(GameError::MoveText(error))
    }

    /// Plays a move text, with no time spent.
    pub fn play_text(&mut self, text: &str) -> Result<(), GameError> {
        self.ensure_ongoing()?;
        let mv = self.parse_move(text)?;
        self.play(&mv)
    }

    /// Does what `text` says: `claim`, `offer`, `accept`, `resign`, or a
    /// move text.
    pub fn act(&mut self, text: &str) -> Result<(), GameError> {
        match text.trim() {
            "claim" => self.claim(),
            "offer" => self.offer(),
            "accept" => self.accept(),
            "resign" => self.resign(),
            other => self.play_text(other),
        }
    }
}
