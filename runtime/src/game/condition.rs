//! Evaluating the model's [`Condition`]s over a game, and saying in words
//! why one holds or not (refused claims and offers say why).

use super::clock::{format_seconds, Clock};
use super::events::MoveEvents;
use crate::board::Board;
use crate::model::{
    Aggregate, Color, Comparison, Condition, EventPattern, PieceFilter, PieceId, PlayerRef,
    RegionId, Square, SquareSet, Variant,
};
use crate::rules::Rules;

/// Whether a rule of `variant` asks where the legal moves go (`can move
/// PIECES into REGION`): then the game and the search list the moves and
/// give their [`move_targets`] to conditions.
pub fn reads_move_targets(variant: &Variant) -> bool {
    fn reads(condition: &Condition) -> bool {
        match condition {
            Condition::CanMoveInto { .. } => true,
            Condition::And(a, b) | Condition::Or(a, b) => reads(a) || reads(b),
            Condition::Not(a) => reads(a),
            _ => false,
        }
    }
    variant.terminations.iter().any(|t| reads(&t.condition))
        || variant.awards.iter().any(|a| reads(&a.when))
}

/// Whether a rule of `variant` asks which kinds give the side to move
/// check (`in check by only`, in a condition or in an outcome's `if`):
/// those that do give their [`Context::checking_kinds`].
pub fn reads_checking_kinds(variant: &Variant) -> bool {
    fn reads(condition: &Condition) -> bool {
        match condition {
            Condition::InCheckByOnly(_) => true,
            Condition::And(a, b) | Condition::Or(a, b) => reads(a) || reads(b),
            Condition::Not(a) => reads(a),
            _ => false,
        }
    }
    fn outcome_reads(outcome: &crate::model::Outcome) -> bool {
        match outcome {
            crate::model::Outcome::If(condition, then, otherwise) => {
                reads(condition) || outcome_reads(then) || outcome_reads(otherwise)
            }
            _ => false,
        }
    }
    variant
        .terminations
        .iter()
        .any(|t| reads(&t.condition) || outcome_reads(&t.outcome))
        || variant.awards.iter().any(|a| reads(&a.when))
}

/// The kinds that give the side to move of `position` check, where a rule
/// reads them ([`reads_checking_kinds`]); else none.
pub fn checking_kinds_for_rules<R: Rules + ?Sized>(
    rules: &R,
    position: &R::Position,
) -> Vec<PieceId> {
    if reads_checking_kinds(rules.variant()) {
        crate::game::events::checking_kinds(rules, position, position.side_to_move())
    } else {
        Vec::new()
    }
}

/// The moving kind and destination of each of `legal`, the legal moves of
/// `position`.
pub fn move_targets<R: Rules + ?Sized>(
    rules: &R,
    position: &R::Position,
    legal: &[R::Move],
) -> Vec<(PieceId, Square)> {
    legal
        .iter()
        .filter_map(|mv| {
            let described = rules.describe(mv);
            let (kind, _) = position.occupant(described.from)?;
            Some((kind, described.to))
        })
        .collect()
}

/// How often the current position has occurred (Laws-of-Chess identity).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Repetitions {
    /// Occurrences in the whole game, the current one included.
    pub total: u32,
    /// Occurrences since the last irreversible move (the last reset event),
    /// the current one included (A8's "in a row").
    pub in_a_row: u32,
}

/// Everything a condition may read, at one moment of a game; `P` is the
/// back end's position ([`Rules::Position`]).
#[derive(Debug)]
pub struct Context<'a, P: Board> {
    /// The variant.
    pub variant: &'a Variant,
    /// The position.
    pub position: &'a P,
    /// Whether a royal piece of the side to move is attacked.
    pub in_check: bool,
    /// Whether the side to move has a legal move (history rules applied).
    /// Conditions ask only this, never how many: the search can then
    /// settle a node without listing its moves.
    pub has_legal_move: bool,
    /// Repetition counts of the position.
    pub repetitions: Repetitions,
    /// Plies since the last reset event.
    pub plies_since_reset: u32,
    /// The events of the move that led here, if any.
    pub last_move: Option<&'a MoveEvents>,
    /// The legal moves of the side to move as (moving kind, destination),
    /// where a rule asks where they go ([`reads_move_targets`]); else empty.
    pub move_targets: &'a [(PieceId, Square)],
    /// The kinds of the pieces that attack the side to move's royal pieces,
    /// where a rule asks ([`reads_checking_kinds`]); else empty.
    pub checking_kinds: &'a [PieceId],
    /// The clocks, if the game is timed.
    pub clock: Option<&'a Clock>,
}

// By hand: a derive would ask `P: Copy`, and a context only borrows `P`.
impl<P: Board> Clone for Context<'_, P> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<P: Board> Copy for Context<'_, P> {}

/// A test that must pass for a condition to hold, much cheaper than the
/// condition ([`Precheck::of`]): the search evaluates every termination
/// rule at every node, and at most nodes each fails its precheck.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Precheck {
    /// Nothing cheaper is known: evaluate the condition.
    None,
    /// The side to move has no legal move.
    NoLegalMoves,
    /// At least this many plies since the last reset.
    Plies(u32),
    /// The position has occurred at least `count` times (in a row if
    /// `in_a_row`).
    Repetition {
        /// Occurrences needed.
        count: u32,
        /// Counted since the last reset only.
        in_a_row: bool,
    },
    /// A side has nothing but royal pieces.
    BareSide,
}

impl Precheck {
    /// The precheck of `condition`: a fact it implies.
    pub fn of(condition: &Condition) -> Precheck {
        match condition {
            Condition::NoLegalMoves => Precheck::NoLegalMoves,
            Condition::PliesSinceReset(plies) => Precheck::Plies(*plies),
            Condition::Repetition { count, in_a_row } => Precheck::Repetition {
                count: *count,
                in_a_row: *in_a_row,
            },
            Condition::OnlyRoyalsLeft | Condition::InsufficientMaterial(_) => Precheck::BareSide,
            Condition::And(a, b) => match Precheck::of(a) {
                Precheck::None => Precheck::of(b),
                precheck => precheck,
            },
            _ => Precheck::None,
        }
    }
}

impl<P: Board> Context<'_, P> {
    /// The colour a player reference names at this moment.
    pub fn player(&self, player: PlayerRef) -> Color {
        let side = self.position.side_to_move();
        match player {
            PlayerRef::SideToMove => side,
            PlayerRef::Opponent => side.opponent(),
            PlayerRef::White => Color::White,
            PlayerRef::Black => Color::Black,
        }
    }

    /// Number of `color`'s pieces that `filter` counts, standing in
    /// `region` (for `color`'s side) when one is given.
    pub fn material(&self, color: Color, filter: &PieceFilter, region: Option<RegionId>) -> u32 {
        let counted = self
            .position
            .pieces()
            .filter(|(_, p)| p.color() == color && filter_counts(filter, p.kind()));
        let count = match region {
            None => counted.count(),
            Some(id) => {
                let squares = self
                    .variant
                    .regions
                    .get(id)
                    .map_or(SquareSet::EMPTY, |r| *r.for_side(color));
                counted
                    .filter(|(square, _)| squares.contains(*square))
                    .count()
            }
        };
        count as u32
    }

    fn aggregate(&self, of: Aggregate, value: impl Fn(Color) -> u32) -> u32 {
        match of {
            Aggregate::Of(player) => value(self.player(player)),
            Aggregate::Max => value(Color::White).max(value(Color::Black)),
            Aggregate::Min => value(Color::White).min(value(Color::Black)),
        }
    }

    /// The player `of` reads as, and his points minus the other side's.
    fn points_lead(&self, of: PlayerRef, points: &[u32]) -> (Color, i64) {
        let color = self.player(of);
        (
            color,
            self.points(color, points) - self.points(color.opponent(), points),
        )
    }

    /// The sum of `points` over `color`'s pieces on the board.
    fn points(&self, color: Color, points: &[u32]) -> i64 {
        self.position
            .pieces()
            .filter(|(_, p)| p.color() == color)
            .map(|(_, p)| i64::from(points.get(p.kind()).copied().unwrap_or(0)))
            .sum()
    }

    fn counter(&self, color: Color, counter: usize) -> u32 {
        self.position
            .counters(color)
            .get(counter)
            .copied()
            .unwrap_or(0)
    }

    /// Whether the condition whose [`Precheck`] is `precheck` may hold:
    /// `false` means it does not.
    #[inline]
    pub fn may_hold(&self, precheck: Precheck) -> bool {
        match precheck {
            Precheck::None => true,
            Precheck::NoLegalMoves => !self.has_legal_move,
            Precheck::Plies(plies) => self.plies_since_reset >= plies,
            Precheck::Repetition { count, in_a_row } => self.repetition_count(in_a_row) >= count,
            Precheck::BareSide => {
                !self.position.has_non_royal(Color::White)
                    || !self.position.has_non_royal(Color::Black)
            }
        }
    }

    /// Whether `condition` holds.
    pub fn holds(&self, condition: &Condition) -> bool {
        // Called for every rule at every node of a search: the common tests
        // are inline, the ones that walk the pieces are calls of their own,
        // which keeps this function's frame small.
        match condition {
            Condition::NoLegalMoves => !self.has_legal_move,
            Condition::ToMove(color) => self.position.side_to_move() == *color,
            Condition::CanMoveInto { pieces, region } => self.can_move_into(pieces, *region),
            Condition::InCheck => self.in_check,
            Condition::InCheckByOnly(kinds) => {
                self.in_check
                    && !self.checking_kinds.is_empty()
                    && self.checking_kinds.iter().all(|k| kinds.contains(k))
            }
            Condition::RoyalCaptured => self.royal_captured(),
            Condition::Repetition { count, in_a_row } => self.repetition_count(*in_a_row) >= *count,
            Condition::PliesSinceReset(plies) => self.plies_since_reset >= *plies,
            Condition::OnlyRoyalsLeft => {
                !self.position.has_non_royal(Color::White)
                    && !self.position.has_non_royal(Color::Black)
            }
            Condition::InsufficientMaterial(sets) => {
                // Cheap test first: exactly one side has pieces besides its royals.
                self.position.has_non_royal(Color::White)
                    != self.position.has_non_royal(Color::Black)
                    && self.insufficient(sets)
            }
            Condition::LastMove(pattern) => self.last_move.is_some_and(|e| e.matches(pattern)),
            Condition::Counting => super::counting::running(self.variant, self.position).is_some(),
            Condition::CountingOverLimit => super::counting::running(self.variant, self.position)
                .is_some_and(|(limit, plies)| plies > limit),
            Condition::And(a, b) => self.holds(a) && self.holds(b),
            Condition::Or(a, b) => self.holds(a) || self.holds(b),
            Condition::Not(a) => !self.holds(a),
            Condition::RoyalsFace => royals_face(self.variant, self.position),
            Condition::Material { .. }
            | Condition::Counter { .. }
            | Condition::PointsLead { .. }
            | Condition::ClockBelow { .. } => self.holds_counted(condition),
        }
    }

    /// [`Context::holds`] for the conditions that count something.
    #[inline(never)]
    fn holds_counted(&self, condition: &Condition) -> bool {
        match condition {
            Condition::Material {
                of,
                filter,
                region,
                comparison,
                value,
            } => compare(
                self.aggregate(*of, |c| self.material(c, filter, *region)),
                *comparison,
                *value,
            ),
            Condition::Counter {
                counter,
                of,
                comparison,
                value,
            } => compare(
                self.aggregate(*of, |c| self.counter(c, *counter)),
                *comparison,
                *value,
            ),
            Condition::PointsLead {
                of,
                points,
                comparison,
                value,
            } => {
                let (_, lead) = self.points_lead(*of, points);
                compare_signed(lead, *comparison, i64::from(*value))
            }
            Condition::ClockBelow { of, seconds } => self.clock.is_some_and(|clock| {
                clock.remaining_ms(self.player(*of)) < u64::from(*seconds) * 1000
            }),
            _ => self.holds(condition),
        }
    }

    /// Whether a legal move of one of `pieces` ends in `region` (for the
    /// side to move).
    #[inline(never)]
    fn can_move_into(&self, pieces: &[PieceId], region: RegionId) -> bool {
        let side = self.position.side_to_move();
        self.variant.regions.get(region).is_some_and(|region| {
            let squares = region.for_side(side);
            self.move_targets
                .iter()
                .any(|(kind, to)| pieces.contains(kind) && squares.contains(*to))
        })
    }

    #[inline(never)]
    fn royal_captured(&self) -> bool {
        self.variant.pieces.iter().any(|p| p.royal)
            && self
                .position
                .royals(self.position.side_to_move())
                .is_empty()
    }

    fn repetition_count(&self, in_a_row: bool) -> u32 {
        if in_a_row {
            self.repetitions.in_a_row
        } else {
            self.repetitions.total
        }
    }

    /// One side has only royal pieces, the other's other pieces are exactly
    /// one of `sets`.
    #[inline(never)]
    fn insufficient(&self, sets: &[Vec<PieceId>]) -> bool {
        let has_others = |color: Color| self.position.has_non_royal(color);
        let stronger = match (has_others(Color::White), has_others(Color::Black)) {
            (true, false) => Color::White,
            (false, true) => Color::Black,
            _ => return false,
        };
        // Asked at every node of a search where few pieces are left: no
        // allocation, and no set can match more pieces than its length.
        const MOST: usize = 16;
        let longest = sets.iter().map(Vec::len).max().unwrap_or(0);
        let mut buffer = [0; MOST];
        let mut listed = Vec::new();
        let mut count = 0;
        for (_, piece) in self.position.pieces() {
            if piece.color() != stronger || piece.is_royal() {
                continue;
            }
            if count == longest {
                return false;
            }
            match buffer.get_mut(count) {
                Some(slot) => *slot = piece.kind(),
                None => listed.push(piece.kind()),
            }
            count += 1;
        }
        let kinds = if count <= MOST {
            &buffer[..count]
        } else {
            listed.splice(0..0, buffer);
            &listed[..]
        };
        let times = |list: &[PieceId], kind: PieceId| list.iter().filter(|&&k| k == kind).count();
        sets.iter().any(|set| {
            set.len() == kinds.len()
                && set
                    .iter()
                    .all(|&kind| times(set, kind) == times(kinds, kind))
        })
    }

    /// The figure that decided an `if` outcome, in words (`with 3 pieces`),
    /// for the reason of a result.
    pub fn detail(&self, condition: &Condition) -> Option<String> {
        match condition {
            Condition::Material {
                of, filter, region, ..
            } => {
                let n = self.aggregate(*of, |c| self.material(c, filter, *region));
                Some(format!(
                    "with {n} {}",
                    if n == 1 { "piece" } else { "pieces" }
                ))
            }
            Condition::Counter { counter, of, .. } => {
                let n = self.aggregate(*of, |c| self.counter(c, *counter));
                let name = self
                    .variant
                    .counters
                    .get(*counter)
                    .map_or("?", |c| c.name.as_str());
                Some(format!("with {name} {n}"))
            }
            Condition::Not(inner) => self.detail(inner),
            _ => None,
        }
    }

    /// Why `condition` does not hold, in words.
    pub fn why_not(&self, condition: &Condition) -> String {
        match condition {
            Condition::And(a, b) => {
                if self.holds(a) {
                    self.why_not(b)
                } else {
                    self.why_not(a)
                }
            }
            Condition::Or(a, b) => format!("{} and {}", self.why_not(a), self.why_not(b)),
            Condition::Not(a) => self.why(a),
            leaf => self.leaf(leaf, false),
        }
    }

    /// Why `condition` holds, in words.
    pub fn why(&self, condition: &Condition) -> String {
        match condition {
            Condition::And(a, b) => format!("{} and {}", self.why(a), self.why(b)),
            Condition::Or(a, b) => {
                if self.holds(a) {
                    self.why(a)
                } else {
                    self.why(b)
                }
            }
            Condition::Not(a) => self.why_not(a),
            leaf => self.leaf(leaf, true),
        }
    }

    fn leaf(&self, condition: &Condition, holds: bool) -> String {
        let variant = self.variant;
        match condition {
            Condition::NoLegalMoves if holds => "the side to move has no legal move".into(),
            Condition::NoLegalMoves => "the side to move has legal moves".into(),
            Condition::ToMove(color) if holds => format!("{color} is to move"),
            Condition::ToMove(color) => format!("{color} is not to move"),
            Condition::CanMoveInto { pieces, region } => format!(
                "the side to move {} move {} into {}",
                if holds { "can" } else { "cannot" },
                names(variant, pieces),
                variant
                    .regions
                    .get(*region)
                    .map_or("?", |r| r.name.as_str())
            ),
            Condition::InCheck if holds => "the side to move is in check".into(),
            Condition::InCheck => "the side to move is not in check".into(),
            Condition::InCheckByOnly(kinds) if holds => format!(
                "the side to move is in check by {} only",
                names(self.variant, kinds)
            ),
            Condition::InCheckByOnly(kinds) => format!(
                "the side to move is not in check by {} only",
                names(self.variant, kinds)
            ),
            Condition::RoyalCaptured if holds => "the side to move has no royal piece".into(),
            Condition::RoyalCaptured => "the side to move has a royal piece".into(),
            Condition::Repetition { count, in_a_row } => {
                let n = self.repetition_count(*in_a_row);
                let row = if *in_a_row { " in a row" } else { "" };
                format!(
                    "the position has occurred {n} {}{row} ({count} needed)",
                    times(n)
                )
            }
            Condition::PliesSinceReset(plies) => format!(
                "{} plies since the last reset ({plies} needed)",
                self.plies_since_reset
            ),
            Condition::Material {
                of,
                filter,
                region,
                comparison,
                value,
            } => {
                let n = self.aggregate(*of, |c| self.material(c, filter, *region));
                format!(
                    "{} {}{} is {n} (the rule needs {} {value})",
                    aggregate_text(*of, "number of"),
                    filter_text(variant, filter),
                    region_text(variant, *region),
                    comparison_text(*comparison)
                )
            }
            Condition::OnlyRoyalsLeft if holds => "only royal pieces are left".into(),
            Condition::OnlyRoyalsLeft => "pieces other than royal ones are left".into(),
            Condition::InsufficientMaterial(_) if holds => "the material is insufficient".into(),
            Condition::InsufficientMaterial(_) => {
                "the material is not one of the insufficient sets".into()
            }
            Condition::Counter {
                counter,
                of,
                comparison,
                value,
            } => {
                let n = self.aggregate(*of, |c| self.counter(c, *counter));
                let name = variant
                    .counters
                    .get(*counter)
                    .map_or("?", |c| c.name.as_str());
                format!(
                    "{} {name} is {n} (the rule needs {} {value})",
                    aggregate_text(*of, "count of"),
                    comparison_text(*comparison)
                )
            }
            Condition::ClockBelow { of, seconds } => match self.clock {
                None => "the game has no clocks".into(),
                Some(clock) => format!(
                    "{}'s clock shows {} s (the rule needs below {seconds} s)",
                    self.player(*of),
                    format_seconds(clock.remaining_ms(self.player(*of)))
                ),
            },
            Condition::RoyalsFace if holds => "the royal pieces face each other".into(),
            Condition::RoyalsFace => "the royal pieces do not face each other".into(),
            Condition::PointsLead {
                of,
                points,
                comparison,
                value,
            } => {
                let (color, lead) = self.points_lead(*of, points);
                format!(
                    "{color} leads by {lead} points (the rule needs {} {value})",
                    comparison_text(*comparison)
                )
            }
            Condition::LastMove(pattern) if holds => {
                format!("the last move was {}", event_text(variant, pattern))
            }
            Condition::LastMove(pattern) => {
                format!("the last move was not {}", event_text(variant, pattern))
            }
            Condition::Counting | Condition::CountingOverLimit => {
                match super::counting::running(variant, self.position) {
                    None => "no count runs".into(),
                    Some((limit, plies)) => {
                        format!("the count stands at {plies} plies of a limit of {limit}")
                    }
                }
            }
            Condition::And(..) | Condition::Or(..) | Condition::Not(..) => {
                if holds {
                    self.why(condition)
                } else {
                    self.why_not(condition)
                }
            }
        }
    }
}

fn times(n: u32) -> &'static str {
    if n == 1 {
        "time"
    } else {
        "times"
    }
}

/// Whether `filter` counts pieces of `kind`.
pub fn filter_counts(filter: &PieceFilter, kind: PieceId) -> bool {
    match filter {
        PieceFilter::All => true,
        PieceFilter::Only(kinds) => kinds.contains(&kind),
        PieceFilter::Except(kinds) => !kinds.contains(&kind),
    }
}

/// `value comparison limit`.
/// [`compare`] for a signed value (a points lead).
pub fn compare_signed(value: i64, comparison: Comparison, limit: i64) -> bool {
    match comparison {
        Comparison::Less => value < limit,
        Comparison::LessEqual => value <= limit,
        Comparison::Equal => value == limit,
        Comparison::GreaterEqual => value >= limit,
        Comparison::Greater => value > limit,
    }
}

/// Whether a royal piece of one side sees a royal piece of the other
/// along a file or rank with only empty squares between them (a hole
/// ends the line).
pub fn royals_face<P: Board>(variant: &Variant, position: &P) -> bool {
    let royals: Vec<(Square, Color)> = position
        .pieces()
        .filter(|(_, p)| p.is_royal())
        .map(|(s, p)| (s, p.color()))
        .collect();
    royals.iter().any(|&(square, color)| {
        [(0i32, 1i32), (0, -1), (1, 0), (-1, 0)]
            .iter()
            .any(|&(dx, dy)| {
                let (mut file, mut rank) = (square.file as i32 + dx, square.rank as i32 + dy);
                while variant.board.contains(file, rank) {
                    let here = Square::new(file as u8, rank as u8);
                    if let Some(piece) = position.piece_at(here) {
                        return piece.is_royal() && piece.color() != color;
                    }
                    file += dx;
                    rank += dy;
                }
                false
            })
    })
}

pub fn compare(value: u32, comparison: Comparison, limit: u32) -> bool {
    match comparison {
        Comparison::Less => value < limit,
        Comparison::LessEqual => value <= limit,
        Comparison::Equal => value == limit,
        Comparison::GreaterEqual => value >= limit,
        Comparison::Greater => value > limit,
    }
}

fn comparison_text(comparison: Comparison) -> &'static str {
    match comparison {
        Comparison::Less => "<",
        Comparison::LessEqual => "<=",
        Comparison::Equal => "==",
        Comparison::GreaterEqual => ">=",
        Comparison::Greater => ">",
    }
}

fn aggregate_text(of: Aggregate, noun: &str) -> String {
    match of {
        Aggregate::Max => format!("the larger {noun}"),
        Aggregate::Min => format!("the smaller {noun}"),
        Aggregate::Of(player) => format!("{} {noun}", player_text(player)),
    }
}

/// A player reference in words, possessive (`the side to move's`).
pub fn player_text(player: PlayerRef) -> &'static str {
    match player {
        PlayerRef::SideToMove => "the side to move's",
        PlayerRef::Opponent => "the opponent's",
        PlayerRef::White => "white's",
        PlayerRef::Black => "black's",
    }
}

fn names(variant: &Variant, kinds: &[PieceId]) -> String {
    kinds
        .iter()
        .map(|k| variant.pieces.get(*k).map_or("?", |p| p.name.as_str()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// ` in REGION` for a count limited to a region, else nothing.
fn region_text(variant: &Variant, region: Option<RegionId>) -> String {
    region
        .and_then(|id| variant.regions.get(id))
        .map_or(String::new(), |r| format!(" in {}", r.name))
}

fn filter_text(variant: &Variant, filter: &PieceFilter) -> String {
    match filter {
        PieceFilter::All => "pieces".into(),
        PieceFilter::Only(kinds) => format!("pieces of {}", names(variant, kinds)),
        PieceFilter::Except(kinds) => format!("pieces except {}", names(variant, kinds)),
    }
}

/// An event pattern in words.
pub fn event_text(variant: &Variant, pattern: &EventPattern) -> String {
    let of = |kinds: &[PieceId]| {
        if kinds.is_empty() {
            String::new()
        } else {
            format!(" of {}", names(variant, kinds))
        }
    };
    match pattern {
        EventPattern::Capture(kinds) => format!("a capture{}", of(kinds)),
        EventPattern::EnPassant => "an en passant capture".into(),
        EventPattern::Pass => "a pass".into(),
        EventPattern::MoveOf(kinds) => format!("a move{}", of(kinds)),
        EventPattern::DropOf(kinds) => format!("a drop{}", of(kinds)),
        EventPattern::Promotion { from, to } => {
            let to = if to.is_empty() {
                String::new()
            } else {
                format!(" to {}", names(variant, to))
            };
            format!("a promotion{}{to}", of(from))
        }
        EventPattern::Castle(None) => "castling".into(),
        EventPattern::Castle(Some(crate::model::CastleSide::Short)) => "short castling".into(),
        EventPattern::Castle(Some(crate::model::CastleSide::Long)) => "long castling".into(),
        EventPattern::RoyalCapture => "a royal capture".into(),
        EventPattern::Crowning(kinds) => format!("a crowning{}", of(kinds)),
        EventPattern::LawsCheckmate => "checkmate under the Laws of Chess".into(),
        EventPattern::Check => "a check".into(),
        EventPattern::CheckBy(kinds) => format!("a check by {}", names(variant, kinds)),
        EventPattern::Not(a) => format!("no {}", event_text(variant, a)),
        EventPattern::MovedPieceWas(kinds) => {
            format!("a move by a piece that was {}", names(variant, kinds))
        }
        EventPattern::Both(a, b) => {
            format!("{} with {}", event_text(variant, a), event_text(variant, b))
        }
    }
}
