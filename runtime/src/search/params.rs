//! The search's tunable numbers: the margins, depths and reduction
//! constants of its pruning and reduction rules, in one place so that a
//! tuner can set them by name (UCI `setoption`, see [`crate::uci`]) and
//! fit them from games (`bench/spsa.py`, described in the README's tuning
//! section). The defaults are the values the search plays with.

use crate::model::Variant;

/// The environment variable under which `uci` lists the numbers as spin
/// options (a tuner's engines only: they would crowd a GUI's dialog).
pub const TUNING_VARIABLE: &str = "VARC_TUNE";

/// Depths and move counts below this read the reduction from a table.
const REDUCTION_TABLE_SIZE: usize = 64;

/// The search's tunable numbers. Margins are in centipawns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchParams {
    /// Reverse futility: at most this depth, cut when the static value
    /// is above beta by the margin per ply.
    pub reverse_futility_depth: i32,
    pub reverse_futility_margin: i32,
    /// Futility: at most this depth (after the move's reduction), quiet
    /// moves are skipped when the static value plus the margin per ply is
    /// at most alpha.
    pub futility_depth: i32,
    pub futility_margin: i32,
    /// Exchange pruning: at most this depth, a quiet move losing more than
    /// the quiet margin times the square of the depth left after its
    /// reduction, or a capture losing more than the capture margin per
    /// ply, is skipped.
    pub exchange_pruning_depth: i32,
    pub exchange_quiet_margin: i32,
    pub exchange_capture_margin: i32,
    /// Late move pruning: at most this depth, quiet moves after the first
    /// `(base + depth²) / 2` (half that where the side is not improving)
    /// are skipped.
    pub late_move_pruning_depth: i32,
    pub late_move_base: i32,
    /// Singular extensions: from this depth, with the margin below the
    /// hash entry's value per ply.
    pub singular_depth: i32,
    pub singular_margin: i32,
    /// Internal iterative reduction: from this depth.
    pub iir_depth: i32,
    /// Late move reductions: `base + ln(depth) ln(moves) / divisor`, both
    /// in hundredths; a ply less or more per this much history.
    pub reduction_base: i32,
    pub reduction_divisor: i32,
    pub history_reduction_divisor: i32,
    /// Late move reductions: plies more where the side to move is not
    /// improving on its static value of two plies before.
    pub reduction_not_improving: i32,
    /// Late move reductions: plies more at cut nodes.
    pub reduction_cut_node: i32,
    /// Late move reductions also at nodes in check (1, else 0).
    pub reduction_in_check: i32,
    /// Late move reductions also for moves that give check (1, else 0).
    pub reduction_checks: i32,
    /// Check extension only for checks that do not lose material by the
    /// exchange (1), or for every check (0).
    pub check_extension_safe: i32,
    /// Null move: reduced by `base + depth / divisor` plies; a cut from
    /// the verification depth on is verified.
    pub null_reduction_base: i32,
    pub null_reduction_divisor: i32,
    pub null_verify_depth: i32,
    /// Null move: a ply more per this much (centipawns) the static value
    /// is above beta, at most three (0: none).
    pub null_reduction_eval: i32,
    /// Late move reductions: plies less off the principal variation at
    /// nodes that were on it in an earlier search (the table says so).
    pub reduction_tt_pv: i32,
    /// The first aspiration window's half width.
    pub aspiration_window: i32,
    /// Correction history ([`super::correction`]): percent of the pawn
    /// table's entry, and of the mean of the two sides' other-piece
    /// tables' entries, added to the static value (0 and 0: none).
    pub correction: i32,
    pub correction_pieces: i32,
    /// A position that repeats one of the search's own line (with no
    /// irreversible move between) counts as repeated as often as any
    /// repetition rule asks (1), or only as often as it occurred (0).
    pub repetition_in_line: i32,
    /// Quiescence stands on the table's value where the entry's bound says
    /// more than the static value does (1, Stockfish's), or on the static
    /// value alone (0): +30 (+9 to +51) Elo over 800 games of chess at
    /// 10,000 nodes a move.
    pub quiescence_tt_stand: i32,
    /// Late move reductions: from the move of this index (from 0) on.
    pub reduction_from: i32,
    /// Late move reductions: plies less at principal variation nodes.
    pub reduction_pv: i32,
    /// The aspiration loop: Stockfish's (1: the window moves to the value
    /// found and grows by a quarter, a fail high is searched again a ply
    /// shallower), or the window widened on the side that failed, three
    /// times as wide each time (0).
    pub aspiration_stockfish: i32,
}

/// The defaults were fitted by `bench/spsa.py` (2026-12-04: 1,000 game
/// pairs at 8,000 nodes a move, chess and Capablanca alternating) from the
/// values set by hand before (reverse futility 90, futility 120, exchange
/// margins 16 and 150, late move base 3, singular margin 2, reductions
/// 0.75 + ln ln / 1.80, history divisor 8192, aspiration window 40), the
/// numbers left at their values not tuned; against those, at 20,000 nodes a
/// move, they scored +29 Elo in chess and +89 in Capablanca (README,
/// "Tuning the search"). The reduction where not improving came later
/// and stays at 0: a ply of it scored +19 in chess over 240 games and -12
/// in Capablanca over 120 (fourteenth session), no gain shown. The check
/// extension's exchange test scored +36 in chess over 240 games and +12
/// in Capablanca over 200; two plies at cut nodes scored 0 in chess
/// (fifteenth session; README, "Playing strength"). Reductions at nodes
/// in check scored +32 in chess and +29 in Capablanca over 120 games
/// each; reductions of checking moves +38 in chess and -35 in Capablanca,
/// so they are off here and on in `variants/chess.weights` (`search
/// reduction_checks = 1`; sixteenth session). Correction history's pawn
/// table alone scored +29 in chess and -6 in Capablanca over 120 games
/// each; half of it and half of the other pieces' tables, against the
/// pawn table alone, +20 and 0 (seventeenth session). A ply less of
/// reduction at nodes the table marks as on the principal variation
/// scored +44 in chess and +44 in Capablanca over 120 games each at
/// 100 ms a move; the null move's ply per 200 centipawns above beta +20
/// at 50 ms, no gain shown, so it stays off (twenty-first session). In
/// chess, on top of verifying null move cuts from depth 16 only (+20 over
/// 240 games at 50 and 100 ms), it scored +23 over 120 more: chess's
/// weights file sets both (twenty-second session); Capablanca's
/// verification from depth 16 scored -12 over 120, so the defaults stay.
/// Reading a repetition within the search's line as the rule's ending
/// (`repetition_in_line`) scored +16 in chess over 800 games at 10,000
/// nodes and -6 over 120 at 50 ms (twenty-fifth session): on, as engines
/// read repetitions, since it finds a perpetual check plies sooner.
/// Reducing from the second move (`reduction_from` 1, Stockfish's) and two
/// plies less at principal variation nodes (`reduction_pv` 2) scored +17
/// and +14 in chess over 120 games each at 25,000 nodes, together -28
/// over 240; a fit of both with fourteen other numbers at 25,000 nodes
/// (650 pairs) +6 over 120: none kept (thirty-sixth session). Stockfish's
/// aspiration loop (`aspiration_stockfish`) scored +8 in chess over 480
/// games at 25,000 nodes and +44 in Capablanca over 360 at 20,000: on
/// in Capablanca's weights file (fortieth session). Off by default: with
/// it, a chess test at a fixed depth found a longer mate than without
/// (`tests/search_pruning.rs`), for a reason still to be found.
impl Default for SearchParams {
    fn default() -> Self {
        SearchParams {
            reverse_futility_depth: 6,
            reverse_futility_margin: 86,
            futility_depth: 3,
            futility_margin: 168,
            exchange_pruning_depth: 8,
            exchange_quiet_margin: 20,
            exchange_capture_margin: 134,
            late_move_pruning_depth: 7,
            late_move_base: 5,
            singular_depth: 6,
            singular_margin: 4,
            iir_depth: 4,
            reduction_base: 88,
            reduction_divisor: 175,
            history_reduction_divisor: 9788,
            reduction_not_improving: 0,
            reduction_cut_node: 1,
            reduction_in_check: 1,
            reduction_checks: 0,
            check_extension_safe: 1,
            null_reduction_base: 3,
            null_reduction_divisor: 4,
            null_verify_depth: 7,
            null_reduction_eval: 0,
            reduction_tt_pv: 1,
            aspiration_window: 23,
            correction: 50,
            correction_pieces: 50,
            repetition_in_line: 1,
            quiescence_tt_stand: 1,
            reduction_from: 3,
            reduction_pv: 1,
            aspiration_stockfish: 0,
        }
    }
}

/// One tunable number: its name (as `setoption` takes it), its range, and
/// where it lives.
pub struct Param {
    pub name: &'static str,
    pub min: i32,
    pub max: i32,
    read: fn(&SearchParams) -> i32,
    field: fn(&mut SearchParams) -> &mut i32,
}

macro_rules! params {
    ($($field:ident: $min:expr, $max:expr;)*) => {
        /// Every tunable number, in a fixed order.
        pub const PARAMS: &[Param] = &[$(Param {
            name: stringify!($field),
            min: $min,
            max: $max,
            read: |params| params.$field,
            field: |params| &mut params.$field,
        }),*];
    };
}

params! {
    reverse_futility_depth: 0, 20;
    reverse_futility_margin: 0, 1000;
    futility_depth: 0, 20;
    futility_margin: 0, 1000;
    exchange_pruning_depth: 0, 20;
    exchange_quiet_margin: 0, 500;
    exchange_capture_margin: 0, 2000;
    late_move_pruning_depth: 0, 20;
    late_move_base: 0, 50;
    singular_depth: 1, 64;
    singular_margin: 0, 50;
    iir_depth: 1, 64;
    reduction_base: -200, 400;
    reduction_divisor: 50, 1000;
    history_reduction_divisor: 256, 1_000_000;
    reduction_not_improving: 0, 3;
    reduction_cut_node: 0, 3;
    reduction_in_check: 0, 1;
    reduction_checks: 0, 1;
    check_extension_safe: 0, 1;
    null_reduction_base: 1, 10;
    null_reduction_divisor: 1, 20;
    null_verify_depth: 1, 128;
    null_reduction_eval: 0, 2000;
    reduction_tt_pv: 0, 3;
    aspiration_window: 5, 1000;
    correction: 0, 200;
    correction_pieces: 0, 200;
    repetition_in_line: 0, 1;
    quiescence_tt_stand: 0, 1;
    reduction_from: 1, 16;
    reduction_pv: 0, 3;
    aspiration_stockfish: 0, 1;
}

impl SearchParams {
    /// The defaults with the settings `variant`'s weights file made
    /// ([`Variant::search`]); a setting out of range or of an unknown
    /// name (a model not read from a weights file) is left out.
    pub fn of(variant: &Variant) -> SearchParams {
        let mut params = SearchParams::default();
        for setting in &variant.search {
            // Weights files are checked when read; nothing else sets these.
            let _ = params.set(&setting.name, setting.value);
        }
        params
    }

    /// The value of the number named `name`.
    pub fn get(&self, name: &str) -> Option<i32> {
        find(name).map(|param| (param.read)(self))
    }

    /// Sets the number named `name` (any case) to `value`, which must be
    /// within its range.
    pub fn set(&mut self, name: &str, value: i32) -> Result<(), String> {
        let param = find(name).ok_or_else(|| format!("no search parameter {name}"))?;
        if !(param.min..=param.max).contains(&value) {
            return Err(format!(
                "{} must be {} to {}, not {value}",
                param.name, param.min, param.max
            ));
        }
        *(param.field)(self) = value;
        Ok(())
    }

    /// How many moves a node of `depth` searches before late move
    /// pruning.
    pub fn late_move_count(&self, depth: i32, improving: bool) -> usize {
        ((self.late_move_base + depth * depth) / (2 - i32::from(improving))).max(0) as usize
    }
}

/// The number named `name` (any case).
pub fn find(name: &str) -> Option<&'static Param> {
    PARAMS.iter().find(|p| p.name.eq_ignore_ascii_case(name))
}

/// Late move reductions by depth and move number, from [`SearchParams`].
#[derive(Clone, Debug)]
pub struct Reductions {
    base: f64,
    divisor: f64,
    from: usize,
    pv: i32,
    table: Vec<i32>,
}

impl Reductions {
    pub fn new(params: &SearchParams) -> Reductions {
        let mut reductions = Reductions {
            base: f64::from(params.reduction_base) / 100.0,
            divisor: f64::from(params.reduction_divisor) / 100.0,
            from: usize::try_from(params.reduction_from).unwrap_or(1).max(1),
            pv: params.reduction_pv,
            table: Vec::new(),
        };
        let size = REDUCTION_TABLE_SIZE;
        reductions.table = (0..size * size)
            .map(|i| reductions.computed((i / size) as i32, i % size))
            .collect();
        reductions
    }

    fn computed(&self, depth: i32, searched: usize) -> i32 {
        let product = f64::from(depth.max(1)).ln() * (searched.max(1) as f64).ln();
        (self.base + product / self.divisor).floor() as i32
    }

    /// `base + ln(depth) ln(searched) / divisor`, rounded down: from the
    /// table where both are small (as they are at nearly every node).
    pub fn base(&self, depth: i32, searched: usize) -> i32 {
        let size = REDUCTION_TABLE_SIZE;
        match usize::try_from(depth) {
            Ok(d) if d < size && searched < size => self.table[d * size + searched],
            _ => self.computed(depth, searched),
        }
    }

    /// The reduction of the `searched`-th quiet move (from 0) at `depth`:
    /// `reduction_pv` less at principal variation nodes, leaving at least
    /// one ply.
    pub fn late_move(&self, depth: i32, searched: usize, pv_node: bool) -> i32 {
        let reduction = self.base(depth, searched) - self.pv * i32::from(pv_node);
        reduction.clamp(i32::from(searched >= 3), (depth - 2).max(0))
    }

    /// Whether the `searched`-th move (from 0) of a node of `depth` is
    /// reduced at all.
    pub fn reduces(&self, depth: i32, searched: usize) -> bool {
        depth >= 3 && searched >= self.from
    }

    /// The reduction a quiet move, the `searched`-th (from 0) of a node of
    /// `depth` off the principal variation, would get: what the pruning
    /// rules read as the depth it would be searched to.
    pub fn quiet(&self, depth: i32, searched: usize) -> i32 {
        if self.reduces(depth, searched) {
            self.late_move(depth, searched, false)
        } else {
            0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_default_is_within_its_range_and_names_are_distinct() {
        let params = SearchParams::default();
        for param in PARAMS {
            let value = params.get(param.name).unwrap();
            assert!((param.min..=param.max).contains(&value), "{}", param.name);
            assert_eq!(PARAMS.iter().filter(|p| p.name == param.name).count(), 1);
        }
    }

    #[test]
    fn set_takes_a_value_in_range_and_refuses_others_unchanged() {
        let mut params = SearchParams::default();
        params.set("FUTILITY_MARGIN", 150).unwrap();
        assert_eq!(params.futility_margin, 150);
        let before = params.clone();
        assert!(params.set("futility_margin", -1).is_err());
        assert!(params.set("no_such_number", 1).is_err());
        assert_eq!(params, before);
    }

    #[test]
    fn the_reductions_are_the_logarithmic_formula() {
        let mut params = SearchParams::default();
        params.set("reduction_base", 75).unwrap();
        params.set("reduction_divisor", 180).unwrap();
        let reductions = Reductions::new(&params);
        for (depth, searched) in [(3, 3), (8, 10), (20, 40), (100, 200)] {
            let expected =
                (0.75 + (depth as f64).ln() * (searched as f64).ln() / 1.8).floor() as i32;
            assert_eq!(reductions.base(depth, searched), expected);
        }
        assert_eq!(reductions.late_move(10, 20, false), reductions.base(10, 20));
        assert_eq!(reductions.quiet(2, 20), 0);
    }

    #[test]
    fn reductions_start_at_reduction_from_and_spare_pv_nodes_reduction_pv_plies() {
        let mut params = SearchParams::default();
        let defaults = Reductions::new(&params);
        assert!(!defaults.reduces(8, 2) && defaults.reduces(8, 3));
        assert_eq!(defaults.late_move(12, 30, true), defaults.base(12, 30) - 1);
        params.set("reduction_from", 1).unwrap();
        params.set("reduction_pv", 2).unwrap();
        let reductions = Reductions::new(&params);
        assert!(reductions.reduces(8, 1) && !reductions.reduces(8, 0));
        assert!(!reductions.reduces(2, 5));
        assert_eq!(
            reductions.late_move(12, 30, true),
            reductions.base(12, 30) - 2
        );
        assert_eq!(reductions.late_move(12, 30, false), reductions.base(12, 30));
    }
}
