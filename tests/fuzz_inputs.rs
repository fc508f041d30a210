//! Structure-aware fuzzing of every reader besides the rules files (those
//! are in `fuzz_rules.rs`): FEN, move text, records, the UCI and XBoard
//! loops, self-play summaries and weights files. Inputs are built from each format's own
//! pieces (fields, squares, letters, tags, commands, hostile numbers) and
//! from mutations of valid inputs. Whatever comes in, nothing panics, what
//! is accepted round-trips, and the protocol loops answer their last
//! command.
//!
//! `cargo test` runs a few cases per property; `PROPTEST_CASES=N` runs N
//! (e.g. `PROPTEST_CASES=5000 cargo test --release --test fuzz_inputs`).

mod common;

use proptest::prelude::*;
use proptest::test_runner::Config;
use varc::interp::Interpreter;
use varc_runtime::fen::{parse_fen, write_fen};
use varc_runtime::game::{record, Game};
use varc_runtime::notation::long_algebraic_of;

/// Cases per property unless `PROPTEST_CASES` says otherwise: enough to
/// catch regressions in `cargo test`, few enough to stay quick.
fn config(default_cases: u32) -> Config {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(default_cases);
    Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    }
}

const VARIANTS: [&str; 5] = ["chess", "ppc", "capablanca", "chess99", "alternate-scoring"];

/// Valid FENs to mutate: each variant's start and a few middlegames.
const FENS: [&str; 6] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "4k3/R'7/8/8/3B'4/8/8/4K3 b - - 3 40",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "4k3/8/8/8/8/8/8/4K(PB)3 w - - 0 1",
];

/// Pieces of FEN text.
fn fen_token() -> impl Strategy<Value = String> + Clone {
    prop_oneof![
        prop::sample::select(vec![
            "/",
            " ",
            "-",
            "w",
            "b",
            "K",
            "Q",
            "k",
            "q",
            "R'",
            "r'",
            "N'",
            "(",
            ")",
            "(PB)",
            "*",
            "8",
            "10",
            "16",
            "17",
            "0",
            "99999999999",
            "e3",
            "e6",
            "a9",
            "z1",
            "KQkq",
            "HAha",
            "ABCDEFGH",
            "\u{feff}",
            "\u{1b}[2J",
            "é",
            "P",
            "p",
            "A",
            "C",
            "+",
            "~",
        ])
        .prop_map(str::to_string),
        "[a-zA-Z0-9/ ()'*-]{1,4}",
    ]
}

/// A mutation of a text: a token inserted, a span deleted, or a span
/// replaced by a token, at a position given as a share of the length.
#[derive(Clone, Debug)]
enum Edit {
    Insert(f64, String),
    Delete(f64, usize),
    Replace(f64, usize, String),
}

fn edit(token: impl Strategy<Value = String> + Clone) -> impl Strategy<Value = Edit> {
    prop_oneof![
        (0.0..1.0f64, token.clone()).prop_map(|(at, t)| Edit::Insert(at, t)),
        (0.0..1.0f64, 1..6usize).prop_map(|(at, n)| Edit::Delete(at, n)),
        (0.0..1.0f64, 1..4usize, token).prop_map(|(at, n, t)| Edit::Replace(at, n, t)),
    ]
}

/// `text` with `edits` applied (at character boundaries).
fn mutate(text: &str, edits: &[Edit]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for edit in edits {
        let at = |share: f64, len: usize| ((share * len as f64) as usize).min(len);
        match edit {
            Edit::Insert(share, token) => {
                let i = at(*share, chars.len());
                chars.splice(i..i, token.chars());
            }
            Edit::Delete(share, n) => {
                let i = at(*share, chars.len());
                let end = (i + n).min(chars.len());
                chars.drain(i..end);
            }
            Edit::Replace(share, n, token) => {
                let i = at(*share, chars.len());
                let end = (i + n).min(chars.len());
                chars.splice(i..end, token.chars());
            }
        }
    }
    chars.into_iter().collect()
}

proptest! {
    #![proptest_config(config(64))]

    /// A FEN is refused with an error or read, and what is read is written
    /// back to a FEN that reads to the same text.
    #[test]
    fn fen_never_panics_and_what_it_reads_round_trips(
        variant in prop::sample::select(VARIANTS.to_vec()),
        base in prop::sample::select(FENS.to_vec()),
        edits in prop::collection::vec(edit(fen_token()), 0..4),
    ) {
        let variant = common::variant(variant);
        let text = mutate(base, &edits);
        if let Ok(position) = parse_fen(&variant, &text) {
            let written = write_fen(&variant, &position);
            let again = parse_fen(&variant, &written)
                .unwrap_or_else(|e| panic!("{text:?} -> {written:?} does not read: {e}"));
            prop_assert_eq!(write_fen(&variant, &again), written);
        }
    }
}

/// Pieces of move text.
fn move_token() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "e2",
            "e4",
            "a1",
            "h8",
            "a7",
            "b8",
            "g1",
            "f3",
            "x",
            "=",
            "+",
            "#",
            "!",
            "?",
            "O-O",
            "O-O-O",
            "0-0",
            "N",
            "B",
            "R",
            "Q",
            "K",
            "P",
            "'",
            "n'",
            "q",
            "@",
            "^",
            "-",
            ">",
            "e8",
            "p9",
            "z0",
            "99999999999",
            " ",
            "\u{1}",
            "ü",
        ])
        .prop_map(str::to_string),
        "[a-hx1-8=+#NBRQK']{1,3}",
    ]
}

proptest! {
    #![proptest_config(config(64))]

    /// A move text is refused or names a legal move, whose own text names
    /// it again.
    #[test]
    fn move_text_never_panics_and_what_it_reads_is_legal(
        variant in prop::sample::select(VARIANTS.to_vec()),
        tokens in prop::collection::vec(move_token(), 1..5),
    ) {
        let game = Game::new(common::rules(variant)).expect("start");
        let text: String = tokens.concat();
        if let Ok(mv) = game.parse_move(&text) {
            prop_assert!(game.legal_moves().contains(&mv), "{text:?}");
            let own = long_algebraic_of(game.rules(), &mv, game.legal_moves());
            prop_assert_eq!(game.parse_move(&own).ok(), Some(mv));
        }
    }
}

/// A record of a short game of `variant`, to mutate.
fn record_of(variant: &str) -> String {
    let mut game = Game::new(common::rules(variant)).expect("start");
    for _ in 0..8 {
        let Some(mv) = game.legal_moves().first().copied() else {
            break;
        };
        if game.play(&mv).is_err() {
            break;
        }
    }
    game.to_record(&[("Event", "fuzz")])
}

fn record_token() -> impl Strategy<Value = String> + Clone {
    prop_oneof![
        prop::sample::select(vec![
            "[Result \"1-0\"]",
            "[Result \"*\"]",
            "[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]",
            "[Variant \"shogi\"]",
            "[TimeControl \"0+0\"]",
            "[Counters \"x\"]",
            "{",
            "}",
            "{emt 99999999999}",
            "(",
            ")",
            "$1",
            "1.",
            "1...",
            "e4",
            "Nf3",
            "O-O",
            "1-0",
            "0-1",
            "1/2-1/2",
            "*",
            "\\",
            "\u{feff}",
            "\n",
            "resign",
            "draw",
        ])
        .prop_map(str::to_string),
        "[a-h1-8 .{}()\\[\\]\"]{1,4}",
    ]
}

fn same_steps(a: &Game<Interpreter>, b: &Game<Interpreter>) -> bool {
    let texts =
        |g: &Game<Interpreter>| g.steps().iter().map(|s| s.text.clone()).collect::<Vec<_>>();
    texts(a) == texts(b)
}

proptest! {
    #![proptest_config(config(48))]

    /// A record is refused or loaded, and a loaded game saved again loads
    /// to the same game.
    #[test]
    fn record_never_panics_and_what_it_loads_round_trips(
        variant in prop::sample::select(vec!["chess", "ppc", "alternate-scoring"]),
        edits in prop::collection::vec(edit(record_token()), 0..4),
    ) {
        let text = mutate(&record_of(variant), &edits);
        if let Ok(game) = record::load(common::rules(variant), &text) {
            let saved = game.to_record(&[]);
            let again = record::load(common::rules(variant), &saved)
                .unwrap_or_else(|e| panic!("{text:?} saved as {saved:?} does not load: {e}"));
            prop_assert!(same_steps(&game, &again));
        }
    }
}

/// A protocol command with hostile arguments.
fn command(words: Vec<&'static str>) -> impl Strategy<Value = String> {
    let numbers = vec![
        "0",
        "1",
        "-1",
        "inf",
        "nan",
        "1e30",
        "99999999999",
        "18446744073709551615",
        "0.05",
        "40",
        "2:30",
        "\u{1b}",
    ];
    (
        prop::sample::select(words),
        prop::collection::vec(prop::sample::select(numbers), 0..3),
    )
        .prop_map(|(word, args)| {
            let mut line = word.to_string();
            for arg in args {
                line.push(' ');
                line.push_str(arg);
            }
            line
        })
}

fn uci_command() -> impl Strategy<Value = String> {
    prop_oneof![
        command(vec![
            "isready",
            "ucinewgame",
            "stop",
            "position startpos",
            "position startpos moves e2e4",
            "position fen",
            "setoption name Hash value",
            "setoption name UCI_Variant value",
            "d",
            "go depth",
            "go nodes",
            "go movetime",
            "go wtime",
            "go btime",
            "go mate",
            "go perft",
            "frobnicate",
        ]),
        "[ -~]{0,12}",
    ]
}

fn xboard_command() -> impl Strategy<Value = String> {
    prop_oneof![
        command(vec![
            "new",
            "force",
            "go",
            "playother",
            "white",
            "black",
            "usermove e2e4",
            "usermove",
            "e7e5",
            "setboard",
            "level",
            "st",
            "sd",
            "time",
            "otim",
            "undo",
            "remove",
            "result 1-0",
            "variant",
            "hint",
            "draw",
            "post",
            "nopost",
            "?",
            "ping",
        ]),
        "[ -~]{0,12}",
    ]
}

/// Keeps searches short: depths and times of `go`/`sd`/`st` bounded.
fn bounded(line: &str) -> String {
    let line = line.trim_start();
    if line.starts_with("go") {
        return "go depth 1".to_string();
    }
    for command in ["sd", "st", "level"] {
        if line.starts_with(command) && line[command.len()..].starts_with([' ', '\0']) {
            return format!("{line}\nsd 1\nst 0.05");
        }
    }
    line.to_string()
}

proptest! {
    #![proptest_config(config(12))]

    /// Whatever a GUI sends, `varc uci` answers the final `isready`.
    #[test]
    fn uci_loop_answers_its_last_command(
        variant in prop::sample::select(vec!["chess", "ppc"]),
        lines in prop::collection::vec(uci_command(), 1..20),
    ) {
        let mut script = String::from("uci\n");
        for line in &lines {
            script.push_str(&bounded(line));
            script.push('\n');
        }
        script.push_str("stop\nisready\n");
        let out = common::protocol_session(varc_runtime::uci::run, variant, &script);
        prop_assert!(out.iter().any(|l| l == "readyok"), "{script:?}\n{out:?}");
    }

    /// Whatever a GUI sends, `varc xboard` answers the final `ping`.
    #[test]
    fn xboard_loop_answers_its_last_command(
        variant in prop::sample::select(vec!["chess", "ppc"]),
        lines in prop::collection::vec(xboard_command(), 1..20),
    ) {
        let mut script = String::from("xboard\nprotover 2\nsd 1\n");
        for line in &lines {
            script.push_str(&bounded(line));
            script.push('\n');
        }
        script.push_str("force\nping 99\n");
        let out = common::protocol_session(varc_runtime::xboard::run, variant, &script);
        prop_assert!(out.iter().any(|l| l == "pong 99"), "{script:?}\n{out:?}");
    }
}

/// A self-play summary file, as `selfplay --out` writes it.
fn summary_json() -> String {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("fuzz-summary");
    let _ = std::fs::remove_dir_all(&dir);
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_varc"))
        .args([
            "selfplay",
            "variants/chess.rules",
            "--games",
            "2",
            "--depth",
            "1",
            "--out",
        ])
        .arg(&dir)
        .output()
        .expect("varc selfplay");
    assert!(
        status.status.success(),
        "{}",
        String::from_utf8_lossy(&status.stderr)
    );
    let file = std::fs::read_dir(&dir)
        .expect("out dir")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|e| e == "json"))
        .expect("a summary");
    std::fs::read_to_string(file).expect("summary text")
}

fn json_token() -> impl Strategy<Value = String> + Clone {
    prop_oneof![
        prop::sample::select(vec![
            "0",
            "-1",
            "1000",
            "4294967295",
            "18446744073709551615",
            "1e400",
            "null",
            "true",
            "\"\"",
            "[]",
            "{}",
            ",",
            ":",
            "\"shard\"",
            "\"games\"",
            "\"white_wins\"",
            "}",
            "]",
        ])
        .prop_map(str::to_string),
        "[0-9a-z\",:{}\\[\\]]{1,4}",
    ]
}

proptest! {
    #![proptest_config(config(64))]

    /// A summary is refused or read; a summary whose counts check merges
    /// with nothing but itself refused (a shard twice).
    #[test]
    fn summary_json_never_panics(
        edits in prop::collection::vec(edit(json_token()), 0..4),
    ) {
        static BASE: std::sync::OnceLock<String> = std::sync::OnceLock::new();
        let text = mutate(BASE.get_or_init(summary_json), &edits);
        if let Ok(summary) = serde_json::from_str::<varc::selfplay::Summary>(&text) {
            if summary.check().is_ok() {
                let mut twice = summary.clone();
                prop_assert!(twice.merge(&summary).is_err(), "{text}");
            }
        }
    }
}

/// A weights file with every kind of setting, square and mobility tables
/// included.
fn weights_text() -> String {
    let rank = "0 5 -5 10 10 -5 5 0";
    let table = [rank; 8].join(" / ");
    let bundled = std::fs::read_to_string(common::variants_dir().join("chess.weights"))
        .expect("the bundled chess weights");
    format!(
        "{bundled}squares knight = {table}\nendgame-squares king = {table}\n\
         mobility knight = -30 -10 0 8 15\nendgame-mobility knight = -50 -20 0 10 20 25\n"
    )
}

/// Pieces of a weights file.
fn weights_token() -> impl Strategy<Value = String> + Clone {
    let pieces = [
        "=",
        "/",
        "#",
        "\n",
        " ",
        "squares ",
        "endgame-squares king",
        "value king",
        "mobility ",
        "endgame-mobility bishop",
        "-",
        "99999999999",
        "1e308",
        "NaN",
    ];
    prop_oneof![
        prop::sample::select(pieces.to_vec()).prop_map(str::to_string),
        "[0-9]{1,4}",
    ]
}

proptest! {
    #![proptest_config(config(64))]

    /// A weights file is refused with an error (and changes nothing) or
    /// applied, and what is applied is written back to a file that applies
    /// to the same variant.
    #[test]
    fn weights_file_never_panics_and_what_it_sets_round_trips(
        edits in prop::collection::vec(edit(weights_token()), 0..4),
    ) {
        use varc_runtime::weights::WeightsFile;
        let text = mutate(&weights_text(), &edits);
        let mut variant = common::variant("chess");
        let before = variant.clone();
        match WeightsFile::parse(&text).map(|file| file.apply(&mut variant)) {
            Ok(Ok(())) => {
                let written = WeightsFile::write(&variant, "fuzz");
                let mut again = common::variant("chess");
                WeightsFile::parse(&written)
                    .and_then(|file| file.apply(&mut again))
                    .unwrap_or_else(|e| panic!("{text:?} -> {written:?} does not apply: {e}"));
                let evaluator = varc_runtime::eval::Evaluator::new(&again);
                let first = varc_runtime::eval::Evaluator::new(&variant);
                for kind in 0..variant.pieces.len() {
                    prop_assert_eq!(evaluator.value(kind), first.value(kind));
                    prop_assert_eq!(evaluator.endgame_value(kind), first.endgame_value(kind));
                }
                prop_assert_eq!(again.evaluation, variant.evaluation);
                let tables = |v: &varc_runtime::model::Variant| {
                    v.pieces.iter().map(|p| p.square_bonuses.clone()).collect::<Vec<_>>()
                };
                prop_assert_eq!(tables(&again), tables(&variant));
                let mobility = |v: &varc_runtime::model::Variant| {
                    v.pieces.iter().map(|p| p.mobility_tables.clone()).collect::<Vec<_>>()
                };
                prop_assert_eq!(mobility(&again), mobility(&variant));
            }
            Ok(Err(_)) | Err(_) => prop_assert_eq!(variant, before),
        }
    }
}
