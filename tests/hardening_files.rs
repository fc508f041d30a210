//! Hardening of what varc writes and prints (issue 12): output folders it
//! does not own are refused, links are not written through, a saved game
//! never replaces a file unasked; two engines of one variant id keep their
//! own binaries; control characters in rules-file strings are refused, and
//! a `}` in a reason survives the records.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::varc;

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// A fresh scratch folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("varc-hardening-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir
}

fn text(path: &Path) -> String {
    path.to_str().expect("a UTF-8 path").to_string()
}

fn chess_rules() -> String {
    std::fs::read_to_string(common::variants_dir().join("chess.rules")).expect("chess.rules")
}

fn chess_file() -> String {
    text(&common::variants_dir().join("chess.rules"))
}

/// Writes chess.rules with `from` replaced by `to` as `dir/NAME`.
fn chess_variant(dir: &Path, name: &str, from: &str, to: &str) -> PathBuf {
    let source = chess_rules();
    assert!(source.contains(from), "chess.rules has no {from:?}");
    let path = dir.join(name);
    std::fs::write(&path, source.replacen(from, to, 1)).expect("rules file written");
    path
}

// ------------------------------------------------------------ output folders

#[test]
fn build_refuses_folder_it_does_not_own() {
    let root = scratch("not-owned");
    let dir = root.join("my-project");
    std::fs::create_dir_all(dir.join("src")).expect("folders");
    std::fs::write(dir.join("Cargo.toml"), "[package]\nname = \"mine\"\n").expect("manifest");
    std::fs::write(dir.join("src/main.rs"), "fn main() {}\n").expect("main");
    let output = varc(&["build", &chess_file(), "-o", &text(&dir), "--no-build"]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let message = stderr(&output);
    assert!(message.contains(&text(&dir)), "names the folder: {message}");
    assert!(message.contains("not made by varc"), "says why: {message}");
    assert_eq!(
        std::fs::read_to_string(dir.join("Cargo.toml"))
            .ok()
            .as_deref(),
        Some("[package]\nname = \"mine\"\n")
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("src/main.rs"))
            .ok()
            .as_deref(),
        Some("fn main() {}\n")
    );
    assert!(!dir.join("src/lib.rs").exists(), "nothing was added");
    assert!(!dir.join(varc::output::MARKER).exists());
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn build_rewrites_a_folder_it_made() {
    let root = scratch("rebuild");
    let dir = root.join("engine");
    for _ in 0..2 {
        let output = varc(&["build", &chess_file(), "-o", &text(&dir), "--no-build"]);
        assert!(output.status.success(), "{}", stderr(&output));
    }
    assert!(dir.join(varc::output::MARKER).is_file());
    assert!(dir.join("src/lib.rs").is_file());
    let _ = std::fs::remove_dir_all(&root);
}

#[cfg(unix)]
#[test]
fn build_does_not_write_through_a_symlinked_file_or_folder() {
    let root = scratch("symlink-build");
    let dir = root.join("engine");
    let outside = root.join("outside.txt");
    std::fs::write(&outside, "precious\n").expect("outside file");
    let first = varc(&["build", &chess_file(), "-o", &text(&dir), "--no-build"]);
    assert!(first.status.success(), "{}", stderr(&first));

    // A link put in place of a file varc writes.
    std::fs::remove_file(dir.join("src/main.rs")).expect("main.rs removed");
    std::os::unix::fs::symlink(&outside, dir.join("src/main.rs")).expect("link");
    let output = varc(&["build", &chess_file(), "-o", &text(&dir), "--no-build"]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("symbolic link"),
        "{}",
        stderr(&output)
    );
    assert_eq!(
        std::fs::read_to_string(&outside).ok().as_deref(),
        Some("precious\n")
    );

    // A link put in place of a folder varc writes into.
    let elsewhere = root.join("elsewhere");
    std::fs::create_dir_all(&elsewhere).expect("folder");
    std::fs::write(elsewhere.join("lib.rs"), "mine\n").expect("file");
    std::fs::remove_dir_all(dir.join("src")).expect("src removed");
    std::os::unix::fs::symlink(&elsewhere, dir.join("src")).expect("link");
    let output = varc(&["build", &chess_file(), "-o", &text(&dir), "--no-build"]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert_eq!(
        std::fs::read_to_string(elsewhere.join("lib.rs"))
            .ok()
            .as_deref(),
        Some("mine\n")
    );
    assert!(!elsewhere.join("main.rs").exists());

    // The output folder itself a link.
    let linked = root.join("linked");
    std::os::unix::fs::symlink(&elsewhere, &linked).expect("link");
    let output = varc(&["build", &chess_file(), "-o", &text(&linked), "--no-build"]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert!(!elsewhere.join("Cargo.toml").exists());
    let _ = std::fs::remove_dir_all(&root);
}

fn selfplay_one_game(file: &str, dir: &Path) -> Output {
    varc(&[
        "selfplay",
        file,
        "--games",
        "1",
        "--depth",
        "1",
        "--max-plies",
        "40",
        "--out",
        &text(dir),
    ])
}

#[test]
fn selfplay_refuses_folder_it_does_not_own() {
    let root = scratch("selfplay-not-owned");
    let dir = root.join("games");
    std::fs::create_dir_all(&dir).expect("folder");
    std::fs::write(dir.join("game-00001.pgn"), "my game\n").expect("user file");
    let output = selfplay_one_game(&chess_file(), &dir);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert!(stderr(&output).contains(&text(&dir)), "{}", stderr(&output));
    assert_eq!(
        std::fs::read_to_string(dir.join("game-00001.pgn"))
            .ok()
            .as_deref(),
        Some("my game\n")
    );
    let _ = std::fs::remove_dir_all(&root);
}

#[cfg(unix)]
#[test]
fn selfplay_does_not_follow_a_symlinked_record() {
    let root = scratch("selfplay-symlink");
    let dir = root.join("games");
    let first = selfplay_one_game(&chess_file(), &dir);
    assert!(first.status.success(), "{}", stderr(&first));
    let outside = root.join("outside.pgn");
    std::fs::write(&outside, "precious\n").expect("outside file");
    std::fs::remove_file(dir.join("game-00001.pgn")).expect("record removed");
    std::os::unix::fs::symlink(&outside, dir.join("game-00001.pgn")).expect("link");
    let output = selfplay_one_game(&chess_file(), &dir);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("symbolic link"),
        "{}",
        stderr(&output)
    );
    assert_eq!(
        std::fs::read_to_string(&outside).ok().as_deref(),
        Some("precious\n")
    );
    let _ = std::fs::remove_dir_all(&root);
}

/// `varc play --engine none` fed `script`; its standard output.
fn play(script: &str) -> String {
    let output = common::play_script(Path::new(&chess_file()), script);
    assert!(output.status.success(), "{}", stderr(&output));
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn play_save_refuses_to_overwrite_an_existing_file() {
    let root = scratch("play-save");
    let file = root.join("notes.txt");
    std::fs::write(&file, "my notes\n").expect("user file");
    let shown = play(&format!("e4\nsave {}\nquit\n", text(&file)));
    assert!(shown.contains("already exists"), "{shown}");
    assert!(shown.contains("save!"), "tells how to replace it: {shown}");
    assert_eq!(
        std::fs::read_to_string(&file).ok().as_deref(),
        Some("my notes\n")
    );

    let shown = play(&format!("e4\nsave! {}\nquit\n", text(&file)));
    assert!(shown.contains("saved to"), "{shown}");
    let saved = std::fs::read_to_string(&file).expect("saved record");
    assert!(
        saved.contains("[Variant \"chess\"]") && saved.contains("e4"),
        "{saved}"
    );

    let new_file = root.join("game.pgn");
    let shown = play(&format!("e4\nsave {}\nquit\n", text(&new_file)));
    assert!(shown.contains("saved to"), "{shown}");
    assert!(new_file.is_file());
    assert!(
        play("help\nquit\n").contains("save! FILE"),
        "help shows save!"
    );
    let _ = std::fs::remove_dir_all(&root);
}

// ------------------------------------------------------------ engine identity

fn perft_nodes(program: &Path, args: &[&str]) -> u64 {
    let output = Command::new(program)
        .args(args)
        .output()
        .expect("perft runs");
    assert!(output.status.success(), "{}", stderr(&output));
    let value: serde_json::Value =
        serde_json::from_slice(&output.stdout).expect("perft prints JSON");
    value["nodes"].as_u64().expect("nodes")
}

#[test]
fn engines_of_one_variant_id_built_in_two_folders_run_their_own_rules() {
    let root = scratch("two-engines");
    let standard = chess_variant(&root, "standard.rules", "", "");
    let no_knights = chess_variant(
        &root,
        "no-knights.rules",
        "PPPPPPPP/RNBQKBNR w",
        "PPPPPPPP/R1BQKB1R w",
    );
    let mut binaries = Vec::new();
    for (file, folder) in [(&standard, "standard"), (&no_knights, "no-knights")] {
        let output = varc(&["build", &text(file), "-o", &text(&root.join(folder))]);
        assert!(output.status.success(), "{}", stderr(&output));
        let printed = String::from_utf8_lossy(&output.stdout).trim().to_string();
        binaries.push((file.clone(), PathBuf::from(printed)));
    }
    assert_ne!(binaries[0].1, binaries[1].1, "two engines, two paths");
    let mut counts = Vec::new();
    for (file, binary) in &binaries {
        let engine = perft_nodes(binary, &["perft", "2", "--json"]);
        let interpreter = perft_nodes(
            Path::new(env!("CARGO_BIN_EXE_varc")),
            &["perft", &text(file), "2", "--json"],
        );
        assert_eq!(
            engine,
            interpreter,
            "{} runs the rules of {}",
            binary.display(),
            file.display()
        );
        counts.push(engine);
    }
    assert_ne!(counts[0], counts[1], "the rules differ, so do the counts");
    let _ = std::fs::remove_dir_all(&root);
}

// ------------------------------------------------------------ text in rules files

fn check(path: &Path) -> Output {
    varc(&["check", &text(path)])
}

#[test]
fn check_rejects_escape_in_a_reason_with_a_located_error() {
    let root = scratch("escape-reason");
    let path = chess_variant(
        &root,
        "escape.rules",
        "reason \"fifty-move rule\"",
        "reason \"fifty\u{1b}[2J rule\"",
    );
    let output = check(&path);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let message = stderr(&output);
    assert!(message.contains("control character"), "{message}");
    let line = chess_rules()
        .lines()
        .position(|l| l.contains("fifty-move rule"))
        .expect("the line")
        + 1;
    assert!(
        message.contains(&format!("escape.rules:{line}:")),
        "located at line {line}: {message}"
    );
    assert!(
        !message.contains('\u{1b}'),
        "the escape is not printed raw: {message:?}"
    );
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn check_rejects_carriage_return_in_the_display_name() {
    let root = scratch("cr-name");
    let path = chess_variant(
        &root,
        "cr.rules",
        "variant chess \"Chess\"",
        "variant chess \"Chess\ruciok\"",
    );
    let output = check(&path);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let message = stderr(&output);
    assert!(message.contains("cr.rules:2:"), "{message}");
    assert!(!message.contains('\r'), "{message:?}");
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn check_rejects_bidi_override_in_a_string() {
    let root = scratch("bidi");
    let path = chess_variant(
        &root,
        "bidi.rules",
        "reason \"threefold repetition\"",
        "reason \"threefold \u{202e}noititeper\"",
    );
    let output = check(&path);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert!(!stderr(&output).contains('\u{202e}'), "{}", stderr(&output));
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn selfplay_records_keep_a_reason_with_a_closing_brace() {
    let root = scratch("brace");
    let reason = "a {short} game } over \\ here";
    let path = chess_variant(
        &root,
        "brace.rules",
        "reset plies on capture, move of pawn\n",
        &format!(
            "reset plies on capture, move of pawn\nshort: end when plies 2 => draw, reason \"{reason}\"\n"
        ),
    );
    let dir = root.join("games");
    let output = selfplay_one_game(&text(&path), &dir);
    assert!(output.status.success(), "{}", stderr(&output));
    let record = std::fs::read_to_string(dir.join("game-00001.pgn")).expect("the record");
    let variant = varc::load_variant(&path).expect("the variant loads");
    let rules = varc::interp::Interpreter::new(variant).expect("an interpreter");
    let game = varc_runtime::game::record::load(rules, &record)
        .unwrap_or_else(|e| panic!("the record loads: {e}\n{record}"));
    let result = game.result().expect("the game ended");
    assert_eq!(result.reason, reason, "{record}");
    let _ = std::fs::remove_dir_all(&root);
}
