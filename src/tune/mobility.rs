//! Fitting mobility tables (`varc tune --mobility`): for every non-royal
//! kind, a middlegame and an endgame value per count of squares reached
//! ([`MobilityTables`]), in place of the evaluation's linear mobility term,
//! from which the fit starts.
//!
//! A table entry is linear in the evaluation: a piece of kind `k` that
//! reaches `n` squares adds `(1 - e) · middlegame[k][n] + e · endgame[k][n]`
//! for its side, where `e` is the position's [endgame
//! weight](Evaluator::endgame_weight), times the share of the evaluation
//! that endgame scaling keeps ([`Evaluator::scale`], read once, for the
//! side ahead before the fit). So the real evaluator labels every
//! position once, the squares each piece reaches are counted once (as the
//! evaluation counts them, [`Evaluator::visit_reaches`]), and a change of
//! the tables moves each evaluation by a known amount: the fit is
//! coordinate descent on the loss of `fit` (each pass, every fitted number
//! moves one step up or down if that lowers the loss; the steps halve when
//! a pass gains nothing), exact but for the evaluation's rounding of the
//! taper (under a centipawn a side), and cheap enough to run to
//! convergence.
//! Early stopping as for the scalar weights: the tables kept are those of
//! the pass with the lowest validation loss, and three passes without a
//! lower one end the fit. The losses reported are the real evaluator's
//! with the fitted tables, and a fit that does not lower the validation
//! loss changes nothing.
//!
//! **What is fitted, and why so.** Counts that few positions show would
//! otherwise be fitted to their noise (a queen reaching 25 squares, a rook
//! reaching none, in a few dozen positions), and a table that rises and
//! falls would have the search trade squares for nothing. Two rules keep
//! the tables sound:
//!
//! - *Monotone.* The numbers fitted are the table's steps, `t[n] - t[n-1]`,
//!   kept at 0 or more (or at their start, if that was lower): a piece
//!   that reaches one more square, all else equal, is never worth less.
//!   This is the shape of the tables of hand-written engines (Stockfish's
//!   classic evaluation) and of the linear term the fit starts from, and
//!   it makes a step move every count above it together, so a sparsely
//!   seen count is carried along by the well-seen counts below it.
//! - *Supported.* A table's steps are fitted only between the lowest and
//!   the highest count that at least [`MIN_SUPPORT`] positions show for
//!   the kind, each position counted by its share of the table's phase
//!   (its endgame weight for the endgame table, the rest for the
//!   middlegame table): an entry that a few dozen positions inform would
//!   learn their labels' noise. The entries beyond keep their start's
//!   steps and follow the last fitted entry.
//!
//! The entry of the count the most positions show (the pivot) anchors a
//! table: steps above it raise the counts above, steps below it lower the
//! counts below, and one more number, the table's level, moves every
//! entry. The level overlaps the kind's value and endgame value, but those
//! were fitted with the linear term, and a new shape shifts what they
//! should be: fitting the level here (measured on chess and Capablanca, it
//! lowers the validation loss) leaves the values as the scalar fit found
//! them.
//!
//! A fitted kind's tables are written up to the highest count the
//! positions show (a count beyond reads the last entry); a kind without a
//! step to fit keeps what it had (the linear term, or its tables).

use super::{evaluations, keep_if_gained, loss_of, sigmoid, Sample};
use varc_runtime::eval::Evaluator;
use varc_runtime::model::{Color, MobilityTables, PieceId, Variant};
use varc_runtime::position::SQUARE_COUNT;
use varc_runtime::rules::{CheckKinds, PieceReach, ReachVisitor, RoyalSurroundings, Rules};
use varc_runtime::weights::WEIGHT_RANGE;

/// Positions that must show a count of squares reached for a kind, each
/// counted by its share of a table's phase, before the table's entry for
/// it is fitted.
pub const MIN_SUPPORT: usize = 100;
/// Passes over every fitted number at most.
const MAX_PASSES: usize = 200;
/// Passes without a lower validation loss that end the fit.
const PATIENCE: usize = 3;
/// How far a fitted number moves at first, in centipawns (halved when a
/// pass gains nothing).
const FIRST_STEP: i32 = 4;

/// What the mobility fit found.
#[derive(Clone, Debug)]
pub struct MobilityFit {
    /// The variant with the fitted tables (unchanged where the fit did not
    /// lower the validation loss).
    pub variant: Variant,
    /// The loss on the fitting set before and after.
    pub loss: (f64, f64),
    /// The same on the validation set (`None` without validation samples).
    pub validation: Option<(f64, f64)>,
    /// Passes of coordinate descent made.
    pub passes: usize,
}

/// The non-royal pieces of one position as the evaluation sees them.
struct Reaches {
    /// The position's endgame weight, from 0 to 1.
    endgame: f64,
    /// The share of the evaluation endgame scaling keeps
    /// ([`Evaluator::scale`]): what a table entry's change moves it by.
    scale: f64,
    /// `(kind, White's, squares reached)` per non-royal piece.
    pieces: Vec<(PieceId, bool, usize)>,
}

/// Collects [`Reaches::pieces`].
struct Counter<'a> {
    evaluator: &'a Evaluator,
    pieces: Vec<(PieceId, bool, usize)>,
}

impl ReachVisitor for Counter<'_> {
    fn guards(&self) -> u64 {
        self.evaluator.guards()
    }

    fn piece(&mut self, piece: PieceReach) {
        if !self.evaluator.is_royal(piece.kind) {
            let count = (piece.safe_reach as usize).min(SQUARE_COUNT - 1);
            self.pieces
                .push((piece.kind, piece.color == Color::White, count));
        }
    }

    fn exposed(&mut self, _kind: PieceId, _color: Color) {}

    fn royal(&mut self, _royal: RoyalSurroundings) {}

    fn checks(&mut self, _color: Color, _kinds: CheckKinds) {}
}

/// The reaches of every sample, on one thread per processor.
fn reaches<R: Rules + Sync>(
    rules: &R,
    evaluator: &Evaluator,
    samples: &[Sample<R::Position>],
) -> Vec<Reaches>
where
    R::Position: Sync,
{
    super::on_threads(samples, |sample| {
        let mut counter = Counter {
            evaluator,
            pieces: Vec::new(),
        };
        evaluator.visit_reaches(rules, &sample.position, &mut counter);
        Reaches {
            endgame: f64::from(evaluator.endgame_weight(&sample.position)) / 256.0,
            scale: evaluator.scale(rules, &sample.position),
            pieces: counter.pieces,
        }
    })
}

/// Which entries of its table a fitted number moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Side {
    /// A step above the pivot: raising it raises the entries from its
    /// count on.
    Above,
    /// A step at or below the pivot: raising it lowers the entries below
    /// its count.
    Below,
    /// The table's level, the pivot's entry: every entry moves with it.
    Level,
}

/// One fitted number of a kind's table: the step from `count - 1` to
/// `count`, or the level (`count` the pivot).
#[derive(Clone, Copy, Debug)]
struct Knob {
    kind: PieceId,
    /// 0 middlegame, 1 endgame.
    phase: usize,
    count: usize,
    side: Side,
    /// The lowest value it may take.
    floor: i32,
}

impl Knob {
    /// How much the entry for `count` squares moves when the number rises
    /// by one: +1, -1 or 0.
    fn moves(&self, count: usize) -> f64 {
        match self.side {
            Side::Above if count >= self.count => 1.0,
            Side::Below if count < self.count => -1.0,
            Side::Level => 1.0,
            _ => 0.0,
        }
    }

    /// The entries of its table (of `length`) that it moves.
    fn entries(&self, length: usize) -> std::ops::Range<usize> {
        match self.side {
            Side::Above => self.count.min(length)..length,
            Side::Below => 0..self.count.min(length),
            Side::Level => 0..length,
        }
    }
}

/// Per knob, the samples whose evaluation it moves and by how much per
/// centipawn.
fn features(knobs: &[Knob], reaches: &[Reaches], kinds: usize) -> Vec<Vec<(u32, f32)>> {
    let mut by_kind: Vec<Vec<usize>> = vec![Vec::new(); kinds];
    for (index, knob) in knobs.iter().enumerate() {
        by_kind[knob.kind].push(index);
    }
    let mut lists = vec![Vec::new(); knobs.len()];
    let mut sums = vec![0.0f64; knobs.len()];
    let mut touched = Vec::new();
    for (sample, reach) in reaches.iter().enumerate() {
        for &(kind, white, count) in &reach.pieces {
            let sign = if white { 1.0 } else { -1.0 };
            for &index in by_kind.get(kind).map_or(&[][..], Vec::as_slice) {
                let knob = &knobs[index];
                let phase = if knob.phase == 0 {
                    1.0 - reach.endgame
                } else {
                    reach.endgame
                };
                let moved = knob.moves(count) * sign * phase * reach.scale;
                if moved != 0.0 {
                    if sums[index] == 0.0 {
                        touched.push(index);
                    }
                    sums[index] += moved;
                }
            }
        }
        for index in touched.drain(..) {
            // White's and Black's pieces may cancel out exactly.
            if sums[index] != 0.0 {
                lists[index].push((sample as u32, sums[index] as f32));
            }
            sums[index] = 0.0;
        }
    }
    lists
}

/// The squared error of one sample whose evaluation is `evaluation`.
fn error(sample: &Sample<impl Clone>, evaluation: f64, scale: f64) -> f64 {
    (sample.white_score - sigmoid(scale * evaluation)).powi(2)
}

/// Fits the mobility tables of `variant` (whose rules are `rules`) to
/// `fitting`, with the scale `scale` of the scalar fit; `progress` hears
/// of each pass.
pub fn fit_mobility<R: Rules + Sync>(
    rules: &R,
    variant: &Variant,
    fitting: &[Sample<R::Position>],
    validation: &[Sample<R::Position>],
    scale: f64,
    progress: &mut dyn FnMut(&str),
) -> MobilityFit
where
    R::Position: Sync,
{
    let evaluator = Evaluator::new(variant);
    let kinds = variant.pieces.len();
    let fitting_reaches = reaches(rules, &evaluator, fitting);
    let validation_reaches = reaches(rules, &evaluator, validation);
    // Per kind: the highest count any position shows (`None`: the kind is
    // not seen), and per phase how many fitting positions show each
    // count, each counted by its share of the phase (a middlegame
    // position says little about an endgame table).
    let mut highest: Vec<Option<usize>> = vec![None; kinds];
    let mut support: Vec<[Vec<f64>; 2]> = vec![[Vec::new(), Vec::new()]; kinds];
    for (index, reach) in fitting_reaches
        .iter()
        .chain(&validation_reaches)
        .enumerate()
    {
        let mut seen: Vec<(PieceId, usize)> = Vec::new();
        for &(kind, _, count) in &reach.pieces {
            let top = &mut highest[kind];
            *top = Some(top.map_or(count, |t| t.max(count)));
            if index < fitting_reaches.len() && !seen.contains(&(kind, count)) {
                seen.push((kind, count));
                let shares = [1.0 - reach.endgame, reach.endgame];
                for (counts, share) in support[kind].iter_mut().zip(shares) {
                    if counts.len() <= count {
                        counts.resize(count + 1, 0.0);
                    }
                    counts[count] += share;
                }
            }
        }
    }
    // The tables as they start: the evaluator's (the linear term's where
    // the kind has none), up to the highest count seen or the table's own
    // length.
    let mut tables: Vec<Option<[Vec<i32>; 2]>> = (0..kinds)
        .map(|kind| {
            let seen = highest[kind]?;
            let own = variant.pieces[kind]
                .mobility_tables
                .as_ref()
                .map_or(0, |t| t.middlegame.len().max(t.endgame.len()));
            let length = (seen + 1).max(own).min(SQUARE_COUNT);
            let entries = (0..length).map(|count| evaluator.mobility(kind, count));
            let (middlegame, endgame) = entries.map(|[m, e]| (m, e)).unzip();
            Some([middlegame, endgame])
        })
        .collect();
    let mut knobs = Vec::new();
    for kind in 0..kinds {
        let Some(table) = &tables[kind] else {
            continue;
        };
        for (phase, entries) in table.iter().enumerate() {
            let counts = &support[kind][phase];
            let supported: Vec<usize> = (0..counts.len())
                .filter(|&count| counts[count] >= MIN_SUPPORT as f64)
                .collect();
            let (Some(&low), Some(&high)) = (supported.first(), supported.last()) else {
                continue;
            };
            // The most supported count (the lowest of equals).
            let pivot = supported.iter().copied().fold(low, |best, count| {
                if counts[count] > counts[best] {
                    count
                } else {
                    best
                }
            });
            knobs.push(Knob {
                kind,
                phase,
                count: pivot,
                side: Side::Level,
                floor: i32::MIN,
            });
            for count in low + 1..=high {
                let start = entries[count] - entries[count - 1];
                knobs.push(Knob {
                    kind,
                    phase,
                    count,
                    side: if count > pivot {
                        Side::Above
                    } else {
                        Side::Below
                    },
                    floor: start.min(0),
                });
            }
        }
    }
    // A kind without a number to fit keeps what it had.
    for (kind, table) in tables.iter_mut().enumerate() {
        if !knobs.iter().any(|knob| knob.kind == kind) {
            *table = None;
        }
    }
    let fitting_features = features(&knobs, &fitting_reaches, kinds);
    let validation_features = features(&knobs, &validation_reaches, kinds);
    let base = evaluations(rules, variant, fitting);
    let checked_base = evaluations(rules, variant, validation);
    let loss_before = loss_of(&base, fitting, scale);
    let validation_before = loss_of(&checked_base, validation, scale);
    let (mut predicted, mut checked) = (base, checked_base);
    let mut sizes = vec![FIRST_STEP; knobs.len()];
    let fitting_count = fitting.len().max(1) as f64;
    let (low, high) = WEIGHT_RANGE;
    let mut best_loss = loss_before;
    let mut kept = (tables.clone(), validation_before);
    let (mut stale, mut passes) = (0, 0);
    while passes < MAX_PASSES && sizes.iter().any(|&s| s > 0) {
        passes += 1;
        let mut improved = false;
        for (index, knob) in knobs.iter().enumerate() {
            if sizes[index] == 0 {
                continue;
            }
            let Some(table) = tables[knob.kind].as_mut() else {
                continue;
            };
            let entries = &mut table[knob.phase];
            let value = match knob.side {
                Side::Level => entries[knob.count],
                _ => entries[knob.count] - entries[knob.count - 1],
            };
            for direction in [1, -1] {
                let moved = (value + direction * sizes[index]).max(knob.floor);
                let delta = moved - value;
                if delta == 0 {
                    continue;
                }
                // The entries it moves stay where a weights file may have
                // them.
                let shift = match knob.side {
                    Side::Above | Side::Level => delta,
                    Side::Below => -delta,
                };
                let range = knob.entries(entries.len());
                if entries[range.clone()]
                    .iter()
                    .any(|&e| !(low..=high).contains(&(e + shift)))
                {
                    continue;
                }
                let change: f64 = fitting_features[index]
                    .iter()
                    .map(|&(i, coefficient)| {
                        let i = i as usize;
                        let now = predicted[i];
                        let then = now + f64::from(delta) * f64::from(coefficient);
                        error(&fitting[i], then, scale) - error(&fitting[i], now, scale)
                    })
                    .sum::<f64>()
                    / fitting_count;
                if change < 0.0 {
                    for &(i, coefficient) in &fitting_features[index] {
                        predicted[i as usize] += f64::from(delta) * f64::from(coefficient);
                    }
                    for &(i, coefficient) in &validation_features[index] {
                        checked[i as usize] += f64::from(delta) * f64::from(coefficient);
                    }
                    entries[range].iter_mut().for_each(|e| *e += shift);
                    best_loss += change;
                    improved = true;
                    break;
                }
            }
        }
        if !improved {
            sizes.iter_mut().for_each(|s| *s /= 2);
        }
        let validation_loss = if validation.is_empty() {
            best_loss
        } else {
            loss_of(&checked, validation, scale)
        };
        if validation_loss < kept.1 {
            kept = (tables.clone(), validation_loss);
            stale = 0;
        } else {
            stale += 1;
            if stale >= PATIENCE {
                break;
            }
        }
        progress(&format!(
            "mobility tables, pass {passes}: loss {best_loss:.6}, validation {:.6}",
            kept.1
        ));
    }
    let mut fitted = variant.clone();
    for (piece, table) in fitted.pieces.iter_mut().zip(kept.0) {
        if let Some([middlegame, endgame]) = table {
            piece.mobility_tables = Some(MobilityTables {
                middlegame,
                endgame,
            });
        }
    }
    let kept = keep_if_gained(
        rules,
        variant,
        fitted,
        fitting,
        validation,
        scale,
        (loss_before, validation_before),
    );
    MobilityFit {
        variant: kept.variant,
        loss: kept.loss,
        validation: kept.validation,
        passes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fitted_number_moves_the_counts_on_its_side_of_the_pivot() {
        let knob = |count, side| Knob {
            kind: 0,
            phase: 0,
            count,
            side,
            floor: 0,
        };
        let above = knob(5, Side::Above);
        let moved: Vec<f64> = (3..8).map(|n| above.moves(n)).collect();
        assert_eq!(moved, [0.0, 0.0, 1.0, 1.0, 1.0]);
        assert_eq!(above.entries(9), 5..9);
        let below = knob(2, Side::Below);
        let moved: Vec<f64> = (0..4).map(|n| below.moves(n)).collect();
        assert_eq!(moved, [-1.0, -1.0, 0.0, 0.0]);
        assert_eq!(below.entries(9), 0..2);
        let level = knob(4, Side::Level);
        assert!((0..9).all(|n| level.moves(n) == 1.0));
        assert_eq!(level.entries(9), 0..9);
    }

    #[test]
    fn features_sum_both_sides_pieces_by_phase() {
        // A step of kind 0 above count 3 (middlegame) and one below count 2
        // (endgame); a position a quarter into the endgame, White's piece of
        // kind 0 reaching 4 squares and Black's reaching 1.
        let knobs = [
            Knob {
                kind: 0,
                phase: 0,
                count: 3,
                side: Side::Above,
                floor: 0,
            },
            Knob {
                kind: 0,
                phase: 1,
                count: 2,
                side: Side::Below,
                floor: 0,
            },
        ];
        let reaches = [Reaches {
            endgame: 0.25,
            scale: 0.5,
            pieces: vec![(0, true, 4), (0, false, 1), (1, true, 9)],
        }];
        let lists = features(&knobs, &reaches, 2);
        // The middlegame's share, halved by the endgame scaling.
        assert_eq!(lists[0], [(0, 0.375)]);
        // Black's piece below count 2 loses when the step rises: White gains.
        assert_eq!(lists[1], [(0, 0.125)]);
    }
}
