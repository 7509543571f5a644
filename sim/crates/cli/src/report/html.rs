//! `ubik report`'s HTML page: every experiment's settings, definitions, the paper's numbers,
//! table and figures (inlined SVG, so the page is a single file that reads offline), and the
//! benchmark files (the OS-overhead suite's as tables and bar charts, OS beside OS:
//! `suite.rs`; the hypervisor experiment's beside its paper: `hypervisor.rs`; any other as
//! tables by the shape of its keys: `bench_tables.rs`).

use super::app::AppResult;
use super::results::{Bench, ExperimentResult, Table, VARIANT_COLUMNS};
use super::suite;
use serde_json::Value;
use std::fmt::Write as _;
use std::path::Path;

/// `s` as HTML text (and attribute value).
pub(super) fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A table of `ubik experiment` as HTML, keeping the columns named in `cols` (all if empty).
fn html_table(t: &Table, cols: &[&str]) -> String {
    let keep: Vec<usize> = if cols.is_empty() {
        (0..t.header.len()).collect()
    } else {
        cols.iter()
            .filter_map(|c| t.header.iter().position(|n| n == c))
            .collect()
    };
    let mut s = String::from("<table><thead><tr>");
    for &i in &keep {
        let _ = write!(s, "<th>{}</th>", esc(&t.header[i]));
    }
    s.push_str("</tr></thead><tbody>\n");
    for row in &t.rows {
        s.push_str("<tr>");
        for &i in &keep {
            let cell = row[i].as_str();
            let shown = match cell.parse::<f64>() {
                Ok(x) if cell.contains('.') || cell.contains('e') => {
                    if x != 0.0 && x.abs() < 1e-3 {
                        format!("{x:.3e}")
                    } else {
                        format!("{x:.3}")
                    }
                }
                _ if cell.is_empty() => "none".to_string(),
                _ => cell.to_string(),
            };
            let _ = write!(s, "<td>{}</td>", esc(&shown));
        }
        s.push_str("</tr>\n");
    }
    s.push_str("</tbody></table>\n");
    s
}

/// A benchmark JSON as tables by the shape of its keys (`bench_tables.rs`).
fn json_table(v: &Value) -> String {
    super::bench_tables::html(v)
}

const STYLE: &str = "body{font-family:sans-serif;max-width:1200px;margin:2em auto;padding:0 1em;color:#222}\
h1{border-bottom:2px solid #444}h2{margin-top:2em;border-bottom:1px solid #aaa}\
table{border-collapse:collapse;font-size:12px;margin:1em 0}caption{text-align:left;font-weight:bold;padding:2px 0}td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}\
th{background:#eee}td:first-child,th:first-child{text-align:left}\
.figs{display:flex;flex-wrap:wrap;gap:12px}.figs figure{margin:0;width:calc(50% - 6px)}.figs svg{max-width:100%;height:auto;border:1px solid #ddd}\
.note{color:#555;font-size:13px}.wide{overflow-x:auto}";

/// The whole page: an index, then each experiment's section and the benchmarks'.
pub fn page(
    dir: &Path,
    exps: &[ExperimentResult],
    apps: &[AppResult],
    benches: &[Bench],
) -> String {
    let mut h = String::new();
    let _ = write!(h, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Ubik report</title><style>{STYLE}</style></head><body>\n<h1>Ubik report</h1>\n");
    let _ = writeln!(h, "<p class=\"note\">Results in <code>{}</code>: {} experiment(s), {} benchmark file(s). Every figure is measured on the Ubik testbed (cycle-exact Ibex timing); see docs/results.md for how.</p>", esc(&dir.display().to_string()), exps.len() + apps.len(), benches.len());
    h.push_str("<ul>");
    for e in exps {
        let _ = write!(
            h,
            "<li><a href=\"#exp-{0}\">experiment {0}</a></li>",
            esc(&e.name)
        );
    }
    for a in apps {
        let _ = write!(
            h,
            "<li><a href=\"#exp-{0}\">experiment {0}</a></li>",
            esc(&a.name)
        );
    }
    if !benches.is_empty() {
        h.push_str("<li><a href=\"#bench\">benchmarks</a></li>");
    }
    h.push_str("</ul>\n");

    for e in exps {
        experiment_section(&mut h, e);
    }
    for a in apps {
        super::app::html_section(&mut h, a);
    }
    if !benches.is_empty() {
        bench_section(&mut h, benches);
    }
    h.push_str("</body></html>\n");
    h
}

/// One experiment's section: its settings, the definitions of its measures, what the paper
/// reports, its table and its figures.
fn experiment_section(h: &mut String, e: &ExperimentResult) {
    let s = &e.summary;
    let _ = writeln!(h, "<h2 id=\"exp-{0}\">Experiment {0}</h2>", esc(&e.name));
    let seeds = s
        .seeds
        .iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(",");
    let _ = writeln!(
        h,
        "<p class=\"note\">{} variant(s), {} ms simulated each, seeds [{seeds}]{}.</p>",
        s.labels.len(),
        s.run_ms,
        match (&s.machine, s.jitter_bin_us) {
            (Some(m), Some(bin)) => format!(
                ", machine <code>{}</code>; histogram bins of {bin} us",
                esc(m)
            ),
            (None, Some(bin)) => format!("; histogram bins of {bin} us"),
            _ => String::new(),
        }
    );
    if !s.dpm {
        let _ = writeln!(
            h,
            "<p class=\"note\"><b>Definitions.</b> <i>outputs_expected / outputs_produced</i>: the outputs the writers' releases call for, and those the IO record shows; <i>on_time</i>: the share of the expected inter-arrivals whose |deviation from the period| is at most <i>on_time_tolerance_us</i> ({} % of the output period); <i>dev_p50/p99/max_us</i>: percentiles of |inter-arrival - period| (nearest rank); <i>stimuli_unanswered</i>: stimuli of the aperiodic interrupt with no response by the end of the run; <i>overloaded</i> (1, X in the figures): a task short of its outputs by more than the tolerance, or a stimulus unanswered; <i>delay</i>: stimulus to the responding output; an empty cell (none): nothing measured. docs/experiments.md has the details.</p>",
            s.on_time_tolerance_pct.map_or("1".into(), |p| p.to_string())
        );
    }
    if let Some((paper, rows)) = super::paper::reference(&e.name) {
        let _ = write!(h, "<p class=\"note\">What the paper reports, beside Ubik's comparable measure ({}):</p><table><thead><tr><th>the paper</th><th>value</th><th>Ubik: read</th></tr></thead><tbody>", esc(paper));
        for (what, value, ours) in rows {
            let _ = write!(
                h,
                "<tr><td>{}</td><td>{}</td><td>{}</td></tr>",
                esc(what),
                esc(value),
                esc(ours)
            );
        }
        h.push_str("</tbody></table>\n");
    }
    if s.dpm {
        h.push_str("<p class=\"note\">Average current from the supply and energy per power policy (UbiFOS Table 2); saving against the default policy; deadlines missed; seconds at each operating point.</p>\n");
        h.push_str(&html_table(&e.table, &[]));
    } else {
        h.push_str(&html_table(&e.table, &VARIANT_COLUMNS));
    }
    h.push_str("<div class=\"figs\">\n");
    for (name, svg) in &e.figures {
        let _ = writeln!(
            h,
            "<figure>{svg}<figcaption class=\"note\">{}</figcaption></figure>",
            esc(name)
        );
    }
    h.push_str("</div>\n");
}

/// The benchmarks' section: each suite's table and chart, or its JSON as a table.
fn bench_section(h: &mut String, benches: &[Bench]) {
    h.push_str("<h2 id=\"bench\">Benchmarks (<code>make bench</code>)</h2>\n");
    for b in benches {
        let _ = writeln!(h, "<h3>{}</h3>", esc(&b.name));
        match (&b.suite, suite::caption(&b.name)) {
            (Some(t), Some(caption)) => {
                let _ = writeln!(h, "<p class=\"note\">{}; OS beside OS (docs/results.md says how each is measured).</p>", esc(caption));
                let _ = writeln!(
                    h,
                    "<div class=\"wide\">{}<figure>{}</figure></div>",
                    suite::html_table(t),
                    suite::bar_chart(t, caption)
                );
            }
            _ => {
                // The hypervisor experiment's section is its tables, not the generic one.
                let hv = (b.name == "hypervisor.json")
                    .then(|| super::hypervisor::html_table(&b.value))
                    .flatten();
                h.push_str(&hv.unwrap_or_else(|| json_table(&b.value)));
            }
        }
    }
}
