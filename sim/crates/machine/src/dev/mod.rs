//! The reference MCU's devices. Each sees only register accesses at a cycle (`now`), the
//! clock, and the records it appends to; the machine routes interrupt lines to the core.

pub mod intc;
pub mod io;
pub mod power;
pub mod timer;

/// Merge a byte-lane write (`value` already shifted to its lane, `mask` its bytes) into `reg`.
pub fn merge(reg: u32, value: u32, mask: u32) -> u32 {
    (reg & !mask) | (value & mask)
}
