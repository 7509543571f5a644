//! An experiment file's kind (`kind = "..."`), read once, and the one interface every kind
//! answers to, [`ExperimentKind`]: the file read into its kind's typed spec (its header, its
//! variants) checks every input before anything is built and then builds, runs, measures and
//! writes its own tables and figures. Adding a kind is a module of its own (its spec type
//! implementing [`ExperimentKind`]) and one line in [`KINDS`].

use super::simbed::Variant;
use super::steps::{io_fail, ubik_exe};
use super::sweep::{self, Experiment};
use super::{
    app, dpm, hypervisor, ipc, kernel, observers, overhead, rhealstone, rtm, testbed, threadmetric,
};
use crate::Failure;
use confread::{quoted_list, ConfigError, Doc};
use dpm::DpmVariant;
use serde::Deserialize;
use std::any::Any;
use std::path::{Path, PathBuf};
use toml::Spanned;

/// What every experiment kind supplies: its spec (read by its [`Reader`]), where it writes,
/// what it checks before building, and its run (variants, measurement, tables and figures).
pub trait ExperimentKind: Any {
    /// The output directory: `-o DIR` (`given`) or the kind's default: a benchmark kind's
    /// (the hypervisor experiment's too) is `out/bench`, where it writes `NAME.json` (`make
    /// bench`'s file), and that is the default here; SimBed, DPM and app use `out/NAME`.
    fn output(&self, given: Option<PathBuf>) -> PathBuf {
        given.unwrap_or_else(|| PathBuf::from(super::bench_header::DEFAULT_OUT))
    }

    /// Checks everything that can be checked without building (the machine files, sources,
    /// the cross compiler, the output directory `out`); returns what the experiment will do,
    /// for `--check`'s line.
    fn check(&self, root: &Path, out: &Path) -> Result<String, Failure>;

    /// Builds, runs and measures every variant into `out` and writes the data, figures and
    /// tables (`jobs` runs at a time); the experiment's exit code.
    fn run(&self, root: &Path, out: &Path, jobs: usize) -> Result<u8, Failure>;
}

/// A kind's reader: the file (its text, its path, the repository root, against which
/// applications are relative) read into the kind's spec.
pub type Reader = fn(&Doc, &Path, &Path) -> Result<Box<dyn ExperimentKind>, ConfigError>;

/// Boxes a reader's typed spec.
fn boxed<T: ExperimentKind>(
    r: Result<T, ConfigError>,
) -> Result<Box<dyn ExperimentKind>, ConfigError> {
    r.map(|s| Box::new(s) as Box<dyn ExperimentKind>)
}

/// The experiment kinds `kind` takes, each with its reader; SimBed (the first) is the default.
pub const KINDS: [(&str, Reader); 12] = [
    ("simbed", |s, p, r| boxed(sweep::read::<Variant>(s, p, r))),
    ("dpm", |s, p, r| boxed(sweep::read::<DpmVariant>(s, p, r))),
    ("app", |s, p, r| boxed(app::parse(s, p, r))),
    ("hypervisor", |s, p, r| boxed(hypervisor::read(s, p, r))),
    ("threadmetric", |s, p, _| boxed(threadmetric::parse(s, p))),
    ("kernel", |s, p, r| boxed(kernel::parse(s, p, r))),
    ("ipc", |s, p, r| boxed(ipc::parse(s, p, r))),
    ("rtm", |s, p, r| boxed(rtm::parse(s, p, r))),
    ("overhead", |s, p, _| boxed(overhead::parse(s, p))),
    ("rhealstone", |s, p, _| boxed(rhealstone::parse(s, p))),
    ("testbed", |s, p, r| boxed(testbed::parse(s, p, r))),
    ("observe", |s, p, r| boxed(observers::parse(s, p, r))),
];

/// The reader of the kind the file declares. A `kind` that names no kind is the file's error,
/// whatever else is wrong in it. A file that is not TOML, or whose `kind` is not a string, is
/// read as SimBed (the default), whose reader then reports what is wrong with its keys.
fn reader_of(src: &Doc) -> Result<Reader, ConfigError> {
    #[derive(Deserialize)]
    struct RawKind {
        kind: Option<Spanned<String>>,
    }
    match toml::from_str::<RawKind>(src.text()) {
        Ok(RawKind { kind: Some(k) }) => KINDS
            .iter()
            .find(|(name, _)| name == k.get_ref())
            .map(|&(_, read)| read)
            .ok_or_else(|| unknown_kind(src, &k)),
        Ok(RawKind { kind: None }) | Err(_) => Ok(KINDS[0].1),
    }
}

/// The error for a `kind` that is not one of [`KINDS`].
fn unknown_kind(src: &Doc, k: &Spanned<String>) -> ConfigError {
    let names: Vec<&str> = KINDS.iter().map(|&(name, _)| name).collect();
    src.err(
        &k.span(),
        format!("kind {:?} is not an experiment kind", k.get_ref()),
        format!("one of {}", quoted_list(&names)),
    )
}

/// An experiment file, read into the typed spec of its kind.
pub struct Spec(Box<dyn ExperimentKind>);

impl Spec {
    /// Reads the file `path` (its text in `src`): its kind, then its kind's keys. `root` is the
    /// repository (applications are relative to it).
    pub fn read(src: &Doc, path: &Path, root: &Path) -> Result<Spec, ConfigError> {
        reader_of(src)?(src, path, root).map(Spec)
    }

    /// The kind's own spec, when it is a `T`.
    #[cfg(test)]
    pub fn downcast<T: ExperimentKind>(self) -> Option<T> {
        let any: Box<dyn Any> = self.0;
        any.downcast::<T>().ok().map(|b| *b)
    }
}

impl std::ops::Deref for Spec {
    type Target = dyn ExperimentKind;
    fn deref(&self) -> &Self::Target {
        &*self.0
    }
}

/// Makes the output directory of a kind that builds with this program: its path, and
/// whether to keep quiet about progress (stderr is not a terminal).
pub(super) fn start(out: &Path) -> Result<(PathBuf, bool), Failure> {
    std::fs::create_dir_all(out).map_err(|e| io_fail("the output directory", out, e))?;
    let exe = ubik_exe()?;
    Ok((exe, !std::io::IsTerminal::is_terminal(&std::io::stderr())))
}

/// The `--check` line of a sweep: its variants and seeds, and where it writes.
pub(super) fn plan<V>(e: &Experiment<V>, out: &Path) -> String {
    format!(
        "{} variants x {} seeds -> {}",
        e.variants.len(),
        e.header.seeds.len(),
        out.display()
    )
}
