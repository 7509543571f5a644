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

/// Reads the file `path` (its text in `src`): every key present and in range, the
/// applications' directories there (`root` is the repository).
pub fn read(src: &Doc, path: &Path, root: &Path) -> Result<HypervisorSpec, ConfigError> {
    let raw: Raw = src.parse()?;
    let header = BenchHeader::read(src, path, &raw.name)?;
    let err =
        |span: std::ops::Range<usize>, what: String, expected: &str| src.err(&span, what, expected);
    let range = |v: &Spanned<i64>, key: &str, lo: i64, hi: i64| {
        let n = *v.get_ref();
        if (lo..=hi).contains(&n) {
            Ok(())
        } else {
            Err(err(
                v.span(),
                format!("{key} = {n} is out of range"),
                &format!("{lo}..={hi}"),
            ))
        }
    };
    for app in [&raw.rt, &raw.gp] {
        // (an absolute path would replace the repository's in the join, and the runner's
        // $root/PATH would not)
        if Path::new(app.get_ref()).is_absolute()
            || !root.join(app.get_ref()).join("system.toml").is_file()
        {
            return Err(err(
                app.span(),
                format!("no application at {:?}", app.get_ref()),
                "a directory with system.toml, relative to the repository",
            ));
        }
    }
    for (i, p) in raw.policies.get_ref().iter().enumerate() {
        if !matches!(p.get_ref().as_str(), "fair" | "rt") {
            return Err(err(
                p.span(),
                format!("unknown policy {:?}", p.get_ref()),
                "\"fair\" or \"rt\"",
            ));
        }
        // One policy twice would be the same runs twice, into the same files.
        if raw.policies.get_ref()[..i]
            .iter()
            .any(|q| q.get_ref() == p.get_ref())
        {
            return Err(err(
                p.span(),
                format!("policy {:?} is listed twice", p.get_ref()),
                "each policy once",
            ));
        }
    }
    if raw.policies.get_ref().is_empty() {
        return Err(err(
            raw.policies.span(),
            "no policy".into(),
            "\"fair\", \"rt\" or both",
        ));
    }
    // As hypervisor.toml: a turn shorter than a partition switch never lets a guest run.
    let min_turn = sysdesc::hvdesc::MIN_TURN_US;
    range(&raw.slice_us, "slice_us", min_turn, 1_000_000_000)?;
    range(&raw.period_us, "period_us", min_turn, 1_000_000_000)?;
    range(
        &raw.rt_event_period_us,
        "rt_event_period_us",
        10,
        1_000_000_000,
    )?;
    range(
        &raw.rt_probe_period_us,
        "rt_probe_period_us",
        10,
        1_000_000_000,
    )?;
    range(&raw.rt_bursts, "rt_bursts", 1, 100_000)?;
    range(&raw.rt_burst, "rt_burst", 1, 100_000)?;
    let share = *raw.min_share.get_ref();
    if !(0.0..=0.9).contains(&share) {
        return Err(err(
            raw.min_share.span(),
            format!("min_share = {share} is out of range"),
            "a fraction of the CPU from 0 to 0.9",
        ));
    }
    if raw.load.get_ref().is_empty() {
        return Err(err(
            raw.load.span(),
            "no load".into(),
            "at least one [[load]]",
        ));
    }
    let mut names = std::collections::HashSet::new();
    for l in raw.load.get_ref() {
        let l = l.get_ref();
        if !names.insert(l.name.get_ref().as_str()) {
            return Err(err(
                l.name.span(),
                format!("load {:?} is named twice", l.name.get_ref()),
                "each [[load]] named once (it names the runs' directories)",
            ));
        }
        if !is_dir_name(l.name.get_ref()) {
            return Err(err(
                l.name.span(),
                format!(
                    "load name {:?} is not usable as a file name",
                    l.name.get_ref()
                ),
                "letters, digits, '-' and '_'",
            ));
        }
        range(&l.tick_hz, "tick_hz", 1, 100_000)?;
        range(&l.device_period_us, "device_period_us", 0, 1_000_000_000)?;
        range(&l.words, "words", 1, 16_384)?;
    }
    if let Some(h) = &raw.headline_load {
        if !raw
            .load
            .get_ref()
            .iter()
            .any(|l| l.get_ref().name.get_ref() == h.get_ref())
        {
            return Err(err(
                h.span(),
                format!("headline_load names no load: {:?}", h.get_ref()),
                "the name of a [[load]]",
            ));
        }
    }
    let findings = raw.expect.as_ref().is_some_and(|e| *e.findings.get_ref());
    if findings && raw.policies.get_ref().len() < 2 {
        let at = raw.expect.as_ref().map(|e| e.findings.span()).unwrap_or_default();
        return Err(err(
            at,
            "findings = true compares the policies, but not both are run".into(),
            "policies = [\"fair\", \"rt\"] with findings = true",
        ));
    }
    Ok(HypervisorSpec {
        header,
        rt: root.join(raw.rt.get_ref()),
        gp: root.join(raw.gp.get_ref()),
        policies: raw.policies.get_ref().iter().map(|p| p.get_ref().clone()).collect(),
        slice_us: *raw.slice_us.get_ref() as u64,
        period_us: *raw.period_us.get_ref() as u64,
        min_share: share,
        rt_event_period_us: *raw.rt_event_period_us.get_ref() as u64,
        rt_probe_period_us: *raw.rt_probe_period_us.get_ref() as u64,
        rt_bursts: *raw.rt_bursts.get_ref() as u32,
        rt_burst: *raw.rt_burst.get_ref() as u32,
        headline_load: match &raw.headline_load {
            Some(h) => h.get_ref().clone(),
            None => raw.load.get_ref()[0].get_ref().name.get_ref().clone(),
        },
        loads: raw
            .load
            .get_ref()
            .iter()
            .map(|l| {
                let l = l.get_ref();
                Load {
                    name: l.name.get_ref().clone(),
                    tick_hz: *l.tick_hz.get_ref() as u32,
                    device_period_us: *l.device_period_us.get_ref() as u64,
                    words: *l.words.get_ref() as u32,
                }
            })
            .collect(),
        findings,
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
