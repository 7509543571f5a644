//! Reading Ubik's configuration files: located errors and typed field readers shared by
//! every TOML front end (the machine file, `system.toml`, hypervisor descriptions,
//! experiment files).
//!
//! Every error is one line, `FILE:LINE:COLUMN: what is wrong; expected what`
//! ([`ConfigError`]'s `Display`), and [`ConfigError::exit_code`] gives the `ubik` exit
//! status: 66 for a file that cannot be read, 65 for bad content. A front end reads its text
//! with [`read_text_file`], parses it with [`Doc::parse`] into a raw structure whose values
//! are `toml::Spanned`, and checks each value with a reader of [`Doc`] (integer ranges,
//! positive numbers, times, kinds, lists, named files), so the same mistake reads the same in
//! every file. The crate knows no machine, kernel or experiment: it is a leaf.

mod doc;
mod error;
pub mod infile;
mod lines;
pub mod textfile;
mod toml_message;

use std::ops::Range;
use std::path::Path;

pub use doc::{quoted_list, Doc, MAX_TIME_US};
pub use error::{read_error, ConfigError, Location, Result};
pub use lines::{line_col, LineIndex};

use infile::{read_bounded, Pipes, MAX_TOML_BYTES};

/// The one-line error for a TOML file of Ubik: syntax, unknown key and wrong type errors
/// read exactly as they do for machine files.
pub fn toml_error(name_for_errors: &str, text: &str, e: &toml::de::Error) -> ConfigError {
    Doc::text_only(name_for_errors, text).toml_err(e)
}

/// A bad-value error (exit 65) at byte `span.start` of `text`.
pub fn invalid_at(
    name_for_errors: &str,
    text: &str,
    span: &Range<usize>,
    message: impl Into<String>,
    expected: impl Into<String>,
) -> ConfigError {
    Doc::text_only(name_for_errors, text).err(span, message, expected)
}

/// Reads a TOML file of Ubik (a machine file, `system.toml`, an experiment file) described as
/// `what`: a regular file or a pipe of at most [`MAX_TOML_BYTES`], in UTF-8. Errors: 66 for a
/// file that cannot be read (or a directory, a device), 65 for one that is too large or not
/// UTF-8 (naming the line and column of the first bad byte).
pub fn read_text_file(path: &Path, what: &str) -> Result<String> {
    let bytes = read_bounded(path, MAX_TOML_BYTES, Pipes::Allowed)
        .map_err(|e| read_error(path, None, what, e))?;
    String::from_utf8(bytes).map_err(|e| {
        let bytes = e.as_bytes();
        let bad = e.utf8_error().valid_up_to();
        let valid = std::str::from_utf8(&bytes[..bad]).unwrap_or_default();
        let (line, column) = line_col(valid, bad);
        ConfigError::Invalid {
            at: Location {
                file: path.display().to_string(),
                line,
                column,
            },
            message: format!(
                "{what} is not UTF-8 text: byte 0x{:02X} at offset {bad} is not valid UTF-8",
                bytes[bad]
            ),
            expected: "a text file in UTF-8".to_string(),
        }
    })
}
