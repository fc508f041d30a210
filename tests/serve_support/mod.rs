//! Helpers of the `varc serve` tests: a server on a free port of
//! 127.0.0.1, in a thread of the test, over a copy of the bundled variants
//! (so that saving never touches the repository), and JSON calls.

#![allow(dead_code)]

use serde_json::Value;
use std::path::{Path, PathBuf};

/// A running server.
pub struct Server {
    /// `http://127.0.0.1:PORT`.
    pub base: String,
    /// The folder it serves.
    pub folder: PathBuf,
}

/// A fresh copy of the files of `variants/` (not its subfolders, such as
/// the gallery) named after the test.
pub fn copy_variants(name: &str) -> PathBuf {
    let folder =
        Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("serve-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&folder);
    std::fs::create_dir_all(&folder).expect("temporary folder");
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("variants");
    for entry in std::fs::read_dir(&source).expect("variants folder") {
        let entry = entry.expect("entry");
        if entry.path().is_file() {
            std::fs::copy(entry.path(), folder.join(entry.file_name())).expect("copy");
        }
    }
    folder
}

/// Starts a server over a copy of the bundled variants.
pub fn start(name: &str) -> Server {
    start_with(name, &[])
}

/// Starts a server over a copy of the bundled variants and of the gallery
/// files `gallery` (by name, without `.rules`).
pub fn start_with(name: &str, gallery: &[&str]) -> Server {
    let folder = copy_variants(name);
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("variants/gallery");
    for file in gallery {
        let file = format!("{file}.rules");
        std::fs::copy(source.join(&file), folder.join(&file)).expect("copy a gallery file");
    }
    let (sender, receiver) = std::sync::mpsc::channel();
    let config = varc::serve::Config {
        folder: folder.clone(),
        initial: None,
        loopback_only: true,
    };
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("tokio runtime");
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
                .await
                .expect("bind");
            sender
                .send(listener.local_addr().expect("address"))
                .expect("send address");
            varc::serve::serve(listener, config).await.expect("serve");
        });
    });
    let address = receiver.recv().expect("server address");
    Server {
        base: format!("http://{address}"),
        folder,
    }
}

impl Server {
    /// `GET path`: the status and the JSON body.
    pub fn get(&self, path: &str) -> (u16, Value) {
        answer(ureq::get(&format!("{}{path}", self.base)).call())
    }

    /// `POST path` with a JSON body.
    pub fn post(&self, path: &str, body: Value) -> (u16, Value) {
        answer(ureq::post(&format!("{}{path}", self.base)).send_json(body))
    }

    /// `POST path` with a raw body.
    pub fn post_raw(&self, path: &str, body: &str) -> (u16, Value) {
        answer(
            ureq::post(&format!("{}{path}", self.base))
                .set("Content-Type", "application/json")
                .send_string(body),
        )
    }

    /// `GET path` as text (the page and its assets).
    pub fn get_text(&self, path: &str) -> (u16, String) {
        match ureq::get(&format!("{}{path}", self.base)).call() {
            Ok(response) => (response.status(), response.into_string().expect("text")),
            Err(ureq::Error::Status(code, response)) => {
                (code, response.into_string().unwrap_or_default())
            }
            Err(error) => panic!("request failed: {error}"),
        }
    }

    /// A new game of `variant`: its id and state.
    pub fn new_game(&self, variant: &str) -> (String, Value) {
        let (status, state) = self.post("/api/games", serde_json::json!({"variant": variant}));
        assert_eq!(status, 200, "{state}");
        let id = state["game_id"].as_str().expect("game id").to_string();
        (id, state)
    }
}

fn answer(result: Result<ureq::Response, ureq::Error>) -> (u16, Value) {
    match result {
        Ok(response) => {
            let status = response.status();
            (status, response.into_json().expect("a JSON answer"))
        }
        Err(ureq::Error::Status(code, response)) => {
            let text = response.into_string().unwrap_or_default();
            let value = serde_json::from_str(&text)
                .unwrap_or_else(|_| panic!("error {code} is not JSON: {text}"));
            (code, value)
        }
        Err(error) => panic!("request failed: {error}"),
    }
}
