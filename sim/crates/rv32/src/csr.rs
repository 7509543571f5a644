//! The control and status registers of Ibex in its simple_system configuration: exactly the
//! set `rtl/ibex_cs_registers.sv` implements with debug triggers off, 10 hardware
//! performance counters (mhpmcounter3..12, 40 bits wide) and no CHERIoT; the PMP CSRs
//! (`pmp`) exist only when the core is built with PMP entries. Any other address, a write to
//! a read-only CSR, or an access above the current privilege is illegal.

use crate::pmp::Pmp;

pub const MSTATUS: u16 = 0x300;
pub const MISA: u16 = 0x301;
pub const MIE: u16 = 0x304;
pub const MTVEC: u16 = 0x305;
pub const MCOUNTEREN: u16 = 0x306;
pub const MENVCFG: u16 = 0x30a;
pub const MSTATUSH: u16 = 0x310;
pub const MENVCFGH: u16 = 0x31a;
pub const MCOUNTINHIBIT: u16 = 0x320;
pub const MSCRATCH: u16 = 0x340;
pub const MEPC: u16 = 0x341;
pub const MCAUSE: u16 = 0x342;
pub const MTVAL: u16 = 0x343;
pub const MIP: u16 = 0x344;
pub const CPUCTRLSTS: u16 = 0x7c0;
pub const SECURESEED: u16 = 0x7c1;
pub const MCYCLE: u16 = 0xb00;
pub const MINSTRET: u16 = 0xb02;
pub const MCYCLEH: u16 = 0xb80;
pub const MINSTRETH: u16 = 0xb82;
pub const MVENDORID: u16 = 0xf11;
pub const MARCHID: u16 = 0xf12;
pub const MIMPID: u16 = 0xf13;
pub const MHARTID: u16 = 0xf14;
pub const MCONFIGPTR: u16 = 0xf15;

pub const MSTATUS_MIE: u32 = 1 << 3;
pub const MSTATUS_MPIE: u32 = 1 << 7;
pub const MSTATUS_MPP: u32 = 3 << 11;
pub const MSTATUS_MPRV: u32 = 1 << 17;
pub const MSTATUS_TW: u32 = 1 << 21;

/// Interrupt bits of mie/mip: software 3, timer 7, external 11, fast 16..30.
pub const IRQ_MASK: u32 = 1 << 3 | 1 << 7 | 1 << 11 | 0x7fff << 16;

/// misa: MXL=32, C, I, M, U.
pub const MISA_VALUE: u32 = 1 << 30 | 1 << 20 | 1 << 12 | 1 << 8 | 1 << 2;
/// marchid of lowRISC Ibex.
pub const MARCHID_VALUE: u32 = 22;

/// Number of hardware performance counters after mcycle/minstret (mhpmcounter3..12).
pub const HPM_COUNTERS: usize = 10;
const HPM_WIDTH_MASK: u64 = (1 << 40) - 1;

/// Indices into the raw event counts kept by the core (Ibex's counter numbering).
pub mod event {
    pub const CYCLES: usize = 0;
    pub const INSTRET: usize = 2;
    pub const LSU_WAIT: usize = 3;
    pub const FETCH_WAIT: usize = 4;
    pub const LOADS: usize = 5;
    pub const STORES: usize = 6;
    pub const JUMPS: usize = 7;
    pub const BRANCHES: usize = 8;
    pub const BRANCHES_TAKEN: usize = 9;
    pub const COMPRESSED: usize = 10;
    pub const MUL_WAIT: usize = 11;
    pub const DIV_WAIT: usize = 12;
    pub const COUNT: usize = 13;
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Priv {
    User,
    Machine,
}

/// What a CSR access needs to know of the core at the instant it happens.
pub struct Now<'a> {
    /// Raw monotonic counts (cycles awake, instructions retired, events) at this instant.
    pub raw: &'a [u64; event::COUNT],
    /// Interrupt lines seen by the core.
    pub mip: u32,
}

#[derive(Clone, Debug)]
pub struct Csrs {
    pub mstatus: u32,
    pub mie: u32,
    pub mtvec: u32,
    pub mscratch: u32,
    pub mepc: u32,
    pub mcause: u32,
    pub mtval: u32,
    pub mcountinhibit: u32,
    /// Which counters U-mode may read (bits 0 and 2..12; simple_system makes it writable).
    pub mcounteren: u32,
    /// cpuctrlsts bits 6 (sync_exc_seen) and 7 (double_fault_seen); the rest read 0 here.
    pub cpuctrlsts: u32,
    /// pmpcfg0..3, pmpaddr0..15, mseccfg(h); no entries unless the machine asks for them.
    pub pmp: Pmp,
    /// Visible counter value = raw - offset while counting; frozen while inhibited.
    offset: [u64; event::COUNT],
    frozen: [u64; event::COUNT],
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IllegalCsr;

/// What a CSR write changed that the core must react to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct WriteEffect {
    /// mstatus or mie changed: interrupts must be re-evaluated.
    pub irq: bool,
}

impl Csrs {
    pub fn new(boot_addr: u32) -> Csrs {
        Csrs {
            // Reset: MIE=0, MPIE=1, MPP=U (Ibex MSTATUS_RST_VAL).
            mstatus: MSTATUS_MPIE,
            mie: 0,
            mtvec: (boot_addr & !0xff) | 1,
            mscratch: 0,
            mepc: 0,
            mcause: 0,
            mtval: 0,
            mcountinhibit: 0,
            mcounteren: 0,
            cpuctrlsts: 0,
            pmp: Pmp::new(0),
            offset: [0; event::COUNT],
            frozen: [0; event::COUNT],
        }
    }

    fn counter_exists(idx: usize) -> bool {
        idx == 0 || idx == 2 || (3..3 + HPM_COUNTERS).contains(&idx)
    }

    fn inhibited(&self, idx: usize) -> bool {
        self.mcountinhibit >> idx & 1 != 0
    }

    /// The visible value of counter `idx` (64 bits; hpm counters are 40 bits wide).
    pub fn counter(&self, idx: usize, raw: &[u64; event::COUNT]) -> u64 {
        if !Self::counter_exists(idx) {
            return 0;
        }
        let v = if self.inhibited(idx) {
            self.frozen[idx]
        } else {
            raw[idx].wrapping_sub(self.offset[idx])
        };
        if idx >= 3 {
            v & HPM_WIDTH_MASK
        } else {
            v
        }
    }

    /// Make counter `idx` read `value` from the instant whose raw counts are `raw_next`.
    fn set_counter(&mut self, idx: usize, value: u64, raw_next: &[u64; event::COUNT]) {
        let value = if idx >= 3 {
            value & HPM_WIDTH_MASK
        } else {
            value
        };
        self.frozen[idx] = value;
        self.offset[idx] = raw_next[idx].wrapping_sub(value);
    }

    fn set_inhibit(&mut self, new: u32, raw: &[u64; event::COUNT]) {
        for (idx, &raw_idx) in raw.iter().enumerate() {
            if !Self::counter_exists(idx) {
                continue;
            }
            let was = self.inhibited(idx);
            let now = new >> idx & 1 != 0;
            if !was && now {
                self.frozen[idx] = raw_idx.wrapping_sub(self.offset[idx]);
            } else if was && !now {
                self.offset[idx] = raw_idx.wrapping_sub(self.frozen[idx]);
            }
        }
        self.mcountinhibit = new;
    }

    /// Is `addr` a CSR this core implements, readable at privilege `p`?
    pub fn read(&self, addr: u16, p: Priv, now: &Now) -> Result<u32, IllegalCsr> {
        if (addr >> 8) & 3 == 3 && p == Priv::User {
            return Err(IllegalCsr);
        }
        let v = match addr {
            MVENDORID | MIMPID | MHARTID | MCONFIGPTR => 0,
            MARCHID => MARCHID_VALUE,
            MSTATUS => self.mstatus,
            MSTATUSH | MENVCFG | MENVCFGH => 0,
            MISA => MISA_VALUE,
            MIE => self.mie,
            MCOUNTEREN => self.mcounteren,
            MSCRATCH => self.mscratch,
            MTVEC => self.mtvec,
            MEPC => self.mepc,
            MCAUSE => self.mcause,
            MTVAL => self.mtval,
            MIP => now.mip & IRQ_MASK,
            CPUCTRLSTS => self.cpuctrlsts,
            SECURESEED => 0,
            a if Pmp::is_csr(a) => {
                if self.pmp.regions() == 0 {
                    return Err(IllegalCsr);
                }
                self.pmp.read(a)
            }
            MCOUNTINHIBIT => self.mcountinhibit,
            0x323..=0x33f => {
                // mhpmevent3..31: hardwired one-hot event selectors for the implemented counters
                let idx = (addr - 0x320) as usize;
                if idx < 3 + HPM_COUNTERS {
                    1 << (idx - 3)
                } else {
                    0
                }
            }
            0xb00 | 0xb02..=0xb1f | 0xc00 | 0xc02..=0xc1f => {
                if addr >= 0xc00 && p == Priv::User && self.mcounteren >> (addr & 0x1f) & 1 == 0 {
                    return Err(IllegalCsr);
                }
                self.counter((addr & 0x1f) as usize, now.raw) as u32
            }
            0xb80 | 0xb82..=0xb9f | 0xc80 | 0xc82..=0xc9f => {
                if addr >= 0xc00 && p == Priv::User && self.mcounteren >> (addr & 0x1f) & 1 == 0 {
                    return Err(IllegalCsr);
                }
                (self.counter((addr & 0x1f) as usize, now.raw) >> 32) as u32
            }
            _ => return Err(IllegalCsr),
        };
        Ok(v)
    }

    /// Write `value` to `addr`. `raw_now` are the raw counts while the writing instruction
    /// executes, `raw_next` those after it: a counter written by an instruction does not
    /// count that cycle (the half not written keeps its value) and reads the new value right
    /// after. The caller has already checked readability with `read`.
    pub fn write(
        &mut self,
        addr: u16,
        value: u32,
        raw_now: &[u64; event::COUNT],
        raw_next: &[u64; event::COUNT],
    ) -> Result<WriteEffect, IllegalCsr> {
        if (addr >> 10) & 3 == 3 {
            return Err(IllegalCsr); // read-only space
        }
        let mut eff = WriteEffect::default();
        match addr {
            MSTATUS => {
                let mut v =
                    value & (MSTATUS_MIE | MSTATUS_MPIE | MSTATUS_MPP | MSTATUS_MPRV | MSTATUS_TW);
                // MPP holds only M or U; anything else becomes U.
                if v & MSTATUS_MPP != MSTATUS_MPP {
                    v &= !MSTATUS_MPP;
                }
                self.mstatus = v;
                eff.irq = true;
            }
            MIE => {
                self.mie = value & IRQ_MASK;
                eff.irq = true;
            }
            MSCRATCH => self.mscratch = value,
            MTVEC => self.mtvec = (value & !0xff) | 1,
            MEPC => self.mepc = value & !1,
            MCAUSE => {
                let irq = value >> 31 != 0;
                self.mcause = (value & 0x1f)
                    | if irq {
                        0x8000_0000 | if value >> 30 & 1 != 0 { 0x7fff_ffe0 } else { 0 }
                    } else {
                        0
                    };
            }
            MTVAL => self.mtval = value,
            CPUCTRLSTS => self.cpuctrlsts = value & 0xc0,
            MCOUNTINHIBIT => {
                let mask = ((1u32 << (3 + HPM_COUNTERS)) - 1) & !2;
                self.set_inhibit(value & mask, raw_next);
            }
            MCOUNTEREN => self.mcounteren = value & ((1u32 << (3 + HPM_COUNTERS)) - 1) & !2,
            MISA | MSTATUSH | MENVCFG | MENVCFGH | MIP | SECURESEED | 0x323..=0x33f => {}
            a if Pmp::is_csr(a) && self.pmp.regions() > 0 => self.pmp.write(a, value),
            0xb00 | 0xb02..=0xb1f => {
                let idx = (addr & 0x1f) as usize;
                if Self::counter_exists(idx) {
                    let old = self.counter(idx, raw_now);
                    self.set_counter(idx, (old & !0xffff_ffff) | value as u64, raw_next);
                }
            }
            0xb80 | 0xb82..=0xb9f => {
                let idx = (addr & 0x1f) as usize;
                if Self::counter_exists(idx) {
                    let old = self.counter(idx, raw_now);
                    self.set_counter(idx, (old & 0xffff_ffff) | (value as u64) << 32, raw_next);
                }
            }
            _ => return Err(IllegalCsr),
        }
        Ok(eff)
    }

    /// Does writing this CSR flush the pipeline (3 cycles) or not (1 cycle)?
    pub fn write_flushes(addr: u16) -> bool {
        !matches!(addr, MSCRATCH | MEPC)
    }

    pub fn mie_enabled(&self) -> bool {
        self.mstatus & MSTATUS_MIE != 0
    }

    /// The privilege loads and stores are checked at: mstatus.MPP while MPRV is set.
    #[inline(always)]
    pub fn data_privilege(&self, p: Priv) -> Priv {
        if self.mstatus & MSTATUS_MPRV == 0 {
            p
        } else if self.mstatus & MSTATUS_MPP == MSTATUS_MPP {
            Priv::Machine
        } else {
            Priv::User
        }
    }
}
