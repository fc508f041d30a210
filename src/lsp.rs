//! The language server (`varc lsp`): the Language Server Protocol over
//! stdin and stdout, for editors.
//!
//! Synchronous and single-threaded: a rules file compiles in a millisecond,
//! so every request is answered from scratch (parse, index, lower) with no
//! cache to keep consistent. The protocol's types come from `lsp-types`
//! and `lsp-server` (rust-analyzer's crates); the framing is
//! [`transport`]'s, which survives malformed input.
//!
//! - [`transport`]: reading and writing frames;
//! - [`server`]: the documents and the dispatch of requests;
//! - [`index`]: definitions and uses of names across `extends`;
//! - [`diagnostics`], [`describe`] (hover texts), [`completion`];
//! - [`text`]: offsets, positions and URIs.

pub mod completion;
pub mod describe;
pub mod diagnostics;
pub mod index;
pub mod server;
pub mod text;
pub mod transport;

use std::io::{self, BufRead, Write};
use transport::Incoming;

/// Serves one client over stdin and stdout until it says `exit` or closes
/// stdin.
pub fn serve_stdio() -> io::Result<()> {
    let stdin = io::stdin();
    let stdout = io::stdout();
    serve(&mut stdin.lock(), &mut stdout.lock())
}

/// Serves one client reading `input` and writing `output`.
pub fn serve(input: &mut impl BufRead, output: &mut impl Write) -> io::Result<()> {
    let mut server = server::Server::default();
    while let Some(frame) = transport::read(input)? {
        match frame {
            Incoming::Malformed(reason) => {
                transport::write_json(output, &transport::parse_error(&reason))?;
            }
            Incoming::Message(message) => {
                for reply in server.handle(message) {
                    transport::write(output, &reply)?;
                }
                if server.exited() {
                    break;
                }
            }
        }
    }
    Ok(())
}
