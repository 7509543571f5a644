/* Ubik internals: waiting on kernel objects (wait.c) and the mutexes' priority inheritance
 * hooks. */
#ifndef UBIK_KERNEL_WAIT_H
#define UBIK_KERNEL_WAIT_H

#include "kernel_task.h"

/* ---- Waiting (wait.c) ----------------------------------------------------------------- */
/* How a wait queue is ordered, and who is first in it, is the back end's (kernel_waitq.h:
 * uk__waitq_insert, uk__waitq_first, ...); the waits themselves are the core's. */

/* The current task waits on `q` for at most `timeout` ticks (the kernel lock held; never
 * called with UK_NO_WAIT). Returns the wake-up result: UK_OK, UK_ETIMEOUT or UK_EDELETED. */
int uk__wait(uk_list_t *q, void *obj, uk_tick_t timeout);
/* The first half of uk__wait: the current task leaves the ready structure and enters `q`
 * (and the delta list), without switching; the caller then calls uk__reschedule() and reads
 * uk__current->wait_result. For services that must act between the two (mutex inheritance). */
void uk__wait_begin(uk_list_t *q, uk_tick_t timeout);
/* End t's wait with `result`: out of the wait queue and (with a timeout) the delta list;
 * its state is left to the caller. The mutex hook (t->blocked_on) is the caller's too. The
 * waiters behind t are admitted again if the service asked for it (t->wait_leave). */
void uk__wait_end(uk_task_t *t, int result);
/* t left wait queue q unserved (t->waiting_on is NULL) or moved in it (a priority change):
 * run t->wait_leave(q), if set, so that the service admits the waiters now first in line. */
static inline void uk__wait_moved(uk_task_t *t, uk_list_t *q)
{
    void (*leave)(uk_list_t *) = t->wait_leave;
    if (leave) {
        if (!t->waiting_on)
            t->wait_leave = 0; /* out of the queue for good: the hook is spent */
        leave(q);
    }
}
/* End t's wait with `result`: out of the wait queue and the delta list, ready. */
void uk__wake(uk_task_t *t, int result);
/* Wake every waiter of `q` with `result` (object deleted). */
void uk__wake_all(uk_list_t *q, int result);

/* ---- Mutexes (mutex.c): priority inheritance hooks, under the kernel lock ------------ */

/* t's base priority or the priorities it inherits changed: recompute t's effective priority
 * (base, or the first waiter of a held mutex if higher) and carry the change along the chain
 * of owners while t is blocked on a mutex. Makes no switch. */
#ifdef UK_FEATURE_MUTEX
void uk__prio_update(uk_task_t *t);
/* t (t->blocked_on != NULL) has just been taken out of its mutex's wait queue without being
 * handed the mutex (timeout, suspension, deletion): forget the mutex and take back from the
 * owner chain what t's priority had lent it. */
void uk__mutex_wait_ended(uk_task_t *t);
/* t is being deleted: it leaves any mutex wait (as above) and releases every mutex it holds,
 * each passing to its first waiter. The caller reschedules. */
void uk__mutex_task_gone(uk_task_t *t);
#else /* without mutexes nothing is inherited */
static inline void uk__prio_update(uk_task_t *t) { uk__set_prio(t, t->base_prio); }
static inline void uk__mutex_wait_ended(uk_task_t *t) { (void)t; }
static inline void uk__mutex_task_gone(uk_task_t *t) { (void)t; }
#endif

#endif
