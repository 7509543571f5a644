//! Physical memory protection as Ibex implements it (`rtl/ibex_pmp.sv` and the PMP part of
//! `ibex_cs_registers.sv`, PMPGranularity 0, Smepmp): up to 16 entries, each a `pmpcfg`
//! byte and a `pmpaddr` word; TOR, NA4 and NAPOT address matching on word addresses; the
//! lowest-numbered matching entry decides; the lock bit, and `mseccfg` with its MML, MMWP
//! and RLB bits. A core built without PMP (`regions` 0, simple_system's default) has none of
//! these CSRs: accessing them is illegal.
//!
//! Entries are kept twice: as the CSRs hold them, and as word-address intervals in
//! priority order (OFF entries and empty ranges dropped), rebuilt on every write, so a check
//! is a scan of the active intervals. Instruction fetch, checked on every instruction, has a
//! faster path: per privilege, a window of addresses known to be executable (`exec_window`),
//! which a CSR write empties.

use crate::csr::Priv;

pub const PMPCFG0: u16 = 0x3a0;
pub const PMPADDR0: u16 = 0x3b0;
pub const MSECCFG: u16 = 0x747;
pub const MSECCFGH: u16 = 0x757;

/// The most entries Ibex has (and the CSR space provides pmpcfg0..3 for).
pub const MAX_REGIONS: usize = 16;

/// mseccfg bits.
pub const MSECCFG_MML: u32 = 1 << 0;
pub const MSECCFG_MMWP: u32 = 1 << 1;
pub const MSECCFG_RLB: u32 = 1 << 2;

/// pmpcfg fields.
const CFG_R: u8 = 1 << 0;
const CFG_W: u8 = 1 << 1;
const CFG_X: u8 = 1 << 2;
const CFG_A: u8 = 3 << 3;
const CFG_L: u8 = 1 << 7;
const MODE_TOR: u8 = 1 << 3;
const MODE_NA4: u8 = 2 << 3;
const MODE_NAPOT: u8 = 3 << 3;

/// The kind of access being checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    Read,
    Write,
    Exec,
}

/// One active entry: the word addresses `[lo, hi)` it matches (34-bit physical space, in
/// words: up to 2^32) and its configuration byte.
#[derive(Clone, Copy, Debug, Default)]
struct Range {
    lo: u64,
    hi: u64,
    cfg: u8,
}

/// Byte addresses `[lo, lo + len)` all executable at one privilege.
#[derive(Clone, Copy, Debug, Default)]
struct Window {
    lo: u32,
    len: u64,
}

#[derive(Clone, Debug)]
pub struct Pmp {
    /// Entries implemented (0: no PMP).
    regions: usize,
    cfg: [u8; MAX_REGIONS],
    addr: [u32; MAX_REGIONS],
    mseccfg: u32,
    /// The active entries in priority order (`n` of them).
    ranges: [Range; MAX_REGIONS],
    n: usize,
    /// M-mode passes every check: no lock bit set, MML and MMWP clear.
    m_open: bool,
    /// Known-executable window per privilege (index `Priv as usize`); empty when unknown.
    exec: [Window; 2],
}

impl Pmp {
    /// PMP with `regions` entries (0..=16), in its reset state (everything off).
    pub fn new(regions: usize) -> Pmp {
        assert!(regions <= MAX_REGIONS, "at most {MAX_REGIONS} PMP regions");
        let mut p = Pmp {
            regions,
            cfg: [0; MAX_REGIONS],
            addr: [0; MAX_REGIONS],
            mseccfg: 0,
            ranges: [Range::default(); MAX_REGIONS],
            n: 0,
            m_open: true,
            exec: [Window::default(); 2],
        };
        p.rebuild();
        p
    }

    /// Entries implemented (0: the core has no PMP).
    pub fn regions(&self) -> usize {
        self.regions
    }

    /// Is `addr` one of the PMP CSRs (legal only when the core has PMP)?
    pub fn is_csr(addr: u16) -> bool {
        matches!(addr, 0x3a0..=0x3a3 | 0x3b0..=0x3bf | MSECCFG | MSECCFGH)
    }

    /// Read PMP CSR `addr` (`is_csr` holds). Entries past `regions` read 0.
    pub fn read(&self, addr: u16) -> u32 {
        match addr {
            0x3a0..=0x3a3 => {
                let base = 4 * (addr - PMPCFG0) as usize;
                (0..4).fold(0, |v, i| v | (self.cfg[base + i] as u32) << (8 * i))
            }
            0x3b0..=0x3bf => self.addr[(addr - PMPADDR0) as usize],
            MSECCFG => self.mseccfg,
            _ => 0, // mseccfgh
        }
    }

    /// Entry `i` ignores writes: its lock bit is set and mseccfg.RLB is clear.
    fn locked(&self, i: usize) -> bool {
        self.cfg[i] & CFG_L != 0 && self.mseccfg & MSECCFG_RLB == 0
    }

    /// A configuration that MML reserves for M-mode execution: written only with RLB set.
    fn is_mml_m_exec(cfg: u8) -> bool {
        cfg & CFG_L != 0 && matches!(cfg & 7, 0b100 | 0b010 | 0b110 | 0b101)
    }

    /// Write PMP CSR `addr` (`is_csr` holds) with the field rules of Ibex.
    pub fn write(&mut self, addr: u16, value: u32) {
        match addr {
            0x3a0..=0x3a3 => {
                let base = 4 * (addr - PMPCFG0) as usize;
                for i in base..(base + 4).min(self.regions) {
                    let b = (value >> (8 * (i - base))) as u8;
                    let mml = self.mseccfg & MSECCFG_MML != 0;
                    let rlb = self.mseccfg & MSECCFG_RLB != 0;
                    // NA4 needs granularity 0 (always here); W needs R unless MML.
                    let w = if mml {
                        b & CFG_W
                    } else {
                        b & CFG_W & (b & CFG_R) << 1
                    };
                    let new = (b & (CFG_L | CFG_A | CFG_X | CFG_R)) | w;
                    if self.locked(i) || (mml && !rlb && Self::is_mml_m_exec(new)) {
                        continue;
                    }
                    self.cfg[i] = new;
                }
            }
            0x3b0..=0x3bf => {
                let i = (addr - PMPADDR0) as usize;
                if i >= self.regions || self.locked(i) {
                    return;
                }
                // The top of a locked TOR entry cannot move either.
                if i + 1 < self.regions && self.locked(i + 1) && self.cfg[i + 1] & CFG_A == MODE_TOR
                {
                    return;
                }
                self.addr[i] = value;
            }
            MSECCFG => {
                let any_locked = (0..self.regions).any(|i| self.locked(i));
                let sticky = self.mseccfg & (MSECCFG_MML | MSECCFG_MMWP);
                let rlb = if any_locked { 0 } else { value & MSECCFG_RLB };
                self.mseccfg = sticky | (value & (MSECCFG_MML | MSECCFG_MMWP)) | rlb;
            }
            _ => {} // mseccfgh: reads 0
        }
        self.rebuild();
    }

    /// Recompute the active ranges, `m_open`, and empty the exec windows.
    fn rebuild(&mut self) {
        self.n = 0;
        for i in 0..self.regions {
            let cfg = self.cfg[i];
            let a = self.addr[i] as u64;
            let (lo, hi) = match cfg & CFG_A {
                MODE_TOR => (if i == 0 { 0 } else { self.addr[i - 1] as u64 }, a),
                MODE_NA4 => (a, a + 1),
                MODE_NAPOT => {
                    // The trailing ones and the bit above them select the size.
                    let size = 1u64 << (self.addr[i].trailing_ones() + 1);
                    let lo = a & !(size - 1);
                    (lo, lo + size)
                }
                _ => continue,
            };
            if lo < hi {
                self.ranges[self.n] = Range { lo, hi, cfg };
                self.n += 1;
            }
        }
        let any_lock = self.cfg[..self.regions].iter().any(|c| c & CFG_L != 0);
        self.m_open = !any_lock && self.mseccfg & (MSECCFG_MML | MSECCFG_MMWP) == 0;
        self.exec = [Window::default(); 2];
    }

    /// May an entry configured `cfg` be accessed this way at privilege `p`?
    fn permits(&self, cfg: u8, acc: Access, p: Priv) -> bool {
        let bit = match acc {
            Access::Read => CFG_R,
            Access::Write => CFG_W,
            Access::Exec => CFG_X,
        };
        let basic = cfg & bit != 0;
        let lock = cfg & CFG_L != 0;
        let m = p == Priv::Machine;
        if self.mseccfg & MSECCFG_MML == 0 {
            return basic || m && !lock;
        }
        // Smepmp (MML): R=0 W=1 encodes shared regions; L=1 RWX=111 is a shared read-only one.
        let (r, w, x) = (cfg & CFG_R != 0, cfg & CFG_W != 0, cfg & CFG_X != 0);
        if !r && w {
            return match (lock, x) {
                (false, false) => acc == Access::Read || acc == Access::Write && m,
                (false, true) => acc == Access::Read || acc == Access::Write,
                (true, false) => acc == Access::Exec,
                (true, true) => acc == Access::Exec || acc == Access::Read && m,
            };
        }
        if r && w && x && lock {
            return acc == Access::Read;
        }
        basic && if m { lock } else { !lock }
    }

    /// Does the PMP allow an access of kind `acc` at privilege `p` to the word holding byte
    /// address `addr`? (Ibex checks each word an access touches.)
    pub fn allows(&self, addr: u32, acc: Access, p: Priv) -> bool {
        if p == Priv::Machine && self.m_open {
            return true;
        }
        let w = (addr >> 2) as u64;
        for r in &self.ranges[..self.n] {
            if r.lo <= w && w < r.hi {
                return self.permits(r.cfg, acc, p);
            }
        }
        self.no_match_allowed(acc, p)
    }

    /// An access that matches no entry: allowed only to M-mode, unless MMWP (or MML, for
    /// execution) says otherwise.
    fn no_match_allowed(&self, acc: Access, p: Priv) -> bool {
        let mml = self.mseccfg & MSECCFG_MML != 0;
        !(self.mseccfg & MSECCFG_MMWP != 0 || p != Priv::Machine || mml && acc == Access::Exec)
    }

    /// May a data access of `size` bytes at `addr` proceed at privilege `p`? Returns which of
    /// its (at most two) words are allowed: `(first, second)`; `second` is true for an access
    /// within one word.
    #[inline(always)]
    pub fn data(&self, addr: u32, size: u32, acc: Access, p: Priv) -> (bool, bool) {
        if p == Priv::Machine && self.m_open {
            return (true, true);
        }
        let first = self.allows(addr, acc, p);
        let second = (addr & 3) + size <= 4 || self.allows((addr | 3).wrapping_add(1), acc, p);
        (first, second)
    }

    /// Is the instruction of `len` bytes at `pc` inside the known-executable window of `p`?
    #[inline(always)]
    pub fn exec_known(&self, pc: u32, len: u32, p: Priv) -> bool {
        let w = self.exec[p as usize];
        pc.wrapping_sub(w.lo) as u64 + len as u64 <= w.len
    }

    /// Check the fetch of the instruction of `len` bytes at `pc` at privilege `p` word by
    /// word: None if allowed (the window of `p` then covers `pc`), else the address of the
    /// first halfword that may not be fetched (mtval of the instruction access fault).
    pub fn check_fetch(&mut self, pc: u32, len: u32, p: Priv) -> Option<u32> {
        if !self.allows(pc, Access::Exec, p) {
            return Some(pc);
        }
        let last = pc.wrapping_add(len - 1);
        if last >> 2 != pc >> 2 && !self.allows(last, Access::Exec, p) {
            return Some(pc.wrapping_add(2));
        }
        self.exec[p as usize] = self.exec_window(pc, p);
        None
    }

    /// The largest run of words around `pc`'s word that the same entry (or no entry) decides,
    /// as a byte window; `pc` is executable at `p`.
    fn exec_window(&self, pc: u32, p: Priv) -> Window {
        let w = (pc >> 2) as u64;
        let (mut lo, mut hi) = (0u64, 1u64 << 32);
        if !(p == Priv::Machine && self.m_open) {
            for r in &self.ranges[..self.n] {
                if r.lo <= w && w < r.hi {
                    lo = lo.max(r.lo);
                    hi = hi.min(r.hi);
                    break;
                }
                // An earlier entry not holding `pc` bounds the window on its side.
                if r.hi <= w {
                    lo = lo.max(r.hi);
                } else {
                    hi = hi.min(r.lo);
                }
            }
        }
        let lo_b = lo << 2;
        let hi_b = (hi << 2).min(1 << 32);
        Window {
            lo: lo_b as u32,
            len: hi_b - lo_b,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Access::*;
    use Priv::*;

    fn napot(base: u32, size: u32) -> u32 {
        (base >> 2) | ((size >> 3) - 1)
    }

    #[test]
    fn without_entries_only_machine_mode_passes() {
        let p = Pmp::new(16);
        assert!(p.allows(0x100000, Exec, Machine));
        assert!(!p.allows(0x100000, Read, User));
        assert_eq!(p.data(0x100002, 4, Write, User), (false, false));
    }

    #[test]
    fn cfg_field_rules() {
        let mut p = Pmp::new(16);
        p.write(0x3a3, 0x1e6b_1302);
        assert_eq!(p.read(0x3a3), 0x1c0b_1300); // measured on the RTL (tests/rtl/pmp.S)
        p.write(0x3bf, u32::MAX);
        assert_eq!(p.read(0x3bf), u32::MAX);
        let mut q = Pmp::new(4);
        q.write(0x3a1, 0x0f0f_0f0f);
        q.write(0x3b4, 7);
        assert_eq!((q.read(0x3a1), q.read(0x3b4)), (0, 0)); // entries past `regions`
    }

    #[test]
    fn first_matching_entry_decides() {
        let mut p = Pmp::new(16);
        p.write(0x3b0, napot(0x101100, 256));
        p.write(0x3b1, napot(0x100000, 1 << 20));
        p.write(0x3a0, 0x1b | 0x1d << 8); // e0 RW, e1 RX
        assert!(p.allows(0x101104, Write, User));
        assert!(!p.allows(0x101204, Write, User));
        assert!(p.allows(0x101204, Read, User));
        assert!(!p.allows(0x101104, Exec, User));
        assert!(!p.allows(0x200000, Read, User));
        // a split store: first word writable, second not
        assert_eq!(p.data(0x1011fe, 4, Write, User), (true, false));
    }

    #[test]
    fn tor_and_na4() {
        let mut p = Pmp::new(16);
        p.write(0x3b0, 0x30000 >> 2);
        p.write(0x3b1, 0x30010 >> 2);
        p.write(0x3b2, 0x101304 >> 2);
        p.write(0x3a0, 0x09 << 8 | 0x13 << 16); // e1 TOR R, e2 NA4 RW
        assert!(p.allows(0x3000c, Read, User));
        assert!(!p.allows(0x30010, Read, User));
        assert!(!p.allows(0x2fffc, Read, User));
        assert!(p.allows(0x101307, Write, User));
        assert!(!p.allows(0x101308, Write, User));
        // TOR in entry 0 starts at 0
        let mut q = Pmp::new(16);
        q.write(0x3b0, 0x1000 >> 2);
        q.write(0x3a0, 0x0f);
        assert!(q.allows(0, Exec, User) && q.allows(0xffc, Exec, User));
        assert!(!q.allows(0x1000, Exec, User));
    }

    #[test]
    fn napot_of_all_ones_covers_everything() {
        let mut p = Pmp::new(16);
        p.write(0x3b0, u32::MAX);
        p.write(0x3a0, 0x1f);
        assert!(p.allows(0, Write, User) && p.allows(0xffff_fffc, Exec, User));
    }

    #[test]
    fn locks_bind_machine_mode_and_ignore_writes() {
        let mut p = Pmp::new(16);
        p.write(0x3b0, napot(0x101300, 256));
        p.write(0x3a0, 0x99); // L NAPOT R
        assert!(p.allows(0x101300, Read, Machine));
        assert!(!p.allows(0x101300, Write, Machine));
        assert!(!p.allows(0x101300, Exec, Machine));
        assert!(p.allows(0x200000, Write, Machine));
        p.write(0x3a0, 0);
        p.write(0x3b0, 0);
        assert_eq!((p.read(0x3a0), p.read(0x3b0)), (0x99, napot(0x101300, 256)));
        // the pmpaddr below a locked TOR entry is locked too; RLB cannot be set any more
        let mut q = Pmp::new(16);
        q.write(0x3a3, 0x8800_8000);
        for a in 0x3bc..=0x3bf {
            q.write(a, 0x111);
        }
        assert_eq!(
            [0x3bc, 0x3bd, 0x3be, 0x3bf].map(|a| q.read(a)),
            [0x111, 0, 0, 0]
        );
        q.write(0x3a3, 0x0f0f_0f0f);
        assert_eq!(q.read(0x3a3), 0x880f_800f);
        q.write(MSECCFG, MSECCFG_RLB);
        assert_eq!(q.read(MSECCFG), 0);
    }

    #[test]
    fn rlb_lets_locked_entries_change() {
        let mut p = Pmp::new(16);
        p.write(MSECCFG, MSECCFG_RLB);
        p.write(0x3a0, 0x99);
        assert_eq!(p.read(0x3a0), 0x99);
        p.write(0x3a0, 0);
        assert_eq!(p.read(0x3a0), 0);
    }

    #[test]
    fn mmwp_and_mml_are_sticky_and_deny_machine_mode() {
        let mut p = Pmp::new(16);
        p.write(MSECCFG, MSECCFG_MMWP | MSECCFG_RLB);
        p.write(MSECCFG, 0);
        assert_eq!(p.read(MSECCFG), MSECCFG_MMWP);
        assert!(!p.allows(0x8000_0000, Read, Machine));
        p.write(0x3b0, u32::MAX);
        p.write(0x3a0, 0x18); // NAPOT, no permissions, not locked: M passes
        assert!(p.allows(0x8000_0000, Read, Machine));

        let mut m = Pmp::new(16);
        m.write(MSECCFG, MSECCFG_MML);
        m.write(MSECCFG, 0);
        assert_eq!(m.read(MSECCFG), MSECCFG_MML);
        assert!(m.allows(0x1000, Read, Machine)); // no match: M may read and write...
        assert!(!m.allows(0x1000, Exec, Machine)); // ...but not execute
        m.write(0x3b0, napot(0x100000, 4096));
        m.write(0x3a0, 0x9d); // L R X: M-mode only code; writable by the rule only with RLB
        assert_eq!(m.read(0x3a0), 0);
        m.write(0x3a0, 0x1d); // R X without L: U-mode code, which M may not execute
        assert!(m.allows(0x100000, Exec, User) && !m.allows(0x100000, Exec, Machine));
        m.write(0x3a0, 0x1a); // R=0 W=1 X=0 L=0: shared data, M read-write, U read-only
        assert!(m.allows(0x100000, Write, Machine) && !m.allows(0x100000, Write, User));
        assert!(m.allows(0x100000, Read, User));
    }

    #[test]
    fn exec_window_is_bounded_by_earlier_entries() {
        let mut p = Pmp::new(16);
        p.write(0x3b0, napot(0x100b00, 256)); // e0 no access
        p.write(0x3b1, napot(0x100000, 1 << 20)); // e1 R X
        p.write(0x3a0, 0x18 | 0x1d << 8);
        assert_eq!(p.check_fetch(0x100afa, 2, User), None);
        assert!(p.exec_known(0x100afc, 2, User));
        assert!(!p.exec_known(0x100afe, 4, User)); // would run into e0
        assert_eq!(p.check_fetch(0x100afe, 4, User), Some(0x100b00));
        assert_eq!(p.check_fetch(0x100b10, 2, User), Some(0x100b10));
        assert!(!p.exec_known(0x100afc, 2, Machine));
        p.write(0x3a0, 0x18 | 0x1d << 8);
        assert!(!p.exec_known(0x100afc, 2, User)); // a write empties the windows
    }
}
