//! Exceptions, interrupts and sleep: entering a handler (state and entry cycles), the
//! interrupt the core would take, stuck-trap detection, and time passing in `wfi`.

use crate::csr::{self, event, Priv};
use crate::hart::{cause, Exit, Hart, TrapInfo, TRAP_LOOP_LIMIT};
use crate::observer::{NoObserver, Observer};
use crate::timing as t;

impl Hart {
    /// The interrupt the core would take now, by Ibex's priority: fast lines (lowest first),
    /// then external, software, timer.
    pub fn pending_interrupt(&self) -> Option<u32> {
        let p = self.mip & self.csr.mie & csr::IRQ_MASK;
        if p == 0 {
            return None;
        }
        if self.privilege == Priv::Machine && !self.csr.mie_enabled() {
            return None;
        }
        let fast = p >> 16;
        Some(if fast != 0 {
            cause::IRQ_FAST0 + fast.trailing_zeros()
        } else if p & 1 << 11 != 0 {
            cause::IRQ_EXTERNAL
        } else if p & 1 << 3 != 0 {
            cause::IRQ_SOFTWARE
        } else {
            cause::IRQ_TIMER
        })
    }

    fn enter_trap(&mut self, mcause: u32, epc: u32, tval: u32) {
        let c = &mut self.csr;
        let mie = c.mstatus & csr::MSTATUS_MIE != 0;
        let mpp = if self.privilege == Priv::Machine {
            csr::MSTATUS_MPP
        } else {
            0
        };
        c.mstatus = (c.mstatus & !(csr::MSTATUS_MIE | csr::MSTATUS_MPIE | csr::MSTATUS_MPP))
            | if mie { csr::MSTATUS_MPIE } else { 0 }
            | mpp;
        c.mepc = epc;
        c.mcause = mcause;
        c.mtval = tval;
        self.privilege = Priv::Machine;
        let base = c.mtvec & !0xff;
        self.pc = if mcause >> 31 != 0 {
            base + 4 * (mcause & 0x1f)
        } else {
            base
        };
    }

    /// Take interrupt `cause` at the current instruction boundary.
    pub fn take_interrupt(&mut self, cause: u32) {
        self.take_interrupt_obs(cause, &mut NoObserver)
    }

    /// `take_interrupt`, reported to `obs`.
    #[inline]
    pub fn take_interrupt_obs<O: Observer>(&mut self, cause: u32, obs: &mut O) {
        let entry = self
            .fetch
            .irq_entry(self.cycle, self.irq_rose[(cause & 31) as usize]);
        let at = self.at(self.cycle, self.instret);
        self.enter_trap(0x8000_0000 | cause, self.pc, 0);
        obs.interrupt(cause, at, self.pc);
        self.cycle += entry as u64;
        // IRQ_TAKEN and the vector fetch count as fetch waits, the deciding cycle does not
        // (RTL: halt_if masks id_in_ready in it). When the decision falls on one of the
        // interrupted instruction's trailing empty-decode cycles, which it counted as fetch
        // waits, that one is taken back and the ones after it become IRQ_TAKEN and fetch:
        // entry - 1 more in all.
        self.ev[event::FETCH_WAIT] += (entry - 1) as u64;
        self.mark_fetch_restart();
    }

    /// The fetch unit restarts now (after a trap entry or a wake).
    fn mark_fetch_restart(&mut self) {
        self.fetch
            .restart(self.cycle, self.instret, self.ev[event::COMPRESSED]);
    }

    /// Raise an exception for the instruction at `pc` that has used `cost` cycles.
    /// Returns true when the exception repeats without progress (a stuck machine).
    pub(crate) fn raise<O: Observer>(
        &mut self,
        cause: u32,
        pc: u32,
        tval: u32,
        cost: u32,
        obs: &mut O,
    ) -> bool {
        let at = self.at(self.cycle + cost as u64, self.instret);
        let same = self.last_trap.cause == cause && self.last_trap.pc == pc;
        self.trap_repeats = if same && self.instret == self.progress_mark {
            self.trap_repeats + 1
        } else {
            1
        };
        self.progress_mark = self.instret;
        self.last_trap = TrapInfo { cause, pc, tval };
        // Ibex's record of synchronous exceptions, ecall and ebreak included
        // (cpuctrlsts.sync_exc_seen; a second one before mret is a double fault).
        if self.csr.cpuctrlsts & 0x40 != 0 {
            self.csr.cpuctrlsts |= 0x80;
        }
        self.csr.cpuctrlsts |= 0x40;
        self.enter_trap(cause, pc, tval);
        obs.exception(pc, cause, at, self.pc);
        self.cycle += (cost + t::EXCEPTION_ENTRY) as u64;
        self.ev[event::FETCH_WAIT] += 1;
        self.mark_fetch_restart();
        self.trap_repeats >= TRAP_LOOP_LIMIT
    }

    /// The exit for a stuck machine (after `raise` returned true).
    #[inline(always)]
    pub(crate) fn trap_loop(&self) -> Exit {
        let t = self.last_trap;
        Exit::TrapLoop {
            cause: t.cause,
            pc: t.pc,
            tval: t.tval,
        }
    }

    /// Let sleeping time pass up to `cycle`; cycles from `gate_from` on are clock-gated and
    /// not counted by mcycle.
    pub fn sleep_until(&mut self, cycle: u64) {
        self.sleep_until_obs(cycle, &mut NoObserver)
    }

    /// `sleep_until`, reported to `obs`.
    pub fn sleep_until_obs<O: Observer>(&mut self, cycle: u64, obs: &mut O) {
        let gated_from = self.cycle.max(self.gate_from);
        if cycle > self.cycle {
            let from = self.at(self.cycle, self.instret);
            obs.sleep(from, gated_from.min(cycle), cycle);
        }
        if cycle > gated_from {
            self.slept += cycle - gated_from;
        }
        self.cycle = self.cycle.max(cycle);
    }

    /// Wake from `wfi`: the interrupt lines `mip` are up from cycle `line_high` on (which may
    /// be before the core went to sleep). The clock runs again at the later of the two; then
    /// either the interrupt is taken (the vector enters decode 4 cycles later) or, with
    /// interrupts disabled, the instruction after `wfi` enters decode 2 cycles later.
    pub fn wake(&mut self, line_high: u64, mip: u32) {
        self.wake_obs(line_high, mip, &mut NoObserver)
    }

    /// `wake`, reported to `obs`.
    pub fn wake_obs<O: Observer>(&mut self, line_high: u64, mip: u32, obs: &mut O) {
        self.sleep_until_obs(line_high, obs);
        self.sleeping = false;
        self.mip = mip;
        obs.wake(self.cycle);
        match self.pending_interrupt() {
            Some(c) => {
                let at = self.at(self.cycle, self.instret);
                self.enter_trap(0x8000_0000 | c, self.pc, 0);
                obs.interrupt(c, at, self.pc);
                self.cycle += t::WAKE_TO_VECTOR as u64;
                self.ev[event::FETCH_WAIT] += 2;
            }
            None => {
                self.cycle += t::WAKE_TO_NEXT as u64;
                self.ev[event::FETCH_WAIT] += 1;
            }
        }
        self.mark_fetch_restart();
    }
}
