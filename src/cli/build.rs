//! `varc build FILE [-o DIR]`: writes the crate generated for the variant
//! and builds its engine binary with `cargo build --release`.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;
use varc::codegen;

/// Arguments of `varc build`.
#[derive(clap::Args)]
pub struct BuildArgs {
    /// The rules file.
    pub file: PathBuf,
    /// Where to write the generated crate (default: a cache folder under
    /// the shared engine target directory).
    #[arg(short = 'o', long = "out")]
    pub out: Option<PathBuf>,
    /// Only write the crate; do not run cargo.
    #[arg(long)]
    pub no_build: bool,
    /// Build for any processor of this architecture, for a binary to be
    /// copied to other machines (by default the engine uses every
    /// instruction of this machine's processor).
    #[arg(long)]
    pub portable: bool,
    /// A weights file for the evaluation (`varc tune` writes one), built
    /// into the engine.
    #[arg(long)]
    pub weights: Option<PathBuf>,
    /// Profile-guided: build with instrumentation, train on a perft and a
    /// self-play game, and build again with the profile (about a tenth
    /// more nodes a second; three times the build time). Needs
    /// llvm-profdata of rustc's LLVM version (`VARC_LLVM_PROFDATA` names
    /// one).
    #[arg(long, conflicts_with = "no_build")]
    pub pgo: bool,
}

/// Generates and builds; prints the binary's path. Exit 1 on any error.
pub fn run(args: BuildArgs) -> ExitCode {
    let Some(variant) = super::load_weighted(&args.file, args.weights.as_deref()) else {
        return ExitCode::FAILURE;
    };
    let dir = args
        .out
        .clone()
        .unwrap_or_else(|| codegen::default_crate_dir(&variant));
    let started = Instant::now();
    let generated = match codegen::generate(&variant, &codegen::engine_core_path()) {
        Ok(generated) => generated,
        Err(error) => {
            eprintln!("error: {error}");
            return ExitCode::FAILURE;
        }
    };
    if let Err(error) =
        codegen::write_crate(&generated, &dir, Some(&codegen::workspace_lock_file()))
    {
        eprintln!("error: {error}");
        return ExitCode::FAILURE;
    }
    eprintln!(
        "varc: wrote the {} engine crate to {}",
        variant.id,
        dir.display()
    );
    if args.no_build {
        return ExitCode::SUCCESS;
    }
    let terminal = std::io::stderr().is_terminal();
    eprintln!(
        "varc: building {} (target directory {})",
        generated.package,
        codegen::shared_target_dir().display()
    );
    let cpu = if args.portable {
        codegen::TargetCpu::Portable
    } else {
        codegen::TargetCpu::Native
    };
    let target_dir = codegen::shared_target_dir();
    let built = if args.pgo {
        codegen::pgo::build_guided(
            &dir,
            &generated.package,
            &target_dir,
            cpu,
            terminal,
            |step| eprintln!("varc: profile-guided build, {step}"),
        )
    } else {
        codegen::build(&dir, &generated.package, &target_dir, cpu, terminal)
    };
    match built {
        Ok(binary) => {
            eprintln!("varc: built in {:.1} s", started.elapsed().as_secs_f64());
            println!("{}", binary.display());
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}

/// `varc perft --backend compiled`: builds the variant's engine (cached under
/// the shared engine target directory) and runs its `perft` with the same
/// arguments, so the output is the engine's own (the same `--json` keys).
pub fn run_compiled_perft(args: &super::perft::PerftArgs) -> ExitCode {
    let Some(variant) = super::load_or_report(&args.file) else {
        return ExitCode::FAILURE;
    };
    let dir = codegen::default_crate_dir(&variant);
    let terminal = std::io::stderr().is_terminal();
    let binary = match codegen::generate_and_build(&variant, &dir, terminal) {
        Ok(binary) => binary,
        Err(error) => {
            eprintln!("error: {error}");
            return ExitCode::FAILURE;
        }
    };
    let mut command = std::process::Command::new(&binary);
    command.arg("perft").arg(args.depth.to_string());
    if let Some(fen) = &args.fen {
        command.arg("--fen").arg(fen);
    }
    if args.divide {
        command.arg("--divide");
    }
    if args.json {
        command.arg("--json");
    }
    if args.end_rules {
        command.arg("--end-rules");
    }
    match command.status() {
        Ok(status) if status.success() => ExitCode::SUCCESS,
        Ok(_) => ExitCode::FAILURE,
        Err(error) => {
            eprintln!("error: cannot run {}: {error}", binary.display());
            ExitCode::FAILURE
        }
    }
}
