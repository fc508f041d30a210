//! The `varc` command line.

mod cli;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// varc: check, run and compile chess-variant rules files.
#[derive(Parser)]
#[command(name = "varc", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Check a rules file: exit 0 if valid, else diagnostics on stderr and exit 1.
    Check(cli::check::CheckArgs),
    /// Explain a diagnostic code (E0101, W0004) at length, with an example.
    Explain(cli::explain::ExplainArgs),
    /// Print the lowered model of a rules file in readable form.
    Dump(cli::dump::DumpArgs),
    /// Count the leaves of the legal-move tree (reference interpreter).
    Perft(cli::perft::PerftArgs),
    /// Play moves with full legality and print the state reached.
    Replay(cli::replay::ReplayArgs),
    /// Generate the variant's Rust engine crate and build its binary.
    Build(cli::build::BuildArgs),
    /// Run the variant's engine over the Universal Chess Interface (stdin/stdout).
    Uci(cli::uci::UciArgs),
    /// Run the variant's engine over the XBoard/WinBoard protocol (stdin/stdout).
    Xboard(cli::xboard::XboardArgs),
    /// Play the engine against itself and summarise the results (or merge summaries).
    Selfplay(cli::selfplay::SelfplayArgs),
    /// Fit the evaluation's weights and piece values to self-play games; write a weights file.
    Tune(cli::tune::TuneArgs),
    /// Play a game in the terminal against the engine or a friend.
    Play(cli::play::PlayArgs),
    /// Serve the web playground: play, check and edit variants in a browser.
    Serve(cli::serve::ServeArgs),
    /// Format rules files in place in the canonical layout (or check that they are).
    Fmt(cli::fmt::FmtArgs),
    /// Run the language server (Language Server Protocol over stdin/stdout) for editors.
    Lsp(cli::lsp::LspArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Check(args) => cli::check::run(args),
        Command::Explain(args) => cli::explain::run(args),
        Command::Dump(args) => cli::dump::run(args),
        Command::Perft(args) => cli::perft::run(args),
        Command::Replay(args) => cli::replay::run(args),
        Command::Build(args) => cli::build::run(args),
        Command::Uci(args) => cli::uci::run(args),
        Command::Xboard(args) => cli::xboard::run(args),
        Command::Selfplay(args) => cli::selfplay::run(args),
        Command::Tune(args) => cli::tune::run(args),
        Command::Play(args) => cli::play::run(args),
        Command::Serve(args) => cli::serve::run(args),
        Command::Fmt(args) => cli::fmt::run(args),
        Command::Lsp(args) => cli::lsp::run(args),
    }
}
