//! The testbed's speed (`kind = "testbed"`): a compute-bound firmware and an idle one, each
//! run once without any observer (as `ubik run --no-energy` runs), in this process. Writes
//! `OUT/NAME.json`, `{"mips": M, "idle_speedup": S}`: M the compute run's simulated
//! instructions per host microsecond, S the idle run's simulated seconds per host second.
//! Both are host timing figures: they vary from run to run and host to host. Each run's
//! statistics are kept in `OUT/NAME/{compute,idle}.stats.json`.
//!
//! ```toml
//! kind = "testbed"
//! compute = "build/firmware/compute.elf"  # relative to the repository root (make firmware)
//! idle = "build/firmware/idle.elf"
//! ```

use super::bench_header::BenchHeader;
use super::fields::input_file_at;
use super::jobs::load_image;
use super::steps::io_fail;
use crate::run::{outcome_status, simulate, Observe, Simulation, TraceStream};
use crate::run_stats::{write_stats, Stats};
use crate::{code, Failure};
use confread::{ConfigError, Doc};
use machine::config::MachineConfig;
use serde::Deserialize;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use toml::Spanned;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    #[allow(dead_code)]
    kind: Option<Spanned<String>>,
    name: Option<Spanned<String>>,
    compute: Option<Spanned<String>>,
    idle: Option<Spanned<String>>,
}

/// A testbed-speed experiment.
#[derive(Debug)]
pub struct Testbed {
    pub header: BenchHeader,
    pub compute: PathBuf,
    pub idle: PathBuf,
}

/// A firmware an experiment runs as built (`key = "path"`, relative to the repository
/// `root`): it must be readable, else 66 at its line.
pub(super) fn read_firmware(
    src: &Doc,
    root: &Path,
    v: &Option<Spanned<String>>,
    key: &str,
) -> Result<PathBuf, ConfigError> {
    let Some(s) = v else {
        return Err(src.err(
            &(0..0),
            format!("no `{key}`"),
            format!(
                "{key} = \"build/firmware/NAME.elf\" (an ELF, relative to the repository root)"
            ),
        ));
    };
    let p = root.join(s.get_ref());
    input_file_at(src, &s.span(), &p, "the firmware (make firmware builds it)")?;
    Ok(p)
}

/// Reads the experiment file `path` (its text in `src`); `root` is the repository.
pub fn parse(src: &Doc, path: &Path, root: &Path) -> Result<Testbed, ConfigError> {
    let raw: Raw = src.parse()?;
    let header = BenchHeader::read(src, path, &raw.name)?;
    let compute = read_firmware(src, root, &raw.compute, "compute")?;
    let idle = read_firmware(src, root, &raw.idle, "idle")?;
    Ok(Testbed {
        header,
        compute,
        idle,
    })
}

/// Runs `elf` on the built-in machine until it stops, observed as `observe` says (with a
/// trace written to `trace`, for `Observe::Timeline`); its statistics, written to `stats`.
/// `what` names the run in messages.
pub(super) fn run_elf(
    elf: &Path,
    observe: Observe,
    trace: Option<&Path>,
    stats: &Path,
    what: &str,
) -> Result<Stats, Failure> {
    let cfg = MachineConfig::default();
    let image = load_image(elf, &cfg, what)?;
    let trace_path = trace;
    let trace = trace.map(|p| TraceStream {
        out: std::fs::File::create(p)
            .map(|f| Box::new(std::io::BufWriter::new(f)) as Box<dyn std::io::Write>),
        process: format!("ubik: {}", elf.display()),
        protobuf: crate::run::trace_is_protobuf(p),
    });
    let stop = AtomicBool::new(false);
    let done = simulate(Simulation {
        cfg: &cfg,
        image: &image,
        seed: 1,
        max_cycles: None,
        max_time_fs: None,
        observe,
        record: trace.is_some(),
        itrace: None,
        console: Box::new(std::io::sink()),
        stop: &stop,
        gdb: None,
        trace,
    });
    if let (Some(Err(e)), Some(p)) = (&done.trace_written, trace_path) {
        return Err(io_fail("the trace", p, e));
    }
    match outcome_status(elf, &done.outcome, &done.machine, &done.counts, None) {
        Ok(0) => {}
        Ok(c) => {
            return Err(Failure::new(
                c,
                format!("{what}: the firmware stopped with exit code {c}"),
            ))
        }
        Err(f) => return Err(Failure::new(f.code, format!("{what}: {}", f.message))),
    }
    write_stats(stats, &done.stats).map_err(|e| io_fail("statistics", stats, e))?;
    Ok(done.stats)
}

/// Runs both firmwares and writes `OUT/NAME.json`.
pub fn run(e: &Testbed, out: &Path) -> Result<u8, Failure> {
    let dir = e.header.work(out);
    std::fs::create_dir_all(&dir).map_err(|err| io_fail("the output directory", &dir, err))?;
    let what = |k: &str| format!("experiment {}: the {k} run", e.header.name);
    let c = run_elf(
        &e.compute,
        Observe::Nothing,
        None,
        &dir.join("compute.stats.json"),
        &what("compute"),
    )?;
    let i = run_elf(
        &e.idle,
        Observe::Nothing,
        None,
        &dir.join("idle.stats.json"),
        &what("idle"),
    )?;
    if i.host_seconds <= 0.0 {
        return Err(Failure::new(
            code::INTERNAL,
            format!(
                "{}: host_seconds is {}, expected > 0",
                what("idle"),
                i.host_seconds
            ),
        ));
    }
    let speedup = i.sim_time_s / i.host_seconds;
    let path = e.header.write_json(
        out,
        &serde_json::json!({"mips": c.mips, "idle_speedup": speedup}),
    )?;
    println!(
        "testbed: {:.1} MIPS compute-bound, idle speedup {speedup:.0}x (simulated s per host s) -> {}",
        c.mips,
        path.display()
    );
    Ok(0)
}

impl crate::experiment::kind::ExperimentKind for Testbed {
    fn check(&self, _root: &Path, out: &Path) -> Result<String, Failure> {
        Ok(format!("2 runs -> {}", self.header.json(out).display()))
    }

    fn run(&self, root: &Path, out: &Path, jobs: usize) -> Result<u8, Failure> {
        let _ = (root, jobs);
        run(self, out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::kind::Spec;
    use crate::experiment::observers::ObserveCost;

    /// Reads `text` as `bench/x.toml` of a repository at a temporary root holding
    /// `build/firmware/a.elf`.
    fn read(text: &str) -> Result<Spec, String> {
        read_spec(text)
    }

    /// The error reading `text`.
    fn err(text: &str) -> String {
        match read_spec(text) {
            Ok(_) => panic!("{text} accepted"),
            Err(e) => e,
        }
    }

    fn read_spec(text: &str) -> Result<Spec, String> {
        let root = std::env::temp_dir().join(format!("ubik-testbed-{}", std::process::id()));
        std::fs::create_dir_all(root.join("build/firmware")).unwrap();
        std::fs::write(root.join("build/firmware/a.elf"), b"x").unwrap();
        let src = Doc::text_only("x.toml", text);
        Spec::read(&src, &root.join("bench/x.toml"), &root).map_err(|e| e.to_string())
    }

    #[test]
    fn the_firmwares_are_relative_to_the_root_and_must_exist() {
        let ok = "kind = \"testbed\"\ncompute = \"build/firmware/a.elf\"\nidle = \"build/firmware/a.elf\"\n";
        let t = read(ok).unwrap().downcast::<Testbed>();
        let t = t.expect("not a testbed experiment");
        assert_eq!(t.header.name, "x");
        assert!(t.idle.ends_with("build/firmware/a.elf"));
        let e = err("kind = \"testbed\"\ncompute = \"build/firmware/a.elf\"\nidle = \"b.elf\"\n");
        assert!(e.starts_with("x.toml:3:8: cannot read the firmware"), "{e}");
        let e = err("kind = \"testbed\"\ncompute = \"build/firmware/a.elf\"\n");
        assert!(e.contains("no `idle`"), "{e}");
    }

    #[test]
    fn the_observers_cost_takes_rounds() {
        let f = "kind = \"observe\"\nfirmware = \"build/firmware/a.elf\"\n";
        let o = read(&format!("{f}rounds = 5\n"))
            .unwrap()
            .downcast::<ObserveCost>();
        assert_eq!(o.expect("not an observe experiment").rounds, 5);
        let e = err(&format!("{f}rounds = 0\n"));
        assert!(
            e.starts_with("x.toml:3:10: rounds = 0 is out of range"),
            "{e}"
        );
        let e = err(&format!("{f}rounds = 3\nround = 4\n"));
        assert!(e.contains("round"), "{e}");
    }
}
