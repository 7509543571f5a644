//! Instruction semantics: what one decoded instruction does to the registers, memory, CSRs
//! and privilege. `Hart::execute` changes that state and says what happened in an
//! `Outcome`, from which the timing model (`timing.rs`) charges cycles and the run loop
//! (`hart.rs`) calls the observer and decides whether to go on. No cycle cost is known here.
//!
//! `execute` hands the outcome to a continuation (`then`) instead of returning it: each
//! instruction's arm calls it with an outcome whose variant is a constant there, so the
//! compiler inlines the timing and observer code specialised to that instruction, as if it
//! were written in the arm. A first version that returned the outcome, for the loop to
//! match on it again, ran 40 % slower (measured): the outcome went through memory and was
//! dispatched on a second time.

use crate::bus::Bus;
use crate::csr::{self, Now, Priv};
use crate::hart::{cause, Hart, Hot};
use crate::icache::Slot;
use crate::inst::Op;
use crate::pmp::Access;

/// What an executed instruction did, as far as timing, the performance counters, the
/// observer and the run loop need to know. Where control goes next is passed beside it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// No memory access, no redirect: ALU operations, lui, auipc, fence.
    Alu,
    /// A conditional branch, taken or not.
    Branch { taken: bool },
    /// jal or jalr (and their compressed forms).
    Jump,
    /// fence.i: refetches the next instruction (Ibex executes it as a jump there).
    FenceI,
    /// A load of `size` bytes at `addr` that completed after `wait` wait states.
    Load { addr: u32, size: u32, wait: u32 },
    /// A store of `size` bytes at `addr` that completed after `wait` wait states.
    Store { addr: u32, size: u32, wait: u32 },
    /// mul (`high` false), mulh, mulhsu or mulhu (`high` true).
    Mul { high: bool },
    /// div, divu, rem or remu.
    Div { by_zero: bool },
    /// A CSR instruction; `written`: the CSR it wrote, if it wrote one; `irq`: the write may
    /// have made an interrupt pending.
    Csr { written: Option<u16>, irq: bool },
    /// mret: privilege and mstatus restored, control goes to mepc.
    Mret,
    /// wfi: the core goes to sleep.
    Wfi,
    /// A load that faulted with `tval`; `split`: it crossed a word boundary; `pmp`: the PMP
    /// denied (part of) it, which the LSU learns a cycle later than a bus error.
    LoadFault { tval: u32, split: bool, pmp: bool },
    /// A store at `addr` in the guard window (`Hart::guard`): not done, the core stops.
    Guarded { addr: u32 },
    /// A store that faulted with `tval` (the mapped, allowed half of a split one was written).
    StoreFault { tval: u32, split: bool, pmp: bool },
    /// The instruction raises exception `cause` (ecall, ebreak, an illegal instruction or
    /// CSR access); `retired`: Ibex counts it in minstret.
    Exception {
        cause: u32,
        tval: u32,
        retired: bool,
    },
}

/// The high word of the product of `mulh`, `mulhsu` or `mulhu` (`op`).
#[inline(always)]
fn mul_high(op: Op, rs1: u32, rs2: u32) -> u32 {
    match op {
        Op::Mulh => ((rs1 as i32 as i64 * rs2 as i32 as i64) >> 32) as u32,
        Op::Mulhsu => ((rs1 as i32 as i64 * rs2 as u64 as i64) >> 32) as u32,
        _ => ((rs1 as u64 * rs2 as u64) >> 32) as u32,
    }
}

/// The result of `div`, `divu`, `rem` or `remu` (`op`), as RISC-V defines it for a zero
/// divisor (all ones, or the dividend) and for overflow (wrapping).
#[inline(always)]
fn div_rem(op: Op, rs1: u32, rs2: u32) -> u32 {
    if rs2 == 0 {
        match op {
            Op::Div | Op::Divu => u32::MAX,
            _ => rs1,
        }
    } else {
        match op {
            Op::Div => (rs1 as i32).wrapping_div(rs2 as i32) as u32,
            Op::Divu => rs1 / rs2,
            Op::Rem => (rs1 as i32).wrapping_rem(rs2 as i32) as u32,
            _ => rs1 % rs2,
        }
    }
}

/// True when an access of `size` bytes at `addr` crosses a word boundary (two bus accesses).
#[inline(always)]
pub(crate) fn is_split(addr: u32, size: u32) -> bool {
    (addr & 3) + size > 4
}

impl Hart {
    /// Execute `inst`, the instruction at `h.pc`, which starts in cycle `h.cycle`, then
    /// return `then(self, bus, outcome, next)`, `next` being where control goes on.
    #[inline(always)]
    pub(crate) fn execute<B: Bus, R, const PMP: bool>(
        &mut self,
        inst: Slot,
        h: Hot,
        bus: &mut B,
        then: impl FnOnce(&mut Hart, &mut B, Outcome, u32) -> R,
    ) -> R {
        let pc = h.pc;
        let start = h.cycle;
        let fall = pc.wrapping_add(inst.len());
        let rs1 = self.x[inst.rs1() as usize];
        let rs2 = self.x[inst.rs2() as usize];
        // Writes to x0 go to the sink register x[32] (the decode cache maps rd 0 there).
        let rd = inst.rd();
        let imm = inst.imm;
        macro_rules! alu {
            ($v:expr) => {{
                self.x[rd] = $v;
                then(self, bus, Outcome::Alu, fall)
            }};
        }
        macro_rules! branch {
            ($cond:expr) => {{
                if $cond {
                    let target = pc.wrapping_add(imm as u32);
                    then(self, bus, Outcome::Branch { taken: true }, target)
                } else {
                    then(self, bus, Outcome::Branch { taken: false }, fall)
                }
            }};
        }
        macro_rules! load {
            ($size:expr, |$v:ident| $ext:expr) => {{
                let addr = rs1.wrapping_add(imm as u32);
                let out = self.load::<B, PMP>(bus, addr, $size, rd, start, |$v| $ext);
                then(self, bus, out, fall)
            }};
        }
        macro_rules! store {
            ($size:expr) => {{
                let addr = rs1.wrapping_add(imm as u32);
                let out = self.store::<B, PMP>(bus, addr, $size, rs2, start);
                then(self, bus, out, fall)
            }};
        }
        macro_rules! illegal {
            ($retired:expr) => {{
                let out = Outcome::Exception {
                    cause: cause::ILLEGAL_INSN,
                    tval: Self::raw_bits(bus, pc, inst.compressed()),
                    retired: $retired,
                };
                then(self, bus, out, fall)
            }};
        }
        match inst.op {
            Op::Addi => alu!(rs1.wrapping_add(imm as u32)),
            Op::Lui => alu!(imm as u32),
            Op::Auipc => alu!(pc.wrapping_add(imm as u32)),
            Op::Slti => alu!(((rs1 as i32) < imm) as u32),
            Op::Sltiu => alu!((rs1 < imm as u32) as u32),
            Op::Xori => alu!(rs1 ^ imm as u32),
            Op::Ori => alu!(rs1 | imm as u32),
            Op::Andi => alu!(rs1 & imm as u32),
            Op::Slli => alu!(rs1 << (imm & 31)),
            Op::Srli => alu!(rs1 >> (imm & 31)),
            Op::Srai => alu!(((rs1 as i32) >> (imm & 31)) as u32),
            Op::Add => alu!(rs1.wrapping_add(rs2)),
            Op::Sub => alu!(rs1.wrapping_sub(rs2)),
            Op::Sll => alu!(rs1 << (rs2 & 31)),
            Op::Slt => alu!(((rs1 as i32) < (rs2 as i32)) as u32),
            Op::Sltu => alu!((rs1 < rs2) as u32),
            Op::Xor => alu!(rs1 ^ rs2),
            Op::Srl => alu!(rs1 >> (rs2 & 31)),
            Op::Sra => alu!(((rs1 as i32) >> (rs2 & 31)) as u32),
            Op::Or => alu!(rs1 | rs2),
            Op::And => alu!(rs1 & rs2),
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
                self.x[rd] = fall;
                then(self, bus, Outcome::Jump, pc.wrapping_add(imm as u32))
            }
            Op::Jalr => {
                self.x[rd] = fall;
                then(self, bus, Outcome::Jump, rs1.wrapping_add(imm as u32) & !1)
            }
            Op::Mul => {
                self.x[rd] = rs1.wrapping_mul(rs2);
                then(self, bus, Outcome::Mul { high: false }, fall)
            }
            Op::Mulh | Op::Mulhsu | Op::Mulhu => {
                self.x[rd] = mul_high(inst.op, rs1, rs2);
                then(self, bus, Outcome::Mul { high: true }, fall)
            }
            Op::Div | Op::Divu | Op::Rem | Op::Remu => {
                let by_zero = rs2 == 0;
                self.x[rd] = div_rem(inst.op, rs1, rs2);
                then(self, bus, Outcome::Div { by_zero }, fall)
            }
            Op::Fence => then(self, bus, Outcome::Alu, fall),
            Op::FenceI => then(self, bus, Outcome::FenceI, fall),
            Op::Csrrw | Op::Csrrs | Op::Csrrc | Op::Csrrwi | Op::Csrrsi | Op::Csrrci => {
                match self.exec_csr(inst, rs1, start, h.instret, h.compressed) {
                    Ok((written, irq)) => then(self, bus, Outcome::Csr { written, irq }, fall),
                    Err(()) => illegal!(false),
                }
            }
            Op::Ecall | Op::Ebreak => {
                let cause = match inst.op {
                    Op::Ebreak => cause::BREAKPOINT,
                    _ if self.privilege == Priv::Machine => cause::ECALL_M,
                    _ => cause::ECALL_U,
                };
                let out = Outcome::Exception {
                    cause,
                    tval: 0,
                    retired: false,
                };
                then(self, bus, out, fall)
            }
            // Ibex counts privilege-illegal instructions as retired.
            Op::Mret if self.privilege != Priv::Machine => illegal!(true),
            Op::Mret => {
                let target = self.mret();
                then(self, bus, Outcome::Mret, target)
            }
            Op::Wfi if self.privilege == Priv::User && self.csr.mstatus & csr::MSTATUS_TW != 0 => {
                illegal!(true)
            }
            Op::Wfi => then(self, bus, Outcome::Wfi, fall),
            Op::Illegal => illegal!(false),
            // dret outside debug mode: illegal, and counted as retired (as Ibex does); never
            // compressed.
            Op::Dret => illegal!(true),
            Op::Undecoded => unreachable!("decode never yields Undecoded"),
        }
    }

    /// A load of `size` bytes at `addr` into `rd` (its value through `ext`) that starts in
    /// cycle `start`: what it did, or the fault (PMP first, then the bus).
    #[inline(always)]
    fn load<B: Bus, const PMP: bool>(
        &mut self,
        bus: &mut B,
        addr: u32,
        size: u32,
        rd: usize,
        start: u64,
        ext: impl FnOnce(u32) -> u32,
    ) -> Outcome {
        if PMP {
            let p = self.csr.data_privilege(self.privilege);
            let (first, second) = self.csr.pmp.data(addr, size, Access::Read, p);
            if !(first && second) {
                let tval = if first {
                    Self::split_load_tval(bus, addr, size)
                } else {
                    addr
                };
                let split = is_split(addr, size);
                return Outcome::LoadFault {
                    tval,
                    split,
                    pmp: true,
                };
            }
        }
        match bus.read(addr, size, start) {
            Ok((v, wait)) => {
                self.x[rd] = ext(v);
                Outcome::Load { addr, size, wait }
            }
            Err(_) => {
                let split = is_split(addr, size);
                let tval = if split {
                    Self::split_load_tval(bus, addr, size)
                } else {
                    addr
                };
                Outcome::LoadFault {
                    tval,
                    split,
                    pmp: false,
                }
            }
        }
    }

    /// A store of `size` bytes of `value` at `addr` that starts in cycle `start`: what it did,
    /// or the fault (PMP first, then the bus).
    #[inline(always)]
    fn store<B: Bus, const PMP: bool>(
        &mut self,
        bus: &mut B,
        addr: u32,
        size: u32,
        rs2: u32,
        start: u64,
    ) -> Outcome {
        if addr.wrapping_sub(self.guard.lo) < self.guard.len
            && !std::mem::take(&mut self.guard.pass)
        {
            return Outcome::Guarded { addr };
        }
        if addr == self.guard.watch {
            self.guard.moved = true;
        }
        if PMP {
            let p = self.csr.data_privilege(self.privilege);
            let allowed = self.csr.pmp.data(addr, size, Access::Write, p);
            if !(allowed.0 && allowed.1) {
                let tval = Self::pmp_store(bus, addr, size, rs2, start, allowed);
                self.icache.invalidate(addr, size);
                let split = is_split(addr, size);
                return Outcome::StoreFault {
                    tval,
                    split,
                    pmp: true,
                };
            }
        }
        match bus.write(addr, size, rs2, start) {
            Ok(wait) => {
                self.icache.invalidate(addr, size);
                Outcome::Store { addr, size, wait }
            }
            Err(_) => {
                let split = is_split(addr, size);
                let tval = if split {
                    Self::split_store(bus, addr, size, rs2, start)
                } else {
                    addr
                };
                Outcome::StoreFault {
                    tval,
                    split,
                    pmp: false,
                }
            }
        }
    }

    /// Execute a CSR instruction (`rs1` the value of its rs1 register) that starts in cycle
    /// `start` after `instret` instructions, `compressed` of them compressed. Returns the CSR
    /// it wrote, if any, and whether interrupts must be re-evaluated, or Err for an illegal
    /// access. (Arguments by value: a reference to the run loop's state would keep it in
    /// memory.)
    fn exec_csr(
        &mut self,
        inst: Slot,
        rs1: u32,
        start: u64,
        instret: u64,
        compressed: u64,
    ) -> Result<(Option<u16>, bool), ()> {
        let addr = inst.imm as u16;
        let src = match inst.op {
            Op::Csrrwi | Op::Csrrsi | Op::Csrrci => inst.rs1() as u32,
            _ => rs1,
        };
        let writes = matches!(inst.op, Op::Csrrw | Op::Csrrwi) || inst.rs1() != 0;
        let raw = self.raw_counts(start, instret, compressed);
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
        let mut written = None;
        let mut irq_check = false;
        if writes {
            let new = match inst.op {
                Op::Csrrw | Op::Csrrwi => src,
                Op::Csrrs | Op::Csrrsi => old | src,
                _ => old & !src,
            };
            let raw_next = self.raw_counts(start + 1, instret + 1, compressed);
            irq_check = self
                .csr
                .write(addr, new, &raw, &raw_next)
                .map_err(|_| ())?
                .irq;
            written = Some(addr);
        }
        self.x[inst.rd()] = old;
        Ok((written, irq_check))
    }

    /// mret in machine mode: restore the privilege and interrupt enable saved at trap entry.
    /// Returns where execution resumes (mepc).
    fn mret(&mut self) -> u32 {
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
        c.mepc
    }

    /// A load of `size` bytes at `a` that crosses a word boundary faulted: Ibex issues both
    /// word accesses; mtval is the address if the first faults, else the second word's
    /// address.
    #[cold]
    fn split_load_tval<B: Bus>(bus: &mut B, a: u32, size: u32) -> u32 {
        let second = (a & !3).wrapping_add(4);
        let first_ok = (a..second.min(a.wrapping_add(size))).all(|b| bus.read(b, 1, 0).is_ok());
        if first_ok {
            second
        } else {
            a
        }
    }

    /// A store of `size` bytes at `a` that crosses a word boundary faulted: Ibex still writes
    /// the half that is mapped. Returns mtval as for loads.
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

    /// A store of `size` bytes at `a` that the PMP denied in part (`allowed`: its first and
    /// second word): Ibex still issues the word the PMP allows. Returns mtval: `a` when the
    /// first word failed (PMP or bus), else the second word's address.
    #[cold]
    fn pmp_store<B: Bus>(
        bus: &mut B,
        a: u32,
        size: u32,
        value: u32,
        now: u64,
        allowed: (bool, bool),
    ) -> u32 {
        let second = (a & !3).wrapping_add(4);
        let mut first_ok = allowed.0;
        for i in 0..size {
            let b = a.wrapping_add(i);
            let in_first = b >> 2 == a >> 2;
            if if in_first { allowed.0 } else { allowed.1 } {
                let ok = bus.write(b, 1, value >> (8 * i), now).is_ok();
                first_ok &= ok || !in_first;
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
}
