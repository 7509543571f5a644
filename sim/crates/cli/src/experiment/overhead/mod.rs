//! The OS-overhead benchmark (`kind = "overhead"`, seed paper 003): MiBench-like programs
//! (`bench/overhead/`: basicmath, FFT) run bare metal, as one NOS job and as one Ubik task
//! under every scheduler, beside a realistic background or only the tick; each (program,
//! row) is one image of `overhead.c`, built with `ubik build` and run on the machine file
//! (its stimuli are the background's interrupts) with energy and attribution. reduce.rs
//! turns each run's console line and statistics into its keys; writes `OUT/NAME.json`
//! (`{"ROW": {"PROGRAM_cycles": c, "PROGRAM_overhead_pct": p, ...}}`) and keeps every image
//! and run under `OUT/NAME/ROW-PROGRAM/`. A row whose results differ from bare metal's fails
//! the experiment (exit 1), after the file is written.
//!
//! ```toml
//! kind = "overhead"
//! scale = 4                      # OV_SCALE: the programs' input size
//! max_cycles = 2000000000        # each run's limit
//! machine = "overhead/machine.toml"  # relative to this file
//! programs = ["basicmath", "fft"]
//! sources = ["overhead/overhead.c", ...]  # every row's, unless it has its own
//! [[row]]                        # osrow.rs: name, os, tick_hz, sources, build
//! name = "bare"
//! os = "nos"
//! bare = true                    # bare metal (OV_BARE: main never starts NOS): the reference
//! [[row]]
//! name = "ubik-{scheduler}"
//! os = "ubik"
//! tick_hz = 1000
//! background = true              # OV_BACKGROUND: the periodic task, stimuli through a LISR
//!                                # and a HISR (default false: the tick only)
//! ```

mod reduce;
mod spec;

use super::jobs::{Engine, Job, MachineSrc, RunOpts, Source};
use super::osrow::{announce, freertos_checkout, own_check, Os};
use crate::{code, Failure};
use reduce::{console_line, kernel_cycles, keys};
use serde_json::{Map, Value};
pub use spec::{parse, Overhead};
use std::collections::BTreeMap;
use std::path::Path;

/// One (row, program) run planned.
struct Planned {
    row: usize,
    label: String,
    program: String,
}

/// The images to build and run, in the rows' order, program by program.
fn plan(e: &Overhead) -> (Vec<Job>, Vec<Planned>) {
    let mut jobs = Vec::new();
    let mut planned = Vec::new();
    let freertos = freertos_checkout().is_some();
    for p in &e.programs {
        let number = spec::PROGRAMS.iter().position(|x| x == p).unwrap_or(0) + 1;
        for (ri, r) in e.rows.iter().enumerate() {
            let scheds: Vec<Option<&str>> = match r.os.os {
                Os::Ubik { .. } => sysdesc::Scheduler::NAMES.iter().map(|s| Some(*s)).collect(),
                Os::FreeRtos { .. } if !freertos => continue,
                _ => vec![None],
            };
            for s in scheds {
                let label = r.os.label(s);
                let mut config = format!(
                    "#define OV_PROGRAM {number}\n#define OV_SCALE {}\n#define OV_BACKGROUND {}\n",
                    e.scale, r.background as u8
                );
                if r.bare {
                    config += "#define OV_BARE 1\n";
                }
                jobs.push(Job {
                    label: format!("{label}-{p}"),
                    source: Source {
                        files: r.os.sources.clone(),
                        generated: vec![("ov_config.h".into(), config)],
                        build: r.os.build_with(s),
                    },
                    run: RunOpts {
                        machine: MachineSrc::File(e.machine.clone()),
                        max_cycles: e.max_cycles,
                        energy: true,
                        ..RunOpts::default()
                    },
                });
                planned.push(Planned {
                    row: ri,
                    label,
                    program: p.clone(),
                });
            }
        }
    }
    (jobs, planned)
}

/// What `--check` says the experiment will do.
pub fn check(e: &Overhead, out: &Path) -> String {
    let (jobs, _) = plan(e);
    format!("{} images -> {}", jobs.len(), e.header.json(out).display())
}

/// Builds and runs every image, reduces the runs and writes `OUT/NAME.json`.
pub fn run(e: &Overhead, root: &Path, out: &Path, jobs: usize) -> Result<u8, Failure> {
    let name = &e.header.name;
    let (list, planned) = plan(e);
    announce(name, list.len(), out, e.rows.iter().map(|r| &r.os));
    let engine = Engine::new(name, root, &e.header.work(out), jobs)?;
    let results = engine.run(&list)?;
    let mut lines = Vec::new();
    for ((p, r), j) in planned.iter().zip(&results).zip(&list) {
        let l = console_line(&r.console, &p.program).map_err(|m| {
            let console = engine.work.join("runs").join(&j.label).join("console.txt");
            Failure::new(
                code::DATA,
                format!(
                    "experiment {name}: job {}: {m} ({})",
                    j.label,
                    console.display()
                ),
            )
        })?;
        lines.push(l);
    }
    let mut table: BTreeMap<String, Map<String, Value>> = BTreeMap::new();
    let mut bad = Vec::new();
    for (i, p) in planned.iter().enumerate() {
        let bare_i = planned
            .iter()
            .position(|q| e.rows[q.row].bare && q.program == p.program)
            .ok_or_else(|| Failure::new(code::INTERNAL, "no bare-metal run".to_string()))?;
        let r = &results[i];
        let energy = r.stats.energy_j.unwrap_or(0.0);
        match keys(
            &lines[i],
            kernel_cycles(&r.stats),
            energy,
            &lines[bare_i],
            e.rows[p.row].bare,
        ) {
            Ok(k) => table.entry(p.label.clone()).or_default().extend(k),
            Err(m) => bad.push(format!("{} {}: {m}", p.label, p.program)),
        }
    }
    let table: Map<String, Value> = table
        .into_iter()
        .map(|(k, v)| (k, Value::Object(v)))
        .collect();
    let path = e.header.write_json(out, &Value::Object(table.clone()))?;
    for (row, keys) in &table {
        for p in &e.programs {
            if let Some(c) = keys.get(format!("{p}_cycles")) {
                println!(
                    "overhead: {row:>16} {p:>9}: {c} cycles, +{} % (kernel {} %), {} uJ",
                    keys[&format!("{p}_overhead_pct")],
                    keys[&format!("{p}_kernel_pct")],
                    keys[&format!("{p}_energy_uj")]
                );
            }
        }
    }
    own_check(name, &bad)?;
    println!("overhead: wrote {}", path.display());
    Ok(0)
}

impl crate::experiment::kind::ExperimentKind for Overhead {
    fn check(&self, _root: &Path, out: &Path) -> Result<String, Failure> {
        Ok(check(self, out))
    }

    fn run(&self, root: &Path, out: &Path, jobs: usize) -> Result<u8, Failure> {
        run(self, root, out, jobs)
    }
}

#[cfg(test)]
mod tests;
