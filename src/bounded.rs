//! Reading input files whatever they are: a regular file, a pipe,
//! `/dev/stdin` or `/dev/zero`. A size read from the file system says
//! nothing about a pipe or a device, so every read stops one byte past its
//! limit and a longer input is refused, not read whole.

use std::io::Read;
use std::path::Path;

/// The most bytes a record, a shard or another text varc reads may have.
pub const MAX_TEXT_BYTES: u64 = 16 << 20;

/// Why a text could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// Opening or reading failed.
    #[error("cannot read {path}: {error}")]
    Io {
        /// The file.
        path: String,
        /// What the system said.
        error: std::io::Error,
    },
    /// More than the limit.
    #[error("{path} is larger than {limit} bytes, the most varc reads")]
    TooLarge {
        /// The file.
        path: String,
        /// The limit.
        limit: u64,
    },
    /// Not UTF-8.
    #[error("{path} is not UTF-8 text (byte offset {offset})")]
    NotUtf8 {
        /// The file.
        path: String,
        /// Where the first bad byte is.
        offset: usize,
    },
}

/// The bytes of `path`, at most `limit` of them.
pub fn read_bytes(path: &Path, limit: u64) -> Result<Vec<u8>, ReadError> {
    let name = || path.display().to_string();
    let file = std::fs::File::open(path).map_err(|error| ReadError::Io {
        path: name(),
        error,
    })?;
    let mut bytes = Vec::new();
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|error| ReadError::Io {
            path: name(),
            error,
        })?;
    if bytes.len() as u64 > limit {
        return Err(ReadError::TooLarge {
            path: name(),
            limit,
        });
    }
    Ok(bytes)
}

/// The UTF-8 text of `path`, at most [`MAX_TEXT_BYTES`] of it.
pub fn read_text(path: &Path) -> Result<String, ReadError> {
    let bytes = read_bytes(path, MAX_TEXT_BYTES)?;
    String::from_utf8(bytes).map_err(|e| ReadError::NotUtf8 {
        path: path.display().to_string(),
        offset: e.utf8_error().valid_up_to(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg(unix)]
    fn endless_device_is_refused_at_the_limit() {
        let error = read_bytes(Path::new("/dev/zero"), 1 << 20).expect_err("endless");
        assert!(matches!(error, ReadError::TooLarge { .. }), "{error}");
    }
}
