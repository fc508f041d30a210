//! The `cover` and `storm` lines of a weights file: a royal kind's cover
//! by its own pawn-shaped pieces and the enemy's ([`RoyalCover`]), written
//! by `varc tune --squares`.
//!
//! ```text
//! #          0   1   2   3   4   5  6+ none    0   1 ...
//! cover king = 0  30  20  10   5   0   0 -25 /  0  25 ...  # its file / a file beside
//! storm king = 0   0 -40 -20 -10  -5   0   0 /  0   0 ...
//! ```
//!
//! Each line gives the royal piece's file, then `/`, then a file beside
//! it: per distance ahead of the royal piece to the nearest such piece (0
//! to 6, the last for 6 or more), then for a file without one. A table
//! left out is zeros.

use super::{kind_named, parse_centipawns, WeightsError};
use crate::model::{RoyalCover, Variant};

/// The cover lines of one file, as read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CoverLines {
    pub lines: Vec<CoverLine>,
}

/// A `cover PIECE` or `storm PIECE` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CoverLine {
    /// The royal piece, as the rules file names it.
    pub piece: String,
    /// Whether this is the enemy's table (`storm`).
    pub storm: bool,
    /// [`RoyalCover::CELLS`] values: the royal piece's file, then a file
    /// beside it.
    pub values: Vec<i32>,
    /// The line it was read from (1-based).
    pub line: usize,
}

impl CoverLines {
    /// Reads the line `name = value` (line `line`) if it is a cover line:
    /// `Ok(true)` then, `Ok(false)` for another kind of line.
    pub fn read(&mut self, name: &str, value: &str, line: usize) -> Result<bool, String> {
        let (piece, storm) = if let Some(piece) = name.strip_prefix("cover ") {
            (piece, false)
        } else if let Some(piece) = name.strip_prefix("storm ") {
            (piece, true)
        } else {
            return Ok(false);
        };
        self.lines.push(CoverLine {
            piece: piece.trim().to_string(),
            storm,
            values: parse_files(value)?,
            line,
        });
        Ok(true)
    }

    /// The tables of the file per royal kind, checked against `variant`.
    pub fn tables(&self, variant: &Variant) -> Result<Vec<(usize, RoyalCover)>, WeightsError> {
        let mut tables: Vec<(usize, RoyalCover)> = Vec::new();
        for line in &self.lines {
            let error = |message: String| WeightsError {
                line: line.line,
                message,
            };
            let kind = kind_named(variant, &line.piece).map_err(error)?;
            if !variant.pieces[kind].royal {
                return Err(error(format!(
                    "`{}` is not royal: only royal pieces have cover tables",
                    line.piece
                )));
            }
            let index = match tables.iter().position(|(k, _)| *k == kind) {
                Some(index) => index,
                None => {
                    let zeros = vec![0; RoyalCover::CELLS];
                    let empty = RoyalCover {
                        own: zeros.clone(),
                        enemy: zeros,
                    };
                    tables.push((kind, empty));
                    tables.len() - 1
                }
            };
            let table = &mut tables[index].1;
            let slot = if line.storm {
                &mut table.enemy
            } else {
                &mut table.own
            };
            slot.clone_from(&line.values);
        }
        Ok(tables)
    }

    /// The lines that set `variant`'s cover tables.
    pub fn write(variant: &Variant) -> String {
        let mut text = String::new();
        for piece in variant.pieces.iter().filter(|p| p.royal) {
            if let Some(cover) = &piece.royal_cover {
                for (setting, table) in [("cover", &cover.own), ("storm", &cover.enemy)] {
                    let files: Vec<String> = table
                        .chunks(RoyalCover::DISTANCES)
                        .map(|file| {
                            let numbers: Vec<String> =
                                file.iter().map(|v| format!("{v:>3}")).collect();
                            numbers.join(" ")
                        })
                        .collect();
                    text.push_str(&format!(
                        "{setting} {} = {}\n",
                        piece.name,
                        files.join(" / ")
                    ));
                }
            }
        }
        text
    }
}

/// The values of a cover line: two files of [`RoyalCover::DISTANCES`]
/// whole numbers, `/` between them.
fn parse_files(text: &str) -> Result<Vec<i32>, String> {
    let files: Vec<&str> = text.split('/').collect();
    let mut values = Vec::with_capacity(RoyalCover::CELLS);
    for file in &files {
        let numbers = parse_centipawns(file, "a cover value")?;
        if numbers.len() != RoyalCover::DISTANCES {
            return Err(format!(
                "a cover line needs two files of {} numbers (distances 0 to {}, then none), \
                 `/` between them; found a file of {}",
                RoyalCover::DISTANCES,
                RoyalCover::FAR,
                numbers.len()
            ));
        }
        values.extend(numbers);
    }
    if files.len() != 2 {
        return Err(format!(
            "a cover line needs two files (the royal piece's, then one beside it), found {}",
            files.len()
        ));
    }
    Ok(values)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cover_lines_read_and_refuse() {
        let mut lines = CoverLines::default();
        let value = "0 30 20 10 5 0 0 -25 / 0 25 15 5 0 0 0 -20";
        assert_eq!(lines.read("cover king", value, 3), Ok(true));
        assert_eq!(lines.read("squares king", value, 4), Ok(false));
        assert_eq!(lines.lines[0].values.len(), RoyalCover::CELLS);
        assert_eq!(lines.lines[0].values[7], -25);
        assert!(!lines.lines[0].storm);
        for bad in [
            "1 2 3",
            "0 0 0 0 0 0 0 0",
            "0 0 0 0 0 0 0 x / 0 0 0 0 0 0 0 0",
        ] {
            assert!(lines.read("storm king", bad, 5).is_err(), "{bad}");
        }
        let three = "0 0 0 0 0 0 0 0 / 0 0 0 0 0 0 0 0 / 0 0 0 0 0 0 0 0";
        assert!(lines.read("storm king", three, 6).is_err());
        assert!(lines
            .read("storm king", "0 0 0 0 0 0 0 99999 / 0 0 0 0 0 0 0 0", 7)
            .is_err());
    }
}
