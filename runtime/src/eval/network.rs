//! A small learned correction of the evaluation: a network with one hidden
//! layer over the pieces on the board, fitted by `varc tune --network` to
//! what the hand-written terms miss (see the README's tuning section).
//!
//! Its inputs are one per kind, colour and square: 1 where such a piece
//! stands. Each hidden unit sums the weights of the inputs that are on and
//! its bias, clipped to 0..1 (in 1/[`ACTIVATION_ONE`]ths); the output is
//! the sum of the units times their output weights (centipawns for a unit
//! at 1) and the output bias, in centipawns from White's side. The numbers
//! are whole: the weights of the inputs and the biases of the units in
//! 1/[`ACTIVATION_ONE`]ths, so that the search sees the same value on
//! every machine.

use crate::model::Variant;
use serde::{Deserialize, Serialize};

/// The value of a fully active hidden unit: the fixed point of the inputs'
/// weights and the units' biases.
pub const ACTIVATION_ONE: i32 = 64;

/// The most hidden units a network may have.
pub const MAX_HIDDEN: usize = 128;

/// A network's numbers, as a weights file's `network` lines give them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Network {
    /// Hidden units.
    pub hidden: usize,
    /// `[input][unit]`: input `(kind * 2 + colour) * squares + rank * files
    /// + file`, in 1/[`ACTIVATION_ONE`]ths.
    pub inputs: Vec<i16>,
    /// Per unit, in 1/[`ACTIVATION_ONE`]ths.
    pub biases: Vec<i16>,
    /// Per unit: centipawns for White when the unit is fully active.
    pub outputs: Vec<i16>,
    /// Centipawns for White.
    pub output_bias: i32,
}

impl Network {
    /// The number of inputs a network of `variant` has.
    pub fn input_count(variant: &Variant) -> usize {
        variant.pieces.len()
            * 2
            * usize::from(variant.board.files)
            * usize::from(variant.board.ranks)
    }

    /// The input of a piece of `kind` and colour index `color` on `file`
    /// and `rank` of `variant`'s board.
    pub fn input(variant: &Variant, kind: usize, color: usize, file: u8, rank: u8) -> usize {
        let (files, ranks) = (
            usize::from(variant.board.files),
            usize::from(variant.board.ranks),
        );
        ((kind * 2 + color) * ranks + usize::from(rank)) * files + usize::from(file)
    }

    /// Why the network does not fit `variant`, if it does not.
    pub fn check(&self, variant: &Variant) -> Result<(), String> {
        if self.hidden == 0 || self.hidden > MAX_HIDDEN {
            return Err(format!(
                "a network has 1 to {MAX_HIDDEN} hidden units, not {}",
                self.hidden
            ));
        }
        let inputs = Network::input_count(variant);
        if self.inputs.len() != inputs * self.hidden {
            return Err(format!(
                "the network has {} input weights; this variant's needs {} ({inputs} inputs of {} units)",
                self.inputs.len(),
                inputs * self.hidden,
                self.hidden
            ));
        }
        if self.biases.len() != self.hidden || self.outputs.len() != self.hidden {
            return Err(format!(
                "the network needs {} biases and output weights, one per unit",
                self.hidden
            ));
        }
        Ok(())
    }
}

/// The hidden units' sums of one evaluation, filled piece by piece.
#[derive(Clone, Debug)]
pub struct Accumulator {
    sums: [i32; MAX_HIDDEN],
}

/// A network laid out for the evaluation: each piece's weights found by
/// the runtime's square index, no arithmetic on the way.
#[derive(Clone, Debug)]
pub struct NetworkTables {
    hidden: usize,
    /// `[kind][colour][square index]`: the row of `weights` (in units of
    /// `hidden`), or none for a square off the board.
    rows: Vec<Option<u32>>,
    weights: Vec<i16>,
    biases: Vec<i32>,
    outputs: Vec<i32>,
    output_bias: i32,
    square_count: usize,
}

impl NetworkTables {
    /// The tables of `network` for `variant` (which it must fit: see
    /// [`Network::check`]), with runtime square indices below
    /// `square_count`.
    pub fn new(network: &Network, variant: &Variant, square_count: usize) -> NetworkTables {
        let mut rows = vec![None; variant.pieces.len() * 2 * square_count];
        for kind in 0..variant.pieces.len() {
            for color in 0..2 {
                for rank in 0..variant.board.ranks {
                    for file in 0..variant.board.files {
                        let square = crate::model::Square::new(file, rank).index();
                        if square < square_count {
                            let input = Network::input(variant, kind, color, file, rank);
                            rows[(kind * 2 + color) * square_count + square] = Some(input as u32);
                        }
                    }
                }
            }
        }
        NetworkTables {
            hidden: network.hidden,
            rows,
            weights: network.inputs.clone(),
            biases: network.biases.iter().map(|&b| i32::from(b)).collect(),
            outputs: network.outputs.iter().map(|&w| i32::from(w)).collect(),
            output_bias: network.output_bias,
            square_count,
        }
    }

    /// An accumulator holding the biases.
    #[inline]
    pub fn start(&self) -> Accumulator {
        let mut sums = [0; MAX_HIDDEN];
        sums[..self.hidden].copy_from_slice(&self.biases);
        Accumulator { sums }
    }

    /// Adds a piece of `kind` and colour index `color` on the square of
    /// runtime index `square`.
    #[inline(always)]
    pub fn add(&self, accumulator: &mut Accumulator, kind: usize, color: usize, square: usize) {
        let slot = (kind * 2 + color) * self.square_count + square;
        if let Some(Some(row)) = self.rows.get(slot) {
            let start = *row as usize * self.hidden;
            if let Some(weights) = self.weights.get(start..start + self.hidden) {
                for (sum, &weight) in accumulator.sums[..self.hidden].iter_mut().zip(weights) {
                    *sum += i32::from(weight);
                }
            }
        }
    }

    /// The network's value, centipawns for White.
    #[inline]
    pub fn output(&self, accumulator: &Accumulator) -> i32 {
        let total: i32 = accumulator.sums[..self.hidden]
            .iter()
            .zip(&self.outputs)
            .map(|(&sum, &weight)| sum.clamp(0, ACTIVATION_ONE) * weight)
            .sum();
        total / ACTIVATION_ONE + self.output_bias
    }
}
