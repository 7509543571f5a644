//! The hart: architectural state, the pre-decoded instruction cache, execution with Ibex
//! timing, traps and interrupts. It knows the world only through `Bus` and the interrupt
//! lines (`mip`) the machine drives.

use crate::bus::Bus;
use crate::csr::{self, event, Csrs, Now, Priv};
use crate::inst::{decode, Inst, Op};
use crate::observer::{flag, At, NoObserver, Observer};
use crate::timing as t;

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

const CODE_PAGE_SHIFT: u32 = 8;

/// The decode cache starts with `CACHE_MIN_SLOTS` halfwords (the first MiB of the code
/// region, or all of it), grows with the code that runs, and covers at most the first
/// `CACHE_MAX_SLOTS` halfwords (32 MiB): a large RAM costs nothing until code runs there, and
/// code beyond the first 32 MiB is decoded each time it runs (slower, with the same timing).
const CACHE_MIN_SLOTS: usize = 1 << 19;
const CACHE_MAX_SLOTS: usize = 1 << 24;

/// A decoded instruction as the decode cache holds it: 8 bytes. `rd` maps x0 to the sink
/// register 32 and carries the compressed flag in bit 7; the instruction bits (for mtval)
/// are fetched again on the rare path that needs them.
#[derive(Clone, Copy)]
struct Slot {
    op: Op,
    rd: u8,
    rs1: u8,
    rs2: u8,
    imm: i32,
}

const COMPRESSED_FLAG: u8 = 0x80;
/// Observer flags in spare bits of the slot (set only when an observer decoded it): rd bit 6
/// (rd is used as `rd & 63`) and rs2 bit 7 (rs2 is used as `rs2 & 31`).
const OBS_START: u8 = 0x40;
const OBS_AFTER: u8 = 0x80;

impl Slot {
    const UNDECODED: Slot = Slot {
        op: Op::Undecoded,
        rd: 0,
        rs1: 0,
        rs2: 0,
        imm: 0,
    };

    fn from_inst(i: &Inst) -> Slot {
        let rd = if i.rd == 0 { 32 } else { i.rd };
        Slot {
            op: i.op,
            rd: rd | if i.len == 2 { COMPRESSED_FLAG } else { 0 },
            rs1: i.rs1,
            rs2: i.rs2,
            imm: i.imm,
        }
    }

    #[inline(always)]
    fn compressed(&self) -> bool {
        self.rd & COMPRESSED_FLAG != 0
    }

    #[inline(always)]
    fn len(&self) -> u32 {
        if self.compressed() {
            2
        } else {
            4
        }
    }
}

#[derive(Clone, Copy, Debug)]
struct FetchMark {
    cycle: u64,
    instret: u64,
    compressed: u64,
}

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
    trap_repeats: u32,
    progress_mark: u64,
    /// The cycle at which the last instruction with trailing wait cycles ended, and how many
    /// of those cycles (a fetch bubble, a flush's empty decode) can serve as the cycle in
    /// which the core decides to take an interrupt (RTL: the vector enters decode 3 cycles
    /// after that decision; see `take_interrupt`).
    overlap_end: u64,
    overlap: u32,
    /// For each mip bit, the cycle its line rose (set by the machine with `mip`).
    pub irq_rose: [u64; 32],
    /// The cycle the core went to sleep in `wfi` (the end of its 3 cycles).
    pub sleep_start: u64,
    /// The first cycle whose clock is gated while asleep (see `sleep_until`).
    pub gate_from: u64,
    /// The last time the fetch unit restarted (jump, taken branch, mret, fence.i, trap, wake):
    /// the cycle and the instruction and compressed-instruction counts. From these, `wfi`
    /// tells whether the prefetch buffer has filled since (see docs/timing.md).
    fetch_mark: FetchMark,
    /// One slot per halfword from `code_base`, as far as code has run (see `CACHE_MAX_SLOTS`).
    icache: Vec<Slot>,
    /// The decode cache holds observer flags (it was filled under an active observer).
    icache_observed: bool,
    /// Pages (2^CODE_PAGE_SHIFT bytes) holding decoded instructions: stores elsewhere need
    /// no invalidation. Covers the decode cache (and one page more).
    code_pages: Vec<bool>,
    code_base: u32,
    code_len: u32,
}

impl Hart {
    /// A hart that executes from `[code_base, code_base + code_len)` and resets to
    /// `boot_addr + 0x80` with `mtvec` at `boot_addr`.
    pub fn new(code_base: u32, code_len: u32, boot_addr: u32) -> Hart {
        let mut hart = Hart {
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
            overlap_end: u64::MAX,
            overlap: 0,
            irq_rose: [0; 32],
            sleep_start: 0,
            gate_from: 0,
            fetch_mark: FetchMark {
                cycle: t::RESET_TO_FIRST as u64,
                instret: 0,
                compressed: 0,
            },
            icache: Vec::new(),
            icache_observed: false,
            code_pages: Vec::new(),
            code_base,
            code_len,
        };
        // The first MiB of code (all of the default machine's RAM), allocated at once.
        hart.grow_icache(0);
        hart
    }

    /// The counters an observer sees, with `cycle` and `instret` as given.
    #[inline(always)]
    fn at(&self, cycle: u64, instret: u64) -> At {
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

    /// Cycles the core was awake (what mcycle counts when not inhibited).
    pub fn awake_cycles(&self) -> u64 {
        self.cycle - self.slept
    }

    /// Raw counts as the CSR file sees them during cycle `cycle`: the mcycle register lags the
    /// cycle number by one (RTL: a `csrr mcycle` in decode during cycle c reads c - 1).
    fn raw_counts(&self, cycle: u64, instret: u64) -> [u64; event::COUNT] {
        let mut raw = self.ev;
        // ev[LSU_WAIT] holds only the waits beyond the one every access has.
        raw[event::LSU_WAIT] += raw[event::LOADS] + raw[event::STORES];
        raw[event::CYCLES] = cycle - 1 - self.slept;
        raw[event::INSTRET] = instret;
        raw
    }

    /// The value counter `idx` holds after the last instruction (0 = mcycle, 2 = minstret,
    /// 3.. = mhpmcounters): what the RTL prints at the end of a run.
    pub fn counter(&self, idx: usize) -> u64 {
        self.csr
            .counter(idx, &self.raw_counts(self.cycle + 1, self.instret))
    }

    /// Forget the decoded form of code overlapping `[addr, addr + size)` (after a write).
    #[inline]
    fn invalidate(&mut self, addr: u32, size: u32) {
        let off = addr.wrapping_sub(self.code_base);
        // Most stores go to pages that hold no decoded code: two lookups and out. A store
        // at `off` can touch instructions starting from `off - 2`.
        let page = |o: u32| {
            self.code_pages
                .get((o >> CODE_PAGE_SHIFT) as usize)
                .copied()
                .unwrap_or(false)
        };
        if page(off.wrapping_sub(2)) || page(off.wrapping_add(size - 1)) {
            self.invalidate_slow(off, size);
        }
    }

    #[cold]
    fn invalidate_slow(&mut self, off: u32, size: u32) {
        if off < self.code_len {
            let first = (off >> 1).saturating_sub(1) as usize;
            let last = ((off + size - 1) >> 1) as usize;
            // Only pages the cache covers are marked: `last` may lie one slot beyond it.
            for i in first..=last.min(self.icache.len() - 1) {
                if self.icache[i].op != Op::Undecoded {
                    self.icache[i] = Slot::UNDECODED;
                }
            }
        }
    }

    /// Invalidate the whole decoded-instruction cache (after the machine loads new code).
    pub fn flush_icache(&mut self) {
        self.icache.fill(Slot::UNDECODED);
        self.code_pages.fill(false);
    }

    /// Grows the decode cache to hold slot `idx` (with room to spare), if it may hold it.
    #[cold]
    #[inline(never)]
    fn grow_icache(&mut self, idx: usize) -> bool {
        let limit = ((self.code_len / 2) as usize + 1).min(CACHE_MAX_SLOTS);
        if idx >= limit {
            return false;
        }
        let len = (idx + 1)
            .next_power_of_two()
            .max(CACHE_MIN_SLOTS)
            .min(limit);
        self.icache.resize(len, Slot::UNDECODED);
        // Pages up to the byte after the last slot's instruction (it may end on the next).
        self.code_pages
            .resize(((2 * len + 2) >> CODE_PAGE_SHIFT) + 1, false);
        true
    }

    /// Decode the instruction at `pc`, or return the fetch-fault address.
    #[cold]
    fn decode_at<B: Bus, O: Observer>(&mut self, bus: &B, pc: u32, obs: &O) -> Result<Slot, u32> {
        let lo = bus.fetch16(pc).ok_or(pc)?;
        let hi = if lo & 3 == 3 {
            bus.fetch16(pc.wrapping_add(2)).ok_or(pc.wrapping_add(2))?
        } else {
            0
        };
        let decoded = decode(lo, hi);
        let mut inst = Slot::from_inst(&decoded);
        if O::ACTIVE {
            let target = match decoded.op {
                Op::Jal | Op::Beq | Op::Bne | Op::Blt | Op::Bge | Op::Bltu | Op::Bgeu => {
                    Some(pc.wrapping_add(decoded.imm as u32))
                }
                _ => None,
            };
            let f = obs.flags(pc, decoded.op, decoded.rd, target);
            if f & flag::START != 0 {
                inst.rd |= OBS_START;
            }
            if f & flag::AFTER != 0 {
                inst.rs2 |= OBS_AFTER;
            }
        }
        let off = pc.wrapping_sub(self.code_base);
        let idx = (off >> 1) as usize;
        if off < self.code_len && (idx < self.icache.len() || self.grow_icache(idx)) {
            self.icache[idx] = inst;
            // An instruction may start on the last halfword of a page and end on the next.
            self.code_pages[(off >> CODE_PAGE_SHIFT) as usize] = true;
            if let Some(p) = self
                .code_pages
                .get_mut(((off + 2) >> CODE_PAGE_SHIFT) as usize)
            {
                *p = true;
            }
        }
        Ok(inst)
    }

    /// A load that crosses a word boundary faulted: Ibex issues both word accesses; mtval is
    /// the address if the first faults, else the second word's address.
    #[cold]
    fn split_fault_addr<B: Bus>(bus: &mut B, a: u32, size: u32) -> u32 {
        let second = (a & !3).wrapping_add(4);
        let first_ok = (a..second.min(a.wrapping_add(size))).all(|b| bus.read(b, 1, 0).is_ok());
        if first_ok {
            second
        } else {
            a
        }
    }

    /// A store that crosses a word boundary faulted: Ibex still writes the half that is
    /// mapped. Returns mtval as for loads.
    #[cold]
    fn split_store<B: Bus>(bus: &mut B, a: u32, size: u32, value: u32, now: u64) -> u32 {
        let second = (a & !3).wrapping_add(4);
        let mut first_ok = true;
        for i in 0..size {
            let b = a.wrapping_add(i);
            let ok = bus.write(b, 1, value >> (8 * i), now).is_ok();
            if b < second && !ok {
                first_ok = false;
            }
        }
        if first_ok {
            second
        } else {
            a
        }
    }

    /// The bits of the instruction at `pc` (16 for a compressed one), for mtval.
    #[cold]
    fn raw_bits<B: Bus>(bus: &B, pc: u32, compressed: bool) -> u32 {
        let lo = bus.fetch16(pc).unwrap_or(0) as u32;
        if compressed {
            lo
        } else {
            lo | (bus.fetch16(pc.wrapping_add(2)).unwrap_or(0) as u32) << 16
        }
    }

    /// Extra cycle when a redirect lands on a 32-bit instruction at an address = 2 mod 4.
    #[inline]
    fn target_penalty<B: Bus>(&self, bus: &B, target: u32) -> u32 {
        if target & 2 != 0 {
            if let Some(h) = bus.fetch16(target) {
                if h & 3 == 3 {
                    return t::MISALIGNED_TARGET;
                }
            }
        }
        0
    }

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
        // The decision falls in the first cycle, at or after the line rose, that is either the
        // cycle after the interrupted instruction or one of its overlappable trailing cycles.
        let entry = if self.cycle == self.overlap_end {
            let since_rise =
                self.cycle
                    .saturating_sub(self.irq_rose[(cause & 31) as usize]) as u32;
            t::IRQ_ENTRY - self.overlap.min(since_rise)
        } else {
            t::IRQ_ENTRY
        };
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
        self.fetch_mark = FetchMark {
            cycle: self.cycle,
            instret: self.instret,
            compressed: self.ev[event::COMPRESSED],
        };
    }

    /// Raise an exception for the instruction at `pc` that has used `cost` cycles.
    /// Returns true when the exception repeats without progress (a stuck machine).
    fn raise<O: Observer>(
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

    /// Execute instructions until `cycle >= limit`, a device asks for a sync, `wfi` sleeps,
    /// or a trap loop is detected. Interrupts pending at the start are taken first.
    ///
    /// The hot state (pc, cycle, instret) lives in locals; `sync_out!` writes it back before
    /// anything that reads `self` (traps, CSRs), `sync_in!` reloads it after.
    pub fn run<B: Bus>(&mut self, bus: &mut B) -> Exit {
        self.run_obs(bus, &mut NoObserver)
    }

    /// `run`, with every retired instruction, trap, `mret`, load and store reported to `obs`
    /// (which cannot change what the core does).
    pub fn run_obs<B: Bus, O: Observer>(&mut self, bus: &mut B, obs: &mut O) -> Exit {
        if self.sleeping {
            return Exit::Wfi;
        }
        if O::ACTIVE != self.icache_observed {
            // Slots decoded for (or without) an observer lack (or carry) its flags.
            self.flush_icache();
            self.icache_observed = O::ACTIVE;
        }
        if let Some(c) = self.pending_interrupt() {
            self.take_interrupt_obs(c, obs);
        }
        let limit = self.limit;
        let mut pc = self.pc;
        let mut cycle = self.cycle;
        let mut instret = self.instret;
        let mut compressed = self.ev[event::COMPRESSED];
        macro_rules! sync_out {
            () => {
                self.pc = pc;
                self.cycle = cycle;
                self.instret = instret;
                self.ev[event::COMPRESSED] = compressed;
            };
        }
        macro_rules! sync_in {
            () => {
                pc = self.pc;
                cycle = self.cycle;
                instret = self.instret;
                compressed = self.ev[event::COMPRESSED];
            };
        }
        // Raise an exception for the current instruction; leave if the machine is stuck.
        macro_rules! trap {
            ($cause:expr, $tval:expr, $cost:expr) => {{
                sync_out!();
                if self.raise($cause, pc, $tval, $cost, obs) {
                    return self.trap_loop();
                }
                sync_in!();
                continue;
            }};
        }
        while cycle < limit {
            let inst = match self
                .icache
                .get((pc.wrapping_sub(self.code_base) >> 1) as usize)
            {
                Some(i) if i.op != Op::Undecoded => *i,
                _ => match self.decode_at(bus, pc, obs) {
                    Ok(i) => i,
                    Err(addr) => trap!(cause::INSN_ACCESS_FAULT, addr, t::TRAP_INSN),
                },
            };
            if O::ACTIVE && inst.rd & OBS_START != 0 {
                obs.boundary(None, pc, self.at(cycle, instret));
            }
            let start = cycle;
            let mut next = pc.wrapping_add(inst.len());
            let mut cost = t::ALU;
            let rs1 = self.x[(inst.rs1 & 31) as usize];
            let rs2 = self.x[(inst.rs2 & 31) as usize];
            // Writes to x0 go to the sink register x[32] (the decode cache maps rd 0 there).
            let rd = (inst.rd & 63) as usize;
            let imm = inst.imm;
            macro_rules! wr {
                ($v:expr) => {{
                    self.x[rd] = $v;
                }};
            }
            // A jump, taken branch, mret or fence.i: `$bubble` trailing cycles of fetch wait
            // (plus one when the target is a 32-bit instruction at 2 mod 4), which an
            // interrupt entry right after overlaps; `$flush` more that it overlaps too.
            macro_rules! redirect {
                ($target:expr, $base:expr, $bubble:expr, $flush:expr, $overlap_pen:expr) => {{
                    next = $target;
                    let pen = self.target_penalty(bus, next);
                    cost = $base + pen;
                    self.fetch_mark = FetchMark {
                        cycle: start + cost as u64,
                        instret: instret + 1,
                        compressed: compressed + inst.compressed() as u64,
                    };
                    self.ev[event::FETCH_WAIT] += ($bubble + pen) as u64;
                    self.overlap_end = start + cost as u64;
                    self.overlap = $bubble + $flush + if $overlap_pen { pen } else { 0 };
                }};
            }
            macro_rules! branch {
                ($cond:expr) => {{
                    self.ev[event::BRANCHES] += 1;
                    if $cond {
                        redirect!(pc.wrapping_add(imm as u32), t::BRANCH_TAKEN, 1, 0, true);
                        self.ev[event::BRANCHES_TAKEN] += 1;
                    }
                }};
            }
            macro_rules! load {
                ($size:expr, |$v:ident| $ext:expr) => {{
                    let a = rs1.wrapping_add(imm as u32);
                    let split = (a & 3) + $size > 4;
                    let base = if split { t::MEM_SPLIT } else { t::MEM };
                    match bus.read(a, $size, start) {
                        Ok(($v, ws)) => {
                            if O::ACTIVE && a.wrapping_sub(self.code_base) >= self.code_len {
                                obs.device_access();
                            }
                            self.x[rd] = $ext;
                            cost = base + ws * if split { 2 } else { 1 };
                            self.ev[event::LOADS] += 1;
                            if cost > t::MEM {
                                self.ev[event::LSU_WAIT] += (cost - t::MEM) as u64;
                            }
                        }
                        Err(_) => {
                            // A faulting access still counts, a split one with both waits.
                            self.ev[event::LOADS] += 1;
                            self.ev[event::LSU_WAIT] += split as u64;
                            let tval = if split {
                                Self::split_fault_addr(bus, a, $size)
                            } else {
                                a
                            };
                            trap!(cause::LOAD_ACCESS_FAULT, tval, base)
                        }
                    }
                }};
            }
            macro_rules! store {
                ($size:expr) => {{
                    let a = rs1.wrapping_add(imm as u32);
                    let split = (a & 3) + $size > 4;
                    let base = if split { t::MEM_SPLIT } else { t::MEM };
                    match bus.write(a, $size, rs2, start) {
                        Ok(ws) => {
                            cost = base + ws * if split { 2 } else { 1 };
                            self.ev[event::STORES] += 1;
                            if cost > t::MEM {
                                self.ev[event::LSU_WAIT] += (cost - t::MEM) as u64;
                            }
                            self.invalidate(a, $size);
                            if O::ACTIVE {
                                if a.wrapping_sub(self.code_base) >= self.code_len {
                                    obs.device_access();
                                } else {
                                    let at = self.at(start + cost as u64, instret + 1);
                                    obs.store(pc, a, $size, at, &*bus);
                                }
                            }
                            if bus.sync_requested() {
                                pc = next;
                                cycle = start + cost as u64;
                                instret += 1;
                                compressed += inst.compressed() as u64;
                                sync_out!();
                                return Exit::Sync;
                            }
                        }
                        Err(_) => {
                            self.ev[event::STORES] += 1;
                            self.ev[event::LSU_WAIT] += split as u64;
                            let tval = if split {
                                Self::split_store(bus, a, $size, rs2, start)
                            } else {
                                a
                            };
                            trap!(cause::STORE_ACCESS_FAULT, tval, base)
                        }
                    }
                }};
            }
            match inst.op {
                Op::Addi => wr!(rs1.wrapping_add(imm as u32)),
                Op::Lui => wr!(imm as u32),
                Op::Auipc => wr!(pc.wrapping_add(imm as u32)),
                Op::Slti => wr!(((rs1 as i32) < imm) as u32),
                Op::Sltiu => wr!((rs1 < imm as u32) as u32),
                Op::Xori => wr!(rs1 ^ imm as u32),
                Op::Ori => wr!(rs1 | imm as u32),
                Op::Andi => wr!(rs1 & imm as u32),
                Op::Slli => wr!(rs1 << (imm & 31)),
                Op::Srli => wr!(rs1 >> (imm & 31)),
                Op::Srai => wr!(((rs1 as i32) >> (imm & 31)) as u32),
                Op::Add => wr!(rs1.wrapping_add(rs2)),
                Op::Sub => wr!(rs1.wrapping_sub(rs2)),
                Op::Sll => wr!(rs1 << (rs2 & 31)),
                Op::Slt => wr!(((rs1 as i32) < (rs2 as i32)) as u32),
                Op::Sltu => wr!((rs1 < rs2) as u32),
                Op::Xor => wr!(rs1 ^ rs2),
                Op::Srl => wr!(rs1 >> (rs2 & 31)),
                Op::Sra => wr!(((rs1 as i32) >> (rs2 & 31)) as u32),
                Op::Or => wr!(rs1 | rs2),
                Op::And => wr!(rs1 & rs2),
                Op::Lw => load!(4, |v| v),
                Op::Lh => load!(2, |v| v as u16 as i16 as i32 as u32),
                Op::Lhu => load!(2, |v| v & 0xffff),
                Op::Lb => load!(1, |v| v as u8 as i8 as i32 as u32),
                Op::Lbu => load!(1, |v| v & 0xff),
                Op::Sw => store!(4),
                Op::Sh => store!(2),
                Op::Sb => store!(1),
                Op::Beq => branch!(rs1 == rs2),
                Op::Bne => branch!(rs1 != rs2),
                Op::Blt => branch!((rs1 as i32) < (rs2 as i32)),
                Op::Bge => branch!((rs1 as i32) >= (rs2 as i32)),
                Op::Bltu => branch!(rs1 < rs2),
                Op::Bgeu => branch!(rs1 >= rs2),
                Op::Jal => {
                    wr!(next);
                    redirect!(pc.wrapping_add(imm as u32), t::JUMP, 0, 0, true);
                    self.ev[event::JUMPS] += 1;
                }
                Op::Jalr => {
                    wr!(next);
                    redirect!(rs1.wrapping_add(imm as u32) & !1, t::JUMP, 0, 0, true);
                    self.ev[event::JUMPS] += 1;
                }
                Op::Mul => {
                    wr!(rs1.wrapping_mul(rs2));
                    cost = t::MUL;
                    self.ev[event::MUL_WAIT] += (t::MUL - 1) as u64;
                    obs.multiply();
                }
                Op::Mulh => {
                    wr!(((rs1 as i32 as i64 * rs2 as i32 as i64) >> 32) as u32);
                    cost = t::MULH;
                    self.ev[event::MUL_WAIT] += (t::MULH - 1) as u64;
                    obs.multiply();
                }
                Op::Mulhsu => {
                    wr!(((rs1 as i32 as i64 * rs2 as u64 as i64) >> 32) as u32);
                    cost = t::MULH;
                    self.ev[event::MUL_WAIT] += (t::MULH - 1) as u64;
                    obs.multiply();
                }
                Op::Mulhu => {
                    wr!(((rs1 as u64 * rs2 as u64) >> 32) as u32);
                    cost = t::MULH;
                    self.ev[event::MUL_WAIT] += (t::MULH - 1) as u64;
                    obs.multiply();
                }
                Op::Div | Op::Divu | Op::Rem | Op::Remu => {
                    let v = if rs2 == 0 {
                        cost = t::DIV_BY_ZERO;
                        match inst.op {
                            Op::Div | Op::Divu => u32::MAX,
                            _ => rs1,
                        }
                    } else {
                        cost = t::DIV;
                        match inst.op {
                            Op::Div => (rs1 as i32).wrapping_div(rs2 as i32) as u32,
                            Op::Divu => rs1 / rs2,
                            Op::Rem => (rs1 as i32).wrapping_rem(rs2 as i32) as u32,
                            _ => rs1 % rs2,
                        }
                    };
                    wr!(v);
                    self.ev[event::DIV_WAIT] += (cost - 1) as u64;
                    obs.divide(cost);
                }
                Op::Fence => {}
                Op::FenceI => {
                    // Ibex executes fence.i as a jump to the next instruction.
                    redirect!(next, t::FENCE_I, 0, 0, true);
                    self.ev[event::JUMPS] += 1;
                }
                Op::Csrrw | Op::Csrrs | Op::Csrrc | Op::Csrrwi | Op::Csrrsi | Op::Csrrci => {
                    sync_out!();
                    match self.exec_csr(&inst, rs1, start) {
                        Ok((c, irq_check)) => {
                            cost = c;
                            if cost == t::CSR_WRITE_FLUSH {
                                // decode, flush, then an empty decode cycle (a fetch wait
                                // that an interrupt entry overlaps)
                                self.ev[event::FETCH_WAIT] += 1;
                                self.overlap_end = start + cost as u64;
                                self.overlap = 1;
                            }
                            if irq_check {
                                self.retire(next, start + cost as u64, inst.compressed());
                                if let Some(c) = self.pending_interrupt() {
                                    self.take_interrupt_obs(c, obs);
                                }
                                sync_in!();
                                continue;
                            }
                        }
                        Err(()) => trap!(
                            cause::ILLEGAL_INSN,
                            Self::raw_bits(bus, pc, inst.compressed()),
                            t::TRAP_INSN
                        ),
                    }
                }
                Op::Ecall => {
                    let c = if self.privilege == Priv::Machine {
                        cause::ECALL_M
                    } else {
                        cause::ECALL_U
                    };
                    trap!(c, 0, t::TRAP_INSN)
                }
                Op::Ebreak => trap!(cause::BREAKPOINT, 0, t::TRAP_INSN),
                Op::Mret => {
                    if self.privilege != Priv::Machine {
                        instret += 1; // Ibex counts privilege-illegal instructions as retired
                        trap!(
                            cause::ILLEGAL_INSN,
                            Self::raw_bits(bus, pc, inst.compressed()),
                            t::TRAP_INSN
                        )
                    }
                    let c = &mut self.csr;
                    let mpp_m = c.mstatus & csr::MSTATUS_MPP == csr::MSTATUS_MPP;
                    let mpie = c.mstatus & csr::MSTATUS_MPIE != 0;
                    c.mstatus = (c.mstatus & !(csr::MSTATUS_MIE | csr::MSTATUS_MPP))
                        | csr::MSTATUS_MPIE
                        | if mpie { csr::MSTATUS_MIE } else { 0 };
                    if !mpp_m {
                        c.mstatus &= !csr::MSTATUS_MPRV;
                    }
                    c.cpuctrlsts &= !0x40;
                    self.privilege = if mpp_m { Priv::Machine } else { Priv::User };
                    let target = c.mepc;
                    redirect!(target, t::MRET, 1, 0, true);
                    sync_out!();
                    self.retire(next, start + cost as u64, inst.compressed());
                    obs.mret(self.at(self.cycle, self.instret), next);
                    self.progress_mark = self.instret;
                    if let Some(c) = self.pending_interrupt() {
                        self.take_interrupt_obs(c, obs);
                    }
                    sync_in!();
                    continue;
                }
                Op::Wfi => {
                    if self.privilege == Priv::User && self.csr.mstatus & csr::MSTATUS_TW != 0 {
                        instret += 1;
                        trap!(
                            cause::ILLEGAL_INSN,
                            Self::raw_bits(bus, pc, inst.compressed()),
                            t::TRAP_INSN
                        )
                    }
                    // wfi always goes through its sleep sequence; the machine decides when the
                    // clock runs again (at once if a line is already up) and calls `wake`.
                    sync_out!();
                    self.retire(next, start + t::WFI_TO_SLEEP as u64, inst.compressed());
                    self.sleeping = true;
                    self.sleep_start = self.cycle;
                    // RTL (measured): the clock stops a cycle later while the prefetch buffer
                    // still has a fetch outstanding, which is the case only when every
                    // instruction since the fetch unit restarted was a 32-bit one taking one
                    // cycle (a compressed instruction or a stall lets the buffer fill).
                    let m = self.fetch_mark;
                    let fetch_behind = m.compressed == compressed
                        && start.wrapping_sub(m.cycle) == instret.wrapping_sub(m.instret);
                    self.gate_from = self.cycle + fetch_behind as u64;
                    return Exit::Wfi;
                }
                Op::Illegal => trap!(
                    cause::ILLEGAL_INSN,
                    Self::raw_bits(bus, pc, inst.compressed()),
                    t::TRAP_INSN
                ),
                Op::Dret => {
                    instret += 1;
                    trap!(
                        cause::ILLEGAL_INSN,
                        Self::raw_bits(bus, pc, false),
                        t::TRAP_INSN
                    )
                }
                Op::Undecoded => unreachable!("decode never yields Undecoded"),
            }
            if O::ACTIVE && inst.rs2 & OBS_AFTER != 0 {
                obs.boundary(Some(pc), next, self.at(start + cost as u64, instret + 1));
            }
            pc = next;
            cycle = start + cost as u64;
            instret += 1;
            compressed += inst.compressed() as u64;
        }
        sync_out!();
        Exit::Limit
    }

    /// Execute a CSR instruction whose state is in `self`. Returns its cost and whether
    /// interrupts must be re-evaluated, or Err for an illegal access.
    fn exec_csr(&mut self, inst: &Slot, rs1: u32, start: u64) -> Result<(u32, bool), ()> {
        let addr = inst.imm as u16;
        let src = match inst.op {
            Op::Csrrwi | Op::Csrrsi | Op::Csrrci => inst.rs1 as u32,
            _ => rs1,
        };
        let writes = matches!(inst.op, Op::Csrrw | Op::Csrrwi) || inst.rs1 != 0;
        let raw = self.raw_counts(start, self.instret);
        let old = self
            .csr
            .read(
                addr,
                self.privilege,
                &Now {
                    raw: &raw,
                    mip: self.mip,
                },
            )
            .map_err(|_| ())?;
        let mut cost = t::ALU;
        let mut irq_check = false;
        if writes {
            let new = match inst.op {
                Op::Csrrw | Op::Csrrwi => src,
                Op::Csrrs | Op::Csrrsi => old | src,
                _ => old & !src,
            };
            let raw_next = self.raw_counts(start + 1, self.instret + 1);
            irq_check = self
                .csr
                .write(addr, new, &raw, &raw_next)
                .map_err(|_| ())?
                .irq;
            if Csrs::write_flushes(addr) {
                cost = t::CSR_WRITE_FLUSH;
            }
        }
        self.x[(inst.rd & 63) as usize] = old;
        Ok((cost, irq_check))
    }

    #[inline]
    fn retire(&mut self, next: u32, end: u64, compressed: bool) {
        self.pc = next;
        self.cycle = end;
        self.instret += 1;
        self.ev[event::COMPRESSED] += compressed as u64;
    }

    #[cold]
    fn trap_loop(&self) -> Exit {
        let t = self.last_trap;
        Exit::TrapLoop {
            cause: t.cause,
            pc: t.pc,
            tval: t.tval,
        }
    }
}
