//! The run step of a job (and of every kind's run): a firmware on the testbed in this process,
//! on a machine given as a file, as inline TOML or the built-in default, with a cycle limit;
//! its console output (`console.txt`), statistics (`stats.json`) and, when asked, the IO
//! record (`io.csv`) written into the run's directory and returned as typed values.
//!
//! A run that fails is one line: what ran ("experiment NAME: job LABEL"), why (the firmware's
//! exit code when another was expected, the cycle limit, a machine fault) and where its
//! console output is; the exit code is the contract's (a firmware's 1..63, 71, 72, 130).

use super::{JobResult, MachineSrc, RunOpts};
use crate::experiment::steps::{io_fail, Capture};
use crate::run::{outcome_status, simulate, Finished, Observe, Simulation};
use crate::run_stats::{write_io_csv, write_stats, Stats};
use crate::{code, Failure};
use machine::config::{MachineConfig, RAM_BASE};
use machine::elf::{load_elf_file, Image};
use machine::record::IoEvent;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

impl MachineSrc {
    /// The machine, resolved (a file's or inline text's error located in it, exit 65/66).
    pub fn load(&self) -> Result<MachineConfig, Failure> {
        let cfg = match self {
            MachineSrc::Default => Ok(MachineConfig::default()),
            MachineSrc::File(p) => MachineConfig::from_file(p),
            MachineSrc::Inline { name, text } => MachineConfig::from_str(text, name),
        };
        cfg.map_err(|e| Failure::new(e.exit_code() as u8, e.to_string()))
    }
}

/// Loads the firmware `elf` into `cfg`'s RAM; an error names `what` (66 unreadable, 65 not
/// a firmware this machine can load).
pub(in crate::experiment) fn load_image(
    elf: &Path,
    cfg: &MachineConfig,
    what: &str,
) -> Result<Image, Failure> {
    load_elf_file(elf, RAM_BASE, cfg.ram_size).map_err(|e| {
        let c = if e.is_io() {
            code::NO_INPUT
        } else {
            code::DATA
        };
        Failure::new(c, format!("{what}: {e}"))
    })
}

/// Writes a run's `console.txt` and `stats.json` (and `io.csv` when `record` is given) into
/// `dir`: the console file's path.
pub(in crate::experiment) fn write_run_files(
    dir: &Path,
    console: &str,
    stats: &Stats,
    record: Option<&[IoEvent]>,
) -> Result<PathBuf, Failure> {
    let console_path = dir.join("console.txt");
    std::fs::write(&console_path, console.as_bytes())
        .map_err(|e| io_fail("the console output", &console_path, e))?;
    let stats_path = dir.join("stats.json");
    write_stats(&stats_path, stats).map_err(|e| io_fail("statistics", &stats_path, e))?;
    if let Some(record) = record {
        let io_path = dir.join("io.csv");
        write_io_csv(&io_path, record).map_err(|e| io_fail("the IO record", &io_path, e))?;
    }
    Ok(console_path)
}

/// Runs `elf` as `opts` say into `dir` (made); `what` names the run in messages.
pub(super) fn run_job(
    elf: &Path,
    opts: &RunOpts,
    dir: &Path,
    what: &str,
    stop: &AtomicBool,
) -> Result<JobResult, Failure> {
    std::fs::create_dir_all(dir).map_err(|e| io_fail("the run directory", dir, e))?;
    let cfg = opts
        .machine
        .load()
        .map_err(|f| Failure::new(f.code, format!("{what}: {}", f.message)))?;
    let image = load_image(elf, &cfg, what)?;
    let console = Capture::default();
    let done = simulate(Simulation {
        cfg: &cfg,
        image: &image,
        seed: opts.seed,
        max_cycles: Some(opts.max_cycles),
        max_time_fs: None,
        observe: if opts.energy {
            Observe::Energy
        } else {
            Observe::Nothing
        },
        record: opts.record,
        itrace: None,
        console: Box::new(console.clone()),
        stop,
        gdb: None,
        trace: None,
    });
    let text = console.text();
    let record = opts.record.then(|| sorted_record(&done));
    let console_path = write_run_files(dir, &text, &done.stats, record.as_deref())?;
    let status = outcome_status(
        elf,
        &done.outcome,
        &done.machine,
        &done.counts,
        Some(opts.max_cycles),
    );
    let why = match status {
        Ok(c) if opts.expect_exit.is_none_or(|e| e == c) => {
            return Ok(JobResult {
                console: text,
                exit: c,
                cycles: done.counts.cycles,
                stats: done.stats,
                record: record.unwrap_or_default(),
            })
        }
        Ok(c) => Failure::new(
            if c == 0 { 1 } else { c },
            format!(
                "the firmware stopped with exit code {c}, expected {}",
                opts.expect_exit.unwrap_or(0)
            ),
        ),
        Err(f) => Failure::new(
            f.code,
            f.message
                .replace(&elf.display().to_string(), "the firmware"),
        ),
    };
    Err(Failure::new(
        why.code,
        format!(
            "{what}: {}; its console output is in {}",
            why.message,
            console_path.display()
        ),
    ))
}

/// The run's IO record in cycle order.
pub(in crate::experiment) fn sorted_record(done: &Finished) -> Vec<IoEvent> {
    let mut record = done.machine.record().to_vec();
    record.sort_by_key(|e| e.cycle);
    record
}
