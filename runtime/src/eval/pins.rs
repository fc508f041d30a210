//! Pinned pieces: a side's officer that stands alone between one of its
//! royal pieces and an enemy rider that rides that line toward it (the
//! `pinned` weight). The lines are read from the model's rides, so any
//! rider of any variant pins (a rook, a bishop, a chancellor's rook part,
//! a rider of limited range within its range); leapers and hoppers do not.

use crate::board::Board;
use crate::model::{Color, Square, SquareSet};
use crate::position::{SquareIter, SQUARE_COUNT};

/// One line along which riders of one side could pin: the step from the
/// rider toward the royal piece, how many steps such riders go, and which
/// kinds they are (bit `k` for kind `k`).
#[derive(Clone, Debug, PartialEq, Eq)]
struct PinLine {
    step: (i32, i32),
    reach: i32,
    kinds: u64,
    /// Per square index: the squares from there against the step, nearest
    /// first, within the reach and the board (`rays[square]` is a range
    /// of [`PinLines::squares`]).
    rays: Vec<(u32, u32)>,
}

/// The lines of both sides' riders.
#[derive(Clone, Debug, Default)]
pub struct PinLines {
    /// By the riders' colour index.
    lines: [Vec<PinLine>; 2],
    /// The squares of every ray, as square indices.
    squares: Vec<u16>,
}

impl PinLines {
    /// Adds a ride of `kind` (of the colour `color`) by `step`, at most
    /// `reach` steps (`i32::MAX` without limit), that can capture.
    pub fn add(&mut self, color: Color, kind: usize, step: (i32, i32), reach: i32) {
        if kind >= 64 {
            return;
        }
        let lines = &mut self.lines[color.index()];
        match lines
            .iter_mut()
            .find(|line| line.step == step && line.reach == reach)
        {
            Some(line) => line.kinds |= 1 << kind,
            None => lines.push(PinLine {
                step,
                reach,
                kinds: 1 << kind,
                rays: Vec::new(),
            }),
        }
    }

    /// Lays out the rays of every line added, on a board of `files` and
    /// `ranks` whose squares are `on_board`.
    pub fn finish(&mut self, files: u8, ranks: u8, on_board: &SquareSet) {
        let squares = &mut self.squares;
        for line in self.lines.iter_mut().flatten() {
            line.rays = (0..SQUARE_COUNT)
                .map(|index| {
                    let start = squares.len() as u32;
                    let from = Square::from_index(index);
                    if on_board.contains(from) {
                        let (df, dr) = line.step;
                        let (mut file, mut rank) = (i32::from(from.file), i32::from(from.rank));
                        for _ in 0..line.reach {
                            file -= df;
                            rank -= dr;
                            if file < 0
                                || rank < 0
                                || file >= i32::from(files)
                                || rank >= i32::from(ranks)
                            {
                                break;
                            }
                            let square = Square::new(file as u8, rank as u8);
                            if !on_board.contains(square) {
                                break;
                            }
                            squares.push(square.index() as u16);
                        }
                    }
                    (start, squares.len() as u32)
                })
                .collect();
        }
    }

    /// Whether no kind rides: nothing can pin.
    pub fn is_empty(&self) -> bool {
        self.lines.iter().all(Vec::is_empty)
    }

    /// The pieces of `officers` (pieces of `color`) that stand alone
    /// between one of `color`'s royal pieces and an enemy rider riding that
    /// line toward it; `occupied` holds both sides' pieces.
    pub fn pinned<B: Board + ?Sized>(
        &self,
        position: &B,
        color: Color,
        officers: &SquareSet,
        occupied: &SquareSet,
    ) -> SquareSet {
        let mut pinned = SquareSet::EMPTY;
        let enemy = color.opponent();
        for royal in SquareIter::new(position.royals(color)) {
            for line in &self.lines[enemy.index()] {
                let Some(&(start, end)) = line.rays.get(royal) else {
                    continue;
                };
                let ray = self
                    .squares
                    .get(start as usize..end as usize)
                    .unwrap_or(&[]);
                let mut standing = ray
                    .iter()
                    .map(|&index| usize::from(index))
                    .filter(|&index| occupied.contains_index(index));
                let Some(blocker) = standing.next().filter(|&i| officers.contains_index(i)) else {
                    continue;
                };
                let Some(pinner) = standing.next() else {
                    continue;
                };
                if let Some((kind, owner)) = position.occupant(Square::from_index(pinner)) {
                    if owner == enemy && kind < 64 && line.kinds >> kind & 1 == 1 {
                        pinned.insert(Square::from_index(blocker));
                    }
                }
            }
        }
        pinned
    }
}
