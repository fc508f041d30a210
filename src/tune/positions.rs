//! Labelled positions read from text, for fitting to labels that did not
//! come from whole games: another engine's judgement of each position (see
//! `bench/label_positions.py`) or a published set of quiet positions.
//!
//! One position a line, in either of the forms tuners share:
//! - `FEN [LABEL]`, as in the collections of Ethereal, Koivisto and others;
//! - EPD with a `c9` operation, `FEN c9 "LABEL";`, as in Zurichess's
//!   `quiet-labeled.epd`.
//!
//! The label is White's expected score: a result (`1-0`, `0-1`, `1/2-1/2`)
//! or a number from 0 to 1. The FEN is the variant's (four fields are
//! enough). Empty lines and lines starting with `#` are skipped; a line
//! that does not read is refused with its number and left out. Every
//! tenth block of [`VALIDATION_BLOCK`] consecutive positions (fewer in a
//! file of fewer than 10,000) is kept apart for validation: files list a game's positions together, and neighbouring
//! positions of a game are nearly the same, so a split by single lines
//! would validate on positions the fit has all but seen.

use super::{Sample, Samples};
use varc_runtime::fen::parse_fen;
use varc_runtime::model::Variant;
use varc_runtime::position::Position;

/// Consecutive positions kept on the same side of the split.
pub const VALIDATION_BLOCK: usize = 100;

/// What reading labelled positions found.
#[derive(Clone, Debug, Default)]
pub struct PositionTally {
    /// Positions read.
    pub positions: usize,
    /// Lines that did not read, each with where and why.
    pub refused: Vec<String>,
}

/// The labelled positions of `texts` (each a name and its text), split
/// into the fitting and validation sets.
pub fn labelled_fens(
    variant: &Variant,
    texts: &[(String, String)],
) -> (Samples<Position>, PositionTally) {
    let mut read = Vec::new();
    let mut tally = PositionTally::default();
    for (name, text) in texts {
        for (index, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            match read_line(variant, line) {
                Ok(sample) => read.push(sample),
                Err(error) => tally
                    .refused
                    .push(format!("{name}: line {}: {error}", index + 1)),
            }
        }
    }
    tally.positions = read.len();
    // Blocks of up to VALIDATION_BLOCK positions, a hundredth of them at
    // most, so that a small file still validates on a tenth.
    let block = (read.len() / 100).clamp(1, VALIDATION_BLOCK);
    let mut samples = Samples {
        fitting: Vec::new(),
        validation: Vec::new(),
    };
    for (index, sample) in read.into_iter().enumerate() {
        if (index / block) % 10 == 9 {
            samples.validation.push(sample);
        } else {
            samples.fitting.push(sample);
        }
    }
    (samples, tally)
}

/// One line's position and label.
fn read_line(variant: &Variant, line: &str) -> Result<Sample<Position>, String> {
    let (fen, label) = split_label(line)?;
    let white_score = parse_label(label)?;
    let position = parse_fen(variant, fen).map_err(|error| error.to_string())?;
    Ok(Sample {
        position,
        white_score,
    })
}

/// The FEN and the label text of a line.
fn split_label(line: &str) -> Result<(&str, &str), String> {
    if let Some(at) = line.find(" c9 ") {
        let rest = line[at + 4..].trim().trim_end_matches(';').trim();
        let label = rest
            .strip_prefix('"')
            .and_then(|rest| rest.strip_suffix('"'))
            .ok_or_else(|| format!("the c9 label is not quoted: `{rest}`"))?;
        return Ok((line[..at].trim(), label));
    }
    if let Some(at) = line.rfind('[') {
        let label = line[at + 1..]
            .trim()
            .strip_suffix(']')
            .ok_or_else(|| "the label's `[` is not closed by `]`".to_string())?;
        return Ok((line[..at].trim(), label));
    }
    Err("no label: expected `FEN [LABEL]` or `FEN c9 \"LABEL\";`".to_string())
}

/// White's score from a label: a result or a number from 0 to 1.
fn parse_label(label: &str) -> Result<f64, String> {
    let label = label.trim();
    match label {
        "1-0" => return Ok(1.0),
        "0-1" => return Ok(0.0),
        "1/2-1/2" | "½-½" => return Ok(0.5),
        _ => {}
    }
    match label.parse::<f64>() {
        Ok(score) if (0.0..=1.0).contains(&score) => Ok(score),
        _ => Err(format!(
            "the label `{label}` is neither a result (1-0, 0-1, 1/2-1/2) nor a number from 0 to 1"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_are_results_or_scores_from_0_to_1() {
        assert_eq!(parse_label("1-0"), Ok(1.0));
        assert_eq!(parse_label(" 1/2-1/2 "), Ok(0.5));
        assert_eq!(parse_label("0.25"), Ok(0.25));
        assert!(parse_label("1.5").is_err());
        assert!(parse_label("NaN").is_err());
        assert!(parse_label("").is_err());
    }

    #[test]
    fn both_line_forms_split() {
        let fen = "8/8/8/8/8/8/8/K6k w - -";
        assert_eq!(split_label(&format!("{fen} [0.5]")), Ok((fen, "0.5")));
        assert_eq!(split_label(&format!("{fen} c9 \"1-0\";")), Ok((fen, "1-0")));
        assert!(split_label(fen).is_err());
        assert!(split_label(&format!("{fen} [0.5")).is_err());
        assert!(split_label(&format!("{fen} c9 1-0;")).is_err());
    }
}
