//! The TOML reader's errors as Ubik's one-line messages: what is wrong, where, and what was
//! expected, naming the key or table where serde names only a type.

use crate::error::one_line;
use crate::{ConfigError, Doc};

impl Doc<'_> {
    /// The TOML reader's (or serde's) error `e` about this document, as one located error
    /// (exit 65).
    pub fn toml_err(&self, e: &toml::de::Error) -> ConfigError {
        // TOML allows no control character but tab and line ends, not even in a comment or a
        // string; the parser then reports an empty or misleading message (an unclosed
        // string), so the character itself is named, where it is.
        if let Some((offset, c)) = first_control_char(self.text()) {
            return ConfigError::Invalid {
                at: self.loc(offset),
                message: format!("{} is not allowed in TOML text, not even in a comment", control_char_name(c)),
                expected: "printable text: tab and line ends are the only control characters TOML allows (in a basic string, write the character as an escape such as \\u0000)".to_string(),
            };
        }
        let offset = e.span().map(|r| r.start).unwrap_or(0);
        let (mut message, expected) = split_toml_message(e.message());
        if message.is_empty() {
            message = format!("invalid TOML syntax at {}", what_is_at(self.text(), offset));
        }
        // A table written where an array of tables belongs (`[uart.rx]` for `[[uart.rx]]`),
        // or the other way round: serde says "invalid type: map" and names no key.
        if message.starts_with("invalid type") {
            if let Some((name, array)) = header_at(self.text(), offset) {
                let (message, expected) = match (array, expected.as_str()) {
                    (false, "an array") => (
                        format!("`[{name}]` is a single table"),
                        format!("an array of tables: [[{name}]] (two brackets) before each entry"),
                    ),
                    (false, _) => (format!("`[{name}]` is a table"), expected),
                    // An array of tables read as a table sees its first entry (a map) where
                    // the table's first key belongs.
                    (true, _) if message.starts_with("invalid type: map") => (
                        format!("`[[{name}]]` is an array of tables"),
                        format!("a single table: [{name}] (one bracket)"),
                    ),
                    (true, _) => (format!("`[[{name}]]` is an array of tables"), expected),
                };
                return ConfigError::Invalid {
                    at: self.loc(offset),
                    message,
                    expected,
                };
            }
        }
        // serde names the type, not the key: when the error points at a value, name its key.
        if message.starts_with("invalid type") || message.starts_with("invalid value") {
            if let Some(key) = key_before(self.text(), offset) {
                if message.starts_with("invalid type: map") && expected == "an array" {
                    return ConfigError::Invalid {
                        at: self.loc(offset),
                        message: format!("`{key}` is a single table"),
                        expected: format!("an array of tables: {key} = [{{ ... }}, ...]"),
                    };
                }
                message = format!("`{key}`: {message}");
            }
        }
        ConfigError::Invalid {
            at: self.loc(offset),
            message,
            expected,
        }
    }
}

/// Turns a toml/serde message into (what is wrong, what was expected).
fn split_toml_message(msg: &str) -> (String, String) {
    let msg = msg.trim();
    if msg.contains('\n') {
        // toml_edit syntax error: "invalid table header\n[detail\n]expected `.`, `]`".
        let mut what: Vec<&str> = Vec::new();
        let mut expected = None;
        for line in msg.lines().map(str::trim).filter(|l| !l.is_empty()) {
            match line.strip_prefix("expected ") {
                Some(e) => expected = Some(e.to_string()),
                None => what.push(line),
            }
        }
        let expected = match expected {
            Some(e) if e.contains(", ") => format!("one of {e}"),
            Some(e) => e,
            None if msg.contains("duplicate key") => "each key and table at most once".to_string(),
            None => "valid TOML syntax (https://toml.io)".to_string(),
        };
        return (one_line(&what.join(": ")), one_line(&expected));
    }
    if let Some(rest) = msg.strip_prefix("unknown field ") {
        // serde: "unknown field `x`, expected one of `a`, `b`" / "expected `a` or `b`" /
        // "expected `a`" / "there are no fields".
        let (key, allowed) = rest.split_once(", ").unwrap_or((rest, ""));
        let allowed = allowed.strip_prefix("expected ").unwrap_or(allowed);
        let expected = if let Some(list) = allowed.strip_prefix("one of ") {
            format!("one of the keys {list}")
        } else if allowed.contains(" or ") {
            format!("one of the keys {}", allowed.replace(" or ", ", "))
        } else if allowed.starts_with('`') {
            format!("the key {allowed}")
        } else {
            "no keys in this table".to_string()
        };
        return (format!("unknown key {key}"), one_line(&expected));
    }
    if let Some(rest) = msg.strip_prefix("missing field ") {
        return (
            format!("missing key {rest}"),
            "the key to be present".to_string(),
        );
    }
    if msg.starts_with("duplicate key") {
        return (one_line(msg), "each key at most once per table".to_string());
    }
    if let Some((what, expected)) = msg.split_once(", expected ") {
        // serde: "invalid type: string \"x\", expected i64".
        let expected = match expected.trim() {
            "i64" | "u64" | "u32" | "usize" => "an integer".to_string(),
            "f64" => "a number".to_string(),
            "a sequence" => "an array".to_string(),
            e if e.starts_with("struct ") => "a table".to_string(),
            e => e.to_string(),
        };
        return (one_line(what), one_line(&expected));
    }
    let expected = if msg.contains("number too large") {
        "an integer from -9223372036854775808 to 9223372036854775807"
    } else if msg.contains("invalid basic string") {
        "a string closed by `\"` on the same line"
    } else {
        "valid TOML syntax (https://toml.io)"
    };
    (one_line(msg), expected.to_string())
}

/// The first character TOML forbids everywhere (U+0000..U+0008, U+000A..U+001F other than a
/// line feed, U+007F; a carriage return not followed by a line feed), with its byte offset.
fn first_control_char(text: &str) -> Option<(usize, char)> {
    let bytes = text.as_bytes();
    text.char_indices().find(|&(i, c)| match c {
        '\t' | '\n' => false,
        '\r' => bytes.get(i + 1) != Some(&b'\n'),
        c => c <= '\u{1f}' || c == '\u{7f}',
    })
}

/// "control character U+0000 (NUL)".
fn control_char_name(c: char) -> String {
    let name = match c {
        '\0' => " (NUL)",
        '\u{7f}' => " (DEL)",
        '\r' => " (carriage return) without a line feed after it",
        '\u{1b}' => " (ESC)",
        _ => "",
    };
    format!("control character U+{:04X}{name}", c as u32)
}

/// What stands at byte `offset` of `text`, for a syntax error without a message.
fn what_is_at(text: &str, offset: usize) -> String {
    match text.get(offset..).and_then(|t| t.chars().next()) {
        None => "the end of the file".to_string(),
        Some(c) if c.is_whitespace() || c.is_control() => format!("character U+{:04X}", c as u32),
        Some(c) => format!("`{c}`"),
    }
}

/// The table header on the line of byte `offset` (`[name]` or `[[name]]`), if that line is
/// one: its name and whether it has two brackets.
fn header_at(text: &str, offset: usize) -> Option<(&str, bool)> {
    let offset = offset.min(text.len());
    let start = text.get(..offset)?.rfind('\n').map_or(0, |i| i + 1);
    let line = text[start..].lines().next().unwrap_or("");
    let line = line.split('#').next().unwrap_or("").trim();
    let (name, array) = match line.strip_prefix("[[").and_then(|l| l.strip_suffix("]]")) {
        Some(n) => (n, true),
        None => (line.strip_prefix('[')?.strip_suffix(']')?, false),
    };
    let name = name.trim();
    (!name.is_empty()).then_some((name, array))
}

/// The key of a `key = value` line whose value starts at byte `offset`, if the line has that
/// shape.
fn key_before(text: &str, offset: usize) -> Option<&str> {
    let head = text.get(..offset)?;
    let line = &head[head.rfind('\n').map_or(0, |i| i + 1)..];
    let (key, _) = line.split_once('=')?;
    let key = key.trim();
    (!key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '.' || c == '"'))
    .then_some(key)
}
