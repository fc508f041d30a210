//! Move ordering's memory of moves between nodes: continuation history
//! (how a quiet move fared after the previous move, and after the side's
//! own move before it), countermoves (the quiet move that last refuted the
//! previous move) and capture history (how a capture by a kind on a square
//! of a victim fared). All are kept through `Rules` alone, so every back
//! end orders alike.

mod common;

use std::collections::HashMap;
use varc::interp::Interpreter;
use varc_runtime::game::Game;
use varc_runtime::model::Square;
use varc_runtime::moves::Move;
use varc_runtime::notation::long_algebraic;
use varc_runtime::rules::Rules;
use varc_runtime::search::order::{
    is_tactical_score, tactical_score, OrderingTables, PieceTo, PlyContext,
};
use varc_runtime::search::Engine;

fn chess_start() -> Game<Interpreter> {
    Game::new(common::rules("chess")).expect("the start position")
}

fn legal(game: &Game<Interpreter>, text: &str) -> Move {
    let legal = game.legal_moves();
    legal
        .iter()
        .copied()
        .find(|mv| long_algebraic(game.rules().variant(), mv, legal) == text)
        .unwrap_or_else(|| panic!("{text} is not legal here"))
}

/// The game after `first` (White's move) and its [`PieceTo`].
fn after(first: &str, tables: &OrderingTables<Move>) -> (Game<Interpreter>, PieceTo) {
    let mut game = chess_start();
    let mv = legal(&game, first);
    let piece_to = tables.piece_to(game.rules(), game.position(), &mv);
    game.play(&mv).expect("legal");
    (game, piece_to)
}

fn context(ply: usize, previous: Option<PieceTo>) -> PlyContext {
    PlyContext {
        ply,
        previous: [previous, None],
    }
}

#[test]
fn a_refutation_rises_after_its_previous_move_and_the_quiet_moves_before_it_fall() {
    let variant = common::variant("chess");
    let mut tables = OrderingTables::<Move>::new(&variant);
    let (game, e4) = after("e2e4", &tables);
    let (rules, position) = (game.rules(), game.position());
    let side = game.position().side_to_move();
    let [nf6, nc6, d6] = ["g8f6", "b8c6", "d7d6"].map(|text| legal(&game, text));
    let at_ply_one = context(1, Some(e4));
    tables.reward_quiet(rules, position, &nf6, &[nc6, d6], 6, &at_ply_one);

    let score = |tables: &OrderingTables<Move>, mv: &Move, previous: Option<PieceTo>| {
        tables.quiet_score(rules, position, side, mv, &[previous, None])
    };
    // After 1.e4 the refutation is up and the moves tried before it down;
    // without a previous move only the from-to history counts, which moved
    // the same way, less far.
    assert!(score(&tables, &nf6, Some(e4)) > score(&tables, &nf6, None));
    assert!(score(&tables, &nf6, None) > 0);
    assert!(score(&tables, &nc6, Some(e4)) < score(&tables, &nc6, None));
    assert!(score(&tables, &d6, Some(e4)) < score(&tables, &d6, None));
    assert!(score(&tables, &nc6, None) < 0);
    // After another first move, only the from-to history is known.
    let (_, d4) = after("d2d4", &tables);
    assert_eq!(score(&tables, &nc6, Some(d4)), score(&tables, &nc6, None));

    // At another node after 1.e4 (no killers there), 1...Nf6 is the
    // countermove: before every quiet move, however high its history.
    let elsewhere = context(3, Some(e4));
    let refutations = tables.refutations(&elsewhere);
    assert_eq!(refutations.killers, [None, None]);
    assert_eq!(refutations.countermove, Some(nf6));
    let evaluator = varc_runtime::eval::Evaluator::new(&variant);
    let countermove_score = tables
        .early_score(rules, &evaluator, position, &nf6, &refutations)
        .expect("the countermove ranks early");
    for _ in 0..100 {
        tables.reward_quiet(rules, position, &d6, &[], 20, &context(5, None));
    }
    assert!(score(&tables, &d6, Some(e4)) < countermove_score);
    assert_eq!(
        tables.early_score(rules, &evaluator, position, &nc6, &refutations),
        None,
        "a quiet move that is neither killer nor countermove waits"
    );
}

#[test]
fn continuation_history_stays_within_its_limit_both_ways() {
    let variant = common::variant("chess");
    let mut tables = OrderingTables::<Move>::new(&variant);
    let (game, e4) = after("e2e4", &tables);
    let (rules, position) = (game.rules(), game.position());
    let side = game.position().side_to_move();
    let [nf6, nc6] = ["g8f6", "b8c6"].map(|text| legal(&game, text));
    let at_ply_one = context(1, Some(e4));
    for _ in 0..200 {
        tables.reward_quiet(rules, position, &nf6, &[nc6], 20, &at_ply_one);
    }
    let continuation = |mv: &Move| {
        tables.quiet_score(rules, position, side, mv, &[Some(e4), None])
            - tables.quiet_score(rules, position, side, mv, &[None, None])
    };
    let (up, down) = (continuation(&nf6), continuation(&nc6));
    assert!((16_000..=16_384).contains(&up), "{up}");
    assert!((-16_384..=-16_000).contains(&down), "{down}");
}

#[test]
fn the_biggest_board_names_each_kind_and_destination_apart() {
    // Tables are sized by the variant's kinds and squares; on the biggest
    // bundled board, two moves share a name only if they share side, kind
    // and destination.
    let names = common::bundled_names();
    let (name, variant) = names
        .iter()
        .map(|name| (name, common::variant(name)))
        .max_by_key(|(_, v)| usize::from(v.board.files) * usize::from(v.board.ranks))
        .expect("bundled variants");
    let tables = OrderingTables::<Move>::new(&variant);
    let game = Game::new(common::rules(name)).expect("the start position");
    let (rules, position) = (game.rules(), game.position());
    let mut named: HashMap<PieceTo, (Option<usize>, Square)> = HashMap::new();
    for mv in game.legal_moves() {
        let (_, to) = rules.move_squares(mv);
        let kind = rules.moving_kind(position, mv);
        let piece_to = tables.piece_to(rules, position, mv);
        let earlier = *named.entry(piece_to).or_insert((kind, to));
        assert_eq!(earlier, (kind, to), "{name}: one name for two moves");
    }
    assert!(named.len() > 1, "{name}: moves of different names");
}

/// The game after the moves of `line` from the start.
fn line(moves: &[&str]) -> Game<Interpreter> {
    let mut game = chess_start();
    for text in moves {
        let mv = legal(&game, text);
        game.play(&mv).expect("legal");
    }
    game
}

#[test]
fn a_capture_that_cut_off_rises_among_captures_and_those_tried_before_it_fall() {
    let variant = common::variant("chess");
    let mut tables = OrderingTables::<Move>::new(&variant);
    // 1. e4 d5 2. Nc3 Bg4 3. Be2: Black can take a pawn (dxe4) or a
    // bishop (Bxe2).
    let game = line(&["e2e4", "d7d5", "b1c3", "c8g4", "f1e2"]);
    let (rules, position) = (game.rules(), game.position());
    let [dxe4, bxe2] = ["d5e4", "g4e2"].map(|text| legal(&game, text));
    let engine: Engine<Move> = Engine::new(&variant);
    let evaluator = engine.evaluator();
    let rank = |tables: &OrderingTables<Move>, mv: &Move| {
        let score = tactical_score(rules, evaluator, position, mv);
        assert!(score > 0);
        tables.capture_rank(rules, position, mv, score)
    };
    let before = [rank(&tables, &dxe4), rank(&tables, &bxe2)];
    // By MVV-LVA the bishop goes first.
    assert!(before[1] > before[0]);
    // Bxe2 was tried and failed where dxe4 cut off, often and deep.
    for _ in 0..50 {
        tables.reward_captures(rules, position, Some(&dxe4), &[bxe2], 12);
    }
    let after = [rank(&tables, &dxe4), rank(&tables, &bxe2)];
    assert!(
        after[0] > before[0] && after[1] < before[1],
        "{before:?} {after:?}"
    );
    // Still captures, ranked above every quiet move and killer.
    assert!(after.iter().all(|&score| is_tactical_score(score)));
    // The history moves a capture by at most a part of its limit.
    assert!((after[0] - before[0]).abs() <= 16_384);
    tables.clear();
    assert_eq!([rank(&tables, &dxe4), rank(&tables, &bxe2)], before);
}
