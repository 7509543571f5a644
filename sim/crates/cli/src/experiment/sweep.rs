//! The file of the kinds that sweep a workload application's settings (`kind = "simbed"`, the
//! default, and `kind = "dpm"`): which firmware variants to build, on which machine, with
//! which seeds, for how long. Every list under `[sweep]` is one axis; the variants are their
//! product. The two kinds share the keys (one key list, so an unknown key's message names
//! them all) and the header; each makes its own variants from `[sweep]`
//! ([`SweepVariant`]: simbed/variant.rs, dpm/variant.rs).
//!
//! ```toml
//! app = "apps/simbed"            # the workload directory, relative to the repository root
//! machine = "simbed.machine.toml" # relative to this file; default: APP/machine.toml
//! run_ms = 1000                  # simulated run length of each variant (at least)
//! min_outputs = 100000           # each variant runs long enough for this many outputs
//! seeds = [1, 2]                 # one run per seed (the stimulus generators' seed)
//! jitter_bin_us = 10             # histogram bin of the jitter and delay distributions (display)
//! on_time_tolerance_pct = 1      # an output is on time within this share of its period
//! cflags = ["-DSB_OUTPUT_LATE=1"] # extra -D defines for every variant's build
//!
//! [sweep]
//! os = ["ubik", "nos"]          # or "nos-rtm": NOS with the RTM device
//! scheduler = ["prio", "rr"]     # for os = "ubik"
//! workload = ["up"]              # "ipc" | "up" | "down" | "fir" | "none"
//! tasks = [1, 2, 4, 8]
//! period_us = [8000]             # the slow job's period (apps/simbed/workloads.c)
//! ratio = [2]                    # up/down-sampling ratio
//! tick_hz = 1000                 # Ubik's tick; every Ubik job period must be a multiple
//! output = ["start"]             # where a writer job writes: "start" (a fixed point) | "end"
//! ```
//!
//! Errors name the file, line and column, what is wrong and what was expected (exit 65).

use super::fields::{defines_fit, input_file_at, int_or, is_define};
use super::header::{read_name, read_run_ms, sweep_seeds, Header};
use crate::Failure;
use confread::{ConfigError, Doc};
use serde::Deserialize;
use std::ops::Range;
use std::path::{Path, PathBuf};
use toml::Spanned;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Raw {
    /// Read by [`super::kind::Kind::of`]; here only accepted (as a string).
    #[allow(dead_code)]
    pub kind: Option<Spanned<String>>,
    pub name: Option<Spanned<String>>,
    pub app: Option<Spanned<String>>,
    pub machine: Option<Spanned<String>>,
    pub run_ms: Option<Spanned<i64>>,
    pub min_outputs: Option<Spanned<i64>>,
    pub seeds: Option<Spanned<Vec<Spanned<i64>>>>,
    pub jitter_bin_us: Option<Spanned<i64>>,
    pub on_time_tolerance_pct: Option<Spanned<f64>>,
    pub cflags: Option<Spanned<Vec<Spanned<String>>>>,
    pub sweep: Spanned<RawSweep>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawSweep {
    pub os: Option<Spanned<Vec<Spanned<String>>>>,
    pub scheduler: Option<Spanned<Vec<Spanned<String>>>>,
    pub workload: Spanned<Vec<Spanned<String>>>,
    pub tasks: Option<Spanned<Vec<Spanned<i64>>>>,
    pub period_us: Option<Spanned<Vec<Spanned<i64>>>>,
    pub ratio: Option<Spanned<Vec<Spanned<i64>>>>,
    pub tick_hz: Option<Spanned<i64>>,
    pub output: Option<Spanned<Vec<Spanned<String>>>>,
    pub policy: Option<Spanned<Vec<Spanned<String>>>>,
    pub mode: Option<Spanned<Vec<Spanned<String>>>>,
}

/// A variant of a sweeping kind: how its kind makes the variants from `[sweep]`, and what a
/// variant needs checked and built.
pub trait SweepVariant: Sized {
    /// The workload directory without `app` (relative to the repository) and the source an
    /// `app` directory must hold.
    const DEFAULT_APP: &'static str;
    const MAIN_SOURCE: &'static str;

    /// The variants `[sweep]` asks for (`exp` is read but for its variants); `seeds_span`
    /// locates the seeds for a run count that is too large.
    fn variants(
        src: &Doc,
        raw: &Raw,
        exp: &Experiment<Self>,
        seeds_span: &Range<usize>,
    ) -> Result<Vec<Self>, ConfigError>;
    /// A unique, file-name-safe label: its build and run directories' names.
    fn label(&self) -> String;
    /// The system.toml of the variant's application.
    fn system_toml(&self, exp: &Experiment<Self>) -> String;
    /// The machine file its runs use.
    fn machine_file(&self, exp: &Experiment<Self>) -> PathBuf;
    /// The kernel scheduler (or NOS) source its build compiles.
    fn kernel_source(&self, root: &Path) -> PathBuf;
}

/// A SimBed or DPM experiment: the header, the settings every variant shares, the variants.
#[derive(Clone, Debug)]
pub struct Experiment<V> {
    pub header: Header,
    /// The workload directory (absolute).
    pub app: PathBuf,
    /// The machine file (absolute).
    pub machine: PathBuf,
    pub jitter_bin_us: u32,
    /// An output whose |deviation| is at most this percentage of its period is on time.
    pub on_time_tolerance_pct: f64,
    /// Extra `-DNAME[=VALUE]` flags for every variant's build.
    pub cflags: Vec<String>,
    /// Each variant runs until its writers have made at least this many outputs in all.
    pub min_outputs: u64,
    pub variants: Vec<V>,
}

impl<V: SweepVariant> Experiment<V> {
    /// Builds every variant (steps::build_variants): the ELFs, in the variants' order.
    /// `kind_note` follows the experiment's name in the banner (" (dpm)"); the progress line
    /// pads labels to `label_width`.
    pub fn build_variants(
        &self,
        kind_note: &str,
        label_width: usize,
        root: &Path,
        exe: &Path,
        out: &Path,
        quiet: bool,
    ) -> Result<Vec<PathBuf>, Failure> {
        eprintln!(
            "ubik experiment {}{kind_note}: {} variants x {} seeds -> {}",
            self.header.name,
            self.variants.len(),
            self.header.seeds.len(),
            out.display()
        );
        let variants: Vec<(String, String)> = self
            .variants
            .iter()
            .map(|v| (v.label(), v.system_toml(self)))
            .collect();
        super::steps::build_variants(
            &self.app,
            &self.header.name,
            &variants,
            root,
            exe,
            out,
            quiet,
            label_width,
        )
    }
}

/// Reads the experiment file `path` (its text in `src`) as kind `V`; `root` is the
/// repository (apps are relative to it). The keys are checked in the file's order of
/// importance: the header and the workload first, the variants last.
pub fn read<V: SweepVariant>(
    src: &Doc,
    path: &Path,
    root: &Path,
) -> Result<Experiment<V>, ConfigError> {
    let raw: Raw = src.parse()?;
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let dir = if dir.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        dir
    };
    let name = read_name(src, path, &raw.name)?;
    let app = match &raw.app {
        Some(a) => {
            let p = root.join(a.get_ref());
            let main = V::MAIN_SOURCE;
            if !p.join(main).is_file() {
                return Err(src.err(&a.span(), format!("app {:?} has no {main}", a.get_ref()), "a workload directory relative to the repository root, like \"apps/simbed\" (or \"apps/dpm\" for kind = \"dpm\")"));
            }
            p
        }
        None => root.join(V::DEFAULT_APP),
    };
    let machine = match &raw.machine {
        Some(m) => {
            let p = dir.join(m.get_ref());
            input_file_at(src, &m.span(), &p, "the machine file")?;
            p
        }
        None => app.join("machine.toml"),
    };
    let run_ms = read_run_ms(src, &raw.run_ms, "an integer from 1 to 3600000")?;
    let min_outputs = int_or(src, &raw.min_outputs, "min_outputs", (0, 10_000_000), 0)? as u64;
    let seeds = sweep_seeds(src, &raw.seeds)?;
    let seeds_span = raw
        .seeds
        .as_ref()
        .map(|s| s.span())
        .unwrap_or_else(|| raw.sweep.span());
    let jitter_bin_us = int_or(src, &raw.jitter_bin_us, "jitter_bin_us", (1, 1_000_000), 10)?;
    let on_time_tolerance_pct = match &raw.on_time_tolerance_pct {
        None => 1.0,
        Some(x) if *x.get_ref() > 0.0 && *x.get_ref() <= 50.0 => *x.get_ref(),
        Some(x) => {
            return Err(src.err(
                &x.span(),
                format!("on_time_tolerance_pct = {} is out of range", x.get_ref()),
                "a percentage of the output period above 0 and at most 50",
            ))
        }
    };
    let mut cflags = Vec::new();
    if let Some(list) = &raw.cflags {
        for f in list.get_ref() {
            if !is_define(f.get_ref()) {
                return Err(src.err(
                    &f.span(),
                    format!("cflags entry {:?} is not a define", f.get_ref()),
                    "-DNAME or -DNAME=VALUE (letters, digits, _ and . in the value)",
                ));
            }
            cflags.push(f.get_ref().clone());
        }
        defines_fit(src, list.get_ref())?;
    }
    let mut exp = Experiment {
        header: Header {
            name,
            run_ms,
            seeds,
        },
        app,
        machine,
        jitter_bin_us,
        on_time_tolerance_pct,
        cflags,
        min_outputs,
        variants: Vec::new(),
    };
    exp.variants = V::variants(src, &raw, &exp, &seeds_span)?;
    Ok(exp)
}
