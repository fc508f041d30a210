//! The `network` lines of a weights file: the learned correction of the
//! evaluation ([`crate::eval::network`]), written by `varc tune --network`.
//!
//! ```text
//! network = 32                            # hidden units
//! network-biases = 12 -3 ...              # one per unit, 1/64ths
//! network-outputs = 40 -18 ...            # one per unit, centipawns
//! network-output-bias = -2                # centipawns
//! network knight white e4 = 5 0 -7 ...    # one per unit, 1/64ths
//! ```
//!
//! A piece, colour and square without a line has weights 0.

use super::WeightsError;
use crate::eval::network::{Network, MAX_HIDDEN};
use crate::model::{Color, Variant};

/// The network lines of one file, as read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NetworkLines {
    /// `network = N`, and its line.
    pub hidden: Option<(usize, usize)>,
    /// `network-biases`, and its line.
    pub biases: Option<(Vec<i16>, usize)>,
    /// `network-outputs`, and its line.
    pub outputs: Option<(Vec<i16>, usize)>,
    /// `network-output-bias`.
    pub output_bias: i32,
    /// `network PIECE COLOUR SQUARE` lines.
    pub inputs: Vec<InputLine>,
}

/// A `network PIECE COLOUR SQUARE = ...` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputLine {
    pub piece: String,
    pub color: Color,
    /// File and rank, from 0.
    pub square: (u8, u8),
    pub weights: Vec<i16>,
    /// The line it was read from (1-based).
    pub line: usize,
}

impl NetworkLines {
    /// Reads the line `name = value` (line `line`) if it is a network
    /// line: `Ok(true)` then, `Ok(false)` for another kind of line.
    pub fn read(&mut self, name: &str, value: &str, line: usize) -> Result<bool, String> {
        match name {
            "network" => {
                let hidden: usize = value
                    .parse()
                    .map_err(|_| format!("`{value}` is not a number of hidden units"))?;
                if hidden == 0 || hidden > MAX_HIDDEN {
                    return Err(format!(
                        "a network has 1 to {MAX_HIDDEN} hidden units, not {hidden}"
                    ));
                }
                self.hidden = Some((hidden, line));
            }
            "network-biases" => self.biases = Some((numbers(value)?, line)),
            "network-outputs" => self.outputs = Some((numbers(value)?, line)),
            "network-output-bias" => {
                self.output_bias = value
                    .parse()
                    .map_err(|_| format!("`{value}` is not a whole number of centipawns"))?;
            }
            _ => {
                let Some(rest) = name.strip_prefix("network ") else {
                    return Ok(false);
                };
                let words: Vec<&str> = rest.split_whitespace().collect();
                let [piece, color, square] = words[..] else {
                    return Err(format!(
                        "expected `network PIECE white|black SQUARE`, found `{name}`"
                    ));
                };
                let color = match color {
                    "white" => Color::White,
                    "black" => Color::Black,
                    _ => return Err(format!("`{color}` is not white or black")),
                };
                self.inputs.push(InputLine {
                    piece: piece.to_string(),
                    color,
                    square: parse_square(square)?,
                    weights: numbers(value)?,
                    line,
                });
            }
        }
        Ok(true)
    }

    /// The network the lines give for `variant` (none without a `network`
    /// line), or why they do not make one.
    pub fn network(&self, variant: &Variant) -> Result<Option<Network>, WeightsError> {
        let Some((hidden, hidden_line)) = self.hidden else {
            return match self.inputs.first() {
                Some(input) => Err(WeightsError {
                    line: input.line,
                    message: "a `network` line (the number of hidden units) must come first".into(),
                }),
                None => Ok(None),
            };
        };
        let per_unit = |lines: &Option<(Vec<i16>, usize)>, what: &str| match lines {
            Some((values, line)) if values.len() == hidden => Ok(values.clone()),
            Some((values, line)) => Err(WeightsError {
                line: *line,
                message: format!("{} {what} for {hidden} hidden units", values.len()),
            }),
            None => Err(WeightsError {
                line: hidden_line,
                message: format!("a network needs its `network-{what}` line"),
            }),
        };
        let biases = per_unit(&self.biases, "biases")?;
        let outputs = per_unit(&self.outputs, "outputs")?;
        let mut inputs = vec![0; Network::input_count(variant) * hidden];
        for input in &self.inputs {
            let error = |message: String| WeightsError {
                line: input.line,
                message,
            };
            let kind = super::kind_named(variant, &input.piece).map_err(error)?;
            let (file, rank) = input.square;
            if file >= variant.board.files || rank >= variant.board.ranks {
                return Err(error(format!("{} has no such square", variant.name)));
            }
            if input.weights.len() != hidden {
                return Err(error(format!(
                    "{} weights for {hidden} hidden units",
                    input.weights.len()
                )));
            }
            let row = Network::input(variant, kind, input.color.index(), file, rank);
            inputs[row * hidden..(row + 1) * hidden].copy_from_slice(&input.weights);
        }
        let network = Network {
            hidden,
            inputs,
            biases,
            outputs,
            output_bias: self.output_bias,
        };
        network.check(variant).map_err(|message| WeightsError {
            line: hidden_line,
            message,
        })?;
        Ok(Some(network))
    }

    /// `network`'s lines for `variant` (rows of zeros left out).
    pub fn write(network: &Network, variant: &Variant) -> String {
        let join = |values: &[i16]| {
            let words: Vec<String> = values.iter().map(|v| v.to_string()).collect();
            words.join(" ")
        };
        let mut text = format!("network = {}\n", network.hidden);
        text.push_str(&format!("network-biases = {}\n", join(&network.biases)));
        text.push_str(&format!("network-outputs = {}\n", join(&network.outputs)));
        text.push_str(&format!("network-output-bias = {}\n", network.output_bias));
        let hidden = network.hidden;
        for (kind, piece) in variant.pieces.iter().enumerate() {
            for color in Color::ALL {
                for rank in 0..variant.board.ranks {
                    for file in 0..variant.board.files {
                        let row = Network::input(variant, kind, color.index(), file, rank);
                        let Some(weights) = network.inputs.get(row * hidden..(row + 1) * hidden)
                        else {
                            continue;
                        };
                        if weights.iter().all(|&w| w == 0) {
                            continue;
                        }
                        let color = match color {
                            Color::White => "white",
                            Color::Black => "black",
                        };
                        let square = format!("{}{}", char::from(b'a' + file), rank + 1);
                        text.push_str(&format!(
                            "network {} {color} {square} = {}\n",
                            piece.name,
                            join(weights)
                        ));
                    }
                }
            }
        }
        text
    }
}

fn numbers(text: &str) -> Result<Vec<i16>, String> {
    text.split_whitespace()
        .map(|word| {
            word.parse::<i16>()
                .map_err(|_| format!("`{word}` is not a whole number from -32768 to 32767"))
        })
        .collect()
}

/// `e4`: file `a` to `p`, rank from 1.
fn parse_square(text: &str) -> Result<(u8, u8), String> {
    let mut chars = text.chars();
    let bad = || format!("`{text}` is not a square (a file letter and a rank number)");
    let file = chars.next().ok_or_else(bad)?;
    if !file.is_ascii_lowercase() || file > 'p' {
        return Err(bad());
    }
    let rank: u8 = chars.as_str().parse().map_err(|_| bad())?;
    if rank == 0 || rank > 16 {
        return Err(bad());
    }
    Ok((file as u8 - b'a', rank - 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_and_numbers_read_or_are_refused() {
        assert_eq!(parse_square("e4"), Ok((4, 3)));
        assert_eq!(parse_square("j10"), Ok((9, 9)));
        for bad in ["", "e", "e0", "E4", "z4", "e17", "4e"] {
            assert!(parse_square(bad).is_err(), "{bad}");
        }
        assert_eq!(numbers("1 -2 3"), Ok(vec![1, -2, 3]));
        assert!(numbers("1 x").is_err());
        assert!(numbers("40000").is_err());
    }
}
