//! The C extension (RV32C, no F/D, no Zcb/Zcmp): an exhaustive check of all 49152 16-bit
//! encodings against an expansion table built from the spec with an independent encoder, and
//! execution tests of every compressed instruction.
mod common;
use std::collections::HashMap;

use common::*;
use rv32::compressed::decode16;
use rv32::decode32::decode32;
use rv32::inst::Op;

/// Every legal RV32C encoding, mapped to the 32-bit instruction it expands to. Built by
/// enumerating the field values each instruction accepts (RISC-V unprivileged spec, RVC
/// chapter); HINTs are legal and expand like the instruction they are a case of.
fn expansion_table() -> HashMap<u16, u32> {
    let mut m: HashMap<u16, u32> = HashMap::new();
    let mut put = |h: u16, w: u32| {
        if let Some(old) = m.insert(h, w) {
            panic!("encoder collision at {h:#06x}: {old:#010x} vs {w:#010x}");
        }
    };
    let cregs = 8..16u32;
    let imm6 = -32..32i32;
    // quadrant 0
    for rd in cregs.clone() {
        for nz in (4..1024).step_by(4) {
            put(cenc::addi4spn(rd, nz), enc::addi(rd, SP, nz as i32));
        }
        for rs1 in cregs.clone() {
            for off in (0..128).step_by(4) {
                put(cenc::lw(rd, rs1, off), enc::lw(rd, rs1, off as i32));
                put(cenc::sw(rd, rs1, off), enc::sw(rd, rs1, off as i32));
            }
        }
    }
    // quadrant 1
    for rd in 0..32 {
        for imm in imm6.clone() {
            put(cenc::addi(rd, imm), enc::addi(rd, rd, imm));
            put(cenc::li(rd, imm), enc::addi(rd, 0, imm));
            if imm != 0 && rd != 2 {
                put(cenc::lui(rd, imm), enc::lui(rd, (imm as u32) & 0xfffff));
            }
        }
    }
    for off in (-2048..2048).step_by(2) {
        put(cenc::jal(off), enc::jal(RA, off));
        put(cenc::j(off), enc::jal(0, off));
    }
    for imm in (-512..512).step_by(16) {
        if imm != 0 {
            put(cenc::addi16sp(imm), enc::addi(SP, SP, imm));
        }
    }
    for rd in cregs.clone() {
        for sh in 0..32 {
            put(cenc::srli(rd, sh), enc::srli(rd, rd, sh));
            put(cenc::srai(rd, sh), enc::srai(rd, rd, sh));
        }
        for imm in imm6.clone() {
            put(cenc::andi(rd, imm), enc::andi(rd, rd, imm));
        }
        for rs2 in cregs.clone() {
            put(cenc::sub(rd, rs2), enc::sub(rd, rd, rs2));
            put(cenc::xor(rd, rs2), enc::xor(rd, rd, rs2));
            put(cenc::or(rd, rs2), enc::or(rd, rd, rs2));
            put(cenc::and(rd, rs2), enc::and(rd, rd, rs2));
        }
        for off in (-256..256).step_by(2) {
            put(cenc::beqz(rd, off), enc::beq(rd, 0, off));
            put(cenc::bnez(rd, off), enc::bne(rd, 0, off));
        }
    }
    // quadrant 2
    for rd in 0..32 {
        for sh in 0..32 {
            put(cenc::slli(rd, sh), enc::slli(rd, rd, sh));
        }
        for off in (0..256).step_by(4) {
            if rd != 0 {
                put(cenc::lwsp(rd, off), enc::lw(rd, SP, off as i32));
            }
            put(cenc::swsp(rd, off), enc::sw(rd, SP, off as i32));
        }
        if rd != 0 {
            put(cenc::jr(rd), enc::jalr(0, rd, 0));
            put(cenc::jalr(rd), enc::jalr(RA, rd, 0));
        }
        for rs2 in 1..32 {
            put(cenc::mv(rd, rs2), enc::add(rd, 0, rs2));
            put(cenc::add(rd, rs2), enc::add(rd, rd, rs2));
        }
    }
    put(cenc::ebreak(), enc::ebreak());
    m
}

#[test]
fn expansion_table_has_the_spec_count_of_legal_encodings() {
    // Q0: 2040 addi4spn + 2048 lw + 2048 sw; Q1: 6 full funct3 groups (2048 each) + 2016
    // lui/addi16sp + 1280 in funct3 100; Q2: 1024 slli + 1984 lwsp + 2047 + 2048 swsp.
    assert_eq!(expansion_table().len(), 6136 + 15584 + 7103);
}

#[test]
fn every_16_bit_encoding_decodes_like_its_expansion() {
    let table = expansion_table();
    let mut bad = Vec::new();
    for h in 0..=0xffffu32 {
        let h = h as u16;
        if h & 3 == 3 {
            continue;
        }
        let got = decode16(h);
        match table.get(&h) {
            Some(&w) => {
                let want = decode32(w);
                assert_ne!(
                    want.op,
                    Op::Illegal,
                    "expansion {w:#010x} of {h:#06x} is illegal"
                );
                let same = got.op == want.op
                    && got.rd == want.rd
                    && got.rs1 == want.rs1
                    && got.rs2 == want.rs2
                    && got.imm == want.imm
                    && got.len == 2
                    && got.raw == h as u32;
                if !same {
                    bad.push(format!(
                        "{h:#06x}: got {got:?}, want {want:?} (from {w:#010x})"
                    ));
                }
            }
            None => {
                if got.op != Op::Illegal || got.len != 2 || got.raw != h as u32 {
                    bad.push(format!("{h:#06x}: reserved/illegal but decoded as {got:?}"));
                }
            }
        }
    }
    assert!(
        bad.is_empty(),
        "{} mismatches, first: {:#?}",
        bad.len(),
        &bad[..bad.len().min(20)]
    );
}

#[test]
fn listed_reserved_encodings_are_illegal() {
    let reserved: &[(u16, &str)] = &[
        (0x0000, "all zeros (c.addi4spn nzuimm=0)"),
        (0x0004, "c.addi4spn x9, 0"),
        (0x001c, "c.addi4spn x15, 0"),
        (0x4002, "c.lwsp x0"),
        (0x4f82 & !(0x1f << 7), "c.lwsp x0 uimm"),
        (0x8002, "c.jr x0"),
        (0x6101, "c.addi16sp 0"),
        (0x6081, "c.lui x1, 0"),
        (0x6001, "c.lui x0, 0"),
        (0x9001, "c.srli shamt[5]=1"),
        (0x9005 | 7 << 7, "c.srli x15, 33"),
        (0x9401, "c.srai shamt[5]=1"),
        (0x1002, "c.slli x0 shamt[5]=1"),
        (0x1082, "c.slli x1, 32"),
        (0x2000, "q0 funct3 001 (c.fld)"),
        (0x6000, "q0 funct3 011 (c.flw / c.ld)"),
        (0x8000, "q0 funct3 100 (reserved / Zcb)"),
        (0x8400, "q0 funct3 100 (Zcb lbu)"),
        (0xa000, "q0 funct3 101 (c.fsd)"),
        (0xe000, "q0 funct3 111 (c.fsw)"),
        (0x2002, "q2 funct3 001 (c.fldsp)"),
        (0x6002, "q2 funct3 011 (c.flwsp)"),
        (0xa002, "q2 funct3 101 (c.fsdsp / Zcmp)"),
        (0xb802, "q2 funct3 101 (cm.push)"),
        (0xe002, "q2 funct3 111 (c.fswsp)"),
        (0x9c01, "c.subw"),
        (0x9c21, "c.addw"),
        (0x9c41, "reserved 100-1-11-10"),
        (0x9c61, "reserved 100-1-11-11 (Zcb)"),
    ];
    for &(h, what) in reserved {
        let i = decode16(h);
        assert_eq!(i.op, Op::Illegal, "{h:#06x} {what}");
        assert_eq!(i.raw, h as u32, "{what}: raw");
    }
    let table = expansion_table();
    for &(h, what) in reserved {
        assert!(!table.contains_key(&h), "the test's own table lists {what}");
    }
}

#[test]
fn hints_are_legal() {
    // c.nop with imm, c.addi with imm 0, c.li x0, c.lui x0, c.mv x0, c.add x0, c.slli x0 / 0,
    // c.srli/c.srai shamt 0
    for h in [
        cenc::addi(0, 5),
        cenc::addi(A0, 0),
        cenc::li(0, 3),
        cenc::lui(0, 1),
        cenc::mv(0, A0),
        cenc::add(0, A0),
        cenc::slli(0, 3),
        cenc::slli(A0, 0),
        cenc::srli(A0, 0),
        cenc::srai(A0, 0),
    ] {
        assert_ne!(decode16(h).op, Op::Illegal, "{h:#06x}");
    }
}

// ---------------------------------------------------------------------------------------------
// Execution

#[test]
fn execute_every_compressed_instruction() {
    let a = prog(|a| {
        a.li(SP, DATA + 0x100);
        a.c(cenc::addi4spn(A0, 16)); // a0 = sp + 16
        a.c(cenc::addi4spn(A5, 1020)); // a5 = sp + 1020
        a.li(A1, 0xcafe_babe);
        a.c(cenc::sw(A1, A0, 4)).c(cenc::lw(A2, A0, 4)); // a2 = cafebabe
        a.c(cenc::sw(A1, A0, 124)).c(cenc::lw(A3, A0, 124)); // largest offset
        a.c(cenc::nop());
        a.c(cenc::li(S2, -32)).c(cenc::li(S3, 31));
        a.c(cenc::addi(S3, -5)); // 26
        a.c(cenc::lui(S4, -1))
            .c(cenc::lui(S5, 1))
            .c(cenc::lui(S6, 31));
        a.c(cenc::addi16sp(-64))
            .i(enc::addi(S7, SP, 0))
            .c(cenc::addi16sp(496))
            .i(enc::addi(S8, SP, 0));
        a.c(cenc::addi16sp(-432)); // back to the start
        a.li(S0, 0x8000_00f0).li(S1, 0x0f0f_0f0f);
        a.i(enc::addi(A4, S0, 0))
            .c(cenc::srli(A4, 4))
            .i(enc::addi(T3, A4, 0));
        a.i(enc::addi(A4, S0, 0))
            .c(cenc::srai(A4, 4))
            .i(enc::addi(T4, A4, 0));
        a.i(enc::addi(A4, S0, 0))
            .c(cenc::srai(A4, 31))
            .i(enc::addi(T5, A4, 0));
        a.i(enc::addi(A4, S0, 0))
            .c(cenc::andi(A4, -2))
            .i(enc::addi(T6, A4, 0));
        a.li(S11, DATA + 0x200);
        for (k, f) in [
            cenc::sub as fn(u32, u32) -> u16,
            cenc::xor,
            cenc::or,
            cenc::and,
        ]
        .iter()
        .enumerate()
        {
            a.i(enc::addi(A4, S0, 0))
                .c(f(A4, S1))
                .i(enc::sw(A4, S11, 4 * k as i32));
        }
        a.i(enc::addi(A4, S1, 0))
            .c(cenc::slli(A4, 4))
            .i(enc::sw(A4, S11, 16));
        a.i(enc::addi(A4, S1, 0))
            .c(cenc::slli(A4, 31))
            .i(enc::sw(A4, S11, 20));
        a.c(cenc::swsp(A1, 252))
            .c(cenc::lwsp(T0, 252))
            .i(enc::sw(T0, S11, 24));
        a.c(cenc::swsp(S1, 0))
            .c(cenc::lwsp(T1, 0))
            .i(enc::sw(T1, S11, 28));
        a.c(cenc::mv(T2, A1)).i(enc::sw(T2, S11, 32));
        a.li(T2, 5).c(cenc::add(T2, S1)).i(enc::sw(T2, S11, 36));
    });
    let s = run(&a);
    let sp = DATA + 0x100;
    assert_eq!(s.x(SP), sp);
    assert_eq!(s.x(A0), sp + 16);
    assert_eq!(s.x(A5), sp + 1020);
    assert_eq!(s.x(A2), 0xcafe_babe);
    assert_eq!(s.x(A3), 0xcafe_babe);
    assert_eq!(s.bus.r32(sp + 16 + 124), 0xcafe_babe);
    assert_eq!(s.x(S2), 0xffff_ffe0);
    assert_eq!(s.x(S3), 26);
    assert_eq!(s.x(S4), 0xffff_f000);
    assert_eq!(s.x(S5), 0x1000);
    assert_eq!(s.x(S6), 0x1f000);
    assert_eq!(s.x(S7), sp - 64);
    assert_eq!(s.x(S8), sp - 64 + 496);
    assert_eq!(s.x(T3), 0x0800_000f);
    assert_eq!(s.x(T4), 0xf800_000f);
    assert_eq!(s.x(T5), 0xffff_ffff);
    assert_eq!(s.x(T6), 0x8000_00f0);
    let (x, y) = (0x8000_00f0u32, 0x0f0f_0f0fu32);
    let out = DATA + 0x200;
    assert_eq!(s.bus.r32(out), x.wrapping_sub(y));
    assert_eq!(s.bus.r32(out + 4), x ^ y);
    assert_eq!(s.bus.r32(out + 8), x | y);
    assert_eq!(s.bus.r32(out + 12), x & y);
    assert_eq!(s.bus.r32(out + 16), y << 4);
    assert_eq!(s.bus.r32(out + 20), y << 31);
    assert_eq!(s.bus.r32(out + 24), 0xcafe_babe);
    assert_eq!(s.bus.r32(sp + 252), 0xcafe_babe);
    assert_eq!(s.bus.r32(out + 28), y);
    assert_eq!(s.bus.r32(out + 32), 0xcafe_babe);
    assert_eq!(s.bus.r32(out + 36), y + 5);
}

#[test]
fn compressed_control_flow() {
    let a = prog(|a| {
        a.label("cjal").c_jal_to("f1"); // ra = cjal + 2
        a.i(enc::addi(S2, 0, 99)); // skipped
        a.label("f1");
        a.c_j_to("f2");
        a.i(enc::addi(S3, 0, 99)); // skipped
        a.label("back").i(enc::addi(S4, S4, 1)).c_j_to("f3");
        a.label("f2").c_j_to("back"); // backward c.j
        a.label("f3");
        a.la(T0, "f4");
        a.label("cjalr").c(cenc::jalr(T0)); // t1 = ... ra = cjalr + 2
        a.i(enc::addi(S5, 0, 99)); // skipped
        a.label("f4");
        a.i(enc::addi(S6, RA, 0)); // save link of c.jalr
        a.la(T1, "f5");
        a.c(cenc::jr(T1));
        a.i(enc::addi(S7, 0, 99)); // skipped
        a.label("f5");
        // c.beqz / c.bnez, taken and not taken, forward and backward
        a.li(S0, 3).li(S1, 0);
        a.label("loop")
            .i(enc::addi(A0, A0, 1))
            .c(cenc::addi(S0, -1))
            .c_bnez_to(S0, "loop"); // 3 iterations
        a.c_bnez_to(S1, "never"); // not taken
        a.c_beqz_to(S1, "f6"); // taken
        a.label("never").i(enc::addi(S8, 0, 99));
        a.label("f6");
        a.li(S1, 1)
            .c_beqz_to(S1, "never2")
            .i(enc::addi(A1, 0, 5))
            .c_j_to("f7");
        a.label("never2").i(enc::addi(S9, 0, 99));
        a.label("f7");
        // c.jalr with rs1 == ra: target uses the old ra, link is written afterwards
        a.la(RA, "f8");
        a.label("cjalr_ra").c(cenc::jalr(RA));
        a.i(enc::addi(S10, 0, 99));
        a.label("f8");
    });
    let s = run(&a);
    assert_eq!(s.x(S6), s.addr("cjalr") + 2);
    assert_eq!(s.x(RA), s.addr("cjalr_ra") + 2);
    assert_eq!(s.x(S4), 1);
    assert_eq!(s.x(A0), 3);
    assert_eq!(s.x(A1), 5);
    for r in [S2, S3, S5, S7, S8, S9, S10] {
        assert_eq!(s.x(r), 0, "x{r} should have been skipped");
    }
    // c.jal's link is pc + 2
    let a2 = prog(|a| {
        a.label("cj").c_jal_to("t").c(cenc::nop());
        a.label("t");
    });
    let s2 = run(&a2);
    assert_eq!(s2.x(RA), s2.addr("cj") + 2);
}

#[test]
fn c_ebreak_traps_with_breakpoint() {
    let a = prog(|a| {
        a.label("bp").c(cenc::ebreak());
    });
    let mut s = Sim::new(&a);
    assert!(run_until_end_or_trap(&mut s));
    assert_eq!(s.mcause(), 3);
    assert_eq!(s.mepc(), s.addr("bp"));
    assert_eq!(s.mtval(), 0);
}

#[test]
fn illegal_compressed_traps_with_16_bit_mtval() {
    for h in [0x0000u16, 0x4002, 0x8002, 0x6101, 0x9c01, 0xe002] {
        let a = prog(|a| {
            a.c(cenc::nop());
            a.label("bad").c(h).c(cenc::nop());
        });
        let mut s = Sim::new(&a);
        assert!(run_until_end_or_trap(&mut s), "{h:#06x} did not trap");
        assert_eq!(s.mcause(), 2, "{h:#06x}");
        assert_eq!(s.mepc(), s.addr("bad"), "{h:#06x}");
        assert_eq!(s.mtval(), h as u32, "{h:#06x}");
    }
}

#[test]
fn mixed_16_and_32_bit_instructions_at_2m4_addresses() {
    let a = prog(|a| {
        a.c(cenc::li(A0, 1)); // 0x100080
        a.i(enc::addi(A0, A0, 2)); // at 2m4
        a.c(cenc::addi(A0, 4));
        a.i(enc::addi(A0, A0, 8)); // at 0 mod 4
        a.c(cenc::nop());
        a.li(A1, 0x1234_5678); // two 32-bit at 2m4
    });
    let s = run(&a);
    assert_eq!(s.x(A0), 15);
    assert_eq!(s.x(A1), 0x1234_5678);
}
