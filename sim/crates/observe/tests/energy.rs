//! The energy model and attribution on hand-assembled programs: energies equal the formula
//! of docs/energy.md to the picojoule, V^2 scaling and the settle cost, category sums equal
//! the totals, and observation changes nothing the machine does.

use machine::config::{MachineConfig, RAM_BASE};
use machine::elf::{Image, Section, Segment, Symbol};
use machine::{Machine, Outcome};
use observe::{Category, EnergyObserver, Results};
use std::sync::atomic::AtomicBool;

// ---- a tiny assembler -------------------------------------------------------------------

fn i_type(op: u32, f3: u32, rd: u32, rs1: u32, imm: i32) -> u32 {
    ((imm as u32 & 0xfff) << 20) | rs1 << 15 | f3 << 12 | rd << 7 | op
}
fn addi(rd: u32, rs1: u32, imm: i32) -> u32 {
    i_type(0x13, 0, rd, rs1, imm)
}
fn lw(rd: u32, rs1: u32, imm: i32) -> u32 {
    i_type(0x03, 2, rd, rs1, imm)
}
fn sw(rs2: u32, rs1: u32, imm: i32) -> u32 {
    let imm = imm as u32;
    ((imm >> 5) & 0x7f) << 25 | rs2 << 20 | rs1 << 15 | 2 << 12 | (imm & 0x1f) << 7 | 0x23
}
fn r_type(f7: u32, f3: u32, rd: u32, rs1: u32, rs2: u32) -> u32 {
    f7 << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | rd << 7 | 0x33
}
fn mul(rd: u32, rs1: u32, rs2: u32) -> u32 {
    r_type(1, 0, rd, rs1, rs2)
}
fn div(rd: u32, rs1: u32, rs2: u32) -> u32 {
    r_type(1, 4, rd, rs1, rs2)
}
fn lui(rd: u32, imm20: u32) -> u32 {
    imm20 << 12 | rd << 7 | 0x37
}
fn b_type(f3: u32, rs1: u32, rs2: u32, off: i32) -> u32 {
    let o = off as u32;
    ((o >> 12) & 1) << 31
        | ((o >> 5) & 0x3f) << 25
        | rs2 << 20
        | rs1 << 15
        | f3 << 12
        | ((o >> 1) & 0xf) << 8
        | ((o >> 11) & 1) << 7
        | 0x63
}
fn bne(rs1: u32, rs2: u32, off: i32) -> u32 {
    b_type(1, rs1, rs2, off)
}
fn jal(rd: u32, off: i32) -> u32 {
    let o = off as u32;
    ((o >> 20) & 1) << 31
        | ((o >> 1) & 0x3ff) << 21
        | ((o >> 11) & 1) << 20
        | ((o >> 12) & 0xff) << 12
        | rd << 7
        | 0x6f
}
fn jalr(rd: u32, rs1: u32, imm: i32) -> u32 {
    i_type(0x67, 0, rd, rs1, imm)
}

const CODE: u32 = RAM_BASE + 0x80;

/// An image with `code` at the reset PC, optional symbols and one `.text` section over it.
fn image(code: &[u32], symbols: Vec<Symbol>) -> Image {
    let mut data = vec![0u8; 0x80];
    for w in code {
        data.extend_from_slice(&w.to_le_bytes());
    }
    let size = data.len() as u32 - 0x80;
    Image {
        entry: CODE,
        segments: vec![Segment {
            addr: RAM_BASE,
            data,
        }],
        sections: if symbols.is_empty() {
            vec![]
        } else {
            vec![Section {
                name: ".text".into(),
                addr: CODE,
                size,
                executable: true,
            }]
        },
        symbols,
    }
}

/// halt: SIMCTRL.CTRL = 1 (an MMIO store).
fn halt() -> Vec<u32> {
    vec![lui(11, 0x20), addi(12, 0, 1), sw(12, 11, 8)]
}

fn run<const T: bool>(cfg: &MachineConfig, img: &Image) -> (Machine, Results, Outcome) {
    let mut m = Machine::new(cfg, img, 1, Box::new(std::io::sink()));
    let mut o = EnergyObserver::<T>::for_image(img, RAM_BASE, cfg);
    let out = m.run_with(Some(50_000_000), &AtomicBool::new(false), &mut o);
    let r = o.finish(m.hart.observed_at());
    (m, r, out)
}

fn run_bare(cfg: &MachineConfig, img: &Image) -> (Machine, Outcome) {
    let mut m = Machine::new(cfg, img, 1, Box::new(std::io::sink()));
    let out = m.run(Some(50_000_000), &AtomicBool::new(false));
    (m, out)
}

fn assert_sums(r: &Results, m: &Machine) {
    let c: u64 = r.by_category.iter().map(|s| s.cycles).sum();
    let i: u64 = r.by_category.iter().map(|s| s.instret).sum();
    let e: f64 = r.by_category.iter().map(|s| s.energy_j).sum();
    assert_eq!(c, m.hart.cycle, "category cycles sum to the elapsed cycles");
    assert_eq!(i, m.hart.instret, "category instret sums to instret");
    assert_eq!(c, r.total.cycles);
    assert_eq!(i, r.total.instret);
    assert_eq!(e, r.total.energy_j, "category energies sum to the total");
    let fc: u64 = r.functions.iter().map(|f| f.2.cycles).sum();
    let fi: u64 = r.functions.iter().map(|f| f.2.instret).sum();
    assert_eq!(
        fc, m.hart.cycle,
        "function cycles sum to the elapsed cycles"
    );
    assert_eq!(fi, m.hart.instret, "function instret sums to instret");
}

/// The loop of the first test: 10 iterations of sw, lw, mul, div, addi, bne.
fn loop_program() -> Vec<u32> {
    let mut p = vec![lui(5, 0x100), addi(6, 0, 10), addi(7, 0, 7)];
    p.extend([
        sw(7, 5, 0x400),
        lw(8, 5, 0x400),
        mul(9, 8, 7),
        div(10, 9, 7),
        addi(6, 6, -1),
        bne(6, 0, -20),
    ]);
    p.extend(halt());
    p
}

#[test]
fn energy_of_a_known_sequence_is_the_formula_to_the_picojoule() {
    let cfg = MachineConfig::default();
    let img = image(&loop_program(), vec![]);
    let (m, r, out) = run::<false>(&cfg, &img);
    assert_eq!(out, Outcome::Halted(1));
    // 3 + 10 * 6 + 3 instructions.
    assert_eq!(m.hart.instret, 66);
    // Class energy (pJ at 1.2 V): per iteration sw 10 + lw 10 + mul 3 + div 0.5 * 37 +
    // bne 1 (taken or not); the final store to SIMCTRL is an MMIO access (2); ALU 0.
    let class_pj = 10.0 * (10.0 + 10.0 + 3.0 + 0.5 * 37.0 + 1.0) + 2.0;
    // Every cycle (reset to halt): E_cycle 12 pJ + leakage 5 uW / 100 MHz = 0.05 pJ.
    let expect_pj = m.hart.cycle as f64 * (12.0 + 0.05) + class_pj;
    let got_pj = r.total.energy_j * 1e12;
    assert!(
        (got_pj - expect_pj).abs() < 1.0,
        "energy {got_pj} pJ, formula {expect_pj} pJ ({} cycles)",
        m.hart.cycle
    );
    assert!(
        (got_pj - expect_pj).abs() < 1e-6,
        "and much closer: {got_pj} vs {expect_pj}"
    );
    assert_sums(&r, &m);
    assert_eq!(r.category(Category::User).cycles, m.hart.cycle);
}

#[test]
fn class_energies_follow_the_machine_file() {
    let mut cfg = MachineConfig::default();
    cfg.energy.e_cycle_pj = 0.0;
    cfg.energy.leak_w = 0.0;
    cfg.energy.e_alu_pj = 0.25;
    cfg.energy.e_mem_pj = 7.0;
    cfg.energy.e_mmio_pj = 100.0;
    cfg.energy.e_mul_pj = 5.0;
    cfg.energy.e_div_cycle_pj = 1.0;
    cfg.energy.e_branch_pj = 2.0;
    let img = image(&loop_program(), vec![]);
    let (_, r, _) = run::<false>(&cfg, &img);
    // ALU: lui + 2 addi, 10 addi, lui + addi = 15.
    let expect = 15.0 * 0.25 + 10.0 * (7.0 + 7.0 + 5.0 + 37.0 + 2.0) + 100.0;
    let got = r.total.energy_j * 1e12;
    assert!(
        (got - expect).abs() < 1e-6,
        "class energy {got} pJ, expected {expect}"
    );
}

#[test]
fn observation_changes_nothing() {
    let cfg = MachineConfig::default();
    let img = image(&loop_program(), vec![]);
    let (mut a, out_a) = run_bare(&cfg, &img);
    let (mut b, _, out_b) = run::<false>(&cfg, &img);
    let (mut c, _, out_c) = run::<true>(&cfg, &img);
    assert_eq!(out_a, out_b);
    assert_eq!(out_a, out_c);
    assert_eq!(a.counts(), b.counts());
    assert_eq!(a.counts(), c.counts());
    assert_eq!(a.hart.x, b.hart.x);
    assert_eq!(a.hart.ev, c.hart.ev);
    assert_eq!(a.hart.pc, c.hart.pc);
}

/// A program that selects operating point `to` (if any), waits until the switch is done,
/// runs `n` iterations of a 2-instruction loop and halts.
fn dvfs_program(to: Option<u32>, n: i32) -> Vec<u32> {
    let mut p = vec![lui(5, 0x60)]; // POWER
    if let Some(to) = to {
        p.extend([
            addi(6, 0, to as i32),
            sw(6, 5, 0), // OPP_SELECT
            lw(7, 5, 4), // STATUS
            bne(7, 0, -4),
        ]);
    }
    p.extend([addi(8, 0, n), addi(8, 8, -1), bne(8, 0, -4)]);
    p.extend(halt());
    p
}

#[test]
fn dynamic_energy_scales_with_v_squared_and_leakage_with_v() {
    let mut cfg = MachineConfig::default();
    cfg.energy.e_branch_pj = 0.0;
    cfg.energy.e_mem_pj = 0.0;
    cfg.energy.e_mmio_pj = 0.0;
    let img = image(&dvfs_program(None, 1000), vec![]);
    let (m0, r0, _) = run::<false>(&cfg, &img);
    cfg.devices.power.initial_opp = 2; // 24 MHz, 0.85 V
    let (m2, r2, _) = run::<false>(&cfg, &img);
    assert_eq!(m0.hart.cycle, m2.hart.cycle, "same cycles at any frequency");
    let n = m0.hart.cycle as f64;
    let s = 0.85 / 1.2;
    let e0 = n * (12.0 + 5e-6 / 100e6 * 1e12);
    let e2 = n * (12.0 * s * s + 5e-6 * s / 24e6 * 1e12);
    assert!(
        (r0.total.energy_j * 1e12 - e0).abs() < 1e-6,
        "{} vs {e0}",
        r0.total.energy_j * 1e12
    );
    assert!(
        (r2.total.energy_j * 1e12 - e2).abs() < 1e-6,
        "{} vs {e2}",
        r2.total.energy_j * 1e12
    );
    // Less dynamic energy at the lower voltage, more leakage the longer it runs.
    let leak0 = n * 5e-6 / 100e6;
    let leak2 = n * 5e-6 * s / 24e6;
    assert!(leak2 > leak0);
    assert!(r2.total.energy_j < r0.total.energy_j);
}

#[test]
fn a_switch_costs_its_settle_time_at_the_old_point() {
    let mut cfg = MachineConfig::default();
    cfg.energy.e_branch_pj = 0.0;
    cfg.energy.e_mem_pj = 0.0;
    cfg.energy.e_mmio_pj = 0.0;
    cfg.energy.leak_w = 0.0;
    let img = image(&dvfs_program(Some(1), 5000), vec![]);
    let (mut m, r, out) = run::<true>(&cfg, &img);
    assert_eq!(out, Outcome::Halted(1));
    let counts = m.counts();
    // Cycles at each point, from the time spent there.
    let c0 = (counts.opp_time_s[0] * 100e6).round();
    let c1 = (counts.opp_time_s[1] * 66e6).round();
    assert_eq!(c0 + c1, m.hart.cycle as f64);
    let s = 1.05 / 1.2;
    let settle = 10e-6 * 100e6; // 10 us at the old 100 MHz
    assert!(c0 >= settle, "the core runs on through the settle time");
    let expect = 12.0 * c0 + 12.0 * s * s * c1 + 12.0 * settle;
    let got = r.total.energy_j * 1e12;
    assert!(
        (got - expect).abs() < 1e-6,
        "energy {got} pJ, expected {expect} pJ"
    );
    assert_sums(&r, &m);
}

#[test]
fn functions_calls_and_categories_from_symbols() {
    // main: calls f 3 times (jal ra), then halts. f: recursive once per call via a flag in
    // x20 (first call recurses, the inner call returns), and a kernel-section function k.
    //   0x00 main:  addi x9, x0, 3
    //   0x04 loop:  jal  ra, f          (f at 0x24)
    //   0x08        addi x9, x9, -1
    //   0x0c        bne  x9, x0, loop
    //   0x10        jal  ra, k          (k at 0x38)
    //   0x14..0x20  halt (3 words) + pad
    //   0x24 f:     bne  x20, x0, 1f (+12 -> 0x30)
    //   0x28        addi x20, x0, 1
    //   0x2c        jal  x0, f          (tail jump to own entry: not a call)
    //   0x30 1:     addi x20, x0, 0
    //   0x34        jalr x0, ra, 0
    //   0x38 k:     jalr x0, ra, 0
    let mut p = vec![
        addi(9, 0, 3),
        jal(1, 0x20),
        addi(9, 9, -1),
        bne(9, 0, -8),
        jal(1, 0x28),
    ];
    p.extend(halt());
    p.push(addi(0, 0, 0));
    p.extend([
        bne(20, 0, 12),
        addi(20, 0, 1),
        jal(0, -8),
        addi(20, 0, 0),
        jalr(0, 1, 0),
    ]);
    p.push(jalr(0, 1, 0));
    let sym = |name: &str, off: u32, size: u32| Symbol {
        name: name.into(),
        addr: CODE + off,
        size,
        is_func: true,
    };
    let mut img = image(
        &p,
        vec![
            sym("main", 0, 0x24),
            sym("f", 0x24, 0x14),
            sym("k", 0x38, 4),
        ],
    );
    img.sections = vec![
        Section {
            name: ".text".into(),
            addr: CODE,
            size: 0x38,
            executable: true,
        },
        Section {
            name: ".text.uk_ipc".into(),
            addr: CODE + 0x38,
            size: 4,
            executable: true,
        },
    ];
    let cfg = MachineConfig::default();
    let (m, r, out) = run::<false>(&cfg, &img);
    assert_eq!(out, Outcome::Halted(1));
    assert_sums(&r, &m);
    let get = |n: &str| r.functions.iter().find(|f| f.0 == n).unwrap();
    assert_eq!(get("main").1, 1, "main entered once (reset)");
    assert_eq!(
        get("f").1,
        3,
        "f called 3 times (its jump back to its entry is no call)"
    );
    assert_eq!(get("k").1, 1);
    // f: per call bne, addi, jal, bne, addi, jalr = 6 instructions.
    assert_eq!(get("f").2.instret, 18);
    assert_eq!(get("k").2.instret, 1);
    assert_eq!(r.category(Category::KernelIpc).instret, 1);
    assert_eq!(r.category(Category::KernelIpc).cycles, get("k").2.cycles);
    assert_eq!(
        r.category(Category::User).instret,
        m.hart.instret - 1,
        "everything else is user code"
    );
}
