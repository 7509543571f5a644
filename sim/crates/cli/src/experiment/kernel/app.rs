//! A benchmark application as a job of the engine (jobs/): its directory's sources (`.c`,
//! `.h`, `.S`) and its `system.toml`, with `[kernel] scheduler` replaced when the benchmark
//! runs it under a scheduler of its choosing; and where a built job's ELF and link map are.
//! Shared by the kernel, IPC and RTM benchmarks.

use crate::experiment::app_system;
use crate::experiment::jobs::{sources, BuildWith, Job, MachineSrc, RunOpts, Source};
use crate::Failure;
use std::path::{Path, PathBuf};
use sysdesc::Scheduler;

/// The application's `system.toml`, with `[kernel] scheduler` set to `sched` if given.
pub fn system_toml(app: &Path, sched: Option<Scheduler>) -> Result<String, Failure> {
    let Some(s) = sched else {
        return Ok(app_system::text(app)?.1);
    };
    let (p, mut t) = app_system::table(app)?;
    let kernel = t
        .entry("kernel")
        .or_insert_with(|| toml::Value::Table(Default::default()));
    if let Some(k) = kernel.as_table_mut() {
        k.insert("scheduler".into(), s.name().into());
    }
    Ok(app_system::generated(&p, &t))
}

/// The job `label`: the application `app` under `sched` (its own scheduler if None), run on
/// `machine` for at most `max_cycles`; `record` keeps its IO record.
pub fn job(
    label: String,
    app: &Path,
    sched: Option<Scheduler>,
    machine: MachineSrc,
    max_cycles: u64,
    record: bool,
) -> Result<Job, Failure> {
    Ok(Job {
        label,
        source: Source {
            files: sources(app)?,
            generated: Vec::new(),
            build: BuildWith::Ubik {
                system_toml: system_toml(app, sched)?,
            },
        },
        run: RunOpts {
            machine,
            max_cycles,
            record,
            ..RunOpts::default()
        },
    })
}

/// The schedulers a benchmark runs under, with their labels' suffixes: each of `selected`
/// (`-NAME`), or the application's own (no suffix) when the benchmark chose none.
pub fn under(selected: &Option<Vec<Scheduler>>) -> Vec<(Option<Scheduler>, String)> {
    match selected {
        Some(v) => v
            .iter()
            .map(|s| (Some(*s), format!("-{}", s.name())))
            .collect(),
        None => vec![(None, String::new())],
    }
}

/// The build directory of job `i` of `jobs` (`WORK/build/LABEL/build`): the engine builds
/// equal sources once, in the first such job's directory.
pub fn build_dir(work: &Path, jobs: &[Job], i: usize) -> PathBuf {
    let first = jobs
        .iter()
        .find(|j| j.source == jobs[i].source)
        .unwrap_or(&jobs[i]);
    work.join("build").join(&first.label).join("build")
}
