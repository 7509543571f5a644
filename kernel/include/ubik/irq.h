/* Ubik: interrupts. A LISR runs on the interrupted stack with interrupts disabled (no
 * nesting); the kernel acknowledges its line at the interrupt controller before calling it. */
#ifndef UBIK_IRQ_H
#define UBIK_IRQ_H

#include "ubik/types.h"

/* Disable interrupts, returning a key for uk_irq_restore (which nests correctly). */
static inline unsigned uk_irq_disable(void)
{
    unsigned key;
    __asm__ volatile("csrrci %0, mstatus, 8" : "=r"(key) : : "memory");
    return key & 8;
}

static inline void uk_irq_restore(unsigned key)
{
    __asm__ volatile("csrs mstatus, %0" : : "r"(key) : "memory");
}

int uk_irq_install(unsigned line, void (*lisr)(unsigned line)); /* fast line 0..14 */
int uk_irq_mask(uint32_t lines);    /* disable these fast lines (bit i = line i) */
int uk_irq_unmask(uint32_t lines);
bool uk_in_isr(void);               /* true in a LISR */

/* Kernel calls a LISR may make: uk_sem_give, uk_sem_take(UK_NO_WAIT), uk_task_activate,
 * uk_task_resume, uk_task_suspend (of another task), uk_time. Blocking calls return UK_EPERM. */

#endif
