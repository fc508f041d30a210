//! Fitting square tables (`varc tune --squares`): a bonus per kind, square
//! and phase ([`SquareBonuses`]), added to the placement the evaluation
//! derives from each kind's movement.
//!
//! A table entry is linear in the evaluation: a piece of kind `k` on a
//! square reads cell `c` of its side's view of the board and adds
//! `(1 - e) · middlegame[k][c] + e · endgame[k][c]` for its side, where `e`
//! is the position's [endgame weight](Evaluator::endgame_weight), times
//! the share of the evaluation that endgame scaling keeps
//! ([`Evaluator::scale`], taken as fixed: it is read once, for the side
//! ahead before the fit). So the
//! rest of the evaluation is computed once per position with the real
//! evaluator, and the tables are fitted by gradient descent (Adam, the whole
//! set each step) on the same loss as the scalar weights, with a small
//! L2 penalty that keeps the squares the games seldom visit near their
//! present bonus. The step with the lowest validation loss is kept (the
//! fit stops when 200 steps bring no lower one), the bonuses are rounded to
//! centipawns, and the losses reported are those of the real evaluator
//! with the rounded tables; a fit that does not lower the validation loss
//! changes nothing.
//!
//! In variants with pawn-shaped kinds, the royal kinds' cover tables
//! ([`RoyalCover`]: an entry adds its value times the enemy's material
//! share for its side) and the passed tables ([`PassedTables`], tapered as
//! the square tables are, starting from the passed formula's figures) are
//! fitted with them, linear too.

use super::{evaluations, keep_if_gained, loss_of, sigmoid, Sample};
use varc_runtime::board::Board;
use varc_runtime::eval::Evaluator;
use varc_runtime::model::{Color, PassedTables, RoyalCover, SquareBonuses, Variant};
use varc_runtime::rules::Rules;
use varc_runtime::weights::WEIGHT_RANGE;

/// Steps of gradient descent at most.
const MAX_STEPS: usize = 3000;
/// Steps between two readings of the validation loss, and how many
/// readings without a lower one end the fit.
const CHECK_EVERY: usize = 20;
const PATIENCE: usize = 10;
/// Adam's step size in centipawns, and its decay rates.
const LEARNING_RATE: f64 = 0.2;
const BETA1: f64 = 0.9;
const BETA2: f64 = 0.999;
/// The L2 penalty per squared centipawn of change.
const L2: f64 = 1e-8;

/// What the square fit found.
#[derive(Clone, Debug)]
pub struct SquareFit {
    /// The variant with the fitted tables (unchanged where the fit did not
    /// lower the validation loss).
    pub variant: Variant,
    /// The loss on the fitting set before and after.
    pub loss: (f64, f64),
    /// The same on the validation set (`None` without validation samples).
    pub validation: Option<(f64, f64)>,
    /// Steps of gradient descent taken.
    pub steps: usize,
}

/// The table entries each sample's evaluation reads, with their
/// coefficients: sample `i`'s are `entries[starts[i]..starts[i + 1]]`.
struct Features {
    starts: Vec<usize>,
    entries: Vec<(u32, f32)>,
}

/// The index of a kind's cell's middlegame entry (the endgame entry
/// follows it) among the fitted parameters.
fn parameter(kind: usize, cells: usize, cell: usize) -> usize {
    (kind * cells + cell) * 2
}

/// The index of a royal kind's cover entry: its own table's (`storm`
/// false) or the enemy's, after every square table.
fn cover_parameter(kinds: usize, cells: usize, kind: usize, storm: bool, entry: usize) -> usize {
    parameter(kinds, cells, 0) + (kind * 2 + usize::from(storm)) * RoyalCover::CELLS + entry
}

/// The index of a passed table's middlegame entry for `moves` moves (the
/// endgame entry follows it), after the cover tables.
fn passed_parameter(kinds: usize, cells: usize, moves: usize) -> usize {
    cover_parameter(kinds, cells, kinds, false, 0) + 2 * moves
}

/// Every parameter the fit moves: the square tables, the cover tables,
/// then the passed tables.
fn parameter_count(kinds: usize, cells: usize) -> usize {
    passed_parameter(kinds, cells, PassedTables::MOVES)
}

/// +1 for White's terms, -1 for Black's: the evaluation is White's.
fn white_sign(color: Color) -> f64 {
    match color {
        Color::White => 1.0,
        Color::Black => -1.0,
    }
}

fn features<R: Rules>(
    rules: &R,
    evaluator: &Evaluator,
    variant: &Variant,
    samples: &[Sample<R::Position>],
) -> Features {
    let passed = variant.passed_tables.is_some();
    let (files, ranks) = (variant.board.files, variant.board.ranks);
    let cells = usize::from(files) * usize::from(ranks);
    let kinds = variant.pieces.len();
    let mut starts = Vec::with_capacity(samples.len() + 1);
    let mut entries = Vec::new();
    for sample in samples {
        starts.push(entries.len());
        let endgame = f64::from(evaluator.endgame_weight(&sample.position)) / 256.0;
        // What endgame scaling keeps of a change.
        let scale = evaluator.scale(rules, &sample.position);
        let first = entries.len();
        for (square, piece) in sample.position.pieces() {
            let color = piece.color();
            let Some(cell) = SquareBonuses::cell(files, ranks, square, color) else {
                continue;
            };
            let sign = white_sign(color);
            let index = parameter(piece.kind(), cells, cell) as u32;
            entries.push((index, (sign * (1.0 - endgame)) as f32));
            entries.push((index + 1, (sign * endgame) as f32));
        }
        for cover in evaluator.royal_cover_cells(rules, &sample.position) {
            let sign = white_sign(cover.color);
            let coefficient = (sign * f64::from(cover.share) / 256.0) as f32;
            for (storm, entry) in [(false, cover.own), (true, cover.enemy)] {
                let index = cover_parameter(kinds, cells, cover.kind, storm, entry) as u32;
                entries.push((index, coefficient));
            }
        }
        if passed {
            for (color, moves) in evaluator.passed_moves(rules, &sample.position) {
                let sign = white_sign(color);
                let moves = (moves as usize).min(PassedTables::MOVES - 1);
                let index = passed_parameter(kinds, cells, moves) as u32;
                entries.push((index, (sign * (1.0 - endgame)) as f32));
                entries.push((index + 1, (sign * endgame) as f32));
            }
        }
        for (_, coefficient) in &mut entries[first..] {
            *coefficient = (f64::from(*coefficient) * scale) as f32;
        }
    }
    starts.push(entries.len());
    Features { starts, entries }
}

impl Features {
    /// The entries sample `i` reads.
    fn of(&self, i: usize) -> &[(u32, f32)] {
        &self.entries[self.starts[i]..self.starts[i + 1]]
    }

    /// Sample `i`'s evaluation `base` with the tables moved by `change`.
    fn moved(&self, i: usize, base: f64, change: &[f64]) -> f64 {
        let moved: f64 = self
            .of(i)
            .iter()
            .map(|&(j, coefficient)| f64::from(coefficient) * change[j as usize])
            .sum();
        base + moved
    }
}

/// The evaluations of every sample with the tables moved by `change`.
fn predictions(base: &[f64], features: &Features, change: &[f64]) -> Vec<f64> {
    base.iter()
        .enumerate()
        .map(|(i, &value)| features.moved(i, value, change))
        .collect()
}

/// The gradient of the mean squared error over `samples` with respect to
/// the change of every table entry, summed on one thread per processor.
fn gradient<P: Sync>(
    base: &[f64],
    features: &Features,
    samples: &[Sample<P>],
    change: &[f64],
    scale: f64,
) -> Vec<f64> {
    let threads = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    let chunk = samples.len().div_ceil(threads).max(1024);
    let parts: Vec<Vec<f64>> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..samples.len())
            .step_by(chunk)
            .map(|first| {
                scope.spawn(move || {
                    let mut sum = vec![0.0; change.len()];
                    for i in first..(first + chunk).min(samples.len()) {
                        let predicted = sigmoid(scale * features.moved(i, base[i], change));
                        let slope = -2.0
                            * (samples[i].white_score - predicted)
                            * predicted
                            * (1.0 - predicted)
                            * scale;
                        for &(j, coefficient) in features.of(i) {
                            sum[j as usize] += slope * f64::from(coefficient);
                        }
                    }
                    sum
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|worker| {
                worker
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
            .collect()
    });
    let count = samples.len().max(1) as f64;
    let mut total = vec![0.0; change.len()];
    for part in parts {
        for (t, p) in total.iter_mut().zip(part) {
            *t += p / count;
        }
    }
    for (t, c) in total.iter_mut().zip(change) {
        *t += 2.0 * L2 * c;
    }
    total
}

/// `variant` with its tables (zeros where it has none) moved by `change`,
/// rounded to centipawns.
fn with_change(variant: &Variant, change: &[f64]) -> Variant {
    let cells = usize::from(variant.board.files) * usize::from(variant.board.ranks);
    let mut moved = variant.clone();
    let (low, high) = WEIGHT_RANGE;
    for (kind, piece) in moved.pieces.iter_mut().enumerate() {
        let mut bonuses = piece.square_bonuses.clone().unwrap_or(SquareBonuses {
            middlegame: vec![0; cells],
            endgame: vec![0; cells],
        });
        // A model made by hand may have tables of another size.
        bonuses.middlegame.resize(cells, 0);
        bonuses.endgame.resize(cells, 0);
        for cell in 0..cells {
            let index = parameter(kind, cells, cell);
            let add = |old: i32, delta: f64| {
                (f64::from(old) + delta)
                    .round()
                    .clamp(f64::from(low), f64::from(high)) as i32
            };
            bonuses.middlegame[cell] = add(bonuses.middlegame[cell], change[index]);
            bonuses.endgame[cell] = add(bonuses.endgame[cell], change[index + 1]);
        }
        piece.square_bonuses = Some(bonuses);
    }
    let kinds = moved.pieces.len();
    for (kind, piece) in moved.pieces.iter_mut().enumerate() {
        let moves = |storm: bool| {
            let first = cover_parameter(kinds, cells, kind, storm, 0);
            &change[first..first + RoyalCover::CELLS]
        };
        let untouched = |storm: bool| moves(storm).iter().all(|&delta| delta == 0.0);
        if !piece.royal || (piece.royal_cover.is_none() && untouched(false) && untouched(true)) {
            continue;
        }
        let mut cover = piece.royal_cover.clone().unwrap_or(RoyalCover {
            own: vec![0; RoyalCover::CELLS],
            enemy: vec![0; RoyalCover::CELLS],
        });
        for (storm, table) in [(false, &mut cover.own), (true, &mut cover.enemy)] {
            table.resize(RoyalCover::CELLS, 0);
            for (value, &delta) in table.iter_mut().zip(moves(storm)) {
                *value = (f64::from(*value) + delta)
                    .round()
                    .clamp(f64::from(low), f64::from(high)) as i32;
            }
        }
        piece.royal_cover = Some(cover);
    }
    if let Some(tables) = &mut moved.passed_tables {
        for (phase, table) in [&mut tables.middlegame, &mut tables.endgame]
            .into_iter()
            .enumerate()
        {
            // Every count the fit moves gets its own entry.
            let last = PassedTables::at(table, PassedTables::MOVES as u32 - 1);
            table.resize(PassedTables::MOVES, last);
            for (moves, value) in table.iter_mut().enumerate() {
                let delta = change[passed_parameter(kinds, cells, moves) + phase];
                *value = (f64::from(*value) + delta)
                    .round()
                    .clamp(f64::from(low), f64::from(high)) as i32;
            }
        }
    }
    moved
}

/// `variant` with passed tables, the formula's where it has none, when
/// it has pawn-shaped kinds.
fn with_passed_tables(variant: &Variant) -> Variant {
    let mut tabled = variant.clone();
    if tabled.passed_tables.is_none() {
        tabled.passed_tables = Evaluator::new(variant).passed_formula(variant);
    }
    tabled
}

/// Fits the square tables of `variant` (whose rules are `rules`) to
/// `fitting`, with the scale `scale` of the scalar fit; `progress` hears
/// of each reading of the validation loss.
pub fn fit_squares<R: Rules + Sync>(
    rules: &R,
    variant: &Variant,
    fitting: &[Sample<R::Position>],
    validation: &[Sample<R::Position>],
    scale: f64,
    progress: &mut dyn FnMut(&str),
) -> SquareFit
where
    R::Position: Sync,
{
    // The losses to beat are the variant's own; the fit moves tables that
    // start from its formulas.
    let loss_before = loss_of(&evaluations(rules, variant, fitting), fitting, scale);
    let validation_before = loss_of(&evaluations(rules, variant, validation), validation, scale);
    let original = variant;
    let tabled = with_passed_tables(variant);
    let variant = &tabled;
    let evaluator = Evaluator::new(variant);
    let cells = usize::from(variant.board.files) * usize::from(variant.board.ranks);
    let parameters = parameter_count(variant.pieces.len(), cells);
    let base = evaluations(rules, variant, fitting);
    let checked_base = evaluations(rules, variant, validation);
    let fitting_features = features(rules, &evaluator, variant, fitting);
    let validation_features = features(rules, &evaluator, variant, validation);
    let mut change = vec![0.0; parameters];
    let (mut first_moment, mut second_moment) = (vec![0.0; parameters], vec![0.0; parameters]);
    let mut best = (change.clone(), validation_before);
    let mut stale = 0;
    let mut steps = 0;
    for step in 1..=MAX_STEPS {
        steps = step;
        let grad = gradient(&base, &fitting_features, fitting, &change, scale);
        for j in 0..parameters {
            first_moment[j] = BETA1 * first_moment[j] + (1.0 - BETA1) * grad[j];
            second_moment[j] = BETA2 * second_moment[j] + (1.0 - BETA2) * grad[j] * grad[j];
            let corrected_first = first_moment[j] / (1.0 - BETA1.powi(step as i32));
            let corrected_second = second_moment[j] / (1.0 - BETA2.powi(step as i32));
            change[j] -= LEARNING_RATE * corrected_first / (corrected_second.sqrt() + 1e-12);
        }
        if step % CHECK_EVERY != 0 {
            continue;
        }
        let checked = if validation.is_empty() {
            loss_of(
                &predictions(&base, &fitting_features, &change),
                fitting,
                scale,
            )
        } else {
            let predicted = predictions(&checked_base, &validation_features, &change);
            loss_of(&predicted, validation, scale)
        };
        progress(&format!(
            "square tables, step {step}: validation {checked:.6}"
        ));
        if checked < best.1 {
            best = (change.clone(), checked);
            stale = 0;
        } else {
            stale += 1;
            if stale >= PATIENCE {
                break;
            }
        }
    }
    let fitted = with_change(variant, &best.0);
    let kept = keep_if_gained(
        rules,
        original,
        fitted,
        fitting,
        validation,
        scale,
        (loss_before, validation_before),
    );
    SquareFit {
        variant: kept.variant,
        loss: kept.loss,
        validation: kept.validation,
        steps,
    }
}
