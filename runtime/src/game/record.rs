//! Game records: PGN-like text that names the variant, saved from a
//! [`Game`] and loaded back by replaying it (C9, G3).
//!
//! ```text
//! [Variant "ppc"]
//! [VariantName "Piece Promotion Chess"]
//! [TimeControl "300+5"]
//! [Result "2-0"]
//! [Termination "checkmate"]
//!
//! 1. e4 {emt 2.5} e5 2. Bc4 offer Nc6 3. Qh5 Nf6 4. Qxf7# {checkmate} 2-0
//! ```
//!
//! - Tags `[Name "value"]` come first: the writer starts with PGN's Seven
//!   Tag Roster (`Event`, `Site`, `Date`, `Round`, `White`, `Black`,
//!   `Result`), `?` for unknown values. `Variant` (the variant's id, which
//!   is Fairy-Stockfish's name where it has the variant) is required but
//!   for chess: standard PGN without it loads as chess; `FEN` gives a start position other than the variant's;
//!   `TimeControl` (`BASE+INCREMENT` in seconds) starts clocks; `Counters`
//!   gives counters that do not start at zero (`kings-captured 2 0`: the
//!   counter's name, White's and Black's values; several separated by `,`); `Result`
//!   (the scores, White first: `1-0`, `1/2-1/2`, `2-0`, `0-0`, `3-1`) and
//!   `Termination` (the reason) are written for a finished game. Other tags
//!   are kept as they are.
//! - Moves in SAN with the marks of the seeds: `+` check, `#` a checkmate
//!   under the Laws of Chess (also where the variant has no check rule, A1),
//!   `*` after a capture of a royal piece, and after an en passant capture
//!   the mover's count of them in Roman numerals (`exf6 II`) when the
//!   variant counts en passant captures (A12). Move numbers are optional.
//! - Actions of the side to move: `claim`, `offer`, `accept`, `resign`, and
//!   `wait` (time passing without a move). `{emt SECONDS}` after a move or
//!   `wait` is the time it took on the clock.
//! - NAGs (`$1`) and variations (`( ... )`, nested too) are skipped when
//!   loading, so standard PGN loads.
//! - Other comments `{...}` and `;` line comments are ignored when loading;
//!   the writer uses them for awarded wins and the game's end ("Game ended
//!   by True 5 Queens"), with `}` and `\` inside written `\}` and `\\` (a
//!   reason may hold them; PGN has no escape, and a bare `}` would end
//!   the comment early).
//! - The result token closes the movetext.
//!
//! Loading replays every step in a fresh [`Game`]; any error names the line
//! and column of the token, and nothing is half-applied: the caller gets a
//! game only if the whole record replays, to the recorded result. A
//! recorded result where the replayed game goes on was decided off the
//! board (standard PGN ends a resigned or adjudicated game so): the game is
//! loaded going on, and [`load_record`] gives that result; a result the
//! replay contradicts (`1-0` after Black's checkmate) is refused. The
//! writer gives an ongoing game such a result from its `Result` tag.

mod lexer;

use super::clock::{format_seconds, parse_seconds, Clock, TimeControl};
use super::events::MoveEvents;
use super::{Action, Game, GameError, Step};
use crate::board::Board;
use crate::fen::{parse_fen, write_fen_for_clients};
use crate::model::{Color, EventPattern};
use crate::notation::san;
use crate::position::Position;
use crate::rules::Rules;
use lexer::{line_column, roman, tokens, Token};
use thiserror::Error;

pub use lexer::roman as roman_numeral;

/// A record that cannot be loaded: where and why.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum RecordError {
    /// Text that is not part of the record syntax, or a misplaced token.
    #[error("line {line}, column {column}: {message}")]
    Syntax {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What is wrong.
        message: String,
    },
    /// A step the game refuses.
    #[error("line {line}, column {column}: {text}: {error}")]
    Replay {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// The step as written.
        text: String,
        /// Why the game refused it.
        error: GameError,
    },
    /// No `[Variant "..."]` tag.
    #[error("the record names no variant: a [Variant \"...\"] tag is required")]
    MissingVariant,
    /// The replayed game does not end as the record says.
    #[error("line {line}, column {column}: the record says {recorded}, but the replayed game gives {replayed}")]
    ResultMismatch {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// The recorded result.
        recorded: String,
        /// The replayed one.
        replayed: String,
    },
}

/// The SAN of `mv` with the record's marks (see the module documentation).
pub fn move_text<R: Rules + ?Sized>(
    rules: &R,
    before: &R::Position,
    mv: &R::Move,
    events: &MoveEvents,
    _after: &R::Position,
) -> String {
    let mut text = san(rules, before, mv)
        .trim_end_matches(['+', '#'])
        .to_string();
    if events.captured_royal() {
        text.push('*');
    }
    if events.laws_checkmate {
        text.push('#');
    } else if events.gives_check {
        text.push('+');
    }
    if events.en_passant {
        let variant = rules.variant();
        let counter = variant
            .counters
            .iter()
            .position(|c| c.events.contains(&EventPattern::EnPassant));
        if let Some(counter) = counter {
            let count = before
                .counters(events.mover)
                .get(counter)
                .copied()
                .unwrap_or(0)
                + 1;
            text.push(' ');
            text.push_str(&roman(count));
        }
    }
    text
}

/// The Seven Tag Roster of PGN but `Result` (written from the game), in
/// PGN's order, with the values PGN gives unknown ones.
const SEVEN_TAG_ROSTER: [(&str, &str); 6] = [
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "?"),
    ("White", "?"),
    ("Black", "?"),
];

/// The `Variant` tag of a record of `variant`: its id. The bundled
/// variants that Fairy-Stockfish (and pychess, python-chess) also know
/// carry Fairy-Stockfish's names as ids (`chess`, `capablanca`,
/// `losalamos`), so the tag is the name those tools look for.
pub fn pgn_variant_name(variant: &crate::model::Variant) -> &str {
    &variant.id
}

/// A comment `{TEXT}` holding `text` whatever it says: a `}` in an award's
/// name or a reason (rules-file text) would end the comment early and
/// break the record, so `}` and `\` are written `\}` and `\\`, as tag
/// values escape `"`. [`uncomment`] reads them back.
fn comment(text: &str) -> String {
    let mut out = String::from("{");
    for c in text.chars() {
        if matches!(c, '}' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('}');
    out
}

/// The text of a comment token `{...}` (see [`comment`]).
fn uncomment(token: &str) -> String {
    let inner = token
        .strip_prefix('{')
        .and_then(|t| t.strip_suffix('}'))
        .unwrap_or(token);
    let mut out = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.extend(chars.next()),
            c => out.push(c),
        }
    }
    out
}

fn quote(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

impl<R: Rules> Game<R> {
    /// The game as a record (see the module documentation). `tags` (such
    /// as `White`, `Event`) give the Seven Tag Roster's values (`?` where
    /// not given) and any other tags, written after the variant's.
    pub fn to_record(&self, tags: &[(&str, &str)]) -> String {
        let variant = self.rules.variant();
        let mut out = String::new();
        let mut tag = |name: &str, value: &str| {
            out.push_str(&format!("[{name} \"{}\"]\n", quote(value)));
        };
        let given = |name: &str| tags.iter().find(|(n, _)| *n == name).map(|(_, v)| *v);
        for (name, default) in SEVEN_TAG_ROSTER {
            tag(name, given(name).unwrap_or(default));
        }
        // An ongoing game may carry a result decided off the board (an
        // adjudication): `tags`' Result, written if the game has none.
        let result_text = match self.result() {
            Some(result) => result.score_text(),
            None => given("Result")
                .filter(|text| parse_score_text(text).is_some())
                .unwrap_or("*")
                .to_string(),
        };
        tag("Result", &result_text);
        tag("Variant", pgn_variant_name(variant));
        tag("VariantName", &variant.name);
        let start = write_fen_for_clients(&self.rules, self.start_position());
        if start != variant.start_fen {
            tag("SetUp", "1");
            tag("FEN", &start);
        }
        let counters = counters_text(variant, self.start_position());
        if !counters.is_empty() {
            tag("Counters", &counters);
        }
        if let Some(clock) = self
            .steps
            .first()
            .map_or(self.clock(), |s| s.before.clock.as_ref())
        {
            tag("TimeControl", &clock.control().to_string());
        }
        for (name, value) in tags {
            // The game's own result and reason stand over given ones.
            let own = *name == "Result" || (*name == "Termination" && self.result().is_some());
            if !SEVEN_TAG_ROSTER.iter().any(|(n, _)| n == name) && !own {
                tag(name, value);
            }
        }
        if let Some(result) = self.result() {
            tag("Termination", &result.reason);
        }
        out.push('\n');
        let mut words = Vec::new();
        let mut need_number = true;
        for step in &self.steps {
            let number = step.before.position.fullmove_number();
            if let Action::Move(_) = step.action {
                match step.by {
                    Color::White => words.push(format!("{number}.")),
                    Color::Black if need_number => words.push(format!("{number}...")),
                    Color::Black => {}
                }
                need_number = false;
            } else {
                need_number = true;
            }
            words.push(step.text.clone());
            if let Some(ms) = step.elapsed_ms {
                words.push(format!("{{emt {}}}", format_seconds(ms)));
            }
            for award in &step.awards {
                words.push(comment(&format!(
                    "{}: {} win{} to {}",
                    award.name,
                    award.wins,
                    if award.wins == 1 { "" } else { "s" },
                    award.player
                )));
            }
            if matches!(step.action, Action::Move(_)) && step.by == Color::Black {
                need_number = true;
            }
        }
        match self.result() {
            Some(result) => {
                words.push(comment(&result.reason));
                words.push(result.score_text());
            }
            None => words.push(result_text),
        }
        let mut line_length = 0;
        for word in words {
            if line_length > 0 && line_length + 1 + word.len() > 79 {
                out.push('\n');
                line_length = 0;
            } else if line_length > 0 {
                out.push(' ');
                line_length += 1;
            }
            line_length += word.len();
            out.push_str(&word);
        }
        out.push('\n');
        out
    }
}

/// A step of a record, with where it was written.
struct Written {
    text: String,
    offset: usize,
    elapsed_ms: Option<u64>,
}

/// Reads the tag `[Name "value"]`.
fn read_tag(slice: &str) -> (String, String) {
    let inner = &slice[1..slice.len() - 1];
    let (name, rest) = inner.split_once([' ', '\t']).unwrap_or((inner, ""));
    let rest = rest.trim();
    let value = rest.get(1..rest.len().saturating_sub(1)).unwrap_or("");
    let mut unescaped = String::new();
    let mut chars = value.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(next) = chars.next() {
                unescaped.push(next);
            }
        } else {
            unescaped.push(c);
        }
    }
    (name.to_string(), unescaped)
}

/// Loads a record of the variant of `rules`: replays it in a new game.
pub fn load<R: Rules>(rules: R, text: &str) -> Result<Game<R>, RecordError> {
    load_record(rules, text).map(|loaded| loaded.game)
}

/// A loaded record: the replayed game, and the result the record gives
/// where the game did not end on the board.
#[derive(Debug)]
pub struct LoadedRecord<R: Rules> {
    /// The game, replayed to its last step.
    pub game: Game<R>,
    /// The recorded result (`1-0`, `1/2-1/2`, `2-1`) of a game that the
    /// replay leaves going: decided off the board, by a resignation or an
    /// agreement not written as a step, a flag fall or an adjudication.
    pub off_board: Option<String>,
}

/// The scores, White first, of a result as records write it (`1-0`,
/// `1/2-1/2`, `2+1/2-1/2`); `None` for `*` or other text.
pub fn parse_score_text(text: &str) -> Option<[f64; 2]> {
    let score = |part: &str| -> Option<f64> {
        let (whole, half) = match part.split_once('+') {
            Some((whole, "1/2")) => (whole, 0.5),
            Some(_) => return None,
            None if part == "1/2" => return Some(0.5),
            None => (part, 0.0),
        };
        Some(whole.parse::<u32>().ok()? as f64 + half)
    };
    let (white, black) = text.split_once('-')?;
    Some([score(white)?, score(black)?])
}

/// Loads a record like [`load`], keeping a result decided off the board.
pub fn load_record<R: Rules>(rules: R, text: &str) -> Result<LoadedRecord<R>, RecordError> {
    // Editors on some systems start UTF-8 files with a byte order mark.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let at = |offset: usize| line_column(text, offset);
    let syntax = |offset: usize, message: String| {
        let (line, column) = at(offset);
        RecordError::Syntax {
            line,
            column,
            message,
        }
    };
    let tokens = tokens(text).map_err(|offset| {
        let bad: String = text[offset..]
            .chars()
            .take_while(|c| !c.is_whitespace())
            .collect();
        syntax(offset, format!("unexpected {bad:?}"))
    })?;
    let mut tags: Vec<(String, String, usize)> = Vec::new();
    let mut steps: Vec<Written> = Vec::new();
    let mut result: Option<(String, usize)> = None;
    // Variations (lines not played, possibly nested) are skipped whole.
    let mut variation_depth = 0usize;
    for (token, span) in tokens {
        let slice = &text[span.clone()];
        match token {
            Token::VariationStart => {
                variation_depth += 1;
                continue;
            }
            Token::VariationEnd => {
                variation_depth = variation_depth
                    .checked_sub(1)
                    .ok_or_else(|| syntax(span.start, "')' with no variation open".to_string()))?;
                continue;
            }
            _ if variation_depth > 0 => continue,
            _ => {}
        }
        if let Some((_, offset)) = &result {
            let _ = offset;
            return Err(syntax(span.start, format!("{slice:?} after the result")));
        }
        match token {
            Token::Tag if steps.is_empty() => {
                let (name, value) = read_tag(slice);
                if let Some((_, first, _)) = tags.iter().find(|(n, _, _)| *n == name) {
                    if *first != value {
                        return Err(syntax(
                            span.start,
                            format!("a second [{name}] tag, {value:?}, after {first:?}"),
                        ));
                    }
                }
                tags.push((name, value, span.start));
            }
            Token::Tag => return Err(syntax(span.start, "a tag after the moves".to_string())),
            Token::MoveNumber | Token::Roman | Token::Nag => {}
            Token::VariationStart | Token::VariationEnd => {}
            Token::Comment => {
                let text = uncomment(slice);
                let inner = text.trim();
                if let Some(seconds) = inner.strip_prefix("emt ") {
                    let ms = parse_seconds(seconds).ok_or_else(|| {
                        syntax(span.start, format!("cannot read the time {seconds:?}"))
                    })?;
                    match steps.last_mut() {
                        Some(step) if step.elapsed_ms.is_none() => step.elapsed_ms = Some(ms),
                        _ => {
                            return Err(syntax(
                                span.start,
                                "a time with no move before it".to_string(),
                            ))
                        }
                    }
                }
            }
            Token::Action | Token::Move => steps.push(Written {
                text: slice.to_string(),
                offset: span.start,
                elapsed_ms: None,
            }),
            Token::Result => result = Some((slice.to_string(), span.start)),
        }
    }
    if variation_depth > 0 {
        return Err(syntax(
            text.len(),
            "a variation '(' is not closed".to_string(),
        ));
    }
    let tag = |name: &str| tags.iter().find(|(n, _, _)| n == name);
    let variant = rules.variant();
    // PGN without a Variant tag is a game of chess.
    let (id, offset) = match tag("Variant") {
        Some((_, id, offset)) => (id.as_str(), *offset),
        None if variant.id == "chess" => ("chess", 0),
        None => return Err(RecordError::MissingVariant),
    };
    let names_this_variant = [variant.id.as_str(), variant.name.as_str()]
        .iter()
        .any(|name| name.eq_ignore_ascii_case(id))
        || (variant.id == "chess" && id.eq_ignore_ascii_case("standard"));
    if !names_this_variant {
        return Err(syntax(
            offset,
            format!(
                "the record is for variant {id:?}, these rules are {:?}",
                variant.id
            ),
        ));
    }
    let position = match tag("FEN") {
        Some((_, fen, offset)) => {
            parse_fen(variant, fen).map_err(|e| syntax(*offset, format!("invalid FEN: {e}")))?
        }
        None => parse_fen(variant, &variant.start_fen.clone())
            .map_err(|e| syntax(0, format!("the variant's start FEN: {e}")))?,
    };
    let mut position = position;
    if let Some((_, value, offset)) = tag("Counters") {
        read_counters(variant, &mut position, value).map_err(|message| syntax(*offset, message))?;
    }
    let clock = match tag("TimeControl") {
        Some((_, value, offset)) => Some(Clock::new(
            value
                .parse::<TimeControl>()
                .map_err(|e| syntax(*offset, e.to_string()))?,
        )),
        None => None,
    };
    if let (Some((_, tagged, _)), Some((token, offset))) = (tag("Result"), &result) {
        if tagged != token {
            return Err(syntax(
                *offset,
                format!("the result {token:?} contradicts the [Result {tagged:?}] tag"),
            ));
        }
    }
    let recorded = tag("Result").map(|(_, v, o)| (v.clone(), *o)).or(result);
    let position = rules.import(&position);
    let mut game = Game::from_position(rules, position, clock);
    for step in &steps {
        replay_step(&mut game, step).map_err(|error| {
            let (line, column) = at(step.offset);
            RecordError::Replay {
                line,
                column,
                text: step.text.clone(),
                error,
            }
        })?;
    }
    let mut off_board = None;
    if let Some((recorded, offset)) = recorded {
        let replayed = game.result().map_or("*".to_string(), |r| r.score_text());
        if replayed == "*" && recorded != "*" {
            // Decided off the board: a resignation or agreement the record
            // does not write as a step, a flag fall, an adjudication (as
            // standard PGN records them).
            off_board = Some(recorded);
        } else if recorded != replayed {
            let (line, column) = at(offset);
            return Err(RecordError::ResultMismatch {
                line,
                column,
                recorded,
                replayed,
            });
        }
    }
    Ok(LoadedRecord { game, off_board })
}

fn replay_step<R: Rules>(game: &mut Game<R>, step: &Written) -> Result<(), GameError> {
    match step.text.as_str() {
        "wait" => game.wait(step.elapsed_ms.unwrap_or(0)),
        "claim" | "offer" | "accept" | "resign" => game.act(&step.text),
        text => {
            let bare = text.trim_end_matches(['+', '#', '*', '!', '?']);
            let mv = game.parse_move(bare)?;
            game.play_timed(&mv, step.elapsed_ms)
        }
    }
}

/// The steps of a game as the record writes them, one per entry.
pub fn step_texts<R: Rules>(steps: &[Step<R>]) -> Vec<String> {
    steps.iter().map(|s| s.text.clone()).collect()
}

/// The start counters that are not zero: `NAME WHITE BLACK, ...`.
fn counters_text(variant: &crate::model::Variant, position: &impl Board) -> String {
    variant
        .counters
        .iter()
        .enumerate()
        .filter_map(|(id, counter)| {
            let white = position
                .counters(Color::White)
                .get(id)
                .copied()
                .unwrap_or(0);
            let black = position
                .counters(Color::Black)
                .get(id)
                .copied()
                .unwrap_or(0);
            (white != 0 || black != 0).then(|| format!("{} {white} {black}", counter.name))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Sets the counters a `Counters` tag gives.
fn read_counters(
    variant: &crate::model::Variant,
    position: &mut Position,
    text: &str,
) -> Result<(), String> {
    for entry in text.split(',').map(str::trim).filter(|e| !e.is_empty()) {
        let words: Vec<&str> = entry.split_whitespace().collect();
        let [name, white, black] = words.as_slice() else {
            return Err(format!(
                "cannot read counters {entry:?}: expected NAME WHITE BLACK"
            ));
        };
        let id = variant
            .counters
            .iter()
            .position(|c| c.name == *name)
            .ok_or_else(|| format!("{name:?} is not a counter of this variant"))?;
        for (color, value) in [(Color::White, white), (Color::Black, black)] {
            let value: u32 = value
                .parse()
                .map_err(|_| format!("cannot read counter value {value:?}"))?;
            if let Some(slot) = position.counters_mut(color).get_mut(id) {
                *slot = value;
            }
        }
    }
    Ok(())
}
