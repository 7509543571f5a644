/* The hypervisor's trap entry and exit. Every trap while a guest runs (U-mode) comes here
 * through the BSP's vector table (each of its entries is aliased to hv_trap_entry): the
 * guest's registers go into its partition (mscratch points at it while it runs; the pc in
 * the slot of x0), hv_trap decides, and the partition it returns is resumed with mret.
 * The hypervisor itself runs on its own stack with interrupts disabled; it never traps. */
#include "hv/abi.h"

    .cfi_sections .debug_frame
    .section .text.hv_entry, "ax"
    .globl hv_trap_entry
    .type hv_trap_entry, @function
    .p2align 2
hv_trap_entry:
    csrrw   t6, mscratch, t6        /* t6 = the partition; mscratch = the guest's t6 */
    sw      x1, 4(t6)
    sw      x2, 8(t6)
    sw      x3, 12(t6)
    sw      x4, 16(t6)
    sw      x5, 20(t6)
    sw      x6, 24(t6)
    sw      x7, 28(t6)
    sw      x8, 32(t6)
    sw      x9, 36(t6)
    sw      x10, 40(t6)
    sw      x11, 44(t6)
    sw      x12, 48(t6)
    sw      x13, 52(t6)
    sw      x14, 56(t6)
    sw      x15, 60(t6)
    sw      x16, 64(t6)
    sw      x17, 68(t6)
    sw      x18, 72(t6)
    sw      x19, 76(t6)
    sw      x20, 80(t6)
    sw      x21, 84(t6)
    sw      x22, 88(t6)
    sw      x23, 92(t6)
    sw      x24, 96(t6)
    sw      x25, 100(t6)
    sw      x26, 104(t6)
    sw      x27, 108(t6)
    sw      x28, 112(t6)
    sw      x29, 116(t6)
    sw      x30, 120(t6)
    csrr    t5, mscratch
    sw      t5, 124(t6)             /* the guest's t6 */
    csrr    t5, mepc
    sw      t5, 0(t6)
    .option push
    .option norelax
    la      gp, __global_pointer$
    .option pop
    la      sp, __stack_top
    mv      a0, t6
    call    hv_trap                 /* a0 = the partition to resume */
    j       hv_resume
    .size hv_trap_entry, . - hv_trap_entry

/* void hv_enter(struct hv_part *p): the first entry into a guest (from main). */
    .globl hv_enter
    .type hv_enter, @function
hv_enter:
    li      t0, 0x1800
    csrc    mstatus, t0             /* MPP = U: mret enters the guest in U-mode */
    .type hv_resume, @function
hv_resume:
    csrw    mscratch, a0
    lw      t0, 0(a0)
    csrw    mepc, t0
    mv      t6, a0
    lw      x1, 4(t6)
    lw      x2, 8(t6)
    lw      x3, 12(t6)
    lw      x4, 16(t6)
    lw      x5, 20(t6)
    lw      x6, 24(t6)
    lw      x7, 28(t6)
    lw      x8, 32(t6)
    lw      x9, 36(t6)
    lw      x10, 40(t6)
    lw      x11, 44(t6)
    lw      x12, 48(t6)
    lw      x13, 52(t6)
    lw      x14, 56(t6)
    lw      x15, 60(t6)
    lw      x16, 64(t6)
    lw      x17, 68(t6)
    lw      x18, 72(t6)
    lw      x19, 76(t6)
    lw      x20, 80(t6)
    lw      x21, 84(t6)
    lw      x22, 88(t6)
    lw      x23, 92(t6)
    lw      x24, 96(t6)
    lw      x25, 100(t6)
    lw      x26, 104(t6)
    lw      x27, 108(t6)
    lw      x28, 112(t6)
    lw      x29, 116(t6)
    lw      x30, 120(t6)
    lw      x31, 124(t6)
    mret
    .size hv_enter, . - hv_enter

/* Every vector of the BSP's table (bsp/crt0.S) leads here. */
    .globl bsp_vector_exception, bsp_vector_software, bsp_vector_timer
    .globl bsp_vector_fast_irq, bsp_vector_unhandled
    .set bsp_vector_exception, hv_trap_entry
    .set bsp_vector_software, hv_trap_entry
    .set bsp_vector_timer, hv_trap_entry
    .set bsp_vector_fast_irq, hv_trap_entry
    .set bsp_vector_unhandled, hv_trap_entry
