//! The observers' cost (`kind = "observe"`, docs/observe.md, "Cost"): one firmware run with
//! no observer, with the energy and attribution observer (as `ubik run --energy`) and with
//! the trace observer (as `--trace`, the trace written), `rounds` times each, interleaved so
//! that a busy host slows all three alike. Writes `OUT/NAME.json`, `{"mips_bare": ..,
//! "mips_energy": .., "mips_trace": ..}`: the best MIPS of each. Host timing figures: they
//! vary from run to run and host to host. Each run's statistics (and the trace) are kept in
//! `OUT/NAME/`.
//!
//! ```toml
//! kind = "observe"
//! firmware = "build/firmware/compute.elf"  # relative to the repository root
//! rounds = 3
//! ```

use super::bench_header::BenchHeader;
use super::steps::io_fail;
use super::testbed::{read_firmware, run_elf};
use crate::run::Observe;
use crate::Failure;
use confread::{ConfigError, Doc};
use serde::Deserialize;
use std::path::{Path, PathBuf};
use toml::Spanned;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    #[allow(dead_code)]
    kind: Option<Spanned<String>>,
    name: Option<Spanned<String>>,
    firmware: Option<Spanned<String>>,
    rounds: Option<Spanned<i64>>,
}

/// An observers'-cost experiment.
#[derive(Debug)]
pub struct ObserveCost {
    pub header: BenchHeader,
    pub firmware: PathBuf,
    pub rounds: u32,
}

/// Reads the experiment file `path` (its text in `src`); `root` is the repository.
pub fn parse(src: &Doc, path: &Path, root: &Path) -> Result<ObserveCost, ConfigError> {
    let raw: Raw = src.parse()?;
    let header = BenchHeader::read(src, path, &raw.name)?;
    let firmware = read_firmware(src, root, &raw.firmware, "firmware")?;
    let rounds = match &raw.rounds {
        Some(r) => src.int_from_to(r, "rounds", 1, 100)? as u32,
        None => {
            return Err(src.err(
                &(0..0),
                "no `rounds`",
                "rounds = N (runs of each observer set; the best counts)",
            ))
        }
    };
    Ok(ObserveCost {
        header,
        firmware,
        rounds,
    })
}

/// The observer sets, by their keys' names.
const SETS: [(&str, Observe); 3] = [
    ("bare", Observe::Nothing),
    ("energy", Observe::Energy),
    ("trace", Observe::Timeline),
];

/// Runs every round and writes `OUT/NAME.json`.
pub fn run(e: &ObserveCost, out: &Path) -> Result<u8, Failure> {
    let dir = e.header.work(out);
    std::fs::create_dir_all(&dir).map_err(|err| io_fail("the output directory", &dir, err))?;
    let mut best = [0.0f64; 3];
    for round in 0..e.rounds {
        for (k, (set, observe)) in SETS.iter().enumerate() {
            let stats = dir.join(format!("{set}.{round}.json"));
            let trace = dir.join(format!("{set}.{round}.trace.json"));
            let what = format!("experiment {}: {set} round {round}", e.header.name);
            let trace = (*observe == Observe::Timeline).then_some(trace.as_path());
            let s = run_elf(&e.firmware, *observe, trace, &stats, &what)?;
            best[k] = best[k].max(s.mips);
        }
    }
    let [bare, energy, trace] = best;
    let path = e.header.write_json(
        out,
        &serde_json::json!({"mips_bare": bare, "mips_energy": energy, "mips_trace": trace}),
    )?;
    println!(
        "observe: {bare:.1} MIPS bare, {energy:.1} with --energy ({:.1} % slower), {trace:.1} with --trace ({:.1} % slower) -> {}",
        100.0 * (1.0 - energy / bare),
        100.0 * (1.0 - trace / bare),
        path.display()
    );
    Ok(0)
}

impl crate::experiment::kind::ExperimentKind for ObserveCost {
    fn check(&self, _root: &Path, out: &Path) -> Result<String, Failure> {
        Ok(format!(
            "{} runs -> {}",
            3 * self.rounds,
            self.header.json(out).display()
        ))
    }

    fn run(&self, root: &Path, out: &Path, jobs: usize) -> Result<u8, Failure> {
        let _ = (root, jobs);
        run(self, out)
    }
}
