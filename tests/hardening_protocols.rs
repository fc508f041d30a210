//! Hardening (issue 12): protocol loops that never block on a search and
//! end promptly at the end of input; numbers out of range refused or
//! clamped; input lines that are not UTF-8 or far too long refused one by
//! one, never ending a loop; `varc selfplay merge` refusing shards that
//! cannot make up one run.
//!
//! Sessions that could hang run `varc` as a child process: its output is
//! read on a thread and every wait has a timeout, and the child is killed
//! when the test ends, so a regression fails instead of hanging.

mod common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};
use varc::selfplay::{Settings, Shard, Summary};

/// How long an answer may take in a debug build on a busy machine.
const ANSWER: Duration = Duration::from_secs(20);

/// How long the process may take to exit at the end of input: the loop
/// allows a search half a second, then stops it; the rest is slack for a
/// loaded machine. Without the fix these sessions never end.
const EXIT: Duration = Duration::from_secs(5);

/// A `varc` child process speaking over pipes.
struct Session {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    seen: Vec<String>,
}

impl Session {
    fn start(args: &[&str]) -> Session {
        let mut child = Command::new(env!("CARGO_BIN_EXE_varc"))
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("varc starts");
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("piped stdout");
        let (sender, lines) = channel();
        std::thread::spawn(move || {
            let mut reader = std::io::BufReader::new(stdout);
            let mut line = Vec::new();
            loop {
                line.clear();
                match std::io::BufRead::read_until(&mut reader, b'\n', &mut line) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let text = String::from_utf8_lossy(&line).trim_end().to_string();
                        if sender.send(text).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        Session {
            child,
            stdin,
            lines,
            seen: Vec::new(),
        }
    }

    fn send(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("input still open");
        stdin.write_all(bytes).expect("write to varc");
        stdin.flush().expect("flush to varc");
    }

    /// Waits for a line that `wanted` accepts; panics with the lines seen
    /// after [`ANSWER`].
    fn expect(&mut self, wanted: impl Fn(&str) -> bool, what: &str) -> String {
        let deadline = Instant::now() + ANSWER;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.seen.push(line.clone());
                    if wanted(&line) {
                        return line;
                    }
                }
                Err(_) => panic!("no {what} within {ANSWER:?}; saw {:?}", self.seen),
            }
        }
    }

    fn close_input(&mut self) {
        self.stdin = None;
    }

    /// The exit status once the process ends, if within `limit`.
    fn exit_within(&mut self, limit: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + limit;
        while Instant::now() < deadline {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(status);
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        None
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn uci(variant: &str) -> Session {
    Session::start(&["uci", &format!("variants/{variant}.rules")])
}

fn xboard(variant: &str) -> Session {
    Session::start(&["xboard", &format!("variants/{variant}.rules")])
}

// ---- 1. Protocol loops never block on a search -------------------------

#[test]
fn uci_position_during_unbounded_search_stops_it_and_keeps_reading() {
    let mut engine = uci("chess");
    engine.send(b"uci\nposition startpos\ngo\n");
    engine.expect(|l| l.starts_with("info depth 1 "), "a first iteration");
    engine.send(b"position startpos moves e2e4\nisready\n");
    // The search answers its bestmove, then the command applies.
    engine.expect(
        |l| l.starts_with("bestmove "),
        "bestmove of the stopped search",
    );
    engine.expect(|l| l == "readyok", "readyok");
    engine.send(b"go depth 1\n");
    let best = engine.expect(|l| l.starts_with("bestmove "), "bestmove for Black");
    let from_rank = best
        .split_whitespace()
        .nth(1)
        .and_then(|m| m.chars().nth(1));
    assert!(matches!(from_rank, Some('7' | '8')), "{best}");
    engine.send(b"quit\n");
    assert!(engine.exit_within(EXIT).is_some_and(|s| s.success()));
}

#[test]
fn uci_setoption_and_ucinewgame_during_unbounded_search_keep_reading() {
    for command in ["setoption name Hash value 8", "ucinewgame"] {
        // A plain `go` (no limit, not marked infinite): the search that
        // these commands used to wait for until it ended by itself.
        let mut engine = uci("chess");
        engine.send(b"position startpos\ngo\n");
        engine.expect(|l| l.starts_with("info depth 1 "), "a first iteration");
        engine.send(format!("{command}\nisready\n").as_bytes());
        engine.expect(|l| l == "readyok", "readyok");
        engine.send(b"stop\nisready\nquit\n");
        engine.expect(|l| l == "readyok", "a second readyok");
        assert!(
            engine.exit_within(EXIT).is_some_and(|s| s.success()),
            "{command}"
        );
    }
}

#[test]
fn uci_end_of_input_during_unbounded_search_exits_promptly() {
    for go in [
        "go",
        "go infinite",
        "go btime 1000",
        "go wtime 18446744073709551615",
        "go depth 99999999999",
    ] {
        let mut engine = uci("chess");
        engine.send(format!("position startpos\n{go}\n").as_bytes());
        engine.expect(|l| l.starts_with("info depth 1 "), "a first iteration");
        engine.close_input();
        let started = Instant::now();
        let status = engine.exit_within(EXIT);
        assert!(
            status.is_some_and(|s| s.success()),
            "{go}: still running {:?} after end of input",
            started.elapsed()
        );
        // The stopped search still answered.
        engine.expect(|l| l.starts_with("bestmove "), "bestmove");
    }
}

#[test]
fn xboard_end_of_input_during_unbounded_search_exits_promptly() {
    for setting in ["sd 90", "st inf"] {
        let mut engine = xboard("chess");
        engine.send(format!("xboard\nprotover 2\nnew\nforce\npost\n{setting}\ngo\n").as_bytes());
        if setting == "st inf" {
            engine.expect(|l| l.starts_with("Error (bad st"), "st inf refused");
        }
        engine.close_input();
        assert!(
            engine.exit_within(EXIT).is_some_and(|s| s.success()),
            "{setting}: still running after end of input; saw {:?}",
            engine.seen
        );
    }
}

#[test]
fn xboard_ping_during_unbounded_search_is_answered_after_the_move() {
    let mut engine = xboard("chess");
    engine.send(b"xboard\nprotover 2\nnew\nforce\npost\nsd 90\ngo\n");
    engine.expect(|l| l.starts_with("1 "), "thinking output");
    // `ping` must not hold up the loop: `?` after it is read and moves now.
    engine.send(b"ping 7\n?\n");
    engine.expect(|l| l.starts_with("move "), "the engine's move");
    engine.expect(|l| l == "pong 7", "pong after the move");
    engine.send(b"quit\n");
    assert!(engine.exit_within(EXIT).is_some());
}

#[test]
fn uci_out_of_range_go_values_are_clamped_with_a_note() {
    let lines = common::protocol_session(
        varc_runtime::uci::run,
        "chess",
        "position startpos\ngo depth 99999999999\nstop\nposition startpos\n\
         go wtime 18446744073709551615 winc 18446744073709551615 movestogo 0\nstop\n\
         go movetime inf\nstop\nisready\n",
    );
    for note in [
        "info string go: depth 99999999999 is out of range 1 to 90: using 90",
        "info string go: movetime needs a whole number, not \"inf\": ignored",
    ] {
        assert!(lines.iter().any(|l| l == note), "{note}: {lines:?}");
    }
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string go: wtime 18446744073709551615 is out of range")),
        "{lines:?}"
    );
    let answers = lines.iter().filter(|l| l.starts_with("bestmove ")).count();
    assert_eq!(answers, 3, "{lines:?}");
    assert_eq!(lines.last().map(String::as_str), Some("readyok"));
}

#[test]
fn xboard_refuses_time_values_that_are_not_finite_or_too_large() {
    let bad = [
        "st inf",
        "st 1e30",
        "st nan",
        "st -1",
        "st 0",
        "level 40 inf 0",
        "level 40 nan 0",
        "level 40 5 inf",
        "level 40 99999999999:00 0",
        "time 99999999999999999",
        "otim 1e30",
    ];
    let mut script = String::from("xboard\nprotover 2\n");
    for command in bad {
        script.push_str(command);
        script.push('\n');
    }
    // Good values still read; a negative clock reading is an empty clock.
    script.push_str("st 2\nlevel 40 0:30 0.5\ntime -20\notim 3000\nping 1\n");
    let lines = common::protocol_session(varc_runtime::xboard::run, "chess", &script);
    let errors: Vec<&String> = lines.iter().filter(|l| l.starts_with("Error (")).collect();
    assert_eq!(errors.len(), bad.len(), "{lines:?}");
    for (error, command) in errors.iter().zip(bad) {
        assert!(error.ends_with(command), "{error} for {command}");
    }
    assert_eq!(lines.last().map(String::as_str), Some("pong 1"));
}

#[test]
fn xboard_go_in_checkmated_position_answers_the_result() {
    let lines = common::protocol_session(
        varc_runtime::xboard::run,
        "chess",
        "xboard\nprotover 2\nnew\nforce\nsetboard k7/1Q6/2K5/8/8/8/8/8 b - - 0 1\ngo\nping 1\n",
    );
    let pong = lines.iter().position(|l| l == "pong 1").expect("pong");
    assert!(
        lines[..pong].iter().any(|l| l.starts_with("1-0 {")),
        "{lines:?}"
    );
}

#[test]
fn uci_go_in_finished_game_answers_bestmove_0000() {
    let lines = common::protocol_session(
        varc_runtime::uci::run,
        "chess",
        "position fen k7/1Q6/2K5/8/8/8/8/8 b - - 0 1\ngo depth 2\nisready\n",
    );
    assert!(lines.iter().any(|l| l == "bestmove 0000"), "{lines:?}");
}

// ---- 2. Input streams that stop ----------------------------------------

#[test]
fn uci_non_utf8_line_is_refused_and_isready_still_answered() {
    let mut engine = uci("chess");
    engine.send(b"uci\n\xff\xfe garbage \xc3\nisready\n");
    engine.expect(
        |l| l == "info string error: line is not UTF-8 text: ignored",
        "the refusal",
    );
    engine.expect(|l| l == "readyok", "readyok");
    engine.send(b"quit\n");
    assert!(engine.exit_within(EXIT).is_some_and(|s| s.success()));
}

#[test]
fn xboard_non_utf8_line_is_refused_and_ping_still_answered() {
    let mut engine = xboard("chess");
    engine.send(b"xboard\n\xff\nping 1\n");
    engine.expect(|l| l.starts_with("Error (not UTF-8 text)"), "the refusal");
    engine.expect(|l| l == "pong 1", "pong 1");
    engine.send(b"quit\n");
    assert!(engine.exit_within(EXIT).is_some_and(|s| s.success()));
}

#[test]
fn uci_ten_megabyte_line_is_dropped_and_the_engine_goes_on() {
    let mut engine = uci("chess");
    let mut stdin = engine.stdin.take().expect("stdin");
    // Written on a thread: the pipe holds far less than 10 MB.
    let writer = std::thread::spawn(move || {
        let chunk = vec![b'x'; 1 << 20];
        for _ in 0..10 {
            stdin.write_all(&chunk)?;
        }
        stdin.write_all(b"\nisready\nquit\n")?;
        stdin.flush()
    });
    engine.expect(
        |l| l.starts_with("info string error: line of 10485760 bytes is longer than"),
        "the refusal",
    );
    engine.expect(|l| l == "readyok", "readyok");
    assert!(engine.exit_within(EXIT).is_some_and(|s| s.success()));
    assert!(writer.join().is_ok_and(|r| r.is_ok()));
}

#[test]
fn play_non_utf8_line_is_refused_and_the_game_goes_on() {
    let mut game = Session::start(&["play", "variants/chess.rules", "--engine", "none"]);
    game.send(b"e4\n\xff\xfe\ne5\nhistory\n");
    game.expect(|l| l.contains("line is not UTF-8 text"), "the refusal");
    game.expect(|l| l.contains("1. e4 e5"), "the game with both moves");
    game.send(b"quit\n");
    assert!(game.exit_within(EXIT).is_some_and(|s| s.success()));
}

#[test]
fn engine_batch_goes_on_after_a_non_utf8_line() {
    let binary = common::engine(&common::variant("ppc"));
    let mut child = Command::new(&binary)
        .arg("batch")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the engine starts");
    let mut stdin = child.stdin.take().expect("stdin");
    let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let mut bytes = format!("1 {fen}\n").into_bytes();
    bytes.extend_from_slice(b"\xff\xfe\n");
    bytes.extend_from_slice(format!("2 {fen}\n").as_bytes());
    let writer = std::thread::spawn(move || stdin.write_all(&bytes));
    let output = child.wait_with_output().expect("engine output");
    assert!(writer.join().is_ok_and(|r| r.is_ok()));
    let text = String::from_utf8_lossy(&output.stdout);
    let answers: Vec<&str> = text.lines().collect();
    assert_eq!(answers.len(), 3, "{answers:?}");
    assert_eq!(answers[0], "20");
    assert!(answers[1].starts_with("error: "), "{answers:?}");
    assert_eq!(answers[2], "400");
}

// ---- 3. Merges that lie -------------------------------------------------

fn settings() -> Settings {
    Settings {
        variant: "chess".into(),
        games: 4,
        depth: Some(1),
        movetime_ms: None,
        seed: 1,
        opening_plies: 0,
        max_plies: 10,
    }
}

/// A consistent summary of shard `index/count` of a 4-game run: each of
/// its games a white win after 10 plies.
fn shard(index: u32, count: u32) -> Summary {
    let shard = Shard { index, count };
    let mut summary = Summary::new(settings(), shard);
    let games = if (1..=count).contains(&index) {
        shard.games(4).count() as u32
    } else {
        1
    };
    summary.games = games;
    summary.white_wins = games;
    summary.white_score = games as f64;
    summary.reasons.insert("checkmate".into(), games);
    summary.lengths.insert(10, games);
    summary
}

/// A fresh folder for one test's files.
fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("varc-hardening-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp folder");
    dir
}

/// `varc selfplay merge` of `summaries` written to files, with `-o`: its
/// exit code, its stderr, and whether the output file was written.
fn merge(name: &str, summaries: &[Summary]) -> (Option<i32>, String, bool) {
    let dir = folder(name);
    let mut args: Vec<PathBuf> = Vec::new();
    for (i, summary) in summaries.iter().enumerate() {
        let path = dir.join(format!("summary-{i}.json"));
        let text = serde_json::to_string_pretty(summary).expect("json");
        std::fs::write(&path, text).expect("write summary");
        args.push(path);
    }
    let merged = dir.join("merged.json");
    let output = Command::new(env!("CARGO_BIN_EXE_varc"))
        .args(["selfplay", "merge"])
        .args(&args)
        .arg("-o")
        .arg(&merged)
        .output()
        .expect("varc runs");
    let written = Path::new(&merged).exists();
    let _ = std::fs::remove_dir_all(&dir);
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
        written,
    )
}

fn assert_refused(name: &str, summaries: &[Summary], why: &str) {
    let (code, stderr, written) = merge(name, summaries);
    assert_ne!(code, Some(0), "{name}: {stderr}");
    assert!(stderr.contains(why), "{name}: {stderr}");
    assert!(!written, "{name}: a merged file was written");
}

#[test]
fn merge_of_consistent_shards_succeeds() {
    let (code, stderr, written) = merge("good", &[shard(1, 2), shard(2, 2)]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(written);
}

#[test]
fn merge_refuses_shards_of_different_splits() {
    assert_refused(
        "splits",
        &[shard(1, 2), shard(1, 3)],
        "shards of 2 and of 3 cannot be merged",
    );
}

#[test]
fn merge_refuses_shard_index_out_of_range() {
    assert_refused(
        "range",
        &[shard(1, 2), shard(2, 2), shard(3, 2)],
        "shard 3/2 does not exist",
    );
}

#[test]
fn merge_refuses_the_same_shard_twice() {
    assert_refused(
        "twice",
        &[shard(1, 2), shard(1, 2), shard(2, 2)],
        "counted twice",
    );
}

#[test]
fn merge_refuses_missing_shards() {
    assert_refused(
        "missing",
        &[shard(1, 3), shard(2, 3)],
        "shards 3 of 3 are missing",
    );
}

#[test]
fn merge_refuses_counts_that_do_not_add_up() {
    let mut impossible = shard(2, 2);
    impossible.white_wins = 1000;
    assert_refused(
        "wins",
        &[shard(1, 2), impossible],
        "the counts do not add up",
    );
    let mut too_many = shard(2, 2);
    too_many.games = 4;
    too_many.white_wins = 4;
    too_many.reasons.insert("checkmate".into(), 4);
    too_many.lengths.insert(10, 4);
    assert_refused("games", &[shard(1, 2), too_many], "4 games counted");
}
