//! RV32 as GDB sees this core: x0-x31 and pc in the `g` packet, the CSRs and the privilege
//! level as single registers, described by a target description (XML) so that GDB shows
//! `info registers csr` and `p $mstatus`. Register numbers follow GDB's RISC-V convention:
//! CSR n is 65 + n, the virtual `priv` register 65 + 4096.

use gdbstub::arch::{Arch, RegId, Registers};
use std::num::NonZeroUsize;
use std::sync::OnceLock;

/// GDB's number of the first CSR and of the `priv` register.
const CSR_BASE: usize = 65;
const PRIV_REG: usize = CSR_BASE + 4096;

/// The CSRs the target description lists: those this core implements that a user reads.
pub const CSRS: [(&str, u16); 20] = [
    ("mstatus", 0x300),
    ("misa", 0x301),
    ("mie", 0x304),
    ("mtvec", 0x305),
    ("mcounteren", 0x306),
    ("mcountinhibit", 0x320),
    ("mscratch", 0x340),
    ("mepc", 0x341),
    ("mcause", 0x342),
    ("mtval", 0x343),
    ("mip", 0x344),
    ("cpuctrlsts", 0x7c0),
    ("mcycle", 0xb00),
    ("minstret", 0xb02),
    ("mcycleh", 0xb80),
    ("minstreth", 0xb82),
    ("mvendorid", 0xf11),
    ("marchid", 0xf12),
    ("mimpid", 0xf13),
    ("mhartid", 0xf14),
];

const ABI_NAMES: [&str; 32] = [
    "zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "fp", "s1", "a0", "a1", "a2", "a3", "a4",
    "a5", "a6", "a7", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "t3", "t4",
    "t5", "t6",
];

pub enum Rv32 {}

/// What the `g` packet carries.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Regs {
    pub x: [u32; 32],
    pub pc: u32,
}

impl Registers for Regs {
    type ProgramCounter = u32;

    fn pc(&self) -> u32 {
        self.pc
    }

    fn gdb_serialize(&self, mut write_byte: impl FnMut(Option<u8>)) {
        for r in self.x.iter().chain(std::iter::once(&self.pc)) {
            r.to_le_bytes()
                .into_iter()
                .for_each(|b| write_byte(Some(b)));
        }
    }

    fn gdb_deserialize(&mut self, bytes: &[u8]) -> Result<(), ()> {
        if bytes.len() < 33 * 4 {
            return Err(());
        }
        let word = |i: usize| u32::from_le_bytes(bytes[4 * i..4 * i + 4].try_into().unwrap());
        for (i, r) in self.x.iter_mut().enumerate() {
            *r = word(i);
        }
        self.pc = word(32);
        Ok(())
    }
}

/// One register by GDB's number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reg {
    X(u8),
    Pc,
    Csr(u16),
    Priv,
}

impl RegId for Reg {
    fn from_raw_id(id: usize) -> Option<(Reg, Option<NonZeroUsize>)> {
        let reg = match id {
            0..=31 => Reg::X(id as u8),
            32 => Reg::Pc,
            PRIV_REG => Reg::Priv,
            n if (CSR_BASE..PRIV_REG).contains(&n) => Reg::Csr((n - CSR_BASE) as u16),
            _ => return None,
        };
        Some((reg, NonZeroUsize::new(4)))
    }
}

impl Arch for Rv32 {
    type Usize = u32;
    type Registers = Regs;
    /// 2 or 4: the size of the instruction a breakpoint replaces.
    type BreakpointKind = usize;
    type RegId = Reg;

    fn target_description_xml() -> Option<&'static str> {
        static XML: OnceLock<String> = OnceLock::new();
        Some(XML.get_or_init(target_xml))
    }
}

fn target_xml() -> String {
    let mut s = String::from(
        "<?xml version=\"1.0\"?>\n<!DOCTYPE target SYSTEM \"gdb-target.dtd\">\n\
         <target version=\"1.0\">\n<architecture>riscv:rv32</architecture>\n\
         <feature name=\"org.gnu.gdb.riscv.cpu\">\n",
    );
    for (i, name) in ABI_NAMES.iter().enumerate() {
        let ty = match i {
            1 => "code_ptr",
            2 | 8 => "data_ptr",
            _ => "int",
        };
        s += &format!("  <reg name=\"{name}\" bitsize=\"32\" type=\"{ty}\" regnum=\"{i}\"/>\n");
    }
    s += "  <reg name=\"pc\" bitsize=\"32\" type=\"code_ptr\" regnum=\"32\"/>\n</feature>\n";
    s += "<feature name=\"org.gnu.gdb.riscv.csr\">\n";
    for (name, n) in CSRS {
        let regnum = CSR_BASE + n as usize;
        s += &format!(
            "  <reg name=\"{name}\" bitsize=\"32\" type=\"int\" regnum=\"{regnum}\" group=\"csr\"/>\n"
        );
    }
    s += "</feature>\n<feature name=\"org.gnu.gdb.riscv.virtual\">\n";
    s += &format!("  <reg name=\"priv\" bitsize=\"32\" type=\"int\" regnum=\"{PRIV_REG}\"/>\n");
    s += "</feature>\n</target>\n";
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn register_numbers_follow_gdbs_riscv_convention() {
        assert_eq!(Reg::from_raw_id(2).unwrap().0, Reg::X(2));
        assert_eq!(Reg::from_raw_id(32).unwrap().0, Reg::Pc);
        assert_eq!(Reg::from_raw_id(65 + 0x300).unwrap().0, Reg::Csr(0x300));
        assert_eq!(Reg::from_raw_id(65 + 4096).unwrap().0, Reg::Priv);
        assert!(Reg::from_raw_id(33).is_none(), "no FPU");
    }

    #[test]
    fn the_description_lists_every_register_once() {
        let xml = Rv32::target_description_xml().unwrap();
        assert_eq!(xml.matches("<reg ").count(), 33 + CSRS.len() + 1);
        assert!(xml.contains("name=\"mstatus\" bitsize=\"32\" type=\"int\" regnum=\"833\""));
    }
}
