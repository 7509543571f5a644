//! The machine: the core, the bus with its devices, and the run loop that runs the core from
//! event to event. Events (stimulus arrivals, the timer's match, the end of an operating-point
//! switch, an interrupt line reaching the core) happen at exact cycles; one queue, ordered by
//! cycle, holds the next event of every device. The core runs up to the earliest; while it
//! sleeps in `wfi` the loop jumps straight there.

use crate::bus::SysBus;
use crate::clock::Clock;
use crate::clock::Clock as ClockState;
use crate::config::{MachineConfig, RAM_BASE};
use crate::dev::WaitStates;
use crate::dev::{self, Act, Devices, MIP_FAST};
use crate::elf::Image;
use crate::events::{EventQueue, Source};
use crate::record::IoEvent;
use rv32::hart::cause;
use rv32::observer::At;
use rv32::{Exit, Hart, NoObserver, Observer};
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};

/// How many cycles the core runs at most before the loop looks at Ctrl-C again.
const SLICE: u64 = 1 << 22;
/// The queue's source for "a line that rose becomes visible to the core" (after the devices).
const LINES: Source = dev::COUNT as Source;
/// Every device (bit = index in the list).
const ALL_DEVICES: u32 = (1 << dev::COUNT) - 1;
const _: () = assert!(dev::COUNT < 32, "a device mask is a u32");

/// What an observer (the `observe` crate) sees of the machine beyond the core's hooks.
/// Every method has an empty default; `NoObserver` implements none, so `Machine::run`
/// compiles to the loop without observation.
pub trait Probe: Observer {
    /// The run starts at cycle `now` (the cycles from reset belong to the instruction at
    /// `pc`, the first to run).
    #[inline(always)]
    fn begin(&mut self, _now: u64, _pc: u32) {}
    /// The clock switched to operating point `idx` (`hz`, `volts`) at cycle `at`, simulated
    /// time `time_fs`; the core is at `now` (`now.cycle` >= `at`: the core finishes the
    /// instruction in progress). Called at the start of the run for the initial point too.
    #[inline(always)]
    fn opp_changed(
        &mut self,
        _at: u64,
        _now: At,
        _time_fs: u128,
        _idx: usize,
        _hz: u64,
        _volts: f64,
    ) {
    }
    /// An operating-point switch started (by the last instruction retired, which ended at
    /// cycle `at`); the core runs on at the old point for `settle_cycles`.
    #[inline(always)]
    fn switch_started(&mut self, _settle_cycles: u64, _at: u64) {}
    /// The run loop is at cycle `now` (simulated time `time_fs`): once per event or slice.
    #[inline(always)]
    fn slice(&mut self, _now: u64, _time_fs: u128) {}
    /// True for a debugger: the loop then runs one instruction (or one stretch of sleep)
    /// per turn and asks `pause` between turns. The cycles are those of a run without it.
    const STEPS: bool = false;
    /// Between two turns (`STEPS`; not before the first turn of a `run_with`): true ends
    /// the run with [`Outcome::Paused`], the core at an instruction boundary.
    #[inline(always)]
    fn pause(&mut self, _hart: &Hart) -> bool {
        false
    }
}

impl Probe for NoObserver {}

/// What the run loop keeps besides the core and the bus.
#[derive(Clone)]
struct LoopState {
    /// The next event of every device (source = its index in the list) and of `LINES`.
    queue: EventQueue,
    /// For each mip bit, the cycle at which its line rose (None while low).
    rose_at: [Option<u64>; 32],
    /// Femtoseconds at each operating point, up to `opp_since`.
    opp_fs: Vec<u128>,
    opp_since: u64,
    /// Bits of `rose_at` that are set.
    rose_mask: u32,
    /// The queue's entry for `LINES`: a line that rose becomes visible to the core.
    lines_visible: Option<u64>,
}

/// A snapshot of a machine but its RAM ([`Machine::state`]).
#[derive(Clone)]
pub struct State {
    hart: Hart,
    dev: Devices,
    clock: ClockState,
    wait: WaitStates,
    record_len: usize,
    halt: Option<u32>,
    sync: bool,
    touched: u32,
    loop_state: LoopState,
}

impl State {
    /// The core as it was.
    pub fn hart(&self) -> &Hart {
        &self.hart
    }
}

/// Why a run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The firmware wrote SIMCTRL.CTRL with bit 0 set; the value written.
    Halted(u32),
    /// The probe asked to pause ([`Probe::pause`]); the run can go on with `run_with`.
    Paused,
    /// The cycle limit was reached.
    MaxCycles,
    /// The simulated-time limit ([`Machine::time_limit_fs`]) was reached.
    MaxTime,
    /// The stop flag was raised (Ctrl-C).
    Interrupted,
    /// The same exception at the same PC repeated without progress.
    TrapLoop { cause: u32, pc: u32, tval: u32 },
    /// `wfi` with no interrupt that can ever wake the core.
    SleepForever { pc: u32 },
    /// The core sleeps, only the timer can wake it, and the hang check
    /// ([`Machine::hang_check`]) says no task can ever run again.
    Deadlock { pc: u32 },
    /// The stack guard ([`Machine::stack_guard`]) stopped a store at `addr` by the
    /// instruction at `pc` before it wrote (a stack overflow).
    StackOverflow { pc: u32, addr: u32 },
    /// The console could not be written.
    ConsoleError(String),
}

/// Counts at the end of a run (all deterministic).
#[derive(Clone, Debug, PartialEq)]
pub struct Counts {
    pub cycles: u64,
    pub mcycle: u64,
    pub instret: u64,
    pub sim_time_s: f64,
    /// Seconds spent at each operating point.
    pub opp_time_s: Vec<f64>,
}

pub struct Machine {
    pub hart: Hart,
    pub bus: SysBus,
    /// The run loop's own state (a snapshot copies it whole).
    loop_state: LoopState,
    /// Instruction trace: one line per retired instruction (slow: steps one at a time).
    pub itrace: Option<Box<dyn Write>>,
    /// Stop when simulated time reaches this many femtoseconds (`ubik run --max-time`): the
    /// run ends at the first cycle starting at or after it ([`Outcome::MaxTime`]).
    pub time_limit_fs: Option<u128>,
    /// Asked whenever the core sleeps with no interrupt but the timer's that could ever
    /// wake it: true if nothing the timer wakes could ever run again (a kernel-aware check,
    /// `ubik run`'s deadlock detection); the run then ends with [`Outcome::Deadlock`].
    pub hang_check: Option<HangCheck>,
    /// Places the core's store guard ([`rv32::hart::StoreGuard`]) and judges its hits: a
    /// kernel-aware stack-overflow check (`ubik run`); a real hit ends the run with
    /// [`Outcome::StackOverflow`], before the store writes.
    pub stack_guard: Option<Box<dyn StackGuard>>,
}

/// See [`Machine::stack_guard`]. Both read the machine and change nothing.
pub trait StackGuard {
    /// The guard for the machine as it stands: the word it depends on (`watch`), and the
    /// window `[lo, lo + len)` (len 0: none).
    fn place(&mut self, bus: &SysBus, hart: &Hart) -> (u32, u32, u32);
    /// A store at `addr` by the instruction at `hart.pc` hit the window: is it an overflow?
    fn overflow(&mut self, bus: &SysBus, hart: &Hart, addr: u32) -> bool;
}

/// See [`Machine::hang_check`]: reads the machine (RAM, the core's registers), changes nothing.
pub type HangCheck = Box<dyn FnMut(&SysBus, &Hart) -> bool>;

impl Machine {
    /// A machine in its reset state with `image` loaded into RAM. Console bytes go to
    /// `console`. `seed` is mixed into every random stimulus generator.
    pub fn new(cfg: &MachineConfig, image: &Image, seed: u64, console: Box<dyn Write>) -> Machine {
        let mut ram = vec![0u8; cfg.ram_size as usize];
        for seg in &image.segments {
            let off = (seg.addr - RAM_BASE) as usize;
            ram[off..off + seg.data.len()].copy_from_slice(&seg.data);
        }
        let opp = cfg.initial();
        let bus = SysBus {
            ram,
            clock: Clock::new(opp.hz),
            dev: Devices::build(&cfg.devices, seed),
            wait: cfg.wait_states,
            record: Vec::new(),
            recording: true,
            record_sink: None,
            record_sink_error: None,
            console,
            halt: None,
            sync: false,
            console_error: None,
            // The first settle asks every device for its first event.
            touched: ALL_DEVICES,
        };
        Machine {
            hart: {
                let mut hart = Hart::new(RAM_BASE, cfg.ram_size, RAM_BASE);
                hart.set_pmp_regions(cfg.core.pmp_regions);
                hart
            },
            bus,
            loop_state: LoopState {
                queue: EventQueue::new(),
                rose_at: [None; 32],
                opp_fs: vec![0; cfg.devices.power.opps.len()],
                opp_since: 0,
                rose_mask: 0,
                lines_visible: None,
            },
            itrace: None,
            time_limit_fs: None,
            hang_check: None,
            stack_guard: None,
        }
    }

    /// The IO record: every IO-port write, GPIO edge and stimulus event so far (empty when
    /// recording is off).
    pub fn record(&self) -> &[IoEvent] {
        &self.bus.record
    }

    /// Turns the IO record on (the default) or off. Off, nothing is stored however many
    /// events happen: `ubik run` keeps it only for `--io` and `--vcd`.
    pub fn set_recording(&mut self, on: bool) {
        self.bus.recording = on;
        if !on {
            self.bus.record = Vec::new();
        }
    }

    /// Hands the IO record to `sink` as the run goes instead of keeping it (a long run's
    /// record can be far larger than the machine): `record()` then holds only the events
    /// not handed over yet, which `flush_record` hands over at the end. Recording is turned
    /// on. Not for a machine that is snapshotted (`state`/`restore`): what was handed over
    /// cannot be taken back.
    pub fn stream_record(&mut self, sink: crate::record::RecordSink) {
        self.set_recording(true);
        self.bus.record_sink = Some(sink);
    }

    /// Hands every event recorded so far to the sink (the end of a run), and returns the
    /// first error the sink returned, if any. Without a sink: nothing to do.
    pub fn flush_record(&mut self) -> std::io::Result<()> {
        self.hand_over(u64::MAX);
        match self.bus.record_sink_error.take() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// Hands the events before cycle `before` to the sink, in time order. Later events
    /// cannot come before them: every event still to be recorded happens at or after the
    /// earliest event a device has queued, and at or after the current cycle.
    fn hand_over(&mut self, before: u64) {
        let bus = &mut self.bus;
        let Some(sink) = bus.record_sink.as_mut() else {
            return;
        };
        // Stable: events of one cycle keep the order in which they happened.
        bus.record.sort_by_key(|e| e.cycle);
        let n = bus.record.partition_point(|e| e.cycle < before);
        if bus.record_sink_error.is_none() {
            if let Err(e) = sink(&bus.record[..n]) {
                bus.record_sink_error = Some(e);
            }
        }
        bus.record.drain(..n);
    }

    fn now(&self) -> u64 {
        self.hart.cycle
    }

    /// The interrupt lines as the devices drive them now (mip bits).
    fn line_levels(&self) -> u32 {
        self.bus.dev.lines()
    }

    /// Bring every device up to cycle `now`: finish an operating-point switch, then let every
    /// device with an event due act (fire due stimuli, raise the timer); then update which
    /// lines the core sees. A line that rose at cycle L is seen by the core from cycle L + 1
    /// (its input is registered). Leaves the queue with every device's next event.
    #[inline(never)]
    fn settle<P: Probe>(&mut self, now: u64, probe: &mut P) {
        // Devices accessed since the last settle: their next events may have moved.
        let mut stale = std::mem::take(&mut self.bus.touched);
        // Operating-point switch completing (first: it changes the time of later cycles).
        if let Some((idx, done)) = self.bus.power.switching {
            if done <= now {
                self.close_opp_segment(done);
                self.bus.power.current = idx;
                self.bus.power.switching = None;
                let opp = self.bus.power.opps[idx];
                self.bus.clock.set_hz(done, opp.hz);
                self.bus.dev.clock_changed(done);
                stale = ALL_DEVICES;
                let fs = self.bus.clock.time_fs(done);
                let at = self.hart.observed_at();
                probe.opp_changed(done, at, fs, idx, opp.hz, opp.volts);
            }
        }
        self.requeue(stale);
        // Devices due act, earliest first.
        let bus = &mut self.bus;
        let record = if bus.recording {
            Some(&mut bus.record)
        } else {
            None
        };
        // Fast lines a latch raises: enabled, and not up already (a line up has its rise).
        let rising = bus.dev.intc.enable & !(self.loop_state.rose_mask >> 16);
        let mut act = Act::new(
            now,
            &bus.clock,
            record,
            rising,
            &mut self.loop_state.rose_at,
            &mut *bus.console,
            &mut bus.console_error,
        );
        let mut acted = 0u32;
        while let Some(src) = self.loop_state.queue.pop_due(now) {
            match dev::ALL.get(src as usize) {
                Some(&id) => {
                    bus.dev.advance(id, &mut act);
                    acted |= 1 << src;
                }
                None => self.loop_state.lines_visible = None, // LINES: recomputed below
            }
        }
        // The fast lines latched by the devices' events.
        bus.dev.intc.pending |= act.latched();
        self.requeue(acted);
        // Lines: record rises, drop fallen ones, and show the core those seen by now.
        let levels = self.line_levels();
        let mut mip = 0;
        let mut fallen = self.loop_state.rose_mask & !levels;
        while fallen != 0 {
            self.loop_state.rose_at[fallen.trailing_zeros() as usize] = None;
            fallen &= fallen - 1;
        }
        self.loop_state.rose_mask = levels;
        let mut up = levels;
        let mut visible: Option<u64> = None;
        while up != 0 {
            let bit = up.trailing_zeros() as usize;
            up &= up - 1;
            let rose = match self.bus.dev.rose_at(bit as u32) {
                Some(r) => *self.loop_state.rose_at[bit].insert(r),
                None => *self.loop_state.rose_at[bit].get_or_insert(now),
            };
            if rose < now {
                mip |= 1 << bit;
                self.hart.irq_rose[bit] = rose;
            } else {
                // Seen by the core one cycle later.
                visible = Some(visible.map_or(rose + 1, |v| v.min(rose + 1)));
            }
        }
        self.hart.mip = mip;
        if visible != self.loop_state.lines_visible {
            self.loop_state.lines_visible = visible;
            self.loop_state.queue.set(LINES, visible);
        }
        if self.bus.record.len() >= crate::record::SINK_CHUNK && self.bus.record_sink.is_some() {
            let next = self.loop_state.queue.next().unwrap_or(u64::MAX);
            self.hand_over(next.min(now));
        }
    }

    /// Asks the devices of mask `devices` for their next events.
    fn requeue(&mut self, mut devices: u32) {
        while devices != 0 {
            let i = devices.trailing_zeros() as usize;
            devices &= devices - 1;
            let at = self.bus.dev.next_event(dev::ALL[i], &self.bus.clock);
            self.loop_state.queue.set(i as Source, at);
        }
    }

    /// The next cycle after `now` at which something happens, if anything ever will.
    fn next_event(&self, now: u64) -> Option<u64> {
        self.loop_state.queue.next().map(|c| c.max(now + 1))
    }

    /// Could any interrupt ever wake the sleeping core (enabled in mie)?
    /// Called while no line enabled in mie is up (the run loop wakes the core otherwise), so
    /// only the devices' coming events count: a fast line's only if ENABLE lets it through.
    #[inline(never)]
    fn can_ever_wake(&self) -> bool {
        self.can_wake_with(self.hart.csr.mie)
    }

    /// As [`Self::can_ever_wake`], counting only the interrupts of `mie`.
    fn can_wake_with(&self, mie: u32) -> bool {
        let enabled = mie & (!MIP_FAST | self.bus.intc.enable << 16);
        dev::ALL.iter().any(|&id| {
            self.loop_state.queue.get(id.index() as Source).is_some()
                && self.bus.dev.wakes(id) & enabled != 0
        })
    }

    /// The sleeping core can be woken by the timer only, and the hang check says nothing it
    /// wakes could ever run.
    #[cold]
    #[inline(never)]
    fn hung(&mut self) -> bool {
        const MTIE: u32 = 1 << 7;
        if self.can_wake_with(self.hart.csr.mie & !MTIE) {
            return false;
        }
        match &mut self.hang_check {
            Some(check) => check(&self.bus, &self.hart),
            None => false,
        }
    }

    /// Moves the store guard where the stack guard says (none without one).
    #[cold]
    #[inline(never)]
    fn place_guard(&mut self) {
        self.hart.guard.moved = false;
        if let Some(g) = &mut self.stack_guard {
            let (watch, lo, len) = g.place(&self.bus, &self.hart);
            self.hart.guard.watch = watch;
            self.hart.guard.lo = lo;
            self.hart.guard.len = len;
        }
    }

    /// A store hit the guard: true if it overflows a stack; else it is let through.
    #[cold]
    #[inline(never)]
    fn guard_hit(&mut self) -> bool {
        let addr = self.hart.guard.hit;
        let real = match &mut self.stack_guard {
            Some(g) => g.overflow(&self.bus, &self.hart, addr),
            None => false,
        };
        self.hart.guard.pass = !real;
        real
    }

    fn close_opp_segment(&mut self, at: u64) {
        let cur = self.bus.power.current;
        let from = self.loop_state.opp_since;
        if at > from {
            self.loop_state.opp_fs[cur] +=
                self.bus.clock.time_fs(at) - self.bus.clock.time_fs(from);
        }
        self.loop_state.opp_since = at;
    }

    /// Run until the firmware halts, the core is stuck, `max_cycles` is reached, or `stop`
    /// is raised.
    pub fn run(&mut self, max_cycles: Option<u64>, stop: &AtomicBool) -> Outcome {
        self.run_with(max_cycles, stop, &mut NoObserver)
    }

    /// `run`, watched by `probe` (which cannot change what the machine does).
    pub fn run_with<P: Probe>(
        &mut self,
        max_cycles: Option<u64>,
        stop: &AtomicBool,
        probe: &mut P,
    ) -> Outcome {
        let max_cycles = max_cycles.unwrap_or(u64::MAX);
        {
            let now = self.now();
            let idx = self.bus.power.current;
            let opp = self.bus.power.opps[idx];
            probe.begin(now, self.hart.pc);
            let at = self.hart.observed_at();
            probe.opp_changed(now, at, self.bus.clock.time_fs(now), idx, opp.hz, opp.volts);
        }
        let mut first_turn = true;
        self.place_guard();
        loop {
            let now = self.now();
            self.settle(now, probe);
            // The time limit as a cycle, at the current frequency: a switch is an event, so
            // the loop comes back here before the frequency changes.
            let time_max = self
                .time_limit_fs
                .map_or(u64::MAX, |t| self.bus.clock.cycle_at(t));
            let max = max_cycles.min(time_max);
            probe.slice(now, self.bus.clock.time_fs(now));
            self.bus.sync = false;
            if let Some(v) = self.bus.halt {
                return Outcome::Halted(v);
            }
            if let Some(e) = &self.bus.console_error {
                return Outcome::ConsoleError(e.clone());
            }
            if stop.load(Ordering::Relaxed) {
                return Outcome::Interrupted;
            }
            if now >= max {
                return if now >= time_max {
                    Outcome::MaxTime
                } else {
                    Outcome::MaxCycles
                };
            }
            if P::STEPS && !std::mem::take(&mut first_turn) && probe.pause(&self.hart) {
                return Outcome::Paused;
            }
            let next = self.next_event(now);
            if self.hart.sleeping {
                let up = self.line_levels() & self.hart.csr.mie;
                if up != 0 {
                    // The clock runs again in the first cycle a wake-up line is high.
                    let rose = (0..32)
                        .filter(|b| up >> b & 1 != 0)
                        .filter_map(|b| self.loop_state.rose_at[b])
                        .min()
                        .unwrap_or(now);
                    self.hart
                        .wake_obs(rose.max(self.hart.sleep_start), up, probe);
                    continue;
                }
                if !self.can_ever_wake() {
                    return Outcome::SleepForever {
                        pc: self.hart.pc.wrapping_sub(4),
                    };
                }
                if self.hang_check.is_some() && self.hung() {
                    return Outcome::Deadlock {
                        pc: self.hart.pc.wrapping_sub(4),
                    };
                }
                // Jump to the next event (the sleeping clock does not tick the core).
                let to = next.unwrap_or(max).min(max).min(now + SLICE * 64);
                self.hart.sleep_until_obs(to, probe);
                continue;
            }
            self.hart.limit = next.unwrap_or(u64::MAX).min(max).min(now + SLICE);
            if self.itrace.is_some() || P::STEPS {
                self.hart.limit = self.hart.limit.min(now + 1);
            }
            let instret0 = self.hart.instret;
            // The instruction about to run: the vector if an interrupt is taken first.
            let pc0 = match self.hart.pending_interrupt() {
                Some(c) => (self.hart.csr.mtvec & !0xff) + 4 * c,
                None => self.hart.pc,
            };
            let switches = self.bus.power.started;
            let exit = self.hart.run_obs(&mut self.bus, probe);
            if self.bus.power.started != switches {
                probe.switch_started(self.bus.power.last_settle_cycles, self.hart.cycle);
            }
            if self.itrace.is_some() && self.hart.instret != instret0 {
                let line = self.itrace_line(pc0);
                if let Some(w) = &mut self.itrace {
                    let _ = writeln!(w, "{line}");
                }
            }
            if self.hart.guard.moved {
                self.place_guard();
            }
            match exit {
                Exit::Guard => {
                    if self.guard_hit() {
                        return Outcome::StackOverflow {
                            pc: self.hart.pc,
                            addr: self.hart.guard.hit,
                        };
                    }
                }
                Exit::Limit | Exit::Sync | Exit::Wfi => {}
                Exit::TrapLoop { cause, pc, tval } => return Outcome::TrapLoop { cause, pc, tval },
            }
        }
    }

    /// The instruction trace's line for the instruction at `pc` that just retired: the cycle
    /// it ends, its address, its bits and its disassembly.
    #[cold]
    fn itrace_line(&self, pc: u32) -> String {
        use rv32::Bus;
        let cycle = self.hart.cycle;
        match self.bus.fetch16(pc) {
            Some(lo) => {
                let hi = if lo & 3 == 3 {
                    self.bus.fetch16(pc.wrapping_add(2)).unwrap_or(0)
                } else {
                    0
                };
                let inst = rv32::inst::decode(lo, hi);
                let raw = if inst.len == 2 {
                    format!("    {lo:04x}")
                } else {
                    format!("{:08x}", lo as u32 | (hi as u32) << 16)
                };
                let text = rv32::disasm::disasm(&inst, pc);
                format!("{cycle} {pc:08x} {raw}  {text}")
            }
            None => format!("{cycle} {pc:08x}"),
        }
    }

    /// Everything that evolves in a run but RAM (`bus.ram`, which the caller copies as it
    /// likes), the console and the instruction trace: restored with RAM, the machine goes
    /// on exactly as it went from here (a debugger's snapshot).
    pub fn state(&self) -> State {
        State {
            hart: self.hart.clone(),
            dev: self.bus.dev.clone(),
            clock: self.bus.clock.clone(),
            wait: self.bus.wait,
            record_len: self.bus.record.len(),
            halt: self.bus.halt,
            sync: self.bus.sync,
            touched: self.bus.touched,
            loop_state: self.loop_state.clone(),
        }
    }

    /// Back to `s` (RAM apart: the caller restores it). The IO record loses what came after.
    pub fn restore(&mut self, s: &State) {
        self.hart = s.hart.clone();
        self.bus.dev = s.dev.clone();
        self.bus.clock = s.clock.clone();
        self.bus.wait = s.wait;
        self.bus.record.truncate(s.record_len);
        self.bus.halt = s.halt;
        self.bus.sync = s.sync;
        self.bus.touched = s.touched;
        self.loop_state = s.loop_state.clone();
    }

    pub fn counts(&mut self) -> Counts {
        let end = self.now();
        self.close_opp_segment(end);
        let fs = &self.loop_state.opp_fs;
        // A core asleep at the end: its mcycle register froze at the value it held in the
        // first gated cycle (`counter` gives the value after cycle `end`).
        let mcycle = if self.hart.sleeping {
            let stop = self.hart.gate_from.min(end);
            self.hart.counter(0).saturating_sub(end + 1 - stop)
        } else {
            self.hart.counter(0)
        };
        Counts {
            cycles: end,
            mcycle,
            instret: self.hart.counter(2),
            sim_time_s: self.bus.clock.time_s(end),
            opp_time_s: fs
                .iter()
                .map(|&f| f as f64 / crate::clock::FS_PER_S as f64)
                .collect(),
        }
    }
}

/// A one-line description of an exception cause.
pub fn cause_name(c: u32) -> &'static str {
    match c {
        cause::INSN_ACCESS_FAULT => "instruction access fault",
        cause::ILLEGAL_INSN => "illegal instruction",
        cause::BREAKPOINT => "breakpoint",
        cause::LOAD_ACCESS_FAULT => "load access fault",
        cause::STORE_ACCESS_FAULT => "store access fault",
        cause::ECALL_U => "ecall from U-mode",
        cause::ECALL_M => "ecall from M-mode",
        _ => "exception",
    }
}
