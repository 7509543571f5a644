//! An app run's per-task figures (docs/experiments.md, "Per-task figures"): `tasks.csv` in
//! the run's directory, one row per task of the application (by its name, as
//! `ubik run --stats` reports it, docs/observe.md "Tasks and interrupt lines"), sorted by
//! name:
//!
//! ```text
//! task,cpu_us,activations,preemptions,response_p50_us,response_p99_us,response_max_us
//! consumer,49.16,4,0,17.07,17.07,17.07
//! idle,29950.67,3,3,,,
//! ```
//!
//! A response figure is empty when the task completed no response (the idle task never
//! does). A run of an image without the kernel's descriptor has no tasks: the file holds
//! the header alone.

use super::super::steps::io_fail;
use crate::run_stats::{Stats, TaskStats};
use crate::Failure;
use observe::report::csv_field;
use std::path::Path;

/// The header of `tasks.csv`.
pub const TASKS_CSV_HEADER: &str =
    "task,cpu_us,activations,preemptions,response_p50_us,response_p99_us,response_max_us";

/// The figures of `stats` that an experiment names `task.NAME.FIGURE` (figures.rs, for
/// `[[expect.bound]]`): every column of `tasks.csv` but the name, for every task.
pub fn figures(stats: &Stats) -> Vec<(String, Option<f64>)> {
    let mut out = Vec::new();
    for (name, t) in stats.tasks.iter().flatten() {
        for (figure, v) in row_values(t) {
            out.push((format!("task.{name}.{figure}"), v));
        }
    }
    out
}

/// The columns after `task`, by name, in the order of the header.
fn row_values(t: &TaskStats) -> [(&'static str, Option<f64>); 6] {
    [
        ("cpu_us", Some(t.cpu_us)),
        ("activations", Some(t.activations as f64)),
        ("preemptions", Some(t.preemptions as f64)),
        ("response_p50_us", t.response_p50_us),
        ("response_p99_us", t.response_p99_us),
        ("response_max_us", t.response_max_us),
    ]
}

/// The text of `tasks.csv` for a run's statistics.
pub fn tasks_csv(stats: &Stats) -> String {
    let mut csv = format!("{TASKS_CSV_HEADER}\n");
    for (name, t) in stats.tasks.iter().flatten() {
        csv += &csv_field(name);
        for (_, v) in row_values(t) {
            csv.push(',');
            if let Some(v) = v {
                csv += &v.to_string();
            }
        }
        csv.push('\n');
    }
    csv
}

/// Writes `dir/tasks.csv` for a run's statistics.
pub fn write_tasks_csv(dir: &Path, stats: &Stats) -> Result<(), Failure> {
    let p = dir.join("tasks.csv");
    std::fs::write(&p, tasks_csv(stats)).map_err(|e| io_fail("the per-task figures", &p, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stats() -> Stats {
        let t = |cpu_us, a, p, r: Option<(f64, f64, f64)>| TaskStats {
            activations: a,
            cpu_cycles: (cpu_us * 100.0) as u64,
            cpu_us,
            preemptions: p,
            response_max_us: r.map(|r| r.2),
            response_p50_us: r.map(|r| r.0),
            response_p99_us: r.map(|r| r.1),
            responses: r.map_or(0, |_| 3),
        };
        Stats {
            tasks: Some(
                [
                    ("idle".to_string(), t(2000.5, 3, 3, None)),
                    ("a,b".to_string(), t(49.16, 4, 0, Some((17.0, 17.5, 18.25)))),
                ]
                .into_iter()
                .collect(),
            ),
            ..Stats::default()
        }
    }

    #[test]
    fn one_row_per_task_by_name() {
        assert_eq!(
            tasks_csv(&stats()),
            format!("{TASKS_CSV_HEADER}\n\"a,b\",49.16,4,0,17,17.5,18.25\nidle,2000.5,3,3,,,\n")
        );
        assert_eq!(
            tasks_csv(&Stats::default()),
            format!("{TASKS_CSV_HEADER}\n")
        );
    }

    #[test]
    fn the_columns_are_the_figures_a_bound_may_name() {
        let cols = row_values(&TaskStats::default()).map(|(c, _)| c);
        assert_eq!(cols, super::super::figures::TASK);
        assert_eq!(TASKS_CSV_HEADER, format!("task,{}", cols.join(",")));
    }

    #[test]
    fn figures_are_named_by_task_and_column() {
        let f = figures(&stats());
        assert_eq!(f.len(), 12);
        assert!(f.contains(&("task.a,b.response_p99_us".into(), Some(17.5))));
        assert!(f.contains(&("task.idle.preemptions".into(), Some(3.0))));
        assert!(f.contains(&("task.idle.response_max_us".into(), None)));
    }
}
