//! The M extension: every instruction against a reference computed with i64/u64 arithmetic,
//! with the ISA manual's corner cases (division by zero, signed overflow).
mod common;
use common::*;

const MIN: u32 = i32::MIN as u32;
const M1: u32 = u32::MAX; // -1

fn corner_pairs() -> Vec<(u32, u32)> {
    let mut v = operand_pairs(4242, 200);
    v.extend([
        (M1, M1),
        (MIN, M1),
        (MIN, MIN),
        (M1, 2),
        (MIN, 1),
        (0x7fff_ffff, 0x7fff_ffff),
        (MIN, 0),
        (0, 0),
        (M1, 0),
        (1, 0),
    ]);
    v
}

fn check(name: &str, make: fn(u32, u32, u32) -> u32, reference: fn(u32, u32) -> u32) {
    let pairs = corner_pairs();
    let got = eval_rr(make, &pairs);
    for (&(x, y), g) in pairs.iter().zip(got) {
        assert_eq!(g, reference(x, y), "{name} {x:#x}, {y:#x}");
    }
}

fn s(v: u32) -> i64 {
    v as i32 as i64
}
fn u(v: u32) -> i64 {
    v as i64
}

fn div_ref(x: u32, y: u32) -> u32 {
    if y == 0 {
        u32::MAX
    } else if x == MIN && y == M1 {
        MIN
    } else {
        (s(x) / s(y)) as u32
    }
}
fn rem_ref(x: u32, y: u32) -> u32 {
    if y == 0 {
        x
    } else if x == MIN && y == M1 {
        0
    } else {
        (s(x) % s(y)) as u32
    }
}

#[test]
fn mul_family() {
    check("mul", enc::mul, |x, y| (s(x) * s(y)) as u32);
    check("mulh", enc::mulh, |x, y| ((s(x) * s(y)) >> 32) as u32);
    check("mulhsu", enc::mulhsu, |x, y| {
        ((s(x) as i128 * u(y) as i128) >> 32) as u32
    });
    check("mulhu", enc::mulhu, |x, y| {
        ((x as u64 * y as u64) >> 32) as u32
    });
}

#[test]
fn mul_corners_spelled_out() {
    let pairs = [(M1, M1), (MIN, M1), (MIN, MIN), (M1, 2)];
    assert_eq!(eval_rr(enc::mul, &pairs), vec![1, MIN, 0, 0xffff_fffe]);
    assert_eq!(eval_rr(enc::mulh, &pairs), vec![0, 0, 0x4000_0000, M1]);
    // mulhsu: rs1 signed, rs2 unsigned: -1 * 0xffffffff = -0xffffffff -> high word 0xffffffff;
    // -2^31 * (2^32 - 1) = -2^63 + 2^31 -> high word -2^31
    assert_eq!(eval_rr(enc::mulhsu, &pairs), vec![M1, MIN, 0xc000_0000, M1]);
    assert_eq!(
        eval_rr(enc::mulhu, &pairs),
        vec![0xffff_fffe, 0x7fff_ffff, 0x4000_0000, 1]
    );
}

#[test]
fn div_family() {
    check("div", enc::div, div_ref);
    check("divu", enc::divu, |x, y| {
        x.checked_div(y).unwrap_or(u32::MAX)
    });
    check("rem", enc::rem, rem_ref);
    check("remu", enc::remu, |x, y| if y == 0 { x } else { x % y });
}

#[test]
fn div_corners_spelled_out() {
    let pairs = [
        (7, 0),
        (MIN, M1),
        (M1, 0),
        (0xffff_fff9, 2),
        (7, 0xffff_fffe),
    ];
    assert_eq!(
        eval_rr(enc::div, &pairs),
        vec![M1, MIN, M1, 0xffff_fffd, 0xffff_fffd]
    );
    assert_eq!(eval_rr(enc::divu, &pairs), vec![M1, 0, M1, 0x7fff_fffc, 0]);
    assert_eq!(eval_rr(enc::rem, &pairs), vec![7, 0, M1, M1, 1]);
    assert_eq!(eval_rr(enc::remu, &pairs), vec![7, MIN, M1, 1, 7]);
}

#[test]
fn m_ops_with_rd_equal_source_and_x0() {
    let a = prog(|a| {
        a.li(A0, 6).li(A1, 7);
        a.i(enc::mul(A0, A0, A1)); // a0 = 42
        a.i(enc::div(A1, A0, A1)); // a1 = 6
        a.i(enc::rem(0, A0, A1));
        a.i(enc::mulhu(0, A0, A1));
    });
    let s = run(&a);
    assert_eq!(s.x(A0), 42);
    assert_eq!(s.x(A1), 6);
    assert_eq!(s.hart.x[0], 0);
}
