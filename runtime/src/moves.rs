//! Moves and how they change a position (make and unmake).
//!
//! A [`Move`] is complete: it says everything needed to play it on the
//! position it was generated for (which squares, which promotion, which
//! rook castles, which piece is removed en passant). Making a move needs a
//! few facts of the variant, gathered once in [`MoveEffects`].

use crate::board::Board;
use crate::model::{
    CastleSide, Color, EventPattern, Explosion, FirstMoveLoss, PieceId, RoyalLoss, Square,
    SquareSet, Variant,
};
use crate::position::{EnPassant, Piece, Position};

/// What kind of move a [`Move`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// A piece moves from `from` to `to`, capturing what stands there.
    Normal,
    /// A capture en passant: the piece moves to the empty square `to` and
    /// the piece on `victim` (the one that passed `to`) is removed.
    EnPassant {
        /// Square of the captured piece.
        victim: Square,
    },
    /// Castling: the king goes `from` -> `to`, the rook `rook_from` -> `rook_to`.
    Castle {
        /// Where the rook starts.
        rook_from: Square,
        /// Where the rook ends.
        rook_to: Square,
    },
    /// A delayed promotion (Chess 99, D2-D3): the piece on `from` becomes
    /// [`Move::promotion`] as the whole move, then moves to `to` with the
    /// promoted kind's follow-up move; `to == from` when it stays.
    DelayedPromotion,
    /// A drop: a piece of kind `piece` leaves the mover's hand for the
    /// empty square `to` (`from == to`).
    Drop {
        /// The kind dropped (kinds are below 64, so a byte keeps the move
        /// as small as before: the transposition table holds moves).
        piece: u8,
    },
}

/// A move, complete enough to be played without generating moves again.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// The square the moving piece (the king when castling) starts on.
    pub from: Square,
    /// The square it ends on.
    pub to: Square,
    /// Normal, en passant, castling or delayed promotion.
    pub kind: MoveKind,
    /// The kind the piece becomes, if it promotes.
    pub promotion: Option<PieceId>,
    /// A2 succession: the square of the piece crowned at the start of the
    /// turn, before this move is made.
    pub crown: Option<Square>,
    /// Gating (`drops of ... by gating`): the piece that enters from the
    /// hand onto the square the move leaves, after it.
    pub gate: Option<Gate>,
}

/// The piece a gating move enters from the mover's hand, and where: the
/// square the moving piece left (castling: the king's or the rook's).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Gate {
    /// The kind that enters (kinds are below 64).
    pub kind: u8,
    /// The square it enters.
    pub square: Square,
}

impl Move {
    /// A normal move without promotion.
    pub fn normal(from: Square, to: Square) -> Move {
        Move {
            from,
            to,
            kind: MoveKind::Normal,
            promotion: None,
            crown: None,
            gate: None,
        }
    }

    /// The drop of a piece of `kind` from the hand onto `to`.
    ///
    /// ```
    /// use varc_runtime::model::Square;
    /// use varc_runtime::moves::{Move, MoveKind};
    /// let drop = Move::drop(0, Square::new(4, 3));
    /// assert_eq!((drop.from, drop.kind), (drop.to, MoveKind::Drop { piece: 0 }));
    /// ```
    pub fn drop(kind: PieceId, to: Square) -> Move {
        Move {
            from: to,
            to,
            kind: MoveKind::Drop { piece: kind as u8 },
            promotion: None,
            crown: None,
            gate: None,
        }
    }

    /// The kind dropped, if the move is a drop.
    pub fn dropped(&self) -> Option<PieceId> {
        match self.kind {
            MoveKind::Drop { piece } => Some(PieceId::from(piece)),
            _ => None,
        }
    }

    /// The same move without promotion.
    ///
    /// ```
    /// use varc_runtime::model::Square;
    /// use varc_runtime::moves::Move;
    /// let plain = Move::normal(Square::new(0, 6), Square::new(0, 7));
    /// let promoting = Move { promotion: Some(4), ..plain };
    /// assert_eq!(promoting.without_promotion(), plain);
    /// ```
    pub fn without_promotion(&self) -> Move {
        Move {
            promotion: None,
            ..*self
        }
    }

    /// A number that orders moves by what they do: origin, destination,
    /// promotion, crowned square, then the kind of move (with the en
    /// passant victim or the castling rook). Distinct moves of one position
    /// have distinct keys.
    ///
    /// ```
    /// use varc_runtime::model::Square;
    /// use varc_runtime::moves::Move;
    /// let a = Move::normal(Square::new(0, 1), Square::new(0, 2));
    /// let b = Move::normal(Square::new(0, 1), Square::new(0, 3));
    /// assert!(a.canonical_key() < b.canonical_key());
    /// ```
    pub fn canonical_key(&self) -> u64 {
        let (kind, detail) = match self.kind {
            MoveKind::Normal => (0, 0),
            MoveKind::EnPassant { victim } => (1, victim.index()),
            MoveKind::Castle { rook_from, .. } => (2, rook_from.index()),
            MoveKind::DelayedPromotion => (3, 0),
            MoveKind::Drop { piece } => (4, usize::from(piece)),
        };
        canonical_key(
            self.from.index(),
            self.to.index(),
            self.promotion,
            self.crown.map(|square| square.index()),
            self.gate
                .map(|gate| (PieceId::from(gate.kind), gate.square != self.from)),
            kind,
            detail,
        )
    }

    /// Whether the move is a castling.
    pub fn is_castle(&self) -> bool {
        matches!(self.kind, MoveKind::Castle { .. })
    }

    /// Whether the move is a pass: a piece stays on its square as the
    /// whole move (`pass` in its movement), written `e2e2`.
    pub fn is_pass(&self) -> bool {
        self.kind == MoveKind::Normal && self.from == self.to && self.promotion.is_none()
    }

    /// Whether the move captures something on `position` (the position it
    /// was generated for).
    pub fn is_capture(&self, position: &impl Board) -> bool {
        match self.kind {
            MoveKind::EnPassant { .. } => true,
            MoveKind::Castle { .. } | MoveKind::Drop { .. } => false,
            MoveKind::Normal => self.to != self.from && position.piece_at(self.to).is_some(),
            MoveKind::DelayedPromotion => {
                self.to != self.from && position.piece_at(self.to).is_some()
            }
        }
    }

    /// The castling side: short towards the higher files.
    pub fn castle_side(&self) -> Option<CastleSide> {
        match self.kind {
            MoveKind::Castle { rook_from, .. } => Some(if rook_from.file > self.from.file {
                CastleSide::Short
            } else {
                CastleSide::Long
            }),
            _ => None,
        }
    }
}

/// What [`Position::make_move`] needs to restore the position.
#[derive(Clone, Debug)]
pub struct Undo {
    saved: [(u8, Option<Piece>); 5],
    saved_len: u8,
    castling: [u16; 2],
    en_passant: Option<EnPassant>,
    halfmove_clock: u32,
    fullmove_number: u32,
    /// The hand count the move changed (a drop's or a capture's to hand),
    /// as it was before: side, kind, count.
    hand_before: Option<(Color, PieceId, u8)>,
    /// The hand count of the kind a gating move entered, as it was before.
    gate_hand_before: Option<(Color, PieceId, u8)>,
    /// The piece the move captured, if any.
    pub captured: Option<Piece>,
    /// The pieces an explosion removed besides the captured one, with
    /// their squares (the capturer first); empty (no allocation) elsewhere.
    blasted: Vec<(u8, Piece)>,
    /// The opponent's pieces the move took their first move from
    /// (`first-move of ... lost when ...`), as they were; empty elsewhere.
    first_moves_lost: Vec<(u8, Piece)>,
}

/// The facts of a variant that making a move needs, gathered once.
#[derive(Clone, Debug)]
pub struct MoveEffects {
    royal: Vec<bool>,
    castling_kings: Vec<bool>,
    /// Per side, bit `r`: rank `r` is a castling rank of that side (a move
    /// from or to a square of it takes that file's castling right).
    castling_ranks: [u32; 2],
    en_passant: Vec<bool>,
    /// Per capturing side, the squares en passant may capture onto.
    en_passant_zone: Option<[SquareSet; 2]>,
    succession_becomes: Option<PieceId>,
    track_history: bool,
    reset_events: Vec<EventPattern>,
    /// Captured pieces go to the capturer's hand.
    captures_to_hand: bool,
    /// The variant's hand rules (what a captured piece enters the hand as).
    hands: crate::hands::Hands,
    /// Per kind and side, where a dropped piece starts unmoved.
    unmoved_drops: Vec<[SquareSet; 2]>,
    explosion: Option<Explosion>,
    /// `first-move of PIECES lost when opponent PIECES moves onto its rank
    /// or file`.
    first_move_losses: Vec<FirstMoveLoss>,
}

impl MoveEffects {
    /// Gathers the facts from `variant`.
    pub fn new(variant: &Variant) -> MoveEffects {
        let n = variant.pieces.len();
        let mut castling_kings = vec![false; n];
        let mut castling_ranks = [0u32; 2];
        for castling in &variant.castling {
            if castling.king < n {
                castling_kings[castling.king] = true;
            }
            for (mask, rank) in castling_ranks.iter_mut().zip(castling.ranks) {
                *mask |= 1u32.checked_shl(u32::from(rank)).unwrap_or(0);
            }
        }
        let mut en_passant = vec![false; n];
        for kind in &variant.en_passant {
            if *kind < n {
                en_passant[*kind] = true;
            }
        }
        let succession_becomes = match &variant.royal_loss {
            RoyalLoss::Succession { becomes, .. } => Some(*becomes),
            RoyalLoss::EndsGame => None,
        };
        MoveEffects {
            royal: variant.pieces.iter().map(|p| p.royal).collect(),
            castling_kings,
            castling_ranks,
            en_passant,
            en_passant_zone: variant
                .en_passant_zone
                .and_then(|id| variant.regions.get(id))
                .map(|zone| zone.squares),
            succession_becomes,
            track_history: tracks_history(variant),
            reset_events: variant.ply_reset_events.clone(),
            captures_to_hand: variant.hands.captures_to_hand.is_some(),
            hands: variant.hands.clone(),
            unmoved_drops: crate::hands::unmoved_drop_squares(variant),
            explosion: variant.explosion.clone(),
            first_move_losses: variant.first_moves.losses.clone(),
        }
    }

    /// The variant's explosions on capture, if it has them.
    pub fn explosion(&self) -> Option<&Explosion> {
        self.explosion.as_ref()
    }

    /// Whether pieces of `kind` are royal.
    pub fn is_royal(&self, kind: PieceId) -> bool {
        self.royal.get(kind).copied().unwrap_or(false)
    }

    /// Whether pieces remember the kinds they have been (only variants whose
    /// rules read lineage do: succession, lineage castling requirements,
    /// crowning events). Elsewhere a promoted piece is written like any other
    /// in FEN.
    pub fn tracks_history(&self) -> bool {
        self.track_history
    }

    /// Whether `kind` creates and captures en passant.
    pub fn is_en_passant_kind(&self, kind: PieceId) -> bool {
        self.en_passant.get(kind).copied().unwrap_or(false)
    }

    /// The royal kind a succession crowns into, if the variant has succession.
    pub fn succession_becomes(&self) -> Option<PieceId> {
        self.succession_becomes
    }
}

/// The key of [`Move::canonical_key`] from its parts: squares as runtime
/// indices, `gate` the kind entering and whether on a castling rook's
/// square, `kind` 0 normal, 1 en passant, 2 castling, 3 delayed
/// promotion, `detail` the en passant victim's or the castling rook's
/// square (else 0). For back ends that keep moves in another form.
#[inline]
pub fn canonical_key(
    from: usize,
    to: usize,
    promotion: Option<PieceId>,
    crown: Option<usize>,
    gate: Option<(PieceId, bool)>,
    kind: u64,
    detail: usize,
) -> u64 {
    gate.map_or(0, |(kind, on_rook)| {
        (kind as u64 + 1) | u64::from(on_rook) << 7
    }) << 44
        | (from as u64) << 36
        | (to as u64) << 28
        | promotion.map_or(0, |kind| kind as u64 + 1) << 19
        | crown.map_or(0, |square| square as u64 + 1) << 10
        | kind << 8
        | detail as u64
}

/// Whether any rule of `variant` reads the kinds a piece has been.
pub fn tracks_history(variant: &Variant) -> bool {
    use crate::model::CastlingRequirement;
    fn pattern_reads(p: &EventPattern) -> bool {
        match p {
            EventPattern::Crowning(_) | EventPattern::MovedPieceWas(_) => true,
            EventPattern::Both(a, b) => pattern_reads(a) || pattern_reads(b),
            _ => false,
        }
    }
    fn condition_reads(c: &crate::model::Condition) -> bool {
        use crate::model::Condition;
        match c {
            Condition::LastMove(p) => pattern_reads(p),
            Condition::And(a, b) | Condition::Or(a, b) => condition_reads(a) || condition_reads(b),
            Condition::Not(a) => condition_reads(a),
            _ => false,
        }
    }
    // A piece that returns to the hand demoted must remember what it was.
    matches!(variant.royal_loss, RoyalLoss::Succession { .. })
        || variant.hands.demotes()
        || variant.awards.iter().any(|a| condition_reads(&a.when))
        || variant
            .terminations
            .iter()
            .any(|t| condition_reads(&t.condition))
        || variant
            .castling
            .iter()
            .flat_map(|c| c.requirements.iter())
            .any(|r| matches!(r, CastlingRequirement::KingLineage(_)))
        || variant
            .counters
            .iter()
            .flat_map(|c| c.events.iter())
            .any(pattern_reads)
        || variant.ply_reset_events.iter().any(pattern_reads)
}

impl Undo {
    fn save(&mut self, index: usize, piece: Option<Piece>) {
        self.saved[self.saved_len as usize] = (index as u8, piece);
        self.saved_len += 1;
    }
}

impl Position {
    /// Plays `mv`, which must have been generated for this position, and
    /// returns what [`Position::unmake_move`] needs to take it back.
    pub fn make_move(&mut self, mv: &Move, effects: &MoveEffects) -> Undo {
        let mut undo = Undo {
            saved: [(0, None); 5],
            saved_len: 0,
            castling: [
                self.castling_rights(Color::White),
                self.castling_rights(Color::Black),
            ],
            en_passant: self.en_passant().copied(),
            halfmove_clock: self.halfmove_clock(),
            fullmove_number: self.fullmove_number(),
            hand_before: None,
            gate_hand_before: None,
            captured: None,
            blasted: Vec::new(),
            first_moves_lost: Vec::new(),
        };
        let mover = self.side_to_move();
        let mut crowned = false;
        if let (Some(square), Some(becomes)) = (mv.crown, effects.succession_becomes) {
            let index = square.index();
            let old = self.piece_at_index(index);
            undo.save(index, old);
            if let Some(piece) = old {
                let royal = effects.is_royal(becomes);
                self.set_piece_at_index(
                    index,
                    Some(piece.changed_into(becomes, royal, effects.track_history)),
                );
                crowned = true;
            }
        }
        let from = mv.from.index();
        let to = mv.to.index();
        let mut moving = self.piece_at_index(from);
        let mut next_en_passant = None;
        let mut promoted_from = None;
        match mv.kind {
            MoveKind::Drop { piece } => {
                let kind = PieceId::from(piece);
                let count = self.in_hand(mover, kind);
                undo.hand_before = Some((mover, kind, count));
                self.set_in_hand(mover, kind, count.saturating_sub(1));
                let unmoved = effects
                    .unmoved_drops
                    .get(kind)
                    .is_some_and(|squares| squares[mover.index()].contains(mv.to));
                let dropped = Piece::new(kind, mover, effects.is_royal(kind)).with_unmoved(unmoved);
                undo.save(to, self.piece_at_index(to));
                self.set_piece_at_index(to, Some(dropped));
                // The dropped piece is the one that "moves" for the events
                // (a pawn drop is a move of a pawn).
                moving = Some(dropped);
            }
            MoveKind::Normal | MoveKind::EnPassant { .. } | MoveKind::DelayedPromotion => {
                let mut victim_index = to;
                if let MoveKind::EnPassant { victim } = mv.kind {
                    victim_index = victim.index();
                }
                let captured = if victim_index != from {
                    self.piece_at_index(victim_index)
                } else {
                    None
                };
                undo.captured = captured;
                if let (true, Some(victim)) = (effects.captures_to_hand, captured) {
                    let kind =
                        crate::hands::kind_in_hand(&effects.hands, victim.kind(), victim.history());
                    let count = self.in_hand(mover, kind);
                    undo.hand_before = Some((mover, kind, count));
                    self.set_in_hand(mover, kind, count.saturating_add(1));
                }
                undo.save(from, moving);
                if to != from {
                    undo.save(to, self.piece_at_index(to));
                }
                if victim_index != to && victim_index != from {
                    undo.save(victim_index, captured);
                    self.set_piece_at_index(victim_index, None);
                }
                if let Some(mut piece) = moving {
                    if let Some(kind) = mv.promotion {
                        promoted_from = Some(piece.kind());
                        piece =
                            piece.changed_into(kind, effects.is_royal(kind), effects.track_history);
                    }
                    let moves_away = to != from;
                    if moves_away {
                        piece = piece.with_unmoved(false);
                    }
                    self.set_piece_at_index(from, None);
                    self.set_piece_at_index(to, Some(piece));
                    if mv.kind == MoveKind::Normal && captured.is_none() && moves_away {
                        next_en_passant = self.passed_squares(mv.from, mv.to, piece, effects);
                    }
                }
            }
            MoveKind::Castle { rook_from, rook_to } => {
                let rook_index = rook_from.index();
                let rook = self.piece_at_index(rook_index);
                undo.save(from, moving);
                undo.save(rook_index, rook);
                undo.save(to, self.piece_at_index(to));
                undo.save(rook_to.index(), self.piece_at_index(rook_to.index()));
                self.set_piece_at_index(from, None);
                self.set_piece_at_index(rook_index, None);
                self.set_piece_at_index(to, moving.map(|p| p.with_unmoved(false)));
                self.set_piece_at_index(rook_to.index(), rook.map(|p| p.with_unmoved(false)));
            }
        }
        if let Some(gate) = mv.gate {
            // The square was the moving piece's (or the castling rook's),
            // saved above, so taking the move back restores it.
            let kind = PieceId::from(gate.kind);
            let count = self.in_hand(mover, kind);
            undo.gate_hand_before = Some((mover, kind, count));
            self.set_in_hand(mover, kind, count.saturating_sub(1));
            let entered = Piece::new(kind, mover, effects.is_royal(kind)).with_unmoved(false);
            self.set_piece(gate.square, Some(entered));
        }
        self.update_castling_rights(mv, moving, effects);
        if !effects.first_move_losses.is_empty() {
            self.lose_first_moves(mv, moving, effects, &mut undo);
        }
        if let (Some(explosion), Some(_)) = (&effects.explosion, undo.captured) {
            self.explode(mv.to, explosion, effects, &mut undo);
        }
        self.set_en_passant(next_en_passant);
        let resets = resets_halfmove_clock(
            &effects.reset_events,
            mv,
            moving,
            undo.captured,
            promoted_from,
            crowned,
        );
        if resets {
            self.set_halfmove_clock(0);
        } else {
            self.set_halfmove_clock(undo.halfmove_clock.saturating_add(1));
        }
        if mover == Color::Black {
            self.set_fullmove_number(undo.fullmove_number.saturating_add(1));
        }
        self.set_side_to_move(mover.opponent());
        undo
    }

    /// A capture on `center` explodes: the capturer and every piece of a
    /// kind the blast destroys within the radius go; a castling right on a
    /// blasted square goes with its piece.
    fn explode(
        &mut self,
        center: Square,
        explosion: &Explosion,
        effects: &MoveEffects,
        undo: &mut Undo,
    ) {
        let (files, ranks) = (self.files(), self.ranks());
        let reach = |c: u8, n: u8| {
            c.saturating_sub(explosion.radius)..=c.saturating_add(explosion.radius).min(n - 1)
        };
        let squares = reach(center.rank, ranks)
            .flat_map(|rank| reach(center.file, files).map(move |file| Square::new(file, rank)));
        for square in squares {
            let index = square.index();
            let Some(piece) = self.piece_at_index(index) else {
                continue;
            };
            if square != center && !explosion.destroys(piece.kind()) {
                continue;
            }
            undo.blasted.push((index as u8, piece));
            self.set_piece_at_index(index, None);
            for color in Color::ALL {
                if effects.castling_ranks[color.index()] >> square.rank & 1 == 1 {
                    let rights = self.castling_rights(color) & !(1u16 << square.file);
                    self.set_castling_rights(color, rights);
                }
            }
        }
    }

    /// `first-move of PIECES lost when opponent PIECES moves onto its rank
    /// or file`: after a move of `moving` (as it left its square) to
    /// `mv.to`, the opponent's unmoved pieces of the rule's kinds on that
    /// rank or file are moved, whatever stands between.
    fn lose_first_moves(
        &mut self,
        mv: &Move,
        moving: Option<Piece>,
        effects: &MoveEffects,
        undo: &mut Undo,
    ) {
        let Some(mover) = moving else {
            return;
        };
        if matches!(mv.kind, MoveKind::Drop { .. }) || mv.to == mv.from {
            return;
        }
        let kind = mover.kind();
        for loss in &effects.first_move_losses {
            if !loss.by.contains(&kind) {
                continue;
            }
            for (square, piece) in self.pieces().collect::<Vec<_>>() {
                let on_line = square.file == mv.to.file || square.rank == mv.to.rank;
                if piece.color() != mover.color()
                    && piece.is_unmoved()
                    && on_line
                    && square != mv.to
                    && loss.pieces.contains(&piece.kind())
                {
                    undo.first_moves_lost.push((square.index() as u8, piece));
                    self.set_piece(square, Some(piece.with_unmoved(false)));
                }
            }
        }
    }

    /// Takes back `mv`, given what [`Position::make_move`] returned.
    pub fn unmake_move(&mut self, _mv: &Move, undo: &Undo) {
        for &(index, piece) in &undo.first_moves_lost {
            self.set_piece_at_index(index as usize, Some(piece));
        }
        for &(index, piece) in &undo.blasted {
            self.set_piece_at_index(index as usize, Some(piece));
        }
        for i in (0..undo.saved_len as usize).rev() {
            let (index, piece) = undo.saved[i];
            self.set_piece_at_index(index as usize, piece);
        }
        self.set_castling_rights(Color::White, undo.castling[0]);
        self.set_castling_rights(Color::Black, undo.castling[1]);
        for (color, kind, count) in [undo.gate_hand_before, undo.hand_before]
            .into_iter()
            .flatten()
        {
            self.set_in_hand(color, kind, count);
        }
        self.set_en_passant(undo.en_passant);
        self.set_halfmove_clock(undo.halfmove_clock);
        self.set_fullmove_number(undo.fullmove_number);
        self.set_side_to_move(self.side_to_move().opponent());
    }

    /// The en passant state after `piece` went `from` -> `to` without
    /// capturing: for a piece of an en passant kind moving two or more
    /// squares along a straight line, the squares strictly between.
    fn passed_squares(
        &self,
        from: Square,
        to: Square,
        piece: Piece,
        effects: &MoveEffects,
    ) -> Option<EnPassant> {
        if !effects.is_en_passant_kind(piece.kind()) {
            return None;
        }
        let df = to.file as i32 - from.file as i32;
        let dr = to.rank as i32 - from.rank as i32;
        let steps = df.abs().max(dr.abs());
        let straight = df == 0 || dr == 0 || df.abs() == dr.abs();
        if steps < 2 || !straight {
            return None;
        }
        let (sf, sr) = (df.signum(), dr.signum());
        let mut targets = SquareSet::EMPTY;
        for i in 1..steps {
            targets.insert(Square::new(
                (from.file as i32 + sf * i) as u8,
                (from.rank as i32 + sr * i) as u8,
            ));
        }
        if let Some(zone) = &effects.en_passant_zone {
            // The opponent captures: the squares are read for its side.
            let onto = &zone[piece.color().opponent().index()];
            targets = targets
                .iter()
                .filter(|square| onto.contains(*square))
                .collect();
            if targets.is_empty() {
                return None;
            }
        }
        Some(EnPassant {
            targets,
            victim: Some(to),
        })
    }

    fn update_castling_rights(&mut self, mv: &Move, moving: Option<Piece>, effects: &MoveEffects) {
        if self.castling_rights(Color::White) == 0 && self.castling_rights(Color::Black) == 0 {
            return;
        }
        if let Some(piece) = moving {
            if effects
                .castling_kings
                .get(piece.kind())
                .copied()
                .unwrap_or(false)
                && mv.from != mv.to
            {
                self.set_castling_rights(piece.color(), 0);
            }
        }
        let mut touched = [Some(mv.from), Some(mv.to), None];
        match mv.kind {
            MoveKind::Castle { rook_from, .. } => touched[2] = Some(rook_from),
            MoveKind::EnPassant { victim } => touched[2] = Some(victim),
            // A drop lands on an empty square: no rook there had a right.
            MoveKind::Drop { .. } => return,
            _ => {}
        }
        for square in touched.into_iter().flatten() {
            for color in Color::ALL {
                if effects.castling_ranks[color.index()] >> square.rank & 1 == 1 {
                    let rights = self.castling_rights(color) & !(1u16 << square.file);
                    self.set_castling_rights(color, rights);
                }
            }
        }
    }
}

/// Reset events made of captures, moves of kinds, en passant and
/// promotions only (the Laws of Chess and most variants), as kind masks:
/// [`resets_halfmove_clock`] with a few bit tests per move, for a back end
/// that knows the kinds involved without building pieces.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ResetMasks {
    capture_of: u64,
    move_of: u64,
    en_passant: bool,
    /// `(from, to)` kind masks of the promotion patterns; unused slots 0.
    promotions: [(u64, u64); 4],
}

impl ResetMasks {
    /// The masks of `events`, or `None` when one of them needs more than
    /// kinds (castling, royal captures, crownings, lineages, `Both`), a
    /// kind does not fit in 64 bits, or there are more than four
    /// promotion patterns.
    pub fn of(events: &[EventPattern]) -> Option<ResetMasks> {
        fn mask(kinds: &[PieceId]) -> Option<u64> {
            if kinds.is_empty() {
                return Some(u64::MAX);
            }
            kinds
                .iter()
                .try_fold(0u64, |m, &k| (k < 64).then(|| m | 1 << k))
        }
        let mut masks = ResetMasks::default();
        let mut promotions = 0;
        for event in events {
            match event {
                EventPattern::Capture(kinds) => masks.capture_of |= mask(kinds)?,
                EventPattern::MoveOf(kinds) => masks.move_of |= mask(kinds)?,
                EventPattern::EnPassant => masks.en_passant = true,
                EventPattern::Promotion { from, to } => {
                    let slot = masks.promotions.get_mut(promotions)?;
                    *slot = (mask(from)?, mask(to)?);
                    promotions += 1;
                }
                _ => return None,
            }
        }
        Some(masks)
    }

    /// Whether a move of a `moving` kind, capturing `captured` (en passant
    /// if `en_passant`) and promoting `(from, into)` resets the clock.
    #[inline]
    pub fn matches(
        &self,
        moving: Option<PieceId>,
        captured: Option<PieceId>,
        en_passant: bool,
        promotion: Option<(PieceId, PieceId)>,
    ) -> bool {
        let bit =
            |kind: Option<PieceId>| kind.map_or(0, |k| 1u64.checked_shl(k as u32).unwrap_or(0));
        self.capture_of & bit(captured) != 0
            || self.move_of & bit(moving) != 0
            || (self.en_passant && en_passant)
            || promotion.is_some_and(|(from, into)| {
                self.promotions
                    .iter()
                    .any(|&(f, t)| f & bit(Some(from)) != 0 && t & bit(Some(into)) != 0)
            })
    }
}

/// Whether a move resets the halfmove clock: whether one of the variant's
/// ply-reset `events` matches it. `moving` is the piece that moves (as it
/// was before the move), `captured` the piece it takes, `promoted_from` the
/// kind it had if it promotes, `crowned` whether the turn began with a
/// succession. Both back ends' positions keep their clock with it.
pub fn resets_halfmove_clock(
    events: &[EventPattern],
    mv: &Move,
    moving: Option<Piece>,
    captured: Option<Piece>,
    promoted_from: Option<PieceId>,
    crowned: bool,
) -> bool {
    events
        .iter()
        .any(|event| event_matches(event, mv, moving, captured, promoted_from, crowned))
}

/// Whether the pattern needs the position after the move (a check, a
/// Laws-of-Chess checkmate), which the move alone does not tell.
pub(crate) fn reads_position_after(event: &EventPattern) -> bool {
    match event {
        EventPattern::LawsCheckmate | EventPattern::Check | EventPattern::CheckBy(_) => true,
        EventPattern::Not(a) => reads_position_after(a),
        EventPattern::Both(a, b) => reads_position_after(a) || reads_position_after(b),
        _ => false,
    }
}

/// Whether the move matches a game event pattern, as far as the move alone
/// tells (a check or a Laws-of-Chess checkmate needs the game layer: never
/// here).
fn event_matches(
    event: &EventPattern,
    mv: &Move,
    moving: Option<Piece>,
    captured: Option<Piece>,
    promoted_from: Option<PieceId>,
    crowned: bool,
) -> bool {
    match event {
        EventPattern::Capture(kinds) => {
            captured.is_some_and(|c| kinds.is_empty() || kinds.contains(&c.kind()))
        }
        EventPattern::EnPassant => matches!(mv.kind, MoveKind::EnPassant { .. }),
        EventPattern::Pass => mv.is_pass(),
        EventPattern::MoveOf(kinds) => {
            moving.is_some_and(|m| kinds.is_empty() || kinds.contains(&m.kind()))
        }
        EventPattern::DropOf(kinds) => mv
            .dropped()
            .is_some_and(|kind| kinds.is_empty() || kinds.contains(&kind)),
        EventPattern::Promotion { from, to } => match (promoted_from, mv.promotion) {
            (Some(old), Some(new)) => {
                (from.is_empty() || from.contains(&old)) && (to.is_empty() || to.contains(&new))
            }
            _ => false,
        },
        EventPattern::Castle(side) => match mv.castle_side() {
            Some(s) => side.is_none_or(|want| want == s),
            None => false,
        },
        EventPattern::RoyalCapture => captured.is_some_and(|c| c.is_royal()),
        EventPattern::Crowning(_) => crowned,
        EventPattern::LawsCheckmate | EventPattern::Check | EventPattern::CheckBy(_) => false,
        // Not a check: the move alone does not tell, so never here either.
        EventPattern::Not(a) if reads_position_after(a) => false,
        EventPattern::Not(a) => !event_matches(a, mv, moving, captured, promoted_from, crowned),
        EventPattern::MovedPieceWas(kinds) => {
            moving.is_some_and(|m| kinds.iter().all(|k| m.history().any(|h| h == *k)))
        }
        EventPattern::Both(a, b) => {
            event_matches(a, mv, moving, captured, promoted_from, crowned)
                && event_matches(b, mv, moving, captured, promoted_from, crowned)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{resets_halfmove_clock, Move, MoveKind, ResetMasks};
    use crate::model::{Color, EventPattern, PieceId, Square};
    use crate::position::Piece;

    /// Every combination of mover, victim, en passant and promotion over
    /// three kinds: the masks say what the patterns say.
    #[test]
    fn reset_masks_agree_with_the_patterns() {
        let pattern_sets: Vec<Vec<EventPattern>> = vec![
            vec![],
            vec![EventPattern::Capture(vec![]), EventPattern::MoveOf(vec![0])],
            vec![EventPattern::Capture(vec![2]), EventPattern::EnPassant],
            vec![
                EventPattern::MoveOf(vec![]),
                EventPattern::Promotion {
                    from: vec![1],
                    to: vec![],
                },
            ],
            vec![EventPattern::Promotion {
                from: vec![],
                to: vec![0, 2],
            }],
        ];
        let kinds: [Option<PieceId>; 4] = [None, Some(0), Some(1), Some(2)];
        let (a, b) = (Square::new(0, 0), Square::new(1, 1));
        for patterns in &pattern_sets {
            let masks = ResetMasks::of(patterns).expect("simple patterns");
            for moving in kinds {
                for captured in kinds {
                    for en_passant in [false, true] {
                        for into in kinds {
                            let mv = Move {
                                from: a,
                                to: b,
                                kind: if en_passant {
                                    MoveKind::EnPassant { victim: a }
                                } else {
                                    MoveKind::Normal
                                },
                                promotion: into,
                                crown: None,
                                gate: None,
                            };
                            let piece = |kind: Option<PieceId>| {
                                kind.map(|k| Piece::new(k, Color::White, false))
                            };
                            let promoted_from = into.and(moving);
                            let expected = resets_halfmove_clock(
                                patterns,
                                &mv,
                                piece(moving),
                                piece(captured),
                                promoted_from,
                                false,
                            );
                            let promotion = into.and_then(|to| moving.map(|from| (from, to)));
                            assert_eq!(
                                masks.matches(moving, captured, en_passant, promotion),
                                expected,
                                "{patterns:?} moving {moving:?} captured {captured:?} \
                                 en passant {en_passant} into {into:?}"
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn reset_masks_refuse_patterns_that_need_more_than_kinds() {
        assert_eq!(ResetMasks::of(&[EventPattern::RoyalCapture]), None);
        assert_eq!(ResetMasks::of(&[EventPattern::Castle(None)]), None);
        assert_eq!(ResetMasks::of(&[EventPattern::MoveOf(vec![64])]), None);
        let promotion = EventPattern::Promotion {
            from: vec![],
            to: vec![],
        };
        assert_eq!(ResetMasks::of(&vec![promotion; 5]), None);
    }
}
