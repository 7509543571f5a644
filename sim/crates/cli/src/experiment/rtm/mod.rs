//! The RTM's figures (`kind = "rtm"`, `bench/rtm.toml`) -> `OUT/rtm.json` (docs/contract.md,
//! "Benchmark files"): the scheduling-overhead benchmark (`bench/kernel/sched`) under the
//! RTM's schedulers, run with each record count of the RTM (the machine's `[rtm] records`);
//! the RTM's Verilog synthesised by a script (`hw/rtm/synth.sh`, Yosys; minutes, so its
//! results are kept in a cache file and redone when the script or the Verilog is newer, or
//! other record counts are asked for); and the OS utilisation of the RTM experiment, read
//! from its `variants.csv` if it has run (figures.rs).
//!
//! ```toml
//! kind = "rtm"
//! max_cycles = 4_000_000_000           # each run's limit (default 4e9)
//! app = "bench/kernel/sched"           # relative to the repository root
//! schedulers = { with = ["task_manager"] } # sched_overhead_cycles[SCHED][R]
//! records = [16, 64, 256]              # R: the RTM's record counts
//! utilisation = "out/rtm/variants.csv" # optional; absent file: no `utilisation`
//! [synthesis]                          # optional
//! script = "hw/rtm/synth.sh"           # prints one JSON object a line; takes the counts
//! verilog = "hw/rtm/rtm.v"
//! records = [16, 64, 256]
//! reference = 64                       # records, flip_flops, cells, logic_depth of this one
//! cache = "build/rtm-synth.jsonl"
//! ```
//!
//! Paths are relative to the repository root. The build and run material stays in
//! `OUT/NAME/` (jobs/).

pub mod figures;
mod spec;

use super::jobs::{Engine, MachineSrc};
use super::kernel::{app, reduce};
use crate::{code, Failure};
use serde_json::{Map, Value};
pub use spec::{parse, RtmBench, Synthesis};
use std::path::Path;
use std::process::Command;

/// `--check`'s summary.
pub fn check(b: &RtmBench, out: &Path) -> Result<String, Failure> {
    let n = b.schedulers.len() * b.records.len();
    Ok(format!("{n} runs -> {}", b.header.json(out).display()))
}

/// Builds and runs the benchmark at every record count, synthesises (or reads the cache),
/// writes `OUT/NAME.json`; 0.
pub fn run(b: &RtmBench, root: &Path, out: &Path, jobs: usize) -> Result<u8, Failure> {
    let work = b.header.work(out);
    let mut list = Vec::new();
    for s in &b.schedulers {
        for r in &b.records {
            let machine = MachineSrc::Inline {
                name: format!("rtm-{r}.toml"),
                text: format!("[rtm]\nrecords = {r}\n"),
            };
            let label = format!("sched-{}-{r}", s.name());
            list.push((
                s.name(),
                *r,
                app::job(label, &b.app, Some(*s), machine, b.max_cycles, false)?,
            ));
        }
    }
    let job_list: Vec<_> = list.iter().map(|(_, _, j)| j.clone()).collect();
    let results = Engine::new(&b.header.name, root, &work, jobs)?.run(&job_list)?;
    let mut res = Map::new();
    if let Some(syn) = &b.synthesis {
        let synth = synthesise(syn, root)?;
        if let Some(r) = figures::reference(&synth, syn.reference) {
            res.insert("records".into(), syn.reference.into());
            for k in ["flip_flops", "cells", "logic_depth"] {
                res.insert(k.into(), r[k].clone());
            }
        }
        res.insert(
            "synthesis".into(),
            Value::Array(synth.into_iter().map(Value::Object).collect()),
        );
    }
    let mut overhead = Map::new();
    for ((sched, records, job), r) in list.iter().zip(&results) {
        let console = work.join("runs").join(&job.label).join("console.txt");
        let bad = |why: String| {
            Failure::new(
                code::DATA,
                format!(
                    "experiment {}: job {}: {}: {why}",
                    b.header.name,
                    job.label,
                    console.display()
                ),
            )
        };
        let worst = reduce::worst_sched(&r.console)
            .map_err(bad)?
            .ok_or_else(|| bad("no sched_ lines".into()))?;
        let row = overhead
            .entry(*sched)
            .or_insert_with(|| Value::Object(Map::new()));
        if let Value::Object(m) = row {
            m.insert(records.to_string(), worst.into());
        }
    }
    res.insert("sched_overhead_cycles".into(), Value::Object(overhead));
    if let Some(u) = &b.utilisation {
        if let Some(util) = utilisation(u)? {
            res.insert("utilisation".into(), Value::Object(util));
        }
    }
    let p = b.header.write_json(out, &Value::Object(res))?;
    println!("experiment {}: wrote {}", b.header.name, p.display());
    Ok(0)
}

/// The RTM experiment's utilisation from `path`, None if it has not run (no file).
fn utilisation(path: &Path) -> Result<Option<Map<String, Value>>, Failure> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => {
            return Err(Failure::new(
                code::NO_INPUT,
                format!("cannot read {}: {e}", path.display()),
            ))
        }
    };
    figures::utilisation(&text)
        .map(Some)
        .map_err(|why| Failure::new(code::DATA, format!("{}: {why}", path.display())))
}

/// Is the cache at `s.cache` older than the script or the Verilog?
fn stale(s: &Synthesis) -> bool {
    let time = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
    match time(&s.cache) {
        Some(c) => [&s.script, &s.verilog]
            .iter()
            .any(|p| time(p).is_none_or(|t| t > c)),
        None => true,
    }
}

/// The synthesis results: the cache's when it is current and holds the record counts asked
/// for, else the script's (kept in the cache).
fn synthesise(s: &Synthesis, root: &Path) -> Result<Vec<Map<String, Value>>, Failure> {
    let counts = |v: &[Map<String, Value>]| {
        let mut c: Vec<u64> = v.iter().filter_map(|m| m["records"].as_u64()).collect();
        c.sort_unstable();
        c.dedup();
        c
    };
    let mut want = s.records.clone();
    want.sort_unstable();
    if !stale(s) {
        if let Ok(text) = std::fs::read_to_string(&s.cache) {
            if let Ok(v) = figures::synthesis(&text) {
                if counts(&v) == want {
                    return Ok(v);
                }
            }
        }
    }
    eprintln!("  synthesising with {} (minutes)", s.script.display());
    let o = Command::new(&s.script)
        .args(s.records.iter().map(u64::to_string))
        .current_dir(root)
        .output()
        .map_err(|e| {
            Failure::new(
                code::UNAVAILABLE,
                format!("cannot start {}: {e}", s.script.display()),
            )
        })?;
    if !o.status.success() {
        let err = String::from_utf8_lossy(&o.stderr);
        let last = err
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("");
        return Err(Failure::new(
            code::UNAVAILABLE,
            format!("{} failed: {last}", s.script.display()),
        ));
    }
    let text = String::from_utf8_lossy(&o.stdout).into_owned();
    let v = figures::synthesis(&text).map_err(|why| {
        Failure::new(
            code::INTERNAL,
            format!("{} printed {why}", s.script.display()),
        )
    })?;
    if let Some(dir) = s.cache.parent() {
        std::fs::create_dir_all(dir).map_err(|e| super::steps::io_fail("the cache", dir, e))?;
    }
    std::fs::write(&s.cache, text)
        .map_err(|e| super::steps::io_fail("the synthesis cache", &s.cache, e))?;
    Ok(v)
}

impl crate::experiment::kind::ExperimentKind for RtmBench {
    fn check(&self, _root: &Path, out: &Path) -> Result<String, Failure> {
        check(self, out)
    }

    fn run(&self, root: &Path, out: &Path, jobs: usize) -> Result<u8, Failure> {
        run(self, root, out, jobs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    /// A stand-in synthesis script: prints one line per record count given, and counts its
    /// calls in `calls`.
    fn fake(dir: &Path) -> Synthesis {
        let script = dir.join("synth.sh");
        let text = "#!/bin/sh\necho x >> \"$(dirname \"$0\")/calls\"\nfor r in \"$@\"; do\n  echo \"{\\\"records\\\": $r, \\\"deadlines\\\": 0, \\\"flip_flops\\\": $r, \\\"cells\\\": 2, \\\"logic_depth\\\": 3}\"\ndone\n";
        std::fs::write(&script, text).unwrap();
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
        let verilog = dir.join("rtm.v");
        std::fs::write(&verilog, "module rtm; endmodule\n").unwrap();
        Synthesis {
            script,
            verilog,
            records: vec![16, 64],
            reference: 64,
            cache: dir.join("cache/synth.jsonl"),
        }
    }

    fn ok(s: &Synthesis, dir: &Path) -> Vec<Map<String, Value>> {
        synthesise(s, dir).unwrap_or_else(|e| panic!("{}", e.message))
    }

    fn calls(dir: &Path) -> usize {
        std::fs::read_to_string(dir.join("calls")).map_or(0, |t| t.lines().count())
    }

    #[test]
    fn the_script_runs_once_and_its_cache_serves_until_the_counts_change() {
        let dir = std::env::temp_dir().join(format!("ubik-rtm-synth-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let mut s = fake(&dir);
        let v = ok(&s, &dir);
        assert_eq!(v.len(), 2);
        assert_eq!(figures::reference(&v, 64).unwrap()["flip_flops"], 64);
        assert_eq!(calls(&dir), 1);
        ok(&s, &dir);
        assert_eq!(calls(&dir), 1, "the cache serves");
        s.records = vec![16];
        assert_eq!(ok(&s, &dir).len(), 1);
        assert_eq!(calls(&dir), 2, "other counts: synthesised again");
        std::fs::write(&s.script, "#!/bin/sh\necho 'yosys not found' >&2\nexit 1\n").unwrap();
        s.records = vec![256];
        let Err(e) = synthesise(&s, &dir) else {
            panic!("a failing script succeeded");
        };
        assert_eq!(e.code, code::UNAVAILABLE);
        assert!(
            e.message.ends_with("failed: yosys not found"),
            "{}",
            e.message
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
