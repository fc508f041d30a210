//! The interpreter and a compiled engine search alike: at a fixed depth,
//! from several positions of several variants, `go depth N` over UCI gives
//! the same best move, score, principal variation and node count. Moves are
//! searched in a canonical order (not the back end's generation order), so
//! the two searches walk the same tree; any difference in legal moves,
//! make/unmake, hashing of repetitions, evaluation or game rules below the
//! root shows up here.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};

/// The last `info` line with a score and the `bestmove` line of a search.
fn search(program: &Path, args: &[&str], position: &str, depth: u32) -> (String, String) {
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the engine starts");
    let script = format!("uci\nposition {position}\ngo depth {depth}\n");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin
        .write_all(script.as_bytes())
        .expect("the script is written");
    // Input stays open until `bestmove`: at the end of input a search gets
    // only a short grace before it is stopped, and a loaded machine could
    // stop one back end's search short of the depth.
    let stdout = child.stdout.take().expect("stdout");
    let mut lines = Vec::new();
    for line in BufReader::new(stdout).lines() {
        let line = line.expect("engine output");
        let done = line.starts_with("bestmove");
        lines.push(line);
        if done {
            break;
        }
    }
    drop(stdin);
    child.wait().expect("the engine ends");
    let text = lines.join("\n");
    let info = text
        .lines()
        .rfind(|line| line.starts_with("info depth") && line.contains(" score "))
        .unwrap_or_default();
    // Time and speed differ; what the search found must not.
    let found: Vec<&str> = info.split_whitespace().collect();
    let kept: Vec<String> = found
        .iter()
        .enumerate()
        .filter(|(i, word)| {
            let previous = i.checked_sub(1).map(|p| found[p]);
            !matches!(**word, "nps" | "time" | "hashfull")
                && !matches!(previous, Some("nps" | "time" | "hashfull"))
        })
        .map(|(_, word)| word.to_string())
        .collect();
    let best = text
        .lines()
        .find(|line| line.starts_with("bestmove"))
        .unwrap_or_default()
        .to_string();
    (kept.join(" "), best)
}

fn check(variant_name: &str, positions: &[(&str, u32)]) {
    let variant = common::variant(variant_name);
    let compiled = common::engine(&variant);
    let rules_file = common::variants_dir().join(format!("{variant_name}.rules"));
    let rules_file = rules_file.to_string_lossy().into_owned();
    let interpreter = Path::new(env!("CARGO_BIN_EXE_varc"));
    for (position, depth) in positions {
        let by_interpreter = search(interpreter, &["uci", &rules_file], position, *depth);
        let by_compiled = search(&compiled, &["uci"], position, *depth);
        assert!(
            by_interpreter.0.contains(" nodes ") && by_interpreter.1.starts_with("bestmove "),
            "{variant_name} {position}: no search result: {by_interpreter:?}"
        );
        assert_eq!(
            by_compiled, by_interpreter,
            "{variant_name}, {position}, depth {depth}: compiled vs interpreter"
        );
    }
}

/// The `info string key` line `d` prints after each line of `moves` from
/// `start`.
fn keys(program: &Path, args: &[&str], start: &str, moves: &[&str]) -> Vec<String> {
    let mut script = String::new();
    for played in 0..=moves.len() {
        let line = moves[..played].join(" ");
        script += &format!("position {start} moves {line}\nd\n");
    }
    script += "quit\n";
    let output = common::run_with_input(program, args, &script);
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter(|line| line.starts_with("info string key "))
        .map(str::to_string)
        .collect()
}

#[test]
fn transposition_keys_agree_through_castling_en_passant_and_promotion() {
    let chess = common::variant("chess");
    let compiled = common::engine(&chess);
    let rules_file = common::variants_dir().join("chess.rules");
    let rules_file = rules_file.to_string_lossy().into_owned();
    let interpreter = Path::new(env!("CARGO_BIN_EXE_varc"));
    // Every move legal: an en passant capture, castling both ways, a
    // double step giving an en passant square, a capturing promotion and
    // one more promotion.
    let start = "fen r3k2r/1P6/8/3pP3/6p1/8/5P2/R3K2R w KQkq d6 0 1";
    let moves = [
        "e5d6", "e8g8", "f2f4", "g4f3", "b7a8q", "f8a8", "e1c1", "f3f2", "d6d7", "f2f1q",
    ];
    let by_interpreter = keys(interpreter, &["uci", &rules_file], start, &moves);
    let by_compiled = keys(&compiled, &["uci"], start, &moves);
    assert_eq!(by_interpreter.len(), moves.len() + 1, "{by_interpreter:?}");
    let distinct: std::collections::HashSet<&String> = by_interpreter.iter().collect();
    assert_eq!(distinct.len(), by_interpreter.len(), "{by_interpreter:?}");
    assert_eq!(by_compiled, by_interpreter);
}

#[test]
fn chess_searches_agree() {
    check(
        "chess",
        &[
            ("startpos", 5),
            (
                "fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                4,
            ),
            ("fen 8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 6),
            ("startpos moves e2e4 d7d5 e4d5 d8d5 b1c3", 4),
        ],
    );
}

#[test]
fn ppc_searches_agree() {
    // PPC: territories, piece promotion, IRC, the null game rules.
    check(
        "ppc",
        &[
            ("startpos", 4),
            ("startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6", 4),
            ("fen 4k3/8/8/8/8/8/8/R3K3 w - - 0 1", 5),
        ],
    );
}

#[test]
fn capture_the_king_and_alternate_scoring_searches_agree() {
    check(
        "kingcapture",
        &[("startpos", 4), ("startpos moves e2e4 f7f6 d1h5", 4)],
    );
    check("alternate-scoring", &[("startpos", 4)]);
}

#[test]
fn capablanca_los_alamos_and_chess99_searches_agree() {
    check("capablanca", &[("startpos", 4)]);
    check("losalamos", &[("startpos", 5)]);
    check(
        "chess99",
        &[("startpos", 4), ("startpos moves e2e4 d7d5 e4d5", 4)],
    );
}

#[test]
fn gallery_searches_with_hoppers_nightriders_and_berolina_pawns_agree() {
    // The compiled engine plays exchanges out on square sets
    // (`varc_engine_core::exchange`), the interpreter with moves: hoppers
    // whose screen is taken, nightriders uncovered, pawns that capture
    // straight ahead.
    check(
        "gallery/grasshopper",
        &[(
            "fen rn1qk1nr/Gb3ggg/1p1b1p1G/p1gp2pg/P3G1B1/NgP1PPPP/GG1GGG1R/R1BQKgN1 w Qkq - 0 19",
            4,
        )],
    );
    check(
        "gallery/nightrider",
        &[(
            "fen rn1k1bnr/p4pp1/qpB2p1p/8/3pPP1P/BbP5/P2P2P1/RNQ1K1R1 b Q - 1 16",
            4,
        )],
    );
    check(
        "gallery/berolina",
        &[(
            "fen rnb2bnr/pR1p2p1/3kpp2/q2pp1P1/2PP1Q2/2P5/P1PP2P1/RNB1KBN1 w Q - 0 14",
            4,
        )],
    );
}

#[test]
fn searches_with_a_learned_correction_royal_cover_and_passed_tables_agree() {
    // The network reads each piece as the back end visits it
    // (`Rules::visit_reaches`): every piece, royal ones too, once; the
    // royal cover reads the pawn-shaped pieces seen before the royal ones;
    // the passed tables, the pawn-shaped pieces that can move.
    use varc_runtime::eval::network::Network;
    use varc_runtime::model::{PassedTables, RoyalCover};
    use varc_runtime::weights::WeightsFile;
    let mut variant = common::variant("chess");
    let hidden = 8;
    let mut state = 0x0005_DEEC_E66D_u64;
    let mut next = |range: i64| {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((state >> 33) as i64 % (2 * range + 1) - range) as i16
    };
    let inputs = (0..Network::input_count(&variant) * hidden)
        .map(|_| next(24))
        .collect();
    let outputs = (0..hidden).map(|_| next(60)).collect();
    variant.network = Some(Network {
        hidden,
        inputs,
        biases: vec![32; hidden],
        outputs,
        output_bias: 0,
    });
    let king = variant.pieces.iter().position(|p| p.royal).expect("a king");
    variant.pieces[king].royal_cover = Some(RoyalCover {
        own: (0..RoyalCover::CELLS)
            .map(|_| i32::from(next(40)))
            .collect(),
        enemy: (0..RoyalCover::CELLS)
            .map(|_| i32::from(next(40)))
            .collect(),
    });
    variant.passed_tables = Some(PassedTables {
        middlegame: (0..8).map(|_| i32::from(next(80))).collect(),
        endgame: (0..8).map(|_| i32::from(next(160))).collect(),
    });
    let dir = std::env::temp_dir().join(format!("varc-network-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let weights = dir.join("chess.weights");
    std::fs::write(
        &weights,
        WeightsFile::write(&variant, "a random network, royal cover and passed tables"),
    )
    .expect("the weights file is written");
    let compiled = common::engine(&variant);
    let rules_file = common::variants_dir().join("chess.rules");
    let interpreter = Path::new(env!("CARGO_BIN_EXE_varc"));
    let args = [
        "uci",
        &rules_file.to_string_lossy(),
        "--weights",
        &weights.to_string_lossy(),
    ]
    .map(|arg| arg.to_string());
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    for (position, depth) in [
        ("startpos", 4),
        (
            "fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            3,
        ),
        ("fen 8/5k2/8/2P5/8/8/1p3K2/8 w - - 0 1", 6),
    ] {
        let by_interpreter = search(interpreter, &args, position, depth);
        let by_compiled = search(&compiled, &["uci"], position, depth);
        assert!(by_interpreter.0.contains(" nodes "), "{by_interpreter:?}");
        assert_eq!(by_compiled, by_interpreter, "{position}, depth {depth}");
    }
    let plain = search(
        interpreter,
        &["uci", &rules_file.to_string_lossy()],
        "startpos",
        4,
    );
    let learned = search(interpreter, &args, "startpos", 4);
    assert_ne!(plain, learned, "the network changes the search");
    let _ = std::fs::remove_dir_all(&dir);
}
