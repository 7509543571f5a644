//! A configuration document being read ([`Doc`]): its name, text and folder, where its
//! errors point, and typed readers for its fields. A reader takes a value as written
//! (`Spanned`, so that an error can say where) and gives it checked, or the one-line error
//! `FILE:LINE:COLUMN: what is wrong; expected what`.

use std::cell::{OnceCell, RefCell};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::de::DeserializeOwned;
use toml::Spanned;

use crate::error::read_error;
use crate::infile::{read_bounded, read_bounded_shared, Pipes, MAX_STREAM_BYTES};
use crate::{ConfigError, LineIndex, Location, Result};

/// Longest time a file may name, in microseconds (about 31 years): a stimulus's period or
/// start, a scripted event.
pub const MAX_TIME_US: f64 = 1e15;

/// A TOML document being read: errors point into it, and the files it names are read
/// relative to its folder (and remembered: `ubik run` keeps its outputs off them).
pub struct Doc<'a> {
    name: &'a str,
    text: &'a str,
    base_dir: &'a Path,
    /// Where the lines start, made on the first error or location asked for.
    lines: OnceCell<LineIndex>,
    /// The files the document names that were read so far (resolved paths).
    read: RefCell<Vec<PathBuf>>,
}

impl<'a> Doc<'a> {
    /// The document `text`, called `name` in messages; the files it names are relative to
    /// `base_dir`.
    pub fn new(name: &'a str, text: &'a str, base_dir: &'a Path) -> Doc<'a> {
        Doc {
            name,
            text,
            base_dir,
            lines: OnceCell::new(),
            read: RefCell::new(Vec::new()),
        }
    }

    /// A document that names no files (their paths would be relative to the current folder).
    pub fn text_only(name: &'a str, text: &'a str) -> Doc<'a> {
        Doc::new(name, text, Path::new(""))
    }

    /// The document's name in messages.
    pub fn name(&self) -> &'a str {
        self.name
    }

    /// The document's text.
    pub fn text(&self) -> &'a str {
        self.text
    }

    /// The folder the files it names are relative to.
    pub fn base_dir(&self) -> &'a Path {
        self.base_dir
    }

    /// The files the document names that were read, in the order read (resolved paths).
    pub fn into_files_read(self) -> Vec<PathBuf> {
        self.read.into_inner()
    }

    /// The text as `T`: TOML syntax, unknown keys and wrong types as one located error each.
    pub fn parse<T: DeserializeOwned>(&self) -> Result<T> {
        toml::from_str(self.text).map_err(|e| self.toml_err(&e))
    }

    /// The place of byte `offset` of the text.
    pub fn loc(&self, offset: usize) -> Location {
        let (line, column) = self
            .lines
            .get_or_init(|| LineIndex::new(self.text))
            .line_col(self.text, offset);
        Location {
            file: self.name.to_string(),
            line,
            column,
        }
    }

    /// The 1-based line of byte `offset` of the text.
    pub fn line(&self, offset: usize) -> usize {
        self.loc(offset).line
    }

    /// A bad-value error (exit 65) at byte `span.start` of the text: what is wrong, and what
    /// was expected.
    pub fn err(
        &self,
        span: &Range<usize>,
        message: impl Into<String>,
        expected: impl Into<String>,
    ) -> ConfigError {
        ConfigError::Invalid {
            at: self.loc(span.start),
            message: message.into(),
            expected: expected.into(),
        }
    }

    // -----------------------------------------------------------------------------------------
    // Numbers

    /// `v` if it is in `lo..=hi`; else `KEY = N is out of range` at `v`, expecting `expected`.
    pub fn int_range(
        &self,
        v: &Spanned<i64>,
        key: &str,
        lo: i64,
        hi: i64,
        expected: &str,
    ) -> Result<i64> {
        let n = *v.get_ref();
        if n < lo || n > hi {
            return Err(self.err(&v.span(), format!("{key} = {n} is out of range"), expected));
        }
        Ok(n)
    }

    /// As [`Doc::int_range`], expecting "an integer from LO to HI".
    pub fn int_from_to(&self, v: &Spanned<i64>, key: &str, lo: i64, hi: i64) -> Result<i64> {
        self.int_range(v, key, lo, hi, &format!("an integer from {lo} to {hi}"))
    }

    /// `v` if it is finite and > 0; else `KEY = X is not positive`.
    pub fn positive(&self, v: &Spanned<f64>, key: &str, expected: &str) -> Result<f64> {
        let x = *v.get_ref();
        if !(x.is_finite() && x > 0.0) {
            return Err(self.err(&v.span(), format!("{key} = {x} is not positive"), expected));
        }
        Ok(x)
    }

    /// `v` if it is finite and >= 0; else `KEY = X is negative or not finite`.
    pub fn non_negative(&self, v: &Spanned<f64>, key: &str, expected: &str) -> Result<f64> {
        let x = *v.get_ref();
        if !(x.is_finite() && x >= 0.0) {
            return Err(self.err(
                &v.span(),
                format!("{key} = {x} is negative or not finite"),
                expected,
            ));
        }
        Ok(x)
    }

    /// `v` if it is finite; else `KEY = X is not finite`.
    pub fn finite(&self, v: &Spanned<f64>, key: &str) -> Result<f64> {
        let x = *v.get_ref();
        if !x.is_finite() {
            return Err(self.err(
                &v.span(),
                format!("{key} = {x} is not finite"),
                "a finite number",
            ));
        }
        Ok(x)
    }

    /// A time in microseconds, > 0 (or >= 0 if `zero_ok`), at most [`MAX_TIME_US`], and (if
    /// not zero) at least one femtosecond.
    pub fn time_us(&self, v: &Spanned<f64>, key: &str, zero_ok: bool) -> Result<f64> {
        let x = *v.get_ref();
        let ok = x.is_finite()
            && x <= MAX_TIME_US
            && if zero_ok {
                x >= 0.0
            } else {
                (x * 1e9).round() >= 1.0
            };
        if !ok {
            let expected = if zero_ok {
                format!("a time in microseconds from 0 to {MAX_TIME_US:e}")
            } else {
                format!("a time in microseconds from 1e-9 to {MAX_TIME_US:e}")
            };
            return Err(self.err(&v.span(), format!("{key} = {x} is out of range"), expected));
        }
        Ok(x)
    }

    // -----------------------------------------------------------------------------------------
    // Kinds and lists

    /// The `kind` of an entry of array `table` (`[[stimulus]]`) whose whole span is `whole`,
    /// and its span; an entry without one is an error expecting `kind = KINDS`.
    pub fn kind<'k>(
        &self,
        k: &'k Option<Spanned<String>>,
        whole: &Range<usize>,
        table: &str,
        kinds: &str,
    ) -> Result<(&'k str, Range<usize>)> {
        match k {
            None => Err(self.err(
                whole,
                format!("{table} entry without `kind`"),
                format!("kind = {kinds}"),
            )),
            Some(k) => Ok((k.get_ref().as_str(), k.span())),
        }
    }

    /// Rejects keys that do not apply to the chosen kind: `present` pairs each such key with
    /// its span if written; `allowed` says which keys the kind takes.
    pub fn not_for(
        &self,
        present: &[(&str, Option<Range<usize>>)],
        kind: &str,
        allowed: &str,
    ) -> Result<()> {
        for (key, span) in present {
            if let Some(span) = span {
                return Err(self.err(
                    span,
                    format!("key `{key}` does not apply to kind = \"{kind}\""),
                    allowed.to_string(),
                ));
            }
        }
        Ok(())
    }

    /// A list of strings each one of `allowed`, none twice (`default` if the key is absent;
    /// an empty list is an error).
    pub fn strings(
        &self,
        v: &Option<Spanned<Vec<Spanned<String>>>>,
        key: &str,
        allowed: &[&str],
        default: &[&str],
    ) -> Result<Vec<String>> {
        let Some(list) = v else {
            return Ok(default.iter().map(|s| s.to_string()).collect());
        };
        self.not_empty(list, key)?;
        let mut out = Vec::new();
        for s in list.get_ref() {
            if !allowed.contains(&s.get_ref().as_str()) {
                return Err(self.err(
                    &s.span(),
                    format!("{key} {:?} is not known", s.get_ref()),
                    format!("one of {}", quoted_list(allowed)),
                ));
            }
            if out.contains(s.get_ref()) {
                return Err(self.err(
                    &s.span(),
                    format!("{key} {:?} is listed twice", s.get_ref()),
                    "each value once",
                ));
            }
            out.push(s.get_ref().clone());
        }
        Ok(out)
    }

    /// A list of integers each in `lo..=hi`, none twice (`default` if the key is absent; an
    /// empty list is an error). `item` names one of them in "listed twice" (`seed` for
    /// `seeds`).
    pub fn distinct_ints(
        &self,
        v: &Option<Spanned<Vec<Spanned<i64>>>>,
        key: &str,
        item: &str,
        (lo, hi): (i64, i64),
        default: &[i64],
    ) -> Result<Vec<i64>> {
        let Some(list) = v else {
            return Ok(default.to_vec());
        };
        self.not_empty(list, key)?;
        let mut out: Vec<i64> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for n in list.get_ref() {
            let x = *n.get_ref();
            if !(lo..=hi).contains(&x) {
                return Err(self.err(
                    &n.span(),
                    format!("{key} {x} is out of range"),
                    format!("an integer from {lo} to {hi}"),
                ));
            }
            if !seen.insert(x) {
                return Err(self.err(
                    &n.span(),
                    format!("{item} {x} is listed twice"),
                    "each value once",
                ));
            }
            out.push(x);
        }
        Ok(out)
    }

    /// An error for a list that is written but empty.
    fn not_empty<T>(&self, list: &Spanned<Vec<T>>, key: &str) -> Result<()> {
        if list.get_ref().is_empty() {
            return Err(self.err(
                &list.span(),
                format!("{key} is empty"),
                "at least one value",
            ));
        }
        Ok(())
    }

    // -----------------------------------------------------------------------------------------
    // Named files

    /// Reads a file the document names (`key = "path"`, relative to its folder) eagerly, so
    /// that errors show before a run: its resolved path and bytes. A pipe is refused (it
    /// could be read only once), and at most [`MAX_STREAM_BYTES`] are read.
    pub fn read_named_file(
        &self,
        path: &Spanned<String>,
        what: &str,
    ) -> Result<(PathBuf, Vec<u8>)> {
        let full = self.base_dir.join(path.get_ref());
        self.read.borrow_mut().push(full.clone());
        let bytes = read_bounded(&full, MAX_STREAM_BYTES, Pipes::Refused)
            .map_err(|e| read_error(&full, Some(self.loc(path.span().start)), what, e))?;
        Ok((full, bytes))
    }

    /// As [`Doc::read_named_file`], into one shared buffer with no second copy.
    pub fn read_named_file_shared(
        &self,
        path: &Spanned<String>,
        what: &str,
    ) -> Result<(PathBuf, Arc<[u8]>)> {
        let full = self.base_dir.join(path.get_ref());
        self.read.borrow_mut().push(full.clone());
        let bytes = read_bounded_shared(&full, MAX_STREAM_BYTES)
            .map_err(|e| read_error(&full, Some(self.loc(path.span().start)), what, e))?;
        Ok((full, bytes))
    }
}

/// `"a", "b", "c"`.
pub fn quoted_list(items: &[&str]) -> String {
    items
        .iter()
        .map(|a| format!("\"{a}\""))
        .collect::<Vec<_>>()
        .join(", ")
}
