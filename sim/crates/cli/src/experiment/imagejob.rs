//! Images built and run for a benchmark: each job's application directory is made from its
//! source files, generated files and `system.toml` (or built by an external command), built
//! once, and run on the testbed in this process (`jobs` at a time), keeping its console, its
//! statistics and, when asked, its IO record. A job's files: `DIR/` (the application, its
//! `build.log` and `build/app.elf`) and `DIR/run/` (`console.txt`, `stats.json`, `io.csv`).

use super::steps::{build_app, exit_code_of, io_fail, stop_on_ctrl_c, worker_pool, Capture};
use crate::run::{outcome_status, simulate, Observe, Simulation};
use crate::run_stats::{write_io_csv, write_stats, Stats};
use crate::{code, Failure};
use machine::config::{MachineConfig, RAM_BASE};
use machine::elf::load_elf_file;
use machine::record::IoEvent;
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::process::Command;

/// One image to build and run.
pub struct ImageJob {
    /// Its name in messages.
    pub label: String,
    /// Its application directory.
    pub dir: PathBuf,
    pub sources: Vec<PathBuf>,
    /// (file name, text) written beside the sources.
    pub generated: Vec<(String, String)>,
    /// `ubik build`'s system.toml; None with `external`.
    pub system_toml: Option<String>,
    /// A command run as `CMD DIR DIR/build/app.elf` instead of `ubik build`.
    pub external: Option<PathBuf>,
    /// The machine file (None: the built-in machine).
    pub machine: Option<PathBuf>,
    pub max_cycles: u64,
    /// Keep the IO record.
    pub record: bool,
    /// Model energy and attribution (for the statistics' energy and categories).
    pub energy: bool,
}

/// What a job's run gave.
pub struct ImageResult {
    pub console: String,
    pub stats: Stats,
    /// In cycle order; empty unless the job asked for it.
    pub record: Vec<IoEvent>,
}

fn write_if_changed(p: &Path, text: &[u8]) -> Result<(), Failure> {
    if std::fs::read(p).ok().as_deref() == Some(text) {
        return Ok(());
    }
    std::fs::write(p, text).map_err(|e| io_fail("a source", p, e))
}

/// Makes the job's application directory.
fn prepare(j: &ImageJob) -> Result<(), Failure> {
    std::fs::create_dir_all(&j.dir).map_err(|e| io_fail("the build directory", &j.dir, e))?;
    for s in &j.sources {
        let text = std::fs::read(s)
            .map_err(|e| Failure::new(code::NO_INPUT, format!("cannot read {}: {e}", s.display())))?;
        let name = s.file_name().unwrap_or_default();
        write_if_changed(&j.dir.join(name), &text)?;
    }
    for (name, text) in &j.generated {
        write_if_changed(&j.dir.join(name), text.as_bytes())?;
    }
    if let Some(t) = &j.system_toml {
        write_if_changed(&j.dir.join("system.toml"), t.as_bytes())?;
    }
    Ok(())
}

/// Builds the job's image with its external command; its ELF.
fn build_external(cmd: &Path, j: &ImageJob, exp: &str) -> Result<PathBuf, Failure> {
    let elf = j.dir.join("build").join("app.elf");
    let log = j.dir.join("build.log");
    let o = Command::new(cmd)
        .arg(&j.dir)
        .arg(&elf)
        .output()
        .map_err(|e| Failure::new(code::INTERNAL, format!("cannot start {}: {e}", cmd.display())))?;
    let mut text = o.stdout.clone();
    text.extend_from_slice(&o.stderr);
    std::fs::write(&log, &text).map_err(|e| io_fail("the build log", &log, e))?;
    if !o.status.success() {
        return Err(Failure::new(
            exit_code_of(o.status),
            format!(
                "experiment {exp}: {} does not build ({}); the build's messages are in {}",
                j.label,
                cmd.display(),
                log.display()
            ),
        ));
    }
    Ok(elf)
}

/// Runs one built job.
fn run_one(j: &ImageJob, elf: &Path, exp: &str, stop: &std::sync::atomic::AtomicBool) -> Result<ImageResult, Failure> {
    let what = format!("experiment {exp}: {}", j.label);
    let cfg = match &j.machine {
        Some(p) => MachineConfig::from_file(p)
            .map_err(|e| Failure::new(e.exit_code() as u8, format!("{what}: {e}")))?,
        None => MachineConfig::default(),
    };
    let image = load_elf_file(elf, RAM_BASE, cfg.ram_size)
        .map_err(|e| Failure::new(code::DATA, format!("{what}: {e}")))?;
    let console = Capture::default();
    let done = simulate(Simulation {
        cfg: &cfg,
        image: &image,
        seed: 1,
        max_cycles: Some(j.max_cycles),
        max_time_fs: None,
        observe: if j.energy { Observe::Energy } else { Observe::Nothing },
        record: j.record,
        itrace: None,
        console: Box::new(console.clone()),
        stop,
        gdb: None,
        trace: None,
    });
    let dir = j.dir.join("run");
    std::fs::create_dir_all(&dir).map_err(|e| io_fail("the run directory", &dir, e))?;
    let text = console.text();
    let cpath = dir.join("console.txt");
    std::fs::write(&cpath, text.as_bytes()).map_err(|e| io_fail("the console output", &cpath, e))?;
    let spath = dir.join("stats.json");
    write_stats(&spath, &done.stats).map_err(|e| io_fail("statistics", &spath, e))?;
    if j.record {
        let p = dir.join("io.csv");
        write_io_csv(&p, done.machine.record()).map_err(|e| io_fail("the IO record", &p, e))?;
    }
    match outcome_status(elf, &done.outcome, &done.machine, &done.counts, Some(j.max_cycles)) {
        Ok(0) => {
            let mut record = done.machine.record().to_vec();
            record.sort_by_key(|e| e.cycle);
            Ok(ImageResult {
                console: text,
                stats: done.stats,
                record,
            })
        }
        Ok(c) => Err(Failure::new(c, format!("{what}: the firmware stopped with exit code {c}; its console output is in {}", cpath.display()))),
        Err(f) => Err(Failure::new(f.code, format!("{what}: {}; its console output is in {}", f.message, cpath.display()))),
    }
}

/// Builds every job (one at a time: each build uses every core) and runs them, `jobs` at a
/// time; the results in the jobs' order. `exp` names the experiment in messages.
pub fn run_images(exe: &Path, root: &Path, exp: &str, list: &[ImageJob], jobs: usize) -> Result<Vec<ImageResult>, Failure> {
    let quiet = !std::io::IsTerminal::is_terminal(&std::io::stderr());
    let n = list.len();
    let mut elfs = Vec::new();
    for (i, j) in list.iter().enumerate() {
        if !quiet {
            eprint!("\r  building {}/{n}: {:<40}", i + 1, j.label);
        }
        prepare(j)?;
        elfs.push(match &j.external {
            Some(cmd) => build_external(cmd, j, exp)?,
            None => build_app(exe, root, &j.dir, exp, &j.label)?,
        });
    }
    if !quiet {
        eprintln!();
    }
    let stop = stop_on_ctrl_c();
    let pool = worker_pool(jobs)?;
    let results: Vec<Result<ImageResult, Failure>> = pool.install(|| {
        list.par_iter()
            .zip(&elfs)
            .map(|(j, elf)| run_one(j, elf, exp, &stop))
            .collect()
    });
    results.into_iter().collect()
}
