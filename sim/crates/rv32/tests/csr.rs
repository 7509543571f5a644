//! Zicsr and the CSR set of Ibex (simple_system: no PMP, no debug triggers, 10 hardware
//! performance counters of 40 bits): reset values, write masks, read-only and unimplemented
//! CSRs, and the counters (mcycle, minstret, mcountinhibit, mhpmcounter/mhpmevent).
//! Reference: RISC-V privileged spec and Ibex rtl/ibex_cs_registers.sv.
mod common;
use common::*;

/// A handler at mtvec that records mcause in t1 and skips the faulting (32-bit) instruction.
fn skip_handler(a: &mut Asm) {
    a.at(TRAP_BASE).label("trap");
    a.i(enc::csrr(T1, MCAUSE))
        .i(enc::csrr(T2, MEPC))
        .i(enc::addi(T2, T2, 4))
        .i(enc::csrw(MEPC, T2))
        .i(enc::mret());
    a.at(RESET_PC);
}

/// For each CSR address, execute `make(csr)` with t1 cleared before; store t1 (mcause if it
/// trapped, else 0) as a byte per address. Returns the causes.
fn probe(addrs: &[u32], make: impl Fn(u32) -> u32, setup: impl Fn(&mut Asm)) -> Vec<u8> {
    let mut out = Vec::new();
    for chunk in addrs.chunks(1024) {
        let mut a = Asm::new();
        skip_handler(&mut a);
        setup(&mut a);
        a.li(S0, DATA);
        for &c in chunk {
            a.i(enc::addi(T1, 0, 0))
                .i(make(c))
                .i(enc::sb(T1, S0, 0))
                .i(enc::addi(S0, S0, 1));
        }
        a.end();
        let s = run(&a);
        out.extend((0..chunk.len()).map(|k| s.bus.r8(DATA + k as u32)));
    }
    out
}

/// The CSRs Ibex implements in this configuration (readable in M-mode).
fn implemented(c: u32) -> bool {
    matches!(c,
        0x300 | 0x301 | 0x304 | 0x305 | 0x306 | 0x30a | 0x310 | 0x31a | 0x320 | 0x323..=0x33f
        | 0x340..=0x344 | 0x7c0 | 0x7c1
        | 0xb00 | 0xb02..=0xb1f | 0xb80 | 0xb82..=0xb9f
        | 0xc00 | 0xc02..=0xc1f | 0xc80 | 0xc82..=0xc9f
        | 0xf11..=0xf15)
}

#[test]
fn every_csr_address_read_legality_in_m_mode() {
    let all: Vec<u32> = (0..4096).collect();
    let got = probe(&all, |c| enc::csrr(A0, c), |_| {});
    for c in 0..4096u32 {
        let want = if implemented(c) { 0 } else { 2 };
        assert_eq!(got[c as usize], want, "csrr {c:#05x}");
    }
}

#[test]
fn every_csr_address_write_legality_in_m_mode() {
    // csrrs with a nonzero rs1 register holding 0 is a write of the unchanged value
    let all: Vec<u32> = (0..4096).collect();
    let got = probe(&all, |c| enc::csrrs(A0, c, T3), |_| {});
    for c in 0..4096u32 {
        let want = if implemented(c) && c >> 10 != 3 { 0 } else { 2 };
        assert_eq!(got[c as usize], want, "csrrs {c:#05x}, t3(=0)");
    }
}

#[test]
fn named_unimplemented_csrs_are_illegal() {
    let list = [
        0x7a0, 0x7a1, 0x7a2, 0x7a3, 0x7a8, // tselect, tdata1..3, mcontext (no debug triggers)
        0x7b0, 0x7b1, 0x7b2, 0x7b3, // dcsr, dpc, dscratch0/1 outside debug mode
        0x3a0, 0x3a3, 0x3b0, 0x3bf, 0x747, 0x757, // pmpcfg, pmpaddr, mseccfg(h): PMP off
        0xb01, 0xb81, 0xc01, 0xc81, // no time
        0x7c2, 0x7c3, 0x000, 0x001, 0x003, 0x100, 0x180, 0x302, 0x303, 0x30b, 0x321, 0x322, 0x345,
        0x34a, 0x34b, 0x5a8, 0x7d0, 0xbc0, 0xbc1, 0xfc0,
    ];
    let got = probe(&list, |c| enc::csrr(A0, c), |_| {});
    for (k, c) in list.iter().enumerate() {
        assert_eq!(got[k], 2, "csrr {c:#05x}");
    }
    let got = probe(&list, |c| enc::csrrw(0, c, 0), |_| {});
    for (k, c) in list.iter().enumerate() {
        assert_eq!(got[k], 2, "csrw {c:#05x}");
    }
}

#[test]
fn read_only_csrs_read_but_refuse_writes() {
    let ro = [
        MVENDORID, MARCHID, MIMPID, MHARTID, 0xf15, CYCLE, INSTRET, 0xc03, 0xc0c, 0xc1f, 0xc80,
        0xc82, 0xc9f,
    ];
    let reads = probe(&ro, |c| enc::csrr(A0, c), |_| {});
    assert!(reads.iter().all(|&x| x == 0), "{reads:?}");
    // csrrs/csrrc with rs1 = x0 and csrrsi/csrrci with uimm = 0 do not write
    let noop = probe(&ro, |c| enc::csrrci(A0, c, 0), |_| {});
    assert!(noop.iter().all(|&x| x == 0), "{noop:?}");
    let noop = probe(&ro, |c| enc::csrrc(A0, c, 0), |_| {});
    assert!(noop.iter().all(|&x| x == 0), "{noop:?}");
    for make in [
        (|c| enc::csrrw(0, c, 0)) as fn(u32) -> u32,
        |c| enc::csrrw(A0, c, A0),
        |c| enc::csrrwi(0, c, 0),
        |c| enc::csrrsi(A0, c, 1),
        |c| enc::csrrc(A0, c, A1),
    ] {
        let w = probe(&ro, make, |_| {});
        assert!(w.iter().all(|&x| x == 2), "{w:?}");
    }
}

#[test]
fn reset_values() {
    let csrs = [
        MISA,
        MARCHID,
        MVENDORID,
        MIMPID,
        MHARTID,
        MTVEC,
        MSTATUS,
        MIE,
        MIP,
        MEPC,
        MCAUSE,
        MTVAL,
        MSCRATCH,
        MSTATUSH,
        MCOUNTINHIBIT,
        0x30a,
        0x31a,
        0xf15,
    ];
    let a = prog(|a| {
        a.li(S0, DATA);
        for (k, &c) in csrs.iter().enumerate() {
            a.i(enc::csrr(A0, c)).i(enc::sw(A0, S0, 4 * k as i32));
        }
    });
    let s = run(&a);
    let want = [
        0x4010_1104,
        22,
        0,
        0,
        0,
        0x0010_0001,
        0x80,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
    ];
    for (k, &c) in csrs.iter().enumerate() {
        assert_eq!(s.bus.r32(DATA + 4 * k as u32), want[k], "CSR {c:#05x}");
    }
    assert_eq!(s.hart.csr.mtvec, 0x0010_0001);
    assert_eq!(s.hart.csr.mstatus, 0x80);
}

/// Write `v` to `csr` with csrrw, read it back with csrr.
fn write_read(csr: u32, vals: &[u32]) -> Vec<u32> {
    let a = prog(|a| {
        a.li(S0, DATA);
        for (k, &v) in vals.iter().enumerate() {
            a.li(A0, v)
                .i(enc::csrrw(A2, csr, A0))
                .i(enc::csrr(A1, csr))
                .i(enc::sw(A1, S0, 4 * k as i32));
        }
    });
    let s = run(&a);
    (0..vals.len())
        .map(|k| s.bus.r32(DATA + 4 * k as u32))
        .collect()
}

#[test]
fn mtvec_keeps_vectored_mode_and_256_byte_alignment() {
    // the last write restores a usable vector base
    let got = write_read(
        MTVEC,
        &[
            0x0001_2345,
            0xffff_ffff,
            0,
            0x0010_0000,
            0x0010_00fe,
            0x0010_0000,
        ],
    );
    assert_eq!(
        got,
        vec![
            0x0001_2301,
            0xffff_ff01,
            1,
            0x0010_0001,
            0x0010_0001,
            0x0010_0001
        ]
    );
}

#[test]
fn mepc_clears_bit_0_mscratch_mtval_keep_everything() {
    assert_eq!(
        write_read(MEPC, &[0x0123_4567, 0xffff_ffff, 2]),
        vec![0x0123_4566, 0xffff_fffe, 2]
    );
    assert_eq!(
        write_read(MSCRATCH, &[0xffff_ffff, 0x1234_5679]),
        vec![0xffff_ffff, 0x1234_5679]
    );
    assert_eq!(
        write_read(MTVAL, &[0xffff_ffff, 0x8000_0001]),
        vec![0xffff_ffff, 0x8000_0001]
    );
}

#[test]
fn mstatus_write_mask_and_mpp_legalization() {
    let got = write_read(
        MSTATUS,
        &[
            0xffff_fff7,
            0x1000,
            0x0800,
            0x1800,
            0x0002_0080,
            0x0020_0000,
            0,
        ],
    );
    // MIE (bit 3) is kept 0 here so that no interrupt can fire; the full mask is checked below
    assert_eq!(
        got,
        vec![0x0022_1880, 0, 0, 0x1800, 0x0002_0080, 0x0020_0000, 0]
    );
    let got = write_read(MSTATUS, &[0xffff_ffff]);
    assert_eq!(got, vec![0x0022_1888]);
}

#[test]
fn mie_keeps_only_implemented_interrupt_bits() {
    assert_eq!(
        write_read(MIE, &[0xffff_ffff, 0x0000_0888, 0x8000_0000, 0x7777]),
        vec![0x7fff_0888, 0x888, 0, 0x0888 & 0x7777]
    );
}

#[test]
fn mcause_keeps_interrupt_flag_and_5_bit_cause() {
    assert_eq!(
        write_read(
            MCAUSE,
            &[
                0x8000_000b,
                0xffff_ffff,
                0x7fff_ffff,
                0x0000_0002,
                0xc000_0010,
                0x8000_ffff
            ]
        ),
        vec![0x8000_000b, 0xffff_ffff, 0x1f, 2, 0xffff_fff0, 0x8000_001f]
    );
}

#[test]
fn read_only_in_writable_space_ignores_writes() {
    // misa, mstatush, menvcfg(h), mip: writes are legal and have no effect
    assert_eq!(write_read(MISA, &[0]), vec![0x4010_1104]);
    assert_eq!(write_read(MSTATUSH, &[0xffff_ffff]), vec![0]);
    assert_eq!(write_read(0x30a, &[0xffff_ffff]), vec![0]);
    assert_eq!(write_read(MIP, &[0xffff_ffff]), vec![0]);
}

#[test]
fn mip_reads_the_interrupt_lines() {
    let a = prog(|a| {
        a.i(enc::csrr(A0, MIP));
    });
    let mut s = Sim::new(&a);
    s.hart.mip = 0xffff_ffff;
    s.run();
    assert_eq!(s.x(A0), 0x7fff_0888);
}

#[test]
fn csr_instruction_variants() {
    let a = prog(|a| {
        a.li(A0, 0xf0f0).i(enc::csrw(MSCRATCH, A0));
        a.li(A1, 0x0ff0).i(enc::csrrs(S2, MSCRATCH, A1)); // s2 = old, scratch |= a1
        a.i(enc::csrr(S3, MSCRATCH));
        a.li(A1, 0x00f0).i(enc::csrrc(S4, MSCRATCH, A1));
        a.i(enc::csrr(S5, MSCRATCH));
        a.i(enc::csrrwi(S6, MSCRATCH, 31))
            .i(enc::csrr(S7, MSCRATCH));
        a.i(enc::csrrsi(0, MSCRATCH, 0x20 - 1))
            .i(enc::csrrci(S8, MSCRATCH, 3))
            .i(enc::csrr(S9, MSCRATCH));
        // rd == rs1: the old value goes to rd, the write uses the old rs1
        a.li(T0, 0x55)
            .i(enc::csrrw(T0, MSCRATCH, T0))
            .i(enc::csrr(T1, MSCRATCH));
    });
    let s = run(&a);
    assert_eq!(s.x(S2), 0xf0f0);
    assert_eq!(s.x(S3), 0xfff0);
    assert_eq!(s.x(S4), 0xfff0);
    assert_eq!(s.x(S5), 0xff00);
    assert_eq!(s.x(S6), 0xff00);
    assert_eq!(s.x(S7), 31);
    assert_eq!(s.x(S8), 31);
    assert_eq!(s.x(S9), 28);
    assert_eq!(s.x(T0), 28);
    assert_eq!(s.x(T1), 0x55);
}

// ---------------------------------------------------------------------------------------------
// Counters

#[test]
fn mcycle_and_minstret_count() {
    let a = prog(|a| {
        a.i(enc::csrr(A0, MCYCLE)).i(enc::csrr(A1, MINSTRET));
        for _ in 0..10 {
            a.nop();
        }
        a.i(enc::csrr(A2, MCYCLE)).i(enc::csrr(A3, MINSTRET));
        a.i(enc::csrr(A4, MCYCLEH)).i(enc::csrr(A5, MINSTRETH));
        a.i(enc::csrr(A6, CYCLE)).i(enc::csrr(A7, INSTRET));
    });
    let s = run(&a);
    assert_eq!(s.x(A2) - s.x(A0), 12);
    assert_eq!(s.x(A3) - s.x(A1), 12);
    assert_eq!(s.x(A4), 0);
    assert_eq!(s.x(A5), 0);
    assert_eq!(s.x(A6), s.x(A2) + 4, "cycle shadows mcycle");
    assert_eq!(s.x(A7), s.x(A3) + 4, "instret shadows minstret");
    // minstret starts at 0; mcycle is small (the first instruction enters decode at cycle 4)
    assert!(
        s.x(A0) <= 5,
        "mcycle read by the first instruction: {}",
        s.x(A0)
    );
    assert_eq!(s.x(A1), 1, "minstret read by the second instruction");
    assert_eq!(s.hart.counter(0), s.hart.cycle);
    assert_eq!(s.hart.counter(2), s.hart.instret);
}

#[test]
fn mcountinhibit_freezes_and_unfreezes() {
    let a = prog(|a| {
        a.li(T0, 0xffff_ffff)
            .i(enc::csrrw(S2, MCOUNTINHIBIT, T0))
            .i(enc::csrr(S3, MCOUNTINHIBIT));
        a.i(enc::csrr(A0, MCYCLE))
            .i(enc::csrr(A1, MINSTRET))
            .i(enc::csrr(S4, 0xb05));
        for _ in 0..10 {
            a.nop();
        }
        a.li(S0, DATA).i(enc::lw(T1, S0, 0));
        a.i(enc::csrr(A2, MCYCLE))
            .i(enc::csrr(A3, MINSTRET))
            .i(enc::csrr(S5, 0xb05));
        a.i(enc::csrrwi(0, MCOUNTINHIBIT, 0));
        a.i(enc::csrr(A4, MCYCLE)).i(enc::csrr(A5, MINSTRET));
        a.nop().nop();
        a.i(enc::csrr(A6, MCYCLE)).i(enc::csrr(A7, MINSTRET));
    });
    let s = run(&a);
    assert_eq!(s.x(S2), 0, "mcountinhibit resets to 0");
    assert_eq!(
        s.x(S3),
        0x1ffd,
        "bits 0 and 2..12 exist, bit 1 is hardwired 0"
    );
    assert_eq!(s.x(A2), s.x(A0), "mcycle frozen");
    assert_eq!(s.x(A3), s.x(A1), "minstret frozen");
    assert_eq!(s.x(S5), s.x(S4), "loads counter frozen");
    // between the two reads: csrr a3 (inhibited), the csrrwi itself (its retirement is not
    // counted: the write takes effect after it), csrr a4 (counted)
    assert_eq!(s.x(A5), s.x(A3) + 1, "minstret resumes after the write");
    assert!(
        s.x(A4) - s.x(A2) <= 3,
        "mcycle resumes: {} -> {}",
        s.x(A2),
        s.x(A4)
    );
    assert_eq!(s.x(A6) - s.x(A4), 4);
    assert_eq!(s.x(A7) - s.x(A5), 4);
}

#[test]
fn mcycle_and_minstret_are_64_bit_and_writable() {
    let a = prog(|a| {
        a.li(T0, 0xffff_fff0).li(T1, 0x1234);
        a.i(enc::csrw(MCYCLEH, T1)).i(enc::csrw(MCYCLE, T0));
        a.i(enc::csrw(MINSTRETH, T1)).i(enc::csrw(MINSTRET, T0));
        a.i(enc::csrr(S2, MCYCLE)).i(enc::csrr(S3, MCYCLEH));
        for _ in 0..20 {
            a.nop();
        }
        a.i(enc::csrr(A0, MCYCLE))
            .i(enc::csrr(A1, MCYCLEH))
            .i(enc::csrr(A2, MINSTRET))
            .i(enc::csrr(A3, MINSTRETH));
    });
    let s = run(&a);
    assert!(
        (0xffff_fff0..=0xffff_fff8).contains(&s.x(S2)),
        "mcycle after write: {:#x}",
        s.x(S2)
    );
    assert_eq!(s.x(S3), 0x1234);
    assert_eq!(s.x(A1), 0x1235, "carry into mcycleh");
    assert_eq!(s.x(A3), 0x1235, "carry into minstreth");
    // minstret: written to 0xfffffff0 by the 4th csrw, then 2 csrr + 20 nop + 2 csrr retire
    assert_eq!(s.x(A2), 0xffff_fff0u32.wrapping_add(2 + 20 + 2 + 1 - 1));
    assert_eq!(s.hart.counter(2) >> 32, 0x1235);
}

#[test]
fn minstret_write_takes_effect_for_the_next_instruction() {
    let a = prog(|a| {
        a.li(T0, 100)
            .i(enc::csrw(MINSTRET, T0))
            .i(enc::csrr(A0, MINSTRET))
            .i(enc::csrr(A1, MINSTRET));
    });
    let s = run(&a);
    assert_eq!(
        s.x(A0),
        100,
        "the csrw's own retirement does not count on top of the written value"
    );
    assert_eq!(s.x(A1), 101);
}

#[test]
fn mhpmevent_selectors_are_one_hot_for_counters_3_to_12() {
    let ev: Vec<u32> = (0x323..=0x33f).collect();
    let a = prog(|a| {
        a.li(S0, DATA);
        for (k, &c) in ev.iter().enumerate() {
            a.i(enc::csrr(A0, c)).i(enc::sw(A0, S0, 4 * k as i32));
        }
        a.li(T0, 0xffff_ffff)
            .i(enc::csrw(0x323, T0))
            .i(enc::csrr(A1, 0x323)); // write ignored
    });
    let s = run(&a);
    for (k, &c) in ev.iter().enumerate() {
        let idx = c - 0x320;
        let want = if idx <= 12 { 1 << (idx - 3) } else { 0 };
        assert_eq!(s.bus.r32(DATA + 4 * k as u32), want, "mhpmevent{idx}");
    }
    assert_eq!(s.x(A1), 1);
}

#[test]
fn mhpmcounters_past_12_read_zero_and_ignore_writes() {
    let ctrs: Vec<u32> = (0xb0d..=0xb1f)
        .chain(0xb8d..=0xb9f)
        .chain(0xc0d..=0xc1f)
        .collect();
    let a = prog(|a| {
        a.li(S0, DATA).li(T0, 0xffff_ffff);
        for (k, &c) in ctrs.iter().enumerate() {
            if c < 0xc00 {
                a.i(enc::csrw(c, T0));
            }
            a.i(enc::csrr(A0, c)).i(enc::sw(A0, S0, 4 * k as i32));
        }
    });
    let s = run(&a);
    for (k, &c) in ctrs.iter().enumerate() {
        assert_eq!(s.bus.r32(DATA + 4 * k as u32), 0, "{c:#05x}");
    }
}

#[test]
fn hpm_counters_are_40_bits_wide() {
    let a = prog(|a| {
        a.li(T0, 0xffff_ffff);
        a.i(enc::csrw(0xb83, T0))
            .i(enc::csrr(A0, 0xb83))
            .i(enc::csrr(A1, 0xc83));
        a.i(enc::csrw(0xb8c, T0))
            .i(enc::csrw(0xb0c, T0))
            .i(enc::csrr(A2, 0xb0c))
            .i(enc::csrr(A3, 0xb8c));
    });
    let s = run(&a);
    assert_eq!(s.x(A0), 0xff);
    assert_eq!(s.x(A1), 0xff);
    // counter 12 counts divide wait cycles: no divide ran, the value stays as written
    assert_eq!(s.x(A2), 0xffff_ffff);
    assert_eq!(s.x(A3), 0xff);
}

#[test]
fn hpm_counters_count_loads_stores_jumps_branches_compressed() {
    let a = prog(|a| {
        a.li(S0, DATA);
        for c in [0xb05, 0xb06, 0xb07, 0xb08, 0xb09, 0xb0a] {
            a.i(enc::csrr(0, c));
        }
        a.label("m0");
        a.i(enc::csrr(S2, 0xb05))
            .i(enc::csrr(S3, 0xb06))
            .i(enc::csrr(S4, 0xb07));
        a.i(enc::csrr(S5, 0xb08))
            .i(enc::csrr(S6, 0xb09))
            .i(enc::csrr(S7, 0xb0a));
        // 4 loads, 3 stores, 5 compressed, 2 jumps, 3 branches of which 1 taken
        a.i(enc::lw(T0, S0, 0))
            .i(enc::lb(T0, S0, 1))
            .i(enc::lhu(T0, S0, 2))
            .c(cenc::lw(A0, S0, 4));
        a.i(enc::sw(T0, S0, 8))
            .i(enc::sb(T0, S0, 9))
            .c(cenc::sw(A0, S0, 12));
        a.c(cenc::nop()).c(cenc::addi(A1, 1)).c(cenc::nop());
        a.i(enc::jal(0, 4)).i(enc::jal(0, 4));
        a.i(enc::beq(0, 0, 4))
            .i(enc::bne(0, 0, 4))
            .i(enc::blt(0, 0, 4));
        a.i(enc::csrr(A2, 0xb05))
            .i(enc::csrr(A3, 0xb06))
            .i(enc::csrr(A4, 0xb07));
        a.i(enc::csrr(A5, 0xb08))
            .i(enc::csrr(A6, 0xb09))
            .i(enc::csrr(A7, 0xb0a));
    });
    let s = run(&a);
    assert_eq!(s.x(A2) - s.x(S2), 4, "mhpmcounter5 (loads)");
    assert_eq!(s.x(A3) - s.x(S3), 3, "mhpmcounter6 (stores)");
    assert_eq!(s.x(A4) - s.x(S4), 2, "mhpmcounter7 (jumps)");
    assert_eq!(s.x(A5) - s.x(S5), 3, "mhpmcounter8 (branches)");
    assert_eq!(s.x(A6) - s.x(S6), 1, "mhpmcounter9 (taken branches)");
    assert_eq!(s.x(A7) - s.x(S7), 5, "mhpmcounter10 (compressed)");
    assert_eq!(s.hart.counter(10), s.x(A7) as u64);
}

#[test]
fn mul_and_div_wait_counters() {
    let a = prog(|a| {
        a.li(A0, 100).li(A1, 7);
        a.i(enc::csrr(S2, 0xb0b)).i(enc::csrr(S3, 0xb0c));
        a.i(enc::mul(T0, A0, A1)).i(enc::div(T1, A0, A1));
        a.i(enc::csrr(S4, 0xb0b)).i(enc::csrr(S5, 0xb0c));
    });
    let s = run(&a);
    // each counts the cycles the instruction stalls beyond its first
    assert_eq!(s.x(S4) - s.x(S2), 2);
    assert_eq!(s.x(S5) - s.x(S3), 36);
}

#[test]

fn mcounteren_is_writable_like_the_rtl() {
    assert_eq!(write_read(MCOUNTEREN, &[0xffff_ffff, 0]), vec![0x1ffd, 0]);
}
