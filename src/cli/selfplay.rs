//! `varc selfplay FILE --games N [--depth D | --movetime MS] [--seed S]
//! [--shard i/n] [--out DIR] [--json]` and `varc selfplay merge FILES...`.
//!
//! Plays the engine against itself (see [`varc_runtime::selfplay`]) with a
//! progress bar, then prints the summary: results by colour, scores under
//! the variant's scoring, shares of draws, null games and each way games
//! ended, and the distribution of game lengths. With `--out DIR` every game
//! is written as a record (`DIR/game-00042.pgn`, loaded back and replayed
//! to check it reaches the same result) and the summary as JSON
//! (`DIR/summary-2-of-8.json`). A large run is spread over machines with
//! `--shard i/n` (1-based: a Slurm array index, a Kubernetes job index + 1,
//! GNU parallel's `{#}`), then the shard summaries are combined, exactly,
//! by `varc selfplay merge DIR*/summary-*.json`.

use indicatif::{ProgressBar, ProgressStyle};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use varc::output::OutputFolder;
use varc::selfplay::{play_game, Settings, Shard, Summary};
use varc_runtime::game::record::load;
use varc_runtime::rules::Rules;

/// Arguments of `varc selfplay`.
#[derive(clap::Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct SelfplayArgs {
    /// Combine summaries.
    #[command(subcommand)]
    pub command: Option<SelfplayCommand>,
    /// The rules file.
    #[arg(required = true)]
    pub file: Option<PathBuf>,
    /// Games in the whole run (all shards).
    #[arg(long, default_value_t = 100)]
    pub games: u32,
    /// Search depth per move.
    #[arg(long, conflicts_with = "movetime")]
    pub depth: Option<u32>,
    /// Search time per move, in milliseconds.
    #[arg(long)]
    pub movetime: Option<u64>,
    /// Seed of the random openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Random plies at the start of each game, so that games differ.
    #[arg(long, default_value_t = 4)]
    pub opening_plies: u32,
    /// Plies after which a game is stopped as unfinished.
    #[arg(long, default_value_t = 600)]
    pub max_plies: u32,
    /// Play only this shard of the run: `i/n`, 1-based.
    #[arg(long)]
    pub shard: Option<Shard>,
    /// Write the records and the JSON summary into this directory.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Print the summary as JSON.
    #[arg(long)]
    pub json: bool,
    /// A weights file for the evaluation (`varc tune` writes one).
    #[arg(long)]
    pub weights: Option<PathBuf>,
}

/// `varc selfplay merge`.
#[derive(clap::Subcommand)]
pub enum SelfplayCommand {
    /// Combine the JSON summaries of shards of one run.
    Merge {
        /// Summary files (`summary-*.json`).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Print the merged summary as JSON.
        #[arg(long)]
        json: bool,
        /// Also write the merged summary to this file.
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
}

/// Runs `varc selfplay`.
pub fn run(args: SelfplayArgs) -> ExitCode {
    if let Some(SelfplayCommand::Merge {
        files,
        json,
        output,
    }) = &args.command
    {
        return merge(files, *json, output.as_deref());
    }
    let Some(file) = &args.file else {
        eprintln!("error: a rules file is required");
        return ExitCode::FAILURE;
    };
    let Some(rules) = super::load_weighted_interpreter(file, args.weights.as_deref()) else {
        return ExitCode::FAILURE;
    };
    let depth = match (args.depth, args.movetime) {
        (None, None) => Some(3),
        (depth, _) => depth,
    };
    let settings = Settings {
        variant: rules.variant().id.clone(),
        games: args.games,
        depth,
        movetime_ms: args.movetime,
        seed: args.seed,
        opening_plies: args.opening_plies,
        max_plies: args.max_plies.max(1),
    };
    let shard = args.shard.unwrap_or(Shard::ALL);
    // The records go into a folder varc owns (see `varc::output`): a
    // user's folder is refused before any game is played.
    let out = match &args.out {
        Some(dir) => {
            match OutputFolder::claim(dir, &format!("varc selfplay ({})", settings.variant)) {
                Ok(folder) => Some(folder),
                Err(error) => {
                    eprintln!("error: {error}");
                    return ExitCode::FAILURE;
                }
            }
        }
        None => None,
    };
    let indices: Vec<u32> = shard.games(settings.games).collect();
    let bar = ProgressBar::new(indices.len() as u64);
    bar.set_style(
        ProgressStyle::with_template("selfplay {pos}/{len} games {wide_bar} {elapsed}<{eta} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let mut summary = Summary::new(settings.clone(), shard);
    let mut record_failures = 0;
    let mut write_failures = 0;
    for index in indices {
        let played = play_game(&rules, &settings, index);
        if let Some(error) = &played.refused {
            report(
                &bar,
                format!(
                    "game {}: the game refused an engine move: {error}",
                    index + 1
                ),
            );
        }
        summary.add(&played.outcome());
        if let Some(folder) = &out {
            let record = played.record(&settings);
            if let Err(why) = check_record(&rules, &record, &played.game) {
                record_failures += 1;
                report(
                    &bar,
                    format!("game {}: its record does not replay: {why}", index + 1),
                );
            }
            let name = format!("game-{:05}.pgn", index + 1);
            if let Err(error) = folder.write(Path::new(&name), record.as_bytes()) {
                report(&bar, format!("error: {error}"));
                write_failures += 1;
            }
        }
        bar.set_message(format!(
            "+{} -{} ={} null {}",
            summary.white_wins, summary.black_wins, summary.draws, summary.null_games
        ));
        bar.inc(1);
    }
    bar.finish_and_clear();
    if let Some(folder) = &out {
        let name = format!("summary-{}-of-{}.json", shard.index, shard.count);
        let written = serde_json::to_string_pretty(&summary)
            .map_err(|e| e.to_string())
            .and_then(|text| {
                folder
                    .write(Path::new(&name), (text + "\n").as_bytes())
                    .map_err(|e| e.to_string())
            });
        if let Err(error) = written {
            eprintln!("error: {error}");
            return ExitCode::FAILURE;
        }
    }
    print_summary(&summary, args.json);
    if record_failures > 0 || write_failures > 0 || summary.refused_moves > 0 {
        eprintln!(
            "error: {record_failures} records did not replay, {write_failures} could not be written, {} games had a refused move",
            summary.refused_moves
        );
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}

/// Prints a line above the progress bar, or on stderr when there is no
/// bar (indicatif drops the lines of a hidden bar, and these are errors).
fn report(bar: &ProgressBar, line: String) {
    if bar.is_hidden() {
        eprintln!("{line}");
    } else {
        bar.println(line);
    }
}

/// Loads `record` back and checks that it reaches `game`'s position and result.
fn check_record<R: Rules + Clone>(
    rules: &R,
    record: &str,
    game: &varc_runtime::game::Game<R>,
) -> Result<(), String> {
    let loaded = load(rules.clone(), record).map_err(|e| e.to_string())?;
    if rules.export(loaded.position()) != rules.export(game.position()) {
        return Err("the replayed position differs".into());
    }
    if loaded.result() != game.result() {
        return Err(format!(
            "the replayed result {:?} differs from {:?}",
            loaded.result().map(|r| &r.reason),
            game.result().map(|r| &r.reason)
        ));
    }
    Ok(())
}

fn write_json(path: &Path, summary: &Summary) -> Result<(), String> {
    let text = serde_json::to_string_pretty(summary).map_err(|e| e.to_string())?;
    // The file the user named (`merge -o FILE`) is replaced, atomically and
    // never through a link.
    varc::output::write_file(path, (text + "\n").as_bytes(), true).map_err(|e| e.to_string())
}

fn print_summary(summary: &Summary, json: bool) {
    if json {
        match serde_json::to_string_pretty(summary) {
            Ok(text) => println!("{text}"),
            Err(error) => eprintln!("error: {error}"),
        }
    } else {
        print!("{}", summary.report());
    }
}

/// `varc selfplay merge`: every file is [checked](Summary::check), the
/// shards must be of one run and one split, distinct, and all present; on
/// any error nothing is written or printed but the error (exit 1). A run
/// with a shard missing is refused rather than merged with a warning: its
/// figures would look like the whole run's.
fn merge(files: &[PathBuf], json: bool, output: Option<&Path>) -> ExitCode {
    match merge_files(files) {
        Ok(summary) => {
            if let Some(path) = output {
                if let Err(error) = write_json(path, &summary) {
                    eprintln!("error: {error}");
                    return ExitCode::FAILURE;
                }
            }
            print_summary(&summary, json);
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}

/// The merged summary of `files`, or the first reason it cannot be made.
fn merge_files(files: &[PathBuf]) -> Result<Summary, String> {
    let mut merged: Option<Summary> = None;
    for file in files {
        let text = varc::bounded::read_text(file).map_err(|error| error.to_string())?;
        let summary: Summary = serde_json::from_str(&text)
            .map_err(|error| format!("{} is not a selfplay summary: {error}", file.display()))?;
        let added = match &mut merged {
            None => summary.check().map(|()| merged = Some(summary)),
            Some(total) => total.merge(&summary),
        };
        added.map_err(|error| format!("{}: {error}", file.display()))?;
    }
    let summary = merged.ok_or("no summary to merge")?;
    let missing = summary.missing_shards();
    if let Some(count) = summary
        .shards
        .first()
        .map(|s| s.count)
        .filter(|_| !missing.is_empty())
    {
        return Err(varc::selfplay::MergeError::Missing { missing, count }.to_string());
    }
    Ok(summary)
}
