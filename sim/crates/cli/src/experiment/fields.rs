//! The located readers every experiment kind's file shares: a value's error names the file,
//! the line and the column, what is wrong and what was expected (exit 65, docs/contract.md);
//! an input the file names that cannot be read is 66 at its line. The limits that keep an
//! experiment from asking for more than a machine can build or run are here too, counted
//! before anything is made.

use machine::config::{invalid_at, ConfigError};
use std::path::Path;
use toml::Spanned;

/// The experiment file, for errors located in it: its name as shown and its text.
pub struct Src<'a> {
    pub shown: &'a str,
    pub text: &'a str,
}

impl Src<'_> {
    /// The error at `span`: what is wrong, and what was expected.
    pub fn err(
        &self,
        span: &std::ops::Range<usize>,
        what: impl Into<String>,
        expected: impl Into<String>,
    ) -> ConfigError {
        invalid_at(self.shown, self.text, span, what, expected)
    }

    /// A value listed twice on an axis would be one build (or run) twice, into one directory.
    pub fn twice(&self, span: &std::ops::Range<usize>, what: String) -> ConfigError {
        self.err(span, format!("{what} is listed twice"), "each value once")
    }

    /// An `app` experiment's `[sweep]` axis given with no value.
    pub fn axis_empty(&self, n: usize, what: &str) -> Result<(), ConfigError> {
        if n == 0 {
            Err(self.err(
                &(0..0),
                format!("[sweep] {what} is empty"),
                "at least one value, or no key (the application's own)",
            ))
        } else {
            Ok(())
        }
    }

    /// A list of names, each one of `allowed` and listed once; `default` without the key.
    pub fn strings(
        &self,
        v: &Option<Spanned<Vec<Spanned<String>>>>,
        key: &str,
        allowed: &[&str],
        default: &[&str],
    ) -> Result<Vec<String>, ConfigError> {
        let Some(list) = v else {
            return Ok(default.iter().map(|s| s.to_string()).collect());
        };
        if list.get_ref().is_empty() {
            return Err(self.err(
                &list.span(),
                format!("{key} is empty"),
                "at least one value",
            ));
        }
        let mut out = Vec::new();
        for s in list.get_ref() {
            if !allowed.contains(&s.get_ref().as_str()) {
                return Err(self.err(
                    &s.span(),
                    format!("{key} {:?} is not known", s.get_ref()),
                    format!(
                        "one of {}",
                        allowed
                            .iter()
                            .map(|a| format!("\"{a}\""))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
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

    /// A list of integers from `lo` to `hi`, each listed once; `default` without the key.
    pub fn ints(
        &self,
        v: &Option<Spanned<Vec<Spanned<i64>>>>,
        key: &str,
        lo: i64,
        hi: i64,
        default: &[u32],
    ) -> Result<Vec<u32>, ConfigError> {
        let Some(list) = v else {
            return Ok(default.to_vec());
        };
        if list.get_ref().is_empty() {
            return Err(self.err(
                &list.span(),
                format!("{key} is empty"),
                "at least one value",
            ));
        }
        let mut out = Vec::new();
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
            // Two equal values would be one variant (or run) twice, into one directory.
            if !seen.insert(x) {
                let what = if key == "seeds" { "seed" } else { key };
                return Err(self.err(
                    &n.span(),
                    format!("{what} {x} is listed twice"),
                    "each value once",
                ));
            }
            out.push(x as u32);
        }
        Ok(out)
    }

    /// An integer from `lo` to `hi`; `default` without the key.
    pub fn int(
        &self,
        v: &Option<Spanned<i64>>,
        key: &str,
        lo: i64,
        hi: i64,
        default: u32,
    ) -> Result<u32, ConfigError> {
        match v {
            None => Ok(default),
            Some(n) => {
                let x = *n.get_ref();
                if !(lo..=hi).contains(&x) {
                    return Err(self.err(
                        &n.span(),
                        format!("{key} = {x} is out of range"),
                        format!("an integer from {lo} to {hi}"),
                    ));
                }
                Ok(x as u32)
            }
        }
    }
}

/// The most builds (variants) one experiment may ask for: each is a compile and link of its
/// own, seconds each, so more is a mistake in the file, not a study.
pub const MAX_BUILDS: u128 = 10_000;
/// The most runs (builds x machines x seeds) one experiment may ask for.
pub const MAX_RUNS: u128 = 100_000;

/// Refuses an experiment bigger than [`MAX_BUILDS`] builds or [`MAX_RUNS`] runs, counted
/// from its axes' lengths before any variant is made: `builds` is how the axes multiply (for
/// the message), `n_builds` and `n_runs` the counts (in u128: no axis product overflows).
#[allow(clippy::too_many_arguments)]
pub fn check_size(
    src: &Src,
    builds_span: &std::ops::Range<usize>,
    runs_span: &std::ops::Range<usize>,
    builds: &str,
    n_builds: u128,
    runs: &str,
    n_runs: u128,
) -> Result<(), ConfigError> {
    if n_builds > MAX_BUILDS {
        return Err(src.err(
            builds_span,
            format!("the axes give {builds} = {n_builds} builds"),
            format!("at most {MAX_BUILDS} builds in one experiment (fewer axis values)"),
        ));
    }
    if n_runs > MAX_RUNS {
        return Err(src.err(
            runs_span,
            format!("{runs} = {n_runs} runs"),
            format!("at most {MAX_RUNS} runs in one experiment (fewer seeds or axis values)"),
        ));
    }
    Ok(())
}

/// An input file named at `span` of an experiment file (a machine file): it must be a
/// regular file that can be opened, else the contract's 66 at that line.
pub fn input_file_at(
    src: &Src,
    span: &std::ops::Range<usize>,
    p: &Path,
    what: &str,
) -> Result<(), ConfigError> {
    let reason = match std::fs::metadata(p) {
        Ok(m) if m.is_file() => match std::fs::File::open(p) {
            Ok(_) => return Ok(()),
            Err(e) => io_reason(&e),
        },
        Ok(m) if m.is_dir() => "it is a directory".to_string(),
        Ok(_) => "it is not a regular file (a device, a pipe or a socket)".to_string(),
        Err(e) => io_reason(&e),
    };
    Err(ConfigError::Io {
        path: p.to_path_buf(),
        at: invalid_at(src.shown, src.text, span, "", "")
            .location()
            .cloned(),
        what: what.to_string(),
        reason,
    })
}

fn io_reason(e: &std::io::Error) -> String {
    let s = e.to_string();
    s.split(" (os error").next().unwrap_or(&s).to_string()
}

/// The longest define (`-DNAME=VALUE`) an experiment may give a build, and the most bytes of
/// defines in all one build may get from it: more would not fit on the compiler's command
/// line (Linux takes 128 KiB in one argument, about 2 MB in all) and could only fail as a
/// compiler that cannot be started.
pub const MAX_DEFINE_BYTES: usize = 4096;
pub const MAX_DEFINES_BYTES: usize = 65536;

/// Checks one build's defines against [`MAX_DEFINE_BYTES`] and [`MAX_DEFINES_BYTES`].
pub fn defines_fit(src: &Src, defines: &[Spanned<String>]) -> Result<(), ConfigError> {
    let mut total = 0;
    for f in defines {
        let n = f.get_ref().len();
        total += n + 1;
        if n > MAX_DEFINE_BYTES {
            return Err(src.err(
                &f.span(),
                format!("a define of {n} bytes"),
                format!("at most {MAX_DEFINE_BYTES} bytes in one define"),
            ));
        }
        if total > MAX_DEFINES_BYTES {
            return Err(src.err(
                &f.span(),
                format!("the defines reach {total} bytes here"),
                format!("at most {MAX_DEFINES_BYTES} bytes of defines for one build"),
            ));
        }
    }
    Ok(())
}

/// `-DNAME` or `-DNAME=VALUE`: a define that needs no quoting in a TOML string or a shell.
pub fn is_define(f: &str) -> bool {
    let Some(body) = f.strip_prefix("-D") else {
        return false;
    };
    let (name, value) = body.split_once('=').unwrap_or((body, ""));
    let mut chars = name.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && value
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '-')
}
