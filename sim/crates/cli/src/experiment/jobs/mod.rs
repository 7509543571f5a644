//! The job engine: many firmware jobs built and run in parallel, for the kinds that measure
//! many images at once (the benchmark kinds). A kind makes a list of [`Job`]s and hands it to
//! [`Engine::run`], which returns one [`JobResult`] per job, in the jobs' order:
//!
//! ```ignore
//! let engine = Engine::new(&header.name, root, &header.work(&out), jobs)?;
//! let job = Job {
//!     label: "basic-ubik-prio".into(),            // letters, digits, '-', '_', '.'
//!     source: Source {
//!         files: vec![root.join("bench/threadmetric/tm_ubik.c")],
//!         generated: vec![("tm_config.h".into(), "#define TM_SCENARIO 1\n".into())],
//!         build: BuildWith::Ubik { system_toml: "[kernel]\nscheduler = \"prio\"\n".into() },
//!     },
//!     run: RunOpts { max_cycles: 4_000_000_000, ..RunOpts::default() },
//! };
//! let results = engine.run(&[job])?;                // results[0].console, .exit, .stats
//! ```
//!
//! - **Build** ([`Source`]): the job's application directory `WORK/build/LABEL/` holds
//!   exactly its `files` (copied under their own names) and its `generated` files (name,
//!   text); it is built with `ubik build` and the job's `system.toml` text
//!   ([`BuildWith::Ubik`]), or by an external command ([`BuildWith::Command`]: `PROGRAM
//!   ARGS... DIR DIR/build/app.elf` with extra environment, e.g. `bench/freertos/build.sh`).
//!   Jobs whose sources are equal are built once, in the directory of the first of them. The
//!   builds go one after another (each uses every core itself); their messages are kept in
//!   `build.log` beside them.
//! - **Run** ([`RunOpts`]): each job runs in this process on its machine (built-in, a file
//!   or inline TOML), with its seed and cycle limit, `jobs` at a time; energy is measured
//!   when asked (`energy`), and the IO record kept when asked (`record`: `JobResult::record`
//!   in cycle order, and `io.csv`). Its files go to `WORK/runs/LABEL/` (`console.txt`,
//!   `stats.json`, `io.csv`).
//! - **Progress** goes to stderr when it is a terminal ("building i/n: LABEL", then a bar
//!   over the runs), as the other kinds show it.
//! - **Failure**: the first job (in the jobs' order) whose build or run failed ends the
//!   experiment with one line naming the job and its `build.log` or `console.txt`, and the
//!   exit code steps.rs assigns (a firmware's own 1..63, 65, 66, 69, 71, 72, 74, 130; 70 for
//!   anything else). A firmware's exit code other than `RunOpts::expect_exit` is a failure
//!   (`expect_exit = None` takes any: `JobResult::exit` has it). Ctrl-C stops the builds and
//!   every run (130).

// The engine serves every benchmark kind: no kind uses all of it.
#![allow(dead_code)]

mod build;
mod run;

pub(super) use build::{build_app, exit_code_of, prepare_app};
pub(super) use run::{load_image, sorted_record, write_run_files};

use super::steps::{stop_on_ctrl_c, ubik_exe, worker_pool};
use crate::run_stats::Stats;
use crate::{code, Failure};
use machine::record::IoEvent;
use rayon::prelude::*;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;

/// One firmware job: how to build it and how to run it.
#[derive(Clone, Debug)]
pub struct Job {
    /// Names its directories (`build/LABEL`, `runs/LABEL`) and its messages: letters,
    /// digits, '-', '_' and '.', unique among the jobs.
    pub label: String,
    pub source: Source,
    pub run: RunOpts,
}

/// An application directory's contents and how it is built. Two equal sources are one build.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Source {
    /// Files copied into the directory under their own names.
    pub files: Vec<PathBuf>,
    /// Files written into it: (name, text).
    pub generated: Vec<(String, String)>,
    pub build: BuildWith,
}

/// How a job's application directory becomes `DIR/build/app.elf`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum BuildWith {
    /// `ubik build DIR`, with this text as `DIR/system.toml`.
    Ubik { system_toml: String },
    /// `PROGRAM ARGS... DIR DIR/build/app.elf`, with `env` added to the environment.
    Command {
        program: PathBuf,
        args: Vec<String>,
        env: Vec<(String, String)>,
    },
}

/// The machine a job runs on.
#[derive(Clone, Debug, Default)]
pub enum MachineSrc {
    /// The built-in machine (`ubik run` without `--machine`).
    #[default]
    Default,
    /// A machine file.
    File(PathBuf),
    /// A machine file's text; `name` names it in messages (and relative stream files are
    /// relative to its directory).
    Inline { name: String, text: String },
}

/// How a job runs.
#[derive(Clone, Debug)]
pub struct RunOpts {
    pub machine: MachineSrc,
    /// The cycle limit: a run that has not halted by then fails (72).
    pub max_cycles: u64,
    /// The stimulus generators' seed.
    pub seed: u64,
    /// Keep the IO record (`JobResult::record`, `io.csv`).
    pub record: bool,
    /// Measure energy (`stats.json`'s energy figures); off, the testbed runs at its bare speed.
    pub energy: bool,
    /// The firmware's exit code a run must end with; `None`: any.
    pub expect_exit: Option<u8>,
}

impl Default for RunOpts {
    /// The built-in machine, 4e9 cycles, seed 1, no IO record, no energy, exit 0.
    fn default() -> RunOpts {
        RunOpts {
            machine: MachineSrc::Default,
            max_cycles: 4_000_000_000,
            seed: 1,
            record: false,
            energy: false,
            expect_exit: Some(0),
        }
    }
}

/// What one job's run gave.
#[derive(Debug)]
pub struct JobResult {
    /// Its console output.
    pub console: String,
    /// The firmware's exit code.
    pub exit: u8,
    /// Cycles simulated.
    pub cycles: u64,
    /// What `ubik run --stats` writes.
    pub stats: Stats,
    /// The IO record in cycle order, with `RunOpts::record` (else empty).
    pub record: Vec<IoEvent>,
}

/// Builds and runs jobs for one experiment.
pub struct Engine {
    /// The experiment's name, for messages.
    pub name: String,
    pub root: PathBuf,
    /// Where `build/` and `runs/` go.
    pub work: PathBuf,
    /// Runs at a time.
    pub jobs: usize,
    /// No progress lines (stderr is not a terminal).
    pub quiet: bool,
    exe: PathBuf,
}

impl Engine {
    /// An engine for experiment `name` (the repository `root`) keeping its builds and runs in
    /// `work` (made), running `jobs` at a time.
    pub fn new(name: &str, root: &Path, work: &Path, jobs: usize) -> Result<Engine, Failure> {
        std::fs::create_dir_all(work)
            .map_err(|e| super::steps::io_fail("the output directory", work, e))?;
        Ok(Engine {
            name: name.to_string(),
            root: root.to_path_buf(),
            work: work.to_path_buf(),
            jobs: jobs.max(1),
            quiet: !std::io::IsTerminal::is_terminal(&std::io::stderr()),
            exe: ubik_exe()?,
        })
    }

    /// Builds every distinct source once, then runs every job (`jobs` at a time): the
    /// results in the jobs' order, or the first failure.
    pub fn run(&self, jobs: &[Job]) -> Result<Vec<JobResult>, Failure> {
        check_labels(jobs)?;
        let stop = stop_on_ctrl_c();
        let elfs = self.build_all(jobs, &stop)?;
        let bar = if self.quiet {
            indicatif::ProgressBar::hidden()
        } else {
            indicatif::ProgressBar::new(jobs.len() as u64)
        };
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "  running {bar:40} {pos}/{len} {elapsed_precise} (eta {eta})",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        let pool = worker_pool(self.jobs)?;
        let results: Vec<Result<JobResult, Failure>> = pool.install(|| {
            jobs.par_iter()
                .zip(elfs.par_iter())
                .map(|(j, elf)| {
                    let dir = self.work.join("runs").join(&j.label);
                    let r = run::run_job(elf, &j.run, &dir, &self.what(j), &stop);
                    bar.inc(1);
                    r
                })
                .collect()
        });
        bar.finish_and_clear();
        results.into_iter().collect()
    }

    /// "experiment NAME: job LABEL".
    fn what(&self, j: &Job) -> String {
        format!("experiment {}: job {}", self.name, j.label)
    }

    /// Stages and builds each distinct source once: every job's ELF, in the jobs' order.
    fn build_all(
        &self,
        jobs: &[Job],
        stop: &std::sync::atomic::AtomicBool,
    ) -> Result<Vec<PathBuf>, Failure> {
        let mut first: HashMap<&Source, usize> = HashMap::new();
        let mut unique = Vec::new();
        for (i, j) in jobs.iter().enumerate() {
            first.entry(&j.source).or_insert_with(|| {
                unique.push(i);
                i
            });
        }
        let mut built: HashMap<usize, PathBuf> = HashMap::new();
        for (n, &i) in unique.iter().enumerate() {
            if stop.load(Ordering::Relaxed) {
                return Err(Failure::new(code::INTERRUPTED, "interrupted"));
            }
            let j = &jobs[i];
            if !self.quiet {
                eprint!("\r\x1b[K  building {}/{}: {}", n + 1, unique.len(), j.label);
            }
            built.insert(i, self.build(j)?);
        }
        if !self.quiet && !unique.is_empty() {
            eprintln!();
        }
        Ok(jobs
            .iter()
            .map(|j| built[&first[&j.source]].clone())
            .collect())
    }

    /// Stages job `j`'s directory and builds it: its ELF.
    fn build(&self, j: &Job) -> Result<PathBuf, Failure> {
        let dir = self.work.join("build").join(&j.label);
        let s = &j.source;
        build::stage(&dir, &s.files, &s.generated)?;
        let what = format!("job {}", j.label);
        match &s.build {
            BuildWith::Ubik { system_toml } => {
                let st = dir.join("system.toml");
                build::write_if_changed(&st, system_toml.as_bytes())
                    .map_err(|e| super::steps::io_fail("system.toml", &st, e))?;
                build::ubik_build(&self.exe, &self.root, &dir, &self.name, &what)
            }
            BuildWith::Command { program, args, env } => {
                build::command_build((program, args, env), &self.root, &dir, &self.name, &what)
            }
        }
    }
}

/// Every label a directory name, each once (a kind's bug otherwise: 70).
fn check_labels(jobs: &[Job]) -> Result<(), Failure> {
    let mut seen = std::collections::HashSet::new();
    for j in jobs {
        let plain = !j.label.is_empty()
            && !j.label.starts_with('.')
            && j.label
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
        if !plain || !seen.insert(j.label.as_str()) {
            return Err(Failure::new(
                code::INTERNAL,
                format!("job label {:?} is not a unique directory name", j.label),
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
