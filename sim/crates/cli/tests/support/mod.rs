//! Shared helpers for the `ubik` command-line tests: run the built binary, find the firmware
//! that `make firmware` builds, read `--stats` and `--io` outputs, make scratch directories.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../..")
        .canonicalize()
        .expect("repository root")
}

/// `build/firmware/NAME.elf`; panics with a hint when it has not been built.
pub fn firmware(name: &str) -> PathBuf {
    let p = repo_root()
        .join("build/firmware")
        .join(format!("{name}.elf"));
    assert!(
        p.is_file(),
        "{} is missing: run `make firmware` first (`make test` does it)",
        p.display()
    );
    p
}

/// Fails the test, with a hint, unless the RISC-V cross compiler is on PATH.
pub fn require_gcc() {
    let ok = Command::new("riscv64-unknown-elf-gcc")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .map(|s| s.success())
        .unwrap_or(false);
    assert!(
        ok,
        "riscv64-unknown-elf-gcc is not on PATH: run scripts/setup.sh (`make test` does it)"
    );
}

/// A file under `tests/firmware/` (machine files beside the firmware tests).
pub fn fw_file(name: &str) -> PathBuf {
    let p = repo_root().join("tests/firmware").join(name);
    assert!(p.is_file(), "{} is missing", p.display());
    p
}

/// A fresh scratch directory for one test.
pub fn scratch(tag: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let d = std::env::temp_dir().join(format!(
        "ubik-cli-test-{}-{}-{}",
        std::process::id(),
        tag,
        N.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("scratch dir");
    d
}

pub struct Run {
    pub code: i32,
    pub stdout: Vec<u8>,
    pub stderr: String,
}

impl Run {
    pub fn stdout_str(&self) -> String {
        String::from_utf8_lossy(&self.stdout).into_owned()
    }
}

/// Runs `ubik ARGS...` (the binary cargo built for this package), stdin closed.
pub fn ubik<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> Run {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_ubik"));
    cmd.args(args);
    output_of(cmd)
}

/// Runs `ubik ARGS...` in `dir`, against this repository's kernel and BSP (`UBIK_ROOT`).
pub fn ubik_in<S: AsRef<std::ffi::OsStr>>(dir: &Path, args: &[S]) -> Run {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_ubik"));
    cmd.args(args)
        .current_dir(dir)
        .env("UBIK_ROOT", repo_root());
    output_of(cmd)
}

/// Runs `ubik ARGS...` against this repository (`UBIK_ROOT`) with `env` set in its
/// environment (a `None` value removes the variable).
pub fn ubik_env<S: AsRef<std::ffi::OsStr>>(args: &[S], env: &[(&str, Option<&str>)]) -> Run {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_ubik"));
    cmd.args(args).env("UBIK_ROOT", repo_root());
    for (k, v) in env {
        match v {
            Some(v) => cmd.env(k, v),
            None => cmd.env_remove(k),
        };
    }
    output_of(cmd)
}

fn output_of(mut cmd: Command) -> Run {
    let out: Output = cmd.stdin(Stdio::null()).output().expect("run ubik");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: out.stdout,
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Asserts the contract for a failure: the exit code, exactly one line on stderr (naming
/// each of `mentions`), nothing that looks like a panic.
pub fn assert_one_line_failure(r: &Run, code: i32, mentions: &[&str], what: &str) {
    assert_eq!(
        r.code, code,
        "{what}: exit code {} (expected {code}); stderr: {:?}",
        r.code, r.stderr
    );
    assert!(
        !r.stderr.contains("panicked"),
        "{what}: panic text on stderr: {:?}",
        r.stderr
    );
    assert!(
        !r.stderr.contains("RUST_BACKTRACE"),
        "{what}: backtrace hint on stderr: {:?}",
        r.stderr
    );
    assert!(
        !r.stderr.contains("internal error"),
        "{what}: internal error reported: {:?}",
        r.stderr
    );
    let lines: Vec<&str> = r.stderr.lines().collect();
    assert_eq!(
        lines.len(),
        1,
        "{what}: expected exactly one line on stderr, got {}: {:?}",
        lines.len(),
        r.stderr
    );
    assert!(
        r.stderr.ends_with('\n'),
        "{what}: the stderr line does not end in a newline: {:?}",
        r.stderr
    );
    assert!(
        !lines[0].trim().is_empty(),
        "{what}: the stderr line is empty"
    );
    for m in mentions {
        assert!(
            r.stderr.contains(m),
            "{what}: stderr does not mention {m:?}: {:?}",
            r.stderr
        );
    }
}

pub fn read_json(p: &Path) -> serde_json::Value {
    let text =
        std::fs::read_to_string(p).unwrap_or_else(|e| panic!("cannot read {}: {e}", p.display()));
    serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("{} is not JSON: {e}\n{text}", p.display()))
}

pub const CATEGORIES: [&str; 8] = [
    "user",
    "kernel_sched",
    "kernel_time",
    "kernel_ipc",
    "kernel_other",
    "lisr",
    "hisr",
    "idle",
];

/// Asserts that a `--stats` object has every key of the contract's table, with the right types.
pub fn assert_stats_keys(v: &serde_json::Value, what: &str) {
    let o = v
        .as_object()
        .unwrap_or_else(|| panic!("{what}: --stats is not a JSON object: {v}"));
    for k in ["cycles", "mcycle", "instret"] {
        assert!(
            o.get(k).is_some_and(|x| x.is_u64()),
            "{what}: key {k:?} missing or not an unsigned integer: {v}"
        );
    }
    for k in ["sim_time_s", "host_seconds", "mips"] {
        assert!(
            o.get(k).is_some_and(|x| x.is_number()),
            "{what}: key {k:?} missing or not a number: {v}"
        );
    }
    // Energy is modelled with `--energy` (or `--profile`, `--trace`); without, it is null.
    let modelled = o.get("energy_j").is_some_and(|x| x.is_number());
    for k in ["energy_j", "avg_power_w", "avg_current_a"] {
        assert!(
            o.get(k)
                .is_some_and(|x| if modelled { x.is_number() } else { x.is_null() }),
            "{what}: key {k:?} missing, or not a number (with energy) or null (without): {v}"
        );
    }
    let cats = o
        .get("by_category")
        .and_then(|c| c.as_object())
        .unwrap_or_else(|| panic!("{what}: by_category missing or not an object: {v}"));
    for name in CATEGORIES {
        let c = cats
            .get(name)
            .and_then(|c| c.as_object())
            .unwrap_or_else(|| panic!("{what}: by_category.{name} missing: {v}"));
        assert!(
            c.get("cycles").is_some_and(|x| x.is_u64()),
            "{what}: by_category.{name}.cycles: {v}"
        );
        assert!(
            c.get("instret").is_some_and(|x| x.is_u64()),
            "{what}: by_category.{name}.instret: {v}"
        );
        assert!(
            c.get("energy_j")
                .is_some_and(|x| if modelled { x.is_number() } else { x.is_null() }),
            "{what}: by_category.{name}.energy_j: {v}"
        );
    }
    assert_eq!(
        cats.len(),
        8,
        "{what}: by_category has other names than the contract's 8: {v}"
    );
    let opp = o
        .get("opp_time_s")
        .and_then(|c| c.as_object())
        .unwrap_or_else(|| panic!("{what}: opp_time_s missing or not an object: {v}"));
    for (k, t) in opp {
        assert!(
            k.parse::<usize>().is_ok(),
            "{what}: opp_time_s key {k:?} is not an index"
        );
        assert!(t.is_number(), "{what}: opp_time_s.{k} is not a number");
    }
}

/// The stats without the host-dependent keys (`host_seconds`, `mips`) and the machine file's
/// name.
pub fn deterministic_part(v: &serde_json::Value) -> serde_json::Value {
    let mut v = v.clone();
    let o = v.as_object_mut().expect("stats object");
    o.remove("host_seconds");
    o.remove("mips");
    // The machine file's name says how the run was asked for, not what it did.
    if let Some(run) = o.get_mut("run").and_then(|r| r.as_object_mut()) {
        run.remove("machine");
    }
    v
}

pub fn u(v: &serde_json::Value, key: &str) -> u64 {
    v[key]
        .as_u64()
        .unwrap_or_else(|| panic!("stats key {key:?} is not an unsigned integer: {v}"))
}

pub fn f(v: &serde_json::Value, key: &str) -> f64 {
    v[key]
        .as_f64()
        .unwrap_or_else(|| panic!("stats key {key:?} is not a number: {v}"))
}

/// One row of the `--io` CSV.
#[derive(Clone, Debug, PartialEq)]
pub struct IoRow {
    pub cycle: u64,
    pub time_s: f64,
    pub kind: String,
    pub port: u32,
    pub value: u32,
}

/// Reads an `--io` CSV: checks the header and the row format, returns the rows.
pub fn read_io(p: &Path) -> Vec<IoRow> {
    let text =
        std::fs::read_to_string(p).unwrap_or_else(|e| panic!("cannot read {}: {e}", p.display()));
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("cycle,time_s,kind,port,value"),
        "--io header in {}",
        p.display()
    );
    lines
        .enumerate()
        .map(|(i, l)| {
            let f: Vec<&str> = l.split(',').collect();
            assert_eq!(
                f.len(),
                5,
                "--io row {} has {} fields: {l:?}",
                i + 2,
                f.len()
            );
            IoRow {
                cycle: f[0]
                    .parse()
                    .unwrap_or_else(|_| panic!("--io row {}: cycle {:?}", i + 2, f[0])),
                time_s: f[1]
                    .parse()
                    .unwrap_or_else(|_| panic!("--io row {}: time_s {:?}", i + 2, f[1])),
                kind: f[2].to_string(),
                port: f[3]
                    .parse()
                    .unwrap_or_else(|_| panic!("--io row {}: port {:?}", i + 2, f[3])),
                value: f[4]
                    .parse()
                    .unwrap_or_else(|_| panic!("--io row {}: value {:?}", i + 2, f[4])),
            }
        })
        .collect()
}

/// Rows are in time order and each kind/port is one the contract allows.
pub fn assert_io_well_formed(rows: &[IoRow], what: &str) {
    for w in rows.windows(2) {
        assert!(
            w[0].cycle <= w[1].cycle,
            "{what}: --io rows out of order: {:?} then {:?}",
            w[0],
            w[1]
        );
        assert!(
            w[0].time_s <= w[1].time_s,
            "{what}: --io times out of order: {:?} then {:?}",
            w[0],
            w[1]
        );
    }
    for r in rows {
        match r.kind.as_str() {
            "out" => assert!(r.port < 32, "{what}: out port {} >= 32", r.port),
            "gpio" => assert!(r.port < 32 && r.value <= 1, "{what}: bad gpio row {r:?}"),
            "stimulus" => assert!(r.port < 15, "{what}: stimulus line {} > 14", r.port),
            k => panic!("{what}: unknown --io kind {k:?}"),
        }
    }
}

/// Runs `ubik run ARGS...`.
pub fn ubik_run<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> Run {
    let mut all: Vec<std::ffi::OsString> = vec!["run".into()];
    all.extend(args.iter().map(|a| a.as_ref().to_os_string()));
    ubik(&all)
}
