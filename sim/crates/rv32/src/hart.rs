//! The hart: architectural state and the run loop. Every instruction takes the same steps,
//! each in its own module: its decoded form comes from the decode cache (`icache`);
//! `execute` applies its semantics and says what it did (an `Outcome`); `complete` (here)
//! has the timing model (`timing`) charge its cycles and events, calls the observer hooks of
//! that outcome and handles what ends or diverts the run (traps, device syncs, CSR writes
//! that may unmask an interrupt, mret, wfi). Exceptions, interrupts and sleep are in `trap`.
//! The hart knows the world only through `Bus` and the interrupt lines (`mip`) the machine
//! drives.

use crate::bus::Bus;
use crate::csr::{event, Csrs, Priv};
use crate::execute::Outcome;
use crate::icache::{DecodeCache, Slot};
use crate::observer::{At, NoObserver, Observer};
use crate::pmp::{Access, Pmp};
use crate::timing::{self as t, Fetch};

/// Exception causes (mcause values without the interrupt bit).
pub mod cause {
    pub const INSN_ACCESS_FAULT: u32 = 1;
    pub const ILLEGAL_INSN: u32 = 2;
    pub const BREAKPOINT: u32 = 3;
    pub const LOAD_ACCESS_FAULT: u32 = 5;
    pub const STORE_ACCESS_FAULT: u32 = 7;
    pub const ECALL_U: u32 = 8;
    pub const ECALL_M: u32 = 11;
    pub const IRQ_SOFTWARE: u32 = 3;
    pub const IRQ_TIMER: u32 = 7;
    pub const IRQ_EXTERNAL: u32 = 11;
    pub const IRQ_FAST0: u32 = 16;
}

/// How many times the same exception at the same PC may repeat, with no instruction retired
/// outside the handler in between, before the machine is declared stuck.
pub const TRAP_LOOP_LIMIT: u32 = 1000;

/// Why `Hart::run` returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// `cycle` reached `limit`.
    Limit,
    /// A device write asked the machine to act before the core goes on.
    Sync,
    /// The core executed `wfi` and sleeps until an enabled interrupt is pending.
    Wfi,
    /// The same exception at the same PC repeated `TRAP_LOOP_LIMIT` times without progress.
    TrapLoop { cause: u32, pc: u32, tval: u32 },
    /// A store into the guard window ([`StoreGuard`]) stopped the core before it wrote: `pc`
    /// is the store's, `guard.hit` its address; nothing of it was done.
    Guard,
}

/// The store guard (set by the machine, e.g. below the running task's stack): a store
/// whose address falls in `[lo, lo + len)` stops the core before it writes ([`Exit::Guard`])
/// unless `pass` is set (it lets one through, and is cleared); a store to `watch` (the
/// word the window depends on) sets `moved`, and the core leaves its run loop after it
/// ([`Exit::Sync`]) so that the machine can move the window. `len` 0: no window.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StoreGuard {
    pub lo: u32,
    pub len: u32,
    pub watch: u32,
    pub pass: bool,
    pub moved: bool,
    /// The address of the store that hit the window.
    pub hit: u32,
}

/// Record of the last exception, for stuck-trap detection and error reports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TrapInfo {
    pub cause: u32,
    pub pc: u32,
    pub tval: u32,
}

pub struct Hart {
    /// x[0..32] are the architectural registers; x[32] absorbs writes to x0 (the decode
    /// cache maps rd = 0 there, so the hot loop needs no x0 check); the rest are unused.
    pub x: [u32; 64],
    pub pc: u32,
    pub privilege: Priv,
    pub csr: Csrs,
    /// Clock cycles since reset, asleep or awake (the RTL's executed cycles).
    pub cycle: u64,
    /// Cycles spent asleep in `wfi` with the clock gated (mcycle does not count them).
    pub slept: u64,
    /// Instructions retired.
    pub instret: u64,
    /// Raw event counts for the performance counters (indices per `csr::event`);
    /// `ev[LSU_WAIT]` counts only waits beyond the first cycle of every access.
    pub ev: [u64; event::COUNT],
    /// Interrupt lines as the core sees them (mip bits), driven by the machine.
    pub mip: u32,
    /// `run` stops at the first instruction boundary at or after this cycle.
    pub limit: u64,
    /// Asleep in `wfi`.
    pub sleeping: bool,
    pub last_trap: TrapInfo,
    /// Stuck-trap detection: how many times `last_trap` repeated, and `instret` at the last
    /// exception or mret.
    pub(crate) trap_repeats: u32,
    pub(crate) progress_mark: u64,
    /// For each mip bit, the cycle its line rose (set by the machine with `mip`).
    pub irq_rose: [u64; 32],
    /// The cycle the core went to sleep in `wfi` (the end of its 3 cycles).
    pub sleep_start: u64,
    /// The first cycle whose clock is gated while asleep (see `sleep_until`).
    pub gate_from: u64,
    /// The timing model's record of the fetch unit (for interrupt entry and `wfi`).
    pub(crate) fetch: Fetch,
    /// The decoded instructions.
    pub(crate) icache: DecodeCache,
    /// Stores that stop the core before they write.
    pub guard: StoreGuard,
}

/// A copy of the architectural and timing state (a debugger's snapshot). The copy starts
/// with an empty decode cache: the cache is transparent, so this changes only speed.
impl Clone for Hart {
    fn clone(&self) -> Hart {
        Hart {
            csr: self.csr.clone(),
            icache: DecodeCache::empty(self.icache.base, self.icache.len),
            ..*self
        }
    }
}

impl Hart {
    /// A hart that executes from `[code_base, code_base + code_len)` and resets to
    /// `boot_addr + 0x80` with `mtvec` at `boot_addr`.
    pub fn new(code_base: u32, code_len: u32, boot_addr: u32) -> Hart {
        Hart {
            x: [0; 64],
            pc: boot_addr.wrapping_add(0x80),
            privilege: Priv::Machine,
            csr: Csrs::new(boot_addr),
            cycle: t::RESET_TO_FIRST as u64,
            slept: 0,
            instret: 0,
            // The RTL counts 3 fetch-wait cycles between reset and the first decode.
            ev: {
                let mut ev = [0; event::COUNT];
                ev[event::FETCH_WAIT] = 3;
                ev
            },
            mip: 0,
            limit: 0,
            sleeping: false,
            last_trap: TrapInfo::default(),
            trap_repeats: 0,
            progress_mark: 0,
            irq_rose: [0; 32],
            sleep_start: 0,
            gate_from: 0,
            fetch: Fetch::new(),
            // The first MiB of code (all of the default machine's RAM), allocated at once.
            icache: DecodeCache::new(code_base, code_len),
            guard: StoreGuard::default(),
        }
    }

    /// The counters an observer sees, with `cycle` and `instret` as given.
    #[inline(always)]
    pub(crate) fn at(&self, cycle: u64, instret: u64) -> At {
        At {
            cycle,
            instret,
            mem: self.ev[event::LOADS] + self.ev[event::STORES],
            xfer: self.ev[event::BRANCHES] + self.ev[event::JUMPS],
        }
    }

    /// The counters an observer sees now (between runs).
    pub fn observed_at(&self) -> At {
        self.at(self.cycle, self.instret)
    }

    /// Raw counts as the CSR file sees them during cycle `cycle`, after `instret`
    /// instructions of which `compressed` compressed: the mcycle register lags the cycle
    /// number by one (RTL: a `csrr mcycle` in decode during cycle c reads c - 1).
    pub(crate) fn raw_counts(
        &self,
        cycle: u64,
        instret: u64,
        compressed: u64,
    ) -> [u64; event::COUNT] {
        let mut raw = self.ev;
        // ev[LSU_WAIT] holds only the waits beyond the one every access has.
        raw[event::LSU_WAIT] += raw[event::LOADS] + raw[event::STORES];
        raw[event::COMPRESSED] = compressed;
        raw[event::CYCLES] = cycle - 1 - self.slept;
        raw[event::INSTRET] = instret;
        raw
    }

    /// The value counter `idx` holds after the last instruction (0 = mcycle, 2 = minstret,
    /// 3.. = mhpmcounters): what the RTL prints at the end of a run.
    pub fn counter(&self, idx: usize) -> u64 {
        let raw = self.raw_counts(self.cycle + 1, self.instret, self.ev[event::COMPRESSED]);
        self.csr.counter(idx, &raw)
    }

    /// CSR `addr` as a debugger reads it between instructions (machine mode; counters as
    /// `counter` gives them), or None if the core has no such CSR.
    pub fn debug_read_csr(&self, addr: u16) -> Option<u32> {
        let raw = self.raw_counts(self.cycle + 1, self.instret, self.ev[event::COMPRESSED]);
        let now = crate::csr::Now {
            raw: &raw,
            mip: self.mip,
        };
        self.csr.read(addr, Priv::Machine, &now).ok()
    }

    /// A debugger's write of CSR `addr` between instructions, with the field rules of a
    /// `csrw`. False if the CSR does not exist or is read-only.
    pub fn debug_write_csr(&mut self, addr: u16, value: u32) -> bool {
        let raw = self.raw_counts(self.cycle + 1, self.instret, self.ev[event::COMPRESSED]);
        self.debug_read_csr(addr).is_some() && self.csr.write(addr, value, &raw, &raw).is_ok()
    }

    /// Give the core `regions` PMP entries (0..=16; 0, the default, means no PMP: its CSRs
    /// are illegal), all off, as at reset.
    pub fn set_pmp_regions(&mut self, regions: usize) {
        self.csr.pmp = Pmp::new(regions);
    }

    /// Invalidate the whole decoded-instruction cache (after the machine loads new code).
    pub fn flush_icache(&mut self) {
        self.icache.flush();
    }

    /// The hot state as `self` holds it (between runs, or after a slow path wrote it back).
    #[inline(always)]
    fn hot(&self) -> Hot {
        Hot {
            pc: self.pc,
            cycle: self.cycle,
            instret: self.instret,
            compressed: self.ev[event::COMPRESSED],
        }
    }

    /// Write the run loop's hot state back to `self`.
    #[inline(always)]
    fn set_hot(&mut self, h: Hot) {
        self.pc = h.pc;
        self.cycle = h.cycle;
        self.instret = h.instret;
        self.ev[event::COMPRESSED] = h.compressed;
    }

    /// Execute instructions until `cycle >= limit`, a device asks for a sync, `wfi` sleeps,
    /// or a trap loop is detected. Interrupts pending at the start are taken first.
    pub fn run<B: Bus>(&mut self, bus: &mut B) -> Exit {
        self.run_obs(bus, &mut NoObserver)
    }

    /// `run`, with every retired instruction, trap, `mret`, load and store reported to `obs`
    /// (which cannot change what the core does).
    ///
    /// Per instruction: take its decoded slot from the decode cache, `execute` it (semantics),
    /// which hands its outcome to `complete` (timing, observer hooks, slow paths), then go on
    /// as `complete` says (`Flow`). The hot state (`Hot`) lives in a local and is written back
    /// to `self` only on the slow paths. Observer hooks are called at three points: before an
    /// instruction the observer flagged START, on the outcome (device access, store,
    /// multiply, divide; exception, interrupt, mret), and after an instruction flagged AFTER.
    /// With `NoObserver` none of them is compiled.
    pub fn run_obs<B: Bus, O: Observer>(&mut self, bus: &mut B, obs: &mut O) -> Exit {
        // Without PMP entries (the default) the loop has no PMP check compiled in.
        if self.csr.pmp.regions() == 0 {
            self.run_loop::<B, O, false>(bus, obs)
        } else {
            self.run_loop::<B, O, true>(bus, obs)
        }
    }

    /// `run_obs`, with (`PMP`) or without the PMP checks of every fetch, load and store.
    #[inline(always)]
    fn run_loop<B: Bus, O: Observer, const PMP: bool>(&mut self, bus: &mut B, obs: &mut O) -> Exit {
        if self.sleeping {
            return Exit::Wfi;
        }
        self.icache.observe(O::ACTIVE);
        if let Some(c) = self.pending_interrupt() {
            self.take_interrupt_obs(c, obs);
        }
        let limit = self.limit;
        let mut h = self.hot();
        while h.cycle < limit {
            let inst = match self.icache.get(h.pc) {
                Some(inst) => *inst,
                None => match self.icache.fill(bus, h.pc, obs) {
                    Ok(inst) => inst,
                    Err(addr) => {
                        // A fetch the PMP blocks never reaches the bus.
                        let pmp_denied =
                            PMP && !self.csr.pmp.allows(h.pc, Access::Exec, self.privilege);
                        let tval = if pmp_denied { h.pc } else { addr };
                        if self.trap(h, cause::INSN_ACCESS_FAULT, tval, t::TRAP_INSN, obs) {
                            return self.trap_loop();
                        }
                        h = self.hot();
                        continue;
                    }
                },
            };
            if PMP && !self.csr.pmp.exec_known(h.pc, inst.len(), self.privilege) {
                let p = self.privilege;
                if let Some(tval) = self.csr.pmp.check_fetch(h.pc, inst.len(), p) {
                    if self.trap(h, cause::INSN_ACCESS_FAULT, tval, t::TRAP_INSN, obs) {
                        return self.trap_loop();
                    }
                    h = self.hot();
                    continue;
                }
            }
            // Observer hook: a function starts.
            if O::ACTIVE && inst.starts_function() {
                obs.boundary(None, h.pc, self.at(h.cycle, h.instret));
            }
            let o = &mut *obs;
            let flow = self.execute::<B, Flow, PMP>(
                inst,
                h,
                bus,
                #[inline(always)]
                move |hart, bus, out, next| hart.complete(inst, h, out, next, bus, o),
            );
            match flow {
                Flow::Next { next, cost } => {
                    h = h.retired(next, h.cycle + cost as u64, inst.compressed())
                }
                Flow::Redo => h = self.hot(),
                Flow::Sync => return Exit::Sync,
                Flow::Wfi => return Exit::Wfi,
                Flow::Stuck => return self.trap_loop(),
                Flow::Guard => return Exit::Guard,
            }
        }
        self.set_hot(h);
        Exit::Limit
    }

    /// What follows the semantics of `inst`, which started at `h` and did `out`, control
    /// going on at `next`: its cycles and events (the timing model), the observer hooks of
    /// the outcome, and the paths that leave the loop's straight line. Inlined into each arm
    /// of `execute`, where `out` is a constant, it reduces to that instruction's part.
    #[inline(always)]
    fn complete<B: Bus, O: Observer>(
        &mut self,
        inst: Slot,
        h: Hot,
        out: Outcome,
        next: u32,
        bus: &mut B,
        obs: &mut O,
    ) -> Flow {
        if let Outcome::Guarded { addr } = out {
            self.set_hot(h);
            self.guard.hit = addr;
            return Flow::Guard;
        }
        let c = inst.compressed();
        let cost = self.charge(
            out,
            next,
            &*bus,
            h.cycle,
            h.instret,
            h.compressed + c as u64,
        );
        let end = h.cycle + cost as u64;
        if O::ACCESSES {
            match out {
                Outcome::Load { addr, size, .. } => obs.access(false, addr, size),
                Outcome::Store { addr, size, .. } => obs.access(true, addr, size),
                _ => {}
            }
        }
        match out {
            Outcome::Load { addr, .. } if O::ACTIVE && self.icache.outside(addr) => {
                obs.device_access()
            }
            Outcome::Store { addr, size, .. } => {
                if O::ACTIVE {
                    if self.icache.outside(addr) {
                        obs.device_access();
                    } else {
                        obs.store(h.pc, addr, size, self.at(end, h.instret + 1), &*bus);
                    }
                }
                if bus.sync_requested() || self.guard.moved {
                    self.set_hot(h.retired(next, end, c));
                    return Flow::Sync;
                }
            }
            Outcome::Mul { .. } => obs.multiply(),
            Outcome::Div { .. } => obs.divide(cost),
            Outcome::LoadFault { tval, .. } => {
                return self.trap_flow(h, cause::LOAD_ACCESS_FAULT, tval, cost, obs)
            }
            Outcome::StoreFault { tval, .. } => {
                return self.trap_flow(h, cause::STORE_ACCESS_FAULT, tval, cost, obs)
            }
            Outcome::Exception {
                cause,
                tval,
                retired,
            } => {
                let h = Hot {
                    instret: h.instret + retired as u64,
                    ..h
                };
                return self.trap_flow(h, cause, tval, cost, obs);
            }
            // A CSR write that may unmask an interrupt: it is taken right after.
            Outcome::Csr { irq: true, .. } => {
                self.set_hot(h.retired(next, end, c));
                if let Some(c) = self.pending_interrupt() {
                    self.take_interrupt_obs(c, obs);
                }
                return Flow::Redo;
            }
            Outcome::Mret => {
                self.set_hot(h.retired(next, end, c));
                obs.mret(self.at(self.cycle, self.instret), next);
                self.progress_mark = self.instret;
                if let Some(c) = self.pending_interrupt() {
                    self.take_interrupt_obs(c, obs);
                }
                return Flow::Redo;
            }
            Outcome::Wfi => {
                // wfi always goes through its sleep sequence; the machine decides when the
                // clock runs again (at once if a line is already up) and calls `wake`.
                self.set_hot(h.retired(next, end, c));
                self.sleeping = true;
                self.sleep_start = self.cycle;
                let late = self.fetch.wfi_stops_late(h.cycle, h.instret, h.compressed);
                self.gate_from = self.cycle + late as u64;
                return Flow::Wfi;
            }
            _ => {}
        }
        // Observer hook: control may have left the function.
        if O::ACTIVE && inst.may_leave_function() {
            obs.boundary(Some(h.pc), next, self.at(end, h.instret + 1));
        }
        Flow::Next { next, cost }
    }

    /// Raise exception `cause` for the instruction at `h`, which used `cost` cycles. True
    /// when the machine is stuck (see `raise`).
    fn trap<O: Observer>(&mut self, h: Hot, cause: u32, tval: u32, cost: u32, obs: &mut O) -> bool {
        self.set_hot(h);
        self.raise(cause, h.pc, tval, cost, obs)
    }

    /// `trap`, for `complete`.
    #[inline(always)]
    fn trap_flow<O: Observer>(
        &mut self,
        h: Hot,
        cause: u32,
        tval: u32,
        cost: u32,
        obs: &mut O,
    ) -> Flow {
        if self.trap(h, cause, tval, cost, obs) {
            Flow::Stuck
        } else {
            Flow::Redo
        }
    }
}

/// The run loop's hot state, kept in registers: the pc and the counters at the start of an
/// instruction (`cycle` is the cycle it starts; `compressed` counts compressed instructions).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Hot {
    pub pc: u32,
    pub cycle: u64,
    pub instret: u64,
    pub compressed: u64,
}

impl Hot {
    /// The state after this instruction retires, ending in cycle `end`, control at `next`.
    #[inline(always)]
    fn retired(self, next: u32, end: u64, compressed: bool) -> Hot {
        Hot {
            pc: next,
            cycle: end,
            instret: self.instret + 1,
            compressed: self.compressed + compressed as u64,
        }
    }
}

/// How the run loop goes on after an instruction. Only `Next` carries data: with an `Exit`
/// inside (whose fields overlap `Next`'s), the observed loop kept `Flow` in memory and ran a
/// third slower (measured).
enum Flow {
    /// The instruction retired after `cost` cycles; the next one is at `next`.
    Next {
        next: u32,
        cost: u32,
    },
    /// A slow path (trap, interrupt, mret) changed the state in `self`: reload it.
    Redo,
    /// Leave the run: `Exit::Sync`, `Exit::Wfi`, or a trap loop (`trap_loop`).
    Sync,
    Wfi,
    Stuck,
    /// A store hit the guard window: nothing of the instruction was done.
    Guard,
}
