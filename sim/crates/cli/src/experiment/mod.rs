//! `ubik experiment FILE.toml [-o OUT] [-j N]`: build every firmware variant the experiment
//! names, run each with every seed on the testbed in parallel, measure the runs and write the
//! data and figures (plot.rs) to `OUT` (default `out/NAME`); for a SimBed experiment
//! (simbed/: metrics.rs measures):
//!
//! - `runs.csv`: one row per run (variant, seed): cycles, time, energy, utilisation, outputs,
//!   jitter and delay summaries, deadline misses, cycles and energy per category;
//! - `variants.csv`: the same per variant, over all its seeds;
//! - `jitter.csv`, `delay.csv`: the probability distributions (bin centre in us, probability);
//! - `summary.json`: the experiment, and every variant's summary and distributions;
//! - `jitter-*.svg`, `delay-*.svg`, `energy-*.svg`: the figures (SimBed Figs. 1-3), and for
//!   the ADPCM workloads `utilisation-*.svg` (the RTM paper's Fig. 4);
//! - `build/LABEL/` (the generated application, its ELF and `build.log`), `runs/LABEL-sSEED/`
//!   (the stats, the IO record and the console output of each run).
//!
//! The file's `kind` is read once (kind.rs: the table `KINDS` of names and readers) into the
//! typed spec of its kind, which implements [`kind::ExperimentKind`], the one interface every
//! kind answers to: simbed/ (the default) and dpm/ share the file
//! format of sweep.rs, app/ and hypervisor/ have their own; every kind but the hypervisor's
//! has the header of header.rs (name, run length, seeds); fields.rs has the located readers
//! they share. Each kind's directory holds its variants, its measurement and its tables.
//!
//! The benchmark kinds share the job engine (jobs/: many firmware images built once each and
//! run in parallel, their consoles and records returned), the benchmark header
//! (bench_header.rs: `NAME.json` and `NAME/` in `out/bench`) and the choice of schedulers by
//! the policy table's properties (select.rs): threadmetric/, rhealstone/ and overhead/ (the
//! last two with their rows of OSes in osrow.rs), and testbed/ and observers/ (the testbed's
//! speed and the observers' cost: prebuilt firmware timed on the host). kernel/
//! (`kernel.json`), ipc/ (`ipc.json`) and rtm/ (`rtm.json`) measure the kernel itself from the
//! applications of `bench/kernel/`; hypervisor/ the hypervisor study.
//!
//! Every input is checked before anything is built (check.rs; `--check` stops there); a build
//! or a run that fails ends the experiment with its exit code and one line (steps.rs).
//!
//! Everything but timing on the host is deterministic: the same experiment file gives the same
//! files, byte for byte.

mod app;
mod app_system;
mod bench_header;
mod check;
mod dpm;
mod fields;
mod header;
mod hypervisor;
mod ipc;
mod jobs;
mod kernel;
mod kind;
mod measure;
mod observers;
mod osrow;
mod overhead;
mod plot;
mod rhealstone;
mod rtm;
mod select;
mod simbed;
mod steps;
mod sweep;
mod testbed;
mod threadmetric;

use crate::{code, Failure};
use clap::Args;
use confread::{read_text_file, ConfigError, Doc};
use kind::Spec;
use std::path::{Path, PathBuf};

#[derive(Args)]
pub struct ExperimentArgs {
    /// The experiment file (experiments/NAME.toml).
    pub file: PathBuf,
    /// Output directory [default: out/NAME, NAME from the file].
    #[arg(short = 'o', long = "output", value_name = "DIR")]
    pub output: Option<PathBuf>,
    /// Runs at a time [default: the number of cores].
    #[arg(short = 'j', long, value_name = "N")]
    pub jobs: Option<usize>,
    /// Check every input (the experiment file, machine files, workload and kernel sources,
    /// the cross compiler, the output directory) and stop: build and run nothing.
    #[arg(long)]
    pub check: bool,
}

fn find_root(exp_file: &Path) -> Result<PathBuf, Failure> {
    let dir = exp_file.parent().map(Path::to_path_buf).unwrap_or_default();
    let dir = std::path::absolute(if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        &dir
    })
    .unwrap_or_else(|_| PathBuf::from("."));
    crate::build::root::find_root(&dir)
}

pub fn experiment(args: ExperimentArgs) -> Result<u8, Failure> {
    if !args.file.is_file() {
        return Err(Failure::new(
            code::NO_INPUT,
            format!(
                "{}: cannot read the experiment file; expected experiments/NAME.toml",
                args.file.display()
            ),
        ));
    }
    let root = find_root(&args.file)?;
    let jobs = args
        .jobs
        .unwrap_or_else(|| {
            std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1)
        })
        .max(1);
    let located = |e: ConfigError| Failure::new(e.exit_code() as u8, e.to_string());
    let text = read_text_file(&args.file, "the experiment file").map_err(located)?;
    let shown = args.file.display().to_string();
    let src = Doc::text_only(&shown, &text);
    let spec = Spec::read(&src, &args.file, &root).map_err(located)?;
    let out = spec.output(args.output.clone());
    // Everything that can be checked without compiling is checked before anything is built.
    let plan = spec.check(&root, &out)?;
    if args.check {
        println!("{}: ok ({plan})", args.file.display());
        return Ok(0);
    }
    spec.run(&root, &out, jobs)
}
