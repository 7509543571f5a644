/* Semaphores: counting (max > 1) and binary (max == 1), with timeouts; waiters wake in
 * priority order, FIFO among equals. */
#include "kernel.h"

#ifdef UK_FEATURE_SEM /* the whole file: [kernel] features in system.toml */

static UK_IPC_FN(valid_sem) bool valid_sem(const uk_sem_t *s)
{
    return s && s->magic == UK_SEM_MAGIC;
}

UK_IPC_FN(uk_sem_init) int uk_sem_init(uk_sem_t *s, uint32_t initial, uint32_t max)
{
    if (UK_ARG_BAD(UK_IN_ISR()))
        return UK_EPERM;
    if (UK_ARG_BAD(!s || max == 0 || initial > max))
        return UK_EINVAL;
    if (UK_ARG_BAD(s->magic == UK_SEM_MAGIC && !uk__list_empty(&s->waiters)))
        return UK_ESTATE; /* a live semaphore with waiters: delete it first */
    s->count = initial;
    s->max = max;
    uk__list_init(&s->waiters);
    s->magic = UK_SEM_MAGIC;
    return UK_OK;
}

UK_IPC_FN(uk_sem_take) int uk_sem_take(uk_sem_t *s, uk_tick_t timeout)
{
    if (UK_ARG_BAD(!valid_sem(s)))
        return UK_EINVAL;
    if (UK_ARG_BAD(UK_IN_LISR()))
        return UK_EPERM; /* the count may be in the middle of a kernel call's change */
    if (UK_ARG_BAD(UK_HISR_TIMEOUT(timeout)))
        return UK_EPERM; /* an interrupt handler never waits: UK_NO_WAIT only (kernel.h) */
    unsigned key = uk__lock();
    int r;
    if (s->count) {
        s->count--;
        r = UK_OK;
    } else if (timeout == UK_NO_WAIT) {
        r = UK_EAGAIN;
    } else if (UK_ARG_BAD(uk__current_hisr || !uk__started)) {
        r = UK_EPERM;
    } else {
        r = uk__wait(&s->waiters, s, timeout);
    }
    uk__unlock(key);
    return r;
}

/* The give under the lock, of a valid s; 1 if it woke a task (the caller reschedules). */
static UK_IPC_FN(sem_give) __attribute__((always_inline)) inline int sem_give(uk_sem_t *s)
{
    uk_task_t *w = uk__waitq_first(&s->waiters);
    if (w) {
        uk__wake(w, UK_OK); /* the count passes straight to the waiter */
        return 1;
    }
    if (s->count < s->max) {
        s->count++;
        return UK_OK;
    }
    return UK_ENOMEM; /* never silently lost: the caller learns the give did not count */
}

static UK_IPC_FN(sem_give_deferred) int sem_give_deferred(void *obj, uint32_t arg)
{
    (void)arg;
    uk_sem_t *s = obj;
    if (!valid_sem(s))
        return UK_EINVAL; /* deleted while the LISR's give was queued */
    int r = sem_give(s);
    return r > 0 ? UK_OK : r;
}

/* Callable from a LISR (deferred) or HISR. A task's or HISR's give checks s once, under the
 * lock, where no deletion can come between the check and the give. */
UK_IPC_FN(uk_sem_give) int uk_sem_give(uk_sem_t *s)
{
    if (UK_IN_LISR()) {
        if (UK_ARG_BAD(!valid_sem(s)))
            return UK_EINVAL;
        if (uk__lisr_direct() && uk__list_empty(&s->waiters)) {
            if (s->count < s->max)
                s->count++;
            else
                uk__deferred_failed++; /* as the tail would count it */
            return UK_OK;
        }
        return uk__defer(sem_give_deferred, s, 0);
    }
    unsigned key = uk__lock();
    int r = UK_EINVAL;
    if (!UK_ARG_BAD(!valid_sem(s))) {
        r = sem_give(s);
        if (r > 0) {
            uk__reschedule();
            r = UK_OK;
        }
    }
    uk__unlock(key);
    return r;
}

UK_IPC_FN(uk_sem_delete) int uk_sem_delete(uk_sem_t *s)
{
    if (UK_IN_ISR())
        return UK_EPERM;
    if (!valid_sem(s))
        return UK_EINVAL;
    unsigned key = uk__lock();
    s->magic = 0;
    uk__wake_all(&s->waiters, UK_EDELETED);
    uk__reschedule();
    uk__unlock(key);
    return UK_OK;
}

UK_IPC_FN(uk_sem_count) int uk_sem_count(const uk_sem_t *s, uint32_t *count)
{
    if (!valid_sem(s) || !count)
        return UK_EINVAL;
    *count = s->count;
    return UK_OK;
}

#endif /* UK_FEATURE_SEM */
