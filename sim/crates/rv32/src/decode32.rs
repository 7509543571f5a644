//! Decoding of 32-bit instructions, with the legality rules of Ibex's decoder
//! (RV32IM + Zicsr, no B, no F; reserved encodings are illegal).

use crate::inst::{Inst, Op};

fn rd(w: u32) -> u8 {
    ((w >> 7) & 31) as u8
}
fn rs1(w: u32) -> u8 {
    ((w >> 15) & 31) as u8
}
fn rs2(w: u32) -> u8 {
    ((w >> 20) & 31) as u8
}
fn imm_i(w: u32) -> i32 {
    (w as i32) >> 20
}
fn imm_s(w: u32) -> i32 {
    (((w & 0xfe00_0000) as i32) >> 20) | ((w >> 7) & 0x1f) as i32
}
fn imm_b(w: u32) -> i32 {
    (((w & 0x8000_0000) as i32) >> 19)
        | ((w & 0x80) << 4) as i32
        | ((w >> 20) & 0x7e0) as i32
        | ((w >> 7) & 0x1e) as i32
}
fn imm_u(w: u32) -> i32 {
    (w & 0xffff_f000) as i32
}
fn imm_j(w: u32) -> i32 {
    (((w & 0x8000_0000) as i32) >> 11)
        | (w & 0xf_f000) as i32
        | ((w >> 9) & 0x800) as i32
        | ((w >> 20) & 0x7fe) as i32
}

fn mk(op: Op, w: u32, rd: u8, rs1: u8, rs2: u8, imm: i32) -> Inst {
    Inst {
        op,
        rd,
        rs1,
        rs2,
        len: 4,
        imm,
        raw: w,
    }
}

pub fn decode32(w: u32) -> Inst {
    let ill = Inst::illegal(w, 4);
    let f3 = (w >> 12) & 7;
    let f7 = w >> 25;
    match w & 0x7f {
        0x37 => mk(Op::Lui, w, rd(w), 0, 0, imm_u(w)),
        0x17 => mk(Op::Auipc, w, rd(w), 0, 0, imm_u(w)),
        0x6f => mk(Op::Jal, w, rd(w), 0, 0, imm_j(w)),
        0x67 if f3 == 0 => mk(Op::Jalr, w, rd(w), rs1(w), 0, imm_i(w)),
        0x63 => {
            let op = match f3 {
                0 => Op::Beq,
                1 => Op::Bne,
                4 => Op::Blt,
                5 => Op::Bge,
                6 => Op::Bltu,
                7 => Op::Bgeu,
                _ => return ill,
            };
            mk(op, w, 0, rs1(w), rs2(w), imm_b(w))
        }
        0x03 => {
            let op = match f3 {
                0 => Op::Lb,
                1 => Op::Lh,
                2 => Op::Lw,
                4 => Op::Lbu,
                5 => Op::Lhu,
                _ => return ill,
            };
            mk(op, w, rd(w), rs1(w), 0, imm_i(w))
        }
        0x23 => {
            let op = match f3 {
                0 => Op::Sb,
                1 => Op::Sh,
                2 => Op::Sw,
                _ => return ill,
            };
            mk(op, w, 0, rs1(w), rs2(w), imm_s(w))
        }
        0x13 => {
            let shamt = ((w >> 20) & 31) as i32;
            let op = match f3 {
                0 => Op::Addi,
                2 => Op::Slti,
                3 => Op::Sltiu,
                4 => Op::Xori,
                6 => Op::Ori,
                7 => Op::Andi,
                1 if f7 == 0 => return mk(Op::Slli, w, rd(w), rs1(w), 0, shamt),
                5 if f7 == 0 => return mk(Op::Srli, w, rd(w), rs1(w), 0, shamt),
                5 if f7 == 0x20 => return mk(Op::Srai, w, rd(w), rs1(w), 0, shamt),
                _ => return ill,
            };
            mk(op, w, rd(w), rs1(w), 0, imm_i(w))
        }
        0x33 => {
            let op = match (f7, f3) {
                (0, 0) => Op::Add,
                (0x20, 0) => Op::Sub,
                (0, 1) => Op::Sll,
                (0, 2) => Op::Slt,
                (0, 3) => Op::Sltu,
                (0, 4) => Op::Xor,
                (0, 5) => Op::Srl,
                (0x20, 5) => Op::Sra,
                (0, 6) => Op::Or,
                (0, 7) => Op::And,
                (1, 0) => Op::Mul,
                (1, 1) => Op::Mulh,
                (1, 2) => Op::Mulhsu,
                (1, 3) => Op::Mulhu,
                (1, 4) => Op::Div,
                (1, 5) => Op::Divu,
                (1, 6) => Op::Rem,
                (1, 7) => Op::Remu,
                _ => return ill,
            };
            mk(op, w, rd(w), rs1(w), rs2(w), 0)
        }
        // Ibex ignores the fence's predecessor/successor fields and registers.
        0x0f => match f3 {
            0 => mk(Op::Fence, w, 0, 0, 0, 0),
            1 => mk(Op::FenceI, w, 0, 0, 0, 0),
            _ => ill,
        },
        0x73 => {
            let csr = ((w >> 20) & 0xfff) as i32;
            match f3 {
                0 => {
                    if (w >> 7) & 0x1fff != 0 {
                        // rd and rs1 must be zero for the privileged instructions
                        return ill;
                    }
                    match w >> 20 {
                        0x000 => mk(Op::Ecall, w, 0, 0, 0, 0),
                        0x001 => mk(Op::Ebreak, w, 0, 0, 0, 0),
                        0x302 => mk(Op::Mret, w, 0, 0, 0, 0),
                        0x105 => mk(Op::Wfi, w, 0, 0, 0, 0),
                        0x7b2 => mk(Op::Dret, w, 0, 0, 0, 0),
                        _ => ill,
                    }
                }
                1 => mk(Op::Csrrw, w, rd(w), rs1(w), 0, csr),
                2 => mk(Op::Csrrs, w, rd(w), rs1(w), 0, csr),
                3 => mk(Op::Csrrc, w, rd(w), rs1(w), 0, csr),
                5 => mk(Op::Csrrwi, w, rd(w), rs1(w), 0, csr),
                6 => mk(Op::Csrrsi, w, rd(w), rs1(w), 0, csr),
                7 => mk(Op::Csrrci, w, rd(w), rs1(w), 0, csr),
                _ => ill,
            }
        }
        _ => ill,
    }
}
