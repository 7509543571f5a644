//! A configuration error with its place: what every front end reports, one line each.

use std::fmt;
use std::path::{Path, PathBuf};

use crate::infile::{size_text, ReadError};

/// A position in a text file, 1-based; the column counts characters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    pub file: String,
    pub line: usize,
    pub column: usize,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.column)
    }
}

/// Why a file was rejected. `Display` is one line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConfigError {
    /// A file cannot be read (exit 66): the file itself (`at` = None) or a file it names
    /// (`at` = where it names it).
    Io {
        path: PathBuf,
        at: Option<Location>,
        what: String,
        reason: String,
    },
    /// Bad content (exit 65): TOML syntax, unknown key, wrong type, bad value, bad named file.
    Invalid {
        at: Location,
        message: String,
        expected: String,
    },
    /// A file longer than Ubik reads (exit 65): the file itself (`at` = None) or a file
    /// named at `at`.
    TooLarge {
        path: PathBuf,
        at: Option<Location>,
        what: String,
        limit: u64,
    },
}

/// The result of reading a configuration.
pub type Result<T, E = ConfigError> = std::result::Result<T, E>;

impl ConfigError {
    /// The `ubik` exit status for this error: 66 (cannot read) or 65 (bad data).
    pub fn exit_code(&self) -> i32 {
        match self {
            ConfigError::Io { .. } => 66,
            ConfigError::Invalid { .. } | ConfigError::TooLarge { .. } => 65,
        }
    }

    /// Where the error is, if it has a position.
    pub fn location(&self) -> Option<&Location> {
        match self {
            ConfigError::Io { at, .. } | ConfigError::TooLarge { at, .. } => at.as_ref(),
            ConfigError::Invalid { at, .. } => Some(at),
        }
    }
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigError::Io {
                path,
                at: None,
                what,
                reason,
            } => write!(
                f,
                "{}: cannot read {}: {}; expected a readable file",
                path.display(),
                one_line(what),
                one_line(reason)
            ),
            ConfigError::Io {
                path,
                at: Some(at),
                what,
                reason,
            } => write!(
                f,
                "{}: cannot read {} `{}`: {}; expected a readable file",
                at,
                one_line(what),
                path.display(),
                one_line(reason)
            ),
            ConfigError::Invalid {
                at,
                message,
                expected,
            } => {
                write!(
                    f,
                    "{}: {}; expected {}",
                    at,
                    one_line(message),
                    one_line(expected)
                )
            }
            ConfigError::TooLarge {
                path,
                at,
                what,
                limit,
            } => {
                let (place, named) = match at {
                    None => (path.display().to_string(), String::new()),
                    Some(at) => (at.to_string(), format!(" `{}`", path.display())),
                };
                write!(
                    f,
                    "{place}: {}{named} is larger than {}; expected at most {limit} bytes",
                    one_line(what),
                    size_text(*limit)
                )
            }
        }
    }
}

impl std::error::Error for ConfigError {}

/// The error for a file [`crate::infile::read_bounded`] did not read (described as `what`),
/// named at `at` if another file names it: too large is bad data (65), the rest cannot be
/// read (66).
pub fn read_error(path: &Path, at: Option<Location>, what: &str, e: ReadError) -> ConfigError {
    match e {
        ReadError::TooLarge { limit } => ConfigError::TooLarge {
            path: path.to_path_buf(),
            at,
            what: what.to_string(),
            limit,
        },
        e => ConfigError::Io {
            path: path.to_path_buf(),
            at,
            what: what.to_string(),
            reason: e.to_string(),
        },
    }
}

/// `s` on one line: every run of white space (line ends included) as one space.
pub(crate) fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}
