/* Ubik internals: the wait-queue and delay back end (as Zephyr's wait_q.h beside its run
 * queue). The core (wait.c, time.c and the services) keeps the waits themselves - states,
 * results, timeouts, the hooks of head-of-line admission - and leaves to the back end how a
 * wait queue is ordered and how delays are counted. A back end is chosen with the policy
 * (kernel/waitq/waitq_impl.h; docs/kernel.md, "Wait queues and delays") and provides, inline
 * or out of line, under the kernel lock:
 *
 *   void uk__waitq_insert(uk_list_t *q, uk_task_t *t)  t (blocked) enters q; sets
 *                                                     t->waiting_on = q
 *   uk_task_t *uk__waitq_first(uk_list_t *q)          the waiter a give serves (the highest
 *                                                     priority, the first come among equals),
 *                                                     or NULL. Inline: every give asks it
 *   void uk__waitq_remove(uk_task_t *t)               t leaves its queue (t->waiting_on,
 *                                                     cleared by the caller), stays blocked
 *   void uk__waitq_leave(uk_task_t *t)                the same, for a t the caller makes
 *                                                     ready next
 *   void uk__waitq_requeue(uk_list_t *q, uk_task_t *t, uk_prio_t prio)
 *                                                     waiting t's effective priority becomes
 *                                                     prio (stored in t->prio); t stays in q
 *   UK_WAITQ_PRIO_ORDERED                             1: q's list itself is in priority order
 *                                                     (its head is first); 0: it is in arrival
 *                                                     order and only uk__waitq_first knows
 *   void uk__delay_insert(uk_task_t *t, uk_tick_t ticks)  t (blocked) is delayed ticks >= 1
 *   void uk__delay_remove(uk_task_t *t)               t's delay is cancelled
 *   void uk__delay_tick(void)                         one tick: each delay that runs out
 *                                                     expires (uk__delay_expire below)
 *   unsigned uk__delay_check(void)                    checks = "full": the delays' own
 *                                                     invariants; returns how many are armed
 * and, for the timer's short path in assembler, kernel/waitq/delay_tick.inc. */
#ifndef UBIK_KERNEL_WAITQ_H
#define UBIK_KERNEL_WAITQ_H

#include "kernel_list.h"
#include "kernel_sched.h"
#include "kernel_task.h"

/* e's delay ran out (the back end's uk__delay_tick found it expired): defined in
 * kernel_time.h, which includes this file. */
static inline void uk__delay_expire(uk_task_t *e);
/* Delayed tasks of the software back end, in expiry order (time.c; also read by its short
 * tick, kernel/waitq/soft/delay_tick.inc). */
extern uk_list_t uk__delta_list;

#include "../waitq/waitq_impl.h"

#endif
