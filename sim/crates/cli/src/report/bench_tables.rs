//! A benchmark file of `make bench` (`out/bench/NAME.json`, keys in docs/contract.md,
//! "Benchmark files") as HTML tables, by the shape of each top-level key's value, so that
//! every file reads as its figures are organised without a renderer per file:
//!
//! - numbers, strings, booleans and null at the top level: one table `figure | value`;
//! - a map of maps (`sched_overhead_cycles[sched][n]`): a table, a row per outer key and a
//!   column per inner key (the union; a dash where a row lacks one);
//! - a map of values (`footprint_text_bytes{minimal,full}`): a table of one row;
//! - a list of maps (`rtm.json`'s `synthesis`): a row per element, a column per key;
//! - anything deeper: its leaves as dotted keys (`by_load.0.fair.time_us`).
//!
//! Keys come in the file's key order, except that keys which are all numbers (sizes, task
//! counts, record counts) go in numeric order: 1, 2, 16, not 1, 16, 2.

use super::html::esc;
use serde_json::{Map, Value};
use std::fmt::Write as _;

/// A cell: numbers as JSON writes them, strings without quotes, a dash for a missing one.
fn cell(v: Option<&Value>) -> String {
    match v {
        None => "-".into(),
        Some(Value::String(s)) => s.clone(),
        Some(Value::Null) => "null".into(),
        Some(x) => x.to_string(),
    }
}

fn is_scalar(v: &Value) -> bool {
    !matches!(v, Value::Object(_) | Value::Array(_))
}

/// A table with a caption, a header and rows.
fn table(caption: &str, header: &[String], rows: &[Vec<String>]) -> String {
    let mut s = String::from("<table>");
    if !caption.is_empty() {
        let _ = write!(s, "<caption>{}</caption>", esc(caption));
    }
    s.push_str("<thead><tr>");
    for h in header {
        let _ = write!(s, "<th>{}</th>", esc(h));
    }
    s.push_str("</tr></thead><tbody>\n");
    for r in rows {
        s.push_str("<tr>");
        for c in r {
            let _ = write!(s, "<td>{}</td>", esc(c));
        }
        s.push_str("</tr>\n");
    }
    s.push_str("</tbody></table>\n");
    s
}

/// `keys` in numeric order if all are numbers, else as they are.
fn ordered(mut keys: Vec<String>) -> Vec<String> {
    let num = |k: &String| k.parse::<f64>().ok();
    if keys.iter().all(|k| num(k).is_some()) {
        keys.sort_by(|a, b| num(a).partial_cmp(&num(b)).expect("numbers"));
    }
    keys
}

/// The union of the keys of `maps`, in first-seen order, then `ordered`.
fn columns<'a>(maps: impl Iterator<Item = &'a Map<String, Value>>) -> Vec<String> {
    let mut cols: Vec<String> = Vec::new();
    for m in maps {
        for k in m.keys() {
            if !cols.contains(k) {
                cols.push(k.clone());
            }
        }
    }
    ordered(cols)
}

/// Every leaf under `v` as (dotted key, value).
fn leaves(prefix: &str, v: &Value, out: &mut Vec<Vec<String>>) {
    let child = |k: &str| {
        if prefix.is_empty() {
            k.to_string()
        } else {
            format!("{prefix}.{k}")
        }
    };
    match v {
        Value::Object(m) => m.iter().for_each(|(k, x)| leaves(&child(k), x, out)),
        Value::Array(a) => a
            .iter()
            .enumerate()
            .for_each(|(i, x)| leaves(&child(&i.to_string()), x, out)),
        other => out.push(vec![prefix.to_string(), cell(Some(other))]),
    }
}

/// One top-level key's value as a table (None for a scalar: it joins the figures' table).
fn key_table(key: &str, v: &Value) -> Option<String> {
    let figure_value = ["figure".to_string(), "value".to_string()];
    match v {
        Value::Object(m) if m.values().all(is_scalar) => {
            let header = ordered(m.keys().cloned().collect());
            let row: Vec<String> = header.iter().map(|k| cell(m.get(k))).collect();
            Some(table(key, &header, &[row]))
        }
        Value::Object(m)
            if m.values()
                .all(|x| x.as_object().is_some_and(|i| i.values().all(is_scalar))) =>
        {
            let inner = || m.values().filter_map(Value::as_object);
            let cols = columns(inner());
            let mut header = vec![String::new()];
            header.extend(cols.iter().cloned());
            let rows: Vec<Vec<String>> = ordered(m.keys().cloned().collect())
                .into_iter()
                .map(|k| {
                    let mut r = vec![k.clone()];
                    r.extend(cols.iter().map(|c| cell(m[&k].get(c))));
                    r
                })
                .collect();
            Some(table(key, &header, &rows))
        }
        Value::Array(a)
            if !a.is_empty()
                && a.iter()
                    .all(|x| x.as_object().is_some_and(|i| i.values().all(is_scalar))) =>
        {
            let cols = columns(a.iter().filter_map(Value::as_object));
            let rows: Vec<Vec<String>> = a
                .iter()
                .map(|x| cols.iter().map(|c| cell(x.get(c))).collect())
                .collect();
            Some(table(key, &cols, &rows))
        }
        Value::Object(_) | Value::Array(_) => {
            let mut rows = Vec::new();
            leaves(key, v, &mut rows);
            Some(table(key, &figure_value, &rows))
        }
        _ => None,
    }
}

/// A benchmark file's figures as HTML tables: the top level's scalars first, then a table
/// per structured key, in the file's order.
pub fn html(v: &Value) -> String {
    let Some(top) = v.as_object() else {
        return table("", &["value".into()], &[vec![cell(Some(v))]]);
    };
    let scalars: Vec<Vec<String>> = top
        .iter()
        .filter(|(_, x)| is_scalar(x))
        .map(|(k, x)| vec![k.clone(), cell(Some(x))])
        .collect();
    let mut s = String::new();
    if !scalars.is_empty() {
        s += &table("", &["figure".into(), "value".into()], &scalars);
    }
    for (k, x) in top {
        if let Some(t) = key_table(k, x) {
            s += &t;
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn rows(html: &str) -> Vec<String> {
        html.lines()
            .filter(|l| l.starts_with("<tr>"))
            .map(|l| {
                l.replace("</td><td>", "|")
                    .replace("<tr><td>", "")
                    .replace("</td></tr>", "")
            })
            .collect()
    }

    #[test]
    fn a_kernel_file_reads_as_its_tables() {
        let v = json!({
            "irq_latency_worst_cycles": 40,
            "sched_overhead_cycles": {"prio": {"1": 100, "16": 120, "2": 110}, "rr": {"1": 90}},
            "footprint_text_bytes": {"minimal": 3000, "full": 9000},
            "synthesis": [{"records": 16, "cells": 500}, {"records": 64, "cells": 1900}],
            "by_load": {"0": {"fair": {"time_us": 5}}}
        });
        let h = html(&v);
        assert_eq!(
            rows(&h),
            [
                "irq_latency_worst_cycles|40",
                "by_load.0.fair.time_us|5",
                "9000|3000",
                "prio|100|110|120",
                "rr|90|-|-",
                "500|16",
                "1900|64",
            ]
        );
        assert!(h.contains("<caption>sched_overhead_cycles</caption>"));
        assert!(h.contains("<th></th><th>1</th><th>2</th><th>16</th>"));
        assert!(h.contains("<th>full</th><th>minimal</th>"));
    }

    #[test]
    fn cells_are_escaped() {
        let h = html(&json!({"setup": "<b>"}));
        assert!(h.contains("<td>&lt;b&gt;</td>"), "{h}");
    }
}
