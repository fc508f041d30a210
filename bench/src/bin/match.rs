//! `match`: plays two UCI engines against each other in any variant that
//! varc reads, from a file of openings, each opening with both colours, and
//! prints the score, the Elo difference with its 95% interval and each
//! engine's nodes per second and average depth (see `bench/strength.sh`).

use clap::Parser;
use std::path::PathBuf;
use std::time::Duration;
use varc::interp::Interpreter;
use varc_bench::matches::play::{play_game, score_text, Control, SearchTotals};
use varc_bench::matches::positions::quiet_positions;
use varc_bench::matches::stats::{elo_text, sprt_bounds, Tally};
use varc_bench::matches::uci_engine::UciEngine;
use varc_bench::matches::{random_openings, read_openings};

#[derive(Parser, Debug)]
#[command(about = "Plays two UCI engines against each other, the game kept by varc's rules")]
struct Args {
    /// The variant's rules file.
    #[arg(long)]
    rules: PathBuf,
    /// The first engine, as NAME=COMMAND (the score is this engine's).
    #[arg(long)]
    first: String,
    /// The second engine, as NAME=COMMAND.
    #[arg(long)]
    second: String,
    /// A UCI option of the first engine, as NAME=VALUE (repeatable); the
    /// engine must offer it. Engines built by varc offer the search's
    /// tunable numbers when `VARC_TUNE` is set (`bench/spsa.py`).
    #[arg(long, value_name = "NAME=VALUE")]
    first_option: Vec<String>,
    /// A UCI option of the second engine, as for `--first-option`.
    #[arg(long, value_name = "NAME=VALUE")]
    second_option: Vec<String>,
    /// The openings file: one line of moves per opening.
    #[arg(long, required_unless_present = "random_openings")]
    openings: Option<PathBuf>,
    /// Instead of a file, this many openings of random legal moves (for
    /// many varied games, such as `varc tune --records` learns from).
    #[arg(long, conflicts_with = "openings")]
    random_openings: Option<usize>,
    /// Plies of each random opening.
    #[arg(long, default_value_t = 8)]
    random_plies: usize,
    /// Seed of the random openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Play only the first N openings (each twice, both colours).
    #[arg(long)]
    max_openings: Option<usize>,
    /// What each engine is told for each move, after `go` (unless
    /// `--first-go` or `--second-go` tells it otherwise).
    #[arg(long, default_value = "movetime 100")]
    go: String,
    /// What the first engine alone is told after `go`, in place of
    /// `--go` (time or depth odds: `--first-go "depth 8"`).
    #[arg(long, value_name = "GO")]
    first_go: Option<String>,
    /// What the second engine alone is told, as for `--first-go`.
    #[arg(long, value_name = "GO")]
    second_go: Option<String>,
    /// The `UCI_Variant` value, for engines that offer the option
    /// (default: the variant's id).
    #[arg(long)]
    uci_variant: Option<String>,
    /// Plies after which a game is a draw.
    #[arg(long, default_value_t = 400)]
    max_plies: usize,
    /// Centipawns both engines must report for a resignation (0: never).
    #[arg(long, default_value_t = 1000)]
    resign_cp: i32,
    /// Moves of each engine in a row with that score.
    #[arg(long, default_value_t = 4)]
    resign_moves: usize,
    /// Stop early on an SPRT of H0: Elo <= ELO0 against H1: Elo >= ELO1,
    /// given as ELO0,ELO1 (error rates 5% each).
    #[arg(long, value_parser = parse_sprt)]
    sprt: Option<(f64, f64)>,
    /// Seconds an engine may take over one move before it forfeits.
    #[arg(long, default_value_t = 60)]
    timeout: u64,
    /// Print each game's moves.
    #[arg(long)]
    verbose: bool,
    /// Append every game to this file as a record (PGN-like, with the
    /// adjudicated results), for `varc tune --records` and other readers.
    #[arg(long)]
    pgn: Option<PathBuf>,
    /// Append the quiet positions of every game (after its opening: the
    /// side to move not in check, the move played neither capturing nor
    /// promoting) to this file as `FEN [SCORE]`, White's score of the game,
    /// for `varc tune --positions` or for another engine to label
    /// (`bench/label_positions.py --fens`).
    #[arg(long)]
    fens: Option<PathBuf>,
}

fn parse_sprt(text: &str) -> Result<(f64, f64), String> {
    let (low, high) = text.split_once(',').ok_or("ELO0,ELO1")?;
    let low = low.trim().parse::<f64>().map_err(|e| e.to_string())?;
    let high = high.trim().parse::<f64>().map_err(|e| e.to_string())?;
    Ok((low, high))
}

fn engine_spec(text: &str) -> Result<(String, String), String> {
    let (name, command) = text
        .split_once('=')
        .ok_or_else(|| format!("an engine is NAME=COMMAND, not {text}"))?;
    Ok((name.to_string(), command.to_string()))
}

/// A warning where the two engines are one: the same command, options and
/// limit. At a fixed count of nodes or a fixed depth such an engine plays
/// each opening's two games alike, so half of them tell nothing new (the
/// thirty-seventh session's positions lost half their games so).
fn mirrored_games_warning(
    specs: &[(String, String); 2],
    options: &[Vec<(String, String)>; 2],
    limits: &[String; 2],
) -> Option<String> {
    let fixed = |limit: &str| {
        let words: Vec<&str> = limit.split_whitespace().collect();
        !words.is_empty()
            && words
                .iter()
                .all(|w| !w.contains("time") && *w != "infinite")
    };
    let same = specs[0].1 == specs[1].1 && options[0] == options[1] && limits[0] == limits[1];
    (same && fixed(&limits[0])).then(|| {
        format!(
            "both engines run `{}` with the same options and `go {}`: each opening's two \
             games will repeat each other; set an option of one side (--first-option) to \
             tell them apart",
            specs[0].1, limits[0]
        )
    })
}

/// `NAME=VALUE` options as pairs.
fn option_values(texts: &[String]) -> Result<Vec<(String, String)>, String> {
    texts
        .iter()
        .map(|text| match text.split_once('=') {
            Some((name, value)) if !name.trim().is_empty() => {
                Ok((name.trim().to_string(), value.trim().to_string()))
            }
            _ => Err(format!("an engine option is NAME=VALUE, not {text}")),
        })
        .collect()
}

fn main() {
    if let Err(error) = run(Args::parse()) {
        eprintln!("match: {error}");
        std::process::exit(1);
    }
}

fn run(args: Args) -> Result<(), String> {
    let variant = varc::load_variant(&args.rules).map_err(|e| e.render())?;
    let rules = Interpreter::new(variant.clone()).map_err(|e| e.to_string())?;
    let mut openings = match (&args.openings, args.random_openings) {
        (Some(path), _) => {
            let text = varc::bounded::read_text(path).map_err(|e| e.to_string())?;
            read_openings(&text)
        }
        (None, Some(count)) => random_openings(&rules, count, args.random_plies, args.seed)?,
        (None, None) => return Err("give --openings FILE or --random-openings N".to_string()),
    };
    if let Some(n) = args.max_openings {
        openings.truncate(n);
    }
    if openings.is_empty() {
        return Err("no opening to play".to_string());
    }
    let uci_variant = args.uci_variant.clone().unwrap_or(variant.id.clone());
    let options = [
        ("UCI_Variant", uci_variant),
        ("Threads", "1".to_string()),
        ("Hash", "16".to_string()),
    ];
    let specs = [engine_spec(&args.first)?, engine_spec(&args.second)?];
    let required = [
        option_values(&args.first_option)?,
        option_values(&args.second_option)?,
    ];
    let own_go = [args.first_go.clone(), args.second_go.clone()];
    let limits = own_go
        .clone()
        .map(|go| go.unwrap_or_else(|| args.go.clone()));
    if let Some(warning) = mirrored_games_warning(&specs, &required, &limits) {
        eprintln!("match: warning: {warning}");
    }
    let mut engines = Vec::new();
    for (((name, command), required), go) in specs.iter().zip(&required).zip(own_go) {
        let mut engine = UciEngine::start(name, command, &options, required)?;
        engine.go = go;
        engines.push(engine);
    }
    let control = Control {
        go: args.go.clone(),
        timeout: Duration::from_secs(args.timeout),
        max_plies: args.max_plies,
        resign_cp: args.resign_cp,
        resign_moves: args.resign_moves,
    };
    let names = [specs[0].0.clone(), specs[1].0.clone()];
    let mut tally = Tally::default();
    let mut totals = [SearchTotals::default(); 2];
    let bounds = sprt_bounds(0.05, 0.05);
    let games = openings.len() * 2;
    let mut played = 0;
    'openings: for (number, opening) in openings.iter().enumerate() {
        for first_is_white in [true, false] {
            let (first, second) = engines.split_at_mut(1);
            let (first, second) = (&mut first[0], &mut second[0]);
            let pair = if first_is_white {
                [first, second]
            } else {
                [second, first]
            };
            let record = play_game(&rules, opening, pair, &control)?;
            if let Some(path) = &args.pgn {
                append(path, &format!("{}\n", record.record))?;
            }
            if let Some(path) = &args.fens {
                append(path, &quiet_positions(&rules, &record, opening.len())?)?;
            }
            let first_score = if first_is_white {
                record.white_score
            } else {
                1.0 - record.white_score
            };
            match first_score {
                s if s > 0.75 => tally.wins += 1,
                s if s < 0.25 => tally.losses += 1,
                _ => tally.draws += 1,
            }
            let (first_side, second_side) = if first_is_white { (0, 1) } else { (1, 0) };
            totals[0].add(&record.totals[first_side]);
            totals[1].add(&record.totals[second_side]);
            played += 1;
            let white = if first_is_white { &names[0] } else { &names[1] };
            let black = if first_is_white { &names[1] } else { &names[0] };
            println!(
                "game {played}/{games} (opening {}): {white} - {black} {}, {} plies, {}; {} {}-{}-{}",
                number + 1,
                score_text(record.white_score),
                record.moves.len(),
                record.reason,
                names[0],
                tally.wins,
                tally.draws,
                tally.losses
            );
            if args.verbose {
                println!("  {}", record.moves.join(" "));
            }
            if let Some((elo0, elo1)) = args.sprt {
                let llr = tally.llr(elo0, elo1);
                if llr <= bounds.0 || llr >= bounds.1 {
                    let verdict = if llr >= bounds.1 { "H1" } else { "H0" };
                    println!("SPRT [{elo0}, {elo1}]: LLR {llr:.2} crosses ({:.2}, {:.2}): {verdict} accepted", bounds.0, bounds.1);
                    break 'openings;
                }
            }
        }
    }
    summary(&variant.id, &names, &tally, &totals, &args);
    Ok(())
}

fn summary(
    variant: &str,
    names: &[String; 2],
    tally: &Tally,
    totals: &[SearchTotals; 2],
    args: &Args,
) {
    let (elo, low, high) = tally.elo_interval();
    println!();
    let go = |own: &Option<String>| own.clone().unwrap_or_else(|| args.go.clone());
    let (first_go, second_go) = (go(&args.first_go), go(&args.second_go));
    let limits = if first_go == second_go {
        format!("go {first_go}")
    } else {
        format!("go {first_go} / {second_go}")
    };
    println!(
        "{} vs {} in {variant}, {limits}: {} games, {}-{}-{} (W-D-L), score {:.1}%",
        names[0],
        names[1],
        tally.games(),
        tally.wins,
        tally.draws,
        tally.losses,
        100.0 * tally.score()
    );
    println!(
        "Elo difference {} (95%: {} to {})",
        elo_text(elo),
        elo_text(low),
        elo_text(high)
    );
    if let Some((elo0, elo1)) = args.sprt {
        let (lower, upper) = sprt_bounds(0.05, 0.05);
        println!(
            "SPRT [{elo0}, {elo1}]: LLR {:.2} (bounds {lower:.2}, {upper:.2})",
            tally.llr(elo0, elo1)
        );
    }
    for (name, total) in names.iter().zip(totals) {
        println!(
            "{name}: {} nodes/s, average depth {:.1} (median {}) over {} moves",
            total.nps(),
            total.average_depth(),
            total.median_depth(),
            total.moves
        );
    }
    println!();
    println!(
        "| variant | games | {} W-D-L | score | Elo (95%) | {} nps | depth (median) | {} nps | depth (median) |",
        names[0], names[0], names[1]
    );
    println!("| --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    println!(
        "| {variant} | {} | {}-{}-{} | {:.1}% | {} ({} to {}) | {} | {:.1} ({}) | {} | {:.1} ({}) |",
        tally.games(),
        tally.wins,
        tally.draws,
        tally.losses,
        100.0 * tally.score(),
        elo_text(elo),
        elo_text(low),
        elo_text(high),
        totals[0].nps(),
        totals[0].average_depth(),
        totals[0].median_depth(),
        totals[1].nps(),
        totals[1].average_depth(),
        totals[1].median_depth()
    );
}

fn append(path: &std::path::Path, text: &str) -> Result<(), String> {
    use std::io::Write;
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .and_then(|mut file| file.write_all(text.as_bytes()))
        .map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::mirrored_games_warning;

    fn specs(first: &str, second: &str) -> [(String, String); 2] {
        [
            ("a".to_string(), first.to_string()),
            ("b".to_string(), second.to_string()),
        ]
    }

    #[test]
    fn one_engine_at_fixed_nodes_is_warned_of_and_differing_ones_are_not() {
        let none = [Vec::new(), Vec::new()];
        let nodes = ["nodes 16000".to_string(), "nodes 16000".to_string()];
        assert!(mirrored_games_warning(&specs("e uci", "e uci"), &none, &nodes).is_some());
        let depth = ["depth 8".to_string(), "depth 8".to_string()];
        assert!(mirrored_games_warning(&specs("e uci", "e uci"), &none, &depth).is_some());
        assert!(mirrored_games_warning(&specs("e uci", "f uci"), &none, &nodes).is_none());
        let option = [
            vec![("aspiration_window".to_string(), "24".to_string())],
            Vec::new(),
        ];
        assert!(mirrored_games_warning(&specs("e uci", "e uci"), &option, &nodes).is_none());
        let odds = ["nodes 16000".to_string(), "nodes 8000".to_string()];
        assert!(mirrored_games_warning(&specs("e uci", "e uci"), &none, &odds).is_none());
        // Timed searches differ from game to game by themselves.
        let timed = ["movetime 100".to_string(), "movetime 100".to_string()];
        assert!(mirrored_games_warning(&specs("e uci", "e uci"), &none, &timed).is_none());
    }
}
