//! The debug session: the machine as a `gdbstub` target. Resuming runs the machine in
//! chunks of turns through the debug probe, looking at the connection between chunks for
//! GDB's Ctrl-C; reverse execution restores a snapshot and replays (`history`). While the
//! debugger holds the machine no cycle passes, so the run's cycles are those of a run
//! without a debugger.

use crate::arch::{Reg, Regs, Rv32};
use crate::history::History;
use crate::probe::{DebugProbe, Hit, Search, Step, Watch};
use crate::tasks::{state_name, Kernel};
use gdbstub::common::{Signal, Tid};
use gdbstub::outputln;
use gdbstub::target::ext::base::multithread::{
    MultiThreadBase, MultiThreadResume, MultiThreadResumeOps, MultiThreadSchedulerLocking,
    MultiThreadSchedulerLockingOps, MultiThreadSingleStep, MultiThreadSingleStepOps,
};
use gdbstub::target::ext::base::reverse_exec::{
    ReverseCont, ReverseContOps, ReverseStep, ReverseStepOps,
};
use gdbstub::target::ext::base::single_register_access::{
    SingleRegisterAccess, SingleRegisterAccessOps,
};
use gdbstub::target::ext::base::BaseOps;
use gdbstub::target::ext::breakpoints::{
    Breakpoints, BreakpointsOps, HwBreakpoint, HwBreakpointOps, HwWatchpoint, HwWatchpointOps,
    SwBreakpoint, SwBreakpointOps, WatchKind,
};
use gdbstub::target::ext::monitor_cmd::{ConsoleOutput, MonitorCmd, MonitorCmdOps};
use gdbstub::target::ext::thread_extra_info::{ThreadExtraInfo, ThreadExtraInfoOps};
use gdbstub::target::{Target, TargetError, TargetResult};
use machine::elf::Image;
use machine::{Machine, Outcome};
use rv32::Bus;
use std::collections::{BTreeSet, HashMap};
use std::io::Write;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

mod monitor;

pub type StopReason = gdbstub::stub::MultiThreadStopReason<u32>;

/// Turns per chunk of a resumed run (between two looks at the connection).
const CHUNK: u64 = 1 << 16;
/// Turns between two snapshots of a resumed run.
const SNAPSHOT_EVERY: u64 = 1 << 18;
/// The thread of the core when no task runs (bare metal, before the kernel starts).
const CORE_TID: usize = 1;

/// A reverse execution in progress, done a slice of at most `CHUNK` turns per
/// `run_chunk`, so that GDB's Ctrl-C is read between slices.
#[derive(Clone, Copy, Debug)]
enum Back {
    /// Replaying snapshot `window` up to `end` for `search`: the latest match so far;
    /// `fresh` until the snapshot is restored.
    Search {
        search: Search,
        window: usize,
        end: u64,
        found: Option<(u64, Hit)>,
        fresh: bool,
    },
    /// Going to position `at` (a snapshot, then a replay), to stop there for `hit` (None:
    /// the start of history); `fresh` until the snapshot is restored.
    Goto {
        at: u64,
        hit: Option<Hit>,
        fresh: bool,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Resume {
    Continue,
    Step,
    ReverseStep,
    ReverseContinue,
}

pub struct Session {
    pub m: Machine,
    kernel: Option<Kernel>,
    max_cycles: Option<u64>,
    stop: Arc<AtomicBool>,
    /// Turns since reset, and the furthest position reached: the console stays muted below
    /// it, so what a replay prints again is not printed twice.
    pos: u64,
    high: u64,
    muted: Option<Box<dyn Write>>,
    breakpoints: BTreeSet<u32>,
    watches: Vec<Watch>,
    resume: Resume,
    step: Option<Step>,
    history: History,
    back: Option<Back>,
    last_snapshot: u64,
    /// Thread ids by TCB address (stable for the session).
    tids: HashMap<u32, usize>,
    /// After `monitor reset`: the thread GDB last saw stopped, which stands for the core until
    /// a task runs again (GDB is not told of a reset; see `live_tid`).
    stand_in: Option<Tid>,
    /// The resume GDB asked for runs one thread only (the scheduler locked).
    locked: bool,
    /// `monitor reset` since the last resume.
    reset: bool,
    /// How the run ended, once it has (the firmware halted, a limit, the console failed).
    pub ended: Option<Outcome>,
    /// GDB wrote memory or a register, or a monitor command gave the machine input: the
    /// run is no longer the firmware's own.
    pub altered: bool,
    /// The monitor's inputs (`monitor uart rx`, `gpio`, `stimulus`), each at the position
    /// it was given at, in order; those before `next_input` have acted on the machine.
    inputs: Vec<(u64, monitor::Input)>,
    next_input: usize,
}

fn tid(n: usize) -> Tid {
    Tid::new(n).expect("thread ids start at 1")
}

impl Session {
    pub fn new(
        m: Machine,
        image: &Image,
        max_cycles: Option<u64>,
        stop: Arc<AtomicBool>,
    ) -> Session {
        let history = History::new(image, &m);
        Session {
            m,
            kernel: Kernel::from_image(image),
            max_cycles,
            stop,
            pos: 0,
            high: 0,
            muted: None,
            breakpoints: BTreeSet::new(),
            watches: Vec::new(),
            resume: Resume::Continue,
            step: None,
            history,
            back: None,
            last_snapshot: 0,
            tids: HashMap::new(),
            stand_in: None,
            locked: false,
            reset: false,
            ended: None,
            altered: false,
            inputs: Vec::new(),
            next_input: 0,
        }
    }

    fn mute(&mut self) {
        if self.muted.is_none() {
            let real = std::mem::replace(&mut self.m.bus.console, Box::new(std::io::sink()));
            self.muted = Some(real);
        }
    }

    fn unmute(&mut self) {
        if let Some(real) = self.muted.take() {
            self.m.bus.console = real;
        }
    }

    /// The thread the core runs (the current task's, or the core's).
    ///
    /// GDB learns of `monitor reset` only as text: it still holds the thread it last saw
    /// stopped, its registers and its place at a breakpoint, and steps that thread over the
    /// breakpoint when resumed, expecting the stop in that same thread. So until a task runs
    /// again the core's thread keeps that thread's id (`stand_in`): the step, the registers
    /// and the stops GDB asks for are the core's, under the id GDB knows. The first task to
    /// run ends the stand-in; a task keeps its id (its TCB's) across the reset.
    pub fn live_tid(&mut self) -> Tid {
        let cur = self.kernel.as_ref().and_then(|k| k.current(&self.m.bus));
        match cur {
            Some(tcb) if self.task_tcbs().contains(&tcb) => {
                self.stand_in = None;
                tid(self.tid_of(tcb))
            }
            _ => self.stand_in.unwrap_or(tid(CORE_TID)),
        }
    }

    /// Is the core's own thread listed (no task runs)?
    fn core_listed(&self) -> bool {
        let cur = self.kernel.as_ref().and_then(|k| k.current(&self.m.bus));
        cur.is_none_or(|tcb| !self.task_tcbs().contains(&tcb))
    }

    /// Is thread `t` one of the kernel's live tasks?
    fn task_listed(&self, t: Tid) -> bool {
        self.tcb_of(t)
            .is_some_and(|tcb| self.task_tcbs().contains(&tcb))
    }

    fn task_tcbs(&self) -> Vec<u32> {
        match &self.kernel {
            Some(k) => k.tasks(&self.m.bus).iter().map(|t| t.tcb).collect(),
            None => vec![],
        }
    }

    fn tid_of(&mut self, tcb: u32) -> usize {
        let next = self.tids.len() + CORE_TID + 1;
        *self.tids.entry(tcb).or_insert(next)
    }

    fn tcb_of(&self, t: Tid) -> Option<u32> {
        self.tids
            .iter()
            .find(|(_, &n)| n == t.get())
            .map(|(&tcb, _)| tcb)
    }

    fn live_regs(&self) -> Regs {
        let mut r = Regs::default();
        r.x.copy_from_slice(&self.m.hart.x[..32]);
        r.x[0] = 0;
        r.pc = self.m.hart.pc;
        r
    }

    fn regs_of(&mut self, t: Tid) -> Option<Regs> {
        if t == self.live_tid() {
            return Some(self.live_regs());
        }
        let tcb = self.tcb_of(t)?;
        self.kernel.as_ref()?.saved_regs(&self.m.bus, tcb)
    }

    /// The machine's state changed under the debugger (a write): the recorded future is void.
    fn changed(&mut self) {
        self.altered = true;
        self.history.take(self.pos, &self.m);
        self.last_snapshot = self.pos;
        self.high = self.pos;
        self.unmute();
    }

    /// Runs from the current position with `probe`, counting the turns; the outcome.
    fn run(&mut self, probe: &mut DebugProbe) -> Outcome {
        let out = self.drive(probe);
        self.pos = probe.pos;
        out
    }

    /// Runs the machine with `p`, the pages its stores write tracked for the snapshots. The
    /// monitor's inputs at the position it starts from act first, and it pauses at the next
    /// one (`Hit::Reached` before `p.until`), so that they act at their position in every
    /// replay too.
    fn drive(&mut self, p: &mut DebugProbe) -> Outcome {
        while let Some((at, input)) = self.inputs.get(self.next_input) {
            if *at != p.pos {
                break;
            }
            input.apply(&mut self.m);
            self.next_input += 1;
        }
        let until = p.until;
        let next = self.inputs.get(self.next_input).map(|i| i.0);
        if let Some(at) = next.filter(|&at| at > p.pos && at < until) {
            p.until = at;
        }
        p.dirty = std::mem::take(&mut self.history.dirty);
        p.ram_len = self.m.bus.ram.len();
        let out = self.m.run_with(self.max_cycles, &self.stop, p);
        self.history.dirty = std::mem::take(&mut p.dirty);
        if p.until != until {
            p.until = until;
            if p.pos < until && p.hit == Some(Hit::Reached) {
                // Paused for an input, not at the position asked for: a search looks here
                // as the pause would have.
                p.search_here(&self.m.hart);
            }
        }
        out
    }

    /// Puts the machine back to snapshot `i`; its position. A snapshot holds none of the
    /// inputs at its own position: they act when the run goes on from there.
    fn restore(&mut self, i: usize) -> u64 {
        let pos = self.history.restore(i, &mut self.m);
        self.next_input = self.inputs.partition_point(|e| e.0 < pos);
        pos
    }

    /// Puts the machine at position `target` (a snapshot then replay), console muted.
    fn go_to(&mut self, target: u64) {
        self.mute();
        let i = self.history.before(target + 1).unwrap_or_default();
        self.pos = self.restore(i);
        let none = BTreeSet::new();
        let mut p = DebugProbe::new(self.pos, &none, &[]);
        p.stops = false;
        p.until = target;
        self.replay(&mut p);
    }

    /// Runs `p` (its stops off) on to its `until`, as the run went: a trap loop or a limit
    /// is passed through as the run passed it; a run that ended ends the replay.
    fn replay(&mut self, p: &mut DebugProbe) {
        while p.pos < p.until {
            match self.drive(p) {
                Outcome::Halted(_) | Outcome::Interrupted | Outcome::ConsoleError(_) => break,
                _ => {}
            }
        }
        self.pos = p.pos;
    }

    /// Reverse execution, one slice: looks for the latest position before the one it
    /// started from that `search` matches, by replaying the snapshots' windows from the
    /// newest back, then goes there (position 0 if none). A stop reason once there.
    fn reverse(&mut self, search: Search) -> Option<StopReason> {
        let back = match self.back {
            Some(b) => b,
            None => {
                let cur = self.pos;
                self.high = self.high.max(cur);
                self.mute();
                match self.history.before(cur) {
                    Some(window) => Back::Search {
                        search,
                        window,
                        end: cur,
                        found: None,
                        fresh: true,
                    },
                    None => Back::Goto {
                        at: 0,
                        hit: None,
                        fresh: true,
                    },
                }
            }
        };
        let next = match back {
            Back::Search {
                search,
                window,
                end,
                found,
                fresh,
            } => {
                if fresh {
                    self.pos = self.restore(window);
                }
                let (breakpoints, watches) = (self.breakpoints.clone(), self.watches.clone());
                let until = (self.pos + CHUNK).min(end);
                let mut p = DebugProbe::new(self.pos, &breakpoints, &watches);
                p.stops = false;
                p.until = until;
                p.search = Some(search);
                p.found = found;
                p.search_here(&self.m.hart);
                self.replay(&mut p);
                let found = p.found;
                if self.pos < end && self.pos >= until {
                    Back::Search {
                        search,
                        window,
                        end,
                        found,
                        fresh: false,
                    }
                } else {
                    // The window is searched (or the run ended in it).
                    match (found, window.checked_sub(1)) {
                        (Some((at, hit)), _) => Back::Goto {
                            at,
                            hit: Some(hit),
                            fresh: true,
                        },
                        (None, Some(earlier)) => Back::Search {
                            search,
                            window: earlier,
                            end: self.history.get(window).pos,
                            found: None,
                            fresh: true,
                        },
                        (None, None) => Back::Goto {
                            at: 0,
                            hit: None,
                            fresh: true,
                        },
                    }
                }
            }
            Back::Goto { at, hit, fresh } => {
                if fresh {
                    let i = self.history.before(at + 1).unwrap_or_default();
                    self.pos = self.restore(i);
                }
                let none = BTreeSet::new();
                let until = (self.pos + CHUNK).min(at);
                let mut p = DebugProbe::new(self.pos, &none, &[]);
                p.stops = false;
                p.until = until;
                self.replay(&mut p);
                if self.pos < at && self.pos >= until {
                    Back::Goto {
                        at,
                        hit,
                        fresh: false,
                    }
                } else {
                    self.back = None;
                    let t = self.live_tid();
                    return Some(match hit {
                        Some(Hit::Watch(kind, addr)) => StopReason::Watch { tid: t, kind, addr },
                        Some(Hit::Break) => StopReason::SwBreak(t),
                        Some(_) => StopReason::SignalWithThread {
                            tid: t,
                            signal: Signal::SIGTRAP,
                        },
                        None => StopReason::ReplayLog {
                            tid: Some(t),
                            pos: gdbstub::target::ext::base::reverse_exec::ReplayLogPosition::Begin,
                        },
                    });
                }
            }
        };
        self.back = Some(next);
        None
    }

    /// Runs the resumed machine for one chunk: a stop reason for GDB, or None to go on.
    pub fn run_chunk(&mut self) -> Option<StopReason> {
        if self.back.is_some() {
            // A replay in progress goes on (its search is in `back`).
            return self.reverse(Search::Stop);
        }
        match self.resume {
            Resume::ReverseStep => {
                let instret = self.m.hart.instret;
                return self.reverse(Search::Retired { instret });
            }
            Resume::ReverseContinue => return self.reverse(Search::Stop),
            Resume::Continue | Resume::Step => {}
        }
        if self.pos >= self.high {
            self.unmute();
        }
        let breakpoints = std::mem::take(&mut self.breakpoints);
        let watches = std::mem::take(&mut self.watches);
        let mut p = DebugProbe::new(self.pos, &breakpoints, &watches);
        // At most a chunk; and a replay below `high` stops there, where the console
        // comes back.
        p.until = if self.pos < self.high {
            self.high.min(self.pos + CHUNK)
        } else {
            self.pos + CHUNK
        };
        p.step = self.step;
        let out = self.run(&mut p);
        let (hit, step) = (p.hit, p.step);
        self.breakpoints = breakpoints;
        self.watches = watches;
        self.step = step;
        self.high = self.high.max(self.pos);
        if self.pos >= self.last_snapshot + SNAPSHOT_EVERY {
            self.history.take(self.pos, &self.m);
            self.last_snapshot = self.pos;
        }
        let t = self.live_tid();
        let signal = |signal| Some(StopReason::SignalWithThread { tid: t, signal });
        match out {
            Outcome::Paused => match hit {
                Some(Hit::Break) => Some(StopReason::SwBreak(t)),
                Some(Hit::Watch(kind, addr)) => {
                    // GDB's RISC-V watchpoints stop before the access (it then steps over
                    // the instruction itself to show the new value): back one turn, a
                    // replay from a snapshot, in slices as reverse execution goes.
                    self.mute();
                    self.back = Some(Back::Goto {
                        at: self.pos - 1,
                        hit: Some(Hit::Watch(kind, addr)),
                        fresh: true,
                    });
                    self.reverse(Search::Stop)
                }
                Some(Hit::Stepped) => signal(Signal::SIGTRAP),
                _ => None,
            },
            Outcome::Halted(v) => {
                self.ended = Some(out);
                Some(StopReason::Exited(((v >> 1) & 63) as u8))
            }
            Outcome::TrapLoop { cause, .. } => {
                signal(if cause == rv32::hart::cause::ILLEGAL_INSN {
                    Signal::SIGILL
                } else {
                    Signal::SIGSEGV
                })
            }
            Outcome::SleepForever { .. } | Outcome::Deadlock { .. } => signal(Signal::SIGSTOP),
            Outcome::StackOverflow { .. } => signal(Signal::SIGSEGV),
            Outcome::MaxCycles | Outcome::MaxTime => {
                self.ended = Some(out);
                Some(StopReason::Terminated(Signal::SIGXCPU))
            }
            Outcome::Interrupted => {
                self.ended = Some(out);
                Some(StopReason::Terminated(Signal::SIGINT))
            }
            Outcome::ConsoleError(_) => {
                self.ended = Some(out);
                Some(StopReason::Terminated(Signal::SIGPIPE))
            }
        }
    }

    /// What the firmware printed reaches the console while GDB holds the machine (into a
    /// file or a pipe the console is buffered).
    pub fn flush_console(&mut self) {
        let _ = self.m.bus.console.flush();
    }

    /// The machine, at the position the session left it, its console back.
    pub fn finish(mut self) -> Machine {
        self.unmute();
        self.m
    }

    /// GDB's Ctrl-C: the machine is already between chunks. A reverse search stops at the
    /// end of the window it was searching (all after it was searched).
    pub fn interrupted(&mut self) -> StopReason {
        if let Some(Back::Search { end, .. }) = self.back.take() {
            self.go_to(end);
        }
        StopReason::SignalWithThread {
            tid: self.live_tid(),
            signal: Signal::SIGINT,
        }
    }
}

impl Target for Session {
    type Arch = Rv32;
    type Error = String;

    fn base_ops(&mut self) -> BaseOps<'_, Rv32, String> {
        BaseOps::MultiThread(self)
    }

    fn support_breakpoints(&mut self) -> Option<BreakpointsOps<'_, Self>> {
        Some(self)
    }

    fn support_monitor_cmd(&mut self) -> Option<MonitorCmdOps<'_, Self>> {
        Some(self)
    }

    fn guard_rail_implicit_sw_breakpoints(&self) -> bool {
        true
    }
}

impl MultiThreadBase for Session {
    fn read_registers(&mut self, regs: &mut Regs, t: Tid) -> TargetResult<(), Self> {
        *regs = self.regs_of(t).ok_or(TargetError::NonFatal)?;
        Ok(())
    }

    fn write_registers(&mut self, regs: &Regs, t: Tid) -> TargetResult<(), Self> {
        if t != self.live_tid() {
            return Err(TargetError::NonFatal); // a saved context is the kernel's
        }
        if regs.pc & 1 != 0 {
            return Err(TargetError::NonFatal); // RV32IMC: pc bit 0 is always 0
        }
        self.m.hart.x[1..32].copy_from_slice(&regs.x[1..]);
        self.m.hart.pc = regs.pc;
        self.changed();
        Ok(())
    }

    fn support_single_register_access(&mut self) -> Option<SingleRegisterAccessOps<'_, Tid, Self>> {
        Some(self)
    }

    fn read_addrs(&mut self, start: u32, data: &mut [u8], _t: Tid) -> TargetResult<usize, Self> {
        let now = self.m.hart.cycle;
        for (i, b) in data.iter_mut().enumerate() {
            match self.m.bus.peek(start.wrapping_add(i as u32), 1, now) {
                Some(v) => *b = v as u8,
                None if i == 0 => return Err(TargetError::NonFatal),
                None => return Ok(i),
            }
        }
        Ok(data.len())
    }

    fn write_addrs(&mut self, start: u32, data: &[u8], _t: Tid) -> TargetResult<(), Self> {
        let now = self.m.hart.cycle;
        let len = self.m.bus.ram.len();
        for (i, &b) in data.iter().enumerate() {
            let a = start.wrapping_add(i as u32);
            self.m
                .bus
                .write(a, 1, b as u32, now)
                .map_err(|_| TargetError::NonFatal)?;
            self.history.dirty.mark(a, 1, len);
        }
        self.m.hart.flush_icache();
        self.changed();
        Ok(())
    }

    fn list_active_threads(&mut self, each: &mut dyn FnMut(Tid)) -> Result<(), String> {
        let live = self.live_tid();
        let tasks: Vec<usize> = self
            .task_tcbs()
            .into_iter()
            .map(|t| self.tid_of(t))
            .collect();
        if self.core_listed() && !tasks.contains(&live.get()) {
            each(live);
        }
        for n in tasks {
            each(tid(n));
        }
        Ok(())
    }

    fn support_resume(&mut self) -> Option<MultiThreadResumeOps<'_, Self>> {
        Some(self)
    }

    fn support_thread_extra_info(&mut self) -> Option<ThreadExtraInfoOps<'_, Self>> {
        Some(self)
    }
}

impl SingleRegisterAccess<Tid> for Session {
    fn read_register(&mut self, t: Tid, reg: Reg, buf: &mut [u8]) -> TargetResult<usize, Self> {
        let v = match reg {
            Reg::X(i) => self.regs_of(t).ok_or(TargetError::NonFatal)?.x[i as usize],
            Reg::Pc => self.regs_of(t).ok_or(TargetError::NonFatal)?.pc,
            Reg::Csr(n) => self.m.hart.debug_read_csr(n).ok_or(TargetError::NonFatal)?,
            Reg::Priv => match self.m.hart.privilege {
                rv32::csr::Priv::Machine => 3,
                _ => 0,
            },
        };
        buf[..4].copy_from_slice(&v.to_le_bytes());
        Ok(4)
    }

    fn write_register(&mut self, t: Tid, reg: Reg, val: &[u8]) -> TargetResult<(), Self> {
        let v = u32::from_le_bytes(val.try_into().map_err(|_| TargetError::NonFatal)?);
        if t != self.live_tid() {
            return Err(TargetError::NonFatal);
        }
        match reg {
            Reg::X(0) => {}
            Reg::X(i) => self.m.hart.x[i as usize] = v,
            // RV32IMC: pc bit 0 is always 0.
            Reg::Pc if v & 1 != 0 => return Err(TargetError::NonFatal),
            Reg::Pc => self.m.hart.pc = v,
            Reg::Csr(n) => {
                if !self.m.hart.debug_write_csr(n, v) {
                    return Err(TargetError::NonFatal);
                }
            }
            Reg::Priv => return Err(TargetError::NonFatal),
        }
        self.changed();
        Ok(())
    }
}

impl MultiThreadResume for Session {
    /// A continue of one thread alone, first thing after `monitor reset`, is GDB stepping
    /// over the breakpoint it believes that thread stopped at (by a breakpoint on the
    /// instruction after it, the others removed): the machine is at reset, so it steps one
    /// instruction and reports the step in that thread (the stand-in), which ends GDB's
    /// step-over; GDB then puts every breakpoint back and resumes every thread.
    fn resume(&mut self) -> Result<(), String> {
        if std::mem::take(&mut self.reset) && self.locked && self.resume == Resume::Continue {
            self.resume = Resume::Step;
            self.step = Some(Step::new(&self.m.hart));
        }
        Ok(())
    }

    fn clear_resume_actions(&mut self) -> Result<(), String> {
        self.locked = false;
        self.resume = Resume::Continue;
        self.step = None;
        self.back = None;
        Ok(())
    }

    fn set_resume_action_continue(
        &mut self,
        _t: Tid,
        signal: Option<Signal>,
    ) -> Result<(), String> {
        if signal.is_some() {
            return Err("signals cannot be delivered to this target".into());
        }
        Ok(())
    }

    fn support_single_step(&mut self) -> Option<MultiThreadSingleStepOps<'_, Self>> {
        Some(self)
    }

    fn support_reverse_step(&mut self) -> Option<ReverseStepOps<'_, Tid, Self>> {
        Some(self)
    }

    fn support_reverse_cont(&mut self) -> Option<ReverseContOps<'_, Tid, Self>> {
        Some(self)
    }

    fn support_scheduler_locking(&mut self) -> Option<MultiThreadSchedulerLockingOps<'_, Self>> {
        Some(self)
    }
}

/// GDB locks the scheduler to step one thread over a breakpoint or watchpoint. One core
/// runs whatever the kernel schedules: the request is granted by running the core as is
/// (the thread GDB steps is the one running, the others do not run meanwhile unless the
/// kernel switches, which a step rarely spans).
impl MultiThreadSchedulerLocking for Session {
    fn set_resume_action_scheduler_lock(&mut self) -> Result<(), String> {
        self.locked = true;
        Ok(())
    }
}

impl MultiThreadSingleStep for Session {
    fn set_resume_action_step(&mut self, _t: Tid, signal: Option<Signal>) -> Result<(), String> {
        if signal.is_some() {
            return Err("signals cannot be delivered to this target".into());
        }
        // One core: a step steps whatever runs on it.
        self.resume = Resume::Step;
        self.step = Some(Step::new(&self.m.hart));
        Ok(())
    }
}

impl ReverseStep<Tid> for Session {
    fn reverse_step(&mut self, _t: Tid) -> Result<(), String> {
        self.resume = Resume::ReverseStep;
        self.back = None;
        Ok(())
    }
}

impl ReverseCont<Tid> for Session {
    fn reverse_cont(&mut self) -> Result<(), String> {
        self.resume = Resume::ReverseContinue;
        self.back = None;
        Ok(())
    }
}

impl ThreadExtraInfo for Session {
    fn thread_extra_info(&self, t: Tid, buf: &mut [u8]) -> Result<usize, String> {
        let stands_in = self.stand_in == Some(t) && self.core_listed();
        let info = match (self.tcb_of(t), &self.kernel) {
            _ if stands_in && !self.task_listed(t) => "core, no task (since monitor reset)".into(),
            (Some(tcb), Some(k)) => {
                let running = k.current(&self.m.bus) == Some(tcb);
                match k.tasks(&self.m.bus).into_iter().find(|x| x.tcb == tcb) {
                    Some(task) => format!(
                        "{}, prio {}, {}",
                        task.name,
                        task.prio,
                        if running {
                            "running"
                        } else {
                            state_name(task.state)
                        }
                    ),
                    None => return Err(format!("thread {t} has ended")),
                }
            }
            _ if t.get() == CORE_TID && self.core_listed() => "core, no task".into(),
            _ => return Err(format!("there is no thread {t}")),
        };
        let n = info.len().min(buf.len());
        buf[..n].copy_from_slice(&info.as_bytes()[..n]);
        Ok(n)
    }
}

impl Breakpoints for Session {
    fn support_sw_breakpoint(&mut self) -> Option<SwBreakpointOps<'_, Self>> {
        Some(self)
    }

    fn support_hw_breakpoint(&mut self) -> Option<HwBreakpointOps<'_, Self>> {
        Some(self)
    }

    fn support_hw_watchpoint(&mut self) -> Option<HwWatchpointOps<'_, Self>> {
        Some(self)
    }
}

impl SwBreakpoint for Session {
    fn add_sw_breakpoint(&mut self, addr: u32, _kind: usize) -> TargetResult<bool, Self> {
        self.breakpoints.insert(addr);
        Ok(true)
    }

    fn remove_sw_breakpoint(&mut self, addr: u32, _kind: usize) -> TargetResult<bool, Self> {
        Ok(self.breakpoints.remove(&addr))
    }
}

impl HwBreakpoint for Session {
    fn add_hw_breakpoint(&mut self, addr: u32, kind: usize) -> TargetResult<bool, Self> {
        self.add_sw_breakpoint(addr, kind)
    }

    fn remove_hw_breakpoint(&mut self, addr: u32, kind: usize) -> TargetResult<bool, Self> {
        self.remove_sw_breakpoint(addr, kind)
    }
}

impl HwWatchpoint for Session {
    fn add_hw_watchpoint(
        &mut self,
        addr: u32,
        len: u32,
        kind: WatchKind,
    ) -> TargetResult<bool, Self> {
        if len == 0 {
            return Ok(false);
        }
        self.watches.push(Watch { addr, len, kind });
        Ok(true)
    }

    fn remove_hw_watchpoint(
        &mut self,
        addr: u32,
        len: u32,
        kind: WatchKind,
    ) -> TargetResult<bool, Self> {
        let w = Watch { addr, len, kind };
        match self.watches.iter().position(|x| *x == w) {
            Some(i) => {
                self.watches.remove(i);
                Ok(true)
            }
            None => Ok(false),
        }
    }
}

impl MonitorCmd for Session {
    fn handle_monitor_cmd(&mut self, cmd: &[u8], mut out: ConsoleOutput<'_>) -> Result<(), String> {
        let reply = self.monitor(&String::from_utf8_lossy(cmd));
        outputln!(out, "{reply}");
        Ok(())
    }
}
