//! Thread-Metric on every OS of the suite (`kind = "threadmetric"`, issue 12): each scenario
//! built as one image per row and run on the testbed, its summary line read (reduce.rs), the
//! figures written to `OUT/NAME.json` (default `out/bench/threadmetric.json`):
//!
//! ```text
//! {"OS-SCHED": {"SCENARIO": cpc, ...}, ...}      (cpc: cycles per count, an integer)
//! ```
//!
//! Rows: `ubik-SCHED` for every scheduler of the policy table a scenario applies to (chosen by
//! the policy's properties, `schedulers` of the scenario: select.rs); `nos-np` (NOS,
//! non-preemptive) with the scenarios `[nos]` lists; `freertos-prio` when the environment's
//! `FREERTOS_KERNEL_PATH` names a FreeRTOS-Kernel checkout (built by the external command
//! `[freertos] build`, e.g. bench/freertos/build.sh; without the variable one line says how
//! to get the rows), with every scenario and the `[[freertos.extra]]` figures (the same
//! scenario built with extra defines). The file (bench/threadmetric.toml):
//!
//! ```toml
//! kind = "threadmetric"
//! sources = "threadmetric"        # the sources' directory, relative to this file
//! period_ms = 50                  # each measuring window (TM_PERIOD_MS)
//! periods = 5                     # windows per run (TM_PERIODS)
//! max_cycles = 4000000000         # optional (this default): a run still going then fails
//! [[scenario]]
//! name = "cooperative"            # the figure's key
//! number = 2                      # TM_SCENARIO
//! schedulers = { without = ["unique_priorities"] }  # optional: every scheduler without it
//! [ubik]
//! files = ["tm_scenarios.c", "tm_ubik.c", "tm_port.h", "tm_basic.h"]
//! tick_hz = 1000
//! [nos]                           # optional
//! files = ["tm_nos.c", "tm_basic.h"]
//! scenarios = ["basic", "cooperative", "interrupt"]
//! [freertos]                      # optional
//! files = ["tm_scenarios.c", "tm_port.h", "tm_basic.h"]
//! build = "freertos/build.sh"     # relative to this file: BUILD DIR ELF
//! [[freertos.extra]]
//! key = "memory_free_list"
//! scenario = "memory"
//! cflags = ["-DTM_FREERTOS_FREE_LIST"]   # given to BUILD as TM_CFLAGS
//! ```
//!
//! Every image's directory holds its files and a generated `tm_config.h` (`TM_SCENARIO`,
//! `TM_PERIOD_MS`, `TM_PERIODS`), and for Ubik and NOS a `system.toml`; they are built and run
//! by the job engine (jobs/) under `OUT/NAME/` (`build/LABEL/`, `runs/LABEL/console.txt`).
//! Each run must end with a count above zero. The self-checks (reduce.rs) print one line;
//! a failed one, a run without a count, or a figure not in Thread-Metric's unit exits 1
//! (the figures are written all the same).

mod reduce;
mod spec;

use super::jobs::{BuildWith, Engine, Job, RunOpts, Source};
use crate::experiment::check::check_output_dir;
use crate::Failure;
use reduce::{basic_check, cpc, summary, unit_mismatch, Table};
pub use spec::{parse, ThreadMetric};
use std::collections::BTreeMap;
use std::path::Path;

/// The environment variable that names a FreeRTOS-Kernel checkout.
const FREERTOS_ENV: &str = "FREERTOS_KERNEL_PATH";

/// One figure to measure: its row, its key, its scenario (an index), and the job.
struct Figure {
    row: String,
    key: String,
    scenario: usize,
    job: Job,
}

/// `tm_config.h` for scenario `number`.
fn config_h(tm: &ThreadMetric, number: u32) -> (String, String) {
    (
        "tm_config.h".into(),
        format!(
            "#define TM_SCENARIO {number}\n#define TM_PERIOD_MS {}\n#define TM_PERIODS {}\n",
            tm.period_ms, tm.periods
        ),
    )
}

/// The figures to measure, in the order they are printed: every scheduler's scenarios, then
/// NOS's, then FreeRTOS's when `freertos` (its rows are built only with a checkout).
fn figures(tm: &ThreadMetric, freertos: bool) -> Vec<Figure> {
    let run = RunOpts {
        max_cycles: tm.max_cycles,
        ..RunOpts::default()
    };
    let fig = |row: String, key: &str, i: usize, label: String, files, build| Figure {
        row,
        key: key.to_string(),
        scenario: i,
        job: Job {
            label,
            source: Source {
                files,
                generated: vec![config_h(tm, tm.scenarios[i].number)],
                build,
            },
            run: run.clone(),
        },
    };
    let mut out = Vec::new();
    for s in sysdesc::Scheduler::ALL {
        for &i in &tm.ubik.scenarios {
            let sc = &tm.scenarios[i];
            if sc.select.applies(s.policy()) {
                let system_toml = format!(
                    "[kernel]\nscheduler = \"{}\"\ntick_hz = {}\n",
                    s.name(),
                    tm.tick_hz
                );
                let label = format!("{}-{}", sc.name, s.name());
                let build = BuildWith::Ubik { system_toml };
                let row = format!("ubik-{}", s.name());
                out.push(fig(row, &sc.name, i, label, tm.ubik.files.clone(), build));
            }
        }
    }
    if let Some(n) = &tm.nos {
        for &i in &n.scenarios {
            let system_toml = "[kernel]\nos = \"nos\"\n".to_string();
            let name = &tm.scenarios[i].name;
            let build = BuildWith::Ubik { system_toml };
            out.push(fig(
                "nos-np".into(),
                name,
                i,
                format!("{name}-nos"),
                n.files.clone(),
                build,
            ));
        }
    }
    if let (Some((rows, program, extra)), true) = (&tm.freertos, freertos) {
        let build = |cflags: &[String]| BuildWith::Command {
            program: program.clone(),
            args: vec![],
            env: vec![("TM_CFLAGS".into(), cflags.join(" "))],
        };
        let keys = rows
            .scenarios
            .iter()
            .map(|&i| (&tm.scenarios[i].name, i, &[][..]));
        let extra = extra.iter().map(|e| (&e.key, e.scenario, &e.cflags[..]));
        for (key, i, cflags) in keys.chain(extra) {
            let label = format!("freertos-{key}");
            let b = build(cflags);
            out.push(fig(
                "freertos-prio".into(),
                key,
                i,
                label,
                rows.files.clone(),
                b,
            ));
        }
    }
    out
}

/// Checks what can be checked without building (that there is an image to measure, the
/// output directory, the cross compiler); what the experiment will do, for `--check`'s line.
pub fn check(tm: &ThreadMetric, out: &Path) -> Result<String, Failure> {
    let n = figures(tm, freertos_on()).len();
    if n == 0 {
        return Err(Failure::new(
            crate::code::DATA,
            format!(
                "experiment {}: nothing to measure: no scenario applies to any scheduler, no \
                 [nos] row, and no [freertos] row (or {FREERTOS_ENV} is not set); expected at \
                 least one image",
                tm.header.name
            ),
        ));
    }
    check_output_dir(out)?;
    crate::build::cross_compiler()?;
    Ok(format!("{n} images -> {}", tm.header.json(out).display()))
}

fn freertos_on() -> bool {
    std::env::var_os(FREERTOS_ENV).is_some_and(|v| !v.is_empty())
}

/// Builds and runs every image (`jobs` at a time), checks and writes the figures: exit 0,
/// or 1 when a check failed.
pub fn run(tm: &ThreadMetric, root: &Path, out: &Path, jobs: usize) -> Result<u8, Failure> {
    let name = &tm.header.name;
    let freertos = freertos_on();
    let figs = figures(tm, freertos);
    eprintln!(
        "ubik experiment {name}: {} images -> {}",
        figs.len(),
        tm.header.json(out).display()
    );
    let engine = Engine::new(name, root, &tm.header.work(out), jobs)?;
    let job_list: Vec<Job> = figs.iter().map(|f| f.job.clone()).collect();
    let results = engine.run(&job_list)?;
    let mut table = Table::new();
    let mut basic_counts = BTreeMap::new();
    let mut fail = false;
    for (f, r) in figs.iter().zip(&results) {
        let scenario = &tm.scenarios[f.scenario].name;
        let Some(s) = summary(&r.console, scenario) else {
            let console = engine
                .work
                .join("runs")
                .join(&f.job.label)
                .join("console.txt");
            eprintln!(
                "{name}: {} [{}]: no `tm {scenario} count=N ...` line with N above 0 in {}",
                f.key,
                f.row,
                console.display()
            );
            fail = true;
            continue;
        };
        println!("[{}] {}: {}", f.row, f.key, s.text);
        if let Some(why) = unit_mismatch(scenario, &s) {
            eprintln!(
                "{name}: not Thread-Metric's unit: {} {}: {why}",
                f.row, f.key
            );
            fail = true;
        }
        if f.key == "basic" {
            basic_counts.insert(f.row.clone(), s.count);
        }
        let row = table.entry(f.row.clone()).or_default();
        row.insert(f.key.clone(), cpc(s.count, s.cycles));
    }
    if tm.freertos.is_some() && !freertos {
        println!(
            "{name}: no FreeRTOS rows: set {FREERTOS_ENV} to a FreeRTOS-Kernel checkout \
             (git clone -b V11.1.0 https://github.com/FreeRTOS/FreeRTOS-Kernel) to add them"
        );
    }
    let c = basic_check(&table, &basic_counts);
    match &c.failed {
        Some(why) => {
            eprintln!("{name}: self-check failed: {why}");
            fail = true;
        }
        None => println!(
            "{name}: self-check passed: basic processing agrees across {} rows within {:.1}%, under {}",
            c.rows,
            c.spread * 100.0,
            c.which
        ),
    }
    let value = serde_json::to_value(&table).map_err(|e| {
        Failure::new(
            crate::code::INTERNAL,
            format!("cannot encode the figures: {e}"),
        )
    })?;
    let p = tm.header.write_json(out, &value)?;
    println!("{name}: wrote {}", p.display());
    Ok(u8::from(fail))
}

impl crate::experiment::kind::ExperimentKind for ThreadMetric {
    fn check(&self, _root: &Path, out: &Path) -> Result<String, Failure> {
        check(self, out)
    }

    fn run(&self, root: &Path, out: &Path, jobs: usize) -> Result<u8, Failure> {
        run(self, root, out, jobs)
    }
}

#[cfg(test)]
mod tests;
