//! RV32I semantics: every base instruction, with the edge cases of the ISA manual.
mod common;
use common::*;

fn check_rr(name: &str, make: fn(u32, u32, u32) -> u32, reference: fn(u32, u32) -> u32) {
    let pairs = operand_pairs(name.len() as u64 * 7919 + 1, 100);
    let got = eval_rr(make, &pairs);
    for (&(x, y), g) in pairs.iter().zip(got) {
        assert_eq!(g, reference(x, y), "{name} {x:#x}, {y:#x}");
    }
}

#[test]
fn add_sub_logic() {
    check_rr("add", enc::add, |x, y| x.wrapping_add(y));
    check_rr("sub", enc::sub, |x, y| x.wrapping_sub(y));
    check_rr("xor", enc::xor, |x, y| x ^ y);
    check_rr("or", enc::or, |x, y| x | y);
    check_rr("and", enc::and, |x, y| x & y);
}

#[test]
fn slt_sltu() {
    check_rr("slt", enc::slt, |x, y| ((x as i32) < (y as i32)) as u32);
    check_rr("sltu", enc::sltu, |x, y| (x < y) as u32);
    // the classic edges, spelled out
    let got = eval_rr(
        enc::slt,
        &[
            (0x8000_0000, 0x7fff_ffff),
            (0xffff_ffff, 0),
            (0, 0xffff_ffff),
            (5, 5),
        ],
    );
    assert_eq!(got, vec![1, 1, 0, 0]);
    let got = eval_rr(
        enc::sltu,
        &[
            (0x8000_0000, 0x7fff_ffff),
            (0xffff_ffff, 0),
            (0, 0xffff_ffff),
            (5, 5),
        ],
    );
    assert_eq!(got, vec![0, 0, 1, 0]);
}

#[test]
fn register_shifts_mask_amount_to_5_bits() {
    check_rr("sll", enc::sll, |x, y| x << (y & 31));
    check_rr("srl", enc::srl, |x, y| x >> (y & 31));
    check_rr("sra", enc::sra, |x, y| ((x as i32) >> (y & 31)) as u32);
    let got = eval_rr(
        enc::sll,
        &[(1, 32), (1, 33), (1, 0xffff_ffff), (3, 0), (1, 31)],
    );
    assert_eq!(got, vec![1, 2, 0x8000_0000, 3, 0x8000_0000]);
    let got = eval_rr(
        enc::sra,
        &[
            (0x8000_0000, 31),
            (0x8000_0000, 63),
            (0x8000_0000, 0),
            (0x4000_0000, 30),
        ],
    );
    assert_eq!(got, vec![0xffff_ffff, 0xffff_ffff, 0x8000_0000, 1]);
    let got = eval_rr(
        enc::srl,
        &[(0x8000_0000, 31), (0x8000_0000, 0x20), (0xffff_ffff, 4)],
    );
    assert_eq!(got, vec![1, 0x8000_0000, 0x0fff_ffff]);
}

const IMMS: &[i32] = &[
    0, 1, -1, 2, 5, 0x7f, 0x80, 0x555, -0x556, 2047, -2048, -2047,
];

fn check_ri(name: &str, make: fn(u32, u32, i32) -> u32, reference: fn(u32, i32) -> u32) {
    let mut cases = Vec::new();
    for &x in EDGE {
        for &i in IMMS {
            cases.push((x, i));
        }
    }
    for chunk in cases.chunks(300) {
        let a = prog(|a| {
            for (k, &(x, i)) in chunk.iter().enumerate() {
                a.li(A0, x).i(make(A2, A0, i));
                a.li(T0, DATA + 4 * k as u32).i(enc::sw(A2, T0, 0));
            }
        });
        let s = run(&a);
        for (k, &(x, i)) in chunk.iter().enumerate() {
            assert_eq!(
                s.bus.r32(DATA + 4 * k as u32),
                reference(x, i),
                "{name} {x:#x}, {i}"
            );
        }
    }
}

#[test]
fn immediate_alu() {
    check_ri("addi", enc::addi, |x, i| x.wrapping_add(i as u32));
    check_ri("slti", enc::slti, |x, i| ((x as i32) < i) as u32);
    // sltiu compares against the sign-extended immediate as unsigned: x < 0xffffffff for -1
    check_ri("sltiu", enc::sltiu, |x, i| (x < i as u32) as u32);
    check_ri("xori", enc::xori, |x, i| x ^ i as u32);
    check_ri("ori", enc::ori, |x, i| x | i as u32);
    check_ri("andi", enc::andi, |x, i| x & i as u32);
}

#[test]
fn immediate_shifts_by_0_1_31() {
    for sh in [0u32, 1, 4, 16, 31] {
        check_ri_sh(sh);
    }
}

fn check_ri_sh(sh: u32) {
    let a = prog(|a| {
        for (k, &x) in EDGE.iter().enumerate() {
            a.li(A0, x);
            a.i(enc::slli(A1, A0, sh))
                .i(enc::srli(A2, A0, sh))
                .i(enc::srai(A3, A0, sh));
            a.li(T0, DATA + 16 * k as u32);
            a.i(enc::sw(A1, T0, 0))
                .i(enc::sw(A2, T0, 4))
                .i(enc::sw(A3, T0, 8));
        }
    });
    let s = run(&a);
    for (k, &x) in EDGE.iter().enumerate() {
        let b = DATA + 16 * k as u32;
        assert_eq!(s.bus.r32(b), x << sh, "slli {x:#x} {sh}");
        assert_eq!(s.bus.r32(b + 4), x >> sh, "srli {x:#x} {sh}");
        assert_eq!(
            s.bus.r32(b + 8),
            ((x as i32) >> sh) as u32,
            "srai {x:#x} {sh}"
        );
    }
}

#[test]
fn x0_writes_are_ignored() {
    let a = prog(|a| {
        a.li(A0, 0x1234_5678);
        a.i(enc::addi(0, 0, 5));
        a.i(enc::lui(0, 0x12345));
        a.i(enc::auipc(0, 1));
        a.i(enc::add(0, A0, A0));
        a.i(enc::li(S0, DATA)[0]).i(enc::li(S0, DATA)[1]);
        a.i(enc::sw(A0, S0, 0));
        a.i(enc::lw(0, S0, 0));
        a.i(enc::mul(0, A0, A0));
        a.i(enc::csrr(0, MISA));
        a.i(enc::jal(0, 4));
        a.i(enc::add(A1, 0, 0));
        a.i(enc::addi(A2, 0, 0));
    });
    let s = run(&a);
    assert_eq!(s.hart.x[0], 0);
    assert_eq!(s.x(A1), 0);
    assert_eq!(s.x(A2), 0);
}

#[test]
fn lui_auipc() {
    let a = prog(|a| {
        a.i(enc::lui(A0, 0xfffff));
        a.i(enc::lui(A1, 0x80000));
        a.i(enc::lui(A2, 1));
        a.label("p1").i(enc::auipc(A3, 0));
        a.label("p2").i(enc::auipc(A4, 0x80000));
        a.label("p3").i(enc::auipc(A5, 0xfffff)); // pc - 0x1000
        a.i(enc::lui(A6, 0x12345)).i(enc::addi(A6, A6, 0x678));
        a.i(enc::lui(A7, 0x12345)).i(enc::addi(A7, A7, -1)); // lui then negative addi
    });
    let s = run(&a);
    assert_eq!(s.x(A0), 0xffff_f000);
    assert_eq!(s.x(A1), 0x8000_0000);
    assert_eq!(s.x(A2), 0x1000);
    assert_eq!(s.x(A3), s.addr("p1"));
    assert_eq!(s.x(A4), s.addr("p2").wrapping_add(0x8000_0000));
    assert_eq!(s.x(A5), s.addr("p3").wrapping_sub(0x1000));
    assert_eq!(s.x(A6), 0x1234_5678);
    assert_eq!(s.x(A7), 0x1234_4fff);
}

#[test]
fn li_helper_roundtrip() {
    let vals = [
        0u32,
        0x7ff,
        0x800,
        0xfff,
        0xffff_f800,
        0x8000_0000,
        0xffff_ffff,
        0x1234_5678,
        0x7fff_f800,
    ];
    let a = prog(|a| {
        for (k, &v) in vals.iter().enumerate() {
            a.li(A0, v)
                .li(T0, DATA + 4 * k as u32)
                .i(enc::sw(A0, T0, 0));
        }
    });
    let s = run(&a);
    for (k, &v) in vals.iter().enumerate() {
        assert_eq!(s.bus.r32(DATA + 4 * k as u32), v);
    }
}

#[test]
fn jal_jalr_link_and_targets() {
    let a = prog(|a| {
        a.label("j1").jal_to(RA, "t1");
        a.i(enc::addi(S1, 0, 99)); // skipped
        a.label("t1");
        a.la(T0, "t2");
        a.i(enc::addi(T0, T0, 1)); // odd target: jalr clears bit 0
        a.label("j2").i(enc::jalr(A0, T0, 0));
        a.i(enc::addi(S2, 0, 99)); // skipped
        a.label("t2");
        // jalr with a negative immediate and rd == rs1 (target uses the old value)
        a.la(A1, "t3_plus");
        a.label("j3").i(enc::jalr(A1, A1, -8));
        a.i(enc::addi(S3, 0, 99)); // skipped
        a.label("t3");
        a.i(enc::addi(S4, 0, 1));
        a.j_to("after");
        a.label("t3_plus");
        a.i(enc::addi(S5, 0, 99)); // never
        a.label("after");
        // backward jal
        a.j_to("fwd");
        a.label("back").i(enc::addi(S6, 0, 7));
        a.j_to("done");
        a.label("fwd").jal_to(S7, "back");
        a.label("done");
    });
    let s = run(&a);
    assert_eq!(s.x(RA), s.addr("j1") + 4);
    assert_eq!(s.x(A0), s.addr("j2") + 4);
    assert_eq!(s.x(A1), s.addr("j3") + 4);
    assert_eq!(s.x(S4), 1);
    assert_eq!(s.x(S6), 7);
    assert_eq!(s.x(S7), s.addr("fwd") + 4);
    for r in [S1, S2, S3, S5] {
        assert_eq!(s.x(r), 0, "x{r} should have been skipped");
    }
    assert_eq!(s.addr("t3_plus") - 8, s.addr("t3"));
}

fn branch_ref(f3: u32, x: u32, y: u32) -> bool {
    match f3 {
        0 => x == y,
        1 => x != y,
        4 => (x as i32) < (y as i32),
        5 => (x as i32) >= (y as i32),
        6 => x < y,
        7 => x >= y,
        _ => unreachable!(),
    }
}

#[test]
fn branches_forward_and_backward() {
    let vals = [0u32, 1, 0xffff_ffff, 0x8000_0000, 0x7fff_ffff, 5];
    let mut cases = Vec::new();
    for f3 in [0u32, 1, 4, 5, 6, 7] {
        for &x in &vals {
            for &y in &vals {
                cases.push((f3, x, y));
            }
        }
    }
    for chunk in cases.chunks(120) {
        let a = prog(|a| {
            a.li(S0, DATA);
            for (k, &(f3, x, y)) in chunk.iter().enumerate() {
                a.li(A0, x).li(A1, y);
                // forward: t0 = 1 if taken
                a.i(enc::addi(T0, 0, 1));
                a.i(enc::branch(f3, A0, A1, 8));
                a.i(enc::addi(T0, 0, 0));
                a.i(enc::sw(T0, S0, 8 * k as i32));
                // backward: t1 = 1 if taken
                let (back, fwd, cont) = (format!("b{k}"), format!("f{k}"), format!("c{k}"));
                a.j_to(&fwd);
                a.label(&back).i(enc::addi(T1, 0, 1)).j_to(&cont);
                a.label(&fwd).i(enc::addi(T1, 0, 0)).b_to(f3, A0, A1, &back);
                a.label(&cont).i(enc::sw(T1, S0, 8 * k as i32 + 4));
            }
        });
        let s = run(&a);
        for (k, &(f3, x, y)) in chunk.iter().enumerate() {
            let want = branch_ref(f3, x, y) as u32;
            assert_eq!(
                s.bus.r32(DATA + 8 * k as u32),
                want,
                "fwd branch f3={f3} {x:#x} {y:#x}"
            );
            assert_eq!(
                s.bus.r32(DATA + 8 * k as u32 + 4),
                want,
                "back branch f3={f3} {x:#x} {y:#x}"
            );
        }
    }
}

#[test]
fn countdown_loop_with_negative_offset() {
    let a = prog(|a| {
        a.i(enc::addi(A0, 0, 10));
        a.label("loop")
            .i(enc::addi(A1, A1, 3))
            .i(enc::addi(A0, A0, -1))
            .bne_to(A0, 0, "loop");
    });
    let s = run(&a);
    assert_eq!(s.x(A1), 30);
    assert_eq!(s.x(A0), 0);
}

#[test]
fn loads_sign_and_zero_extend() {
    let mut a = prog(|a| {
        a.li(S0, DATA + 16);
        a.i(enc::lb(A0, S0, 0)).i(enc::lbu(A1, S0, 0));
        a.i(enc::lb(A2, S0, 1)).i(enc::lbu(A3, S0, 1));
        a.i(enc::lh(A4, S0, 0)).i(enc::lhu(A5, S0, 0));
        a.i(enc::lh(A6, S0, 2)).i(enc::lhu(A7, S0, 2));
        a.i(enc::lw(S2, S0, 0));
        a.i(enc::lw(S3, S0, -16))
            .i(enc::lb(S4, S0, -13))
            .i(enc::lh(S5, S0, -14));
        a.i(enc::lw(S6, S0, 2047 - 3));
    });
    a.at(DATA).word(0x8000_7f80);
    a.at(DATA + 16).word(0x7fff_8081);
    a.at(DATA + 16 + 2044).word(0xcafe_f00d);
    let s = run(&a);
    assert_eq!(s.x(A0), 0xffff_ff81);
    assert_eq!(s.x(A1), 0x81);
    assert_eq!(s.x(A2), 0xffff_ff80);
    assert_eq!(s.x(A3), 0x80);
    assert_eq!(s.x(A4), 0xffff_8081);
    assert_eq!(s.x(A5), 0x8081);
    assert_eq!(s.x(A6), 0x7fff);
    assert_eq!(s.x(A7), 0x7fff);
    assert_eq!(s.x(S2), 0x7fff_8081);
    assert_eq!(s.x(S3), 0x8000_7f80);
    assert_eq!(s.x(S4), 0xffff_ff80);
    assert_eq!(s.x(S5), 0xffff_8000);
    assert_eq!(s.x(S6), 0xcafe_f00d);
}

#[test]
fn stores_write_low_bits_only() {
    let a = prog(|a| {
        a.li(S0, DATA).li(A0, 0xa1b2_c3d4).li(A1, 0xffff_ffff);
        a.i(enc::sw(A1, S0, 0))
            .i(enc::sw(A1, S0, 4))
            .i(enc::sw(A1, S0, 8));
        a.i(enc::sb(A0, S0, 1))
            .i(enc::sh(A0, S0, 6))
            .i(enc::sw(A0, S0, 8));
        a.i(enc::addi(S1, S0, 32)).i(enc::sb(A0, S1, -20)); // DATA + 12
    });
    let s = run(&a);
    assert_eq!(s.bus.r32(DATA), 0xffff_d4ff);
    assert_eq!(s.bus.r32(DATA + 4), 0xc3d4_ffff);
    assert_eq!(s.bus.r32(DATA + 8), 0xa1b2_c3d4);
    assert_eq!(s.bus.r32(DATA + 12), 0x0000_00d4);
}

#[test]
fn misaligned_loads_and_stores_read_and_write_the_right_bytes() {
    let mut a = prog(|a| {
        a.li(S0, DATA);
        a.i(enc::lw(A0, S0, 1))
            .i(enc::lw(A1, S0, 2))
            .i(enc::lw(A2, S0, 3));
        a.i(enc::lh(A3, S0, 3))
            .i(enc::lhu(A4, S0, 1))
            .i(enc::lh(A5, S0, 1));
        a.li(T0, 0xa1b2_c3d4);
        a.i(enc::sw(T0, S0, 17)).i(enc::sh(T0, S0, 27));
    });
    a.at(DATA).word(0x8877_6655).word(0x4433_2211);
    let s = run(&a);
    assert_eq!(s.x(A0), 0x1188_7766);
    assert_eq!(s.x(A1), 0x2211_8877);
    assert_eq!(s.x(A2), 0x3322_1188);
    assert_eq!(s.x(A3), 0x1188);
    assert_eq!(s.x(A4), 0x7766);
    assert_eq!(s.x(A5), 0x7766);
    assert_eq!(s.bus.r32(DATA + 16), 0xb2c3_d400);
    assert_eq!(s.bus.r32(DATA + 20), 0x0000_00a1);
    assert_eq!(s.bus.r32(DATA + 24), 0xd400_0000);
    assert_eq!(s.bus.r32(DATA + 28), 0x0000_00c3);
}

#[test]
fn mmio_reads_and_writes_go_to_the_bus() {
    let a = prog(|a| {
        a.li(S0, MMIO_BASE).li(A0, 0xdead_beef);
        a.i(enc::sw(A0, S0, 8))
            .i(enc::sb(A0, S0, 5))
            .i(enc::sh(A0, S0, 2));
        a.i(enc::lw(A1, S0, 0x10))
            .i(enc::lb(A2, S0, 0))
            .i(enc::lhu(A3, S0, 0));
    });
    let mut s = Sim::new(&a);
    s.bus.mmio_value = 0x8765_4381;
    s.run();
    assert_eq!(
        s.bus.mmio_writes,
        vec![
            (MMIO_BASE + 8, 4, 0xdead_beef),
            (MMIO_BASE + 5, 1, 0xef),
            (MMIO_BASE + 2, 2, 0xbeef)
        ]
    );
    assert_eq!(
        s.bus.mmio_reads,
        vec![(MMIO_BASE + 0x10, 4), (MMIO_BASE, 1), (MMIO_BASE, 2)]
    );
    assert_eq!(s.x(A1), 0x8765_4381);
    assert_eq!(s.x(A2), 0xffff_ff81);
    assert_eq!(s.x(A3), 0x4381);
}

#[test]
fn fence_and_fence_i_are_nops_and_fence_i_sees_modified_code() {
    // self-modifying code: overwrite an instruction, fence.i, execute it
    let a = prog(|a| {
        a.i(enc::fence());
        a.la(S0, "patch");
        a.li(A0, enc::addi(A1, 0, 42));
        // execute the patch site once before patching (so it is decoded)
        a.label("patch").i(enc::addi(A1, 0, 1));
        a.i(enc::addi(A2, A2, 1));
        a.i(enc::sw(A0, S0, 0));
        a.i(enc::fence_i());
        a.i(enc::addi(T0, 0, 2));
        a.bne_to(A2, T0, "patch");
    });
    let s = run(&a);
    assert_eq!(s.x(A2), 2);
    assert_eq!(s.x(A1), 42);
}

#[test]
fn store_to_the_upper_half_of_a_decoded_instruction_is_seen() {
    // patch the immediate (upper halfword) of an already executed 32-bit instruction
    let a = prog(|a| {
        a.la(S0, "patch");
        a.li(A0, enc::addi(A1, 0, 42) >> 16);
        a.label("patch").i(enc::addi(A1, 0, 1));
        a.i(enc::addi(A2, A2, 1));
        a.i(enc::sh(A0, S0, 2));
        a.i(enc::addi(T0, 0, 2));
        a.bne_to(A2, T0, "patch");
    });
    let s = run(&a);
    assert_eq!(s.x(A1), 42);
}
