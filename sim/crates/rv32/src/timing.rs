//! Cycle costs of the lowRISC Ibex core in its `simple_system` configuration (RV32IMC, fast
//! multi-cycle multiplier, no branch-target ALU, no writeback stage, 1-cycle memory).
//! Every number here is a row of `docs/timing.md`; tests assert each one.
//!
//! Costs are charged to the instruction that causes them: a redirect's fetch bubble is added
//! to the jump or branch (the RTL trace shows it on the next instruction, but no instruction
//! can observe the difference: the bubble always lies before the target executes).

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
