//! The machine: the core, the bus with its devices, the stimulus generators, and the run loop
//! that runs the core from event to event. Events (stimulus arrivals, the timer's match, the
//! end of an operating-point switch, an interrupt line reaching the core) happen at exact
//! cycles; while the core sleeps in `wfi` the loop jumps straight to the next event.

use crate::bus::SysBus;
use crate::clock::Clock;
use crate::config::{MachineConfig, RAM_BASE};
use crate::dev::{intc::Intc, io::IoPorts, power::Power, timer::Timer};
use crate::elf::Image;
use crate::input::InputStream;
use crate::record::{IoEvent, IoKind};
use crate::stimulus::StimulusGen;
use rv32::hart::cause;
use rv32::observer::At;
use rv32::{Exit, Hart, NoObserver, Observer};
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};

/// How many cycles the core runs at most before the loop looks at Ctrl-C again.
const SLICE: u64 = 1 << 22;
/// mip bits.
const MIP_MSIP: u32 = 1 << 3;
const MIP_MTIP: u32 = 1 << 7;

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
}

impl Probe for NoObserver {}

/// Why a run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The firmware wrote SIMCTRL.CTRL with bit 0 set; the value written.
    Halted(u32),
    /// The cycle limit was reached.
    MaxCycles,
    /// The stop flag was raised (Ctrl-C).
    Interrupted,
    /// The same exception at the same PC repeated without progress.
    TrapLoop { cause: u32, pc: u32, tval: u32 },
    /// `wfi` with no interrupt that can ever wake the core.
    SleepForever { pc: u32 },
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
    stimuli: Vec<StimulusGen>,
    /// For each mip bit, the cycle at which its line rose (None while low).
    rose_at: [Option<u64>; 32],
    /// Femtoseconds at each operating point, up to `opp_since`.
    opp_fs: Vec<u128>,
    opp_since: u64,
    /// The cycle up to which devices have been brought (see `settle`).
    last_settle: u64,
    /// Bits of `rose_at` that are set.
    rose_mask: u32,
    /// Instruction trace: one line per retired instruction (slow: steps one at a time).
    pub itrace: Option<Box<dyn Write>>,
    /// Stimulus events due in one settle, sorted into the IO record (kept to reuse its
    /// allocation): time, generator, line, event number.
    due_scratch: Vec<(u128, usize, u8, u64)>,
}

impl Machine {
    /// A machine in its reset state with `image` loaded into RAM. Console bytes go to
    /// `console`. `seed` is mixed into every random stimulus generator.
    pub fn new(cfg: &MachineConfig, image: &Image, seed: u64, console: Box<dyn Write>) -> Machine {
        let mut ram = vec![0u8; cfg.ram_size as usize];
        for seg in &image.segments {
            let off = (seg.addr - RAM_BASE) as usize;
            ram[off..off + seg.data.len()].copy_from_slice(&seg.data);
        }
        let opp = cfg.opps[cfg.initial_opp];
        let bus = SysBus {
            ram,
            clock: Clock::new(opp.hz),
            timer: Timer::new(cfg.timer_timebase),
            io: IoPorts::new(cfg.inputs.iter().map(InputStream::new).collect()),
            intc: Intc::default(),
            power: Power::new(cfg.opps.clone(), cfg.initial_opp, cfg.settle_ns),
            wait: cfg.wait_states,
            record: Vec::new(),
            recording: true,
            console,
            halt: None,
            sync: false,
            console_error: None,
        };
        Machine {
            hart: Hart::new(RAM_BASE, cfg.ram_size, RAM_BASE),
            bus,
            stimuli: cfg
                .stimuli
                .iter()
                .map(|s| StimulusGen::new(s, seed))
                .collect(),
            rose_at: [None; 32],
            opp_fs: vec![0; cfg.opps.len()],
            opp_since: 0,
            last_settle: 0,
            rose_mask: 0,
            itrace: None,
            due_scratch: Vec::new(),
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

    fn now(&self) -> u64 {
        self.hart.cycle
    }

    /// The interrupt lines as the devices drive them now (mip bits).
    fn line_levels(&self) -> u32 {
        let b = &self.bus;
        (b.intc.lines() << 16)
            | if b.intc.msip { MIP_MSIP } else { 0 }
            | if b.timer.raised_at.is_some() {
                MIP_MTIP
            } else {
                0
            }
    }

    /// Bring every device up to cycle `now`: fire due stimuli, raise the timer, finish an
    /// operating-point switch; then update which lines the core sees. A line that rose at
    /// cycle L is seen by the core from cycle L + 1 (its input is registered).
    #[inline(never)]
    fn settle<P: Probe>(&mut self, now: u64, probe: &mut P) {
        // Operating-point switch completing (first: it changes the time of later cycles).
        if let Some((idx, done)) = self.bus.power.switching {
            if done <= now {
                self.close_opp_segment(done);
                self.bus.power.current = idx;
                self.bus.power.switching = None;
                let opp = self.bus.power.opps[idx];
                self.bus.clock.set_hz(done, opp.hz);
                self.bus.timer.rearm(done);
                let fs = self.bus.clock.time_fs(done);
                let at = self.hart.observed_at();
                probe.opp_changed(done, at, fs, idx, opp.hz, opp.volts);
            }
        }
        self.fire_stimuli(now);
        // Timer.
        if self.bus.timer.raised_at.is_none() {
            let from = self.last_settle.max(self.bus.timer.armed_at).min(now);
            if let Some(r) = self.bus.timer.next_raise(&self.bus.clock, from) {
                if r <= now {
                    self.bus.timer.raised_at = Some(r);
                }
            }
        }
        self.last_settle = now;
        // Lines: record rises, drop fallen ones, and show the core those seen by now.
        let levels = self.line_levels();
        let mut mip = 0;
        let mut fallen = self.rose_mask & !levels;
        while fallen != 0 {
            self.rose_at[fallen.trailing_zeros() as usize] = None;
            fallen &= fallen - 1;
        }
        self.rose_mask = levels;
        let mut up = levels;
        while up != 0 {
            let bit = up.trailing_zeros() as usize;
            up &= up - 1;
            // The timer's line may have been cleared and raised again within one slice (a
            // write to mtimecmp): its rise is always the timer's own.
            let rose = match (bit, self.bus.timer.raised_at) {
                (7, Some(r)) => *self.rose_at[7].insert(r),
                _ => *self.rose_at[bit].get_or_insert(now),
            };
            if rose < now {
                mip |= 1 << bit;
                self.hart.irq_rose[bit] = rose;
            }
        }
        self.hart.mip = mip;
    }

    /// Fires every stimulus event due by cycle `now`: each generator's line latches once in
    /// PENDING however many of its events came due (a latched line is a level), and the line
    /// rises at its first event's cycle. The events are stored only when the IO record is on,
    /// in time order across generators (ties: the lower generator first).
    fn fire_stimuli(&mut self, now: u64) {
        let until = self.bus.clock.time_fs(now);
        let recording = self.bus.recording;
        let mut due = std::mem::take(&mut self.due_scratch);
        for (i, g) in self.stimuli.iter_mut().enumerate() {
            let line = g.line();
            let fired = if recording {
                g.fire_until(until, Some(&mut |n, t| due.push((t, i, line, n))))
            } else {
                g.fire_until(until, None)
            };
            let Some((first, _)) = fired else { continue };
            self.bus.intc.latch(line);
            let bit = 16 + line as usize;
            if self.bus.intc.enable >> line & 1 != 0 && self.rose_at[bit].is_none() {
                self.rose_at[bit] = Some(self.bus.clock.cycle_at(first));
            }
        }
        if !due.is_empty() {
            due.sort_by_key(|&(t, i, _, _)| (t, i));
            for &(t, _, line, n) in &due {
                let c = self.bus.clock.cycle_at(t);
                self.bus.record.push(IoEvent {
                    cycle: c,
                    time_fs: self.bus.clock.time_fs(c),
                    kind: IoKind::Stimulus,
                    port: line as u32,
                    value: n as u32,
                });
            }
            due.clear();
        }
        self.due_scratch = due;
    }

    /// The next cycle after `now` at which something happens, if anything ever will.
    #[inline(never)]
    fn next_event(&mut self, now: u64) -> Option<u64> {
        let mut next: Option<u64> = None;
        let mut consider = |c: u64| {
            if c > now {
                next = Some(next.map_or(c, |n: u64| n.min(c)));
            }
        };
        if let Some((_, done)) = self.bus.power.switching {
            consider(done);
        }
        for g in &self.stimuli {
            if let Some(t) = g.next_event_fs() {
                consider(self.bus.clock.cycle_at(t).max(now + 1));
            }
        }
        if let Some(r) = self.bus.timer.next_raise(&self.bus.clock, now) {
            consider(r.max(now + 1));
        }
        // A line that rose is seen by the core one cycle later.
        let mut up = self.rose_mask;
        while up != 0 {
            if let Some(r) = self.rose_at[up.trailing_zeros() as usize] {
                consider(r + 1);
            }
            up &= up - 1;
        }
        next
    }

    /// Could any interrupt ever wake the sleeping core (enabled in mie)?
    /// Called while no line enabled in mie is up (the run loop wakes the core otherwise), so
    /// only future raises count.
    #[inline(never)]
    fn can_ever_wake(&mut self) -> bool {
        let mie = self.hart.csr.mie;
        let now = self.now();
        let timer =
            mie & MIP_MTIP != 0 && self.bus.timer.next_raise(&self.bus.clock, now).is_some();
        let stimulus = self.stimuli.iter().any(|g| {
            let l = g.line();
            g.next_event_fs().is_some()
                && self.bus.intc.enable >> l & 1 != 0
                && mie >> (16 + l) & 1 != 0
        });
        timer || stimulus
    }

    fn close_opp_segment(&mut self, at: u64) {
        let cur = self.bus.power.current;
        let from = self.opp_since;
        if at > from {
            self.opp_fs[cur] += self.bus.clock.time_fs(at) - self.bus.clock.time_fs(from);
        }
        self.opp_since = at;
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
        let max = max_cycles.unwrap_or(u64::MAX);
        {
            let now = self.now();
            let idx = self.bus.power.current;
            let opp = self.bus.power.opps[idx];
            probe.begin(now, self.hart.pc);
            let at = self.hart.observed_at();
            probe.opp_changed(now, at, self.bus.clock.time_fs(now), idx, opp.hz, opp.volts);
        }
        loop {
            let now = self.now();
            self.settle(now, probe);
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
                return Outcome::MaxCycles;
            }
            let next = self.next_event(now);
            if self.hart.sleeping {
                let up = self.line_levels() & self.hart.csr.mie;
                if up != 0 {
                    // The clock runs again in the first cycle a wake-up line is high.
                    let rose = (0..32)
                        .filter(|b| up >> b & 1 != 0)
                        .filter_map(|b| self.rose_at[b])
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
                // Jump to the next event (the sleeping clock does not tick the core).
                let to = next.unwrap_or(max).min(max).min(now + SLICE * 64);
                self.hart.sleep_until_obs(to, probe);
                continue;
            }
            self.hart.limit = next.unwrap_or(u64::MAX).min(max).min(now + SLICE);
            if self.itrace.is_some() {
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
            if let Some(w) = &mut self.itrace {
                if self.hart.instret != instret0 {
                    let _ = writeln!(w, "{} {:08x}", self.hart.cycle, pc0);
                }
            }
            match exit {
                Exit::Limit | Exit::Sync | Exit::Wfi => {}
                Exit::TrapLoop { cause, pc, tval } => return Outcome::TrapLoop { cause, pc, tval },
            }
        }
    }

    pub fn counts(&mut self) -> Counts {
        let end = self.now();
        self.close_opp_segment(end);
        let fs = &self.opp_fs;
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
