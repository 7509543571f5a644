//! The steps of an experiment: preparing a variant's application directory and `ubik build`
//! (a child process of this executable; both in jobs/build.rs, the job engine's build step,
//! and re-exported here), building a sweep's variants in turn, and a run on the testbed (in
//! this process, its measurements returned as typed values; loading and the run's files are
//! the job engine's, jobs/run.rs) -- and how a step's failure becomes the experiment's: its
//! exit code passed on (65 bad data, 66 cannot read, 69 no compiler, 74 cannot write, a
//! firmware's own 1..63, 71 machine fault, 72 a run that does not stop, 130 interrupted; 70
//! for anything else), and one line naming the variant or run and the file that holds the
//! details (`build.log`, `console.txt`).

pub(super) use super::jobs::{build_app, exit_code_of, prepare_app};
use super::jobs::{load_image, sorted_record, write_run_files};
use crate::run::{outcome_status, simulate, Observe, Simulation};
use crate::run_stats::Stats;
use crate::{code, Failure};
use machine::config::MachineConfig;
use machine::record::IoEvent;
use std::cell::RefCell;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

pub(super) fn io_fail(what: &str, p: &Path, e: impl std::fmt::Display) -> Failure {
    Failure::new(
        code::IO_ERROR,
        format!("cannot write {what} {}: {e}", p.display()),
    )
}

/// Writes every variant's sources (OUT/build/LABEL, from `variants`' labels and system.toml
/// texts), then builds each in turn (each build uses every core itself): the ELFs, in order.
/// The progress line pads labels to `label_width`.
#[allow(clippy::too_many_arguments)]
pub(super) fn build_variants(
    app: &Path,
    name: &str,
    variants: &[(String, String)],
    root: &Path,
    exe: &Path,
    out: &Path,
    quiet: bool,
    label_width: usize,
) -> Result<Vec<PathBuf>, Failure> {
    let n = variants.len();
    let dirs: Vec<PathBuf> = variants
        .iter()
        .map(|(label, _)| out.join("build").join(label))
        .collect();
    for ((_, toml), dir) in variants.iter().zip(&dirs) {
        prepare_app(app, dir, toml)?;
    }
    let mut elfs = Vec::new();
    for (i, ((label, _), dir)) in variants.iter().zip(&dirs).enumerate() {
        if !quiet {
            eprint!("\r  building {}/{n}: {label:<label_width$}", i + 1);
        }
        elfs.push(build_app(exe, root, dir, name, label)?);
    }
    if !quiet {
        eprintln!();
    }
    Ok(elfs)
}

/// One run: the firmware, its machine file and seed, where its files go, its cycle limit.
pub(super) struct RunSpec<'a> {
    pub elf: &'a Path,
    pub machine: &'a Path,
    pub seed: u64,
    pub dir: &'a Path,
    pub max_cycles: u64,
    pub run_ms: u32,
    /// "experiment NAME: run LABEL seed N", for messages.
    pub what: String,
    /// Raised by Ctrl-C: the run stops (exit 130).
    pub stop: &'a AtomicBool,
    /// Keep the power over time (the task timeline's power counter): `Ran::power`.
    pub power_over_time: bool,
}

/// What one run measured, as typed values (its files are written for the user, not re-read).
pub(super) struct Ran {
    pub stats: Stats,
    pub record: Vec<IoEvent>,
    pub console: String,
    /// With `power_over_time`: (seconds, watts) -- the average power from each time to the
    /// next (a step function), in time order. Empty otherwise.
    pub power: Vec<(f64, f64)>,
}

/// The console output of a run, kept in memory.
#[derive(Clone, Default)]
pub(super) struct Capture(Rc<RefCell<Vec<u8>>>);

impl Capture {
    pub(super) fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.borrow()).into_owned()
    }
}

impl Write for Capture {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// This executable: the experiment builds each variant with `ubik build` as its child.
pub(super) fn ubik_exe() -> Result<PathBuf, Failure> {
    std::env::current_exe().map_err(|e| {
        Failure::new(
            code::INTERNAL,
            format!("cannot find the ubik executable: {e}"),
        )
    })
}

/// The worker threads the runs go on, `jobs` of them.
pub(super) fn worker_pool(jobs: usize) -> Result<rayon::ThreadPool, Failure> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .map_err(|e| {
            Failure::new(
                code::INTERNAL,
                format!("cannot start the worker threads: {e}"),
            )
        })
}

/// A flag Ctrl-C raises: every run in progress stops at its next slice (exit 130; the
/// builds, child processes, get the signal themselves).
pub(super) fn stop_on_ctrl_c() -> Arc<AtomicBool> {
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    let _ = ctrlc::set_handler(move || flag.store(true, Ordering::Relaxed));
    stop
}

/// Runs the firmware on the testbed in this process, as `ubik run ELF --energy --stats
/// --io` would, and writes the same files into the run's directory (`stats.json`, `io.csv`,
/// `console.txt`).
pub(super) fn run_app(r: &RunSpec) -> Result<Ran, Failure> {
    std::fs::create_dir_all(r.dir).map_err(|e| io_fail("the run directory", r.dir, e))?;
    let cfg = MachineConfig::from_file(r.machine)
        .map_err(|e| Failure::new(e.exit_code() as u8, format!("{}: {e}", r.what)))?;
    let image = load_image(r.elf, &cfg, &r.what)?;
    let console = Capture::default();
    let done = simulate(Simulation {
        cfg: &cfg,
        image: &image,
        seed: r.seed,
        max_cycles: Some(r.max_cycles),
        max_time_fs: None,
        observe: if r.power_over_time {
            Observe::Timeline
        } else {
            Observe::Energy
        },
        record: true,
        itrace: None,
        console: Box::new(console.clone()),
        stop: r.stop,
        gdb: None,
        trace: None,
    });
    let text = console.text();
    let record = sorted_record(&done);
    let console_path = write_run_files(r.dir, &text, &done.stats, Some(&record))?;
    let status = outcome_status(
        r.elf,
        &done.outcome,
        &done.machine,
        &done.counts,
        Some(r.max_cycles),
    );
    let why = match status {
        Ok(0) => {
            let power = done.timeline.as_ref().map_or_else(Vec::new, |t| {
                t.counters
                    .iter()
                    .filter(|c| matches!(c.kind, observe::trace::CounterKind::Power))
                    .map(|c| (t.time_us(c.cycle) * 1e-6, c.value))
                    .collect()
            });
            return Ok(Ran {
                stats: done.stats,
                record,
                console: text,
                power,
            });
        }
        Ok(c) => Failure::new(c, format!("the firmware stopped with exit code {c}")),
        Err(f) if f.code == code::MAX_CYCLES => Failure::new(
            f.code,
            format!(
                "it did not stop within {} cycles ({}); expected the firmware to stop itself after run_ms = {} ms",
                r.max_cycles, f.message, r.run_ms
            ),
        ),
        Err(f) => f,
    };
    Err(Failure::new(
        why.code,
        format!(
            "{}: {}; its console output is in {}",
            r.what,
            why.message,
            console_path.display()
        ),
    ))
}
