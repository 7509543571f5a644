//! Hooks through which an observer (energy, attribution, kernel awareness: the `observe`
//! crate) watches the core without changing it. `Hart::run_obs` is generic over the
//! observer: with `NoObserver` (`ACTIVE` false) every hook is an empty inline function and
//! every flag test is a constant, so the loop compiles to exactly the code of `Hart::run`.
//! No hook can change the hart's state.
//!
//! Cost model. The observer marks instructions when they are decoded (`flags`): the first
//! instruction of each function (`START`) and instructions after which the code may be in
//! another function (`AFTER`: `jalr`, jumps and branches that leave the function). The core
//! tests these bits of the decoded slot it already holds and calls `boundary` only there,
//! with its own counters (`At`), so the observer accounts whole stretches of one function
//! at once. Nothing else happens per instruction, except a counter for multiplies,
//! divides and device-register accesses, and an address test for stores to RAM.

use crate::bus::Bus;
use crate::inst::Op;

/// Flag bits returned by `Observer::flags`.
pub mod flag {
    /// Call `boundary` before this instruction executes (it starts a function).
    pub const START: u8 = 1;
    /// Call `boundary` after this instruction (the next one may be in another function).
    pub const AFTER: u8 = 2;
}

/// The core's counters at an instruction boundary.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct At {
    /// Clock cycles since reset (the cycle the next instruction starts).
    pub cycle: u64,
    /// Instructions retired (minstret's raw count).
    pub instret: u64,
    /// Loads and stores executed (those that faulted included).
    pub mem: u64,
    /// Conditional branches (taken or not), jumps and `fence.i` retired.
    pub xfer: u64,
}

pub trait Observer {
    /// False only for `NoObserver`: the core then skips every test for the observer.
    const ACTIVE: bool = true;

    /// Flags (`flag::*`) of the instruction at `pc`, decoded as `op` with destination `rd`
    /// and, for jal and branches, static `target`. Called when the core decodes it.
    #[inline(always)]
    fn flags(&self, _pc: u32, _op: Op, _rd: u8, _target: Option<u32>) -> u8 {
        0
    }

    /// Control is at `pc` with the core at `at`: an instruction flagged START is about to
    /// execute (`from` None), or the instruction at `from`, flagged AFTER, just retired.
    #[inline(always)]
    fn boundary(&mut self, _from: Option<u32>, _pc: u32, _at: At) {}

    /// A multiply retired.
    #[inline(always)]
    fn multiply(&mut self) {}

    /// A DIV/REM retired after `cycles` divider cycles.
    #[inline(always)]
    fn divide(&mut self, _cycles: u32) {}

    /// The instruction at `pc` raised exception `cause`; the core is at `at` (after the
    /// faulting instruction's cycles; `at.instret` counts it if Ibex does) and enters the
    /// handler at `vector` (its entry's dead cycles follow).
    #[inline(always)]
    fn exception(&mut self, _pc: u32, _cause: u32, _at: At, _vector: u32) {}

    /// The core takes interrupt `cause` at `at` (an instruction boundary) and enters the
    /// handler at `vector` (its entry's dead cycles follow).
    #[inline(always)]
    fn interrupt(&mut self, _cause: u32, _at: At, _vector: u32) {}

    /// An `mret` retired; the core is at `at` and resumes at `pc`.
    #[inline(always)]
    fn mret(&mut self, _at: At, _pc: u32) {}

    /// A load or store outside the core's code region (RAM) completed: a device register.
    #[inline(always)]
    fn device_access(&mut self) {}

    /// A store of `size` bytes at `addr` in RAM by the instruction at `pc` completed,
    /// leaving the core at `at` (the store counted); `bus` shows memory after the store.
    #[inline(always)]
    fn store<B: Bus>(&mut self, _pc: u32, _addr: u32, _size: u32, _at: At, _bus: &B) {}

    /// True for an observer that wants `access` (a debugger's watchpoints).
    const ACCESSES: bool = false;

    /// A load (`write` false) or store of `size` bytes at `addr` completed, RAM or device
    /// (called only when `ACCESSES`).
    #[inline(always)]
    fn access(&mut self, _write: bool, _addr: u32, _size: u32) {}

    /// Time passes asleep in `wfi` from `from` to cycle `to`; the clock is gated from
    /// `gated` on (cycles before it, if any, are awake cycles of the `wfi`).
    #[inline(always)]
    fn sleep(&mut self, _from: At, _gated: u64, _to: u64) {}

    /// The core wakes from `wfi` at cycle `at` (an interrupt, if one is taken, follows).
    #[inline(always)]
    fn wake(&mut self, _at: u64) {}
}

/// The observer that watches nothing (zero cost).
#[derive(Clone, Copy, Debug, Default)]
pub struct NoObserver;

impl Observer for NoObserver {
    const ACTIVE: bool = false;
}
