/* Ubik internals: the scheduler policy interface (one file of kernel/sched/ implements it). */
#ifndef UBIK_KERNEL_SCHED_H
#define UBIK_KERNEL_SCHED_H

#include "kernel_config.h"

/* ---- Scheduler policy: one file of kernel/sched/ is compiled in ---------------------- */
/* A task's state field says READY while it runs, as ThreadX's does: "running" is "READY and
 * uk__current", so a switch stores no states (uk_task_state reports UK_TASK_RUNNING).
 * The contract (docs/kernel.md, "Scheduler policies"): every call runs under the kernel
 * lock (mie.MSIE clear; interrupts are not disabled for it, and no call comes from a LISR),
 * and none blocks, switches or releases the lock; the ready structure holds exactly the
 * READY tasks (the running one among them), and pick() returns one of them (the idle task
 * is always ready, so never NULL). */

void uk__sched_init(void);
void uk__sched_insert(uk_task_t *t); /* t became ready: behind its equals */
void uk__sched_remove(uk_task_t *t); /* t is no longer ready */

/* The core's two transitions over the policy (inline: every wake and every block runs one). */
static inline void uk__make_ready(uk_task_t *t) /* t leaves any blocked state, becomes ready */
{
    t->state = UK_TASK_READY;
    uk__sched_insert(t);
}
static inline void uk__unready(uk_task_t *t, uint8_t state) /* current or ready t blocks */
{
    if (t->state == UK_TASK_READY)
        uk__sched_remove(t);
    t->state = state;
}
uk_task_t *uk__sched_pick(void); /* the task to run (stays in the structure) */
/* t (the running task) goes behind its equals; returns the task to run now (the policy's
 * pick, found without a full lookup where the policy can). */
uk_task_t *uk__sched_yield(uk_task_t *t);
bool uk__sched_tick(uk_task_t *t);       /* a tick for the running t: true if it was rotated */
int uk__sched_valid_prio(unsigned prio); /* UK_OK or UK_EINVAL */
/* t is ready or running and its effective priority becomes `prio`: the policy stores it in
 * t->prio and keeps its structure ordered (a priority policy puts t behind its new equals;
 * the cyclic one leaves t where it is). A wait-queue back end may call it for a waiting t too
 * (the RTM's, whose hardware orders wait queues by the records' priorities). */
void uk__sched_set_prio(uk_task_t *t, uk_prio_t prio);
#if UK_SCHED_DEADLINES
/* Deadline policies: t (ready or running) gets the absolute deadline `deadline`; the policy
 * keeps its structure ordered. (Insert sets a task's deadline from t->rel_deadline.) */
void uk__sched_set_deadline(uk_task_t *t, uk_tick_t deadline);
/* Deadline inheritance (mutex.c): t (in any state) inherits `deadline` from the waiters of
 * the mutexes it holds, or nothing (set false); its key is the earlier of that and its own
 * job's, and a ready t is re-ordered when the key changes. */
void uk__sched_inherit(uk_task_t *t, bool set, uk_tick_t deadline);
/* t's key deadline: the earlier of its job's (while it has a relative deadline) and the one it
 * inherits; false if it has neither (it is ordered by priority alone). */
static inline bool uk__deadline_key(const uk_task_t *t, uk_tick_t *d)
{
    bool own = t->rel_deadline != 0;
    if (own && (!t->inh_set || (int32_t)(t->deadline - t->inh_deadline) <= 0)) {
        *d = t->deadline;
        return true;
    }
    *d = t->inh_deadline;
    return t->inh_set;
}
#endif

#if UK_SCHED_UNIQUE_PRIOS
/* Base priorities are unique: t claims `prio` (UK_OK, or UK_EINVAL if another live task has
 * it) at create and set_prio, and releases it at delete or when set_prio moves it. */
int uk__sched_claim_prio(uk_task_t *t, unsigned prio);
void uk__sched_release_prio(uk_task_t *t, unsigned prio);
#else
static inline int uk__sched_claim_prio(uk_task_t *t, unsigned prio)
{
    (void)t;
    (void)prio;
    return UK_OK;
}
static inline void uk__sched_release_prio(uk_task_t *t, unsigned prio)
{
    (void)t;
    (void)prio;
}
#endif

#endif
