//! What the core sees of the world: a bus that reads and writes bytes at addresses.
//! The machine implements it (statically dispatched, so RAM accesses inline).

/// An access to an address where nothing answers: the core raises an access fault.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BusFault;

pub trait Bus {
    /// Read `size` (1, 2 or 4) bytes at `addr`, little-endian, zero-extended; the address need
    /// not be aligned. `now` is the cycle in which the access starts (the instruction's first cycle). Returns the value and
    /// the access's wait states (cycles beyond the 1-cycle SRAM).
    fn read(&mut self, addr: u32, size: u32, now: u64) -> Result<(u32, u32), BusFault>;
    /// Write the low `size` bytes of `value` at `addr`. Returns the wait states.
    fn write(&mut self, addr: u32, size: u32, value: u32, now: u64) -> Result<u32, BusFault>;
    /// The halfword at `addr` for instruction fetch, or None where instructions cannot be
    /// fetched (only RAM holds code).
    fn fetch16(&self, addr: u32) -> Option<u16>;
    /// True when a device write changed something the machine must act on before the core
    /// goes on (interrupt lines, halt, clock): the core then ends its run slice.
    fn sync_requested(&self) -> bool;
}
