//! The build step of a job (and of every kind's variant): an application directory staged
//! from source files and generated files, then built -- with `ubik build DIR` (a child process
//! of this executable, its `system.toml` written into DIR) or with an external command
//! (`PROGRAM ARGS... DIR DIR/build/app.elf`, e.g. `bench/freertos/build.sh`). Either way the
//! build's messages are kept in `DIR/build.log` and the ELF is `DIR/build/app.elf`.
//!
//! A build that fails is one line: the experiment, what failed (`variant LABEL`, `job
//! LABEL`), how the child ended, its last message and where `build.log` is; the exit code is
//! the child's when the contract passes it on ([`exit_code_of`]), else 70.
//!
//! Files are written only when their contents change, so a build that is already up to date
//! stays so (`ubik build` compares time stamps).

use crate::{code, Failure};
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Output};

use super::super::steps::io_fail;

/// Writes `text` to `p` unless `p` holds it already (keeping its time stamp).
pub(in crate::experiment) fn write_if_changed(p: &Path, text: &[u8]) -> std::io::Result<()> {
    if std::fs::read(p).ok().as_deref() == Some(text) {
        return Ok(());
    }
    std::fs::write(p, text)
}

/// A source file's extension the staging copies and keeps (C, headers, assembly).
fn is_source(p: &Path) -> bool {
    matches!(
        p.extension().and_then(|x| x.to_str()),
        Some("c" | "h" | "S")
    )
}

/// Makes `dir` hold exactly `files` (copied under their own names) and `generated` (name,
/// text) among its sources: other `.c`, `.h` and `.S` files there are removed (a file an
/// earlier experiment staged must not be compiled into this one).
pub(in crate::experiment) fn stage(
    dir: &Path,
    files: &[PathBuf],
    generated: &[(String, String)],
) -> Result<(), Failure> {
    std::fs::create_dir_all(dir).map_err(|e| io_fail("the build directory", dir, e))?;
    let mut names = Vec::new();
    for p in files {
        let text = std::fs::read(p).map_err(|e| {
            Failure::new(code::NO_INPUT, format!("cannot read {}: {e}", p.display()))
        })?;
        let name = p.file_name().unwrap_or_default().to_os_string();
        let to = dir.join(&name);
        write_if_changed(&to, &text).map_err(|e| io_fail("a source", &to, e))?;
        names.push(name);
    }
    for (name, text) in generated {
        let to = dir.join(name);
        write_if_changed(&to, text.as_bytes()).map_err(|e| io_fail("a source", &to, e))?;
        names.push(name.into());
    }
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            let p = e.path();
            if is_source(&p) && p.is_file() && !names.contains(&e.file_name()) {
                std::fs::remove_file(&p).map_err(|e| io_fail("the build directory", &p, e))?;
            }
        }
    }
    Ok(())
}

/// Copies the workload's sources (the `.c`, `.h` and `.S` files of `app`) into `dir` and
/// writes `system_toml` there.
pub(in crate::experiment) fn prepare_app(
    app: &Path,
    dir: &Path,
    system_toml: &str,
) -> Result<(), Failure> {
    let entries = std::fs::read_dir(app).map_err(|e| {
        Failure::new(
            code::NO_INPUT,
            format!("cannot read {}: {e}", app.display()),
        )
    })?;
    let mut files: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| is_source(p) && p.is_file())
        .collect();
    files.sort();
    stage(dir, &files, &[])?;
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

/// The experiment's exit code for a child `ubik` (or the hypervisor experiment's runner)
/// that failed with `status`.
pub(in crate::experiment) fn exit_code_of(status: ExitStatus) -> u8 {
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

/// The last non-empty line of a child's output, without its `ubik: ` prefix.
fn last_message(output: &[u8]) -> String {
    let text = String::from_utf8_lossy(output);
    let line = text.lines().map(str::trim).rfind(|l| !l.is_empty());
    line.unwrap_or("").trim_start_matches("ubik: ").to_string()
}

/// Runs the build command `cmd` for `dir`, keeping its messages (`log_of` picks them from its
/// output) in `DIR/build.log`: the ELF `DIR/build/app.elf`, or the one-line failure of `what`
/// ("variant LABEL", "job LABEL") in experiment `exp`.
fn build_with(
    mut cmd: Command,
    dir: &Path,
    exp: &str,
    what: &str,
    log_of: fn(&Output) -> Vec<u8>,
) -> Result<PathBuf, Failure> {
    let program = cmd.get_program().to_string_lossy().into_owned();
    let o = cmd.output().map_err(|e| {
        Failure::new(
            code::INTERNAL,
            format!("experiment {exp}: {what}: cannot start {program}: {e}"),
        )
    })?;
    let log = dir.join("build.log");
    let text = log_of(&o);
    std::fs::write(&log, &text).map_err(|e| io_fail("the build log", &log, e))?;
    if !o.status.success() {
        return Err(Failure::new(
            exit_code_of(o.status),
            format!(
                "experiment {exp}: {what} does not build ({}): {}; the build's messages are in {}",
                how_it_ended(o.status),
                last_message(&text),
                log.display()
            ),
        ));
    }
    Ok(dir.join("build").join("app.elf"))
}

/// `ubik build DIR` (a child process of this executable) for `what` ("variant LABEL", "job
/// LABEL"); the ELF's path. The build's messages (GCC's diagnostics) are kept in
/// `DIR/build.log`.
pub(in crate::experiment) fn ubik_build(
    exe: &Path,
    root: &Path,
    dir: &Path,
    exp: &str,
    what: &str,
) -> Result<PathBuf, Failure> {
    let mut cmd = Command::new(exe);
    cmd.arg("build").arg(dir).env("UBIK_ROOT", root);
    build_with(cmd, dir, exp, what, |o| o.stderr.clone())
}

/// `ubik build DIR` for the variant `label` (see [`ubik_build`]).
pub(in crate::experiment) fn build_app(
    exe: &Path,
    root: &Path,
    dir: &Path,
    exp: &str,
    label: &str,
) -> Result<PathBuf, Failure> {
    ubik_build(exe, root, dir, exp, &format!("variant {label}"))
}

/// `PROGRAM ARGS... DIR DIR/build/app.elf` with `env` added to the environment (and
/// `UBIK_ROOT`), its standard output and error both kept in `DIR/build.log`.
pub(in crate::experiment) fn command_build(
    (program, args, env): (&Path, &[String], &[(String, String)]),
    root: &Path,
    dir: &Path,
    exp: &str,
    what: &str,
) -> Result<PathBuf, Failure> {
    let elf = dir.join("build").join("app.elf");
    let mut cmd = Command::new(program);
    cmd.args(args).arg(dir).arg(&elf).env("UBIK_ROOT", root);
    for (k, v) in env {
        cmd.env(k, v);
    }
    build_with(cmd, dir, exp, what, |o| {
        [o.stdout.clone(), o.stderr.clone()].concat()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tmp(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("ubik-jobs-build-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn staging_keeps_exactly_the_jobs_sources() {
        let d = tmp("stage");
        let src = d.join("src");
        std::fs::create_dir_all(&src).unwrap();
        std::fs::write(src.join("a.c"), "int a;\n").unwrap();
        let app = d.join("app");
        std::fs::create_dir_all(&app).unwrap();
        std::fs::write(app.join("old.c"), "int old;\n").unwrap();
        std::fs::write(app.join("notes.txt"), "kept\n").unwrap();
        let gen = vec![("cfg.h".to_string(), "#define X 1\n".to_string())];
        stage(&app, &[src.join("a.c")], &gen)
            .map_err(|f| f.message)
            .unwrap();
        assert_eq!(
            std::fs::read_to_string(app.join("a.c")).unwrap(),
            "int a;\n"
        );
        assert_eq!(
            std::fs::read_to_string(app.join("cfg.h")).unwrap(),
            "#define X 1\n"
        );
        assert!(
            !app.join("old.c").exists(),
            "a source no longer staged goes"
        );
        assert!(app.join("notes.txt").exists(), "other files stay");
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn a_missing_source_is_no_input() {
        let d = tmp("missing");
        let f = stage(&d.join("app"), &[d.join("nope.c")], &[]).unwrap_err();
        assert_eq!(f.code, code::NO_INPUT);
        assert!(f.message.contains("nope.c"), "{}", f.message);
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn a_failing_command_is_one_line_with_its_log() {
        let d = tmp("cmd");
        let script = d.join("build.sh");
        std::fs::write(
            &script,
            "#!/bin/sh\necho compiling\necho 'no kernel here' >&2\nexit 2\n",
        )
        .unwrap();
        let sh = PathBuf::from("/bin/sh");
        let args = vec![script.display().to_string()];
        let f = command_build((&sh, &args, &[]), &d, &d, "tm", "job basic-x").unwrap_err();
        assert_eq!(f.code, 2);
        assert!(f.message.starts_with("experiment tm: job basic-x does not build (exit 2): no kernel here; the build's messages are in "), "{}", f.message);
        let log = std::fs::read_to_string(d.join("build.log")).unwrap();
        assert!(
            log.contains("compiling") && log.contains("no kernel here"),
            "{log}"
        );
        let _ = std::fs::remove_dir_all(&d);
    }
}
