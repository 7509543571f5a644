/* Ubik as a guest of the hypervisor (hv/): the public part of the architecture interface
 * (kernel/arch/arch_irq.h). The guest runs in U-mode: interrupts are the virtual CPU's `ie`
 * (hv/include/hv/abi.h), a plain word the hypervisor reads before delivering anything; turning
 * them back on delivers what became deliverable meanwhile (one hypercall, only then). */
#ifndef UBIK_ARCH_RV32_GUEST_IRQ_IMPL_H
#define UBIK_ARCH_RV32_GUEST_IRQ_IMPL_H

#include "hv/abi.h"

/* The virtual CPU page (bsp/src/guest.c registers it with the hypervisor). */
extern struct hv_vcpu hv_vcpu;

/* CSR instructions assemble whatever -march the final (LTO) code generation uses. */
#define UK_ASM_ZICSR(insn) ".option push\n.option arch, +zicsr\n" insn "\n.option pop"

/* Something pending and enabled (ie aside): ask the hypervisor to deliver it. */
static inline __attribute__((always_inline)) void uk__guest_sync(void)
{
    uint32_t p = hv_vcpu.pending | (hv_vcpu.msip ? HV_IRQ_SOFT : 0);
    if (p & (hv_vcpu.enable | hv_vcpu.soft_enable))
        hv_call(HV_SYNC, 0, 0, 0, 0);
}

static inline __attribute__((always_inline)) unsigned uk__arch_irq_disable(void)
{
    unsigned key = hv_vcpu.ie;
    hv_vcpu.ie = 0;
    __asm__ volatile("" ::: "memory");
    return key & HV_IE;
}

static inline __attribute__((always_inline)) void uk__arch_irq_restore(unsigned key)
{
    __asm__ volatile("" ::: "memory");
    if (key) {
        hv_vcpu.ie = HV_IE;
        uk__guest_sync();
    }
}

/* The voluntary fast path, as on the machine (context.inc). */
#define UK_ARCH_YIELD_FAST 1
int uk__yield_fast(void);
static inline __attribute__((always_inline)) int uk__arch_yield_fast(void)
{
    register int r __asm__("a0");
    __asm__ volatile("call uk__yield_fast"
                     : "=r"(r)
                     :
                     : "ra", "t0", "t1", "t2", "t3", "t4", "t5", "t6", "a1", "a2", "a3", "a4", "a5",
                       "a6", "a7", "s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10",
                       "s11", "memory");
    return r;
}

#endif
