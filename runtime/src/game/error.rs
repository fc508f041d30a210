//! Why the game refused an action.

use crate::fen::FenError;
use crate::notation::MoveTextError;
use thiserror::Error;

/// A refused move, claim, offer or setting. The game is unchanged.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum GameError {
    /// The game has ended; nothing more can be played.
    #[error("the game is over: {reason}")]
    GameOver {
        /// How it ended.
        reason: String,
    },
    /// A move text that names no legal move.
    #[error(transparent)]
    MoveText(#[from] MoveTextError),
    /// A move that is not among the legal moves.
    #[error("{text}: not a legal move in this position")]
    IllegalMove {
        /// The move in long algebraic.
        text: String,
    },
    /// A move that a history rule forbids (P7).
    #[error("{text}: {message}")]
    HistoryRule {
        /// The move text.
        text: String,
        /// The rule's message ("illegal repeated check").
        message: String,
    },
    /// A claim with nothing to claim.
    #[error("nothing to claim: {why}")]
    NothingToClaim {
        /// Why no claim rule applies.
        why: String,
    },
    /// A draw offer or acceptance the rules do not allow now (P10).
    #[error("draw by agreement is not allowed: {why}")]
    AgreementNotAllowed {
        /// Why.
        why: String,
    },
    /// An acceptance with no offer from the opponent.
    #[error("there is no draw offer from the opponent to accept")]
    NoOfferToAccept,
    /// An action word the game does not know.
    #[error("unknown action {text:?}")]
    UnknownAction {
        /// The text.
        text: String,
    },
    /// A malformed start position.
    #[error("invalid FEN: {0}")]
    Fen(#[from] FenError),
}
