//! Helpers shared by the tests: the bundled variants ([`variant`],
//! [`rules`]), deterministic garbage bytes, protocol sessions, and the
//! scenario harness of
//! `tests/scenarios_*.rs`: it plays a list of steps in a [`Game`] over the
//! reference interpreter, writes one readable line per step, then saves the
//! game as a record, loads it back and checks that the loaded game reaches
//! the same position, history and result (G3).

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use varc::interp::Interpreter;
use varc::model::Variant;
use varc_runtime::fen::{parse_fen, write_fen};
use varc_runtime::game::record::load;
use varc_runtime::game::{Game, ResultKind, TimeControl};
use varc_runtime::model::Color;
use varc_runtime::rules::Rules;
use varc_runtime::uci::Output;

/// `varc play RULES_FILE --engine none --plain` fed `script` on its
/// standard input; what it printed and how it ended.
pub fn play_script(rules_file: &Path, script: &str) -> std::process::Output {
    let args = [
        "play".as_ref(),
        rules_file.as_os_str(),
        "--engine".as_ref(),
        "none".as_ref(),
        "--plain".as_ref(),
    ];
    run_with_input(env!("CARGO_BIN_EXE_varc"), &args, script)
}

/// `varc replay ARGS --json`: the JSON it prints and its exit code.
pub fn replay_json(args: &[&str]) -> (serde_json::Value, i32) {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_varc"))
        .arg("replay")
        .args(args)
        .arg("--json")
        .output()
        .expect("varc runs");
    let text = String::from_utf8_lossy(&output.stdout);
    let value = serde_json::from_str(text.trim()).unwrap_or_else(|e| panic!("{e}: {text}"));
    (value, output.status.code().unwrap_or(-1))
}

/// `replay --json` of `args` by the interpreter (`varc replay FILE ...`)
/// and by the compiled engine of `variant`, in that order.
pub fn replay_both(file: &Path, variant: &Variant, args: &[&str]) -> [serde_json::Value; 2] {
    let (interpreted, _) = replay_json(&[&[file.to_str().expect("path")], args].concat());
    let output = std::process::Command::new(engine(variant))
        .arg("replay")
        .args(args)
        .arg("--json")
        .output()
        .expect("the engine replays");
    let compiled: serde_json::Value = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&output.stdout)));
    [interpreted, compiled]
}

/// The legal moves of a `replay --json` answer, as texts, sorted.
pub fn sorted_legal_moves(value: &serde_json::Value) -> Vec<String> {
    let list = value["legal_moves"].as_array().expect("legal_moves");
    let mut moves: Vec<String> = list
        .iter()
        .map(|m| m.as_str().expect("move text").to_string())
        .collect();
    moves.sort();
    moves
}

/// The folder of the bundled variants.
pub fn variants_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("variants")
}

/// The names of the bundled variants (`variants/*.rules`), sorted.
pub fn bundled_names() -> Vec<String> {
    rules_names_in(&variants_dir())
}

/// The names of the rules files in `dir` (`*.rules`, not below), sorted.
pub fn rules_names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "rules"))
        .filter_map(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .collect();
    names.sort();
    names
}

/// The model of a bundled variant (`variants/NAME.rules`).
pub fn variant(name: &str) -> Variant {
    let path = variants_dir().join(format!("{name}.rules"));
    varc::load_variant(&path).unwrap_or_else(|e| panic!("{name} does not compile:\n{}", e.render()))
}

/// The interpreter of a bundled variant (`variants/NAME.rules`).
pub fn rules(name: &str) -> Interpreter {
    Interpreter::new(variant(name)).expect("the interpreter accepts the variant")
}

/// The evaluation of `fen` from White's side, without the tempo bonus
/// (the interpreter's reaches).
pub fn white_evaluation(variant: &Variant, fen: &str) -> i32 {
    let position = parse_fen(variant, fen).expect("a valid position");
    let rules = Interpreter::new(variant.clone()).expect("rules");
    varc_runtime::eval::Evaluator::new(variant).evaluate_white(&rules, &rules.import(&position))
}

/// Builds (or reuses) the compiled engine of `variant` and returns its binary.
pub fn engine(variant: &Variant) -> PathBuf {
    let dir = varc::codegen::default_crate_dir(variant);
    varc::codegen::generate_and_build(variant, &dir, false)
        .unwrap_or_else(|e| panic!("building the {} engine: {e}", variant.id))
}

/// Perft with the ending rules (`--end-rules`) at depths 1 to 3 of each
/// `(FEN, counts)` case, by the interpreter and by the compiled engine of
/// `variant` (its `batch --end-rules`), each against the counts.
pub fn assert_end_rules_perft_in_both_back_ends(variant: &Variant, cases: &[(&str, [u64; 3])]) {
    let rules = Interpreter::new(variant.clone()).expect("interpreter");
    let mut input = String::new();
    for (fen, expected) in cases {
        let position = parse_fen(variant, fen).expect("fen");
        let counts = varc_runtime::perft::perft_counts_with_end_rules(&rules, &position, 3);
        assert_eq!(&counts, expected, "interpreter, {fen}");
        for depth in 1..=3 {
            input.push_str(&format!("{depth} {fen}\n"));
        }
    }
    let output = run_with_input(engine(variant), &["batch", "--end-rules"], &input);
    let expected: Vec<String> = cases
        .iter()
        .flat_map(|(_, counts)| counts.iter().map(u64::to_string))
        .collect();
    let got: Vec<String> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(got, expected, "compiled");
}

/// `varc ARGS` with nothing on its standard input, run to its end.
pub fn varc(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_varc"))
        .args(args)
        .stdin(std::process::Stdio::null())
        .output()
        .expect("varc runs")
}

/// Runs `program` with `args`, `input` on its standard input, to its
/// end: what it wrote (standard output and error) and its exit status.
pub fn run_with_input<S: AsRef<std::ffi::OsStr>>(
    program: impl AsRef<std::ffi::OsStr>,
    args: &[S],
    input: &str,
) -> std::process::Output {
    let mut command = std::process::Command::new(program);
    command.args(args);
    run_command_with_input(command, input)
}

/// Runs `command` (its program, arguments and environment set) with
/// `input` on its standard input, which it reads to the end: what it wrote
/// and its exit status.
pub fn run_command_with_input(
    mut command: std::process::Command,
    input: &str,
) -> std::process::Output {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the program starts");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("the program reads its input");
    child.wait_with_output().expect("the program ends")
}

/// SplitMix64, for reproducible random games.
pub struct Random(pub u64);

impl Random {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut x = self.0;
        x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        x ^ (x >> 31)
    }
}

/// Deterministic pseudo-random bytes (xorshift), printable-heavy like a
/// text file gone wrong, with some invalid UTF-8.
pub fn garbage(len: usize, seed: u64) -> Vec<u8> {
    let mut state = seed | 1;
    let mut bytes = Vec::with_capacity(len);
    while bytes.len() < len {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let byte = (state >> 24) as u8;
        bytes.push(if byte < 0xE0 { b' ' + byte % 95 } else { byte });
    }
    bytes
}

/// The lines a protocol loop (`uci::run`, `xboard::run`) writes for
/// `script` over the interpreter of `variant`.
pub fn protocol_session(
    run: fn(Interpreter, std::io::Cursor<String>, Output) -> std::io::Result<()>,
    variant: &str,
    script: &str,
) -> Vec<String> {
    let buffer = Arc::new(Mutex::new(Vec::<u8>::new()));
    let output: Output = buffer.clone();
    run(
        rules(variant),
        std::io::Cursor::new(script.to_string()),
        output,
    )
    .expect("session runs");
    let bytes = buffer.lock().expect("output").clone();
    String::from_utf8_lossy(&bytes)
        .lines()
        .map(str::to_string)
        .collect()
}

/// What a scenario ended with.
pub struct Outcome {
    /// The game after the steps.
    pub game: Game<Interpreter>,
    /// One line per step, then the final state.
    pub transcript: String,
    /// Steps refused, with the error text (the step index and the message).
    pub refused: Vec<(usize, String)>,
}

impl Outcome {
    /// The result kind, if the game ended.
    pub fn kind(&self) -> Option<ResultKind> {
        self.game.result().map(|r| r.kind)
    }

    /// The result's reason ("" while the game goes on).
    pub fn reason(&self) -> String {
        self.game
            .result()
            .map_or(String::new(), |r| r.reason.clone())
    }

    /// The scores, White first.
    pub fn scores(&self) -> [f64; 2] {
        self.game.result().map_or([0.0; 2], |r| r.scores)
    }

    /// The refusal message of step `index`, if it was refused.
    pub fn refusal(&self, index: usize) -> Option<&str> {
        self.refused
            .iter()
            .find(|(i, _)| *i == index)
            .map(|(_, m)| m.as_str())
    }
}

/// Plays `steps` in `variant` from `fen` (the start position if `None`),
/// timed if `clock` is given (`"300+5"`). A step is a move text, `claim`,
/// `offer`, `accept`, `resign`, `wait SECONDS`, or `MOVE@SECONDS` (a move
/// that took that long). Refused steps are recorded and the game goes on.
pub fn play(variant: &str, fen: Option<&str>, clock: Option<&str>, steps: &[&str]) -> Outcome {
    play_with_counters(variant, fen, clock, &[], steps)
}

/// [`play`] from a position whose counters are preset: `(name, white, black)`.
pub fn play_with_counters(
    variant: &str,
    fen: Option<&str>,
    clock: Option<&str>,
    counters: &[(&str, u32, u32)],
    steps: &[&str],
) -> Outcome {
    let rules = rules(variant);
    let fen = fen.map_or_else(|| rules.variant().start_fen.clone(), str::to_string);
    let mut position = parse_fen(rules.variant(), &fen).expect("scenario FEN reads");
    for (name, white, black) in counters {
        let id = rules
            .variant()
            .counters
            .iter()
            .position(|c| c.name == *name)
            .expect("counter exists");
        position.counters_mut(Color::White)[id] = *white;
        position.counters_mut(Color::Black)[id] = *black;
    }
    let mut game = Game::from_position(rules, position, None);
    if let Some(clock) = clock {
        let control: TimeControl = clock.parse().expect("time control reads");
        game = game.with_time_control(control);
    }
    let mut transcript = format!("{variant} from {fen}\n");
    if !counters.is_empty() {
        transcript.push_str(&format!("  counters: {counters:?}\n"));
    }
    if let Some(result) = game.result() {
        transcript.push_str(&format!(
            "  at the start: ended, {} ({})\n",
            result.kind, result.reason
        ));
    }
    let mut refused = Vec::new();
    for (index, step) in steps.iter().enumerate() {
        let outcome = if let Some(seconds) = step.strip_prefix("wait ") {
            let ms = (seconds.parse::<f64>().expect("seconds") * 1000.0) as u64;
            game.wait(ms)
        } else if let Some((text, seconds)) = step.split_once('@') {
            let ms = (seconds.parse::<f64>().expect("seconds") * 1000.0) as u64;
            game.parse_move(text)
                .and_then(|mv| game.play_timed(&mv, Some(ms)))
        } else {
            game.act(step)
        };
        let line = match outcome {
            Ok(()) => {
                let written = game
                    .steps()
                    .last()
                    .map_or(String::new(), |s| s.text.clone());
                let mut line = format!("{step:<10} -> {written}");
                if let Some(last) = game.steps().last() {
                    for award in &last.awards {
                        line.push_str(&format!(
                            " [award {} +{} {}]",
                            award.name, award.wins, award.player
                        ));
                    }
                }
                if let Some(result) = game.result() {
                    line.push_str(&format!(
                        " | ended: {} ({}), scores {}",
                        result.kind,
                        result.reason,
                        result.score_text()
                    ));
                } else {
                    let claims: Vec<String> =
                        game.claimable().into_iter().map(|c| c.reason).collect();
                    if !claims.is_empty() {
                        line.push_str(&format!(" | may claim: {}", claims.join(", ")));
                    }
                }
                line
            }
            Err(error) => {
                refused.push((index, error.to_string()));
                format!("{step:<10} -> refused: {error}")
            }
        };
        transcript.push_str(&line);
        transcript.push('\n');
    }
    let variant_ref = game.rules().variant();
    transcript.push_str(&format!(
        "final: {}\n",
        write_fen(variant_ref, game.position())
    ));
    match game.result() {
        Some(result) => transcript.push_str(&format!(
            "result: {} | reason: {} | scores: {} | wins: {}-{}\n",
            result.kind,
            result.reason,
            result.score_text(),
            result.wins[0],
            result.wins[1]
        )),
        None => transcript.push_str(&format!(
            "ongoing: {} legal moves, {} plies since reset, repetitions {}\n",
            game.legal_moves().len(),
            game.plies_since_reset(),
            game.repetitions().total
        )),
    }
    check_record_round_trip(&game);
    Outcome {
        game,
        transcript,
        refused,
    }
}

/// G3: the game saved as a record and loaded again is the same game.
pub fn check_record_round_trip(game: &Game<Interpreter>) {
    let text = game.to_record(&[("Event", "varc scenario")]);
    let loaded =
        load(game.rules().clone(), &text).unwrap_or_else(|e| panic!("record loads: {e}\n{text}"));
    let variant = game.rules().variant();
    assert_eq!(
        write_fen(variant, loaded.position()),
        write_fen(variant, game.position()),
        "same position after loading\n{text}"
    );
    assert_eq!(
        loaded.result(),
        game.result(),
        "same result after loading\n{text}"
    );
    let texts =
        |g: &Game<Interpreter>| g.steps().iter().map(|s| s.text.clone()).collect::<Vec<_>>();
    assert_eq!(
        texts(&loaded),
        texts(game),
        "same history after loading\n{text}"
    );
    assert_eq!(loaded.awards(), game.awards(), "same awards after loading");
}

/// Snapshots a scenario's transcript as `golden/scenarios/NAME.snap`.
pub fn snapshot(name: &str, outcome: &Outcome) {
    insta::with_settings!({snapshot_path => "../../golden/scenarios", prepend_module_to_snapshot => false}, {
        insta::assert_snapshot!(name.to_string(), outcome.transcript);
    });
}

/// One line of a perft vector file: the FEN and the expected counts by
/// depth (`FEN ;D1 n ;D2 n ...`), with its line number.
pub struct Vector {
    pub line: usize,
    pub fen: String,
    pub counts: Vec<(u32, u64)>,
}

/// The vectors of the file at `path` (lines starting with `#` are comments).
pub fn read_vector_file(path: &Path) -> Vec<Vector> {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    text.lines()
        .enumerate()
        .map(|(i, line)| (i, line.trim()))
        .filter(|(_, line)| !line.is_empty() && !line.starts_with('#'))
        .map(|(i, line)| {
            let mut parts = line.split(';');
            let fen = parts.next().unwrap_or_default().trim().to_string();
            let counts = parts
                .filter_map(|part| {
                    let mut words = part.split_whitespace();
                    let depth = words.next()?.strip_prefix('D')?.parse().ok()?;
                    let count = words.next()?.parse().ok()?;
                    Some((depth, count))
                })
                .collect();
            Vector {
                line: i + 1,
                fen,
                counts,
            }
        })
        .collect()
}
