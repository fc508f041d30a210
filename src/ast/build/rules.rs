//! Building the rules: promotion, castling, history, succession, events,
//! conditions, outcomes and the statements about results.

use super::{ident, span, token, Builder, Built, Children};
use crate::ast::*;
use crate::syntax::{Node, Rule};

impl Builder {
    pub(super) fn promote(&self, node: &Node<'_>) -> Built<Promote> {
        let mut children = self.children(node);
        let pieces = self.ident_list(&children.next(Rule::ident_list)?)?;
        let choices = self.ident_list(&children.next(Rule::ident_list)?)?;
        let zone = ident(&children.next(Rule::ident)?);
        let options = children
            .all(Rule::promote_option)
            .iter()
            .map(|option| self.promote_option(option))
            .collect::<Built<Vec<_>>>()?;
        children.end()?;
        Ok(Promote {
            pieces,
            choices,
            zone,
            options,
        })
    }

    fn promote_option(&self, node: &Node<'_>) -> Built<PromoteOption> {
        let inner = self.only_child(node)?;
        let mut children = self.children(&inner);
        let option = match inner.as_rule() {
            Rule::mandatory => PromoteOption::Mandatory,
            Rule::optional => PromoteOption::Optional,
            Rule::captured_kinds => PromoteOption::CapturedKindsOnly(span(&inner)),
            Rule::leaving_too => PromoteOption::LeavingToo(span(&inner)),
            Rule::at_most => PromoteOption::AtMost(token(&children.next(Rule::int)?)),
            Rule::last_anywhere => PromoteOption::LastAnywhere(span(&inner)),
            Rule::attacking_nothing => PromoteOption::AttackingNothing(span(&inner)),
            Rule::mandatory_unless => {
                PromoteOption::MandatoryUnless(self.condition(&children.next(Rule::condition)?)?)
            }
            Rule::delayed => PromoteOption::Delayed(match children.optional(Rule::follow_up) {
                Some(follow_up) => {
                    let mode = self.only_child(&follow_up)?;
                    Some(match mode.as_str() {
                        "move-only" => FollowMode::MoveOnly,
                        "capture-only" => FollowMode::CaptureOnly,
                        "any" => FollowMode::Any,
                        _ => return Err(self.unknown_word(&mode)),
                    })
                }
                None => None,
            }),
            _ => return Err(self.unexpected_node(Rule::promote_option, &inner)),
        };
        children.end()?;
        Ok(option)
    }

    pub(super) fn castling(&self, node: &Node<'_>) -> Built<Castling> {
        let mut children = self.children(node);
        let king = ident(&children.next(Rule::ident)?);
        let rook = ident(&children.next(Rule::ident)?);
        let sides = [
            self.castling_side(&children.next(Rule::castling_side)?)?,
            self.castling_side(&children.next(Rule::castling_side)?)?,
        ];
        let options = children
            .all(Rule::castling_option)
            .iter()
            .map(|option| self.castling_option(option))
            .collect::<Built<Vec<_>>>()?;
        children.end()?;
        Ok(Castling {
            king,
            rook,
            sides,
            options,
        })
    }

    fn castling_side(&self, node: &Node<'_>) -> Built<CastlingSideClause> {
        let mut children = self.children(node);
        let side = self.castle_side_keyword(&children.next(Rule::castle_side_kw)?)?;
        let king_file = token(&children.next(Rule::file_letter)?);
        let rook_file = token(&children.next(Rule::file_letter)?);
        children.end()?;
        Ok(CastlingSideClause {
            side,
            king_file,
            rook_file,
            span: span(node),
        })
    }

    fn castle_side_keyword(&self, node: &Node<'_>) -> Built<CastlingSide> {
        match node.as_str() {
            "short" => Ok(CastlingSide::Short),
            "long" => Ok(CastlingSide::Long),
            _ => Err(self.unknown_word(node)),
        }
    }

    fn castling_option(&self, node: &Node<'_>) -> Built<CastlingOption> {
        let inner = self.only_child(node)?;
        let mut children = self.children(&inner);
        let option = match inner.as_rule() {
            Rule::not_from_check => CastlingOption::NotFromCheck,
            Rule::not_through_check => CastlingOption::NotThroughCheck,
            Rule::not_into_check => CastlingOption::NotIntoCheck,
            Rule::rook_moved_on_files => CastlingOption::RookMovedOnFiles(
                children.all(Rule::file_letter).iter().map(token).collect(),
            ),
            Rule::king_lineage => {
                CastlingOption::KingLineage(children.all(Rule::ident).iter().map(ident).collect())
            }
            _ => return Err(self.unexpected_node(Rule::castling_option, &inner)),
        };
        children.end()?;
        Ok(option)
    }

    pub(super) fn history(&self, node: &Node<'_>) -> Built<History> {
        let mut children = self.children(node);
        let plies_ago = token(&children.next(Rule::int)?);
        let unless_only_such_moves = children.optional(Rule::unless_only).is_some();
        let message = children
            .optional(Rule::string)
            .map(|s| self.text(&s))
            .transpose()?;
        children.end()?;
        Ok(History {
            plies_ago,
            unless_only_such_moves,
            message,
        })
    }

    pub(super) fn succession(&self, node: &Node<'_>) -> Built<SuccessionAction> {
        let action = self.only_child(node)?;
        let inner = self.only_child(&action)?;
        let mut children = self.children(&inner);
        let built = match inner.as_rule() {
            Rule::game_ends => SuccessionAction::GameEnds,
            Rule::crown => SuccessionAction::Crown {
                candidates: self.ident_list(&children.next(Rule::ident_list)?)?,
                becomes: ident(&children.next(Rule::ident)?),
            },
            _ => return Err(self.unexpected_node(Rule::succession_action, &inner)),
        };
        children.end()?;
        Ok(built)
    }

    pub(super) fn event_list(&self, node: &Node<'_>) -> Built<Vec<Event>> {
        let mut children = self.children(node);
        let events = children
            .all(Rule::event)
            .iter()
            .map(|event| self.event(event))
            .collect::<Built<Vec<_>>>()?;
        children.end()?;
        Ok(events)
    }

    fn event(&self, node: &Node<'_>) -> Built<Event> {
        let mut children = self.children(node);
        let atoms = children
            .all(Rule::event_atom)
            .iter()
            .map(|atom| self.event_atom(atom))
            .collect::<Built<Vec<_>>>()?;
        children.end()?;
        Ok(Event { atoms })
    }

    fn event_atom(&self, node: &Node<'_>) -> Built<EventAtom> {
        let inner = self.only_child(node)?;
        let mut children = self.children(&inner);
        let atom = match inner.as_rule() {
            Rule::ev_capture => EventAtom::Capture(self.pieces_after(&mut children)?),
            Rule::ev_en_passant => EventAtom::EnPassant,
            Rule::ev_pass => EventAtom::Pass,
            Rule::ev_move_of => EventAtom::MoveOf(self.pieces_after(&mut children)?),
            Rule::ev_drop => EventAtom::DropOf(self.pieces_after(&mut children)?),
            Rule::ev_promotion => {
                let first = children.optional(Rule::ident_alt);
                let second = children.optional(Rule::ident_alt);
                let first_is_of = first.as_ref().is_some_and(|alt| opened_by_of(&inner, alt));
                let first = first.map(|alt| self.ident_list(&alt)).transpose()?;
                let second = second.map(|alt| self.ident_list(&alt)).transpose()?;
                match (first, second) {
                    (Some(of), Some(to)) => EventAtom::Promotion {
                        of: Some(of),
                        to: Some(to),
                    },
                    (Some(only), None) if first_is_of => EventAtom::Promotion {
                        of: Some(only),
                        to: None,
                    },
                    (Some(only), None) => EventAtom::Promotion {
                        of: None,
                        to: Some(only),
                    },
                    (None, Some(_)) | (None, None) => EventAtom::Promotion { of: None, to: None },
                }
            }
            Rule::ev_castle => EventAtom::Castle(
                children
                    .optional(Rule::castle_side_kw)
                    .map(|side| self.castle_side_keyword(&side))
                    .transpose()?,
            ),
            Rule::ev_royal_capture => EventAtom::RoyalCapture,
            Rule::ev_crowning => EventAtom::Crowning(self.pieces_after(&mut children)?),
            Rule::ev_laws_checkmate => EventAtom::LawsCheckmate,
            Rule::ev_check => {
                children.next(Rule::check_kw)?;
                match children.optional(Rule::ident_alt) {
                    Some(alt) => EventAtom::CheckBy(self.ident_list(&alt)?),
                    None => EventAtom::Check,
                }
            }
            Rule::ev_not => {
                let operand = children.next(Rule::event_atom)?;
                EventAtom::Not(Box::new(self.event_atom(&operand)?))
            }
            Rule::ev_moved_was => {
                EventAtom::MovedPieceWas(children.all(Rule::ident).iter().map(ident).collect())
            }
            _ => return Err(self.unexpected_node(Rule::event_atom, &inner)),
        };
        children.end()?;
        Ok(atom)
    }

    /// The pieces of an event (`capture of a | b`); none written, none.
    fn pieces_after(&self, children: &mut Children<'_>) -> Built<Vec<Ident>> {
        match children.optional(Rule::ident_alt) {
            Some(alt) => self.ident_list(&alt),
            None => Ok(Vec::new()),
        }
    }

    pub(super) fn termination(&self, node: &Node<'_>) -> Built<Termination> {
        let mut children = self.children(node);
        let trigger_node = children.next(Rule::trigger)?;
        let trigger = match trigger_node.as_str() {
            "end" => TriggerKind::End,
            "claim" => TriggerKind::Claim,
            _ => return Err(self.unknown_word(&trigger_node)),
        };
        let condition = self.condition(&children.next(Rule::condition)?)?;
        let outcome = self.outcome(&children.next(Rule::outcome)?)?;
        let options = children
            .all(Rule::termination_option)
            .iter()
            .map(|option| {
                let inner = self.only_child(option)?;
                match inner.as_rule() {
                    Rule::reason => {
                        let mut parts = self.children(&inner);
                        let reason = self.text(&parts.next(Rule::string)?)?;
                        parts.end()?;
                        Ok(TerminationOption::Reason(reason))
                    }
                    Rule::tiebreak_flag => Ok(TerminationOption::Tiebreak),
                    _ => Err(self.unexpected_node(Rule::termination_option, &inner)),
                }
            })
            .collect::<Built<Vec<_>>>()?;
        children.end()?;
        Ok(Termination {
            trigger,
            condition,
            outcome,
            options,
        })
    }

    fn outcome(&self, node: &Node<'_>) -> Built<Outcome> {
        let inner = self.only_child(node)?;
        let mut children = self.children(&inner);
        let outcome = match inner.as_rule() {
            Rule::if_outcome => Outcome::If(
                Box::new(self.condition(&children.next(Rule::condition)?)?),
                Box::new(self.outcome(&children.next(Rule::outcome)?)?),
                Box::new(self.outcome(&children.next(Rule::outcome)?)?),
            ),
            Rule::win_outcome => Outcome::Win(self.player(&children.next(Rule::player)?)?),
            Rule::loss_outcome => Outcome::Loss(self.player(&children.next(Rule::player)?)?),
            Rule::draw_outcome => Outcome::Draw,
            Rule::null_outcome => Outcome::NullGame,
            Rule::game_over => Outcome::GameOver,
            _ => return Err(self.unexpected_node(Rule::outcome, &inner)),
        };
        children.end()?;
        Ok(outcome)
    }

    /// `counting limit ...` / `counting starts for PLAYER when CONDITION`.
    pub(super) fn counting(&self, node: &Node<'_>) -> Built<Counting> {
        let inner = self.only_child(node)?;
        let mut children = self.children(&inner);
        let counting = match inner.as_rule() {
            Rule::counting_limit => {
                let (moves, from_pieces) = match children.optional(Rule::counting_none) {
                    Some(_) => (None, false),
                    None => {
                        let clause = children.next(Rule::counting_moves)?;
                        let mut parts = self.children(&clause);
                        let moves = token(&parts.next(Rule::int)?);
                        let from_pieces = parts.optional(Rule::counting_from).is_some();
                        parts.end()?;
                        (Some(moves), from_pieces)
                    }
                };
                let when = match children.optional(Rule::condition) {
                    Some(condition) => Some(self.condition(&condition)?),
                    None => None,
                };
                Counting::Limit {
                    moves,
                    from_pieces,
                    when,
                }
            }
            Rule::counting_start => Counting::Start {
                player: self.player(&children.next(Rule::player)?)?,
                when: self.condition(&children.next(Rule::condition)?)?,
            },
            _ => return Err(self.unexpected_node(Rule::counting_stmt, &inner)),
        };
        children.end()?;
        Ok(counting)
    }

    fn player(&self, node: &Node<'_>) -> Built<Player> {
        match node.as_str() {
            "side-to-move" => Ok(Player::SideToMove),
            "opponent" => Ok(Player::Opponent),
            "mover" => Ok(Player::Mover),
            "white" => Ok(Player::White),
            "black" => Ok(Player::Black),
            _ => Err(self.unknown_word(node)),
        }
    }

    /// `A or B or C`: one disjunction of every part (a long chain stays
    /// flat, so that reading it needs no deep recursion).
    pub(super) fn condition(&self, node: &Node<'_>) -> Built<Condition> {
        let mut children = self.children(node);
        let mut parts = children
            .all(Rule::cond_and)
            .iter()
            .map(|part| self.conjunction(part))
            .collect::<Built<Vec<_>>>()?;
        children.end()?;
        Ok(match parts.len() {
            1 => parts.remove(0),
            _ => Condition::Or(parts),
        })
    }

    fn conjunction(&self, node: &Node<'_>) -> Built<Condition> {
        let mut children = self.children(node);
        let mut parts = children
            .all(Rule::cond_unary)
            .iter()
            .map(|part| self.unary(part))
            .collect::<Built<Vec<_>>>()?;
        children.end()?;
        Ok(match parts.len() {
            1 => parts.remove(0),
            _ => Condition::And(parts),
        })
    }

    fn unary(&self, node: &Node<'_>) -> Built<Condition> {
        let inner = self.only_child(node)?;
        match inner.as_rule() {
            Rule::cond_not => {
                let operand = self.only_child(&inner)?;
                Ok(Condition::Not(Box::new(self.unary(&operand)?)))
            }
            Rule::cond_atom => self.condition_atom(&inner),
            _ => Err(self.unexpected_node(Rule::cond_unary, &inner)),
        }
    }

    fn condition_atom(&self, node: &Node<'_>) -> Built<Condition> {
        let inner = self.only_child(node)?;
        let mut children = self.children(&inner);
        let condition = match inner.as_rule() {
            Rule::condition => return self.condition(&inner),
            Rule::c_no_legal_moves => Condition::NoLegalMoves,
            Rule::c_in_check => match children.optional(Rule::ident_alt) {
                Some(alt) => Condition::InCheckByOnly(self.ident_list(&alt)?),
                None => Condition::InCheck,
            },
            Rule::c_royal_captured => Condition::RoyalCaptured,
            Rule::c_counting => match children.optional(Rule::over_limit) {
                Some(_) => Condition::CountingOverLimit,
                None => Condition::Counting,
            },
            Rule::c_repetition => Condition::Repetition {
                count: token(&children.next(Rule::int)?),
                in_a_row: children.optional(Rule::in_a_row).is_some(),
                span: span(&inner),
            },
            Rule::c_plies => Condition::Plies(token(&children.next(Rule::int)?)),
            Rule::c_only_royals => Condition::OnlyRoyalsLeft,
            Rule::c_insufficient => Condition::InsufficientMaterial(
                children
                    .all(Rule::material_set)
                    .iter()
                    .map(|set| {
                        let mut names = self.children(set);
                        let list = names.all(Rule::ident).iter().map(ident).collect();
                        names.end().map(|()| list)
                    })
                    .collect::<Built<Vec<_>>>()?,
            ),
            Rule::c_material => {
                let of = self.aggregate(&children.next(Rule::aggregate)?)?;
                let filter = match children.optional(Rule::piece_filter) {
                    Some(filter) => {
                        let mut parts = self.children(&filter);
                        let kind_node = parts.next(Rule::filter_kind)?;
                        let kind = match kind_node.as_str() {
                            "except" => FilterKind::Except,
                            "of" => FilterKind::Of,
                            _ => return Err(self.unknown_word(&kind_node)),
                        };
                        let pieces = self.ident_list(&parts.next(Rule::ident_list)?)?;
                        parts.end()?;
                        Some(PieceFilter { kind, pieces })
                    }
                    None => None,
                };
                let region = match children.optional(Rule::in_region) {
                    Some(region) => {
                        let mut parts = self.children(&region);
                        let name = ident(&parts.next(Rule::ident)?);
                        parts.end()?;
                        Some(name)
                    }
                    None => None,
                };
                Condition::Material {
                    of,
                    filter,
                    region,
                    comparison: self.comparison(&children.next(Rule::comparison)?)?,
                    value: token(&children.next(Rule::int)?),
                }
            }
            Rule::c_counter => Condition::Counter {
                of: self.aggregate(&children.next(Rule::aggregate)?)?,
                counter: ident(&children.next(Rule::ident)?),
                comparison: self.comparison(&children.next(Rule::comparison)?)?,
                value: token(&children.next(Rule::int)?),
            },
            Rule::c_clock => Condition::ClockBelow {
                of: self.player(&children.next(Rule::player)?)?,
                seconds: token(&children.next(Rule::int)?),
            },
            Rule::c_last_move => Condition::LastMove(self.event(&children.next(Rule::event)?)?),
            Rule::c_royals_face => Condition::RoyalsFace,
            Rule::c_points_lead => {
                let of = self.player(&children.next(Rule::player)?)?;
                children.next(Rule::points_kw)?;
                Condition::PointsLead {
                    of,
                    comparison: self.comparison(&children.next(Rule::comparison)?)?,
                    value: token(&children.next(Rule::int)?),
                }
            }
            Rule::c_to_move => {
                let colour = children.next(Rule::colour)?;
                Condition::ToMove(match colour.as_str() {
                    "white" => Colour::White,
                    "black" => Colour::Black,
                    _ => return Err(self.unknown_word(&colour)),
                })
            }
            Rule::c_can_move => Condition::CanMoveInto {
                pieces: self.ident_list(&children.next(Rule::ident_alt)?)?,
                region: ident(&children.next(Rule::ident)?),
            },
            _ => return Err(self.unexpected_node(Rule::cond_atom, &inner)),
        };
        children.end()?;
        Ok(condition)
    }

    fn aggregate(&self, node: &Node<'_>) -> Built<Aggregate> {
        let inner = self.only_child(node)?;
        match inner.as_rule() {
            Rule::max_agg => Ok(Aggregate::Max),
            Rule::min_agg => Ok(Aggregate::Min),
            Rule::player => self.player(&inner).map(Aggregate::Player),
            _ => Err(self.unexpected_node(Rule::aggregate, &inner)),
        }
    }

    fn comparison(&self, node: &Node<'_>) -> Built<Comparison> {
        match node.as_str() {
            "<" => Ok(Comparison::Less),
            "<=" => Ok(Comparison::LessEqual),
            "==" => Ok(Comparison::Equal),
            ">=" => Ok(Comparison::GreaterEqual),
            ">" => Ok(Comparison::Greater),
            _ => Err(self.unknown_word(node)),
        }
    }

    pub(super) fn award(&self, node: &Node<'_>) -> Built<Award> {
        let mut children = self.children(node);
        let name = self.text(&children.next(Rule::string)?)?;
        let wins = token(&children.next(Rule::int)?);
        let to = self.player(&children.next(Rule::player)?)?;
        let when = self.condition(&children.next(Rule::condition)?)?;
        let options = children
            .all(Rule::award_option)
            .iter()
            .map(|option| {
                let inner = self.only_child(option)?;
                match inner.as_rule() {
                    Rule::once => Ok(AwardOption::Once),
                    Rule::ends_game => Ok(AwardOption::EndsGame),
                    Rule::not_with => {
                        let mut parts = self.children(&inner);
                        let names = parts
                            .all(Rule::string)
                            .iter()
                            .map(|s| self.text(s))
                            .collect::<Built<Vec<_>>>()?;
                        parts.end()?;
                        Ok(AwardOption::NotWith(names))
                    }
                    _ => Err(self.unexpected_node(Rule::award_option, &inner)),
                }
            })
            .collect::<Built<Vec<_>>>()?;
        children.end()?;
        Ok(Award {
            name,
            wins,
            to,
            when,
            options,
        })
    }

    pub(super) fn agreement(&self, node: &Node<'_>) -> Built<Agreement> {
        let inner = self.only_child(node)?;
        let mut children = self.children(&inner);
        let agreement = match inner.as_rule() {
            Rule::agreement_when => {
                Agreement::When(self.condition(&children.next(Rule::condition)?)?)
            }
            Rule::agreement_always => Agreement::Always,
            Rule::agreement_never => Agreement::Never,
            _ => return Err(self.unexpected_node(Rule::agreement_stmt, &inner)),
        };
        children.end()?;
        Ok(agreement)
    }

    pub(super) fn resign(&self, node: &Node<'_>) -> Built<Resign> {
        let inner = self.only_child(node)?;
        let mut children = self.children(&inner);
        let resign = match inner.as_rule() {
            Rule::resign_win => Resign::OpponentWins,
            Rule::resign_award => Resign::Award {
                base: token(&children.next(Rule::int)?),
                per_count: token(&children.next(Rule::int)?),
                counter: ident(&children.next(Rule::ident)?),
            },
            _ => return Err(self.unexpected_node(Rule::resign_stmt, &inner)),
        };
        children.end()?;
        Ok(resign)
    }

    pub(super) fn tiebreak(&self, node: &Node<'_>) -> Built<Tiebreak> {
        let mut children = self.children(node);
        let wins = token(&children.next(Rule::int)?);
        let entries = children
            .all(Rule::tiebreak_entry)
            .iter()
            .map(|entry| {
                let mut parts = self.children(entry);
                let name = ident(&parts.next(Rule::ident)?);
                let region = parts.optional(Rule::ident).map(|r| ident(&r));
                let points = token(&parts.next(Rule::int)?);
                parts.end()?;
                Ok(TiebreakEntry {
                    name,
                    region,
                    points,
                })
            })
            .collect::<Built<Vec<_>>>()?;
        children.end()?;
        Ok(Tiebreak { wins, entries })
    }

    pub(super) fn score(&self, node: &Node<'_>) -> Built<Score> {
        let inner = self.only_child(node)?;
        let mut children = self.children(&inner);
        let score = match inner.as_rule() {
            Rule::score_by_wins => Score::ByWins,
            Rule::score_points => Score::Points(
                children
                    .all(Rule::score_pair)
                    .iter()
                    .map(|pair| self.score_pair(pair))
                    .collect::<Built<Vec<_>>>()?,
            ),
            _ => return Err(self.unexpected_node(Rule::score_stmt, &inner)),
        };
        children.end()?;
        Ok(score)
    }

    fn score_pair(&self, node: &Node<'_>) -> Built<ScorePair> {
        let mut children = self.children(node);
        let kind_node = children.next(Rule::score_kind)?;
        let kind = match kind_node.as_str() {
            "win" => ScoreKind::Win,
            "draw" => ScoreKind::Draw,
            "loss" => ScoreKind::Loss,
            "null" => ScoreKind::Null,
            _ => return Err(self.unknown_word(&kind_node)),
        };
        let points = token(&children.next(Rule::number)?);
        children.end()?;
        Ok(ScorePair {
            kind,
            points,
            span: span(node),
        })
    }

    pub(super) fn match_rule(&self, node: &Node<'_>) -> Built<Match> {
        let inner = self.only_child(node)?;
        let mut children = self.children(&inner);
        let rule = match inner.as_rule() {
            Rule::match_replay => Match::Replay {
                same_colours: children.optional(Rule::same_colours).is_some(),
            },
            Rule::match_forfeit => Match::Forfeit {
                count: token(&children.next(Rule::int)?),
                winner: self.player(&children.next(Rule::player)?)?,
            },
            Rule::match_casual => Match::Casual,
            _ => return Err(self.unexpected_node(Rule::match_stmt, &inner)),
        };
        children.end()?;
        Ok(rule)
    }
}

/// Whether the first list of `promotion ... ` follows `of` (not `to`):
/// read from the words before it, comments left out, so that any layout
/// (`to` + tab or a line break) reads the same.
fn opened_by_of(promotion: &Node<'_>, first_list: &Node<'_>) -> bool {
    let text = promotion.as_str();
    let before = &text[..first_list.as_span().start() - promotion.as_span().start()];
    before
        .lines()
        .map(|line| line.split('#').next().unwrap_or(""))
        .flat_map(str::split_whitespace)
        .last()
        == Some("of")
}
