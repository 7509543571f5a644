//! App experiments in `ubik report` (`kind = "app"`, docs/experiments.md): a directory with
//! an `app.csv` (one row per run: build, machine, seed, exit, cycles, energy, pass, why) and
//! `runs/RUN/tasks.csv` (one row per task of the run). Read and checked like every result
//! file (bad data: one line naming FILE:LINE, exit 65), then shown as two tables: the runs,
//! and every run's tasks (CPU time, activations, preemptions, response p50 / p99 / max).
//!
//! `app.csv` quotes its text fields (`"..."`, a quote doubled inside); columns other than
//! the ones the report shows may be there and are left out.

use super::html::esc;
use super::results::{bad, bad_at, cannot_read, read_text};
use crate::Failure;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The columns of `app.csv` the report shows (all must be present).
pub const RUN_COLUMNS: [&str; 8] = [
    "build", "machine", "seed", "exit", "cycles", "energy_j", "pass", "why",
];
/// The columns of `tasks.csv` (all must be present).
pub const TASK_COLUMNS: [&str; 7] = [
    "task",
    "cpu_us",
    "activations",
    "preemptions",
    "response_p50_us",
    "response_p99_us",
    "response_max_us",
];
/// Columns of either file that hold numbers (besides `response_max_us`).
const NUMBER_COLUMNS: [&str; 9] = [
    "seed",
    "exit",
    "cycles",
    "energy_j",
    "cpu_us",
    "activations",
    "preemptions",
    "response_p50_us",
    "response_p99_us",
];
/// Columns that may be empty: no reason (a run that passed), no exit code (a run that did
/// not halt), no energy, no completed response.
const MAY_BE_EMPTY: [&str; 6] = [
    "why",
    "exit",
    "energy_j",
    "response_p50_us",
    "response_p99_us",
    "response_max_us",
];

/// A CSV file reduced to the columns the report shows, in their order.
pub struct Rows {
    pub header: Vec<&'static str>,
    pub rows: Vec<Vec<String>>,
}

/// One app experiment's directory.
pub struct AppResult {
    pub name: String,
    /// `app.csv`, its `RUN_COLUMNS`.
    pub runs: Rows,
    /// Every run's `tasks.csv` (the run's directory name, its rows), by run name.
    pub tasks: Vec<(String, Rows)>,
}

/// The fields of one CSV line: split at commas outside quotes, quotes removed (a doubled
/// quote inside a quoted field is one quote). None if a quote is left open.
fn fields(line: &str) -> Option<Vec<String>> {
    let mut out = vec![String::new()];
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' if quoted && chars.peek() == Some(&'"') => {
                chars.next();
                out.last_mut()?.push('"');
            }
            '"' => quoted = !quoted,
            ',' if !quoted => out.push(String::new()),
            c => out.last_mut()?.push(c),
        }
    }
    (!quoted).then_some(out)
}

/// A CSV file of the app kind with the `required` columns (kept, in that order).
fn read_rows(path: &Path, required: &[&'static str], what: &str) -> Result<Rows, Failure> {
    let text = read_text(path, what)?;
    let mut lines = text.lines();
    let header = fields(lines.next().unwrap_or(""))
        .ok_or_else(|| bad_at(path, 1, format!("a quote is left open; expected {what}")))?;
    let mut keep = Vec::new();
    for c in required {
        let i = header.iter().position(|h| h == c).ok_or_else(|| {
            bad_at(
                path,
                1,
                format!(
                    "the header has no column \"{c}\"; expected {what}, with the columns {}",
                    required.join(",")
                ),
            )
        })?;
        keep.push(i);
    }
    let mut rows = Vec::new();
    for (i, line) in lines.enumerate() {
        let n = i + 2;
        let row = fields(line)
            .ok_or_else(|| bad_at(path, n, format!("a quote is left open; expected {what}")))?;
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
        let mut kept = Vec::new();
        for (&i, name) in keep.iter().zip(required) {
            let cell = &row[i];
            if cell.is_empty() && !MAY_BE_EMPTY.contains(name) {
                return Err(bad_at(
                    path,
                    n,
                    format!("column \"{name}\" is empty; expected a value"),
                ));
            }
            let number = NUMBER_COLUMNS.contains(name) || *name == "response_max_us";
            if number && !cell.is_empty() && cell.parse::<f64>().is_err() {
                let shown: String = cell.chars().take(32).collect();
                return Err(bad_at(
                    path,
                    n,
                    format!("column \"{name}\" is {shown:?}; expected a number"),
                ));
            }
            if *name == "pass" && cell != "true" && cell != "false" {
                let shown: String = cell.chars().take(32).collect();
                return Err(bad_at(
                    path,
                    n,
                    format!("column \"pass\" is {shown:?}; expected true or false"),
                ));
            }
            kept.push(cell.clone());
        }
        rows.push(kept);
    }
    Ok(Rows {
        header: required.to_vec(),
        rows,
    })
}

/// The app experiment in `dir` (which holds an `app.csv`).
pub fn read_app(dir: &Path) -> Result<AppResult, Failure> {
    let runs = read_rows(
        &dir.join("app.csv"),
        &RUN_COLUMNS,
        "the runs' CSV table that `ubik experiment` writes for kind = \"app\"",
    )?;
    let mut tasks = Vec::new();
    let runs_dir = dir.join("runs");
    if runs_dir.is_dir() {
        let rd = std::fs::read_dir(&runs_dir)
            .map_err(|e| cannot_read(&runs_dir, "the runs' directory", &e))?;
        let mut dirs: Vec<PathBuf> = rd
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.join("tasks.csv").exists())
            .collect();
        dirs.sort();
        for d in dirs {
            let t = read_rows(
                &d.join("tasks.csv"),
                &TASK_COLUMNS,
                "the per-task CSV table of an app run (`ubik experiment`)",
            )?;
            let name = d
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            tasks.push((name, t));
        }
    }
    if runs.rows.is_empty() {
        return Err(bad(
            &dir.join("app.csv"),
            "no runs; expected a row per run of the experiment",
        ));
    }
    let name = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    Ok(AppResult { name, runs, tasks })
}

/// The directories under `dir` (and `dir` itself) that hold an `app.csv`, sorted by name.
pub fn app_dirs(dir: &Path) -> Result<Vec<PathBuf>, Failure> {
    super::results::dirs_holding(dir, "app.csv")
}

/// A cell as shown: numbers with a fraction to 3 decimals (tiny ones in scientific form),
/// an empty cell as "none".
fn shown(cell: &str) -> String {
    match cell.parse::<f64>() {
        Ok(x) if cell.contains('.') || cell.contains('e') => {
            if x != 0.0 && x.abs() < 1e-3 {
                format!("{x:.3e}")
            } else {
                format!("{x:.3}")
            }
        }
        _ if cell.is_empty() => "none".into(),
        _ => cell.to_string(),
    }
}

/// The cells of `a`'s runs (a run that passed has no reason: an empty cell) and of its
/// tasks, each task's row led by its run's name.
fn table_rows(a: &AppResult) -> (Vec<Vec<String>>, Vec<Vec<String>>) {
    let runs = a
        .runs
        .rows
        .iter()
        .map(|r| {
            r.iter()
                .zip(&a.runs.header)
                .map(|(c, &h)| if h == "why" { c.clone() } else { shown(c) })
                .collect()
        })
        .collect();
    let mut tasks = Vec::new();
    for (run, t) in &a.tasks {
        for r in &t.rows {
            let mut row = vec![run.clone()];
            row.extend(r.iter().map(|c| shown(c)));
            tasks.push(row);
        }
    }
    (runs, tasks)
}

/// The runs that passed, of all.
fn passed(a: &AppResult) -> (usize, usize) {
    let n = a.runs.rows.len();
    let ok = a.runs.rows.iter().filter(|r| r[6] == "true").count();
    (ok, n)
}

/// One app experiment's section of the HTML page.
pub fn html_section(h: &mut String, a: &AppResult) {
    let (ok, n) = passed(a);
    let _ = writeln!(
        h,
        "<h2 id=\"exp-{0}\">Experiment {0} (app)</h2>",
        esc(&a.name)
    );
    let _ = writeln!(h, "<p class=\"note\">{ok} of {n} runs passed. Per task: CPU time, activations (times switched in), preemptions (switched out while ready), response time from release (the task made ready) to block, nearest-rank percentiles in us of simulated time (docs/observe.md, \"Tasks and interrupt lines\"); none: no response completed.</p>");
    let (runs, tasks) = table_rows(a);
    let mut task_header = vec!["run"];
    task_header.extend(TASK_COLUMNS);
    for (header, rows) in [(a.runs.header.clone(), runs), (task_header, tasks)] {
        h.push_str("<div class=\"wide\"><table><thead><tr>");
        for c in header {
            let _ = write!(h, "<th>{}</th>", esc(c));
        }
        h.push_str("</tr></thead><tbody>\n");
        for r in rows {
            h.push_str("<tr>");
            for c in r {
                let _ = write!(h, "<td>{}</td>", esc(&c));
            }
            h.push_str("</tr>\n");
        }
        h.push_str("</tbody></table></div>\n");
    }
}

/// One app experiment as Markdown tables.
pub fn markdown(a: &AppResult) -> String {
    let (ok, n) = passed(a);
    let mut s = format!("#### `{}` (app): {ok} of {n} runs passed\n\n", a.name);
    let (runs, tasks) = table_rows(a);
    let mut task_header = vec!["run"];
    task_header.extend(TASK_COLUMNS);
    for (header, rows) in [(a.runs.header.clone(), runs), (task_header, tasks)] {
        let _ = writeln!(s, "| {} |", header.join(" | "));
        let _ = writeln!(s, "|{}", " --- |".repeat(header.len()));
        for r in rows {
            let cells: Vec<String> = r.iter().map(|c| c.replace('|', "\\|")).collect();
            let _ = writeln!(s, "| {} |", cells.join(" | "));
        }
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_fields_are_split_and_unquoted() {
        assert_eq!(
            fields(r#"a,"b,c","say ""hi""",,"""#).unwrap(),
            ["a", "b,c", "say \"hi\"", "", ""]
        );
        assert_eq!(fields("x"), Some(vec!["x".to_string()]));
        assert_eq!(fields("\"open,"), None);
    }

    #[test]
    fn cells_are_shown_rounded_or_none() {
        assert_eq!(shown("17.5"), "17.500");
        assert_eq!(shown("0.00000230271455"), "2.303e-6");
        assert_eq!(shown("3015475"), "3015475");
        assert_eq!(shown(""), "none");
        assert_eq!(shown("prio"), "prio");
    }
}
