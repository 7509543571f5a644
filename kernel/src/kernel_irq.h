/* Ubik internals: interrupt context, the kernel lock and the calls LISRs defer (defer.c).
 * The processor side is the architecture interface (kernel/arch/arch.h). */
#ifndef UBIK_KERNEL_IRQ_H
#define UBIK_KERNEL_IRQ_H

#include "../arch/arch.h"
#include "kernel_checks.h"
#include "kernel_task.h"

/* ---- Interrupt context and the kernel lock (docs/kernel.md, "Interrupts") -------------
 * Kernel data changes only under the kernel lock, which is mie.MSIE cleared: the machine
 * software interrupt is the kernel's "tail" (uk__tail), which applies what LISRs deferred,
 * processes ticks and switches tasks. Interrupts stay enabled under the lock, so the longest
 * interrupt-disabled stretch is a few instructions, whatever the kernel is doing.
 * A LISR (or a task that disabled interrupts: any code running with mstatus.MIE = 0 after
 * uk_start) never takes the lock: its kernel calls are deferred (uk__defer) and applied by
 * the tail as soon as the lock is free. */
static inline __attribute__((always_inline)) bool uk__irqs_off(void) { return uk__arch_irqs_off(); }
static inline __attribute__((always_inline)) unsigned uk__lock(void) { return uk__arch_lock(); }
static inline __attribute__((always_inline)) void uk__unlock(unsigned key)
{
#ifdef UK_CONFIG_CHECKS_FULL
    if (key)
        uk__check_invariants(); /* the lock is freed: the kernel exits to a task */
#endif
    uk__arch_unlock(key);
}

/* In a LISR, or a task with interrupts disabled: kernel calls are deferred, none blocks. */
#define UK_IN_LISR() (uk__irqs_off() && uk__started)
/* In a LISR or a HISR (where blocking, and changing other objects' lifetimes, is refused). */
#define UK_IN_ISR() (uk__current_hisr != 0 || UK_IN_LISR())
/* An interrupt handler never waits, so every call that takes a timeout must get UK_NO_WAIT
 * from a LISR or HISR (or a task with interrupts disabled). Each such call refuses any other
 * timeout with UK_EPERM at its entry, every time, not only when it would have had to wait:
 * the mistake then shows at the first call instead of under load. The one rule for every
 * call with a timeout. A call tests it where it already knows its context, so tasks pay
 * a load and a not-taken branch (the context first: tested the other way round, a blocking
 * call paid a jump out of line and back): UK_LISR_TIMEOUT in the branch a LISR
 * takes (calls that defer; the others refuse LISRs outright), UK_HISR_TIMEOUT after it. */
#define UK_LISR_TIMEOUT(timeout) ((timeout) != UK_NO_WAIT)
#define UK_HISR_TIMEOUT(timeout) \
    (__builtin_expect(uk__current_hisr != 0, 0) && (timeout) != UK_NO_WAIT)

/* A deferred kernel call: applied by the tail with the lock held; returns a UK_E* code
 * (failures are counted in uk__deferred_failed). */
typedef int (*uk__deferred_fn)(void *obj, uint32_t arg);
/* From a LISR (MIE = 0): queue fn(obj, arg) and raise the tail. UK_OK, or UK_ENOMEM when the
 * queue (UK_DEFER_SLOTS entries) is full: the call is refused, the caller knows. */
int uk__defer(uk__deferred_fn fn, void *obj, uint32_t arg);
void uk__defer_drain(void); /* the tail: apply every queued call, in order */
extern volatile uint32_t uk__defer_head, uk__defer_tail; /* the ring's indices (defer.c) */

/* A LISR may apply a call at once instead of deferring it when the call's work there is a
 * few constant-time instructions that cannot switch tasks (a give nobody waits for, a free
 * to a pool nobody waits on), the interrupt found no kernel section running (the lock free:
 * the kernel's data is consistent, and nothing else can touch it before the LISR returns),
 * and no earlier call is queued (calls apply in order). Not for a task with interrupts
 * disabled (it is not on the interrupt stack): its calls are always queued. Of the calls
 * that ready a task only uk_task_resume is applied so (its work, the policy's O(1) insert,
 * takes about as long as queuing it; the tail, raised, reschedules); a wake out of a wait
 * queue is deferred, so a LISR stays short and the worst interrupt latency does not grow.
 * A call applied at once counts its failure as the tail would. */
static inline __attribute__((always_inline)) bool uk__lisr_direct(void)
{
    return uk__defer_head == uk__defer_tail && !uk__arch_lock_held() &&
           uk__arch_sp() - (uintptr_t)uk__stacks.irq < UK_IRQ_STACK_BYTES;
}
extern volatile uint32_t uk__deferred_failed;
extern volatile uint32_t uk__tick_due; /* set by the timer interrupt, cleared by the tail */

#endif
