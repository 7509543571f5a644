//! Every input of an experiment, checked before anything is built or run (`ubik experiment`
//! does this first; `ubik experiment --check` does only this): the machine file of every run,
//! the workload directory and its sources, the kernel sources the variants need, each
//! variant's system description, the cross compiler and the output directory. A problem is one
//! line naming the file, with the exit code of the contract: 65 bad data, 66 a file that cannot
//! be read, 69 no cross compiler, 74 an output directory that cannot be written.

use super::sweep::{Experiment, SweepVariant};
use crate::{code, Failure};
use machine::config::MachineConfig;
use std::path::{Path, PathBuf};
use sysdesc::SystemDesc;

/// The machine files the runs use, each once: the experiment's, or for a DPM experiment one
/// per (workload, mode), `APP/WORKLOAD-MODE.machine.toml`.
pub fn machine_files<V: SweepVariant>(exp: &Experiment<V>) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = Vec::new();
    for v in &exp.variants {
        let f = v.machine_file(exp);
        if !files.contains(&f) {
            files.push(f);
        }
    }
    files
}

fn io_reason(e: &std::io::Error) -> String {
    let s = e.to_string();
    s.split(" (os error").next().unwrap_or(&s).to_string()
}

fn cannot_read(p: &Path, what: &str, e: &std::io::Error) -> Failure {
    Failure::new(
        code::NO_INPUT,
        format!(
            "{}: cannot read {what}: {}; expected a readable file",
            p.display(),
            io_reason(e)
        ),
    )
}

/// The workload directory: its main source and every source it has that the variants copy.
fn check_app<V: SweepVariant>(exp: &Experiment<V>) -> Result<(), Failure> {
    let main = V::MAIN_SOURCE;
    if !exp.app.join(main).is_file() {
        return Err(Failure::new(
            code::NO_INPUT,
            format!(
                "{}: no {main}; expected the workload directory of the experiment (app = ...)",
                exp.app.display()
            ),
        ));
    }
    let entries = std::fs::read_dir(&exp.app)
        .map_err(|e| cannot_read(&exp.app, "the workload directory", &e))?;
    for e in entries.flatten() {
        let p = e.path();
        if matches!(
            p.extension().and_then(|x| x.to_str()),
            Some("c" | "h" | "S")
        ) && p.is_file()
        {
            std::fs::File::open(&p).map_err(|e| cannot_read(&p, "a workload source", &e))?;
        }
    }
    Ok(())
}

/// The kernel (its scheduler for each Ubik variant) or NOS sources the variants compile.
fn check_kernel<V: SweepVariant>(exp: &Experiment<V>, root: &Path) -> Result<(), Failure> {
    let mut needed: Vec<PathBuf> = Vec::new();
    for v in &exp.variants {
        let p = v.kernel_source(root);
        if !needed.contains(&p) {
            needed.push(p);
        }
    }
    for p in needed {
        if !p.is_file() {
            return Err(Failure::new(
                code::NO_INPUT,
                format!("{}: cannot read a source the variants need; expected the Ubik repository {} to hold it", p.display(), root.display()),
            ));
        }
    }
    Ok(())
}

/// Each variant's generated system description must be one `ubik build` accepts; if not,
/// that is a bug in `ubik experiment` (the experiment file's values were checked).
fn check_descriptions<V: SweepVariant>(exp: &Experiment<V>, out: &Path) -> Result<(), Failure> {
    let descs: Vec<(String, String)> = exp
        .variants
        .iter()
        .map(|v| (v.label(), v.system_toml(exp)))
        .collect();
    for (label, text) in descs {
        let name = out.join("build").join(&label).join("system.toml");
        SystemDesc::from_str(&text, &name.display().to_string()).map_err(|e| {
            Failure::new(
                code::INTERNAL,
                format!("experiment {}: variant {label}: the generated system description is rejected: {e}; this is a bug in Ubik, please report it", exp.header.name),
            )
        })?;
    }
    Ok(())
}

fn cannot_write(out: &Path, why: impl std::fmt::Display) -> Failure {
    Failure::new(
        code::IO_ERROR,
        format!("cannot write the output directory {}: {why}; expected -o DIR to name a directory that can be written", out.display()),
    )
}

/// The output directory can be created (if missing) and written, without creating it: the
/// nearest existing directory at or above it takes a file.
pub fn check_output_dir(out: &Path) -> Result<(), Failure> {
    let abs = std::path::absolute(out).map_err(|e| cannot_write(out, io_reason(&e)))?;
    let mut dir = abs.as_path();
    loop {
        match std::fs::metadata(dir) {
            Ok(m) if m.is_dir() => break,
            Ok(_) => {
                return Err(cannot_write(
                    out,
                    format!("{} is not a directory", dir.display()),
                ))
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => match dir.parent() {
                Some(p) => dir = p,
                None => return Err(cannot_write(out, io_reason(&e))),
            },
            Err(e) => {
                return Err(cannot_write(
                    out,
                    format!("{}: {}", dir.display(), io_reason(&e)),
                ))
            }
        }
    }
    let probe = dir.join(format!(".ubik-write-check-{}", std::process::id()));
    std::fs::File::create(&probe)
        .map_err(|e| cannot_write(out, format!("{}: {}", dir.display(), io_reason(&e))))?;
    let _ = std::fs::remove_file(&probe);
    Ok(())
}

/// Every check, in the order a user fixes things: data first, then tools and space.
pub fn check_inputs<V: SweepVariant>(
    exp: &Experiment<V>,
    root: &Path,
    out: &Path,
) -> Result<(), Failure> {
    check_app(exp)?;
    for m in machine_files(exp) {
        MachineConfig::from_file(&m)
            .map_err(|e| Failure::new(e.exit_code() as u8, e.to_string()))?;
    }
    check_kernel(exp, root)?;
    check_descriptions(exp, out)?;
    crate::build::cross_compiler()?;
    check_output_dir(out)
}
