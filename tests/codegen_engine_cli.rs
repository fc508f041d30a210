//! The generated engine's command line: `replay` goes through the runtime's
//! game driver and prints what `varc replay` prints (same JSON keys and
//! values; the legal moves may come in another order), and `uci` and
//! `xboard` speak the runtime's protocols over the compiled rules.

mod common;

use std::path::Path;
use std::process::Command;

/// The JSON object a command printed, with `legal_moves` sorted.
fn json_of(command: &mut Command) -> (serde_json::Value, Option<i32>) {
    let output = command.output().expect("runs");
    let mut value: serde_json::Value = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&output.stdout)));
    if let Some(moves) = value["legal_moves"].as_array_mut() {
        moves.sort_by_key(|m| m.to_string());
    }
    (value, output.status.code())
}

fn same_replay(rules_file: &str, binary: &Path, args: &[&str]) {
    let (compiled, compiled_code) = json_of(Command::new(binary).arg("replay").args(args));
    let (interpreted, interpreted_code) = json_of(
        Command::new(env!("CARGO_BIN_EXE_varc"))
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .args(["replay", &format!("variants/{rules_file}")])
            .args(args),
    );
    assert_eq!(compiled, interpreted, "{rules_file} {args:?}");
    assert_eq!(compiled_code, interpreted_code, "{rules_file} {args:?}");
}

#[test]
fn replay_matches_varc_replay() {
    let ppc = common::engine(&common::variant("ppc"));
    let knights = "e2e4 e7e5 g1f3 b8c6 f3g1 c6b8 g1f3 b8c6 f3g1 c6b8";
    same_replay("ppc.rules", &ppc, &["--moves", knights, "--json"]);
    same_replay(
        "ppc.rules",
        &ppc,
        &["--moves", &format!("{knights} claim"), "--json"],
    );
    // P7: the repeated check is refused, exit code 2.
    same_replay(
        "ppc.rules",
        &ppc,
        &[
            "--fen",
            "7k/8/8/8/8/8/Q7/2K5 w - - 0 1",
            "--moves",
            "Qa8+ Kh7 Qa2 Kh8 Qa8",
            "--json",
        ],
    );
    same_replay("ppc.rules", &ppc, &["--fen", "not a fen", "--json"]);
    same_replay(
        "ppc.rules",
        &ppc,
        &[
            "--time-control",
            "60+1",
            "--moves",
            "e2e4@2.5 e7e5@1 offer accept",
            "--json",
        ],
    );
    let chess = common::engine(&common::variant("chess"));
    same_replay(
        "chess.rules",
        &chess,
        &["--moves", "f2f3 e7e5 g2g4 d8h4", "--json"],
    );
    same_replay("chess.rules", &chess, &["--moves", "e2e5", "--json"]);
}

fn converse(binary: &Path, protocol: &str, input: &str) -> String {
    let output = common::run_with_input(binary, &[protocol], input);
    assert!(output.status.success(), "{protocol} exit status");
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn uci_and_xboard_over_the_compiled_rules() {
    let ppc = common::engine(&common::variant("ppc"));
    let uci = converse(
        &ppc,
        "uci",
        "uci\nisready\nposition startpos moves e2e4\ngo depth 2\nquit\n",
    );
    assert!(uci.contains("uciok"), "{uci}");
    assert!(uci.contains("readyok"), "{uci}");
    assert!(uci.contains("bestmove "), "{uci}");
    let xboard = converse(&ppc, "xboard", "xboard\nprotover 2\nquit\n");
    assert!(xboard.contains("feature done=1"), "{xboard}");
}
