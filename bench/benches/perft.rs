//! `cargo bench -p varc-bench`: perft speed of varc's generated engines
//! against shakmaty and cozy-chess on the same positions in the same run
//! (with and without bulk counting), the generated PPC engine against the
//! interpreter, and the build time of every bundled variant's engine.
//!
//! `VARC_BENCH_QUICK=1` uses smaller depths; `VARC_BENCH_RUNS=N` sets how
//! many interleaved runs the chess figures are the medians of (5, quick 3). Build times are measured in a
//! fresh target directory under `target/varc-bench-engines` (removed first),
//! so the first build includes the runtime and its dependencies.
//! `VARC_BENCH_CHESS_ONLY=1` keeps that directory (an incremental build) and
//! runs only the chess comparison, for quick iterations on the generator.

use std::time::Instant;
use varc::interp::Interpreter;
use varc_bench::{build_engine, engine_perft, load};
use varc_runtime::fen::parse_fen;

const POSITIONS: [(&str, &str, u32); 3] = [
    (
        "start",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        6,
    ),
    (
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        5,
    ),
    ("endgame", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 6),
];

fn cozy_perft(board: &cozy_chess::Board, depth: u32, bulk: bool) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut nodes = 0;
    if depth == 1 && bulk {
        board.generate_moves(|moves| {
            nodes += moves.len() as u64;
            false
        });
        return nodes;
    }
    board.generate_moves(|moves| {
        for mv in moves {
            let mut next = board.clone();
            next.play_unchecked(mv);
            nodes += cozy_perft(&next, depth - 1, bulk);
        }
        false
    });
    nodes
}

fn shakmaty_perft(position: &shakmaty::Chess, depth: u32, bulk: bool) -> u64 {
    use shakmaty::Position;
    if depth == 0 {
        return 1;
    }
    let moves = position.legal_moves();
    if depth == 1 && bulk {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|mv| {
            let mut next = position.clone();
            next.play_unchecked(*mv);
            shakmaty_perft(&next, depth - 1, bulk)
        })
        .sum()
}

fn timed(f: impl FnOnce() -> u64) -> (u64, f64) {
    let started = Instant::now();
    let nodes = f();
    (nodes, started.elapsed().as_secs_f64())
}

/// The median of the values (the mean of the middle two for an even count).
fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    if n == 0 {
        return 0.0;
    }
    if n % 2 == 1 {
        values[n / 2]
    } else {
        (values[n / 2 - 1] + values[n / 2]) / 2.0
    }
}

fn mnps(nodes: u64, seconds: f64) -> f64 {
    nodes as f64 / seconds.max(1e-9) / 1e6
}

fn main() {
    // `cargo bench` passes `--bench`; ignore arguments.
    let quick = std::env::var("VARC_BENCH_QUICK").is_ok_and(|v| v != "0");
    let target =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/varc-bench-engines");
    let chess_only = std::env::var("VARC_BENCH_CHESS_ONLY").is_ok_and(|v| v != "0");
    if !chess_only {
        let _ = std::fs::remove_dir_all(&target);
    }

    println!("## Build times (fresh target directory; the first build compiles the runtime)\n");
    println!("| variant | `varc build` seconds |\n| --- | ---: |");
    let mut binaries = std::collections::HashMap::new();
    for file in [
        "chess.rules",
        "ppc.rules",
        "ppc-perft.rules",
        "kingcapture.rules",
        "alternate-scoring.rules",
        "chess99.rules",
        "chess99-mini.rules",
        "capablanca.rules",
        "losalamos.rules",
    ] {
        if chess_only && file != "chess.rules" {
            continue;
        }
        let variant = match load(file) {
            Ok(v) => v,
            Err(e) => {
                eprintln!("{e}");
                return;
            }
        };
        match build_engine(&variant, &target) {
            Ok((binary, seconds)) => {
                println!("| {} | {seconds:.1} |", variant.id);
                binaries.insert(variant.id.clone(), binary);
            }
            Err(e) => println!("| {} | failed: {e} |", variant.id),
        }
    }

    let runs: usize = std::env::var("VARC_BENCH_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(if quick { 3 } else { 5 })
        .max(1);
    println!(
        "\n## Chess perft, million nodes per second (same positions, same run; medians of {runs} interleaved runs)\n"
    );
    println!("| position | depth | counting | varc generated | cozy-chess | shakmaty | generated / cozy | generated / faster |");
    println!("| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: |");
    let Some(chess) = binaries.get("chess") else {
        return;
    };
    for (name, fen, depth) in POSITIONS {
        let depth = if quick { depth - 1 } else { depth };
        for bulk in [true, false] {
            let board: cozy_chess::Board = fen.parse().expect("cozy FEN");
            let setup: shakmaty::fen::Fen = fen.parse().expect("shakmaty FEN");
            let position: shakmaty::Chess = setup
                .into_position(shakmaty::CastlingMode::Standard)
                .expect("legal position");
            let mut speeds: [Vec<f64>; 3] = Default::default();
            let mut to_cozy = Vec::new();
            let mut to_faster = Vec::new();
            for _ in 0..runs {
                let (n1, s1) = engine_perft(chess, fen, depth, bulk).unwrap_or((0, 1.0));
                let (n2, s2) = timed(|| cozy_perft(&board, depth, bulk));
                let (n3, s3) = timed(|| shakmaty_perft(&position, depth, bulk));
                assert!(
                    n1 == n2 && n2 == n3,
                    "{name}: counts differ: {n1} {n2} {n3}"
                );
                let (a, b, c) = (mnps(n1, s1), mnps(n2, s2), mnps(n3, s3));
                speeds[0].push(a);
                speeds[1].push(b);
                speeds[2].push(c);
                to_cozy.push(a / b);
                to_faster.push(a / b.max(c));
            }
            let [a, b, c] = speeds.map(median);
            println!(
                "| {name} | {depth} | {} | {a:.0} | {b:.0} | {c:.0} | {:.2} | {:.2} |",
                if bulk { "bulk" } else { "every leaf made" },
                median(to_cozy),
                median(to_faster)
            );
        }
    }

    if chess_only {
        return;
    }
    println!("\n## Piece Promotion Chess (ppc-perft rules), million nodes per second\n");
    println!("| position | depth | generated | interpreter | generated / interpreter | generated PPC / generated chess |");
    println!("| --- | ---: | ---: | ---: | ---: | ---: |");
    let (Some(ppc), Ok(variant)) = (binaries.get("ppc-perft"), load("ppc-perft.rules")) else {
        return;
    };
    let Ok(interpreter) = Interpreter::new(variant) else {
        return;
    };
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let depth = if quick { 5 } else { 6 };
    // PPC against chess: interleaved runs, medians (as for the chess table).
    let mut ppc_speeds = Vec::new();
    let mut to_chess = Vec::new();
    for _ in 0..runs {
        let (n1, s1) = engine_perft(ppc, start, depth, true).unwrap_or((0, 1.0));
        let (nc, sc) = engine_perft(chess, start, depth, true).unwrap_or((0, 1.0));
        ppc_speeds.push(mnps(n1, s1));
        to_chess.push(mnps(n1, s1) / mnps(nc, sc));
    }
    let ppc_speed = median(ppc_speeds);
    let position =
        parse_fen(varc_runtime::rules::Rules::variant(&interpreter), start).expect("start");
    let interp_depth = depth - 1;
    let (n2, s2) = timed(|| varc_runtime::perft::perft(&interpreter, &position, interp_depth));
    let (n1b, s1b) = engine_perft(ppc, start, interp_depth, true).unwrap_or((0, 1.0));
    assert_eq!(n1b, n2, "PPC counts differ");
    println!(
        "| start | {depth} (interpreter {interp_depth}) | {ppc_speed:.0} | {:.1} | {:.1} | {:.2} |",
        mnps(n2, s2),
        mnps(n1b, s1b).max(ppc_speed) / mnps(n2, s2),
        median(to_chess)
    );
}
