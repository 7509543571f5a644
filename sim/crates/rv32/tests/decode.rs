//! 32-bit decoding: field extraction of every format (round trip through the test encoder)
//! and the legality rules of Ibex's decoder (rtl/ibex_decoder.sv): reserved funct3/funct7
//! combinations, SYSTEM instructions with nonzero rd/rs1, dret, unknown opcodes. Executing an
//! illegal instruction raises mcause 2 with mtval = the instruction bits and mepc = pc.
mod common;
use common::*;
use rv32::decode32::decode32;
use rv32::inst::Op;

/// Legal to execute in machine mode outside debug mode (dret decodes to its own operation,
/// which always traps as illegal).
fn legal(w: u32) -> bool {
    !matches!(decode32(w).op, Op::Illegal | Op::Dret)
}

#[test]
fn immediates_and_registers_round_trip() {
    let mut r = Rng(77);
    for _ in 0..20000 {
        let (rd, rs1, rs2) = (r.next() % 32, r.next() % 32, r.next() % 32);
        let i12 = (r.next() % 4096) as i32 - 2048;
        let b = ((r.next() % 4096) as i32 - 2048) * 2;
        let jo = ((r.next() % (1 << 20)) as i32 - (1 << 19)) * 2;
        let u20 = r.next() % (1 << 20);
        let chk = |w: u32, op: Op, rd_: u32, rs1_: u32, rs2_: u32, imm: i32| {
            let i = decode32(w);
            assert_eq!(
                (
                    i.op,
                    i.rd as u32,
                    i.rs1 as u32,
                    i.rs2 as u32,
                    i.imm,
                    i.len,
                    i.raw
                ),
                (op, rd_, rs1_, rs2_, imm, 4, w),
                "{w:#010x}"
            );
        };
        chk(enc::addi(rd, rs1, i12), Op::Addi, rd, rs1, 0, i12);
        chk(enc::lw(rd, rs1, i12), Op::Lw, rd, rs1, 0, i12);
        chk(enc::lbu(rd, rs1, i12), Op::Lbu, rd, rs1, 0, i12);
        chk(enc::jalr(rd, rs1, i12), Op::Jalr, rd, rs1, 0, i12);
        chk(enc::sw(rs2, rs1, i12), Op::Sw, 0, rs1, rs2, i12);
        chk(enc::sb(rs2, rs1, i12), Op::Sb, 0, rs1, rs2, i12);
        chk(enc::beq(rs1, rs2, b), Op::Beq, 0, rs1, rs2, b);
        chk(enc::bgeu(rs1, rs2, b), Op::Bgeu, 0, rs1, rs2, b);
        chk(enc::jal(rd, jo), Op::Jal, rd, 0, 0, jo);
        chk(enc::lui(rd, u20), Op::Lui, rd, 0, 0, (u20 << 12) as i32);
        chk(enc::auipc(rd, u20), Op::Auipc, rd, 0, 0, (u20 << 12) as i32);
        chk(enc::sub(rd, rs1, rs2), Op::Sub, rd, rs1, rs2, 0);
        chk(enc::remu(rd, rs1, rs2), Op::Remu, rd, rs1, rs2, 0);
        chk(enc::srai(rd, rs1, rs2), Op::Srai, rd, rs1, 0, rs2 as i32);
        let csr = r.next() % 4096;
        chk(enc::csrrw(rd, csr, rs1), Op::Csrrw, rd, rs1, 0, csr as i32);
        chk(
            enc::csrrci(rd, csr, rs1),
            Op::Csrrci,
            rd,
            rs1,
            0,
            csr as i32,
        );
    }
}

#[test]
fn every_op_is_reachable() {
    use Op::*;
    let table: &[(u32, Op)] = &[
        (enc::lui(1, 1), Lui),
        (enc::auipc(1, 1), Auipc),
        (enc::jal(1, 8), Jal),
        (enc::jalr(1, 2, 0), Jalr),
        (enc::beq(1, 2, 8), Beq),
        (enc::bne(1, 2, 8), Bne),
        (enc::blt(1, 2, 8), Blt),
        (enc::bge(1, 2, 8), Bge),
        (enc::bltu(1, 2, 8), Bltu),
        (enc::bgeu(1, 2, 8), Bgeu),
        (enc::lb(1, 2, 0), Lb),
        (enc::lh(1, 2, 0), Lh),
        (enc::lw(1, 2, 0), Lw),
        (enc::lbu(1, 2, 0), Lbu),
        (enc::lhu(1, 2, 0), Lhu),
        (enc::sb(1, 2, 0), Sb),
        (enc::sh(1, 2, 0), Sh),
        (enc::sw(1, 2, 0), Sw),
        (enc::addi(1, 2, 3), Addi),
        (enc::slti(1, 2, 3), Slti),
        (enc::sltiu(1, 2, 3), Sltiu),
        (enc::xori(1, 2, 3), Xori),
        (enc::ori(1, 2, 3), Ori),
        (enc::andi(1, 2, 3), Andi),
        (enc::slli(1, 2, 3), Slli),
        (enc::srli(1, 2, 3), Srli),
        (enc::srai(1, 2, 3), Srai),
        (enc::add(1, 2, 3), Add),
        (enc::sub(1, 2, 3), Sub),
        (enc::sll(1, 2, 3), Sll),
        (enc::slt(1, 2, 3), Slt),
        (enc::sltu(1, 2, 3), Sltu),
        (enc::xor(1, 2, 3), Xor),
        (enc::srl(1, 2, 3), Srl),
        (enc::sra(1, 2, 3), Sra),
        (enc::or(1, 2, 3), Or),
        (enc::and(1, 2, 3), And),
        (enc::mul(1, 2, 3), Mul),
        (enc::mulh(1, 2, 3), Mulh),
        (enc::mulhsu(1, 2, 3), Mulhsu),
        (enc::mulhu(1, 2, 3), Mulhu),
        (enc::div(1, 2, 3), Div),
        (enc::divu(1, 2, 3), Divu),
        (enc::rem(1, 2, 3), Rem),
        (enc::remu(1, 2, 3), Remu),
        (enc::fence(), Fence),
        (enc::fence_i(), FenceI),
        (enc::ecall(), Ecall),
        (enc::ebreak(), Ebreak),
        (enc::mret(), Mret),
        (enc::wfi(), Wfi),
        (enc::csrrw(1, 0x340, 2), Csrrw),
        (enc::csrrs(1, 0x340, 2), Csrrs),
        (enc::csrrc(1, 0x340, 2), Csrrc),
        (enc::csrrwi(1, 0x340, 2), Csrrwi),
        (enc::csrrsi(1, 0x340, 2), Csrrsi),
        (enc::csrrci(1, 0x340, 2), Csrrci),
    ];
    for &(w, op) in table {
        assert_eq!(decode32(w).op, op, "{w:#010x}");
    }
}

#[test]
fn unknown_major_opcodes_are_illegal() {
    // RV32IM + Zicsr: LOAD, MISC-MEM, OP-IMM, AUIPC, STORE, OP, LUI, BRANCH, JALR, JAL, SYSTEM
    let known = [
        0x03u32, 0x0f, 0x13, 0x17, 0x23, 0x33, 0x37, 0x63, 0x67, 0x6f, 0x73,
    ];
    let mut r = Rng(5);
    for opc in 0..32u32 {
        let op = opc << 2 | 3;
        if known.contains(&op) {
            continue;
        }
        // includes LOAD-FP, custom-0/1, AMO, OP-32, OP-IMM-32, MADD.., OP-FP, 48/64-bit prefixes
        for _ in 0..200 {
            let w = (r.next() << 16 ^ r.next()) & !0x7f | op;
            assert!(!legal(w), "{w:#010x} opcode {op:#x}");
        }
        assert!(!legal(op), "{op:#x}");
    }
}

#[test]
fn op_funct7_funct3_combinations() {
    for f7 in 0..128u32 {
        for f3 in 0..8u32 {
            let w = enc::op(f7, f3, 5, 6, 7);
            let ok = f7 == 0 || f7 == 1 || (f7 == 0x20 && (f3 == 0 || f3 == 5));
            assert_eq!(legal(w), ok, "OP f7={f7:#x} f3={f3}");
        }
    }
}

#[test]
fn shift_immediates_reject_reserved_upper_bits() {
    for top in 0..128u32 {
        for (f3, ok) in [(1u32, top == 0), (5, top == 0 || top == 0x20)] {
            let w = top << 25 | 3 << 20 | 6 << 15 | f3 << 12 | 5 << 7 | 0x13;
            assert_eq!(legal(w), ok, "shift f3={f3} imm[11:5]={top:#x}");
        }
    }
    // other OP-IMM funct3 accept any immediate
    for f3 in [0u32, 2, 3, 4, 6, 7] {
        assert!(legal(0xfff << 20 | f3 << 12 | 0x13));
    }
}

#[test]
fn reserved_funct3_of_loads_stores_branches_jalr_fence() {
    for f3 in 0..8u32 {
        let base = 6 << 15 | f3 << 12 | 5 << 7;
        assert_eq!(
            legal(base | 0x03),
            [0, 1, 2, 4, 5].contains(&f3),
            "load f3={f3}"
        );
        assert_eq!(legal(base | 0x23), f3 <= 2, "store f3={f3}");
        assert_eq!(legal(base | 0x63), f3 != 2 && f3 != 3, "branch f3={f3}");
        assert_eq!(legal(base | 0x67), f3 == 0, "jalr f3={f3}");
        assert_eq!(legal(f3 << 12 | 0x0f), f3 <= 1, "misc-mem f3={f3}");
        assert_eq!(
            legal(0x340 << 20 | base | 0x73),
            f3 != 0 && f3 != 4,
            "system f3={f3}"
        );
    }
}

#[test]
fn system_instructions_need_zero_rd_and_rs1() {
    for w in [enc::ecall(), enc::ebreak(), enc::mret(), enc::wfi()] {
        assert!(legal(w));
        for r in 1..32u32 {
            assert!(!legal(w | r << 7), "{w:#010x} with rd={r}");
            assert!(!legal(w | r << 15), "{w:#010x} with rs1={r}");
        }
    }
    // dret (only legal in debug mode, never entered), sret, uret, sfence.vma, wfi's neighbours,
    // and random funct12 values
    for f12 in [
        0x7b2u32,
        0x102,
        0x002,
        0x104,
        0x106,
        0x303,
        0x301,
        0x120,
        0x105 | 0x800,
        0xfff,
    ] {
        assert!(!legal(f12 << 20 | 0x73), "funct12 {f12:#x}");
    }
    assert_eq!(enc::dret(), 0x7b2 << 20 | 0x73);
    assert!(!legal(0x1200_0073), "sfence.vma x0, x0");
}

fn exec_illegal(w: u32) {
    exec_illegal_retiring(w, false)
}

/// `retires`: Ibex counts privilege-illegal instructions (dret outside debug mode, mret in
/// U-mode, wfi with TW in U-mode) in minstret, unlike undecodable ones (measured on the RTL).
fn exec_illegal_retiring(w: u32, retires: bool) {
    let a = prog(|a| {
        a.c(cenc::nop()); // the illegal word sits at a 2m4 address
        a.label("bad").word(w);
    });
    let mut s = Sim::new(&a);
    let cyc = s.hart.instret;
    assert!(run_until_end_or_trap(&mut s), "{w:#010x} did not trap");
    assert_eq!(s.mcause(), 2, "{w:#010x}");
    assert_eq!(s.mepc(), s.addr("bad"), "{w:#010x}");
    assert_eq!(s.mtval(), w, "{w:#010x}");
    assert_eq!(
        s.hart.instret,
        cyc + 1 + retires as u64,
        "the illegal instruction retires: {retires}"
    );
}

#[test]
fn executing_illegal_instructions_traps_with_mtval() {
    for w in [
        0xffff_ffffu32,
        0x0000_0003 | 3 << 12, // ld
        enc::op(0x20, 1, 1, 2, 3),
        enc::op(2, 0, 1, 2, 3),
        enc::ecall() | 1 << 7,
        enc::mret() | 1 << 15,
        0x1020_0073, // sret
        0x0000_0007, // flw
        0x0000_202f, // amoadd.w
        0x0000_003b, // addw
        0x0000_200f, // misc-mem funct3 2
        0x0000_1067, // jalr funct3 1
        0x3400_4073, // system funct3 4
        0x0200_1013, // slli with imm[11:5] = 1
    ] {
        exec_illegal(w);
    }
    exec_illegal_retiring(enc::dret(), true);
}
