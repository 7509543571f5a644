//! The RTM's figures from the files other tools write, as pure functions:
//!
//! - the synthesis results: one JSON object a line, as `hw/rtm/synth.sh` prints them
//!   (`{"records": N, "deadlines": 0|1, "flip_flops": n, "cells": n, "logic_depth": n}`);
//!   the reference configuration's figures head `rtm.json`;
//! - the RTM experiment's OS utilisation from its `variants.csv` (`ubik experiment
//!   experiments/rtm.toml`): per system, workload and task count, each OS category's cycles
//!   in % of the run's cycles (rounded to 4 decimals), and their sum `os_total`.

use serde_json::{Map, Value};

/// The OS categories of `utilisation`, as `variants.csv` names their `_cycles` columns.
pub const CATEGORIES: [&str; 6] = [
    "kernel_sched",
    "kernel_time",
    "kernel_ipc",
    "kernel_other",
    "lisr",
    "hisr",
];

/// The synthesis lines (blank lines skipped), each a JSON object with the five keys.
pub fn synthesis(text: &str) -> Result<Vec<Map<String, Value>>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let v: Value = serde_json::from_str(line).map_err(|e| format!("line {}: {e}", i + 1))?;
        let Value::Object(m) = v else {
            return Err(format!("line {}: expected a JSON object", i + 1));
        };
        for k in ["records", "deadlines", "flip_flops", "cells", "logic_depth"] {
            if !m.get(k).is_some_and(Value::is_u64) {
                return Err(format!("line {}: expected an integer `{k}`", i + 1));
            }
        }
        out.push(m);
    }
    Ok(out)
}

/// The configuration with `records` records and no deadline query.
pub fn reference(synth: &[Map<String, Value>], records: u64) -> Option<&Map<String, Value>> {
    synth.iter().find(|m| {
        m.get("records").and_then(Value::as_u64) == Some(records)
            && m.get("deadlines").and_then(Value::as_u64) == Some(0)
    })
}

/// `x` rounded to 4 decimals (the nearest, ties to even on the exact binary value).
fn round4(x: f64) -> f64 {
    format!("{x:.4}").parse().unwrap_or(x)
}

/// `utilisation[system][workload][tasks]` from a `variants.csv`.
pub fn utilisation(csv: &str) -> Result<Map<String, Value>, String> {
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap_or("").split(',').collect();
    let col = |name: &str| {
        header
            .iter()
            .position(|h| *h == name)
            .ok_or_else(|| format!("no column {name}"))
    };
    let (system, workload, tasks, cycles) = (
        col("system")?,
        col("workload")?,
        col("tasks")?,
        col("cycles")?,
    );
    let cats: Vec<usize> = CATEGORIES
        .iter()
        .map(|c| col(&format!("{c}_cycles")))
        .collect::<Result<_, _>>()?;
    let mut util = Map::new();
    for (i, line) in lines.enumerate() {
        let row: Vec<&str> = line.split(',').collect();
        let cell = |c: usize| row.get(c).copied().unwrap_or("");
        let num = |c: usize| {
            cell(c)
                .parse::<u64>()
                .map_err(|_| format!("row {}: {} is not a cycle count", i + 2, header[c]))
        };
        let total = num(cycles)?.max(1) as f64;
        let mut shares = Map::new();
        let mut sum = 0.0;
        for (name, &c) in CATEGORIES.iter().zip(&cats) {
            let s = round4(100.0 * num(c)? as f64 / total);
            sum += s;
            shares.insert((*name).into(), s.into());
        }
        shares.insert("os_total".into(), round4(sum).into());
        let by_workload = util
            .entry(cell(system))
            .or_insert_with(|| Value::Object(Map::new()));
        let by_tasks = by_workload.as_object_mut().map(|m| {
            m.entry(cell(workload))
                .or_insert_with(|| Value::Object(Map::new()))
        });
        if let Some(Value::Object(m)) = by_tasks {
            m.insert(cell(tasks).into(), Value::Object(shares));
        }
    }
    Ok(util)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn synthesis_lines_and_the_reference() {
        let text = "{\"records\": 16, \"deadlines\": 0, \"flip_flops\": 1, \"cells\": 2, \"logic_depth\": 3}\n\n\
{\"records\": 64, \"deadlines\": 1, \"flip_flops\": 9, \"cells\": 9, \"logic_depth\": 9}\n\
{\"records\": 64, \"deadlines\": 0, \"flip_flops\": 4, \"cells\": 5, \"logic_depth\": 6}\n";
        let s = synthesis(text).unwrap();
        assert_eq!(s.len(), 3);
        assert_eq!(reference(&s, 64).unwrap()["cells"], json!(5));
        assert!(reference(&s, 256).is_none());
        assert!(synthesis("{\"records\": 16}\n")
            .unwrap_err()
            .contains("deadlines"));
        assert!(synthesis("nonsense\n").unwrap_err().starts_with("line 1"));
    }

    #[test]
    fn utilisation_in_percent_of_the_run() {
        let csv = "label,system,workload,tasks,cycles,kernel_sched_cycles,kernel_time_cycles,kernel_ipc_cycles,kernel_other_cycles,lisr_cycles,hisr_cycles\n\
a,ubik-rtm,adpcm,4,3000,1,2,3,0,1000,0\n\
b,ubik-prio,adpcm,4,0,0,0,0,0,0,0\n";
        let u = Value::Object(utilisation(csv).unwrap());
        let want = json!({
            "ubik-rtm": {"adpcm": {"4": {"kernel_sched": 0.0333, "kernel_time": 0.0667,
                "kernel_ipc": 0.1, "kernel_other": 0.0, "lisr": 33.3333, "hisr": 0.0,
                "os_total": 33.5333}}},
            "ubik-prio": {"adpcm": {"4": {"kernel_sched": 0.0, "kernel_time": 0.0,
                "kernel_ipc": 0.0, "kernel_other": 0.0, "lisr": 0.0, "hisr": 0.0,
                "os_total": 0.0}}},
        });
        assert_eq!(u, want);
        assert!(utilisation("system,cycles\n")
            .unwrap_err()
            .contains("no column"));
    }
}
