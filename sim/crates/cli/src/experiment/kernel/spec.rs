//! A kernel benchmark file (`kind = "kernel"`; the format is in mod.rs) read into its typed
//! spec: every table optional (its figures are then absent), each application directory
//! checked to hold a `system.toml`, the schedulers chosen by properties (select.rs), the
//! interrupt-latency events as selectors (measure::edges). Errors name the file, line and
//! column (exit 65; 66 for a machine file that cannot be read).

use crate::experiment::bench_header::BenchHeader;
use crate::experiment::fields::input_file_at;
use crate::experiment::measure::edges::{EventSel, Policy};
use crate::experiment::select::{RawSelect, Select};
use confread::{ConfigError, Doc};
use serde::Deserialize;
use std::path::{Path, PathBuf};
use sysdesc::Scheduler;
use toml::Spanned;

/// Each run's cycle limit without `max_cycles` (the benchmarks stop themselves long before).
pub const DEFAULT_MAX_CYCLES: u64 = 4_000_000_000;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    #[allow(dead_code)]
    kind: Option<Spanned<String>>,
    name: Option<Spanned<String>>,
    max_cycles: Option<Spanned<i64>>,
    sched: Option<RawSched>,
    coop: Option<RawApp>,
    irqoff: Option<RawApp>,
    irqlat: Option<RawIrqLat>,
    footprint: Option<RawFootprint>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawApp {
    app: Spanned<String>,
    schedulers: Option<RawSelect>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSched {
    app: Spanned<String>,
    schedulers: Option<RawSelect>,
    tasks: Spanned<Vec<Spanned<i64>>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawIrqLat {
    app: Spanned<String>,
    schedulers: Option<RawSelect>,
    machine: Spanned<String>,
    from: Spanned<String>,
    to: Spanned<String>,
    policy: Option<Spanned<String>>,
    store_cycles: Option<Spanned<i64>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFootprint {
    minimal: Option<Spanned<String>>,
    full: Option<Spanned<String>>,
}

/// A benchmark application and the schedulers it runs under (`None`: its own system.toml's).
#[derive(Clone, Debug, PartialEq)]
pub struct BenchApp {
    pub app: PathBuf,
    pub schedulers: Option<Vec<Scheduler>>,
}

/// The interrupt-latency benchmark: its application, the machine it runs on (with the
/// stimulus), the events paired and the cycles the answering store takes.
#[derive(Clone, Debug, PartialEq)]
pub struct IrqLatBench {
    pub bench: BenchApp,
    pub machine: PathBuf,
    pub from: EventSel,
    pub to: EventSel,
    pub policy: Policy,
    pub store_cycles: u64,
}

/// A kernel benchmark file, read.
#[derive(Clone, Debug)]
pub struct KernelBench {
    pub header: BenchHeader,
    pub max_cycles: u64,
    /// With the task counts `sched_overhead_cycles` reports.
    pub sched: Option<(BenchApp, Vec<u32>)>,
    pub coop: Option<BenchApp>,
    pub irqoff: Option<BenchApp>,
    pub irqlat: Option<IrqLatBench>,
    /// (`minimal` or `full`, its application).
    pub footprint: Vec<(&'static str, PathBuf)>,
}

/// An application directory named at `s` (relative to the repository `root`): it must hold
/// a `system.toml`.
pub fn app_dir(src: &Doc, root: &Path, s: &Spanned<String>) -> Result<PathBuf, ConfigError> {
    let dir = root.join(s.get_ref());
    if !dir.join("system.toml").is_file() {
        return Err(src.err(
            &s.span(),
            format!("{} has no system.toml", dir.display()),
            "an application directory (system.toml and its C sources), relative to the repository root",
        ));
    }
    Ok(dir)
}

/// `app` and `schedulers` of a benchmark's table.
pub fn bench_app(
    src: &Doc,
    root: &Path,
    app: &Spanned<String>,
    schedulers: &Option<RawSelect>,
) -> Result<BenchApp, ConfigError> {
    let app = app_dir(src, root, app)?;
    let schedulers = match schedulers {
        Some(s) => Some(Select::read(src, s)?.schedulers()),
        None => None,
    };
    Ok(BenchApp { app, schedulers })
}

/// Reads the file `path` (its text in `src`); applications are relative to `root`, the
/// machine file to the experiment file's directory.
pub fn parse(src: &Doc, path: &Path, root: &Path) -> Result<KernelBench, ConfigError> {
    let raw: Raw = src.parse()?;
    let header = BenchHeader::read(src, path, &raw.name)?;
    let max_cycles = match &raw.max_cycles {
        Some(m) => src.int_from_to(m, "max_cycles", 1, i64::MAX)? as u64,
        None => DEFAULT_MAX_CYCLES,
    };
    let sched = match &raw.sched {
        Some(s) => {
            let tasks =
                src.distinct_ints(&Some(s.tasks.clone()), "tasks", "task count", (1, 256), &[])?;
            Some((
                bench_app(src, root, &s.app, &s.schedulers)?,
                tasks.into_iter().map(|t| t as u32).collect(),
            ))
        }
        None => None,
    };
    let plain = |r: &Option<RawApp>| {
        r.as_ref()
            .map(|r| bench_app(src, root, &r.app, &r.schedulers))
            .transpose()
    };
    let coop = plain(&raw.coop)?;
    let irqoff = plain(&raw.irqoff)?;
    let irqlat = raw
        .irqlat
        .as_ref()
        .map(|r| irqlat(src, path, root, r))
        .transpose()?;
    let mut footprint = Vec::new();
    if let Some(f) = &raw.footprint {
        for (cfg, app) in [("minimal", &f.minimal), ("full", &f.full)] {
            if let Some(a) = app {
                footprint.push((cfg, app_dir(src, root, a)?));
            }
        }
    }
    Ok(KernelBench {
        header,
        max_cycles,
        sched,
        coop,
        irqoff,
        irqlat,
        footprint,
    })
}

fn irqlat(src: &Doc, path: &Path, root: &Path, r: &RawIrqLat) -> Result<IrqLatBench, ConfigError> {
    let bench = bench_app(src, root, &r.app, &r.schedulers)?;
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let machine = dir.join(r.machine.get_ref());
    input_file_at(src, &r.machine.span(), &machine, "the machine file")?;
    Ok(IrqLatBench {
        bench,
        machine,
        from: EventSel::read(src, &r.from)?,
        to: EventSel::read(src, &r.to)?,
        policy: Policy::read(src, &r.policy)?,
        store_cycles: match &r.store_cycles {
            Some(c) => src.int_from_to(c, "store_cycles", 0, 1000)? as u64,
            None => 0,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn root() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..")
    }

    fn read(text: &str) -> Result<KernelBench, ConfigError> {
        let src = Doc::text_only("bench/k.toml", text);
        parse(&src, &root().join("bench/k.toml"), &root())
    }

    fn err(text: &str) -> String {
        read(text).unwrap_err().to_string()
    }

    #[test]
    fn the_repository_file_reads() {
        let p = root().join("bench/kernel.toml");
        let text = std::fs::read_to_string(&p).unwrap();
        let src = Doc::text_only("bench/kernel.toml", &text);
        let k = parse(&src, &p, &root()).unwrap();
        assert_eq!(k.header.name, "kernel");
        let (sched, tasks) = k.sched.unwrap();
        assert_eq!(sched.schedulers.unwrap().len(), Scheduler::ALL.len());
        assert_eq!(tasks, [1, 2, 4, 8, 16, 32, 64, 128, 256]);
        let coop = k.coop.unwrap().schedulers.unwrap();
        assert!(coop.iter().all(|s| !s.policy().unique_priorities));
        assert!(k.irqoff.unwrap().schedulers.is_none());
        let l = k.irqlat.unwrap();
        assert_eq!((l.policy, l.store_cycles), (Policy::Merged, 2));
        assert_eq!(k.footprint.len(), 2);
    }

    #[test]
    fn every_table_is_optional() {
        let k = read("kind = \"kernel\"\n").unwrap();
        assert!(k.sched.is_none() && k.irqlat.is_none() && k.footprint.is_empty());
        assert_eq!(k.max_cycles, DEFAULT_MAX_CYCLES);
    }

    #[test]
    fn bad_input_is_located() {
        let e = err("kind = \"kernel\"\n[coop]\napp = \"bench/kernel/nope\"\n");
        assert!(e.starts_with("bench/k.toml:3:7"), "{e}");
        assert!(e.contains("has no system.toml"), "{e}");
        let e = err("kind = \"kernel\"\n[coop]\napp = \"bench/kernel/coop\"\nschedulers = { with = [\"fast\"] }\n");
        assert!(e.starts_with("bench/k.toml:4:"), "{e}");
        assert!(e.contains("\"fast\" is not a scheduler property"), "{e}");
        let e = err("kind = \"kernel\"\n[sched]\napp = \"bench/kernel/sched\"\ntasks = [4, 4]\n");
        assert!(
            e.starts_with("bench/k.toml:4:13") && e.contains("listed twice"),
            "{e}"
        );
        let irq = "kind = \"kernel\"\n[irqlat]\napp = \"bench/kernel/irqlat\"\nmachine = \"kernel/irqlat/machine.toml\"\n";
        let e = err(&format!("{irq}from = \"stimulus\"\nto = \"out:0\"\n"));
        assert!(
            e.starts_with("bench/k.toml:5:8") && e.contains("event \"stimulus\""),
            "{e}"
        );
        let e = err(&format!(
            "{irq}from = \"stimulus:0\"\nto = \"out:0\"\npolicy = \"soon\"\n"
        ));
        assert!(
            e.starts_with("bench/k.toml:7:10") && e.contains("not a pairing policy"),
            "{e}"
        );
        let e = err("kind = \"kernel\"\n[irqlat]\napp = \"bench/kernel/irqlat\"\nmachine = \"none.toml\"\nfrom = \"stimulus:0\"\nto = \"out:0\"\n");
        assert!(e.contains("none.toml"), "{e}");
        assert_eq!(read("kind = \"kernel\"\n[irqlat]\napp = \"bench/kernel/irqlat\"\nmachine = \"none.toml\"\nfrom = \"stimulus:0\"\nto = \"out:0\"\n").unwrap_err().exit_code(), 66);
        let e = err(
            "kind = \"kernel\"\n[coop]\napp = \"bench/kernel/coop\"\nschedulers = {}\nspeed = 1\n",
        );
        assert!(e.contains("speed"), "{e}");
        let e = err("kind = \"kernel\"\nmax_cycles = 0\n");
        assert!(e.starts_with("bench/k.toml:2:14"), "{e}");
    }
}
