//! The evaluation's weights ([`crate::eval`]) and the weights file that
//! `varc tune` writes, `varc build --weights` embeds and `varc uci` /
//! `varc xboard --weights` load.
//!
//! A weights file has one setting per line, `name = value`, and `#`
//! comments:
//!
//! ```text
//! # varc tune: chess, 4000 positions from 200 self-play games
//! placement = 100
//! value knight = 3.05
//! ```
//!
//! The scalar weights are those of [`EvaluationWeights`] (percentages of the
//! documented terms, or centipawns); `value PIECE = PAWNS` sets a non-royal
//! kind's material value, named as the rules file names it, and
//! `endgame-value PIECE = PAWNS` its value once the other pieces than pawns
//! have left (the evaluation moves between the two as they leave).
//! `squares PIECE = ...` and `endgame-squares PIECE = ...` set a kind's
//! bonus per square ([`SquareBonuses`]; see [`SquareTable`] for the
//! layout). `mobility PIECE = ...` and `endgame-mobility PIECE = ...` set
//! a non-royal kind's mobility value per count of squares reached
//! ([`MobilityTables`]; see [`MobilityTable`]) in place of the linear
//! mobility term. `cover PIECE = ...` and `storm PIECE = ...` set a royal
//! kind's cover by pawn-shaped pieces ([`RoyalCover`](crate::model::RoyalCover);
//! see [`CoverLines`]). `passed-table = ...` and `endgame-passed-table =
//! ...` set the passed bonus by moves to the zone ([`PassedTables`], the
//! numbers as a mobility table's) in place of the passed formula.
//! `endgame-scaling = on` (or `off`) turns on the scaling of leads the
//! side ahead cannot convert ([`crate::eval::scale`]; off by default).
//! `search NAME = VALUE` sets one of the search's parameters for the
//! variant ([`crate::search::params`]; a tuner's `setoption` still
//! overrides it). A
//! setting left out keeps its value from the rules file (or the default;
//! an endgame value left out is the value, an endgame table the
//! middlegame table).

mod cover_lines;
mod network_lines;
pub use cover_lines::{CoverLine, CoverLines};
pub use network_lines::{InputLine, NetworkLines};

use crate::model::{MobilityTables, PassedTables, SearchSetting, SquareBonuses, Variant};
use crate::position::SQUARE_COUNT;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The weights of the evaluation's terms. The defaults are the terms as
/// [`crate::eval`] documents them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EvaluationWeights {
    /// Placement bonus, percent of 3 centipawns per empty-board target
    /// above the kind's average.
    pub placement: i32,
    /// Advancement toward a promotion zone, percent of the documented share.
    pub advancement: i32,
    /// Mobility, percent of `2400 / (value + 200)` centipawns per square.
    pub mobility: i32,
    /// Centipawns per own piece beside a royal piece.
    pub royal_shelter: i32,
    /// Centipawns per enemy-attacked square beside a royal piece.
    pub royal_attack: i32,
    /// A royal piece's placement as material leaves, percent of the default.
    pub royal_centre: i32,
    /// Centipawns for the side to move.
    pub tempo: i32,
    /// Passed pawn-shaped pieces, percent of the documented bonus.
    pub passed: i32,
    /// Centipawns per doubled pawn-shaped piece.
    pub doubled: i32,
    /// Centipawns per isolated pawn-shaped piece.
    pub isolated: i32,
    /// Centipawns per enemy piece (neither royal nor pawn-shaped) that a
    /// pawn-shaped piece attacks.
    pub pawn_threat: i32,
    /// Centipawns per file rider (a piece that rides the file without
    /// limit) on a file without pawn-shaped pieces; half as much where
    /// only enemy ones stand.
    pub open_file: i32,
    /// Centipawns per enemy kind (neither royal nor pawn-shaped) that a
    /// less valuable piece, neither royal nor pawn-shaped, attacks.
    pub threat: i32,
    /// Centipawns per piece (neither royal nor pawn-shaped) that the enemy
    /// attacks and its own side does not defend.
    pub hanging: i32,
    /// Centipawns per colour-bound kind with pieces on squares of both
    /// colours (the bishop pair).
    pub pair: i32,
    /// Royal danger from pieces attacking squares beside a royal piece,
    /// percent of the documented term.
    pub royal_danger: i32,
    /// Centipawns per minor officer on an outpost: a square from the rank
    /// before the middle on that an own pawn-shaped piece defends and no
    /// enemy one can ever attack.
    pub outpost: i32,
    /// Centipawns per connected pawn-shaped piece (defended by one of its
    /// side, or level with one beside it) three moves from its zone; `16 /
    /// (d + 1)^2` of it at `d` moves.
    pub connected: i32,
    /// Royal danger's units per kind that could give a safe check, percent
    /// of the documented number.
    pub royal_check: i32,
    /// Centipawns per unit of a passed pawn-shaped piece's royal race in
    /// the endgame: the royal pieces' king steps to the square in front
    /// of it, `2 enemy - own`, times 5 less its moves to the zone, over 4.
    pub passed_royal: i32,
    /// Royal danger's units per square beside a royal piece that the enemy
    /// attacks and no own piece but a royal one defends, percent of the
    /// documented number.
    pub royal_weak: i32,
    /// Royal danger's units per enemy kind that could give check only on
    /// squares the royal side guards, percent of the documented number.
    pub royal_unsafe_check: i32,
    /// Royal danger's units taken off where the attacking side has no
    /// piece of the variant's most valuable kind, percent of the
    /// documented number.
    pub royal_strongest: i32,
    /// Centipawns per 20 units of a passed pawn-shaped piece's free way:
    /// 20 where no square ahead of it on its file holds a piece or is
    /// attacked by the enemy, else 9 where the square in front of it is
    /// not attacked, 5 more where an own piece defends that square; times
    /// 5 less its moves to the zone; nothing when a piece stands in front.
    pub passed_free: i32,
    /// Centipawns per enemy piece (neither royal nor pawn-shaped) that a
    /// pawn-shaped piece would attack after a safe step forward.
    pub pawn_push: i32,
    /// Centipawns per pawn-shaped piece that the enemy attacks and its own
    /// side does not defend (the `hanging` term's for pawns).
    pub hanging_pawn: i32,
    /// Centipawns, at the endgame's full share, per royal piece with no
    /// pawn-shaped piece of either side on its file or a file beside it.
    pub royal_pawnless: i32,
    /// Centipawns, at the endgame's full share, per piece (not royal) that
    /// the enemy attacks and its own side does not hold strongly: no own
    /// pawn-shaped piece defends it, nor do two or more own pieces while
    /// fewer than two enemy ones attack it.
    pub weak_piece: i32,
    /// Royal danger's units from attacks on a royal piece's flank (its
    /// file and the files beside it, one more toward the centre, on its
    /// side's first five-eighths of the ranks): the square of the attacked
    /// squares (attacked twice counting twice) times 3/8, percent of that.
    pub royal_flank: i32,
    /// Centipawns per officer that stands alone between an own royal piece
    /// and an enemy rider riding that line toward it (a pinned piece).
    pub pinned: i32,
    /// Centipawns per square that both sides attack and the enemy does not
    /// hold strongly (as `weak-piece` reads it): the enemy's pieces are
    /// restricted there.
    pub restricted: i32,
    /// Royal danger's units from pawn-shaped pieces attacking a royal
    /// piece's ring ([`crate::eval::ring_of`]): per such ring square, per
    /// officer attacking the ring, percent of the per-attacker units
    /// (Stockfish's king attackers count, in which pawns count).
    pub royal_pawn_attack: i32,
    /// Royal danger's units per own officer pinned to the royal piece,
    /// percent of the documented number.
    pub royal_pinned: i32,
}

impl Default for EvaluationWeights {
    fn default() -> Self {
        EvaluationWeights {
            placement: 100,
            advancement: 100,
            mobility: 100,
            royal_shelter: 6,
            royal_attack: 10,
            royal_centre: 100,
            tempo: 10,
            passed: 100,
            doubled: 15,
            isolated: 10,
            pawn_threat: 50,
            open_file: 30,
            threat: 40,
            hanging: 30,
            pair: 40,
            royal_danger: 100,
            outpost: 20,
            connected: 10,
            royal_check: 100,
            passed_royal: 10,
            royal_weak: 100,
            royal_unsafe_check: 100,
            royal_strongest: 100,
            passed_free: 10,
            pawn_push: 20,
            hanging_pawn: 20,
            royal_pawnless: 30,
            weak_piece: 12,
            royal_flank: 100,
            pinned: 40,
            restricted: 4,
            royal_pawn_attack: 100,
            royal_pinned: 100,
        }
    }
}

/// The scalar weights by their names in a weights file, in file order.
pub const WEIGHT_NAMES: [&str; WEIGHT_COUNT] = [
    "placement",
    "advancement",
    "mobility",
    "royal-shelter",
    "royal-attack",
    "royal-centre",
    "tempo",
    "passed",
    "doubled",
    "isolated",
    "pawn-threat",
    "open-file",
    "threat",
    "hanging",
    "pair",
    "royal-danger",
    "outpost",
    "connected",
    "royal-check",
    "passed-royal",
    "royal-weak",
    "royal-unsafe-check",
    "royal-strongest",
    "passed-free",
    "pawn-push",
    "hanging-pawn",
    "royal-pawnless",
    "weak-piece",
    "royal-flank",
    "pinned",
    "restricted",
    "royal-pawn-attack",
    "royal-pinned",
];

/// The scalar weights counted in centipawns (the others are percentages):
/// `varc tune` steps them by fewer units. Kept here, beside the names, so
/// that a new weight is classed where it is named.
pub const CENTIPAWN_WEIGHTS: [&str; 20] = [
    "weak-piece",
    "pinned",
    "restricted",
    "pawn-push",
    "hanging-pawn",
    "royal-pawnless",
    "passed-royal",
    "passed-free",
    "outpost",
    "connected",
    "royal-shelter",
    "royal-attack",
    "tempo",
    "doubled",
    "isolated",
    "pawn-threat",
    "open-file",
    "threat",
    "hanging",
    "pair",
];

/// How many scalar weights there are.
pub const WEIGHT_COUNT: usize = 33;

/// A weight's lowest and highest accepted value (a file outside them is
/// refused; the tuner stays within them).
pub const WEIGHT_RANGE: (i32, i32) = (-1000, 1000);

/// The highest piece value a weights file may set, in pawns.
const MAX_FILE_VALUE: f64 = crate::model::MAX_PIECE_VALUE;

impl EvaluationWeights {
    /// The weight named `name` in a weights file.
    pub fn get(&self, name: &str) -> Option<i32> {
        self.slot(name).map(|index| self.as_array()[index])
    }

    /// Sets the weight named `name`; `false` if there is none.
    pub fn set(&mut self, name: &str, value: i32) -> bool {
        let Some(index) = self.slot(name) else {
            return false;
        };
        let mut values = self.as_array();
        values[index] = value;
        *self = EvaluationWeights::from_array(values);
        true
    }

    fn slot(&self, name: &str) -> Option<usize> {
        WEIGHT_NAMES.iter().position(|n| *n == name)
    }

    /// The weights in [`WEIGHT_NAMES`] order.
    pub fn as_array(&self) -> [i32; WEIGHT_COUNT] {
        [
            self.placement,
            self.advancement,
            self.mobility,
            self.royal_shelter,
            self.royal_attack,
            self.royal_centre,
            self.tempo,
            self.passed,
            self.doubled,
            self.isolated,
            self.pawn_threat,
            self.open_file,
            self.threat,
            self.hanging,
            self.pair,
            self.royal_danger,
            self.outpost,
            self.connected,
            self.royal_check,
            self.passed_royal,
            self.royal_weak,
            self.royal_unsafe_check,
            self.royal_strongest,
            self.passed_free,
            self.pawn_push,
            self.hanging_pawn,
            self.royal_pawnless,
            self.weak_piece,
            self.royal_flank,
            self.pinned,
            self.restricted,
            self.royal_pawn_attack,
            self.royal_pinned,
        ]
    }

    /// The weights from values in [`WEIGHT_NAMES`] order.
    pub fn from_array(values: [i32; WEIGHT_COUNT]) -> EvaluationWeights {
        let [placement, advancement, mobility, royal_shelter, royal_attack, royal_centre, tempo, passed, doubled, isolated, pawn_threat, open_file, threat, hanging, pair, royal_danger, outpost, connected, royal_check, passed_royal, royal_weak, royal_unsafe_check, royal_strongest, passed_free, pawn_push, hanging_pawn, royal_pawnless, weak_piece, royal_flank, pinned, restricted, royal_pawn_attack, royal_pinned] =
            values;
        EvaluationWeights {
            placement,
            advancement,
            mobility,
            royal_shelter,
            royal_attack,
            royal_centre,
            tempo,
            passed,
            doubled,
            isolated,
            pawn_threat,
            open_file,
            threat,
            hanging,
            pair,
            royal_danger,
            outpost,
            connected,
            royal_check,
            passed_royal,
            royal_weak,
            royal_unsafe_check,
            royal_strongest,
            passed_free,
            pawn_push,
            hanging_pawn,
            royal_pawnless,
            weak_piece,
            royal_flank,
            pinned,
            restricted,
            royal_pawn_attack,
            royal_pinned,
        }
    }
}

/// What a weights file says: the scalar weights it sets and piece values.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WeightsFile {
    /// `(name, value)` of each scalar weight set, in file order.
    pub weights: Vec<(String, i32)>,
    /// `(piece name, pawns)` of each piece value set, in file order.
    pub values: Vec<(String, f64)>,
    /// `(piece name, pawns)` of each endgame value set, in file order.
    pub endgame_values: Vec<(String, f64)>,
    /// Each square table set, in file order.
    pub squares: Vec<SquareTable>,
    /// Each mobility table set, in file order.
    pub mobility: Vec<MobilityTable>,
    /// The royal cover lines.
    pub cover: CoverLines,
    /// `passed-table` and `endgame-passed-table`: whether the endgame one,
    /// the values, and the line.
    pub passed: Vec<(bool, Vec<i32>, usize)>,
    /// The learned correction's lines, if any.
    pub network: NetworkLines,
    /// `endgame-scaling = on | off`, if set.
    pub endgame_scaling: Option<bool>,
    /// `search NAME = VALUE`: search parameters for the variant, each
    /// name known and its value within range, in file order.
    pub search: Vec<SearchSetting>,
}

/// The setting that turns endgame scaling on or off.
const ENDGAME_SCALING: &str = "endgame-scaling";

/// What starts a search parameter's setting (`search NAME = VALUE`).
const SEARCH_PREFIX: &str = "search ";

/// A `search NAME = VALUE` setting, its name one of the search's
/// parameters ([`crate::search::params::PARAMS`], any case; kept as that
/// list spells it) and its value within the parameter's range.
fn search_setting(name: &str, value: &str) -> Result<SearchSetting, String> {
    let parameter = crate::search::params::find(name).ok_or_else(|| {
        let names: Vec<&str> = crate::search::params::PARAMS
            .iter()
            .map(|param| param.name)
            .collect();
        format!(
            "unknown search parameter `{name}` (expected one of {})",
            names.join(", ")
        )
    })?;
    let value: i32 = value
        .parse()
        .map_err(|_| format!("`{value}` is not a whole number"))?;
    if !(parameter.min..=parameter.max).contains(&value) {
        return Err(format!(
            "search parameter `{}` must be between {} and {}, found {value}",
            parameter.name, parameter.min, parameter.max
        ));
    }
    Ok(SearchSetting {
        name: parameter.name.to_string(),
        value,
    })
}

/// A `mobility PIECE` or `endgame-mobility PIECE` line: a non-royal kind's
/// mobility value in centipawns per count of squares reached, from 0 on
/// (`mobility knight = -40 -20 -5 0 5 10 14 17 20`); a count beyond the
/// last entry reads the last entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MobilityTable {
    /// The piece, as the rules file names it.
    pub piece: String,
    /// Whether this is the endgame table ([`MobilityTables::endgame`]).
    pub endgame: bool,
    /// The values, for 0 squares reached first.
    pub values: Vec<i32>,
    /// The line it was read from (1-based).
    pub line: usize,
}

/// A `squares PIECE` or `endgame-squares PIECE` line: a kind's bonus per
/// square in centipawns, rank by rank as FEN reads the board (White's last
/// rank first, each from the `a` file), ranks parted by `/`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SquareTable {
    /// The piece, as the rules file names it.
    pub piece: String,
    /// Whether this is the endgame table ([`SquareBonuses::endgame`]).
    pub endgame: bool,
    /// The bonuses, White's last rank first.
    pub ranks: Vec<Vec<i32>>,
    /// The line it was read from (1-based).
    pub line: usize,
}

/// Why a weights file was refused: the line (1-based) and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WeightsError {
    /// The line, 1-based (0: the file as a whole).
    pub line: usize,
    /// What is wrong with it.
    pub message: String,
}

impl fmt::Display for WeightsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}", self.message)
        } else {
            write!(f, "line {}: {}", self.line, self.message)
        }
    }
}

impl std::error::Error for WeightsError {}

impl WeightsFile {
    /// Reads a weights file's text (names are checked against a variant by
    /// [`WeightsFile::apply`]).
    pub fn parse(text: &str) -> Result<WeightsFile, WeightsError> {
        let mut file = WeightsFile::default();
        for (index, raw) in text.lines().enumerate() {
            let line = index + 1;
            let error = |message: String| WeightsError { line, message };
            let content = raw.split('#').next().unwrap_or("").trim();
            if content.is_empty() {
                continue;
            }
            let Some((name, value)) = content.split_once('=') else {
                return Err(error(format!("expected `name = value`, found `{content}`")));
            };
            let (name, value) = (name.trim(), value.trim());
            if file.network.read(name, value, line).map_err(error)? {
                continue;
            }
            if file.cover.read(name, value, line).map_err(error)? {
                continue;
            }
            if name == ENDGAME_SCALING {
                file.endgame_scaling = Some(match value {
                    "on" => true,
                    "off" => false,
                    _ => {
                        return Err(error(format!(
                            "`{ENDGAME_SCALING}` is `on` or `off`, found `{value}`"
                        )))
                    }
                });
                continue;
            }
            if let Some(parameter) = name.strip_prefix(SEARCH_PREFIX) {
                file.search
                    .push(search_setting(parameter.trim(), value).map_err(error)?);
                continue;
            }
            if let Some((_, endgame)) =
                phased_piece(name, "passed-table").filter(|(rest, _)| rest.is_empty())
            {
                file.passed
                    .push((endgame, parse_counts(value, "passed").map_err(error)?, line));
                continue;
            }
            let piece_value = [("value ", false), ("endgame-value ", true)]
                .into_iter()
                .find_map(|(prefix, endgame)| Some((name.strip_prefix(prefix)?, endgame)));
            if let Some((piece, endgame)) = piece_value {
                let pawns: f64 = value
                    .parse()
                    .map_err(|_| error(format!("`{value}` is not a number of pawns")))?;
                if !(0.0..=MAX_FILE_VALUE).contains(&pawns) {
                    return Err(error(format!(
                        "a piece value must be between 0 and {MAX_FILE_VALUE} pawns, found {pawns}"
                    )));
                }
                let list = if endgame {
                    &mut file.endgame_values
                } else {
                    &mut file.values
                };
                list.push((piece.trim().to_string(), pawns));
                continue;
            }
            if let Some((piece, endgame)) = phased_piece(name, "squares ") {
                file.squares.push(SquareTable {
                    piece: piece.trim().to_string(),
                    endgame,
                    ranks: parse_ranks(value).map_err(error)?,
                    line,
                });
                continue;
            }
            if let Some((piece, endgame)) = phased_piece(name, "mobility ") {
                file.mobility.push(MobilityTable {
                    piece: piece.trim().to_string(),
                    endgame,
                    values: parse_counts(value, "mobility").map_err(error)?,
                    line,
                });
                continue;
            }
            if !WEIGHT_NAMES.contains(&name) {
                return Err(error(format!(
                    "unknown weight `{name}` (expected one of {}, `value PIECE`, \
                     `endgame-value PIECE`, `squares PIECE`, `endgame-squares PIECE`, \
                     `mobility PIECE`, `endgame-mobility PIECE`, `cover PIECE` or \
                     `storm PIECE`, `passed-table` or `endgame-passed-table`, \
                     `{ENDGAME_SCALING}`, `{SEARCH_PREFIX}NAME`)",
                    WEIGHT_NAMES.join(", ")
                )));
            }
            let number: i32 = value
                .parse()
                .map_err(|_| error(format!("`{value}` is not a whole number")))?;
            let (low, high) = WEIGHT_RANGE;
            if !(low..=high).contains(&number) {
                return Err(error(format!(
                    "`{name}` must be between {low} and {high}, found {number}"
                )));
            }
            file.weights.push((name.to_string(), number));
        }
        Ok(file)
    }

    /// Sets the file's weights, piece values, square tables and mobility
    /// tables on `variant`; refuses (and changes nothing) if a piece is
    /// unknown, a value or a mobility table is set for a royal piece, a
    /// square table does not fit the board or an `endgame-mobility` table
    /// comes without its `mobility` table. An `endgame-squares` table left
    /// out is the `squares` table; a `squares` table left out is all zeros.
    /// An `endgame-mobility` table left out is the `mobility` table.
    pub fn apply(&self, variant: &mut Variant) -> Result<(), WeightsError> {
        let kinds = piece_kinds(variant, &self.values, "value")?;
        let endgame_kinds = piece_kinds(variant, &self.endgame_values, "endgame-value")?;
        let bonuses = self.square_bonuses(variant)?;
        let mobility = self.mobility_tables(variant)?;
        let network = self.network.network(variant)?;
        let cover = self.cover.tables(variant)?;
        let passed = self.passed_tables()?;
        if passed.is_some() {
            variant.passed_tables = passed;
        }
        for (kind, table) in cover {
            variant.pieces[kind].royal_cover = Some(table);
        }
        for (kind, bonus) in bonuses {
            variant.pieces[kind].square_bonuses = Some(bonus);
        }
        for (kind, tables) in mobility {
            variant.pieces[kind].mobility_tables = Some(tables);
        }
        for (name, value) in &self.weights {
            variant.evaluation.set(name, *value);
        }
        if network.is_some() {
            variant.network = network;
        }
        if let Some(on) = self.endgame_scaling {
            variant.endgame_scaling = on;
        }
        for setting in &self.search {
            variant.search.retain(|set| set.name != setting.name);
            variant.search.push(setting.clone());
        }
        for (kind, (_, pawns)) in kinds.into_iter().zip(&self.values) {
            variant.pieces[kind].value = Some(*pawns);
        }
        for (kind, (_, pawns)) in endgame_kinds.into_iter().zip(&self.endgame_values) {
            variant.pieces[kind].endgame_value = Some(*pawns);
        }
        Ok(())
    }

    /// The file that sets `variant`'s weights and the values of its
    /// non-royal pieces as they are (declared or estimated, see
    /// [`crate::eval::Evaluator::value`]), under `header` (comment lines).
    pub fn write(variant: &Variant, header: &str) -> String {
        let evaluator = crate::eval::Evaluator::new(variant);
        let mut text = String::new();
        for line in header.lines() {
            text.push_str(&format!("# {line}\n"));
        }
        let values = variant.evaluation.as_array();
        for (name, value) in WEIGHT_NAMES.iter().zip(values) {
            text.push_str(&format!("{name} = {value}\n"));
        }
        let scaling = if variant.endgame_scaling { "on" } else { "off" };
        text.push_str(&format!("{ENDGAME_SCALING} = {scaling}\n"));
        let pawns = |centipawns: i32| f64::from(centipawns) / f64::from(crate::eval::PAWN);
        for (kind, piece) in variant.pieces.iter().enumerate() {
            if !piece.royal {
                let value = pawns(evaluator.value(kind));
                text.push_str(&format!("value {} = {value:.2}\n", piece.name));
            }
        }
        for (kind, piece) in variant.pieces.iter().enumerate() {
            if !piece.royal {
                let value = pawns(evaluator.endgame_value(kind));
                text.push_str(&format!("endgame-value {} = {value:.2}\n", piece.name));
            }
        }
        for piece in &variant.pieces {
            if let Some(bonuses) = &piece.square_bonuses {
                let tables = [
                    ("squares", &bonuses.middlegame),
                    ("endgame-squares", &bonuses.endgame),
                ];
                for (setting, table) in tables {
                    let ranks = write_ranks(table, variant.board.files);
                    text.push_str(&format!("{setting} {} = {ranks}\n", piece.name));
                }
            }
        }
        for piece in variant.pieces.iter().filter(|p| !p.royal) {
            if let Some(tables) = &piece.mobility_tables {
                let lines = [
                    ("mobility", &tables.middlegame),
                    ("endgame-mobility", &tables.endgame),
                ];
                for (setting, table) in lines {
                    let counts = write_counts(table);
                    text.push_str(&format!("{setting} {} = {counts}\n", piece.name));
                }
            }
        }
        text.push_str(&CoverLines::write(variant));
        if let Some(tables) = &variant.passed_tables {
            text.push_str(&format!(
                "passed-table = {}\n",
                write_counts(&tables.middlegame)
            ));
            text.push_str(&format!(
                "endgame-passed-table = {}\n",
                write_counts(&tables.endgame)
            ));
        }
        for setting in &variant.search {
            text.push_str(&format!(
                "{SEARCH_PREFIX}{} = {}\n",
                setting.name, setting.value
            ));
        }
        if let Some(network) = &variant.network {
            text.push_str(&NetworkLines::write(network, variant));
        }
        text
    }

    /// The mobility tables of the file per kind, checked against
    /// `variant`'s pieces, each kind's two tables together.
    fn mobility_tables(
        &self,
        variant: &Variant,
    ) -> Result<Vec<(usize, MobilityTables)>, WeightsError> {
        // Per kind: its middlegame and endgame tables as the file sets
        // them, and the line of the endgame one.
        type Tables = (usize, Option<Vec<i32>>, Option<(Vec<i32>, usize)>);
        let mut tables: Vec<Tables> = Vec::new();
        for table in &self.mobility {
            let error = |message: String| WeightsError {
                line: table.line,
                message,
            };
            let kind = kind_named(variant, &table.piece).map_err(error)?;
            if variant.pieces[kind].royal {
                return Err(error(format!(
                    "`{}` is royal, and royal pieces have no mobility term",
                    table.piece
                )));
            }
            let index = match tables.iter().position(|(k, _, _)| *k == kind) {
                Some(index) => index,
                None => {
                    tables.push((kind, None, None));
                    tables.len() - 1
                }
            };
            if table.endgame {
                tables[index].2 = Some((table.values.clone(), table.line));
            } else {
                tables[index].1 = Some(table.values.clone());
            }
        }
        tables
            .into_iter()
            .map(|(kind, middlegame, endgame)| match (middlegame, endgame) {
                (Some(middlegame), endgame) => {
                    let endgame = endgame.map_or_else(|| middlegame.clone(), |(table, _)| table);
                    Ok((
                        kind,
                        MobilityTables {
                            middlegame,
                            endgame,
                        },
                    ))
                }
                (None, endgame) => Err(WeightsError {
                    line: endgame.map_or(0, |(_, line)| line),
                    message: format!(
                        "`endgame-mobility {0}` needs a `mobility {0}` line (the middlegame table)",
                        variant.pieces[kind].name
                    ),
                }),
            })
            .collect()
    }

    /// The file's passed tables: the endgame table left out is the
    /// middlegame one; an endgame table needs a middlegame one.
    fn passed_tables(&self) -> Result<Option<PassedTables>, WeightsError> {
        let table = |endgame: bool| {
            self.passed
                .iter()
                .rev()
                .find(|(e, _, _)| *e == endgame)
                .map(|(_, values, line)| (values.clone(), *line))
        };
        match (table(false), table(true)) {
            (None, None) => Ok(None),
            (None, Some((_, line))) => Err(WeightsError {
                line,
                message: "`endgame-passed-table` needs a `passed-table` line (the middlegame \
                          table)"
                    .to_string(),
            }),
            (Some((middlegame, _)), endgame) => Ok(Some(PassedTables {
                endgame: endgame.map_or_else(|| middlegame.clone(), |(values, _)| values),
                middlegame,
            })),
        }
    }

    /// The square tables of the file per kind, checked against `variant`'s
    /// pieces and board, each kind's two tables together.
    fn square_bonuses(
        &self,
        variant: &Variant,
    ) -> Result<Vec<(usize, SquareBonuses)>, WeightsError> {
        let (files, ranks) = (variant.board.files, variant.board.ranks);
        let cells = usize::from(files) * usize::from(ranks);
        // Per kind: its middlegame and endgame tables as the file sets them.
        type Tables = (usize, Option<Vec<i32>>, Option<Vec<i32>>);
        let mut tables: Vec<Tables> = Vec::new();
        for table in &self.squares {
            let error = |message: String| WeightsError {
                line: table.line,
                message,
            };
            let kind = kind_named(variant, &table.piece).map_err(error)?;
            let rows_fit = table.ranks.len() == usize::from(ranks)
                && table
                    .ranks
                    .iter()
                    .all(|row| row.len() == usize::from(files));
            if !rows_fit {
                let found: Vec<String> = table.ranks.iter().map(|r| r.len().to_string()).collect();
                return Err(error(format!(
                    "a square table of {} needs {ranks} ranks of {files} numbers, \
                     found ranks of {}",
                    variant.name,
                    found.join(", ")
                )));
            }
            // White's first rank first, as the model keeps it.
            let cells_of: Vec<i32> = table.ranks.iter().rev().flatten().copied().collect();
            debug_assert_eq!(cells_of.len(), cells);
            let index = match tables.iter().position(|(k, _, _)| *k == kind) {
                Some(index) => index,
                None => {
                    tables.push((kind, None, None));
                    tables.len() - 1
                }
            };
            let slot = if table.endgame {
                &mut tables[index].2
            } else {
                &mut tables[index].1
            };
            *slot = Some(cells_of);
        }
        Ok(tables
            .into_iter()
            .map(|(kind, middlegame, endgame)| {
                let middlegame = middlegame.unwrap_or_else(|| vec![0; cells]);
                let endgame = endgame.unwrap_or_else(|| middlegame.clone());
                (
                    kind,
                    SquareBonuses {
                        middlegame,
                        endgame,
                    },
                )
            })
            .collect())
    }
}

/// The piece named by a line `PREFIX PIECE` or `endgame-PREFIX PIECE`, and
/// whether it is the endgame one.
fn phased_piece<'a>(name: &'a str, prefix: &str) -> Option<(&'a str, bool)> {
    match name.strip_prefix("endgame-") {
        Some(rest) => Some((rest.strip_prefix(prefix)?, true)),
        None => Some((name.strip_prefix(prefix)?, false)),
    }
}

/// The ranks of a square table, `/` between them (see [`SquareTable`]).
fn parse_ranks(text: &str) -> Result<Vec<Vec<i32>>, String> {
    text.split('/')
        .map(|rank| parse_centipawns(rank, "a square bonus"))
        .collect()
}

/// Whole numbers of centipawns parted by white space, each within
/// [`WEIGHT_RANGE`] (`what` names one in the message).
fn parse_centipawns(text: &str, what: &str) -> Result<Vec<i32>, String> {
    let (low, high) = WEIGHT_RANGE;
    text.split_whitespace()
        .map(|number| {
            let value: i32 = number
                .parse()
                .map_err(|_| format!("`{number}` is not a whole number of centipawns"))?;
            if (low..=high).contains(&value) {
                Ok(value)
            } else {
                Err(format!(
                    "{what} must be between {low} and {high}, found {value}"
                ))
            }
        })
        .collect()
}

/// The values of a table by count (a mobility table, see
/// [`MobilityTable`], or a passed table): 1 to [`SQUARE_COUNT`] whole
/// numbers of centipawns; `what` names the table.
fn parse_counts(text: &str, what: &str) -> Result<Vec<i32>, String> {
    let values = parse_centipawns(text, &format!("a {what} value"))?;
    if values.is_empty() || values.len() > SQUARE_COUNT {
        return Err(format!(
            "a {what} table needs 1 to {SQUARE_COUNT} numbers (one per count, from 0), found {}",
            values.len()
        ));
    }
    Ok(values)
}

/// A mobility table as a weights file writes it.
fn write_counts(table: &[i32]) -> String {
    let numbers: Vec<String> = table.iter().map(|v| v.to_string()).collect();
    numbers.join(" ")
}

/// `table` (White's first rank first, `files` per rank) as a weights file
/// writes it: the last rank first.
fn write_ranks(table: &[i32], files: u8) -> String {
    let rows: Vec<String> = table
        .chunks(usize::from(files).max(1))
        .rev()
        .map(|rank| {
            let numbers: Vec<String> = rank.iter().map(|v| format!("{v:>3}")).collect();
            numbers.join(" ")
        })
        .collect();
    rows.join(" / ")
}

/// The kind of `variant` named `piece`, or why there is none.
fn kind_named(variant: &Variant, piece: &str) -> Result<usize, String> {
    variant
        .pieces
        .iter()
        .position(|p| p.name == piece)
        .ok_or_else(|| {
            let names: Vec<&str> = variant.pieces.iter().map(|p| p.name.as_str()).collect();
            format!(
                "{} has no piece `{piece}` (its pieces: {})",
                variant.name,
                names.join(", ")
            )
        })
}

/// The kinds of the pieces `values` name, in order; refused if a piece is
/// unknown or royal (`setting` names the line's kind in the message).
fn piece_kinds(
    variant: &Variant,
    values: &[(String, f64)],
    setting: &str,
) -> Result<Vec<usize>, WeightsError> {
    let mut kinds = Vec::with_capacity(values.len());
    for (piece, _) in values {
        let kind = kind_named(variant, piece).map_err(|message| WeightsError {
            line: 0,
            message: format!("`{setting} {piece}`: {message}"),
        })?;
        if variant.pieces[kind].royal {
            return Err(WeightsError {
                line: 0,
                message: format!("`{setting} {piece}`: a royal piece has no material value"),
            });
        }
        kinds.push(kind);
    }
    Ok(kinds)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_centipawn_weight_is_a_weight() {
        for name in CENTIPAWN_WEIGHTS {
            assert!(WEIGHT_NAMES.contains(&name), "{name}");
        }
    }

    #[test]
    fn a_file_sets_weights_and_reads_back() {
        let file =
            WeightsFile::parse("# tuned\nmobility = 120\n\ntempo = 12 # cp\nvalue knight = 3.2\n")
                .expect("a valid file");
        assert_eq!(
            file.weights,
            vec![("mobility".to_string(), 120), ("tempo".to_string(), 12)]
        );
        assert_eq!(file.values, vec![("knight".to_string(), 3.2)]);
        let file =
            WeightsFile::parse("endgame-value rook = 5.5\nvalue rook = 4.8").expect("a valid file");
        assert_eq!(file.endgame_values, vec![("rook".to_string(), 5.5)]);
        assert_eq!(file.values, vec![("rook".to_string(), 4.8)]);
        assert_eq!(file.endgame_scaling, None);
        let file = WeightsFile::parse("endgame-scaling = on").expect("a valid file");
        assert_eq!(file.endgame_scaling, Some(true));
        let file = WeightsFile::parse("search LATE_MOVE_BASE = 7").expect("a valid file");
        let setting = SearchSetting {
            name: "late_move_base".to_string(),
            value: 7,
        };
        assert_eq!(file.search, vec![setting], "named as the search names it");
    }

    #[test]
    fn bad_lines_are_refused_with_their_number() {
        let cases = [
            ("mobility 120", 1, "expected `name = value`"),
            ("\nspeed = 3", 2, "unknown weight `speed`"),
            ("tempo = ten", 1, "not a whole number"),
            ("tempo = 5000", 1, "between -1000 and 1000"),
            ("value knight = -1", 1, "between 0 and"),
            ("value knight = x", 1, "not a number of pawns"),
            ("endgame-value knight = 1000", 1, "between 0 and"),
            ("mobility knight = 1 x", 1, "`x` is not a whole number"),
            ("\n\nmobility knight =", 3, "needs 1 to 256 numbers"),
            (
                "endgame-mobility knight = -5 2000",
                1,
                "between -1000 and 1000",
            ),
            ("mobility = 1 2", 1, "not a whole number"),
            ("endgame-scaling = yes", 1, "`on` or `off`"),
            ("search speed = 3", 1, "unknown search parameter `speed`"),
            ("search futility_margin = -5", 1, "between 0 and 1000"),
            ("\nsearch futility_margin = wide", 2, "not a whole number"),
        ];
        for (text, line, message) in cases {
            let error = WeightsFile::parse(text).expect_err(text);
            assert_eq!(error.line, line, "{text}");
            assert!(error.message.contains(message), "{text}: {error}");
        }
    }

    #[test]
    fn mobility_lines_read_and_write_back() {
        let file = WeightsFile::parse(
            "mobility knight = -40 -20 -5 0 5  10 # trapped knights lose\n\
             endgame-mobility knight = -60 -30 0\nmobility = 90\n",
        )
        .expect("a valid file");
        assert_eq!(file.weights, vec![("mobility".to_string(), 90)]);
        let tables: Vec<(&str, bool, &[i32], usize)> = file
            .mobility
            .iter()
            .map(|t| (t.piece.as_str(), t.endgame, &t.values[..], t.line))
            .collect();
        assert_eq!(
            tables,
            [
                ("knight", false, &[-40, -20, -5, 0, 5, 10][..], 1),
                ("knight", true, &[-60, -30, 0][..], 2),
            ]
        );
        // Written and read again, a table is the same.
        let written = write_counts(&file.mobility[0].values);
        assert_eq!(written, "-40 -20 -5 0 5 10");
        assert_eq!(
            parse_counts(&written, "mobility"),
            Ok(file.mobility[0].values.clone())
        );
        // As many numbers as a board has squares at most.
        let longest = vec!["1"; SQUARE_COUNT].join(" ");
        assert!(WeightsFile::parse(&format!("mobility rook = {longest}")).is_ok());
        let error = WeightsFile::parse(&format!("mobility rook = {longest} 1"))
            .expect_err("a table longer than any board");
        assert!(error.message.contains("found 257"), "{error}");
    }

    #[test]
    fn a_count_beyond_a_table_reads_its_last_entry() {
        let table = [-30, 0, 10];
        let read: Vec<i32> = (0..6).map(|n| MobilityTables::at(&table, n)).collect();
        assert_eq!(read, [-30, 0, 10, 10, 10, 10]);
        assert_eq!(MobilityTables::at(&[], 3), 0);
    }

    #[test]
    fn names_round_trip_through_the_array() {
        let mut weights = EvaluationWeights::default();
        for (i, name) in WEIGHT_NAMES.iter().enumerate() {
            assert!(weights.set(name, 1000 + i as i32));
            assert_eq!(weights.get(name), Some(1000 + i as i32));
        }
        assert!(!weights.set("speed", 1));
        assert_eq!(EvaluationWeights::from_array(weights.as_array()), weights);
    }
}
