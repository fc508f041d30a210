//! `varc build --pgo`: the profile-guided engine counts and plays as the
//! plain one. Skips, saying so, where no llvm-profdata of rustc's LLVM is
//! installed (`.ci/run` installs one).

mod common;

use std::path::Path;
use std::process::Command;

use common::varc;

fn chess_file() -> String {
    common::variants_dir()
        .join("chess.rules")
        .to_string_lossy()
        .into_owned()
}

#[test]
fn profile_guided_engine_counts_and_plays_like_the_plain_one() {
    if let Err(why) = varc::codegen::pgo::find_profdata() {
        eprintln!("skipped: {why}");
        return;
    }
    let dir = std::env::temp_dir().join(format!("varc-pgo-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let crate_dir = dir.join("chess");
    let output = varc(&[
        "build",
        &chess_file(),
        "--pgo",
        "-o",
        &crate_dir.to_string_lossy(),
    ]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    for step in ["1/3", "2/3", "3/3"] {
        assert!(stderr.contains(step), "step {step} not shown: {stderr}");
    }
    let binary = String::from_utf8_lossy(&output.stdout).trim().to_string();
    let binary = Path::new(&binary);
    let perft = Command::new(binary)
        .args(["perft", "4", "--json"])
        .output()
        .expect("the engine runs");
    let counted: serde_json::Value = serde_json::from_slice(&perft.stdout).expect("perft JSON");
    assert_eq!(counted["nodes"], 197_281);
    let played = common::run_with_input(
        binary,
        &["uci"],
        "uci\nposition startpos moves e2e4 e7e5\ngo depth 6\nquit\n",
    );
    let text = String::from_utf8_lossy(&played.stdout);
    assert!(text.lines().any(|l| l.starts_with("bestmove ")), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn pgo_and_no_build_are_refused_together() {
    let dir = std::env::temp_dir().join(format!("varc-pgo-refused-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let output = varc(&[
        "build",
        &chess_file(),
        "--pgo",
        "--no-build",
        "-o",
        &dir.to_string_lossy(),
    ]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("--no-build"));
    assert!(!dir.exists(), "nothing is written");
}
