//! The kernel's micro-benchmarks (`kind = "kernel"`, `bench/kernel.toml`): each application
//! of `bench/kernel/` built under the schedulers it applies to, run on the testbed (the job
//! engine, jobs/), its console figures, IO record and link map reduced to `OUT/kernel.json`
//! (docs/contract.md, "Benchmark files"; methods in docs/results.md, "Kernel").
//!
//! The kernel's figures, its IPC figures (ipc/) and the RTM's (rtm/) are three kinds, not one
//! kind with a `figures` switch: each writes one JSON file of its own keys from its own
//! applications, so each file says only what its figures need, and `make bench` runs the
//! three files. They share the applications' jobs (app.rs), the footprint reader
//! (footprint.rs) and the console readers (reduce.rs).
//!
//! ```toml
//! kind = "kernel"
//! max_cycles = 4_000_000_000          # each run's limit (default 4e9)
//! [sched]                             # sched_overhead_cycles[SCHED][N]
//! app = "bench/kernel/sched"          # relative to the repository root
//! tasks = [1, 2, 4, 8, 16, 32, 64, 128, 256] # the task counts N reported
//! schedulers = {}                     # by properties (select.rs); {}: every one
//! [coop]                              # coop_switch_cycles[SCHED]
//! app = "bench/kernel/coop"
//! schedulers = { without = ["unique_priorities"] }
//! [irqoff]                            # irq_disable_restore_cycles
//! app = "bench/kernel/irqoff"         # no `schedulers`: the application's own
//! [irqlat]                            # irq_latency_worst_cycles: the worst of every run
//! app = "bench/kernel/irqlat"
//! schedulers = {}
//! machine = "kernel/irqlat/machine.toml" # relative to this file: the stimulus
//! from = "stimulus:0"                 # each event (measure::edges' selectors) ...
//! to = "out:0"                        # ... to the next write of OUT[0], the LISR's first
//! policy = "merged"                   # events sharing a LISR (edges.rs)
//! store_cycles = 2                    # the answering store's own cost, subtracted
//! [footprint]                         # footprint_{text,ram}_bytes{minimal,full}
//! minimal = "bench/kernel/footprint_min"
//! full = "bench/kernel/footprint_full"
//! ```
//!
//! Every table is optional; a table left out leaves its figures out of the JSON (a short
//! file for tests measures a few). The build and run material stays in `OUT/NAME/` (jobs/):
//! `runs/irqlat-SCHED/irqlat.txt` has each latency run's figures (worst, mean, the event
//! with the worst, events, unanswered, merged, orphan writes, the histogram's top bins),
//! `footprint-CFG.txt` the footprint's parts (with the kernel code outside the attribution
//! sections, which should be 0).

pub mod app;
pub mod footprint;
pub mod irqlat;
pub mod reduce;
pub mod spec;

use super::jobs::{Engine, Job, JobResult, MachineSrc};
use super::steps::io_fail;
use crate::{code, Failure};
use serde_json::{Map, Value};
use spec::BenchApp;
pub use spec::{parse, KernelBench};
use std::path::Path;

/// What each job measures, beside it in the same order.
enum Measure {
    Sched(String),
    Coop(String),
    IrqOff,
    IrqLat(String),
    Footprint(&'static str),
}

/// The jobs of the file: (what each measures, the job).
fn plan(k: &KernelBench) -> Result<Vec<(Measure, Job)>, Failure> {
    let mut out = Vec::new();
    let mut add = |b: &BenchApp,
                   name: &str,
                   what: &dyn Fn(String) -> Measure,
                   machine: MachineSrc,
                   record: bool|
     -> Result<(), Failure> {
        for (s, suffix) in app::under(&b.schedulers) {
            let sched = s.map_or_else(String::new, |s| s.name().to_string());
            let j = app::job(
                format!("{name}{suffix}"),
                &b.app,
                s,
                machine.clone(),
                k.max_cycles,
                record,
            )?;
            out.push((what(sched), j));
        }
        Ok(())
    };
    if let Some((b, _)) = &k.sched {
        add(b, "sched", &Measure::Sched, MachineSrc::Default, false)?;
    }
    if let Some(b) = &k.coop {
        // Labelled by the table (its name is also a scheduler's: see Measure::Coop's line).
        add(
            b,
            stringify!(coop),
            &Measure::Coop,
            MachineSrc::Default,
            false,
        )?;
    }
    if let Some(b) = &k.irqoff {
        add(
            b,
            "irqoff",
            &|_| Measure::IrqOff,
            MachineSrc::Default,
            false,
        )?;
    }
    if let Some(l) = &k.irqlat {
        add(
            &l.bench,
            "irqlat",
            &Measure::IrqLat,
            MachineSrc::File(l.machine.clone()),
            true,
        )?;
    }
    for (cfg, dir) in &k.footprint {
        let j = app::job(
            format!("footprint-{cfg}"),
            dir,
            None,
            MachineSrc::Default,
            k.max_cycles,
            false,
        )?;
        out.push((Measure::Footprint(cfg), j));
    }
    Ok(out)
}

/// `--check`'s summary: how many images run, and the file written.
pub fn check(k: &KernelBench, out: &Path) -> Result<String, Failure> {
    let n = plan(k)?.len();
    Ok(format!("{n} runs -> {}", k.header.json(out).display()))
}

/// Inserts `v` at `obj[key][sub]`.
fn put(obj: &mut Map<String, Value>, key: &str, sub: &str, v: Value) {
    let e = obj.entry(key).or_insert_with(|| Value::Object(Map::new()));
    if let Value::Object(m) = e {
        m.insert(sub.into(), v);
    }
}

/// A reduction's complaint about job `label`'s console output (65).
fn bad_console(k: &KernelBench, out: &Path, label: &str, why: String) -> Failure {
    let console = k
        .header
        .work(out)
        .join("runs")
        .join(label)
        .join("console.txt");
    Failure::new(
        code::DATA,
        format!(
            "experiment {}: job {label}: {}: {why}",
            k.header.name,
            console.display()
        ),
    )
}

/// Builds and runs every job (`jobs` at a time), reduces the results and writes
/// `OUT/NAME.json`; 0.
pub fn run(k: &KernelBench, root: &Path, out: &Path, jobs: usize) -> Result<u8, Failure> {
    let work = k.header.work(out);
    let planned = plan(k)?;
    let job_list: Vec<Job> = planned.iter().map(|(_, j)| j.clone()).collect();
    let engine = Engine::new(&k.header.name, root, &work, jobs)?;
    let results = engine.run(&job_list)?;
    let mut res = Map::new();
    let mut irq_worst: Option<i64> = None;
    for (i, ((m, j), r)) in planned.iter().zip(&results).enumerate() {
        let bad = |why: String| bad_console(k, out, &j.label, why);
        match m {
            Measure::Sched(s) => {
                let tasks = k.sched.as_ref().map_or(&[][..], |(_, t)| &t[..]);
                let row = reduce::sched_row(&r.console, tasks).map_err(bad)?;
                if !row.is_empty() {
                    put(
                        &mut res,
                        "sched_overhead_cycles",
                        s,
                        serde_json::to_value(row).unwrap_or_default(),
                    );
                }
            }
            Measure::Coop(s) => {
                // The application's line `coop WORST MEAN BEST` (named as its table; the
                // identifier keeps the word apart from the scheduler of that name).
                let line = stringify!(coop);
                if let Some(v) = reduce::first_int(&r.console, line).map_err(bad)? {
                    put(&mut res, "coop_switch_cycles", s, v.into());
                }
            }
            Measure::IrqOff => {
                if let Some(v) =
                    reduce::first_int(&r.console, "irq_disable_restore").map_err(bad)?
                {
                    let worst = res
                        .get("irq_disable_restore_cycles")
                        .and_then(Value::as_u64)
                        .map_or(v, |w| w.max(v));
                    res.insert("irq_disable_restore_cycles".into(), worst.into());
                }
            }
            Measure::IrqLat(s) => {
                let worst = irq_latency(k, &work, &j.label, s, r)?;
                irq_worst = irq_worst.max(worst);
            }
            Measure::Footprint(cfg) => {
                let f = footprint_of(&work, &job_list, i, cfg)?;
                put(&mut res, "footprint_text_bytes", cfg, f.text.into());
                put(&mut res, "footprint_ram_bytes", cfg, f.ram.into());
            }
        }
    }
    if let Some(w) = irq_worst {
        res.insert("irq_latency_worst_cycles".into(), w.into());
    }
    let p = k.header.write_json(out, &Value::Object(res))?;
    println!("experiment {}: wrote {}", k.header.name, p.display());
    Ok(0)
}

/// One latency run's figures, written beside it (`irqlat.txt`) and shown; its worst (None
/// without a paired event).
fn irq_latency(
    k: &KernelBench,
    work: &Path,
    label: &str,
    sched: &str,
    r: &JobResult,
) -> Result<Option<i64>, Failure> {
    let Some(l) = &k.irqlat else {
        return Ok(None);
    };
    let lat = irqlat::irqlat(&r.record, &l.from, &l.to, l.policy, l.store_cycles);
    let p = work.join("runs").join(label).join("irqlat.txt");
    std::fs::write(&p, lat.lines()).map_err(|e| io_fail("the latency figures", &p, e))?;
    let shown = if sched.is_empty() {
        String::new()
    } else {
        format!(" [{sched}]")
    };
    println!(
        "irqlat{shown}: {}",
        lat.lines().replace('\n', " ").trim_end()
    );
    Ok((lat.events > 0).then_some(lat.worst))
}

/// The footprint of job `i`'s image, written beside the build (`footprint-CFG.txt`).
fn footprint_of(
    work: &Path,
    jobs: &[Job],
    i: usize,
    cfg: &str,
) -> Result<footprint::Footprint, Failure> {
    let dir = app::build_dir(work, jobs, i);
    let elf = dir.join("app.elf");
    let image =
        machine::elf::load_elf_file(&elf, machine::config::RAM_BASE, u32::MAX).map_err(|e| {
            Failure::new(
                if e.is_io() {
                    code::NO_INPUT
                } else {
                    code::DATA
                },
                format!("{}: {e}", elf.display()),
            )
        })?;
    let map_path = dir.join("app.map");
    let map = std::fs::read_to_string(&map_path).map_err(|e| {
        Failure::new(
            code::NO_INPUT,
            format!("cannot read {}: {e}", map_path.display()),
        )
    })?;
    let f = footprint::footprint(&image.sections, &footprint::map_inputs(&map));
    let p = work.join(format!("footprint-{cfg}.txt"));
    let text = format!(
        "text {}\nram {}\nrodata {}\ntext_outside_uk_sections {}\n",
        f.text, f.ram, f.rodata, f.text_outside_uk_sections
    );
    std::fs::write(&p, text).map_err(|e| io_fail("the footprint", &p, e))?;
    Ok(f)
}

impl crate::experiment::kind::ExperimentKind for KernelBench {
    fn check(&self, _root: &Path, out: &Path) -> Result<String, Failure> {
        check(self, out)
    }

    fn run(&self, root: &Path, out: &Path, jobs: usize) -> Result<u8, Failure> {
        run(self, root, out, jobs)
    }
}
