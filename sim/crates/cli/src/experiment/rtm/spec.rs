//! An RTM benchmark file (`kind = "rtm"`; the format is in mod.rs) read into its typed spec.
//! Errors name the file, line and column (exit 65; 66 for the synthesis script or Verilog
//! that cannot be read).

use crate::experiment::bench_header::BenchHeader;
use crate::experiment::fields::input_file_at;
use crate::experiment::kernel::spec::{app_dir, DEFAULT_MAX_CYCLES};
use crate::experiment::select::{RawSelect, Select};
use confread::{ConfigError, Doc};
use serde::Deserialize;
use std::path::{Path, PathBuf};
use sysdesc::Scheduler;
use toml::Spanned;

/// The RTM's record counts the machine takes (docs/machine.md, `[rtm] records`).
const RECORDS: (i64, i64) = (1, 256);

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    #[allow(dead_code)]
    kind: Option<Spanned<String>>,
    name: Option<Spanned<String>>,
    max_cycles: Option<Spanned<i64>>,
    app: Spanned<String>,
    schedulers: RawSelect,
    records: Spanned<Vec<Spanned<i64>>>,
    utilisation: Option<String>,
    synthesis: Option<RawSynthesis>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSynthesis {
    script: Spanned<String>,
    verilog: Spanned<String>,
    records: Spanned<Vec<Spanned<i64>>>,
    reference: Spanned<i64>,
    cache: String,
}

/// The synthesis step.
#[derive(Clone, Debug)]
pub struct Synthesis {
    pub script: PathBuf,
    pub verilog: PathBuf,
    pub records: Vec<u64>,
    pub reference: u64,
    pub cache: PathBuf,
}

/// An RTM benchmark file, read.
#[derive(Clone, Debug)]
pub struct RtmBench {
    pub header: BenchHeader,
    pub max_cycles: u64,
    pub app: PathBuf,
    pub schedulers: Vec<Scheduler>,
    pub records: Vec<u64>,
    pub utilisation: Option<PathBuf>,
    pub synthesis: Option<Synthesis>,
}

fn counts(src: &Doc, v: &Spanned<Vec<Spanned<i64>>>, key: &str) -> Result<Vec<u64>, ConfigError> {
    Ok(src
        .distinct_ints(&Some(v.clone()), key, "record count", RECORDS, &[])?
        .into_iter()
        .map(|r| r as u64)
        .collect())
}

fn synthesis(src: &Doc, root: &Path, s: &RawSynthesis) -> Result<Synthesis, ConfigError> {
    let script = root.join(s.script.get_ref());
    input_file_at(src, &s.script.span(), &script, "the synthesis script")?;
    let verilog = root.join(s.verilog.get_ref());
    input_file_at(src, &s.verilog.span(), &verilog, "the Verilog")?;
    let records = counts(src, &s.records, "synthesis.records")?;
    let reference = *s.reference.get_ref();
    if !records.contains(&(reference.max(0) as u64)) {
        return Err(src.err(
            &s.reference.span(),
            format!("reference {reference} is not one of synthesis.records"),
            "one of the record counts synthesised",
        ));
    }
    Ok(Synthesis {
        script,
        verilog,
        records,
        reference: reference as u64,
        cache: root.join(&s.cache),
    })
}

/// Reads the file `path` (its text in `src`); paths are relative to `root`.
pub fn parse(src: &Doc, path: &Path, root: &Path) -> Result<RtmBench, ConfigError> {
    let raw: Raw = src.parse()?;
    let header = BenchHeader::read(src, path, &raw.name)?;
    let max_cycles = match &raw.max_cycles {
        Some(m) => src.int_from_to(m, "max_cycles", 1, i64::MAX)? as u64,
        None => DEFAULT_MAX_CYCLES,
    };
    Ok(RtmBench {
        header,
        max_cycles,
        app: app_dir(src, root, &raw.app)?,
        schedulers: Select::read(src, &raw.schedulers)?.schedulers(),
        records: counts(src, &raw.records, "records")?,
        utilisation: raw.utilisation.as_ref().map(|u| root.join(u)),
        synthesis: raw
            .synthesis
            .as_ref()
            .map(|s| synthesis(src, root, s))
            .transpose()?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn root() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..")
    }

    fn read(text: &str) -> Result<RtmBench, ConfigError> {
        let src = Doc::text_only("bench/r.toml", text);
        parse(&src, &root().join("bench/r.toml"), &root())
    }

    #[test]
    fn the_repository_file_reads() {
        let p = root().join("bench/rtm.toml");
        let text = std::fs::read_to_string(&p).unwrap();
        let b = parse(&Doc::text_only("bench/rtm.toml", &text), &p, &root()).unwrap();
        assert_eq!(b.header.name, "rtm");
        assert_eq!(b.schedulers, [Scheduler::named("rtm")]);
        assert_eq!(b.records, [16, 64, 256]);
        let s = b.synthesis.unwrap();
        assert_eq!((s.records.len(), s.reference), (3, 64));
    }

    #[test]
    fn bad_input_is_located() {
        let head = "kind = \"rtm\"\napp = \"bench/kernel/sched\"\nschedulers = {}\n";
        let e = read(&format!("{head}records = [0]\n"))
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("bench/r.toml:4:12") && e.contains("out of range"),
            "{e}"
        );
        let syn = "[synthesis]\nscript = \"hw/rtm/synth.sh\"\nverilog = \"hw/rtm/rtm.v\"\nrecords = [16]\ncache = \"build/x\"\n";
        let e = read(&format!("{head}records = [16]\n{syn}reference = 64\n"))
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("bench/r.toml:10:13") && e.contains("reference 64"),
            "{e}"
        );
        let e = read(&format!(
            "{head}records = [16]\n{}reference = 16\n",
            syn.replace("rtm.v", "none.v")
        ))
        .unwrap_err();
        assert_eq!(e.exit_code(), 66);
        assert!(e.to_string().starts_with("bench/r.toml:7:"), "{e}");
        let e = read("kind = \"rtm\"\napp = \"bench/kernel/sched\"\nrecords = [16]\n").unwrap_err();
        assert!(e.to_string().contains("schedulers"), "{e}");
    }
}
