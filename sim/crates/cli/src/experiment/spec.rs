//! The experiment file (`experiments/NAME.toml`): which firmware variants to build, on which
//! machine, with which seeds, for how long. Every list under `[sweep]` is one axis; the
//! variants are their product (the scheduler axis applies to the Ubik kernel only).
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

use machine::config::{invalid_at, read_text_file, toml_error, ConfigError};
use serde::Deserialize;
use sysdesc::PowerPolicy;
use std::path::{Path, PathBuf};
use toml::Spanned;

/// Can `s` name an experiment's output directory (letters, digits, '-' and '_')?
pub(super) fn is_dir_name(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// The experiment kinds `kind` takes (each file of another kind is read by its own module).
pub const KINDS: [&str; 4] = ["simbed", "dpm", "app", "hypervisor"];

/// An experiment's kind (`kind` in its file), each read and run by its own module: SimBed
/// (the default) and DPM by this one, `app` by app.rs, `hypervisor` by hypervisor.rs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Simbed,
    Dpm,
    App,
    Hypervisor,
}

impl Kind {
    /// Every kind, in the order of [`KINDS`].
    pub const ALL: [Kind; 4] = [Kind::Simbed, Kind::Dpm, Kind::App, Kind::Hypervisor];

    /// Its name in the file.
    pub fn name(self) -> &'static str {
        KINDS[self as usize]
    }

    /// The kind called `name`.
    pub fn from_name(name: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// The kind a file declares, read once to choose the module that reads the file: SimBed
    /// when the file cannot be read, is not TOML, or has no `kind` naming a kind (this
    /// module's reader then reports what is wrong).
    pub fn of_file(file: &Path) -> Kind {
        std::fs::read_to_string(file)
            .ok()
            .and_then(|t| t.parse::<toml::Table>().ok())
            .and_then(|t| {
                t.get("kind")
                    .and_then(|k| k.as_str())
                    .and_then(Kind::from_name)
            })
            .unwrap_or(Kind::Simbed)
    }
}

/// The most builds (variants) one experiment may ask for: each is a compile and link of its
/// own, seconds each, so more is a mistake in the file, not a study.
pub(super) const MAX_BUILDS: u128 = 10_000;
/// The most runs (builds x machines x seeds) one experiment may ask for.
pub(super) const MAX_RUNS: u128 = 100_000;

/// The name of an experiment without a `name` key: its file's stem, which becomes the output
/// directory `out/STEM` (and the builds' and runs' messages), so it must be a plain directory
/// name -- `..`, `.` or a hidden name would put the output somewhere else.
pub(super) fn name_from_stem(path: &Path, shown: &str, text: &str) -> Result<String, ConfigError> {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let plain = !stem.is_empty()
        && !stem.starts_with('.')
        && stem
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if plain {
        Ok(stem)
    } else {
        Err(invalid_at(
            shown,
            text,
            &(0..0),
            format!("the experiment has no `name`, and its file name's stem {stem:?} is not a plain directory name for its output"),
            "name = \"NAME\" (letters, digits, '-' and '_'), or a file named NAME.toml with NAME of letters, digits, '-', '_' and '.', not starting with '.'",
        ))
    }
}

/// An input file named at `span` of an experiment file (a machine file): it must be a
/// regular file that can be opened, else the contract's 66 at that line.
pub(super) fn input_file_at(
    shown: &str,
    text: &str,
    span: &std::ops::Range<usize>,
    p: &Path,
    what: &str,
) -> Result<(), ConfigError> {
    let reason = match std::fs::metadata(p) {
        Ok(m) if m.is_file() => match std::fs::File::open(p) {
            Ok(_) => return Ok(()),
            Err(e) => io_reason(&e),
        },
        Ok(m) if m.is_dir() => "it is a directory".to_string(),
        Ok(_) => "it is not a regular file (a device, a pipe or a socket)".to_string(),
        Err(e) => io_reason(&e),
    };
    Err(ConfigError::Io {
        path: p.to_path_buf(),
        at: invalid_at(shown, text, span, "", "").location().cloned(),
        what: what.to_string(),
        reason,
    })
}

fn io_reason(e: &std::io::Error) -> String {
    let s = e.to_string();
    s.split(" (os error").next().unwrap_or(&s).to_string()
}

/// The longest define (`-DNAME=VALUE`) an experiment may give a build, and the most bytes of
/// defines in all one build may get from it: more would not fit on the compiler's command
/// line (Linux takes 128 KiB in one argument, about 2 MB in all) and could only fail as a
/// compiler that cannot be started.
pub(super) const MAX_DEFINE_BYTES: usize = 4096;
pub(super) const MAX_DEFINES_BYTES: usize = 65536;

/// Checks one build's defines against [`MAX_DEFINE_BYTES`] and [`MAX_DEFINES_BYTES`].
pub(super) fn defines_fit(
    shown: &str,
    text: &str,
    defines: &[Spanned<String>],
) -> Result<(), ConfigError> {
    let mut total = 0;
    for f in defines {
        let n = f.get_ref().len();
        total += n + 1;
        if n > MAX_DEFINE_BYTES {
            return Err(invalid_at(
                shown,
                text,
                &f.span(),
                format!("a define of {n} bytes"),
                format!("at most {MAX_DEFINE_BYTES} bytes in one define"),
            ));
        }
        if total > MAX_DEFINES_BYTES {
            return Err(invalid_at(
                shown,
                text,
                &f.span(),
                format!("the defines reach {total} bytes here"),
                format!("at most {MAX_DEFINES_BYTES} bytes of defines for one build"),
            ));
        }
    }
    Ok(())
}

/// Refuses an experiment bigger than [`MAX_BUILDS`] builds or [`MAX_RUNS`] runs, counted
/// from its axes' lengths before any variant is made: `builds` is how the axes multiply (for
/// the message), `n_builds` and `n_runs` the counts (in u128: no axis product overflows).
#[allow(clippy::too_many_arguments)]
pub(super) fn check_size(
    shown: &str,
    text: &str,
    builds_span: &std::ops::Range<usize>,
    runs_span: &std::ops::Range<usize>,
    builds: &str,
    n_builds: u128,
    runs: &str,
    n_runs: u128,
) -> Result<(), ConfigError> {
    if n_builds > MAX_BUILDS {
        return Err(invalid_at(
            shown,
            text,
            builds_span,
            format!("the axes give {builds} = {n_builds} builds"),
            format!("at most {MAX_BUILDS} builds in one experiment (fewer axis values)"),
        ));
    }
    if n_runs > MAX_RUNS {
        return Err(invalid_at(
            shown,
            text,
            runs_span,
            format!("{runs} = {n_runs} runs"),
            format!("at most {MAX_RUNS} runs in one experiment (fewer seeds or axis values)"),
        ));
    }
    Ok(())
}

/// The SimBed workloads `[sweep] workload` takes: the names apps/simbed/workloads.c knows
/// (its `SB_WL_<name>`); the build passes the name itself (`-DSB_WORKLOAD=up`), so this order
/// is only the one of the error message.
pub const WORKLOADS: [&str; 7] = ["none", "ipc", "up", "down", "fir", "adpcm_enc", "adpcm_dec"];
pub const DPM_WORKLOADS: [&str; 2] = ["audio", "game"];

/// The DPM policies `[sweep] policy` takes: the kernel's power policies (ubik/power.h) as the
/// system description knows them, by name, in their order.
pub fn power_policies() -> Vec<&'static str> {
    PowerPolicy::ALL.map(PowerPolicy::name).to_vec()
}
pub const MODES: [&str; 2] = ["dvfs", "freq"];
/// "nos-rtm": NOS with its release times and job selection in the RTM device (nos.h, NOS_RTM).
pub const OSES: [&str; 3] = ["ubik", "nos", "nos-rtm"];

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    kind: Option<Spanned<String>>,
    name: Option<Spanned<String>>,
    app: Option<Spanned<String>>,
    machine: Option<Spanned<String>>,
    run_ms: Option<Spanned<i64>>,
    min_outputs: Option<Spanned<i64>>,
    seeds: Option<Spanned<Vec<Spanned<i64>>>>,
    jitter_bin_us: Option<Spanned<i64>>,
    on_time_tolerance_pct: Option<Spanned<f64>>,
    cflags: Option<Spanned<Vec<Spanned<String>>>>,
    sweep: Spanned<RawSweep>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSweep {
    os: Option<Spanned<Vec<Spanned<String>>>>,
    scheduler: Option<Spanned<Vec<Spanned<String>>>>,
    workload: Spanned<Vec<Spanned<String>>>,
    tasks: Option<Spanned<Vec<Spanned<i64>>>>,
    period_us: Option<Spanned<Vec<Spanned<i64>>>>,
    ratio: Option<Spanned<Vec<Spanned<i64>>>>,
    tick_hz: Option<Spanned<i64>>,
    output: Option<Spanned<Vec<Spanned<String>>>>,
    policy: Option<Spanned<Vec<Spanned<String>>>>,
    mode: Option<Spanned<Vec<Spanned<String>>>>,
}

/// A variant of a DPM experiment (`kind = "dpm"`): the workload of apps/dpm under one power
/// policy, on the machine file of one scaling mode (APP/WORKLOAD-MODE.machine.toml).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DpmVariant {
    pub workload: String,
    pub policy: String,
    pub mode: String,
}

impl DpmVariant {
    pub fn label(&self) -> String {
        format!("{}-{}-{}", self.workload, self.mode, self.policy)
    }
    /// `uk_power_policy_t`'s value of the policy (`-DDPM_POLICY`).
    pub fn policy_number(&self) -> u32 {
        PowerPolicy::ALL
            .into_iter()
            .find(|p| p.name() == self.policy)
            .map_or(0, PowerPolicy::value)
    }
    pub fn app_number(&self) -> usize {
        DPM_WORKLOADS
            .iter()
            .position(|w| *w == self.workload)
            .unwrap_or(0)
            + 1
    }
}

/// One firmware variant: everything that changes the ELF.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variant {
    pub os: String,
    /// `None` for NOS.
    pub scheduler: Option<String>,
    pub workload: String,
    pub tasks: u32,
    pub period_us: u32,
    pub ratio: u32,
    pub tick_hz: u32,
    /// The writer jobs write at the end of their work (`output = "end"`), not at its start.
    pub output_at_end: bool,
    /// This variant's simulated run length: the experiment's `run_ms`, or longer for
    /// `min_outputs`.
    pub run_ms: u32,
}

impl Variant {
    /// "ubik-prio" or "nos": the system under test.
    pub fn system(&self) -> String {
        match &self.scheduler {
            Some(s) => format!("{}-{s}", self.os),
            None => self.os.clone(),
        }
    }

    /// A unique, file-name-safe label.
    pub fn label(&self) -> String {
        let mut s = format!(
            "{}-{}-t{}-p{}",
            self.system(),
            self.workload,
            self.tasks,
            self.period_us
        );
        if self.workload == "up" || self.workload == "down" {
            s.push_str(&format!("-r{}", self.ratio));
        }
        if self.output_at_end {
            s.push_str("-end");
        }
        s
    }

    /// "-r4" for the resamplers' ratio, "" otherwise (file-name parts).
    fn ratio_suffix(&self) -> String {
        if self.ratio > 1 {
            format!("-r{}", self.ratio)
        } else {
            String::new()
        }
    }

    /// The figures' key of a workload setting over every system: "up-p8000-r2".
    pub fn workload_key(&self) -> String {
        format!(
            "{}-p{}{}{}",
            self.workload,
            self.period_us,
            self.ratio_suffix(),
            if self.output_at_end { "-end" } else { "" }
        )
    }

    /// The workload setting in words, with the period of the outputs the figures measure:
    /// "up-sampler 2:1, outputs every 4000 us (input every 8000 us)".
    pub fn setting_title(&self) -> String {
        let out = self.output_period_us();
        let end = if self.output_at_end {
            ", written at the end of each job"
        } else {
            ""
        };
        match self.workload.as_str() {
            "up" => format!(
                "up-sampler {}:1, outputs every {out} us (input every {} us){end}",
                self.ratio, self.period_us
            ),
            "down" => format!(
                "down-sampler 1:{}, outputs every {out} us (input every {} us){end}",
                self.ratio,
                self.period_us / self.ratio
            ),
            "ipc" => format!("periodic IPC, outputs every {out} us{end}"),
            "fir" => format!("FIR filter, outputs every {out} us{end}"),
            "adpcm_enc" => format!("ADPCM encoder channels, a frame every {out} us{end}"),
            "adpcm_dec" => format!("ADPCM decoder channels, a frame every {out} us{end}"),
            _ => "background load only".to_string(),
        }
    }

    /// The period of the job that writes the periodic output, in microseconds.
    pub fn output_period_us(&self) -> u32 {
        if self.workload == "up" {
            self.period_us / self.ratio
        } else {
            self.period_us
        }
    }

    /// When a task's first output comes, in microseconds from the start (apps/simbed/
    /// workloads.c): the writer is released every output period from its offset (one output
    /// period for the resamplers, whose writers wait for their first samples, else 0), and
    /// each job writes the value the previous one computed, so the first writes nothing
    /// (unless the writers write at the end of their work).
    fn first_output_us(&self) -> u64 {
        let p = self.output_period_us() as u64;
        let offset = if self.workload == "down" || self.workload == "up" {
            p
        } else {
            0
        };
        if self.output_at_end {
            offset
        } else {
            offset + p
        }
    }

    /// The shortest run, in whole ms, in which the writers make `min_outputs` outputs in all
    /// (0: no minimum).
    pub fn run_ms_for(&self, min_outputs: u64) -> u64 {
        if self.workload == "none" || min_outputs == 0 {
            return 0;
        }
        let per_task = min_outputs.div_ceil(self.tasks as u64);
        let p = self.output_period_us() as u64;
        (self.first_output_us() + (per_task - 1) * p + 1).div_ceil(1000)
    }

    /// The outputs each task's writer makes in a run of `run_ms` that keeps up: one every
    /// output period from the first (`first_output_us`) while the run lasts.
    pub fn outputs_per_task(&self, run_ms: u32) -> u64 {
        if self.workload == "none" {
            return 0;
        }
        let p = self.output_period_us() as u64;
        let first = self.first_output_us();
        let run_us = run_ms as u64 * 1000;
        if run_us > first {
            (run_us - first).div_ceil(p)
        } else {
            0
        }
    }
}

#[derive(Clone, Debug)]
pub struct Experiment {
    /// [`Kind::Simbed`] (the default) or [`Kind::Dpm`].
    pub kind: Kind,
    pub name: String,
    /// The workload directory (absolute).
    pub app: PathBuf,
    /// The machine file (absolute).
    pub machine: PathBuf,
    pub run_ms: u32,
    pub seeds: Vec<u64>,
    pub jitter_bin_us: u32,
    /// An output whose |deviation| is at most this percentage of its period is on time.
    pub on_time_tolerance_pct: f64,
    /// Extra `-DNAME[=VALUE]` flags for every variant's build.
    pub cflags: Vec<String>,
    /// Each variant runs until its writers have made at least this many outputs in all.
    pub min_outputs: u64,
    pub variants: Vec<Variant>,
    pub dpm: Vec<DpmVariant>,
}

struct Ctx<'a> {
    name: &'a str,
    text: &'a str,
}

impl Ctx<'_> {
    fn err(
        &self,
        span: &std::ops::Range<usize>,
        what: impl Into<String>,
        expected: impl Into<String>,
    ) -> ConfigError {
        invalid_at(self.name, self.text, span, what, expected)
    }

    fn strings(
        &self,
        v: &Option<Spanned<Vec<Spanned<String>>>>,
        key: &str,
        allowed: &[&str],
        default: &[&str],
    ) -> Result<Vec<String>, ConfigError> {
        let Some(list) = v else {
            return Ok(default.iter().map(|s| s.to_string()).collect());
        };
        if list.get_ref().is_empty() {
            return Err(self.err(
                &list.span(),
                format!("{key} is empty"),
                "at least one value",
            ));
        }
        let mut out = Vec::new();
        for s in list.get_ref() {
            if !allowed.contains(&s.get_ref().as_str()) {
                return Err(self.err(
                    &s.span(),
                    format!("{key} {:?} is not known", s.get_ref()),
                    format!(
                        "one of {}",
                        allowed
                            .iter()
                            .map(|a| format!("\"{a}\""))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                ));
            }
            if out.contains(s.get_ref()) {
                return Err(self.err(
                    &s.span(),
                    format!("{key} {:?} is listed twice", s.get_ref()),
                    "each value once",
                ));
            }
            out.push(s.get_ref().clone());
        }
        Ok(out)
    }

    fn ints(
        &self,
        v: &Option<Spanned<Vec<Spanned<i64>>>>,
        key: &str,
        lo: i64,
        hi: i64,
        default: &[u32],
    ) -> Result<Vec<u32>, ConfigError> {
        let Some(list) = v else {
            return Ok(default.to_vec());
        };
        if list.get_ref().is_empty() {
            return Err(self.err(
                &list.span(),
                format!("{key} is empty"),
                "at least one value",
            ));
        }
        let mut out = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for n in list.get_ref() {
            let x = *n.get_ref();
            if !(lo..=hi).contains(&x) {
                return Err(self.err(
                    &n.span(),
                    format!("{key} {x} is out of range"),
                    format!("an integer from {lo} to {hi}"),
                ));
            }
            // Two equal values would be one variant (or run) twice, into one directory.
            if !seen.insert(x) {
                let what = if key == "seeds" { "seed" } else { key };
                return Err(self.err(
                    &n.span(),
                    format!("{what} {x} is listed twice"),
                    "each value once",
                ));
            }
            out.push(x as u32);
        }
        Ok(out)
    }

    fn int(
        &self,
        v: &Option<Spanned<i64>>,
        key: &str,
        lo: i64,
        hi: i64,
        default: u32,
    ) -> Result<u32, ConfigError> {
        match v {
            None => Ok(default),
            Some(n) => {
                let x = *n.get_ref();
                if !(lo..=hi).contains(&x) {
                    return Err(self.err(
                        &n.span(),
                        format!("{key} = {x} is out of range"),
                        format!("an integer from {lo} to {hi}"),
                    ));
                }
                Ok(x as u32)
            }
        }
    }
}

/// `-DNAME` or `-DNAME=VALUE`: a define that needs no quoting in a TOML string or a shell.
fn is_define(f: &str) -> bool {
    let Some(body) = f.strip_prefix("-D") else {
        return false;
    };
    let (name, value) = body.split_once('=').unwrap_or((body, ""));
    let mut chars = name.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && value
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '-')
}

impl Experiment {
    /// Reads an experiment file; `root` is the repository (apps are relative to it).
    pub fn from_file(path: &Path, root: &Path) -> Result<Experiment, ConfigError> {
        let text = read_text_file(path, "the experiment file")?;
        let shown = path.display().to_string();
        let raw = parse_raw(&shown, &text)?;
        let c = Ctx {
            name: &shown,
            text: &text,
        };
        let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        let dir = if dir.as_os_str().is_empty() {
            PathBuf::from(".")
        } else {
            dir
        };

        let kind = match &raw.kind {
            Some(k) => match Kind::from_name(k.get_ref()) {
                Some(kind @ (Kind::Simbed | Kind::Dpm)) => kind,
                _ => return Err(unknown_kind(&shown, &text, k)),
            },
            None => Kind::Simbed,
        };
        let dpm_kind = kind == Kind::Dpm;
        let name = match &raw.name {
            Some(n) => {
                let s = n.get_ref();
                if !is_dir_name(s) {
                    return Err(c.err(
                        &n.span(),
                        format!("name {s:?} is not usable as a directory name"),
                        "letters, digits, '-' and '_'",
                    ));
                }
                s.clone()
            }
            None => name_from_stem(path, &shown, &text)?,
        };
        let app = match &raw.app {
            Some(a) => {
                let p = root.join(a.get_ref());
                let main = if dpm_kind { "dpm.c" } else { "workloads.c" };
                if !p.join(main).is_file() {
                    return Err(c.err(&a.span(), format!("app {:?} has no {main}", a.get_ref()), "a workload directory relative to the repository root, like \"apps/simbed\" (or \"apps/dpm\" for kind = \"dpm\")"));
                }
                p
            }
            None => root.join(if dpm_kind { "apps/dpm" } else { "apps/simbed" }),
        };
        let machine = match &raw.machine {
            Some(m) => {
                let p = dir.join(m.get_ref());
                input_file_at(&shown, &text, &m.span(), &p, "the machine file")?;
                p
            }
            None => app.join("machine.toml"),
        };
        let run_ms = c.int(&raw.run_ms, "run_ms", 1, 3_600_000, 1000)?;
        let min_outputs = c.int(&raw.min_outputs, "min_outputs", 0, 10_000_000, 0)? as u64;
        let seeds: Vec<u64> = c
            .ints(&raw.seeds, "seeds", 0, u32::MAX as i64, &[1])?
            .into_iter()
            .map(u64::from)
            .collect();
        // (`ints` refuses a value listed twice: two runs of one seed would be the same run,
        // writing the same files at once.)
        let seeds_span = raw
            .seeds
            .as_ref()
            .map(|s| s.span())
            .unwrap_or_else(|| raw.sweep.span());
        let jitter_bin_us = c.int(&raw.jitter_bin_us, "jitter_bin_us", 1, 1_000_000, 10)?;
        let on_time_tolerance_pct = match &raw.on_time_tolerance_pct {
            None => 1.0,
            Some(x) if *x.get_ref() > 0.0 && *x.get_ref() <= 50.0 => *x.get_ref(),
            Some(x) => {
                return Err(c.err(
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
                    return Err(c.err(
                        &f.span(),
                        format!("cflags entry {:?} is not a define", f.get_ref()),
                        "-DNAME or -DNAME=VALUE (letters, digits, _ and . in the value)",
                    ));
                }
                cflags.push(f.get_ref().clone());
            }
            defines_fit(&shown, &text, list.get_ref())?;
        }

        let (variants, dpm) = if dpm_kind {
            let dpm = dpm_variants(&c, &raw, &app, &seeds, &seeds_span)?;
            (Vec::new(), dpm)
        } else {
            let variants = simbed_variants(&c, &raw, &seeds, &seeds_span, run_ms, min_outputs)?;
            (variants, Vec::new())
        };
        Ok(Experiment {
            kind,
            name,
            app,
            machine,
            run_ms,
            seeds,
            jitter_bin_us,
            on_time_tolerance_pct,
            cflags,
            min_outputs,
            variants,
            dpm,
        })
    }
}

/// The error for a `kind` that is not one of [`Kind::ALL`].
fn unknown_kind(shown: &str, text: &str, k: &Spanned<String>) -> ConfigError {
    invalid_at(
        shown,
        text,
        &k.span(),
        format!("kind {:?} is not an experiment kind", k.get_ref()),
        format!(
            "one of {}",
            KINDS
                .iter()
                .map(|k| format!("\"{k}\""))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    )
}

/// The file as this module's keys, or the error of the first that is wrong.
fn parse_raw(shown: &str, text: &str) -> Result<Raw, ConfigError> {
    toml::from_str(text).map_err(|e| {
        // A file of an unknown kind is not judged by this kind's keys ("missing key
        // `workload`"): its kind is the error.
        #[derive(Deserialize)]
        struct RawKind {
            kind: Option<Spanned<String>>,
        }
        match toml::from_str::<RawKind>(text) {
            Ok(RawKind { kind: Some(k) })
                if !matches!(Kind::from_name(k.get_ref()), Some(Kind::Simbed | Kind::Dpm)) =>
            {
                unknown_kind(shown, text, &k)
            }
            _ => toml_error(shown, text, &e),
        }
    })
}

/// The variants of kind = "dpm": each workload in each mode under each policy.
fn dpm_variants(
    c: &Ctx,
    raw: &Raw,
    app: &Path,
    seeds: &[u64],
    seeds_span: &std::ops::Range<usize>,
) -> Result<Vec<DpmVariant>, ConfigError> {
    let sw = raw.sweep.get_ref();
    for (key, present) in [
        ("os", sw.os.is_some()),
        ("scheduler", sw.scheduler.is_some()),
        ("tasks", sw.tasks.is_some()),
        ("period_us", sw.period_us.is_some()),
        ("ratio", sw.ratio.is_some()),
        ("tick_hz", sw.tick_hz.is_some()),
        ("output", sw.output.is_some()),
    ] {
        if present {
            return Err(c.err(
                &raw.sweep.span(),
                format!("[sweep] {key} does not apply to kind = \"dpm\""),
                "workload, policy and mode",
            ));
        }
    }
    let workloads = c.strings(&Some(sw.workload.clone()), "workload", &DPM_WORKLOADS, &[])?;
    let policies = c.strings(&sw.policy, "policy", &power_policies(), &power_policies())?;
    let modes = c.strings(&sw.mode, "mode", &MODES, &["dvfs"])?;
    let n = (workloads.len() * policies.len() * modes.len()) as u128;
    check_size(
        c.name,
        c.text,
        &raw.sweep.span(),
        seeds_span,
        "",
        0,
        &format!("{n} variants x {} seeds", seeds.len()),
        n * seeds.len() as u128,
    )?;
    let mut dpm = Vec::new();
    for w in &workloads {
        for m in &modes {
            let mf = app.join(format!("{w}-{m}.machine.toml"));
            input_file_at(
                c.name,
                c.text,
                &sw.workload.span(),
                &mf,
                &format!("the machine file of workload {w:?} in mode {m:?}"),
            )?;
            for p in &policies {
                dpm.push(DpmVariant {
                    workload: w.clone(),
                    policy: p.clone(),
                    mode: m.clone(),
                });
            }
        }
    }
    Ok(dpm)
}

/// The variants of kind = "simbed": every system, workload setting, task count, period and
/// output time, each run long enough for `min_outputs`.
fn simbed_variants(
    c: &Ctx,
    raw: &Raw,
    seeds: &[u64],
    seeds_span: &std::ops::Range<usize>,
    run_ms: u32,
    min_outputs: u64,
) -> Result<Vec<Variant>, ConfigError> {
    let sw = raw.sweep.get_ref();
    if sw.policy.is_some() || sw.mode.is_some() {
        return Err(c.err(
            &raw.sweep.span(),
            "[sweep] policy and mode apply to kind = \"dpm\" only",
            "kind = \"dpm\", or os/scheduler/workload/tasks/period_us/ratio",
        ));
    }
    let oses = c.strings(&sw.os, "os", &OSES, &["ubik"])?;
    let scheds = c.strings(
        &sw.scheduler,
        "scheduler",
        &sysdesc::Scheduler::NAMES,
        &["prio"],
    )?;
    let workloads = c.strings(&Some(sw.workload.clone()), "workload", &WORKLOADS, &[])?;
    let tasks = c.ints(&sw.tasks, "tasks", 1, 8, &[1])?;
    let periods = c.ints(&sw.period_us, "period_us", 100, 10_000_000, &[8000])?;
    let ratios = c.ints(&sw.ratio, "ratio", 1, 64, &[2])?;
    let tick_hz = c.int(&sw.tick_hz, "tick_hz", 1, 100_000, 1000)?;
    let outputs = c.strings(&sw.output, "output", &["start", "end"], &["start"])?;
    let tick_us = 1_000_000 / tick_hz;

    // Count the variants before making any: an absurd product is refused, not built.
    let systems: u128 = oses
        .iter()
        .map(|os| {
            if os == "ubik" {
                scheds.len() as u128
            } else {
                1
            }
        })
        .sum();
    let settings: u128 = workloads
        .iter()
        .map(|w| {
            if w == "up" || w == "down" {
                ratios.len() as u128
            } else {
                1
            }
        })
        .sum();
    let n = systems * settings * (tasks.len() * periods.len() * outputs.len()) as u128;
    check_size(
        c.name,
        c.text,
        &raw.sweep.span(),
        seeds_span,
        &format!(
            "{systems} systems x {settings} workload settings x {} task counts x {} periods x {} outputs",
            tasks.len(),
            periods.len(),
            outputs.len()
        ),
        n,
        &format!("{n} variants x {} seeds", seeds.len()),
        n * seeds.len() as u128,
    )?;

    let mut variants = Vec::new();
    for os in &oses {
        let sched_axis: Vec<Option<String>> = if os == "ubik" {
            scheds.iter().cloned().map(Some).collect()
        } else {
            vec![None]
        };
        for sched in &sched_axis {
            for w in &workloads {
                for &t in &tasks {
                    for &p in &periods {
                        let ratio_axis: Vec<u32> = if w == "up" || w == "down" {
                            ratios.clone()
                        } else {
                            vec![1]
                        };
                        for &r in &ratio_axis {
                            let fast = if w == "up" || w == "down" { p / r } else { p };
                            if p % r != 0 || fast < 100 {
                                let span = sw
                                    .period_us
                                    .as_ref()
                                    .map(|x| x.span())
                                    .unwrap_or_else(|| raw.sweep.span());
                                return Err(c.err(&span, format!("period_us {p} with ratio {r} gives a fast job period of {p}/{r} us"), "a period divisible by the ratio, the fast job at least 100 us"));
                            }
                            if os != "nos" && (p % tick_us != 0 || fast % tick_us != 0) {
                                let span = sw
                                    .period_us
                                    .as_ref()
                                    .map(|x| x.span())
                                    .unwrap_or_else(|| raw.sweep.span());
                                return Err(c.err(&span, format!("period_us {p} (ratio {r}: fast job {fast} us) is not a multiple of the {tick_us} us tick of {os}"), "job periods that are multiples of 1e6 / tick_hz microseconds (raise tick_hz)"));
                            }
                            for out in &outputs {
                                variants.push(Variant {
                                    os: os.clone(),
                                    scheduler: sched.clone(),
                                    workload: w.clone(),
                                    tasks: t,
                                    period_us: p,
                                    ratio: r,
                                    tick_hz,
                                    output_at_end: out == "end",
                                    run_ms,
                                });
                            }
                        }
                    }
                }
            }
        }
    }
    lengthen(c, raw, &mut variants, min_outputs, tick_us)?;
    Ok(variants)
}

/// Lengthens each variant's run to make `min_outputs` outputs, in whole ticks of `tick_us`.
fn lengthen(
    c: &Ctx,
    raw: &Raw,
    variants: &mut [Variant],
    min_outputs: u64,
    tick_us: u32,
) -> Result<(), ConfigError> {
    // Long enough for min_outputs, in whole ticks (the stop job is released on the grid).
    let tick_ms = (tick_us as u64).div_ceil(1000).max(1);
    for v in variants.iter_mut() {
        let need = v.run_ms_for(min_outputs).div_ceil(tick_ms) * tick_ms;
        if need > 3_600_000 {
            let span = raw
                .min_outputs
                .as_ref()
                .map(|x| x.span())
                .unwrap_or_else(|| raw.sweep.span());
            return Err(c.err(
                &span,
                format!(
                    "min_outputs = {min_outputs} needs {need} ms of variant {}",
                    v.label()
                ),
                "at most 3600000 ms per run (fewer outputs)",
            ));
        }
        v.run_ms = v.run_ms.max(need as u32);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn root() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../..")
            .canonicalize()
            .unwrap()
    }

    fn parse(text: &str) -> Result<Experiment, ConfigError> {
        // One directory per call: the tests run in parallel threads.
        static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let k = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("ubik-exp-spec-{}-{k}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("x.toml");
        std::fs::write(&p, text).unwrap();
        Experiment::from_file(&p, &root())
    }

    #[test]
    fn the_workloads_are_the_firmwares() {
        // The build passes a workload by name (-DSB_WORKLOAD=NAME): every name the file takes
        // is one apps/simbed/workloads.c maps (SB_WL_NAME), and every one it maps is taken.
        let c = std::fs::read_to_string(root().join("apps/simbed/workloads.c")).unwrap();
        let mut firmware: Vec<&str> = c
            .lines()
            .filter_map(|l| l.strip_prefix("#define SB_WL_"))
            .filter_map(|l| l.split_whitespace().next())
            .filter(|n| n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
            .collect();
        firmware.sort();
        let mut ours = WORKLOADS.to_vec();
        ours.sort();
        assert_eq!(ours, firmware);
    }

    #[test]
    fn product_of_axes_scheduler_for_ubik_only() {
        let e = parse("[sweep]\nos = [\"ubik\", \"nos\"]\nscheduler = [\"prio\", \"rr\"]\nworkload = [\"up\"]\ntasks = [1, 2]\nperiod_us = [8000]\nratio = [2, 4]\n").unwrap();
        // ubik: 2 schedulers x 2 tasks x 2 ratios; nos: 2 tasks x 2 ratios.
        assert_eq!(e.variants.len(), 8 + 4);
        assert!(e
            .variants
            .iter()
            .all(|v| (v.os == "nos") == v.scheduler.is_none()));
        assert_eq!(e.name, "x");
        assert_eq!(e.seeds, vec![1]);
    }

    #[test]
    fn errors_name_line_and_expectation() {
        let e = parse("[sweep]\nworkload = [\"fft\"]\n")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("x.toml:2:13: workload \"fft\" is not known"),
            "{e}"
        );
        let e = parse("[sweep]\nworkload = [\"up\"]\nperiod_us = [1500]\nratio = [2]\n")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("x.toml:3:13:") && e.contains("not a multiple"),
            "{e}"
        );
        let e = parse("run_ms = 0\n[sweep]\nworkload = [\"ipc\"]\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("x.toml:1:10: run_ms = 0 is out of range"), "{e}");
        let e = parse("[sweep]\nworkload = [\"ipc\"]\ncolour = 1\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("x.toml:3:1") && e.contains("colour"), "{e}");
        assert!(parse("[sweep]\n").is_err());
    }

    #[test]
    fn every_variant_has_a_label_of_its_own() {
        // Every value of every axis: no two variants share a build or run directory.
        let e = parse("[sweep]\nos = [\"ubik\", \"nos\", \"nos-rtm\"]\nscheduler = [\"rr\", \"prio\", \"prio_rr\", \"bitmap\", \"coop\", \"edf\", \"rtm\"]\nworkload = [\"none\", \"ipc\", \"up\", \"down\", \"fir\", \"adpcm_enc\", \"adpcm_dec\"]\ntasks = [1, 2, 8]\nperiod_us = [8000, 16000]\nratio = [1, 2, 4]\noutput = [\"start\", \"end\"]\n").unwrap();
        let mut labels: Vec<String> = e.variants.iter().map(|v| v.label()).collect();
        let n = labels.len();
        labels.sort();
        labels.dedup();
        assert_eq!(labels.len(), n);
    }

    #[test]
    fn tolerance_and_cflags_are_checked() {
        let e = parse("on_time_tolerance_pct = 2\ncflags = [\"-DSB_OUTPUT_LATE=1\"]\n[sweep]\nworkload = [\"ipc\"]\n").unwrap();
        assert_eq!(e.on_time_tolerance_pct, 2.0);
        assert_eq!(e.cflags, vec!["-DSB_OUTPUT_LATE=1".to_string()]);
        assert_eq!(
            parse("[sweep]\nworkload = [\"ipc\"]\n")
                .unwrap()
                .on_time_tolerance_pct,
            1.0
        );
        let e = parse("on_time_tolerance_pct = 0\n[sweep]\nworkload = [\"ipc\"]\n")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("x.toml:1:25: on_time_tolerance_pct = 0 is out of range"),
            "{e}"
        );
        let e = parse("cflags = [\"-O0\"]\n[sweep]\nworkload = [\"ipc\"]\n")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("x.toml:1:11: cflags entry \"-O0\" is not a define"),
            "{e}"
        );
        assert!(parse("cflags = [\"-DX=a b\"]\n[sweep]\nworkload = [\"ipc\"]\n").is_err());
    }

    #[test]
    fn outputs_per_task_follow_the_writers_releases() {
        let v = |workload: &str, period_us, ratio| Variant {
            os: "ubik".into(),
            scheduler: Some("prio".into()),
            workload: workload.into(),
            tasks: 1,
            period_us,
            ratio,
            tick_hz: 1000,
            output_at_end: false,
            run_ms: 1000,
        };
        // Releases at 0, 1, ..., 999 ms; the first writes nothing.
        assert_eq!(v("ipc", 1000, 1).outputs_per_task(1000), 999);
        // Up 2:1 at 8 ms: writer every 4 ms, releases 4..=996 ms: 249, one silent.
        assert_eq!(v("up", 8000, 2).outputs_per_task(1000), 248);
        // Down: writer every 8 ms from 8 ms: releases 8..=992 ms: 124, one silent.
        assert_eq!(v("down", 8000, 4).outputs_per_task(1000), 123);
        assert_eq!(v("none", 8000, 1).outputs_per_task(1000), 0);
        assert_eq!(v("fir", 8000, 1).outputs_per_task(5), 0);
        let end = Variant {
            output_at_end: true,
            ..v("down", 8000, 4)
        };
        assert_eq!(end.outputs_per_task(1000), 124);
        assert!(end.label().ends_with("-end"));
        // min_outputs: the shortest run that gives them (up 2:1 at 8 ms: 248 in 1000 ms).
        let up = v("up", 8000, 2);
        let ms = up.run_ms_for(248) as u32;
        assert_eq!(up.outputs_per_task(ms), 248);
        assert_eq!(up.outputs_per_task(ms - 1), 247);
        assert_eq!(
            Variant {
                tasks: 4,
                ..up.clone()
            }
            .run_ms_for(4 * 248),
            ms as u64
        );
    }
}
