//! The lowered model as readable text (`varc dump`), snapshot-tested in
//! `golden/` for every bundled variant.

use crate::model::*;
use std::fmt::Write;

/// The whole model as text.
pub fn dump(variant: &Variant) -> String {
    let d = Dumper { v: variant };
    let mut out = String::new();
    let v = variant;
    let _ = writeln!(out, "variant {} \"{}\"", v.id, v.name);
    let _ = writeln!(
        out,
        "board {} x {}{}",
        v.board.files,
        v.board.ranks,
        d.holes()
    );
    let _ = writeln!(out, "setup {}", v.start_fen);
    out.push_str("\nregions\n");
    for region in &v.regions {
        let [white, black] = &region.squares;
        if white == black {
            let _ = writeln!(out, "  {} (both sides): {}", region.name, squares(white));
        } else {
            let _ = writeln!(out, "  {} for white: {}", region.name, squares(white));
            let _ = writeln!(out, "  {} for black: {}", region.name, squares(black));
        }
    }
    out.push_str("\npieces\n");
    for piece in &v.pieces {
        let value = piece
            .value
            .map(|x| format!(" value {x}"))
            .unwrap_or_default();
        let royal = if piece.royal { " royal" } else { "" };
        let confined = piece
            .confined
            .and_then(|region| v.regions.get(region))
            .map(|region| format!(" confined to {}", region.name))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "  {} \"{}\"{royal}{value}{confined} betza {}",
            piece.name, piece.letter, piece.betza
        );
        for atom in &piece.moves {
            let _ = writeln!(out, "    {}", d.atom(atom));
        }
        if piece.passes {
            let _ = writeln!(out, "    pass");
        }
    }
    out.push_str("\npromotions\n");
    for p in &v.promotions {
        let _ = writeln!(
            out,
            "  {}{} -> {} on entering {}, {}{}",
            label(&p.label),
            d.names(&p.pieces, " | "),
            d.names(&p.choices, " | "),
            v.regions[p.zone].name,
            d.obligation(&p.obligation),
            match &p.timing {
                PromotionTiming::Immediate => ", immediate".to_string(),
                PromotionTiming::Delayed { follow_up: None } =>
                    ", delayed (on a later turn, as the whole move)".to_string(),
                PromotionTiming::Delayed {
                    follow_up: Some(mode),
                } => {
                    format!(", delayed (on a later turn, then optionally one {} move of the promoted piece)", mode_word(*mode))
                }
            }
        );
        if !p.limits.is_empty() {
            let limits: Vec<String> = p
                .limits
                .iter()
                .map(|limit| {
                    let name = v.pieces.get(limit.kind).map_or("?", |k| k.name.as_str());
                    format!("{name} {}/{}", limit.counts[0], limit.counts[1])
                })
                .collect();
            let _ = writeln!(
                out,
                "    limited choices: offered while fewer on the board than (white/black) {}",
                limits.join(", ")
            );
        }
        if p.leaving_too {
            out.push_str(
                "    starting or ending there: a move that starts in the zone promotes too\n",
            );
        }
        if p.last_anywhere {
            out.push_str(
                "    anywhere for the last one: a side's last piece of these kinds promotes on any square\n",
            );
        }
        if p.attacking_nothing {
            out.push_str(
                "    attacking nothing: no promotion that gives check or leaves the promoted piece attacking a piece of the opponent\n",
            );
        }
    }
    out.push_str("\ncastling\n");
    for c in &v.castling {
        let file = |f: u8| (b'a' + f) as char;
        let mut flags = Vec::new();
        if c.not_from_check {
            flags.push("not from check".to_string());
        }
        if c.not_through_check {
            flags.push("not through check".to_string());
        }
        if c.not_into_check {
            flags.push("not into check".to_string());
        }
        for r in &c.requirements {
            flags.push(match r {
                CastlingRequirement::RookMayHaveMovedOnFiles(files) => {
                    format!(
                        "rook may have moved if on files {}",
                        files
                            .iter()
                            .map(|f| file(*f).to_string())
                            .collect::<Vec<_>>()
                            .join(" ")
                    )
                }
                CastlingRequirement::KingLineage(l) => {
                    format!("king was {}", d.names(&l.was, " > "))
                }
            });
        }
        // The first ranks are the default; another rank is said.
        if c.ranks != [0, v.board.ranks.saturating_sub(1)] {
            flags.push(format!(
                "on rank {} (white), {} (black)",
                c.ranks[0] + 1,
                c.ranks[1] + 1
            ));
        }
        let _ = writeln!(
            out,
            "  {}{} with {}: short king {} rook {}, long king {} rook {}; {}",
            label(&c.label),
            d.name(c.king),
            d.name(c.rook),
            file(c.short.king_file),
            file(c.short.rook_file),
            file(c.long.king_file),
            file(c.long.rook_file),
            if flags.is_empty() {
                "no check conditions".to_string()
            } else {
                flags.join(", ")
            }
        );
    }
    let _ = writeln!(
        out,
        "\nen passant: {}",
        if v.en_passant.is_empty() {
            "none".to_string()
        } else {
            d.names(&v.en_passant, ", ")
        }
    );
    if let Some(zone) = v.en_passant_zone.and_then(|id| v.regions.get(id)) {
        let _ = writeln!(out, "  only onto {}", zone.name);
    }
    // Only variants with hands say anything, so other dumps are unchanged.
    if v.hands.in_use() {
        out.push_str("\nhands\n");
        if let Some(to_hand) = &v.hands.captures_to_hand {
            let _ = writeln!(
                out,
                "  captured pieces go to the capturer's hand{}",
                if to_hand.demoted {
                    ", promoted ones as the kind they were first"
                } else {
                    ""
                }
            );
        }
        for rule in &v.hands.drops {
            if rule.by_gating {
                let _ = writeln!(
                    out,
                    "  {} enter by gating: onto the square{} an unmoved piece leaves, with its move (castling: the king's or the rook's)",
                    d.names(&rule.pieces, ", "),
                    rule.onto
                        .and_then(|id| v.regions.get(id))
                        .map_or(String::new(), |r| format!(" of {}", r.name)),
                );
                continue;
            }
            let onto = rule
                .onto
                .and_then(|id| v.regions.get(id))
                .map_or("any empty square".to_string(), |r| {
                    format!("empty squares of {}", r.name)
                });
            let _ = writeln!(
                out,
                "  drops of {} onto {onto}{}",
                d.names(&rule.pieces, ", "),
                if rule.no_two_on_a_file {
                    ", not on a file where the side has one"
                } else {
                    ""
                }
            );
        }
    }
    out.push_str("\nlegality\n");
    let _ = writeln!(
        out,
        "  check rule: {}",
        match v.legality.check_rule {
            CheckRule::RoyalMayNotBeAttacked => "royal pieces may not be left attacked",
            CheckRule::None => "none (royal pieces can be captured)",
        }
    );
    if v.legality.royal_facing == RoyalFacing::Forbidden {
        out.push_str(
            "  royals may not face each other: a royal piece facing an opponent's along an open file or rank is attacked\n",
        );
    }
    if v.legality.royal_facing == RoyalFacing::MustPart {
        out.push_str(
            "  royals facing each other must part: while they face, a move that leaves them facing is illegal unless a pass, and a pass is legal even in check\n",
        );
    }
    if v.legality.giving_check == GivingCheck::Forbidden {
        out.push_str("  no checks: no move may attack a royal piece of the opponent\n");
    }
    if v.legality.capture_rule == CaptureRule::Compulsory {
        out.push_str("  capture rule: compulsory (a side that can capture must)\n");
    }
    if v.legality.drops_compulsory {
        out.push_str("  drop rule: compulsory (a side that can drop must)\n");
    }
    if v.legality.immobility_illegal {
        out.push_str("  no piece may stand where it could not move (a move that does not promote, or a drop, onto such a square is illegal)\n");
    }
    if let Some(explosion) = &v.explosion {
        let spared: Vec<&str> = explosion
            .immune
            .iter()
            .filter_map(|k| v.pieces.get(*k).map(|p| p.name.as_str()))
            .collect();
        let _ = writeln!(
            out,
            "  explosions: a capture removes the capturer and every piece within {} king step(s){}",
            explosion.radius,
            if spared.is_empty() {
                String::new()
            } else {
                format!(", except {}", spared.join(", "))
            }
        );
    }
    for h in &v.legality.history_rules {
        let HistoryRuleKind::RepeatedCheck { plies_ago } = h.kind;
        let _ = writeln!(
            out,
            "  {}illegal: a move giving check that repeats the placement of {plies_ago} plies before{}; says \"{}\"",
            label(&h.label),
            if h.unless_only_such_moves { ", unless every legal move is such a move" } else { "" },
            h.message
        );
    }
    let _ = writeln!(
        out,
        "  on losing the last royal piece: {}",
        match &v.royal_loss {
            RoyalLoss::EndsGame => "no moves (the game is over)".to_string(),
            RoyalLoss::Succession {
                candidates,
                becomes,
            } => format!(
                "crown one of {} as {} at the start of the next turn, then move",
                d.names(candidates, " | "),
                d.name(*becomes)
            ),
        }
    );
    out.push_str("\ncounters (per player)\n");
    for c in &v.counters {
        let _ = writeln!(
            out,
            "  {}: counts {}",
            c.name,
            c.events
                .iter()
                .map(|e| d.event(e))
                .collect::<Vec<_>>()
                .join(", ")
        );
        if !c.resets.is_empty() {
            let _ = writeln!(
                out,
                "    back to 0 on {}",
                c.resets
                    .iter()
                    .map(|e| d.event(e))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
        if let Some(from) = c.fen_countdown {
            let _ = writeln!(
                out,
                "    in FEN: what is left of {from} for each player (White+Black)"
            );
        }
    }
    if v.first_moves.in_fen || v.first_moves.has_losses() {
        out.push_str("\nfirst moves\n");
        if v.first_moves.in_fen {
            out.push_str(
                "  in FEN: the castling field names the unmoved pieces of each side's first rank by file\n",
            );
        }
        for loss in &v.first_moves.losses {
            let _ = writeln!(
                out,
                "  an unmoved {} loses its first move when an opponent's {} moves onto its rank or file",
                d.names(&loss.pieces, " | "),
                d.names(&loss.by, " | ")
            );
        }
    }
    if v.counting.in_use() {
        out.push_str(
            "\ncounting (one count of plies; the first limit that holds for the counting side, read with it to move)\n",
        );
        for limit in &v.counting.limits {
            let when = limit
                .when
                .as_ref()
                .map_or("always".to_string(), |c| format!("when {}", d.condition(c)));
            match limit.moves {
                Some(moves) => {
                    let _ = writeln!(
                        out,
                        "  limit {moves} moves ({} plies), counted from {}, {when}",
                        u64::from(moves) * 2,
                        if limit.from_pieces {
                            "the number of pieces on the board"
                        } else {
                            "0"
                        }
                    );
                }
                None => {
                    let _ = writeln!(out, "  no counting {when}");
                }
            }
        }
        for start in &v.counting.starts {
            let _ = writeln!(
                out,
                "  a count starts for {} when {}",
                player(start.player),
                d.condition(&start.when)
            );
        }
        out.push_str(
            "  in FEN: a running count's limit in place of en passant, its plies in place of the halfmove clock\n",
        );
    }
    let _ = writeln!(
        out,
        "\nplies since reset: reset by {}",
        if v.ply_reset_events.is_empty() {
            "nothing".to_string()
        } else {
            v.ply_reset_events
                .iter()
                .map(|e| d.event(e))
                .collect::<Vec<_>>()
                .join(", ")
        }
    );
    out.push_str("\ntermination\n");
    for t in &v.terminations {
        let _ = writeln!(
            out,
            "  {}{} when {} => {}; reason \"{}\"{}",
            label(&t.label),
            match t.trigger {
                Trigger::Automatic => "ends",
                Trigger::Claim => "may be claimed",
            },
            d.condition(&t.condition),
            d.outcome(&t.outcome),
            t.reason,
            if t.tiebreak_applies {
                "; tiebreak decides a draw"
            } else {
                ""
            }
        );
    }
    out.push_str("\nawards\n");
    for a in &v.awards {
        let mut flags = Vec::new();
        if a.once {
            flags.push("once".to_string());
        }
        if a.ends_game {
            flags.push("ends the game".to_string());
        }
        if !a.not_stackable_with.is_empty() {
            flags.push(format!(
                "not stackable with {}",
                a.not_stackable_with.join(", ")
            ));
        }
        let _ = writeln!(
            out,
            "  \"{}\": {} win(s) to {} when {}{}",
            a.name,
            a.wins,
            player(a.to),
            d.condition(&a.when),
            if flags.is_empty() {
                String::new()
            } else {
                format!("; {}", flags.join("; "))
            }
        );
    }
    let _ = writeln!(
        out,
        "\nagreement: {}",
        match &v.agreement {
            Agreement::Never => "never".to_string(),
            Agreement::Always => "allowed".to_string(),
            Agreement::When(c) => format!("allowed when {}", d.condition(c)),
        }
    );
    let _ = writeln!(
        out,
        "resignation: {}",
        match &v.resignation {
            Resignation::OpponentWins => "the opponent wins".to_string(),
            Resignation::AwardWins { base, per_count, counter } => format!(
                "the opponent is awarded {base} win(s) plus {per_count} per unit of his {} and the game ends",
                v.counters[*counter].name
            ),
        }
    );
    if let Some(t) = &v.tiebreak {
        let mut parts: Vec<String> = t
            .values
            .iter()
            .map(|(p, n)| format!("{} {n}", d.name(*p)))
            .collect();
        parts.extend(
            t.region_values
                .iter()
                .map(|(p, r, n)| format!("{} in {} {n}", d.name(*p), v.regions[*r].name)),
        );
        parts.extend(
            t.counter_values
                .iter()
                .map(|(c, n)| format!("{} {n} each", v.counters[*c].name)),
        );
        let _ = writeln!(
            out,
            "tiebreak: {} win(s) to the higher count of {}; equal counts stay a draw",
            t.wins,
            parts.join(", ")
        );
    }
    let _ = writeln!(
        out,
        "scoring: {}",
        match v.scoring {
            Scoring::Points {
                win,
                draw,
                loss,
                null,
            } => format!("win {win}, draw {draw}, loss {loss}, null game {null}"),
            Scoring::Wins => "each player's number of wins".to_string(),
        }
    );
    out.push_str("\nmatch\n");
    for m in &v.match_rules {
        let _ = writeln!(
            out,
            "  {}",
            match m {
                MatchRule::ReplayNullGame { same_colours } => format!(
                    "a null game is replayed{}, clocks kept with equal time added",
                    if *same_colours {
                        " with the same colours"
                    } else {
                        ""
                    }
                ),
                MatchRule::ForfeitAfterNulls { count, winner } => format!(
                    "after {count} null games in a row, {} wins by forfeit",
                    player(*winner)
                ),
                MatchRule::CasualNullIsDraw => "in casual play a null game is a draw".to_string(),
            }
        );
    }
    out
}

struct Dumper<'a> {
    v: &'a Variant,
}

impl Dumper<'_> {
    fn holes(&self) -> String {
        if self.v.board.holes.is_empty() {
            String::new()
        } else {
            format!(" holes {}", squares(&self.v.board.holes))
        }
    }

    fn name(&self, id: PieceId) -> String {
        self.v
            .pieces
            .get(id)
            .map(|p| p.name.clone())
            .unwrap_or_else(|| format!("#{id}"))
    }

    fn names(&self, ids: &[PieceId], separator: &str) -> String {
        if ids.is_empty() {
            return "any".into();
        }
        ids.iter()
            .map(|id| self.name(*id))
            .collect::<Vec<_>>()
            .join(separator)
    }

    fn atom(&self, atom: &MoveAtom) -> String {
        let motion = match atom.motion {
            Motion::Leap => "leap".to_string(),
            Motion::LameLeap => "lame leap".to_string(),
            Motion::Ride { max: None } => "ride".to_string(),
            Motion::Ride { max: Some(n) } => format!("ride up to {n}"),
            Motion::Hop {
                landing: HopLanding::Any,
            } => "hop (land anywhere beyond)".to_string(),
            Motion::Hop {
                landing: HopLanding::Adjacent,
            } => "hop (land just beyond)".to_string(),
        };
        let directions: Vec<String> = atom
            .directions
            .iter()
            .map(|(f, r)| format!("({f},{r})"))
            .collect();
        let condition = match atom.condition {
            AtomCondition::Always => String::new(),
            AtomCondition::FirstMove => ", first move only".to_string(),
            AtomCondition::InRegion(r) => format!(", only in {}", self.v.regions[r].name),
        };
        let mut limits = String::new();
        if let Some(region) = atom.limits.along.and_then(|r| self.v.regions.get(r)) {
            limits.push_str(&format!(", along {}", region.name));
        }
        if !atom.limits.not_over.is_empty() {
            limits.push_str(&format!(
                ", not over {}",
                self.names(&atom.limits.not_over, " | ")
            ));
        }
        if !atom.limits.not_capturing.is_empty() {
            limits.push_str(&format!(
                ", not capturing {}",
                self.names(&atom.limits.not_capturing, " | ")
            ));
        }
        if atom.limits.not_from_check {
            limits.push_str(", not from check");
        }
        format!(
            "{} {motion} {}{condition}{limits}",
            mode_word(atom.mode),
            directions.join(" ")
        )
    }

    fn obligation(&self, obligation: &Obligation) -> String {
        match obligation {
            Obligation::Mandatory => "mandatory".into(),
            Obligation::Optional => "optional".into(),
            Obligation::MandatoryUnless(c) => format!("mandatory unless {}", self.condition(c)),
        }
    }

    fn event(&self, event: &EventPattern) -> String {
        match event {
            EventPattern::Capture(kinds) if kinds.is_empty() => "capture".into(),
            EventPattern::Capture(kinds) => format!("capture of {}", self.names(kinds, " | ")),
            EventPattern::EnPassant => "en passant".into(),
            EventPattern::Pass => "pass".into(),
            EventPattern::MoveOf(kinds) => format!("move of {}", self.names(kinds, " | ")),
            EventPattern::DropOf(kinds) => format!("drop of {}", self.names(kinds, " | ")),
            EventPattern::Promotion { from, to } => format!(
                "promotion of {} to {}",
                self.names(from, " | "),
                self.names(to, " | ")
            ),
            EventPattern::Castle(None) => "castling".into(),
            EventPattern::Castle(Some(CastleSide::Short)) => "short castling".into(),
            EventPattern::Castle(Some(CastleSide::Long)) => "long castling".into(),
            EventPattern::RoyalCapture => "royal capture".into(),
            EventPattern::Crowning(kinds) if kinds.is_empty() => "crowning".into(),
            EventPattern::Crowning(kinds) => {
                format!("crowning of a piece that was {}", self.names(kinds, " | "))
            }
            EventPattern::LawsCheckmate => "checkmate under the Laws of Chess".into(),
            EventPattern::Check => "check".into(),
            EventPattern::CheckBy(kinds) => format!("check by {}", self.names(kinds, " | ")),
            EventPattern::Not(pattern) => format!("no {}", self.event(pattern)),
            EventPattern::MovedPieceWas(kinds) => {
                format!("a move by a piece that was {}", self.names(kinds, " > "))
            }
            EventPattern::Both(a, b) => format!("{} with {}", self.event(a), self.event(b)),
        }
    }

    fn condition(&self, condition: &Condition) -> String {
        match condition {
            Condition::NoLegalMoves => "no legal moves".into(),
            Condition::ToMove(color) => format!("{color} to move"),
            Condition::CanMoveInto { pieces, region } => format!(
                "the side to move can move {} into {}",
                self.names(pieces, " | "),
                self.v.regions.get(*region).map_or("?", |r| r.name.as_str())
            ),
            Condition::InCheck => "in check".into(),
            Condition::Counting => "a count runs".into(),
            Condition::CountingOverLimit => "the count has passed its limit".into(),
            Condition::InCheckByOnly(kinds) => {
                format!("in check by {} only", self.names(kinds, " | "))
            }
            Condition::RoyalCaptured => "the side to move has no royal piece".into(),
            Condition::Repetition { count, in_a_row } => {
                format!(
                    "the position occurred {count} times{}",
                    if *in_a_row { " in a row" } else { "" }
                )
            }
            Condition::PliesSinceReset(n) => format!("{n} plies since the last reset"),
            Condition::Material {
                of,
                filter,
                region,
                comparison,
                value,
            } => {
                let filter = match filter {
                    PieceFilter::All => "pieces".to_string(),
                    PieceFilter::Only(k) => format!("pieces of {}", self.names(k, ", ")),
                    PieceFilter::Except(k) => format!("pieces except {}", self.names(k, ", ")),
                };
                let region = region
                    .and_then(|id| self.v.regions.get(id))
                    .map_or(String::new(), |r| format!(" in {}", r.name));
                format!(
                    "{} {filter}{region} {} {value}",
                    aggregate(*of),
                    cmp(*comparison)
                )
            }
            Condition::OnlyRoyalsLeft => "only royal pieces left".into(),
            Condition::InsufficientMaterial(sets) => format!(
                "material against a bare royal is only one of: {}",
                sets.iter()
                    .map(|s| self.names(s, " + "))
                    .collect::<Vec<_>>()
                    .join(" | ")
            ),
            Condition::Counter {
                counter,
                of,
                comparison,
                value,
            } => {
                format!(
                    "{} count of {} {} {value}",
                    aggregate(*of),
                    self.v.counters[*counter].name,
                    cmp(*comparison)
                )
            }
            Condition::ClockBelow { of, seconds } => {
                format!("{}'s clock below {seconds} s", player(*of))
            }
            Condition::LastMove(e) => format!("the last move was {}", self.event(e)),
            Condition::RoyalsFace => "royals face each other".into(),
            Condition::PointsLead {
                of,
                points,
                comparison,
                value,
            } => {
                let table: Vec<String> = points
                    .iter()
                    .enumerate()
                    .filter(|(_, p)| **p > 0)
                    .map(|(k, p)| format!("{} {p}", self.v.pieces[k].name))
                    .collect();
                format!(
                    "{}'s points lead ({}) {} {value}",
                    player(*of),
                    table.join(", "),
                    cmp(*comparison)
                )
            }
            Condition::And(a, b) => format!("({} and {})", self.condition(a), self.condition(b)),
            Condition::Or(a, b) => format!("({} or {})", self.condition(a), self.condition(b)),
            Condition::Not(a) => format!("not {}", self.condition(a)),
        }
    }

    fn outcome(&self, outcome: &Outcome) -> String {
        match outcome {
            Outcome::Win(p) => format!("win for {}", player(*p)),
            Outcome::Draw => "draw".into(),
            Outcome::NullGame => "null game".into(),
            Outcome::GameOver => "game over (no result beyond the wins awarded)".into(),
            Outcome::If(c, a, b) => format!(
                "if {} then {} else {}",
                self.condition(c),
                self.outcome(a),
                self.outcome(b)
            ),
        }
    }
}

fn label(label: &Option<String>) -> String {
    label
        .as_ref()
        .map(|l| format!("[{l}] "))
        .unwrap_or_default()
}

fn squares(set: &SquareSet) -> String {
    set.iter()
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

fn mode_word(mode: MoveMode) -> &'static str {
    match mode {
        MoveMode::MoveOrCapture => "move or capture",
        MoveMode::MoveOnly => "move only",
        MoveMode::CaptureOnly => "capture only",
    }
}

fn player(p: PlayerRef) -> &'static str {
    match p {
        PlayerRef::SideToMove => "the side to move",
        PlayerRef::Opponent => "the player who just moved",
        PlayerRef::White => "white",
        PlayerRef::Black => "black",
    }
}

fn aggregate(a: Aggregate) -> String {
    match a {
        Aggregate::Of(p) => format!("{}'s", player(p)),
        Aggregate::Max => "the larger number of".into(),
        Aggregate::Min => "the smaller number of".into(),
    }
}

fn cmp(c: Comparison) -> &'static str {
    match c {
        Comparison::Less => "<",
        Comparison::LessEqual => "<=",
        Comparison::Equal => "==",
        Comparison::GreaterEqual => ">=",
        Comparison::Greater => ">",
    }
}
