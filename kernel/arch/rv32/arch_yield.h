/* Ubik on RV32, the machine's port and the hypervisor guest's (rv32-guest/): what both give the
 * public headers alike - the CSR-instruction wrapper and the voluntary-switch fast path's
 * inline call (kernel/arch/arch_irq.h). */
#ifndef UBIK_ARCH_RV32_YIELD_H
#define UBIK_ARCH_RV32_YIELD_H

/* CSR instructions assemble whatever -march the final (LTO) code generation uses. */
#define UK_ASM_ZICSR(insn) ".option push\n.option arch, +zicsr\n" insn "\n.option pop"

/* The voluntary fast path (context.inc) saves no registers itself: the compiler saves what the
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
                       "a6", "a7", "s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9",
                       "s10", "s11", "memory");
    return r;
}

#endif
