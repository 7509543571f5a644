//! `ubik run FIRMWARE.elf`: load, run to the end, report (contract: `docs/contract.md`).

use crate::outputs::{self, Named};
use crate::run_stats::{stats_of, write_io_csv, write_stats, RunInfo, RunStats, Stats};
use crate::uart_host::{self, UartInput, UartSpec};
use crate::{code, Failure};
use clap::Args;
use machine::config::{MachineConfig, RAM_BASE};
use machine::elf::{load_elf_read, read_elf_file, Image};
use machine::machine::cause_name;
use machine::{Counts, Machine, Outcome};
use observe::hang::{self, Hang};
use observe::kernel::DebugInfo;
use observe::stackguard::StackCheck;
use observe::trace::Timeline;
use observe::{EnergyObserver, Results};
use std::cell::RefCell;
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::rc::Rc;
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
    /// Stop when simulated time reaches SECONDS (exit 72, as --max-cycles). No limit by
    /// default.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub max_time: Option<f64>,
    /// Seed mixed into every random stimulus generator.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub seed: u64,
    /// Write run statistics as JSON.
    #[arg(long, value_name = "OUT.json")]
    pub stats: Option<PathBuf>,
    /// Write the IO record (port writes, pin edges, stimuli) as CSV.
    #[arg(long, value_name = "OUT.csv")]
    pub io: Option<PathBuf>,
    /// Write an instruction trace: "CYCLE PC BITS  DISASSEMBLY" per retired instruction,
    /// CYCLE being the cycle the instruction ends (slow; for debugging and comparing with
    /// the RTL's trace).
    #[arg(long, value_name = "OUT.log")]
    pub itrace: Option<PathBuf>,
    /// Model energy and attribute every cycle and joule to a category (user, kernel_*, lisr,
    /// hisr, idle): fills energy_j, avg_power_w, avg_current_a and by_category in --stats.
    /// Implied by --stats, --profile and --trace.
    #[arg(long)]
    pub energy: bool,
    /// With --stats: leave energy and attribution out (null in the JSON; cycles split into
    /// idle and user only) to measure the testbed's bare speed.
    #[arg(long, conflicts_with = "energy")]
    pub no_energy: bool,
    /// Write a per-function profile as CSV: function,calls,cycles,instret,energy_j.
    #[arg(long, value_name = "OUT.csv")]
    pub profile: Option<PathBuf>,
    /// Write a Chrome/Perfetto trace (JSON; Perfetto's protobuf format when OUT ends in
    /// .perfetto-trace): tasks, HISRs and interrupts as slices, kernel events, power,
    /// frequency and voltage as counters. Open it at https://ui.perfetto.dev.
    #[arg(long, value_name = "OUT.json")]
    pub trace: Option<PathBuf>,
    /// Write the GPIO pins, IO-port writes and stimuli as a value change dump (GTKWave).
    #[arg(long, value_name = "OUT.vcd")]
    pub vcd: Option<PathBuf>,
    /// Write the bytes the UART sent to this file (raw), in the order they left the line
    /// (with the machine file's `[uart] tx = "record"`, they go nowhere else).
    #[arg(long, value_name = "OUT.bin")]
    pub uart_out: Option<PathBuf>,
    /// Serve GDB on [HOST:]PORT (127.0.0.1 by default; port 0 picks a free one, printed):
    /// the machine waits at reset for `target remote`; tasks are threads; reverse-stepi and
    /// reverse-continue work. See docs/debugging.md.
    #[arg(long, value_name = "[HOST:]PORT", conflicts_with_all = ["energy", "profile", "trace", "itrace"])]
    pub gdb: Option<String>,
    /// Attach the UART to the host: "stdio" (this terminal), "pty" (a pseudo-terminal, its
    /// path printed) or "tcp:HOST:PORT" (listens, waits for one client). Bytes received go
    /// to the receive FIFO and the IO record; the console goes there instead of stdout.
    /// Simulated time is paced to the wall clock. See docs/cli.md, "Interactive UART".
    #[arg(long, value_name = "stdio|pty|tcp:HOST:PORT", value_parser = uart_host::parse_spec,
          conflicts_with_all = ["gdb", "uart_replay"])]
    pub uart: Option<UartSpec>,
    /// Leave out the testbed's stack guard (a store below the running task's stack stops the
    /// run, exit 71): to test a kernel's own stack check. See docs/debugging.md.
    #[arg(long)]
    pub no_stack_guard: bool,
    /// With --uart: let simulated time run as fast as it can instead of at the wall clock's.
    #[arg(long, requires = "uart")]
    pub no_pace: bool,
    /// Receive again what the UART received from the host in a recorded session: the IO
    /// record (--io) of a run with --uart; each byte arrives at its recorded cycle.
    #[arg(long, value_name = "IO.csv", conflicts_with = "gdb")]
    pub uart_replay: Option<PathBuf>,
}

/// `--gdb`'s listening socket, bound before the run so that a bad address fails at once.
fn listen_gdb(spec: &str) -> Result<std::net::TcpListener, Failure> {
    let addr = if spec.contains(':') {
        spec.to_string()
    } else {
        format!("127.0.0.1:{spec}")
    };
    let l = std::net::TcpListener::bind(&addr).map_err(|e| {
        Failure::new(
            code::UNAVAILABLE,
            format!("--gdb {spec}: cannot listen on {addr}: {e} (expected [HOST:]PORT, e.g. 3333 or 0.0.0.0:3333)"),
        )
    })?;
    let at = l.local_addr().map_or(addr, |a| a.to_string());
    eprintln!("ubik: waiting for GDB on {at} (target remote {at})");
    Ok(l)
}

/// Opens an output file before the run, so that a path that cannot be written fails at once.
fn create_output(path: &Option<PathBuf>, flag: &str) -> Result<Option<(File, PathBuf)>, Failure> {
    match path {
        None => Ok(None),
        Some(p) => File::create(p)
            .map(|f| Some((f, p.clone())))
            .map_err(|e| write_failure(flag, p, &e)),
    }
}

fn write_failure(flag: &str, p: &Path, e: &std::io::Error) -> Failure {
    Failure::new(
        code::IO_ERROR,
        format!("cannot write {flag} {}: {e}", p.display()),
    )
}

/// Where the core stands at the end of a run (for the observer).
fn end_of(m: &Machine) -> rv32::observer::At {
    m.hart.observed_at()
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

/// Write `--stats` for a run that never started (bad input, exit 65). `elf_bytes`: the
/// firmware as read, if it was; a `--stats` that cannot be written makes it 74.
fn stats_for_failure(args: &RunArgs, elf_bytes: Option<&[u8]>, f: Failure) -> Failure {
    if let Some(p) = &args.stats {
        let c = empty_counts();
        let mut stats = stats_of(&RunStats {
            counts: &c,
            slept: 0,
            host_seconds: 0.0,
            observed: None,
            supply_v: 0.0,
        });
        stats.run = Some(run_info(args, elf_bytes, f.code));
        if let Err(e) = write_stats(p, &stats) {
            return write_failure("--stats", p, &e);
        }
    }
    f
}

fn run_info(args: &RunArgs, elf_bytes: Option<&[u8]>, exit_code: u8) -> RunInfo {
    RunInfo::new(
        &args.firmware,
        elf_bytes,
        args.machine.as_deref(),
        args.seed,
        exit_code,
    )
}

/// The output files named on the command line, each with its flag.
fn output_names(args: &RunArgs) -> Vec<Named<'_>> {
    [
        ("--stats", &args.stats),
        ("--io", &args.io),
        ("--itrace", &args.itrace),
        ("--profile", &args.profile),
        ("--trace", &args.trace),
        ("--vcd", &args.vcd),
        ("--uart-out", &args.uart_out),
    ]
    .into_iter()
    .filter_map(|(flag, p)| p.as_deref().map(|p| Named::output(flag, p)))
    .collect()
}

/// A writer that keeps its first error instead of returning it, and writes nothing after it:
/// `--itrace` is written by the machine as it runs, which cannot stop for it; the run goes
/// on, and ends in 74 naming the error.
struct Latched {
    w: Box<dyn Write>,
    error: Rc<RefCell<Option<std::io::Error>>>,
}

impl Latched {
    fn keep(&mut self, r: std::io::Result<()>) {
        if let Err(e) = r {
            *self.error.borrow_mut() = Some(e);
        }
    }
}

impl Write for Latched {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.error.borrow().is_none() {
            let r = self.w.write_all(buf);
            self.keep(r);
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if self.error.borrow().is_none() {
            let r = self.w.flush();
            self.keep(r);
        }
        Ok(())
    }
}

pub fn run(args: RunArgs) -> Result<u8, Failure> {
    let (cfg, elf_bytes, image) = load(&args)?;
    let uart = uart_host::prepare(args.uart.as_ref(), args.uart_replay.as_deref())?;

    let stop = Arc::new(AtomicBool::new(false));
    {
        let stop = stop.clone();
        // Ctrl-C stops the run cleanly; the reports are still written.
        let _ = ctrlc::set_handler(move || stop.store(true, Ordering::Relaxed));
    }

    let mut console = console_writer();
    // Every output is created before the run: a path that cannot be written fails at once
    // (exit 74), not after a long simulation. --stats is written again, whole, at the end;
    // so is --io, unless it is written as the run goes (below).
    create_output(&args.stats, "--stats")?;
    let io_out = create_output(&args.io, "--io")?;
    let itrace_out = create_output(&args.itrace, "--itrace")?;
    let profile_out = create_output(&args.profile, "--profile")?;
    let trace_out = create_output(&args.trace, "--trace")?;
    let vcd_out = create_output(&args.vcd, "--vcd")?;
    let uart_out = create_output(&args.uart_out, "--uart-out")?;
    let gdb = match &args.gdb {
        Some(spec) => Some(GdbServer {
            listener: listen_gdb(spec)?,
            stop: stop.clone(),
            energy: args.stats.is_some() && !args.no_energy,
        }),
        None => None,
    };
    let observe = if gdb.is_some() {
        Observe::Nothing
    } else if trace_out.is_some() {
        Observe::Timeline
    } else if args.energy || (args.stats.is_some() && !args.no_energy) || profile_out.is_some() {
        Observe::Energy
    } else {
        Observe::Nothing
    };
    let itrace_error = Rc::new(RefCell::new(None));
    let (itrace, itrace_path) = match itrace_out {
        Some((f, p)) => (
            Some(Box::new(Latched {
                w: Box::new(std::io::BufWriter::new(f)),
                error: itrace_error.clone(),
            }) as Box<dyn Write>),
            Some(p),
        ),
        None => (None, None),
    };
    // --io alone (no other output made from the record, no debugger's snapshots) is written
    // as the run goes: a long run's record (a stimulus of 60 MiB of times) is not held.
    let streamed =
        (args.vcd.is_none() && uart_out.is_none() && trace_out.is_none() && gdb.is_none())
            .then_some(io_out)
            .flatten();
    let io_sink = streaming_io_sink(&streamed)?;
    // The interactive UART connects last, when nothing can fail any more before the run.
    let uart = uart.connect(!args.no_pace, &stop, &mut console)?;
    let mut done = simulate_streaming(
        Simulation {
            cfg: &cfg,
            image: &image,
            seed: args.seed,
            max_cycles: args.max_cycles,
            max_time_fs: args.max_time.map(seconds_to_fs),
            observe,
            // The IO record is kept only for the outputs made from it.
            record: args.io.is_some()
                || args.vcd.is_some()
                || uart_out.is_some()
                || trace_out.is_some(),
            itrace,
            console,
            stop: &stop,
            gdb,
            trace: trace_out.as_ref().map(|(f, _)| TraceStream {
                out: f.try_clone().map(|f| Box::new(f) as Box<dyn Write>),
                process: format!("ubik: {}", args.firmware.display()),
                protobuf: args.trace.as_deref().is_some_and(trace_is_protobuf),
            }),
        },
        io_sink,
        uart,
        Watch {
            // Under GDB, `monitor stimulus`, `gpio` and `uart rx` can wake any task.
            hangs: args.gdb.is_none(),
            stacks: !args.no_stack_guard,
        },
    );
    // The record's last events (a sink hands them over as they become final).
    let io_streamed = streamed.map(|(_, p)| (done.machine.flush_record(), p));
    let m = &done.machine;
    let status = run_status(&args, &done, &image);

    // Every output is written even when another could not be; the first that could not
    // makes the exit status 74 (its line replaces the run's), and --stats, written last,
    // records that status.
    let mut failed: Option<Failure> = None;
    if let (Some(Err(e)), Some((_, p))) = (&done.trace_written, &trace_out) {
        keep(&mut failed, Err(write_failure("--trace", p, e)));
    }
    if let (Some(e), Some(p)) = (itrace_error.borrow().as_ref(), &itrace_path) {
        keep(&mut failed, Err(write_failure("--itrace", p, e)));
    }
    if let Some((result, p)) = io_streamed {
        keep(
            &mut failed,
            result.map_err(|e| write_failure("--io", &p, &e)),
        );
    } else if let Some(p) = &args.io {
        keep(
            &mut failed,
            write_io_csv(p, m.record()).map_err(|e| write_failure("--io", p, &e)),
        );
    }
    if let (Some((f, p)), Some(r)) = (profile_out, &done.results) {
        keep(
            &mut failed,
            r.write_profile(std::io::BufWriter::new(f))
                .map_err(|e| write_failure("--profile", &p, &e)),
        );
    }
    let end_fs = m.bus.clock.time_fs(done.counts.cycles);
    write_record_outputs(&mut failed, m, uart_out, vcd_out, &args.firmware, end_fs);
    if let Some(p) = &args.stats {
        let mut stats = done.stats.clone();
        let exit_code = match (&failed, &status) {
            (Some(f), _) | (None, Err(f)) => f.code,
            (None, Ok(c)) => *c,
        };
        stats.run = Some(run_info(&args, Some(&elf_bytes), exit_code));
        keep(
            &mut failed,
            write_stats(p, &stats).map_err(|e| write_failure("--stats", p, &e)),
        );
    }

    match failed {
        Some(f) => Err(f),
        None => status,
    }
}

/// The exit status of the run `done` of `image`: the console's failure, else the outcome's,
/// with the overflowing task named and the task report.
fn run_status(args: &RunArgs, done: &Finished, image: &Image) -> Result<u8, Failure> {
    let m = &done.machine;
    match &done.console_flushed {
        Err(e) => Err(Failure::new(
            code::IO_ERROR,
            format!("console output failed: {e}"),
        )),
        Ok(()) => outcome_status(
            &args.firmware,
            &done.outcome,
            m,
            &done.counts,
            args.max_cycles,
        )
        .map_err(|f| name_overflow(f, &done.outcome, image, m))
        .map_err(|f| with_task_report(f, &done.outcome, image, m, done.counts.cycles)),
    }
}

/// `f` with the task report of a kernel-aware image when the run ended without the firmware
/// halting (a limit, Ctrl-C, a fault, a deadlock): what every task was doing.
fn with_task_report(
    mut f: Failure,
    outcome: &Outcome,
    image: &Image,
    m: &Machine,
    cycles: u64,
) -> Failure {
    if matches!(outcome, Outcome::Halted(_) | Outcome::ConsoleError(_)) {
        return f;
    }
    if let Some(info) = DebugInfo::from_image(image) {
        f.report = hang::report_of(&info, &m.bus, m.hart.x[2], cycles);
    }
    f
}

/// A stack overflow's line with the task's name, its stack and the function of the store.
fn name_overflow(mut f: Failure, outcome: &Outcome, image: &Image, m: &Machine) -> Failure {
    let Outcome::StackOverflow { pc, addr } = *outcome else {
        return f;
    };
    let Some((tcb, base, bytes)) = StackCheck::for_image(image).and_then(|g| g.running(&m.bus))
    else {
        return f;
    };
    let name = DebugInfo::from_image(image)
        .and_then(|i| {
            observe::kernel::read_u32(&m.bus, tcb.wrapping_add(i.off_name as u32))
                .and_then(|p| observe::kernel::read_cstr(&m.bus, p))
        })
        .unwrap_or_else(|| format!("task@{tcb:08x}"));
    let func = function_at(image, pc).map_or(String::new(), |n| format!(" in {n}"));
    f.message = format!(
        "{}: stack overflow in task {name}: the store at 0x{addr:08x} ({} bytes below its stack 0x{base:08x}-0x{:08x}, {bytes} bytes) by the instruction at pc 0x{pc:08x}{func}, stopped before it wrote; expected the task's stack_bytes to hold its deepest call",
        f.message.split(": stack overflow").next().unwrap_or_default(),
        base - addr,
        base.wrapping_add(bytes)
    );
    f
}

/// The name of the function of `image` that holds `pc`, if a symbol says.
fn function_at(image: &Image, pc: u32) -> Option<&str> {
    image
        .symbols
        .iter()
        .filter(|s| s.is_func && pc >= s.addr && pc - s.addr < s.size.max(1))
        .map(|s| s.name.as_str())
        .next()
}

/// The firmware's console: on a terminal each line as the firmware prints it; into a pipe or
/// a file block-buffered.
fn console_writer() -> Box<dyn std::io::Write> {
    let stdout = std::io::stdout();
    if std::io::IsTerminal::is_terminal(&stdout) {
        Box::new(std::io::LineWriter::new(stdout))
    } else {
        Box::new(std::io::BufWriter::with_capacity(1 << 16, stdout))
    }
}

/// Reads the machine file and the firmware, with the checks that no output overwrites
/// either: the machine, the ELF's bytes and its image.
fn load(args: &RunArgs) -> Result<(MachineConfig, Vec<u8>, Image), Failure> {
    // No output may be an input or another output (or stdout's file): each would be
    // truncated or overwritten. The machine file's own inputs are known once it is read.
    let outputs = output_names(args);
    let mut inputs = vec![Named::input(
        format!("the firmware {}", args.firmware.display()),
        &args.firmware,
    )];
    if let Some(m) = &args.machine {
        inputs.push(Named::input(format!("the machine file {}", m.display()), m));
    }
    if let Some(r) = &args.uart_replay {
        inputs.push(Named::input(
            format!("the --uart-replay file {}", r.display()),
            r,
        ));
    }
    outputs::check(&outputs, &inputs)?;
    let cfg = match &args.machine {
        Some(p) => {
            let (cfg, read) = MachineConfig::from_file_reading(p);
            let named: Vec<Named> = read
                .iter()
                .map(|f| {
                    let label = format!(
                        "the file {} that the machine file {} names",
                        f.display(),
                        p.display()
                    );
                    Named::input(label, f)
                })
                .collect();
            outputs::check(&outputs, &named)?;
            cfg.map_err(|e| {
                let f = Failure::new(e.exit_code() as u8, e.to_string());
                if f.code == code::DATA {
                    // The firmware was not read yet: read it (bounded) for its hash.
                    let elf = read_elf_file(&args.firmware).ok();
                    stats_for_failure(args, elf.as_deref(), f)
                } else {
                    f
                }
            })?
        }
        None => MachineConfig::default(),
    };
    let elf_bytes = read_elf_file(&args.firmware).map_err(|e| {
        if e.is_io() {
            Failure::new(code::NO_INPUT, e.to_string())
        } else {
            stats_for_failure(args, None, Failure::new(code::DATA, e.to_string()))
        }
    })?;
    let image = load_elf_read(&args.firmware, &elf_bytes, RAM_BASE, cfg.ram_size).map_err(|e| {
        stats_for_failure(
            args,
            Some(&elf_bytes),
            Failure::new(code::DATA, e.to_string()),
        )
    })?;
    Ok((cfg, elf_bytes, image))
}

/// The writer of `--io` as the run goes, when it is (`streamed`): the header now, the rows
/// as the record hands them over.
fn streaming_io_sink(
    streamed: &Option<(File, PathBuf)>,
) -> Result<Option<machine::record::RecordSink>, Failure> {
    Ok(match streamed {
        Some((f, p)) => {
            let mut w = std::io::BufWriter::with_capacity(
                1 << 16,
                f.try_clone().map_err(|e| write_failure("--io", p, &e))?,
            );
            writeln!(w, "{}", crate::run_stats::IO_CSV_HEADER)
                .map_err(|e| write_failure("--io", p, &e))?;
            Some(Box::new(move |ev: &[machine::record::IoEvent]| {
                crate::run_stats::write_io_rows(&mut w, ev.iter())?;
                w.flush()
            }) as machine::record::RecordSink)
        }
        None => None,
    })
}

/// Writes `--uart-out` and `--vcd` from the record, keeping the first failure in `failed`:
/// the dump lasts to `end_fs`, the end of the run, not to its last change.
fn write_record_outputs(
    failed: &mut Option<Failure>,
    m: &Machine,
    uart_out: Option<(File, PathBuf)>,
    vcd_out: Option<(File, PathBuf)>,
    firmware: &Path,
    end_fs: u128,
) {
    if let Some((mut f, p)) = uart_out {
        let sent: Vec<u8> = m
            .record()
            .iter()
            .filter(|e| e.kind == machine::record::IoKind::UartTx)
            .map(|e| e.value as u8)
            .collect();
        keep(
            failed,
            f.write_all(&sent)
                .map_err(|e| write_failure("--uart-out", &p, &e)),
        );
    }
    if let Some((f, p)) = vcd_out {
        let comment = format!("ubik run {}", firmware.display());
        keep(
            failed,
            observe::vcd_out::write_vcd(f, m.record(), &comment, end_fs)
                .map_err(|e| write_failure("--vcd", &p, &e)),
        );
    }
}

/// Keeps the first output failure in `failed`.
fn keep(failed: &mut Option<Failure>, r: Result<(), Failure>) {
    if let Err(f) = r {
        failed.get_or_insert(f);
    }
}

/// What a run observes besides the machine itself.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Observe {
    /// Nothing: the plain run loop, the testbed's bare speed.
    Nothing,
    /// Energy and attribution of every cycle (`--energy`, `--stats`, `--profile`).
    Energy,
    /// Energy, attribution and the task timeline (`--trace`).
    Timeline,
}

/// One run of a firmware image on a machine.
pub struct Simulation<'a> {
    pub cfg: &'a MachineConfig,
    pub image: &'a Image,
    pub seed: u64,
    pub max_cycles: Option<u64>,
    /// The simulated-time limit (femtoseconds), if any.
    pub max_time_fs: Option<u128>,
    pub observe: Observe,
    /// Keep the IO record (`Finished::machine.record()`).
    pub record: bool,
    pub itrace: Option<Box<dyn Write>>,
    pub console: Box<dyn Write>,
    pub stop: &'a AtomicBool,
    /// Serve GDB: the run goes as the debugger resumes it.
    pub gdb: Option<GdbServer>,
    /// Stream the timeline (with `Observe::Timeline`) as the run goes.
    pub trace: Option<TraceStream>,
}

/// `--trace`: where the trace goes (or why it cannot), and the name of its process.
pub struct TraceStream {
    pub out: std::io::Result<Box<dyn Write>>,
    pub process: String,
    /// Perfetto's protobuf format rather than JSON ([`trace_is_protobuf`]).
    pub protobuf: bool,
}

/// `--trace PATH`: Perfetto's protobuf format when PATH ends in `.perfetto-trace`, else JSON.
pub fn trace_is_protobuf(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "perfetto-trace")
}

/// `--gdb`: where GDB connects, and the flag Ctrl-C raises.
pub struct GdbServer {
    pub listener: std::net::TcpListener,
    pub stop: Arc<AtomicBool>,
    /// Measure the run's energy (for `--stats`).
    pub energy: bool,
}

/// A run that ended, and everything it measured.
pub struct Finished {
    pub machine: Machine,
    pub outcome: Outcome,
    pub counts: Counts,
    /// What `--stats` writes.
    pub stats: Stats,
    pub results: Option<Results>,
    pub timeline: Option<Timeline>,
    /// The console's final flush.
    pub console_flushed: std::io::Result<()>,
    /// The streamed trace's writing, if one was asked for.
    pub trace_written: Option<std::io::Result<()>>,
}

/// Runs `sim` to its end. The observers are generic parameters of the run loop: without one,
/// the loop is the plain one (no cost); with one, it cannot change what the machine does.
pub fn simulate(sim: Simulation) -> Finished {
    simulate_streaming(sim, None, UartInput::None, Watch::default())
}

/// What `ubik run` watches for besides the limits: a deadlock (`hangs`), a store below the
/// running task's stack (`stacks`); each only for a kernel-aware image.
#[derive(Clone, Copy, Default)]
pub struct Watch {
    pub hangs: bool,
    pub stacks: bool,
}

/// As [`simulate`], handing the IO record to `io_sink` as the run goes when given (see
/// `Machine::stream_record`; the caller hands over the rest with `flush_record`), the UART's
/// host line receiving `uart`; `watch`: end the run when no task of a kernel-aware image can
/// ever run again ([`Outcome::Deadlock`]) or at a store below the running task's stack
/// ([`Outcome::StackOverflow`]; docs/debugging.md).
pub fn simulate_streaming(
    sim: Simulation,
    io_sink: Option<machine::record::RecordSink>,
    uart: UartInput,
    watch: Watch,
) -> Finished {
    let mut m = Machine::new(sim.cfg, sim.image, sim.seed, sim.console);
    if let Some(h) = Hang::for_image(sim.image).filter(|_| watch.hangs) {
        m.hang_check = Some(Box::new(move |bus, hart| h.stuck(bus, hart.x[2])));
    }
    if let Some(g) = StackCheck::for_image(sim.image).filter(|_| watch.stacks) {
        m.stack_guard = Some(Box::new(g));
    }
    match uart {
        UartInput::None => {}
        UartInput::Host(src) => m.bus.dev.uart.attach_host(src),
        UartInput::Replay(bytes) => m.bus.dev.uart.replay_host(bytes),
    }
    m.set_recording(sim.record);
    if let Some(sink) = io_sink {
        m.stream_record(sink);
    }
    m.itrace = sim.itrace;
    m.time_limit_fs = sim.max_time_fs;
    let mut results: Option<Results> = None;
    let mut timeline = None;
    let mut trace_written = None;
    let t0;
    let outcome;
    match sim.observe {
        Observe::Timeline => {
            let mut o = EnergyObserver::<true>::for_image(sim.image, RAM_BASE, sim.cfg);
            let streaming = match sim.trace {
                Some(t) => {
                    let name = t.process;
                    let pb = t.protobuf;
                    trace_written = Some(t.out.and_then(|w| o.timeline.stream_as(w, &name, pb)));
                    true
                }
                None => false,
            };
            t0 = Instant::now();
            outcome = m.run_with(sim.max_cycles, sim.stop, &mut o);
            results = Some(o.finish(end_of(&m)));
            if streaming && trace_written.as_ref().is_some_and(|r| r.is_ok()) {
                trace_written = Some(o.timeline.finish_stream(m.record()));
            }
            timeline = Some(o.timeline);
        }
        Observe::Energy => {
            let mut o = EnergyObserver::<false>::for_image(sim.image, RAM_BASE, sim.cfg);
            t0 = Instant::now();
            outcome = m.run_with(sim.max_cycles, sim.stop, &mut o);
            results = Some(o.finish(end_of(&m)));
        }
        Observe::Nothing => {
            t0 = Instant::now();
            outcome = match sim.gdb {
                None => m.run(sim.max_cycles, sim.stop),
                Some(g) => {
                    let (back, ended, altered) =
                        debug::serve(g.listener, m, sim.image, sim.max_cycles, g.stop);
                    m = back;
                    let o = match ended {
                        Ok(debug::Ended::Run(o)) => o,
                        // Detached: the run goes on as it would have without GDB.
                        Ok(debug::Ended::Detached) => m.run(sim.max_cycles, sim.stop),
                        Ok(debug::Ended::Killed) => Outcome::Interrupted,
                        Err(e) => {
                            eprintln!("ubik: {e}");
                            Outcome::Interrupted
                        }
                    };
                    if g.energy && !altered && o != Outcome::Interrupted {
                        let limits = (sim.max_cycles, sim.max_time_fs);
                        results = energy_again(sim.cfg, sim.image, sim.seed, limits, sim.stop, &m);
                    }
                    o
                }
            };
        }
    }
    let host_seconds = t0.elapsed().as_secs_f64();
    let console_flushed = m.bus.console.flush();
    if let Some(w) = &mut m.itrace {
        let _ = w.flush();
    }
    let counts = m.counts();
    let stats = stats_of(&RunStats {
        counts: &counts,
        slept: m.hart.slept,
        host_seconds,
        observed: results.as_ref(),
        supply_v: sim.cfg.supply_v,
    });
    Finished {
        machine: m,
        outcome,
        counts,
        stats,
        results,
        timeline,
        console_flushed,
        trace_written,
    }
}

/// The energy of a run under GDB that GDB did not change (no write): the same run again
/// from reset, observed, its console muted (the machine is deterministic); None unless it
/// ends exactly where the debugged run ended.
fn energy_again(
    cfg: &MachineConfig,
    image: &Image,
    seed: u64,
    (max_cycles, max_time_fs): (Option<u64>, Option<u128>),
    stop: &AtomicBool,
    m: &Machine,
) -> Option<Results> {
    let end = end_of(m);
    let mut again = Machine::new(cfg, image, seed, Box::new(std::io::sink()));
    again.time_limit_fs = max_time_fs;
    let mut o = EnergyObserver::<false>::for_image(image, RAM_BASE, cfg);
    let cap = max_cycles.map_or(end.cycle + 1, |c| c.min(end.cycle + 1));
    again.run_with(Some(cap), stop, &mut o);
    (end_of(&again) == end).then(|| o.finish(end_of(&again)))
}

/// `ubik run`'s exit status for a run of `firmware` that ended with `outcome`: the firmware's
/// own code when it halted, otherwise the failure (docs/contract.md).
pub fn outcome_status(
    firmware: &Path,
    outcome: &Outcome,
    m: &Machine,
    counts: &Counts,
    max_cycles: Option<u64>,
) -> Result<u8, Failure> {
    let fw = firmware.display();
    let pc = m.hart.pc;
    match outcome {
        Outcome::Halted(v) => Ok(((v >> 1) & 63) as u8),
        Outcome::MaxCycles => Err(Failure::new(
            code::MAX_CYCLES,
            format!("{fw}: --max-cycles {} reached at pc 0x{pc:08x} before the firmware halted", max_cycles.unwrap_or(0)),
        )),
        Outcome::MaxTime => Err(Failure::new(
            code::MAX_CYCLES,
            format!(
                "{fw}: --max-time {} s of simulated time reached at pc 0x{pc:08x} (cycle {}) before the firmware halted",
                seconds_text(m.time_limit_fs.unwrap_or(0)),
                counts.cycles
            ),
        )),
        Outcome::Paused => unreachable!("only a debugger's probe pauses a run"),
        Outcome::Interrupted => Err(Failure::new(code::INTERRUPTED, format!("{fw}: interrupted at cycle {} (pc 0x{pc:08x})", counts.cycles))),
        Outcome::TrapLoop { cause, pc, tval } => Err(Failure::new(
            code::MACHINE_FAULT,
            format!(
                "{fw}: machine fault: {} (mcause {cause}, mtval 0x{tval:08x}) at pc 0x{pc:08x} repeated {} times with no progress; expected the trap handler to return past it",
                cause_name(*cause),
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
        Outcome::Deadlock { pc } => Err(Failure::new(
            code::DEADLOCK,
            format!(
                "{fw}: deadlock at cycle {}: no task can ever run again (the idle task sleeps at pc 0x{pc:08x}, every other task waits with no timeout and no interrupt but the tick's can wake one); expected a task, a timeout or an interrupt to wake the waiting tasks",
                counts.cycles
            ),
        )),
        Outcome::StackOverflow { pc, addr } => Err(Failure::new(
            code::MACHINE_FAULT,
            format!(
                "{fw}: stack overflow: the store at 0x{addr:08x} by the instruction at pc 0x{pc:08x} falls below the running task's stack (stopped before it wrote); expected the task's stack_bytes to hold its deepest call"
            ),
        )),
        Outcome::ConsoleError(e) => Err(Failure::new(code::IO_ERROR, format!("console output failed: {e}"))),
    }
}

/// `--max-time`: a finite number of seconds from 1e-15 (one femtosecond, the resolution of
/// simulated time: less would round to no time at all) to 10^6 (about 11.6 days).
fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if (1e-15..=1e6).contains(&v) => Ok(v),
        _ => Err(format!(
            "expected a number of seconds from 1e-15 (one femtosecond) to 1000000, got \"{s}\""
        )),
    }
}

/// A time in femtoseconds as seconds for a message: plain above a millisecond ("0.25"),
/// else in exponent form ("1e-15", "2.5e-9"), never rounded to "0".
fn seconds_text(fs: u128) -> String {
    let s = fs as f64 / 1e15;
    if s >= 1e-3 {
        format!("{s}")
    } else {
        format!("{s:e}")
    }
}

/// Seconds to femtoseconds, rounded to the nearest.
fn seconds_to_fs(s: f64) -> u128 {
    (s * 1e15).round() as u128
}
