/* Forced-included (-include) when kernel sources are compiled for the host: the host's
 * implementation of the architecture interface (kernel/arch/arch.h) the pure kernel logic
 * uses, single-threaded: interrupts are never disabled and the kernel lock is always free. */
#ifndef UBIK_HOST_SHIM_H
#define UBIK_HOST_SHIM_H
#include <stdbool.h>
#include <stdint.h>
#define UK_ARCH_HOST 1
static inline unsigned uk__arch_irq_disable(void) { return 0; }
static inline void uk__arch_irq_restore(unsigned key) { (void)key; }
static inline bool uk__arch_irqs_off(void) { return false; }
static inline unsigned uk__arch_lock(void) { return 8; }
static inline void uk__arch_unlock(unsigned key) { (void)key; }
static inline bool uk__arch_lock_held(void) { return false; }
static inline uintptr_t uk__arch_sp(void) { return (uintptr_t)__builtin_frame_address(0); }
#endif
