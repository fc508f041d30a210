//! Per-piece, per-square tables built once from the model: where each
//! movement atom of each kind leads from each square (forward probes), and
//! from where each square can be attacked (attack probes).
//!
//! A probe is a list of squares in travel order plus how to read it:
//! - `Leap`: one square, the target;
//! - `LameLeap`: the path squares that must be empty, then the target;
//! - `Ride`: the squares of the ride, nearest first, cut at `max` steps;
//! - `Hop*`: the squares along the direction to the board's edge.
//!
//! Directions in the model are relative to the mover (positive ranks are
//! forward); the tables hold absolute squares, so Black's rank offsets are
//! negated here once. A hole of the board ends a ride or a hop and may not be
//! part of a lame leap's path; so does a square outside an atom's `along`
//! region (and a probe of such an atom starts only inside it).

use std::collections::HashMap;
use varc_runtime::model::{
    lame_leap_path, AtomCondition, AtomLimits, Board, Color, HopLanding, Motion, MoveMode, PieceId,
    Square, SquareSet, Variant,
};

/// How a probe's squares are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Reach {
    Leap,
    LameLeap,
    Ride,
    HopAdjacent,
    HopAny,
}

/// One atom in one direction from one square.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Probe {
    pub reach: Reach,
    pub mode: MoveMode,
    pub condition: AtomCondition,
    /// Bit `k` set: a hop's screen may not be of kind `k` (`not over`).
    pub not_over: u64,
    /// Bit `k` set: no capture of kind `k` (`not capturing`).
    pub not_capturing: u64,
    /// `not from check`: not while the mover's side is in check.
    pub not_from_check: bool,
    pub start: u32,
    pub len: u32,
}

/// From where a square is attacked along one line: the squares read
/// outwards from the attacked square, and the kinds that attack that way.
#[derive(Clone, Copy, Debug)]
pub(crate) struct AttackProbe {
    pub reach: Reach,
    /// Bit `k` set: pieces of kind `k` attack along this probe.
    pub kinds: u64,
    pub condition: AtomCondition,
    /// As [`Probe::not_over`].
    pub not_over: u64,
    /// As [`Probe::not_capturing`].
    pub not_capturing: u64,
    pub start: u32,
    pub len: u32,
}

/// The tables of one variant.
#[derive(Clone, Debug)]
pub(crate) struct Tables {
    pub probes: Vec<Probe>,
    pub probe_squares: Vec<u8>,
    /// `(kind * 2 + color) * 256 + square` -> range of `probes`.
    pub piece_probes: Vec<(u32, u32)>,
    /// Same key -> whether two probes can reach the same square (a compound
    /// mover such as rook + king step): its moves must be deduplicated.
    pub may_repeat: Vec<bool>,
    pub attack_probes: Vec<AttackProbe>,
    pub attack_squares: Vec<u8>,
    /// `color * 256 + square` -> range of `attack_probes` (attacks by `color`).
    pub attack_index: Vec<(u32, u32)>,
}

/// The key of a piece's probes.
#[inline]
pub(crate) fn piece_key(kind: usize, color: Color, square: usize) -> usize {
    (kind * 2 + color.index()) * 256 + square
}

fn reach_of(motion: Motion) -> Reach {
    match motion {
        Motion::Leap => Reach::Leap,
        Motion::LameLeap => Reach::LameLeap,
        Motion::Ride { .. } => Reach::Ride,
        Motion::Hop {
            landing: HopLanding::Adjacent,
        } => Reach::HopAdjacent,
        Motion::Hop {
            landing: HopLanding::Any,
        } => Reach::HopAny,
    }
}

fn on_board(board: &Board, file: i32, rank: i32) -> Option<u8> {
    board
        .contains(file, rank)
        .then(|| Square::new(file as u8, rank as u8).index() as u8)
}

/// The path squares of a lame leap by `(dx, dy)` from `(file, rank)`
/// ([`lame_leap_path`]). `None` if a path square is off the board.
fn lame_path(board: &Board, file: i32, rank: i32, dx: i32, dy: i32) -> Option<Vec<u8>> {
    lame_leap_path(dx, dy)
        .into_iter()
        .map(|(f, r)| on_board(board, file + f, rank + r))
        .collect()
}

/// A probe's squares under an `along` region (`inside`: its squares for
/// the mover): a leap's or lame leap's squares all inside or none, a
/// line cut at its first square outside. `first` is the square the
/// probe is read from (the mover's, or the attacked one), which must be
/// inside too.
fn keep_along(motion: Motion, inside: &SquareSet, first: u8, squares: Vec<u8>) -> Vec<u8> {
    let within = |s: &u8| inside.contains(Square::from_index(*s as usize));
    if !within(&first) {
        return Vec::new();
    }
    match motion {
        Motion::Leap | Motion::LameLeap => {
            if squares.iter().all(within) {
                squares
            } else {
                Vec::new()
            }
        }
        Motion::Ride { .. } | Motion::Hop { .. } => {
            squares.into_iter().take_while(within).collect()
        }
    }
}

/// The kinds of a list as bits.
fn kind_bits(kinds: &[PieceId]) -> u64 {
    kinds.iter().fold(0, |bits, k| bits | 1u64 << k)
}

/// A probe's squares, cut to the atom's `along` region for `color`.
fn limited(
    variant: &Variant,
    limits: &AtomLimits,
    motion: Motion,
    color: Color,
    first: usize,
    squares: Vec<u8>,
) -> Vec<u8> {
    match limits.along.and_then(|r| variant.regions.get(r)) {
        Some(region) => keep_along(motion, region.for_side(color), first as u8, squares),
        None => squares,
    }
}

/// The squares of a probe of `motion` by `(dx, dy)` (absolute) from
/// `(file, rank)`, in travel order; empty if the probe leads nowhere.
fn forward_squares(
    board: &Board,
    motion: Motion,
    file: i32,
    rank: i32,
    dx: i32,
    dy: i32,
) -> Vec<u8> {
    match motion {
        Motion::Leap => on_board(board, file + dx, rank + dy).into_iter().collect(),
        Motion::LameLeap => match (
            lame_path(board, file, rank, dx, dy),
            on_board(board, file + dx, rank + dy),
        ) {
            (Some(mut path), Some(target)) => {
                path.push(target);
                path
            }
            _ => Vec::new(),
        },
        Motion::Ride { max } => ray(board, file, rank, dx, dy, max.map_or(u32::MAX, u32::from)),
        Motion::Hop { .. } => ray(board, file, rank, dx, dy, u32::MAX),
    }
}

fn ray(board: &Board, file: i32, rank: i32, dx: i32, dy: i32, max: u32) -> Vec<u8> {
    let mut out = Vec::new();
    if dx == 0 && dy == 0 {
        return out;
    }
    let (mut f, mut r) = (file + dx, rank + dy);
    while (out.len() as u32) < max {
        match on_board(board, f, r) {
            Some(index) => out.push(index),
            None => break,
        }
        f += dx;
        r += dy;
    }
    out
}

fn condition_key(condition: AtomCondition) -> usize {
    match condition {
        AtomCondition::Always => 0,
        AtomCondition::FirstMove => 1,
        AtomCondition::InRegion(region) => 2 + region,
    }
}

impl Tables {
    /// Builds the tables of `variant`. Kinds must be fewer than 64.
    pub(crate) fn new(variant: &Variant) -> Tables {
        let board = &variant.board;
        let kinds = variant.pieces.len();
        let mut probes = Vec::new();
        let mut probe_squares = Vec::new();
        let mut piece_probes = vec![(0u32, 0u32); kinds * 2 * 256];
        let mut may_repeat = vec![false; kinds * 2 * 256];
        for (kind, piece) in variant.pieces.iter().enumerate() {
            for color in Color::ALL {
                let sign = if color == Color::White { 1 } else { -1 };
                for square in board.squares().iter() {
                    let first = probes.len() as u32;
                    for atom in &piece.moves {
                        for &(dx, dy) in &atom.directions {
                            let (dx, dy) = (dx as i32, dy as i32 * sign);
                            let squares = forward_squares(
                                board,
                                atom.motion,
                                square.file as i32,
                                square.rank as i32,
                                dx,
                                dy,
                            );
                            let squares = limited(
                                variant,
                                &atom.limits,
                                atom.motion,
                                color,
                                square.index(),
                                squares,
                            );
                            if squares.is_empty() {
                                continue;
                            }
                            probes.push(Probe {
                                reach: reach_of(atom.motion),
                                mode: atom.mode,
                                condition: atom.condition,
                                not_over: kind_bits(&atom.limits.not_over),
                                not_capturing: kind_bits(&atom.limits.not_capturing),
                                not_from_check: atom.limits.not_from_check,
                                start: probe_squares.len() as u32,
                                len: squares.len() as u32,
                            });
                            probe_squares.extend(squares);
                        }
                    }
                    let key = piece_key(kind, color, square.index());
                    piece_probes[key] = (first, probes.len() as u32);
                    let mut reached = [false; 256];
                    for probe in &probes[first as usize..] {
                        let squares = &probe_squares
                            [probe.start as usize..(probe.start + probe.len) as usize];
                        let targets = match probe.reach {
                            Reach::Leap | Reach::LameLeap => &squares[squares.len() - 1..],
                            _ => squares,
                        };
                        for t in targets {
                            may_repeat[key] |= reached[*t as usize];
                            reached[*t as usize] = true;
                        }
                    }
                }
            }
        }

        let mut attack_probes = Vec::new();
        let mut attack_squares = Vec::new();
        let mut attack_index = vec![(0u32, 0u32); 2 * 256];
        for color in Color::ALL {
            let sign = if color == Color::White { 1 } else { -1 };
            for target in board.squares().iter() {
                let (tf, tr) = (target.file as i32, target.rank as i32);
                // (reach, condition, limits, squares) -> index into `merged`.
                type Key = (Reach, usize, (u64, u64), Vec<u8>);
                type Merged = (Reach, AtomCondition, (u64, u64), Vec<u8>, u64);
                let mut seen: HashMap<Key, usize> = HashMap::new();
                let mut merged: Vec<Merged> = Vec::new();
                for (kind, piece) in variant.pieces.iter().enumerate() {
                    for atom in piece.moves.iter().filter(|a| a.mode != MoveMode::MoveOnly) {
                        for &(dx, dy) in &atom.directions {
                            let (dx, dy) = (dx as i32, dy as i32 * sign);
                            let squares = reverse_squares(board, atom.motion, tf, tr, dx, dy);
                            let squares = limited(
                                variant,
                                &atom.limits,
                                atom.motion,
                                color,
                                target.index(),
                                squares,
                            );
                            if squares.is_empty() {
                                continue;
                            }
                            let reach = reach_of(atom.motion);
                            let limits = (
                                kind_bits(&atom.limits.not_over),
                                kind_bits(&atom.limits.not_capturing),
                            );
                            let key = (reach, condition_key(atom.condition), limits, squares);
                            let slot = *seen.entry(key.clone()).or_insert_with(|| {
                                merged.push((reach, atom.condition, limits, key.3.clone(), 0));
                                merged.len() - 1
                            });
                            merged[slot].4 |= 1u64 << kind;
                        }
                    }
                }
                let first = attack_probes.len() as u32;
                for (reach, condition, (not_over, not_capturing), squares, kinds) in merged {
                    attack_probes.push(AttackProbe {
                        reach,
                        kinds,
                        condition,
                        not_over,
                        not_capturing,
                        start: attack_squares.len() as u32,
                        len: squares.len() as u32,
                    });
                    attack_squares.extend(squares);
                }
                attack_index[color.index() * 256 + target.index()] =
                    (first, attack_probes.len() as u32);
            }
        }
        Tables {
            probes,
            probe_squares,
            piece_probes,
            may_repeat,
            attack_probes,
            attack_squares,
            attack_index,
        }
    }

    /// The probes of a piece of `kind` and `color` on `square`.
    #[inline]
    pub(crate) fn probes_of(&self, kind: PieceId, color: Color, square: usize) -> &[Probe] {
        let (a, b) = self.piece_probes[piece_key(kind, color, square)];
        &self.probes[a as usize..b as usize]
    }

    /// The squares of a probe.
    #[inline]
    pub(crate) fn squares_of(&self, probe: &Probe) -> &[u8] {
        &self.probe_squares[probe.start as usize..(probe.start + probe.len) as usize]
    }

    /// The attack probes onto `square` for attacker `color`.
    #[inline]
    pub(crate) fn attacks_onto(&self, color: Color, square: usize) -> &[AttackProbe] {
        let (a, b) = self.attack_index[color.index() * 256 + square];
        &self.attack_probes[a as usize..b as usize]
    }

    /// The squares of an attack probe.
    #[inline]
    pub(crate) fn attack_squares_of(&self, probe: &AttackProbe) -> &[u8] {
        &self.attack_squares[probe.start as usize..(probe.start + probe.len) as usize]
    }
}

/// The squares read outwards from an attacked square for an atom whose
/// absolute offset is `(dx, dy)`:
/// - leap: `[attacker square]`;
/// - lame leap: `[attacker square, path squares...]`;
/// - ride and hops: the squares from the target backwards along the line.
fn reverse_squares(board: &Board, motion: Motion, tf: i32, tr: i32, dx: i32, dy: i32) -> Vec<u8> {
    match motion {
        Motion::Leap => on_board(board, tf - dx, tr - dy).into_iter().collect(),
        Motion::LameLeap => {
            let (ff, fr) = (tf - dx, tr - dy);
            match (on_board(board, ff, fr), lame_path(board, ff, fr, dx, dy)) {
                (Some(from), Some(path)) => std::iter::once(from).chain(path).collect(),
                _ => Vec::new(),
            }
        }
        Motion::Ride { max } => ray(board, tf, tr, -dx, -dy, max.map_or(u32::MAX, u32::from)),
        Motion::Hop { .. } => ray(board, tf, tr, -dx, -dy, u32::MAX),
    }
}
