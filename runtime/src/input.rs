//! One bounded line reader for every loop that reads commands (UCI, XBoard,
//! `varc play`, a generated engine's `batch` mode).
//!
//! `BufRead::lines` stops at the first byte that is not UTF-8 and grows its
//! buffer without bound on a line with no newline. This reader takes bytes
//! up to `\n`, keeps at most [`MAX_LINE_BYTES`] of a line (the rest of an
//! overlong line is read and dropped, never accumulated), and hands back a
//! bad line as [`Line::TooLong`] or [`Line::NotUtf8`], so that the loop can
//! answer with its protocol's error and go on with the next line. Invalid
//! UTF-8 is refused rather than replaced: a command with a replaced byte
//! could still read as some other, valid command.

use std::io::{BufRead, ErrorKind};

/// The longest line kept, in bytes: a UCI `position ... moves` line holds
/// about 200,000 plies (a game of 20,000 plies is 100 KB of moves).
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// One line of input, without its `\n` (or `\r\n`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// A line of UTF-8 text.
    Text(String),
    /// A line longer than [`MAX_LINE_BYTES`]; its bytes are dropped.
    TooLong {
        /// The line's length in bytes.
        bytes: usize,
    },
    /// A line that is not UTF-8 text.
    NotUtf8 {
        /// The line with each bad sequence replaced by `\u{FFFD}`, for
        /// messages only.
        lossy: String,
    },
}

impl Line {
    /// The message a loop shows for a refused line; `None` for text.
    pub fn refusal(&self) -> Option<String> {
        match self {
            Line::Text(_) => None,
            Line::TooLong { bytes } => Some(format!(
                "line of {bytes} bytes is longer than {MAX_LINE_BYTES} bytes: ignored"
            )),
            Line::NotUtf8 { .. } => Some("line is not UTF-8 text: ignored".to_string()),
        }
    }
}

/// Reads [`Line`]s from a buffered input.
#[derive(Debug)]
pub struct LineReader<I> {
    input: I,
}

impl<I: BufRead> LineReader<I> {
    /// A reader of `input`.
    pub fn new(input: I) -> LineReader<I> {
        LineReader { input }
    }

    /// The next line; `Ok(None)` at the end of input. A last line without
    /// `\n` is still a line. Only errors of the input itself (not its
    /// contents) are errors.
    pub fn next_line(&mut self) -> std::io::Result<Option<Line>> {
        let mut kept: Vec<u8> = Vec::new();
        let mut length = 0usize;
        let mut saw_any = false;
        loop {
            let buffer = match self.input.fill_buf() {
                Ok(buffer) => buffer,
                Err(error) if error.kind() == ErrorKind::Interrupted => continue,
                Err(error) => return Err(error),
            };
            if buffer.is_empty() {
                if !saw_any {
                    return Ok(None);
                }
                break;
            }
            saw_any = true;
            let (chunk, ends_line) = match buffer.iter().position(|b| *b == b'\n') {
                Some(at) => (&buffer[..at], true),
                None => (buffer, false),
            };
            length = length.saturating_add(chunk.len());
            if length <= MAX_LINE_BYTES {
                kept.extend_from_slice(chunk);
            } else {
                // Over the cap: stop keeping bytes (and free those kept).
                kept = Vec::new();
            }
            let used = chunk.len() + usize::from(ends_line);
            self.input.consume(used);
            if ends_line {
                break;
            }
        }
        if kept.last() == Some(&b'\r') {
            kept.pop();
            length -= 1;
        }
        if length > MAX_LINE_BYTES {
            return Ok(Some(Line::TooLong { bytes: length }));
        }
        Ok(Some(match String::from_utf8(kept) {
            Ok(text) => Line::Text(text),
            Err(error) => Line::NotUtf8 {
                lossy: String::from_utf8_lossy(error.as_bytes()).into_owned(),
            },
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(bytes: &[u8]) -> Vec<Line> {
        let mut reader = LineReader::new(bytes);
        let mut out = Vec::new();
        while let Ok(Some(line)) = reader.next_line() {
            out.push(line);
        }
        out
    }

    #[test]
    fn bad_bytes_refuse_one_line_and_reading_goes_on() {
        let read = lines(b"isready\n\xff\xfe\r\nquit");
        assert_eq!(read[0], Line::Text("isready".into()));
        assert!(matches!(read[1], Line::NotUtf8 { .. }));
        assert_eq!(read[2], Line::Text("quit".into()));
        assert_eq!(read.len(), 3);
    }

    #[test]
    fn overlong_line_is_dropped_and_the_next_one_read() {
        let mut bytes = vec![b'x'; MAX_LINE_BYTES + 10];
        bytes.extend_from_slice(b"\nisready\n");
        let read = lines(&bytes);
        assert_eq!(
            read,
            vec![
                Line::TooLong {
                    bytes: MAX_LINE_BYTES + 10
                },
                Line::Text("isready".into())
            ]
        );
    }
}
