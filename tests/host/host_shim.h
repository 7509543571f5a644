/* Forced-included (-include) when kernel sources are compiled for the host: ubik/irq.h is
 * read with its RISC-V interrupt-enable functions renamed out of the way (static inline and
 * unused, so their csr instructions never reach the host assembler), and plain C versions
 * take their names. The rest of the pure kernel logic compiles as it is. */
#ifndef UBIK_HOST_SHIM_H
#define UBIK_HOST_SHIM_H
#define uk_irq_disable uk__target_irq_disable
#define uk_irq_restore uk__target_irq_restore
#include "ubik/irq.h"
#undef uk_irq_disable
#undef uk_irq_restore
static inline unsigned uk_irq_disable(void) { return 0; }
static inline void uk_irq_restore(unsigned key) { (void)key; }
/* kernel.h's lock and interrupt-state helpers: single-threaded on the host. */
#define UK_HOST_SHIM 1
static inline int uk__irqs_off(void) { return 0; }
static inline unsigned uk__lock(void) { return 8; }
static inline void uk__unlock(unsigned key) { (void)key; }
#endif
