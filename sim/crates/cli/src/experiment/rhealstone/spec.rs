//! A Rhealstone experiment file (the format is in mod.rs), read and checked: every figure
//! with its firmware number and the schedulers it applies to, every row with its OS and
//! sources, the two edges and the agreement the cross-check asks for. Errors name the file,
//! line and column (exit 65; 66 for a source that cannot be read).

use crate::experiment::bench::{bench_name, read_sources, rows_of, OsRow, RawRow};
use crate::experiment::measure::edges::EventSel;
use crate::experiment::select::{read_schedulers, RawSchedulers};
use confread::{ConfigError, Doc};
use serde::Deserialize;
use std::path::Path;
use toml::Spanned;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    #[allow(dead_code)]
    kind: Option<Spanned<String>>,
    name: Option<Spanned<String>>,
    samples: Option<Spanned<i64>>,
    max_cycles: Option<Spanned<i64>>,
    start: Option<Spanned<String>>,
    end: Option<Spanned<String>>,
    agreement: Option<Spanned<f64>>,
    figure: Option<Spanned<Vec<RawFigure>>>,
    row: Option<Spanned<Vec<RawRow>>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFigure {
    name: Spanned<String>,
    number: Spanned<i64>,
    schedulers: Option<RawSchedulers>,
}

/// One of the firmware's figures.
#[derive(Clone, Debug)]
pub struct FigureSpec {
    pub name: String,
    /// `RH_FIGURE`: which path the image measures.
    pub number: u32,
    /// The Ubik schedulers it applies to (by the policy table's properties).
    pub schedulers: Vec<&'static str>,
}

/// A Rhealstone experiment.
#[derive(Debug)]
pub struct Rhealstone {
    pub name: String,
    /// Samples per figure (`RH_SAMPLES`).
    pub samples: u32,
    pub max_cycles: u64,
    pub start: EventSel,
    pub end: EventSel,
    /// The share of samples whose `mcycle` minus the edges must be one constant.
    pub agreement: f64,
    pub figures: Vec<FigureSpec>,
    pub rows: Vec<OsRow>,
}

/// The error for a key the file must have.
fn missing(src: &Doc, key: &str, expected: &str) -> ConfigError {
    src.err(&(0..0), format!("no `{key}`"), expected)
}

fn read_figures(src: &Doc, raw: Option<Spanned<Vec<RawFigure>>>) -> Result<Vec<FigureSpec>, ConfigError> {
    let Some(list) = raw else {
        return Err(missing(src, "[[figure]]", "[[figure]] tables: name = \"task_switch\", number = 1 (RH_FIGURE), schedulers = { with = [...], without = [...] }"));
    };
    if list.get_ref().is_empty() {
        return Err(src.err(&list.span(), "no figures", "at least one [[figure]]"));
    }
    let mut out: Vec<FigureSpec> = Vec::new();
    for f in list.into_inner() {
        let name = f.name.get_ref();
        if !crate::experiment::header::is_dir_name(name) {
            return Err(src.err(&f.name.span(), format!("figure name {name:?} is not a plain name"), "letters, digits, '-' and '_'"));
        }
        if out.iter().any(|o| &o.name == name) {
            return Err(src.err(&f.name.span(), format!("figure {name:?} is listed twice"), "each figure once"));
        }
        let number = src.int_from_to(&f.number, "number", 1, 6)? as u32;
        if out.iter().any(|o| o.number == number) {
            return Err(src.err(&f.number.span(), format!("number = {number} is listed twice"), "each of the firmware's figures (RH_FIGURE 1..6) once"));
        }
        out.push(FigureSpec {
            name: name.clone(),
            number,
            schedulers: read_schedulers(src, f.schedulers.as_ref())?,
        });
    }
    Ok(out)
}

fn read_edge(src: &Doc, v: &Option<Spanned<String>>, key: &str) -> Result<EventSel, ConfigError> {
    match v {
        Some(s) => EventSel::read(src, s),
        None => Err(missing(src, key, &format!("{key} = \"pin:N:rise\" (the path's {key} in the IO record)"))),
    }
}

/// Reads the experiment file `path` (its text in `src`).
pub fn parse(src: &Doc, path: &Path) -> Result<Rhealstone, ConfigError> {
    let raw: Raw = src.parse()?;
    let name = bench_name(src, path, &raw.name)?;
    let samples = match &raw.samples {
        Some(s) => src.int_from_to(s, "samples", 1, 100_000)? as u32,
        None => return Err(missing(src, "samples", "samples = N (samples per figure, RH_SAMPLES)")),
    };
    let max_cycles = match &raw.max_cycles {
        Some(m) => src.int_from_to(m, "max_cycles", 1, i64::MAX)? as u64,
        None => return Err(missing(src, "max_cycles", "max_cycles = N (each run's limit)")),
    };
    let start = read_edge(src, &raw.start, "start")?;
    let end = read_edge(src, &raw.end, "end")?;
    let agreement = match &raw.agreement {
        Some(a) if (0.0..=1.0).contains(a.get_ref()) && *a.get_ref() > 0.0 => *a.get_ref(),
        Some(a) => return Err(src.err(&a.span(), format!("agreement = {} is out of range", a.get_ref()), "a share above 0 and at most 1 (0.9: nine samples in ten)")),
        None => return Err(missing(src, "agreement", "agreement = 0.9 (the share of samples whose mcycle - edges is one constant)")),
    };
    let figures = read_figures(src, raw.figure)?;
    let names: Vec<&str> = figures.iter().map(|f| f.name.as_str()).collect();
    let rows = rows_of(src, raw.row, &names)?;
    for r in &rows {
        read_sources(src, r)?;
    }
    Ok(Rhealstone {
        name,
        samples,
        max_cycles,
        start,
        end,
        agreement,
        figures,
        rows,
    })
}
