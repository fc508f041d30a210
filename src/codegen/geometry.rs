//! Board geometry computed at generation time: dense square numbering,
//! square sets, rays, leap and lame-leap tables, and the movement
//! *components* (one motion with one absolute direction set) that the
//! generated engine turns into lookup functions.
//!
//! The generated engine numbers squares densely, `rank * files + file`, so
//! that a board of up to 64 squares fits a `u64`, up to 128 a `u128`.

use varc_runtime::model::{Color, Motion, SquareSet, Variant};

/// A set of dense square indices (up to 256), as the generator computes it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Bits(pub [u64; 4]);

impl Bits {
    /// The empty set.
    pub const EMPTY: Bits = Bits([0; 4]);

    /// The set holding only `square`.
    pub fn single(square: usize) -> Bits {
        let mut bits = Bits::EMPTY;
        bits.insert(square);
        bits
    }

    /// Adds `square`.
    pub fn insert(&mut self, square: usize) {
        self.0[square / 64] |= 1 << (square % 64);
    }

    /// Whether `square` is in the set.
    pub fn contains(&self, square: usize) -> bool {
        self.0[square / 64] >> (square % 64) & 1 == 1
    }

    /// The union.
    pub fn union(&self, other: &Bits) -> Bits {
        Bits(std::array::from_fn(|i| self.0[i] | other.0[i]))
    }

    /// The squares of `self` not in `other`.
    pub fn difference(&self, other: &Bits) -> Bits {
        Bits(std::array::from_fn(|i| self.0[i] & !other.0[i]))
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|w| *w == 0)
    }
}

/// How the generated engine stores a square set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BitboardWidth {
    /// Up to 64 squares.
    U64,
    /// Up to 128 squares.
    U128,
    /// Up to 256 squares: four 64-bit words.
    Wide,
}

/// The board as the generator sees it.
#[derive(Clone, Debug)]
pub struct Geometry {
    /// Number of files.
    pub files: usize,
    /// Number of ranks.
    pub ranks: usize,
    /// Squares of the rectangle (holes included): `files * ranks`.
    pub squares: usize,
    /// The squares that are part of the board (holes excluded).
    pub board: Bits,
}

impl Geometry {
    /// The geometry of `variant`'s board.
    pub fn new(variant: &Variant) -> Geometry {
        let files = variant.board.files as usize;
        let ranks = variant.board.ranks as usize;
        let mut board = Bits::EMPTY;
        for rank in 0..ranks {
            for file in 0..files {
                if variant.board.contains(file as i32, rank as i32) {
                    board.insert(rank * files + file);
                }
            }
        }
        Geometry {
            files,
            ranks,
            squares: files * ranks,
            board,
        }
    }

    /// The storage of square sets for this board.
    pub fn width(&self) -> BitboardWidth {
        match self.squares {
            0..=64 => BitboardWidth::U64,
            65..=128 => BitboardWidth::U128,
            _ => BitboardWidth::Wide,
        }
    }

    /// The dense index of `(file, rank)` if it is a square of the board.
    pub fn at(&self, file: i32, rank: i32) -> Option<usize> {
        if file < 0 || rank < 0 || file >= self.files as i32 || rank >= self.ranks as i32 {
            return None;
        }
        let index = rank as usize * self.files + file as usize;
        self.board.contains(index).then_some(index)
    }

    /// File and rank of a dense index.
    pub fn coords(&self, square: usize) -> (i32, i32) {
        ((square % self.files) as i32, (square / self.files) as i32)
    }

    /// A model square set converted to dense indices.
    pub fn dense_set(&self, set: &SquareSet) -> Bits {
        let mut bits = Bits::EMPTY;
        for square in set.iter() {
            if let Some(index) = self.at(square.file as i32, square.rank as i32) {
                bits.insert(index);
            }
        }
        bits
    }

    /// The squares reached from `square` by repeating `(dx, dy)`, at most
    /// `max` steps, stopping at the edge or a hole.
    pub fn ray(&self, square: usize, (dx, dy): (i32, i32), max: Option<u8>) -> Vec<usize> {
        let (file, rank) = self.coords(square);
        let limit = max.map_or(usize::MAX, usize::from);
        let mut out = Vec::new();
        if (dx, dy) == (0, 0) {
            return out;
        }
        let (mut f, mut r) = (file + dx, rank + dy);
        while out.len() < limit {
            match self.at(f, r) {
                Some(index) => out.push(index),
                None => break,
            }
            f += dx;
            r += dy;
        }
        out
    }

    /// The path of a lame leap by `(dx, dy)` from `square` (the squares that
    /// must be empty) and its target, as the model defines them
    /// ([`varc_runtime::model::lame_leap_path`]). `None` if a square is off
    /// the board.
    pub fn lame_leap(&self, square: usize, (dx, dy): (i32, i32)) -> Option<(Vec<usize>, usize)> {
        let (file, rank) = self.coords(square);
        let target = self.at(file + dx, rank + dy)?;
        let path = varc_runtime::model::lame_leap_path(dx, dy)
            .into_iter()
            .map(|(f, r)| self.at(file + f, rank + r))
            .collect::<Option<Vec<usize>>>()?;
        Some((path, target))
    }

    /// Whether stepping by `(dx, dy)` increases the dense index (then the
    /// nearest square of a ray is its lowest bit, else its highest).
    pub fn step_is_positive(&self, (dx, dy): (i32, i32)) -> bool {
        dy > 0 || (dy == 0 && dx > 0)
    }
}

/// A motion with absolute directions: what one lookup function computes.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Component {
    /// The motion.
    pub motion: ComponentMotion,
    /// Absolute directions (White's view already applied), sorted.
    pub directions: Vec<(i32, i32)>,
    /// `along REGION`: the region's squares for the mover. The component
    /// starts only there, and a square outside ends its lines as the
    /// board's edge does.
    pub along: Option<Bits>,
}

/// [`Motion`] in a form that can be hashed and ordered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ComponentMotion {
    /// Jumps to the offset.
    Leap,
    /// Rides at most `max` steps (`None`: any number).
    Ride(Option<u8>),
    /// A leap whose path must be empty.
    LameLeap,
    /// Hops a screen and lands just beyond.
    HopAdjacent,
    /// Hops a screen and lands anywhere beyond.
    HopAny,
}

impl ComponentMotion {
    /// The component motion of a model motion.
    pub fn of(motion: Motion) -> ComponentMotion {
        use varc_runtime::model::HopLanding;
        match motion {
            Motion::Leap => ComponentMotion::Leap,
            Motion::Ride { max } => ComponentMotion::Ride(max),
            Motion::LameLeap => ComponentMotion::LameLeap,
            Motion::Hop {
                landing: HopLanding::Adjacent,
            } => ComponentMotion::HopAdjacent,
            Motion::Hop {
                landing: HopLanding::Any,
            } => ComponentMotion::HopAny,
        }
    }
}

/// The absolute directions of an atom's `directions` for `color`: Black's
/// rank offsets are negated. Sorted and without repeats.
pub fn absolute_directions(directions: &[(i8, i8)], color: Color) -> Vec<(i32, i32)> {
    let sign = if color == Color::White { 1 } else { -1 };
    let mut out: Vec<(i32, i32)> = directions
        .iter()
        .map(|&(dx, dy)| (dx as i32, dy as i32 * sign))
        .filter(|d| *d != (0, 0))
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// A SplitMix64 stream: the generator's deterministic source of magic candidates.
pub struct SplitMix(pub u64);

impl SplitMix {
    /// The next 64-bit value.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}
