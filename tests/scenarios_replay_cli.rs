//! `varc replay --json` exposes the game layer (DESIGN.md's command-line
//! contract): status, result, scores, reason, claims, counters, awards, and
//! for a refused step `error`/`reason` with exit code 2.

mod common;

use common::replay_json as replay;

#[test]
fn ppc_p8_replay_json_reports_a_claimed_null_game() {
    let (json, code) = replay(&[
        "variants/ppc.rules",
        "--fen",
        "1n4kr/8/8/8/8/8/8/QRB3K1 w - - 0 1",
        "--moves",
        "Kf1 Kf8 Kg1 Kg8 Kf1 Kf8 Kg1 Kg8 claim",
    ]);
    assert_eq!(code, 0);
    assert_eq!(json["status"], "ended");
    assert_eq!(json["result"], "null game");
    assert_eq!(
        json["reason"],
        "null game: threefold repetition with 3 pieces"
    );
    assert_eq!(json["scores"]["white"], 0.0);
}

#[test]
fn ppc_p7_replay_json_refuses_irc_with_exit_2() {
    let (json, code) = replay(&[
        "variants/ppc.rules",
        "--fen",
        "7k/8/8/8/8/8/Q7/2K5 w - - 0 1",
        "--moves",
        "Qa8 Kh7 Qa2 Kh8 Qa8",
    ]);
    assert_eq!(code, 2);
    assert_eq!(json["error"], "illegal move Qa8");
    assert_eq!(json["reason"], "a2a8: illegal repeated check");
    assert_eq!(json["status"], "ongoing");
    assert_eq!(json["fen"], "7k/8/8/8/8/8/Q7/2K5 w - - 4 3");
}

#[test]
fn ppc_p8_replay_json_lists_pending_claims() {
    let (json, _) = replay(&[
        "variants/ppc.rules",
        "--fen",
        "1n4kr/8/8/8/8/8/8/QR4K1 w - - 0 1",
        "--moves",
        "Kf1 Kf8 Kg1 Kg8 Kf1 Kf8 Kg1 Kg8",
    ]);
    assert_eq!(json["status"], "ongoing");
    assert_eq!(json["claims"][0]["reason"], "threefold repetition");
    assert_eq!(json["claims"][0]["result"], "draw");
}

#[test]
fn alternate_a11_replay_json_counters_and_awards() {
    let (json, code) = replay(&[
        "variants/alternate-scoring.rules",
        "--fen",
        "4k3/1p1p1p2/8/P1P1P3/8/8/8/4K3 b - - 0 1",
        "--moves",
        "b5 axb6 d5 cxd6 f5 exf6",
    ]);
    assert_eq!(code, 0);
    assert_eq!(json["counters"]["ep-captures"]["white"], 3);
    assert_eq!(json["awards"][0]["name"], "Triple En Passant");
    assert_eq!(json["moves"][5], "exf6 III");
}

#[test]
fn chess_c8_replay_resign_and_clock() {
    let (json, _) = replay(&["variants/chess.rules", "--moves", "e4 resign"]);
    assert_eq!(json["result"], "white wins");
    assert_eq!(json["reason"], "black resigns");
    let (json, _) = replay(&[
        "variants/chess.rules",
        "--time-control",
        "60+0",
        "--moves",
        "e4@30 e5@61",
    ]);
    assert_eq!(json["reason"], "black lost on time");
}
