//! The quiet positions of a played game as `FEN [SCORE]` lines (the match
//! runner's `--fens`), for `varc tune --positions` or for another engine to
//! label (`bench/label_positions.py --fens`).

use super::play::GameRecord;
use varc::interp::Interpreter;
use varc::tune::labelled_positions;
use varc_runtime::fen::write_fen_for_clients;
use varc_runtime::game::record::load_record;

/// The positions of `record` after its first `skip_plies` plies where the
/// side to move is not in check and the move played neither captures nor
/// promotes (those `varc tune` learns from), each labelled with White's
/// score of the game, one line each.
pub fn quiet_positions(
    rules: &Interpreter,
    record: &GameRecord,
    skip_plies: usize,
) -> Result<String, String> {
    let loaded = load_record(rules.clone(), &record.record)
        .map_err(|e| format!("the game's own record does not load: {e}"))?;
    let scores = [record.white_score, 1.0 - record.white_score];
    let skip = u32::try_from(skip_plies).unwrap_or(u32::MAX);
    let mut text = String::new();
    for sample in labelled_positions(&loaded.game, scores, skip) {
        let fen = write_fen_for_clients(rules, &sample.position);
        text.push_str(&format!("{fen} [{}]\n", sample.white_score));
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matches::play::SearchTotals;

    #[test]
    fn quiet_positions_after_the_opening_carry_the_games_score() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../variants/chess.rules");
        let variant = varc::load_variant(std::path::Path::new(path)).expect("chess loads");
        let rules = Interpreter::new(variant).expect("rules");
        // 1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7#: after the first two
        // plies, the positions before Qh5, Nc6, Bc4 and Nf6 (Qxf7 captures).
        let record = GameRecord {
            white_score: 1.0,
            reason: "checkmate".to_string(),
            moves: Vec::new(),
            totals: [SearchTotals::default(); 2],
            record: "[Variant \"chess\"]\n[Result \"1-0\"]\n\n\
                     1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n"
                .to_string(),
        };
        let text = quiet_positions(&rules, &record, 2).expect("the record loads");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 4, "{text}");
        assert_eq!(
            lines[0],
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2 [1]"
        );
        assert!(lines.iter().all(|line| line.ends_with(" [1]")));
        // A record that does not load is an error, not a panic.
        let broken = GameRecord {
            record: "1. e5 1-0\n".to_string(),
            ..record
        };
        assert!(quiet_positions(&rules, &broken, 0).is_err());
    }
}
