//! `varc play` in a real terminal: a tmux session is driven with
//! send-keys and read with capture-pane. Without tmux on the machine the
//! test says so and passes (nothing to drive).

use std::process::Command;
use std::time::{Duration, Instant};

struct Session(String);

impl Drop for Session {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["kill-session", "-t", &self.0])
            .status();
    }
}

impl Session {
    fn screen(&self) -> String {
        Command::new("tmux")
            .args(["capture-pane", "-p", "-t", &self.0, "-S", "-200"])
            .output()
            .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
            .unwrap_or_default()
    }

    fn keys(&self, text: &str) {
        let status = Command::new("tmux")
            .args(["send-keys", "-t", &self.0, text, "Enter"])
            .status()
            .expect("tmux send-keys");
        assert!(status.success());
    }

    /// Waits until the screen shows `count` occurrences of `text`.
    fn wait_for(&self, text: &str, count: usize) -> String {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if screen.matches(text).count() >= count {
                return screen;
            }
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "waiting for {text:?} x{count}:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

#[test]
fn play_in_tmux_against_the_engine() {
    if Command::new("tmux").arg("-V").output().is_err() {
        eprintln!("tmux is not installed: skipping the terminal test");
        return;
    }
    let name = format!("varc-play-test-{}", std::process::id());
    let rules = concat!(env!("CARGO_MANIFEST_DIR"), "/variants/ppc.rules");
    let command = format!("{} play {rules} --depth 1", env!("CARGO_BIN_EXE_varc"));
    let status = Command::new("tmux")
        .args([
            "new-session",
            "-d",
            "-s",
            &name,
            "-x",
            "100",
            "-y",
            "50",
            &command,
        ])
        .status()
        .expect("tmux new-session");
    assert!(status.success());
    let session = Session(name);
    let screen = session.wait_for("white>", 1);
    assert!(screen.contains("Piece Promotion Chess"));
    assert!(screen.contains("white to move"));
    session.keys("e4");
    let screen = session.wait_for("white>", 2);
    assert!(screen.contains("last move: white e4"), "{screen}");
    assert!(screen.contains("black thinks... "), "{screen}");
    // The last move is marked on the board.
    assert!(screen.contains('['), "{screen}");
    session.keys("Ke9");
    let screen = session.wait_for("refused:", 1);
    assert!(
        screen.contains("e9 is not a square of this board"),
        "{screen}"
    );
    session.keys("history");
    let screen = session.wait_for("1. e4 ", 1);
    assert!(screen.contains("1. e4 "), "{screen}");
    session.keys("resign");
    let screen = session.wait_for("Game over", 1);
    assert!(screen.contains("white resigns (score 0-2)"), "{screen}");
    session.keys("quit");
}
