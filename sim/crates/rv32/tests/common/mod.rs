//! Shared harness of the rv32 integration tests: a RAM + fake-MMIO bus, an instruction
//! encoder written from the RISC-V ISA manual (independent of `src/`), a small assembler with
//! labels, and a runner that steps the hart one instruction at a time.
#![allow(dead_code)]

use std::collections::HashMap;

use rv32::{Bus, BusFault, Exit, Hart};

pub const RAM_BASE: u32 = 0x0010_0000;
pub const RAM_LEN: u32 = 0x1_0000;
/// The reset PC: boot address + 0x80.
pub const RESET_PC: u32 = 0x0010_0080;
/// mtvec base after reset (exceptions land here; interrupt `c` at base + 4 * c).
pub const TRAP_BASE: u32 = RAM_BASE;
/// A scratch data area in RAM, far from the code.
pub const DATA: u32 = 0x0010_8000;
pub const MMIO_BASE: u32 = 0x0004_0000;
pub const MMIO_LEN: u32 = 0x100;
/// An address where nothing answers.
pub const UNMAPPED: u32 = 0x3000_0000;

// ---------------------------------------------------------------------------------------------
// Bus

pub struct TestBus {
    pub ram: Vec<u8>,
    /// Whether the fake MMIO region at MMIO_BASE answers at all.
    pub mmio_enabled: bool,
    /// Every MMIO write: (address, size, value).
    pub mmio_writes: Vec<(u32, u32, u32)>,
    /// Every MMIO read: (address, size).
    pub mmio_reads: Vec<(u32, u32)>,
    /// What an MMIO read returns (masked to the access size).
    pub mmio_value: u32,
    /// Wait states of every MMIO access.
    pub mmio_wait: u32,
}

impl TestBus {
    pub fn new() -> TestBus {
        TestBus {
            ram: vec![0; RAM_LEN as usize],
            mmio_enabled: true,
            mmio_writes: Vec::new(),
            mmio_reads: Vec::new(),
            mmio_value: 0x1234_5678,
            mmio_wait: 0,
        }
    }

    fn ram_range(addr: u32, size: u32) -> Option<usize> {
        let off = addr.wrapping_sub(RAM_BASE);
        if off < RAM_LEN && off + size <= RAM_LEN {
            Some(off as usize)
        } else {
            None
        }
    }

    fn in_mmio(&self, addr: u32, size: u32) -> bool {
        let off = addr.wrapping_sub(MMIO_BASE);
        self.mmio_enabled && off < MMIO_LEN && off + size <= MMIO_LEN
    }

    pub fn r8(&self, addr: u32) -> u8 {
        self.ram[(addr - RAM_BASE) as usize]
    }
    pub fn r32(&self, addr: u32) -> u32 {
        let o = (addr - RAM_BASE) as usize;
        u32::from_le_bytes(self.ram[o..o + 4].try_into().unwrap())
    }
    pub fn w32(&mut self, addr: u32, v: u32) {
        let o = (addr - RAM_BASE) as usize;
        self.ram[o..o + 4].copy_from_slice(&v.to_le_bytes());
    }
    pub fn w8(&mut self, addr: u32, v: u8) {
        self.ram[(addr - RAM_BASE) as usize] = v;
    }
}

impl Bus for TestBus {
    fn read(&mut self, addr: u32, size: u32, _now: u64) -> Result<(u32, u32), BusFault> {
        if let Some(o) = Self::ram_range(addr, size) {
            let mut v = 0u32;
            for i in 0..size as usize {
                v |= (self.ram[o + i] as u32) << (8 * i);
            }
            return Ok((v, 0));
        }
        if self.in_mmio(addr, size) {
            self.mmio_reads.push((addr, size));
            let mask = if size == 4 {
                u32::MAX
            } else {
                (1u32 << (8 * size)) - 1
            };
            return Ok((self.mmio_value & mask, self.mmio_wait));
        }
        Err(BusFault)
    }

    fn write(&mut self, addr: u32, size: u32, value: u32, _now: u64) -> Result<u32, BusFault> {
        if let Some(o) = Self::ram_range(addr, size) {
            for i in 0..size as usize {
                self.ram[o + i] = (value >> (8 * i)) as u8;
            }
            return Ok(0);
        }
        if self.in_mmio(addr, size) {
            let mask = if size == 4 {
                u32::MAX
            } else {
                (1u32 << (8 * size)) - 1
            };
            self.mmio_writes.push((addr, size, value & mask));
            return Ok(self.mmio_wait);
        }
        Err(BusFault)
    }

    fn fetch16(&self, addr: u32) -> Option<u16> {
        let o = Self::ram_range(addr, 2)?;
        Some(u16::from_le_bytes([self.ram[o], self.ram[o + 1]]))
    }

    fn sync_requested(&self) -> bool {
        false
    }
}

// ---------------------------------------------------------------------------------------------
// Register names

pub const ZERO: u32 = 0;
pub const RA: u32 = 1;
pub const SP: u32 = 2;
pub const GP: u32 = 3;
pub const TP: u32 = 4;
pub const T0: u32 = 5;
pub const T1: u32 = 6;
pub const T2: u32 = 7;
pub const S0: u32 = 8;
pub const S1: u32 = 9;
pub const A0: u32 = 10;
pub const A1: u32 = 11;
pub const A2: u32 = 12;
pub const A3: u32 = 13;
pub const A4: u32 = 14;
pub const A5: u32 = 15;
pub const A6: u32 = 16;
pub const A7: u32 = 17;
pub const S2: u32 = 18;
pub const S3: u32 = 19;
pub const S4: u32 = 20;
pub const S5: u32 = 21;
pub const S6: u32 = 22;
pub const S7: u32 = 23;
pub const S8: u32 = 24;
pub const S9: u32 = 25;
pub const S10: u32 = 26;
pub const S11: u32 = 27;
pub const T3: u32 = 28;
pub const T4: u32 = 29;
pub const T5: u32 = 30;
pub const T6: u32 = 31;

// CSR addresses (RISC-V privileged spec, Ibex custom ones).
pub const MSTATUS: u32 = 0x300;
pub const MISA: u32 = 0x301;
pub const MIE: u32 = 0x304;
pub const MTVEC: u32 = 0x305;
pub const MCOUNTEREN: u32 = 0x306;
pub const MSTATUSH: u32 = 0x310;
pub const MCOUNTINHIBIT: u32 = 0x320;
pub const MSCRATCH: u32 = 0x340;
pub const MEPC: u32 = 0x341;
pub const MCAUSE: u32 = 0x342;
pub const MTVAL: u32 = 0x343;
pub const MIP: u32 = 0x344;
pub const MCYCLE: u32 = 0xb00;
pub const MINSTRET: u32 = 0xb02;
pub const MCYCLEH: u32 = 0xb80;
pub const MINSTRETH: u32 = 0xb82;
pub const CYCLE: u32 = 0xc00;
pub const INSTRET: u32 = 0xc02;
pub const MVENDORID: u32 = 0xf11;
pub const MARCHID: u32 = 0xf12;
pub const MIMPID: u32 = 0xf13;
pub const MHARTID: u32 = 0xf14;

// ---------------------------------------------------------------------------------------------
// 32-bit encoder (RISC-V unprivileged spec, chapter "RV32I Base Integer Instruction Set")

pub mod enc {
    fn r(f7: u32, rs2: u32, rs1: u32, f3: u32, rd: u32, op: u32) -> u32 {
        assert!(rd < 32 && rs1 < 32 && rs2 < 32);
        f7 << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | rd << 7 | op
    }
    pub fn itype(imm: i32, rs1: u32, f3: u32, rd: u32, op: u32) -> u32 {
        assert!(
            (-2048..2048).contains(&imm),
            "I-immediate {imm} out of range"
        );
        assert!(rd < 32 && rs1 < 32);
        ((imm as u32) & 0xfff) << 20 | rs1 << 15 | f3 << 12 | rd << 7 | op
    }
    fn stype(imm: i32, rs2: u32, rs1: u32, f3: u32, op: u32) -> u32 {
        assert!((-2048..2048).contains(&imm));
        let i = imm as u32;
        ((i >> 5) & 0x7f) << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | (i & 0x1f) << 7 | op
    }
    fn btype(off: i32, rs2: u32, rs1: u32, f3: u32) -> u32 {
        assert!(
            (-4096..4096).contains(&off) && off % 2 == 0,
            "branch offset {off}"
        );
        let i = off as u32;
        ((i >> 12) & 1) << 31
            | ((i >> 5) & 0x3f) << 25
            | rs2 << 20
            | rs1 << 15
            | f3 << 12
            | ((i >> 1) & 0xf) << 8
            | ((i >> 11) & 1) << 7
            | 0x63
    }
    fn utype(imm20: u32, rd: u32, op: u32) -> u32 {
        assert!(imm20 < (1 << 20));
        imm20 << 12 | rd << 7 | op
    }

    /// `lui rd, imm20` (rd = imm20 << 12).
    pub fn lui(rd: u32, imm20: u32) -> u32 {
        utype(imm20, rd, 0x37)
    }
    pub fn auipc(rd: u32, imm20: u32) -> u32 {
        utype(imm20, rd, 0x17)
    }
    pub fn jal(rd: u32, off: i32) -> u32 {
        assert!((-(1 << 20)..(1 << 20)).contains(&off) && off % 2 == 0);
        let i = off as u32;
        ((i >> 20) & 1) << 31
            | ((i >> 1) & 0x3ff) << 21
            | ((i >> 11) & 1) << 20
            | ((i >> 12) & 0xff) << 12
            | rd << 7
            | 0x6f
    }
    pub fn jalr(rd: u32, rs1: u32, imm: i32) -> u32 {
        itype(imm, rs1, 0, rd, 0x67)
    }
    pub fn beq(rs1: u32, rs2: u32, off: i32) -> u32 {
        btype(off, rs2, rs1, 0)
    }
    pub fn bne(rs1: u32, rs2: u32, off: i32) -> u32 {
        btype(off, rs2, rs1, 1)
    }
    pub fn blt(rs1: u32, rs2: u32, off: i32) -> u32 {
        btype(off, rs2, rs1, 4)
    }
    pub fn bge(rs1: u32, rs2: u32, off: i32) -> u32 {
        btype(off, rs2, rs1, 5)
    }
    pub fn bltu(rs1: u32, rs2: u32, off: i32) -> u32 {
        btype(off, rs2, rs1, 6)
    }
    pub fn bgeu(rs1: u32, rs2: u32, off: i32) -> u32 {
        btype(off, rs2, rs1, 7)
    }
    pub fn branch(f3: u32, rs1: u32, rs2: u32, off: i32) -> u32 {
        btype(off, rs2, rs1, f3)
    }
    pub fn lb(rd: u32, rs1: u32, imm: i32) -> u32 {
        itype(imm, rs1, 0, rd, 0x03)
    }
    pub fn lh(rd: u32, rs1: u32, imm: i32) -> u32 {
        itype(imm, rs1, 1, rd, 0x03)
    }
    pub fn lw(rd: u32, rs1: u32, imm: i32) -> u32 {
        itype(imm, rs1, 2, rd, 0x03)
    }
    pub fn lbu(rd: u32, rs1: u32, imm: i32) -> u32 {
        itype(imm, rs1, 4, rd, 0x03)
    }
    pub fn lhu(rd: u32, rs1: u32, imm: i32) -> u32 {
        itype(imm, rs1, 5, rd, 0x03)
    }
    pub fn sb(rs2: u32, rs1: u32, imm: i32) -> u32 {
        stype(imm, rs2, rs1, 0, 0x23)
    }
    pub fn sh(rs2: u32, rs1: u32, imm: i32) -> u32 {
        stype(imm, rs2, rs1, 1, 0x23)
    }
    pub fn sw(rs2: u32, rs1: u32, imm: i32) -> u32 {
        stype(imm, rs2, rs1, 2, 0x23)
    }
    pub fn addi(rd: u32, rs1: u32, imm: i32) -> u32 {
        itype(imm, rs1, 0, rd, 0x13)
    }
    pub fn slti(rd: u32, rs1: u32, imm: i32) -> u32 {
        itype(imm, rs1, 2, rd, 0x13)
    }
    pub fn sltiu(rd: u32, rs1: u32, imm: i32) -> u32 {
        itype(imm, rs1, 3, rd, 0x13)
    }
    pub fn xori(rd: u32, rs1: u32, imm: i32) -> u32 {
        itype(imm, rs1, 4, rd, 0x13)
    }
    pub fn ori(rd: u32, rs1: u32, imm: i32) -> u32 {
        itype(imm, rs1, 6, rd, 0x13)
    }
    pub fn andi(rd: u32, rs1: u32, imm: i32) -> u32 {
        itype(imm, rs1, 7, rd, 0x13)
    }
    pub fn slli(rd: u32, rs1: u32, sh: u32) -> u32 {
        assert!(sh < 32);
        r(0, sh, rs1, 1, rd, 0x13)
    }
    pub fn srli(rd: u32, rs1: u32, sh: u32) -> u32 {
        assert!(sh < 32);
        r(0, sh, rs1, 5, rd, 0x13)
    }
    pub fn srai(rd: u32, rs1: u32, sh: u32) -> u32 {
        assert!(sh < 32);
        r(0x20, sh, rs1, 5, rd, 0x13)
    }
    pub fn add(rd: u32, rs1: u32, rs2: u32) -> u32 {
        r(0, rs2, rs1, 0, rd, 0x33)
    }
    pub fn sub(rd: u32, rs1: u32, rs2: u32) -> u32 {
        r(0x20, rs2, rs1, 0, rd, 0x33)
    }
    pub fn sll(rd: u32, rs1: u32, rs2: u32) -> u32 {
        r(0, rs2, rs1, 1, rd, 0x33)
    }
    pub fn slt(rd: u32, rs1: u32, rs2: u32) -> u32 {
        r(0, rs2, rs1, 2, rd, 0x33)
    }
    pub fn sltu(rd: u32, rs1: u32, rs2: u32) -> u32 {
        r(0, rs2, rs1, 3, rd, 0x33)
    }
    pub fn xor(rd: u32, rs1: u32, rs2: u32) -> u32 {
        r(0, rs2, rs1, 4, rd, 0x33)
    }
    pub fn srl(rd: u32, rs1: u32, rs2: u32) -> u32 {
        r(0, rs2, rs1, 5, rd, 0x33)
    }
    pub fn sra(rd: u32, rs1: u32, rs2: u32) -> u32 {
        r(0x20, rs2, rs1, 5, rd, 0x33)
    }
    pub fn or(rd: u32, rs1: u32, rs2: u32) -> u32 {
        r(0, rs2, rs1, 6, rd, 0x33)
    }
    pub fn and(rd: u32, rs1: u32, rs2: u32) -> u32 {
        r(0, rs2, rs1, 7, rd, 0x33)
    }
    /// Any OP-format instruction (for the M extension: f7 = 1).
    pub fn op(f7: u32, f3: u32, rd: u32, rs1: u32, rs2: u32) -> u32 {
        r(f7, rs2, rs1, f3, rd, 0x33)
    }
    pub fn mul(rd: u32, rs1: u32, rs2: u32) -> u32 {
        r(1, rs2, rs1, 0, rd, 0x33)
    }
    pub fn mulh(rd: u32, rs1: u32, rs2: u32) -> u32 {
        r(1, rs2, rs1, 1, rd, 0x33)
    }
    pub fn mulhsu(rd: u32, rs1: u32, rs2: u32) -> u32 {
        r(1, rs2, rs1, 2, rd, 0x33)
    }
    pub fn mulhu(rd: u32, rs1: u32, rs2: u32) -> u32 {
        r(1, rs2, rs1, 3, rd, 0x33)
    }
    pub fn div(rd: u32, rs1: u32, rs2: u32) -> u32 {
        r(1, rs2, rs1, 4, rd, 0x33)
    }
    pub fn divu(rd: u32, rs1: u32, rs2: u32) -> u32 {
        r(1, rs2, rs1, 5, rd, 0x33)
    }
    pub fn rem(rd: u32, rs1: u32, rs2: u32) -> u32 {
        r(1, rs2, rs1, 6, rd, 0x33)
    }
    pub fn remu(rd: u32, rs1: u32, rs2: u32) -> u32 {
        r(1, rs2, rs1, 7, rd, 0x33)
    }
    /// `fence iorw, iorw`
    pub fn fence() -> u32 {
        0x0ff0_000f
    }
    pub fn fence_i() -> u32 {
        0x0000_100f
    }
    pub fn ecall() -> u32 {
        0x0000_0073
    }
    pub fn ebreak() -> u32 {
        0x0010_0073
    }
    pub fn mret() -> u32 {
        0x3020_0073
    }
    pub fn wfi() -> u32 {
        0x1050_0073
    }
    pub fn dret() -> u32 {
        0x7b20_0073
    }
    fn csr(f3: u32, rd: u32, csr: u32, rs1: u32) -> u32 {
        assert!(csr < 4096 && rs1 < 32 && rd < 32);
        csr << 20 | rs1 << 15 | f3 << 12 | rd << 7 | 0x73
    }
    pub fn csrrw(rd: u32, c: u32, rs1: u32) -> u32 {
        csr(1, rd, c, rs1)
    }
    pub fn csrrs(rd: u32, c: u32, rs1: u32) -> u32 {
        csr(2, rd, c, rs1)
    }
    pub fn csrrc(rd: u32, c: u32, rs1: u32) -> u32 {
        csr(3, rd, c, rs1)
    }
    pub fn csrrwi(rd: u32, c: u32, uimm: u32) -> u32 {
        csr(5, rd, c, uimm)
    }
    pub fn csrrsi(rd: u32, c: u32, uimm: u32) -> u32 {
        csr(6, rd, c, uimm)
    }
    pub fn csrrci(rd: u32, c: u32, uimm: u32) -> u32 {
        csr(7, rd, c, uimm)
    }
    pub fn csrr(rd: u32, c: u32) -> u32 {
        csrrs(rd, c, 0)
    }
    pub fn csrw(c: u32, rs1: u32) -> u32 {
        csrrw(0, c, rs1)
    }
    pub fn csrs(c: u32, rs1: u32) -> u32 {
        csrrs(0, c, rs1)
    }
    pub fn csrc(c: u32, rs1: u32) -> u32 {
        csrrc(0, c, rs1)
    }
    pub fn nop() -> u32 {
        addi(0, 0, 0)
    }
    /// `lui`+`addi` pair loading any 32-bit constant.
    pub fn li(rd: u32, v: u32) -> [u32; 2] {
        let lo = ((v & 0xfff) as i32) << 20 >> 20;
        let hi = v.wrapping_sub(lo as u32) >> 12;
        [lui(rd, hi), addi(rd, rd, lo)]
    }
}

// ---------------------------------------------------------------------------------------------
// Compressed encoder (RISC-V unprivileged spec, chapter "C" Standard Extension, RV32C).
// Register arguments named with a `p` suffix are full register numbers 8..15.

pub mod cenc {
    fn b(v: u32, hi: u32, lo: u32) -> u32 {
        (v >> lo) & ((1 << (hi - lo + 1)) - 1)
    }
    fn p(r: u32) -> u32 {
        assert!((8..16).contains(&r), "x{r} is not a compressed register");
        r - 8
    }
    fn h(v: u32) -> u16 {
        assert!(v < 0x10000 && v & 3 != 3);
        v as u16
    }
    /// CI format: funct3, bit 12, rd/rs1 [11:7], bits [6:2], op.
    fn ci(f3: u32, b12: u32, rd: u32, lo5: u32, op: u32) -> u16 {
        assert!(rd < 32 && b12 < 2 && lo5 < 32);
        h(f3 << 13 | b12 << 12 | rd << 7 | lo5 << 2 | op)
    }
    fn imm6(imm: i32) -> (u32, u32) {
        assert!((-32..32).contains(&imm), "6-bit immediate {imm}");
        let u = imm as u32;
        (b(u, 5, 5), b(u, 4, 0))
    }

    pub fn addi4spn(rdp: u32, nzuimm: u32) -> u16 {
        assert!(nzuimm < 1024 && nzuimm.is_multiple_of(4));
        h(b(nzuimm, 5, 4) << 11
            | b(nzuimm, 9, 6) << 7
            | b(nzuimm, 2, 2) << 6
            | b(nzuimm, 3, 3) << 5
            | p(rdp) << 2)
    }
    pub fn lw(rdp: u32, rs1p: u32, uimm: u32) -> u16 {
        assert!(uimm < 128 && uimm.is_multiple_of(4));
        h(2 << 13
            | b(uimm, 5, 3) << 10
            | p(rs1p) << 7
            | b(uimm, 2, 2) << 6
            | b(uimm, 6, 6) << 5
            | p(rdp) << 2)
    }
    pub fn sw(rs2p: u32, rs1p: u32, uimm: u32) -> u16 {
        assert!(uimm < 128 && uimm.is_multiple_of(4));
        h(6 << 13
            | b(uimm, 5, 3) << 10
            | p(rs1p) << 7
            | b(uimm, 2, 2) << 6
            | b(uimm, 6, 6) << 5
            | p(rs2p) << 2)
    }
    pub fn nop() -> u16 {
        0x0001
    }
    pub fn addi(rd: u32, imm: i32) -> u16 {
        let (hi, lo) = imm6(imm);
        ci(0, hi, rd, lo, 1)
    }
    fn cj(f3: u32, off: i32) -> u16 {
        assert!(
            (-2048..2048).contains(&off) && off % 2 == 0,
            "c.j offset {off}"
        );
        let o = off as u32;
        // [12|11|10:9|8|7|6|5:3|2] = off[11|4|9:8|10|6|7|3:1|5]
        h(f3 << 13
            | b(o, 11, 11) << 12
            | b(o, 4, 4) << 11
            | b(o, 9, 8) << 9
            | b(o, 10, 10) << 8
            | b(o, 6, 6) << 7
            | b(o, 7, 7) << 6
            | b(o, 3, 1) << 3
            | b(o, 5, 5) << 2
            | 1)
    }
    pub fn jal(off: i32) -> u16 {
        cj(1, off)
    }
    pub fn j(off: i32) -> u16 {
        cj(5, off)
    }
    pub fn li(rd: u32, imm: i32) -> u16 {
        let (hi, lo) = imm6(imm);
        ci(2, hi, rd, lo, 1)
    }
    pub fn addi16sp(imm: i32) -> u16 {
        assert!((-512..512).contains(&imm) && imm % 16 == 0);
        let u = imm as u32;
        // [12] = imm[9], [6:2] = imm[4|6|8:7|5]
        h(3 << 13
            | b(u, 9, 9) << 12
            | 2 << 7
            | b(u, 4, 4) << 6
            | b(u, 6, 6) << 5
            | b(u, 8, 7) << 3
            | b(u, 5, 5) << 2
            | 1)
    }
    /// `c.lui rd, imm6` — rd = sext(imm6) << 12.
    pub fn lui(rd: u32, imm6: i32) -> u16 {
        let (hi, lo) = imm6_(imm6);
        ci(3, hi, rd, lo, 1)
    }
    fn imm6_(imm: i32) -> (u32, u32) {
        imm6(imm)
    }
    pub fn srli(rdp: u32, sh: u32) -> u16 {
        assert!(sh < 64);
        h(4 << 13 | b(sh, 5, 5) << 12 | p(rdp) << 7 | b(sh, 4, 0) << 2 | 1)
    }
    pub fn srai(rdp: u32, sh: u32) -> u16 {
        assert!(sh < 64);
        h(4 << 13 | b(sh, 5, 5) << 12 | 1 << 10 | p(rdp) << 7 | b(sh, 4, 0) << 2 | 1)
    }
    pub fn andi(rdp: u32, imm: i32) -> u16 {
        let (hi, lo) = imm6(imm);
        h(4 << 13 | hi << 12 | 2 << 10 | p(rdp) << 7 | lo << 2 | 1)
    }
    fn ca(f2: u32, rdp: u32, rs2p: u32) -> u16 {
        h(0b100011 << 10 | p(rdp) << 7 | f2 << 5 | p(rs2p) << 2 | 1)
    }
    pub fn sub(rdp: u32, rs2p: u32) -> u16 {
        ca(0, rdp, rs2p)
    }
    pub fn xor(rdp: u32, rs2p: u32) -> u16 {
        ca(1, rdp, rs2p)
    }
    pub fn or(rdp: u32, rs2p: u32) -> u16 {
        ca(2, rdp, rs2p)
    }
    pub fn and(rdp: u32, rs2p: u32) -> u16 {
        ca(3, rdp, rs2p)
    }
    fn cb(f3: u32, rs1p: u32, off: i32) -> u16 {
        assert!(
            (-256..256).contains(&off) && off % 2 == 0,
            "c.b offset {off}"
        );
        let o = off as u32;
        // [12|11:10] = off[8|4:3], [6:5|4:3|2] = off[7:6|2:1|5]
        h(f3 << 13
            | b(o, 8, 8) << 12
            | b(o, 4, 3) << 10
            | p(rs1p) << 7
            | b(o, 7, 6) << 5
            | b(o, 2, 1) << 3
            | b(o, 5, 5) << 2
            | 1)
    }
    pub fn beqz(rs1p: u32, off: i32) -> u16 {
        cb(6, rs1p, off)
    }
    pub fn bnez(rs1p: u32, off: i32) -> u16 {
        cb(7, rs1p, off)
    }
    pub fn slli(rd: u32, sh: u32) -> u16 {
        assert!(sh < 64);
        ci(0, b(sh, 5, 5), rd, b(sh, 4, 0), 2)
    }
    pub fn lwsp(rd: u32, uimm: u32) -> u16 {
        assert!(uimm < 256 && uimm.is_multiple_of(4));
        // [12] = uimm[5], [6:2] = uimm[4:2|7:6]
        ci(2, b(uimm, 5, 5), rd, b(uimm, 4, 2) << 2 | b(uimm, 7, 6), 2)
    }
    pub fn jr(rs1: u32) -> u16 {
        ci(4, 0, rs1, 0, 2)
    }
    pub fn mv(rd: u32, rs2: u32) -> u16 {
        ci(4, 0, rd, rs2, 2)
    }
    pub fn ebreak() -> u16 {
        ci(4, 1, 0, 0, 2)
    }
    pub fn jalr(rs1: u32) -> u16 {
        ci(4, 1, rs1, 0, 2)
    }
    pub fn add(rd: u32, rs2: u32) -> u16 {
        ci(4, 1, rd, rs2, 2)
    }
    pub fn swsp(rs2: u32, uimm: u32) -> u16 {
        assert!(uimm < 256 && uimm.is_multiple_of(4) && rs2 < 32);
        // [12:7] = uimm[5:2|7:6]
        h(6 << 13 | b(uimm, 5, 2) << 9 | b(uimm, 7, 6) << 7 | rs2 << 2 | 2)
    }
}

// ---------------------------------------------------------------------------------------------
// Assembler: a RAM image with a cursor and labels.

#[derive(Clone, Copy)]
enum Fix {
    /// 32-bit branch with this funct3 and registers.
    B {
        f3: u32,
        rs1: u32,
        rs2: u32,
    },
    Jal {
        rd: u32,
    },
    CJ {
        link: bool,
    },
    CB {
        bnez: bool,
        rs1p: u32,
    },
    /// lui+addi of the label's address.
    La {
        rd: u32,
    },
}

pub struct Asm {
    pub image: Vec<u8>,
    pub pc: u32,
    labels: HashMap<String, u32>,
    fixups: Vec<(u32, String, Fix)>,
}

impl Default for Asm {
    fn default() -> Self {
        Self::new()
    }
}

impl Asm {
    /// An empty RAM image, cursor at the reset PC.
    pub fn new() -> Asm {
        Asm {
            image: vec![0; RAM_LEN as usize],
            pc: RESET_PC,
            labels: HashMap::new(),
            fixups: Vec::new(),
        }
    }
    /// Move the cursor.
    pub fn at(&mut self, addr: u32) -> &mut Self {
        self.pc = addr;
        self
    }
    pub fn here(&self) -> u32 {
        self.pc
    }
    pub fn label(&mut self, name: &str) -> &mut Self {
        assert!(
            self.labels.insert(name.to_string(), self.pc).is_none(),
            "label {name} twice"
        );
        self
    }
    pub fn addr(&self, name: &str) -> u32 {
        *self
            .labels
            .get(name)
            .unwrap_or_else(|| panic!("no label {name}"))
    }
    fn put(&mut self, bytes: &[u8]) {
        let o = (self.pc - RAM_BASE) as usize;
        self.image[o..o + bytes.len()].copy_from_slice(bytes);
        self.pc += bytes.len() as u32;
    }
    /// Emit a 32-bit instruction.
    pub fn i(&mut self, w: u32) -> &mut Self {
        assert!(w & 3 == 3, "{w:#x} is not a 32-bit instruction");
        self.put(&w.to_le_bytes());
        self
    }
    /// Emit raw 32 bits (data or an illegal instruction).
    pub fn word(&mut self, w: u32) -> &mut Self {
        self.put(&w.to_le_bytes());
        self
    }
    /// Emit a 16-bit instruction.
    pub fn c(&mut self, h: u16) -> &mut Self {
        self.put(&h.to_le_bytes());
        self
    }
    pub fn li(&mut self, rd: u32, v: u32) -> &mut Self {
        for w in enc::li(rd, v) {
            self.i(w);
        }
        self
    }
    pub fn nop(&mut self) -> &mut Self {
        self.i(enc::nop())
    }
    /// Pad with c.nop until the cursor is 4-aligned.
    pub fn align4(&mut self) -> &mut Self {
        if !self.pc.is_multiple_of(4) {
            self.c(cenc::nop());
        }
        self
    }
    /// Pad with c.nop until the cursor is at 2 mod 4.
    pub fn align_2m4(&mut self) -> &mut Self {
        if self.pc % 4 != 2 {
            self.c(cenc::nop());
        }
        self
    }
    fn fix(&mut self, target: &str, f: Fix, size: u32) -> &mut Self {
        self.fixups.push((self.pc, target.to_string(), f));
        self.pc += size;
        self
    }
    pub fn b_to(&mut self, f3: u32, rs1: u32, rs2: u32, target: &str) -> &mut Self {
        self.fix(target, Fix::B { f3, rs1, rs2 }, 4)
    }
    pub fn beq_to(&mut self, rs1: u32, rs2: u32, t: &str) -> &mut Self {
        self.b_to(0, rs1, rs2, t)
    }
    pub fn bne_to(&mut self, rs1: u32, rs2: u32, t: &str) -> &mut Self {
        self.b_to(1, rs1, rs2, t)
    }
    pub fn jal_to(&mut self, rd: u32, t: &str) -> &mut Self {
        self.fix(t, Fix::Jal { rd }, 4)
    }
    pub fn j_to(&mut self, t: &str) -> &mut Self {
        self.jal_to(0, t)
    }
    pub fn c_j_to(&mut self, t: &str) -> &mut Self {
        self.fix(t, Fix::CJ { link: false }, 2)
    }
    pub fn c_jal_to(&mut self, t: &str) -> &mut Self {
        self.fix(t, Fix::CJ { link: true }, 2)
    }
    pub fn c_beqz_to(&mut self, rs1p: u32, t: &str) -> &mut Self {
        self.fix(t, Fix::CB { bnez: false, rs1p }, 2)
    }
    pub fn c_bnez_to(&mut self, rs1p: u32, t: &str) -> &mut Self {
        self.fix(t, Fix::CB { bnez: true, rs1p }, 2)
    }
    /// Load the address of a label (resolved at `finish`) with lui+addi.
    pub fn la(&mut self, rd: u32, t: &str) -> &mut Self {
        self.fix(t, Fix::La { rd }, 8)
    }
    /// The end marker: `jal x0, 0` (a self-loop), labelled "end".
    pub fn end(&mut self) -> &mut Self {
        self.label("end");
        self.i(enc::jal(0, 0))
    }

    /// Resolve the label references and return the RAM image.
    pub fn finish(&self) -> Vec<u8> {
        let mut img = self.image.clone();
        for (at, name, f) in &self.fixups {
            let target = self.addr(name);
            let off = target.wrapping_sub(*at) as i32;
            let o = (*at - RAM_BASE) as usize;
            match *f {
                Fix::B { f3, rs1, rs2 } => {
                    img[o..o + 4].copy_from_slice(&enc::branch(f3, rs1, rs2, off).to_le_bytes())
                }
                Fix::La { rd } => {
                    let [a, b] = enc::li(rd, target);
                    img[o..o + 4].copy_from_slice(&a.to_le_bytes());
                    img[o + 4..o + 8].copy_from_slice(&b.to_le_bytes());
                }
                Fix::Jal { rd } => img[o..o + 4].copy_from_slice(&enc::jal(rd, off).to_le_bytes()),
                Fix::CJ { link } => {
                    let h = if link { cenc::jal(off) } else { cenc::j(off) };
                    img[o..o + 2].copy_from_slice(&h.to_le_bytes())
                }
                Fix::CB { bnez, rs1p } => {
                    let h = if bnez {
                        cenc::bnez(rs1p, off)
                    } else {
                        cenc::beqz(rs1p, off)
                    };
                    img[o..o + 2].copy_from_slice(&h.to_le_bytes())
                }
            }
        }
        img
    }
}

// ---------------------------------------------------------------------------------------------
// Runner

pub struct Sim {
    pub hart: Hart,
    pub bus: TestBus,
    pub labels: HashMap<String, u32>,
}

/// Steps allowed before a test is declared hung.
pub const MAX_STEPS: u64 = 2_000_000;

impl Sim {
    pub fn new(a: &Asm) -> Sim {
        let mut bus = TestBus::new();
        bus.ram = a.finish();
        Sim {
            hart: Hart::new(RAM_BASE, RAM_LEN, RAM_BASE),
            bus,
            labels: a.labels.clone(),
        }
    }
    pub fn addr(&self, name: &str) -> u32 {
        *self
            .labels
            .get(name)
            .unwrap_or_else(|| panic!("no label {name}"))
    }
    /// One `run` call with a 1-cycle budget: takes a pending interrupt if any (entering the
    /// handler), then executes exactly one instruction (or raises its exception).
    pub fn step(&mut self) -> Exit {
        self.hart.limit = self.hart.cycle + 1;
        self.hart.run(&mut self.bus)
    }
    /// Step until the PC equals `addr` (checked before each step). Panics on any exit but Limit.
    pub fn run_to(&mut self, addr: u32) {
        for _ in 0..MAX_STEPS {
            if self.hart.pc == addr {
                return;
            }
            let e = self.step();
            assert_eq!(e, Exit::Limit, "unexpected exit at pc {:#x}", self.hart.pc);
        }
        panic!("pc {addr:#x} not reached; pc = {:#x}", self.hart.pc);
    }
    pub fn run_to_label(&mut self, name: &str) {
        let a = self.addr(name);
        self.run_to(a)
    }
    /// Run to the "end" label.
    pub fn run(&mut self) -> &mut Self {
        self.run_to_label("end");
        self
    }
    /// Run freely (no stepping) until `limit` or another exit.
    pub fn run_free(&mut self, limit: u64) -> Exit {
        self.hart.limit = limit;
        self.hart.run(&mut self.bus)
    }
    pub fn x(&self, r: u32) -> u32 {
        self.hart.x[r as usize]
    }
    pub fn mcause(&self) -> u32 {
        self.hart.csr.mcause
    }
    pub fn mepc(&self) -> u32 {
        self.hart.csr.mepc
    }
    pub fn mtval(&self) -> u32 {
        self.hart.csr.mtval
    }
}

/// Assemble, load and run a program to its "end" label.
pub fn run(a: &Asm) -> Sim {
    let mut s = Sim::new(a);
    s.run();
    s
}

/// A program that runs `body` and then ends. The trap vector (mtvec base) holds a
/// `jal x0, 0` labelled "trap", so a trap can be detected with `run_trap`.
pub fn prog(body: impl FnOnce(&mut Asm)) -> Asm {
    let mut a = Asm::new();
    a.at(TRAP_BASE).label("trap").i(enc::jal(0, 0));
    a.at(RESET_PC);
    body(&mut a);
    a.end();
    a
}

/// Run until either "end" or "trap" is reached; returns true if it trapped.
pub fn run_until_end_or_trap(s: &mut Sim) -> bool {
    let end = s.addr("end");
    let trap = s.addr("trap");
    for _ in 0..MAX_STEPS {
        if s.hart.pc == end {
            return false;
        }
        if s.hart.pc == trap {
            return true;
        }
        let e = s.step();
        assert_eq!(e, Exit::Limit, "unexpected exit at pc {:#x}", s.hart.pc);
    }
    panic!("neither end nor trap reached");
}

/// A tiny deterministic PRNG (xorshift) for randomized operands.
pub struct Rng(pub u64);
impl Rng {
    pub fn next(&mut self) -> u32 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        (x >> 16) as u32
    }
}

/// Interesting 32-bit operand values.
pub const EDGE: &[u32] = &[
    0,
    1,
    2,
    3,
    5,
    7,
    31,
    32,
    0x7f,
    0x80,
    0xff,
    0x7fff,
    0x8000,
    0xffff,
    0x1_0000,
    0x7fff_ffff,
    0x8000_0000,
    0x8000_0001,
    0xffff_fffe,
    0xffff_ffff,
    0x1234_5678,
    0xdead_beef,
    0xaaaa_aaaa,
    0x5555_5555,
];

/// Evaluate a register-register instruction on many operand pairs: for each pair the program
/// loads a0/a1, executes `make(a2, a0, a1)` and stores a2 to DATA + 4k. Returns the results.
pub fn eval_rr(make: impl Fn(u32, u32, u32) -> u32, pairs: &[(u32, u32)]) -> Vec<u32> {
    let mut out = Vec::new();
    for chunk in pairs.chunks(400) {
        let a = prog(|a| {
            a.li(S0, DATA);
            for (k, &(x, y)) in chunk.iter().enumerate() {
                a.li(A0, x).li(A1, y).i(make(A2, A0, A1));
                a.li(T0, DATA + 4 * k as u32).i(enc::sw(A2, T0, 0));
            }
        });
        let s = run(&a);
        out.extend((0..chunk.len()).map(|k| s.bus.r32(DATA + 4 * k as u32)));
    }
    out
}

/// All pairs of EDGE values plus some random ones.
pub fn operand_pairs(seed: u64, random: usize) -> Vec<(u32, u32)> {
    let mut v = Vec::new();
    for &x in EDGE {
        for &y in EDGE {
            v.push((x, y));
        }
    }
    let mut r = Rng(seed);
    for _ in 0..random {
        v.push((r.next() ^ r.next() << 16, r.next() ^ r.next() << 16));
    }
    v
}
