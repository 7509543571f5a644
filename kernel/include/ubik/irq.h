/* Ubik: interrupts. A LISR runs on the kernel's interrupt stack ([kernel] irq_stack_bytes)
 * with interrupts disabled (no nesting); the kernel acknowledges its line at the interrupt
 * controller before calling it. */
#ifndef UBIK_IRQ_H
#define UBIK_IRQ_H

#include "ubik/types.h"
#include "../../arch/arch_irq.h" /* the port's interrupt enable */

/* Disable interrupts, returning a key for uk_irq_restore (which nests correctly). */
static inline __attribute__((always_inline)) unsigned uk_irq_disable(void)
{
    return uk__arch_irq_disable();
}

static inline __attribute__((always_inline)) void uk_irq_restore(unsigned key)
{
    uk__arch_irq_restore(key);
}

int uk_irq_install(unsigned line, void (*lisr)(unsigned line)); /* fast line 0..14 */
int uk_irq_mask(uint32_t lines); /* disable these fast lines (bit i = line i) */
int uk_irq_unmask(uint32_t lines);
bool uk_in_isr(void); /* true in a LISR or a HISR */

/* A HISR: deferred interrupt work with its own stack, scheduled above every task (all
 * activated HISRs run before any task; UK_HISR_PRIOS levels among themselves, 0 highest,
 * FIFO within a level). Its entry runs once per activation, with interrupts enabled. */
typedef struct uk_hisr {
    void *sp; /* first, as in uk_task_t */
    const char *name;
    void (*entry)(struct uk_hisr *h);
    uint8_t prio;
    uint8_t running;  /* started and not finished (its stack holds a context) */
    uint16_t pending; /* activations not yet run */
    uk_list_t node;   /* in the HISR ready list of its level */
    uint32_t *stack_base;
    size_t stack_bytes;
    uint32_t magic;
} uk_hisr_t;

#define UK_HISR_PRIOS 4
int uk_hisr_create(uk_hisr_t *h, const char *name, void (*entry)(uk_hisr_t *), uint8_t prio,
                   void *stack, size_t stack_bytes);
int uk_hisr_activate(uk_hisr_t *h); /* from a LISR (or a task): UK_ENOMEM past 65535 pending */
int uk_hisr_delete(uk_hisr_t *h);   /* UK_ESTATE while activated or running */

/* Kernel calls a LISR may make: uk_sem_give, uk_task_activate, uk_task_resume,
 * uk_task_suspend (of another task), uk_hisr_activate -- these are deferred: queued, and
 * applied in order when the interrupt ends (before any task runs) or, if the LISR interrupted
 * a kernel call, when that call leaves the kernel. They return UK_OK when queued (after
 * checking the object), UK_ENOMEM when the queue is full. A deferred call that fails when
 * applied (a give at the semaphore's max, an activate of an active task) is counted by
 * uk_deferred_failed(). Also: uk_sem_count, uk_task_self/state/prio, uk_time, uk_tick_hz,
 * uk_irq_*, uk_in_isr. A task that disables interrupts is treated as a LISR until it enables
 * them. A HISR may make the calls above (applied at once) and uk_sem_take(UK_NO_WAIT).
 * The others return UK_EPERM (docs/api.md lists each call), and so does every call with a
 * timeout other than UK_NO_WAIT from a LISR or HISR: an interrupt handler never waits. */
uint32_t uk_deferred_failed(void);

#endif
