/* Ubik on RV32 (machine mode): the context switch and the interrupt entry. The only assembly
 * of the kernel.
 *
 * Switch frame (uk__arch_switch, voluntary and from an interrupt's exit alike), 64 bytes on
 * the task's own stack, its address kept in the TCB's first field:
 *     0: ra   4: s0   8: s1  12: s2 ... 48: s11   52..63: padding (16-byte alignment)
 * Interrupt frame (uk__irq_entry), 80 bytes on the interrupted stack:
 *     0: ra  4..28: t0-t2, a0-a4 ... 60: t6  64: mepc  68: mstatus  72..79: padding
 * A task preempted by an interrupt has both: the interrupt frame, then (if the interrupt's
 * exit switched away) a switch frame below it. Resuming it returns from uk__arch_switch into
 * the interrupt exit, which restores mepc/mstatus and the caller-saved registers and mrets.
 *
 * Interrupts do not nest: LISRs run with mstatus.MIE = 0. */
    .section .text.uk_sched, "ax"

/* Every saved context starts with the address of the code that resumes it, so one switch
 * can enter either kind of frame:
 *   full frame (64 bytes):    0: resume = uk__resume_full   4: ra   8: s0 ... 52: s11
 *   minimal frame (16 bytes): 0: resume = uk__resume_min    4: ra   8: interrupt key
 * A full frame is saved by uk__arch_switch (kernel C code, an interrupt's exit), a minimal
 * one by the voluntary fast path uk__yield_fast, whose callers have already saved every
 * register they need (the inline uk_task_yield declares them all clobbered). */

/* void uk__arch_switch(void **from, void **to) */
    .globl uk__arch_switch
    .type uk__arch_switch, @function
uk__arch_switch:
    addi    sp, sp, -64
    la      t0, uk__resume_full
    sw      t0, 0(sp)
    sw      ra, 4(sp)
    sw      s0, 8(sp)
    sw      s1, 12(sp)
    sw      s2, 16(sp)
    sw      s3, 20(sp)
    sw      s4, 24(sp)
    sw      s5, 28(sp)
    sw      s6, 32(sp)
    sw      s7, 36(sp)
    sw      s8, 40(sp)
    sw      s9, 44(sp)
    sw      s10, 48(sp)
    sw      s11, 52(sp)
    sw      sp, 0(a0)
    lw      sp, 0(a1)
    lw      t0, 0(sp)
    jr      t0
    .size uk__arch_switch, . - uk__arch_switch

    .globl uk__resume_full
    .type uk__resume_full, @function
uk__resume_full:
    lw      ra, 4(sp)
    lw      s0, 8(sp)
    lw      s1, 12(sp)
    lw      s2, 16(sp)
    lw      s3, 20(sp)
    lw      s4, 24(sp)
    lw      s5, 28(sp)
    lw      s6, 32(sp)
    lw      s7, 36(sp)
    lw      s8, 40(sp)
    lw      s9, 44(sp)
    lw      s10, 48(sp)
    lw      s11, 52(sp)
    addi    sp, sp, 64
    ret
    .size uk__resume_full, . - uk__resume_full

/* int uk__yield_fast(void): the voluntary yield. Called only from the inline uk_task_yield,
 * which declares every register but sp, gp and tp clobbered, so nothing else needs saving:
 * the frame it leaves holds the resume address, ra and the interrupt key. Returns 0, or
 * UK_EPERM from an interrupt handler. */
    .globl uk__yield_fast
    .type uk__yield_fast, @function
uk__yield_fast:
    csrrci  t6, mstatus, 8
    andi    t6, t6, 8
    addi    sp, sp, -16
    sw      ra, 4(sp)
    sw      t6, 8(sp)
    mv      a0, sp
    call    uk__yield_next          /* a0 = the current task (-1: refused), a1 = next or 0 */
    li      t0, -1
    beq     a0, t0, 2f
    beqz    a1, uk__resume_min
    la      t0, uk__resume_min
    sw      t0, 0(sp)
    sw      sp, 0(a0)
    lw      sp, 0(a1)
    lw      t0, 0(sp)
    jr      t0
2:  lw      ra, 4(sp)
    lw      t6, 8(sp)
    addi    sp, sp, 16
    csrs    mstatus, t6
    li      a0, -4                  /* UK_EPERM */
    ret
    .size uk__yield_fast, . - uk__yield_fast

    .type uk__resume_min, @function
uk__resume_min:
    lw      ra, 4(sp)
    lw      t6, 8(sp)
    addi    sp, sp, 16
    csrs    mstatus, t6
    li      a0, 0
    ret
    .size uk__resume_min, . - uk__resume_min

/* A new context's first switch returns here with its function in s0 and argument in s1. */
    .globl uk__arch_context_start
    .type uk__arch_context_start, @function
uk__arch_context_start:
    mv      a0, s1
    jr      s0
    .size uk__arch_context_start, . - uk__arch_context_start

/* Interrupt entry: the vector table's timer, software and fast-line entries jump here. */
    .section .text.uk_other, "ax"
    .globl bsp_vector_timer
    .globl bsp_vector_software
    .globl bsp_vector_fast_irq
    .globl uk__irq_entry
    .type uk__irq_entry, @function
bsp_vector_timer:
bsp_vector_software:
bsp_vector_fast_irq:
uk__irq_entry:
    addi    sp, sp, -80
    sw      ra, 0(sp)
    sw      t0, 4(sp)
    sw      t1, 8(sp)
    sw      t2, 12(sp)
    sw      a0, 16(sp)
    sw      a1, 20(sp)
    sw      a2, 24(sp)
    sw      a3, 28(sp)
    sw      a4, 32(sp)
    sw      a5, 36(sp)
    sw      a6, 40(sp)
    sw      a7, 44(sp)
    sw      t3, 48(sp)
    sw      t4, 52(sp)
    sw      t5, 56(sp)
    sw      t6, 60(sp)
    csrr    t0, mepc
    sw      t0, 64(sp)
    csrr    t0, mstatus
    sw      t0, 68(sp)
    csrr    a0, mcause
    call    uk__irq_dispatch
    lw      t0, 68(sp)
    csrw    mstatus, t0
    lw      t0, 64(sp)
    csrw    mepc, t0
    lw      ra, 0(sp)
    lw      t0, 4(sp)
    lw      t1, 8(sp)
    lw      t2, 12(sp)
    lw      a0, 16(sp)
    lw      a1, 20(sp)
    lw      a2, 24(sp)
    lw      a3, 28(sp)
    lw      a4, 32(sp)
    lw      a5, 36(sp)
    lw      a6, 40(sp)
    lw      a7, 44(sp)
    lw      t3, 48(sp)
    lw      t4, 52(sp)
    lw      t5, 56(sp)
    lw      t6, 60(sp)
    addi    sp, sp, 80
    mret
    .size uk__irq_entry, . - uk__irq_entry
