//! JSON-RPC framing over a byte stream (`Content-Length: N` headers, a blank
//! line, N bytes of JSON), hardened for hostile input.
//!
//! lsp-server's own reader ends the connection at the first malformed
//! message and allocates whatever `Content-Length` says; editors (and
//! fuzzers) occasionally send garbage, so framing is done here: a frame
//! that is too large is skipped without being held in memory, a frame that
//! is not JSON-RPC is answered with a parse error, and reading goes on.

use lsp_server::{ErrorCode, Message};
use std::io::{self, BufRead, Read, Write};

/// The largest message accepted (a rules file is at most 1 MiB; its JSON
/// escape can double that).
pub const MAX_MESSAGE_BYTES: usize = 8 << 20;

/// The longest header line accepted.
const MAX_HEADER_LINE: u64 = 4096;

/// What one frame held.
#[derive(Debug)]
pub enum Incoming {
    /// A well-formed message.
    Message(Message),
    /// A frame that is not a message; the text says why.
    Malformed(String),
}

/// Reads the next frame; `None` at the end of the input.
pub fn read(input: &mut impl BufRead) -> io::Result<Option<Incoming>> {
    let mut length = None;
    let mut saw_header = false;
    loop {
        let mut line = Vec::new();
        let read = input
            .by_ref()
            .take(MAX_HEADER_LINE)
            .read_until(b'\n', &mut line)?;
        if read == 0 {
            return Ok(if saw_header {
                Some(Incoming::Malformed(
                    "the input ended inside a header".into(),
                ))
            } else {
                None
            });
        }
        let line = String::from_utf8_lossy(&line);
        let line = line.trim_end_matches(['\r', '\n']);
        if line.is_empty() {
            if saw_header {
                break;
            }
            // Blank lines between frames are tolerated.
            continue;
        }
        saw_header = true;
        if let Some((name, value)) = line.split_once(':') {
            if name.trim().eq_ignore_ascii_case("Content-Length") {
                length = value.trim().parse::<usize>().ok();
            }
        }
    }
    let Some(length) = length else {
        return Ok(Some(Incoming::Malformed(
            "a header without a valid Content-Length".into(),
        )));
    };
    if length > MAX_MESSAGE_BYTES {
        io::copy(&mut input.by_ref().take(length as u64), &mut io::sink())?;
        return Ok(Some(Incoming::Malformed(format!(
            "a message of {length} bytes; at most {MAX_MESSAGE_BYTES} are accepted"
        ))));
    }
    let mut body = Vec::new();
    input.by_ref().take(length as u64).read_to_end(&mut body)?;
    if body.len() < length {
        return Ok(Some(Incoming::Malformed(
            "the input ended inside a message".into(),
        )));
    }
    Ok(Some(match serde_json::from_slice::<Message>(&body) {
        Ok(message) => Incoming::Message(message),
        Err(error) => Incoming::Malformed(format!("not a JSON-RPC message: {error}")),
    }))
}

/// Writes one message as a frame.
pub fn write(output: &mut impl Write, message: &Message) -> io::Result<()> {
    write_json(output, &serde_json::to_value(message)?)
}

/// Writes one JSON value as a frame.
pub fn write_json(output: &mut impl Write, value: &serde_json::Value) -> io::Result<()> {
    let text = serde_json::to_string(value)?;
    write!(output, "Content-Length: {}\r\n\r\n{text}", text.len())?;
    output.flush()
}

/// The JSON-RPC answer to a malformed frame: a parse error with a null id
/// (which lsp-server's `RequestId` cannot hold, hence plain JSON).
pub fn parse_error(reason: &str) -> serde_json::Value {
    serde_json::json!({
        "jsonrpc": "2.0",
        "id": null,
        "error": { "code": ErrorCode::ParseError as i32, "message": reason },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(input: &[u8]) -> Vec<Incoming> {
        let mut reader = io::BufReader::new(input);
        let mut all = Vec::new();
        while let Ok(Some(frame)) = read(&mut reader) {
            all.push(frame);
        }
        all
    }

    #[test]
    fn garbage_between_good_messages_is_reported_and_skipped() {
        let good = r#"{"jsonrpc":"2.0","method":"exit"}"#;
        let input = format!(
            "Content-Length: 5\r\n\r\nhello\
             X-Nothing: 1\r\n\r\n\
             Content-Length: {}\r\n\r\n{good}\
             Content-Length: 99999999999\r\n\r\nthe rest",
            good.len()
        );
        let all = frames(input.as_bytes());
        assert!(matches!(all[0], Incoming::Malformed(_)), "{all:?}");
        assert!(matches!(all[1], Incoming::Malformed(_)), "{all:?}");
        assert!(matches!(all[2], Incoming::Message(_)), "{all:?}");
        // Too large: skipped (here up to the end of the input), not held.
        assert!(
            matches!(&all[3], Incoming::Malformed(m) if m.contains("at most")),
            "{all:?}"
        );
        assert_eq!(all.len(), 4);
    }
}
