//! What the experiment kinds read beyond confread's readers (the shared configuration
//! crate: a [`Doc`] locates every error at its file, line and column, exit 65): optional
//! integers and integer axes in the experiments' words, an `app` axis's emptiness and
//! repeats, the input files an experiment names (66 at their line when unreadable), the
//! defines it gives a build, and the limits that keep an experiment from asking for more
//! than a machine can build or run, counted before anything is made.

use confread::{ConfigError, Doc};
use std::path::Path;
use toml::Spanned;

/// A value listed twice on an axis would be one build (or run) twice, into one directory.
pub fn twice(doc: &Doc, span: &std::ops::Range<usize>, what: String) -> ConfigError {
    doc.err(span, format!("{what} is listed twice"), "each value once")
}

/// An `app` experiment's `[sweep]` axis given with no value.
pub fn axis_empty(doc: &Doc, n: usize, what: &str) -> Result<(), ConfigError> {
    if n == 0 {
        Err(doc.err(
            &(0..0),
            format!("[sweep] {what} is empty"),
            "at least one value, or no key (the application's own)",
        ))
    } else {
        Ok(())
    }
}

/// An integer from `lo` to `hi` ("KEY = N is out of range; expected an integer from LO to
/// HI"); `default` without the key.
pub fn int_or(
    doc: &Doc,
    v: &Option<Spanned<i64>>,
    key: &str,
    (lo, hi): (i64, i64),
    default: u32,
) -> Result<u32, ConfigError> {
    match v {
        Some(n) => Ok(doc.int_from_to(n, key, lo, hi)? as u32),
        None => Ok(default),
    }
}

/// An axis of integers from `lo` to `hi` (within u32), each listed once; `default` without
/// the key.
pub fn u32_axis(
    doc: &Doc,
    v: &Option<Spanned<Vec<Spanned<i64>>>>,
    key: &str,
    (lo, hi): (i64, i64),
    default: &[u32],
) -> Result<Vec<u32>, ConfigError> {
    let default: Vec<i64> = default.iter().map(|&d| d.into()).collect();
    Ok(doc
        .distinct_ints(v, key, key, (lo, hi), &default)?
        .into_iter()
        .map(|x| x as u32)
        .collect())
}

/// The most builds (variants) one experiment may ask for: each is a compile and link of its
/// own, seconds each, so more is a mistake in the file, not a study.
pub const MAX_BUILDS: u128 = 10_000;
/// The most runs (builds x machines x seeds) one experiment may ask for.
pub const MAX_RUNS: u128 = 100_000;

/// Refuses an experiment bigger than [`MAX_BUILDS`] builds or [`MAX_RUNS`] runs, counted
/// from its axes' lengths before any variant is made: `builds` is how the axes multiply (for
/// the message), `n_builds` and `n_runs` the counts (in u128: no axis product overflows).
pub fn check_size(
    src: &Doc,
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
    src: &Doc,
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
        at: Some(src.loc(span.start)),
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
pub fn defines_fit(src: &Doc, defines: &[Spanned<String>]) -> Result<(), ConfigError> {
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
