//! The pest parse → the typed syntax tree. The only code that looks at
//! grammar rules: each function reads the children of one rule in the
//! order the grammar gives them. A child the grammar does not lead one to
//! expect (the grammar changed and this file did not) is an internal
//! error with its own code, never a silent default.

mod rules;

use super::*;
use crate::error::{Code, Error, Span};
use crate::syntax::{Node, Rule};
use std::iter::Peekable;

/// Builds the syntax tree of file `file` from its parsed `file` node.
// Errors are the cold path and are collected by value everywhere else.
#[allow(clippy::result_large_err)]
pub fn build(file: usize, root: Node<'_>) -> Result<File, Error> {
    Builder { file }.file(root).map_err(|error| *error)
}

/// A part of the tree, or why the parse could not give it (boxed: the
/// error path is cold, and the tree's functions return small results).
pub(super) type Built<T> = Result<T, Box<Error>>;

/// What the builder knows of the file it builds.
#[derive(Clone, Copy)]
pub(super) struct Builder {
    file: usize,
}

/// The children of one node, read in grammar order.
pub(super) struct Children<'i> {
    builder: Builder,
    parent: Rule,
    span: Span,
    nodes: Peekable<pest::iterators::Pairs<'i, Rule>>,
}

impl<'i> Children<'i> {
    /// The next child, which must be a `rule`.
    pub(super) fn next(&mut self, rule: Rule) -> Built<Node<'i>> {
        match self.optional(rule) {
            Some(node) => Ok(node),
            None => Err(self.unexpected(rule)),
        }
    }

    /// The next child if it is a `rule`.
    pub(super) fn optional(&mut self, rule: Rule) -> Option<Node<'i>> {
        self.nodes.next_if(|node| node.as_rule() == rule)
    }

    /// The children from here on that are `rule`s.
    pub(super) fn all(&mut self, rule: Rule) -> Vec<Node<'i>> {
        std::iter::from_fn(|| self.optional(rule)).collect()
    }

    /// The next child, whatever it is.
    pub(super) fn any(&mut self) -> Built<Node<'i>> {
        match self.nodes.next() {
            Some(node) => Ok(node),
            None => Err(self.builder.mismatch(
                self.span,
                format!("`{:?}` ends where a part was expected", self.parent),
            )),
        }
    }

    /// Checks that every child was read.
    pub(super) fn end(mut self) -> Built<()> {
        match self.nodes.next() {
            None => Ok(()),
            Some(node) => Err(self.builder.unexpected_node(self.parent, &node)),
        }
    }

    fn unexpected(&mut self, wanted: Rule) -> Box<Error> {
        let found = match self.nodes.peek() {
            Some(node) => format!("`{:?}`", node.as_rule()),
            None => "nothing".to_string(),
        };
        self.builder.mismatch(
            self.span,
            format!(
                "`{:?}` has {found} where `{wanted:?}` was expected",
                self.parent
            ),
        )
    }
}

impl Builder {
    pub(super) fn children<'i>(&self, node: &Node<'i>) -> Children<'i> {
        Children {
            builder: *self,
            parent: node.as_rule(),
            span: span(node),
            nodes: node.clone().into_inner().peekable(),
        }
    }

    /// The one child of `node` (a rule that is a choice of alternatives).
    pub(super) fn only_child<'i>(&self, node: &Node<'i>) -> Built<Node<'i>> {
        let mut children = self.children(node);
        let child = children.any()?;
        children.end()?;
        Ok(child)
    }

    /// A grammar/builder disagreement: an internal error, not the file's.
    pub(super) fn mismatch(&self, span: Span, detail: String) -> Box<Error> {
        Box::new(
            Error::new(
                Code::SyntaxTreeMismatch,
                self.file,
                span,
                format!("internal error: the syntax tree cannot be built: {detail}"),
            )
            .with_help("please report this file to the varc maintainers"),
        )
    }

    pub(super) fn unexpected_node(&self, parent: Rule, node: &Node<'_>) -> Box<Error> {
        self.mismatch(
            span(node),
            format!("`{parent:?}` has an unexpected `{:?}`", node.as_rule()),
        )
    }

    /// A keyword token whose text is not one the grammar allows for it.
    pub(super) fn unknown_word(&self, node: &Node<'_>) -> Box<Error> {
        self.mismatch(
            span(node),
            format!("`{}` is not a `{:?}`", node.as_str(), node.as_rule()),
        )
    }

    fn file(&self, root: Node<'_>) -> Built<File> {
        let mut children = self.children(&root);
        let header = self.header(children.next(Rule::header)?)?;
        let statements = children
            .all(Rule::statement)
            .into_iter()
            .map(|node| self.statement(node))
            .collect::<Built<Vec<_>>>()?;
        children.next(Rule::EOI)?;
        children.end()?;
        Ok(File { header, statements })
    }

    fn header(&self, node: Node<'_>) -> Built<Header> {
        let mut children = self.children(&node);
        let id = ident(&children.next(Rule::variant_id)?);
        let name = children
            .optional(Rule::string)
            .map(|s| self.text(&s))
            .transpose()?;
        let extends = match children.optional(Rule::extends_clause) {
            Some(clause) => {
                let mut parts = self.children(&clause);
                let name = ident(&parts.next(Rule::variant_id)?);
                parts.end()?;
                Some(name)
            }
            None => None,
        };
        children.end()?;
        Ok(Header {
            id,
            name,
            extends,
            span: span(&node),
        })
    }

    fn statement(&self, node: Node<'_>) -> Built<Statement> {
        let mut children = self.children(&node);
        if let Some(drop) = children.optional(Rule::drop_statement) {
            children.end()?;
            return self.drop_statement(drop).map(Statement::Drop);
        }
        let replace = children.optional(Rule::replace_marker).map(|m| span(&m));
        let label = children.optional(Rule::label).map(|l| ident(&l));
        let body = self.body(children.next(Rule::body)?)?;
        children.end()?;
        Ok(Statement::Item(Box::new(Item {
            replace,
            label,
            body,
            span: span(&node),
        })))
    }

    fn drop_statement(&self, node: Node<'_>) -> Built<DropStatement> {
        let target = self.only_child(&node)?;
        let mut children = self.children(&target);
        let kind = if children.optional(Rule::kw_piece).is_some() {
            Some(DefinitionKind::Piece)
        } else if children.optional(Rule::kw_region).is_some() {
            Some(DefinitionKind::Region)
        } else if children.optional(Rule::kw_counter).is_some() {
            Some(DefinitionKind::Counter)
        } else {
            None
        };
        let name = ident(&children.next(Rule::ident)?);
        children.end()?;
        Ok(DropStatement { kind, name })
    }

    fn body(&self, node: Node<'_>) -> Built<Body> {
        let statement = self.only_child(&node)?;
        let span = span(&statement);
        let kind = match statement.as_rule() {
            Rule::board_stmt => BodyKind::Board(self.board(&statement)?),
            Rule::setup_stmt => {
                let mut children = self.children(&statement);
                let fen = self.text(&children.next(Rule::string)?)?;
                children.end()?;
                BodyKind::Setup(fen)
            }
            Rule::region_stmt => BodyKind::Region(self.region(&statement)?),
            Rule::piece_stmt => BodyKind::Piece(self.piece(&statement)?),
            Rule::promote_stmt => BodyKind::Promote(self.promote(&statement)?),
            Rule::castling_stmt => BodyKind::Castling(self.castling(&statement)?),
            Rule::en_passant_stmt => {
                let mut children = self.children(&statement);
                let pieces = self.ident_list(&children.next(Rule::ident_list)?)?;
                let onto = children.optional(Rule::ident).map(|node| ident(&node));
                children.end()?;
                BodyKind::EnPassant(EnPassant { pieces, onto })
            }
            Rule::hand_stmt => {
                let mut children = self.children(&statement);
                let mut demoted = false;
                while let Some(option) = children.optional(Rule::hand_option) {
                    // `demoted` is the only option so far.
                    demoted |= option.into_inner().any(|o| o.as_rule() == Rule::demoted);
                }
                children.end()?;
                BodyKind::Hand(Hand { demoted })
            }
            Rule::drops_stmt => {
                let mut children = self.children(&statement);
                let pieces = self.ident_list(&children.next(Rule::drop_pieces)?)?;
                let onto = children.optional(Rule::ident).map(|node| ident(&node));
                let mut no_two_on_a_file = false;
                let mut by_gating = false;
                while let Some(option) = children.optional(Rule::drop_option) {
                    for inner in option.into_inner() {
                        match inner.as_rule() {
                            Rule::no_two_on_file => no_two_on_a_file = true,
                            Rule::by_gating => by_gating = true,
                            _ => {}
                        }
                    }
                }
                children.end()?;
                BodyKind::Drops(Drops {
                    pieces,
                    onto,
                    no_two_on_a_file,
                    by_gating,
                })
            }
            Rule::immobility_stmt => BodyKind::Immobility,
            Rule::points_stmt => {
                let mut children = self.children(&statement);
                children.next(Rule::points_kw)?;
                let entries = children
                    .all(Rule::points_entry)
                    .iter()
                    .map(|entry| {
                        let mut parts = self.children(entry);
                        let name = ident(&parts.next(Rule::ident)?);
                        let value = token(&parts.next(Rule::int)?);
                        parts.end().map(|()| (name, value))
                    })
                    .collect::<Built<Vec<_>>>()?;
                children.end()?;
                BodyKind::Points(entries)
            }
            Rule::check_rule_stmt => {
                let mut children = self.children(&statement);
                let kind = children.next(Rule::check_rule_kind)?;
                let kind = match kind.as_str() {
                    "royal" => CheckRuleKind::Royal,
                    "none" => CheckRuleKind::None,
                    _ => return Err(self.unknown_word(&kind)),
                };
                let mut no_checks = false;
                let mut no_facing_royals = None;
                let mut facing_royals_must_part = None;
                for option in children.all(Rule::check_option) {
                    let inner = self.only_child(&option)?;
                    match inner.as_rule() {
                        Rule::no_checks => no_checks = true,
                        Rule::royals_no_facing => no_facing_royals = Some(self::span(&inner)),
                        Rule::royals_must_part => {
                            facing_royals_must_part = Some(self::span(&inner))
                        }
                        _ => return Err(self.unexpected_node(Rule::check_option, &inner)),
                    }
                }
                children.end()?;
                BodyKind::CheckRule(CheckRule {
                    kind,
                    no_checks,
                    no_facing_royals,
                    facing_royals_must_part,
                })
            }
            Rule::capture_rule_stmt => {
                let kind = self.only_child(&statement)?;
                BodyKind::CaptureRule(match kind.as_str() {
                    "compulsory" => CaptureRuleKind::Compulsory,
                    "free" => CaptureRuleKind::Free,
                    _ => return Err(self.unknown_word(&kind)),
                })
            }
            Rule::drop_rule_stmt => {
                let kind = self.only_child(&statement)?;
                BodyKind::DropRule(match kind.as_str() {
                    "compulsory" => DropRuleKind::Compulsory,
                    "free" => DropRuleKind::Free,
                    _ => return Err(self.unknown_word(&kind)),
                })
            }
            Rule::explosion_stmt => {
                let mut children = self.children(&statement);
                let radius = token(&children.next(Rule::int)?);
                let except = match children.optional(Rule::ident_list) {
                    Some(list) => self.ident_list(&list)?,
                    None => Vec::new(),
                };
                children.end()?;
                BodyKind::Explosion(Explosion { radius, except })
            }
            Rule::history_stmt => BodyKind::History(self.history(&statement)?),
            Rule::succession_stmt => BodyKind::Succession(self.succession(&statement)?),
            Rule::counter_stmt => {
                let mut children = self.children(&statement);
                let name = ident(&children.next(Rule::ident)?);
                let events = self.event_list(&children.next(Rule::event_list)?)?;
                let resets = match children.optional(Rule::counter_reset) {
                    Some(clause) => {
                        let mut parts = self.children(&clause);
                        let resets = self.event_list(&parts.next(Rule::event_list)?)?;
                        parts.end()?;
                        resets
                    }
                    None => Vec::new(),
                };
                let fen_countdown = match children.optional(Rule::counter_fen) {
                    Some(clause) => {
                        let mut parts = self.children(&clause);
                        let from = token(&parts.next(Rule::int)?);
                        parts.end()?;
                        Some(from)
                    }
                    None => None,
                };
                children.end()?;
                BodyKind::Counter(Counter {
                    name,
                    events,
                    resets,
                    fen_countdown,
                })
            }
            Rule::counting_stmt => BodyKind::Counting(self.counting(&statement)?),
            Rule::first_move_loss_stmt => {
                let mut children = self.children(&statement);
                let pieces = self.ident_list(&children.next(Rule::ident_alt)?)?;
                let by = self.ident_list(&children.next(Rule::ident_alt)?)?;
                children.end()?;
                BodyKind::FirstMoveLoss(pieces, by)
            }
            Rule::unmoved_fen_stmt => BodyKind::UnmovedInFen,
            Rule::reset_stmt => {
                let mut children = self.children(&statement);
                let events = self.event_list(&children.next(Rule::event_list)?)?;
                children.end()?;
                BodyKind::Reset(events)
            }
            Rule::termination_stmt => BodyKind::Termination(self.termination(&statement)?),
            Rule::award_stmt => BodyKind::Award(self.award(&statement)?),
            Rule::agreement_stmt => BodyKind::Agreement(self.agreement(&statement)?),
            Rule::resign_stmt => BodyKind::Resign(self.resign(&statement)?),
            Rule::tiebreak_stmt => BodyKind::Tiebreak(self.tiebreak(&statement)?),
            Rule::score_stmt => BodyKind::Score(self.score(&statement)?),
            Rule::match_stmt => BodyKind::Match(self.match_rule(&statement)?),
            _ => return Err(self.unexpected_node(Rule::body, &statement)),
        };
        Ok(Body { kind, span })
    }

    fn board(&self, node: &Node<'_>) -> Built<Board> {
        let mut children = self.children(node);
        let files = token(&children.next(Rule::int)?);
        let ranks = token(&children.next(Rule::int)?);
        let holes = match children.optional(Rule::holes) {
            Some(holes) => {
                let mut squares = self.children(&holes);
                let list = squares.all(Rule::square).iter().map(token).collect();
                squares.end()?;
                list
            }
            None => Vec::new(),
        };
        children.end()?;
        Ok(Board {
            files,
            ranks,
            holes,
        })
    }

    fn region(&self, node: &Node<'_>) -> Built<Region> {
        let mut children = self.children(node);
        let name = ident(&children.next(Rule::ident)?);
        let expr = self.region_expr(&children.next(Rule::region_expr)?)?;
        let relative = children.optional(Rule::relative).is_some();
        children.end()?;
        Ok(Region {
            name,
            expr,
            relative,
        })
    }

    fn region_expr(&self, node: &Node<'_>) -> Built<RegionExpr> {
        let mut children = self.children(node);
        let mut terms = vec![(
            RegionOp::Add,
            self.region_term(&children.next(Rule::region_term)?)?,
        )];
        while let Some(op) = children.optional(Rule::region_op) {
            let op = match op.as_str() {
                "+" => RegionOp::Add,
                "-" => RegionOp::Remove,
                _ => return Err(self.unknown_word(&op)),
            };
            terms.push((op, self.region_term(&children.next(Rule::region_term)?)?));
        }
        children.end()?;
        Ok(RegionExpr {
            terms,
            span: span(node),
        })
    }

    fn region_term(&self, node: &Node<'_>) -> Built<RegionTerm> {
        let inner = self.only_child(node)?;
        let mut children = self.children(&inner);
        let term = match inner.as_rule() {
            Rule::ranks_term => {
                let low = rank_number(&children.next(Rule::rank_number)?);
                let high = children
                    .optional(Rule::rank_number)
                    .map(|n| rank_number(&n));
                RegionTerm::Ranks { low, high }
            }
            Rule::files_term => {
                let low = token(&children.next(Rule::file_letter)?);
                let high = children.optional(Rule::file_letter).map(|n| token(&n));
                RegionTerm::Files {
                    low,
                    high,
                    span: span(&inner),
                }
            }
            Rule::squares_term => {
                RegionTerm::Squares(children.all(Rule::square).iter().map(token).collect())
            }
            Rule::whole_board => RegionTerm::WholeBoard,
            Rule::region_expr => return self.region_expr(&inner).map(RegionTerm::Group),
            Rule::ident => return Ok(RegionTerm::Name(ident(&inner))),
            _ => return Err(self.unexpected_node(Rule::region_term, &inner)),
        };
        children.end()?;
        Ok(term)
    }

    fn piece(&self, node: &Node<'_>) -> Built<Piece> {
        let mut children = self.children(node);
        let name = ident(&children.next(Rule::ident)?);
        let letter = self.text(&children.next(Rule::string)?)?;
        let options = children
            .all(Rule::piece_option)
            .iter()
            .map(|option| {
                let inner = self.only_child(option)?;
                match inner.as_rule() {
                    Rule::royal => Ok(PieceOption::Royal),
                    Rule::value_option => {
                        let mut parts = self.children(&inner);
                        let value = token(&parts.next(Rule::number)?);
                        parts.end()?;
                        Ok(PieceOption::Value(value))
                    }
                    Rule::confined => {
                        let mut parts = self.children(&inner);
                        let region = ident(&parts.next(Rule::ident)?);
                        parts.end()?;
                        Ok(PieceOption::Confined(region))
                    }
                    _ => Err(self.unexpected_node(Rule::piece_option, &inner)),
                }
            })
            .collect::<Built<Vec<_>>>()?;
        let moves = self.move_expr(&children.next(Rule::move_expr)?)?;
        children.end()?;
        Ok(Piece {
            name,
            letter,
            options,
            moves,
        })
    }

    fn move_expr(&self, node: &Node<'_>) -> Built<MoveExpr> {
        let mut children = self.children(node);
        let terms = children
            .all(Rule::move_term)
            .iter()
            .map(|term| self.move_term(term))
            .collect::<Built<Vec<_>>>()?;
        children.end()?;
        Ok(MoveExpr {
            terms,
            span: span(node),
        })
    }

    fn move_term(&self, node: &Node<'_>) -> Built<MoveTerm> {
        let mut children = self.children(node);
        let modifiers = children
            .all(Rule::move_modifier)
            .iter()
            .map(|modifier| self.move_modifier(modifier))
            .collect::<Built<Vec<_>>>()?;
        let atom = self.move_atom(&children.next(Rule::move_atom)?)?;
        let limits = children
            .all(Rule::atom_limit)
            .iter()
            .map(|limit| self.atom_limit(limit))
            .collect::<Built<Vec<_>>>()?;
        let region = match children.optional(Rule::in_region) {
            Some(in_region) => {
                let mut parts = self.children(&in_region);
                let name = ident(&parts.next(Rule::ident)?);
                parts.end()?;
                Some(name)
            }
            None => None,
        };
        children.end()?;
        Ok(MoveTerm {
            modifiers,
            atom,
            limits,
            region,
            span: span(node),
        })
    }

    fn atom_limit(&self, node: &Node<'_>) -> Built<AtomLimit> {
        let inner = self.only_child(node)?;
        let rule = inner.as_rule();
        let mut children = self.children(&inner);
        let limit = match rule {
            Rule::along_limit => {
                children.next(Rule::along_kw)?;
                AtomLimit::Along(ident(&children.next(Rule::ident)?))
            }
            Rule::not_over => {
                children.next(Rule::over_kw)?;
                let names = self.ident_list(&children.next(Rule::ident_alt)?)?;
                AtomLimit::NotOver(names, span(&inner))
            }
            Rule::not_capturing => {
                children.next(Rule::capturing_kw)?;
                let names = self.ident_list(&children.next(Rule::ident_alt)?)?;
                AtomLimit::NotCapturing(names, span(&inner))
            }
            Rule::not_from_check => AtomLimit::NotFromCheck(span(&inner)),
            _ => return Err(self.unexpected_node(Rule::atom_limit, &inner)),
        };
        children.end()?;
        Ok(limit)
    }

    fn move_modifier(&self, node: &Node<'_>) -> Built<MoveModifier> {
        let inner = self.only_child(node)?;
        let kind = match inner.as_rule() {
            Rule::move_only => ModifierKind::MoveOnly,
            Rule::capture_only => ModifierKind::CaptureOnly,
            Rule::first_move => ModifierKind::FirstMove,
            Rule::direction_word => ModifierKind::Direction(match inner.as_str() {
                "forward" => Direction::Forward,
                "backward" => Direction::Backward,
                "sideways" => Direction::Sideways,
                "vertical" => Direction::Vertical,
                "left" => Direction::Left,
                "right" => Direction::Right,
                _ => return Err(self.unknown_word(&inner)),
            }),
            _ => return Err(self.unexpected_node(Rule::move_modifier, &inner)),
        };
        Ok(MoveModifier {
            kind,
            span: span(node),
        })
    }

    fn move_atom(&self, node: &Node<'_>) -> Built<MoveAtom> {
        let inner = self.only_child(node)?;
        match inner.as_rule() {
            Rule::betza_atom => {
                let mut children = self.children(&inner);
                let text = self.text(&children.next(Rule::string)?)?;
                children.end()?;
                Ok(MoveAtom::Betza(text))
            }
            Rule::geometric_atom => self.geometric_atom(&inner).map(MoveAtom::Geometric),
            Rule::pass_atom => Ok(MoveAtom::Pass(span(&inner))),
            Rule::ident => Ok(MoveAtom::Reference(ident(&inner))),
            Rule::move_expr => self.move_expr(&inner).map(MoveAtom::Group),
            _ => Err(self.unexpected_node(Rule::move_atom, &inner)),
        }
    }

    fn geometric_atom(&self, node: &Node<'_>) -> Built<GeometricAtom> {
        let mut children = self.children(node);
        let kind = children.next(Rule::motion_kind)?;
        let motion = match kind.as_str() {
            "leap" => MotionKind::Leap,
            "lame-leap" => MotionKind::LameLeap,
            "ride" => MotionKind::Ride,
            "hop" => MotionKind::Hop,
            _ => return Err(self.unknown_word(&kind)),
        };
        let offset_node = children.next(Rule::offset)?;
        let mut numbers = self.children(&offset_node);
        let offset = Offset {
            files: token(&numbers.next(Rule::signed_int)?),
            ranks: token(&numbers.next(Rule::signed_int)?),
            text: offset_node.as_str().to_string(),
            span: span(&offset_node),
        };
        numbers.end()?;
        let range = match children.optional(Rule::range) {
            Some(range) => {
                let mut parts = self.children(&range);
                let limit = token(&parts.next(Rule::int)?);
                parts.end()?;
                Some(RideRange {
                    limit,
                    text: range.as_str().to_string(),
                    span: span(&range),
                })
            }
            None => None,
        };
        let adjacent = children.optional(Rule::landing).map(|l| span(&l));
        children.end()?;
        Ok(GeometricAtom {
            motion,
            offset,
            range,
            adjacent,
        })
    }

    /// `a | b`, `a, b` (`ident_list`) or `a | b` (`ident_alt`).
    pub(super) fn ident_list(&self, node: &Node<'_>) -> Built<Vec<Ident>> {
        let mut children = self.children(node);
        let names = children.all(Rule::ident).iter().map(ident).collect();
        children.end()?;
        Ok(names)
    }

    /// A `string` node's text and span.
    pub(super) fn text(&self, node: &Node<'_>) -> Built<Text> {
        let mut children = self.children(node);
        let inner = children.next(Rule::string_inner)?;
        children.end()?;
        Ok(Text {
            value: inner.as_str().to_string(),
            span: span(node),
        })
    }
}

/// A node's span, without the blanks and comments after its last token.
pub(super) fn span(node: &Node<'_>) -> Span {
    Span::from(node.as_span())
}

pub(super) fn ident(node: &Node<'_>) -> Ident {
    Ident {
        name: node.as_str().to_string(),
        span: span(node),
    }
}

pub(super) fn token(node: &Node<'_>) -> Token {
    Token {
        text: node.as_str().to_string(),
        span: span(node),
    }
}

/// `3`, `last` or `last-1`. Digits too many for a number saturate, and
/// are then off any board.
fn rank_number(node: &Node<'_>) -> RankNumber {
    let text = node.as_str();
    let rank = match text.strip_prefix("last") {
        Some(rest) => RankFrom::Last(match rest.trim_start_matches('-') {
            "" => 0,
            digits => digits.parse().unwrap_or(i64::MAX),
        }),
        None => RankFrom::First(text.parse().unwrap_or(i64::MAX)),
    };
    RankNumber {
        rank,
        text: text.to_string(),
        span: span(node),
    }
}
