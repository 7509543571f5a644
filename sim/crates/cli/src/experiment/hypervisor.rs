//! `ubik experiment` for the hypervisor experiment (`kind = "hypervisor"`,
//! experiments/hypervisor.toml, docs/hypervisor.md): the file is checked here (every key,
//! with its line and column), then the experiment's runner, `bench/hypervisor/run.sh`, builds
//! and runs every (policy, load) and the real-time application alone and writes
//! `OUT/bench/hypervisor.json` (OUT: `-o`, default `out`, so that it is `make bench`'s file;
//! `ubik report OUT` shows it with the other benchmark figures).
//!
//! The runner gets the file's path, never its values: it reads them itself as data
//! (`hv_json.py settings`), so nothing in the file reaches a shell. Its failure is the
//! experiment's: its one line (`ubik: ...`) and its exit code, when the contract has it (65
//! bad data, 66, 69, 74, a firmware's 1..63, 71, 72, 130; anything else 70).

use super::header::is_dir_name;
use crate::{code, Failure};
use confread::{ConfigError, Doc};
use serde::Deserialize;
use std::path::Path;
use toml::Spanned;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)] // read for its checks: the runner reads the file itself
struct Raw {
    kind: String, // read by Kind::of; here only accepted
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
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLoad {
    name: Spanned<String>,
    tick_hz: Spanned<i64>,
    device_period_us: Spanned<i64>,
    words: Spanned<i64>,
}

/// The hypervisor experiment, checked. It has no header: its runner reads the file itself
/// (as data, so no value of it reaches a shell) and writes one file, `OUT/bench/hypervisor.json`.
pub struct HypervisorExperiment;

/// Checks the file (its text in `src`): every key present and in range, the applications'
/// directories there (`root` is the repository).
pub fn check(src: &Doc, root: &Path) -> Result<HypervisorExperiment, ConfigError> {
    let raw: Raw = src.parse()?;
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
    Ok(HypervisorExperiment)
}

/// Runs the experiment's runner on `file` into `out` (made): `out/hypervisor.json`.
pub fn run(file: &Path, root: &Path, out: &Path) -> Result<u8, Failure> {
    std::fs::create_dir_all(out).map_err(|e| {
        Failure::new(
            code::IO_ERROR,
            format!(
                "cannot create {}: {e}; expected a writable directory",
                out.display()
            ),
        )
    })?;
    let script = root.join("bench").join("hypervisor").join("run.sh");
    let child = std::process::Command::new(&script)
        .arg("-e")
        .arg(std::path::absolute(file).unwrap_or_else(|_| file.to_path_buf()))
        .arg("-o")
        .arg(std::path::absolute(out.join("hypervisor.json")).unwrap_or_default())
        .stdin(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .output()
        .map_err(|e| {
            Failure::new(
                code::UNAVAILABLE,
                format!(
                    "{}: {e}; expected the repository's experiment runner",
                    script.display()
                ),
            )
        })?;
    if child.status.success() {
        return Ok(0);
    }
    // The runner's last line says what failed and where its details are.
    let text = String::from_utf8_lossy(&child.stderr);
    let last = text
        .lines()
        .map(str::trim)
        .rfind(|l| !l.is_empty())
        .unwrap_or("the experiment's runner failed")
        .trim_start_matches("ubik: ");
    Err(Failure::new(
        super::steps::exit_code_of(child.status),
        format!("{}: {last}", file.display()),
    ))
}
