//! The rows of `runs.csv` and `variants.csv`. Each column is one entry of `COLUMNS`, its name
//! beside the code that formats its value, and the per-category columns come from
//! `Category::ALL`: the header and the rows are built from the same list and cannot drift.

use super::metrics::{abs_quantile_us, mean_us, quantile_us, RunMetrics};
use super::Variant;
use observe::Category;
use std::fmt::Write as _;

/// One line of `runs.csv` (one run: a variant and a seed) or of `variants.csv` (a variant
/// over all its seeds, `seed` = "all").
pub(super) struct CsvRow<'a> {
    pub v: &'a Variant,
    pub seed: &'a str,
    pub m: &'a RunMetrics,
    /// The on-time window: |deviation| at most this many microseconds.
    pub tolerance_us: f64,
}

/// Formats one cell of a row.
type Cell = fn(&CsvRow) -> String;

/// A measure, or an empty cell when nothing was measured (never a made-up 0).
pub(super) fn cell(x: Option<f64>, decimals: usize) -> String {
    x.map(|x| format!("{x:.decimals$}")).unwrap_or_default()
}

/// The columns before the per-category ones, in file order.
const COLUMNS: [(&str, Cell); 36] = [
    ("label", |r| r.v.label()),
    ("system", |r| r.v.system()),
    ("os", |r| r.v.os.to_string()),
    ("scheduler", |r| {
        r.v.scheduler.as_deref().unwrap_or("").to_string()
    }),
    ("workload", |r| r.v.workload.to_string()),
    ("tasks", |r| r.v.tasks.to_string()),
    ("period_us", |r| r.v.period_us.to_string()),
    ("ratio", |r| r.v.ratio.to_string()),
    ("output_period_us", |r| r.v.output_period_us().to_string()),
    ("seed", |r| r.seed.to_string()),
    ("run_ms", |r| r.v.run_ms.to_string()),
    ("cycles", |r| r.m.cycles.to_string()),
    ("sim_time_s", |r| format!("{:.9}", r.m.sim_time_s)),
    ("energy_j", |r| format!("{:.6e}", r.m.energy_j)),
    ("avg_power_w", |r| format!("{:.6e}", r.m.avg_power_w)),
    ("utilisation", |r| format!("{:.6}", r.m.utilisation)),
    ("outputs_expected", |r| r.m.outputs_expected().to_string()),
    ("outputs_produced", |r| r.m.outputs_produced().to_string()),
    ("tasks_short", |r| r.m.short_tasks().to_string()),
    ("stimuli", |r| r.m.stimuli.to_string()),
    ("stimuli_unanswered", |r| r.m.unanswered.to_string()),
    ("overloaded", |r| u8::from(r.m.overloaded()).to_string()),
    ("deadline_misses", |r| r.m.deadline_misses.to_string()),
    ("on_time_tolerance_us", |r| format!("{:.3}", r.tolerance_us)),
    ("on_time", |r| cell(r.m.on_time_share(), 6)),
    ("dev_p50_us", |r| {
        cell(abs_quantile_us(&r.m.jitter_ns, 0.5), 3)
    }),
    ("dev_p99_us", |r| {
        cell(abs_quantile_us(&r.m.jitter_ns, 0.99), 3)
    }),
    ("dev_max_us", |r| {
        cell(abs_quantile_us(&r.m.jitter_ns, 1.0), 3)
    }),
    ("dev_p99_pct", |r| {
        let period_us = r.v.output_period_us() as f64;
        cell(
            abs_quantile_us(&r.m.jitter_ns, 0.99).map(|d| d / period_us * 100.0),
            4,
        )
    }),
    ("jitter_p01_us", |r| {
        cell(quantile_us(&r.m.jitter_ns, 0.01), 3)
    }),
    ("jitter_p99_us", |r| {
        cell(quantile_us(&r.m.jitter_ns, 0.99), 3)
    }),
    ("delay_mean_us", |r| cell(mean_us(&r.m.delay_ns), 3)),
    ("delay_p50_us", |r| cell(quantile_us(&r.m.delay_ns, 0.5), 3)),
    ("delay_p99_us", |r| {
        cell(quantile_us(&r.m.delay_ns, 0.99), 3)
    }),
    ("delay_max_us", |r| cell(quantile_us(&r.m.delay_ns, 1.0), 3)),
    ("delays", |r| r.m.delay_ns.len().to_string()),
];

impl CsvRow<'_> {
    /// The header line: the column names, then `<category>_cycles,<category>_energy_j` for
    /// every category.
    pub fn header() -> String {
        let mut h = COLUMNS
            .iter()
            .map(|(name, _)| *name)
            .collect::<Vec<_>>()
            .join(",");
        for c in Category::NAMES {
            let _ = write!(h, ",{c}_cycles,{c}_energy_j");
        }
        h.push('\n');
        h
    }

    /// This row's line, in the header's column order.
    pub fn line(&self) -> String {
        let mut r = COLUMNS
            .iter()
            .map(|(_, cell)| cell(self))
            .collect::<Vec<_>>()
            .join(",");
        for c in Category::NAMES {
            let (cy, e) = self.m.by_category.get(c).copied().unwrap_or((0, 0.0));
            let _ = write!(r, ",{cy},{e:.6e}");
        }
        r.push('\n');
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_names_every_column_once() {
        let h = CsvRow::header();
        let names: Vec<&str> = h.trim_end().split(',').collect();
        assert_eq!(names.len(), COLUMNS.len() + 2 * Category::ALL.len());
        let unique: std::collections::BTreeSet<&str> = names.iter().copied().collect();
        assert_eq!(unique.len(), names.len(), "a column name repeats: {h}");
    }
}
