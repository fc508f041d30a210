//! The match driver: rules above the single game, from the variant's
//! [`MatchRule`]s (P9).
//!
//! A match is one pairing: a game, and the games that replace it while the
//! rules say so. After a null game: in casual play, with a
//! `CasualNullIsDraw` rule, the null game counts as a draw and the match
//! ends; after the `ForfeitAfterNulls` count of null games in a row, the
//! rule's player wins by forfeit; otherwise, with a `ReplayNullGame` rule,
//! a new game starts (with the same colours if the rule says so), the clocks
//! as the null game left them plus the match's added time for both.

use super::clock::TimeControl;
use super::result::{GameResult, ResultKind};
use super::{Game, GameError};
use crate::board::Board;
use crate::model::{Color, MatchRule, PlayerRef};
use crate::rules::Rules;
use thiserror::Error;

/// Options of a match (not rules of the variant).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MatchOptions {
    /// Casual play (P9: a null game counts as a draw).
    pub casual: bool,
    /// Time added to both clocks before a replayed game, in milliseconds.
    pub added_time_ms: u64,
    /// The time control of the first game, if timed.
    pub time_control: Option<TimeControl>,
}

/// Why the match cannot go on.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum MatchError {
    /// The current game has not ended.
    #[error("the current game has not ended")]
    GameNotOver,
    /// The match has ended.
    #[error("the match is over")]
    MatchOver,
    /// A new game could not start.
    #[error(transparent)]
    Game(#[from] GameError),
}

/// What the match driver did after a game.
#[derive(Clone, Debug, PartialEq)]
pub enum MatchProgress {
    /// A new game started (a null game is replayed).
    Replay,
    /// The match is over with this result (the first player is White in
    /// the first game).
    Over(GameResult),
}

/// A match of one variant.
#[derive(Clone, Debug)]
pub struct Match<R: Rules + Clone> {
    rules: R,
    options: MatchOptions,
    game: Game<R>,
    finished: Vec<GameResult>,
    nulls_in_a_row: u32,
    first_player_white: bool,
    outcome: Option<GameResult>,
}

impl<R: Rules + Clone> Match<R> {
    /// A match whose first game starts from the variant's start position.
    pub fn new(rules: R, options: MatchOptions) -> Result<Match<R>, GameError> {
        let mut game = Game::new(rules.clone())?;
        if let Some(control) = options.time_control {
            game = game.with_time_control(control);
        }
        Ok(Match {
            rules,
            options,
            game,
            finished: Vec::new(),
            nulls_in_a_row: 0,
            first_player_white: true,
            outcome: None,
        })
    }

    /// The game being played.
    pub fn game(&self) -> &Game<R> {
        &self.game
    }

    /// The game being played, to play in.
    pub fn game_mut(&mut self) -> &mut Game<R> {
        &mut self.game
    }

    /// The results of the games finished so far, as the match scored them.
    pub fn finished(&self) -> &[GameResult] {
        &self.finished
    }

    /// Whether the first player has White in the current game.
    pub fn first_player_white(&self) -> bool {
        self.first_player_white
    }

    /// The match result, once it is over.
    pub fn outcome(&self) -> Option<&GameResult> {
        self.outcome.as_ref()
    }

    /// Applies the match rules once the current game has ended.
    pub fn advance(&mut self) -> Result<MatchProgress, MatchError> {
        if self.outcome.is_some() {
            return Err(MatchError::MatchOver);
        }
        let result = self.game.result().cloned().ok_or(MatchError::GameNotOver)?;
        let variant = self.rules.variant();
        let rules = &variant.match_rules;
        if result.kind != ResultKind::NullGame {
            return Ok(self.finish(result));
        }
        if self.options.casual && rules.contains(&MatchRule::CasualNullIsDraw) {
            let reason = format!("{} (casual play: a null game is a draw)", result.reason);
            let draw = result.rescored_as_draw(variant, reason);
            return Ok(self.finish(draw));
        }
        self.nulls_in_a_row += 1;
        for rule in rules {
            if let MatchRule::ForfeitAfterNulls { count, winner } = rule {
                if self.nulls_in_a_row >= *count {
                    let winner = match winner {
                        PlayerRef::White => Color::White,
                        PlayerRef::Black => Color::Black,
                        PlayerRef::SideToMove => self.game.position().side_to_move(),
                        PlayerRef::Opponent => self.game.position().side_to_move().opponent(),
                    };
                    self.finished.push(result.clone());
                    let reason = format!(
                        "{} null games in a row: {winner} wins by forfeit",
                        self.nulls_in_a_row
                    );
                    let mut end_wins = [0; 2];
                    end_wins[winner.index()] = 1;
                    let forfeit =
                        GameResult::new(variant, ResultKind::Win(winner), reason, [0; 2], end_wins);
                    self.outcome = Some(forfeit.clone());
                    return Ok(MatchProgress::Over(forfeit));
                }
            }
        }
        let replay = rules.iter().find_map(|rule| match rule {
            MatchRule::ReplayNullGame { same_colours } => Some(*same_colours),
            _ => None,
        });
        let Some(same_colours) = replay else {
            return Ok(self.finish(result));
        };
        self.finished.push(result);
        let mut clock = self.game.clock().cloned();
        if let Some(clock) = clock.as_mut() {
            clock.add_to_both(self.options.added_time_ms);
        }
        let mut game = Game::new(self.rules.clone())?;
        game.set_clock(clock);
        self.game = game;
        if !same_colours {
            self.first_player_white = !self.first_player_white;
        }
        Ok(MatchProgress::Replay)
    }

    fn finish(&mut self, result: GameResult) -> MatchProgress {
        self.finished.push(result.clone());
        self.outcome = Some(result.clone());
        MatchProgress::Over(result)
    }
}
