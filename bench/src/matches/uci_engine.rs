//! One UCI engine process, driven line by line with timeouts: the match
//! runner's side of the protocol.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How long an engine may take to answer `uci` or `isready`.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(30);

/// What an engine said about one search: the last `info` line's figures.
#[derive(Clone, Debug, Default)]
pub struct SearchReport {
    /// The move sent with `bestmove`.
    pub best: String,
    /// Depth of the last `info` line that has one.
    pub depth: Option<u32>,
    /// Nodes and milliseconds of the last `info` line that has both.
    pub nodes_and_time: Option<(u64, u64)>,
    /// The last score, in centipawns for the side to move (a mate is
    /// +-100,000 less its distance).
    pub score_cp: Option<i32>,
}

/// A running UCI engine.
pub struct UciEngine {
    /// The name given on the command line.
    pub name: String,
    /// What this engine is told after `go`, where it differs from the
    /// match's (time or depth odds); `None`: the match's.
    pub go: Option<String>,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl UciEngine {
    /// Starts `command` (split on whitespace), shakes hands and sets the
    /// options it offers among `options` (name, value), then every option
    /// of `required`, which it must offer.
    pub fn start(
        name: &str,
        command: &str,
        options: &[(&str, String)],
        required: &[(String, String)],
    ) -> Result<Self, String> {
        let mut words = command.split_whitespace();
        let program = words.next().ok_or("an empty engine command")?;
        let mut child = Command::new(program)
            .args(words)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("{name}: cannot start {command}: {e}"))?;
        let stdin = child.stdin.take().ok_or("no engine stdin")?;
        let stdout = child.stdout.take().ok_or("no engine stdout")?;
        let (sender, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let mut engine = UciEngine {
            name: name.to_string(),
            go: None,
            child,
            stdin,
            lines,
        };
        engine.send("uci")?;
        let offered: Vec<String> = engine
            .read_until("uciok", HANDSHAKE_TIMEOUT)?
            .iter()
            .filter_map(|line| option_name(line))
            .collect();
        for (option, value) in options {
            if offered.iter().any(|o| o.eq_ignore_ascii_case(option)) {
                engine.send(&format!("setoption name {option} value {value}"))?;
            }
        }
        for (option, value) in required {
            if !offered.iter().any(|o| o.eq_ignore_ascii_case(option)) {
                return Err(format!("{name} does not offer the option {option}"));
            }
            engine.send(&format!("setoption name {option} value {value}"))?;
        }
        engine.sync()?;
        Ok(engine)
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| format!("{}: {e}", self.name))
    }

    /// `isready`, then waits for `readyok`.
    pub fn sync(&mut self) -> Result<(), String> {
        self.send("isready")?;
        self.read_until("readyok", HANDSHAKE_TIMEOUT).map(|_| ())
    }

    /// The lines up to and including the first whose first word is `word`.
    fn read_until(&mut self, word: &str, timeout: Duration) -> Result<Vec<String>, String> {
        let deadline = Instant::now() + timeout;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let done = line.split_whitespace().next() == Some(word);
                    seen.push(line);
                    if done {
                        return Ok(seen);
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err(format!("{}: no {word} within {timeout:?}", self.name))
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(format!("{}: exited before {word}", self.name))
                }
            }
        }
    }

    /// Searches the position after `moves` from the start with `go GO`;
    /// waits at most `timeout` for `bestmove`.
    pub fn search(
        &mut self,
        moves: &[String],
        go: &str,
        timeout: Duration,
    ) -> Result<SearchReport, String> {
        let position = if moves.is_empty() {
            "position startpos".to_string()
        } else {
            format!("position startpos moves {}", moves.join(" "))
        };
        self.send(&position)?;
        self.send(&format!("go {go}"))?;
        let lines = self.read_until("bestmove", timeout)?;
        let mut report = SearchReport::default();
        for line in &lines {
            if let Some(rest) = line.strip_prefix("bestmove ") {
                report.best = rest.split_whitespace().next().unwrap_or("").to_string();
            } else if line.starts_with("info ") && !line.starts_with("info string") {
                read_info(line, &mut report);
            }
        }
        Ok(report)
    }

    /// A new game: `ucinewgame`, then `isready`.
    pub fn new_game(&mut self) -> Result<(), String> {
        self.send("ucinewgame")?;
        self.sync()
    }
}

impl Drop for UciEngine {
    fn drop(&mut self) {
        let _ = self.send("quit");
        let deadline = Instant::now() + Duration::from_secs(2);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `option name Clear Hash type button` -> `Clear Hash`.
fn option_name(line: &str) -> Option<String> {
    let rest = line.strip_prefix("option name ")?;
    let name = rest.split(" type ").next()?;
    Some(name.trim().to_string())
}

/// Takes depth, nodes, time and score from one `info` line into `report`
/// (a line of a second MultiPV line or without these fields changes
/// nothing it does not have).
fn read_info(line: &str, report: &mut SearchReport) {
    let words: Vec<&str> = line.split_whitespace().collect();
    let field = |name: &str| {
        words
            .iter()
            .position(|w| *w == name)
            .and_then(|i| words.get(i + 1))
            .copied()
    };
    if field("multipv").is_some_and(|k| k != "1") {
        return;
    }
    if let Some(depth) = field("depth").and_then(|d| d.parse().ok()) {
        report.depth = Some(depth);
    }
    let nodes = field("nodes").and_then(|n| n.parse().ok());
    let time = field("time").and_then(|t| t.parse().ok());
    if let (Some(nodes), Some(time)) = (nodes, time) {
        report.nodes_and_time = Some((nodes, time));
    }
    if let Some(i) = words.iter().position(|w| *w == "score") {
        let value = words.get(i + 2).and_then(|v| v.parse::<i32>().ok());
        report.score_cp = match (words.get(i + 1).copied(), value) {
            (Some("cp"), Some(cp)) => Some(cp),
            (Some("mate"), Some(moves)) if moves > 0 => Some(100_000 - moves),
            (Some("mate"), Some(moves)) => Some(-100_000 - moves),
            _ => report.score_cp,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines_give_depth_nodes_time_and_score() {
        let mut report = SearchReport::default();
        read_info(
            "info depth 7 seldepth 9 multipv 1 score cp -35 nodes 1200 nps 9000 time 130 pv e2e4",
            &mut report,
        );
        read_info(
            "info depth 7 multipv 2 score cp -90 nodes 1300 time 140",
            &mut report,
        );
        assert_eq!(report.depth, Some(7));
        assert_eq!(report.nodes_and_time, Some((1200, 130)));
        assert_eq!(report.score_cp, Some(-35));
        read_info("info depth 8 score mate -2 nodes 5 time 1", &mut report);
        assert_eq!(report.score_cp, Some(-99_998));
        assert_eq!(
            option_name("option name Clear Hash type button").as_deref(),
            Some("Clear Hash")
        );
    }
}
