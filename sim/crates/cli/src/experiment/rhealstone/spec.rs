//! A Rhealstone experiment file (the format is in mod.rs), read and checked: every figure
//! with its firmware number and the schedulers it applies to, every row with its OS and
//! sources, the two edges and the agreement the cross-check asks for. Errors name the file,
//! line and column (exit 65; 66 for a source that cannot be read).

use crate::experiment::bench_header::BenchHeader;
use crate::experiment::measure::edges::EventSel;
use crate::experiment::osrow::{file_sources, missing, required_int, OsRow, RawOsRow};
use crate::experiment::select::{RawSelect, Select};
use confread::{quoted_list, ConfigError, Doc};
use serde::Deserialize;
use std::path::{Path, PathBuf};
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
    sources: Option<Spanned<Vec<Spanned<String>>>>,
    figure: Option<Spanned<Vec<RawFigure>>>,
    row: Option<Spanned<Vec<RawRow>>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFigure {
    name: Spanned<String>,
    number: Spanned<i64>,
    schedulers: Option<RawSelect>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRow {
    name: Spanned<String>,
    os: Spanned<String>,
    tick_hz: Option<Spanned<i64>>,
    build: Option<Spanned<String>>,
    sources: Option<Spanned<Vec<Spanned<String>>>>,
    figures: Option<Vec<Spanned<String>>>,
}

/// One of the firmware's figures.
#[derive(Clone, Debug)]
pub struct FigureSpec {
    pub name: String,
    /// `RH_FIGURE`: which path the image measures.
    pub number: u32,
    /// The Ubik schedulers it applies to (by the policy table's properties).
    pub schedulers: Select,
}

/// A row and the figures it measures (indices into `figures`).
#[derive(Debug)]
pub struct Row {
    pub os: OsRow,
    pub figures: Vec<usize>,
}

/// A Rhealstone experiment.
#[derive(Debug)]
pub struct Rhealstone {
    pub header: BenchHeader,
    /// Samples per figure (`RH_SAMPLES`).
    pub samples: u32,
    pub max_cycles: u64,
    pub start: EventSel,
    pub end: EventSel,
    /// The share of samples whose `mcycle` minus the edges must be one constant.
    pub agreement: f64,
    pub figures: Vec<FigureSpec>,
    pub rows: Vec<Row>,
}

fn read_figures(
    src: &Doc,
    raw: Option<Spanned<Vec<RawFigure>>>,
) -> Result<Vec<FigureSpec>, ConfigError> {
    let Some(list) = raw else {
        return Err(missing(src, "[[figure]]", "[[figure]] tables: name = \"task_switch\", number = 1 (RH_FIGURE), schedulers = { with = [...], without = [...] }"));
    };
    let mut out: Vec<FigureSpec> = Vec::new();
    for f in list.into_inner() {
        let name = f.name.get_ref();
        if !crate::experiment::header::is_dir_name(name) {
            return Err(src.err(
                &f.name.span(),
                format!("figure name {name:?} is not a plain name"),
                "letters, digits, '-' and '_'",
            ));
        }
        if out.iter().any(|o| &o.name == name) {
            return Err(src.err(
                &f.name.span(),
                format!("figure {name:?} is listed twice"),
                "each figure once",
            ));
        }
        let number = src.int_from_to(&f.number, "number", 1, 6)? as u32;
        if out.iter().any(|o| o.number == number) {
            return Err(src.err(
                &f.number.span(),
                format!("number = {number} is listed twice"),
                "each of the firmware's figures (RH_FIGURE 1..6) once",
            ));
        }
        out.push(FigureSpec {
            name: name.clone(),
            number,
            schedulers: Select::read(src, &f.schedulers.unwrap_or_default())?,
        });
    }
    Ok(out)
}

fn read_rows(
    src: &Doc,
    dir: &Path,
    raw: Option<Spanned<Vec<RawRow>>>,
    sources: &[PathBuf],
    figures: &[FigureSpec],
) -> Result<Vec<Row>, ConfigError> {
    let Some(list) = raw else {
        return Err(missing(src, "[[row]]", "[[row]] tables: name, os, figures"));
    };
    let mut rows: Vec<Row> = Vec::new();
    for r in list.into_inner() {
        let taken: Vec<OsRow> = rows.iter().map(|r| r.os.clone()).collect();
        let os = OsRow::read(
            src,
            dir,
            RawOsRow {
                name: &r.name,
                os: &r.os,
                tick_hz: &r.tick_hz,
                build: &r.build,
                sources: &r.sources,
            },
            &taken,
            sources,
        )?;
        let figs = match &r.figures {
            None => (0..figures.len()).collect(),
            Some(list) => {
                let mut v = Vec::new();
                for f in list {
                    match figures.iter().position(|x| &x.name == f.get_ref()) {
                        Some(i) if !v.contains(&i) => v.push(i),
                        Some(_) => {
                            return Err(src.err(
                                &f.span(),
                                format!("figure {:?} is listed twice", f.get_ref()),
                                "each figure once",
                            ))
                        }
                        None => {
                            let names: Vec<&str> =
                                figures.iter().map(|x| x.name.as_str()).collect();
                            return Err(src.err(
                                &f.span(),
                                format!(
                                    "figure {:?} is not one of the file's [[figure]]s",
                                    f.get_ref()
                                ),
                                format!("one of {}", quoted_list(&names)),
                            ));
                        }
                    }
                }
                v
            }
        };
        rows.push(Row { os, figures: figs });
    }
    Ok(rows)
}

fn read_edge(src: &Doc, v: &Option<Spanned<String>>, key: &str) -> Result<EventSel, ConfigError> {
    match v {
        Some(s) => EventSel::read(src, s),
        None => Err(missing(
            src,
            key,
            &format!("{key} = \"pin:N:rise\" (the path's {key} in the IO record)"),
        )),
    }
}

/// Reads the experiment file `path` (its text in `src`).
pub fn parse(src: &Doc, path: &Path) -> Result<Rhealstone, ConfigError> {
    let raw: Raw = src.parse()?;
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let header = BenchHeader::read(src, path, &raw.name)?;
    let samples = required_int(
        src,
        &raw.samples,
        "samples",
        (1, 100_000),
        "samples per figure, RH_SAMPLES",
    )? as u32;
    let max_cycles = required_int(
        src,
        &raw.max_cycles,
        "max_cycles",
        (1, i64::MAX),
        "each run's limit",
    )? as u64;
    let start = read_edge(src, &raw.start, "start")?;
    let end = read_edge(src, &raw.end, "end")?;
    let agreement =
        match &raw.agreement {
            Some(a) if *a.get_ref() > 0.0 && *a.get_ref() <= 1.0 => *a.get_ref(),
            Some(a) => {
                return Err(src.err(
                    &a.span(),
                    format!("agreement = {} is out of range", a.get_ref()),
                    "a share above 0 and at most 1 (0.9: nine samples in ten)",
                ))
            }
            None => return Err(missing(
                src,
                "agreement",
                "agreement = 0.9 (the share of samples whose mcycle - edges must be one constant)",
            )),
        };
    let sources = file_sources(src, &dir, &raw.sources)?;
    let figures = read_figures(src, raw.figure)?;
    let rows = read_rows(src, &dir, raw.row, &sources, &figures)?;
    Ok(Rhealstone {
        header,
        samples,
        max_cycles,
        start,
        end,
        agreement,
        figures,
        rows,
    })
}
