//! Static evaluation, read from the variant's model only: no variant is
//! named here. The score is in centipawns (a pawn of declared value 1 is
//! 100), from White's point of view; [`Evaluator::evaluate`] turns it to the
//! side to move.
//!
//! Terms:
//! - **Material.** A kind's declared `value`; without one, a value
//!   estimated from its mobility on an empty board (see
//!   [`estimate_value`]). Royal pieces have no material value: losing them
//!   is scored by the rules (checkmate, king capture, awarded wins). A kind
//!   may have an endgame value (a weights file's `endgame-value`, which
//!   `varc tune` fits): its value moves toward it as the officers (pieces
//!   neither royal nor pawn-shaped) of both sides leave the board.
//! - **Placement.** Each kind gets a bonus per square from its empty-board
//!   mobility there, relative to its average (knights like the centre,
//!   leapers and short movers most). Royal pieces get it only as material
//!   leaves the board (they should hide early and centralise late). A
//!   kind may also have square tables (a weights file's `squares`, which
//!   `varc tune --squares` fits): a middlegame and an endgame bonus per
//!   square, royal kinds included, tapered like the endgame values.
//! - **Mobility.** Squares each non-royal piece can move to or capture
//!   on, with the real blockers, for both sides, leaving out the squares
//!   an enemy pawn-shaped piece could capture on (a knight's square that a
//!   pawn guards is no square to go to; a pawn-shaped piece counts all it
//!   reaches), each worth
//!   `2400 / (value + 200)` centipawns (a knight's square counts more than
//!   a queen's: 4.8 against 2.2 in chess). A kind may instead have
//!   mobility tables (a weights file's `mobility`, which
//!   `varc tune --mobility` fits): a middlegame and an endgame value per
//!   count of squares reached ([`MobilityTables`]; a count beyond a table
//!   reads its last entry), tapered like the endgame values, so that a
//!   trapped piece can cost more than a straight line says and each
//!   further square gain less; such a kind does not read the `mobility`
//!   weight.
//! - **Advancement.** A piece that a promotion rule applies to earns a share
//!   of what the promotion gains (the best choice's value minus its own)
//!   that grows as it nears the zone: `gain / (2 * (d + 1)^2)` where `d` is
//!   the number of its own moves needed to reach the zone on an empty board.
//! - **Royal safety.** For each royal piece: enemy attacks on the squares
//!   around it cost, own pieces beside it help, both weighted by the enemy's
//!   remaining material. And royal danger: enemy pieces (neither royal nor
//!   pawn-shaped) attacking the ring of a side's royal pieces (the 3x3
//!   block around one, moved inward off the board's edge: Stockfish's king
//!   ring, [`ring_of`]) make units, 50 per attacker squared, 50 per
//!   attacker per ring square enemy pawn-shaped pieces attack
//!   (`royal-pawn-attack`), 70 per square attacked beside the royal piece,
//!   185 per weak square of the ring (attacked, and beside the royal piece
//!   defended by no own piece but a royal one, elsewhere by none;
//!   `royal-weak`), 98 per own officer pinned to it (`royal-pinned`),
//!   150 per enemy kind that could give a safe check (move
//!   to a square from which it would attack the royal piece, one the royal
//!   side does not guard; `royal-check`) and 100 per kind that could check
//!   only from guarded squares (`royal-unsafe-check`), `3/8` of the
//!   square of the attacks on its flank (`royal-flank`: its file and the
//!   files beside it, one more toward the centre, on its side's first
//!   five-eighths of the ranks; a square attacked twice counts twice),
//!   less 800 where the enemy has no piece of the most valuable officer
//!   kind (`royal-strongest`), and cost `units^2 / 4096` centipawns
//!   (units from 0 to 2,000), by the enemy's material.
//! - **Pawn structure** ([`structure`]): passed, doubled and isolated
//!   pieces of the kinds that move like pawns; in the endgame, a passed
//!   piece's royal race (the royal pieces' distances to the square in
//!   front of it, the `passed-royal` weight); a passed piece's free way
//!   (no piece in front of it, its way ahead unattacked or the next
//!   square at least, the `passed-free` weight).
//! - **Pawn threats.** An enemy piece, neither royal nor pawn-shaped, that a
//!   pawn-shaped piece attacks.
//! - **Pawn pushes.** An enemy piece, neither royal nor pawn-shaped, that a
//!   pawn-shaped piece would attack after a safe step: one to an empty
//!   square that no enemy pawn-shaped piece attacks and that an own piece
//!   defends or no enemy piece attacks (first-move steps left out).
//! - **Open files.** A piece that rides its file without limit, on a file
//!   without pawn-shaped pieces (half on one where only enemy ones stand).
//! - **Connected pawns** ([`structure`]): a pawn-shaped piece that an
//!   own one defends or that has one level with it beside it.
//! - **Threats.** Per piece, neither royal nor pawn-shaped, each kind of
//!   more valuable enemy piece it attacks (neither royal nor pawn-shaped).
//! - **Hanging pieces.** A piece, neither royal nor pawn-shaped, that the
//!   enemy attacks and its own side does not defend; and, weighed apart, a
//!   pawn-shaped piece so.
//! - **Weak pieces.** A piece, not royal, that the enemy attacks and its
//!   own side does not hold strongly (no own pawn-shaped piece defends it,
//!   and not two own defenders against fewer than two attackers), in the
//!   endgame's share.
//! - **Pinned pieces** ([`pins`]). An officer that stands alone between an
//!   own royal piece and an enemy rider riding that line toward it (read
//!   from the model's rides, within their range), whatever it is worth
//!   (`pinned`).
//! - **Restricted squares.** A square both sides attack that the enemy
//!   does not hold strongly (as for weak pieces): the enemy's pieces may
//!   not go there freely (`restricted`, Stockfish's restricted pieces).
//! - **Pawnless flanks.** A royal piece with no pawn-shaped piece of
//!   either side on its file or a file beside it, in the endgame's share
//!   (where the pawns decide, it stands away from them).
//! - **Outposts.** A minor officer (the kinds worth less than 5/4 of the
//!   least valuable officer kind) from the rank before the middle on, on
//!   a square that an own pawn-shaped piece defends and no enemy
//!   pawn-shaped piece can ever attack (none on a file beside it still to
//!   come level).
//! - **Pairs.** A colour-bound kind (every step keeps the square's colour)
//!   with pieces on squares of both colours: the bishop pair.
//! - **Endgame scaling** ([`scale`]): the sum above shrinks where the side
//!   ahead cannot convert its lead (an insufficient set of the draw rules,
//!   a pawnless lead of a minor piece, the wrong bishop with a rook-file
//!   pawn, opposite-coloured bishops, few pawn-shaped pieces), in variants
//!   won by mating, where the weights file turns it on
//!   (`endgame-scaling = on`).
//! - A small bonus for the side to move (tempo).
//! - A learned correction, where a weights file gives one ([`network`]:
//!   one hidden layer over the pieces on the board, fitted by `varc tune
//!   --network` to what the terms above miss).
//!
//! The weights of these terms are the variant's
//! [`Variant::evaluation`] (the figures above are the defaults); `varc
//! tune` fits them, with the kinds' values, from self-play (see
//! [`crate::weights`]).
//!
//! The search evaluates through [`Evaluator::evaluate_cached`], which keeps
//! the terms the pawn-shaped pieces' squares decide alone (doubled,
//! isolated and connected pieces, royal cover) per placement of them
//! ([`pawn_cache`]); the value is the one [`Evaluator::evaluate`] gives.

use crate::board::Board;
use crate::model::{
    AtomCondition, Color, HopLanding, MobilityTables, Motion, MoveMode, PassedTables, PieceId,
    RoyalCover, Square, SquareBonuses, SquareSet, Variant, MAX_PIECE_VALUE,
};
use crate::position::{SquareIter, SQUARE_COUNT};
use crate::rules::{CheckKinds, PieceReach, ReachVisitor, RoyalSurroundings, Rules};
use crate::weights::EvaluationWeights;
use network::{Accumulator, NetworkTables};
pub use pawn_cache::PawnCache;
use pawn_cache::PawnTerms;
use pins::PinLines;
use scale::{Scaling, SideCounts};
use structure::{BoardSight, Structure, StructureTally};

pub mod network;
pub mod pawn_cache;
pub mod pins;
pub mod scale;
pub mod structure;

/// What one piece of a kind is worth where it stands and for what it
/// reaches: the terms read once per piece and evaluation, so they sit
/// together, in arrays a square index or a count of squares reached cannot
/// leave (no bounds test in the evaluation's innermost step).
#[derive(Clone, Debug)]
struct PieceTerms {
    /// Material value (0 for royal kinds).
    value: i32,
    /// The endgame value minus the value: what a piece gains as the
    /// officers leave.
    endgame_shift: i32,
    /// `[color][square index]`: what a piece there gains as the officers
    /// leave: `endgame_shift` plus its square's endgame bonus minus its
    /// middlegame bonus ([`crate::model::SquareBonuses`]).
    shift: [[i32; SQUARE_COUNT]; 2],
    /// `[color][square index]`: material value plus the placement and
    /// advancement bonus.
    placed: [[i32; SQUARE_COUNT]; 2],
    /// `[squares reached]`: the mobility term (the last entry stands for
    /// every count beyond it, which no board of at most
    /// [`SQUARE_COUNT`] squares reaches), the middlegame table's where the
    /// kind has [`MobilityTables`].
    mobility: [i32; SQUARE_COUNT],
    /// `[squares reached]`: what the mobility term gains as the officers
    /// leave, the endgame table minus the middlegame table (all zeros
    /// without tables).
    endgame_mobility: [i32; SQUARE_COUNT],
}

impl PieceTerms {
    fn new(value: i32) -> PieceTerms {
        PieceTerms {
            value,
            endgame_shift: 0,
            shift: [[0; SQUARE_COUNT]; 2],
            placed: [[value; SQUARE_COUNT]; 2],
            mobility: [0; SQUARE_COUNT],
            endgame_mobility: [0; SQUARE_COUNT],
        }
    }
}

/// The squares one king step from `square` that are on `variant`'s board
/// (the neighbours of [`RoyalSurroundings`]).
pub fn neighbours_of(variant: &Variant, square: Square) -> SquareSet {
    let mut set = SquareSet::EMPTY;
    for df in -1..=1 {
        for dr in -1..=1 {
            let (f, r) = (square.file as i32 + df, square.rank as i32 + dr);
            if (df, dr) != (0, 0) && variant.board.contains(f, r) {
                set.insert(Square::new(f as u8, r as u8));
            }
        }
    }
    set
}

/// The ring of a royal piece on `square` (Stockfish's king ring): the
/// squares of the 3x3 block around it, the block moved inward by a rank or
/// a file where the piece stands on the board's edge (a king on g1 has
/// f1 to h3), that are on `variant`'s board. Enemy pieces that could
/// capture on its ring attack the royal piece; the squares they hit are
/// counted beside it ([`neighbours_of`]).
pub fn ring_of(variant: &Variant, square: Square) -> SquareSet {
    let centre = |at: u8, size: u8| {
        if size < 3 {
            i32::from(at)
        } else {
            i32::from(at).clamp(1, i32::from(size) - 2)
        }
    };
    let (file, rank) = (
        centre(square.file, variant.board.files),
        centre(square.rank, variant.board.ranks),
    );
    let mut set = SquareSet::EMPTY;
    for f in file - 1..=file + 1 {
        for r in rank - 1..=rank + 1 {
            if variant.board.contains(f, r) {
                set.insert(Square::new(f as u8, r as u8));
            }
        }
    }
    set
}

/// Centipawns per pawn of declared value.
pub const PAWN: i32 = 100;

/// The evaluation stays within this many centipawns either way, far from
/// the scores of won games (`search::outcome::MATE_BOUND`), whatever the
/// pieces' values (`MAX_PIECE_VALUE` pawns each, a board full of them).
const EVALUATION_LIMIT: i32 = 20_000;
const PLACEMENT_PER_TARGET: i32 = 3;
/// Royal danger's units ([`Evaluator::royal_danger`]): per attacker
/// squared, per square attacked beside the royal piece, and at most.
const ROYAL_DANGER_PER_ATTACKER: i32 = 50;
const ROYAL_DANGER_PER_HIT: i32 = 70;
/// Per enemy kind that could give a safe check
/// ([`ReachVisitor::checks`]), at the `royal-check` weight's 100.
const ROYAL_DANGER_PER_CHECK: i32 = 150;
/// Per square beside the royal piece that the enemy attacks and only a
/// royal piece defends (`royal-weak`), per enemy kind that could give
/// check only on guarded squares (`royal-unsafe-check`), and taken off
/// where the attacking side has no piece of the most valuable officer kind
/// (`royal-strongest`), each at its weight's 100.
const ROYAL_DANGER_PER_WEAK: i32 = 185;
const ROYAL_DANGER_PER_GUARDED_CHECK: i32 = 100;
const ROYAL_DANGER_WITHOUT_STRONGEST: i32 = 800;
/// Per own officer pinned to the royal piece ([`pins`]), at the
/// `royal-pinned` weight's 100 (Stockfish's blockers for the king).
const ROYAL_DANGER_PER_PINNED: i32 = 98;
const ROYAL_DANGER_MAX_UNITS: i32 = 2000;

/// Where a kind's value comes from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ValueSource {
    /// The rules file declares it.
    Declared,
    /// Estimated from mobility on an empty board ([`estimate_value`]).
    Estimated,
    /// A royal piece: no material value.
    Royal,
}

/// One movement atom oriented for a side.
#[derive(Clone, Debug)]
struct OrientedAtom {
    motion: Motion,
    steps: Vec<(i32, i32)>,
    moves: bool,
    captures: bool,
    first_move_only: bool,
    region: Option<SquareSet>,
}

/// One file's royal cover entries as an evaluation reads them
/// ([`Evaluator::royal_cover_cells`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CoverCells {
    /// The royal piece's kind and colour.
    pub kind: PieceId,
    pub color: Color,
    /// The entries of [`RoyalCover::own`] and [`RoyalCover::enemy`] read.
    pub own: usize,
    pub enemy: usize,
    /// The weight they count with, in 256ths.
    pub share: i32,
}

/// The evaluation tables of one variant.
#[derive(Clone, Debug)]
pub struct Evaluator {
    files: u8,
    ranks: u8,
    on_board: SquareSet,
    values: Vec<i32>,
    sources: Vec<ValueSource>,
    royal: Vec<bool>,
    /// `[kind][color]` oriented atoms.
    atoms: Vec<[Vec<OrientedAtom>; 2]>,
    /// `[kind]`: value, placement and advancement, mobility.
    terms: Vec<PieceTerms>,
    /// `[kind][square index]`: the royal placement bonus (scaled by phase).
    royal_bonus: Vec<Vec<i16>>,
    /// `[kind]`: a royal kind's cover tables, where the weights give them
    /// and the variant has pawn-shaped kinds.
    royal_cover: Vec<Option<RoyalCover>>,
    /// One side's material at the start (see [`Evaluator::material_share`]).
    start_material: i32,
    /// Both sides' officers' material at the start: the game phase is
    /// the share of it left ([`Evaluator::phase`]).
    start_officer_material: i32,
    neighbours: Vec<SquareSet>,
    /// Per square index: a royal piece's ring there ([`ring_of`]).
    rings: Vec<SquareSet>,
    weights: EvaluationWeights,
    /// Whether positions have hands: a piece in hand counts its value.
    hands: bool,
    /// Per side, the squares where some kind enters `by gating` (empty
    /// without gating), and per kind whether it enters only so.
    gates: [SquareSet; 2],
    gated_kinds: Vec<bool>,
    /// Pawn structure ([`structure`]).
    structure: Structure,
    /// `[color][square index]`: the squares a pawn-shaped piece there
    /// attacks (empty where none can stand or without such kinds).
    pawn_attacks: [Vec<SquareSet>; 2],
    /// `[color][square index]`: the squares a pawn-shaped piece there
    /// could step to on an empty board (first moves left out), for the
    /// pawn push term.
    pawn_steps: [Vec<SquareSet>; 2],
    /// `[kind]`: whether it rides its file without limit (the open file
    /// term).
    file_rider: Vec<bool>,
    /// `[kind]`: the enemy kinds whose pieces, attacked by a piece of this
    /// kind, count as threatened (bit `k` for kind `k`): the more valuable
    /// ones, neither royal nor pawn-shaped; none for royal and pawn-shaped
    /// attackers.
    threat_victims: Vec<u64>,
    /// `[kind]`: whether it is an officer, neither royal nor pawn-shaped:
    /// the kinds the hanging and royal danger terms count.
    officer: Vec<bool>,
    /// `[kind]`: whether it stays on squares of one colour (every step has
    /// an even sum of file and rank offsets), for the pair term.
    colour_bound: Vec<bool>,
    /// The learned correction, if the variant has one that fits it.
    network: Option<NetworkTables>,
    /// Endgame scaling ([`scale`]).
    scaling: Scaling,
    /// Per kind: a minor officer, which outposts count for.
    minor: Vec<bool>,
    /// Per colour: the squares where an outpost counts (see
    /// [`Evaluator::build_outpost_zones`]).
    outpost_zone: [SquareSet; 2],
    /// Per colour, per square: the flank of a royal piece there
    /// ([`Evaluator::build_flank_zones`]).
    flank_zone: [Vec<SquareSet>; 2],
    /// The pawn-shaped kinds as [`ReachVisitor::guards`]: a square one of
    /// them could capture on does not count to the enemy's mobility.
    guards: u64,
    /// The most valuable officer kind, if any: royal danger drops where
    /// the attacking side has no piece of it (the `royal-strongest`
    /// weight).
    strongest: Option<PieceId>,
    /// The lines along which each side's riders pin ([`pins`]).
    pins: PinLines,
}

impl Evaluator {
    /// Builds the tables of `variant`.
    pub fn new(variant: &Variant) -> Evaluator {
        let (files, ranks) = (variant.board.files, variant.board.ranks);
        let on_board = variant.board.squares();
        let kinds = variant.pieces.len();
        let atoms: Vec<[Vec<OrientedAtom>; 2]> = (0..kinds)
            .map(|kind| {
                [
                    orient(variant, kind, Color::White),
                    orient(variant, kind, Color::Black),
                ]
            })
            .collect();
        let mut values = Vec::with_capacity(kinds);
        let mut sources = Vec::with_capacity(kinds);
        for (kind, piece) in variant.pieces.iter().enumerate() {
            if piece.royal {
                values.push(0);
                sources.push(ValueSource::Royal);
            } else if let Some(value) = piece.value {
                values.push((value.clamp(0.0, MAX_PIECE_VALUE) * PAWN as f64).round() as i32);
                sources.push(ValueSource::Declared);
            } else {
                values.push(estimate_value(variant, kind));
                sources.push(ValueSource::Estimated);
            }
        }
        let mut terms: Vec<PieceTerms> = values.iter().map(|&v| PieceTerms::new(v)).collect();
        for ((piece, terms), &value) in variant.pieces.iter().zip(&mut terms).zip(&values) {
            if let (false, Some(endgame)) = (piece.royal, piece.endgame_value) {
                let endgame = (endgame.clamp(0.0, MAX_PIECE_VALUE) * PAWN as f64).round() as i32;
                terms.endgame_shift = endgame - value;
            }
        }
        // Mobility matters less to strong pieces (a queen that roams early
        // is a target): per square, 2400 / (value + 200) centipawns (a
        // table, not a division per piece and evaluation); or the kind's
        // own tables.
        for (piece, terms) in variant.pieces.iter().zip(&mut terms) {
            if piece.royal {
                continue;
            }
            match &piece.mobility_tables {
                Some(tables) => {
                    for reach in 0..SQUARE_COUNT {
                        let middlegame = MobilityTables::at(&tables.middlegame, reach);
                        let endgame = MobilityTables::at(&tables.endgame, reach);
                        terms.mobility[reach] = middlegame;
                        terms.endgame_mobility[reach] = endgame - middlegame;
                    }
                }
                None => {
                    let weight = variant.evaluation.mobility;
                    for (reach, points) in terms.mobility.iter_mut().enumerate() {
                        *points = reach as i32 * 24 * weight / (terms.value + 200).max(1);
                    }
                }
            }
        }
        let mut evaluator = Evaluator {
            files,
            ranks,
            on_board,
            royal: variant.pieces.iter().map(|p| p.royal).collect(),
            atoms,
            values,
            sources,
            terms,
            royal_bonus: Vec::new(),
            royal_cover: Vec::new(),
            start_material: 0,
            start_officer_material: 0,
            neighbours: Vec::new(),
            rings: Vec::new(),
            weights: variant.evaluation,
            hands: variant.hands.in_use(),
            gates: [SquareSet::EMPTY; 2],
            gated_kinds: vec![false; kinds],
            structure: Structure::default(),
            pawn_attacks: [
                vec![SquareSet::EMPTY; SQUARE_COUNT],
                vec![SquareSet::EMPTY; SQUARE_COUNT],
            ],
            pawn_steps: [
                vec![SquareSet::EMPTY; SQUARE_COUNT],
                vec![SquareSet::EMPTY; SQUARE_COUNT],
            ],
            file_rider: vec![false; kinds],
            threat_victims: vec![0; kinds],
            officer: vec![false; kinds],
            colour_bound: vec![false; kinds],
            network: variant
                .network
                .as_ref()
                .filter(|network| network.check(variant).is_ok())
                .map(|network| NetworkTables::new(network, variant, SQUARE_COUNT)),
            scaling: Scaling::default(),
            minor: vec![false; kinds],
            outpost_zone: [SquareSet::EMPTY; 2],
            flank_zone: [Vec::new(), Vec::new()],
            guards: 0,
            strongest: None,
            pins: PinLines::default(),
        };
        for (kind, squares) in crate::hands::gate_squares(variant).iter().enumerate() {
            for color in Color::ALL {
                let side = &mut evaluator.gates[color.index()];
                *side = side.union(&squares[color.index()]);
            }
            evaluator.gated_kinds[kind] = !squares[0].is_empty() || !squares[1].is_empty();
        }
        evaluator.neighbours = (0..SQUARE_COUNT)
            .map(|index| neighbours_of(variant, Square::from_index(index)))
            .collect();
        evaluator.rings = (0..SQUARE_COUNT)
            .map(|index| ring_of(variant, Square::from_index(index)))
            .collect();
        evaluator.build_square_tables(variant);
        let gains: Vec<i32> = (0..kinds)
            .map(|kind| evaluator.promotion_gain(variant, kind))
            .collect();
        evaluator.structure = Structure::new(
            &evaluator.atoms,
            &evaluator.royal,
            &gains,
            |kind, color| evaluator.distance_to_zone(variant, kind, color),
            (usize::from(files), ranks),
            &variant.evaluation,
            variant.passed_tables.as_ref(),
        );
        evaluator.build_pawn_attacks(variant);
        evaluator.guards = (0..kinds.min(64))
            .filter(|&kind| evaluator.structure.is_shaped(kind))
            .fold(0, |guards, kind| guards | 1 << kind);
        evaluator.royal_cover = variant
            .pieces
            .iter()
            .map(|piece| {
                let fits = |table: &Vec<i32>| table.len() == RoyalCover::CELLS;
                piece
                    .royal_cover
                    .clone()
                    .filter(|_| piece.royal && evaluator.structure.is_used())
                    .filter(|cover| fits(&cover.own) && fits(&cover.enemy))
            })
            .collect();
        for kind in 0..kinds {
            evaluator.file_rider[kind] = !evaluator.royal[kind]
                && !evaluator.structure.is_shaped(kind)
                && evaluator.structure.is_used()
                && evaluator.atoms[kind][0].iter().any(|atom| {
                    matches!(atom.motion, Motion::Ride { max: None })
                        && !atom.first_move_only
                        && atom.region.is_none()
                        && atom.moves
                        && atom.captures
                        && atom.steps.contains(&(0, 1))
                        && atom.steps.contains(&(0, -1))
                });
        }
        evaluator.build_threat_tables();
        evaluator.build_pin_lines();
        // Minor kinds: officers worth less than 5/4 of the least valuable
        // officer kind (outposts count for them, and endgame scaling reads
        // the most valuable of them as a minor piece).
        let officer_values = (0..kinds)
            .filter(|&kind| evaluator.officer[kind])
            .map(|kind| evaluator.values[kind]);
        if let Some(least) = officer_values.min() {
            for kind in 0..kinds {
                evaluator.minor[kind] =
                    evaluator.officer[kind] && 4 * evaluator.values[kind] < 5 * least;
            }
        }
        evaluator.strongest = (0..kinds)
            .filter(|&kind| evaluator.officer[kind])
            .max_by_key(|&kind| (evaluator.values[kind], std::cmp::Reverse(kind)));
        let minor_value = (0..kinds)
            .filter(|&kind| evaluator.minor[kind])
            .map(|kind| evaluator.values[kind])
            .max()
            .unwrap_or(0);
        evaluator.build_outpost_zones(ranks);
        evaluator.build_flank_zones();
        let last_file = files.saturating_sub(1);
        let corners = Color::ALL.map(|color| {
            [0, last_file].map(|file| evaluator.structure.promotion_square(color, file, ranks))
        });
        evaluator.scaling = Scaling::new(
            variant,
            minor_value,
            evaluator.structure.is_used(),
            evaluator.hands,
            corners,
        );
        // One side's material at the start (the richer side's, where they
        // differ): the enemy material the royal terms are weighed by.
        let start = crate::fen::parse_fen(variant, &variant.start_fen).ok();
        let material = |color: Color, officers_only: bool| -> i32 {
            start.as_ref().map_or(0, |p| {
                p.pieces()
                    .filter(|(_, piece)| piece.color() == color)
                    .filter(|(_, piece)| !officers_only || evaluator.officer[piece.kind()])
                    .map(|(_, piece)| evaluator.values[piece.kind()])
                    .sum::<i32>()
            })
        };
        evaluator.start_material = Color::ALL
            .map(|color| material(color, false))
            .into_iter()
            .max()
            .unwrap_or(0)
            .max(1);
        evaluator.start_officer_material = Color::ALL
            .map(|color| material(color, true))
            .into_iter()
            .sum::<i32>()
            .max(1);
        evaluator
    }

    fn build_square_tables(&mut self, variant: &Variant) {
        let kinds = variant.pieces.len();
        let squares: Vec<Square> = self.on_board.iter().collect();
        for kind in 0..kinds {
            let mobility: Vec<f64> = squares
                .iter()
                .map(|s| empty_board_mobility(&self.atoms[kind][0], variant, *s))
                .collect();
            let average = mobility.iter().sum::<f64>() / mobility.len().max(1) as f64;
            for color in Color::ALL {
                let distance = self.distance_to_zone(variant, kind, color);
                let gain = self.promotion_gain(variant, kind);
                for square in squares.iter() {
                    let mobility_here =
                        empty_board_mobility(&self.atoms[kind][color.index()], variant, *square);
                    let mut bonus = 0.0;
                    if !self.royal[kind] {
                        bonus += (mobility_here - average)
                            * PLACEMENT_PER_TARGET as f64
                            * percent(self.weights.placement);
                    }
                    if let (Some(d), true) = (distance[square.index()], gain > 0) {
                        bonus += gain as f64 / (2.0 * ((d + 1) as f64).powi(2))
                            * percent(self.weights.advancement);
                    }
                    let (middlegame, endgame) = match &variant.pieces[kind].square_bonuses {
                        Some(bonuses) => {
                            let cell = SquareBonuses::cell(self.files, self.ranks, *square, color);
                            let at = |table: &Vec<i32>| {
                                cell.and_then(|cell| table.get(cell)).copied().unwrap_or(0)
                            };
                            (at(&bonuses.middlegame), at(&bonuses.endgame))
                        }
                        None => (0, 0),
                    };
                    let terms = &mut self.terms[kind];
                    terms.placed[color.index()][square.index()] =
                        terms.value + i32::from(bonus.round() as i16) + middlegame;
                    terms.shift[color.index()][square.index()] =
                        terms.endgame_shift + endgame - middlegame;
                }
            }
            let mut royal = vec![0i16; SQUARE_COUNT];
            if self.royal[kind] {
                for (i, square) in squares.iter().enumerate() {
                    royal[square.index()] = ((mobility[i] - average)
                        * 4.0
                        * percent(self.weights.royal_centre))
                    .round() as i16;
                }
            }
            self.royal_bonus.push(royal);
        }
    }

    /// Per colour, the squares where outposts count: from the rank before
    /// the middle on, as the side's pawn-shaped pieces go (chess's 4th to
    /// 8th ranks for White).
    fn build_outpost_zones(&mut self, ranks: u8) {
        for color in Color::ALL {
            let up = self.structure.goes_up(color);
            for square in self.on_board.iter() {
                let ahead = if up {
                    square.rank
                } else {
                    ranks.saturating_sub(1).saturating_sub(square.rank)
                };
                if 2 * u16::from(ahead) + 2 >= u16::from(ranks) {
                    self.outpost_zone[color.index()].insert(square);
                }
            }
        }
    }

    /// Per colour, per square, the flank of a royal piece there, as
    /// Stockfish's king flank: three files centred on its file (kept on
    /// the board) and one more toward the centre, on the side's first
    /// five-eighths of the ranks (its camp).
    fn build_flank_zones(&mut self) {
        let (files, ranks) = (i32::from(self.files), i32::from(self.ranks));
        let camp = ranks - ranks * 3 / 8;
        for color in Color::ALL {
            let up = self.structure.goes_up(color);
            let zone = |royal: Square| {
                let file = i32::from(royal.file);
                let low = (file - 1).clamp(0, (files - 3).max(0));
                let high = (low + 2).min(files - 1);
                let (low, high) = if 2 * file + 1 < files {
                    (low, (high + 1).min(files - 1))
                } else {
                    ((low - 1).max(0), high)
                };
                let mut squares = SquareSet::EMPTY;
                for square in self.on_board.iter() {
                    let rank = i32::from(square.rank);
                    let own_rank = if up { rank } else { ranks - 1 - rank };
                    if (low..=high).contains(&i32::from(square.file)) && own_rank < camp {
                        squares.insert(square);
                    }
                }
                squares
            };
            self.flank_zone[color.index()] = (0..SQUARE_COUNT)
                .map(|index| zone(Square::from_index(index)))
                .collect();
        }
    }

    /// The enemy pieces (neither royal nor pawn-shaped) that `color`'s
    /// pawn-shaped pieces would attack after a safe step: to an empty
    /// square that no enemy pawn-shaped piece attacks and that an own
    /// piece defends or no enemy piece attacks.
    fn pawn_push_threats(&self, tally: &Tally, color: Color, occupied: &SquareSet) -> i32 {
        let (c, e) = (color.index(), color.opponent().index());
        let unsafe_squares = tally.attacks[e].difference(&tally.attacks[c]);
        let safe = tally.pawn_steps[c]
            .difference(occupied)
            .difference(&tally.pawn_attacks[e])
            .difference(&unsafe_squares);
        let mut hits = SquareSet::EMPTY;
        for index in SquareIter::new(safe) {
            hits = hits.union(&self.pawn_attacks[c][index % SQUARE_COUNT]);
        }
        hits.intersection(&tally.targets[e]).len() as i32
    }

    /// The squares each pawn-shaped kind attacks from each square, for the
    /// pawn threat term.
    fn build_pawn_attacks(&mut self, variant: &Variant) {
        for kind in 0..variant.pieces.len() {
            if !self.structure.is_shaped(kind) {
                continue;
            }
            for color in Color::ALL {
                for square in self.on_board.iter() {
                    let atoms = &self.atoms[kind][color.index()];
                    let set = &mut self.pawn_attacks[color.index()][square.index()];
                    for target in empty_board_targets(atoms, variant, square, false) {
                        set.insert(Square::from_index(target));
                    }
                    let set = &mut self.pawn_steps[color.index()][square.index()];
                    for target in empty_board_targets(atoms, variant, square, true) {
                        set.insert(Square::from_index(target));
                    }
                }
            }
        }
    }

    /// Which kinds threats, hanging pieces and pairs count for.
    fn build_threat_tables(&mut self) {
        let kinds = self.values.len().min(64);
        let minor = |kind: usize| self.royal[kind] || self.structure.is_shaped(kind);
        for kind in 0..kinds {
            self.officer[kind] = !minor(kind);
            self.colour_bound[kind] = !minor(kind)
                && !self.atoms[kind][0].is_empty()
                && self.atoms[kind][0]
                    .iter()
                    .all(|atom| atom.steps.iter().all(|(df, dr)| (df + dr) % 2 == 0));
            if minor(kind) {
                continue;
            }
            self.threat_victims[kind] = (0..kinds)
                .filter(|&victim| !minor(victim) && self.values[victim] > self.values[kind])
                .fold(0, |mask, victim| mask | 1u64 << victim);
        }
    }

    /// The rides that pin ([`pins`]): those that capture, anywhere and
    /// on any move.
    fn build_pin_lines(&mut self) {
        for (kind, atoms) in self.atoms.iter().enumerate() {
            for color in Color::ALL {
                for atom in &atoms[color.index()] {
                    let Motion::Ride { max } = atom.motion else {
                        continue;
                    };
                    if !atom.captures || atom.first_move_only || atom.region.is_some() {
                        continue;
                    }
                    let reach = max.map_or(i32::MAX, i32::from);
                    for &step in &atom.steps {
                        self.pins.add(color, kind, step, reach);
                    }
                }
            }
        }
        self.pins.finish(self.files, self.ranks, &self.on_board);
    }

    /// The best value a promotion of `kind` reaches, minus its own value.
    fn promotion_gain(&self, variant: &Variant, kind: PieceId) -> i32 {
        variant
            .promotions
            .iter()
            .filter(|rule| rule.pieces.contains(&kind))
            .flat_map(|rule| rule.choices.iter())
            .map(|choice| self.values.get(*choice).copied().unwrap_or(0) - self.values[kind])
            .max()
            .unwrap_or(0)
            .max(0)
    }

    /// For each square, how many of its own moves a piece of `kind` needs on
    /// an empty board to reach one of its promotion zones (`None`: never).
    fn distance_to_zone(&self, variant: &Variant, kind: PieceId, color: Color) -> Vec<Option<u32>> {
        let mut zone = SquareSet::EMPTY;
        for rule in variant
            .promotions
            .iter()
            .filter(|r| r.pieces.contains(&kind))
        {
            if let Some(region) = variant.regions.get(rule.zone) {
                zone = zone.union(region.for_side(color));
            }
        }
        let mut distance = vec![None; SQUARE_COUNT];
        if zone.is_empty() {
            return distance;
        }
        // Backward breadth-first search would need reversed movement; the
        // boards are small, so relax forward distances until nothing changes.
        for square in zone.iter() {
            distance[square.index()] = Some(0);
        }
        let squares: Vec<Square> = self.on_board.iter().collect();
        let atoms = &self.atoms[kind][color.index()];
        for _ in 0..(self.files as usize * self.ranks as usize) {
            let mut changed = false;
            for square in &squares {
                let mut best = distance[square.index()];
                for target in empty_board_targets(atoms, variant, *square, true) {
                    if let Some(d) = distance[target] {
                        if best.is_none_or(|b| d + 1 < b) {
                            best = Some(d + 1);
                        }
                    }
                }
                if best != distance[square.index()] {
                    distance[square.index()] = best;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        distance
    }

    /// The material value of `kind` in centipawns (0 for royal kinds).
    pub fn value(&self, kind: PieceId) -> i32 {
        self.values.get(kind).copied().unwrap_or(0)
    }

    /// The value of `kind` in centipawns once the officers have left (the
    /// value where none is set; 0 for royal kinds).
    pub fn endgame_value(&self, kind: PieceId) -> i32 {
        self.value(kind) + self.terms.get(kind).map_or(0, |t| t.endgame_shift)
    }

    /// The mobility term of a piece of `kind` that reaches `count`
    /// squares, `[middlegame, endgame]` in centipawns: its tables' entries,
    /// or the linear term's (the same for both) without tables; 0 for
    /// royal and unknown kinds.
    pub fn mobility(&self, kind: PieceId, count: usize) -> [i32; 2] {
        self.terms.get(kind).map_or([0, 0], |terms| {
            let count = count.min(SQUARE_COUNT - 1);
            let middlegame = terms.mobility[count];
            [middlegame, middlegame + terms.endgame_mobility[count]]
        })
    }

    /// The game phase, from 256 (every officer of the start on the board)
    /// to 0 (none left), from both sides' `officer_material`.
    fn phase(&self, officer_material: [i32; 2]) -> i32 {
        ((officer_material[0] + officer_material[1]) * 256 / self.start_officer_material)
            .clamp(0, 256)
    }

    /// How far `position` is into the endgame: from 0, every officer of the
    /// start on the board, to 256, none; the share of the endgame values
    /// and square tables in the evaluation, in 256ths.
    pub fn endgame_weight<B: Board + ?Sized>(&self, position: &B) -> i32 {
        let mut officer_material = [0; 2];
        for (_, piece) in position.pieces() {
            if self.officer.get(piece.kind()) == Some(&true) {
                officer_material[piece.color().index()] += self.value(piece.kind());
            }
        }
        256 - self.phase(officer_material)
    }

    /// The kinds whose captures bound the enemy's mobility
    /// ([`ReachVisitor::guards`]): the pawn-shaped ones.
    pub fn guards(&self) -> u64 {
        self.guards
    }

    /// Whether `kind` is royal (unknown kinds are not).
    pub fn is_royal(&self, kind: PieceId) -> bool {
        self.royal.get(kind).copied().unwrap_or(false)
    }

    /// Whether `kind` moves like a pawn, so that pawn structure counts
    /// for it ([`structure`]).
    pub fn is_pawn_shaped(&self, kind: PieceId) -> bool {
        self.structure.is_shaped(kind)
    }

    /// Where the value of `kind` comes from.
    pub fn value_source(&self, kind: PieceId) -> Option<ValueSource> {
        self.sources.get(kind).copied()
    }

    /// The evaluation of `position` from the side to move's point of view;
    /// `rules` may know where pieces reach (see [`Rules::visit_reaches`]).
    pub fn evaluate<R: Rules + ?Sized>(&self, rules: &R, position: &R::Position) -> i32 {
        self.evaluate_in(rules, position, None)
    }

    /// [`Evaluator::evaluate`], reading and keeping the pawn-shaped pieces'
    /// terms in `cache` (the same value, sooner where a search meets a
    /// placement again). The cache must be cleared when the weights
    /// change.
    pub fn evaluate_cached<R: Rules + ?Sized>(
        &self,
        rules: &R,
        position: &R::Position,
        cache: &mut PawnCache,
    ) -> i32 {
        self.evaluate_in(rules, position, Some(cache))
    }

    #[inline(always)]
    fn evaluate_in<R: Rules + ?Sized>(
        &self,
        rules: &R,
        position: &R::Position,
        cache: Option<&mut PawnCache>,
    ) -> i32 {
        let white = self.evaluate_white_in(rules, position, cache);
        match position.side_to_move() {
            Color::White => white + self.weights.tempo,
            Color::Black => -white + self.weights.tempo,
        }
    }

    /// The evaluation of `position` from White's point of view, without
    /// the tempo bonus.
    pub fn evaluate_white<R: Rules + ?Sized>(&self, rules: &R, position: &R::Position) -> i32 {
        self.evaluate_white_in(rules, position, None)
    }

    #[inline(always)]
    fn evaluate_white_in<R: Rules + ?Sized>(
        &self,
        rules: &R,
        position: &R::Position,
        cache: Option<&mut PawnCache>,
    ) -> i32 {
        let (mut value, tally, endgame) = self.unscaled(rules, position, cache);
        if self.scaling.applies() {
            value = self.scaled(value, &tally, position, endgame);
        }
        value.clamp(-EVALUATION_LIMIT, EVALUATION_LIMIT)
    }

    /// The evaluation from White's point of view before endgame scaling,
    /// with the tally it sums and the endgame's share (in 256ths).
    #[inline(always)]
    fn unscaled<'e, R: Rules + ?Sized>(
        &'e self,
        rules: &R,
        position: &R::Position,
        cache: Option<&'e mut PawnCache>,
    ) -> (i32, Tally<'e>, i32) {
        let mut tally = self.tally(rules, position, cache);
        let pawn_terms = *tally.pawn_terms();
        let occupied = position
            .occupied(Color::White)
            .union(&position.occupied(Color::Black));
        let pinned = if self.pins.is_empty()
            || (self.weights.pinned == 0 && self.weights.royal_pinned == 0)
        {
            [0; 2]
        } else {
            Color::ALL.map(|color| {
                let c = color.index();
                self.pins
                    .pinned(position, color, &tally.targets[c], &occupied)
                    .len() as i32
            })
        };
        for color in Color::ALL {
            let c = color.index();
            let threatened = tally.pawn_attacks[c].intersection(&tally.targets[1 - c]);
            tally.positional[c] += threatened.len() as i32 * self.weights.pawn_threat;
            tally.positional[c] += tally.threats[c] * self.weights.threat;
            let bound = tally.colour_bound[c];
            let pairs = (bound & (bound >> 1) & (u128::MAX / 3)).count_ones();
            tally.positional[c] += pairs as i32 * self.weights.pair;
            tally.positional[1 - c] -= self.royal_danger(&tally, c, pinned[1 - c]);
            tally.positional[c] -= pinned[c] * self.weights.pinned;
            if self.weights.restricted != 0 {
                let restricted = tally.attacks[1 - c]
                    .intersection(&tally.attacks[c])
                    .difference(&tally.strongly_held(1 - c));
                tally.positional[c] += restricted.len() as i32 * self.weights.restricted;
            }
            let outposts = tally.minors[c]
                .intersection(&tally.pawn_attacks[c])
                .intersection(&self.outpost_zone[c]);
            tally.positional[c] += pawn_terms.connected[c];
            for square in outposts.iter() {
                if self
                    .structure
                    .beyond_enemy_pawns(&tally.structure, color, square)
                {
                    tally.positional[c] += self.weights.outpost;
                }
            }
            if self.weights.pawn_push != 0 {
                let pushes = self.pawn_push_threats(&tally, color, &occupied);
                tally.positional[c] += pushes * self.weights.pawn_push;
            }
            for (file, &riders) in tally.file_riders[c].iter().enumerate() {
                if riders > 0 && !tally.structure.occupies(color, file) {
                    let open = if tally.structure.occupies(color.opponent(), file) {
                        self.weights.open_file / 2
                    } else {
                        self.weights.open_file
                    };
                    tally.positional[c] += i32::from(riders) * open;
                }
            }
        }
        // Values, square bonuses and mobility tables move toward their
        // endgame figures as the officers leave.
        let endgame = 256 - self.phase(tally.counts.officer_material);
        for c in 0..2 {
            tally.positional[c] += tally.endgame_shift[c] * endgame / 256;
        }
        if self.weights.weak_piece != 0 {
            let penalty = self.weights.weak_piece * endgame / 256;
            for c in 0..2 {
                let weak = tally.targets[c]
                    .union(&tally.pawns[c])
                    .intersection(&tally.attacks[1 - c])
                    .difference(&tally.strongly_held(c));
                tally.positional[c] -= weak.len() as i32 * penalty;
            }
        }
        if self.weights.royal_pawnless != 0 && self.structure.is_used() {
            let penalty = self.weights.royal_pawnless * endgame / 256;
            for color in Color::ALL {
                let pawnless = SquareIter::new(position.royals(color))
                    .filter(|&index| !self.pawns_near(&tally.structure, Square::from_index(index)))
                    .count() as i32;
                tally.positional[color.index()] -= pawnless * penalty;
            }
        }
        let enemy_share = [1, 0].map(|enemy| self.material_share(tally.material[enemy]));
        let board = BoardSight {
            royals: Color::ALL.map(|color| position.royals(color)),
            attacks: tally.attacks,
            occupied,
        };
        let structure =
            self.structure
                .score(&tally.structure, &pawn_terms, enemy_share, endgame, &board);
        tally.positional[0] += structure[0];
        tally.positional[1] += structure[1];
        if self.hands {
            // A piece in hand is worth its material (it may come back
            // anywhere its drop rule allows); no placement or mobility.
            for color in Color::ALL {
                let gated = self.gated_share(position, color);
                for kind in 0..self.values.len() {
                    let count = position.in_hand(color, kind) as i32;
                    let worth = count * self.value(kind);
                    tally.positional[color.index()] += match (self.gated_kinds[kind], gated) {
                        (true, Some((gates, pieces))) => worth * gates / pieces,
                        _ => worth,
                    };
                }
            }
        }
        let learned = match (&self.network, &tally.network) {
            (Some(tables), Some(sums)) => tables.output(sums),
            _ => 0,
        };
        let value = tally.positional[0] - tally.positional[1] + learned;
        tally.keep_pawn_terms();
        (value, tally, endgame)
    }

    /// Whether a pawn-shaped piece of either side stands on the file of
    /// `square` or a file beside it.
    fn pawns_near(&self, structure: &StructureTally, square: Square) -> bool {
        let file = usize::from(square.file);
        let last = usize::from(self.files).saturating_sub(1);
        (file.saturating_sub(1)..=(file + 1).min(last)).any(|file| {
            structure.occupies(Color::White, file) || structure.occupies(Color::Black, file)
        })
    }

    /// `value` scaled by what the side ahead can convert ([`scale`]).
    fn scaled<B: Board + ?Sized>(
        &self,
        value: i32,
        tally: &Tally,
        position: &B,
        endgame: i32,
    ) -> i32 {
        let (numerator, denominator) = self.scale_share(value, tally, position, endgame);
        (i64::from(value) * numerator / denominator) as i32
    }

    /// The share of `value` that endgame scaling keeps, as a fraction.
    fn scale_share<B: Board + ?Sized>(
        &self,
        value: i32,
        tally: &Tally,
        position: &B,
        endgame: i32,
    ) -> (i64, i64) {
        let counts = &tally.counts;
        let strong = if value > 0 {
            Color::White
        } else {
            Color::Black
        };
        let s = strong.index();
        let insufficient =
            counts.pawns[s] == 0 && self.scaling.may_be_insufficient(counts.officers[s]) && {
                let kinds: Vec<PieceId> = position
                    .pieces()
                    .filter(|(_, piece)| piece.color() == strong && !piece.is_royal())
                    .map(|(_, piece)| piece.kind())
                    .collect();
                self.scaling.is_insufficient(&kinds)
            };
        let corner = counts.pawns[s] > 0
            && counts.officers[s] == counts.bound[s]
            && tally.structure.only_file(strong).is_some_and(|file| {
                let royals = position.royals(strong.opponent());
                self.scaling
                    .holds_corner(strong, file, counts.bound_shades[s], royals)
            });
        let passed = || self.structure.passed_moves(&tally.structure).len() as i32;
        let factor = self.scaling.factor(counts, s, insufficient, corner, passed);
        self.scaling.share(factor, endgame)
    }

    /// The share of its evaluation that endgame scaling ([`scale`]) keeps
    /// in `position`, from 0 to 1 (for `varc tune`, whose linear fits move
    /// terms that the scaling then weighs); 1 where the variant is not
    /// scaled.
    pub fn scale<R: Rules + ?Sized>(&self, rules: &R, position: &R::Position) -> f64 {
        if !self.scaling.applies() {
            return 1.0;
        }
        let (value, tally, endgame) = self.unscaled(rules, position, None);
        let (numerator, denominator) = self.scale_share(value, &tally, position, endgame);
        numerator as f64 / denominator as f64
    }

    /// The passed pawn-shaped pieces of `position` as the evaluation sees
    /// them (for `varc tune`): per piece, its colour and its moves to the
    /// promotion zone.
    pub fn passed_moves<R: Rules + ?Sized>(
        &self,
        rules: &R,
        position: &R::Position,
    ) -> Vec<(Color, u32)> {
        self.structure
            .passed_moves(&self.tally(rules, position, None).structure)
    }

    /// The passed formula as tables ([`PassedTables`], the entries a fit
    /// starts from): the middlegame entry the formula's bonus at full
    /// enemy material (of the pawn-shaped kind that gains most by its
    /// promotion), the endgame entry twice that; `None` without
    /// pawn-shaped kinds.
    pub fn passed_formula(&self, variant: &Variant) -> Option<PassedTables> {
        let gain = (0..self.values.len())
            .filter(|&kind| self.structure.is_shaped(kind))
            .map(|kind| self.promotion_gain(variant, kind))
            .max()?;
        let middlegame: Vec<i32> = (0..PassedTables::MOVES as u32)
            .map(|d| {
                if d == 0 {
                    return 0;
                }
                let share = 3.0 * f64::from(gain) / (5.0 * f64::from(d + 1).powi(2));
                (share * percent(self.weights.passed)).round() as i32
            })
            .collect();
        let endgame = middlegame.iter().map(|v| 2 * v).collect();
        Some(PassedTables {
            middlegame,
            endgame,
        })
    }

    /// Every piece of `position` visited: the terms summed per side.
    #[inline(always)]
    fn tally<'e, R: Rules + ?Sized>(
        &'e self,
        rules: &R,
        position: &R::Position,
        cache: Option<&'e mut PawnCache>,
    ) -> Tally<'e> {
        let mut tally = Tally {
            evaluator: self,
            cache,
            pawn_terms: None,
            pawn_terms_new: false,
            material: [0; 2],
            positional: [0; 2],
            structure: StructureTally::new(),
            pawn_attacks: [SquareSet::EMPTY; 2],
            pawn_steps: [SquareSet::EMPTY; 2],
            targets: [SquareSet::EMPTY; 2],
            minors: [SquareSet::EMPTY; 2],
            pawns: [SquareSet::EMPTY; 2],
            file_riders: [[0; structure::FILES]; 2],
            threats: [0; 2],
            colour_bound: [0; 2],
            network: self.network.as_ref().map(NetworkTables::start),
            royal_attackers: [0; 2],
            royal_hits: [0; 2],
            checks: [CheckKinds::default(); 2],
            weak: [0; 2],
            strongest: [0; 2],
            attacks: [SquareSet::EMPTY; 2],
            twice: [SquareSet::EMPTY; 2],
            flank: [SquareSet::EMPTY; 2],
            ring: [SquareSet::EMPTY; 2],
            beside: [SquareSet::EMPTY; 2],
            endgame_shift: [0; 2],
            counts: SideCounts::default(),
        };
        self.visit_reaches(rules, position, &mut tally);
        tally
    }

    /// Gating: `(gates, pieces)`, the share of `color`'s gated pieces in
    /// hand that can still enter, when fewer unmoved pieces stand where
    /// they may enter than pieces wait (each needs a square its own, and a
    /// piece without one never enters); `None` when every one can.
    fn gated_share<B: Board + ?Sized>(&self, position: &B, color: Color) -> Option<(i32, i32)> {
        let gates = &self.gates[color.index()];
        if gates.is_empty() {
            return None;
        }
        let pieces: i32 = (0..self.values.len())
            .filter(|&kind| self.gated_kinds[kind])
            .map(|kind| position.in_hand(color, kind) as i32)
            .sum();
        if pieces == 0 {
            return None;
        }
        let open = gates
            .iter()
            .filter(|&square| {
                position
                    .piece_at(square)
                    .is_some_and(|p| p.color() == color && p.is_unmoved())
            })
            .count() as i32;
        (open < pieces).then_some((open, pieces))
    }

    /// The royal cover entries `position`'s evaluation reads, whether or
    /// not the royal kinds have tables (for `varc tune`): per royal piece
    /// and file on or beside it, its kind, its colour, its own and its
    /// enemy's [`RoyalCover::cell`], and the weight the entries count with,
    /// in 256ths (the enemy's material share). Empty without pawn-shaped
    /// kinds.
    pub fn royal_cover_cells<R: Rules + ?Sized>(
        &self,
        rules: &R,
        position: &R::Position,
    ) -> Vec<CoverCells> {
        if !self.structure.is_used() {
            return Vec::new();
        }
        let tally = self.tally(rules, position, None);
        let (structure, material) = (&tally.structure, tally.material);
        let mut cells = Vec::new();
        for (square, piece) in position.pieces() {
            let (kind, color) = (piece.kind(), piece.color());
            if !self.is_royal(kind) {
                continue;
            }
            let share = self.material_share(material[color.opponent().index()]);
            for (beside, own, enemy) in self.structure.cover(structure, color, square) {
                cells.push(CoverCells {
                    kind,
                    color,
                    own: RoyalCover::cell(beside, own),
                    enemy: RoyalCover::cell(beside, enemy),
                    share,
                });
            }
        }
        cells
    }

    /// A side's `material` as a share of one side's starting material, in
    /// 256ths: 256 early, 0 bare.
    #[inline]
    fn material_share(&self, material: i32) -> i32 {
        (material * 256 / self.start_material).min(256)
    }

    /// The safety and placement of one royal piece: enemy attacks around it
    /// cost and own pieces beside it help, both weighted by the enemy's
    /// remaining material; its placement bonus counts as that material goes.
    #[inline]
    fn royal_term(&self, royal: RoyalSurroundings, enemy_material: i32) -> i32 {
        let danger = self.material_share(enemy_material);
        let safety = royal.sheltered as i32 * self.weights.royal_shelter
            - royal.attacked as i32 * self.weights.royal_attack;
        let centre = self
            .royal_bonus
            .get(royal.kind)
            .map_or(0, |t| t[royal.square.index()] as i32);
        safety * danger / 256 + centre * (256 - danger) / 256
    }

    /// What the royal pieces of the side other than `attacker` (a colour
    /// index) lose to its attack: quadratic in the attack's units, which
    /// grow with the square of the pieces attacking their rings, with the
    /// ring squares its pawn-shaped pieces attack, the squares attacked
    /// beside the royal pieces, the weak squares of the rings, the
    /// defender's `pinned` officers and the checks the attacker could
    /// give, and drop without its most valuable officer kind; weighted by
    /// the attacking side's material.
    fn royal_danger(&self, tally: &Tally, attacker: usize, pinned: i32) -> i32 {
        let weights = &self.weights;
        let defender = 1 - attacker;
        let (attackers, checks) = (tally.royal_attackers[attacker], tally.checks[attacker]);
        let ring = &tally.ring[defender];
        // Stockfish's attackers count: the ring's squares that pawn-shaped
        // pieces attack count with the officers, each of which weighs.
        let pawn_hits = tally.pawn_attacks[attacker].intersection(ring).len() as i32;
        // Weak squares of the ring beyond those beside the royal piece
        // (which [`RoyalSurroundings::weak`] counts): attacked, and not
        // defended at all.
        let far_weak = ring
            .difference(&tally.beside[defender])
            .intersection(&tally.attacks[attacker])
            .difference(&tally.attacks[defender])
            .len() as i32;
        let weak = tally.weak[defender] + far_weak;
        let mut units = ROYAL_DANGER_PER_ATTACKER * attackers * attackers
            + ROYAL_DANGER_PER_HIT * tally.royal_hits[attacker]
            + (ROYAL_DANGER_PER_ATTACKER * attackers * pawn_hits * weights.royal_pawn_attack
                + ROYAL_DANGER_PER_CHECK * checks.safe as i32 * weights.royal_check
                + ROYAL_DANGER_PER_WEAK * weak * weights.royal_weak
                + ROYAL_DANGER_PER_GUARDED_CHECK
                    * checks.guarded as i32
                    * weights.royal_unsafe_check
                + ROYAL_DANGER_PER_PINNED * pinned * weights.royal_pinned)
                / 100;
        if self.strongest.is_some() && tally.strongest[attacker] == 0 {
            units -= ROYAL_DANGER_WITHOUT_STRONGEST * weights.royal_strongest / 100;
        }
        if weights.royal_flank != 0 {
            let flank = tally.attacks[attacker].intersection(&tally.flank[1 - attacker]);
            let hits = (flank.len() + flank.intersection(&tally.twice[attacker]).len()) as i32;
            units += hits * hits * 3 / 8 * weights.royal_flank / 100;
        }
        let units = units.clamp(0, ROYAL_DANGER_MAX_UNITS);
        let material = tally.material[attacker];
        units * units / 4096 * weights.royal_danger / 100 * self.material_share(material) / 256
    }

    /// Tells `visit` every piece of `position` and where it reaches, as the
    /// evaluation sees them: through [`Rules::visit_reaches`] where `rules`
    /// knows, else by walking the model's atoms (`varc tune --mobility`
    /// counts the squares each piece reaches so).
    pub fn visit_reaches<R: Rules + ?Sized, V: ReachVisitor>(
        &self,
        rules: &R,
        position: &R::Position,
        visit: &mut V,
    ) {
        if !rules.visit_reaches(position, visit) {
            self.walk_reaches(position, visit);
        }
    }

    /// [`Rules::visit_reaches`] done by walking the model's atoms: calls
    /// `tally` per piece, then per exposed piece, then per royal piece,
    /// then per side with its checks, and last with both sides' attacks.
    fn walk_reaches<B: Board, V: ReachVisitor>(&self, position: &B, tally: &mut V) {
        let mut attacks = [SquareSet::EMPTY; 2];
        let mut twice = [SquareSet::EMPTY; 2];
        // What pieces other than royal ones attack: the squares they defend.
        let mut defended = [SquareSet::EMPTY; 2];
        let occupied = position
            .occupied(Color::White)
            .union(&position.occupied(Color::Black));
        let mut royal_zones = [SquareSet::EMPTY; 2];
        let mut royal_rings = [SquareSet::EMPTY; 2];
        for color in Color::ALL {
            for index in SquareIter::new(position.royals(color)) {
                let zone = &mut royal_zones[color.index()];
                *zone = zone.union(&self.neighbours[index]);
                let ring = &mut royal_rings[color.index()];
                *ring = ring.union(&self.rings[index]);
            }
        }
        let guards = tally.guards();
        let is_guard = |kind: PieceId| kind < 64 && guards >> kind & 1 == 1;
        let mut guarded = [SquareSet::EMPTY; 2];
        for (square, piece) in position.pieces() {
            if is_guard(piece.kind()) {
                let captures = self.captures(
                    &occupied,
                    piece.kind(),
                    piece.color(),
                    piece.is_unmoved(),
                    square,
                );
                let guarded = &mut guarded[piece.color().index()];
                *guarded = guarded.union(&captures);
            }
        }
        // Per side, per enemy kind (neither royal nor a guard): the squares
        // from which such a piece would attack one of the side's royal
        // pieces; per side, per kind, the squares its pieces could check
        // from.
        let kinds = self.atoms.len();
        let checker = |kind: PieceId| !self.royal[kind] && !is_guard(kind);
        let mut present = [vec![false; kinds], vec![false; kinds]];
        for (_, piece) in position.pieces() {
            if let Some(seen) = present[piece.color().index()].get_mut(piece.kind()) {
                *seen = true;
            }
        }
        let mut check_squares = [vec![SquareSet::EMPTY; kinds], vec![SquareSet::EMPTY; kinds]];
        for color in Color::ALL {
            let side = color.index();
            for index in SquareIter::new(position.royals(color)) {
                let royal = Square::from_index(index);
                // As a compiled reach reads it: the flag of the square.
                let unmoved = position.piece_at(royal).is_some_and(|p| p.is_unmoved());
                for kind in (0..kinds).filter(|&kind| checker(kind) && present[1 - side][kind]) {
                    let captures = self.captures(&occupied, kind, color, unmoved, royal);
                    let squares = &mut check_squares[side][kind];
                    *squares = squares.union(&captures);
                }
            }
        }
        let mut checks = [vec![SquareSet::EMPTY; kinds], vec![SquareSet::EMPTY; kinds]];
        for (square, piece) in position.pieces() {
            let c = piece.color().index();
            let mut captures = SquareSet::EMPTY;
            // Squares, not atoms, count: a compound piece whose atoms
            // overlap (PPC's R' = rook + king step) counts each once.
            let mut reached = SquareSet::EMPTY;
            let mut victims = 0u64;
            let royal = self.royal.get(piece.kind()) == Some(&true);
            let attacked_before = attacks[c];
            self.walk(
                &occupied,
                piece.kind(),
                piece.color(),
                piece.is_unmoved(),
                square,
                |target, capture_mode, move_mode| {
                    let target = Square::from_index(target);
                    if capture_mode {
                        attacks[c].insert(target);
                        captures.insert(target);
                        if !royal {
                            defended[c].insert(target);
                        }
                    }
                    match position.occupant(target) {
                        None if move_mode => reached.insert(target),
                        Some((kind, color)) if capture_mode && color != piece.color() => {
                            reached.insert(target);
                            victims |= 1u64.checked_shl(kind as u32).unwrap_or(0);
                        }
                        _ => {}
                    }
                },
            );
            twice[c] = twice[c].union(&captures.intersection(&attacked_before));
            if let (Some(checks), Some(from)) = (
                checks[c].get_mut(piece.kind()),
                check_squares[1 - c].get(piece.kind()),
            ) {
                *checks = checks.union(&reached.intersection(from));
            }
            let safe = if is_guard(piece.kind()) {
                reached
            } else {
                reached.difference(&guarded[1 - c])
            };
            tally.piece(PieceReach {
                square,
                kind: piece.kind(),
                color: piece.color(),
                reach: reached.len() as u32,
                safe_reach: safe.len() as u32,
                victims,
                royal_hits: captures.intersection(&royal_zones[1 - c]).len() as u32,
                ring_attacker: !captures.intersection(&royal_rings[1 - c]).is_empty(),
            });
        }
        for color in Color::ALL {
            let enemy_attacks = &attacks[color.opponent().index()];
            for (square, piece) in position.pieces() {
                if piece.color() == color
                    && enemy_attacks.contains(square)
                    && !attacks[color.index()].contains(square)
                    && !position.royals(color).contains(square)
                {
                    tally.exposed(piece.kind(), color);
                }
            }
        }
        for color in Color::ALL {
            let enemy_attacks = attacks[color.opponent().index()].intersection(&self.on_board);
            let own = position.occupied(color);
            for index in SquareIter::new(position.royals(color)) {
                let square = Square::from_index(index);
                let Some((kind, _)) = position.occupant(square) else {
                    continue;
                };
                let around = self.neighbours[index];
                tally.royal(RoyalSurroundings {
                    square,
                    kind,
                    color,
                    attacked: around.intersection(&enemy_attacks).len() as u32,
                    sheltered: around.intersection(&own).len() as u32,
                    weak: around
                        .intersection(&enemy_attacks)
                        .difference(&defended[color.index()])
                        .len() as u32,
                });
            }
        }
        for color in Color::ALL {
            let c = color.index();
            let mut kinds = CheckKinds::default();
            for squares in checks[c].iter().filter(|squares| !squares.is_empty()) {
                if squares.difference(&attacks[1 - c]).is_empty() {
                    kinds.guarded += 1;
                } else {
                    kinds.safe += 1;
                }
            }
            tally.checks(color, kinds);
        }
        let on_board = |squares: SquareSet| squares.intersection(&self.on_board);
        tally.attacks(attacks.map(on_board), twice.map(on_board));
    }

    /// The squares a piece of `kind` on `from` could capture on with the
    /// blockers of `occupied` ([`Evaluator::walk`]'s capturing targets).
    fn captures(
        &self,
        occupied: &SquareSet,
        kind: PieceId,
        color: Color,
        unmoved: bool,
        from: Square,
    ) -> SquareSet {
        let mut captures = SquareSet::EMPTY;
        self.walk(
            occupied,
            kind,
            color,
            unmoved,
            from,
            |target, capture, _| {
                if capture {
                    captures.insert(Square::from_index(target));
                }
            },
        );
        captures
    }

    /// Calls `visit(target index, can capture there, can move there)` for
    /// each square a piece of `kind` on `from` reaches with the blockers of
    /// `occupied`.
    #[allow(clippy::too_many_arguments)]
    fn walk(
        &self,
        occupied: &SquareSet,
        kind: PieceId,
        color: Color,
        unmoved: bool,
        from: Square,
        mut visit: impl FnMut(usize, bool, bool),
    ) {
        let Some(atoms) = self.atoms.get(kind) else {
            return;
        };
        for atom in &atoms[color.index()] {
            if atom.first_move_only && !unmoved {
                continue;
            }
            if atom.region.is_some_and(|r| !r.contains(from)) {
                continue;
            }
            for &(df, dr) in &atom.steps {
                let at = |k: i32| {
                    let (f, r) = (from.file as i32 + df * k, from.rank as i32 + dr * k);
                    (f >= 0 && r >= 0 && f < self.files as i32 && r < self.ranks as i32)
                        .then(|| Square::new(f as u8, r as u8))
                        .filter(|s| self.on_board.contains(*s))
                };
                match atom.motion {
                    Motion::Leap => {
                        if let Some(to) = at(1) {
                            visit(to.index(), atom.captures, atom.moves);
                        }
                    }
                    Motion::LameLeap => {
                        if let Some(to) = at(1) {
                            if lame_path_clear(from, df, dr, occupied) {
                                visit(to.index(), atom.captures, atom.moves);
                            }
                        }
                    }
                    Motion::Ride { max } => {
                        let limit = max.map_or(i32::MAX, i32::from);
                        let mut k = 1;
                        while k <= limit {
                            let Some(to) = at(k) else { break };
                            visit(to.index(), atom.captures, atom.moves);
                            if occupied.contains(to) {
                                break;
                            }
                            k += 1;
                        }
                    }
                    Motion::Hop { landing } => {
                        let mut k = 1;
                        let mut screened = false;
                        while let Some(to) = at(k) {
                            if screened {
                                visit(to.index(), atom.captures, atom.moves);
                                if landing == HopLanding::Adjacent || occupied.contains(to) {
                                    break;
                                }
                            } else if occupied.contains(to) {
                                screened = true;
                            }
                            k += 1;
                        }
                    }
                }
            }
        }
    }
}

/// Whether the path of a lame leap by `(df, dr)` from `from` is empty (see
/// [`Motion::LameLeap`]).
/// The terms of one evaluation as the pieces come, per colour index.
struct Tally<'a> {
    evaluator: &'a Evaluator,
    /// Where the pawn-shaped pieces' terms are kept from one evaluation to
    /// the next, if anywhere.
    cache: Option<&'a mut PawnCache>,
    /// The pawn-shaped pieces' terms, once asked for (all pieces seen), and
    /// whether they are new to the cache.
    pawn_terms: Option<PawnTerms>,
    pawn_terms_new: bool,
    /// Material alone, for the royal pieces' danger.
    material: [i32; 2],
    /// Material, placement, mobility and the royal terms: the sum the
    /// evaluation is, with the structure's.
    positional: [i32; 2],
    /// The pawn-shaped pieces, for the structure terms.
    structure: StructureTally,
    /// The squares each side's pawn-shaped pieces attack, and those they
    /// step to on an empty board (first-move steps left out).
    pawn_attacks: [SquareSet; 2],
    pawn_steps: [SquareSet; 2],
    /// Each side's pieces that are neither royal nor pawn-shaped.
    targets: [SquareSet; 2],
    /// The squares of each side's pawn-shaped pieces.
    pawns: [SquareSet; 2],
    /// Each side's minor officers, for outposts.
    minors: [SquareSet; 2],
    /// `[colour][file]`: the side's file riders there.
    file_riders: [[u8; structure::FILES]; 2],
    /// Per side, the enemy kinds its pieces threaten, summed over its
    /// pieces.
    threats: [i32; 2],
    /// Per side, bit `2k + c` for a colour-bound piece of kind `k` on a
    /// square of colour `c`.
    colour_bound: [u128; 2],
    /// The learned correction's hidden sums, with a network.
    network: Option<Accumulator>,
    /// Per side, its officers that attack an enemy royal piece's ring, and
    /// how many squares beside such a piece its officers attack in all.
    royal_attackers: [i32; 2],
    royal_hits: [i32; 2],
    /// Per side, its kinds that could give check, safely or not.
    checks: [CheckKinds; 2],
    /// Per side, the weak squares beside its royal pieces
    /// ([`RoyalSurroundings::weak`]).
    weak: [i32; 2],
    /// Per side, its pieces of the most valuable officer kind.
    strongest: [i32; 2],
    /// Per side, the squares its pieces could capture on, and those two
    /// or more of them could.
    attacks: [SquareSet; 2],
    twice: [SquareSet; 2],
    /// Per side, the flanks of its royal pieces.
    flank: [SquareSet; 2],
    /// Per side, its royal pieces' rings ([`ring_of`]) and the squares
    /// beside them ([`neighbours_of`]).
    ring: [SquareSet; 2],
    beside: [SquareSet; 2],
    /// Per side, what its pieces gain in the endgame (summed
    /// [`PieceTerms::shift`] and [`PieceTerms::endgame_mobility`]).
    endgame_shift: [i32; 2],
    /// Per side, the pieces endgame scaling counts ([`scale`]).
    counts: SideCounts,
}

impl Tally<'_> {
    /// The terms the pawn-shaped pieces' squares decide alone, from the
    /// cache or worked out (once every piece is seen).
    fn pawn_terms(&mut self) -> &mut PawnTerms {
        let (cache, structure) = (&self.cache, &self.structure);
        let (pawns, defended) = (&self.pawns, &self.pawn_attacks);
        let new = &mut self.pawn_terms_new;
        self.pawn_terms.get_or_insert_with(|| {
            let key = pawn_cache::digest(structure.placement());
            match cache.as_deref().and_then(|cache| cache.get(key)) {
                Some(kept) => *kept,
                None => {
                    *new = true;
                    self.evaluator
                        .structure
                        .pawn_terms(key, structure, pawns, defended)
                }
            }
        })
    }

    /// Puts new terms into the cache.
    fn keep_pawn_terms(&mut self) {
        if let (Some(cache), Some(terms), true) = (
            self.cache.as_deref_mut(),
            &self.pawn_terms,
            self.pawn_terms_new,
        ) {
            cache.put(terms);
        }
    }

    /// The squares the side of colour index `c` holds strongly: those its
    /// pawn-shaped pieces attack, and those two or more of its pieces
    /// attack where fewer than two enemy ones do (Stockfish's strongly
    /// protected squares).
    fn strongly_held(&self, c: usize) -> SquareSet {
        self.pawn_attacks[c].union(&self.twice[c].difference(&self.twice[1 - c]))
    }
}

impl ReachVisitor for Tally<'_> {
    fn guards(&self) -> u64 {
        self.evaluator.guards
    }

    #[inline(always)]
    fn piece(&mut self, piece: PieceReach) {
        let c = piece.color.index();
        if let Some(terms) = self.evaluator.terms.get(piece.kind) {
            self.material[c] += terms.value;
            let square = piece.square.index() % SQUARE_COUNT;
            let reach = (piece.safe_reach as usize).min(SQUARE_COUNT - 1);
            self.endgame_shift[c] += terms.shift[c][square] + terms.endgame_mobility[reach];
            self.positional[c] += terms.placed[c][square] + terms.mobility[reach];
            let kind = piece.kind;
            if let Some(&victims) = self.evaluator.threat_victims.get(kind) {
                self.threats[c] += (piece.victims & victims).count_ones() as i32;
            }
            let officer = self.evaluator.officer.get(kind) == Some(&true);
            if Some(kind) == self.evaluator.strongest {
                self.strongest[c] += 1;
            }
            if officer {
                self.counts.officers[c] += 1;
                self.counts.officer_material[c] += terms.value;
            }
            if piece.ring_attacker && officer {
                self.royal_attackers[c] += 1;
                self.royal_hits[c] += piece.royal_hits as i32;
            }
            if let (Some(tables), Some(sums)) = (&self.evaluator.network, &mut self.network) {
                tables.add(sums, kind, c, piece.square.index() % SQUARE_COUNT);
            }
            if self.evaluator.colour_bound.get(kind) == Some(&true) {
                let shade = usize::from(piece.square.file + piece.square.rank) & 1;
                self.colour_bound[c] |= 1u128 << (2 * kind + shade);
                self.counts.bound[c] += 1;
                self.counts.bound_shades[c] |= 1 << shade;
            }
            if self.evaluator.structure.is_shaped(piece.kind) {
                self.counts.pawns[c] += 1;
                self.structure.add(piece.square, piece.color, piece.reach);
                self.pawns[c].insert(piece.square);
                let index = piece.square.index() % SQUARE_COUNT;
                let attacks = &self.evaluator.pawn_attacks[c][index];
                self.pawn_attacks[c] = self.pawn_attacks[c].union(attacks);
                let steps = &self.evaluator.pawn_steps[c][index];
                self.pawn_steps[c] = self.pawn_steps[c].union(steps);
            } else if terms.value > 0 {
                self.targets[c].insert(piece.square);
                if self.evaluator.minor.get(kind) == Some(&true) {
                    self.minors[c].insert(piece.square);
                }
                if self.evaluator.file_rider[piece.kind] {
                    let file =
                        &mut self.file_riders[c][usize::from(piece.square.file) % structure::FILES];
                    *file = file.saturating_add(1);
                }
            }
        }
    }

    #[inline(always)]
    fn exposed(&mut self, kind: PieceId, color: Color) {
        let evaluator = self.evaluator;
        if evaluator.officer.get(kind) == Some(&true) {
            self.positional[color.index()] -= evaluator.weights.hanging;
        } else if evaluator.structure.is_shaped(kind) {
            self.positional[color.index()] -= evaluator.weights.hanging_pawn;
        }
    }

    #[inline(always)]
    fn royal(&mut self, royal: RoyalSurroundings) {
        // Pieces come first, so the enemy's material and the pawn-shaped
        // pieces are known here.
        let enemy_material = self.material[royal.color.opponent().index()];
        let evaluator = self.evaluator;
        if let Some(zone) = evaluator.flank_zone[royal.color.index()].get(royal.square.index()) {
            let flank = &mut self.flank[royal.color.index()];
            *flank = flank.union(zone);
        }
        let (c, square) = (royal.color.index(), royal.square.index() % SQUARE_COUNT);
        if let (Some(ring), Some(beside)) = (
            evaluator.rings.get(square),
            evaluator.neighbours.get(square),
        ) {
            self.ring[c] = self.ring[c].union(ring);
            self.beside[c] = self.beside[c].union(beside);
        }
        let mut term = evaluator.royal_term(royal, enemy_material);
        if let Some(Some(cover)) = evaluator.royal_cover.get(royal.kind) {
            let c = royal.color.index();
            let square = royal.square.index();
            let kept = self.pawn_terms().cover(c, royal.kind, square);
            let cover_sum = match kept {
                Some(sum) => sum,
                None => {
                    let sum: i32 = evaluator
                        .structure
                        .cover(&self.structure, royal.color, royal.square)
                        .map(|(beside, own, enemy)| {
                            cover.own[RoyalCover::cell(beside, own)]
                                + cover.enemy[RoyalCover::cell(beside, enemy)]
                        })
                        .sum();
                    self.pawn_terms().keep_cover(c, royal.kind, square, sum);
                    self.pawn_terms_new = true;
                    sum
                }
            };
            term += cover_sum * evaluator.material_share(enemy_material) / 256;
        }
        self.positional[royal.color.index()] += term;
        self.weak[royal.color.index()] += royal.weak as i32;
    }

    #[inline(always)]
    fn checks(&mut self, color: Color, kinds: CheckKinds) {
        self.checks[color.index()] = kinds;
    }

    #[inline(always)]
    fn attacks(&mut self, attacks: [SquareSet; 2], twice: [SquareSet; 2]) {
        self.attacks = attacks;
        self.twice = twice;
    }
}

/// A weight in percent as a factor (exactly 1.0 for 100).
fn percent(weight: i32) -> f64 {
    f64::from(weight) / 100.0
}

fn lame_path_clear(from: Square, df: i32, dr: i32, occupied: &SquareSet) -> bool {
    let square =
        |f: i32, r: i32| Square::new((from.file as i32 + f) as u8, (from.rank as i32 + r) as u8);
    if df == 0 || dr == 0 || df.abs() == dr.abs() {
        let steps = df.abs().max(dr.abs());
        (1..steps).all(|k| !occupied.contains(square(df.signum() * k, dr.signum() * k)))
    } else if df.abs() > dr.abs() {
        !occupied.contains(square(df.signum(), 0))
    } else {
        !occupied.contains(square(0, dr.signum()))
    }
}

fn orient(variant: &Variant, kind: PieceId, color: Color) -> Vec<OrientedAtom> {
    let Some(piece) = variant.pieces.get(kind) else {
        return Vec::new();
    };
    piece
        .moves
        .iter()
        .map(|atom| OrientedAtom {
            motion: atom.motion,
            steps: atom
                .directions
                .iter()
                .map(|&(df, dr)| match color {
                    Color::White => (df as i32, dr as i32),
                    Color::Black => (df as i32, -(dr as i32)),
                })
                .collect(),
            moves: atom.mode != MoveMode::CaptureOnly,
            captures: atom.mode != MoveMode::MoveOnly,
            first_move_only: atom.condition == AtomCondition::FirstMove,
            region: match atom.condition {
                AtomCondition::InRegion(region) => Some(
                    variant
                        .regions
                        .get(region)
                        .map_or(SquareSet::EMPTY, |r| *r.for_side(color)),
                ),
                _ => None,
            },
        })
        .collect()
}

/// The squares a piece with `atoms` reaches from `from` on an empty board
/// (first-move atoms left out; hoppers reach nothing). With `moving`, only
/// squares it can move to; otherwise capture squares.
fn empty_board_targets(
    atoms: &[OrientedAtom],
    variant: &Variant,
    from: Square,
    moving: bool,
) -> Vec<usize> {
    let mut out = Vec::new();
    for atom in atoms {
        if atom.first_move_only || (moving && !atom.moves) || (!moving && !atom.captures) {
            continue;
        }
        if atom.region.is_some_and(|r| !r.contains(from)) {
            continue;
        }
        let limit = match atom.motion {
            Motion::Leap | Motion::LameLeap => 1,
            Motion::Ride { max } => max.map_or(i32::MAX, i32::from),
            Motion::Hop { .. } => 0,
        };
        for &(df, dr) in &atom.steps {
            let mut k = 1;
            while k <= limit {
                let (f, r) = (from.file as i32 + df * k, from.rank as i32 + dr * k);
                if !variant.board.contains(f, r) {
                    break;
                }
                let index = Square::new(f as u8, r as u8).index();
                if !out.contains(&index) {
                    out.push(index);
                }
                k += 1;
            }
        }
    }
    out
}

/// Mobility of a piece with `atoms` on `from` of an empty board: the mean of
/// its move squares and its capture squares. A hopper, which reaches nothing
/// on an empty board, counts half of the rider squares along its lines.
fn empty_board_mobility(atoms: &[OrientedAtom], variant: &Variant, from: Square) -> f64 {
    let moves = empty_board_targets(atoms, variant, from, true).len() as f64;
    let captures = empty_board_targets(atoms, variant, from, false).len() as f64;
    let mut hop = 0.0;
    for atom in atoms
        .iter()
        .filter(|a| matches!(a.motion, Motion::Hop { .. }))
    {
        for &(df, dr) in &atom.steps {
            let mut k = 1;
            while variant
                .board
                .contains(from.file as i32 + df * k, from.rank as i32 + dr * k)
            {
                hop += 0.5;
                k += 1;
            }
        }
    }
    (moves + captures) / 2.0 + hop
}

/// The value in centipawns of a kind without a declared value: from its
/// mean empty-board mobility `m` (the mean, over the board's squares, of the
/// number of squares it can move to and the number it can capture on, first
/// move atoms left out, hoppers counted at half a rider),
///
/// `value = 60 + 34 * m`
///
/// which on 8x8 gives a pawn 1.07, knight 2.4, bishop 3.6, rook 5.4,
/// queen 8.3 and a non-royal king 2.8 pawns.
pub fn estimate_value(variant: &Variant, kind: PieceId) -> i32 {
    let atoms = orient(variant, kind, Color::White);
    let squares: Vec<Square> = variant.board.squares().iter().collect();
    if squares.is_empty() {
        return PAWN;
    }
    let total: f64 = squares
        .iter()
        .map(|s| empty_board_mobility(&atoms, variant, *s))
        .sum();
    let mean = total / squares.len() as f64;
    (60.0 + 34.0 * mean).round() as i32
}
