/* Ubik on RV32: the public part of the architecture interface (kernel/arch/arch_irq.h).
 * Interrupts are disabled with mstatus.MIE. */
#ifndef UBIK_ARCH_RV32_IRQ_IMPL_H
#define UBIK_ARCH_RV32_IRQ_IMPL_H

#include "arch_yield.h"

static inline __attribute__((always_inline)) unsigned uk__arch_irq_disable(void)
{
    unsigned key;
    __asm__ volatile(UK_ASM_ZICSR("csrrci %0, mstatus, 8") : "=r"(key) : : "memory");
    return key & 8;
}

static inline __attribute__((always_inline)) void uk__arch_irq_restore(unsigned key)
{
    __asm__ volatile(UK_ASM_ZICSR("csrs mstatus, %0") : : "r"(key) : "memory");
}

#endif
