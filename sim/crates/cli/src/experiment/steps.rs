//! The steps of an experiment that run `ubik` itself as a child process -- preparing a
//! variant's application directory, `ubik build`, `ubik run` -- and how a child's failure
//! becomes the experiment's: its exit code passed on (65 bad data, 66 cannot read, 69 no
//! compiler, 74 cannot write, a firmware's own 1..63, 71 machine fault, 72 a run that does not
//! stop, 130 interrupted; 70 for anything else), and one line naming the variant or run and
//! the file that holds the details (`build.log`, `console.txt`).

use crate::{code, Failure};
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus};

pub(super) fn io_fail(what: &str, p: &Path, e: impl std::fmt::Display) -> Failure {
    Failure::new(
        code::IO_ERROR,
        format!("cannot write {what} {}: {e}", p.display()),
    )
}

fn write_if_changed(p: &Path, text: &[u8]) -> std::io::Result<()> {
    if std::fs::read(p).ok().as_deref() == Some(text) {
        return Ok(());
    }
    std::fs::write(p, text)
}

/// Copies the workload's sources into `dir` and writes `system_toml` there.
pub(super) fn prepare_app(app: &Path, dir: &Path, system_toml: &str) -> Result<(), Failure> {
    std::fs::create_dir_all(dir).map_err(|e| io_fail("the build directory", dir, e))?;
    let entries = std::fs::read_dir(app).map_err(|e| {
        Failure::new(
            code::NO_INPUT,
            format!("cannot read {}: {e}", app.display()),
        )
    })?;
    for e in entries.flatten() {
        let p = e.path();
        let keep = matches!(
            p.extension().and_then(|x| x.to_str()),
            Some("c" | "h" | "S")
        );
        if keep && p.is_file() {
            let text = std::fs::read(&p).map_err(|e| {
                Failure::new(code::NO_INPUT, format!("cannot read {}: {e}", p.display()))
            })?;
            let to = dir.join(e.file_name());
            write_if_changed(&to, &text).map_err(|e| io_fail("a source", &to, e))?;
        }
    }
    let st = dir.join("system.toml");
    write_if_changed(&st, system_toml.as_bytes()).map_err(|e| io_fail("system.toml", &st, e))
}

/// The exit codes of a child `ubik` that the experiment passes on as its own (besides a
/// firmware's 1..63).
const PASSED_ON: [u8; 7] = [
    code::DATA,
    code::NO_INPUT,
    code::UNAVAILABLE,
    code::MACHINE_FAULT,
    code::MAX_CYCLES,
    code::IO_ERROR,
    code::INTERRUPTED,
];

/// The experiment's exit code for a child `ubik` that failed with `status`.
fn exit_code_of(status: ExitStatus) -> u8 {
    match status.code() {
        Some(c) if (1..=63).contains(&c) || PASSED_ON.iter().any(|&p| i32::from(p) == c) => c as u8,
        // 64: the experiment called `ubik` wrongly; 70, anything else: a bug.
        Some(_) => code::INTERNAL,
        None if status.signal() == Some(2) => code::INTERRUPTED,
        None => code::INTERNAL,
    }
}

fn how_it_ended(status: ExitStatus) -> String {
    match (status.code(), status.signal()) {
        (Some(c), _) => format!("exit {c}"),
        (None, Some(s)) => format!("signal {s}"),
        _ => "an unknown status".into(),
    }
}

/// The first line of a child's stderr, without its `ubik: ` prefix.
fn child_message(stderr: &[u8], pick_last: bool) -> String {
    let text = String::from_utf8_lossy(stderr);
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
    let line = if pick_last {
        lines.next_back()
    } else {
        lines.next()
    };
    line.unwrap_or("").trim_start_matches("ubik: ").to_string()
}

/// `ubik build DIR` (a child process of this executable); the ELF's path. The build's
/// messages (GCC's diagnostics) are kept in `DIR/build.log`.
pub(super) fn build_app(
    exe: &Path,
    root: &Path,
    dir: &Path,
    exp: &str,
    label: &str,
) -> Result<PathBuf, Failure> {
    let o = Command::new(exe)
        .arg("build")
        .arg(dir)
        .env("UBIK_ROOT", root)
        .output()
        .map_err(|e| {
            Failure::new(
                code::INTERNAL,
                format!("cannot start {}: {e}", exe.display()),
            )
        })?;
    let log = dir.join("build.log");
    std::fs::write(&log, &o.stderr).map_err(|e| io_fail("the build log", &log, e))?;
    if !o.status.success() {
        let msg = child_message(&o.stderr, true);
        return Err(Failure::new(
            exit_code_of(o.status),
            format!(
                "experiment {exp}: variant {label} does not build ({}): {msg}; the build's messages are in {}",
                how_it_ended(o.status),
                log.display()
            ),
        ));
    }
    Ok(dir.join("build").join("app.elf"))
}

/// One run: the firmware, its machine file and seed, where its files go, its cycle limit.
pub(super) struct RunSpec<'a> {
    pub elf: &'a Path,
    pub machine: &'a Path,
    pub seed: u64,
    pub dir: &'a Path,
    pub max_cycles: u64,
    pub run_ms: u32,
    /// "experiment NAME: run LABEL seed N", for messages.
    pub what: String,
}

/// `ubik run ELF` with energy, stats and the IO record into the run's directory; the console
/// output is kept in `DIR/console.txt` and returned.
pub(super) fn run_app(exe: &Path, r: &RunSpec) -> Result<String, Failure> {
    std::fs::create_dir_all(r.dir).map_err(|e| io_fail("the run directory", r.dir, e))?;
    let console = r.dir.join("console.txt");
    let o = Command::new(exe)
        .arg("run")
        .arg(r.elf)
        .arg("--machine")
        .arg(r.machine)
        .arg("--seed")
        .arg(r.seed.to_string())
        .arg("--energy")
        .arg("--stats")
        .arg(r.dir.join("stats.json"))
        .arg("--io")
        .arg(r.dir.join("io.csv"))
        .arg("--max-cycles")
        .arg(r.max_cycles.to_string())
        .output()
        .map_err(|e| {
            Failure::new(
                code::INTERNAL,
                format!("cannot start {}: {e}", exe.display()),
            )
        })?;
    std::fs::write(&console, &o.stdout).map_err(|e| io_fail("the console output", &console, e))?;
    if o.status.success() {
        return Ok(String::from_utf8_lossy(&o.stdout).into_owned());
    }
    let code = exit_code_of(o.status);
    let why = match code {
        1..=63 => format!("the firmware stopped with exit code {code}"),
        code::MAX_CYCLES => format!(
            "it did not stop within {} cycles ({}); expected the firmware to stop itself after run_ms = {} ms",
            r.max_cycles,
            child_message(&o.stderr, false),
            r.run_ms
        ),
        _ => format!("{} ({})", child_message(&o.stderr, false), how_it_ended(o.status)),
    };
    Err(Failure::new(
        code,
        format!(
            "{}: {why}; its console output is in {}",
            r.what,
            console.display()
        ),
    ))
}
