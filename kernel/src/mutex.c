/* Mutexes: ownership, recursive locking by the owner, timeouts, waiters in priority order
 * (FIFO among equals), hand-over on unlock, and priority inheritance that is transitive
 * through chains of owners (A waits on M1 owned by B, B waits on M2 owned by C: C runs at
 * least at A's priority).
 *
 * The scheme. A task's `base_prio` is the priority the application set; its `prio` (the one
 * the scheduler and every wait queue use) is always
 *
 *     prio == min(base_prio, prio of the first waiter of each mutex in t->mutexes)
 *
 * (numerically: 0 is the highest). Waiter queues are ordered by `prio`, so the first waiter
 * of a mutex is its highest-priority one and that minimum needs one look per held mutex.
 * `t->blocked_on` names the mutex t waits on, which links the chain of owners: t ->
 * t->blocked_on->owner -> its blocked_on->owner ... Whenever an input of the formula changes
 * (a waiter arrives, leaves by timeout, suspension or deletion, is handed the mutex, changes
 * priority; a mutex is unlocked or deleted; a base priority is set) the owner's `prio` is
 * recomputed and, if it changed, the change is carried to the next owner of the chain. It
 * stops at the first task whose priority does not change, so no stale boost is left anywhere.
 * A deadlock cycle of owners also ends the walk (a priority can only move one way per walk).
 *
 * Interrupts are disabled for the whole of each operation. Worst cases, with C the length of
 * the chain of owners above the mutex, H the number of mutexes a task holds, W the number of
 * waiters of a queue:
 *   lock, uncontended or recursive:  O(1);
 *   lock that waits:                 O(W) to queue + C levels of O(1 + W) (re-queue the owner
 *                                    in the queue it waits on, ready-structure moves are O(1));
 *   unlock, no waiter:               O(H) to unlink m from the held list (O(1) when mutexes are
 *                                    released in LIFO order); the priority cannot change;
 *   unlock with waiters:             the above + O(1) hand-over + O(H) to recompute the
 *                                    caller; it waits on nothing, so no chain walk;
 *   delete:                          O(W) wake-ups + O(H) for the owner;
 *   a waiter's timeout (from the tick, in the kernel tail), suspension, deletion or priority change:
 *                                    C levels of O(H + W).
 * Chains are as long as the application nests its mutexes (usually 1 or 2).
 *
 * Mutexes belong to tasks: lock, unlock and delete return UK_EPERM from a LISR or a HISR. */
#include "kernel.h"

#ifdef UK_FEATURE_MUTEX /* the whole file: [kernel] features in system.toml */

/* t's priority by the formula above. O(H). */
static UK_IPC_FN(effective_prio) uk_prio_t effective_prio(const uk_task_t *t)
{
    uk_prio_t p = t->base_prio;
    for (uk_mutex_t *m = t->mutexes; m; m = m->next_held) {
        uk_task_t *w = uk__waitq_first(&m->waiters);
        if (w && w->prio < p)
            p = w->prio;
    }
    return p;
}

#if !UK_SCHED_DEADLINES
/* Raise t, and the owners down its chain, to at least priority p (a new waiter arrived). */
static UK_IPC_FN(prio_raise) void prio_raise(uk_task_t *t, uk_prio_t p)
{
    while (t && p < t->prio) {
        uk__set_prio(t, p); /* re-queues t in the queue it waits on, if any */
        t = t->blocked_on ? t->blocked_on->owner : 0;
    }
}
#endif

#if UK_SCHED_DEADLINES
/* Deadline inheritance (docs/kernel.md, "Resource sharing under EDF"): t inherits the
 * earliest key deadline among the waiters of the mutexes it holds (the wait queues are in
 * priority order, so every waiter is looked at: O(H + W)). Returns true if t's key changed. */
static UK_IPC_FN(inherit_deadline) bool inherit_deadline(uk_task_t *t)
{
    bool set = false;
    uk_tick_t d = 0, wd;
    for (uk_mutex_t *m = t->mutexes; m; m = m->next_held) {
        for (uk_list_t *at = m->waiters.next; at != &m->waiters; at = at->next) {
            const uk_task_t *w = UK_CONTAINER_OF(at, uk_task_t, wait_node);
            if (uk__deadline_key(w, &wd) && (!set || (int32_t)(wd - d) < 0)) {
                d = wd;
                set = true;
            }
        }
    }
    uk_tick_t was, now;
    bool was_set = uk__deadline_key(t, &was);
    uk__sched_inherit(t, set, d);
    bool now_set = uk__deadline_key(t, &now);
    return now_set != was_set || (now_set && now != was);
}
#endif

UK_IPC_FN(uk__prio_update) void uk__prio_update(uk_task_t *t)
{
    while (t) {
        uk_prio_t p = effective_prio(t);
#if UK_SCHED_DEADLINES
        bool changed = p != t->prio;
        if (changed)
            uk__set_prio(t, p);
        changed |= inherit_deadline(t);
        if (!changed)
            return;
#else
        if (p == t->prio)
            return;
        uk__set_prio(t, p);
#endif
        t = t->blocked_on ? t->blocked_on->owner : 0;
    }
}

static UK_IPC_FN(held_push) void held_push(uk_task_t *t, uk_mutex_t *m)
{
    m->next_held = t->mutexes;
    t->mutexes = m;
}

/* Unlink m from t's held list (m is on it). Mutexes are mostly released in LIFO order, so
 * this is usually the first step. */
static UK_IPC_FN(held_remove) void held_remove(uk_task_t *t, uk_mutex_t *m)
{
    uk_mutex_t **pp = &t->mutexes;
    while (*pp != m)
        pp = &(*pp)->next_held;
    *pp = m->next_held;
    m->next_held = 0;
}

/* m (already off its owner's held list) passes to its first waiter, or becomes free. The new
 * owner's priority needs no change: m's other waiters are not above it (queue order); under
 * a deadline policy it inherits their earliest deadline. */
static UK_IPC_FN(pass_on) void pass_on(uk_mutex_t *m)
{
    uk_task_t *w = uk__waitq_first(&m->waiters);
    if (!w) {
        m->owner = 0;
        m->depth = 0;
        return;
    }
    uk__wake(w, UK_OK);
    w->blocked_on = 0;
    m->owner = w;
    m->depth = 1;
    held_push(w, m);
#if UK_SCHED_DEADLINES
    (void)inherit_deadline(w); /* m's other waiters may have earlier deadlines */
#endif
}

UK_IPC_FN(uk_mutex_init) int uk_mutex_init(uk_mutex_t *m)
{
    if (UK_IN_ISR())
        return UK_EPERM;
    if (!m)
        return UK_EINVAL;
    unsigned key = uk__lock();
    int r = UK_OK;
    if (m->magic == UK_MUTEX_MAGIC && m->owner) {
        r = UK_ESTATE; /* a live, locked mutex: re-initialising it would corrupt its owner */
    } else {
        m->owner = 0;
        m->depth = 0;
        uk__list_init(&m->waiters);
        m->next_held = 0;
        m->magic = UK_MUTEX_MAGIC;
    }
    uk__unlock(key);
    return r;
}

UK_IPC_FN(uk_mutex_lock) int uk_mutex_lock(uk_mutex_t *m, uk_tick_t timeout)
{
    if (!m)
        return UK_EINVAL;
    if (UK_IN_ISR() || !uk__started)
        return UK_EPERM;
    unsigned key = uk__lock();
    uk_task_t *self = uk__current;
    int r = UK_OK;
    if (m->magic != UK_MUTEX_MAGIC) {
        r = UK_EINVAL;
    } else if (!m->owner) {
        m->owner = self;
        m->depth = 1;
        held_push(self, m);
    } else if (m->owner == self) {
        if (m->depth == UINT32_MAX)
            r = UK_ENOMEM;
        else
            m->depth++;
    } else if (timeout == UK_NO_WAIT) {
        r = UK_EAGAIN;
    } else {
        self->blocked_on = m;
        uk__wait_begin(&m->waiters, timeout);
        /* before the switch: the boosted owner may run */
#if UK_SCHED_DEADLINES
        uk__prio_update(m->owner); /* its priority and its inherited deadline */
#else
        prio_raise(m->owner, self->prio);
#endif
        uk__reschedule();
        UK__SIGNAL_RESUMED(self);
        /* UK_OK: handed over by pass_on (we own m, depth 1). UK_ETIMEOUT or UK_EDELETED:
         * the tick, suspend, or delete has already taken us out and undone the boost. */
        r = self->wait_result;
    }
    uk__unlock(key);
    return r;
}

UK_IPC_FN(uk_mutex_unlock) int uk_mutex_unlock(uk_mutex_t *m)
{
    if (!m)
        return UK_EINVAL;
    if (UK_IN_ISR() || !uk__started)
        return UK_EPERM;
    unsigned key = uk__lock();
    uk_task_t *self = uk__current;
    int r = UK_OK;
    if (m->magic != UK_MUTEX_MAGIC) {
        r = UK_EINVAL;
    } else if (m->owner != self) {
        r = UK_EPERM;
    } else if (--m->depth == 0) {
        held_remove(self, m);
        if (uk__list_empty(&m->waiters)) {
            m->owner = 0; /* no waiter lent us anything: our priority stays, nobody woke */
        } else {
            pass_on(m);
            uk__prio_update(self); /* drop what m's waiters lent us */
            uk__reschedule();
        }
    }
    uk__unlock(key);
    return r;
}

UK_IPC_FN(uk_mutex_delete) int uk_mutex_delete(uk_mutex_t *m)
{
    if (!m)
        return UK_EINVAL;
    if (UK_IN_ISR())
        return UK_EPERM;
    unsigned key = uk__lock();
    int r = UK_OK;
    if (m->magic != UK_MUTEX_MAGIC) {
        r = UK_EINVAL;
    } else {
        m->magic = 0;
        uk_task_t *w;
        while ((w = uk__waitq_first(&m->waiters)) != 0) {
            uk__wake(w, UK_EDELETED);
            w->blocked_on = 0;
        }
        uk_task_t *o = m->owner;
        m->owner = 0;
        m->depth = 0;
        if (o) {
            held_remove(o, m);
            uk__prio_update(o);
        }
        uk__reschedule();
    }
    uk__unlock(key);
    return r;
}

UK_IPC_FN(uk__mutex_wait_ended) void uk__mutex_wait_ended(uk_task_t *t)
{
    uk_mutex_t *m = t->blocked_on;
    t->blocked_on = 0;
    uk__prio_update(m->owner);
}

UK_IPC_FN(uk__mutex_task_gone) void uk__mutex_task_gone(uk_task_t *t)
{
    if (t->blocked_on)
        uk__mutex_wait_ended(t);
    while (t->mutexes) {
        uk_mutex_t *m = t->mutexes;
        t->mutexes = m->next_held;
        m->next_held = 0;
        pass_on(m);
    }
}

#endif /* UK_FEATURE_MUTEX */
