//! Conversions between the compiler's byte offsets and the protocol's
//! positions (line, UTF-16 column), and between `file:` URIs and paths.

use lsp_types::{Position, Range, Uri};
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// Line starts of a text, for offset <-> position conversions.
pub struct LineIndex<'a> {
    text: &'a str,
    line_starts: Vec<usize>,
}

impl<'a> LineIndex<'a> {
    /// Indexes `text`.
    pub fn new(text: &'a str) -> LineIndex<'a> {
        let line_starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        LineIndex { text, line_starts }
    }

    /// The position of byte `offset` (clamped to the text, and to a
    /// character boundary).
    pub fn position(&self, offset: usize) -> Position {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.line_starts.partition_point(|start| *start <= offset) - 1;
        let line_start = self.line_starts[line];
        let column = self.text[line_start..offset].encode_utf16().count();
        Position::new(line as u32, column as u32)
    }

    /// The range of bytes `start..end`.
    pub fn range(&self, start: usize, end: usize) -> Range {
        Range::new(self.position(start), self.position(end))
    }

    /// The byte offset of `position` (clamped to its line and the text).
    pub fn offset(&self, position: Position) -> usize {
        let Some(&line_start) = self.line_starts.get(position.line as usize) else {
            return self.text.len();
        };
        let line_end = self
            .line_starts
            .get(position.line as usize + 1)
            .map_or(self.text.len(), |next| next - 1);
        let mut units = 0u32;
        for (index, c) in self.text[line_start..line_end].char_indices() {
            if units >= position.character {
                return line_start + index;
            }
            units += c.len_utf16() as u32;
        }
        line_end
    }

    /// The range of the whole text.
    pub fn whole(&self) -> Range {
        self.range(0, self.text.len())
    }
}

/// The path of a `file:` URI (percent-decoded); `None` for other schemes.
pub fn uri_to_path(uri: &Uri) -> Option<PathBuf> {
    let rest = uri.as_str().strip_prefix("file://")?;
    // `file:///C:/x` on Windows: drop the slash before the drive letter.
    let rest = match rest.as_bytes() {
        [b'/', drive, b':', ..] if drive.is_ascii_alphabetic() && cfg!(windows) => &rest[1..],
        _ => rest,
    };
    Some(PathBuf::from(percent_decode(rest)?))
}

/// The `file:` URI of a path.
pub fn path_to_uri(path: &Path) -> Option<Uri> {
    let absolute = std::path::absolute(path).ok()?;
    let mut path_text = absolute.to_string_lossy().replace('\\', "/");
    if !path_text.starts_with('/') {
        path_text.insert(0, '/');
    }
    let mut text = String::from("file://");
    for byte in path_text.bytes() {
        if byte.is_ascii_alphanumeric() || b"/-._~:".contains(&byte) {
            text.push(byte as char);
        } else {
            text.push_str(&format!("%{byte:02X}"));
        }
    }
    Uri::from_str(&text).ok()
}

fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut index = 0;
    while index < bytes.len() {
        if bytes[index] == b'%' {
            let hex = text.get(index + 1..index + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            index += 3;
        } else {
            out.push(bytes[index]);
            index += 1;
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_utf16_units() {
        let text = "ab\n\u{e9}x\u{1F600}y\n";
        let index = LineIndex::new(text);
        let y = text.find('y').expect("y");
        assert_eq!(index.position(y), Position::new(1, 4));
        assert_eq!(index.offset(Position::new(1, 4)), y);
        assert_eq!(index.offset(Position::new(9, 0)), text.len());
    }

    #[test]
    fn file_uris_round_trip() {
        let path = Path::new("/tmp/my variants/ppc.rules");
        let uri = path_to_uri(path).expect("uri");
        assert_eq!(uri.as_str(), "file:///tmp/my%20variants/ppc.rules");
        assert_eq!(uri_to_path(&uri).as_deref(), Some(path));
    }
}
