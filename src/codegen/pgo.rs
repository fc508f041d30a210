//! Profile-guided builds (`varc build --pgo`), as Stockfish's
//! `make profile-build`: the engine is built with instrumentation, runs a
//! training workload (a perft and a self-play game through its own UCI
//! loop, so the search, the evaluation and the move generator all run as
//! they do in play), and is built again with the profile it wrote, so the
//! compiler inlines and lays out the code for the paths the search takes.
//! Both builds use fat LTO in one codegen unit: with the profile, that
//! measured faster than the crate's two units without LTO.
//!
//! The profile is merged by `llvm-profdata`, which must be of rustc's LLVM
//! ([`find_profdata`]).

use super::{binary_name, cargo_build, CargoFlags, CodegenError, TargetCpu};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Plies of the training game, and nodes searched for each.
const TRAINING_PLIES: usize = 80;
const TRAINING_NODES: u32 = 20_000;
/// Depth of the training perft.
const TRAINING_PERFT_DEPTH: u32 = 3;

/// A step of a profile-guided build, for the progress shown to the user.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Building with instrumentation.
    Instrumented,
    /// Running the training workload.
    Training,
    /// Merging the profile and building with it.
    Optimized,
}

impl std::fmt::Display for Step {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Step::Instrumented => "1/3: the instrumented engine",
            Step::Training => "2/3: training (a perft, a self-play game)",
            Step::Optimized => "3/3: the engine built with the profile",
        })
    }
}

/// Builds the crate in `dir` guided by a profile of its own training run;
/// returns the binary's path. Both builds have target directories of
/// their own under `target_dir/pgo` (their flags differ from the plain
/// builds', and cargo would otherwise rebuild the shared crates each time
/// it switches). `step` is told each step as it starts.
pub fn build_guided(
    dir: &Path,
    package: &str,
    target_dir: &Path,
    cpu: TargetCpu,
    show_progress: bool,
    mut step: impl FnMut(Step),
) -> Result<PathBuf, CodegenError> {
    let profdata = find_profdata().map_err(CodegenError::Pgo)?;
    let work = target_dir.join("pgo");
    let profiles = work.join("profiles").join(binary_name(package, dir));
    if profiles.exists() {
        std::fs::remove_dir_all(&profiles).map_err(|source| CodegenError::Write {
            path: profiles.clone(),
            source,
        })?;
    }
    std::fs::create_dir_all(&profiles).map_err(|source| CodegenError::Write {
        path: profiles.clone(),
        source,
    })?;

    step(Step::Instrumented);
    let mut instrumented = guided_flags(cpu);
    instrumented
        .rustflags
        .push(format!("-Cprofile-generate={}", profiles.display()));
    let binary = cargo_build(
        dir,
        package,
        &work.join("instrumented"),
        &instrumented,
        show_progress,
    )?;
    // Build scripts and procedural macros are instrumented too and leave
    // their own profiles while the crate builds: only the engine's count.
    remove_profiles(&profiles)?;

    step(Step::Training);
    train(&binary).map_err(CodegenError::Pgo)?;

    step(Step::Optimized);
    let merged = work.join(format!("{}.profdata", binary_name(package, dir)));
    merge(&profdata, &profiles, &merged).map_err(CodegenError::Pgo)?;
    let mut optimized = guided_flags(cpu);
    optimized
        .rustflags
        .push(format!("-Cprofile-use={}", merged.display()));
    cargo_build(
        dir,
        package,
        &work.join("optimized"),
        &optimized,
        show_progress,
    )
}

/// The flags both builds share: `cpu`'s, fat LTO and one codegen unit.
fn guided_flags(cpu: TargetCpu) -> CargoFlags {
    let mut flags = CargoFlags::of(cpu);
    flags.profile = vec![("LTO", "fat"), ("CODEGEN_UNITS", "1")];
    flags
}

fn profile_files(folder: &Path) -> Result<Vec<PathBuf>, CodegenError> {
    let entries = std::fs::read_dir(folder).map_err(|source| CodegenError::Write {
        path: folder.to_path_buf(),
        source,
    })?;
    Ok(entries
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|e| e == "profraw"))
        .collect())
}

fn remove_profiles(folder: &Path) -> Result<(), CodegenError> {
    for path in profile_files(folder)? {
        std::fs::remove_file(&path).map_err(|source| CodegenError::Write { path, source })?;
    }
    Ok(())
}

/// The training workload: a perft, then a self-play game from the start
/// position, each move searched to a number of nodes through UCI.
fn train(binary: &Path) -> Result<(), String> {
    let cannot_run = |e: std::io::Error| format!("cannot run {}: {e}", binary.display());
    let perft = Command::new(binary)
        .arg("perft")
        .arg(TRAINING_PERFT_DEPTH.to_string())
        .stdout(Stdio::null())
        .status()
        .map_err(cannot_run)?;
    if !perft.success() {
        return Err(format!("the training perft of {} failed", binary.display()));
    }
    let mut engine = Command::new(binary)
        .arg("uci")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .map_err(cannot_run)?;
    let played = match (engine.stdin.take(), engine.stdout.take()) {
        (Some(input), Some(output)) => self_play(input, BufReader::new(output)),
        _ => Err(String::from(
            "the engine's input or output is not available",
        )),
    };
    let status = engine.wait().map_err(cannot_run)?;
    let plies = played?;
    if !status.success() {
        return Err(format!("the training game of {} failed", binary.display()));
    }
    if plies == 0 {
        return Err(String::from(
            "the engine played no move in its training game",
        ));
    }
    Ok(())
}

/// Plays the training game over UCI; the number of plies played. Closes
/// the engine's input at the end, so that it quits.
fn self_play(mut input: impl Write, output: impl BufRead) -> Result<usize, String> {
    let broken = |e: std::io::Error| format!("the training engine stopped: {e}");
    let mut lines = output.lines();
    writeln!(input, "uci").map_err(broken)?;
    let mut moves: Vec<String> = Vec::new();
    while moves.len() < TRAINING_PLIES {
        let position = if moves.is_empty() {
            String::from("position startpos")
        } else {
            format!("position startpos moves {}", moves.join(" "))
        };
        writeln!(input, "{position}\ngo nodes {TRAINING_NODES}").map_err(broken)?;
        input.flush().map_err(broken)?;
        let best = loop {
            match lines.next() {
                Some(Ok(line)) if line.starts_with("bestmove") => {
                    break line.split_whitespace().nth(1).map(str::to_string);
                }
                Some(Ok(_)) => continue,
                Some(Err(e)) => return Err(broken(e)),
                None => return Err(String::from("the training engine stopped mid-game")),
            }
        };
        match best {
            Some(best) if best != "0000" => moves.push(best),
            _ => break,
        }
    }
    writeln!(input, "quit").map_err(broken)?;
    Ok(moves.len())
}

/// Merges the profiles in `folder` into `merged`.
fn merge(profdata: &Path, folder: &Path, merged: &Path) -> Result<(), String> {
    let files = profile_files(folder).map_err(|e| e.to_string())?;
    if files.is_empty() {
        return Err(format!(
            "the training run left no profile in {}",
            folder.display()
        ));
    }
    let output = Command::new(profdata)
        .arg("merge")
        .arg("-o")
        .arg(merged)
        .args(&files)
        .output()
        .map_err(|e| format!("cannot run {}: {e}", profdata.display()))?;
    if !output.status.success() {
        return Err(format!(
            "{} merge failed:\n{}",
            profdata.display(),
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    Ok(())
}

/// The `llvm-profdata` to merge profiles with: `VARC_LLVM_PROFDATA` where
/// set; else the first of rustup's `llvm-tools`, `llvm-profdata-N`,
/// `/usr/lib/llvm-N/bin/llvm-profdata` (Debian's `llvm-N`) and
/// `llvm-profdata` that reports rustc's LLVM major version `N` (a profile
/// is read only by its own LLVM version).
pub fn find_profdata() -> Result<PathBuf, String> {
    if let Some(path) = std::env::var_os("VARC_LLVM_PROFDATA") {
        return Ok(PathBuf::from(path));
    }
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let version = command_output(Command::new(&rustc).arg("-vV"))
        .ok_or_else(|| String::from("cannot run rustc -vV to learn its LLVM version"))?;
    let major =
        llvm_major(&version).ok_or_else(|| String::from("rustc -vV names no LLVM version"))?;
    let mut candidates = Vec::new();
    if let Some(sysroot) = command_output(Command::new(&rustc).args(["--print", "sysroot"])) {
        let host = version
            .lines()
            .find_map(|line| line.strip_prefix("host: "))
            .unwrap_or_default();
        candidates.push(
            Path::new(sysroot.trim())
                .join("lib/rustlib")
                .join(host)
                .join("bin/llvm-profdata"),
        );
    }
    candidates.push(PathBuf::from(format!("llvm-profdata-{major}")));
    candidates.push(PathBuf::from(format!(
        "/usr/lib/llvm-{major}/bin/llvm-profdata"
    )));
    candidates.push(PathBuf::from("llvm-profdata"));
    candidates
        .into_iter()
        .find(|candidate| {
            command_output(Command::new(candidate).arg("--version"))
                .and_then(|text| llvm_major(&text))
                == Some(major)
        })
        .ok_or_else(|| {
            format!(
                "a profile-guided build needs llvm-profdata of LLVM {major} (rustc's): \
                 install it (Debian: apt-get install llvm-{major}; rustup: rustup component \
                 add llvm-tools) or name it with VARC_LLVM_PROFDATA"
            )
        })
}

fn command_output(command: &mut Command) -> Option<String> {
    let output = command.stderr(Stdio::null()).output().ok()?;
    output
        .status
        .success()
        .then(|| String::from_utf8_lossy(&output.stdout).into_owned())
}

/// The LLVM major version a version text names: rustc's
/// `LLVM version: 22.1.2`, llvm-profdata's `LLVM version 22.1.8`.
fn llvm_major(text: &str) -> Option<u32> {
    let (_, rest) = text.split_once("LLVM version")?;
    let rest = rest.trim_start_matches([':', ' ']);
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn llvm_major_reads_rustc_and_llvm_profdata() {
        assert_eq!(
            llvm_major("rustc 1.95.0\nhost: x86_64\nLLVM version: 22.1.2\n"),
            Some(22)
        );
        assert_eq!(
            llvm_major("Debian LLVM version 19.1.7\n  Optimized build.\n"),
            Some(19)
        );
        assert_eq!(llvm_major("rustc 1.95.0\n"), None);
        assert_eq!(llvm_major("LLVM version: unknown"), None);
    }

    #[test]
    fn self_play_stops_at_a_finished_game_and_quits() {
        let replies = "id name x\nuciok\nbestmove e2e4\nbestmove e7e5\nbestmove 0000\n";
        let mut sent = Vec::new();
        let plies = self_play(&mut sent, replies.as_bytes());
        assert_eq!(plies, Ok(2));
        let sent = String::from_utf8(sent).unwrap_or_default();
        assert!(sent.contains("position startpos moves e2e4 e7e5\ngo nodes"));
        assert!(sent.ends_with("quit\n"));
    }

    #[test]
    fn self_play_reports_an_engine_that_stops() {
        let mut sent = Vec::new();
        let result = self_play(&mut sent, "uciok\nbestmove e2e4\n".as_bytes());
        assert!(result.is_err_and(|e| e.contains("stopped mid-game")));
    }
}
