//! `ubik report OUT/ -o OUT/report`: one HTML page with every figure and table of the
//! experiments under OUT (each directory holding a `summary.json` written by `ubik
//! experiment`, OUT itself included) and the benchmark figures of `OUT/bench/*.json`. The
//! figures are inlined (SVG), so the page is a single file that reads offline.

use crate::{code, Failure};
use clap::Args;
use serde_json::Value;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

#[derive(Args)]
pub struct ReportArgs {
    /// The results directory (`out/`, or one experiment's directory).
    pub dir: PathBuf,
    /// Where the report goes [default: DIR/report]; the page is DIR/report/index.html.
    #[arg(short = 'o', long = "output", value_name = "DIR")]
    pub output: Option<PathBuf>,
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// The experiment directories under `dir` (and `dir` itself), sorted by name.
fn experiments(dir: &Path) -> Vec<PathBuf> {
    let mut v = Vec::new();
    if dir.join("summary.json").is_file() {
        v.push(dir.to_path_buf());
    }
    if let Ok(rd) = std::fs::read_dir(dir) {
        let mut subs: Vec<PathBuf> = rd.flatten().map(|e| e.path()).filter(|p| p.join("summary.json").is_file()).collect();
        subs.sort();
        v.extend(subs);
    }
    v
}

/// A CSV file as an HTML table, keeping the columns named in `cols` (all if empty).
fn csv_table(path: &Path, cols: &[&str]) -> String {
    let Ok(text) = std::fs::read_to_string(path) else {
        return String::new();
    };
    let mut lines = text.lines();
    let Some(head) = lines.next() else {
        return String::new();
    };
    let names: Vec<&str> = head.split(',').collect();
    let keep: Vec<usize> = if cols.is_empty() {
        (0..names.len()).collect()
    } else {
        cols.iter().filter_map(|c| names.iter().position(|n| n == c)).collect()
    };
    let mut s = String::from("<table><thead><tr>");
    for &i in &keep {
        let _ = write!(s, "<th>{}</th>", esc(names[i]));
    }
    s.push_str("</tr></thead><tbody>\n");
    for l in lines {
        let f: Vec<&str> = l.split(',').collect();
        s.push_str("<tr>");
        for &i in &keep {
            let cell = f.get(i).copied().unwrap_or("");
            let shown = match cell.parse::<f64>() {
                Ok(x) if cell.contains('.') || cell.contains('e') => {
                    if x != 0.0 && x.abs() < 1e-3 {
                        format!("{x:.3e}")
                    } else {
                        format!("{x:.3}")
                    }
                }
                _ => cell.to_string(),
            };
            let _ = write!(s, "<td>{}</td>", esc(&shown));
        }
        s.push_str("</tr>\n");
    }
    s.push_str("</tbody></table>\n");
    s
}

/// A benchmark JSON (nested objects of numbers) as a table of dotted keys.
fn json_table(v: &Value) -> String {
    fn walk(prefix: &str, v: &Value, rows: &mut Vec<(String, String)>) {
        match v {
            Value::Object(m) => {
                for (k, x) in m {
                    let p = if prefix.is_empty() { k.clone() } else { format!("{prefix}.{k}") };
                    walk(&p, x, rows);
                }
            }
            other => rows.push((prefix.to_string(), other.to_string())),
        }
    }
    let mut rows = Vec::new();
    walk("", v, &mut rows);
    let mut s = String::from("<table><thead><tr><th>figure</th><th>value</th></tr></thead><tbody>\n");
    for (k, x) in rows {
        let _ = writeln!(s, "<tr><td>{}</td><td>{}</td></tr>", esc(&k), esc(&x));
    }
    s.push_str("</tbody></table>\n");
    s
}

const STYLE: &str = "body{font-family:sans-serif;max-width:1200px;margin:2em auto;padding:0 1em;color:#222}\
h1{border-bottom:2px solid #444}h2{margin-top:2em;border-bottom:1px solid #aaa}\
table{border-collapse:collapse;font-size:12px;margin:1em 0}td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}\
th{background:#eee}td:first-child,th:first-child{text-align:left}\
.figs{display:flex;flex-wrap:wrap;gap:12px}.figs figure{margin:0;width:calc(50% - 6px)}.figs svg{max-width:100%;height:auto;border:1px solid #ddd}\
.note{color:#555;font-size:13px}";

pub fn report(args: ReportArgs) -> Result<u8, Failure> {
    if !args.dir.is_dir() {
        return Err(Failure::new(code::NO_INPUT, format!("{}: not a directory; expected the results directory (out/)", args.dir.display())));
    }
    let out = args.output.clone().unwrap_or_else(|| args.dir.join("report"));
    let exps = experiments(&args.dir);
    let bench_dir = args.dir.join("bench");
    let mut benches: Vec<PathBuf> = std::fs::read_dir(&bench_dir)
        .map(|rd| rd.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "json") && !p.to_string_lossy().ends_with(".stats.json")).collect())
        .unwrap_or_default();
    benches.sort();
    if exps.is_empty() && benches.is_empty() {
        return Err(Failure::new(
            code::NO_INPUT,
            format!("{}: no results; expected experiment directories (from `ubik experiment`) or bench/*.json", args.dir.display()),
        ));
    }

    let mut h = String::new();
    let _ = write!(h, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Ubik report</title><style>{STYLE}</style></head><body>\n<h1>Ubik report</h1>\n");
    let _ = writeln!(h, "<p class=\"note\">Results in <code>{}</code>: {} experiment(s), {} benchmark file(s). Every figure is measured on the Ubik testbed (cycle-exact Ibex timing); see docs/results.md for how.</p>", esc(&args.dir.display().to_string()), exps.len(), benches.len());
    h.push_str("<ul>");
    for e in &exps {
        let n = e.file_name().map(|x| x.to_string_lossy().into_owned()).unwrap_or_default();
        let _ = write!(h, "<li><a href=\"#exp-{0}\">experiment {0}</a></li>", esc(&n));
    }
    if !benches.is_empty() {
        h.push_str("<li><a href=\"#bench\">benchmarks</a></li>");
    }
    h.push_str("</ul>\n");

    for e in &exps {
        let name = e.file_name().map(|x| x.to_string_lossy().into_owned()).unwrap_or_default();
        let summary: Value = std::fs::read_to_string(e.join("summary.json")).ok().and_then(|t| serde_json::from_str(&t).ok()).unwrap_or(Value::Null);
        let _ = writeln!(h, "<h2 id=\"exp-{0}\">Experiment {0}</h2>", esc(&name));
        let _ = writeln!(
            h,
            "<p class=\"note\">{} variant(s), {} ms simulated each, seeds {}{}.</p>",
            summary["variants"].as_array().map(|a| a.len()).unwrap_or(0),
            summary["run_ms"],
            summary["seeds"],
            match summary["machine"].as_str() {
                Some(m) => format!(", machine <code>{}</code>; histogram bins of {} us", esc(m), summary["jitter_bin_us"]),
                None => String::new(),
            }
        );
        if e.join("dpm.csv").is_file() {
            h.push_str("<p class=\"note\">Average current from the supply and energy per power policy (UbiFOS Table 2); saving against the default policy; deadlines missed; seconds at each operating point.</p>\n");
            h.push_str(&csv_table(&e.join("dpm.csv"), &[]));
        }
        h.push_str(&csv_table(
            &e.join("variants.csv"),
            &["label", "utilisation", "outputs", "deadline_misses", "jitter_on_time", "jitter_p99_us", "jitter_max_abs_us", "delay_mean_us", "delay_p99_us", "delay_max_us", "energy_j", "avg_power_w"],
        ));
        let mut svgs: Vec<PathBuf> = std::fs::read_dir(e).map(|rd| rd.flatten().map(|x| x.path()).filter(|p| p.extension().is_some_and(|x| x == "svg")).collect()).unwrap_or_default();
        // Jitter first, then delay, then energy (the paper's Figs. 1, 2, 3).
        svgs.sort_by_key(|p| {
            let n = p.file_name().map(|x| x.to_string_lossy().into_owned()).unwrap_or_default();
            let rank = if n.starts_with("jitter") { 0 } else if n.starts_with("delay") { 1 } else { 2 };
            (rank, n)
        });
        h.push_str("<div class=\"figs\">\n");
        for p in svgs {
            if let Ok(svg) = std::fs::read_to_string(&p) {
                let n = p.file_name().map(|x| x.to_string_lossy().into_owned()).unwrap_or_default();
                let _ = writeln!(h, "<figure>{svg}<figcaption class=\"note\">{}</figcaption></figure>", esc(&n));
            }
        }
        h.push_str("</div>\n");
    }
    if !benches.is_empty() {
        h.push_str("<h2 id=\"bench\">Benchmarks (<code>make bench</code>)</h2>\n");
        for b in &benches {
            let v: Value = std::fs::read_to_string(b).ok().and_then(|t| serde_json::from_str(&t).ok()).unwrap_or(Value::Null);
            let _ = writeln!(h, "<h3>{}</h3>", esc(&b.file_name().map(|x| x.to_string_lossy().into_owned()).unwrap_or_default()));
            h.push_str(&json_table(&v));
        }
    }
    h.push_str("</body></html>\n");
    std::fs::create_dir_all(&out).map_err(|e| Failure::new(code::IO_ERROR, format!("cannot write the report directory {}: {e}", out.display())))?;
    let page = out.join("index.html");
    std::fs::write(&page, h).map_err(|e| Failure::new(code::IO_ERROR, format!("cannot write {}: {e}", page.display())))?;
    println!("{}", page.display());
    Ok(0)
}
