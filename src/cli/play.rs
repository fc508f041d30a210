//! `varc play FILE`: a game in the terminal, against the engine or a friend.
//!
//! The board is drawn after every move with the side to move; promoted
//! pieces keep their marks (`R'`) and are shown in colour on a terminal,
//! the last move's squares are bracketed (`[P]`) and a royal piece in
//! check is marked (`!K!`). Moves are typed in SAN (`Nf3`, `exd8=N'`) or
//! long algebraic (`e2e4`); a refused move says why. Commands: `help`,
//! `moves`, `history`, `hint`, `go` (the engine moves for the side to
//! move), `claim`, `offer`, `accept`, `resign`, `undo` (takes back the last
//! move and the engine's reply; casual games only), `save FILE` (never
//! over an existing file; `save! FILE` replaces it), `load FILE`, `new`, `flip`, `quit`.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::Instant;
use varc::interp::Interpreter;
use varc::output::{self, OutputError};
use varc_runtime::fen::piece_text;
use varc_runtime::game::record::load;
use varc_runtime::game::{Action, Game, GameError, Status, TimeControl};
use varc_runtime::input::{Line, LineReader};
use varc_runtime::model::{Color, Square, Variant};
use varc_runtime::moves::Move;
use varc_runtime::notation::san;
use varc_runtime::position::Position;
use varc_runtime::rules::Rules;
use varc_runtime::search::{Engine, Limits, Score};

/// Who the engine plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum EngineSide {
    /// The engine plays White.
    White,
    /// The engine plays Black.
    Black,
    /// No engine: two people at one terminal.
    None,
}

/// Arguments of `varc play`.
#[derive(clap::Args)]
pub struct PlayArgs {
    /// The rules file.
    pub file: PathBuf,
    /// Which side the engine plays.
    #[arg(long, value_enum, default_value = "black")]
    pub engine: EngineSide,
    /// The engine's search depth.
    #[arg(long, conflicts_with = "movetime")]
    pub depth: Option<u32>,
    /// The engine's time per move, in milliseconds (default 1000 without
    /// clocks).
    #[arg(long)]
    pub movetime: Option<u64>,
    /// Clocks: `BASE+INCREMENT` in seconds (`300+5`).
    #[arg(long)]
    pub clock: Option<TimeControl>,
    /// Start from this position.
    #[arg(long, conflicts_with = "load")]
    pub fen: Option<String>,
    /// Go on with a saved game.
    #[arg(long)]
    pub load: Option<PathBuf>,
    /// A rated game: no takebacks.
    #[arg(long)]
    pub rated: bool,
    /// No colours.
    #[arg(long)]
    pub plain: bool,
}

struct Terminal {
    color: bool,
    flipped: bool,
}

impl Terminal {
    fn paint(&self, code: &str, text: &str) -> String {
        if self.color {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }
}

/// Runs the game loop until `quit` or the end of input.
pub fn run(args: PlayArgs) -> ExitCode {
    let Some(rules) = super::load_interpreter(&args.file) else {
        return ExitCode::FAILURE;
    };
    let game = match start(&rules, &args) {
        Ok(game) => game,
        Err(message) => {
            eprintln!("error: {message}");
            return ExitCode::FAILURE;
        }
    };
    let terminal = Terminal {
        color: !args.plain
            && std::io::stdout().is_terminal()
            && std::env::var_os("NO_COLOR").is_none(),
        flipped: args.engine == EngineSide::White,
    };
    let mut session = Session {
        engine: Engine::new(rules.variant()),
        rules,
        game,
        terminal,
        args,
        redraw: false,
    };
    session.main_loop();
    ExitCode::SUCCESS
}

fn start(rules: &Interpreter, args: &PlayArgs) -> Result<Game<Interpreter>, String> {
    let mut game = if let Some(path) = &args.load {
        let text = varc::bounded::read_text(path).map_err(|e| e.to_string())?;
        load(rules.clone(), &text).map_err(|e| format!("{}: {e}", path.display()))?
    } else if let Some(fen) = &args.fen {
        Game::from_fen(rules.clone(), fen).map_err(|e| e.to_string())?
    } else {
        Game::new(rules.clone()).map_err(|e| e.to_string())?
    };
    if let (Some(control), true) = (args.clock, game.clock().is_none()) {
        game = game.with_time_control(control);
    }
    Ok(game)
}

struct Session {
    rules: Interpreter,
    engine: Engine,
    game: Game<Interpreter>,
    terminal: Terminal,
    args: PlayArgs,
    redraw: bool,
}

impl Session {
    fn engine_color(&self) -> Option<Color> {
        match self.args.engine {
            EngineSide::White => Some(Color::White),
            EngineSide::Black => Some(Color::Black),
            EngineSide::None => None,
        }
    }

    fn main_loop(&mut self) {
        let variant = self.rules.variant();
        println!("{} -- type a move (e4, Nf3, e2e4) or 'help'.", variant.name);
        let stdin = std::io::stdin();
        let mut lines = LineReader::new(stdin.lock());
        let mut shown: Option<(usize, bool)> = None;
        loop {
            let state = (self.game.steps().len(), self.game.result().is_some());
            if shown != Some(state) || self.redraw {
                self.draw();
                shown = Some(state);
                self.redraw = false;
            }
            if self.game.result().is_none() && self.engine_color() == Some(self.side()) {
                self.engine_move();
                continue;
            }
            let prompt = match self.game.status() {
                Status::Ongoing => format!("{}> ", self.side()),
                Status::Ended(_) => "game over> ".to_string(),
            };
            print!("{prompt}");
            let _ = std::io::stdout().flush();
            let asked = Instant::now();
            let line = match lines.next_line() {
                Ok(Some(Line::Text(line))) => line,
                // A bad line is refused; the game goes on.
                Ok(Some(refused)) => {
                    if let Some(why) = refused.refusal() {
                        println!("error: {why}");
                    }
                    continue;
                }
                Ok(None) => {
                    println!();
                    return;
                }
                Err(error) => {
                    println!();
                    eprintln!("error: reading the terminal: {error}");
                    return;
                }
            };
            let elapsed = asked.elapsed().as_millis() as u64;
            if !self.command(line.trim(), elapsed) {
                return;
            }
        }
    }

    fn side(&self) -> Color {
        self.game.position().side_to_move()
    }

    /// Handles one line; false to quit.
    fn command(&mut self, line: &str, elapsed_ms: u64) -> bool {
        let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
        let rest = rest.trim();
        let outcome: Result<(), String> = match word {
            "" => Ok(()),
            "quit" | "exit" => return false,
            "help" | "?" => {
                println!("{}", HELP);
                Ok(())
            }
            "moves" => {
                let texts: Vec<String> = self.sans(self.game.legal_moves());
                println!("legal moves ({}): {}", texts.len(), texts.join(" "));
                Ok(())
            }
            "history" => {
                self.history();
                Ok(())
            }
            "hint" => {
                let (best, score) = self.think();
                match best {
                    Some(mv) => println!(
                        "hint: {} ({score})",
                        san(&self.rules, self.game.position(), &mv)
                    ),
                    None => println!("no move"),
                }
                Ok(())
            }
            "go" => {
                self.engine_move();
                Ok(())
            }
            "claim" => self.game.claim().map_err(|e| e.to_string()),
            "offer" => self.offer(),
            "accept" => self.game.accept().map_err(|e| e.to_string()),
            "resign" => self.game.resign().map_err(|e| e.to_string()),
            "undo" | "takeback" => self.takeback(),
            "save" => self.save(rest, false),
            "save!" => self.save(rest, true),
            "load" => self.load(rest),
            "new" => {
                match Game::new(self.rules.clone()) {
                    Ok(game) => {
                        self.game = match self.args.clock {
                            Some(control) => game.with_time_control(control),
                            None => game,
                        };
                        self.engine.clear();
                        self.redraw = true;
                    }
                    Err(error) => println!("cannot start: {error}"),
                }
                Ok(())
            }
            "flip" => {
                self.terminal.flipped = !self.terminal.flipped;
                self.redraw = true;
                Ok(())
            }
            "board" => {
                self.redraw = true;
                Ok(())
            }
            _ => self.human_move(line, elapsed_ms),
        };
        if let Err(message) = outcome {
            println!(
                "{}",
                self.terminal.paint("31", &format!("refused: {message}"))
            );
        }
        true
    }

    fn offer(&mut self) -> Result<(), String> {
        self.game.offer().map_err(|e| e.to_string())?;
        if self.engine_color() == Some(self.side().opponent()) {
            println!("the engine answers on its turn: it accepts when it is not better");
        }
        Ok(())
    }

    fn takeback(&mut self) -> Result<(), String> {
        if self.args.rated {
            return Err("no takebacks in a rated game".into());
        }
        let mut taken = 0;
        let wanted = if self.engine_color().is_some() { 2 } else { 1 };
        while taken < wanted {
            match self.game.undo() {
                Some(Action::Move(_)) => taken += 1,
                Some(_) => {}
                None => break,
            }
            if self.engine_color() == Some(self.side()) && taken > 0 && self.game.steps().is_empty()
            {
                break;
            }
        }
        if taken == 0 {
            return Err("nothing to take back".into());
        }
        // Never leave the engine to move right after a takeback.
        if self.engine_color() == Some(self.side()) {
            while let Some(action) = self.game.undo() {
                if matches!(action, Action::Move(_)) {
                    break;
                }
            }
        }
        Ok(())
    }

    /// `save FILE` writes a new file; an existing one is replaced only by
    /// `save! FILE` (the `!` is the player's "yes, replace it").
    fn save(&self, path: &str, overwrite: bool) -> Result<(), String> {
        if path.is_empty() {
            return Err("save needs a file name".into());
        }
        let text = self.game.to_record(&[("Event", "varc play")]);
        output::write_file(Path::new(path), text.as_bytes(), overwrite).map_err(|e| match e {
            OutputError::Exists { .. } => {
                format!("{path} already exists; 'save! {path}' replaces it")
            }
            other => other.to_string(),
        })?;
        println!("saved to {path}");
        Ok(())
    }

    fn load(&mut self, path: &str) -> Result<(), String> {
        if path.is_empty() {
            return Err("load needs a file name".into());
        }
        let text =
            varc::bounded::read_text(std::path::Path::new(path)).map_err(|e| e.to_string())?;
        self.game = load(self.rules.clone(), &text).map_err(|e| e.to_string())?;
        self.engine.clear();
        self.redraw = true;
        println!("loaded {path}");
        Ok(())
    }

    fn human_move(&mut self, text: &str, elapsed_ms: u64) -> Result<(), String> {
        if self.game.result().is_some() {
            return Err("the game is over ('new', 'undo', 'save' or 'quit')".into());
        }
        let mv = self
            .game
            .parse_move(text)
            .map_err(|error| self.why_refused(text, error))?;
        self.game
            .play_timed(&mv, Some(elapsed_ms))
            .map_err(|error| self.why_refused(text, error))
    }

    /// A refusal in words (the shared [`varc::refusal::why_refused`]).
    fn why_refused(&self, text: &str, error: GameError) -> String {
        varc::refusal::why_refused(&self.game, text, error)
    }

    fn limits(&self) -> Limits {
        if let Some(depth) = self.args.depth {
            return Limits::depth(depth);
        }
        if let Some(ms) = self.args.movetime {
            return Limits::movetime(ms);
        }
        match self.game.clock() {
            Some(clock) => {
                let mut limits = Limits::default();
                for color in Color::ALL {
                    limits.time_left_ms[color.index()] = Some(clock.remaining_ms(color));
                    limits.increment_ms[color.index()] = clock.control().increment_ms;
                }
                limits
            }
            None => Limits::movetime(1000),
        }
    }

    fn think(&mut self) -> (Option<Move>, String) {
        let limits = self.limits();
        let result = self
            .engine
            .search(&self.game, &limits, &AtomicBool::new(false), &mut |_| {});
        let score = match Score::of(result.value) {
            Score::Centipawns(cp) => format!("{:+.2}", cp as f64 / 100.0),
            Score::Mate(n) if n > 0 => format!("mate in {n}"),
            Score::Mate(n) => format!("mated in {}", -n),
        };
        (
            result.best,
            format!("{score}, depth {}, {} nodes", result.depth, result.nodes),
        )
    }

    fn engine_move(&mut self) {
        if self.game.result().is_some() {
            return;
        }
        let side = self.side();
        print!("{} thinks... ", side);
        let _ = std::io::stdout().flush();
        let started = Instant::now();
        let limits = self.limits();
        let result = self
            .engine
            .search(&self.game, &limits, &AtomicBool::new(false), &mut |_| {});
        let elapsed = started.elapsed().as_millis() as u64;
        // A standing draw offer: accept when not better.
        if self.game.pending_offer() == Some(side.opponent())
            && result.value <= 0
            && self.game.accept().is_ok()
        {
            println!("accepts the draw offer");
            return;
        }
        if result.claim.is_some_and(|c| c >= result.value) && self.game.claim().is_ok() {
            println!("claims");
            return;
        }
        let Some(mv) = result.best else {
            println!("has no move");
            return;
        };
        let text = san(&self.rules, self.game.position(), &mv);
        match self.game.play_timed(&mv, Some(elapsed)) {
            Ok(()) => println!("{text}"),
            Err(error) => println!("its move was refused: {error}"),
        }
    }

    fn sans(&self, moves: &[Move]) -> Vec<String> {
        moves
            .iter()
            .map(|mv| san(&self.rules, self.game.position(), mv))
            .collect()
    }

    fn history(&self) {
        let mut line = String::new();
        let mut number = 1;
        for step in self.game.steps() {
            if step.by == Color::White || line.is_empty() {
                line.push_str(&format!(
                    "{number}.{} ",
                    if step.by == Color::Black { ".." } else { "" }
                ));
            }
            line.push_str(&step.text);
            line.push(' ');
            if step.by == Color::Black {
                number += 1;
            }
        }
        println!(
            "{}",
            if line.is_empty() {
                "no moves yet".to_string()
            } else {
                line
            }
        );
    }

    fn draw(&self) {
        let variant = self.rules.variant();
        let position = self.game.position();
        let width = variant.letter_width();
        let last = self.game.steps().iter().rev().find_map(|s| match s.action {
            Action::Move(mv) => Some(mv),
            _ => None,
        });
        let in_check = self.rules.in_check(position);
        let side = position.side_to_move();
        let files: Vec<u8> = if self.terminal.flipped {
            (0..position.files()).rev().collect()
        } else {
            (0..position.files()).collect()
        };
        let ranks: Vec<u8> = if self.terminal.flipped {
            (0..position.ranks()).collect()
        } else {
            (0..position.ranks()).rev().collect()
        };
        let (top, bottom) = if self.terminal.flipped {
            (Color::White, Color::Black)
        } else {
            (Color::Black, Color::White)
        };
        println!();
        if let Some(hand) = hand_line(variant, position, top) {
            println!("{hand}");
        }
        for rank in ranks {
            let mut row = format!("{:>2} ", rank + 1);
            for &file in &files {
                let square = Square::new(file, rank);
                let piece = position.piece_at(square);
                let text = match piece {
                    _ if variant.board.holes.contains(square) => " ".repeat(width),
                    None => format!("{:<width$}", "."),
                    Some(p) => format!("{:<width$}", piece_text(variant, p)),
                };
                let marked_check =
                    in_check && piece.is_some_and(|p| p.is_royal() && p.color() == side);
                let last_square = last.is_some_and(|mv| mv.from == square || mv.to == square);
                let (open, close) = if marked_check {
                    ("!", "!")
                } else if last_square {
                    ("[", "]")
                } else {
                    (" ", " ")
                };
                let painted = match piece {
                    Some(_) if marked_check => self.terminal.paint("1;31", &text),
                    Some(p) if p.is_promoted() || piece_text(variant, p).chars().count() > 1 => {
                        self.terminal.paint("1;33", &text)
                    }
                    Some(p) if p.color() == Color::White => self.terminal.paint("1", &text),
                    Some(_) => self.terminal.paint("36", &text),
                    None => self.terminal.paint("2", &text),
                };
                row.push_str(open);
                row.push_str(&painted);
                row.push_str(close);
            }
            println!("{row}");
        }
        let mut footer = String::from("   ");
        for &file in &files {
            footer.push_str(&format!(" {:<width$} ", (b'a' + file) as char));
        }
        println!("{footer}");
        if let Some(hand) = hand_line(variant, position, bottom) {
            println!("{hand}");
        }
        if let Some(clock) = self.game.clock() {
            println!(
                "clock: white {}  black {}",
                varc_runtime::game::clock::format_seconds(clock.remaining_ms(Color::White)),
                varc_runtime::game::clock::format_seconds(clock.remaining_ms(Color::Black))
            );
        }
        if let Some(step) = self
            .game
            .steps()
            .iter()
            .rev()
            .find(|s| matches!(s.action, Action::Move(_)))
        {
            println!("last move: {} {}", step.by, step.text);
        }
        match self.game.status() {
            Status::Ongoing => {
                let check = if in_check { " -- in check!" } else { "" };
                println!("{side} to move{check}");
                for claim in self.game.claimable() {
                    println!(
                        "  (you may 'claim': {} -> {})",
                        claim.reason, claim.result.kind
                    );
                }
                if let Some(offerer) = self.game.pending_offer() {
                    println!("  ({offerer} offers a draw: 'accept' or move on)");
                }
            }
            Status::Ended(result) => {
                println!(
                    "{}",
                    self.terminal.paint(
                        "1",
                        &format!(
                            "Game over: {} -- {} (score {})",
                            result.kind,
                            result.reason,
                            result.score_text()
                        )
                    )
                );
                for award in self.game.awards() {
                    println!(
                        "  {} earned {} ({} win{})",
                        award.player,
                        award.name,
                        award.wins,
                        if award.wins == 1 { "" } else { "s" }
                    );
                }
            }
        }
    }
}

const HELP: &str = "\
moves: SAN (e4, Nf3, exd5, e8=Q, R'xe5, O-O) or long algebraic (e2e4, e7e8q)
commands:
  moves            the legal moves
  history          the moves so far
  hint             the engine's suggestion
  go               let the engine move for the side to move
  claim            claim what the rules allow now (draw, null game)
  offer / accept   offer a draw / accept the opponent's offer
  resign           resign
  undo             take back your last move (casual games)
  save FILE        save the game as a record (a new file; save! FILE replaces one)
  load FILE        go on with a saved game
  new              a new game
  board / flip     show / turn the board
  quit             leave";

/// `color`'s hand as a line, each kind held with its count (`white's hand:
/// P 2, N 1`), in a variant with hands; `None` in one without.
fn hand_line(variant: &Variant, position: &Position, color: Color) -> Option<String> {
    if !variant.hands.in_use() {
        return None;
    }
    let held: Vec<String> = variant
        .pieces
        .iter()
        .enumerate()
        .filter_map(|(kind, piece)| {
            let count = position.in_hand(color, kind);
            let letter = match color {
                Color::White => piece.letter.clone(),
                Color::Black => piece.letter.to_lowercase(),
            };
            (count > 0).then(|| format!("{letter} {count}"))
        })
        .collect();
    let held = if held.is_empty() {
        "empty".to_string()
    } else {
        held.join(", ")
    };
    Some(format!("{color}'s hand: {held}"))
}
