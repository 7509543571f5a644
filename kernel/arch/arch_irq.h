/* Ubik architecture interface, the part the public headers use (ubik/irq.h, ubik/task.h).
 * A port implements it in kernel/arch/<port>/arch_irq_impl.h: static inline functions, so
 * that an interrupt lock costs what its instructions cost. No device register, and only
 * uk_/UK_/UBIK_ names: every application sees them. The rest of the interface, which only
 * the kernel sees, is arch.h.
 *
 *   unsigned uk__arch_irq_disable(void)    disable interrupts at the core; returns a key,
 *                                          nonzero if they were enabled
 *   void uk__arch_irq_restore(unsigned key) enable them again if the key says they were
 *   UK_ARCH_YIELD_FAST (optional)          defined if the port has a voluntary-switch fast
 *   int uk__arch_yield_fast(void)          path; uk_task_yield is then this inline call
 */
#ifndef UBIK_ARCH_IRQ_H
#define UBIK_ARCH_IRQ_H

#if defined(UK_ARCH_HOST)
/* Host unit tests (tests/kernel/host/host_shim.h) define the operations themselves. */
#elif defined(UK_ARCH_RV32_GUEST)
#include "rv32-guest/arch_irq_impl.h"
#elif defined(__riscv) && __riscv_xlen == 32
#include "rv32/arch_irq_impl.h"
#else
#error "Ubik: no architecture port for this target (kernel/arch/)"
#endif

#endif
