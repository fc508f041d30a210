//! `varc lsp` spoken to over JSON-RPC as an editor would: initialize, a
//! document with an error and its fix, hover, definition across `extends`,
//! references, completion, symbols, formatting, garbage, shutdown and exit.

mod common;

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

/// How long any answer may take.
const TIMEOUT: Duration = Duration::from_secs(20);

struct Session {
    child: Child,
    stdin: ChildStdin,
    messages: Receiver<Value>,
    next_id: i64,
}

impl Session {
    fn start() -> Session {
        let mut child = Command::new(env!("CARGO_BIN_EXE_varc"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("varc lsp starts");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (sender, messages) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            while let Some(message) = read_frame(&mut reader) {
                if sender.send(message).is_err() {
                    break;
                }
            }
        });
        Session {
            child,
            stdin,
            messages,
            next_id: 1,
        }
    }

    fn send_raw(&mut self, bytes: &[u8]) {
        self.stdin.write_all(bytes).expect("write to the server");
        self.stdin.flush().expect("flush");
    }

    fn send(&mut self, message: &Value) {
        let text = message.to_string();
        self.send_raw(format!("Content-Length: {}\r\n\r\n{text}", text.len()).as_bytes());
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// Sends a request and returns its response (notifications before it are skipped).
    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        self.wait_for(|m| m["id"] == id)
    }

    fn wait_for(&mut self, wanted: impl Fn(&Value) -> bool) -> Value {
        loop {
            let message = self
                .messages
                .recv_timeout(TIMEOUT)
                .expect("the server answers in time");
            if wanted(&message) {
                return message;
            }
        }
    }

    /// The next diagnostics published for `uri`.
    fn diagnostics(&mut self, uri: &str) -> Vec<Value> {
        let message = self.wait_for(|m| {
            m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri
        });
        message["params"]["diagnostics"]
            .as_array()
            .cloned()
            .unwrap_or_default()
    }
}

fn read_frame(reader: &mut impl BufRead) -> Option<Value> {
    let mut length = None;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(value) = line.strip_prefix("Content-Length: ") {
            length = value.parse::<usize>().ok();
        }
    }
    let mut body = vec![0; length?];
    reader.read_exact(&mut body).ok()?;
    serde_json::from_slice(&body).ok()
}

fn file_uri(path: &std::path::Path) -> String {
    format!("file://{}", path.display())
}

/// The position of the `nth` occurrence (0-based) of `needle` in `text`, plus `shift` characters.
fn position_of(text: &str, needle: &str, nth: usize, shift: usize) -> Value {
    let offset = text
        .match_indices(needle)
        .nth(nth)
        .map(|(i, _)| i + shift)
        .unwrap_or_else(|| panic!("{needle:?} not in the text"));
    let line = text[..offset].matches('\n').count();
    let column = offset - text[..offset].rfind('\n').map_or(0, |i| i + 1);
    json!({"line": line, "character": column})
}

#[test]
fn an_editor_session_from_initialize_to_exit() {
    let ppc_path = common::variants_dir().join("ppc.rules");
    let chess_path = common::variants_dir().join("chess.rules");
    let ppc = std::fs::read_to_string(&ppc_path).expect("ppc.rules");
    let chess = std::fs::read_to_string(&chess_path).expect("chess.rules");
    let uri = file_uri(&ppc_path);
    let mut session = Session::start();

    // Initialize: the server says what it can do.
    let init = session.request(
        "initialize",
        json!({"processId": null, "rootUri": null, "capabilities": {}}),
    );
    let capabilities = &init["result"]["capabilities"];
    for capability in [
        "hoverProvider",
        "definitionProvider",
        "referencesProvider",
        "completionProvider",
        "documentSymbolProvider",
        "documentFormattingProvider",
    ] {
        assert!(!capabilities[capability].is_null(), "{capability}: {init}");
    }
    session.notify("initialized", json!({}));

    // Open PPC with a misspelt piece: one diagnostic, on that word.
    let broken = ppc.replacen("to kniking in", "to knikin in", 1);
    assert_ne!(broken, ppc);
    session.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": "varc", "version": 1, "text": broken}}),
    );
    let diagnostics = session.diagnostics(&uri);
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    let expected = position_of(&broken, "knikin in", 0, 0);
    assert_eq!(
        diagnostics[0]["range"]["start"], expected,
        "{diagnostics:?}"
    );
    assert_eq!(
        diagnostics[0]["range"]["end"]["character"],
        expected["character"].as_u64().unwrap_or(0) + 6
    );
    assert!(
        diagnostics[0]["message"]
            .as_str()
            .is_some_and(|m| m.contains("knikin")),
        "{diagnostics:?}"
    );
    assert_eq!(diagnostics[0]["severity"], 1);
    assert_eq!(diagnostics[0]["code"], "E0101", "{diagnostics:?}");

    // Fix it: the diagnostics are cleared.
    session.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": ppc}]}),
    );
    assert_eq!(session.diagnostics(&uri), Vec::<Value>::new());

    let at = |needle: &str, nth: usize, shift: usize| json!({"textDocument": {"uri": uri}, "position": position_of(&ppc, needle, nth, shift)});

    // Hover on a piece: movement in words and Betza, value, promotions.
    let hover = session.request("textDocument/hover", at("piece rooking", 0, 7));
    let text = hover["result"]["contents"]["value"]
        .as_str()
        .unwrap_or("")
        .to_string();
    for part in [
        "rooking",
        "Betza",
        "value 7",
        "rides",
        "promoted from `rook`",
        "enemy-territory",
    ] {
        assert!(text.contains(part), "{part:?} not in {text}");
    }
    // Hover on a region: its squares drawn, per side.
    let hover = session.request("textDocument/hover", at("in enemy-territory", 0, 4));
    let text = hover["result"]["contents"]["value"]
        .as_str()
        .unwrap_or("")
        .to_string();
    assert!(text.contains(" 8 x x x x x x x x"), "{text}");
    assert!(text.contains(" 1 . . . . . . . ."), "{text}");
    assert!(text.contains("Black"), "{text}");

    // Definition across `extends`: `rook` is defined in chess.rules.
    let definition = session.request("textDocument/definition", at("promote rook", 0, 8));
    let locations = definition["result"].as_array().cloned().unwrap_or_default();
    assert_eq!(locations.len(), 1, "{definition}");
    assert_eq!(locations[0]["uri"], file_uri(&chess_path));
    assert_eq!(
        locations[0]["range"]["start"],
        position_of(&chess, "piece rook ", 0, 6)
    );
    // A replaced rule: the child's label and the parent's.
    let definition = session.request("textDocument/definition", at("replace stalemate", 0, 8));
    let uris: Vec<&str> = definition["result"]
        .as_array()
        .map(|all| all.iter().filter_map(|l| l["uri"].as_str()).collect())
        .unwrap_or_default();
    assert_eq!(uris, [uri.as_str(), file_uri(&chess_path).as_str()]);
    // `extends chess` leads to the chess file.
    let definition = session.request("textDocument/definition", at("extends chess", 0, 8));
    assert_eq!(definition["result"][0]["uri"], file_uri(&chess_path));

    // References of `rooking`: its definition and its uses in the file.
    let references = session.request(
        "textDocument/references",
        json!({"textDocument": {"uri": uri}, "position": position_of(&ppc, "piece rooking", 0, 7),
               "context": {"includeDeclaration": true}}),
    );
    assert_eq!(
        references["result"].as_array().map(Vec::len),
        Some(2),
        "{references}"
    );

    // Completion: keywords, the file's names and the inherited ones.
    let completion = session.request("textDocument/completion", at("piece rooking", 0, 0));
    let labels: Vec<&str> = completion["result"]
        .as_array()
        .map(|all| all.iter().filter_map(|i| i["label"].as_str()).collect())
        .unwrap_or_default();
    for label in [
        "rooking",
        "queen",
        "last-rank",
        "promote",
        "en-passant",
        "irc",
    ] {
        assert!(labels.contains(&label), "{label} not in {labels:?}");
    }

    // Document symbols: the pieces, regions and labels of the file.
    let symbols = session.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": uri}}),
    );
    let names: Vec<&str> = symbols["result"]
        .as_array()
        .map(|all| all.iter().filter_map(|s| s["name"].as_str()).collect())
        .unwrap_or_default();
    for name in ["ppc", "territory", "rooking", "rook-promotion", "irc"] {
        assert!(names.contains(&name), "{name} not in {names:?}");
    }

    // Formatting a messy document: one edit giving the canonical text.
    let messy_uri = file_uri(&std::env::temp_dir().join("varc-lsp-messy.rules"));
    let messy = "variant   messy\nboard 8 x 8   # size\n\n\n\nregion r = ranks 1 .. 2\n";
    session.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": messy_uri, "languageId": "varc", "version": 1, "text": messy}}),
    );
    let formatting = session.request(
        "textDocument/formatting",
        json!({"textDocument": {"uri": messy_uri}, "options": {"tabSize": 4, "insertSpaces": true}}),
    );
    assert_eq!(
        formatting["result"][0]["newText"],
        "variant messy\nboard 8 x 8  # size\n\nregion r = ranks 1..2\n",
        "{formatting}"
    );

    // Garbage: each is answered or ignored, and the server keeps serving.
    session.send_raw(b"Content-Length: 12\r\n\r\n{not json!!}");
    let error = session.wait_for(|m| m["error"]["code"] == -32700);
    assert!(error["id"].is_null(), "{error}");
    session.send_raw(b"X-Header: nothing\r\n\r\n");
    session.wait_for(|m| m["error"]["code"] == -32700);
    session.send_raw(b"Content-Length: 2\r\n\r\n[]");
    session.wait_for(|m| m["error"]["code"] == -32700);
    let unknown = session.request("varc/nothing", json!({}));
    assert_eq!(unknown["error"]["code"], -32601);
    let bad_params = session.request("textDocument/hover", json!({"textDocument": 7}));
    assert_eq!(bad_params["error"]["code"], -32602);
    let unopened = session.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": "file:///nowhere.rules"}, "position": {"line": 99, "character": 99}}),
    );
    assert!(unopened["result"].is_null(), "{unopened}");
    let still = session.request("textDocument/hover", at("piece rooking", 0, 7));
    assert!(still["result"]["contents"]["value"].is_string(), "{still}");

    // Shutdown, then exit: the process ends cleanly.
    let shutdown = session.request("shutdown", Value::Null);
    assert!(
        shutdown["result"].is_null() && shutdown["error"].is_null(),
        "{shutdown}"
    );
    session.notify("exit", Value::Null);
    let status = wait_with_timeout(&mut session.child);
    assert!(status.success(), "{status}");
}

#[test]
fn a_request_before_initialize_is_refused_and_eof_ends_the_server() {
    let mut session = Session::start();
    let early = session.request("textDocument/hover", json!({}));
    assert_eq!(early["error"]["code"], -32002);
    // Random bytes, then the end of the input: the server ends without a crash.
    let bytes: Vec<u8> = (0..2000u32)
        .map(|i| (i.wrapping_mul(2654435761) >> 13) as u8)
        .collect();
    session.send_raw(&bytes);
    let Session {
        mut child, stdin, ..
    } = session;
    drop(stdin);
    let status = wait_with_timeout(&mut child);
    assert!(status.code().is_some(), "killed by a signal: {status}");
}

fn wait_with_timeout(child: &mut Child) -> std::process::ExitStatus {
    let start = std::time::Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("wait") {
            return status;
        }
        assert!(start.elapsed() < TIMEOUT, "the server did not exit");
        std::thread::sleep(Duration::from_millis(20));
    }
}
