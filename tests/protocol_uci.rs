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
