//! Exceptions, interrupts, privilege (M/U) and trap-loop detection.
//! References: RISC-V privileged spec (trap entry, mret, mstatus), Ibex
//! rtl/ibex_controller.sv (mtval values, interrupt priority), doc exception_interrupts.rst.
mod common;
use common::*;
use rv32::csr::Priv;
use rv32::Exit;

const MSTATUS_MIE: u32 = 1 << 3;
const MSTATUS_MPIE: u32 = 1 << 7;
const MSTATUS_MPP: u32 = 3 << 11;
const MSTATUS_MPRV: u32 = 1 << 17;
const MSTATUS_TW: u32 = 1 << 21;

fn trap_of(a: &Asm) -> Sim {
    let mut s = Sim::new(a);
    assert!(run_until_end_or_trap(&mut s), "no trap");
    s
}

#[test]
fn ecall_in_m_mode() {
    let a = prog(|a| {
        a.nop().label("ec").i(enc::ecall());
    });
    let s = trap_of(&a);
    assert_eq!(s.mcause(), 11);
    assert_eq!(s.mepc(), s.addr("ec"));
    assert_eq!(s.mtval(), 0);
    assert_eq!(s.hart.pc, TRAP_BASE);
    assert_eq!(s.hart.csr.mstatus & MSTATUS_MPP, MSTATUS_MPP, "MPP = M");
    assert_eq!(s.hart.instret, 1, "ecall does not retire");
}

#[test]
fn ebreak_32_bit() {
    let a = prog(|a| {
        a.label("bp").i(enc::ebreak());
    });
    let s = trap_of(&a);
    assert_eq!(s.mcause(), 3);
    assert_eq!(s.mepc(), s.addr("bp"));
    assert_eq!(s.mtval(), 0);
}

#[test]
fn trap_entry_saves_mie_to_mpie_and_clears_mie() {
    let a = prog(|a| {
        a.i(enc::csrrsi(0, MSTATUS, 8)); // MIE = 1 (no interrupt lines are up)
        a.i(enc::ecall());
    });
    let s = trap_of(&a);
    let st = s.hart.csr.mstatus;
    assert_eq!(st & MSTATUS_MIE, 0);
    assert_ne!(st & MSTATUS_MPIE, 0);
    assert_eq!(st & MSTATUS_MPP, MSTATUS_MPP);
    // and with MIE = 0 before: MPIE = 0
    let a = prog(|a| {
        a.i(enc::ecall());
    });
    let s = trap_of(&a);
    assert_eq!(s.hart.csr.mstatus & (MSTATUS_MIE | MSTATUS_MPIE), 0);
}

#[test]
fn load_and_store_access_faults() {
    for (insn, cause, addr) in [
        (enc::lw(A0, S0, 4), 5, UNMAPPED + 4),
        (enc::lb(A0, S0, -1), 5, UNMAPPED - 1),
        (enc::lhu(A0, S0, 2), 5, UNMAPPED + 2),
        (enc::sw(A0, S0, 8), 7, UNMAPPED + 8),
        (enc::sb(A0, S0, 0), 7, UNMAPPED),
        (enc::sh(A0, S0, 6), 7, UNMAPPED + 6),
    ] {
        let a = prog(|a| {
            a.li(S0, UNMAPPED).li(A0, 0x77);
            a.label("f").i(insn);
        });
        let s = trap_of(&a);
        assert_eq!(s.mcause(), cause, "{insn:#010x}");
        assert_eq!(s.mtval(), addr, "{insn:#010x}");
        assert_eq!(s.mepc(), s.addr("f"));
        assert_eq!(s.x(A0), 0x77, "a faulting load leaves rd alone");
    }
}

#[test]
fn access_fault_on_a_disabled_mmio_region() {
    let a = prog(|a| {
        a.li(S0, MMIO_BASE).i(enc::lw(A0, S0, 0));
    });
    let mut s = Sim::new(&a);
    s.bus.mmio_enabled = false;
    assert!(run_until_end_or_trap(&mut s));
    assert_eq!(s.mcause(), 5);
    assert_eq!(s.mtval(), MMIO_BASE);
}

#[test]
fn instruction_fetch_from_unmapped_memory() {
    let a = prog(|a| {
        a.li(T0, UNMAPPED + 0x10)
            .label("jump")
            .i(enc::jalr(RA, T0, 0));
    });
    let s = trap_of(&a);
    assert_eq!(s.mcause(), 1);
    assert_eq!(s.mepc(), UNMAPPED + 0x10);
    assert_eq!(s.mtval(), UNMAPPED + 0x10);
    assert_eq!(s.x(RA), s.addr("jump") + 4, "the jump itself retired");
}

#[test]
fn fetch_fault_in_the_second_half_of_a_32_bit_instruction() {
    // a 32-bit instruction whose upper half lies past the end of RAM: mtval = pc + 2
    let last = RAM_BASE + RAM_LEN - 2;
    let mut a = prog(|a| {
        a.li(T0, RAM_BASE + RAM_LEN - 2).i(enc::jalr(0, T0, 0));
    });
    a.at(last).c(0x0013); // low half of `addi x0, x0, 0`
    let s = trap_of(&a);
    assert_eq!(s.mcause(), 1);
    assert_eq!(s.mepc(), last);
    assert_eq!(s.mtval(), last + 2);
}

#[test]
fn exceptions_go_to_mtvec_base_with_a_moved_vector() {
    let a = prog(|a| {
        a.li(T0, RAM_BASE + 0x400).i(enc::csrw(MTVEC, T0));
        a.i(enc::ecall());
    });
    let mut a = a;
    a.at(RAM_BASE + 0x400).label("vec").i(enc::jal(0, 0));
    let mut s = Sim::new(&a);
    s.run_to(RAM_BASE + 0x400);
    assert_eq!(s.mcause(), 11);
}

#[test]
fn mret_restores_mie_and_privilege_then_sets_mpp_u_mpie_1() {
    // MPIE = 1, MPP = M: mret -> MIE = 1, still M, MPP = U, MPIE = 1
    let a = prog(|a| {
        a.li(T0, MSTATUS_MPIE | MSTATUS_MPP | MSTATUS_MPRV)
            .i(enc::csrw(MSTATUS, T0));
        a.la(T1, "after").i(enc::csrw(MEPC, T1)).i(enc::mret());
        a.i(enc::addi(S2, 0, 99));
        a.label("after").i(enc::csrr(A0, MSTATUS));
    });
    let s = run(&a);
    assert_eq!(s.x(S2), 0);
    assert_eq!(
        s.x(A0),
        MSTATUS_MIE | MSTATUS_MPIE | MSTATUS_MPRV,
        "MPP = U after mret; MPRV kept (MPP was M)"
    );
    assert_eq!(s.hart.privilege, Priv::Machine);
    // MPIE = 0: mret -> MIE = 0, MPIE = 1
    let a = prog(|a| {
        a.li(T0, MSTATUS_MPP | MSTATUS_MIE)
            .i(enc::csrw(MSTATUS, T0));
        a.la(T1, "after").i(enc::csrw(MEPC, T1)).i(enc::mret());
        a.label("after").i(enc::csrr(A0, MSTATUS));
    });
    let s = run(&a);
    assert_eq!(s.x(A0), MSTATUS_MPIE);
}

/// A program that drops to U-mode (mret with MPP = U) and runs `user` there.
fn user_prog(setup: impl FnOnce(&mut Asm), user: impl FnOnce(&mut Asm)) -> Asm {
    prog(|a| {
        setup(a);
        a.li(T0, MSTATUS_MPP).i(enc::csrc(MSTATUS, T0));
        a.la(T1, "user").i(enc::csrw(MEPC, T1)).i(enc::mret());
        a.label("user");
        user(a);
    })
}

#[test]
fn mret_to_user_mode_clears_mprv() {
    let a = user_prog(
        |a| {
            a.li(T0, MSTATUS_MPRV).i(enc::csrs(MSTATUS, T0));
        },
        |a| {
            a.nop();
        },
    );
    let s = run(&a);
    assert_eq!(s.hart.privilege, Priv::User);
    assert_eq!(s.hart.csr.mstatus & MSTATUS_MPRV, 0);
}

fn user_trap(insn: u32) -> Sim {
    let a = user_prog(
        |_| {},
        |a| {
            a.nop().label("u").i(insn);
        },
    );
    let s = trap_of(&a);
    assert_eq!(s.mepc(), s.addr("u"));
    assert_eq!(s.hart.privilege, Priv::Machine);
    assert_eq!(s.hart.csr.mstatus & MSTATUS_MPP, 0, "MPP = U");
    s
}

#[test]
fn ecall_in_u_mode() {
    let s = user_trap(enc::ecall());
    assert_eq!(s.mcause(), 8);
}

#[test]
fn csr_access_in_u_mode_is_illegal() {
    for w in [
        enc::csrr(A0, MSCRATCH),
        enc::csrr(A0, MSTATUS),
        enc::csrw(MSCRATCH, A0),
        enc::csrr(A0, CYCLE),
        enc::csrr(A0, INSTRET),
        enc::csrr(A0, MCYCLE),
        enc::csrr(A0, MVENDORID),
        enc::csrr(A0, 0x001),
    ] {
        let s = user_trap(w);
        assert_eq!(s.mcause(), 2, "{w:#010x}");
        assert_eq!(s.mtval(), w);
    }
}

#[test]
fn mret_in_u_mode_is_illegal() {
    let s = user_trap(enc::mret());
    assert_eq!(s.mcause(), 2);
    assert_eq!(s.mtval(), enc::mret());
}

#[test]
fn wfi_in_u_mode_with_tw_is_illegal() {
    let a = user_prog(
        |a| {
            a.li(T0, MSTATUS_TW).i(enc::csrs(MSTATUS, T0));
        },
        |a| {
            a.label("u").i(enc::wfi());
        },
    );
    let s = trap_of(&a);
    assert_eq!(s.mcause(), 2);
    assert_eq!(s.mtval(), enc::wfi());
    assert_eq!(s.mepc(), s.addr("u"));
}

#[test]
fn wfi_in_u_mode_without_tw_sleeps() {
    let a = user_prog(
        |_| {},
        |a| {
            a.label("u").i(enc::wfi());
        },
    );
    let mut s = Sim::new(&a);
    let u = s.addr("u");
    s.run_to(u);
    assert_eq!(s.step(), Exit::Wfi);
    assert!(s.hart.sleeping);
    assert_eq!(s.hart.pc, u + 4);
}

// ---------------------------------------------------------------------------------------------
// Interrupts

/// Run to the "boundary" label with all interrupts enabled in mie and mstatus.MIE = `mie`,
/// raise `lines`, and take one step.
fn irq(lines: u32, mie: bool, user: bool) -> Sim {
    let body = |a: &mut Asm| {
        a.nop().label("boundary").nop().nop();
    };
    let setup = |a: &mut Asm| {
        a.li(T0, 0xffff_ffff).i(enc::csrw(MIE, T0));
        if mie {
            a.i(enc::csrrsi(0, MSTATUS, 8));
        } else {
            // MPIE = 0 so that an mret to U-mode leaves MIE = 0
            a.li(T0, MSTATUS_MPIE).i(enc::csrc(MSTATUS, T0));
        }
    };
    let a = if user {
        user_prog(setup, body)
    } else {
        prog(|a| {
            setup(a);
            body(a);
        })
    };
    let mut s = Sim::new(&a);
    s.run_to_label("boundary");
    s.hart.mip = lines;
    s.step();
    s
}

fn taken(s: &Sim, cause: u32) {
    assert_eq!(s.mcause(), 0x8000_0000 | cause, "mcause");
    assert_eq!(s.hart.pc, TRAP_BASE + 4 * cause, "vector");
    assert_eq!(
        s.mepc(),
        s.addr("boundary"),
        "mepc = the interrupted instruction"
    );
    assert_eq!(s.mtval(), 0);
    assert_eq!(s.hart.csr.mstatus & MSTATUS_MIE, 0, "MIE cleared");
}

#[test]
fn interrupt_priority() {
    let cases: &[(u32, u32)] = &[
        (1 << 7, 7),
        (1 << 3, 3),
        (1 << 11, 11),
        (1 << 3 | 1 << 7, 3),
        (1 << 11 | 1 << 7, 11),
        (1 << 11 | 1 << 3 | 1 << 7, 11),
        (1 << 16, 16),
        (1 << 30, 30),
        (1 << 30 | 1 << 11, 30),
        (1 << 20 | 1 << 17 | 1 << 25, 17),
        (0x7fff_0888, 16),
    ];
    for &(lines, cause) in cases {
        let s = irq(lines, true, false);
        taken(&s, cause);
        assert_ne!(s.hart.csr.mstatus & MSTATUS_MPIE, 0, "MPIE set");
        assert_eq!(s.hart.csr.mstatus & MSTATUS_MPP, MSTATUS_MPP);
    }
}

#[test]
fn interrupts_not_taken_in_m_mode_with_mie_0() {
    let s = irq(0x7fff_0888, false, false);
    assert_eq!(s.hart.pc, s.addr("boundary") + 4);
    assert_eq!(s.mcause(), 0);
}

#[test]
fn interrupts_taken_in_u_mode_whatever_mie() {
    let s = irq(1 << 7, false, true);
    taken(&s, 7);
    assert_eq!(s.hart.privilege, Priv::Machine);
    assert_eq!(s.hart.csr.mstatus & MSTATUS_MPP, 0, "MPP = U");
    assert_eq!(s.hart.csr.mstatus & MSTATUS_MPIE, 0, "MPIE = old MIE = 0");
    assert_eq!(s.hart.privilege, Priv::Machine);
}

#[test]
fn interrupts_masked_by_mie_register() {
    let a = prog(|a| {
        a.li(T0, 1 << 7)
            .i(enc::csrw(MIE, T0))
            .i(enc::csrrsi(0, MSTATUS, 8));
        a.nop().label("boundary").nop().nop();
    });
    let mut s = Sim::new(&a);
    s.run_to_label("boundary");
    s.hart.mip = 1 << 11 | 1 << 3 | 1 << 16;
    s.step();
    assert_eq!(s.hart.pc, s.addr("boundary") + 4, "not enabled in mie");
    s.hart.mip |= 1 << 7;
    s.step();
    assert_eq!(s.mcause(), 0x8000_0007);
}

#[test]
fn enabling_mstatus_mie_with_a_pending_line_takes_it_after_the_csr_write() {
    let mut a = prog(|a| {
        a.li(T0, 1 << 3).i(enc::csrw(MIE, T0));
        a.label("en").i(enc::csrrsi(0, MSTATUS, 8));
        a.label("next").nop();
    });
    a.at(TRAP_BASE + 12).i(enc::jal(0, 0));
    let mut s = Sim::new(&a);
    s.hart.mip = 1 << 3;
    s.run_free(10_000);
    // free-running: the interrupt is taken at the boundary after the enabling write
    assert_eq!(s.mcause(), 0x8000_0003);
    assert_eq!(s.mepc(), s.addr("next"));
}

#[test]
fn interrupt_handler_returns_with_mret() {
    let mut a = prog(|a| {
        a.li(T0, 1 << 7)
            .i(enc::csrw(MIE, T0))
            .i(enc::csrrsi(0, MSTATUS, 8));
        a.nop()
            .label("boundary")
            .i(enc::addi(A0, A0, 1))
            .i(enc::addi(A0, A0, 1));
    });
    a.at(TRAP_BASE + 28).j_to("h");
    a.at(TRAP_BASE + 0x200)
        .label("h")
        .i(enc::addi(A1, 0, 5))
        .i(enc::mret());
    let mut s = Sim::new(&a);
    s.run_to_label("boundary");
    s.hart.mip = 1 << 7;
    s.step();
    assert_eq!(s.hart.pc, TRAP_BASE + 28);
    s.hart.mip = 0;
    s.run();
    assert_eq!(s.x(A0), 2);
    assert_eq!(s.x(A1), 5);
    assert_ne!(s.hart.csr.mstatus & MSTATUS_MIE, 0, "MIE restored by mret");
}

// ---------------------------------------------------------------------------------------------
// Trap loops

#[test]
fn trap_loop_is_detected() {
    // illegal instruction whose handler returns to it unchanged
    let mut a = Asm::new();
    a.at(TRAP_BASE).i(enc::mret());
    a.at(RESET_PC).label("bad").word(0xffff_ffff);
    let mut s = Sim::new(&a);
    let e = s.run_free(10_000_000);
    assert_eq!(
        e,
        Exit::TrapLoop {
            cause: 2,
            pc: RESET_PC,
            tval: 0xffff_ffff
        }
    );
    assert!(
        (998..=1001).contains(&s.hart.instret),
        "{} mrets",
        s.hart.instret
    );
}

#[test]
fn trap_loop_of_a_fetch_fault_is_detected() {
    // mtvec pointing at unmapped memory: every trap faults again at the same pc
    let a = prog(|a| {
        a.li(T0, UNMAPPED).i(enc::csrw(MTVEC, T0)).i(enc::ecall());
    });
    let mut s = Sim::new(&a);
    let e = s.run_free(10_000_000);
    assert_eq!(
        e,
        Exit::TrapLoop {
            cause: 1,
            pc: UNMAPPED,
            tval: UNMAPPED
        }
    );
}

#[test]
fn ecall_in_a_loop_with_progress_is_not_a_trap_loop() {
    let mut a = Asm::new();
    a.at(TRAP_BASE);
    a.i(enc::csrr(T0, MEPC))
        .i(enc::addi(T0, T0, 4))
        .i(enc::csrw(MEPC, T0))
        .i(enc::mret());
    a.at(RESET_PC)
        .label("loop")
        .i(enc::ecall())
        .i(enc::addi(A0, A0, 1))
        .j_to("loop");
    let mut s = Sim::new(&a);
    let e = s.run_free(200_000);
    assert_eq!(e, Exit::Limit);
    assert!(s.x(A0) > 5000, "{} iterations", s.x(A0));
}

#[test]
fn ecall_repeated_by_its_handler_without_progress_is_a_trap_loop() {
    // the handler returns to the ecall itself: no instruction outside the handler retires
    let mut a = Asm::new();
    a.at(TRAP_BASE).i(enc::addi(A1, A1, 1)).i(enc::mret());
    a.at(RESET_PC).i(enc::ecall());
    let mut s = Sim::new(&a);
    let e = s.run_free(10_000_000);
    assert_eq!(
        e,
        Exit::TrapLoop {
            cause: 11,
            pc: RESET_PC,
            tval: 0
        }
    );
}

// ---------------------------------------------------------------------------------------------
// cpuctrlsts (0x7c0): sync_exc_seen (bit 6), double_fault_seen (bit 7)

const CPUCTRLSTS: u32 = 0x7c0;

#[test]
fn illegal_instruction_sets_sync_exc_seen_and_mret_clears_it() {
    let mut a = Asm::new();
    a.at(TRAP_BASE);
    a.i(enc::csrr(A0, CPUCTRLSTS))
        .i(enc::csrr(T0, MEPC))
        .i(enc::addi(T0, T0, 4))
        .i(enc::csrw(MEPC, T0))
        .i(enc::mret());
    a.at(RESET_PC)
        .i(enc::csrr(S2, CPUCTRLSTS))
        .word(0xffff_ffff)
        .i(enc::csrr(A1, CPUCTRLSTS))
        .end();
    let s = run(&a);
    assert_eq!(s.x(S2), 0);
    assert_eq!(s.x(A0) & 0xc0, 0x40);
    assert_eq!(s.x(A1) & 0xc0, 0, "mret clears sync_exc_seen");
}

#[test]
fn a_second_exception_in_the_handler_sets_double_fault_seen() {
    let mut a = Asm::new();
    a.at(TRAP_BASE)
        .i(enc::addi(S2, S2, 1))
        .i(enc::addi(T0, 0, 2))
        .bne_to(S2, T0, "first");
    a.i(enc::csrr(A0, CPUCTRLSTS))
        .label("end")
        .i(enc::jal(0, 0));
    a.label("first").word(0xffff_ffff); // fault again inside the handler
    a.at(RESET_PC).word(0xffff_ffff);
    let s = run(&a);
    assert_eq!(s.x(A0) & 0xc0, 0xc0);
}

#[test]

fn ecall_and_ebreak_set_sync_exc_seen_like_the_rtl() {
    for insn in [enc::ecall(), enc::ebreak()] {
        let mut a = Asm::new();
        a.at(TRAP_BASE)
            .i(enc::csrr(A0, CPUCTRLSTS))
            .label("end")
            .i(enc::jal(0, 0));
        a.at(RESET_PC).i(insn);
        let s = run(&a);
        assert_eq!(s.x(A0) & 0xc0, 0x40, "{insn:#010x}");
    }
}
