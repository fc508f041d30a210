//! `varc tune` and weights files: the tuner fits no worse than the weights
//! it starts from and writes a file the engines load; a weights file's
//! settings reach the evaluation, the search and the generated engine; bad files are
//! refused with their line and change nothing.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use varc::interp::Interpreter;
use varc::tune::{fit_network, fit_squares, NetworkSettings, Sample};
use varc_runtime::eval::Evaluator;
use varc_runtime::fen::parse_fen;
use varc_runtime::moves::Move;
use varc_runtime::rules::Rules;
use varc_runtime::search::params::{SearchParams, TUNING_VARIABLE};
use varc_runtime::search::Engine;
use varc_runtime::weights::{EvaluationWeights, WeightsFile};

fn varc(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_varc"))
        .args(args)
        .output()
        .expect("varc runs")
}

/// A fresh folder for one test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("varc-tune-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir
}

fn rules_file(name: &str) -> String {
    common::variants_dir()
        .join(format!("{name}.rules"))
        .display()
        .to_string()
}

/// Runs `varc` with `args` (a `tune ... --json`), which must succeed, and
/// reads its figures.
fn tune_figures(args: &[&str]) -> serde_json::Value {
    let output = varc(args);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("JSON figures")
}

/// The kind of `variant` named `name`.
fn kind_of(variant: &varc_runtime::model::Variant, name: &str) -> usize {
    variant
        .pieces
        .iter()
        .position(|p| p.name == name)
        .expect("the variant has the piece")
}

/// `fen` of `variant`, for `rules`, labelled with White's expected score.
fn labelled(
    rules: &Interpreter,
    variant: &varc_runtime::model::Variant,
    fen: &str,
    white_score: f64,
) -> Sample<<Interpreter as Rules>::Position> {
    Sample {
        position: rules.import(&parse_fen(variant, fen).expect("a valid position")),
        white_score,
    }
}

fn text(path: &Path) -> String {
    std::fs::read_to_string(path).expect("file written")
}

#[test]
fn tune_fits_no_worse_and_writes_a_file_the_engine_loads() {
    let dir = scratch("fit");
    let out = dir.join("losalamos.weights");
    let out_text = out.display().to_string();
    let rules = rules_file("losalamos");
    let args = [
        "tune", &rules, "--games", "10", "--depth", "1", "--out", &out_text, "--json",
    ];
    let figures = tune_figures(&args);
    assert!(figures["positions"].as_u64().unwrap_or(0) > 0, "{figures}");
    let (before, after) = (
        figures["loss_before"].as_f64().expect("loss before"),
        figures["loss_after"].as_f64().expect("loss after"),
    );
    assert!(after <= before, "{figures}");
    let written = text(&out);
    assert!(written.starts_with("# varc tune"), "{written}");
    let file = WeightsFile::parse(&written).expect("the file reads back");
    let mut variant = common::variant("losalamos");
    file.apply(&mut variant)
        .expect("its names are the variant's");
    assert_eq!(
        figures["weights"]["mobility"].as_i64(),
        Some(i64::from(variant.evaluation.mobility))
    );
    // A second run may overwrite the file varc wrote.
    assert!(varc(&args).status.success());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_weights_files_piece_value_reaches_the_evaluation() {
    let mut variant = common::variant("chess");
    let position = parse_fen(&variant, "4k3/8/8/8/8/8/8/3QK3 w - - 0 1").expect("a valid position");
    let rules = varc::interp::Interpreter::new(variant.clone()).expect("rules");
    let rules_position = varc_runtime::rules::Rules::import(&rules, &position);
    let before = Evaluator::new(&variant).evaluate_white(&rules, &rules_position);
    WeightsFile::parse("value queen = 20\nmobility = 0\n")
        .expect("a valid file")
        .apply(&mut variant)
        .expect("chess has a queen");
    let after = Evaluator::new(&variant).evaluate_white(&rules, &rules_position);
    assert!(
        after > before + 900,
        "a queen worth 20 pawns: {before} -> {after}"
    );
}

#[test]
fn a_weights_files_search_settings_reach_the_engine_and_its_options() {
    let mut variant = common::variant("chess");
    let file = WeightsFile::parse("search futility_margin = 150\nsearch late_move_base = 7\n")
        .expect("a valid file");
    file.apply(&mut variant).expect("applies");
    let engine: Engine = Engine::new(&variant);
    let params = engine.search_params();
    assert_eq!((params.futility_margin, params.late_move_base), (150, 7));
    let defaults = SearchParams::default();
    assert_eq!(
        params.reverse_futility_margin,
        defaults.reverse_futility_margin
    );
    // A later file's setting of the same number replaces the earlier.
    WeightsFile::parse("search futility_margin = 90")
        .expect("a valid file")
        .apply(&mut variant)
        .expect("applies");
    assert_eq!(variant.search.len(), 2);
    assert_eq!(
        Engine::<Move>::new(&variant)
            .search_params()
            .futility_margin,
        90
    );
    // Written out, they read back.
    let written = WeightsFile::write(&variant, "test");
    assert!(
        written.contains("search futility_margin = 90\n"),
        "{written}"
    );
    let again = WeightsFile::parse(&written).expect("reads back");
    assert_eq!(again.search.len(), 2);

    // The engine's tuning options start from the file's numbers.
    let dir = scratch("search-settings");
    let weights = dir.join("chess.weights");
    std::fs::write(&weights, "search futility_margin = 150\n").expect("written");
    let mut command = Command::new(env!("CARGO_BIN_EXE_varc"));
    command
        .args(["uci", &rules_file("chess"), "--weights"])
        .arg(&weights)
        .env(TUNING_VARIABLE, "1");
    let output = common::run_command_with_input(command, "uci\nquit\n");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("option name futility_margin type spin default 150 "),
        "{stdout}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_built_engine_carries_the_weights() {
    let dir = scratch("build");
    let weights = dir.join("chess.weights");
    std::fs::write(
        &weights,
        "mobility = 130\nvalue knight = 3.25\nsearch futility_margin = 150\n",
    )
    .expect("written");
    let crate_dir = dir.join("engine");
    let output = varc(&[
        "build",
        &rules_file("chess"),
        "--no-build",
        "-o",
        &crate_dir.display().to_string(),
        "--weights",
        &weights.display().to_string(),
    ]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let source = text(&crate_dir.join("src/lib.rs"));
    assert!(
        source.contains("mobility: 130i32"),
        "the weight is in the model"
    );
    assert!(
        source.contains("3.25f64"),
        "the knight's value is in the model"
    );
    assert!(
        source.contains("String::from(\"futility_margin\")") && source.contains("value: 150i32"),
        "the search setting is in the model"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_weights_files_are_refused_and_change_nothing() {
    let dir = scratch("bad");
    let bad = dir.join("bad.weights");
    std::fs::write(&bad, "tempo = 12\nspeed = 3\n").expect("written");
    let output = varc(&[
        "uci",
        &rules_file("chess"),
        "--weights",
        &bad.display().to_string(),
    ]);
    assert_eq!(output.status.code(), Some(1));
    assert!(output.stdout.is_empty(), "no engine runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("line 2: unknown weight `speed`"),
        "{stderr}"
    );

    // A file tune did not write is not overwritten, and no game is played.
    let precious = dir.join("notes.txt");
    std::fs::write(&precious, "my notes\n").expect("written");
    let output = varc(&[
        "tune",
        &rules_file("chess"),
        "--out",
        &precious.display().to_string(),
    ]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(text(&precious), "my notes\n");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn samples_are_the_quiet_positions_of_finished_games_labelled_with_the_result() {
    // Scholar's mate: White wins; the mating move captures on f7.
    let moves = ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"];
    let outcome = common::play("chess", None, None, &moves);
    assert!(outcome.refused.is_empty(), "{:?}", outcome.refused);
    let samples = varc::tune::samples_of_game(&outcome.game, 0);
    assert_eq!(samples.len(), 6, "every move but the capture");
    assert!(samples.iter().all(|s| s.white_score == 1.0));
    assert_eq!(varc::tune::samples_of_game(&outcome.game, 2).len(), 4);

    // An unfinished game teaches nothing.
    let unfinished = common::play("chess", None, None, &moves[..6]);
    assert!(varc::tune::samples_of_game(&unfinished.game, 0).is_empty());
}

/// Two records in one file, as `match --pgn` appends them: one adjudicated
/// (its result decided off the board, the game going on), one mated.
const TWO_RECORDS: &str = "[Event \"varc match\"]\n[White \"a\"]\n[Black \"b\"]\n\
[Result \"0-1\"]\n[Variant \"chess\"]\n[Termination \"adjudicated\"]\n\n\
1. f3 e5 2. Nc3 Nc6 3. Nd5 Nf6 0-1\n\n\
[Event \"varc match\"]\n[Result \"1-0\"]\n[Variant \"chess\"]\n\n\
1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n";

#[test]
fn recorded_games_are_split_and_labelled_with_their_results_off_the_board_too() {
    let records = varc::tune::split_records(TWO_RECORDS);
    assert_eq!(records.len(), 2);
    assert_eq!(records[0].0, 1);
    assert!(records[1].1.contains("Qxf7#"), "{:?}", records[1]);
    assert_eq!(records[1].0, 10, "the second record's first line");
    let rules = common::rules("chess");
    let texts = vec![("two.pgn".to_string(), TWO_RECORDS.to_string())];
    let (samples, tally) = varc::tune::record_samples(&rules, &texts, 2);
    assert_eq!((tally.games, tally.unfinished), (2, 0));
    assert!(tally.refused.is_empty(), "{:?}", tally.refused);
    // Six moves, none a capture, two skipped: four Black wins; seven moves
    // (the last a capture), two skipped: four White wins.
    let scores: Vec<f64> = samples.fitting.iter().map(|s| s.white_score).collect();
    assert_eq!(scores, [0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0]);

    // A record that does not replay is left out and named; `*` teaches
    // nothing.
    let bad = TWO_RECORDS.replace("Qxf7#", "Qxf8#") + "\n[Result \"*\"]\n\n1. d4 *\n";
    let texts = vec![("bad.pgn".to_string(), bad)];
    let (samples, tally) = varc::tune::record_samples(&rules, &texts, 0);
    assert_eq!((tally.games, tally.unfinished), (1, 1));
    assert_eq!(tally.refused.len(), 1);
    assert!(
        tally.refused[0].starts_with("bad.pgn: game 2 (line 10)"),
        "{:?}",
        tally.refused
    );
    assert_eq!(samples.fitting.len(), 6);
}

#[test]
fn tune_reads_records_instead_of_playing() {
    let dir = scratch("records");
    let games = dir.join("games.pgn");
    std::fs::write(&games, TWO_RECORDS.repeat(3)).expect("records written");
    let out = dir.join("chess.weights");
    let (games_text, out_text) = (games.display().to_string(), out.display().to_string());
    let rules = rules_file("chess");
    let args = [
        "tune",
        &rules,
        "--records",
        &games_text,
        "--opening-plies",
        "0",
        "--out",
        &out_text,
        "--json",
    ];
    let figures = tune_figures(&args);
    // Six games, the tenth kept apart: none; 6 + 6 positions a pair.
    assert_eq!(figures["positions"].as_u64(), Some(36), "{figures}");
    assert!(
        text(&out).contains("from 6 recorded games"),
        "{}",
        text(&out)
    );

    // With square tables: fitted after the scalar weights, no worse, and
    // written where the engines read them.
    let mut with_squares = args.to_vec();
    with_squares.push("--squares");
    let figures = tune_figures(&with_squares);
    let squares = &figures["squares"];
    let (before, after) = (
        squares["loss"]["before"].as_f64().expect("a loss"),
        squares["loss"]["after"].as_f64().expect("a loss"),
    );
    assert!(after <= before, "{figures}");
    let mut variant = common::variant("chess");
    WeightsFile::parse(&text(&out))
        .expect("reads")
        .apply(&mut variant)
        .expect("applies");

    // A file that cannot be read is refused before anything is written.
    let missing = dir.join("missing.pgn").display().to_string();
    let other = dir.join("other.weights");
    let other_text = other.display().to_string();
    let output = varc(&["tune", &rules, "--records", &missing, "--out", &other_text]);
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("missing.pgn"));
    assert!(!other.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn endgame_values_are_read_checked_and_written() {
    let mut variant = common::variant("chess");
    let file = WeightsFile::parse("endgame-value rook = 5.5\n").expect("reads");
    file.apply(&mut variant).expect("chess has rooks");
    let rook = kind_of(&variant, "rook");
    assert_eq!(variant.pieces[rook].endgame_value, Some(5.5));
    assert_eq!(Evaluator::new(&variant).endgame_value(rook), 550);
    let written = WeightsFile::write(&variant, "test");
    assert!(written.contains("endgame-value rook = 5.50"), "{written}");
    assert!(written.contains("endgame-value knight = 3.00"), "{written}");
    // Unknown and royal pieces are refused, and nothing changes.
    for text in ["endgame-value rookie = 5", "endgame-value king = 5"] {
        let mut variant = common::variant("chess");
        let before = variant.clone();
        let file = WeightsFile::parse(&format!("tempo = 3\n{text}\n")).expect("reads");
        let error = file.apply(&mut variant).expect_err(text);
        assert!(error.message.starts_with("`endgame-value"), "{error}");
        assert_eq!(variant, before, "{text}");
    }
}

#[test]
fn square_tables_are_read_checked_and_written() {
    let mut variant = common::variant("chess");
    let ranks: Vec<String> = (0..8)
        .map(|rank| {
            (0..8)
                .map(|file| (10 * (7 - rank) + file).to_string())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    let table = ranks.join(" / ");
    let file = WeightsFile::parse(&format!("squares knight = {table}\n")).expect("reads");
    file.apply(&mut variant).expect("chess has knights");
    let knight = kind_of(&variant, "knight");
    let bonuses = variant.pieces[knight]
        .square_bonuses
        .clone()
        .expect("a table");
    // White's first rank first in the model: b1 is 1, a2 is 10, h8 is 77;
    // the endgame table left out is the middlegame table.
    assert_eq!(
        (
            bonuses.middlegame[1],
            bonuses.middlegame[8],
            bonuses.middlegame[63]
        ),
        (1, 10, 77)
    );
    assert_eq!(bonuses.endgame, bonuses.middlegame);
    // Written and read back, it is the same.
    let written = WeightsFile::write(&variant, "test");
    assert!(written.contains("endgame-squares knight = "), "{written}");
    let mut again = common::variant("chess");
    WeightsFile::parse(&written)
        .expect("reads back")
        .apply(&mut again)
        .expect("applies");
    assert_eq!(again.pieces[knight].square_bonuses, Some(bonuses));
    // A table that does not fit the board, an unknown piece or a bad number
    // is refused with its line, and nothing changes.
    let seven = ranks[..7].join(" / ");
    for (text, message) in [
        (
            format!("squares knight = {seven}"),
            "needs 8 ranks of 8 numbers",
        ),
        (
            format!("squares knight = {table} 9"),
            "needs 8 ranks of 8 numbers",
        ),
        (format!("squares knave = {table}"), "has no piece `knave`"),
    ] {
        let mut variant = common::variant("chess");
        let before = variant.clone();
        let file = WeightsFile::parse(&format!("tempo = 3\n{text}\n")).expect("reads");
        let error = file.apply(&mut variant).expect_err(&text);
        assert_eq!(error.line, 2, "{error}");
        assert!(error.message.contains(message), "{error}");
        assert_eq!(variant, before, "{text}");
    }
    for text in ["squares knight = 1 x", "squares knight = 5000"] {
        let error = WeightsFile::parse(text).expect_err(text);
        assert_eq!(error.line, 1, "{error}");
    }
}

#[test]
fn square_tables_learn_where_a_piece_wins() {
    // White wins with its knight on e4 and loses with it on a1.
    let variant = common::variant("chess");
    let rules = Interpreter::new(variant.clone()).expect("rules");
    let sample = |fen: &str, white_score: f64| labelled(&rules, &variant, fen, white_score);
    let centre = "4k3/8/8/8/4N3/8/8/4K3 w - - 0 1";
    let corner = "4k3/8/8/8/8/8/8/N3K3 w - - 0 1";
    let samples: Vec<_> = (0..40)
        .flat_map(|_| [sample(centre, 0.9), sample(corner, 0.1)])
        .collect();
    let fit = fit_squares(
        &rules,
        &variant,
        &samples,
        &samples[..20],
        0.005,
        &mut |_| {},
    );
    let (before, after) = fit.validation.expect("a validation set");
    assert!(after < before, "{before} -> {after}");
    assert!(fit.loss.1 < fit.loss.0, "{:?}", fit.loss);
    let knight = kind_of(&variant, "knight");
    let bonuses = fit.variant.pieces[knight]
        .square_bonuses
        .clone()
        .expect("fitted");
    // e4 is cell 28, a1 cell 0; no officer but the knight: the endgame
    // table carries most of it.
    assert!(
        bonuses.endgame[28] > bonuses.endgame[0] + 20,
        "{:?}",
        (bonuses.endgame[28], bonuses.endgame[0])
    );
}

#[test]
fn cover_tables_learn_that_a_royal_piece_wants_its_pawns_in_front() {
    // The same squares for the king and for the pawns win and lose: only
    // where the pawns stand from the king tells the labels apart.
    let variant = common::variant("chess");
    let rules = Interpreter::new(variant.clone()).expect("rules");
    let sample = |fen: &str, white_score: f64| labelled(&rules, &variant, fen, white_score);
    let positions = [
        ("r2qk2r/8/8/8/8/8/1PPP4/2K5 w - - 0 1", 0.7),
        ("r2qk2r/8/8/8/8/8/5PPP/2K5 w - - 0 1", 0.3),
        ("r2qk2r/8/8/8/8/8/5PPP/6K1 w - - 0 1", 0.7),
        ("r2qk2r/8/8/8/8/8/1PPP4/6K1 w - - 0 1", 0.3),
    ];
    let samples: Vec<_> = (0..20)
        .flat_map(|_| positions.map(|(fen, score)| sample(fen, score)))
        .collect();
    let fit = fit_squares(
        &rules,
        &variant,
        &samples,
        &samples[..8],
        0.005,
        &mut |_| {},
    );
    let (before, after) = fit.validation.expect("a validation set");
    assert!(after < before, "{before} -> {after}");
    let king = kind_of(&variant, "king");
    let cover = fit.variant.pieces[king]
        .royal_cover
        .clone()
        .expect("fitted");
    use varc_runtime::model::RoyalCover;
    let in_front = cover.own[RoyalCover::cell(false, Some(1))];
    let bare = cover.own[RoyalCover::cell(false, None)];
    assert!(in_front > bare + 20, "{cover:?}");
    // Only royal kinds have cover tables.
    assert!(fit.variant.pieces[kind_of(&variant, "queen")]
        .royal_cover
        .is_none());
}

#[test]
fn a_network_learns_what_adding_square_bonuses_cannot() {
    // White wins with its knight on e4 and king on e1, or knight on a1 and
    // king on h1, and loses the two other ways: no sum of a bonus per
    // piece and square says that, a hidden layer can.
    let variant = common::variant("chess");
    let rules = Interpreter::new(variant.clone()).expect("rules");
    let sample = |fen: &str, white_score: f64| labelled(&rules, &variant, fen, white_score);
    let corners = [
        ("4k3/8/8/8/4N3/8/8/4K3 w - - 0 1", 0.9),
        ("4k3/8/8/8/8/8/8/N6K w - - 0 1", 0.9),
        ("4k3/8/8/8/4N3/8/8/7K w - - 0 1", 0.1),
        ("4k3/8/8/8/8/8/8/N3K3 w - - 0 1", 0.1),
    ];
    let samples: Vec<_> = (0..100)
        .flat_map(|_| corners.map(|(fen, score)| sample(fen, score)))
        .collect();
    let settings = NetworkSettings {
        hidden: 8,
        max_epochs: 4000,
        scale: 0.005,
    };
    let fit = fit_network(
        &rules,
        &variant,
        &samples,
        &samples[..40],
        settings,
        &mut |_| {},
    );
    assert!(fit.kept);
    let (before, after) = fit.validation.expect("a validation set");
    assert!(after < before / 2.0, "{before} -> {after}");
    assert!(fit.history.len() <= 4000 && !fit.history.is_empty());
    let evaluator = Evaluator::new(&fit.variant);
    let white = |fen: &str| {
        let position = rules.import(&parse_fen(&variant, fen).expect("a valid position"));
        evaluator.evaluate_white(&rules, &position)
    };
    let [won, won_too, lost, lost_too] = corners.map(|(fen, _)| white(fen));
    assert!(
        won.min(won_too) > lost.max(lost_too) + 100,
        "{won} {won_too} {lost} {lost_too}"
    );
}

/// Labelled positions in both forms tuners share, with a comment, an empty
/// line and a line that does not read (its label is out of range).
const LABELLED: &str = "\
# White a queen up wins, Black a queen up wins, level is level
4k3/8/8/8/8/8/3Q4/4K3 w - - [0.95]
4k3/3q4/8/8/8/8/8/4K3 b - - [0.05]
4k3/3p4/8/8/8/8/3P4/4K3 w - - c9 \"1/2-1/2\";

4k3/8/8/8/8/8/3R4/4K3 b - - c9 \"1-0\";
4k3/8/8/8/8/8/3R4/4K3 b - - [1.5]
";

#[test]
fn tune_fits_a_network_alone_and_reports_each_epoch() {
    let dir = scratch("network");
    let positions = dir.join("labelled.epd");
    std::fs::write(&positions, LABELLED.repeat(5)).expect("positions written");
    let out = dir.join("chess.weights");
    let (positions_text, out_text) = (positions.display().to_string(), out.display().to_string());
    let rules = rules_file("chess");
    let args = [
        "tune",
        &rules,
        "--positions",
        &positions_text,
        "--network",
        "4",
        "--network-only",
        "--epochs",
        "5",
        "--out",
        &out_text,
        "--json",
    ];
    let output = varc(&args);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let figures: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON figures");
    let network = &figures["network"];
    let epochs = network["epochs"].as_u64().expect("epochs");
    assert!((1..=5).contains(&epochs), "{figures}");
    assert_eq!(
        network["history"].as_array().map(Vec::len),
        Some(epochs as usize),
        "{figures}"
    );
    let kept = network["kept"].as_bool().expect("kept or not");
    // The weights stay as they were: the fit touched the network only.
    assert_eq!(figures["loss_before"], figures["loss_after"], "{figures}");
    let written = text(&out);
    assert_eq!(written.contains("\nnetwork = 4\n"), kept, "{written}");
    assert!(
        written.contains("network epochs (loss/validation)"),
        "{written}"
    );
    // The file loads where the engines read it.
    let loaded = varc(&["uci", &rules, "--weights", &out_text]);
    assert!(
        loaded.status.success(),
        "{}",
        String::from_utf8_lossy(&loaded.stderr)
    );
    // A network alone keeps the tables as they are: with them, refused.
    let refused = varc(&[
        "tune",
        &rules,
        "--positions",
        &positions_text,
        "--network",
        "4",
        "--network-only",
        "--squares",
    ]);
    assert!(!refused.status.success());
    let refused = varc(&[
        "tune",
        &rules,
        "--positions",
        &positions_text,
        "--network",
        "0",
    ]);
    assert!(!refused.status.success());
}

#[test]
fn tune_reads_labelled_positions_and_refuses_the_lines_that_do_not_read() {
    let dir = scratch("positions");
    let positions = dir.join("labelled.epd");
    std::fs::write(&positions, LABELLED.repeat(5)).expect("positions written");
    let out = dir.join("chess.weights");
    let (positions_text, out_text) = (positions.display().to_string(), out.display().to_string());
    let rules = rules_file("chess");
    let args = [
        "tune",
        &rules,
        "--positions",
        &positions_text,
        "--out",
        &out_text,
        "--json",
    ];
    let output = varc(&args);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("labelled.epd: line 7: the label `1.5`"),
        "the bad line is named: {stderr}"
    );
    let figures: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON figures");
    // Four positions read of each of the five copies; every tenth is kept
    // apart.
    assert_eq!(figures["positions"].as_u64(), Some(18), "{figures}");
    assert_eq!(
        figures["validation_positions"].as_u64(),
        Some(2),
        "{figures}"
    );
    let (before, after) = (
        figures["loss_before"].as_f64().expect("a loss"),
        figures["loss_after"].as_f64().expect("a loss"),
    );
    assert!(after <= before, "{figures}");
    assert!(
        text(&out).contains("20 labelled positions"),
        "{}",
        text(&out)
    );

    // No position at all: refused, nothing written; records and positions
    // together: refused.
    let empty = dir.join("empty.epd");
    std::fs::write(&empty, "# nothing\n").expect("written");
    let other = dir.join("other.weights");
    let (empty_text, other_text) = (empty.display().to_string(), other.display().to_string());
    let output = varc(&[
        "tune",
        &rules,
        "--positions",
        &empty_text,
        "--out",
        &other_text,
    ]);
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("no labelled position"));
    let output = varc(&[
        "tune",
        &rules,
        "--positions",
        &positions_text,
        "--records",
        &positions_text,
        "--out",
        &other_text,
    ]);
    assert!(!output.status.success());
    assert!(!other.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn mobility_tables_are_read_checked_and_written() {
    let mut variant = common::variant("chess");
    let file = WeightsFile::parse(
        "mobility knight = -40 -20 -5 0 5 10 14 17 20\nendgame-mobility knight = -60 -30 0 10\n\
         mobility rook = -10 0 10\n",
    )
    .expect("reads");
    file.apply(&mut variant)
        .expect("chess has knights and rooks");
    let (knight, rook) = (kind_of(&variant, "knight"), kind_of(&variant, "rook"));
    let tables = variant.pieces[knight]
        .mobility_tables
        .clone()
        .expect("a table");
    assert_eq!(tables.middlegame, [-40, -20, -5, 0, 5, 10, 14, 17, 20]);
    assert_eq!(tables.endgame, [-60, -30, 0, 10]);
    // The endgame table left out is the middlegame table; the evaluation
    // reads both, a count beyond a table its last entry.
    let rook_tables = variant.pieces[rook]
        .mobility_tables
        .clone()
        .expect("a table");
    assert_eq!(rook_tables.endgame, rook_tables.middlegame);
    let evaluator = Evaluator::new(&variant);
    assert_eq!(evaluator.mobility(knight, 1), [-20, -30]);
    assert_eq!(evaluator.mobility(knight, 8), [20, 10]);
    assert_eq!(evaluator.mobility(rook, 14), [10, 10]);
    // Written and read back, they are the same; kinds without tables get
    // no line.
    let written = WeightsFile::write(&variant, "test");
    assert!(
        written.contains("mobility knight = -40 -20 -5 0 5 10 14 17 20\n"),
        "{written}"
    );
    assert!(
        written.contains("endgame-mobility rook = -10 0 10\n"),
        "{written}"
    );
    assert!(!written.contains("mobility queen"), "{written}");
    let mut again = common::variant("chess");
    WeightsFile::parse(&written)
        .expect("reads back")
        .apply(&mut again)
        .expect("applies");
    assert_eq!(again.pieces[knight].mobility_tables, Some(tables));
    assert_eq!(again.pieces[rook].mobility_tables, Some(rook_tables));
    // An unknown or royal piece, or an endgame table without its
    // middlegame one, is refused with its line, and nothing changes.
    for (text, message) in [
        ("mobility knave = 1 2", "has no piece `knave`"),
        ("mobility king = 1 2", "royal pieces have no mobility term"),
        (
            "endgame-mobility bishop = 1 2",
            "`endgame-mobility bishop` needs a `mobility bishop` line",
        ),
    ] {
        let mut variant = common::variant("chess");
        let before = variant.clone();
        let file = WeightsFile::parse(&format!("tempo = 3\n{text}\n")).expect("reads");
        let error = file.apply(&mut variant).expect_err(text);
        assert_eq!(error.line, 2, "{error}");
        assert!(error.message.contains(message), "{error}");
        assert_eq!(variant, before, "{text}");
    }
}

#[test]
fn the_built_engine_carries_the_mobility_tables() {
    let dir = scratch("build-mobility");
    let weights = dir.join("chess.weights");
    std::fs::write(&weights, "mobility knight = -37 -21 0 9\n").expect("written");
    let crate_dir = dir.join("engine");
    let output = varc(&[
        "build",
        &rules_file("chess"),
        "--no-build",
        "-o",
        &crate_dir.display().to_string(),
        "--weights",
        &weights.display().to_string(),
    ]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let source = text(&crate_dir.join("src/lib.rs"));
    let compact: String = source.split_whitespace().collect();
    assert!(
        compact.contains("middlegame:Vec::from([-37i32,-21i32,0i32,9i32])"),
        "the table is in the model"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Labelled positions that say a knight with room wins and a knight in the
/// corner loses, each `copies` times (Black's mirror image too).
fn knight_positions(copies: usize) -> String {
    let lines = [
        "4k3/8/8/8/3N4/8/8/4K3 w - - [0.85]",
        "4k3/8/8/3n4/8/8/8/4K3 b - - [0.15]",
        "4k3/8/8/8/8/8/8/N3K3 w - - [0.35]",
        "n3k3/8/8/8/8/8/8/4K3 b - - [0.65]",
    ];
    (lines.join("\n") + "\n").repeat(copies)
}

#[test]
fn mobility_tables_learn_that_a_trapped_piece_loses() {
    let variant = common::variant("chess");
    let rules = Interpreter::new(variant.clone()).expect("rules");
    let texts = vec![(
        "knights.epd".to_string(),
        knight_positions(varc::tune::MIN_SUPPORT),
    )];
    let (samples, tally) = varc::tune::labelled_fens(&variant, &texts);
    assert!(tally.refused.is_empty(), "{:?}", tally.refused);
    let fit = varc::tune::fit_mobility(
        &rules,
        &variant,
        &samples.fitting,
        &samples.validation,
        0.005,
        &mut |_| {},
    );
    let (before, after) = fit.validation.expect("a validation set");
    assert!(after < before, "{before} -> {after}");
    assert!(fit.loss.1 < fit.loss.0, "{:?}", fit.loss);
    let knight = kind_of(&variant, "knight");
    let tables = fit.variant.pieces[knight]
        .mobility_tables
        .clone()
        .expect("fitted");
    // Up to the 8 squares seen, never falling; one knight left, so the
    // endgame table carries it, and it says far more than the linear term
    // (6 squares at 4.8 centipawns).
    assert_eq!(tables.endgame.len(), 9);
    for table in [&tables.middlegame, &tables.endgame] {
        assert!(table.windows(2).all(|w| w[0] <= w[1]), "{table:?}");
    }
    let gain = tables.endgame[8] - tables.endgame[2];
    assert!(gain > 60, "{tables:?}");
    // Kinds the positions do not show keep the linear term.
    let queen = kind_of(&variant, "queen");
    assert_eq!(fit.variant.pieces[queen].mobility_tables, None);
}

#[test]
fn tune_fits_mobility_tables_and_writes_them() {
    let dir = scratch("mobility");
    let positions = dir.join("knights.epd");
    std::fs::write(&positions, knight_positions(varc::tune::MIN_SUPPORT))
        .expect("positions written");
    let out = dir.join("chess.weights");
    let (positions_text, out_text) = (positions.display().to_string(), out.display().to_string());
    let rules = rules_file("chess");
    let figures = tune_figures(&[
        "tune",
        &rules,
        "--positions",
        &positions_text,
        "--mobility",
        "--squares",
        "--out",
        &out_text,
        "--json",
    ]);
    let mobility = &figures["mobility"];
    let (before, after) = (
        mobility["validation_loss"]["before"]
            .as_f64()
            .expect("a loss"),
        mobility["validation_loss"]["after"]
            .as_f64()
            .expect("a loss"),
    );
    assert!(after < before, "{figures}");
    // The square tables start from the fitted mobility tables.
    assert_eq!(
        figures["squares"]["loss"]["before"].as_f64(),
        mobility["loss"]["after"].as_f64(),
        "{figures}"
    );
    let written = text(&out);
    assert!(written.contains("\n# mobility tables ("), "{written}");
    assert!(written.contains("\nmobility knight = "), "{written}");
    assert!(
        written.contains("\nendgame-mobility knight = "),
        "{written}"
    );
    let mut variant = common::variant("chess");
    WeightsFile::parse(&written)
        .expect("reads")
        .apply(&mut variant)
        .expect("applies");
    let knight = kind_of(&variant, "knight");
    assert!(variant.pieces[knight].mobility_tables.is_some());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Level positions where the side to move is labelled as the likely
/// winner: what only the tempo weight can explain.
const SIDE_TO_MOVE_WINS: &str = "\
4k3/3p4/8/8/8/8/3P4/4K3 w - - [0.8]
4k3/3p4/8/8/8/8/3P4/4K3 b - - [0.2]
3k4/2p5/8/8/8/8/2P5/3K4 w - - [0.8]
3k4/2p5/8/8/8/8/2P5/3K4 b - - [0.2]
";

#[test]
fn fixed_weights_keep_their_values_and_unknown_names_are_refused() {
    let dir = scratch("fixed");
    let positions = dir.join("side-to-move.epd");
    std::fs::write(&positions, SIDE_TO_MOVE_WINS.repeat(5)).expect("positions written");
    let positions_text = positions.display().to_string();
    let rules = rules_file("chess");
    let tempo_after = |fixed: &[&str], name: &str| {
        let out = dir.join(name);
        let out_text = out.display().to_string();
        let mut args = vec![
            "tune",
            &rules,
            "--positions",
            &positions_text,
            "--out",
            &out_text,
        ];
        args.extend_from_slice(fixed);
        let output = varc(&args);
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        let line = text(&out)
            .lines()
            .find(|line| line.starts_with("tempo = "))
            .map(str::to_string);
        line.expect("a tempo line")
    };
    let default = EvaluationWeights::default().tempo;
    assert_ne!(
        tempo_after(&[], "free.weights"),
        format!("tempo = {default}")
    );
    assert_eq!(
        tempo_after(&["--fixed", "tempo"], "fixed.weights"),
        format!("tempo = {default}")
    );

    let out = dir.join("refused.weights");
    let out_text = out.display().to_string();
    let output = varc(&[
        "tune",
        &rules,
        "--positions",
        &positions_text,
        "--fixed",
        "tempi",
        "--out",
        &out_text,
    ]);
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("`tempi` is not a weight"));
    assert!(!out.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_given_scale_is_the_fits_k_and_bad_ones_are_refused() {
    let dir = scratch("scale");
    let positions = dir.join("side-to-move.epd");
    std::fs::write(&positions, SIDE_TO_MOVE_WINS.repeat(5)).expect("positions written");
    let positions_text = positions.display().to_string();
    let rules = rules_file("chess");
    let out = dir.join("scaled.weights");
    let out_text = out.display().to_string();
    let tune = |scale: &str| {
        varc(&[
            "tune",
            &rules,
            "--positions",
            &positions_text,
            "--scale",
            scale,
            "--out",
            &out_text,
        ])
    };
    let output = tune("0.004");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        text(&out).contains("(k = 0.00400 per centipawn)"),
        "{}",
        text(&out)
    );
    std::fs::remove_file(&out).expect("removed");
    for bad in ["0", "0.2", "k", "NaN"] {
        let output = tune(bad);
        assert!(!output.status.success(), "--scale {bad} accepted");
        assert!(
            String::from_utf8_lossy(&output.stderr).contains("is not a scale"),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        assert!(!out.exists());
    }
    let _ = std::fs::remove_dir_all(&dir);
}
