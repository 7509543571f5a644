//! `ubik experiment` for the hypervisor study (`kind = "hypervisor"`, bench/hypervisor.toml,
//! docs/hypervisor.md): seed paper 004's measurement of an RTOS beside a second OS on one
//! core. The real-time application alone on the machine, and one hypervisor image per
//! (policy, load) with the real-time partition beside the general-purpose one, each built
//! with `ubik build` and run on the testbed with its IO record; the figures are GPIO edges
//! paired in that record (`reduce.rs`).
//!
//! Writes `OUT/NAME.json` (`-o OUT`, default `out/bench`; NAME: `name`, default the file's
//! stem, so that `make bench` writes `out/bench/hypervisor.json`) and keeps its material in
//! `OUT/NAME/`: each image's directory (`alone/`, `POLICY-LOAD/` with `rt/`, `gp/`,
//! `hypervisor.toml`, `machine.toml`, `build.log`) and each run's files (`runs/LABEL/`:
//! `console.txt`, `io.csv`, `stats.json`, `figures.json`). With `[expect] findings = true`
//! it checks the study's findings and exits 1 when one does not hold. A failed build or run
//! is one line naming it and the file with its details, with the contract's exit code.
//!
//! One concern per file: `spec.rs` reads the file, `images.rs` writes what is built and run,
//! `reduce.rs` turns the records into the figures.

mod images;
mod reduce;
mod spec;

use super::steps::{build_app, io_fail, prepare_app, run_app, stop_on_ctrl_c, worker_pool};
use super::steps::RunSpec;
use crate::{code, Failure};
use rayon::prelude::*;
use serde_json::Value;
pub use spec::{read, HypervisorSpec};
use std::path::{Path, PathBuf};

/// A run's cycle limit: the real-time application stops the run after its bursts, long
/// before (the longest run, under the heaviest load, takes under a billion cycles).
const MAX_CYCLES: u64 = 4_000_000_000;

/// One image to build and run: its label (`alone`, `POLICY-LOAD`), its directory and its
/// machine file's text.
struct Image {
    label: String,
    dir: PathBuf,
    machine: String,
    hypervisor: bool,
}

/// What the experiment will do, for `--check`'s line.
pub fn check(spec: &HypervisorSpec, out: &Path) -> String {
    format!(
        "{} runs (alone, {} policies x {} loads) -> {}",
        1 + spec.policies.len() * spec.loads.len(),
        spec.policies.len(),
        spec.loads.len(),
        out.join(format!("{}.json", spec.name)).display()
    )
}

/// Writes every image's directory under `work`: the sources, the generated `system.toml`s,
/// `hypervisor.toml` and the machine file.
fn prepare(spec: &HypervisorSpec, work: &Path) -> Result<Vec<Image>, Failure> {
    let rt_toml = images::system_toml(&spec.rt, &images::rt_cflags(spec), None)?;
    let alone = work.join("alone");
    prepare_app(&spec.rt, &alone, &rt_toml)?;
    let mut out = vec![Image {
        label: "alone".into(),
        dir: alone,
        machine: images::machine_toml(spec, 0),
        hypervisor: false,
    }];
    for pol in &spec.policies {
        for load in &spec.loads {
            let label = format!("{pol}-{}", load.name);
            let dir = work.join(&label);
            prepare_app(&spec.rt, &dir.join("rt"), &rt_toml)?;
            let gp_toml =
                images::system_toml(&spec.gp, &images::gp_cflags(load), Some(load.tick_hz))?;
            prepare_app(&spec.gp, &dir.join("gp"), &gp_toml)?;
            write(
                &dir.join("hypervisor.toml"),
                &images::hypervisor_toml(spec, pol, &load.name),
            )?;
            out.push(Image {
                label,
                dir,
                machine: images::machine_toml(spec, load.device_period_us),
                hypervisor: true,
            });
        }
    }
    for im in &out {
        write(&im.dir.join("machine.toml"), &im.machine)?;
    }
    Ok(out)
}

/// Writes `text` to `p` unless it holds it already (so that nothing is rebuilt for nothing).
fn write(p: &Path, text: &str) -> Result<(), Failure> {
    if std::fs::read(p).ok().as_deref() == Some(text.as_bytes()) {
        return Ok(());
    }
    std::fs::write(p, text).map_err(|e| io_fail("a generated file", p, e))
}

/// Builds, runs and measures every image into `out` (made) and writes `OUT/NAME.json`
/// (`jobs` runs at a time); `exe` is this program. Exit 0, or 1 when `[expect] findings`
/// does not hold.
pub fn run(
    spec: &HypervisorSpec,
    root: &Path,
    exe: &Path,
    out: &Path,
    jobs: usize,
) -> Result<u8, Failure> {
    let work = out.join(&spec.name);
    let images = prepare(spec, &work)?;
    let quiet = !std::io::IsTerminal::is_terminal(&std::io::stderr());
    let n = images.len();
    let mut elfs = Vec::new();
    for (i, im) in images.iter().enumerate() {
        if !quiet {
            eprint!("\r  building {}/{n}: {:<12}", i + 1, im.label);
        }
        let app_elf = build_app(exe, root, &im.dir, &spec.name, &im.label)?;
        elfs.push(if im.hypervisor {
            im.dir.join("build").join("hv.elf")
        } else {
            app_elf
        });
    }
    if !quiet {
        eprintln!("\r  built {n} images{:20}", "");
    }
    let stop = stop_on_ctrl_c();
    let figures = worker_pool(jobs)?.install(|| {
        images
            .par_iter()
            .zip(&elfs)
            .map(|(im, elf)| measure(spec, im, elf, &work, &stop))
            .collect::<Vec<_>>()
    });
    let figures = figures.into_iter().collect::<Result<Vec<Value>, Failure>>()?;
    for (im, f) in images.iter().zip(&figures) {
        println!("{}: {}: {f}", spec.name, im.label);
    }
    finish(spec, &figures, out)
}

/// Runs one image and measures it: its figures (also in `runs/LABEL/figures.json`).
fn measure(
    spec: &HypervisorSpec,
    im: &Image,
    elf: &Path,
    work: &Path,
    stop: &std::sync::atomic::AtomicBool,
) -> Result<Value, Failure> {
    let dir = work.join("runs").join(&im.label);
    let ran = run_app(&RunSpec {
        elf,
        machine: &im.dir.join("machine.toml"),
        seed: 1,
        dir: &dir,
        max_cycles: MAX_CYCLES,
        run_ms: 0,
        what: format!("experiment {}: run {}", spec.name, im.label),
        stop,
        power_over_time: false,
    })?;
    let f = reduce::run_figures(&ran.record, &ran.console, u64::from(spec.rt_burst)).map_err(
        |why| {
            Failure::new(
                code::DATA,
                format!(
                    "experiment {}: run {}: {why}; its IO record is in {}",
                    spec.name,
                    im.label,
                    dir.join("io.csv").display()
                ),
            )
        },
    )?;
    let p = dir.join("figures.json");
    write(&p, &format!("{f}\n"))?;
    Ok(f)
}

/// Combines the runs' figures (`figures[0]` alone, then each policy's loads in turn) into
/// `OUT/NAME.json`, and checks the findings when asked.
fn finish(spec: &HypervisorSpec, figures: &[Value], out: &Path) -> Result<u8, Failure> {
    let fail = |why: String| Failure::new(code::DATA, format!("experiment {}: {why}", spec.name));
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
    let path = out.join(format!("{}.json", spec.name));
    let text = serde_json::to_string_pretty(&result).unwrap_or_default();
    std::fs::write(&path, text + "\n").map_err(|e| io_fail("the result", &path, e))?;
    println!("{}: wrote {}", spec.name, path.display());
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
        println!("FAIL  {} findings: {b}", spec.name);
    }
    if bad.is_empty() {
        println!("{}: the findings hold", spec.name);
        Ok(0)
    } else {
        Ok(1)
    }
}
