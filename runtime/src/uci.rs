//! The Universal Chess Interface, for any [`Rules`] back end: `varc uci
//! FILE` runs it over the interpreter, a generated engine's `main` over its
//! compiled rules ([`run_stdio`]).
//!
//! Supported: `uci` (with the options `UCI_Variant`, `Hash`, `Clear Hash`,
//! `MultiPV`, and, when the environment variable `VARC_TUNE` is set, the
//! search's tunable numbers of [`crate::search::params`] and the
//! evaluation's scalar weights by their weights-file names
//! ([`crate::weights::WEIGHT_NAMES`]), which `setoption` takes by name
//! either way),
//! `isready`, `setoption`, `ucinewgame`, `position startpos|fen FEN [moves
//! ...]` (moves in the variant's long algebraic, SAN also read), `go` with
//! `depth`, `nodes`, `movetime`, `wtime`, `btime`, `winc`, `binc`,
//! `movestogo`, `mate`, `infinite`, `ponder`; `stop`, `ponderhit`, `quit`;
//! and, for people at a terminal, `d` (the position) and `eval`.
//!
//! **The line played is the line reported.** The move sent with `bestmove`
//! always starts the `pv` of the last `info` line of the best line
//! (`multipv 1`): a search that ends otherwise (stopped, out of time in the
//! middle of an iteration that found a better move) reports that line once
//! more before `bestmove`. With `MultiPV` above 1 each iteration reports its
//! lines best first, and the best is the one played.
//!
//! Unknown or malformed commands never stop the engine: they are answered
//! with an `info string` line and otherwise ignored, as the protocol asks.
//! So are lines that are not UTF-8 or longer than
//! [`MAX_LINE_BYTES`](crate::input::MAX_LINE_BYTES) ([`crate::input`]).
//! `go` parameters out of range are clamped, with an `info string`
//! (see [`go`]); `go` in a finished game answers `bestmove 0000`.
//!
//! **The command loop never waits for a search.** The search runs on its
//! own thread ([`Worker`](crate::search::worker::Worker)), so `stop`, `isready` and `quit` are read at
//! once. A command that changes the position or the options (`position`,
//! `setoption`, `ucinewgame`, `go`) while a search runs stops that search
//! first; the search answers its `bestmove` (its best move so far), then
//! the command applies. The UCI spec asks GUIs to send `stop` and wait for
//! `bestmove` first, and GUIs count one `bestmove` per `go`: answering
//! every `go` keeps a GUI that skipped `stop` in step.
//!
//! End of input acts as `quit`, after giving a running search
//! [`END_OF_INPUT_GRACE`] to end by itself: then it is stopped, reports,
//! and the loop returns.

use crate::board::Board;
use crate::erased::{Erased, ErasedEngine, ErasedGame, ErasedRules};
use crate::game::{Game, Status};
use crate::input::{Line, LineReader};
use crate::moves::Move;
use crate::notation::{long_algebraic, long_algebraic_of};
use crate::rules::Rules;
use crate::search::params::{self, SearchParams, PARAMS, TUNING_VARIABLE};
use crate::search::{Score, SearchInfo, MAX_MULTIPV};
use crate::weights::{WEIGHT_NAMES, WEIGHT_RANGE};
use std::io::{BufRead, Write};
use std::sync::{Arc, Mutex};
use std::time::Duration;

pub mod go;

/// How long a search running at the end of input may still take to end by
/// itself before it is stopped (the process then exits well within a
/// second).
pub const END_OF_INPUT_GRACE: Duration = Duration::from_millis(500);

/// Where protocol output goes, shared with the search thread.
pub type Output = Arc<Mutex<dyn Write + Send>>;

/// Writes one line to `output` and flushes it (errors are ignored: a GUI
/// that closed its end will also close our input).
pub fn say(output: &Output, line: &str) {
    if let Ok(mut out) = output.lock() {
        let _ = writeln!(out, "{line}");
        let _ = out.flush();
    }
}

/// Output to the process's standard output.
pub fn stdout_output() -> Output {
    Arc::new(Mutex::new(std::io::stdout()))
}

/// Runs UCI over standard input and output.
pub fn run_stdio<R: Rules + Clone + Send + 'static>(rules: R) -> std::io::Result<()> {
    run_stdio_erased(Box::new(Erased(rules)))
}

/// Runs UCI over standard input and output (not generic: compiled once,
/// not in every engine; see [`crate::erased`]).
pub fn run_stdio_erased(rules: Box<dyn ErasedRules>) -> std::io::Result<()> {
    let stdin = std::io::stdin();
    run_erased(rules, &mut stdin.lock(), stdout_output())
}

/// Runs UCI, reading commands from `input` until `quit` or its end.
pub fn run<R, I>(rules: R, mut input: I, output: Output) -> std::io::Result<()>
where
    R: Rules + Clone + Send + 'static,
    I: BufRead,
{
    run_erased(Box::new(Erased(rules)), &mut input, output)
}

/// Runs UCI over type-erased rules, reading commands from `input` until
/// `quit` or its end.
pub fn run_erased(
    rules: Box<dyn ErasedRules>,
    input: &mut dyn BufRead,
    output: Output,
) -> std::io::Result<()> {
    let mut session = Session::new(rules, output);
    let mut reader = LineReader::new(input);
    loop {
        let line = match reader.next_line() {
            Ok(Some(line)) => line,
            Ok(None) => break,
            Err(error) => {
                session.worker.stop();
                return Err(error);
            }
        };
        match line {
            Line::Text(text) => {
                if !session.handle(&text) {
                    session.worker.stop();
                    return Ok(());
                }
            }
            refused => {
                if let Some(why) = refused.refusal() {
                    session.say(&format!("info string error: {why}"));
                }
            }
        }
    }
    session.worker.finish_within(END_OF_INPUT_GRACE);
    Ok(())
}

/// The long algebraic texts of `line`, played from `game`'s position; stops
/// at the first move that is not legal there.
pub fn line_text<R: Rules>(game: &Game<R>, line: &[R::Move]) -> Vec<String> {
    let rules = game.rules();
    line_texts_with(game, line, |_, mv, legal| {
        long_algebraic_of(rules, mv, legal)
    })
}

/// The texts of `line` played from `game`'s position, each written by
/// `text` from the position before the move, the move and the legal moves
/// there; stops at the first move not legal there.
pub fn line_texts_with<R: Rules>(
    game: &Game<R>,
    line: &[R::Move],
    mut text: impl FnMut(&R::Position, &R::Move, &[R::Move]) -> String,
) -> Vec<String> {
    let rules = game.rules();
    let mut position = game.position().clone();
    let mut legal = game.legal_moves().to_vec();
    let mut out = Vec::new();
    for mv in line {
        if !legal.contains(mv) {
            break;
        }
        out.push(text(&position, mv, &legal));
        position = rules.play(&position, mv);
        legal = rules.legal_moves(&position);
    }
    out
}

/// The long algebraic texts of `line`, played from `game`'s position;
/// stops at the first move that is not legal there.
pub fn erased_line_text(game: &dyn ErasedGame, line: &[Move]) -> Vec<String> {
    let variant = game.variant().clone();
    game.line_texts(line, &mut |_, mv, legal| {
        long_algebraic(&variant, mv, legal)
    })
}

/// A search's `info` line.
pub fn info_line(game: &dyn ErasedGame, info: &SearchInfo<Move>) -> String {
    let score = match info.score {
        Score::Centipawns(cp) => format!("cp {cp}"),
        Score::Mate(moves) => format!("mate {moves}"),
    };
    let pv = erased_line_text(game, &info.pv).join(" ");
    format!(
        "info depth {} seldepth {} multipv {} score {score} nodes {} nps {} time {} hashfull {} pv {pv}",
        info.depth,
        info.seldepth.max(info.depth),
        info.multipv,
        info.nodes,
        info.nps(),
        info.time_ms,
        info.hashfull
    )
}

struct Session {
    rules: Box<dyn ErasedRules>,
    game: Box<dyn ErasedGame>,
    worker: Box<dyn ErasedEngine>,
    output: Output,
}

impl Session {
    fn new(rules: Box<dyn ErasedRules>, output: Output) -> Session {
        let worker = rules.new_engine();
        let game = match rules.new_game() {
            Ok(game) => game,
            Err(error) => {
                say(
                    &output,
                    &format!("info string error: the start position: {error}"),
                );
                rules.game_from_position(&crate::position::Position::empty(8, 8, 0))
            }
        };
        Session {
            rules,
            game,
            worker,
            output,
        }
    }

    fn say(&self, line: &str) {
        say(&self.output, line);
    }

    /// Handles one command; false on `quit`.
    fn handle(&mut self, line: &str) -> bool {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((command, args)) = words.split_first() else {
            return true;
        };
        match *command {
            "uci" => self.identify(),
            "isready" => self.say("readyok"),
            "setoption" => {
                self.worker.stop();
                self.set_option(args);
            }
            "ucinewgame" => {
                self.worker.clear();
                self.reset_game();
            }
            "position" => {
                self.worker.stop();
                self.position(args);
            }
            "go" => self.go(args),
            "stop" | "ponderhit" => self.worker.stop(),
            "quit" => return false,
            "d" => self.show(),
            "eval" => {
                let value = self.game.evaluate(self.worker.evaluator());
                self.say(&format!(
                    "info string static evaluation {value} cp for the side to move"
                ));
            }
            "debug" | "register" => {}
            other => self.say(&format!("info string unknown command: {}", clip(other))),
        }
        true
    }

    fn identify(&self) {
        let variant = self.rules.variant();
        self.say(&format!("id name varc {}", variant.name));
        self.say("id author the varc authors");
        self.say(&format!(
            "option name UCI_Variant type combo default {id} var {id}",
            id = variant.id
        ));
        self.say("option name Hash type spin default 16 min 1 max 4096");
        self.say("option name Clear Hash type button");
        self.say(&format!(
            "option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}"
        ));
        if std::env::var_os(TUNING_VARIABLE).is_some() {
            let defaults = SearchParams::of(variant);
            for param in PARAMS {
                let default = defaults.get(param.name).unwrap_or(param.min);
                self.say(&format!(
                    "option name {} type spin default {default} min {} max {}",
                    param.name, param.min, param.max
                ));
            }
            let (low, high) = WEIGHT_RANGE;
            for name in WEIGHT_NAMES {
                let default = variant.evaluation.get(name).unwrap_or(0);
                self.say(&format!(
                    "option name {name} type spin default {default} min {low} max {high}"
                ));
            }
        }
        self.say("uciok");
    }

    fn set_option(&mut self, args: &[&str]) {
        let text = args.join(" ");
        let Some(rest) = text.strip_prefix("name ") else {
            self.say("info string setoption needs: name NAME [value VALUE]");
            return;
        };
        let (name, value) = match rest.split_once(" value ") {
            Some((name, value)) => (name.trim(), value.trim()),
            None => (rest.trim(), ""),
        };
        match name.to_ascii_lowercase().as_str() {
            "hash" => match value.parse::<usize>() {
                Ok(mb) if (1..=4096).contains(&mb) => self.worker.set_hash_mb(mb),
                _ => self.say(&format!(
                    "info string Hash must be 1 to 4096 MB, not {}",
                    clip(value)
                )),
            },
            "clear hash" => self.worker.clear(),
            "multipv" => match value.parse::<usize>() {
                Ok(lines) if (1..=MAX_MULTIPV).contains(&lines) => self.worker.set_multipv(lines),
                _ => self.say(&format!(
                    "info string MultiPV must be 1 to {MAX_MULTIPV}, not {}",
                    clip(value)
                )),
            },
            "uci_variant" => {
                let id = &self.rules.variant().id;
                if value != id {
                    self.say(&format!(
                        "info string this engine plays only {id}, not {}",
                        clip(value)
                    ));
                }
            }
            other if params::find(other).is_some() || WEIGHT_NAMES.contains(&other) => {
                let result = value
                    .parse::<i32>()
                    .map_err(|_| format!("{name} takes a whole number, not {}", clip(value)))
                    .and_then(|value| self.worker.set_search_param(other, value));
                if let Err(message) = result {
                    self.say(&format!("info string {message}"));
                }
            }
            _ => self.say(&format!("info string unknown option {}", clip(name))),
        }
    }

    fn reset_game(&mut self) {
        self.worker.stop();
        if let Ok(game) = self.rules.new_game() {
            self.game = game;
        }
    }

    /// `position startpos|fen FEN [moves M...]`. A bad FEN keeps the old
    /// position; a bad move keeps the moves before it.
    fn position(&mut self, args: &[&str]) {
        let moves_at = args.iter().position(|w| *w == "moves");
        let (setup, moves) = match moves_at {
            Some(i) => (&args[..i], &args[i + 1..]),
            None => (args, &[][..]),
        };
        let game = match setup.split_first() {
            Some((&"startpos", _)) => self.rules.new_game(),
            Some((&"fen", fen)) => self.rules.game_from_fen(&fen.join(" ")),
            _ => {
                self.say(
                    "info string position needs: startpos | fen FEN, then optionally moves ...",
                );
                return;
            }
        };
        let mut game = match game {
            Ok(game) => game,
            Err(error) => {
                self.say(&format!("info string error: {error}"));
                return;
            }
        };
        for text in moves {
            if let Err(error) = game.play_text(text) {
                self.say(&format!("info string error: move {}: {error}", clip(text)));
                break;
            }
        }
        self.game = game;
    }

    fn go(&mut self, args: &[&str]) {
        let (mut limits, mut notes) = go::read_go(args);
        self.keep_legal_search_moves(&mut limits.search_moves, &mut notes);
        for note in notes {
            self.say(&format!("info string {note}"));
        }
        if matches!(self.game.status(), Status::Ended(_)) || self.game.legal_moves().is_empty() {
            // UCI has no word for "no move"; `0000` (the null move) is
            // what engines answer by convention.
            self.say("info string the game is over: no move to search");
            self.say("bestmove 0000");
            return;
        }
        let output_info = Arc::clone(&self.output);
        let output_done = Arc::clone(&self.output);
        let game_info = self.game.boxed_clone();
        let game_done = self.game.boxed_clone();
        self.worker.start(
            &*self.game,
            limits,
            Box::new(move |info| say(&output_info, &info_line(&*game_info, info))),
            Box::new(move |result| {
                let line: Vec<Move> = result.best.into_iter().chain(result.ponder).collect();
                let texts = erased_line_text(&*game_done, &line);
                let text = match texts.as_slice() {
                    [] => "bestmove 0000".to_string(),
                    [best] => format!("bestmove {best}"),
                    [best, ponder, ..] => format!("bestmove {best} ponder {ponder}"),
                };
                say(&output_done, &text);
            }),
        );
    }

    /// Leaves out of `searchmoves` the texts that are not legal moves of the
    /// position, each with a note; when none is left, all moves are searched.
    fn keep_legal_search_moves(&self, search_moves: &mut Vec<String>, notes: &mut Vec<String>) {
        if search_moves.is_empty() {
            return;
        }
        let variant = self.rules.variant();
        let legal = self.game.legal_moves();
        let texts: Vec<String> = legal
            .iter()
            .map(|mv| long_algebraic(variant, mv, &legal))
            .collect();
        search_moves.retain(|text| {
            let known = texts.contains(text);
            if !known {
                notes.push(format!(
                    "go: searchmoves: {} is not a legal move here: left out",
                    clip(text)
                ));
            }
            known
        });
        if search_moves.is_empty() {
            notes.push("go: searchmoves names no legal move: searching all moves".to_string());
        }
    }

    fn show(&self) {
        let variant = self.rules.variant();
        self.say(&format!("info string fen {}", self.game.fen_for_clients()));
        self.say(&format!("info string key {:016x}", self.game.search_key()));
        for line in board_lines(variant, &self.game.position()) {
            self.say(&format!("info string {line}"));
        }
        match self.game.status() {
            Status::Ongoing => {
                let legal = self.game.legal_moves();
                let texts: Vec<String> = legal
                    .iter()
                    .map(|mv| long_algebraic(variant, mv, &legal))
                    .collect();
                self.say(&format!("info string legal moves {}", texts.join(" ")));
            }
            Status::Ended(result) => self.say(&format!(
                "info string game over: {} ({})",
                result.reason,
                result.score_text()
            )),
        }
    }
}

/// The position as text, top rank first: each square is its piece's FEN
/// text (marks included, so `R'` differs from `R`) or `.`, padded to a
/// common width.
pub fn board_lines(variant: &crate::model::Variant, position: &impl Board) -> Vec<String> {
    use crate::model::Square;
    let width = variant.letter_width();
    (0..position.ranks())
        .rev()
        .map(|rank| {
            let mut line = format!("{:>2} ", rank + 1);
            for file in 0..position.files() {
                let square = Square::new(file, rank);
                let text = if variant.board.holes.contains(square) {
                    " ".to_string()
                } else {
                    position
                        .piece_at(square)
                        .map_or(".".to_string(), |p| crate::fen::piece_text(variant, p))
                };
                line.push_str(&format!(" {text:<width$}"));
            }
            line
        })
        .chain(std::iter::once(format!(
            "   {}",
            (0..position.files())
                .map(|f| format!(" {:<width$}", (b'a' + f) as char))
                .collect::<String>()
        )))
        .collect()
}

/// At most 60 characters of user text, for messages.
pub(crate) fn clip(text: &str) -> String {
    let clipped: String = text.chars().take(60).collect();
    if clipped.len() < text.len() {
        format!("{clipped}...")
    } else {
        clipped
    }
}
