//! Pawn structure, for the kinds that move like pawns: read from the model,
//! no kind is named. A kind is **pawn-shaped** when it is not royal, a
//! promotion rule gains it something, and it only goes forward: each of
//! its steps goes one rank ahead and at most one file aside (a first-move
//! step may go further ahead, straight on). Chess's and Shogi's pawns are;
//! a Shogi knight (two ranks ahead) or silver (steps back) is not.
//!
//! Per side, over its pawn-shaped pieces:
//! - **passed**: no enemy pawn-shaped piece ahead of it on its file or a
//!   neighbouring one, and it can move now (a blocked one earns nothing): a
//!   share of what its promotion gains, `3 gain /
//!   (5 (d + 1)^2)` where `d` is the number of its moves to the zone (on
//!   top of the advancement every such piece earns), growing up to twice
//!   that as the enemy's material leaves the board; or, where the weights
//!   give [`PassedTables`], their entries for `d`, tapered from the
//!   middlegame table to the endgame table as the officers leave; and,
//!   as the officers leave, its royal race: the enemy royal piece far
//!   from the square in front of it, its own near;
//! - **doubled**: each one more on a file that has one;
//! - **isolated**: none of its side's on either neighbouring file;
//! - **connected**: defended by one of its side, or level with one on a
//!   neighbouring file (a phalanx), earning more as it nears the zone.
//!
//! Files and ranks are the board's; a side's pawn-shaped pieces must all
//! go the same way (else the variant has no pawn structure).

use super::pawn_cache::PawnTerms;
use super::OrientedAtom;
use crate::model::{Color, Motion, PassedTables, PieceId, Square, SquareSet, MAX_BOARD_SIDE};
use crate::position::SQUARE_COUNT;
use crate::weights::EvaluationWeights;

pub(super) const FILES: usize = MAX_BOARD_SIDE as usize;

/// `[colour index][file]`: a set of ranks per file, as bits.
pub(super) type Placement = [[u16; FILES]; 2];

/// What the model says of pawn structure: which kinds are pawn-shaped, the
/// way each side's go, and the passed bonus per kind and square.
/// The default has no pawn-shaped kind.
#[derive(Clone, Debug, Default)]
pub(super) struct Structure {
    /// Per kind: pawn-shaped.
    shaped: Vec<bool>,
    /// Per colour: `+1` when its pawn-shaped pieces go up the ranks, `-1`
    /// down.
    forward: [i32; 2],
    /// `[colour][square index]`: the passed bonus, at full enemy material
    /// (of the pawn-shaped kind that earns most there, where several are),
    /// or the middlegame table's entry.
    passed: [Vec<i16>; 2],
    /// `[colour][square index]`: with passed tables, the endgame table's
    /// entry less the middlegame one's (empty without tables).
    passed_shift: [Vec<i16>; 2],
    /// `[colour][square index]`: the fewest moves to the zone of a
    /// pawn-shaped kind there (`u8::MAX`: none).
    moves: [Vec<u8>; 2],
    /// `[colour][square index]`: the connected bonus there.
    connected: [Vec<i16>; 2],
    /// Whether any connected bonus is not 0.
    connected_any: bool,
    /// How many files the board has.
    files: usize,
    /// Centipawns per royal step of the passed-piece race ([`Structure::race`]).
    passed_royal: i32,
    /// Centipawns per 20 units of a passed piece's free way
    /// ([`Structure::free_way`]).
    passed_free: i32,
    /// How many ranks the board has.
    ranks: u8,
    doubled: i32,
    isolated: i32,
    /// Whether any kind is pawn-shaped.
    any: bool,
}

impl Structure {
    /// The structure of kinds moving by `atoms` (`[kind][colour]`), where a
    /// kind's promotion gains `gains[kind]`, `distance(kind, colour)` gives
    /// its moves to the zone per square, and `royal[kind]` tells royals.
    pub(super) fn new(
        atoms: &[[Vec<OrientedAtom>; 2]],
        royal: &[bool],
        gains: &[i32],
        distance: impl Fn(PieceId, Color) -> Vec<Option<u32>>,
        (files, ranks): (usize, u8),
        weights: &EvaluationWeights,
        tables: Option<&PassedTables>,
    ) -> Structure {
        let mut forward = [0; 2];
        let mut shaped = vec![false; atoms.len()];
        for (kind, oriented) in atoms.iter().enumerate() {
            if royal[kind] || gains[kind] <= 0 {
                continue;
            }
            let ways = [way(&oriented[0]), way(&oriented[1])];
            if let [Some(white), Some(black)] = ways {
                shaped[kind] = true;
                forward = [white, black];
            }
        }
        // Every pawn-shaped kind of a side must go its way.
        let consistent = atoms.iter().enumerate().all(|(kind, oriented)| {
            !shaped[kind] || [way(&oriented[0]), way(&oriented[1])] == forward.map(Some)
        });
        if !consistent {
            shaped.iter_mut().for_each(|s| *s = false);
        }
        let mut passed = [vec![0i16; SQUARE_COUNT], vec![0i16; SQUARE_COUNT]];
        let mut moves = [vec![u8::MAX; SQUARE_COUNT], vec![u8::MAX; SQUARE_COUNT]];
        for (kind, _) in shaped.iter().enumerate().filter(|(_, &is)| is) {
            for color in Color::ALL {
                let table = &mut passed[color.index()];
                for (index, d) in distance(kind, color).iter().enumerate().take(SQUARE_COUNT) {
                    if let Some(d) = d.filter(|d| *d > 0) {
                        let share = 3.0 * f64::from(gains[kind]) / (5.0 * f64::from(d + 1).powi(2));
                        let bonus = (share * f64::from(weights.passed) / 100.0).round() as i16;
                        table[index] = table[index].max(bonus);
                        let fewest = &mut moves[color.index()][index];
                        *fewest = (*fewest).min(d.min(u32::from(u8::MAX - 1)) as u8);
                    }
                }
            }
        }
        let mut passed_shift = [Vec::new(), Vec::new()];
        if let Some(tables) = tables {
            for c in 0..2 {
                let entry = |table: &[i32], d: u8| {
                    let value = if d == u8::MAX {
                        0
                    } else {
                        PassedTables::at(table, u32::from(d))
                    };
                    value.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16
                };
                passed[c] = moves[c]
                    .iter()
                    .map(|&d| entry(&tables.middlegame, d))
                    .collect();
                passed_shift[c] = moves[c]
                    .iter()
                    .map(|&d| {
                        entry(&tables.endgame, d).saturating_sub(entry(&tables.middlegame, d))
                    })
                    .collect();
            }
        }
        // The connected bonus per square, `16 / (d + 1)^2` of the weight.
        let connected: [Vec<i16>; 2] = std::array::from_fn(|c| {
            moves[c]
                .iter()
                .map(|&d| {
                    if d == u8::MAX || weights.connected == 0 {
                        return 0;
                    }
                    let share = 16.0 / f64::from(u32::from(d) + 1).powi(2);
                    let bonus = (share * f64::from(weights.connected)).round();
                    bonus.clamp(f64::from(i16::MIN), f64::from(i16::MAX)) as i16
                })
                .collect()
        });
        Structure {
            connected_any: connected.iter().flatten().any(|&bonus| bonus != 0),
            connected,
            any: shaped.iter().any(|&s| s),
            shaped,
            forward,
            passed,
            passed_shift,
            moves,
            files: files.min(FILES),
            passed_royal: weights.passed_royal,
            passed_free: weights.passed_free,
            ranks,
            doubled: weights.doubled,
            isolated: weights.isolated,
        }
    }

    /// Whether the variant has pawn-shaped kinds at all.
    pub(super) fn is_used(&self) -> bool {
        self.any
    }

    /// The square where a pawn-shaped piece of `color` on `file` first
    /// reaches its promotion zone going forward (`ranks` on the board), if
    /// it can.
    pub(super) fn promotion_square(&self, color: Color, file: u8, ranks: u8) -> Option<Square> {
        let c = color.index();
        let mut order: Vec<u8> = (0..ranks).collect();
        if self.forward[c] < 0 {
            order.reverse();
        }
        // The square after the last one a move from the zone.
        let moves = |rank: u8| self.moves[c].get(Square::new(file, rank).index() % SQUARE_COUNT);
        order
            .windows(2)
            .rfind(|pair| moves(pair[0]) == Some(&1))
            .map(|pair| Square::new(file, pair[1]))
    }

    /// Whether no enemy pawn-shaped piece in `tally` can ever attack
    /// `square` for `color`'s piece there: none on a file beside it
    /// stands behind it as the enemy goes (where advancing would bring it
    /// level).
    #[inline(always)]
    pub(super) fn beyond_enemy_pawns(
        &self,
        tally: &StructureTally,
        color: Color,
        square: Square,
    ) -> bool {
        let e = color.opponent().index();
        let file = usize::from(square.file) % FILES;
        let rank = u32::from(square.rank);
        let mut beside = 0;
        if file > 0 {
            beside |= tally.files[e][file - 1];
        }
        if file + 1 < FILES {
            beside |= tally.files[e][file + 1];
        }
        let behind = if self.forward[e] > 0 {
            (1u16 << rank) - 1
        } else {
            u16::MAX.checked_shl(rank + 1).unwrap_or(0)
        };
        beside & behind == 0
    }

    /// What `color`'s connected pawn-shaped pieces earn, `pawns` their
    /// squares: each that an own one defends (`defended`, the squares they
    /// attack) or that has one of its side level with it on a file beside
    /// it (a phalanx) earns `16 / (d + 1)^2` of the `connected` weight,
    /// `d` its moves to the zone (Stockfish's connected bonus grows with
    /// the rank much as this does).
    #[inline(always)]
    fn connected(
        &self,
        tally: &StructureTally,
        color: Color,
        pawns: &SquareSet,
        defended: &SquareSet,
    ) -> i32 {
        if !self.connected_any {
            return 0;
        }
        let c = color.index();
        let own = &tally.files[c];
        let mut connected = pawns.intersection(defended);
        for file in 0..self.files {
            let left = if file > 0 { own[file - 1] } else { 0 };
            let right = if file + 1 < FILES { own[file + 1] } else { 0 };
            let mut level = own[file] & (left | right);
            while level != 0 {
                let rank = level.trailing_zeros();
                level &= level - 1;
                connected.insert(Square::new(file as u8, rank as u8));
            }
        }
        let table = &self.connected[c];
        connected
            .iter()
            .map(|square| i32::from(table.get(square.index()).copied().unwrap_or(0)))
            .sum()
    }

    /// Whether `color`'s pawn-shaped pieces go up the ranks.
    pub(super) fn goes_up(&self, color: Color) -> bool {
        self.forward[color.index()] > 0
    }

    /// Whether pieces of `kind` count for the structure.
    #[inline(always)]
    pub(super) fn is_shaped(&self, kind: PieceId) -> bool {
        self.any && self.shaped.get(kind).copied().unwrap_or(false)
    }

    /// The structure terms of the pieces `tally` saw, per colour index;
    /// `enemy_share[c]` is the enemy's material left as a share of 256 (256
    /// at the start or more, 0 bare), `endgame` how far the position is
    /// into the endgame (0 to 256, for passed tables).
    pub(super) fn score(
        &self,
        tally: &StructureTally,
        terms: &PawnTerms,
        enemy_share: [i32; 2],
        endgame: i32,
        board: &BoardSight,
    ) -> [i32; 2] {
        let mut score = [0; 2];
        if !self.any {
            return score;
        }
        for color in Color::ALL {
            let c = color.index();
            let mut total = terms.base[c];
            let mut passed = 0;
            let mut passed_shift = 0;
            let mut race = 0;
            let mut free = 0;
            for file in 0..self.files {
                if tally.mobile[c][file] == 0 {
                    continue;
                }
                self.for_each_passed(tally, c, file, |index| {
                    passed += i32::from(self.passed[c][index]);
                    if let Some(shift) = self.passed_shift[c].get(index) {
                        passed_shift += i32::from(*shift);
                    }
                    if self.passed_royal != 0 {
                        race += self.race(color, index, &board.royals);
                    }
                    if self.passed_free != 0 {
                        free += self.free_way(color, index, board);
                    }
                });
            }
            if self.passed_shift[c].is_empty() {
                // Up to twice the bonus as the enemy's material goes.
                total += passed * (512 - enemy_share[c].clamp(0, 256)) / 256;
            } else {
                total += passed + passed_shift * endgame / 256;
            }
            total += race * self.passed_royal * endgame / 256 / 4;
            total += free * self.passed_free / 20;
            score[c] = total;
        }
        score
    }

    /// The terms of the placement in `tally` that it decides alone:
    /// doubled, isolated and connected pieces (`pawns` and `defended`: each
    /// side's pawn-shaped pieces and the squares they attack). No royal
    /// cover yet: it is worked out when a royal piece asks for it. `key`
    /// is the placement's digest.
    pub(super) fn pawn_terms(
        &self,
        key: u64,
        tally: &StructureTally,
        pawns: &[SquareSet; 2],
        defended: &[SquareSet; 2],
    ) -> PawnTerms {
        let mut terms = PawnTerms::of(key);
        if !self.any {
            return terms;
        }
        for color in Color::ALL {
            let c = color.index();
            let own = &tally.files[c];
            let mut total = 0;
            for file in 0..self.files {
                let ranks = own[file];
                if ranks == 0 {
                    continue;
                }
                let count = ranks.count_ones() as i32;
                total -= (count - 1) * self.doubled;
                let left = if file > 0 { own[file - 1] } else { 0 };
                let right = if file + 1 < FILES { own[file + 1] } else { 0 };
                if left | right == 0 {
                    total -= count * self.isolated;
                }
            }
            terms.base[c] = total;
            terms.connected[c] = self.connected(tally, color, &pawns[c], &defended[c]);
        }
        terms
    }

    /// 5 less the moves to the zone of a piece of colour index `c` on the
    /// square of index `index` (0 from 5 moves on): how much its passed
    /// terms weigh.
    fn urgency(&self, c: usize, index: usize) -> i32 {
        let moves = self.moves[c].get(index).copied().unwrap_or(u8::MAX);
        5 - i32::from(moves).min(5)
    }

    /// The square in front of a piece of colour index `c` on the square of
    /// index `index`, if it is on the board.
    fn front(&self, c: usize, index: usize) -> Option<Square> {
        let from = Square::from_index(index);
        let rank = u8::try_from(i32::from(from.rank) + self.forward[c]).ok()?;
        (rank < self.ranks).then(|| Square::new(from.file, rank))
    }

    /// The free way of a passed piece of `color` on the square of index
    /// `index`, as Stockfish weighs a passed pawn's way: 20 units where no
    /// square ahead of it on its file holds a piece or is attacked by the
    /// enemy, else 9 where the square in front of it is not attacked by
    /// the enemy, 5 more where an own piece defends that square; nothing
    /// where a piece stands in front of it. Times 5 less its moves to the
    /// zone (0 from 5 moves on).
    fn free_way(&self, color: Color, index: usize, board: &BoardSight) -> i32 {
        let c = color.index();
        let urgency = self.urgency(c, index);
        let Some(front) = self.front(c, index).filter(|_| urgency > 0) else {
            return 0;
        };
        if board.occupied.contains(front) {
            return 0;
        }
        let enemy = &board.attacks[1 - c];
        let clear =
            std::iter::successors(Some(front), |way| self.front(c, way.index() % SQUARE_COUNT))
                .all(|way| !enemy.contains(way) && !board.occupied.contains(way));
        let mut units = if clear {
            20
        } else if !enemy.contains(front) {
            9
        } else {
            0
        };
        if board.attacks[c].contains(front) {
            units += 5;
        }
        units * urgency
    }

    /// The royal race of a passed piece of `color` on the square of index
    /// `index`: the square in front of it, `2 e - o`, where `e` and `o` are
    /// the king steps from it to the nearest enemy and own royal piece (each
    /// at most 5), times 5 less its moves to the zone (0 from 5 moves on),
    /// as Stockfish weighs its kings' distances to a passed pawn's next
    /// square by its rank. Nothing without royal pieces on both sides.
    fn race(&self, color: Color, index: usize, royals: &[SquareSet; 2]) -> i32 {
        let c = color.index();
        let urgency = self.urgency(c, index);
        if urgency == 0 {
            return 0;
        }
        let Some(front) = self.front(c, index) else {
            return 0;
        };
        let nearest = |royals: &SquareSet| {
            royals
                .iter()
                .map(|royal| {
                    let files = (i32::from(royal.file) - i32::from(front.file)).abs();
                    let ranks = (i32::from(royal.rank) - i32::from(front.rank)).abs();
                    files.max(ranks).min(5)
                })
                .min()
        };
        match (nearest(&royals[1 - c]), nearest(&royals[c])) {
            (Some(enemy), Some(own)) => (2 * enemy - own) * urgency,
            _ => 0,
        }
    }
}

impl Structure {
    /// Of the ranks `ranks` of colour index `c`'s pawn-shaped pieces on
    /// `file`, those of passed ones: no enemy pawn-shaped piece ahead of
    /// it on its file or a neighbouring one.
    #[inline(always)]
    fn passed_ranks(&self, tally: &StructureTally, c: usize, file: usize, ranks: u16) -> u16 {
        let enemy = &tally.files[1 - c];
        let mut span = enemy[file];
        if file > 0 {
            span |= enemy[file - 1];
        }
        if file + 1 < FILES {
            span |= enemy[file + 1];
        }
        let mut passed = 0;
        let mut rest = ranks;
        while rest != 0 {
            let rank = rest.trailing_zeros();
            rest &= rest - 1;
            let ahead = if self.forward[c] > 0 {
                u16::MAX.checked_shl(rank + 1).unwrap_or(0)
            } else {
                (1u16 << rank) - 1
            };
            if span & ahead == 0 {
                passed |= 1 << rank;
            }
        }
        passed
    }

    /// Calls `passed` with the square index of each passed piece of colour
    /// index `c` on `file`. A passed piece that cannot move (its way is
    /// blocked and it has nothing to take) earns nothing for it now, and
    /// is not called.
    #[inline(always)]
    fn for_each_passed(
        &self,
        tally: &StructureTally,
        c: usize,
        file: usize,
        mut passed: impl FnMut(usize),
    ) {
        let mut rest = self.passed_ranks(tally, c, file, tally.mobile[c][file]);
        while rest != 0 {
            let rank = rest.trailing_zeros();
            rest &= rest - 1;
            passed(Square::new(file as u8, rank as u8).index() % SQUARE_COUNT);
        }
    }

    /// The passed pieces `tally` saw: per piece, its colour and its moves to
    /// the zone (for `varc tune`).
    pub(super) fn passed_moves(&self, tally: &StructureTally) -> Vec<(Color, u32)> {
        let mut found = Vec::new();
        if !self.any {
            return found;
        }
        for color in Color::ALL {
            let c = color.index();
            for file in 0..self.files {
                self.for_each_passed(tally, c, file, |index| {
                    if let Some(&d) = self.moves[c].get(index).filter(|&&d| d != u8::MAX) {
                        found.push((color, u32::from(d)));
                    }
                });
            }
        }
        found
    }

    /// The royal cover of a royal piece of `color` on `square`
    /// ([`RoyalCover`](crate::model::RoyalCover)): per file on and beside
    /// it, whether the file is beside it, then the ranks ahead of it to the
    /// nearest own and enemy pawn-shaped piece not behind it (`None`:
    /// none). Nothing without pawn-shaped kinds.
    pub(super) fn cover(
        &self,
        tally: &StructureTally,
        color: Color,
        square: Square,
    ) -> impl Iterator<Item = (bool, Option<u32>, Option<u32>)> + '_ {
        let c = color.index();
        let (file, rank) = (usize::from(square.file), u32::from(square.rank));
        let first = file.saturating_sub(1);
        let last = if self.any {
            (file + 1).min(self.files.saturating_sub(1))
        } else {
            0
        };
        let forward = self.forward[c];
        let own = tally.files[c];
        let enemy = tally.files[1 - c];
        (first..=last)
            .filter(move |_| self.any && file < self.files)
            .map(move |f| {
                let nearest = |ranks: u16| nearest_ahead(ranks, rank, forward);
                (f != file, nearest(own[f]), nearest(enemy[f]))
            })
    }
}

/// The ranks from `rank` to the nearest of `ranks` (a set of ranks) on or
/// ahead of it, going `forward` (`+1` up, `-1` down).
fn nearest_ahead(ranks: u16, rank: u32, forward: i32) -> Option<u32> {
    let ranks = u32::from(ranks);
    if forward > 0 {
        let ahead = ranks.checked_shr(rank).unwrap_or(0);
        (ahead != 0).then(|| ahead.trailing_zeros())
    } else {
        let mask = 1u32.checked_shl(rank + 1).map_or(u32::MAX, |bit| bit - 1);
        let behind = ranks & mask;
        (behind != 0).then(|| rank - (31 - behind.leading_zeros()))
    }
}

/// `Some(+1)` when a kind moving by `atoms` only goes up the ranks by
/// pawn steps, `Some(-1)` down, `None` otherwise.
fn way(atoms: &[OrientedAtom]) -> Option<i32> {
    let mut sign = None;
    for atom in atoms {
        let pawn_step = matches!(atom.motion, Motion::Leap | Motion::LameLeap)
            || (atom.first_move_only && matches!(atom.motion, Motion::Ride { .. }));
        if !pawn_step {
            return None;
        }
        for &(df, dr) in &atom.steps {
            let fits = if atom.first_move_only {
                df == 0 && dr != 0
            } else {
                df.abs() <= 1 && dr.abs() == 1
            };
            if !fits || sign.is_some_and(|s| s != dr.signum()) {
                return None;
            }
            sign = Some(dr.signum());
        }
    }
    sign
}

/// What the passed pieces' terms read of the board, per colour index.
pub(super) struct BoardSight {
    /// The royal pieces' squares.
    pub(super) royals: [SquareSet; 2],
    /// The squares each side's pieces could capture on.
    pub(super) attacks: [SquareSet; 2],
    /// Every piece's square.
    pub(super) occupied: SquareSet,
}

/// The pawn-shaped pieces of one evaluation, as they come.
#[derive(Clone, Debug)]
pub(super) struct StructureTally {
    /// `[colour][file]`: the ranks its pawn-shaped pieces stand on.
    files: Placement,
    /// `[colour][file]`: the ranks of those that can move now.
    mobile: [[u16; FILES]; 2],
}

impl StructureTally {
    pub(super) fn new() -> StructureTally {
        StructureTally {
            files: [[0; FILES]; 2],
            mobile: [[0; FILES]; 2],
        }
    }

    /// The squares of the pawn-shaped pieces, as ranks per file.
    pub(super) fn placement(&self) -> &Placement {
        &self.files
    }

    /// The one file `color`'s pawn-shaped pieces stand on, if they stand
    /// on exactly one.
    pub(super) fn only_file(&self, color: Color) -> Option<usize> {
        let mut occupied = self.files[color.index()]
            .iter()
            .enumerate()
            .filter(|(_, ranks)| **ranks != 0);
        match (occupied.next(), occupied.next()) {
            (Some((file, _)), None) => Some(file),
            _ => None,
        }
    }

    /// Whether a pawn-shaped piece of `color` stands on `file`.
    #[inline(always)]
    pub(super) fn occupies(&self, color: Color, file: usize) -> bool {
        self.files[color.index()][file % FILES] != 0
    }

    /// Counts a pawn-shaped piece of `color` on `square`, which reaches
    /// `reach` squares (moves or captures).
    #[inline(always)]
    pub(super) fn add(&mut self, square: Square, color: Color, reach: u32) {
        let file = usize::from(square.file) % FILES;
        let bit = 1u16 << (square.rank % MAX_BOARD_SIDE);
        self.files[color.index()][file] |= bit;
        if reach > 0 {
            self.mobile[color.index()][file] |= bit;
        }
    }
}
