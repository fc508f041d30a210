//! python-chess drives varc as a real client would (issue 13): UCI and
//! XBoard games of chess and PPC through `chess.engine` (every engine move
//! checked by python-chess, PPC games up to PPC's first piece promotion,
//! which python-chess's chess rules cannot read, then replayed by varc),
//! varc's records read by `chess.pgn`, and a PGN written by python-chess
//! (comments, NAGs, a variation) loaded by varc's record loader.
//!
//! CI installs python-chess (`.ci/run`); without it the test says so and
//! passes.

mod common;

use std::process::Command;

fn python_chess_available() -> bool {
    Command::new("python3")
        .args(["-c", "import chess.engine, chess.pgn"])
        .output()
        .is_ok_and(|out| out.status.success())
}

#[test]
fn python_chess_plays_uci_and_xboard_games_and_reads_and_writes_records() {
    if !python_chess_available() {
        eprintln!(
            "skipped: python-chess is not installed (python3 -m pip install chess); \
             .ci/run installs it"
        );
        return;
    }
    let root = env!("CARGO_MANIFEST_DIR");
    let out = std::env::temp_dir().join(format!("varc-python-chess-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    std::fs::create_dir_all(&out).expect("temp dir");
    let run = Command::new("python3")
        .arg(format!("{root}/tests/clients/python_chess_client.py"))
        .arg(env!("CARGO_BIN_EXE_varc"))
        .arg(format!("{root}/variants"))
        .arg(&out)
        .output()
        .expect("python3 runs");
    assert!(
        run.status.success(),
        "python-chess client failed:\n{}\n{}",
        String::from_utf8_lossy(&run.stdout),
        String::from_utf8_lossy(&run.stderr)
    );
    let written = std::fs::read_to_string(out.join("from-python-chess.pgn")).expect("PGN");
    let loaded = varc_runtime::game::record::load(common::rules("chess"), &written);
    assert!(loaded.is_ok(), "{loaded:?}\n{written}");
    let _ = std::fs::remove_dir_all(&out);
}
