//! The learned correction of the evaluation (`varc tune --network`): a
//! weights file's `network` lines read, apply and write back unchanged;
//! bad lines are refused with their line and change nothing; the network
//! adds its output to the evaluation, from White's side, by the pieces on
//! the board.

mod common;

use varc_runtime::eval::network::{Network, ACTIVATION_ONE};
use varc_runtime::model::Variant;
use varc_runtime::weights::WeightsFile;

fn kind(variant: &Variant, name: &str) -> usize {
    variant
        .pieces
        .iter()
        .position(|p| p.name == name)
        .unwrap_or_else(|| panic!("no piece {name}"))
}

/// A two-unit network: unit 0 is fully on while White's king stands on e1
/// (worth `+40` to White), unit 1 half on per Black knight on its start
/// squares, clipped at one (worth `-30`).
fn small_network(variant: &Variant) -> Network {
    let hidden = 2;
    let mut inputs = vec![0; Network::input_count(variant) * hidden];
    let king = Network::input(variant, kind(variant, "king"), 0, 4, 0);
    inputs[king * hidden] = ACTIVATION_ONE as i16;
    let knight = kind(variant, "knight");
    for file in [1, 6] {
        let input = Network::input(variant, knight, 1, file, 7);
        inputs[input * hidden + 1] = (ACTIVATION_ONE / 2) as i16;
    }
    Network {
        hidden,
        inputs,
        biases: vec![0, 0],
        outputs: vec![40, -30],
        output_bias: 3,
    }
}

#[test]
fn the_network_adds_its_output_for_white_by_the_pieces_on_the_board() {
    let plain = common::variant("chess");
    let mut learned = plain.clone();
    learned.network = Some(small_network(&plain));
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let difference =
        |fen: &str| common::white_evaluation(&learned, fen) - common::white_evaluation(&plain, fen);
    // Both units on: +40 - 30 + 3.
    assert_eq!(difference(start), 13);
    // The same with Black to move: the network speaks for White.
    assert_eq!(
        difference("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"),
        13
    );
    // The king off e1: unit 0 off.
    assert_eq!(
        difference("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1KNR w kq - 0 1") - difference(start),
        -40
    );
    // One black knight gone from its square: unit 1 half on.
    assert_eq!(
        difference("r1bqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        40 - 15 + 3
    );
}

#[test]
fn network_lines_read_apply_and_write_back_unchanged() {
    let plain = common::variant("chess");
    let mut learned = plain.clone();
    learned.network = Some(small_network(&plain));
    let text = WeightsFile::write(&learned, "a test");
    assert!(text.contains("network = 2\n"), "{text}");
    assert!(text.contains("network king white e1 = 64 0\n"), "{text}");
    assert!(text.contains("network knight black g8 = 0 32\n"), "{text}");
    // Rows of zeros are left out.
    assert!(!text.contains("network pawn"), "{text}");
    let mut read = plain.clone();
    WeightsFile::parse(&text)
        .expect("the file reads")
        .apply(&mut read)
        .expect("the file applies");
    assert_eq!(read.network, learned.network);
    assert_eq!(WeightsFile::write(&read, "a test"), text);
}

#[test]
fn bad_network_lines_are_refused_with_their_line_and_change_nothing() {
    let plain = common::variant("chess");
    let cases = [
        ("network = 0\n", 1, "1 to 128 hidden units"),
        (
            "network = 2\nnetwork-biases = 0 0\nnetwork-outputs = 1 2\nnetwork king white e1 = 1\n",
            4,
            "1 weights for 2",
        ),
        ("network king white e1 = 1 2\n", 1, "must come first"),
        (
            "network = 2\nnetwork-biases = 0 0\nnetwork-outputs = 1 2\nnetwork dragon white e1 = 1 2\n",
            4,
            "no piece `dragon`",
        ),
        (
            "network = 2\nnetwork-biases = 0 0\nnetwork-outputs = 1 2\nnetwork king white i1 = 1 2\n",
            4,
            "no such square",
        ),
        (
            "network = 2\nnetwork-biases = 0 0\nnetwork-outputs = 1 2\nnetwork king red e1 = 1 2\n",
            4,
            "not white or black",
        ),
        ("network = 2\nnetwork-biases = 0\nnetwork-outputs = 1 2\n", 2, "1 biases for 2"),
        ("network = 2\nnetwork-biases = 0 0\n", 1, "network-outputs"),
        ("network = 2\nnetwork-outputs = 1 99999\n", 2, "-32768 to 32767"),
    ];
    for (text, line, message) in cases {
        let mut variant = plain.clone();
        let error = WeightsFile::parse(text)
            .and_then(|file| file.apply(&mut variant))
            .expect_err(text);
        assert_eq!(error.line, line, "{text}: {error}");
        assert!(error.to_string().contains(message), "{text}: {error}");
        assert_eq!(variant, plain, "{text}: the variant is unchanged");
    }
}
