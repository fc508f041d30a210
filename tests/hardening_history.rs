//! History features are incremental (issue 12, item 5): a move costs the
//! same late in a long game as early, and many awards do not make a move
//! slow. Measured as ratios within one run (late moves against early ones),
//! with wide margins: a cost growing with the game's length gives ratios
//! of ten and more here.

mod common;

use std::time::{Duration, Instant};
use varc::interp::Interpreter;
use varc_runtime::game::Game;

/// Plays `plies` of knight moves back and forth (PPC has no automatic
/// repetition draw, P8 is a claim); returns the time of each block of
/// `block` plies.
fn shuffle(game: &mut Game<Interpreter>, plies: usize, block: usize) -> Vec<Duration> {
    let cycle = ["g1f3", "g8f6", "f3g1", "f6g8"];
    let mut times = Vec::new();
    let mut start = Instant::now();
    for ply in 0..plies {
        let mv = game.parse_move(cycle[ply % 4]).expect("a knight move");
        game.play(&mv).expect("legal");
        if (ply + 1) % block == 0 {
            times.push(start.elapsed());
            start = Instant::now();
        }
    }
    times
}

#[test]
fn a_move_late_in_a_long_game_costs_what_an_early_one_does() {
    let mut game = Game::new(common::rules("ppc")).expect("start");
    let times = shuffle(&mut game, 4_000, 400);
    assert!(game.result().is_none());
    assert!(game.repetitions().total > 900, "{:?}", game.repetitions());
    let early = times[1].min(times[2]);
    let late = times[times.len() - 1].min(times[times.len() - 2]);
    let ratio = late.as_secs_f64() / early.as_secs_f64();
    assert!(
        ratio < 4.0,
        "late {late:?} against early {early:?}: {ratio:.1}x"
    );
}

#[test]
fn undo_keeps_repetition_counts_right() {
    let mut game = Game::new(common::rules("ppc")).expect("start");
    shuffle(&mut game, 8, 8);
    assert_eq!(game.repetitions().total, 3);
    game.undo();
    game.undo();
    assert_eq!(game.repetitions().total, 2);
    for text in ["f3g1", "f6g8"] {
        let mv = game.parse_move(text).expect("a knight move");
        game.play(&mv).expect("legal");
    }
    assert_eq!(game.repetitions().total, 3);
}

/// Seconds per move of a game of chess with `count` awards, each given
/// once on the first move and checked on every move.
fn seconds_per_move_with_awards(count: usize) -> f64 {
    let mut text = std::fs::read_to_string("variants/chess.rules")
        .expect("chess rules")
        .replacen(
            "variant chess \"Chess\"",
            "variant many-awards \"Many awards\"",
            1,
        );
    for i in 0..count {
        text.push_str(&format!(
            "award \"prize {i}\" 1 win to mover when plies 0, once\n"
        ));
    }
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("awards");
    std::fs::create_dir_all(&dir).expect("temp dir");
    let variant = varc::load_variant_from_str("many-awards.rules", &text, &dir)
        .unwrap_or_else(|e| panic!("{}", e.render()));
    let rules = Interpreter::new(variant).expect("interpreter");
    let mut game = Game::new(rules).expect("start");
    let moves = [
        "e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "d2d3", "f8c5", "c2c3", "d7d6", "b1d2",
        "a7a6",
    ];
    let start = Instant::now();
    for text in moves {
        let mv = game.parse_move(text).expect("a knight move");
        game.play(&mv).expect("legal");
    }
    assert_eq!(game.awards().len(), 2 * count);
    start.elapsed().as_secs_f64() / moves.len() as f64
}

#[test]
fn many_awards_cost_time_linear_in_their_number() {
    // 2,000 awards took 49 s to replay 4 moves: a cubic cost.
    let few = seconds_per_move_with_awards(30);
    let many = seconds_per_move_with_awards(300);
    let ratio = many / few;
    assert!(ratio < 40.0, "300 awards against 30: {ratio:.1}x");
}

/// The peak resident memory of process `pid`, in kilobytes (Linux).
#[cfg(target_os = "linux")]
fn peak_kb(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[test]
#[cfg(target_os = "linux")]
fn resizing_the_hash_never_holds_two_tables() {
    use std::io::{BufRead, BufReader, Write};
    use std::process::{Command, Stdio};
    // `Hash 4096` twice peaked at 8.4 GB: the old table lived until the
    // new one was made.
    let mut child = Command::new(env!("CARGO_BIN_EXE_varc"))
        .args(["uci", "variants/chess.rules"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("varc uci");
    let mut input = child.stdin.take().expect("stdin");
    let mut output = BufReader::new(child.stdout.take().expect("stdout"));
    writeln!(
        input,
        "uci\nsetoption name Hash value 256\nsetoption name Hash value 256\nisready"
    )
    .expect("write");
    let mut line = String::new();
    while output.read_line(&mut line).is_ok_and(|n| n > 0) && !line.contains("readyok") {
        line.clear();
    }
    let peak = peak_kb(child.id());
    let _ = writeln!(input, "quit");
    let _ = child.wait();
    let peak_mb = peak.expect("VmHWM") / 1024;
    assert!(peak_mb < 400, "peak {peak_mb} MB for a 256 MB table");
}

#[test]
fn uci_position_of_twenty_thousand_plies_is_read() {
    // 26 s and 349 MB before the history was incremental; and the line
    // (100 KB) must fit the protocol's line limit.
    let moves = ["g1f3", "g8f6", "f3g1", "f6g8"].repeat(5_000).join(" ");
    let script = format!("uci\nposition startpos moves {moves}\nd\nisready\n");
    let out = common::protocol_session(varc_runtime::uci::run, "ppc", &script);
    assert!(
        out.iter()
            .any(|l| l
                .contains("fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 20000 10001")),
        "{:?}",
        out.iter()
            .filter(|l| l.contains("fen") || l.contains("error"))
            .collect::<Vec<_>>()
    );
}
