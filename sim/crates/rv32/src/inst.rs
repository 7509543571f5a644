//! The decoded form of one instruction: what the 32-bit and the compressed decoders both
//! produce. Everything downstream works from it and from nothing else: the decode cache
//! (`icache::Slot`, its 8-byte copy) from which the hart executes (`execute`) and charges
//! cycles (`timing`), the observers' flags (`Observer::flags` gets its op, rd and static
//! target), the observer crate's code map, and the disassembler of `--itrace` (`disasm`).

/// Every operation of RV32IMC + Zicsr + the machine-mode system instructions.
/// Compressed instructions decode to the base operation they expand to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Op {
    Lui,
    Auipc,
    Jal,
    Jalr,
    Beq,
    Bne,
    Blt,
    Bge,
    Bltu,
    Bgeu,
    Lb,
    Lh,
    Lw,
    Lbu,
    Lhu,
    Sb,
    Sh,
    Sw,
    Addi,
    Slti,
    Sltiu,
    Xori,
    Ori,
    Andi,
    Slli,
    Srli,
    Srai,
    Add,
    Sub,
    Sll,
    Slt,
    Sltu,
    Xor,
    Srl,
    Sra,
    Or,
    And,
    Mul,
    Mulh,
    Mulhsu,
    Mulhu,
    Div,
    Divu,
    Rem,
    Remu,
    Fence,
    FenceI,
    Ecall,
    Ebreak,
    Mret,
    Wfi,
    Csrrw,
    Csrrs,
    Csrrc,
    Csrrwi,
    Csrrsi,
    Csrrci,
    /// dret: illegal outside debug mode (which Ubik never enters), but unlike other illegal
    /// instructions Ibex counts it as retired.
    Dret,
    /// Not a legal instruction on this core: executing it raises illegal-instruction.
    Illegal,
    /// A cache slot not decoded yet (never produced by the decoders).
    Undecoded,
}

/// One decoded instruction. `imm` holds the sign-extended immediate; for CSR instructions
/// it holds the CSR address and `rs1` the register or the 5-bit immediate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Inst {
    pub op: Op,
    pub rd: u8,
    pub rs1: u8,
    pub rs2: u8,
    /// 2 for a compressed instruction, 4 otherwise.
    pub len: u8,
    pub imm: i32,
    /// The instruction bits as fetched (16 bits for compressed), for `mtval`.
    pub raw: u32,
}

impl Inst {
    pub const UNDECODED: Inst = Inst {
        op: Op::Undecoded,
        rd: 0,
        rs1: 0,
        rs2: 0,
        len: 0,
        imm: 0,
        raw: 0,
    };

    pub fn illegal(raw: u32, len: u8) -> Inst {
        Inst {
            op: Op::Illegal,
            rd: 0,
            rs1: 0,
            rs2: 0,
            len,
            imm: 0,
            raw,
        }
    }

    /// The target of a jal or conditional branch at `pc` (None for any other instruction).
    pub fn static_target(&self, pc: u32) -> Option<u32> {
        match self.op {
            Op::Jal | Op::Beq | Op::Bne | Op::Blt | Op::Bge | Op::Bltu | Op::Bgeu => {
                Some(pc.wrapping_add(self.imm as u32))
            }
            _ => None,
        }
    }
}

/// Decode an instruction from its first halfword and (for 32-bit instructions) the next one.
pub fn decode(lo: u16, hi: u16) -> Inst {
    if lo & 3 == 3 {
        crate::decode32::decode32(lo as u32 | (hi as u32) << 16)
    } else {
        crate::compressed::decode16(lo)
    }
}
