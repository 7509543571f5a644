//! Cycle timing: one test per row of docs/timing.md, each measured twice — as the
//! `hart.cycle` delta and as the `mcycle` delta read by the program itself.
mod common;
use common::*;
use rv32::Exit;

/// Lays out: `setup`; (4-aligned) "m0": csrr s10, mcycle; `body`; "m1": csrr s11, mcycle;
/// end; then `extra` (handlers etc., placed wherever it likes). Returns the cost of `body` as
/// (hart.cycle delta, mcycle delta), both excluding the first csrr.
fn measure_with(
    setup: impl FnOnce(&mut Asm),
    body: impl FnOnce(&mut Asm),
    extra: impl FnOnce(&mut Asm),
) -> (u64, u64) {
    let mut a = prog(|a| {
        setup(a);
        a.align4();
        a.label("m0").i(enc::csrr(S10, MCYCLE));
        body(a);
        a.label("m1").i(enc::csrr(S11, MCYCLE));
    });
    extra(&mut a);
    let mut s = Sim::new(&a);
    s.run_to_label("m0");
    let c0 = s.hart.cycle;
    s.run_to_label("m1");
    let c1 = s.hart.cycle;
    s.run();
    let m = s.x(S11).wrapping_sub(s.x(S10)) as u64;
    (c1 - c0 - 1, m - 1)
}

fn measure(setup: impl FnOnce(&mut Asm), body: impl FnOnce(&mut Asm)) -> (u64, u64) {
    measure_with(setup, body, |_| {})
}

#[track_caller]
fn expect(what: &str, got: (u64, u64), want: u64) {
    assert_eq!(got.0, want, "{what}: hart.cycle delta");
    assert_eq!(got.1, want, "{what}: mcycle delta");
}

fn nothing(_: &mut Asm) {}

#[test]
fn csrr_mcycle_pair_differs_by_1() {
    let a = prog(|a| {
        a.i(enc::csrr(A0, MCYCLE)).i(enc::csrr(A1, MCYCLE));
        a.c(cenc::nop())
            .i(enc::csrr(A2, MCYCLE))
            .i(enc::csrr(A3, MCYCLE)); // at 2m4
    });
    let s = run(&a);
    assert_eq!(s.x(A1) - s.x(A0), 1);
    assert_eq!(s.x(A3) - s.x(A2), 1);
    expect("empty", measure(nothing, nothing), 0);
}

#[test]
fn alu_32_bit_one_cycle_each() {
    let ops = [
        enc::addi(A0, A0, 1),
        enc::add(A1, A0, A0),
        enc::sub(A1, A0, A1),
        enc::lui(A2, 5),
        enc::auipc(A3, 1),
        enc::slli(A1, A1, 3),
        enc::srai(A1, A1, 1),
        enc::sra(A1, A1, A0),
        enc::slt(A4, A1, A0),
        enc::sltiu(A4, A1, 9),
        enc::xor(A5, A1, A0),
        enc::andi(A5, A5, 7),
        enc::or(A5, A5, A0),
        enc::nop(),
        enc::csrr(A6, MSCRATCH),
        enc::fence(),
    ];
    for op in ops {
        expect(
            &format!("{op:#010x}"),
            measure(nothing, |a| {
                a.i(op);
            }),
            1,
        );
    }
    expect(
        "16 mixed",
        measure(nothing, |a| {
            for op in ops {
                a.i(op);
            }
        }),
        16,
    );
}

#[test]
fn alu_16_bit_one_cycle_each() {
    let ops = [
        cenc::addi(A0, 1),
        cenc::li(A1, -3),
        cenc::lui(A2, 3),
        cenc::mv(A3, A1),
        cenc::add(A3, A1),
        cenc::nop(),
        cenc::slli(A3, 2),
        cenc::srli(A3, 1),
        cenc::srai(A3, 1),
        cenc::andi(A3, 5),
        cenc::sub(A3, A1),
        cenc::xor(A3, A1),
        cenc::or(A3, A1),
        cenc::and(A3, A1),
        cenc::addi4spn(A4, 16),
        cenc::addi16sp(16),
    ];
    for op in ops {
        expect(
            &format!("{op:#06x}"),
            measure(nothing, |a| {
                a.c(op);
            }),
            1,
        );
    }
    expect(
        "16 compressed",
        measure(nothing, |a| {
            for op in ops {
                a.c(op);
            }
        }),
        16,
    );
}

#[test]
fn thirty_two_bit_at_2m4_in_straight_line_costs_nothing_extra() {
    expect(
        "c.nop; addi@2m4; addi",
        measure(nothing, |a| {
            a.c(cenc::nop())
                .i(enc::addi(A0, A0, 1))
                .i(enc::addi(A0, A0, 1));
        }),
        3,
    );
    expect(
        "alternating",
        measure(nothing, |a| {
            for _ in 0..5 {
                a.c(cenc::nop()).i(enc::addi(A0, A0, 1)).c(cenc::nop());
            }
        }),
        15,
    );
}

fn data_setup(a: &mut Asm) {
    a.li(S0, DATA).li(A0, 0x1234_5678);
}

#[test]
fn aligned_loads_and_stores_two_cycles() {
    let ops = [
        enc::lw(A1, S0, 0),
        enc::lh(A1, S0, 2),
        enc::lhu(A1, S0, 0),
        enc::lb(A1, S0, 3),
        enc::lbu(A1, S0, 1),
        enc::sw(A0, S0, 4),
        enc::sh(A0, S0, 6),
        enc::sb(A0, S0, 7),
    ];
    for op in ops {
        expect(
            &format!("{op:#010x}"),
            measure(data_setup, |a| {
                a.i(op);
            }),
            2,
        );
    }
    for op in [
        cenc::lw(A1, S0, 8),
        cenc::sw(A0, S0, 8),
        cenc::lwsp(A1, 0),
        cenc::swsp(A0, 0),
    ] {
        expect(
            &format!("{op:#06x}"),
            measure(
                |a| {
                    data_setup(a);
                    a.li(SP, DATA + 64);
                },
                |a| {
                    a.c(op);
                },
            ),
            2,
        );
    }
}

#[test]
fn load_use_has_no_penalty() {
    expect(
        "lw; addi dependent",
        measure(data_setup, |a| {
            a.i(enc::lw(A1, S0, 0)).i(enc::addi(A2, A1, 1));
        }),
        3,
    );
    expect(
        "lw; lw via loaded pointer",
        measure(
            |a| {
                data_setup(a);
                a.i(enc::sw(S0, S0, 0));
            },
            |a| {
                a.i(enc::lw(A1, S0, 0))
                    .i(enc::lw(A2, A1, 4))
                    .i(enc::add(A3, A2, A1));
            },
        ),
        5,
    );
}

#[test]
fn misaligned_accesses() {
    let cross = [
        enc::lw(A1, S0, 1),
        enc::lw(A1, S0, 2),
        enc::lw(A1, S0, 3),
        enc::lh(A1, S0, 3),
        enc::lhu(A1, S0, 7),
        enc::sw(A0, S0, 1),
        enc::sw(A0, S0, 6),
        enc::sh(A0, S0, 3),
    ];
    for op in cross {
        expect(
            &format!("crossing {op:#010x}"),
            measure(data_setup, |a| {
                a.i(op);
            }),
            3,
        );
    }
    let within = [enc::lh(A1, S0, 1), enc::lhu(A1, S0, 1), enc::sh(A0, S0, 1)];
    for op in within {
        expect(
            &format!("within a word {op:#010x}"),
            measure(data_setup, |a| {
                a.i(op);
            }),
            2,
        );
    }
}

#[test]
fn mmio_wait_states_add_to_the_access() {
    let a = prog(|a| {
        a.li(S0, MMIO_BASE)
            .label("l")
            .i(enc::lw(A0, S0, 0))
            .label("s")
            .i(enc::sw(A0, S0, 4))
            .label("x")
            .nop();
    });
    let mut s = Sim::new(&a);
    s.bus.mmio_wait = 3;
    s.run_to_label("l");
    let c0 = s.hart.cycle;
    s.run_to_label("s");
    assert_eq!(s.hart.cycle - c0, 5);
    s.run_to_label("x");
    assert_eq!(s.hart.cycle - c0, 10);
}

#[test]
fn conditional_branch_not_taken_one_cycle() {
    for f3 in [0u32, 1, 4, 5, 6, 7] {
        // a0 = 1, a1 = 2: beq, bge, bgeu not taken with (a0, a1); bne, blt, bltu with (a0, a0)
        let (x, y) = if [0, 5, 7].contains(&f3) {
            (A0, A1)
        } else {
            (A0, A0)
        };
        expect(
            &format!("f3={f3}"),
            measure(
                |a| {
                    a.li(A0, 1).li(A1, 2);
                },
                |a| {
                    a.i(enc::branch(f3, x, y, 8)).nop();
                },
            ),
            2,
        );
    }
    expect(
        "c.beqz / c.bnez not taken",
        measure(
            |a| {
                a.li(S0, 1).li(S1, 0);
            },
            |a| {
                a.c(cenc::beqz(S0, 8)).c(cenc::bnez(S1, 8));
            },
        ),
        2,
    );
}

#[test]
fn conditional_branch_taken() {
    for f3 in [0u32, 1, 4, 5, 6, 7] {
        let (x, y) = if [0, 5, 7].contains(&f3) {
            (A0, A0)
        } else {
            (A0, A1)
        };
        let setup = |a: &mut Asm| {
            a.li(A0, 1).li(A1, 2);
        };
        // to an aligned 32-bit instruction: 3
        expect(
            &format!("f3={f3} aligned"),
            measure(setup, |a| {
                a.b_to(f3, x, y, "t").nop();
                a.label("t");
            }),
            3,
        );
        // to a 32-bit instruction at 2m4: 4
        expect(
            &format!("f3={f3} 32-bit at 2m4"),
            measure(setup, |a| {
                a.b_to(f3, x, y, "t").nop().c(cenc::nop());
                a.label("t");
            }),
            4,
        );
        // to a compressed instruction at 2m4: 3 (+1 for that c.nop)
        expect(
            &format!("f3={f3} compressed at 2m4"),
            measure(setup, |a| {
                a.b_to(f3, x, y, "t").nop().c(cenc::nop());
                a.label("t").c(cenc::nop()).c(cenc::nop());
            }),
            3 + 2,
        );
    }
    expect(
        "c.beqz taken",
        measure(
            |a| {
                a.li(S0, 0);
            },
            |a| {
                a.c_beqz_to(S0, "t").c(cenc::nop()); // t is 4-aligned
                a.label("t");
            },
        ),
        3,
    );
    expect(
        "c.bnez taken to 32-bit at 2m4",
        measure(
            |a| {
                a.li(S0, 1);
            },
            |a| {
                a.c_bnez_to(S0, "t").c(cenc::nop()).c(cenc::nop()); // t at 2m4
                a.label("t");
            },
        ),
        4,
    );
}

#[test]
fn backward_taken_branch_to_2m4() {
    // hart.cycle per step: a backward branch to a 32-bit insn at 2m4 costs 4
    let a = prog(|a| {
        a.li(A0, 2).j_to("start");
        a.align_2m4()
            .label("t")
            .i(enc::addi(A0, A0, -1))
            .bne_to(A0, 0, "back")
            .j_to("out");
        a.label("back").nop().label("br").bne_to(A0, 0, "t");
        a.label("start").j_to("back");
        a.label("out");
    });
    let mut s = Sim::new(&a);
    assert_eq!(s.addr("t") % 4, 2);
    s.run_to_label("br");
    let c = s.hart.cycle;
    s.step();
    assert_eq!(s.hart.pc, s.addr("t"));
    assert_eq!(s.hart.cycle - c, 4);
}

/// A named way to emit a jump to a label.
type JumpEmitter = (&'static str, Box<dyn Fn(&mut Asm, &str)>);

#[test]
fn jumps() {
    let setup = |a: &mut Asm| {
        a.la(T0, "t").la(T1, "t2");
    };
    // t is the aligned target, t2 a 32-bit at 2m4, t3 a compressed at 2m4
    let jumps: Vec<JumpEmitter> = vec![
        (
            "jal",
            Box::new(|a: &mut Asm, t: &str| {
                a.jal_to(RA, t);
            }),
        ),
        (
            "j",
            Box::new(|a: &mut Asm, t: &str| {
                a.j_to(t);
            }),
        ),
        (
            "c.j",
            Box::new(|a: &mut Asm, t: &str| {
                a.c_j_to(t);
            }),
        ),
        (
            "c.jal",
            Box::new(|a: &mut Asm, t: &str| {
                a.c_jal_to(t);
            }),
        ),
        (
            "jalr",
            Box::new(|a: &mut Asm, t: &str| {
                a.i(enc::jalr(RA, if t == "t" { T0 } else { T1 }, 0));
            }),
        ),
        (
            "ret",
            Box::new(|a: &mut Asm, t: &str| {
                a.i(enc::addi(RA, if t == "t" { T0 } else { T1 }, 0));
                a.label("ret").i(enc::jalr(0, RA, 0));
            }),
        ),
        (
            "c.jr",
            Box::new(|a: &mut Asm, t: &str| {
                a.c(cenc::jr(if t == "t" { T0 } else { T1 }));
            }),
        ),
        (
            "c.jalr",
            Box::new(|a: &mut Asm, t: &str| {
                a.c(cenc::jalr(if t == "t" { T0 } else { T1 }));
            }),
        ),
    ];
    for (name, j) in &jumps {
        let extra = if *name == "ret" { 1 } else { 0 };
        expect(
            &format!("{name} aligned"),
            measure(setup, |a| {
                j(a, "t");
                a.i(enc::addi(S2, 0, 99)).align4();
                a.label("t").label("t2");
            }),
            2 + extra,
        );
        expect(
            &format!("{name} to a 32-bit at 2m4"),
            measure(setup, |a| {
                j(a, "t2");
                a.i(enc::addi(S2, 0, 99)).align_2m4();
                a.label("t2").label("t");
            }),
            3 + extra,
        );
        expect(
            &format!("{name} to a compressed at 2m4"),
            measure(setup, |a| {
                j(a, "t2");
                a.i(enc::addi(S2, 0, 99)).align_2m4();
                a.label("t2").label("t").c(cenc::nop());
            }),
            2 + 1 + extra,
        );
    }
}

#[test]
fn multiply() {
    let setup = |a: &mut Asm| {
        a.li(A0, 0x8000_0000).li(A1, 0xffff_ffff);
    };
    expect(
        "mul",
        measure(setup, |a| {
            a.i(enc::mul(A2, A0, A1));
        }),
        3,
    );
    for op in [
        enc::mulh(A2, A0, A1),
        enc::mulhsu(A2, A0, A1),
        enc::mulhu(A2, A0, A1),
    ] {
        expect(
            &format!("{op:#010x}"),
            measure(setup, |a| {
                a.i(op);
            }),
            4,
        );
    }
    expect(
        "mul; dependent add",
        measure(setup, |a| {
            a.i(enc::mul(A2, A0, A1)).i(enc::add(A3, A2, A2));
        }),
        4,
    );
}

#[test]
fn divide() {
    let operands = [
        (100u32, 7u32),
        (0x8000_0000, 0xffff_ffff),
        (0xffff_ffff, 1),
        (0, 5),
        (7, 0x8000_0000),
        (1, 1),
    ];
    for (x, y) in operands {
        for make in [enc::div, enc::divu, enc::rem, enc::remu] {
            let op = make(A2, A0, A1);
            expect(
                &format!("{op:#010x} {x:#x}/{y:#x}"),
                measure(
                    |a| {
                        a.li(A0, x).li(A1, y);
                    },
                    |a| {
                        a.i(op);
                    },
                ),
                37,
            );
        }
    }
    for x in [0u32, 5, 0x8000_0000] {
        for make in [enc::div, enc::divu, enc::rem, enc::remu] {
            let op = make(A2, A0, A1);
            expect(
                &format!("{op:#010x} {x:#x}/0"),
                measure(
                    |a| {
                        a.li(A0, x).li(A1, 0);
                    },
                    |a| {
                        a.i(op);
                    },
                ),
                2,
            );
        }
    }
}

#[test]
fn csr_accesses() {
    for c in [
        MCYCLE, MINSTRET, MSTATUS, MIE, MTVEC, MEPC, MSCRATCH, MCAUSE, MISA, MARCHID, MIP, MCYCLEH,
        0xb03, 0x323, CYCLE,
    ] {
        expect(
            &format!("csrr {c:#05x}"),
            measure(nothing, |a| {
                a.i(enc::csrr(A0, c));
            }),
            1,
        );
    }
    for c in [MSCRATCH, MEPC] {
        expect(
            &format!("csrw {c:#05x}"),
            measure(nothing, |a| {
                a.i(enc::csrw(c, A0));
            }),
            1,
        );
        expect(
            &format!("csrrwi {c:#05x}"),
            measure(nothing, |a| {
                a.i(enc::csrrwi(A1, c, 3));
            }),
            1,
        );
    }
    // any other CSR write flushes: 3, even when the value does not change
    let setup = |a: &mut Asm| {
        a.i(enc::csrr(S2, MSTATUS))
            .i(enc::csrr(S3, MTVEC))
            .i(enc::csrr(S4, MIE))
            .i(enc::csrr(S5, MCOUNTINHIBIT));
    };
    let writes = [
        enc::csrw(MSTATUS, S2),
        enc::csrw(MTVEC, S3),
        enc::csrw(MIE, S4),
        enc::csrw(MCOUNTINHIBIT, S5),
        enc::csrw(MCAUSE, A0),
        enc::csrw(MTVAL, A0),
        enc::csrw(MISA, A0),
        enc::csrw(MINSTRET, A0),
        enc::csrrs(A1, MSTATUS, S2),
        enc::csrrc(A1, MIE, S4),
        enc::csrrsi(0, MSTATUS, 0x10),
        enc::csrrci(0, MSTATUS, 0x10),
        enc::csrrwi(0, MTVAL, 1),
        enc::csrw(0x343, 0),
        enc::csrw(0xb03, A0),
    ];
    for w in writes {
        expect(
            &format!("write {w:#010x}"),
            measure(setup, |a| {
                a.i(w);
            }),
            3,
        );
    }
    // set/clear with rs1 = x0 (or uimm = 0) do not write: 1
    for w in [
        enc::csrs(MSTATUS, 0),
        enc::csrc(MIE, 0),
        enc::csrrs(A1, MTVEC, 0),
        enc::csrrc(A1, MCOUNTINHIBIT, 0),
        enc::csrrsi(A1, MSTATUS, 0),
        enc::csrrci(A1, MIE, 0),
    ] {
        expect(
            &format!("no-write {w:#010x}"),
            measure(nothing, |a| {
                a.i(w);
            }),
            1,
        );
    }
}

#[test]
fn fences() {
    expect(
        "fence",
        measure(nothing, |a| {
            a.i(enc::fence());
        }),
        1,
    );
    expect(
        "fence.i",
        measure(nothing, |a| {
            a.i(enc::fence_i());
        }),
        2,
    );
}

#[test]
fn ecall_one_cycle_then_two_dead_cycles() {
    let a = prog(|a| {
        a.nop().label("ec").i(enc::ecall());
    });
    let mut s = Sim::new(&a);
    s.run_to_label("ec");
    let c = s.hart.cycle;
    s.step();
    assert_eq!(s.hart.pc, TRAP_BASE);
    assert_eq!(
        s.hart.cycle - c,
        3,
        "the vector instruction enters decode 3 cycles after the ecall did"
    );
}

#[test]
fn mret_three_cycles() {
    expect(
        "mret",
        measure(
            |a| {
                a.la(T0, "m1")
                    .i(enc::csrw(MEPC, T0))
                    .li(T1, 3 << 11)
                    .i(enc::csrs(MSTATUS, T1));
            },
            |a| {
                a.i(enc::mret());
            },
        ),
        3,
    );
}

#[test]
fn ecall_round_trip_eleven_cycles() {
    let got = measure_with(
        nothing,
        |a| {
            a.i(enc::ecall());
        },
        |a| {
            a.at(TRAP_BASE).j_to("handler");
            a.at(TRAP_BASE + 0x100).label("handler");
            a.i(enc::csrr(T0, MEPC))
                .i(enc::addi(T0, T0, 4))
                .i(enc::csrw(MEPC, T0))
                .i(enc::mret());
        },
    );
    // measure_with's `prog` put a self-loop at TRAP_BASE first; `extra` overwrote it
    expect("ecall round trip", got, 11);
}

#[test]
fn wfi_with_pending_enabled_interrupt_and_mie_0_costs_5() {
    let a = prog(|a| {
        a.li(T0, 1 << 7).i(enc::csrw(MIE, T0));
        a.label("w").i(enc::wfi());
        a.label("next").nop();
    });
    let mut s = Sim::new(&a);
    s.run_to_label("w");
    let line_high = s.hart.cycle - 1;
    s.hart.mip = 1 << 7;
    let c = s.hart.cycle;
    let e = s.step();
    if e == Exit::Wfi {
        // the machine's part: the line is already up, so the core wakes at once
        s.hart.wake(line_high, 1 << 7);
    }
    assert_eq!(s.hart.pc, s.addr("next"), "no trap with MIE = 0");
    assert_eq!(s.hart.cycle - c, 5);
    assert_eq!(s.mcause(), 0);
}

#[test]
fn thirteen_instruction_loop_is_19_cycles_per_iteration() {
    // mul, lw, sw, eight 1-cycle instructions, a not-taken branch, a taken branch
    const N: u32 = 10;
    let a = prog(|a| {
        a.li(S0, DATA).li(A0, 3).li(A1, 5).li(T2, N);
        a.align4();
        a.label("m0").i(enc::csrr(S10, MCYCLE));
        a.label("loop");
        a.i(enc::mul(A2, A0, A1));
        a.i(enc::lw(A3, S0, 0));
        a.i(enc::sw(A2, S0, 4));
        a.i(enc::addi(T2, T2, -1));
        a.i(enc::add(A4, A3, A2));
        a.i(enc::xor(A5, A4, A0));
        a.i(enc::slli(A6, A5, 2));
        a.i(enc::or(A7, A6, A1));
        a.i(enc::sub(S2, A7, A0));
        a.i(enc::andi(S3, S2, 0xff));
        a.i(enc::lui(S4, 1));
        a.i(enc::blt(T2, 0, 64)); // never taken (t2 >= 0)
        a.bne_to(T2, 0, "loop"); // taken except on the last iteration
        a.label("m1").i(enc::csrr(S11, MCYCLE));
    });
    let mut s = Sim::new(&a);
    let lp = s.addr("loop");
    s.run_to(lp);
    let mut visits = vec![s.hart.cycle];
    for _ in 1..N {
        s.step();
        s.run_to(lp);
        visits.push(s.hart.cycle);
    }
    for w in visits.windows(2) {
        assert_eq!(w[1] - w[0], 19, "cycles per iteration");
    }
    s.run();
    // N iterations, the last one's loop branch not taken (1 instead of 3)
    assert_eq!(s.x(S11) - s.x(S10) - 1, 19 * N - 2);
}

#[test]
fn interrupt_entry_three_cycles_after_the_boundary() {
    for cause in [3u32, 7, 11, 16, 30] {
        let mut a = prog(|a| {
            a.li(T0, 0xffff_ffff)
                .i(enc::csrw(MIE, T0))
                .i(enc::csrrsi(0, MSTATUS, 8));
            a.nop().nop().label("boundary").nop();
        });
        a.at(TRAP_BASE + 4 * cause).i(enc::csrr(S10, MCYCLE));
        let mut s = Sim::new(&a);
        s.run_to_label("boundary");
        let c = s.hart.cycle;
        s.hart.mip = 1 << cause;
        s.step();
        assert_eq!(s.hart.pc, TRAP_BASE + 4 * cause);
        assert_eq!(s.hart.cycle - c, 3, "cause {cause}");
    }
}

#[test]
fn interrupted_div_completes_first() {
    let mut a = prog(|a| {
        a.li(T0, 1 << 7)
            .i(enc::csrw(MIE, T0))
            .i(enc::csrrsi(0, MSTATUS, 8));
        a.li(A0, 100).li(A1, 7);
        a.label("d").i(enc::div(A2, A0, A1)).label("after").nop();
    });
    a.at(TRAP_BASE + 28).i(enc::jal(0, 0));
    let mut s = Sim::new(&a);
    s.run_to_label("d");
    let c = s.hart.cycle;
    s.step(); // the div runs all its 37 cycles
    s.hart.mip = 1 << 7;
    s.step();
    assert_eq!(s.x(A2), 14);
    assert_eq!(s.mepc(), s.addr("after"));
    assert_eq!(s.hart.cycle - c, 37 + 3);
}
