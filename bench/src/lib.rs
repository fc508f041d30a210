//! Helpers of varc's benchmarks (`cargo bench -p varc-bench`): building the
//! generated engines and running their perft.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;
use varc::model::Variant;

pub mod matches;

/// Loads a bundled variant.
pub fn load(rules_file: &str) -> Result<Variant, String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../variants")
        .join(rules_file);
    varc::load_variant(&path).map_err(|e| e.render())
}

/// Generates and builds `variant`'s engine with `target_dir` as the shared
/// target directory, for the processor this benchmark was built for (so
/// that the engines and the libraries they are compared with are built
/// alike); returns the binary and the seconds it took.
pub fn build_engine(variant: &Variant, target_dir: &Path) -> Result<(PathBuf, f64), String> {
    let started = Instant::now();
    let generated = varc::codegen::generate(variant, &varc::codegen::engine_core_path())
        .map_err(|e| e.to_string())?;
    let dir = target_dir.join("crates").join(&generated.package);
    varc::codegen::write_crate(
        &generated,
        &dir,
        Some(&varc::codegen::workspace_lock_file()),
    )
    .map_err(|e| e.to_string())?;
    let binary = varc::codegen::build(
        &dir,
        &generated.package,
        target_dir,
        varc::codegen::TargetCpu::of_this_build(),
        false,
    )
    .map_err(|e| e.to_string())?;
    Ok((binary, started.elapsed().as_secs_f64()))
}

/// Runs `binary perft DEPTH --fen FEN --json [--no-bulk]`: nodes and seconds.
pub fn engine_perft(
    binary: &Path,
    fen: &str,
    depth: u32,
    bulk: bool,
) -> Result<(u64, f64), String> {
    let mut command = Command::new(binary);
    command.args(["perft", &depth.to_string(), "--fen", fen, "--json"]);
    if !bulk {
        command.arg("--no-bulk");
    }
    let output = command.output().map_err(|e| e.to_string())?;
    let value: serde_json::Value =
        serde_json::from_slice(&output.stdout).map_err(|e| e.to_string())?;
    let nodes = value["nodes"].as_u64().ok_or("no nodes")?;
    let seconds = value["seconds"].as_f64().ok_or("no seconds")?;
    Ok((nodes, seconds))
}
