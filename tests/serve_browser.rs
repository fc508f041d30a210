//! `varc serve` in a real browser: headless Chromium driven over
//! WebDriver (`chromedriver`) loads the page, plays a Piece Promotion Chess
//! game by clicks — a promotion on entering the enemy's territory that
//! captures and checks, a refused move with its reason, a capture, a pawn
//! promotion chosen in the chooser, Chess 99's delayed promotion — then edits the rules text into an error
//! and back, and saves a screenshot (`serve-browser.png` in the test
//! target's temporary folder).
//!
//! Without `chromium` and `chromedriver` on the machine the test says so
//! loudly and skips; with `VARC_REQUIRE_BROWSER=1` (CI) it fails instead.

mod serve_support;

use serde_json::{json, Value};
use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

fn browser_missing(why: &str) -> bool {
    let message = format!(
        "\n*** BROWSER TEST SKIPPED: {why}.\n*** Install Debian's `chromium` and `chromium-driver` (as .ci/run does) to run it.\n"
    );
    if std::env::var_os("VARC_REQUIRE_BROWSER").is_some_and(|v| v == "1") {
        panic!("{message}(VARC_REQUIRE_BROWSER=1: a missing browser is a failure)");
    }
    eprintln!("{message}");
    true
}

fn find_program(names: &[&str]) -> Option<String> {
    names.iter().find_map(|name| {
        Command::new(name)
            .arg("--version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .ok()
            .filter(|s| s.success())
            .map(|_| name.to_string())
    })
}

struct Driver {
    child: Child,
    base: String,
    session: String,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = ureq::delete(&format!("{}/session/{}", self.base, self.session)).call();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn webdriver(request: ureq::Request, body: Option<Value>) -> Value {
    match try_webdriver(request, body) {
        Ok(value) => value,
        Err(error) => panic!("{error}"),
    }
}

fn try_webdriver(request: ureq::Request, body: Option<Value>) -> Result<Value, String> {
    let result = match body {
        Some(body) => request.send_json(body),
        None => request.call(),
    };
    match result {
        Ok(response) => Ok(response.into_json::<Value>().expect("JSON")["value"].clone()),
        Err(ureq::Error::Status(code, response)) => Err(format!(
            "WebDriver error {code}: {}",
            response.into_string().unwrap_or_default()
        )),
        Err(error) => Err(format!("WebDriver unreachable: {error}")),
    }
}

#[test]
fn a_crazyhouse_pawn_is_dropped_from_the_hand_by_clicks_in_headless_chromium() {
    let Some((_server, driver)) = open_page("browser-crazyhouse", &["crazyhouse"]) else {
        return;
    };
    driver.click("#variant option[value=\"crazyhouse\"]");
    driver.wait("the crazyhouse board", || {
        (!driver
            .find_all("#board[data-variant=\"crazyhouse\"]")
            .is_empty())
        .then_some(())
    });
    assert!(
        driver.find_all("#hand-bottom:not([hidden])").len() == 1,
        "the hands are not shown"
    );
    assert!(driver.find_all("[data-hand-piece]").is_empty());
    driver.play("e2", "e4");
    driver.play("d7", "d5");
    driver.play("e4", "d5");
    assert_eq!(driver.play("d8", "d5"), "Qxd5");
    // Each side holds the pawn it took: White's below the board, Black's above.
    driver.wait("the pawns in hand", || {
        let white = driver.find_all("#hand-bottom [data-hand-piece=\"P\"]:not([disabled])");
        let black = driver.find_all("#hand-top [data-hand-piece=\"p\"][disabled]");
        (white.len() == 1 && black.len() == 1).then_some(())
    });
    driver.click("#hand-bottom [data-hand-piece=\"P\"]");
    let targets = driver.wait("the drop targets", || {
        let count = driver
            .script(
                "return document.querySelectorAll('.target').length",
                json!([]),
            )
            .as_u64()?;
        (count > 0).then_some(count)
    });
    assert_eq!(targets, 33, "one per empty square of ranks 2 to 7");
    driver.click("[data-square=\"e6\"]");
    let dropped = driver.wait("the drop", || {
        let moves = driver.moves();
        (moves.len() == 5).then(|| moves[4].clone())
    });
    assert_eq!(dropped, "P@e6");
    assert_eq!(driver.piece_on("e6").as_deref(), Some("P"));
    assert!(driver.find_all("#hand-bottom [data-hand-piece]").is_empty());
    let png = decode_base64(driver.get("/screenshot").as_str().expect("screenshot"));
    let artifact =
        std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("serve-browser-crazyhouse.png");
    std::fs::write(&artifact, &png).expect("write the screenshot");
    eprintln!("screenshot: {}", artifact.display());
}

impl Driver {
    fn start(driver: &str, browser: &str) -> Driver {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("free port")
            .port();
        let child = Command::new(driver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromedriver");
        let base = format!("http://127.0.0.1:{port}");
        let started = Instant::now();
        while ureq::get(&format!("{base}/status")).call().is_err() {
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "chromedriver did not start"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        let binary = Command::new("which")
            .arg(browser)
            .output()
            .ok()
            .and_then(|o| String::from_utf8(o.stdout).ok())
            .map(|s| s.trim().to_string())
            .unwrap_or_else(|| browser.to_string());
        let capabilities = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": binary,
                "args": ["--headless=new", "--no-sandbox", "--disable-gpu",
                         "--disable-dev-shm-usage", "--window-size=1400,950"],
            },
        }}});
        let mut driver = Driver {
            child,
            base,
            session: String::new(),
        };
        let session = webdriver(
            ureq::post(&format!("{}/session", driver.base)),
            Some(capabilities),
        );
        driver.session = session["sessionId"]
            .as_str()
            .expect("session id")
            .to_string();
        driver
    }

    fn url(&self, path: &str) -> String {
        format!("{}/session/{}{path}", self.base, self.session)
    }

    fn post(&self, path: &str, body: Value) -> Value {
        webdriver(ureq::post(&self.url(path)), Some(body))
    }

    fn get(&self, path: &str) -> Value {
        webdriver(ureq::get(&self.url(path)), None)
    }

    fn navigate(&self, url: &str) {
        self.post("/url", json!({"url": url}));
    }

    fn find_all(&self, css: &str) -> Vec<String> {
        self.post("/elements", json!({"using": "css selector", "value": css}))
            .as_array()
            .map(|list| {
                list.iter()
                    .filter_map(|e| e[ELEMENT].as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default()
    }

    fn find(&self, css: &str) -> String {
        self.wait(&format!("an element {css}"), || {
            self.find_all(css).into_iter().next()
        })
    }

    /// Clicks the element; the board is redrawn as the pointer moves over
    /// it, so an element found may be replaced before the click: find it again.
    fn click(&self, css: &str) {
        let mut last = String::new();
        for _ in 0..5 {
            let element = self.find(css);
            match try_webdriver(
                ureq::post(&self.url(&format!("/element/{element}/click"))),
                Some(json!({})),
            ) {
                Ok(_) => return,
                Err(error) if error.contains("stale element") => last = error,
                Err(error) => panic!("clicking {css}: {error}"),
            }
        }
        panic!("clicking {css}: {last}");
    }

    fn text(&self, css: &str) -> String {
        let element = self.find(css);
        self.get(&format!("/element/{element}/text"))
            .as_str()
            .unwrap_or("")
            .to_string()
    }

    fn script(&self, script: &str, args: Value) -> Value {
        self.post("/execute/sync", json!({"script": script, "args": args}))
    }

    fn wait<T>(&self, what: &str, mut probe: impl FnMut() -> Option<T>) -> T {
        let started = Instant::now();
        loop {
            if let Some(found) = probe() {
                return found;
            }
            if started.elapsed() > Duration::from_secs(15) {
                let status = self
                    .find_all("#status")
                    .first()
                    .map(|e| self.get(&format!("/element/{e}/text")))
                    .unwrap_or(Value::Null);
                panic!("timed out waiting for {what}; #status: {status}");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// The texts of the items of the list `list_id` (`moves`, `diagnostics`).
    fn list_texts(&self, list_id: &str) -> Vec<String> {
        self.script(
            "return [...document.querySelectorAll('#' + arguments[0] + ' li')].map(li => li.textContent)",
            json!([list_id]),
        )
        .as_array()
        .map(|l| {
            l.iter()
                .filter_map(|v| v.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
    }

    fn moves(&self) -> Vec<String> {
        self.list_texts("moves")
    }

    /// Clicks `from` then `to` and waits for the move list to grow.
    fn play(&self, from: &str, to: &str) -> String {
        let count = self.moves().len();
        self.click(&format!("[data-square=\"{from}\"]"));
        self.click(&format!("[data-square=\"{to}\"]"));
        self.wait(&format!("the move {from}-{to}"), || {
            let moves = self.moves();
            (moves.len() > count).then(|| moves.last().cloned().unwrap_or_default())
        })
    }

    /// The centre of a square in viewport pixels: the board is redrawn as
    /// the pointer moves, so element origins would go stale.
    fn center(&self, square: &str) -> (i64, i64) {
        let point = self.script(
            "const r = document.querySelector(`[data-square=\"${arguments[0]}\"]`).getBoundingClientRect(); return [Math.round(r.x + r.width / 2), Math.round(r.y + r.height / 2)]",
            json!([square]),
        );
        (
            point[0].as_i64().unwrap_or(0),
            point[1].as_i64().unwrap_or(0),
        )
    }

    /// Moves the mouse over `square`.
    fn hover(&self, square: &str) {
        let (x, y) = self.center(square);
        self.post(
            "/actions",
            json!({"actions": [{
                "type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"},
                "actions": [{"type": "pointerMove", "origin": "viewport", "x": x, "y": y, "duration": 50}],
            }]}),
        );
    }

    /// Drags the piece on `from` to `to` with the mouse and waits for the
    /// move list to grow.
    fn drag(&self, from: &str, to: &str) -> String {
        let count = self.moves().len();
        let ((x0, y0), (x1, y1)) = (self.center(from), self.center(to));
        self.post(
            "/actions",
            json!({"actions": [{
                "type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"},
                "actions": [
                    {"type": "pointerMove", "origin": "viewport", "x": x0, "y": y0},
                    {"type": "pointerDown", "button": 0},
                    {"type": "pointerMove", "origin": "viewport", "x": x0 + 12, "y": y0 + 12, "duration": 50},
                    {"type": "pointerMove", "origin": "viewport", "x": x1, "y": y1, "duration": 150},
                    {"type": "pointerUp", "button": 0},
                ],
            }]}),
        );
        self.wait(&format!("the move {from}-{to} by drag"), || {
            let moves = self.moves();
            (moves.len() > count).then(|| moves.last().cloned().unwrap_or_default())
        })
    }

    fn piece_on(&self, square: &str) -> Option<String> {
        self.script(
            "const p = document.querySelector(`[data-on=\"${arguments[0]}\"]`); return p ? p.dataset.piece : null",
            json!([square]),
        )
        .as_str()
        .map(str::to_string)
    }

    fn set_editor(&self, text: &str) {
        self.script(
            "const e = document.getElementById('rules-editor'); e.value = arguments[0]; e.dispatchEvent(new Event('input'));",
            json!([text]),
        );
    }

    fn diagnostics(&self) -> Vec<String> {
        self.list_texts("diagnostics")
    }
}

fn decode_base64(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    };
    let digits: Vec<u8> = text.bytes().filter_map(value).collect();
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    for chunk in digits.chunks(4) {
        let mut buffer = 0u32;
        for (i, d) in chunk.iter().enumerate() {
            buffer |= u32::from(*d) << (18 - 6 * i);
        }
        let bytes = buffer.to_be_bytes();
        out.extend_from_slice(&bytes[1..chunk.len()]);
    }
    out
}

/// A server over the bundled variants and the gallery files `gallery`,
/// and headless Chromium showing its page with the first game drawn; `None`
/// (and a loud message) without a browser.
fn open_page(name: &str, gallery: &[&str]) -> Option<(serve_support::Server, Driver)> {
    let Some(browser) = find_program(&["chromium", "chromium-browser", "google-chrome"]) else {
        browser_missing("no chromium browser found");
        return None;
    };
    let Some(driver_program) = find_program(&["chromedriver", "chromium-driver"]) else {
        browser_missing("no chromedriver found");
        return None;
    };
    let server = serve_support::start_with(name, gallery);
    let driver = Driver::start(&driver_program, &browser);
    driver.navigate(&format!("{}/", server.base));
    driver.wait("the first variant's game", || {
        (!driver.find_all("#board[data-game]").is_empty()).then_some(())
    });
    Some((server, driver))
}

#[test]
fn a_ppc_game_is_played_and_the_rules_edited_in_headless_chromium() {
    let Some((_server, driver)) = open_page("browser", &[]) else {
        return;
    };
    driver.click("#variant option[value=\"ppc\"]");
    driver.wait("the PPC rules in the editor", || {
        let source: String = driver
            .script(
                "return document.getElementById('rules-editor').value",
                json!([]),
            )
            .as_str()
            .unwrap_or("")
            .to_string();
        let playing = !driver.find_all("#board[data-variant=\"ppc\"]").is_empty();
        (source.contains("variant ppc") && playing).then_some(source)
    });
    let source: String = driver
        .script(
            "return document.getElementById('rules-editor').value",
            json!([]),
        )
        .as_str()
        .unwrap_or("")
        .to_string();
    assert_eq!(driver.piece_on("b1").as_deref(), Some("N"));

    // Hovering the knight shows where it can go.
    driver.hover("g1");
    driver.wait("the knight's moves on hover", || {
        let targets = driver.script(
            "return document.querySelectorAll('.target').length",
            json!([]),
        );
        (targets.as_u64() == Some(2)).then_some(())
    });

    // P2: the knight that enters the enemy's territory (capturing) promotes.
    driver.play("b1", "c3");
    driver.play("a7", "a6");
    assert_eq!(driver.drag("c3", "d5"), "Nd5");
    driver.play("a6", "a5");
    assert_eq!(driver.play("d5", "c7"), "Nxc7=N'+");
    assert_eq!(driver.piece_on("c7").as_deref(), Some("N'"));

    // In check: a pawn move is refused, with the game layer's reason.
    driver.click("[data-square=\"b7\"]");
    driver.click("[data-square=\"b6\"]");
    let refusal = driver.wait("the refusal", || {
        let status = driver.text("#status");
        status.starts_with("Refused").then_some(status)
    });
    assert!(refusal.contains("leaves your king in check"), "{refusal}");
    assert_eq!(driver.moves().len(), 5);

    // The enemy territory shown as an overlay, for the screenshot.
    driver.click("#regions option[value=\"enemy-territory:white\"]");

    // The rules edited into an error: the diagnostic at its line, and back.
    let broken = source.replace(
        "piece rooking \"R'\" value 7 moves rook + king-step",
        "piece rooking \"R'\" value 7 moves rook + kingstep",
    );
    assert_ne!(broken, source, "the PPC rules changed: update the edit");
    driver.set_editor(&broken);
    let shown = driver.wait("a diagnostic", || driver.diagnostics().into_iter().next());
    assert!(shown.contains("kingstep"), "{shown}");
    let line = broken
        .lines()
        .position(|l| l.contains("kingstep"))
        .map(|i| i + 1)
        .expect("the edited line");
    assert!(shown.starts_with(&format!("{line}:")), "{shown}");
    let marked: bool = driver
        .script(
            "return document.querySelectorAll('#rules-backdrop mark').length > 0",
            json!([]),
        )
        .as_bool()
        .unwrap_or(false);
    assert!(marked, "the span is not marked in the editor");
    let png = decode_base64(driver.get("/screenshot").as_str().expect("screenshot"));
    assert!(png.starts_with(b"\x89PNG"), "not a PNG");
    let artifact = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("serve-browser.png");
    std::fs::write(&artifact, &png).expect("write the screenshot");
    eprintln!("screenshot: {}", artifact.display());
    driver.set_editor(&source);
    driver.wait("no diagnostics", || {
        driver.diagnostics().is_empty().then_some(())
    });

    // A capture.
    assert_eq!(driver.play("d8", "c7"), "Qxc7");
    assert_eq!(driver.piece_on("c7").as_deref(), Some("q"));

    // A pawn promotion chosen in the chooser (P4: queen or kniking).
    driver.script(
        "document.getElementById('fen').value = arguments[0]",
        json!(["r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1"]),
    );
    driver.click("#set-fen");
    driver.wait("the position set", || {
        (driver.piece_on("b7").as_deref() == Some("P")).then_some(())
    });
    driver.click("[data-square=\"b7\"]");
    driver.click("[data-square=\"a8\"]");
    driver.click("#chooser-options button[data-move=\"b7a8n'\"]");
    let promoted = driver.wait("the promotion", || driver.moves().last().cloned());
    assert!(promoted.starts_with("bxa8=N'"), "{promoted}");
    assert_eq!(driver.piece_on("a8").as_deref(), Some("N'"));

    // Chess 99's delayed promotion (D2): the pawn on the last rank becomes
    // a knight on a later turn, staying or with its follow-up move.
    driver.click("#variant option[value=\"chess99-mini\"]");
    driver.wait("the Chess 99 board", || {
        (!driver
            .find_all("#board[data-variant=\"chess99-mini\"]")
            .is_empty())
        .then_some(())
    });
    driver.play("a2", "a4");
    driver.play("b4", "b3");
    driver.click("[data-square=\"a4\"]");
    driver.click("[data-square=\"a4\"]");
    let choices = driver.wait("the chooser", || {
        let list = driver.find_all("#chooser-options button");
        (list.len() == 2).then_some(list.len())
    });
    assert_eq!(choices, 2);
    driver.click("#chooser-options button[data-move=\"a4=n\"]");
    let delayed = driver.wait("the delayed promotion", || {
        let moves = driver.moves();
        (moves.len() == 3).then(|| moves[2].clone())
    });
    assert_eq!(delayed, "a4=N");
    assert_eq!(driver.piece_on("a4").as_deref(), Some("N"));
}
