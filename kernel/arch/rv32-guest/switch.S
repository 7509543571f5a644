/* Ubik as a guest of the hypervisor (hv/): context switches and the virtual interrupt
 * entries. The design is the machine port's (../rv32/switch.S: the kernel lock holds off the
 * tail; LISRs run on the interrupt stack with interrupts disabled; the tail runs ticks,
 * deferred calls and switches with interrupts enabled), on the virtual CPU page
 * (include/hv/abi.h) instead of the core's CSRs:
 *
 * - The hypervisor enters a virtual trap at the vector table (bsp/crt0.S, at the start of the
 *   guest's memory) with ie cleared and the interrupted pc, ie, t0 and t1 saved on the page;
 *   t0 and t1 are free. HV_VRET (t0 = 0, ecall) returns: pc, ie, t0 and t1 from the page.
 *   So an entry must copy the page's epc, pie, t0 and t1 into its frame before it enables
 *   interrupts (a nested trap overwrites them), and write them back with interrupts disabled.
 * - Interrupts are enabled by a store to ie, then what became deliverable meanwhile is
 *   delivered by HV_SYNC - only if something is pending and enabled (a load and a branch).
 * - The timer interrupt counts most ticks itself and returns with the next compare in one
 *   hypercall (HV_VRET_TIMER); any other tick is the tail's, as on the machine.
 * Frames: as on the machine (tail 80 bytes: ra 0, t0-t2 4..12, a0-a7 16..44, t3-t6 48..60,
 * epc 64, pie 68; a LISR's 64 bytes on the interrupt stack, the interrupted sp at 60). */
#include "bsp/mmio.h"
#include "bsp/trapframe.h"
#include "hv/abi.h"
#include "../rv32/tcb_offsets.h"
#include "../../src/kernel_defaults.h" /* uk_config.h and its defaults, as the C sees them */

    .cfi_sections .debug_frame

#define FRAME_BYTES_GUEST 64

/* What the shared part (../rv32/context.inc) needs: the page's ie and soft_enable (the lock,
 * a word of its own: one store, never a read-modify-write a handler could interleave). */
.macro IRQS_OFF_GOTO label
    lw      t0, hv_vcpu + HV_VCPU_IE
    beqz    t0, \label
.endm
.macro KERNEL_LOCK
    sw      zero, hv_vcpu + HV_VCPU_SOFT_ENABLE, t0
.endm
.macro KERNEL_UNLOCK
    la      t0, hv_vcpu
    li      t1, HV_IRQ_SOFT
    sw      t1, HV_VCPU_SOFT_ENABLE(t0)
    lw      t1, HV_VCPU_MSIP(t0)
    beqz    t1, 2f
    /* A tail raised meanwhile runs now. It is taken here as the hypervisor would deliver it
     * (a task runs with interrupts on; the tail's entry reads only epc, pie, t0 and t1, and
     * t0/t1 are dead here), without a hypercall: interrupts off, then, if it is still
     * pending (not delivered in between), the page filled and the vector entered. */
    sw      zero, HV_VCPU_IE(t0)
    lw      t1, HV_VCPU_MSIP(t0)
    beqz    t1, 1f
    li      t1, HV_IE
    sw      t1, HV_VCPU_PIE(t0)
    la      t1, 2f
    sw      t1, HV_VCPU_EPC(t0)
    j       bsp_vector_software
1:  li      t1, HV_IE               /* it ran meanwhile: interrupts on again, and what came */
    sw      t1, HV_VCPU_IE(t0)      /* in while they were off delivered */
    li      t0, HV_SYNC
    ecall
2:
.endm

#include "../rv32/context.inc"
#include "../../waitq/delay_tick.inc" /* the back end's short tick: DELAY_TICK_SHORT */

/* ---- Virtual interrupt entries ------------------------------------------------------------- */
    .section .text.uk_other.bsp_vector_fast_irq, "ax"

/* Fast line (cause 16 + line): the partition's LISR uk__lisr_table[line](line) on the
 * interrupt stack, interrupts disabled; the hypervisor acknowledged the line as it delivered
 * it. t0/t1 are on the page: HV_VRET restores them, so the frame holds the rest. */
    .globl bsp_vector_fast_irq
    .type bsp_vector_fast_irq, @function
    .p2align 2
bsp_vector_fast_irq:
    mv      t1, sp
    lw      sp, uk__guest_irq_sp    /* onto the interrupt stack (LISRs do not nest) */
    addi    sp, sp, -FRAME_BYTES_GUEST
    sw      t1, 60(sp)              /* the interrupted sp */
    sw      ra, 0(sp)
    sw      t2, 4(sp)
    sw      a0, 8(sp)
    sw      a1, 12(sp)
    sw      a2, 16(sp)
    sw      a3, 20(sp)
    sw      a4, 24(sp)
    sw      a5, 28(sp)
    sw      a6, 32(sp)
    sw      a7, 36(sp)
    sw      t3, 40(sp)
    sw      t4, 44(sp)
    sw      t5, 48(sp)
    sw      t6, 52(sp)
    lw      a0, hv_vcpu + HV_VCPU_CAUSE
    andi    a0, a0, 15              /* cause 16..30: the line */
    slli    t0, a0, 2
    la      t1, uk__lisr_table
    add     t0, t0, t1
    lw      t0, 0(t0)
    jalr    t0
    lw      ra, 0(sp)
    lw      t2, 4(sp)
    lw      a0, 8(sp)
    lw      a1, 12(sp)
    lw      a2, 16(sp)
    lw      a3, 20(sp)
    lw      a4, 24(sp)
    lw      a5, 28(sp)
    lw      a6, 32(sp)
    lw      a7, 36(sp)
    lw      t3, 40(sp)
    lw      t4, 44(sp)
    lw      t5, 48(sp)
    lw      t6, 52(sp)
    lw      sp, 60(sp)
    li      t0, HV_VRET
    ecall
    .size bsp_vector_fast_irq, . - bsp_vector_fast_irq

    .section .text.uk_time.bsp_vector_timer, "ax"
/* The timer (delivered whenever interrupts are on, as on the machine). Most ticks only
 * count, as on the machine (../rv32/switch.S): when no kernel section was interrupted, no
 * delayed task expires, no software timer exists, the policy keeps no time slices, the
 * period has no fraction and the rate has not changed, the tick is counted here, the next
 * compare put on the page and HV_VRET_TIMER sets it and returns, all with interrupts off:
 * one pass through the hypervisor. Any other tick masks the timer until the tail has moved
 * the compare, notes the tick and raises the tail, which runs as soon as the lock is free. */
    .globl bsp_vector_timer
    .type bsp_vector_timer, @function
bsp_vector_timer:
#if defined(UK_POLICY_TIME_SLICES) && !UK_POLICY_TIME_SLICES && !defined(UK_CONFIG_CHECKS_FULL) && UK_DELAY_TICK_SHORT_GUEST
    la      t0, hv_vcpu
    lw      t1, HV_VCPU_SOFT_ENABLE(t0)
    beqz    t1, 8f                  /* a kernel section was interrupted: the tail's tick */
    lw      t1, uk__timer_tick_hook
    bnez    t1, 8f                  /* software timers */
    lw      t1, uk__tick_rem
    bnez    t1, 8f                  /* a fractional period */
    addi    sp, sp, -16
    sw      t2, 0(sp)
    sw      t3, 4(sp)
    lui     t1, %hi(TIMER_MTIME_HZ)
    lw      t1, %lo(TIMER_MTIME_HZ)(t1)
    lw      t2, uk__timer_hz
    bne     t1, t2, 7f              /* the rate changed */
    DELAY_TICK_SHORT 7f
1:  TICK_COUNT
    sw      t2, HV_VCPU_TIMECMP(t0)
    lw      t2, uk__next_tick + 4
    add     t2, t2, t1
    sw      t2, uk__next_tick + 4, t3
    sw      t2, HV_VCPU_TIMECMP + 4(t0)
    lw      t2, 0(sp)
    lw      t3, 4(sp)
    addi    sp, sp, 16
    li      t0, HV_VRET_TIMER
    ecall
7:  lw      t2, 0(sp)
    lw      t3, 4(sp)
    addi    sp, sp, 16
#endif
8:  la      t0, hv_vcpu
    lw      t1, HV_VCPU_ENABLE(t0)
    andi    t1, t1, ~HV_IRQ_TIMER
    sw      t1, HV_VCPU_ENABLE(t0)
    li      t1, 1
    sw      t1, HV_VCPU_MSIP(t0)    /* the tail, run when the lock is free */
    sw      t1, uk__tick_due, t0
    li      t0, HV_VRET
    ecall
    .size bsp_vector_timer, . - bsp_vector_timer

    .section .text.uk_other.bsp_vector_software, "ax"
/* The kernel's tail (the virtual software interrupt, delivered only while the lock is free).
 * It copies what the page saved into its frame, takes the lock, enables interrupts, runs
 * uk__tail, and returns with interrupts disabled, the page filled from the frame. */
    .globl bsp_vector_software
    .type bsp_vector_software, @function
bsp_vector_software:
    addi    sp, sp, -80
    la      t0, hv_vcpu
    lw      t1, HV_VCPU_EPC(t0)
    sw      t1, 64(sp)
    lw      t1, HV_VCPU_PIE(t0)
    sw      t1, 68(sp)
    lw      t1, HV_VCPU_T0(t0)
    sw      t1, 4(sp)
    lw      t1, HV_VCPU_T1(t0)
    sw      t1, 8(sp)
    sw      zero, HV_VCPU_SOFT_ENABLE(t0) /* the kernel lock */
    li      t1, HV_IE
    sw      t1, HV_VCPU_IE(t0)      /* interrupts on: LISRs and ticks preempt the tail */
    SAVE_CALLER_SAVED_BUT_T0_T1
    lw      t1, HV_VCPU_PENDING(t0) /* what came in while they were off */
    lw      t2, HV_VCPU_ENABLE(t0)
    and     t1, t1, t2
    beqz    t1, 1f
    li      t0, HV_SYNC
    ecall
1:  call    uk__tail
    RESTORE_CALLER_SAVED_BUT_T0_T1
    la      t0, hv_vcpu
    sw      zero, HV_VCPU_IE(t0)    /* interrupts off until the return */
    lw      t1, 64(sp)
    sw      t1, HV_VCPU_EPC(t0)
    lw      t1, 68(sp)
    sw      t1, HV_VCPU_PIE(t0)
    lw      t1, 4(sp)
    sw      t1, HV_VCPU_T0(t0)
    lw      t1, 8(sp)
    sw      t1, HV_VCPU_T1(t0)
    li      t1, HV_IRQ_SOFT
    sw      t1, HV_VCPU_SOFT_ENABLE(t0) /* the lock released: a tail raised meanwhile runs next */
    addi    sp, sp, 80
    li      t0, HV_VRET
    ecall
    .size bsp_vector_software, . - bsp_vector_software

    .section .sbss.uk__guest_irq_sp, "aw", @nobits
    .globl uk__guest_irq_sp
    .p2align 2
uk__guest_irq_sp:
    .zero 4
