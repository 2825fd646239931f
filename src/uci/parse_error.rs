//! Why an input line is not a command, or what a command skipped.

use std::fmt;

/// Why a line could not be turned into a command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommandError {
    /// A required argument is missing.
    Missing {
        /// The command.
        command: &'static str,
        /// What is missing.
        what: &'static str,
    },
    /// A number could not be read.
    BadNumber {
        /// What the number is for.
        what: String,
        /// The text given.
        text: String,
    },
    /// An input line longer than this many bytes was ignored.
    LineTooLong(usize),
    /// The line holds no command this engine knows.
    Unknown(String),
    /// A token the command does not know (skipped).
    UnknownToken {
        /// The command.
        command: &'static str,
        /// The token.
        token: String,
    },
    /// A `genfens` line that cannot be served.
    Genfens(String),
    /// A keyword was expected.
    Unexpected {
        /// The command.
        command: &'static str,
        /// The token found.
        token: String,
    },
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandError::Missing { command, what } => write!(f, "{command}: missing {what}"),
            CommandError::BadNumber { what, text } => {
                write!(f, "invalid number '{text}' for {what}")
            }
            CommandError::LineTooLong(max) => {
                write!(f, "input line longer than {max} bytes ignored")
            }
            CommandError::Unknown(line) => {
                write!(f, "unknown command '{line}' (type help for the commands)")
            }
            CommandError::UnknownToken { command, token } => {
                write!(f, "unknown token '{token}' in {command}")
            }
            CommandError::Genfens(why) => write!(f, "{why}"),
            CommandError::Unexpected { command, token } => {
                write!(f, "{command}: unexpected '{token}'")
            }
        }
    }
}

impl std::error::Error for CommandError {}

/// `text` as a number, or why not (`what` names it).
pub(super) fn number<T: std::str::FromStr>(text: &str, what: &str) -> Result<T, CommandError> {
    text.parse().map_err(|_| CommandError::BadNumber {
        what: what.to_string(),
        text: text.to_string(),
    })
}

/// A token `command` skips.
pub(super) fn unknown(command: &'static str, token: &str) -> CommandError {
    CommandError::UnknownToken {
        command,
        token: token.to_string(),
    }
}
