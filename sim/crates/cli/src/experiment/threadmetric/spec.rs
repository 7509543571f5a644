//! A Thread-Metric experiment's file (the format is in mod.rs), read into [`ThreadMetric`]:
//! its header, the measuring windows, the scenarios with the schedulers each applies to (by
//! the policy table's properties, select.rs), and the three kinds of row (Ubik per scheduler,
//! NOS, FreeRTOS) with the sources each is built from. Errors name the file, line and column
//! (exit 65; 66 for a source file that cannot be read).

use crate::experiment::bench_header::BenchHeader;
use crate::experiment::fields::{defines_fit, input_file_at, is_define, twice};
use crate::experiment::select::{RawSelect, Select};
use confread::{ConfigError, Doc};
use serde::Deserialize;
use std::path::{Path, PathBuf};
use toml::Spanned;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    #[allow(dead_code)]
    kind: Option<Spanned<String>>,
    name: Option<Spanned<String>>,
    sources: Spanned<String>,
    period_ms: Spanned<i64>,
    periods: Spanned<i64>,
    max_cycles: Option<Spanned<i64>>,
    scenario: Spanned<Vec<RawScenario>>,
    ubik: RawUbik,
    nos: Option<RawNos>,
    freertos: Option<RawFreertos>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawScenario {
    name: Spanned<String>,
    number: Spanned<i64>,
    schedulers: Option<RawSelect>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawUbik {
    files: Spanned<Vec<Spanned<String>>>,
    tick_hz: Spanned<i64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawNos {
    files: Spanned<Vec<Spanned<String>>>,
    scenarios: Spanned<Vec<Spanned<String>>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFreertos {
    files: Spanned<Vec<Spanned<String>>>,
    build: Spanned<String>,
    scenarios: Option<Spanned<Vec<Spanned<String>>>>,
    extra: Option<Vec<RawExtra>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawExtra {
    key: Spanned<String>,
    scenario: Spanned<String>,
    cflags: Vec<Spanned<String>>,
}

/// One Thread-Metric scenario: its name (the figure's key), its number (`TM_SCENARIO`) and
/// the schedulers it applies to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scenario {
    pub name: String,
    pub number: u32,
    pub select: Select,
}

/// The rows of one OS: the source files (in the sources directory) each image is made of,
/// and the scenarios (indices into [`ThreadMetric::scenarios`]) it runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rows {
    pub files: Vec<PathBuf>,
    pub scenarios: Vec<usize>,
}

/// A FreeRTOS figure beyond the scenarios': its key, the scenario it runs, the extra flags.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Extra {
    pub key: String,
    pub scenario: usize,
    pub cflags: Vec<String>,
}

/// A Thread-Metric experiment, read and checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThreadMetric {
    pub header: BenchHeader,
    pub period_ms: u32,
    pub periods: u32,
    pub max_cycles: u64,
    pub scenarios: Vec<Scenario>,
    /// Ubik's rows: every scenario, on each scheduler it selects.
    pub ubik: Rows,
    pub tick_hz: u32,
    pub nos: Option<Rows>,
    /// FreeRTOS's rows, their build command and the extra figures.
    pub freertos: Option<(Rows, PathBuf, Vec<Extra>)>,
}

/// A scenario's or figure's name: it is a JSON key and part of a directory name.
fn is_key(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

/// Reads the experiment file `path` (its text in `src`).
pub fn parse(src: &Doc, path: &Path) -> Result<ThreadMetric, ConfigError> {
    let raw: Raw = src.parse()?;
    let header = BenchHeader::read(src, path, &raw.name)?;
    let here = path.parent().unwrap_or(Path::new(""));
    let dir = here.join(raw.sources.get_ref());
    if !dir.is_dir() {
        return Err(src.err(
            &raw.sources.span(),
            format!(
                "sources = {:?}: {} is not a directory",
                raw.sources.get_ref(),
                dir.display()
            ),
            "the directory of the Thread-Metric sources, relative to this file",
        ));
    }
    let period_ms = src.int_from_to(&raw.period_ms, "period_ms", 1, 10_000)? as u32;
    let periods = src.int_from_to(&raw.periods, "periods", 1, 1000)? as u32;
    let max_cycles = match &raw.max_cycles {
        Some(m) => src.int_from_to(m, "max_cycles", 1, i64::MAX)? as u64,
        None => 4_000_000_000,
    };
    let scenarios = scenarios(src, &raw.scenario)?;
    let all: Vec<usize> = (0..scenarios.len()).collect();
    let ubik = Rows {
        files: files(src, &dir, &raw.ubik.files)?,
        scenarios: all.clone(),
    };
    let tick_hz = src.int_from_to(&raw.ubik.tick_hz, "ubik.tick_hz", 1, 100_000)? as u32;
    let nos = match &raw.nos {
        Some(n) => Some(Rows {
            files: files(src, &dir, &n.files)?,
            scenarios: names(src, &scenarios, &n.scenarios)?,
        }),
        None => None,
    };
    let freertos = match &raw.freertos {
        Some(f) => Some(freertos(src, here, &dir, &scenarios, f, all)?),
        None => None,
    };
    Ok(ThreadMetric {
        header,
        period_ms,
        periods,
        max_cycles,
        scenarios,
        ubik,
        tick_hz,
        nos,
        freertos,
    })
}

/// `[[scenario]]`: at least one; names and numbers each once.
fn scenarios(src: &Doc, raw: &Spanned<Vec<RawScenario>>) -> Result<Vec<Scenario>, ConfigError> {
    if raw.get_ref().is_empty() {
        return Err(src.err(&raw.span(), "no scenarios", "at least one [[scenario]]"));
    }
    let mut out: Vec<Scenario> = Vec::new();
    for s in raw.get_ref() {
        let name = s.name.get_ref();
        if !is_key(name) {
            return Err(src.err(
                &s.name.span(),
                format!("scenario name {name:?} is not usable as a figure's key"),
                "lower-case letters, digits and '_'",
            ));
        }
        let number = src.int_from_to(&s.number, "number", 1, 99)? as u32;
        if out.iter().any(|o| &o.name == name) {
            return Err(twice(src, &s.name.span(), format!("scenario {name:?}")));
        }
        if out.iter().any(|o| o.number == number) {
            return Err(twice(
                src,
                &s.number.span(),
                format!("scenario number {number}"),
            ));
        }
        let select = match &s.schedulers {
            Some(r) => Select::read(src, r)?,
            None => Select::default(),
        };
        out.push(Scenario {
            name: name.clone(),
            number,
            select,
        });
    }
    Ok(out)
}

/// Source files of the sources directory `dir`, each a plain file name listed once.
fn files(
    src: &Doc,
    dir: &Path,
    raw: &Spanned<Vec<Spanned<String>>>,
) -> Result<Vec<PathBuf>, ConfigError> {
    if raw.get_ref().is_empty() {
        return Err(src.err(
            &raw.span(),
            "no files",
            "the sources one image is built from",
        ));
    }
    let mut out: Vec<PathBuf> = Vec::new();
    for f in raw.get_ref() {
        let name = f.get_ref();
        if name.is_empty() || name.contains('/') || name.starts_with('.') {
            return Err(src.err(
                &f.span(),
                format!("{name:?} is not a file name"),
                "the name of a file in the sources directory",
            ));
        }
        let p = dir.join(name);
        if out.contains(&p) {
            return Err(twice(src, &f.span(), format!("file {name:?}")));
        }
        input_file_at(src, &f.span(), &p, "a Thread-Metric source")?;
        out.push(p);
    }
    Ok(out)
}

/// Scenario names, each one of `[[scenario]]` and listed once: their indices.
fn names(
    src: &Doc,
    scenarios: &[Scenario],
    raw: &Spanned<Vec<Spanned<String>>>,
) -> Result<Vec<usize>, ConfigError> {
    if raw.get_ref().is_empty() {
        return Err(src.err(&raw.span(), "no scenarios", "at least one scenario's name"));
    }
    let mut out = Vec::new();
    for n in raw.get_ref() {
        let i = scenario_index(src, scenarios, n)?;
        if out.contains(&i) {
            return Err(twice(src, &n.span(), format!("scenario {:?}", n.get_ref())));
        }
        out.push(i);
    }
    Ok(out)
}

fn scenario_index(
    src: &Doc,
    scenarios: &[Scenario],
    n: &Spanned<String>,
) -> Result<usize, ConfigError> {
    scenarios
        .iter()
        .position(|s| &s.name == n.get_ref())
        .ok_or_else(|| {
            let known: Vec<&str> = scenarios.iter().map(|s| s.name.as_str()).collect();
            src.err(
                &n.span(),
                format!("{:?} is not a scenario of this file", n.get_ref()),
                format!("one of {}", confread::quoted_list(&known)),
            )
        })
}

/// `[freertos]`: its files, build command (relative to this file), scenarios (default all)
/// and extra figures.
fn freertos(
    src: &Doc,
    here: &Path,
    dir: &Path,
    scenarios: &[Scenario],
    f: &RawFreertos,
    all: Vec<usize>,
) -> Result<(Rows, PathBuf, Vec<Extra>), ConfigError> {
    let rows = Rows {
        files: files(src, dir, &f.files)?,
        scenarios: match &f.scenarios {
            Some(s) => names(src, scenarios, s)?,
            None => all,
        },
    };
    let build = here.join(f.build.get_ref());
    input_file_at(src, &f.build.span(), &build, "the FreeRTOS build command")?;
    let mut extra: Vec<Extra> = Vec::new();
    for e in f.extra.iter().flatten() {
        let key = e.key.get_ref();
        if !is_key(key) {
            return Err(src.err(
                &e.key.span(),
                format!("key {key:?} is not usable as a figure's key"),
                "lower-case letters, digits and '_'",
            ));
        }
        if scenarios.iter().any(|s| &s.name == key) || extra.iter().any(|x| &x.key == key) {
            return Err(twice(src, &e.key.span(), format!("figure {key:?}")));
        }
        for c in &e.cflags {
            if !is_define(c.get_ref()) {
                return Err(src.err(
                    &c.span(),
                    format!("{:?} is not a define", c.get_ref()),
                    "-DNAME or -DNAME=VALUE",
                ));
            }
        }
        defines_fit(src, &e.cflags)?;
        extra.push(Extra {
            key: key.clone(),
            scenario: scenario_index(src, scenarios, &e.scenario)?,
            cflags: e.cflags.iter().map(|c| c.get_ref().clone()).collect(),
        });
    }
    Ok((rows, build, extra))
}
