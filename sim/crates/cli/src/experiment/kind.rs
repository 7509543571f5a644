//! An experiment file's kind (`kind = "..."`), read once, and the one interface every kind
//! answers to: [`Spec`] is the file read into its kind's typed spec (its header, its
//! variants), which checks every input before anything is built and then builds, runs,
//! measures and writes its own tables and figures. Adding a kind is a module of its own and
//! one arm in each match below.

use super::header::Header;
use super::simbed::Variant;
use super::steps::{io_fail, ubik_exe};
use super::sweep::Experiment;
use super::{
    app, check, dpm, hypervisor, ipc, kernel, observers, overhead, rhealstone, rtm, simbed, sweep,
    testbed, threadmetric,
};
use crate::Failure;
use confread::{quoted_list, ConfigError, Doc};
use dpm::DpmVariant;
use serde::Deserialize;
use std::path::{Path, PathBuf};
use toml::Spanned;

/// The experiment kinds `kind` takes, in the order of [`Kind::ALL`].
pub const KINDS: [&str; 12] = [
    "simbed",
    "dpm",
    "app",
    "hypervisor",
    "threadmetric",
    "kernel",
    "ipc",
    "rtm",
    "overhead",
    "rhealstone",
    "testbed",
    "observe",
];

/// An experiment's kind (`kind` in its file; SimBed without the key).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Simbed,
    Dpm,
    App,
    Hypervisor,
    Threadmetric,
    Kernel,
    Ipc,
    Rtm,
    Overhead,
    Rhealstone,
    Testbed,
    Observe,
}

impl Kind {
    /// Every kind, in the order of [`KINDS`].
    pub const ALL: [Kind; 12] = [
        Kind::Simbed,
        Kind::Dpm,
        Kind::App,
        Kind::Hypervisor,
        Kind::Threadmetric,
        Kind::Kernel,
        Kind::Ipc,
        Kind::Rtm,
        Kind::Overhead,
        Kind::Rhealstone,
        Kind::Testbed,
        Kind::Observe,
    ];

    /// Its name in the file.
    pub fn name(self) -> &'static str {
        KINDS[self as usize]
    }

    /// The kind called `name`.
    pub fn from_name(name: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// The kind the file declares. A `kind` that names no kind is the file's error, whatever
    /// else is wrong in it. A file that is not TOML, or whose `kind` is not a string, is read
    /// as SimBed (the default), whose reader then reports what is wrong with its keys.
    pub fn of(src: &Doc) -> Result<Kind, ConfigError> {
        #[derive(Deserialize)]
        struct RawKind {
            kind: Option<Spanned<String>>,
        }
        match toml::from_str::<RawKind>(src.text()) {
            Ok(RawKind { kind: Some(k) }) => {
                Kind::from_name(k.get_ref()).ok_or_else(|| unknown_kind(src, &k))
            }
            Ok(RawKind { kind: None }) | Err(_) => Ok(Kind::Simbed),
        }
    }
}

/// The error for a `kind` that is not one of [`Kind::ALL`].
fn unknown_kind(src: &Doc, k: &Spanned<String>) -> ConfigError {
    src.err(
        &k.span(),
        format!("kind {:?} is not an experiment kind", k.get_ref()),
        format!("one of {}", quoted_list(&KINDS)),
    )
}

/// An experiment file, read into the typed spec of its kind.
pub enum Spec {
    Simbed(Experiment<Variant>),
    Dpm(Experiment<DpmVariant>),
    App(app::AppExperiment),
    Hypervisor(hypervisor::HypervisorSpec),
    Threadmetric(threadmetric::ThreadMetric),
    Kernel(kernel::KernelBench),
    Ipc(ipc::IpcBench),
    Rtm(rtm::RtmBench),
    Overhead(overhead::Overhead),
    Rhealstone(rhealstone::Rhealstone),
    Testbed(testbed::Testbed),
    Observe(observers::ObserveCost),
}

impl Spec {
    /// Reads the file `path` (its text in `src`): its kind, then its kind's keys. `root` is the
    /// repository (applications are relative to it).
    pub fn read(src: &Doc, path: &Path, root: &Path) -> Result<Spec, ConfigError> {
        Ok(match Kind::of(src)? {
            Kind::Simbed => Spec::Simbed(sweep::read(src, path, root)?),
            Kind::Dpm => Spec::Dpm(sweep::read(src, path, root)?),
            Kind::App => Spec::App(app::parse(src, path, root)?),
            Kind::Hypervisor => Spec::Hypervisor(hypervisor::read(src, path, root)?),
            Kind::Threadmetric => Spec::Threadmetric(threadmetric::parse(src, path)?),
            Kind::Kernel => Spec::Kernel(kernel::parse(src, path, root)?),
            Kind::Ipc => Spec::Ipc(ipc::parse(src, path, root)?),
            Kind::Rtm => Spec::Rtm(rtm::parse(src, path, root)?),
            Kind::Overhead => Spec::Overhead(overhead::parse(src, path)?),
            Kind::Rhealstone => Spec::Rhealstone(rhealstone::parse(src, path)?),
            Kind::Testbed => Spec::Testbed(testbed::parse(src, path, root)?),
            Kind::Observe => Spec::Observe(observers::parse(src, path, root)?),
        })
    }

    /// The header, for the kinds that have one (the hypervisor experiment has none; the
    /// benchmark kinds have the benchmark header, bench_header.rs).
    pub fn header(&self) -> Option<&Header> {
        match self {
            Spec::Simbed(e) => Some(&e.header),
            Spec::Dpm(e) => Some(&e.header),
            Spec::App(e) => Some(&e.header),
            Spec::Hypervisor(_)
            | Spec::Threadmetric(_)
            | Spec::Kernel(_)
            | Spec::Ipc(_)
            | Spec::Rtm(_)
            | Spec::Overhead(_)
            | Spec::Rhealstone(_)
            | Spec::Testbed(_)
            | Spec::Observe(_) => None,
        }
    }

    /// The output directory: `-o DIR` or `out/NAME`; a benchmark kind's (the hypervisor
    /// experiment's too) is `-o DIR` or `out/bench`, where it writes `NAME.json` (`make
    /// bench`'s file).
    pub fn output(&self, given: Option<PathBuf>) -> PathBuf {
        match (self, self.header()) {
            (Spec::Threadmetric(t), _) => t.header.output(given),
            (Spec::Hypervisor(e), _) => e.header.output(given),
            (Spec::Kernel(k), _) => k.header.output(given),
            (Spec::Ipc(b), _) => b.header.output(given),
            (Spec::Rtm(b), _) => b.header.output(given),
            (Spec::Overhead(e), _) => e.header.output(given),
            (Spec::Rhealstone(e), _) => e.header.output(given),
            (Spec::Testbed(e), _) => e.header.output(given),
            (Spec::Observe(e), _) => e.header.output(given),
            (_, Some(h)) => h.output(given),
            (_, None) => given.unwrap_or_else(|| PathBuf::from("out")),
        }
    }

    /// Checks everything that can be checked without building (the machine files, sources,
    /// the cross compiler, the output directory `out`); returns what the experiment will do,
    /// for `--check`'s line.
    pub fn check(&self, root: &Path, out: &Path) -> Result<String, Failure> {
        let plan =
            |n: usize, seeds: usize| format!("{n} variants x {seeds} seeds -> {}", out.display());
        match self {
            Spec::Simbed(e) => {
                check::check_inputs(e, root, out)?;
                Ok(plan(e.variants.len(), e.header.seeds.len()))
            }
            Spec::Dpm(e) => {
                check::check_inputs(e, root, out)?;
                Ok(plan(e.variants.len(), e.header.seeds.len()))
            }
            Spec::App(e) => app::check(e, out),
            Spec::Hypervisor(e) => Ok(hypervisor::check(e, out)),
            Spec::Threadmetric(t) => threadmetric::check(t, out),
            Spec::Kernel(k) => kernel::check(k, out),
            Spec::Ipc(b) => ipc::check(b, out),
            Spec::Rtm(b) => rtm::check(b, out),
            Spec::Overhead(e) => Ok(overhead::check(e, out)),
            Spec::Rhealstone(e) => Ok(rhealstone::check(e, out)),
            Spec::Testbed(e) => Ok(format!("2 runs -> {}", e.header.json(out).display())),
            Spec::Observe(e) => Ok(format!(
                "{} runs -> {}",
                3 * e.rounds,
                e.header.json(out).display()
            )),
        }
    }

    /// Builds, runs and measures every variant into `out` and writes the data, figures and
    /// tables (`jobs` runs at a time); the experiment's exit code. (`_file`, the experiment
    /// file, is read already.)
    pub fn run(&self, _file: &Path, root: &Path, out: &Path, jobs: usize) -> Result<u8, Failure> {
        match self {
            Spec::Simbed(e) => {
                let (exe, quiet) = start(out)?;
                simbed::run(e, root, &exe, out, jobs, quiet)
            }
            Spec::Dpm(e) => {
                let (exe, quiet) = start(out)?;
                dpm::run(e, root, &exe, out, jobs, quiet)
            }
            Spec::App(e) => {
                let (exe, _) = start(out)?;
                app::run(e, root, &exe, out, jobs)
            }
            Spec::Hypervisor(e) => hypervisor::run(e, root, out, jobs),
            Spec::Threadmetric(t) => threadmetric::run(t, root, out, jobs),
            Spec::Kernel(k) => kernel::run(k, root, out, jobs),
            Spec::Ipc(b) => ipc::run(b, root, out, jobs),
            Spec::Rtm(b) => rtm::run(b, root, out, jobs),
            Spec::Overhead(e) => overhead::run(e, root, out, jobs),
            Spec::Rhealstone(e) => rhealstone::run(e, root, out, jobs),
            Spec::Testbed(e) => testbed::run(e, out),
            Spec::Observe(e) => observers::run(e, out),
        }
    }
}

/// Makes the output directory of a kind that builds with this program: its path, and
/// whether to keep quiet about progress (stderr is not a terminal).
fn start(out: &Path) -> Result<(PathBuf, bool), Failure> {
    std::fs::create_dir_all(out).map_err(|e| io_fail("the output directory", out, e))?;
    let exe = ubik_exe()?;
    Ok((exe, !std::io::IsTerminal::is_terminal(&std::io::stderr())))
}
