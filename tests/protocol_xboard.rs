//! Scripted XBoard (CECP) sessions over the interpreter: the handshake with
//! `setup`/`piece` commands for custom pieces, a short game, translated
//! letters for marked kinds, errors answered as the protocol says, random
//! garbage that never stops the engine.

mod common;

use varc_runtime::xboard::{run, LetterMap};

fn session(variant: &str, script: &str) -> Vec<String> {
    common::protocol_session(run, variant, script)
}

#[test]
fn xboard_handshake_declares_features_and_pieces() {
    let lines = session("ppc", "xboard\nprotover 2\nnew\nvariant ppc\nquit\n");
    let features = lines
        .iter()
        .find(|l| l.contains("myname="))
        .expect("features");
    for feature in ["setboard=1", "usermove=1", "ping=1", "variants=\"ppc\""] {
        assert!(features.contains(feature), "{features}");
    }
    assert_eq!(lines.iter().filter(|l| *l == "feature done=1").count(), 1);
    let setup = lines
        .iter()
        .find(|l| l.starts_with("setup ("))
        .expect("setup");
    assert!(
        setup.contains("8x8+0_fairy rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w"),
        "{setup}"
    );
    // The promoted pieces are XBoard's promoted forms (`+R`) in the slots
    // eleven after their bases; the kniking, also a pawn's promotion, has
    // a letter of its own as well.
    assert!(
        setup.starts_with("setup (PNBRQF......+++..........Kpnbrqf......+++..........k) "),
        "{setup}"
    );
    for piece in [
        "piece +R& RK",
        "piece +B& BK",
        "piece +N& NK",
        "piece F& NK",
    ] {
        assert!(lines.iter().any(|l| l == piece), "{piece}: {lines:?}");
    }
    assert!(lines.iter().any(|l| l == "piece R& R"));
}

#[test]
fn xboard_plays_a_short_game() {
    let script = "xboard\nprotover 2\nnew\nsd 3\nusermove e2e4\nping 1\nusermove d2d4\nping 2\nusermove g1f3\nping 3\nquit\n";
    let lines = session("ppc", script);
    let moves: Vec<&String> = lines.iter().filter(|l| l.starts_with("move ")).collect();
    assert_eq!(moves.len(), 3, "{lines:?}");
    let pong = lines.iter().position(|l| l == "pong 3").expect("pong 3");
    assert!(
        lines[..pong]
            .iter()
            .filter(|l| l.starts_with("move "))
            .count()
            == 3
    );
}

#[test]
fn xboard_engine_move_with_promoted_letter_and_result() {
    // PPC P5: stalemating wins; the knight promotes on c6 (P2), in
    // XBoard's Shogi style: the kniking is the knight's promoted form.
    let script = "xboard\nprotover 2\nnew\nforce\nsetboard k7/2K5/8/8/3N4/8/8/8 w - - 0 1\nsd 2\ngo\nping 1\n";
    let lines = session("ppc", script);
    assert!(
        lines.iter().any(|l| l == "move d4c6+" || l == "move d4b5"),
        "{lines:?}"
    );
    assert!(
        lines.iter().any(|l| l.starts_with("1-0 {stalemate wins")),
        "{lines:?}"
    );
}

#[test]
fn xboard_reads_translated_moves_and_fens() {
    let rules = common::rules("ppc");
    let map = LetterMap::new(varc_runtime::rules::Rules::variant(&rules));
    let variant = varc_runtime::rules::Rules::variant(&rules);
    let board =
        varc_runtime::fen::parse_fen(variant, "4k3/1P6/8/8/8/8/8/R3K3 w - - 0 1").expect("FEN");
    assert_eq!(map.from_xboard_move(variant, &board, "b7b8f"), "b7b8n'");
    assert_eq!(map.from_xboard_move(variant, &board, "a1a7+"), "a1a7r'");
    assert_eq!(
        map.from_xboard_fen(variant, "4k3/8/8/8/8/8/8/+R3K3 w - - 0 1"),
        "4k3/8/8/8/8/8/8/R'3K3 w - - 0 1"
    );
    assert_eq!(
        map.from_xboard_fen(variant, "4k3/8/8/8/8/8/+b7/F3K3 w - - 0 1"),
        "4k3/8/8/8/8/8/b'7/N'3K3 w - - 0 1"
    );
    // The user may promote a pawn to a kniking with XBoard's letter.
    let script = "xboard\nprotover 2\nnew\nforce\nsetboard 4k3/1P6/8/8/8/8/8/4K3 w - - 0 1\nusermove b7b8f\nping 1\n";
    let lines = session("ppc", script);
    assert!(!lines.iter().any(|l| l.starts_with("Illegal")), "{lines:?}");
}

#[test]
fn xboard_errors_follow_the_protocol() {
    let script = "xboard\nprotover 2\nnew\nfrobnicate now\nvariant shogi\nusermove e2e5\nsetboard nonsense\nlevel x y z\nsd deep\nping 7\n";
    let lines = session("chess", script);
    assert!(lines
        .iter()
        .any(|l| l == "Error (unknown command): frobnicate now"));
    assert!(lines
        .iter()
        .any(|l| l == "Error (unsupported variant): shogi"));
    assert!(lines
        .iter()
        .any(|l| l.starts_with("Illegal move (") && l.ends_with("e2e5")));
    assert!(lines.iter().any(|l| l.starts_with("Error (bad FEN)")));
    assert!(lines.iter().any(|l| l.starts_with("Error (bad level")));
    assert_eq!(lines.last().map(String::as_str), Some("pong 7"));
}

#[test]
fn xboard_random_garbage_keeps_the_engine_alive() {
    let words = [
        "new",
        "force",
        "go",
        "usermove",
        "e2e4",
        "setboard",
        "0",
        "st",
        "sd",
        "1",
        "time",
        "otim",
        "undo",
        "remove",
        "result",
        "1-0",
        "variant",
        "ppc",
        "?",
        "ping",
        "white",
        "black",
        "playother",
        "draw",
        "post",
        "R'",
        "\u{1}",
        "ü",
        "-7",
    ];
    for seed in 0..4u64 {
        let mut state = seed;
        let mut next = || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            state >> 33
        };
        let mut script = String::from("xboard\nprotover 2\nsd 1\n");
        for _ in 0..200 {
            let count = next() % 6;
            let line: Vec<&str> = (0..count)
                .map(|_| words[(next() % words.len() as u64) as usize])
                .collect();
            script.push_str(&line.join(" "));
            script.push('\n');
        }
        // Thinking is bounded by `sd 1`, set again after any `new`, and
        // `st` gets a short time.
        let script = script
            .replace("new\n", "new\nsd 1\n")
            .replace("st ", "st 0.05 ");
        let lines = session("ppc", &format!("{script}force\nping 99\n"));
        assert_eq!(
            lines.last().map(String::as_str),
            Some("pong 99"),
            "seed {seed}"
        );
    }
}
