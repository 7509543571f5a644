/* Deferred kernel calls: what a LISR asks of the kernel (give, activate, ...) is queued here
 * and applied by the kernel's tail (the software interrupt) once the kernel lock is free, so
 * that no LISR ever waits for a kernel section and no kernel section disables interrupts.
 * (A few calls whose work is a constant handful of instructions that wakes nobody skip the
 * ring when the LISR interrupted no kernel section: uk__lisr_direct, kernel_irq.h.)
 *
 * A single-producer, single-consumer ring: only code running with interrupts disabled
 * produces (LISRs do not nest, so one at a time), only the tail consumes. `head` is written
 * by the producer alone, `tail` by the consumer alone. */
#include "kernel.h"

#ifndef UK_DEFER_SLOTS
#define UK_DEFER_SLOTS 32 /* a power of two */
#endif

typedef struct {
    uk__deferred_fn fn;
    void *obj;
    uint32_t arg;
} deferred_t;

static deferred_t ring[UK_DEFER_SLOTS];
volatile uint32_t uk__defer_head, uk__defer_tail;
#define head uk__defer_head
#define tail uk__defer_tail
volatile uint32_t uk__deferred_failed;

UK_OTHER_FN(uk__defer) int uk__defer(uk__deferred_fn fn, void *obj, uint32_t arg)
{
    uint32_t h = head;
    if (h - tail == UK_DEFER_SLOTS)
        return UK_ENOMEM;
    deferred_t *e = &ring[h & (UK_DEFER_SLOTS - 1)];
    e->fn = fn;
    e->obj = obj;
    e->arg = arg;
    head = h + 1;
    uk__arch_tail_raise(); /* the tail runs when the lock is free */
    return UK_OK;
}

UK_OTHER_FN(uk__defer_drain) void uk__defer_drain(void)
{
    uint32_t t = tail;
    while (t != head) {
        deferred_t e = ring[t & (UK_DEFER_SLOTS - 1)];
        tail = ++t;
        if (e.fn(e.obj, e.arg) != UK_OK)
            uk__deferred_failed++;
    }
}

UK_OTHER_FN(uk_deferred_failed) uint32_t uk_deferred_failed(void) { return uk__deferred_failed; }
