//! Game rules: events and counters, conditions, terminations, awards,
//! agreement, resignation, tiebreak, scoring and match rules.

use super::{children, first_child, Lowerer};
use crate::error::{Code, Error};
use crate::model::*;
use crate::syntax::{Node, Rule};

impl Lowerer<'_> {
    /// Counter names are known before any rule refers to them.
    pub(super) fn register_counters(&mut self) {
        let names: Vec<String> = self
            .items
            .iter()
            .filter(|i| i.body.as_rule() == Rule::counter_stmt)
            .filter_map(|i| first_child(&i.body, Rule::ident).map(|n| n.as_str().to_string()))
            .collect();
        for name in names {
            self.counter_ids.insert(name.clone(), self.counters.len());
            self.counters.push(Counter {
                name,
                events: Vec::new(),
            });
        }
    }

    pub(super) fn lower_counter(&mut self, file: usize, body: Node<'_>) {
        let Some(name) = first_child(&body, Rule::ident) else {
            return;
        };
        let events = self.lower_event_list(file, first_child(&body, Rule::event_list));
        if let Some(id) = self.counter_ids.get(name.as_str()).copied() {
            self.counters[id].events = events;
        }
    }

    pub(super) fn lower_event_list(
        &mut self,
        file: usize,
        list: Option<Node<'_>>,
    ) -> Vec<EventPattern> {
        let Some(list) = list else { return Vec::new() };
        children(&list, Rule::event)
            .iter()
            .filter_map(|e| self.event(file, e))
            .collect()
    }

    fn event(&mut self, file: usize, node: &Node<'_>) -> Option<EventPattern> {
        let mut result: Option<EventPattern> = None;
        for atom in children(node, Rule::event_atom) {
            let Some(inner) = atom.into_inner().next() else {
                continue;
            };
            let alts = children(&inner, Rule::ident_alt);
            let mut lists: Vec<Vec<PieceId>> = alts
                .iter()
                .map(|a| {
                    children(a, Rule::ident)
                        .iter()
                        .filter_map(|i| self.piece(file, i))
                        .collect()
                })
                .collect();
            let text = inner.as_str();
            let pattern = match inner.as_rule() {
                Rule::ev_capture => EventPattern::Capture(lists.pop().unwrap_or_default()),
                Rule::ev_en_passant => EventPattern::EnPassant,
                Rule::ev_move_of => EventPattern::MoveOf(lists.pop().unwrap_or_default()),
                Rule::ev_promotion => {
                    // `promotion of X to Y`, `promotion of X`, `promotion to Y`.
                    // Which keyword opens the first list is read from the
                    // words before it (comments left out), so that any
                    // layout (`to` + tab or line break) lowers the same.
                    let first_is_of = alts.first().is_some_and(|alt| {
                        let before = &text[..alt.as_span().start() - inner.as_span().start()];
                        before
                            .lines()
                            .map(|line| line.split('#').next().unwrap_or(""))
                            .flat_map(str::split_whitespace)
                            .last()
                            == Some("of")
                    });
                    let (has_of, has_to) = match lists.len() {
                        2 => (true, true),
                        1 => (first_is_of, !first_is_of),
                        _ => (false, false),
                    };
                    let mut it = lists.into_iter();
                    let from = if has_of {
                        it.next().unwrap_or_default()
                    } else {
                        Vec::new()
                    };
                    let to = if has_to {
                        it.next().unwrap_or_default()
                    } else {
                        Vec::new()
                    };
                    EventPattern::Promotion { from, to }
                }
                Rule::ev_castle => {
                    EventPattern::Castle(first_child(&inner, Rule::castle_side_kw).map(|k| {
                        if k.as_str() == "short" {
                            CastleSide::Short
                        } else {
                            CastleSide::Long
                        }
                    }))
                }
                Rule::ev_royal_capture => EventPattern::RoyalCapture,
                Rule::ev_crowning => EventPattern::Crowning(lists.pop().unwrap_or_default()),
                Rule::ev_laws_checkmate => EventPattern::LawsCheckmate,
                Rule::ev_moved_was => EventPattern::MovedPieceWas(
                    children(&inner, Rule::ident)
                        .iter()
                        .filter_map(|i| self.piece(file, i))
                        .collect(),
                ),
                _ => continue,
            };
            result = Some(match result {
                None => pattern,
                Some(previous) => EventPattern::Both(Box::new(previous), Box::new(pattern)),
            });
        }
        result
    }

    pub(super) fn condition(&mut self, file: usize, node: &Node<'_>) -> Condition {
        let mut disjuncts = children(node, Rule::cond_and)
            .into_iter()
            .map(|c| self.conjunction(file, &c));
        let first = disjuncts.next().unwrap_or(Condition::NoLegalMoves);
        disjuncts.fold(first, |a, b| Condition::Or(Box::new(a), Box::new(b)))
    }

    fn conjunction(&mut self, file: usize, node: &Node<'_>) -> Condition {
        let mut parts = children(node, Rule::cond_unary)
            .into_iter()
            .map(|c| self.unary(file, &c));
        let first = parts.next().unwrap_or(Condition::NoLegalMoves);
        parts.fold(first, |a, b| Condition::And(Box::new(a), Box::new(b)))
    }

    fn unary(&mut self, file: usize, node: &Node<'_>) -> Condition {
        let Some(inner) = node.clone().into_inner().next() else {
            return Condition::NoLegalMoves;
        };
        match inner.as_rule() {
            Rule::cond_not => match first_child(&inner, Rule::cond_unary) {
                Some(operand) => Condition::Not(Box::new(self.unary(file, &operand))),
                None => Condition::NoLegalMoves,
            },
            _ => self.atom(file, &inner),
        }
    }

    /// The number of a condition (`repetition 3`, `plies >= 100`, ...).
    fn condition_int(&mut self, file: usize, node: &Node<'_>) -> u32 {
        first_child(node, Rule::int)
            .and_then(|i| self.number_in(file, &i, 0..=u32::MAX, "a number in a condition"))
            .unwrap_or(0)
    }

    fn atom(&mut self, file: usize, node: &Node<'_>) -> Condition {
        let Some(inner) = node.clone().into_inner().next() else {
            return Condition::NoLegalMoves;
        };
        match inner.as_rule() {
            Rule::condition => self.condition(file, &inner),
            Rule::c_no_legal_moves => Condition::NoLegalMoves,
            Rule::c_in_check => Condition::InCheck,
            Rule::c_royal_captured => Condition::RoyalCaptured,
            Rule::c_repetition => {
                let count = self.condition_int(file, &inner);
                if count < 2 {
                    self.error(
                        Error::new(
                            Code::RepetitionAlwaysTrue,
                            file,
                            inner.as_span().into(),
                            format!("repetition {count} is always true"),
                        )
                        .with_label("a position occurs at least once")
                        .with_help("threefold repetition is `repetition 3`"),
                    );
                }
                Condition::Repetition {
                    count,
                    in_a_row: first_child(&inner, Rule::in_a_row).is_some(),
                }
            }
            Rule::c_plies => Condition::PliesSinceReset(self.condition_int(file, &inner)),
            Rule::c_only_royals => Condition::OnlyRoyalsLeft,
            Rule::c_insufficient => Condition::InsufficientMaterial(
                children(&inner, Rule::material_set)
                    .iter()
                    .map(|set| {
                        children(set, Rule::ident)
                            .iter()
                            .filter_map(|i| self.piece(file, i))
                            .collect()
                    })
                    .collect(),
            ),
            Rule::c_material => {
                let of = self.aggregate(&inner);
                let filter = match first_child(&inner, Rule::piece_filter) {
                    None => PieceFilter::All,
                    Some(f) => {
                        let kinds = self.piece_list(file, first_child(&f, Rule::ident_list));
                        if first_child(&f, Rule::filter_kind)
                            .is_some_and(|k| k.as_str() == "except")
                        {
                            PieceFilter::Except(kinds)
                        } else {
                            PieceFilter::Only(kinds)
                        }
                    }
                };
                Condition::Material {
                    of,
                    filter,
                    comparison: comparison(&inner),
                    value: self.condition_int(file, &inner),
                }
            }
            Rule::c_counter => {
                let of = self.aggregate(&inner);
                let counter = first_child(&inner, Rule::ident)
                    .and_then(|i| self.counter(file, &i))
                    .unwrap_or(0);
                Condition::Counter {
                    counter,
                    of,
                    comparison: comparison(&inner),
                    value: self.condition_int(file, &inner),
                }
            }
            Rule::c_clock => Condition::ClockBelow {
                of: first_child(&inner, Rule::player)
                    .map(|p| player(&p))
                    .unwrap_or(PlayerRef::SideToMove),
                seconds: self.condition_int(file, &inner),
            },
            Rule::c_last_move => {
                match first_child(&inner, Rule::event).and_then(|e| self.event(file, &e)) {
                    Some(event) => Condition::LastMove(event),
                    None => Condition::NoLegalMoves,
                }
            }
            _ => Condition::NoLegalMoves,
        }
    }

    fn aggregate(&mut self, node: &Node<'_>) -> Aggregate {
        let Some(aggregate) =
            first_child(node, Rule::aggregate).and_then(|a| a.into_inner().next())
        else {
            return Aggregate::Max;
        };
        match aggregate.as_rule() {
            Rule::max_agg => Aggregate::Max,
            Rule::min_agg => Aggregate::Min,
            _ => Aggregate::Of(player(&aggregate)),
        }
    }

    fn outcome(&mut self, file: usize, node: &Node<'_>) -> Outcome {
        let Some(inner) = node.clone().into_inner().next() else {
            return Outcome::Draw;
        };
        let who = |n: &Node<'_>| {
            first_child(n, Rule::player)
                .map(|p| player(&p))
                .unwrap_or(PlayerRef::SideToMove)
        };
        match inner.as_rule() {
            Rule::win_outcome => Outcome::Win(who(&inner)),
            Rule::loss_outcome => Outcome::Win(other(who(&inner))),
            Rule::draw_outcome => Outcome::Draw,
            Rule::null_outcome => Outcome::NullGame,
            Rule::game_over => Outcome::GameOver,
            Rule::if_outcome => {
                let condition = first_child(&inner, Rule::condition)
                    .map(|c| self.condition(file, &c))
                    .unwrap_or(Condition::NoLegalMoves);
                let branches = children(&inner, Rule::outcome);
                let then = branches
                    .first()
                    .map(|b| self.outcome(file, b))
                    .unwrap_or(Outcome::Draw);
                let otherwise = branches
                    .get(1)
                    .map(|b| self.outcome(file, b))
                    .unwrap_or(Outcome::Draw);
                Outcome::If(condition, Box::new(then), Box::new(otherwise))
            }
            _ => Outcome::Draw,
        }
    }

    pub(super) fn lower_termination(
        &mut self,
        file: usize,
        body: Node<'_>,
        label: Option<String>,
    ) -> Option<Termination> {
        let trigger = match first_child(&body, Rule::trigger)?.as_str() {
            "claim" => Trigger::Claim,
            _ => Trigger::Automatic,
        };
        let condition = self.condition(file, &first_child(&body, Rule::condition)?);
        let outcome = self.outcome(file, &first_child(&body, Rule::outcome)?);
        let mut reason = label.clone().unwrap_or_default().replace('-', " ");
        let mut tiebreak_applies = false;
        for option in children(&body, Rule::termination_option) {
            if let Some(r) =
                first_child(&option, Rule::reason).and_then(|r| first_child(&r, Rule::string))
            {
                reason = super::string_value(&r);
            }
            if first_child(&option, Rule::tiebreak_flag).is_some() {
                tiebreak_applies = true;
            }
        }
        if reason.is_empty() {
            self.error(
                Error::new(
                    Code::MissingReason,
                    file,
                    body.as_span().into(),
                    "a game-ending rule needs a reason to tell the players",
                )
                .with_label("no label and no `reason`")
                .with_help("label it (`stalemate: end when ...`) or add `, reason \"stalemate\"`"),
            );
        }
        Some(Termination {
            label,
            condition,
            trigger,
            outcome,
            reason,
            tiebreak_applies,
        })
    }

    pub(super) fn lower_award(&mut self, file: usize, body: Node<'_>) -> Option<Award> {
        let name = super::string_value(&first_child(&body, Rule::string)?);
        let wins = self.number_in(
            file,
            &first_child(&body, Rule::int)?,
            0..=MAX_AWARD_WINS,
            "an award's wins",
        )?;
        let to = player(&first_child(&body, Rule::player)?);
        let when = self.condition(file, &first_child(&body, Rule::condition)?);
        let mut award = Award {
            name,
            wins,
            to,
            when,
            once: false,
            ends_game: false,
            not_stackable_with: Vec::new(),
        };
        for option in children(&body, Rule::award_option) {
            let Some(inner) = option.into_inner().next() else {
                continue;
            };
            match inner.as_rule() {
                Rule::once => award.once = true,
                Rule::ends_game => award.ends_game = true,
                Rule::not_with => award.not_stackable_with.extend(
                    children(&inner, Rule::string)
                        .iter()
                        .map(super::string_value),
                ),
                _ => {}
            }
        }
        Some(award)
    }

    pub(super) fn lower_agreement(&mut self, file: usize, body: Node<'_>) -> Agreement {
        let Some(inner) = body.clone().into_inner().next() else {
            return Agreement::Always;
        };
        match inner.as_rule() {
            Rule::agreement_never => Agreement::Never,
            Rule::agreement_when => match first_child(&inner, Rule::condition) {
                Some(c) => Agreement::When(self.condition(file, &c)),
                None => Agreement::Always,
            },
            _ => Agreement::Always,
        }
    }

    pub(super) fn lower_resignation(&mut self, file: usize, body: Node<'_>) -> Resignation {
        let Some(award) = first_child(&body, Rule::resign_award) else {
            return Resignation::OpponentWins;
        };
        let ints = children(&award, Rule::int);
        let counter = first_child(&award, Rule::ident).and_then(|i| self.counter(file, &i));
        let mut wins = |node: Option<&Node<'_>>| {
            node.and_then(|n| self.number_in(file, n, 0..=MAX_AWARD_WINS, "a resignation's wins"))
        };
        let (base, per_count) = (wins(ints.first()), wins(ints.get(1)));
        match (base, per_count, counter) {
            (Some(base), Some(per_count), Some(counter)) => Resignation::AwardWins {
                base,
                per_count,
                counter,
            },
            _ => Resignation::OpponentWins,
        }
    }

    pub(super) fn lower_tiebreak(&mut self, file: usize, body: Node<'_>) -> Option<Tiebreak> {
        let wins = first_child(&body, Rule::int)
            .and_then(|n| self.number_in(file, &n, 0..=MAX_AWARD_WINS, "a tiebreak's wins"))
            .unwrap_or(1);
        let mut tiebreak = Tiebreak {
            values: Vec::new(),
            region_values: Vec::new(),
            counter_values: Vec::new(),
            wins,
        };
        for entry in children(&body, Rule::tiebreak_entry) {
            let idents = children(&entry, Rule::ident);
            let points = first_child(&entry, Rule::int)
                .and_then(|n| self.number_in(file, &n, 0..=MAX_AWARD_WINS, "a tiebreak's points"))
                .unwrap_or(0);
            let Some(name) = idents.first() else { continue };
            if let Some(region) = idents.get(1) {
                if let (Some(piece), Some(region)) =
                    (self.piece(file, name), self.region(file, region))
                {
                    tiebreak.region_values.push((piece, region, points));
                }
            } else if self.piece_ids.contains_key(name.as_str()) {
                if let Some(piece) = self.piece(file, name) {
                    tiebreak.values.push((piece, points));
                }
            } else if let Some(counter) = self.counter(file, name) {
                tiebreak.counter_values.push((counter, points));
            }
        }
        Some(tiebreak)
    }

    pub(super) fn lower_score(&mut self, file: usize, body: Node<'_>) -> Scoring {
        if first_child(&body, Rule::score_by_wins).is_some() {
            return Scoring::Wins;
        }
        let mut points = [1.0, 0.5, 0.0, 0.0];
        let mut seen = [false; 4];
        if let Some(list) = first_child(&body, Rule::score_points) {
            for pair in children(&list, Rule::score_pair) {
                let kind = first_child(&pair, Rule::score_kind)
                    .map(|k| k.as_str().to_string())
                    .unwrap_or_default();
                let value = first_child(&pair, Rule::number)
                    .and_then(|n| n.as_str().parse::<f64>().ok())
                    .unwrap_or(0.0);
                let slot = ["win", "draw", "loss", "null"]
                    .iter()
                    .position(|k| *k == kind)
                    .unwrap_or(0);
                if seen[slot] {
                    self.error(
                        Error::new(
                            Code::ScoreTwice,
                            file,
                            pair.as_span().into(),
                            format!("the score of a {kind} is given twice"),
                        )
                        .with_label("given again here")
                        .with_help("give each of win, draw, loss and null once"),
                    );
                }
                seen[slot] = true;
                points[slot] = value;
            }
        }
        Scoring::Points {
            win: points[0],
            draw: points[1],
            loss: points[2],
            null: points[3],
        }
    }

    pub(super) fn lower_match(&mut self, file: usize, body: Node<'_>) -> Option<MatchRule> {
        let inner = body.into_inner().next()?;
        Some(match inner.as_rule() {
            Rule::match_replay => MatchRule::ReplayNullGame {
                same_colours: first_child(&inner, Rule::same_colours).is_some(),
            },
            Rule::match_forfeit => MatchRule::ForfeitAfterNulls {
                count: first_child(&inner, Rule::int)
                    .and_then(|n| {
                        self.number_in(file, &n, 1..=u32::MAX, "the null games before a forfeit")
                    })
                    .unwrap_or(2),
                winner: first_child(&inner, Rule::player)
                    .map(|p| player(&p))
                    .unwrap_or(PlayerRef::Black),
            },
            _ => MatchRule::CasualNullIsDraw,
        })
    }
}

fn player(node: &Node<'_>) -> PlayerRef {
    match node.as_str() {
        "side-to-move" => PlayerRef::SideToMove,
        "white" => PlayerRef::White,
        "black" => PlayerRef::Black,
        // After a move, the player who made it is the one not to move.
        _ => PlayerRef::Opponent,
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

fn comparison(node: &Node<'_>) -> Comparison {
    match first_child(node, Rule::comparison)
        .map(|c| c.as_str().to_string())
        .as_deref()
    {
        Some("<") => Comparison::Less,
        Some("<=") => Comparison::LessEqual,
        Some("==") => Comparison::Equal,
        Some(">=") => Comparison::GreaterEqual,
        _ => Comparison::Greater,
    }
}
