//! `ubik experiment` for the hypervisor study (`kind = "hypervisor"`, bench/hypervisor.toml,
//! docs/hypervisor.md): seed paper 004's measurement of an RTOS beside a second OS on one
//! core. The real-time application alone on the machine, and one hypervisor image per
//! (policy, load) with the real-time partition beside the general-purpose one, each built
//! with `ubik build` and run on the testbed with its IO record; the figures are GPIO edges
//! paired in that record (`reduce.rs`).
//!
//! Writes `OUT/NAME.json` (`-o OUT`, default `out/bench`; NAME: `name`, default the file's
//! stem, so that `make bench` writes `out/bench/hypervisor.json`) and keeps its material in
//! `OUT/NAME/` (the job engine's layout, jobs/): `build/LABEL/` per image (LABEL `alone` or
//! `POLICY-LOAD`: the application's sources or the image's `hypervisor.toml`, `build.log`),
//! `apps/` (the guests' applications, `rt` and one `gp-LOAD` per load), `machines/LABEL.toml`
//! and `runs/LABEL/` (`console.txt`, `io.csv`, `stats.json`). It prints each run's figures
//! (`NAME: LABEL: {...}`). With `[expect] findings = true` it checks the study's findings and
//! exits 1 when one does not hold. A failed build or run is one line naming it and the file
//! with its details, with the contract's exit code.
//!
//! One concern per file: `spec.rs` reads the file, `images.rs` writes what is built and run,
//! `reduce.rs` turns the records into the figures.

mod images;
mod reduce;
mod spec;

use super::jobs::{prepare_app, sources, write_if_changed};
use super::jobs::{BuildWith, Engine, Job, MachineSrc, RunOpts, Source};
use super::steps::io_fail;
use crate::{code, Failure};
use serde_json::Value;
pub use spec::{read, HypervisorSpec};
use std::path::Path;

/// A run's cycle limit: the real-time application stops the run after its bursts, long
/// before (the longest run, under the heaviest load, takes under a billion cycles).
const MAX_CYCLES: u64 = 4_000_000_000;

/// What the experiment will do, for `--check`'s line.
pub fn check(spec: &HypervisorSpec, out: &Path) -> String {
    format!(
        "{} runs (alone, {} policies x {} loads) -> {}",
        1 + spec.policies.len() * spec.loads.len(),
        spec.policies.len(),
        spec.loads.len(),
        spec.header.json(out).display()
    )
}

/// Writes the guests' application directories under `work` (`apps/rt`, `apps/gp-LOAD`: the
/// sources and the generated `system.toml`s, which every image of a load shares) and each
/// run's machine file (`machines/LABEL.toml`); the jobs: the real-time application alone,
/// then each policy's images, load by load.
fn jobs(spec: &HypervisorSpec, work: &Path) -> Result<Vec<Job>, Failure> {
    let rt_toml = images::system_toml(&spec.rt, &images::rt_cflags(spec), None)?;
    prepare_app(&spec.rt, &work.join("apps").join("rt"), &rt_toml)?;
    let machines = work.join("machines");
    std::fs::create_dir_all(&machines).map_err(|e| io_fail("a directory", &machines, e))?;
    let job = |label: String, build: BuildWith, files, device_period_us| {
        let machine = machines.join(format!("{label}.toml"));
        write(&machine, &images::machine_toml(spec, device_period_us))?;
        Ok(Job {
            label,
            source: Source {
                files,
                generated: vec![],
                build,
            },
            run: RunOpts {
                machine: MachineSrc::File(machine),
                max_cycles: MAX_CYCLES,
                record: true,
                ..RunOpts::default()
            },
        })
    };
    let rt_files = sources(&spec.rt)?;
    let mut out = vec![job(
        "alone".into(),
        BuildWith::Ubik {
            system_toml: rt_toml,
        },
        rt_files,
        0,
    )?];
    for load in &spec.loads {
        let gp_toml = images::system_toml(&spec.gp, &images::gp_cflags(load), Some(load.tick_hz))?;
        prepare_app(
            &spec.gp,
            &work.join("apps").join(format!("gp-{}", load.name)),
            &gp_toml,
        )?;
    }
    for pol in &spec.policies {
        for load in &spec.loads {
            let build = BuildWith::Hypervisor {
                hypervisor_toml: images::hypervisor_toml(spec, pol, &load.name),
            };
            out.push(job(
                format!("{pol}-{}", load.name),
                build,
                vec![],
                load.device_period_us,
            )?);
        }
    }
    Ok(out)
}

/// Writes `text` to `p` unless it holds it already (so that nothing is rebuilt for nothing).
fn write(p: &Path, text: &str) -> Result<(), Failure> {
    write_if_changed(p, text.as_bytes()).map_err(|e| io_fail("a generated file", p, e))
}

/// Builds, runs and measures every image into `out` and writes `OUT/NAME.json` (`jobs` runs
/// at a time). Exit 0, or 1 when `[expect] findings` does not hold.
pub fn run(spec: &HypervisorSpec, root: &Path, out: &Path, jobs: usize) -> Result<u8, Failure> {
    let h = &spec.header;
    let work = h.work(out);
    let engine = Engine::new(&h.name, root, &work, jobs)?;
    let list = self::jobs(spec, &work)?;
    let results = engine.run(&list)?;
    let mut figures = Vec::new();
    for (j, r) in list.iter().zip(&results) {
        let f = reduce::run_figures(&r.record, &r.console, u64::from(spec.rt_burst)).map_err(
            |why| {
                let io = work.join("runs").join(&j.label).join("io.csv");
                Failure::new(
                    code::DATA,
                    format!(
                        "experiment {}: job {}: {why}; its IO record is in {}",
                        h.name,
                        j.label,
                        io.display()
                    ),
                )
            },
        )?;
        println!("{}: {}: {f}", h.name, j.label);
        figures.push(f);
    }
    finish(spec, &figures, out)
}

/// Combines the runs' figures (`figures[0]` alone, then each policy's loads in turn) into
/// `OUT/NAME.json`, and checks the findings when asked.
fn finish(spec: &HypervisorSpec, figures: &[Value], out: &Path) -> Result<u8, Failure> {
    let fail = |why: String| {
        Failure::new(
            code::DATA,
            format!("experiment {}: {why}", spec.header.name),
        )
    };
    let nl = spec.loads.len();
    let policies: Vec<(&str, Vec<(&str, Value)>)> = spec
        .policies
        .iter()
        .enumerate()
        .map(|(p, pol)| {
            let runs = spec
                .loads
                .iter()
                .enumerate()
                .map(|(l, load)| (load.name.as_str(), figures[1 + p * nl + l].clone()))
                .collect();
            (pol.as_str(), runs)
        })
        .collect();
    let result = reduce::combine(
        &figures[0],
        &policies,
        &spec.headline_load,
        spec.setup.clone(),
    )
    .map_err(fail)?;
    let path = spec.header.write_json(out, &result)?;
    println!("{}: wrote {}", spec.header.name, path.display());
    if !spec.findings {
        return Ok(0);
    }
    let by = |pol: &str, load: &str| &result["by_load"][load][pol];
    let both: Vec<(&str, &Value, &Value)> = spec
        .loads
        .iter()
        .map(|l| (l.name.as_str(), by("fair", &l.name), by("rt", &l.name)))
        .collect();
    let bad = reduce::findings(&result["alone"], &both);
    for b in &bad {
        println!("FAIL  {} findings: {b}", spec.header.name);
    }
    if bad.is_empty() {
        println!("{}: the findings hold", spec.header.name);
        Ok(0)
    } else {
        Ok(1)
    }
}

impl crate::experiment::kind::ExperimentKind for HypervisorSpec {
    fn check(&self, _root: &Path, out: &Path) -> Result<String, Failure> {
        Ok(check(self, out))
    }

    fn run(&self, root: &Path, out: &Path, jobs: usize) -> Result<u8, Failure> {
        run(self, root, out, jobs)
    }
}
