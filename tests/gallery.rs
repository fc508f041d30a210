//! The gallery: Fairy-Stockfish's built-in variants that the language
//! states in full, one file each under `variants/gallery/`, named after
//! Fairy-Stockfish's variant name. Each is checked against the perft
//! vectors that Fairy-Stockfish's Python binding computed for it
//! (`tests/vectors/gallery/NAME.epd`, written by
//! `scripts/gallery-vectors.py`), with the ending rules applied as that
//! binding applies them (`varc perft --end-rules`).
//!
//! - The interpreter runs every gallery variant at the vectors' default
//!   depths (counts up to 50,000).
//! - The compiled engine runs ten gallery variants by default (building
//!   an engine takes seconds); `VARC_GALLERY_COMPILED=1` runs all of them.
//! - `VARC_DEEP=1` also runs the deeper counts a vector file may hold.
//! - Each file's lowered model is a golden dump (`golden/dumps/gallery/`).

mod common;

use common::Vector;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use varc::interp::Interpreter;
use varc_runtime::fen::{parse_fen, write_fen};
use varc_runtime::perft::perft_counts_with_end_rules;
use varc_runtime::rules::Rules;

/// The largest count the default run checks (the script's default limit).
const DEFAULT_LIMIT: u64 = 50_000;

/// Gallery variants whose compiled engine the default run checks: the
/// ending rules of the bare king, of extinction and of the hill,
/// compulsory capture, Horde's double steps and en passant zone, no
/// checks (racing kings), confined pieces, lame leaps, cannons and the
/// flying general (xiangqi), hands and drops (crazyhouse), explosions
/// (atomic), promotion limits (grand), promotion on leaving the zone,
/// immobility, pawn drops one to a file and `+` letters (shogi),
/// counting rules (makruk), compulsory drops and promotion as a move
/// of its own (sittuyin), and gating (seirawan).
const COMPILED_BY_DEFAULT: [&str; 14] = [
    "shatranj",
    "extinction",
    "kingofthehill",
    "antichess",
    "horde",
    "racingkings",
    "xiangqi",
    "crazyhouse",
    "atomic",
    "grand",
    "shogi",
    // Its engine is built for tests/rules_counting.rs anyway.
    "makruk",
    // Its engine is built for tests/rules_sittuyin.rs anyway.
    "sittuyin",
    // Its engine is built for tests/rules_gating.rs anyway.
    "seirawan",
];

fn gallery_dir() -> PathBuf {
    common::variants_dir().join("gallery")
}

fn vectors_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/vectors/gallery")
}

/// The gallery's variant names (`variants/gallery/*.rules`), sorted.
fn gallery_names() -> Vec<String> {
    common::rules_names_in(&gallery_dir())
}

fn gallery_variant(name: &str) -> varc::model::Variant {
    let path = gallery_dir().join(format!("{name}.rules"));
    varc::load_variant(&path).unwrap_or_else(|e| panic!("{name} does not compile:\n{}", e.render()))
}

fn deep() -> bool {
    std::env::var("VARC_DEEP").is_ok_and(|v| v != "0")
}

/// The counts of `vector` this run checks.
fn wanted(vector: &Vector) -> Vec<(u32, u64)> {
    let limit = if deep() { u64::MAX } else { DEFAULT_LIMIT };
    vector
        .counts
        .iter()
        .copied()
        .filter(|(_, count)| *count <= limit)
        .collect()
}

fn read_vectors(name: &str) -> Vec<Vector> {
    common::read_vector_file(&vectors_dir().join(format!("{name}.epd")))
}

#[test]
fn every_gallery_variant_is_named_after_its_file_and_has_vectors() {
    let names = gallery_names();
    assert!(
        names.len() >= 20,
        "the gallery has {} variants",
        names.len()
    );
    for name in &names {
        let variant = gallery_variant(name);
        assert_eq!(&variant.id, name, "a gallery variant's id is its file name");
        let vectors = read_vectors(name);
        assert!(vectors.len() >= 2, "{name}: start and playout positions");
        // Compared as positions: a setup may be written in another form of
        // the same FEN (shogi's `[-] w 0 1`, as Fairy-Stockfish's variant
        // table gives it, where pyffish writes `[] w - - 0 1`).
        let written = |fen: &str| {
            write_fen(
                &variant,
                &parse_fen(&variant, fen).unwrap_or_else(|e| panic!("{name}: {fen}: {e}")),
            )
        };
        assert_eq!(
            written(&vectors[0].fen),
            written(&variant.start_fen),
            "{name}: the vectors start from the variant's start position"
        );
    }
}

/// Every gallery variant's lowered model is a golden snapshot
/// (`golden/dumps/gallery/NAME.snap`), so that a change to what a file
/// means shows in review.
#[test]
fn every_gallery_variant_dumps_as_its_snapshot() {
    for name in gallery_names() {
        let text = varc::dump::dump(&gallery_variant(&name));
        insta::with_settings!({snapshot_path => "../golden/dumps/gallery", prepend_module_to_snapshot => false}, {
            insta::assert_snapshot!(name, text);
        });
    }
}

#[test]
fn gallery_copies_of_bundled_variants_are_the_same_files() {
    for name in ["chess", "capablanca", "losalamos"] {
        let bundled = std::fs::read_to_string(common::variants_dir().join(format!("{name}.rules")));
        let gallery = std::fs::read_to_string(gallery_dir().join(format!("{name}.rules")));
        assert_eq!(
            bundled.expect("bundled"),
            gallery.expect("gallery"),
            "variants/gallery/{name}.rules is a copy of variants/{name}.rules"
        );
    }
}

/// Every gallery variant, in the interpreter, with end rules: every
/// position and depth of its vectors (in parallel threads).
#[test]
fn interpreter_perft_with_end_rules_agrees_with_fairy_stockfish() {
    let jobs: Vec<(String, Interpreter, Vector)> = gallery_names()
        .into_iter()
        .flat_map(|name| {
            let rules = Interpreter::new(gallery_variant(&name)).expect("interpreter");
            read_vectors(&name)
                .into_iter()
                .map(move |vector| (name.clone(), rules.clone(), vector))
        })
        .collect();
    let next = AtomicUsize::new(0);
    let failures = Mutex::new(Vec::new());
    let checked = AtomicUsize::new(0);
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some((name, rules, vector)) = jobs.get(i) else {
                    break;
                };
                let wanted = wanted(vector);
                let Some(max_depth) = wanted.iter().map(|(d, _)| *d).max() else {
                    continue;
                };
                let position = match parse_fen(rules.variant(), &vector.fen) {
                    Ok(position) => position,
                    Err(error) => {
                        failures.lock().unwrap().push(format!(
                            "{name}.epd:{}: {}: {error}",
                            vector.line, vector.fen
                        ));
                        continue;
                    }
                };
                let counts = perft_counts_with_end_rules(rules, &position, max_depth);
                for (depth, expected) in wanted {
                    checked.fetch_add(1, Ordering::Relaxed);
                    let got = counts[depth as usize - 1];
                    if got != expected {
                        failures.lock().unwrap().push(format!(
                            "{name}.epd:{}: {} depth {depth}: Fairy-Stockfish {expected}, varc {got}",
                            vector.line, vector.fen
                        ));
                    }
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(checked.load(Ordering::Relaxed) > 0);
}

/// The compiled engine's `batch --end-rules` counts for `(depth, fen)` jobs.
fn compiled_counts(binary: &Path, jobs: &[(u32, String)]) -> Vec<String> {
    let mut child = Command::new(binary)
        .args(["batch", "--end-rules"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", binary.display()));
    let mut input = String::new();
    for (depth, fen) in jobs {
        input.push_str(&format!("{depth} {fen}\n"));
    }
    let mut stdin = child.stdin.take().expect("piped stdin");
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child.wait_with_output().expect("engine output");
    writer.join().expect("writer").expect("write to the engine");
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

fn check_compiled(name: &str) -> Vec<String> {
    let binary = common::engine(&gallery_variant(name));
    let vectors = read_vectors(name);
    let jobs: Vec<(u32, String, u64, usize)> = vectors
        .iter()
        .flat_map(|vector| {
            wanted(vector)
                .into_iter()
                .map(|(depth, count)| (depth, vector.fen.clone(), count, vector.line))
        })
        .collect();
    let questions: Vec<(u32, String)> = jobs.iter().map(|(d, f, _, _)| (*d, f.clone())).collect();
    let answers = compiled_counts(&binary, &questions);
    assert_eq!(answers.len(), jobs.len(), "{name}: one answer per question");
    jobs.iter()
        .zip(answers)
        .filter(|((_, _, expected, _), got)| got.parse::<u64>() != Ok(*expected))
        .map(|((depth, fen, expected, line), got)| {
            format!("{name}.epd:{line}: {fen} depth {depth}: Fairy-Stockfish {expected}, compiled {got}")
        })
        .collect()
}

/// A few gallery variants' compiled engines by default, every one with
/// `VARC_GALLERY_COMPILED=1`.
#[test]
fn compiled_perft_with_end_rules_agrees_with_fairy_stockfish() {
    let all = std::env::var("VARC_GALLERY_COMPILED").is_ok_and(|v| v != "0");
    let names: Vec<String> = if all {
        gallery_names()
    } else {
        COMPILED_BY_DEFAULT.iter().map(|s| s.to_string()).collect()
    };
    let failures: Vec<String> = names
        .iter()
        .flat_map(|name| check_compiled(name.as_str()))
        .collect();
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// `varc perft --end-rules`: in shatranj, Black's king is bare and White,
/// to move, has more than its king: the game is over (White wins), so the
/// position has no moves; without the flag perft counts White's moves and
/// Black's replies as before.
#[test]
fn cli_end_rules_empties_an_ended_position() {
    let file = gallery_dir().join("shatranj.rules");
    let fen = "k7/8/8/8/8/8/8/KR6 w - - 0 1";
    let perft = |extra: &[&str]| {
        let output = Command::new(env!("CARGO_BIN_EXE_varc"))
            .arg("perft")
            .arg(&file)
            .args(["2", "--fen", fen, "--json"])
            .args(extra)
            .output()
            .expect("varc perft runs");
        assert!(output.status.success(), "{output:?}");
        let value: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
        value["nodes"].as_u64().expect("nodes")
    };
    assert_eq!(perft(&["--end-rules"]), 0);
    assert!(perft(&[]) > 0);
}

/// `setup` writes holes as FEN does (`*`, issue 10): on a hole square it is
/// read, on a square of the board it is an error that names the square.
#[test]
fn setup_reads_holes_written_as_stars() {
    let dir = gallery_dir();
    let holes = "variant holes extends chess\nreplace board 8 x 8 holes a1 h8\n\
                 replace setup \"rnbqkbn*/pppppppp/8/8/8/8/PPPPPPPP/*NBQKBNR w - - 0 1\"\n\
                 drop castling\n";
    let variant = varc::load_variant_from_str("holes.rules", holes, &dir)
        .unwrap_or_else(|e| panic!("{}", e.render()));
    assert_eq!(variant.board.holes.len(), 2);
    let not_a_hole = holes.replace("holes a1 h8", "holes a1");
    let error = varc::load_variant_from_str("holes.rules", &not_a_hole, &dir)
        .expect_err("h8 is not a hole")
        .render();
    assert!(error.contains("h8 is not a hole"), "{error}");
}

/// `opponent pieces of king in hill >= 1` (a count limited to a region):
/// in King of the hill the king that reaches the centre wins at once, in
/// the interpreter (`varc replay`) and in the compiled engine alike.
#[test]
fn kingofthehill_king_reaching_the_hill_wins_in_both_back_ends() {
    let file = gallery_dir().join("kingofthehill.rules");
    let moves = "e2e4 a7a6 e1e2 a6a5 e2e3 a5a4 e3d4";
    let interpreted = Command::new(env!("CARGO_BIN_EXE_varc"))
        .arg("replay")
        .arg(&file)
        .args(["--moves", moves, "--json"])
        .output()
        .expect("varc replay runs");
    let binary = common::engine(&gallery_variant("kingofthehill"));
    let compiled = Command::new(binary)
        .args(["replay", "--moves", moves, "--json"])
        .output()
        .expect("the engine replays");
    for output in [interpreted, compiled] {
        let value: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
        assert_eq!(value["status"], "ended", "{value}");
        assert_eq!(value["result"], "white wins", "{value}");
        assert!(
            value["reason"]
                .as_str()
                .is_some_and(|r| r.contains("king of the hill")),
            "{value}"
        );
    }
    // One move short of the hill, the game goes on.
    let short = moves.trim_end_matches(" e3d4");
    let (value, _) = common::replay_json(&[file.to_str().expect("path"), "--moves", short]);
    assert_eq!(value["status"], "ongoing", "{value}");
}

/// Horde (`en-passant pawn onto en-passant-squares`, double steps `in
/// double-step`): a white pawn that double steps from the first rank cannot
/// be taken en passant (the capture would land on Black's seventh rank),
/// one from the second rank can; a pawn that moved may still double step
/// from the second rank. Interpreter and compiled engine alike.
#[test]
fn horde_en_passant_only_onto_the_capturers_sixth_rank_in_both_back_ends() {
    let file = gallery_dir().join("horde.rules");
    let binary = common::engine(&gallery_variant("horde"));
    let cases = [
        // a1a3 passes a2: b3 may not take en passant.
        ("4k3/8/8/8/8/1p6/8/P7 w - - 0 1", "a1a3", "b3a2", false),
        // a2a4 passes a3: b4 takes en passant.
        ("4k3/8/8/8/1p6/8/P7/8 w - - 0 1", "a2a4", "b4a3", true),
    ];
    for (fen, double_step, capture, allowed) in cases {
        let interpreted = Command::new(env!("CARGO_BIN_EXE_varc"))
            .arg("replay")
            .arg(&file)
            .args(["--fen", fen, "--moves", double_step, "--json"])
            .output()
            .expect("varc replay runs");
        let compiled = Command::new(&binary)
            .args(["replay", "--fen", fen, "--moves", double_step, "--json"])
            .output()
            .expect("the engine replays");
        for output in [interpreted, compiled] {
            let value: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
            let legal: Vec<&str> = value["legal_moves"]
                .as_array()
                .expect("legal moves")
                .iter()
                .filter_map(|m| m.as_str())
                .collect();
            assert_eq!(
                legal.contains(&capture),
                allowed,
                "{fen} {double_step}: {value}"
            );
        }
    }
    // A pawn that moved from the first rank double steps from the second.
    let (value, _) = common::replay_json(&[
        file.to_str().expect("path"),
        "--fen",
        "4k3/8/8/8/8/8/8/P7 w - - 0 1",
        "--moves",
        "a1a2 e8e7 a2a4",
    ]);
    assert_eq!(value["status"], "ongoing", "{value}");
    assert!(value["error"].is_null(), "{value}");
}

/// The gallery's files are in the canonical layout (`varc fmt`).
#[test]
fn gallery_files_are_formatted() {
    let paths: Vec<PathBuf> = gallery_names()
        .iter()
        .map(|name| gallery_dir().join(format!("{name}.rules")))
        .collect();
    let output = Command::new(env!("CARGO_BIN_EXE_varc"))
        .args(["fmt", "--check"])
        .args(&paths)
        .output()
        .expect("varc fmt runs");
    assert!(
        output.status.success(),
        "run `varc fmt variants/gallery/*.rules`; not formatted:\n{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}
