//! A SimBed variant (`kind = "simbed"`): one firmware of apps/simbed -- the system under test
//! (Ubik under a scheduler, NOS, NOS with the RTM), the workload setting, the task count,
//! the period and where the writers write -- and how `[sweep]` makes them: the product of
//! the axes (the scheduler axis applies to Ubik only), each variant run long enough for
//! `min_outputs`.

use crate::experiment::fields::{check_size, int_or, u32_axis};
use crate::experiment::sweep::{Experiment, Raw, SweepVariant};
use confread::{ConfigError, Doc};
use std::fmt::Write as _;
use std::ops::Range;
use std::path::{Path, PathBuf};

/// The SimBed workloads `[sweep] workload` takes: the names apps/simbed/workloads.c knows
/// (its `SB_WL_<name>`); the build passes the name itself (`-DSB_WORKLOAD=up`), so this order
/// is only the one of the error message.
pub const WORKLOADS: [&str; 7] = ["none", "ipc", "up", "down", "fir", "adpcm_enc", "adpcm_dec"];
/// "nos-rtm": NOS with its release times and job selection in the RTM device (nos.h, NOS_RTM).
pub const OSES: [&str; 3] = ["ubik", "nos", "nos-rtm"];

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

impl SweepVariant for Variant {
    const DEFAULT_APP: &'static str = "apps/simbed";
    const MAIN_SOURCE: &'static str = "workloads.c";

    fn variants(
        src: &Doc,
        raw: &Raw,
        exp: &Experiment<Variant>,
        seeds_span: &Range<usize>,
    ) -> Result<Vec<Variant>, ConfigError> {
        simbed_variants(src, raw, exp, seeds_span)
    }

    fn label(&self) -> String {
        Variant::label(self)
    }

    fn system_toml(&self, exp: &Experiment<Variant>) -> String {
        system_toml(self, self.run_ms, &exp.cflags)
    }

    fn machine_file(&self, exp: &Experiment<Variant>) -> PathBuf {
        exp.machine.clone()
    }

    fn kernel_source(&self, root: &Path) -> PathBuf {
        match &self.scheduler {
            Some(s) => root.join("kernel/sched").join(format!("{s}.c")),
            None => root.join("nos/nos.c"),
        }
    }
}

/// The system.toml of a variant's application.
fn system_toml(v: &Variant, run_ms: u32, cflags: &[String]) -> String {
    let mut s = String::from("# Generated by `ubik experiment`: do not edit.\n[kernel]\n");
    match &v.scheduler {
        Some(sched) => {
            let _ = writeln!(s, "scheduler = \"{sched}\"\ntick_hz = {}", v.tick_hz);
        }
        None => s.push_str("os = \"nos\"\n"),
    }
    let _ = writeln!(
        s,
        "\n[build]\ncflags = [\"-DSB_WORKLOAD={}\", \"-DSB_TASKS={}\", \"-DSB_PERIOD_US={}\", \"-DSB_RATIO={}\", \"-DSB_RUN_MS={}\"{}{}{}]",
        v.workload,
        v.tasks,
        v.period_us,
        v.ratio,
        run_ms,
        if v.output_at_end {
            ", \"-DSB_OUTPUT_AT_END=1\""
        } else {
            ""
        },
        if v.os == "nos-rtm" {
            format!(
                ", \"-DNOS_RTM=1\", \"-DNOS_RTM_TICK_US={}\"",
                1_000_000 / v.tick_hz
            )
        } else {
            String::new()
        },
        cflags
            .iter()
            .map(|f| format!(", \"{f}\""))
            .collect::<String>()
    );
    s
}

/// The variants of kind = "simbed": every system, workload setting, task count, period and
/// output time, each run long enough for `min_outputs`.
fn simbed_variants(
    c: &Doc,
    raw: &Raw,
    exp: &Experiment<Variant>,
    seeds_span: &Range<usize>,
) -> Result<Vec<Variant>, ConfigError> {
    let (seeds, run_ms) = (&exp.header.seeds, exp.header.run_ms);
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
    let tasks = u32_axis(c, &sw.tasks, "tasks", (1, 8), &[1])?;
    let periods = u32_axis(c, &sw.period_us, "period_us", (100, 10_000_000), &[8000])?;
    let ratios = u32_axis(c, &sw.ratio, "ratio", (1, 64), &[2])?;
    let tick_hz = int_or(c, &sw.tick_hz, "tick_hz", (1, 100_000), 1000)?;
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
        c,
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
    lengthen(c, raw, &mut variants, exp.min_outputs, tick_us)?;
    Ok(variants)
}

/// Lengthens each variant's run to make `min_outputs` outputs, in whole ticks of `tick_us`.
fn lengthen(
    c: &Doc,
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
    use crate::experiment::sweep;

    fn root() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../..")
            .canonicalize()
            .unwrap()
    }

    fn parse(text: &str) -> Result<Experiment<Variant>, ConfigError> {
        // One directory per call: the tests run in parallel threads.
        static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let k = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("ubik-exp-spec-{}-{k}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("x.toml");
        std::fs::write(&p, text).unwrap();
        let shown = p.display().to_string();
        let src = Doc::text_only(&shown, text);
        sweep::read(&src, &p, &root())
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
        assert_eq!(e.header.name, "x");
        assert_eq!(e.header.seeds, vec![1]);
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
