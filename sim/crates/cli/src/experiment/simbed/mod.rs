//! `kind = "simbed"` (the default): build every variant, run each with every seed in
//! parallel, and write the data, the figures and the summary table (see the module above).

mod csv_row;
mod metrics;
mod table;
mod variant;

use super::plot;
use super::steps::{io_fail, run_app, stop_on_ctrl_c, worker_pool, RunSpec};
use super::sweep::Experiment;
use crate::{code, Failure};
use csv_row::CsvRow;
use metrics::{abs_quantile_us, histogram, mean_us, quantile_us, Expected, RunMetrics};
use observe::Category;
use rayon::prelude::*;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
pub use variant::Variant;

/// Runs a SimBed experiment whose inputs are checked, into `out` (made): `exe` is this
/// program, `jobs` the runs at a time.
pub(super) fn run(
    exp: &Experiment<Variant>,
    root: &Path,
    exe: &Path,
    out: &Path,
    jobs: usize,
    quiet: bool,
) -> Result<u8, Failure> {
    let elfs = exp.build_variants("", 50, root, exe, out, quiet)?;
    let (runs, per_run) = run_all(exp, &elfs, out, jobs, quiet)?;
    let summaries = write_data(exp, out, &runs, &per_run)?;
    density_figures(out, &summaries)?;
    energy_figures(exp, out, &summaries)?;
    // ---- The summary table.
    print!("{}", table::render(exp, &summaries));
    println!("data and figures: {}", out.display());
    Ok(0)
}

/// Runs every (variant, seed), in parallel: the runs and their metrics, in the same order.
fn run_all(
    exp: &Experiment<Variant>,
    elfs: &[PathBuf],
    out: &Path,
    jobs: usize,
    quiet: bool,
) -> Result<(Vec<Run>, Vec<RunMetrics>), Failure> {
    let mut runs = Vec::new();
    for (i, v) in exp.variants.iter().enumerate() {
        for &s in &exp.header.seeds {
            runs.push(Run {
                variant: i,
                seed: s,
                dir: out.join("runs").join(format!("{}-s{s}", v.label())),
            });
        }
    }
    let bar = if quiet {
        indicatif::ProgressBar::hidden()
    } else {
        indicatif::ProgressBar::new(runs.len() as u64)
    };
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "  running {bar:40} {pos}/{len} {elapsed_precise} (eta {eta})",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let stop = stop_on_ctrl_c();
    let pool = worker_pool(jobs)?;
    let results: Vec<Result<RunMetrics, Failure>> = pool.install(|| {
        runs.par_iter()
            .map(|r| {
                let v = &exp.variants[r.variant];
                // 1 GHz for run_ms + 1 s: a hang stops.
                let max_cycles = (v.run_ms as u64 + 1000) * 1_000_000;
                let spec = RunSpec {
                    elf: &elfs[r.variant],
                    machine: &exp.machine,
                    seed: r.seed,
                    dir: &r.dir,
                    max_cycles,
                    run_ms: v.run_ms,
                    what: format!(
                        "experiment {}: run {} seed {}",
                        exp.header.name,
                        v.label(),
                        r.seed
                    ),
                    stop: &stop,
                    power_over_time: false,
                };
                let res = run_app(&spec);
                bar.inc(1);
                let ran = res?;
                let want = Expected {
                    tasks: v.tasks,
                    output_period_us: v.output_period_us(),
                    outputs_per_task: v.outputs_per_task(v.run_ms),
                    tolerance_pct: exp.on_time_tolerance_pct,
                };
                Ok(metrics::measure(&ran.record, &ran.stats, &want))
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

/// Writes runs.csv, variants.csv, jitter.csv, delay.csv and summary.json: each variant's
/// aggregate and distributions, which the figures and the table show.
fn write_data(
    exp: &Experiment<Variant>,
    out: &Path,
    runs: &[Run],
    per_run: &[RunMetrics],
) -> Result<Vec<VariantRow>, Failure> {
    let bin = exp.jitter_bin_us;
    let mut runs_csv = CsvRow::header();
    for (r, m) in runs.iter().zip(per_run) {
        runs_csv.push_str(
            &CsvRow {
                v: &exp.variants[r.variant],
                seed: &r.seed.to_string(),
                m,
                tolerance_us: tolerance_us(exp, &exp.variants[r.variant]),
            }
            .line(),
        );
    }
    let mut variants_csv = CsvRow::header();
    let mut jitter_csv =
        String::from("label,system,workload,tasks,period_us,ratio,jitter_us,probability\n");
    let mut delay_csv =
        String::from("label,system,workload,tasks,period_us,ratio,delay_us,probability\n");
    let mut summaries: Vec<VariantRow> = Vec::new();
    let mut json_variants = Vec::new();
    for (i, v) in exp.variants.iter().enumerate() {
        let ms: Vec<&RunMetrics> = runs
            .iter()
            .zip(per_run)
            .filter(|(r, _)| r.variant == i)
            .map(|(_, m)| m)
            .collect();
        let s = aggregate(&ms);
        variants_csv.push_str(
            &CsvRow {
                v,
                seed: "all",
                m: &s.m,
                tolerance_us: tolerance_us(exp, v),
            }
            .line(),
        );
        // The density of each distribution: one row per bin, after the variant's axes.
        let jh = histogram(&s.m.jitter_ns, bin);
        let dh = histogram(&s.m.delay_ns, bin);
        for (csv, h) in [(&mut jitter_csv, &jh), (&mut delay_csv, &dh)] {
            for (x, p) in h {
                let _ = writeln!(
                    csv,
                    "{},{},{},{},{},{},{x:.1},{p:.6}",
                    v.label(),
                    v.system(),
                    v.workload,
                    v.tasks,
                    v.period_us,
                    v.ratio
                );
            }
        }
        json_variants.push(serde_json::json!({
            "label": v.label(), "system": v.system(), "os": v.os, "scheduler": v.scheduler,
            "workload": v.workload, "tasks": v.tasks, "period_us": v.period_us, "ratio": v.ratio,
            "output_at_end": v.output_at_end, "run_ms": v.run_ms,
            "runs": s.runs, "utilisation": s.m.utilisation, "energy_j": s.m.energy_j,
            "output_period_us": v.output_period_us(),
            "outputs_expected": s.m.outputs_expected(), "outputs_produced": s.m.outputs_produced(),
            "outputs_produced_per_task": s.m.produced, "tasks_short": s.m.short_tasks(),
            "stimuli": s.m.stimuli, "stimuli_unanswered": s.m.unanswered,
            "overloaded": s.m.overloaded(), "deadline_misses": s.m.deadline_misses,
            "on_time_tolerance_us": tolerance_us(exp, v), "on_time": s.m.on_time_share(),
            "dev_p50_us": abs_quantile_us(&s.m.jitter_ns, 0.5),
            "dev_p99_us": abs_quantile_us(&s.m.jitter_ns, 0.99),
            "dev_max_us": abs_quantile_us(&s.m.jitter_ns, 1.0),
            "delay_mean_us": mean_us(&s.m.delay_ns), "delay_p50_us": quantile_us(&s.m.delay_ns, 0.5),
            "delay_p99_us": quantile_us(&s.m.delay_ns, 0.99), "delay_max_us": quantile_us(&s.m.delay_ns, 1.0),
            "energy_by_category_j": Category::NAMES.iter().map(|c| (c.to_string(), serde_json::json!(s.m.by_category.get(*c).map(|x| x.1).unwrap_or(0.0)))).collect::<serde_json::Map<String, serde_json::Value>>(),
            "jitter": jh, "delay": dh,
        }));
        summaries.push((v.clone(), s, jh, dh));
    }
    let summary = serde_json::json!({
        "experiment": exp.header.name, "run_ms": exp.header.run_ms, "seeds": exp.header.seeds, "jitter_bin_us": bin,
        "on_time_tolerance_pct": exp.on_time_tolerance_pct, "cflags": exp.cflags,
        "min_outputs": exp.min_outputs,
        "machine": exp.machine.file_name().map(|f| f.to_string_lossy().into_owned()),
        "variants": json_variants,
    });
    for (name, text) in [
        ("runs.csv", runs_csv),
        ("variants.csv", variants_csv),
        ("jitter.csv", jitter_csv),
        ("delay.csv", delay_csv),
        (
            "summary.json",
            serde_json::to_string_pretty(&summary).unwrap_or_default() + "\n",
        ),
    ] {
        let p = out.join(name);
        std::fs::write(&p, text).map_err(|e| io_fail("results", &p, e))?;
    }
    Ok(summaries)
}

/// Per workload setting a jitter and a delay figure, one panel per system on shared axes
/// and one series per task count (overloaded ones marked).
fn density_figures(out: &Path, summaries: &[VariantRow]) -> Result<(), Failure> {
    let mut settings: Vec<(String, String)> = Vec::new(); // (key, title)
    for (v, ..) in summaries {
        if !settings.iter().any(|g| g.0 == v.workload_key()) {
            settings.push((v.workload_key(), v.setting_title()));
        }
    }
    for (key, title) in &settings {
        let mut systems: Vec<String> = Vec::new();
        for (v, ..) in summaries.iter().filter(|(v, ..)| &v.workload_key() == key) {
            if !systems.contains(&v.system()) {
                systems.push(v.system());
            }
        }
        let panels = |pick: &dyn Fn(&VariantRow) -> Histogram| -> Vec<plot::Panel> {
            systems
                .iter()
                .map(|sys| {
                    let series = summaries
                        .iter()
                        .filter(|r| &r.0.workload_key() == key && &r.0.system() == sys)
                        .map(|r| {
                            let mark = if r.1.m.overloaded() {
                                " (X: missed work)"
                            } else {
                                ""
                            };
                            (format!("{} task(s){mark}", r.0.tasks), pick(r))
                        })
                        .collect();
                    (sys.clone(), series)
                })
                .collect()
        };
        if !key.starts_with("none") {
            plot::density_panels(
                &out.join(format!("jitter-{key}.svg")),
                &format!("Deviation from the period: {title}"),
                "output inter-arrival minus period (us)",
                &panels(&|r| r.2.clone()),
            )
            .map_err(|e| Failure::new(code::IO_ERROR, e))?;
        }
        plot::density_panels(
            &out.join(format!("delay-{key}.svg")),
            &format!("Stimulus-to-response delay: {title}"),
            "stimulus to response output (us)",
            &panels(&|r| r.3.clone()),
        )
        .map_err(|e| Failure::new(code::IO_ERROR, e))?;
    }
    Ok(())
}

/// Per workload setting stacked energy bars over systems and task counts (and for the
/// ADPCM workloads the operating system's utilisation by category).
fn energy_figures(
    exp: &Experiment<Variant>,
    out: &Path,
    summaries: &[VariantRow],
) -> Result<(), Failure> {
    let mut egroups: Vec<String> = Vec::new();
    for (v, ..) in summaries {
        let k = v.workload_key();
        if !egroups.contains(&k) {
            egroups.push(k);
        }
    }
    for k in &egroups {
        let members: Vec<&VariantRow> = summaries
            .iter()
            .filter(|(v, ..)| &v.workload_key() == k)
            .collect();
        let bars: Vec<plot::Bar> = members
            .iter()
            .map(|(v, s, ..)| {
                (
                    format!("{} {} task(s)", v.system(), v.tasks),
                    Category::NAMES
                        .iter()
                        .map(|c| {
                            (
                                c.to_string(),
                                s.m.by_category.get(*c).map(|x| x.1 * 1e3).unwrap_or(0.0),
                            )
                        })
                        .collect(),
                    s.m.overloaded(),
                )
            })
            .collect();
        // The paper compares energy for the same work: with min_outputs every variant runs
        // until its writers have made that many outputs (the run lengths then differ).
        let same_length = members
            .iter()
            .all(|(v, ..)| v.run_ms == members[0].0.run_ms);
        let over = if same_length {
            format!("{} ms each", members[0].0.run_ms)
        } else {
            format!("the same work: {} outputs each", exp.min_outputs)
        };
        plot::stacked_bars(
            &out.join(format!("energy-{k}.svg")),
            &format!(
                "Energy by category: {}, {over}",
                members[0].0.setting_title()
            ),
            "energy (mJ)",
            &bars,
        )
        .map_err(|e| Failure::new(code::IO_ERROR, e))?;
        if members[0].0.workload.starts_with("adpcm") {
            plot::stacked_bars(
                &out.join(format!("utilisation-{k}.svg")),
                &format!(
                    "Operating-system utilisation by category: {}",
                    members[0].0.setting_title()
                ),
                "share of all cycles (%)",
                &os_utilisation_bars(&members),
            )
            .map_err(|e| Failure::new(code::IO_ERROR, e))?;
        }
    }
    Ok(())
}

/// One run: a variant (its index) with a seed, and its directory.
struct Run {
    variant: usize,
    seed: u64,
    dir: PathBuf,
}

/// A distribution: (bin centre in us, probability).
type Histogram = Vec<(f64, f64)>;
/// A variant, its aggregate and its jitter and delay distributions.
type VariantRow = (Variant, Summary, Histogram, Histogram);

/// Per-variant aggregate over its seeds.
struct Summary {
    runs: usize,
    m: RunMetrics, // samples concatenated, counters summed, means of the rest
}

fn aggregate(ms: &[&RunMetrics]) -> Summary {
    let mut a = RunMetrics::default();
    let n = ms.len().max(1) as f64;
    for m in ms {
        a.jitter_ns.extend_from_slice(&m.jitter_ns);
        a.delay_ns.extend_from_slice(&m.delay_ns);
        if a.produced.len() < m.produced.len() {
            a.produced.resize(m.produced.len(), 0);
        }
        for (sum, p) in a.produced.iter_mut().zip(&m.produced) {
            *sum += p;
        }
        a.expected_per_task += m.expected_per_task;
        a.runs += m.runs;
        a.tolerance_pct = m.tolerance_pct;
        a.on_time += m.on_time;
        a.deadline_misses += m.deadline_misses;
        a.stimuli += m.stimuli;
        a.unanswered += m.unanswered;
        a.cycles += m.cycles;
        a.sim_time_s += m.sim_time_s / n;
        a.energy_j += m.energy_j / n;
        a.avg_power_w += m.avg_power_w / n;
        a.utilisation += m.utilisation / n;
        for (k, (c, e)) in &m.by_category {
            let x = a.by_category.entry(k.clone()).or_default();
            x.0 += c;
            x.1 += e / n;
        }
    }
    Summary {
        runs: ms.len(),
        m: a,
    }
}

/// The on-time window of a variant, in microseconds: the declared share of its output period.
fn tolerance_us(exp: &Experiment<Variant>, v: &Variant) -> f64 {
    v.output_period_us() as f64 * exp.on_time_tolerance_pct / 100.0
}

/// The RTM paper's Fig. 4: each variant's operating-system cycles by category, in % of all
/// its cycles (the application and idle left out). NOS's code is split the same way
/// (nos/nos.c): selection in kernel_sched, release times and the clock in kernel_time,
/// interrupt polling in kernel_other.
fn os_utilisation_bars(members: &[&VariantRow]) -> Vec<plot::Bar> {
    members
        .iter()
        .map(|(v, s, ..)| {
            let total: u64 = s.m.by_category.values().map(|x| x.0).sum();
            (
                format!("{} {} channel(s)", v.system(), v.tasks),
                Category::ALL
                    .iter()
                    .filter(|c| c.is_os())
                    .map(|c| {
                        let cy = s.m.by_category.get(c.name()).map(|x| x.0).unwrap_or(0);
                        (
                            c.name().to_string(),
                            100.0 * cy as f64 / total.max(1) as f64,
                        )
                    })
                    .collect(),
                s.m.overloaded(),
            )
        })
        .collect()
}

impl super::kind::ExperimentKind for Experiment<Variant> {
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
    fn an_aggregate_counts_each_runs_inter_arrivals() {
        // Two runs of 2 tasks, 23 outputs expected each, all on time: 2 x 2 x 22 intervals.
        let run = RunMetrics {
            produced: vec![23, 23],
            expected_per_task: 23,
            runs: 1,
            on_time: 44,
            ..RunMetrics::default()
        };
        let a = aggregate(&[&run, &run]);
        assert_eq!(a.m.on_time_share(), Some(1.0));
        assert_eq!((a.m.outputs_produced(), a.m.outputs_expected()), (92, 92));
        assert!(!a.m.overloaded());
        let short = RunMetrics {
            produced: vec![23, 20],
            on_time: 41,
            ..run.clone()
        };
        let a = aggregate(&[&run, &short]);
        assert_eq!(a.m.short_tasks(), 1);
        assert!(a.m.overloaded());
    }
}
