//! The kernel's IPC figures (`kind = "ipc"`, `bench/ipc.toml`): the IPC benchmark
//! application's console figures (message passing by size, semaphores, mutexes, flags,
//! pools, the heap; kernel/reduce.rs) and the code size of each service from the link map of
//! an application that calls every service (kernel/footprint.rs), written to `OUT/ipc.json`
//! (docs/contract.md, "Benchmark files"; methods in docs/results.md, "IPC").
//!
//! ```toml
//! kind = "ipc"
//! max_cycles = 4_000_000_000          # each run's limit (default 4e9)
//! app = "bench/kernel/ipc"            # relative to the repository root; its own scheduler
//! [footprint]                         # footprint_text_bytes[SERVICE]
//! app = "bench/kernel/footprint_services"
//! services = ["queue", "port"]        # each kernel/src/SERVICE.c
//! ```
//!
//! `[footprint]` is optional (without it, no `footprint_text_bytes`). The build and run
//! material stays in `OUT/NAME/` (jobs/).

use super::bench_header::BenchHeader;
use super::jobs::{Engine, MachineSrc};
use super::kernel::spec::{app_dir, DEFAULT_MAX_CYCLES};
use super::kernel::{app, footprint, reduce};
use crate::{code, Failure};
use confread::{ConfigError, Doc};
use serde::Deserialize;
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};
use toml::Spanned;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    #[allow(dead_code)]
    kind: Option<Spanned<String>>,
    name: Option<Spanned<String>>,
    max_cycles: Option<Spanned<i64>>,
    app: Spanned<String>,
    footprint: Option<RawFootprint>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFootprint {
    app: Spanned<String>,
    services: Vec<Spanned<String>>,
}

/// An IPC benchmark file, read.
#[derive(Clone, Debug)]
pub struct IpcBench {
    pub header: BenchHeader,
    pub max_cycles: u64,
    pub app: PathBuf,
    /// The footprint application and the services measured in it.
    pub footprint: Option<(PathBuf, Vec<String>)>,
}

/// A service's name: a file `kernel/src/NAME.c`, so letters, digits and '_'.
fn service(src: &Doc, s: &Spanned<String>) -> Result<String, ConfigError> {
    let n = s.get_ref();
    if n.is_empty() || !n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(src.err(
            &s.span(),
            format!("service {n:?} is not a source file's name"),
            "the NAME of kernel/src/NAME.c (letters, digits and '_')",
        ));
    }
    Ok(n.clone())
}

/// Reads the file `path` (its text in `src`); applications are relative to `root`.
pub fn parse(src: &Doc, path: &Path, root: &Path) -> Result<IpcBench, ConfigError> {
    let raw: Raw = src.parse()?;
    let header = BenchHeader::read(src, path, &raw.name)?;
    let max_cycles = match &raw.max_cycles {
        Some(m) => src.int_from_to(m, "max_cycles", 1, i64::MAX)? as u64,
        None => DEFAULT_MAX_CYCLES,
    };
    let app = app_dir(src, root, &raw.app)?;
    let footprint = match &raw.footprint {
        Some(f) => {
            let mut names: Vec<String> = Vec::new();
            for s in &f.services {
                let n = service(src, s)?;
                if names.contains(&n) {
                    return Err(super::fields::twice(
                        src,
                        &s.span(),
                        format!("service {n:?}"),
                    ));
                }
                names.push(n);
            }
            Some((app_dir(src, root, &f.app)?, names))
        }
        None => None,
    };
    Ok(IpcBench {
        header,
        max_cycles,
        app,
        footprint,
    })
}

/// `--check`'s summary.
pub fn check(b: &IpcBench, out: &Path) -> Result<String, Failure> {
    let n = 1 + usize::from(b.footprint.is_some());
    Ok(format!("{n} runs -> {}", b.header.json(out).display()))
}

/// Builds and runs the applications, writes `OUT/NAME.json`; 0.
pub fn run(b: &IpcBench, root: &Path, out: &Path, jobs: usize) -> Result<u8, Failure> {
    let work = b.header.work(out);
    let mut list = vec![app::job(
        "ipc".into(),
        &b.app,
        None,
        MachineSrc::Default,
        b.max_cycles,
        false,
    )?];
    if let Some((dir, _)) = &b.footprint {
        list.push(app::job(
            "footprint_services".into(),
            dir,
            None,
            MachineSrc::Default,
            b.max_cycles,
            false,
        )?);
    }
    let results = Engine::new(&b.header.name, root, &work, jobs)?.run(&list)?;
    let mut res = reduce::ipc(&results[0].console).map_err(|why| {
        let console = work.join("runs/ipc/console.txt");
        Failure::new(
            code::DATA,
            format!(
                "experiment {}: job ipc: {}: {why}",
                b.header.name,
                console.display()
            ),
        )
    })?;
    if let Some((_, services)) = &b.footprint {
        let map_path = app::build_dir(&work, &list, 1).join("app.map");
        let map = std::fs::read_to_string(&map_path).map_err(|e| {
            Failure::new(
                code::NO_INPUT,
                format!("cannot read {}: {e}", map_path.display()),
            )
        })?;
        let sizes: Map<String, Value> = footprint::services(&footprint::map_inputs(&map), services)
            .into_iter()
            .map(|(k, v)| (k, v.into()))
            .collect();
        res.insert("footprint_text_bytes".into(), Value::Object(sizes));
    }
    let p = b.header.write_json(out, &Value::Object(res))?;
    println!("experiment {}: wrote {}", b.header.name, p.display());
    Ok(0)
}

impl crate::experiment::kind::ExperimentKind for IpcBench {
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

    fn root() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..")
    }

    #[test]
    fn the_repository_file_reads_and_bad_services_are_located() {
        let p = root().join("bench/ipc.toml");
        let text = std::fs::read_to_string(&p).unwrap();
        let b = parse(&Doc::text_only("bench/ipc.toml", &text), &p, &root()).unwrap();
        assert_eq!(b.header.name, "ipc");
        assert_eq!(b.footprint.unwrap().1.len(), 8);
        let read = |t: &str| {
            parse(
                &Doc::text_only("b.toml", t),
                &root().join("b.toml"),
                &root(),
            )
        };
        let head = "kind = \"ipc\"\napp = \"bench/kernel/ipc\"\n[footprint]\napp = \"bench/kernel/footprint_services\"\n";
        let e = read(&format!("{head}services = [\"queue\", \"../x\"]\n"))
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("b.toml:5:22") && e.contains("not a source file"),
            "{e}"
        );
        let e = read(&format!("{head}services = [\"queue\", \"queue\"]\n"))
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("b.toml:5:22") && e.contains("listed twice"),
            "{e}"
        );
        let e = read("kind = \"ipc\"\n").unwrap_err().to_string();
        assert!(e.contains("app"), "{e}");
    }
}
