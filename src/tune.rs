//! Fitting the evaluation's weights from self-play (`varc tune`), by the
//! method Texel made known: each position of a finished game is labelled
//! with the game's result for White (1, ½, 0; a share of the scores under
//! other scoring), and the weights are chosen to minimise the mean squared
//! difference between the labels and `σ(k · eval)`, the evaluation mapped
//! to an expected score (`σ(x) = 1 / (1 + e^-x)`).
//!
//! What is fitted: the scalar weights of [`EvaluationWeights`] and the
//! material value and endgame value of every non-royal kind, and on request
//! the mobility tables ([`fit_mobility`]) and the square tables
//! ([`fit_squares`]), in that order, each from the fit before it (the
//! mobility tables first: they replace a term the square tables would
//! otherwise partly stand in for); `k` is fitted first, for the
//! weights the search ran with, and then kept. The search is coordinate
//! descent with the real evaluator (no linearisation, so terms that are not
//! linear in a weight, such as mobility through a kind's value, are fitted
//! as they are used): in each pass every weight in turn moves one step up
//! or down if that lowers the loss, and the steps halve when a pass gains
//! nothing.
//! The fit stops early on the validation set: the weights kept are those
//! after the pass with the lowest validation loss, and two passes without a
//! lower one end it (so a fit that would only learn its own games keeps the
//! weights it started from).
//!
//! Positions come from games played with [`crate::selfplay::play_game`],
//! from recorded games ([`record_samples`]), or ready labelled from a file
//! ([`labelled_fens`]: another engine's judgement of each position, say).
//! From games, they are those after the opening, where the side to move is
//! not in check and the move played neither captures nor promotes (the
//! evaluation is a judgement of quiet positions). Every tenth game (or
//! block of consecutive labelled positions, see [`labelled_fens`]) is kept
//! apart as a validation set, whose loss is reported before and after.

mod mobility;
mod network;
mod positions;
mod squares;

pub use mobility::{fit_mobility, MobilityFit, MIN_SUPPORT};
pub use network::{fit_network, NetworkFit, NetworkSettings};
pub use positions::{labelled_fens, PositionTally};
pub use squares::{fit_squares, SquareFit};

use crate::selfplay::{play_game, Settings};
use varc_runtime::board::Board;
use varc_runtime::eval::{Evaluator, PAWN};
use varc_runtime::game::record::{load_record, parse_score_text};
use varc_runtime::game::{Action, Game};
use varc_runtime::model::{Color, Variant};
use varc_runtime::rules::Rules;
use varc_runtime::weights::{
    EvaluationWeights, CENTIPAWN_WEIGHTS, WEIGHT_COUNT, WEIGHT_NAMES, WEIGHT_RANGE,
};

/// A labelled position.
#[derive(Clone, Debug)]
pub struct Sample<P> {
    /// The position (any side to move).
    pub position: P,
    /// The game's result for White, from 0 (lost) to 1 (won).
    pub white_score: f64,
}

/// The labelled quiet positions of a finished game, after its first
/// `skip_plies` plies (none if the game has no result).
pub fn samples_of_game<R: Rules>(game: &Game<R>, skip_plies: u32) -> Vec<Sample<R::Position>> {
    match game.result() {
        Some(result) => labelled_positions(game, result.scores, skip_plies),
        None => Vec::new(),
    }
}

/// White's share of the scores (½ where both are 0).
fn white_share(scores: [f64; 2]) -> f64 {
    let total = scores[0] + scores[1];
    if total > 0.0 {
        (scores[0] / total).clamp(0.0, 1.0)
    } else {
        0.5
    }
}

/// The quiet positions of `game` after its first `skip_plies` plies,
/// labelled with White's share of `scores` (the game's result, or one
/// decided off the board).
pub fn labelled_positions<R: Rules>(
    game: &Game<R>,
    scores: [f64; 2],
    skip_plies: u32,
) -> Vec<Sample<R::Position>> {
    let white_score = white_share(scores);
    let rules = game.rules();
    game.steps()
        .iter()
        .skip(skip_plies as usize)
        .filter_map(|step| {
            let Action::Move(mv) = &step.action else {
                return None;
            };
            let position = step.position_before();
            let tactical =
                rules.captured_kind(position, mv).is_some() || rules.promotion(mv).is_some();
            (!tactical && !rules.in_check(position)).then(|| Sample {
                position: position.clone(),
                white_score,
            })
        })
        .collect()
}

/// The positions of a run, for fitting and for validation.
#[derive(Clone, Debug)]
pub struct Samples<P> {
    /// The positions the weights are fitted to.
    pub fitting: Vec<Sample<P>>,
    /// The positions of every tenth game (or block of labelled
    /// positions), kept apart.
    pub validation: Vec<Sample<P>>,
}

/// Samples from self-play: every game of `settings`, split into the
/// fitting set and the validation set, played on `threads` threads (game
/// `i` is the same game whichever thread plays it, and the samples come in
/// game order). `progress` is called after each game.
pub fn collect_samples<R: Rules + Clone + Sync>(
    rules: &R,
    settings: &Settings,
    threads: usize,
    progress: &(dyn Fn() + Sync),
) -> Samples<R::Position>
where
    R::Position: Send,
{
    let threads = threads.clamp(1, settings.games.max(1) as usize);
    let mut per_game: Vec<(u32, Vec<Sample<R::Position>>)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|worker| {
                scope.spawn(move || {
                    (0..settings.games)
                        .filter(|index| *index as usize % threads == worker)
                        .map(|index| {
                            let played = play_game(rules, settings, index);
                            progress();
                            (index, samples_of_game(&played.game, settings.opening_plies))
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|worker| {
                worker
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
            .collect()
    });
    per_game.sort_by_key(|(index, _)| *index);
    let mut samples = Samples {
        fitting: Vec::new(),
        validation: Vec::new(),
    };
    for (index, game) in per_game {
        if index % 10 == 9 {
            samples.validation.extend(game);
        } else {
            samples.fitting.extend(game);
        }
    }
    samples
}

/// The games of recorded `texts` (each text one or more records, see
/// [`split_records`]) as samples: every tenth game kept apart for
/// validation, `skip_plies` plies of each game left out. A game without a
/// result (`*`) gives none; a record that does not load is refused with
/// its place (`name`, game number, line) and left out.
pub fn record_samples<R: Rules + Clone>(
    rules: &R,
    texts: &[(String, String)],
    skip_plies: u32,
) -> (Samples<R::Position>, RecordTally) {
    let mut samples = Samples {
        fitting: Vec::new(),
        validation: Vec::new(),
    };
    let mut tally = RecordTally::default();
    for (name, text) in texts {
        for (number, (line, record)) in split_records(text).into_iter().enumerate() {
            let loaded = match load_record(rules.clone(), record) {
                Ok(loaded) => loaded,
                Err(error) => {
                    tally.refused.push(format!(
                        "{name}: game {} (line {line}): {error}",
                        number + 1
                    ));
                    continue;
                }
            };
            let scores = match loaded.game.result() {
                Some(result) => Some(result.scores),
                None => loaded.off_board.as_deref().and_then(parse_score_text),
            };
            let Some(scores) = scores else {
                tally.unfinished += 1;
                continue;
            };
            let game = labelled_positions(&loaded.game, scores, skip_plies);
            if tally.games % 10 == 9 {
                samples.validation.extend(game);
            } else {
                samples.fitting.extend(game);
            }
            tally.games += 1;
        }
    }
    (samples, tally)
}

/// What reading records found.
#[derive(Clone, Debug, Default)]
pub struct RecordTally {
    /// Games with a result, used.
    pub games: usize,
    /// Games without a result (`*`), not used.
    pub unfinished: usize,
    /// Records that did not load, each with where and why.
    pub refused: Vec<String>,
}

/// The records of a text holding one or more, each with its first line
/// (1-based): a record ends where a tag line follows its moves.
pub fn split_records(text: &str) -> Vec<(usize, &str)> {
    let mut records = Vec::new();
    let (mut start, mut first_line, mut in_moves) = (0, 1, false);
    let mut offset = 0;
    for (index, line) in text.split_inclusive('\n').enumerate() {
        let trimmed = line.trim_start();
        if trimmed.starts_with('[') {
            if in_moves {
                records.push((first_line, &text[start..offset]));
                (start, first_line, in_moves) = (offset, index + 1, false);
            }
        } else if !trimmed.is_empty() {
            in_moves = true;
        }
        offset += line.len();
    }
    if !text[start..].trim().is_empty() {
        records.push((first_line, &text[start..]));
    }
    records
}

/// A fitted set of weights.
#[derive(Clone, Debug)]
pub struct Fit {
    /// The variant with the fitted weights and piece values.
    pub variant: Variant,
    /// `k`, per centipawn.
    pub scale: f64,
    /// The loss on the fitting set with the weights the search ran with.
    pub loss_before: f64,
    /// The loss on the fitting set after fitting.
    pub loss_after: f64,
    /// The same on the validation set (`None` without validation samples).
    pub validation: Option<(f64, f64)>,
}

/// One weight the fit moves.
#[derive(Clone, Copy, Debug)]
enum Knob {
    /// A scalar weight, by its index in [`WEIGHT_NAMES`].
    Weight(usize),
    /// A non-royal kind's value, in centipawns.
    Value(usize),
    /// A non-royal kind's endgame value, in centipawns.
    EndgameValue(usize),
}

/// The weights of `variant` as the fit moves them, in centipawns or
/// percent.
#[derive(Clone, Debug, PartialEq)]
struct Point {
    weights: [i32; WEIGHT_COUNT],
    values: Vec<i32>,
    endgame_values: Vec<i32>,
}

impl Point {
    fn of(variant: &Variant) -> Point {
        let evaluator = Evaluator::new(variant);
        Point {
            weights: variant.evaluation.as_array(),
            values: (0..variant.pieces.len())
                .map(|kind| evaluator.value(kind))
                .collect(),
            endgame_values: (0..variant.pieces.len())
                .map(|kind| evaluator.endgame_value(kind))
                .collect(),
        }
    }

    fn get(&self, knob: Knob) -> i32 {
        match knob {
            Knob::Weight(i) => self.weights[i],
            Knob::Value(kind) => self.values[kind],
            Knob::EndgameValue(kind) => self.endgame_values[kind],
        }
    }

    fn set(&mut self, knob: Knob, value: i32) {
        match knob {
            Knob::Weight(i) => self.weights[i] = value.clamp(WEIGHT_RANGE.0, WEIGHT_RANGE.1),
            Knob::Value(kind) => self.values[kind] = value.clamp(1, MAX_VALUE_CP),
            Knob::EndgameValue(kind) => {
                self.endgame_values[kind] = value.clamp(1, MAX_VALUE_CP);
            }
        }
    }

    /// `base` with these weights and values.
    fn variant(&self, base: &Variant) -> Variant {
        let mut variant = base.clone();
        variant.evaluation = EvaluationWeights::from_array(self.weights);
        let pawns = |centipawns: i32| Some(f64::from(centipawns) / f64::from(PAWN));
        for (kind, piece) in variant.pieces.iter_mut().enumerate() {
            if !piece.royal {
                piece.value = pawns(self.values[kind]);
                piece.endgame_value = pawns(self.endgame_values[kind]);
            }
        }
        variant
    }
}

/// Passes over every weight at most.
const MAX_PASSES: usize = 100;

/// The highest value the fit gives a kind, in centipawns.
const MAX_VALUE_CP: i32 = (varc_runtime::model::MAX_PIECE_VALUE as i32) * PAWN;

/// The first step of each kind of weight: percent weights, centipawn
/// weights, piece values.
fn first_step(knob: Knob) -> i32 {
    match knob {
        Knob::Weight(i) if CENTIPAWN_WEIGHTS.contains(&WEIGHT_NAMES[i]) => 4,
        Knob::Weight(_) | Knob::Value(_) | Knob::EndgameValue(_) => 20,
    }
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The White evaluations of `samples` under `variant`'s weights, on one
/// thread per processor.
fn evaluations<R: Rules + Sync>(
    rules: &R,
    variant: &Variant,
    samples: &[Sample<R::Position>],
) -> Vec<f64>
where
    R::Position: Sync,
{
    let evaluator = Evaluator::new(variant);
    on_threads(samples, |sample| {
        // The tempo goes to the side to move, as the search sees it.
        let white = evaluator.evaluate_white(rules, &sample.position);
        let tempo = match sample.position.side_to_move() {
            Color::White => variant.evaluation.tempo,
            Color::Black => -variant.evaluation.tempo,
        };
        f64::from(white + tempo)
    })
}

/// `each` of every item, in order, on one thread per processor (1,024
/// items a thread at least).
fn on_threads<T: Sync, U: Send>(items: &[T], each: impl Fn(&T) -> U + Sync) -> Vec<U> {
    let threads = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    let chunk = items.len().div_ceil(threads).max(1024);
    let each = &each;
    std::thread::scope(|scope| {
        let parts: Vec<_> = items
            .chunks(chunk)
            .map(|part| scope.spawn(move || part.iter().map(each).collect::<Vec<U>>()))
            .collect();
        parts
            .into_iter()
            .flat_map(|part| {
                part.join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
            .collect()
    })
}

/// What a table fit ([`fit_squares`], [`fit_mobility`]) ends with: the
/// fitted variant and its losses (fitting, then validation, before and
/// after) when it lowers the validation loss (the fitting loss without
/// validation positions), else `variant` unchanged.
struct KeptFit {
    variant: Variant,
    loss: (f64, f64),
    validation: Option<(f64, f64)>,
}

fn keep_if_gained<R: Rules + Sync>(
    rules: &R,
    variant: &Variant,
    fitted: Variant,
    fitting: &[Sample<R::Position>],
    validation: &[Sample<R::Position>],
    scale: f64,
    (loss_before, validation_before): (f64, f64),
) -> KeptFit
where
    R::Position: Sync,
{
    let loss_after = loss_of(&evaluations(rules, &fitted, fitting), fitting, scale);
    let validation_after = loss_of(&evaluations(rules, &fitted, validation), validation, scale);
    let gained = if validation.is_empty() {
        loss_after < loss_before
    } else {
        validation_after < validation_before
    };
    let (variant, loss, checked) = if gained {
        (
            fitted,
            (loss_before, loss_after),
            (validation_before, validation_after),
        )
    } else {
        (
            variant.clone(),
            (loss_before, loss_before),
            (validation_before, validation_before),
        )
    };
    KeptFit {
        variant,
        loss,
        validation: (!validation.is_empty()).then_some(checked),
    }
}

fn loss_of(evaluations: &[f64], samples: &[Sample<impl Clone>], scale: f64) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let sum: f64 = evaluations
        .iter()
        .zip(samples)
        .map(|(e, s)| (s.white_score - sigmoid(scale * e)).powi(2))
        .sum();
    sum / samples.len() as f64
}

/// The `k` that fits the evaluations best (a golden-section search; the
/// loss is unimodal in `k`).
fn fit_scale(evaluations: &[f64], samples: &[Sample<impl Clone>]) -> f64 {
    let (mut low, mut high) = (0.0_f64, 0.05_f64);
    let ratio = (5.0_f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let a = high - ratio * (high - low);
        let b = low + ratio * (high - low);
        if loss_of(evaluations, samples, a) < loss_of(evaluations, samples, b) {
            high = b;
        } else {
            low = a;
        }
    }
    (low + high) / 2.0
}

/// The `k` that fits `variant`'s evaluations of `samples` best (or
/// `scale`, where given), and the loss of `samples` and of `validation`
/// with it: where the weights are kept as they are (`varc tune
/// --network-only`).
pub fn unfitted<R: Rules + Sync>(
    rules: &R,
    variant: &Variant,
    samples: &[Sample<R::Position>],
    validation: &[Sample<R::Position>],
    scale: Option<f64>,
) -> Fit
where
    R::Position: Sync,
{
    let values = evaluations(rules, variant, samples);
    let scale = scale.unwrap_or_else(|| fit_scale(&values, samples));
    let loss = loss_of(&values, samples, scale);
    let checked = loss_of(&evaluations(rules, variant, validation), validation, scale);
    Fit {
        variant: variant.clone(),
        scale,
        loss_before: loss,
        loss_after: loss,
        validation: (!validation.is_empty()).then_some((checked, checked)),
    }
}

/// Fits the weights of `variant` (whose rules are `rules`) to `fitting`,
/// save the scalar weights named in `fixed` (indices into
/// [`WEIGHT_NAMES`]), which keep their values; `progress` hears of each
/// pass. The logistic scale `k` is `scale` where given, else the one that
/// fits the starting weights best: a given one holds the fitted
/// centipawns to the win chances the search's margins were set for.
pub fn fit<R: Rules + Sync>(
    rules: &R,
    variant: &Variant,
    fitting: &[Sample<R::Position>],
    validation: &[Sample<R::Position>],
    fixed: &[usize],
    scale: Option<f64>,
    progress: &mut dyn FnMut(&str),
) -> Fit
where
    R::Position: Sync,
{
    let start = Point::of(variant);
    let scale = scale.unwrap_or_else(|| fit_scale(&evaluations(rules, variant, fitting), fitting));
    let loss = |point: &Point| {
        let candidate = point.variant(variant);
        loss_of(&evaluations(rules, &candidate, fitting), fitting, scale)
    };
    let mut knobs: Vec<Knob> = (0..WEIGHT_NAMES.len())
        .filter(|i| !fixed.contains(i))
        .map(Knob::Weight)
        .collect();
    let pieces = (0..variant.pieces.len()).filter(|&kind| !variant.pieces[kind].royal);
    knobs.extend(pieces.clone().map(Knob::Value));
    knobs.extend(pieces.map(Knob::EndgameValue));
    let validation_loss = |point: &Point| {
        let candidate = point.variant(variant);
        loss_of(
            &evaluations(rules, &candidate, validation),
            validation,
            scale,
        )
    };
    let mut steps: Vec<i32> = knobs.iter().map(|&k| first_step(k)).collect();
    let mut best = start.clone();
    let loss_before = loss(&best);
    let mut best_loss = loss_before;
    // Early stopping: the weights kept are those of the pass with the
    // lowest validation loss; two passes without a better one end the fit.
    let validation_before = validation_loss(&start);
    let mut kept = (start.clone(), best_loss, validation_before);
    let mut stale_passes = 0;
    let mut pass = 0;
    while steps.iter().any(|&s| s > 0) && pass < MAX_PASSES {
        pass += 1;
        let mut improved = false;
        for (i, &knob) in knobs.iter().enumerate() {
            if steps[i] == 0 {
                continue;
            }
            for direction in [1, -1] {
                let mut candidate = best.clone();
                candidate.set(knob, best.get(knob) + direction * steps[i]);
                if candidate == best {
                    continue;
                }
                let candidate_loss = loss(&candidate);
                if candidate_loss < best_loss {
                    (best, best_loss, improved) = (candidate, candidate_loss, true);
                    break;
                }
            }
        }
        if !improved {
            steps.iter_mut().for_each(|s| *s /= 2);
        }
        if validation.is_empty() {
            kept = (best.clone(), best_loss, 0.0);
        } else {
            let checked = validation_loss(&best);
            if checked < kept.2 {
                kept = (best.clone(), best_loss, checked);
                stale_passes = 0;
            } else {
                stale_passes += 1;
                if stale_passes >= 2 {
                    break;
                }
            }
        }
        progress(&format!(
            "pass {pass}: loss {best_loss:.6}, validation {:.6}",
            kept.2
        ));
    }
    let (point, loss_after, validation_after) = kept;
    Fit {
        variant: point.variant(variant),
        scale,
        loss_before,
        loss_after,
        validation: (!validation.is_empty()).then_some((validation_before, validation_after)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(white_score: f64) -> Sample<()> {
        Sample {
            position: (),
            white_score,
        }
    }

    #[test]
    fn the_scale_fits_evaluations_that_predict_results() {
        // White wins where it is ahead by 200 and loses where it is behind.
        let samples = [sample(1.0), sample(0.0), sample(1.0), sample(0.0)];
        let evaluations = [200.0, -200.0, 100.0, -100.0];
        let scale = fit_scale(&evaluations, &samples);
        assert!(
            scale > 0.04,
            "a sharp scale fits a perfect predictor: {scale}"
        );
        let flat = loss_of(&evaluations, &samples, 0.0);
        assert!((flat - 0.25).abs() < 1e-12);
        assert!(loss_of(&evaluations, &samples, scale) < flat);
    }

    #[test]
    fn noise_gives_a_flat_scale() {
        let samples = [sample(1.0), sample(0.0), sample(0.0), sample(1.0)];
        let evaluations = [200.0, 200.0, -200.0, -200.0];
        assert!(fit_scale(&evaluations, &samples) < 1e-6);
    }
}
