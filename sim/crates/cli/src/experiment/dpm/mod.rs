//! DPM experiments (`kind = "dpm"`): the workloads of apps/dpm under each power policy of the
//! kernel (ubik/power.h), in each scaling mode (the machine file APP/WORKLOAD-MODE.machine.toml:
//! DVFS or frequency only), measured as the UbiFOS paper's Table 2 -- average current from the
//! supply, and the energy saved against the DEFAULT policy -- plus what the paper does not show:
//! the deadlines a policy makes the tasks miss, and the time at each operating point.
//!
//! Writes `dpm.csv` (one row per variant, over its seeds), `summary.json`, one bar chart of
//! average current per (workload, mode), `current-WORKLOAD-MODE.svg`, and the current over
//! time per policy (the paper's Fig. 16), `current-time-WORKLOAD-MODE.svg` with its data in
//! `current_time.csv`. A saving is reported only for a run that kept every deadline (and a
//! default that did): a policy that saves energy by missing deadlines saves nothing.

mod variant;

use super::plot;
use super::steps::{io_fail, run_app, stop_on_ctrl_c, worker_pool, Ran, RunSpec};
use super::sweep::{Experiment, SweepVariant};
use crate::{code, Failure};
use rayon::prelude::*;
use serde_json::Value;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
pub use variant::{power_policies, DpmVariant};

#[derive(Default, Clone)]
struct Measured {
    avg_current_a: f64,
    avg_power_w: f64,
    energy_j: f64,
    sim_time_s: f64,
    misses: u64,
    blocks: u64,
    opp_time_s: Vec<(String, f64)>,
    /// The average current in each window of `WINDOW_S` from the start: (ms, mA).
    current_over_time: Vec<(f64, f64)>,
}

/// The window of the current-over-time series.
const WINDOW_S: f64 = 0.020;

/// The time-weighted average of a step function of power (from `power`, (s, W) in order) in
/// each window of `WINDOW_S` up to `end_s`, as current: watts / `volts`, in mA. Times are
/// taken in whole nanoseconds, so every step of the walk advances.
fn windows(power: &[(f64, f64)], end_s: f64, volts: f64) -> Vec<(f64, f64)> {
    let ns = |t: f64| (t * 1e9).round() as u64;
    let win = ns(WINDOW_S);
    let end = ns(end_s);
    let n = (end / win) as usize;
    let mut energy = vec![0.0f64; n];
    for (k, &(t0, w)) in power.iter().enumerate() {
        let t1 = power.get(k + 1).map_or(end, |p| ns(p.0)).min(end);
        let mut t = ns(t0);
        while t < t1 {
            let b = (t / win) as usize;
            if b >= n {
                break;
            }
            let edge = ((b as u64 + 1) * win).min(t1);
            energy[b] += w * (edge - t) as f64 * 1e-9;
            t = edge;
        }
    }
    energy
        .iter()
        .enumerate()
        .map(|(b, e)| {
            (
                (b as f64 + 0.5) * WINDOW_S * 1e3,
                e / WINDOW_S / volts * 1e3,
            )
        })
        .collect()
}

fn parse_console(text: &str, key: &str) -> Option<u64> {
    text.split_whitespace()
        .find_map(|w| w.strip_prefix(key).and_then(|x| x.parse().ok()))
}

fn measure(dir: &Path, ran: &Ran) -> Result<Measured, Failure> {
    let console = &ran.console;
    let misses = parse_console(console, "misses=").ok_or_else(|| {
        Failure::new(
            code::DATA,
            format!("{}: no `misses=N` in the console output; expected the workload to print `dpm ... misses=N blocks=N` at its end", dir.join("console.txt").display()),
        )
    })?;
    let s = &ran.stats;
    // The supply voltage, as the statistics relate power and current.
    let volts = match (s.avg_power_w, s.avg_current_a) {
        (Some(p), Some(i)) if i > 0.0 => p / i,
        _ => 3.3,
    };
    Ok(Measured {
        current_over_time: windows(&ran.power, s.sim_time_s, volts),
        avg_current_a: s.avg_current_a.unwrap_or(0.0),
        avg_power_w: s.avg_power_w.unwrap_or(0.0),
        energy_j: s.energy_j.unwrap_or(0.0),
        sim_time_s: s.sim_time_s,
        misses,
        blocks: parse_console(console, "blocks=").unwrap_or(0),
        // Keyed by the operating point's index, in key order (as the JSON object was).
        opp_time_s: s.opp_time_s.iter().map(|(k, t)| (k.clone(), *t)).collect(),
    })
}

/// A run: its variant's index and its seed.
type RunId = (usize, u64);

/// Runs a DPM experiment whose inputs are checked, into `out` (made).
pub fn run(
    exp: &Experiment<DpmVariant>,
    root: &Path,
    exe: &Path,
    out: &Path,
    jobs: usize,
    quiet: bool,
) -> Result<u8, Failure> {
    let elfs = exp.build_variants(" (dpm)", 40, root, exe, out, quiet)?;
    let (runs, per_run) = run_all(exp, &elfs, out, jobs, quiet)?;
    let rows = means(exp, &runs, &per_run);
    write_results(exp, out, &rows)?;
    figures(out, &rows)?;
    println!("data and figures: {}", out.display());
    Ok(0)
}

/// Runs every (variant, seed) in parallel: the runs (variant index, seed) and their
/// measures, in the same order.
fn run_all(
    exp: &Experiment<DpmVariant>,
    elfs: &[PathBuf],
    out: &Path,
    jobs: usize,
    quiet: bool,
) -> Result<(Vec<RunId>, Vec<Measured>), Failure> {
    let n = exp.variants.len();
    let runs: Vec<RunId> = (0..n)
        .flat_map(|i| exp.header.seeds.iter().map(move |&s| (i, s)))
        .collect();
    let bar = if quiet {
        indicatif::ProgressBar::hidden()
    } else {
        indicatif::ProgressBar::new(runs.len() as u64)
    };
    let max_cycles = (exp.header.run_ms as u64 + 1000) * 1_000_000;
    let stop = stop_on_ctrl_c();
    let pool = worker_pool(jobs)?;
    let results: Vec<Result<Measured, Failure>> = pool.install(|| {
        runs.par_iter()
            .map(|&(i, seed)| {
                let v = &exp.variants[i];
                let dir = out.join("runs").join(format!("{}-s{seed}", v.label()));
                let machine = v.machine_file(exp);
                let spec = RunSpec {
                    elf: &elfs[i],
                    machine: &machine,
                    seed,
                    dir: &dir,
                    max_cycles,
                    run_ms: exp.header.run_ms,
                    what: format!(
                        "experiment {}: run {} seed {seed}",
                        exp.header.name,
                        v.label()
                    ),
                    stop: &stop,
                    power_over_time: true,
                };
                let ran = run_app(&spec);
                bar.inc(1);
                measure(&dir, &ran?)
            })
            .collect()
    });
    bar.finish_and_clear();
    let mut per_run = Vec::new();
    for r in results {
        per_run.push(r?);
    }

    Ok((runs, per_run))
}

/// Per variant: the mean over its seeds.
fn means(
    exp: &Experiment<DpmVariant>,
    runs: &[RunId],
    per_run: &[Measured],
) -> Vec<(DpmVariant, Measured)> {
    let mut rows: Vec<(DpmVariant, Measured)> = Vec::new();
    for (i, v) in exp.variants.iter().enumerate() {
        let ms: Vec<&Measured> = runs
            .iter()
            .zip(per_run)
            .filter(|((j, _), _)| *j == i)
            .map(|(_, m)| m)
            .collect();
        let k = ms.len().max(1) as f64;
        let mut a = Measured::default();
        for m in &ms {
            a.avg_current_a += m.avg_current_a / k;
            a.avg_power_w += m.avg_power_w / k;
            a.energy_j += m.energy_j / k;
            a.sim_time_s += m.sim_time_s / k;
            a.misses += m.misses;
            a.blocks += m.blocks;
            if a.current_over_time.is_empty() {
                a.current_over_time = m.current_over_time.clone(); // the first seed's
            }
            for (idx, t) in &m.opp_time_s {
                match a.opp_time_s.iter_mut().find(|x| &x.0 == idx) {
                    Some(x) => x.1 += t / k,
                    None => a.opp_time_s.push((idx.clone(), t / k)),
                }
            }
        }
        rows.push((v.clone(), a));
    }
    rows
}

/// Writes dpm.csv, current_time.csv and summary.json, and prints the table: each variant's
/// current, energy, and saving against the default policy (when both kept every deadline).
fn write_results(
    exp: &Experiment<DpmVariant>,
    out: &Path,
    rows: &[(DpmVariant, Measured)],
) -> Result<(), Failure> {
    // The default's energy, if the default kept its deadlines.
    let base = |v: &DpmVariant| -> Option<f64> {
        rows.iter()
            .find(|(w, _)| w.workload == v.workload && w.mode == v.mode && w.policy == "default")
            .filter(|(_, m)| m.misses == 0)
            .map(|(_, m)| m.energy_j)
    };
    let mut csv = String::from("label,workload,mode,policy,avg_current_ma,avg_power_mw,energy_mj,deadlines_kept,saving_vs_default_pct,deadline_misses,blocks,time_p0_s,time_p1_s,time_p2_s\n");
    let mut series_csv = String::from("label,workload,mode,policy,time_ms,current_ma\n");
    let mut json_rows = Vec::new();
    println!(
        "{:<8} {:<5} {:<8} {:>11} {:>10} {:>9} {:>7}",
        "workload", "mode", "policy", "current.mA", "energy.mJ", "saving%", "misses"
    );
    for (v, m) in rows {
        let kept = m.misses == 0;
        let saving = base(v)
            .filter(|b| *b > 0.0 && kept)
            .map(|b| (1.0 - m.energy_j / b) * 100.0);
        for (t, ma) in &m.current_over_time {
            let _ = writeln!(
                series_csv,
                "{},{},{},{},{t:.1},{ma:.5}",
                v.label(),
                v.workload,
                v.mode,
                v.policy
            );
        }
        let t = |k: &str| {
            m.opp_time_s
                .iter()
                .find(|x| x.0 == k)
                .map(|x| x.1)
                .unwrap_or(0.0)
        };
        let _ = writeln!(
            csv,
            "{},{},{},{},{:.4},{:.4},{:.4},{},{},{},{},{:.6},{:.6},{:.6}",
            v.label(),
            v.workload,
            v.mode,
            v.policy,
            m.avg_current_a * 1e3,
            m.avg_power_w * 1e3,
            m.energy_j * 1e3,
            u8::from(kept),
            saving.map(|x| format!("{x:.2}")).unwrap_or_default(),
            m.misses,
            m.blocks,
            t("0"),
            t("1"),
            t("2")
        );
        println!(
            "{:<8} {:<5} {:<8} {:>11.4} {:>10.4} {:>9} {:>7}",
            v.workload,
            v.mode,
            v.policy,
            m.avg_current_a * 1e3,
            m.energy_j * 1e3,
            saving.map(|x| format!("{x:.1}")).unwrap_or_else(|| {
                if kept {
                    "-".into()
                } else {
                    "MISSED".into()
                }
            }),
            m.misses
        );
        json_rows.push(serde_json::json!({
            "label": v.label(), "workload": v.workload, "mode": v.mode, "policy": v.policy,
            "avg_current_a": m.avg_current_a, "avg_power_w": m.avg_power_w, "energy_j": m.energy_j,
            "saving_vs_default": saving.map(|x| x / 100.0), "deadlines_kept": kept, "deadline_misses": m.misses,
            "blocks": m.blocks, "opp_time_s": m.opp_time_s.iter().map(|(k, x)| (k.clone(), serde_json::json!(x))).collect::<serde_json::Map<String, Value>>(),
        }));
    }
    let summary = serde_json::json!({"experiment": exp.header.name, "kind": "dpm", "run_ms": exp.header.run_ms, "seeds": exp.header.seeds, "variants": json_rows});
    for (name, text) in [
        ("dpm.csv", csv),
        ("current_time.csv", series_csv),
        (
            "summary.json",
            serde_json::to_string_pretty(&summary).unwrap_or_default() + "\n",
        ),
    ] {
        let p = out.join(name);
        std::fs::write(&p, text).map_err(|e| io_fail("results", &p, e))?;
    }
    Ok(())
}

/// The figures: per (workload, mode) the average current by policy, and the current over
/// time.
fn figures(out: &Path, rows: &[(DpmVariant, Measured)]) -> Result<(), Failure> {
    // One bar chart per (workload, mode): average current by policy (Table 2 as a figure).
    let mut groups: Vec<(String, String)> = Vec::new();
    for (v, _) in rows {
        if !groups.iter().any(|g| g.0 == v.workload && g.1 == v.mode) {
            groups.push((v.workload.clone(), v.mode.clone()));
        }
    }
    for (w, mo) in &groups {
        let bars: Vec<plot::Bar> = power_policies()
            .into_iter()
            .filter_map(|p| {
                rows.iter()
                    .find(|(v, _)| &v.workload == w && &v.mode == mo && v.policy == p)
            })
            .map(|(v, m)| {
                (
                    v.policy.clone(),
                    vec![("average current (mA)".to_string(), m.avg_current_a * 1e3)],
                    m.misses > 0,
                )
            })
            .collect();
        plot::stacked_bars(
            &out.join(format!("current-{w}-{mo}.svg")),
            &format!("Average current: {w}, {mo}"),
            "mA",
            &bars,
        )
        .map_err(|e| Failure::new(code::IO_ERROR, e))?;
    }
    // The paper's Fig. 16: the current over time under each policy, per (workload, mode): the
    // first second, in windows of WINDOW_S.
    for (w, mo) in &groups {
        let series: Vec<(String, Vec<(f64, f64)>)> = power_policies()
            .into_iter()
            .filter_map(|p| {
                rows.iter()
                    .find(|(v, _)| &v.workload == w && &v.mode == mo && v.policy == p)
            })
            .map(|(v, m)| {
                (
                    format!(
                        "{}{}",
                        v.policy,
                        if m.misses > 0 {
                            format!(" ({} missed)", m.misses)
                        } else {
                            String::new()
                        }
                    ),
                    m.current_over_time
                        .iter()
                        .copied()
                        .filter(|(t, _)| *t <= 1000.0)
                        .collect(),
                )
            })
            .collect();
        plot::lines(
            &out.join(format!("current-time-{w}-{mo}.svg")),
            &format!(
                "Current over time: {w}, {mo} ({} ms windows)",
                WINDOW_S * 1e3
            ),
            "time (ms)",
            "supply current (mA)",
            &series,
        )
        .map_err(|e| Failure::new(code::IO_ERROR, e))?;
    }
    Ok(())
}

impl super::kind::ExperimentKind for Experiment<DpmVariant> {
    fn output(&self, given: Option<PathBuf>) -> PathBuf {
        self.header.output(given)
    }

    fn check(&self, root: &Path, out: &Path) -> Result<String, Failure> {
        super::check::check_inputs(self, root, out)?;
        Ok(super::kind::plan(self, out))
    }

    fn run(&self, root: &Path, out: &Path, jobs: usize) -> Result<u8, Failure> {
        let (exe, quiet) = super::kind::start(out)?;
        run(self, root, &exe, out, jobs, quiet)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_average_a_step_function_of_power() {
        // 1 W for 30 ms, then 3 W: at 1 V, 1000 mA in the first window, (10 + 30) / 20 ms
        // = 2000 mA in the second, 3000 mA in the third; a partial last window is dropped.
        let w = windows(&[(0.0, 1.0), (0.030, 3.0)], 0.070, 1.0);
        assert_eq!(w.len(), 3);
        let ma: Vec<f64> = w.iter().map(|x| (x.1 * 1e3).round() / 1e3).collect();
        assert_eq!(ma, vec![1000.0, 2000.0, 3000.0]);
        assert_eq!(w[0].0, 10.0);
        // Window edges that are not exact in binary floating point still advance.
        let w = windows(&[(0.0, 1.0), (0.04, 2.0), (0.06, 1.0)], 0.1, 1.0);
        assert_eq!(w.len(), 5);
    }
}
