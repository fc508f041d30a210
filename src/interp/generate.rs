//! Move generation and attack detection over the tables.

use super::tables::{Probe, Reach};
use super::Interpreter;
use varc_runtime::model::{
    AtomCondition, Color, MoveMode, Obligation, PromotionTiming, Square, SquareSet,
};
use varc_runtime::moves::{Gate, Move, MoveKind};
use varc_runtime::position::{Piece, Position, SquareIter};
use varc_runtime::rules::Rules;

impl Interpreter {
    /// Whether an atom's condition holds for `piece` on square `index`.
    #[inline]
    pub(crate) fn condition_holds(
        &self,
        condition: AtomCondition,
        piece: Piece,
        index: usize,
    ) -> bool {
        match condition {
            AtomCondition::Always => true,
            AtomCondition::FirstMove => piece.is_unmoved(),
            AtomCondition::InRegion(region) => self.variant.regions.get(region).is_some_and(|r| {
                r.for_side(piece.color())
                    .contains(Square::from_index(index))
            }),
        }
    }

    /// Whether a piece of `kind` and `color` may end a move (or attack) on
    /// the square of index `to`: anywhere, unless the kind is `confined to`
    /// a region.
    #[inline]
    pub(crate) fn may_end_on(&self, kind: usize, color: Color, to: usize) -> bool {
        let confined = self.variant.pieces.get(kind).and_then(|p| p.confined);
        confined.is_none_or(|region| {
            self.variant
                .regions
                .get(region)
                .is_some_and(|r| r.for_side(color).contains(Square::from_index(to)))
        })
    }

    /// Whether the royal piece of `color` on the square of index `royal`
    /// sees a royal piece of the opponent along a file or rank with only
    /// empty squares between them (`royals may not face each other`). A
    /// hole of the board ends the line, as it ends a ride.
    pub(crate) fn faces_opponent_royal(
        &self,
        position: &Position,
        royal: usize,
        color: Color,
    ) -> bool {
        let start = Square::from_index(royal);
        [(0, 1), (0, -1), (1, 0), (-1, 0)].iter().any(|&(dx, dy)| {
            let (mut file, mut rank) = (start.file as i32 + dx, start.rank as i32 + dy);
            while self.variant.board.contains(file, rank) {
                let index = Square::new(file as u8, rank as u8).index();
                if let Some(piece) = position.piece_at_index(index) {
                    return piece.color() != color && piece.is_royal();
                }
                file += dx;
                rank += dy;
            }
            false
        })
    }

    /// Whether a piece of `by` attacks the square of index `target`.
    pub(crate) fn attacked(&self, position: &Position, target: usize, by: Color) -> bool {
        let kind_bit = |square: usize| {
            position
                .piece_at_index(square)
                .map_or(0, |piece| 1u64 << piece.kind_index())
        };
        let target_bit = kind_bit(target);
        for probe in self.tables.attacks_onto(by, target) {
            if probe.not_capturing & target_bit != 0 {
                continue;
            }
            let squares = self.tables.attack_squares_of(probe);
            let attacker = match probe.reach {
                Reach::Leap => Some(squares[0] as usize),
                Reach::LameLeap => {
                    if squares[1..]
                        .iter()
                        .all(|s| position.piece_at_index(*s as usize).is_none())
                    {
                        Some(squares[0] as usize)
                    } else {
                        None
                    }
                }
                Reach::Ride => squares
                    .iter()
                    .map(|s| *s as usize)
                    .find(|s| position.piece_at_index(*s).is_some()),
                Reach::HopAdjacent => {
                    if position.piece_at_index(squares[0] as usize).is_some()
                        && probe.not_over & kind_bit(squares[0] as usize) == 0
                    {
                        squares[1..]
                            .iter()
                            .map(|s| *s as usize)
                            .find(|s| position.piece_at_index(*s).is_some())
                    } else {
                        None
                    }
                }
                Reach::HopAny => {
                    let mut occupied = squares
                        .iter()
                        .map(|s| *s as usize)
                        .filter(|s| position.piece_at_index(*s).is_some());
                    match occupied.next() {
                        Some(screen) if probe.not_over & kind_bit(screen) == 0 => occupied.next(),
                        _ => None,
                    }
                }
            };
            if let Some(square) = attacker {
                if let Some(piece) = position.piece_at_index(square) {
                    if piece.color() == by
                        && probe.kinds >> piece.kind_index() & 1 == 1
                        && self.condition_holds(probe.condition, piece, square)
                        && self.may_end_on(piece.kind(), by, target)
                    {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// The pseudo-legal moves of the side to move, without succession.
    pub(crate) fn pseudo_legal(&self, position: &Position, out: &mut Vec<Move>) {
        let side = position.side_to_move();
        // Read once, when a `not from check` movement needs it.
        let mut in_check: Option<bool> = None;
        for from in SquareIter::new(*position.occupied(side)) {
            let Some(piece) = position.piece_at_index(from) else {
                continue;
            };
            let first = out.len();
            for probe in self.tables.probes_of(piece.kind(), side, from) {
                if probe.not_from_check
                    && *in_check.get_or_insert_with(|| self.royal_in_danger(position, side))
                {
                    continue;
                }
                if self.condition_holds(probe.condition, piece, from) {
                    self.probe_moves(position, piece, from, probe, probe.mode, true, out);
                }
            }
            if self.tables.may_repeat[super::tables::piece_key(piece.kind(), side, from)] {
                dedup_from(out, first);
            }
            if self
                .variant
                .pieces
                .get(piece.kind())
                .is_some_and(|kind| kind.passes)
            {
                let square = Square::from_index(from);
                out.push(Move::normal(square, square));
            }
        }
        self.castling_moves(position, out);
        self.delayed_promotions(position, out);
        self.drop_moves(position, out);
    }

    /// Drops: each kind the side to move holds in hand, onto each empty
    /// square of its drop squares. A drop captures nothing and never
    /// promotes; the check rule is applied to it like any move.
    fn drop_moves(&self, position: &Position, out: &mut Vec<Move>) {
        let side = position.side_to_move();
        let occupied = position
            .occupied(Color::White)
            .union(position.occupied(Color::Black));
        for (kind, squares) in self.drop_squares.iter().enumerate() {
            if position.in_hand(side, kind) == 0 {
                continue;
            }
            // `no two on a file`: the files where the side has one.
            let mut taken_files = 0u32;
            if self.drop_no_two_on_a_file[kind] {
                for index in SquareIter::new(*position.occupied(side)) {
                    if position
                        .piece_at_index(index)
                        .is_some_and(|p| p.kind() == kind)
                    {
                        taken_files |= 1 << Square::from_index(index).file;
                    }
                }
            }
            for index in SquareIter::new(squares[side.index()]) {
                let square = Square::from_index(index);
                if !occupied.contains(square) && taken_files & (1 << square.file) == 0 {
                    out.push(Move::drop(kind, square));
                }
            }
        }
    }

    /// Gating (`drops of ... by gating`): for each of `out[first..]` that
    /// an unmoved piece makes from a square where a kind in the mover's
    /// hand may enter, the same move with that kind entering the square it
    /// leaves (castling: also the rook's). Passes, drops and delayed
    /// promotions leave no square.
    pub(crate) fn gating_moves(&self, position: &Position, out: &mut Vec<Move>, first: usize) {
        let side = position.side_to_move();
        let entering: Vec<(u8, &[SquareSet; 2])> = self
            .gate_squares
            .iter()
            .enumerate()
            .filter(|(kind, squares)| {
                !squares[side.index()].is_empty() && position.in_hand(side, *kind) > 0
            })
            .map(|(kind, squares)| (kind as u8, squares))
            .collect();
        if entering.is_empty() {
            return;
        }
        for i in first..out.len() {
            let mv = out[i];
            let left = match mv.kind {
                MoveKind::Normal | MoveKind::EnPassant { .. } if !mv.is_pass() => {
                    [Some(mv.from), None]
                }
                MoveKind::Castle { rook_from, .. } => [Some(mv.from), Some(rook_from)],
                _ => continue,
            };
            for square in left.into_iter().flatten() {
                if !position.piece_at(square).is_some_and(|p| p.is_unmoved()) {
                    continue;
                }
                for &(kind, squares) in &entering {
                    if squares[side.index()].contains(square) {
                        out.push(Move {
                            gate: Some(Gate { kind, square }),
                            ..mv
                        });
                    }
                }
            }
        }
    }

    /// The moves of one probe. `mode` is the probe's mode, possibly narrowed
    /// (a follow-up move); `special` allows promotion and en passant.
    #[allow(clippy::too_many_arguments)]
    fn probe_moves(
        &self,
        position: &Position,
        piece: Piece,
        from: usize,
        probe: &Probe,
        mode: MoveMode,
        special: bool,
        out: &mut Vec<Move>,
    ) {
        let squares = self.tables.squares_of(probe);
        let may_move = mode != MoveMode::CaptureOnly;
        let may_capture = mode != MoveMode::MoveOnly;
        let side = piece.color();
        let target = |to: usize, out: &mut Vec<Move>| {
            if !self.may_end_on(piece.kind(), side, to) {
                // A confined piece may pass the square (a ride), not stop.
                return position.piece_at_index(to).is_none();
            }
            match position.piece_at_index(to) {
                None => {
                    if may_move {
                        self.push_move(position, piece, from, to, MoveKind::Normal, special, out);
                    } else if special && mode == MoveMode::CaptureOnly {
                        self.en_passant_move(position, piece, from, to, out);
                    }
                }
                Some(other) => {
                    if may_capture
                        && other.color() != side
                        && probe.not_capturing >> other.kind_index() & 1 == 0
                    {
                        self.push_move(position, piece, from, to, MoveKind::Normal, special, out);
                    }
                }
            }
            position.piece_at_index(to).is_none()
        };
        match probe.reach {
            Reach::Leap => {
                target(squares[0] as usize, out);
            }
            Reach::LameLeap => {
                let (path, last) = squares.split_at(squares.len() - 1);
                if path
                    .iter()
                    .all(|s| position.piece_at_index(*s as usize).is_none())
                {
                    target(last[0] as usize, out);
                }
            }
            Reach::Ride => {
                for s in squares {
                    if !target(*s as usize, out) {
                        break;
                    }
                }
            }
            Reach::HopAdjacent => {
                if let Some(screen) = self.screen(position, probe, squares) {
                    if let Some(landing) = squares.get(screen + 1) {
                        target(*landing as usize, out);
                    }
                }
            }
            Reach::HopAny => {
                if let Some(screen) = self.screen(position, probe, squares) {
                    for s in &squares[screen + 1..] {
                        if !target(*s as usize, out) {
                            break;
                        }
                    }
                }
            }
        }
    }

    /// The index in `squares` of a hop's screen, the first occupied
    /// square, unless its kind is one the probe may not jump (`not over`).
    fn screen(&self, position: &Position, probe: &Probe, squares: &[u8]) -> Option<usize> {
        let index = squares
            .iter()
            .position(|s| position.piece_at_index(*s as usize).is_some())?;
        let screen = position.piece_at_index(squares[index] as usize)?;
        (probe.not_over >> screen.kind_index() & 1 == 0).then_some(index)
    }

    fn en_passant_move(
        &self,
        position: &Position,
        piece: Piece,
        from: usize,
        to: usize,
        out: &mut Vec<Move>,
    ) {
        if !self.effects.is_en_passant_kind(piece.kind()) {
            return;
        }
        let Some(ep) = position.en_passant() else {
            return;
        };
        let Some(victim) = ep.victim else {
            return;
        };
        if !ep.targets.contains(Square::from_index(to)) {
            return;
        }
        match position.piece_at(victim) {
            Some(v) if v.color() != piece.color() => {
                self.push_move(
                    position,
                    piece,
                    from,
                    to,
                    MoveKind::EnPassant { victim },
                    true,
                    out,
                );
            }
            _ => {}
        }
    }

    /// Pushes a move, expanded into its promotions when a promotion rule
    /// applies to it (and `special` allows it).
    #[allow(clippy::too_many_arguments)]
    fn push_move(
        &self,
        position: &Position,
        piece: Piece,
        from: usize,
        to: usize,
        kind: MoveKind,
        special: bool,
        out: &mut Vec<Move>,
    ) {
        let mv = Move {
            from: Square::from_index(from),
            to: Square::from_index(to),
            kind,
            promotion: None,
            crown: None,
            gate: None,
        };
        let rule = if special {
            self.promotion_rule(piece, from, to)
        } else {
            None
        };
        // `no piece may stand where it could not move`: the piece may not
        // stay what it is on such a square (it may promote there).
        let may_stay = !self.immobile_squares[piece.kind()][piece.color().index()].contains(mv.to);
        let Some(rule) = rule else {
            if may_stay {
                out.push(mv);
            }
            return;
        };
        let rule = &self.variant.promotions[rule];
        if let PromotionTiming::Delayed { .. } = rule.timing {
            out.push(mv);
            return;
        }
        let optional = match &rule.obligation {
            Obligation::Optional => true,
            Obligation::Mandatory => false,
            // Conditions such as a clock below a limit are false without
            // clocks: the promotion stays mandatory.
            Obligation::MandatoryUnless(_) => false,
        };
        if optional && may_stay {
            out.push(mv);
        }
        for choice in &rule.choices {
            if !rule.limits.is_empty() {
                let on_board = SquareIter::new(*position.occupied(piece.color()))
                    .filter(|s| {
                        position
                            .piece_at_index(*s)
                            .is_some_and(|p| p.kind() == *choice)
                    })
                    .count() as u32;
                if !rule.choice_available(*choice, piece.color(), on_board) {
                    continue;
                }
            }
            out.push(Move {
                promotion: Some(*choice),
                ..mv
            });
        }
    }

    /// The index of the promotion rule for `piece` moving from `from` to
    /// `to`: the rule of the arrival square, else that of the departure
    /// square if it says `starting or ending there`
    /// ([`Variant::promotion_rule_for_move`](varc_runtime::model::Variant::promotion_rule_for_move)).
    #[inline]
    fn promotion_rule(&self, piece: Piece, from: usize, to: usize) -> Option<usize> {
        self.promotion_rule_on(piece, to).or_else(|| {
            self.promotion_rule_on(piece, from)
                .filter(|&rule| self.variant.promotions[rule].leaving_too)
        })
    }

    /// The index of the promotion rule for `piece` arriving on square `to`.
    #[inline]
    fn promotion_rule_on(&self, piece: Piece, to: usize) -> Option<usize> {
        let rule = self.promotion_lookup[super::tables::piece_key(piece.kind(), piece.color(), to)];
        (rule != u16::MAX).then_some(rule as usize)
    }

    fn castling_moves(&self, position: &Position, out: &mut Vec<Move>) {
        use varc_runtime::model::CastlingRequirement;
        let side = position.side_to_move();
        let rights = position.castling_rights(side);
        for rule in &self.variant.castling {
            let rank = rule.ranks[side.index()];
            let mut loose_files = 0u16;
            let mut lineage = None;
            for requirement in &rule.requirements {
                match requirement {
                    CastlingRequirement::RookMayHaveMovedOnFiles(files) => {
                        for f in files {
                            loose_files |= 1u16.checked_shl(*f as u32).unwrap_or(0);
                        }
                    }
                    CastlingRequirement::KingLineage(l) => lineage = Some(l),
                }
            }
            if rights == 0 && loose_files == 0 {
                continue;
            }
            for king_file in 0..position.files() {
                let king_square = Square::new(king_file, rank);
                let Some(king) = position.piece_at(king_square) else {
                    continue;
                };
                if king.color() != side || king.kind() != rule.king || !king.is_unmoved() {
                    continue;
                }
                let lineage_ok = lineage.is_none_or(|l| king.lineage().was.ends_with(&l.was));
                for rook_file in 0..position.files() {
                    let plain = rights >> rook_file & 1 == 1;
                    let loose = loose_files >> rook_file & 1 == 1;
                    if rook_file == king_file || !((plain || loose) && lineage_ok) {
                        continue;
                    }
                    let rook_square = Square::new(rook_file, rank);
                    match position.piece_at(rook_square) {
                        Some(rook) if rook.color() == side && rook.kind() == rule.rook => {}
                        _ => continue,
                    }
                    let destinations = if rook_file > king_file {
                        rule.short
                    } else {
                        rule.long
                    };
                    if destinations.king_file >= position.files()
                        || destinations.rook_file >= position.files()
                    {
                        continue;
                    }
                    let king_to = Square::new(destinations.king_file, rank);
                    let rook_to = Square::new(destinations.rook_file, rank);
                    let span_clear = |a: u8, b: u8| {
                        (a.min(b)..=a.max(b)).all(|f| {
                            f == king_file
                                || f == rook_file
                                || position.piece_at(Square::new(f, rank)).is_none()
                        })
                    };
                    if !span_clear(king_file, destinations.king_file)
                        || !span_clear(rook_file, destinations.rook_file)
                    {
                        continue;
                    }
                    let enemy = side.opponent();
                    // Under explosions a square next to an enemy royal
                    // piece is not attacked for the king (see `royal_in_danger`).
                    let attacked = |index: usize| {
                        self.attacked(position, index, enemy)
                            && !self.shielded_by_blast(position, index, enemy)
                    };
                    if rule.not_from_check && attacked(king_square.index()) {
                        continue;
                    }
                    if rule.not_through_check {
                        let (a, b) = (
                            king_file.min(destinations.king_file),
                            king_file.max(destinations.king_file),
                        );
                        // Under explosions the king's square may be shielded
                        // while the next one is not: the passed squares are
                        // read with the king lifted from its square, so that
                        // a ride through it attacks them (as Fairy-Stockfish
                        // reads its pseudo-royal king's path). Elsewhere the
                        // king stays, so that it can screen a hopper.
                        let mut lifted = position.clone();
                        if self.variant.explosion.is_some() {
                            lifted.set_piece_at_index(king_square.index(), None);
                        }
                        if (a + 1..b).any(|f| {
                            let index = Square::new(f, rank).index();
                            self.attacked(&lifted, index, enemy)
                                && !self.shielded_by_blast(&lifted, index, enemy)
                        }) {
                            continue;
                        }
                    }
                    let mv = Move {
                        from: king_square,
                        to: king_to,
                        kind: MoveKind::Castle {
                            rook_from: rook_square,
                            rook_to,
                        },
                        promotion: None,
                        crown: None,
                        gate: None,
                    };
                    if rule.not_into_check {
                        let after = self.play(position, &mv);
                        if self.attacked(&after, king_to.index(), enemy)
                            && !self.shielded_by_blast(&after, king_to.index(), enemy)
                        {
                            continue;
                        }
                    }
                    out.push(mv);
                }
            }
        }
    }

    fn delayed_promotions(&self, position: &Position, out: &mut Vec<Move>) {
        let side = position.side_to_move();
        for &rule_index in &self.delayed_rules {
            let rule = &self.variant.promotions[rule_index];
            let PromotionTiming::Delayed { follow_up } = rule.timing else {
                continue;
            };
            let Some(zone) = self.variant.regions.get(rule.zone) else {
                continue;
            };
            let of_rule = |index: usize| {
                position
                    .piece_at_index(index)
                    .is_some_and(|p| rule.pieces.contains(&p.kind()))
            };
            // `anywhere for the last one`: the side's last piece of the
            // rule's kinds promotes on any square.
            let last_one = rule.last_anywhere
                && SquareIter::new(*position.occupied(side))
                    .filter(|&index| of_rule(index))
                    .count()
                    == 1;
            let froms = if last_one {
                *position.occupied(side)
            } else {
                zone.for_side(side).intersection(position.occupied(side))
            };
            for from in SquareIter::new(froms) {
                let Some(piece) = position.piece_at_index(from) else {
                    continue;
                };
                if !rule.pieces.contains(&piece.kind()) {
                    continue;
                }
                // Only the first rule that applies to this piece on this
                // square counts (outside every zone, the last one's rule).
                let applying = self.promotion_rule_on(piece, from);
                if applying != Some(rule_index) && !(last_one && applying.is_none()) {
                    continue;
                }
                let square = Square::from_index(from);
                for &choice in &rule.choices {
                    let on_board = SquareIter::new(*position.occupied(side))
                        .filter(|&index| {
                            position
                                .piece_at_index(index)
                                .is_some_and(|p| p.kind() == choice)
                        })
                        .count() as u32;
                    if !rule.choice_available(choice, side, on_board) {
                        continue;
                    }
                    let stay = Move {
                        from: square,
                        to: square,
                        kind: MoveKind::DelayedPromotion,
                        promotion: Some(choice),
                        crown: None,
                        gate: None,
                    };
                    let first = out.len();
                    out.push(stay);
                    let Some(mode) = follow_up else {
                        self.retain_attacking_nothing(position, rule, out, first);
                        continue;
                    };
                    let promoted = piece.changed_into(choice, self.effects.is_royal(choice), false);
                    let mut follow = Vec::new();
                    for probe in self.tables.probes_of(choice, side, from) {
                        if !self.condition_holds(probe.condition, promoted, from) {
                            continue;
                        }
                        let narrowed = match (mode, probe.mode) {
                            (MoveMode::MoveOrCapture, m) => m,
                            (m, MoveMode::MoveOrCapture) => m,
                            (a, b) if a == b => a,
                            _ => continue,
                        };
                        self.probe_moves(
                            position,
                            promoted,
                            from,
                            probe,
                            narrowed,
                            false,
                            &mut follow,
                        );
                    }
                    dedup_from(&mut follow, 0);
                    out.extend(follow.into_iter().map(|f| Move { to: f.to, ..stay }));
                    self.retain_attacking_nothing(position, rule, out, first);
                }
            }
        }
    }
}

impl Interpreter {
    /// `attacking nothing`: removes the promotions of `out[first..]` that
    /// give check or leave the promoted piece attacking a piece of the
    /// opponent (one it could capture, were it its turn).
    fn retain_attacking_nothing(
        &self,
        position: &Position,
        rule: &varc_runtime::model::Promotion,
        out: &mut Vec<Move>,
        first: usize,
    ) {
        if !rule.attacking_nothing {
            return;
        }
        let side = position.side_to_move();
        let mut kept = first;
        for i in first..out.len() {
            let mv = out[i];
            let mut after = position.clone();
            after.make_move(&mv, &self.effects);
            if !self.royal_in_danger(&after, side.opponent())
                && !self.attacks_a_piece(&after, mv.to.index())
            {
                out[kept] = mv;
                kept += 1;
            }
        }
        out.truncate(kept);
    }

    /// Whether the piece on `square` could capture a piece of the
    /// opponent (its capturing moves, screens and limits included).
    fn attacks_a_piece(&self, position: &Position, square: usize) -> bool {
        let Some(piece) = position.piece_at_index(square) else {
            return false;
        };
        let mut captures = Vec::new();
        for probe in self.tables.probes_of(piece.kind(), piece.color(), square) {
            if self.condition_holds(probe.condition, piece, square) {
                self.probe_moves(
                    position,
                    piece,
                    square,
                    probe,
                    probe.mode,
                    false,
                    &mut captures,
                );
            }
        }
        captures.iter().any(|mv| {
            position
                .piece_at(mv.to)
                .is_some_and(|p| p.color() != piece.color())
        })
    }
}

/// Removes repeated moves from `out[first..]`, keeping the first of each:
/// a compound mover's atoms may reach the same square, and the union of
/// its movement has one move there.
fn dedup_from(out: &mut Vec<Move>, first: usize) {
    let mut kept = first;
    for i in first..out.len() {
        let mv = out[i];
        if !out[first..kept].contains(&mv) {
            out[kept] = mv;
            kept += 1;
        }
    }
    out.truncate(kept);
}
