//! Experiments on any application (`kind = "app"`): the application of a directory with its
//! `system.toml`, built once per combination of the axes (scheduler, tick rate, sets of
//! `-D` defines) and run on each machine file with each seed, the latency pairs of its IO
//! record measured (latency.rs), every run checked against what is expected of it (its exit
//! code, its console output, bounds on its figures: checks.rs, figures.rs). Writes `app.csv`
//! (one row per run, with each latency's columns), `junit.xml` (junit.rs: a test case per
//! run) and `runs/LABEL-mM-sSEED/` (`console.txt`, `stats.json`, `io.csv`, and `tasks.csv`:
//! tasks.rs), and prints a table; exits 0 when every run passed, 1 otherwise.
//!
//! ```toml
//! kind = "app"
//! app = "apps/tutorial"          # relative to the repository root
//! run_ms = 100                   # each run's simulated-time limit
//! seeds = [1, 2]
//! [sweep]                        # every key optional: absent, the application's own
//! scheduler = ["prio", "bitmap"]
//! tick_hz = [1000, 250]
//! cflags = [[], ["-DFAST=1"]]    # sets of extra defines, one build each
//! machine = ["default", "slow.toml"] # "default": the built-in machine; else relative to this file
//! [[latency]]                    # any number: a start and an end event of the IO record
//! name = "handoff"
//! from = "out:0"
//! to = "out:1"
//! [expect]
//! exit = 0                       # the firmware's exit code (default 0)
//! console = ["got 3 at tick 30"] # text each run's console output must contain
//! console_regex = ['^got 1 ', '^got 3 ']  # in order
//! [[expect.bound]]
//! figure = "latency.handoff.p99_us"
//! max = 50
//! [[expect.when]]                # checks for the runs of one machine and/or scheduler
//! scheduler = "rtm"
//! console = ["got 3"]
//! ```

mod checks;
mod figures;
mod junit;
mod latency;
mod spec;
mod tasks;

use super::steps::{build_app, io_fail, prepare_app, stop_on_ctrl_c, worker_pool, Capture};
use crate::run::{outcome_status, simulate, Observe, Simulation};
use crate::run_stats::{write_io_csv, write_stats};
use crate::{code, Failure};
use figures::Figures;
use latency::Measured;
use machine::config::{MachineConfig, RAM_BASE};
use machine::elf::load_elf_file;
use rayon::prelude::*;
use spec::Build;
pub use spec::{parse, AppExperiment};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// The application's `system.toml` with the build's scheduler, tick rate and defines.
fn system_toml(app: &Path, b: &Build) -> Result<String, Failure> {
    let (p, mut t) = crate::experiment::app_system::table(app)?;
    let kernel = t
        .entry("kernel")
        .or_insert_with(|| toml::Value::Table(Default::default()));
    if let Some(k) = kernel.as_table_mut() {
        if let Some(s) = &b.scheduler {
            if s == "nos" {
                k.remove("scheduler");
                k.insert("os".into(), "nos".into());
            } else {
                k.insert("scheduler".into(), s.clone().into());
            }
        }
        if let Some(hz) = b.tick_hz {
            k.insert("tick_hz".into(), hz.into());
        }
    }
    if !b.cflags.is_empty() {
        let build = t
            .entry("build")
            .or_insert_with(|| toml::Value::Table(Default::default()));
        if let Some(bt) = build.as_table_mut() {
            let mut flags: Vec<toml::Value> = bt
                .get("cflags")
                .and_then(|v| v.as_array().cloned())
                .unwrap_or_default();
            flags.extend(b.cflags.iter().map(|f| toml::Value::from(f.clone())));
            bt.insert("cflags".into(), toml::Value::Array(flags));
        }
    }
    Ok(crate::experiment::app_system::generated(&p, &t))
}

/// One run's outcome, judged.
struct Row {
    build: usize,
    machine: usize,
    seed: u64,
    exit: Option<u8>,
    cycles: u64,
    sim_time_s: f64,
    energy_j: Option<f64>,
    latencies: Vec<Measured>,
    /// The checks it failed (none: it passed).
    failures: Vec<String>,
}

/// Checks the machine files (each run's) before anything is built; what the experiment will
/// do, for `--check`'s line.
pub fn check(exp: &AppExperiment, out: &Path) -> Result<String, Failure> {
    for (_, m) in &exp.machines {
        if let Some(p) = m {
            MachineConfig::from_file(p)
                .map_err(|e| Failure::new(e.exit_code() as u8, e.to_string()))?;
        }
    }
    Ok(format!(
        "{} builds x {} machines x {} seeds -> {}",
        exp.builds.len(),
        exp.machines.len(),
        exp.header.seeds.len(),
        out.display()
    ))
}

/// Builds every build, runs each on every machine with every seed (`jobs` at a time) and
/// judges each run; `exe` is this program, `out` the output directory (made).
pub fn run(
    exp: &AppExperiment,
    root: &Path,
    exe: &Path,
    out: &Path,
    jobs: usize,
) -> Result<u8, Failure> {
    let runs_n = exp.builds.len() * exp.machines.len() * exp.header.seeds.len();
    eprintln!(
        "ubik experiment {}: {} builds, {runs_n} runs -> {}",
        exp.header.name,
        exp.builds.len(),
        out.display()
    );
    let mut elfs = Vec::new();
    for b in &exp.builds {
        let dir = out.join("build").join(b.label());
        prepare_app(&exp.app, &dir, &system_toml(&exp.app, b)?)?;
        elfs.push(build_app(exe, root, &dir, &exp.header.name, &b.label())?);
    }
    let mut plan = Vec::new();
    for bi in 0..exp.builds.len() {
        for mi in 0..exp.machines.len() {
            for &s in &exp.header.seeds {
                plan.push((bi, mi, s));
            }
        }
    }
    let stop = stop_on_ctrl_c();
    let pool = worker_pool(jobs)?;
    let rows: Vec<Result<Row, Failure>> = pool.install(|| {
        plan.par_iter()
            .map(|&(bi, mi, seed)| run_one(exp, &elfs, out, &stop, bi, mi, seed))
            .collect()
    });
    let mut ok = Vec::new();
    for r in rows {
        ok.push(r?);
    }
    report(exp, out, &ok)
}

/// One run: build `bi` on machine `mi` with `seed`, its console and statistics written to
/// its directory, judged against `[expect]`.
fn run_one(
    exp: &AppExperiment,
    elfs: &[PathBuf],
    out: &Path,
    stop: &Arc<AtomicBool>,
    bi: usize,
    mi: usize,
    seed: u64,
) -> Result<Row, Failure> {
    let cfg = match &exp.machines[mi].1 {
        Some(p) => MachineConfig::from_file(p)
            .map_err(|e| Failure::new(e.exit_code() as u8, e.to_string()))?,
        None => MachineConfig::default(),
    };
    let image = load_elf_file(&elfs[bi], RAM_BASE, cfg.ram_size)
        .map_err(|e| Failure::new(code::DATA, e.to_string()))?;
    let dir = out
        .join("runs")
        .join(format!("{}-m{mi}-s{seed}", exp.builds[bi].label()));
    std::fs::create_dir_all(&dir).map_err(|e| io_fail("the run directory", &dir, e))?;
    let console = Capture::default();
    let done = simulate(Simulation {
        cfg: &cfg,
        image: &image,
        seed,
        max_cycles: None,
        max_time_fs: Some(exp.header.run_ms as u128 * 1_000_000_000_000),
        observe: Observe::Energy,
        record: true,
        itrace: None,
        console: Box::new(console.clone()),
        stop,
        gdb: None,
        trace: None,
    });
    let text = console.text();
    let cpath = dir.join("console.txt");
    std::fs::write(&cpath, text.as_bytes())
        .map_err(|e| io_fail("the console output", &cpath, e))?;
    let spath = dir.join("stats.json");
    write_stats(&spath, &done.stats).map_err(|e| io_fail("statistics", &spath, e))?;
    tasks::write_tasks_csv(&dir, &done.stats)?;
    let ipath = dir.join("io.csv");
    write_io_csv(&ipath, done.machine.record()).map_err(|e| io_fail("the IO record", &ipath, e))?;
    let mut record = done.machine.record().to_vec();
    record.sort_by_key(|e| e.cycle);
    let latencies = latency::measure(&exp.latencies, &record);
    let status = outcome_status(&elfs[bi], &done.outcome, &done.machine, &done.counts, None);
    let want = exp.expect.exit;
    let (exit, failures) = match status {
        Ok(c) if c == want => {
            let mut f = Figures::of_run(
                done.counts.cycles,
                done.counts.sim_time_s,
                done.stats.energy_j,
            );
            f.add_latencies(&exp.latencies, &latencies);
            f.add_tasks(&done.stats);
            let b = &exp.builds[bi];
            let m = &exp.machines[mi].0;
            (
                Some(c),
                exp.expect.judge(m, b.scheduler.as_deref(), &text, &f),
            )
        }
        Ok(c) => (Some(c), vec![format!("exit code {c}, expected {want}")]),
        Err(f) if f.code == code::INTERRUPTED => return Err(f),
        Err(f) => (
            None,
            vec![f
                .message
                .replace(&elfs[bi].display().to_string(), "the firmware")],
        ),
    };
    Ok(Row {
        build: bi,
        machine: mi,
        seed,
        exit,
        cycles: done.counts.cycles,
        sim_time_s: done.counts.sim_time_s,
        energy_j: done.stats.energy_j,
        latencies,
        failures,
    })
}

/// Writes app.csv and junit.xml and prints a line per run and the count that passed: exit
/// code 0 when every run passed, else 1.
fn report(exp: &AppExperiment, out: &Path, ok: &[Row]) -> Result<u8, Failure> {
    let mut csv = format!(
        "build,scheduler,tick_hz,cflags,machine,seed,exit,cycles,sim_time_s,energy_j{},pass,why\n",
        latency::csv_header(&exp.latencies)
    );
    let mut table = String::new();
    let mut cases = Vec::new();
    let mut failed = 0;
    for r in ok {
        let b = &exp.builds[r.build];
        let pass = r.failures.is_empty();
        failed += !pass as usize;
        let why = r.failures.join("; ");
        let q = |s: &str| format!("\"{}\"", s.replace('"', "\"\""));
        cases.push(junit::Case {
            name: format!(
                "{} {} seed {}",
                b.label(),
                exp.machines[r.machine].0,
                r.seed
            ),
            failures: r.failures.clone(),
        });
        csv += &format!(
            "{},{},{},{},{},{},{},{},{},{}{},{},{}\n",
            b.label(),
            b.scheduler.as_deref().unwrap_or(""),
            b.tick_hz.map_or(String::new(), |t| t.to_string()),
            q(&b.cflags.join(" ")),
            q(&exp.machines[r.machine].0),
            r.seed,
            r.exit.map_or(String::new(), |e| e.to_string()),
            r.cycles,
            r.sim_time_s,
            r.energy_j.map_or(String::new(), |e| e.to_string()),
            latency::csv_cells(&r.latencies),
            pass,
            q(&why)
        );
        table += &format!(
            "{:<32} {:<16} seed {:<4} {:>12} cycles  {}{}\n",
            b.label(),
            exp.machines[r.machine].0,
            r.seed,
            r.cycles,
            latency::summary(&exp.latencies, &r.latencies),
            if pass {
                "pass".to_string()
            } else {
                format!("FAIL: {why}")
            }
        );
    }
    let p = out.join("app.csv");
    std::fs::write(&p, csv).map_err(|e| io_fail("the results", &p, e))?;
    let j = out.join("junit.xml");
    std::fs::write(&j, junit::xml(&exp.header.name, &cases))
        .map_err(|e| io_fail("the checks' report", &j, e))?;
    print!("{table}");
    println!(
        "{} of {} runs passed; rows in {}",
        ok.len() - failed,
        ok.len(),
        p.display()
    );
    Ok(if failed == 0 { 0 } else { 1 })
}

impl crate::experiment::kind::ExperimentKind for AppExperiment {
    fn output(&self, given: Option<PathBuf>) -> PathBuf {
        self.header.output(given)
    }

    fn check(&self, _root: &Path, out: &Path) -> Result<String, Failure> {
        check(self, out)
    }

    fn run(&self, root: &Path, out: &Path, jobs: usize) -> Result<u8, Failure> {
        let (exe, _) = super::kind::start(out)?;
        run(self, root, &exe, out, jobs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn root() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..")
    }

    #[test]
    fn the_system_description_takes_the_builds_values() {
        let b = Build {
            scheduler: Some("bitmap".into()),
            tick_hz: Some(250),
            cflags: vec!["-DFAST=1".into()],
            label: String::new(),
        };
        let s = system_toml(&root().join("apps/tutorial"), &b)
            .map_err(|f| f.message)
            .unwrap();
        let t: toml::Table = s.parse().unwrap();
        assert_eq!(t["kernel"]["scheduler"].as_str(), Some("bitmap"));
        assert_eq!(t["kernel"]["tick_hz"].as_integer(), Some(250));
        assert_eq!(t["build"]["cflags"][0].as_str(), Some("-DFAST=1"));
        assert!(t.contains_key("task"), "the application's objects stay");
    }
}
