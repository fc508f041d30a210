//! Game rules: events and counters, conditions, terminations, awards,
//! agreement, resignation, tiebreak, scoring and match rules.

use super::Lowerer;
use crate::ast;
use crate::error::{Code, Error, Span};
use crate::model::*;

impl Lowerer<'_> {
    /// Counter names are known before any rule refers to them.
    pub(super) fn register_counters(&mut self) {
        let names: Vec<String> = self
            .items
            .iter()
            .filter_map(|i| {
                let ast::BodyKind::Counter(counter) = &i.body.kind else {
                    return None;
                };
                Some(counter.name.name.clone())
            })
            .collect();
        for name in names {
            self.counter_ids.insert(name.clone(), self.counters.len());
            self.counters.push(Counter {
                name,
                events: Vec::new(),
                fen_countdown: None,
                resets: Vec::new(),
            });
        }
    }

    pub(super) fn lower_counter(&mut self, file: usize, counter: &ast::Counter) {
        let events = self.lower_event_list(file, &counter.events);
        let resets = self.lower_event_list(file, &counter.resets);
        let fen_countdown = counter.fen_countdown.as_ref().and_then(|from| {
            self.number_in(
                file,
                from,
                1..=u32::MAX,
                "the number a FEN counter counts down from",
            )
        });
        if let Some(id) = self.counter_ids.get(&counter.name.name).copied() {
            self.counters[id].events = events;
            self.counters[id].resets = resets;
            self.counters[id].fen_countdown = fen_countdown;
        }
    }

    pub(super) fn lower_event_list(
        &mut self,
        file: usize,
        events: &[ast::Event],
    ) -> Vec<EventPattern> {
        events.iter().filter_map(|e| self.event(file, e)).collect()
    }

    fn event(&mut self, file: usize, event: &ast::Event) -> Option<EventPattern> {
        let mut result: Option<EventPattern> = None;
        for atom in &event.atoms {
            let pattern = self.event_atom(file, atom);
            result = Some(match result {
                None => pattern,
                Some(previous) => EventPattern::Both(Box::new(previous), Box::new(pattern)),
            });
        }
        result
    }

    fn event_atom(&mut self, file: usize, atom: &ast::EventAtom) -> EventPattern {
        match atom {
            ast::EventAtom::Capture(pieces) => EventPattern::Capture(self.piece_list(file, pieces)),
            ast::EventAtom::EnPassant => EventPattern::EnPassant,
            ast::EventAtom::Pass => EventPattern::Pass,
            ast::EventAtom::MoveOf(pieces) => EventPattern::MoveOf(self.piece_list(file, pieces)),
            ast::EventAtom::DropOf(pieces) => EventPattern::DropOf(self.piece_list(file, pieces)),
            ast::EventAtom::Promotion { of, to } => {
                let from = of
                    .as_ref()
                    .map_or_else(Vec::new, |of| self.piece_list(file, of));
                let to = to
                    .as_ref()
                    .map_or_else(Vec::new, |to| self.piece_list(file, to));
                EventPattern::Promotion { from, to }
            }
            ast::EventAtom::Castle(side) => EventPattern::Castle(side.map(|side| match side {
                ast::CastlingSide::Short => CastleSide::Short,
                ast::CastlingSide::Long => CastleSide::Long,
            })),
            ast::EventAtom::RoyalCapture => EventPattern::RoyalCapture,
            ast::EventAtom::Crowning(pieces) => {
                EventPattern::Crowning(self.piece_list(file, pieces))
            }
            ast::EventAtom::LawsCheckmate => EventPattern::LawsCheckmate,
            ast::EventAtom::Check => EventPattern::Check,
            ast::EventAtom::CheckBy(pieces) => EventPattern::CheckBy(self.piece_list(file, pieces)),
            ast::EventAtom::Not(operand) => {
                EventPattern::Not(Box::new(self.event_atom(file, operand)))
            }
            ast::EventAtom::MovedPieceWas(pieces) => {
                EventPattern::MovedPieceWas(self.piece_list(file, pieces))
            }
        }
    }

    pub(super) fn condition(&mut self, file: usize, condition: &ast::Condition) -> Condition {
        match condition {
            ast::Condition::Or(parts) => self.chain(file, parts, Condition::Or),
            ast::Condition::And(parts) => self.chain(file, parts, Condition::And),
            ast::Condition::Not(operand) => Condition::Not(Box::new(self.condition(file, operand))),
            ast::Condition::NoLegalMoves => Condition::NoLegalMoves,
            ast::Condition::ToMove(colour) => Condition::ToMove(match colour {
                ast::Colour::White => Color::White,
                ast::Colour::Black => Color::Black,
            }),
            ast::Condition::CanMoveInto { pieces, region } => Condition::CanMoveInto {
                pieces: self.piece_list(file, pieces),
                region: self.region(file, region).unwrap_or(0),
            },
            ast::Condition::InCheck => Condition::InCheck,
            ast::Condition::InCheckByOnly(pieces) => {
                Condition::InCheckByOnly(self.piece_list(file, pieces))
            }
            ast::Condition::RoyalCaptured => Condition::RoyalCaptured,
            ast::Condition::Counting => Condition::Counting,
            ast::Condition::CountingOverLimit => Condition::CountingOverLimit,
            ast::Condition::Repetition {
                count,
                in_a_row,
                span,
            } => {
                let count = self.condition_number(file, count);
                if count < 2 {
                    self.error(
                        Error::new(
                            Code::RepetitionAlwaysTrue,
                            file,
                            *span,
                            format!("repetition {count} is always true"),
                        )
                        .with_label("a position occurs at least once")
                        .with_help("threefold repetition is `repetition 3`"),
                    );
                }
                Condition::Repetition {
                    count,
                    in_a_row: *in_a_row,
                }
            }
            ast::Condition::Plies(plies) => {
                Condition::PliesSinceReset(self.condition_number(file, plies))
            }
            ast::Condition::OnlyRoyalsLeft => Condition::OnlyRoyalsLeft,
            ast::Condition::InsufficientMaterial(sets) => Condition::InsufficientMaterial(
                sets.iter().map(|set| self.piece_list(file, set)).collect(),
            ),
            ast::Condition::Material {
                of,
                filter,
                region,
                comparison: compared,
                value,
            } => {
                let region = region.as_ref().and_then(|name| self.region(file, name));
                let filter = match filter {
                    None => PieceFilter::All,
                    Some(filter) => {
                        let kinds = self.piece_list(file, &filter.pieces);
                        match filter.kind {
                            ast::FilterKind::Except => PieceFilter::Except(kinds),
                            ast::FilterKind::Of => PieceFilter::Only(kinds),
                        }
                    }
                };
                Condition::Material {
                    of: aggregate(*of),
                    filter,
                    region,
                    comparison: *compared,
                    value: self.condition_number(file, value),
                }
            }
            ast::Condition::Counter {
                of,
                counter,
                comparison: compared,
                value,
            } => {
                let counter = self.counter(file, counter).unwrap_or(0);
                Condition::Counter {
                    counter,
                    of: aggregate(*of),
                    comparison: *compared,
                    value: self.condition_number(file, value),
                }
            }
            ast::Condition::RoyalsFace => Condition::RoyalsFace,
            ast::Condition::PointsLead {
                of,
                comparison,
                value,
            } => Condition::PointsLead {
                of: player(*of),
                points: self.lower_points(),
                comparison: *comparison,
                value: self.condition_number(file, value),
            },
            ast::Condition::ClockBelow { of, seconds } => Condition::ClockBelow {
                of: player(*of),
                seconds: self.condition_number(file, seconds),
            },
            ast::Condition::LastMove(event) => match self.event(file, event) {
                Some(event) => Condition::LastMove(event),
                // The grammar gives an event at least one atom.
                None => Condition::NoLegalMoves,
            },
        }
    }

    /// `A or B or C` (or `and`), folded from the left.
    fn chain(
        &mut self,
        file: usize,
        parts: &[ast::Condition],
        join: fn(Box<Condition>, Box<Condition>) -> Condition,
    ) -> Condition {
        let mut lowered = parts.iter().map(|part| self.condition(file, part));
        // The builder gives a chain at least two parts.
        let first = lowered.next().unwrap_or(Condition::NoLegalMoves);
        lowered.fold(first, |a, b| join(Box::new(a), Box::new(b)))
    }

    /// The number of a condition (`repetition 3`, `plies >= 100`, ...).
    fn condition_number(&mut self, file: usize, number: &ast::Token) -> u32 {
        self.number_in(file, number, 0..=u32::MAX, "a number in a condition")
            .unwrap_or(0)
    }

    fn outcome(&mut self, file: usize, outcome: &ast::Outcome) -> Outcome {
        match outcome {
            ast::Outcome::Win(who) => Outcome::Win(player(*who)),
            ast::Outcome::Loss(who) => Outcome::Win(other(player(*who))),
            ast::Outcome::Draw => Outcome::Draw,
            ast::Outcome::NullGame => Outcome::NullGame,
            ast::Outcome::GameOver => Outcome::GameOver,
            ast::Outcome::If(condition, then, otherwise) => {
                let condition = self.condition(file, condition);
                let then = self.outcome(file, then);
                let otherwise = self.outcome(file, otherwise);
                Outcome::If(condition, Box::new(then), Box::new(otherwise))
            }
        }
    }

    pub(super) fn lower_termination(
        &mut self,
        file: usize,
        termination: &ast::Termination,
        span: Span,
        label: Option<String>,
    ) -> Termination {
        let trigger = match termination.trigger {
            ast::TriggerKind::End => Trigger::Automatic,
            ast::TriggerKind::Claim => Trigger::Claim,
        };
        let condition = self.condition(file, &termination.condition);
        let outcome = self.outcome(file, &termination.outcome);
        let mut reason = label.clone().unwrap_or_default().replace('-', " ");
        let mut tiebreak_applies = false;
        for option in &termination.options {
            match option {
                ast::TerminationOption::Reason(text) => reason = text.value.clone(),
                ast::TerminationOption::Tiebreak => tiebreak_applies = true,
            }
        }
        if reason.is_empty() {
            self.error(
                Error::new(
                    Code::MissingReason,
                    file,
                    span,
                    "a game-ending rule needs a reason to tell the players",
                )
                .with_label("no label and no `reason`")
                .with_help("label it (`stalemate: end when ...`) or add `, reason \"stalemate\"`"),
            );
        }
        Termination {
            label,
            condition,
            trigger,
            outcome,
            reason,
            tiebreak_applies,
        }
    }

    pub(super) fn lower_award(&mut self, file: usize, award: &ast::Award) -> Option<Award> {
        let wins = self.number_in(file, &award.wins, 0..=MAX_AWARD_WINS, "an award's wins")?;
        let when = self.condition(file, &award.when);
        let mut lowered = Award {
            name: award.name.value.clone(),
            wins,
            to: player(award.to),
            when,
            once: false,
            ends_game: false,
            not_stackable_with: Vec::new(),
        };
        for option in &award.options {
            match option {
                ast::AwardOption::Once => lowered.once = true,
                ast::AwardOption::EndsGame => lowered.ends_game = true,
                ast::AwardOption::NotWith(names) => lowered
                    .not_stackable_with
                    .extend(names.iter().map(|name| name.value.clone())),
            }
        }
        Some(lowered)
    }

    pub(super) fn lower_agreement(&mut self, file: usize, agreement: &ast::Agreement) -> Agreement {
        match agreement {
            ast::Agreement::Never => Agreement::Never,
            ast::Agreement::Always => Agreement::Always,
            ast::Agreement::When(condition) => Agreement::When(self.condition(file, condition)),
        }
    }

    pub(super) fn lower_resignation(&mut self, file: usize, resign: &ast::Resign) -> Resignation {
        let (base, per_count, counter) = match resign {
            ast::Resign::OpponentWins => return Resignation::OpponentWins,
            ast::Resign::Award {
                base,
                per_count,
                counter,
            } => (base, per_count, counter),
        };
        let counter = self.counter(file, counter);
        let mut wins =
            |number| self.number_in(file, number, 0..=MAX_AWARD_WINS, "a resignation's wins");
        let (base, per_count) = (wins(base), wins(per_count));
        match (base, per_count, counter) {
            (Some(base), Some(per_count), Some(counter)) => Resignation::AwardWins {
                base,
                per_count,
                counter,
            },
            (None, _, _) | (_, None, _) | (_, _, None) => Resignation::OpponentWins,
        }
    }

    pub(super) fn lower_tiebreak(
        &mut self,
        file: usize,
        tiebreak: &ast::Tiebreak,
    ) -> Option<Tiebreak> {
        let wins = self
            .number_in(
                file,
                &tiebreak.wins,
                0..=MAX_AWARD_WINS,
                "a tiebreak's wins",
            )
            .unwrap_or(1);
        let mut lowered = Tiebreak {
            values: Vec::new(),
            region_values: Vec::new(),
            counter_values: Vec::new(),
            wins,
        };
        for entry in &tiebreak.entries {
            let points = self
                .number_in(
                    file,
                    &entry.points,
                    0..=MAX_AWARD_WINS,
                    "a tiebreak's points",
                )
                .unwrap_or(0);
            let name = &entry.name;
            if let Some(region) = &entry.region {
                if let (Some(piece), Some(region)) =
                    (self.piece(file, name), self.region(file, region))
                {
                    lowered.region_values.push((piece, region, points));
                }
            } else if self.piece_ids.contains_key(&name.name) {
                if let Some(piece) = self.piece(file, name) {
                    lowered.values.push((piece, points));
                }
            } else if let Some(counter) = self.counter(file, name) {
                lowered.counter_values.push((counter, points));
            }
        }
        Some(lowered)
    }

    pub(super) fn lower_score(&mut self, file: usize, score: &ast::Score) -> Scoring {
        let pairs = match score {
            ast::Score::ByWins => return Scoring::Wins,
            ast::Score::Points(pairs) => pairs,
        };
        let mut points = [1.0, 0.5, 0.0, 0.0];
        let mut seen = [false; 4];
        for pair in pairs {
            // The grammar gives digits with an optional fraction.
            let value = pair.points.text.parse::<f64>().unwrap_or(0.0);
            let slot = match pair.kind {
                ast::ScoreKind::Win => 0,
                ast::ScoreKind::Draw => 1,
                ast::ScoreKind::Loss => 2,
                ast::ScoreKind::Null => 3,
            };
            if seen[slot] {
                self.error(
                    Error::new(
                        Code::ScoreTwice,
                        file,
                        pair.span,
                        format!("the score of a {} is given twice", pair.kind.keyword()),
                    )
                    .with_label("given again here")
                    .with_help("give each of win, draw, loss and null once"),
                );
            }
            seen[slot] = true;
            points[slot] = value;
        }
        Scoring::Points {
            win: points[0],
            draw: points[1],
            loss: points[2],
            null: points[3],
        }
    }

    pub(super) fn lower_match(&mut self, file: usize, rule: &ast::Match) -> MatchRule {
        match rule {
            ast::Match::Replay { same_colours } => MatchRule::ReplayNullGame {
                same_colours: *same_colours,
            },
            ast::Match::Forfeit { count, winner } => MatchRule::ForfeitAfterNulls {
                count: self
                    .number_in(file, count, 1..=u32::MAX, "the null games before a forfeit")
                    .unwrap_or(2),
                winner: player(*winner),
            },
            ast::Match::Casual => MatchRule::CasualNullIsDraw,
        }
    }
}

pub(super) fn player(player: ast::Player) -> PlayerRef {
    match player {
        ast::Player::SideToMove => PlayerRef::SideToMove,
        ast::Player::White => PlayerRef::White,
        ast::Player::Black => PlayerRef::Black,
        // After a move, the player who made it is the one not to move.
        ast::Player::Opponent | ast::Player::Mover => PlayerRef::Opponent,
    }
}

fn other(player: PlayerRef) -> PlayerRef {
    match player {
        PlayerRef::SideToMove => PlayerRef::Opponent,
        PlayerRef::Opponent => PlayerRef::SideToMove,
        PlayerRef::White => PlayerRef::Black,
        PlayerRef::Black => PlayerRef::White,
    }
}

fn aggregate(aggregate: ast::Aggregate) -> Aggregate {
    match aggregate {
        ast::Aggregate::Max => Aggregate::Max,
        ast::Aggregate::Min => Aggregate::Min,
        ast::Aggregate::Player(who) => Aggregate::Of(player(who)),
    }
}
