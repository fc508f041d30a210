//! Rules and numbers that used to be accepted and then broke the game
//! (issue 12, items 3 and 9): every number is checked against what its use
//! holds, limits are declared once, and what passes `check` plays. The
//! rules files refused at `check` are cases in `tests/bad/` (their
//! diagnostics are snapshots): `castling-same-square`, `history-zero-plies`,
//! `piece-value-too-large`, `award-wins-too-large`, `number-too-large`,
//! `too-many-kinds`.

mod common;

use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};
use varc_runtime::eval::Evaluator;
use varc_runtime::game::{Game, TimeControl};
use varc_runtime::model::MAX_PIECE_VALUE;
use varc_runtime::search::outcome::MATE_BOUND;
use varc_runtime::search::{Engine, Limits};

fn temp_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("hardening-rules")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

#[test]
fn clock_without_time_is_refused() {
    for text in ["0+0", "0", "0+5"] {
        assert!(text.parse::<TimeControl>().is_err(), "{text}");
    }
    assert!("0.5+0".parse::<TimeControl>().is_ok());
    let output = Command::new(env!("CARGO_BIN_EXE_varc"))
        .args(["play", "variants/chess.rules", "--clock", "0+0"])
        .output()
        .expect("run varc");
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("above 0"));
}

#[test]
fn largest_piece_values_keep_the_search_finite_and_below_mate_scores() {
    // A queen of 21474836 pawns hung the search at depth 1; the largest
    // value `check` now allows, on a board full of such queens, is still
    // searched and valued as a position, not as a mate.
    let text = std::fs::read_to_string("variants/chess.rules")
        .expect("chess rules")
        .replace("value 9 ", &format!("value {MAX_PIECE_VALUE} "));
    assert!(text.contains(&format!("value {MAX_PIECE_VALUE} ")));
    let dir = temp_dir("values");
    let variant = varc::load_variant_from_str("chess.rules", &text, &dir)
        .expect("the largest value passes check");
    let rules = varc::interp::Interpreter::new(variant).expect("interpreter");
    let variant = varc_runtime::rules::Rules::variant(&rules).clone();
    let evaluator = Evaluator::new(&variant);
    let full =
        Game::from_fen(rules.clone(), "QQQQ1QQQ/QQQQQQQQ/8/8/8/8/4k3/4K3 w - - 0 1").expect("FEN");
    let value = evaluator.evaluate(&rules, full.position());
    assert!(value > 0 && value < MATE_BOUND - 10_000, "{value}");
    // Queens both sides, no mate in sight: a finite search, a value that
    // is not a mate score.
    let game = Game::from_fen(rules, "q3k3/8/8/8/8/8/8/Q3K3 w - - 0 1").expect("FEN");
    let mut engine = Engine::new(&variant);
    let start = Instant::now();
    let result = engine.search(
        &game,
        &Limits::depth(3),
        &AtomicBool::new(false),
        &mut |_| {},
    );
    assert!(start.elapsed() < Duration::from_secs(60));
    assert!(result.best.is_some());
    assert!(result.value.abs() < MATE_BOUND, "{}", result.value);
}

#[test]
fn extends_cycle_of_fifty_files_is_reported_as_a_cycle() {
    let dir = temp_dir("cycle");
    for i in 0..50 {
        let parent = (i + 1) % 50;
        std::fs::write(
            dir.join(format!("v{i}.rules")),
            format!("variant v{i} extends v{parent}\n"),
        )
        .expect("write");
    }
    let error = varc::load_variant(&dir.join("v0.rules")).expect_err("a cycle");
    let text = error.render();
    assert!(text.contains("makes a cycle"), "{text}");
}

#[test]
fn extends_chain_of_fifty_files_loads() {
    let dir = temp_dir("chain");
    std::fs::copy("variants/chess.rules", dir.join("v50.rules")).expect("copy");
    let chess = std::fs::read_to_string(dir.join("v50.rules")).expect("read");
    std::fs::write(
        dir.join("v50.rules"),
        chess.replacen("variant chess", "variant v50", 1),
    )
    .expect("write");
    for i in 0..50 {
        std::fs::write(
            dir.join(format!("v{i}.rules")),
            format!("variant v{i} extends v{}\n", i + 1),
        )
        .expect("write");
    }
    if let Err(error) = varc::load_variant(&dir.join("v0.rules")) {
        panic!("{}", error.render());
    }
}
