//! Everything that can go wrong with an opening book, as one typed error.

use crate::board::FenError;
use std::fmt;

/// Why a book could not be read, built or used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BookError {
    /// A file could not be read or written.
    Io {
        /// The path involved.
        path: String,
        /// The operating system's message.
        message: String,
    },
    /// The bytes are not a Polyglot book.
    Corrupt(String),
    /// A line of an opening-lines file is malformed or plays an illegal move.
    Lines {
        /// The 1-based line number.
        line: usize,
        /// What is wrong with it.
        message: String,
    },
    /// A FEN given to a book command is invalid.
    Fen(FenError),
    /// A `ladya book` command line is malformed.
    Usage(String),
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookError::Io { path, message } => write!(f, "book file {path}: {message}"),
            BookError::Corrupt(why) => write!(f, "corrupt book: {why}"),
            BookError::Lines { line, message } => write!(f, "lines file, line {line}: {message}"),
            BookError::Fen(e) => write!(f, "invalid FEN: {e}"),
            BookError::Usage(why) => write!(f, "{why}"),
        }
    }
}

impl std::error::Error for BookError {}

impl From<FenError> for BookError {
    fn from(e: FenError) -> Self {
        BookError::Fen(e)
    }
}

impl BookError {
    /// An I/O error on `path`.
    pub(crate) fn io(path: &str, e: std::io::Error) -> BookError {
        BookError::Io {
            path: path.to_string(),
            message: e.to_string(),
        }
    }
}
