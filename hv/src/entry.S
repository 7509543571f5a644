/* The hypervisor's trap entry and exit. Every trap while a guest runs (U-mode) comes here
 * through the BSP's vector table (each of its entries is aliased to hv_trap_entry).
 * mscratch points at the running partition. Fast paths, in assembly with one to four
 * registers saved, handle what the running partition's own state decides (the paths of an
 * interrupt's latency and of a tick): its line, delivered or latched; the timer armed for its
 * own compare alone; HV_VRET and HV_SYNC (delivering what became deliverable: a line or the
 * software interrupt); HV_TIMER and HV_VRET_TIMER within the current plan; HV_RAISE of its own
 * line. Everything else saves the guest's caller-saved registers into its partition (the pc
 * in the slot of x0) and calls hv_trap, which decides; the partition it returns is resumed
 * with mret. The hypervisor itself runs on its own stack with interrupts disabled; it never
 * traps. docs/hypervisor.md, "The cost of the hypervisor". */
#include "hv/abi.h"
#include "bsp/mmio.h"
#include "hv.h"

    .cfi_sections .debug_frame
    .section .text.hv_entry, "ax"
    .option norelax                 /* no gp-relative access: the fast paths run on the guest's gp */
/* The compare \nhi:\nlo for partition t6 (page t4) - or \bail, having changed nothing. Uses
 * t0, t1, t5, and \nlo once it is stored. */
.macro TIMER_SET nlo, nhi, bail
    lw      t0, hv_go_part
    bne     t0, t6, \bail           /* its calls re-plan: the C path */
1:  lui     t5, %hi(TIMER_MTIME)
    lw      t1, %lo(TIMER_MTIMEH)(t5)
    lw      t0, %lo(TIMER_MTIME)(t5)
    lw      t5, %lo(TIMER_MTIMEH)(t5)
    bne     t5, t1, 1b              /* now = t1:t0 */
    lw      t5, hv_go_until + 4
    bltu    t1, t5, 2f
    bne     t1, t5, \bail
    lw      t5, hv_go_until
    bgeu    t0, t5, \bail           /* the plan is due: the C path */
2:  bltu    t1, \nhi, 3f
    bne     t1, \nhi, \bail
    bgeu    t0, \nlo, \bail         /* a compare not ahead: its level rises, the C path */
3:  sw      \nlo, HV_PART_VTIMECMP(t6)
    sw      \nhi, HV_PART_VTIMECMP + 4(t6)
    lw      t0, HV_PART_VPENDING(t6)
    andi    t0, t0, ~HV_IRQ_TIMER
    sw      t0, HV_PART_VPENDING(t6)
    lw      t0, HV_VCPU_PENDING(t4)
    andi    t0, t0, ~HV_IRQ_TIMER
    sw      t0, HV_VCPU_PENDING(t4)
    lw      t1, hv_vtimer_min + 4   /* the earliest compare ahead, if this one is */
    bltu    \nhi, t1, 4f
    bne     \nhi, t1, 5f
    lw      t1, hv_vtimer_min
    bgeu    \nlo, t1, 5f
4:  sw      \nlo, hv_vtimer_min, t5
    sw      \nhi, hv_vtimer_min + 4, t5
5:  lw      t1, hv_plan_deadline + 4 /* arm_for: the sooner of it and the plan's deadline */
    lw      t0, hv_plan_deadline
    bltu    \nhi, t1, 6f
    bne     \nhi, t1, 7f
    bltu    \nlo, t0, 6f
7:  sw      zero, hv_fast_tick, t5
    j       8f
6:  sw      t6, hv_fast_tick, t5    /* then the plan's deadline: .Ltick */
    mv      t0, \nlo
    mv      t1, \nhi
8:  lw      t5, hv_armed            /* t1:t0 to arm, if it is not armed */
    bne     t5, t0, 9f
    lw      t5, hv_armed + 4
    beq     t5, t1, 10f
9:  sw      t0, hv_armed, t5
    sw      t1, hv_armed + 4, t5
    lui     t5, %hi(TIMER_MTIMECMP)
    li      \nlo, -1
    sw      \nlo, %lo(TIMER_MTIMECMPH)(t5) /* no match while the halves change */
    sw      t0, %lo(TIMER_MTIMECMP)(t5)
    sw      t1, %lo(TIMER_MTIMECMPH)(t5)
10:
.endm

/* The tick armed for partition t6 came (page \page): the plan's deadline armed next, the
 * timer's level raised. Uses \addr, \lo and \hi. */
.macro TICK_LEVEL page, addr, lo, hi
    sw      zero, hv_fast_tick, \addr /* once */
    lui     \addr, %hi(TIMER_MTIMECMP)
    li      \lo, -1
    sw      \lo, %lo(TIMER_MTIMECMPH)(\addr) /* no match while the halves change */
    lw      \lo, hv_plan_deadline
    lw      \hi, hv_plan_deadline + 4
    sw      \lo, %lo(TIMER_MTIMECMP)(\addr)
    sw      \hi, %lo(TIMER_MTIMECMPH)(\addr)
    sw      \lo, hv_armed, \addr
    sw      \hi, hv_armed + 4, \addr
    lw      \lo, HV_PART_VPENDING(t6)
    ori     \lo, \lo, HV_IRQ_TIMER
    sw      \lo, HV_PART_VPENDING(t6)
    lw      \lo, HV_VCPU_PENDING(\page)
    ori     \lo, \lo, HV_IRQ_TIMER
    sw      \lo, HV_VCPU_PENDING(\page)
.endm

    .globl hv_trap_entry
    .type hv_trap_entry, @function
    .p2align 2
hv_trap_entry:
    csrrw   t6, mscratch, t6        /* t6 = the partition; mscratch = the guest's t6 */
    sw      t4, 116(t6)
    csrr    t4, mcause
    bgez    t4, .Lexception         /* an interrupt falls through: the latency path */

/* ---- Fast paths: the running partition goes on, nothing else is due ------------------------
 * While the page's ie is set its epc, cause, pie, t0 and t1 are free (a guest copies them
 * before it enables interrupts), so the guest's t0 and t1 go there at once and serve as
 * scratch; a path that gives up after that takes them back (.Lslow_page). */

/* An interrupt: one of the running partition's lines (fast_lines: its lines << 16 once it
 * has a page; the hypervisor's timer and the others' lines read 0), enabled, no line
 * before it pending and enabled: acknowledged and delivered. The software interrupt and the
 * timer rank below every line (Ibex's order), so neither is looked at. Only t4 is saved:
 * it holds the page (fast_page: a page with ie clear until the guest registers its own). */
    lw      t4, HV_PART_FAST_PAGE(t6)
    lw      t4, HV_VCPU_IE(t4)
    andi    t4, t4, HV_IE
    beqz    t4, .Lirq_off           /* interrupts off */
    lw      t4, HV_PART_FAST_PAGE(t6)
    sw      t0, HV_VCPU_T0(t4)
    sw      t1, HV_VCPU_T1(t4)
    li      t0, HV_IE
    sw      t0, HV_VCPU_PIE(t4)
    lw      t1, HV_VCPU_ENABLE(t4)
    lw      t0, HV_PART_FAST_LINES(t6)
    and     t1, t1, t0              /* its lines it has enabled */
    lw      t0, HV_PART_VPENDING(t6)
    and     t0, t0, t1
    bnez    t0, .Lslow_irq_page     /* one pending already: the C path orders them */
    csrr    t0, mcause
    srl     t1, t1, t0              /* bit 16 + line (a shift takes the cause's low 5 bits) */
    andi    t1, t1, 1
    beqz    t1, .Lirq_not_line      /* not its line, or masked */
    csrr    t1, mepc
    sw      t1, HV_VCPU_EPC(t4)
    sw      t0, HV_VCPU_CAUSE(t4)
    sw      zero, HV_VCPU_IE(t4)
    li      t1, 1
    sll     t1, t1, t0
    srli    t1, t1, 16
    lui     t4, %hi(INTC_ACK)
    sw      t1, %lo(INTC_ACK)(t4)
    lw      t1, HV_PART_VTVEC(t6)
    slli    t0, t0, 2               /* 4 * cause: the top bit shifts out */
    add     t1, t1, t0
    csrw    mepc, t1
    lw      t4, 116(t6)
    csrrw   t6, mscratch, t6
    mret

/* An interrupt the line path does not deliver: t4 free, t5 and t0..t3 the guest's. */
.Lirq_other_page:
    lw      t0, HV_VCPU_T0(t4)
    lw      t1, HV_VCPU_T1(t4)
.Lirq_off:
    sw      t5, 120(t6)
    csrr    t5, mcause
    lw      t4, HV_PART_FAST_LINES(t6)
    srl     t4, t4, t5
    andi    t4, t4, 1
    bnez    t4, .Llatch
    slli    t4, t5, 1
    addi    t4, t4, -2 * 7
    bnez    t4, .Lslow              /* neither its line nor the timer */
    lw      t4, hv_fast_tick
    beq     t4, t6, .Ltick
    j       .Lslow

/* Its line, with interrupts off or the line masked: acknowledged and latched (the C path's
 * collect_lines for one line), the page's pending word telling the guest. */
.Llatch:
    sw      t0, 20(t6)
    li      t4, 1
    sll     t4, t4, t5              /* bit 16 + line */
    lw      t0, HV_PART_VPENDING(t6)
    or      t0, t0, t4
    sw      t0, HV_PART_VPENDING(t6)
    lw      t5, HV_PART_FAST_PAGE(t6)
    lw      t0, HV_VCPU_PENDING(t5)
    or      t0, t0, t4
    sw      t0, HV_VCPU_PENDING(t5)
    srli    t4, t4, 16
    lui     t5, %hi(INTC_ACK)
    sw      t4, %lo(INTC_ACK)(t5)
    lw      t0, 20(t6)
    j       .Lreturn

/* The timer, armed for the running partition's own compare alone (hv_fast_tick, set by the
 * C path as it arms; the plan's deadline is armed after it): the C path's own_timer. The
 * compare moves on, the timer's level rises, and the tick is delivered if it is the
 * deliverable interrupt of highest priority; else it waits, pending. Two ways in: from the
 * line path, with the page's interrupts on (.Lirq_not_line: t4 = the page, t0 = mcause, the
 * guest's t0 and t1 on the page), and with them off (.Ltick: t4 and t5 free, t0 and t1 saved). */
.Lirq_not_line:
    slli    t1, t0, 1
    addi    t1, t1, -2 * 7
    bnez    t1, .Lirq_other_page    /* not the timer */
    lw      t1, hv_fast_tick
    bne     t1, t6, .Lirq_other_page
    sw      t5, 120(t6)
    TICK_LEVEL t4, t5, t1, t0
    /* No line is pending and enabled (the line path saw to that) and pie is written. */
    lw      t1, HV_VCPU_ENABLE(t4)
    andi    t1, t1, HV_IRQ_TIMER
    beqz    t1, .Lreturn_page       /* masked: it waits */
    lw      t0, HV_VCPU_MSIP(t4)
    beqz    t0, 1f
    lw      t0, HV_VCPU_SOFT_ENABLE(t4)
    andi    t0, t0, HV_IRQ_SOFT
    bnez    t0, .Lslow_page         /* the software interrupt first */
1:  csrr    t1, mepc
    sw      t1, HV_VCPU_EPC(t4)
    li      t0, 0x80000000 | 7
    sw      t0, HV_VCPU_CAUSE(t4)
    sw      zero, HV_VCPU_IE(t4)
    lw      t1, HV_PART_VTVEC(t6)
    addi    t1, t1, 4 * 7
    csrw    mepc, t1
    j       .Lreturn

.Ltick:
    sw      t0, 20(t6)
    sw      t1, 24(t6)
    lw      t4, HV_PART_FAST_PAGE(t6)
    TICK_LEVEL t4, t5, t1, t0
    lw      t0, 20(t6)
    lw      t1, 24(t6)
    j       .Lreturn                /* interrupts are off: it waits */

.Lreturn_page:
    lw      t0, HV_VCPU_T0(t4)
    lw      t1, HV_VCPU_T1(t4)
.Lreturn:
    lw      t4, 116(t6)
    lw      t5, 120(t6)
    csrrw   t6, mscratch, t6
    mret

.Lexception:                        /* t4 = mcause */
    sw      t5, 120(t6)
    addi    t5, t4, -8
    bnez    t5, .Lslow              /* not an ecall from U-mode: a fault */
    lw      t4, HV_PART_VCPU(t6)
    beqz    t4, .Lslow
    beqz    t0, .Lvret              /* the hypercall's number */
    addi    t5, t0, -HV_SYNC
    beqz    t5, .Lsync
    addi    t5, t0, -HV_VRET_TIMER
    beqz    t5, .Lvret_timer
    addi    t5, t0, -HV_TIMER
    beqz    t5, .Ltimer
    addi    t5, t0, -HV_RAISE
    beqz    t5, .Lraise
    j       .Lslow

/* HV_TIMER (a0, a1) and HV_VRET_TIMER (the page's timecmp): a compare ahead of now, from
 * the partition that may go on without a new plan (hv_go_part, until hv_go_until): the C
 * path's hypercall + go_on, for that case. t4 = the page. */
.Ltimer:
    sw      t0, 20(t6)
    sw      t1, 24(t6)
    TIMER_SET a0, a1, .Ltimer_c
    /* Nothing became deliverable: the call only lowered the timer's level. (What was pending
     * and enabled already, the guest asks for with HV_SYNC when it enabled it.) */
    li      a0, 0
    csrr    t0, mepc
    addi    t0, t0, 4
    csrw    mepc, t0
    lw      t0, 20(t6)
    lw      t1, 24(t6)
    j       .Lreturn
.Ltimer_c:                          /* t0 and t1 back, and the C path */
    lw      t0, 20(t6)
    lw      t1, 24(t6)
    j       .Lslow

.Lvret_timer:
    sw      t2, 28(t6)
    sw      t3, 112(t6)
    lw      t2, HV_VCPU_TIMECMP(t4)
    lw      t3, HV_VCPU_TIMECMP + 4(t4)
    TIMER_SET t2, t3, .Lvret_timer_c
    lw      t2, 28(t6)
    lw      t3, 112(t6)
    j       .Lvret                  /* t0 and t1 are the page's on the way out */
.Lvret_timer_c:                     /* t2 and t3 back; t0 = the call (t1 comes from the page) */
    lw      t2, 28(t6)
    lw      t3, 112(t6)
    li      t0, HV_VRET_TIMER
    j       .Lslow

/* HV_VRET (t4 = the page): pc and ie from the page; if that enables the software interrupt
 * alone, it is delivered here; anything else deliverable goes the C path. t0 and t1 are the
 * page's on the way out, so they serve as scratch (t0 = HV_VRET again if the C path runs). */
.Lvret:
    lw      t0, HV_VCPU_PIE(t4)
    andi    t0, t0, HV_IE
    beqz    t0, 1f                  /* interrupts stay off: nothing to deliver */
.Lvret_on:                          /* t0 = HV_IE */
    lw      t1, HV_VCPU_ENABLE(t4)
    lw      t5, HV_PART_VPENDING(t6)
    and     t5, t5, t1
    bnez    t5, .Lvret_line
    lw      t5, HV_VCPU_MSIP(t4)
    beqz    t5, 1f
    lw      t5, HV_VCPU_SOFT_ENABLE(t4)
    andi    t5, t5, HV_IRQ_SOFT
    beqz    t5, 1f
    /* Its software interrupt deliverable (a tail a handler raised): the return becomes that
     * trap at once - the page keeps the pc, t0 and t1 the return would have restored. */
    li      t1, 3
/* The return becomes the trap of cause t1 (t0 = HV_IE, the interrupts it enables; the page
 * holds the pc, t0 and t1 to come back to). */
.Lvret_trap:
    lui     t5, 0x80000
    or      t5, t5, t1
    sw      t5, HV_VCPU_CAUSE(t4)
    sw      t0, HV_VCPU_PIE(t4)
    sw      zero, HV_VCPU_IE(t4)
    lw      t5, HV_PART_VTVEC(t6)
    slli    t1, t1, 2
    add     t5, t5, t1
    csrw    mepc, t5
    lw      t4, 116(t6)
    lw      t5, 120(t6)
    csrrw   t6, mscratch, t6
    mret
/* A line latched while interrupts were off, now enabled (t5: what is pending and enabled):
 * the lowest one, first in Ibex's order, is delivered as the return; it leaves the pending
 * bits. Only the timer pending: the C path. */
.Lvret_line:
    srli    t5, t5, 16
    beqz    t5, .Lslow_vret
    neg     t1, t5
    and     t1, t1, t5              /* the lowest line's bit */
    li      t5, 0x077CB531          /* its index: a de Bruijn sequence and table */
    mul     t1, t1, t5
    srli    t1, t1, 27
    la      t5, hv_debruijn
    add     t5, t5, t1
    lbu     t1, 0(t5)
    addi    t1, t1, 16              /* the cause */
    li      t5, 1
    sll     t5, t5, t1
    not     t5, t5
    lw      t0, HV_PART_VPENDING(t6)
    and     t0, t0, t5
    sw      t0, HV_PART_VPENDING(t6)
    sw      t0, HV_VCPU_PENDING(t4)
    li      t0, HV_IE
    j       .Lvret_trap
1:  sw      t0, HV_VCPU_IE(t4)
    lw      t0, HV_VCPU_EPC(t4)
    csrw    mepc, t0
    lw      t0, HV_VCPU_T0(t4)
    lw      t1, HV_VCPU_T1(t4)
    lw      t4, 116(t6)
    lw      t5, 120(t6)
    csrrw   t6, mscratch, t6
    mret
.Lslow_vret:
    li      t0, HV_VRET
    j       .Lslow

/* HV_SYNC (t4 = the page): with interrupts on, the call becomes a virtual trap whose return
 * is the call's - pc after the ecall, t0, t1 and ie saved on the page as a delivery saves
 * them - followed by HV_VRET's decision above (which delivers what is deliverable, or
 * returns). Returns 0. */
.Lsync:
    li      a0, 0
    lw      t5, HV_VCPU_IE(t4)
    andi    t5, t5, HV_IE
    beqz    t5, 2f                  /* interrupts off: nothing is deliverable */
    sw      t0, HV_VCPU_T0(t4)
    sw      t1, HV_VCPU_T1(t4)
    csrr    t0, mepc
    addi    t0, t0, 4
    sw      t0, HV_VCPU_EPC(t4)
    li      t0, HV_IE
    sw      t0, HV_VCPU_PIE(t4)
    j       .Lvret_on
2:  csrr    t5, mepc
    addi    t5, t5, 4
    csrw    mepc, t5
    j       .Lreturn

/* HV_RAISE of a line the partition owns (a0), deliverable at once by the rules above:
 * straight into the guest's vector (t4 = the page). The hypercall returns 0 when the
 * handler returns. */
.Lraise:
    lw      t5, HV_VCPU_IE(t4)
    andi    t5, t5, HV_IE
    beqz    t5, .Lslow
    sltiu   t5, a0, INTC_FAST_LINES
    beqz    t5, .Lslow              /* the C path refuses it */
    sw      t0, HV_VCPU_T0(t4)
    sw      t1, HV_VCPU_T1(t4)
    addi    t0, a0, 16              /* the cause */
    lw      t1, HV_PART_FAST_LINES(t6)
    srl     t1, t1, t0
    andi    t1, t1, 1
    beqz    t1, .Lslow_page         /* not its line: the C path refuses it */
    lw      t1, HV_VCPU_ENABLE(t4)
    lw      t5, HV_PART_VPENDING(t6)
    and     t5, t5, t1
    bnez    t5, .Lslow_page
    srl     t1, t1, t0
    andi    t1, t1, 1
    beqz    t1, .Lslow_page
    li      a0, 0                   /* the raise's result, when the handler returns */
    csrr    t1, mepc
    addi    t1, t1, 4               /* after the ecall */
    sw      t1, HV_VCPU_EPC(t4)
    mv      t1, t0
    li      t0, HV_IE
    j       .Lvret_trap             /* the trap, as a return's would be entered */

/* ---- The C path: everything saved, hv_trap decides ------------------------------------------ */
.Lslow_page:                        /* the guest's t0 and t1 back from the page */
    lw      t0, HV_VCPU_T0(t4)
    lw      t1, HV_VCPU_T1(t4)
    j       .Lslow
.Lslow_irq_page:
    lw      t0, HV_VCPU_T0(t4)
    lw      t1, HV_VCPU_T1(t4)
.Lslow_irq:                         /* from an interrupt: t5 untouched */
    sw      t5, 120(t6)
.Lslow:                             /* t4 and t5 are saved already */
    sw      x1, 4(t6)
    sw      x2, 8(t6)
    sw      x3, 12(t6)
    sw      x5, 20(t6)
    sw      x6, 24(t6)
    sw      x7, 28(t6)
    sw      x10, 40(t6)
    sw      x11, 44(t6)
    sw      x12, 48(t6)
    sw      x13, 52(t6)
    sw      x14, 56(t6)
    sw      x15, 60(t6)
    sw      x16, 64(t6)
    sw      x17, 68(t6)
    sw      x28, 112(t6)
    csrr    t5, mscratch
    sw      t5, 124(t6)             /* the guest's t6 */
    csrr    t5, mepc
    sw      t5, 0(t6)
    /* s0-s11 and tp stay in their registers: hv_trap, plain C, preserves them (and never
     * touches tp). The exit saves them only if it switches to another partition. */
    .option push
    .option norelax
    la      gp, __global_pointer$
    .option pop
    la      sp, __stack_top
    sw      t6, hv_from, t5
    mv      a0, t6
    call    hv_trap                 /* a0 = the partition to resume */
    lw      t0, hv_from
    bne     a0, t0, .Lswitch
/* Resume partition a0 whose tp and s0-s11 are in their registers (the same one, here). */
.Lresume_caller_saved:
    csrw    mscratch, a0
    lw      t0, 0(a0)
    csrw    mepc, t0
    mv      t6, a0
    lw      x1, 4(t6)
    lw      x2, 8(t6)
    lw      x3, 12(t6)
    lw      x5, 20(t6)
    lw      x6, 24(t6)
    lw      x7, 28(t6)
    lw      x10, 40(t6)
    lw      x11, 44(t6)
    lw      x12, 48(t6)
    lw      x13, 52(t6)
    lw      x14, 56(t6)
    lw      x15, 60(t6)
    lw      x16, 64(t6)
    lw      x17, 68(t6)
    lw      x28, 112(t6)
    lw      x29, 116(t6)
    lw      x30, 120(t6)
    lw      x31, 124(t6)
    mret
/* Another partition: the one that trapped keeps its s0-s11 and tp, the other's all come. */
.Lswitch:
    sw      x4, 16(t0)
    sw      x8, 32(t0)
    sw      x9, 36(t0)
    sw      x18, 72(t0)
    sw      x19, 76(t0)
    sw      x20, 80(t0)
    sw      x21, 84(t0)
    sw      x22, 88(t0)
    sw      x23, 92(t0)
    sw      x24, 96(t0)
    sw      x25, 100(t0)
    sw      x26, 104(t0)
    sw      x27, 108(t0)
/* Resume partition a0 with every register from its context: its tp and s0-s11, then the
 * rest. */
    .type hv_resume, @function
hv_resume:
    lw      x4, 16(a0)
    lw      x8, 32(a0)
    lw      x9, 36(a0)
    lw      x18, 72(a0)
    lw      x19, 76(a0)
    lw      x20, 80(a0)
    lw      x21, 84(a0)
    lw      x22, 88(a0)
    lw      x23, 92(a0)
    lw      x24, 96(a0)
    lw      x25, 100(a0)
    lw      x26, 104(a0)
    lw      x27, 108(a0)
    j       .Lresume_caller_saved
    .size hv_trap_entry, . - hv_trap_entry

/* void hv_enter(struct hv_part *p): the first entry into a guest (from main). */
    .globl hv_enter
    .type hv_enter, @function
hv_enter:
    li      t0, 0x1800
    csrc    mstatus, t0             /* MPP = U: mret enters the guest in U-mode */
    j       hv_resume
    .size hv_enter, . - hv_enter

    .section .rodata.hv_debruijn, "a"
hv_debruijn:                        /* bit i's de Bruijn product >> 27 -> i */
    .byte 0, 1, 28, 2, 29, 14, 24, 3, 30, 22, 20, 15, 25, 17, 4, 8
    .byte 31, 27, 13, 23, 21, 19, 16, 7, 26, 12, 18, 6, 11, 5, 10, 9

    .section .sbss.hv_from, "aw", @nobits
    .p2align 2
hv_from:                            /* the partition that trapped, across hv_trap */
    .zero 4

/* Every vector of the BSP's table (bsp/crt0.S) leads here. */
    .globl bsp_vector_exception, bsp_vector_software, bsp_vector_timer
    .globl bsp_vector_fast_irq, bsp_vector_unhandled
    .set bsp_vector_exception, hv_trap_entry
    .set bsp_vector_software, hv_trap_entry
    .set bsp_vector_timer, hv_trap_entry
    .set bsp_vector_fast_irq, hv_trap_entry
    .set bsp_vector_unhandled, hv_trap_entry
