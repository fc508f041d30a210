//! The XBoard / WinBoard protocol (CECP, version 2), for any [`Rules`] back
//! end: `varc xboard FILE` over the interpreter, a generated engine's
//! `main` over its compiled rules ([`run_stdio`]).
//!
//! The handshake (`xboard`, `protover 2`) answers with the features
//! `setboard=1 usermove=1 ping=1 ... variants="..." done=1`. A variant that
//! XBoard knows ([`xboard_built_in_name`]: chess is `normal`) is announced
//! under XBoard's name and described no further. For the others the engine
//! tells XBoard the pieces and position, `setup (PIECE-TO-CHAR)
//! FILESxRANKS+0_fairy FEN` and one `piece NAME& BETZA` per kind, in the
//! handshake before `done=1` and in answer to `variant` once XBoard's step
//! is over, with the position the step left (see `send_pending_setup`); not
//! after `new`.
//!
//! **Letters.** XBoard names a piece with one letter, or a promoted piece
//! with `+` and its base's letter; [`LetterMap`] says which kind gets which
//! name (PPC's rooking is `+R`, the rook's promoted form, so that XBoard
//! with legality testing accepts the rook's promotion `a1a7+`).
//!
//! Also: `new`, `setboard`, `usermove`, `go`, `force`, `playother`,
//! `white`/`black`, `level`, `st`, `sd`, `time`, `otim`, `?`, `ping`,
//! `result`, `undo`, `remove`, `post`/`nopost`, `hint`, `draw` (accepted
//! when the rules allow it and a short search finds the engine no better
//! than equal), `quit`. Moves, thinking output, hints and refusals use
//! XBoard's letters. Anything
//! else gets `Error (unknown command): ...`; a refused move gets `Illegal
//! move (why): MOVE`. The engine claims a draw or null game (`1/2-1/2
//! {reason}`) when the rules let it and the claim is worth at least its
//! best move.
//!
//! **The command loop never waits for a search** (it runs on the
//! [`Worker`](crate::search::worker::Worker)'s thread). `ping` during a search is answered right after
//! the engine's move, as CECP asks, without holding up the commands after
//! it; `draw` and `hint` during a search get no answer (an offer may be
//! ignored). `go` in a finished game answers the result line. Time values
//! (`st`, `level`, `time`, `otim`) that are not finite numbers or exceed a
//! week ([`MAX_TIME_MS`]) get `Error (...)` and change nothing; a negative
//! `time`/`otim` reads as 0. Lines that are not UTF-8 or too long get
//! `Error (...)` too. End of input acts as `quit`, after giving a running
//! search [`END_OF_INPUT_GRACE`] to end by itself.

use crate::erased::{Erased, ErasedEngine, ErasedGame, ErasedRules};
use crate::fen::parse_fen;
use crate::game::{GameResult, ResultKind};
use crate::input::{Line, LineReader};
use crate::model::{Color, Variant};
use crate::moves::Move;
use crate::position::Position;
use crate::rules::Rules;
use crate::search::time::MAX_TIME_MS;
use crate::search::{Limits, Score, SearchResult};
use crate::uci::{clip, say, stdout_output, Output, END_OF_INPUT_GRACE};
use std::io::BufRead;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::Duration;

mod letters;
pub use letters::{mover_of, LetterMap};

/// The depth and node limits of the short searches that judge a draw
/// offer and answer `hint`: a few hundredths of a second.
const QUICK_SEARCH_DEPTH: u32 = 6;
const QUICK_SEARCH_NODES: u64 = 30_000;

/// How long a command that interrupts a search waits for it to end by
/// itself when a `ping` sent during it is still unanswered.
const PING_GRACE: std::time::Duration = std::time::Duration::from_secs(5);

/// Runs the XBoard protocol over standard input and output.
pub fn run_stdio<R: Rules + Clone + Send + 'static>(rules: R) -> std::io::Result<()> {
    run_stdio_erased(Box::new(Erased(rules)))
}

/// Runs the XBoard protocol over standard input and output (not generic:
/// compiled once, not in every engine; see [`crate::erased`]).
pub fn run_stdio_erased(rules: Box<dyn ErasedRules>) -> std::io::Result<()> {
    let stdin = std::io::BufReader::new(std::io::stdin());
    run_erased(rules, Box::new(stdin), stdout_output())
}

/// How long XBoard's input stays quiet before the answer to `variant` is
/// sent: XBoard writes the commands of one step (a new game, a loaded
/// position) at once.
const QUIET: Duration = Duration::from_millis(100);

/// Runs the XBoard protocol, reading commands from `input` until `quit` or
/// its end.
pub fn run<R, I>(rules: R, input: I, output: Output) -> std::io::Result<()>
where
    R: Rules + Clone + Send + 'static,
    I: BufRead + Send + 'static,
{
    run_erased(Box::new(Erased(rules)), Box::new(input), output)
}

/// Runs the XBoard protocol over type-erased rules, reading commands from
/// `input` until `quit` or its end.
pub fn run_erased(
    rules: Box<dyn ErasedRules>,
    input: Box<dyn BufRead + Send>,
    output: Output,
) -> std::io::Result<()> {
    let mut session = Session::new(rules, output);
    let (sender, lines) = mpsc::channel();
    // A reader thread, so the loop can tell when the input goes quiet.
    std::thread::spawn(move || {
        let mut reader = LineReader::new(input);
        loop {
            let next = reader.next_line().transpose();
            let last = !matches!(next, Some(Ok(_)));
            if let Some(line) = next {
                if sender.send(line).is_err() {
                    return;
                }
            }
            if last {
                return;
            }
        }
    });
    loop {
        let line = if session.setup_pending {
            match lines.recv_timeout(QUIET) {
                Ok(line) => line,
                Err(RecvTimeoutError::Timeout) => {
                    session.send_pending_setup();
                    continue;
                }
                Err(RecvTimeoutError::Disconnected) => break,
            }
        } else {
            match lines.recv() {
                Ok(line) => line,
                Err(_) => break,
            }
        };
        let line = match line {
            Ok(line) => line,
            Err(error) => {
                session.worker.stop();
                return Err(error);
            }
        };
        match &line {
            Line::Text(text) => {
                if !session.handle(text) {
                    session.worker.stop();
                    return Ok(());
                }
            }
            Line::TooLong { .. } => session.error("line too long", "ignored"),
            Line::NotUtf8 { lossy } => session.error("not UTF-8 text", lossy),
        }
    }
    session.send_pending_setup();
    session.worker.finish_within(END_OF_INPUT_GRACE);
    Ok(())
}

/// The commands XBoard sends in the step that starts a game or loads a
/// position, after `variant`: a pending `setup` waits until they are over.
const SETUP_STEP: &[&str] = &[
    "", "new", "variant", "force", "setboard", "level", "st", "sd", "post", "nopost", "hard",
    "easy", "ping", "time", "otim", "computer", "random", "accepted", "rejected", "name", "rating",
    "ics", "cores", "memory", "egtpath", "option",
];

/// XBoard's built-in variants that a rules file may define under the same
/// id, with their board sizes (the Laws of Chess are XBoard's `normal`).
const XBOARD_BUILT_IN: &[(&str, &str, u8, u8)] = &[
    ("chess", "normal", 8, 8),
    ("capablanca", "capablanca", 10, 8),
    ("gothic", "gothic", 10, 8),
    ("janus", "janus", 10, 8),
    ("knightmate", "knightmate", 8, 8),
    ("shatranj", "shatranj", 8, 8),
    ("makruk", "makruk", 8, 8),
    ("courier", "courier", 12, 8),
    ("falcon", "falcon", 10, 8),
    ("berolina", "berolina", 8, 8),
    ("3check", "3check", 8, 8),
    ("grand", "grand", 10, 10),
    // XBoard keeps the holdings itself and sends drops as `P@e4`.
    ("crazyhouse", "crazyhouse", 8, 8),
];

/// XBoard's own name for `variant` when XBoard knows the variant (its id
/// and board size match one of XBoard's built-in variants): XBoard then
/// draws and checks it without `setup` or `piece` commands.
pub fn xboard_built_in_name(variant: &Variant) -> Option<&'static str> {
    XBOARD_BUILT_IN
        .iter()
        .find(|(id, _, files, ranks)| {
            *id == variant.id && (variant.board.files, variant.board.ranks) == (*files, *ranks)
        })
        .map(|(_, name, _, _)| *name)
}

/// The names XBoard may give this variant: XBoard's built-in name where
/// the variant is one of XBoard's (the one announced in `variants=`), and
/// the variant's id.
pub fn variant_names(variant: &Variant) -> Vec<String> {
    let mut names = Vec::new();
    if let Some(name) = xboard_built_in_name(variant) {
        names.push(name.to_string());
    }
    if !names.contains(&variant.id) {
        names.push(variant.id.clone());
    }
    names
}

/// The result as XBoard writes it: `1-0`, `0-1` or `1/2-1/2`, with the
/// reason and the variant's scores.
pub fn result_text(result: &GameResult) -> String {
    let token = match result.kind {
        ResultKind::Win(Color::White) => "1-0",
        ResultKind::Win(Color::Black) => "0-1",
        _ => match result.wins[0].cmp(&result.wins[1]) {
            std::cmp::Ordering::Greater => "1-0",
            std::cmp::Ordering::Less => "0-1",
            std::cmp::Ordering::Equal => "1/2-1/2",
        },
    };
    format!("{token} {{{} ({})}}", result.reason, result.score_text())
}

/// Shared state of the session, also read by the search thread when it
/// plays its move.
struct Shared {
    game: Box<dyn ErasedGame>,
    /// Bumped whenever the position changes under a running search, so a
    /// stale result is not played.
    generation: u64,
    /// Whether a search is running whose `on_done` has not yet run.
    searching: bool,
    /// `ping` tokens received during a search: answered after its move.
    pending_pongs: Vec<String>,
}

struct Session {
    rules: Box<dyn ErasedRules>,
    letters: LetterMap,
    shared: Arc<Mutex<Shared>>,
    worker: Box<dyn ErasedEngine>,
    output: Output,
    force: bool,
    engine_side: Option<Color>,
    depth: Option<u32>,
    seconds_per_move: Option<u64>,
    increment_ms: u64,
    moves_per_session: u32,
    base_ms: u64,
    time_ms: [Option<u64>; 2],
    post: bool,
    /// `variant` was answered by nothing yet: see [`Session::send_pending_setup`].
    setup_pending: bool,
    /// `ping`s received while the setup is pending, answered after it.
    held_pongs: Vec<String>,
}

impl Session {
    fn new(rules: Box<dyn ErasedRules>, output: Output) -> Session {
        let game = match rules.new_game() {
            Ok(game) => game,
            Err(error) => {
                say(&output, &format!("# error: the start position: {error}"));
                rules.game_from_position(&Position::empty(8, 8, 0))
            }
        };
        Session {
            letters: LetterMap::new(rules.variant()),
            worker: rules.new_engine(),
            shared: Arc::new(Mutex::new(Shared {
                game,
                generation: 0,
                searching: false,
                pending_pongs: Vec::new(),
            })),
            rules,
            output,
            force: false,
            engine_side: Some(Color::Black),
            depth: None,
            seconds_per_move: None,
            increment_ms: 0,
            moves_per_session: 0,
            base_ms: 0,
            time_ms: [None; 2],
            post: false,
            setup_pending: false,
            held_pongs: Vec::new(),
        }
    }

    fn say(&self, line: &str) {
        say(&self.output, line);
    }

    fn error(&self, kind: &str, command: &str) {
        self.say(&format!("Error ({kind}): {}", clip(command)));
    }

    /// Stops a search; its move is not played. But when a `ping` sent
    /// during the search awaits its `pong`, that ping promised the move
    /// (a script may send `go`, `ping`, `force` without waiting): the search
    /// first gets [`PING_GRACE`] to end by itself and play it. A GUI that
    /// waits for `pong` never meets this wait.
    fn interrupt(&mut self) {
        let pong_pending = self
            .shared
            .lock()
            .is_ok_and(|shared| !shared.pending_pongs.is_empty());
        if pong_pending {
            self.worker.finish_within(PING_GRACE);
        }
        if let Ok(mut shared) = self.shared.lock() {
            shared.generation += 1;
        }
        self.worker.stop();
    }

    fn with_game<T>(&self, f: impl FnOnce(&mut Box<dyn ErasedGame>) -> T) -> Option<T> {
        self.shared
            .lock()
            .ok()
            .map(|mut shared| f(&mut shared.game))
    }

    /// Handles one command; false on `quit`.
    fn handle(&mut self, line: &str) -> bool {
        let line = line.trim();
        let (command, rest) = line.split_once(' ').unwrap_or((line, ""));
        let rest = rest.trim();
        if self.setup_pending && !SETUP_STEP.contains(&command) {
            self.send_pending_setup();
        }
        match command {
            "" => {}
            "xboard" | "accepted" | "rejected" | "random" | "hard" | "easy" | "computer"
            | "name" | "rating" | "ics" | "bk" | "cores" | "memory" | "egtpath" | "option"
            | "exit" => {}
            "protover" => self.features(),
            "new" => {
                self.interrupt();
                if let Ok(game) = self.rules.new_game() {
                    self.with_game(|g| *g = game);
                }
                self.worker.clear();
                self.force = false;
                self.engine_side = Some(Color::Black);
                self.depth = None;
                // No `setup` here: XBoard sends `variant` after `new` for
                // every variant it does not know, and a `setup` answering
                // `new` would reach XBoard after a position it loads at
                // start-up (`-lpf`) and reset its board.
            }
            "variant" => {
                if variant_names(self.rules.variant())
                    .iter()
                    .any(|n| n == rest)
                {
                    self.setup_pending = true;
                } else {
                    self.error("unsupported variant", rest);
                }
            }
            "setboard" => self.set_board(rest),
            "usermove" => self.user_move(rest),
            "go" => {
                self.force = false;
                self.engine_side = self.with_game(|g| g.side_to_move());
                // A finished game has no move to think about: say how it
                // ended rather than nothing.
                match self.with_game(|g| g.result()).flatten() {
                    Some(result) => self.say(&result_text(&result)),
                    None => self.think(),
                }
            }
            "playother" => {
                self.force = false;
                self.engine_side = self.with_game(|g| g.side_to_move().opponent());
            }
            "force" => {
                self.interrupt();
                self.force = true;
            }
            "white" | "black" => {
                self.interrupt();
                let us = if command == "white" {
                    Color::White
                } else {
                    Color::Black
                };
                self.engine_side = Some(us.opponent());
            }
            "level" => self.level(rest, line),
            "st" => match seconds_to_ms(rest) {
                Some(ms) if ms > 0 => self.seconds_per_move = Some(ms),
                _ => self.error(
                    &format!(
                        "bad st, expected seconds above 0, at most {}",
                        MAX_TIME_MS / 1000
                    ),
                    line,
                ),
            },
            "sd" => match rest.parse::<u32>() {
                Ok(depth) if depth > 0 => self.depth = Some(depth.min(90)),
                _ => self.error("bad sd", line),
            },
            "time" | "otim" => match centiseconds_to_ms(rest) {
                Some(ms) => {
                    let engine = self.engine_side.unwrap_or(Color::White);
                    let side = if command == "time" {
                        engine
                    } else {
                        engine.opponent()
                    };
                    self.time_ms[side.index()] = Some(ms);
                }
                None => self.error(
                    &format!(
                        "bad {command}, expected centiseconds, at most {}",
                        MAX_TIME_MS / 10
                    ),
                    line,
                ),
            },
            "?" => self.worker.stop(),
            "ping" if self.setup_pending => self.held_pongs.push(rest.to_string()),
            "ping" => self.ping(rest),
            "result" => {
                self.interrupt();
                self.force = true;
            }
            "undo" | "remove" => {
                self.interrupt();
                let count = if command == "undo" { 1 } else { 2 };
                self.with_game(|g| {
                    for _ in 0..count {
                        while matches!(g.undo(), Some(a) if !matches!(a, crate::game::Action::Move(_))) {}
                    }
                });
            }
            "post" => self.post = true,
            "nopost" => self.post = false,
            // During a search neither waits for it: the offer is ignored
            // (CECP lets an engine ignore one), no hint is given.
            "draw" => {
                if !self.worker.is_running() && self.accepts_draw() {
                    self.say("offer draw");
                }
            }
            "hint" => {
                if self.worker.is_running() {
                    return true;
                }
                if let Some((text, _)) = self.quick_search() {
                    self.say(&format!("Hint: {text}"));
                }
            }
            "quit" => return false,
            _ => {
                // Protocol version 1 GUIs send bare moves.
                let is_move = self
                    .with_game(|g| {
                        let text = self.letters.from_xboard_move(
                            self.rules.variant(),
                            &g.position(),
                            line,
                        );
                        g.parse_move(&text).is_ok()
                    })
                    .unwrap_or(false);
                if is_move {
                    self.user_move(line);
                } else {
                    self.error("unknown command", line);
                }
            }
        }
        true
    }

    fn features(&self) {
        let variant = self.rules.variant();
        let names = variant_names(variant)
            .into_iter()
            .next()
            .unwrap_or_else(|| variant.id.clone());
        self.say("feature done=0");
        // sigterm=1: varc needs no warning before it is ended, and clients
        // such as python-chess refuse engines that ask to be spared SIGTERM.
        self.say(&format!(
            "feature myname=\"varc {}\" variants=\"{names}\" setboard=1 usermove=1 ping=1 \
             playother=1 colors=0 time=1 draw=1 sigint=0 sigterm=1 reuse=1 analyze=0 \
             san=0 nps=0 debug=1 exclude=0",
            variant.name
        ));
        // The board format and pieces before `done=1`: XBoard waits for
        // `done=1` before it sends `new` or loads a position (`-lpf`), so
        // its board has the variant's format before any position arrives.
        self.setup();
        self.say("feature done=1");
    }

    /// Answers `variant` once XBoard's step is over, with the position the
    /// step left (a loaded one with `-lpf`), then the `ping`s it held.
    ///
    /// XBoard forgets the engine's pieces at every new game and needs a
    /// `setup` naming the parent variant `fairy` before it answers the
    /// `ping` that follows `variant`. It takes such a `setup` as a change
    /// of variant and resets its board to the `setup`'s position, and it
    /// does not wait for the answer: with `-lpf` it sends the loaded
    /// position right after `variant`. Answered at once, the `setup` would
    /// put back the start position in XBoard while the engine had the
    /// loaded one.
    fn send_pending_setup(&mut self) {
        if !std::mem::take(&mut self.setup_pending) {
            return;
        }
        self.setup();
        for ping in std::mem::take(&mut self.held_pongs) {
            self.say(&format!("pong {ping}"));
        }
    }

    /// Tells XBoard the pieces and the current position of a variant XBoard
    /// does not know; nothing for XBoard's built-in variants, whose rules
    /// and pieces XBoard has (a `setup` would switch XBoard to `fairy`).
    fn setup(&self) {
        let variant = self.rules.variant();
        if xboard_built_in_name(variant).is_some() {
            return;
        }
        let fen = self
            .with_game(|g| self.letters.xboard_fen(&g.position(), &g.fen_for_clients()))
            .unwrap_or_default();
        self.say(&format!(
            "setup ({}) {}x{}+0_fairy {fen}",
            self.letters.piece_to_char(),
            variant.board.files,
            variant.board.ranks
        ));
        for (kind, piece) in variant.pieces.iter().enumerate() {
            for name in self.letters.names(kind) {
                self.say(&format!("piece {name}& {}", piece.betza));
            }
        }
    }

    fn set_board(&mut self, fen: &str) {
        self.interrupt();
        let variant = self.rules.variant();
        let ours = self.letters.from_xboard_fen(variant, fen);
        match parse_fen(variant, &ours) {
            Ok(position) => {
                let game = self.rules.game_from_position(&position);
                self.with_game(|g| *g = game);
            }
            Err(error) => {
                self.say(&format!("tellusererror Illegal position: {error}"));
                self.error("bad FEN", fen);
            }
        }
    }

    /// A short search of the current position (after a running search has
    /// played its move): the best move in XBoard's letters and its value
    /// for the side to move.
    fn quick_search(&mut self) -> Option<(String, i32)> {
        self.worker.stop();
        let game = self.with_game(|g| g.boxed_clone())?;
        if game.result().is_some() || game.legal_moves().is_empty() {
            return None;
        }
        let limits = Limits {
            depth: Some(QUICK_SEARCH_DEPTH),
            nodes: Some(QUICK_SEARCH_NODES),
            ..Limits::default()
        };
        let result = self.worker.search(&*game, &limits)?;
        let best = result.best?;
        let text = self.letters.line_text(&*game, &[best]).into_iter().next()?;
        Some((text, result.value))
    }

    /// Whether the engine accepts a draw offer now: the rules allow a draw
    /// by agreement, and a short search finds the engine no better than
    /// equal (value <= 0 for the engine's side; in force mode, where it
    /// plays neither side, for the side to move).
    fn accepts_draw(&mut self) -> bool {
        let allowed = self
            .with_game(|g| g.agreement_refusal().is_none())
            .unwrap_or(false);
        if !allowed {
            return false;
        }
        let Some(side_to_move) = self.with_game(|g| g.side_to_move()) else {
            return false;
        };
        let engine = match (self.force, self.engine_side) {
            (false, Some(side)) => side,
            _ => side_to_move,
        };
        match self.quick_search() {
            Some((_, value)) => {
                let for_engine = if engine == side_to_move {
                    value
                } else {
                    -value
                };
                for_engine <= 0
            }
            // No move to search: the game is over, nothing to agree.
            None => false,
        }
    }

    fn user_move(&mut self, text: &str) {
        // A move sent while the engine thinks on its own turn comes after
        // the engine's move: the search is stopped and plays it.
        self.worker.stop();
        let variant = self.rules.variant();
        let outcome = self.with_game(|g| {
            let position = g.position();
            let ours = self.letters.from_xboard_move(variant, &position, text);
            let mover = mover_of(&position, &ours);
            match g.parse_move(&ours).and_then(|mv| g.play(&mv)) {
                Ok(()) => Ok(g.result()),
                Err(error) => Err((error.to_string(), mover)),
            }
        });
        match outcome {
            Some(Ok(Some(result))) => self.say(&result_text(&result)),
            Some(Ok(None)) if !self.force => self.think(),
            Some(Err((why, mover))) => {
                // The reason may name a move (`add the piece letter, e.g.
                // e7e8n'`): in XBoard's letters.
                let why = why
                    .split(' ')
                    .map(|word| self.letters.to_xboard_text(variant, word, mover))
                    .collect::<Vec<_>>()
                    .join(" ");
                self.say(&format!("Illegal move ({why}): {}", clip(text)))
            }
            Some(Ok(None)) | None => {}
        }
    }

    /// `level MPS BASE INC`: BASE in minutes (`5`, `0.5`) or `MIN:SEC`,
    /// INC in seconds; each finite, at least 0 and at most a week.
    fn level(&mut self, args: &str, line: &str) {
        let words: Vec<&str> = args.split_whitespace().collect();
        let [moves, base, increment] = words.as_slice() else {
            self.error("bad level", line);
            return;
        };
        let base_ms = match base.split_once(':') {
            Some((minutes, seconds)) => minutes
                .parse::<u64>()
                .ok()
                .zip(seconds.parse::<u64>().ok())
                .and_then(|(m, s)| m.checked_mul(60)?.checked_add(s)?.checked_mul(1000))
                .filter(|ms| *ms <= MAX_TIME_MS),
            None => base
                .parse::<f64>()
                .ok()
                .and_then(|minutes| ms_of_seconds(minutes * 60.0)),
        };
        match (moves.parse::<u32>(), base_ms, seconds_to_ms(increment)) {
            (Ok(moves), Some(base_ms), Some(increment_ms)) => {
                self.moves_per_session = moves;
                self.base_ms = base_ms;
                self.increment_ms = increment_ms;
                self.seconds_per_move = None;
            }
            _ => self.error(
                &format!(
                    "bad level, expected MOVES MINUTES[:SECONDS] INCREMENT, at most {} minutes",
                    MAX_TIME_MS / 60_000
                ),
                line,
            ),
        }
    }

    fn limits(&self, side: Color, moves_made: u32) -> Limits {
        let mut limits = Limits {
            depth: self.depth,
            ..Limits::default()
        };
        if let Some(ms) = self.seconds_per_move {
            limits.movetime_ms = Some(ms);
        } else if let Some(left) = self.time_ms[side.index()] {
            limits.time_left_ms[side.index()] = Some(left);
            limits.increment_ms[side.index()] = self.increment_ms;
            if self.moves_per_session > 0 {
                let made = moves_made / 2;
                let to_go = self.moves_per_session - made % self.moves_per_session;
                limits.moves_to_go = Some(to_go);
            }
        } else if self.depth.is_none() {
            let base = if self.base_ms > 0 {
                self.base_ms
            } else {
                60_000
            };
            limits.time_left_ms[side.index()] = Some(base);
            limits.increment_ms[side.index()] = self.increment_ms;
        }
        limits
    }

    /// `ping N`: `pong N` once every command before it is done. A search
    /// that runs is part of that, so its `on_done` answers after the move;
    /// the loop does not wait for it.
    fn ping(&mut self, token: &str) {
        if let Ok(mut shared) = self.shared.lock() {
            if shared.searching {
                shared.pending_pongs.push(token.to_string());
                return;
            }
        }
        self.say(&format!("pong {token}"));
    }

    /// Starts the engine thinking if it is its turn.
    fn think(&mut self) {
        // A search still running plays its move first (and clears
        // `searching`) before this one reads the game.
        self.worker.stop();
        let Some((game, generation)) = self
            .shared
            .lock()
            .ok()
            .map(|s| (s.game.boxed_clone(), s.generation))
        else {
            return;
        };
        let side = game.side_to_move();
        if self.force || self.engine_side != Some(side) || game.result().is_some() {
            return;
        }
        if let Ok(mut shared) = self.shared.lock() {
            shared.searching = true;
        }
        let limits = self.limits(side, game.moves_made());
        let post = self.post;
        let info_output = Arc::clone(&self.output);
        let done_output = Arc::clone(&self.output);
        let shared = Arc::clone(&self.shared);
        let letters = self.letters.clone();
        let done_letters = self.letters.clone();
        let info_game = game.boxed_clone();
        self.worker.start(
            &*game,
            limits,
            Box::new(move |info| {
                if post {
                    let score = match info.score {
                        Score::Centipawns(cp) => cp,
                        Score::Mate(n) if n > 0 => 100_000 + n,
                        Score::Mate(n) => -100_000 + n,
                    };
                    let pv = letters.line_text(&*info_game, &info.pv).join(" ");
                    say(
                        &info_output,
                        &format!(
                            "{} {score} {} {} {pv}",
                            info.depth,
                            info.time_ms / 10,
                            info.nodes
                        ),
                    );
                }
            }),
            Box::new(move |result| {
                let Ok(mut shared) = shared.lock() else {
                    return;
                };
                if shared.generation == generation {
                    play_search_result(&mut shared.game, &result, &done_letters, &done_output);
                }
                shared.searching = false;
                for token in std::mem::take(&mut shared.pending_pongs) {
                    say(&done_output, &format!("pong {token}"));
                }
            }),
        );
    }
}

/// Plays the search's `result` in `game` and says so: a claim when the
/// rules allow one worth at least the best move, else `move MOVE` (and the
/// result line if that move ends the game).
fn play_search_result(
    game: &mut Box<dyn ErasedGame>,
    result: &SearchResult<Move>,
    letters: &LetterMap,
    output: &Output,
) {
    let claim_now = result.claim.is_some_and(|c| c >= result.value) && !game.claimable().is_empty();
    if claim_now && game.claim().is_ok() {
        if let Some(result) = game.result() {
            say(output, &result_text(&result));
        }
        return;
    }
    let Some(mv) = result.best else { return };
    let legal = game.legal_moves();
    let text = letters.to_xboard_move(game.variant(), &game.position(), &mv, &legal);
    if game.play(&mv).is_ok() {
        say(output, &format!("move {text}"));
        if let Some(result) = game.result() {
            say(output, &result_text(&result));
        }
    }
}

/// A non-negative, finite number of seconds (`5`, `0.5`) in milliseconds,
/// at most [`MAX_TIME_MS`]; `None` for anything else (`inf`, `nan`, `-1`,
/// `1e30`).
fn seconds_to_ms(text: &str) -> Option<u64> {
    ms_of_seconds(text.trim().parse::<f64>().ok()?)
}

/// `seconds` in milliseconds, if finite, not negative and at most
/// [`MAX_TIME_MS`].
fn ms_of_seconds(seconds: f64) -> Option<u64> {
    let ms = seconds * 1000.0;
    // The range check also refuses NaN (every comparison with it fails).
    if !(0.0..=MAX_TIME_MS as f64).contains(&ms) {
        return None;
    }
    Some(ms.round() as u64)
}

/// XBoard's clock reading (`time`, `otim`) in centiseconds, in
/// milliseconds. A negative reading (a clock that ran out) is 0; one above
/// [`MAX_TIME_MS`] or not a whole number is `None`.
fn centiseconds_to_ms(text: &str) -> Option<u64> {
    let centiseconds = text.trim().parse::<i64>().ok()?;
    let ms = u64::try_from(centiseconds).unwrap_or(0).checked_mul(10)?;
    (ms <= MAX_TIME_MS).then_some(ms)
}
