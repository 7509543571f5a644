//! `ubik report DIR --markdown`: every experiment under DIR as Markdown tables on stdout, the
//! form docs/results.md embeds (scripts/results-tables.sh splices them in), so the documented
//! numbers are the experiments' output and cannot drift from the code.

use crate::results::{ExperimentResult, Table};
use std::fmt::Write as _;

/// The cell of `col` in `row`, "" if the table has no such column.
fn cell<'a>(t: &'a Table, row: &'a [String], col: &str) -> &'a str {
    t.header
        .iter()
        .position(|h| h == col)
        .map_or("", |i| row[i].as_str())
}

/// A number with `decimals`, or "none" for an empty cell (nothing measured).
fn num(s: &str, decimals: usize) -> String {
    match s.parse::<f64>() {
        Ok(x) => format!("{x:.decimals$}"),
        Err(_) => "none".into(),
    }
}

fn triple(t: &Table, row: &[String], cols: [&str; 3]) -> String {
    cols.map(|c| num(cell(t, row, c), 1)).join(" / ")
}

/// One SimBed experiment's variants: work done against work expected, deviation and delay
/// percentiles, utilisation and energy; overloaded rows marked.
fn simbed_table(t: &Table) -> String {
    let mut s = String::from(
        "| variant | util % | outputs produced / expected | on time | abs. deviation p50 / p99 / max (us) | stimuli unanswered | delay p50 / p99 / max (us) | energy (mJ) |\n\
         | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n",
    );
    for row in &t.rows {
        let c = |col| cell(t, row, col);
        let overloaded = c("overloaded") == "1";
        let outputs = format!("{} / {}", c("outputs_produced"), c("outputs_expected"));
        let on_time = match c("on_time").parse::<f64>() {
            Ok(x) => format!("{:.1} %", x * 100.0),
            Err(_) => "none".into(),
        };
        let energy_mj = c("energy_j")
            .parse::<f64>()
            .map_or("none".into(), |e| format!("{:.4}", e * 1e3));
        let _ = writeln!(
            s,
            "| {}{} | {} | {} | {} | {} | {} of {} | {} | {} |",
            c("label"),
            if overloaded { " **OVERLOAD**" } else { "" },
            num(c("utilisation"), 3)
                .parse::<f64>()
                .map_or("none".into(), |u| format!("{:.1}", u * 100.0)),
            if overloaded && c("tasks_short") != "0" {
                format!("**{outputs}** ({} short)", c("tasks_short"))
            } else {
                outputs
            },
            on_time,
            triple(t, row, ["dev_p50_us", "dev_p99_us", "dev_max_us"]),
            c("stimuli_unanswered"),
            c("stimuli"),
            triple(t, row, ["delay_p50_us", "delay_p99_us", "delay_max_us"]),
            energy_mj,
        );
    }
    s
}

/// Every column of a table as it is (the DPM experiments' `dpm.csv`).
fn plain_table(t: &Table) -> String {
    let mut s = format!("| {} |\n|", t.header.join(" | "));
    for _ in &t.header {
        s.push_str(" --- |");
    }
    s.push('\n');
    for row in &t.rows {
        let cells: Vec<String> = row
            .iter()
            .map(|c| {
                if c.is_empty() {
                    "none".into()
                } else {
                    c.clone()
                }
            })
            .collect();
        let _ = writeln!(s, "| {} |", cells.join(" | "));
    }
    s
}

/// The Markdown of every experiment: a heading, what was run, the table.
pub fn render(exps: &[ExperimentResult]) -> String {
    let mut s = String::new();
    for e in exps {
        let m = &e.summary;
        let seeds: Vec<String> = m.seeds.iter().map(|x| x.to_string()).collect();
        let _ = writeln!(
            s,
            "#### `{}`: {} variant(s), {} ms simulated each, seeds [{}]{}\n",
            e.name,
            m.labels.len(),
            m.run_ms,
            seeds.join(", "),
            m.machine
                .as_ref()
                .map(|x| format!(", machine `{x}`"))
                .unwrap_or_default()
        );
        if m.dpm {
            s.push_str(&plain_table(&e.table));
        } else {
            s.push_str(&simbed_table(&e.table));
            let _ = writeln!(
                s,
                "\nOn time: |deviation| within {} % of the variant's output period; outputs expected from the writers' releases; a stimulus is unanswered with no response by the end of the run; \"none\": nothing measured (docs/experiments.md).",
                m.on_time_tolerance_pct.map_or("none".into(), |p| p.to_string())
            );
        }
        s.push('\n');
    }
    s
}
