//! Every file varc reads is bounded whatever it is (issue 12, item 5): a
//! pipe or a device is not read whole. `/dev/zero` made `check` and
//! `play --load` grow to gigabytes.

#![cfg(unix)]

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn varc(args: &[&str]) -> (i32, String) {
    let start = Instant::now();
    let output = Command::new(env!("CARGO_BIN_EXE_varc"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run varc");
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "{args:?} took {:?}",
        start.elapsed()
    );
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn check_of_an_endless_device_is_refused_at_the_limit() {
    let (code, stderr) = varc(&["check", "/dev/zero"]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("more than"), "{stderr}");
}

#[test]
fn play_load_of_an_endless_device_is_refused_at_the_limit() {
    let (code, stderr) = varc(&["play", "variants/chess.rules", "--load", "/dev/zero"]);
    assert_ne!(code, 0, "{stderr}");
    assert!(stderr.contains("larger than"), "{stderr}");
}

#[test]
fn selfplay_merge_of_an_endless_device_is_refused_at_the_limit() {
    let (code, stderr) = varc(&["selfplay", "merge", "/dev/zero", "/dev/zero"]);
    assert_ne!(code, 0, "{stderr}");
    assert!(stderr.contains("larger than"), "{stderr}");
}
