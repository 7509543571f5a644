/* Ubik on RV32: the public part of the architecture interface (kernel/arch/arch_irq.h).
 * Interrupts are disabled with mstatus.MIE. */
#ifndef UBIK_ARCH_RV32_IRQ_IMPL_H
#define UBIK_ARCH_RV32_IRQ_IMPL_H

/* CSR instructions assemble whatever -march the final (LTO) code generation uses. */
#define UK_ASM_ZICSR(insn) ".option push\n.option arch, +zicsr\n" insn "\n.option pop"

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

/* The voluntary fast path (switch.S) saves no registers itself: the compiler saves what the
 * caller keeps live (the asm clobbers them all). Only with optimisation (the caller's
 * register allocation then keeps it cheap); ubik/task.h decides. */
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
