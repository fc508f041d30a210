//! G1: every position reached by seeded random playouts in each bundled
//! variant is written as FEN and read back exactly.

mod common;

use varc::interp::Interpreter;
use varc_runtime::fen::{parse_fen, write_fen};
use varc_runtime::model::{AtomCondition, Color};
use varc_runtime::notation::{long_algebraic, parse_move};
use varc_runtime::position::Position;
use varc_runtime::rules::Rules;

/// Positions checked per variant.
const POSITIONS: usize = 10_000;
/// Longest playout before starting again from the start position.
const MAX_PLIES: usize = 160;

/// A small deterministic generator (xorshift64*), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n
    }
}

/// The state a FEN must carry, compared field by field. The unmoved flag is
/// compared only for kinds whose movement reads it (first-move atoms): for
/// other kinds it is derived from the start position and castling rights.
fn assert_same(rules: &Interpreter, a: &Position, b: &Position, fen: &str) {
    let variant = rules.variant();
    assert_eq!(a.side_to_move(), b.side_to_move(), "{fen}");
    for color in Color::ALL {
        assert_eq!(a.castling_rights(color), b.castling_rights(color), "{fen}");
    }
    assert_eq!(a.en_passant(), b.en_passant(), "{fen}");
    assert_eq!(a.halfmove_clock(), b.halfmove_clock(), "{fen}");
    assert_eq!(a.fullmove_number(), b.fullmove_number(), "{fen}");
    let pieces_a: Vec<_> = a.pieces().collect();
    let pieces_b: Vec<_> = b.pieces().collect();
    assert_eq!(pieces_a.len(), pieces_b.len(), "{fen}");
    for ((sa, pa), (sb, pb)) in pieces_a.into_iter().zip(pieces_b) {
        assert_eq!(
            (sa, pa.kind(), pa.color()),
            (sb, pb.kind(), pb.color()),
            "{fen}"
        );
        assert_eq!(pa.is_royal(), pb.is_royal(), "{fen}");
        if varc_runtime::moves::tracks_history(variant) {
            assert_eq!(pa.lineage(), pb.lineage(), "{fen}");
        }
        let reads_unmoved = variant.pieces[pa.kind()]
            .moves
            .iter()
            .any(|atom| atom.condition == AtomCondition::FirstMove);
        if reads_unmoved {
            assert_eq!(pa.is_unmoved(), pb.is_unmoved(), "{fen} {sa}");
        }
    }
    let moves = |p: &Position| {
        let legal = rules.legal_moves(p);
        let mut text: Vec<String> = legal
            .iter()
            .map(|m| long_algebraic(variant, m, &legal))
            .collect();
        text.sort();
        text
    };
    assert_eq!(
        moves(a),
        moves(b),
        "legal moves differ after reading back {fen}"
    );
}

fn round_trip_playouts(file: &str, seed: u64) {
    let rules = common::rules(file);
    let variant = rules.variant();
    let start = parse_fen(variant, &variant.start_fen).expect("the start position reads");
    let mut rng = Rng(seed);
    let mut position = start.clone();
    let mut plies = 0;
    for _ in 0..POSITIONS {
        let fen = write_fen(variant, &position);
        let read = parse_fen(variant, &fen)
            .unwrap_or_else(|e| panic!("{file}: cannot read back {fen}: {e}"));
        assert_eq!(
            write_fen(variant, &read),
            fen,
            "{file}: FEN changes on a second round"
        );
        assert_same(&rules, &position, &read, &fen);
        let legal = rules.legal_moves(&position);
        if legal.is_empty() || plies >= MAX_PLIES {
            position = start.clone();
            plies = 0;
            continue;
        }
        let mv = legal[rng.below(legal.len())];
        // Every move's long algebraic text reads back as that move.
        let text = long_algebraic(variant, &mv, &legal);
        assert_eq!(
            parse_move(&rules, &position, &text),
            Ok(mv),
            "{file}: {fen}: {text}"
        );
        let san = varc_runtime::notation::san(&rules, &position, &mv);
        assert_eq!(
            parse_move(&rules, &position, &san),
            Ok(mv),
            "{file}: {fen}: SAN {san}"
        );
        position = rules.play(&position, &mv);
        plies += 1;
    }
}

#[test]
fn g1_chess_fen_round_trip() {
    round_trip_playouts("chess", 1);
}

#[test]
fn g1_ppc_fen_round_trip() {
    round_trip_playouts("ppc", 2);
}

#[test]
fn g1_kingcapture_fen_round_trip() {
    round_trip_playouts("kingcapture", 3);
}

#[test]
fn g1_alternate_scoring_fen_round_trip() {
    round_trip_playouts("alternate-scoring", 4);
}

#[test]
fn g1_capablanca_fen_round_trip() {
    round_trip_playouts("capablanca", 5);
}

#[test]
fn g1_losalamos_fen_round_trip() {
    round_trip_playouts("losalamos", 6);
}

#[test]
fn g1_chess99_fen_round_trip() {
    round_trip_playouts("chess99", 7);
}

#[test]
fn g1_chess99_mini_fen_round_trip() {
    round_trip_playouts("chess99-mini", 8);
}

/// Fairy-Stockfish's short form `BOARD w 0 1` (no castling or en passant
/// field) reads as `BOARD w - - 0 1`; a field that is neither stays an
/// error.
#[test]
fn fen_short_form_without_castling_and_en_passant_reads() {
    let variant = common::variant("chess");
    let board = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";
    for (short, full) in [
        (format!("{board} w 0 1"), format!("{board} w - - 0 1")),
        (format!("{board} b 7 30"), format!("{board} b - - 7 30")),
        (format!("{board} w 5"), format!("{board} w - - 5 1")),
    ] {
        let position = parse_fen(&variant, &short).unwrap_or_else(|e| panic!("{short}: {e}"));
        assert_eq!(write_fen(&variant, &position), full, "{short}");
    }
    assert!(parse_fen(&variant, &format!("{board} w 0 x")).is_err());
    assert!(parse_fen(&variant, &format!("{board} w 0 1 2")).is_err());
}
