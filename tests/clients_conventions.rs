//! What real clients expect of varc's protocols and texts (issue 13),
//! checked with scripted sessions: draw offers judged by the search, the
//! client's letters everywhere in XBoard, move texts whose completion is
//! unique, XBoard's variant negotiation, records as standard PGN and FENs
//! with the en passant field as python-chess and Fairy-Stockfish write it.
//! The same clients drive varc for real in `clients_python_chess.rs`.

mod common;

use varc_runtime::game::record;

fn xboard(variant: &str, script: &str) -> Vec<String> {
    common::protocol_session(varc_runtime::xboard::run, variant, script)
}

fn uci(variant: &str, script: &str) -> Vec<String> {
    common::protocol_session(varc_runtime::uci::run, variant, script)
}

fn replay_json(args: &[&str]) -> serde_json::Value {
    common::replay_json(args).0
}

// 1. Draw offers.

#[test]
fn xboard_draw_offer_refused_when_the_engine_is_better() {
    // The issue's session: force mode, White (to move) four queens up.
    let script =
        "xboard\nprotover 2\nnew\nforce\nsetboard 4k3/8/8/8/8/8/8/QQQQK3 w - - 0 1\ndraw\nping 1\n";
    let lines = xboard("chess", script);
    assert!(!lines.iter().any(|l| l == "offer draw"), "{lines:?}");
    // The engine plays Black and Black is the side that is up.
    let script = "xboard\nprotover 2\nnew\nforce\nsetboard qqqqk3/8/8/8/8/8/8/4K3 w - - 0 1\nplayother\ndraw\nping 1\n";
    let lines = xboard("chess", script);
    assert!(!lines.iter().any(|l| l == "offer draw"), "{lines:?}");
}

#[test]
fn xboard_draw_offer_accepted_when_the_engine_is_not_better() {
    // The engine plays White, four queens down.
    let script = "xboard\nprotover 2\nnew\nforce\nsetboard qqqqk3/8/8/8/8/8/8/4K3 b - - 0 1\nplayother\ndraw\nping 1\n";
    let lines = xboard("chess", script);
    assert!(lines.iter().any(|l| l == "offer draw"), "{lines:?}");
}

// 2. The client's letters everywhere.

#[test]
fn xboard_thinking_output_and_hint_use_xboard_letters() {
    // PPC: the knight promotes on c6 (the kniking is XBoard's `+N`).
    let script = "xboard\nprotover 2\nnew\nforce\nsetboard k7/2K5/8/8/3N4/8/8/8 w - - 0 1\npost\nsd 2\ngo\nping 1\nforce\nsetboard 4k3/8/8/8/3N4/8/8/4K3 w - - 0 1\nhint\nping 2\n";
    let lines = xboard("ppc", script);
    let thinking: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with(|c: char| c.is_ascii_digit()))
        .collect();
    assert!(!thinking.is_empty(), "{lines:?}");
    for line in lines
        .iter()
        .filter(|l| l.starts_with(|c: char| c.is_ascii_digit()) || l.starts_with("Hint:"))
    {
        assert!(!line.contains('\''), "varc's letters in {line:?}");
    }
    assert!(lines.iter().any(|l| l.starts_with("Hint: d4")), "{lines:?}");
}

#[test]
fn xboard_refusal_names_moves_in_xboard_letters() {
    // Two choices (queen, kniking): the example in the reason is XBoard's.
    let script = "xboard\nprotover 2\nnew\nforce\nsetboard 4k3/1P6/8/8/8/8/8/4K3 w - - 0 1\nusermove b7b8\nping 1\n";
    let lines = xboard("ppc", script);
    let refusal = lines
        .iter()
        .find(|l| l.starts_with("Illegal move"))
        .expect("refused: two choices");
    assert!(!refusal.contains('\''), "{refusal}");
}

// 3. A move text whose completion is unique.

#[test]
fn forced_single_choice_promotion_accepted_without_suffix_in_xboard() {
    // PPC P1: a rook entering enemy territory must become a rooking.
    let script = "xboard\nprotover 2\nnew\nforce\nsetboard 4k3/8/8/8/8/8/8/R3K3 w - - 0 1\nusermove a1a7\nping 1\n";
    let lines = xboard("ppc", script);
    assert!(!lines.iter().any(|l| l.starts_with("Illegal")), "{lines:?}");
}

#[test]
fn forced_single_choice_promotion_accepted_without_suffix_in_uci() {
    let script = "uci\nposition fen 4k3/8/8/8/8/8/8/R3K3 w - - 0 1 moves a1a7\nd\nisready\n";
    let lines = uci("ppc", script);
    assert!(!lines.iter().any(|l| l.contains("error")), "{lines:?}");
    assert!(
        lines
            .iter()
            .any(|l| l.contains("fen 4k3/R'7/8/8/8/8/8/4K3 b")),
        "{lines:?}"
    );
}

#[test]
fn forced_single_choice_promotion_accepted_without_suffix_in_replay() {
    let json = replay_json(&[
        "variants/ppc.rules",
        "--fen",
        "4k3/8/8/8/8/8/8/R3K3 w - - 0 1",
        "--moves",
        "a1a7 Kd8",
    ]);
    assert!(json.get("error").is_none(), "{json}");
    assert_eq!(json["moves"][0], "Ra7=R'");
}

#[test]
fn promotion_with_several_choices_still_needs_its_letter() {
    let json = replay_json(&[
        "variants/chess.rules",
        "--fen",
        "4k3/P7/8/8/8/8/8/4K3 w - - 0 1",
        "--moves",
        "a7a8",
    ]);
    assert!(
        json["reason"]
            .as_str()
            .is_some_and(|r| r.contains("add the piece letter")),
        "{json}"
    );
}

// 4 and 6. XBoard's variant negotiation.

#[test]
fn xboard_built_in_variants_use_xboard_names_without_setup() {
    for (variant, name) in [("chess", "normal"), ("capablanca", "capablanca")] {
        let script = format!("xboard\nprotover 2\nnew\nvariant {name}\nping 1\n");
        let lines = xboard(variant, &script);
        let features = lines
            .iter()
            .find(|l| l.contains("myname="))
            .expect("features");
        assert!(
            features.contains(&format!("variants=\"{name}\"")),
            "{features}"
        );
        assert!(
            !lines.iter().any(|l| l.starts_with("setup")
                || l.starts_with("piece")
                || l.starts_with("Error")),
            "{lines:?}"
        );
    }
}

#[test]
fn xboard_setup_precedes_done_and_answers_variant_not_new() {
    // XBoard loads a position (`-lpf`) after `new` and `variant`; a setup
    // reaching it later would reset its board, so the format is sent in
    // the handshake (before done=1) and again only on `variant`.
    let lines = xboard("ppc", "xboard\nprotover 2\nping 1\nnew\nping 2\n");
    let setup = lines
        .iter()
        .position(|l| l.starts_with("setup ("))
        .expect("setup");
    let done = lines
        .iter()
        .position(|l| l == "feature done=1")
        .expect("done");
    assert!(setup < done, "{lines:?}");
    let pong = lines.iter().position(|l| l == "pong 1").expect("pong 1");
    assert!(
        !lines[pong..].iter().any(|l| l.starts_with("setup")),
        "{lines:?}"
    );
    let lines = xboard("ppc", "xboard\nprotover 2\nping 1\nnew\nvariant ppc\nsetboard 4k3/8/8/8/8/8/8/R3K3 w - - 0 1\nusermove a1a7\nping 2\n");
    let pong = lines.iter().position(|l| l == "pong 1").expect("pong 1");
    assert_eq!(
        lines[pong..]
            .iter()
            .filter(|l| l.starts_with("setup"))
            .count(),
        1,
        "{lines:?}"
    );
    assert!(!lines.iter().any(|l| l.starts_with("Illegal")), "{lines:?}");
}

#[test]
fn xboard_answers_variant_with_the_position_its_step_loaded() {
    // XBoard 4.9 with `-lpf`: `variant`, `ping`, then the loaded position,
    // all before it reads the answer. The answer (a `setup`, which XBoard
    // takes as a change of variant and whose position it adopts) comes
    // after the step, with the loaded position; the `pong` after it.
    let loaded = "r3k3/8/8/8/2B5/8/8/4K2R w K - 0 1";
    let script =
        format!("xboard\nprotover 2\nnew\nvariant ppc\nhard\nping 3\nforce\nsetboard {loaded}\n");
    let lines = xboard("ppc", &script);
    let done = lines
        .iter()
        .position(|l| l == "feature done=1")
        .expect("done");
    let answer = lines[done..]
        .iter()
        .position(|l| l.starts_with("setup ("))
        .map(|i| i + done)
        .expect("variant answered");
    assert!(lines[answer].ends_with(loaded), "{lines:?}");
    let pong = lines.iter().position(|l| l == "pong 3").expect("pong 3");
    assert!(answer < pong, "{lines:?}");
}

// 5. Piece promotions XBoard checks.

#[test]
fn xboard_piece_promotions_are_shogi_style_for_legality_testing() {
    // XBoard with legality testing accepts a promotion of a piece other
    // than a pawn only as `+` onto a piece the setup declares promoted.
    let lines = xboard("ppc", "xboard\nprotover 2\nping 1\n");
    let setup = lines
        .iter()
        .find(|l| l.starts_with("setup ("))
        .expect("setup");
    assert!(setup.contains("(PNBRQF......+++..........K"), "{setup}");
    // The engine's own bishop promotion (the issue's `f4d6a`).
    let script = "xboard\nprotover 2\nnew\nforce\nsetboard k7/8/8/1K6/5B2/8/8/8 w - - 0 1\nsd 2\ngo\nping 1\n";
    let lines = xboard("ppc", script);
    let played = lines
        .iter()
        .find(|l| l.starts_with("move "))
        .expect("a move");
    assert!(
        !played.ends_with(|c: char| c.is_ascii_alphabetic()),
        "a letter suffix XBoard refuses: {played}"
    );
    // XBoard's `+` from the user or the other engine, and its FENs.
    let script = "xboard\nprotover 2\nnew\nforce\nsetboard 4k3/8/8/8/5B2/8/8/4K3 w - - 0 1\nusermove f4d6+\nusermove e8d8\nusermove d6d5\nsetboard 4k3/8/8/8/+B7/8/8/+R3K3 w - - 0 1\nusermove a4a5\nping 1\n";
    let lines = xboard("ppc", script);
    assert!(
        !lines
            .iter()
            .any(|l| l.starts_with("Illegal") || l.starts_with("Error")),
        "{lines:?}"
    );
}

// 7. Records as PGN.

#[test]
fn record_loader_reads_standard_pgn_with_nags_variations_and_no_variant_tag() {
    let pgn = r#"[Event "Casual"]
[Site "?"]
[Date "2024.01.02"]
[Round "1"]
[White "Ann"]
[Black "Bob"]
[Result "1-0"]

1. e4 $1 e5 (1... c5 2. Nf3 (2. c3) d6) 2. Bc4 {a comment} Nc6 3. Qh5 Nf6?? $4
4. Qxf7# 1-0
"#;
    let game = record::load(common::rules("chess"), pgn).expect("standard PGN loads");
    assert_eq!(
        game.result().map(|r| r.score_text()),
        Some("1-0".to_string())
    );
    // A variant other than chess still needs its tag.
    assert!(matches!(
        record::load(common::rules("ppc"), pgn),
        Err(record::RecordError::MissingVariant)
    ));
    let unclosed = "1. e4 (1. d4 e5 *";
    assert!(record::load(common::rules("chess"), unclosed).is_err());
}

#[test]
fn written_records_carry_the_seven_tag_roster_first() {
    let outcome = common::play("ppc", None, None, &["e2e4", "e7e5"]);
    let text = outcome.game.to_record(&[("White", "Ann"), ("Seed", "7")]);
    let names: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix('['))
        .filter_map(|l| l.split(' ').next())
        .collect();
    assert_eq!(
        names[..9],
        [
            "Event",
            "Site",
            "Date",
            "Round",
            "White",
            "Black",
            "Result",
            "Variant",
            "VariantName"
        ]
    );
    assert!(
        text.contains("[White \"Ann\"]") && text.contains("[Seed \"7\"]"),
        "{text}"
    );
    assert!(record::load(common::rules("ppc"), &text).is_ok());
}

// 8. The en passant field.

#[test]
fn fen_en_passant_field_written_only_when_a_capture_is_possible() {
    let json = replay_json(&["variants/chess.rules", "--moves", "e2e4"]);
    assert_eq!(
        json["fen"],
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    );
    let json = replay_json(&["variants/chess.rules", "--moves", "e2e4 a7a6 e4e5 d7d5"]);
    assert_eq!(
        json["fen"],
        "rnbqkbnr/1pp1pppp/p7/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3"
    );
    // Both forms are read.
    let json = replay_json(&[
        "variants/chess.rules",
        "--fen",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
        "--moves",
        "e7e5",
    ]);
    assert!(json.get("error").is_none(), "{json}");
}
