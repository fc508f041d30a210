//! `varc serve`: every endpoint of the JSON API, with the bad requests
//! (oversized, malformed, unknown variant or game, illegal move) answered
//! by a clear JSON error that changes nothing.

mod serve_support;

use serde_json::{json, Value};
use serve_support::{start, start_with, Server};

fn play(server: &Server, game: &str, text: &str) -> Value {
    let (status, state) = server.post(&format!("/api/games/{game}/move"), json!({"move": text}));
    assert_eq!(status, 200, "{text}: {state}");
    state
}

fn moves(state: &Value) -> Vec<String> {
    state["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| m.as_str().unwrap_or("").to_string())
        .collect()
}

#[test]
fn the_page_and_its_assets_carry_the_test_hooks() {
    let server = start("page");
    let (status, html) = server.get_text("/");
    assert_eq!(status, 200);
    for hook in [
        "id=\"moves\"",
        "id=\"status\"",
        "id=\"rules-editor\"",
        "id=\"diagnostics\"",
        "id=\"variant\"",
    ] {
        assert!(html.contains(hook), "{hook} missing");
    }
    for asset in ["/app.js", "/board.js", "/pieces.js", "/style.css"] {
        let (status, text) = server.get_text(asset);
        assert_eq!(status, 200, "{asset}");
        assert!(!text.is_empty());
    }
    let (status, error) = server.get("/api/nothing-here");
    assert_eq!(status, 404);
    assert!(error["error"]
        .as_str()
        .is_some_and(|e| e.contains("no such")));
}

#[test]
fn variants_are_listed_and_shown_and_unknown_ones_refused() {
    let server = start("variants");
    let (status, list) = server.get("/api/variants");
    assert_eq!(status, 200);
    let ids: Vec<&str> = list["variants"]
        .as_array()
        .expect("variants")
        .iter()
        .filter_map(|v| v["id"].as_str())
        .collect();
    for id in ["chess", "ppc", "chess99", "capablanca", "alternate-scoring"] {
        assert!(ids.contains(&id), "{id} not listed: {ids:?}");
    }
    let (status, ppc) = server.get("/api/variants/ppc");
    assert_eq!(status, 200);
    assert!(ppc["source"]
        .as_str()
        .is_some_and(|s| s.contains("variant ppc")));
    assert_eq!(ppc["variant"]["squares"].as_array().map(Vec::len), Some(64));
    let regions: Vec<&str> = ppc["variant"]["regions"]
        .as_array()
        .expect("regions")
        .iter()
        .filter_map(|r| r["name"].as_str())
        .collect();
    assert!(regions.contains(&"enemy-territory"), "{regions:?}");
    let (status, capablanca) = server.get("/api/variants/capablanca");
    assert_eq!(status, 200);
    assert_eq!(capablanca["variant"]["files"], 10);
    for bad in [
        "nope",
        "..%2Fvariants%2Fppc",
        "ppc.rules",
        "%2Fetc%2Fpasswd",
    ] {
        let (status, error) = server.get(&format!("/api/variants/{bad}"));
        assert_eq!(status, 404, "{bad}: {error}");
        assert!(error["error"]
            .as_str()
            .is_some_and(|e| e.contains("unknown variant")));
    }
    let (status, error) = server.post("/api/games", json!({"variant": "../ppc"}));
    assert_eq!(status, 404, "{error}");
}

#[test]
fn ppc_game_promotes_captures_and_refuses_a_move_that_leaves_the_king_in_check() {
    let server = start("ppc-game");
    let (game, state) = server.new_game("ppc");
    assert_eq!(state["legal"].as_array().map(Vec::len), Some(20));
    for text in ["Nc3", "a6", "Nd5", "a5"] {
        play(&server, &game, text);
    }
    let state = play(&server, &game, "d5c7");
    assert_eq!(moves(&state).last().map(String::as_str), Some("Nxc7=N'+"));
    assert!(state["board"]
        .as_array()
        .expect("board")
        .iter()
        .any(|p| p["square"] == "c7" && p["letter"] == "N'"));
    let before = state["fen"].clone();
    // In check: b7-b6 is a move the pawn could make, refused with the reason.
    let (status, error) = server.post(&format!("/api/games/{game}/move"), json!({"move": "b7b6"}));
    assert_eq!(status, 422, "{error}");
    assert!(
        error["reason"]
            .as_str()
            .is_some_and(|r| r.contains("leaves your king in check")),
        "{error}"
    );
    for garbage in ["z9z9", "Qh5", "e7e4"] {
        let (status, error) =
            server.post(&format!("/api/games/{game}/move"), json!({"move": garbage}));
        assert_eq!(status, 422, "{garbage}: {error}");
        assert!(error["reason"].is_string());
    }
    let (_, now) = server.get(&format!("/api/games/{game}"));
    assert_eq!(now["fen"], before, "a refused move changed the game");
    let state = play(&server, &game, "Qxc7");
    assert_eq!(moves(&state).len(), 6);
}

#[test]
fn bad_requests_get_clear_errors_and_change_nothing() {
    let server = start("bad");
    let (game, state) = server.new_game("chess");
    let path = format!("/api/games/{game}/move");
    let cases: Vec<(&str, String, u16)> = vec![
        ("malformed", "{\"move\": ".to_string(), 400),
        ("not an object", "[1,2]".to_string(), 400),
        (
            "unknown field",
            "{\"move\": \"e4\", \"x\": 1}".to_string(),
            400,
        ),
        ("wrong type", "{\"move\": 5}".to_string(), 400),
        ("empty move", "{\"move\": \"\"}".to_string(), 400),
        (
            "oversized",
            format!("{{\"move\": \"{}\"}}", "e".repeat(600 * 1024)),
            413,
        ),
    ];
    for (name, body, expected) in cases {
        let (status, error) = server.post_raw(&path, &body);
        assert_eq!(status, expected, "{name}: {error}");
        assert!(error["error"].is_string(), "{name}: {error}");
    }
    let (status, error) = server.post("/api/games/0000/move", json!({"move": "e4"}));
    assert_eq!(status, 404, "{error}");
    let (status, _) = server.get("/api/games/0000/record");
    assert_eq!(status, 404);
    let (_, now) = server.get(&format!("/api/games/{game}"));
    assert_eq!(now["fen"], state["fen"]);
    assert_eq!(moves(&now).len(), 0);
    let (status, error) = server.post(
        &format!("/api/games/{game}/action"),
        json!({"action": "dance"}),
    );
    assert_eq!(status, 400, "{error}");
    let (status, error) = server.post("/api/games", json!({"variant": "chess", "clock": "soon"}));
    assert_eq!(status, 400, "{error}");
}

#[test]
fn claims_offers_takebacks_and_resignation_follow_the_game_layer() {
    let server = start("actions");
    let (game, _) = server.new_game("ppc");
    let action = |name: &str| {
        server.post(
            &format!("/api/games/{game}/action"),
            json!({"action": name}),
        )
    };
    let (status, error) = action("takeback");
    assert_eq!(status, 422);
    assert_eq!(error["reason"], "nothing to take back");
    let (status, error) = action("claim");
    assert_eq!(status, 422);
    assert!(
        error["reason"]
            .as_str()
            .is_some_and(|r| r.starts_with("nothing to claim")),
        "{error}"
    );
    // PPC: agreement only with little material left (P10).
    let (status, error) = action("offer");
    assert_eq!(status, 422, "{error}");
    assert!(
        error["reason"]
            .as_str()
            .is_some_and(|r| r.contains("not allowed")),
        "{error}"
    );
    let (status, error) = action("accept");
    assert_eq!(status, 422, "{error}");
    play(&server, &game, "e4");
    play(&server, &game, "e5");
    let (status, state) = server.post(
        &format!("/api/games/{game}/action"),
        json!({"action": "takeback", "plies": 2}),
    );
    assert_eq!(status, 200, "{state}");
    assert_eq!(moves(&state).len(), 0);
    let (status, state) = action("resign");
    assert_eq!(status, 200);
    assert_eq!(state["status"], "ended");
    assert_eq!(state["result"], "black wins");
    assert!(state["score_text"].is_string());
    let (status, error) = server.post(&format!("/api/games/{game}/move"), json!({"move": "e4"}));
    assert_eq!(status, 422);
    assert!(
        error["reason"].as_str().is_some_and(|r| r.contains("over")),
        "{error}"
    );
    let (status, _) = server.post(&format!("/api/games/{game}/engine"), json!({"depth": 1}));
    assert_eq!(status, 422);
}

#[test]
fn the_engine_moves_in_every_bundled_variant() {
    let server = start("engine");
    let (_, list) = server.get("/api/variants");
    for variant in list["variants"].as_array().expect("variants") {
        let id = variant["id"].as_str().expect("id");
        let (game, _) = server.new_game(id);
        let (status, state) =
            server.post(&format!("/api/games/{game}/engine"), json!({"depth": 1}));
        assert_eq!(status, 200, "{id}: {state}");
        assert_eq!(moves(&state).len(), 1, "{id}");
        // Depth and time are clamped, not refused.
        let (status, state) = server.post(
            &format!("/api/games/{game}/engine"),
            json!({"movetime_ms": 1u64 << 40, "depth": 2}),
        );
        assert_eq!(status, 200, "{id}: {state}");
    }
}

#[test]
fn records_and_fens_go_in_and_out() {
    let server = start("records");
    let (game, _) = server.new_game("ppc");
    for text in ["e4", "e5", "Nf3"] {
        play(&server, &game, text);
    }
    let (status, record) = server.get(&format!("/api/games/{game}/record"));
    assert_eq!(status, 200);
    let text = record["record"].as_str().expect("record");
    assert!(text.contains("Nf3"), "{text}");
    let (status, loaded) = server.post("/api/games", json!({"variant": "ppc", "record": text}));
    assert_eq!(status, 200, "{loaded}");
    let (_, original) = server.get(&format!("/api/games/{game}"));
    assert_eq!(loaded["fen"], original["fen"]);
    let fen = "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1";
    let (status, state) = server.post("/api/games", json!({"variant": "ppc", "fen": fen}));
    assert_eq!(status, 200, "{state}");
    assert_eq!(state["fen"], fen);
    // The pawn's promotion choices (queen or kniking) are separate moves.
    let promotions: Vec<&str> = state["legal"]
        .as_array()
        .expect("legal")
        .iter()
        .filter(|m| m["from"] == "b7" && m["to"] == "b8")
        .filter_map(|m| m["san"].as_str())
        .collect();
    assert_eq!(promotions.len(), 2, "{promotions:?}");
    let (status, error) = server.post("/api/games", json!({"variant": "ppc", "fen": "8/8/8 w"}));
    assert_eq!(status, 422, "{error}");
    let (status, error) = server.post("/api/games", json!({"variant": "ppc", "record": "1. Kxe8"}));
    assert_eq!(status, 422, "{error}");
}

#[test]
fn chess99_offers_its_delayed_promotion_as_moves_to_choose_from() {
    let server = start("chess99");
    let (_, list) = server.get("/api/variants/chess99");
    assert!(list["variant"]["promotions"]
        .as_array()
        .is_some_and(|p| !p.is_empty()));
    let (game, state) = server.new_game("chess99-mini");
    assert!(
        state["legal"].as_array().is_some_and(|l| !l.is_empty()),
        "{state}"
    );
    let (status, _) = server.post(&format!("/api/games/{game}/engine"), json!({"depth": 1}));
    assert_eq!(status, 200);
}

#[test]
fn the_editor_checks_dumps_counts_and_plays_edited_rules() {
    let server = start("editor");
    let (_, ppc) = server.get("/api/variants/ppc");
    let source = ppc["source"].as_str().expect("source").to_string();
    let (status, checked) = server.post(
        "/api/check",
        json!({"variant": "ppc", "source": source, "dump": true}),
    );
    assert_eq!(status, 200);
    assert_eq!(checked["ok"], true);
    assert!(checked["dump"]
        .as_str()
        .is_some_and(|d| d.contains("rooking")));
    let broken = format!("{source}\npiece broken \"Z\" moves nonsense\n");
    let (status, checked) = server.post("/api/check", json!({"variant": "ppc", "source": broken}));
    assert_eq!(status, 200);
    assert_eq!(checked["ok"], false);
    let first = &checked["diagnostics"][0];
    let last_line = broken.lines().count() as u64;
    assert_eq!(first["line"], last_line, "{first}");
    assert!(first["column"].as_u64().is_some_and(|c| c > 1), "{first}");
    assert!(
        first["message"]
            .as_str()
            .is_some_and(|m| m.contains("nonsense")),
        "{first}"
    );
    assert_eq!(first["code"], "E0104", "{first}");
    assert_eq!(first["severity"], "error", "{first}");
    // A warning leaves the rules playable and is listed as a warning.
    let warned = format!("{source}\npiece unused \"Z\" moves rook\n");
    let (status, checked) = server.post("/api/check", json!({"variant": "ppc", "source": warned}));
    assert_eq!(status, 200);
    assert_eq!(checked["ok"], true, "{checked}");
    let warning = &checked["diagnostics"][0];
    assert_eq!(warning["code"], "W0001", "{checked}");
    assert_eq!(warning["severity"], "warning", "{checked}");
    let (status, error) = server.post("/api/games", json!({"variant": "ppc", "source": broken}));
    assert_eq!(status, 422);
    assert!(error["diagnostics"]
        .as_array()
        .is_some_and(|d| !d.is_empty()));
    let (status, error) = server.post(
        "/api/check",
        json!({"variant": "ppc", "source": "#".repeat(300 * 1024)}),
    );
    assert_eq!(status, 413, "{error}");
    // A valid edit plays at once: the rooking worth a little more.
    let edited = source.replace("value 7 ", "value 8 ");
    let (status, state) = server.post("/api/games", json!({"variant": "ppc", "source": edited}));
    assert_eq!(status, 200, "{state}");
    let (status, perft) = server.post("/api/perft", json!({"variant": "chess", "depth": 2}));
    assert_eq!(status, 200);
    assert_eq!(perft["nodes"], 400);
    assert_eq!(perft["divide"].as_array().map(Vec::len), Some(20));
    let (status, error) = server.post("/api/perft", json!({"variant": "chess", "depth": 9}));
    assert_eq!(status, 400, "{error}");
    let (status, error) = server.post(
        "/api/perft",
        json!({"variant": "ppc", "source": broken, "depth": 1}),
    );
    assert_eq!(status, 422, "{error}");
}

#[test]
fn saving_needs_confirmation_and_never_overwrites_a_changed_file() {
    let server = start("save");
    let path = server.folder.join("chess.rules");
    let (_, chess) = server.get("/api/variants/chess");
    let source = chess["source"].as_str().expect("source").to_string();
    let version = chess["version"].as_str().expect("version").to_string();
    let edited = format!("{source}# edited in the playground\n");
    let save = |body: Value| server.post("/api/variants/chess/save", body);
    let (status, error) = save(json!({"source": edited, "version": version}));
    assert_eq!(status, 400, "{error}");
    assert_eq!(std::fs::read_to_string(&path).expect("file"), source);
    let (status, error) = save(json!({"source": edited, "version": "stale", "confirm": true}));
    assert_eq!(status, 409, "{error}");
    assert_eq!(std::fs::read_to_string(&path).expect("file"), source);
    let (status, saved) = save(json!({"source": edited, "version": version, "confirm": true}));
    assert_eq!(status, 200, "{saved}");
    assert_eq!(std::fs::read_to_string(&path).expect("file"), edited);
    // Changed on disk meanwhile: the page's version is stale.
    std::fs::write(&path, format!("{edited}# by another editor\n")).expect("write");
    let newer = saved["version"].as_str().expect("version");
    let (status, error) = save(json!({"source": source, "version": newer, "confirm": true}));
    assert_eq!(status, 409, "{error}");
    assert!(std::fs::read_to_string(&path)
        .expect("file")
        .ends_with("# by another editor\n"));
    let (status, error) = server.post(
        "/api/variants/elsewhere/save",
        json!({"source": source, "version": version, "confirm": true}),
    );
    assert_eq!(status, 404, "{error}");
    assert!(!server.folder.join("elsewhere.rules").exists());
}

#[test]
fn games_are_capped_and_the_oldest_is_dropped() {
    let server = start("cap");
    let (first, _) = server.new_game("chess99-mini");
    for _ in 0..varc::serve::limits::MAX_GAMES {
        server.new_game("chess99-mini");
    }
    let (status, error) = server.get(&format!("/api/games/{first}"));
    assert_eq!(status, 404, "{error}");
}

#[test]
fn requests_from_other_sites_are_refused() {
    let server = start("origin");
    let url = format!("{}/api/games", server.base);
    let body = r#"{"variant": "chess"}"#;
    let status = |result: Result<ureq::Response, ureq::Error>| match result {
        Ok(response) => response.status(),
        Err(ureq::Error::Status(code, _)) => code,
        Err(error) => panic!("{error}"),
    };
    // A form post (no JSON content type), another origin, another host name.
    let form = ureq::post(&url)
        .set("Content-Type", "text/plain")
        .send_string(body);
    assert_eq!(status(form), 415);
    let other = ureq::post(&url)
        .set("Content-Type", "application/json")
        .set("Origin", "http://evil.example")
        .send_string(body);
    assert_eq!(status(other), 403);
    let rebound = ureq::get(&format!("{}/api/variants", server.base))
        .set("Host", "evil.example")
        .call();
    assert_eq!(status(rebound), 403);
    let own = ureq::post(&url)
        .set("Content-Type", "application/json")
        .set("Origin", &server.base)
        .send_string(body);
    assert_eq!(status(own), 200);
}

#[test]
fn a_game_with_clocks_reports_them_and_a_fallen_flag_ends_it() {
    let server = start("clocks");
    let (status, state) = server.post("/api/games", json!({"variant": "chess", "clock": "0.2+0"}));
    if status == 400 {
        // Whole seconds only: a one-second game.
        let (status, state) =
            server.post("/api/games", json!({"variant": "chess", "clock": "1+0"}));
        assert_eq!(status, 200, "{state}");
        return flag_falls(&server, &state);
    }
    assert_eq!(status, 200, "{state}");
    flag_falls(&server, &state);
}

fn flag_falls(server: &Server, state: &Value) {
    assert!(state["clock_ms"]["white"].as_u64().is_some(), "{state}");
    let game = state["game_id"].as_str().expect("id");
    let base = state["clock_ms"]["white"].as_u64().unwrap_or(0);
    std::thread::sleep(std::time::Duration::from_millis(base + 100));
    let (status, state) = server.post(
        &format!("/api/games/{game}/action"),
        json!({"action": "time"}),
    );
    assert_eq!(status, 200, "{state}");
    assert_eq!(state["status"], "ended", "{state}");
}

#[test]
fn alternate_scoring_crowning_gives_moves_that_differ_by_the_crowned_square() {
    let server = start("crowning");
    // White's king was captured: a bishop is crowned at the start of the turn (A2).
    let fen = "4k3/8/8/8/8/8/8/2B2B2 w - - 0 1";
    let (status, state) = server.post(
        "/api/games",
        json!({"variant": "alternate-scoring", "fen": fen}),
    );
    assert_eq!(status, 200, "{state}");
    let same_squares: Vec<&Value> = state["legal"]
        .as_array()
        .expect("legal")
        .iter()
        .filter(|m| m["from"] == "f1" && m["to"] == "g2")
        .collect();
    let crowns: Vec<&str> = same_squares
        .iter()
        .filter_map(|m| m["crown"].as_str())
        .collect();
    assert_eq!(crowns.len(), 2, "{same_squares:?}");
    assert!(
        crowns.contains(&"c1") && crowns.contains(&"f1"),
        "{crowns:?}"
    );
    let game = state["game_id"].as_str().expect("id");
    let uci = same_squares[0]["uci"].as_str().expect("uci");
    let state = play(&server, game, uci);
    assert!(moves(&state)[0].contains('^'), "{state}");
}

#[test]
fn crazyhouse_shows_the_hands_and_drops_a_piece_from_one() {
    let server = start_with("crazyhouse", &["crazyhouse"]);
    let (_, list) = server.get("/api/variants/crazyhouse");
    assert_eq!(list["variant"]["hands"], true, "{}", list["variant"]);
    let (game, state) = server.new_game("crazyhouse");
    assert_eq!(state["hands"], json!({"white": [], "black": []}));
    let mut state = state;
    for text in ["e4", "d5", "exd5", "Qxd5"] {
        state = play(&server, &game, text);
    }
    assert_eq!(
        state["hands"],
        json!({"white": [{"letter": "P", "kind": 5, "count": 1}],
               "black": [{"letter": "p", "kind": 5, "count": 1}]})
    );
    let drops: Vec<&Value> = state["legal"]
        .as_array()
        .expect("legal")
        .iter()
        .filter(|m| m["drop"] == "P")
        .collect();
    // One pawn drop per empty square of ranks 2 to 7.
    assert_eq!(drops.len(), 33, "{drops:?}");
    assert!(drops.iter().all(|m| m["from"] == m["to"]));
    // A drop is not a move of a piece on its square: the reach leaves it out.
    assert!(state["reach"]["e6"].is_null(), "{}", state["reach"]);
    let before = state["fen"].clone();
    for refused in ["P@e1", "P@d5", "N@e6"] {
        let (status, error) =
            server.post(&format!("/api/games/{game}/move"), json!({"move": refused}));
        assert_eq!(status, 422, "{refused}: {error}");
        assert!(error["reason"].is_string(), "{error}");
    }
    let (_, now) = server.get(&format!("/api/games/{game}"));
    assert_eq!(now["fen"], before, "a refused drop changed the game");
    let state = play(&server, &game, "P@e6");
    assert_eq!(moves(&state).last().map(String::as_str), Some("P@e6"));
    assert_eq!(state["hands"]["white"], json!([]));
    assert!(state["board"]
        .as_array()
        .expect("board")
        .iter()
        .any(|p| p["square"] == "e6" && p["letter"] == "P"));
}
