//! Scripted UCI sessions over the interpreter: the handshake, a short game
//! of engine moves fed back as `position ... moves`, errors answered with
//! `info string`, and random garbage that never stops the engine.

mod common;

use varc_runtime::uci::run;

fn session(variant: &str, script: &str) -> Vec<String> {
    common::protocol_session(run, variant, script)
}

fn best_move(lines: &[String]) -> Option<String> {
    lines.iter().rev().find_map(|l| {
        l.strip_prefix("bestmove ")
            .map(|m| m.split_whitespace().next().unwrap_or("").to_string())
    })
}

#[test]
fn uci_handshake_lists_the_variant_option() {
    let lines = session("ppc", "uci\nisready\nquit\n");
    assert!(lines
        .iter()
        .any(|l| l == "id name varc Piece Promotion Chess"));
    assert!(lines
        .iter()
        .any(|l| l == "option name UCI_Variant type combo default ppc var ppc"));
    let uciok = lines.iter().position(|l| l == "uciok").expect("uciok");
    let readyok = lines.iter().position(|l| l == "readyok").expect("readyok");
    assert!(uciok < readyok);
}

#[test]
fn uci_plays_a_short_game() {
    // Each round asks for a move, then plays it back as the next position.
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..6 {
        let script = format!(
            "uci\nucinewgame\nisready\nposition startpos moves {}\ngo depth 3\n",
            moves.join(" ")
        );
        let lines = session("ppc", &script);
        assert!(
            lines.iter().any(|l| l.starts_with("info depth 3 ")),
            "{lines:?}"
        );
        let mv = best_move(&lines).expect("bestmove");
        assert_ne!(mv, "(none)");
        moves.push(mv);
    }
    let mut game = varc_runtime::game::Game::new(common::rules("ppc")).expect("game");
    for mv in &moves {
        game.play_text(mv).expect("the engine's moves are legal");
    }
}

#[test]
fn uci_go_with_clock_and_movetime_and_nodes() {
    // One session per search: a `position` sent during a search stops it
    // (see `varc_runtime::uci`), and a script cannot wait for `bestmove`.
    let lines: Vec<String> = [
        "position startpos moves e2e4\ngo wtime 1000 btime 1000 winc 10 binc 10\n",
        "position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1\ngo movetime 200\n",
        "position startpos\ngo nodes 300\n",
    ]
    .iter()
    .flat_map(|script| session("chess", script))
    .collect();
    let best: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("bestmove "))
        .collect();
    assert_eq!(best.len(), 3, "{lines:?}");
    assert!(best[1].starts_with("bestmove a1a8"), "{lines:?}");
    assert!(lines.iter().any(|l| l.contains("score mate 1")));
}

#[test]
fn uci_infinite_search_reports_after_stop() {
    let lines = session("chess", "position startpos\ngo infinite\nstop\nisready\n");
    let best = lines
        .iter()
        .position(|l| l.starts_with("bestmove "))
        .expect("bestmove after stop");
    assert!(lines.iter().skip(best).any(|l| l == "readyok"));
}

#[test]
fn uci_errors_are_info_strings() {
    let lines = session(
        "ppc",
        "position fen not a fen\nposition startpos moves e2e4 e7e9\nsetoption name Hash value lots\n\
         setoption name UCI_Variant value chess\nflibbertigibbet\ngo depth -3 sideways\nisready\n",
    );
    let infos = lines
        .iter()
        .filter(|l| l.starts_with("info string"))
        .count();
    assert!(infos >= 5, "{lines:?}");
    assert!(lines.iter().any(|l| l == "readyok"));
    // The bad move kept the good one: Black is to move.
    assert!(best_move(&lines).is_some());
}

#[test]
fn uci_game_over_gives_no_move() {
    let lines = session(
        "ppc",
        "position fen k7/1Q6/2K5/8/8/8/8/8 b - - 0 1\ngo depth 2\n",
    );
    assert_eq!(best_move(&lines).as_deref(), Some("0000"));
}

/// SplitMix64 for reproducible garbage.
fn garbage(seed: u64, lines: usize) -> String {
    let mut state = seed;
    let mut next = || {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut x = state;
        x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        x ^ (x >> 31)
    };
    let words = [
        "position",
        "fen",
        "startpos",
        "moves",
        "go",
        "depth",
        "nodes",
        "movetime",
        "wtime",
        "binc",
        "setoption",
        "name",
        "value",
        "Hash",
        "uci",
        "e2e4",
        "e7e8q",
        "O-O",
        "R'",
        "-1",
        "99999999999999999999",
        "infinite",
        "stop",
        "ucinewgame",
        "/",
        "8/8/8",
        "w",
        "KQkq",
        "\u{0}",
        "é",
        "{",
        "mate",
    ];
    let mut out = String::new();
    for _ in 0..lines {
        let count = next() % 8;
        let mut line: Vec<String> = Vec::new();
        for _ in 0..count {
            if next() % 4 == 0 {
                let len = next() % 12;
                line.push(
                    (0..len)
                        .map(|_| char::from(32 + (next() % 95) as u8))
                        .collect(),
                );
            } else {
                line.push(words[(next() % words.len() as u64) as usize].to_string());
            }
        }
        // Keep searches short: depth words get small numbers.
        let text = line.join(" ").replace("infinite", "depth 1");
        out.push_str(&text);
        out.push('\n');
    }
    out.push_str("stop\nisready\n");
    out
}

#[test]
fn uci_random_garbage_keeps_the_engine_alive() {
    for seed in 0..4 {
        let script = garbage(seed, 150).replace("go", "go depth 1");
        let lines = session("ppc", &script);
        assert_eq!(
            lines.last().map(String::as_str),
            Some("readyok"),
            "seed {seed}"
        );
    }
}

/// The first move of the `pv` of the last `info` line of the best line
/// (`multipv 1`) before each `bestmove`, with that `bestmove`'s move.
fn last_pv_and_best_moves(lines: &[String]) -> Vec<(Option<String>, String)> {
    let mut pairs = Vec::new();
    let mut last_pv = None;
    for line in lines {
        if line.starts_with("info ") && line.contains(" multipv 1 ") && line.contains(" pv ") {
            last_pv = line
                .split_once(" pv ")
                .and_then(|(_, pv)| pv.split_whitespace().next())
                .map(str::to_string);
        }
        if let Some(rest) = line.strip_prefix("bestmove ") {
            let best = rest.split_whitespace().next().unwrap_or("").to_string();
            pairs.push((last_pv.take(), best));
        }
    }
    pairs
}

#[test]
fn uci_multipv_reports_distinct_best_lines_each_iteration() {
    let lines = session(
        "chess",
        "uci\nsetoption name MultiPV value 3\nposition startpos moves e2e4\ngo depth 4\n",
    );
    assert!(lines
        .iter()
        .any(|l| l == "option name MultiPV type spin default 1 min 1 max 256"));
    let first_moves: Vec<&str> = (1..=3)
        .map(|k| {
            let prefix = "info depth 4 seldepth";
            let marker = format!(" multipv {k} ");
            let line = lines
                .iter()
                .find(|l| l.starts_with(prefix) && l.contains(&marker))
                .unwrap_or_else(|| panic!("no line {k} at depth 4: {lines:?}"));
            line.split_once(" pv ")
                .and_then(|(_, pv)| pv.split_whitespace().next())
                .expect("a pv")
        })
        .collect();
    assert!(
        first_moves[0] != first_moves[1]
            && first_moves[1] != first_moves[2]
            && first_moves[0] != first_moves[2],
        "{first_moves:?}"
    );
    let best = best_move(&lines).expect("bestmove");
    assert_eq!(best, first_moves[0], "the move played is the first line's");
    // Lines are reported best first (sorted by value).
    let scores: Vec<i32> = lines
        .iter()
        .filter(|l| l.starts_with("info depth 4 "))
        .filter_map(|l| {
            let (_, rest) = l.split_once(" score cp ")?;
            rest.split_whitespace().next()?.parse().ok()
        })
        .collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
}

#[test]
fn uci_multipv_beyond_the_legal_moves_reports_each_move_once() {
    // Two legal moves (Ka2, Kb2): asking for five lines gives two.
    let lines = session(
        "chess",
        "setoption name MultiPV value 5\nposition fen 7k/8/8/8/8/3q4/8/K7 w - - 0 1\ngo depth 2\n",
    );
    let at_depth_2: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth 2 "))
        .collect();
    assert_eq!(at_depth_2.len(), 2, "{lines:?}");
    let refused = session("chess", "setoption name MultiPV value 0\n");
    assert!(refused.iter().any(|l| l.starts_with("info string MultiPV")));
}

#[test]
fn uci_searchmoves_limits_the_root_to_the_moves_named() {
    // After 1. e4 d5 the capture is White's move; searched among two pawn
    // steps only, every line and the move played are one of them.
    let position = "position startpos moves e2e4 d7d5\n";
    let lines = session(
        "chess",
        &format!("setoption name MultiPV value 3\n{position}go depth 4 searchmoves a2a3 h2h3\n"),
    );
    let firsts: Vec<&str> = lines
        .iter()
        .filter_map(|l| l.split(" pv ").nth(1))
        .filter_map(|pv| pv.split_whitespace().next())
        .collect();
    assert!(!firsts.is_empty(), "{lines:?}");
    assert!(
        firsts.iter().all(|m| ["a2a3", "h2h3"].contains(m)),
        "{lines:?}"
    );
    let at_depth_4 = lines
        .iter()
        .filter(|l| l.starts_with("info depth 4 "))
        .count();
    assert_eq!(at_depth_4, 2, "two lines, not three: {lines:?}");
    assert!(matches!(
        best_move(&lines).as_deref(),
        Some("a2a3" | "h2h3")
    ));

    // A text that is no legal move is left out with a note; when none is
    // left, every move is searched.
    let lines = session(
        "chess",
        &format!("{position}go depth 3 searchmoves e2e5 g1f3\n"),
    );
    assert!(
        lines.iter().any(|l| l.contains("e2e5 is not a legal move")),
        "{lines:?}"
    );
    assert_eq!(best_move(&lines).as_deref(), Some("g1f3"), "{lines:?}");
    let lines = session("chess", &format!("{position}go depth 3 searchmoves zz\n"));
    assert!(
        lines.iter().any(|l| l.contains("names no legal move")),
        "{lines:?}"
    );
    assert!(best_move(&lines).is_some_and(|m| m != "0000"), "{lines:?}");
}

#[test]
fn uci_bestmove_starts_the_last_reported_pv_after_any_search() {
    // Time-limited, node-limited, stopped at once and infinite searches:
    // whatever ends the search, the last line reported is the line played.
    let scripts = [
        "position startpos\ngo movetime 30\n",
        "position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1\ngo movetime 70\n",
        "position startpos moves e2e4 c7c5\ngo nodes 2500\n",
        "position startpos\ngo infinite\nstop\n",
        "position startpos moves d2d4\ngo wtime 300 btime 300\n",
        "setoption name MultiPV value 2\nposition startpos\ngo movetime 40\n",
    ];
    for script in scripts {
        let lines = session("chess", script);
        let pairs = last_pv_and_best_moves(&lines);
        assert_eq!(pairs.len(), 1, "{script}: {lines:?}");
        let (pv, best) = &pairs[0];
        assert_eq!(pv.as_deref(), Some(best.as_str()), "{script}: {lines:?}");
    }
}

#[test]
fn uci_sets_the_search_numbers_by_name_and_refuses_bad_values_unchanged() {
    let nodes_at_depth_6 = |setup: &str| -> u64 {
        let lines = session(
            "chess",
            &format!("{setup}position startpos moves e2e4 e7e5\ngo depth 6\n"),
        );
        let last = lines
            .iter()
            .rev()
            .find(|l| l.starts_with("info depth 6 "))
            .unwrap_or_else(|| panic!("no depth 6: {lines:?}"));
        let words: Vec<&str> = last.split_whitespace().collect();
        let at = words.iter().position(|w| *w == "nodes").expect("nodes");
        words[at + 1].parse().expect("a count")
    };
    let default = nodes_at_depth_6("");
    // No reverse futility, futility or late move pruning: a bigger tree.
    let without_pruning = nodes_at_depth_6(
        "setoption name reverse_futility_depth value 0\n\
         setoption name futility_depth value 0\n\
         setoption name late_move_pruning_depth value 0\n",
    );
    assert!(without_pruning > default, "{without_pruning} vs {default}");
    // Refused values are reported and change nothing.
    let refused = session(
        "chess",
        "setoption name futility_margin value -1\nsetoption name futility_margin value many\n",
    );
    assert!(refused
        .iter()
        .any(|l| l == "info string futility_margin must be 0 to 1000, not -1"));
    assert!(refused
        .iter()
        .any(|l| l.starts_with("info string futility_margin takes a whole number")));
    assert_eq!(
        nodes_at_depth_6("setoption name futility_margin value -1\n"),
        default
    );
}

#[test]
fn uci_sets_the_evaluation_weights_by_name_and_refuses_bad_values_unchanged() {
    // White's queen and rook bear on the black king's squares.
    let position = "position fen 6k1/5ppp/8/8/8/8/5PPP/3QR1K1 b - - 0 1\neval\n";
    let evaluation = |setup: &str| -> i32 {
        let lines = session("chess", &format!("{setup}{position}"));
        let line = lines
            .iter()
            .find_map(|l| l.strip_prefix("info string static evaluation "))
            .unwrap_or_else(|| panic!("no evaluation: {lines:?}"));
        let value = line.split_whitespace().next().expect("a value");
        value.parse().expect("a number")
    };
    let default = evaluation("");
    // Black to move: a heavier royal danger is worse for Black.
    let heavier = evaluation("setoption name royal-danger value 400\n");
    assert!(heavier < default, "{heavier} vs {default}");
    assert_eq!(
        evaluation("setoption name ROYAL-DANGER value 400\n"),
        heavier
    );
    let refused = session("chess", "setoption name royal-danger value 5000\n");
    assert!(refused
        .iter()
        .any(|l| l == "info string royal-danger must be -1000 to 1000, not 5000"));
    assert_eq!(
        evaluation("setoption name royal-danger value 5000\n"),
        default
    );
}

#[test]
fn uci_lists_the_search_numbers_only_for_a_tuner() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let handshake = |tuning: bool| -> String {
        let mut command = Command::new(env!("CARGO_BIN_EXE_varc"));
        command
            .args(["uci", "variants/chess.rules"])
            .env_remove("VARC_TUNE")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped());
        if tuning {
            command.env("VARC_TUNE", "1");
        }
        let mut child = command.spawn().expect("varc uci");
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(b"uci\nquit\n")
            .expect("write");
        let output = child.wait_with_output().expect("output");
        String::from_utf8(output.stdout).expect("text")
    };
    let listed = "option name futility_margin type spin default 168 min 0 max 1000";
    assert!(handshake(true).contains(listed));
    let weight = "option name royal-danger type spin default 100 min -1000 max 1000";
    assert!(handshake(true).contains(weight));
    assert!(!handshake(false).contains("royal-danger"));
    assert!(!handshake(false).contains("futility_margin"));
}
