//! `varc serve [FILE | DIR] [--port N] [--host H] [--open]`: the web
//! playground ([`varc::serve`]) on 127.0.0.1 unless `--host` says otherwise.

use std::net::IpAddr;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Arguments of `varc serve`.
#[derive(clap::Args)]
pub struct ServeArgs {
    /// A rules file (shown first, with its folder's variants) or a folder
    /// of rules files; the bundled variants by default.
    pub path: Option<PathBuf>,
    /// The port to listen on (0: any free port).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// The address to listen on; anything but a loopback address lets
    /// other machines play and save files.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: IpAddr,
    /// Open the page in the default browser.
    #[arg(long)]
    pub open: bool,
}

/// The folder of the bundled variants: `variants/` here, or the one of
/// the source tree varc was built from.
fn bundled_variants() -> PathBuf {
    let here = Path::new("variants");
    if here.is_dir() {
        return here.to_path_buf();
    }
    Path::new(env!("CARGO_MANIFEST_DIR")).join("variants")
}

/// Serves until interrupted.
pub fn run(args: ServeArgs) -> ExitCode {
    let path = args.path.clone().unwrap_or_else(bundled_variants);
    let (folder, initial) = if path.is_dir() {
        (path, None)
    } else {
        let stem = path
            .file_stem()
            .and_then(|s| s.to_str())
            .map(str::to_string);
        let is_rules = path.extension().is_some_and(|e| e == "rules");
        if !path.is_file() || !is_rules {
            eprintln!(
                "error: {} is neither a folder nor a .rules file",
                path.display()
            );
            return ExitCode::FAILURE;
        }
        let folder = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        (folder, stem)
    };
    let config = varc::serve::Config {
        folder,
        initial,
        loopback_only: args.host.is_loopback(),
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("error: cannot start the server: {error}");
            return ExitCode::FAILURE;
        }
    };
    let outcome: std::io::Result<()> = runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind((args.host, args.port)).await?;
        let address = listener.local_addr()?;
        let url = format!("http://{address}/");
        println!("varc serve: {url} (Ctrl-C stops)");
        if !args.host.is_loopback() {
            eprintln!(
                "warning: listening on {}: other machines can reach this server",
                args.host
            );
        }
        if args.open {
            open_browser(&url);
        }
        varc::serve::serve(listener, config).await
    });
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}

/// Best effort: the platform's opener; the address is printed anyway.
fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(target_os = "windows") {
        "explorer"
    } else {
        "xdg-open"
    };
    if let Err(error) = std::process::Command::new(opener).arg(url).spawn() {
        eprintln!("note: could not open a browser ({opener}: {error}); open {url}");
    }
}
