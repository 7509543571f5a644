//! Rhealstone by GPIO edges (`kind = "rhealstone"`): each figure of the firmware
//! (`bench/rhealstone/rhealstone.c` on Ubik and FreeRTOS, `rh_nos.c` on NOS) is one image,
//! `rh_config.h` defining `RH_FIGURE` and `RH_SAMPLES`, built for every row (and for Ubik
//! every scheduler the figure applies to, chosen by the policy table's properties) and run
//! with its IO record kept. The firmware raises the start pin before each path and the end
//! pin after it, and prints the path's length as `mcycle` measured it
//! (`rh FIGURE sample=I mcycle=C`, then `rh FIGURE done samples=N`); reduce.rs pairs the
//! edges (measure/edges.rs, each start with the next end) and checks them against `mcycle`.
//! Writes `OUT/NAME.json`, `{"ROW": {"FIGURE": mean, "FIGURE_min": min, "FIGURE_max":
//! max}}` (cycles; a figure that does not apply to a row is absent), keeps every image and
//! run under `OUT/NAME/ROW-FIGURE/`, and prints each figure with its `mcycle` offset. A
//! figure whose measurements do not hold up fails the experiment (exit 1) after the file is
//! written with the others.
//!
//! ```toml
//! kind = "rhealstone"
//! samples = 200                # per figure (RH_SAMPLES)
//! max_cycles = 2000000000      # each run's limit
//! start = "pin:2:rise"         # the path's start and end in the IO record (measure/edges.rs)
//! end = "pin:3:rise"
//! agreement = 0.9              # the share of samples whose mcycle - edges is one constant
//! sources = ["rhealstone/rhealstone.c", "threadmetric/tm_ubik.c", "threadmetric/tm_port.h"]
//! [[figure]]
//! name = "task_switch"
//! number = 1                   # RH_FIGURE
//! schedulers = { without = ["unique_priorities"] }  # Ubik's rows: by the policies' properties
//! [[row]]                      # osrow.rs: name, os, tick_hz, sources, build
//! name = "ubik-{scheduler}"
//! os = "ubik"
//! tick_hz = 1000
//! [[row]]
//! name = "nos-np"
//! os = "nos"
//! sources = ["rhealstone/rh_nos.c"]
//! figures = ["task_switch"]    # the figures this row measures (default: every one)
//! ```

mod reduce;
mod spec;

use super::jobs::{Engine, Job, RunOpts, Source};
use super::measure::console;
use super::measure::edges::{pair, Policy};
use super::osrow::{announce, freertos_checkout, own_check, Os};
use crate::Failure;
use machine::record::IoEvent;
use reduce::{cross_check, Figure};
use serde_json::{Map, Value};
pub use spec::{parse, Rhealstone};
use std::collections::BTreeMap;
use std::path::Path;

/// One image planned: its row's label and its figure (index).
struct Planned {
    label: String,
    figure: usize,
}

/// The images to build and run: row by row, for Ubik scheduler by scheduler, figure by
/// figure.
fn plan(e: &Rhealstone) -> (Vec<Job>, Vec<Planned>) {
    let mut jobs = Vec::new();
    let mut planned = Vec::new();
    let freertos = freertos_checkout().is_some();
    for r in &e.rows {
        let scheds: Vec<Option<&sysdesc::Policy>> = match r.os.os {
            Os::Ubik { .. } => sysdesc::POLICIES.iter().map(Some).collect(),
            Os::FreeRtos { .. } if !freertos => continue,
            _ => vec![None],
        };
        for policy in scheds {
            let s = policy.map(|p| p.name);
            for &fi in &r.figures {
                let f = &e.figures[fi];
                if policy.is_some_and(|p| !f.schedulers.applies(p)) {
                    continue;
                }
                let label = r.os.label(s);
                jobs.push(Job {
                    label: format!("{label}-{}", f.name),
                    source: Source {
                        files: r.os.sources.clone(),
                        generated: vec![(
                            "rh_config.h".into(),
                            format!(
                                "#define RH_FIGURE {}\n#define RH_SAMPLES {}\n",
                                f.number, e.samples
                            ),
                        )],
                        build: r.os.build_with(s),
                    },
                    run: RunOpts {
                        max_cycles: e.max_cycles,
                        record: true,
                        ..RunOpts::default()
                    },
                });
                planned.push(Planned { label, figure: fi });
            }
        }
    }
    (jobs, planned)
}

/// What `--check` says the experiment will do.
pub fn check(e: &Rhealstone, out: &Path) -> String {
    let (jobs, _) = plan(e);
    format!("{} images -> {}", jobs.len(), e.header.json(out).display())
}

/// The `mcycle` samples the console printed for `figure`, in sample order; the error says
/// what is missing or wrong.
fn console_samples(text: &str, figure: &str, samples: u32) -> Result<Vec<u64>, String> {
    let c = console::parse(text, &["rh"]);
    let mut by_index: BTreeMap<u64, u64> = BTreeMap::new();
    let mut done = None;
    for r in c.samples("rh", figure) {
        if r.words().first().is_some_and(|w| w == "FAIL") {
            return Err(format!(
                "line {}: the firmware failed: rh {figure} {}",
                r.line,
                r.words().join(" ")
            ));
        }
        if r.words().first().is_some_and(|w| w == "done") {
            done = r.field_u64("samples");
        } else if let (Some(i), Some(m)) = (r.field_u64("sample"), r.field_u64("mcycle")) {
            by_index.insert(i, m);
        }
    }
    let Some(n) = done else {
        return Err(format!("no `rh {figure} done samples=N` line"));
    };
    if n != samples as u64 {
        return Err(format!(
            "`rh {figure} done samples={n}`, expected samples={samples}"
        ));
    }
    if by_index.len() as u64 != n || by_index.keys().next_back().is_some_and(|&k| k + 1 != n) {
        return Err(format!(
            "{} sample lines for {n} samples (one per index 0..{n} expected)",
            by_index.len()
        ));
    }
    Ok(by_index.into_values().collect())
}

/// One image's figure, from its console and its IO record.
fn figure_of(e: &Rhealstone, name: &str, text: &str, record: &[IoEvent]) -> Result<Figure, String> {
    let mcycle = console_samples(text, name, e.samples)?;
    let p = pair(record, &e.start, &e.end, Policy::Next);
    if p.merged > 0 {
        return Err(format!(
            "two start edges ({}) without an end ({}) between them",
            e.start, e.end
        ));
    }
    if let Some(end) = p.unpaired_ends.first() {
        return Err(format!(
            "an end edge ({}) without a start, at cycle {}",
            e.end, end.cycle
        ));
    }
    let pairs: Vec<(u64, u64)> = p
        .pairs
        .iter()
        .map(|x| (x.start.cycle, x.end.cycle))
        .collect();
    cross_check(&mcycle, &pairs, e.agreement)
}

/// Builds and runs every image, reduces each and writes `OUT/NAME.json`.
pub fn run(e: &Rhealstone, root: &Path, out: &Path, jobs: usize) -> Result<u8, Failure> {
    let name = &e.header.name;
    let (list, planned) = plan(e);
    announce(name, list.len(), out, e.rows.iter().map(|r| &r.os));
    let engine = Engine::new(name, root, &e.header.work(out), jobs)?;
    let results = engine.run(&list)?;
    let mut table: BTreeMap<String, Map<String, Value>> = BTreeMap::new();
    let mut bad = Vec::new();
    for ((p, r), j) in planned.iter().zip(&results).zip(&list) {
        let name = &e.figures[p.figure].name;
        match figure_of(e, name, &r.console, &r.record) {
            Ok(f) => {
                let keys = table.entry(p.label.clone()).or_default();
                keys.insert(name.clone(), f.mean.into());
                keys.insert(format!("{name}_min"), f.min.into());
                keys.insert(format!("{name}_max"), f.max.into());
                println!(
                    "rhealstone: {} {name}: mean {} min {} max {} cycles over {} samples; mcycle - edges = {} in {} of them",
                    p.label, f.mean, f.min, f.max, f.samples, f.offset, f.agree
                );
            }
            Err(m) => bad.push(format!(
                "job {}: {m} (its console output and IO record are in {})",
                j.label,
                engine.work.join("runs").join(&j.label).display()
            )),
        }
    }
    let path = e.header.json(out);
    if !table.is_empty() {
        let table: Map<String, Value> = table
            .into_iter()
            .map(|(k, v)| (k, Value::Object(v)))
            .collect();
        e.header.write_json(out, &Value::Object(table))?;
    }
    own_check(name, &bad)?;
    println!("rhealstone: wrote {}", path.display());
    Ok(0)
}

impl crate::experiment::kind::ExperimentKind for Rhealstone {
    fn check(&self, _root: &Path, out: &Path) -> Result<String, Failure> {
        Ok(check(self, out))
    }

    fn run(&self, root: &Path, out: &Path, jobs: usize) -> Result<u8, Failure> {
        run(self, root, out, jobs)
    }
}

#[cfg(test)]
mod tests;
