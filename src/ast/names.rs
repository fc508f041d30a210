//! Every name written in a file (the language server's references).

use super::*;

impl File {
    /// Every identifier of the file (definitions and uses, not labels), in
    /// file order.
    pub fn identifiers(&self) -> Vec<&Ident> {
        let mut names = vec![&self.header.id];
        names.extend(&self.header.extends);
        for statement in &self.statements {
            match statement {
                Statement::Drop(drop) => names.push(&drop.name),
                Statement::Item(item) => body_names(&item.body.kind, &mut names),
            }
        }
        names.sort_by_key(|name| name.span.start);
        names
    }
}

fn body_names<'a>(body: &'a BodyKind, names: &mut Vec<&'a Ident>) {
    match body {
        BodyKind::Board(_)
        | BodyKind::Setup(_)
        | BodyKind::CheckRule(_)
        | BodyKind::CaptureRule(_)
        | BodyKind::DropRule(_)
        | BodyKind::Immobility
        | BodyKind::UnmovedInFen => {}
        BodyKind::FirstMoveLoss(pieces, by) => names.extend(pieces.iter().chain(by)),
        BodyKind::Region(region) => {
            names.push(&region.name);
            region_names(&region.expr, names);
        }
        BodyKind::Piece(piece) => {
            names.push(&piece.name);
            for option in &piece.options {
                if let PieceOption::Confined(region) = option {
                    names.push(region);
                }
            }
            move_names(&piece.moves, names);
        }
        BodyKind::Promote(promote) => {
            names.extend(&promote.pieces);
            names.extend(&promote.choices);
            names.push(&promote.zone);
            for option in &promote.options {
                match option {
                    PromoteOption::MandatoryUnless(condition) => condition_names(condition, names),
                    PromoteOption::Mandatory
                    | PromoteOption::Optional
                    | PromoteOption::CapturedKindsOnly(_)
                    | PromoteOption::AtMost(_)
                    | PromoteOption::LastAnywhere(_)
                    | PromoteOption::AttackingNothing(_)
                    | PromoteOption::LeavingToo(_)
                    | PromoteOption::Delayed(_) => {}
                }
            }
        }
        BodyKind::Castling(castling) => {
            names.push(&castling.king);
            names.push(&castling.rook);
            for option in &castling.options {
                match option {
                    CastlingOption::KingLineage(line) => names.extend(line),
                    CastlingOption::NotFromCheck
                    | CastlingOption::NotThroughCheck
                    | CastlingOption::NotIntoCheck
                    | CastlingOption::RookMovedOnFiles(_) => {}
                }
            }
        }
        BodyKind::EnPassant(en_passant) => {
            names.extend(&en_passant.pieces);
            names.extend(&en_passant.onto);
        }
        BodyKind::Hand(_) => {}
        BodyKind::Drops(drops) => {
            names.extend(&drops.pieces);
            names.extend(&drops.onto);
        }
        BodyKind::Explosion(explosion) => names.extend(&explosion.except),
        BodyKind::Points(entries) => names.extend(entries.iter().map(|(name, _)| name)),
        BodyKind::History(_) => {}
        BodyKind::Succession(action) => match action {
            SuccessionAction::GameEnds => {}
            SuccessionAction::Crown {
                candidates,
                becomes,
            } => {
                names.extend(candidates);
                names.push(becomes);
            }
        },
        BodyKind::Counter(counter) => {
            names.push(&counter.name);
            counter.events.iter().for_each(|e| event_names(e, names));
            counter.resets.iter().for_each(|e| event_names(e, names));
        }
        BodyKind::Reset(events) => events.iter().for_each(|e| event_names(e, names)),
        BodyKind::Counting(Counting::Limit { when, .. }) => {
            when.iter().for_each(|when| condition_names(when, names))
        }
        BodyKind::Counting(Counting::Start { when, .. }) => condition_names(when, names),
        BodyKind::Termination(termination) => {
            condition_names(&termination.condition, names);
            outcome_names(&termination.outcome, names);
        }
        BodyKind::Award(award) => condition_names(&award.when, names),
        BodyKind::Agreement(agreement) => match agreement {
            Agreement::When(condition) => condition_names(condition, names),
            Agreement::Always | Agreement::Never => {}
        },
        BodyKind::Resign(resign) => match resign {
            Resign::OpponentWins => {}
            Resign::Award { counter, .. } => names.push(counter),
        },
        BodyKind::Tiebreak(tiebreak) => {
            for entry in &tiebreak.entries {
                names.push(&entry.name);
                names.extend(&entry.region);
            }
        }
        BodyKind::Score(_) | BodyKind::Match(_) => {}
    }
}

fn region_names<'a>(expr: &'a RegionExpr, names: &mut Vec<&'a Ident>) {
    for (_, term) in &expr.terms {
        match term {
            RegionTerm::Group(inner) => region_names(inner, names),
            RegionTerm::Name(name) => names.push(name),
            RegionTerm::Ranks { .. }
            | RegionTerm::Files { .. }
            | RegionTerm::Squares(_)
            | RegionTerm::WholeBoard => {}
        }
    }
}

fn move_names<'a>(expr: &'a MoveExpr, names: &mut Vec<&'a Ident>) {
    for term in &expr.terms {
        match &term.atom {
            MoveAtom::Reference(name) => names.push(name),
            MoveAtom::Group(inner) => move_names(inner, names),
            MoveAtom::Betza(_) | MoveAtom::Geometric(_) | MoveAtom::Pass(_) => {}
        }
        for limit in &term.limits {
            match limit {
                AtomLimit::Along(region) => names.push(region),
                AtomLimit::NotOver(pieces, _) | AtomLimit::NotCapturing(pieces, _) => {
                    names.extend(pieces)
                }
                AtomLimit::NotFromCheck(_) => {}
            }
        }
        names.extend(&term.region);
    }
}

fn event_names<'a>(event: &'a Event, names: &mut Vec<&'a Ident>) {
    for atom in &event.atoms {
        event_atom_names(atom, names);
    }
}

fn event_atom_names<'a>(atom: &'a EventAtom, names: &mut Vec<&'a Ident>) {
    {
        match atom {
            EventAtom::Not(operand) => event_atom_names(operand, names),
            EventAtom::Capture(pieces)
            | EventAtom::CheckBy(pieces)
            | EventAtom::MoveOf(pieces)
            | EventAtom::DropOf(pieces)
            | EventAtom::Crowning(pieces)
            | EventAtom::MovedPieceWas(pieces) => names.extend(pieces),
            EventAtom::Promotion { of, to } => {
                names.extend(of.iter().flatten());
                names.extend(to.iter().flatten());
            }
            EventAtom::EnPassant
            | EventAtom::Pass
            | EventAtom::Castle(_)
            | EventAtom::RoyalCapture
            | EventAtom::LawsCheckmate
            | EventAtom::Check => {}
        }
    }
}

fn condition_names<'a>(condition: &'a Condition, names: &mut Vec<&'a Ident>) {
    match condition {
        Condition::Or(parts) | Condition::And(parts) => {
            parts.iter().for_each(|part| condition_names(part, names))
        }
        Condition::Not(operand) => condition_names(operand, names),
        Condition::InsufficientMaterial(sets) => names.extend(sets.iter().flatten()),
        Condition::Material { filter, region, .. } => {
            names.extend(filter.iter().flat_map(|filter| &filter.pieces));
            names.extend(region);
        }
        Condition::Counter { counter, .. } => names.push(counter),
        Condition::InCheckByOnly(pieces) => names.extend(pieces),
        Condition::LastMove(event) => event_names(event, names),
        Condition::CanMoveInto { pieces, region } => {
            names.extend(pieces);
            names.push(region);
        }
        Condition::NoLegalMoves
        | Condition::ToMove(_)
        | Condition::InCheck
        | Condition::RoyalCaptured
        | Condition::Repetition { .. }
        | Condition::Plies(_)
        | Condition::OnlyRoyalsLeft
        | Condition::Counting
        | Condition::CountingOverLimit
        | Condition::RoyalsFace
        | Condition::PointsLead { .. }
        | Condition::ClockBelow { .. } => {}
    }
}

fn outcome_names<'a>(outcome: &'a Outcome, names: &mut Vec<&'a Ident>) {
    match outcome {
        Outcome::If(condition, then, otherwise) => {
            condition_names(condition, names);
            outcome_names(then, names);
            outcome_names(otherwise, names);
        }
        Outcome::Win(_)
        | Outcome::Loss(_)
        | Outcome::Draw
        | Outcome::NullGame
        | Outcome::GameOver => {}
    }
}
