//! Fitting the learned correction of the evaluation (`varc tune
//! --network N`): a network with one hidden layer of `N` units over the
//! pieces on the board ([`varc_runtime::eval::network`]), added to the
//! hand-written evaluation and fitted to what that misses.
//!
//! The loss is the tuner's: the mean squared difference between the labels
//! and `σ(k · (evaluation + network))`, `k` fitted for the evaluation
//! alone and kept. The hand-written terms stay as they are. The network
//! starts at 0 (its output weights are 0), so the fit starts from the
//! evaluation's own loss; it learns by Adam on mini-batches in floating
//! point, and the numbers kept are those of the epoch with the lowest
//! validation loss (without validation positions, the last). They are then
//! rounded to the whole numbers the evaluation reads, and the losses
//! reported are those of the rounded network, measured with the real
//! evaluator.

use super::{evaluations, keep_if_gained, loss_of, Sample};
use varc_runtime::board::Board;
use varc_runtime::eval::network::{Network, ACTIVATION_ONE};
use varc_runtime::model::Variant;
use varc_runtime::rules::Rules;

/// Positions per step.
const BATCH: usize = 256;
/// Adam's step size, for every number (the inputs' weights and the units'
/// biases count in activations, the output weights in pawns: numbers of
/// like size).
const LEARNING_RATE: f32 = 0.0002;
/// Decoupled weight decay of the inputs' weights, per step and unit of
/// the step size: the pull toward 0 that keeps a weight seen in few
/// positions small.
const WEIGHT_DECAY: f32 = 0.01;
/// Epochs without a lower validation loss that end the fit.
const PATIENCE: usize = 3;
/// Centipawns per output unit of the floating-point network.
const OUTPUT_SCALE: f32 = 100.0;

/// What [`fit_network`] ends with.
pub struct NetworkFit {
    /// The variant with the network, or unchanged when the network did not
    /// lower the validation loss.
    pub variant: Variant,
    /// Whether the network was kept.
    pub kept: bool,
    /// Loss on the fitting positions, before and after.
    pub loss: (f64, f64),
    /// Loss on the validation positions, before and after.
    pub validation: Option<(f64, f64)>,
    /// Epochs run.
    pub epochs: usize,
    /// Per epoch, the floating-point network's loss on the fitting and
    /// on the validation positions.
    pub history: Vec<(f64, f64)>,
}

/// The positions as the network reads them: each one's inputs, its
/// evaluation without the network and its label.
struct Batch {
    offsets: Vec<usize>,
    inputs: Vec<u32>,
    evaluations: Vec<f32>,
    labels: Vec<f32>,
}

impl Batch {
    /// The batch of `samples`, whose evaluations without the network are
    /// `evaluations`.
    fn new<P: Board>(variant: &Variant, samples: &[Sample<P>], evaluations: &[f64]) -> Batch {
        let mut batch = Batch {
            offsets: vec![0],
            inputs: Vec::new(),
            evaluations: evaluations.iter().map(|&e| e as f32).collect(),
            labels: samples.iter().map(|s| s.white_score as f32).collect(),
        };
        for sample in samples {
            for (square, piece) in sample.position.pieces() {
                let input = Network::input(
                    variant,
                    piece.kind(),
                    piece.color().index(),
                    square.file,
                    square.rank,
                );
                batch.inputs.push(input as u32);
            }
            batch.offsets.push(batch.inputs.len());
        }
        batch
    }

    fn len(&self) -> usize {
        self.labels.len()
    }

    fn inputs_of(&self, position: usize) -> &[u32] {
        &self.inputs[self.offsets[position]..self.offsets[position + 1]]
    }
}

/// The floating-point network being fitted, with Adam's moments.
struct Model {
    hidden: usize,
    /// `[input][unit]`, then the units' biases, then the output weights,
    /// then the output bias: one vector, so that Adam walks one slice.
    numbers: Vec<f32>,
    first_moment: Vec<f32>,
    second_moment: Vec<f32>,
    steps: i32,
    input_count: usize,
}

impl Model {
    fn new(input_count: usize, hidden: usize) -> Model {
        let total = input_count * hidden + 2 * hidden + 1;
        let mut numbers = vec![0.0; total];
        // Small random input weights (a fixed xorshift sequence, so a fit
        // is repeatable), biases mid-range, output weights 0: the network
        // starts at 0.
        let mut state = 0x9E37_79B9_7F4A_7C15_u64;
        for number in &mut numbers[..input_count * hidden] {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            *number = ((state >> 40) as f32 / (1u64 << 24) as f32 - 0.5) * 0.2;
        }
        for bias in &mut numbers[input_count * hidden..input_count * hidden + hidden] {
            *bias = 0.5;
        }
        Model {
            hidden,
            first_moment: vec![0.0; total],
            second_moment: vec![0.0; total],
            numbers,
            steps: 0,
            input_count,
        }
    }

    fn biases_at(&self) -> usize {
        self.input_count * self.hidden
    }

    /// The hidden sums of a position's inputs.
    fn sums(&self, inputs: &[u32], sums: &mut [f32]) {
        let h = self.hidden;
        sums.copy_from_slice(&self.numbers[self.biases_at()..self.biases_at() + h]);
        for &input in inputs {
            let row = &self.numbers[input as usize * h..(input as usize + 1) * h];
            for (sum, weight) in sums.iter_mut().zip(row) {
                *sum += weight;
            }
        }
    }

    /// The network's output in centipawns for the hidden `sums`.
    fn output(&self, sums: &[f32]) -> f32 {
        let outputs = self.biases_at() + self.hidden;
        let total: f32 = sums
            .iter()
            .zip(&self.numbers[outputs..outputs + self.hidden])
            .map(|(sum, weight)| sum.clamp(0.0, 1.0) * weight)
            .sum();
        (total + self.numbers[outputs + self.hidden]) * OUTPUT_SCALE
    }

    /// One Adam step on the positions `indices` of `data`.
    fn step(&mut self, data: &Batch, indices: &[usize], scale: f32, gradient: &mut [f32]) {
        gradient.fill(0.0);
        let h = self.hidden;
        let (biases, outputs) = (self.biases_at(), self.biases_at() + h);
        let mut sums = vec![0.0; h];
        for &position in indices {
            let inputs = data.inputs_of(position);
            self.sums(inputs, &mut sums);
            let z = data.evaluations[position] + self.output(&sums);
            let predicted = 1.0 / (1.0 + (-scale * z).exp());
            let error = 2.0 * (predicted - data.labels[position]);
            // d loss / d output, per unit of the floating-point network.
            let d_output = error * predicted * (1.0 - predicted) * scale * OUTPUT_SCALE;
            gradient[outputs + h] += d_output;
            for unit in 0..h {
                let sum = sums[unit];
                gradient[outputs + unit] += d_output * sum.clamp(0.0, 1.0);
                if sum > 0.0 && sum < 1.0 {
                    let d_sum = d_output * self.numbers[outputs + unit];
                    gradient[biases + unit] += d_sum;
                    for &input in inputs {
                        gradient[input as usize * h + unit] += d_sum;
                    }
                }
            }
        }
        let count = indices.len().max(1) as f32;
        self.steps += 1;
        let (beta1, beta2) = (0.9_f32, 0.999_f32);
        let correction1 = 1.0 - beta1.powi(self.steps);
        let correction2 = 1.0 - beta2.powi(self.steps);
        let inputs_end = self.biases_at();
        let moments = self.first_moment.iter_mut().zip(&mut self.second_moment);
        let numbers = self.numbers.iter_mut().zip(gradient.iter()).zip(moments);
        for (i, ((number, &g), (first, second))) in numbers.enumerate() {
            if i < inputs_end {
                *number -= LEARNING_RATE * WEIGHT_DECAY * *number;
            }
            let g = g / count;
            *first = beta1 * *first + (1.0 - beta1) * g;
            *second = beta2 * *second + (1.0 - beta2) * g * g;
            let (m, v) = (*first / correction1, *second / correction2);
            *number -= LEARNING_RATE * m / (v.sqrt() + 1e-8);
        }
    }

    /// The loss on `data` in floating point.
    fn loss(&self, data: &Batch, scale: f32) -> f64 {
        if data.len() == 0 {
            return 0.0;
        }
        let mut sums = vec![0.0; self.hidden];
        let total: f64 = (0..data.len())
            .map(|position| {
                self.sums(data.inputs_of(position), &mut sums);
                let z = data.evaluations[position] + self.output(&sums);
                let predicted = 1.0 / (1.0 + (-scale * z).exp());
                f64::from((predicted - data.labels[position]).powi(2))
            })
            .sum();
        total / data.len() as f64
    }

    /// The network in the whole numbers the evaluation reads.
    fn rounded(&self) -> Network {
        let one = ACTIVATION_ONE as f32;
        let h = self.hidden;
        let (biases, outputs) = (self.biases_at(), self.biases_at() + h);
        let whole = |x: f32| x.round().clamp(f32::from(i16::MIN), f32::from(i16::MAX)) as i16;
        Network {
            hidden: h,
            inputs: self.numbers[..biases]
                .iter()
                .map(|&w| whole(w * one))
                .collect(),
            biases: self.numbers[biases..outputs]
                .iter()
                .map(|&b| whole(b * one))
                .collect(),
            outputs: self.numbers[outputs..outputs + h]
                .iter()
                .map(|&w| whole(w * OUTPUT_SCALE))
                .collect(),
            output_bias: (self.numbers[outputs + h] * OUTPUT_SCALE).round() as i32,
        }
    }
}

/// The shape and length of a network's fit.
#[derive(Clone, Copy, Debug)]
pub struct NetworkSettings {
    /// Hidden units (1 to [`varc_runtime::eval::network::MAX_HIDDEN`]).
    pub hidden: usize,
    /// Passes over the positions, at most.
    pub max_epochs: usize,
    /// The scale `k` of the loss, kept from the evaluation's fit.
    pub scale: f64,
}

/// Fits a network of `settings.hidden` units to `fitting` over `variant`'s
/// evaluation (any network it has is left out); `progress` hears of each
/// epoch.
pub fn fit_network<R: Rules + Sync>(
    rules: &R,
    variant: &Variant,
    fitting: &[Sample<R::Position>],
    validation: &[Sample<R::Position>],
    settings: NetworkSettings,
    progress: &mut dyn FnMut(&str),
) -> NetworkFit
where
    R::Position: Sync,
{
    let scale = settings.scale;
    let mut base = variant.clone();
    base.network = None;
    let (fitting_values, checked_values) = (
        evaluations(rules, &base, fitting),
        evaluations(rules, &base, validation),
    );
    let train = Batch::new(&base, fitting, &fitting_values);
    let check = Batch::new(&base, validation, &checked_values);
    let loss_before = loss_of(&fitting_values, fitting, scale);
    let validation_before = loss_of(&checked_values, validation, scale);
    let mut model = Model::new(Network::input_count(&base), settings.hidden);
    let mut gradient = vec![0.0; model.numbers.len()];
    let k = scale as f32;
    let mut order: Vec<usize> = (0..train.len()).collect();
    let mut state = 0x2545_F491_4F6C_DD1D_u64;
    let mut best: Option<(f64, Vec<f32>)> = None;
    let mut stale = 0;
    let mut epochs = 0;
    let mut history = Vec::new();
    for epoch in 1..=settings.max_epochs {
        epochs = epoch;
        // A fresh order every epoch (Fisher-Yates on a fixed sequence).
        for i in (1..order.len()).rev() {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            order.swap(i, (state % (i as u64 + 1)) as usize);
        }
        for indices in order.chunks(BATCH) {
            model.step(&train, indices, k, &mut gradient);
        }
        let measured = if check.len() > 0 {
            model.loss(&check, k)
        } else {
            model.loss(&train, k)
        };
        let fitting_loss = model.loss(&train, k);
        history.push((fitting_loss, measured));
        progress(&format!(
            "network epoch {epoch}: loss {fitting_loss:.6}, validation {measured:.6}"
        ));
        if best.as_ref().is_none_or(|(loss, _)| measured < *loss) {
            best = Some((measured, model.numbers.clone()));
            stale = 0;
        } else {
            stale += 1;
            if stale >= PATIENCE {
                break;
            }
        }
    }
    if let Some((_, numbers)) = best {
        model.numbers = numbers;
    }
    let mut fitted = base.clone();
    fitted.network = Some(model.rounded());
    let before = (loss_before, validation_before);
    let kept = keep_if_gained(rules, &base, fitted, fitting, validation, scale, before);
    NetworkFit {
        kept: kept.variant.network.is_some(),
        variant: kept.variant,
        loss: kept.loss,
        validation: kept.validation,
        epochs,
        history,
    }
}
