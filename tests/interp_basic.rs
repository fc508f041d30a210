//! Basic checks of the reference interpreter on the bundled chess rules.

mod common;

use varc_runtime::fen::{parse_fen, write_fen};
use varc_runtime::perft::perft;

#[test]
fn chess_start_position_perft_depth_4() {
    let rules = common::rules("chess");
    let variant = varc_runtime::rules::Rules::variant(&rules);
    let position = parse_fen(variant, &variant.start_fen).expect("start FEN reads");
    assert_eq!(write_fen(variant, &position), variant.start_fen);
    assert_eq!(perft(&rules, &position, 1), 20);
    assert_eq!(perft(&rules, &position, 2), 400);
    assert_eq!(perft(&rules, &position, 3), 8902);
    assert_eq!(perft(&rules, &position, 4), 197281);
}
