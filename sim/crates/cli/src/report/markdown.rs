//! `ubik report DIR --markdown`: every experiment under DIR as Markdown tables on stdout, the
//! form docs/results.md embeds (scripts/results-tables.sh splices them in), so the documented
//! numbers are the experiments' output and cannot drift from the code.

use super::results::{ExperimentResult, Table};
use observe::Category;
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

/// The energy of the operating system in a row, mJ: every category but the application's
/// (`user`) and `idle` -- the kernel's parts and the interrupt handlers.
fn os_energy_mj(t: &Table, row: &[String]) -> Option<f64> {
    let mut sum = 0.0;
    let mut any = false;
    for (i, h) in t.header.iter().enumerate() {
        let cat = h.strip_suffix("_energy_j");
        let os = Category::ALL
            .iter()
            .any(|c| c.is_os() && Some(c.name()) == cat);
        if os {
            sum += row[i].parse::<f64>().ok()?;
            any = true;
        }
    }
    any.then_some(sum * 1e3)
}

/// A number measured from a row, if it was.
type RowNumber<'a> = &'a dyn Fn(&[String]) -> Option<f64>;

/// A pivot of `value` over the task counts: one row per (system, workload setting), one
/// column per task count; empty when the table has one task count only.
fn pivot(
    t: &Table,
    title: &str,
    value: &dyn Fn(&[String]) -> String,
    slope: Option<RowNumber>,
) -> String {
    let mut tasks: Vec<u32> = t
        .rows
        .iter()
        .filter_map(|r| cell(t, r, "tasks").parse().ok())
        .collect();
    tasks.sort_unstable();
    tasks.dedup();
    if tasks.len() < 2 {
        return String::new();
    }
    let key = |r: &[String]| {
        let mut k = format!(
            "{} {} {} us",
            cell(t, r, "system"),
            cell(t, r, "workload"),
            cell(t, r, "period_us")
        );
        if matches!(cell(t, r, "workload"), "up" | "down") {
            k.push_str(&format!(" {}:1", cell(t, r, "ratio")));
        }
        k
    };
    let mut keys: Vec<String> = Vec::new();
    for r in &t.rows {
        let k = key(r);
        if !keys.contains(&k) {
            keys.push(k);
        }
    }
    let mut s = format!("\n{title}\n\n| system, workload, period |");
    for n in &tasks {
        let _ = write!(s, " {n} task(s) |");
    }
    if slope.is_some() {
        s.push_str(" per added task |");
    }
    s.push_str("\n| --- |");
    for _ in 0..tasks.len() + usize::from(slope.is_some()) {
        s.push_str(" ---: |");
    }
    s.push('\n');
    for k in &keys {
        let _ = write!(s, "| {k} |");
        let mut pts = Vec::new();
        for n in &tasks {
            let row = t
                .rows
                .iter()
                .find(|r| &key(r) == k && cell(t, r, "tasks") == n.to_string());
            let shown = row.map_or("".into(), |r| {
                if let Some(y) = slope.and_then(|g| g(r)) {
                    pts.push((*n as f64, y));
                }
                let mut v = value(r);
                if cell(t, r, "overloaded") == "1" {
                    v.push_str(" X");
                }
                v
            });
            let _ = write!(s, " {shown} |");
        }
        if slope.is_some() {
            // Least-squares slope over the task counts: the cost of one more task.
            let n = pts.len() as f64;
            let (sx, sy) = pts.iter().fold((0.0, 0.0), |a, p| (a.0 + p.0, a.1 + p.1));
            let (sxx, sxy) = pts
                .iter()
                .fold((0.0, 0.0), |a, p| (a.0 + p.0 * p.0, a.1 + p.0 * p.1));
            let d = n * sxx - sx * sx;
            let shown = if pts.len() >= 2 && d != 0.0 {
                format!("{:.4}", (n * sxy - sx * sy) / d)
            } else {
                "none".into()
            };
            let _ = write!(s, " {shown} |");
        }
        s.push('\n');
    }
    s
}

/// The operating system's cycles of one category in a row, in % of all its cycles.
fn os_share_pct(t: &Table, row: &[String], cats: &[&str]) -> Option<f64> {
    let total: f64 = cell(t, row, "cycles").parse().ok()?;
    let mut sum = 0.0;
    for c in cats {
        sum += cell(t, row, &format!("{c}_cycles")).parse::<f64>().ok()?;
    }
    (total > 0.0).then_some(100.0 * sum / total)
}

/// The RTM paper's comparison (experiments/rtm.toml): each system with the RTM against the
/// same system without it, per workload and channel count: the change of the operating
/// system's utilisation, in total and by category, and of the response time.
fn rtm_reductions(t: &Table) -> String {
    let os: Vec<&str> = Category::ALL
        .iter()
        .filter(|c| c.is_os())
        .map(|c| c.name())
        .collect();
    let cols: [(&str, &[&str]); 5] = [
        ("OS total", &os),
        ("scheduling", &["kernel_sched"]),
        ("time (tick, delays)", &["kernel_time"]),
        ("event management (IPC)", &["kernel_ipc"]),
        ("misc, polling, ISRs", &["kernel_other", "lisr", "hisr"]),
    ];
    let find = |sys: &str, wl: &str, n: &str| {
        t.rows.iter().find(|r| {
            cell(t, r, "system") == sys && cell(t, r, "workload") == wl && cell(t, r, "tasks") == n
        })
    };
    let change = |with: f64, without: f64| {
        if without > 0.0 {
            format!("{:+.0} %", 100.0 * (with - without) / without)
        } else {
            "none".into()
        }
    };
    let mut s = String::from("
With the RTM against without it: the change of the operating system's share of all cycles (and, in brackets, the share with the RTM, %), and of the response delay p50 / max:\n\n| with / without | workload | channels |");
    for (name, _) in &cols {
        let _ = write!(s, " {name} |");
    }
    s.push_str(" response p50 / max |\n| --- | --- | ---: |");
    for _ in 0..cols.len() + 1 {
        s.push_str(" ---: |");
    }
    s.push('\n');
    for (with, without) in [
        ("ubik-rtm", "ubik-bitmap"),
        ("ubik-rtm", "ubik-prio"),
        ("nos-rtm", "nos"),
    ] {
        for r in t.rows.iter().filter(|r| cell(t, r, "system") == with) {
            let (wl, n) = (cell(t, r, "workload"), cell(t, r, "tasks"));
            let Some(b) = find(without, wl, n) else {
                continue;
            };
            let _ = write!(s, "| {with} / {without} | {wl} | {n} |");
            for (_, cats) in &cols {
                let shown = match (os_share_pct(t, r, cats), os_share_pct(t, b, cats)) {
                    (Some(x), Some(y)) => format!("{} ({x:.2})", change(x, y)),
                    _ => "none".into(),
                };
                let _ = write!(s, " {shown} |");
            }
            let delay = |row: &[String], k: &str| cell(t, row, k).parse::<f64>().ok();
            let shown = match (
                delay(r, "delay_p50_us"),
                delay(b, "delay_p50_us"),
                delay(r, "delay_max_us"),
                delay(b, "delay_max_us"),
            ) {
                (Some(a), Some(b50), Some(m), Some(bm)) => {
                    format!("{} / {}", change(a, b50), change(m, bm))
                }
                _ => "none".into(),
            };
            let _ = writeln!(s, " {shown} |");
        }
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
            let t = &e.table;
            s.push_str(&pivot(
                t,
                "Abs. deviation from the period, p50 / p99 (us), by task count (X: overloaded):",
                &|r| {
                    format!(
                        "{} / {}",
                        num(cell(t, r, "dev_p50_us"), 1),
                        num(cell(t, r, "dev_p99_us"), 1)
                    )
                },
                None,
            ));
            s.push_str(&pivot(
                t,
                "Stimulus-to-response delay, p50 / p99 (us), by task count:",
                &|r| {
                    format!(
                        "{} / {}",
                        num(cell(t, r, "delay_p50_us"), 1),
                        num(cell(t, r, "delay_p99_us"), 1)
                    )
                },
                None,
            ));
            s.push_str(&pivot(
                t,
                "Energy of the operating system (kernel and interrupt handlers; not user, not idle), mJ over each variant's run, by task count, and its least-squares growth per added task:",
                &|r| os_energy_mj(t, r).map_or("none".into(), |e| format!("{e:.4}")),
                Some(&|r| os_energy_mj(t, r)),
            ));
            if t.rows
                .iter()
                .any(|r| cell(t, r, "workload").starts_with("adpcm"))
            {
                s.push_str(&rtm_reductions(t));
            }
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
