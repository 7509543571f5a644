//! The result folders `ubik report` renders, read and checked before anything is written:
//! each experiment directory of `ubik experiment` (`summary.json`, `variants.csv` or, for
//! `kind = "dpm"`, `dpm.csv`, and the `*.svg` figures) and the benchmark files
//! `bench/*.json` of `make bench`.
//!
//! Bad result data is one line naming the file (and the line, for text formats), what is
//! wrong and what was expected, exit 65; a file that cannot be read is exit 66.

use crate::{code, Failure};
use machine::infile::{read_bounded, Pipes, ReadError};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// Largest result file read, in bytes: every file `ubik experiment` writes is far smaller.
pub const MAX_RESULT_BYTES: u64 = 256 << 20;

/// The columns of `variants.csv` the report shows (all must be present).
pub const VARIANT_COLUMNS: [&str; 16] = [
    "label",
    "utilisation",
    "outputs_expected",
    "outputs_produced",
    "stimuli",
    "stimuli_unanswered",
    "overloaded",
    "on_time_tolerance_us",
    "on_time",
    "dev_p50_us",
    "dev_p99_us",
    "dev_max_us",
    "delay_p50_us",
    "delay_p99_us",
    "delay_max_us",
    "energy_j",
];

/// The columns every `dpm.csv` has (the report shows all of its columns).
pub const DPM_COLUMNS: [&str; 8] = [
    "label",
    "workload",
    "mode",
    "policy",
    "avg_current_ma",
    "energy_mj",
    "saving_vs_default_pct",
    "deadline_misses",
];

/// Columns that hold names, not numbers.
const TEXT_COLUMNS: [&str; 8] = [
    "label",
    "system",
    "os",
    "scheduler",
    "workload",
    "seed",
    "mode",
    "policy",
];
/// Columns that may be empty: NOS has no scheduler; a policy's saving needs a default's energy
/// (and a run that keeps its deadlines); a measure of no samples is empty, not 0.
const MAY_BE_EMPTY: [&str; 13] = [
    "scheduler",
    "saving_vs_default_pct",
    "on_time",
    "dev_p50_us",
    "dev_p99_us",
    "dev_max_us",
    "dev_p99_pct",
    "jitter_p01_us",
    "jitter_p99_us",
    "delay_mean_us",
    "delay_p50_us",
    "delay_p99_us",
    "delay_max_us",
];

/// A CSV file of `ubik experiment`: the header and the rows, every row as wide as the header.
pub struct Table {
    pub header: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

/// What the report shows of `summary.json`.
pub struct Summary {
    pub dpm: bool,
    pub labels: Vec<String>,
    pub run_ms: u64,
    pub seeds: Vec<u64>,
    /// The machine file's name (SimBed experiments; null when none was recorded).
    pub machine: Option<String>,
    pub jitter_bin_us: Option<u64>,
    /// The on-time window, % of the output period (SimBed experiments).
    pub on_time_tolerance_pct: Option<f64>,
}

/// One experiment directory.
pub struct ExperimentResult {
    pub name: String,
    pub summary: Summary,
    /// `variants.csv`, or `dpm.csv` for a DPM experiment.
    pub table: Table,
    /// The figures, jitter first, then delay, then the rest (the paper's Figs. 1, 2, 3):
    /// (file name, SVG text).
    pub figures: Vec<(String, String)>,
}

/// One `bench/*.json` file.
pub struct Bench {
    pub name: String,
    pub value: Value,
    /// The OS-overhead suite's files (`suite::SUITE_FILES`), checked and read as rows x metrics.
    pub suite: Option<super::suite::SuiteTable>,
}

pub(super) fn bad(path: &Path, what: impl std::fmt::Display) -> Failure {
    Failure::new(code::DATA, format!("{}: {what}", path.display()))
}

pub(super) fn bad_at(path: &Path, line: usize, what: impl std::fmt::Display) -> Failure {
    Failure::new(code::DATA, format!("{}:{line}: {what}", path.display()))
}

pub(super) fn cannot_read(path: &Path, what: &str, e: &std::io::Error) -> Failure {
    let reason = e.to_string();
    let reason = reason
        .split(" (os error")
        .next()
        .unwrap_or(&reason)
        .to_string();
    Failure::new(
        code::NO_INPUT,
        format!(
            "{}: cannot read {what}: {reason}; expected a readable file",
            path.display()
        ),
    )
}

fn file_name(p: &Path) -> String {
    p.file_name()
        .map(|x| x.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// 1-based line and column of byte `offset` of `bytes` (columns count bytes).
fn line_col(bytes: &[u8], offset: usize) -> (usize, usize) {
    let before = &bytes[..offset.min(bytes.len())];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let col = offset
        - before
            .iter()
            .rposition(|&b| b == b'\n')
            .map(|i| i + 1)
            .unwrap_or(0)
        + 1;
    (line, col)
}

/// The text of a result file: readable (66), not too large, not empty, UTF-8 (65).
/// `what` describes the file as `ubik experiment` writes it.
pub(super) fn read_text(path: &Path, what: &str) -> Result<String, Failure> {
    let bytes = read_bounded(path, MAX_RESULT_BYTES, Pipes::Refused).map_err(|e| match e {
        ReadError::TooLarge { limit } => bad(
            path,
            format!("the file is too large; expected {what} of at most {limit} bytes"),
        ),
        // Missing, unreadable, or a directory, device or pipe: cannot read (66).
        other => Failure::new(
            code::NO_INPUT,
            format!(
                "{}: cannot read {what}: {other}; expected a readable file",
                path.display()
            ),
        ),
    })?;
    if bytes.iter().all(|b| b.is_ascii_whitespace()) {
        return Err(bad(path, format!("the file is empty; expected {what}")));
    }
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let raw = e.as_bytes();
        let (line, col) = line_col(raw, at);
        Failure::new(
            code::DATA,
            format!(
                "{}:{line}:{col}: byte 0x{:02x} is not UTF-8 text; expected {what}",
                path.display(),
                raw[at]
            ),
        )
    })
}

/// A JSON document; a syntax error names its line and column.
fn read_json(path: &Path, what: &str) -> Result<Value, Failure> {
    let text = read_text(path, what)?;
    serde_json::from_str(&text).map_err(|e| {
        let msg = e.to_string();
        let suffix = format!(" at line {} column {}", e.line(), e.column());
        let msg = msg.strip_suffix(&suffix).unwrap_or(&msg);
        Failure::new(
            code::DATA,
            format!(
                "{}:{}:{}: {msg}; expected {what}",
                path.display(),
                e.line().max(1),
                e.column().max(1)
            ),
        )
    })
}

/// A short description of a JSON value for messages: its type and, if short, its text.
fn describe(v: &Value) -> String {
    let kind = match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    };
    let text = v.to_string();
    if text.chars().count() <= 32 && !matches!(v, Value::Null) {
        format!("{text} ({kind})")
    } else {
        kind.to_string()
    }
}

/// Reads the keys of one JSON object, naming the file (and the object) in every error.
struct Fields<'a> {
    path: &'a Path,
    /// "" for the top level, else e.g. "variants[3]".
    at: String,
    obj: &'a serde_json::Map<String, Value>,
}

impl<'a> Fields<'a> {
    fn of(path: &'a Path, at: String, v: &'a Value) -> Result<Fields<'a>, Failure> {
        match v.as_object() {
            Some(obj) => Ok(Fields { path, at, obj }),
            None => {
                let place = if at.is_empty() {
                    "the top level".to_string()
                } else {
                    at
                };
                Err(bad(
                    path,
                    format!("{place} is {}; expected a JSON object", describe(v)),
                ))
            }
        }
    }

    fn key(&self, k: &str) -> String {
        if self.at.is_empty() {
            format!("\"{k}\"")
        } else {
            format!("{}.\"{k}\"", self.at)
        }
    }

    fn get(&self, k: &str, expected: &str) -> Result<&'a Value, Failure> {
        self.obj.get(k).ok_or_else(|| {
            bad(
                self.path,
                format!("{} is missing; expected {expected}", self.key(k)),
            )
        })
    }

    fn wrong(&self, k: &str, v: &Value, expected: &str) -> Failure {
        bad(
            self.path,
            format!("{} is {}; expected {expected}", self.key(k), describe(v)),
        )
    }

    fn u64(&self, k: &str, expected: &str) -> Result<u64, Failure> {
        let v = self.get(k, expected)?;
        v.as_u64().ok_or_else(|| self.wrong(k, v, expected))
    }

    fn string(&self, k: &str, expected: &str) -> Result<String, Failure> {
        let v = self.get(k, expected)?;
        v.as_str()
            .map(str::to_string)
            .ok_or_else(|| self.wrong(k, v, expected))
    }

    fn array(&self, k: &str, expected: &str) -> Result<&'a Vec<Value>, Failure> {
        let v = self.get(k, expected)?;
        v.as_array().ok_or_else(|| self.wrong(k, v, expected))
    }
}

/// `summary.json` of an experiment.
fn read_summary(path: &Path) -> Result<Summary, Failure> {
    let doc = read_json(path, "the JSON summary that `ubik experiment` writes")?;
    let top = Fields::of(path, String::new(), &doc)?;
    top.string("experiment", "the experiment's name (a string)")?;
    let dpm = match top.obj.get("kind") {
        None => false,
        Some(Value::String(k)) if k == "simbed" => false,
        Some(Value::String(k)) if k == "dpm" => true,
        Some(v) => return Err(top.wrong("kind", v, "\"simbed\" or \"dpm\"")),
    };
    let run_ms = top.u64(
        "run_ms",
        "the simulated length of each run in ms (an unsigned integer)",
    )?;
    let seeds_expected = "the seeds (an array of unsigned integers)";
    let mut seeds = Vec::new();
    for (i, s) in top.array("seeds", seeds_expected)?.iter().enumerate() {
        seeds.push(s.as_u64().ok_or_else(|| {
            bad(
                path,
                format!(
                    "\"seeds\"[{i}] is {}; expected an unsigned integer",
                    describe(s)
                ),
            )
        })?);
    }
    let (machine, jitter_bin_us) = if dpm {
        (None, None)
    } else {
        let machine = match top.get("machine", "the machine file's name (a string, or null)")? {
            Value::Null => None,
            Value::String(s) => Some(s.clone()),
            v => {
                return Err(top.wrong("machine", v, "the machine file's name (a string, or null)"))
            }
        };
        let bin = top.u64(
            "jitter_bin_us",
            "the histogram bin in us (an unsigned integer)",
        )?;
        (machine, Some(bin))
    };
    let on_time_tolerance_pct = match top.obj.get("on_time_tolerance_pct") {
        None | Some(Value::Null) => None,
        Some(Value::Number(n)) => n.as_f64(),
        Some(v) => {
            return Err(top.wrong(
                "on_time_tolerance_pct",
                v,
                "the on-time window in % of the period (a number)",
            ))
        }
    };
    let mut labels = Vec::new();
    for (i, v) in top
        .array("variants", "the variants (an array of objects)")?
        .iter()
        .enumerate()
    {
        let f = Fields::of(path, format!("\"variants\"[{i}]"), v)?;
        let label = f.string("label", "the variant's label (a string)")?;
        if label.is_empty() {
            return Err(bad(
                path,
                format!("{} is empty; expected the variant's label", f.key("label")),
            ));
        }
        labels.push(label);
    }
    Ok(Summary {
        dpm,
        labels,
        run_ms,
        seeds,
        machine,
        jitter_bin_us,
        on_time_tolerance_pct,
    })
}

/// A CSV file of `ubik experiment` (no quoting: no field holds a comma), with the `required`
/// columns, every row as wide as the header, numbers where numbers belong.
fn read_table(path: &Path, required: &[&str]) -> Result<Table, Failure> {
    let what = "the CSV table that `ubik experiment` writes";
    let text = read_text(path, what)?;
    let mut lines = text.lines();
    let header: Vec<String> = lines
        .next()
        .unwrap_or("")
        .split(',')
        .map(str::to_string)
        .collect();
    for c in required {
        if !header.iter().any(|h| h == c) {
            return Err(bad_at(
                path,
                1,
                format!(
                    "the header has no column \"{c}\"; expected {what}, with the columns {}",
                    required.join(",")
                ),
            ));
        }
    }
    let mut rows = Vec::new();
    for (i, line) in lines.enumerate() {
        let n = i + 2;
        let row: Vec<String> = line.split(',').map(str::to_string).collect();
        if row.len() != header.len() {
            return Err(bad_at(
                path,
                n,
                format!(
                    "the row has {} fields; expected {}, as the header",
                    row.len(),
                    header.len()
                ),
            ));
        }
        for (name, cell) in header.iter().zip(&row) {
            if cell.is_empty() {
                if !MAY_BE_EMPTY.contains(&name.as_str()) {
                    return Err(bad_at(
                        path,
                        n,
                        format!("column \"{name}\" is empty; expected a value"),
                    ));
                }
            } else if !TEXT_COLUMNS.contains(&name.as_str()) && cell.parse::<f64>().is_err() {
                let shown: String = cell.chars().take(32).collect();
                return Err(bad_at(
                    path,
                    n,
                    format!("column \"{name}\" is {shown:?}; expected a number"),
                ));
            }
        }
        rows.push(row);
    }
    Ok(Table { header, rows })
}

/// The rows of `table` are the variants of `summary`, in order.
fn check_labels(
    path: &Path,
    table: &Table,
    summary: &Summary,
    summary_path: &Path,
) -> Result<(), Failure> {
    if table.rows.len() != summary.labels.len() {
        return Err(bad(
            path,
            format!(
                "{} row(s); expected {}, one per variant of {}",
                table.rows.len(),
                summary.labels.len(),
                summary_path.display()
            ),
        ));
    }
    let col = table.header.iter().position(|h| h == "label").unwrap_or(0);
    for (i, (row, label)) in table.rows.iter().zip(&summary.labels).enumerate() {
        if &row[col] != label {
            return Err(bad_at(
                path,
                i + 2,
                format!(
                    "label {:?}; expected {label:?}, the variant {} of {}",
                    row[col],
                    i + 1,
                    summary_path.display()
                ),
            ));
        }
    }
    Ok(())
}

/// The `*.svg` figures of an experiment directory, in the report's order.
fn read_figures(dir: &Path) -> Result<Vec<(String, String)>, Failure> {
    let rd =
        std::fs::read_dir(dir).map_err(|e| cannot_read(dir, "the experiment directory", &e))?;
    let mut paths: Vec<PathBuf> = rd
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "svg") && !p.is_dir())
        .collect();
    paths.sort_by_key(|p| {
        let n = file_name(p);
        let rank = if n.starts_with("jitter") {
            0
        } else if n.starts_with("delay") {
            1
        } else {
            2
        };
        (rank, n)
    });
    let mut figures = Vec::new();
    for p in paths {
        let what = "an SVG figure that `ubik experiment` writes";
        let svg = read_text(&p, what)?;
        let body = svg.trim();
        if !(body.starts_with("<svg") || body.starts_with("<?xml"))
            || !body.contains("<svg")
            || !body.ends_with("</svg>")
        {
            return Err(bad(
                &p,
                format!("not a complete SVG image (<svg ...> ... </svg>); expected {what}"),
            ));
        }
        figures.push((file_name(&p), svg));
    }
    Ok(figures)
}

/// The experiment in `dir` (which holds a `summary.json`).
pub fn read_experiment(dir: &Path) -> Result<ExperimentResult, Failure> {
    let summary_path = dir.join("summary.json");
    let summary = read_summary(&summary_path)?;
    let table_path = dir.join(if summary.dpm {
        "dpm.csv"
    } else {
        "variants.csv"
    });
    let required: &[&str] = if summary.dpm {
        &DPM_COLUMNS
    } else {
        &VARIANT_COLUMNS
    };
    let table = read_table(&table_path, required)?;
    check_labels(&table_path, &table, &summary, &summary_path)?;
    let figures = read_figures(dir)?;
    Ok(ExperimentResult {
        name: file_name(dir),
        summary,
        table,
        figures,
    })
}

/// The experiment directories under `dir` (and `dir` itself): those with a `summary.json`,
/// sorted by name.
pub fn experiment_dirs(dir: &Path) -> Result<Vec<PathBuf>, Failure> {
    dirs_holding(dir, "summary.json")
}

/// `dir` if it holds the file `marker`, then the directories under it that do, sorted by
/// name: the experiments of one kind in a results directory.
pub fn dirs_holding(dir: &Path, marker: &str) -> Result<Vec<PathBuf>, Failure> {
    let mut v = Vec::new();
    if dir.join(marker).is_file() {
        v.push(dir.to_path_buf());
    }
    let rd = std::fs::read_dir(dir).map_err(|e| cannot_read(dir, "the results directory", &e))?;
    let mut subs: Vec<PathBuf> = rd
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir() && p.join(marker).is_file())
        .collect();
    subs.sort();
    v.extend(subs);
    Ok(v)
}

/// The benchmark files `dir/bench/*.json` (not the `*.stats.json` of single runs), sorted.
pub fn read_benches(dir: &Path) -> Result<Vec<Bench>, Failure> {
    let bench_dir = dir.join("bench");
    if !bench_dir.is_dir() {
        return Ok(Vec::new());
    }
    let rd = std::fs::read_dir(&bench_dir)
        .map_err(|e| cannot_read(&bench_dir, "the benchmark directory", &e))?;
    let mut paths: Vec<PathBuf> = rd
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.extension().is_some_and(|x| x == "json")
                && !file_name(p).ends_with(".stats.json")
                && !p.is_dir()
        })
        .collect();
    paths.sort();
    let mut benches = Vec::new();
    for p in paths {
        let value = read_json(&p, "a JSON object of benchmark figures (`make bench`)")?;
        if !value.is_object() {
            return Err(bad(&p, format!("the top level is {}; expected a JSON object of benchmark figures (`make bench`)", describe(&value))));
        }
        let name = file_name(&p);
        let suite = match super::suite::caption(&name) {
            Some(_) => Some(super::suite::parse(&value).map_err(|e| bad(&p, e))?),
            None => None,
        };
        benches.push(Bench { name, value, suite });
    }
    Ok(benches)
}
