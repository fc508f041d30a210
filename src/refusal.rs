//! Why a move was refused, in words a player understands: the game layer's
//! reason, or "that leaves your king in check" for a move the pieces could
//! make but the check rule forbids (a move refused because captures are
//! compulsory keeps the game's reason, which says so). Shared by `varc
//! play` and `varc serve`.

use crate::interp::Interpreter;
use varc_runtime::game::{Game, GameError};
use varc_runtime::model::CheckRule;
use varc_runtime::notation::{long_algebraic, san};
use varc_runtime::rules::Rules;

/// The refusal of the move `text` with `error`, in words.
pub fn why_refused(game: &Game<Interpreter>, text: &str, error: GameError) -> String {
    if matches!(error, GameError::HistoryRule { .. }) {
        return error.to_string();
    }
    let rules = game.rules();
    let variant = rules.variant();
    if variant.legality.check_rule == CheckRule::RoyalMayNotBeAttacked {
        let position = game.position();
        let mut pseudo = Vec::new();
        rules.generate_pseudo_legal(position, &mut pseudo);
        let bare = text.trim_end_matches(['+', '#', '!', '?']);
        let named = pseudo.iter().find(|mv| {
            long_algebraic(variant, mv, &pseudo) == bare
                || san(rules, position, mv).trim_end_matches(['+', '#']) == bare
        });
        if let Some(mv) = named {
            // Only the check rule's refusal is said here: a move refused
            // because captures or drops are compulsory is the game's error
            // to say.
            let attacked = rules.royal_attacked(&rules.play(position, mv), position.side_to_move());
            if attacked && !game.legal_moves().contains(mv) {
                let royal = variant
                    .pieces
                    .iter()
                    .find(|p| p.royal)
                    .map_or("royal piece", |p| p.name.as_str());
                return format!("{text}: that leaves your {royal} in check");
            }
        }
    }
    error.to_string()
}
