//! The decode cache: the decoded form of every instruction the core has run, one 8-byte
//! `Slot` per halfword of the code region, filled on first execution and invalidated by
//! stores. A slot is what the hot loop dispatches on: `execute` (semantics), the timing model
//! and the observer hooks all read the same slot (see `hart.rs`).

use crate::bus::Bus;
use crate::inst::{decode, Inst, Op};
use crate::observer::{flag, Observer};

const CODE_PAGE_SHIFT: u32 = 8;

/// The cache starts with `MIN_SLOTS` halfwords (the first MiB of the code region, or all of
/// it), grows with the code that runs, and covers at most the first `MAX_SLOTS` halfwords
/// (32 MiB): a large RAM costs nothing until code runs there, and code beyond the first
/// 32 MiB is decoded each time it runs (slower, with the same timing).
const MIN_SLOTS: usize = 1 << 19;
const MAX_SLOTS: usize = 1 << 24;

/// A decoded instruction (`Inst`) as the decode cache holds it: 8 bytes. `rd` maps x0 to the
/// sink register 32 and carries the compressed flag in bit 7; the instruction bits (for
/// mtval) are fetched again on the rare path that needs them. Observer flags live in spare
/// bits: rd bit 6 (rd is used as `rd & 63`) and rs2 bit 7 (rs2 is used as `rs2 & 31`).
#[derive(Clone, Copy)]
pub(crate) struct Slot {
    pub op: Op,
    rd: u8,
    rs1: u8,
    rs2: u8,
    pub imm: i32,
}

const COMPRESSED_FLAG: u8 = 0x80;
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

    /// The destination register index into `Hart::x` (x0 maps to the sink x[32]).
    #[inline(always)]
    pub fn rd(&self) -> usize {
        (self.rd & 63) as usize
    }

    /// The rs1 field: a register number, or the 5-bit immediate of csrr*i.
    #[inline(always)]
    pub fn rs1(&self) -> u8 {
        self.rs1 & 31
    }

    #[inline(always)]
    pub fn rs2(&self) -> u8 {
        self.rs2 & 31
    }

    #[inline(always)]
    pub fn compressed(&self) -> bool {
        self.rd & COMPRESSED_FLAG != 0
    }

    #[inline(always)]
    pub fn len(&self) -> u32 {
        if self.compressed() {
            2
        } else {
            4
        }
    }

    /// The observer asked for `boundary` before this instruction (it starts a function).
    #[inline(always)]
    pub fn starts_function(&self) -> bool {
        self.rd & OBS_START != 0
    }

    /// The observer asked for `boundary` after this instruction.
    #[inline(always)]
    pub fn may_leave_function(&self) -> bool {
        self.rs2 & OBS_AFTER != 0
    }
}

pub(crate) struct DecodeCache {
    /// One slot per halfword from `base`, as far as code has run (see `MAX_SLOTS`).
    slots: Vec<Slot>,
    /// The slots hold observer flags (they were filled under an active observer).
    observed: bool,
    /// Pages (2^CODE_PAGE_SHIFT bytes) holding decoded instructions: stores elsewhere need
    /// no invalidation. Covers the slots (and one page more).
    code_pages: Vec<bool>,
    /// The code region (RAM): only instructions in it are cached.
    pub base: u32,
    pub len: u32,
}

impl DecodeCache {
    /// A cache for the code region `[base, base + len)`, with its first MiB allocated.
    pub fn new(base: u32, len: u32) -> DecodeCache {
        let mut c = DecodeCache::empty(base, len);
        c.grow(0);
        c
    }

    /// A cache for the same region holding nothing, allocated as code runs (a snapshot's).
    pub fn empty(base: u32, len: u32) -> DecodeCache {
        DecodeCache {
            slots: Vec::new(),
            observed: false,
            code_pages: Vec::new(),
            base,
            len,
        }
    }

    /// True when `addr` lies outside the code region (a device register).
    #[inline(always)]
    pub fn outside(&self, addr: u32) -> bool {
        addr.wrapping_sub(self.base) >= self.len
    }

    /// The decoded instruction at `pc`, if the cache holds it.
    #[inline(always)]
    pub fn get(&self, pc: u32) -> Option<&Slot> {
        match self.slots.get((pc.wrapping_sub(self.base) >> 1) as usize) {
            Some(s) if s.op != Op::Undecoded => Some(s),
            _ => None,
        }
    }

    /// Decode the instruction at `pc` (flagged by `obs`) and cache it, or return the
    /// fetch-fault address.
    #[cold]
    pub fn fill<B: Bus, O: Observer>(&mut self, bus: &B, pc: u32, obs: &O) -> Result<Slot, u32> {
        let lo = bus.fetch16(pc).ok_or(pc)?;
        let hi = if lo & 3 == 3 {
            bus.fetch16(pc.wrapping_add(2)).ok_or(pc.wrapping_add(2))?
        } else {
            0
        };
        let decoded = decode(lo, hi);
        let mut slot = Slot::from_inst(&decoded);
        if O::ACTIVE {
            let f = obs.flags(pc, decoded.op, decoded.rd, decoded.static_target(pc));
            if f & flag::START != 0 {
                slot.rd |= OBS_START;
            }
            if f & flag::AFTER != 0 {
                slot.rs2 |= OBS_AFTER;
            }
        }
        let off = pc.wrapping_sub(self.base);
        let idx = (off >> 1) as usize;
        if off < self.len && (idx < self.slots.len() || self.grow(idx)) {
            self.slots[idx] = slot;
            // An instruction may start on the last halfword of a page and end on the next.
            self.code_pages[(off >> CODE_PAGE_SHIFT) as usize] = true;
            if let Some(p) = self
                .code_pages
                .get_mut(((off + 2) >> CODE_PAGE_SHIFT) as usize)
            {
                *p = true;
            }
        }
        Ok(slot)
    }

    /// Forget the decoded form of code overlapping `[addr, addr + size)` (after a write).
    #[inline]
    pub fn invalidate(&mut self, addr: u32, size: u32) {
        let off = addr.wrapping_sub(self.base);
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
        if off < self.len {
            let first = (off >> 1).saturating_sub(1) as usize;
            let last = ((off + size - 1) >> 1) as usize;
            // Only pages the cache covers are marked: `last` may lie one slot beyond it.
            for i in first..=last.min(self.slots.len() - 1) {
                if self.slots[i].op != Op::Undecoded {
                    self.slots[i] = Slot::UNDECODED;
                }
            }
        }
    }

    /// Forget every decoded instruction.
    pub fn flush(&mut self) {
        self.slots.fill(Slot::UNDECODED);
        self.code_pages.fill(false);
    }

    /// Make the slots fit an observer that is (or is not) `active`: slots decoded for (or
    /// without) an observer lack (or carry) its flags.
    #[inline]
    pub fn observe(&mut self, active: bool) {
        if active != self.observed {
            self.flush();
            self.observed = active;
        }
    }

    /// Grows the cache to hold slot `idx` (with room to spare), if it may hold it.
    #[cold]
    #[inline(never)]
    fn grow(&mut self, idx: usize) -> bool {
        let limit = ((self.len / 2) as usize + 1).min(MAX_SLOTS);
        if idx >= limit {
            return false;
        }
        let len = (idx + 1).next_power_of_two().max(MIN_SLOTS).min(limit);
        self.slots.resize(len, Slot::UNDECODED);
        // Pages up to the byte after the last slot's instruction (it may end on the next).
        self.code_pages
            .resize(((2 * len + 2) >> CODE_PAGE_SHIFT) + 1, false);
        true
    }
}
