//! Decoding of 16-bit (C extension) instructions into the base operations they expand to,
//! with the legality rules of Ibex's compressed decoder in its plain-C configuration
//! (no Zcb, no Zcmp, no F: those encodings are illegal).

use crate::inst::{Inst, Op};

#[inline]
fn bit(h: u16, i: u32) -> u32 {
    ((h >> i) & 1) as u32
}
#[inline]
fn bits(h: u16, hi: u32, lo: u32) -> u32 {
    ((h as u32) >> lo) & ((1 << (hi - lo + 1)) - 1)
}
/// Sign-extend the low `n` bits of `v`.
#[inline]
fn sext(v: u32, n: u32) -> i32 {
    ((v << (32 - n)) as i32) >> (32 - n)
}
/// The 3-bit register fields of the compressed formats name x8..x15.
#[inline]
fn creg(v: u32) -> u8 {
    8 + v as u8
}

fn mk(op: Op, h: u16, rd: u8, rs1: u8, rs2: u8, imm: i32) -> Inst {
    Inst {
        op,
        rd,
        rs1,
        rs2,
        len: 2,
        imm,
        raw: h as u32,
    }
}

fn cj_offset(h: u16) -> i32 {
    let v = bit(h, 12) << 11
        | bit(h, 11) << 4
        | bits(h, 10, 9) << 8
        | bit(h, 8) << 10
        | bit(h, 7) << 6
        | bit(h, 6) << 7
        | bits(h, 5, 3) << 1
        | bit(h, 2) << 5;
    sext(v, 12)
}

fn cb_offset(h: u16) -> i32 {
    let v = bit(h, 12) << 8
        | bits(h, 11, 10) << 3
        | bits(h, 6, 5) << 6
        | bits(h, 4, 3) << 1
        | bit(h, 2) << 5;
    sext(v, 9)
}

/// The 6-bit signed immediate of CI-format instructions.
fn ci_imm(h: u16) -> i32 {
    sext(bit(h, 12) << 5 | bits(h, 6, 2), 6)
}

pub fn decode16(h: u16) -> Inst {
    let ill = Inst::illegal(h as u32, 2);
    let f3 = bits(h, 15, 13);
    let rd_full = bits(h, 11, 7) as u8;
    let rs2_full = bits(h, 6, 2) as u8;
    let rdp = creg(bits(h, 4, 2)); // rd' / rs2' at [4:2]
    let rs1p = creg(bits(h, 9, 7)); // rs1' / rd' at [9:7]
    match h & 3 {
        0 => match f3 {
            0 => {
                // c.addi4spn
                if bits(h, 12, 5) == 0 {
                    return ill;
                }
                let imm =
                    bits(h, 12, 11) << 4 | bits(h, 10, 7) << 6 | bit(h, 6) << 2 | bit(h, 5) << 3;
                mk(Op::Addi, h, rdp, 2, 0, imm as i32)
            }
            2 | 6 => {
                let imm = (bits(h, 12, 10) << 3 | bit(h, 6) << 2 | bit(h, 5) << 6) as i32;
                if f3 == 2 {
                    mk(Op::Lw, h, rdp, rs1p, 0, imm)
                } else {
                    mk(Op::Sw, h, 0, rs1p, rdp, imm)
                }
            }
            _ => ill,
        },
        1 => match f3 {
            0 => mk(Op::Addi, h, rd_full, rd_full, 0, ci_imm(h)),
            1 => mk(Op::Jal, h, 1, 0, 0, cj_offset(h)),
            2 => mk(Op::Addi, h, rd_full, 0, 0, ci_imm(h)),
            3 => {
                if bit(h, 12) == 0 && bits(h, 6, 2) == 0 {
                    return ill;
                }
                if rd_full == 2 {
                    let v = bit(h, 12) << 9
                        | bit(h, 6) << 4
                        | bit(h, 5) << 6
                        | bits(h, 4, 3) << 7
                        | bit(h, 2) << 5;
                    mk(Op::Addi, h, 2, 2, 0, sext(v, 10))
                } else {
                    mk(Op::Lui, h, rd_full, 0, 0, ci_imm(h) << 12)
                }
            }
            4 => match bits(h, 11, 10) {
                0 | 1 => {
                    if bit(h, 12) == 1 {
                        return ill;
                    }
                    let op = if bits(h, 11, 10) == 0 {
                        Op::Srli
                    } else {
                        Op::Srai
                    };
                    mk(op, h, rs1p, rs1p, 0, bits(h, 6, 2) as i32)
                }
                2 => mk(Op::Andi, h, rs1p, rs1p, 0, ci_imm(h)),
                _ => {
                    let op = match (bit(h, 12), bits(h, 6, 5)) {
                        (0, 0) => Op::Sub,
                        (0, 1) => Op::Xor,
                        (0, 2) => Op::Or,
                        (0, 3) => Op::And,
                        _ => return ill,
                    };
                    mk(op, h, rs1p, rs1p, rdp, 0)
                }
            },
            5 => mk(Op::Jal, h, 0, 0, 0, cj_offset(h)),
            6 => mk(Op::Beq, h, 0, rs1p, 0, cb_offset(h)),
            _ => mk(Op::Bne, h, 0, rs1p, 0, cb_offset(h)),
        },
        2 => match f3 {
            0 => {
                if bit(h, 12) == 1 {
                    return ill;
                }
                mk(Op::Slli, h, rd_full, rd_full, 0, bits(h, 6, 2) as i32)
            }
            2 => {
                if rd_full == 0 {
                    return ill;
                }
                let imm = bit(h, 12) << 5 | bits(h, 6, 4) << 2 | bits(h, 3, 2) << 6;
                mk(Op::Lw, h, rd_full, 2, 0, imm as i32)
            }
            4 => {
                if bit(h, 12) == 0 {
                    if rs2_full == 0 {
                        if rd_full == 0 {
                            return ill;
                        }
                        mk(Op::Jalr, h, 0, rd_full, 0, 0) // c.jr
                    } else {
                        mk(Op::Add, h, rd_full, 0, rs2_full, 0) // c.mv
                    }
                } else if rs2_full == 0 {
                    if rd_full == 0 {
                        mk(Op::Ebreak, h, 0, 0, 0, 0)
                    } else {
                        mk(Op::Jalr, h, 1, rd_full, 0, 0) // c.jalr
                    }
                } else {
                    mk(Op::Add, h, rd_full, rd_full, rs2_full, 0) // c.add
                }
            }
            6 => {
                let imm = bits(h, 12, 9) << 2 | bits(h, 8, 7) << 6;
                mk(Op::Sw, h, 0, 2, rs2_full, imm as i32)
            }
            _ => ill,
        },
        _ => ill, // a 32-bit instruction: not ours
    }
}
