//! Position identities: the placement hash that IRC compares and the
//! Laws-of-Chess identity that repetition rules count.
//!
//! Keys are Zobrist-style: every (kind, colour, square) has a fixed random
//! 64-bit key (from a SplitMix64 mix of its index, so no table is stored),
//! and a placement hashes to the XOR of the keys of its pieces. Hashes only
//! select candidates: every comparison that decides a rule is then checked
//! exactly ([`Identity::same_as`], [`Board::same_placement`]).

use crate::board::Board;
use crate::model::Color;
use crate::model::SquareSet;
use crate::moves::MoveKind;
use crate::rules::Rules;

/// SplitMix64: a fixed, well-mixed 64-bit value for each input.
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

const PIECE_DOMAIN: u64 = 0;
const SIDE_DOMAIN: u64 = 1 << 40;
const CASTLING_DOMAIN: u64 = 2 << 40;
const EN_PASSANT_DOMAIN: u64 = 3 << 40;
const COUNTER_DOMAIN: u64 = 4 << 40;

/// The hash of the placement alone: which kinds of which colours stand on
/// which squares (P7's "placement": promoted kinds are kinds of their own;
/// side to move, castling, en passant and per-piece state are ignored).
///
/// ```
/// use varc_runtime::game::placement_hash;
/// use varc_runtime::model::{Color, Square};
/// use varc_runtime::position::{Piece, Position};
/// let mut a = Position::empty(8, 8, 0);
/// a.set_piece(Square::new(4, 0), Some(Piece::new(0, Color::White, true)));
/// let mut b = a.clone();
/// b.set_side_to_move(Color::Black);
/// assert_eq!(placement_hash(&a), placement_hash(&b));
/// ```
pub fn placement_hash(position: &impl Board) -> u64 {
    position.pieces().fold(0, |hash, (square, piece)| {
        let index = (piece.kind() as u64) << 9 | (piece.color().index() as u64) << 8;
        hash ^ mix(PIECE_DOMAIN | index | square.index() as u64)
    })
}

/// The Laws-of-Chess identity of a position: placement, side to move,
/// castling rights and the en passant possibility. An en passant square
/// counts only when an en passant capture is legal (FIDE 9.2.2). The
/// counters that FEN writes (3check's checks) are part of it too, as
/// Fairy-Stockfish's position key holds the checks remaining.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Identity {
    /// [`placement_hash`] combined with the other parts.
    pub hash: u64,
    side_to_move: Color,
    castling: [u16; 2],
    en_passant: Option<SquareSet>,
    /// The counts of the counters FEN writes, White's then Black's for
    /// each (empty in most variants).
    fen_counters: Vec<u32>,
    /// The pieces in hand: side, kind, count for each kind held (empty
    /// without hands). The hands are part of the position, as in
    /// Fairy-Stockfish's key.
    hands: Vec<(Color, usize, u32)>,
}

impl Identity {
    /// The identity of `position`, whose legal moves under `rules` are
    /// `legal`.
    pub fn of<R: Rules + ?Sized>(rules: &R, position: &R::Position, legal: &[R::Move]) -> Identity {
        let en_passant = position
            .en_passant()
            .filter(|_| {
                legal
                    .iter()
                    .any(|mv| matches!(rules.move_kind(mv), MoveKind::EnPassant { .. }))
            })
            .map(|ep| ep.targets);
        let castling = [
            position.castling_rights(Color::White),
            position.castling_rights(Color::Black),
        ];
        let mut hash = rules.placement_hash(position);
        if position.side_to_move() == Color::Black {
            hash ^= mix(SIDE_DOMAIN);
        }
        hash ^= mix(CASTLING_DOMAIN | (castling[0] as u64) << 16 | castling[1] as u64);
        if let Some(targets) = en_passant {
            for square in targets.iter() {
                hash ^= mix(EN_PASSANT_DOMAIN | square.index() as u64);
            }
        }
        let fen_counters: Vec<u32> = rules
            .variant()
            .counters
            .iter()
            .enumerate()
            .filter(|(_, counter)| counter.fen_countdown.is_some())
            .flat_map(|(id, _)| {
                Color::ALL.map(|color| position.counters(color).get(id).copied().unwrap_or(0))
            })
            .collect();
        for (index, count) in fen_counters.iter().enumerate() {
            hash ^= mix(COUNTER_DOMAIN | (index as u64) << 32 | u64::from(*count));
        }
        let kinds = rules.variant().pieces.len();
        let hands: Vec<(Color, usize, u32)> = Color::ALL
            .iter()
            .flat_map(|&color| (0..kinds).map(move |kind| (color, kind)))
            .map(|(color, kind)| (color, kind, position.in_hand(color, kind)))
            .filter(|&(_, _, count)| count > 0)
            .collect();
        hash ^= crate::search::tt::hands_key(position);
        Identity {
            hash,
            side_to_move: position.side_to_move(),
            castling,
            en_passant,
            fen_counters,
            hands,
        }
    }

    /// The identity of `position` under `rules` (generates its legal moves).
    pub fn compute<R: Rules + ?Sized>(rules: &R, position: &R::Position) -> Identity {
        Identity::of(rules, position, &rules.legal_moves(position))
    }

    /// Whether two positions with these identities are the same position
    /// under the Laws of Chess; `a` and `b` are the positions themselves,
    /// compared exactly (the hash only rules out most pairs quickly).
    pub fn same_as<P: Board>(&self, a: &P, other: &Identity, b: &P) -> bool {
        self.hash == other.hash
            && self.side_to_move == other.side_to_move
            && self.castling == other.castling
            && self.en_passant == other.en_passant
            && self.fen_counters == other.fen_counters
            && self.hands == other.hands
            && a.same_placement(b)
    }
}
