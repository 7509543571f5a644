/* Ubik as a guest of the hypervisor (hv/): the public part of the architecture interface
 * (kernel/arch/arch_irq.h). The guest runs in U-mode: interrupts are the virtual CPU's `ie`
 * (include/hv/abi.h), a plain word the hypervisor reads before delivering anything; turning
 * them back on delivers what became deliverable meanwhile (one hypercall, only then). */
#ifndef UBIK_ARCH_RV32_GUEST_IRQ_IMPL_H
#define UBIK_ARCH_RV32_GUEST_IRQ_IMPL_H

#include "../rv32/arch_yield.h"
#include "hv/abi.h"

/* The virtual CPU page (bsp/guest/src/hv_vcpu.c registers it with the hypervisor). */
extern struct hv_vcpu hv_vcpu;

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

#endif
