//! An OS-overhead experiment file (the format is in mod.rs), read and checked. Errors name
//! the file, line and column (exit 65; 66 for a file that cannot be read).

use crate::experiment::bench_header::BenchHeader;
use crate::experiment::fields::input_file_at;
use crate::experiment::osrow::{file_sources, missing, required_int, OsRow, RawOsRow};
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
    scale: Option<Spanned<i64>>,
    max_cycles: Option<Spanned<i64>>,
    machine: Option<Spanned<String>>,
    programs: Option<Spanned<Vec<Spanned<String>>>>,
    sources: Option<Spanned<Vec<Spanned<String>>>>,
    row: Option<Spanned<Vec<RawRow>>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRow {
    name: Spanned<String>,
    os: Spanned<String>,
    tick_hz: Option<Spanned<i64>>,
    build: Option<Spanned<String>>,
    sources: Option<Spanned<Vec<Spanned<String>>>>,
    background: Option<bool>,
    bare: Option<bool>,
}

/// One row: its OS, whether the background runs beside the program, whether it is the
/// bare-metal reference.
#[derive(Debug)]
pub struct Row {
    pub os: OsRow,
    pub background: bool,
    pub bare: bool,
}

/// An OS-overhead experiment.
#[derive(Debug)]
pub struct Overhead {
    pub header: BenchHeader,
    /// `OV_SCALE`: the programs' input size.
    pub scale: u32,
    pub max_cycles: u64,
    /// The machine every run uses (its stimuli are the background's interrupts).
    pub machine: PathBuf,
    /// The programs, `OV_PROGRAM` 1, 2, ... in this order.
    pub programs: Vec<String>,
    pub rows: Vec<Row>,
}

/// The firmware's programs, in the order of `OV_PROGRAM`.
pub const PROGRAMS: [&str; 2] = ["basicmath", "fft"];

fn read_rows(
    src: &Doc,
    dir: &Path,
    raw: Option<Spanned<Vec<RawRow>>>,
    sources: &[PathBuf],
) -> Result<Vec<Row>, ConfigError> {
    let Some(list) = raw else {
        return Err(missing(
            src,
            "[[row]]",
            "[[row]] tables: name, os, background, bare",
        ));
    };
    let span = list.span();
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
        rows.push(Row {
            os,
            background: r.background.unwrap_or(false),
            bare: r.bare.unwrap_or(false),
        });
    }
    if rows.iter().filter(|r| r.bare).count() != 1 {
        return Err(src.err(
            &span,
            "the rows hold no bare-metal row, or more than one",
            "exactly one row with bare = true (the reference the others are compared with)",
        ));
    }
    Ok(rows)
}

/// Reads the experiment file `path` (its text in `src`).
pub fn parse(src: &Doc, path: &Path) -> Result<Overhead, ConfigError> {
    let raw: Raw = src.parse()?;
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let header = BenchHeader::read(src, path, &raw.name)?;
    let scale = required_int(
        src,
        &raw.scale,
        "scale",
        (1, 64),
        "the programs' input size, OV_SCALE",
    )? as u32;
    let max_cycles = required_int(
        src,
        &raw.max_cycles,
        "max_cycles",
        (1, i64::MAX),
        "each run's limit",
    )? as u64;
    let machine = match &raw.machine {
        Some(m) => {
            let p = dir.join(m.get_ref());
            input_file_at(src, &m.span(), &p, "the machine file")?;
            p
        }
        None => {
            return Err(missing(
                src,
                "machine",
                "machine = \"overhead/machine.toml\" (relative to this file)",
            ))
        }
    };
    let programs = src.strings(&raw.programs, "programs", &PROGRAMS, &[])?;
    if programs.is_empty() {
        return Err(missing(
            src,
            "programs",
            "programs = [\"basicmath\", \"fft\"]",
        ));
    }
    let sources = file_sources(src, &dir, &raw.sources)?;
    let rows = read_rows(src, &dir, raw.row, &sources)?;
    Ok(Overhead {
        header,
        scale,
        max_cycles,
        machine,
        programs,
        rows,
    })
}
