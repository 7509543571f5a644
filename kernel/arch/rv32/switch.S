/* Ubik on RV32 (machine mode): context switches and the interrupt entries. The only assembly
 * of the kernel. The design (docs/kernel.md, "The kernel lock: interrupts stay enabled"):
 *
 * - Kernel data changes only under the kernel lock, mie.MSIE = 0. Interrupts stay enabled
 *   under it; the lock only holds off the kernel's tail, the machine software interrupt.
 * - A fast-line interrupt runs its LISR with interrupts disabled on the kernel's interrupt
 *   stack and returns: no kernel work on that path, so it is short and the same every time.
 *   Kernel calls from the LISR are queued (kernel/src/defer.c) and raise the software
 *   interrupt.
 * - The timer interrupt (bsp_vector_timer, arch.c) counts a tick that has nothing else to
 *   do itself; any other, it masks itself, notes that a tick is due and raises the software
 *   interrupt: a handful of instructions either way.
 * - The software interrupt (the tail) saves the interrupted context, takes the lock, enables
 *   interrupts and calls uk__tail (ticks, queued calls, the switch). So every switch happens
 *   with interrupts enabled; the only interrupt-disabled stretches are the LISRs themselves,
 *   the timer stub, and the last instructions of the tail's return.
 * - Interrupts nest one level deep in one place: a fast line or the timer may interrupt the
 *   tail. LISRs do not nest (they run with MIE = 0); the tail does not nest (its own lock
 *   masks it). A task's stack must hold a tail frame (80 bytes) with the tail's work and the
 *   timer stub's 16 bytes; a LISR's frame (64) and its own use are on the interrupt stack.
 *
 * Saved contexts: every one starts with the address of the code that resumes it, so one
 * switch can enter either kind:
 *   full frame (64 bytes):    0: resume = uk__resume_full   4: ra   8: s0 ... 52: s11
 *   minimal frame (16 bytes): 0: resume = uk__resume_min    4: ra
 * A full frame is saved by uk__arch_switch (kernel C code, the tail), a minimal one by the
 * voluntary fast path uk__yield_fast, whose callers have already saved every register they
 * need (the inline uk_task_yield declares them all clobbered). A task preempted by the tail
 * has the tail frame (below) and a full frame under it; resuming it returns into uk__tail's
 * caller, which restores the rest and mrets. */
#include "bsp/mmio.h"
#include "bsp/trapframe.h"
#include "tcb_offsets.h"
#include "../../src/kernel_defaults.h" /* uk_config.h and its defaults, as the C sees them */

/* Unwind information goes to .debug_frame (for debuggers), never into the image. */
    .cfi_sections .debug_frame

/* What the shared part (context.inc) needs of the machine: mstatus.MIE, mie.MSIE. */
.macro IRQS_OFF_GOTO label
    csrr    t0, mstatus
    andi    t0, t0, 8
    beqz    t0, \label
.endm
.macro KERNEL_LOCK
    li      t0, 8
    csrc    mie, t0
.endm
.macro KERNEL_UNLOCK
    li      t0, 8
    csrs    mie, t0
.endm

#include "context.inc"
#include "../../waitq/delay_tick.inc" /* the back end's short tick: DELAY_TICK_SHORT */

/* ---- Interrupt entries (the vector table's timer, software and fast-line slots) -------- */
    .section .text.uk_other.bsp_vector_fast_irq, "ax"

/* Fast lines 0..14 (mcause 16 + line): acknowledge the line at the interrupt controller, call
 * uk__lisr_table[line](line) with interrupts disabled, return. Only the caller-saved
 * registers are saved: a LISR is an ordinary C function, and nothing here switches.
 * The LISR runs on the kernel's interrupt stack ([kernel] irq_stack_bytes), so no task,
 * HISR or tail stack has to hold a LISR: mscratch holds that stack's top whenever no LISR
 * runs (LISRs do not nest), and one csrrw, which does not flush the pipeline, swaps it with
 * the interrupted sp at entry (1 cycle of latency) and back at exit. */
    .globl bsp_vector_fast_irq
    .type bsp_vector_fast_irq, @function
    .p2align 2                      /* the vector's jump to a 32-bit csrrw at 2 mod 4 costs 1 */
bsp_vector_fast_irq:
    csrrw   sp, mscratch, sp        /* onto the interrupt stack; mscratch = interrupted sp */
    SAVE_CALLER_SAVED
    csrr    a0, mcause
    andi    a0, a0, 15              /* mcause 16..30: the line */
    slli    t0, a0, 2
    la      t1, uk__lisr_table      /* (indexed: a %lo() offset would be relaxed away) */
    add     t0, t0, t1
    lw      t0, 0(t0)
    li      t1, 1
    sll     t1, t1, a0
    lui     t2, %hi(INTC_ACK)
    sw      t1, %lo(INTC_ACK)(t2)   /* acknowledged first: an event during the LISR stays */
    jalr    t0
    RESTORE_CALLER_SAVED_BUT_T0
    lw      t0, 4(sp)
    addi    sp, sp, FRAME_BYTES     /* the interrupt stack's top again */
    csrrw   sp, mscratch, sp        /* back to the interrupted stack; mscratch = the top */
    mret
    .size bsp_vector_fast_irq, . - bsp_vector_fast_irq

    .section .text.uk_time.bsp_vector_timer, "ax"
/* The machine timer interrupt. Most ticks only count: no delayed task expires, no software
 * timer exists, the policy keeps no time slices (`UK_POLICY_TIME_SLICES` 0: prio, bitmap),
 * the period has no fraction and the rate has not changed. Such a tick is done here, without
 * the software interrupt and the tail: under the kernel lock, the wait-queue back end counts
 * its delays (DELAY_TICK_SHORT, kernel/waitq/delay_tick.inc: the delta list's head is
 * decremented, or the RTM ticked), the tick counted and the compare register moved one
 * period on. Interrupts are enabled for that part as the tail enables them (mepc
 * and mstatus saved first, the timer masked until its compare has moved), so a fast line
 * preempts it (its LISR sees the lock held and defers) and the interrupt-disabled stretches
 * stay short. Any other tick is the tail's: the timer stays masked (its level is high until
 * the compare register moves), uk__tick_due is set and the software interrupt raised; the
 * tail runs uk__tick and moves the compare. So does every tick of the debug kernel (its checks
 * run at the tail's exit) and of the minimal profile (the short path's code is its size).
 * Frame, 32 bytes on the interrupted stack:
 *     0: t0  4: t1  8: t2  12: t3  16: mepc  20: mstatus */
    .globl bsp_vector_timer
    .type bsp_vector_timer, @function
bsp_vector_timer:
    addi    sp, sp, -32
    sw      t0, 0(sp)
    sw      t1, 4(sp)
    sw      t2, 8(sp)
    li      t0, 8
    csrrc   t0, mie, t0             /* the kernel lock; t0 = 8 if it was free */
    li      t1, 128
    csrc    mie, t1                 /* the timer, until its compare has moved */
    andi    t0, t0, 8
#if defined(UK_POLICY_TIME_SLICES) && !UK_POLICY_TIME_SLICES && !defined(UK_CONFIG_CHECKS_FULL) && \
    !defined(UK_CONFIG_PROFILE_MINIMAL)
    beqz    t0, 8f                  /* a kernel section was interrupted: the tail's tick */
    sw      t3, 12(sp)
    csrr    t1, mepc
    sw      t1, 16(sp)
    csrr    t1, mstatus
    sw      t1, 20(sp)
    csrsi   mstatus, 8              /* interrupts on: a fast line preempts the tick */
    lw      t1, uk__timer_tick_hook
    bnez    t1, 7f                  /* software timers: the tail's tick */
    lw      t1, uk__tick_rem
    bnez    t1, 7f                  /* a fractional period: the tail's advance() */
    lui     t1, %hi(TIMER_MTIME_HZ)
    lw      t1, %lo(TIMER_MTIME_HZ)(t1)
    lw      t2, uk__timer_hz
    bne     t1, t2, 7f              /* the rate changed: the tail computes the period */
    DELAY_TICK_SHORT 7f             /* the back end's delays (kernel/waitq/delay_tick.inc) */
1:  TICK_COUNT
    lui     t3, %hi(TIMER_MTIMECMP)
    sw      t2, %lo(TIMER_MTIMECMP)(t3)
    lw      t2, uk__next_tick + 4
    add     t2, t2, t1
    sw      t2, uk__next_tick + 4, t1
    lw      t1, %lo(TIMER_MTIMECMPH)(t3)
    beq     t1, t2, 2f
    sw      t2, %lo(TIMER_MTIMECMPH)(t3)
2:  li      t1, 1                   /* counted here */
    j       6f
7:  li      t1, 0                   /* the tail's tick after all */
6:  csrci   mstatus, 8
    lw      t2, 20(sp)
    csrw    mstatus, t2
    lw      t2, 16(sp)
    csrw    mepc, t2
    lw      t3, 12(sp)
    beqz    t1, 8f
    li      t1, 128
    csrs    mie, t1                 /* the timer back on: its compare has moved */
    j       9f
#endif
8:  li      t1, 1
    sw      t1, uk__tick_due, t2
    lui     t2, %hi(INTC_MSIP)
    sw      t1, %lo(INTC_MSIP)(t2)
9:  csrs    mie, t0                 /* the lock back as it was: a tail raised meanwhile runs next */
    lw      t0, 0(sp)
    lw      t1, 4(sp)
    lw      t2, 8(sp)
    addi    sp, sp, 32
    mret
    .size bsp_vector_timer, . - bsp_vector_timer

    .section .text.uk_other.bsp_vector_software, "ax"
/* The kernel's tail (machine software interrupt). Frame, 80 bytes on the interrupted stack:
 *     0: ra  4..60: t0-t2, a0-a7, t3-t6  64: mepc  68: mstatus  72..79: padding
 * Taken only while the lock is free (the lock masks it), so it takes the lock itself and
 * enables interrupts as soon as mepc and mstatus are safe (a nested interrupt overwrites
 * them), before saving the rest and calling uk__tail. Its return restores all but t0 with interrupts still
 * enabled; only the CSRs, t0 and mret run with them disabled. The lock is released last,
 * with interrupts disabled, so a tail raised meanwhile is taken right after the mret, on a
 * stack already unwound. */
    .globl bsp_vector_software
    .type bsp_vector_software, @function
bsp_vector_software:
    /* Unwind information (.debug_frame only: no code, no allocated bytes) so that a
     * debugger's backtrace of a task preempted by the tail goes on into the task's own
     * frames: the interrupted pc is the saved mepc (DWARF register 4096 + 0x341), which
     * serves as this frame's return address. */
    .cfi_startproc
    .cfi_signal_frame
    .cfi_return_column 4929
    addi    sp, sp, -80
    .cfi_def_cfa_offset 80
    sw      t0, 4(sp)
    .cfi_offset t0, -76
    csrr    t0, mepc
    sw      t0, 64(sp)
    .cfi_offset 4929, -16
    csrr    t0, mstatus
    sw      t0, 68(sp)
    li      t0, 8
    csrc    mie, t0                 /* the kernel lock */
    csrsi   mstatus, 8              /* interrupts on: LISRs and ticks preempt the tail */
    SAVE_CALLER_SAVED_BUT_T0
    .cfi_offset ra, -80
    .cfi_offset t1, -72
    .cfi_offset t2, -68
    .cfi_offset a0, -64
    .cfi_offset a1, -60
    .cfi_offset a2, -56
    .cfi_offset a3, -52
    .cfi_offset a4, -48
    .cfi_offset a5, -44
    .cfi_offset a6, -40
    .cfi_offset a7, -36
    .cfi_offset t3, -32
    .cfi_offset t4, -28
    .cfi_offset t5, -24
    .cfi_offset t6, -20
    call    uk__tail
    RESTORE_CALLER_SAVED_BUT_T0
    csrci   mstatus, 8
    lw      t0, 68(sp)
    csrw    mstatus, t0
    lw      t0, 64(sp)
    csrw    mepc, t0
    li      t0, 8
    csrs    mie, t0                 /* the lock released: MIE is 0 until the mret */
    lw      t0, 4(sp)
    addi    sp, sp, 80
    mret
    .cfi_endproc
    .size bsp_vector_software, . - bsp_vector_software
