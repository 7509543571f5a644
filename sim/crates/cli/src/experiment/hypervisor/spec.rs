//! The hypervisor experiment's file (`kind = "hypervisor"`, bench/hypervisor.toml), read
//! into a typed [`HypervisorSpec`]: every key checked with its line and column.
//!
//! ```toml
//! kind = "hypervisor"
//! name = "hypervisor"        # optional: the result's name, OUT/NAME.json (default: the stem)
//! rt = "bench/hypervisor/rt" # the real-time application (relative to the repository)
//! gp = "bench/hypervisor/gp" # the general-purpose one
//! policies = ["fair", "rt"]  # the hypervisor's policies, each once
//! slice_us = 10000           # [hypervisor] slice_us
//! period_us = 10000          # [hypervisor] period_us (rt)
//! min_share = 0.1            # [hypervisor] min_share (rt)
//! rt_event_period_us = 1013  # line 3's periodic events (each starts a burst)
//! rt_probe_period_us = 193   # line 4's probes
//! rt_bursts = 150            # bursts, then the real-time application stops
//! rt_burst = 200             # round trips per burst
//! headline_load = "medium"   # optional: the load of gp_throughput (default: the first)
//! [[load]]                   # at least one
//! name = "light"             # names its runs
//! tick_hz = 100              # the general-purpose kernel's tick
//! device_period_us = 0       # line 5's device events (0: none)
//! words = 256                # GP_WORDS: the words a work unit sweeps
//! [expect]                   # optional
//! findings = true            # check the study's findings (exit 1 when one does not hold)
//! ```

use crate::experiment::bench_header::BenchHeader;
use crate::experiment::header::is_dir_name;
use confread::{ConfigError, Doc};
use serde::Deserialize;
use std::path::{Path, PathBuf};
use toml::Spanned;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    #[allow(dead_code)] // read by Kind::of; here only accepted
    kind: String,
    name: Option<Spanned<String>>,
    rt: Spanned<String>,
    gp: Spanned<String>,
    policies: Spanned<Vec<Spanned<String>>>,
    slice_us: Spanned<i64>,
    period_us: Spanned<i64>,
    min_share: Spanned<f64>,
    rt_event_period_us: Spanned<i64>,
    rt_probe_period_us: Spanned<i64>,
    rt_bursts: Spanned<i64>,
    rt_burst: Spanned<i64>,
    headline_load: Option<Spanned<String>>,
    load: Spanned<Vec<Spanned<RawLoad>>>,
    expect: Option<RawExpect>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLoad {
    name: Spanned<String>,
    tick_hz: Spanned<i64>,
    device_period_us: Spanned<i64>,
    words: Spanned<i64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawExpect {
    findings: Spanned<bool>,
}

/// One load of the general-purpose partition.
pub struct Load {
    pub name: String,
    pub tick_hz: u32,
    /// Line 5's event period (0: no device).
    pub device_period_us: u64,
    /// GP_WORDS.
    pub words: u32,
}

/// The hypervisor experiment, checked.
pub struct HypervisorSpec {
    /// The result's name: `OUT/NAME.json`, its material in `OUT/NAME/`.
    pub header: BenchHeader,
    /// The applications' directories (absolute: under the repository).
    pub rt: PathBuf,
    pub gp: PathBuf,
    /// "fair", "rt": each once, in the file's order.
    pub policies: Vec<String>,
    pub slice_us: u64,
    pub period_us: u64,
    pub min_share: f64,
    pub rt_event_period_us: u64,
    pub rt_probe_period_us: u64,
    pub rt_bursts: u32,
    pub rt_burst: u32,
    pub headline_load: String,
    pub loads: Vec<Load>,
    /// `[expect] findings`: check the study's findings.
    pub findings: bool,
    /// The file's keys (the loads as `loads`), for the result's `setup`.
    pub setup: serde_json::Value,
}

/// `v` if it is in `lo..=hi`; else `KEY = N is out of range` at `v`.
fn range(src: &Doc, v: &Spanned<i64>, key: &str, lo: i64, hi: i64) -> Result<i64, ConfigError> {
    let n = *v.get_ref();
    if (lo..=hi).contains(&n) {
        Ok(n)
    } else {
        Err(src.err(
            &v.span(),
            format!("{key} = {n} is out of range"),
            format!("{lo}..={hi}"),
        ))
    }
}

/// The applications' directories (absolute): each relative to the repository `root`, with a
/// `system.toml` there.
fn app_dir(src: &Doc, app: &Spanned<String>, root: &Path) -> Result<PathBuf, ConfigError> {
    // (an absolute path would replace the repository's in the join)
    if Path::new(app.get_ref()).is_absolute()
        || !root.join(app.get_ref()).join("system.toml").is_file()
    {
        return Err(src.err(
            &app.span(),
            format!("no application at {:?}", app.get_ref()),
            "a directory with system.toml, relative to the repository",
        ));
    }
    Ok(root.join(app.get_ref()))
}

/// The policies: "fair" or "rt", each once, at least one.
fn policies(src: &Doc, list: &Spanned<Vec<Spanned<String>>>) -> Result<Vec<String>, ConfigError> {
    let mut out: Vec<String> = Vec::new();
    for p in list.get_ref() {
        if !matches!(p.get_ref().as_str(), "fair" | "rt") {
            return Err(src.err(
                &p.span(),
                format!("unknown policy {:?}", p.get_ref()),
                "\"fair\" or \"rt\"",
            ));
        }
        // One policy twice would be the same runs twice, into the same files.
        if out.contains(p.get_ref()) {
            return Err(src.err(
                &p.span(),
                format!("policy {:?} is listed twice", p.get_ref()),
                "each policy once",
            ));
        }
        out.push(p.get_ref().clone());
    }
    if out.is_empty() {
        return Err(src.err(&list.span(), "no policy", "\"fair\", \"rt\" or both"));
    }
    Ok(out)
}

/// The loads: at least one, each named once by a plain directory name, values in range.
fn loads(src: &Doc, list: &Spanned<Vec<Spanned<RawLoad>>>) -> Result<Vec<Load>, ConfigError> {
    if list.get_ref().is_empty() {
        return Err(src.err(&list.span(), "no load", "at least one [[load]]"));
    }
    let mut out: Vec<Load> = Vec::new();
    for l in list.get_ref() {
        let l = l.get_ref();
        let name = l.name.get_ref();
        if out.iter().any(|o| &o.name == name) {
            return Err(src.err(
                &l.name.span(),
                format!("load {name:?} is named twice"),
                "each [[load]] named once (it names the runs' directories)",
            ));
        }
        if !is_dir_name(name) {
            return Err(src.err(
                &l.name.span(),
                format!("load name {name:?} is not usable as a file name"),
                "letters, digits, '-' and '_'",
            ));
        }
        out.push(Load {
            name: name.clone(),
            tick_hz: range(src, &l.tick_hz, "tick_hz", 1, 100_000)? as u32,
            device_period_us: range(
                src,
                &l.device_period_us,
                "device_period_us",
                0,
                1_000_000_000,
            )? as u64,
            words: range(src, &l.words, "words", 1, 16_384)? as u32,
        });
    }
    Ok(out)
}

/// Reads the file `path` (its text in `src`): every key present and in range, the
/// applications' directories there (`root` is the repository).
pub fn read(src: &Doc, path: &Path, root: &Path) -> Result<HypervisorSpec, ConfigError> {
    let raw: Raw = src.parse()?;
    let header = BenchHeader::read(src, path, &raw.name)?;
    let rt = app_dir(src, &raw.rt, root)?;
    let gp = app_dir(src, &raw.gp, root)?;
    let policies = policies(src, &raw.policies)?;
    // As hypervisor.toml: a turn shorter than a partition switch never lets a guest run.
    let min_turn = sysdesc::hvdesc::MIN_TURN_US;
    let slice_us = range(src, &raw.slice_us, "slice_us", min_turn, 1_000_000_000)? as u64;
    let period_us = range(src, &raw.period_us, "period_us", min_turn, 1_000_000_000)? as u64;
    let (key, hi) = ("rt_event_period_us", 1_000_000_000);
    let rt_event_period_us = range(src, &raw.rt_event_period_us, key, 10, hi)? as u64;
    let key = "rt_probe_period_us";
    let rt_probe_period_us = range(src, &raw.rt_probe_period_us, key, 10, hi)? as u64;
    let rt_bursts = range(src, &raw.rt_bursts, "rt_bursts", 1, 100_000)? as u32;
    let rt_burst = range(src, &raw.rt_burst, "rt_burst", 1, 100_000)? as u32;
    let min_share = *raw.min_share.get_ref();
    if !(0.0..=0.9).contains(&min_share) {
        return Err(src.err(
            &raw.min_share.span(),
            format!("min_share = {min_share} is out of range"),
            "a fraction of the CPU from 0 to 0.9",
        ));
    }
    let loads = loads(src, &raw.load)?;
    let headline_load = match &raw.headline_load {
        Some(h) if !loads.iter().any(|l| &l.name == h.get_ref()) => {
            return Err(src.err(
                &h.span(),
                format!("headline_load names no load: {:?}", h.get_ref()),
                "the name of a [[load]]",
            ));
        }
        Some(h) => h.get_ref().clone(),
        None => loads[0].name.clone(),
    };
    let findings = raw.expect.as_ref().map(|e| &e.findings);
    if let Some(f) = findings.filter(|f| *f.get_ref() && policies.len() < 2) {
        return Err(src.err(
            &f.span(),
            "findings = true compares the policies, but not both are run",
            "policies = [\"fair\", \"rt\"] with findings = true",
        ));
    }
    Ok(HypervisorSpec {
        header,
        rt,
        gp,
        policies,
        slice_us,
        period_us,
        min_share,
        rt_event_period_us,
        rt_probe_period_us,
        rt_bursts,
        rt_burst,
        headline_load,
        loads,
        findings: findings.is_some_and(|f| *f.get_ref()),
        setup: setup(src)?,
    })
}

/// The file's keys as JSON, its `[[load]]` tables as `loads` (`hypervisor.json`'s `setup`).
fn setup(src: &Doc) -> Result<serde_json::Value, ConfigError> {
    let mut t: toml::Table = src.parse()?;
    let loads = t.remove("load");
    let mut v = serde_json::to_value(&t).unwrap_or_default();
    if let (Some(obj), Some(l)) = (v.as_object_mut(), loads) {
        obj.insert("loads".into(), serde_json::to_value(&l).unwrap_or_default());
    }
    Ok(v)
}
