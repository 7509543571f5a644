//! `ubik run FIRMWARE.elf`: load, run to the end, report (contract: `spec/contract.md`).

use crate::report::{stats_json, write_io_csv, write_stats, RunStats};
use crate::{code, Failure};
use clap::Args;
use machine::config::{MachineConfig, RAM_BASE};
use machine::elf::load_elf_file;
use machine::machine::cause_name;
use machine::{Counts, Machine, Outcome};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

#[derive(Args)]
pub struct RunArgs {
    /// The firmware: a 32-bit RISC-V ELF linked for the reference machine.
    pub firmware: PathBuf,
    /// Machine file overriding parts of the default machine.
    #[arg(long, value_name = "M.toml")]
    pub machine: Option<PathBuf>,
    /// Stop after this many clock cycles (exit 72). No limit by default.
    #[arg(long, value_name = "N")]
    pub max_cycles: Option<u64>,
    /// Seed mixed into every random stimulus generator.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub seed: u64,
    /// Write run statistics as JSON.
    #[arg(long, value_name = "OUT.json")]
    pub stats: Option<PathBuf>,
    /// Write the IO record (port writes, pin edges, stimuli) as CSV.
    #[arg(long, value_name = "OUT.csv")]
    pub io: Option<PathBuf>,
    /// Write an instruction trace: "CYCLE PC" per retired instruction, CYCLE being the cycle
    /// the instruction ends (slow; for debugging and comparing with the RTL's trace).
    #[arg(long, value_name = "OUT.log")]
    pub itrace: Option<PathBuf>,
}

fn empty_counts() -> Counts {
    Counts {
        cycles: 0,
        mcycle: 0,
        instret: 0,
        sim_time_s: 0.0,
        opp_time_s: vec![],
    }
}

/// Write `--stats` for a run that never started (bad input, exit 65).
fn stats_for_failure(args: &RunArgs, f: Failure) -> Failure {
    if let Some(p) = &args.stats {
        let c = empty_counts();
        let _ = write_stats(
            p,
            &stats_json(&RunStats {
                counts: &c,
                slept: 0,
                host_seconds: 0.0,
            }),
        );
    }
    f
}

pub fn run(args: RunArgs) -> Result<u8, Failure> {
    let cfg = match &args.machine {
        Some(p) => MachineConfig::from_file(p).map_err(|e| {
            let f = Failure::new(e.exit_code() as u8, e.to_string());
            if f.code == code::DATA {
                stats_for_failure(&args, f)
            } else {
                f
            }
        })?,
        None => MachineConfig::default(),
    };
    let image = load_elf_file(&args.firmware, RAM_BASE, cfg.ram_size).map_err(|e| {
        if e.is_io() {
            Failure::new(code::NO_INPUT, e.to_string())
        } else {
            stats_for_failure(&args, Failure::new(code::DATA, e.to_string()))
        }
    })?;

    let stop = Arc::new(AtomicBool::new(false));
    {
        let stop = stop.clone();
        // Ctrl-C stops the run cleanly; the reports are still written.
        let _ = ctrlc::set_handler(move || stop.store(true, Ordering::Relaxed));
    }

    // On a terminal the console shows each line as the firmware prints it; into a pipe or a
    // file it is block-buffered.
    let stdout = std::io::stdout();
    let console: Box<dyn std::io::Write> = if std::io::IsTerminal::is_terminal(&stdout) {
        Box::new(std::io::LineWriter::new(stdout))
    } else {
        Box::new(std::io::BufWriter::with_capacity(1 << 16, stdout))
    };
    let mut m = Machine::new(&cfg, &image, args.seed, console);
    if let Some(p) = &args.itrace {
        let f = std::fs::File::create(p).map_err(|e| {
            Failure::new(
                code::IO_ERROR,
                format!("cannot write --itrace {}: {e}", p.display()),
            )
        })?;
        m.itrace = Some(Box::new(std::io::BufWriter::new(f)));
    }
    let t0 = Instant::now();
    let outcome = m.run(args.max_cycles, &stop);
    let host_seconds = t0.elapsed().as_secs_f64();
    let flushed = m.bus.console.flush();
    if let Some(w) = &mut m.itrace {
        let _ = w.flush();
    }
    let counts = m.counts();

    if let Some(p) = &args.stats {
        let v = stats_json(&RunStats {
            counts: &counts,
            slept: m.hart.slept,
            host_seconds,
        });
        write_stats(p, &v).map_err(|e| {
            Failure::new(
                code::IO_ERROR,
                format!("cannot write --stats {}: {e}", p.display()),
            )
        })?;
    }
    if let Some(p) = &args.io {
        write_io_csv(p, m.record()).map_err(|e| {
            Failure::new(
                code::IO_ERROR,
                format!("cannot write --io {}: {e}", p.display()),
            )
        })?;
    }

    let fw = args.firmware.display();
    let pc = m.hart.pc;
    match outcome {
        Outcome::Halted(v) => {
            if let Err(e) = flushed {
                return Err(Failure::new(code::IO_ERROR, format!("console output failed: {e}")));
            }
            Ok(((v >> 1) & 63) as u8)
        }
        Outcome::MaxCycles => Err(Failure::new(
            code::MAX_CYCLES,
            format!("{fw}: --max-cycles {} reached at pc 0x{pc:08x} before the firmware halted", args.max_cycles.unwrap_or(0)),
        )),
        Outcome::Interrupted => Err(Failure::new(code::INTERRUPTED, format!("{fw}: interrupted at cycle {} (pc 0x{pc:08x})", counts.cycles))),
        Outcome::TrapLoop { cause, pc, tval } => Err(Failure::new(
            code::MACHINE_FAULT,
            format!(
                "{fw}: machine fault: {} (mcause {cause}, mtval 0x{tval:08x}) at pc 0x{pc:08x} repeated {} times with no progress; expected the trap handler to return past it",
                cause_name(cause),
                rv32::hart::TRAP_LOOP_LIMIT
            ),
        )),
        Outcome::SleepForever { pc } => Err(Failure::new(
            code::MACHINE_FAULT,
            format!(
                "{fw}: machine fault: wfi at pc 0x{pc:08x} with no interrupt that can ever wake the core (mie 0x{:08x}); expected an enabled interrupt source",
                m.hart.csr.mie
            ),
        )),
        Outcome::ConsoleError(e) => Err(Failure::new(code::IO_ERROR, format!("console output failed: {e}"))),
    }
}
