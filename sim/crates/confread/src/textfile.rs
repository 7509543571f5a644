//! The text files a machine file names (a stimulus's `times_file`, a GPIO pin's
//! `changes_file`): rows of comma-separated fields, `#` starting a comment, blank lines
//! ignored, and an optional header as the first row. Errors name the file's own line and
//! column, not the machine file's.

use crate::{ConfigError, Location};

/// One row that is not blank: its 1-based line, the text before any `#` (trimmed), and
/// whether it is the file's first such row.
pub struct Row<'a> {
    pub line: usize,
    pub first: bool,
    /// The whole line, to count columns in.
    raw: &'a str,
    pub body: &'a str,
}

impl<'a> Row<'a> {
    /// The 1-based column (in characters) at which `part`, a slice of this row, starts.
    pub fn column(&self, part: &str) -> usize {
        let offset = (part.as_ptr() as usize)
            .saturating_sub(self.raw.as_ptr() as usize)
            .min(self.raw.len());
        self.raw[..offset].chars().count() + 1
    }

    /// The comma-separated fields, trimmed.
    pub fn fields(&self) -> impl Iterator<Item = &'a str> {
        self.body.split(',').map(str::trim)
    }

    /// Whether this row is a header: the first row, every field of which is a name (starts
    /// with a letter, `_` or `"`, and is not a number such as `inf`). A first row that is
    /// bad data (`100,2`, `10x`) is data, and its error is reported.
    pub fn is_header(&self) -> bool {
        self.first
            && self.fields().all(|f| {
                f.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_' || c == '"')
                    && f.parse::<f64>().is_err()
            })
    }
}

/// The rows of `text` that are not blank or only a comment.
pub fn rows(text: &str) -> impl Iterator<Item = Row<'_>> {
    let mut first = true;
    text.lines().enumerate().filter_map(move |(i, raw)| {
        let body = raw.split('#').next().unwrap_or("").trim();
        if body.is_empty() {
            return None;
        }
        let row = Row {
            line: i + 1,
            first,
            raw,
            body,
        };
        first = false;
        Some(row)
    })
}

/// How many rows `text` has at most (its lines), to size a table once.
pub fn max_rows(text: &str) -> usize {
    text.as_bytes().iter().filter(|&&b| b == b'\n').count() + 1
}

/// The file's bytes as text, or an error at the line and column of the first byte that is
/// not UTF-8.
pub fn utf8<'a>(
    bytes: &'a [u8],
    file: &str,
    what: &str,
    expected: &str,
) -> Result<&'a str, ConfigError> {
    std::str::from_utf8(bytes).map_err(|e| {
        let bad = e.valid_up_to();
        // The text before the bad byte is valid: count its lines and characters.
        let valid = std::str::from_utf8(&bytes[..bad]).unwrap_or_default();
        let (line, column) = crate::line_col(valid, bad);
        ConfigError::Invalid {
            at: Location {
                file: file.to_string(),
                line,
                column,
            },
            message: format!(
                "{what} is not UTF-8 text: byte 0x{:02X} at offset {bad} is not valid UTF-8",
                bytes[bad]
            ),
            expected: expected.to_string(),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_skip_blanks_and_comments_and_know_the_first() {
        let text = "# a comment\n\n  at_us, level # names\n10,1\n";
        let r: Vec<(usize, bool, &str)> = rows(text).map(|r| (r.line, r.first, r.body)).collect();
        assert_eq!(r, [(3, true, "at_us, level"), (4, false, "10,1")]);
        let first = rows(text).next().unwrap();
        assert!(first.is_header());
        assert_eq!(first.column(first.fields().nth(1).unwrap()), 10);
    }

    #[test]
    fn a_header_is_a_first_row_of_names() {
        let header = |t: &str| rows(t).next().unwrap().is_header();
        assert!(header("at_us,level"));
        assert!(header("\"time\""));
        assert!(!header("100,2"), "numbers are data");
        assert!(!header("10x"), "bad data is not a header");
        assert!(!header("at_us,1"));
        assert!(!header("inf"), "a number, even if out of range");
        assert!(
            !rows("1\nat_us\n").nth(1).unwrap().is_header(),
            "only the first row"
        );
    }

    #[test]
    fn bad_utf8_is_placed() {
        let e = utf8(
            b"1\n2\xff\n",
            "t.csv",
            "stimulus times file `t.csv`",
            "text",
        )
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "t.csv:2:2: stimulus times file `t.csv` is not UTF-8 text: byte 0xFF at offset 3 is not valid UTF-8; expected text"
        );
    }
}
