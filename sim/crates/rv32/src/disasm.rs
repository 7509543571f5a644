//! A disassembler for `--itrace`: the assembler's canonical form of a decoded instruction
//! (ABI register names, branch and jump targets as absolute addresses, CSRs by name).
//! Compressed instructions show as the base instruction they expand to; the raw bits beside
//! them tell the two apart.

use crate::csr;
use crate::inst::{Inst, Op};

const REGS: [&str; 32] = [
    "zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0", "a1", "a2", "a3", "a4",
    "a5", "a6", "a7", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "t3", "t4",
    "t5", "t6",
];

fn reg(r: u8) -> &'static str {
    REGS[(r & 31) as usize]
}

fn csr_name(addr: u16) -> String {
    let name = match addr {
        csr::MSTATUS => "mstatus",
        csr::MISA => "misa",
        csr::MIE => "mie",
        csr::MTVEC => "mtvec",
        csr::MCOUNTEREN => "mcounteren",
        csr::MCOUNTINHIBIT => "mcountinhibit",
        csr::MSCRATCH => "mscratch",
        csr::MEPC => "mepc",
        csr::MCAUSE => "mcause",
        csr::MTVAL => "mtval",
        csr::MIP => "mip",
        csr::MCYCLE => "mcycle",
        csr::MINSTRET => "minstret",
        csr::MCYCLEH => "mcycleh",
        csr::MINSTRETH => "minstreth",
        csr::MHARTID => "mhartid",
        0xc00 => "cycle",
        0xc02 => "instret",
        0xc80 => "cycleh",
        0xc82 => "instreth",
        _ => return format!("0x{addr:03x}"),
    };
    name.into()
}

/// The mnemonic of `op` (lower case, as the assembler writes it).
pub fn mnemonic(op: Op) -> String {
    match op {
        Op::FenceI => "fence.i".into(),
        Op::Illegal => "(illegal)".into(),
        Op::Undecoded => "(undecoded)".into(),
        o => format!("{o:?}").to_lowercase(),
    }
}

/// `inst`, at `pc`, as the assembler would write it.
pub fn disasm(inst: &Inst, pc: u32) -> String {
    let m = mnemonic(inst.op);
    let (rd, rs1, rs2, imm) = (reg(inst.rd), reg(inst.rs1), reg(inst.rs2), inst.imm);
    let target = pc.wrapping_add(imm as u32);
    use Op::*;
    match inst.op {
        Lui | Auipc => format!("{m} {rd}, 0x{:x}", (imm as u32) >> 12),
        Jal => format!("{m} {rd}, 0x{target:x}"),
        Jalr => format!("{m} {rd}, {imm}({rs1})"),
        Beq | Bne | Blt | Bge | Bltu | Bgeu => format!("{m} {rs1}, {rs2}, 0x{target:x}"),
        Lb | Lh | Lw | Lbu | Lhu => format!("{m} {rd}, {imm}({rs1})"),
        Sb | Sh | Sw => format!("{m} {rs2}, {imm}({rs1})"),
        Slli | Srli | Srai => format!("{m} {rd}, {rs1}, {}", imm & 31),
        Addi | Slti | Sltiu | Xori | Ori | Andi => format!("{m} {rd}, {rs1}, {imm}"),
        Add | Sub | Sll | Slt | Sltu | Xor | Srl | Sra | Or | And | Mul | Mulh | Mulhsu | Mulhu
        | Div | Divu | Rem | Remu => format!("{m} {rd}, {rs1}, {rs2}"),
        Csrrw | Csrrs | Csrrc => format!("{m} {rd}, {}, {rs1}", csr_name(imm as u16)),
        Csrrwi | Csrrsi | Csrrci => format!("{m} {rd}, {}, {}", csr_name(imm as u16), inst.rs1),
        Fence | FenceI | Ecall | Ebreak | Mret | Wfi | Dret | Illegal | Undecoded => m,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inst::decode;

    fn dis32(w: u32, pc: u32) -> String {
        disasm(&decode(w as u16, (w >> 16) as u16), pc)
    }

    #[test]
    fn canonical_forms() {
        assert_eq!(dis32(0x0000_0297, 0x100), "auipc t0, 0x0");
        assert_eq!(dis32(0x1234_50b7, 0), "lui ra, 0x12345");
        assert_eq!(dis32(0xff01_0113, 0), "addi sp, sp, -16");
        assert_eq!(dis32(0x0081_2623, 0), "sw s0, 12(sp)");
        assert_eq!(dis32(0x00c1_2403, 0), "lw s0, 12(sp)");
        assert_eq!(dis32(0xfe05_1ee3, 0x200), "bne a0, zero, 0x1fc");
        assert_eq!(dis32(0x0080_00ef, 0x1000), "jal ra, 0x1008");
        assert_eq!(dis32(0x0000_8067, 0), "jalr zero, 0(ra)");
        assert_eq!(dis32(0x02b5_0533, 0), "mul a0, a0, a1");
        assert_eq!(dis32(0x4015_5513, 0), "srai a0, a0, 1");
        assert_eq!(dis32(0x3420_2573, 0), "csrrs a0, mcause, zero");
        assert_eq!(dis32(0x3004_6073, 0), "csrrsi zero, mstatus, 8");
        assert_eq!(dis32(0x3020_0073, 0), "mret");
        assert_eq!(dis32(0x1050_0073, 0), "wfi");
        assert_eq!(dis32(0x0000_0000, 0), "(illegal)");
    }

    #[test]
    fn compressed_shows_its_expansion() {
        assert_eq!(disasm(&decode(0x4501, 0), 0), "addi a0, zero, 0"); // c.li a0, 0
        assert_eq!(disasm(&decode(0x8082, 0), 0), "jalr zero, 0(ra)"); // c.ret
        assert_eq!(disasm(&decode(0xa001, 0), 0x40), "jal zero, 0x40"); // c.j .
    }
}
