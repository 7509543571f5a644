//! The timing model of the lowRISC Ibex core in its `simple_system` configuration (RV32IMC,
//! fast multi-cycle multiplier, no branch-target ALU, no writeback stage, 1-cycle memory):
//! the cycle costs (the constants; every number here is a row of `docs/timing.md`, and tests
//! assert each one), `Hart::charge`, which turns what an instruction did (its `Outcome`) into
//! cycles and performance-counter events, and `Fetch`, what the model remembers of the fetch
//! unit between instructions (for `wfi` and interrupt entry).
//!
//! Costs are charged to the instruction that causes them: a redirect's fetch bubble is added
//! to the jump or branch (the RTL trace shows it on the next instruction, but no instruction
//! can observe the difference: the bubble always lies before the target executes).

use crate::bus::Bus;
use crate::csr::{event, Csrs};
use crate::execute::{is_split, Outcome};
use crate::hart::Hart;

/// ALU, lui, auipc, shifts, compares, nops, `csrr`, fence, not-taken branch.
pub const ALU: u32 = 1;
/// Aligned load or store, and a misaligned one within one word.
pub const MEM: u32 = 2;
/// A misaligned load or store that crosses a word boundary (two bus accesses).
pub const MEM_SPLIT: u32 = 3;
/// Taken conditional branch.
pub const BRANCH_TAKEN: u32 = 3;
/// jal, jalr and their compressed forms.
pub const JUMP: u32 = 2;
/// Extra cycle when a jump, branch or mret lands on a 32-bit instruction at an address = 2 mod 4.
pub const MISALIGNED_TARGET: u32 = 1;
pub const MUL: u32 = 3;
pub const MULH: u32 = 4;
pub const DIV: u32 = 37;
pub const DIV_BY_ZERO: u32 = 2;
/// A CSR write that flushes the pipeline (any CSR other than mscratch and mepc).
pub const CSR_WRITE_FLUSH: u32 = 3;
pub const FENCE_I: u32 = 2;
/// mret including the refetch at `mepc`.
pub const MRET: u32 = 3;
/// Extra cycles of a load or store the PMP denies, over one the bus rejects (an LSU wait).
pub const PMP_FAULT_WAIT: u32 = 1;
/// The instruction that traps (ecall, ebreak, an illegal or faulting instruction).
pub const TRAP_INSN: u32 = 1;
/// Dead cycles between an exception and the vector instruction entering decode.
pub const EXCEPTION_ENTRY: u32 = 2;
/// Dead cycles between the end of the interrupted instruction and the vector instruction.
pub const IRQ_ENTRY: u32 = 3;
/// Cycles from reset to the first instruction entering decode (it retires at cycle 5).
pub const RESET_TO_FIRST: u32 = 4;
/// Cycles `wfi` runs before the core's clock stops (decode, flush, wait-sleep).
pub const WFI_TO_SLEEP: u32 = 3;
/// Cycles from the clock running again (the first cycle a wake-up line is high, or the end of
/// `WFI_TO_SLEEP`) to the vector instruction entering decode, when the interrupt is taken.
pub const WAKE_TO_VECTOR: u32 = 4;
/// The same to the instruction after `wfi`, when interrupts are disabled (mstatus.MIE = 0):
/// a `wfi` with a line already up thus costs 3 + 2 = 5 cycles.
pub const WAKE_TO_NEXT: u32 = 2;

/// What the timing model remembers of the fetch unit.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Fetch {
    /// The last time the fetch unit restarted (jump, taken branch, mret, fence.i, trap,
    /// wake): the cycle and the instruction and compressed-instruction counts. From these,
    /// `wfi` tells whether the prefetch buffer has filled since (see docs/timing.md).
    restart_cycle: u64,
    restart_instret: u64,
    restart_compressed: u64,
    /// The cycle at which the last instruction with trailing wait cycles ended, and how many
    /// of those cycles (a fetch bubble, a flush's empty decode) can serve as the cycle in
    /// which the core decides to take an interrupt (RTL: the vector enters decode 3 cycles
    /// after that decision; see `irq_entry`).
    overlap_end: u64,
    overlap: u32,
}

impl Fetch {
    /// The fetch unit at reset: it starts with the first instruction.
    pub fn new() -> Fetch {
        Fetch {
            restart_cycle: RESET_TO_FIRST as u64,
            restart_instret: 0,
            restart_compressed: 0,
            overlap_end: u64::MAX,
            overlap: 0,
        }
    }

    /// The fetch unit restarts in `cycle`, after `instret` instructions, `compressed` of
    /// them compressed.
    #[inline(always)]
    pub fn restart(&mut self, cycle: u64, instret: u64, compressed: u64) {
        self.restart_cycle = cycle;
        self.restart_instret = instret;
        self.restart_compressed = compressed;
    }

    /// The last instruction ends at `end` with `cycles` trailing cycles an interrupt entry
    /// can overlap.
    #[inline(always)]
    fn trailing(&mut self, end: u64, cycles: u32) {
        self.overlap_end = end;
        self.overlap = cycles;
    }

    /// Cycles from the instruction boundary at `cycle` to the vector instruction entering
    /// decode, for an interrupt whose line rose at `rose`. The decision falls in the first
    /// cycle, at or after the line rose, that is either the cycle after the interrupted
    /// instruction or one of its overlappable trailing cycles.
    #[inline]
    pub fn irq_entry(&self, cycle: u64, rose: u64) -> u32 {
        if cycle == self.overlap_end {
            let since_rise = cycle.saturating_sub(rose) as u32;
            IRQ_ENTRY - self.overlap.min(since_rise)
        } else {
            IRQ_ENTRY
        }
    }

    /// For a `wfi` that started in cycle `start` after `instret` instructions (`compressed`
    /// of them compressed): the clock stops one cycle late. RTL (measured): it does while the
    /// prefetch buffer still has a fetch outstanding, which is the case only when every
    /// instruction since the fetch unit restarted was a 32-bit one taking one cycle (a
    /// compressed instruction or a stall lets the buffer fill).
    #[inline]
    pub fn wfi_stops_late(&self, start: u64, instret: u64, compressed: u64) -> bool {
        self.restart_compressed == compressed
            && start.wrapping_sub(self.restart_cycle) == instret.wrapping_sub(self.restart_instret)
    }
}

impl Hart {
    /// The cycles of an instruction that started in `start` after `instret` instructions and
    /// did `out`, control going on at `next`; counts its performance events and records what
    /// it did to the fetch unit. `compressed` counts the compressed instructions up to and
    /// including it.
    #[inline(always)]
    pub(crate) fn charge<B: Bus>(
        &mut self,
        out: Outcome,
        next: u32,
        bus: &B,
        start: u64,
        instret: u64,
        compressed: u64,
    ) -> u32 {
        // A jump, taken branch, mret or fence.i: `bubble` trailing cycles of fetch wait (plus
        // one when the target is a 32-bit instruction at 2 mod 4), which an interrupt entry
        // right after overlaps.
        let mut redirect = |ev: &mut [u64; event::COUNT], base: u32, bubble: u32| {
            let pen = target_penalty(bus, next);
            let cost = base + pen;
            let end = start + cost as u64;
            self.fetch.restart(end, instret + 1, compressed);
            ev[event::FETCH_WAIT] += (bubble + pen) as u64;
            self.fetch.trailing(end, bubble + pen);
            cost
        };
        let ev = &mut self.ev;
        match out {
            Outcome::Alu => ALU,
            Outcome::Branch { taken } => {
                ev[event::BRANCHES] += 1;
                if taken {
                    ev[event::BRANCHES_TAKEN] += 1;
                    redirect(ev, BRANCH_TAKEN, 1)
                } else {
                    ALU
                }
            }
            Outcome::Jump => {
                ev[event::JUMPS] += 1;
                redirect(ev, JUMP, 0)
            }
            Outcome::FenceI => {
                ev[event::JUMPS] += 1;
                redirect(ev, FENCE_I, 0)
            }
            Outcome::Mret => redirect(ev, MRET, 1),
            Outcome::Load { addr, size, wait } => {
                ev[event::LOADS] += 1;
                mem(ev, addr, size, wait)
            }
            Outcome::Store { addr, size, wait } => {
                ev[event::STORES] += 1;
                mem(ev, addr, size, wait)
            }
            Outcome::Mul { high } => {
                let cost = if high { MULH } else { MUL };
                ev[event::MUL_WAIT] += (cost - 1) as u64;
                cost
            }
            Outcome::Div { by_zero } => {
                let cost = if by_zero { DIV_BY_ZERO } else { DIV };
                ev[event::DIV_WAIT] += (cost - 1) as u64;
                cost
            }
            Outcome::Csr { written, .. } => match written {
                Some(addr) if Csrs::write_flushes(addr) => {
                    // decode, flush, then an empty decode cycle (a fetch wait that an
                    // interrupt entry overlaps)
                    ev[event::FETCH_WAIT] += 1;
                    self.fetch.trailing(start + CSR_WRITE_FLUSH as u64, 1);
                    CSR_WRITE_FLUSH
                }
                _ => ALU,
            },
            Outcome::Wfi => WFI_TO_SLEEP,
            // A faulting access still counts, a split one with both waits.
            Outcome::LoadFault { split, pmp, .. } => {
                ev[event::LOADS] += 1;
                fault(ev, split, pmp)
            }
            Outcome::StoreFault { split, pmp, .. } => {
                ev[event::STORES] += 1;
                fault(ev, split, pmp)
            }
            Outcome::Exception { .. } => TRAP_INSN,
            // Not done: the core stops before it (`Hart::complete`).
            Outcome::Guarded { .. } => 0,
        }
    }
}

/// A load or store that completed after `wait` wait states (each word access has them).
#[inline(always)]
fn mem(ev: &mut [u64; event::COUNT], addr: u32, size: u32, wait: u32) -> u32 {
    let cost = if is_split(addr, size) {
        MEM_SPLIT + 2 * wait
    } else {
        MEM + wait
    };
    if cost > MEM {
        ev[event::LSU_WAIT] += (cost - MEM) as u64;
    }
    cost
}

/// A load or store that faulted (`split`: after two accesses; `pmp`: the PMP denied a word,
/// which blocks its request: the LSU waits a cycle for the error, RTL-measured).
#[inline(always)]
fn fault(ev: &mut [u64; event::COUNT], split: bool, pmp: bool) -> u32 {
    ev[event::LSU_WAIT] += split as u64 + pmp as u64 * PMP_FAULT_WAIT as u64;
    pmp as u32 * PMP_FAULT_WAIT + if split { MEM_SPLIT } else { MEM }
}

/// Extra cycle when a redirect lands on a 32-bit instruction at an address = 2 mod 4.
#[inline(always)]
fn target_penalty<B: Bus>(bus: &B, target: u32) -> u32 {
    if target & 2 != 0 {
        if let Some(h) = bus.fetch16(target) {
            if h & 3 == 3 {
                return MISALIGNED_TARGET;
            }
        }
    }
    0
}
