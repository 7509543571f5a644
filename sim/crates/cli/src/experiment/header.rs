//! The header every kind of experiment file but the hypervisor's has: its name (which names
//! the output directory `out/NAME`), the simulated run length and the seeds. One type, one
//! reader per key; each kind calls them in the order it checks its keys, so a file with
//! several errors keeps reporting the same one first.
//!
//! The kinds grew apart before the header was shared, and their messages are part of the
//! contract: SimBed and DPM seeds are the stimulus generators' 32-bit seeds, checked as an
//! integer axis ([`sweep_seeds`]); an `app` experiment's may be any non-negative integer
//! ([`app_seeds`]), and its `run_ms` is worded as milliseconds.

use confread::{ConfigError, Doc};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use toml::Spanned;

/// The longest run an experiment may ask for, in simulated milliseconds (an hour).
pub const MAX_RUN_MS: i64 = 3_600_000;
/// The run length without `run_ms`.
pub const DEFAULT_RUN_MS: u32 = 1000;

/// What every kind's file says about the experiment as a whole.
#[derive(Clone, Debug)]
pub struct Header {
    /// `name`, or the file's stem: the output directory's name and the messages'.
    pub name: String,
    /// Simulated milliseconds of each run (at least).
    pub run_ms: u32,
    /// One run per seed (the stimulus generators' seed).
    pub seeds: Vec<u64>,
}

impl Header {
    /// The output directory: `-o DIR`, else `out/NAME`.
    pub fn output(&self, given: Option<PathBuf>) -> PathBuf {
        given.unwrap_or_else(|| PathBuf::from("out").join(&self.name))
    }
}

/// Can `s` name an experiment's output directory (letters, digits, '-' and '_')?
pub fn is_dir_name(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// `name`: a plain directory name; without it, the file's stem (which must be one).
pub fn read_name(
    src: &Doc,
    path: &Path,
    name: &Option<Spanned<String>>,
) -> Result<String, ConfigError> {
    match name {
        Some(n) => {
            let s = n.get_ref();
            if !is_dir_name(s) {
                return Err(src.err(
                    &n.span(),
                    format!("name {s:?} is not usable as a directory name"),
                    "letters, digits, '-' and '_'",
                ));
            }
            Ok(s.clone())
        }
        None => name_from_stem(src, path),
    }
}

/// The name of an experiment without a `name` key: its file's stem, which becomes the output
/// directory `out/STEM` (and the builds' and runs' messages), so it must be a plain directory
/// name -- `..`, `.` or a hidden name would put the output somewhere else.
fn name_from_stem(src: &Doc, path: &Path) -> Result<String, ConfigError> {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let plain = !stem.is_empty()
        && !stem.starts_with('.')
        && stem
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if plain {
        Ok(stem)
    } else {
        Err(src.err(
            &(0..0),
            format!("the experiment has no `name`, and its file name's stem {stem:?} is not a plain directory name for its output"),
            "name = \"NAME\" (letters, digits, '-' and '_'), or a file named NAME.toml with NAME of letters, digits, '-', '_' and '.', not starting with '.'",
        ))
    }
}

/// `run_ms`: from 1 ms to an hour, [`DEFAULT_RUN_MS`] without the key; `expected` is the
/// kind's wording of the range.
pub fn read_run_ms(
    src: &Doc,
    run_ms: &Option<Spanned<i64>>,
    expected: &str,
) -> Result<u32, ConfigError> {
    match run_ms {
        Some(r) => Ok(src.int_range(r, "run_ms", 1, MAX_RUN_MS, expected)? as u32),
        None => Ok(DEFAULT_RUN_MS),
    }
}

/// The seeds of a SimBed or DPM experiment: an integer axis of 32-bit values, `[1]` without
/// the key.
pub fn sweep_seeds(
    src: &Doc,
    seeds: &Option<Spanned<Vec<Spanned<i64>>>>,
) -> Result<Vec<u64>, ConfigError> {
    // (A value listed twice is refused: two runs of one seed would be the same run, writing
    // the same files at once.)
    Ok(src
        .distinct_ints(seeds, "seeds", "seed", (0, u32::MAX as i64), &[1])?
        .into_iter()
        .map(|s| s as u64)
        .collect())
}

/// The seeds of an `app` experiment: each non-negative and listed once (one seed twice would
/// be one run twice, into one directory); `[1]` without the key.
pub fn app_seeds(
    src: &Doc,
    seeds: &Option<Spanned<Vec<Spanned<i64>>>>,
) -> Result<Vec<u64>, ConfigError> {
    let Some(s) = seeds else {
        return Ok(vec![1]);
    };
    let mut v = Vec::new();
    let mut seen = HashSet::new();
    for x in s.get_ref() {
        if *x.get_ref() < 0 {
            return Err(src.err(
                &x.span(),
                format!("seed {} is negative", x.get_ref()),
                "seeds = [non-negative integers]",
            ));
        }
        if !seen.insert(*x.get_ref()) {
            return Err(src.err(
                &x.span(),
                format!("seed {} is listed twice", x.get_ref()),
                "each seed once",
            ));
        }
        v.push(*x.get_ref() as u64);
    }
    if v.is_empty() {
        return Err(src.err(&s.span(), "no seeds", "seeds = [at least one seed]"));
    }
    Ok(v)
}
