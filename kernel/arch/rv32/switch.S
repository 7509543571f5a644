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

/* void uk__arch_switch(void **from, void **to) */
    .globl uk__arch_switch
    .type uk__arch_switch, @function
uk__arch_switch:
    addi    sp, sp, -64
    sw      ra, 0(sp)
    sw      s0, 4(sp)
    sw      s1, 8(sp)
    sw      s2, 12(sp)
    sw      s3, 16(sp)
    sw      s4, 20(sp)
    sw      s5, 24(sp)
    sw      s6, 28(sp)
    sw      s7, 32(sp)
    sw      s8, 36(sp)
    sw      s9, 40(sp)
    sw      s10, 44(sp)
    sw      s11, 48(sp)
    sw      sp, 0(a0)
    lw      sp, 0(a1)
    lw      ra, 0(sp)
    lw      s0, 4(sp)
    lw      s1, 8(sp)
    lw      s2, 12(sp)
    lw      s3, 16(sp)
    lw      s4, 20(sp)
    lw      s5, 24(sp)
    lw      s6, 28(sp)
    lw      s7, 32(sp)
    lw      s8, 36(sp)
    lw      s9, 40(sp)
    lw      s10, 44(sp)
    lw      s11, 48(sp)
    addi    sp, sp, 64
    ret
    .size uk__arch_switch, . - uk__arch_switch

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
