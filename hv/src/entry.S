/* The hypervisor's trap entry and exit. Every trap while a guest runs (U-mode) comes here
 * through the BSP's vector table (each of its entries is aliased to hv_trap_entry).
 * mscratch points at the running partition. Three fast paths handle, with four registers
 * saved, what needs no decision: a return from a virtual trap that enables nothing pending,
 * a raise of the partition's own line, and one of its physical lines, each deliverable at
 * once (they are the paths of an interrupt's latency). Everything else saves all the guest's
 * registers into its partition (the pc in the slot of x0) and calls hv_trap, which decides;
 * the partition it returns is resumed with mret. The hypervisor itself runs on its own stack
 * with interrupts disabled; it never traps. */
#include "hv/abi.h"
#include "bsp/mmio.h"
#include "hv.h"

    .cfi_sections .debug_frame
    .section .text.hv_entry, "ax"
    .globl hv_trap_entry
    .type hv_trap_entry, @function
    .p2align 2
hv_trap_entry:
    csrrw   t6, mscratch, t6        /* t6 = the partition; mscratch = the guest's t6 */
    sw      t0, 20(t6)
    sw      t1, 24(t6)
    sw      t2, 28(t6)
    sw      t3, 112(t6)
    csrr    t0, mcause
    bltz    t0, .Lirq
    addi    t0, t0, -8
    bnez    t0, .Lslow              /* not an ecall from U-mode: a fault */
    lw      t1, HV_PART_VCPU(t6)
    beqz    t1, .Lslow
    lw      t0, 20(t6)              /* the hypercall's number (the guest's t0) */
    beqz    t0, .Lvret
    addi    t0, t0, -HV_RAISE
    beqz    t0, .Lraise
    j       .Lslow

/* ---- Fast paths: the running partition goes on, nothing else is due --------------------- */

/* HV_VRET (t1 = the page): pc and ie from the page; if that enables the software interrupt
 * alone, it is delivered here; anything else pending goes the C path. */
.Lvret:
    lw      t0, HV_VCPU_PIE(t1)
    andi    t0, t0, HV_IE
    beqz    t0, 1f                  /* interrupts stay off: nothing to deliver */
    lw      t2, HV_PART_VPENDING(t6)
    lw      t3, HV_VCPU_MSIP(t1)
    snez    t3, t3
    slli    t3, t3, 3               /* HV_IRQ_SOFT */
    or      t2, t2, t3              /* pending */
    lw      t3, HV_VCPU_ENABLE(t1)
    andi    t3, t3, ~HV_IRQ_SOFT
    lw      t0, HV_VCPU_SOFT_ENABLE(t1)
    or      t3, t3, t0              /* enabled */
    and     t2, t2, t3
    li      t0, HV_IE
    beqz    t2, 1f
    li      t3, HV_IRQ_SOFT
    bne     t2, t3, .Lslow
    /* Only its software interrupt (a tail a handler raised): the return becomes that trap at
     * once - the page keeps the pc, t0 and t1 the return would have restored. */
    li      t3, 0x80000003
    sw      t3, HV_VCPU_CAUSE(t1)
    sw      t0, HV_VCPU_PIE(t1)
    sw      zero, HV_VCPU_IE(t1)
    lw      t3, HV_PART_VTVEC(t6)
    addi    t3, t3, 12
    csrw    mepc, t3
    lw      t2, 28(t6)
    lw      t3, 112(t6)
    csrrw   t6, mscratch, t6
    mret
1:  sw      t0, HV_VCPU_IE(t1)
    lw      t0, HV_VCPU_EPC(t1)
    csrw    mepc, t0
    lw      t0, HV_VCPU_T0(t1)
    lw      t2, 28(t6)
    lw      t3, 112(t6)
    lw      t1, HV_VCPU_T1(t1)
    csrrw   t6, mscratch, t6
    mret

/* HV_RAISE of a line the partition owns, deliverable at once and alone: straight into the
 * guest's vector (t1 = the page). The hypercall returns 0 when the handler returns. */
.Lraise:
    lw      t0, 40(t6)              /* a0: the line */
    li      t2, 15
    bgeu    t0, t2, .Lslow          /* the C path refuses it */
    addi    t0, t0, 16              /* the cause */
    lw      t2, HV_PART_LINES(t6)
    sll     t2, t2, 16
    srl     t2, t2, t0
    andi    t2, t2, 1
    beqz    t2, .Lslow
    csrr    t2, mepc
    addi    t2, t2, 4               /* after the ecall */
    j       .Linject

/* A fast line: the running partition's, deliverable at once and alone. */
.Lirq:
    slli    t0, t0, 1
    srli    t0, t0, 1               /* the cause */
    addi    t1, t0, -16
    bltz    t1, .Lslow              /* the timer: the hypervisor's */
    lw      t2, HV_PART_LINES(t6)
    srl     t2, t2, t1
    andi    t2, t2, 1
    beqz    t2, .Lslow              /* another partition's line */
    lw      t1, HV_PART_VCPU(t6)
    beqz    t1, .Lslow
    csrr    t2, mepc

/* Deliver cause t0 to the partition (t1 = its page, t2 = the pc to resume at) if it is
 * enabled and nothing else is pending (else the C path decides the order, or keeps it
 * pending). A physical line is acknowledged only then: the C path collects it otherwise. */
.Linject:
    lw      t3, HV_VCPU_IE(t1)
    beqz    t3, .Lslow
    lw      t3, HV_PART_VPENDING(t6)
    bnez    t3, .Lslow
    lw      t3, HV_VCPU_MSIP(t1)
    bnez    t3, .Lslow
    lw      t3, HV_VCPU_ENABLE(t1)
    srl     t3, t3, t0
    andi    t3, t3, 1
    beqz    t3, .Lslow
    csrr    t3, mcause
    bgez    t3, 1f                  /* a hypercall's raise: nothing to acknowledge */
    sw      t2, HV_VCPU_EPC(t1)
    addi    t2, t0, -16
    li      t3, 1
    sll     t3, t3, t2
    lui     t2, %hi(INTC_ACK)
    sw      t3, %lo(INTC_ACK)(t2)
    j       2f
1:  sw      t2, HV_VCPU_EPC(t1)
    li      a0, 0                   /* the raise's result, when the handler returns */
2:  li      t3, 0x80000000
    or      t3, t3, t0
    sw      t3, HV_VCPU_CAUSE(t1)
    li      t3, HV_IE
    sw      t3, HV_VCPU_PIE(t1)
    sw      zero, HV_VCPU_IE(t1)
    lw      t3, 20(t6)
    sw      t3, HV_VCPU_T0(t1)
    lw      t3, 24(t6)
    sw      t3, HV_VCPU_T1(t1)
    lw      t3, HV_PART_VTVEC(t6)
    slli    t0, t0, 2
    add     t3, t3, t0
    csrw    mepc, t3
    lw      t2, 28(t6)
    lw      t3, 112(t6)
    csrrw   t6, mscratch, t6
    mret

/* ---- The C path: everything saved, hv_trap decides ------------------------------------------ */
.Lslow:
    sw      x1, 4(t6)
    sw      x2, 8(t6)
    sw      x3, 12(t6)
    sw      x10, 40(t6)
    sw      x11, 44(t6)
    sw      x12, 48(t6)
    sw      x13, 52(t6)
    sw      x14, 56(t6)
    sw      x15, 60(t6)
    sw      x16, 64(t6)
    sw      x17, 68(t6)
    sw      x29, 116(t6)
    sw      x30, 120(t6)
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
/* The same partition: its s0-s11 and tp are still in place. */
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
    j       hv_resume
    .size hv_trap_entry, . - hv_trap_entry

/* void hv_enter(struct hv_part *p): the first entry into a guest (from main). */
    .globl hv_enter
    .type hv_enter, @function
hv_enter:
    li      t0, 0x1800
    csrc    mstatus, t0             /* MPP = U: mret enters the guest in U-mode */
/* Resume partition a0 with every register from its context. */
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
